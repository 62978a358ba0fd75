/* SPDX-License-Identifier: MIT */
/*
 * Shuffles of records (elements of 12 to 1000 bytes, as C structs), one
 * thread: fairshuf against the textbook Fisher-Yates a C programmer writes
 * for them, side by side (docs/PERFORMANCE.md, issue 13, sessions 11 and
 * 15).
 *
 *   bench/bin/records [REPS]     (make -C bench records)
 *
 * For each record size and array size (1 MiB: in cache; 20 MiB; 100 MiB),
 * repetitions interleave the methods; medians in ns per element:
 * - fairshuf: fsh_shuffle with an OS-keyed rng (the default: ChaCha8,
 *   the newest stream version), bounded by its key (FSH_REACH_KEY: at
 *   1 MiB of 256- and 1000-byte records, 4096 and 1048 of them, the
 *   default reach policy would mix hardware entropy into every shuffle,
 *   and the row would measure RDSEED; no other row changes);
 * - fairshuf_v1: the same rng pinned to stream version 1 (Fisher-Yates up
 *   to 24 MiB), as a seeded rng runs by default;
 * - textbook: backward Fisher-Yates, Lemire's bounded integers from
 *   lehmer64 (inline), records swapped through a buffer with memcpy of
 *   the run-time size, the way a generic shuffle(void *, n, size) is
 *   written;
 * - textbook_const: the same loop with the size a compile-time constant
 *   (what one writes for a known struct), the strongest simple peer.
 */
#define _GNU_SOURCE /* clock_gettime, CLOCK_THREAD_CPUTIME_ID */

#include <fairshuf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timing.h"

#define MAXREPS 31

/* lehmer64 and Lemire's nearly divisionless bounded integer. */
static __uint128_t lehmer_state = 0x853c49e6748fea9bULL;

static inline __attribute__((always_inline)) uint64_t lehmer64(void)
{
    lehmer_state *= 0xda942042e4dd58b5ULL;
    return (uint64_t)(lehmer_state >> 64);
}

static inline __attribute__((always_inline)) uint64_t bounded(uint64_t range)
{
    __uint128_t m = (__uint128_t)lehmer64() * range;
    uint64_t l = (uint64_t)m;
    if (l < range) {
        uint64_t t = -range % range;
        while (l < t) {
            m = (__uint128_t)lehmer64() * range;
            l = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

/* The generic textbook loop: memcpy of the run-time size. */
static __attribute__((noinline)) void textbook(unsigned char *a, size_t n, size_t size)
{
    unsigned char t[1024];
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)bounded((uint64_t)i + 1);
        unsigned char *p = a + i * size, *q = a + j * size;
        memcpy(t, p, size);
        memcpy(p, q, size);
        memcpy(q, t, size);
    }
}

/* Each loop its own function (noinline): inlined into main, gcc took
   their code for cold and made the constant memcpys rep movs string moves
   (4-5x slower at 48 and 64 bytes). */
#define TEXTBOOK_CONST(S)                                                      \
    static __attribute__((noinline)) void textbook_##S(unsigned char *a,      \
                                                       size_t n)              \
    {                                                                          \
        unsigned char t[S];                                                    \
        for (size_t i = n - 1; i > 0; i--) {                                   \
            size_t j = (size_t)bounded((uint64_t)i + 1);                       \
            unsigned char *p = a + i * S, *q = a + j * S;                      \
            memcpy(t, p, S);                                                   \
            memcpy(p, q, S);                                                   \
            memcpy(q, t, S);                                                   \
        }                                                                      \
    }
TEXTBOOK_CONST(12)
TEXTBOOK_CONST(24)
TEXTBOOK_CONST(32)
TEXTBOOK_CONST(48)
TEXTBOOK_CONST(64)
TEXTBOOK_CONST(100)
TEXTBOOK_CONST(128)
TEXTBOOK_CONST(256)
TEXTBOOK_CONST(1000)

static void textbook_const(unsigned char *a, size_t n, size_t size)
{
    switch (size) {
    case 12:
        textbook_12(a, n);
        break;
    case 24:
        textbook_24(a, n);
        break;
    case 32:
        textbook_32(a, n);
        break;
    case 48:
        textbook_48(a, n);
        break;
    case 64:
        textbook_64(a, n);
        break;
    case 100:
        textbook_100(a, n);
        break;
    case 128:
        textbook_128(a, n);
        break;
    case 256:
        textbook_256(a, n);
        break;
    default:
        textbook_1000(a, n);
        break;
    }
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = {12, 24, 32, 48, 64, 100, 128, 256, 1000};
    static const double mibs[] = {1, 20, 100};
    int reps = argc > 1 ? atoi(argv[1]) : 5;
    if (reps < 1 || reps > MAXREPS)
        reps = 5;
    fsh_rng *rng = NULL, *r1 = NULL;
    if (fsh_rng_new(&rng) != FSH_OK || fsh_rng_new(&r1) != FSH_OK ||
        fsh_rng_set_stream_version(r1, FSH_STREAM_V1) != FSH_OK ||
        fsh_rng_set_reach(rng, FSH_REACH_KEY) != FSH_OK ||
        fsh_rng_set_reach(r1, FSH_REACH_KEY) != FSH_OK) {
        fprintf(stderr, "records: no rng\n");
        return 1;
    }
    printf("# Records: ns per element, medians of %d interleaved "
           "repetitions, one thread\n\n",
           reps);
    printf("| record | array | n | fairshuf | fairshuf_v1 | textbook | "
           "textbook_const | textbook / fairshuf | textbook_const / "
           "fairshuf |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (size_t m = 0; m < sizeof mibs / sizeof mibs[0]; m++) {
            size_t size = sizes[s];
            size_t n = (size_t)(mibs[m] * 1048576) / size;
            unsigned char *a = malloc(n * size);
            if (a == NULL) {
                fprintf(stderr, "records: out of memory\n");
                return 1;
            }
            memset(a, 7, n * size);
            double t[4][MAXREPS];
            for (int r = 0; r < reps; r++) {
                for (int k = 0; k < 4; k++) {
                    int meth = (k + r) % 4; /* rotate the order */
                    double t0 = bench_ns(CLOCK_THREAD_CPUTIME_ID);
                    if (meth == 0 && fsh_shuffle(rng, a, n, size) != FSH_OK)
                        return 1;
                    if (meth == 1 && fsh_shuffle(r1, a, n, size) != FSH_OK)
                        return 1;
                    if (meth == 2)
                        textbook(a, n, size);
                    if (meth == 3)
                        textbook_const(a, n, size);
                    t[meth][r] =
                        (bench_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / (double)n;
                }
            }
            double f = bench_median(t[0], reps), f1 = bench_median(t[1], reps),
                   tb = bench_median(t[2], reps), tc = bench_median(t[3], reps);
            printf("| %zu | %g MiB | %zu | %.2f | %.2f | %.2f | %.2f | %.2f "
                   "| %.2f |\n",
                   size, mibs[m], n, f, f1, tb, tc, tb / f, tc / f);
            fflush(stdout);
            free(a);
        }
    }
    fsh_rng_free(rng);
    fsh_rng_free(r1);
    return 0;
}
