/* SPDX-License-Identifier: MIT */
/* Target seed: seeds as the library and the CLI read them.
   - fsh_rng_seed(bytes) is ChaCha20 keyed with SHA-256("fairshuf/seed/v1"
     || 0x00 || bytes) (checked with libsodium and fsh_rng_key_chacha), credited
     min(8 len, 256) bits; fsh_rng_seed_gen gives ChaCha12/8 with that key
     and xoshiro256++ from its first 8 bytes;
   - --seed=STRING (no NUL) on -i 1-N equals fsh_shuffle under that seed;
   - --random-source=FILE holding the input bytes on -i 1-N equals a
     reference gnulib randint (big-endian bytes, leftover entropy kept),
     and fails with "end of file" exactly when the bytes run out. */
#include "fuzz.h"
#include "fairshuf.h"
#include "shuf/shuf.h"

#include <sodium.h>
#include <string.h>

FZ_NO_LEAK_CHECK

static void words(fsh_rng *rng, uint64_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        FZ_CHECK(fsh_rng_u64(rng, &w[i]) == FSH_OK);
}

static void check_library(const uint8_t *data, size_t size)
{
    uint8_t key[32];
    crypto_hash_sha256_state st;
    crypto_hash_sha256_init(&st);
    crypto_hash_sha256_update(&st, (const unsigned char *)"fairshuf/seed/v1", 16);
    crypto_hash_sha256_update(&st, (const unsigned char *)"", 1);
    crypto_hash_sha256_update(&st, data, size);
    crypto_hash_sha256_final(&st, key);

    fsh_rng *a, *b;
    FZ_CHECK(fsh_rng_new(&a) == FSH_OK && fsh_rng_new(&b) == FSH_OK);
    uint64_t wa[8], wb[8];
    FZ_CHECK(fsh_rng_seed(a, data, size) == FSH_OK);
    FZ_CHECK(fsh_rng_entropy_bits(a) == (size >= 32 ? 256u : 8u * (unsigned)size));
    FZ_CHECK(fsh_rng_key_chacha(b, 20, key, 0, 0) == FSH_OK);
    words(a, wa, 8);
    words(b, wb, 8);
    FZ_CHECK(memcmp(wa, wb, sizeof wa) == 0);
    static const struct { fsh_gen gen; int rounds; } ch[] = {
        {FSH_GEN_CHACHA20, 20}, {FSH_GEN_CHACHA12, 12}, {FSH_GEN_CHACHA8, 8}};
    for (size_t i = 0; i < 3; i++) {
        FZ_CHECK(fsh_rng_seed_gen(a, ch[i].gen, data, size) == FSH_OK);
        FZ_CHECK(fsh_rng_key_chacha(b, ch[i].rounds, key, 0, 0) == FSH_OK);
        words(a, wa, 8);
        words(b, wb, 8);
        FZ_CHECK(memcmp(wa, wb, sizeof wa) == 0);
    }
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--)
        x = x << 8 | key[i];
    FZ_CHECK(fsh_rng_seed_gen(a, FSH_GEN_XOSHIRO256PP, data, size) == FSH_OK);
    FZ_CHECK(fsh_rng_key_xoshiro(b, x) == FSH_OK);
    words(a, wa, 8);
    words(b, wb, 8);
    FZ_CHECK(memcmp(wa, wb, sizeof wa) == 0);
    fsh_rng_free(a);
    fsh_rng_free(b);
}

static void check_cli_seed(const uint8_t *data, size_t size)
{
    if (size > 200 || memchr(data, '\0', size) != NULL)
        return;
    char seed[210], range[16];
    memcpy(seed, "--seed=", 7);
    memcpy(seed + 7, data, size);
    seed[7 + size] = '\0';
    uint32_t n = 1 + (size > 0 ? data[0] % 30 : 0);
    snprintf(range, sizeof range, "1-%u", n);
    char *argv[] = {"fairshuf", seed, "-i", range, NULL};
    const fz_run *r = fz_cli(cmd_shuf, 4, argv, "", 0);
    FZ_CHECK(r->status == 0);
    fsh_rng *rng;
    uint32_t v[30];
    FZ_CHECK(fsh_rng_new(&rng) == FSH_OK);
    FZ_CHECK(fsh_rng_seed(rng, data, size) == FSH_OK);
    FZ_CHECK(fsh_rng_set_simulation(rng, 1) == FSH_OK);
    for (uint32_t i = 0; i < n; i++)
        v[i] = i;
    FZ_CHECK(fsh_shuffle_u32(rng, v, n) == FSH_OK);
    fsh_rng_free(rng);
    char want[400];
    size_t at = 0;
    for (uint32_t i = 0; i < n; i++)
        at += (size_t)snprintf(want + at, sizeof want - at, "%u\n", v[i] + 1);
    FZ_CHECK(r->out_len == at && memcmp(r->out, want, at) == 0);
}

/* gnulib randint_choose over src[0..len): -1 when the bytes run out. */
typedef struct gsrc {
    const uint8_t *p;
    size_t len, pos;
    uint64_t num, max;
} gsrc;

static int ref_choose(gsrc *g, uint64_t n, uint64_t *out)
{
    uint64_t genmax = n - 1;
    for (;;) {
        if (g->max < genmax) {
            uint64_t rmax = g->max;
            size_t k = 0;
            do {
                rmax = (rmax << 8) + 255;
                k++;
            } while (rmax < genmax);
            if (g->len - g->pos < k)
                return -1;
            for (size_t i = 0; i < k; i++)
                g->num = (g->num << 8) + g->p[g->pos++];
            g->max = rmax;
        }
        if (g->max == genmax) {
            *out = g->num;
            g->num = g->max = 0;
            return 0;
        }
        uint64_t excess = g->max - genmax, unusable = excess % n;
        if (g->num <= g->max - unusable) {
            *out = g->num % n;
            g->num /= n;
            g->max = excess / n;
            return 0;
        }
        g->num %= n;
        g->max = unusable - 1;
    }
}

static void check_random_source(const uint8_t *data, size_t size)
{
    if (size == 0 || size > 4096)
        return;
    uint32_t n = 1 + data[0] % 40;
    char range[16];
    snprintf(range, sizeof range, "1-%u", n);
    fz_put_file("src", data + 1, size - 1);
    char *argv[] = {"fairshuf", "--random-source=src", "-i", range, NULL};
    const fz_run *r = fz_cli(cmd_shuf, 4, argv, "", 0);
    gsrc g = {data + 1, size - 1, 0, 0, 0};
    uint64_t v[40];
    int ok = 1;
    for (uint32_t i = 0; i < n; i++)
        v[i] = i + 1;
    for (uint32_t i = 0; i < n && ok; i++) {
        uint64_t j;
        ok = ref_choose(&g, n - i, &j) == 0;
        if (ok) {
            uint64_t t = v[i];
            v[i] = v[i + j];
            v[i + j] = t;
        }
    }
    FZ_CHECK(r->status == (ok ? 0 : 1));
    if (!ok) {
        FZ_CHECK(strstr(r->err, "end of file") != NULL);
        return;
    }
    char want[400];
    size_t at = 0;
    for (uint32_t i = 0; i < n; i++)
        at += (size_t)snprintf(want + at, sizeof want - at, "%llu\n",
                               (unsigned long long)v[i]);
    FZ_CHECK(r->out_len == at && memcmp(r->out, want, at) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    check_library(data, size);
    check_cli_seed(data, size);
    check_random_source(data, size);
    return 0;
}
