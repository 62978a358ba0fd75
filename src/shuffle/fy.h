/* SPDX-License-Identifier: MIT */
/* Fisher-Yates kernels: the in-cache one (also the scatter shuffle's
   leaves) and the prefetching one for arrays beyond cache. Both give the
   same permutation for the same rng state. */
#ifndef FSH_FY_H
#define FSH_FY_H

#include "uniform/uniform.h"

#include <string.h>

/* Whether fsh_fy_kernel makes a ChaCha rng's next refill ahead, in
   AVX-512 slices between chunks of its swaps (fy.c, fy_body_ahead): built
   with the x86-64 asm loop, BMI2 in use and the AVX-512 ChaCha kernel
   running. The permutation is the same either way. */
FSH_HIDDEN int fsh_fy_ahead_on(void);

/* Swap the byte ranges x[0..size) and y[0..size), disjoint or the same
   (any size, any alignment), in chunks of constant size, whose memcpys
   compile to plain (vector) loads and stores. A memcpy of a variable
   length became a rep movsq string move, about 20 cycles of start-up
   each, three per swap: 17 ns per element for 12- to 64-byte elements in
   cache (docs/PERFORMANCE.md, issue 13, session 11). Inline, for the
   loops over elements of a size known only at run time (the size's
   branches predict perfectly there). */
#define FSH_SWAP_CHUNK(w)                                                      \
    do {                                                                       \
        unsigned char u_[w], v_[w];                                            \
        memcpy(u_, x, w);                                                      \
        memcpy(v_, y, w);                                                      \
        memcpy(x, v_, w);                                                      \
        memcpy(y, u_, w);                                                      \
        x += (w), y += (w), size -= (w);                                       \
    } while (0)

static inline __attribute__((always_inline)) void
fsh_swap_inline(unsigned char *x, unsigned char *y, size_t size)
{
    while (size >= 32)
        FSH_SWAP_CHUNK(32);
    if (size >= 16)
        FSH_SWAP_CHUNK(16);
    if (size >= 8)
        FSH_SWAP_CHUNK(8);
    if (size >= 4)
        FSH_SWAP_CHUNK(4);
    while (size > 0)
        FSH_SWAP_CHUNK(1);
}

/* Prefetch every cache line of the size-byte element at p (rw, loc: as
   __builtin_prefetch's, constants): its first byte's line, each 64 bytes
   on, and its last byte's line. One line for an element within a line,
   both ends for one across two; a record of more than 64 bytes can span
   three lines or more, whose middle ones its two ends miss (the scatter's
   pass waited on them: docs/PERFORMANCE.md, issue 13, session 15). */
#define FSH_PREFETCH_ELEMENT(p, size, rw, loc)                                 \
    do {                                                                       \
        const unsigned char *q_ = (p);                                         \
        for (size_t o_ = 0; o_ < (size); o_ += 64)                             \
            __builtin_prefetch(q_ + o_, rw, loc);                              \
        __builtin_prefetch(q_ + (size) - 1, rw, loc);                          \
    } while (0)

/* The same, out of line. */
FSH_HIDDEN void fsh_swap_bytes(unsigned char *x, unsigned char *y, size_t size);

/* The plain in-cache Fisher-Yates for any element size (fy.c). */
FSH_HIDDEN void fsh_fy_kernel(fsh_rng *rng, unsigned char *a, size_t n,
                              size_t size);

/* The forward Fisher-Yates (fy.c): for b = 2..n swap a[b-1] with a[j], j
   uniform in [0, b), in the batches of docs/STREAMS.md section 5d; stream
   version 3's Fisher-Yates of 6 to 12 MiB (elements of up to 8 bytes) and
   its scatter leaves. Another permutation than fsh_fy_kernel's for the
   same rng state. */
FSH_HIDDEN void fsh_fy_forward(fsh_rng *rng, unsigned char *a, size_t n,
                               size_t size);

/* The prefetching Fisher-Yates: same draws and swaps as fsh_fy_kernel.
   Returns 0 (and does nothing) where it has no kernel: randint sources,
   no 128-bit multiply. */
FSH_HIDDEN int fsh_fy_prefetch(fsh_rng *rng, unsigned char *a, size_t n,
                               size_t size);

#endif /* FSH_FY_H */
