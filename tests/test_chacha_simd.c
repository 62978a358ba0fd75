/* SPDX-License-Identifier: MIT */
/* Every ChaCha kernel this machine can run (portable, AVX2, AVX-512) gives
   byte-identical output to the one-block reference fsh_chacha_block, for
   ChaCha8/12/20, random keys and streams, counters at the 2^32 and 2^64
   carry boundaries, every block count up to a few passes, and unaligned
   output; and the dispatcher picks and honours FSH_CHACHA_IMPL sensibly. */
#include "chacha_ref.h"
#include "check.h"
#include "rng/chacha.h"
#include "rng/rng.h"

#include <stdio.h>
#include <string.h>

static uint64_t sm_state;

static uint64_t sm_next(void)
{
    uint64_t z = (sm_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

#define MAXB 70    /* blocks per case: > 4 AVX-512 passes */
#define GUARD 24   /* words checked untouched after the output */
#define CANARY 0xa5a5a5a5a5a5a5a5u

/* Base counters: 0, and values just below the 2^32 (carry into word 13)
   and 2^64 (wrap to 0) boundaries and the sign bits of both words. */
static const uint64_t edge_counters[] = {
    0,
    0xffffffffu - 0,  0xffffffffu - 1,  0xffffffffu - 7,  0xffffffffu - 8,
    0xffffffffu - 14, 0xffffffffu - 15, 0xffffffffu - 16, 0xffffffffu - 40,
    0x7fffffffu - 3,  0x1ffffffffu - 5, 0xabcdef01fffffff9u,
    UINT64_MAX - 0,   UINT64_MAX - 1,   UINT64_MAX - 7,   UINT64_MAX - 15,
    UINT64_MAX - 16,  UINT64_MAX - 33,  0x7fffffffffffffffu - 9,
};

/* Compare kernel fn against the reference on one case; 1 if equal. */
static int one_case(fsh_chacha_fn *fn, const uint32_t key[8],
                    uint64_t counter, uint64_t stream, int rounds,
                    size_t nblocks, size_t misalign)
{
    static uint64_t want[8 * MAXB];
    static uint64_t got[8 * MAXB + GUARD + 4]; /* misalign <= 3 */
    uint64_t *dst = got + misalign; /* 8-byte aligned, not 32/64 */
    ref_blocks(key, counter, stream, rounds, want, nblocks);
    for (size_t i = 0; i < sizeof got / sizeof got[0]; i++)
        got[i] = CANARY;
    fn(key, counter, stream, rounds, dst, nblocks);
    int ok = memcmp(dst, want, 8 * 8 * nblocks) == 0;
    for (size_t i = 0; i < misalign; i++)
        ok &= got[i] == CANARY;
    for (size_t i = 8 * nblocks; i < 8 * nblocks + GUARD; i++)
        ok &= dst[i] == CANARY;
    return ok;
}

static void test_known_answer(void)
{
    /* ChaCha20, all-zero key, nonce and counter: the first block of
       draft-agl-tls-chacha20poly1305 / RFC 7539 A.1 test vector 1. */
    static const uint8_t kat[64] = {
        0x76, 0xb8, 0xe0, 0xad, 0xa0, 0xf1, 0x3d, 0x90, 0x40, 0x5d, 0x6a,
        0xe5, 0x53, 0x86, 0xbd, 0x28, 0xbd, 0xd2, 0x19, 0xb8, 0xa0, 0x8d,
        0xed, 0x1a, 0xa8, 0x36, 0xef, 0xcc, 0x8b, 0x77, 0x0d, 0xc7, 0xda,
        0x41, 0x59, 0x7c, 0x51, 0x57, 0x48, 0x8d, 0x77, 0x24, 0xe0, 0x3f,
        0xb8, 0xd8, 0x4a, 0x37, 0x6a, 0x43, 0xb8, 0xf4, 0x15, 0x18, 0xa1,
        0x1c, 0xc3, 0x87, 0xb6, 0x69, 0xb2, 0xee, 0x65, 0x86};
    const uint32_t zero[8] = {0};
    uint8_t b[64];
    fsh_chacha_block(zero, 0, 0, 20, b);
    CHECK(memcmp(b, kat, 64) == 0);
    for (int impl = 0; impl < FSH_CHACHA_NIMPL; impl++) {
        fsh_chacha_fn *fn = fsh_chacha_impl_fn(impl);
        if (fn == NULL)
            continue;
        uint64_t w[8 * 16];
        fn(zero, 0, 0, 20, w, 16);
        for (int k = 0; k < 8; k++) {
            uint64_t x = 0;
            for (int j = 7; j >= 0; j--)
                x = x << 8 | kat[8 * k + j];
            CHECK(w[k] == x);
        }
    }
}

static void test_kernel(int impl)
{
    fsh_chacha_fn *fn = fsh_chacha_impl_fn(impl);
    static const int rounds_list[] = {8, 12, 20};
    static const size_t sizes[] = {0,  1,  2,  3,  7,  8,  9,  15, 16, 17,
                                   23, 24, 31, 32, 33, 47, 48, 49, 64, MAXB};
    unsigned long cases = 0, bad = 0;
    for (size_t ri = 0; ri < 3; ri++) {
        int rounds = rounds_list[ri];
        check_seed = 1000 + (uint64_t)rounds;
        sm_state = check_seed;
        /* Edge counters x every size, fresh key and stream each time. */
        for (size_t ci = 0;
             ci < sizeof edge_counters / sizeof edge_counters[0]; ci++)
            for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
                uint32_t key[8];
                for (int i = 0; i < 8; i++)
                    key[i] = (uint32_t)sm_next();
                uint64_t stream = sm_next();
                int ok = one_case(fn, key, edge_counters[ci], stream, rounds,
                                  sizes[si], (ci + si) % 3);
                cases++;
                bad += !ok;
                if (!ok)
                    fprintf(stderr,
                            "%s ChaCha%d counter %llu blocks %zu differs\n",
                            fsh_chacha_impl_name(impl), rounds,
                            (unsigned long long)edge_counters[ci],
                            sizes[si]);
            }
        /* Random everything, including random counters just below a
           2^32 multiple. */
        for (int n = 0; n < 300; n++) {
            uint32_t key[8];
            for (int i = 0; i < 8; i++)
                key[i] = (uint32_t)sm_next();
            uint64_t stream = sm_next(), counter = sm_next();
            if (n % 2)
                counter |= 0xffffffc0u;
            size_t nb = (size_t)(sm_next() % (MAXB + 1));
            int ok = one_case(fn, key, counter, stream, rounds, nb,
                              (size_t)n % 4);
            cases++;
            bad += !ok;
        }
    }
    CHECK_EQ(bad, 0);
    printf("test_chacha_simd: %-8s ChaCha8/12/20: %lu cases, %lu bad\n",
           fsh_chacha_impl_name(impl), cases, bad);
}

static void test_dispatch(void)
{
    int best = FSH_CHACHA_PORTABLE;
    for (int i = 0; i < FSH_CHACHA_NIMPL; i++)
        if (fsh_chacha_impl_available(i))
            best = i;
    CHECK(fsh_chacha_impl_available(FSH_CHACHA_PORTABLE));
    CHECK(!fsh_chacha_impl_available(-1));
    CHECK(!fsh_chacha_impl_available(FSH_CHACHA_NIMPL));
    CHECK(fsh_chacha_impl_fn(FSH_CHACHA_NIMPL) == NULL);
    CHECK(fsh_chacha_impl_name(FSH_CHACHA_NIMPL) == NULL);
    CHECK_EQ(fsh_chacha_impl_pick(NULL), best);
    CHECK_EQ(fsh_chacha_impl_pick(""), best);
    CHECK_EQ(fsh_chacha_impl_pick("sse9"), best);
    CHECK_EQ(fsh_chacha_impl_pick("AVX2x"), best);
    CHECK_EQ(fsh_chacha_impl_pick("portable"), FSH_CHACHA_PORTABLE);
    for (int i = 0; i < FSH_CHACHA_NIMPL; i++)
        CHECK_EQ(fsh_chacha_impl_pick(fsh_chacha_impl_name(i)),
                 fsh_chacha_impl_available(i) ? i : best);

    /* The active kernel: FSH_CHACHA_IMPL if set and available, else best. */
    const char *env = getenv("FSH_CHACHA_IMPL");
    int active = fsh_chacha_impl_active();
    CHECK_EQ(active, fsh_chacha_impl_pick(env));
    printf("test_chacha_simd: active kernel %s (FSH_CHACHA_IMPL=%s)\n",
           fsh_chacha_impl_name(active), env ? env : "unset");

    /* The dispatched entry point and the rng built on it agree with the
       reference, across a refill boundary and a counter carry. */
    uint32_t key[8];
    uint8_t kb[32];
    sm_state = 77;
    for (int i = 0; i < 8; i++) {
        key[i] = (uint32_t)sm_next();
        for (int j = 0; j < 4; j++)
            kb[4 * i + j] = (uint8_t)(key[i] >> (8 * j));
    }
    CHECK(one_case(fsh_chacha_blocks, key, 0xfffffff5u, 42, 8, MAXB, 1));
    static uint64_t want[8 * MAXB];
    uint64_t counter = 0xffffffffu - 20;
    ref_blocks(key, counter, 43, 12, want, MAXB);
    fsh_rng *rng = NULL;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    if (rng == NULL)
        return;
    CHECK_EQ(fsh_rng_key_chacha(rng, 12, kb, 43, counter), FSH_OK);
    size_t diff = 0;
    for (size_t i = 0; i < 8 * MAXB; i++) {
        uint64_t w = 0;
        CHECK_EQ(fsh_rng_u64(rng, &w), FSH_OK);
        diff += w != want[i];
    }
    CHECK_EQ(diff, 0);
    fsh_rng_free(rng);
}

static uint64_t cb_calls;

static uint64_t counting_words(void *ctx)
{
    (void)ctx;
    return ++cb_calls;
}

/* FSH_BUF_WORDS grew to 32 ChaCha blocks for the AVX-512 kernel; a user
   word callback must still be read at most 128 words ahead (fairshuf.h),
   in order, with exact bit accounting. */
static void test_buffer(void)
{
    fsh_rng *rng = NULL;
    uint64_t w = 0;
    CHECK_EQ(FSH_BUF_WORDS % 8, 0);
    CHECK(FSH_CB_WORDS <= FSH_BUF_WORDS);
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    if (rng == NULL)
        return;
    CHECK_EQ(fsh_rng_from_words(rng, counting_words, NULL), FSH_OK);
    CHECK_EQ(cb_calls, 0);
    int in_order = 1;
    for (uint64_t i = 1; i <= 300; i++) {
        CHECK_EQ(fsh_rng_u64(rng, &w), FSH_OK);
        in_order &= w == i;
        if (i == 1 || i == 128 || i == 129 || i == 300) {
            CHECK_EQ(cb_calls, (i + 127) / 128 * 128);
            CHECK_EQ(fsh_rng_bits_used(rng), 64 * i);
        }
    }
    CHECK(in_order);
    fsh_rng_free(rng);
}

int main(void)
{
    test_known_answer();
    printf("test_chacha_simd: kernels tested:");
    for (int impl = 0; impl < FSH_CHACHA_NIMPL; impl++)
        if (fsh_chacha_impl_available(impl))
            printf(" %s", fsh_chacha_impl_name(impl));
    for (int impl = 0; impl < FSH_CHACHA_NIMPL; impl++)
        if (!fsh_chacha_impl_available(impl))
            printf(" (%s: not on this CPU, skipped)",
                   fsh_chacha_impl_name(impl));
    printf("\n");
    for (int impl = 0; impl < FSH_CHACHA_NIMPL; impl++)
        if (fsh_chacha_impl_available(impl))
            test_kernel(impl);
    test_dispatch();
    test_buffer();
    return check_done("test_chacha_simd");
}
