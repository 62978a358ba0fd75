/* SPDX-License-Identifier: MIT */
/* fsh_sample_range against a plain reference: the forward Fisher-Yates
 * shuffle of the identity array 0..last, step i drawing r =
 * fsh_uniform_range(0, last - i) and swapping positions i and i + r, over a
 * full array (or, for ranges too large for one, a list of the displaced
 * positions searched linearly). The library runs the same steps with draws
 * made ahead, prefetching, a position map or a uint32 array: the values, the
 * order and the rng's position afterwards must be exactly the reference's
 * for every (k, n, seed, generator). Cases: k = 1, k = n, the dense/map
 * switch (n near 10k) and the old one (n near 2k), n near 2^32, the top of
 * the 64-bit range, the full 2^64 range, xoshiro, word and randint
 * callbacks, a randint callback failing mid-sample (same draws made, same
 * error), and an OS-keyed rng mixing (fake) hardware entropy between draws
 * against fsh_rangeperm_next, which mixes draw by draw. A deliberately wrong
 * reference (one step's offset mirrored) must be told apart, so the
 * comparison can fail. Deterministic: no false failures. */
#include "check.h"
#include "fairshuf.h"
#include "fake_hw.h"
#include "rng/rng.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* The reference                                                            */

/* Displaced positions when the range is too large for an array. */
typedef struct naive {
    uint64_t *pos, *val;
    size_t n;
} naive;

static uint64_t naive_get(const naive *m, uint64_t p)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->pos[i] == p)
            return m->val[i];
    return p;
}

static void naive_set(naive *m, uint64_t p, uint64_t v)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->pos[i] == p) {
            m->val[i] = v;
            return;
        }
    m->pos[m->n] = p;
    m->val[m->n++] = v;
}

/* k steps over [lo, hi]; at bad_step (< k) the swap goes to the mirror
   image last - r of the drawn offset (the known-bad variant). Returns the first error, as the library does. */
static int ref_sample(fsh_rng *rng, uint64_t *out, size_t k, uint64_t lo,
                      uint64_t hi, size_t bad_step)
{
    uint64_t last = hi - lo;
    int rc = FSH_OK;
    if (last < (1u << 22)) {
        size_t n = (size_t)last + 1;
        uint64_t *a = malloc(n * sizeof *a);
        CHECK(a != NULL);
        for (size_t i = 0; i < n; i++)
            a[i] = i;
        for (size_t i = 0; i < k; i++) {
            uint64_t r, top = last - i;
            if ((rc = fsh_uniform_range(rng, &r, 0, top)) != FSH_OK)
                break;
            if (i == bad_step)
                r = top - r;
            uint64_t t = a[i];
            a[i] = a[i + r];
            a[i + r] = t;
            out[i] = lo + a[i];
        }
        free(a);
        return rc;
    }
    naive m = {malloc(2 * k * sizeof(uint64_t)),
               malloc(2 * k * sizeof(uint64_t)), 0};
    CHECK(m.pos != NULL && m.val != NULL);
    for (size_t i = 0; i < k; i++) {
        uint64_t r, top = last - i;
        if ((rc = fsh_uniform_range(rng, &r, 0, top)) != FSH_OK)
            break;
        if (i == bad_step)
            r = top - r;
        uint64_t j = i + r, vi = naive_get(&m, i), vj = naive_get(&m, j);
        naive_set(&m, i, vj);
        naive_set(&m, j, vi);
        out[i] = lo + vj;
    }
    free(m.pos);
    free(m.val);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Generators                                                               */

enum { G_CHACHA, G_XOSHIRO, G_WORDS, G_RANDINT, G_COUNT };

typedef struct cb {
    uint64_t state;
    uint64_t calls;
    uint64_t fail_at; /* randint: answer out of range at this call (0: never) */
} cb;

static uint64_t cb_words(void *ctx)
{
    cb *c = ctx;
    c->calls++;
    return fake_splitmix64(&c->state);
}

static uint64_t cb_randint(void *ctx, uint64_t k)
{
    cb *c = ctx;
    if (++c->calls == c->fail_at)
        return k + 1;
    /* Slightly biased (a test source): fine, both sides see the same. */
    return 1 + fake_splitmix64(&c->state) % k;
}

/* rng as generator g from seed; c is the callback state. */
static void make_rng(fsh_rng *rng, int g, uint64_t seed, cb *c)
{
    uint8_t s[8];
    for (int i = 0; i < 8; i++)
        s[i] = (uint8_t)(seed >> (8 * i));
    c->state = seed;
    c->calls = 0;
    switch (g) {
    case G_CHACHA:
        CHECK(fsh_rng_seed(rng, s, sizeof s) == FSH_OK);
        break;
    case G_XOSHIRO:
        CHECK(fsh_rng_key_xoshiro(rng, seed) == FSH_OK);
        break;
    case G_WORDS:
        CHECK(fsh_rng_from_words(rng, cb_words, c) == FSH_OK);
        break;
    default:
        CHECK(fsh_rng_from_randint(rng, cb_randint, c) == FSH_OK);
        break;
    }
    CHECK(fsh_rng_set_simulation(rng, 1) == FSH_OK);
}

/* ------------------------------------------------------------------------ */
/* Comparisons                                                              */

static uint64_t *buf_a, *buf_b;
static size_t cases, mismatches;

/* Two OS-keyed rngs; 0 (a failed check, nothing to free) if either fails. */
static int two_rngs(fsh_rng **r1, fsh_rng **r2)
{
    *r1 = *r2 = NULL;
    CHECK(fsh_rng_new(r1) == FSH_OK);
    CHECK(fsh_rng_new(r2) == FSH_OK);
    if (*r1 != NULL && *r2 != NULL)
        return 1;
    fsh_rng_free(*r1);
    fsh_rng_free(*r2);
    return 0;
}

static uint64_t *buf_c;

/* k values of [lo, hi] through fsh_rangeperm_next_n in chunks of 1, 2, 3,
   ... (every chunk boundary moves with k), from a permutation made with
   hint: FSH_OK or the first error, *drawn = fsh_rangeperm_drawn after. */
static int next_n_chunks(fsh_rng *rng, uint64_t *out, size_t k, uint64_t lo,
                         uint64_t hi, size_t hint, uint64_t *drawn)
{
    fsh_rangeperm *p;
    int rc = fsh_rangeperm_new(&p, lo, hi, hint);
    *drawn = 0;
    if (rc != FSH_OK)
        return rc;
    size_t done = 0;
    for (size_t c = 1; done < k && rc == FSH_OK; c = c * 3 + 1) {
        size_t m = k - done < c ? k - done : c;
        rc = fsh_rangeperm_next_n(rng, p, out + done, m);
        done += m;
    }
    *drawn = fsh_rangeperm_drawn(p);
    fsh_rangeperm_free(p);
    return rc;
}

/* One (k, lo, hi) for every generator and a few seeds: same values, and
   the same next word from the rng afterwards. */
static void compare(size_t k, uint64_t lo, uint64_t hi, unsigned seeds)
{
    fsh_rng *r1, *r2;
    if (!two_rngs(&r1, &r2))
        return;
    for (int g = 0; g < G_COUNT; g++) {
        /* The randint source makes a call a draw: keep those short. */
        if (g == G_RANDINT && k > 20000)
            continue;
        for (unsigned s = 0; s < seeds; s++) {
            uint64_t seed = (uint64_t)s * 1000003u + k + (hi - lo);
            cb c1 = {0}, c2 = {0};
            make_rng(r1, g, seed, &c1);
            make_rng(r2, g, seed, &c2);
            int e1 = fsh_sample_range(r1, buf_a, k, lo, hi);
            int e2 = ref_sample(r2, buf_b, k, lo, hi, SIZE_MAX);
            uint64_t w1 = 0, w2 = 0, w3 = 0, drawn = 0;
            CHECK(fsh_rng_u64(r1, &w1) == FSH_OK);
            CHECK(fsh_rng_u64(r2, &w2) == FSH_OK);
            /* fsh_rangeperm_next_n in chunks, from the map grown as it
               goes (hint 0), sized for all (hint k: the array where the
               range is at most 2k) and for half */
            make_rng(r1, g, seed, &c1);
            size_t hint = s % 3 == 0 ? 0 : s % 3 == 1 ? k : k / 2;
            int e3 = next_n_chunks(r1, buf_c, k, lo, hi, hint, &drawn);
            CHECK(fsh_rng_u64(r1, &w3) == FSH_OK);
            cases++;
            if (e1 != FSH_OK || e2 != FSH_OK || e3 != FSH_OK || w1 != w2 ||
                w3 != w2 || drawn != k ||
                memcmp(buf_a, buf_b, k * sizeof *buf_a) != 0 ||
                memcmp(buf_c, buf_b, k * sizeof *buf_c) != 0) {
                mismatches++;
                CHECK(0 && "sample differs from the reference");
                fprintf(stderr, "  k=%zu lo=%llu hi=%llu gen=%d seed=%llu\n", k,
                        (unsigned long long)lo, (unsigned long long)hi, g,
                        (unsigned long long)seed);
            }
        }
    }
    fsh_rng_free(r1);
    fsh_rng_free(r2);
}

/* The known-bad reference (step k/2 swaps with the mirrored position)
   differs from the library unless that step drew the middle offset. */
static void known_bad(void)
{
    fsh_rng *r1, *r2;
    if (!two_rngs(&r1, &r2))
        return;
    static const struct { size_t k; uint64_t n; } kn[] = {
        {50, 60}, {100, 1000}, {1000, 1u << 20}, {64, UINT64_C(1) << 40}};
    for (size_t t = 0; t < sizeof kn / sizeof kn[0]; t++) {
        unsigned caught = 0;
        for (uint64_t seed = 1; seed <= 20; seed++) {
            cb c1 = {0}, c2 = {0};
            make_rng(r1, G_CHACHA, seed, &c1);
            make_rng(r2, G_CHACHA, seed, &c2);
            CHECK(fsh_sample_range(r1, buf_a, kn[t].k, 0, kn[t].n - 1) ==
                  FSH_OK);
            CHECK(ref_sample(r2, buf_b, kn[t].k, 0, kn[t].n - 1, kn[t].k / 2) ==
                  FSH_OK);
            caught += memcmp(buf_a, buf_b, kn[t].k * sizeof *buf_a) != 0;
        }
        /* The mirror is the same offset only for the middle one (1 in 11
           or fewer here), so nearly every run differs; 20 seeds that all
           agree would mean the comparison is blind. */
        CHECK(caught >= 15);
    }
    fsh_rng_free(r1);
    fsh_rng_free(r2);
}

/* A randint callback answering out of range at call f: both sides make the
   same calls, stop at the same one and return FSH_ECALLBACK, with the
   values before it equal. */
static void failing_callback(void)
{
    fsh_rng *r1, *r2;
    if (!two_rngs(&r1, &r2))
        return;
    static const uint64_t fails[] = {1, 2, 15, 16, 17, 33, 500};
    static const uint64_t ns[] = {600, 5000, 100000, UINT64_C(1) << 35};
    for (size_t f = 0; f < sizeof fails / sizeof fails[0]; f++)
        for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
            cb c1 = {0}, c2 = {0};
            make_rng(r1, G_RANDINT, 7, &c1);
            make_rng(r2, G_RANDINT, 7, &c2);
            c1.fail_at = c2.fail_at = fails[f];
            memset(buf_a, 0, 600 * sizeof *buf_a);
            memset(buf_b, 0, 600 * sizeof *buf_b);
            CHECK_EQ(fsh_sample_range(r1, buf_a, 600, 0, ns[t] - 1),
                     FSH_ECALLBACK);
            CHECK_EQ(ref_sample(r2, buf_b, 600, 0, ns[t] - 1, SIZE_MAX),
                     FSH_ECALLBACK);
            CHECK_EQ(c1.calls, c2.calls);
            size_t ok = (size_t)fails[f] - 1; /* steps made before it */
            CHECK(memcmp(buf_a, buf_b, ok * sizeof *buf_a) == 0);
            /* next_n in chunks: the same error at the same call, the steps
               before it made and counted */
            uint64_t drawn = 0;
            make_rng(r1, G_RANDINT, 7, &c1);
            c1.fail_at = fails[f];
            CHECK_EQ(next_n_chunks(r1, buf_c, 600, 0, ns[t] - 1, 600, &drawn),
                     FSH_ECALLBACK);
            CHECK_EQ(c1.calls, c2.calls);
            CHECK_EQ(drawn, ok);
            CHECK(memcmp(buf_c, buf_b, ok * sizeof *buf_c) == 0);
        }
    fsh_rng_free(r1);
    fsh_rng_free(r2);
}

/* ------------------------------------------------------------------------ */
/* Hardware mixing between draws                                            */

static fake_hw hw; /* the stand-in hardware source (fake_hw.h) */

/* An OS-keyed rng (which mixes hardware entropy into samples beyond 2^256
   outcomes) and a copy of its state: fsh_sample_range on one, the
   reference on the other through fsh_rangeperm_next (which mixes draw by
   draw at the same group boundaries), with the same fake hardware words. */
static void mixing(void)
{
    fake_hw_init(&hw, 99);
    fake_hw_on(&hw, 1);
    static const struct { size_t k; uint64_t lo, hi; } cs[] = {
        {400, 0, 999},            /* array */
        {3000, 0, 9999},          /* array, many groups */
        {2000, 5, 999999},        /* map */
        {300, 0, UINT64_MAX},     /* the full range: one word a draw */
        {1000, 0, (UINT64_C(1) << 32) - 1},
        {1200, 7, 2006},          /* array from the hint (odd t) */
    };
    for (size_t t = 0; t < sizeof cs / sizeof cs[0]; t++) {
        fsh_rng *r1, *r2;
        if (!two_rngs(&r1, &r2))
            break;
        /* r2 = r1's state, keeping r2's own fork page. */
        volatile uint64_t *canary = r2->fork_canary;
        memcpy(r2, r1, sizeof *r2);
        r2->fork_canary = canary;
        fsh_rng saved; /* the state both start from, for a third run */
        memcpy(&saved, r1, sizeof saved);
        fake_hw_init(&hw, 99);
        CHECK_EQ(fsh_sample_range(r1, buf_a, cs[t].k, cs[t].lo, cs[t].hi),
                 FSH_OK);
        uint64_t hw1 = 0, hw2 = 0;
        CHECK(fsh_rng_entropy_drawn(r1, NULL, &hw1) == FSH_OK);
        fake_hw_init(&hw, 99);
        fsh_rangeperm *p;
        CHECK(fsh_rangeperm_new(&p, cs[t].lo, cs[t].hi, 0) == FSH_OK);
        int ok = 1;
        for (size_t i = 0; i < cs[t].k; i++)
            ok &= fsh_rangeperm_next(r2, p, &buf_b[i]) == FSH_OK;
        CHECK(ok);
        fsh_rangeperm_free(p);
        CHECK(fsh_rng_entropy_drawn(r2, NULL, &hw2) == FSH_OK);
        CHECK(hw1 > 0); /* it did mix */
        CHECK_EQ(hw1, hw2);
        CHECK(memcmp(buf_a, buf_b, cs[t].k * sizeof *buf_a) == 0);
        uint64_t w1 = 0, w2 = 0;
        CHECK(fsh_rng_u64(r1, &w1) == FSH_OK && fsh_rng_u64(r2, &w2) == FSH_OK);
        CHECK_EQ(w1, w2);
        /* fsh_rangeperm_next_n in chunks from the same state: the same
           values, hardware bits and next word */
        fsh_rng *r3;
        if (fsh_rng_new(&r3) == FSH_OK) {
            canary = r3->fork_canary;
            memcpy(r3, &saved, sizeof *r3);
            r3->fork_canary = canary;
            fake_hw_init(&hw, 99);
            uint64_t drawn = 0, hw3 = 0, w3 = 0;
            CHECK_EQ(next_n_chunks(r3, buf_c, cs[t].k, cs[t].lo, cs[t].hi,
                                   t % 2 ? cs[t].k : 0, &drawn),
                     FSH_OK);
            CHECK_EQ(drawn, cs[t].k);
            CHECK(fsh_rng_entropy_drawn(r3, NULL, &hw3) == FSH_OK);
            CHECK_EQ(hw3, hw2);
            CHECK(memcmp(buf_c, buf_b, cs[t].k * sizeof *buf_c) == 0);
            CHECK(fsh_rng_u64(r3, &w3) == FSH_OK);
            CHECK_EQ(w3, w2);
            fsh_rng_free(r3);
        } else {
            CHECK(0 && "fsh_rng_new");
        }
        fsh_rng_free(r1);
        fsh_rng_free(r2);
    }
    fake_hw_off();
}


/* fsh_rangeperm_next_at over every position of ranges of up to 70,000
   values, from the map (hint 0 or small: it grows, and gives way to the
   array past a tenth of the range) or the array (hint of a tenth or more),
   against the swaps of a plain array with the same offsets. */
static void next_at_storages(void)
{
    static const uint64_t ns[] = {2, 17, 100, 1000, 9999, 70000};
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        uint64_t n = ns[t];
        uint64_t *a = malloc(n * sizeof *a);
        CHECK(a != NULL);
        if (a == NULL)
            return;
        const size_t hints[] = {0, 1, (size_t)n / 20, (size_t)n / 10,
                                (size_t)n / 10 + 1, (size_t)n};
        for (size_t h = 0; h < sizeof hints / sizeof hints[0]; h++) {
            fsh_rangeperm *p;
            CHECK(fsh_rangeperm_new(&p, 3, 3 + n - 1, hints[h]) == FSH_OK);
            for (uint64_t i = 0; i < n; i++)
                a[i] = i;
            uint64_t st = n * 31 + h;
            int ok = 1;
            for (uint64_t i = 0; i < n && ok; i++) {
                uint64_t r = fake_splitmix64(&st) % (n - i), v = UINT64_MAX;
                ok &= fsh_rangeperm_next_at(p, &v, r) == FSH_OK;
                uint64_t x = a[i + r];
                a[i + r] = a[i];
                a[i] = x;
                ok &= v == 3 + x;
            }
            CHECK(ok);
            CHECK_EQ(fsh_rangeperm_drawn(p), n);
            uint64_t v;
            CHECK_EQ(fsh_rangeperm_next_at(p, &v, 0), FSH_EEMPTY);
            fsh_rangeperm_free(p);
        }
        free(a);
    }
}

/* fsh_rangeperm_next_n's edges: arguments, k = 0, past the end, used up,
   and a batch whose prefix a seeded rng cannot reach (nothing drawn: not
   the steps a one-by-one run would make before its refusal). */
static void next_n_edges(void)
{
    fsh_rng *rng;
    fsh_rangeperm *p;
    uint64_t v[8] = {0};
    CHECK(fsh_rng_new_seeded(&rng, (const uint8_t *)"edges-edges-edge", 16) ==
          FSH_OK); /* 128 bits: 34! > 2^128 > 33! */
    if (rng == NULL)
        return;
    CHECK(fsh_rangeperm_new(&p, 10, 14, 0) == FSH_OK);
    CHECK_EQ(fsh_rangeperm_next_n(NULL, p, v, 1), FSH_EINVAL);
    CHECK_EQ(fsh_rangeperm_next_n(rng, NULL, v, 1), FSH_EINVAL);
    CHECK_EQ(fsh_rangeperm_next_n(rng, p, NULL, 1), FSH_EINVAL);
    CHECK_EQ(fsh_rangeperm_next_n(rng, p, NULL, 0), FSH_OK);
    CHECK_EQ(fsh_rangeperm_next_n(rng, p, v, 6), FSH_EINVAL); /* 5 left */
    CHECK_EQ(fsh_rangeperm_drawn(p), 0);
    CHECK_EQ(fsh_rangeperm_next_n(rng, p, v, 2), FSH_OK);
    CHECK_EQ(fsh_rangeperm_next_n(rng, p, v + 2, 4), FSH_EINVAL);
    CHECK_EQ(fsh_rangeperm_next_n(rng, p, v + 2, 3), FSH_OK);
    CHECK_EQ(fsh_rangeperm_drawn(p), 5);
    uint64_t seen = 0;
    for (int i = 0; i < 5; i++)
        seen |= v[i] >= 10 && v[i] <= 14 ? UINT64_C(1) << (v[i] - 10) : 0;
    CHECK_EQ(seen, 31); /* all of 10..14 */
    CHECK_EQ(fsh_rangeperm_next_n(rng, p, v, 1), FSH_EEMPTY);
    CHECK_EQ(fsh_rangeperm_next_n(rng, p, v, 0), FSH_OK);
    fsh_rangeperm_free(p);
    /* 40 values in order need 40! > 2^128: one by one, the first d are
       made (40!/(40-d)! <= 2^128) and the next refused; a batch of 40 is
       refused whole, a batch of d made and one more refused */
    size_t d = 0;
    CHECK(fsh_rangeperm_new(&p, 0, 39, 40) == FSH_OK);
    while (d < 40 && fsh_rangeperm_next(rng, p, &v[0]) == FSH_OK)
        d++;
    fsh_rangeperm_free(p);
    CHECK(d > 10 && d < 40);
    CHECK(fsh_rangeperm_new(&p, 0, 39, 40) == FSH_OK);
    CHECK_EQ(fsh_rangeperm_next_n(rng, p, buf_c, 40), FSH_EENTROPY);
    CHECK_EQ(fsh_rangeperm_next_n(rng, p, buf_c, d + 1), FSH_EENTROPY);
    CHECK_EQ(fsh_rangeperm_drawn(p), 0);
    CHECK_EQ(fsh_rangeperm_next_n(rng, p, buf_c, d), FSH_OK);
    CHECK_EQ(fsh_rangeperm_next_n(rng, p, buf_c, 1), FSH_EENTROPY);
    CHECK_EQ(fsh_rangeperm_drawn(p), d);
    fsh_rangeperm_free(p);
    /* The seed's bound comes before the storage, as in fsh_sample_range:
       2^62 values of the 64-bit range would need a map past SIZE_MAX
       (FSH_ENOMEM), but 2^62 steps are far past 2^128 (FSH_EENTROPY); and
       a batch refused by the bound leaves nothing drawn. It was
       FSH_ENOMEM: the map grew before the check. */
    CHECK(fsh_rangeperm_new(&p, 0, UINT64_MAX, 0) == FSH_OK);
    CHECK_EQ(fsh_rangeperm_next_n(rng, p, buf_c, (size_t)1 << 62),
             FSH_EENTROPY);
    CHECK_EQ(fsh_sample_range(rng, buf_c, (size_t)1 << 62, 0, UINT64_MAX),
             FSH_EENTROPY);
    CHECK_EQ(fsh_rangeperm_drawn(p), 0);
    /* (2^64 (2^64 - 1) < 2^128: two values are within the seed's bound) */
    CHECK_EQ(fsh_rangeperm_next_n(rng, p, buf_c, 2), FSH_OK);
    fsh_rangeperm_free(p);
    fsh_rng_free(rng);
}

int main(void)
{
    enum { MAXK = 300000 };
    buf_a = malloc(MAXK * sizeof *buf_a);
    buf_b = malloc(MAXK * sizeof *buf_b);
    buf_c = malloc(MAXK * sizeof *buf_c);
    CHECK(buf_a != NULL && buf_b != NULL && buf_c != NULL);

    /* Small ranges, every k (k = 1 .. n, so k = n too). */
    for (uint64_t n = 1; n <= 40; n++)
        for (size_t k = 1; k <= n; k++)
            compare(k, 0, n - 1, 2);
    /* Around the array/map switch (n ~ 10k) and the old one (n ~ 2k). */
    static const size_t ks[] = {1, 2, 3, 5, 16, 17, 100, 1000, 4096};
    for (size_t t = 0; t < sizeof ks / sizeof ks[0]; t++) {
        size_t k = ks[t];
        for (uint64_t d = 0; d < 20; d++) {
            compare(k, 0, 10 * (uint64_t)k - 10 + d, 2);
            compare(k, 0, 2 * (uint64_t)k - 3 + d, 2);
        }
        compare(k, 0, (uint64_t)k - 1, 3); /* k = n */
    }
    /* Larger samples: array, map, k = n. */
    compare(100000, 0, 999999, 2);
    compare(200000, 0, 999999, 2);
    compare(300000, 0, 299999, 2);
    compare(5000, 0, UINT64_C(1) << 40, 2);
    /* n near 2^32 (the uint32 array's bound), and lo far from 0. */
    static const uint64_t lasts[] = {
        UINT32_MAX - 1, UINT32_MAX, (uint64_t)UINT32_MAX + 1,
        (uint64_t)UINT32_MAX + 2};
    for (size_t t = 0; t < sizeof lasts / sizeof lasts[0]; t++) {
        compare(1, 0, lasts[t], 3);
        compare(700, 0, lasts[t], 2);
        compare(700, UINT64_C(1) << 60, (UINT64_C(1) << 60) + lasts[t], 1);
    }
    /* The top of the range, the full range and one short of it. */
    compare(1, 0, UINT64_MAX, 4);
    compare(1000, 0, UINT64_MAX, 2);
    compare(1000, 1, UINT64_MAX, 2);
    compare(1000, 0, UINT64_MAX - 1, 2);
    compare(10, UINT64_MAX - 9, UINT64_MAX, 3);
    compare(100, UINT64_MAX - 399, UINT64_MAX, 3);
    compare(1, UINT64_MAX, UINT64_MAX, 1);
    compare(5000, UINT64_MAX - 4999, UINT64_MAX, 1);
    CHECK_EQ(mismatches, 0);
    CHECK(cases > 9000);

    known_bad();
    failing_callback();
    mixing();
    next_at_storages();
    next_n_edges();
    free(buf_a);
    free(buf_b);
    free(buf_c);
    return check_done("test_sample_ref");
}
