/* SPDX-License-Identifier: MIT */
/* The in-cache kernel's paths give the permutations they gave before the
 * x86-64 asm loops (src/shuffle/fy.c, issue 13 session 7).
 *
 * For each generator (ChaCha20, ChaCha12, ChaCha8 raw-keyed; xoshiro256++)
 * and each element size that has its own kernel (8 and 4 bytes, which take
 * the asm loops on a BMI2 CPU; 16 and 12 bytes, which keep C), seeded
 * shuffles at the sizes where the loops start and stop (each batch phase's
 * bound, that bound plus three batches, the buffer's edges as the sizes
 * vary) are folded into one FNV-1a checksum, compared with the value the
 * library before the asm loops computed (goldens below, from commit
 * bcb8b6c). The 8-, 4- and 16-byte shuffles of one seed must also be the
 * same permutation. Deterministic, no statistical tolerance: any changed
 * index, swap or word consumption changes a checksum, so a broken loop
 * fails: the known-bad variant tried, the xoshiro loop without its step
 * back after a cheap-test exit, fails three xoshiro checksums. tests/cli/
 * test_kernel_impl.sh also runs it with FSH_FY_IMPL=plain (the C kernels).
 * With --print it prints the checksums instead of checking them.
 */
#include "check.h"
#include <fairshuf.h>
#include <string.h>

static const size_t sizes[] = {
    2,      3,      5,      7,      13,     20,     33,     64,     65,
    66,     70,     75,     80,     100,    200,    511,    512,    513,
    514,    515,    520,    526,    527,    528,    530,    700,    2047,
    2048,   2049,   2050,   2055,   2060,   2061,   2062,   2070,   3000,
    9999,   16383,  16384,  16385,  16386,  16390,  16393,  16394,  16395,
    16400,  20000,  100000, 524288, 524289, 524295, 524296,
};
#define NSIZES (sizeof sizes / sizeof sizes[0])
#define NSEEDS 3 /* seeds per size below 1e5; one above */

static const char *const gen_names[4] = {"chacha20", "chacha12", "chacha8",
                                         "xoshiro256pp"};
static const char *const type_names[4] = {"u64", "u32", "16B", "12B"};

/* Goldens: [generator][type], from the library before the asm loops. */
static const uint64_t golden[4][4] = {
    {0x9b2eee171d75926fu, 0xa0638578835dbb91u,
     0xcfbc1d87ad90220fu, 0xc1253095c72849a1u},
    {0x354d1601fba72e8fu, 0xab347d84b565aeadu,
     0xf18f4212c4f78c8fu, 0x488e4ab3813df525u},
    {0x2805363e463bd04fu, 0x9ebc3370d93a4719u,
     0x8ac4b5690ad4f68fu, 0xa082405de38db58du},
    {0xbca518f56caf291fu, 0x83d8032dcf235fc5u,
     0xadb0bb272b4e51cfu, 0x4747161a7c5c9ac9u},
};

/* FNV-1a over 32-bit words (every element size here is a multiple of 4). */
static uint64_t fnv(uint64_t h, const void *p, size_t len)
{
    const unsigned char *b = p;
    for (size_t i = 0; i + 4 <= len; i += 4) {
        uint32_t w;
        memcpy(&w, b + i, 4);
        h = (h ^ w) * 1099511628211u;
    }
    return h;
}

static int key(fsh_rng *r, unsigned g, uint64_t seed)
{
    if (g == 3)
        return fsh_rng_key_xoshiro(r, seed * 7919u + 3u);
    uint8_t k[32];
    memset(k, 0, sizeof k);
    k[0] = (uint8_t)seed;
    k[1] = (uint8_t)g;
    k[31] = 0x5a;
    return fsh_rng_key_chacha(r, g == 0 ? 20 : g == 1 ? 12 : 8, k, seed, 0);
}

int main(int argc, char **argv)
{
    int print = argc > 1 && strcmp(argv[1], "--print") == 0;
    size_t max = sizes[NSIZES - 1];
    uint64_t *a64 = malloc(max * sizeof *a64);
    uint32_t *a32 = malloc(max * sizeof *a32);
    uint64_t *a16 = malloc(max * 16);
    unsigned char *a12 = malloc(max * 12);
    fsh_rng *r = NULL;
    CHECK(a64 != NULL && a32 != NULL && a16 != NULL && a12 != NULL);
    CHECK(fsh_rng_new(&r) == FSH_OK);
    if (r == NULL || a64 == NULL || a32 == NULL || a16 == NULL || a12 == NULL)
        return check_done("test_kernel_paths");
    /* Raw keys of 256 bits cannot reach n! orders beyond n = 57. */
    CHECK(fsh_rng_set_simulation(r, 1) == FSH_OK);
    for (unsigned g = 0; g < 4; g++) {
        uint64_t h[4] = {1469598103934665603u, 1469598103934665603u,
                         1469598103934665603u, 1469598103934665603u};
        int same = 1, ok = 1;
        for (size_t q = 0; q < NSIZES; q++)
            for (uint64_t s = 0; s < (sizes[q] < 100000 ? NSEEDS : 1); s++) {
                size_t n = sizes[q];
                check_seed = s;
                for (size_t i = 0; i < n; i++) {
                    a64[i] = i;
                    a32[i] = (uint32_t)i;
                    a16[2 * i] = i;
                    a16[2 * i + 1] = ~(uint64_t)i;
                    uint32_t v[3] = {(uint32_t)i, (uint32_t)~i, 12};
                    memcpy(a12 + 12 * i, v, 12);
                }
                ok &= key(r, g, s) == FSH_OK &&
                      fsh_shuffle_u64(r, a64, n) == FSH_OK;
                ok &= key(r, g, s) == FSH_OK &&
                      fsh_shuffle_u32(r, a32, n) == FSH_OK;
                ok &= key(r, g, s) == FSH_OK &&
                      fsh_shuffle(r, a16, n, 16) == FSH_OK;
                ok &= key(r, g, s) == FSH_OK &&
                      fsh_shuffle(r, a12, n, 12) == FSH_OK;
                h[0] = fnv(h[0], a64, n * 8);
                h[1] = fnv(h[1], a32, n * 4);
                h[2] = fnv(h[2], a16, n * 16);
                h[3] = fnv(h[3], a12, n * 12);
                for (size_t i = 0; i < n; i++)
                    same &= a32[i] == a64[i] && a16[2 * i] == a64[i];
            }
        CHECK(ok);
        CHECK(same);
        for (unsigned t = 0; t < 4; t++) {
            if (print)
                printf("%s %s 0x%016llxu\n", gen_names[g], type_names[t],
                       (unsigned long long)h[t]);
            else if (h[t] != golden[g][t]) {
                fprintf(stderr, "%s %s: checksum 0x%016llx, expected 0x%016llx\n",
                        gen_names[g], type_names[t], (unsigned long long)h[t],
                        (unsigned long long)golden[g][t]);
                CHECK(h[t] == golden[g][t]);
            } else {
                CHECK(1);
            }
        }
    }
    fsh_rng_free(r);
    free(a64), free(a32), free(a16), free(a12);
    return check_done("test_kernel_paths");
}
