/* SPDX-License-Identifier: MIT */
/* fsh_rangeperm_next_n(k) in one call against fsh_sample_range for the same
   k of n (docs/PERFORMANCE.md, "Session 19"): the permutation made with
   hint k and with no hint, its making and freeing included, and the sample,
   each checked once to give the sample's values. The rng is either
   OS-keyed (the default generator and reach policy, what the Python
   binding uses) or seeded ChaCha8 in simulation grade, one made for each
   timing outside the time; a timing runs the call 10^6 / k times (at
   least once). Rounds interleave the methods; the median ns per value of
   REPS rounds.
   Build and run: make -C bench rangeperm
   (bin/rangeperm [REPS [K N [os|seed [all|hint|nohint|sample]]]]; with K
   and N one case, e.g. under valgrind --tool=callgrind with REPS 1). */
#define _POSIX_C_SOURCE 200809L
#include "fairshuf.h"

#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HINT, NOHINT, SAMPLE, METHODS, MAXREPS = 31 };
static const char *const names[METHODS] = {"hint", "nohint", "sample"};

static int make_rng(fsh_rng **rng, int os)
{
    if (os)
        return fsh_rng_new(rng);
    int rc = fsh_rng_new_seeded(rng, (const uint8_t *)"bench", 5);
    if (rc == FSH_OK)
        rc = fsh_rng_set_simulation(*rng, 1);
    if (rc == FSH_OK)
        rc = fsh_rng_seed_gen(*rng, FSH_GEN_CHACHA8, (const uint8_t *)"bench",
                              5);
    return rc;
}

static int run(int method, fsh_rng *rng, uint64_t *out, size_t k, uint64_t n)
{
    if (method == SAMPLE)
        return fsh_sample_range(rng, out, k, 0, n - 1);
    fsh_rangeperm *p;
    int rc = fsh_rangeperm_new(&p, 0, n - 1, method == HINT ? k : 0);
    if (rc == FSH_OK)
        rc = fsh_rangeperm_next_n(rng, p, out, k);
    fsh_rangeperm_free(p);
    return rc;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 7;
    if (reps < 1 || reps > MAXREPS)
        reps = 7;
    static const struct {
        size_t k;
        uint64_t n;
    } all[] = {{1000000, 1000000000},
               {1000000, 2000000},
               {10000000, 20000000},
               {1000, 10000}};
    size_t ncases = sizeof all / sizeof all[0], k1 = 0;
    uint64_t n1 = 0;
    if (argc > 3) {
        k1 = (size_t)strtod(argv[2], NULL);
        n1 = (uint64_t)strtod(argv[3], NULL);
        if (k1 < 1 || n1 < k1)
            return 1;
        ncases = 1;
    }
    int rng_first = 0, rng_end = 2; /* 0: OS-keyed, 1: seeded */
    if (argc > 4) {
        rng_first = strcmp(argv[4], "os") == 0 ? 0 : 1;
        rng_end = rng_first + 1;
    }
    int only = -1;
    for (int m = 0; argc > 5 && m < METHODS; m++)
        if (strcmp(argv[5], names[m]) == 0)
            only = m;
    size_t maxk = 0;
    for (size_t c = 0; c < ncases; c++) {
        size_t k = argc > 3 ? k1 : all[c].k;
        maxk = k > maxk ? k : maxk;
    }
    uint64_t *ref = malloc(maxk * sizeof *ref),
             *out = malloc(maxk * sizeof *out);
    if (ref == NULL || out == NULL)
        return 1;
    printf("| k | n | rng | next_n, hint k | next_n, no hint | sample_range "
           "| hint / sample | no hint / sample |\n"
           "|---:|---:|---|---:|---:|---:|---:|---:|\n");
    for (size_t c = 0; c < ncases; c++) {
        size_t k = argc > 3 ? k1 : all[c].k;
        uint64_t n = argc > 3 ? n1 : all[c].n;
        /* Runs of small k are repeated within one timing, to about 10^6
           values. */
        size_t iters = k >= 1000000 ? 1 : 1000000 / k;
        for (int os = rng_first; os < rng_end; os++) {
            double t[METHODS][MAXREPS];
            fsh_rng *rng;
            /* Seeded: each method's values checked against the sample's
               once, outside the time (an OS-keyed rng has no stream to
               compare). */
            for (int m = 0; os == 1 && m < METHODS; m++) {
                if (only >= 0 && m != only)
                    continue;
                if (make_rng(&rng, 0) != FSH_OK ||
                    run(SAMPLE, rng, ref, k, n) != FSH_OK)
                    return 2;
                fsh_rng_free(rng);
                if (make_rng(&rng, 0) != FSH_OK ||
                    run(m, rng, out, k, n) != FSH_OK)
                    return 2;
                fsh_rng_free(rng);
                if (memcmp(out, ref, k * sizeof *out) != 0) {
                    fprintf(stderr, "%s differs at k=%zu n=%llu\n", names[m],
                            k, (unsigned long long)n);
                    return 3;
                }
            }
            for (int r = 0; r < reps; r++)
                for (int m = 0; m < METHODS; m++) {
                    t[m][r] = 0;
                    if (only >= 0 && m != only)
                        continue;
                    if (make_rng(&rng, os == 0) != FSH_OK)
                        return 2;
                    double t0 = bench_ns(CLOCK_MONOTONIC);
                    int rc = FSH_OK;
                    for (size_t it = 0; it < iters && rc == FSH_OK; it++)
                        rc = run(m, rng, out, k, n);
                    t[m][r] = (bench_ns(CLOCK_MONOTONIC) - t0) /
                              ((double)k * (double)iters);
                    fsh_rng_free(rng);
                    if (rc != FSH_OK)
                        return 2;
                }
            double med[METHODS];
            for (int m = 0; m < METHODS; m++)
                med[m] = bench_median(t[m], reps);
            printf("| %zu | %llu | %s | %.1f | %.1f | %.1f | %.2f | %.2f |\n",
                   k, (unsigned long long)n, os == 0 ? "os" : "seed",
                   med[HINT], med[NOHINT], med[SAMPLE],
                   med[SAMPLE] > 0 ? med[HINT] / med[SAMPLE] : 0,
                   med[SAMPLE] > 0 ? med[NOHINT] / med[SAMPLE] : 0);
            fflush(stdout);
        }
    }
    free(ref);
    free(out);
    return 0;
}
