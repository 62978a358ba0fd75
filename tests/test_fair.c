/* SPDX-License-Identifier: MIT */
/* Provably fair rounds (src/fair): known answers computed independently by
   examples/verify_deal.py, the seed rule, the group cut, the exact
   rejection, an enumeration of the Fisher-Yates over scripted words, every
   bad argument, and chi-square checks of the HMAC stream with fixed seeds
   (and the known-bad variants they catch). docs/FAIRNESS.md, "Provably fair
   rounds", describes each check.

   Also a helper for tests/fair/test_verify_py.sh:
     test_fair order FACES COPIES SEEDHEX CLIENT NONCE
   prints the deal order as face numbers (or "error N: message"). */
#include "check.h"
#include "fair/fair.h"

#include <math.h>
#include <string.h>

/* ---- helpers ------------------------------------------------------------ */

static void poker_name(char buf[3], uint32_t face)
{
    static const char ranks[] = "23456789TJQKA", suits[] = "cdhs";
    if (face >= 52) {
        buf[0] = face == 52 ? 'R' : 'B';
        buf[1] = 'J';
    } else {
        buf[0] = ranks[face % 13];
        buf[1] = suits[face / 13];
    }
    buf[2] = '\0';
}

/* The order line (poker names joined by single spaces) into line. */
static void order_line(char *line, const uint32_t *d, size_t n)
{
    char *p = line;
    for (size_t t = 0; t < n; t++) {
        if (t)
            *p++ = ' ';
        poker_name(p, d[t]);
        p += 2;
    }
    *p = '\0';
}

static void sha256_hex(char hex[65], const char *s)
{
    /* fsh_fair_commit is SHA-256 of arbitrary bytes in lowercase hex. */
    CHECK_EQ(fsh_fair_commit(hex, (const uint8_t *)s, strlen(s)), FSH_OK);
}

static size_t from_hex(uint8_t *out, size_t cap, const char *hex)
{
    size_t len = 0;
    CHECK_EQ(fsh_fair_hex_decode(out, cap, &len, hex, strlen(hex)), FSH_OK);
    return len;
}

/* ---- known answers (docs/FAIRNESS.md, vectors 1-4) ---------------------- */

struct vector {
    unsigned decks, jokers;
    const char *seed_hex, *client;
    uint64_t nonce;
    const char *commitment, *first10, *line, *line_sha256;
};

static const struct vector vectors[] = {
    {1, 0, "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "player-1", 0,
     "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
     "5h 7c 2d 5s 7h Td Jc 3s Qs Qd",
     "5h 7c 2d 5s 7h Td Jc 3s Qs Qd Jd Th 3d Ks Ad 3h 9h 4c 3c 8s Jh 7d Kc 4s "
     "7s 6d 5c 8c Kd 2c 5d 2s 9s 9c 6h Js 4d Ah Tc 4h As 8d Ts 6s 6c 2h Qh Kh "
     "Ac Qc 8h 9d",
     "8c869a3bbc416afa84fa0623299780e9673bf28638da6e0cfc10b69382ae6843"},
    {1, 2, "f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687f0e1d2c3b4a59687",
     "Zo\xc3\xab \xf0\x9f\x82\xa1", 1,
     "6dde9e258487f14ccf87ea63efc2327dcbc912c12eb04544c292fea94731f059",
     "8s Qd RJ 9d 8c Ks 4c Tc Js 6h",
     "8s Qd RJ 9d 8c Ks 4c Tc Js 6h 9c Ac 8h Kd 6d 7s As Qc 4h BJ 8d Ad 2c Kc "
     "Th 3d 2d Ts 4d 7c Jh Jc Ah 6c 3s Jd 9s 9h Qh 3h 6s 5h 2s Qs 7d Td 5c 7h "
     "4s 3c 5d Kh 5s 2h",
     "0446e158fa7da1c3c979d7ef9e8187e6a337b9cfa4f72759c18d4de82cb5bd85"},
    {2, 0,
     "0b30557a9fc4e90e33587da2c7ec11365b80a5caef14395e83a8cdf2173c6186"
     "abd0f51a3f6489aed3f81d42678cb1d6fb20456a8fb4d9fe23486d92b7dc0126",
     "alice", 42,
     "94eb5de4943613fd048dc93393ab06877405faa39c11f53e9386083339833e7e",
     "Jd 8s 4s Qc 7h 2h 9s 9h Js Kc", NULL,
     "8323cdf4b0b7a80778e3a3a23064b783f276ebae5b015504d79c88c786ac76a8"},
    {8, 0, NULL /* seed[k] = (131 k + 7) mod 256, k < 280 */, "",
     UINT64_MAX,
     "c6561263ef0a9cd07c57206526e45240a75f3e6ddaef92a37e5dde0996c2d0a2",
     "5d 8h 7h Qc Th Qd 6h 7c 9c Qd", NULL,
     "71256382aaa68b130f9cbafca01e227c0ce37536292e10cccbe2a14bbaf0d710"},
};

static void test_vectors(void)
{
    static uint32_t d[8 * 54];
    static char line[8 * 54 * 3 + 1];
    uint8_t seed[512];
    char hex[65];
    for (size_t v = 0; v < sizeof vectors / sizeof *vectors; v++) {
        const struct vector *x = &vectors[v];
        size_t len, faces = 52 + x->jokers, n = faces * x->decks;
        if (x->seed_hex)
            len = from_hex(seed, sizeof seed, x->seed_hex);
        else
            for (len = 0; len < 280; len++)
                seed[len] = (uint8_t)(131 * len + 7);
        CHECK_EQ(fsh_fair_commit(hex, seed, len), FSH_OK);
        CHECK(strcmp(hex, x->commitment) == 0);
        CHECK_EQ(fsh_fair_order(d, faces, x->decks, seed, len, x->client,
                                strlen(x->client), x->nonce),
                 FSH_OK);
        order_line(line, d, n);
        CHECK(strncmp(line, x->first10, strlen(x->first10)) == 0);
        if (x->line)
            CHECK(strcmp(line, x->line) == 0);
        sha256_hex(hex, line);
        CHECK(strcmp(hex, x->line_sha256) == 0);
        if (strcmp(hex, x->line_sha256) != 0)
            fprintf(stderr, "vector %zu: order line %s\n", v + 1, line);
        /* Each face exactly `decks` times. */
        unsigned count[54] = {0};
        for (size_t t = 0; t < n; t++)
            count[d[t]]++;
        int ok = 1;
        for (size_t f = 0; f < faces; f++)
            ok &= count[f] == x->decks;
        CHECK(ok);
        /* A one-byte change anywhere changes the deal: the seed's last byte
           (its last segment), the client seed, the nonce. */
        uint32_t e[8 * 54];
        seed[len - 1] ^= 1;
        CHECK_EQ(fsh_fair_order(e, faces, x->decks, seed, len, x->client,
                                strlen(x->client), x->nonce), FSH_OK);
        seed[len - 1] ^= 1;
        CHECK(memcmp(d, e, n * sizeof *d) != 0);
        CHECK_EQ(fsh_fair_order(e, faces, x->decks, seed, len, "x", 1,
                                x->nonce), FSH_OK);
        CHECK(memcmp(d, e, n * sizeof *d) != 0);
        CHECK_EQ(fsh_fair_order(e, faces, x->decks, seed, len, x->client,
                                strlen(x->client), x->nonce ^ 1), FSH_OK);
        CHECK(memcmp(d, e, n * sizeof *d) != 0);
        /* The seed rule at this set's boundary. */
        size_t need = 0;
        CHECK_EQ(fsh_fair_seed_min(&need, faces, x->decks), FSH_OK);
        CHECK(len >= need);
        CHECK_EQ(fsh_fair_order(e, faces, x->decks, seed, need - 1, "", 0, 0),
                 FSH_ESEED);
        CHECK_EQ(fsh_fair_order(e, faces, x->decks, seed, need, "", 0, 0),
                 FSH_OK);
    }
}

/* ---- the seed rule (table computed exactly by Python's integers) -------- */

static const struct {
    size_t faces;
    unsigned copies;
    size_t bytes;
} seed_table[] = {
    {1, 1, 32},       {2, 1, 32},         {52, 1, 32},     {53, 1, 32},
    {54, 1, 32},      {57, 1, 32},        {58, 1, 33},     {59, 1, 34},
    {60, 1, 35},      {52, 2, 63},        {53, 2, 64},     {54, 2, 66},
    {52, 6, 206},     {52, 8, 279},       {53, 8, 286},    {54, 8, 293},
    {1, 1000, 32},    {2, 100, 32},       {3000, 1, 3792}, {52, 384, 14193},
    {52, 385, 14230}, {20000, 1, 32114},  {20001, 1, 32116},
    {4, 5000, 4998},  {100000, 1, 189589}, {52, 2000, 74063},
    {2048, 1, 2448},  {2049, 1, 2449},  {52, 39, 1421},  {52, 40, 1458},
    {1, 5000, 32},    {2, 2000, 500},
    /* log2 N = 26,165,200 - 1.2e-7: lgammal's estimate is within 1e-6
       bits of the byte boundary, so the exact count decides (the bignum
       took hours; N < 2^26165200 by Python's integers: math.factorial(n)
       < math.factorial(c) ** m << 26165200). */
    {54, 84198, 3270650},
};

/* N = n! / (c!)^m exactly, in w (32-bit limbs, little-endian, at most
   cap); returns its bit length. */
static uint64_t exact_orders(uint32_t *w, size_t cap, size_t m, unsigned c)
{
    size_t used = 1, n = m * c;
    memset(w, 0, cap * sizeof *w);
    w[0] = 1;
    for (uint64_t k = 2; k <= n; k++) {
        uint64_t carry = 0;
        for (size_t t = 0; t < used; t++) {
            uint64_t x = (uint64_t)w[t] * k + carry;
            w[t] = (uint32_t)x;
            carry = x >> 32;
        }
        if (carry && used < cap)
            w[used++] = (uint32_t)carry;
    }
    for (size_t f = 0; f < m; f++)
        for (uint64_t k = 2; k <= c; k++) {
            uint64_t rem = 0;
            for (size_t t = used; t-- > 0;) {
                uint64_t x = rem << 32 | w[t];
                w[t] = (uint32_t)(x / k);
                rem = x % k;
            }
            while (used > 1 && w[used - 1] == 0)
                used--;
        }
    uint64_t b = 32 * (uint64_t)(used - 1);
    for (uint32_t top = w[used - 1]; top; top >>= 1)
        b++;
    return b;
}

/* Compare M 2^e (M in [2^127, 2^128)) with N (bit length b): -1, 0, 1. */
static int cmp_bound(fsh_u128 mant, int64_t e, const uint32_t *w, uint64_t b)
{
    if (e != (int64_t)b - 128)
        return e < (int64_t)b - 128 ? -1 : 1;
    fsh_u128 top = 0;
    for (int i = 0; i < 128; i++) {
        int64_t j = (int64_t)b - 1 - i;
        top = top << 1 | (j >= 0 ? (w[j / 32] >> (j % 32)) & 1 : 0);
    }
    if (mant != top)
        return mant < top ? -1 : 1;
    for (int64_t j = (int64_t)b - 129; j >= 0; j--)
        if ((w[j / 32] >> (j % 32)) & 1)
            return -1; /* N has bits below the mantissa's */
    return 0;
}

/* The O(n) bounds of the seed rule enclose N, and tightly: lo <= N <= hi
   with hi - lo at most 4n units of the 128-bit mantissa (2 per product
   or quotient, n - 1 + m (c - 1) of them), on every set of 2 to
   30 faces and 1 to 20 copies (exact N by the bignum above). */
static void test_bounds(void)
{
    static uint32_t w[256];
    unsigned outside = 0, loose = 0;
    for (size_t m = 2; m <= 30; m++)
        for (unsigned c = 1; c <= 20; c++) {
            fsh_u128 lo, hi;
            int64_t lo_e, hi_e;
            uint64_t b = exact_orders(w, 256, m, c);
            fsh_fair_bounds(m, c, m * c, &lo, &lo_e, &hi, &hi_e);
            outside += cmp_bound(lo, lo_e, w, b) > 0;
            outside += cmp_bound(hi, hi_e, w, b) < 0;
            loose += lo_e != hi_e || hi - lo > 4 * (fsh_u128)(m * c);
        }
    CHECK_EQ(outside, 0);
    CHECK_EQ(loose, 0);
}

static void test_seed_rule(void)
{
    for (size_t k = 0; k < sizeof seed_table / sizeof *seed_table; k++) {
        size_t b = 0;
        CHECK_EQ(fsh_fair_seed_min(&b, seed_table[k].faces,
                                   seed_table[k].copies), FSH_OK);
        CHECK_EQ(b, seed_table[k].bytes);
        if (b != seed_table[k].bytes)
            fprintf(stderr, "seed_min(%zu, %u) = %zu, want %zu\n",
                    seed_table[k].faces, seed_table[k].copies, b,
                    seed_table[k].bytes);
    }
    /* The O(n) bounds give the bignum's count (ceil(log2 N)) on every set
       of 2 to 40 faces and 1 to 30 copies but 2 x 1 (N = 2, a power of
       two: they need n >= 3), and on a few up to 2048 cards. */
    unsigned wrong = 0, unsure = 0;
    for (size_t m = 2; m <= 40; m++)
        for (unsigned c = m == 2 ? 2 : 1; c <= 30; c++) {
            uint64_t want = 0, got = 0;
            CHECK_EQ(fsh_fair_bits_exact(&want, m, c, m * c), FSH_OK);
            if (!fsh_fair_bits_interval(&got, m, c, m * c))
                unsure++;
            else
                wrong += got != want;
        }
    static const size_t mc[][2] = {{2048, 1}, {2, 1024}, {54, 37}, {1000, 2}};
    for (size_t k = 0; k < sizeof mc / sizeof mc[0]; k++) {
        uint64_t want = 0, got = 0;
        size_t m = mc[k][0];
        unsigned c = (unsigned)mc[k][1];
        CHECK_EQ(fsh_fair_bits_exact(&want, m, c, m * c), FSH_OK);
        if (!fsh_fair_bits_interval(&got, m, c, m * c))
            unsure++;
        else
            wrong += got != want;
    }
    CHECK_EQ(wrong, 0);
    CHECK_EQ(unsure, 0);
    uint64_t big = 0;
    CHECK_EQ(fsh_fair_bits_interval(&big, 54, 84198, 54 * 84198), 1);
    CHECK(big == 26165200);
    /* Refusal at the boundary, and out unchanged. */
    static uint8_t seed[400];
    uint32_t d[416], keep[416];
    for (size_t t = 0; t < 416; t++)
        d[t] = keep[t] = 0xdeadbeef;
    CHECK_EQ(fsh_fair_order(d, 52, 1, seed, 31, "", 0, 0), FSH_ESEED);
    CHECK_EQ(fsh_fair_order(d, 52, 1, seed, 0, "", 0, 0), FSH_ESEED);
    CHECK_EQ(fsh_fair_order(d, 1, 1, seed, 31, "", 0, 0), FSH_ESEED);
    CHECK_EQ(fsh_fair_order(d, 58, 1, seed, 32, "", 0, 0), FSH_ESEED);
    CHECK_EQ(fsh_fair_order(d, 52, 8, seed, 278, "", 0, 0), FSH_ESEED);
    CHECK(memcmp(d, keep, sizeof d) == 0);
    CHECK_EQ(fsh_fair_order(d, 58, 1, seed, 33, "", 0, 0), FSH_OK);
    CHECK_EQ(fsh_fair_order(d, 52, 8, seed, 279, "", 0, 0), FSH_OK);
    CHECK_EQ(fsh_fair_order(d, 1, 1, seed, 32, "", 0, 0), FSH_OK);
    CHECK_EQ(d[0], 0);
    CHECK(strcmp(fsh_strerror(FSH_ESEED), "server seed too short for this game") == 0);
}

/* ---- scripted word sources ---------------------------------------------- */

typedef struct {
    const uint64_t *w;
    size_t nw, pos, groups;
    size_t steps_at_cut[64]; /* words read when each new group started */
} script;

static uint64_t script_word(void *ctx)
{
    script *s = ctx;
    return s->pos < s->nw ? s->w[s->pos++] : (s->pos++, UINT64_MAX);
}

static int script_group(void *ctx)
{
    script *s = ctx;
    if (s->groups < 64)
        s->steps_at_cut[s->groups] = s->pos;
    s->groups++;
    return FSH_OK;
}

/* The group cut: n distinct cards, every word accepted at once (UINT64_MAX
   gives lo = 2^64 - r >= 2^64 mod r), so the step at each cut is n-1 minus
   the words read. Expected steps from Python's exact integers. */
static const size_t cut_57[] = {0};
static const size_t cut_58[] = {3};
static const size_t cut_59[] = {6};
static const size_t cut_60[] = {8};
static const size_t cut_104[] = {63, 14};
static const size_t cut_416[] = {386, 357, 327, 297, 266, 234,
                                 202, 169, 134, 97,  57,  3};
static const size_t cut_1000[] = {974, 949, 924, 898, 872, 846, 820, 794, 768,
                                  742, 716, 689, 662, 635, 608, 581, 554, 526,
                                  498, 470, 442, 413, 384, 354, 324, 294, 263,
                                  231, 198, 164, 129, 92,  51};

static void test_group_cut(void)
{
    static const struct {
        size_t n, groups;
        const size_t *at;
    } cuts[] = {{57, 0, cut_57},   {58, 1, cut_58},   {59, 1, cut_59},
                {60, 1, cut_60},   {104, 2, cut_104}, {416, 12, cut_416},
                {1000, 33, cut_1000}};
    static uint32_t a[1000];
    for (size_t c = 0; c < sizeof cuts / sizeof *cuts; c++) {
        script s = {0};
        fsh_fair_source src = {script_word, script_group, &s};
        for (size_t k = 0; k < cuts[c].n; k++)
            a[k] = (uint32_t)k;
        CHECK_EQ(fsh_fair_shuffle(a, cuts[c].n, &src), FSH_OK);
        CHECK_EQ(s.groups, cuts[c].groups);
        CHECK_EQ(fsh_fair_groups(cuts[c].n, UINT64_MAX), cuts[c].groups + 1);
        CHECK_EQ(s.pos, cuts[c].n - 1);
        for (size_t g = 0; g < cuts[c].groups && g < s.groups; g++)
            CHECK_EQ(cuts[c].n - 1 - s.steps_at_cut[g], cuts[c].at[g]);
    }
    /* The 2^256 boundary itself. 2^256 - 1 = 3 * q: q * 3 fits, (q+1) * 3
       does not; 2^255 * 2 = 2^256 does not fit, (2^255 - 1) * 2 does. */
    uint64_t q[4] = {0x5555555555555555u, 0x5555555555555555u,
                     0x5555555555555555u, 0x5555555555555555u};
    uint64_t p[4];
    memcpy(p, q, sizeof p);
    CHECK_EQ(fsh_fair_prod_mul(p, 3), 1);
    CHECK(p[0] == UINT64_MAX && p[1] == UINT64_MAX && p[2] == UINT64_MAX &&
          p[3] == UINT64_MAX);
    memcpy(p, q, sizeof p);
    p[0]++;
    CHECK_EQ(fsh_fair_prod_mul(p, 3), 0);
    CHECK(p[0] == q[0] + 1 && p[3] == q[3]); /* unchanged */
    uint64_t h[4] = {0, 0, 0, (uint64_t)1 << 63};
    CHECK_EQ(fsh_fair_prod_mul(h, 2), 0);
    uint64_t h1[4] = {UINT64_MAX, UINT64_MAX, UINT64_MAX, ((uint64_t)1 << 63) - 1};
    CHECK_EQ(fsh_fair_prod_mul(h1, 2), 1);
    CHECK(h1[0] == UINT64_MAX - 1 && h1[3] == UINT64_MAX);
    uint64_t one[4] = {1, 0, 0, 0};
    CHECK_EQ(fsh_fair_prod_mul(one, UINT64_MAX), 1);
    CHECK(one[0] == UINT64_MAX && one[1] == 0);
}

/* ---- the exact rejection ------------------------------------------------ */

typedef int (*reducer)(uint64_t x, uint64_t r, uint64_t *j);

/* Known-bad reducers the check must catch. */
static int bad_modulo(uint64_t x, uint64_t r, uint64_t *j)
{
    *j = x % r;
    return 1;
}

static int bad_no_reject(uint64_t x, uint64_t r, uint64_t *j)
{
    uint64_t lo;
    *j = fsh_mul128(x, r, &lo);
    return 1;
}

static int bad_off_by_one(uint64_t x, uint64_t r, uint64_t *j)
{
    uint64_t lo, hi = fsh_mul128(x, r, &lo);
    if (lo <= (0 - r) % r)
        return 0;
    *j = hi;
    return 1;
}

static uint64_t inverse64(uint64_t r) /* r odd */
{
    uint64_t x = r;
    for (int k = 0; k < 6; k++)
        x *= 2 - r * x;
    return x;
}

/* Violations of: x is accepted iff (x r mod 2^64) >= 2^64 mod r, and then
   j = floor(x r / 2^64). Checked at the words whose low half is t - 1, t,
   0 and 2^64 - 1 for odd r (built with the inverse of r), every word of a
   sample for even r, and for r = 2 .. 2^12 the accepted words of the top of
   the range map to each j equally often (exact count over a window). */
static unsigned reduce_violations(reducer f)
{
    static const uint64_t rs[] = {2, 3, 5, 7, 52, 53, 104, 416, 1000, 65537,
                                  ((uint64_t)1 << 32) + 1, ((uint64_t)1 << 63) + 1,
                                  UINT64_MAX, UINT64_MAX - 2, 3000000019u};
    unsigned bad = 0;
    for (size_t k = 0; k < sizeof rs / sizeof *rs; k++) {
        uint64_t r = rs[k], t = (0 - r) % r, j;
        uint64_t lows[4] = {t - 1, t, 0, UINT64_MAX};
        for (int l = 0; l < 4; l++) {
            if (l == 0 && t == 0)
                continue;
            if (r % 2 == 0)
                continue;
            uint64_t x = lows[l] * inverse64(r), lo, hi = fsh_mul128(x, r, &lo);
            int want = lo >= t;
            j = UINT64_MAX;
            int got = f(x, r, &j);
            if (got != want || (got && j != hi))
                bad++;
        }
        for (uint64_t x = 0; x < 2000; x++) {
            uint64_t xs[2] = {x * 0x9e3779b97f4a7c15u, x};
            for (int v = 0; v < 2; v++) {
                uint64_t lo, hi = fsh_mul128(xs[v], r, &lo);
                int want = lo >= t;
                j = UINT64_MAX;
                int got = f(xs[v], r, &j);
                if (got != want || (got && j != hi))
                    bad++;
            }
        }
    }
    return bad;
}

static void test_reduce(void)
{
    CHECK_EQ(reduce_violations(fsh_fair_reduce), 0);
    /* The check catches the known-bad reductions. */
    CHECK(reduce_violations(bad_modulo) > 0);
    CHECK(reduce_violations(bad_no_reject) > 0);
    CHECK(reduce_violations(bad_off_by_one) > 0);
}

/* The first word of block 0 of group g, from the text of the spec with
   libsodium's one-shot HMAC (seed of 32 bytes: one segment). */
static uint64_t spec_word(const uint8_t seed[32], const char *client,
                          uint64_t nonce, uint32_t g)
{
    unsigned char msg[16 + 4 + 64 + 8 + 4 + 8], mac[32];
    size_t cl = strlen(client), k = 0;
    memcpy(msg, "fairshuf-deal-v1", 16);
    k = 16;
    for (int t = 3; t >= 0; t--)
        msg[k++] = (unsigned char)(cl >> (8 * t));
    memcpy(msg + k, client, cl);
    k += cl;
    for (int t = 7; t >= 0; t--)
        msg[k++] = (unsigned char)(nonce >> (8 * t));
    for (int t = 3; t >= 0; t--)
        msg[k++] = (unsigned char)(g >> (8 * t));
    for (int t = 0; t < 8; t++)
        msg[k++] = 0;
    crypto_auth_hmacsha256_state st;
    crypto_auth_hmacsha256_init(&st, seed, 32);
    crypto_auth_hmacsha256_update(&st, msg, k);
    crypto_auth_hmacsha256_final(&st, mac);
    uint64_t w = 0;
    for (int t = 0; t < 8; t++)
        w = w << 8 | mac[t];
    return w;
}

/* Group numbers are 32 bits (u32be(g)): the stream refuses to go past
   group 2^32 - 1 rather than wrap to group 0 and repeat its words, and a
   set whose steps need more than 2^32 groups is refused before anything
   is written (FSH_EINVAL, before FSH_ESEED). Reached without drawing
   4e10 cards: the stream is moved to its last group numbers
   (fsh_fair_stream_seek), and the group count is checked against the
   walk for small n and small limits (its O(1) bounds and the walk). */
static void test_group_limit(void)
{
    uint8_t seed[32];
    for (int k = 0; k < 32; k++)
        seed[k] = (uint8_t)(3 * k + 1);
    fsh_fair_stream s, keep;
    fsh_fair_stream_init(&s, seed, 32, "wrap", 4, 9);
    CHECK(fsh_fair_stream_word(&s) == spec_word(seed, "wrap", 9, 0));
    fsh_fair_stream_seek(&s, UINT32_MAX - 1);
    CHECK(fsh_fair_stream_word(&s) == spec_word(seed, "wrap", 9, UINT32_MAX - 1));
    CHECK_EQ(fsh_fair_stream_next_group(&s), FSH_OK);
    CHECK(s.group == UINT32_MAX);
    CHECK(fsh_fair_stream_word(&s) == spec_word(seed, "wrap", 9, UINT32_MAX));
    /* The last group: refused, the stream as it was (it wrapped to group
       0, whose words came again). */
    memcpy(&keep, &s, sizeof s);
    CHECK_EQ(fsh_fair_stream_next_group(&s), FSH_EINVAL);
    CHECK(memcmp(&keep, &s, sizeof s) == 0);
    CHECK(s.group == UINT32_MAX);

    /* The shuffle stops at the refusal: 58 cards take two groups (2^32 - 2
       and 2^32 - 1), 104 take three. */
    uint32_t a[104];
    fsh_fair_source src;
    for (int n = 58; n <= 104; n += 46) {
        for (int k = 0; k < n; k++)
            a[k] = (uint32_t)k;
        fsh_fair_stream_seek(&s, UINT32_MAX - 1);
        CHECK_EQ(fsh_fair_shuffle(a, (size_t)n, fsh_fair_stream_source(&s, &src)),
                 n == 58 ? FSH_OK : FSH_EINVAL);
        CHECK(s.group == UINT32_MAX);
    }
    fsh_fair_stream_wipe(&s);
    fsh_fair_stream_wipe(&keep);

    /* The count: the walk against the scripted cut (above), and the O(1)
       bounds of fsh_fair_groups_fit against the walk for limits around
       the count, which take each of its three ways. */
    static uint32_t b[3001];
    int agree = 1;
    for (size_t n = 1; n <= 3001; n += n < 300 ? 1 : 37) {
        script sc = {0};
        fsh_fair_source ssrc = {script_word, script_group, &sc};
        for (size_t k = 0; k < n; k++)
            b[k] = (uint32_t)k;
        if (fsh_fair_shuffle(b, n, &ssrc) != FSH_OK)
            agree = 0;
        uint64_t g = fsh_fair_groups(n, UINT64_MAX);
        if (g != sc.groups + 1 || fsh_fair_groups(n, g - 1) != g ||
            (g > 1 && fsh_fair_groups(n, g - 2) != g - 1))
            agree = 0;
        for (uint64_t max = g > 40 ? g - 40 : 0; max <= g + 40; max++)
            if (fsh_fair_groups_fit(n, max) != (g <= max))
                agree = 0;
    }
    CHECK(agree);
    /* The limit itself: 7 * 2^32 + 1 cards always fit (any 7 ranges below
       2^36 do); 3.3e10 never do (log2(n!) / 256 > 2^32). */
    CHECK_EQ(fsh_fair_groups_fit((size_t)7 << 32 | 1, FSH_FAIR_GROUPS), 1);
    CHECK_EQ(fsh_fair_groups_fit((size_t)33000000000u, FSH_FAIR_GROUPS), 0);
    CHECK_EQ(fsh_fair_groups_fit(SIZE_MAX / 4, FSH_FAIR_GROUPS), 0);
    /* The public calls: 2^32 faces x 8 copies (2^35 cards) is refused
       before the seed rule (it said FSH_ESEED: a deal of it would have
       wrapped), nothing written. */
    size_t bytes = 5;
    uint32_t d[4] = {7, 7, 7, 7};
    CHECK_EQ(fsh_fair_seed_min(&bytes, (size_t)1 << 32, 8), FSH_EINVAL);
    CHECK_EQ(bytes, 5);
    CHECK_EQ(fsh_fair_order(d, (size_t)1 << 32, 8, seed, 32, "", 0, 0),
             FSH_EINVAL);
    CHECK(d[0] == 7 && d[1] == 7 && d[2] == 7 && d[3] == 7);
}

/* ---- the largest set ---------------------------------------------------- */

/* A set holds at most FSH_FAIR_CARDS_MAX = 2^32 - 1 cards, as every card
   set and deck, and as the Python package, examples/verify_deal.py and
   the command (1,000 decks) take it: one card more is FSH_EINVAL before
   the seed rule, nothing written. One face of 2^32 - 1 copies (one
   order: a 32-byte seed) was a game whose order filled 16 GiB for
   minutes, and 2^32 faces x 7 copies (3e10 cards) one no verifier but
   this function could rebuild. Only the answers at the limit are checked
   here: nothing of the limit's size is dealt. */
static void test_largest_set(void)
{
    static const uint8_t seed[32] = {1};
    static const struct {
        size_t faces;
        unsigned copies;
        int ok;
    } rows[] = {
        {1, UINT32_MAX, 1},          /* 2^32 - 1 cards: one order */
        {(size_t)UINT32_MAX, 1, 1},  /* 2^32 - 1 distinct faces */
        {3, 1431655765u, 1},         /* 2^32 - 1 = 3 x 1431655765 */
        {(size_t)1 << 32, 1, 0},     /* 2^32 cards */
        {2, 1u << 31, 0},            /* 2^32 cards */
        {65537, 65537, 0},           /* 2^32 + 2^17 + 1 */
        {(size_t)1 << 32, 7, 0},     /* about 3e10: it was a game */
        {(size_t)1 << 32, UINT32_MAX, 0},
    };
    CHECK_EQ(FSH_FAIR_CARDS_MAX, UINT32_MAX);
    for (size_t k = 0; k < sizeof rows / sizeof *rows; k++) {
        size_t bytes = 5;
        uint32_t d[2] = {7, 7};
        int st = fsh_fair_seed_min(&bytes, rows[k].faces, rows[k].copies);
        CHECK_EQ(st, rows[k].ok ? FSH_OK : FSH_EINVAL);
        if (!rows[k].ok) {
            CHECK_EQ(bytes, 5);
            /* a 32-byte seed: FSH_EINVAL, not FSH_ESEED, nothing written */
            CHECK_EQ(fsh_fair_order(d, rows[k].faces, rows[k].copies, seed,
                                    32, "", 0, 0),
                     FSH_EINVAL);
            CHECK(d[0] == 7 && d[1] == 7);
        } else {
            CHECK(bytes >= 32);
        }
    }
    size_t bytes = 0;
    /* One order: 32 bytes. */
    CHECK_EQ(fsh_fair_seed_min(&bytes, 1, UINT32_MAX), FSH_OK);
    CHECK_EQ(bytes, 32);
}

/* ---- enumeration: every draw sequence, every order once ----------------- */

/* Word that Lemire maps to j for range r at once: floor(((j+1) 2^64 - 1)/r)
   (its low half is >= 2^64 - r >= 2^64 mod r). */
static uint64_t word_for(uint64_t j, uint64_t r)
{
    fsh_u128 num = ((fsh_u128)(j + 1) << 64) - 1;
    return (uint64_t)(num / r);
}

typedef int (*fy_fn)(uint32_t *a, size_t n, const fsh_fair_source *src);

/* Known-bad: the naive shuffle (j uniform in [0, n) at every step). */
static int naive_fy(uint32_t *a, size_t n, const fsh_fair_source *src)
{
    for (size_t i = n; i-- > 1;) {
        uint64_t j;
        while (!fsh_fair_reduce(src->word(src->ctx), n, &j))
            ;
        uint32_t x = a[i];
        a[i] = a[j];
        a[j] = x;
    }
    return FSH_OK;
}

static size_t rank_of(const uint32_t *a, size_t n, size_t base)
{
    size_t r = 0;
    for (size_t k = 0; k < n; k++)
        r = r * base + a[k];
    return r;
}

/* Walk every sequence of draws of the shuffle fy on the set (faces,
   copies), n <= 6, with ranges `range(i)` (n for the naive one); count each
   distinct order. Returns 1 iff every one of the set's distinct orders is
   reached equally often, and (with rejections) the rejected word 0 is
   consumed before every draw whose range is not a power of two. */
static int enumerate(fy_fn fy, int naive, size_t faces, unsigned copies,
                     int with_rejects)
{
    size_t n = faces * copies, leaves = 1, base = faces, cells = 1;
    for (size_t k = 0; k < n; k++)
        cells *= base;
    unsigned *count = calloc(cells, sizeof *count);
    size_t digits[8] = {0};
    for (size_t i = n; i-- > 1;)
        leaves *= naive ? n : i + 1;
    int ok = 1;
    for (size_t leaf = 0; leaf < leaves; leaf++) {
        size_t rem = leaf;
        uint64_t w[32];
        size_t nw = 0, want_words = 0;
        for (size_t i = n; i-- > 1;) {
            uint64_t r = naive ? n : i + 1;
            digits[i] = rem % r;
            rem /= r;
            if (with_rejects && (r & (r - 1)))
                w[nw++] = 0; /* low half 0 < 2^64 mod r: rejected */
            w[nw++] = word_for(digits[i], r);
        }
        want_words = nw;
        uint32_t a[8];
        for (size_t k = 0; k < n; k++)
            a[k] = (uint32_t)(k % faces);
        script s = {w, nw, 0, 0, {0}};
        fsh_fair_source src = {script_word, script_group, &s};
        if (fy(a, n, &src) != FSH_OK || s.pos != want_words)
            ok = 0;
        /* The scripted order must be the backward Fisher-Yates of digits. */
        uint32_t b[8];
        for (size_t k = 0; k < n; k++)
            b[k] = (uint32_t)(k % faces);
        for (size_t i = n; i-- > 1;) {
            uint32_t x = b[i];
            b[i] = b[digits[i]];
            b[digits[i]] = x;
        }
        if (!naive && memcmp(a, b, n * sizeof *a) != 0)
            ok = 0;
        count[rank_of(a, n, base)]++;
    }
    /* Distinct orders all equally often. */
    unsigned seen = 0;
    for (size_t c = 0; c < cells; c++) {
        if (!count[c])
            continue;
        if (!seen)
            seen = count[c];
        else if (count[c] != seen)
            ok = 0;
    }
    /* ... and every order reached: cells holding a valid multiset order. */
    size_t orders = 0, want_orders = 1;
    for (size_t c = 0; c < cells; c++)
        orders += count[c] != 0;
    for (size_t k = 2; k <= n; k++)
        want_orders *= k;
    for (size_t f = 0; f < faces; f++)
        for (size_t k = 2; k <= copies; k++)
            want_orders /= k;
    if (orders != want_orders)
        ok = 0;
    free(count);
    return ok;
}

static void test_enumeration(void)
{
    for (size_t n = 1; n <= 6; n++) {
        CHECK(enumerate(fsh_fair_shuffle, 0, n, 1, 0));
        CHECK(enumerate(fsh_fair_shuffle, 0, n, 1, 1));
    }
    CHECK(enumerate(fsh_fair_shuffle, 0, 2, 2, 1)); /* 4!/(2!2!) = 6 */
    CHECK(enumerate(fsh_fair_shuffle, 0, 3, 2, 1)); /* 90 */
    CHECK(enumerate(fsh_fair_shuffle, 0, 2, 3, 1)); /* 20 */
    /* The naive shuffle is caught from n = 3 on. */
    CHECK(!enumerate(naive_fy, 1, 3, 1, 0));
    CHECK(!enumerate(naive_fy, 1, 4, 1, 1));
}

/* ---- statistics of the real stream -------------------------------------- */

/* Upper tail of chi-square: each threshold below has P(X > t) = 2.5e-7 for
   its degrees of freedom (computed once with an incomplete gamma function;
   see docs/FAIRNESS.md), so the four checks of a correct implementation
   fail together with probability at most 1e-6 over the choice of seed.
   The seeds are fixed, so the result is deterministic. */
static double chi2(const unsigned *count, size_t cells, double expected)
{
    double x = 0;
    for (size_t c = 0; c < cells; c++) {
        double d = count[c] - expected;
        x += d * d / expected;
    }
    return x;
}

/* Deal `rounds` rounds of the set (faces, copies) with nonces 0.., the same
   seed and client; count the order (n <= 6) into count. fy NULL: the real
   fsh_fair_order; else that shuffle over the same stream. */
static void count_orders(unsigned *count, size_t faces, unsigned copies,
                         uint32_t rounds, fy_fn fy)
{
    uint8_t seed[32];
    for (int k = 0; k < 32; k++)
        seed[k] = (uint8_t)(0xa5 ^ k);
    size_t n = faces * copies;
    for (uint32_t nonce = 0; nonce < rounds; nonce++) {
        uint32_t d[8];
        if (!fy) {
            if (fsh_fair_order(d, faces, copies, seed, 32, "stats", 5, nonce)) {
                CHECK(0);
                return;
            }
        } else {
            fsh_fair_stream s;
            fsh_fair_source src;
            for (size_t k = 0; k < n; k++)
                d[k] = (uint32_t)(k % faces);
            fsh_fair_stream_init(&s, seed, 32, "stats", 5, nonce);
            CHECK_EQ(fy(d, n, fsh_fair_stream_source(&s, &src)), FSH_OK);
        }
        count[rank_of(d, n, faces)]++;
    }
}

static void test_statistics(void)
{
    /* 4 distinct cards: 24 orders, 120,000 rounds (5,000 each), df = 23. */
    static unsigned count[4096];
    memset(count, 0, sizeof count);
    count_orders(count, 4, 1, 120000, NULL);
    unsigned cells[24], nc = 0;
    for (size_t c = 0; c < 256; c++)
        if (count[c])
            cells[nc < 24 ? nc : 23] = count[c], nc++;
    CHECK_EQ(nc, 24);
    double x = chi2(cells, 24, 5000.0);
    CHECK(x < 74.398);
    printf("test_fair: 4 cards, 24 orders x 5000: chi2 = %.2f (df 23, limit 74.40)\n", x);

    /* 3 faces x 2 copies: 90 orders, 90,000 rounds, df = 89. */
    memset(count, 0, sizeof count);
    count_orders(count, 3, 2, 90000, NULL);
    static unsigned c90[90];
    nc = 0;
    for (size_t c = 0; c < 729; c++)
        if (count[c])
            c90[nc < 90 ? nc : 89] = count[c], nc++;
    CHECK_EQ(nc, 90);
    x = chi2(c90, 90, 1000.0);
    CHECK(x < 172.89);
    printf("test_fair: 3 faces x 2, 90 orders x 1000: chi2 = %.2f (df 89, limit 172.89)\n", x);

    /* 60 cards (two groups: steps 59..9 and 8..1): the first card dealt
       (group 0) and the last (group 1), 30,000 rounds, df = 59 each. */
    unsigned first[60] = {0}, last[60] = {0};
    uint8_t seed[35];
    for (int k = 0; k < 35; k++)
        seed[k] = (uint8_t)(3 * k + 1);
    for (uint32_t nonce = 0; nonce < 30000; nonce++) {
        uint32_t d[60];
        if (fsh_fair_order(d, 60, 1, seed, 35, "", 0, nonce) != FSH_OK) {
            CHECK(0);
            break;
        }
        first[d[0]]++;
        last[d[59]]++;
    }
    double xf = chi2(first, 60, 500.0), xl = chi2(last, 60, 500.0);
    CHECK(xf < 130.56);
    CHECK(xl < 130.56);
    printf("test_fair: 60 cards, first/last card x 500: chi2 = %.2f / %.2f (df 59, limit 130.56)\n",
           xf, xl);

    /* Known-bad: the naive shuffle on the same stream fails the first check
       (it gives 256 equally likely paths to 24 orders). */
    memset(count, 0, sizeof count);
    count_orders(count, 4, 1, 120000, naive_fy);
    nc = 0;
    for (size_t c = 0; c < 256; c++)
        if (count[c])
            cells[nc < 24 ? nc : 23] = count[c], nc++;
    x = chi2(cells, 24, 5000.0);
    CHECK(nc == 24 && x > 74.398);
    printf("test_fair: naive shuffle: chi2 = %.2f (caught: > 74.40)\n", x);
}

/* ---- bad arguments ------------------------------------------------------ */

static void test_bad_input(void)
{
    uint8_t seed[64] = {1};
    uint32_t d[64], keep[64];
    char client[300];
    memset(client, 'c', sizeof client);
    for (int k = 0; k < 64; k++)
        d[k] = keep[k] = 77;
    CHECK_EQ(fsh_fair_order(NULL, 52, 1, seed, 32, "", 0, 0), FSH_EINVAL);
    CHECK_EQ(fsh_fair_order(d, 52, 1, NULL, 32, "", 0, 0), FSH_EINVAL);
    CHECK_EQ(fsh_fair_order(d, 52, 1, seed, 32, NULL, 1, 0), FSH_EINVAL);
    CHECK_EQ(fsh_fair_order(d, 52, 1, seed, 32, client, 257, 0), FSH_EINVAL);
    CHECK_EQ(fsh_fair_order(d, 0, 1, seed, 32, "", 0, 0), FSH_EINVAL);
    CHECK_EQ(fsh_fair_order(d, 52, 0, seed, 32, "", 0, 0), FSH_EINVAL);
    CHECK_EQ(fsh_fair_order(d, ((size_t)1 << 32) + 1, 1, seed, 32, "", 0, 0),
             FSH_EINVAL);
    CHECK_EQ(fsh_fair_order(d, (size_t)1 << 32, UINT32_MAX, seed, 32, "", 0, 0),
             FSH_EINVAL);
    CHECK_EQ(fsh_fair_order(d, SIZE_MAX, 1, seed, 32, "", 0, 0), FSH_EINVAL);
    CHECK(memcmp(d, keep, sizeof d) == 0);
    /* Client seeds: NULL with length 0 is the empty one; 256 bytes is the
       longest. */
    uint32_t e[52];
    CHECK_EQ(fsh_fair_order(d, 52, 1, seed, 32, NULL, 0, 0), FSH_OK);
    CHECK_EQ(fsh_fair_order(e, 52, 1, seed, 32, "", 0, 0), FSH_OK);
    CHECK(memcmp(d, e, sizeof e) == 0);
    CHECK_EQ(fsh_fair_order(d, 52, 1, seed, 32, client, 256, 0), FSH_OK);
    CHECK(memcmp(d, e, sizeof e) != 0);
    /* The client seed is text (docs/FAIRNESS.md, "Inputs"): bytes that are
       no UTF-8 are refused as every verifier refuses them, before the seed
       rule, out unchanged; a NUL and a character of each length are text. */
    static const struct {
        const char *bytes;
        size_t len;
        int want;
    } text[] = {
        {"a\xff", 2, FSH_EINVAL},          {"Zo\xeb", 3, FSH_EINVAL},
        {"\xc0\xaf", 2, FSH_EINVAL},       /* overlong "/" */
        {"\xed\xa0\x80", 3, FSH_EINVAL},   /* a surrogate */
        {"\xf4\x90\x80\x80", 4, FSH_EINVAL}, /* past U+10FFFF */
        {"\xf0\x9f\x82", 3, FSH_EINVAL},   /* cut short */
        {"\x80", 1, FSH_EINVAL},           {"a\0b", 3, FSH_OK},
        {"Zo\xc3\xab \xf0\x9f\x82\xa1", 9, FSH_OK}, {"\xe4\xb8\xad", 3, FSH_OK},
    };
    for (size_t k = 0; k < sizeof text / sizeof text[0]; k++) {
        memcpy(d, e, sizeof e);
        CHECK_EQ(fsh_fair_order(d, 52, 1, seed, 32, text[k].bytes, text[k].len,
                                0),
                 text[k].want);
        if (text[k].want != FSH_OK)
            CHECK(memcmp(d, e, sizeof e) == 0);
        /* Before FSH_ESEED, as every bad argument. */
        CHECK_EQ(fsh_fair_order(d, 52, 1, seed, 31, text[k].bytes, text[k].len,
                                0),
                 text[k].want == FSH_OK ? FSH_ESEED : FSH_EINVAL);
    }
    /* Seed rule arguments. */
    size_t b = 5;
    CHECK_EQ(fsh_fair_seed_min(NULL, 52, 1), FSH_EINVAL);
    CHECK_EQ(fsh_fair_seed_min(&b, 0, 1), FSH_EINVAL);
    CHECK_EQ(fsh_fair_seed_min(&b, 52, 0), FSH_EINVAL);
    /* faces over 2^32, or n over SIZE_MAX / 4, called directly (not only
       through fsh_fair_order). */
    CHECK_EQ(fsh_fair_seed_min(&b, ((size_t)1 << 32) + 1, 1), FSH_EINVAL);
    CHECK_EQ(fsh_fair_seed_min(&b, SIZE_MAX, 1), FSH_EINVAL);
#if SIZE_MAX == UINT64_MAX
    CHECK_EQ(fsh_fair_seed_min(&b, (size_t)1 << 32, 1u << 30), FSH_EINVAL);
    CHECK_EQ(fsh_fair_seed_min(&b, (size_t)1 << 31, 1u << 31), FSH_EINVAL);
#endif
    CHECK_EQ(b, 5);
    /* 2^32 - 1 faces is allowed (2^32, one card past FSH_FAIR_CARDS_MAX,
       is not: it was): log2((2^32 - 1)!) = about 2^32 (32 - log2 e),
       1.3e11 bits, so about 1.6e10 bytes. */
#if SIZE_MAX == UINT64_MAX
    CHECK_EQ(fsh_fair_seed_min(&b, (size_t)1 << 32, 1), FSH_EINVAL);
    CHECK_EQ(b, 5);
    CHECK_EQ(fsh_fair_seed_min(&b, ((size_t)1 << 32) - 1, 1), FSH_OK);
    CHECK(b > (size_t)16400000000u && b < (size_t)16410000000u);
#endif
    /* Commitments. */
    char hex[65];
    CHECK_EQ(fsh_fair_commit(NULL, seed, 32), FSH_EINVAL);
    memset(hex, 'x', sizeof hex); /* unchanged on failure */
    CHECK_EQ(fsh_fair_commit(hex, NULL, 1), FSH_EINVAL);
    int untouched = 1;
    for (size_t t = 0; t < sizeof hex; t++)
        untouched &= hex[t] == 'x';
    CHECK(untouched);
    CHECK_EQ(fsh_fair_commit(hex, NULL, 0), FSH_OK);
    CHECK(strcmp(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855") == 0);
    CHECK_EQ(fsh_fair_commit(hex, (const uint8_t *)"abc", 3), FSH_OK);
    CHECK(strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad") == 0);
    /* Hex. */
    uint8_t out[4];
    size_t len = 99;
    CHECK_EQ(fsh_fair_hex_decode(out, 4, &len, " aB\n0f\t", 7), FSH_OK);
    CHECK(len == 2 && out[0] == 0xab && out[1] == 0x0f);
    CHECK_EQ(fsh_fair_hex_decode(NULL, 0, &len, "00112233445566", 14), FSH_OK);
    CHECK_EQ(len, 7);
    /* Every ASCII white space byte is ignored: space, \t, \n, \v, \f,
       \r. */
    len = 99;
    CHECK_EQ(fsh_fair_hex_decode(out, 4, &len, "\v1\f2 3\t4\r\n", 10),
             FSH_OK);
    CHECK(len == 2 && out[0] == 0x12 && out[1] == 0x34);
    len = 99;
    CHECK_EQ(fsh_fair_hex_decode(out, 4, &len, "abc", 3), FSH_EINVAL);
    CHECK_EQ(fsh_fair_hex_decode(out, 4, &len, "a b c", 5), FSH_EINVAL); /* odd */
    CHECK_EQ(fsh_fair_hex_decode(out, 4, &len, "zz", 2), FSH_EINVAL);
    CHECK_EQ(fsh_fair_hex_decode(out, 4, &len, "0x00", 4), FSH_EINVAL);
    CHECK_EQ(fsh_fair_hex_decode(out, 4, &len, "0011223344", 10), FSH_EINVAL);
    CHECK_EQ(fsh_fair_hex_decode(out, 4, NULL, "00", 2), FSH_EINVAL);
    CHECK_EQ(fsh_fair_hex_decode(out, 4, &len, NULL, 2), FSH_EINVAL);
    CHECK_EQ(len, 99);
    /* out is unchanged on failure (fsh_fair_order(3)): a bad digit, an odd
       count or too many bytes found after some were decoded. */
    static const char *const bad[] = {"0011zz", "0011223344", "001",
                                      "00 11 2"};
    for (size_t t = 0; t < sizeof bad / sizeof *bad; t++) {
        memset(out, 0xaa, sizeof out);
        CHECK_EQ(fsh_fair_hex_decode(out, 4, &len, bad[t], strlen(bad[t])),
                 FSH_EINVAL);
        CHECK(out[0] == 0xaa && out[1] == 0xaa && out[2] == 0xaa &&
              out[3] == 0xaa);
        CHECK_EQ(len, 99);
    }
    CHECK_EQ(fsh_fair_hex_decode(out, 4, &len, "", 0), FSH_OK);
    CHECK_EQ(len, 0);
    /* One face has one order: 32 bytes at once (lgammal's estimate, 0,
       sat on a byte boundary and sent every size to the quadratic bignum:
       100,000 copies took 13 s, a million about half an hour). */
    size_t need = 0;
    CHECK_EQ(fsh_fair_seed_min(&need, 1, 1000000000u), FSH_OK);
    CHECK_EQ(need, 32);
    uint32_t *ones = malloc(100000 * sizeof *ones);
    CHECK(ones != NULL);
    if (ones) {
        CHECK_EQ(fsh_fair_order(ones, 1, 100000, seed, 32, NULL, 0, 0),
                 FSH_OK);
        CHECK(ones[0] == 0 && ones[99999] == 0);
        free(ones);
    }
    /* A length near SIZE_MAX: ceil(len / 32) wrapped to 0 segments, then a
       division by zero (SIGFPE). 52 cards take one group, so only the
       first segment (the 32 bytes given) is read. */
    uint32_t o[52], o32[52];
    CHECK_EQ(fsh_fair_order(o, 52, 1, seed, SIZE_MAX - 20, NULL, 0, 0), FSH_OK);
    CHECK_EQ(fsh_fair_order(o32, 52, 1, seed, 32, NULL, 0, 0), FSH_OK);
    CHECK(memcmp(o, o32, sizeof o) == 0);
}

/* ---- the helper mode ---------------------------------------------------- */

static int order_main(int argc, char **argv)
{
    if (argc != 7)
        return 2;
    size_t faces = strtoul(argv[2], NULL, 10);
    unsigned copies = (unsigned)strtoul(argv[3], NULL, 10);
    size_t hexlen = strlen(argv[4]), len = 0;
    uint8_t *seed = malloc(hexlen / 2 + 1);
    uint32_t *d = malloc((faces * copies + 1) * sizeof *d);
    int st = fsh_fair_hex_decode(seed, hexlen / 2 + 1, &len, argv[4], hexlen);
    if (st == FSH_OK)
        st = fsh_fair_order(d, faces, copies, seed, len, argv[5],
                            strlen(argv[5]), strtoull(argv[6], NULL, 10));
    if (st != FSH_OK) {
        printf("error %d: %s\n", st, fsh_strerror(st));
    } else {
        for (size_t t = 0; t < faces * copies; t++)
            printf(t ? " %u" : "%u", d[t]);
        printf("\n");
    }
    free(seed);
    free(d);
    return 0;
}

/* test_fair reduce: for each "X R" line on standard input, "reject" or j
   (fsh_fair_reduce, proven exact above): the reference for the Python and
   browser reductions. */
static int reduce_main(void)
{
    unsigned long long x, r;
    uint64_t j;
    while (scanf("%llu %llu", &x, &r) == 2) {
        if (r == 0)
            return 2;
        if (fsh_fair_reduce(x, r, &j))
            printf("%llu\n", (unsigned long long)j);
        else
            printf("reject\n");
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "order") == 0)
        return order_main(argc, argv);
    if (argc > 1 && strcmp(argv[1], "reduce") == 0)
        return reduce_main();
    test_vectors();
    test_bounds();
    test_seed_rule();
    test_group_cut();
    test_group_limit();
    test_largest_set();
    test_reduce();
    test_enumeration();
    test_bad_input();
    test_statistics();
    return check_done("test_fair");
}
