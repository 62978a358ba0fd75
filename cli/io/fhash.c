/* SPDX-License-Identifier: MIT */
/* Content hash of the bytes external mode reads (xxHash64-like). */
#include "io/fhash.h"

#include <string.h>

/* External mode reads its input twice; both reads must see the same bytes.
   A 64-bit hash of every byte read (xxHash64's lane round over four lanes,
   then a final mix of the lanes, the tail and the length) tells an
   unchanged file from a changed one whatever the read sizes were. It is no
   defence against someone choosing a collision, only against accidents. */
#define H_P1 UINT64_C(11400714785074694791)
#define H_P2 UINT64_C(14029467366897019727)
#define H_P4 UINT64_C(9650029242287828579)
#define H_P5 UINT64_C(2870177450012600261)


static uint64_t rotl64(uint64_t x, unsigned r)
{
    return x << r | x >> (64 - r);
}

static uint64_t load64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static uint64_t hround(uint64_t acc, uint64_t w)
{
    return rotl64(acc + w * H_P2, 31) * H_P1;
}

void fhash_init(fhash *h)
{
    memset(h, 0, sizeof *h);
    h->v[0] = H_P1 + H_P2;
    h->v[1] = H_P2;
    h->v[3] = 0 - H_P1;
}

/* Whole 32-byte stripes p[0..n), n a multiple of 32. */
static void fhash_stripes(fhash *h, const unsigned char *p, size_t n)
{
    uint64_t v0 = h->v[0], v1 = h->v[1], v2 = h->v[2], v3 = h->v[3];
    for (; n >= 32; p += 32, n -= 32) {
        v0 = hround(v0, load64(p));
        v1 = hround(v1, load64(p + 8));
        v2 = hround(v2, load64(p + 16));
        v3 = hround(v3, load64(p + 24));
    }
    h->v[0] = v0;
    h->v[1] = v1;
    h->v[2] = v2;
    h->v[3] = v3;
}

void fhash_update(fhash *h, const void *data, size_t n)
{
    const unsigned char *p = data;
    h->total += n;
    if (h->tlen > 0) {
        size_t take = 32 - h->tlen < n ? 32 - h->tlen : n;
        memcpy(h->tail + h->tlen, p, take);
        h->tlen += take;
        p += take;
        n -= take;
        if (h->tlen < 32)
            return;
        fhash_stripes(h, h->tail, 32);
        h->tlen = 0;
    }
    size_t whole = n & ~(size_t)31;
    fhash_stripes(h, p, whole);
    memcpy(h->tail, p + whole, n - whole);
    h->tlen = n - whole;
}

uint64_t fhash_final(const fhash *h)
{
    uint64_t r = h->total * H_P5;
    for (int i = 0; i < 4; i++)
        r = rotl64(r ^ hround(0, h->v[i]), 27) * H_P1 + H_P4;
    size_t i = 0;
    for (; i + 8 <= h->tlen; i += 8)
        r = rotl64(r ^ hround(0, load64(h->tail + i)), 27) * H_P1 + H_P4;
    for (; i < h->tlen; i++)
        r = rotl64(r ^ h->tail[i] * H_P5, 11) * H_P1;
    r ^= r >> 33;
    r *= H_P2;
    r ^= r >> 29;
    return r ^ r >> 32;
}

