/* SPDX-License-Identifier: MIT */
/* fairshuf's own shuffle (fsh_shuffle_u32): must pass. */
#include "shuffler.h"

static void deal_one(uint32_t *a, size_t n, uint64_t deal)
{
    (void)deal;
    if (fsh_shuffle_u32(rng, a, n) != FSH_OK)
        exit(3);
}
