/* SPDX-License-Identifier: MIT */
/* This process's cgroup memory limits (v2 memory.max, v1
   memory.limit_in_bytes), its own cgroup's and every ancestor's visible
   through /proc/self/cgroup and /proc/self/mountinfo. */
#ifndef FSH_CLI_CGROUP_H
#define FSH_CLI_CGROUP_H

#include <stdint.h>

/* The least memory limit on the way to the root; UINT64_MAX when none. */
uint64_t cgroup_limit(void);

/* The room left under those limits: the least, over the cgroups that have
   a limit, of the limit less what the cgroup holds (v2 memory.current, v1
   memory.usage_in_bytes, less the inactive page cache memory.stat reports
   as inactive_file, v1 total_inactive_file, which the kernel reclaims
   before it kills); the limit itself where the usage is not reported.
   UINT64_MAX when no cgroup has a limit. */
uint64_t cgroup_room(void);

#endif
