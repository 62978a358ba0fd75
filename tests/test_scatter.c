/* SPDX-License-Identifier: MIT */
/* run.sh: weight 37 (its usual wall time in s: longest first) */
/* The beyond-cache kernels of src/scatter.c: the scatter shuffle (exact by
 * enumeration at tiny sizes, position-by-value chi-square at sizes that use
 * every path, identical output for 1, 2, 3, 4 and 7 threads), the
 * prefetching Fisher-Yates (same permutation as the plain kernel), and a
 * known-bad variant (buckets without the multinomial fix-up) that both the
 * enumeration and the chi-square test must reject.
 */
#include "check.h"
#include "shuffle/fy.h"
#include "shuffle/scatter.h"
#include "shuffle/thresholds.h"

#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;

/* ------------------------------------------------------------------------ */
/* Draw-tree walker (tests/walker.h), recording each leaf's bounds          */

#define MAXD 512

#include "walker.h"

static u128 gcd128(u128 a, u128 b)
{
    while (b != 0) {
        u128 t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Exact probability of each order: the sum over its leaves of
   1 / (product of the leaf's bounds), kept as reduced fractions. With
   bucket draws the leaves have different depths, so counting leaves alone
   would not do. Returns 1 iff every order has probability exactly 1/n!. */
static int enumerate(unsigned n, const fsh_scatter_params *p,
                     unsigned long *leaves_out)
{
    u128 num[40320], den[40320];
    for (unsigned r = 0; r < fact[n]; r++)
        num[r] = 0, den[r] = 1;
    struct walker *w = calloc(1, sizeof *w);
    fsh_rng *rng;
    if (w == NULL || fsh_rng_new(&rng) != FSH_OK) {
        free(w);
        return 0;
    }
    CHECK(fsh_rng_from_randint(rng, walk_randint, w) == FSH_OK);
    unsigned long leaves = 0;
    int ok = 1;
    do {
        uint64_t a[8];
        for (unsigned i = 0; i < n; i++)
            a[i] = i;
        int rc = fsh_scatter_hook(rng, (unsigned char *)a, n, sizeof a[0], p);
        unsigned perm[8];
        for (unsigned i = 0; i < n; i++)
            perm[i] = (unsigned)a[i];
        uint32_t r = rank_perm(perm, n);
        if (rc != FSH_OK || r >= fact[n] || w->mismatch || w->overflow) {
            ok = 0;
            break;
        }
        u128 P = 1;
        for (unsigned d = 0; d < w->pos; d++)
            P *= w->bound[d];
        /* num/den + 1/P */
        num[r] = num[r] * P + den[r];
        den[r] *= P;
        u128 g = gcd128(num[r], den[r]);
        num[r] /= g, den[r] /= g;
        leaves++;
    } while (walk_next(w));
    for (unsigned r = 0; ok && r < fact[n]; r++)
        if (num[r] * fact[n] != den[r])
            ok = 0;
    fsh_rng_free(rng);
    free(w);
    *leaves_out = leaves;
    return ok;
}

/* Under the sanitizers (FSH_SANITIZE set: make sanitize, make tsan) the
   two largest configurations, 1.7e6 and 1.1e6 leaves (three quarters of
   the enumeration's time: about 40 s under ASan, 110 s under TSan on 2
   vCPUs), are left to make check: the other eight, the known-bad variant
   included, still reach every line and every branch direction of src/
   that the ten reach (gcov -b, compared). */
static void test_enumeration(void)
{
    static const struct {
        unsigned n, k, stripes;
        size_t base;
        int large;
    } cases[] = {
        {2, 2, 1, 1, 0}, {3, 2, 1, 1, 0}, {3, 3, 1, 1, 0}, {4, 2, 1, 2, 0},
        {4, 3, 1, 2, 0}, {5, 2, 1, 2, 0}, {5, 2, 2, 2, 0}, {5, 3, 1, 3, 1},
        {6, 2, 2, 3, 1}, {6, 2, 3, 4, 0},
    };
    const int sanitizer = getenv("FSH_SANITIZE") != NULL;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        if (sanitizer && cases[c].large) {
            printf("  enumeration n=%u k=%u S=%u base=%zu: left to make check "
                   "(sanitizer run)\n",
                   cases[c].n, cases[c].k, cases[c].stripes, cases[c].base);
            continue;
        }
        /* Leaves backward, and forward (stream version 3; under the
           sanitizers only at n <= 4: the same code, a tenth of the time). */
        for (int fwd = 0; fwd <= (sanitizer ? cases[c].n <= 4 : 1); fwd++) {
            fsh_scatter_params p = {cases[c].k, cases[c].stripes,
                                    cases[c].base, 1, 0, 0, fwd};
            unsigned long leaves;
            int ok = enumerate(cases[c].n, &p, &leaves);
            if (!ok)
                fprintf(stderr, "enumeration failed: n=%u k=%u S=%u base=%zu "
                        "forward=%d\n", cases[c].n, cases[c].k,
                        cases[c].stripes, cases[c].base, fwd);
            CHECK(ok);
            CHECK(leaves >= fact[cases[c].n]);
            if (getenv("FSH_VERBOSE"))
                fprintf(stderr, "n=%u k=%u S=%u base=%zu forward=%d: %lu "
                        "leaves\n", cases[c].n, cases[c].k, cases[c].stripes,
                        cases[c].base, fwd, leaves);
        }
    }
    /* The known-bad variant: the rough regions taken as the buckets. */
    fsh_scatter_params bad = {2, 1, 2, 1, 0, 1, 0};
    unsigned long leaves;
    CHECK(!enumerate(4, &bad, &leaves));
    CHECK(!enumerate(5, &bad, &leaves));
}

/* ------------------------------------------------------------------------ */
/* Position-by-value chi-square                                             */

/*
 * T shuffles of 0..n-1; C[pos][val] counts. For uniform permutations the
 * Pearson sum X over the n x n table has mean n(n-1) and is distributed as
 * (n/(n-1)) chi2((n-1)^2) (rows and columns are fixed), so we compare
 * X (n-1)/n with the chi2((n-1)^2) quantile for 1e-6:
 *   n = 8:  dof 49,   111.14 (regularized incomplete gamma, computed);
 *   n = 16: dof 225,  340.59 (same);
 *   n = 64: dof 3969, 4407.1 (Wilson-Hilferty, z = 4.7534).
 * Each fixed-seed test thus fails a correct kernel with probability <= 1e-6.
 */
static double chi2_table(unsigned n, unsigned long T,
                         const fsh_scatter_params *p, uint64_t seed)
{
    unsigned long *C = calloc((size_t)n * n, sizeof *C);
    uint32_t *a = malloc(n * sizeof *a);
    fsh_rng *rng;
    if (C == NULL || a == NULL || fsh_rng_new(&rng) != FSH_OK) {
        free(C);
        free(a);
        return 1e300;
    }
    check_seed = seed;
    CHECK(fsh_rng_seed(rng, &seed, sizeof seed) == FSH_OK);
    CHECK(fsh_rng_set_simulation(rng, 1) == FSH_OK);
    int bad = 0;
    for (unsigned long t = 0; t < T; t++) {
        for (unsigned i = 0; i < n; i++)
            a[i] = i;
        bad |= fsh_scatter_hook(rng, (unsigned char *)a, n, sizeof a[0], p) !=
               FSH_OK;
        for (unsigned i = 0; i < n; i++)
            C[(size_t)i * n + a[i]]++;
    }
    CHECK(!bad);
    double E = (double)T / n, X = 0;
    for (size_t i = 0; i < (size_t)n * n; i++)
        X += ((double)C[i] - E) * ((double)C[i] - E) / E;
    fsh_rng_free(rng);
    free(C);
    free(a);
    return X * (n - 1) / n;
}

static void test_chi2(void)
{
    static const struct {
        unsigned n, k, stripes;
        size_t base;
        unsigned long T;
        double limit;
    } cases[] = {
        /* keyed: ChaCha task streams and bit-extracted labels, as in
           fsh_shuffle; several levels, stripes and stashes */
        {8, 2, 2, 2, 40000, 111.14},
        {16, 4, 2, 3, 40000, 340.59},
        {64, 4, 4, 8, 10000, 4407.1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        fsh_scatter_params p = {cases[c].k, cases[c].stripes, cases[c].base,
                                1, 1, 0, 0};
        double x = chi2_table(cases[c].n, cases[c].T, &p, 1000 + c);
        if (x > cases[c].limit)
            fprintf(stderr, "chi2 n=%u: %.1f > %.1f\n", cases[c].n, x,
                    cases[c].limit);
        CHECK(x <= cases[c].limit);
        /* Forward leaves (stream version 3): another fixed-seed test at
           the same 1e-6 (left to make check under the sanitizers, which
           look for memory errors: the enumerations run the same code). */
        if (getenv("FSH_SANITIZE") == NULL) {
            p.forward = 1;
            x = chi2_table(cases[c].n, cases[c].T, &p, 2000 + c);
            if (x > cases[c].limit)
                fprintf(stderr, "chi2 n=%u forward: %.1f > %.1f\n", cases[c].n,
                        x, cases[c].limit);
            CHECK(x <= cases[c].limit);
            p.forward = 0;
        }
        /* The known-bad variant fails the same test. */
        p.broken = 1;
        double xb = chi2_table(cases[c].n, cases[c].T, &p, 1000 + c);
        CHECK(xb > cases[c].limit);
    }
}

/* ------------------------------------------------------------------------ */
/* Threads, dispatch, prefetching                                           */

static int is_perm(const uint64_t *a, size_t n)
{
    unsigned char *seen = calloc(n, 1);
    int ok = seen != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        if (a[i] >= n || seen[a[i]])
            ok = 0;
        else
            seen[a[i]] = 1;
    }
    free(seen);
    return ok;
}

static void fill(uint64_t *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = i;
}

static void seed_rng(fsh_rng *rng, uint64_t seed)
{
    check_seed = seed;
    CHECK(fsh_rng_seed(rng, &seed, sizeof seed) == FSH_OK);
    CHECK(fsh_rng_set_simulation(rng, 1) == FSH_OK);
}

/* The rough pass's unchecked runs only start once a part has more room than
   a label word has labels (64 / log2 k), so the tables above (n <= 64) never
   reach them. Here n = 1024 with parts of 128 to 512 elements: the top
   level runs 3 to 7 words at a time unchecked. Statistic: the final
   position, in 32 bins of 32 positions, of six tracked values (first, last,
   middle and three others), each a chi2(31) test; 3 cases x 6 values = 18
   tests, each at 1e-6 / 18 (limit 92.14, mpmath), so the whole test fails
   with probability at most 1e-6 on a correct kernel. The known-bad variant
   (no multinomial fix-up) keeps the stash in its region, so the last value,
   almost always in the stash, stays in the last bucket: it must fail. */
static void test_chi2_runs(void)
{
    enum { N = 1024, BINS = 32, T = 6400, VALS = 6 };
    static const unsigned vals[VALS] = {0, N - 1, N / 2, 77, 500, 901};
    static const struct {
        unsigned k, stripes;
        size_t base;
    } cases[] = {{2, 1, 64}, {4, 2, 100}, {16, 2, 40}};
    const double limit = 92.14;
    uint64_t *a = malloc(N * sizeof *a);
    fsh_rng *rng = NULL;
    CHECK(a != NULL && fsh_rng_new(&rng) == FSH_OK);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        for (int broken = 0; broken <= 1; broken++) {
            static unsigned long cnt[VALS][BINS];
            memset(cnt, 0, sizeof cnt);
            fsh_scatter_params p = {cases[c].k, cases[c].stripes,
                                    cases[c].base, 1, 1, broken, 0};
            seed_rng(rng, 7000 + c);
            for (unsigned long t = 0; t < T; t++) {
                fill(a, N);
                CHECK(fsh_scatter_hook(rng, (unsigned char *)a, N, 8, &p) ==
                      FSH_OK);
                for (unsigned pos = 0; pos < N; pos++)
                    for (unsigned v = 0; v < VALS; v++)
                        if (a[pos] == vals[v])
                            cnt[v][pos / (N / BINS)]++;
            }
            double worst = 0;
            for (unsigned v = 0; v < VALS; v++) {
                double e = (double)T / BINS, x = 0;
                for (unsigned b = 0; b < BINS; b++)
                    x += ((double)cnt[v][b] - e) * ((double)cnt[v][b] - e) / e;
                if (x > worst)
                    worst = x;
                if (!broken)
                    CHECK(x <= limit);
            }
            if (broken)
                CHECK(worst > limit);
            printf("  runs k=%u S=%u: worst chi2(31) over 6 values %.1f%s "
                   "(limit %.2f)\n",
                   cases[c].k, cases[c].stripes, worst,
                   broken ? " [known bad]" : "", limit);
        }
    }
    fsh_rng_free(rng);
    free(a);
}

static void test_threads(void)
{
    static const unsigned th[] = {1, 2, 3, 4, 7};
    fsh_rng *rng;
    CHECK(fsh_rng_new(&rng) == FSH_OK);
    /* Small parameters through the hook: many buckets, three levels. */
    size_t n = 300000;
    uint64_t *ref = malloc(n * 8), *a = malloc(n * 8);
    CHECK(ref != NULL && a != NULL);
    fsh_scatter_params p = {16, 8, 500, 1, 1, 0, 0};
    fill(ref, n);
    seed_rng(rng, 7);
    CHECK(fsh_scatter_hook(rng, (unsigned char *)ref, n, 8, &p) == FSH_OK);
    CHECK(is_perm(ref, n));
    for (size_t t = 1; t < sizeof th / sizeof th[0]; t++) {
        fill(a, n);
        seed_rng(rng, 7);
        p.threads = th[t];
        CHECK(fsh_scatter_hook(rng, (unsigned char *)a, n, 8, &p) == FSH_OK);
        CHECK(memcmp(a, ref, n * 8) == 0);
    }
    free(ref);
    free(a);

    /* The public entry points above the scatter threshold: fsh_shuffle,
       fsh_shuffle_threads for every thread count, fsh_permutation. */
    n = FSH_SCATTER_MIN_BYTES_V1 / 8 + 12345;
    ref = malloc(n * 8);
    a = malloc(n * 8);
    CHECK(ref != NULL && a != NULL);
    fill(ref, n);
    seed_rng(rng, 11);
    CHECK(fsh_shuffle_u64(rng, ref, n) == FSH_OK);
    CHECK(is_perm(ref, n));
    size_t moved = 0;
    for (size_t i = 0; i < n; i++)
        moved += ref[i] != i;
    CHECK(moved > n - n / 1000);
    for (size_t t = 0; t < sizeof th / sizeof th[0]; t++) {
        fill(a, n);
        seed_rng(rng, 11);
        CHECK(fsh_shuffle_threads(rng, a, n, 8, th[t]) == FSH_OK);
        CHECK(memcmp(a, ref, n * 8) == 0);
    }
    fill(a, n);
    seed_rng(rng, 11);
    CHECK(fsh_shuffle_threads(rng, a, n, 8, 0) == FSH_OK);
    CHECK(memcmp(a, ref, n * 8) == 0);
    seed_rng(rng, 11);
    CHECK(fsh_permutation(rng, a, 0, n - 1) == FSH_OK);
    CHECK(memcmp(a, ref, n * 8) == 0);
    /* Sizes other than 8 bytes take the same path. */
    uint32_t *b = (uint32_t *)a;
    size_t n4 = FSH_SCATTER_MIN_BYTES_V1 / 4 + 3;
    for (size_t i = 0; i < n4; i++)
        b[i] = (uint32_t)i;
    seed_rng(rng, 12);
    CHECK(fsh_shuffle_threads(rng, b, n4, 4, 3) == FSH_OK);
    uint64_t sum = 0;
    for (size_t i = 0; i < n4; i++)
        sum += b[i];
    CHECK(sum == (uint64_t)n4 * (n4 - 1) / 2);
    CHECK(fsh_shuffle_threads(NULL, b, n4, 4, 2) == FSH_EINVAL);
    CHECK(fsh_shuffle_threads(rng, b, 1, 4, 2) == FSH_OK);
    free(ref);
    free(a);
    fsh_rng_free(rng);
}

static uint64_t count_randint(void *ctx, uint64_t k)
{
    uint64_t *calls = ctx;
    ++*calls;
    return (*calls * 0x9e3779b97f4a7c15ull >> 11) % k + 1;
}

static void test_randint_large(void)
{
    /* A randint source keeps one call per position above the threshold. */
    size_t n = FSH_SCATTER_MIN_BYTES_V1 / 8 + 1;
    uint64_t *a = malloc(n * 8), calls = 0;
    fsh_rng *rng = NULL;
    CHECK(a != NULL && fsh_rng_new(&rng) == FSH_OK);
    CHECK(fsh_rng_from_randint(rng, count_randint, &calls) == FSH_OK);
    fill(a, n);
    CHECK(fsh_shuffle_threads(rng, a, n, 8, 2) == FSH_OK);
    CHECK(calls == n - 1);
    CHECK(is_perm(a, n));
    fsh_rng_free(rng);
    free(a);
}

static void test_prefetch(void)
{
    /* Same rng state, same permutation as the plain kernel, through every
       batch phase below 2^30 (pairs above 2^19 elements). */
    static const size_t ns[] = {2, 3, 7, 64, 65, 600, 5000, 70000, 700000};
    /* 4, 8, 16: their own bodies; 12, 33: the generic one (any size). */
    static const size_t sizes[] = {4, 8, 16, 12, 33};
    fsh_rng *r1, *r2;
    CHECK(fsh_rng_new(&r1) == FSH_OK && fsh_rng_new(&r2) == FSH_OK);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
            size_t n = ns[i], size = sizes[s];
            unsigned char *x = malloc(n * size), *y = malloc(n * size);
            CHECK(x != NULL && y != NULL);
            for (size_t b = 0; b < n * size; b++)
                x[b] = y[b] = (unsigned char)(b * 131 + b / size);
            /* xoshiro (the plain kernel steps it inline, the prefetching
               one reads the buffer) and ChaCha8, each from a part-read
               buffer: same words, same order, and both rngs continue with
               the same stream. */
            for (int g = 0; g < 2; g++) {
                uint64_t w1 = 0, w2 = 0;
                if (g == 0) {
                    CHECK(fsh_rng_key_xoshiro(r1, n) == FSH_OK);
                    CHECK(fsh_rng_key_xoshiro(r2, n) == FSH_OK);
                } else {
                    CHECK(fsh_rng_seed_gen(r1, FSH_GEN_CHACHA8, "pf", 2) ==
                          FSH_OK);
                    CHECK(fsh_rng_seed_gen(r2, FSH_GEN_CHACHA8, "pf", 2) ==
                          FSH_OK);
                    CHECK(fsh_rng_set_simulation(r1, 1) == FSH_OK);
                    CHECK(fsh_rng_set_simulation(r2, 1) == FSH_OK);
                }
                for (size_t k = 0; k < (n * 7 + i) % 300; k++) {
                    CHECK(fsh_rng_u64(r1, &w1) == FSH_OK);
                    CHECK(fsh_rng_u64(r2, &w2) == FSH_OK);
                }
                memcpy(y, x, n * size);
                fsh_fy_kernel(r1, x, n, size);
                CHECK(fsh_fy_prefetch(r2, y, n, size) == 1);
                CHECK(memcmp(x, y, n * size) == 0);
                CHECK(fsh_rng_bits_used(r1) == fsh_rng_bits_used(r2));
                for (int k = 0; k < 300; k++) {
                    CHECK(fsh_rng_u64(r1, &w1) == FSH_OK);
                    CHECK(fsh_rng_u64(r2, &w2) == FSH_OK);
                    CHECK(w1 == w2);
                }
            }
            free(x);
            free(y);
        }
    }
    /* The dispatch band of stream version 1 (a raw-keyed rng's):
       fsh_shuffle between the two thresholds is the plain kernel's
       permutation. */
    size_t n = FSH_PREFETCH_MIN_BYTES / 8 + 1000;
    uint64_t *x = malloc(n * 8), *y = malloc(n * 8);
    CHECK(x != NULL && y != NULL);
    fill(x, n);
    fill(y, n);
    CHECK(fsh_rng_key_xoshiro(r1, 5) == FSH_OK);
    CHECK(fsh_rng_key_xoshiro(r2, 5) == FSH_OK);
    fsh_fy_kernel(r1, (unsigned char *)x, n, 8);
    CHECK(fsh_shuffle_u64(r2, y, n) == FSH_OK);
    CHECK(memcmp(x, y, n * 8) == 0);
    free(x);
    free(y);
    fsh_rng_free(r1);
    fsh_rng_free(r2);
}

/* ------------------------------------------------------------------------ */
/* Locked outputs                                                           */

/* The rough pass runs unchecked whole-word runs while the least room allows
   and branch-free steps for small k; it must take exactly the steps of the
   one-step-at-a-time pass it replaced. These hashes (FNV-1a of the output
   bytes) were produced by that per-step-checked pass (commit f6a537d), with
   task streams keyed from ChaCha8 "scatter-golden"; the configurations run
   long unchecked runs at label widths 1, 2, 3, 4, 5 and 8, several levels,
   stripes and stashes, and element sizes 1, 2, 4, 8, 12 and 16. */
static void test_locked(void)
{
    static const struct {
        size_t n, size;
        unsigned k, stripes;
        size_t base;
        uint64_t hash;
    } cf[] = {
        {300000, 8, 16, 4, 5000, 0x90f8ae5b55bdb703u},
        {200000, 4, 256, 2, 100000, 0x01488cdea84c2543u},
        {100000, 16, 2, 3, 3000, 0xcdf33c9ed07b6e23u},
        {150000, 1, 8, 3, 20000, 0x621cd480c67f5943u},
        {120000, 2, 4, 8, 700, 0xea01b947c479267fu},
        {90000, 12, 32, 2, 4000, 0xd962f5b0c3adca13u},
    };
    for (size_t c = 0; c < sizeof cf / sizeof cf[0]; c++) {
        size_t n = cf[c].n, sz = cf[c].size;
        unsigned char *a = malloc(n * sz);
        fsh_rng *rng = NULL;
        CHECK(a != NULL && fsh_rng_new(&rng) == FSH_OK);
        for (size_t i = 0; i < n * sz; i++)
            a[i] = (unsigned char)(i * 131 + i / sz);
        CHECK(fsh_rng_seed_gen(rng, FSH_GEN_CHACHA8, "scatter-golden", 14) ==
              FSH_OK);
        CHECK(fsh_rng_set_simulation(rng, 1) == FSH_OK);
        fsh_scatter_params p;
        memset(&p, 0, sizeof p);
        p.k = cf[c].k;
        p.stripes = cf[c].stripes;
        p.base = cf[c].base;
        p.keyed = 1;
        CHECK(fsh_scatter_hook(rng, a, n, sz, &p) == FSH_OK);
        uint64_t h = 1469598103934665603u;
        for (size_t i = 0; i < n * sz; i++) {
            h ^= a[i];
            h *= 1099511628211u;
        }
        CHECK(h == cf[c].hash);
        fsh_rng_free(rng);
        free(a);
    }
}

/* Built with ThreadSanitizer (make tsan): the parts that run threads
   only. The others are single-threaded (p.threads 1, fsh_shuffle) and run
   in make check and, under ASan and UBSan, in make sanitize; under TSan
   they took 120 of the program's 137 s and could find no race. */
#if defined(__SANITIZE_THREAD__)
#define TSAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TSAN_BUILD 1
#endif
#endif
#ifndef TSAN_BUILD
#define TSAN_BUILD 0
#endif

/* FSH_SCATTER_LOCKED=1 (test_kernel_impl, which runs this program again
   with the AVX2 ChaCha kernel): the parts whose outputs are locked or
   compared (the prefetching kernel, the golden hashes, the threads) but
   not the enumerations, which draw from a walker and no ChaCha word, nor
   the chi-square tests, whose draws those locked outputs already show
   are the same with either kernel. */
int main(void)
{
    const char *locked = getenv("FSH_SCATTER_LOCKED");
    if (TSAN_BUILD) {
        printf("  ThreadSanitizer build: the threaded parts only\n");
    } else if (locked != NULL && strcmp(locked, "1") == 0) {
        printf("  FSH_SCATTER_LOCKED=1: the locked and compared parts only\n");
        test_prefetch();
        test_locked();
    } else {
        test_enumeration();
        test_prefetch();
        test_locked();
        test_chi2();
        test_chi2_runs();
    }
    test_threads();
    test_randint_large();
    return check_done("test_scatter");
}
