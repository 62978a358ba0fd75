/* SPDX-License-Identifier: MIT */
/* --plot: the audit's results as a plain SVG picture. */
#ifndef FSH_CLI_AUDIT_PLOT_H
#define FSH_CLI_AUDIT_PLOT_H

#include "audit/battery.h"

#include <stdio.h>

/* The heat map's largest side, in cells. */
#define PLOT_GRID 256

/* Writes to f: a position-by-value heat map of the standardized deviation
   (C - E) / sqrt(E) (each cell a <rect> carrying data-pos, data-value and
   data-count; above PLOT_GRID cards a cell sums a square block of pairs,
   data-pos and data-value its first ones, data-block on the map its side),
   the fixed-point and inversion histograms against their exact laws, and
   every test's p-value. The caller checks f for errors. */
void plot_write(FILE *f, const battery *b, const test_result *r, int k);

#endif
