/* SPDX-License-Identifier: MIT */
/* C interface to the peers: the C++ one (peer_std.cpp, libstdc++
   std::shuffle driven by std::mt19937_64, built by bench/Makefile with
   g++ -O2 -std=c++17) and the batched-index one (peer_batched.c). */
#ifndef FSH_BENCH_PEER_H
#define FSH_BENCH_PEER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct peer_std peer_std;

/* A std::mt19937_64 seeded with seed; NULL on allocation failure. */
peer_std *peer_std_new(uint64_t seed);
void peer_std_free(peer_std *p);

/* std::shuffle(a, a + n, engine): the timed call. */
void peer_std_shuffle(peer_std *p, uint64_t *a, size_t n);

/* The same shuffle through a counting wrapper of the engine (untimed):
   returns the engine words it drew, 64 bits each. */
uint64_t peer_std_shuffle_count_words(peer_std *p, uint64_t *a, size_t n);

/* "g++ <version>, libstdc++ <date>" for the machine report. */
const char *peer_std_compiler(void);

/* The batched-index peer (peer_batched.c): Brackett-Rozinsky & Lemire's
   batched dice with lehmer64, written for this bench from their paper. The
   same source is built twice, by $(CC) (peer_batched_*) and by clang
   (peer_batched_clang_*), both with the bench's flags. */
typedef struct peer_batched {
    uint64_t state[2]; /* lehmer64's 128-bit state, low word first */
    uint64_t words;    /* words drawn (for bits per element) */
} peer_batched;

void peer_batched_seed(peer_batched *p, uint64_t seed);
void peer_batched_shuffle(peer_batched *p, uint64_t *a, size_t n);
const char *peer_batched_compiler(void);
void peer_batched_clang_seed(peer_batched *p, uint64_t seed);
void peer_batched_clang_shuffle(peer_batched *p, uint64_t *a, size_t n);
const char *peer_batched_clang_compiler(void);

#ifdef __cplusplus
}
#endif

#endif
