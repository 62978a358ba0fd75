/* SPDX-License-Identifier: MIT */
/* Sampling: fsh_rangeperm, fsh_sample_range, fsh_reservoir_slot.
 *
 * Exhaustive: a scripted randint source walks every sequence of draws
 * (an odometer over the bounds the algorithm asks for); each sequence is one
 * equally likely outcome, so a uniform sampler maps them onto ordered
 * samples (or subsets, for Algorithm R) evenly. */
#include "check.h"
#include "fairshuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAXD 64

/* Odometer: digits[i] in [1, bound[i]], extended as the algorithm asks. */
typedef struct script {
    uint64_t digit[MAXD], bound[MAXD];
    size_t len, pos;
} script;

static uint64_t scripted(void *ctx, uint64_t k)
{
    script *s = ctx;
    if (s->pos == s->len) {
        s->digit[s->len] = 1;
        s->bound[s->len] = k;
        s->len++;
    }
    CHECK(s->bound[s->pos] == k); /* same prefix, same questions */
    return s->digit[s->pos++];
}

/* Next sequence; 0 when all were visited. */
static int advance(script *s)
{
    s->len = s->pos;
    while (s->len > 0 && s->digit[s->len - 1] == s->bound[s->len - 1])
        s->len--;
    if (s->len == 0)
        return 0;
    s->digit[s->len - 1]++;
    s->pos = 0;
    return 1;
}

static uint64_t encode(const uint64_t *v, size_t k, uint64_t base)
{
    uint64_t code = 0;
    for (size_t i = 0; i < k; i++)
        code = code * base + v[i];
    return code;
}

/* Every ordered k-sample of [0, n) comes from exactly one draw sequence,
   with the map storage (hint 1) and the array storage (hint k). */
static void exhaustive_rangeperm(uint64_t n, size_t k, size_t hint)
{
    fsh_rng *rng;
    CHECK(fsh_rng_new(&rng) == FSH_OK);
    size_t cells = 1;
    for (size_t i = 0; i < k; i++)
        cells *= (size_t)n;
    unsigned *seen = calloc(cells, sizeof *seen);
    script s = {0};
    size_t runs = 0;
    do {
        s.pos = 0;
        CHECK(fsh_rng_from_randint(rng, scripted, &s) == FSH_OK);
        fsh_rangeperm *p;
        CHECK(fsh_rangeperm_new(&p, 0, n - 1, hint) == FSH_OK);
        uint64_t v[8];
        for (size_t i = 0; i < k; i++)
            CHECK(fsh_rangeperm_next(rng, p, &v[i]) == FSH_OK);
        if (k == n) {
            uint64_t extra;
            CHECK(fsh_rangeperm_next(rng, p, &extra) == FSH_EEMPTY);
        }
        CHECK(fsh_rangeperm_drawn(p) == k);
        fsh_rangeperm_free(p);
        seen[encode(v, k, n)]++;
        runs++;
    } while (advance(&s));
    /* n!/(n-k)! sequences, each ordered sample (distinct values) once. */
    size_t expect = 1;
    for (size_t i = 0; i < k; i++)
        expect *= (size_t)(n - i);
    CHECK_EQ(runs, expect);
    size_t hits = 0;
    for (size_t c = 0; c < cells; c++) {
        CHECK(seen[c] <= 1);
        hits += seen[c];
    }
    CHECK_EQ(hits, expect);
    free(seen);
    fsh_rng_free(rng);
}

/* Algorithm R then a shuffle of the kept slots: every ordered k-sample of an
   n-item stream is equally likely. */
static void exhaustive_reservoir(uint64_t n, size_t k)
{
    fsh_rng *rng;
    CHECK(fsh_rng_new(&rng) == FSH_OK);
    size_t cells = 1;
    for (size_t i = 0; i < k; i++)
        cells *= (size_t)n;
    unsigned *seen = calloc(cells, sizeof *seen);
    script s = {0};
    size_t runs = 0;
    do {
        s.pos = 0;
        CHECK(fsh_rng_from_randint(rng, scripted, &s) == FSH_OK);
        uint64_t kept[8];
        for (uint64_t t = 0; t < n; t++) {
            size_t slot;
            CHECK(fsh_reservoir_slot(rng, &slot, k, t) == FSH_OK);
            CHECK(slot <= k);
            if (slot < k)
                kept[slot] = t;
        }
        CHECK(fsh_shuffle(rng, kept, k, sizeof *kept) == FSH_OK);
        seen[encode(kept, k, n)]++;
        runs++;
    } while (advance(&s));
    /* Every ordered sample appears runs / (n!/(n-k)!) times. */
    size_t ordered = 1;
    for (size_t i = 0; i < k; i++)
        ordered *= (size_t)(n - i);
    CHECK(runs % ordered == 0);
    size_t each = runs / ordered, distinct = 0;
    for (size_t c = 0; c < cells; c++) {
        if (seen[c] != 0) {
            distinct++;
            CHECK_EQ(seen[c], each);
        }
    }
    CHECK_EQ(distinct, ordered);
    free(seen);
    fsh_rng_free(rng);
}

static void edges(void)
{
    fsh_rng *rng;
    CHECK(fsh_rng_new(&rng) == FSH_OK);
    CHECK(fsh_rng_seed(rng, "edges", 5) == FSH_OK);
    /* A 40-bit seed: simulation grade, or the large samples below would be
       refused for reachability (tests/test_reach.c). */
    CHECK(fsh_rng_set_simulation(rng, 1) == FSH_OK);
    uint64_t out[1000];
    /* The full 64-bit range, and its top. */
    CHECK(fsh_sample_range(rng, out, 1000, 0, UINT64_MAX) == FSH_OK);
    CHECK(fsh_sample_range(rng, out, 10, UINT64_MAX - 9, UINT64_MAX) ==
          FSH_OK);
    uint64_t sum = 0;
    for (int i = 0; i < 10; i++) {
        CHECK(out[i] >= UINT64_MAX - 9);
        sum += out[i] - (UINT64_MAX - 9);
    }
    CHECK_EQ(sum, 45); /* all ten values once */
    CHECK(fsh_sample_range(rng, out, 1, 5, 5) == FSH_OK);
    CHECK_EQ(out[0], 5);
    CHECK(fsh_sample_range(rng, out, 0, 1, 10) == FSH_OK);
    CHECK(fsh_sample_range(rng, out, 11, 1, 10) == FSH_EINVAL);
    CHECK(fsh_sample_range(rng, out, 1, 10, 1) == FSH_EINVAL);
    CHECK(fsh_sample_range(NULL, out, 1, 1, 10) == FSH_EINVAL);
    CHECK(fsh_sample_range(rng, NULL, 1, 1, 10) == FSH_EINVAL);

    fsh_rangeperm *p;
    CHECK(fsh_rangeperm_new(NULL, 0, 5, 0) == FSH_EINVAL);
    /* lo > hi is FSH_EINVAL, and *out is NULL on error (a constructor). */
    p = (fsh_rangeperm *)&rng;
    CHECK(fsh_rangeperm_new(&p, 6, 5, 0) == FSH_EINVAL);
    CHECK(p == NULL);
    p = (fsh_rangeperm *)&rng;
    CHECK(fsh_rangeperm_new(&p, UINT64_MAX, 0, 10) == FSH_EINVAL);
    CHECK(p == NULL);
    CHECK(fsh_rangeperm_new(&p, 0, 0, 0) == FSH_OK);
    CHECK(fsh_rangeperm_next(rng, p, &out[0]) == FSH_OK && out[0] == 0);
    CHECK(fsh_rangeperm_next(rng, p, &out[0]) == FSH_EEMPTY);
    CHECK(fsh_rangeperm_next_at(p, &out[0], 0) == FSH_EEMPTY);
    fsh_rangeperm_free(p);
    CHECK(fsh_rangeperm_new(&p, 0, 9, 0) == FSH_OK);
    CHECK(fsh_rangeperm_next_at(p, &out[0], 10) == FSH_EINVAL);
    CHECK(fsh_rangeperm_next_at(p, &out[0], 9) == FSH_OK && out[0] == 9);
    CHECK(fsh_rangeperm_next(NULL, p, &out[0]) == FSH_EINVAL);
    CHECK(fsh_rangeperm_next(rng, p, NULL) == FSH_EINVAL);
    CHECK(fsh_rangeperm_next(rng, NULL, &out[0]) == FSH_EINVAL);
    CHECK(fsh_rangeperm_next_at(NULL, &out[0], 0) == FSH_EINVAL);
    CHECK(fsh_rangeperm_next_at(p, NULL, 0) == FSH_EINVAL);
    CHECK(fsh_rangeperm_drawn(p) == 1); /* the errors drew nothing */
    fsh_rangeperm_free(p);
    fsh_rangeperm_free(NULL);
    CHECK(fsh_rangeperm_drawn(NULL) == 0);
    /* Storage that cannot exist is FSH_ENOMEM at once, with errno ENOMEM
       as the allocators set it: k = 2^62 values need a map of 2^63 slots,
       more bytes than a size_t counts. fsh_sample_range writes nothing;
       fsh_rangeperm_new sizes its map for the hint's draws up front, so
       it fails here instead of handing out values while its table
       doubles through the machine's memory. */
    size_t huge = (size_t)1 << 62;
    out[0] = 7;
    errno = 0;
    CHECK_EQ(fsh_sample_range(rng, out, huge, 0, UINT64_MAX), FSH_ENOMEM);
    CHECK_EQ(errno, ENOMEM);
    CHECK_EQ(out[0], 7);
    p = (fsh_rangeperm *)&rng;
    errno = 0;
    CHECK_EQ(fsh_rangeperm_new(&p, 0, UINT64_MAX, huge), FSH_ENOMEM);
    CHECK_EQ(errno, ENOMEM);
    CHECK(p == NULL);
    if (p != NULL && p != (fsh_rangeperm *)&rng)
        fsh_rangeperm_free(p);
    /* A hint past the range's size asks for no more than the range. */
    CHECK_EQ(fsh_rangeperm_new(&p, 0, 9, huge), FSH_OK);
    CHECK(fsh_rangeperm_next_at(p, &out[0], 9) == FSH_OK && out[0] == 9);
    fsh_rangeperm_free(p);
    /* The whole 2^64 range can be started; drawn saturates at the end. */
    CHECK(fsh_rangeperm_new(&p, 0, UINT64_MAX, 4) == FSH_OK);
    CHECK(fsh_rangeperm_next(rng, p, &out[0]) == FSH_OK);
    CHECK(fsh_rangeperm_drawn(p) == 1);
    fsh_rangeperm_free(p);

    /* Map and array storage give the same values for the same seed, and a
       large sample has no repeats (the map grows past its first table). */
    static uint64_t a[200000], b[200000];
    fsh_rangeperm *pm, *pa;
    CHECK(fsh_rangeperm_new(&pm, 0, 299999, 1) == FSH_OK);      /* map */
    CHECK(fsh_rangeperm_new(&pa, 0, 299999, 200000) == FSH_OK); /* array */
    fsh_rng *r2;
    CHECK(fsh_rng_new(&r2) == FSH_OK);
    CHECK(fsh_rng_seed(r2, "edges", 5) == FSH_OK);
    CHECK(fsh_rng_set_simulation(r2, 1) == FSH_OK);
    CHECK(fsh_rng_seed(rng, "edges", 5) == FSH_OK);
    for (size_t i = 0; i < 200000; i++) {
        CHECK(fsh_rangeperm_next(rng, pm, &a[i]) == FSH_OK);
        CHECK(fsh_rangeperm_next(r2, pa, &b[i]) == FSH_OK);
    }
    CHECK(memcmp(a, b, sizeof a) == 0);
    unsigned char *hit = calloc(300000, 1);
    size_t dups = 0;
    for (size_t i = 0; i < 200000; i++)
        dups += hit[a[i]]++ != 0;
    CHECK_EQ(dups, 0);
    free(hit);
    fsh_rangeperm_free(pm);
    fsh_rangeperm_free(pa);
    fsh_rng_free(r2);

    size_t slot;
    CHECK(fsh_reservoir_slot(rng, &slot, 0, 3) == FSH_OK && slot == 0);
    /* k = 0 always drops and draws nothing, at any point of the stream. */
    uint64_t used = fsh_rng_bits_used(rng);
    static const uint64_t seens[] = {0, 1, 2, 1000, UINT64_MAX};
    for (size_t i = 0; i < sizeof seens / sizeof seens[0]; i++) {
        slot = 99;
        CHECK(fsh_reservoir_slot(rng, &slot, 0, seens[i]) == FSH_OK);
        CHECK_EQ(slot, 0);
    }
    CHECK(fsh_rng_bits_used(rng) == used);
    CHECK(fsh_reservoir_slot(rng, &slot, 5, 3) == FSH_OK && slot == 3);
    CHECK(fsh_reservoir_slot(rng, &slot, 5, UINT64_MAX) == FSH_OK &&
          slot <= 5);
    CHECK(fsh_reservoir_slot(NULL, &slot, 5, 3) == FSH_EINVAL);
    CHECK(fsh_reservoir_slot(rng, NULL, 5, 3) == FSH_EINVAL);
    fsh_rng_free(rng);
}

int main(void)
{
    static const struct { uint64_t n; size_t k; } cases[] = {
        {1, 1}, {2, 1}, {2, 2}, {3, 2}, {4, 2}, {4, 4}, {5, 3}, {6, 6}, {7, 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        exhaustive_rangeperm(cases[i].n, cases[i].k, 1);
        exhaustive_rangeperm(cases[i].n, cases[i].k, cases[i].k);
        exhaustive_reservoir(cases[i].n, cases[i].k);
    }
    exhaustive_reservoir(6, 2);
    exhaustive_reservoir(5, 1);
    edges();
    return check_done("test_sample");
}
