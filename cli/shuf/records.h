/* SPDX-License-Identifier: MIT */
/* Records of the input: offsets in a buffer, -e operands, the --header
   records, and writing records out. */
#ifndef FSH_CLI_RECORDS_H
#define FSH_CLI_RECORDS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "io/input.h"
#include "io/output.h"

/* Record start offsets: 32-bit when the buffer is under 4 GiB. */
typedef struct recs {
    size_t n;
    int wide;       /* 1: off64, 0: off32 */
    uint32_t *off32;
    uint64_t *off64;
} recs;

/* Number of delim bytes in buf[0..size): the records of a buffer that
   ends with a delimiter. */
uint64_t count_delims(const char *buf, size_t size, char delim);

/* Scan in->buf for record starts. */
void scan_records(const inbuf *in, char delim, recs *r);
void recs_free(recs *r);
static inline uint64_t recs_get(const recs *r, size_t i)
{
    return r->wide ? r->off64[i] : r->off32[i];
}
static inline void recs_swap(recs *r, size_t i, size_t j)
{
    if (r->wide) {
        uint64_t t = r->off64[i];
        r->off64[i] = r->off64[j];
        r->off64[j] = t;
    } else {
        uint32_t t = r->off32[i];
        r->off32[i] = r->off32[j];
        r->off32[j] = t;
    }
}

/* --header: the first records of the input, written first (to every
   shard). Collected here, and only here, from whichever reader the mode
   uses. */
typedef struct headbuf {
    char *buf;
    size_t len;
} headbuf;

/* Append p[0..n) to h. */
void header_add(headbuf *h, const void *p, size_t n);
/* Move the first records of buf[0..size), up to *want of them, into h:
   *want is decreased by their number, and their bytes are returned (the
   last record may lack its delimiter at size). */
size_t header_take(headbuf *h, const char *buf, size_t size, char delim,
                   uint64_t *want);
/* Bytes taken by the first n records of buf[0..size). */
size_t header_bytes(const char *buf, size_t size, char delim, uint64_t n);
void header_free(headbuf *h);
/* The first n records of a whole input in h; in becomes a view of the
   rest (the caller frees the original buffer). */
void header_from_inbuf(headbuf *h, inbuf *in, char delim, uint64_t n);
/* The first n records of a reader in h. */
void header_from_reader(headbuf *h, reader *s, char delim, uint64_t n);

/* 0, 1, .., n - 1. */
uint64_t *iota_u64(size_t n);

/* -e operands as one buffer of delimited lines, with n + 1 bounds. */
typedef struct echo_lines {
    char *buf;
    uint64_t *bounds;
    size_t n;
} echo_lines;

/* The operands ops[0..nops) as lines; the first `hdr_lines` of them go to
   hdr instead. */
void echo_build(char **ops, int nops, char delim, uint64_t hdr_lines,
                headbuf *hdr, echo_lines *e);
void echo_free(echo_lines *e);
static inline int write_echo(outw *out, const echo_lines *e, uint64_t i)
{
    return out_write(out, e->buf + e->bounds[i],
                     (size_t)(e->bounds[i + 1] - e->bounds[i]));
}

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
/* The length of the record at p in a scanned buffer, its delimiter
   included. */
static inline size_t rec_len(const char *p, char delim)
{
#if defined(__SSE2__)
    /* Most records are short: look at the first 16 bytes inline (the
       buffer has INBUF_SLACK readable bytes after its end). */
    unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
        _mm_loadu_si128((const __m128i *)(const void *)p), _mm_set1_epi8(delim)));
    if (m != 0)
        return (size_t)__builtin_ctz(m) + 1;
    const char *e = rawmemchr(p + 16, delim);
#else
    const char *e = rawmemchr(p, delim);
#endif
    return (size_t)(e - p) + 1;
}

/* Write the record at start of a scanned buffer (it ends with delim). */
static inline int write_rec(outw *out, const inbuf *in, uint64_t start,
                            char delim)
{
    const char *p = in->buf + start;
    return out_write(out, p, rec_len(p, delim));
}

/* Records in array order, the first h of them; prefetch a few ahead since
   consecutive records sit at random places in a large buffer. */
static inline void write_recs(outw *out, const inbuf *in, const recs *r, size_t h,
                       char delim)
{
    enum { AHEAD = 16 };
    for (size_t i = 0; i < h; i++) {
        if (i + AHEAD < h)
            __builtin_prefetch(in->buf + recs_get(r, i + AHEAD));
        if (write_rec(out, in, recs_get(r, i), delim) != 0)
            return;
    }
}

#endif
