/* SPDX-License-Identifier: MIT */
/* Exhaustive exactness of batched dice (FSH_DEFINE_BATCH) at reduced word
   sizes: for every word value and many bound sequences, every index tuple is
   produced by exactly the same number of accepted words. A known-bad variant
   (no rejection) is shown to fail the same check. */
#include "check.h"
#include "uniform/uniform.h"

#include <string.h>

/* A scripted word source: the first word is `first`; any further call is a
   redraw, which marks the first word "rejected". Redraws return the all-ones
   word, whose final low half 2^W - P is never below 2^W mod P, so the
   redraw loop ends. */
typedef struct {
    unsigned calls;
    unsigned first;
} script;

static uint8_t next8(script *s)
{
    return (uint8_t)(s->calls++ == 0 ? s->first : 0xFFu);
}
static uint16_t next16(script *s)
{
    return (uint16_t)(s->calls++ == 0 ? s->first : 0xFFFFu);
}

FSH_DEFINE_BATCH(batch8, uint8_t, uint16_t, 8, script *, next8)
FSH_DEFINE_BATCH(batch16, uint16_t, uint32_t, 16, script *, next16)

/* Bad variant: the same digit extraction with no rejection at all. */
static uint16_t batch16_bad(script *s, uint16_t b, unsigned k, uint16_t cheap,
                            uint16_t *idx)
{
    (void)cheap;
    uint16_t r = next16(s);
    for (unsigned d = 0; d < k; d++) {
        uint32_t m = (uint32_t)r * (uint16_t)(b - d);
        idx[d] = (uint16_t)(m >> 16);
        r = (uint16_t)m;
    }
    return 0;
}

static unsigned counts[1u << 16];

/* Rank of an index tuple in mixed radix. */
static unsigned rank_of(const unsigned *idx, unsigned b, unsigned k)
{
    unsigned r = 0;
    for (unsigned d = 0; d < k; d++)
        r = r * (b - d) + idx[d];
    return r;
}

/* Returns 1 when every tuple has the same number of accepted words and
   exactly 2^W mod P words are rejected. */
static int exact16(unsigned b, unsigned k, unsigned cheap, int bad)
{
    unsigned p = 1;
    for (unsigned d = 0; d < k; d++)
        p *= b - d;
    memset(counts, 0, p * sizeof counts[0]);
    unsigned rejected = 0;
    for (unsigned w = 0; w < 65536; w++) {
        script s = {0, w};
        uint16_t idx16[8];
        unsigned idx[8];
        if (bad)
            batch16_bad(&s, (uint16_t)b, k, (uint16_t)cheap, idx16);
        else
            batch16(&s, (uint16_t)b, k, (uint16_t)cheap, idx16);
        if (s.calls > 1) {
            rejected++;
            continue;
        }
        for (unsigned d = 0; d < k; d++) {
            idx[d] = idx16[d];
            if (idx[d] >= b - d)
                return 0;
        }
        counts[rank_of(idx, b, k)]++;
    }
    unsigned want = (65536 - 65536 % p) / p;
    for (unsigned t = 0; t < p; t++)
        if (counts[t] != want)
            return 0;
    return rejected == 65536 % p;
}

static int exact8(unsigned b, unsigned k, unsigned cheap)
{
    unsigned p = 1;
    for (unsigned d = 0; d < k; d++)
        p *= b - d;
    memset(counts, 0, p * sizeof counts[0]);
    unsigned rejected = 0;
    for (unsigned w = 0; w < 256; w++) {
        script s = {0, w};
        uint8_t idx8[8];
        unsigned idx[8];
        batch8(&s, (uint8_t)b, k, (uint8_t)cheap, idx8);
        if (s.calls > 1) {
            rejected++;
            continue;
        }
        for (unsigned d = 0; d < k; d++)
            idx[d] = idx8[d];
        counts[rank_of(idx, b, k)]++;
    }
    unsigned want = (256 - 256 % p) / p;
    for (unsigned t = 0; t < p; t++)
        if (counts[t] != want)
            return 0;
    return rejected == 256 % p;
}

int main(void)
{
    unsigned cases = 0, bad_caught = 0, bad_cases = 0;
    /* Every bound sequence b, b-1, ..., b-k+1 (all dice >= 2) whose product
       fits the word, with the cheap bound both exact and loose; for single
       dice (Lemire's method, also covered by test_uniform) bounds up to 1000
       and then every 97th. */
    for (unsigned k = 1; k <= 7; k++) {
        for (unsigned b = k + 1; b < 65536; b += (k == 1 && b > 1000) ? 97 : 1) {
            unsigned long long p = 1;
            for (unsigned d = 0; d < k; d++)
                p *= b - d;
            if (p >= 65536)
                break;
            CHECK(exact16(b, k, (unsigned)p, 0));
            cases++;
            /* A loose cheap bound (a power of two >= P) as in the kernels. */
            unsigned loose = 1;
            while (loose < p)
                loose <<= 1;
            if (loose < 65536) {
                CHECK(exact16(b, k, loose, 0));
                cases++;
            }
            if (p < 256) {
                CHECK(exact8(b, k, (unsigned)p));
                cases++;
            }
            if (65536 % p != 0) {
                bad_cases++;
                bad_caught += !exact16(b, k, (unsigned)p, 1);
            }
        }
    }
    /* The check must catch the unrejected variant whenever P does not
       divide 2^16. */
    CHECK_EQ(bad_caught, bad_cases);
    CHECK(bad_cases > 0);

    /* fsh_batch_plan: greedy products stay under the cap and the deck plan
       is the 10, 11, 12, 18 split (about 4 words per 52-card deal). */
    unsigned expect[] = {10, 11, 12, 18}, got = 0;
    uint64_t b = 52, prod;
    while (b >= 2) {
        unsigned k = fsh_batch_plan(b, FSH_BATCH_CAP, &prod);
        CHECK(prod <= FSH_BATCH_CAP);
        if (got < 4)
            CHECK_EQ(k, expect[got]);
        got++;
        b -= k;
    }
    CHECK_EQ(got, 4);
    /* Up to 20 elements: the whole permutation in one batch (20! < 2^62). */
    for (uint64_t m = 2; m <= 20; m++) {
        uint64_t f = 1;
        for (uint64_t d = 2; d <= m; d++)
            f *= d;
        CHECK_EQ(fsh_batch_plan(m, FSH_BATCH_CAP, &prod), m - 1);
        CHECK(prod == f);
    }
    CHECK(fsh_batch_plan(21, FSH_BATCH_CAP, &prod) < 20);
    /* The written-out table is the computation, row by row, and the lookup
       agrees with it just past the table's end. */
    for (uint64_t m = 0; m <= FSH_GREEDY_TAIL + 3; m++) {
        uint64_t p1, p2;
        unsigned k1 = fsh_batch_plan(m, FSH_BATCH_CAP, &p1);
        unsigned k2 = fsh_batch_plan_compute(m, FSH_BATCH_CAP, &p2);
        CHECK_EQ(k1, k2);
        CHECK(p1 == p2);
    }
    printf("test_batch: %u exhaustive cases (8 and 16-bit words), unrejected "
           "variant caught in %u/%u\n",
           cases, bad_caught, bad_cases);
    return check_done("test_batch");
}
