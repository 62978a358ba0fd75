/* SPDX-License-Identifier: MIT */
/* System calls on descriptors, retried on EINTR (this file only). */
#include "common/sysio.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <unistd.h>

int fd_high(int fd)
{
    if (fd < 0 || fd > STDERR_FILENO)
        return fd;
    int d = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    int e = errno;
    close(fd);
    errno = e;
    return d;
}

int freopen_errno(int stdfd, int err)
{
    return fcntl(stdfd, F_GETFD) < 0 && errno == EBADF ? EBADF : err;
}

int open_safer(const char *path, int flags, int mode)
{
    int fd;
    do
        fd = open(path, flags | O_CLOEXEC, mode);
    while (fd < 0 && errno == EINTR);
    return fd_high(fd);
}

ssize_t read_retry(int fd, void *buf, size_t n)
{
    ssize_t r;
    do
        r = read(fd, buf, n);
    while (r < 0 && errno == EINTR);
    return r;
}

ssize_t pread_retry(int fd, void *buf, size_t n, off_t off)
{
    ssize_t r;
    do
        r = pread(fd, buf, n, off);
    while (r < 0 && errno == EINTR);
    return r;
}

int write_full(int fd, const void *p, size_t n, off_t off, uint64_t *written)
{
    const char *c = p;
    while (n > 0) {
        size_t chunk = n < ((size_t)1 << 30) ? n : (size_t)1 << 30;
        ssize_t w = off >= 0 ? pwrite(fd, c, chunk, off) : write(fd, c, chunk);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (w == 0) /* should not happen for n > 0; treat as full */
            return ENOSPC;
        if (written != NULL)
            *written += (uint64_t)w;
        c += w;
        n -= (size_t)w;
        if (off >= 0)
            off += w;
    }
    return 0;
}

int pseudo_fs_type(unsigned long f_type)
{
    switch (f_type) {
    case PROC_SUPER_MAGIC:
    case SYSFS_MAGIC:
    case CGROUP_SUPER_MAGIC:
    case CGROUP2_SUPER_MAGIC:
    case DEBUGFS_MAGIC:
    case TRACEFS_MAGIC:
    case SECURITYFS_MAGIC:
        return 1;
    default:
        return 0;
    }
}

int fd_on_pseudo_fs(int fd)
{
    struct statfs fs;
    return fstatfs(fd, &fs) == 0 && pseudo_fs_type((unsigned long)fs.f_type);
}
