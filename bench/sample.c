/* SPDX-License-Identifier: MIT */
/* Ordered samples, three ways over the same draws (docs/PERFORMANCE.md,
   "Session 17"): k calls of fsh_rangeperm_next, fsh_rangeperm_next_n 512
   values a call (what fairshuf -i LO-HI -n K does), and fsh_sample_range
   in one call; each checked to give the values of the first. One
   simulation-grade seeded ChaCha8 rng re-seeded per run, the rangeperm's
   making and freeing included. Rounds interleave the three methods; the
   median ns per value of REPS rounds (default 7; bench/timing.h).
   Build and run: make -C bench sample (bin/sample [REPS]). */
#define _POSIX_C_SOURCE 200809L
#include "fairshuf.h"

#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ONE, BATCH, SAMPLE, METHODS, MAXREPS = 31, CHUNK = 512 };
static const char *const names[METHODS] = {"next", "next_n(512)",
                                           "sample_range"};

static int run(int method, fsh_rng *rng, uint64_t *out, size_t k, uint64_t n)
{
    if (fsh_rng_seed_gen(rng, FSH_GEN_CHACHA8, (const uint8_t *)"bench", 5) !=
            FSH_OK ||
        fsh_rng_set_simulation(rng, 1) != FSH_OK)
        return -1;
    if (method == SAMPLE)
        return fsh_sample_range(rng, out, k, 0, n - 1);
    fsh_rangeperm *p;
    int rc = fsh_rangeperm_new(&p, 0, n - 1, k);
    for (size_t i = 0; i < k && rc == FSH_OK;) {
        if (method == ONE) {
            rc = fsh_rangeperm_next(rng, p, &out[i]);
            i++;
        } else {
            size_t m = k - i < CHUNK ? k - i : CHUNK;
            rc = fsh_rangeperm_next_n(rng, p, out + i, m);
            i += m;
        }
    }
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
    } cs[] = {{1000000, 1000000000},   {10000000, 20000000},
              {10000000, 10000000000}, {100000, 100000000},
              {10000, 100000},         {1000000, UINT64_MAX}};
    fsh_rng *rng;
    if (fsh_rng_new_seeded(&rng, (const uint8_t *)"bench", 5) != FSH_OK)
        return 1;
    uint64_t *ref = malloc(10000000 * sizeof *ref),
             *out = malloc(10000000 * sizeof *out);
    if (ref == NULL || out == NULL)
        return 1;
    printf("| k | n | next ns/value | next_n(512) | sample_range | next / "
           "next_n |\n|---:|---:|---:|---:|---:|---:|\n");
    for (size_t c = 0; c < sizeof cs / sizeof cs[0]; c++) {
        size_t k = cs[c].k;
        uint64_t n = cs[c].n;
        double t[METHODS][MAXREPS];
        if (run(ONE, rng, ref, k, n) != FSH_OK)
            return 2;
        for (int r = 0; r < reps; r++)
            for (int m = 0; m < METHODS; m++) {
                double t0 = bench_ns(CLOCK_MONOTONIC);
                if (run(m, rng, out, k, n) != FSH_OK)
                    return 2;
                t[m][r] = (bench_ns(CLOCK_MONOTONIC) - t0) / (double)k;
                if (memcmp(out, ref, k * sizeof *out) != 0) {
                    fprintf(stderr, "%s differs at k=%zu n=%llu\n", names[m],
                            k, (unsigned long long)n);
                    return 3;
                }
            }
        double med[METHODS];
        for (int m = 0; m < METHODS; m++)
            med[m] = bench_median(t[m], reps);
        printf("| %zu | %llu | %.1f | %.1f | %.1f | %.2fx |\n", k,
               (unsigned long long)n, med[ONE], med[BATCH], med[SAMPLE],
               med[ONE] / med[BATCH]);
    }
    free(ref);
    free(out);
    fsh_rng_free(rng);
    return 0;
}
