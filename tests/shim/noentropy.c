/* SPDX-License-Identifier: MIT */
/* LD_PRELOAD shim for tests: make the OS random source fail.
 *
 * FSH_SHIM_ERRNO (default EIO) is the errno getrandom(2), getentropy(3) and
 * opening /dev/urandom or /dev/random fail with. With FSH_SHIM_AFTER=N the
 * first N calls to getrandom/getentropy succeed (real entropy) and later ones
 * fail, to make a re-key fail after a good first keying. Built by the
 * Makefile as BUILD/tests/libnoentropy.so. */
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
    static long calls;
    const char *a = getenv("FSH_SHIM_AFTER");
    long after = a != NULL && *a != '\0' ? atol(a) : 0;
    return __atomic_add_fetch(&calls, 1, __ATOMIC_SEQ_CST) > after;
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
