/* SPDX-License-Identifier: MIT */
/* Memory sizing for --memory's default. */
#ifndef FSH_CLI_MEMORY_H
#define FSH_CLI_MEMORY_H

#include <stdint.h>

/* The least of half of physical memory, half of the cgroup memory limit,
   and a third of RLIMIT_AS / RLIMIT_DATA after 64 MiB; at least 4 MiB. */
uint64_t default_memory(void);

#endif
