/* SPDX-License-Identifier: MIT */
/* fairshuf's deck (fsh_deck_deal_n, a lazy Fisher-Yates): must pass. */
#include "shuffler.h"

static void deal_one(uint32_t *a, size_t n, uint64_t deal)
{
    static fsh_deck *deck;
    (void)deal;
    if ((deck == NULL && fsh_deck_new(&deck, n) != FSH_OK) ||
        fsh_deck_reset(deck) != FSH_OK ||
        fsh_deck_deal_n(rng, deck, a, n) != FSH_OK)
        exit(3);
}
