/* SPDX-License-Identifier: MIT */
/* The shuffle's size thresholds, all in one place. Each is a speed choice
   only where marked "tuning"; the measurements behind them are in
   docs/PERFORMANCE.md. Which kernel runs for a size is part of the seeded
   streams (docs/STREAMS.md): changing a threshold changes seeded outputs. */
#ifndef FSH_THRESHOLDS_H
#define FSH_THRESHOLDS_H

#include <stddef.h>

/* Above this many bytes the plain Fisher-Yates misses cache on most swaps:
   the prefetching kernel (same permutation) takes over. */
#define FSH_PREFETCH_MIN_BYTES ((size_t)12 << 20)

/* Above this many bytes the scatter shuffle beats any Fisher-Yates (it
   touches memory in streams) and can use threads: stream version 1 takes
   it from 24 MiB; version 2 from 12 MiB for elements of at most
   FSH_SCATTER_V2_MAX_SIZE bytes (where the prefetching kernel is slower on
   Zen 4 than the scatter with version 2's smaller buckets; for larger
   elements it is as fast or faster up to 24 MiB), from 24 MiB for others. */
#define FSH_SCATTER_MIN_BYTES_V1 ((size_t)24 << 20)
#define FSH_SCATTER_MIN_BYTES_V2 ((size_t)12 << 20)
#define FSH_SCATTER_V2_MAX_SIZE 8

/* Stream version 3: for elements of at most FSH_SCATTER_V2_MAX_SIZE
   bytes, the Fisher-Yates of more than this many bytes (up to the
   scatter's FSH_SCATTER_MIN_BYTES_V2) runs forward (fy.c,
   fsh_fy_forward), as do the scatter's leaves. Tuning: below it the two
   orders were as fast on Zen 4, above it the forward one faster
   (docs/PERFORMANCE.md, issue 13, session 14). */
#define FSH_FORWARD_MIN_BYTES ((size_t)6 << 20)
/* Tuning: records of at least this many bytes are shuffled by index
   (byindex.c: the Fisher-Yates's swaps on 32-bit indices, then each
   record moved once; the same permutation) wherever the Fisher-Yates of
   section 5 runs on at most FSH_BYINDEX_MAX_BYTES, and in the scatter's
   backward leaves. On Zen 4, 96- to 1000-byte records went 1.3-2.5x
   faster in cache, 65- to 80-byte ones about as fast
   (docs/PERFORMANCE.md, issue 13, session 15). */
#define FSH_BYINDEX_MIN_SIZE 96
/* ... and of at most this many: the cycle walk holds one record aside, so
   the extra memory is 4 bytes per record plus one record, kept small. */
#define FSH_BYINDEX_MAX_SIZE 4096
#define FSH_BYINDEX_MAX_BYTES FSH_SCATTER_MIN_BYTES_V1
/* Tuning: beyond that, on one thread, records of at least this many bytes
   take the scatter's permutation made on an index and then move once
   each (scatter.c, fsh_scatter_by_index; the same permutation). Its
   random record reads suffer more than the scatter's streams when the
   host's memory is busy: at 100 MiB on Zen 4, 768 to 4096 bytes went
   1.5-4x faster than the scatter in place in every run, 384 to 512 bytes
   1.2-1.9x in a quiet minute and 0.6-1.2x in a busy one, 128 to 256
   bytes even or slower (docs/PERFORMANCE.md, issue 13, session 15). */
#ifndef FSH_BYINDEX_SCATTER_MIN_SIZE /* overridable: measurement builds */
#define FSH_BYINDEX_SCATTER_MIN_SIZE 768
#endif

/* Tuning: scatter buckets of at most this many bytes are shuffled by
   Fisher-Yates (they fit in L2/L3 while shuffled). A level takes enough
   buckets for them to fit this (version 1) or half of it (version 2,
   where it can: at most FSH_SCATTER_KMAX). Overridable (with
   FSH_SCATTER_KMAX) only for the small-leaf prototype builds of
   docs/PERFORMANCE.md (issue 13, session 7): another value changes seeded
   outputs at large sizes. */
#ifndef FSH_SCATTER_BASE_BYTES
#define FSH_SCATTER_BASE_BYTES ((size_t)2 << 20)
#endif

/* Stream version 2 makes a level's buckets at most FSH_SCATTER_BASE_BYTES
   >> this (1 MiB). Overridable only for measurement builds (another value
   changes version 2's seeded outputs). */
#ifndef FSH_SCATTER_V2_SHIFT
#define FSH_SCATTER_V2_SHIFT 1
#endif

/* Tuning: stripes of the scatter's top level (more stop the rough pass
   earlier and grow the fix-up). */
#define FSH_SCATTER_STRIPES 4

/* Most buckets per scatter level (labels fit in 16 bits; 9 label bits per
   draw at most). The prototype builds may set 1024 or 2048 (10 or 11
   bits; then 11 bits per level in the task streams' ids). */
#ifndef FSH_SCATTER_KMAX
#define FSH_SCATTER_KMAX 512
#endif

#endif /* FSH_THRESHOLDS_H */
