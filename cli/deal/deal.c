/* `fairshuf deal`: deal a shuffled 52-card deck. Messages as the rest of
   the command: "fairshuf: ...", GNU-style quoting and exit codes. */
#include "deal/deal.h"

#include "common/msg.h"
#include "common/quote.h"
#include "common/rng.h"
#include "fairshuf.h"
#include "io/output.h"
#include "version.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { OPT_SEED = 256, OPT_HELP, OPT_VERSION };

static _Noreturn void deal_usage_error(void)
{
    fprintf(stderr, "Try '%s deal --help' for more information.\n",
            program_name);
    exit(1);
}

static _Noreturn void help(void)
{
    static char text[2048];
    snprintf(text, sizeof text,
             "Usage: %s deal [OPTION]...\n"
             "Deal a shuffled 52-card deck, each of the 52! orders equally likely.\n"
             "\n"
             "  -n, --cards=K      deal K cards (0 to 52, default 52)\n"
             "  -p, --poker        poker notation (As Th) instead of A\xE2\x99\xA0 10\xE2\x99\xA5\n"
             "      --seed=STRING  reproducible deal from STRING (simulation grade\n"
             "                     if STRING has fewer than 29 bytes)\n"
             "      --help         display this help and exit\n"
             "      --version      output version information and exit\n",
             program_name);
    emit_text(text);
}

/* K in [0, 52]: decimal digits after optional blanks and one plus sign. */
static int parse_cards(const char *s, size_t *k)
{
    size_t v = 0;
    /* The syntax of shuf's -n: leading blanks and one '+' allowed. */
    while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
        s++;
    if (*s == '+')
        s++;
    if (*s == '\0')
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        v = v * 10 + (size_t)(*s - '0');
        if (v > 52)
            return -1;
    }
    *k = v;
    return 0;
}

int cmd_deal(int argc, char **argv)
{
    static const struct option opts[] = {
        {"cards", required_argument, NULL, 'n'},
        {"poker", no_argument, NULL, 'p'},
        {"seed", required_argument, NULL, OPT_SEED},
        {"help", no_argument, NULL, OPT_HELP},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0}};
    int notation = FSH_CARD_UNICODE, c;
    const char *seed = NULL;
    size_t k = 52;
    argv[0] = (char *)(uintptr_t)program_name; /* for getopt's messages */
    set_die_hook(NULL, NULL); /* nothing to clean up */
    while ((c = getopt_long(argc, argv, "n:p", opts, NULL)) != -1) {
        switch (c) {
        case 'n':
            if (parse_cards(optarg, &k) != 0)
                die(0, "invalid card count: %s (0 to 52)", quote(optarg));
            break;
        case 'p':
            notation = FSH_CARD_POKER;
            break;
        case OPT_SEED:
            seed = optarg;
            break;
        case OPT_HELP:
            help();
        case OPT_VERSION:
            print_version();
        default:
            deal_usage_error();
        }
    }
    if (optind < argc) {
        error_msg(0, "extra operand %s", quote(argv[optind]));
        deal_usage_error();
    }
    uint32_t cards[52];
    if (k > 0) {
        /* Zero cards, like shuf -n 0, draw nothing and need no entropy. */
        fsh_rng *rng = rng_make(seed);
        fsh_deck *deck = NULL;
        check_status(fsh_deck_new(&deck, 52));
        check_status(fsh_deck_deal_n(rng, deck, cards, k));
        fsh_deck_free(deck);
        fsh_rng_free(rng);
    }
    outw *out = out_new(STDOUT_FILENO);
    for (size_t i = 0; i < k; i++) {
        char name[8];
        check_status(fsh_card_name(name, sizeof name, cards[i], notation));
        size_t len = strlen(name);
        name[len++] = (i + 1) % 13 == 0 || i + 1 == k ? '\n' : ' ';
        if (out_write(out, name, len) != 0)
            break;
    }
    out_finish(out, 1);
    free(out);
    return 0;
}
