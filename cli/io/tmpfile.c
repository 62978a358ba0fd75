/* SPDX-License-Identifier: MIT */
/* Unlinked temporary files in the -T directory. */
#include "io/tmpfile.h"

#include "common/msg.h"
#include "common/quote.h"
#include "common/sysio.h"
#include "common/xalloc.h"
#include "io/input.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void tmp_die(const char *dir, int e, const char *what)
{
    die(e, "%s temporary file in %s", what, quotef(dir));
}

int tmp_unlinked(const char *dir)
{
    int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0) {
        /* No O_TMPFILE here: a named file, unlinked with signals blocked
           so no handler can leave it behind. */
        size_t n = strlen(dir) + 32;
        char *path = xmalloc(n);
        snprintf(path, n, "%s/fairshuf.XXXXXX", dir);
        sigset_t all, old;
        sigfillset(&all);
        sigprocmask(SIG_BLOCK, &all, &old);
        fd = mkostemp(path, O_CLOEXEC);
        int e = errno;
        if (fd >= 0)
            unlink(path);
        sigprocmask(SIG_SETMASK, &old, NULL);
        free(path);
        errno = e;
    }
    return fd_high(fd);
}

int tmp_create(const char *dir)
{
    int fd = tmp_unlinked(dir);
    if (fd < 0)
        tmp_die(dir, errno, "cannot create");
    return fd;
}

void tmp_flush(const char *dir, outw *w)
{
    if (out_flush(w) != 0)
        tmp_die(dir, out_error(w), "write error on");
}

void tmp_write(const char *dir, outw *w, const void *p, size_t n)
{
    if (out_write(w, p, n) != 0)
        tmp_die(dir, out_error(w), "write error on");
}

char *tmp_load(const char *dir, int fd, size_t size)
{
    char *buf = xmalloc(size + INBUF_SLACK);
    size_t got = 0;
    while (got < size) {
        ssize_t r = pread_retry(fd, buf + got, size - got, (off_t)got);
        if (r <= 0)
            tmp_die(dir, r < 0 ? errno : EIO, "read error on");
        got += (size_t)r;
    }
    return buf;
}
