/* SPDX-License-Identifier: MIT */
/* xoshiro256++ and SplitMix64 (Blackman & Vigna, public domain reference):
   the step shared by the rng's buffer refill and the shuffle kernels'
   in-register source. */
#ifndef FSH_XOSHIRO_H
#define FSH_XOSHIRO_H

#include "common/common.h"

/* One xoshiro256++ step (Blackman & Vigna): the word, and the state moved
   on. The buffer refill and the shuffle kernels' inline source share it. */
static inline uint64_t fsh_xoshiro_next(uint64_t *s0, uint64_t *s1,
                                        uint64_t *s2, uint64_t *s3)
{
    uint64_t a = *s0 + *s3, r = ((a << 23) | (a >> 41)) + *s0;
    uint64_t t = *s1 << 17;
    *s2 ^= *s0;
    *s3 ^= *s1;
    *s1 ^= *s2;
    *s0 ^= *s3;
    *s2 ^= t;
    *s3 = (*s3 << 45) | (*s3 >> 19);
    return r;
}

/* SplitMix64: seeds xoshiro256++'s state from one 64-bit seed. */
static inline uint64_t fsh_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* out[0..n) = the next n words of state s. */
static inline void fsh_xoshiro_fill(uint64_t s[4], uint64_t *out, size_t n)
{
    uint64_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
    for (size_t i = 0; i < n; i++)
        out[i] = fsh_xoshiro_next(&s0, &s1, &s2, &s3);
    s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;
}

#endif /* FSH_XOSHIRO_H */
