/* SPDX-License-Identifier: MIT */
/* The public shuffle entry points: fsh_shuffle (and its typed forms),
   fsh_shuffle_threads and fsh_permutation*, with the one argument check and
   the one size switch. */
#include "shuffle/shuffle.h"

#include "common/tasks.h"
#include "shuffle/byindex.h"
#include "shuffle/fy.h"
#include "shuffle/scatter.h"
#include "shuffle/thresholds.h"

/* The argument check, with the reachability plan: *groups > 1 when the
   shuffle must mix hardware entropy (fsh_rng_plan_ordered). */
static int shuffle_check_plan(fsh_rng *rng, const void *base, size_t n,
                              size_t size, int *done, uint64_t *groups)
{
    *done = 1;
    *groups = 1;
    if (rng == NULL || size == 0 || (base == NULL && n > 0))
        return FSH_EINVAL;
    /* No array is larger than PTRDIFF_MAX bytes (pointer differences
       across it would overflow): a larger n * size is a caller's error,
       not an array to walk. */
    if (n > (size_t)PTRDIFF_MAX / size)
        return FSH_EINVAL;
    /* One branch for the common case: no guard, 2 <= n <= max_fair_n. */
    if (FSH_UNLIKELY(rng->guard | (n < 2) | (n > rng->max_fair_n))) {
        int rc = fsh_rng_ready(rng);
        if (rc != FSH_OK || n < 2)
            return rc;
        if (n > rng->max_fair_n) {
            rc = fsh_rng_plan_ordered(rng, n - 1, n - 1, groups);
            if (rc != FSH_OK)
                return rc;
        }
    }
    *done = 0;
    return FSH_OK;
}

int fsh_shuffle_check(fsh_rng *rng, const void *base, size_t n, size_t size,
                      int *done)
{
    uint64_t groups;
    return shuffle_check_plan(rng, base, n, size, done, &groups);
}

int fsh_shuffle_one_stream(const fsh_rng *rng, size_t n)
{
    uint64_t groups = 1;
    if (rng->direct)
        return 1;
    if (n > rng->max_fair_n && n >= 2 &&
        fsh_rng_plan_ordered(rng, n - 1, n - 1, &groups) != FSH_OK)
        return 0;
    return groups > 1;
}

void fsh_swap_bytes(unsigned char *x, unsigned char *y, size_t size)
{
    fsh_swap_inline(x, y, size);
}

/* The backward Fisher-Yates with hardware reseeds at the group boundaries
   of m (one exact draw per step: the groups cut at steps, and these sizes
   are small, at most the cap's). */
static void mixed_fy(fsh_rng *rng, fsh_mix *m, unsigned char *a, size_t n,
                     size_t size)
{
    for (size_t i = n - 1; i > 0; i--) {
        fsh_mix_step(rng, m, (uint64_t)i);
        size_t j = (size_t)fsh_uniform_fast(rng, (uint64_t)i + 1);
        if (j != i)
            fsh_swap_bytes(a + i * size, a + j * size, size);
    }
}

/* The one size switch (thresholds.h): in cache the plain Fisher-Yates
   (in stream version 3 forward from FSH_FORWARD_MIN_BYTES for small
   elements; by index for large records up to FSH_BYINDEX_MAX_BYTES, the
   same permutation), beyond it the prefetching one, far beyond it (where the
   rng's stream version says) the scatter shuffle on up to threads
   threads. A randint source takes the plain kernel at every size (one
   call per position). */
static int shuffle_sized(fsh_rng *rng, unsigned char *a, size_t n, size_t size,
                         unsigned threads)
{
    if (rng->src != FSH_SRC_RANDINT) {
        unsigned v = fsh_rng_stream_v(rng);
        size_t min = v == FSH_STREAM_V1 || size > FSH_SCATTER_V2_MAX_SIZE
                         ? FSH_SCATTER_MIN_BYTES_V1
                         : FSH_SCATTER_MIN_BYTES_V2;
        if (n > min / size && !rng->direct) {
            if (fsh_threads_resolve(threads) == 1) {
                int rc = fsh_scatter_by_index(rng, a, n, size, v);
                if (rc != FSH_SCATTER_NOT_DONE)
                    return rc;
            }
            return fsh_scatter_shuffle(rng, a, n, size, threads, v);
        }
        if (v >= FSH_STREAM_V3 && size <= FSH_SCATTER_V2_MAX_SIZE &&
            n > FSH_FORWARD_MIN_BYTES / size &&
            n <= FSH_SCATTER_MIN_BYTES_V2 / size) {
            fsh_fy_forward(rng, a, n, size);
            return FSH_OK;
        }
        if (fsh_by_index_size(size) && n <= FSH_BYINDEX_MAX_BYTES / size) {
            fsh_fy_records(rng, a, n, size);
            return FSH_OK;
        }
        if (n > FSH_PREFETCH_MIN_BYTES / size &&
            fsh_fy_prefetch(rng, a, n, size))
            return FSH_OK;
    }
    fsh_fy_kernel(rng, a, n, size);
    return FSH_OK;
}

/* A checked shuffle of n >= 2: plain (groups 1) or mixed. fill, if not
   NULL, is called once the hardware entropy is in hand, before the first
   swap (fsh_permutation fills its output there, so a failure leaves it
   untouched). */
static int shuffle_planned(fsh_rng *rng, unsigned char *a, size_t n,
                           size_t size, unsigned threads, uint64_t groups,
                           void (*fill)(void *out, size_t n, const void *lo),
                           const void *lo)
{
    int rc;
    if (FSH_LIKELY(groups <= 1)) {
        if (fill != NULL)
            fill(a, n, lo);
        rc = shuffle_sized(rng, a, n, size, threads);
    } else {
        fsh_mix m;
        rc = fsh_mix_prepare(rng, &m, groups);
        if (rc != FSH_OK)
            return rc;
        if (fill != NULL)
            fill(a, n, lo);
        if (m.groups > 1)
            mixed_fy(rng, &m, a, n, size);
        else /* no hardware after all, and the key bound is accepted */
            rc = shuffle_sized(rng, a, n, size, threads);
        fsh_mix_done(&m);
    }
    /* A fork during the call (a signal handler's): the child's order may
       be the parent's. It is shuffled again from the child's own key
       (uniform whatever order it had), or the call fails. */
    int f;
    while (rc == FSH_OK && (f = fsh_rng_forked_during(rng)) != FSH_OK) {
        if (f < 0)
            return f;
        rc = shuffle_sized(rng, a, n, size, threads);
    }
    return rc != FSH_OK ? rc : fsh_rng_take_error(rng);
}

int fsh_shuffle(fsh_rng *rng, void *base, size_t n, size_t size)
{
    uint64_t groups;
    int done, rc = shuffle_check_plan(rng, base, n, size, &done, &groups);
    if (done)
        return rc;
    return shuffle_planned(rng, base, n, size, 1, groups, NULL, NULL);
}

int fsh_shuffle_threads(fsh_rng *rng, void *base, size_t n, size_t size,
                        unsigned threads)
{
    uint64_t groups;
    int done, rc = shuffle_check_plan(rng, base, n, size, &done, &groups);
    if (done)
        return rc;
    return shuffle_planned(rng, base, n, size, threads, groups, NULL, NULL);
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
    static void name##_fill(void *out, size_t n, const void *lo)              \
    {                                                                          \
        T *o = out, l = *(const T *)lo;                                        \
        for (size_t i = 0; i < n; i++)                                         \
            o[i] = (T)(l + (T)i);                                              \
    }                                                                          \
    int name(fsh_rng *rng, T *out, T lo, T hi)                                 \
    {                                                                          \
        if (lo > hi)                                                           \
            return FSH_EINVAL;                                                 \
        size_t n = (size_t)(hi - lo) + 1;                                      \
        if ((uint64_t)(hi - lo) >= (uint64_t)(SIZE_MAX / sizeof(T)))           \
            return FSH_EINVAL; /* n would overflow or not fit in memory */    \
        uint64_t groups;                                                       \
        int done, rc = shuffle_check_plan(rng, out, n, sizeof(T), &done,       \
                                          &groups);                            \
        if (rc != FSH_OK)                                                      \
            return rc;                                                         \
        if (done) {                                                            \
            name##_fill(out, n, &lo);                                          \
            return FSH_OK;                                                     \
        }                                                                      \
        return shuffle_planned(rng, (unsigned char *)out, n, sizeof(T), 1,     \
                               groups, name##_fill, &lo);                      \
    }

DEFINE_PERMUTATION(fsh_permutation, uint64_t)
DEFINE_PERMUTATION(fsh_permutation_u32, uint32_t)
