/* SPDX-License-Identifier: MIT */
/* Target deal: `fairshuf deal` with a fuzzed --seed, card count and
   notation, in-process. Input: line 1 the count argument, line 2 flags
   ('p' poker, 'l' long options), the rest the seed. Properties: status 0
   exactly when the count is a number <= 52 (strtoul, no leading '-');
   then the output is 13 names a line, each parsing back to a card, in the
   notation asked for, and the cards are exactly those the library deals
   from the same seed (fsh_rng_seed, simulation grade, fsh_deck_deal_n). */
#include "fuzz.h"
#include "deal/deal.h"
#include "fairshuf.h"

#include <errno.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 256 || memchr(data, '\0', size) != NULL)
        return 0;
    char *text = malloc(size + 1);
    FZ_CHECK(text != NULL);
    memcpy(text, data, size);
    text[size] = '\0';
    char *count = text, *flags = "", *seed = "";
    char *nl = strchr(text, '\n');
    if (nl != NULL) {
        *nl = '\0';
        flags = nl + 1;
        nl = strchr(flags, '\n');
        if (nl != NULL) {
            *nl = '\0';
            seed = nl + 1;
        }
    }
    int poker = strchr(flags, 'p') != NULL, lng = strchr(flags, 'l') != NULL;
    char seedarg[300], cardarg[300];
    snprintf(seedarg, sizeof seedarg, "--seed=%s", seed);
    snprintf(cardarg, sizeof cardarg, "--cards=%s", count);
    char *argv[8];
    int argc = 0;
    argv[argc++] = "deal";
    argv[argc++] = seedarg;
    if (lng) {
        argv[argc++] = cardarg;
    } else {
        argv[argc++] = "-n";
        argv[argc++] = count;
    }
    if (poker)
        argv[argc++] = lng ? "--poker" : "-p";
    argv[argc] = NULL;

    char *end;
    errno = 0;
    unsigned long k = strtoul(count, &end, 10);
    /* shuf -n's syntax: blanks, then at most a '+' (never a '-'). */
    const char *first = count + strspn(count, " \t\n\v\f\r");
    int valid = errno == 0 && *end == '\0' && end != count && k <= 52 &&
                *first != '-';

    const fz_run *r = fz_cli(cmd_deal, argc, argv, "", 0);
    FZ_CHECK(r->status == (valid ? 0 : 1));
    if (!valid) {
        FZ_CHECK(strstr(r->err, "invalid card count") != NULL);
        free(text);
        return 0;
    }
    FZ_CHECK(r->err_len == 0);

    fsh_rng *rng;
    fsh_deck *deck;
    uint32_t want[52];
    FZ_CHECK(fsh_rng_new(&rng) == FSH_OK);
    FZ_CHECK(fsh_rng_seed(rng, seed, strlen(seed)) == FSH_OK);
    FZ_CHECK(fsh_rng_set_simulation(rng, 1) == FSH_OK);
    FZ_CHECK(fsh_deck_new(&deck, 52) == FSH_OK);
    FZ_CHECK(fsh_deck_deal_n(rng, deck, want, k) == FSH_OK);
    fsh_deck_free(deck);
    fsh_rng_free(rng);

    const char *p = r->out;
    for (size_t i = 0; i < k; i++) {
        char sep = (i + 1) % 13 == 0 || i + 1 == k ? '\n' : ' ';
        const char *e = strchr(p, sep);
        FZ_CHECK(e != NULL && e - p < 8);
        char name[8], expect[8];
        memcpy(name, p, (size_t)(e - p));
        name[e - p] = '\0';
        uint32_t c;
        FZ_CHECK(fsh_card_parse(&c, name) == FSH_OK);
        FZ_CHECK(c == want[i]);
        FZ_CHECK(fsh_card_name(expect, sizeof expect, c,
                               poker ? FSH_CARD_POKER : FSH_CARD_UNICODE) == FSH_OK);
        FZ_CHECK(strcmp(name, expect) == 0);
        p = e + 1;
    }
    FZ_CHECK((size_t)(p - r->out) == r->out_len);
    free(text);
    return 0;
}
