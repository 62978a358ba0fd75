/* SPDX-License-Identifier: MIT */
/* `fairshuf deal`'s output: plain text, the terminal's aligned and
   coloured columns, and JSON (schema fairshuf-deal/1, docs/CARDS.md). */
#ifndef FSH_CLI_DEAL_RENDER_H
#define FSH_CLI_DEAL_RENDER_H

#include "deal/options.h"
#include "fairshuf.h"
#include "io/output.h"

/* One dealt round: cards[] holds the burned cards, then the hands
   (hand p's card c at burn + p * cards + c), then the rest. */
typedef struct deal_round {
    const deal_opts *o;
    const fsh_cardset *set;
    const uint32_t *cards;
    size_t rest;     /* cards after the hands (dealt when shown) */
    int cut_reached; /* the round dealt the cut card */
    const char *mode; /* "os", "seed" or "fair" */
    /* A provably fair round (mode "fair"): the commitment (hex), the
       server seed in hex when revealed (else NULL), the client seed. */
    const char *commitment, *server_seed_hex;
    const char *client;
    uint64_t nonce;
} deal_round;

/* How text looks: on a terminal, aligned columns and, unless NO_COLOR,
   red suits in colour. */
typedef struct deal_style {
    int tty, colour;
} deal_style;

void render_text(outw *w, const deal_round *r, deal_style st);
void render_json(outw *w, const deal_round *r);

#endif
