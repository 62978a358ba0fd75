/* SPDX-License-Identifier: MIT */
/*
 * What extra work costs inside a Fisher-Yates swap loop (make -C bench
 * overlap; docs/PERFORMANCE.md, issue 13, session 10).
 *
 * The loop: the n - 1 swaps of a backward Fisher-Yates on n u64 (indices
 * drawn before timing, as bench's "swaps" floor), and every EVERY swaps a
 * block of extra work whose results the loop never needs, so an
 * out-of-order core could run it beside the swaps for free if some unit
 * sat idle:
 *   none        the swaps alone;
 *   int ops     96 general-register adds and xors in 4 chains;
 *   ymm adds    96 256-bit adds in 8 chains;
 *   zmm adds    96 512-bit adds in 8 chains (AVX-512F);
 *   zmm rotates 96 512-bit rotates in 8 chains (AVX-512F);
 *   double rnd  one ChaCha double round on a 16-block state in 16 zmm
 *               registers (96 operations; AVX-512F);
 *   quarter dr  a quarter of that double round every EVERY / 4 swaps.
 * Each row is the median over interleaved repetitions (all rows of a
 * repetition, then the next), ns per swap, with the difference to "none".
 *
 * Usage: overlap [N [EVERY [REPS]]]   defaults 195312 (a 1e8 leaf), 72, 15
 */
#define _GNU_SOURCE
#include "rng/chacha_simd.h" /* QR_AVX512, DOUBLE_ROUND: the library's own */

#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

__extension__ typedef unsigned __int128 u128;

#define AVX512 __attribute__((target("avx512f")))
#define ROUNDS 5 /* timings per cell per repetition; the best is kept */

enum { NONE, INT_OPS, YMM_ADDS, ZMM_ADDS, ZMM_ROL, DOUBLE, QUARTER, MODES };
static const char *const names[MODES] = {"none",     "int ops",
                                         "ymm adds", "zmm adds",
                                         "zmm rotates", "double rnd",
                                         "quarter dr"};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Keep the state live in registers (an asm takes at most 30 operands). */
#define KEEP()                                                                 \
    do {                                                                       \
        __asm__ volatile("" : "+v"(s0), "+v"(s1), "+v"(s2), "+v"(s3),          \
                         "+v"(s4), "+v"(s5), "+v"(s6), "+v"(s7));              \
        __asm__ volatile("" : "+v"(s8), "+v"(s9), "+v"(s10), "+v"(s11),        \
                         "+v"(s12), "+v"(s13), "+v"(s14), "+v"(s15));          \
    } while (0)

/* The swaps with extra work of kind mode every `every` swaps. */
#define SWAP_LOOP(...)                                                         \
    for (size_t i = n - 1; i > 0; i--) {                                       \
        size_t j = idx[i];                                                     \
        uint64_t x = a[i], y = a[j];                                           \
        a[i] = y;                                                              \
        a[j] = x;                                                              \
        if (++c == every) {                                                    \
            c = 0;                                                             \
            __VA_ARGS__;                                                       \
        }                                                                      \
    }

static uint64_t run_plain(uint64_t *a, const uint32_t *idx, size_t n,
                          int mode, unsigned every)
{
    unsigned c = 0;
    uint64_t g0 = 1, g1 = 3, g2 = 5, g3 = 7;
    if (mode == NONE) {
        SWAP_LOOP((void)0)
    } else {
        SWAP_LOOP(for (int u = 0; u < 12; u++) {
            g0 += g1, g1 ^= g0, g2 += g3, g3 ^= g2;
            g0 += g2, g1 ^= g3, g2 += g1, g3 ^= g0;
            __asm__ volatile("" : "+r"(g0), "+r"(g1), "+r"(g2), "+r"(g3));
        })
    }
    return g0 + g1 + g2 + g3;
}

AVX512 static uint64_t run_vec(uint64_t *a, const uint32_t *idx, size_t n,
                               int mode, unsigned every)
{
    __m512i s0 = _mm512_set1_epi32(1), s1 = s0, s2 = s0, s3 = s0, s4 = s0,
            s5 = s0, s6 = s0, s7 = s0, s8 = s0, s9 = s0, s10 = s0, s11 = s0,
            s12 = s0, s13 = s0, s14 = s0, s15 = s0;
    unsigned c = 0, q = 0;
    switch (mode) {
    case YMM_ADDS: {
        __m256i t0 = _mm256_set1_epi32(1), t1 = t0, t2 = t0, t3 = t0,
                t4 = t0, t5 = t0, t6 = t0, t7 = t0;
        SWAP_LOOP(for (int u = 0; u < 12; u++) {
            t0 = _mm256_add_epi32(t0, t4), t1 = _mm256_add_epi32(t1, t5);
            t2 = _mm256_add_epi32(t2, t6), t3 = _mm256_add_epi32(t3, t7);
            t4 = _mm256_add_epi32(t4, t0), t5 = _mm256_add_epi32(t5, t1);
            t6 = _mm256_add_epi32(t6, t2), t7 = _mm256_add_epi32(t7, t3);
            __asm__ volatile("" : "+v"(t0), "+v"(t1), "+v"(t2), "+v"(t3),
                             "+v"(t4), "+v"(t5), "+v"(t6), "+v"(t7));
        })
        s0 = _mm512_castsi256_si512(_mm256_add_epi32(t0, t7));
        break;
    }
    case ZMM_ADDS:
        SWAP_LOOP(for (int u = 0; u < 12; u++) {
            s0 = _mm512_add_epi32(s0, s4), s1 = _mm512_add_epi32(s1, s5);
            s2 = _mm512_add_epi32(s2, s6), s3 = _mm512_add_epi32(s3, s7);
            s8 = _mm512_add_epi32(s8, s12), s9 = _mm512_add_epi32(s9, s13);
            s10 = _mm512_add_epi32(s10, s14);
            s11 = _mm512_add_epi32(s11, s15);
            KEEP();
        })
        break;
    case ZMM_ROL:
        SWAP_LOOP(for (int u = 0; u < 12; u++) {
            s0 = _mm512_rol_epi32(s0, 7), s1 = _mm512_rol_epi32(s1, 7);
            s2 = _mm512_rol_epi32(s2, 7), s3 = _mm512_rol_epi32(s3, 7);
            s8 = _mm512_rol_epi32(s8, 7), s9 = _mm512_rol_epi32(s9, 7);
            s10 = _mm512_rol_epi32(s10, 7), s11 = _mm512_rol_epi32(s11, 7);
            KEEP();
        })
        break;
    case DOUBLE:
        SWAP_LOOP({
            DOUBLE_ROUND(QR_AVX512, s);
            KEEP();
        })
        break;
    default: /* QUARTER: every / 4 swaps apart (the caller divides) */
        SWAP_LOOP({
            switch (q++ & 3) {
            case 0:
                QR_AVX512(s0, s4, s8, s12); QR_AVX512(s1, s5, s9, s13);
                break;
            case 1:
                QR_AVX512(s2, s6, s10, s14); QR_AVX512(s3, s7, s11, s15);
                break;
            case 2:
                QR_AVX512(s0, s5, s10, s15); QR_AVX512(s1, s6, s11, s12);
                break;
            default:
                QR_AVX512(s2, s7, s8, s13); QR_AVX512(s3, s4, s9, s14);
                break;
            }
            KEEP();
        })
        break;
    }
    __m512i t = _mm512_add_epi32(_mm512_add_epi32(s0, s5),
                                 _mm512_add_epi32(s10, s15));
    t = _mm512_add_epi32(t, _mm512_add_epi32(s1, s11));
    return (uint64_t)(uint32_t)_mm512_reduce_add_epi32(t);
}

static int cmp_d(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)strtod(argv[1], NULL) : 195312;
    unsigned every = argc > 2 ? (unsigned)atoi(argv[2]) : 72;
    int reps = argc > 3 ? atoi(argv[3]) : 15;
    if (n < 2 || every < 4 || reps < 1 || reps > 101) {
        fprintf(stderr, "usage: overlap [N [EVERY>=4 [REPS<=101]]]\n");
        return 2;
    }
    __builtin_cpu_init();
    int avx512 = __builtin_cpu_supports("avx512f");
    uint64_t *a = malloc(n * sizeof *a);
    uint32_t *idx = malloc(n * sizeof *idx);
    if (a == NULL || idx == NULL)
        return 1;
    uint64_t s = 88172645463325252u;
    for (size_t i = 0; i < n; i++) {
        a[i] = i;
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        idx[i] = (uint32_t)((u128)s * (i + 1) >> 64);
    }
    static double t[MODES][101];
    uint64_t sink = 0;
    for (int r = 0; r < reps; r++)
        for (int m = 0; m < MODES; m++) {
            if (m >= YMM_ADDS && !avx512)
                continue;
            double best = 1e30;
            for (int k = 0; k < ROUNDS; k++) {
                double t0 = now();
                if (m == NONE || m == INT_OPS)
                    sink += run_plain(a, idx, n, m, every);
                else
                    sink += run_vec(a, idx, n, m,
                                    m == QUARTER ? every / 4 : every);
                double d = now() - t0;
                best = d < best ? d : best;
            }
            t[m][r] = best / (double)(n - 1) * 1e9;
        }
    printf("n = %zu, extra work every %u swaps, %d repetitions, median ns "
           "per swap\n\n| work | ns/swap | extra |\n|---|---:|---:|\n",
           n, every, reps);
    double base = 0;
    for (int m = 0; m < MODES; m++) {
        if (m >= YMM_ADDS && !avx512) {
            printf("| %s | (no AVX-512) | |\n", names[m]);
            continue;
        }
        qsort(t[m], (size_t)reps, sizeof(double), cmp_d);
        double med = t[m][reps / 2];
        if (m == NONE)
            base = med;
        printf("| %s | %.3f | %+.3f |\n", names[m], med, med - base);
    }
    printf("\n(checksum %llu)\n", (unsigned long long)(sink & 1));
    free(a);
    free(idx);
    return 0;
}
