/* SPDX-License-Identifier: MIT */
/* Fisher-Yates off by one (j < i): Sattolo's algorithm, only the (n-1)!
   cyclic orders, never a fixed point. */
#include "shuffler.h"

static void deal_one(uint32_t *a, size_t n, uint64_t deal)
{
    (void)deal;
    for (size_t i = n - 1; i > 0; i--)
        swap32(a, i, (size_t)below(i));
}
