/* SPDX-License-Identifier: MIT */
/* The O(1) deck's object (struct fsh_deck), private: exposed to the
   white-box tests, which check what a reset or a free leaves in it
   (tests/test_deck.c, tests/test_wipe.c). */
#ifndef FSH_DECK_H
#define FSH_DECK_H

#include "rng/rng.h"

struct fsh_deck {
    size_t n;         /* cards in the deck */
    size_t remaining; /* cards[0..remaining) are undealt */
    size_t cut;       /* cards before the cut card; 0: none */
    /* undo[r - 1] = the index swapped with position r - 1 when the deck
       dealt from r remaining cards: fsh_deck_reset replays the swaps
       backwards to restore the made order (the replay rule). Entries
       below remaining are 0 (zeroed as the swaps are taken back). */
    uint32_t *undo;
    /* Indices drawn ahead in one batch: pend[pos..npend) are the choices for
       remaining, remaining-1, ... A deck of 52 deals from about 4 words.
       Dropped dice are wiped: they are the positions of cards not yet
       dealt. */
    unsigned pos, npend;
    uint64_t pend_key; /* key id of the rng keying that drew pend */
    uint64_t pend[64];
    /* Reachability of the prefix dealt since the last reset: the group
       state of a mixing rng (rng/rng.h, fsh_rng_reach_begin). */
    fsh_reach_state reach;
    /* Nonzero while a deal draws (deal_draws): the rng's callback, a
       caller's word or [1, k] source, may call back into the library, and
       a deal, burn, reset or cut of this deck from there is refused
       (FSH_EINVAL) instead of moving cards under the running deal, which
       then dealt one of them twice. */
    int busy;
    uint32_t cards[]; /* dealt cards sit at the end, last dealt first;
                         undo follows the n cards */
};

#endif /* FSH_DECK_H */
