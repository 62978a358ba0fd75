/* SPDX-License-Identifier: MIT */
/* fairshuf's shoe: D decks dealt whole by the deck (fsh_cardset_standard,
   fsh_deck_new_set, reset between deals): must pass. Prints T deals, one
   per line, in poker notation (every card D times):
       shoe T D [SEED]
   Its own main: the numbers 1..N of shuffler.h cannot repeat. */
#include "fairshuf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s DEALS DECKS [SEED]\n", argv[0]);
        return 2;
    }
    uint64_t t = strtoull(argv[1], NULL, 10);
    unsigned decks = (unsigned)strtoul(argv[2], NULL, 10);
    const char *seed = argc > 3 ? argv[3] : "audit";
    fsh_rng *rng;
    fsh_cardset *set;
    fsh_deck *deck;
    if (fsh_rng_new_seeded(&rng, seed, strlen(seed)) != FSH_OK ||
        fsh_rng_set_simulation(rng, 1) != FSH_OK ||
        fsh_cardset_standard(&set, decks, 0) != FSH_OK ||
        fsh_deck_new_set(&deck, set) != FSH_OK)
        return 2;
    size_t n = fsh_cardset_size(set);
    uint32_t *a = malloc(n * sizeof *a);
    if (a == NULL)
        return 2;
    static char obuf[1 << 16];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    for (uint64_t d = 0; d < t; d++) {
        if (fsh_deck_reset(deck) != FSH_OK ||
            fsh_deck_deal_n(rng, deck, a, n) != FSH_OK)
            return 3;
        for (size_t i = 0; i < n; i++) {
            char name[8];
            if (fsh_cardset_name(set, name, sizeof name, a[i],
                                 FSH_CARD_POKER) != FSH_OK)
                return 3;
            fputs(name, stdout);
            putchar(i + 1 < n ? ' ' : '\n');
        }
    }
    free(a);
    fsh_deck_free(deck);
    fsh_cardset_free(set);
    fsh_rng_free(rng);
    return fflush(stdout) != 0;
}
