/* Buffered output with GNU shuf's write-error reporting, and safe -o files. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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

int out_flush(outw *o)
{
    if (o->failed)
        return -1;
    size_t n = o->len;
    o->len = 0;
    while (n > 0) {
        ssize_t w = write(o->fd, o->buf + (o->len), n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            o->failed = 1;
            o->err = errno;
            return -1;
        }
        memmove(o->buf, o->buf + w, n - (size_t)w);
        n -= (size_t)w;
    }
    return 0;
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
    return o->total;
}

static int write_all(outw *o, const char *p, size_t n)
{
    while (n > 0) {
        size_t chunk = n < ((size_t)1 << 30) ? n : (size_t)1 << 30;
        ssize_t w = write(o->fd, p, chunk);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            o->failed = 1;
            o->err = errno;
            return -1;
        }
        if (w == 0) { /* should not happen for n > 0; treat as full */
            o->failed = 1;
            o->err = ENOSPC;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int flush(outw *o)
{
    if (o->failed)
        return -1;
    size_t n = o->len;
    o->len = 0;
    return n ? write_all(o, o->buf, n) : 0;
}

int out_write(outw *o, const void *p, size_t n)
{
    if (o->kids != NULL) {
        outw *k = o->kids[o->next];
        o->next = o->next + 1 == o->nkids ? 0 : o->next + 1;
        return out_write(k, p, n);
    }
    if (o->failed)
        return -1;
    if (!o->any) {
        o->any = 1;
        o->first = n;
    }
    o->total += n;
    if (o->buf == NULL)
        o->buf = xmalloc(o->cap);
    if (n <= o->cap - o->len) {
        memcpy(o->buf + o->len, p, n);
        o->len += n;
        return 0;
    }
    if (flush(o) != 0)
        return -1;
    if (n >= o->cap)
        return write_all(o, p, n);
    memcpy(o->buf, p, n);
    o->len = n;
    return 0;
}

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
        (void)flush(o);
}

/* glibc's stdio buffer for fd: st_blksize when below BUFSIZ, else BUFSIZ. */
static uint64_t stdio_bufsize(int fd)
{
    struct stat st;
    if (fstat(fd, &st) == 0 && st.st_blksize > 0 && st.st_blksize < BUFSIZ)
        return (uint64_t)st.st_blksize;
    return BUFSIZ;
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
    uint64_t bufsize = stdio_bufsize(o->fd);
    (void)flush(o);
    free(o->buf);
    o->buf = NULL;
    if (o->failed) {
        /* GNU shuf writes through stdio: the failure shows mid-stream (then
           die() reports it and close_stdout() adds a bare "write error")
           once stdio has had to write, i.e. when the output outgrew the
           buffer or its first fwrite alone filled it; otherwise it shows
           only when stdout is closed, as one message. */
        int mid = o->total > bufsize || o->first >= bufsize;
        error_msg(o->err, "write error");
        if (mid) {
            int cerr = close(o->fd) != 0 ? errno : 0;
            error_msg(cerr, "write error");
        }
        outfile_abort();
        exit(1);
    }
    if (close_fd && close(o->fd) != 0 && !(errno == EBADF && o->total == 0)) {
        error_msg(errno, "write error");
        outfile_abort();
        exit(1);
    }
}

/* ------------------------------------------------------------------------ */
/* -o FILE                                                                  */

/* Temporaries being written, each renamed over its final path at commit.
   The signal handler walks this table, so entries are filled with signals
   blocked and paths are never freed while live. */
typedef struct tmpslot {
    char *tmp;
    const char *final;
    volatile sig_atomic_t live;
} tmpslot;

static tmpslot *slots;
static volatile sig_atomic_t nslots;
static size_t slots_cap;
static const int cleanup_signals[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM,
                                      SIGPIPE, SIGXFSZ};

static void unlink_all(void)
{
    for (sig_atomic_t i = 0; i < nslots; i++) {
        if (slots[i].live) {
            slots[i].live = 0;
            unlink(slots[i].tmp);
        }
    }
}

static void on_signal(int sig)
{
    unlink_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

static int handlers_installed;

void install_cleanup_handlers(void)
{
    if (handlers_installed)
        return;
    handlers_installed = 1;
    for (size_t i = 0; i < sizeof cleanup_signals / sizeof *cleanup_signals;
         i++) {
        struct sigaction sa, old;
        if (sigaction(cleanup_signals[i], NULL, &old) == 0 &&
            old.sa_handler == SIG_IGN)
            continue; /* keep signals the caller ignores ignored */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(cleanup_signals[i], &sa, NULL);
    }
}

void outfile_abort(void)
{
    unlink_all();
}

int outfile_open(const char *path)
{
    struct stat st, lst;
    int exists = stat(path, &st) == 0;
    int is_link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
    /* Replace only plain files we can recreate faithfully: write devices,
       FIFOs, /dev paths, symlinks and hard-linked files in place. */
    int inplace = strncmp(path, "/dev/", 5) == 0 || is_link ||
                  (exists && (!S_ISREG(st.st_mode) || st.st_nlink > 1));
    size_t plen = strlen(path);
    if (!inplace && plen + 32 < 4096) {
        const char *slash = strrchr(path, '/');
        size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
        char *tmp = xmalloc(dlen + 32);
        memcpy(tmp, path, dlen);
        snprintf(tmp + dlen, 32, ".fairshuf-tmp-XXXXXX");
        install_cleanup_handlers();
        sigset_t all, old;
        sigfillset(&all);
        sigprocmask(SIG_BLOCK, &all, &old);
        if ((size_t)nslots == slots_cap) {
            size_t cap = slots_cap ? 2 * slots_cap : 4;
            tmpslot *ns = malloc(cap * sizeof *ns);
            if (ns == NULL) {
                sigprocmask(SIG_SETMASK, &old, NULL);
                xalloc_die();
            }
            if (nslots > 0)
                memcpy(ns, slots, (size_t)nslots * sizeof *ns);
            tmpslot *os = slots;
            slots = ns; /* the handler sees either table whole */
            slots_cap = cap;
            free(os);
        }
        int fd = mkostemp(tmp, O_CLOEXEC);
        if (fd >= 0 && fd <= STDERR_FILENO) {
            int d = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
            close(fd);
            fd = d;
            if (fd < 0)
                unlink(tmp);
        }
        if (fd >= 0) {
            slots[nslots].tmp = tmp;
            slots[nslots].final = path;
            slots[nslots].live = 1;
            nslots++;
        }
        sigprocmask(SIG_SETMASK, &old, NULL);
        if (fd >= 0) {
            mode_t mode;
            if (exists) {
                mode = st.st_mode & 07777;
                if (geteuid() == 0)
                    (void)fchown(fd, st.st_uid, st.st_gid);
            } else {
                mode_t mask = umask(0);
                umask(mask);
                mode = 0666 & ~mask;
            }
            (void)fchmod(fd, mode);
            return fd;
        }
        free(tmp);
        /* No temporary possible (e.g. read-only directory): fall back to
           GNU's behaviour, which also yields GNU's error message. */
    }
    int fd = open_safer(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0)
        die(errno, "%s", quotef(path));
    return fd;
}

void outfile_commit(void)
{
    for (sig_atomic_t i = 0; i < nslots; i++) {
        if (!slots[i].live)
            continue;
        if (rename(slots[i].tmp, slots[i].final) != 0) {
            int e = errno;
            outfile_abort();
            die(e, "%s", quotef(slots[i].final));
        }
        slots[i].live = 0;
    }
}
