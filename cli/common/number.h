/* SPDX-License-Identifier: MIT */
/* Strict unsigned decimals for the subcommands' options and input (inline:
   the audit parses every value of every deal with it). */
#ifndef FSH_CLI_NUMBER_H
#define FSH_CLI_NUMBER_H

#include <stdint.h>

/* *out = s, decimal digits only (no sign, no blanks, not empty), when its
   value is in [lo, hi]; -1 otherwise (overflow included), *out unchanged. */
static inline int parse_udec(const char *s, uint64_t lo, uint64_t hi,
                             uint64_t *out)
{
    uint64_t v = 0;
    if (*s == '\0')
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        uint64_t d = (uint64_t)(*s - '0');
        if (d > hi || v > (hi - d) / 10)
            return -1; /* over hi, and never overflows */
        v = v * 10 + d;
    }
    if (v < lo)
        return -1;
    *out = v;
    return 0;
}

#endif
