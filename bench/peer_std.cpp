// SPDX-License-Identifier: MIT
// The C++ peer: libstdc++'s std::shuffle with std::mt19937_64, unmodified.
// libstdc++ (GCC >= 10) runs forward Fisher-Yates and, while (i+1)*(i+2)
// fits in 64 bits, draws two indices from one engine word: one Lemire
// nearly-divisionless draw in [0, (i+1)(i+2)), split by a division and a
// modulo. Exact, and a strong, well-tuned baseline, not a strawman.
#include "peer.h"

#include <algorithm>
#include <cstdint>
#include <new>
#include <random>

struct peer_std {
    std::mt19937_64 engine;
};

namespace {

// Forwards to the engine and counts the words it hands out.
struct counting_engine {
    using result_type = std::mt19937_64::result_type;
    std::mt19937_64 *engine;
    std::uint64_t words;
    static constexpr result_type min() { return std::mt19937_64::min(); }
    static constexpr result_type max() { return std::mt19937_64::max(); }
    result_type operator()()
    {
        ++words;
        return (*engine)();
    }
};

} // namespace

#define PEER_STR2(x) #x
#define PEER_STR(x) PEER_STR2(x)

extern "C" {

peer_std *peer_std_new(uint64_t seed)
{
    return new (std::nothrow) peer_std{std::mt19937_64(seed)};
}

void peer_std_free(peer_std *p)
{
    delete p;
}

void peer_std_shuffle(peer_std *p, uint64_t *a, size_t n)
{
    std::shuffle(a, a + n, p->engine);
}

uint64_t peer_std_shuffle_count_words(peer_std *p, uint64_t *a, size_t n)
{
    counting_engine c{&p->engine, 0};
    std::shuffle(a, a + n, c);
    return c.words;
}

const char *peer_std_compiler(void)
{
#if defined(__GLIBCXX__)
    return "g++ " __VERSION__ ", libstdc++ " PEER_STR(__GLIBCXX__);
#else
    return "c++ " __VERSION__;
#endif
}

} // extern "C"
