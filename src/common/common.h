/* SPDX-License-Identifier: MIT */
/* What every library source needs: the public header, symbol visibility,
   branch hints, an optimisation barrier and the 128-bit product. Bottom of
   the ladder: includes only the public header and the C library. */
#ifndef FSH_COMMON_H
#define FSH_COMMON_H

#include "fairshuf.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FSH_HIDDEN __attribute__((visibility("hidden")))

#if defined(__GNUC__)
#define FSH_LIKELY(x) __builtin_expect(!!(x), 1)
#define FSH_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define FSH_LIKELY(x) (x)
#define FSH_UNLIKELY(x) (x)
#endif

/* The value of x, hidden from the optimiser: stops GCC from widening a
   multiplier that counts down into a 128-bit induction variable (which costs
   a second multiply per die in the batched loops). */
#if defined(__GNUC__)
#define FSH_OPAQUE(x)                                                          \
    __extension__({                                                            \
        __typeof__(x) o_ = (x);                                                \
        __asm__("" : "+r"(o_));                                                \
        o_;                                                                    \
    })
#else
#define FSH_OPAQUE(x) (x)
#endif

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 fsh_u128;
#define FSH_HAVE_U128 1
#endif

/* High and low halves of the 128-bit product a * b. */
static inline uint64_t fsh_mul128(uint64_t a, uint64_t b, uint64_t *lo)
{
#ifdef FSH_HAVE_U128
    fsh_u128 m = (fsh_u128)a * b;
    *lo = (uint64_t)m;
    return (uint64_t)(m >> 64);
#else
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    *lo = (mid << 32) | (uint32_t)p00;
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

#endif /* FSH_COMMON_H */
