/* SPDX-License-Identifier: MIT */
/* LD_PRELOAD shim for tests: make the OS random source fail.
 *
 * FSH_SHIM_ERRNO (default EIO) is the errno getrandom(2), getentropy(3) and
 * opening /dev/urandom or /dev/random fail with. With FSH_SHIM_AFTER=N the
 * first N calls to getrandom/getentropy succeed (real entropy) and later ones
 * fail, to make a re-key fail after a good first keying. FSH_SHIM_AFTER=+N
 * counts from the first call that sees this value (a different value
 * before it): the next N calls succeed, later ones fail, whatever ran
 * before (a source failing part-way through one fsh_entropy call). With
 * FSH_SHIM_MAX=N a getrandom call returns at most N bytes, as Linux did
 * before its random driver's rewrite (33554431) and as a signal can make
 * it do. Built by the Makefile as BUILD/tests/libnoentropy.so. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/types.h>

static int shim_errno(void)
{
    const char *e = getenv("FSH_SHIM_ERRNO");
    return e != NULL && *e != '\0' ? atoi(e) : EIO;
}

/* 1 when this call should fail. */
static int shim_fail(void)
{
    static long calls, base;
    static char seen[32]; /* the last "+N" value, to see it change */
    const char *a = getenv("FSH_SHIM_AFTER");
    long after = a != NULL && *a != '\0' ? atol(a) : 0;
    long c = __atomic_add_fetch(&calls, 1, __ATOMIC_SEQ_CST);
    if (a == NULL || *a != '+') {
        if (seen[0] != '\0') /* (no store otherwise: threads call here) */
            seen[0] = '\0';
        return c > after;
    }
    /* (A test switches the value from one thread, between calls.) */
    if (strncmp(seen, a, sizeof seen) != 0) {
        strncpy(seen, a, sizeof seen - 1);
        base = c - 1;
    }
    return c - base > atol(a + 1);
}

static int is_random_dev(const char *path)
{
    return path != NULL && (strcmp(path, "/dev/urandom") == 0 ||
                            strcmp(path, "/dev/random") == 0);
}

ssize_t getrandom(void *buf, size_t len, unsigned flags)
{
    if (shim_fail()) {
        errno = shim_errno();
        return -1;
    }
    const char *m = getenv("FSH_SHIM_MAX");
    if (m != NULL && *m != '\0' && (size_t)atol(m) < len)
        len = (size_t)atol(m);
    ssize_t (*real)(void *, size_t, unsigned) =
        (ssize_t(*)(void *, size_t, unsigned))dlsym(RTLD_NEXT, "getrandom");
    return real(buf, len, flags);
}

int getentropy(void *buf, size_t len)
{
    if (shim_fail()) {
        errno = shim_errno();
        return -1;
    }
    int (*real)(void *, size_t) =
        (int (*)(void *, size_t))dlsym(RTLD_NEXT, "getentropy");
    return real(buf, len);
}

#define OPEN_SHIM(name, ...)                                                   \
    mode_t mode = 0;                                                           \
    if (flags & (O_CREAT | O_TMPFILE)) {                                       \
        va_list ap;                                                            \
        va_start(ap, flags);                                                   \
        mode = (mode_t)va_arg(ap, int);                                        \
        va_end(ap);                                                            \
    }                                                                          \
    if (is_random_dev(path)) {                                                 \
        errno = shim_errno();                                                  \
        return -1;                                                             \
    }

int open(const char *path, int flags, ...)
{
    OPEN_SHIM(open);
    int (*real)(const char *, int, ...) =
        (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
    return real(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
    OPEN_SHIM(open64);
    int (*real)(const char *, int, ...) =
        (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open64");
    return real(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
    OPEN_SHIM(openat);
    int (*real)(int, const char *, int, ...) =
        (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
    return real(dirfd, path, flags, mode);
}
