/* SPDX-License-Identifier: MIT */
/* Input: the input file, whole-input reads and the record reader. */
#include "io/input.h"

#include "common/msg.h"
#include "common/quote.h"
#include "common/sysio.h"
#include "common/xalloc.h"
#include "io/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
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
            die(freopen_errno(STDIN_FILENO, errno), "%s", quotef(path));
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

void input_wait(int fd, void (*tick)(void *, uint64_t, uint64_t), void *ctx,
                uint64_t done, uint64_t expect)
{
    /* Ready, at end, an error or a signal: the read that follows says
       which (a regular file is always ready). */
    struct pollfd p = {fd, POLLIN, 0};
    while (poll(&p, 1, 200) == 0)
        tick(ctx, done, expect);
}

void read_all(int fd, char delim, inbuf *in)
{
    (void)read_upto(fd, delim, in, UINT64_MAX);
}

int read_upto(int fd, char delim, inbuf *in, uint64_t max)
{
    return read_upto_ticking(fd, delim, in, max, NULL, NULL);
}

int read_upto_ticking(int fd, char delim, inbuf *in, uint64_t max,
                      void (*tick)(void *, uint64_t, uint64_t), void *ctx)
{
    struct stat st;
    size_t cap = (size_t)1 << 20;
    uint64_t expect = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        off_t pos = lseek(fd, 0, SEEK_CUR);
        if (pos < 0 || pos > st.st_size)
            pos = 0;
        uint64_t rest = (uint64_t)(st.st_size - pos);
        expect = rest;
        /* Room for the whole file, a delimiter, and an EOF probe. */
        if (rest < SIZE_MAX - 8192)
            cap = (size_t)rest + 8192;
    }
    char *buf = xmalloc(cap);
    advise_huge(buf, cap);
    size_t len = 0;
    if (tick != NULL)
        tick(ctx, 0, expect); /* before the first byte, which may take time */
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
        if (tick != NULL)
            input_wait(fd, tick, ctx, len, expect >= len ? expect : 0);
        ssize_t r = read_retry(fd, buf + len, want);
        if (r < 0) {
            int e = errno;
            free(buf);
            die(e, "read error");
        }
        if (r == 0)
            break;
        len += (size_t)r;
        if (tick != NULL)
            tick(ctx, len, expect >= len ? expect : 0);
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
/* The mapped input                                                         */

/* The SIGBUS handler's view of the mapping: set before the handler is
   installed, cleared after it is removed. */
static volatile uintptr_t bus_lo, bus_hi;
static char *bus_msg;
static size_t bus_len;
static struct sigaction bus_old;

static atomic_flag bus_once = ATOMIC_FLAG_INIT;

static void on_bus(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    uintptr_t a = (uintptr_t)si->si_addr;
    if (a >= bus_lo && a < bus_hi) {
        /* The file lost pages we had mapped: a truncation under us. The
           writing threads may fault at once, each in this handler: the
           first reports it, the others wait for its _exit (two messages
           were printed under ASan's slower threads). */
        if (atomic_flag_test_and_set(&bus_once))
            for (;;)
                pause();
        outfile_abort();
        ssize_t w = write(STDERR_FILENO, bus_msg, bus_len);
        (void)w;
        _exit(1);
    }
    /* Not ours: back to the old action, and the access faults again. */
    sigaction(SIGBUS, &bus_old, NULL);
}

int input_map(int fd, char delim, uint64_t max, const char *name, inbuf *in,
              inmap *m)
{
    m->base = NULL;
    m->len = 0;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    off_t pos = lseek(fd, 0, SEEK_CUR);
    if (pos < 0 || pos >= st.st_size)
        return 0;
    uint64_t rest = (uint64_t)(st.st_size - pos);
    long pg = sysconf(_SC_PAGESIZE);
    if (pg <= 0 || rest > max || rest > SIZE_MAX / 2)
        return 0;
    size_t page = (size_t)pg;
    off_t at = pos & ~(off_t)(page - 1);
    size_t skew = (size_t)(pos - at);
    size_t flen = skew + (size_t)rest;
    size_t fpages = (flen + page - 1) & ~(page - 1);
    size_t total = fpages + ((1 + INBUF_SLACK + page - 1) & ~(page - 1));
    /* Anonymous zero pages first, the file over their start: the bytes
       after the file's end are ours (a delimiter, the slack). */
    char *base = mmap(NULL, total, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
        return 0;
    /* No MAP_POPULATE and no madvise: measured on the 1 GB file, the
       kernel's fault-around (16 pages a fault) during the scan beats
       populating up front, MADV_WILLNEED, MADV_SEQUENTIAL and
       MADV_HUGEPAGE (docs/PERFORMANCE.md, issue 13). */
    if (mmap(base, flen, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, at) ==
        MAP_FAILED) {
        munmap(base, total);
        return 0;
    }
    const char *who = name != NULL ? quotef(name) : "standard input";
    size_t cap = strlen(program_name) + strlen(who) + 40;
    char *msg = xmalloc(cap);
    int len = snprintf(msg, cap, "%s: %s: file changed as we read it\n",
                       program_name, who);
    free(bus_msg);
    bus_msg = msg;
    bus_len = len > 0 ? (size_t)len : 0;
    bus_lo = (uintptr_t)base;
    bus_hi = (uintptr_t)base + fpages;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_bus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, &bus_old);
    char *buf = base + skew;
    size_t size = (size_t)rest;
    if (buf[size - 1] != delim) {
        if (flen < fpages) {
            /* The end of the last file page: make it a private copy. */
            char *last = base + fpages - page;
            if (mprotect(last, page, PROT_READ | PROT_WRITE) != 0) {
                m->base = base;
                m->len = total;
                input_unmap(m);
                return 0;
            }
        }
        buf[size++] = delim;
    }
    /* As a read to the end would leave it. */
    (void)lseek(fd, pos + (off_t)rest, SEEK_SET);
    m->base = base;
    m->len = total;
    in->buf = buf;
    in->size = size;
    return 1;
}

void input_unmap(inmap *m)
{
    if (m->base == NULL)
        return;
    sigaction(SIGBUS, &bus_old, NULL);
    bus_lo = bus_hi = 0;
    free(bus_msg);
    bus_msg = NULL;
    munmap(m->base, m->len);
    m->base = NULL;
    m->len = 0;
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

void reader_ticking(reader *r, void (*tick)(void *, uint64_t, uint64_t),
                    void *ctx)
{
    uint64_t size = input_size(r->fd);
    r->tick = tick;
    r->tick_ctx = ctx;
    r->expect = size == UINT64_MAX ? 0 : size;
    tick(ctx, 0, r->expect);
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
    uint64_t expect = r->expect >= r->raw ? r->expect : 0;
    if (r->tick != NULL && want > 0)
        input_wait(r->fd, r->tick, r->tick_ctx, r->raw, expect);
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
    if (r->tick != NULL)
        r->tick(r->tick_ctx, r->raw, r->expect >= r->raw ? r->expect : 0);
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
