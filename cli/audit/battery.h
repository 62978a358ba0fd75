/* SPDX-License-Identifier: MIT */
/* The audit's battery: statistics accumulated deal by deal (nothing but
   counts is kept, so 10^6 deals take little memory), then the tests, each
   against its exact null distribution (docs/AUDIT.md), with Holm's
   correction for the family. */
#ifndef FSH_CLI_AUDIT_BATTERY_H
#define FSH_CLI_AUDIT_BATTERY_H

#include <stddef.h>
#include <stdint.h>

/* Largest deck the audit takes (position-by-value keeps n^2 counts), and
   the largest for the inversion tests (n(n-1)/2 + 1 histogram cells). */
#define AUDIT_MAX_N 4096
#define AUDIT_MAX_N_INV 1024

typedef struct battery battery;

/* Counts for deals of n values (2 <= n <= AUDIT_MAX_N); NULL when memory
   runs out. */
battery *battery_new(size_t n);
void battery_free(battery *b);

/* A shoe: the deals are permutations of n labels of which each face's
   copies were labelled by a random tie-break; equal deals are equal face
   sequences, of which there are n!/(copies!)^faces. */
void battery_set_shoe(battery *b, size_t copies);
/* One deal: a permutation of 0..n-1 (the caller checked it). key: what
   makes two deals equal for the duplicate test (n values: a shoe's face
   sequence), or NULL for the deal itself. */
void battery_add(battery *b, const uint32_t *deal, const uint32_t *key);
uint64_t battery_deals(const battery *b);

/* T_NONE: the test ran but its p-value is unknown (no memory for its
   exact tail): it cannot fail, and Holm's procedure sorts it last with the
   adjusted value 1, which keeps the others' adjusted values at least what
   they would be with any p-value in its place (they grow with each
   p-value): a FAIL beside it stands, a PASS does not say all passed. */
enum { T_PASS, T_FAIL, T_SKIP, T_NONE };

typedef struct test_result {
    const char *name;
    int status;     /* T_PASS, T_FAIL, T_SKIP or T_NONE */
    double stat, df, p, p_holm;
    char note[200]; /* why skipped, or what the statistic is */
} test_result;

#define BATTERY_TESTS 12

/* Runs every test (those without enough deals are T_SKIP) and applies
   Holm's step-down correction at family-wise level alpha over the tests
   that ran. Fills out[0..BATTERY_TESTS); returns the number of results, or
   -1 when memory runs out. */
int battery_run(battery *b, double alpha, test_result *out);

/* Where the pooled tests split a law of k cells in two when its exact
   tail is too slow (battery_run), and where --power assumes they do: the
   cells below the one whose cumulative probability is nearest 1/2 (0 if
   none lies strictly between 0 and 1). */
size_t battery_median_cut(const double *law, size_t k);

/* The p-value the battery gives a histogram h[0..k) of a count against its
   exact law (the pooled tests: successor pairs, fixed points, matches,
   inversions, Kendall distance), and the one it gives counts of k equally
   likely cells (full permutation, first- and last-card differences), at
   family-wise level alpha; *stat = the statistic. NAN when the test would
   be skipped. For tests/test_audit_pvalues.c, which computes the exact
   rate at which they fall below u. */
double battery_law_p(const uint64_t *h, const double *law, size_t k,
                     double alpha, double *stat);
double battery_cells_p(const uint64_t *c, size_t k, double alpha,
                       double *stat);
/* The p-value battery_cells_p gives k equally likely cells of total counts
   whose statistic is x (it depends on the counts through x only). */
double battery_cells_px(uint64_t total, size_t k, double x, double alpha);
/* 1 when the battery's test of k >= 2 equally likely cells of total
   counts, one of `lines` (the worst row or column: 2n; else 1), at
   family-wise level alpha, takes its p-values where they decide from
   the exact tail, 0 when from the Chernoff bound, -1 when memory runs
   out (for --power). */
int battery_cells_exact(uint64_t total, size_t k, double alpha, double lines);
/* The p-value the battery gives the position-by-value statistic y of
   deals of n values. */
double battery_pbv_p(size_t n, uint64_t deals, double y, double alpha);

/* The duplicate-deck (birthday) figures: pairs of equal deals seen, and
   expected under a uniform shuffle and under a k-bit seed (bits = 24, 32,
   48, 64). Valid after battery_run. */
double battery_dup_pairs(const battery *b);
double battery_dup_expected(const battery *b, unsigned bits);

/* Position-by-value counts (n x n, row = position, column = value),
   histograms and their exact laws, for the plot. */
const uint64_t *battery_pbv(const battery *b);
size_t battery_n(const battery *b);
const uint64_t *battery_fixed_hist(const battery *b); /* n + 1 cells */
const uint64_t *battery_inv_hist(const battery *b);   /* NULL if n is large */

#endif
