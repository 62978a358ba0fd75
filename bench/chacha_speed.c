/* SPDX-License-Identifier: MIT */
/*
 * ChaCha keystream speed per kernel (portable, AVX2, AVX-512) and round count.
 * Not a test and not part of `make bench`; build and run by hand:
 *
 *   make
 *   mkdir -p bench/bin
 *   cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc bench/chacha_speed.c \
 *      libfairshuf.a -lsodium -lm -lpthread -o bench/bin/chacha_speed
 *   bench/bin/chacha_speed [blocks_per_call [repeats]]
 *
 * Defaults: FSH_BUF_WORDS / 8 blocks per call (one rng refill: 32) and 7
 * repeats, into one buffer that stays in L1, after a warm-up. Each repeat
 * keeps its fastest of 400 bursts of about 16 KiB (so preemption by other
 * processes on a shared machine drops out); each figure is the median of
 * the repeats. Columns:
 * GB/s of keystream, ns per 64-bit word, and cycles per byte at the core
 * clock measured with a 1-cycle-per-iteration dependent loop (an estimate;
 * turbo and a shared machine make every figure noisy, so compare medians).
 * The last section reads words through the rng buffer (fsh_next_word), with
 * the kernel fsh_chacha_blocks picked; set FSH_CHACHA_IMPL to choose it.
 */
#include "rng/chacha.h"
#include "rng/rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "timing.h"

/* Core clock in GHz: a dec/jnz loop carries a 1-cycle dependency. Like the
   kernels, the fastest of many short bursts, since a long loop on a shared
   (virtual) CPU measures our time slice, not the clock. */
static double clock_ghz(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    double best = 0;
    for (int burst = 0; burst < 300; burst++) {
        uint64_t n = 1000000;
        double t0 = bench_ns(CLOCK_MONOTONIC);
        __asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n));
        double ghz = 1e6 / (bench_ns(CLOCK_MONOTONIC) - t0);
        if (ghz > best)
            best = ghz;
    }
    return best;
#else
    return 0;
#endif
}

static volatile uint64_t sink;

/* ns per 64-bit word for kernel fn: each repeat runs 400 bursts of about
   16 KiB of keystream and keeps the fastest burst (robust to preemption on
   a shared machine); the result is the median over repeats. */
static double time_kernel(fsh_chacha_fn *fn, int rounds, size_t nblocks,
                          int reps)
{
    static uint64_t buf[8 * 1024];
    uint32_t key[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    uint64_t counter = 0;
    double v[64];
    size_t calls = (256 + nblocks - 1) / nblocks;
    for (int i = 0; i < 2000; i++, counter += nblocks)
        fn(key, counter, 7, rounds, buf, nblocks); /* warm-up */
    for (int r = 0; r < reps; r++) {
        double best = 1e30;
        for (int burst = 0; burst < 400; burst++) {
            double t0 = bench_ns(CLOCK_MONOTONIC);
            for (size_t i = 0; i < calls; i++, counter += nblocks)
                fn(key, counter, 7, rounds, buf, nblocks);
            double t = bench_ns(CLOCK_MONOTONIC) - t0;
            if (t < best)
                best = t;
        }
        sink ^= buf[counter % (8 * nblocks)];
        v[r] = best / ((double)calls * 8.0 * (double)nblocks);
    }
    return bench_median(v, reps);
}

/* ns per word read one at a time through the rng's buffer, timed like
   time_kernel (bursts of 4096 words, fastest burst, median of repeats). */
static double time_rng(int rounds, int reps)
{
    fsh_rng *rng = NULL;
    uint8_t key[32] = {9};
    double v[64];
    if (fsh_rng_new(&rng) != FSH_OK ||
        fsh_rng_key_chacha(rng, rounds, key, 3, 0) != FSH_OK)
        return 0;
    uint64_t acc = 0;
    for (int i = 0; i < 100000; i++)
        acc += fsh_next_word(rng);
    for (int r = 0; r < reps; r++) {
        double best = 1e30;
        for (int burst = 0; burst < 400; burst++) {
            double t0 = bench_ns(CLOCK_MONOTONIC);
            for (int i = 0; i < 4096; i++)
                acc += fsh_next_word(rng);
            double t = bench_ns(CLOCK_MONOTONIC) - t0;
            if (t < best)
                best = t;
        }
        v[r] = best / 4096;
    }
    sink ^= acc;
    fsh_rng_free(rng);
    return bench_median(v, reps);
}

int main(int argc, char **argv)
{
    size_t nblocks = argc > 1 ? strtoul(argv[1], NULL, 10) : FSH_BUF_WORDS / 8;
    int reps = argc > 2 ? atoi(argv[2]) : 7;
    if (nblocks < 1 || nblocks > 1024 || reps < 1 || reps > 64) {
        fprintf(stderr, "usage: chacha_speed [blocks_per_call 1..1024 "
                        "[repeats 1..64]]\n");
        return 2;
    }
    double ghz = clock_ghz();
    static const int rounds_list[] = {8, 12, 20};
#if defined(__clang__)
    const char *cc = "clang " __clang_version__;
#elif defined(__GNUC__)
    const char *cc = "gcc " __VERSION__;
#else
    const char *cc = "unknown compiler";
#endif
    printf("chacha_speed: %s; kernels built by the library's build flags\n",
           cc);
    printf("clock ~%.2f GHz (estimate), %zu blocks per call, median of %d\n",
           ghz, nblocks, reps);
    printf("%-9s %-8s %8s %8s %8s\n", "kernel", "rounds", "GB/s", "ns/word",
           "cyc/byte");
    for (int impl = 0; impl < FSH_CHACHA_NIMPL; impl++) {
        fsh_chacha_fn *fn = fsh_chacha_impl_fn(impl);
        if (fn == NULL) {
            printf("%-9s (not available on this CPU)\n",
                   fsh_chacha_impl_name(impl));
            continue;
        }
        for (int ri = 0; ri < 3; ri++) {
            double ns = time_kernel(fn, rounds_list[ri], nblocks, reps);
            printf("%-9s ChaCha%-2d %8.2f %8.3f %8.3f\n",
                   fsh_chacha_impl_name(impl), rounds_list[ri], 8.0 / ns, ns,
                   ns * ghz / 8.0);
        }
    }
    printf("through the rng buffer (fsh_next_word), kernel %s:\n",
           fsh_chacha_impl_name(fsh_chacha_impl_active()));
    for (int ri = 0; ri < 3; ri++) {
        double ns = time_rng(rounds_list[ri], reps);
        printf("%-9s ChaCha%-2d %8.2f %8.3f %8.3f\n", "rng", rounds_list[ri],
               8.0 / ns, ns, ns * ghz / 8.0);
    }
    return 0;
}
