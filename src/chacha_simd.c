/*
 * ChaCha8/12/20 keystream with AVX2 and AVX-512F, byte-identical to
 * fsh_chacha_blocks_portable in src/rng.c (original DJB layout: 64-bit block
 * counter in words 12-13, 64-bit stream id in words 14-15).
 *
 * Layout: one block per 32-bit vector lane ("vertical"), so state word i of
 * 8 (AVX2) or 16 (AVX-512) consecutive blocks sits in one register and the
 * rounds need no shuffles; a 32-bit transpose at the end restores the
 * keystream's byte order. This is the layout of the Linux 8-block AVX2 and
 * 16-block AVX-512 ChaCha (M. Willi) and of Bernstein's and Goll & Gueron's
 * vectorised implementations.
 *
 * The functions carry target attributes instead of per-file -m flags, so the
 * rest of the build stays portable; src/rng.c calls them only after
 * __builtin_cpu_supports has confirmed the CPU and OS support them.
 */
#include "internal.h"

#if FSH_CHACHA_X86

#include <immintrin.h>
#include <sodium.h>

#define AVX2_FN __attribute__((target("avx2")))
#define AVX512_FN __attribute__((target("avx512f")))

/* "expand 32-byte k" */
#define C0 0x61707865
#define C1 0x3320646e
#define C2 0x79622d32
#define C3 0x6b206574

/* Bits of a uint32_t as the int the set1 intrinsics take. */
static inline int i32(uint32_t x)
{
    int r;
    memcpy(&r, &x, sizeof r);
    return r;
}

/* ------------------------------------------------------------------------ */
/* AVX2: 8 blocks per pass                                                  */

#define ROTW_AVX2(x, r)                                                        \
    _mm256_or_si256(_mm256_slli_epi32(x, r), _mm256_srli_epi32(x, 32 - (r)))

/* Rotations by 16 and 8 move whole bytes: one vpshufb instead of three. */
#define QR_AVX2(a, b, c, d)                                                    \
    do {                                                                       \
        a = _mm256_add_epi32(a, b);                                            \
        d = _mm256_shuffle_epi8(_mm256_xor_si256(d, a), rot16);                \
        c = _mm256_add_epi32(c, d);                                            \
        b = _mm256_xor_si256(b, c);                                            \
        b = ROTW_AVX2(b, 12);                                                  \
        a = _mm256_add_epi32(a, b);                                            \
        d = _mm256_shuffle_epi8(_mm256_xor_si256(d, a), rot8);                 \
        c = _mm256_add_epi32(c, d);                                            \
        b = _mm256_xor_si256(b, c);                                            \
        b = ROTW_AVX2(b, 7);                                                   \
    } while (0)

/* Transpose 8 registers of word-major lanes (x[w] lane b = word w of block
   b) and store words w0..w0+7 of block b at dst + 16 * b (32-bit units). */
#define STORE8_AVX2(x, dst)                                                    \
    do {                                                                       \
        __m256i t0_ = _mm256_unpacklo_epi32(x[0], x[1]);                       \
        __m256i t1_ = _mm256_unpackhi_epi32(x[0], x[1]);                       \
        __m256i t2_ = _mm256_unpacklo_epi32(x[2], x[3]);                       \
        __m256i t3_ = _mm256_unpackhi_epi32(x[2], x[3]);                       \
        __m256i t4_ = _mm256_unpacklo_epi32(x[4], x[5]);                       \
        __m256i t5_ = _mm256_unpackhi_epi32(x[4], x[5]);                       \
        __m256i t6_ = _mm256_unpacklo_epi32(x[6], x[7]);                       \
        __m256i t7_ = _mm256_unpackhi_epi32(x[6], x[7]);                       \
        /* u<k> lane half h: words 0-3 (u0-u3) or 4-7 (u4-u7) of block     \
           4h + k. */                                                          \
        __m256i u0_ = _mm256_unpacklo_epi64(t0_, t2_);                         \
        __m256i u1_ = _mm256_unpackhi_epi64(t0_, t2_);                         \
        __m256i u2_ = _mm256_unpacklo_epi64(t1_, t3_);                         \
        __m256i u3_ = _mm256_unpackhi_epi64(t1_, t3_);                         \
        __m256i u4_ = _mm256_unpacklo_epi64(t4_, t6_);                         \
        __m256i u5_ = _mm256_unpackhi_epi64(t4_, t6_);                         \
        __m256i u6_ = _mm256_unpacklo_epi64(t5_, t7_);                         \
        __m256i u7_ = _mm256_unpackhi_epi64(t5_, t7_);                         \
        _mm256_storeu_si256((__m256i *)(void *)((dst) + 0),                   \
                            _mm256_permute2x128_si256(u0_, u4_, 0x20));        \
        _mm256_storeu_si256((__m256i *)(void *)((dst) + 16),                  \
                            _mm256_permute2x128_si256(u1_, u5_, 0x20));        \
        _mm256_storeu_si256((__m256i *)(void *)((dst) + 32),                  \
                            _mm256_permute2x128_si256(u2_, u6_, 0x20));        \
        _mm256_storeu_si256((__m256i *)(void *)((dst) + 48),                  \
                            _mm256_permute2x128_si256(u3_, u7_, 0x20));        \
        _mm256_storeu_si256((__m256i *)(void *)((dst) + 64),                  \
                            _mm256_permute2x128_si256(u0_, u4_, 0x31));        \
        _mm256_storeu_si256((__m256i *)(void *)((dst) + 80),                  \
                            _mm256_permute2x128_si256(u1_, u5_, 0x31));        \
        _mm256_storeu_si256((__m256i *)(void *)((dst) + 96),                  \
                            _mm256_permute2x128_si256(u2_, u6_, 0x31));        \
        _mm256_storeu_si256((__m256i *)(void *)((dst) + 112),                 \
                            _mm256_permute2x128_si256(u3_, u7_, 0x31));        \
    } while (0)

/* Blocks counter .. counter + 7 into dst[0..128) (32-bit words). */
static inline AVX2_FN __attribute__((always_inline)) void
pass_avx2(const uint32_t key[8], uint64_t counter, uint64_t stream,
          int rounds, uint32_t *dst)
{
    const __m256i rot16 =
        _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
                         2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
    const __m256i rot8 =
        _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
                         3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14);
    /* Lane b counts counter + b mod 2^64: carry into the high word where
       the low word wrapped (unsigned lo + b < lo, via the sign flip). */
    const __m256i lo0 = _mm256_set1_epi32(i32((uint32_t)counter));
    const __m256i sign = _mm256_set1_epi32(i32(0x80000000u));
    const __m256i lo = _mm256_add_epi32(lo0, _mm256_setr_epi32(0, 1, 2, 3, 4,
                                                               5, 6, 7));
    const __m256i carry = _mm256_cmpgt_epi32(_mm256_xor_si256(lo0, sign),
                                             _mm256_xor_si256(lo, sign));
    const __m256i hi = _mm256_sub_epi32(
        _mm256_set1_epi32(i32((uint32_t)(counter >> 32))), carry);
    __m256i x[16];
    x[0] = _mm256_set1_epi32(C0);
    x[1] = _mm256_set1_epi32(C1);
    x[2] = _mm256_set1_epi32(C2);
    x[3] = _mm256_set1_epi32(C3);
    for (int i = 0; i < 8; i++)
        x[4 + i] = _mm256_set1_epi32(i32(key[i]));
    x[12] = lo;
    x[13] = hi;
    x[14] = _mm256_set1_epi32(i32((uint32_t)stream));
    x[15] = _mm256_set1_epi32(i32((uint32_t)(stream >> 32)));
    for (int r = 0; r < rounds; r += 2) {
        QR_AVX2(x[0], x[4], x[8], x[12]);
        QR_AVX2(x[1], x[5], x[9], x[13]);
        QR_AVX2(x[2], x[6], x[10], x[14]);
        QR_AVX2(x[3], x[7], x[11], x[15]);
        QR_AVX2(x[0], x[5], x[10], x[15]);
        QR_AVX2(x[1], x[6], x[11], x[12]);
        QR_AVX2(x[2], x[7], x[8], x[13]);
        QR_AVX2(x[3], x[4], x[9], x[14]);
    }
    x[0] = _mm256_add_epi32(x[0], _mm256_set1_epi32(C0));
    x[1] = _mm256_add_epi32(x[1], _mm256_set1_epi32(C1));
    x[2] = _mm256_add_epi32(x[2], _mm256_set1_epi32(C2));
    x[3] = _mm256_add_epi32(x[3], _mm256_set1_epi32(C3));
    for (int i = 0; i < 8; i++)
        x[4 + i] = _mm256_add_epi32(x[4 + i], _mm256_set1_epi32(i32(key[i])));
    x[12] = _mm256_add_epi32(x[12], lo);
    x[13] = _mm256_add_epi32(x[13], hi);
    x[14] = _mm256_add_epi32(x[14], _mm256_set1_epi32(i32((uint32_t)stream)));
    x[15] = _mm256_add_epi32(
        x[15], _mm256_set1_epi32(i32((uint32_t)(stream >> 32))));
    STORE8_AVX2(x, dst);
    STORE8_AVX2((x + 8), dst + 8);
}

AVX2_FN void fsh_chacha_blocks_avx2(const uint32_t key[8], uint64_t counter,
                                    uint64_t stream, int rounds,
                                    uint64_t *out, size_t nblocks)
{
    /* Little-endian: 32-bit word 2k + j of a block is half j of word k. */
    for (; nblocks >= 8; nblocks -= 8, counter += 8, out += 64)
        pass_avx2(key, counter, stream, rounds, (uint32_t *)(void *)out);
    if (nblocks > 0) {
        uint64_t tmp[64];
        pass_avx2(key, counter, stream, rounds, (uint32_t *)(void *)tmp);
        memcpy(out, tmp, 64 * nblocks);
        sodium_memzero(tmp, sizeof tmp);
    }
}

/* ------------------------------------------------------------------------ */
/* AVX-512F: 16 blocks per pass                                             */

#define QR_AVX512(a, b, c, d)                                                  \
    do {                                                                       \
        a = _mm512_add_epi32(a, b);                                            \
        d = _mm512_rol_epi32(_mm512_xor_si512(d, a), 16);                      \
        c = _mm512_add_epi32(c, d);                                            \
        b = _mm512_rol_epi32(_mm512_xor_si512(b, c), 12);                      \
        a = _mm512_add_epi32(a, b);                                            \
        d = _mm512_rol_epi32(_mm512_xor_si512(d, a), 8);                       \
        c = _mm512_add_epi32(c, d);                                            \
        b = _mm512_rol_epi32(_mm512_xor_si512(b, c), 7);                       \
    } while (0)

/* Blocks counter .. counter + 15 into dst[0..256) (32-bit words). */
static inline AVX512_FN __attribute__((always_inline)) void
pass_avx512(const uint32_t key[8], uint64_t counter, uint64_t stream,
            int rounds, uint32_t *dst)
{
    const __m512i lo0 = _mm512_set1_epi32(i32((uint32_t)counter));
    const __m512i lo = _mm512_add_epi32(
        lo0, _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
                               14, 15));
    /* Carry into the high counter word in the lanes where lo wrapped. */
    const __mmask16 carry = _mm512_cmplt_epu32_mask(lo, lo0);
    const __m512i hi0 = _mm512_set1_epi32(i32((uint32_t)(counter >> 32)));
    const __m512i hi =
        _mm512_mask_add_epi32(hi0, carry, hi0, _mm512_set1_epi32(1));
    __m512i x[16];
    x[0] = _mm512_set1_epi32(C0);
    x[1] = _mm512_set1_epi32(C1);
    x[2] = _mm512_set1_epi32(C2);
    x[3] = _mm512_set1_epi32(C3);
    for (int i = 0; i < 8; i++)
        x[4 + i] = _mm512_set1_epi32(i32(key[i]));
    x[12] = lo;
    x[13] = hi;
    x[14] = _mm512_set1_epi32(i32((uint32_t)stream));
    x[15] = _mm512_set1_epi32(i32((uint32_t)(stream >> 32)));
    for (int r = 0; r < rounds; r += 2) {
        QR_AVX512(x[0], x[4], x[8], x[12]);
        QR_AVX512(x[1], x[5], x[9], x[13]);
        QR_AVX512(x[2], x[6], x[10], x[14]);
        QR_AVX512(x[3], x[7], x[11], x[15]);
        QR_AVX512(x[0], x[5], x[10], x[15]);
        QR_AVX512(x[1], x[6], x[11], x[12]);
        QR_AVX512(x[2], x[7], x[8], x[13]);
        QR_AVX512(x[3], x[4], x[9], x[14]);
    }
    x[0] = _mm512_add_epi32(x[0], _mm512_set1_epi32(C0));
    x[1] = _mm512_add_epi32(x[1], _mm512_set1_epi32(C1));
    x[2] = _mm512_add_epi32(x[2], _mm512_set1_epi32(C2));
    x[3] = _mm512_add_epi32(x[3], _mm512_set1_epi32(C3));
    for (int i = 0; i < 8; i++)
        x[4 + i] = _mm512_add_epi32(x[4 + i], _mm512_set1_epi32(i32(key[i])));
    x[12] = _mm512_add_epi32(x[12], lo);
    x[13] = _mm512_add_epi32(x[13], hi);
    x[14] = _mm512_add_epi32(x[14], _mm512_set1_epi32(i32((uint32_t)stream)));
    x[15] = _mm512_add_epi32(
        x[15], _mm512_set1_epi32(i32((uint32_t)(stream >> 32))));

    /* 16x16 transpose of 32-bit words. Steps 1-2 work inside 128-bit lanes:
       afterwards r[g][k] lane L holds words 4g..4g+3 of block 4L + k. */
    __m512i t[16], r[4][4];
    for (int i = 0; i < 16; i += 2) {
        t[i] = _mm512_unpacklo_epi32(x[i], x[i + 1]);
        t[i + 1] = _mm512_unpackhi_epi32(x[i], x[i + 1]);
    }
    for (int g = 0; g < 4; g++) {
        r[g][0] = _mm512_unpacklo_epi64(t[4 * g], t[4 * g + 2]);
        r[g][1] = _mm512_unpackhi_epi64(t[4 * g], t[4 * g + 2]);
        r[g][2] = _mm512_unpacklo_epi64(t[4 * g + 1], t[4 * g + 3]);
        r[g][3] = _mm512_unpackhi_epi64(t[4 * g + 1], t[4 * g + 3]);
    }
    /* Step 3: a 4x4 transpose of 128-bit lanes gathers block 4L + k. */
    for (int k = 0; k < 4; k++) {
        __m512i a = _mm512_shuffle_i32x4(r[0][k], r[1][k], 0x44);
        __m512i b = _mm512_shuffle_i32x4(r[0][k], r[1][k], 0xee);
        __m512i c = _mm512_shuffle_i32x4(r[2][k], r[3][k], 0x44);
        __m512i d = _mm512_shuffle_i32x4(r[2][k], r[3][k], 0xee);
        _mm512_storeu_si512((void *)(dst + 16 * (0 + k)),
                            _mm512_shuffle_i32x4(a, c, 0x88));
        _mm512_storeu_si512((void *)(dst + 16 * (4 + k)),
                            _mm512_shuffle_i32x4(a, c, 0xdd));
        _mm512_storeu_si512((void *)(dst + 16 * (8 + k)),
                            _mm512_shuffle_i32x4(b, d, 0x88));
        _mm512_storeu_si512((void *)(dst + 16 * (12 + k)),
                            _mm512_shuffle_i32x4(b, d, 0xdd));
    }
}

AVX512_FN void fsh_chacha_blocks_avx512(const uint32_t key[8],
                                        uint64_t counter, uint64_t stream,
                                        int rounds, uint64_t *out,
                                        size_t nblocks)
{
    for (; nblocks >= 16; nblocks -= 16, counter += 16, out += 128)
        pass_avx512(key, counter, stream, rounds, (uint32_t *)(void *)out);
    if (nblocks > 0) {
        uint64_t tmp[128];
        pass_avx512(key, counter, stream, rounds, (uint32_t *)(void *)tmp);
        memcpy(out, tmp, 64 * nblocks);
        sodium_memzero(tmp, sizeof tmp);
    }
}

#else /* !FSH_CHACHA_X86 */

/* ISO C forbids an empty translation unit. */
typedef int fsh_chacha_simd_unused;

#endif
