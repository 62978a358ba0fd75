/* SPDX-License-Identifier: MIT */
/* C interface to the C++ peer (peer_std.cpp): libstdc++ std::shuffle driven
   by std::mt19937_64, built by bench/Makefile with g++ -O2 -std=c++17. */
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

#ifdef __cplusplus
}
#endif

#endif
