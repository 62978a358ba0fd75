/* SPDX-License-Identifier: MIT */
/*
 * The batched-index peer (issue 13): a Fisher-Yates shuffle that draws
 * several indices from one 64-bit word, written for this bench from the
 * description in N. Brackett-Rozinsky and D. Lemire, "Batched Ranged Random
 * Integer Generation", Software: Practice and Experience (2024),
 * arXiv:2408.06213 (sections 3-5), with the paper's word generator,
 * lehmer64 (a 128-bit multiplicative congruential generator whose output
 * is the high 64 bits of the state). No code was taken from the authors'
 * repositories.
 *
 * A batch of k dice with bounds b, b-1, ..., b-k+1 (product P < 2^64)
 * takes one word r: for each bound, the 128-bit product r * bound gives the
 * index (high half) and the next r (low half). The final low half is
 * r * P mod 2^64, so rejecting it when it is below 2^64 mod P makes every
 * index tuple equally likely (Lemire's method on the range P). The test is
 * made cheap by first comparing with an upper bound of 2^64 mod P that
 * needs no division: the product of the phase's first batch, which is at
 * least every later batch's product; only when the low half falls below it
 * is the exact threshold computed (one division), and the exact product
 * then becomes the bound for the following batches.
 *
 * The batch size depends on the number i of elements still unplaced, so
 * that the product stays below 2^64 with room: one die while i > 2^30,
 * then 2, 3, 4, 5 and 6 dice below 2^30, 2^19, 2^14, 2^11 and 2^9 (the
 * paper's thresholds for 64-bit words); the last few elements take one
 * final batch. This file is compiled twice by bench/Makefile, with $(CC)
 * and with clang, under the bench's flags; PEER_BATCHED_NAME names each
 * build's functions.
 */
#include "peer.h"

#include <string.h>

#ifndef PEER_BATCHED_NAME
#define PEER_BATCHED_NAME peer_batched
#endif
#define PB_CAT2(a, b) a##_##b
#define PB_CAT(a, b) PB_CAT2(a, b)
#define PB(fn) PB_CAT(PEER_BATCHED_NAME, fn)

__extension__ typedef unsigned __int128 pb_u128;

#define PB_INLINE static inline __attribute__((always_inline))
#define PB_UNLIKELY(x) __builtin_expect(!!(x), 0)
/* Full unrolling of the per-batch loops (k dice, a constant wherever
   inlined), so the digits stay in registers: gcc -O2 does not unroll them
   on its own; clang does, and its pragma made it worse (21 instructions per
   element at n = 1e4 against 10.7), so only for gcc. */
#if defined(__GNUC__) && !defined(__clang__)
#define PB_UNROLL _Pragma("GCC unroll 6")
#define PB_OPAQUE(x) __asm__("" : "+r"(x))
#else
#define PB_UNROLL
#define PB_OPAQUE(x) (void)0
#endif

/* lehmer64: state *= 0xda942042e4dd58b5 (mod 2^128), output the high
   64 bits. */
PB_INLINE uint64_t pb_next(pb_u128 *s)
{
    *s *= (pb_u128)0xda942042e4dd58b5u;
    return (uint64_t)(*s >> 64);
}

static uint64_t pb_splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

void PB(seed)(peer_batched *p, uint64_t seed)
{
    uint64_t hi = pb_splitmix(&seed), lo = pb_splitmix(&seed);
    /* An odd state: the multiplicative generator's full period. */
    p->state[0] = lo | 1u;
    p->state[1] = hi;
    p->words = 0;
}

PB_INLINE void pb_swap(uint64_t *a, size_t x, size_t y)
{
    uint64_t t = a[x];
    a[x] = a[y];
    a[y] = t;
}

/* The digits of word r for bounds b, b-1, ..., b-k+1 into j[0..k);
   returns the final low half. For gcc an empty asm (PB_OPAQUE) hides that
   b - d comes from a size_t loop counter: without it gcc widens the counter
   to a 128-bit induction variable and multiplies 128 by 128 bits (clang
   does not, and the barrier only costs it register copies). */
PB_INLINE uint64_t pb_digits(uint64_t r, uint64_t b, unsigned k, uint64_t *j)
{
PB_UNROLL
    for (unsigned d = 0; d < k; d++) {
        uint64_t bd = b - d;
        PB_OPAQUE(bd);
        pb_u128 m = (pb_u128)r * bd;
        j[d] = (uint64_t)(m >> 64);
        r = (uint64_t)m;
    }
    return r;
}

/* The rare branch, out of line and by value, so the hot loop keeps the
   generator, the bound and the digits in registers: the exact threshold of
   the batch, words redrawn until the final low half reaches it. */
typedef struct pb_redraw {
    pb_u128 s;      /* the generator after the redraws */
    uint64_t r;     /* the accepted word (its digits are recomputed) */
    uint64_t prod;  /* the batch's product: the next cheap bound */
    uint64_t words; /* words redrawn */
} pb_redraw;

static __attribute__((noinline)) pb_redraw pb_reject(pb_u128 s, uint64_t b,
                                                     unsigned k, uint64_t r,
                                                     uint64_t lo)
{
    pb_redraw out;
    uint64_t j[6];
    uint64_t prod = b;
    for (unsigned d = 1; d < k; d++)
        prod *= b - d;
    uint64_t t = (0 - prod) % prod; /* 2^64 mod prod */
    out.words = 0;
    while (lo < t) {
        out.words++;
        r = pb_next(&s);
        lo = pb_digits(r, b, k, j);
    }
    out.s = s;
    out.r = r;
    out.prod = prod;
    return out;
}

/* Batches of k dice while more than `low` elements are unplaced (i > low,
   i > k). */
PB_INLINE size_t pb_phase(pb_u128 *s, uint64_t *words, uint64_t *a, size_t i,
                          size_t low, unsigned k)
{
    if (i <= low || i <= k)
        return i;
    uint64_t bound = 1;
    size_t i0 = i;
    for (unsigned d = 0; d < k; d++)
        bound *= (uint64_t)(i - d);
    pb_u128 st = *s;
    while (i > low && i > k) {
        uint64_t j[6];
        uint64_t r = pb_next(&st);
        uint64_t lo = pb_digits(r, i, k, j);
        if (PB_UNLIKELY(lo < bound)) {
            pb_redraw x = pb_reject(st, i, k, r, lo);
            st = x.s;
            bound = x.prod;
            *words += x.words;
            (void)pb_digits(x.r, i, k, j);
        }
PB_UNROLL
        for (unsigned d = 0; d < k; d++)
            pb_swap(a, i - 1 - d, (size_t)j[d]);
        i -= k;
    }
    *s = st;
    *words += (i0 - i) / k; /* one word per batch, plus the redraws */
    return i;
}

void PB(shuffle)(peer_batched *p, uint64_t *a, size_t n)
{
    pb_u128 s = ((pb_u128)p->state[1] << 64) | p->state[0];
    uint64_t words = 0;
    size_t i = n;
    /* One die per word while i > 2^30 (Lemire's nearly divisionless
       method). */
    while (i > ((size_t)1 << 30)) {
        uint64_t j;
        uint64_t r = pb_next(&s);
        uint64_t lo = pb_digits(r, i, 1, &j);
        words++;
        if (PB_UNLIKELY(lo < i)) {
            pb_redraw x = pb_reject(s, i, 1, r, lo);
            s = x.s;
            words += x.words;
            (void)pb_digits(x.r, i, 1, &j);
        }
        pb_swap(a, i - 1, (size_t)j);
        i--;
    }
    i = pb_phase(&s, &words, a, i, (size_t)1 << 19, 2);
    i = pb_phase(&s, &words, a, i, (size_t)1 << 14, 3);
    i = pb_phase(&s, &words, a, i, (size_t)1 << 11, 4);
    i = pb_phase(&s, &words, a, i, (size_t)1 << 9, 5);
    i = pb_phase(&s, &words, a, i, 1, 6);
    if (i > 1) {
        /* The last i <= 6 elements: one batch of i - 1 dice (product
           i! <= 720). */
        unsigned k = (unsigned)(i - 1);
        uint64_t j[6];
        uint64_t r = pb_next(&s);
        uint64_t lo = pb_digits(r, i, k, j);
        pb_redraw x = pb_reject(s, i, k, r, lo);
        s = x.s;
        words += 1 + x.words;
        (void)pb_digits(x.r, i, k, j);
        for (unsigned d = 0; d < k; d++)
            pb_swap(a, i - 1 - d, (size_t)j[d]);
    }
    p->state[0] = (uint64_t)s;
    p->state[1] = (uint64_t)(s >> 64);
    p->words += words;
}

const char *PB(compiler)(void)
{
#if defined(__clang__)
#define PB_STR2(x) #x
#define PB_STR(x) PB_STR2(x)
    return "clang " PB_STR(__clang_major__) "." PB_STR(__clang_minor__) "." PB_STR(
        __clang_patchlevel__);
#elif defined(__GNUC__)
    return "gcc " __VERSION__;
#else
    return "cc " __VERSION__;
#endif
}
