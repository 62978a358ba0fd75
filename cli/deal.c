/* `fairshuf deal`: deal a shuffled 52-card deck. */
#include "cli.h"
#include "fairshuf.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("Usage: fairshuf deal [OPTION]...\n"
          "Deal a shuffled 52-card deck, each of the 52! orders equally likely.\n"
          "\n"
          "  -n, --cards=K      deal K cards (default 52)\n"
          "  -p, --poker        poker notation (As Th) instead of A\xE2\x99\xA0 10\xE2\x99\xA5\n"
          "      --seed=STRING  reproducible deal from STRING (simulation grade\n"
          "                     if STRING has fewer than 29 bytes)\n"
          "      --help         display this help and exit\n",
          f);
}

int cmd_deal(int argc, char **argv)
{
    static const struct option opts[] = {
        {"cards", required_argument, NULL, 'n'},
        {"poker", no_argument, NULL, 'p'},
        {"seed", required_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int notation = FSH_CARD_UNICODE, c;
    const char *seed = NULL;
    unsigned long k = 52;
    while ((c = getopt_long(argc, argv, "n:p", opts, NULL)) != -1) {
        switch (c) {
        case 'n': {
            char *end;
            errno = 0;
            k = strtoul(optarg, &end, 10);
            if (errno || *end || end == optarg || k > 52 || optarg[0] == '-') {
                fprintf(stderr, "fairshuf: invalid card count: '%s'\n", optarg);
                return 1;
            }
            break;
        }
        case 'p':
            notation = FSH_CARD_POKER;
            break;
        case 's':
            seed = optarg;
            break;
        case 'h':
            usage(stdout);
            return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
        default:
            fputs("Try 'fairshuf deal --help' for more information.\n", stderr);
            return 1;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "fairshuf: extra operand '%s'\n", argv[optind]);
        return 1;
    }
    fsh_rng *rng = rng_make(seed);
    fsh_deck *deck = NULL;
    uint32_t cards[52];
    check_status(fsh_deck_new(&deck, 52));
    check_status(fsh_deck_deal_n(rng, deck, cards, (size_t)k));
    fsh_deck_free(deck);
    fsh_rng_free(rng);
    for (size_t i = 0; i < k; i++) {
        char name[8];
        fsh_card_name(cards[i], notation, name, sizeof name);
        printf("%s%s", name, (i + 1) % 13 == 0 || i + 1 == k ? "\n" : " ");
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "fairshuf: write error: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}
