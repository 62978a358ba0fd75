/* SPDX-License-Identifier: MIT */
/* The naive loop: swap every a[i] with a[j], j uniform over all n
   positions (n^n equally likely paths onto n! orders: not uniform). */
#include "shuffler.h"

static void deal_one(uint32_t *a, size_t n, uint64_t deal)
{
    (void)deal;
    for (size_t i = 0; i < n; i++)
        swap32(a, i, (size_t)below(n));
}
