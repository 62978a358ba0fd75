/* SPDX-License-Identifier: MIT */
/* ChaCha block functions: the portable reference, the x86 SIMD kernels
   (chacha_x86.c) and the one dispatch between them. */
#ifndef FSH_CHACHA_H
#define FSH_CHACHA_H

#include "common/common.h"

/* One ChaCha block (64 bytes) for key/counter/stream; portable reference. */
FSH_HIDDEN void fsh_chacha_block(const uint32_t key[8], uint64_t counter,
                                 uint64_t stream, int rounds,
                                 uint8_t out[64]);

/* nblocks consecutive ChaCha blocks (counters counter, counter + 1, ...
   mod 2^64) as little-endian words, out[8 * nblocks]; runs the fastest
   kernel this CPU supports (see fsh_chacha_impl_pick). */
FSH_HIDDEN void fsh_chacha_blocks(const uint32_t key[8], uint64_t counter,
                                  uint64_t stream, int rounds, uint64_t *out,
                                  size_t nblocks);

/*
 * ChaCha kernels. Each one has the signature of fsh_chacha_blocks and gives
 * byte-identical output; portable is the reference. The SIMD kernels keep
 * one block per vector lane (8 blocks per AVX2 pass, 16 per AVX-512 pass)
 * and transpose at the end; they exist only on x86 with GCC or clang
 * (FSH_CHACHA_X86: x86-64) and may only run where fsh_chacha_impl_available says so.
 */
enum fsh_chacha_impl {
    FSH_CHACHA_PORTABLE = 0,
    FSH_CHACHA_AVX2 = 1,
    FSH_CHACHA_AVX512 = 2,
    FSH_CHACHA_NIMPL = 3
};

typedef void fsh_chacha_fn(const uint32_t key[8], uint64_t counter,
                           uint64_t stream, int rounds, uint64_t *out,
                           size_t nblocks);

#if defined(__x86_64__) && defined(__GNUC__)
#define FSH_CHACHA_X86 1
#else
#define FSH_CHACHA_X86 0
#endif

FSH_HIDDEN fsh_chacha_fn fsh_chacha_blocks_portable;
#if FSH_CHACHA_X86
FSH_HIDDEN fsh_chacha_fn fsh_chacha_blocks_avx2;   /* chacha_x86.c */
FSH_HIDDEN fsh_chacha_fn fsh_chacha_blocks_avx512; /* chacha_x86.c */
#endif

/* 1 if kernel impl is built in and this CPU (and OS) can run it. */
FSH_HIDDEN int fsh_chacha_impl_available(int impl);

/* The kernel for impl, or NULL if it is not available. */
FSH_HIDDEN fsh_chacha_fn *fsh_chacha_impl_fn(int impl);

/* "portable", "avx2", "avx512"; NULL for an unknown impl. */
FSH_HIDDEN const char *fsh_chacha_impl_name(int impl);

/* The kernel to use when FSH_CHACHA_IMPL is request (may be NULL): the named
   one if available, else the best available (an unknown or unsupported
   name never fails, it only loses the preference). Pure: no state. */
FSH_HIDDEN int fsh_chacha_impl_pick(const char *request);

/* The kernel fsh_chacha_blocks runs: fsh_chacha_impl_pick of the
   environment variable FSH_CHACHA_IMPL, decided once per process. */
FSH_HIDDEN int fsh_chacha_impl_active(void);

/* The 8 key words of a 32-byte key (little-endian). */
static inline void fsh_chacha_key(uint32_t key[8], const uint8_t bytes[32])
{
    for (int i = 0; i < 8; i++)
        key[i] = (uint32_t)bytes[4 * i] | (uint32_t)bytes[4 * i + 1] << 8 |
                 (uint32_t)bytes[4 * i + 2] << 16 |
                 (uint32_t)bytes[4 * i + 3] << 24;
}

#endif /* FSH_CHACHA_H */
