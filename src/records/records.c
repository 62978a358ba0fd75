/* SPDX-License-Identifier: MIT */
/* The keyed record permutation (fairshuf.h, "Record shuffles by key"): the
 * bucket (Rao-Sandelius) scatter that defines fairshuf's permutation of
 * more than FSH_RECORDS_SMALL records, whole in memory or a group at a time.
 *
 * Permutation of n > FSH_RECORDS_SMALL records for a 256-bit key:
 *   bits = fsh_records_bits(n), B = 2^bits buckets;
 *   record i goes to bucket (w_i >> (64 - bits)), where w_i is word i of
 *   ChaCha20(key, stream 0, counter 0), read as little-endian 64-bit words;
 *   the records of bucket b, in input order, are shuffled (fsh_shuffle)
 *   with ChaCha20(key, stream b + 1, counter 0);
 *   the buckets are concatenated in order b = 0, 1, ..., B - 1.
 * Uniform: the bucket ids are independent and uniform, so the multiset of
 * records landing in each bucket is a uniform random split; given that
 * split, each bucket's order is uniform and independent of the others'.
 * Given the sizes, an output order fixes the split (its first s_0 records
 * went to bucket 0, ...), so every order of n records has probability
 * P(sizes) / C(n; s_0, ..., s_B-1) / prod(s_b!) = P(sizes) / n!, summed
 * over sizes: 1/n!. The argument is in docs/DESIGN.md.
 *
 * The stable scatter runs in parts: part t's records are counted per bucket
 * (hist), the counts give each (bucket, part) its first output slot, and
 * each part then places its records in input order. Any number of parts
 * gives the same output, so the thread count never changes it.
 */
#include "common/tasks.h"
#include "rng/chacha.h"
#include "rng/rng.h"
#include "shuffle/shuffle.h"

#include <sodium.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

unsigned fsh_records_bits(uint64_t n)
{
    if (n <= FSH_RECORDS_SMALL)
        return 0;
    /* About 2^16 records per bucket: small enough for cache-resident
       shuffles, few enough buckets for a few hundred temporary files. */
    uint64_t want = (n >> 16) + ((n & 0xffff) != 0); /* no overflow */
    unsigned bits = 1;
    while (bits < FSH_RECORDS_MAX_BITS && ((uint64_t)1 << bits) < want)
        bits++;
    return bits;
}

int fsh_records_buckets(const uint8_t key[32], uint32_t *out, size_t count,
                        unsigned bits, uint64_t first)
{
    if (key == NULL || bits == 0 || bits > FSH_RECORDS_MAX_BITS ||
        (out == NULL && count > 0))
        return FSH_EINVAL;
    uint32_t k[8];
    fsh_chacha_key(k, key);
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

/* Shuffle bucket id's n records at base with ChaCha20(key, id + 1, 0). */
static int bucket_shuffle(const uint8_t key[32], uint64_t id, void *base,
                          size_t n, size_t size)
{
    if (n < 2)
        return FSH_OK;
    fsh_rng rng;
    fsh_rng_stack_chacha(&rng, 20, key, id + 1);
    int rc = fsh_shuffle(&rng, base, n, size);
    fsh_rng_stack_wipe(&rng);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* The parallel stable scatter and the per-bucket shuffles                  */

#define ID_CHUNK 16384 /* bucket ids computed per step, on the stack */

typedef struct scat {
    /* Bucket ids: computed from key (bits) for records first.., or given
       (ids, minus lo). */
    const uint8_t *key;
    unsigned bits;
    const uint32_t *ids;
    uint32_t lo;
    size_t nb, parts, n, size;
    unsigned char *src; /* the records; the result goes back here */
    unsigned char *dst;
    size_t *hist;  /* parts x nb: counts, then each part's next slots */
    size_t *start; /* nb + 1: bucket b is dst[start[b] .. start[b+1]) */
    atomic_int rc;
} scat;

static void scat_range(const scat *s, size_t t, size_t *lo, size_t *hi)
{
    *lo = s->n / s->parts * t + (t < s->n % s->parts ? t : s->n % s->parts);
    *hi = *lo + s->n / s->parts + (t < s->n % s->parts);
}

/* Bucket ids (minus lo) of records i .. i + m - 1, m <= ID_CHUNK: in buf,
   or the caller's array. NULL on a bad id or key (rc set). */
static const uint32_t *scat_ids(scat *s, size_t i, size_t m, uint32_t *buf)
{
    if (s->ids == NULL) {
        if (fsh_records_buckets(s->key, buf, m, s->bits, i) != FSH_OK) {
            atomic_store(&s->rc, FSH_EINVAL);
            return NULL;
        }
        return buf;
    }
    for (size_t j = 0; j < m; j++) {
        uint32_t b = s->ids[i + j] - s->lo;
        if (b >= s->nb) {
            atomic_store(&s->rc, FSH_EINVAL);
            return NULL;
        }
        buf[j] = b;
    }
    return buf;
}

/* What a part does with one chunk of its records: records i .. i + m - 1,
   their bucket ids and the part's row h of the histogram. */
typedef void scat_chunk_fn(scat *s, size_t *h, size_t i, size_t m,
                           const uint32_t *ids);

/* Walk part t's records in chunks of at most ID_CHUNK, in input order,
   computing their bucket ids once per chunk; stops at a bad id. */
static void scat_walk(scat *s, size_t t, scat_chunk_fn *fn)
{
    size_t lo, hi, *h = s->hist + t * s->nb;
    uint32_t buf[ID_CHUNK];
    scat_range(s, t, &lo, &hi);
    for (size_t i = lo; i < hi; i += ID_CHUNK) {
        size_t m = hi - i < ID_CHUNK ? hi - i : ID_CHUNK;
        const uint32_t *ids = scat_ids(s, i, m, buf);
        if (ids == NULL)
            return;
        fn(s, h, i, m, ids);
    }
}

static void count_chunk(scat *s, size_t *h, size_t i, size_t m,
                        const uint32_t *ids)
{
    (void)s;
    (void)i;
    for (size_t j = 0; j < m; j++)
        h[ids[j]]++;
}

/* Stable: within a bucket, records keep their input order. */
static void place_chunk(scat *s, size_t *h, size_t i, size_t m,
                        const uint32_t *ids)
{
    size_t size = s->size;
    const unsigned char *a = s->src + i * size;
    unsigned char *d = s->dst;
    switch (size) {
    case 4:
        for (size_t j = 0; j < m; j++)
            memcpy(d + 4 * h[ids[j]]++, a + 4 * j, 4);
        break;
    case 8:
        for (size_t j = 0; j < m; j++)
            memcpy(d + 8 * h[ids[j]]++, a + 8 * j, 8);
        break;
    default:
        for (size_t j = 0; j < m; j++)
            memcpy(d + size * h[ids[j]]++, a + size * j, size);
        break;
    }
}

static void scat_count(void *ctx, size_t t)
{
    scat_walk(ctx, t, count_chunk);
}

static void scat_place(void *ctx, size_t t)
{
    scat_walk(ctx, t, place_chunk);
}

static void scat_shuffle(void *ctx, size_t b)
{
    scat *s = ctx;
    int rc = bucket_shuffle(s->key, (uint64_t)s->lo + b,
                            s->dst + s->start[b] * s->size,
                            s->start[b + 1] - s->start[b], s->size);
    if (rc != FSH_OK)
        atomic_store(&s->rc, rc);
}

/* Scatter src[0..n) stably by bucket into a copy, shuffle each bucket and
   copy the result to src: the stretch of the record permutation for
   buckets lo .. lo + nb - 1. On failure src is unchanged. */
static int scatter_shuffle(scat *s, unsigned threads)
{
    threads = fsh_threads_resolve(threads);
    s->parts = threads;
    while (s->parts > 1 && (s->parts * s->nb > ((size_t)1 << 23) ||
                            s->n / s->parts < ID_CHUNK))
        s->parts--;
    atomic_init(&s->rc, FSH_OK);
    s->dst = malloc(s->n * s->size);
    s->hist = calloc(s->parts * s->nb, sizeof *s->hist);
    s->start = malloc((s->nb + 1) * sizeof *s->start);
    int rc = FSH_ENOMEM;
    if (s->dst == NULL || s->hist == NULL || s->start == NULL)
        goto out;
    fsh_tasks count = {"records: count", scat_count, s->parts};
    fsh_tasks_run(&count, s, threads);
    if ((rc = atomic_load(&s->rc)) != FSH_OK)
        goto out;
    size_t run = 0;
    for (size_t b = 0; b < s->nb; b++) {
        s->start[b] = run;
        for (size_t t = 0; t < s->parts; t++) {
            size_t c = s->hist[t * s->nb + b];
            s->hist[t * s->nb + b] = run;
            run += c;
        }
    }
    s->start[s->nb] = run;
    fsh_tasks place = {"records: place", scat_place, s->parts};
    fsh_tasks_run(&place, s, threads);
    fsh_tasks shuffle = {"records: shuffle buckets", scat_shuffle, s->nb};
    fsh_tasks_run(&shuffle, s, threads);
    if ((rc = atomic_load(&s->rc)) == FSH_OK)
        memcpy(s->src, s->dst, s->n * s->size);
out:
    free(s->dst);
    free(s->hist);
    free(s->start);
    return rc;
}

int fsh_shuffle_records(fsh_rng *rng, void *base, size_t n, size_t size,
                        unsigned threads)
{
    if ((uint64_t)n <= FSH_RECORDS_SMALL ||
        (rng != NULL && fsh_shuffle_one_stream(rng, n)))
        return fsh_shuffle(rng, base, n, size);
    int done, rc = fsh_shuffle_check(rng, base, n, size, &done);
    if (done)
        return rc;
    uint8_t key[32];
    if ((rc = fsh_rng_bytes(rng, key, sizeof key)) != FSH_OK)
        return rc;
    scat s;
    memset(&s, 0, sizeof s);
    s.key = key;
    s.bits = fsh_records_bits(n);
    s.nb = (size_t)1 << s.bits;
    s.n = n;
    s.size = size;
    s.src = base;
    rc = scatter_shuffle(&s, threads);
    sodium_memzero(key, sizeof key);
    /* A fork during the call: again from the child's key, or fail (as
       fsh_shuffle). */
    int f = rc == FSH_OK ? fsh_rng_forked_during(rng) : FSH_OK;
    if (f < 0)
        return f;
    return f > 0 ? fsh_shuffle_records(rng, base, n, size, threads) : rc;
}

/* A group smaller than its bucket range (n < nb): the records' order by
   (bucket, input position) from a two-pass radix sort of their positions
   (12 bits of the bucket id a pass, stable), in place of the histogram's
   nb counts, then each nonempty bucket's shuffle. The same output as
   scatter_shuffle, in memory proportional to n, not nb. */
#define RADIX_BITS 12
_Static_assert(2 * RADIX_BITS >= FSH_RECORDS_MAX_BITS,
               "two radix passes cover a bucket id");

static void radix_pass(const scat *s, const uint32_t *from, uint32_t *to,
                       unsigned shift)
{
    size_t cnt[(size_t)1 << RADIX_BITS] = {0};
    const uint32_t mask = ((uint32_t)1 << RADIX_BITS) - 1;
    for (size_t j = 0; j < s->n; j++)
        cnt[((s->ids[from ? from[j] : j] - s->lo) >> shift) & mask]++;
    for (size_t d = 0, run = 0; d <= mask; d++) {
        size_t c = cnt[d];
        cnt[d] = run;
        run += c;
    }
    for (size_t j = 0; j < s->n; j++) {
        uint32_t i = from ? from[j] : (uint32_t)j;
        to[cnt[((s->ids[i] - s->lo) >> shift) & mask]++] = i;
    }
}

static int sparse_shuffle(const scat *s)
{
    /* n < nb <= 2^24: positions fit 32 bits. */
    uint32_t *ord = malloc(s->n * sizeof *ord);
    uint32_t *tmp = malloc(s->n * sizeof *tmp);
    unsigned char *dst = malloc(s->n * s->size);
    int rc = FSH_ENOMEM;
    if (ord == NULL || tmp == NULL || dst == NULL)
        goto out;
    rc = FSH_EINVAL;
    for (size_t i = 0; i < s->n; i++)
        if (s->ids[i] - s->lo >= s->nb)
            goto out;
    radix_pass(s, NULL, tmp, 0);
    radix_pass(s, tmp, ord, RADIX_BITS);
    for (size_t j = 0; j < s->n; j++)
        memcpy(dst + j * s->size, s->src + (size_t)ord[j] * s->size, s->size);
    rc = FSH_OK;
    for (size_t j = 0, end; j < s->n && rc == FSH_OK; j = end) {
        uint32_t b = s->ids[ord[j]];
        for (end = j + 1; end < s->n && s->ids[ord[end]] == b; end++)
            ;
        rc = bucket_shuffle(s->key, b, dst + j * s->size, end - j, s->size);
    }
    if (rc == FSH_OK)
        memcpy(s->src, dst, s->n * s->size);
out:
    free(ord);
    free(tmp);
    free(dst);
    return rc;
}

int fsh_records_shuffle_group(const uint8_t key[32], void *base, size_t n,
                              size_t size, const uint32_t *ids, uint32_t lo,
                              uint32_t nb, unsigned threads)
{
    const uint32_t max = (uint32_t)1 << FSH_RECORDS_MAX_BITS;
    if (key == NULL || size == 0 || nb == 0 || nb > max || lo > max - nb ||
        (n > 0 && (base == NULL || ids == NULL)) ||
        n > (size_t)PTRDIFF_MAX / size) /* as fsh_shuffle */
        return FSH_EINVAL;
    if (n == 0)
        return FSH_OK;
    scat s;
    memset(&s, 0, sizeof s);
    s.key = key;
    s.ids = ids;
    s.lo = lo;
    s.nb = nb;
    s.n = n;
    s.size = size;
    s.src = base;
    return n < nb ? sparse_shuffle(&s) : scatter_shuffle(&s, threads);
}
