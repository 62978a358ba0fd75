/* SPDX-License-Identifier: MIT */
/* The tests' stand-in hardware entropy source: SplitMix64 words (Steele,
   Lea and Flood, "Fast splittable pseudorandom number generators", 2014;
   Vigna's splitmix64.c) handed to the library through rng/hwrand.h's test
   hook in place of RDSEED, so that a mixing call replays exactly. It
   counts its calls and words, hashes the words in the order handed out,
   records the largest request, and can fail: always, or the call that
   would pass a limit of words in all (then it hands out nothing). The
   SplitMix64 step is also the tests' word source for fsh_rng_from_words;
   fake_hw_rng makes the generator that mixes, with a fixed key. */
#ifndef FSH_TESTS_FAKE_HW_H
#define FSH_TESTS_FAKE_HW_H

#include "fairshuf.h"
#include "rng/hwrand.h"
#include "rng/rng.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The next SplitMix64 word of the sequence whose state is *s. */
static inline uint64_t fake_splitmix64(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

typedef struct fake_hw {
    uint64_t state; /* SplitMix64 state */
    uint64_t words; /* words handed out */
    uint64_t calls; /* calls, failed ones included */
    uint64_t limit; /* a call that would pass this many words in all fails */
    size_t most;    /* the most words one call asked for */
    uint64_t hash;  /* FNV-1a over the words handed out, in order */
    int fail;       /* present but failing: every call fails */
} fake_hw;

/* The hook (fsh_hw_fn): n words from the fake_hw at ctx, or FSH_ENOHWRAND
   with none when it fails. */
static inline int fake_hw_words(void *ctx, uint64_t *out, size_t n)
{
    fake_hw *f = ctx;
    f->calls++;
    if (n > f->most)
        f->most = n;
    if (f->fail || n > f->limit - f->words)
        return FSH_ENOHWRAND;
    for (size_t i = 0; i < n; i++) {
        out[i] = fake_splitmix64(&f->state);
        f->hash = (f->hash ^ out[i]) * UINT64_C(0x100000001B3);
    }
    f->words += n;
    return FSH_OK;
}

/* *f fresh from SplitMix64 state `state`: nothing handed out, no limit,
   not failing. */
static inline void fake_hw_init(fake_hw *f, uint64_t state)
{
    f->state = state;
    f->words = 0;
    f->calls = 0;
    f->limit = UINT64_MAX;
    f->most = 0;
    f->hash = UINT64_C(0xCBF29CE484222325);
    f->fail = 0;
}

/* The library's hardware source is f from now on; present is what
   fsh_hw_available reports (0: no source, every draw refused). */
static inline void fake_hw_on(fake_hw *f, int present)
{
    fsh_hw_set_hook(fake_hw_words, present, f);
}

/* The real hardware source again. */
static inline void fake_hw_off(void)
{
    fsh_hw_set_hook(NULL, 0, NULL);
}

/* An OS-keyed ChaCha rng (the only kind that mixes) with a fixed key
   (white-box), the policy reach and no hardware cap; NULL if it cannot be
   made. */
static inline fsh_rng *fake_hw_rng(unsigned reach)
{
    fsh_rng *r;
    if (fsh_rng_new(&r) != FSH_OK)
        return NULL;
    for (uint32_t i = 0; i < 8; i++)
        r->key[i] = UINT32_C(0x9E3779B9) * (i + 1);
    r->counter = 0;
    r->stream = 0;
    memset(r->buf, 0, sizeof r->buf);
    r->pos = FSH_BUF_WORDS;
    r->ahead_blocks = 0;
    if (fsh_rng_set_reach(r, reach) != FSH_OK ||
        fsh_rng_set_hw_cap(r, UINT64_MAX) != FSH_OK) {
        fsh_rng_free(r);
        return NULL;
    }
    return r;
}

#endif /* FSH_TESTS_FAKE_HW_H */
