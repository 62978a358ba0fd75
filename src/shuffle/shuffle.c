/* The public shuffle entry points: fsh_shuffle (and its typed forms),
   fsh_shuffle_threads and fsh_permutation*, with the one argument check and
   the one size switch. */
#include "shuffle/shuffle.h"

#include "shuffle/fy.h"
#include "shuffle/scatter.h"
#include "shuffle/thresholds.h"

int fsh_shuffle_check(fsh_rng *rng, const void *base, size_t n, size_t size,
                      int *done)
{
    *done = 1;
    if (rng == NULL || size == 0 || (base == NULL && n > 0))
        return FSH_EINVAL;
    if (n > SIZE_MAX / size)
        return FSH_EINVAL;
    /* One branch for the common case: no guard, 2 <= n <= max_fair_n. */
    if (FSH_UNLIKELY(rng->guard | (n < 2) | (n > rng->max_fair_n))) {
        int rc = fsh_rng_ready(rng);
        if (rc != FSH_OK || n < 2)
            return rc;
        rc = fsh_rng_check_fair(rng, n);
        if (rc != FSH_OK)
            return rc;
    }
    *done = 0;
    return FSH_OK;
}

/* The one size switch (thresholds.h): in cache the plain Fisher-Yates,
   beyond it the prefetching one, far beyond it the scatter shuffle on up to
   threads threads. A randint source takes the plain kernel at every size
   (one call per position). */
static int shuffle_sized(fsh_rng *rng, unsigned char *a, size_t n,
                         size_t size, unsigned threads)
{
    if (rng->src != FSH_SRC_RANDINT) {
        if (n > FSH_SCATTER_MIN_BYTES / size)
            return fsh_scatter_shuffle(rng, a, n, size, threads);
        if (n > FSH_PREFETCH_MIN_BYTES / size && fsh_fy_prefetch(rng, a, n, size))
            return FSH_OK;
    }
    fsh_fy_kernel(rng, a, n, size);
    return FSH_OK;
}

int fsh_shuffle(fsh_rng *rng, void *base, size_t n, size_t size)
{
    int done, rc = fsh_shuffle_check(rng, base, n, size, &done);
    if (done)
        return rc;
    rc = shuffle_sized(rng, base, n, size, 1);
    return rc != FSH_OK ? rc : fsh_rng_take_error(rng);
}

int fsh_shuffle_threads(fsh_rng *rng, void *base, size_t n, size_t size,
                        unsigned threads)
{
    int done, rc = fsh_shuffle_check(rng, base, n, size, &done);
    if (done)
        return rc;
    rc = shuffle_sized(rng, base, n, size, threads);
    return rc != FSH_OK ? rc : fsh_rng_take_error(rng);
}

int fsh_shuffle_u32(fsh_rng *rng, uint32_t *a, size_t n)
{
    return fsh_shuffle(rng, a, n, sizeof *a);
}

int fsh_shuffle_u64(fsh_rng *rng, uint64_t *a, size_t n)
{
    return fsh_shuffle(rng, a, n, sizeof *a);
}

int fsh_shuffle_ptr(fsh_rng *rng, void **a, size_t n)
{
    return fsh_shuffle(rng, a, n, sizeof *a);
}

/* Fill out with lo, lo+1, ..., hi and shuffle it with the kernel above:
   linear time, and the same permutation of positions as fsh_shuffle for the
   same rng state. */
#define DEFINE_PERMUTATION(name, T)                                            \
    int name(fsh_rng *rng, T *out, T lo, T hi)                                 \
    {                                                                          \
        if (lo > hi)                                                           \
            return FSH_EINVAL;                                                 \
        size_t n = (size_t)(hi - lo) + 1;                                      \
        if ((uint64_t)(hi - lo) >= (uint64_t)(SIZE_MAX / sizeof(T)))           \
            return FSH_EINVAL; /* n would overflow or not fit in memory */    \
        int done, rc = fsh_shuffle_check(rng, out, n, sizeof(T), &done);       \
        if (rc != FSH_OK)                                                      \
            return rc;                                                         \
        for (size_t i = 0; i < n; i++)                                         \
            out[i] = (T)(lo + (T)i);                                           \
        if (done)                                                              \
            return FSH_OK;                                                     \
        rc = shuffle_sized(rng, (unsigned char *)out, n, sizeof(T), 1);        \
        return rc != FSH_OK ? rc : fsh_rng_take_error(rng);                    \
    }

DEFINE_PERMUTATION(fsh_permutation, uint64_t)
DEFINE_PERMUTATION(fsh_permutation_u32, uint32_t)
