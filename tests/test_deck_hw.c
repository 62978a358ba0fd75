/* SPDX-License-Identifier: MIT */
/* A large mixing deal (an OS-keyed ChaCha with the hardware cap lifted, as
 * fairshuf deal makes it) draws its hardware words a piece at a time, not
 * all before the first card, and deals exactly what drawing them first
 * dealt: the same cards, the rng left in the same state, the same
 * hardware words in the same order. The rng's key is set here (white-box)
 * and the hardware source is a scripted fake (rng/hwrand.h's hook), so
 * every run is reproducible. Each case deals a shoe in one call (thousands
 * of reseeds) and again in calls of 7 cards (at most one reseed a call,
 * which never needed a second piece): cards, next word, hardware bits and
 * words must agree; and against a golden: the one-call deal's FNV-1a hash
 * and next word, from the code that drew every word first. A source that
 * fails part-way, past the first piece, gives what it gave when all words
 * were drawn first: refused whole with nothing changed (strict policy),
 * or the deal unmixed, bounded by the key (FULL | KEY). */
#include "check.h"
#include "fairshuf.h"
#include "fake_hw.h"

#include <stdlib.h>
#include <string.h>

/* The fake hardware source (fake_hw.h), restarted for each run. */
static fake_hw hw;

/* A fresh fake, failing past limit words. */
static void fake_reset(uint64_t limit)
{
    fake_hw_init(&hw, 12345);
    hw.limit = limit;
}

/* ------------------------------------------------------------------------ */

static uint64_t fnv(const uint32_t *a, size_t n)
{
    uint64_t h = UINT64_C(0xCBF29CE484222325);
    for (size_t i = 0; i < n; i++)
        h = (h ^ a[i]) * UINT64_C(0x100000001B3);
    return h;
}

/* What a deal left: its hardware words, bits and the rng's next word. */
typedef struct after {
    int rc;
    size_t remaining;
    uint64_t hw_words, hw_hash, hw_bits, next;
    size_t most;
} after;

static void read_after(after *a, int rc, fsh_rng *rng, const fsh_deck *deck)
{
    a->rc = rc;
    a->remaining = fsh_deck_remaining(deck);
    a->hw_words = hw.words;
    a->hw_hash = hw.hash;
    a->most = hw.most;
    a->hw_bits = 0;
    a->next = 0;
    if (fsh_rng_entropy_drawn(rng, NULL, &a->hw_bits) != FSH_OK ||
        fsh_rng_u64(rng, &a->next) != FSH_OK)
        a->next = 0;
}

enum how { ONE_CALL, BY_7, HANDS, BURN };

/* Deal `deal` cards of a shoe of `decks` decks after `pre` cards dealt in
   one call, as `how` says, into out (deal order); the fake fails past
   limit words. */
static void run(after *a, uint32_t *out, unsigned decks, size_t pre,
                size_t deal, enum how how, unsigned reach, uint64_t limit)
{
    fsh_rng *rng = fake_hw_rng(reach);
    fsh_cardset *set = NULL;
    fsh_deck *deck = NULL;
    memset(a, 0, sizeof *a);
    a->rc = -100;
    if (rng == NULL || fsh_cardset_standard(&set, decks, 0) != FSH_OK ||
        fsh_deck_new_set(&deck, set) != FSH_OK) {
        CHECK(0 && "setup");
        goto out;
    }
    fake_reset(UINT64_MAX);
    if (pre > 0 && fsh_deck_deal_n(rng, deck, out, pre) != FSH_OK) {
        CHECK(0 && "the cards before");
        goto out;
    }
    hw.limit = limit == UINT64_MAX ? limit : hw.words + limit;
    int rc = FSH_OK;
    switch (how) {
    case ONE_CALL:
        rc = fsh_deck_deal_n(rng, deck, out, deal);
        break;
    case BY_7:
        for (size_t i = 0; i < deal && rc == FSH_OK; i += 7)
            rc = fsh_deck_deal_n(rng, deck, out + i,
                                 deal - i < 7 ? deal - i : 7);
        break;
    case HANDS: /* 4 players, blocks: deal order = layout order */
        rc = fsh_deck_deal_hands(rng, deck, out, 4, deal / 4,
                                 FSH_DEAL_BLOCKS);
        break;
    case BURN: /* then the next 7 cards, which tell where it left off */
        rc = fsh_deck_burn(rng, deck, deal);
        if (rc == FSH_OK)
            rc = fsh_deck_deal_n(rng, deck, out, 7);
        break;
    }
    read_after(a, rc, rng, deck);
out:
    fsh_deck_free(deck);
    fsh_cardset_free(set);
    fsh_rng_free(rng);
}

#define MAXD 110000

/* Golden: the one-call deal's hardware words, FNV-1a hash of its cards
   and the rng's next word, printed by this test run on the code that drew
   all of a call's hardware words first (before session 18). */
static const struct {
    unsigned decks;
    size_t pre, deal;
    uint64_t words; /* hardware words: 4 a reseed */
    uint64_t hash, next;
} cases[] = {
    {2000, 0, 104000, 25544, UINT64_C(0x060b15da50e3521d),
     UINT64_C(0x699d13e9c87aae50)},
    {2000, 3, 99997, 24872, UINT64_C(0x6134d341187aa735),
     UINT64_C(0x4751b97501317883)},
    {100, 1000, 4200, 904, UINT64_C(0xa8d8b9a3a8b087f4),
     UINT64_C(0xd1cdec8c55ecb04e)},
    {20, 0, 1040, 140, UINT64_C(0xef0fbf2c1f893a81),
     UINT64_C(0x3fcc46a8fb647a10)}, /* one piece */
};

static void test_pieces(uint32_t *a, uint32_t *b)
{
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        check_seed = t;
        after one, by7;
        size_t n = cases[t].deal;
        unsigned reach = FSH_REACH_FULL;
        run(&one, a, cases[t].decks, cases[t].pre, n, ONE_CALL, reach,
            UINT64_MAX);
        run(&by7, b, cases[t].decks, cases[t].pre, n, BY_7, reach,
            UINT64_MAX);
        CHECK_EQ(one.rc, FSH_OK);
        CHECK_EQ(by7.rc, FSH_OK);
        CHECK(memcmp(a, b, n * sizeof *a) == 0);
        CHECK_EQ(one.next, by7.next);
        CHECK_EQ(one.hw_words, by7.hw_words);
        CHECK_EQ(one.hw_hash, by7.hw_hash);
        CHECK_EQ(one.hw_bits, by7.hw_bits);
        CHECK_EQ(one.hw_words, cases[t].words);
        /* At most one piece (64 reseeds, 256 words) held at a time. */
        CHECK(one.most <= 256);
        CHECK_EQ(fnv(a, n), cases[t].hash);
        CHECK_EQ(one.next, cases[t].next);
        /* Hands (blocks: in deal order) and a burn: the same draws. */
        if (n % 4 == 0) {
            after h;
            run(&h, b, cases[t].decks, cases[t].pre, n, HANDS, reach,
                UINT64_MAX);
            CHECK_EQ(h.rc, FSH_OK);
            CHECK(memcmp(a, b, n * sizeof *a) == 0);
            CHECK_EQ(h.next, one.next);
            CHECK_EQ(h.hw_hash, one.hw_hash);
        }
        after bu;
        run(&bu, b, cases[t].decks, cases[t].pre, n - 7, BURN, reach,
            UINT64_MAX);
        CHECK_EQ(bu.rc, FSH_OK);
        CHECK(memcmp(a + n - 7, b, 7 * sizeof *a) == 0);
        CHECK_EQ(bu.next, one.next);
        CHECK_EQ(bu.hw_hash, one.hw_hash);
    }
}

/* The source fails past `limit` words, beyond the first piece: strict
   (FULL), the call is refused and changes nothing (the rng's next word
   and the next deal are those of a deck that dealt nothing); FULL | KEY,
   the call deals unmixed, as when the source fails at once. */
static void test_failing(uint32_t *a, uint32_t *b)
{
    static const uint64_t limits[] = {256, 257, 1000, 4000};
    const unsigned decks = 2000;
    const size_t n = 52000;
    for (size_t t = 0; t < sizeof limits / sizeof limits[0]; t++) {
        check_seed = 100 + t;
        after f, none;
        /* Strict: refused; against no deal at all (0 cards). */
        run(&f, a, decks, 0, n, ONE_CALL, FSH_REACH_FULL, limits[t]);
        run(&none, b, decks, 0, 0, ONE_CALL, FSH_REACH_FULL, UINT64_MAX);
        CHECK_EQ(f.rc, FSH_ENOHWRAND);
        CHECK_EQ(f.remaining, (size_t)52 * decks);
        CHECK_EQ(f.hw_bits, 0);
        CHECK_EQ(f.next, none.next);
        /* FULL | KEY: unmixed, as with a source that fails at once. */
        run(&f, a, decks, 0, n, ONE_CALL, FSH_REACH_FULL | FSH_REACH_KEY,
            limits[t]);
        run(&none, b, decks, 0, n, ONE_CALL, FSH_REACH_FULL | FSH_REACH_KEY,
            0);
        CHECK_EQ(f.rc, FSH_OK);
        CHECK_EQ(none.rc, FSH_OK);
        CHECK_EQ(f.hw_bits, 0);
        CHECK(memcmp(a, b, n * sizeof *a) == 0);
        CHECK_EQ(f.next, none.next);
    }
}

int main(void)
{
    fake_hw_on(&hw, 1);
    uint32_t *a = malloc(MAXD * sizeof *a), *b = malloc(MAXD * sizeof *b);
    if (a != NULL && b != NULL) {
        test_pieces(a, b);
        test_failing(a, b);
    } else {
        CHECK(0 && "malloc");
    }
    free(a);
    free(b);
    fake_hw_off();
    return check_done("test_deck_hw");
}
