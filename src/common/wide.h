/* SPDX-License-Identifier: MIT */
/* Exact counts of outcomes against 2^bits (reachability checks). */
#ifndef FSH_WIDE_H
#define FSH_WIDE_H

#include "common/common.h"

/* 1 if the ordered k-tuples of distinct items of n = last + 1,
   n!/(n-k)!, number at most 2^bits (last = UINT64_MAX: n = 2^64);
   bits < 256. */
FSH_HIDDEN int fsh_ordered_fits(uint64_t last, uint64_t k, unsigned bits);

/* 1 if C(last + 1, k) <= 2^bits; k <= last + 1, bits < 256. */
FSH_HIDDEN int fsh_subset_fits(uint64_t last, uint64_t k, unsigned bits);

/* The largest n with n! <= 2^bits; SIZE_MAX for bits >= 256. */
FSH_HIDDEN size_t fsh_max_fair_n_for_bits(unsigned bits);

/* ln(x!) = ln Gamma(x + 1) in extended precision, for the estimates of
   counts too large for the exact ones. Reentrant: glibc's lgammal writes
   the sign to the global signgam (a data race between threads, and a
   change to the caller's global), so glibc's lgammal_r is used. */
FSH_HIDDEN long double fsh_ln_factorial(long double x);

/* Stirling's lower bound of log2(n!), n >= 1: n! >= sqrt(2 pi n) (n/e)^n,
   in double (relative error about 1e-16): callers keep a margin for the
   rounding. The cheap test before an exact count. */
FSH_HIDDEN double fsh_log2_factorial_lb(double n);

#endif /* FSH_WIDE_H */
