/* SPDX-License-Identifier: MIT */
/* A correct Fisher-Yates re-seeded for every deal from a uniform 32-bit
   seed (xoshiro256++ keyed by the seed): at most 2^32 distinct deals, so
   repeats appear after about 2^16 deals. */
#include "shuffler.h"

static void deal_one(uint32_t *a, size_t n, uint64_t deal)
{
    static fsh_rng *per_deal;
    (void)deal;
    uint64_t seed = below((uint64_t)1 << 32);
    if ((per_deal == NULL && fsh_rng_new_seeded(&per_deal, "x", 1) != FSH_OK) ||
        fsh_rng_key_xoshiro(per_deal, seed) != FSH_OK ||
        fsh_shuffle_u32(per_deal, a, n) != FSH_OK)
        exit(3);
}
