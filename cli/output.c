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
    char *buf;
    size_t len;
    uint64_t total;    /* bytes handed to out_write/out_number */
    uint64_t first;    /* size of the first logical write */
    int any;           /* a logical write happened */
    int failed;        /* a write(2) failed; err holds its errno */
    int err;
};

outw *out_new(int fd)
{
    outw *o = xmalloc(sizeof *o);
    memset(o, 0, sizeof *o);
    o->fd = fd;
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
    if (o->failed)
        return -1;
    if (!o->any) {
        o->any = 1;
        o->first = n;
    }
    o->total += n;
    if (o->buf == NULL)
        o->buf = xmalloc(OUT_CAP);
    if (n <= OUT_CAP - o->len) {
        memcpy(o->buf + o->len, p, n);
        o->len += n;
        return 0;
    }
    if (flush(o) != 0)
        return -1;
    if (n >= OUT_CAP)
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
    if (!o->failed && o->buf != NULL && n <= OUT_CAP - o->len) {
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

static char tmp_path[4096];
static volatile sig_atomic_t tmp_live;
static const char *final_path;
static const int cleanup_signals[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM,
                                      SIGPIPE, SIGXFSZ};

static void on_signal(int sig)
{
    if (tmp_live) {
        unlink(tmp_path);
        tmp_live = 0;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handlers(void)
{
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
    if (tmp_live) {
        tmp_live = 0;
        unlink(tmp_path);
    }
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
    if (!inplace && plen + 32 < sizeof tmp_path) {
        const char *slash = strrchr(path, '/');
        size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
        memcpy(tmp_path, path, dlen);
        snprintf(tmp_path + dlen, sizeof tmp_path - dlen,
                 ".fairshuf-tmp-XXXXXX");
        install_handlers();
        sigset_t all, old;
        sigfillset(&all);
        sigprocmask(SIG_BLOCK, &all, &old);
        int fd = mkostemp(tmp_path, O_CLOEXEC);
        if (fd >= 0 && fd <= STDERR_FILENO) {
            int d = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
            close(fd);
            fd = d;
            if (fd < 0)
                unlink(tmp_path);
        }
        if (fd >= 0)
            tmp_live = 1;
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
            final_path = path;
            return fd;
        }
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
    if (!tmp_live)
        return;
    if (rename(tmp_path, final_path) != 0) {
        int e = errno;
        outfile_abort();
        die(e, "%s", quotef(final_path));
    }
    tmp_live = 0;
}
