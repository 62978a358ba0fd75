/* SPDX-License-Identifier: MIT */
/*
 * Golden hashes for tests/test_records.c, computed with fairshuf 0.1's own
 * code (the command's record permutation before issue 10 moved it into the
 * library as fsh_shuffle_records), so that the test proves the rule did
 * not change. It builds against a 0.1 tree (commit 4d3ce8e, already built
 * with make), not against this one:
 *
 *   B=/path/to/0.1-tree
 *   cc -std=c11 -O2 -D_GNU_SOURCE -I$B/include -I$B/cli -o gen_records \
 *       tests/gen/gen_records.c $(ls $B/build/cli/*.o | grep -v main.o) \
 *       $B/libfairshuf.a -lsodium -lm -lpthread
 *   ./gen_records
 *
 * For each case: rng = fsh_rng_new_seeded(seed) (simulation grade, as the
 * command's --seed), key = the rng's next 32 bytes; the records are n
 * elements of size bytes, element i = the little-endian bytes of i (size 4
 * or 8), or of (uint32 i, uint64 i * 0x9E3779B97F4A7C15) (size 12). The
 * permutation is computed twice: by the command's cli/big.c scatter_perm
 * (sizes 4 and 8, which it handles; threads 1 and 4), and by the 0.1
 * library pieces (fsh_fileshuf_buckets over the whole range,
 * fsh_fileshuf_scatter, fsh_fileshuf_bucket per bucket), which must agree;
 * the output is the sha256 of the permuted bytes.
 */
#include "cli.h"
#include <fairshuf.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "records_input.h"


static unsigned char *make_or_die(size_t n, size_t size)
{
    unsigned char *a = records_input(n, size);
    if (a == NULL)
        exit(2);
    return a;
}

static void key_of(const char *seed, uint8_t key[32])
{
    fsh_rng *rng;
    if (fsh_rng_new_seeded(&rng, seed, strlen(seed)) != FSH_OK ||
        fsh_rng_set_simulation(rng, 1) != FSH_OK ||
        fsh_rng_bytes(rng, key, 32) != FSH_OK)
        exit(3);
    fsh_rng_free(rng);
}

/* The library pieces of 0.1. */
static unsigned char *pieces(const uint8_t key[32], size_t n, size_t size)
{
    unsigned char *a = make_or_die(n, size), *d = malloc(n * size);
    unsigned bits = fsh_fileshuf_bits(n);
    size_t nb = (size_t)1 << bits;
    uint32_t *ids = malloc(n * sizeof *ids);
    size_t *start = malloc((nb + 1) * sizeof *start);
    if (d == NULL || ids == NULL || start == NULL ||
        fsh_fileshuf_buckets(key, bits, 0, ids, n) != FSH_OK ||
        fsh_fileshuf_scatter(ids, 0, nb, a, d, n, size, start) != FSH_OK)
        exit(4);
    for (size_t b = 0; b < nb; b++)
        if (fsh_fileshuf_bucket(key, b, d + start[b] * size,
                                start[b + 1] - start[b], size) != FSH_OK)
            exit(5);
    free(a);
    free(ids);
    free(start);
    return d;
}

static void hex(const unsigned char *a, size_t len, char out[65])
{
    unsigned char h[32];
    crypto_hash_sha256(h, a, len);
    for (int i = 0; i < 32; i++)
        sprintf(out + 2 * i, "%02x", h[i]);
}

int main(void)
{
    static const struct {
        const char *seed;
        size_t n, size;
    } cases[] = {
        {"records-golden", 3000000, 4},
        {"records-golden", ((size_t)1 << 20) + 1, 4},
        {"records-golden-8", 1500000, 8},
        {"records-golden-12", 1200000, 12},
    };
    if (sodium_init() < 0)
        return 2;
    big_defaults();
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t n = cases[c].n, size = cases[c].size;
        uint8_t key[32];
        key_of(cases[c].seed, key);
        unsigned char *p = pieces(key, n, size);
        char h[65], h2[65];
        hex(p, n * size, h);
        if (size == 4 || size == 8) {
            for (unsigned t = 1; t <= 4; t += 3) {
                big_threads = t;
                unsigned char *q = scatter_perm(key, make_or_die(n, size), n, size);
                hex(q, n * size, h2);
                if (strcmp(h, h2) != 0) {
                    fprintf(stderr, "scatter_perm (threads %u) and the pieces "
                            "differ for %s\n", t, cases[c].seed);
                    return 1;
                }
                free(q);
            }
        }
        free(p);
        printf("    {\"%s\", %zu, %zu, \"%s\"},\n", cases[c].seed, n, size, h);
    }
    return 0;
}
