/* SPDX-License-Identifier: MIT */
/* Card sets and dealing as a table does: names and parsing of every card of
 * standard sets (with jokers, several decks) and custom sets, the count of
 * distinct orders, the canonical order, burns, hands in both layouts, the
 * cut card, the replay rule, every bad argument; and enumeration proofs
 * (tests/walker.h: every sequence of draws, once) that shoe deals, burns
 * and hands give each distinct outcome exactly as often as they should,
 * each leaf dealing exactly the cards the spec's deal order says. */
#include "check.h"
#include "common/common.h"

#include <math.h>
#include <string.h>

#define MAXD 16
#include "walker.h"

/* ------------------------------------------------------------------------ */
/* Names                                                                    */

/* Every face of a standard set names and parses back in both notations;
   the jokers it has are RJ/BJ, the ones it lacks are unknown. */
static void check_standard_names(unsigned decks, unsigned jokers)
{
    fsh_cardset *s;
    CHECK_EQ(fsh_cardset_standard(&s, decks, jokers), FSH_OK);
    CHECK_EQ(fsh_cardset_faces(s), 52 + jokers);
    CHECK_EQ(fsh_cardset_copies(s), decks);
    CHECK_EQ(fsh_cardset_size(s), (52 + jokers) * decks);
    CHECK_EQ(fsh_cardset_jokers(s), (int)jokers);
    for (uint32_t c = 0; c < 52 + jokers; c++)
        for (int nt = 0; nt < 2; nt++) {
            char buf[32], want[8];
            uint32_t back = 999;
            CHECK_EQ(fsh_cardset_name(s, buf, sizeof buf, c, nt), FSH_OK);
            if (c < 52) {
                CHECK_EQ(fsh_card_name(want, sizeof want, c, nt), FSH_OK);
            } else {
                strcpy(want, c == 52 ? "RJ" : "BJ");
            }
            CHECK(strcmp(buf, want) == 0);
            CHECK_EQ(fsh_cardset_parse(s, &back, buf), FSH_OK);
            CHECK_EQ(back, c);
        }
    char buf[32];
    uint32_t c = 7;
    CHECK_EQ(fsh_cardset_name(s, buf, sizeof buf, 52 + jokers, 1), FSH_EINVAL);
    CHECK_EQ(fsh_cardset_name(s, buf, sizeof buf, UINT32_MAX, 0), FSH_EINVAL);
    CHECK_EQ(fsh_cardset_parse(s, &c, "RJ"), jokers >= 1 ? FSH_OK : FSH_EINVAL);
    CHECK_EQ(fsh_cardset_parse(s, &c, "BJ"), jokers >= 2 ? FSH_OK : FSH_EINVAL);
    fsh_cardset_free(s);
}

static void test_standard(void)
{
    for (unsigned d = 1; d <= 3; d++)
        for (unsigned j = 0; j <= 2; j++)
            check_standard_names(d, j);
    check_standard_names(8, 2);

    fsh_cardset *s = (fsh_cardset *)&s; /* must come back NULL */
    CHECK_EQ(fsh_cardset_standard(&s, 1, 3), FSH_EINVAL);
    CHECK(s == NULL);
    s = (fsh_cardset *)&s;
    CHECK_EQ(fsh_cardset_standard(&s, 0, 0), FSH_EINVAL);
    CHECK(s == NULL);
    CHECK_EQ(fsh_cardset_standard(&s, UINT32_MAX / 52 + 1, 0), FSH_EINVAL);
    CHECK(s == NULL);
    CHECK_EQ(fsh_cardset_standard(NULL, 1, 0), FSH_EINVAL);

    static const char *bad[] = {"", "rj", "Rj", "RJ ", "JK", "Joker", "53",
                                "AS", "1\xE2\x99\xA0", "BJx"};
    CHECK_EQ(fsh_cardset_standard(&s, 2, 2), FSH_OK);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint32_t c = 5;
        CHECK_EQ(fsh_cardset_parse(s, &c, bad[i]), FSH_EINVAL);
    }
    char buf[32];
    uint32_t c;
    CHECK_EQ(fsh_cardset_name(s, buf, sizeof buf, 0, 2), FSH_EINVAL);
    CHECK_EQ(fsh_cardset_name(s, NULL, 8, 0, 0), FSH_EINVAL);
    CHECK_EQ(fsh_cardset_name(s, buf, 2, 52, 0), FSH_EINVAL); /* "RJ" + NUL */
    CHECK_EQ(fsh_cardset_name(s, buf, 3, 52, 0), FSH_OK);
    CHECK_EQ(fsh_cardset_name(NULL, buf, sizeof buf, 0, 0), FSH_EINVAL);
    CHECK_EQ(fsh_cardset_parse(NULL, &c, "As"), FSH_EINVAL);
    CHECK_EQ(fsh_cardset_parse(s, NULL, "As"), FSH_EINVAL);
    CHECK_EQ(fsh_cardset_parse(s, &c, NULL), FSH_EINVAL);
    fsh_cardset_free(s);
    fsh_cardset_free(NULL);
    CHECK_EQ(fsh_cardset_size(NULL), 0);
    CHECK_EQ(fsh_cardset_faces(NULL), 0);
    CHECK_EQ(fsh_cardset_copies(NULL), 0);
    CHECK_EQ(fsh_cardset_jokers(NULL), FSH_EINVAL);
}

static void test_custom(void)
{
    static const char *const names[] = {"zebra", "ant", "\xC3\xA9l\xC3\xA9phant",
                                        "bee", "1234567890123456789012345678901",
                                        "x", "\xF0\x9F\x82\xA1" /* U+1F0A1 */,
                                        "\xED\x9F\xBF" /* U+D7FF */,
                                        "\xEE\x80\x80" /* U+E000 */,
                                        "\xF4\x8F\xBF\xBF" /* U+10FFFF */};
    const size_t m = sizeof names / sizeof names[0];
    fsh_cardset *s;
    CHECK_EQ(fsh_cardset_custom(&s, names, m, 3), FSH_OK);
    CHECK_EQ(fsh_cardset_size(s), 3 * m);
    CHECK_EQ(fsh_cardset_faces(s), m);
    CHECK_EQ(fsh_cardset_copies(s), 3);
    CHECK_EQ(fsh_cardset_jokers(s), FSH_EINVAL);
    for (uint32_t f = 0; f < m; f++)
        for (int nt = 0; nt < 2; nt++) {
            char buf[32];
            uint32_t back = 999;
            CHECK_EQ(fsh_cardset_name(s, buf, sizeof buf, f, nt), FSH_OK);
            CHECK(strcmp(buf, names[f]) == 0);
            CHECK_EQ(fsh_cardset_parse(s, &back, names[f]), FSH_OK);
            CHECK_EQ(back, f);
        }
    uint32_t c = 9;
    static const char *unknown[] = {"", "As", "Zebra", "ante", "an", "y"};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        CHECK_EQ(fsh_cardset_parse(s, &c, unknown[i]), FSH_EINVAL);
    char buf[32];
    CHECK_EQ(fsh_cardset_name(s, buf, sizeof buf, (uint32_t)m, 0), FSH_EINVAL);
    CHECK_EQ(fsh_cardset_name(s, buf, 5, 0, 0), FSH_EINVAL); /* "zebra" */
    fsh_cardset_free(s);

    /* A large set parses every name (the sorted index). */
    static char many[1000][8];
    const char *mp[1000];
    for (int i = 0; i < 1000; i++) {
        snprintf(many[i], sizeof many[i], "c%d", (i * 7919) % 1000);
        mp[i] = many[i];
    }
    CHECK_EQ(fsh_cardset_custom(&s, mp, 1000, 1), FSH_OK);
    int all = 1;
    for (uint32_t f = 0; f < 1000; f++)
        all &= fsh_cardset_parse(s, &c, mp[f]) == FSH_OK && c == f;
    CHECK(all);
    fsh_cardset_free(s);

    /* Bad names, one at a time in an otherwise good set. */
    static const char *bad[] = {"", "a b", "a\tb", "q\"", "back\\slash",
                                "bell\a", "del\x7f", "nl\n",
                                "12345678901234567890123456789012",
                                /* not UTF-8, so not a JSON string: */
                                "\xFF", "a\x80", "\xC3", "\xC3(",
                                "\xC0\xAF", "\xE0\x80\xAF",
                                "\xED\xA0\x80", "\xF4\x90\x80\x80",
                                "\xF0\x9F\x82", "\xF5\x80\x80\x80"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *two[2] = {"ok", bad[i]};
        s = (fsh_cardset *)&s;
        CHECK_EQ(fsh_cardset_custom(&s, two, 2, 1), FSH_EINVAL);
        CHECK(s == NULL);
    }

    /* Unicode white space and C1 controls, inside a name, at its start
       and at its end: a deal line is the names joined by spaces, and a
       verifier that splits it at white space (Python's str.split(),
       JavaScript's \s) read "A<U+00A0>B" as two cards. They were taken.
       Their neighbours, and invisible characters no reader splits at
       (U+200B, U+2060, U+00AD), stay names. */
    static const struct {
        const char *utf8;
        int ok;
    } uni[] = {
        {"\xC2\x80", 0},         /* U+0080, C1 control */
        {"\xC2\x85", 0},         /* U+0085 NEXT LINE */
        {"\xC2\x9F", 0},         /* U+009F */
        {"\xC2\xA0", 0},         /* U+00A0 NO-BREAK SPACE */
        {"\xE1\x9A\x80", 0},     /* U+1680 OGHAM SPACE MARK */
        {"\xE1\xA0\x8E", 0},     /* U+180E MONGOLIAN VOWEL SEPARATOR */
        {"\xE2\x80\x80", 0},     /* U+2000 EN QUAD */
        {"\xE2\x80\x83", 0},     /* U+2003 EM SPACE */
        {"\xE2\x80\x8A", 0},     /* U+200A HAIR SPACE */
        {"\xE2\x80\xA8", 0},     /* U+2028 LINE SEPARATOR */
        {"\xE2\x80\xA9", 0},     /* U+2029 PARAGRAPH SEPARATOR */
        {"\xE2\x80\xAF", 0},     /* U+202F NARROW NO-BREAK SPACE */
        {"\xE2\x81\x9F", 0},     /* U+205F MEDIUM MATHEMATICAL SPACE */
        {"\xE3\x80\x80", 0},     /* U+3000 IDEOGRAPHIC SPACE */
        {"\xEF\xBB\xBF", 0},     /* U+FEFF ZERO WIDTH NO-BREAK SPACE */
        {"\xC2\xA1", 1},         /* U+00A1 */
        {"\xC2\xAD", 1},         /* U+00AD SOFT HYPHEN */
        {"\xE1\x9A\x81", 1},     /* U+1681 */
        {"\xE1\xA0\x8F", 1},     /* U+180F */
        {"\xE2\x80\x8B", 1},     /* U+200B ZERO WIDTH SPACE */
        {"\xE2\x80\xA7", 1},     /* U+2027 */
        {"\xE2\x80\xB0", 1},     /* U+2030 */
        {"\xE2\x81\xA0", 1},     /* U+2060 WORD JOINER */
        {"\xE3\x80\x81", 1},     /* U+3001 */
        {"\xEF\xBB\xBE", 1},     /* U+FEFE */
        {"\xF0\x90\x80\x80", 1}, /* U+10000 */
    };
    for (size_t i = 0; i < sizeof uni / sizeof uni[0]; i++)
        for (int where = 0; where < 4; where++) {
            char name[32];
            snprintf(name, sizeof name, "%s%s%s",
                     where == 1 || where == 3 ? "A" : "", uni[i].utf8,
                     where == 1 ? "B" : where == 2 ? "A" : "");
            const char *two[2] = {"A", name};
            s = (fsh_cardset *)&s;
            int st = fsh_cardset_custom(&s, two, 2, 1);
            if (st != (uni[i].ok ? FSH_OK : FSH_EINVAL))
                fprintf(stderr, "custom name %zu (%d): %d\n", i, where, st);
            CHECK_EQ(st, uni[i].ok ? FSH_OK : FSH_EINVAL);
            CHECK((s == NULL) == !uni[i].ok);
            fsh_cardset_free(s);
        }
    const char *dup[3] = {"a", "b", "a"}, *null_name[2] = {"a", NULL};
    CHECK_EQ(fsh_cardset_custom(&s, dup, 3, 1), FSH_EINVAL);
    CHECK(s == NULL);
    CHECK_EQ(fsh_cardset_custom(&s, null_name, 2, 1), FSH_EINVAL);
    CHECK_EQ(fsh_cardset_custom(&s, NULL, 2, 1), FSH_EINVAL);
    CHECK_EQ(fsh_cardset_custom(&s, names, 0, 1), FSH_EINVAL);
    CHECK_EQ(fsh_cardset_custom(&s, names, 2, 0), FSH_EINVAL);
    CHECK_EQ(fsh_cardset_custom(NULL, names, 2, 1), FSH_EINVAL);
    CHECK_EQ(fsh_cardset_custom(&s, names, 2, UINT32_MAX), FSH_EINVAL);
    CHECK(s == NULL);
}

/* ------------------------------------------------------------------------ */
/* Distinct orders                                                          */

/* log2(n! / (c!)^m) by plain summation, for reference. */
static double ref_bits(size_t m, unsigned c)
{
    long double b = 0;
    for (size_t k = 2; k <= m * c; k++)
        b += log2l((long double)k);
    for (unsigned k = 2; k <= c; k++)
        b -= (long double)m * log2l((long double)k);
    return (double)b;
}

/* ln(x!) by Stirling's series in long double, for x >= 1000 (the next
   term, 1/(1680 x^7), is below 1e-24). */
static long double ln_fact(long double x)
{
    const long double pi = 3.141592653589793238462643383279502884L;
    return x * logl(x) - x + 0.5L * logl(2 * pi * x) + 1 / (12 * x) -
           1 / (360 * x * x * x) + 1 / (1260 * x * x * x * x * x);
}

/* log2 of the orders of d standard decks, 52 faces: n = 52 d. */
static double stirling_bits(unsigned d)
{
    long double n = 52.0L * d;
    return (double)((ln_fact(n) - 52 * ln_fact((long double)d)) /
                    logl(2.0L));
}

static double bits_of(size_t m, unsigned c)
{
    static const char *const names[] = {"a", "b", "c", "d", "e", "f"};
    fsh_cardset *s;
    double b = -2;
    if (fsh_cardset_custom(&s, names, m, c) == FSH_OK)
        b = fsh_cardset_order_bits(s);
    fsh_cardset_free(s);
    return b;
}

static void test_order_bits(void)
{
    fsh_cardset *s;
    CHECK_EQ(fsh_cardset_standard(&s, 1, 0), FSH_OK);
    CHECK(fabs(fsh_cardset_order_bits(s) - ref_bits(52, 1)) < 1e-9);
    CHECK(fabs(fsh_cardset_order_bits(s) - 225.581) < 1e-3);
    fsh_cardset_free(s);
    CHECK_EQ(fsh_cardset_standard(&s, 8, 0), FSH_OK);
    double b8 = fsh_cardset_order_bits(s);
    CHECK(fabs(b8 - ref_bits(52, 8)) < 1e-9);
    CHECK(b8 > 2228 && b8 < 2230);
    fsh_cardset_free(s);
    CHECK_EQ(fsh_cardset_standard(&s, 6, 2), FSH_OK);
    CHECK(fabs(fsh_cardset_order_bits(s) - ref_bits(54, 6)) < 1e-9);
    fsh_cardset_free(s);
    /* Small counts are exact: 2 orders are 1 bit, one order is 0. */
    CHECK(bits_of(2, 1) == 1.0);
    CHECK(bits_of(1, 5) == 0.0);
    CHECK(bits_of(1, 1) == 0.0);
    CHECK(bits_of(4, 1) == log2(24.0));
    CHECK(bits_of(3, 2) == log2(90.0));
    CHECK(bits_of(2, 2) == log2(6.0));
    CHECK(fabs(bits_of(6, 20) - ref_bits(6, 20)) < 1e-9); /* past 2^64 */
    CHECK(fsh_cardset_order_bits(NULL) == -1);
    /* The lgamma branch writes no global (fairshuf.h: reentrant, no hidden
       global state): glibc's lgammal set signgam, a data race between two
       threads counting sets. */
    signgam = 12345;
    CHECK_EQ(fsh_cardset_standard(&s, 1000, 2), FSH_OK);
    CHECK(fsh_cardset_order_bits(s) > 0);
    fsh_cardset_free(s);
    CHECK_EQ(signgam, 12345);
    /* The documented accuracy of the lgamma branch: below 1e-9 bits up to
       10^5 cards (1923 decks: 99,996) and below 1e-4 bits at n = 2^32 (the
       largest standard set, 82,595,524 decks: 2^32 - 48 cards, about
       2.4e10 bits). */
    static const struct {
        unsigned decks;
        double tol;
    } big[] = {{1000, 1e-9}, {1923, 1e-9}, {UINT32_MAX / 52, 1e-4}};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        CHECK_EQ(fsh_cardset_standard(&s, big[i].decks, 0), FSH_OK);
        double got = fsh_cardset_order_bits(s), want = stirling_bits(big[i].decks);
        CHECK(fabs(got - want) < big[i].tol);
        if (!(fabs(got - want) < big[i].tol))
            fprintf(stderr, "order bits of %u decks: %.17g, want %.17g\n",
                    big[i].decks, got, want);
        fsh_cardset_free(s);
    }
}

/* ------------------------------------------------------------------------ */
/* Canonical order, hands, cut card, replay                                 */

/* A randint source that never swaps (j = i every step): the deal order is
   the made order read from the end. */
static uint64_t no_swap(void *ctx, uint64_t k)
{
    (void)ctx;
    return k;
}

static void test_canonical(void)
{
    fsh_cardset *s;
    fsh_deck *d;
    fsh_rng *rng;
    uint32_t out[108];
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    CHECK_EQ(fsh_rng_from_randint(rng, no_swap, NULL), FSH_OK);
    CHECK_EQ(fsh_cardset_standard(&s, 2, 2), FSH_OK);
    CHECK_EQ(fsh_deck_new_set(&d, s), FSH_OK);
    CHECK_EQ(fsh_deck_size(d), 108);
    CHECK_EQ(fsh_deck_deal_n(rng, d, out, 108), FSH_OK);
    int ok = 1;
    for (size_t t = 0; t < 108; t++)
        ok &= out[t] == (107 - t) % 54; /* d[t] = canonical[n-1-t] */
    CHECK(ok);
    fsh_deck_free(d);

    /* A reset restores the made order, also the caller's array of
       fsh_deck_new_from, after a partial deal from another rng. */
    static const uint32_t made[10] = {9, 3, 3, 7, 0, 1, 8, 8, 2, 5};
    fsh_rng *other;
    CHECK_EQ(fsh_rng_new_seeded(&other, "restore the made order, 32 bytes", 32),
             FSH_OK);
    CHECK_EQ(fsh_deck_new_from(&d, made, 10), FSH_OK);
    for (size_t k = 0; k <= 10; k += 5) {
        CHECK_EQ(fsh_deck_deal_n(other, d, out, k), FSH_OK);
        CHECK_EQ(fsh_deck_reset(d), FSH_OK);
        CHECK_EQ(fsh_deck_deal_n(rng, d, out, 10), FSH_OK);
        ok = 1;
        for (size_t t = 0; t < 10; t++)
            ok &= out[t] == made[9 - t];
        CHECK(ok);
        CHECK_EQ(fsh_deck_reset(d), FSH_OK);
    }
    fsh_deck_free(d);
    fsh_rng_free(other);

    d = (fsh_deck *)&d;
    CHECK_EQ(fsh_deck_new_set(&d, NULL), FSH_EINVAL);
    CHECK(d == NULL);
    CHECK_EQ(fsh_deck_new_set(NULL, s), FSH_EINVAL);
    fsh_cardset_free(s);
    fsh_rng_free(rng);
}

static void test_hand_position(void)
{
    size_t pos;
    for (size_t p = 0; p < 3; p++)
        for (size_t c = 0; c < 4; c++) {
            CHECK_EQ(fsh_hand_position(&pos, p, c, 3, 4, FSH_DEAL_ROUND_ROBIN),
                     FSH_OK);
            CHECK_EQ(pos, c * 3 + p);
            CHECK_EQ(fsh_hand_position(&pos, p, c, 3, 4, FSH_DEAL_BLOCKS),
                     FSH_OK);
            CHECK_EQ(pos, p * 4 + c);
        }
    CHECK_EQ(fsh_hand_position(&pos, 3, 0, 3, 4, 0), FSH_EINVAL);
    CHECK_EQ(fsh_hand_position(&pos, 0, 4, 3, 4, 0), FSH_EINVAL);
    CHECK_EQ(fsh_hand_position(&pos, 0, 0, 0, 4, 0), FSH_EINVAL);
    CHECK_EQ(fsh_hand_position(&pos, 0, 0, 3, 0, 0), FSH_EINVAL);
    CHECK_EQ(fsh_hand_position(&pos, 0, 0, 3, 4, 2), FSH_EINVAL);
    CHECK_EQ(fsh_hand_position(&pos, 0, 0, 3, 4, -1), FSH_EINVAL);
    CHECK_EQ(fsh_hand_position(NULL, 0, 0, 3, 4, 0), FSH_EINVAL);
    CHECK_EQ(fsh_hand_position(&pos, 0, 0, SIZE_MAX, 2, 0), FSH_EINVAL);
}

static void test_hands_and_cut(void)
{
    fsh_rng *rng;
    fsh_cardset *s;
    fsh_deck *d;
    uint32_t out[110], seq[110];
    CHECK_EQ(fsh_rng_new_seeded(&rng, "test_cards: hands seed, 32 bytes", 32),
             FSH_OK);
    CHECK_EQ(fsh_cardset_standard(&s, 1, 2), FSH_OK);
    CHECK_EQ(fsh_deck_new_set(&d, s), FSH_OK);

    /* Hands equal the plain deal order laid out by fsh_hand_position. */
    for (int layout = 0; layout < 2; layout++) {
        CHECK_EQ(fsh_rng_seed(rng, "test_cards: hands seed, 32 bytes", 32),
                 FSH_OK);
        CHECK_EQ(fsh_deck_reset(d), FSH_OK);
        CHECK_EQ(fsh_deck_burn(rng, d, 3), FSH_OK);
        CHECK_EQ(fsh_deck_deal_hands(rng, d, out, 5, 7, layout), FSH_OK);
        CHECK_EQ(fsh_deck_remaining(d), 54 - 3 - 35);
        CHECK_EQ(fsh_rng_seed(rng, "test_cards: hands seed, 32 bytes", 32),
                 FSH_OK);
        CHECK_EQ(fsh_deck_reset(d), FSH_OK);
        CHECK_EQ(fsh_deck_deal_n(rng, d, seq, 54), FSH_OK);
        int same = 1;
        for (size_t p = 0; p < 5; p++)
            for (size_t c = 0; c < 7; c++) {
                size_t pos;
                CHECK_EQ(fsh_hand_position(&pos, p, c, 5, 7, layout), FSH_OK);
                same &= out[p * 7 + c] == seq[3 + pos];
            }
        CHECK(same);
    }

    /* Errors deal nothing. */
    CHECK_EQ(fsh_deck_reset(d), FSH_OK);
    CHECK_EQ(fsh_deck_deal_hands(rng, d, out, 0, 2, 0), FSH_EINVAL);
    CHECK_EQ(fsh_deck_deal_hands(rng, d, out, 2, 2, 2), FSH_EINVAL);
    CHECK_EQ(fsh_deck_deal_hands(rng, d, NULL, 2, 2, 0), FSH_EINVAL);
    CHECK_EQ(fsh_deck_deal_hands(NULL, d, out, 2, 2, 0), FSH_EINVAL);
    CHECK_EQ(fsh_deck_deal_hands(rng, NULL, out, 2, 2, 0), FSH_EINVAL);
    CHECK_EQ(fsh_deck_deal_hands(rng, d, out, SIZE_MAX, 3, 0), FSH_EINVAL);
    CHECK_EQ(fsh_deck_deal_hands(rng, d, out, 5, 11, 0), FSH_EEMPTY);
    CHECK_EQ(fsh_deck_deal_hands(rng, d, out, 2, 0, 0), FSH_OK);
    CHECK_EQ(fsh_deck_burn(rng, d, 55), FSH_EEMPTY);
    CHECK_EQ(fsh_deck_burn(NULL, d, 1), FSH_EINVAL);
    CHECK_EQ(fsh_deck_burn(rng, NULL, 1), FSH_EINVAL);
    CHECK_EQ(fsh_deck_remaining(d), 54);
    CHECK_EQ(fsh_deck_deal_hands(rng, d, out, 6, 9, 1), FSH_OK); /* all 54 */
    CHECK_EQ(fsh_deck_remaining(d), 0);

    /* The cut card. */
    CHECK_EQ(fsh_deck_reset(d), FSH_OK);
    CHECK_EQ(fsh_deck_cut(d), 0);
    CHECK_EQ(fsh_deck_needs_shuffle(d), 0);
    CHECK_EQ(fsh_deck_set_cut(d, 40), FSH_OK);
    CHECK_EQ(fsh_deck_cut(d), 40);
    CHECK_EQ(fsh_deck_burn(rng, d, 39), FSH_OK);
    CHECK_EQ(fsh_deck_needs_shuffle(d), 0);
    CHECK_EQ(fsh_deck_burn(rng, d, 1), FSH_OK);
    CHECK_EQ(fsh_deck_needs_shuffle(d), 1);
    CHECK_EQ(fsh_deck_reset(d), FSH_OK); /* the cut card stays */
    CHECK_EQ(fsh_deck_cut(d), 40);
    CHECK_EQ(fsh_deck_needs_shuffle(d), 0);
    CHECK_EQ(fsh_deck_set_cut(d, 0), FSH_OK); /* removed: only empty counts */
    CHECK_EQ(fsh_deck_burn(rng, d, 53), FSH_OK);
    CHECK_EQ(fsh_deck_needs_shuffle(d), 0);
    CHECK_EQ(fsh_deck_burn(rng, d, 1), FSH_OK);
    CHECK_EQ(fsh_deck_needs_shuffle(d), 1);
    CHECK_EQ(fsh_deck_set_cut(d, 54), FSH_OK);
    CHECK_EQ(fsh_deck_set_cut(d, 55), FSH_EINVAL);
    CHECK_EQ(fsh_deck_cut(d), 54);
    CHECK_EQ(fsh_deck_set_cut(NULL, 1), FSH_EINVAL);
    CHECK_EQ(fsh_deck_needs_shuffle(NULL), FSH_EINVAL);
    CHECK_EQ(fsh_deck_cut(NULL), 0);

    fsh_deck_free(d);
    fsh_cardset_free(s);
    fsh_rng_free(rng);
}

/* The replay rule: a deck reused after a reset deals exactly as a fresh
   one under the same seed, whatever it dealt before and from which rng. */
static void test_replay(void)
{
    static const char seed[] = "test_cards: the replay seed, 32B";
    fsh_rng *a, *other;
    fsh_cardset *s;
    fsh_deck *fresh, *used;
    uint32_t x[161], y[161], junk[100];
    CHECK_EQ(fsh_rng_new_seeded(&a, seed, 32), FSH_OK);
    CHECK_EQ(fsh_rng_new_seeded(&other, "another seed, also 32 bytes long", 32),
             FSH_OK);
    CHECK_EQ(fsh_rng_set_simulation(a, 1), FSH_OK);
    CHECK_EQ(fsh_rng_set_simulation(other, 1), FSH_OK);
    CHECK_EQ(fsh_cardset_standard(&s, 3, 2), FSH_OK);
    CHECK_EQ(fsh_deck_new_set(&fresh, s), FSH_OK);
    CHECK_EQ(fsh_deck_burn(a, fresh, 1), FSH_OK);
    CHECK_EQ(fsh_deck_deal_hands(a, fresh, x, 4, 5, 0), FSH_OK);
    CHECK_EQ(fsh_deck_deal_n(a, fresh, x + 20, 141), FSH_OK);

    static const size_t before[] = {0, 1, 7, 100, 162};
    for (size_t i = 0; i < sizeof before / sizeof before[0]; i++) {
        CHECK_EQ(fsh_deck_new_set(&used, s), FSH_OK);
        CHECK_EQ(fsh_deck_burn(other, used, before[i] / 2), FSH_OK);
        CHECK_EQ(fsh_deck_deal_n(a, used, junk, before[i] - before[i] / 2),
                 FSH_OK);
        CHECK_EQ(fsh_deck_reset(used), FSH_OK);
        CHECK_EQ(fsh_rng_seed(a, seed, 32), FSH_OK);
        CHECK_EQ(fsh_rng_set_simulation(a, 1), FSH_OK);
        CHECK_EQ(fsh_deck_burn(a, used, 1), FSH_OK);
        CHECK_EQ(fsh_deck_deal_hands(a, used, y, 4, 5, 0), FSH_OK);
        CHECK_EQ(fsh_deck_deal_n(a, used, y + 20, 141), FSH_OK);
        CHECK(memcmp(x, y, 161 * sizeof x[0]) == 0); /* 1 burned */
        fsh_deck_free(used);
    }
    fsh_deck_free(fresh);
    fsh_cardset_free(s);
    fsh_rng_free(a);
    fsh_rng_free(other);
}

/* ------------------------------------------------------------------------ */
/* Enumeration proofs                                                       */

/* A round on a small custom set: burn, hands, rest. */
struct round {
    unsigned m, c;          /* faces, copies */
    size_t burn, players, cards;
    int layout;
};

/* The spec's deal order for the leaf's draws: backward Fisher-Yates on the
   canonical array (j for i = n-1..1 is the walk's digit), d[t] = a[n-1-t]. */
static void spec_order(const struct walker *w, unsigned n, unsigned m,
                       uint32_t *d)
{
    uint32_t a[16];
    for (unsigned k = 0; k < n; k++)
        a[k] = k % m;
    for (unsigned i = n - 1, s = 0; i >= 1; i--, s++) {
        uint32_t j = (uint32_t)w->digit[s], t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
    for (unsigned t = 0; t < n; t++)
        d[t] = a[n - 1 - t];
}

static uint32_t counts[1u << 16];

/* Walk every draw sequence of the round; each leaf's hands and rest must be
   what the spec's deal order gives, the outcome (hands then rest, in base
   m) is counted, and every outcome must come up exactly want times. */
static void enumerate_round(const struct round *r, uint32_t outcomes,
                            uint32_t want)
{
    const char *names[] = {"a", "b", "c", "d", "e", "f"};
    unsigned n = r->m * r->c;
    size_t hands = r->players * r->cards, shown = n - r->burn;
    fsh_cardset *s;
    fsh_rng *rng;
    struct walker w;
    uint32_t hand[16], rest[16], d[16];
    uint64_t leaves = 0, wrong = 0, bad = 0, ragged = 0;
    CHECK_EQ(fsh_cardset_custom(&s, names, r->m, r->c), FSH_OK);
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    walk_start(&w);
    CHECK_EQ(fsh_rng_from_randint(rng, walk_randint, &w), FSH_OK);
    memset(counts, 0, sizeof counts);
    do {
        fsh_deck *deck;
        int rc = fsh_deck_new_set(&deck, s);
        if (rc == FSH_OK)
            rc = fsh_deck_burn(rng, deck, r->burn);
        if (rc == FSH_OK)
            rc = fsh_deck_deal_hands(rng, deck, hand, r->players, r->cards,
                                     r->layout);
        if (rc == FSH_OK)
            rc = fsh_deck_deal_n(rng, deck, rest, n - r->burn - hands);
        fsh_deck_free(deck);
        bad += rc != FSH_OK;
        ragged += w.pos != n - 1;
        spec_order(&w, n, r->m, d);
        uint32_t code = 0;
        for (size_t p = 0; p < r->players; p++)
            for (size_t k = 0; k < r->cards; k++) {
                size_t pos = r->layout == FSH_DEAL_BLOCKS ? p * r->cards + k
                                                          : k * r->players + p;
                wrong += hand[p * r->cards + k] != d[r->burn + pos];
            }
        for (size_t k = 0; k < n - r->burn - hands; k++)
            wrong += rest[k] != d[r->burn + hands + k];
        for (size_t k = 0; k < shown; k++)
            code = code * r->m + (k < hands ? hand[k] : rest[k - hands]);
        counts[code]++;
        leaves++;
    } while (walk_next(&w));
    CHECK_EQ(bad, 0);
    CHECK_EQ(ragged, 0);
    CHECK_EQ(wrong, 0);
    CHECK(!w.mismatch && !w.overflow);
    CHECK_EQ(leaves, fact[n]);
    /* Exactly `outcomes` distinct outcomes, each `want` times. */
    uint32_t distinct = 0, uneven = 0, top = 1;
    for (size_t k = 0; k < shown; k++)
        top *= r->m;
    for (uint32_t code = 0; code < top; code++) {
        distinct += counts[code] != 0;
        uneven += counts[code] != 0 && counts[code] != want;
    }
    CHECK_EQ(distinct, outcomes);
    CHECK_EQ(uneven, 0);
    fsh_rng_free(rng);
    fsh_cardset_free(s);
}

static void test_enumeration(void)
{
    /* A shoe of 2 copies of 3 faces dealt out: 6!/(2!^3) = 90 distinct
       orders, each from 8 of the 720 draw sequences. */
    struct round shoe = {3, 2, 0, 1, 6, FSH_DEAL_BLOCKS};
    enumerate_round(&shoe, 90, 8);
    /* The same as two hands of three, both layouts. */
    struct round rr = {3, 2, 0, 2, 3, FSH_DEAL_ROUND_ROBIN};
    enumerate_round(&rr, 90, 8);
    struct round bl = {3, 2, 0, 2, 3, FSH_DEAL_BLOCKS};
    enumerate_round(&bl, 90, 8);
    /* Burn one, two hands of two, one card left: the 5 cards shown miss
       one face; 3 * 5!/(2! 2! 1!) = 90 outcomes, each 8 times. */
    struct round burn = {3, 2, 1, 2, 2, FSH_DEAL_ROUND_ROBIN};
    enumerate_round(&burn, 90, 8);
    burn.layout = FSH_DEAL_BLOCKS;
    enumerate_round(&burn, 90, 8);
    /* Distinct cards (6 faces, 1 copy), burn 2, three hands of one, one
       left: 6!/2! = 360 ordered outcomes of the 4 shown, each twice (the
       two burned cards' order). */
    struct round distinct = {6, 1, 2, 3, 1, FSH_DEAL_ROUND_ROBIN};
    enumerate_round(&distinct, 360, 2);
    /* 2 copies of 2 faces, 3 players of 1 after one burn: the 3 shown are
       any 3-tuple over 2 faces with at most 2 of each (6 of them); the
       4! = 24 leaves over 6 outcomes, 4 each. */
    struct round small = {2, 2, 1, 3, 1, FSH_DEAL_BLOCKS};
    enumerate_round(&small, 6, 4);
}

int main(void)
{
    test_standard();
    test_custom();
    test_order_bits();
    test_canonical();
    test_hand_position();
    test_hands_and_cut();
    test_replay();
    test_enumeration();
    return check_done("test_cards");
}
