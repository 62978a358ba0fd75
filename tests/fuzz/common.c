/* SPDX-License-Identifier: MIT */
/* Shared helpers for the fuzz harnesses: exit/allocation wrappers, the
   sandbox directory, in-process CLI runs with captured output. */
#include "fuzz.h"
#include "common/msg.h"
#include "fairshuf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

void fz_fail(const char *file, int line, const char *what)
{
    fprintf(stderr, "%s:%d: property failed: %s\n", file, line, what);
    fflush(stderr);
    abort();
}

/* ------------------------------------------------------------------------ */
/* exit() and allocation wrappers (-Wl,--wrap=...)                           */

static atomic_int in_target;
static jmp_buf *catcher;
static int caught_status;
static pthread_t catcher_thread;

void *__wrap_malloc(size_t n)
{
    if (atomic_load(&in_target) && n > FZ_ALLOC_LIMIT)
        return NULL;
    return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t m)
{
    if (atomic_load(&in_target) && m != 0 && n > FZ_ALLOC_LIMIT / m)
        return NULL;
    return __real_calloc(n, m);
}

void *__wrap_realloc(void *p, size_t n)
{
    if (atomic_load(&in_target) && n > FZ_ALLOC_LIMIT)
        return NULL;
    return __real_realloc(p, n);
}

void __wrap_exit(int status)
{
    /* Only the thread that entered fz_catch may jump back; an exit from a
       worker thread is a real exit (libFuzzer reports it). */
    if (atomic_load(&in_target) && catcher != NULL &&
        pthread_equal(pthread_self(), catcher_thread)) {
        caught_status = status;
        longjmp(*catcher, 1);
    }
    __real_exit(status);
}

int fz_catch(void (*fn)(void *ctx), void *ctx)
{
    jmp_buf here;
    jmp_buf *volatile saved = catcher;
    if (setjmp(here) == 0) {
        catcher = &here;
        catcher_thread = pthread_self();
        atomic_store(&in_target, 1);
        fn(ctx);
        atomic_store(&in_target, 0);
        catcher = saved;
        return -1;
    }
    atomic_store(&in_target, 0);
    catcher = saved;
    return caught_status;
}

/* ------------------------------------------------------------------------ */
/* Sandbox                                                                  */

static char *sandbox;

static void sandbox_clean(void)
{
    DIR *d = opendir(sandbox);
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (unlinkat(dirfd(d), e->d_name, 0) != 0)
            (void)unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
    }
    closedir(d);
}

static void sandbox_remove(void)
{
    sandbox_clean();
    (void)rmdir(sandbox);
}

const char *fz_sandbox(void)
{
    if (sandbox != NULL)
        return sandbox;
    const char *t = getenv("TMPDIR");
    if (t == NULL || *t == '\0')
        t = "/tmp";
    size_t n = strlen(t) + 32;
    sandbox = __real_malloc(n);
    FZ_CHECK(sandbox != NULL);
    snprintf(sandbox, n, "%s/fairshuf-fuzz.XXXXXX", t);
    FZ_CHECK(mkdtemp(sandbox) != NULL);
    /* The CLI puts its temporary files under $TMPDIR (bigopts_defaults). */
    setenv("TMPDIR", sandbox, 1);
    atexit(sandbox_remove);
    /* Oversized files fail with EFBIG instead of killing the process (the
       CLI keeps ignored signals ignored). */
    signal(SIGXFSZ, SIG_IGN);
    return sandbox;
}

static void write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        FZ_CHECK(w > 0);
        p += w;
        len -= (size_t)w;
    }
}

void fz_put_file(const char *name, const void *data, size_t len)
{
    int dir = open(fz_sandbox(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    FZ_CHECK(dir >= 0);
    int fd = openat(dir, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    FZ_CHECK(fd >= 0);
    write_all(fd, data, len);
    close(fd);
    close(dir);
}

int fz_input_fd(const void *data, size_t len, int kind)
{
    if (kind == 1) {
        int p[2];
        FZ_CHECK(pipe(p) == 0);
        FZ_CHECK(len <= 65536);
        write_all(p[1], data, len);
        close(p[1]);
        return p[0];
    }
    int fd = memfd_create("fz-in", MFD_CLOEXEC);
    FZ_CHECK(fd >= 0);
    write_all(fd, data, len);
    FZ_CHECK(lseek(fd, 0, SEEK_SET) == 0);
    return fd;
}

/* ------------------------------------------------------------------------ */
/* In-process CLI runs                                                      */

typedef struct call {
    int (*cmd)(int, char **);
    int argc;
    char **argv;
    int rc;
} call;

static void run_call(void *ctx)
{
    call *c = ctx;
    c->rc = c->cmd(c->argc, c->argv);
}

/* Open descriptors (a bitmap of FD_MAX bits) from /proc/self/fd. */
enum { FD_MAX = 4096 };

static void open_fds(unsigned char *map)
{
    memset(map, 0, FD_MAX / 8);
    DIR *d = opendir("/proc/self/fd");
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        int fd = atoi(e->d_name);
        if (e->d_name[0] >= '0' && e->d_name[0] <= '9' && fd != dirfd(d) &&
            fd < FD_MAX)
            map[fd / 8] = (unsigned char)(map[fd / 8] | 1u << (fd % 8));
    }
    closedir(d);
}

/* Close what the run left open: the CLI's error paths (die() with a
   --random-source or input file open) rely on exit() to close them. */
static void close_new_fds(const unsigned char *before)
{
    unsigned char after[FD_MAX / 8];
    open_fds(after);
    for (int fd = 3; fd < FD_MAX; fd++)
        if ((after[fd / 8] >> (fd % 8) & 1) && !(before[fd / 8] >> (fd % 8) & 1))
            close(fd);
}

static const char default_in[] = "one\ntwo\nthree\nfour\nfive\n";

const fz_run *fz_cli(int (*cmd)(int, char **), int argc, char **argv,
                     const void *stdin_data, size_t stdin_len)
{
    static fz_run res;
    static int outfd = -1;
    free(res.out);
    free(res.err);
    memset(&res, 0, sizeof res);
    if (outfd < 0) {
        /* Fixed size, sealed: writes past FZ_OUT_CAP fail (EPERM), so an
           endless -r run ends with a write error. */
        outfd = memfd_create("fz-out", MFD_CLOEXEC | MFD_ALLOW_SEALING);
        FZ_CHECK(outfd >= 0);
        FZ_CHECK(ftruncate(outfd, (off_t)FZ_OUT_CAP) == 0);
        FZ_CHECK(fcntl(outfd, F_ADD_SEALS, F_SEAL_GROW | F_SEAL_SHRINK) == 0);
    }
    fz_put_file("in", default_in, sizeof default_in - 1);
    static unsigned char rs[4096];
    for (size_t i = 0; i < sizeof rs; i++)
        rs[i] = (unsigned char)(i * 167 + (i >> 8) * 13 + 5);
    fz_put_file("rs", rs, sizeof rs);

    unsigned char fds[FD_MAX / 8];
    open_fds(fds);
    int infd = fz_input_fd(stdin_data, stdin_len, 0);
    int cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    FZ_CHECK(cwd >= 0);
    FZ_CHECK(chdir(fz_sandbox()) == 0);
    fflush(stdout);
    int save0 = dup(0), save1 = dup(1);
    FZ_CHECK(save0 >= 0 && save1 >= 0);
    FZ_CHECK(dup2(infd, 0) == 0);
    close(infd);
    FZ_CHECK(lseek(outfd, 0, SEEK_SET) == 0);
    FZ_CHECK(dup2(outfd, 1) == 1);
    char *obuf = NULL, *ebuf = NULL;
    size_t olen = 0, elen = 0;
    FILE *mo = open_memstream(&obuf, &olen), *me = open_memstream(&ebuf, &elen);
    FZ_CHECK(mo != NULL && me != NULL);
    FILE *old_out = stdout, *old_err = stderr;
    stdout = mo;
    stderr = me;
    optind = 0; /* glibc: reinitialise getopt completely */
    opterr = 1;

    struct rlimit fsize, small = {(rlim_t)FZ_OUT_CAP, (rlim_t)FZ_OUT_CAP};
    FZ_CHECK(getrlimit(RLIMIT_FSIZE, &fsize) == 0);
    if (fsize.rlim_cur == RLIM_INFINITY || fsize.rlim_cur > small.rlim_cur) {
        small.rlim_max = fsize.rlim_max;
        FZ_CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0);
    }
    call c = {cmd, argc, argv, 0};
    int st = fz_catch(run_call, &c);
    /* A run that left through exit() without die() (--help, --version)
       leaves its die and flush hooks pointing into its dead stack frame
       (a later run's die() flushed through a stale shuf_run: UBSan, CI's
       fuzz step at 8124907). */
    set_die_hook(NULL, NULL);
    set_flush_hook(NULL, NULL);
    FZ_CHECK(setrlimit(RLIMIT_FSIZE, &fsize) == 0);
    res.exited = st != -1;
    res.status = st != -1 ? st : c.rc;

    fflush(mo);
    fflush(me);
    stdout = old_out;
    stderr = old_err;
    fclose(mo);
    fclose(me);
    off_t end = lseek(outfd, 0, SEEK_CUR);
    FZ_CHECK(end >= 0 && (size_t)end <= FZ_OUT_CAP);
    FZ_CHECK(dup2(save0, 0) == 0 && dup2(save1, 1) == 1);
    close(save0);
    close(save1);
    FZ_CHECK(fchdir(cwd) == 0);
    close(cwd);
    close_new_fds(fds);
    sandbox_clean();

    /* fd 1 output, then what went through stdio's stdout. */
    res.out_len = (size_t)end + olen;
    res.out_full = (size_t)end == FZ_OUT_CAP;
    res.out = __real_malloc(res.out_len + 1);
    FZ_CHECK(res.out != NULL);
    size_t got = 0;
    while (got < (size_t)end) {
        ssize_t r = pread(outfd, res.out + got, (size_t)end - got, (off_t)got);
        FZ_CHECK(r > 0);
        got += (size_t)r;
    }
    if (olen > 0)
        memcpy(res.out + got, obuf, olen);
    res.out[res.out_len] = '\0';
    res.err = ebuf;
    res.err_len = elen;
    free(obuf);
    return &res;
}

/* ------------------------------------------------------------------------ */
/* Records                                                                  */

void fz_split(const char *buf, size_t len, char delim, size_t *n,
              size_t **starts, size_t **lens)
{
    size_t cnt = 0;
    for (size_t i = 0; i < len; i++)
        cnt += buf[i] == delim;
    if (len > 0 && buf[len - 1] != delim)
        cnt++;
    size_t *s = __real_malloc((cnt + 1) * sizeof *s);
    size_t *l = __real_malloc((cnt + 1) * sizeof *l);
    FZ_CHECK(s != NULL && l != NULL);
    size_t k = 0, at = 0;
    for (size_t i = 0; i < len; i++) {
        if (buf[i] == delim) {
            s[k] = at;
            l[k++] = i + 1 - at;
            at = i + 1;
        }
    }
    if (at < len) {
        s[k] = at;
        l[k++] = len - at + 1; /* with the delimiter the reader adds */
    }
    FZ_CHECK(k == cnt);
    *n = cnt;
    *starts = s;
    *lens = l;
}

typedef struct rec {
    const char *p;
    size_t n;
} rec;

static int rec_cmp(const void *a, const void *b)
{
    const rec *x = a, *y = b;
    size_t m = x->n < y->n ? x->n : y->n;
    int c = memcmp(x->p, y->p, m);
    if (c != 0)
        return c;
    return x->n < y->n ? -1 : x->n > y->n;
}

int fz_same_records(const char *a, const size_t *as, const size_t *al,
                    const char *b, const size_t *bs, const size_t *bl,
                    size_t n)
{
    rec *x = __real_malloc((n + 1) * sizeof *x);
    rec *y = __real_malloc((n + 1) * sizeof *y);
    FZ_CHECK(x != NULL && y != NULL);
    for (size_t i = 0; i < n; i++) {
        x[i].p = a + as[i];
        x[i].n = al[i];
        y[i].p = b + bs[i];
        y[i].n = bl[i];
    }
    qsort(x, n, sizeof *x, rec_cmp);
    qsort(y, n, sizeof *y, rec_cmp);
    int same = 1;
    for (size_t i = 0; i < n && same; i++)
        same = rec_cmp(&x[i], &y[i]) == 0;
    free(x);
    free(y);
    return same;
}
