/* SPDX-License-Identifier: MIT */
/* UTF-8 validation, compiled into both the library (src/deck/cardset.c:
   custom card names) and the command (cli/deal/deal.c and cli/verify: a
   client seed, going into JSON or given to verify; the strings of the JSON
   verify reads). A header of static inline code that needs only libc, so each
   side keeps its own copy: the library exports nothing for it and the
   command still uses nothing of the library but fairshuf.h (docs/DESIGN.md,
   "Shared sources"). */
#ifndef FAIRSHUF_SHARED_UTF8_H
#define FAIRSHUF_SHARED_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The length (1 to 4) of the well-formed UTF-8 character (RFC 3629) that
   starts at s, reading at most avail bytes; 0 if none does: a stray or
   missing continuation byte, an overlong form, a surrogate, anything past
   U+10FFFF, or a character cut short by avail. A NUL is no continuation
   byte, so a NUL-terminated string is never read past its end. */
static inline unsigned utf8_char_len(const unsigned char *s, size_t avail)
{
    unsigned k;
    uint32_t cp;
    if (avail == 0)
        return 0;
    if (*s < 0x80)
        return 1;
    if (*s >= 0xC2 && *s <= 0xDF) /* 0xC0, 0xC1: overlong ASCII */
        k = 1, cp = *s & 0x1Fu;
    else if (*s >= 0xE0 && *s <= 0xEF)
        k = 2, cp = *s & 0x0Fu;
    else if (*s >= 0xF0 && *s <= 0xF4) /* 0xF5..: past U+10FFFF */
        k = 3, cp = *s & 0x07u;
    else
        return 0; /* a continuation byte without a lead, or 0xF5..0xFF */
    for (unsigned i = 1; i <= k; i++) {
        if (i >= avail || (s[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3Fu);
    }
    if ((k == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
        (k == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
        return 0;
    return k + 1;
}

/* 1 if the NUL-terminated s is well-formed UTF-8 (RFC 3629): no stray or
   missing continuation byte, no overlong form, no surrogate, nothing past
   U+10FFFF; what a JSON string can carry as it is. Else 0. */
static inline int utf8_valid(const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    while (*s) {
        unsigned k = utf8_char_len(s, SIZE_MAX);
        if (k == 0)
            return 0;
        s += k;
    }
    return 1;
}

#endif /* FAIRSHUF_SHARED_UTF8_H */
