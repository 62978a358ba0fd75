/* SPDX-License-Identifier: MIT */
/* The pieces of the x86 ChaCha kernels that other SIMD code shares: the
   input state, the double round, the AVX-512 16-block state with its
   feed-forward and transpose, and the next refill made ahead in slices
   (the scatter shuffle's rough pass and the Fisher-Yates kernel's buffered
   loop). Only for x86-64 with
   GCC or clang (FSH_CHACHA_X86); the AVX-512 macros must be used inside
   functions built for avx512f (FSH_AVX512_FN). */
#ifndef FSH_CHACHA_SIMD_H
#define FSH_CHACHA_SIMD_H

#include "rng/chacha.h"
#include "rng/rng.h"

#if FSH_CHACHA_X86

#include <immintrin.h>
#include <sodium.h>
#include <string.h>

#define FSH_AVX512_FN __attribute__((target("avx512f")))

/* The input state as scalars: "expand 32-byte k", key, counter, stream. */
static inline void load_input(uint32_t in[16], const uint32_t key[8],
                              uint64_t counter, uint64_t stream)
{
    in[0] = 0x61707865u;
    in[1] = 0x3320646eu;
    in[2] = 0x79622d32u;
    in[3] = 0x6b206574u;
    memcpy(in + 4, key, 32);
    in[12] = (uint32_t)counter;
    in[13] = (uint32_t)(counter >> 32);
    in[14] = (uint32_t)stream;
    in[15] = (uint32_t)(stream >> 32);
}

/* Bits of a uint32_t as the int the set1 intrinsics take. */
static inline int i32(uint32_t x)
{
    int r;
    memcpy(&r, &x, sizeof r);
    return r;
}

/* The feed-forward re-reads the input from memory after this barrier, so
   the compiler cannot keep 16 broadcast input vectors alive across the
   rounds (that would push the state itself out to the stack). */
#define INPUT_BARRIER() __asm__ volatile("" ::: "memory")

/* Column round then diagonal round on state vectors p0..p15. */
#define DOUBLE_ROUND(QR, p)                                                    \
    do {                                                                       \
        QR(p##0, p##4, p##8, p##12);                                           \
        QR(p##1, p##5, p##9, p##13);                                           \
        QR(p##2, p##6, p##10, p##14);                                          \
        QR(p##3, p##7, p##11, p##15);                                          \
        QR(p##0, p##5, p##10, p##15);                                          \
        QR(p##1, p##6, p##11, p##12);                                          \
        QR(p##2, p##7, p##8, p##13);                                           \
        QR(p##3, p##4, p##9, p##14);                                           \
    } while (0)

/* ------------------------------------------------------------------------ */
/* AVX-512F: 16 blocks per vector set                                       */

#define B512(x) _mm512_set1_epi32(i32(x))

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

/* Two independent quarter rounds, interleaved op by op. */
#define QR2_AVX512(a, b, c, d, e, f, g, h)                                     \
    do {                                                                       \
        a = _mm512_add_epi32(a, b);                                            \
        e = _mm512_add_epi32(e, f);                                            \
        d = _mm512_rol_epi32(_mm512_xor_si512(d, a), 16);                      \
        h = _mm512_rol_epi32(_mm512_xor_si512(h, e), 16);                      \
        c = _mm512_add_epi32(c, d);                                            \
        g = _mm512_add_epi32(g, h);                                            \
        b = _mm512_rol_epi32(_mm512_xor_si512(b, c), 12);                      \
        f = _mm512_rol_epi32(_mm512_xor_si512(f, g), 12);                      \
        a = _mm512_add_epi32(a, b);                                            \
        e = _mm512_add_epi32(e, f);                                            \
        d = _mm512_rol_epi32(_mm512_xor_si512(d, a), 8);                       \
        h = _mm512_rol_epi32(_mm512_xor_si512(h, e), 8);                       \
        c = _mm512_add_epi32(c, d);                                            \
        g = _mm512_add_epi32(g, h);                                            \
        b = _mm512_rol_epi32(_mm512_xor_si512(b, c), 7);                       \
        f = _mm512_rol_epi32(_mm512_xor_si512(f, g), 7);                       \
    } while (0)

#define DOUBLE_ROUND2_AVX512(p, q)                                             \
    do {                                                                       \
        QR2_AVX512(p##0, p##4, p##8, p##12, q##0, q##4, q##8, q##12);          \
        QR2_AVX512(p##1, p##5, p##9, p##13, q##1, q##5, q##9, q##13);          \
        QR2_AVX512(p##2, p##6, p##10, p##14, q##2, q##6, q##10, q##14);        \
        QR2_AVX512(p##3, p##7, p##11, p##15, q##3, q##7, q##11, q##15);        \
        QR2_AVX512(p##0, p##5, p##10, p##15, q##0, q##5, q##10, q##15);        \
        QR2_AVX512(p##1, p##6, p##11, p##12, q##1, q##6, q##11, q##12);        \
        QR2_AVX512(p##2, p##7, p##8, p##13, q##2, q##7, q##8, q##13);          \
        QR2_AVX512(p##3, p##4, p##9, p##14, q##3, q##4, q##9, q##14);          \
    } while (0)

/* Counter words of 16 blocks: lane b of lo:hi is in[12..13] + off + b
   mod 2^64 (off is 0 or 16), with the carry into the high word. */
#define COUNTER_AVX512(in, off, lo, hi)                                        \
    do {                                                                       \
        uint64_t c_ = ((uint64_t)(in)[13] << 32 | (in)[12]) + (off);           \
        __m512i lo0_ = B512((uint32_t)c_), hi0_ = B512((uint32_t)(c_ >> 32));  \
        lo = _mm512_add_epi32(lo0_, _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7,  \
                                                      8, 9, 10, 11, 12, 13,    \
                                                      14, 15));                \
        hi = _mm512_mask_add_epi32(hi0_, _mm512_cmplt_epu32_mask(lo, lo0_),    \
                                   hi0_, _mm512_set1_epi32(1));                \
    } while (0)

/* Declare state vectors p0..p15 for 16 blocks from the input. */
#define INIT_AVX512(p, in, lo, hi)                                             \
    __m512i p##0 = B512((in)[0]), p##1 = B512((in)[1]);                        \
    __m512i p##2 = B512((in)[2]), p##3 = B512((in)[3]);                        \
    __m512i p##4 = B512((in)[4]), p##5 = B512((in)[5]);                        \
    __m512i p##6 = B512((in)[6]), p##7 = B512((in)[7]);                        \
    __m512i p##8 = B512((in)[8]), p##9 = B512((in)[9]);                        \
    __m512i p##10 = B512((in)[10]), p##11 = B512((in)[11]);                    \
    __m512i p##12 = lo, p##13 = hi;                                            \
    __m512i p##14 = B512((in)[14]), p##15 = B512((in)[15])

/* 4x4 transpose of 32-bit words inside each 128-bit lane: y<j> lane L
   element e = word w + j of block 4L + e becomes r<e> lane L element j. */
#define T4_AVX512(y0, y1, y2, y3, r0, r1, r2, r3)                              \
    do {                                                                       \
        __m512i t0_ = _mm512_unpacklo_epi32(y0, y1);                           \
        __m512i t1_ = _mm512_unpackhi_epi32(y0, y1);                           \
        __m512i t2_ = _mm512_unpacklo_epi32(y2, y3);                           \
        __m512i t3_ = _mm512_unpackhi_epi32(y2, y3);                           \
        r0 = _mm512_unpacklo_epi64(t0_, t2_);                                  \
        r1 = _mm512_unpackhi_epi64(t0_, t2_);                                  \
        r2 = _mm512_unpacklo_epi64(t1_, t3_);                                  \
        r3 = _mm512_unpackhi_epi64(t1_, t3_);                                  \
    } while (0)

/* ra..rd lane L hold words 0-3, 4-7, 8-11, 12-15 of block 4L + k: store
   block 4L + k at dst + 64 * L (dst already offset by 16 * k). */
#define STORE4_AVX512(ra, rb, rc, rd, dst)                                     \
    do {                                                                       \
        __m512i a_ = _mm512_shuffle_i32x4(ra, rb, 0x44);                       \
        __m512i b_ = _mm512_shuffle_i32x4(ra, rb, 0xee);                       \
        __m512i c_ = _mm512_shuffle_i32x4(rc, rd, 0x44);                       \
        __m512i d_ = _mm512_shuffle_i32x4(rc, rd, 0xee);                       \
        _mm512_storeu_si512((void *)((dst) + 0),                               \
                            _mm512_shuffle_i32x4(a_, c_, 0x88));               \
        _mm512_storeu_si512((void *)((dst) + 64),                              \
                            _mm512_shuffle_i32x4(a_, c_, 0xdd));               \
        _mm512_storeu_si512((void *)((dst) + 128),                             \
                            _mm512_shuffle_i32x4(b_, d_, 0x88));               \
        _mm512_storeu_si512((void *)((dst) + 192),                             \
                            _mm512_shuffle_i32x4(b_, d_, 0xdd));               \
    } while (0)

/* Add the input (counter offset off) back into p0..p15 and transpose
   inside 128-bit lanes in place: afterwards STORE4_AVX512(p0+k, p4+k,
   p8+k, p12+k, dst + 16 * k) stores blocks k, k+4, k+8, k+12 for k = 0..3
   (FINISH_AVX512 does all four; the slices made ahead one at a time). */
#define FEED_T4_AVX512(p, in, off)                                             \
    do {                                                                       \
        __m512i lo_, hi_;                                                      \
        COUNTER_AVX512(in, off, lo_, hi_);                                     \
        p##0 = _mm512_add_epi32(p##0, B512((in)[0]));                          \
        p##1 = _mm512_add_epi32(p##1, B512((in)[1]));                          \
        p##2 = _mm512_add_epi32(p##2, B512((in)[2]));                          \
        p##3 = _mm512_add_epi32(p##3, B512((in)[3]));                          \
        p##4 = _mm512_add_epi32(p##4, B512((in)[4]));                          \
        p##5 = _mm512_add_epi32(p##5, B512((in)[5]));                          \
        p##6 = _mm512_add_epi32(p##6, B512((in)[6]));                          \
        p##7 = _mm512_add_epi32(p##7, B512((in)[7]));                          \
        p##8 = _mm512_add_epi32(p##8, B512((in)[8]));                          \
        p##9 = _mm512_add_epi32(p##9, B512((in)[9]));                          \
        p##10 = _mm512_add_epi32(p##10, B512((in)[10]));                       \
        p##11 = _mm512_add_epi32(p##11, B512((in)[11]));                       \
        p##12 = _mm512_add_epi32(p##12, lo_);                                  \
        p##13 = _mm512_add_epi32(p##13, hi_);                                  \
        p##14 = _mm512_add_epi32(p##14, B512((in)[14]));                       \
        p##15 = _mm512_add_epi32(p##15, B512((in)[15]));                       \
        T4_AVX512(p##0, p##1, p##2, p##3, p##0, p##1, p##2, p##3);             \
        T4_AVX512(p##4, p##5, p##6, p##7, p##4, p##5, p##6, p##7);             \
        T4_AVX512(p##8, p##9, p##10, p##11, p##8, p##9, p##10, p##11);         \
        T4_AVX512(p##12, p##13, p##14, p##15, p##12, p##13, p##14, p##15);     \
    } while (0)

/* Add the input (counter offset off) back into p0..p15 and store the 16
   blocks at dst: a 16x16 transpose, first inside 128-bit lanes (T4, in
   place), then of 128-bit lanes (STORE4). */
#define FINISH_AVX512(p, in, off, dst)                                         \
    do {                                                                       \
        FEED_T4_AVX512(p, in, off);                                            \
        STORE4_AVX512(p##0, p##4, p##8, p##12, (dst) + 0);                     \
        STORE4_AVX512(p##1, p##5, p##9, p##13, (dst) + 16);                    \
        STORE4_AVX512(p##2, p##6, p##10, p##14, (dst) + 32);                   \
        STORE4_AVX512(p##3, p##7, p##11, p##15, (dst) + 48);                   \
    } while (0)

/* ------------------------------------------------------------------------ */
/* The next refill made ahead, a slice at a time                            */

/* A loop that reads an rng's buffer word by word (the scatter's rough pass,
   the Fisher-Yates kernel's buffered loop) leaves the vector units idle,
   while a refill is about a thousand cycles of vector work during which
   no memory access issues. These macros make the next refill's
   FSH_BUF_WORDS / 8 blocks ahead, in slices run between the loop's chunks
   (a double round of 16 blocks, or their feed-forward and transpose into
   side_), with the state in 16 zmm registers the loop never uses, so the
   two overlap. AHEAD_REFILL then installs them with fsh_rng_refill_made:
   exactly the words and rng state fsh_rng_refill would give. The slices
   are made for the counter and keying the rng had when they began (ctr_,
   kid_); if anything else refilled the rng meanwhile (fsh_rng_refill on a
   rare path, a fork guard's rekeying), they are stale and AHEAD_REFILL
   refills plainly. An rng left unkeyed (a forked child's rekey failed: its
   key wiped, FSH_SRC_NONE) gets no slices after the refill that finds it
   so (AHEAD_REFILL), so no later refill's keystream is computed from the
   wiped key; its refills serve the unkeyed path's words. For a ChaCha rng only, in
   functions built for avx512f (FSH_AVX512_FN), and only where the AVX-512
   ChaCha kernel runs (the words are the same; the work would not pay
   elsewhere). */
#define AHEAD_DECL(rng)                                                        \
    _Alignas(64) uint64_t side_[FSH_BUF_WORDS];                                \
    uint32_t in_[16];                                                          \
    int ph_ = 0;                                                               \
    uint64_t ctr_ = (rng)->counter, kid_ = (rng)->key_id;                      \
    const int dr_ = (rng)->rounds / 2, per_ = dr_ + 5, steps_ = 2 * per_;      \
    __m512i s0 = _mm512_setzero_si512(), s1 = s0, s2 = s0, s3 = s0, s4 = s0,   \
            s5 = s0, s6 = s0, s7 = s0, s8 = s0, s9 = s0, s10 = s0, s11 = s0,   \
            s12 = s0, s13 = s0, s14 = s0, s15 = s0

/* Slice ph_ of the 2 * per_: group g = ph_ / per_ (blocks ctr_ + 16 g on)
   takes dr_ double rounds, the first loading its input, then its
   feed-forward and in-lane transpose, then four slices that each store a
   quarter of its 16 blocks (spread out: stores are what the loops around
   are short of). */
#define AHEAD_STEP(rng)                                                        \
    do {                                                                       \
        int g_ = ph_ / per_, r_ = ph_ % per_;                                  \
        uint32_t *o_ = (uint32_t *)(void *)(side_ + 128 * g_);                 \
        if (r_ == 0) {                                                         \
            __m512i lo_, hi_;                                                  \
            (rng)->ahead_blocks += 16;                                         \
            load_input(in_, (rng)->key, ctr_ + 16 * (uint64_t)g_,              \
                       (rng)->stream);                                         \
            COUNTER_AVX512(in_, 0, lo_, hi_);                                  \
            s0 = B512(in_[0]), s1 = B512(in_[1]), s2 = B512(in_[2]);           \
            s3 = B512(in_[3]), s4 = B512(in_[4]), s5 = B512(in_[5]);           \
            s6 = B512(in_[6]), s7 = B512(in_[7]), s8 = B512(in_[8]);           \
            s9 = B512(in_[9]), s10 = B512(in_[10]), s11 = B512(in_[11]);       \
            s12 = lo_, s13 = hi_, s14 = B512(in_[14]), s15 = B512(in_[15]);    \
            DOUBLE_ROUND(QR_AVX512, s);                                        \
        } else if (r_ < dr_) {                                                 \
            DOUBLE_ROUND(QR_AVX512, s);                                        \
        } else if (r_ == dr_) {                                                \
            FEED_T4_AVX512(s, in_, 0);                                         \
        } else if (r_ == dr_ + 1) {                                            \
            STORE4_AVX512(s0, s4, s8, s12, o_);                                \
        } else if (r_ == dr_ + 2) {                                            \
            STORE4_AVX512(s1, s5, s9, s13, o_ + 16);                           \
        } else if (r_ == dr_ + 3) {                                            \
            STORE4_AVX512(s2, s6, s10, s14, o_ + 32);                          \
        } else {                                                               \
            STORE4_AVX512(s3, s7, s11, s15, o_ + 48);                          \
        }                                                                      \
        ph_++;                                                                 \
    } while (0)

/* Whether the slices are for the rng's next refill: it is still a ChaCha
   rng (not left unkeyed), and its counter and its keying (a fork guard
   rekeys) are those they began with. */
#define AHEAD_FRESH(rng)                                                       \
    ((rng)->src == FSH_SRC_CHACHA && ctr_ == (rng)->counter &&                 \
     kid_ == (rng)->key_id)

/* Whether the next refill still has slices to make: the caller runs
   AHEAD_SLICE until it has not, then AHEAD_REFILL (so its loop holds a
   single copy of the slice code). False when the slices are stale. */
#define AHEAD_BUSY(rng) (ph_ < steps_ && AHEAD_FRESH(rng))

/* One slice, if the next refill is not made yet. Only ph_ is tested: this
   runs in the loops' chunks, where a test of the rng's fields cost 8-10 %
   of an in-cache shuffle (docs/PERFORMANCE.md, session 16). An rng left
   unkeyed gets no slices all the same: AHEAD_REFILL sets ph_ = steps_ for
   it, and a refill off this path (which is what can leave it unkeyed)
   costs at most the rest of the current refill's slices, computed from
   the wiped key and never installed. */
#define AHEAD_SLICE(rng)                                                       \
    do {                                                                       \
        if (ph_ < steps_)                                                      \
            AHEAD_STEP(rng);                                                   \
    } while (0)

/* The refill (the rng's buffer used up, AHEAD_BUSY false): side_, or
   plainly if the slices are stale or the rng unkeyed. The next refill's
   slices begin (for a ChaCha rng: AHEAD_FRESH). */
#define AHEAD_REFILL(rng)                                                      \
    do {                                                                       \
        if (FSH_LIKELY(AHEAD_FRESH(rng))) {                                    \
            fsh_rng_refill_made(rng, side_);                                   \
        } else {                                                               \
            if ((rng)->src == FSH_SRC_CHACHA)                                  \
                fsh_rng_ahead_stale_count();                                   \
            (rng)->pos = FSH_BUF_WORDS;                                        \
            fsh_rng_refill(rng);                                               \
        }                                                                      \
        ph_ = (rng)->src == FSH_SRC_CHACHA ? 0 : steps_;                       \
        ctr_ = (rng)->counter, kid_ = (rng)->key_id;                           \
    } while (0)

/* Wipe the keystream made ahead and the copy of the key. */
#define AHEAD_END(rng)                                                         \
    do {                                                                       \
        sodium_memzero(side_, sizeof side_);                                   \
        sodium_memzero(in_, sizeof in_);                                       \
    } while (0)

#endif /* FSH_CHACHA_X86 */
#endif /* FSH_CHACHA_SIMD_H */
