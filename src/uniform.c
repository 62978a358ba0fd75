/* Exactly uniform bounded integers (Lemire's method; see internal.h). */
#include "internal.h"

int fsh_uniform(fsh_rng *rng, uint64_t bound, uint64_t *out)
{
    if (rng == NULL || out == NULL || bound == 0)
        return FSH_EINVAL;
    fsh_rng_fork_guard(rng);
    /* A bound of 1 has one outcome and consumes no randomness. */
    *out = bound == 1 ? 0 : fsh_uniform_fast(rng, bound);
    return fsh_rng_take_error(rng);
}

int fsh_uniform_range(fsh_rng *rng, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (rng == NULL || out == NULL || hi < lo)
        return FSH_EINVAL;
    if (lo == 0 && hi == UINT64_MAX) {
        /* 2^64 outcomes: one whole word is exactly uniform. */
        return fsh_rng_u64(rng, out);
    }
    uint64_t r;
    int rc = fsh_uniform(rng, hi - lo + 1, &r);
    if (rc == FSH_OK)
        *out = lo + r;
    return rc;
}
