/* SPDX-License-Identifier: MIT */
/* `fairshuf deal`'s options: parsing, --help, and the checks of the
   numbers against the shoe they describe. */
#include "deal/options.h"

#include "common/msg.h"
#include "common/number.h"
#include "common/quote.h"
#include "common/rng.h"
#include "common/xalloc.h"
#include "fairshuf.h"
#include "io/output.h"
#include "verify/verify.h"
#include "version.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    OPT_SEED = 256,
    OPT_HELP,
    OPT_VERSION,
    OPT_PLAYERS,
    OPT_CARDS,
    OPT_DECKS,
    OPT_JOKERS,
    OPT_BURN,
    OPT_PENETRATION,
    OPT_LAYOUT,
    OPT_FORMAT,
    OPT_SERVER_SEED_FILE,
    OPT_CLIENT_SEED,
    OPT_NONCE,
    OPT_REVEAL,
    OPT_GENERATOR,
};

static _Noreturn void help(void)
{
    static char text[4096];
    snprintf(
        text, sizeof text,
        "Usage: %s [OPTION]...\n"
        "Deal cards from a shuffled deck or shoe; every distinct order of the "
        "shoe\nis equally likely.\n"
        "\n"
        "  -n K                   deal K cards in all (0 to the shoe's size; "
        "default:\n"
        "                           all of them), as one hand\n"
        "      --players=P        deal hands to P players (labels, burn and "
        "rest shown)\n"
        "      --cards=K          K cards a hand (default: the shoe shared "
        "out evenly)\n"
        "      --layout=L         round-robin (default: one card to each "
        "player in\n"
        "                           turn) or blocks (each hand in one go)\n"
        "      --decks=D          D decks in the shoe (default 1)\n"
        "      --jokers=J         jokers a deck: 0 (default), 1 (red) or 2 "
        "(red, black)\n"
        "      --burn=B           burn B cards before the hands\n"
        "      --penetration=N    place the cut card after N cards and show "
        "whether\n"
        "                           this round reached it\n"
        "      --format=F         unicode (A\xE2\x99\xA0 10\xE2\x99\xA5, "
        "default), text (As Th) or json\n"
        "  -p, --poker            same as --format=text\n"
        "      --seed=STRING      reproducible deal from STRING (a simulation: "
        "the\n"
        "                           seed, not the OS, decides every card)\n"
        "      --generator=G      the OS-keyed generator: chacha8 (default), "
        "chacha12\n"
        "                           or chacha20 (not with --seed or a provably "
        "fair\n"
        "                           round)\n"
        "\n"
        "A provably fair round (fairshuf-deal-v1, docs/FAIRNESS.md):\n"
        "      --server-seed-file=F\n"
        "                         the secret server seed in hex (ASCII blanks "
        "ignored)\n"
        "                           from file F (- for standard input); prints "
        "its\n"
        "                           commitment, SHA-256\n"
        "      --client-seed=S    the player's client seed (UTF-8 text, at "
        "most 256\n"
        "                           bytes; default empty)\n"
        "      --nonce=N          the round's nonce (default 0)\n"
        "      --reveal           also print the server seed (when retiring "
        "it)\n"
        "\n"
        "      --help             display this help and exit\n"
        "      --version          output version information and exit\n"
        "\n"
        "Without --seed, randomness is ChaCha8 (or --generator's) keyed from "
        "the OS; a shoe "
        "of more\nthan 57 cards also mixes in the CPU's hardware entropy "
        "(RDSEED) so that\nevery order is reachable, and is refused where "
        "there is none.\n"
        "--players, --burn, --penetration or --server-seed-file make a table "
        "round:\nlabelled lines (Burn:, Player N:, Rest:, Cut card:); otherwise "
        "the cards\nin rows of 13.\n"
        "On a terminal, columns are aligned and red suits are coloured "
        "(unless\nNO_COLOR is set). The JSON schema is fairshuf-deal/1 "
        "(docs/CARDS.md).\n",
        program_name);
    emit_text(text);
}

static int set_layout(deal_opts *o, const char *s)
{
    if (strcmp(s, "round-robin") == 0)
        o->layout = FSH_DEAL_ROUND_ROBIN;
    else if (strcmp(s, "blocks") == 0)
        o->layout = FSH_DEAL_BLOCKS;
    else
        return -1;
    return 0;
}

static int set_format(deal_opts *o, const char *s)
{
    if (strcmp(s, "unicode") == 0)
        o->format = FMT_UNICODE;
    else if (strcmp(s, "text") == 0)
        o->format = FMT_TEXT;
    else if (strcmp(s, "json") == 0)
        o->format = FMT_JSON;
    else
        return -1;
    return 0;
}

/* *slot = arg for an option that takes one value: given again with
   another value, "multiple WHAT specified", as shuf mode says of -o,
   --random-source, --seed and --generator; the same value again is
   accepted, as there. Strings (a seed, a file name) are the same when
   their bytes are. */
static void set_once(const char **slot, const char *arg, const char *what)
{
    if (*slot != NULL && strcmp(*slot, arg) != 0)
        die(0, "multiple %s specified", what);
    *slot = arg;
}

/* A number option's value: kept, with every other value it is given, for
   deal_check, which checks each one against the shoe (an invalid one is
   reported as such, whatever came before, as fairshuf verify and shuf
   mode do) and then that they agree (2 and 02 alike). */
static void num_value(deal_opts *o, const char **slot, const char *arg)
{
    if (*slot == NULL)
        *slot = arg;
    o->vals[o->nvals].slot = slot;
    o->vals[o->nvals].arg = arg;
    o->nvals++;
}

void deal_parse(deal_opts *o, int argc, char **argv)
{
    static const struct option opts[] = {
        {"cards", required_argument, NULL, OPT_CARDS},
        {"players", required_argument, NULL, OPT_PLAYERS},
        {"decks", required_argument, NULL, OPT_DECKS},
        {"jokers", required_argument, NULL, OPT_JOKERS},
        {"burn", required_argument, NULL, OPT_BURN},
        {"penetration", required_argument, NULL, OPT_PENETRATION},
        {"layout", required_argument, NULL, OPT_LAYOUT},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"poker", no_argument, NULL, 'p'},
        {"seed", required_argument, NULL, OPT_SEED},
        {"server-seed-file", required_argument, NULL, OPT_SERVER_SEED_FILE},
        {"client-seed", required_argument, NULL, OPT_CLIENT_SEED},
        {"nonce", required_argument, NULL, OPT_NONCE},
        {"reveal", no_argument, NULL, OPT_REVEAL},
        {"generator", required_argument, NULL, OPT_GENERATOR},
        {"help", no_argument, NULL, OPT_HELP},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0}};
    int c, layout_set = 0, format_set = 0;
    memset(o, 0, sizeof *o);
    o->gen = GEN_DEFAULT;
    o->layout = FSH_DEAL_ROUND_ROBIN;
    o->format = FMT_UNICODE;
    argv[0] = (char *)(uintptr_t)program_name; /* for getopt's messages */
    /* At most one number value an argument. */
    o->vals = xmalloc((size_t)argc * sizeof *o->vals);
    while ((c = getopt_long(argc, argv, "n:p", opts, NULL)) != -1) {
        switch (c) {
        case 'n':
        case OPT_CARDS:
            num_value(o, &o->cards_arg, optarg);
            /* Any -n: with --players it is refused, whatever came last. */
            o->total_cards |= c == 'n';
            break;
        case OPT_PLAYERS:
            num_value(o, &o->players_arg, optarg);
            break;
        case OPT_DECKS:
            num_value(o, &o->decks_arg, optarg);
            break;
        case OPT_JOKERS:
            num_value(o, &o->jokers_arg, optarg);
            break;
        case OPT_BURN:
            num_value(o, &o->burn_arg, optarg);
            break;
        case OPT_PENETRATION:
            num_value(o, &o->penetration_arg, optarg);
            break;
        case OPT_LAYOUT: {
            int was = o->layout;
            if (set_layout(o, optarg) != 0)
                die(0, "invalid layout: %s (round-robin or blocks)",
                    quote(optarg));
            if (layout_set && o->layout != was)
                die(0, "multiple layouts specified");
            layout_set = 1;
            break;
        }
        case OPT_FORMAT:
        case 'p': {
            enum deal_format was = o->format;
            if (c == 'p')
                o->format = FMT_TEXT;
            else if (set_format(o, optarg) != 0)
                die(0, "invalid format: %s (unicode, text or json)",
                    quote(optarg));
            if (format_set && o->format != was)
                die(0, "multiple formats specified");
            format_set = 1;
            break;
        }
        case OPT_SEED:
            set_once(&o->seed, optarg, "seeds");
            break;
        case OPT_SERVER_SEED_FILE:
            set_once(&o->server_seed_file, optarg, "server seed files");
            break;
        case OPT_CLIENT_SEED:
            set_once(&o->client_seed, optarg, "client seeds");
            break;
        case OPT_NONCE:
            num_value(o, &o->nonce_arg, optarg);
            break;
        case OPT_REVEAL:
            o->reveal = 1;
            break;
        case OPT_GENERATOR: {
            int g = parse_generator(optarg);
            if (o->gen_arg != NULL && o->gen != g)
                die(0, "multiple generators specified");
            o->gen = g;
            o->gen_arg = optarg;
            break;
        }
        case OPT_HELP:
            help();
        case OPT_VERSION:
            print_version();
        default:
            usage_error();
        }
    }
    if (optind < argc) {
        error_msg(0, "extra operand %s", quote(argv[optind]));
        usage_error();
    }
}

/* ------------------------------------------------------------------------ */
/* Numbers                                                                  */

/* *v = s as a count in [lo, hi]: shuf -n's syntax (leading blanks, at most
   one '+', decimal digits); -1 if it is not one. */
static int parse_count(const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
    uint64_t x = 0;
    while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
        s++;
    if (*s == '+')
        s++;
    if (*s == '\0')
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        uint64_t digit = (uint64_t)(*s - '0');
        if (digit > hi || x > (hi - digit) / 10)
            return -1; /* over hi, and never overflows */
        x = x * 10 + digit;
    }
    if (x < lo)
        return -1;
    *v = x;
    return 0;
}

/* The value of option arg (default def if not given), in [lo, hi]; dies
   "invalid WHAT: 'ARG' (LO to HI)" otherwise. */
static uint64_t count_arg(const char *arg, uint64_t def, uint64_t lo,
                          uint64_t hi, const char *what)
{
    uint64_t v = def;
    if (arg != NULL && parse_count(arg, lo, hi, &v) != 0)
        die(0, "invalid %s: %s (%llu to %llu)", what, quote(arg),
            (unsigned long long)lo, (unsigned long long)hi);
    return v;
}

/* The value of the number option whose first value is *slot (def if it
   was not given): every value given to it checked by count_arg, in order,
   then "multiple MANY specified" if they are not all the same number. */
static uint64_t count_once(const deal_opts *o, const char *const *slot,
                           uint64_t def, uint64_t lo, uint64_t hi,
                           const char *what, const char *many)
{
    uint64_t v = def;
    int seen = 0, differ = 0;
    for (size_t i = 0; i < o->nvals; i++) {
        if (o->vals[i].slot != slot)
            continue;
        uint64_t x = count_arg(o->vals[i].arg, def, lo, hi, what);
        differ |= seen && x != v;
        if (!seen)
            v = x;
        seen = 1;
    }
    if (differ)
        die(0, "multiple %s specified", many);
    return v;
}

/* The provably fair options go together, and not with --seed; --generator
   with neither. */
static void check_fair(deal_opts *o)
{
    if (o->gen_arg != NULL && (o->seed != NULL || o->server_seed_file != NULL))
        die(0, "--generator chooses the OS-keyed generator: not with %s",
            o->seed != NULL ? "--seed" : "--server-seed-file");
    if (o->server_seed_file == NULL) {
        const char *lone = o->client_seed != NULL ? "--client-seed"
                           : o->nonce_arg != NULL ? "--nonce"
                           : o->reveal            ? "--reveal"
                                                  : NULL;
        if (lone != NULL)
            die(0, "%s needs --server-seed-file (a provably fair round)",
                lone);
        return;
    }
    if (o->seed != NULL) {
        /* GNU's words for two options that exclude each other, as
           fairshuf verify says of its two sources of the server seed. */
        error_msg(0, "cannot combine --seed and --server-seed-file options");
        usage_error();
    }
    if (o->client_seed != NULL && strlen(o->client_seed) > FSH_FAIR_CLIENT_MAX)
        die(0, "client seed longer than %d bytes", FSH_FAIR_CLIENT_MAX);
    /* Digits only, as fairshuf verify reads it; every value checked, then
       they must agree (7 and 07 alike). */
    int seen = 0, differ = 0;
    for (size_t i = 0; i < o->nvals; i++) {
        uint64_t x;
        if (o->vals[i].slot != &o->nonce_arg)
            continue;
        if (parse_udec(o->vals[i].arg, 0, UINT64_MAX, &x) != 0)
            die(0, "invalid nonce: %s (0 to %llu)", quote(o->vals[i].arg),
                (unsigned long long)UINT64_MAX);
        differ |= seen && x != o->nonce;
        if (!seen)
            o->nonce = x;
        seen = 1;
    }
    if (differ)
        die(0, "multiple nonces specified");
}

void deal_check(deal_opts *o)
{
    check_fair(o);
    o->jokers = (unsigned)count_once(o, &o->jokers_arg, 0, 0, 2,
                                     "number of jokers", "joker counts");
    /* The shoe holds at most 2^32 - 1 cards (the library's decks); a
       provably fair round, at most what fairshuf verify checks. */
    o->decks = (unsigned)count_once(o, &o->decks_arg, 1, 1,
                                    o->server_seed_file != NULL
                                        ? FAIR_MAX_DECKS
                                        : UINT32_MAX / (52 + o->jokers),
                                    "number of decks", "deck counts");
    size_t n = (size_t)(52 + o->jokers) * o->decks;
    o->shoe = n;
    o->burn = (size_t)count_once(o, &o->burn_arg, 0, 0, n, "burn count",
                                   "burn counts");
    o->penetration = (size_t)count_once(o, &o->penetration_arg, 0, 1, n,
                                          "penetration", "penetrations");
    o->table = o->players_arg != NULL || o->burn_arg != NULL ||
               o->penetration_arg != NULL || o->server_seed_file != NULL;
    if (o->players_arg == NULL) {
        o->players = 1;
        o->cards = (size_t)count_once(o, &o->cards_arg, n - o->burn, 0,
                                      n - o->burn, "card count",
                                      "card counts");
        return;
    }
    if (o->total_cards)
        die(0, "-n counts all the cards; with --players, give the cards "
               "a hand with --cards");
    o->players = (size_t)count_once(o, &o->players_arg, 1, 1, n,
                                    "number of players", "player counts");
    /* By default the shoe is shared out evenly, as a bridge deal. */
    o->cards = (size_t)count_once(o, &o->cards_arg,
                                  (n - o->burn) / o->players, 0, n,
                                  "card count", "card counts");
    uint64_t need = (uint64_t)o->players * o->cards + o->burn;
    if (need > n)
        die(0, "%zu hand%s of %zu card%s%s need %llu cards; the shoe holds %zu",
            o->players, o->players == 1 ? "" : "s", o->cards,
            o->cards == 1 ? "" : "s", o->burn ? " and the burn" : "",
            (unsigned long long)need, n);
}

size_t deal_rest(const deal_opts *o)
{
    int show_rest = o->table || o->format == FMT_JSON;
    return show_rest ? o->shoe - o->burn - o->players * o->cards : 0;
}
