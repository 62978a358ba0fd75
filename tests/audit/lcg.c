/* SPDX-License-Identifier: MIT */
/* srand(deal number) then Fisher-Yates with rand() % (i + 1), rand() the
   classic ANSI C LCG (x = x * 1103515245 + 12345, 15 bits out): seeds
   0, 1, 2, ... give related deals. */
#include "shuffler.h"

static void deal_one(uint32_t *a, size_t n, uint64_t deal)
{
    uint32_t x = (uint32_t)deal;
    for (size_t i = n - 1; i > 0; i--) {
        x = x * 1103515245u + 12345u;
        uint32_t r = (x >> 16) & 0x7fff;
        swap32(a, i, r % (i + 1));
    }
}
