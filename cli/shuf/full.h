/* SPDX-License-Identifier: MIT */
/* The full shuffle of the input's lines: in memory, or external mode. */
#ifndef FSH_CLI_FULL_H
#define FSH_CLI_FULL_H

#include "io/output.h"
#include "shuf/external.h"

typedef struct full full;

/* Read fd's records after the first a->header ones (collected into
   a->hdr) and draw their permutation: in memory when they fit in half of
   --memory, else external. The rng is made only when a draw is needed, so
   fewer than 2 records need no OS entropy. Nothing is written yet. */
full *full_prepare(const ext_args *a, int fd);
/* Write the records in their new order to out (opened by the caller after
   full_prepare, so that all input is read first); frees f. */
void full_write(full *f, outw *out);

#endif
