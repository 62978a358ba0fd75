/* SPDX-License-Identifier: MIT */
/* LD_PRELOAD shim for tests: a small machine under Linux's heuristic
 * overcommit.
 *
 * With FSH_OVERCOMMIT_MAX=BYTES, any single request for more than BYTES
 * (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign, an
 * anonymous mmap that reserves swap: not MAP_NORESERVE, which the kernel
 * does not account either) fails with ENOMEM, as the kernel refuses one request
 * beyond RAM + swap; smaller requests are granted however many there are,
 * as the kernel grants them, and it is the OOM killer that ends a process
 * whose granted parts add up to more. Run the program under ulimit -v as
 * well, so that what is granted here stays bounded. An ASan binary keeps
 * its own malloc and mmap, ahead of any preloaded library: the shim does
 * nothing there. Built by make (tests/shim/NAME.c -> libNAME.so). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/types.h>

/* glibc's own entry points: no dlsym (which may allocate) on the way. */
void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t m);
void *__libc_realloc(void *p, size_t n);
void *__libc_memalign(size_t align, size_t n);

/* 1 when a request of n bytes (or an overflowing one) is refused. */
static int refused(size_t n)
{
    static size_t max;
    static int read_env;
    if (!read_env) {
        const char *e = getenv("FSH_OVERCOMMIT_MAX");
        max = e != NULL && *e != '\0' ? (size_t)strtoull(e, NULL, 10)
                                      : SIZE_MAX;
        read_env = 1;
    }
    if (n > max) {
        errno = ENOMEM;
        return 1;
    }
    return 0;
}

void *malloc(size_t n)
{
    return refused(n) ? NULL : __libc_malloc(n);
}

void *calloc(size_t n, size_t m)
{
    if (m != 0 && n > SIZE_MAX / m) {
        errno = ENOMEM;
        return NULL;
    }
    return refused(n * m) ? NULL : __libc_calloc(n, m);
}

void *realloc(void *p, size_t n)
{
    return refused(n) ? NULL : __libc_realloc(p, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
    if (refused(n))
        return ENOMEM;
    if (align < sizeof(void *) || (align & (align - 1)) != 0)
        return EINVAL;
    void *p = __libc_memalign(align, n);
    if (p == NULL)
        return ENOMEM;
    *out = p;
    return 0;
}

void *aligned_alloc(size_t align, size_t n)
{
    return refused(n) ? NULL : __libc_memalign(align, n);
}

void *memalign(size_t align, size_t n)
{
    return refused(n) ? NULL : __libc_memalign(align, n);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    if ((flags & MAP_ANONYMOUS) && !(flags & (MAP_FIXED | MAP_NORESERVE)) &&
        refused(len))
        return MAP_FAILED;
    void *(*real)(void *, size_t, int, int, int, off_t) =
        (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT,
                                                               "mmap");
    return real(addr, len, prot, flags, fd, off);
}
