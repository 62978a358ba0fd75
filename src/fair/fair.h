/* SPDX-License-Identifier: MIT */
/* Provably fair rounds, private: the "fairshuf-deal-v1" word stream (HMAC-
   SHA-256 blocks of the group's server-seed segment, big-endian words) and
   the Fisher-Yates it drives. Exposed to the white-box tests (test_fair
   drives known-bad variants from the same stream). Above deck/ on the
   ladder; uses only common/ and libsodium. */
#ifndef FSH_FAIR_H
#define FSH_FAIR_H

#include "common/common.h"

#include <sodium.h>

typedef struct {
    const uint8_t *seed;     /* server seed, len bytes */
    size_t len, segments;    /* segments = ceil(len / 32) */
    const void *client;      /* client seed, client_len bytes */
    size_t client_len;
    uint64_t nonce;
    uint32_t group;          /* current group g */
    uint64_t block;          /* next block number of the group */
    unsigned used;           /* words of out consumed (4: none buffered) */
    uint64_t words;          /* words read so far (all groups) */
    crypto_auth_hmacsha256_state prefix; /* keyed, message up to u32be(g) */
    unsigned char out[32];   /* the current block */
} fsh_fair_stream;

/* Set arguments check: faces 1..2^32, copies >= 1, n = faces * copies <=
   SIZE_MAX / 4, and the n - 1 steps cut into at most FSH_FAIR_GROUPS
   groups (fsh_fair_groups_fit); FSH_EINVAL otherwise. */
FSH_HIDDEN int fsh_fair_set_check(size_t faces, unsigned copies, size_t *n);

/* Groups the stream numbers: u32be(g), g = 0 .. 2^32 - 1. */
#define FSH_FAIR_GROUPS ((uint64_t)1 << 32)

/* 1 if the steps of a shuffle of n cards (ranges n, n-1, ..., 2) are cut
   into at most max groups, else 0. Exact: O(1) bounds decide, except for
   sets just around the limit (with max = FSH_FAIR_GROUPS, n from 7 * 2^32
   + 2 to about 3.3e10), where the cut is walked (O(n)). */
FSH_HIDDEN int fsh_fair_groups_fit(size_t n, uint64_t max);

/* The number of groups of a shuffle of n cards, counted by walking the cut
   (O(n)); at most stop + 1 (the walk ends there). 1 for n <= 2. */
FSH_HIDDEN uint64_t fsh_fair_groups(size_t n, uint64_t stop);

/* ceil(log2(n! / (c!)^m)) for the set (faces m, copies c, n = m c), as
   fsh_fair_seed_min needs it. exact: the bignum, O(n^2 log n) time and
   O(n log n) memory (FSH_ENOMEM possible). interval: faces >= 2 and
   n >= 3 only, O(n) time, no memory; 1 and *bits, or 0 when it cannot tell (then the
   bignum must). */
FSH_HIDDEN int fsh_fair_bits_exact(uint64_t *bits, size_t faces,
                                   unsigned copies, size_t n);
FSH_HIDDEN int fsh_fair_bits_interval(uint64_t *bits, size_t faces,
                                      unsigned copies, size_t n);
#ifdef FSH_HAVE_U128
/* The interval's bounds: lo_m 2^lo_e <= N <= hi_m 2^hi_e, mantissas in
   [2^127, 2^128). */
FSH_HIDDEN void fsh_fair_bounds(size_t faces, unsigned copies, size_t n,
                                fsh_u128 *lo_m, int64_t *lo_e, fsh_u128 *hi_m,
                                int64_t *hi_e);
#endif

/* Start the stream at group 0 (no argument checks: the caller's). */
FSH_HIDDEN void fsh_fair_stream_init(fsh_fair_stream *s, const uint8_t *seed,
                                     size_t len, const void *client,
                                     size_t client_len, uint64_t nonce);
/* Move to the next group (block 0, nothing buffered): FSH_OK, or
   FSH_EINVAL with the stream unchanged at the last group, 2^32 - 1 (its
   number would wrap to 0 and repeat group 0's words). */
FSH_HIDDEN int fsh_fair_stream_next_group(fsh_fair_stream *s);
/* Move to group g (block 0, nothing buffered): the tests' way to the last
   group numbers without drawing 4e10 cards first. */
FSH_HIDDEN void fsh_fair_stream_seek(fsh_fair_stream *s, uint32_t g);
/* The next big-endian 64-bit word of the current group. */
FSH_HIDDEN uint64_t fsh_fair_stream_word(fsh_fair_stream *s);
/* Wipe the stream state (keys, blocks). */
FSH_HIDDEN void fsh_fair_stream_wipe(fsh_fair_stream *s);
/* Where the shuffle's words come from: the stream, or a test's script. */
typedef struct {
    uint64_t (*word)(void *ctx);     /* next word of the current group */
    int (*next_group)(void *ctx);    /* the next step starts a new group:
                                        FSH_OK, or the stream's refusal */
    void *ctx;
} fsh_fair_source;

/* *src = the stream s as a word source; returns src. */
FSH_HIDDEN const fsh_fair_source *fsh_fair_stream_source(fsh_fair_stream *s,
                                                         fsh_fair_source *src);
/* Lemire with the exact rejection: 0 (reject: the low half of x * r is
   below 2^64 mod r), else 1 with *j = the high half. r >= 1. */
FSH_HIDDEN int fsh_fair_reduce(uint64_t x, uint64_t r, uint64_t *j);
/* prod (4 little-endian words, < 2^256) times r: 1 and prod = the product
   if it is below 2^256, else 0 and prod unchanged (the group cut). */
FSH_HIDDEN int fsh_fair_prod_mul(uint64_t prod[4], uint64_t r);
/* Backward Fisher-Yates on a[0..n) (steps i = n-1..1, range r = i + 1)
   drawing from src, calling next_group before a step whose range would
   bring the group's range product to 2^256 or more. FSH_OK, or the status
   of a next_group that refused (the steps before it made; a is a
   permutation of its input). */
FSH_HIDDEN int fsh_fair_shuffle(uint32_t *a, size_t n,
                                const fsh_fair_source *src);

#endif /* FSH_FAIR_H */
