/* SPDX-License-Identifier: MIT */
/* Cards: encoding, names in Unicode and poker notation, parsing. */
#include "common/common.h"

static const char poker_ranks[] = "23456789TJQKA";
static const char poker_suits[] = "cdhs";
/* UTF-8 for U+2663 ♣, U+2666 ♦, U+2665 ♥, U+2660 ♠ (suit order 0..3). */
static const char *const unicode_suits[4] = {"\xE2\x99\xA3", "\xE2\x99\xA6",
                                             "\xE2\x99\xA5", "\xE2\x99\xA0"};

int fsh_card_make(uint32_t *card, int rank, int suit)
{
    if (card == NULL || rank < 2 || rank > 14 || suit < 0 || suit > 3)
        return FSH_EINVAL;
    *card = (uint32_t)(suit * 13 + rank - 2);
    return FSH_OK;
}

int fsh_card_rank(uint32_t card)
{
    return card < 52 ? (int)(card % 13) + 2 : FSH_EINVAL;
}

int fsh_card_suit(uint32_t card)
{
    return card < 52 ? (int)(card / 13) : FSH_EINVAL;
}

int fsh_card_name(char *buf, size_t len, uint32_t card, int notation)
{
    if (card >= 52 || buf == NULL ||
        (notation != FSH_CARD_UNICODE && notation != FSH_CARD_POKER))
        return FSH_EINVAL;
    int rank = fsh_card_rank(card), suit = fsh_card_suit(card);
    char tmp[8];
    size_t k = 0;
    if (notation == FSH_CARD_POKER) {
        tmp[k++] = poker_ranks[rank - 2];
        tmp[k++] = poker_suits[suit];
    } else {
        if (rank == 10) {
            tmp[k++] = '1';
            tmp[k++] = '0';
        } else {
            tmp[k++] = poker_ranks[rank - 2];
        }
        memcpy(tmp + k, unicode_suits[suit], 3);
        k += 3;
    }
    tmp[k] = '\0';
    if (len < k + 1)
        return FSH_EINVAL;
    memcpy(buf, tmp, k + 1);
    return FSH_OK;
}

int fsh_card_parse(uint32_t *card, const char *name)
{
    if (name == NULL || card == NULL)
        return FSH_EINVAL;
    /* Poker notation: exactly rank letter + lowercase suit letter. */
    if (name[0] != '\0' && name[1] != '\0' && name[2] == '\0') {
        const char *r = strchr(poker_ranks, name[0]);
        const char *s = strchr(poker_suits, name[1]);
        if (r != NULL && s != NULL)
            return fsh_card_make(card, (int)(r - poker_ranks) + 2,
                                 (int)(s - poker_suits));
        return FSH_EINVAL;
    }
    /* Unicode notation: "10" or a rank letter other than T, then a suit. */
    int rank;
    const char *p = name;
    if (p[0] == '1' && p[1] == '0') {
        rank = 10;
        p += 2;
    } else {
        const char *r = p[0] != '\0' && p[0] != 'T' ? strchr(poker_ranks, p[0])
                                                    : NULL;
        if (r == NULL)
            return FSH_EINVAL;
        rank = (int)(r - poker_ranks) + 2;
        p += 1;
    }
    for (int s = 0; s < 4; s++)
        if (strcmp(p, unicode_suits[s]) == 0)
            return fsh_card_make(card, rank, s);
    return FSH_EINVAL;
}
