/* SPDX-License-Identifier: MIT */
/* Exactly uniform bounded integers (Lemire's method; see uniform.h). */
#include "uniform/uniform.h"

int fsh_uniform(fsh_rng *rng, uint64_t *out, uint64_t n)
{
    if (rng == NULL || out == NULL || n == 0)
        return FSH_EINVAL;
    int rc = fsh_rng_ready(rng);
    if (rc != FSH_OK)
        return rc;
    /* A bound of 1 has one outcome and consumes no randomness. *out is
       written only on success (a randint source may fail the draw). */
    uint64_t r = n == 1 ? 0 : fsh_uniform_fast(rng, n);
    rc = fsh_rng_take_error(rng);
    if (rc == FSH_OK)
        *out = r;
    return rc;
}

int fsh_uniform_range(fsh_rng *rng, uint64_t *out, uint64_t lo, uint64_t hi)
{
    if (rng == NULL || out == NULL || hi < lo)
        return FSH_EINVAL;
    if (lo == 0 && hi == UINT64_MAX) {
        /* 2^64 outcomes: one whole word is exactly uniform. */
        return fsh_rng_u64(rng, out);
    }
    uint64_t r;
    int rc = fsh_uniform(rng, &r, hi - lo + 1);
    if (rc == FSH_OK)
        *out = lo + r;
    return rc;
}

/* fsh_batch_plan(b, FSH_BATCH_CAP) for b = 0..FSH_GREEDY_TAIL, written out
   (tests/test_batch.c checks every row against the computation): the greedy
   tail of every shuffle and deal reads its batches here instead of
   recomputing the products. */
const fsh_plan fsh_greedy_plan[FSH_GREEDY_TAIL + 1] = {
    {0, 0x1u}, /* 0 */
    {0, 0x1u}, /* 1 */
    {1, 0x2u}, /* 2 */
    {2, 0x6u}, /* 3 */
    {3, 0x18u}, /* 4 */
    {4, 0x78u}, /* 5 */
    {5, 0x2d0u}, /* 6 */
    {6, 0x13b0u}, /* 7 */
    {7, 0x9d80u}, /* 8 */
    {8, 0x58980u}, /* 9 */
    {9, 0x375f00u}, /* 10 */
    {10, 0x2611500u}, /* 11 */
    {11, 0x1c8cfc00u}, /* 12 */
    {12, 0x17328cc00u}, /* 13 */
    {13, 0x144c3b2800u}, /* 14 */
    {14, 0x13077775800u}, /* 15 */
    {15, 0x130777758000u}, /* 16 */
    {16, 0x1437eeecd8000u}, /* 17 */
    {17, 0x16beecca730000u}, /* 18 */
    {18, 0x1b02b9306890000u}, /* 19 */
    {19, 0x21c3677c82b40000u}, /* 20 */
    {16, 0x5e8988296df8000u}, /* 21 */
    {15, 0x3184fe2e1508000u}, /* 22 */
    {15, 0x8e5e5ac47c77000u}, /* 23 */
    {14, 0x25f707235464000u}, /* 24 */
    {14, 0x5648b321bfcc000u}, /* 25 */
    {14, 0xbaf2d973ca3a000u}, /* 26 */
    {13, 0x1bbbf06f6b5d000u}, /* 27 */
    {13, 0x33c538477314000u}, /* 28 */
    {13, 0x5dd576018094400u}, /* 29 */
    {13, 0xa596d03ee2e7800u}, /* 30 */
    {12, 0xf0271311d8cc00u}, /* 31 */
    {12, 0x1803e84e95ae000u}, /* 32 */
    {12, 0x25bcff56eb36000u}, /* 33 */
    {12, 0x3a52a1e36b82000u}, /* 34 */
    {12, 0x58c0870c292a000u}, /* 35 */
    {12, 0x8520ca923dbf000u}, /* 36 */
    {12, 0xc507923498d3000u}, /* 37 */
    {11, 0xaaa58df1bf7000u}, /* 38 */
    {11, 0xedafbc90b85c00u}, /* 39 */
    {11, 0x147d7e99b79e000u}, /* 40 */
    {11, 0x1c00d7aff269000u}, /* 41 */
    {11, 0x25f0a017ab86000u}, /* 42 */
    {11, 0x32fb571fce7c100u}, /* 43 */
    {11, 0x43f9c97fbdfac00u}, /* 44 */
    {11, 0x59f7c6ecd5cbe00u}, /* 45 */
    {11, 0x763e55e6cfd8c00u}, /* 46 */
    {11, 0x9a5f9ad0e4b0500u}, /* 47 */
    {11, 0xc844ad2aac23000u}, /* 48 */
    {10, 0x69f1e4126db800u}, /* 49 */
    {10, 0x846e5d17092600u}, /* 50 */
    {10, 0xa4bb3b99884200u}, /* 51 */
    {10, 0xcbf400a5b4e400u}, /* 52 */
    {10, 0xfb6254258b9c00u}, /* 53 */
    {10, 0x134844fff886e00u}, /* 54 */
    {10, 0x179137e38516a00u}, /* 55 */
    {10, 0x1cb0c99a8bc2800u}, /* 56 */
    {10, 0x22cb821d7879800u}, /* 57 */
    {10, 0x2a0b3d38f192d00u}, /* 58 */
    {10, 0x329fd18db528f00u}, /* 59 */
    {10, 0x3cbfc843a631200u}, /* 60 */
    {10, 0x48a926bf5858e00u}, /* 61 */
    {10, 0x56a24bbcc1f3d00u}, /* 62 */
    {10, 0x66fae145ce65700u}, /* 63 */
    {10, 0x7a0ce5105cea000u}, /* 64 */
};
