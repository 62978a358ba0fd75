/* SPDX-License-Identifier: MIT */
/* run.sh: weight 17 (its usual wall time in s: longest first) */
/* The audit's p-values on a correct shuffler: many audits of fsh_shuffle
 * with fixed seeds through the battery fairshuf audit runs
 * (cli/audit/battery.c), per test and for the family.
 *
 * Configurations: 2 values (every statistic a binomial: big atoms), 3
 * values, 5 values (all 120 orders tested), 8 values (the duplicate test
 * runs, 1.98 pairs expected) and 52 cards; every test the battery has
 * runs in at least two of them.
 *
 * 1. Validity, discrete-aware. A p-value is valid when P(p <= u) <= u for
 *    every u, which holds for discrete statistics too (where P(p <= u) may
 *    be well below u: the duplicate test, p = 1 at no pair; the worst
 *    line, Bonferroni over 2n lines). So the count of p <= u among M
 *    audits must not exceed the binomial(M, r u) upper quantile at 2e-9,
 *    for u = 0.001, 0.01, 0.05, 0.1, 0.25, 0.5. r = 1.3: the chi-square
 *    limit is not exact in finite samples; the exact rates of these
 *    configurations' statistics reach 1.18 u at these u (n = 2: 20 and 40
 *    binomial trials, chi2(1) p-values without continuity correction;
 *    groups expecting 5 to 10 counts, exact multinomial enumeration:
 *    at most 1.17 u at u >= 0.001). The same bound for the family: the
 *    audits with a FAIL at alpha = 0.01 and 0.05 (Holm).
 * 2. Not dead, exactly: Pearson's X over k groups has mean k - 1 for any
 *    number of deals (E (O - E)^2 / E = 1 - p per group), the
 *    position-by-value statistic Y = X (n-1)/n has mean (n-1)^2 (docs/
 *    AUDIT.md), and the duplicate pairs C(T,2)/N! with variance
 *    C(T,2) p (1 - p), p = 1/N! (the pairs' indicators are uncorrelated).
 *    Each test's mean statistic over the M audits must lie within 7
 *    standard errors (the sample's, or the exact one for the duplicates)
 *    of that mean: a wrong degrees of freedom, scale or law moves it. The
 *    worst row or column (a maximum) has no such mean and is checked by 1
 *    only.
 *
 * 3. Exact rates in the far tail (test_exact_rates below): every outcome
 *    of five small multinomial configurations enumerated, P(p <= u) <= u
 *    at u = 1e-3, 1e-6 and 1e-9 exactly; deterministic, no false failure.
 *
 * False failures with fresh seeds: 1 is at most 6 u-values x 11 tests x 5
 * configurations + 2 family checks x 5 = 340 checks at 2e-9 each,
 * 6.8e-7; 2 is at most 50 checks at 7 standard errors (2.6e-12 each
 * for a normal mean; the skewness of a mean of M >= 300 statistics
 * multiplies that by at most 10), so the program's total is below 1e-6.
 * With these fixed seeds the outcome is deterministic.
 *
 * Also: when the deals' hashes find no memory once, the duplicate test is
 * skipped (realloc failed through -Wl,--wrap=realloc); deals the
 * duplicate test cannot use (more than the orders / 100) keep no hash.
 */
#include "check.h"
#include "audit/battery.h"
#include "fairshuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BETA 2e-9   /* per validity check */
#define SLACK 1.3   /* the chi-square limit's finite-sample excess, at most */
#define ZMEAN 7.0   /* standard errors for the mean checks */
#define LOW_SLACK 1.1 /* the lower check's allowance, at u >= 0.1 */

static const double us[] = {0.001, 0.01, 0.05, 0.1, 0.25, 0.5};
#define NU (sizeof us / sizeof us[0])

/* P(Binomial(m, r) = c). */
static long double binom_pmf(unsigned m, unsigned c, double r)
{
    return expl(lgammal((long double)m + 1) - lgammal((long double)c + 1) -
                lgammal((long double)(m - c) + 1) + (long double)c * logl(r) +
                (long double)(m - c) * log1pl(-(long double)r));
}

/* The smallest c with P(Binomial(m, r) >= c) <= beta. */
static unsigned binom_upper(unsigned m, double r, double beta)
{
    if (r >= 1)
        return m;
    long double tail = 0;
    for (unsigned c = m + 1; c-- > 0;) {
        tail += binom_pmf(m, c, r);
        if (tail > beta)
            return c + 1;
    }
    return 0;
}

/* The largest c with P(Binomial(m, r) <= c) <= beta (0 when none). */
static unsigned binom_lower(unsigned m, double r, double beta)
{
    long double tail = 0;
    for (unsigned c = 0; c <= m; c++) {
        tail += binom_pmf(m, c, r);
        if (tail > beta)
            return c == 0 ? 0 : c - 1;
    }
    return m;
}

typedef struct config {
    const char *name;
    size_t n;
    uint64_t deals;
    unsigned audits;
    int tests_run; /* of the battery's tests, how many run here */
    int smooth;    /* statistics of many values: the lower check too */
} config;

/* Per test: the p-values' counts below each u, and the statistic's sum
   and sum of squares (its mean and spread). */
typedef struct tally {
    const char *name;
    int ran, skipped;
    unsigned below[NU];
    double sum, sum2, df;
} tally;

static double lfact(size_t n)
{
    return lgamma((double)n + 1);
}

static void run_config(const config *c, fsh_rng *rng, uint32_t *a)
{
    tally t[BATTERY_TESTS];
    memset(t, 0, sizeof t);
    unsigned fam01 = 0, fam05 = 0;
    int k = 0;
    for (unsigned run = 0; run < c->audits; run++) {
        char seed[64];
        int len = snprintf(seed, sizeof seed, "audit p-values %zu %u", c->n,
                           run);
        battery *b = battery_new(c->n);
        if (fsh_rng_seed(rng, seed, (size_t)len) != FSH_OK ||
            fsh_rng_set_simulation(rng, 1) != FSH_OK || b == NULL) {
            CHECK(0);
            battery_free(b);
            return;
        }
        for (uint64_t d = 0; d < c->deals; d++) {
            for (size_t i = 0; i < c->n; i++)
                a[i] = (uint32_t)i;
            if (fsh_shuffle_u32(rng, a, c->n) != FSH_OK) {
                CHECK(0);
                battery_free(b);
                return;
            }
            battery_add(b, a, NULL);
        }
        /* The audit at alpha 0.01 (r) and at 0.05 (r5: Holm's decisions
           only). */
        test_result r[BATTERY_TESTS], r5[BATTERY_TESTS];
        k = battery_run(b, 0.01, r);
        if (k <= 0 || k > BATTERY_TESTS || battery_run(b, 0.05, r5) != k) {
            CHECK(0);
            battery_free(b);
            return;
        }
        unsigned fail01 = 0, fail05 = 0;
        for (int i = 0; i < k; i++) {
            t[i].name = r[i].name;
            fail05 |= r5[i].status == T_FAIL;
            if (r[i].status == T_SKIP) {
                t[i].skipped++;
                continue;
            }
            t[i].ran++;
            fail01 |= r[i].status == T_FAIL;
            for (size_t j = 0; j < NU; j++)
                t[i].below[j] += r[i].p <= us[j];
            t[i].sum += r[i].stat;
            t[i].sum2 += r[i].stat * r[i].stat;
            t[i].df = r[i].df;
        }
        fam01 += fail01;
        fam05 += fail05;
        battery_free(b);
    }

    unsigned m = c->audits;
    int ran = 0;
    printf("  %s: %u audits\n", c->name, m);
    for (int i = 0; i < k; i++) {
        /* A test runs in every audit of a configuration or in none. */
        CHECK(t[i].ran == 0 || t[i].skipped == 0);
        if (t[i].ran == 0)
            continue;
        ran++;
        int dup = strcmp(t[i].name, "duplicate decks") == 0,
            worst = strcmp(t[i].name, "worst row or column") == 0;
        printf("    %-42s", t[i].name);
        for (size_t j = 0; j < NU; j++) {
            unsigned lim = binom_upper(m, SLACK * us[j], BETA);
            printf(" %4u", t[i].below[j]);
            if (t[i].below[j] > lim)
                printf("(> %u)", lim);
            CHECK(t[i].below[j] <= lim);
            /* Not conservative: the tests of many values (not the
               maximum, not the duplicates) reach u / LOW_SLACK. */
            if (c->smooth && us[j] >= 0.1 && !dup && !worst) {
                unsigned low = binom_lower(m, us[j] / LOW_SLACK, BETA);
                if (t[i].below[j] < low)
                    printf("(< %u)", low);
                CHECK(t[i].below[j] >= low);
            }
        }
        double mean = t[i].sum / m;
        if (worst) {
            printf("  mean %.4g\n", mean);
            continue;
        }
        double want = t[i].df, se;
        if (dup) {
            double pairs = (double)c->deals * (double)(c->deals - 1) / 2,
                   p = exp(-lfact(c->n));
            want = pairs * p;
            se = sqrt(pairs * p * (1 - p) / m);
        } else {
            double var = (t[i].sum2 - t[i].sum * mean) / (m - 1);
            se = sqrt(var > 0 ? var / m : 0);
        }
        printf("  mean %.4g (want %.4g, se %.3g)\n", mean, want, se);
        CHECK(fabs(mean - want) <= ZMEAN * se);
    }
    unsigned l01 = binom_upper(m, SLACK * 0.01, BETA),
             l05 = binom_upper(m, SLACK * 0.05, BETA);
    printf("    (p <= 0.001 0.01 0.05 0.1 0.25 0.5); family failed: %u at "
           "0.01 (<= %u), %u at 0.05 (<= %u)\n",
           fam01, l01, fam05, l05);
    CHECK(fam01 <= l01);
    CHECK(fam05 <= l05);
    CHECK_EQ(ran, c->tests_run);
}

/* 3. Exact false-failure rates in the far tail. The chi-square limit's
   tail is too thin there: with 5 expected per cell a correct shuffler's
   p-value fell below 1e-6 3.8 to 4.9 times as often as 1e-6 (docs/
   AUDIT.md). For small configurations every outcome of the counts is
   enumerated with its exact multinomial probability, the battery's
   p-value found for each statistic (it is monotone in it: bisection over
   the distinct values), and P(p <= u) must not exceed u, exactly (no
   sampling: this check cannot fail by chance). Outcomes are enumerated
   as chains of binomials, branches below 1e-40 dropped (at most 1e-33 in
   all). */

typedef struct outcome {
    double x;
    long double pr;
    size_t at; /* its counts: hist + at * k */
} outcome;

typedef struct enumr {
    size_t k, cap, len;
    uint64_t total, *cur, *hist;
    const double *law;
    outcome *o;
    int cells; /* k equally likely cells, counts non-increasing */
    double lf[256];
} enumr;

static void keep(enumr *e, long double pr)
{
    if (e->len == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 4096;
        e->o = realloc(e->o, e->cap * sizeof *e->o);
        e->hist = realloc(e->hist, e->cap * e->k * sizeof *e->hist);
        if (e->o == NULL || e->hist == NULL) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
    }
    memcpy(e->hist + e->len * e->k, e->cur, e->k * sizeof *e->cur);
    e->o[e->len].pr = pr;
    e->o[e->len].at = e->len;
    e->o[e->len].x = 0;
    e->len++;
}

/* Counts of categories j.. given left to place and the law's mass rest
   still to come; lp = log probability so far. */
static void walk(enumr *e, size_t j, uint64_t left, long double rest,
                 long double lp)
{
    if (lp < -92) /* 1e-40 */
        return;
    if (j + 1 == e->k) {
        if (left > 0 && e->law[j] == 0)
            return;
        e->cur[j] = left;
        keep(e, expl(lp));
        return;
    }
    long double q = rest > 0 ? e->law[j] / rest : 0;
    if (q > 1)
        q = 1;
    for (uint64_t o = 0; o <= left; o++) {
        if (o > 0 && q == 0)
            break;
        long double l = lp + (long double)e->lf[left] - e->lf[o] -
                        e->lf[left - o];
        if (o > 0)
            l += (long double)o * logl(q);
        if (left - o > 0)
            l += q < 1 ? (long double)(left - o) * log1pl(-q) : -INFINITY;
        e->cur[j] = o;
        walk(e, j + 1, left - o, rest - e->law[j], l);
    }
}

/* k equally likely cells: the counts as a non-increasing sequence, each
   standing for its k! / prod(multiplicities!) arrangements. */
static void parts(enumr *e, size_t j, uint64_t left, uint64_t maxp)
{
    if (j == e->k) {
        if (left > 0)
            return;
        long double l = e->lf[e->total] - (long double)e->total *
                                              logl((long double)e->k);
        l += e->lf[e->k];
        size_t run = 1;
        for (size_t i = 0; i < e->k; i++) {
            l -= e->lf[e->cur[i]];
            if (i + 1 < e->k && e->cur[i + 1] == e->cur[i]) {
                run++;
            } else {
                l -= e->lf[run];
                run = 1;
            }
        }
        if (l >= -92)
            keep(e, expl(l));
        return;
    }
    for (uint64_t o = maxp < left ? maxp : left; o + 1 > 0; o--) {
        /* The remaining cells cannot hold more than o each. */
        if (o * (uint64_t)(e->k - j) < left)
            break;
        e->cur[j] = o;
        parts(e, j + 1, left - o, o);
    }
}

static int by_x_down(const void *a, const void *b)
{
    double x = ((const outcome *)a)->x, y = ((const outcome *)b)->x;
    return x > y ? -1 : x < y;
}

static double config_p(enumr *e, size_t i, double *x)
{
    const uint64_t *h = e->hist + e->o[i].at * e->k;
    return e->cells ? battery_cells_p(h, e->k, 0.01, x)
                    : battery_law_p(h, e->law, e->k, 0.01, x);
}

static void exact_rates(const char *name, size_t k, uint64_t total,
                        const double *law)
{
    static const double ue[] = {1e-3, 1e-6, 1e-9};
    clock_t t0 = clock();
    enumr e;
    memset(&e, 0, sizeof e);
    e.k = k;
    e.total = total;
    e.law = law;
    e.cells = law == NULL;
    e.cur = calloc(k, sizeof *e.cur);
    for (int i = 1; i < 256; i++)
        e.lf[i] = e.lf[i - 1] + log((double)i);
    if (e.cells)
        parts(&e, 0, total, total);
    else
        walk(&e, 0, total, 1, 0);
    /* Each outcome's statistic as the battery computes it. */
    long double mass = 0;
    int same = 1;
    for (size_t i = 0; i < e.len; i++) {
        double x = NAN;
        const uint64_t *h = e.hist + e.o[i].at * k;
        if (e.cells) {
            double ex = (double)total / (double)k;
            x = 0;
            for (size_t c = 0; c < k; c++)
                x += ((double)h[c] - ex) * ((double)h[c] - ex) / ex;
        } else if (fsh_stats_chi2_gof(h, law, k, fmax(5, (double)total / 100), &x,
                                      NULL, NULL) != FSH_OK) {
            same = 0;
        }
        e.o[i].x = x;
        mass += e.o[i].pr;
    }
    CHECK(same);
    qsort(e.o, e.len, sizeof *e.o, by_x_down);
    /* Distinct statistics (equal within 1e-9 relative: one value
       computed in two orders), each with P(X >= it). */
    size_t nd = 0;
    size_t *first = malloc(e.len * sizeof *first);
    long double *tail = malloc(e.len * sizeof *tail), cum = 0;
    for (size_t i = 0; i < e.len; i++) {
        if (i == 0 || e.o[i].x < e.o[i - 1].x - 1e-9 * fabs(e.o[i - 1].x))
            first[nd++] = i;
        cum += e.o[i].pr;
        tail[nd - 1] = cum;
    }
    printf("  %s: %zu outcomes (mass %.12Lf), %zu statistics; P(p <= u) / u:",
           name, e.len, mass, nd);
    CHECK(fabsl(mass - 1) < 1e-9L);
    for (size_t j = 0; j < sizeof ue / sizeof ue[0]; j++) {
        /* The largest d with p(value d) <= u: p grows with d. */
        size_t lo = 0, hi = nd; /* p <= u on [0, lo), not at hi.. */
        int ok = 1;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            double x, p = config_p(&e, first[mid], &x);
            ok &= fabs(x - e.o[first[mid]].x) <= 1e-9 * fmax(1, x);
            if (p <= ue[j])
                lo = mid + 1;
            else
                hi = mid;
        }
        CHECK(ok);
        long double rate = lo > 0 ? tail[lo - 1] : 0;
        printf(" %.3Lg", rate / ue[j]);
        if (rate > ue[j])
            printf("(> 1 at u = %g)", ue[j]);
        CHECK(rate <= ue[j]);
    }
    printf(" (%.1f s)\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
    free(first);
    free(tail);
    free(e.o);
    free(e.hist);
    free(e.cur);
}

/* 3b. Equal cells beyond the enumeration: k cells of T counts, 5
   expected each, where the exact tail is too slow for the battery (it
   used the chi-square limit there: at 52 cells P(p <= 1e-6) was 3.0e-6).
   The battery's p-value depends on the counts through S = sum O_i^2
   only (X = k S / T - T) and falls as S grows, so P(p <= u) = P(S >= s)
   for the least s whose p is at most u (bisection over the integers).
   The law of S, exactly: a dynamic program over the cells with the
   state (counts so far m, S so far), each cell weighted 1/o! (the
   multinomial is T! / k^T prod 1/o_i!); states whose S, plus the least
   the other cells can add, reach the largest s needed are left out, and
   their mass is what the others miss of the total (c^m / m! after c
   cells): P(S >= s) is the mass kept from s on plus that. */
static void equal_rates(size_t k, unsigned T)
{
    static const double ue[] = {1e-3, 1e-6, 1e-9};
    enum { NUE = sizeof ue / sizeof ue[0] };
    clock_t t0 = clock();
    long s_at[NUE], cap = 0;
    for (size_t j = 0; j < NUE; j++) {
        long lo = (long)((double)T * T / (double)k), hi = (long)T * T;
        while (lo < hi) { /* the least s with p(s) <= u */
            long mid = lo + (hi - lo) / 2;
            double x = (double)k * (double)mid / T - T;
            double p = battery_cells_px(T, k, x, 0.01);
            if (p <= ue[j])
                hi = mid;
            else
                lo = mid + 1;
        }
        s_at[j] = lo;
        if (lo + 1 > cap)
            cap = lo + 1;
    }
    size_t cells = (size_t)(T + 1) * (size_t)cap;
    long double *cur = calloc(cells, sizeof *cur),
                *nxt = calloc(cells, sizeof *nxt), inv_fact[4096];
    if (cur == NULL || nxt == NULL || T >= 4096) {
        CHECK(0);
        free(cur);
        free(nxt);
        return;
    }
    inv_fact[0] = 1;
    for (unsigned o = 1; o <= T; o++)
        inv_fact[o] = inv_fact[o - 1] / o;
    cur[0] = 1;
    for (size_t c = 0; c < k; c++) {
        size_t rem = k - c - 1; /* cells after this one */
        memset(nxt, 0, cells * sizeof *nxt);
        for (unsigned m = 0; m <= T; m++)
            for (long s = 0; s < cap; s++) {
                long double w = cur[(size_t)m * (size_t)cap + (size_t)s];
                if (w == 0)
                    continue;
                for (unsigned o = rem == 0 ? T - m : 0; o <= T - m; o++) {
                    long s2 = s + (long)o * (long)o;
                    if (s2 >= cap)
                        break;
                    unsigned m2 = m + o;
                    double least = rem == 0 ? 0
                                            : (double)(T - m2) * (T - m2) /
                                                  (double)rem;
                    if ((double)s2 + least >= (double)cap)
                        continue;
                    nxt[(size_t)m2 * (size_t)cap + (size_t)s2] +=
                        w * inv_fact[o];
                }
            }
        long double *t = cur;
        cur = nxt;
        nxt = t;
    }
    /* P(S = s) = cur[T][s] T! / k^T. */
    long double scale = expl(lgammal((long double)T + 1) -
                             (long double)T * logl((long double)k)),
                kept = 0, *row = cur + (size_t)T * (size_t)cap;
    for (long s = 0; s < cap; s++)
        kept += row[s] * scale;
    long double beyond = 1 - kept;
    printf("  %zu equal cells, %u counts (exact law of the sum of squares): "
           "P(p <= u) / u:",
           k, T);
    CHECK(beyond >= -1e-15L && beyond < 1e-6L);
    for (size_t j = 0; j < NUE; j++) {
        long double rate = beyond;
        for (long s = s_at[j]; s < cap; s++)
            rate += row[s] * scale;
        printf(" %.3Lg", rate / ue[j]);
        if (rate > ue[j])
            printf("(> 1 at u = %g)", ue[j]);
        CHECK(rate <= ue[j]);
    }
    printf(" (%.1f s)\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
    free(cur);
    free(nxt);
}

/* 3c. Position by value at 3 values, exactly: the 6 orders' counts
   enumerated (multinomial), each outcome's statistic Y = X (n-1)/n of the
   3 x 3 counts, and P(p <= u) <= u at u = 1e-3, 1e-6, 1e-9 as above (the
   battery's p-value depends on Y and the deals only). With the
   chi-square(4) limit the rates were 0.92, 1.39, 3.2 at 30 deals and
   0.94, 1.38, 3.09 at 45. */
typedef struct ycase {
    double y;
    long double pr;
} ycase;

static int by_y_down(const void *a, const void *b)
{
    double x = ((const ycase *)a)->y, y = ((const ycase *)b)->y;
    return x > y ? -1 : x < y;
}

static void pbv3_walk(ycase *out, size_t *len, unsigned T, unsigned *o,
                      int i, unsigned left, long double lp,
                      const long double *lf)
{
    static const int perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                   {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    if (i == 5) {
        o[5] = left;
        lp -= lf[left];
        double c[3][3] = {{0}}, e = T / 3.0, x = 0;
        for (int s = 0; s < 6; s++)
            for (int q = 0; q < 3; q++)
                c[q][perm[s][q]] += o[s];
        for (int q = 0; q < 3; q++)
            for (int v = 0; v < 3; v++)
                x += (c[q][v] - e) * (c[q][v] - e) / e;
        out[*len].y = x * 2 / 3;
        out[*len].pr = expl(lp + lf[T] - (long double)T * logl(6));
        (*len)++;
        return;
    }
    for (unsigned a = 0; a <= left; a++) {
        o[i] = a;
        pbv3_walk(out, len, T, o, i + 1, left - a, lp - lf[a], lf);
    }
}

static void pbv3_rates(unsigned T)
{
    static const double ue[] = {1e-3, 1e-6, 1e-9};
    clock_t t0 = clock();
    size_t cap = 1, len = 0;
    for (unsigned i = 1; i <= 5; i++) /* C(T + 5, 5) outcomes */
        cap = cap * (T + i) / i;
    ycase *yc = malloc(cap * sizeof *yc);
    long double lf[128];
    unsigned o[6];
    if (yc == NULL || T >= 128) {
        CHECK(0);
        free(yc);
        return;
    }
    lf[0] = 0;
    for (int i = 1; i < 128; i++)
        lf[i] = lf[i - 1] + logl((long double)i);
    pbv3_walk(yc, &len, T, o, 0, T, 0, lf);
    CHECK_EQ(len, cap);
    qsort(yc, len, sizeof *yc, by_y_down);
    /* Distinct statistics (within 1e-9) with P(Y >= it). */
    size_t nd = 0, *first = malloc(len * sizeof *first);
    long double *tail = malloc(len * sizeof *tail), cum = 0;
    if (first == NULL || tail == NULL) {
        CHECK(0);
        free(first);
        free(tail);
        free(yc);
        return;
    }
    for (size_t i = 0; i < len; i++) {
        if (i == 0 || yc[i].y < yc[i - 1].y - 1e-9 * fabs(yc[i - 1].y))
            first[nd++] = i;
        cum += yc[i].pr;
        tail[nd - 1] = cum;
    }
    CHECK(fabsl(cum - 1) < 1e-9L);
    printf("  position by value, 3 values, %u deals: %zu outcomes, %zu "
           "statistics; P(p <= u) / u:",
           T, len, nd);
    for (size_t j = 0; j < sizeof ue / sizeof ue[0]; j++) {
        size_t lo = 0, hi = nd; /* p <= u on [0, lo) */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (battery_pbv_p(3, T, yc[first[mid]].y, 0.01) <= ue[j])
                lo = mid + 1;
            else
                hi = mid;
        }
        long double rate = lo > 0 ? tail[lo - 1] : 0;
        printf(" %.3Lg", rate / ue[j]);
        if (rate > ue[j])
            printf("(> 1 at u = %g)", ue[j]);
        CHECK(rate <= ue[j]);
    }
    printf(" (%.1f s)\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
    free(first);
    free(tail);
    free(yc);
}

/* 3d. Position by value at 4 values, exactly: the law of the 4 x 4
   counts C after T deals by dynamic programming over the deals, the
   states merged under the symmetries that keep both the law of a
   uniform permutation matrix and S = sum C^2 (row and column
   permutations, transposition: 1152 of them; 20378 states at 12 deals,
   179969 at 16, 1.06e6 at 20). Y = 3 (S - T^2) / T; its mean 9 and
   variance 18 (T - 1) / T (the pairs' fixed points, docs/AUDIT.md) are
   checked, then P(p <= u) <= u at u = 1e-3, 1e-6, 1e-9 (the battery's
   p-value at any number of deals; it runs the test from 20). With the
   chi-square(9) limit the rates were 0.97, 2.0, 6.31 at 12 deals, 0.90,
   2.05, 7.1 at 16 (0.97, 1.95, 6.31 at 20: FSH_PBV4_DEALS=20, 30 s). */
typedef struct pbv4_ent {
    uint64_t k0, k1; /* the canonical matrix, 16 bytes; 0, 0: empty */
    double p;
} pbv4_ent;

typedef struct pbv4_tab {
    pbv4_ent *e;
    size_t cap, len;
} pbv4_tab;

static int pbv4_perm[24][4];

/* The least (as 128 bits) of the matrix's images under the 1152
   symmetries: for each column order and transposition, rows sorted. */
static void pbv4_sort2(uint32_t *w, int a, int b)
{
    if (w[a] < w[b]) {
        uint32_t t = w[a];
        w[a] = w[b];
        w[b] = t;
    }
}

static void pbv4_canon(const uint8_t c[16], uint64_t *k0, uint64_t *k1)
{
    uint64_t b0 = 0, b1 = 0;
    for (int tr = 0; tr < 2; tr++) {
        uint8_t m[16];
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                m[i * 4 + j] = tr ? c[j * 4 + i] : c[i * 4 + j];
        for (int q = 0; q < 24; q++) {
            const int *pq = pbv4_perm[q];
            uint32_t w[4];
            for (int i = 0; i < 4; i++)
                w[i] = (uint32_t)m[i * 4 + pq[0]] << 24 |
                       (uint32_t)m[i * 4 + pq[1]] << 16 |
                       (uint32_t)m[i * 4 + pq[2]] << 8 | m[i * 4 + pq[3]];
            /* Descending, by a sorting network. */
            pbv4_sort2(w, 0, 1);
            pbv4_sort2(w, 2, 3);
            pbv4_sort2(w, 0, 2);
            pbv4_sort2(w, 1, 3);
            pbv4_sort2(w, 1, 2);
            uint64_t a0 = (uint64_t)w[0] << 32 | w[1],
                     a1 = (uint64_t)w[2] << 32 | w[3];
            if (a0 > b0 || (a0 == b0 && a1 > b1)) {
                b0 = a0;
                b1 = a1;
            }
        }
    }
    *k0 = b0;
    *k1 = b1;
}

static int pbv4_add(pbv4_tab *t, uint64_t k0, uint64_t k1, double p)
{
    uint64_t h = (k0 * 0x9e3779b97f4a7c15ULL) ^ k1;
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
    size_t i = (size_t)(h ^ (h >> 31)) & (t->cap - 1);
    for (;;) {
        pbv4_ent *e = &t->e[i];
        if (e->k0 == 0 && e->k1 == 0) {
            e->k0 = k0;
            e->k1 = k1;
            e->p = p;
            return ++t->len * 10 <= t->cap * 9;
        }
        if (e->k0 == k0 && e->k1 == k1) {
            e->p += p;
            return 1;
        }
        i = (i + 1) & (t->cap - 1);
    }
}

static void pbv4_rates(unsigned T)
{
    static const double ue[] = {1e-3, 1e-6, 1e-9};
    clock_t t0 = clock();
    int np = 0;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            for (int c = 0; c < 4; c++)
                if (a != b && a != c && b != c) {
                    pbv4_perm[np][0] = a;
                    pbv4_perm[np][1] = b;
                    pbv4_perm[np][2] = c;
                    pbv4_perm[np][3] = 6 - a - b - c;
                    np++;
                }
    pbv4_tab cur = {calloc(16, sizeof(pbv4_ent)), 16, 0}, nxt;
    uint8_t m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    uint64_t k0, k1;
    int ok = cur.e != NULL && T >= 1 && T < 64;
    if (ok) {
        pbv4_canon(m, &k0, &k1);
        pbv4_add(&cur, k0, k1, 1);
    }
    for (unsigned t = 2; ok && t <= T; t++) {
        /* The states grow by about (t / (t - 1))^9 a deal. */
        double want = (double)cur.len * pow((double)t / (t - 1), 9) * 1.3;
        nxt.cap = 16;
        while ((double)nxt.cap * 0.9 < want)
            nxt.cap *= 2;
        nxt.len = 0;
        nxt.e = calloc(nxt.cap, sizeof *nxt.e);
        ok = nxt.e != NULL;
        for (size_t i = 0; ok && i < cur.cap; i++) {
            const pbv4_ent *e = &cur.e[i];
            if (e->k0 == 0 && e->k1 == 0)
                continue;
            for (int r = 0; r < 16; r++)
                m[r] = (uint8_t)((r < 8 ? e->k0 >> (56 - 8 * r)
                                        : e->k1 >> (56 - 8 * (r - 8))) &
                                 255);
            for (int q = 0; ok && q < 24; q++) {
                uint8_t d[16];
                memcpy(d, m, sizeof d);
                for (int r = 0; r < 4; r++)
                    d[r * 4 + pbv4_perm[q][r]]++;
                pbv4_canon(d, &k0, &k1);
                ok = pbv4_add(&nxt, k0, k1, e->p / 24);
            }
        }
        free(cur.e);
        cur = nxt;
    }
    size_t smax = 4 * (size_t)T * T + 1;
    long double *law = calloc(smax, sizeof *law), m1 = 0, m2 = 0, tot = 0;
    ok = ok && law != NULL;
    for (size_t i = 0; ok && i < cur.cap; i++) {
        const pbv4_ent *e = &cur.e[i];
        if (e->k0 == 0 && e->k1 == 0)
            continue;
        size_t sq = 0;
        for (int r = 0; r < 8; r++) {
            size_t a = (size_t)(e->k0 >> (56 - 8 * r)) & 255,
                   b = (size_t)(e->k1 >> (56 - 8 * r)) & 255;
            sq += a * a + b * b;
        }
        law[sq] += e->p;
    }
    CHECK(ok);
    for (size_t sq = 0; ok && sq < smax; sq++) {
        long double y = 3.0L * ((long double)sq - (long double)T * T) / T;
        tot += law[sq];
        m1 += law[sq] * y;
        m2 += law[sq] * y * y;
    }
    if (ok) {
        CHECK(fabsl(tot - 1) < 1e-9L);
        CHECK(fabsl(m1 - 9) < 1e-9L);
        CHECK(fabsl(m2 - m1 * m1 - 18.0L * (T - 1) / T) < 1e-8L);
        printf("  position by value, 4 values, %u deals: %zu states; "
               "P(p <= u) / u:",
               T, cur.len);
    }
    for (size_t j = 0; ok && j < sizeof ue / sizeof ue[0]; j++) {
        /* p falls as S grows: the least S with p <= u, by bisection. */
        size_t lo = T * (size_t)T, hi = smax;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            double y = 3.0 * ((double)mid - (double)T * T) / T;
            if (battery_pbv_p(4, T, y, 0.01) <= ue[j])
                hi = mid;
            else
                lo = mid + 1;
        }
        long double rate = 0;
        for (size_t sq = lo; sq < smax; sq++)
            rate += law[sq];
        printf(" %.3Lg", rate / ue[j]);
        if (rate > ue[j])
            printf("(> 1 at u = %g)", ue[j]);
        CHECK(rate <= ue[j]);
    }
    printf(" (%.1f s)\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
    free(law);
    free(cur.e);
}

static void test_exact_rates(void)
{
    double fix5[6];
    CHECK_EQ(fsh_stats_fixed_points_law(5, fix5), FSH_OK);
    double fix3[4];
    CHECK_EQ(fsh_stats_fixed_points_law(3, fix3), FSH_OK);
    exact_rates("6 cells, 30 counts (3 values, full permutation)", 6, 30,
                NULL);
    exact_rates("8 cells, 40 counts", 8, 40, NULL);
    exact_rates("3 cells, 60 counts (20 each)", 3, 60, NULL);
    exact_rates("fixed points of 3 values, 30 deals", 4, 30, fix3);
    exact_rates("fixed points of 5 values, 60 deals (4 groups)", 6, 60, fix5);
    equal_rates(52, 260);
    pbv3_rates(30);
    /* 1.2 s (10 under the sanitizer, which runs the 30 deals only). */
    if (getenv("FSH_SANITIZE") == NULL)
        pbv3_rates(45);
    /* 0.5 and 4.4 s (the sanitizer runs the 12 deals only). */
    const char *deals4 = getenv("FSH_PBV4_DEALS");
    if (deals4 != NULL) {
        pbv4_rates((unsigned)atoi(deals4));
    } else {
        pbv4_rates(12);
        if (getenv("FSH_SANITIZE") == NULL)
            pbv4_rates(16);
    }
}

/* 3e. Position by value's p-value never rises with the statistic, at
   fixed deals and alpha: it was the chi-square((n-1)^2) limit's above
   m = max(alpha, 1e-3) and the n! orders' tail below, far heavier where
   they meet (4 values, alpha 1e-3: 0.018 at y = 20, 0.22 just past the
   switch at 27.88), and within the orders' test the limit gave way to the exact
   tail, heavier again (0.00107 to 0.0117 at 4 values, 1000 deals). A
   grid of statistics, denser at both switches (Y's limit's quantile at
   m, X's at m), at deal counts where the orders' tail is exact (the
   Chernoff bound used beyond still wiggles, docs/AUDIT.md). p may rise
   by 1e-12 of itself: the exact tail's dynamic program rounds each sum
   up, differently at two statistics of one lattice point (6.7e-16
   seen). The old code failed 14 of the 231 steps, at every switch of
   every case (1.6 s; the sanitizer runs the fewer deals of each, whose
   grids still straddle both switches). */
static void test_pbv_monotone(void)
{
    static const struct {
        size_t n;
        uint64_t deals, deals_san;
        double top, step;
    } cases[] = {
        {2, 40, 10, 40, 4},
        {2, 1000, 1000, 40, 4},
        {3, 30, 10, 45, 3},
        {4, 20, 12, 70, 5},
    };
    static const double alphas[] = {1e-3, 1e-6, 0.05};
    int san = getenv("FSH_SANITIZE") != NULL, steps = 0, rises = 0;
    clock_t t0 = clock();
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t n = cases[c].n;
        uint64_t T = san ? cases[c].deals_san : cases[c].deals;
        double dfy = (double)((n - 1) * (n - 1)),
               dfx = n == 2 ? 1 : n == 3 ? 5 : 23;
        for (size_t a = 0; a < sizeof alphas / sizeof alphas[0]; a++) {
            double m = fmax(alphas[a], 1e-3), ys, xs, y[64];
            size_t len = 0;
            CHECK_EQ(fsh_stats_chi2_isf(m, dfy, &ys), FSH_OK);
            CHECK_EQ(fsh_stats_chi2_isf(m, dfx, &xs), FSH_OK);
            for (double v = cases[c].step; v <= cases[c].top;
                 v += cases[c].step)
                y[len++] = v;
            static const double near[] = {-0.5, -1e-6, 1e-6, 0.5};
            for (size_t j = 0; j < 4; j++) { /* 0.5 apart, or 1e-6 of it */
                int wide = j == 0 || j == 3;
                y[len++] = wide ? ys + near[j] : ys * (1 + near[j]);
                y[len++] = wide ? xs + near[j] : xs * (1 + near[j]);
            }
            for (size_t i = 1; i < len; i++) /* insertion sort */
                for (size_t j = i; j > 0 && y[j] < y[j - 1]; j--) {
                    double t = y[j];
                    y[j] = y[j - 1];
                    y[j - 1] = t;
                }
            double prev = battery_pbv_p(n, T, y[0], alphas[a]);
            CHECK(prev >= 0 && prev <= 1);
            for (size_t i = 1; i < len; i++) {
                double p = battery_pbv_p(n, T, y[i], alphas[a]);
                steps++;
                if (!(p <= prev * (1 + 1e-12))) {
                    rises++;
                    printf("  %zu values, %llu deals, alpha %g: p = %.4g at "
                           "y = %.6g, %.4g at %.6g\n",
                           n, (unsigned long long)T, alphas[a], prev,
                           y[i - 1], p, y[i]);
                }
                CHECK(p <= prev * (1 + 1e-12));
                prev = p;
            }
        }
    }
    printf("  position by value's p-value over the statistic: %d rises in "
           "%d steps (%.1f s)\n",
           rises, steps, (double)(clock() - t0) / CLOCKS_PER_SEC);
}

/* 3f. The p-value of k equally likely cells (full permutation, first-
   and last-card differences, each line of the worst row or column, and
   position by value's orders) never rises with the statistic, at fixed
   counts and alpha: it was the limit's above m = max(alpha, 1e-3) and
   the far tail's from the switch xs (the limit's quantile at m) on,
   heavier there (24 cells, 1000 counts, alpha 1e-3: 0.001 just below
   xs, 0.0118 at it; 12 cells, 60 counts: 0.0013). A grid of statistics
   from the mean to xs, denser at xs, where the far tail is exact (2 to
   12 cells; then two more up to the limit's 1e-5 quantile) and where it
   is the bound (8 to 120 cells, more counts; past xs the bound itself
   still wiggles, docs/AUDIT.md, so there the grid stops at xs + 0.5).
   Below xs p is never below the limit's (the rule's) and above m, so
   no decision at a level up to m changed. p may rise by 1e-12 of itself
   (the exact tail's rounding, as in 3e). The old code rose at 28 of the
   884 steps, at every switch where the far tail exceeds m (2.2 s; the
   sanitizer runs every other case, 13 rises of 442 before). */
static void test_cells_monotone(void)
{
    static const struct {
        size_t k;
        uint64_t total;
        int exact; /* the far tail exact at alpha 1e-3 */
    } cases[] = {
        {2, 40, 1},   {3, 60, 1},   {6, 30, 1},    {6, 60, 1},
        {8, 100, 1},  {12, 60, 1},  {8, 400, 0},   {24, 1000, 0},
        {52, 2000, 0}, {120, 1200, 0},
    };
    static const double alphas[] = {1e-3, 1e-6, 0.01, 0.05};
    int san = getenv("FSH_SANITIZE") != NULL, steps = 0, rises = 0;
    clock_t t0 = clock();
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t k = cases[c].k;
        uint64_t T = cases[c].total;
        double df = (double)(k - 1), top;
        if (san && c % 2)
            continue;
        CHECK_EQ(fsh_stats_chi2_isf(1e-5, df, &top), FSH_OK);
        for (size_t a = 0; a < sizeof alphas / sizeof alphas[0]; a++) {
            int exact = battery_cells_exact(T, k, alphas[a], 1);
            CHECK(exact >= 0);
            if (alphas[a] == 1e-3)
                CHECK_EQ(exact, cases[c].exact);
            double m = fmax(alphas[a], 1e-3), xs, x[48];
            size_t len = 0;
            CHECK_EQ(fsh_stats_chi2_isf(m, df, &xs), FSH_OK);
            for (int i = 0; i < 16; i++) /* the mean to xs */
                x[len++] = df + (xs - df) * i / 16;
            for (int i = 1; exact && i <= 2; i++) /* xs to top */
                x[len++] = xs + (top - xs) * i / 2;
            static const double near[] = {-0.5, -1e-6, -1e-9, 1e-9,
                                          1e-6,  0.5};
            for (size_t j = 0; j < 6; j++) { /* 0.5 apart, or of it */
                int wide = j == 0 || j == 5;
                x[len++] = wide ? xs + near[j] : xs * (1 + near[j]);
            }
            for (size_t i = 1; i < len; i++) /* insertion sort */
                for (size_t j = i; j > 0 && x[j] < x[j - 1]; j--) {
                    double t = x[j];
                    x[j] = x[j - 1];
                    x[j - 1] = t;
                }
            double prev = battery_cells_px(T, k, x[0], alphas[a]);
            CHECK(prev >= 0 && prev <= 1);
            for (size_t i = 1; i < len; i++) {
                double p = battery_cells_px(T, k, x[i], alphas[a]), pl;
                steps++;
                CHECK_EQ(fsh_stats_chi2_sf(x[i], df, &pl), FSH_OK);
                if (pl > m)
                    CHECK(p >= pl && p > m);
                if (!(p <= prev * (1 + 1e-12))) {
                    rises++;
                    printf("  %zu cells, %llu counts, alpha %g: p = %.4g at "
                           "x = %.6g, %.4g at %.6g\n",
                           k, (unsigned long long)T, alphas[a], prev,
                           x[i - 1], p, x[i]);
                }
                CHECK(p <= prev * (1 + 1e-12));
                prev = p;
            }
        }
    }
    printf("  equal cells' p-value over the statistic: %d rises in %d "
           "steps (%.1f s)\n",
           rises, steps, (double)(clock() - t0) / CLOCKS_PER_SEC);
}

/* The duplicate test's p-value is never below the exact tail of the
   pairs: 400 deals of 12 values, one of them three times (3 pairs). Three
   equal deals have probability at least C(T,3) q^2 (1 - 3 T q - C(T,3)
   q^2), q = 1/12!, 4.6e-11 (Bonferroni over the triples), where the
   Poisson tail gave 7.7e-13. */
static void test_dup_triple(fsh_rng *rng, uint32_t *a)
{
    battery *b = battery_new(12);
    CHECK(b != NULL);
    if (b == NULL)
        return;
    CHECK_EQ(fsh_rng_seed(rng, "dup triple", 10), FSH_OK);
    CHECK_EQ(fsh_rng_set_simulation(rng, 1), FSH_OK);
    uint32_t keep[12];
    int ok = 1;
    for (int d = 0; d < 400; d++) {
        if (d == 100 || d == 300) {
            memcpy(a, keep, sizeof keep);
        } else {
            for (uint32_t i = 0; i < 12; i++)
                a[i] = i;
            ok &= fsh_shuffle_u32(rng, a, 12) == FSH_OK;
            if (d == 0)
                memcpy(keep, a, sizeof keep);
        }
        battery_add(b, a, NULL);
    }
    CHECK(ok);
    test_result r[BATTERY_TESTS];
    int k = battery_run(b, 0.01, r);
    double q = exp(-lfact(12)), c3 = 400.0 * 399 * 398 / 6,
           low = c3 * q * q * (1 - 3 * 400 * q - c3 * q * q);
    for (int i = 0; i < k; i++) {
        if (strcmp(r[i].name, "duplicate decks") != 0)
            continue;
        printf("  400 deals of 12, one three times: %g pairs, p = %.3g "
               "(exact tail at least %.3g)\n",
               r[i].stat, r[i].p, low);
        CHECK(r[i].status != T_SKIP && r[i].stat == 3);
        CHECK(r[i].p >= low);
    }
    battery_free(b);
}

/* The battery's one realloc (the deals' hashes) fails when armed
   (-Wl,--wrap=realloc, Makefile). */
static int realloc_fail;
static unsigned long realloc_calls;
void *__real_realloc(void *p, size_t size);
void *__wrap_realloc(void *p, size_t size);
void *__wrap_realloc(void *p, size_t size)
{
    realloc_calls++;
    if (realloc_fail) {
        realloc_fail = 0;
        return NULL;
    }
    return __real_realloc(p, size);
}

/* malloc and calloc, the battery's and libfairshuf.a's (-Wl,--wrap,
   Makefile): while armed, the alloc_fail_at-th call fails, once. */
static int alloc_armed;
static unsigned long alloc_calls, alloc_fail_at, alloc_injected;
void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
static int alloc_fails(void)
{
    if (!alloc_armed)
        return 0;
    if (++alloc_calls != alloc_fail_at)
        return 0;
    alloc_injected++;
    return 1;
}
void *__wrap_malloc(size_t size)
{
    return alloc_fails() ? NULL : __real_malloc(size);
}
void *__wrap_calloc(size_t n, size_t size)
{
    return alloc_fails() ? NULL : __real_calloc(n, size);
}

/* A p-value the battery cannot compute (no memory for its exact tail: the
   Nth allocation of battery_run failing, N = 1, 2, ... until a run makes
   fewer than N) is NaN: the test is T_NONE, its adjusted p-value 1, and
   Holm's procedure sorts it after every number, so each other test keeps
   the adjusted p-value and decision of the procedure over the others with
   m the tests that ran (sorted first, as NaN compares to nothing, it made
   every later adjusted value 1). Every other test's p-value is the clean
   run's; a failure outside an exact tail makes battery_run return -1.
   60 deals of 3 values, every 5th the identity (p-values from 8e-4 to
   0.5, so that Holm's adjusted values differ: with NaN sorted first they
   were all 1 after it), at alpha 0.5: every p-value at most 0.5 is an
   exact tail, each with allocations to fail (1 s; 10 s under the
   sanitizer, whose run checks that no failure leaks). */
static void test_unknown_p(fsh_rng *rng, uint32_t *a)
{
    battery *b = battery_new(3);
    CHECK(b != NULL);
    if (b == NULL)
        return;
    CHECK_EQ(fsh_rng_seed(rng, "unknown p", 9), FSH_OK);
    CHECK_EQ(fsh_rng_set_simulation(rng, 1), FSH_OK);
    int shuffled = 1;
    for (int d = 0; d < 60; d++) {
        for (uint32_t i = 0; i < 3; i++)
            a[i] = i;
        if (d % 5 != 0) /* every 5th deal the identity: p-values 8e-4 to 0.5 */
            shuffled &= fsh_shuffle_u32(rng, a, 3) == FSH_OK;
        battery_add(b, a, NULL);
    }
    CHECK(shuffled);
    const double alpha = 0.5;
    test_result ref[BATTERY_TESTS], r[BATTERY_TESTS];
    int k = battery_run(b, alpha, ref), runs = 0, fatal = 0, nan_runs = 0;
    int ok = k > 0, holm_ok = 1, notes_ok = 1;
    for (unsigned long n = 1; ok && n < 10000; n++) {
        alloc_calls = alloc_injected = 0;
        alloc_fail_at = n;
        alloc_armed = 1;
        int kk = battery_run(b, alpha, r);
        alloc_armed = 0;
        runs++;
        if (alloc_injected == 0) { /* nothing failed: the clean run */
            for (int i = 0; i < k; i++)
                ok &= kk == k && r[i].status == ref[i].status &&
                      (r[i].p == ref[i].p || isnan(ref[i].p));
            break;
        }
        if (kk < 0) {
            fatal++;
            continue;
        }
        ok &= kk == k;
        /* The expected Holm values: the numbers ascending, NaN last. */
        double ps[BATTERY_TESTS];
        int m = 0, nn = 0, unknown = 0;
        for (int i = 0; i < k; i++) {
            if (r[i].status == T_SKIP)
                continue;
            m++;
            if (isnan(r[i].p)) {
                unknown++;
                notes_ok &= r[i].status == T_NONE && r[i].p_holm == 1 &&
                            strstr(r[i].note, "no memory") != NULL;
            } else {
                ps[nn++] = r[i].p;
                ok &= r[i].p == ref[i].p && r[i].status != T_NONE;
            }
        }
        nan_runs += unknown > 0;
        for (int i = 0; i < k; i++) {
            if (r[i].status == T_SKIP || isnan(r[i].p))
                continue;
            /* Its rank among the numbers (ties: the adjusted value is the
               running maximum, the same for equal p-values). */
            double run_max = 0, sorted[BATTERY_TESTS];
            memcpy(sorted, ps, (size_t)nn * sizeof *ps);
            for (int x = 1; x < nn; x++)
                for (int y = x; y > 0 && sorted[y - 1] > sorted[y]; y--) {
                    double t = sorted[y];
                    sorted[y] = sorted[y - 1];
                    sorted[y - 1] = t;
                }
            for (int j = 0; j < nn && sorted[j] <= r[i].p; j++)
                run_max = fmax(run_max, fmin(1, (m - j) * sorted[j]));
            holm_ok &= fabs(r[i].p_holm - run_max) <= 1e-12 * run_max &&
                       r[i].status == (run_max <= alpha ? T_FAIL : T_PASS);
        }
    }
    printf("  allocation failures in battery_run: %d runs, %d out of memory, "
           "%d with unknown p-values\n",
           runs, fatal, nan_runs);
    CHECK(ok);
    CHECK(notes_ok);
    CHECK(holm_ok);
    CHECK(nan_runs > 0);
    CHECK(fatal > 0);
    battery_free(b);
}

/* The hash array grows at 4096 deals; when that fails once and the next
   growth succeeds, a deal's hash was never stored: the duplicate test
   must be skipped (it ran, on an unset slot). */
static void test_hash_memory(fsh_rng *rng, uint32_t *a)
{
    battery *b = battery_new(52);
    CHECK(b != NULL);
    if (b == NULL)
        return;
    CHECK_EQ(fsh_rng_seed(rng, "hash memory", 11), FSH_OK);
    CHECK_EQ(fsh_rng_set_simulation(rng, 1), FSH_OK);
    int ok = 1;
    for (uint64_t d = 0; d < 5000; d++) {
        for (uint32_t i = 0; i < 52; i++)
            a[i] = i;
        ok &= fsh_shuffle_u32(rng, a, 52) == FSH_OK;
        realloc_fail = d == 4096; /* the second growth, once */
        battery_add(b, a, NULL);
    }
    CHECK(ok);
    realloc_fail = 0;
    test_result r[BATTERY_TESTS];
    int k = battery_run(b, 0.01, r);
    CHECK(k > 0);
    for (int i = 0; i < k; i++) {
        if (strcmp(r[i].name, "duplicate decks") != 0)
            continue;
        printf("  hashes lost at deal 4097 of 5000: duplicate decks %s (%s)\n",
               r[i].status == T_SKIP ? "SKIP" : "ran", r[i].note);
        CHECK(r[i].status == T_SKIP && strstr(r[i].note, "memory") != NULL);
    }
    battery_free(b);
}

/* Deals the duplicate test cannot use keep no hash: 5 cards have 120
   orders, fewer than 100 x deals from the second deal on, so 10000 deals
   grow the hashes once, for the first (they grew to 16 bytes a deal:
   1.6 GB for 1e8 deals); 8 cards (40320 orders) keep theirs up to 403
   deals, then drop them. */
static void test_hash_moot(fsh_rng *rng, uint32_t *a)
{
    static const struct {
        size_t n;
        uint64_t deals;
        unsigned long reallocs; /* at most */
        int ran;
    } cases[] = {{5, 10000, 1, 0}, {8, 403, 1, 1}, {8, 404, 1, 0},
                 {8, 20000, 1, 0}, {52, 5000, 2, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        battery *b = battery_new(cases[c].n);
        int ok = b != NULL && fsh_rng_seed(rng, "hash moot", 9) == FSH_OK &&
                 fsh_rng_set_simulation(rng, 1) == FSH_OK;
        realloc_calls = 0;
        for (uint64_t d = 0; ok && d < cases[c].deals; d++) {
            for (uint32_t i = 0; i < cases[c].n; i++)
                a[i] = i;
            ok &= fsh_shuffle_u32(rng, a, cases[c].n) == FSH_OK;
            battery_add(b, a, NULL);
        }
        unsigned long calls = realloc_calls;
        test_result r[BATTERY_TESTS];
        int k = ok ? battery_run(b, 0.01, r) : 0, ran = -1;
        for (int i = 0; i < k; i++)
            if (strcmp(r[i].name, "duplicate decks") == 0)
                ran = r[i].status != T_SKIP;
        printf("  %zu cards, %llu deals: %lu reallocs for the hashes, "
               "duplicate decks %s\n",
               cases[c].n, (unsigned long long)cases[c].deals, calls,
               ran ? "ran" : "skipped");
        CHECK(ok);
        CHECK(calls <= cases[c].reallocs);
        CHECK_EQ(ran, cases[c].ran);
        battery_free(b);
    }
}

int main(void)
{
    /* The battery's tests and when they run (docs/AUDIT.md): at n = 2
       and 3 all but the duplicate test (n! < 100 T); at n = 5 the full
       permutation too (T >= 5 x 120); at n = 8 the duplicate test instead
       of the full permutation; at 52 cards the same. */
    static const config configs[] = {
        {"2 values, 40 deals (binomial statistics)", 2, 40, 2000, 10, 0},
        {"3 values, 60 deals", 3, 60, 1500, 10, 0},
        {"5 values, 1200 deals (all 120 orders)", 5, 1200, 600, 10, 1},
        {"8 values, 400 deals (duplicates: 1.98 pairs expected)", 8, 400,
         1000, 10, 1},
        {"52 cards, 2000 deals", 52, 2000, 300, 10, 1},
    };
    fsh_rng *rng;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    uint32_t a[52];
    for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++)
        run_config(&configs[i], rng, a);
    test_exact_rates();
    test_pbv_monotone();
    test_cells_monotone();
    test_dup_triple(rng, a);
    test_hash_memory(rng, a);
    test_hash_moot(rng, a);
    test_unknown_p(rng, a);
    fsh_rng_free(rng);
    return check_done("test_audit_pvalues");
}
