/* SPDX-License-Identifier: MIT */
/* `fairshuf deal`'s command line: the options as given, then checked
   against the shoe they describe. */
#ifndef FSH_CLI_DEAL_OPTIONS_H
#define FSH_CLI_DEAL_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

enum deal_format { FMT_UNICODE, FMT_TEXT, FMT_JSON };

typedef struct deal_opts {
    /* As given (NULL: not given); checked by deal_check. */
    const char *decks_arg, *jokers_arg, *players_arg, *cards_arg, *burn_arg,
        *penetration_arg, *nonce_arg;
    /* Every value given to those number options, in order (the *_arg
       above are the first of each): deal_check checks each one, then
       that they agree. */
    struct deal_val {
        const char **slot; /* &decks_arg, ...: which option */
        const char *arg;
    } *vals;
    size_t nvals;
    int total_cards; /* cards_arg came from -n (all the cards, one hand) */
    int layout;      /* FSH_DEAL_ROUND_ROBIN or FSH_DEAL_BLOCKS */
    enum deal_format format;
    const char *seed; /* --seed: simulation */
    const char *gen_arg; /* --generator as given (NULL: none) */
    int gen;             /* its fsh_gen, or GEN_DEFAULT */
    /* A provably fair round (fsh_fair_order): the server seed's file (hex),
       the client seed, --reveal prints the server seed. */
    const char *server_seed_file, *client_seed;
    int reveal;

    /* Set by deal_check. */
    unsigned decks, jokers;
    size_t shoe;        /* cards in the shoe */
    size_t players;     /* 1 unless --players */
    size_t cards;       /* per hand */
    size_t burn;        /* burned before the hands */
    size_t penetration; /* cards before the cut card; 0: no cut card */
    uint64_t nonce;     /* of the provably fair round */
    int table; /* a table round (labels, rest): --players, --burn,
                  --penetration or a provably fair round; otherwise cards
                  in rows of 13 as ever */
} deal_opts;

/* Parse argv (argv[0] = "deal") into o; --help and --version exit here,
   bad usage dies with a message and exit status 1. */
void deal_parse(deal_opts *o, int argc, char **argv);

/* Check the numbers against each other and fill in the derived fields;
   dies with a message on bad input. */
void deal_check(deal_opts *o);

/* The cards a checked round deals after the burn and the hands: the rest
   of the shoe where it is shown (a table round, the JSON), else none. */
size_t deal_rest(const deal_opts *o);

#endif
