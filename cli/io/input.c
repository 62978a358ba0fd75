/* SPDX-License-Identifier: MIT */
/* Input: the input file, whole-input reads and the record reader. */
#include "io/input.h"

#include "common/msg.h"
#include "common/quote.h"
#include "common/sysio.h"
#include "common/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_CHUNK ((size_t)1 << 30)
#define HUGE_MIN ((size_t)4 << 20)

int input_open(const char *path)
{
    if (path != NULL && strcmp(path, "-") != 0) {
        int fd = open_safer(path, O_RDONLY, 0);
        if (fd < 0)
            die(errno, "%s", quotef(path));
        /* GNU reopens the file as stdin (freopen), so a later
           --random-source=/dev/stdin names the input file: do the same. */
        if (dup2(fd, STDIN_FILENO) < 0)
            die(errno, "%s", quotef(path));
        close(fd);
    }
    return STDIN_FILENO;
}

void input_close(int fd)
{
    if (close(fd) != 0)
        die(errno, "read error");
}

uint64_t input_size(int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return UINT64_MAX;
    off_t pos = lseek(fd, 0, SEEK_CUR);
    if (pos < 0)
        return UINT64_MAX;
    return (uint64_t)(st.st_size - pos);
}

/* Ask for transparent huge pages on a big buffer before it is touched:
   shuffled output visits records in random order, and 2 MiB pages keep
   those visits from missing the TLB. */
void advise_huge(void *p, size_t n)
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
        ssize_t r = read_retry(fd, buf + len, want);
        if (r < 0) {
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

/* ------------------------------------------------------------------------ */
/* The record reader                                                        */

void reader_init(reader *r, int fd, char delim, size_t cap, uint64_t limit,
                 fhash *hash)
{
    memset(r, 0, sizeof *r);
    r->fd = fd;
    r->delim = delim;
    r->cap = cap;
    r->buf = xmalloc(cap + 1);
    r->left = limit;
    r->hash = hash;
}

void reader_free(reader *r)
{
    free(r->buf);
    r->buf = NULL;
}

/* Keep only the unfinished record, make room, and read: the one read loop
   of the reader (EOF sets r->eof). */
static void fill(reader *r)
{
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->end -= r->start;
        r->scan -= r->start;
        r->start = r->last = 0;
    }
    if (r->end == r->cap) {
        if (r->cap > SIZE_MAX / 2 - 1)
            xalloc_die();
        r->cap *= 2;
        r->buf = xrealloc(r->buf, r->cap + 1);
    }
    size_t want = r->cap - r->end;
    if (want > READ_CHUNK)
        want = READ_CHUNK;
    if (want > r->left)
        want = (size_t)r->left;
    ssize_t n = want > 0 ? read_retry(r->fd, r->buf + r->end, want) : 0;
    if (n < 0)
        die(errno, "read error");
    if (n == 0) {
        r->eof = 1;
        return;
    }
    if (r->hash != NULL)
        fhash_update(r->hash, r->buf + r->end, (size_t)n);
    r->end += (size_t)n;
    r->raw += (uint64_t)n;
    r->left -= (uint64_t)n;
}

int reader_next(reader *r, const char **rec, size_t *len)
{
    for (;;) {
        if (r->scan < r->end) {
            char *q = memchr(r->buf + r->scan, r->delim, r->end - r->scan);
            if (q != NULL) {
                size_t stop = (size_t)(q - r->buf) + 1;
                r->last = r->start;
                *rec = r->buf + r->start;
                *len = stop - r->start;
                r->bytes += *len;
                r->start = r->scan = stop;
                return 1;
            }
            r->scan = r->end;
        }
        if (r->eof) {
            if (r->start == r->end)
                return 0;
            r->buf[r->end++] = r->delim; /* room: cap + 1 */
            continue;
        }
        fill(r);
    }
}

int reader_block(reader *r, const char **p, size_t *len)
{
    for (;;) {
        if (r->start < r->end) {
            char *last = memrchr(r->buf + r->start, r->delim,
                                 r->end - r->start);
            if (last != NULL) {
                size_t stop = (size_t)(last - r->buf) + 1;
                *p = r->buf + r->start;
                *len = stop - r->start;
                r->bytes += *len;
                r->start = r->scan = stop;
                return 1;
            }
            if (r->eof) {
                r->buf[r->end++] = r->delim; /* room: cap + 1 */
                continue;
            }
        } else if (r->eof) {
            return 0;
        }
        fill(r);
    }
}

char *reader_take(reader *r, size_t len)
{
    if (len < TAKE_MIN || r->last != 0 || r->start != len)
        return NULL;
    size_t rest = r->end - len;
    size_t cap = rest < ((size_t)1 << 20) ? (size_t)1 << 20 : rest;
    char *fresh = xmalloc(cap + 1);
    memcpy(fresh, r->buf + len, rest);
    /* Shrinking a large block gives its tail pages back (mremap). */
    char *rec = xrealloc(r->buf, len);
    r->buf = fresh;
    r->cap = cap;
    r->end = rest;
    r->start = r->scan = r->last = 0;
    return rec;
}
