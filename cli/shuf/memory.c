/* SPDX-License-Identifier: MIT */
/* The default --memory: physical memory, cgroup and ulimit limits. */
#include "shuf/memory.h"

#include "common/sysio.h"
#include "common/xalloc.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* The whole of a small file (at most cap - 1 bytes), or NULL. */
static char *slurp(const char *path, size_t cap)
{
    int fd = open_safer(path, O_RDONLY, 0);
    if (fd < 0)
        return NULL;
    char *buf = xmalloc(cap);
    size_t len = 0;
    for (;;) {
        ssize_t r = read_retry(fd, buf + len, cap - 1 - len);
        if (r <= 0)
            break;
        len += (size_t)r;
        if (len == cap - 1)
            break;
    }
    close(fd);
    buf[len] = '\0';
    return buf;
}

/* A limit file's value ("max" or garbage: none, UINT64_MAX). */
static uint64_t limit_value(const char *path)
{
    char *t = slurp(path, 64);
    uint64_t v = UINT64_MAX;
    if (t != NULL && t[0] >= '0' && t[0] <= '9') {
        char *end;
        unsigned long long x = strtoull(t, &end, 10);
        if (*end == '\n' || *end == '\0')
            v = (uint64_t)x;
    }
    free(t);
    return v;
}

/* The least memory limit on the way from the cgroup to the root of the
   hierarchy mounted at mnt (mount root mroot): file name lim in each. */
static uint64_t cgroup_walk(const char *mnt, const char *mroot,
                            const char *cg, const char *lim)
{
    size_t rl = strlen(mroot);
    if (strcmp(mroot, "/") == 0)
        rl = 0;
    else if (strncmp(cg, mroot, rl) != 0 || (cg[rl] != '/' && cg[rl] != '\0'))
        return UINT64_MAX; /* our cgroup is not under this mount */
    const char *rel = cg + rl;
    size_t n = strlen(mnt) + strlen(rel) + strlen(lim) + 3;
    char *path = xmalloc(n);
    uint64_t least = UINT64_MAX;
    size_t keep = strlen(rel);
    for (;;) {
        while (keep > 0 && rel[keep - 1] == '/')
            keep--;
        snprintf(path, n, "%s%.*s/%s", mnt, (int)keep, rel, lim);
        uint64_t v = limit_value(path);
        if (v < least)
            least = v;
        if (keep == 0)
            break;
        while (keep > 0 && rel[keep - 1] != '/')
            keep--;
    }
    free(path);
    return least;
}

/* The cgroup memory limit of this process: v2 memory.max or v1
   memory.limit_in_bytes of its cgroup (from /proc/self/cgroup) and of every
   ancestor visible in /proc/self/mountinfo; UINT64_MAX when none. */
static uint64_t cgroup_limit(void)
{
    char *cgs = slurp("/proc/self/cgroup", 1 << 16);
    char *mi = slurp("/proc/self/mountinfo", 1 << 20);
    uint64_t least = UINT64_MAX;
    if (cgs == NULL || mi == NULL)
        goto out;
    const char *v2 = NULL, *v1 = NULL; /* cgroup paths */
    for (char *l = cgs, *next; l != NULL && *l != '\0'; l = next) {
        next = strchr(l, '\n');
        if (next != NULL)
            *next++ = '\0';
        char *c1 = strchr(l, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (c2 == NULL)
            continue;
        *c2 = '\0';
        if (strcmp(l, "0:") == 0)
            v2 = c2 + 1;
        for (char *tok = c1 + 1, *sp; tok != NULL; tok = sp) {
            sp = strchr(tok, ',');
            if (sp != NULL)
                *sp++ = '\0';
            if (strcmp(tok, "memory") == 0)
                v1 = c2 + 1;
        }
    }
    /* mountinfo: ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS... - TYPE SRC SUPER */
    for (char *l = mi, *next; l != NULL && *l != '\0'; l = next) {
        next = strchr(l, '\n');
        if (next != NULL)
            *next++ = '\0';
        char *f[5];
        char *p = l;
        int k = 0;
        for (; k < 5 && p != NULL; k++) {
            f[k] = p;
            p = strchr(p, ' ');
            if (p != NULL)
                *p++ = '\0';
        }
        char *dash = p != NULL ? strstr(p, " - ") : NULL;
        if (k < 5 || dash == NULL)
            continue;
        char *type = dash + 3, *src = strchr(type, ' ');
        char *super = src != NULL ? strchr(src + 1, ' ') : NULL;
        if (src == NULL)
            continue;
        *src = '\0';
        if (strcmp(type, "cgroup2") == 0 && v2 != NULL) {
            uint64_t v = cgroup_walk(f[4], f[3], v2, "memory.max");
            least = v < least ? v : least;
        } else if (strcmp(type, "cgroup") == 0 && v1 != NULL &&
                   super != NULL) {
            int mem = 0;
            for (char *tok = super + 1, *sp; tok != NULL; tok = sp) {
                sp = strchr(tok, ',');
                if (sp != NULL)
                    *sp++ = '\0';
                mem |= strcmp(tok, "memory") == 0;
            }
            if (mem) {
                uint64_t v = cgroup_walk(f[4], f[3], v1,
                                         "memory.limit_in_bytes");
                least = v < least ? v : least;
            }
        }
    }
out:
    free(cgs);
    free(mi);
    return least;
}

/* The default --memory: the least of half of physical memory, half of the
   cgroup memory limit, and a third of the address-space and data-segment
   limits (RLIMIT_AS, RLIMIT_DATA) after 64 MiB for the program itself.
   Those limits count address space, which runs ahead of resident memory
   (buffers grown by doubling, thread stacks, the in-memory mode's offset
   arrays on top of the data), hence the third; at least 4 MiB. */
uint64_t default_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    uint64_t m = pages > 0 && psize > 0
                     ? (uint64_t)pages * (uint64_t)psize / 2
                     : (uint64_t)1 << 30;
    uint64_t cg = cgroup_limit();
    if (cg != UINT64_MAX && cg / 2 < m)
        m = cg / 2;
    /* Named one by one: glibc's resource type is an enum, and clang's
       -Wsign-conversion rejects an int array of them. */
    struct rlimit rl[2];
    int got[2] = {getrlimit(RLIMIT_AS, &rl[0]) == 0,
                  getrlimit(RLIMIT_DATA, &rl[1]) == 0};
    for (size_t i = 0; i < 2; i++) {
        if (!got[i] || rl[i].rlim_cur == RLIM_INFINITY)
            continue;
        uint64_t v = (uint64_t)rl[i].rlim_cur;
        uint64_t own = (uint64_t)64 << 20;
        v = v > own ? (v - own) / 3 : 0;
        if (v < m)
            m = v;
    }
    uint64_t floor = (uint64_t)4 << 20;
    return m > floor ? m : floor;
}

