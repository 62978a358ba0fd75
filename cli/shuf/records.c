/* SPDX-License-Identifier: MIT */
/* Records: scanning record starts, the --header records, -e operands. */
#include "shuf/records.h"

#include "common/xalloc.h"

#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Append-only offset arrays, grown geometrically. */
#define DEFINE_SCAN(name, T)                                                   \
    static T *name(const char *buf, size_t size, char delim, size_t *count)   \
    {                                                                          \
        size_t cap = size / 32 + 64, n = 0;                                    \
        T *a = xmalloc(cap * sizeof *a);                                       \
        advise_huge(a, cap * sizeof *a);                                       \
        if (size == 0) {                                                       \
            *count = 0;                                                        \
            return a;                                                          \
        }                                                                      \
        a[n++] = 0;                                                            \
        size_t i = 0;                                                          \
        SCAN_BLOCKS(T)                                                         \
        for (; i < size; i++) {                                                \
            if (buf[i] == delim && i + 1 < size) {                             \
                PUSH(T, i + 1);                                                \
            }                                                                  \
        }                                                                      \
        *count = n;                                                            \
        return a;                                                              \
    }

#define PUSH(T, v)                                                             \
    do {                                                                       \
        if (n == cap) {                                                        \
            cap *= 2;                                                          \
            a = xrealloc(a, cap * sizeof *a);                                  \
        }                                                                      \
        a[n++] = (T)(v);                                                       \
    } while (0)

#if defined(__SSE2__)
/* Bit b set where p[b] == the byte in every lane of dv, b = 0..63: four
   compares folded into one 64-bit mask. */
static inline uint64_t delim_mask64(const char *p, __m128i dv)
{
    const __m128i *q = (const __m128i *)(const void *)p;
    uint64_t m0 = (uint32_t)_mm_movemask_epi8(
        _mm_cmpeq_epi8(_mm_loadu_si128(q), dv));
    uint64_t m1 = (uint32_t)_mm_movemask_epi8(
        _mm_cmpeq_epi8(_mm_loadu_si128(q + 1), dv));
    uint64_t m2 = (uint32_t)_mm_movemask_epi8(
        _mm_cmpeq_epi8(_mm_loadu_si128(q + 2), dv));
    uint64_t m3 = (uint32_t)_mm_movemask_epi8(
        _mm_cmpeq_epi8(_mm_loadu_si128(q + 3), dv));
    return m0 | m1 << 16 | m2 << 32 | m3 << 48;
}

/* 64 bytes per step (delim_mask64), then one push per set bit. The buffer
   always ends with a delimiter, so a match before the last byte starts a
   record. */
#define SCAN_BLOCKS(T)                                                         \
    {                                                                          \
        const __m128i dv = _mm_set1_epi8(delim);                               \
        for (; i + 64 <= size; i += 64) {                                      \
            uint64_t m = delim_mask64(buf + i, dv);                            \
            while (m) {                                                        \
                size_t at = i + (size_t)__builtin_ctzll(m) + 1;                \
                m &= m - 1;                                                    \
                if (at < size)                                                 \
                    PUSH(T, at);                                               \
            }                                                                  \
        }                                                                      \
    }
#else
#define SCAN_BLOCKS(T)                                                         \
    {                                                                          \
        while (i < size) {                                                     \
            const char *p = memchr(buf + i, delim, size - i);                  \
            if (p == NULL) {                                                   \
                i = size;                                                      \
                break;                                                         \
            }                                                                  \
            i = (size_t)(p - buf) + 1;                                         \
            if (i < size)                                                      \
                PUSH(T, i);                                                    \
        }                                                                      \
    }
#endif

DEFINE_SCAN(scan32, uint32_t)
DEFINE_SCAN(scan64, uint64_t)

uint64_t count_delims(const char *buf, size_t size, char delim)
{
    uint64_t n = 0;
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i dv = _mm_set1_epi8(delim);
    for (; i + 64 <= size; i += 64)
        n += (uint64_t)__builtin_popcountll(delim_mask64(buf + i, dv));
#endif
    for (; i < size; i++)
        n += buf[i] == delim;
    return n;
}

void scan_records(const inbuf *in, char delim, recs *r)
{
    memset(r, 0, sizeof *r);
    if (in->size <= UINT32_MAX) {
        r->off32 = scan32(in->buf, in->size, delim, &r->n);
    } else {
        r->wide = 1;
        r->off64 = scan64(in->buf, in->size, delim, &r->n);
    }
}

void recs_free(recs *r)
{
    free(r->off32);
    free(r->off64);
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------------------ */
/* --header                                                                 */

void header_add(headbuf *h, const void *p, size_t n)
{
    if (n == 0)
        return;
    h->buf = xrealloc(h->buf, h->len + n);
    memcpy(h->buf + h->len, p, n);
    h->len += n;
}

/* Bytes of the first records of buf[0..size), at most max; *count gets
   how many. */
static size_t first_records(const char *buf, size_t size, char delim,
                            uint64_t max, uint64_t *count)
{
    size_t at = 0;
    uint64_t i = 0;
    for (; i < max && at < size; i++) {
        const char *e = memchr(buf + at, delim, size - at);
        at = e != NULL ? (size_t)(e - buf) + 1 : size;
    }
    *count = i;
    return at;
}

size_t header_bytes(const char *buf, size_t size, char delim, uint64_t n)
{
    uint64_t k;
    return first_records(buf, size, delim, n, &k);
}

size_t header_take(headbuf *h, const char *buf, size_t size, char delim,
                   uint64_t *want)
{
    uint64_t k;
    size_t n = first_records(buf, size, delim, *want, &k);
    *want -= k;
    header_add(h, buf, n);
    return n;
}

void header_from_inbuf(headbuf *h, inbuf *in, char delim, uint64_t n)
{
    size_t t = header_take(h, in->buf, in->size, delim, &n);
    in->buf += t;
    in->size -= t;
}

void header_from_reader(headbuf *h, reader *s, char delim, uint64_t n)
{
    const char *rec;
    size_t len;
    while (n > 0 && reader_next(s, &rec, &len))
        header_take(h, rec, len, delim, &n);
}

uint64_t *iota_u64(size_t n)
{
    if (n > SIZE_MAX / sizeof(uint64_t))
        xalloc_die();
    uint64_t *v = xmalloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = i;
    return v;
}

void header_free(headbuf *h)
{
    free(h->buf);
    h->buf = NULL;
    h->len = 0;
}

/* ------------------------------------------------------------------------ */
/* -e operands                                                              */

void echo_build(char **ops, int nops, char delim, uint64_t hdr_lines,
                headbuf *hdr, echo_lines *e)
{
    int first = hdr_lines < (uint64_t)nops ? (int)hdr_lines : nops;
    for (int i = 0; i < first; i++) {
        header_add(hdr, ops[i], strlen(ops[i]));
        header_add(hdr, &delim, 1);
    }
    ops += first;
    nops -= first;
    size_t size = (size_t)nops;
    for (int i = 0; i < nops; i++)
        size += strlen(ops[i]);
    e->n = (size_t)nops;
    e->buf = xmalloc(size);
    e->bounds = xmalloc((e->n + 1) * sizeof *e->bounds);
    size_t at = 0;
    for (size_t i = 0; i < e->n; i++) {
        size_t len = strlen(ops[i]);
        e->bounds[i] = at;
        memcpy(e->buf + at, ops[i], len);
        at += len;
        e->buf[at++] = delim;
    }
    e->bounds[e->n] = at;
}

void echo_free(echo_lines *e)
{
    free(e->buf);
    free(e->bounds);
    e->buf = NULL;
    e->bounds = NULL;
}
