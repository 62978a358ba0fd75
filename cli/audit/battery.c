/* SPDX-License-Identifier: MIT */
/* The audit's battery (battery.h). Null distributions: docs/AUDIT.md. */
#include "audit/battery.h"

#include "fairshuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct battery {
    size_t n, kmax;   /* values per deal; n(n-1)/2 */
    uint64_t t;       /* deals added */
    uint64_t *full;   /* n! cells when n <= 8 */
    uint64_t *pbv;    /* n x n */
    uint64_t *fix;    /* n + 1 */
    uint64_t *succ;   /* n */
    uint64_t *inv;    /* kmax + 1, or NULL */
    uint64_t *match;  /* n + 1: agreements of deals t and t + 1 */
    uint64_t *kend;   /* kmax + 1: Kendall distance within pairs, or NULL */
    uint64_t *dtop, *dbot; /* n: (b[0] - a[0]) mod n, last position */
    uint64_t (*hash)[2];   /* per deal, for the duplicate test */
    uint64_t hcap;
    int hash_lost;         /* a deal's hash found no memory: no test */
    int hash_moot;         /* too many deals for the orders: no test */
    uint32_t *prev, *pos, *tmp; /* the previous deal, its inverse, scratch */
    uint32_t *fen;              /* Fenwick tree, n + 1 */
    double dup_pairs;
    double lorders; /* log of the number of distinct deals */
};

static void *zalloc(size_t count, size_t size)
{
    return count == 0 ? NULL : calloc(count, size);
}

void battery_free(battery *b)
{
    if (b == NULL)
        return;
    free(b->full);
    free(b->pbv);
    free(b->fix);
    free(b->succ);
    free(b->inv);
    free(b->match);
    free(b->kend);
    free(b->dtop);
    free(b->dbot);
    free(b->hash);
    free(b->prev);
    free(b->pos);
    free(b->tmp);
    free(b->fen);
    free(b);
}

battery *battery_new(size_t n)
{
    if (n < 2 || n > AUDIT_MAX_N)
        return NULL;
    battery *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NULL;
    b->n = n;
    b->kmax = n * (n - 1) / 2;
    b->lorders = lgamma((double)n + 1);
    int ok = 1;
    if (n <= 8) {
        size_t f = 1;
        for (size_t i = 2; i <= n; i++)
            f *= i;
        ok &= (b->full = zalloc(f, sizeof *b->full)) != NULL;
    }
    ok &= (b->pbv = zalloc(n * n, sizeof *b->pbv)) != NULL;
    ok &= (b->fix = zalloc(n + 1, sizeof *b->fix)) != NULL;
    ok &= (b->succ = zalloc(n, sizeof *b->succ)) != NULL;
    ok &= (b->match = zalloc(n + 1, sizeof *b->match)) != NULL;
    ok &= (b->dtop = zalloc(n, sizeof *b->dtop)) != NULL;
    ok &= (b->dbot = zalloc(n, sizeof *b->dbot)) != NULL;
    if (n <= AUDIT_MAX_N_INV) {
        ok &= (b->inv = zalloc(b->kmax + 1, sizeof *b->inv)) != NULL;
        ok &= (b->kend = zalloc(b->kmax + 1, sizeof *b->kend)) != NULL;
    }
    ok &= (b->prev = zalloc(n, sizeof *b->prev)) != NULL;
    ok &= (b->pos = zalloc(n, sizeof *b->pos)) != NULL;
    ok &= (b->tmp = zalloc(n, sizeof *b->tmp)) != NULL;
    ok &= (b->fen = zalloc(n + 1, sizeof *b->fen)) != NULL;
    if (!ok) {
        battery_free(b);
        return NULL;
    }
    return b;
}

/* Inversions of a permutation of 0..n-1: Fenwick tree, O(n log n). */
static uint64_t inversions(battery *b, const uint32_t *a)
{
    size_t n = b->n;
    memset(b->fen, 0, (n + 1) * sizeof *b->fen);
    uint64_t inv = 0;
    for (size_t i = n; i-- > 0;) {
        /* Values smaller than a[i] already seen (to its right). */
        uint64_t less = 0;
        for (size_t j = a[i]; j > 0; j -= j & (~j + 1))
            less += b->fen[j];
        inv += less;
        for (size_t j = (size_t)a[i] + 1; j <= n; j += j & (~j + 1))
            b->fen[j]++;
    }
    return inv;
}

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void battery_set_shoe(battery *b, size_t copies)
{
    b->lorders = lgamma((double)b->n + 1) -
                 (double)(b->n / copies) * lgamma((double)copies + 1);
}

void battery_add(battery *b, const uint32_t *a, const uint32_t *key)
{
    size_t n = b->n;
    uint64_t f = 0, s = 0, h1 = 0x6a09e667f3bcc908ULL,
             h2 = 0xbb67ae8584caa73bULL;
    const uint32_t *k = key != NULL ? key : a;
    for (size_t i = 0; i < n; i++) {
        b->pbv[i * n + a[i]]++;
        f += a[i] == i;
        s += i + 1 < n && a[i + 1] == a[i] + 1;
        h1 = mix64(h1 ^ k[i]) + i;
        h2 = mix64(h2 + k[i] * 0x9e3779b97f4a7c15ULL) ^ i;
    }
    b->fix[f]++;
    b->succ[s]++;
    if (b->full != NULL) {
        /* Lehmer rank. */
        uint64_t r = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t smaller = 0;
            for (size_t j = i + 1; j < n; j++)
                smaller += a[j] < a[i];
            r = r * (n - i) + smaller;
        }
        b->full[r]++;
    }
    if (b->inv != NULL)
        b->inv[inversions(b, a)]++;
    /* The duplicate test runs while the distinct deals number at least
       100 x deals (battery_run); past that, with every deal after it,
       the hashes are dropped (16 bytes a deal were kept for a test that
       could not run: 1.6 GB for 1e8 deals of 6 cards). */
    if (!b->hash_moot &&
        b->lorders < log((double)b->t + 1) + log(100.0)) {
        free(b->hash);
        b->hash = NULL;
        b->hcap = 0;
        b->hash_moot = 1;
    }
    /* Once a deal's hash is lost, the test cannot run: later deals
       store none (a realloc that then succeeded left that deal's slot
       unset, and the test ran on it). */
    if (b->hash_moot || b->hash_lost) {
        /* nothing to keep */
    } else if (b->t >= b->hcap) {
        uint64_t cap = b->hcap ? b->hcap * 2 : 4096;
        void *p = realloc(b->hash, cap * sizeof *b->hash);
        if (p != NULL) {
            b->hash = p;
            b->hcap = cap;
        } else {
            b->hash_lost = 1;
        }
    }
    if (!b->hash_moot && !b->hash_lost) {
        b->hash[b->t][0] = h1;
        b->hash[b->t][1] = h2;
    }
    if (b->t >= 1) {
        /* The pair (previous deal, this one), every consecutive pair:
           the steps prev^-1 o this of independent uniform deals are
           themselves independent and uniform (deals 1..T map one to one
           onto deal 1 and the T - 1 steps), and so are the differences
           of consecutive first (last) cards, so the T - 1 overlapping
           pairs keep the exact laws of T/2 separate ones, with twice
           the pairs. */
        uint64_t m = 0;
        for (size_t i = 0; i < n; i++) {
            m += b->prev[i] == a[i];
            b->pos[b->prev[i]] = (uint32_t)i;
        }
        b->match[m]++;
        b->dtop[(a[0] + n - b->prev[0]) % n]++;
        b->dbot[(a[n - 1] + n - b->prev[n - 1]) % n]++;
        if (b->kend != NULL) {
            /* Kendall distance = inversions of prev^-1 o this. */
            for (size_t i = 0; i < n; i++)
                b->tmp[i] = b->pos[a[i]];
            b->kend[inversions(b, b->tmp)]++;
        }
    }
    memcpy(b->prev, a, n * sizeof *a);
    b->t++;
}

uint64_t battery_deals(const battery *b)
{
    return b->t;
}
size_t battery_n(const battery *b)
{
    return b->n;
}
const uint64_t *battery_pbv(const battery *b)
{
    return b->pbv;
}
const uint64_t *battery_fixed_hist(const battery *b)
{
    return b->fix;
}
const uint64_t *battery_inv_hist(const battery *b)
{
    return b->inv;
}

static int cmp_hash(const void *x, const void *y)
{
    const uint64_t *a = x, *b = y;
    if (a[0] != b[0])
        return a[0] < b[0] ? -1 : 1;
    if (a[1] != b[1])
        return a[1] < b[1] ? -1 : 1;
    return 0;
}

double battery_dup_pairs(const battery *b)
{
    return b->dup_pairs;
}

double battery_dup_expected(const battery *b, unsigned bits)
{
    double t = (double)b->t, pairs = t * (t - 1) / 2;
    double perm = exp(-b->lorders); /* 1/n! (a shoe's orders), 0 when tiny */
    if (bits == 0)
        return pairs * perm;
    /* Two deals from uniform k-bit seeds agree when the seeds do (2^-k),
       or by chance otherwise. */
    double s = ldexp(1.0, -(int)bits);
    return pairs * (s + (1 - s) * perm);
}

static void skip(test_result *r, const char *name, const char *why)
{
    r->name = name;
    r->status = T_SKIP;
    r->stat = r->df = r->p = r->p_holm = NAN;
    snprintf(r->note, sizeof r->note, "%s", why);
}

static int ran(test_result *r, const char *name, double stat, double df,
               double p)
{
    r->name = name;
    r->status = T_PASS;
    r->stat = stat;
    r->df = df;
    r->p = p;
    r->p_holm = p;
    r->note[0] = '\0';
    return 0;
}

/* Exact tails. Pearson's X over a multinomial follows the chi-square
   limit only approximately, and least in the far tail, where a small
   alpha decides: with 5 expected per cell the limit's 1e-6 quantile is
   reached 3 to 5 times as often, its 1e-9 quantile 13 to 40 times
   (docs/AUDIT.md). So every p-value at most EXACT_BELOW (or alpha, if
   larger) is the exact tail P(X >= x) of the counts' multinomial law
   (fsh_stats_pearson_sf: each term rounded up to 1/64, never below the
   exact tail), when its dynamic program fits EXACT_STEPS steps (about
   0.1 s) at the statistic that decides at alpha (the limit's quantile at
   alpha / (BATTERY_TESTS x 100)): a choice made from the deals' number,
   not their counts. A larger statistic is evaluated at the largest x
   that fits (its tail is an upper bound, far below alpha). Above the
   steps the pooled tests use two groups, for which the program is always
   short; the tests of equally likely cells a Chernoff bound on the exact
   tail (cells_bound; they kept the limit before, 2.56 times too often at
   1e-6 with 52 cells of 5 expected: docs/AUDIT.md). */
#define EXACT_BELOW 1e-3
#define EXACT_STEPS 5e7
/* Its memory too: within EXACT_STEPS the tables reached 258 MB (3000
   deals of 3 values, a statistic beyond reach searched down to the
   largest x that fits), and 1.2 GB for two groups of 10^8 deals. */
#define EXACT_BYTES (64.0 * 1024 * 1024)

/* The statistic that decides at alpha among the tests (the worst line:
   over its 2n lines too): the limit's quantile at alpha / (tests x 100),
   beyond which the exact tail is far below alpha. */
static double x_decides(double df, double alpha, double lines)
{
    double x;
    if (fsh_stats_chi2_isf(alpha / (BATTERY_TESTS * 100.0 * lines), df,
                           &x) != FSH_OK)
        return INFINITY;
    return x;
}

/* 1 when the exact tail at x fits EXACT_STEPS and EXACT_BYTES, 0 when
   not, -1 when its plan finds no memory (then the p-value is unknown:
   choosing the other branch would make the test depend on the memory
   left). */
static int exact_fits(uint64_t total, const double *prob, size_t k, double x)
{
    double steps, bytes;
    if (!isfinite(x))
        return 0;
    int rc = fsh_stats_pearson_steps(total, prob, k, x, &steps);
    if (rc == FSH_OK)
        rc = fsh_stats_pearson_bytes(total, prob, k, x, &bytes);
    if (rc == FSH_ENOMEM)
        return -1;
    return rc == FSH_OK && steps <= EXACT_STEPS && bytes <= EXACT_BYTES;
}

static const char no_memory[] = "no memory for the exact tail: p unknown";

/* The p-value of Pearson's statistic x (limit tail p_lim) over the cells
   prob[0..k) of total counts, for a test on which exact_fits said yes at
   x_need. *note: why it is not exact, or left alone. */
static double exact_p(uint64_t total, const double *prob, size_t k, double x,
                      double p_lim, double alpha, char *note, size_t nsize)
{
    if (!(p_lim <= fmax(EXACT_BELOW, alpha)))
        return p_lim;
    /* The observed counts' own x, a few ulps below so that they count. */
    double xe = x * (1 - 1e-12), p;
    int fits = exact_fits(total, prob, k, xe);
    if (fits == 0) {
        double lo = 0, hi = xe;
        for (int it = 0; it < 60 && fits >= 0; it++) {
            double mid = (lo + hi) / 2;
            fits = exact_fits(total, prob, k, mid);
            if (fits > 0)
                lo = mid;
            else
                hi = mid;
        }
        xe = lo;
        snprintf(note, nsize,
                 "exact tail at %.6g (a bound: the statistic is beyond "
                 "what the exact computation reaches)",
                 xe);
    }
    if (fits < 0 || fsh_stats_pearson_sf(total, prob, k, xe, &p) != FSH_OK) {
        /* No memory: the limit's p-value cannot be vouched for, and no
           other is known (NaN: the test cannot fail, Holm's adjusted
           value is 1). */
        snprintf(note, nsize, "%s", no_memory);
        return NAN;
    }
    return p;
}

/* Goodness of fit of a histogram to an exact law, pooled until each group
   expects max(5, total/100): at most about 100 groups. With many groups of
   5 the statistic's variance exceeds 2 df by about groups/5 (the sum of
   1/E), which over-rejects in the far tail (measured: 2.8 % at 1 % for
   the Kendall distance of 52 cards with 5000 pairs); with E >= total/100
   the excess stays under 1 %. The p-value is exact below EXACT_BELOW
   (exact_p); where that would take too long for these groups, the law is
   split in two groups instead, at the category nearest its median (a
   two-sided exact binomial test, quick at any size). */
static int gof(test_result *r, const char *name, const uint64_t *h,
               const double *law, size_t k, double alpha)
{
    double st, df, p, total = 0;
    for (size_t i = 0; i < k; i++)
        total += (double)h[i];
    double min_e = fmax(5, total / 100);
    uint64_t *gobs = malloc(k * sizeof *gobs);
    double *gprob = malloc(k * sizeof *gprob);
    size_t g;
    if (gobs == NULL || gprob == NULL) {
        free(gobs);
        free(gprob);
        return -1;
    }
    if (fsh_stats_chi2_gof(h, law, k, min_e, &st, &df, &p) != FSH_OK) {
        skip(r, name, "no goodness of fit");
    } else if (df < 1) {
        skip(r, name, "too few deals to pool 5 expected in 2 groups");
    } else if (p == 0 && isinf(st)) {
        ran(r, name, st, df, p); /* a count the law cannot give */
    } else if (fsh_stats_chi2_pool(h, law, k, min_e, gobs, gprob, &g) !=
               FSH_OK) {
        skip(r, name, "no goodness of fit");
    } else {
        uint64_t t = (uint64_t)total;
        const char *how = "";
        int fits = exact_fits(t, gprob, g, x_decides(df, alpha, 1));
        if (fits < 0) {
            ran(r, name, st, df, NAN);
            snprintf(r->note, sizeof r->note, "%s", no_memory);
            free(gobs);
            free(gprob);
            return 0;
        }
        if (!fits) {
            /* Two groups: below battery_median_cut and the rest. */
            size_t cut = battery_median_cut(law, k);
            uint64_t o[2] = {0, 0};
            double pr[2] = {0, 0};
            for (size_t i = 0; i < k; i++) {
                o[i >= cut] += h[i];
                pr[i >= cut] += law[i];
            }
            pr[1] = 1 - pr[0];
            if (fsh_stats_chi2_gof(o, pr, 2, 0, &st, &df, &p) != FSH_OK ||
                df < 1) {
                skip(r, name, "no goodness of fit");
                free(gobs);
                free(gprob);
                return 0;
            }
            memcpy(gobs, o, sizeof o);
            memcpy(gprob, pr, sizeof pr);
            g = 2;
            how = "two groups split near the median (exact binomial tail)";
        }
        ran(r, name, st, df, p);
        snprintf(r->note, sizeof r->note, "%s", how);
        r->p = exact_p(t, gprob, g, st, p, alpha, r->note, sizeof r->note);
    }
    free(gobs);
    free(gprob);
    return 0;
}

/* Cantelli's bound on P(X >= x) for Pearson's X over k equally likely
   cells of tot counts: its mean is k - 1 and its variance exactly
   v = 2 (k - 1)(1 - 1/tot), so P(X >= x) <= v / (v + (x - k + 1)^2)
   for x above the mean (1e-6 of it added for the rounding), 1 below. */
static double cantelli(uint64_t tot, size_t k, double x)
{
    double df = (double)(k - 1), v = 2 * df * (1 - 1 / (double)tot);
    return x > df ? v / (v + (x - df) * (x - df)) * (1 + 1e-6) : 1;
}

/* The p-value of Pearson's statistic x (limit tail p_lim) over k equally
   likely cells of total counts where the exact tail would take too long:
   at most max(alpha, EXACT_BELOW), the Chernoff bound with the exact
   moment generating function (fsh_stats_pearson_equal_bound: never below
   the exact tail, 10 to 50 times above it), where the limit's tail is too
   thin (3.0 times too often at 1e-6 at 52 cells and 5 expected,
   docs/AUDIT.md), or Cantelli's bound where that is less (far above
   alpha, but it bounds the tail cells_p needs to know); above, the
   limit's. NaN when no memory. */
static double cells_bound(uint64_t total, size_t k, double x, double p_lim,
                          double alpha, char *note, size_t nsize)
{
    double p, c = cantelli(total, k, x * (1 - 1e-12));
    if (!(p_lim <= fmax(EXACT_BELOW, alpha)))
        return p_lim;
    if (fsh_stats_pearson_equal_bound(total, k, x * (1 - 1e-12), &p) !=
        FSH_OK) {
        snprintf(note, nsize, "no memory for the tail bound: p unknown");
        return NAN;
    }
    snprintf(note, nsize,
             "%s bound on the exact tail (too many deals for the "
             "exact tail; never below it)",
             c < p ? "Cantelli's" : "Chernoff");
    return fmin(p, c);
}

/* The rule's p-value *p of Pearson's statistic x over k equally likely
   cells of tot counts, for a test that is one of `lines` (the worst row
   or column: 2n, each at level alpha / lines; else 1): exact below
   EXACT_BELOW while that is quick (exact_p), a bound on the exact tail
   beyond (cells_bound), the chi-square limit where it is above
   max(alpha / lines, EXACT_BELOW). *fits: exact_fits's answer. -1 when
   memory runs out. */
static int cells_rule(uint64_t tot, size_t k, double x, double alpha,
                      double lines, double *p, int *fits, char *note,
                      size_t nsize)
{
    double pl, df = (double)(k - 1);
    if (fsh_stats_chi2_sf(x, df, &pl) != FSH_OK)
        pl = NAN;
    double *prob = malloc(k * sizeof *prob);
    if (prob == NULL)
        return -1;
    for (size_t i = 0; i < k; i++)
        prob[i] = 1 / (double)k;
    *fits = exact_fits(tot, prob, k, x_decides(df, alpha, lines));
    if (*fits < 0) {
        *p = NAN;
        snprintf(note, nsize, "%s", no_memory);
    } else if (*fits) {
        *p = exact_p(tot, prob, k, x, pl, alpha / lines, note, nsize);
    } else {
        *p = cells_bound(tot, k, x, pl, alpha / lines, note, nsize);
    }
    free(prob);
    return 0;
}

/* The far tail at xs depends on (tot, k, alpha, lines) alone, and a
   process needs it for few of them (an audit: its 3 or 4 tests of equal
   cells; the test programs: thousands of audits of one size, where it
   made test_audit_pvalues 2.3 times as slow), so the last FAR_MEMO are
   kept, per thread (a p-value unknown for want of memory is not). */
#define FAR_MEMO 8
static _Thread_local struct far_memo {
    uint64_t tot;
    size_t k;
    double alpha, lines, q;
} far_memo[FAR_MEMO];
static _Thread_local unsigned far_used, far_next;

/* *q = cells_rule's p-value at xs, where the limit's tail is m: the far
   tail's; NaN when it finds no memory. -1 when memory runs out. */
static int far_tail(uint64_t tot, size_t k, double xs, double alpha,
                    double lines, double *q)
{
    for (unsigned i = 0; i < far_used; i++) {
        const struct far_memo *f = &far_memo[i];
        if (f->tot == tot && f->k == k && f->alpha == alpha &&
            f->lines == lines) {
            *q = f->q;
            return 0;
        }
    }
    char how[200];
    int fits;
    if (cells_rule(tot, k, xs, alpha, lines, q, &fits, how, sizeof how) != 0)
        return -1;
    if (isnan(*q))
        return 0;
    far_memo[far_next] = (struct far_memo){tot, k, alpha, lines, *q};
    far_next = (far_next + 1) % FAR_MEMO;
    if (far_used < FAR_MEMO)
        far_used++;
    return 0;
}

/* Whether x lies below the switch of a rule that takes the chi-square
   limit (df degrees of freedom) while its tail is above m and another
   tail from there on: 1 with *xs the least double at which the limit's
   tail is at most m, 0 when x is at or beyond it, -1 when the limit
   cannot be computed. cells_p and pbv_p_monotone raise p below it. */
static int below_switch(double x, double df, double m, double *xs)
{
    double l;
    if (fsh_stats_chi2_sf(x, df, &l) != FSH_OK)
        return -1;
    if (!(l > m))
        return 0;
    if (fsh_stats_chi2_isf(m, df, xs) != FSH_OK)
        return -1;
    while (fsh_stats_chi2_sf(*xs, df, &l) == FSH_OK && l > m)
        *xs = nextafter(*xs, INFINITY);
    return 1;
}

/* The p-value *p of Pearson's statistic x over k equally likely cells of
   tot counts (cells_rule's arguments), never rising with x. The rule
   takes the far tail (exact or the bound) from xs on, where the limit's
   tail reaches m = max(alpha / lines, EXACT_BELOW), and that tail is
   heavier there than the limit's (24 cells, 1000 counts, alpha 1e-3:
   0.001 just below xs, 0.0118 at it), so below xs p is at least the
   far tail at xs (the upper envelope: never below the rule's p-value,
   so valid; at levels up to m every decision is the rule's). The far
   tail at xs is computed only where it could exceed the limit's p: the
   exact tail there is at most that at xs - k/32 (each term rounded up
   to 1/64, and nudged), itself at most Cantelli's bound (with 1e-6 to
   spare for the sums' rounding); the Chernoff bound is at most
   Cantelli's at its own x too, as cells_bound caps it; with no memory for
   the far tail at xs, that Cantelli bound is taken instead. -1 when
   memory runs out. */
static int cells_p(uint64_t tot, size_t k, double x, double alpha,
                   double lines, double *p, char *note, size_t nsize)
{
    int fits;
    if (cells_rule(tot, k, x, alpha, lines, p, &fits, note, nsize) != 0)
        return -1;
    double df = (double)(k - 1), m = fmax(EXACT_BELOW, alpha / lines), xs,
           q;
    if (isnan(*p) || below_switch(x, df, m, &xs) != 1)
        return 0;
    double cap = fits ? cantelli(tot, k, xs * (1 - 1e-12) - (double)k / 32)
                      : cantelli(tot, k, xs * (1 - 1e-12));
    if (*p >= cap)
        return 0;
    if (far_tail(tot, k, xs, alpha, lines, &q) != 0)
        return -1;
    /* No memory for the far tail at xs: Cantelli's bound above stands in
       for it (never below it, so p stays valid and never rises; a p-value
       far below xs is not lost for a table only the envelope wanted). */
    if (isnan(q))
        q = cap;
    if (q > *p) {
        snprintf(note, nsize,
                 "p (%.3g before) that of %.5g, where the far tail takes "
                 "over: it never rises with the statistic",
                 *p, xs);
        *p = q;
    }
    return 0;
}

int battery_cells_exact(uint64_t total, size_t k, double alpha,
                        double lines)
{
    double *prob = malloc(k * sizeof *prob);
    if (prob == NULL)
        return -1;
    for (size_t i = 0; i < k; i++)
        prob[i] = 1 / (double)k;
    int fits = exact_fits(total, prob, k,
                          x_decides((double)(k - 1), alpha, lines));
    free(prob);
    return fits;
}

/* Uniform multinomial chi-square of k cells (needs 5 per cell), its
   p-value by cells_p. */
static int uniform_cells(test_result *r, const char *name, const uint64_t *c,
                         size_t k, double deals_per_count, double alpha)
{
    uint64_t tot = 0;
    for (size_t i = 0; i < k; i++)
        tot += c[i];
    double e = (double)tot / (double)k;
    if (e < 5) {
        char why[120];
        snprintf(why, sizeof why, "needs %g deals (5 expected per cell)",
                 5.0 * (double)k * deals_per_count);
        skip(r, name, why);
        return 0;
    }
    double x = 0;
    for (size_t i = 0; i < k; i++) {
        double d = (double)c[i] - e;
        x += d * d / e;
    }
    ran(r, name, x, (double)(k - 1), NAN);
    return cells_p(tot, k, x, alpha, 1, &r->p, r->note, sizeof r->note);
}

/* The p-value *p of the position-by-value statistic y of deals of n
   values: the chi-square((n-1)^2) limit, except for 2 to 4 values at most
   max(alpha, EXACT_BELOW), where the limit's far tail is too thin (3
   values: P(p <= 1e-9) is 2.4 to 3.2 times 1e-9 for 30 to 90 deals; 4
   values, 20 deals: 1.95 times at 1e-6, 6.3 times at 1e-9, exact:
   docs/AUDIT.md). There y is at most Pearson's statistic X of the
   counts of the n! orders (C - E is the image of the order counts' own
   deviation under the map whose largest gain on it is n!/(n-1), the
   standard representation's), so P(Y >= y) <= P(X >= y), given by
   cells_p over the n! equally likely orders (for 2 values Y = X). From
   5 values on the limit stays: it is as thin there (5 to 8 values, 5 to
   10 deals a value: 1.5 to 2 times at 1e-6, 4 to 7 at 1e-9), but X's
   mean n! - 1 exceeds every y that matters, so that bound would never
   fail. -1 when memory runs out. */
static int pbv_p(size_t n, uint64_t deals, double y, double alpha, double *p,
                 char *note, size_t nsize)
{
    double dn = (double)n;
    if (fsh_stats_chi2_sf(y, (dn - 1) * (dn - 1), p) != FSH_OK)
        *p = NAN;
    if (n > 4 || !(*p <= fmax(EXACT_BELOW, alpha)))
        return 0;
    size_t orders = n == 2 ? 2 : n == 3 ? 6 : 24;
    char how[200];
    how[0] = '\0';
    if (cells_p(deals, orders, y, alpha, 1, p, how, sizeof how) != 0)
        return -1;
    snprintf(note, nsize,
             "statistic = Pearson X * (n-1)/n; p = the tail of Pearson's X "
             "over the %zu orders at it (at least it)%s%s",
             orders, how[0] ? ": " : "", how);
    return 0;
}

/* pbv_p's rule never rising with y: the least p-value at least that of
   every larger statistic (the upper envelope). The orders' test takes
   over from Y's limit at ys (the least y whose limit's tail is at most
   m = max(alpha, EXACT_BELOW)), and its p-value there is far above m (4
   values: 0.22 against 0.001, X having 23 degrees of freedom to Y's 9);
   from ys on it never rises (cells_p: within the orders' test, X's limit
   gives way to the far tail, 3 to 5 times heavier at 1e-6, and below
   that switch p is at least the far tail there). So below ys p is at
   least the orders' p-value at ys, and a more biased shuffler no longer
   passes where a less biased one fails. At levels up to m the decisions
   are the far tail's, as before. */
static int pbv_p_monotone(size_t n, uint64_t deals, double y, double alpha,
                          double *p, char *note, size_t nsize)
{
    if (pbv_p(n, deals, y, alpha, p, note, nsize) != 0)
        return -1;
    double dn = (double)n, dfy = (dn - 1) * (dn - 1),
           m = fmax(EXACT_BELOW, alpha), ys, q;
    if (n > 4 || isnan(*p) || below_switch(y, dfy, m, &ys) != 1)
        return 0;
    size_t orders = n == 2 ? 2 : n == 3 ? 6 : 24;
    char how[200];
    if (cells_p(deals, orders, ys, alpha, 1, &q, how, sizeof how) != 0)
        return -1;
    if (isnan(q)) {
        *p = NAN;
        snprintf(note, nsize, "%s", how);
    } else if (q > *p) {
        snprintf(note, nsize,
                 "statistic = Pearson X * (n-1)/n; p (%.3g before) that of "
                 "%.5g, where the %zu orders' tail takes over: it never "
                 "rises with the statistic",
                 *p, ys, orders);
        *p = q;
    }
    return 0;
}

/* Holm's order: x after y (NaN after every number). */
static int p_after(double x, double y)
{
    return isnan(y) ? 0 : isnan(x) || x > y;
}

size_t battery_median_cut(const double *law, size_t k)
{
    double cum = 0, best = 2;
    size_t cut = 0;
    for (size_t i = 0; i + 1 < k; i++) {
        cum += law[i];
        if (cum > 0 && cum < 1 && fabs(cum - 0.5) < best) {
            best = fabs(cum - 0.5);
            cut = i + 1;
        }
    }
    return cut;
}

double battery_law_p(const uint64_t *h, const double *law, size_t k,
                     double alpha, double *stat)
{
    test_result r;
    if (gof(&r, "law", h, law, k, alpha) != 0 || r.status == T_SKIP)
        return NAN;
    *stat = r.stat;
    return r.p;
}

double battery_pbv_p(size_t n, uint64_t deals, double y, double alpha)
{
    char note[200];
    double p;
    if (pbv_p_monotone(n, deals, y, alpha, &p, note, sizeof note) != 0)
        return NAN;
    return p;
}

double battery_cells_px(uint64_t total, size_t k, double x, double alpha)
{
    char note[200];
    double p;
    if ((double)total < 5 * (double)k ||
        cells_p(total, k, x, alpha, 1, &p, note, sizeof note) != 0)
        return NAN;
    return p;
}

double battery_cells_p(const uint64_t *c, size_t k, double alpha,
                       double *stat)
{
    test_result r;
    if (uniform_cells(&r, "cells", c, k, 1, alpha) != 0 ||
        r.status == T_SKIP)
        return NAN;
    *stat = r.stat;
    return r.p;
}

int battery_run(battery *b, double alpha, test_result *out)
{
    size_t n = b->n, i = 0;
    int rc = 0;
    double dn = (double)n, t = (double)b->t;
    test_result *r;

    /* 1. Full permutation (n <= 8): multinomial over n! orders. */
    r = &out[i++];
    if (b->full == NULL) {
        skip(r, "full permutation", "only for n <= 8");
    } else {
        size_t f = 1;
        for (size_t j = 2; j <= n; j++)
            f *= j;
        if (uniform_cells(r, "full permutation", b->full, f, 1, alpha) != 0)
            return -1;
    }

    /* 2. Position by value: Y = X (n-1)/n ~ chi2((n-1)^2). */
    r = &out[i++];
    double e = t / dn;
    if (e < 5) {
        char why[120];
        snprintf(why, sizeof why, "needs %g deals (5 expected per cell)",
                 5 * dn);
        skip(r, "position by value", why);
        skip(&out[i++], "worst row or column", why);
    } else {
        double x = 0, worst = 0;
        for (size_t p = 0; p < n; p++) {
            double row = 0;
            for (size_t v = 0; v < n; v++) {
                double d = (double)b->pbv[p * n + v] - e;
                row += d * d / e;
            }
            x += row;
            if (row > worst)
                worst = row;
        }
        for (size_t v = 0; v < n; v++) {
            double col = 0;
            for (size_t p = 0; p < n; p++) {
                double d = (double)b->pbv[p * n + v] - e;
                col += d * d / e;
            }
            if (col > worst)
                worst = col;
        }
        double y = x * (dn - 1) / dn, pw;
        ran(r, "position by value", y, (dn - 1) * (dn - 1), NAN);
        snprintf(r->note, sizeof r->note,
                 "statistic = Pearson X * (n-1)/n (permutation matrices)");
        if (pbv_p_monotone(n, b->t, y, alpha, &r->p, r->note,
                           sizeof r->note) != 0)
            return -1;
        /* 3. Worst row or column: each is multinomial, chi2(n-1); Bonferroni
           over the 2n lines. */
        r = &out[i++];
        ran(r, "worst row or column", worst, dn - 1, NAN);
        snprintf(r->note, sizeof r->note,
                 "largest single-line chi-square, p = 2n x its tail");
        /* Each line is multinomial(T, uniform over n): its p-value by
           cells_p, one of 2n lines (at level alpha / 2n). */
        if (cells_p(b->t, n, worst, alpha, 2 * dn, &pw, r->note,
                    sizeof r->note) != 0)
            return -1;
        /* Unknown stays unknown (fmin would make NaN 1). */
        r->p = isnan(pw) ? NAN : fmin(1, pw * 2 * dn);
    }

    /* 4-6. Successions, fixed points, inversions against exact laws. */
    /* The inversions' law (kmax + 1 cells) only when they are tested:
       above AUDIT_MAX_N_INV cards it took 67 MB at 4096 for nothing. */
    size_t cells = b->inv != NULL && b->kmax > n ? b->kmax + 1 : n + 1;
    double *law = malloc(cells * sizeof *law);
    if (law == NULL)
        return -1;
    r = &out[i++];
    if (fsh_stats_successions_law(n, law) == FSH_OK)
        rc |= gof(r, "successor pairs", b->succ, law, n, alpha);
    else
        skip(r, "successor pairs", "no law");
    r = &out[i++];
    if (fsh_stats_fixed_points_law(n, law) == FSH_OK)
        rc |= gof(r, "fixed points", b->fix, law, n + 1, alpha);
    else
        skip(r, "fixed points", "no law");
    /* Independence 1: agreements within pairs of consecutive deals have the
       fixed-point law. */
    test_result *rmatch = &out[i++];
    if (b->t >= 2)
        rc |= gof(rmatch, "consecutive deals: matches", b->match, law,
                  n + 1, alpha);
    else
        skip(rmatch, "consecutive deals: matches", "needs 2 deals");
    r = &out[i++];
    test_result *rkend = &out[i++];
    if (b->inv == NULL) {
        skip(r, "inversions", "only for n <= 1024");
        skip(rkend, "consecutive deals: Kendall distance",
             "only for n <= 1024");
    } else if (fsh_stats_inversions_law(n, law, b->kmax + 1) != FSH_OK) {
        free(law);
        return -1;
    } else {
        rc |= gof(r, "inversions", b->inv, law, b->kmax + 1, alpha);
        if (b->t >= 2)
            rc |= gof(rkend, "consecutive deals: Kendall distance", b->kend,
                      law, b->kmax + 1, alpha);
        else
            skip(rkend, "consecutive deals: Kendall distance",
                 "needs 2 deals");
    }
    free(law);

    /* Independence 2: differences of the first and of the last card. */
    rc |= uniform_cells(&out[i++], "consecutive deals: first-card difference",
                        b->dtop, n, 1, alpha);
    rc |= uniform_cells(&out[i++], "consecutive deals: last-card difference",
                        b->dbot, n, 1, alpha);
    if (rc != 0)
        return -1;

    /* Duplicate decks: pairs of equal deals vs Poisson(C(T,2)/N), N = n!
       (a shoe: its distinct orders). */
    r = &out[i++];
    b->dup_pairs = 0;
    double lam = battery_dup_expected(b, 0);
    if (b->t < 2) {
        skip(r, "duplicate decks", "needs 2 deals");
    } else if (b->hash_moot || b->lorders < log(t) + log(100.0)) {
        skip(r, "duplicate decks",
             "fewer distinct deals than 100 x deals: repeats are expected "
             "(the full-permutation test covers them)");
    } else if (b->hash_lost) {
        skip(r, "duplicate decks", "out of memory for the deal hashes");
    } else {
        qsort(b->hash, b->t, sizeof *b->hash, cmp_hash);
        double pairs = 0, run = 1;
        for (uint64_t j = 1; j <= b->t; j++) {
            if (j < b->t && cmp_hash(b->hash[j], b->hash[j - 1]) == 0) {
                run++;
            } else {
                pairs += run * (run - 1) / 2;
                run = 1;
            }
        }
        b->dup_pairs = pairs;
        /* The pairs are only about Poisson: three equal deals make 3
           pairs at once (probability C(T,3)/N^2, far above the Poisson
           tail lam^3/6 when N >> T^3), and no pair is less likely than
           e^-lam. The Chen-Stein bound (Arratia, Goldstein and Gordon
           1990) for the pair indicators, whose neighbourhoods are the
           2(T-2) pairs sharing a deal (b3 = 0: the others are
           independent of them), puts every tail of the pairs within
           2 (b1 + b2)(1 - e^-lam)/lam = 2 q (4T - 7)(1 - e^-lam) of the
           Poisson one, q = 1/N: added, the p-value is never below the
           exact one (at most 8 % of 1 - e^-lam more, q <= 1/(100 T)). */
        double p, q = exp(-b->lorders);
        if (fsh_stats_poisson_sf((uint64_t)pairs, lam, &p) != FSH_OK)
            p = NAN;
        if (pairs > 0)
            p = fmin(1, p + 2 * q * (4 * t - 7) * -expm1(-lam));
        ran(r, "duplicate decks", pairs, 0, p);
        snprintf(r->note, sizeof r->note,
                 "pairs of equal deals; Poisson, mean %.3g, within the "
                 "Chen-Stein bound",
                 lam);
    }

    /* Holm's step-down over the tests that ran. */
    int order[BATTERY_TESTS], m = 0;
    for (size_t j = 0; j < i; j++)
        if (out[j].status != T_SKIP)
            order[m++] = (int)j;
    /* Ascending, an unknown (NaN) p-value last: sorted first, its
       adjusted value 1 would have been every later test's too. */
    for (int a = 1; a < m; a++)
        for (int c = a; c > 0 && p_after(out[order[c - 1]].p,
                                          out[order[c]].p);
             c--) {
            int tmp = order[c];
            order[c] = order[c - 1];
            order[c - 1] = tmp;
        }
    double run_max = 0;
    for (int j = 0; j < m; j++) {
        test_result *x = &out[order[j]];
        double adj = isnan(x->p) ? 1 : fmin(1, (double)(m - j) * x->p);
        if (adj > run_max)
            run_max = adj;
        x->p_holm = run_max;
        x->status = isnan(x->p)         ? T_NONE
                    : run_max <= alpha ? T_FAIL
                                       : T_PASS;
    }
    return (int)i;
}
