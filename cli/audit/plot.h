/* SPDX-License-Identifier: MIT */
/* --plot: the audit's results as a plain SVG picture. */
#ifndef FSH_CLI_AUDIT_PLOT_H
#define FSH_CLI_AUDIT_PLOT_H

#include "audit/battery.h"

/* Writes path: a position-by-value heat map of the standardized deviation
   (C - E) / sqrt(E) (each cell a <rect> carrying data-pos, data-value and
   data-count), the fixed-point and inversion histograms against their
   exact laws, and every test's p-value. 0, or -1 with errno. */
int plot_write(const char *path, const battery *b, const test_result *r,
               int k);

#endif
