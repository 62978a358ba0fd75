/* SPDX-License-Identifier: MIT */
/* System calls on descriptors: the one place that retries on EINTR. */
#ifndef FSH_CLI_SYSIO_H
#define FSH_CLI_SYSIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* open(2) with O_CLOEXEC, retried on EINTR, never returning fds 0-2. */
int open_safer(const char *path, int flags, int mode);
/* fd moved above stderr when it is 0-2 (the original closed, errno kept
   on failure); other values, -1 included, returned as they are. Never
   let a file we open pose as stdin, stdout or stderr when those were
   closed: writes to "stdout" must not reach it. */
int fd_high(int fd);
/* The errno GNU shuf reports when opening FILE as stdfd (its freopen over
   stdin or stdout) failed with err: EBADF if stdfd is closed (glibc's
   freopen fails with EBADF then, whatever the open's error), else err. */
int freopen_errno(int stdfd, int err);
/* read(2) / pread(2) retried on EINTR: bytes read, 0 at end, -1 with errno. */
ssize_t read_retry(int fd, void *buf, size_t n);
ssize_t pread_retry(int fd, void *buf, size_t n, off_t off);
/* All of p[0..n) written (write(2), or pwrite(2) at off when off >= 0),
   retried on EINTR and short writes: 0, or the errno of the failure
   (ENOSPC when the system writes nothing). With written not NULL, each
   byte the fd took is added to *written, also on failure. */
int write_full(int fd, const void *p, size_t n, off_t off, uint64_t *written);
/* 1 if a file system of type f_type (statfs(2)) is one of the kernel's
   pseudo file systems (/proc, /sys, cgroups, debugfs, tracefs,
   securityfs): its files are made at each read or write, so their size
   says nothing of their bytes and a second read may give others. */
int pseudo_fs_type(unsigned long f_type);
/* 1 if the open file fd is on one of those file systems. */
int fd_on_pseudo_fs(int fd);

#endif
