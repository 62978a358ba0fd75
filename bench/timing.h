/* SPDX-License-Identifier: MIT */
/* Clocks and medians shared by the bench programs (large.c, records.c,
   sample.c, chacha_speed.c; bench.c keeps its own, with the clock choice
   of its cells). Needs _GNU_SOURCE or _POSIX_C_SOURCE for clock_gettime. */
#ifndef FSH_BENCH_TIMING_H
#define FSH_BENCH_TIMING_H

#include <stdlib.h>
#include <time.h>

/* The clock clk now, in ns. */
static inline double bench_ns(clockid_t clk)
{
    struct timespec t;
    clock_gettime(clk, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n) (n >= 1); sorts v. */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
