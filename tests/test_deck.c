/* SPDX-License-Identifier: MIT */
/* Cards and decks: encoding, names in both notations, the parser, and the
 * O(1) deck's properties. */
#include "check.h"
#include "common/common.h"
#include "deck/deck.h"

#include <string.h>

static void test_encoding(void)
{
    uint32_t c;
    for (int suit = 0; suit < 4; suit++)
        for (int rank = 2; rank <= 14; rank++) {
            CHECK_EQ(fsh_card_make(&c, rank, suit), FSH_OK);
            CHECK_EQ(c, (uint32_t)(suit * 13 + rank - 2));
            CHECK_EQ(fsh_card_rank(c), rank);
            CHECK_EQ(fsh_card_suit(c), suit);
        }
    static const int bad[][2] = {{1, 0}, {15, 0}, {2, -1}, {2, 4}, {0, 0}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_EQ(fsh_card_make(&c, bad[i][0], bad[i][1]), FSH_EINVAL);
    CHECK_EQ(fsh_card_make(NULL, 2, 0), FSH_EINVAL);
    CHECK_EQ(fsh_card_rank(52), FSH_EINVAL);
    CHECK_EQ(fsh_card_suit(52), FSH_EINVAL);
    CHECK_EQ(fsh_card_rank(UINT32_MAX), FSH_EINVAL);
}

static void test_names(void)
{
    /* Every card in both notations, built independently here. */
    static const char *ranks_u[13] = {"2", "3", "4",  "5", "6", "7", "8",
                                      "9", "10", "J", "Q", "K", "A"};
    static const char ranks_p[] = "23456789TJQKA";
    static const char *suits_u[4] = {"\xE2\x99\xA3", "\xE2\x99\xA6",
                                     "\xE2\x99\xA5", "\xE2\x99\xA0"};
    static const char suits_p[] = "cdhs";
    for (uint32_t c = 0; c < 52; c++) {
        char want[16], buf[16];
        uint32_t back;
        snprintf(want, sizeof want, "%s%s", ranks_u[c % 13], suits_u[c / 13]);
        CHECK_EQ(fsh_card_name(buf, sizeof buf, c, FSH_CARD_UNICODE), FSH_OK);
        CHECK(strcmp(buf, want) == 0);
        CHECK_EQ(fsh_card_parse(&back, buf), FSH_OK);
        CHECK_EQ(back, c);
        snprintf(want, sizeof want, "%c%c", ranks_p[c % 13], suits_p[c / 13]);
        CHECK_EQ(fsh_card_name(buf, sizeof buf, c, FSH_CARD_POKER), FSH_OK);
        CHECK(strcmp(buf, want) == 0);
        CHECK_EQ(fsh_card_parse(&back, buf), FSH_OK);
        CHECK_EQ(back, c);
        /* 8 bytes always suffice; a buffer one byte short is refused. */
        size_t need = strlen(want) + 1;
        CHECK_EQ(fsh_card_name(buf, need, c, FSH_CARD_POKER), FSH_OK);
        CHECK_EQ(fsh_card_name(buf, need - 1, c, FSH_CARD_POKER), FSH_EINVAL);
        CHECK_EQ(fsh_card_name(buf, 8, c, FSH_CARD_UNICODE), FSH_OK);
    }
    char buf[16];
    CHECK_EQ(fsh_card_name(buf, sizeof buf, 8, FSH_CARD_UNICODE), FSH_OK);
    CHECK(strcmp(buf, "10\xE2\x99\xA3") == 0);
    CHECK_EQ(fsh_card_name(buf, sizeof buf, 51, FSH_CARD_POKER), FSH_OK);
    CHECK(strcmp(buf, "As") == 0);
    CHECK_EQ(fsh_card_name(buf, sizeof buf, 52, FSH_CARD_POKER), FSH_EINVAL);
    CHECK_EQ(fsh_card_name(buf, sizeof buf, 0, 2), FSH_EINVAL);
    CHECK_EQ(fsh_card_name(NULL, 8, 0, FSH_CARD_POKER), FSH_EINVAL);
    CHECK_EQ(fsh_card_name(buf, 0, 0, FSH_CARD_POKER), FSH_EINVAL);
}

static void test_parse_rejects(void)
{
    static const char *bad[] = {
        "",                      /* empty */
        "A",                     /* rank only */
        "s",                     /* suit only */
        "10s",                   /* mixed: Unicode rank, poker suit */
        "T\xE2\x99\xA0",         /* mixed: poker rank, Unicode suit */
        "as",                    /* lowercase rank */
        "tH",                    /* lowercase rank, uppercase suit */
        "AS",                    /* uppercase suit letter */
        "Ass",                   /* trailing byte */
        "As ",                   /* trailing space */
        " As",                   /* leading space */
        "A\xE2\x99\xA0x",        /* trailing byte after a Unicode suit */
        "A\xE2\x99",             /* truncated UTF-8 */
        "1\xE2\x99\xA0",         /* 1 is not a rank */
        "11\xE2\x99\xA0",        /* neither is 11 */
        "0s",                    /* nor 0 */
        "1s",
        "Xs",                    /* unknown rank letter */
        "Ax",                    /* unknown suit letter */
        "10",                    /* no suit */
        "\xE2\x99\xA0",          /* suit only, Unicode */
        "A\xE2\x99\xA4",         /* U+2664 white spade is not a suit here */
        "100\xE2\x99\xA0",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint32_t c = 12345;
        int rc = fsh_card_parse(&c, bad[i]);
        CHECK_EQ(rc, FSH_EINVAL);
        if (rc != FSH_EINVAL)
            fprintf(stderr, "  accepted bad name #%zu\n", i);
    }
    uint32_t c;
    CHECK_EQ(fsh_card_parse(&c, NULL), FSH_EINVAL);
    CHECK_EQ(fsh_card_parse(NULL, "As"), FSH_EINVAL);
}

static int is_perm(const uint32_t *a, size_t n)
{
    unsigned char seen[64] = {0};
    for (size_t i = 0; i < n; i++) {
        if (a[i] >= n || seen[a[i]])
            return 0;
        seen[a[i]] = 1;
    }
    return 1;
}

static void test_deck(void)
{
    fsh_rng *rng;
    fsh_deck *d;
    uint32_t out[52], card;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    CHECK_EQ(fsh_rng_seed(rng, "test_deck: a 32-byte seed string", 32), FSH_OK);
    CHECK_EQ(fsh_deck_new(&d, 52), FSH_OK);
    CHECK_EQ(fsh_deck_size(d), 52);
    CHECK_EQ(fsh_deck_remaining(d), 52);

    /* Deal k, then the rest: together a permutation of the deck. */
    static const size_t ks[] = {0, 1, 2, 5, 26, 51, 52};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        size_t k = ks[i];
        CHECK_EQ(fsh_deck_reset(d), FSH_OK);
        CHECK_EQ(fsh_deck_remaining(d), 52);
        CHECK_EQ(fsh_deck_deal_n(rng, d, out, k), FSH_OK);
        CHECK_EQ(fsh_deck_remaining(d), 52 - k);
        CHECK_EQ(fsh_deck_deal_n(rng, d, out + k, 52 - k), FSH_OK);
        CHECK_EQ(fsh_deck_remaining(d), 0);
        CHECK(is_perm(out, 52));
        /* Empty: single and multiple deals fail, deal 0 is fine. */
        CHECK_EQ(fsh_deck_deal(rng, d, &card), FSH_EEMPTY);
        CHECK_EQ(fsh_deck_deal_n(rng, d, out, 1), FSH_EEMPTY);
        CHECK_EQ(fsh_deck_deal_n(rng, d, out, 0), FSH_OK);
    }

    /* O(1) shuffle mid-deal resets remaining; the next 52 are all cards. */
    CHECK_EQ(fsh_deck_reset(d), FSH_OK);
    CHECK_EQ(fsh_deck_deal_n(rng, d, out, 10), FSH_OK);
    CHECK_EQ(fsh_deck_reset(d), FSH_OK);
    CHECK_EQ(fsh_deck_remaining(d), 52);
    for (int i = 0; i < 52; i++)
        CHECK_EQ(fsh_deck_deal(rng, d, &out[i]), FSH_OK);
    CHECK(is_perm(out, 52));

    /* deal_n with k > remaining deals nothing. */
    CHECK_EQ(fsh_deck_reset(d), FSH_OK);
    CHECK_EQ(fsh_deck_deal_n(rng, d, out, 50), FSH_OK);
    uint32_t sentinel[3] = {777, 777, 777};
    CHECK_EQ(fsh_deck_deal_n(rng, d, sentinel, 3), FSH_EEMPTY);
    CHECK_EQ(fsh_deck_remaining(d), 2);
    CHECK(sentinel[0] == 777 && sentinel[1] == 777 && sentinel[2] == 777);
    CHECK_EQ(fsh_deck_deal_n(rng, d, out + 50, 2), FSH_OK);
    CHECK(is_perm(out, 52));

    /* Same seed, same deal order. */
    uint32_t again[52];
    CHECK_EQ(fsh_rng_seed(rng, "test_deck: a 32-byte seed string", 32), FSH_OK);
    fsh_deck *d2;
    CHECK_EQ(fsh_deck_new(&d2, 52), FSH_OK);
    CHECK_EQ(fsh_deck_deal_n(rng, d2, again, 52), FSH_OK);
    fsh_deck *d3;
    CHECK_EQ(fsh_rng_seed(rng, "test_deck: a 32-byte seed string", 32), FSH_OK);
    CHECK_EQ(fsh_deck_new(&d3, 52), FSH_OK);
    CHECK_EQ(fsh_deck_deal_n(rng, d3, out, 52), FSH_OK);
    CHECK(memcmp(out, again, sizeof out) == 0);
    fsh_deck_free(d2);
    fsh_deck_free(d3);

    /* Custom decks (a shoe): the multiset is preserved. */
    uint32_t shoe[104];
    for (uint32_t i = 0; i < 104; i++)
        shoe[i] = i % 52;
    fsh_deck *s;
    CHECK_EQ(fsh_deck_new_from(&s, shoe, 104), FSH_OK);
    CHECK_EQ(fsh_deck_size(s), 104);
    uint32_t dealt[104], hist[52] = {0};
    /* A 32-byte seed reaches 57 cards: the shoe is refused whole, then
       dealt once the caller opts into simulation grade. */
    CHECK_EQ(fsh_deck_deal_n(rng, s, dealt, 104), FSH_EENTROPY);
    CHECK_EQ(fsh_deck_remaining(s), 104);
    CHECK_EQ(fsh_rng_set_simulation(rng, 1), FSH_OK);
    CHECK_EQ(fsh_deck_deal_n(rng, s, dealt, 104), FSH_OK);
    CHECK_EQ(fsh_rng_set_simulation(rng, 0), FSH_OK);
    for (int i = 0; i < 104; i++)
        hist[dealt[i] % 52] += dealt[i] < 52;
    int ok = 1;
    for (int i = 0; i < 52; i++)
        ok &= hist[i] == 2;
    CHECK(ok);
    fsh_deck_free(s);

    /* Argument checks. */
    fsh_deck *none = (fsh_deck *)&card; /* must be reset to NULL */
    CHECK_EQ(fsh_deck_new(&none, 0), FSH_EINVAL);
    CHECK(none == NULL);
    CHECK_EQ(fsh_deck_new(NULL, 52), FSH_EINVAL);
#if SIZE_MAX > UINT32_MAX
    CHECK_EQ(fsh_deck_new(&none, (size_t)UINT32_MAX + 1), FSH_EINVAL);
#endif
    /* Every constructor error sets *out to NULL (fsh_deck_new(3)), each
       one from a non-NULL start. */
    none = (fsh_deck *)&card;
    CHECK_EQ(fsh_deck_new_from(&none, NULL, 3), FSH_EINVAL);
    CHECK(none == NULL);
    none = (fsh_deck *)&card;
    CHECK_EQ(fsh_deck_new_from(&none, shoe, 0), FSH_EINVAL);
    CHECK(none == NULL);
#if SIZE_MAX > UINT32_MAX
    none = (fsh_deck *)&card;
    CHECK_EQ(fsh_deck_new(&none, (size_t)UINT32_MAX + 1), FSH_EINVAL);
    CHECK(none == NULL);
    none = (fsh_deck *)&card;
    CHECK_EQ(fsh_deck_new_from(&none, shoe, (size_t)UINT32_MAX + 1),
             FSH_EINVAL);
    CHECK(none == NULL);
#endif
    CHECK_EQ(fsh_deck_new_from(NULL, shoe, 3), FSH_EINVAL);
    CHECK_EQ(fsh_deck_new_from(NULL, NULL, 3), FSH_EINVAL);
    CHECK_EQ(fsh_deck_reset(NULL), FSH_EINVAL);
    CHECK_EQ(fsh_deck_deal(NULL, d, &card), FSH_EINVAL);
    CHECK_EQ(fsh_deck_deal(rng, NULL, &card), FSH_EINVAL);
    CHECK_EQ(fsh_deck_deal(rng, d, NULL), FSH_EINVAL);
    CHECK_EQ(fsh_deck_deal_n(rng, d, NULL, 0), FSH_OK);
    CHECK_EQ(fsh_deck_remaining(NULL), 0);
    CHECK_EQ(fsh_deck_size(NULL), 0);
    fsh_deck_free(NULL);

    /* A one-card deck deals its card without randomness. */
    fsh_deck *one;
    CHECK_EQ(fsh_deck_new(&one, 1), FSH_OK);
    uint64_t bits = fsh_rng_bits_used(rng);
    CHECK_EQ(fsh_deck_deal(rng, one, &card), FSH_OK);
    CHECK_EQ(card, 0);
    CHECK(fsh_rng_bits_used(rng) == bits);
    CHECK_EQ(fsh_deck_deal(rng, one, &card), FSH_EEMPTY);
    fsh_deck_free(one);

    /* Entropy: an 8-byte seed cannot deal a whole 52-card deck (it reaches
       the first 11 cards' orders: 52*51*...*42 < 2^64 < 52*...*41; every
       boundary is in tests/test_reach.c), and can in simulation mode. */
    uint32_t all[52];
    CHECK_EQ(fsh_rng_seed(rng, "8 bytes!", 8), FSH_OK);
    CHECK_EQ(fsh_deck_reset(d), FSH_OK);
    CHECK_EQ(fsh_deck_deal_n(rng, d, all, 52), FSH_EENTROPY);
    CHECK_EQ(fsh_deck_remaining(d), 52);
    CHECK_EQ(fsh_deck_deal_n(rng, d, all, 12), FSH_EENTROPY);
    CHECK_EQ(fsh_deck_deal_n(rng, d, all, 11), FSH_OK);
    CHECK_EQ(fsh_deck_deal(rng, d, &card), FSH_EENTROPY);
    CHECK_EQ(fsh_rng_set_simulation(rng, 1), FSH_OK);
    CHECK_EQ(fsh_deck_deal(rng, d, &card), FSH_OK);
    CHECK_EQ(fsh_deck_deal_n(rng, d, all, 40), FSH_OK);
    CHECK_EQ(fsh_rng_set_simulation(rng, 0), FSH_OK);

    fsh_deck_free(d);
    fsh_rng_free(rng);
}

/* Pending dice drawn under another keying are dropped: the second card of
   a deck dealt by rng A then rng B (both seeded alike) is the one a re-key
   of A gives, not the one A's pending batch holds. */
static uint32_t second_card(int how)
{
    fsh_rng *a, *b;
    fsh_deck *d;
    uint32_t c;
    CHECK_EQ(fsh_rng_new(&a), FSH_OK);
    CHECK_EQ(fsh_rng_new(&b), FSH_OK);
    CHECK_EQ(fsh_rng_seed(a, "pending dice seed, 32 bytes long", 32), FSH_OK);
    CHECK_EQ(fsh_rng_seed(b, "pending dice seed, 32 bytes long", 32), FSH_OK);
    CHECK_EQ(fsh_deck_new(&d, 52), FSH_OK);
    CHECK_EQ(fsh_deck_deal(a, d, &c), FSH_OK);
    if (how == 1) /* re-key a with the same seed */
        CHECK_EQ(fsh_rng_seed(a, "pending dice seed, 32 bytes long", 32),
                 FSH_OK);
    CHECK_EQ(fsh_deck_deal(how == 2 ? b : a, d, &c), FSH_OK);
    fsh_deck_free(d);
    fsh_rng_free(a);
    fsh_rng_free(b);
    return c;
}

static void test_pending_dropped(void)
{
    uint32_t kept = second_card(0), rekeyed = second_card(1),
             other = second_card(2);
    CHECK(kept != rekeyed); /* true for this seed: the batches differ */
    CHECK_EQ(other, rekeyed);
}

/* fsh_deck_reset drops the dice drawn ahead: a deck reset after a partial
   deal, by the same rng and no re-key, deals exactly as a fresh deck does
   from the same rng state (the replay rule). The dice kept from the
   partial deal were drawn for 47, 46, ... remaining cards. */
static void test_reset_drops_pending(void)
{
    static const char seed[] = "reset drops dice, 32 bytes long.";
    fsh_rng *a, *b;
    fsh_deck *used, *fresh;
    uint32_t x[52], y[52];
    CHECK_EQ(fsh_rng_new_seeded(&a, seed, 32), FSH_OK);
    CHECK_EQ(fsh_rng_new_seeded(&b, seed, 32), FSH_OK);
    CHECK_EQ(fsh_deck_new(&used, 52), FSH_OK);
    CHECK_EQ(fsh_deck_new(&fresh, 52), FSH_OK);
    /* The same draws from a and b: both decks deal 5 of 52. */
    CHECK_EQ(fsh_deck_deal_n(a, used, x, 5), FSH_OK);
    CHECK_EQ(fsh_deck_deal_n(b, fresh, y, 5), FSH_OK);
    CHECK(memcmp(x, y, 5 * sizeof x[0]) == 0);
    CHECK_EQ(fsh_deck_reset(used), FSH_OK);
    fsh_deck_free(fresh);
    CHECK_EQ(fsh_deck_new(&fresh, 52), FSH_OK);
    uint64_t bits_a = fsh_rng_bits_used(a), bits_b = fsh_rng_bits_used(b);
    CHECK_EQ(bits_a, bits_b);
    CHECK_EQ(fsh_deck_deal_n(a, used, x, 52), FSH_OK);
    CHECK_EQ(fsh_deck_deal_n(b, fresh, y, 52), FSH_OK);
    CHECK(memcmp(x, y, sizeof x) == 0);
    CHECK(fsh_rng_bits_used(a) == fsh_rng_bits_used(b));
    fsh_deck_free(used);
    fsh_deck_free(fresh);
    fsh_rng_free(a);
    fsh_rng_free(b);
}

/* Nonzero words among a[0..n). */
static size_t nonzero64(const uint64_t *a, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += a[i] != 0;
    return k;
}

static size_t nonzero32(const uint32_t *a, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += a[i] != 0;
    return k;
}

/* fsh_deck_reset wipes what the dealt prefix leaves in the deck: the dice
   drawn ahead (the positions of the cards still to come: pend all zero,
   none pending) and the past dice in undo (where each dealt card came
   from), as the rekey path's drop does. The deck is white-box here
   (deck/deck.h). Before the reset both hold dice, or the checks after it
   would prove nothing. */
static void test_reset_wipes(void)
{
    fsh_rng *rng;
    fsh_deck *d;
    uint32_t x[5];
    CHECK_EQ(fsh_rng_new_seeded(&rng, "reset wipes the dice, 32 bytes..", 32),
             FSH_OK);
    CHECK_EQ(fsh_deck_new(&d, 52), FSH_OK);
    CHECK_EQ(fsh_deck_deal_n(rng, d, x, 5), FSH_OK);
    CHECK(d->pos < d->npend);
    CHECK(nonzero64(d->pend + d->pos, d->npend - d->pos) > 0);
    CHECK(nonzero32(d->undo + 47, 5) > 0);
    CHECK_EQ(fsh_deck_reset(d), FSH_OK);
    CHECK_EQ(nonzero64(d->pend, 64), 0);
    CHECK_EQ(d->pos, 0);
    CHECK_EQ(d->npend, 0);
    CHECK_EQ(nonzero32(d->undo, 52), 0);
    /* And it still deals all 52. */
    uint32_t all[52];
    CHECK_EQ(fsh_deck_deal_n(rng, d, all, 52), FSH_OK);
    CHECK(is_perm(all, 52));
    fsh_deck_free(d);
    fsh_rng_free(rng);
}

/* A randint callback answering out of range on call number bad_at. */
struct liar {
    uint64_t calls, bad_at;
};
static uint64_t liar_randint(void *ctx, uint64_t k)
{
    struct liar *l = ctx;
    uint64_t c = l->calls++;
    return c == l->bad_at ? k + 1 : 1 + (c * 7) % k;
}

/* The cards a fresh 10-card deck (after `pre` cards dealt by seeded rng
   s) deals next with seeded rng s2: 10 - pre cards into out. */
static void deal_rest(fsh_deck *d, uint32_t *out, size_t k)
{
    fsh_rng *s2;
    CHECK_EQ(fsh_rng_new_seeded(&s2, "the rest of the deck", 20), FSH_OK);
    CHECK_EQ(fsh_deck_deal_n(s2, d, out, k), FSH_OK);
    fsh_rng_free(s2);
}

/* A deal that fails in the middle (the callback answered out of range)
   deals nothing: the deck, its dealt prefix and out are as before, so the
   next deals are those of a deck that never saw the failed call. Each of
   fsh_deck_deal_n, fsh_deck_burn and fsh_deck_deal_hands, the failure at
   every draw. (They dealt the cards, wrote out and returned
   FSH_ECALLBACK, the bad draw taken as index 0.) */
static void test_failed_deal_deals_nothing(void)
{
    uint32_t want[10], got[10], out[8];
    fsh_deck *ref;
    CHECK_EQ(fsh_deck_new(&ref, 10), FSH_OK);
    deal_rest(ref, want, 10);
    fsh_deck_free(ref);
    for (int call = 0; call < 3; call++)
        for (uint64_t at = 0; at < 8; at++) {
            fsh_rng *ri;
            fsh_deck *d;
            struct liar l = {0, at};
            CHECK_EQ(fsh_rng_new(&ri), FSH_OK);
            CHECK_EQ(fsh_rng_from_randint(ri, liar_randint, &l), FSH_OK);
            CHECK_EQ(fsh_deck_new(&d, 10), FSH_OK);
            for (size_t i = 0; i < 8; i++)
                out[i] = 77;
            int rc = call == 0   ? fsh_deck_deal_n(ri, d, out, 8)
                     : call == 1 ? fsh_deck_burn(ri, d, 8)
                                 : fsh_deck_deal_hands(ri, d, out, 2, 4,
                                                       FSH_DEAL_ROUND_ROBIN);
            CHECK_EQ(rc, FSH_ECALLBACK);
            CHECK_EQ(fsh_deck_remaining(d), 10);
            for (size_t i = 0; i < 8; i++)
                CHECK_EQ(out[i], 77);
            /* The dice of the cards taken back are zeroed. */
            CHECK_EQ(nonzero32(d->undo, 10), 0);
            deal_rest(d, got, 10);
            CHECK(memcmp(got, want, sizeof want) == 0);
            fsh_deck_free(d);
            fsh_rng_free(ri);
        }
}

int main(void)
{
    test_failed_deal_deals_nothing();
    test_pending_dropped();
    test_reset_drops_pending();
    test_reset_wipes();
    test_encoding();
    test_names();
    test_parse_rejects();
    test_deck();
    return check_done("test_deck");
}
