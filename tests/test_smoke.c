/* SPDX-License-Identifier: MIT */
/* Smoke test of the fast paths: each element size gives a permutation, the
   same seed gives the same permutation for every element size, and a 52-card
   position-by-value chi-square stays within bounds. */
#include "check.h"
#include "fairshuf.h"

#include <math.h>
#include <string.h>

static int is_perm_u32(const uint32_t *a, size_t n)
{
    static unsigned char seen[1 << 20];
    memset(seen, 0, n);
    for (size_t i = 0; i < n; i++) {
        if (a[i] >= n || seen[a[i]])
            return 0;
        seen[a[i]] = 1;
    }
    return 1;
}

int main(void)
{
    fsh_rng *rng;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    static const size_t sizes[] = {2, 3, 7, 20, 21, 52, 511, 512, 513, 2049,
                                   16385, 524289, 1000000};
    static uint32_t a[1000000];
    static uint64_t b[1000000];
    static uint8_t c[1000000][3];
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        for (size_t i = 0; i < n; i++) {
            a[i] = (uint32_t)i;
            b[i] = i;
            c[i][0] = (uint8_t)i, c[i][1] = (uint8_t)(i >> 8),
            c[i][2] = (uint8_t)(i >> 16);
        }
        CHECK_EQ(fsh_rng_seed(rng, "smoke", 5), FSH_OK);
        CHECK_EQ(fsh_rng_set_simulation(rng, 1), FSH_OK);
        CHECK_EQ(fsh_shuffle_u32(rng, a, n), FSH_OK);
        CHECK(is_perm_u32(a, n));
        CHECK_EQ(fsh_rng_seed(rng, "smoke", 5), FSH_OK);
        CHECK_EQ(fsh_shuffle_u64(rng, b, n), FSH_OK);
        CHECK_EQ(fsh_rng_seed(rng, "smoke", 5), FSH_OK);
        CHECK_EQ(fsh_shuffle(rng, c, n, 3), FSH_OK);
        int same = 1;
        for (size_t i = 0; i < n; i++) {
            uint32_t v = (uint32_t)c[i][0] | (uint32_t)c[i][1] << 8 |
                         (uint32_t)c[i][2] << 16;
            same &= b[i] == a[i] && v == a[i];
        }
        CHECK(same);
    }
    /* 52 cards x 52 positions, 200,000 deals through the batched deck.
       2601 degrees of freedom: mean 2601, sd sqrt(5202) = 72.1; the
       Wilson-Hilferty 1e-6 upper quantile is about 2601 + 4.75*72.1*1.0 ~
       2957 (z = 4.753); we use 2960 (false-failure rate < 1e-6). */
    static unsigned long cnt[52][52];
    fsh_deck *deck;
    CHECK_EQ(fsh_deck_new(&deck, 52), FSH_OK);
    CHECK_EQ(fsh_rng_seed(rng, "0123456789abcdef0123456789abcdef", 32), FSH_OK);
    const unsigned long runs = 200000;
    for (unsigned long r = 0; r < runs; r++) {
        uint32_t out[52];
        CHECK_EQ(fsh_deck_reset(deck), FSH_OK);
        CHECK_EQ(fsh_deck_deal_n(rng, deck, out, 52), FSH_OK);
        for (int p = 0; p < 52; p++)
            cnt[p][out[p]]++;
    }
    double chi = 0, e = (double)runs / 52.0;
    for (int p = 0; p < 52; p++)
        for (int v = 0; v < 52; v++)
            chi += ((double)cnt[p][v] - e) * ((double)cnt[p][v] - e) / e;
    printf("test_smoke: deck chi-square %.1f (limit 2960)\n", chi);
    CHECK(chi < 2960);
    printf("test_smoke: bits per 52-card deal %.1f\n",
           (double)fsh_rng_bits_used(rng) / (double)runs);
    fsh_deck_free(deck);
    fsh_rng_free(rng);
    return check_done("test_smoke");
}
