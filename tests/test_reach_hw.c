/* SPDX-License-Identifier: MIT */
/* Reachability beyond the 256-bit key, instrumented: the hardware source is
 * replaced by a counting fake (rng/hwrand.h's test hook), which can also be
 * absent or failing, and every operation's draws are counted per source:
 * OS key bits and hardware bits (fsh_rng_entropy_drawn), stream words
 * (fsh_rng_bits_used), and the fake's own count. Cases: 52, 57, 58 and 60
 * cards, 416 distinct cards (an 8-deck shoe's size), 10^6 elements, ordered
 * samples and the incremental range permutation, the reservoir, the
 * policies (default, strict FULL, KEY, FULL | KEY, 0), the cap boundary,
 * seeded and simulation grade, the certified-source (direct) mode against
 * the plain Fisher-Yates kernel on the same words, and a chi-square of
 * the mixed path. The group counts are recomputed here with a separate
 * bignum: a group takes draws while the product of their ranges is at
 * most 2^256. */
#include "check.h"
#include <math.h>
#include "fairshuf.h"
#include "fake_hw.h"
#include "rng/rng.h"
#include "sample/sample.h"
#include "shuffle/fy.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* The fake hardware source (fake_hw.h)                                     */

static fake_hw hw;

static void fake_on(int present, int fail)
{
    hw.fail = fail;
    fake_hw_on(&hw, present);
}

/* ------------------------------------------------------------------------ */
/* Group counts, separately: 32-bit limbs, product <= 2^256.                */

#define L 12
typedef struct big {
    uint32_t l[L];
} big;

static void one(big *x)
{
    memset(x, 0, sizeof *x);
    x->l[0] = 1;
}

/* y = x * (m1 + 1); m1 = UINT64_MAX is the factor 2^64. */
static void mul(big *y, const big *x, uint64_t m1)
{
    memset(y, 0, sizeof *y);
    if (m1 == UINT64_MAX) {
        for (int i = 0; i + 2 < L; i++)
            y->l[i + 2] = x->l[i];
        return;
    }
    uint64_t f = m1 + 1;
    uint32_t fl[2] = {(uint32_t)f, (uint32_t)(f >> 32)};
    for (int a = 0; a < 2; a++) {
        uint64_t carry = 0;
        for (int i = 0; i + a < L; i++) {
            uint64_t t = (uint64_t)x->l[i] * fl[a] + y->l[i + a] + carry;
            y->l[i + a] = (uint32_t)t;
            carry = t >> 32;
        }
    }
}

static int le_2_256(const big *x)
{
    for (int i = 9; i < L; i++)
        if (x->l[i])
            return 0;
    if (x->l[8] > 1)
        return 0;
    if (x->l[8] == 1)
        for (int i = 0; i < 8; i++)
            if (x->l[i])
                return 0;
    return 1;
}

/* Groups of the k draws with ranges last + 1, last, ... */
static uint64_t groups(uint64_t last, uint64_t k)
{
    big acc, t;
    one(&acc);
    uint64_t g = k > 0;
    for (uint64_t i = 0; i < k; i++) {
        mul(&t, &acc, last - i);
        if (le_2_256(&t)) {
            acc = t;
        } else {
            g++;
            one(&acc);
            mul(&t, &acc, last - i);
            acc = t;
        }
    }
    return g;
}

/* Hardware bits a shuffle of n mixes in: 256 per group after the first. */
static uint64_t shuffle_hw(uint64_t n)
{
    return n < 2 ? 0 : 256 * (groups(n - 1, n - 1) - 1);
}

/* ------------------------------------------------------------------------ */
/* Counters around one operation                                            */

typedef struct meter {
    uint64_t os, hw, words, fake_words;
} meter;

static meter read_meter(const fsh_rng *rng)
{
    meter m;
    CHECK_EQ(fsh_rng_entropy_drawn(rng, &m.os, &m.hw), FSH_OK);
    m.words = fsh_rng_bits_used(rng) / 64;
    m.fake_words = hw.words;
    return m;
}

static uint32_t *arr;

static void iota32(size_t n)
{
    for (size_t i = 0; i < n; i++)
        arr[i] = (uint32_t)i;
}

static int is_perm(size_t n)
{
    char *seen = calloc(n, 1);
    int ok = seen != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        ok = arr[i] < n && !seen[arr[i]];
        if (ok)
            seen[arr[i]] = 1;
    }
    free(seen);
    return ok;
}

static int untouched(size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (arr[i] != i)
            return 0;
    return 1;
}

/* Shuffle n with rng; the meter's deltas: hardware bits, stream words,
   the fake's words, OS bits (never drawn by an operation). */
static int shuffle_metered(fsh_rng *rng, size_t n, meter *d)
{
    iota32(n);
    meter a = read_meter(rng);
    int rc = fsh_shuffle_u32(rng, arr, n);
    meter b = read_meter(rng);
    d->os = b.os - a.os;
    d->hw = b.hw - a.hw;
    d->words = b.words - a.words;
    d->fake_words = b.fake_words - a.fake_words;
    if (rc == FSH_OK)
        CHECK(is_perm(n));
    else
        CHECK(untouched(n));
    return rc;
}

/* ------------------------------------------------------------------------ */

/* The default policy with a (fake) hardware source. */
static void test_default_shuffles(void)
{
    fsh_rng *rng;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    meter m = read_meter(rng);
    CHECK_EQ(m.os, 256); /* the one OS key */
    CHECK_EQ(m.hw, 0);
    CHECK_EQ(fsh_rng_get_reach(rng), FSH_REACH_DEFAULT);
    CHECK_EQ(fsh_rng_get_hw_cap(rng), FSH_HW_CAP_DEFAULT);

    static const size_t ns[] = {2, 52, 57, 58, 60, 100, 416, 1000, 5000};
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        size_t n = ns[t];
        check_seed = n;
        meter d;
        uint64_t plan = 1;
        CHECK_EQ(fsh_rng_reach_plan(rng, &plan, n - 1, n - 1), FSH_OK);
        CHECK_EQ(shuffle_metered(rng, n, &d), FSH_OK);
        uint64_t want = shuffle_hw(n);
        CHECK_EQ(d.hw, want);
        CHECK_EQ(plan, want);
        CHECK_EQ(d.fake_words, want / 64);
        CHECK_EQ(d.os, 0);
        /* The fresh entropy behind the call covers its orders: the key's
           256 bits plus the hardware's, against log2 n!. */
        CHECK(256.0 + (double)d.hw >= fsh_ordered_bits(n, n));
        CHECK(d.words >= n - 1 || n <= 57); /* one word per step when mixed */
        if (n <= 57)
            CHECK_EQ(d.hw, 0);
        else
            CHECK(d.hw > 0);
    }
    /* Every entry point mixes the same: typed, any element size, threaded,
       permutations, record shuffles (fsh_shuffle below 2^20 records). */
    {
        static unsigned char b3[3 * 416];
        static uint64_t p64[416];
        static uint32_t p32[416];
        for (size_t i = 0; i < sizeof b3; i++)
            b3[i] = (unsigned char)(i / 3);
        meter a = read_meter(rng);
        CHECK_EQ(fsh_shuffle(rng, b3, 416, 3), FSH_OK);
        CHECK_EQ(fsh_shuffle_threads(rng, p64, 416, 8, 2), FSH_OK);
        CHECK_EQ(fsh_permutation(rng, p64, 1, 416), FSH_OK);
        CHECK_EQ(fsh_permutation_u32(rng, p32, 1, 416), FSH_OK);
        CHECK_EQ(fsh_shuffle_records(rng, p32, 416, 4, 2), FSH_OK);
        CHECK_EQ(fsh_shuffle_ptr(rng, (void **)p64, 416), FSH_OK);
        CHECK_EQ(read_meter(rng).hw - a.hw, 6 * 3072);
        /* Elements of 3 bytes stay whole: each triple is one value. */
        int whole = 1;
        for (size_t i = 0; i < 416; i++)
            whole &= b3[3 * i] == b3[3 * i + 1] && b3[3 * i] == b3[3 * i + 2];
        CHECK(whole);
    }
    /* The figures of docs/FAIRNESS.md. */
    CHECK_EQ(shuffle_hw(60), 256);
    CHECK_EQ(shuffle_hw(416), 3072);
    fprintf(stderr, "test_reach_hw: hardware bits: 58 -> %llu, 60 -> %llu, "
                    "416 -> %llu (log2 416! = %.1f)\n",
            (unsigned long long)shuffle_hw(58),
            (unsigned long long)shuffle_hw(60),
            (unsigned long long)shuffle_hw(416), fsh_ordered_bits(416, 416));

    /* 10^6 elements: above the default cap, bounded by the key (no
       hardware, the speed of before); strict FULL refuses; with the cap
       raised the hardware covers log2(10^6!) ~ 18.5 Mbit. */
    size_t big_n = 1000000;
    meter d;
    check_seed = big_n;
    CHECK_EQ(shuffle_metered(rng, big_n, &d), FSH_OK);
    CHECK_EQ(d.hw, 0);
    CHECK_EQ(d.fake_words, 0);
    uint64_t plan = 1;
    CHECK_EQ(fsh_rng_reach_plan(rng, &plan, big_n - 1, big_n - 1), FSH_OK);
    CHECK_EQ(plan, 0);
    CHECK_EQ(fsh_rng_set_reach(rng, FSH_REACH_FULL), FSH_OK);
    CHECK_EQ(shuffle_metered(rng, big_n, &d), FSH_EENTROPY);
    CHECK_EQ(d.hw, 0);
    CHECK_EQ(d.words, 0);
    CHECK_EQ(fsh_rng_set_hw_cap(rng, 20000000), FSH_OK);
    CHECK_EQ(shuffle_metered(rng, big_n, &d), FSH_OK);
    uint64_t want = shuffle_hw(big_n);
    CHECK_EQ(d.hw, want);
    CHECK_EQ(d.fake_words, want / 64);
    CHECK(256.0 + (double)d.hw >= fsh_ordered_bits(big_n, big_n));
    /* The groups' products leave part of each 256 bits unused: about half
       a step's range per group (~4 % at this size). */
    CHECK(d.hw < (uint64_t)(fsh_ordered_bits(big_n, big_n) * 1.05));
    fprintf(stderr, "test_reach_hw: 1e6 elements: log2 n! = %.0f, hardware "
                    "bits mixed = %llu\n",
            fsh_ordered_bits(big_n, big_n), (unsigned long long)d.hw);
    fsh_rng_free(rng);
}

/* The cap's boundary: the largest n the cap covers is fsh_rng_max_fair_n,
   accepted with mixing under strict FULL; n + 1 is refused. */
static void test_cap_boundary(void)
{
    fsh_rng *rng;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    static const uint64_t caps[] = {0, 255, 256, 1024, 4096, 65536};
    for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
        check_seed = caps[c];
        CHECK_EQ(fsh_rng_set_hw_cap(rng, caps[c]), FSH_OK);
        CHECK_EQ(fsh_rng_set_reach(rng, FSH_REACH_FULL), FSH_OK);
        size_t n = fsh_rng_max_fair_n(rng);
        CHECK(n >= 57 && n < 10000);
        CHECK(shuffle_hw(n) <= caps[c]);
        CHECK(shuffle_hw(n + 1) > caps[c]);
        meter d;
        CHECK_EQ(shuffle_metered(rng, n, &d), FSH_OK);
        CHECK_EQ(d.hw, shuffle_hw(n));
        CHECK_EQ(shuffle_metered(rng, n + 1, &d), FSH_EENTROPY);
        CHECK_EQ(d.hw, 0);
        /* The default (FULL | KEY_LARGE) runs n + 1 bounded by the key. */
        CHECK_EQ(fsh_rng_set_reach(rng, FSH_REACH_DEFAULT), FSH_OK);
        CHECK_EQ(shuffle_metered(rng, n + 1, &d), FSH_OK);
        CHECK_EQ(d.hw, 0);
        if (caps[c] == FSH_HW_CAP_DEFAULT)
            fprintf(stderr, "test_reach_hw: default cap covers shuffles of "
                            "up to %zu elements\n", n);
    }
    /* 57 needs no hardware under any policy; 58 is the first that does. */
    CHECK_EQ(fsh_rng_set_hw_cap(rng, FSH_HW_CAP_DEFAULT), FSH_OK);
    CHECK_EQ(fsh_rng_set_reach(rng, 0), FSH_OK);
    meter d;
    CHECK_EQ(shuffle_metered(rng, 57, &d), FSH_OK);
    CHECK_EQ(shuffle_metered(rng, 58, &d), FSH_EENTROPY);
    CHECK_EQ(fsh_rng_max_fair_n(rng), 57);
    CHECK_EQ(fsh_rng_set_reach(rng, 8), FSH_EINVAL);
    fsh_rng_free(rng);
}

/* No hardware source, and a failing one. */
static void test_absent(void)
{
    fsh_rng *rng;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    for (int mode = 0; mode < 2; mode++) {
        fake_on(mode == 0 ? 0 : 1, mode == 1);
        check_seed = (uint64_t)mode;
        CHECK_EQ(fsh_hw_entropy_available(), mode == 1);
        CHECK_EQ(fsh_rng_set_reach(rng, FSH_REACH_DEFAULT), FSH_OK);
        meter d;
        CHECK_EQ(shuffle_metered(rng, 57, &d), FSH_OK);
        CHECK_EQ(shuffle_metered(rng, 58, &d), FSH_ENOHWRAND);
        CHECK_EQ(shuffle_metered(rng, 416, &d), FSH_ENOHWRAND);
        CHECK_EQ(d.hw, 0);
        uint64_t o[64];
        memset(o, 0, sizeof o);
        CHECK_EQ(fsh_sample_range(rng, o, 60, 0, 59), FSH_ENOHWRAND);
        CHECK_EQ(o[0] | o[59], 0);
        CHECK_EQ(fsh_permutation(rng, o, 0, 59), FSH_ENOHWRAND);
        CHECK_EQ(o[0] | o[59], 0);
        /* Above the cap the default never asks for hardware. */
        CHECK_EQ(shuffle_metered(rng, 100000, &d), FSH_OK);
        /* The caller accepts the key's bound. */
        CHECK_EQ(fsh_rng_set_reach(rng, FSH_REACH_FULL | FSH_REACH_KEY),
                 FSH_OK);
        CHECK_EQ(shuffle_metered(rng, 416, &d), FSH_OK);
        CHECK_EQ(d.hw, 0);
        CHECK_EQ(fsh_rng_set_reach(rng, FSH_REACH_KEY), FSH_OK);
        CHECK_EQ(shuffle_metered(rng, 60, &d), FSH_OK);
        CHECK_EQ(d.hw, 0);
        /* Strict: no. */
        CHECK_EQ(fsh_rng_set_reach(rng, FSH_REACH_FULL), FSH_OK);
        CHECK_EQ(shuffle_metered(rng, 60, &d), FSH_ENOHWRAND);
        CHECK_EQ(shuffle_metered(rng, 100000, &d), FSH_EENTROPY);
        CHECK(strcmp(fsh_strerror(FSH_ENOHWRAND),
                     "no hardware entropy source for an operation beyond 256 "
                     "bits") == 0);
    }
    fake_on(1, 0);
    fsh_rng_free(rng);
}

/* Seeded and simulation grade: refused past the seed's bits, never mixed. */
static void test_seeded(void)
{
    fsh_rng *rng;
    static const char seed[] = "test_reach_hw: thirty-two bytes!";
    CHECK_EQ(fsh_rng_new_seeded(&rng, seed, 32), FSH_OK);
    meter d;
    CHECK_EQ(shuffle_metered(rng, 57, &d), FSH_OK);
    CHECK_EQ(shuffle_metered(rng, 58, &d), FSH_EENTROPY);
    CHECK_EQ(shuffle_metered(rng, 60, &d), FSH_EENTROPY);
    CHECK_EQ(d.words, 0);
    uint64_t o[64];
    CHECK_EQ(fsh_sample_range(rng, o, 58, 0, 57), FSH_EENTROPY);
    /* 58!/4! ~ 2^255.8, 58!/3! ~ 2^257.8. */
    CHECK_EQ(fsh_sample_range(rng, o, 54, 0, 57), FSH_OK);
    CHECK_EQ(fsh_sample_range(rng, o, 55, 0, 57), FSH_EENTROPY);
    /* The reach policy does not apply to a seeded rng. */
    CHECK_EQ(fsh_rng_set_reach(rng, FSH_REACH_KEY), FSH_OK);
    CHECK_EQ(shuffle_metered(rng, 58, &d), FSH_EENTROPY);
    CHECK_EQ(fsh_rng_set_simulation(rng, 1), FSH_OK);
    CHECK_EQ(shuffle_metered(rng, 60, &d), FSH_OK);
    CHECK_EQ(d.hw, 0);
    CHECK_EQ(d.os, 0);
    CHECK_EQ(shuffle_metered(rng, 416, &d), FSH_OK);
    CHECK_EQ(d.hw, 0);
    /* Simulation on an OS rng: no mixing either. */
    CHECK_EQ(fsh_rng_rekey(rng), FSH_OK);
    CHECK_EQ(shuffle_metered(rng, 416, &d), FSH_OK);
    CHECK_EQ(d.hw, 0);
    CHECK_EQ(fsh_rng_set_simulation(rng, 0), FSH_OK);
    CHECK_EQ(fsh_rng_set_reach(rng, FSH_REACH_DEFAULT), FSH_OK);
    CHECK_EQ(shuffle_metered(rng, 416, &d), FSH_OK);
    CHECK_EQ(d.hw, 3072);
    uint64_t os;
    CHECK_EQ(fsh_rng_entropy_drawn(rng, &os, NULL), FSH_OK);
    CHECK_EQ(os, 256); /* one OS keying: fsh_rng_rekey */
    fsh_rng_free(rng);
}

/* Ordered samples: fsh_sample_range plans like a shuffle; fsh_rangeperm
   reseeds draw by draw at the same boundaries. */
static void test_samples(void)
{
    fsh_rng *rng;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    static const uint64_t lasts[] = {59, 415, 999999, UINT64_MAX};
    static uint64_t o[1000];
    for (size_t r = 0; r < sizeof lasts / sizeof lasts[0]; r++) {
        uint64_t last = lasts[r];
        uint64_t k = last < 415 ? last + 1 : 416;
        check_seed = last;
        meter a = read_meter(rng);
        CHECK_EQ(fsh_sample_range(rng, o, (size_t)k, 0, last), FSH_OK);
        meter b = read_meter(rng);
        CHECK_EQ(b.hw - a.hw, 256 * (groups(last, k) - 1));
        int distinct = 1;
        for (size_t i = 0; i < k; i++)
            for (size_t j = 0; j < i; j++)
                distinct &= o[i] != o[j];
        CHECK(distinct);
        /* Draw by draw: the hardware bits after each draw are those of the
           prefix's groups. */
        fsh_rangeperm *p;
        CHECK_EQ(fsh_rangeperm_new(&p, 0, last, 0), FSH_OK);
        a = read_meter(rng);
        int ok = 1;
        for (uint64_t i = 1; i <= k; i++) {
            uint64_t v;
            ok &= fsh_rangeperm_next(rng, p, &v) == FSH_OK;
            b = read_meter(rng);
            ok &= b.hw - a.hw == 256 * (groups(last, i) - 1);
        }
        CHECK(ok);
        fsh_rangeperm_free(p);
    }
    /* The range permutation past the cap: the default goes on bounded by
       the key, strict FULL refuses (nothing drawn). */
    CHECK_EQ(fsh_rng_set_hw_cap(rng, 512), FSH_OK);
    for (int strict = 0; strict < 2; strict++) {
        CHECK_EQ(fsh_rng_set_reach(rng, strict ? FSH_REACH_FULL
                                               : FSH_REACH_DEFAULT),
                 FSH_OK);
        fsh_rangeperm *p;
        CHECK_EQ(fsh_rangeperm_new(&p, 0, UINT64_MAX, 0), FSH_OK);
        meter a = read_meter(rng);
        uint64_t v, drawn = 0;
        int rc = FSH_OK;
        while (drawn < 40 && (rc = fsh_rangeperm_next(rng, p, &v)) == FSH_OK)
            drawn++;
        meter b = read_meter(rng);
        CHECK_EQ(b.hw - a.hw, 512);
        if (strict) {
            /* Groups of 4 draws of 2^64 each: 3 groups fit the cap. */
            CHECK_EQ(drawn, 12);
            CHECK_EQ(rc, FSH_EENTROPY);
            CHECK_EQ(fsh_rangeperm_drawn(p), 12);
        } else {
            CHECK_EQ(drawn, 40);
        }
        fsh_rangeperm_free(p);
    }
    /* The same in batches (fsh_rangeperm_next_n): a batch is checked
       whole, far past the cap (the prefix's size says so at once) or just
       past it (the groups are counted), from a fresh permutation or after
       mixed draws. Strict FULL refuses a batch that would pass 3 groups
       and draws nothing; the default runs it bounded by the key, with no
       hardware words at all. */
    for (int strict = 0; strict < 2; strict++) {
        CHECK_EQ(fsh_rng_set_reach(rng, strict ? FSH_REACH_FULL
                                               : FSH_REACH_DEFAULT),
                 FSH_OK);
        static const struct {
            uint64_t first, batch; /* one by one, then one batch */
        } bs[] = {{0, 40}, {0, 1000}, {0, 13}, {0, 12}, {5, 8},
                  {5, 7},  {5, 500},  {12, 1}, {12, 100}};
        static uint64_t ob[1000];
        for (size_t t = 0; t < sizeof bs / sizeof bs[0]; t++) {
            fsh_rangeperm *p;
            CHECK_EQ(fsh_rangeperm_new(&p, 0, UINT64_MAX, 0), FSH_OK);
            meter a = read_meter(rng);
            int ok = 1;
            for (uint64_t i = 0; i < bs[t].first; i++)
                ok &= fsh_rangeperm_next(rng, p, &ob[0]) == FSH_OK;
            CHECK(ok);
            meter b = read_meter(rng);
            /* 4 draws of 2^64 a group: first draws, 256 bits a group */
            uint64_t hw_first = 256 * ((bs[t].first + 3) / 4 - !!bs[t].first);
            CHECK_EQ(b.hw - a.hw, hw_first);
            int rc = fsh_rangeperm_next_n(rng, p, ob, (size_t)bs[t].batch);
            meter c = read_meter(rng);
            uint64_t all = bs[t].first + bs[t].batch;
            if (all <= 12) { /* 3 groups: within the cap, mixed */
                CHECK_EQ(rc, FSH_OK);
                CHECK_EQ(c.hw - a.hw, 256 * ((all + 3) / 4 - 1));
                CHECK_EQ(fsh_rangeperm_drawn(p), all);
            } else if (strict) {
                CHECK_EQ(rc, FSH_EENTROPY);
                CHECK_EQ(c.hw, b.hw);
                CHECK_EQ(c.words, b.words); /* nothing drawn */
                CHECK_EQ(fsh_rangeperm_drawn(p), bs[t].first);
            } else {
                CHECK_EQ(rc, FSH_OK);
                CHECK_EQ(c.hw, b.hw);
                CHECK_EQ(c.words - b.words, bs[t].batch);
                CHECK_EQ(fsh_rangeperm_drawn(p), all);
                /* bounded by the key from here: no more hardware */
                CHECK_EQ(fsh_rangeperm_next_n(rng, p, ob, 20), FSH_OK);
                CHECK_EQ(read_meter(rng).hw, b.hw);
            }
            fsh_rangeperm_free(p);
        }
    }
    /* The reservoir: along one Algorithm R stream (k = 100 of 2,000 items)
       the rng is reseeded from hardware each time log2 C(seen + 1, k)
       passes another 256 bits beyond the key, so the hardware bits after
       each step are 256 ceil((log2 C - 256) / 256) (log2 C from lgamma
       here, a separate computation). */
    size_t slot;
    CHECK_EQ(fsh_rng_set_reach(rng, FSH_REACH_DEFAULT), FSH_OK);
    CHECK_EQ(fsh_rng_set_hw_cap(rng, FSH_HW_CAP_DEFAULT), FSH_OK);
    for (int absent = 0; absent < 2; absent++) {
        fake_on(!absent, 0);
        meter a = read_meter(rng);
        int ok = 1, rc = FSH_OK;
        uint64_t seen;
        for (seen = 100; seen < 2000; seen++) {
            double c = (lgamma((double)seen + 2) - lgamma(101.0) -
                        lgamma((double)seen - 98)) / log(2.0);
            uint64_t need = c <= 256 ? 0 : (uint64_t)ceil((c - 256) / 256);
            if ((rc = fsh_reservoir_slot(rng, &slot, 100, seen)) != FSH_OK) {
                /* Without hardware: refused exactly where mixing is due. */
                ok &= absent && rc == FSH_ENOHWRAND && need == 1;
                break;
            }
            ok &= slot <= 100 && read_meter(rng).hw - a.hw == 256 * need;
        }
        CHECK(ok);
        if (absent) {
            CHECK(seen > 100 && seen < 2000);
        } else {
            /* log2 C(2000, 100) is about 621: two reseeds. */
            CHECK_EQ(read_meter(rng).hw - a.hw, 512);
        }
    }
    fake_on(1, 0);
    /* Past the cap (512 bits: two reseeds), the default goes on bounded by
       the key (no more hardware); strict FULL refuses the step that would
       need a third. C(20000, 100) is about 2^1040. */
    CHECK_EQ(fsh_rng_set_hw_cap(rng, 512), FSH_OK);
    for (int strict = 0; strict < 2; strict++) {
        CHECK_EQ(fsh_rng_set_reach(rng, strict ? FSH_REACH_FULL
                                               : FSH_REACH_DEFAULT),
                 FSH_OK);
        meter a = read_meter(rng);
        int rc = FSH_OK;
        uint64_t seen;
        for (seen = 100; seen < 20000; seen++)
            if ((rc = fsh_reservoir_slot(rng, &slot, 100, seen)) != FSH_OK)
                break;
        CHECK_EQ(read_meter(rng).hw - a.hw, 512);
        CHECK_EQ(rc, strict ? FSH_EENTROPY : FSH_OK);
        CHECK(strict ? seen < 20000 : seen == 20000);
    }
    CHECK_EQ(fsh_rng_set_hw_cap(rng, FSH_HW_CAP_DEFAULT), FSH_OK);
    CHECK_EQ(fsh_rng_set_reach(rng, FSH_REACH_DEFAULT), FSH_OK);
    /* A single step far out: C(2^64 - 1, 5) is about 2^313, one reseed. */
    meter a = read_meter(rng);
    CHECK_EQ(fsh_reservoir_slot(rng, &slot, 5, UINT64_MAX - 1), FSH_OK);
    CHECK_EQ(read_meter(rng).hw - a.hw, 256);
    fsh_rng_free(rng);
}

/* The mixed path is uniform: where element 0 lands in a 60-element
   shuffle, 60,000 times (chi-square, 59 degrees of freedom; 130 is far
   beyond the 0.9999 quantile, ~ 109). */
static void test_uniform_mixed(void)
{
    fsh_rng *rng;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    enum { N = 60, T = 60000 };
    uint64_t cnt[N] = {0}, h0 = read_meter(rng).hw;
    for (int t = 0; t < T; t++) {
        iota32(N);
        if (fsh_shuffle_u32(rng, arr, N) != FSH_OK)
            break;
        for (size_t i = 0; i < N; i++)
            if (arr[i] == 0)
                cnt[i]++;
    }
    CHECK_EQ(read_meter(rng).hw - h0, (uint64_t)T * 256);
    double e = (double)T / N, chi = 0;
    for (size_t i = 0; i < N; i++)
        chi += ((double)cnt[i] - e) * ((double)cnt[i] - e) / e;
    CHECK(chi < 130);
    fprintf(stderr, "test_reach_hw: mixed 60-shuffle, position of 0: "
                    "chi2 = %.1f (59 df)\n", chi);
    fsh_rng_free(rng);
}

/* The real source, when the machine has one: 60 cards draw 256 bits. */
static void test_real_hardware(void)
{
    fake_hw_off();
    if (!fsh_hw_entropy_available()) {
        fprintf(stderr, "test_reach_hw: no RDSEED here: real-source case "
                        "skipped\n");
        fake_on(1, 0);
        return;
    }
    fsh_rng *rng;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    meter d;
    uint64_t before = hw.words;
    CHECK_EQ(shuffle_metered(rng, 60, &d), FSH_OK);
    CHECK_EQ(d.hw, 256);
    CHECK_EQ(hw.words, before); /* not the fake */
    CHECK_EQ(shuffle_metered(rng, 416, &d), FSH_OK);
    CHECK_EQ(d.hw, 3072);
    fsh_rng_free(rng);
    fake_on(1, 0);
}

/* The helper the deck will call (src/rng: fsh_rng_reach_begin / _next):
   a lazy Fisher-Yates dealing 416 distinct cards in hands of 7, with
   batched dice drawn ahead as the deck does, dropped at each reseed. */
typedef struct mini_deck {
    uint32_t cards[416];
    size_t n, remaining;
    fsh_reach_state reach;
} mini_deck;

static int mini_deal(fsh_rng *rng, mini_deck *d, uint32_t *out, size_t k)
{
    fsh_mix m;
    int rc = fsh_rng_reach_begin(rng, &d->reach, &m, d->n - 1,
                                 d->n - d->remaining, k);
    if (rc != FSH_OK)
        return rc;
    for (size_t i = 0; i < k; i++) {
        size_t r = d->remaining;
        (void)fsh_rng_reach_next(rng, &d->reach, &m, r - 1);
        uint64_t j;
        if ((rc = fsh_uniform(rng, &j, r)) != FSH_OK)
            break;
        uint32_t c = d->cards[j];
        d->cards[j] = d->cards[r - 1];
        d->cards[r - 1] = c;
        d->remaining = r - 1;
        out[i] = c;
    }
    fsh_mix_done(&m);
    return rc;
}

static void test_deck_helper(void)
{
    fsh_rng *rng;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    static mini_deck d;
    uint32_t out[416];
    for (int absent = 0; absent < 2; absent++) {
        fake_on(!absent, 0);
        d.n = d.remaining = 416;
        for (uint32_t i = 0; i < 416; i++)
            d.cards[i] = i;
        fsh_reach_state_init(&d.reach);
        meter a = read_meter(rng);
        size_t dealt = 0;
        int rc = FSH_OK;
        while (dealt < 416) {
            size_t k = 416 - dealt < 7 ? 416 - dealt : 7;
            if ((rc = mini_deal(rng, &d, out + dealt, k)) != FSH_OK)
                break;
            dealt += k;
            /* After each hand, the hardware bits are those of the prefix's
               groups. */
            CHECK_EQ(read_meter(rng).hw - a.hw,
                     256 * (groups(415, dealt) - 1));
        }
        if (absent) {
            /* The hand that would cross 2^256 outcomes is refused whole
               (nothing dealt from it). */
            CHECK_EQ(rc, FSH_ENOHWRAND);
            CHECK(dealt > 0 && dealt < 60);
            CHECK(groups(415, dealt) == 1 && groups(415, dealt + 7) == 2);
            CHECK_EQ(d.remaining, 416 - dealt);
        } else {
            CHECK_EQ(rc, FSH_OK);
            CHECK_EQ(read_meter(rng).hw - a.hw, 3072);
            char seen[416] = {0};
            int ok = 1;
            for (size_t i = 0; i < 416; i++) {
                ok &= out[i] < 416 && !seen[out[i]];
                seen[out[i] % 416] = 1;
            }
            CHECK(ok);
        }
    }
    fake_on(1, 0);
    fsh_rng_free(rng);
}

/* The same through the public deck: an 8-deck shoe (416 cards) dealt in
   hands of 7 by a default rng mixes in 256 hardware bits at each group
   boundary of its prefix, 3,072 in all; without hardware the hand that
   would cross 2^256 outcomes is refused whole; a reset starts a new
   prefix (group state and all). */
static void test_deck_public(void)
{
    fsh_rng *rng;
    fsh_cardset *set;
    fsh_deck *deck;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    CHECK_EQ(fsh_cardset_standard(&set, 8, 0), FSH_OK);
    CHECK_EQ(fsh_deck_new_set(&deck, set), FSH_OK);
    uint32_t out[416];
    for (int round = 0; round < 3; round++) {
        int absent = round == 1;
        fake_on(!absent, 0);
        CHECK_EQ(fsh_deck_reset(deck), FSH_OK);
        meter a = read_meter(rng);
        size_t dealt = 0;
        int rc = FSH_OK;
        while (dealt < 416) {
            size_t k = 416 - dealt < 7 ? 416 - dealt : 7;
            if ((rc = fsh_deck_deal_n(rng, deck, out + dealt, k)) != FSH_OK)
                break;
            dealt += k;
            CHECK_EQ(read_meter(rng).hw - a.hw,
                     256 * (groups(415, dealt) - 1));
        }
        if (absent) {
            CHECK_EQ(rc, FSH_ENOHWRAND);
            CHECK(dealt > 0 && dealt < 60);
            CHECK(groups(415, dealt) == 1 && groups(415, dealt + 7) == 2);
            CHECK_EQ(fsh_deck_remaining(deck), 416 - dealt);
        } else {
            CHECK_EQ(rc, FSH_OK);
            CHECK_EQ(read_meter(rng).hw - a.hw, 3072);
            /* Each of the 52 faces exactly 8 times. */
            unsigned count[52] = {0};
            int ok = 1;
            for (size_t i = 0; i < 416; i++) {
                ok &= out[i] < 52;
                count[out[i] % 52]++;
            }
            for (int f = 0; f < 52; f++)
                ok &= count[f] == 8;
            CHECK(ok);
        }
    }
    fake_on(1, 0);
    fsh_deck_free(deck);
    fsh_cardset_free(set);
    fsh_rng_free(rng);
}

/* A prefix that went bound by the key stays so, and each later batch is
   judged by the policy of the rng that draws it (the same one with its
   policy changed, or another): strict FULL refuses it (FSH_ENOHWRAND
   where the key bound was taken for want of hardware, FSH_EENTROPY where
   it was beyond the cap, as it refuses such a batch on a fresh object),
   nothing dealt or drawn; a policy that accepts the key bound goes on.
   (Both went on whatever the policy: the prefix's key bound, once
   accepted, was never asked about again.) */
static void test_keybound_policy(void)
{
    for (int why = 0; why < 2; why++) { /* 0: no hardware, 1: over the cap */
        fake_on(why == 1, 0);
        unsigned accept = why == 0 ? FSH_REACH_FULL | FSH_REACH_KEY
                                   : FSH_REACH_DEFAULT;
        int refused = why == 0 ? FSH_ENOHWRAND : FSH_EENTROPY;
        for (int other = 0; other < 2; other++) {
            fsh_rng *r1, *r2;
            CHECK_EQ(fsh_rng_new(&r1), FSH_OK);
            CHECK_EQ(fsh_rng_new(&r2), FSH_OK);
            CHECK_EQ(fsh_rng_set_reach(r1, accept), FSH_OK);
            if (why == 1) {
                CHECK_EQ(fsh_rng_set_hw_cap(r1, 0), FSH_OK);
                CHECK_EQ(fsh_rng_set_hw_cap(r2, 0), FSH_OK);
            }
            /* The rng of the later batches: r1 made strict, or r2. */
            fsh_rng *later = other ? r2 : r1;
            fsh_deck *d;
            fsh_rangeperm *p;
            uint32_t cards[60];
            uint64_t v[60];
            CHECK_EQ(fsh_deck_new(&d, 60), FSH_OK);
            CHECK_EQ(fsh_rangeperm_new(&p, 0, 59, 0), FSH_OK);
            /* 58 of 60: beyond the key, run bound by it. */
            CHECK_EQ(fsh_deck_deal_n(r1, d, cards, 58), FSH_OK);
            CHECK_EQ(fsh_rangeperm_next_n(r1, p, v, 58), FSH_OK);
            CHECK_EQ(fsh_rng_set_reach(later, FSH_REACH_FULL), FSH_OK);
            cards[0] = 77;
            v[0] = 77;
            CHECK_EQ(fsh_deck_deal_n(later, d, cards, 1), refused);
            CHECK_EQ(fsh_deck_deal(later, d, cards), refused);
            CHECK_EQ(fsh_deck_burn(later, d, 1), refused);
            CHECK_EQ(fsh_rangeperm_next(later, p, v), refused);
            CHECK_EQ(fsh_rangeperm_next_n(later, p, v, 2), refused);
            CHECK_EQ(fsh_deck_remaining(d), 2);
            CHECK(fsh_rangeperm_drawn(p) == 58);
            CHECK(cards[0] == 77 && v[0] == 77);
            /* A policy that accepts the key bound deals the rest. */
            CHECK_EQ(fsh_rng_set_reach(later, accept), FSH_OK);
            CHECK_EQ(fsh_deck_deal_n(later, d, cards, 2), FSH_OK);
            CHECK_EQ(fsh_rangeperm_next_n(later, p, v, 2), FSH_OK);
            /* A reset deck starts a new prefix. */
            CHECK_EQ(fsh_deck_reset(d), FSH_OK);
            CHECK_EQ(fsh_rng_set_reach(later, FSH_REACH_FULL), FSH_OK);
            CHECK_EQ(fsh_deck_deal_n(later, d, cards, 50), FSH_OK);
            fsh_rangeperm_free(p);
            fsh_deck_free(d);
            fsh_rng_free(r1);
            fsh_rng_free(r2);
        }
    }
    fake_on(1, 0);
}

/* A prefix bound by the key for want of hardware, asked about again under
   strict FULL after a hardware source has appeared: the source is there,
   so the refusal is not FSH_ENOHWRAND ("no hardware entropy source is
   there to mix in") but FSH_EENTROPY (the prefix can no longer reach every
   outcome, whatever is mixed in now); while no source is there it stays
   FSH_ENOHWRAND. The deck, the range permutation and an Algorithm R
   stream; nothing dealt or drawn. (It said FSH_ENOHWRAND with the source
   back.) */
static void test_keybound_hw_back(void)
{
    fake_on(0, 0);
    fsh_rng *r;
    CHECK_EQ(fsh_rng_new(&r), FSH_OK);
    CHECK_EQ(fsh_rng_set_reach(r, FSH_REACH_FULL | FSH_REACH_KEY), FSH_OK);
    fsh_deck *d;
    fsh_rangeperm *p;
    uint32_t cards[60];
    uint64_t v[60];
    size_t slot;
    int rc = FSH_OK;
    CHECK_EQ(fsh_deck_new(&d, 60), FSH_OK);
    CHECK_EQ(fsh_rangeperm_new(&p, 0, 59, 0), FSH_OK);
    CHECK_EQ(fsh_deck_deal_n(r, d, cards, 58), FSH_OK);
    CHECK_EQ(fsh_rangeperm_next_n(r, p, v, 58), FSH_OK);
    for (uint64_t seen = 0; seen < 2000 && rc == FSH_OK; seen++)
        rc = fsh_reservoir_slot(r, &slot, 100, seen);
    CHECK_EQ(rc, FSH_OK);
    CHECK_EQ(fsh_rng_set_reach(r, FSH_REACH_FULL), FSH_OK);
    for (int present = 0; present < 2; present++) {
        int want = present ? FSH_EENTROPY : FSH_ENOHWRAND;
        fake_on(present, 0);
        uint64_t used = fsh_rng_bits_used(r), calls = hw.calls;
        cards[0] = 77;
        v[0] = 77;
        slot = 12345;
        CHECK_EQ(fsh_deck_deal_n(r, d, cards, 1), want);
        CHECK_EQ(fsh_deck_burn(r, d, 1), want);
        CHECK_EQ(fsh_rangeperm_next(r, p, v), want);
        CHECK_EQ(fsh_rangeperm_next_n(r, p, v, 2), want);
        CHECK_EQ(fsh_reservoir_slot(r, &slot, 100, 2000), want);
        CHECK(cards[0] == 77 && v[0] == 77 && slot == 12345);
        CHECK_EQ(fsh_deck_remaining(d), 2);
        CHECK(fsh_rangeperm_drawn(p) == 58);
        CHECK(fsh_rng_bits_used(r) == used && hw.calls == calls);
    }
    fsh_rangeperm_free(p);
    fsh_deck_free(d);
    fsh_rng_free(r);
    fake_on(1, 0);
}

/* A batch of fsh_rangeperm_next_n whose hardware words cannot be had
   under strict FULL (the source present but failing) is refused and
   leaves the permutation exactly as it was: its storage too, which a
   batch makes before it draws the words and puts in place only after
   (it grew first: the map into the array of a range of 1000, or a larger
   map of the 64-bit range). Then the same calls with the source working
   give what a twin that never saw the refused batch gives. A refusal that
   needs no draw (a prefix bound by the key) leaves it as well. */
static void test_next_n_refused_storage(void)
{
    static const uint64_t lasts[] = {999, UINT64_MAX};
    for (size_t t = 0; t < 2; t++) {
        uint64_t last = lasts[t];
        /* Within the key: 25 of 1000 (249 bits), 3 of 2^64 (192). */
        size_t first = t == 0 ? 25 : 3, batch = t == 0 ? 200 : 40;
        fsh_rng *r1 = fake_hw_rng(FSH_REACH_FULL),
                *r2 = fake_hw_rng(FSH_REACH_FULL);
        fsh_rangeperm *p1, *p2;
        CHECK(r1 != NULL && r2 != NULL);
        if (r1 == NULL || r2 == NULL)
            return;
        CHECK_EQ(fsh_rangeperm_new(&p1, 0, last, 0), FSH_OK);
        CHECK_EQ(fsh_rangeperm_new(&p2, 0, last, 0), FSH_OK);
        static uint64_t v1[300], v2[300];
        CHECK_EQ(fsh_rangeperm_next_n(r1, p1, v1, first), FSH_OK);
        CHECK_EQ(fsh_rangeperm_next_n(r2, p2, v2, first), FSH_OK);
        int dense, dense2;
        size_t cap, count, cap2, count2;
        fsh_rangeperm_storage(p1, &dense, &cap, &count);
        CHECK_EQ(dense, 0);
        uint64_t used = fsh_rng_bits_used(r1);
        fake_on(1, 1); /* present, failing */
        v1[0] = 77;
        CHECK_EQ(fsh_rangeperm_next_n(r1, p1, v1, batch), FSH_ENOHWRAND);
        fsh_rangeperm_storage(p1, &dense2, &cap2, &count2);
        CHECK(dense2 == dense && cap2 == cap && count2 == count);
        CHECK(v1[0] == 77 && fsh_rng_bits_used(r1) == used);
        CHECK(fsh_rangeperm_drawn(p1) == first);
        fake_hw_init(&hw, 99);
        fake_on(1, 0);
        CHECK_EQ(fsh_rangeperm_next_n(r1, p1, v1, batch), FSH_OK);
        fake_hw_init(&hw, 99);
        CHECK_EQ(fsh_rangeperm_next_n(r2, p2, v2, batch), FSH_OK);
        CHECK(memcmp(v1, v2, batch * sizeof *v1) == 0);
        CHECK(fsh_rng_bits_used(r1) == fsh_rng_bits_used(r2));
        fsh_rangeperm_free(p1);
        fsh_rangeperm_free(p2);
        fsh_rng_free(r1);
        fsh_rng_free(r2);
    }
    /* Refused without a draw: a prefix bound by the key (no source, FULL |
       KEY), then strict FULL; the storage stays as it was. */
    fake_on(0, 0);
    fsh_rng *r = fake_hw_rng(FSH_REACH_FULL | FSH_REACH_KEY);
    fsh_rangeperm *p;
    CHECK(r != NULL);
    if (r == NULL)
        return;
    CHECK_EQ(fsh_rangeperm_new(&p, 0, UINT64_MAX, 0), FSH_OK);
    static uint64_t v[300];
    CHECK_EQ(fsh_rangeperm_next_n(r, p, v, 5), FSH_OK);
    int dense, dense2;
    size_t cap, count, cap2, count2;
    fsh_rangeperm_storage(p, &dense, &cap, &count);
    CHECK_EQ(fsh_rng_set_reach(r, FSH_REACH_FULL), FSH_OK);
    CHECK_EQ(fsh_rangeperm_next_n(r, p, v, 200), FSH_ENOHWRAND);
    fsh_rangeperm_storage(p, &dense2, &cap2, &count2);
    CHECK(dense2 == dense && cap2 == cap && count2 == count);
    fsh_rangeperm_free(p);
    fsh_rng_free(r);
    fake_on(1, 0);
}

/* The same for an Algorithm R stream (fsh_reservoir_slot, k = 100): once
   it runs bound by the key, each later step asks the policy again; strict
   FULL refuses it, nothing drawn. (The stream went on whatever the
   policy.) */
static void test_reservoir_keybound(void)
{
    for (int why = 0; why < 2; why++) { /* 0: no hardware, 1: over the cap */
        fake_on(why == 1, 0);
        unsigned accept = why == 0 ? FSH_REACH_FULL | FSH_REACH_KEY
                                   : FSH_REACH_DEFAULT;
        int refused = why == 0 ? FSH_ENOHWRAND : FSH_EENTROPY;
        fsh_rng *r;
        CHECK_EQ(fsh_rng_new(&r), FSH_OK);
        CHECK_EQ(fsh_rng_set_reach(r, accept), FSH_OK);
        if (why == 1)
            CHECK_EQ(fsh_rng_set_hw_cap(r, 0), FSH_OK);
        size_t slot;
        int rc = FSH_OK;
        for (uint64_t seen = 0; seen < 2000 && rc == FSH_OK; seen++)
            rc = fsh_reservoir_slot(r, &slot, 100, seen);
        CHECK_EQ(rc, FSH_OK);
        CHECK(fsh_subset_bits(2000, 100) > 256); /* past the key */
        uint64_t used = fsh_rng_bits_used(r);
        CHECK_EQ(fsh_rng_set_reach(r, FSH_REACH_FULL), FSH_OK);
        slot = 12345;
        CHECK_EQ(fsh_reservoir_slot(r, &slot, 100, 2000), refused);
        CHECK(slot == 12345 && fsh_rng_bits_used(r) == used);
        CHECK_EQ(fsh_rng_set_reach(r, accept), FSH_OK);
        CHECK_EQ(fsh_reservoir_slot(r, &slot, 100, 2000), FSH_OK);
        /* A new stream (another k) starts within the key again. */
        CHECK_EQ(fsh_rng_set_reach(r, FSH_REACH_FULL), FSH_OK);
        CHECK_EQ(fsh_reservoir_slot(r, &slot, 3, 10), FSH_OK);
        fsh_rng_free(r);
    }
    fake_on(1, 0);
}

/* ------------------------------------------------------------------------ */
/* Certified source: every draw from the caller's words                     */

typedef struct wsrc_ctx {
    uint64_t state, calls;
} wsrc_ctx;

static uint64_t words_fn(void *ctx)
{
    wsrc_ctx *c = ctx;
    c->calls++;
    return fake_splitmix64(&c->state);
}

static void test_direct(void)
{
    /* 4.5 Mi u64 = 36 MiB: above the scatter threshold (24 MiB). */
    size_t n = (size_t)9 << 19;
    uint64_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    CHECK(a != NULL && b != NULL);
    if (a == NULL || b == NULL) {
        free(a);
        free(b);
        return;
    }
    for (int direct = 0; direct < 2; direct++) {
        check_seed = (uint64_t)direct;
        wsrc_ctx c1 = {7, 0}, c2 = {7, 0};
        fsh_rng *r1, *r2;
        CHECK_EQ(fsh_rng_new_seeded(&r1, "x", 1), FSH_OK);
        CHECK_EQ(fsh_rng_new_seeded(&r2, "x", 1), FSH_OK);
        CHECK_EQ(fsh_rng_from_words(r1, words_fn, &c1), FSH_OK);
        CHECK_EQ(fsh_rng_from_words(r2, words_fn, &c2), FSH_OK);
        CHECK_EQ(fsh_rng_set_direct(r1, direct), FSH_OK);
        for (size_t i = 0; i < n; i++)
            a[i] = b[i] = i;
        CHECK_EQ(fsh_shuffle_threads(r1, a, n, 8, 2), FSH_OK);
        uint64_t used = fsh_rng_bits_used(r1) / 64;
        /* The reference: the plain Fisher-Yates kernel on the same words. */
        fsh_fy_kernel(r2, (unsigned char *)b, n, 8);
        uint64_t ref_used = fsh_rng_bits_used(r2) / 64;
        if (direct) {
            CHECK(memcmp(a, b, n * sizeof *a) == 0);
            CHECK_EQ(used, ref_used);
            /* Every word the shuffle used came from the source; at most
               one read-ahead block (128 words) is left over. */
            CHECK(c1.calls >= used && c1.calls - used < 128);
            CHECK(used >= n / 6); /* at least one word per 6 indices */
            fprintf(stderr, "test_reach_hw: direct shuffle of %zu: %llu "
                            "source words (scatter: keyed from 4)\n", n,
                    (unsigned long long)c1.calls);
        } else {
            /* The scatter shuffle keys its streams from 4 words. */
            CHECK(c1.calls <= 128);
            CHECK(memcmp(a, b, n * sizeof *a) != 0);
        }
        /* The record permutation above FSH_RECORDS_SMALL: in direct mode
           it is fsh_shuffle on the same words (no bucket key). */
        if (direct) {
            wsrc_ctx c3 = {9, 0}, c4 = {9, 0};
            CHECK_EQ(fsh_rng_from_words(r1, words_fn, &c3), FSH_OK);
            CHECK_EQ(fsh_rng_from_words(r2, words_fn, &c4), FSH_OK);
            size_t m = (size_t)3 << 20;
            for (size_t i = 0; i < m; i++)
                a[i] = b[i] = i;
            CHECK_EQ(fsh_shuffle_records(r1, a, m, 8, 2), FSH_OK);
            fsh_fy_kernel(r2, (unsigned char *)b, m, 8);
            CHECK(memcmp(a, b, m * sizeof *a) == 0);
            CHECK(c3.calls - fsh_rng_bits_used(r1) / 64 < 128);
        }
        fsh_rng_free(r1);
        fsh_rng_free(r2);
    }
    free(a);
    free(b);
}

int main(void)
{
    arr = malloc(1000000 * sizeof *arr);
    if (arr == NULL)
        return 1;
    fake_hw_init(&hw, 0);
    fake_on(1, 0);
    test_default_shuffles();
    test_cap_boundary();
    test_absent();
    test_seeded();
    test_samples();
    test_deck_helper();
    test_deck_public();
    test_keybound_policy();
    test_reservoir_keybound();
    test_keybound_hw_back();
    test_next_n_refused_storage();
    test_uniform_mixed();
    test_real_hardware();
    test_direct();
    fake_hw_off();
    free(arr);
    return check_done("test_reach_hw");
}
