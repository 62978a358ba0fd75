/* SPDX-License-Identifier: MIT */
/* Provably fair rounds: the commit-reveal deal stream "fairshuf-deal-v1".
   The byte-level specification, the argument that every bit of the server
   seed counts, and the test vectors are in docs/FAIRNESS.md, "Provably fair
   rounds"; examples/verify_deal.py and web/verify.html implement the same
   text independently. Uses libsodium for SHA-256 and HMAC-SHA-256. */
#include "common/wide.h"
#include "fair/fair.h"
#include "../../shared/utf8.h"

#include <math.h>
#include <sodium.h>
#include <stdlib.h>

static const char fair_domain[16] = {'f', 'a', 'i', 'r', 's', 'h', 'u', 'f',
                                     '-', 'd', 'e', 'a', 'l', '-', 'v', '1'};

/* ---- the seed rule ------------------------------------------------------ */

/* The set's arguments: faces and copies >= 1, n = faces * copies at most
   FSH_FAIR_CARDS_MAX (2^32 - 1, the card sets' limit: every verifier
   rebuilds the whole order, and a larger set was no game any of them, or
   any fsh_deck, could hold), and at most SIZE_MAX / 4 (out is an array of
   n uint32_t); and the stream's group numbers, u32be(g), enough for the
   n - 1 steps (past group 2^32 - 1 they would wrap to 0 and the stream
   repeat group 0's words; every n up to 7 * 2^32 + 1 fits, so no set
   under the card limit comes near it: kept as the stream's own guard). */
FSH_HIDDEN int fsh_fair_set_check(size_t faces, unsigned copies, size_t *n)
{
    if (faces == 0 || copies == 0 ||
        (uint64_t)faces > FSH_FAIR_CARDS_MAX / copies)
        return FSH_EINVAL;
    if (faces > (SIZE_MAX / 4) / copies)
        return FSH_EINVAL;
    if (!fsh_fair_groups_fit(faces * copies, FSH_FAIR_GROUPS))
        return FSH_EINVAL;
    *n = faces * copies;
    return FSH_OK;
}

FSH_HIDDEN uint64_t fsh_fair_groups(size_t n, uint64_t stop)
{
    uint64_t prod[4] = {1, 0, 0, 0}, g = 1;
    for (size_t i = n; i-- > 1 && g <= stop;) {
        uint64_t r = (uint64_t)i + 1;
        if (!fsh_fair_prod_mul(prod, r)) { /* the cut of fsh_fair_shuffle */
            g++;
            prod[0] = r;
            prod[1] = prod[2] = prod[3] = 0;
        }
    }
    return g;
}

/* Bounds first. Every range is below 2^b (b = the bit length of n), so any
   floor(256 / b) steps fit in one group: a group closes only after at
   least that many, and the n - 1 steps make at most
   (n - 2) / floor(256 / b) + 1 groups (for max = 2^32: every n up to
   7 * 2^32 + 1). The groups' products, each below 2^256, multiply to n!,
   so there are more than log2(n!) / 256 of them; n! >= sqrt(2 pi n)
   (n/e)^n, with a relative margin of 1e-12 and one bit for rounding (for
   max = 2^32: every n from about 3.3e10 on). In between, the walk. */
FSH_HIDDEN int fsh_fair_groups_fit(size_t n, uint64_t max)
{
    if (max == 0)
        return 0; /* group 0 is always there */
    if (n <= 2)
        return 1;
    uint64_t steps = (uint64_t)n - 1;
    unsigned b = 64 - (unsigned)__builtin_clzll((unsigned long long)n);
    if ((steps - 1) / (256 / b) + 1 <= max)
        return 1;
    double lb = fsh_log2_factorial_lb((double)n);
    if (lb - lb * 1e-12 - 1 > 256.0 * (double)max)
        return 0;
    return fsh_fair_groups(n, max) <= max;
}

/* Exact ceil(log2 N), N = n! / (c!)^m, with a little bignum of 32-bit limbs:
   N = 1 * 2 * ... * n, then divided by 2..c, m times (every partial
   quotient n! / ((c!)^j * k!) is an integer, a multinomial times a
   factorial). ceil(log2 N) = bit length of N - 1 (0 for N = 1). */
static int exact_bits(uint64_t *bits, size_t faces, unsigned copies, size_t n)
{
    /* log2(n!) <= n * log2(n) bits. */
    double est = (double)n * (log2((double)n) + 1.0) + 64.0;
    size_t cap = (size_t)(est / 32.0) + 2, used = 1;
    uint32_t *w = calloc(cap, sizeof *w);
    if (!w)
        return FSH_ENOMEM;
    w[0] = 1;
    for (uint64_t k = 2; k <= n; k++) {
        uint64_t carry = 0;
        for (size_t t = 0; t < used; t++) {
            uint64_t p = (uint64_t)w[t] * k + carry;
            w[t] = (uint32_t)p;
            carry = p >> 32;
        }
        while (carry) {
            w[used++] = (uint32_t)carry;
            carry >>= 32;
        }
    }
    for (size_t f = 0; f < faces; f++) {
        for (uint64_t k = 2; k <= copies; k++) {
            uint64_t rem = 0;
            for (size_t t = used; t-- > 0;) {
                uint64_t cur = (rem << 32) | w[t];
                w[t] = (uint32_t)(cur / k);
                rem = cur % k;
            }
            while (used > 1 && w[used - 1] == 0)
                used--;
        }
    }
    /* N - 1, then its bit length. */
    for (size_t t = 0; t < used; t++) {
        if (w[t]--)
            break;
    }
    while (used > 1 && w[used - 1] == 0)
        used--;
    uint64_t b = 0;
    if (w[used - 1]) {
        uint32_t top = w[used - 1];
        b = (uint64_t)(used - 1) * 32;
        while (top) {
            b++;
            top >>= 1;
        }
    }
    sodium_memzero(w, cap * sizeof *w); /* nothing secret; keeps valgrind quiet */
    free(w);
    *bits = b;
    return FSH_OK;
}

#ifdef FSH_HAVE_U128
/* A positive number M 2^e with M in [2^127, 2^128), for bounds on N. */
typedef struct {
    fsh_u128 m;
    int64_t e;
} fair_fp;

/* *x = w2:w1:w0 (192 bits, at least 2^127) times 2^e, rounded to 128 bits
   down, or up (up = 1) when any bit is dropped or sticky says some
   already were. */
static void fp_round(fair_fp *x, uint64_t w2, uint64_t w1, uint64_t w0,
                     int64_t e, int sticky, int up)
{
    unsigned s = w2 ? 64 - (unsigned)__builtin_clzll(w2) : 0;
    fsh_u128 m;
    if (s == 0) {
        m = (fsh_u128)w1 << 64 | w0;
    } else if (s == 64) {
        m = (fsh_u128)w2 << 64 | w1;
        sticky |= w0 != 0;
    } else {
        m = ((fsh_u128)w2 << 64 | w1) << (64 - s) | w0 >> s;
        sticky |= (w0 << (64 - s)) != 0;
    }
    x->e = e + (int64_t)s;
    if (up && sticky && ++m == 0) {
        m = (fsh_u128)1 << 127;
        x->e++;
    }
    x->m = m;
}

/* *x *= k (k >= 1), rounded down or up. */
static void fp_mul(fair_fp *x, uint64_t k, int up)
{
    fsh_u128 p0 = (fsh_u128)(uint64_t)x->m * k,
             p1 = (fsh_u128)(uint64_t)(x->m >> 64) * k;
    fsh_u128 mid = (p0 >> 64) + (uint64_t)p1;
    fp_round(x, (uint64_t)(p1 >> 64) + (uint64_t)(mid >> 64), (uint64_t)mid,
             (uint64_t)p0, x->e, 0, up);
}

/* *x /= k (k >= 1): M 2^64 / k by long division, times 2^(e - 64). */
static void fp_div(fair_fp *x, uint64_t k, int up)
{
    uint64_t a1 = (uint64_t)(x->m >> 64), q2 = a1 / k, r = a1 % k;
    fsh_u128 cur = (fsh_u128)r << 64 | (uint64_t)x->m;
    uint64_t q1 = (uint64_t)(cur / k);
    cur = (fsh_u128)(uint64_t)(cur % k) << 64;
    uint64_t q0 = (uint64_t)(cur / k);
    fp_round(x, q2, q1, q0, x->e - 64, cur % k != 0, up);
}

FSH_HIDDEN void fsh_fair_bounds(size_t faces, unsigned copies, size_t n,
                                fsh_u128 *lo_m, int64_t *lo_e, fsh_u128 *hi_m,
                                int64_t *hi_e)
{
    fair_fp lo = {(fsh_u128)1 << 127, -127}, hi = lo;
    for (uint64_t k = 2; k <= n; k++) {
        fp_mul(&lo, k, 0);
        fp_mul(&hi, k, 1);
    }
    for (size_t f = 0; f < faces; f++)
        for (uint64_t k = 2; k <= copies; k++) {
            fp_div(&lo, k, 0);
            fp_div(&hi, k, 1);
        }
    *lo_m = lo.m;
    *lo_e = lo.e;
    *hi_m = hi.m;
    *hi_e = hi.e;
}
#endif

/* ceil(log2 N), N = n! / (c!)^m, for m >= 2 faces and n >= 3 (so
   c <= n/2) in O(n): bounds lo <= N <= hi in 128-bit floating point, every
   product and quotient rounded outwards (each a relative 2^-127; there
   are at most 2n, so hi/lo is below 1 + 4n 2^-127). N is not a power of two: a prime p in
   (n/2, n] (Bertrand) is odd for n >= 3 and divides n! once but not c!,
   c <= n/2. So ceil(log2 N) = floor(log2 N) + 1, known when lo and hi have
   the same exponent: 1 and *bits; 0 when they straddle a power of two
   (then only the bignum can tell), or without 128-bit integers. */
FSH_HIDDEN int fsh_fair_bits_interval(uint64_t *bits, size_t faces,
                                      unsigned copies, size_t n)
{
#ifdef FSH_HAVE_U128
    fsh_u128 lo_m, hi_m;
    int64_t lo_e, hi_e;
    fsh_fair_bounds(faces, copies, n, &lo_m, &lo_e, &hi_m, &hi_e);
    if (lo_e != hi_e)
        return 0;
    *bits = (uint64_t)(lo_e + 128);
    return 1;
#else
    (void)bits, (void)faces, (void)copies, (void)n;
    return 0;
#endif
}

FSH_HIDDEN int fsh_fair_bits_exact(uint64_t *bits, size_t faces,
                                   unsigned copies, size_t n)
{
    return exact_bits(bits, faces, copies, n);
}

/* Sets of up to this many cards are counted exactly with the bignum (fast
   at this size); larger ones by lgammal, whose error stays far below 1e-6
   bits for any set that fits in memory, falling back to the exact count
   only when the estimate is within 1e-6 bits of a byte boundary (where it
   could round either way): the O(n) bounds of fsh_fair_bits_interval,
   and the bignum only if they straddle a power of two. (The bignum is
   O(n^2 log n): 54 faces x 84,198 copies, 1.2e-7 bits under a byte
   boundary, took hours; the bounds take under a second.) */
#define FAIR_EXACT_MAX 2048

/* fsh_fair_seed_min for a set that passed fsh_fair_set_check. */
static int seed_min(size_t *bytes, size_t faces, unsigned copies, size_t n)
{
    uint64_t bits;
    if (faces == 1) {
        bits = 0; /* one order: lgammal's estimate would sit exactly on a
                     byte boundary and send any size to the bignum */
    } else if (n <= FAIR_EXACT_MAX) {
        int st = exact_bits(&bits, faces, copies, n);
        if (st != FSH_OK)
            return st;
    } else {
        long double ln =
            fsh_ln_factorial((long double)n) -
            (long double)faces * fsh_ln_factorial((long double)copies);
        long double lb = ln / 0.693147180559945309417232121458176568L;
        long double q = lb / 8.0L, fl = floorl(q);
        if (q - fl < 1e-6L / 8.0L || fl + 1.0L - q < 1e-6L / 8.0L) {
            if (!fsh_fair_bits_interval(&bits, faces, copies, n)) {
                int st = exact_bits(&bits, faces, copies, n);
                if (st != FSH_OK)
                    return st;
            }
        } else {
            bits = (uint64_t)(fl + 1.0L) * 8; /* ceil(lb / 8) bytes */
        }
    }
    uint64_t b = (bits + 7) / 8;
    if (b < FSH_FAIR_SEED_MIN)
        b = FSH_FAIR_SEED_MIN;
    if (b > SIZE_MAX)
        return FSH_EINVAL;
    *bytes = (size_t)b;
    return FSH_OK;
}

int fsh_fair_seed_min(size_t *bytes, size_t faces, unsigned copies)
{
    size_t n;
    if (!bytes || fsh_fair_set_check(faces, copies, &n) != FSH_OK)
        return FSH_EINVAL;
    return seed_min(bytes, faces, copies, n);
}

/* ---- commitment and hex ------------------------------------------------- */

int fsh_fair_commit(char hex[FSH_FAIR_COMMIT_LEN], const uint8_t *seed,
                    size_t len)
{
    static const char digits[] = "0123456789abcdef";
    unsigned char h[crypto_hash_sha256_BYTES];
    if (!hex || (!seed && len > 0))
        return FSH_EINVAL;
    /* No sodium_init(): SHA-256 needs none, and it reads the OS random
       source, aborting the process when that is gone (src/rng/seed.c). */
    crypto_hash_sha256(h, len ? seed : (const uint8_t *)"", len);
    for (size_t k = 0; k < sizeof h; k++) {
        hex[2 * k] = digits[h[k] >> 4];
        hex[2 * k + 1] = digits[h[k] & 15];
    }
    hex[64] = '\0';
    return FSH_OK;
}

static int hexval(unsigned char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

int fsh_fair_hex_decode(uint8_t *out, size_t cap, size_t *len,
                        const char *text, size_t text_len)
{
    size_t digits = 0;
    if (!len || (!text && text_len > 0))
        return FSH_EINVAL;
    /* Check everything first: out is left unchanged on failure. */
    for (size_t t = 0; t < text_len; t++) {
        unsigned char ch = (unsigned char)text[t];
        if (ch == ' ' || (ch >= '\t' && ch <= '\r'))
            continue;
        if (hexval(ch) < 0)
            return FSH_EINVAL;
        digits++;
    }
    if (digits % 2 || (out && digits / 2 > cap))
        return FSH_EINVAL;
    if (out) {
        size_t k = 0;
        int hi = -1;
        for (size_t t = 0; t < text_len; t++) {
            int v = hexval((unsigned char)text[t]);
            if (v < 0)
                continue; /* a blank */
            if (hi < 0) {
                hi = v;
            } else {
                out[k++] = (uint8_t)(hi << 4 | v);
                hi = -1;
            }
        }
    }
    *len = digits / 2;
    return FSH_OK;
}

/* ---- the stream --------------------------------------------------------- */

static void put_be(unsigned char *p, uint64_t v, int bytes)
{
    for (int k = bytes - 1; k >= 0; k--) {
        p[k] = (unsigned char)v;
        v >>= 8;
    }
}

static uint64_t get_be64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int k = 0; k < 8; k++)
        v = v << 8 | p[k];
    return v;
}

/* Start group g: key = its segment, message prefix up to u32be(g). */
static void stream_group(fsh_fair_stream *s, uint32_t g)
{
    size_t seg = g % s->segments, off = seg * 32;
    size_t klen = s->len - off < 32 ? s->len - off : 32;
    unsigned char b[12];
    crypto_auth_hmacsha256_init(&s->prefix, s->seed + off, klen);
    crypto_auth_hmacsha256_update(&s->prefix, (const unsigned char *)fair_domain,
                                  sizeof fair_domain);
    put_be(b, s->client_len, 4);
    crypto_auth_hmacsha256_update(&s->prefix, b, 4);
    if (s->client_len)
        crypto_auth_hmacsha256_update(&s->prefix, s->client, s->client_len);
    put_be(b, s->nonce, 8);
    put_be(b + 8, g, 4);
    crypto_auth_hmacsha256_update(&s->prefix, b, 12);
    s->group = g;
    s->block = 0;
    s->used = 4; /* no word buffered */
}

void fsh_fair_stream_init(fsh_fair_stream *s, const uint8_t *seed, size_t len,
                          const void *client, size_t client_len,
                          uint64_t nonce)
{
    s->seed = seed;
    s->len = len;
    s->segments = len / 32 + (len % 32 != 0); /* (len + 31) / 32 wraps */
    s->client = client;
    s->client_len = client_len;
    s->nonce = nonce;
    s->words = 0;
    stream_group(s, 0);
}

int fsh_fair_stream_next_group(fsh_fair_stream *s)
{
    if (s->group == UINT32_MAX)
        return FSH_EINVAL; /* u32be(g) would wrap to group 0 */
    stream_group(s, s->group + 1);
    return FSH_OK;
}

void fsh_fair_stream_seek(fsh_fair_stream *s, uint32_t g)
{
    stream_group(s, g);
}

uint64_t fsh_fair_stream_word(fsh_fair_stream *s)
{
    if (s->used == 4) {
        crypto_auth_hmacsha256_state st = s->prefix;
        unsigned char b[8];
        put_be(b, s->block, 8);
        crypto_auth_hmacsha256_update(&st, b, 8);
        crypto_auth_hmacsha256_final(&st, s->out);
        sodium_memzero(&st, sizeof st);
        s->block++;
        s->used = 0;
    }
    s->words++;
    return get_be64(s->out + 8 * s->used++);
}

void fsh_fair_stream_wipe(fsh_fair_stream *s)
{
    sodium_memzero(s, sizeof *s);
}

int fsh_fair_reduce(uint64_t x, uint64_t r, uint64_t *j)
{
    uint64_t lo, hi = fsh_mul128(x, r, &lo);
    if (lo < (0 - r) % r) /* 2^64 mod r */
        return 0;
    *j = hi;
    return 1;
}

int fsh_fair_prod_mul(uint64_t prod[4], uint64_t r)
{
    uint64_t res[4], carry = 0;
    for (int k = 0; k < 4; k++) {
        uint64_t lo, hi = fsh_mul128(prod[k], r, &lo);
        res[k] = lo + carry;
        carry = hi + (res[k] < lo);
    }
    if (carry)
        return 0;
    memcpy(prod, res, sizeof res);
    return 1;
}

int fsh_fair_shuffle(uint32_t *a, size_t n, const fsh_fair_source *src)
{
    uint64_t prod[4] = {1, 0, 0, 0};
    for (size_t i = n; i-- > 1;) {
        uint64_t r = (uint64_t)i + 1, j;
        if (!fsh_fair_prod_mul(prod, r)) {
            int rc = src->next_group(src->ctx);
            if (rc != FSH_OK)
                return rc;
            prod[0] = r;
            prod[1] = prod[2] = prod[3] = 0;
        }
        while (!fsh_fair_reduce(src->word(src->ctx), r, &j))
            ;
        uint32_t x = a[i];
        a[i] = a[j];
        a[j] = x;
    }
    return FSH_OK;
}

static uint64_t src_word(void *ctx)
{
    return fsh_fair_stream_word(ctx);
}

static int src_next_group(void *ctx)
{
    return fsh_fair_stream_next_group(ctx);
}

const fsh_fair_source *fsh_fair_stream_source(fsh_fair_stream *s,
                                              fsh_fair_source *src)
{
    src->word = src_word;
    src->next_group = src_next_group;
    src->ctx = s;
    return src;
}

/* The client seed is text (docs/FAIRNESS.md, "Inputs"): well-formed UTF-8,
   a NUL included, as every verifier takes it; other bytes could be checked
   by none of them. */
static int client_is_text(const unsigned char *c, size_t len)
{
    for (size_t k = 0; k < len;) {
        unsigned step = utf8_char_len(c + k, len - k);
        if (step == 0)
            return 0;
        k += step;
    }
    return 1;
}

int fsh_fair_order(uint32_t *out, size_t faces, unsigned copies,
                   const uint8_t *seed, size_t len, const void *client,
                   size_t client_len, uint64_t nonce)
{
    size_t n, need;
    if (!out || !seed || (!client && client_len > 0) ||
        client_len > FSH_FAIR_CLIENT_MAX ||
        !client_is_text(client, client_len) ||
        fsh_fair_set_check(faces, copies, &n) != FSH_OK)
        return FSH_EINVAL;
    int st = seed_min(&need, faces, copies, n);
    if (st != FSH_OK)
        return st;
    if (len < need)
        return FSH_ESEED;
    /* No sodium_init(), as fsh_fair_commit: HMAC-SHA-256 needs none. */
    /* Canonical order, shuffled in place, then reversed into deal order. */
    for (size_t k = 0, f = 0; k < n; k++) {
        out[k] = (uint32_t)f;
        if (++f == faces)
            f = 0;
    }
    fsh_fair_stream s;
    fsh_fair_stream_init(&s, seed, len, client, client_len, nonce);
    fsh_fair_source src;
    /* The stream cannot refuse a group: fsh_fair_set_check counted them. */
    st = fsh_fair_shuffle(out, n, fsh_fair_stream_source(&s, &src));
    fsh_fair_stream_wipe(&s);
    if (st != FSH_OK)
        return st;
    for (size_t lo = 0, hi = n - 1; lo < hi; lo++, hi--) {
        uint32_t x = out[lo];
        out[lo] = out[hi];
        out[hi] = x;
    }
    return FSH_OK;
}
