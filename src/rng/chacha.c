/* SPDX-License-Identifier: MIT */
/* ChaCha8/12/20 blocks: the portable reference kernel and the one dispatch
   to the fastest kernel this CPU runs (chacha_x86.c has the SIMD ones). */
#include "rng/chacha.h"

#include <pthread.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>


static inline uint32_t rotl32(uint32_t x, int r)
{
    return (x << r) | (x >> (32 - r));
}

#define QR(a, b, c, d)                                                         \
    do {                                                                       \
        a += b; d ^= a; d = rotl32(d, 16);                                     \
        c += d; b ^= c; b = rotl32(b, 12);                                     \
        a += b; d ^= a; d = rotl32(d, 8);                                      \
        c += d; b ^= c; b = rotl32(b, 7);                                      \
    } while (0)

static void chacha_core(const uint32_t key[8], uint64_t counter,
                        uint64_t stream, int rounds, uint32_t out[16])
{
    uint32_t in[16] = {
        0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u, /* "expand 32-byte k" */
        key[0], key[1], key[2], key[3], key[4], key[5], key[6], key[7],
        (uint32_t)counter, (uint32_t)(counter >> 32),
        (uint32_t)stream, (uint32_t)(stream >> 32)};
    uint32_t x[16];
    memcpy(x, in, sizeof x);
    for (int r = 0; r < rounds; r += 2) {
        QR(x[0], x[4], x[8], x[12]);
        QR(x[1], x[5], x[9], x[13]);
        QR(x[2], x[6], x[10], x[14]);
        QR(x[3], x[7], x[11], x[15]);
        QR(x[0], x[5], x[10], x[15]);
        QR(x[1], x[6], x[11], x[12]);
        QR(x[2], x[7], x[8], x[13]);
        QR(x[3], x[4], x[9], x[14]);
    }
    for (int i = 0; i < 16; i++)
        out[i] = x[i] + in[i];
}

void fsh_chacha_block(const uint32_t key[8], uint64_t counter, uint64_t stream,
                      int rounds, uint8_t out[64])
{
    uint32_t w[16];
    chacha_core(key, counter, stream, rounds, w);
    for (int i = 0; i < 16; i++) {
        out[4 * i + 0] = (uint8_t)w[i];
        out[4 * i + 1] = (uint8_t)(w[i] >> 8);
        out[4 * i + 2] = (uint8_t)(w[i] >> 16);
        out[4 * i + 3] = (uint8_t)(w[i] >> 24);
    }
    sodium_memzero(w, sizeof w);
}

void fsh_chacha_blocks_portable(const uint32_t key[8], uint64_t counter,
                                uint64_t stream, int rounds, uint64_t *out,
                                size_t nblocks)
{
    uint32_t w[16];
    for (size_t b = 0; b < nblocks; b++) {
        chacha_core(key, counter + b, stream, rounds, w);
        /* Word k of the stream is keystream bytes 8k..8k+7, little-endian. */
        for (int i = 0; i < 8; i++)
            out[8 * b + (size_t)i] =
                (uint64_t)w[2 * i] | (uint64_t)w[2 * i + 1] << 32;
    }
    sodium_memzero(w, sizeof w);
}

/* Kernel dispatch. The only shared state is the choice itself, written once
   under pthread_once before any reader sees it; it depends only on the CPU
   and on FSH_CHACHA_IMPL, so every rng in the process agrees. */

static const char *const chacha_impl_names[FSH_CHACHA_NIMPL] = {
    "portable", "avx2", "avx512"};

int fsh_chacha_impl_available(int impl)
{
    switch (impl) {
    case FSH_CHACHA_PORTABLE:
        return 1;
#if FSH_CHACHA_X86
    /* libgcc/compiler-rt also check that the OS saves the ymm/zmm state
       (XGETBV) before reporting these. */
    case FSH_CHACHA_AVX2:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") != 0;
    case FSH_CHACHA_AVX512:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") != 0;
#endif
    default:
        return 0;
    }
}

fsh_chacha_fn *fsh_chacha_impl_fn(int impl)
{
    if (!fsh_chacha_impl_available(impl))
        return NULL;
    switch (impl) {
#if FSH_CHACHA_X86
    case FSH_CHACHA_AVX2:
        return fsh_chacha_blocks_avx2;
    case FSH_CHACHA_AVX512:
        return fsh_chacha_blocks_avx512;
#endif
    default:
        return fsh_chacha_blocks_portable;
    }
}

const char *fsh_chacha_impl_name(int impl)
{
    return impl >= 0 && impl < FSH_CHACHA_NIMPL ? chacha_impl_names[impl]
                                                : NULL;
}

int fsh_chacha_impl_pick(const char *request)
{
    if (request != NULL)
        for (int i = 0; i < FSH_CHACHA_NIMPL; i++)
            if (strcmp(request, chacha_impl_names[i]) == 0 &&
                fsh_chacha_impl_available(i))
                return i;
    for (int i = FSH_CHACHA_NIMPL - 1; i > 0; i--)
        if (fsh_chacha_impl_available(i))
            return i;
    return FSH_CHACHA_PORTABLE;
}

static pthread_once_t chacha_once = PTHREAD_ONCE_INIT;
static int chacha_active;
static fsh_chacha_fn *chacha_active_fn;

static void chacha_choose(void)
{
    chacha_active = fsh_chacha_impl_pick(getenv("FSH_CHACHA_IMPL"));
    chacha_active_fn = fsh_chacha_impl_fn(chacha_active);
}

int fsh_chacha_impl_active(void)
{
    (void)pthread_once(&chacha_once, chacha_choose);
    return chacha_active;
}

void fsh_chacha_blocks(const uint32_t key[8], uint64_t counter,
                       uint64_t stream, int rounds, uint64_t *out,
                       size_t nblocks)
{
    (void)pthread_once(&chacha_once, chacha_choose);
    chacha_active_fn(key, counter, stream, rounds, out, nblocks);
}

