/* SPDX-License-Identifier: MIT */
/*
 * The forward Fisher-Yates (fy.c, fsh_fy_forward; stream version 3,
 * docs/STREAMS.md section 5d):
 * - the same permutation and the same words read as a plain reference
 *   written from section 5d (one batch at a time, exact rejection), for
 *   every element size with a kernel of its own and two without, sizes
 *   around every phase boundary and the array's short last batch, three
 *   generators and rngs part-way through their buffers: the asm loop, its
 *   refills made ahead and the C path all give section 5d's stream;
 * - a randint source: one call per position, bounds 2, 3, ..., n;
 * - the cheap test's failures and the exact rejection: words fed by
 *   fsh_rng_from_words, among them words the batch must reject; and
 *   adversarial words built batch by batch from section 5d for every
 *   batch, the short last one included (a single die at n = 2): rejected
 *   words (the largest low half below 2^64 mod P alone, after a word with
 *   low half 0, or before one), then an accepted one (exactly 2^64 mod P,
 *   P, ~0, just past the cheap bounds, random). Known bad: the short last
 *   batch accepting any nonzero low half (found by a review; section 5d
 *   rejects below 2^64 mod P) fails it in 15 of 141 arrays;
 * - position-by-value chi-square at n = 64 (the asm loop's k = 6 phase)
 *   with the 1e-6 limit of tests/test_scatter.c, and a known-bad forward
 *   variant (j uniform in [0, n) at every position) that must fail it.
 * Uniformity by enumeration is in tests/test_enum.c; the refills made
 * ahead (stale slices, a forked child) in tests/test_fy_ahead.c; the
 * kernel without MULX and with the AVX2 ChaCha kernel in
 * tests/cli/test_kernel_impl.sh.
 */
#include "check.h"
#include "rng/rng.h"
#include "shuffle/fy.h"

#include <fairshuf.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;

/* Section 5d, literally. */
static unsigned phase_k(uint64_t b)
{
    return b <= 512        ? 6
           : b <= 2048     ? 5
           : b <= 16384    ? 4
           : b <= 524288   ? 3
           : b <= 1u << 30 ? 2
                           : 1;
}

static void reference(fsh_rng *r, unsigned char *a, size_t n, size_t size)
{
    unsigned char t[64];
    for (uint64_t b = 2; b <= n;) {
        unsigned k = phase_k(b);
        if (n - b + 1 < k)
            k = (unsigned)(n - b + 1);
        uint64_t p = 1, j[6], lo;
        for (unsigned d = 0; d < k; d++)
            p *= b + d;
        uint64_t th = (0 - p) % p;
        do {
            lo = fsh_next_word(r);
            for (unsigned d = 0; d < k; d++) {
                u128 m = (u128)lo * (b + d);
                j[d] = (uint64_t)(m >> 64);
                lo = (uint64_t)m;
            }
        } while (lo < th);
        for (unsigned d = 0; d < k; d++) {
            unsigned char *x = a + (b - 1 + d) * size, *y = a + j[d] * size;
            memcpy(t, x, size);
            memmove(x, y, size);
            memcpy(y, t, size);
        }
        b += k;
    }
}

/* The same array of n elements of size bytes shuffled by the kernel with
   r1 and by the reference with r2: whether the orders and the rngs' next
   words agree. */
static int agrees(fsh_rng *r1, fsh_rng *r2, size_t n, size_t size)
{
    unsigned char *a = malloc(n * size), *b = malloc(n * size);
    if (a == NULL || b == NULL)
        abort();
    for (size_t i = 0; i < n * size; i++)
        a[i] = b[i] = (unsigned char)(i * 131 + i / size);
    fsh_fy_forward(r1, a, n, size);
    reference(r2, b, n, size);
    int same = memcmp(a, b, n * size) == 0 &&
               fsh_next_word(r1) == fsh_next_word(r2);
    free(a);
    free(b);
    return same;
}

static void test_reference(void)
{
    static const size_t sizes[] = {1, 2, 4, 8, 12, 16, 24, 32, 5, 40};
    static const size_t ns[] = {
        2,      3,      5,      6,      7,      8,      13,     50,
        511,    512,    513,    514,    515,    516,    517,    600,
        2047,   2048,   2049,   2050,   3000,   16383,  16384,  16385,
        16390,  20000,  100000, 195312, 524287, 524288, 524289, 524290,
        600001};
    static const fsh_gen gens[] = {FSH_GEN_CHACHA20, FSH_GEN_CHACHA8,
                                   FSH_GEN_XOSHIRO256PP};
    size_t runs = 0, bad = 0;
    for (size_t g = 0; g < 3; g++)
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
            for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++) {
                size_t n = ns[ni], size = sizes[si];
                if (n * size > 8000000 || (g == 2 && n > 100000))
                    continue;
                fsh_rng *r1 = NULL, *r2 = NULL;
                uint64_t seed = 42 + ni * 1000 + si * 10 + g;
                check_seed = seed;
                CHECK(fsh_rng_new(&r1) == FSH_OK);
                CHECK(fsh_rng_new(&r2) == FSH_OK);
                CHECK(fsh_rng_seed_gen(r1, gens[g], &seed, 8) == FSH_OK);
                CHECK(fsh_rng_seed_gen(r2, gens[g], &seed, 8) == FSH_OK);
                /* Start part-way through the buffer. */
                for (size_t q = 0; q < ni * 7 % 300; q++) {
                    (void)fsh_next_word(r1);
                    (void)fsh_next_word(r2);
                }
                runs++;
                if (!agrees(r1, r2, n, size)) {
                    fprintf(stderr, "forward != reference: gen %d size %zu "
                            "n %zu\n", (int)gens[g], size, n);
                    bad++;
                }
                fsh_rng_free(r1);
                fsh_rng_free(r2);
            }
    CHECK_EQ(bad, 0);
    CHECK(runs > 700);
    printf("  reference: %zu arrays, %zu differ\n", runs, bad);
}

/* A randint source: bounds 2, 3, ..., n, one call each. */
static uint64_t rec_bounds[64];
static unsigned rec_n;
static uint64_t rec_randint(void *ctx, uint64_t k)
{
    (void)ctx;
    if (rec_n < 64)
        rec_bounds[rec_n] = k;
    rec_n++;
    return 1 + (k * 7919 + 13) % k;
}

static void test_randint(void)
{
    fsh_rng *rng = NULL;
    CHECK(fsh_rng_new(&rng) == FSH_OK);
    CHECK(fsh_rng_from_randint(rng, rec_randint, NULL) == FSH_OK);
    uint32_t a[40], b[40];
    for (unsigned i = 0; i < 40; i++)
        a[i] = b[i] = i;
    rec_n = 0;
    fsh_fy_forward(rng, (unsigned char *)a, 40, 4);
    CHECK_EQ(rec_n, 39);
    int order = 1;
    for (unsigned i = 0; i < 39; i++)
        order &= rec_bounds[i] == i + 2;
    CHECK(order);
    for (uint64_t k = 2; k <= 40; k++) {
        uint64_t j = (k * 7919 + 13) % k;
        uint32_t t = b[k - 1];
        b[k - 1] = b[j];
        b[j] = t;
    }
    CHECK(memcmp(a, b, sizeof a) == 0);
    fsh_rng_free(rng);
}

/* Words from a list, then a fixed generator. */
struct wl {
    const uint64_t *w;
    size_t n, pos;
    uint64_t x;
};
static uint64_t wl_word(void *ctx)
{
    struct wl *s = ctx;
    if (s->pos < s->n)
        return s->w[s->pos++];
    s->x += 0x9e3779b97f4a7c15ull;
    uint64_t z = s->x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The first batch (bounds 2..7, P = 5040): word 0 and a word just below
   2^64 mod P are rejected, words with low halves below 2^55 but at least
   2^64 mod P accepted; words with small low halves in the middle of the
   array (the asm loop's cheap test fails, the C path decides). The forward
   kernel and the reference read the same words and agree. */
static void test_rejection(void)
{
    uint64_t w[600];
    for (size_t i = 0; i < 600; i++)
        w[i] = i % 3 == 0 ? 0 : i % 3 == 1 ? i : ~(uint64_t)0 / 5040 * i;
    for (size_t len = 1; len <= 600; len += 37) {
        struct wl s1 = {w, len, 0, 1}, s2 = {w, len, 0, 1};
        fsh_rng *r1 = NULL, *r2 = NULL;
        CHECK(fsh_rng_new(&r1) == FSH_OK && fsh_rng_new(&r2) == FSH_OK);
        CHECK(fsh_rng_from_words(r1, wl_word, &s1) == FSH_OK);
        CHECK(fsh_rng_from_words(r2, wl_word, &s2) == FSH_OK);
        uint64_t a[3000], b[3000];
        for (unsigned i = 0; i < 3000; i++)
            a[i] = b[i] = i;
        fsh_fy_forward(r1, (unsigned char *)a, 3000, 8);
        reference(r2, (unsigned char *)b, 3000, 8);
        check_seed = len;
        CHECK(memcmp(a, b, sizeof a) == 0);
        CHECK(fsh_next_word(r1) == fsh_next_word(r2));
        fsh_rng_free(r1);
        fsh_rng_free(r2);
    }
}

/* Adversarial word lists. The final low half of a batch's chain is
   w * P mod 2^64, so a word with a chosen low half is that half times P's
   inverse (P odd part; the low half a multiple of P's power of two). */
static uint64_t lo_of(uint64_t w, uint64_t p)
{
    return w * p;
}

static uint64_t word_with_lo(uint64_t target, uint64_t p)
{
    unsigned z = (unsigned)__builtin_ctzll(p);
    uint64_t o = p >> z, inv = o;
    for (int i = 0; i < 6; i++)
        inv *= 2 - o * inv; /* Newton: o * inv = 1 mod 2^64 */
    uint64_t c = z ? (target >> z) + ((target & ((1ull << z) - 1)) != 0)
                   : target; /* the low half is c * 2^z */
    return c * inv;
}

struct adv {
    uint64_t *w;
    size_t n, cap, pos;
    uint64_t x;
};

static void adv_push(struct adv *s, uint64_t w)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 4096;
        s->w = realloc(s->w, s->cap * sizeof *s->w);
        if (s->w == NULL)
            abort();
    }
    s->w[s->n++] = w;
}

static uint64_t adv_word(void *ctx)
{
    struct adv *s = ctx;
    if (s->pos < s->n)
        return s->w[s->pos++];
    s->pos++;
    return 0x5555555555555555ull;
}

static uint64_t adv_rand(struct adv *s)
{
    s->x ^= s->x << 13;
    s->x ^= s->x >> 7;
    s->x ^= s->x << 17;
    return s->x;
}

/* The words for a forward shuffle of n, batch by batch. */
static void adv_build(struct adv *s, size_t n)
{
    s->n = s->pos = 0;
    for (uint64_t b = 2; b <= n;) {
        unsigned k = phase_k(b);
        if (n - b + 1 < k)
            k = (unsigned)(n - b + 1);
        uint64_t p = 1;
        for (unsigned d = 0; d < k; d++)
            p *= b + d;
        uint64_t t = (0 - p) % p, w;
        unsigned sel = (unsigned)(adv_rand(s) % 8);
        if (t > 0 && sel < 3) {
            /* Rejected words: the largest (a nonzero low half) alone,
               after 0, or before 0. */
            w = word_with_lo(t - 1 - (t - 1) % (p & (0 - p)), p);
            int big = lo_of(w, p) < t && w != 0;
            if (sel == 1 || !big)
                adv_push(s, 0);
            if (big)
                adv_push(s, w);
            if (sel == 2 && big)
                adv_push(s, 0);
        }
        switch (sel) {
        case 3:
            w = ~(uint64_t)0;
            break;
        case 4:
            w = word_with_lo(t, p);
            break;
        case 5:
            w = word_with_lo(p, p);
            break;
        case 6:
            w = word_with_lo((uint64_t)1 << 40, p);
            break;
        default:
            w = adv_rand(s);
            break;
        }
        if (lo_of(w, p) < t)
            w = ~(uint64_t)0;
        adv_push(s, w);
        b += k;
    }
}

static void test_adversarial(void)
{
    static const size_t sizes[] = {1, 4, 8, 16, 5};
    static const size_t ns[] = {2,     3,     4,     5,     6,     7,
                                8,     9,     13,    14,    511,   512,
                                513,   514,   517,   518,   2047,  2048,
                                2049,  2053,  16383, 16384, 16385, 16389,
                                40000, 524287, 524288, 524289, 524290};
    struct adv s1 = {0}, s2 = {0};
    size_t runs = 0, bad = 0;
    s1.x = 88172645463325252ull;
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
        for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++) {
            size_t n = ns[ni], size = sizes[si];
            if (n * size > 4200000)
                continue;
            adv_build(&s1, n);
            s2.w = s1.w, s2.n = s1.n, s2.pos = 0;
            fsh_rng *r1 = NULL, *r2 = NULL;
            CHECK(fsh_rng_new(&r1) == FSH_OK && fsh_rng_new(&r2) == FSH_OK);
            CHECK(fsh_rng_from_words(r1, adv_word, &s1) == FSH_OK);
            CHECK(fsh_rng_from_words(r2, adv_word, &s2) == FSH_OK);
            runs++;
            if (!agrees(r1, r2, n, size)) {
                fprintf(stderr, "adversarial words: size %zu n %zu differ\n",
                        size, n);
                bad++;
            }
            fsh_rng_free(r1);
            fsh_rng_free(r2);
        }
    free(s1.w);
    CHECK_EQ(bad, 0);
    printf("  adversarial words: %zu arrays, %zu differ\n", runs, bad);
}

/* Position-by-value chi-square, as tests/test_scatter.c: X (n-1)/n against
   chi2((n-1)^2) at 1e-6, n = 64: 4407.1. */
static double chi2_forward(int naive, uint64_t seed)
{
    enum { N = 64, T = 10000 };
    static unsigned long C[N * N];
    memset(C, 0, sizeof C);
    fsh_rng *rng = NULL;
    CHECK(fsh_rng_new(&rng) == FSH_OK);
    check_seed = seed;
    CHECK(fsh_rng_seed(rng, &seed, sizeof seed) == FSH_OK);
    CHECK(fsh_rng_set_simulation(rng, 1) == FSH_OK);
    for (unsigned t = 0; t < T; t++) {
        uint64_t a[N];
        for (unsigned i = 0; i < N; i++)
            a[i] = i;
        if (naive) {
            /* Known bad: forward, but j uniform over the whole array. */
            for (unsigned b = 2; b <= N; b++) {
                uint64_t j = fsh_uniform_fast(rng, N), x = a[b - 1];
                a[b - 1] = a[j];
                a[j] = x;
            }
        } else {
            fsh_fy_forward(rng, (unsigned char *)a, N, 8);
        }
        for (unsigned i = 0; i < N; i++)
            C[i * N + a[i]]++;
    }
    fsh_rng_free(rng);
    double E = (double)T / N, X = 0;
    for (unsigned i = 0; i < N * N; i++)
        X += ((double)C[i] - E) * ((double)C[i] - E) / E;
    return X * (N - 1) / N;
}

static void test_chi2(void)
{
    const double limit = 4407.1;
    double x = chi2_forward(0, 5150), xb = chi2_forward(1, 5150);
    printf("  chi2 n=64: forward %.1f, naive %.1f (limit %.1f)\n", x, xb,
           limit);
    CHECK(x <= limit);
    CHECK(xb > limit);
}

int main(void)
{
    test_reference();
    test_randint();
    test_rejection();
    test_adversarial();
    test_chi2();
    return check_done("test_forward");
}
