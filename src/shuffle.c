/* Fisher-Yates kernels (Durstenfeld's backward form, Knuth's Algorithm P). */
#include "internal.h"

#include <stdalign.h>

/*
 * One kernel body per element size: for i = n-1 down to 1, swap a[i] with
 * a[j], j uniform in [0, i]. The n-1 draws have 2*3*...*n = n! joint outcomes
 * and each gives a distinct order, so exact draws give exactly 1/n! per order.
 * Elements move by memcpy of a constant size, which compiles to plain loads
 * and stores and tolerates any alignment.
 *
 * Draws are batched (see FSH_DEFINE_BATCH): while the bound b = i+1 is large
 * one word gives one index; as b shrinks one word gives 2..6 indices (the
 * thresholds of Brackett-Rozinsky & Lemire keep each batch product below
 * 2^54..2^60), and from b = 64 down a greedy plan packs as many dice as fit
 * under 2^60 into each word (the rest of a 52-card order in 4 words). A randint source gets one call per
 * position instead.
 */
/* Swap elements x and y; each argument is evaluated once. */
#define SWAP_FIXED(a, x, y, SIZE)                                              \
    do {                                                                       \
        size_t x_ = (x), y_ = (y);                                             \
        unsigned char t_[SIZE];                                                \
        memcpy(t_, (a) + x_ * SIZE, SIZE);                                     \
        memcpy((a) + x_ * SIZE, (a) + y_ * SIZE, SIZE);                        \
        memcpy((a) + y_ * SIZE, t_, SIZE);                                     \
    } while (0)

/* Swap two distinct size-byte elements through a small bounce buffer. */
static void swap_bytes(unsigned char *x, unsigned char *y, size_t size)
{
    unsigned char t[64];
    while (size > 0) {
        size_t c = size < sizeof t ? size : sizeof t;
        memcpy(t, x, c);
        memcpy(x, y, c);
        memcpy(y, t, c);
        x += c, y += c, size -= c;
    }
}

#define SWAP_ANY(a, x, y, SIZE)                                                \
    do {                                                                       \
        size_t x_ = (x), y_ = (y);                                             \
        if (x_ != y_)                                                          \
            swap_bytes((a) + x_ * (SIZE), (a) + y_ * (SIZE), (SIZE));          \
    } while (0)

/* Dice b = i, i-1, ..., i-K+1 (i counts the elements still unplaced) while
   i > LOW, each batch product below CHEAP. */
#define PHASE(SWAP, a, i, K, LOW, CHEAP, SIZE)                                 \
    do {                                                                       \
        uint64_t cheap_ = (CHEAP);                                             \
        while ((i) > (LOW)) {                                                  \
            uint64_t idx_[K];                                                  \
            cheap_ = fsh_batch_words(rng, (i), (K), cheap_, idx_);             \
            for (unsigned d_ = 0; d_ < (K); d_++)                              \
                SWAP(a, (i)-1 - d_, (size_t)idx_[d_], SIZE);                   \
            (i) -= (K);                                                        \
        }                                                                      \
    } while (0)

/* The whole backward Fisher-Yates over a[0..n), n >= 2, moving elements with
   SWAP(a, x, y, SIZE). Every kernel draws the same indices, so a seed gives
   the same permutation whatever the element size. */
#ifdef FSH_HAVE_U128
#define FY_BODY(SWAP, a, n, SIZE)                                              \
    do {                                                                       \
        if (rng->src == FSH_SRC_RANDINT) {                                     \
            for (size_t i = (n)-1; i > 0; i--)                                 \
                SWAP(a, i, (size_t)fsh_randint_draw(rng, i + 1), SIZE);        \
            break;                                                             \
        }                                                                      \
        size_t i = (n);                                                        \
        for (; i > ((size_t)1 << 30); i--)                                     \
            SWAP(a, i - 1, (size_t)fsh_lemire_words(rng, i), SIZE);            \
        PHASE(SWAP, a, i, 2, (size_t)1 << 19, (uint64_t)1 << 60, SIZE);        \
        PHASE(SWAP, a, i, 3, (size_t)1 << 14, (uint64_t)1 << 57, SIZE);        \
        PHASE(SWAP, a, i, 4, (size_t)1 << 11, (uint64_t)1 << 56, SIZE);        \
        PHASE(SWAP, a, i, 5, (size_t)1 << 9, (uint64_t)1 << 55, SIZE);         \
        PHASE(SWAP, a, i, 6, FSH_GREEDY_TAIL, (uint64_t)1 << 54, SIZE);                     \
        while (i > 1) {                                                        \
            uint64_t idx[FSH_GREEDY_TAIL], p;                                  \
            unsigned k = fsh_batch_plan(i, FSH_BATCH_CAP, &p);                 \
            (void)fsh_batch_words(rng, i, k, p, idx);                          \
            for (unsigned d = 0; d < k; d++)                                   \
                SWAP(a, i - 1 - d, (size_t)idx[d], SIZE);                      \
            i -= k;                                                            \
        }                                                                      \
    } while (0)
#else
#define FY_BODY(SWAP, a, n, SIZE)                                              \
    do {                                                                       \
        for (size_t i = (n)-1; i > 0; i--)                                     \
            SWAP(a, i, (size_t)fsh_uniform_fast(rng, i + 1), SIZE);            \
    } while (0)
#endif

#define DEFINE_KERNEL(name, SIZE)                                              \
    static void name(fsh_rng *rng, unsigned char *a, size_t n)                 \
    {                                                                          \
        FY_BODY(SWAP_FIXED, a, n, SIZE);                                       \
    }

DEFINE_KERNEL(kernel1, 1)
DEFINE_KERNEL(kernel2, 2)
DEFINE_KERNEL(kernel4, 4)
DEFINE_KERNEL(kernel8, 8)
DEFINE_KERNEL(kernel16, 16)

static void kernel_any(fsh_rng *rng, unsigned char *a, size_t n, size_t size)
{
    FY_BODY(SWAP_ANY, a, n, size);
}

/* Common argument checks; *done set when there is nothing to do. */
static int check_args(fsh_rng *rng, const void *base, size_t n, size_t size,
                      int *done)
{
    *done = 1;
    if (rng == NULL || size == 0 || (base == NULL && n > 0))
        return FSH_EINVAL;
    if (n > SIZE_MAX / size)
        return FSH_EINVAL;
    if (n < 2)
        return FSH_OK;
    int rc = fsh_rng_check_fair(rng, n);
    if (rc != FSH_OK)
        return rc;
    *done = 0;
    return FSH_OK;
}

void fsh_fy_kernel(fsh_rng *rng, unsigned char *a, size_t n, size_t size)
{
    switch (size) {
    case 1:
        kernel1(rng, a, n);
        break;
    case 2:
        kernel2(rng, a, n);
        break;
    case 4:
        kernel4(rng, a, n);
        break;
    case 8:
        kernel8(rng, a, n);
        break;
    case 16:
        kernel16(rng, a, n);
        break;
    default:
        kernel_any(rng, a, n, size);
        break;
    }
}

/* Beyond cache, src/scatter.c takes over (prefetching, then scatter). */
static int dispatch(fsh_rng *rng, unsigned char *a, size_t n, size_t size)
{
    if (n > FSH_PREFETCH_MIN_BYTES / size && rng->src != FSH_SRC_RANDINT)
        return fsh_shuffle_large(rng, a, n, size, 1);
    fsh_fy_kernel(rng, a, n, size);
    return FSH_OK;
}

int fsh_shuffle(fsh_rng *rng, void *base, size_t n, size_t size)
{
    int done, rc = check_args(rng, base, n, size, &done);
    if (done)
        return rc;
    rc = dispatch(rng, base, n, size);
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

int fsh_shuffle_randint(void *base, size_t n, size_t size,
                        uint64_t (*randint)(void *ctx, uint64_t k), void *ctx)
{
    if (randint == NULL || size == 0 || (base == NULL && n > 0) ||
        n > SIZE_MAX / size)
        return FSH_EINVAL;
    unsigned char *a = base;
    for (size_t i = n > 0 ? n - 1 : 0; i > 0; i--) {
        uint64_t r = randint(ctx, (uint64_t)i + 1);
        if (r < 1 || r > (uint64_t)i + 1)
            return FSH_ECALLBACK; /* a[] is still a permutation */
        size_t j = (size_t)(r - 1);
        if (j != i)
            swap_bytes(a + i * size, a + j * size, size);
    }
    return FSH_OK;
}

/* Fill out with first, first+1, ... and shuffle it with the kernel above:
   linear time, and the same permutation of positions as fsh_shuffle for the
   same rng state. */
#define DEFINE_PERMUTATION(name, T)                                    \
    int name(fsh_rng *rng, T *out, size_t n, T first)                          \
    {                                                                          \
        if (rng == NULL || (out == NULL && n > 0))                             \
            return FSH_EINVAL;                                                 \
        if (n == 0)                                                            \
            return FSH_OK;                                                     \
        if ((uint64_t)(n - 1) > (uint64_t)(T)(~(T)0 - first))                  \
            return FSH_EINVAL;                                                 \
        int rc = fsh_rng_check_fair(rng, n);                                   \
        if (rc != FSH_OK)                                                      \
            return rc;                                                         \
        for (size_t i = 0; i < n; i++)                                         \
            out[i] = (T)(first + (T)i);                                        \
        if (n > 1 && (rc = dispatch(rng, (unsigned char *)out, n,              \
                                    sizeof(T))) != FSH_OK)                     \
            return rc;                                                         \
        return fsh_rng_take_error(rng);                                        \
    }

DEFINE_PERMUTATION(fsh_permutation, uint64_t)
DEFINE_PERMUTATION(fsh_permutation_u32, uint32_t)
