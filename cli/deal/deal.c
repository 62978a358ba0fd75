/* SPDX-License-Identifier: MIT */
/* `fairshuf deal`: deal from a shuffled deck or shoe as a table does
   (burn, hands, the rest, the cut card). Messages as the rest of the
   command: "fairshuf: ...", GNU-style quoting and exit codes. */
#include "deal/deal.h"

#include "common/msg.h"
#include "common/quote.h"
#include "common/rng.h"
#include "common/sysio.h"
#include "common/xalloc.h"
#include "deal/memory.h"
#include "deal/options.h"
#include "deal/render.h"
#include "verify/verify.h"
#include "fairshuf.h"
#include "io/output.h"
#include "../../shared/utf8.h"

#include <errno.h>
#include <fcntl.h>
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
    uint32_t *order; /* a provably fair round's deal order */
    uint8_t *seed;   /* its server seed (wiped before it is freed) */
    size_t seed_len;
    char *seed_hex; /* the seed in hex, for --reveal */
    outw *out;
} deal_run;

static void run_free(void *ctx)
{
    deal_run *run = ctx;
    fsh_deck_free(run->deck);
    fsh_cardset_free(run->set);
    fsh_rng_free(run->rng);
    free(run->cards);
    free(run->order);
    if (run->seed != NULL)
        explicit_bzero(run->seed, run->seed_len);
    free(run->seed);
    if (run->seed_hex != NULL)
        explicit_bzero(run->seed_hex, 2 * run->seed_len);
    free(run->seed_hex);
    out_free(run->out);
    free(run->o.vals);
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
    size_t hands = o->players * o->cards, rest = deal_rest(o);
    size_t total = o->burn + hands + rest;
    /* The cards dealt and the deck (8 bytes a card in the library: the
       card and its undo entry), asked for in one request first: a shoe
       that can never fit is refused at once (the largest, 2^32 - 48
       cards, needs about 51 GB), not dealt until the OOM killer ends
       the run (xreserve). */
    xreserve(deal_peak_bytes(o));
    run->cards = xmalloc((total > 0 ? total : 1) * sizeof *run->cards);
    *cut_reached = 0;
    if (total == 0)
        return 0;
    check_status(fsh_deck_new_set(&run->deck, run->set));
    if (o->penetration > 0)
        check_status(fsh_deck_set_cut(run->deck, o->penetration));
    /* Every order of the shoe reachable, at any size: RDSEED entropy mixed
       in beyond the key's 57 cards, or a refusal where there is none. */
    run->rng = rng_make_dealer(o->seed, o->gen);
    /* One call each for the burn, the hands and the rest, whatever their
       size: a mixing deal draws its hardware words a few KiB at a time as
       it reaches them (fsh_deck_deal_n), and the hands are laid out by
       the library. The burned cards are dealt face down: dealt, to be
       shown. */
    fsh_rng *rng = run->rng;
    check_status(fsh_deck_deal_n(rng, run->deck, run->cards, o->burn));
    check_status(fsh_deck_deal_hands(rng, run->deck, run->cards + o->burn,
                                     o->players, o->cards, o->layout));
    *cut_reached = o->penetration > 0 &&
                   fsh_deck_needs_shuffle(run->deck) == 1;
    check_status(
        fsh_deck_deal_n(rng, run->deck, run->cards + o->burn + hands, rest));
    return rest;
}

/* ------------------------------------------------------------------------ */
/* A provably fair round                                                    */

/* The whole of file name ("-": standard input), NUL-terminated. */
static char *read_text(const char *name, size_t *len)
{
    int fd = strcmp(name, "-") == 0 ? STDIN_FILENO
                                    : open_safer(name, O_RDONLY, 0);
    if (fd < 0)
        die(errno, "%s", quotef(name));
    /* At most FAIR_SEED_FILE_MAX bytes (1000 decks need 126 KiB of hex),
       refused in verify's words; the buffer holds one more, to find a
       file over it, and the NUL. */
    size_t cap = 4096, n = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        if (n > FAIR_SEED_FILE_MAX) {
            free(buf);
            die(0, "%s: file too large", quotef(name));
        }
        if (n + 1 == cap) {
            cap = cap > FAIR_SEED_FILE_MAX / 2 ? FAIR_SEED_FILE_MAX + 2
                                               : 2 * cap;
            buf = xrealloc(buf, cap);
        }
        ssize_t r = read_retry(fd, buf + n, cap - 1 - n);
        if (r < 0) {
            int e = errno;
            free(buf);
            die(e, "%s", quotef(name));
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    if (fd != STDIN_FILENO)
        close(fd);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* run->seed = the server seed from its file (hex, ASCII blanks ignored),
   long enough for the shoe. */
static void load_server_seed(deal_run *run)
{
    const deal_opts *o = &run->o;
    size_t tlen, n;
    char *text = read_text(o->server_seed_file, &tlen);
    int rc = fsh_fair_hex_decode(NULL, 0, &n, text, tlen);
    if (rc == FSH_OK) {
        run->seed = xmalloc(n > 0 ? n : 1);
        rc = fsh_fair_hex_decode(run->seed, n, &run->seed_len, text, tlen);
    }
    explicit_bzero(text, tlen);
    free(text);
    /* As fairshuf verify says of the same seed file. */
    if (rc != FSH_OK)
        die(0, "malformed hex in %s", quotef(o->server_seed_file));
    fair_seed_check(run->seed_len, o->decks, o->jokers);
}

/* The deal order from (server seed, client seed, nonce), cut into burn,
   hands and rest as the deck would deal them. */
static size_t deal_fair(deal_run *run, int *cut_reached)
{
    const deal_opts *o = &run->o;
    const char *client = o->client_seed != NULL ? o->client_seed : "";
    size_t n = o->shoe, hands = o->players * o->cards;
    load_server_seed(run);
    run->order = xmalloc(n * sizeof *run->order);
    run->cards = xmalloc(n * sizeof *run->cards);
    check_status(fsh_fair_order(run->order, 52 + o->jokers, o->decks,
                                run->seed, run->seed_len, client,
                                strlen(client), o->nonce));
    memcpy(run->cards, run->order, o->burn * sizeof *run->cards);
    for (size_t p = 0; p < o->players; p++)
        for (size_t c = 0; c < o->cards; c++) {
            size_t q;
            check_status(fsh_hand_position(&q, p, c, o->players, o->cards,
                                           o->layout));
            run->cards[o->burn + p * o->cards + c] = run->order[o->burn + q];
        }
    memcpy(run->cards + o->burn + hands, run->order + o->burn + hands,
           (n - o->burn - hands) * sizeof *run->cards);
    /* As fsh_deck_needs_shuffle: the cut card is out once that many cards
       have been dealt. */
    *cut_reached = o->penetration > 0 && o->burn + hands >= o->penetration;
    return n - o->burn - hands;
}

/* The fair fields of the round: the commitment, and with --reveal the
   server seed in hex. */
static void fair_record(deal_run *run, deal_round *r, char commit[65])
{
    static const char digits[] = "0123456789abcdef";
    const deal_opts *o = &run->o;
    check_status(fsh_fair_commit(commit, run->seed, run->seed_len));
    r->mode = "fair";
    r->commitment = commit;
    r->client = o->client_seed != NULL ? o->client_seed : "";
    r->nonce = o->nonce;
    if (o->reveal) {
        run->seed_hex = xmalloc(2 * run->seed_len + 1);
        for (size_t i = 0; i < run->seed_len; i++) {
            run->seed_hex[2 * i] = digits[run->seed[i] >> 4];
            run->seed_hex[2 * i + 1] = digits[run->seed[i] & 15];
        }
        run->seed_hex[2 * run->seed_len] = '\0';
        r->server_seed_hex = run->seed_hex;
    }
}

/* ------------------------------------------------------------------------ */

int cmd_deal(int argc, char **argv)
{
    deal_run run;
    memset(&run, 0, sizeof run);
    set_die_hook(run_free, &run);
    deal_parse(&run.o, argc, argv);
    deal_check(&run.o);
    /* FAIRNESS.md: the client seed is text, dealt and verified as its
       UTF-8 bytes; other bytes could be checked by no verifier that takes
       text (web/verify.html, verify_deal.py) nor carried by the JSON, and
       fsh_fair_order refuses them (said here before it is called). */
    if (run.o.client_seed != NULL && !utf8_valid(run.o.client_seed))
        die(0, "the client seed is not valid UTF-8 (the verifiers take text)");
    deal_check_memory(&run.o);
    check_status(fsh_cardset_standard(&run.set, run.o.decks, run.o.jokers));

    deal_round r;
    char commit[FSH_FAIR_COMMIT_LEN];
    memset(&r, 0, sizeof r);
    r.o = &run.o;
    r.set = run.set;
    r.mode = run.o.seed != NULL ? "seed" : "os";
    if (run.o.server_seed_file != NULL) {
        r.rest = deal_fair(&run, &r.cut_reached);
        fair_record(&run, &r, commit);
    } else {
        r.rest = deal_round_cards(&run, &r.cut_reached);
    }
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
