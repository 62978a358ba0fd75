/* SPDX-License-Identifier: MIT */
/* The run's generator: keyed from --seed or the OS, made at first draw. */
#include "common/rng.h"

#include "common/msg.h"

#include <string.h>

fsh_rng *rng_make(const char *seed)
{
    fsh_rng *rng;
    if (seed == NULL) {
        check_status(fsh_rng_new(&rng));
        /* Full reach where the machine has hardware entropy, up to the
           library's default cap (shuffles of up to 5,808 lines); beyond
           it, or without RDSEED, the 256-bit key's bound: a shuf drop-in
           never fails for entropy (README, "Fairness"). */
        check_status(fsh_rng_set_reach(rng, FSH_REACH_FULL | FSH_REACH_KEY));
        return rng;
    }
    check_status(fsh_rng_new_seeded(&rng, seed, strlen(seed)));
    check_status(fsh_rng_set_simulation(rng, 1));
    return rng;
}

fsh_rng *lazy_get(lazy_rng *l)
{
    if (l->rng == NULL)
        l->rng = rng_make(l->seed);
    return l->rng;
}

void shuffle_records(lazy_rng *l, void *a, size_t n, size_t size,
                     unsigned threads)
{
    if (n > 1)
        check_status(fsh_shuffle_records(lazy_get(l), a, n, size, threads));
}

void lazy_free(lazy_rng *l)
{
    fsh_rng_free(l->rng);
    l->rng = NULL;
}
