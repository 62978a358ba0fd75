/* SPDX-License-Identifier: MIT */
/* `fairshuf deal`'s memory: the round's peak against what the system and
   the cgroup can give. */
#include "deal/memory.h"

#include "common/cgroup.h"
#include "common/sysio.h"
#include "common/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint64_t deal_peak_bytes(const deal_opts *o)
{
    uint64_t n = o->shoe;
    if (o->server_seed_file != NULL)
        return 8 * n;
    uint64_t total = (uint64_t)o->burn + (uint64_t)o->players * o->cards +
                     deal_rest(o);
    /* Nothing dealt: no deck is made. */
    return total > 0 ? 8 * n + 4 * total : 0;
}

/* The value in kB of /proc/meminfo's line KEY ("MemAvailable:"), in
   bytes; UINT64_MAX if it is not there. */
static uint64_t meminfo_bytes(const char *text, const char *key)
{
    size_t klen = strlen(key);
    for (const char *l = text; l != NULL; l = strchr(l, '\n')) {
        if (*l == '\n')
            l++;
        if (strncmp(l, key, klen) != 0)
            continue;
        char *end;
        errno = 0;
        unsigned long long kb = strtoull(l + klen, &end, 10);
        if (errno != 0 || end == l + klen || kb > UINT64_MAX / 1024)
            return UINT64_MAX;
        return (uint64_t)kb * 1024;
    }
    return UINT64_MAX;
}

/* What the system can still give without swapping others out or killing
   a process: MemAvailable ("an estimate of how much memory is available
   for starting new applications, without swapping", proc(5)) plus
   SwapFree; UINT64_MAX when /proc/meminfo cannot tell (then only the
   allocations themselves can fail). */
static uint64_t memory_claimable(void)
{
    char text[8192];
    int fd = open_safer("/proc/meminfo", O_RDONLY, 0);
    if (fd < 0)
        return UINT64_MAX;
    size_t n = 0;
    for (;;) {
        ssize_t r = read_retry(fd, text + n, sizeof text - 1 - n);
        if (r <= 0)
            break;
        n += (size_t)r;
        if (n == sizeof text - 1)
            break;
    }
    close(fd);
    text[n] = '\0';
    uint64_t avail = meminfo_bytes(text, "MemAvailable:"),
             swap = meminfo_bytes(text, "SwapFree:");
    if (avail == UINT64_MAX)
        return UINT64_MAX;
    return swap == UINT64_MAX || swap > UINT64_MAX - avail ? avail
                                                           : avail + swap;
}

/* Fail at once, as GNU's "memory exhausted", when the round needs more
   memory than the system can give: the kernel's overcommit granted a
   shoe larger than memory, and the process was killed (OOM) minutes into
   the deal, when it touched the last pages. In a container the cgroup's
   limit comes first: the cgroup's OOM killer ends the deal when the
   cgroup's charge reaches it, however much the machine has free. A limit
   of the address space (ulimit -v) needs no check: the allocations, all
   made before the first card is dealt, fail. */
void deal_check_memory(const deal_opts *o)
{
    uint64_t need = deal_peak_bytes(o);
    if (need == 0)
        return;
    uint64_t can = memory_claimable(), room = cgroup_room();
    if (need > (room < can ? room : can))
        xalloc_die();
}
