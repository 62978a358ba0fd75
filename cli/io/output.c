/* SPDX-License-Identifier: MIT */
/* Buffered output with GNU shuf's write-error reporting; shards. */
#include "io/output.h"

#include "common/msg.h"
#include "common/sysio.h"
#include "common/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OUT_CAP (1u << 20)


struct outw {
    int fd;
    size_t cap;
    char *buf;
    size_t len;
    uint64_t total;    /* bytes handed to out_write/out_number */
    uint64_t first;    /* size of the first logical write */
    int any;           /* a logical write happened */
    int failed;        /* a write(2) failed; err holds its errno */
    int err;
    uint64_t written;  /* bytes write(2) took */
    int (*on_full)(void *ctx, int fd, uint64_t written); /* see out_on_full */
    void *full_ctx;
    outw **kids;       /* shards: records go round-robin to these */
    size_t nkids, next;
};

void out_fan(outw *o, outw **kids, size_t n)
{
    o->kids = kids;
    o->nkids = n;
    o->next = 0;
}

void out_header(outw *o, const void *p, size_t n)
{
    if (n == 0)
        return;
    if (o->kids == NULL) {
        (void)out_write(o, p, n);
        return;
    }
    for (size_t i = 0; i < o->nkids; i++)
        (void)out_write(o->kids[i], p, n);
}

int out_error(const outw *o)
{
    return o->failed ? o->err : 0;
}

void out_free(outw *o)
{
    if (o != NULL) {
        free(o->buf);
        free(o);
    }
}

outw *out_new(int fd)
{
    outw *o = xmalloc(sizeof *o);
    memset(o, 0, sizeof *o);
    o->fd = fd;
    o->cap = OUT_CAP;
    return o;
}

outw *out_new_cap(int fd, size_t cap)
{
    outw *o = out_new(fd);
    o->cap = cap < 4096 ? 4096 : cap;
    return o;
}

uint64_t out_total(const outw *o)
{
    uint64_t t = o->total;
    for (size_t i = 0; i < o->nkids; i++)
        t += o->kids[i]->total;
    return t;
}

void out_on_full(outw *o, int (*fn)(void *ctx, int fd, uint64_t written),
                 void *ctx)
{
    o->on_full = fn;
    o->full_ctx = ctx;
}

static int write_to(outw *o, const void *p, size_t n)
{
    uint64_t before = o->written;
    int e = write_full(o->fd, p, n, -1, &o->written);
    if ((e == ENOSPC || e == EDQUOT) && o->on_full != NULL) {
        /* Once: the hook moves the output where it fits (the fd then
           writes there, after what it took) and the rest goes again. */
        int (*fn)(void *, int, uint64_t) = o->on_full;
        o->on_full = NULL;
        if (fn(o->full_ctx, o->fd, o->written) == 0) {
            size_t done = (size_t)(o->written - before);
            e = write_full(o->fd, (const char *)p + done, n - done, -1,
                           &o->written);
        }
    }
    if (e != 0) {
        o->failed = 1;
        o->err = e;
        return -1;
    }
    return 0;
}

/* Write what is buffered: 0, or -1 after a write error (kept in o). */
int out_flush(outw *o)
{
    if (o->failed)
        return -1;
    size_t n = o->len;
    o->len = 0;
    return n ? write_to(o, o->buf, n) : 0;
}

/* n bytes of logical writes, the first of them `first` bytes long. */
static int put(outw *o, const void *p, size_t n, size_t first)
{
    if (o->failed)
        return -1;
    if (!o->any) {
        o->any = 1;
        o->first = first;
    }
    o->total += n;
    if (o->buf == NULL)
        o->buf = xmalloc(o->cap);
    if (n <= o->cap - o->len) {
        memcpy(o->buf + o->len, p, n);
        o->len += n;
        return 0;
    }
    if (out_flush(o) != 0)
        return -1;
    if (n >= o->cap)
        return write_to(o, p, n);
    memcpy(o->buf, p, n);
    o->len = n;
    return 0;
}

int out_write(outw *o, const void *p, size_t n)
{
    if (o->kids != NULL) {
        outw *k = o->kids[o->next];
        o->next = o->next + 1 == o->nkids ? 0 : o->next + 1;
        return out_write(k, p, n);
    }
    return put(o, p, n, n);
}

int out_write_many(outw *o, const void *p, size_t n, size_t first)
{
    return put(o, p, n, first);
}

int out_sharded(const outw *o) { return o->kids != NULL; }

int out_number(outw *o, uint64_t v, char delim)
{
    char tmp[24];
    char *e = tmp + sizeof tmp, *s = e;
    *--s = delim;
    do
        *--s = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    size_t n = (size_t)(e - s);
    if (o->kids != NULL)
        return out_write(o, s, n);
    if (!o->failed && o->buf != NULL && n <= o->cap - o->len) {
        /* Fast path; a short number is never GNU's first-write special
           case, so only the total matters. */
        if (!o->any) {
            o->any = 1;
            o->first = n;
        }
        o->total += n;
        memcpy(o->buf + o->len, s, n);
        o->len += n;
        return 0;
    }
    return out_write(o, s, n);
}

void out_flush_quiet(outw *o)
{
    if (o != NULL && o->kids != NULL) {
        for (size_t i = 0; i < o->nkids; i++)
            out_flush_quiet(o->kids[i]);
        return;
    }
    if (o != NULL)
        (void)out_flush(o);
}

uint64_t out_stdio_bufsize(int fd)
{
    struct stat st;
    if (fstat(fd, &st) == 0 && st.st_blksize > 0 && st.st_blksize < BUFSIZ)
        return (uint64_t)st.st_blksize;
    return BUFSIZ;
}

/* Whether GNU shuf's stdio, writing o's bytes to a file that took only
   o->written of them, would have failed before its final fclose: stdio
   writes its buffer in bufsize blocks (a first fwrite of bufsize bytes
   or more straight out, block-aligned) and the last block, partial or
   full, only at fclose. A device that takes nothing (/dev/full, a closed
   or broken pipe) fails mid-stream once the output outgrew the buffer;
   a file system that fills up, only if it did so before the last block.
   (When the output stopped at our failure, o->total counts what was
   written until then.) */
static int gnu_mid(const outw *o, uint64_t bufsize)
{
    uint64_t pre = o->total > 0 ? (o->total - 1) / bufsize * bufsize : 0;
    uint64_t direct = o->first >= bufsize ? o->first - o->first % bufsize : 0;
    return o->written < (direct > pre ? direct : pre);
}

int out_stdio_mid(uint64_t total, uint64_t took, uint64_t bufsize)
{
    outw o;
    memset(&o, 0, sizeof o);
    o.total = total;
    o.written = took;
    return gnu_mid(&o, bufsize);
}

int out_flush_before_error(outw *o, int *close_err)
{
    if (o->kids != NULL || out_flush(o) == 0)
        return 0;
    uint64_t bufsize = out_stdio_bufsize(o->fd);
    if (gnu_mid(o, bufsize))
        out_finish(o, 1); /* reports the write error and exits */
    /* stdio drops what it failed to write: fclose only closes the fd. */
    *close_err = close(o->fd) != 0 ? errno : 0;
    return -1;
}

void out_finish(outw *o, int close_fd)
{
    if (o->kids != NULL) {
        for (size_t i = 0; i < o->nkids; i++) {
            out_finish(o->kids[i], close_fd);
            free(o->kids[i]);
        }
        free(o->kids);
        o->kids = NULL;
        return;
    }
    uint64_t bufsize = out_stdio_bufsize(o->fd);
    (void)out_flush(o);
    free(o->buf);
    o->buf = NULL;
    if (o->failed) {
        /* GNU shuf writes through stdio: the failure shows mid-stream (then
           die() reports it and close_stdout() adds a bare "write error")
           when one of stdio's writes before fclose fails (gnu_mid);
           otherwise it shows only when stdout is closed, as one
           message. */
        int mid = gnu_mid(o, bufsize);
        error_msg(o->err, "write error");
        if (mid) {
            int cerr = close(o->fd) != 0 ? errno : 0;
            error_msg(cerr, "write error");
        }
        fatal_exit();
    }
    if (close_fd && close(o->fd) != 0 && !(errno == EBADF && o->total == 0)) {
        error_msg(errno, "write error");
        fatal_exit();
    }
}


void emit_text(const char *text)
{
    /* As GNU's --help and --version: a write error is reported and
       exits 1 (out_finish). */
    outw *o = out_new(STDOUT_FILENO);
    (void)out_write(o, text, strlen(text));
    out_finish(o, 1);
    exit(0);
}
