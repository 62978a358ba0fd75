/* SPDX-License-Identifier: MIT */
/* Algorithm R with exact draws (fairshuf.h, "Sampling"). */
#include "uniform/uniform.h"

int fsh_reservoir_slot(fsh_rng *rng, size_t *slot, size_t k, uint64_t seen)
{
    if (rng == NULL || slot == NULL)
        return FSH_EINVAL;
    int rc = fsh_rng_ready(rng);
    if (rc != FSH_OK)
        return rc;
    if (seen < (uint64_t)k) {
        *slot = (size_t)seen;
        return FSH_OK;
    }
    if (k == 0) {
        *slot = 0;
        return FSH_OK;
    }
    /* The kept items are a k-subset of the seen + 1 so far: reachable by
       the seed, or by hardware entropy mixed in along the stream. */
    if ((rc = fsh_rng_reach_subset(rng, seen, k)) != FSH_OK)
        return rc;
    /* Item seen+1 of the stream survives with probability k/(seen+1), and
       then evicts a uniformly chosen slot. */
    uint64_t j;
    rc = fsh_uniform_range(rng, &j, 0, seen);
    if (rc != FSH_OK)
        return rc;
    *slot = j < (uint64_t)k ? (size_t)j : k;
    return FSH_OK;
}
