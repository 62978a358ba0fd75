/* SPDX-License-Identifier: MIT */
/* Range permutations, private: a look at a permutation's storage for the
   white-box tests (tests/test_reach_hw.c checks that a refused batch leaves
   it as it was). */
#ifndef FSH_SAMPLE_H
#define FSH_SAMPLE_H

#include "common/common.h"

/* *dense = 0 (the map), 1 (a uint32 array) or 2 (a uint64 array); *cap =
   the map's slots (0 for an array); *count = the map's keys. */
FSH_HIDDEN void fsh_rangeperm_storage(const fsh_rangeperm *perm, int *dense,
                                      size_t *cap, size_t *count);

#endif /* FSH_SAMPLE_H */
