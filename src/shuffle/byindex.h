/* SPDX-License-Identifier: MIT */
/* Large records by an index (byindex.c). */
#ifndef FSH_BYINDEX_H
#define FSH_BYINDEX_H

#include "rng/rng.h"
#include "shuffle/thresholds.h"

#include <stddef.h>
#include <stdint.h>

/* The index of n records of size bytes: n 32-bit entries 0..n-1, then
   room for one record (fsh_apply_index's), in one allocation to free();
   NULL if it cannot be allocated or n is 2^32 or more. */
FSH_HIDDEN uint32_t *fsh_index_new(size_t n, size_t size);

/* fsh_fy_kernel(rng, a, n, size), by index (with its scratch allocated
   here) for records of FSH_BYINDEX_MIN_SIZE to FSH_BYINDEX_MAX_SIZE
   bytes, in place if the allocation fails: the same permutation either
   way. Not for [1, k] sources (their kernel is the plain one, one call per
   position). */
FSH_HIDDEN void fsh_fy_records(fsh_rng *rng, unsigned char *a, size_t n,
                               size_t size);

/* Move the records so that position i holds the record that was at
   idx[i] (idx from fsh_index_new, now a permutation of 0..n-1; left as
   0..n-1), each record once. */
FSH_HIDDEN void fsh_apply_index(unsigned char *a, size_t n, size_t size,
                                uint32_t *idx);

/* Whether fsh_fy_records goes by index for this size (before allocating). */
static inline int fsh_by_index_size(size_t size)
{
    return size >= FSH_BYINDEX_MIN_SIZE && size <= FSH_BYINDEX_MAX_SIZE;
}

#endif /* FSH_BYINDEX_H */
