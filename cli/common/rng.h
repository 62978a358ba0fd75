/* SPDX-License-Identifier: MIT */
/* The run's generator, made at its first draw. */
#ifndef FSH_CLI_RNG_H
#define FSH_CLI_RNG_H

#include "fairshuf.h"

/* --generator's argument: the ChaCha variants an OS-keyed run may use
   ("chacha8", the default, "chacha12", "chacha20"). Dies with a usage
   message on anything else. */
int parse_generator(const char *arg);

/* No --generator: the library's OS-keyed default (ChaCha8). */
#define GEN_DEFAULT (-1)

/* A new rng from seed (simulation grade: a string rarely holds 226+
   bits; ChaCha20 as docs/STREAMS.md fixes), or keyed from the OS when seed
   is NULL, with generator gen (an fsh_gen, or GEN_DEFAULT). Dies naming the
   cause when the OS random source fails: call it only when a draw is
   needed. */
fsh_rng *rng_make(const char *seed, int gen);

/* rng_make for `fairshuf deal`: a dealer wants every order of the shoe
   reachable, not shuf's "never fail". Keyed from the OS, it mixes RDSEED
   entropy into every deal beyond the key's 57 cards, whatever the shoe's
   size (no hardware cap), and refuses (FSH_ENOHWRAND) where there is no
   hardware source; with a seed, as rng_make. */
fsh_rng *rng_make_dealer(const char *seed, int gen);

/* An rng made on first use: a run that draws nothing (-n 0, one record,
   no records) needs no OS entropy, and --seed never does. */
typedef struct lazy_rng {
    const char *seed; /* NULL: from the OS */
    int gen;          /* OS-keyed: an fsh_gen or GEN_DEFAULT */
    fsh_rng *rng;
} lazy_rng;

fsh_rng *lazy_get(lazy_rng *l);
void lazy_free(lazy_rng *l);

/* The library's record permutation (fsh_shuffle_records, the one home of
   the rule) of a[0..n) on up to threads threads; fewer than 2 records draw
   nothing, so they need no rng and no OS entropy. */
void shuffle_records(lazy_rng *l, void *a, size_t n, size_t size,
                     unsigned threads);

/* The bytes that shuffle_records of n elements of size bytes uses beside
   the array: above FSH_RECORDS_SMALL, a copy of it (fairshuf.h; the
   scatter shuffle's copy when the rng takes fsh_shuffle); UINT64_MAX if
   that overflows. */
uint64_t shuffle_records_extra(uint64_t n, size_t size);

#endif
