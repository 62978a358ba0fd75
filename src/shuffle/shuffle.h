/* SPDX-License-Identifier: MIT */
/* The shuffle entry points' shared argument check (shuffle.c), for the
   layers above that take the same arguments (records). */
#ifndef FSH_SHUFFLE_H
#define FSH_SHUFFLE_H

#include "rng/rng.h"

/* The argument check of every shuffle entry point: FSH_EINVAL for a NULL
   rng, size 0, NULL base with n > 0 or n * size overflowing; then the rng
   guard (FSH_ESYSRAND); nothing to do for n < 2; then reachability
   (FSH_EENTROPY). *done is set when the caller must return the status now
   (an error, or n < 2); otherwise the status is FSH_OK and the caller
   shuffles. */
FSH_HIDDEN int fsh_shuffle_check(fsh_rng *rng, const void *base, size_t n,
                                 size_t size, int *done);

/* 1 if a shuffle of n with rng must draw every index from rng itself (no
   keyed sub-streams, as the record permutation's large case uses): the
   rng is in direct mode (fsh_rng_set_direct), or the shuffle mixes
   hardware entropy. */
FSH_HIDDEN int fsh_shuffle_one_stream(const fsh_rng *rng, size_t n);

#endif /* FSH_SHUFFLE_H */
