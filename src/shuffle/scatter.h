/* SPDX-License-Identifier: MIT */
/* The scatter shuffle for arrays beyond cache (scatter.c). */
#ifndef FSH_SCATTER_H
#define FSH_SCATTER_H

#include "rng/rng.h"

#include <stdint.h>

/* Shuffle a[0..n) (n >= 2, n * size beyond the stream version's
   FSH_SCATTER_MIN_BYTES_V*) with a buffered rng (not randint) on up to
   threads threads (0: all cores), by stream version version (1 or 2: how
   many buckets a level takes; 3: as 2, with forward leaves for elements
   of up to 8 bytes); output independent of threads. FSH_ENOMEM
   if the stash copy cannot be allocated (a[] is then still a permutation
   of its input). */
FSH_HIDDEN int fsh_scatter_shuffle(fsh_rng *rng, unsigned char *a, size_t n,
                                   size_t size, unsigned threads,
                                   unsigned version);

/* fsh_scatter_shuffle(rng, a, n, size, 1, version) by index, for records
   of FSH_BYINDEX_SCATTER_MIN_SIZE to FSH_BYINDEX_MAX_SIZE bytes: the same
   scatter made on n 32-bit indices with the levels, leaves and leaf order
   of size-byte elements (the same draws and permutation), then each record
   moved once along the permutation's cycles (byindex.c). FSH_OK;
   FSH_ENOMEM if the scatter's own allocation failed (the records then
   unchanged); or FSH_SCATTER_NOT_DONE, nothing drawn, for another size or
   if the index cannot be allocated (or n is 2^32 or more). */
#define FSH_SCATTER_NOT_DONE 1
FSH_HIDDEN int fsh_scatter_by_index(fsh_rng *rng, unsigned char *a, size_t n,
                                    size_t size, unsigned version);

/* Test hook: the scatter kernel with fixed parameters. */
typedef struct fsh_scatter_params {
    unsigned k;       /* buckets per level, 2..512 */
    unsigned stripes; /* stripes of the top level, 1..8 */
    size_t base;      /* buckets of at most base elements: Fisher-Yates */
    unsigned threads; /* keyed only; 0 = 1 */
    int keyed;  /* 1: task streams keyed from rng, as fsh_shuffle does;
                   0: every draw from rng itself, in order (randint ok) */
    int broken; /* known-bad variant: skip the multinomial fix-up */
    int forward; /* leaves by the forward Fisher-Yates (stream version 3) */
} fsh_scatter_params;

FSH_HIDDEN int fsh_scatter_hook(fsh_rng *rng, unsigned char *a, size_t n,
                                size_t size, const fsh_scatter_params *p);

/* Whether the scatter's rough pass prefetches into L2 rather than L1 (Intel
   CPUs; FSH_ROUGH_PREFETCH=l1 or l2 forces one). Same permutation. */
FSH_HIDDEN int fsh_scatter_prefetch_l2(void);
/* bench/large.c: force the hint (1: L1, 2: L2, 0: decide again). */
FSH_HIDDEN void fsh_scatter_prefetch_force(int hint);

#endif /* FSH_SCATTER_H */
