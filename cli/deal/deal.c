/* `fairshuf deal`: deal from a shuffled deck or shoe as a table does
   (burn, hands, the rest, the cut card). Messages as the rest of the
   command: "fairshuf: ...", GNU-style quoting and exit codes. */
#include "deal/deal.h"

#include "common/msg.h"
#include "common/rng.h"
#include "common/xalloc.h"
#include "deal/options.h"
#include "deal/render.h"
#include "fairshuf.h"
#include "io/output.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Everything the run owns, for the die hook. */
typedef struct deal_run {
    deal_opts o;
    fsh_cardset *set;
    fsh_deck *deck;
    fsh_rng *rng;
    uint32_t *cards;
    outw *out;
} deal_run;

static void run_free(void *ctx)
{
    deal_run *run = ctx;
    fsh_deck_free(run->deck);
    fsh_cardset_free(run->set);
    fsh_rng_free(run->rng);
    free(run->cards);
    out_free(run->out);
    memset(run, 0, sizeof *run);
}

/* Colour only for a terminal, and never when NO_COLOR is set and not empty
   (https://no-color.org). */
static deal_style style_of_stdout(void)
{
    deal_style st = {isatty(STDOUT_FILENO), 0};
    const char *nc = getenv("NO_COLOR");
    st.colour = st.tty && (nc == NULL || nc[0] == '\0');
    return st;
}

/* Deal the round into run->cards: burn, hands, then (if shown) the rest.
   Returns the number of rest cards dealt. A simple text deal draws only
   the cards it prints, so -n 0 needs no entropy. */
static size_t deal_round_cards(deal_run *run, int *cut_reached)
{
    const deal_opts *o = &run->o;
    size_t hands = o->players * o->cards;
    int show_rest = o->table || o->format == FMT_JSON;
    size_t rest = show_rest ? o->shoe - o->burn - hands : 0;
    size_t total = o->burn + hands + rest;
    run->cards = xmalloc((total > 0 ? total : 1) * sizeof *run->cards);
    *cut_reached = 0;
    if (total == 0)
        return 0;
    check_status(fsh_deck_new_set(&run->deck, run->set));
    if (o->penetration > 0)
        check_status(fsh_deck_set_cut(run->deck, o->penetration));
    run->rng = rng_make(o->seed);
    /* The burned cards are dealt face down: dealt, to be shown. */
    check_status(fsh_deck_deal_n(run->rng, run->deck, run->cards, o->burn));
    check_status(fsh_deck_deal_hands(run->rng, run->deck,
                                     run->cards + o->burn, o->players,
                                     o->cards, o->layout));
    *cut_reached = o->penetration > 0 &&
                   fsh_deck_needs_shuffle(run->deck) == 1;
    check_status(fsh_deck_deal_n(run->rng, run->deck,
                                 run->cards + o->burn + hands, rest));
    return rest;
}

int cmd_deal(int argc, char **argv)
{
    deal_run run;
    memset(&run, 0, sizeof run);
    set_die_hook(run_free, &run);
    deal_parse(&run.o, argc, argv);
    deal_check(&run.o);
    check_status(fsh_cardset_standard(&run.set, run.o.decks, run.o.jokers));

    deal_round r = {&run.o, run.set, NULL, 0, 0,
                    run.o.seed != NULL ? "seed" : "os"};
    r.rest = deal_round_cards(&run, &r.cut_reached);
    r.cards = run.cards;

    run.out = out_new(STDOUT_FILENO);
    if (run.o.format == FMT_JSON)
        render_json(run.out, &r);
    else
        render_text(run.out, &r, style_of_stdout());
    out_finish(run.out, 1);
    run_free(&run);
    set_die_hook(NULL, NULL);
    return 0;
}
