/* SPDX-License-Identifier: MIT */
/*
 * Issue 13: fsh_shuffle_threads on n 64-bit elements (1e8 by default) with
 * the scatter shuffle's phase split, and memcpy of the array beside it.
 * Built by bench/large.mk against a library compiled with
 * -DFSH_SCATTER_TIMING (the phases are not timed in a normal build).
 *
 *   bench/bin/large N GEN REPS THREADS MEMCPY [THP]
 *   GEN: xoshiro (fsh_rng_key_xoshiro(0x5eed5eed2024), as bench.c) or
 *        chacha20 / chacha8 (fsh_rng_seed_gen with "fairshuf-bench-v1")
 *   THREADS: comma-separated thread counts, e.g. 1,2; an entry TvV runs
 *        T threads with the rng pinned to stream version V (1v2,1v3:
 *        versions 2 and 3 side by side, interleaved, one thread); an
 *        entry TpL runs T threads with the rough pass's prefetch forced
 *        into L1 (L = 1) or L2 (L = 2) (1p1,1p2: the two hints side by
 *        side; their outputs must be the same)
 *   bench/bin/large floor     (the rough pass's step alone, see floor_step)
 *   bench/bin/large patterns [N [REPS]]  (the access patterns of the 1e8
 *                             shuffle beside memcpy, see patterns)
 *   THP: 1 to put both arrays on transparent huge pages (madvise), 0 (the
 *        default) for malloc's pages as the earlier measurements
 *   FSH_BENCH_STREAM=1 or 2 in the environment: the rng's stream version
 *
 * Repetition r runs every thread count and the memcpy once, in an order
 * rotated by r. One-thread runs and memcpy are timed with the thread's CPU
 * time, threaded runs with the wall clock; medians of the repetitions are
 * printed, in ns per element, with an FNV-1a hash of the output (the same
 * for every thread count and repetition of one stream version, or the run
 * fails). The ratio to
 * memcpy is given twice: median over median, and the median of each
 * repetition's shuffle over the same repetition's memcpy.
 */
#include <fairshuf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timing.h"
#if defined(__linux__)
#include <sys/mman.h>
#endif

extern double fsh_scatter_phase_ns[10];
extern int fsh_scatter_phase_clock;
extern void fsh_scatter_prefetch_force(int hint);
extern int fsh_scatter_prefetch_l2(void);

#define MAXREPS 64
#define MAXT 8

static double now(int thread_clock)
{
    return bench_ns(thread_clock ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC);
}

/* An array of bytes bytes: malloc's, as before THP was an option; with
   thp, 2 MiB aligned and on transparent huge pages where the system gives
   them on request (madvise mode), asked before the first touch. The
   shuffle's array and memcpy's target alike. */
static void *big_alloc(size_t bytes, int thp)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (thp) {
        const size_t H = (size_t)2 << 20;
        void *p = aligned_alloc(H, (bytes + H - 1) / H * H);
        if (p != NULL)
            (void)madvise(p, (bytes + H - 1) / H * H, MADV_HUGEPAGE);
        return p;
    }
#else
    (void)thp;
#endif
    return malloc(bytes);
}

static int make_rng(fsh_rng **rng, const char *gen, unsigned version)
{
    if (fsh_rng_new(rng) != FSH_OK)
        return 1;
    if (strcmp(gen, "xoshiro") == 0) {
        if (fsh_rng_key_xoshiro(*rng, 0x5eed5eed2024) != FSH_OK)
            return 1;
    } else {
        fsh_gen g = strcmp(gen, "chacha8") == 0 ? FSH_GEN_CHACHA8
                                                 : FSH_GEN_CHACHA20;
        if (fsh_rng_seed_gen(*rng, g, "fairshuf-bench-v1", 17) != FSH_OK)
            return 1;
    }
    /* FSH_BENCH_STREAM=1 or 2 pins the stream version (default: a seeded
       rng's, version 1; the two agree at 1e8). */
    const char *v = getenv("FSH_BENCH_STREAM");
    if (v != NULL && *v != '\0' &&
        fsh_rng_set_stream_version(*rng, (unsigned)atoi(v)) != FSH_OK)
        return 1;
    if (version != 0 && fsh_rng_set_stream_version(*rng, version) != FSH_OK)
        return 1;
    return fsh_rng_set_simulation(*rng, 1) != FSH_OK;
}

/*
 * GEN "floor": the rough pass's step without the shuffle around it, as a
 * floor for its cost on this core. 512 streams, each step takes a
 * precomputed 9-bit label j, bumps stream j's cursor, prefetches 256 bytes
 * ahead in it and trades the held element for the one at the cursor (the
 * rough pass's step, minus label extraction, keystream and the run
 * checks). Streams of 2^e elements wrap around, so the array is
 * 512 * 2^e * 8 bytes: from inside L2 to DRAM. Fastest of reps, ns/step.
 */
static double floor_step(unsigned e, int reps)
{
    const size_t len = (size_t)1 << e, steps = 100000000;
    uint64_t *a = malloc(512 * len * sizeof *a);
    static uint16_t lab[1 << 16];
    uint32_t cur[512] = {0};
    if (a == NULL)
        return 0;
    for (size_t i = 0; i < 512 * len; i++)
        a[i] = i;
    uint64_t s = 88172645463325252u, x = 0, best = UINT64_MAX;
    for (size_t i = 0; i < sizeof lab / sizeof *lab; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        lab[i] = (uint16_t)(s >> 55);
    }
    for (int r = 0; r < reps; r++) {
        double t0 = now(1);
        for (size_t t = 0; t < steps; t++) {
            unsigned j = lab[t & 0xffff];
            uint32_t c = cur[j];
            cur[j] = c + 1;
            uint64_t *q = a + ((size_t)j << e) + (c & (len - 1)), y;
            __builtin_prefetch((const char *)q + 256, 1, 3);
            y = *q;
            *q = x;
            x = y;
        }
        double t = now(1) - t0;
        if (t < (double)best)
            best = (uint64_t)t;
    }
    __asm__ volatile("" : : "r"(x));
    free(a);
    return (double)best / (double)steps;
}

/*
 * GEN "patterns": the memory access patterns the 1e8 shuffle is made of,
 * on an array of N 64-bit elements (pre-faulted), ns per element, median
 * of reps, CPU time: memcpy into a second array; one sequential read; one
 * sequential read-modify-write (a[i] ^= c); and the rough pass's skeleton
 * with K streams: the array cut into K parts, each step draws a label j
 * (b = log2 K bits of an xorshift word), bumps part j's cursor held in an
 * array, prefetches 256 bytes ahead in part j and trades the held element
 * for the one at the cursor, for 0.9 N steps. The skeleton is what any
 * in-place K-way scatter pass must do per element; with K = 512 it is the
 * rough pass without its keystream and run checks. The skeleton with 128
 * and 512 streams runs twice: prefetching into L1 (PREFETCHT0, as the
 * rough pass on AMD CPUs) and into L2 (PREFETCHT1, on Intel ones).
 */
#define skeleton(a, n, b) skeleton_pf(a, n, b, 0)
static double skeleton_pf(uint64_t *a, size_t n, unsigned b, int l2)
{
    const size_t K = (size_t)1 << b, part = n / K;
    uint64_t **cur = malloc(K * sizeof *cur);
    if (cur == NULL)
        return 0;
    for (size_t j = 0; j < K; j++)
        cur[j] = a + j * part;
    uint64_t s = 88172645463325252u, x = 0;
    const unsigned per = 64 / b;
    const size_t words = n / 10 * 9 / per;
    double t0 = now(1);
    for (size_t t = 0; t < words; t++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        uint64_t w = s;
        for (unsigned u = 0; u < per; u++) {
            size_t j = (size_t)(w >> (64 - b));
            w <<= b;
            uint64_t *q = cur[j], y;
            cur[j] = q + 1;
            if (l2)
                __builtin_prefetch((const char *)q + 256, 1, 2);
            else
                if (l2)
                __builtin_prefetch((const char *)q + 256, 1, 2);
            else
                __builtin_prefetch((const char *)q + 256, 1, 3);
            y = *q;
            *q = x;
            x = y;
        }
    }
    double t = now(1) - t0;
    __asm__ volatile("" : : "r"(x));
    free(cur);
    return t / (double)(words * per);
}

static int patterns(size_t n, int reps)
{
    uint64_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    if (a == NULL || b == NULL || reps < 1 || reps > MAXREPS) {
        fprintf(stderr, "large: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        a[i] = i, b[i] = 0;
    static const char *names[] = {"memcpy", "sequential read",
                                  "sequential read-modify-write",
                                  "skeleton, 16 streams", "skeleton, 64 streams",
                                  "skeleton, 512 streams",
                                  "skeleton, 128 streams",
                                  "skeleton, 128 streams, into L2",
                                  "skeleton, 512 streams, into L2"};
    static double t[9][MAXREPS];
    uint64_t acc = 0;
    for (int r = 0; r < reps; r++) {
        double t0 = now(1);
        memcpy(b, a, n * sizeof *a);
        t[0][r] = (now(1) - t0) / (double)n;
        /* Four sums, so the adds do not set the pace in cache. */
        uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        t0 = now(1);
        for (size_t i = 0; i + 4 <= n; i += 4)
            s0 += a[i], s1 += a[i + 1], s2 += a[i + 2], s3 += a[i + 3];
        t[1][r] = (now(1) - t0) / (double)n;
        acc += s0 + s1 + s2 + s3;
        __asm__ volatile("" : "+r"(acc));
        t0 = now(1);
        for (size_t i = 0; i < n; i++)
            a[i] ^= 0x55;
        t[2][r] = (now(1) - t0) / (double)n;
        t[3][r] = skeleton(a, n, 4);
        t[4][r] = skeleton(a, n, 6);
        t[5][r] = skeleton(a, n, 9);
        t[6][r] = skeleton(a, n, 7);
        t[7][r] = skeleton_pf(a, n, 7, 1);
        t[8][r] = skeleton_pf(a, n, 9, 1);
    }
    printf("n = %zu, %d repetitions (ns per element, median)\n", n, reps);
    double mc = bench_median(t[0], reps);
    for (int k = 0; k < 9; k++) {
        double m = k == 0 ? mc : bench_median(t[k], reps);
        printf("  %-30s %.3f  (%.2fx memcpy)\n", names[k], m, m / mc);
    }
    __asm__ volatile("" : : "r"(acc));
    free(a);
    free(b);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "patterns") == 0)
        return patterns(argc > 2 ? (size_t)strtod(argv[2], NULL) : 100000000,
                        argc > 3 ? atoi(argv[3]) : 5);
    if (argc > 1 && strcmp(argv[1], "floor") == 0) {
        for (unsigned e = 7; e <= 17; e += 2)
            printf("floor: 512 streams, %zu KiB: %.3f ns/step\n",
                   (size_t)512 << e >> 7, floor_step(e, 3));
        return 0;
    }
    size_t n = argc > 1 ? (size_t)strtod(argv[1], NULL) : 100000000;
    const char *gen = argc > 2 ? argv[2] : "xoshiro";
    int reps = argc > 3 ? atoi(argv[3]) : 5;
    const char *targ = argc > 4 ? argv[4] : "1,2";
    int with_memcpy = argc > 5 ? atoi(argv[5]) : 1;
    int thp = argc > 6 ? atoi(argv[6]) : 0;
    static const char *names[] = {"rough pass", "fix-up", "buckets",
                                  "fix: compact", "fix: labels",
                                  "fix: moves", "fix: place", "",
                                  "leaves: warm", "leaves: shuffle"};
    int tl[MAXT], nt = 0;
    unsigned vl[MAXT];
    int pl[MAXT];
    for (const char *p = targ; *p != '\0' && nt < MAXT;) {
        vl[nt] = 0;
        pl[nt] = 0;
        tl[nt++] = atoi(p);
        while (*p != '\0' && *p != ',') {
            if (*p == 'v')
                vl[nt - 1] = (unsigned)atoi(p + 1);
            if (*p == 'p')
                pl[nt - 1] = atoi(p + 1);
            p++;
        }
        if (*p == ',')
            p++;
    }
    if (n < 2 || reps < 1 || reps > MAXREPS || nt == 0) {
        fprintf(stderr, "usage: large N GEN REPS THREADS MEMCPY [THP]\n");
        return 1;
    }
    uint64_t *a = big_alloc(n * sizeof *a, thp);
    uint64_t *b = with_memcpy ? big_alloc(n * sizeof *b, thp) : NULL;
    if (a == NULL || (with_memcpy && b == NULL)) {
        fprintf(stderr, "large: out of memory\n");
        return 1;
    }
    if (b != NULL)
        memset(b, 1, n * sizeof *b);
    static double t_run[MAXT][MAXREPS], t_ph[MAXT][10][MAXREPS],
        t_cpy[MAXREPS];
    uint64_t hash[MAXT] = {0};
    for (int r = 0; r < reps; r++) {
        for (int q = 0; q <= nt; q++) {
            int w = (q + r) % (nt + 1);
            if (w == nt) {
                if (b == NULL)
                    continue;
                double t0 = now(1);
                memcpy(b, a, n * sizeof *a);
                t_cpy[r] = (now(1) - t0) / (double)n;
                __asm__ volatile("" : : "r"(b) : "memory");
                continue;
            }
            fsh_rng *rng;
            if (make_rng(&rng, gen, vl[w])) {
                fprintf(stderr, "large: rng set-up failed\n");
                return 1;
            }
            for (size_t i = 0; i < n; i++)
                a[i] = i;
            fsh_scatter_prefetch_force(pl[w]);
            memset(fsh_scatter_phase_ns, 0, sizeof fsh_scatter_phase_ns);
            fsh_scatter_phase_clock =
                tl[w] == 1 ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
            double t0 = now(tl[w] == 1);
            int rc = fsh_shuffle_threads(rng, a, n, sizeof *a,
                                         (unsigned)tl[w]);
            t_run[w][r] = (now(tl[w] == 1) - t0) / (double)n;
            fsh_rng_free(rng);
            if (rc != FSH_OK) {
                fprintf(stderr, "large: %s\n", fsh_strerror(rc));
                return 1;
            }
            for (int i = 0; i < 10; i++)
                t_ph[w][i][r] = fsh_scatter_phase_ns[i] / (double)n;
            uint64_t h = 1469598103934665603u;
            for (size_t i = 0; i < n; i++) {
                h ^= a[i];
                h *= 1099511628211u;
            }
            if (r == 0)
                hash[w] = h;
            else if (h != hash[w]) {
                fprintf(stderr, "large: outputs differ between runs\n");
                return 1;
            }
        }
    }
    /* Entries of one stream version give one output. */
    for (int w = 0; w < nt; w++)
        for (int e = 0; e < w; e++)
            if (vl[e] == vl[w] && hash[e] != hash[w]) {
                fprintf(stderr, "large: outputs differ between runs\n");
                return 1;
            }
    double mc = 0, cv[MAXREPS];
    if (b != NULL) {
        memcpy(cv, t_cpy, (size_t)reps * sizeof *cv); /* median sorts */
        mc = bench_median(cv, reps);
    }
    printf("n = %zu, %s, %d repetitions, output hash %016llx\n", n, gen, reps,
           (unsigned long long)hash[0]);
    for (int w = 0; w < nt; w++) {
        double v[MAXREPS];
        memcpy(v, t_run[w], (size_t)reps * sizeof *v);
        double m = bench_median(v, reps);
        printf("  %d thread(s)", tl[w]);
        if (vl[w] != 0)
            printf(", stream version %u (hash %016llx)", vl[w],
                   (unsigned long long)hash[w]);
        if (pl[w] != 0)
            printf(", rough pass prefetch into L%d", pl[w]);
        else {
            fsh_scatter_prefetch_force(0);
            printf(", rough pass prefetch into L%d (this CPU's)",
                   fsh_scatter_prefetch_l2() ? 2 : 1);
        }
        printf(": %.3f ns/el (min %.3f, max %.3f)", m, v[0], v[reps - 1]);
        if (mc > 0) {
            /* Also the median of each repetition's own ratio: the shuffle
               and the memcpy of one repetition run seconds apart, so a
               burst from the host's other tenants moves both. */
            double q[MAXREPS];
            for (int r = 0; r < reps; r++)
                q[r] = t_run[w][r] / t_cpy[r];
            printf(", %.2fx memcpy (per repetition %.2fx)", m / mc,
                   bench_median(q, reps));
        }
        printf("\n   ");
        for (int i = 0; i < 10; i++) {
            if (i == 7)
                continue; /* the whole: the line above */
            memcpy(v, t_ph[w][i], (size_t)reps * sizeof *v);
            printf(" %s %.3f%s", names[i], bench_median(v, reps),
                   i == 9 ? "" : ",");
        }
        printf("\n");
    }
    if (mc > 0)
        printf("  memcpy: %.3f ns/el\n", mc);
    return 0;
}
