/* SPDX-License-Identifier: MIT */
/* Target card: fsh_card_parse accepts exactly the 104 names fsh_card_name
   gives (52 cards in two notations) and returns the named card;
   fsh_card_make / rank / suit agree for any integers; fsh_card_name never
   writes past a short buffer and fails rather than truncate. */
#include "fuzz.h"
#include "fairshuf.h"

#include <string.h>

static char names[2][52][8];

static void init_names(void)
{
    static int done;
    if (done)
        return;
    for (uint32_t c = 0; c < 52; c++)
        for (int nt = 0; nt < 2; nt++) {
            FZ_CHECK(fsh_card_name(names[nt][c], 8, c, nt) == FSH_OK);
            uint32_t back = 99;
            FZ_CHECK(fsh_card_parse(&back, names[nt][c]) == FSH_OK);
            FZ_CHECK(back == c);
        }
    done = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    init_names();
    if (size > 64)
        return 0;
    char s[65];
    memcpy(s, data, size);
    s[size] = '\0';
    uint32_t card = 1000;
    int rc = fsh_card_parse(&card, s);
    int known = -1;
    for (uint32_t c = 0; c < 52 && known < 0; c++)
        if (strcmp(s, names[0][c]) == 0 || strcmp(s, names[1][c]) == 0)
            known = (int)c;
    if (known >= 0) {
        FZ_CHECK(rc == FSH_OK);
        FZ_CHECK(card == (uint32_t)known);
    } else {
        FZ_CHECK(rc == FSH_EINVAL);
    }

    if (size >= 7) {
        int rank = (int8_t)data[0], suit = (int8_t)data[1];
        uint32_t c = 1000;
        rc = fsh_card_make(&c, rank, suit);
        int ok = rank >= 2 && rank <= 14 && suit >= 0 && suit <= 3;
        FZ_CHECK((rc == FSH_OK) == ok);
        if (ok) {
            FZ_CHECK(c == (uint32_t)(suit * 13 + rank - 2));
            FZ_CHECK(fsh_card_rank(c) == rank);
            FZ_CHECK(fsh_card_suit(c) == suit);
        }
        uint32_t any = (uint32_t)data[2] | (uint32_t)data[3] << 8 |
                       (uint32_t)data[4] << 16;
        if (any >= 52) {
            FZ_CHECK(fsh_card_rank(any) == FSH_EINVAL);
            FZ_CHECK(fsh_card_suit(any) == FSH_EINVAL);
        }
        /* An exact-size heap buffer, so ASan sees any overrun. */
        size_t len = data[5] % 10;
        int nt = data[6] % 3;
        char *buf = malloc(len ? len : 1);
        FZ_CHECK(buf != NULL);
        uint32_t cc = any % 64;
        rc = fsh_card_name(len ? buf : NULL, len, cc, nt);
        if (rc == FSH_OK) {
            FZ_CHECK(cc < 52 && (nt == 0 || nt == 1));
            FZ_CHECK(strcmp(buf, names[nt][cc]) == 0);
        } else {
            FZ_CHECK(rc == FSH_EINVAL);
            FZ_CHECK(cc >= 52 || nt == 2 || len == 0 ||
                     len <= strlen(names[nt][cc]));
        }
        free(buf);
    }
    return 0;
}
