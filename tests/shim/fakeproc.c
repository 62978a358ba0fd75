/* SPDX-License-Identifier: MIT */
/* LD_PRELOAD shim for tests: fake /proc/self/cgroup, /proc/self/mountinfo
 * and /proc/meminfo.
 *
 * With FSH_FAKE_PROC=DIR, opening /proc/self/cgroup or /proc/self/mountinfo
 * opens DIR/cgroup or DIR/mountinfo instead, so a test can describe cgroup
 * hierarchies with memory limits of its choosing: the fake mountinfo mounts
 * them at directories of the test's, where the cgroup files (memory.max,
 * memory.current, memory.stat; v1 memory.limit_in_bytes,
 * memory.usage_in_bytes) are plain files it writes, opened where they are.
 * /proc/meminfo opens DIR/meminfo if the test wrote one. The --memory
 * default (tests/cli/test_memory.sh) and fairshuf deal's memory check
 * (tests/cli/test_deal.sh) read them.
 * Built by make (tests/shim/NAME.c -> libNAME.so). */
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
