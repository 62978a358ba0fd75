/* SPDX-License-Identifier: MIT */
/*
 * Stream versions (fairshuf.h, docs/STREAMS.md "Stream versions"):
 * - which version an rng follows: 0 lets the keying choose (an OS-keyed rng
 *   the newest, a seeded, raw-keyed or callback rng version 1), 1, 2 or 3 pin
 *   it across every re-keying; other values are refused and change nothing;
 * - where each version switches from Fisher-Yates to the scatter shuffle,
 *   to the element: version 1 above 24 MiB, version 2 above 12 MiB for
 *   elements of up to 8 bytes and above 24 MiB for larger ones. The
 *   kernel taken shows in the words read from the caller's own ChaCha
 *   stream (its position, from the rng's internals): the scatter reads 4
 *   (its key; its other words come from the streams it keys), Fisher-Yates
 *   about one per two elements;
 * - certified-source mode keeps Fisher-Yates in both, with the same output;
 * - version 3 against version 2 (test_v3): the same up to 6 MiB and for
 *   elements above 8 bytes, the forward Fisher-Yates (fsh_fy_forward, its
 *   output compared) above 6 MiB up to 12 MiB, in certified-source mode
 *   too, the scatter above (its 4 key words);
 * - the outputs are permutations, and version 2's differs from version 1's
 *   for the same seed where the kernels differ (their digests are in
 *   tests/test_scatter_stream.c, cross-checked in Python).
 * Known-bad variants tried: an rng that forgets its pinned version when
 * re-keyed fails 9 checks; thresholds one element low (>= for >) fail 4;
 * version 2's 12 MiB threshold for elements of every size fails 3.
 */
#include "check.h"
#include "rng/rng.h"
#include "shuffle/fy.h"

#include <fairshuf.h>
#include <string.h>

#define MIB ((size_t)1 << 20)

static void fill(uint64_t *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = i;
}

/* a is a permutation of 0..n-1 (uses mark, n bytes). */
static int is_perm(const uint64_t *a, size_t n, unsigned char *mark)
{
    memset(mark, 0, n);
    for (size_t i = 0; i < n; i++) {
        if (a[i] >= n || mark[a[i]])
            return 0;
        mark[a[i]] = 1;
    }
    return 1;
}

static void seed(fsh_rng *rng, const char *s)
{
    CHECK(fsh_rng_seed(rng, s, strlen(s)) == FSH_OK);
    CHECK(fsh_rng_set_simulation(rng, 1) == FSH_OK);
}

static uint64_t words_from_fixed(void *ctx)
{
    uint64_t *x = ctx;
    *x += 0x9e3779b97f4a7c15ull;
    uint64_t z = *x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void test_setting(void)
{
    fsh_rng *os = NULL, *sd = NULL;
    CHECK(fsh_rng_new(&os) == FSH_OK);
    CHECK(fsh_rng_new_seeded(&sd, "v", 1) == FSH_OK);
    /* By keying. */
    CHECK_EQ(fsh_rng_stream_version(os), FSH_STREAM_LATEST);
    CHECK_EQ(FSH_STREAM_LATEST, FSH_STREAM_V3);
    CHECK_EQ(fsh_rng_stream_version(sd), FSH_STREAM_V1);
    CHECK_EQ(fsh_rng_stream_version(NULL), 0);
    CHECK(fsh_rng_seed(os, "s", 1) == FSH_OK); /* now seeded */
    CHECK_EQ(fsh_rng_stream_version(os), FSH_STREAM_V1);
    CHECK(fsh_rng_rekey(os) == FSH_OK); /* OS-keyed again */
    CHECK_EQ(fsh_rng_stream_version(os), FSH_STREAM_V3);
    CHECK(fsh_rng_rekey_gen(os, FSH_GEN_XOSHIRO256PP) == FSH_OK);
    CHECK_EQ(fsh_rng_stream_version(os), FSH_STREAM_V3);
    CHECK(fsh_rng_key_xoshiro(os, 5) == FSH_OK);
    CHECK_EQ(fsh_rng_stream_version(os), FSH_STREAM_V1);
    CHECK(fsh_rng_rekey(os) == FSH_OK);
    uint8_t k0[32] = {7};
    CHECK(fsh_rng_key_chacha(os, 8, k0, 3, 0) == FSH_OK);
    CHECK_EQ(fsh_rng_stream_version(os), FSH_STREAM_V1);
    uint64_t x = 1;
    CHECK(fsh_rng_from_words(os, words_from_fixed, &x) == FSH_OK);
    CHECK_EQ(fsh_rng_stream_version(os), FSH_STREAM_V1);

    /* Pinned: kept across every re-keying, both ways. */
    CHECK(fsh_rng_set_stream_version(sd, FSH_STREAM_V2) == FSH_OK);
    CHECK_EQ(fsh_rng_stream_version(sd), FSH_STREAM_V2);
    CHECK(fsh_rng_seed(sd, "w", 1) == FSH_OK);
    CHECK_EQ(fsh_rng_stream_version(sd), FSH_STREAM_V2);
    uint8_t key[32] = {1};
    CHECK(fsh_rng_key_chacha(sd, 20, key, 0, 0) == FSH_OK);
    CHECK_EQ(fsh_rng_stream_version(sd), FSH_STREAM_V2);
    CHECK(fsh_rng_from_words(sd, words_from_fixed, &x) == FSH_OK);
    CHECK_EQ(fsh_rng_stream_version(sd), FSH_STREAM_V2);
    CHECK(fsh_rng_set_stream_version(os, FSH_STREAM_V1) == FSH_OK);
    CHECK(fsh_rng_rekey(os) == FSH_OK);
    CHECK_EQ(fsh_rng_stream_version(os), FSH_STREAM_V1);
    /* 0 gives the choice back to the keying. */
    CHECK(fsh_rng_set_stream_version(os, 0) == FSH_OK);
    CHECK_EQ(fsh_rng_stream_version(os), FSH_STREAM_V3);
    /* Version 3 pins as the others do. */
    CHECK(fsh_rng_set_stream_version(os, FSH_STREAM_V3) == FSH_OK);
    CHECK(fsh_rng_seed(os, "s", 1) == FSH_OK);
    CHECK_EQ(fsh_rng_stream_version(os), FSH_STREAM_V3);
    CHECK(fsh_rng_set_stream_version(os, 0) == FSH_OK);

    /* Refused, nothing changed. */
    CHECK(fsh_rng_set_stream_version(sd, 4) == FSH_EINVAL);
    CHECK(fsh_rng_set_stream_version(sd, 0x80000000u) == FSH_EINVAL);
    CHECK_EQ(fsh_rng_stream_version(sd), FSH_STREAM_V2);
    CHECK(fsh_rng_set_stream_version(NULL, 1) == FSH_EINVAL);
    fsh_rng_free(os);
    fsh_rng_free(sd);
}

/* Words of a ChaCha rng's own stream read so far: 8 per block made, less
   those still unread in its buffer. */
static uint64_t stream_pos(const fsh_rng *rng)
{
    CHECK_EQ(rng->src, FSH_SRC_CHACHA);
    return rng->counter * 8 - (FSH_BUF_WORDS - rng->pos);
}

/* Shuffle 0..n-1 with rng; the words read from its own stream. Checks the
   output is a permutation. */
static uint64_t words_for(fsh_rng *rng, uint64_t *a, size_t n,
                          unsigned char *mark)
{
    fill(a, n);
    uint64_t p0 = stream_pos(rng);
    CHECK(fsh_shuffle_u64(rng, a, n) == FSH_OK);
    CHECK(is_perm(a, n, mark));
    return stream_pos(rng) - p0;
}

/* Shuffle n elements of size bytes (8 or 16; a holds n * size / 8 words
   0, 1, ...) with a fresh rng seeded s, pinned to version v,
   certified-source mode if direct, or (v == 0) by fsh_fy_forward on the
   rng itself: the forward Fisher-Yates version 3 runs. */
static void shuffled(uint64_t *a, size_t n, size_t size, unsigned v,
                     int direct, const char *s)
{
    fsh_rng *rng = NULL;
    CHECK(fsh_rng_new(&rng) == FSH_OK);
    if (rng == NULL)
        return;
    seed(rng, s);
    CHECK(fsh_rng_set_direct(rng, direct) == FSH_OK);
    fill(a, n * size / 8);
    if (v == 0) {
        fsh_fy_forward(rng, (unsigned char *)a, n, size);
    } else {
        CHECK(fsh_rng_set_stream_version(rng, v) == FSH_OK);
        CHECK(fsh_shuffle(rng, a, n, size) == FSH_OK);
    }
    fsh_rng_free(rng);
}

static void test_kernels(void)
{
    size_t n1 = 24 * MIB / 8, n2 = 12 * MIB / 8;
    uint64_t *a = malloc((n1 + 2) * 8), *b = malloc((n2 + 1) * 8);
    unsigned char *mark = malloc(n1 + 1);
    fsh_rng *rng = NULL;
    CHECK(a != NULL && b != NULL && mark != NULL);
    CHECK(fsh_rng_new(&rng) == FSH_OK);
    if (a == NULL || b == NULL || mark == NULL || rng == NULL)
        goto done;

    /* Seeded, version 1 (the default): Fisher-Yates up to 24 MiB. */
    seed(rng, "k1");
    CHECK(words_for(rng, a, n2 + 1, mark) > n2 / 4);
    CHECK(words_for(rng, a, n1, mark) > n1 / 4);
    CHECK_EQ(words_for(rng, a, n1 + 1, mark), 4);
    /* Seeded, version 2: the scatter above 12 MiB. */
    CHECK(fsh_rng_set_stream_version(rng, FSH_STREAM_V2) == FSH_OK);
    seed(rng, "k2");
    CHECK(words_for(rng, a, n2, mark) > n2 / 4);
    CHECK_EQ(words_for(rng, a, n2 + 1, mark), 4);
    CHECK_EQ(words_for(rng, a, n1, mark), 4);
    /* u32 elements: the same thresholds in bytes. */
    uint32_t *u = (uint32_t *)(void *)a;
    for (size_t i = 0; i < 2 * n2 + 1; i++)
        u[i] = (uint32_t)i;
    uint64_t w0 = stream_pos(rng);
    CHECK(fsh_shuffle_u32(rng, u, 2 * n2 + 1) == FSH_OK);
    CHECK_EQ(stream_pos(rng) - w0, 4);
    /* Elements above 8 bytes: version 2 keeps Fisher-Yates up to 24 MiB,
       as version 1 (16-byte elements: 12 MiB + 1 and 24 MiB; 24 MiB + 1
       scatters; a holds n1 + 2 u64, 24 MiB + 16 bytes). */
    {
        size_t m = n2 / 2; /* 16-byte elements in 12 MiB */
        w0 = stream_pos(rng);
        CHECK(fsh_shuffle(rng, a, m + 1, 16) == FSH_OK);
        CHECK(stream_pos(rng) - w0 > m / 4);
        w0 = stream_pos(rng);
        CHECK(fsh_shuffle(rng, a, 2 * m, 16) == FSH_OK);
        CHECK(stream_pos(rng) - w0 > m / 4);
        w0 = stream_pos(rng);
        CHECK(fsh_shuffle(rng, a, 2 * m + 1, 16) == FSH_OK);
        CHECK_EQ(stream_pos(rng) - w0, 4);
        w0 = stream_pos(rng); /* 12-byte records: the same */
        CHECK(fsh_shuffle(rng, a, n1 * 8 / 12, 12) == FSH_OK);
        CHECK(stream_pos(rng) - w0 > m / 4);
    }
    /* Certified-source mode: Fisher-Yates in version 2 too, the same
       output as version 1 for the same seed. */
    CHECK(fsh_rng_set_direct(rng, 1) == FSH_OK);
    CHECK(words_for(rng, a, n2 + 1, mark) > n2 / 4);
    shuffled(a, n2 + 1, 8, 1, 1, "direct");
    shuffled(b, n2 + 1, 8, 2, 1, "direct");
    CHECK(memcmp(a, b, (n2 + 1) * 8) == 0);
    CHECK(fsh_rng_set_direct(rng, 0) == FSH_OK);
    CHECK(fsh_rng_set_stream_version(rng, FSH_STREAM_V2) == FSH_OK);

    /* The same seed by both versions, where they differ: 12 MiB + 1. */
    CHECK(fsh_rng_set_stream_version(rng, FSH_STREAM_V1) == FSH_OK);
    seed(rng, "same");
    fill(a, n2 + 1);
    CHECK(fsh_shuffle_u64(rng, a, n2 + 1) == FSH_OK);
    CHECK(fsh_rng_set_stream_version(rng, FSH_STREAM_V2) == FSH_OK);
    seed(rng, "same");
    fill(b, n2 + 1);
    CHECK(fsh_shuffle_u64(rng, b, n2 + 1) == FSH_OK);
    CHECK(memcmp(a, b, (n2 + 1) * 8) != 0);
    /* ... and below 12 MiB they agree. */
    shuffled(a, n2, 8, 1, 0, "below");
    shuffled(b, n2, 8, 2, 0, "below");
    CHECK(memcmp(a, b, n2 * 8) == 0);

    /* OS-keyed, by keying: version 2, the scatter above 12 MiB. */
    CHECK(fsh_rng_set_stream_version(rng, 0) == FSH_OK);
    CHECK(fsh_rng_rekey(rng) == FSH_OK);
    CHECK_EQ(words_for(rng, a, n2 + 1, mark), 4);
    CHECK(words_for(rng, a, n2, mark) > n2 / 4);
    /* OS-keyed, pinned to version 1. */
    CHECK(fsh_rng_set_stream_version(rng, FSH_STREAM_V1) == FSH_OK);
    CHECK(words_for(rng, a, n2 + 1, mark) > n2 / 4);
    /* fsh_permutation follows the same switch. */
    CHECK(fsh_rng_set_stream_version(rng, FSH_STREAM_V2) == FSH_OK);
    w0 = stream_pos(rng);
    CHECK(fsh_permutation(rng, a, 0, n2) == FSH_OK);
    CHECK_EQ(stream_pos(rng) - w0, 4);
    CHECK(is_perm(a, n2 + 1, mark));
done:
    fsh_rng_free(rng);
    free(a);
    free(b);
    free(mark);
}

/* Version 3 against version 2: the same up to 6 MiB, the forward
   Fisher-Yates from 6 MiB + 1 element to 12 MiB (certified-source mode
   too), the scatter from 12 MiB + 1 (not in certified-source mode, where
   both keep the prefetching kernel beyond 12 MiB); elements above 8 bytes
   the same above 6 MiB. */
static void test_v3(void)
{
    size_t n6 = 6 * MIB / 8, n12 = 12 * MIB / 8;
    uint64_t *a = malloc((n12 + 1) * 8), *b = malloc((n12 + 1) * 8);
    unsigned char *mark = malloc(n12 + 1);
    CHECK(a != NULL && b != NULL && mark != NULL);
    if (a == NULL || b == NULL || mark == NULL)
        goto done;
    shuffled(a, n6, 8, 2, 0, "v3");
    shuffled(b, n6, 8, 3, 0, "v3");
    CHECK(memcmp(a, b, n6 * 8) == 0);
    shuffled(a, n6 + 1, 8, 2, 0, "v3");
    shuffled(b, n6 + 1, 8, 3, 0, "v3");
    CHECK(memcmp(a, b, (n6 + 1) * 8) != 0);
    CHECK(is_perm(b, n6 + 1, mark));
    shuffled(a, n6 + 1, 8, 0, 0, "v3");
    CHECK(memcmp(a, b, (n6 + 1) * 8) == 0);
    shuffled(a, n12, 8, 0, 0, "v3-12");
    shuffled(b, n12, 8, 3, 0, "v3-12");
    CHECK(memcmp(a, b, n12 * 8) == 0);
    /* 12 MiB + 1: the scatter (its 4 key words), not the forward kernel. */
    shuffled(a, n12 + 1, 8, 0, 0, "v3-13");
    shuffled(b, n12 + 1, 8, 3, 0, "v3-13");
    CHECK(memcmp(a, b, (n12 + 1) * 8) != 0);
    CHECK(is_perm(b, n12 + 1, mark));
    {
        fsh_rng *rng = NULL;
        CHECK(fsh_rng_new(&rng) == FSH_OK);
        seed(rng, "v3-words");
        CHECK(fsh_rng_set_stream_version(rng, FSH_STREAM_V3) == FSH_OK);
        CHECK_EQ(words_for(rng, a, n12 + 1, mark), 4);
        CHECK(words_for(rng, a, n12, mark) > n12 / 4);
        fsh_rng_free(rng);
    }
    /* Certified-source mode: forward from 6 MiB + 1 to 12 MiB, then the
       prefetching kernel as in version 2. */
    shuffled(a, n6 + 1, 8, 0, 1, "v3-direct");
    shuffled(b, n6 + 1, 8, 3, 1, "v3-direct");
    CHECK(memcmp(a, b, (n6 + 1) * 8) == 0);
    shuffled(a, n12 + 1, 8, 2, 1, "v3-direct");
    shuffled(b, n12 + 1, 8, 3, 1, "v3-direct");
    CHECK(memcmp(a, b, (n12 + 1) * 8) == 0);
    /* 16-byte elements just above 6 MiB: backward in both. */
    shuffled(a, n6 / 2 + 1, 16, 2, 0, "v3-16");
    shuffled(b, n6 / 2 + 1, 16, 3, 0, "v3-16");
    CHECK(memcmp(a, b, (n6 + 2) * 8) == 0);
done:
    free(a);
    free(b);
    free(mark);
}

int main(void)
{
    test_setting();
    test_kernels();
    test_v3();
    return check_done("test_stream_version");
}
