/* SPDX-License-Identifier: MIT */
/* Reachability costs (docs/PERFORMANCE.md, "Reachability"): RDSEED
   throughput, the time of hardware mixing per shuffle (60, 416, 1000 and
   5,808 elements, 10^6 with the cap raised) against the same shuffle
   bounded by the key, and the certified-source (direct) mode of a word
   callback at 10^6 and 10^8 elements against the scatter shuffle.
   Build and run: make -C bench reach (bin/reach). Wall clock, median of
   repetitions. */
#define _POSIX_C_SOURCE 200809L
#include "fairshuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_RDSEED 1
#endif

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return v[n / 2];
}

static void die(const char *what, int rc)
{
    fprintf(stderr, "reach bench: %s: %s\n", what, fsh_strerror(rc));
    exit(1);
}

#ifdef HAVE_RDSEED
__attribute__((target("rdseed"))) static void rdseed_rate(void)
{
    enum { W = 100000 };
    double t[5];
    unsigned long long fails = 0, acc = 0;
    for (int r = 0; r < 5; r++) {
        double t0 = now();
        for (int i = 0; i < W; i++) {
            unsigned long long v;
            while (!_rdseed64_step(&v))
                fails++;
            acc ^= v;
        }
        t[r] = now() - t0;
    }
    double m = median(t, 5);
    printf("rdseed: %.0f ns per 64-bit word, %.1f Mbit/s, %.1f us per 256 "
           "bits, %llu not-ready retries in %d words (%llx)\n",
           m / W * 1e9, 64.0 * W / m / 1e6, m / W * 4 * 1e6, fails, 5 * W,
           acc & 1);
}
#endif

/* Median seconds per shuffle of n u32 with rng, reps repetitions. */
static double time_shuffle(fsh_rng *rng, uint32_t *a, size_t n, int reps)
{
    double t[31];
    if (reps > 31)
        reps = 31;
    for (int r = 0; r < reps; r++) {
        int inner = n <= 1000 ? 200 : n <= 10000 ? 20 : 1;
        for (size_t i = 0; i < n; i++)
            a[i] = (uint32_t)i;
        double t0 = now();
        for (int k = 0; k < inner; k++) {
            int rc = fsh_shuffle_u32(rng, a, n);
            if (rc != FSH_OK)
                die("shuffle", rc);
        }
        t[r] = (now() - t0) / inner;
    }
    return median(t, reps);
}

static uint64_t sm_state, sm_calls;
static uint64_t splitmix(void *ctx)
{
    (void)ctx;
    sm_calls++;
    uint64_t z = (sm_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
    size_t big = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 100000000;
#ifdef HAVE_RDSEED
    if (fsh_hw_entropy_available())
        rdseed_rate();
    else
        printf("rdseed: not available\n");
#endif
    uint32_t *a = malloc(1000000 * sizeof *a);
    fsh_rng *rng;
    int rc = fsh_rng_new(&rng);
    if (a == NULL || rc != FSH_OK)
        die("setup", rc);
    static const size_t ns[] = {52, 60, 416, 1000, 5808};
    printf("%8s %12s %12s %8s %10s\n", "n", "key (us)", "mixed (us)", "ratio",
           "hw bits");
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        size_t n = ns[i];
        if ((rc = fsh_rng_set_reach(rng, FSH_REACH_KEY)) != FSH_OK)
            die("reach", rc);
        double tk = time_shuffle(rng, a, n, 11);
        if ((rc = fsh_rng_set_reach(rng, FSH_REACH_DEFAULT)) != FSH_OK)
            die("reach", rc);
        uint64_t h0, h1;
        if ((rc = fsh_rng_entropy_drawn(rng, NULL, &h0)) != FSH_OK)
            die("drawn", rc);
        if ((rc = fsh_shuffle_u32(rng, a, n)) != FSH_OK)
            die("shuffle", rc);
        if ((rc = fsh_rng_entropy_drawn(rng, NULL, &h1)) != FSH_OK)
            die("drawn", rc);
        double tm = time_shuffle(rng, a, n, 11);
        printf("%8zu %12.2f %12.2f %8.1f %10llu\n", n, tk * 1e6, tm * 1e6,
               tm / tk, (unsigned long long)(h1 - h0));
    }
    /* 10^6: the default (above the cap: bounded by the key) against full
       mixing with the cap raised. */
    {
        size_t n = 1000000;
        if ((rc = fsh_rng_set_reach(rng, FSH_REACH_DEFAULT)) != FSH_OK)
            die("reach", rc);
        double tk = time_shuffle(rng, a, n, 5);
        if ((rc = fsh_rng_set_hw_cap(rng, 20000000)) != FSH_OK)
            die("cap", rc);
        uint64_t h0, h1;
        if ((rc = fsh_rng_entropy_drawn(rng, NULL, &h0)) != FSH_OK)
            die("drawn", rc);
        double tm = time_shuffle(rng, a, n, 3);
        if ((rc = fsh_rng_entropy_drawn(rng, NULL, &h1)) != FSH_OK)
            die("drawn", rc);
        printf("%8zu %12.2f %12.2f %8.1f %10llu (cap raised to 2e7)\n", n,
               tk * 1e6, tm * 1e6, tm / tk,
               (unsigned long long)((h1 - h0) / 3));
    }
    fsh_rng_free(rng);
    free(a);

    /* Direct mode: a word callback (SplitMix64) drives every draw. */
    static size_t sizes[] = {1000000, 0};
    sizes[1] = big;
    for (size_t s = 0; s < 2; s++) {
        size_t n = sizes[s];
        uint64_t *v = malloc(n * sizeof *v);
        if (v == NULL)
            die("malloc", FSH_ENOMEM);
        for (int direct = 0; direct < 2; direct++) {
            for (unsigned threads = 1; threads <= 2; threads++) {
                if (direct && threads == 2)
                    continue; /* direct mode is one thread */
                fsh_rng *w;
                if ((rc = fsh_rng_new_seeded(&w, "b", 1)) != FSH_OK ||
                    (rc = fsh_rng_from_words(w, splitmix, NULL)) != FSH_OK ||
                    (rc = fsh_rng_set_direct(w, direct)) != FSH_OK)
                    die("words rng", rc);
                double t[3];
                int reps = n > 10000000 ? 1 : 3;
                uint64_t calls0 = sm_calls;
                for (int r = 0; r < reps; r++) {
                    for (size_t i = 0; i < n; i++)
                        v[i] = i;
                    double t0 = now();
                    if ((rc = fsh_shuffle_threads(w, v, n, 8, threads)) !=
                        FSH_OK)
                        die("shuffle", rc);
                    t[r] = now() - t0;
                }
                printf("words source, n = %zu u64, %s, %u thread(s): %.2f ns "
                       "per element, %.1f source calls per 1000 elements\n",
                       n, direct ? "direct" : "default", threads,
                       median(t, reps) / (double)n * 1e9,
                       (double)(sm_calls - calls0) / reps / (double)n * 1000);
                fsh_rng_free(w);
            }
        }
        free(v);
    }
    return 0;
}
