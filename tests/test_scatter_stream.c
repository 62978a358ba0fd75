/* SPDX-License-Identifier: MIT */
/*
 * The scatter shuffle's stream (arrays above 24 MiB; above 12 MiB in
 * stream version 2) against docs/STREAMS.md section 5b: the SHA-256 of
 * each output below was computed by
 * tests/gen/crosscheck_scatter.py, an independent Python implementation
 * written from that section alone (with sections 2 and 5). Cases:
 * fsh_shuffle_u64 of 3,200,000 elements from a seeded ChaCha20 rng and
 * fsh_shuffle_u32 of 6,400,000 from a seeded ChaCha8 rng (both 25.6 MB:
 * one level of 16 buckets, four stripes; leaves of up to 262,144 and
 * 524,288 elements), each on one and on two threads; and the test hook
 * with fixed parameters (k buckets at every level, S top stripes, leaves
 * of at most `base` elements): three levels and their stream ids, eight
 * stripes, the depth limit, ChaCha8, 12 and 20; and stream version 2
 * ("Stream versions": the scatter from 12 MiB, buckets made at most 1 MiB)
 * at 1,600,000 and 3,200,000 u64 and 3,200,000 u32, with the same
 * 1,600,000 u64 by version 1, the seeded default (Fisher-Yates there: the
 * version 2 digest must differ); and stream version 3 (section 5d: the
 * forward Fisher-Yates above 6 MiB and in the scatter's leaves) at
 * 900,000 u64 and 1,700,000 u32 (Fisher-Yates forward), 1,600,000 u64
 * (the scatter, forward leaves: the same seed as version 2's case, another
 * digest) and two hook cases (u64 and u32, forward leaves). Deterministic: a changed
 * index, label, compaction or placement anywhere changes a digest.
 *
 * Known-bad variants tried: the Python with the stash labels drawn from the
 * rough pass's stream gave other digests for all four hook cases, and with
 * the compaction's exchange reversed for the three with more than one
 * stripe; the C hook with the multinomial fix-up skipped (broken = 1) must
 * not match either (checked below). `make check` runs the Python against
 * this file when python3 is there (tests/cli/test_crosscheck.sh).
 * With --print it prints the digests instead of checking them.
 */
#include "check.h"
#include "shuffle/scatter.h"

#include <fairshuf.h>
#include <sodium.h>
#include <string.h>

typedef struct scase {
    const char *name;
    size_t n, size;
    fsh_gen gen;
    const char *seed;
    size_t base;      /* 0: fsh_shuffle itself */
    unsigned stripes; /* hook only */
    unsigned k;       /* hook only */
    unsigned version; /* fsh_rng_set_stream_version; 0: left as seeded (1) */
    const char *sha256;
} scase;

static const scase cases[] = {
    {"hook_k8_s2", 20000, 8, FSH_GEN_CHACHA8, "scatter-stream-1", 300, 2, 8, 0,
     "ae9018a46baf4a09098f98461ecd9d6ee35132371a1788f487617957e0e9507c"},
    {"hook_k4_s3", 5000, 8, FSH_GEN_CHACHA20, "scatter-stream-2", 200, 3, 4, 0,
     "aa678b3cc2f74d4f1dc7fdeae7c4645b4af461696e9974aaacb5e0edff5f1fd6"},
    {"hook_k2_s8", 3000, 4, FSH_GEN_CHACHA12, "scatter-stream-3", 40, 8, 2, 0,
     "576840660749d8d6824286db397eaa3389c4f623bbe4dc30b4f0ec1684e692d4"},
    {"hook_k16_s1", 70000, 4, FSH_GEN_CHACHA8, "scatter-stream-4", 64, 1, 16, 0,
     "df28085c95d2c3bbd2d414c4bf0b51d47f3e29dc0d007809560516049c9c9a44"},
    {"u64_3200000", 3200000, 8, FSH_GEN_CHACHA20, "scatter-stream-5", 0, 0, 0, 0,
     "1b08669d7e3e7fdbe44f56425f61fffd8142954c08c96960c04260f3a13df720"},
    {"u32_6400000", 6400000, 4, FSH_GEN_CHACHA8, "scatter-stream-6", 0, 0, 0, 0,
     "b4bc6bdde4a77a6f4f3608cefd4d13e42c30eea522d09a446d89510ed7e1244a"},
    {"v1_u64_1600000", 1600000, 8, FSH_GEN_CHACHA20, "scatter-stream-7", 0, 0,
     0, 0, "b93045768ae9d7033393f51b098e9176c3fdaf1107a6b85a8cbd18006bdea5cb"},
    {"v2_u64_1600000", 1600000, 8, FSH_GEN_CHACHA20, "scatter-stream-7", 0, 0,
     0, 2, "d8eb91635d6b9e0699c8257a85238fe94b71a3e068b29c804c83847382134112"},
    {"v2_u64_3200000", 3200000, 8, FSH_GEN_CHACHA20, "scatter-stream-5", 0, 0,
     0, 2, "1b4a39c80dfb74bb2b626f5d7b8428c43c4f7b79249ecac274a27ecaff18496c"},
    {"v2_u32_3200000", 3200000, 4, FSH_GEN_CHACHA8, "scatter-stream-8", 0, 0,
     0, 2, "9a5281d3756d08ec54d91a7320c3da4758007dff159032c5f64227bdcb38c42a"},
    {"hook_k8_s2_v3", 20000, 8, FSH_GEN_CHACHA8, "scatter-stream-1", 300, 2, 8,
     3,
     "31c6214e00c800bec225307ad72d487158b3962d2c79ba24e8bd4826321ae67a"},
    {"hook_k16_s1_v3", 70000, 4, FSH_GEN_CHACHA8, "scatter-stream-4", 64, 1,
     16, 3,
     "b09f0836e9c3ae6bf442829c9b175bb9fac7aa511a0716a5fd422f3382d93217"},
    {"v3_u64_900000", 900000, 8, FSH_GEN_CHACHA20, "scatter-stream-9", 0, 0, 0,
     3,
     "781625ee2bb7850aec6f47c28b3866dd55c16002933198d5250ec0fc615a99c0"},
    {"v3_u32_1700000", 1700000, 4, FSH_GEN_CHACHA8, "scatter-stream-10", 0, 0,
     0, 3,
     "66da5fccbd33aa25b1bd7c27175ad5520dff4211cf045728bb7a517fb5071179"},
    {"v3_u64_1600000", 1600000, 8, FSH_GEN_CHACHA20, "scatter-stream-7", 0, 0,
     0, 3,
     "2e40332c69758662d2215da7a2a4576c27494934473ae7ca4aa6c12303da1be4"},
};
#define NCASES (sizeof cases / sizeof cases[0])

static void hex(const unsigned char *d, char out[65])
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        out[2 * i] = digits[d[i] >> 4];
        out[2 * i + 1] = digits[d[i] & 15];
    }
    out[64] = '\0';
}

/* The case's output digest in hex (empty on failure); broken: the hook's
   known-bad variant. */
static void run(const scase *c, unsigned threads, int broken, char out[65])
{
    out[0] = '\0';
    unsigned char *a = malloc(c->n * c->size);
    fsh_rng *rng = NULL;
    if (a == NULL || fsh_rng_new(&rng) != FSH_OK ||
        fsh_rng_seed_gen(rng, c->gen, c->seed, strlen(c->seed)) != FSH_OK ||
        fsh_rng_set_simulation(rng, 1) != FSH_OK ||
        fsh_rng_set_stream_version(rng, c->version) != FSH_OK) {
        CHECK(0);
        goto done;
    }
    for (size_t i = 0; i < c->n; i++) {
        if (c->size == 8) {
            uint64_t v = i;
            memcpy(a + 8 * i, &v, 8);
        } else {
            uint32_t v = (uint32_t)i;
            memcpy(a + 4 * i, &v, 4);
        }
    }
    int rc;
    if (c->base != 0) {
        fsh_scatter_params p = {c->k, c->stripes, c->base, threads, 1,
                                broken, c->version >= 3 && c->size <= 8};
        rc = fsh_scatter_hook(rng, a, c->n, c->size, &p);
    } else {
        rc = fsh_shuffle_threads(rng, a, c->n, c->size, threads);
    }
    CHECK_EQ(rc, FSH_OK);
    unsigned char d[32];
    crypto_hash_sha256(d, a, c->n * c->size);
    hex(d, out);
done:
    fsh_rng_free(rng);
    free(a);
}

int main(int argc, char **argv)
{
    int print = argc > 1 && strcmp(argv[1], "--print") == 0;
    if (sodium_init() < 0)
        return 1;
    for (size_t i = 0; i < NCASES; i++) {
        const scase *c = &cases[i];
        char one[65], two[65];
        run(c, 1, 0, one);
        if (print) {
            printf("%s %s\n", c->name, one);
            continue;
        }
        check_seed = i;
        CHECK(strcmp(one, c->sha256) == 0);
        run(c, 2, 0, two);
        CHECK(strcmp(two, c->sha256) == 0);
        if (c->base != 0) {
            char bad[65];
            run(c, 1, 1, bad);
            CHECK(strcmp(bad, c->sha256) != 0);
        }
    }
    return print ? 0 : check_done("test_scatter_stream");
}
