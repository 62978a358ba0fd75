/* SPDX-License-Identifier: MIT */
/* -o FILE and --shards files: temporaries, commit, clean-up on signals. */
#include "io/outfile.h"

#include "common/msg.h"
#include "common/quote.h"
#include "common/sysio.h"
#include "common/xalloc.h"
#include "io/output.h"
#include "io/tmpfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

/*
 * Three ways to write FILE (docs/DESIGN.md, "Output files"):
 *   DIRECT  devices, FIFOs, other non-regular files, and files of the
 *           kernel's pseudo file systems (/proc, /sys, cgroups, debugfs,
 *           tracefs, securityfs: writes there are requests to the kernel,
 *           no temporary can be made beside them and they take neither
 *           pwrite nor truncation): opened and truncated as GNU shuf does
 *           (nothing to keep);
 *   RENAME  a temporary beside FILE, given FILE's owner, group, mode and
 *           extended attributes (ACLs), renamed over it at commit;
 *   COPY    when a rename cannot keep FILE's identity (another user's file,
 *           hard links, a symlink, set-id bits, attributes we cannot copy,
 *           an unwritable directory, a path under /dev): the output goes to
 *           an unlinked spool (TMPDIR, else memory) and is copied over FILE
 *           at commit, with signals blocked and the space reserved first.
 * In both RENAME and COPY, FILE is opened for writing without truncation
 * when it is reached, so permission errors are GNU's and come at GNU's time.
 */

enum { OUT_RENAME, OUT_COPY };

/* The signal handler walks this table, so entries are filled with signals
   blocked and paths are never freed while live. It is the one piece of
   global state of the command that is not passed down: an asynchronous
   signal handler can reach nothing else. */
typedef struct tmpslot {
    char *tmp;         /* RENAME: the temporary beside FILE */
    const char *final;
    int kind;
    int wfd;           /* RENAME: the fd the writer has on tmp */
    int target;        /* COPY: FILE, opened without O_TRUNC */
    int spool;         /* COPY: the unlinked spool (the writer has a dup) */
    volatile sig_atomic_t live; /* RENAME: tmp exists and is ours */
} tmpslot;

static tmpslot *slots;
static volatile sig_atomic_t nslots;
static size_t slots_cap;
/* Every signal whose default action ends the process (and that can be
   caught): none leaves a temporary behind. */
static const int cleanup_signals[] = {
    SIGHUP,  SIGINT,    SIGQUIT, SIGTERM, SIGPIPE, SIGXFSZ, SIGXCPU,
    SIGALRM, SIGUSR1,   SIGUSR2, SIGVTALRM, SIGPROF,
#ifdef SIGPOLL
    SIGPOLL,
#endif
};

static void unlink_all(void)
{
    for (sig_atomic_t i = 0; i < nslots; i++) {
        if (slots[i].live) {
            slots[i].live = 0;
            unlink(slots[i].tmp);
        }
    }
}

static void (*volatile signal_hook)(void);

void outfile_signal_hook(void (*hook)(void)) { signal_hook = hook; }

static void on_signal(int sig)
{
    void (*hook)(void) = signal_hook;
    if (hook != NULL)
        hook();
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
        /* Only signals at their default action: one the caller ignores
           stays ignored, and one another part of the process handles
           (a fuzzer's SIGALRM timer, a profiler's SIGPROF) keeps its
           handler. */
        if (sigaction(cleanup_signals[i], NULL, &old) != 0 ||
            (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(cleanup_signals[i], &sa, NULL);
    }
}

void outfile_reset_handlers(void)
{
    for (size_t i = 0; i < sizeof cleanup_signals / sizeof *cleanup_signals;
         i++) {
        struct sigaction old;
        if (sigaction(cleanup_signals[i], NULL, &old) == 0 &&
            !(old.sa_flags & SA_SIGINFO) && old.sa_handler == on_signal)
            signal(cleanup_signals[i], SIG_DFL);
    }
}

void outfile_abort(void)
{
    unlink_all();
}

static void block_all(sigset_t *old)
{
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, old);
}

/* A new slot (signals must be blocked). */
static tmpslot *slot_add(void)
{
    if ((size_t)nslots == slots_cap) {
        size_t cap = slots_cap ? 2 * slots_cap : 4;
        tmpslot *ns = malloc(cap * sizeof *ns);
        if (ns == NULL)
            return NULL;
        if (nslots > 0)
            memcpy(ns, slots, (size_t)nslots * sizeof *ns);
        tmpslot *os = slots;
        slots = ns; /* the handler sees either table whole */
        slots_cap = cap;
        free(os);
    }
    tmpslot *s = &slots[nslots];
    memset(s, 0, sizeof *s);
    s->wfd = s->target = s->spool = -1;
    return s;
}

/* O_CREAT|O_EXCL at DIR/.fairshuf-tmp-XXXXXX with the given creation mode
   (0666 lets the umask and a default ACL act exactly as on GNU's open).
   Registers a RENAME slot for path. Returns the fd, or -1. */
static int temp_beside(const char *path, mode_t mode)
{
    static const char abc[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    size_t plen = strlen(path);
    if (plen + 32 >= 4096)
        return -1;
    const char *slash = strrchr(path, '/');
    size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
    char *tmp = xmalloc(dlen + 32);
    memcpy(tmp, path, dlen);
    install_cleanup_handlers();
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 100; tries++) {
        unsigned char r[6];
        if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
            break;
        char sfx[7];
        for (int i = 0; i < 6; i++)
            sfx[i] = abc[r[i] % (sizeof abc - 1)];
        sfx[6] = '\0';
        snprintf(tmp + dlen, 32, ".fairshuf-tmp-%s", sfx);
        sigset_t old;
        block_all(&old);
        tmpslot *s = slot_add();
        if (s != NULL) {
            fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode);
            if (fd >= 0) {
                s->tmp = tmp;
                s->final = path;
                s->kind = OUT_RENAME;
                s->live = 1;
                nslots++;
                fd = fd_high(fd);
                s->wfd = fd;
                if (fd < 0) {
                    s->live = 0;
                    unlink(tmp);
                }
            }
        }
        sigprocmask(SIG_SETMASK, &old, NULL);
        if (s == NULL)
            xalloc_die();
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0)
        free(tmp);
    return fd;
}

/* Drop the last slot, a RENAME temporary that will not be used. */
static void temp_discard(int fd)
{
    sigset_t old;
    block_all(&old);
    tmpslot *s = &slots[nslots - 1];
    if (s->live) {
        s->live = 0;
        unlink(s->tmp);
    }
    nslots--;
    sigprocmask(SIG_SETMASK, &old, NULL);
    free(s->tmp);
    close(fd);
}

/* Extended attribute names of fd ("" on file systems without them);
   NULL on error. *n gets the list's size. */
static char *xattr_list(int fd, ssize_t *n)
{
    for (int tries = 0; tries < 4; tries++) {
        ssize_t k = flistxattr(fd, NULL, 0);
        if (k < 0 && (errno == ENOTSUP || errno == ENOSYS)) {
            *n = 0;
            return xmalloc(1);
        }
        if (k < 0)
            return NULL;
        char *l = xmalloc((size_t)k + 1);
        *n = flistxattr(fd, l, (size_t)k);
        if (*n >= 0)
            return l;
        free(l);
        if (errno != ERANGE)
            return NULL;
    }
    return NULL;
}

static int in_list(const char *l, ssize_t n, const char *name)
{
    for (ssize_t i = 0; i < n; i += (ssize_t)strlen(l + i) + 1)
        if (strcmp(l + i, name) == 0)
            return 1;
    return 0;
}

/* Value of attribute name on fd (malloc'd, size in *len); NULL on error. */
static char *xattr_get(int fd, const char *name, ssize_t *len)
{
    ssize_t k = fgetxattr(fd, name, NULL, 0);
    if (k < 0)
        return NULL;
    char *v = xmalloc((size_t)k + 1);
    *len = fgetxattr(fd, name, v, (size_t)k);
    if (*len < 0) {
        free(v);
        return NULL;
    }
    return v;
}

/* Make dst's extended attributes (ACLs included) those of src: 0, or -1
   when that is not possible (then a rename would change the file). */
static int copy_xattrs(int src, int dst)
{
    ssize_t ns, nd;
    char *ls = xattr_list(src, &ns);
    char *ld = ls ? xattr_list(dst, &nd) : NULL;
    int rc = ls && ld ? 0 : -1;
    for (ssize_t i = 0; rc == 0 && i < nd; i += (ssize_t)strlen(ld + i) + 1)
        if (!in_list(ls, ns, ld + i) && fremovexattr(dst, ld + i) != 0)
            rc = -1; /* e.g. an ACL inherited from the directory */
    for (ssize_t i = 0; rc == 0 && i < ns; i += (ssize_t)strlen(ls + i) + 1) {
        const char *name = ls + i;
        ssize_t vs, vd = -1;
        char *v = xattr_get(src, name, &vs);
        char *w = v ? xattr_get(dst, name, &vd) : NULL;
        if (v == NULL)
            rc = -1;
        else if ((w == NULL || vd != vs || memcmp(v, w, (size_t)vs) != 0) &&
                 fsetxattr(dst, name, v, (size_t)vs, 0) != 0)
            rc = -1;
        free(v);
        free(w);
    }
    free(ls);
    free(ld);
    return rc;
}

/* The directory part of path, stat'ed. */
static int stat_dir(const char *path, struct stat *st)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL)
        return stat(".", st);
    size_t n = (size_t)(slash - path) + 1;
    char *d = xmalloc(n + 1);
    memcpy(d, path, n);
    d[n] = '\0';
    int rc = stat(d, st);
    free(d);
    return rc;
}

/* A temporary beside path that will be FILE (open as fd, status st) after
   a rename with nothing but its contents and inode changed; -1 when a
   rename cannot promise that. */
static int temp_like(const char *path, int fd, const struct stat *st,
                     const struct stat *lst)
{
    uid_t me = geteuid();
    struct stat dir;
    if (S_ISLNK(lst->st_mode) || st->st_nlink != 1 ||
        (st->st_mode & (S_ISUID | S_ISGID)) != 0 || /* a write clears them */
        (me != 0 && st->st_uid != me) || stat_dir(path, &dir) != 0)
        return -1;
    /* Renaming over another user's file in a sticky directory needs
       CAP_FOWNER; GNU's in-place write needs none. */
    if ((dir.st_mode & S_ISVTX) && me != 0 && st->st_uid != me &&
        dir.st_uid != me)
        return -1;
    int t = temp_beside(path, 0600);
    if (t < 0)
        return -1;
    struct stat ts;
    int ok = fstat(t, &ts) == 0;
    if (ok && (ts.st_uid != st->st_uid || ts.st_gid != st->st_gid))
        ok = fchown(t, ts.st_uid != st->st_uid ? st->st_uid : (uid_t)-1,
                    ts.st_gid != st->st_gid ? st->st_gid : (gid_t)-1) == 0;
    ok = ok && fchmod(t, st->st_mode & 07777) == 0;
    ok = ok && copy_xattrs(fd, t) == 0;
    ok = ok && fstat(t, &ts) == 0 && ts.st_uid == st->st_uid &&
         ts.st_gid == st->st_gid &&
         (ts.st_mode & 07777) == (st->st_mode & 07777);
    if (!ok) {
        temp_discard(t);
        return -1;
    }
    return t;
}

/* outfile_memory_spool: the spool may be memory (no --memory cap). */
static int memory_spool_ok = 1;

void outfile_memory_spool(int allowed)
{
    memory_spool_ok = allowed;
}

/* An unlinked spool for COPY: in the -T/TMPDIR directory, else memory
   (when allowed). */
static int spool_create(const char *tmpdir)
{
    int fd = tmp_unlinked(tmpdir);
    if (fd < 0 && memory_spool_ok)
        fd = fd_high(memfd_create("fairshuf-output", MFD_CLOEXEC));
    if (fd < 0)
        die(errno, "cannot create temporary file in %s", quotef(tmpdir));
    return fd;
}

/* Write through a spool copied over FILE (open as target) at commit. */
static int copy_mode(const char *path, int target, const char *tmpdir)
{
    int spool = spool_create(tmpdir);
    int w = fcntl(spool, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    if (w < 0)
        die(errno, "%s", quotef(path));
    sigset_t old;
    block_all(&old);
    tmpslot *s = slot_add();
    if (s != NULL) {
        s->final = path;
        s->kind = OUT_COPY;
        s->target = target;
        s->spool = spool;
        nslots++;
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (s == NULL)
        xalloc_die();
    return w;
}

/* GNU's open: O_TRUNC, and its message when that fails. */
static int open_direct(const char *path)
{
    int fd = open_safer(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0)
        die(freopen_errno(STDOUT_FILENO, errno), "%s", quotef(path));
    return fd;
}

/* 1 if path is on one of the kernel's pseudo file systems. */
static int on_pseudo_fs(const char *path)
{
    struct statfs fs;
    if (statfs(path, &fs) != 0)
        return 0;
    return pseudo_fs_type((unsigned long)fs.f_type);
}

int outfile_open_ex(const char *path, const char *tmpdir, int *direct)
{
    struct stat st, lst;
    int under_dev = strncmp(path, "/dev/", 5) == 0;
    *direct = 1;
    if (stat(path, &st) == 0 && (!S_ISREG(st.st_mode) || on_pseudo_fs(path)))
        return open_direct(path);
    if (lstat(path, &lst) != 0) {
        /* "" is ENOENT too, but a temporary "beside" it would be made in
           the current directory: the error must come now, as GNU's. */
        if (errno != ENOENT || under_dev || *path == '\0')
            return open_direct(path); /* GNU's error, or its behaviour */
        *direct = 0;
        /* A new file: created with GNU's mode so the umask or a default
           ACL act as on GNU's open. */
        int t = temp_beside(path, 0666);
        if (t >= 0)
            return t;
        return copy_mode(path, open_direct(path), tmpdir);
    }
    /* FILE exists: check it is writable as GNU's open would, touching
       nothing (O_CREAT: a dangling symlink's target is created, as GNU
       does). */
    int fd = open_safer(path, O_WRONLY | O_CREAT, 0666);
    if (fd < 0)
        die(freopen_errno(STDOUT_FILENO, errno), "%s", quotef(path));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return fd; /* became a FIFO or device meanwhile: write it */
    *direct = 0;
    if (!under_dev) {
        int t = temp_like(path, fd, &st, &lst);
        if (t >= 0) {
            close(fd);
            return t;
        }
    }
    return copy_mode(path, fd, tmpdir);
}

int outfile_open(const char *path, const char *tmpdir)
{
    int direct;
    return outfile_open_ex(path, tmpdir, &direct);
}

int outfile_open_named(const char *path, const char *tmpdir,
                       const char **tmp)
{
    sig_atomic_t before = nslots;
    int fd = outfile_open(path, tmpdir);
    *tmp = nslots > before && slots[nslots - 1].kind == OUT_RENAME &&
                   slots[nslots - 1].live
               ? slots[nslots - 1].tmp
               : NULL;
    return fd;
}

void outfile_drop(const char *path)
{
    sigset_t old;
    block_all(&old);
    for (sig_atomic_t i = 0; i < nslots; i++) {
        tmpslot *s = &slots[i];
        if (strcmp(s->final, path) != 0)
            continue;
        if (s->kind == OUT_COPY && s->target >= 0) {
            close(s->spool);
            close(s->target);
            s->target = s->spool = -1;
        } else if (s->live) {
            s->live = 0;
            unlink(s->tmp);
        }
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
}

/* Copy src[0..size) to dst at the same offsets: 0 or an errno. */
static int copy_bytes(int src, int dst, off_t size)
{
    enum { CHUNK = 1 << 20 };
    char *buf = xmalloc(CHUNK);
    int err = 0;
    for (off_t off = 0; err == 0 && off < size;) {
        ssize_t r = pread_retry(src, buf, CHUNK, off);
        if (r <= 0) {
            err = r < 0 ? errno : EIO;
            continue;
        }
        err = write_full(dst, buf, (size_t)r, off, NULL);
        off += r;
    }
    free(buf);
    return err;
}

/* Copy src (all of it) over dst and cut dst there: 0 or an errno. The
   space is reserved first, so a full disk leaves dst untouched. */
static int copy_over(int src, int dst)
{
    struct stat s;
    if (fstat(src, &s) != 0)
        return errno;
    off_t size = s.st_size;
    if (size > 0 && fallocate(dst, FALLOC_FL_KEEP_SIZE, 0, size) != 0 &&
        (errno == ENOSPC || errno == EDQUOT || errno == EFBIG))
        return errno;
    int err = copy_bytes(src, dst, size);
    if (err == 0 && ftruncate(dst, size) != 0)
        err = errno;
    return err;
}

int outfile_respool(int fd, uint64_t written, const char *tmpdir)
{
    tmpslot *s = NULL;
    for (sig_atomic_t i = 0; i < nslots; i++)
        if (slots[i].kind == OUT_RENAME && slots[i].live && slots[i].wfd == fd)
            s = &slots[i];
    if (s == NULL || written > (uint64_t)INT64_MAX)
        return -1;
    /* FILE as it is now: a new FILE (created meanwhile or not) frees no
       space, and one replaced by another kind of file is left alone. */
    int target = open_safer(s->final, O_WRONLY, 0);
    struct stat st;
    if (target < 0)
        return -1;
    if (fstat(target, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
        close(target);
        return -1;
    }
    /* The spool: TMPDIR, else memory (TMPDIR may be the full file
       system), unless --memory capped it: the whole output in memory
       would exceed the cap, so the write error stands (FILE is kept). */
    int spool = -1;
    for (int where = 0; spool < 0 && where < (memory_spool_ok ? 2 : 1); where++) {
        spool = where == 0 ? tmp_unlinked(tmpdir)
                           : fd_high(memfd_create("fairshuf-output",
                                                  MFD_CLOEXEC));
        if (spool >= 0 && copy_bytes(fd, spool, (off_t)written) != 0) {
            close(spool);
            spool = -1;
        }
    }
    int keep = spool < 0 ? -1 : fcntl(spool, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    sigset_t old;
    block_all(&old);
    /* The writer's fd becomes the spool, positioned after its bytes. */
    if (keep < 0 || dup3(spool, fd, O_CLOEXEC) < 0 ||
        lseek(fd, (off_t)written, SEEK_SET) < 0) {
        sigprocmask(SIG_SETMASK, &old, NULL);
        if (keep >= 0)
            close(keep);
        if (spool >= 0)
            close(spool);
        close(target);
        return -1;
    }
    close(spool);
    s->live = 0;
    unlink(s->tmp);
    s->kind = OUT_COPY;
    s->wfd = -1;
    s->target = target;
    s->spool = keep;
    sigprocmask(SIG_SETMASK, &old, NULL);
    return 0;
}

/* A rename that failed after all (e.g. EPERM where we predicted none):
   copy the temporary over FILE instead. */
static int rename_fallback(tmpslot *s)
{
    int src = open_safer(s->tmp, O_RDONLY, 0);
    if (src < 0 && errno == EACCES && chmod(s->tmp, 0600) == 0)
        src = open_safer(s->tmp, O_RDONLY, 0);
    int dst = src < 0 ? -1 : open_safer(s->final, O_WRONLY | O_CREAT, 0666);
    if (dst < 0) {
        if (src >= 0)
            close(src);
        return -1;
    }
    int err = copy_over(src, dst);
    close(src);
    if (close(dst) != 0 && err == 0)
        err = errno;
    if (err != 0)
        die(err, "write error");
    return 0;
}

/* What GNU's in-place write of FILE (open as fd) could have put in it
   before it failed: the free space of its file system (the reserve too,
   for root) and FILE's own blocks, which its truncation frees, or the
   file size limit if lower. */
static uint64_t room(int fd)
{
    struct statvfs v;
    struct stat st;
    struct rlimit lim;
    if (fstatvfs(fd, &v) != 0 || fstat(fd, &st) != 0)
        return 0;
    uint64_t blocks = geteuid() == 0 ? v.f_bfree : v.f_bavail;
    uint64_t r = blocks * v.f_frsize + (uint64_t)st.st_blocks * 512;
    if (getrlimit(RLIMIT_FSIZE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY &&
        lim.rlim_cur < r)
        r = lim.rlim_cur;
    return r;
}

void outfile_commit(void)
{
    /* With every signal blocked, FILE holds either all of the old or all
       of the new contents when a signal arrives. */
    sigset_t old;
    block_all(&old);
    for (sig_atomic_t i = 0; i < nslots; i++) {
        tmpslot *s = &slots[i];
        if (s->kind == OUT_COPY && s->target >= 0) {
            struct stat sp;
            uint64_t size = fstat(s->spool, &sp) == 0 ? (uint64_t)sp.st_size : 0;
            uint64_t bufsize = out_stdio_bufsize(s->target);
            uint64_t took = room(s->target);
            int err = copy_over(s->spool, s->target);
            close(s->spool);
            if (close(s->target) != 0 && err == 0)
                err = errno;
            s->target = s->spool = -1;
            if (err != 0) {
                /* As GNU's in-place write reports it (out_finish): a
                   second, bare line when stdio failed before fclose. */
                if (out_stdio_mid(size, took, bufsize)) {
                    error_msg(err, "write error");
                    die(0, "write error");
                }
                die(err, "write error");
            }
            continue;
        }
        if (!s->live)
            continue;
        if (rename(s->tmp, s->final) != 0) {
            int e = errno;
            if (rename_fallback(s) != 0) {
                outfile_abort();
                die(e, "%s", quotef(s->final));
            }
            unlink(s->tmp);
        }
        s->live = 0;
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
}
