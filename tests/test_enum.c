/* SPDX-License-Identifier: MIT */
/* The enumeration proof: every shuffle kernel maps the n! possible draw
 * sequences one-to-one onto the n! orders.
 *
 * A scripted randint source walks every sequence of bounded draws in
 * depth-first (odometer) order: each run replays the recorded prefix, extends
 * it with 0 for any new draw (recording its bound), and the next run advances
 * the last digit that is not at its maximum, dropping the maxed digits after
 * it. The walk visits every leaf of the draw tree exactly once. With ideal
 * draws every leaf has probability 1 / (product of its bounds), so a kernel is
 * exactly uniform iff it has n! leaves, all of the same depth, and each of the
 * n! orders appears at exactly one leaf. We assert exactly that, for n = 1..9,
 * ranking each order by its Lehmer code.
 *
 * The word-level path (batched dice with Lemire's rejection inside the
 * kernels) is covered too: for n <= 6 each leaf's draws are grouped into the
 * kernels' batches and each batch turned into the 64-bit word that maps to it
 * (for the batch's digits read as R in [0, P), w = floor(((R + 1) * 2^64 - 1)
 * / P) gives floor(w * P / 2^64) = R with the low half >= 2^64 - P >= 2^64
 * mod P, so it is accepted), optionally preceded by the word 0, which every P
 * that is not a power of two rejects; the kernel fed these words through
 * fsh_rng_from_words must give the same order.
 *
 * The naive shuffle (swap a[i] with a[uniform(n)] for every i) and Sattolo's
 * algorithm run through the same enumerator and must fail the check.
 */
#include "check.h"
#include "shuffle/fy.h"
#include "uniform/uniform.h"

#include <stdlib.h>
#include <string.h>

#define MAXN 9
#define MAXD 32

/* ------------------------------------------------------------------------ */
/* The draw-tree walker                                                     */

#include "walker.h"

/* ------------------------------------------------------------------------ */
/* Targets: each runs one operation on n items with rng and writes the
   resulting order as perm[k] = original index of the item at position k. */

struct target {
    const char *name;
    int (*run)(const struct target *t, fsh_rng *rng, struct walker *w,
               unsigned n, unsigned *perm);
    size_t size; /* element size for fsh_shuffle */
    int no_rng;  /* draws straight from the walker: no word-level replay */
    int forward; /* bounds 2, 3, ..., n in section 5d's batches */
};

/* Element i of size bytes: every byte depends on i and its position, so a
   partial swap shows up. */
static void make_elem(unsigned char *p, size_t size, unsigned i)
{
    for (size_t b = 0; b < size; b++)
        p[b] = (unsigned char)(i * 37u + b * 11u + 1u);
}

/* Byte 0 of element i is 37 i + 1 (mod 256), distinct for i < 256/gcd: look
   the index up by it, then compare the whole element. */
static int decode_elems(const unsigned char *a, size_t size, unsigned n,
                        unsigned *perm)
{
    unsigned char e[64];
    for (unsigned k = 0; k < n; k++) {
        perm[k] = n; /* not found */
        for (unsigned i = 0; i < n; i++) {
            if (a[k * size] != (unsigned char)(i * 37u + 1u))
                continue;
            make_elem(e, size, i);
            if (memcmp(a + k * size, e, size) == 0)
                perm[k] = i;
            break;
        }
    }
    return FSH_OK;
}

static int run_shuffle(const struct target *t, fsh_rng *rng, struct walker *w,
                       unsigned n, unsigned *perm)
{
    unsigned char a[MAXN * 64];
    (void)w;
    for (unsigned i = 0; i < n; i++)
        make_elem(a + i * t->size, t->size, i);
    int rc = fsh_shuffle(rng, a, n, t->size);
    decode_elems(a, t->size, n, perm);
    return rc;
}

static int run_shuffle_u32(const struct target *t, fsh_rng *rng,
                           struct walker *w, unsigned n, unsigned *perm)
{
    uint32_t a[MAXN];
    (void)t, (void)w;
    for (unsigned i = 0; i < n; i++)
        a[i] = 0xdead0000u + i;
    int rc = fsh_shuffle_u32(rng, a, n);
    for (unsigned k = 0; k < n; k++)
        perm[k] = a[k] - 0xdead0000u;
    return rc;
}

static int run_shuffle_u64(const struct target *t, fsh_rng *rng,
                           struct walker *w, unsigned n, unsigned *perm)
{
    uint64_t a[MAXN];
    (void)t, (void)w;
    for (unsigned i = 0; i < n; i++)
        a[i] = 0xfeed000000000000ULL + i;
    int rc = fsh_shuffle_u64(rng, a, n);
    for (unsigned k = 0; k < n; k++)
        perm[k] = (unsigned)(a[k] - 0xfeed000000000000ULL);
    return rc;
}

static int run_shuffle_ptr(const struct target *t, fsh_rng *rng,
                           struct walker *w, unsigned n, unsigned *perm)
{
    static int items[MAXN];
    void *a[MAXN];
    (void)t, (void)w;
    for (unsigned i = 0; i < n; i++)
        a[i] = &items[i];
    int rc = fsh_shuffle_ptr(rng, a, n);
    for (unsigned k = 0; k < n; k++)
        perm[k] = (unsigned)((int *)a[k] - items);
    return rc;
}

/* The forward Fisher-Yates (stream version 3's kernel, fsh_fy_forward),
   on elements of t->size bytes. */
static int run_forward(const struct target *t, fsh_rng *rng,
                       struct walker *w, unsigned n, unsigned *perm)
{
    unsigned char a[MAXN * 64];
    (void)w;
    for (unsigned i = 0; i < n; i++)
        make_elem(a + i * t->size, t->size, i);
    fsh_fy_forward(rng, a, n, t->size);
    decode_elems(a, t->size, n, perm);
    return FSH_OK;
}

/* 0.1's fsh_shuffle_randint(base, n, size, randint, ctx), as 0.2 spells
   it: an rng made by fsh_rng_from_randint(randint, ctx), then fsh_shuffle. */
static int run_shuffle_randint(const struct target *t, fsh_rng *rng,
                               struct walker *w, unsigned n, unsigned *perm)
{
    static fsh_rng *own;
    unsigned char a[MAXN * 64];
    (void)rng;
    if (own == NULL && fsh_rng_new_seeded(&own, "unused", 6) != FSH_OK)
        return FSH_ENOMEM;
    int rc = fsh_rng_from_randint(own, walk_randint, w);
    if (rc != FSH_OK)
        return rc;
    for (unsigned i = 0; i < n; i++)
        make_elem(a + i * t->size, t->size, i);
    rc = fsh_shuffle(own, a, n, t->size);
    decode_elems(a, t->size, n, perm);
    return rc;
}

static int run_permutation(const struct target *t, fsh_rng *rng,
                           struct walker *w, unsigned n, unsigned *perm)
{
    uint64_t out[MAXN];
    const uint64_t first = 1000;
    (void)t, (void)w;
    int rc = fsh_permutation(rng, out, first, first + n - 1);
    for (unsigned k = 0; k < n; k++)
        perm[k] = (unsigned)(out[k] - first);
    return rc;
}

static int run_permutation_u32(const struct target *t, fsh_rng *rng,
                               struct walker *w, unsigned n, unsigned *perm)
{
    uint32_t out[MAXN];
    const uint32_t first = UINT32_MAX - n + 1; /* the top of the range */
    (void)t, (void)w;
    int rc = fsh_permutation_u32(rng, out, first, first + n - 1);
    for (unsigned k = 0; k < n; k++)
        perm[k] = out[k] - first;
    return rc;
}

/* The deck's deal order: n single deals from a deck that starts in reversed
   order and, for n >= 3, was partly dealt before being shuffled again
   (the O(1) shuffle must make the next deal order uniform whatever the
   internal arrangement). */
static int run_deck(const struct target *t, fsh_rng *rng, struct walker *w,
                    unsigned n, unsigned *perm)
{
    uint32_t cards[MAXN] = {0}, c;
    fsh_deck *deck;
    (void)w;
    for (unsigned i = 0; i < n; i++)
        cards[i] = n - 1 - i;
    int rc = fsh_deck_new_from(&deck, cards, n);
    if (rc != FSH_OK)
        return rc;
    if (t->size && n >= 3) {
        static fsh_rng *pre;
        if (pre == NULL)
            rc = fsh_rng_new(&pre);
        if (rc == FSH_OK)
            rc = fsh_rng_key_xoshiro(pre, 7);
        if (rc == FSH_OK)
            rc = fsh_deck_deal_n(pre, deck, cards, 2);
        if (rc == FSH_OK)
            rc = fsh_deck_reset(deck);
        if (rc != FSH_OK) {
            fsh_deck_free(deck);
            return rc;
        }
    }
    for (unsigned k = 0; k < n && rc == FSH_OK; k++) {
        rc = fsh_deck_deal(rng, deck, &c);
        perm[k] = c;
    }
    if (rc == FSH_OK && fsh_deck_deal(rng, deck, &c) != FSH_EEMPTY)
        rc = FSH_EINVAL; /* the deck must be empty after n deals */
    fsh_deck_free(deck);
    return rc;
}

/* Known-bad kernels, driven through fsh_uniform on the same rng. */
static int run_naive(const struct target *t, fsh_rng *rng, struct walker *w,
                     unsigned n, unsigned *perm)
{
    (void)t, (void)w;
    for (unsigned i = 0; i < n; i++)
        perm[i] = i;
    for (unsigned i = 0; i < n; i++) {
        uint64_t j;
        int rc = fsh_uniform(rng, &j, n); /* the bug: j in [0, n) */
        if (rc != FSH_OK)
            return rc;
        unsigned x = perm[i];
        perm[i] = perm[j];
        perm[j] = x;
    }
    return FSH_OK;
}

static int run_sattolo(const struct target *t, fsh_rng *rng, struct walker *w,
                       unsigned n, unsigned *perm)
{
    (void)t, (void)w;
    for (unsigned i = 0; i < n; i++)
        perm[i] = i;
    for (unsigned i = n - 1; i > 0 && n > 0; i--) {
        uint64_t j;
        int rc = fsh_uniform(rng, &j, i); /* the bug: j in [0, i) */
        if (rc != FSH_OK)
            return rc;
        unsigned x = perm[i];
        perm[i] = perm[j];
        perm[j] = x;
    }
    return FSH_OK;
}

static const struct target targets[] = {
    {"fsh_shuffle size 1", run_shuffle, 1, 0, 0},
    {"fsh_shuffle size 2", run_shuffle, 2, 0, 0},
    {"fsh_shuffle size 3", run_shuffle, 3, 0, 0},
    {"fsh_shuffle size 4", run_shuffle, 4, 0, 0},
    {"fsh_shuffle size 8", run_shuffle, 8, 0, 0},
    {"fsh_shuffle size 16", run_shuffle, 16, 0, 0},
    {"fsh_shuffle size 24", run_shuffle, 24, 0, 0},
    {"fsh_shuffle size 64", run_shuffle, 64, 0, 0},
    {"fsh_shuffle_u32", run_shuffle_u32, 0, 0, 0},
    {"fsh_shuffle_u64", run_shuffle_u64, 0, 0, 0},
    {"fsh_shuffle_ptr", run_shuffle_ptr, 0, 0, 0},
    {"fsh_rng_from_randint + fsh_shuffle", run_shuffle_randint, 8, 1, 0},
    {"fsh_permutation", run_permutation, 0, 0, 0},
    {"fsh_permutation_u32", run_permutation_u32, 0, 0, 0},
    {"fsh_deck_deal (fresh deck)", run_deck, 0, 0, 0},
    {"fsh_deck_deal (after a partial deal)", run_deck, 1, 0, 0},
    {"forward Fisher-Yates size 1", run_forward, 1, 0, 1},
    {"forward Fisher-Yates size 2", run_forward, 2, 0, 1},
    {"forward Fisher-Yates size 4", run_forward, 4, 0, 1},
    {"forward Fisher-Yates size 8", run_forward, 8, 0, 1},
    {"forward Fisher-Yates size 12", run_forward, 12, 0, 1},
    {"forward Fisher-Yates size 16", run_forward, 16, 0, 1},
    {"forward Fisher-Yates size 32", run_forward, 32, 0, 1},
    {"forward Fisher-Yates size 5", run_forward, 5, 0, 1},
};

static const struct target naive = {"naive shuffle", run_naive, 0, 0, 0};
static const struct target sattolo = {"Sattolo", run_sattolo, 0, 0, 0};

/* ------------------------------------------------------------------------ */
/* Driving a target through every leaf                                      */

struct result {
    uint64_t leaves;
    uint64_t bad_status, not_perm, ragged, word_mismatch;
    int mismatch, overflow;
};

static uint32_t counts[362880], counts_w[362880];

/* Word that Lemire's method maps to draw j of bound s, accepted at once. */
static uint64_t word_for(uint64_t j, uint64_t s)
{
    fsh_u128 top = ((fsh_u128)(j + 1) << 64) - 1;
    return (uint64_t)(top / s);
}

struct script {
    uint64_t w[2 * MAXD];
    unsigned n, pos;
};
static uint64_t script_word(void *ctx)
{
    struct script *s = ctx;
    /* Past the script (the rng reads ahead): words no kernel will use. */
    uint64_t w = s->pos < s->n ? s->w[s->pos] : 0;
    s->pos++;
    return w;
}

/* Walk every leaf of target t at size n; counts[rank]++ for each. With
   words != 0 also replay each leaf through the word-level path. */
static struct result enumerate(const struct target *t, unsigned n, int words)
{
    struct result r = {0};
    struct walker w;
    fsh_rng *rng, *wrng;
    unsigned perm[MAXN], perm_w[MAXN];
    unsigned depth = 0;
    memset(counts, 0, sizeof(uint32_t) * fact[n]);
    memset(counts_w, 0, sizeof(uint32_t) * fact[n]);
    if (fsh_rng_new(&rng) != FSH_OK || fsh_rng_new(&wrng) != FSH_OK)
        abort();
    walk_start(&w);
    if (fsh_rng_from_randint(rng, walk_randint, &w) != FSH_OK)
        abort();
    do {
        if (t->run(t, rng, &w, n, perm) != FSH_OK)
            r.bad_status++;
        if (r.leaves == 0)
            depth = w.pos;
        else if (w.pos != depth)
            r.ragged++;
        uint32_t k = rank_perm(perm, n);
        if (k < fact[n])
            counts[k]++;
        else
            r.not_perm++;
        if (words) {
            /* The kernels draw dice in batches (fsh_batch_plan: bounds b,
               b-1, ... while the product P stays under the cap), one word
               per batch: the batch's digits read as one mixed-radix number
               R in [0, P), and word_for(R, P) is the word Lemire's method
               maps to R. A batch cut short (the deck dropping its pending
               draws on an O(1) shuffle) pads its unused digits with 0. On
               odd leaves a rejected word 0 precedes each batch whose P is
               not a power of two. */
            /* The forward kernel's batches (section 5d): bounds b, b+1,
               ..., six at a time at these sizes, the last cut short. */
            struct script sc = {{0}, 0, 0};
            for (unsigned d = 0; d < w.pos;) {
                uint64_t b = w.bound[d], p = 1;
                unsigned kb, used = 0;
                if (t->forward) {
                    kb = n - (unsigned)b + 1 < 6 ? n - (unsigned)b + 1 : 6;
                    for (unsigned e = 0; e < kb; e++)
                        p *= b + e;
                } else {
                    kb = fsh_batch_plan(b, FSH_BATCH_CAP, &p);
                }
                uint64_t rnum = 0;
                for (unsigned e = 0; e < kb; e++) {
                    uint64_t digit = 0, be = t->forward ? b + e : b - e;
                    if (used == e && d + e < w.pos && w.bound[d + e] == be) {
                        digit = w.digit[d + e];
                        used++;
                    }
                    rnum = rnum * be + digit;
                }
                if ((r.leaves & 1) && (p & (p - 1)) != 0)
                    sc.w[sc.n++] = 0;
                sc.w[sc.n++] = word_for(rnum, p);
                d += used;
            }
            if (fsh_rng_from_words(wrng, script_word, &sc) != FSH_OK ||
                t->run(t, wrng, &w, n, perm_w) != FSH_OK ||
                memcmp(perm, perm_w, n * sizeof *perm) != 0 ||
                fsh_rng_bits_used(wrng) != 64u * sc.n)
                r.word_mismatch++;
            else
                counts_w[k < fact[n] ? k : 0]++;
        }
        r.leaves++;
        r.mismatch |= w.mismatch;
        r.overflow |= w.overflow;
    } while (walk_next(&w));
    fsh_rng_free(rng);
    fsh_rng_free(wrng);
    return r;
}

/* Every order exactly once, at leaves of equal depth. */
static int uniform_once(const struct result *r, unsigned n)
{
    if (r->leaves != fact[n] || r->bad_status || r->not_perm || r->ragged ||
        r->mismatch || r->overflow)
        return 0;
    for (uint32_t k = 0; k < fact[n]; k++)
        if (counts[k] != 1)
            return 0;
    return 1;
}

static void unrank(uint32_t k, unsigned n, unsigned *perm)
{
    unsigned used = 0;
    for (unsigned i = 0; i < n; i++) {
        uint32_t f = fact[n - 1 - i], q = k / f;
        k %= f;
        for (unsigned v = 0; v < n; v++) {
            if (used >> v & 1u)
                continue;
            if (q-- == 0) {
                perm[i] = v;
                used |= 1u << v;
                break;
            }
        }
    }
}

/* Print counts per order as 1-based tuples, the seed document's notation. */
static void print_counts(const char *name, unsigned n, uint64_t leaves)
{
    printf("  %s, n = %u: %llu equally likely draw sequences over %u orders\n",
           name, n, (unsigned long long)leaves, (unsigned)fact[n]);
    for (uint32_t k = 0; k < fact[n]; k++) {
        unsigned p[MAXN];
        unrank(k, n, p);
        printf("    (");
        for (unsigned i = 0; i < n; i++)
            printf("%s%u", i ? ", " : "", p[i] + 1);
        printf("): %2u  (%.0f per million)\n", (unsigned)counts[k],
               1e6 * counts[k] / (double)leaves);
    }
}

static void test_walker(void)
{
    /* The walker itself: bounds 3 then 2 give 6 leaves in odometer order. */
    struct walker w;
    walk_start(&w);
    unsigned seen[6][2], nleaf = 0;
    do {
        uint64_t a = walk_randint(&w, 3), b = walk_randint(&w, 2);
        if (nleaf < 6) {
            seen[nleaf][0] = (unsigned)a;
            seen[nleaf][1] = (unsigned)b;
        }
        nleaf++;
    } while (walk_next(&w));
    CHECK_EQ(nleaf, 6);
    static const unsigned want[6][2] = {{1, 1}, {1, 2}, {2, 1},
                                        {2, 2}, {3, 1}, {3, 2}};
    CHECK(memcmp(seen, want, sizeof want) == 0);

    /* Ranking: identity is 0, reversed is n! - 1, round trip via unrank. */
    unsigned p[MAXN];
    for (unsigned n = 1; n <= 7; n++)
        for (uint32_t k = 0; k < fact[n]; k++) {
            unrank(k, n, p);
            if (rank_perm(p, n) != k) {
                CHECK(0);
                return;
            }
        }
    unsigned dup[3] = {0, 0, 1};
    CHECK_EQ(rank_perm(dup, 3), 6);
}

int main(void)
{
    test_walker();

    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        const struct target *t = &targets[i];
        int ok_all = 1;
        for (unsigned n = 1; n <= MAXN; n++) {
            int words = n <= 6 && !t->no_rng;
            struct result r = enumerate(t, n, words);
            int ok = uniform_once(&r, n);
            CHECK(ok);
            if (words) {
                CHECK_EQ(r.word_mismatch, 0);
                for (uint32_t k = 0; k < fact[n]; k++)
                    if (counts_w[k] != 1) {
                        CHECK(0);
                        break;
                    }
            }
            if (!ok) {
                ok_all = 0;
                fprintf(stderr, "  %s not uniform at n = %u: %llu leaves, "
                        "%llu bad status, %llu non-permutations, %llu "
                        "ragged\n", t->name, n,
                        (unsigned long long)r.leaves,
                        (unsigned long long)r.bad_status,
                        (unsigned long long)r.not_perm,
                        (unsigned long long)r.ragged);
            }
        }
        printf("  %-38s n = 1..%d: each order exactly once%s\n", t->name,
               MAXN, ok_all ? "" : " -- FAILED");
    }

    /* The naive shuffle: n^n leaves over n! orders cannot be uniform. */
    for (unsigned n = 3; n <= 4; n++) {
        struct result r = enumerate(&naive, n, 0);
        uint64_t nn = 1;
        for (unsigned i = 0; i < n; i++)
            nn *= n;
        CHECK(r.leaves == nn);
        CHECK(!uniform_once(&r, n));
        uint32_t lo = UINT32_MAX, hi = 0;
        uint64_t sum = 0;
        for (uint32_t k = 0; k < fact[n]; k++) {
            lo = counts[k] < lo ? counts[k] : lo;
            hi = counts[k] > hi ? counts[k] : hi;
            sum += counts[k];
        }
        CHECK(sum == nn);
        CHECK(lo < hi);
        print_counts("naive shuffle (known bad)", n, r.leaves);
        if (n == 3) {
            /* 27 outcomes: (1,2,3) (1,3,2) (2,1,3) (2,3,1) (3,1,2) (3,2,1)
               in rank order get 4 5 5 5 4 4. */
            static const uint32_t want3[6] = {4, 5, 5, 5, 4, 4};
            CHECK(memcmp(counts, want3, sizeof want3) == 0);
        }
        if (n == 4) {
            CHECK_EQ(lo, 8);  /* 256 over 24: from 8 ...   */
            CHECK_EQ(hi, 15); /* ... to 15 per order        */
        }
    }
    /* Sattolo's algorithm reaches only the (n-1)! cyclic orders. */
    for (unsigned n = 3; n <= 5; n++) {
        struct result r = enumerate(&sattolo, n, 0);
        CHECK(r.leaves == fact[n - 1]);
        CHECK(!uniform_once(&r, n));
    }
    printf("  naive shuffle and Sattolo: caught by the same check\n");
    return check_done("test_enum");
}
