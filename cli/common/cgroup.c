/* SPDX-License-Identifier: MIT */
/* This process's cgroup memory limits and the room left under them. */
#include "common/cgroup.h"

#include "common/sysio.h"
#include "common/xalloc.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A hierarchy's files: the limit, the usage, and memory.stat's count of
   inactive page cache for the cgroup and its descendants. */
typedef struct cg_files {
    const char *limit, *usage, *inactive;
} cg_files;

static const cg_files v2_files = {"memory.max", "memory.current",
                                  "inactive_file"};
static const cg_files v1_files = {"memory.limit_in_bytes",
                                  "memory.usage_in_bytes",
                                  "total_inactive_file"};

/* Room for the longest file name above after the directory. */
#define CG_NAME_MAX 24

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

/* A limit or usage file's value ("max" or garbage: none, UINT64_MAX). */
static uint64_t file_value(const char *path)
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

/* memory.stat's line "KEY VALUE" at path, in bytes; 0 when absent. */
static uint64_t stat_value(const char *path, const char *key)
{
    char *t = slurp(path, 1 << 16);
    uint64_t v = 0;
    size_t klen = strlen(key);
    for (const char *l = t; l != NULL && *l != '\0'; l = strchr(l, '\n')) {
        if (*l == '\n')
            l++;
        if (strncmp(l, key, klen) != 0 || l[klen] != ' ')
            continue;
        char *end;
        unsigned long long x = strtoull(l + klen + 1, &end, 10);
        if (*end == '\n' || *end == '\0')
            v = (uint64_t)x;
        break;
    }
    free(t);
    return v;
}

/* The value of the cgroup directory dir (path is a buffer of n bytes
   that holds it, dirlen long): its limit, or with room the limit less
   what it holds; UINT64_MAX when it has no limit. */
static uint64_t level_value(char *path, size_t n, size_t dirlen,
                            const cg_files *f, int room)
{
    snprintf(path + dirlen, n - dirlen, "/%s", f->limit);
    uint64_t lim = file_value(path);
    if (!room || lim == UINT64_MAX)
        return lim;
    snprintf(path + dirlen, n - dirlen, "/%s", f->usage);
    uint64_t used = file_value(path);
    if (used == UINT64_MAX)
        return lim;
    snprintf(path + dirlen, n - dirlen, "/memory.stat");
    uint64_t cache = stat_value(path, f->inactive);
    used -= cache < used ? cache : used;
    return lim > used ? lim - used : 0;
}

/* The least value on the way from the cgroup cg to the root of the
   hierarchy mounted at mnt (mount root mroot). */
static uint64_t cgroup_walk(const char *mnt, const char *mroot,
                            const char *cg, const cg_files *f, int room)
{
    size_t rl = strlen(mroot);
    if (strcmp(mroot, "/") == 0)
        rl = 0;
    else if (strncmp(cg, mroot, rl) != 0 || (cg[rl] != '/' && cg[rl] != '\0'))
        return UINT64_MAX; /* our cgroup is not under this mount */
    const char *rel = cg + rl;
    size_t n = strlen(mnt) + strlen(rel) + CG_NAME_MAX + 2;
    char *path = xmalloc(n);
    uint64_t least = UINT64_MAX;
    size_t keep = strlen(rel);
    for (;;) {
        while (keep > 0 && rel[keep - 1] == '/')
            keep--;
        int dirlen = snprintf(path, n, "%s%.*s", mnt, (int)keep, rel);
        uint64_t v = level_value(path, n, (size_t)dirlen, f, room);
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

/* The least value (cgroup_walk) over the memory hierarchies of this
   process: its cgroups from /proc/self/cgroup, their mounts from
   /proc/self/mountinfo. */
static uint64_t cgroup_least(int room)
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
            uint64_t v = cgroup_walk(f[4], f[3], v2, &v2_files, room);
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
                uint64_t v = cgroup_walk(f[4], f[3], v1, &v1_files, room);
                least = v < least ? v : least;
            }
        }
    }
out:
    free(cgs);
    free(mi);
    return least;
}

uint64_t cgroup_limit(void)
{
    return cgroup_least(0);
}

uint64_t cgroup_room(void)
{
    return cgroup_least(1);
}
