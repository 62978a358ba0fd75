/* SPDX-License-Identifier: MIT */
/* LD_PRELOAD shim for tests: fake /proc/self/cgroup, /proc/self/mountinfo
 * and /proc/meminfo.
 *
 * With FSH_FAKE_PROC=DIR, opening /proc/self/cgroup or /proc/self/mountinfo
 * opens DIR/cgroup or DIR/mountinfo instead, so a test can describe cgroup
 * hierarchies (mounted under DIR) with memory limits of its choosing; and
 * /proc/meminfo opens DIR/meminfo if the test wrote one (fairshuf deal's
 * memory check).
 * Built by tests/cli/test_memory.sh with the system compiler. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *redirect(const char *path, char *buf, size_t n)
{
    const char *dir = getenv("FSH_FAKE_PROC");
    if (dir == NULL || path == NULL)
        return path;
    if (strcmp(path, "/proc/self/cgroup") == 0)
        snprintf(buf, n, "%s/cgroup", dir);
    else if (strcmp(path, "/proc/self/mountinfo") == 0)
        snprintf(buf, n, "%s/mountinfo", dir);
    else if (strcmp(path, "/proc/meminfo") == 0) {
        snprintf(buf, n, "%s/meminfo", dir);
        if (access(buf, F_OK) != 0) /* only where the test wrote one */
            return path;
    } else
        return path;
    return buf;
}

#define WRAP(name)                                                             \
    int name(const char *path, int flags, ...)                                 \
    {                                                                          \
        static int (*real)(const char *, int, ...);                            \
        if (real == NULL)                                                      \
            real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, #name);   \
        int mode = 0;                                                          \
        if (flags & (O_CREAT | O_TMPFILE)) {                                   \
            va_list ap;                                                        \
            va_start(ap, flags);                                               \
            mode = va_arg(ap, int);                                            \
            va_end(ap);                                                        \
        }                                                                      \
        char buf[4096];                                                        \
        return real(redirect(path, buf, sizeof buf), flags, mode);             \
    }

WRAP(open)
WRAP(open64)
