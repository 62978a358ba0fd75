/* SPDX-License-Identifier: MIT */
/* The calls other than the deck's (test_deck_hw) that mix hardware words
 * into their draws: fsh_shuffle (the typed forms and fsh_shuffle_threads
 * take the same path), fsh_permutation, fsh_sample_range and
 * fsh_rangeperm_next_n, with an OS-keyed ChaCha rng whose cap is lifted,
 * whose key is fixed and whose hardware source is a scripted fake
 * (fake_hw.h), so every run replays. Each case, at sizes whose reseeds
 * fill less than one piece of 64 (256 words), exactly one, one more, two
 * and one, and thousands, is checked against a golden printed by this
 * test (FSH_PRINT_GOLDENS=1) on the code before session 19, which drew
 * all of a call's hardware words first: the output's FNV-1a hash, the
 * hardware words and the rng's next word. A source that fails part-way
 * (at once, in the first piece, at the second piece's first word, one
 * past it, half-way, at the last word) gives what it gave then: strict
 * FULL, the call refused with FSH_ENOHWRAND and nothing changed (the
 * array or out as they were, no hardware bits counted, and the same call
 * made again with the words the source would have given gives the
 * golden: the rng and a range permutation's storage were put back);
 * FULL | KEY, the draws made unmixed, bounded by the key, as with a
 * source that fails at once. fsh_sample_range over its array (n = hi -
 * lo + 1 <= 2^32 values and floor((n - 1) / 10) < k, that is n <= 10 k)
 * draws its words a piece at a time: never more than 256 a request; over
 * its map (n = 10 k + 1) all at once. */
#include "check.h"
#include "fairshuf.h"
#include "fake_hw.h"

#include <stdlib.h>
#include <string.h>

static fake_hw hw;

enum op { SHUFFLE, PERM, SAMPLE, RANGEPERM };

typedef struct mcase {
    enum op op;
    uint64_t lo, hi; /* SHUFFLE: hi + 1 elements (lo unused) */
    size_t pre;      /* RANGEPERM: values drawn first, in one call */
    size_t k;        /* SAMPLE, RANGEPERM: values drawn in the call */
    size_t hint;     /* RANGEPERM: fsh_rangeperm_new's */
    int pieces;      /* drawn a piece at a time: at most 256 a request */
    uint64_t words, hash, next; /* goldens */
} mcase;

#define GOLD(w, h, x) (w), UINT64_C(h), UINT64_C(x)

static const mcase cases[] = {
    /* fsh_shuffle_u32: 12, 64, 65, 129 and 6,120 reseeds */
    {SHUFFLE, 0, 415, 0, 0, 0, 0, GOLD(48, 0xec6d1a0651f72c97, 0x4a5ad0ca5c3b3eed)},
    {SHUFFLE, 0, 1725, 0, 0, 0, 0, GOLD(256, 0x3e09ec99c0cf1a0c, 0x391006842ddbe819)},
    {SHUFFLE, 0, 1748, 0, 0, 0, 0, GOLD(260, 0x65261a27cd41ecc5, 0xfa12c25f5f625611)},
    {SHUFFLE, 0, 3177, 0, 0, 0, 0, GOLD(516, 0x496c157848109518, 0xc5bbade689ddf6c7)},
    {SHUFFLE, 0, 99999, 0, 0, 0, 0, GOLD(24480, 0xce06fe01eac277fd, 0x7028535f7bafa882)},
    /* fsh_permutation */
    {PERM, 1000, 4177, 0, 0, 0, 0, GOLD(516, 0x7e66b0dfc3b5e658, 0xc5bbade689ddf6c7)},
    {PERM, 5, 20004, 0, 0, 0, 0, GOLD(4112, 0xb386d21bc5e30ef7, 0x63361fad957dc4d5)},
    /* fsh_sample_range over its array: 64, 65, 129 reseeds, all 10,000,
       and a shifted range */
    {SAMPLE, 0, 9999, 0, 1217, 0, 1, GOLD(256, 0xcd6803c26cdd7db8, 0x5910125df9f73229)},
    {SAMPLE, 0, 9999, 0, 1236, 0, 1, GOLD(260, 0x79d3b1b68db71982, 0x500078c732b5cac2)},
    {SAMPLE, 0, 9999, 0, 2452, 0, 1, GOLD(516, 0x46197acfd8d99e09, 0x87056b2238edd571)},
    {SAMPLE, 0, 9999, 0, 10000, 0, 1, GOLD(1896, 0xbd78101e1e85483d, 0x682a786b18ab6cd5)},
    {SAMPLE, 7, 30006, 0, 20000, 0, 1, GOLD(4568, 0x0948834d46a83a13, 0xc8d08f20c116280c)},
    /* over its map */
    {SAMPLE, 0, 999999, 0, 2000, 0, 0, GOLD(664, 0x9d3fa5473984fe37, 0x73ab84bab75e5ea3)},
    {SAMPLE, 0, UINT64_MAX, 0, 300, 0, 0, GOLD(296, 0xf707e448e1db3a2f, 0xff88cb32d92730ce)},
    {SAMPLE, 0, UINT32_MAX, 0, 2000, 0, 0, GOLD(996, 0x1b42b0797bb7ba47, 0x16a9ead84ede45b2)},
    /* fsh_rangeperm_next_n: map (hint 0), array (the hint), after a first
       call, the full 64-bit range */
    {RANGEPERM, 0, 99999, 0, 20000, 0, 0, GOLD(5332, 0x88d7d774aea8ffcd, 0x9e2ef19644b20ad5)},
    {RANGEPERM, 0, 29999, 1000, 5000, 20000, 0, GOLD(1176, 0x81d8475221b69b3a, 0xd9cd97ada243b8fb)},
    {RANGEPERM, 3, 999999, 333, 3000, 0, 0, GOLD(1000, 0x11aa8b775dc12a67, 0x8dcfae7399ffa22e)},
    {RANGEPERM, 0, UINT64_MAX, 7, 300, 0, 0, GOLD(300, 0x9835d4b677feeb73, 0xde084b31b4df7107)},
};
#define NCASES (sizeof cases / sizeof cases[0])

#define MAXN 100000
#define SENTINEL UINT64_C(0xA5A5A5A5A5A5A5A5)

/* What a call left. */
typedef struct after {
    int rc;
    int kept;     /* the array, or out, as before the call */
    uint64_t hash; /* FNV-1a of its output */
    uint64_t hw_words, hw_bits, next; /* the call's words and bits */
    size_t most;
    uint64_t drawn; /* RANGEPERM: fsh_rangeperm_drawn after */
} after;

static uint64_t fnv64(const uint64_t *a, size_t n)
{
    uint64_t h = UINT64_C(0xCBF29CE484222325);
    for (size_t i = 0; i < n; i++)
        h = (h ^ a[i]) * UINT64_C(0x100000001B3);
    return h;
}

static uint32_t a32[MAXN];
static uint64_t out[MAXN];

/* The shuffle's input: distinct, not in order. */
static uint32_t input(size_t i)
{
    return (uint32_t)i * UINT32_C(2654435761);
}

/* The call's output count. */
static size_t out_len(const mcase *c)
{
    return c->op == SHUFFLE || c->op == PERM ? (size_t)(c->hi - c->lo) + 1
                                             : c->k;
}

/* The call of case c on rng (and perm), its output read into out. */
static int call(const mcase *c, fsh_rng *rng, fsh_rangeperm *perm)
{
    size_t n = out_len(c);
    int rc = FSH_EINVAL;
    switch (c->op) {
    case SHUFFLE:
        rc = fsh_shuffle_u32(rng, a32, n);
        for (size_t i = 0; i < n; i++)
            out[i] = a32[i];
        break;
    case PERM:
        rc = fsh_permutation(rng, out, c->lo, c->hi);
        break;
    case SAMPLE:
        rc = fsh_sample_range(rng, out, c->k, c->lo, c->hi);
        break;
    case RANGEPERM:
        rc = fsh_rangeperm_next_n(rng, perm, out, c->k);
        break;
    }
    return rc;
}

/* Whether the call's buffer is as it was before it. */
static int kept(const mcase *c)
{
    size_t n = out_len(c);
    int ok = 1;
    for (size_t i = 0; i < n; i++)
        ok &= c->op == SHUFFLE ? a32[i] == input(i) : out[i] == SENTINEL;
    return ok;
}

/* Run case c under policy reach with a source failing past `limit` words
   from the call's start. When the call is refused and `again`, make it
   again with the words the source would have given (its state at the
   call's start) and report that one. */
static void run(after *a, const mcase *c, unsigned reach, uint64_t limit,
                int again)
{
    memset(a, 0, sizeof *a);
    a->rc = -100;
    size_t n = out_len(c);
    fsh_rng *rng = fake_hw_rng(reach);
    fsh_rangeperm *perm = NULL;
    if (rng == NULL || n > MAXN ||
        (c->op == RANGEPERM &&
         fsh_rangeperm_new(&perm, c->lo, c->hi, c->hint) != FSH_OK)) {
        CHECK(0 && "setup");
        goto out;
    }
    fake_hw_init(&hw, 12345);
    if (c->pre > 0 && fsh_rangeperm_next_n(rng, perm, out, c->pre) != FSH_OK) {
        CHECK(0 && "the values before");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        a32[i] = input(i);
        out[i] = SENTINEL;
    }
    uint64_t bits0 = 0;
    if (fsh_rng_entropy_drawn(rng, NULL, &bits0) != FSH_OK)
        CHECK(0 && "fsh_rng_entropy_drawn");
    fake_hw start = hw;
    hw.limit = limit == UINT64_MAX ? limit : hw.words + limit;
    hw.most = 0;
    a->rc = call(c, rng, perm);
    a->kept = kept(c);
    a->most = hw.most;
    if (a->rc != FSH_OK && again) {
        hw = start;
        a->rc = call(c, rng, perm);
    }
    a->hash = fnv64(out, n);
    a->hw_words = hw.words - start.words;
    if (fsh_rng_entropy_drawn(rng, NULL, &a->hw_bits) != FSH_OK ||
        fsh_rng_u64(rng, &a->next) != FSH_OK)
        a->next = 0;
    a->hw_bits -= bits0;
    a->drawn = fsh_rangeperm_drawn(perm);
out:
    fsh_rangeperm_free(perm);
    fsh_rng_free(rng);
}

/* The next word of an rng that made only the case's first values. */
static uint64_t next_without(const mcase *c)
{
    mcase none = *c;
    after a;
    none.op = RANGEPERM; /* k = 0: no draw */
    none.k = 0;
    if (c->op != RANGEPERM) {
        none.lo = 0;
        none.hi = 9;
        none.pre = 0;
    }
    run(&a, &none, FSH_REACH_FULL, UINT64_MAX, 0);
    return a.next;
}

static void test_goldens(int print)
{
    for (size_t t = 0; t < NCASES; t++) {
        const mcase *c = &cases[t];
        check_seed = t;
        after a;
        run(&a, c, FSH_REACH_FULL, UINT64_MAX, 0);
        if (print) {
            printf("    GOLD(%llu, 0x%016llx, 0x%016llx)\n",
                   (unsigned long long)a.hw_words,
                   (unsigned long long)a.hash, (unsigned long long)a.next);
            continue;
        }
        CHECK_EQ(a.rc, FSH_OK);
        CHECK(a.hw_words > 0); /* it did mix */
        CHECK_EQ(a.hw_bits, 64 * a.hw_words);
        CHECK_EQ(a.hw_words, c->words);
        CHECK_EQ(a.hash, c->hash);
        CHECK_EQ(a.next, c->next);
        if (c->pieces)
            CHECK(a.most <= 256);
    }
}

/* The source fails part-way, limit words into the call. */
static void test_failing(void)
{
    for (size_t t = 0; t < NCASES; t++) {
        const mcase *c = &cases[t];
        uint64_t w = c->words;
        const uint64_t limits[] = {0, 255, 256, 257, w / 2, w - 1};
        uint64_t next0 = next_without(c);
        after once;
        run(&once, c, FSH_REACH_FULL | FSH_REACH_KEY, 0, 0);
        for (size_t l = 0; l < sizeof limits / sizeof limits[0]; l++) {
            if (limits[l] >= w || (l > 0 && limits[l] == 0))
                continue;
            check_seed = 1000 * t + l;
            after f;
            /* Strict: refused, nothing changed. */
            run(&f, c, FSH_REACH_FULL, limits[l], 0);
            CHECK_EQ(f.rc, FSH_ENOHWRAND);
            CHECK(f.kept);
            CHECK_EQ(f.hw_bits, 0);
            CHECK_EQ(f.next, next0);
            if (c->op == RANGEPERM)
                CHECK_EQ(f.drawn, c->pre);
            /* And made again with the words it would have had: the
               golden. */
            run(&f, c, FSH_REACH_FULL, limits[l], 1);
            CHECK_EQ(f.rc, FSH_OK);
            CHECK_EQ(f.hash, c->hash);
            CHECK_EQ(f.next, c->next);
            /* FULL | KEY: unmixed, as with a source that fails at once. */
            run(&f, c, FSH_REACH_FULL | FSH_REACH_KEY, limits[l], 0);
            CHECK_EQ(f.rc, FSH_OK);
            CHECK_EQ(once.rc, FSH_OK);
            CHECK_EQ(f.hash, once.hash);
            CHECK_EQ(f.next, once.next);
            CHECK_EQ(f.hw_bits, once.hw_bits);
        }
    }
}

/* fsh_sample_range's storage switch at its exact edge, as the header
   states it: the array for n <= 10 k (its words a piece at a time, at most
   256 a request), the map for n = 10 k + 1 (all its words in one request,
   about 560 here: 140 reseeds). Both give k distinct values of the range. */
static void test_array_edge(void)
{
    const size_t k = 2452;
    for (uint64_t extra = 0; extra < 2; extra++) {
        uint64_t n = 10 * (uint64_t)k + extra, lo = 77;
        fsh_rng *rng = fake_hw_rng(FSH_REACH_FULL);
        CHECK(rng != NULL);
        if (rng == NULL)
            return;
        fake_hw_init(&hw, 999);
        CHECK_EQ(fsh_sample_range(rng, out, k, lo, lo + n - 1), FSH_OK);
        if (extra == 0)
            CHECK(hw.most <= 256 && hw.calls > 1);
        else
            CHECK(hw.most > 256 && hw.calls == 1);
        CHECK(hw.words > 512);
        unsigned char *seen = calloc((size_t)n, 1);
        int ok = seen != NULL;
        for (size_t i = 0; ok && i < k; i++) {
            ok = out[i] >= lo && out[i] - lo < n && !seen[out[i] - lo];
            if (ok)
                seen[out[i] - lo] = 1;
        }
        CHECK(ok);
        free(seen);
        fsh_rng_free(rng);
    }
}

int main(void)
{
    const char *p = getenv("FSH_PRINT_GOLDENS");
    int print = p != NULL && p[0] == '1';
    fake_hw_init(&hw, 12345);
    fake_hw_on(&hw, 1);
    test_goldens(print);
    if (!print) {
        test_failing();
        test_array_edge();
    }
    fake_hw_off();
    return check_done("test_mix_hw");
}
