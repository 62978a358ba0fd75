/* SPDX-License-Identifier: MIT */
/* Reachability over every public operation that produces an order or a
 * subset. With b bits of seed entropy (b < 256, not simulation grade):
 *   an ordered k of n (shuffles: k = n) needs n!/(n-k)! <= 2^b,
 *   an unordered k of n needs C(n, k) <= 2^b,
 * otherwise FSH_EENTROPY and nothing is changed. Incremental objects: the
 * deck checks the ordered prefix dealt since its last shuffle, including
 * the cards asked for; the range permutation the ordered prefix drawn so
 * far, including this draw; an Algorithm R step for item `seen` the
 * unordered k-subset of the seen + 1 items. A 32-byte seed (256 bits) is
 * bound the same way (57 elements, not 58); simulation grade
 * (fsh_rng_set_simulation, xoshiro256++) accepts all, and so does an
 * OS-keyed rng with a hardware source (it mixes hardware entropy in:
 * tests/test_reach_hw.c counts it). Each operation must refuse exactly at
 * the boundary and accept just below. The boundaries are computed here
 * with a separate exact bignum. */
#include "check.h"
#include "fairshuf.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Exact arithmetic on 320-bit numbers, 32-bit limbs, little-endian.        */

#define LIMBS 10
typedef struct big { uint32_t l[LIMBS]; } big;

static big big_one(void)
{
    big x;
    memset(&x, 0, sizeof x);
    x.l[0] = 1;
    return x;
}

static void big_mul32(big *x, uint32_t f)
{
    uint64_t carry = 0;
    for (int i = 0; i < LIMBS; i++) {
        uint64_t t = (uint64_t)x->l[i] * f + carry;
        x->l[i] = (uint32_t)t;
        carry = t >> 32;
    }
}

static void big_add(big *x, const big *y)
{
    uint64_t carry = 0;
    for (int i = 0; i < LIMBS; i++) {
        uint64_t t = (uint64_t)x->l[i] + y->l[i] + carry;
        x->l[i] = (uint32_t)t;
        carry = t >> 32;
    }
}

/* x *= f (f < 2^64), as x*lo + (x*hi) << 32. */
static void big_mul64(big *x, uint64_t f)
{
    big h = *x;
    big_mul32(x, (uint32_t)f);
    big_mul32(&h, (uint32_t)(f >> 32));
    memmove(h.l + 1, h.l, (LIMBS - 1) * sizeof h.l[0]);
    h.l[0] = 0;
    big_add(x, &h);
}

static void big_div32(big *x, uint32_t d)
{
    uint64_t rem = 0;
    for (int i = LIMBS - 1; i >= 0; i--) {
        uint64_t t = rem << 32 | x->l[i];
        x->l[i] = (uint32_t)(t / d);
        rem = t % d;
    }
}

/* x <= 2^bits (bits < 300). */
static int big_le_pow2(const big *x, unsigned bits)
{
    unsigned w = bits / 32, b = bits % 32;
    for (unsigned i = LIMBS - 1; i > w; i--)
        if (x->l[i] != 0)
            return 0;
    if (x->l[w] >> b > 1 || (x->l[w] >> b == 1 && (x->l[w] & ((1u << b) - 1))))
        return 0;
    if (x->l[w] >> b == 1)
        for (unsigned i = 0; i < w; i++)
            if (x->l[i] != 0)
                return 0;
    return 1;
}

/* (last+1) last ... (last+2-k) <= 2^bits: k of last+1 in order. */
static int falling_ok(uint64_t last, uint64_t k, unsigned bits)
{
    big x = big_one();
    for (uint64_t i = 0; i < k; i++) {
        if (i == 0 && last == UINT64_MAX) { /* the factor 2^64 */
            memmove(x.l + 2, x.l, (LIMBS - 2) * sizeof x.l[0]);
            x.l[0] = x.l[1] = 0;
        } else {
            big_mul64(&x, last + 1 - i);
        }
        if (!big_le_pow2(&x, bits))
            return 0;
    }
    return 1;
}

/* C(n, k) <= 2^bits, n >= k; C(n, i) grows with i up to n/2. */
static int binom_ok(uint64_t n, uint64_t k, unsigned bits)
{
    if (n - k < k)
        k = n - k;
    big x = big_one();
    for (uint64_t i = 0; i < k; i++) {
        if (i >= 300)
            return 0; /* C(n, 300) >= 2^300 for n >= 600 */
        big_mul64(&x, n - i);
        big_div32(&x, (uint32_t)(i + 1));
        if (!big_le_pow2(&x, bits))
            return 0;
    }
    return 1;
}

/* Largest k <= kmax with falling_ok. */
static uint64_t max_k(uint64_t last, uint64_t kmax, unsigned bits)
{
    uint64_t k = 0;
    while (k < kmax && falling_ok(last, k + 1, bits))
        k++;
    return k;
}

/* ------------------------------------------------------------------------ */

static const size_t seed_lens[] = {1, 2, 3, 4, 8, 16, 31, 32};
static const char seed[32] = "reachability test seed material";

static void seed_rng(fsh_rng *rng, size_t len)
{
    CHECK_EQ(fsh_rng_seed(rng, seed, len), FSH_OK);
    CHECK_EQ(fsh_rng_set_simulation(rng, 0), FSH_OK);
}

/* Shuffles and permutations: n! <= 2^bits. */
static void test_shuffles(fsh_rng *rng, unsigned bits, int all)
{
    static uint64_t a[80];
    static uint32_t a32[80];
    size_t n0 = 1; /* n0! <= 2^bits < (n0+1)! */
    while (n0 < 79 && falling_ok(n0, n0 + 1, bits))
        n0++;
    if (all)
        n0 = 79;
    for (size_t n = n0; n <= n0 + 1 && n <= 80; n++) {
        int want = all || n == n0 ? FSH_OK : FSH_EENTROPY;
        for (size_t i = 0; i < 80; i++)
            a[i] = a32[i] = (uint32_t)i;
        CHECK_EQ(fsh_shuffle_u64(rng, a, n), want);
        CHECK_EQ(fsh_shuffle_u32(rng, a32, n), want);
        CHECK_EQ(fsh_shuffle_ptr(rng, (void **)a, n), want);
        CHECK_EQ(fsh_shuffle(rng, a32, n, 3), want);
        CHECK_EQ(fsh_shuffle_threads(rng, a, n, 8, 2), want);
        CHECK_EQ(fsh_permutation(rng, a, 1, n), want);
        CHECK_EQ(fsh_permutation_u32(rng, a32, 1, (uint32_t)n), want);
        CHECK_EQ(fsh_rng_max_fair_n(rng) >= n, want == FSH_OK);
        if (want != FSH_OK)
            for (size_t i = 0; i < n; i++)
                CHECK(a32[i] == i); /* refused: untouched */
    }
}

/* The deck: the prefix dealt since the last shuffle, k cards asked for. */
static void test_deck(fsh_rng *rng, unsigned bits, int all)
{
    static const size_t sizes[] = {52, 60};
    for (size_t s = 0; s < 2; s++) {
        size_t n = sizes[s];
        size_t k0 = all ? n : (size_t)max_k(n - 1, n, bits);
        fsh_deck *d;
        uint32_t c[60];
        CHECK_EQ(fsh_deck_new(&d, n), FSH_OK);
        /* One card at a time. */
        size_t dealt = 0;
        while (fsh_deck_deal(rng, d, &c[0]) == FSH_OK)
            dealt++;
        CHECK_EQ(dealt, k0);
        CHECK_EQ(fsh_deck_remaining(d), n - k0);
        if (k0 < n) {
            uint32_t keep = 12345;
            c[0] = keep;
            CHECK_EQ(fsh_deck_deal(rng, d, &c[0]), FSH_EENTROPY);
            CHECK_EQ(c[0], keep);
            CHECK_EQ(fsh_deck_remaining(d), n - k0);
            /* Asking for zero cards produces nothing new. */
            CHECK_EQ(fsh_deck_deal_n(rng, d, c, 0), FSH_OK);
        }
        /* A shuffle starts a new prefix; deal_n in one call. */
        CHECK_EQ(fsh_deck_reset(d), FSH_OK);
        if (k0 < n) {
            CHECK_EQ(fsh_deck_deal_n(rng, d, c, k0 + 1), FSH_EENTROPY);
            CHECK_EQ(fsh_deck_remaining(d), n);
        }
        CHECK_EQ(fsh_deck_deal_n(rng, d, c, k0), FSH_OK);
        CHECK_EQ(fsh_deck_remaining(d), n - k0);
        fsh_deck_free(d);
    }
}

/* fsh_sample_range and fsh_rangeperm_next: k of n in order. */
static void test_ordered_samples(fsh_rng *rng, unsigned bits, int all)
{
    static const uint64_t lasts[] = {9, 999, UINT64_C(0xffffffff),
                                     UINT64_MAX - 1, UINT64_MAX};
    static uint64_t out[64];
    for (size_t r = 0; r < sizeof lasts / sizeof lasts[0]; r++) {
        uint64_t last = lasts[r];
        uint64_t kmax = last < 60 ? last + 1 : 60;
        uint64_t k0 = all ? kmax : max_k(last, kmax, bits);
        uint64_t lo = last > UINT64_MAX - 7 ? 0 : 7;
        uint64_t hi = lo + last;
        CHECK_EQ(fsh_sample_range(rng, out, (size_t)k0, lo, hi), FSH_OK);
        if (k0 < kmax) {
            memset(out, 0, sizeof out);
            CHECK_EQ(fsh_sample_range(rng, out, (size_t)k0 + 1, lo, hi),
                     FSH_EENTROPY);
            int zero = 1;
            for (size_t i = 0; i < 64; i++)
                zero &= out[i] == 0;
            CHECK(zero);
        }
        /* The permutation draws k0 values, then refuses (nothing drawn),
           until simulation grade is switched on. */
        fsh_rangeperm *p;
        CHECK_EQ(fsh_rangeperm_new(&p, 0, last, 0), FSH_OK);
        uint64_t drawn = 0, v;
        while (drawn < kmax && fsh_rangeperm_next(rng, p, &v) == FSH_OK)
            drawn++;
        CHECK_EQ(drawn, k0);
        CHECK_EQ(fsh_rangeperm_drawn(p), k0);
        if (k0 < kmax) {
            v = 4242;
            CHECK_EQ(fsh_rangeperm_next(rng, p, &v), FSH_EENTROPY);
            CHECK_EQ(v, 4242);
            CHECK_EQ(fsh_rangeperm_drawn(p), k0);
            CHECK_EQ(fsh_rng_set_simulation(rng, 1), FSH_OK);
            CHECK_EQ(fsh_rangeperm_next(rng, p, &v), FSH_OK);
            CHECK_EQ(fsh_rangeperm_drawn(p), k0 + 1);
            CHECK_EQ(fsh_rng_set_simulation(rng, 0), FSH_OK);
        }
        fsh_rangeperm_free(p);
    }
}

/* Algorithm R for item `seen` with k slots: C(seen + 1, k) <= 2^bits. */
static void test_reservoir(fsh_rng *rng, unsigned bits, int all)
{
    static const size_t ks[] = {1, 2, 3, 5, 20};
    for (size_t r = 0; r < sizeof ks / sizeof ks[0]; r++) {
        size_t k = ks[r], slot;
        /* Filling never draws and is always allowed. */
        for (uint64_t seen = 0; seen < k; seen++) {
            CHECK_EQ(fsh_reservoir_slot(rng, &slot, k, seen), FSH_OK);
            CHECK_EQ(slot, seen);
        }
        /* Largest N (<= 2^64) with C(N, k) <= 2^bits, by bisection. */
        uint64_t lo = k, hi = UINT64_MAX; /* N = lo is fine */
        if (all || binom_ok(UINT64_MAX, k, bits)) {
            lo = UINT64_MAX;
        } else {
            while (hi - lo > 1) {
                uint64_t mid = lo + (hi - lo) / 2;
                if (binom_ok(mid, k, bits))
                    lo = mid;
                else
                    hi = mid;
            }
        }
        /* seen = N - 1 is the item that makes N items. */
        CHECK_EQ(fsh_reservoir_slot(rng, &slot, k, lo - 1), FSH_OK);
        if (lo < UINT64_MAX) {
            slot = 777;
            CHECK_EQ(fsh_reservoir_slot(rng, &slot, k, lo), FSH_EENTROPY);
            CHECK_EQ(slot, 777);
        } else {
            CHECK_EQ(fsh_reservoir_slot(rng, &slot, k, UINT64_MAX), FSH_OK);
        }
    }
}

/* Words, bytes and single bounded integers are neither orders nor subsets:
   never refused for entropy. */
static void test_not_checked(fsh_rng *rng)
{
    uint64_t v;
    unsigned char b[100];
    CHECK_EQ(fsh_rng_u64(rng, &v), FSH_OK);
    CHECK_EQ(fsh_rng_bytes(rng, b, sizeof b), FSH_OK);
    CHECK_EQ(fsh_uniform(rng, &v, UINT64_MAX), FSH_OK);
    CHECK_EQ(fsh_uniform_range(rng, &v, 0, UINT64_MAX), FSH_OK);
}

static void run_all(fsh_rng *rng, unsigned bits, int all)
{
    test_shuffles(rng, bits, all);
    test_deck(rng, bits, all);
    test_ordered_samples(rng, bits, all);
    test_reservoir(rng, bits, all);
    test_not_checked(rng);
}

int main(void)
{
    fsh_rng *rng;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    /* The bignum itself: 52! is just above 2^225, 2^64 is not above 2^64. */
    CHECK(falling_ok(51, 52, 226) && !falling_ok(51, 52, 225));
    CHECK(falling_ok(UINT64_MAX, 1, 64) && !falling_ok(UINT64_MAX, 1, 63));
    CHECK(binom_ok(UINT64_MAX, 1, 64) && binom_ok(1u << 16, 2, 31) &&
          !binom_ok((1u << 16) + 1, 2, 31));
    for (size_t s = 0; s < sizeof seed_lens / sizeof seed_lens[0]; s++) {
        unsigned bits = 8 * (unsigned)seed_lens[s];
        check_seed = bits;
        seed_rng(rng, seed_lens[s]);
        CHECK_EQ(fsh_rng_entropy_bits(rng), bits);
        run_all(rng, bits, 0);
        /* Simulation grade accepts everything, and so does xoshiro. */
        CHECK_EQ(fsh_rng_set_simulation(rng, 1), FSH_OK);
        run_all(rng, bits, 1);
        CHECK_EQ(fsh_rng_key_xoshiro(rng, bits), FSH_OK);
        CHECK_EQ(fsh_rng_set_simulation(rng, 0), FSH_OK);
        run_all(rng, bits, 1);
    }
    /* The cases: all 52 of 52 under a 3-byte seed is refused by
       fsh_sample_range as by fsh_permutation; a 32-byte seed does 57
       cards, not 58, in either. */
    check_seed = 3;
    static uint64_t o[64];
    seed_rng(rng, 3);
    CHECK_EQ(fsh_sample_range(rng, o, 52, 0, 51), FSH_EENTROPY);
    CHECK_EQ(fsh_permutation(rng, o, 0, 51), FSH_EENTROPY);
    seed_rng(rng, 32);
    CHECK_EQ(fsh_sample_range(rng, o, 57, 0, 56), FSH_OK);
    CHECK_EQ(fsh_permutation(rng, o, 0, 56), FSH_OK);
    CHECK_EQ(fsh_sample_range(rng, o, 58, 0, 57), FSH_EENTROPY);
    CHECK_EQ(fsh_permutation(rng, o, 0, 57), FSH_EENTROPY);
    CHECK_EQ(fsh_rng_max_fair_n(rng), 57);
    /* A raw 256-bit key likewise. */
    static const uint8_t key[32] = {1};
    CHECK_EQ(fsh_rng_key_chacha(rng, 20, key, 0, 0), FSH_OK);
    CHECK_EQ(fsh_permutation(rng, o, 0, 56), FSH_OK);
    CHECK_EQ(fsh_permutation(rng, o, 0, 57), FSH_EENTROPY);
    /* OS-keyed with a hardware source: everything here, mixed in. Without
       one, the default refuses beyond 256 bits (test_reach_hw.c fakes
       both cases). */
    check_seed = 256;
    CHECK_EQ(fsh_rng_rekey(rng), FSH_OK);
    if (fsh_hw_entropy_available())
        run_all(rng, 256, 1);
    else
        fprintf(stderr, "test_reach: no hardware entropy source: OS case "
                        "left to test_reach_hw\n");
    fsh_rng_free(rng);
    return check_done("test_reach");
}
