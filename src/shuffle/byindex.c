/* SPDX-License-Identifier: MIT */
/* Large records by an index. The backward Fisher-Yates swaps a record
   with a random one n - 1 times; for records of FSH_BYINDEX_MIN_SIZE
   bytes and more it is faster to make those swaps on 32-bit indices (the
   u32 kernel, in L1/L2) and then move each record once, along the cycles
   of the permutation the indices describe: half the record traffic, and
   the moves never wait on a die. The draws and the swaps' positions are
   the kernel's, which do not depend on the element size (docs/STREAMS.md
   section 5), so the permutation is the same
   (docs/PERFORMANCE.md, issue 13, session 15). The cycle walk also serves
   the scatter shuffle of large records (scatter.c, fsh_scatter_by_index). */
#include "shuffle/byindex.h"

#include "shuffle/fy.h"

#include <errno.h>
#include <stdlib.h>

/* Copy size bytes from src to dst (disjoint) in chunks of constant size
   (fy.h's reason: a memcpy of a run-time length is a slow string move). */
static inline __attribute__((always_inline)) void
copy_inline(unsigned char *dst, const unsigned char *src, size_t size)
{
    while (size >= 32) {
        memcpy(dst, src, 32);
        dst += 32, src += 32, size -= 32;
    }
    if (size >= 16) {
        memcpy(dst, src, 16);
        dst += 16, src += 16, size -= 16;
    }
    if (size >= 8) {
        memcpy(dst, src, 8);
        dst += 8, src += 8, size -= 8;
    }
    if (size >= 4) {
        memcpy(dst, src, 4);
        dst += 4, src += 4, size -= 4;
    }
    while (size > 0) {
        *dst++ = *src++;
        size--;
    }
}

/* How many moves ahead along a cycle its records are prefetched (tuning:
   4 to 64 were alike within the host's noise, docs/PERFORMANCE.md, issue
   13, session 15; overridable for measurement builds, no effect on the
   output). */
#ifndef FSH_BYINDEX_AHEAD
#define FSH_BYINDEX_AHEAD 8
#endif
#define AHEAD FSH_BYINDEX_AHEAD

/* Each cycle s -> idx[s] -> ... is walked once: the record at s is held in
   tmp (the room for one record after the indices), each position takes
   the record its index names, and the last one takes tmp; walked
   positions are marked (idx[i] = i), so later starts skip them. A second cursor runs AHEAD positions further along the cycle
   and prefetches the record found there (past the cycle's end it stays at
   s: harmless). */
void fsh_apply_index(unsigned char *a, size_t n, size_t size, uint32_t *idx)
{
    unsigned char *tmp = (unsigned char *)(idx + n);
    for (size_t s = 0; s < n; s++) {
        size_t nx = idx[s];
        if (nx == s)
            continue;
        copy_inline(tmp, a + s * size, size);
        size_t cur = s, la = nx;
        for (unsigned d = 0; d < AHEAD; d++) {
            la = idx[la];
            FSH_PREFETCH_ELEMENT(a + la * size, size, 0, 3);
        }
        for (;;) {
            idx[cur] = (uint32_t)cur;
            if (nx == s) {
                copy_inline(a + cur * size, tmp, size);
                break;
            }
            la = idx[la];
            FSH_PREFETCH_ELEMENT(a + la * size, size, 0, 3);
            copy_inline(a + cur * size, a + nx * size, size);
            cur = nx;
            nx = idx[cur];
        }
    }
}

uint32_t *fsh_index_new(size_t n, size_t size)
{
    if (n > UINT32_MAX || n > (SIZE_MAX - size) / sizeof(uint32_t))
        return NULL;
    /* The callers shuffle in place without it: a failure is absorbed, and
       so is the allocator's errno (fairshuf.h: nothing sets errno). */
    int e = errno;
    uint32_t *idx = malloc(n * sizeof *idx + size);
    if (idx == NULL) {
        errno = e;
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        idx[i] = (uint32_t)i;
    return idx;
}

void fsh_fy_records(fsh_rng *rng, unsigned char *a, size_t n, size_t size)
{
    uint32_t *idx = NULL;
    if (fsh_by_index_size(size) && rng->src != FSH_SRC_RANDINT)
        idx = fsh_index_new(n, size);
    if (idx == NULL) {
        fsh_fy_kernel(rng, a, n, size);
        return;
    }
    /* The kernel leaves at position i the index of the record that
       belongs there. */
    fsh_fy_kernel(rng, (unsigned char *)idx, n, sizeof *idx);
    fsh_apply_index(a, n, size, idx);
    free(idx);
}
