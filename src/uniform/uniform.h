/* SPDX-License-Identifier: MIT */
/* Exactly uniform bounded integers from an rng's words: Lemire's method,
   batched dice and their greedy plans. */
#ifndef FSH_UNIFORM_H
#define FSH_UNIFORM_H

#include "rng/rng.h"

/* The rejection threshold of every exact draw here, 2^W mod s for a range
   of s >= 1 outcomes in W-bit words (word_t): (2^W - s) mod s, one
   division. A product's low half below it is rejected, which leaves each
   outcome exactly floor(2^W / s) accepted words. */
#define FSH_REJECT_BELOW(word_t, s) ((word_t)((word_t)(0u - (s)) % (s)))

/*
 * Lemire's nearly-divisionless bounded integer ("Fast Random Integer
 * Generation in an Interval", ACM TOMACS 2019), written once as a macro so the
 * exhaustive tests can instantiate the very same code at 8 and 16 bits.
 * Multiply a uniform word x by s: the high half is the result. The low half
 * l identifies x's position inside its output's bucket; rejecting l < 2^W mod s
 * leaves exactly floor(2^W / s) accepted words per output. The division is
 * only needed when l < s, with probability s / 2^W.
 */
#define FSH_DEFINE_LEMIRE(name, word_t, dword_t, BITS, state_t, NEXT)         \
    static inline word_t name(state_t st, word_t s)                           \
    {                                                                          \
        dword_t m = (dword_t)((dword_t)NEXT(st) * (dword_t)s);                 \
        word_t l = (word_t)m;                                                  \
        if (FSH_UNLIKELY(l < s)) {                                             \
            /* Reject the 2^W mod s lowest products so every output has the   \
               same number of preimages. */                                    \
            word_t t = FSH_REJECT_BELOW(word_t, s);                         \
            while (l < t) {                                                    \
                m = (dword_t)((dword_t)NEXT(st) * (dword_t)s);                 \
                l = (word_t)m;                                                 \
            }                                                                  \
        }                                                                      \
        return (word_t)(m >> BITS);                                            \
    }

#ifdef FSH_HAVE_U128
FSH_DEFINE_LEMIRE(fsh_lemire_words, uint64_t, fsh_u128, 64, fsh_rng *,
                  fsh_next_word)
#else
/* Same algorithm via fsh_mul128 when the compiler has no 128-bit type. */
static inline uint64_t fsh_lemire_words(fsh_rng *rng, uint64_t s)
{
    uint64_t l, hi = fsh_mul128(fsh_next_word(rng), s, &l);
    if (FSH_UNLIKELY(l < s)) {
        uint64_t t = FSH_REJECT_BELOW(uint64_t, s);
        while (l < t)
            hi = fsh_mul128(fsh_next_word(rng), s, &l);
    }
    return hi;
}
#endif

/*
 * Batched dice (Brackett-Rozinsky & Lemire, "Batched Ranged Random Integer
 * Generation", SPE 2024): k indices from one word, idx[d] uniform in
 * [0, b - d), for bounds b, b-1, ..., b-k+1 whose product P fits in a word.
 * Multiplying r by each bound in turn and keeping the low half reads the
 * mixed-radix digits of floor(r * P / 2^W), and the final low half equals
 * r * P mod 2^W, so this is Lemire's method on the range P: rejecting a final
 * low half below 2^W mod P makes every index tuple equally likely. `cheap`
 * must be >= P (so >= 2^W mod P); the exact P is only computed, with one
 * division, when the low half falls below it. Returns the exact P when it was
 * computed (a valid, tighter cheap bound for later batches with smaller
 * bounds), else cheap.
 */
#define FSH_DEFINE_BATCH(name, word_t, dword_t, BITS, state_t, NEXT)          \
    static inline word_t name(state_t st, word_t b, unsigned k, word_t cheap,  \
                              word_t *idx)                                     \
    {                                                                          \
        word_t r = NEXT(st);                                                   \
        for (unsigned d = 0; d < k; d++) {                                     \
            word_t bd_ = FSH_OPAQUE((word_t)(b - d));                          \
            dword_t m = (dword_t)((dword_t)r * (dword_t)bd_);                  \
            idx[d] = (word_t)(m >> BITS);                                      \
            r = (word_t)m;                                                     \
        }                                                                      \
        if (FSH_UNLIKELY(r < cheap)) {                                         \
            word_t p = b;                                                      \
            for (unsigned d = 1; d < k; d++)                                   \
                p = (word_t)(p * (word_t)(b - d));                             \
            word_t t = FSH_REJECT_BELOW(word_t, p);                         \
            while (r < t) {                                                    \
                r = NEXT(st);                                                  \
                for (unsigned d = 0; d < k; d++) {                             \
                    dword_t m =                                                \
                        (dword_t)((dword_t)r * (dword_t)(word_t)(b - d));      \
                    idx[d] = (word_t)(m >> BITS);                              \
                    r = (word_t)m;                                             \
                }                                                              \
            }                                                                  \
            return p;                                                          \
        }                                                                      \
        return cheap;                                                          \
    }

#ifdef FSH_HAVE_U128
FSH_DEFINE_BATCH(fsh_batch_words, uint64_t, fsh_u128, 64, fsh_rng *,
                 fsh_next_word)
#endif

/* Largest product of a batch of dice built greedily (fsh_batch_plan): a
   rejection then costs at most 1/16 of a word. */
#define FSH_BATCH_CAP ((uint64_t)1 << 60)

/* fsh_batch_plan without the table: the number k of dice b, b-1, ... (each >= 2) whose product stays <= cap, and
   that product in *prod; 0 when b < 2. Exception: when all the remaining
   dice b, ..., 2 fit under 2^62 (b <= 20: 20! < 2^61.1) they form one batch,
   so any permutation of up to 20 elements comes from one word (rejected
   with probability below 1/4, 7.7% for b = 20). */
static inline unsigned fsh_batch_plan_compute(uint64_t b, uint64_t cap, uint64_t *prod)
{
    uint64_t p = 1, q;
    unsigned k = 0;
    if (b <= 20) {
        for (uint64_t d = b; d >= 2; d--)
            p *= d;
        *prod = p;
        return b >= 2 ? (unsigned)(b - 1) : 0;
    }
    while (b - k >= 2 && !__builtin_mul_overflow(p, b - k, &q) && q <= cap) {
        p = q;
        k++;
    }
    *prod = p;
    return k;
}

/* Below this bound the shuffle kernels switch from fixed-size batches to
   fsh_batch_plan, as the deck does: a deck dealt to the end and a shuffle of
   the same n <= 64 then use the same dice (a 52-card order from 4 words). */
#define FSH_GREEDY_TAIL 64

typedef struct fsh_plan {
    unsigned k;    /* dice in the batch */
    uint64_t prod; /* their product */
} fsh_plan;

/* The greedy plans for cap FSH_BATCH_CAP, b <= FSH_GREEDY_TAIL (uniform.c). */
FSH_HIDDEN extern const fsh_plan fsh_greedy_plan[FSH_GREEDY_TAIL + 1];

/* Number k of dice b, b-1, ... whose product stays <= cap, and the product
   in *prod (see fsh_batch_plan_compute); a table lookup for the cap every
   kernel uses. */
static inline unsigned fsh_batch_plan(uint64_t b, uint64_t cap, uint64_t *prod)
{
    if (cap == FSH_BATCH_CAP && b <= FSH_GREEDY_TAIL) {
        *prod = fsh_greedy_plan[b].prod;
        return fsh_greedy_plan[b].k;
    }
    return fsh_batch_plan_compute(b, cap, prod);
}

/* Uniform in [0, s), s >= 1, from any source. */
static inline uint64_t fsh_uniform_fast(fsh_rng *rng, uint64_t s)
{
    if (FSH_UNLIKELY(rng->src == FSH_SRC_RANDINT))
        return fsh_randint_draw(rng, s);
    return fsh_lemire_words(rng, s);
}

#endif /* FSH_UNIFORM_H */
