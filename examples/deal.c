/* SPDX-License-Identifier: MIT */
/* Deal four poker hands of five cards from a fair deck, reproducibly when a
   seed is given: ./deal [SEED]. Seeds shorter than 29 bytes cannot reach all
   52! orders, so the example opts into simulation grade for them.
   Build: cc -Iinclude examples/deal.c libfairshuf.a -lsodium -lm -lpthread */
#include <fairshuf.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    fsh_rng *rng = NULL;
    fsh_deck *deck = NULL;
    int rc = fsh_rng_new(&rng);
    if (rc == FSH_OK && argc > 1) {
        rc = fsh_rng_seed(rng, argv[1], strlen(argv[1]));
        if (rc == FSH_OK && fsh_rng_max_fair_n(rng) < 52)
            rc = fsh_rng_set_simulation(rng, 1);
    }
    if (rc == FSH_OK)
        rc = fsh_deck_new(&deck, 52);
    for (int hand = 0; rc == FSH_OK && hand < 4; hand++) {
        uint32_t cards[5];
        rc = fsh_deck_deal_n(rng, deck, cards, 5);
        for (int i = 0; rc == FSH_OK && i < 5; i++) {
            char name[8];
            rc = fsh_card_name(name, sizeof name, cards[i], FSH_CARD_POKER);
            if (rc == FSH_OK)
                printf("%s%c", name, i == 4 ? '\n' : ' ');
        }
    }
    if (rc == FSH_OK)
        printf("%zu cards left\n", fsh_deck_remaining(deck));
    fsh_deck_free(deck);
    fsh_rng_free(rng);
    if (rc != FSH_OK) {
        fprintf(stderr, "deal: %s\n", fsh_strerror(rc));
        return 1;
    }
    return 0;
}
