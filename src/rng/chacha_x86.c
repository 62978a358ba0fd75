/* SPDX-License-Identifier: MIT */
/*
 * ChaCha8/12/20 keystream with AVX2 and AVX-512F, byte-identical to
 * fsh_chacha_blocks_portable in chacha.c (original DJB layout: 64-bit block
 * counter in words 12-13, 64-bit stream id in words 14-15).
 *
 * Layout: one block per 32-bit vector lane ("vertical"), so state word i of
 * 8 (AVX2) or 16 (AVX-512) consecutive blocks sits in one register and the
 * rounds need no shuffles; a 32-bit transpose at the end restores the
 * keystream's byte order. This is the layout of the Linux 8-block AVX2
 * ChaCha (M. Willi) and of Goll & Gueron's vectorised ChaCha. Both kernels
 * run two such groups (16 blocks with AVX2, 32 with AVX-512) at once when
 * the caller asks for that many: on Zen 5 a dependent vector add or xor
 * costs several cycles, and one group's four quarter-round chains leave
 * the vector units idle.
 *
 * The functions carry target attributes instead of per-file -m flags, so the
 * rest of the build stays portable; chacha.c calls them only after
 * __builtin_cpu_supports has confirmed the CPU and OS support them.
 */
#include "rng/chacha.h"
#include "rng/chacha_simd.h"

#if FSH_CHACHA_X86

#include <immintrin.h>
#include <sodium.h>

#define AVX2_FN __attribute__((target("avx2")))
#define AVX512_FN FSH_AVX512_FN
#define ALWAYS_INLINE __attribute__((always_inline))

/* ------------------------------------------------------------------------ */
/* AVX2: 8 or 16 blocks per pass                                            */

#define B32(x) _mm256_set1_epi32(i32(x))

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

/* Counter words of 8 blocks: lane b of lo:hi is in[12..13] + b mod 2^64,
   carrying into the high word where the low word wrapped (unsigned
   lo < in[12], compared as signed after flipping the sign bits). */
#define COUNTER_AVX2(in, lo, hi)                                               \
    do {                                                                       \
        __m256i lo0_ = B32((in)[12]), sign_ = B32(0x80000000u);                \
        lo = _mm256_add_epi32(lo0_, _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)); \
        hi = _mm256_sub_epi32(                                                 \
            B32((in)[13]), _mm256_cmpgt_epi32(_mm256_xor_si256(lo0_, sign_),   \
                                              _mm256_xor_si256(lo, sign_)));   \
    } while (0)

/* Transpose 8 registers of word-major lanes (y<w> lane b = word w0 + w of
   block b) and store words w0..w0+7 of block b at dst + 16 * b (32-bit
   units; dst already offset by w0). */
#define STORE8_AVX2(y0, y1, y2, y3, y4, y5, y6, y7, dst)                       \
    do {                                                                       \
        __m256i t0_ = _mm256_unpacklo_epi32(y0, y1);                           \
        __m256i t1_ = _mm256_unpackhi_epi32(y0, y1);                           \
        __m256i t2_ = _mm256_unpacklo_epi32(y2, y3);                           \
        __m256i t3_ = _mm256_unpackhi_epi32(y2, y3);                           \
        __m256i t4_ = _mm256_unpacklo_epi32(y4, y5);                           \
        __m256i t5_ = _mm256_unpackhi_epi32(y4, y5);                           \
        __m256i t6_ = _mm256_unpacklo_epi32(y6, y7);                           \
        __m256i t7_ = _mm256_unpackhi_epi32(y6, y7);                           \
        /* u<k> half h: words 0-3 (u0-u3) or 4-7 (u4-u7) of block 4h + k. */   \
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

/* Two independent quarter rounds, interleaved op by op. */
#define QR2_AVX2(a, b, c, d, e, f, g, h)                                       \
    do {                                                                       \
        a = _mm256_add_epi32(a, b);                                            \
        e = _mm256_add_epi32(e, f);                                            \
        d = _mm256_shuffle_epi8(_mm256_xor_si256(d, a), rot16);                \
        h = _mm256_shuffle_epi8(_mm256_xor_si256(h, e), rot16);                \
        c = _mm256_add_epi32(c, d);                                            \
        g = _mm256_add_epi32(g, h);                                            \
        b = _mm256_xor_si256(b, c);                                            \
        f = _mm256_xor_si256(f, g);                                            \
        b = ROTW_AVX2(b, 12);                                                  \
        f = ROTW_AVX2(f, 12);                                                  \
        a = _mm256_add_epi32(a, b);                                            \
        e = _mm256_add_epi32(e, f);                                            \
        d = _mm256_shuffle_epi8(_mm256_xor_si256(d, a), rot8);                 \
        h = _mm256_shuffle_epi8(_mm256_xor_si256(h, e), rot8);                 \
        c = _mm256_add_epi32(c, d);                                            \
        g = _mm256_add_epi32(g, h);                                            \
        b = _mm256_xor_si256(b, c);                                            \
        f = _mm256_xor_si256(f, g);                                            \
        b = ROTW_AVX2(b, 7);                                                   \
        f = ROTW_AVX2(f, 7);                                                   \
    } while (0)

#define DOUBLE_ROUND2_AVX2(p, q)                                               \
    do {                                                                       \
        QR2_AVX2(p##0, p##4, p##8, p##12, q##0, q##4, q##8, q##12);            \
        QR2_AVX2(p##1, p##5, p##9, p##13, q##1, q##5, q##9, q##13);            \
        QR2_AVX2(p##2, p##6, p##10, p##14, q##2, q##6, q##10, q##14);          \
        QR2_AVX2(p##3, p##7, p##11, p##15, q##3, q##7, q##11, q##15);          \
        QR2_AVX2(p##0, p##5, p##10, p##15, q##0, q##5, q##10, q##15);          \
        QR2_AVX2(p##1, p##6, p##11, p##12, q##1, q##6, q##11, q##12);          \
        QR2_AVX2(p##2, p##7, p##8, p##13, q##2, q##7, q##8, q##13);            \
        QR2_AVX2(p##3, p##4, p##9, p##14, q##3, q##4, q##9, q##14);            \
    } while (0)

/* Add the input back into p0..p15 (counter words lo, hi) and store the 8
   blocks at dst. */
#define FINISH_AVX2(p, in, lo, hi, dst)                                        \
    do {                                                                       \
        p##0 = _mm256_add_epi32(p##0, B32((in)[0]));                           \
        p##1 = _mm256_add_epi32(p##1, B32((in)[1]));                           \
        p##2 = _mm256_add_epi32(p##2, B32((in)[2]));                           \
        p##3 = _mm256_add_epi32(p##3, B32((in)[3]));                           \
        p##4 = _mm256_add_epi32(p##4, B32((in)[4]));                           \
        p##5 = _mm256_add_epi32(p##5, B32((in)[5]));                           \
        p##6 = _mm256_add_epi32(p##6, B32((in)[6]));                           \
        p##7 = _mm256_add_epi32(p##7, B32((in)[7]));                           \
        STORE8_AVX2(p##0, p##1, p##2, p##3, p##4, p##5, p##6, p##7, dst);      \
        p##8 = _mm256_add_epi32(p##8, B32((in)[8]));                           \
        p##9 = _mm256_add_epi32(p##9, B32((in)[9]));                           \
        p##10 = _mm256_add_epi32(p##10, B32((in)[10]));                        \
        p##11 = _mm256_add_epi32(p##11, B32((in)[11]));                        \
        p##12 = _mm256_add_epi32(p##12, lo);                                   \
        p##13 = _mm256_add_epi32(p##13, hi);                                   \
        p##14 = _mm256_add_epi32(p##14, B32((in)[14]));                        \
        p##15 = _mm256_add_epi32(p##15, B32((in)[15]));                        \
        STORE8_AVX2(p##8, p##9, p##10, p##11, p##12, p##13, p##14, p##15,      \
                    (dst) + 8);                                                \
    } while (0)

/* Declare state vectors p0..p15 for 8 blocks from the input. */
#define INIT_AVX2(p, in, lo, hi)                                               \
    __m256i p##0 = B32((in)[0]), p##1 = B32((in)[1]), p##2 = B32((in)[2]);     \
    __m256i p##3 = B32((in)[3]), p##4 = B32((in)[4]), p##5 = B32((in)[5]);     \
    __m256i p##6 = B32((in)[6]), p##7 = B32((in)[7]), p##8 = B32((in)[8]);     \
    __m256i p##9 = B32((in)[9]), p##10 = B32((in)[10]);                        \
    __m256i p##11 = B32((in)[11]), p##12 = lo, p##13 = hi;                     \
    __m256i p##14 = B32((in)[14]), p##15 = B32((in)[15])

#define ROT_CONSTANTS_AVX2                                                     \
    const __m256i rot16 =                                                      \
        _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, \
                         2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13); \
    const __m256i rot8 =                                                       \
        _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, \
                         3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14)

/* Blocks in[12..13] + 0..7 into dst[0..128) (32-bit words). */
static inline AVX2_FN ALWAYS_INLINE void pass8_avx2(const uint32_t in[16],
                                                    int rounds, uint32_t *dst)
{
    ROT_CONSTANTS_AVX2;
    __m256i lo, hi;
    COUNTER_AVX2(in, lo, hi);
    INIT_AVX2(x, in, lo, hi);
    /* rounds is 8, 12 or 20: a multiple of 4. */
    for (int r = 0; r < rounds; r += 4) {
        DOUBLE_ROUND(QR_AVX2, x);
        DOUBLE_ROUND(QR_AVX2, x);
    }
    INPUT_BARRIER();
    COUNTER_AVX2(in, lo, hi);
    FINISH_AVX2(x, in, lo, hi, dst);
}

/* Blocks in[12..13] + 0..15 into dst[0..256): two 8-block groups in
   flight, which on Zen 5 beats one group even though 32 state vectors
   cannot stay in 16 ymm registers (latency, not throughput, limits one
   group); not measured on other AVX2 cores. */
static inline AVX2_FN ALWAYS_INLINE void
pass16_avx2(const uint32_t in[16], int rounds, uint32_t *dst)
{
    ROT_CONSTANTS_AVX2;
    uint64_t c = (uint64_t)in[13] << 32 | in[12];
    uint32_t in2[16];
    memcpy(in2, in, sizeof in2);
    in2[12] = (uint32_t)(c + 8);
    in2[13] = (uint32_t)((c + 8) >> 32);
    __m256i lo, hi, lo2, hi2;
    COUNTER_AVX2(in, lo, hi);
    COUNTER_AVX2(in2, lo2, hi2);
    INIT_AVX2(x, in, lo, hi);
    INIT_AVX2(y, in2, lo2, hi2);
    for (int r = 0; r < rounds; r += 2)
        DOUBLE_ROUND2_AVX2(x, y);
    INPUT_BARRIER();
    COUNTER_AVX2(in, lo, hi);
    FINISH_AVX2(x, in, lo, hi, dst);
    COUNTER_AVX2(in2, lo2, hi2);
    FINISH_AVX2(y, in2, lo2, hi2, dst + 128);
    sodium_memzero(in2, sizeof in2);
}

AVX2_FN void fsh_chacha_blocks_avx2(const uint32_t key[8], uint64_t counter,
                                    uint64_t stream, int rounds,
                                    uint64_t *out, size_t nblocks)
{
    uint32_t in[16];
    /* Little-endian: 32-bit word 2k + j of a block is half j of word k. */
    for (; nblocks >= 16; nblocks -= 16, counter += 16, out += 128) {
        load_input(in, key, counter, stream);
        pass16_avx2(in, rounds, (uint32_t *)(void *)out);
    }
    for (; nblocks >= 8; nblocks -= 8, counter += 8, out += 64) {
        load_input(in, key, counter, stream);
        pass8_avx2(in, rounds, (uint32_t *)(void *)out);
    }
    if (nblocks > 0) {
        uint64_t tmp[64];
        load_input(in, key, counter, stream);
        pass8_avx2(in, rounds, (uint32_t *)(void *)tmp);
        memcpy(out, tmp, 64 * nblocks);
        sodium_memzero(tmp, sizeof tmp);
    }
    sodium_memzero(in, sizeof in);
}

/* ------------------------------------------------------------------------ */
/* AVX-512F: 16 or 32 blocks per pass                                       */

/* Blocks in[12..13] + 0..15 into dst[0..256) (32-bit words). */
static inline AVX512_FN ALWAYS_INLINE void
pass16_avx512(const uint32_t in[16], int rounds, uint32_t *dst)
{
    __m512i lo, hi;
    COUNTER_AVX512(in, 0, lo, hi);
    INIT_AVX512(x, in, lo, hi);
    /* rounds is 8, 12 or 20: a multiple of 4. */
    for (int r = 0; r < rounds; r += 4) {
        DOUBLE_ROUND(QR_AVX512, x);
        DOUBLE_ROUND(QR_AVX512, x);
    }
    INPUT_BARRIER();
    FINISH_AVX512(x, in, 0, dst);
}

/* Blocks in[12..13] + 0..31 into dst[0..512): two groups of 16 in flight.
   The 32 state vectors fill the 32 zmm registers; the rounds need no
   others (vprold takes an immediate). */
static inline AVX512_FN ALWAYS_INLINE void
pass32_avx512(const uint32_t in[16], int rounds, uint32_t *dst)
{
    __m512i lo, hi, lo2, hi2;
    COUNTER_AVX512(in, 0, lo, hi);
    COUNTER_AVX512(in, 16, lo2, hi2);
    INIT_AVX512(x, in, lo, hi);
    INIT_AVX512(y, in, lo2, hi2);
    for (int r = 0; r < rounds; r += 4) {
        DOUBLE_ROUND2_AVX512(x, y);
        DOUBLE_ROUND2_AVX512(x, y);
    }
    INPUT_BARRIER();
    FINISH_AVX512(x, in, 0, dst);
    FINISH_AVX512(y, in, 16, dst + 256);
}

AVX512_FN void fsh_chacha_blocks_avx512(const uint32_t key[8],
                                        uint64_t counter, uint64_t stream,
                                        int rounds, uint64_t *out,
                                        size_t nblocks)
{
    uint32_t in[16];
    for (; nblocks >= 32; nblocks -= 32, counter += 32, out += 256) {
        load_input(in, key, counter, stream);
        pass32_avx512(in, rounds, (uint32_t *)(void *)out);
    }
    if (nblocks >= 16) {
        load_input(in, key, counter, stream);
        pass16_avx512(in, rounds, (uint32_t *)(void *)out);
        nblocks -= 16, counter += 16, out += 128;
    }
    if (nblocks > 0) {
        uint64_t tmp[128];
        load_input(in, key, counter, stream);
        pass16_avx512(in, rounds, (uint32_t *)(void *)tmp);
        memcpy(out, tmp, 64 * nblocks);
        sodium_memzero(tmp, sizeof tmp);
    }
    sodium_memzero(in, sizeof in);
}

#else /* !FSH_CHACHA_X86 */

/* ISO C forbids an empty translation unit. */
typedef int fsh_chacha_simd_unused;

#endif
