/* SPDX-License-Identifier: MIT */
/* Reproducibility: golden outputs of the seeded generators, locked.
 *
 * gen/golden_seed.h is produced by tests/gen/gen_seed.c and checked byte for
 * byte by the independent tests/gen/crosscheck_seed.py (hashlib SHA-256 and
 * a ChaCha written from RFC 8439): see tests/gen/regen.sh. If this test fails
 * the seeded stream changed, which breaks every recorded seed: fix the code,
 * do not regenerate.
 *
 * Also: bits_used accounting, fsh_rng_bytes against fsh_rng_u64, and that
 * re-seeding wipes all state (the same seed gives the same words again).
 */
#include "check.h"
#include "common/common.h"

#include <string.h>

#include "gen/golden_seed.h"

static int same_words(fsh_rng *rng, const uint64_t *want, int n)
{
    int ok = 1;
    for (int i = 0; i < n; i++) {
        uint64_t w;
        ok &= fsh_rng_u64(rng, &w) == FSH_OK && w == want[i];
    }
    return ok;
}

static void test_golden(fsh_rng *rng)
{
    uint8_t seq32[32], long_seed[1000];
    for (int i = 0; i < 32; i++)
        seq32[i] = (uint8_t)i;
    for (int i = 0; i < 1000; i++)
        long_seed[i] = (uint8_t)(i * 131 + 7);
    const struct {
        const void *seed;
        size_t len;
        const uint64_t *want;
    } seeds[] = {{"", 0, golden_seed_empty},
                 {"a", 1, golden_seed_a},
                 {"fairshuf", 8, golden_seed_fairshuf},
                 {seq32, 32, golden_seed_0_31},
                 {long_seed, 1000, golden_seed_1000}};
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
        CHECK_EQ(fsh_rng_seed(rng, seeds[s].seed, seeds[s].len), FSH_OK);
        CHECK(same_words(rng, seeds[s].want, 8));
        /* fsh_rng_seed is fsh_rng_seed_gen with ChaCha20. */
        CHECK_EQ(fsh_rng_seed_gen(rng, FSH_GEN_CHACHA20, seeds[s].seed,
                                  seeds[s].len),
                 FSH_OK);
        CHECK(same_words(rng, seeds[s].want, 8));
    }
    /* Seeds that differ by a byte, or by length, differ. */
    CHECK_EQ(fsh_rng_seed(rng, "b", 1), FSH_OK);
    CHECK(!same_words(rng, golden_seed_a, 1));
    CHECK_EQ(fsh_rng_seed(rng, "a\0", 2), FSH_OK);
    CHECK(!same_words(rng, golden_seed_a, 1));

    const struct {
        fsh_gen gen;
        const uint64_t *want;
    } gens[] = {{FSH_GEN_CHACHA12, golden_gen_chacha12},
                {FSH_GEN_CHACHA8, golden_gen_chacha8},
                {FSH_GEN_XOSHIRO256PP, golden_gen_xoshiro}};
    for (size_t g = 0; g < sizeof gens / sizeof gens[0]; g++) {
        CHECK_EQ(fsh_rng_seed_gen(rng, gens[g].gen, "fairshuf", 8), FSH_OK);
        CHECK(same_words(rng, gens[g].want, 8));
    }

    /* Bounded draws. */
    static const uint64_t bounds[] = {52, 6, 2, 1000000007u,
                                      0x8000000000000001u, UINT64_MAX};
    CHECK_EQ(fsh_rng_seed(rng, GOLDEN_DEAL_SEED, 32), FSH_OK);
    int ok = 1;
    for (int b = 0; b < 6; b++)
        for (int k = 0; k < 4; k++) {
            uint64_t v;
            ok &= fsh_uniform(rng, &v, bounds[b]) == FSH_OK &&
                  v == golden_draws[4 * b + k];
        }
    CHECK(ok);

    /* The 52-card deal order and the 52-element shuffle. */
    fsh_deck *deck;
    uint32_t cards[52];
    CHECK_EQ(fsh_deck_new(&deck, 52), FSH_OK);
    CHECK_EQ(fsh_rng_seed(rng, GOLDEN_DEAL_SEED, 32), FSH_OK);
    CHECK_EQ(fsh_deck_deal_n(rng, deck, cards, 52), FSH_OK);
    CHECK(memcmp(cards, golden_deal, sizeof cards) == 0);
    /* Dealt one at a time: the same order. */
    CHECK_EQ(fsh_deck_reset(deck), FSH_OK);
    fsh_deck_free(deck);
    CHECK_EQ(fsh_deck_new(&deck, 52), FSH_OK);
    CHECK_EQ(fsh_rng_seed(rng, GOLDEN_DEAL_SEED, 32), FSH_OK);
    for (int i = 0; i < 52; i++)
        CHECK_EQ(fsh_deck_deal(rng, deck, &cards[i]), FSH_OK);
    CHECK(memcmp(cards, golden_deal, sizeof cards) == 0);
    fsh_deck_free(deck);

    CHECK_EQ(fsh_rng_seed(rng, GOLDEN_DEAL_SEED, 32), FSH_OK);
    for (uint32_t i = 0; i < 52; i++)
        cards[i] = i;
    CHECK_EQ(fsh_shuffle_u32(rng, cards, 52), FSH_OK);
    CHECK(memcmp(cards, golden_shuffle, sizeof cards) == 0);
    /* Every element size and the permutation take the same draws: all give
       the same order (the deal order is the shuffle read backwards). */
    uint64_t c64[52], perm[52];
    unsigned char c3[52 * 3];
    for (uint32_t i = 0; i < 52; i++) {
        c64[i] = i;
        c3[3 * i] = (unsigned char)i, c3[3 * i + 1] = 0, c3[3 * i + 2] = 0;
        CHECK_EQ(golden_deal[i], golden_shuffle[51 - i]);
    }
    CHECK_EQ(fsh_rng_seed(rng, GOLDEN_DEAL_SEED, 32), FSH_OK);
    CHECK_EQ(fsh_shuffle_u64(rng, c64, 52), FSH_OK);
    CHECK_EQ(fsh_rng_seed(rng, GOLDEN_DEAL_SEED, 32), FSH_OK);
    CHECK_EQ(fsh_shuffle(rng, c3, 52, 3), FSH_OK);
    ok = 1;
    for (int i = 0; i < 52; i++)
        ok &= c64[i] == golden_shuffle[i] && c3[3 * i] == golden_shuffle[i];
    CHECK(ok);
    CHECK_EQ(fsh_rng_seed(rng, GOLDEN_DEAL_SEED, 32), FSH_OK);
    CHECK_EQ(fsh_permutation(rng, perm, 0, 51), FSH_OK); /* stays valid */
}

static void test_bits_and_bytes(fsh_rng *rng)
{
    fsh_rng *twin;
    CHECK_EQ(fsh_rng_new(&twin), FSH_OK);
    CHECK_EQ(fsh_rng_seed(rng, "bits", 4), FSH_OK);
    CHECK_EQ(fsh_rng_bits_used(rng), 0);
    uint64_t w;
    for (int i = 1; i <= 300; i++) { /* across buffer refills */
        CHECK_EQ(fsh_rng_u64(rng, &w), FSH_OK);
        if (fsh_rng_bits_used(rng) != 64u * (unsigned)i) {
            CHECK(0);
            break;
        }
    }
    /* Bytes: whole words, little-endian; a partial word is consumed whole. */
    CHECK_EQ(fsh_rng_seed(rng, "bytes", 5), FSH_OK);
    CHECK_EQ(fsh_rng_seed(twin, "bytes", 5), FSH_OK);
    uint8_t buf[40];
    CHECK_EQ(fsh_rng_bytes(rng, buf, 40), FSH_OK);
    CHECK_EQ(fsh_rng_bits_used(rng), 320);
    int ok = 1;
    for (int i = 0; i < 5; i++) {
        CHECK_EQ(fsh_rng_u64(twin, &w), FSH_OK);
        for (int b = 0; b < 8; b++)
            ok &= buf[8 * i + b] == (uint8_t)(w >> (8 * b));
    }
    CHECK(ok);
    CHECK_EQ(fsh_rng_bytes(rng, buf, 13), FSH_OK);
    CHECK_EQ(fsh_rng_bits_used(rng), 320 + 128);
    uint64_t w1, w2, w3;
    CHECK_EQ(fsh_rng_u64(twin, &w1), FSH_OK);
    CHECK_EQ(fsh_rng_u64(twin, &w2), FSH_OK);
    CHECK_EQ(fsh_rng_u64(twin, &w3), FSH_OK);
    ok = 1;
    for (int b = 0; b < 8; b++)
        ok &= buf[b] == (uint8_t)(w1 >> (8 * b));
    for (int b = 0; b < 5; b++)
        ok &= buf[8 + b] == (uint8_t)(w2 >> (8 * b));
    CHECK(ok);
    CHECK_EQ(fsh_rng_u64(rng, &w), FSH_OK);
    CHECK(w == w3);
    CHECK_EQ(fsh_rng_bytes(rng, buf, 0), FSH_OK);
    CHECK_EQ(fsh_rng_bits_used(rng), 320 + 128 + 64);

    /* A shuffle of 52 draws its 51 indices in four batches of 10, 11, 12
       and 18 dice (products under 2^60), where a twin replaying those
       bounds with fsh_uniform (one word per draw) consumes 51 words. */
    uint32_t a[52];
    for (uint32_t i = 0; i < 52; i++)
        a[i] = i;
    CHECK_EQ(fsh_rng_seed(rng, GOLDEN_DEAL_SEED, 32), FSH_OK);
    CHECK_EQ(fsh_rng_seed(twin, GOLDEN_DEAL_SEED, 32), FSH_OK);
    CHECK_EQ(fsh_shuffle_u32(rng, a, 52), FSH_OK);
    for (uint64_t i = 51; i > 0; i--)
        CHECK_EQ(fsh_uniform(twin, &w, i + 1), FSH_OK);
    CHECK_EQ(fsh_rng_bits_used(twin), 51 * 64);
    /* No batch of this seed is rejected (checked by the Python replay). */
    CHECK_EQ(fsh_rng_bits_used(rng), 4 * 64);
    printf("  bits used by one 52-card shuffle: %llu (log2 52! = 225.6)\n",
           (unsigned long long)fsh_rng_bits_used(rng));
    fsh_rng_free(twin);
}

static void test_reinit(fsh_rng *rng)
{
    uint64_t w;
    /* Re-seeding wipes everything: buffered words, counters, accounting. */
    CHECK_EQ(fsh_rng_seed(rng, "fairshuf", 8), FSH_OK);
    for (int i = 0; i < 77; i++)
        CHECK_EQ(fsh_rng_u64(rng, &w), FSH_OK);
    CHECK_EQ(fsh_rng_seed(rng, "fairshuf", 8), FSH_OK);
    CHECK_EQ(fsh_rng_bits_used(rng), 0);
    CHECK(same_words(rng, golden_seed_fairshuf, 8));
    /* From every other kind of source back to the seed. */
    CHECK_EQ(fsh_rng_rekey(rng), FSH_OK);
    CHECK_EQ(fsh_rng_u64(rng, &w), FSH_OK);
    CHECK_EQ(fsh_rng_seed(rng, "fairshuf", 8), FSH_OK);
    CHECK(same_words(rng, golden_seed_fairshuf, 8));
    CHECK_EQ(fsh_rng_key_xoshiro(rng, 5), FSH_OK);
    CHECK_EQ(fsh_rng_u64(rng, &w), FSH_OK);
    CHECK_EQ(fsh_rng_seed(rng, "fairshuf", 8), FSH_OK);
    CHECK(same_words(rng, golden_seed_fairshuf, 8));
    CHECK_EQ(fsh_rng_seed_gen(rng, FSH_GEN_CHACHA8, "fairshuf", 8), FSH_OK);
    CHECK_EQ(fsh_rng_u64(rng, &w), FSH_OK);
    CHECK_EQ(fsh_rng_seed(rng, "fairshuf", 8), FSH_OK);
    CHECK(same_words(rng, golden_seed_fairshuf, 8));
    /* A second rng with the same seed gives the same stream. */
    fsh_rng *other;
    CHECK_EQ(fsh_rng_new(&other), FSH_OK);
    CHECK_EQ(fsh_rng_seed(other, "fairshuf", 8), FSH_OK);
    CHECK(same_words(other, golden_seed_fairshuf, 8));
    fsh_rng_free(other);
    /* Two OS-keyed rngs differ. */
    fsh_rng *x, *y;
    uint64_t wx, wy;
    CHECK_EQ(fsh_rng_new(&x), FSH_OK);
    CHECK_EQ(fsh_rng_new(&y), FSH_OK);
    CHECK_EQ(fsh_rng_u64(x, &wx), FSH_OK);
    CHECK_EQ(fsh_rng_u64(y, &wy), FSH_OK);
    CHECK(wx != wy);
    fsh_rng_free(x);
    fsh_rng_free(y);
}

int main(void)
{
    fsh_rng *rng;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    test_golden(rng);
    test_bits_and_bytes(rng);
    test_reinit(rng);
    fsh_rng_free(rng);
    return check_done("test_seed");
}
