/* SPDX-License-Identifier: MIT */
/* --random-source: integers drawn exactly as GNU shuf 9.1 draws them. */
#ifndef FSH_CLI_GNURAND_H
#define FSH_CLI_GNURAND_H

#include <stdint.h>

/*
 * Byte-for-byte the draws of gnulib's randint over a --random-source file:
 * big-endian byte accumulation, leftover entropy kept between calls.
 */
typedef struct gnurand gnurand;

/* Open name unless bound (GNU's byte estimate) is 0. NULL with errno set
   when the file cannot be opened. */
gnurand *gnurand_new(const char *name, uint64_t bound);
/* Uniform integer in [0, n), n >= 1; dies on end of file / read error. */
uint64_t gnurand_choose(gnurand *g, uint64_t n);
void gnurand_free(gnurand *g);
/* GNU randperm_bound(h, n): bytes needed for h draws of a permutation of n. */
uint64_t gnurand_perm_bound(uint64_t h, uint64_t n);

#endif
