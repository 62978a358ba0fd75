/* SPDX-License-Identifier: MIT */
/* The draw-tree walker shared by the enumeration proofs (test_enum,
 * test_scatter): a randint source that visits every sequence of bounded
 * draws in depth-first (odometer) order. Each run replays the recorded
 * prefix, extends it with 0 for any new draw (recording its bound), and
 * walk_next advances the last digit that is not at its maximum, dropping the
 * maxed digits after it. Define MAXD (the deepest path) before including.
 * Also: Lehmer-code ranking of small permutations. */
#ifndef FSH_TESTS_WALKER_H
#define FSH_TESTS_WALKER_H

#include <stdint.h>
#include <string.h>

#ifndef MAXD
#error "define MAXD before including walker.h"
#endif

struct walker {
    uint64_t digit[MAXD], bound[MAXD];
    unsigned len, pos;
    int mismatch; /* a replayed draw asked for a different bound */
    int overflow; /* a path deeper than MAXD */
};

/* The randint callback (fsh_rng_from_randint): the walk's next draw. */
static uint64_t walk_randint(void *ctx, uint64_t k)
{
    struct walker *w = ctx;
    if (w->pos >= MAXD) {
        w->overflow = 1;
        return 1;
    }
    if (w->pos < w->len) {
        if (w->bound[w->pos] != k)
            w->mismatch = 1;
    } else {
        w->digit[w->pos] = 0;
        w->bound[w->pos] = k;
        w->len = w->pos + 1;
    }
    return w->digit[w->pos++] + 1;
}

static inline void walk_start(struct walker *w)
{
    memset(w, 0, sizeof *w);
}

/* Advance to the next leaf; 0 when the walk is over. */
static inline int walk_next(struct walker *w)
{
    w->len = w->pos; /* a run that used fewer draws ends the path there */
    while (w->len > 0 && w->digit[w->len - 1] + 1 >= w->bound[w->len - 1])
        w->len--;
    w->pos = 0;
    if (w->len == 0)
        return 0;
    w->digit[w->len - 1]++;
    return 1;
}

/* n! for n = 0..9. */
static const uint32_t fact[10] = {1, 1, 2, 6, 24, 120, 720, 5040, 40320,
                                  362880};

/* Lehmer-code rank of perm[0..n) (values 0..n-1, n <= 9); fact[n] if not a
   permutation. */
static inline uint32_t rank_perm(const unsigned *perm, unsigned n)
{
    unsigned seen = 0;
    uint32_t r = 0;
    for (unsigned i = 0; i < n; i++) {
        if (perm[i] >= n || (seen >> perm[i] & 1u))
            return fact[n];
        seen |= 1u << perm[i];
        unsigned smaller = 0;
        for (unsigned j = i + 1; j < n; j++)
            smaller += perm[j] < perm[i];
        r += smaller * fact[n - 1 - i];
    }
    return r;
}

#endif
