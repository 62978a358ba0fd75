/* SPDX-License-Identifier: MIT */
/* The default --memory: physical memory, cgroup and ulimit limits. */
#include "shuf/memory.h"

#include "common/cgroup.h"

#include <sys/resource.h>
#include <unistd.h>

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

