/* Fisher-Yates kernels (Durstenfeld's backward form, Knuth's Algorithm P). */
#include "internal.h"

#include <stdalign.h>

/*
 * One kernel body per element size: for i = n-1 down to 1, swap a[i] with
 * a[j], j uniform in [0, i]. The n-1 draws have 2*3*...*n = n! joint outcomes
 * and each gives a distinct order, so exact draws give exactly 1/n! per order.
 * Elements move by memcpy of a constant size, which compiles to plain loads
 * and stores and tolerates any alignment.
 */
#define DEFINE_KERNEL(name, SIZE)                                              \
    static void name(fsh_rng *rng, unsigned char *a, size_t n)                 \
    {                                                                          \
        unsigned char t[SIZE];                                                 \
        if (rng->src == FSH_SRC_RANDINT) {                                     \
            for (size_t i = n - 1; i > 0; i--) {                               \
                size_t j = (size_t)fsh_randint_draw(rng, i + 1);               \
                memcpy(t, a + i * SIZE, SIZE);                                 \
                memcpy(a + i * SIZE, a + j * SIZE, SIZE);                      \
                memcpy(a + j * SIZE, t, SIZE);                                 \
            }                                                                  \
            return;                                                            \
        }                                                                      \
        for (size_t i = n - 1; i > 0; i--) {                                   \
            size_t j = (size_t)fsh_lemire_words(rng, (uint64_t)i + 1);         \
            memcpy(t, a + i * SIZE, SIZE);                                     \
            memcpy(a + i * SIZE, a + j * SIZE, SIZE);                          \
            memcpy(a + j * SIZE, t, SIZE);                                     \
        }                                                                      \
    }

DEFINE_KERNEL(kernel1, 1)
DEFINE_KERNEL(kernel2, 2)
DEFINE_KERNEL(kernel4, 4)
DEFINE_KERNEL(kernel8, 8)
DEFINE_KERNEL(kernel16, 16)

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

static void kernel_any(fsh_rng *rng, unsigned char *a, size_t n, size_t size)
{
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)fsh_uniform_fast(rng, (uint64_t)i + 1);
        if (j != i)
            swap_bytes(a + i * size, a + j * size, size);
    }
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

int fsh_shuffle(fsh_rng *rng, void *base, size_t n, size_t size)
{
    int done, rc = check_args(rng, base, n, size, &done);
    if (done)
        return rc;
    unsigned char *a = base;
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
    return fsh_rng_take_error(rng);
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

/*
 * Inside-out Fisher-Yates: after step i, out[0..i] is a uniform order of
 * first..first+i. Step i draws j in [0, i], moves out[j] to out[i] and puts
 * first+i at j; as above the draws biject onto the n! orders.
 */
#define DEFINE_PERMUTATION(name, T)                                            \
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
        out[0] = first;                                                        \
        for (size_t i = 1; i < n; i++) {                                       \
            size_t j = (size_t)fsh_uniform_fast(rng, (uint64_t)i + 1);        \
            out[i] = out[j];                                                   \
            out[j] = (T)(first + (T)i);                                        \
        }                                                                      \
        return fsh_rng_take_error(rng);                                        \
    }

DEFINE_PERMUTATION(fsh_permutation, uint64_t)
DEFINE_PERMUTATION(fsh_permutation_u32, uint32_t)
