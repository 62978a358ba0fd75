/* SPDX-License-Identifier: MIT */
/* The 1999 Planet Poker loop: for every position ctr = 1..52, swap
   Card[ctr] with Card[random(51) + 1] (1-based; random(51) uniform in
   0..50), so the last card never stays last. */
#include "shuffler.h"

static void deal_one(uint32_t *a, size_t n, uint64_t deal)
{
    (void)deal;
    for (size_t ctr = 0; ctr < n; ctr++)
        swap32(a, ctr, (size_t)below(n - 1));
}
