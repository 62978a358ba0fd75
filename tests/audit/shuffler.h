/* SPDX-License-Identifier: MIT */
/* The shufflers the audit tests (tests/cli/test_audit.sh): each program
   defines deal_one() and prints T deals of N cards, one deal per line,
   as the numbers 1..N separated by spaces:
       PROGRAM T N [SEED]
   Randomness for the flawed shufflers comes from a seeded fairshuf rng
   (exact uniform draws), so each one's only flaw is its own. */
#ifndef FSH_AUDIT_SHUFFLER_H
#define FSH_AUDIT_SHUFFLER_H

#include "fairshuf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static fsh_rng *rng;

/* Uniform in [0, k) from the seeded rng. */
static inline uint64_t below(uint64_t k)
{
    uint64_t r;
    if (fsh_uniform(rng, &r, k) != FSH_OK)
        exit(3);
    return r;
}

static inline void swap32(uint32_t *a, size_t i, size_t j)
{
    uint32_t t = a[i];
    a[i] = a[j];
    a[j] = t;
}

/* a[0..n) holds 0..n-1 on entry: leave the deal's order in it (deal is
   the 0-based deal number). */
static void deal_one(uint32_t *a, size_t n, uint64_t deal);

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s DEALS CARDS [SEED]\n", argv[0]);
        return 2;
    }
    uint64_t t = strtoull(argv[1], NULL, 10);
    size_t n = (size_t)strtoull(argv[2], NULL, 10);
    const char *seed = argc > 3 ? argv[3] : "audit";
    if (n < 2 || n > 4096 || fsh_rng_new_seeded(&rng, seed, strlen(seed)) ||
        fsh_rng_set_simulation(rng, 1))
        return 2;
    uint32_t *a = malloc(n * sizeof *a);
    char *line = malloc(n * 6 + 2);
    if (a == NULL || line == NULL)
        return 2;
    static char obuf[1 << 16];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    for (uint64_t d = 0; d < t; d++) {
        for (size_t i = 0; i < n; i++)
            a[i] = (uint32_t)i;
        deal_one(a, n, d);
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            char tmp[12];
            int len = 0;
            uint32_t v = a[i] + 1;
            do
                tmp[len++] = (char)('0' + v % 10);
            while ((v /= 10) > 0);
            while (len > 0)
                line[k++] = tmp[--len];
            line[k++] = i + 1 < n ? ' ' : '\n';
        }
        if (fwrite(line, 1, k, stdout) != k)
            return 1;
    }
    free(a);
    free(line);
    fsh_rng_free(rng);
    return fflush(stdout) != 0;
}

#endif
