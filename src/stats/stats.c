/* SPDX-License-Identifier: MIT */
/* Statistics for audits: chi-square, normal and Poisson tails, the exact
   laws of fixed points, successions and inversions of uniform permutations,
   and the pooled chi-square goodness of fit. Above common/ only (pure
   computation; docs/AUDIT.md states each null distribution).

   Precision: everything is computed in long double (x87 80-bit on x86-64,
   64-bit mantissa) and rounded to double at the end. Upper tails are never
   formed as 1 - lower tail where the tail is small: Q(a, x) comes from the
   continued fraction exactly where it is below about 1/2. */
#include "common/common.h"

#include <math.h>
#include <stdlib.h>

#define STATS_MAX_ITER 10000000L

static int bad(double v)
{
    return isnan(v) || isinf(v);
}

/* e^(a ln x - x - lgamma(a)): the common prefactor of P and Q. */
static long double gamma_prefactor(long double a, long double x)
{
    return expl(a * logl(x) - x - lgammal(a));
}

/* P(a, x) by the series sum x^n / (a (a+1) ... (a+n)), for x < a + 1. */
static long double gamma_p_series(long double a, long double x)
{
    long double term = 1.0L / a, sum = term;
    for (long n = 1; n < STATS_MAX_ITER; n++) {
        term *= x / (a + (long double)n);
        sum += term;
        if (term < sum * 1e-21L)
            break;
    }
    return sum * gamma_prefactor(a, x);
}

/* Q(a, x) by the continued fraction (modified Lentz), for x >= a + 1. */
static long double gamma_q_cf(long double a, long double x)
{
    const long double tiny = 1e-4000L;
    long double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
    for (long i = 1; i < STATS_MAX_ITER; i++) {
        long double an = -(long double)i * ((long double)i - a);
        b += 2;
        d = an * d + b;
        if (fabsl(d) < tiny)
            d = tiny;
        c = b + an / c;
        if (fabsl(c) < tiny)
            c = tiny;
        d = 1 / d;
        long double del = d * c;
        h *= del;
        if (fabsl(del - 1) < 1e-20L)
            break;
    }
    return gamma_prefactor(a, x) * h;
}

int fsh_stats_gamma_pq(double a, double x, double *p, double *q)
{
    if ((p == NULL && q == NULL) || bad(a) || isnan(x) || !(a > 0) || x < 0)
        return FSH_EINVAL;
    long double lp, lq;
    if (x == 0) {
        lp = 0;
        lq = 1;
    } else if (isinf(x)) {
        lp = 1;
        lq = 0;
    } else if (x < a + 1) {
        lp = gamma_p_series(a, x);
        lq = 1 - lp;
    } else {
        lq = gamma_q_cf(a, x);
        lp = 1 - lq;
    }
    if (lp < 0)
        lp = 0;
    if (lq < 0)
        lq = 0;
    if (p != NULL)
        *p = (double)(lp > 1 ? 1 : lp);
    if (q != NULL)
        *q = (double)(lq > 1 ? 1 : lq);
    return FSH_OK;
}

int fsh_stats_chi2_sf(double x, double df, double *p)
{
    if (p == NULL || isnan(x) || bad(df) || !(df > 0))
        return FSH_EINVAL;
    if (x <= 0) {
        *p = 1;
        return FSH_OK;
    }
    return fsh_stats_gamma_pq(df / 2, x / 2, NULL, p);
}

int fsh_stats_chi2_isf(double p, double df, double *x)
{
    if (x == NULL || isnan(p) || !(p > 0 && p < 1) || bad(df) || !(df > 0))
        return FSH_EINVAL;
    double lo = 0, hi = df + 10, s;
    int rc;
    for (;;) {
        if ((rc = fsh_stats_chi2_sf(hi, df, &s)) != FSH_OK)
            return rc;
        if (s < p)
            break;
        lo = hi;
        hi *= 2;
        if (bad(hi))
            return FSH_EINVAL;
    }
    for (int i = 0; i < 400 && hi - lo > 1e-13 * hi; i++) {
        double mid = lo + (hi - lo) / 2;
        if ((rc = fsh_stats_chi2_sf(mid, df, &s)) != FSH_OK)
            return rc;
        if (s >= p)
            lo = mid;
        else
            hi = mid;
    }
    *x = lo + (hi - lo) / 2;
    return FSH_OK;
}

int fsh_stats_normal_sf(double z, double *p)
{
    if (p == NULL || isnan(z))
        return FSH_EINVAL;
    *p = (double)(0.5L * erfcl((long double)z / sqrtl(2.0L)));
    return FSH_OK;
}

int fsh_stats_poisson_sf(uint64_t k, double lambda, double *p)
{
    if (p == NULL || bad(lambda) || lambda < 0)
        return FSH_EINVAL;
    if (k == 0) {
        *p = 1;
        return FSH_OK;
    }
    if (lambda == 0) {
        *p = 0;
        return FSH_OK;
    }
    return fsh_stats_gamma_pq((double)k, lambda, p, NULL);
}

int fsh_stats_fixed_points_law(size_t n, double *pmf)
{
    if (pmf == NULL || n == 0 || n == SIZE_MAX)
        return FSH_EINVAL;
    /* d_m = D(m) / m! = sum_{i <= m} (-1)^i / i!, into pmf[n - m]. */
    long double d = 0, term = 1;
    for (size_t m = 0; m <= n; m++) {
        if (m > 0)
            term /= -(long double)m;
        d += term;
        pmf[n - m] = (double)d;
    }
    /* pmf[k] = d_{n-k} / k!. */
    long double inv = 1;
    for (size_t k = 0; k <= n; k++) {
        if (k > 0)
            inv /= (long double)k;
        pmf[k] = (double)((long double)pmf[k] * inv);
    }
    return FSH_OK;
}

int fsh_stats_successions_law(size_t n, double *pmf)
{
    if (pmf == NULL || n == 0)
        return FSH_EINVAL;
    /* P(k) = ((n-k) d_{n-k} + d_{n-k-1}) / (n k!), d_m = D(m) / m!. */
    long double dprev = 1, d = 0, term = -1; /* d_0, d_1, (-1)^1/1! */
    for (size_t m = 1; m <= n; m++) {
        if (m > 1) {
            term /= -(long double)m;
            dprev = d;
            d += term;
        }
        pmf[n - m] = (double)((long double)m * d + dprev);
    }
    long double inv = 1 / (long double)n;
    for (size_t k = 0; k < n; k++) {
        if (k > 0)
            inv /= (long double)k;
        pmf[k] = (double)((long double)pmf[k] * inv);
    }
    return FSH_OK;
}

int fsh_stats_inversions_law(size_t n, double *pmf, size_t len)
{
    if (pmf == NULL || n == 0 || n > 4096 || len != n * (n - 1) / 2 + 1)
        return FSH_EINVAL;
    long double *f = malloc(len * sizeof *f), *s = malloc(len * sizeof *s);
    if (f == NULL || s == NULL) {
        free(f);
        free(s);
        return FSH_ENOMEM;
    }
    f[0] = 1; /* one item: no inversion */
    for (size_t m = 2; m <= n; m++) {
        size_t kold = (m - 1) * (m - 2) / 2, knew = m * (m - 1) / 2;
        size_t half = knew / 2;
        /* Prefix sums of the old law up to the new half (zero beyond its
           support). The window difference is taken only on the left half,
           where the law increases, so it never cancels; the right half is
           the mirror image. */
        long double acc = 0;
        for (size_t j = 0; j <= half; j++) {
            acc += j <= kold ? f[j] : 0;
            s[j] = acc;
        }
        for (size_t j = 0; j <= half; j++) {
            long double w = s[j] - (j >= m ? s[j - m] : 0);
            f[j] = w / (long double)m;
        }
        for (size_t j = half + 1; j <= knew; j++)
            f[j] = f[knew - j];
    }
    for (size_t j = 0; j < len; j++)
        pmf[j] = (double)f[j];
    free(f);
    free(s);
    return FSH_OK;
}

int fsh_stats_chi2_gof(const uint64_t *obs, const double *prob, size_t k,
                       double min_expected, double *stat, double *df,
                       double *p)
{
    if (obs == NULL || prob == NULL || k == 0 || isnan(min_expected) ||
        isinf(min_expected) || min_expected < 0)
        return FSH_EINVAL;
    long double psum = 0, total = 0;
    for (size_t i = 0; i < k; i++) {
        if (isnan(prob[i]) || prob[i] < 0 || prob[i] > 1)
            return FSH_EINVAL;
        psum += prob[i];
        total += (long double)obs[i];
    }
    if (fabsl(psum - 1) > 1e-9L)
        return FSH_EINVAL;
    long double x = 0;
    size_t groups = 0;
    int impossible = 0;
    /* The group being filled and the last closed group (for the short
       remainder), as observed and expected counts. */
    long double go = 0, ge = 0, lo = 0, le = 0;
    int have_last = 0;
    for (size_t i = 0; i < k; i++) {
        if (prob[i] == 0) {
            if (obs[i] > 0)
                impossible = 1;
            continue;
        }
        go += (long double)obs[i];
        ge += total * prob[i];
        if (ge >= min_expected) {
            if (have_last) {
                x += (lo - le) * (lo - le) / le;
                groups++;
            }
            lo = go;
            le = ge;
            have_last = 1;
            go = ge = 0;
        }
    }
    if (ge > 0) {
        if (have_last) {
            lo += go;
            le += ge;
        } else {
            lo = go;
            le = ge;
            have_last = 1;
        }
    }
    if (have_last && le > 0) {
        x += (lo - le) * (lo - le) / le;
        groups++;
    }
    double st = (double)x, dfv = groups > 1 ? (double)(groups - 1) : 0, pv = 1;
    if (impossible) {
        st = INFINITY;
        pv = 0;
    } else if (dfv > 0) {
        int rc = fsh_stats_chi2_sf(st, dfv, &pv);
        if (rc != FSH_OK)
            return rc;
    }
    if (stat != NULL)
        *stat = st;
    if (df != NULL)
        *df = dfv;
    if (p != NULL)
        *p = pv;
    return FSH_OK;
}
