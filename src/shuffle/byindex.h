/* SPDX-License-Identifier: MIT */
/* Large records by an index (byindex.c). */
#ifndef FSH_BYINDEX_H
#define FSH_BYINDEX_H

#include "rng/rng.h"
#include "shuffle/thresholds.h"

#include <stddef.h>
#include <stdint.h>

/* The backward Fisher-Yates of n < 2^32 records of size bytes at a, the
   same permutation as fsh_fy_kernel(rng, a, n, size) from the same draws:
   its swaps made on idx (n entries of scratch) and then every record
   moved once, along the permutation's cycles, through tmp (size bytes of
   scratch). */
FSH_HIDDEN void fsh_fy_by_index(fsh_rng *rng, unsigned char *a, size_t n,
                                size_t size, uint32_t *idx,
                                unsigned char *tmp);

/* fsh_fy_kernel(rng, a, n, size), by index (with its scratch allocated
   here) for records of FSH_BYINDEX_MIN_SIZE to FSH_BYINDEX_MAX_SIZE
   bytes, in place if the allocation fails: the same permutation either
   way. Not for [1, k] sources (their kernel is the plain one, one call per
   position). */
FSH_HIDDEN void fsh_fy_records(fsh_rng *rng, unsigned char *a, size_t n,
                               size_t size);

/* Move the records so that position i holds the record that was at
   idx[i] (idx a permutation of 0..n-1, scratch: left as 0..n-1), each
   record once, through tmp (size bytes). */
FSH_HIDDEN void fsh_apply_index(unsigned char *a, size_t n, size_t size,
                                uint32_t *idx, unsigned char *tmp);

/* Whether fsh_fy_records goes by index for this size (before allocating). */
static inline int fsh_by_index_size(size_t size)
{
    return size >= FSH_BYINDEX_MIN_SIZE && size <= FSH_BYINDEX_MAX_SIZE;
}

#endif /* FSH_BYINDEX_H */
