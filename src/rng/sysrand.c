/* SPDX-License-Identifier: MIT */
/* fsh_entropy: OS randomness, getrandom(2) else /dev/urandom. */
#include "common/common.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

/* Read len bytes from /dev/urandom; FSH_ESYSRAND with errno kept on failure
   (EIO stands in for a device that ends early). */
static int read_urandom(uint8_t *p, size_t len)
{
    int fd;
    do
        fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0)
        return FSH_ESYSRAND;
    while (len > 0) {
        ssize_t r = read(fd, p, len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            int e = r == 0 ? EIO : errno;
            close(fd);
            errno = e;
            return FSH_ESYSRAND;
        }
        p += r;
        len -= (size_t)r;
    }
    close(fd);
    return FSH_OK;
}

int fsh_entropy(void *buf, size_t len)
{
    uint8_t *p = buf;
    if (p == NULL && len > 0)
        return FSH_EINVAL;
    while (len > 0) {
        /* getrandom may return less than asked (at most 32 MiB - 1 a
           call on older kernels; a signal during a large read); loop over
           partial reads. */
        ssize_t r = getrandom(p, len, 0);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            /* ENOSYS (old kernel) or a seccomp filter: the device is as
               good as the syscall once the pool is initialised. */
            return read_urandom(p, len);
        }
        p += r;
        len -= (size_t)r;
    }
    return FSH_OK;
}

