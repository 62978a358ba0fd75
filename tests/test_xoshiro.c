/* SPDX-License-Identifier: MIT */
/* xoshiro256++ and SplitMix64 known answers.
 *
 * Expected values are the outputs of the authors' reference code
 * (prng.di.unimi.it: xoshiro256plusplus.c, splitmix64.c) as published in the
 * tests of the rand_xoshiro crate:
 * - xoshiro256++ from state {1, 2, 3, 4}: the first ten outputs;
 * - SplitMix64 seeded with 1477776061723855037: the first 48 outputs.
 * fsh_rng_key_xoshiro(seed) sets the state to four successive SplitMix64
 * outputs, so the state (read white-box through src/rng/rng.h) must equal them,
 * and seeding with seed + 4k * 0x9e3779b97f4a7c15 continues the sequence.
 */
#include "check.h"
#include "rng/rng.h"

static const uint64_t xoshiro_1234[10] = {
    41943041ULL,
    58720359ULL,
    3588806011781223ULL,
    3591011842654386ULL,
    9228616714210784205ULL,
    9973669472204895162ULL,
    14011001112246962877ULL,
    12406186145184390807ULL,
    15849039046786891736ULL,
    10450023813501588000ULL,
};

static const uint64_t splitmix_seed = 1477776061723855037ULL;
static const uint64_t splitmix_out[48] = {
    1985237415132408290ULL,  2979275885539914483ULL,  13511426838097143398ULL,
    8488337342461049707ULL,  15141737807933549159ULL, 17093170987380407015ULL,
    16389528042912955399ULL, 13177319091862933652ULL, 10841969400225389492ULL,
    17094824097954834098ULL, 3336622647361835228ULL,  9678412372263018368ULL,
    11111587619974030187ULL, 7882215801036322410ULL,  5709234165213761869ULL,
    7799681907651786826ULL,  4616320717312661886ULL,  4251077652075509767ULL,
    7836757050122171900ULL,  5054003328188417616ULL,  12919285918354108358ULL,
    16477564761813870717ULL, 5124667218451240549ULL,  18099554314556827626ULL,
    7603784838804469118ULL,  6358551455431362471ULL,  3037176434532249502ULL,
    3217550417701719149ULL,  9958699920490216947ULL,  5965803675992506258ULL,
    12000828378049868312ULL, 12720568162811471118ULL, 245696019213873792ULL,
    8351371993958923852ULL,  14378754021282935786ULL, 5655432093647472106ULL,
    5508031680350692005ULL,  8515198786865082103ULL,  6287793597487164412ULL,
    14963046237722101617ULL, 3630795823534910476ULL,  8422285279403485710ULL,
    10554287778700714153ULL, 10871906555720704584ULL, 8659066966120258468ULL,
    9420238805069527062ULL,  10338115333623340156ULL, 13514802760105037173ULL,
};

/* An independent xoshiro256++ step, written from the paper, to follow the
   stream past the published outputs (across buffer refills). */
static uint64_t ref_next(uint64_t s[4])
{
    uint64_t sum = s[0] + s[3];
    uint64_t r = ((sum << 23) | (sum >> 41)) + s[0];
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return r;
}

int main(void)
{
    fsh_rng *rng;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);

    /* xoshiro256++ from state {1, 2, 3, 4}. */
    CHECK_EQ(fsh_rng_key_xoshiro(rng, 0), FSH_OK);
    rng->xs[0] = 1, rng->xs[1] = 2, rng->xs[2] = 3, rng->xs[3] = 4;
    rng->pos = FSH_BUF_WORDS; /* drop anything buffered */
    uint64_t ref[4] = {1, 2, 3, 4};
    for (int i = 0; i < 10; i++) {
        uint64_t w;
        CHECK_EQ(fsh_rng_u64(rng, &w), FSH_OK);
        CHECK(w == xoshiro_1234[i]);
        CHECK(ref_next(ref) == xoshiro_1234[i]);
    }
    /* Past the published values, across several refills. */
    int bad = 0;
    for (int i = 10; i < 5 * FSH_BUF_WORDS + 3; i++) {
        uint64_t w;
        bad += fsh_rng_u64(rng, &w) != FSH_OK;
        bad += w != ref_next(ref);
    }
    CHECK_EQ(bad, 0);

    /* SplitMix64 seeding: the state is the SplitMix64 sequence. */
    for (int k = 0; k < 12; k++) {
        uint64_t seed =
            splitmix_seed + (uint64_t)(4u * (unsigned)k) * 0x9e3779b97f4a7c15ULL;
        CHECK_EQ(fsh_rng_key_xoshiro(rng, seed), FSH_OK);
        for (int i = 0; i < 4; i++)
            CHECK(rng->xs[i] == splitmix_out[4 * k + i]);
        /* And the words are xoshiro256++ from that state. */
        uint64_t s[4];
        memcpy(s, splitmix_out + 4 * k, sizeof s);
        for (int i = 0; i < 3; i++) {
            uint64_t w;
            CHECK_EQ(fsh_rng_u64(rng, &w), FSH_OK);
            CHECK(w == ref_next(s));
        }
    }

    /* Simulation grade by construction: 64 bits credited, no size limit. */
    CHECK_EQ(fsh_rng_key_xoshiro(rng, 42), FSH_OK);
    CHECK_EQ(fsh_rng_entropy_bits(rng), 64);
    CHECK(fsh_rng_max_fair_n(rng) == SIZE_MAX);
    CHECK_EQ(fsh_rng_key_xoshiro(NULL, 1), FSH_EINVAL);

    /* The checks above can fail: a neighbouring seed gives other words. */
    CHECK_EQ(fsh_rng_key_xoshiro(rng, splitmix_seed + 1), FSH_OK);
    CHECK(rng->xs[0] != splitmix_out[0]);

    fsh_rng_free(rng);
    return check_done("test_xoshiro");
}
