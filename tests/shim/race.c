/* SPDX-License-Identifier: MIT */
/* LD_PRELOAD shim for tests: change the input file while it is being read.
 *
 * FSH_RACE_FILE names the file. Reads are watched on descriptors open on
 * that file (same device and inode); once FSH_RACE_AT is reached the file
 * is changed as FSH_RACE_OP says, once:
 *   FSH_RACE_AT  eof   the first read that returns 0 (end of a pass)
 *                data  the first read that returns data
 *   FSH_RACE_OP  shrink  truncate to half its size
 *                grow    append a copy of its whole content
 *                edit    overwrite one byte in the middle (same size): the
 *                        first byte at or after size/2 that is neither '\n'
 *                        nor '\0' becomes 'X' (or 'Y' if it was 'X')
 * Built by tests/cli/test_race.sh with the system compiler. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static int done;

static ssize_t real_read(int fd, void *buf, size_t n)
{
    static ssize_t (*real)(int, void *, size_t);
    if (real == NULL)
        real = (ssize_t(*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
    return real(fd, buf, n);
}

static int watched(int fd, const char *path)
{
    struct stat a, b;
    return fstat(fd, &a) == 0 && S_ISREG(a.st_mode) && stat(path, &b) == 0 &&
           a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static void change(const char *path, const char *op)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return;
    off_t size = st.st_size;
    if (strcmp(op, "shrink") == 0) {
        (void)truncate(path, size / 2);
    } else if (strcmp(op, "grow") == 0) {
        int in = open(path, O_RDONLY), out = open(path, O_WRONLY | O_APPEND);
        char buf[65536];
        for (off_t at = 0; in >= 0 && out >= 0 && at < size;) {
            size_t want = size - at < (off_t)sizeof buf ? (size_t)(size - at)
                                                        : sizeof buf;
            ssize_t r = pread(in, buf, want, at);
            if (r <= 0 || write(out, buf, (size_t)r) != r)
                break;
            at += r;
        }
        if (in >= 0)
            close(in);
        if (out >= 0)
            close(out);
    } else if (strcmp(op, "edit") == 0) {
        int fd = open(path, O_RDWR);
        for (off_t at = size / 2; fd >= 0 && at < size; at++) {
            char c;
            if (pread(fd, &c, 1, at) != 1)
                break;
            if (c == '\n' || c == '\0')
                continue;
            c = c == 'X' ? 'Y' : 'X';
            (void)pwrite(fd, &c, 1, at);
            break;
        }
        if (fd >= 0)
            close(fd);
    }
}

ssize_t read(int fd, void *buf, size_t n)
{
    ssize_t r = real_read(fd, buf, n);
    if (done)
        return r;
    int e = errno;
    const char *path = getenv("FSH_RACE_FILE");
    const char *at = getenv("FSH_RACE_AT");
    const char *op = getenv("FSH_RACE_OP");
    if (path != NULL && at != NULL && op != NULL && r >= 0 &&
        (strcmp(at, "eof") == 0 ? r == 0 : r > 0) && watched(fd, path)) {
        done = 1;
        change(path, op);
    }
    errno = e;
    return r;
}

ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen);
ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen)
{
    (void)buflen;
    return read(fd, buf, n);
}
