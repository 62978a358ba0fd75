/* SPDX-License-Identifier: MIT */
/* LD_PRELOAD shim for tests: change the input file while it is mapped.
 *
 * FSH_MAPRACE_FILE names the file. Once mmap(2) has mapped a descriptor
 * open on that file (same device and inode), the file is changed once, as
 * FSH_MAPRACE_OP says, at the point FSH_MAPRACE_AT says:
 *   map    right after that mmap returns (before any byte is looked at)
 *   write  just before the first write(2) that follows, to any descriptor
 *          but standard error (the records were scanned by then, and
 *          output has begun)
 * Operations:
 *   shrink  truncate to half its size
 *   grow    append a copy of its first half
 *   edit    overwrite one byte in the middle (same size): the first byte
 *           at or after size/2 that is not '\n' becomes 'X' (or 'Y')
 *   join    the first '\n' at or after size/2 becomes 'X' (two records
 *           become one: a moved delimiter)
 * Built by make (tests/shim/NAME.c -> build/tests/libNAME.so). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static int armed, done;

static int watched(int fd, const char *path)
{
    struct stat a, b;
    return fd >= 0 && fstat(fd, &a) == 0 && S_ISREG(a.st_mode) &&
           stat(path, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

static void flip(int fd, off_t size, int newline)
{
    for (off_t at = size / 2; at < size; at++) {
        char c;
        if (pread(fd, &c, 1, at) != 1)
            return;
        if ((c == '\n') != newline)
            continue;
        c = c == 'X' ? 'Y' : 'X';
        (void)pwrite(fd, &c, 1, at);
        return;
    }
}

static void change(void)
{
    const char *path = getenv("FSH_MAPRACE_FILE");
    const char *op = getenv("FSH_MAPRACE_OP");
    struct stat st;
    done = 1;
    if (path == NULL || op == NULL || stat(path, &st) != 0)
        return;
    off_t size = st.st_size;
    if (strcmp(op, "shrink") == 0) {
        (void)truncate(path, size / 2);
        return;
    }
    int fd = open(path, O_RDWR);
    if (fd < 0)
        return;
    if (strcmp(op, "grow") == 0) {
        char buf[65536];
        for (off_t at = 0; at < size / 2;) {
            size_t want = size / 2 - at < (off_t)sizeof buf
                              ? (size_t)(size / 2 - at)
                              : sizeof buf;
            ssize_t r = pread(fd, buf, want, at);
            if (r <= 0 || pwrite(fd, buf, (size_t)r, size + at) != r)
                break;
            at += r;
        }
    } else if (strcmp(op, "edit") == 0) {
        flip(fd, size, 0);
    } else if (strcmp(op, "join") == 0) {
        flip(fd, size, 1);
    }
    close(fd);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    static void *(*real)(void *, size_t, int, int, int, off_t);
    if (real == NULL)
        real = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(
            RTLD_NEXT, "mmap");
    void *p = real(addr, len, prot, flags, fd, off);
    if (done || armed || p == MAP_FAILED || (flags & MAP_ANONYMOUS))
        return p;
    int e = errno;
    const char *path = getenv("FSH_MAPRACE_FILE");
    const char *at = getenv("FSH_MAPRACE_AT");
    if (path != NULL && at != NULL && watched(fd, path)) {
        armed = 1;
        if (strcmp(at, "map") == 0)
            change();
    }
    errno = e;
    return p;
}

ssize_t write(int fd, const void *buf, size_t n)
{
    static ssize_t (*real)(int, const void *, size_t);
    if (real == NULL)
        real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT,
                                                             "write");
    if (armed && !done && fd != STDERR_FILENO) {
        const char *at = getenv("FSH_MAPRACE_AT");
        if (at != NULL && strcmp(at, "write") == 0) {
            int e = errno;
            change();
            errno = e;
        }
    }
    return real(fd, buf, n);
}
