/* Chunk shuffle and merge over caller buffers: the bucket (Rao-Sandelius)
 * scatter shuffle that defines fairshuf's permutation of large inputs, in
 * pieces a caller can run in memory, over temporary files, or in threads.
 *
 * Permutation of n > FSH_FILESHUF_SMALL records for a 256-bit key:
 *   bits = fsh_fileshuf_bits(n), B = 2^bits buckets;
 *   record i goes to bucket (w_i >> (64 - bits)), where w_i is word i of
 *   ChaCha20(key, stream 0, counter 0), read as little-endian 64-bit words;
 *   the records of bucket b, in input order, are Fisher-Yates shuffled
 *   (fsh_shuffle) with ChaCha20(key, stream b + 1, counter 0);
 *   the buckets are concatenated in order b = 0, 1, ..., B - 1.
 * Uniform: the bucket ids are independent and uniform, so the multiset of
 * records landing in each bucket is a uniform random split; given that
 * split, each bucket's Fisher-Yates order is uniform and independent of the
 * others'. Given the sizes, an output order fixes the split (its first s_0 records went to
 * bucket 0, ...), so every order of n records has probability
 * P(sizes) / C(n; s_0, ..., s_B-1) / prod(s_b!) = P(sizes) / n!, summed
 * over sizes: 1/n!. The argument is in docs/DESIGN.md (CLI section).
 * The library does no I/O: callers feed records and write them out.
 */
#include "internal.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

unsigned fsh_fileshuf_bits(uint64_t n)
{
    if (n <= FSH_FILESHUF_SMALL)
        return 0;
    /* About 2^16 records per bucket: small enough for cache-resident
       shuffles, few enough buckets for a few hundred temporary files. */
    uint64_t want = (n + (((uint64_t)1 << 16) - 1)) >> 16;
    unsigned bits = 1;
    while (bits < FSH_FILESHUF_MAX_BITS && ((uint64_t)1 << bits) < want)
        bits++;
    return bits;
}

int fsh_fileshuf_buckets(const uint8_t key[32], unsigned bits, uint64_t first,
                         uint32_t *out, size_t count)
{
    if (key == NULL || bits == 0 || bits > FSH_FILESHUF_MAX_BITS ||
        (out == NULL && count > 0))
        return FSH_EINVAL;
    uint32_t k[8];
    for (int i = 0; i < 8; i++)
        k[i] = (uint32_t)key[4 * i] | (uint32_t)key[4 * i + 1] << 8 |
               (uint32_t)key[4 * i + 2] << 16 | (uint32_t)key[4 * i + 3] << 24;
    enum { BLOCKS = 32 };
    uint64_t w[8 * BLOCKS];
    uint64_t counter = first / 8;
    size_t skip = (size_t)(first % 8);
    unsigned shift = 64 - bits;
    while (count > 0) {
        fsh_chacha_blocks(k, counter, 0, 20, w, BLOCKS);
        counter += BLOCKS;
        size_t avail = 8 * BLOCKS - skip;
        size_t take = count < avail ? count : avail;
        for (size_t i = 0; i < take; i++)
            out[i] = (uint32_t)(w[skip + i] >> shift);
        out += take;
        count -= take;
        skip = 0;
    }
    sodium_memzero(w, sizeof w);
    sodium_memzero(k, sizeof k);
    return FSH_OK;
}

int fsh_fileshuf_bucket(const uint8_t key[32], uint64_t id, void *base,
                        size_t n, size_t size)
{
    if (key == NULL || id == UINT64_MAX)
        return FSH_EINVAL;
    if (n < 2)
        return base == NULL && n > 0 ? FSH_EINVAL : FSH_OK;
    fsh_rng rng;
    memset(&rng, 0, sizeof rng);
    int rc = fsh_rng_chacha(&rng, 20, key, id + 1, 0);
    if (rc == FSH_OK)
        rc = fsh_shuffle(&rng, base, n, size);
    sodium_memzero(&rng, sizeof rng);
    return rc;
}

int fsh_fileshuf_scatter(const uint32_t *bucket, uint32_t lo, size_t nb,
                         const void *src, void *dst, size_t n, size_t size,
                         size_t *start)
{
    if (nb == 0 || size == 0 || start == NULL ||
        (n > 0 && (bucket == NULL || src == NULL || dst == NULL)))
        return FSH_EINVAL;
    for (size_t b = 0; b <= nb; b++)
        start[b] = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t b = bucket[i] - lo;
        if (b >= nb)
            return FSH_EINVAL;
        start[b + 1]++;
    }
    for (size_t b = 0; b < nb; b++)
        start[b + 1] += start[b];
    /* Stable: within a bucket, records keep their input order. start[b]
       runs ahead while filling and is restored afterwards. */
    const unsigned char *s = src;
    unsigned char *d = dst;
    switch (size) {
    case 4:
        for (size_t i = 0; i < n; i++) {
            uint32_t v;
            memcpy(&v, s + 4 * i, 4);
            memcpy(d + 4 * start[bucket[i] - lo]++, &v, 4);
        }
        break;
    case 8:
        for (size_t i = 0; i < n; i++) {
            uint64_t v;
            memcpy(&v, s + 8 * i, 8);
            memcpy(d + 8 * start[bucket[i] - lo]++, &v, 8);
        }
        break;
    default:
        for (size_t i = 0; i < n; i++)
            memcpy(d + size * start[bucket[i] - lo]++, s + size * i, size);
        break;
    }
    for (size_t b = nb; b > 0; b--)
        start[b] = start[b - 1];
    start[0] = 0;
    return FSH_OK;
}
