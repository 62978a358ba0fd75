/* SPDX-License-Identifier: MIT */
/* Exactness of the bounded-integer kernel (Lemire's method), proven by
 * exhausting every word value.
 *
 * FSH_DEFINE_LEMIRE (src/uniform/uniform.h) is the very code the library runs at 64
 * bits. Instantiated at W = 8 and W = 16 bits with a scripted word source, we
 * feed it every possible first word x for a bound s and record whether x is
 * accepted (one word consumed) and its output. Exactness means:
 * - x is accepted iff (x * s mod 2^W) >= 2^W mod s (the documented rule);
 * - every output j in [0, s) has exactly floor(2^W / s) accepted words,
 *   i.e. (2^W - 2^W mod s) / s;
 * - a rejected word leads to a redraw (a second, and third, word is read).
 * Since each draw starts afresh, equal counts per output make the output
 * exactly uniform given uniform words. Known-bad kernels (modulo, float
 * multiply, no rejection, off-by-one threshold) run through the same check
 * and must be caught.
 */
#include "check.h"
#include "uniform/uniform.h"

#include <string.h>

/* ------------------------------------------------------------------------ */
/* Scripted word sources                                                    */

struct script8 {
    uint8_t w[4];
    unsigned pos;
};
struct script16 {
    uint16_t w[4];
    unsigned pos;
};

static uint8_t next8(struct script8 *s)
{
    /* Past the script: every byte value in turn, so even a broken kernel
       that rejects too much stops. */
    uint8_t w = s->pos < 4 ? s->w[s->pos] : (uint8_t)(s->pos * 167u);
    s->pos++;
    return w;
}
static uint16_t next16(struct script16 *s)
{
    uint16_t w = s->pos < 4 ? s->w[s->pos] : (uint16_t)(s->pos * 40503u);
    s->pos++;
    return w;
}

FSH_DEFINE_LEMIRE(lemire8, uint8_t, uint16_t, 8, struct script8 *, next8)
FSH_DEFINE_LEMIRE(lemire16, uint16_t, uint32_t, 16, struct script16 *, next16)

/* Known-bad 8-bit kernels, kept to show the check catches bias. */
static uint8_t bad_modulo8(struct script8 *st, uint8_t s)
{
    return (uint8_t)(next8(st) % s);
}
static uint8_t bad_float8(struct script8 *st, uint8_t s)
{
    return (uint8_t)((double)next8(st) / 256.0 * s);
}
static uint8_t bad_norejection8(struct script8 *st, uint8_t s)
{
    return (uint8_t)(((unsigned)next8(st) * s) >> 8);
}
static uint8_t bad_threshold8(struct script8 *st, uint8_t s)
{
    /* Rejects one word too many: l <= t instead of l < t. */
    unsigned t = 256u % s, m = (unsigned)next8(st) * s;
    while ((m & 255u) <= t && t > 0)
        m = (unsigned)next8(st) * s;
    return (uint8_t)(m >> 8);
}

typedef uint8_t (*kernel8)(struct script8 *, uint8_t);

/*
 * Run kernel k for bound s on every first word; return 1 if every output has
 * exactly floor(256 / s) accepted words and the accepted set follows the
 * rule (when check_rule), else 0. Redraws use words that the rule accepts.
 */
static int exact8(kernel8 k, unsigned s, int check_rule)
{
    unsigned count[256] = {0}, accepted = 0, rule_ok = 1, redraw_ok = 1;
    unsigned t = 256u % s;
    for (unsigned x = 0; x < 256; x++) {
        /* Word 255 is accepted for every s: 255 * s mod 256 = 256 - s >= t. */
        struct script8 sc = {{(uint8_t)x, 255, 255, 255}, 0};
        unsigned out = k(&sc, (uint8_t)s);
        int acc = sc.pos == 1;
        int rule = ((x * s) & 255u) >= t;
        if (acc != rule)
            rule_ok = 0;
        if (acc) {
            accepted++;
            if (out < s)
                count[out]++;
            else
                return 0;
        } else if (sc.pos != 2 || out != s - 1) {
            redraw_ok = 0; /* the redraw word 255 must give s - 1 */
        }
    }
    for (unsigned j = 0; j < s; j++)
        if (count[j] != 256u / s)
            return 0;
    return accepted == 256u - t && (!check_rule || (rule_ok && redraw_ok));
}

static void test_exhaustive8(void)
{
    unsigned bad = 0;
    for (unsigned s = 1; s < 256; s++) {
        if (!exact8(lemire8, s, 1) && ++bad <= 5)
            fprintf(stderr, "  lemire8 not exact for bound %u\n", s);
    }
    CHECK_EQ(bad, 0);

    /* Two rejected words in a row: the loop keeps drawing. For s = 255,
       t = 1 and only x = 0 is rejected; for s = 129, t = 127. */
    for (unsigned s = 3; s < 256; s += 2) {
        unsigned t = 256u % s, rej[2], nrej = 0;
        for (unsigned x = 0; x < 256 && nrej < 2; x++)
            if (((x * s) & 255u) < t)
                rej[nrej++] = x;
        if (nrej < 2)
            continue;
        struct script8 sc = {{(uint8_t)rej[0], (uint8_t)rej[1], 255, 7}, 0};
        unsigned out = lemire8(&sc, (uint8_t)s);
        CHECK(sc.pos == 3 && out == s - 1);
    }

    /* The known-bad kernels fail the same check for every bound that is
       not a power of two (where 2^8 mod s = 0 and no rejection is needed). */
    static const struct {
        const char *name;
        kernel8 k;
    } bads[] = {{"modulo", bad_modulo8},
                {"float multiply", bad_float8},
                {"multiply without rejection", bad_norejection8},
                {"threshold off by one", bad_threshold8}};
    for (size_t b = 0; b < sizeof bads / sizeof bads[0]; b++) {
        unsigned caught = 0, nonpow2 = 0;
        for (unsigned s = 1; s < 256; s++) {
            int pow2 = (s & (s - 1)) == 0;
            nonpow2 += !pow2;
            caught += !pow2 && !exact8(bads[b].k, s, 0);
        }
        printf("  known-bad kernel '%s': biased for %u of %u bounds that "
               "are not powers of two\n", bads[b].name, caught, nonpow2);
        CHECK_EQ(caught, nonpow2);
    }
}

/* 16 bits: the same check over all 65536 first words for a sample of
   bounds. */
static int exact16(unsigned s)
{
    static unsigned count[65536];
    unsigned t = 65536u % s, accepted = 0;
    memset(count, 0, sizeof(unsigned) * s);
    for (unsigned x = 0; x < 65536; x++) {
        struct script16 sc = {{(uint16_t)x, 65535, 65535, 65535}, 0};
        unsigned out = lemire16(&sc, (uint16_t)s);
        int acc = sc.pos == 1;
        if (acc != (((x * s) & 65535u) >= t))
            return 0;
        if (acc) {
            if (out >= s)
                return 0;
            count[out]++;
            accepted++;
        } else if (sc.pos != 2 || out != s - 1) {
            return 0;
        }
    }
    for (unsigned j = 0; j < s; j++)
        if (count[j] != 65536u / s)
            return 0;
    return accepted == 65536u - t;
}

static void test_exhaustive16(void)
{
    unsigned bounds[600], nb = 0;
    for (unsigned s = 1; s <= 300; s++)
        bounds[nb++] = s;
    for (unsigned k = 9; k <= 16; k++) {
        unsigned p = 1u << k;
        bounds[nb++] = p - 1;
        if (p + 1 < 65536)
            bounds[nb++] = p + 1;
        if (p < 65536)
            bounds[nb++] = p;
    }
    /* Random bounds from a fixed seed, and the extremes. */
    fsh_rng *rng;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    CHECK_EQ(fsh_rng_key_xoshiro(rng, 16), FSH_OK);
    int nrandom = getenv("FSH_SANITIZE") ? 20 : 100;
    for (int i = 0; i < nrandom; i++) {
        uint64_t r;
        CHECK_EQ(fsh_uniform(rng, &r, 65535), FSH_OK);
        bounds[nb++] = (unsigned)r + 1;
    }
    bounds[nb++] = 65535;
    bounds[nb++] = 32769;
    bounds[nb++] = 21845; /* 65536 mod 21845 = 1 */
    bounds[nb++] = 43691; /* 65536 mod 43691 = 21845: a third rejected */
    fsh_rng_free(rng);

    unsigned bad = 0;
    for (unsigned i = 0; i < nb; i++) {
        if (!exact16(bounds[i]) && ++bad <= 5)
            fprintf(stderr, "  lemire16 not exact for bound %u\n", bounds[i]);
    }
    printf("  16-bit: %u bounds checked over all 65536 words\n", nb);
    CHECK_EQ(bad, 0);
}

/* ------------------------------------------------------------------------ */
/* 64-bit boundaries: words built to sit just either side of the threshold. */

struct words {
    const uint64_t *w;
    size_t n, pos;
};
static uint64_t words_next(void *ctx)
{
    struct words *s = ctx;
    if (s->pos < s->n)
        return s->w[s->pos++];
    /* Past the script: a Weyl sequence, so no kernel can loop forever. */
    return 0x9e3779b97f4a7c15ULL * (uint64_t)++s->pos;
}

/* Inverse of odd a modulo 2^64 (Newton's iteration). */
static uint64_t inv64(uint64_t a)
{
    uint64_t x = a; /* correct to 3 bits */
    for (int i = 0; i < 5; i++)
        x *= 2 - a * x;
    return x;
}

static void test_boundaries64(void)
{
    static const uint64_t odd_bounds[] = {3, 5, 7, 1000000007ULL,
                                          0x8000000000000001ULL,
                                          0xfffffffffffffffdULL,
                                          0xffffffffffffffffULL,
                                          0xaaaaaaaaaaaaaaabULL};
    fsh_rng *rng;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    for (size_t b = 0; b < sizeof odd_bounds / sizeof odd_bounds[0]; b++) {
        uint64_t s = odd_bounds[b];
        uint64_t t = (0 - s) % s; /* 2^64 mod s */
        uint64_t inv = inv64(s);
        CHECK(inv * s == 1);
        if (t == 0)
            continue;
        /* w_rej: low half t - 1 (rejected); w_acc: low half t (accepted). */
        uint64_t w_rej = (t - 1) * inv, w_acc = t * inv;
        uint64_t script[3] = {w_rej, w_acc, 0};
        struct words ws = {script, 3, 0};
        /* The rng buffers up to 128 words: read through fsh_uniform only. */
        CHECK_EQ(fsh_rng_from_words(rng, words_next, &ws), FSH_OK);
        uint64_t out, lo;
        CHECK_EQ(fsh_uniform(rng, &out, s), FSH_OK);
        uint64_t want = fsh_mul128(w_acc, s, &lo);
        CHECK(lo == t);
        CHECK(out == want);
        CHECK_EQ(fsh_rng_bits_used(rng), 128); /* one rejection, one accept */
        /* The smallest rejected and the largest accepted low halves. */
        uint64_t script2[2] = {0 * inv, (uint64_t)-1 * inv};
        struct words ws2 = {script2, 2, 0};
        CHECK_EQ(fsh_rng_from_words(rng, words_next, &ws2), FSH_OK);
        CHECK_EQ(fsh_uniform(rng, &out, s), FSH_OK);
        CHECK_EQ(fsh_rng_bits_used(rng), 128);
        CHECK(out == fsh_mul128(script2[1], s, &lo));
    }
    /* Bound 2^64 - 1: only word 0 is rejected; word w >= 1 gives w - 1. */
    uint64_t script[3] = {0, 0, 5};
    struct words ws = {script, 3, 0};
    uint64_t out;
    CHECK_EQ(fsh_rng_from_words(rng, words_next, &ws), FSH_OK);
    CHECK_EQ(fsh_uniform(rng, &out, UINT64_MAX), FSH_OK);
    CHECK(out == 4);
    CHECK_EQ(fsh_rng_bits_used(rng), 192);
    fsh_rng_free(rng);
}

/* ------------------------------------------------------------------------ */
/* API edge cases                                                           */

static void test_api(void)
{
    fsh_rng *rng;
    uint64_t out = 99;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    CHECK_EQ(fsh_rng_seed(rng, "uniform", 7), FSH_OK);

    CHECK_EQ(fsh_uniform(rng, &out, 0), FSH_EINVAL);
    CHECK_EQ(fsh_uniform(NULL, &out, 5), FSH_EINVAL);
    CHECK_EQ(fsh_uniform(rng, NULL, 5), FSH_EINVAL);

    /* Bound 1: always 0, no randomness consumed. */
    uint64_t before = fsh_rng_bits_used(rng);
    CHECK_EQ(fsh_uniform(rng, &out, 1), FSH_OK);
    CHECK(out == 0);
    CHECK(fsh_rng_bits_used(rng) == before);

    /* Outputs stay in range for assorted bounds. */
    static const uint64_t bounds[] = {2, 3, 52, 1000, 0x8000000000000000ULL,
                                      0x8000000000000001ULL, UINT64_MAX};
    int bad = 0;
    for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++)
        for (int i = 0; i < 1000; i++)
            bad += fsh_uniform(rng, &out, bounds[b]) != FSH_OK ||
                   out >= bounds[b];
    CHECK_EQ(bad, 0);

    /* Ranges. */
    CHECK_EQ(fsh_uniform_range(rng, &out, 5, 4), FSH_EINVAL);
    CHECK_EQ(fsh_uniform_range(NULL, &out, 0, 4), FSH_EINVAL);
    CHECK_EQ(fsh_uniform_range(rng, NULL, 0, 4), FSH_EINVAL);
    CHECK_EQ(fsh_uniform_range(rng, &out, 7, 7), FSH_OK);
    CHECK(out == 7);
    CHECK_EQ(fsh_uniform_range(rng, &out, UINT64_MAX, UINT64_MAX), FSH_OK);
    CHECK(out == UINT64_MAX);
    for (int i = 0; i < 1000; i++) {
        CHECK_EQ(fsh_uniform_range(rng, &out, 10, 12), FSH_OK);
        bad += out < 10 || out > 12;
        CHECK_EQ(fsh_uniform_range(rng, &out, 1, UINT64_MAX), FSH_OK);
        bad += out < 1;
        CHECK_EQ(fsh_uniform_range(rng, &out, UINT64_MAX - 1, UINT64_MAX),
                 FSH_OK);
        bad += out < UINT64_MAX - 1;
    }
    CHECK_EQ(bad, 0);

    /* Full range: exactly the next word. */
    fsh_rng *twin;
    CHECK_EQ(fsh_rng_new(&twin), FSH_OK);
    CHECK_EQ(fsh_rng_seed(rng, "full", 4), FSH_OK);
    CHECK_EQ(fsh_rng_seed(twin, "full", 4), FSH_OK);
    for (int i = 0; i < 10; i++) {
        uint64_t w;
        CHECK_EQ(fsh_uniform_range(rng, &out, 0, UINT64_MAX), FSH_OK);
        CHECK_EQ(fsh_rng_u64(twin, &w), FSH_OK);
        CHECK(out == w);
    }
    /* fsh_uniform(s) is floor(w * s / 2^64) for an accepted word. */
    for (int i = 0; i < 100; i++) {
        uint64_t w, lo;
        CHECK_EQ(fsh_uniform(rng, &out, 52), FSH_OK);
        CHECK_EQ(fsh_rng_u64(twin, &w), FSH_OK);
        uint64_t hi = fsh_mul128(w, 52, &lo);
        if (lo >= (0 - (uint64_t)52) % 52) /* (almost surely) accepted */
            CHECK(out == hi);
        else
            break;
    }
    fsh_rng_free(twin);
    fsh_rng_free(rng);
}

int main(void)
{
    test_exhaustive8();
    test_exhaustive16();
    test_boundaries64();
    test_api();
    return check_done("test_uniform");
}
