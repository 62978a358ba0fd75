/* SPDX-License-Identifier: MIT */
/* The library's statistics (fsh_stats_*): tails against published values
   (Abramowitz & Stegun table 26.1 for the normal tail, chi-square table
   quantiles) and 40-digit mpmath values, to 1e-9 relative error down to
   1e-305; the exact permutation laws against integer counts and brute
   force enumeration; the pooled goodness of fit; argument checks. */
#include "check.h"
#include "fairshuf.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static int close_rel(double got, double want, double tol)
{
    if (want == 0)
        return got == 0;
    return fabs(got - want) <= tol * fabs(want);
}

#define CHECK_TOL(got, want, tol)                                              \
    do {                                                                       \
        double g_ = (got), w_ = (want);                                        \
        if (!close_rel(g_, w_, (tol)))                                         \
            fprintf(stderr, "  got %.17g want %.17g\n", g_, w_);               \
        CHECK(close_rel(g_, w_, (tol)));                                       \
    } while (0)

#define CHECK_REL(got, want)                                                   \
    do {                                                                       \
        double g_ = (got), w_ = (want);                                        \
        if (!close_rel(g_, w_, 1e-9))                                          \
            fprintf(stderr, "  got %.17g want %.17g\n", g_, w_);               \
        CHECK(close_rel(g_, w_, 1e-9));                                        \
    } while (0)

static void test_gamma(void)
{
    /* a, x, P(a, x), Q(a, x): mpmath gammainc(regularized=True), 40 digits. */
    static const double t[][4] = {
        {0.5, 0.1, 0.34527915398142297956, 0.65472084601857702044},
        {0.5, 30, 0.99999999999999051426, 9.4857375710738483885e-15},
        {1, 700, 1.0, 9.8596765437597708567e-305},
        {2.5, 1e-05, 9.5152606531127655571e-14, 0.99999999999990484739},
        {11.5, 200, 1.0, 1.7770018173929705089e-70},
        {1300.5, 1479.15, 0.9999989969730521085, 1.0030269478914978171e-6},
        {1300.5, 2500, 1.0, 1.8298552924977741794e-154},
        {1300.5, 800, 2.4522094647255699936e-59, 1.0},
        {10000.0, 12000.0, 1.0, 3.3272024923451613396e-79},
        {100000.0, 97000.0, 4.7435268410334276993e-22, 1.0},
        {3, 0.5, 0.014387677966970686644, 0.98561232203302931336},
        {100, 200, 0.99999999999999815611, 1.8438936497115741514e-15},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        double p = -1, q = -1;
        CHECK_EQ(fsh_stats_gamma_pq(t[i][0], t[i][1], &p, &q), FSH_OK);
        CHECK_REL(p, t[i][2]);
        CHECK_REL(q, t[i][3]);
    }
    /* Closed form: Q(1, x) = e^-x. */
    for (double x = 0.25; x < 700; x *= 1.7) {
        double q;
        CHECK_EQ(fsh_stats_gamma_pq(1, x, NULL, &q), FSH_OK);
        CHECK_REL(q, exp(-x));
    }
    double p = 7;
    CHECK_EQ(fsh_stats_gamma_pq(0, 1, &p, NULL), FSH_EINVAL);
    CHECK_EQ(fsh_stats_gamma_pq(1, -1, &p, NULL), FSH_EINVAL);
    CHECK_EQ(fsh_stats_gamma_pq(NAN, 1, &p, NULL), FSH_EINVAL);
    CHECK_EQ(fsh_stats_gamma_pq(1, 1, NULL, NULL), FSH_EINVAL);
    CHECK(p == 7);
}

static void test_chi2(void)
{
    static const double t[][3] = {
        {2958.3, 2601, 1.0030269478914978171e-6},
        {70.6, 23, 9.8217062938514603899e-7},
        {10.827566170662733, 1, 0.00099999999999999969468},
        {4000, 2601, 4.0868666165893617856e-63},
        {1000, 100, 2.3060767380353980174e-148},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        double p;
        CHECK_EQ(fsh_stats_chi2_sf(t[i][0], t[i][1], &p), FSH_OK);
        CHECK_REL(p, t[i][2]);
    }
    /* chi2(2): sf = e^(-x/2). Table quantiles (upper 0.01): 6.634896601021214
       (df 1), 23.209251158954356 (df 10), 135.80672317102676 (df 100). */
    double p, x;
    CHECK_EQ(fsh_stats_chi2_sf(600, 2, &p), FSH_OK);
    CHECK_REL(p, exp(-300));
    CHECK_EQ(fsh_stats_chi2_sf(-1, 3, &p), FSH_OK);
    CHECK(p == 1);
    static const double q[][2] = {{1, 6.634896601021214},
                                  {10, 23.209251158954356},
                                  {100, 135.80672317102676}};
    for (size_t i = 0; i < 3; i++) {
        CHECK_EQ(fsh_stats_chi2_isf(0.01, q[i][0], &x), FSH_OK);
        CHECK_REL(x, q[i][1]);
    }
    CHECK_EQ(fsh_stats_chi2_isf(1e-300, 5, &x), FSH_OK);
    CHECK_EQ(fsh_stats_chi2_sf(x, 5, &p), FSH_OK);
    CHECK_REL(p, 1e-300);
    CHECK_EQ(fsh_stats_chi2_isf(0, 5, &x), FSH_EINVAL);
    CHECK_EQ(fsh_stats_chi2_isf(1, 5, &x), FSH_EINVAL);
    CHECK_EQ(fsh_stats_chi2_sf(1, 0, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_chi2_sf(1, INFINITY, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_chi2_sf(1, 1, NULL), FSH_EINVAL);
}

static void test_normal_poisson(void)
{
    /* A&S 26.1 / mpmath: Q(z) = erfc(z / sqrt 2) / 2. */
    static const double t[][2] = {
        {-3, 0.99865010196836990547},  {0, 0.5},
        {1.5, 0.066807201268858066004}, {5, 2.8665157187919391167e-7},
        {10, 7.619853024160526066e-24}, {20, 2.7536241186062336951e-89},
        {37.5, 4.6053530095819548438e-308},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        double p;
        CHECK_EQ(fsh_stats_normal_sf(t[i][0], &p), FSH_OK);
        CHECK_REL(p, t[i][1]);
    }
    double p;
    CHECK_EQ(fsh_stats_normal_sf(NAN, &p), FSH_EINVAL);
    /* Poisson: P(X >= 1) = 1 - e^-l; P(X >= 3 | 0.5) = 1 - e^-.5 (1 + .5 +
       .125) = 0.014387677966970686644 (= P(3, 0.5) above). */
    CHECK_EQ(fsh_stats_poisson_sf(0, 3, &p), FSH_OK);
    CHECK(p == 1);
    CHECK_EQ(fsh_stats_poisson_sf(1, 1e-3, &p), FSH_OK);
    CHECK_REL(p, -expm1(-1e-3));
    CHECK_EQ(fsh_stats_poisson_sf(3, 0.5, &p), FSH_OK);
    CHECK_REL(p, 0.014387677966970686644);
    CHECK_EQ(fsh_stats_poisson_sf(5, 0, &p), FSH_OK);
    CHECK(p == 0);
    CHECK_EQ(fsh_stats_poisson_sf(5, -1, &p), FSH_EINVAL);
}

/* Brute force over all permutations of n <= 8: fixed points, successions,
   inversions histograms. */
static void enumerate(unsigned n, uint64_t *fix, uint64_t *succ,
                      uint64_t *inv)
{
    unsigned a[8], c[8] = {0};
    for (unsigned i = 0; i < n; i++)
        a[i] = i;
    for (;;) {
        unsigned f = 0, s = 0, v = 0;
        for (unsigned i = 0; i < n; i++) {
            f += a[i] == i;
            if (i + 1 < n)
                s += a[i + 1] == a[i] + 1;
            for (unsigned j = i + 1; j < n; j++)
                v += a[i] > a[j];
        }
        fix[f]++;
        succ[s]++;
        inv[v]++;
        /* Heap's algorithm, iterative. */
        unsigned i = 1;
        while (i < n && c[i] >= i)
            c[i++] = 0;
        if (i >= n)
            break;
        unsigned j = i % 2 ? c[i] : 0, t = a[j];
        a[j] = a[i];
        a[i] = t;
        c[i]++;
    }
}

static void test_laws_brute(void)
{
    for (unsigned n = 1; n <= 8; n++) {
        uint64_t fix[9] = {0}, succ[9] = {0}, inv[29] = {0};
        enumerate(n, fix, succ, inv);
        double nf = 1;
        for (unsigned i = 2; i <= n; i++)
            nf *= i;
        double pf[9], ps[9], pi[29];
        size_t len = n * (n - 1) / 2 + 1;
        CHECK_EQ(fsh_stats_fixed_points_law(n, pf), FSH_OK);
        CHECK_EQ(fsh_stats_successions_law(n, ps), FSH_OK);
        CHECK_EQ(fsh_stats_inversions_law(n, pi, len), FSH_OK);
        for (unsigned k = 0; k <= n; k++)
            CHECK(fabs(pf[k] * nf - (double)fix[k]) < 1e-9 * nf);
        for (unsigned k = 0; k < n; k++)
            CHECK(fabs(ps[k] * nf - (double)succ[k]) < 1e-9 * nf);
        for (size_t k = 0; k < len; k++)
            CHECK(fabs(pi[k] * nf - (double)inv[k]) < 1e-9 * nf);
    }
}

static void test_laws_exact(void)
{
    /* Rencontres for n = 20 in integers: R(20, k) = C(20, k) D(20 - k). */
    uint64_t D[21], C[21][21];
    D[0] = 1;
    D[1] = 0;
    for (unsigned m = 2; m <= 20; m++)
        D[m] = (m - 1) * (D[m - 1] + D[m - 2]);
    for (unsigned i = 0; i <= 20; i++) {
        C[i][0] = C[i][i] = 1;
        for (unsigned j = 1; j < i; j++)
            C[i][j] = C[i - 1][j - 1] + C[i - 1][j];
    }
    double f20 = 2432902008176640000.0, pf[21], ps[20];
    CHECK_EQ(fsh_stats_fixed_points_law(20, pf), FSH_OK);
    CHECK_EQ(fsh_stats_successions_law(20, ps), FSH_OK);
    for (unsigned k = 0; k <= 20; k++) {
        if (k == 19)
            CHECK(pf[k] == 0);
        else
            CHECK_REL(pf[k], (double)(C[20][k] * D[20 - k]) / f20);
    }
    /* Successions: C(n-1, k) (D(n-k) + D(n-k-1)). */
    for (unsigned k = 0; k < 20; k++)
        CHECK_REL(ps[k], (double)C[19][k] *
                             (double)(D[20 - k] + D[19 - k]) / f20);
    /* Mahonian numbers for n = 20 in integers (fit in 64 bits), and the
       far tails for n = 52: P(0) = P(1326) = 1/52!, P(1) = 51/52!. */
    static uint64_t M[191];
    memset(M, 0, sizeof M);
    M[0] = 1;
    for (unsigned m = 2; m <= 20; m++) {
        unsigned K = m * (m - 1) / 2;
        for (unsigned j = K + 1; j-- > 0;) {
            uint64_t s = 0;
            for (unsigned i = 0; i < m && i <= j; i++)
                s += M[j - i];
            M[j] = s;
        }
    }
    double pi[191];
    CHECK_EQ(fsh_stats_inversions_law(20, pi, 191), FSH_OK);
    for (unsigned k = 0; k <= 190; k++)
        CHECK_REL(pi[k], (double)M[k] / f20);
    static double p52[1327];
    CHECK_EQ(fsh_stats_inversions_law(52, p52, 1327), FSH_OK);
    double inv52f = 1.2397999308571486e-68; /* 1/52!, mpmath */
    CHECK_REL(p52[0], inv52f);
    CHECK_REL(p52[1326], inv52f);
    CHECK_REL(p52[1], 51 * inv52f);
    CHECK_REL(p52[1325], 51 * inv52f);
    double mean = 0, var = 0, sum = 0;
    for (unsigned k = 0; k < 1327; k++) {
        sum += p52[k];
        mean += k * p52[k];
    }
    for (unsigned k = 0; k < 1327; k++)
        var += (k - mean) * (k - mean) * p52[k];
    CHECK(fabs(sum - 1) < 1e-12);
    CHECK_REL(mean, 52 * 51 / 4.0);
    CHECK_REL(var, 52.0 * 51 * 109 / 72); /* n(n-1)(2n+5)/72 */
    double pf52[53];
    CHECK_EQ(fsh_stats_fixed_points_law(52, pf52), FSH_OK);
    CHECK_REL(pf52[0], 0.36787944117144232160); /* D(52)/52! = 1/e to 1e-68 */
    CHECK_REL(pf52[52], inv52f);
    CHECK_EQ(fsh_stats_inversions_law(52, p52, 1326), FSH_EINVAL);
    CHECK_EQ(fsh_stats_inversions_law(0, p52, 1), FSH_EINVAL);
    CHECK_EQ(fsh_stats_fixed_points_law(0, pf52), FSH_EINVAL);
    CHECK_EQ(fsh_stats_successions_law(3, NULL), FSH_EINVAL);
    /* The rest of the bad arguments (n = 0, NULL pmf, n above 4096 for
       the inversions, SIZE_MAX for the fixed points' n + 1 values), with
       pmf unchanged; n = 1 is the one-point law. */
    double one[2] = {-1, -1};
    CHECK_EQ(fsh_stats_successions_law(0, one), FSH_EINVAL);
    CHECK_EQ(fsh_stats_fixed_points_law(3, NULL), FSH_EINVAL);
    CHECK_EQ(fsh_stats_fixed_points_law(SIZE_MAX, one), FSH_EINVAL);
    CHECK_EQ(fsh_stats_inversions_law(3, NULL, 4), FSH_EINVAL);
    CHECK_EQ(fsh_stats_inversions_law(4097, one, (size_t)4097 * 4096 / 2 + 1),
             FSH_EINVAL);
    CHECK(one[0] == -1 && one[1] == -1);
    CHECK_EQ(fsh_stats_fixed_points_law(1, one), FSH_OK);
    CHECK(one[0] == 0 && one[1] == 1);
    CHECK_EQ(fsh_stats_successions_law(1, one), FSH_OK);
    CHECK(one[0] == 1);
    CHECK_EQ(fsh_stats_inversions_law(1, one, 1), FSH_OK);
    CHECK(one[0] == 1);
}

static void test_gof(void)
{
    /* 4 categories, equal probabilities, counts 10 20 30 40: X = 20, df 3,
       p = Q(1.5, 10) = 1.6974243555282653e-4 (mpmath). */
    uint64_t o[4] = {10, 20, 30, 40};
    double pr[4] = {0.25, 0.25, 0.25, 0.25}, st, df, p;
    CHECK_EQ(fsh_stats_chi2_gof(o, pr, 4, 5, &st, &df, &p), FSH_OK);
    CHECK_REL(st, 20);
    CHECK(df == 3);
    CHECK_REL(p, 1.6974243555282653e-4);
    /* Pooling: min_expected 50 pools {0,1} and {2,3}: X = (30-50)^2/50 * 2. */
    CHECK_EQ(fsh_stats_chi2_gof(o, pr, 4, 50, &st, &df, &p), FSH_OK);
    CHECK_REL(st, 16);
    CHECK(df == 1);
    /* A short last group joins the one before: min 60 -> {0,1,2}, {3}
       joins -> one group, df 0, p 1. */
    CHECK_EQ(fsh_stats_chi2_gof(o, pr, 4, 80, &st, &df, &p), FSH_OK);
    CHECK(df == 0 && p == 1);
    /* A count where the probability is 0. */
    uint64_t o2[3] = {5, 1, 5};
    double pr2[3] = {0.5, 0, 0.5};
    CHECK_EQ(fsh_stats_chi2_gof(o2, pr2, 3, 0, &st, &df, &p), FSH_OK);
    CHECK(isinf(st) && p == 0);
    double bad[2] = {0.5, 0.6};
    CHECK_EQ(fsh_stats_chi2_gof(o, bad, 2, 0, &st, &df, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_chi2_gof(o, pr, 4, -1, &st, &df, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_chi2_gof(NULL, pr, 4, 0, &st, &df, &p), FSH_EINVAL);
    /* Every bad argument, outputs unchanged: no probabilities, k = 0, a
       probability that is NaN, negative or above 1, a sum off by more than
       1e-9, min_expected NaN or infinite. */
    double nanp[2] = {NAN, 1}, negp[2] = {-0.5, 1.5}, big[2] = {1.5, -0.5},
           off[4] = {0.25, 0.25, 0.25, 0.25 + 2e-9},
           near[4] = {0.25, 0.25, 0.25, 0.25 + 5e-10};
    st = df = p = 42;
    CHECK_EQ(fsh_stats_chi2_gof(o, NULL, 4, 0, &st, &df, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_chi2_gof(o, pr, 0, 0, &st, &df, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_chi2_gof(o, nanp, 2, 0, &st, &df, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_chi2_gof(o, negp, 2, 0, &st, &df, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_chi2_gof(o, big, 2, 0, &st, &df, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_chi2_gof(o, off, 4, 0, &st, &df, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_chi2_gof(o, pr, 4, NAN, &st, &df, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_chi2_gof(o, pr, 4, INFINITY, &st, &df, &p),
             FSH_EINVAL);
    CHECK(st == 42 && df == 42 && p == 42);
    CHECK_EQ(fsh_stats_chi2_gof(o, near, 4, 5, &st, &df, &p), FSH_OK);
    CHECK(df == 3);
    /* Any output may be NULL; the others are as with all three. */
    double p1 = 0, st1 = 0, df1 = 0;
    CHECK_EQ(fsh_stats_chi2_gof(o, pr, 4, 5, NULL, NULL, NULL), FSH_OK);
    CHECK_EQ(fsh_stats_chi2_gof(o, pr, 4, 5, NULL, NULL, &p1), FSH_OK);
    CHECK_EQ(fsh_stats_chi2_gof(o, pr, 4, 5, &st1, NULL, NULL), FSH_OK);
    CHECK_EQ(fsh_stats_chi2_gof(o, pr, 4, 5, NULL, &df1, NULL), FSH_OK);
    CHECK_REL(p1, 1.6974243555282653e-4);
    CHECK_REL(st1, 20);
    CHECK(df1 == 3);
}


/* Large and tiny arguments (the old series and continued fraction stopped
   after 1e7 terms, about sqrt(a) short from a = 1e12 on; 1 - P lost a
   small Q for a < 1). References: mpmath 1.3 gammainc(regularized=True)
   at 50 digits where it converges (a <= 1e12); above, Temme's expansion
   evaluated in mpmath at 60 digits with 10 terms (its truncation checked
   against gammainc to 1e-20 for 100 <= a <= 1e4); at x = a it is
   1/2 - 1/(3 sqrt(2 pi a)) + O(a^-3/2). */
static void test_gamma_extreme(void)
{
    static const double t[][4] = {
        {1e12, 1000003000000.0, 0.9986500901500830985, 0.0013499098499169015046},
        {1e14, 1e14, 0.50000001329807601338, 0.49999998670192398662},
        {1e15, 1e15, 0.50000000420522087003, 0.49999999579477912997},
        {1e20, 1e20, 0.50000000001329807601, 0.49999999998670192399},
        {1e300, 1e300, 0.5, 0.5},
        {1e9, 999968377.2233983, 0.15865525389121661198, 0.84134474610878338802},
        {1e-300, 0.5, 1.0, 5.5977359477616082577e-301},
        {0.003, 0.03, 0.99115486704106204, 0.0088451329589379627355},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        double p = -1, q = -1;
        CHECK_EQ(fsh_stats_gamma_pq(t[i][0], t[i][1], &p, &q), FSH_OK);
        CHECK_TOL(p, t[i][2], 1e-12);
        CHECK_TOL(q, t[i][3], 1e-12);
    }
    double p = -1, q = -1;
    /* Far beyond the mean both tails underflow: 0 and 1, not NaN. */
    CHECK_EQ(fsh_stats_gamma_pq(1e300, 1.0000000001e300, &p, &q), FSH_OK);
    CHECK(p == 1 && q == 0);
    CHECK_EQ(fsh_stats_gamma_pq(1e300, 0.9999999999e300, &p, &q), FSH_OK);
    CHECK(p == 0 && q == 1);
    /* The review's cases: P(X >= 1e14) for Poisson(1e14) is P(1e14, 1e14);
       chi2_sf(2e14, 2e14) is Q(1e14, 1e14). */
    CHECK_EQ(fsh_stats_poisson_sf(100000000000000ull, 1e14, &p), FSH_OK);
    CHECK_TOL(p, 0.50000001329807601338, 1e-12);
    CHECK_EQ(fsh_stats_chi2_sf(2e14, 2e14, &p), FSH_OK);
    CHECK_TOL(p, 0.49999998670192398662, 1e-12);
    /* chi2(df) quantile at a tiny df: P(a, y) = y^a / Gamma(1+a) (1 +
       O(y)), so x = 2 (p Gamma(1 + df/2))^(2/df) (mpmath, 50 digits);
       bisection in x stopped at 1.94e-120. */
    double x = -1;
    CHECK_EQ(fsh_stats_chi2_isf(0.5, 0.003, &x), FSH_OK);
    CHECK_TOL(x, 2.3132365182733598417e-201, 1e-12);
    /* ... and one below the smallest double is 0. */
    CHECK_EQ(fsh_stats_chi2_isf(0.5, 1e-5, &x), FSH_OK);
    CHECK(x == 0);
    CHECK_EQ(fsh_stats_chi2_isf(0.01, 1e300, &x), FSH_OK);
    CHECK_TOL(x, 1e300, 1e-12);
}

/* Nothing sets errno: these underflowed expl/erfcl (ERANGE). */
static void test_errno(void)
{
    double p, q, st, df;
    errno = 0;
    CHECK_EQ(fsh_stats_chi2_sf(1e6, 1, &p), FSH_OK);
    CHECK(p == 0);
    CHECK_EQ(errno, 0);
    CHECK_EQ(fsh_stats_poisson_sf(100000, 1, &p), FSH_OK);
    CHECK_EQ(errno, 0);
    CHECK_EQ(fsh_stats_gamma_pq(200, 1e-300, &p, &q), FSH_OK);
    CHECK(p == 0 && q == 1);
    CHECK_EQ(errno, 0);
    CHECK_EQ(fsh_stats_normal_sf(40, &p), FSH_OK);
    CHECK_EQ(errno, 0);
    CHECK_EQ(fsh_stats_chi2_isf(1e-300, 0.5, &p), FSH_OK);
    CHECK_EQ(errno, 0);
    static const uint64_t obs[2] = {1000000, 0};
    static const double pr[2] = {0.5, 0.5};
    CHECK_EQ(fsh_stats_chi2_gof(obs, pr, 2, 5, &st, &df, &p), FSH_OK);
    CHECK(p == 0);
    CHECK_EQ(errno, 0);
    errno = EBADF; /* and a set errno is kept */
    CHECK_EQ(fsh_stats_chi2_sf(1e6, 1, &p), FSH_OK);
    CHECK_EQ(errno, EBADF);
    (void)fsh_ordered_bits(UINT64_MAX, UINT64_MAX);
    CHECK_EQ(errno, EBADF);
    errno = 0;
}

/* Infinite arguments are FSH_EINVAL everywhere (as documented), outputs
   untouched; counts that are all zero give no groups: stat 0, df 0, p 1
   (it was 0 / 0 with min_expected = 0). */
static void test_infinities(void)
{
    double p = 7, q = 7;
    CHECK_EQ(fsh_stats_normal_sf(INFINITY, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_normal_sf(-INFINITY, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_chi2_sf(INFINITY, 3, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_chi2_sf(-INFINITY, 3, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_gamma_pq(2, INFINITY, &p, &q), FSH_EINVAL);
    CHECK_EQ(fsh_stats_gamma_pq(INFINITY, 2, &p, &q), FSH_EINVAL);
    CHECK_EQ(fsh_stats_poisson_sf(3, INFINITY, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_chi2_isf(0.5, INFINITY, &p), FSH_EINVAL);
    CHECK(p == 7 && q == 7);
    static const uint64_t zero[3] = {0, 0, 0};
    static const double pr[3] = {0.2, 0.3, 0.5};
    double st = -1, df = -1;
    for (int me = 0; me <= 5; me += 5) {
        CHECK_EQ(fsh_stats_chi2_gof(zero, pr, 3, me, &st, &df, &p), FSH_OK);
        CHECK(st == 0 && df == 0 && p == 1);
    }
}

/* fsh_stats_chi2_sf(3), ERRORS: "An argument is NaN, infinite (every
   infinity, in every function) or out of its range ... or a required
   output is NULL", and "on failure the outputs are unchanged", with errno
   untouched: every floating-point argument of every function (a
   probability array through one of its elements) given NaN, +inf and
   -inf, and every output that may not be NULL given NULL. */
static void test_bad_floats(void)
{
    static const double sp[3] = {NAN, INFINITY, -INFINITY};
    static const uint64_t obs[4] = {3, 5, 2, 6};
    int refused = 0, calls = 0, kept = 1;
    errno = EDOM;
    for (int s = 0; s < 3; s++) {
        double v = sp[s];
        double pr[4] = {0.25, 0.25, 0.25, 0.25};
        double bad[4] = {0.25, v, 0.25, 0.25};
        double o1 = 7, o2 = 7, o3 = 7, gp[4] = {7, 7, 7, 7};
        uint64_t go[4] = {7, 7, 7, 7};
        size_t g = 7;
        const int rc[] = {
            fsh_stats_gamma_pq(v, 1, &o1, &o2),
            fsh_stats_gamma_pq(1, v, &o1, &o2),
            fsh_stats_chi2_sf(v, 3, &o1),
            fsh_stats_chi2_sf(1, v, &o1),
            fsh_stats_chi2_isf(v, 3, &o1),
            fsh_stats_chi2_isf(0.5, v, &o1),
            fsh_stats_normal_sf(v, &o1),
            fsh_stats_poisson_sf(3, v, &o1),
            fsh_stats_chi2_gof(obs, pr, 4, v, &o1, &o2, &o3),
            fsh_stats_chi2_gof(obs, bad, 4, 0, &o1, &o2, &o3),
            fsh_stats_chi2_pool(obs, pr, 4, v, go, gp, &g),
            fsh_stats_chi2_pool(obs, bad, 4, 0, go, gp, &g),
            fsh_stats_pearson_sf(16, pr, 4, v, &o1),
            fsh_stats_pearson_sf(16, bad, 4, 20, &o1),
            fsh_stats_pearson_steps(16, pr, 4, v, &o1),
            fsh_stats_pearson_steps(16, bad, 4, 20, &o1),
            fsh_stats_pearson_equal_bound(16, 4, v, &o1),
        };
        for (size_t i = 0; i < sizeof rc / sizeof rc[0]; i++) {
            calls++;
            refused += rc[i] == FSH_EINVAL;
            if (rc[i] != FSH_EINVAL)
                fprintf(stderr, "  bad float %g, call %zu: status %d\n", v,
                        i, rc[i]);
        }
        kept &= o1 == 7 && o2 == 7 && o3 == 7 && g == 7;
        for (int i = 0; i < 4; i++)
            kept &= go[i] == 7 && gp[i] == 7;
    }
    /* Required outputs. */
    {
        static const double pr[4] = {0.25, 0.25, 0.25, 0.25};
        double gp[4] = {7, 7, 7, 7}, pmf[8] = {7, 7, 7, 7, 7, 7, 7, 7};
        uint64_t go[4] = {7, 7, 7, 7};
        size_t g = 7;
        const int rc[] = {
            fsh_stats_chi2_isf(0.5, 3, NULL),
            fsh_stats_normal_sf(1, NULL),
            fsh_stats_poisson_sf(3, 1, NULL),
            fsh_stats_pearson_equal_bound(16, 4, 20, NULL),
            fsh_stats_chi2_pool(obs, pr, 4, 0, NULL, gp, &g),
            fsh_stats_chi2_pool(obs, pr, 4, 0, go, NULL, &g),
            fsh_stats_chi2_pool(obs, pr, 4, 0, go, gp, NULL),
            /* the length must be n(n-1)/2 + 1: 4 for n = 3 */
            fsh_stats_inversions_law(3, pmf, 3),
            fsh_stats_inversions_law(3, pmf, 5),
        };
        for (size_t i = 0; i < sizeof rc / sizeof rc[0]; i++) {
            calls++;
            refused += rc[i] == FSH_EINVAL;
            if (rc[i] != FSH_EINVAL)
                fprintf(stderr, "  required output, call %zu: status %d\n",
                        i, rc[i]);
        }
        kept &= g == 7;
        for (int i = 0; i < 4; i++)
            kept &= go[i] == 7 && gp[i] == 7;
        for (int i = 0; i < 8; i++)
            kept &= pmf[i] == 7;
    }
    CHECK_EQ(calls, 3 * 17 + 9);
    CHECK_EQ(refused, calls);
    CHECK(kept);
    CHECK_EQ(errno, EDOM);
    errno = 0;
}

/* The bits functions near their limits. References: mpmath loggamma at 80
   digits, (loggamma(n+1) - loggamma(n-k+1) [- loggamma(k+1)]) / ln 2. */
static void test_bits(void)
{
    const uint64_t n = UINT64_MAX;
    /* The old code jumped by 22,528 bits at k = 100000 (cancellation of
       log2 n! - log2 (n-k)!). */
    CHECK_TOL(fsh_ordered_bits(n, 99999), 6399935.999999999608960636, 1e-15);
    CHECK_TOL(fsh_ordered_bits(n, 100000), 6399999.999999999608952815, 1e-15);
    CHECK_TOL(fsh_ordered_bits(n, 100001), 6400063.999999999608944994, 1e-15);
    CHECK_TOL(fsh_subset_bits(n, 100000), 4883295.826075710575320976, 1e-15);
    CHECK_TOL(fsh_subset_bits(n, n / 2), 18446744073709551582.67425, 1e-15);
    CHECK_TOL(fsh_ordered_bits(52, 52), 225.58100312370276195, 1e-15);
    CHECK_TOL(fsh_ordered_bits(1000000, 1000000), 18488884.819967680303,
              1e-15);
    CHECK_TOL(fsh_subset_bits(100, 50), 96.348717162879337928, 1e-15);
    CHECK(fsh_ordered_bits(n, 0) == 0 && fsh_subset_bits(n, n) == 0);
    CHECK(fsh_ordered_bits(3, 4) == 0);
    CHECK(fsh_subset_bits(3, 4) == 0); /* k > n gives 0, both */
    /* Counts summing past 2^64 wrapped: log2 C(2^64, 2^63) and
       log2 C(2^64 + 1, 2) = 127 + 1e-19 (were -1.1e21 and negative). */
    static const uint64_t half[2] = {1ull << 63, 1ull << 63};
    static const uint64_t big2[2] = {UINT64_MAX, 2};
    static const uint64_t shoe[3] = {4, 4, 4};
    CHECK_TOL(fsh_multiset_bits(half, 2), 18446744073709551583.67425, 1e-15);
    CHECK_TOL(fsh_multiset_bits(big2, 2), 127, 1e-15);
    CHECK_TOL(fsh_multiset_bits(shoe, 3), 15.080567731911938422, 1e-15);
}

/* The exact tail of Pearson's statistic (fsh_stats_pearson_sf) against
   brute force: every outcome of the multinomial enumerated, each term
   rounded by nobody. The result must lie between the exact tail at x and
   at x - k/64 (the rounding), down to tails of 1e-40. */
static long double brute_tail, brute_lf[128];
static void brute(const double *pr, size_t k, size_t i, long total,
                  long left, long double lw, long double xs, double x)
{
    long double e = (long double)total * pr[i];
    if (i + 1 == k) {
        long double t = xs + ((long double)left - e) * ((long double)left - e) / e;
        if (t >= x)
            brute_tail += expl(lw + (long double)left * logl(pr[i]) -
                               brute_lf[left] + brute_lf[total]);
        return;
    }
    for (long o = 0; o <= left; o++)
        brute(pr, k, i + 1, total, left - o,
              lw + (long double)o * logl(pr[i]) - brute_lf[o],
              xs + ((long double)o - e) * ((long double)o - e) / e, x);
}

static void test_pearson(void)
{
    static const struct {
        size_t k;
        long total;
        double pr[5];
    } cases[] = {{2, 10, {0.5, 0.5}},
                 {2, 100, {0.9, 0.1}},
                 {3, 30, {0.2, 0.3, 0.5}},
                 {4, 25, {0.1, 0.2, 0.3, 0.4}},
                 {5, 20, {0.35, 0.05, 0.25, 0.15, 0.2}},
                 {5, 24, {0.2, 0.2, 0.2, 0.2, 0.2}}};
    for (int i = 1; i < 128; i++)
        brute_lf[i] = brute_lf[i - 1] + logl((long double)i);
    int ok = 1, tiny = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        for (double x = 0.3; x < 400; x *= 1.3) {
            double p;
            if (fsh_stats_pearson_sf((uint64_t)cases[c].total, cases[c].pr,
                                     cases[c].k, x, &p) != FSH_OK) {
                ok = 0;
                continue;
            }
            brute_tail = 0;
            brute(cases[c].pr, cases[c].k, 0, cases[c].total,
                  cases[c].total, 0, 0, x);
            long double hi = brute_tail;
            brute_tail = 0;
            brute(cases[c].pr, cases[c].k, 0, cases[c].total,
                  cases[c].total, 0, 0, x - (double)cases[c].k / 64);
            long double lo = brute_tail;
            if (hi > 0 && hi < 1e-40L)
                tiny++;
            if (p < (double)(hi * (1 - 1e-12L)) ||
                p > (double)(lo * (1 + 1e-12L))) {
                fprintf(stderr, "  k %zu total %ld x %g: p %g, exact %Lg "
                                "(%Lg at x - k/64)\n",
                        cases[c].k, cases[c].total, x, p, hi, lo);
                ok = 0;
            }
        }
    }
    CHECK(ok);
    CHECK(tiny > 0);
    /* 2 cells of 1/2, 10 counts: X = 2 (O - 5)^2 / 5 >= 4 when O <= 1 or
       O >= 9: 22 / 1024. */
    double half[2] = {0.5, 0.5}, p = 42, steps;
    CHECK_EQ(fsh_stats_pearson_sf(10, half, 2, 4, &p), FSH_OK);
    CHECK_REL(p, 22.0 / 1024);
    /* x <= 0: 1; no counts or one category: X = 0. */
    CHECK_EQ(fsh_stats_pearson_sf(10, half, 2, 0, &p), FSH_OK);
    CHECK(p == 1);
    CHECK_EQ(fsh_stats_pearson_sf(0, half, 2, 1, &p), FSH_OK);
    CHECK(p == 0);
    double one[3] = {0, 1, 0};
    CHECK_EQ(fsh_stats_pearson_sf(10, one, 3, 1, &p), FSH_OK);
    CHECK(p == 0);
    /* Large counts in two groups take few steps: 1e8 counts, 0.3 s. */
    double split[2] = {0.4, 0.6};
    CHECK_EQ(fsh_stats_pearson_steps(100000000, split, 2, 40, &steps),
             FSH_OK);
    CHECK(steps > 0 && steps < 1e6);
    CHECK_EQ(fsh_stats_pearson_sf(100000000, split, 2, 40, &p), FSH_OK);
    /* Near the chi-square(1) tail at 40 (2.5e-10) with this many. */
    CHECK(p > 2.4e-10 && p < 2.8e-10);
    CHECK_EQ(fsh_stats_pearson_steps(10, half, 2, 0, &steps), FSH_OK);
    CHECK(steps == 0);
    /* Bad arguments, outputs unchanged. */
    double nanp[2] = {NAN, 1}, off[2] = {0.5, 0.5 + 2e-9};
    p = steps = 42;
    CHECK_EQ(fsh_stats_pearson_sf(10, NULL, 2, 1, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_pearson_sf(10, half, 2, 1, NULL), FSH_EINVAL);
    CHECK_EQ(fsh_stats_pearson_sf(10, half, 0, 1, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_pearson_sf(10, nanp, 2, 1, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_pearson_sf(10, off, 2, 1, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_pearson_sf(10, half, 2, NAN, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_pearson_sf(10, half, 2, INFINITY, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_pearson_sf(10, half, 2, 2e7, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_pearson_sf(((uint64_t)1 << 52) + 1, half, 2, 1, &p),
             FSH_EINVAL);
    CHECK_EQ(fsh_stats_pearson_steps(10, half, 2, 1, NULL), FSH_EINVAL);
    CHECK_EQ(fsh_stats_pearson_steps(10, nanp, 2, 1, &steps), FSH_EINVAL);
    CHECK(p == 42 && steps == 42);

    /* fsh_stats_chi2_pool: the groups fsh_stats_chi2_gof tests, whose
       statistic they give back. */
    uint64_t o[6] = {3, 9, 20, 30, 7, 1}, go[6];
    double pr[6] = {0.05, 0.1, 0.2, 0.4, 0.2, 0.05}, gp[6], st, df, pv;
    size_t g = 0;
    CHECK_EQ(fsh_stats_chi2_gof(o, pr, 6, 5, &st, &df, &pv), FSH_OK);
    CHECK_EQ(fsh_stats_chi2_pool(o, pr, 6, 5, go, gp, &g), FSH_OK);
    CHECK_EQ(g, (size_t)df + 1);
    double x = 0, psum = 0;
    uint64_t osum = 0;
    for (size_t i = 0; i < g; i++) {
        x += ((double)go[i] - 70 * gp[i]) * ((double)go[i] - 70 * gp[i]) /
             (70 * gp[i]);
        psum += gp[i];
        osum += go[i];
    }
    CHECK_REL(x, st);
    CHECK_TOL(psum, 1, 1e-12);
    CHECK_EQ(osum, (uint64_t)70);
    /* [0,1] pooled (10.5 expected), then 14, 28, 14, and the last 3.5
       joins the one before. */
    CHECK_EQ(g, (size_t)4);
    CHECK(go[0] == 12 && go[3] == 8);
    uint64_t o2[3] = {5, 1, 5};
    double pr2[3] = {0.5, 0, 0.5};
    CHECK_EQ(fsh_stats_chi2_pool(o2, pr2, 3, 0, go, gp, &g), FSH_EINVAL);
    CHECK_EQ(fsh_stats_chi2_pool(o, pr, 6, 5, NULL, gp, &g), FSH_EINVAL);
    CHECK_EQ(fsh_stats_chi2_pool(o, pr, 6, -1, go, gp, &g), FSH_EINVAL);
}

/* The bound on Pearson's tail over equally likely cells
   (fsh_stats_pearson_equal_bound): never below the exact tail (brute
   force, and fsh_stats_pearson_sf at x + k/64, which is at most it), and
   within the Chernoff bound's excess: at most 100 times the tail where
   that is above 1e-6 (its factor is (x - k + 1) sqrt(pi / (k - 1)) for
   the chi-square limit, about 20 to 90 at these sizes; further out, where
   the tail is a few outcomes, up to about 250 here). */
static void test_pearson_equal(void)
{
    static const struct {
        size_t k;
        long total;
    } cases[] = {{2, 10}, {2, 31}, {3, 30}, {4, 25}, {5, 24}, {6, 18}};
    double pr[8];
    int ok = 1, sharp = 0;
    double worst = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t k = cases[c].k;
        for (size_t i = 0; i < k; i++)
            pr[i] = 1 / (double)k;
        for (double x = 0.3; x < 400; x *= 1.3) {
            double p;
            if (fsh_stats_pearson_equal_bound((uint64_t)cases[c].total, k, x,
                                              &p) != FSH_OK) {
                ok = 0;
                continue;
            }
            brute_tail = 0;
            brute(pr, k, 0, cases[c].total, cases[c].total, 0, 0, x);
            long double ex = brute_tail;
            if (p < (double)(ex * (1 - 1e-12L)) ||
                (ex > 1e-6L && p > (double)(100 * ex))) {
                fprintf(stderr, "  k %zu total %ld x %g: bound %g, exact %Lg\n",
                        k, cases[c].total, x, p, ex);
                ok = 0;
            }
            if (ex > 1e-6L && ex < 1e-3L) {
                sharp++;
                worst = fmax(worst, p / (double)ex);
            }
        }
    }
    printf("  equal cells, brute force: %d tails in [1e-6, 1e-3], bound at "
           "most "
           "%.3g times the tail\n",
           sharp, worst);
    CHECK(ok);
    CHECK(sharp > 10);
    /* Beyond brute force: against the exact program at x + k/64 (a lower
       bound on the tail at x), at the limit's 1e-3, 1e-6 and 1e-9. */
    static const struct {
        size_t k;
        uint64_t total;
    } big[] = {{3, 1000}, {6, 60}, {8, 48}};
    for (size_t c = 0; c < sizeof big / sizeof big[0]; c++) {
        size_t k = big[c].k;
        for (size_t i = 0; i < k; i++)
            pr[i] = 1 / (double)k;
        for (double u = 1e-3; u > 1e-10; u *= 1e-3) {
            double x, p, lo;
            CHECK_EQ(fsh_stats_chi2_isf(u, (double)k - 1, &x), FSH_OK);
            CHECK_EQ(fsh_stats_pearson_equal_bound(big[c].total, k, x, &p),
                     FSH_OK);
            CHECK_EQ(fsh_stats_pearson_sf(big[c].total, pr, k,
                                          x + (double)k / 64, &lo),
                     FSH_OK);
            CHECK(p >= lo && p <= 100 * lo);
        }
    }
    /* Any size: 10^6 counts over 52 cells and over 40320 (8! orders), at
       the limit's 1e-6 quantile: near the limit's Chernoff bound (1.6e-5
       and 1.3e-5; the exact tails are near 1e-6). */
    double x, p = 42;
    CHECK_EQ(fsh_stats_chi2_isf(1e-6, 51, &x), FSH_OK);
    CHECK_EQ(fsh_stats_pearson_equal_bound(1000000, 52, x, &p), FSH_OK);
    CHECK(p > 1e-6 && p < 3e-5);
    CHECK_EQ(fsh_stats_chi2_isf(1e-6, 40319, &x), FSH_OK);
    CHECK_EQ(fsh_stats_pearson_equal_bound(1000000, 40320, x, &p), FSH_OK);
    CHECK(p > 1e-6 && p < 3e-5);
    /* Edges: x <= 0 and x at most k - 1 give 1; one cell, no counts or x
       above total (k - 1) give 0. */
    CHECK_EQ(fsh_stats_pearson_equal_bound(10, 3, 0, &p), FSH_OK);
    CHECK(p == 1);
    CHECK_EQ(fsh_stats_pearson_equal_bound(10, 3, 2, &p), FSH_OK);
    CHECK(p == 1);
    CHECK_EQ(fsh_stats_pearson_equal_bound(10, 1, 1, &p), FSH_OK);
    CHECK(p == 0);
    CHECK_EQ(fsh_stats_pearson_equal_bound(0, 3, 1, &p), FSH_OK);
    CHECK(p == 0);
    CHECK_EQ(fsh_stats_pearson_equal_bound(10, 3, 20.5, &p), FSH_OK);
    CHECK(p == 0);
    /* X = 20 when all 10 counts fall in one of 3 cells: 3 / 3^10. */
    CHECK_EQ(fsh_stats_pearson_equal_bound(10, 3, 20, &p), FSH_OK);
    CHECK(p >= 3 / 59049.0 * (1 - 1e-12) && p < 1);
    /* Bad arguments, output unchanged. */
    p = 42;
    CHECK_EQ(fsh_stats_pearson_equal_bound(10, 3, 1, NULL), FSH_EINVAL);
    CHECK_EQ(fsh_stats_pearson_equal_bound(10, 0, 1, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_pearson_equal_bound(10, 3, NAN, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_pearson_equal_bound(10, 3, INFINITY, &p), FSH_EINVAL);
    CHECK_EQ(fsh_stats_pearson_equal_bound(((uint64_t)1 << 52) + 1, 3, 1, &p),
             FSH_EINVAL);
    CHECK(p == 42);
}

/* The process's address space now, in bytes (/proc/self/statm). */
static double vm_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    int ok = f != NULL && fscanf(f, "%lu", &pages) == 1;
    if (f != NULL)
        fclose(f);
    return ok ? (double)pages * (double)sysconf(_SC_PAGESIZE) : -1;
}

/* fsh_stats_pearson_sf in a child whose address space may grow by at
   most room bytes: 1 when it answers, 0 when it finds no memory (or the
   child fails otherwise). */
static int pearson_within(uint64_t total, const double *prob, size_t k,
                          double x, double room)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        /* Large blocks from mmap, none from free heap space the address
           space already counts (glibc raises the threshold as blocks are
           freed). */
        mallopt(M_MMAP_THRESHOLD, 128 * 1024);
        malloc_trim(0);
        double vm = vm_bytes(), p;
        struct rlimit rl;
        rl.rlim_cur = rl.rlim_max = (rlim_t)(vm + room);
        if (vm < 0 || setrlimit(RLIMIT_AS, &rl) != 0)
            _exit(3);
        int rc = fsh_stats_pearson_sf(total, prob, k, x, &p);
        _exit(rc == FSH_OK ? 0 : rc == FSH_ENOMEM ? 1 : 2);
    }
    int st;
    if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
        return -1;
    return WEXITSTATUS(st) == 0 ? 1 : WEXITSTATUS(st) == 1 ? 0 : -1;
}

/* fsh_stats_pearson_bytes: the memory fsh_stats_pearson_sf holds at once,
   which its steps do not bound (the audit's 3000 deals of 3 values took
   258 MB within 5e7 steps). Each case runs in a child whose address
   space may grow by the bytes said plus 1 MB (it answers) and by half
   of them (no memory: the figure is not a gross overestimate). Not
   under the sanitizers, whose shadow memory an address-space limit
   breaks. */
static void test_pearson_bytes(void)
{
    static const double six[6] = {1. / 6, 1. / 6, 1. / 6,
                                  1. / 6, 1. / 6, 1. / 6};
    static const double three[3] = {1. / 3, 1. / 3, 1. / 3};
    static const double two[2] = {0.4, 0.6};
    static const double fix3[3] = {1. / 6, 1. / 3, 1. / 2};
    static const struct {
        uint64_t total;
        const double *prob;
        size_t k;
        double x, steps_below, mb_above;
    } cases[] = {
        /* 6 cells of 100 (the orders of 3 values): 9.4 MB. */
        {600, six, 6, 25, 1e8, 9},
        /* 3 equal cells of 10^5 counts (the card differences of 3
           values): 40 MB in 8.6e6 steps. */
        {100000, three, 3, 23.4, 1e7, 35},
        /* Two groups of 10^7 counts at x = 10^4: one row of 640000
           long doubles and its suffix sums, 20 MB, in 10^6 steps. */
        {10000000, two, 2, 1e4, 2e6, 19},
        /* The fixed points of 3 values (0, 1 or 3) of 3000 deals at
           x = 100: 44 MB in 6e6 steps. */
        {3000, fix3, 3, 100, 1e7, 40},
    };
    double steps, bytes;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        bytes = steps = -1;
        CHECK_EQ(fsh_stats_pearson_steps(cases[c].total, cases[c].prob,
                                         cases[c].k, cases[c].x, &steps),
                 FSH_OK);
        CHECK_EQ(fsh_stats_pearson_bytes(cases[c].total, cases[c].prob,
                                         cases[c].k, cases[c].x, &bytes),
                 FSH_OK);
        printf("  pearson_sf(%llu counts, %zu groups, x = %g): %.3g steps, "
               "%.1f MB\n",
               (unsigned long long)cases[c].total, cases[c].k, cases[c].x,
               steps, bytes / 1048576);
        CHECK(steps < cases[c].steps_below);
        CHECK(bytes > cases[c].mb_above * 1048576);
        if (getenv("FSH_SANITIZE") != NULL)
            continue;
        CHECK_EQ(pearson_within(cases[c].total, cases[c].prob, cases[c].k,
                                cases[c].x, bytes + 1048576),
                 1);
        CHECK_EQ(pearson_within(cases[c].total, cases[c].prob, cases[c].k,
                                cases[c].x, bytes / 2),
                 0);
    }
    /* None needed: 0 bytes. Bad arguments as for the steps, output
       unchanged. */
    double half[2] = {0.5, 0.5}, nanp[2] = {NAN, 1};
    CHECK_EQ(fsh_stats_pearson_bytes(10, half, 2, 0, &bytes), FSH_OK);
    CHECK(bytes == 0);
    CHECK_EQ(fsh_stats_pearson_bytes(0, half, 2, 1, &bytes), FSH_OK);
    CHECK(bytes == 0);
    bytes = 42;
    CHECK_EQ(fsh_stats_pearson_bytes(10, half, 2, 1, NULL), FSH_EINVAL);
    CHECK_EQ(fsh_stats_pearson_bytes(10, nanp, 2, 1, &bytes), FSH_EINVAL);
    CHECK_EQ(fsh_stats_pearson_bytes(10, NULL, 2, 1, &bytes), FSH_EINVAL);
    CHECK_EQ(fsh_stats_pearson_bytes(10, half, 2, 2e7, &bytes), FSH_EINVAL);
    CHECK(bytes == 42);
}

int main(void)
{
    test_gamma();
    test_chi2();
    test_normal_poisson();
    test_laws_brute();
    test_laws_exact();
    test_gof();
    test_pearson();
    test_pearson_bytes();
    test_pearson_equal();
    test_gamma_extreme();
    test_errno();
    test_infinities();
    test_bad_floats();
    test_bits();
    return check_done("test_statlib");
}
