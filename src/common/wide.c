/* SPDX-License-Identifier: MIT */
/* Reachability counts: exact products and binomials of up to 2^64-sized
   factors against 2^bits, bits < 256, in 320-bit integers; and ln(x!) for
   the estimates of larger counts. */
#include "common/wide.h"

#include <math.h>

/* 320 bits, little-endian: holds any count <= 2^256 times a factor <= 2^64. */
typedef struct wide {
    uint64_t l[5];
} wide;

/* x *= (last + 1 - i), the factor 2^64 included. */
static void wide_mul_factor(wide *x, uint64_t last, uint64_t i)
{
    if (i == 0 && last == UINT64_MAX) {
        memmove(x->l + 1, x->l, 4 * sizeof x->l[0]);
        x->l[0] = 0;
        return;
    }
    uint64_t f = last - i + 1, carry = 0;
    for (int j = 0; j < 5; j++) {
        uint64_t lo, hi = fsh_mul128(x->l[j], f, &lo);
        lo += carry;
        hi += lo < carry;
        x->l[j] = lo;
        carry = hi;
    }
}

/* x /= d for 1 <= d < 2^32 (exact in the callers). */
static void wide_div_small(wide *x, uint64_t d)
{
    uint64_t rem = 0;
    for (int j = 4; j >= 0; j--) {
        uint64_t h = rem << 32 | x->l[j] >> 32;
        uint64_t qh = h / d;
        rem = h % d;
        uint64_t l = rem << 32 | (x->l[j] & 0xffffffffu);
        x->l[j] = qh << 32 | l / d;
        rem = l % d;
    }
}

/* x <= 2^bits, bits < 256. */
static int wide_le_pow2(const wide *x, unsigned bits)
{
    unsigned w = bits / 64, b = bits % 64;
    for (unsigned j = 4; j > w; j--)
        if (x->l[j] != 0)
            return 0;
    uint64_t top = x->l[w] >> b;
    if (top > 1)
        return 0;
    if (top == 1) {
        if (b > 0 && (x->l[w] & ((UINT64_C(1) << b) - 1)) != 0)
            return 0;
        for (unsigned j = 0; j < w; j++)
            if (x->l[j] != 0)
                return 0;
    }
    return 1;
}

/* (last + 1) last ... (last + 2 - k) <= 2^bits. Each factor but possibly
   the last is >= 2, so the loop ends within bits + 2 steps. */
int fsh_ordered_fits(uint64_t last, uint64_t k, unsigned bits)
{
    wide x = {{1, 0, 0, 0, 0}};
    for (uint64_t i = 0; i < k; i++) {
        wide_mul_factor(&x, last, i);
        if (!wide_le_pow2(&x, bits))
            return 0;
    }
    return 1;
}

/* C(last + 1, k) <= 2^bits, k <= last + 1. C(n, i) grows with i up to
   n / 2 and C(n, i) >= 2^i there, so at most 256 steps. */
int fsh_subset_fits(uint64_t last, uint64_t k, unsigned bits)
{
    if (last - (k - 1) < k && k > 0) /* n - k < k: use C(n, n - k) */
        k = last - k + 1;
    wide x = {{1, 0, 0, 0, 0}};
    for (uint64_t i = 0; i < k; i++) {
        if (i >= 256)
            return 0;
        wide_mul_factor(&x, last, i);
        wide_div_small(&x, i + 1);
        if (!wide_le_pow2(&x, bits))
            return 0;
    }
    return 1;
}

size_t fsh_max_fair_n_for_bits(unsigned bits)
{
    if (bits >= 256)
        return SIZE_MAX;
    /* Largest n with n! <= 2^bits (n <= 57 here). */
    size_t n = 1;
    while (fsh_ordered_fits(n, n + 1, bits))
        n++;
    return n;
}

long double fsh_ln_factorial(long double x)
{
#if defined(__GLIBC__)
    int sign;
    return lgammal_r(x + 1.0L, &sign);
#else
    return lgammal(x + 1.0L);
#endif
}

double fsh_log2_factorial_lb(double n)
{
    return n * (log2(n) - 1.4426950408889634) +
           0.5 * log2(2 * 3.14159265358979323846 * n);
}
