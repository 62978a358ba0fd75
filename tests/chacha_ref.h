/* SPDX-License-Identifier: MIT */
/* The reference ChaCha words for the tests (test_chacha_simd,
   test_default_gen): nblocks blocks of ChaCha(rounds, key, stream) from
   block counter on, made by the one-block byte function fsh_chacha_block,
   as the rng's little-endian 64-bit words (8 per block). */
#ifndef FSH_TESTS_CHACHA_REF_H
#define FSH_TESTS_CHACHA_REF_H

#include "rng/chacha.h"

#include <stddef.h>
#include <stdint.h>

static void ref_blocks(const uint32_t key[8], uint64_t counter,
                       uint64_t stream, int rounds, uint64_t *out,
                       size_t nblocks)
{
    uint8_t b[64];
    for (size_t i = 0; i < nblocks; i++) {
        fsh_chacha_block(key, counter + i, stream, rounds, b);
        for (size_t k = 0; k < 8; k++) {
            uint64_t w = 0;
            for (int j = 7; j >= 0; j--)
                w = w << 8 | b[8 * k + (size_t)j];
            out[8 * i + k] = w;
        }
    }
}

#endif
