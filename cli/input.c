/* Input: whole-file reads, record scanning, and streaming records. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define READ_CHUNK ((size_t)1 << 30)
#define HUGE_MIN ((size_t)4 << 20)

/* Ask for transparent huge pages on a big buffer before it is touched:
   shuffled output visits records in random order, and 2 MiB pages keep
   those visits from missing the TLB. */
static void advise_huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
    if (n < HUGE_MIN)
        return;
    uintptr_t a = ((uintptr_t)p + ((uintptr_t)2 << 20) - 1) &
                  ~(((uintptr_t)2 << 20) - 1);
    uintptr_t e = ((uintptr_t)p + n) & ~(((uintptr_t)2 << 20) - 1);
    if (e > a)
        (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
    (void)p;
    (void)n;
#endif
}

const char *input_name;

void read_all(int fd, char delim, inbuf *in)
{
    (void)read_upto(fd, delim, in, UINT64_MAX);
}

int read_upto(int fd, char delim, inbuf *in, uint64_t max)
{
    struct stat st;
    size_t cap = (size_t)1 << 20;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        off_t pos = lseek(fd, 0, SEEK_CUR);
        if (pos < 0 || pos > st.st_size)
            pos = 0;
        uint64_t rest = (uint64_t)(st.st_size - pos);
        /* Room for the whole file, a delimiter, and an EOF probe. */
        if (rest < SIZE_MAX - 8192)
            cap = (size_t)rest + 8192;
    }
    char *buf = xmalloc(cap);
    advise_huge(buf, cap);
    size_t len = 0;
    for (;;) {
        /* Keep INBUF_SLACK bytes after the data and its final delimiter, so
           record scans may read a whole vector past a record's end. */
        if (cap - len < 2 + INBUF_SLACK) {
            if (cap > SIZE_MAX / 2)
                xalloc_die();
            cap *= 2;
            buf = xrealloc(buf, cap);
            advise_huge(buf + len, cap - len);
        }
        size_t want = cap - len - 1 - INBUF_SLACK;
        if (want > READ_CHUNK)
            want = READ_CHUNK;
        ssize_t r = read(fd, buf + len, want);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            free(buf);
            die(e, "read error");
        }
        if (r == 0)
            break;
        len += (size_t)r;
        if (len > max) {
            in->buf = buf;
            in->size = len;
            return 0;
        }
    }
    if (len > 0 && buf[len - 1] != delim)
        buf[len++] = delim;
    in->buf = buf;
    in->size = len;
    return 1;
}

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
/* 64 bytes per step: four compares folded into one 64-bit mask, then one
   push per set bit. The buffer always ends with a delimiter, so a match
   before the last byte starts a record. */
#define SCAN_BLOCKS(T)                                                         \
    {                                                                          \
        const __m128i dv = _mm_set1_epi8(delim);                               \
        for (; i + 64 <= size; i += 64) {                                      \
            const __m128i *q = (const __m128i *)(const void *)(buf + i);       \
            uint64_t m0 = (uint32_t)_mm_movemask_epi8(                         \
                _mm_cmpeq_epi8(_mm_loadu_si128(q), dv));                       \
            uint64_t m1 = (uint32_t)_mm_movemask_epi8(                         \
                _mm_cmpeq_epi8(_mm_loadu_si128(q + 1), dv));                   \
            uint64_t m2 = (uint32_t)_mm_movemask_epi8(                         \
                _mm_cmpeq_epi8(_mm_loadu_si128(q + 2), dv));                   \
            uint64_t m3 = (uint32_t)_mm_movemask_epi8(                         \
                _mm_cmpeq_epi8(_mm_loadu_si128(q + 3), dv));                   \
            uint64_t m = m0 | m1 << 16 | m2 << 32 | m3 << 48;                  \
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
/* Streaming                                                                */

#define STREAM_CAP ((size_t)1 << 20)

void stream_init(instream *s, int fd, char delim)
{
    memset(s, 0, sizeof *s);
    s->fd = fd;
    s->delim = delim;
    s->cap = STREAM_CAP;
    s->buf = xmalloc(s->cap);
}

char *stream_take(instream *s, size_t len)
{
    if (len < STREAM_TAKE_MIN || s->last != 0 || s->start != len)
        return NULL;
    size_t rest = s->end - len;
    size_t cap = rest < STREAM_CAP ? STREAM_CAP : rest;
    char *fresh = xmalloc(cap);
    memcpy(fresh, s->buf + len, rest);
    /* Shrinking a large block gives its tail pages back (mremap). */
    char *rec = xrealloc(s->buf, len);
    s->buf = fresh;
    s->cap = cap;
    s->end = rest;
    s->start = s->scan = s->last = 0;
    return rec;
}

void stream_free(instream *s)
{
    free(s->buf);
    s->buf = NULL;
}

int stream_next(instream *s, const char **rec, size_t *len)
{
    for (;;) {
        if (s->scan < s->end) {
            char *q = memchr(s->buf + s->scan, s->delim, s->end - s->scan);
            if (q != NULL) {
                size_t stop = (size_t)(q - s->buf) + 1;
                s->last = s->start;
                *rec = s->buf + s->start;
                *len = stop - s->start;
                s->start = s->scan = stop;
                return 1;
            }
            s->scan = s->end;
        }
        if (s->eof) {
            if (s->start == s->end)
                return 0;
            /* A last record without its delimiter gets one. */
            if (s->end == s->cap) {
                s->cap *= 2;
                s->buf = xrealloc(s->buf, s->cap);
            }
            s->buf[s->end++] = s->delim;
            s->last = s->start;
            *rec = s->buf + s->start;
            *len = s->end - s->start;
            s->start = s->scan = s->end;
            return 1;
        }
        if (s->end == s->cap) {
            if (s->start > 0) {
                /* Keep only the unfinished record. */
                memmove(s->buf, s->buf + s->start, s->end - s->start);
                s->end -= s->start;
                s->scan -= s->start;
                s->start = 0;
            } else {
                if (s->cap > SIZE_MAX / 2)
                    xalloc_die();
                s->cap *= 2;
                s->buf = xrealloc(s->buf, s->cap);
            }
        }
        size_t want = s->cap - s->end;
        if (want > READ_CHUNK)
            want = READ_CHUNK;
        ssize_t r = read(s->fd, s->buf + s->end, want);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            die(errno, "read error");
        }
        if (r == 0)
            s->eof = 1;
        else
            s->end += (size_t)r;
    }
}
