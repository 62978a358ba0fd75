/* SPDX-License-Identifier: MIT */
/* `fairshuf deal`'s memory: what a round holds at its peak, and the check
   that the system and the cgroup can give it. */
#ifndef FSH_CLI_DEAL_MEMORY_H
#define FSH_CLI_DEAL_MEMORY_H

#include "deal/options.h"

#include <stdint.h>

/* The bytes a checked round holds at once: the deck (8 bytes a card of
   the shoe) and the cards dealt (4 a card), none when no card is dealt;
   a provably fair round, its deal order and its cards (4 bytes a card of
   the shoe each). */
uint64_t deal_peak_bytes(const deal_opts *o);

/* Die with "memory exhausted" when deal_peak_bytes(o) is more than the
   least of what the system can give (MemAvailable + SwapFree) and the
   room left under the process's cgroup memory limits (cgroup_room). */
void deal_check_memory(const deal_opts *o);

#endif
