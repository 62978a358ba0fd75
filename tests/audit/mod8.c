/* SPDX-License-Identifier: MIT */
/* Fisher-Yates with j = r % (i + 1) for an 8-bit r: modulo bias (256 is
   not a multiple of most i + 1). */
#include "shuffler.h"

static void deal_one(uint32_t *a, size_t n, uint64_t deal)
{
    (void)deal;
    for (size_t i = n - 1; i > 0; i--)
        swap32(a, i, (size_t)(below(256) % (i + 1)));
}
