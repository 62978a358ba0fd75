/* SPDX-License-Identifier: MIT */
/* `fairshuf verify`: check a provably fair round ("fairshuf-deal-v1",
   docs/FAIRNESS.md) from the revealed server seed: the commitment, then the
   dealt cards (arguments, or the JSON `fairshuf deal --format json`
   printed) against the deal the seed gives. VALID: exit 0; NOT VALID
   (with exactly what differs): exit 1; bad input: "fairshuf: ..." and
   exit 1. */
#include "verify/verify.h"

#include "common/msg.h"
#include "common/number.h"
#include "common/quote.h"
#include "common/sysio.h"
#include "common/xalloc.h"
#include "fairshuf.h"
#include "io/output.h"
#include "verify/json.h"
#include "version.h"
#include "../../shared/utf8.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    OPT_SEED = 256,
    OPT_SEED_FILE,
    OPT_COMMITMENT,
    OPT_CLIENT,
    OPT_NONCE,
    OPT_DECKS,
    OPT_JOKERS,
    OPT_BURN,
    OPT_PLAYERS,
    OPT_CARDS,
    OPT_LAYOUT,
    OPT_HAND,
    OPT_REST,
    OPT_JSON,
    OPT_PRINT,
    OPT_HELP,
    OPT_VERSION
};

#define LAYOUT_ROUND_ROBIN 0
#define LAYOUT_BLOCKS 1
/* Every allocation stays reachable from here until exit, so that a fatal
   error (die) after it is not a leak to LeakSanitizer or valgrind; the
   normal paths free what they allocated. */
static void *roots[128];
static size_t nroots;

static void *keep(void *p)
{
    if (nroots < sizeof roots / sizeof *roots)
        roots[nroots++] = p;
    return p;
}

static _Noreturn void help(void)
{
    static char text[5120];
    snprintf(
        text, sizeof text,
        "Usage: %s [OPTION]... [CARD]...\n"
        "  or:  %s --json=FILE [OPTION]...\n"
        "Check a provably fair deal (fairshuf-deal-v1) from the revealed server\n"
        "seed: SHA-256 of the seed must be the commitment published before play,\n"
        "and the CARDs dealt (poker notation: As Th 2c RJ BJ; or with suit\n"
        "symbols: A\xE2\x99\xA0 10\xE2\x99\xA5) must be the deal that the server seed, "
        "client seed and\n"
        "nonce give. Prints VALID, or NOT VALID and exactly what does not match.\n"
        "\n"
        "      --server-seed=HEX       the revealed server seed: hex digits in pairs,\n"
        "                              ASCII blanks (space, \\t \\n \\v \\f \\r)\n"
        "                              anywhere skipped, anything else refused\n"
        "      --server-seed-file=F    file holding it, read as --server-seed\n"
        "                              (- for standard input)\n"
        "      --commitment=HEX        the published SHA-256 of the server seed:\n"
        "                              64 hex digits, nothing else, no blank\n"
        "      --client-seed=S         the client seed (UTF-8 text; default empty)\n"
        "      --nonce=N               the round's nonce (default 0)\n"
        "      --decks=D               decks in the shoe (default 1)\n"
        "      --jokers=J              jokers per deck: 0, 1 or 2 (default 0)\n"
        "      --burn=B                the first B CARDs are burn cards\n"
        "      --players=P             then P hands of K cards, hand by hand\n"
        "      --cards=K               cards per hand (with --players)\n"
        "      --layout=L              how hands were dealt: round-robin (default)\n"
        "                              or blocks\n"
        "      --hand=H                the CARDs are hand H's alone (1 to P; with\n"
        "                              --players), in the order it got them\n"
        "      --rest                  the CARDs are the rest alone (the board):\n"
        "                              the cards after the burn cards and hands\n"
        "      --json=FILE             read the deal from the JSON that\n"
        "                              'fairshuf deal --format json' printed\n"
        "                              (- for standard input)\n"
        "      --print-order           print the deal order the seed gives, and exit\n"
        "      --help                  display this help and exit\n"
        "      --version               output version information and exit\n"
        "\n"
        "Without --players, the CARDs are in deal order. With it, they are the\n"
        "B burn cards, then hand 1's K cards, hand 2's, ..., then the rest in\n"
        "deal order. Fewer CARDs than the shoe check that prefix.\n"
        "With --hand=H, the CARDs are hand H's cards (at most K), as that player\n"
        "received them; with --rest, the cards after the B burn cards and the P\n"
        "hands, in deal order: a player checks his own hand, or the board, alone.\n"
        "Only a server seed's hex (the JSON's server_seed too) skips blanks:\n"
        "numbers are decimal digits only, a CARD is its name exactly, and\n"
        "blanks in a client seed are part of it.\n"
        "An option given twice must have the same value both times: numbers, the\n"
        "server seed's bytes and the commitment by value, names and the client\n"
        "seed byte for byte. --server-seed and --server-seed-file: not both.\n"
        "Exit status: 0 if VALID, 1 if NOT VALID or on bad input.\n",
        program_name, program_name);
    emit_text(text);
}

static uint64_t opt_num(const char *what, const char *arg, uint64_t min,
                        uint64_t max)
{
    uint64_t v;
    if (parse_udec(arg, min, max, &v) != 0)
        die(0, "invalid %s: %s (%llu to %llu)", what, quote(arg),
            (unsigned long long)min, (unsigned long long)max);
    return v;
}

/* Every value given to an option that takes one, in order. Given twice,
   an option must have the same value both times, as in fairshuf deal and
   shuf mode: where the option is read, every value it was given is checked
   (an invalid one is reported as such, whatever came before), then they
   must agree, or it is "multiple WHAT specified" (exit 1). Numbers and hex
   are the same when their values are (--nonce=7 --nonce=07); names and
   the client seed when their bytes are. */
typedef struct {
    int opt;
    const char *arg;
} optval;

static optval *optvals;
static size_t noptvals;

/* The k-th value (from 0) given to option opt; NULL after the last. */
static const char *opt_arg(int opt, size_t k)
{
    for (size_t i = 0; i < noptvals; i++)
        if (optvals[i].opt == opt && k-- == 0)
            return optvals[i].arg;
    return NULL;
}

/* *v = the value of number option opt (what, min and max: opt_num's),
   the same every time it was given; 0 if it was not given. */
static int num_once(int opt, const char *what, const char *many,
                    uint64_t min, uint64_t max, uint64_t *v)
{
    const char *arg;
    size_t k;
    int differ = 0;
    for (k = 0; (arg = opt_arg(opt, k)) != NULL; k++) {
        uint64_t x = opt_num(what, arg, min, max);
        differ |= k > 0 && x != *v;
        if (k == 0)
            *v = x;
    }
    if (differ)
        die(0, "multiple %s specified", many);
    return k > 0;
}

/* The value of a name option (a file, a layout), byte for byte the same
   every time it was given (seed.hex and ./seed.hex differ, as shuf mode
   compares -o); NULL if it was not given. */
static const char *name_once(int opt, const char *many)
{
    const char *first = opt_arg(opt, 0), *arg;
    for (size_t k = 1; (arg = opt_arg(opt, k)) != NULL; k++)
        if (strcmp(arg, first) != 0)
            die(0, "multiple %s specified", many);
    return first;
}

/* --client-seed, byte for byte the same every time it was given (its
   blanks are bytes of it); NULL if it was not given. Two different ones,
   one of them too long: that one is reported first. */
static const char *client_once(void)
{
    const char *first = opt_arg(OPT_CLIENT, 0), *arg;
    int differ = 0;
    for (size_t k = 1; (arg = opt_arg(OPT_CLIENT, k)) != NULL; k++)
        differ |= strcmp(arg, first) != 0;
    if (!differ)
        return first;
    for (size_t k = 0; (arg = opt_arg(OPT_CLIENT, k)) != NULL; k++)
        if (strlen(arg) > FSH_FAIR_CLIENT_MAX)
            die(0, "client seed longer than %d bytes", FSH_FAIR_CLIENT_MAX);
    die(0, "multiple client seeds specified");
}

/* The whole of a file (or standard input for "-"), NUL-terminated. */
static char *slurp(const char *name, size_t *len)
{
    /* open_safer: with standard input closed, the file must not take its
       descriptor and be read again for "-". */
    int fd = strcmp(name, "-") == 0 ? STDIN_FILENO
                                    : open_safer(name, O_RDONLY, 0);
    if (fd < 0)
        die(errno, "%s", quotef(name));
    /* At most VERIFY_MAX_FILE bytes (the largest deal: < 1 MB); the buffer
       holds one more, to find a file over it, and the NUL. */
    size_t cap = 4096, n = 0;
    char *buf = keep(xmalloc(cap));
    for (;;) {
        if (n > VERIFY_MAX_FILE)
            die(0, "%s: file too large", quotef(name));
        if (n + 1 == cap) {
            cap = cap > VERIFY_MAX_FILE / 2 ? VERIFY_MAX_FILE + 2 : 2 * cap;
            buf = keep(xrealloc(buf, cap));
        }
        ssize_t r = read_retry(fd, buf + n, cap - 1 - n);
        if (r < 0)
            die(errno, "%s", quotef(name));
        if (r == 0)
            break;
        n += (size_t)r;
    }
    if (fd != STDIN_FILENO)
        close(fd);
    buf[n] = '\0';
    *len = n;
    return keep(buf);
}

static uint8_t *decode_seed(const char *text, size_t tlen, const char *what,
                            size_t *len)
{
    size_t n;
    if (fsh_fair_hex_decode(NULL, 0, &n, text, tlen) != FSH_OK)
        die(0, "malformed hex in %s", what);
    uint8_t *seed = keep(xmalloc(n ? n : 1));
    if (fsh_fair_hex_decode(seed, n, len, text, tlen) != FSH_OK)
        die(0, "malformed hex in %s", what);
    return seed;
}

/* --server-seed: every value given is hex, and they decode to the same
   bytes (the blanks and the case aside); NULL if it was not given. */
static uint8_t *seed_once(size_t *len)
{
    const char *arg;
    uint8_t *seed = NULL;
    int differ = 0;
    for (size_t k = 0; (arg = opt_arg(OPT_SEED, k)) != NULL; k++) {
        size_t n;
        uint8_t *s = decode_seed(arg, strlen(arg), "--server-seed", &n);
        if (k == 0) {
            seed = s;
            *len = n;
            continue;
        }
        differ |= n != *len || memcmp(s, seed, n) != 0;
        free(s);
    }
    if (differ)
        die(0, "multiple server seeds specified");
    return seed;
}

/* A commitment: 64 hex digits (either case), lowered into out. */
static void parse_commitment(char out[65], const char *s, const char *what)
{
    size_t n = strlen(s);
    int ok = n == 64;
    for (size_t k = 0; ok && k < 64; k++) {
        char c = s[k];
        if (c >= 'A' && c <= 'F')
            c = (char)(c - 'A' + 'a');
        ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
        out[k] = c;
    }
    if (!ok)
        die(0, "malformed commitment in %s: %s (64 hex digits)", what,
            quote(s));
    out[64] = '\0';
}

/* --commitment, lowered into out: every value given is a commitment, and
   they are the same digits (the case aside); 0 if it was not given. */
static int commitment_once(char out[65])
{
    char other[65];
    const char *arg;
    size_t k;
    int differ = 0;
    for (k = 0; (arg = opt_arg(OPT_COMMITMENT, k)) != NULL; k++) {
        parse_commitment(k == 0 ? out : other, arg, "--commitment");
        differ |= k > 0 && strcmp(other, out) != 0;
    }
    if (differ)
        die(0, "multiple commitments specified");
    return k > 0;
}

/* Card by name in the standard set of `faces` faces (52 + jokers): poker
   or Unicode notation, jokers RJ (52) and BJ (53). */
static int parse_card(const char *name, size_t faces, uint32_t *card)
{
    if (strcmp(name, "RJ") == 0)
        *card = 52;
    else if (strcmp(name, "BJ") == 0)
        *card = 53;
    else if (fsh_card_parse(card, name) != FSH_OK)
        return -1;
    return *card < faces ? 0 : -2;
}

static void card_name(char buf[8], uint32_t card)
{
    if (card >= 52)
        strcpy(buf, card == 52 ? "RJ" : "BJ");
    else if (fsh_card_name(buf, 8, card, FSH_CARD_POKER) != FSH_OK)
        strcpy(buf, "?");
}

static size_t hand_position(size_t player, size_t card, size_t players,
                            size_t cards, int layout)
{
    return layout == LAYOUT_BLOCKS ? player * cards + card
                                   : card * players + player;
}

typedef struct {
    /* The round. */
    uint8_t *seed;
    size_t seed_len;
    const char *seed_from;   /* where the seed came from, for messages */
    int have_commitment;
    char commitment[65];
    char *client;
    size_t client_len;
    uint64_t nonce;
    unsigned decks, jokers;
    /* The deal as given: names in printed order, mapped to positions. */
    size_t burn, players, cards;
    int layout, have_players;
    size_t hand;             /* --hand: 1 to players; 0 without it */
    int rest;                /* --rest */
    char **given;            /* names as printed */
    size_t ngiven;
} round_t;

static void round_free(round_t *r)
{
    free(r->seed);
    r->seed = NULL;
}

/* Deal position of the t-th given card (printed order: burn, hands, rest;
   with --hand, hand H's cards alone; with --rest, the rest alone). */
static size_t given_position(const round_t *r, size_t t, char *where,
                             size_t wlen)
{
    size_t hands = r->players * r->cards;
    if (r->hand) {
        snprintf(where, wlen, "hand %zu card %zu", r->hand, t + 1);
        return r->burn + hand_position(r->hand - 1, t, r->players, r->cards,
                                       r->layout);
    }
    if (r->rest) {
        snprintf(where, wlen, "rest card %zu", t + 1);
        return r->burn + hands + t;
    }
    if (!r->have_players || t < r->burn) {
        if (r->have_players && t < r->burn)
            snprintf(where, wlen, "burn card %zu", t + 1);
        else
            snprintf(where, wlen, "card %zu", t + 1);
        return t;
    }
    if (t < r->burn + hands) {
        size_t p = (t - r->burn) / r->cards, c = (t - r->burn) % r->cards;
        snprintf(where, wlen, "hand %zu card %zu", p + 1, c + 1);
        return r->burn + hand_position(p, c, r->players, r->cards, r->layout);
    }
    snprintf(where, wlen, "rest card %zu", t - r->burn - hands + 1);
    return t;
}

/* What does not match: at most a few lines, each printed as NOT VALID. */
typedef struct {
    char msg[6][320];
    size_t n;
} problems_t;

__attribute__((format(printf, 2, 3)))
static void problem(problems_t *pr, const char *fmt, ...)
{
    if (pr->n == sizeof pr->msg / sizeof *pr->msg)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pr->msg[pr->n++], sizeof pr->msg[0], fmt, ap);
    va_end(ap);
}

/* ---- --json ------------------------------------------------------------- */

static const jval *need(const jval *o, const char *key, enum jtype t,
                        const char *file)
{
    const jval *v = json_get(o, key);
    if (!v || v->type != t)
        die(0, "%s: malformed deal JSON: no %s %s", quotef(file),
            t == J_ARR ? "array" : t == J_STR ? "string" : t == J_OBJ ? "object" : "value",
            quote(key));
    /* A \u0000 would end the string for every comparison below, hiding
       what follows it; only the client seed (compared by length) may
       hold one. */
    if (t == J_STR && strcmp(key, "client_seed") != 0 &&
        strlen(v->str) != v->len)
        die(0, "%s: malformed deal JSON: a NUL in %s", quotef(file),
            quote(key));
    return v;
}

static uint64_t need_u64(const jval *o, const char *key, const char *file)
{
    const jval *v = need(o, key, J_NUM, file);
    if (!v->is_u64)
        die(0, "%s: malformed deal JSON: %s is not a non-negative integer",
            quotef(file), quote(key));
    return v->u;
}

static void add_names(round_t *r, size_t *cap, const jval *arr,
                      const char *file, const char *key)
{
    for (size_t k = 0; k < arr->len; k++) {
        if (arr->items[k].type != J_STR)
            die(0, "%s: malformed deal JSON: a card in %s is not a string",
                quotef(file), quote(key));
        if (strlen(arr->items[k].str) != arr->items[k].len)
            die(0, "%s: malformed deal JSON: a NUL in a card in %s",
                quotef(file), quote(key));
        /* The schema names cards in poker notation, ASCII (docs/CARDS.md):
           the suit symbols the CARD operands also take are not in it. An
           ASCII name that is no card is an unknown card, further on. */
        for (const char *s = arr->items[k].str; *s; s++)
            if ((unsigned char)*s >= 0x80)
                die(0, "%s: malformed deal JSON: card %s in %s is not in "
                       "poker notation (fairshuf-deal/1 cards are ASCII: "
                       "As Th 2c RJ BJ)",
                    quotef(file), quote(arr->items[k].str), quote(key));
        if (r->ngiven == *cap) {
            *cap = *cap ? 2 * *cap : 64;
            r->given = keep(xrealloc(r->given, *cap * sizeof *r->given));
        }
        r->given[r->ngiven++] = arr->items[k].str;
    }
}

/* Reads the JSON into r; the command line's values must agree with it
   (mismatches are collected as NOT VALID lines in *why). Returns the
   tree (the names in r->given point into it). */
static jval *read_json(round_t *r, const char *file, const char *cli_commit,
                       const char *cli_client, const char *cli_nonce,
                       problems_t *pr)
{
    size_t len, at;
    const char *why;
    char *text = slurp(file, &len);
    jval *doc = keep(xmalloc(sizeof *doc));
    int parsed = json_parse(doc, text, len, &why, &at);
    free(text);
    if (parsed != 0)
        die(0, "%s: malformed JSON at byte %zu: %s", quotef(file), at, why);
    if (doc->type != J_OBJ)
        die(0, "%s: malformed deal JSON: not an object", quotef(file));
    const jval *schema = need(doc, "schema", J_STR, file);
    if (strcmp(schema->str, "fairshuf-deal/1") != 0)
        die(0, "%s: unknown schema %s (fairshuf-deal/1 expected)",
            quotef(file), quote(schema->str));
    const jval *fair = json_get(doc, "fair");
    if (!fair || fair->type == J_NULL)
        die(0, "%s: not a provably fair deal (\"fair\" is null: mode %s)",
            quotef(file),
            json_get(doc, "mode") && json_get(doc, "mode")->type == J_STR
                ? quote(json_get(doc, "mode")->str) : "unknown");
    if (fair->type != J_OBJ)
        die(0, "%s: malformed deal JSON: \"fair\" is not an object", quotef(file));
    const jval *alg = need(fair, "algorithm", J_STR, file);
    if (strcmp(alg->str, FSH_FAIR_ALGORITHM) != 0)
        die(0, "%s: unknown algorithm %s (%s expected)", quotef(file),
            quote(alg->str), FSH_FAIR_ALGORITHM);
    uint64_t decks = need_u64(doc, "decks", file);
    uint64_t jokers = need_u64(doc, "jokers", file);
    if (decks < 1 || decks > FAIR_MAX_DECKS || jokers > 2)
        die(0, "%s: decks %llu and jokers %llu are not a supported shoe",
            quotef(file), (unsigned long long)decks, (unsigned long long)jokers);
    r->decks = (unsigned)decks;
    r->jokers = (unsigned)jokers;
    uint64_t in_shoe = need_u64(doc, "cards_in_shoe", file);
    if (in_shoe != (52 + jokers) * decks)
        die(0, "%s: cards_in_shoe is %llu, but %llu decks with %llu jokers "
            "hold %llu", quotef(file), (unsigned long long)in_shoe,
            (unsigned long long)decks, (unsigned long long)jokers,
            (unsigned long long)((52 + jokers) * decks));
    uint64_t players = need_u64(doc, "players", file);
    if (players == 0) /* deal always deals at least one hand */
        die(0, "%s: zero players", quotef(file));
    uint64_t cards = need_u64(doc, "cards_per_hand", file);
    const jval *layout = need(doc, "layout", J_STR, file);
    if (strcmp(layout->str, "round-robin") == 0)
        r->layout = LAYOUT_ROUND_ROBIN;
    else if (strcmp(layout->str, "blocks") == 0)
        r->layout = LAYOUT_BLOCKS;
    else
        die(0, "%s: unknown layout %s", quotef(file), quote(layout->str));
    const jval *burn = need(doc, "burn", J_ARR, file);
    const jval *hands = need(doc, "hands", J_ARR, file);
    const jval *rest = need(doc, "rest", J_ARR, file);
    if (hands->len != players)
        die(0, "%s: %zu hands for %llu players", quotef(file), hands->len,
            (unsigned long long)players);
    for (size_t p = 0; p < hands->len; p++)
        if (hands->items[p].type != J_ARR || hands->items[p].len != cards)
            die(0, "%s: hand %zu does not hold %llu cards", quotef(file),
                p + 1, (unsigned long long)cards);
    if (players > in_shoe || (players && cards > in_shoe / players) ||
        burn->len > in_shoe - players * cards)
        die(0, "%s: more cards dealt than the shoe holds (%llu)", quotef(file),
            (unsigned long long)in_shoe);
    r->have_players = 1;
    r->players = (size_t)players;
    r->cards = (size_t)cards;
    r->burn = burn->len;
    size_t cap = 0;
    add_names(r, &cap, burn, file, "burn");
    for (size_t p = 0; p < hands->len; p++)
        add_names(r, &cap, &hands->items[p], file, "hands");
    add_names(r, &cap, rest, file, "rest");

    const jval *c = need(fair, "commitment", J_STR, file);
    char jc[65];
    parse_commitment(jc, c->str, file);
    const jval *cs = need(fair, "client_seed", J_STR, file);
    uint64_t nonce = need_u64(fair, "nonce", file);
    if (cs->len > FSH_FAIR_CLIENT_MAX)
        die(0, "%s: client seed longer than %d bytes", quotef(file),
            FSH_FAIR_CLIENT_MAX);
    /* The command line may repeat what the player noted; it must agree. */
    if (cli_commit) {
        char cc[65];
        commitment_once(cc);
        if (strcmp(cc, jc) != 0)
            problem(pr, "commitment mismatch: the JSON says %s, --commitment %s",
                    jc, cc);
    }
    memcpy(r->commitment, jc, sizeof jc);
    r->have_commitment = 1;
    if (cli_client && (strlen(cli_client) != cs->len ||
                       memcmp(cli_client, cs->str, cs->len) != 0))
        problem(pr, "client seed mismatch: --client-seed differs from the "
                    "JSON's client_seed");
    r->client = cs->str;
    r->client_len = cs->len;
    if (cli_nonce && r->nonce != nonce)
        problem(pr, "nonce mismatch: the JSON says %llu, --nonce %llu",
                (unsigned long long)nonce, (unsigned long long)r->nonce);
    r->nonce = nonce;
    const jval *ss = json_get(fair, "server_seed");
    if (ss && ss->type != J_STR)
        die(0, "%s: malformed deal JSON: server_seed is not a string", quotef(file));
    if (ss) {
        size_t slen;
        uint8_t *s = decode_seed(ss->str, ss->len, "the JSON's server_seed", &slen);
        if (!r->seed) {
            r->seed = s;
            r->seed_len = slen;
            r->seed_from = "the JSON's server_seed";
        } else {
            if (slen != r->seed_len || memcmp(s, r->seed, slen) != 0)
                problem(pr, "server seed mismatch: the JSON's server_seed is "
                            "not the seed given");
            free(s);
        }
    }
    return doc;
}

/* ---- the command -------------------------------------------------------- */

void fair_seed_check(size_t len, unsigned decks, unsigned jokers)
{
    size_t need;
    check_status(fsh_fair_seed_min(&need, 52 + (size_t)jokers, decks));
    if (len < FSH_FAIR_SEED_MIN)
        die(0, "server seed too short: %zu byte%s (at least %d)", len,
            len == 1 ? "" : "s", FSH_FAIR_SEED_MIN);
    if (len < need)
        die(0, "server seed too short for this game: %zu bytes, %u deck%s "
               "with %u joker%s need%s at least %zu",
            len, decks, decks == 1 ? "" : "s", jokers,
            jokers == 1 ? "" : "s", decks == 1 ? "s" : "", need);
}

/* Flush the report and free what cmd_verify holds (the given names of a
   --json round point into doc). */
static void verify_done(outw *out, uint32_t *order, uint32_t *given, jval *doc,
                        round_t *r)
{
    out_finish(out, 1);
    free(out);
    free(order);
    free(given);
    free(optvals);
    if (doc) {
        json_free(doc);
        free(doc);
        free(r->given);
    }
    round_free(r);
}

int cmd_verify(int argc, char **argv)
{
    static const struct option opts[] = {
        {"server-seed", required_argument, NULL, OPT_SEED},
        {"server-seed-file", required_argument, NULL, OPT_SEED_FILE},
        {"commitment", required_argument, NULL, OPT_COMMITMENT},
        {"client-seed", required_argument, NULL, OPT_CLIENT},
        {"nonce", required_argument, NULL, OPT_NONCE},
        {"decks", required_argument, NULL, OPT_DECKS},
        {"jokers", required_argument, NULL, OPT_JOKERS},
        {"burn", required_argument, NULL, OPT_BURN},
        {"players", required_argument, NULL, OPT_PLAYERS},
        {"cards", required_argument, NULL, OPT_CARDS},
        {"layout", required_argument, NULL, OPT_LAYOUT},
        {"hand", required_argument, NULL, OPT_HAND},
        {"rest", no_argument, NULL, OPT_REST},
        {"json", required_argument, NULL, OPT_JSON},
        {"print-order", no_argument, NULL, OPT_PRINT},
        {"help", no_argument, NULL, OPT_HELP},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0}};
    round_t r = {0};
    const char *seed_arg = NULL, *seed_file = NULL, *commit_arg = NULL,
               *client_arg = NULL, *nonce_arg = NULL, *json = NULL;
    const char *decks_arg = NULL, *jokers_arg = NULL, *burn_arg = NULL,
               *players_arg = NULL, *cards_arg = NULL, *layout_arg = NULL,
               *hand_arg = NULL;
    int print_order = 0, rest = 0, c;
    argv[0] = (char *)(uintptr_t)program_name; /* for getopt's messages */
    set_die_hook(NULL, NULL);
    optvals = keep(xmalloc((size_t)argc * sizeof *optvals));
    noptvals = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case OPT_SEED:
        case OPT_SEED_FILE:
        case OPT_COMMITMENT:
        case OPT_CLIENT:
        case OPT_NONCE:
        case OPT_DECKS:
        case OPT_JOKERS:
        case OPT_BURN:
        case OPT_PLAYERS:
        case OPT_CARDS:
        case OPT_LAYOUT:
        case OPT_HAND:
        case OPT_JSON:
            optvals[noptvals].opt = c;
            optvals[noptvals++].arg = optarg;
            break;
        case OPT_PRINT: print_order = 1; break;
        case OPT_REST: rest = 1; break;
        case OPT_HELP: help();
        case OPT_VERSION: print_version();
        default: usage_error();
        }
    }
    /* Names, compared before anything is read; the values are checked
       where they are read (num_once, seed_once, commitment_once). */
    seed_file = name_once(OPT_SEED_FILE, "server seed files");
    json = name_once(OPT_JSON, "JSON files");
    client_arg = client_once();
    /* Text, as fairshuf deal takes it: other bytes reach no verifier that
       reads text (web/verify.html, verify_deal.py) nor the deal JSON. */
    if (client_arg && !utf8_valid(client_arg))
        die(0, "the client seed is not valid UTF-8 (the verifiers take text)");
    seed_arg = opt_arg(OPT_SEED, 0);
    commit_arg = opt_arg(OPT_COMMITMENT, 0);
    nonce_arg = opt_arg(OPT_NONCE, 0);
    decks_arg = opt_arg(OPT_DECKS, 0);
    jokers_arg = opt_arg(OPT_JOKERS, 0);
    burn_arg = opt_arg(OPT_BURN, 0);
    players_arg = opt_arg(OPT_PLAYERS, 0);
    cards_arg = opt_arg(OPT_CARDS, 0);
    layout_arg = opt_arg(OPT_LAYOUT, 0);
    hand_arg = opt_arg(OPT_HAND, 0);
    if (hand_arg && rest) {
        error_msg(0, "cannot combine --hand and --rest options");
        usage_error();
    }

    /* The server seed: from one of the two options (even the same seed
       from both is refused: which one was meant?). */
    if (seed_arg && seed_file) {
        error_msg(0, "cannot combine --server-seed and --server-seed-file "
                     "options");
        usage_error();
    }
    if (seed_arg) {
        r.seed = seed_once(&r.seed_len);
        r.seed_from = "--server-seed";
    } else if (seed_file) {
        if (json && strcmp(json, "-") == 0 && strcmp(seed_file, "-") == 0)
            die(0, "--json and --server-seed-file cannot both read standard input");
        size_t tlen;
        char *text = slurp(seed_file, &tlen);
        r.seed = decode_seed(text, tlen, quotef(seed_file), &r.seed_len);
        free(text);
        r.seed_from = seed_file;
    }
    (void)num_once(OPT_NONCE, "nonce", "nonces", 0, UINT64_MAX, &r.nonce);

    problems_t pr = {{{0}}, 0};
    jval *doc = NULL;
    if (json) {
        if (decks_arg || jokers_arg || burn_arg || players_arg || cards_arg ||
            layout_arg || hand_arg || rest || optind < argc) {
            error_msg(0, "--json gives the deal: no --decks, --jokers, --burn, "
                         "--players, --cards, --layout, --hand, --rest or CARD "
                         "arguments");
            usage_error();
        }
        doc = read_json(&r, json, commit_arg, client_arg, nonce_arg,
                        &pr);
    } else {
        uint64_t v = 1;
        (void)num_once(OPT_DECKS, "number of decks", "deck counts", 1,
                       FAIR_MAX_DECKS, &v);
        r.decks = (unsigned)v;
        v = 0;
        (void)num_once(OPT_JOKERS, "number of jokers", "joker counts", 0, 2,
                       &v);
        r.jokers = (unsigned)v;
        size_t n = (52 + (size_t)r.jokers) * r.decks;
        v = 0;
        (void)num_once(OPT_BURN, "burn count", "burn counts", 0, n, &v);
        r.burn = (size_t)v;
        if (players_arg) {
            r.have_players = 1;
            (void)num_once(OPT_PLAYERS, "number of players", "player counts",
                           1, n, &v);
            r.players = (size_t)v;
            if (!cards_arg)
                die(0, "--players needs --cards (cards per hand)");
            (void)num_once(OPT_CARDS, "card count", "card counts", 0, n,
                           &v);
            r.cards = (size_t)v;
            if (r.cards > (n - r.burn) / r.players)
                die(0, "more cards than the shoe holds: %zu burned and %zu "
                       "hands of %zu, the shoe holds %zu",
                    r.burn, r.players, r.cards, n);
        } else if (cards_arg) {
            die(0, "--cards needs --players");
        }
        if (hand_arg) {
            if (!players_arg)
                die(0, "--hand needs --players and --cards");
            (void)num_once(OPT_HAND, "hand number", "hand numbers", 1,
                           r.players, &v);
            r.hand = (size_t)v;
        }
        if (rest && !burn_arg && !players_arg)
            die(0, "--rest needs --burn or --players (what comes before "
                   "the rest)");
        r.rest = rest;
        /* Every --layout given is a layout; then they are one name. */
        const char *arg;
        for (size_t k = 0; (arg = opt_arg(OPT_LAYOUT, k)) != NULL; k++)
            if (strcmp(arg, "round-robin") != 0 && strcmp(arg, "blocks") != 0)
                die(0, "invalid layout: %s (round-robin or blocks)", quote(arg));
        if (name_once(OPT_LAYOUT, "layouts") != NULL)
            r.layout = strcmp(layout_arg, "blocks") == 0 ? LAYOUT_BLOCKS
                                                         : LAYOUT_ROUND_ROBIN;
        if (burn_arg && !players_arg)
            r.have_players = 1; /* burn only: burn cards, then deal order */
        r.have_commitment = commitment_once(r.commitment);
        if (client_arg) {
            r.client = (char *)(uintptr_t)client_arg;
            r.client_len = strlen(client_arg);
        }
        r.given = argv + optind;
        r.ngiven = (size_t)(argc - optind);
    }
    /* A missing input is a usage error, as GNU's "missing operand" and
       fairshuf audit's "nothing to audit". */
    if (!r.seed) {
        error_msg(0, "the revealed server seed is required (--server-seed or "
                     "--server-seed-file%s)",
                  json ? ", or server_seed in the JSON" : "");
        usage_error();
    }
    if (r.client_len > FSH_FAIR_CLIENT_MAX)
        die(0, "client seed longer than %d bytes", FSH_FAIR_CLIENT_MAX);
    if (!r.have_commitment && !print_order) {
        error_msg(0, "the commitment is required (--commitment or --json): "
                     "without it the deal is not tied to what the operator "
                     "published");
        usage_error();
    }

    size_t faces = 52 + r.jokers, n = faces * r.decks;
    fair_seed_check(r.seed_len, r.decks, r.jokers);
    const char *cs = r.ngiven == 1 ? "" : "s"; /* "1 card given" */
    if (r.ngiven > n)
        die(0, "%zu card%s given, more than the shoe holds (%zu)", r.ngiven,
            cs, n);
    if (r.hand && r.ngiven > r.cards)
        die(0, "%zu card%s given, more than hand %zu holds (%zu)", r.ngiven,
            cs, r.hand, r.cards);
    if (r.rest && r.ngiven > n - r.burn - r.players * r.cards)
        die(0, "%zu card%s given, more than the rest holds (%zu)", r.ngiven,
            cs, n - r.burn - r.players * r.cards);
    uint32_t *given = keep(xmalloc((r.ngiven ? r.ngiven : 1) * sizeof *given));
    for (size_t t = 0; t < r.ngiven; t++) {
        int st = parse_card(r.given[t], faces, &given[t]);
        if (st == -1)
            die(0, "unknown card: %s", quote(r.given[t]));
        if (st == -2)
            die(0, "card %s is not in this shoe (%u joker%s per deck)",
                quote(r.given[t]), r.jokers, r.jokers == 1 ? "" : "s");
    }

    uint32_t *order = keep(xmalloc(n * sizeof *order));
    check_status(fsh_fair_order(order, faces, r.decks, r.seed, r.seed_len,
                                r.client, r.client_len, r.nonce));
    outw *out = out_new(STDOUT_FILENO);
    if (print_order) {
        for (size_t t = 0; t < n; t++) {
            char name[9];
            card_name(name, order[t]);
            size_t len = strlen(name);
            name[len++] = t + 1 == n ? '\n' : ' ';
            if (out_write(out, name, len) != 0)
                break;
        }
        verify_done(out, order, given, doc, &r);
        return 0;
    }

    char line[512];
    char hex[FSH_FAIR_COMMIT_LEN];
    check_status(fsh_fair_commit(hex, r.seed, r.seed_len));
    if (strcmp(hex, r.commitment) != 0)
        problem(&pr, "commitment mismatch: SHA-256 of the server seed is %s, "
                     "the commitment is %s", hex, r.commitment);
    /* Every given card at its deal position; report the first that differs
       in deal order. */
    size_t first_pos = SIZE_MAX, first_t = 0;
    for (size_t t = 0; t < r.ngiven; t++) {
        char where[64];
        size_t pos = given_position(&r, t, where, sizeof where);
        if (given[t] != order[pos] && pos < first_pos) {
            first_pos = pos;
            first_t = t;
        }
    }
    if (first_pos != SIZE_MAX) {
        char where[64], got[9], want[9];
        (void)given_position(&r, first_t, where, sizeof where);
        card_name(got, given[first_t]);
        card_name(want, order[first_pos]);
        size_t wrong = 0;
        for (size_t t = 0; t < r.ngiven; t++) {
            char w2[64];
            wrong += given[t] != order[given_position(&r, t, w2, sizeof w2)];
        }
        problem(&pr, "%s (deal position %zu) differs: dealt %s, the server "
                     "seed gives %s; %zu of %zu cards differ",
                where, first_pos + 1, got, want, wrong, r.ngiven);
    }
    int valid = pr.n == 0;
    for (size_t k = 0; k < pr.n; k++) {
        snprintf(line, sizeof line, "NOT VALID: %s\n", pr.msg[k]);
        (void)out_write(out, line, strlen(line));
    }
    if (valid) {
        snprintf(line, sizeof line,
                 "VALID: commitment %s matches; %zu of %zu cards checked "
                 "(%u deck%s, %u joker%s, nonce %llu)\n",
                 hex, r.ngiven, n, r.decks, r.decks == 1 ? "" : "s", r.jokers,
                 r.jokers == 1 ? "" : "s", (unsigned long long)r.nonce);
        (void)out_write(out, line, strlen(line));
    }
    verify_done(out, order, given, doc, &r);
    return valid ? 0 : 1;
}
