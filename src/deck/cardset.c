/* SPDX-License-Identifier: MIT */
/* Card sets: the standard deck and shoes with jokers, custom sets with the
   caller's names; names, parsing, the count of distinct orders. */
#include "common/common.h"
#include "common/wide.h"
#include "../../shared/utf8.h"

#include <math.h>
#include <stdlib.h>

#define NAME_MAX_BYTES 31 /* a custom name, without its NUL */
#define RED_JOKER 52u
#define BLACK_JOKER 53u

struct fsh_cardset {
    size_t m;      /* distinct faces */
    unsigned c;    /* copies of each */
    int jokers;    /* per deck for the standard set; -1: a custom set */
    char (*names)[NAME_MAX_BYTES + 1]; /* custom: names[face] */
    uint32_t *by_name; /* custom: faces sorted by name, for parsing */
};

/* ------------------------------------------------------------------------ */
/* Making sets                                                              */

/* n = m * c must fit a deck's 32-bit card count. */
static int size_ok(size_t m, unsigned c)
{
    return m >= 1 && c >= 1 && (uint64_t)m <= UINT32_MAX / c;
}

int fsh_cardset_standard(fsh_cardset **out, unsigned decks, unsigned jokers)
{
    if (out == NULL)
        return FSH_EINVAL;
    *out = NULL;
    if (jokers > 2 || !size_ok(52 + jokers, decks))
        return FSH_EINVAL;
    fsh_cardset *s = calloc(1, sizeof *s);
    if (s == NULL)
        return FSH_ENOMEM;
    s->m = 52 + jokers;
    s->c = decks;
    s->jokers = (int)jokers;
    *out = s;
    return FSH_OK;
}

/* A character no name may hold besides ASCII's (checked bytewise): the
   C1 controls U+0080..U+009F (U+0085 is a line break) and every character
   a reader may split a line of names at: Unicode's White_Space (U+00A0,
   U+1680, U+2000..U+200A, U+2028, U+2029, U+202F, U+205F, U+3000; what
   Python's str.split() splits at), U+FEFF (JavaScript's \s) and U+180E
   (white space before Unicode 6.3). A deal line is the names joined by
   single spaces: with one of these inside, "A B" could be one card or
   two, whichever way the verifier splits. */
static int space_or_control(uint32_t cp)
{
    return (cp >= 0x80 && cp <= 0xA0) || cp == 0x1680 || cp == 0x180E ||
           (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 ||
           cp == 0x202F || cp == 0x205F || cp == 0x3000 || cp == 0xFEFF;
}

/* A name the JSON output, the text columns and a space-separated deal
   line can carry as it is, and read back as one card. */
static int name_ok(const char *name)
{
    if (name == NULL || name[0] == '\0')
        return 0;
    size_t len = 0;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if (*p <= 0x20 || *p == 0x7f || *p == '"' || *p == '\\')
            return 0; /* control bytes and ASCII white space */
        if (++len > NAME_MAX_BYTES)
            return 0;
    }
    if (!utf8_valid(name))
        return 0;
    for (const unsigned char *p = (const unsigned char *)name; *p;) {
        unsigned k = utf8_char_len(p, len);
        uint32_t cp = k == 1 ? *p : (uint32_t)(*p & (0x7Fu >> k));
        for (unsigned i = 1; i < k; i++)
            cp = cp << 6 | (p[i] & 0x3Fu);
        if (space_or_control(cp))
            return 0;
        p += k;
        len -= k;
    }
    return 1;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* by_name = the faces sorted by name; FSH_EINVAL if two names are equal. */
static int index_names(fsh_cardset *s)
{
    const char **p = malloc(s->m * sizeof *p);
    if (p == NULL)
        return FSH_ENOMEM;
    for (size_t f = 0; f < s->m; f++)
        p[f] = s->names[f];
    qsort(p, s->m, sizeof *p, cmp_names);
    int rc = FSH_OK;
    for (size_t i = 0; i < s->m; i++) {
        if (i > 0 && strcmp(p[i - 1], p[i]) == 0)
            rc = FSH_EINVAL;
        /* Each pointer points into names: its row is its face. */
        s->by_name[i] = (uint32_t)((size_t)(p[i] - s->names[0]) /
                                   sizeof s->names[0]);
    }
    free(p);
    return rc;
}

int fsh_cardset_custom(fsh_cardset **out, const char *const *names,
                       size_t faces, unsigned copies)
{
    if (out == NULL)
        return FSH_EINVAL;
    *out = NULL;
    if (names == NULL || !size_ok(faces, copies))
        return FSH_EINVAL;
    for (size_t f = 0; f < faces; f++)
        if (!name_ok(names[f]))
            return FSH_EINVAL;
    fsh_cardset *s = calloc(1, sizeof *s);
    if (s == NULL)
        return FSH_ENOMEM;
    s->m = faces;
    s->c = copies;
    s->jokers = -1;
    s->names = malloc(faces * sizeof *s->names);
    s->by_name = malloc(faces * sizeof *s->by_name);
    int rc = s->names != NULL && s->by_name != NULL ? FSH_OK : FSH_ENOMEM;
    if (rc == FSH_OK) {
        for (size_t f = 0; f < faces; f++)
            strcpy(s->names[f], names[f]); /* name_ok: fits */
        rc = index_names(s);
    }
    if (rc != FSH_OK) {
        fsh_cardset_free(s);
        return rc;
    }
    *out = s;
    return FSH_OK;
}

void fsh_cardset_free(fsh_cardset *set)
{
    if (set == NULL)
        return;
    free(set->names);
    free(set->by_name);
    free(set);
}

size_t fsh_cardset_size(const fsh_cardset *set)
{
    return set == NULL ? 0 : set->m * set->c;
}

size_t fsh_cardset_faces(const fsh_cardset *set)
{
    return set == NULL ? 0 : set->m;
}

unsigned fsh_cardset_copies(const fsh_cardset *set)
{
    return set == NULL ? 0 : set->c;
}

int fsh_cardset_jokers(const fsh_cardset *set)
{
    return set == NULL || set->jokers < 0 ? FSH_EINVAL : set->jokers;
}

/* ------------------------------------------------------------------------ */
/* Names                                                                    */

static int copy_name(char *buf, size_t len, const char *name)
{
    size_t k = strlen(name);
    if (len < k + 1)
        return FSH_EINVAL;
    memcpy(buf, name, k + 1);
    return FSH_OK;
}

int fsh_cardset_name(const fsh_cardset *set, char *buf, size_t len,
                     uint32_t card, int notation)
{
    if (set == NULL || buf == NULL || card >= set->m ||
        (notation != FSH_CARD_UNICODE && notation != FSH_CARD_POKER))
        return FSH_EINVAL;
    if (set->jokers < 0)
        return copy_name(buf, len, set->names[card]);
    if (card == RED_JOKER)
        return copy_name(buf, len, "RJ");
    if (card == BLACK_JOKER)
        return copy_name(buf, len, "BJ");
    return fsh_card_name(buf, len, card, notation);
}

static int parse_custom(const fsh_cardset *s, uint32_t *card, const char *name)
{
    size_t lo = 0, hi = s->m;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(name, s->names[s->by_name[mid]]);
        if (c == 0) {
            *card = s->by_name[mid];
            return FSH_OK;
        }
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return FSH_EINVAL;
}

int fsh_cardset_parse(const fsh_cardset *set, uint32_t *card, const char *name)
{
    if (set == NULL || card == NULL || name == NULL)
        return FSH_EINVAL;
    if (set->jokers < 0)
        return parse_custom(set, card, name);
    if (strcmp(name, "RJ") == 0 && set->jokers >= 1) {
        *card = RED_JOKER;
        return FSH_OK;
    }
    if (strcmp(name, "BJ") == 0 && set->jokers >= 2) {
        *card = BLACK_JOKER;
        return FSH_OK;
    }
    return fsh_card_parse(card, name);
}

/* ------------------------------------------------------------------------ */
/* Distinct orders                                                          */

/* *count = n! / (c!)^m = prod_{f=2..m} C(f c, c) if it is below 2^64; 0 if
   not (or without 128-bit arithmetic). Each C(a, c) is built as
   C(a - c + i, i), i = 1..c, which only grows, so the loop stops within a
   few dozen steps of passing 2^64 whatever c is. */
static int exact_orders(size_t m, unsigned c, uint64_t *count)
{
#ifdef FSH_HAVE_U128
    fsh_u128 total = 1;
    for (size_t f = 2; f <= m; f++) {
        uint64_t a = (uint64_t)f * c;
        fsh_u128 b = 1;
        for (uint64_t i = 1; i <= c; i++) {
            b = b * (a - c + i) / i; /* exact: C(a-c+i-1, i-1)(a-c+i) / i */
            if (b >> 64 != 0)
                return 0;
        }
        total *= b;
        if (total >> 64 != 0)
            return 0;
    }
    *count = (uint64_t)total;
    return 1;
#else
    (void)m, (void)c, (void)count;
    return 0;
#endif
}

double fsh_cardset_order_bits(const fsh_cardset *set)
{
    if (set == NULL)
        return -1;
    uint64_t count;
    if (exact_orders(set->m, set->c, &count))
        return log2((double)count);
    /* log2(n!) - m log2(c!) in extended precision: lgammal's relative error
       of a few ulp of 2^-64 keeps the difference far below the 1e-9 bits
       documented up to 10^5 cards. */
    long double n = (long double)set->m * set->c;
    long double nats =
        fsh_ln_factorial(n) -
        (long double)set->m * fsh_ln_factorial((long double)set->c);
    return (double)(nats / logl(2.0L));
}
