/* SPDX-License-Identifier: MIT */
/* The false-failure rate of fairshuf audit's position-by-value test far
 * out, P(p <= u) / u, by importance sampling (docs/AUDIT.md, "Position by
 * value's far tail, measured"): u = 1e-9 is out of reach of plain
 * simulation, and the exact law only for 4 values and few deals
 * (tests/test_audit_pvalues.c, FSH_PBV4_DEALS).
 *
 * The proposal: a permutation pi uniform, then the T deals independent,
 * sigma = pi o tau with P(tau) proportional to e^(lam fix(tau)), which
 * pushes the counts C toward T copies of pi's matrix. The likelihood ratio
 * of the uniform deals to this mixture over pi is
 *   M(lam)^T / (perm(e^(lam C)) / n!),   M(lam) = E e^(lam fix(sigma)),
 * the permanent by Ryser's formula (2^n n^2 operations: n <= 16). The
 * estimate is the mean of ratio x [the battery's p-value <= u] over the
 * samples, with its standard error; the p-value is battery_pbv_p's, as
 * the audit computes it. Checked against the exact law at 4 values
 * (8 deals, u = 1e-9: 10.68 +- 0.11 for 10.68; 20 deals, 1e-6 and 1e-9:
 * 2.00 +- 0.06 and 6.32 +- 0.43 for 1.95 and 6.31).
 *
 *   cc -O2 -Iinclude -Icli scripts/pbv-tail.c cli/audit/battery.c \
 *       libfairshuf.a -lsodium -lm -lpthread -o pbv-tail
 *   ./pbv-tail N DEALS U SAMPLES [LAMBDA] [SEED]
 *
 * LAMBDA (default: chosen so that the proposal's statistic is about the
 * limit's quantile at U) and SEED (default 1) are optional. */
#include "audit/battery.h"
#include "fairshuf.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static fsh_rng *rng;

static size_t below(size_t m)
{
    uint64_t r;
    if (fsh_uniform(rng, &r, m) != FSH_OK)
        exit(3);
    return (size_t)r;
}

static void shuffle(int *a, size_t m)
{
    for (size_t i = m; i-- > 1;) {
        size_t j = below(i + 1);
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* Ryser's formula for the permanent of the n x n matrix a. */
static long double permanent(const long double *a, int n)
{
    long double total = 0;
    for (uint32_t s = 1; s < (1u << n); s++) {
        long double prod = 1;
        for (int i = 0; i < n; i++) {
            long double r = 0;
            for (int j = 0; j < n; j++)
                if (s >> j & 1)
                    r += a[i * n + j];
            prod *= r;
        }
        int bits = 0;
        for (uint32_t v = s; v; v &= v - 1)
            bits++;
        total += (n - bits) & 1 ? -prod : prod;
    }
    return total;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: pbv-tail N DEALS U SAMPLES [LAMBDA] [SEED]\n");
        return 2;
    }
    int n = atoi(argv[1]), T = atoi(argv[2]);
    double u = atof(argv[3]), lam = argc > 5 ? atof(argv[5]) : 0;
    long samples = atol(argv[4]);
    if (n < 2 || n > 16 || T < 1 || !(u > 0 && u < 1) || samples < 1)
        return 2;
    char seed[64];
    snprintf(seed, sizeof seed, "pbv-tail %s", argc > 6 ? argv[6] : "1");
    if (fsh_rng_new_seeded(&rng, seed, strlen(seed)) != FSH_OK)
        return 3;
    double df = (double)(n - 1) * (n - 1), yu;
    if (fsh_stats_chi2_isf(u, df, &yu) != FSH_OK)
        return 3;
    /* The proposal's Y is about df + T (e^lam - 1)^2. */
    if (!(lam > 0))
        lam = log(1 + sqrt((yu - df) / T));
    /* Fixed points of a uniform permutation, and tilted by e^(lam k). */
    double pf[17], cum[17], mz = 0, c = 0;
    if (fsh_stats_fixed_points_law((size_t)n, pf) != FSH_OK)
        return 3;
    for (int k = 0; k <= n; k++)
        mz += pf[k] * exp(lam * k);
    for (int k = 0; k <= n; k++) {
        c += pf[k] * exp(lam * k) / mz;
        cum[k] = c;
    }
    int pi[16], tau[16], idx[16], img[16], cnt[256];
    long double a[256], sum = 0, sum2 = 0, lfn = lgammal(n + 1);
    long hits = 0;
    for (long it = 0; it < samples; it++) {
        for (int i = 0; i < n; i++)
            pi[i] = i;
        shuffle(pi, (size_t)n);
        memset(cnt, 0, sizeof cnt);
        for (int t = 0; t < T; t++) {
            double r = (double)below((size_t)1 << 53) * 0x1p-53;
            int k = 0;
            while (k < n && r > cum[k])
                k++;
            /* k fixed points, uniformly placed; a uniform derangement of
               the others (by rejection). */
            for (int i = 0; i < n; i++)
                idx[i] = tau[i] = i;
            shuffle(idx, (size_t)n);
            int m = n - k, ok = 0;
            while (m > 0 && !ok) {
                for (int i = 0; i < m; i++)
                    img[i] = i;
                shuffle(img, (size_t)m);
                ok = 1;
                for (int i = 0; i < m && ok; i++)
                    ok = img[i] != i;
            }
            for (int i = 0; i < m; i++)
                tau[idx[k + i]] = idx[k + img[i]];
            for (int i = 0; i < n; i++)
                cnt[i * n + pi[tau[i]]]++;
        }
        long s = 0;
        for (int i = 0; i < n * n; i++)
            s += (long)cnt[i] * cnt[i];
        double y = (double)(n - 1) * ((double)s - (double)T * T) / T;
        if (battery_pbv_p((size_t)n, (uint64_t)T, y, 1e-12) <= u) {
            /* perm(e^(lam C)) = e^(lam T) perm(e^(lam (C - T/n))). */
            for (int i = 0; i < n * n; i++)
                a[i] = expl((long double)lam *
                            ((long double)cnt[i] - (long double)T / n));
            long double lq = logl(permanent(a, n)) +
                             (long double)lam * T - lfn;
            long double w = expl((long double)T * logl(mz) - lq);
            sum += w;
            sum2 += w * w;
            hits++;
        }
    }
    long double mean = sum / samples,
                var = sum2 / samples - mean * mean;
    printf("%d values, %d deals, u = %g: P(p <= u) / u = %.4Lg +- %.2Lg "
           "(%ld samples, %ld with p <= u, lambda %.4g)\n",
           n, T, u, mean / u, sqrtl(var / samples) / u, samples, hits, lam);
    fsh_rng_free(rng);
    return 0;
}
