/* The permutation of n records, defined by n and the rng alone (so not by
 * --memory, temporary files or --threads):
 * - n <= FSH_FILESHUF_SMALL: backward Fisher-Yates with the run's rng;
 * - larger: fsh_fileshuf_* (bucket ids from ChaCha20 stream 0, bucket b
 *   shuffled with stream b + 1), the key being the rng's next 32 bytes.
 * In memory the whole array is permuted here; external mode uses the
 * pieces (perm_keyed, perm_key, perm_group). This file is the rule's one
 * home in the command.
 */
#include "shuf/perm.h"

#include "common/msg.h"
#include "common/xalloc.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct pool {
    void (*fn)(void *ctx, size_t i);
    void *ctx;
    size_t n;
    atomic_size_t next;
} pool;

static void *worker(void *arg)
{
    pool *p = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&p->next, 1);
        if (i >= p->n)
            break;
        p->fn(p->ctx, i);
    }
    return NULL;
}

static void parallel_for(unsigned threads, size_t n,
                         void (*fn)(void *ctx, size_t i), void *ctx)
{
    pool p;
    p.fn = fn;
    p.ctx = ctx;
    p.n = n;
    atomic_init(&p.next, 0);
    size_t t = threads < n ? threads : n;
    pthread_t tid[16];
    size_t started = 0;
    for (; t > 1 && started < t - 1; started++)
        if (pthread_create(&tid[started], NULL, worker, &p) != 0)
            break;
    worker(&p);
    for (size_t i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
}


#define ID_CHUNK 16384

typedef struct scat {
    const uint8_t *key;
    unsigned bits;
    size_t nb, parts, n, size;
    const unsigned char *src;
    unsigned char *dst;
    size_t *hist;  /* parts x nb: counts, then running positions */
    size_t *start; /* nb + 1 */
    int rc;
} scat;

static void scat_range(const scat *s, size_t t, size_t *lo, size_t *hi)
{
    *lo = s->n / s->parts * t + (t < s->n % s->parts ? t : s->n % s->parts);
    *hi = *lo + s->n / s->parts + (t < s->n % s->parts);
}

static void scat_count(void *ctx, size_t t)
{
    scat *s = ctx;
    size_t lo, hi, *h = s->hist + t * s->nb;
    uint32_t ids[ID_CHUNK];
    scat_range(s, t, &lo, &hi);
    for (size_t i = lo; i < hi; i += ID_CHUNK) {
        size_t m = hi - i < ID_CHUNK ? hi - i : ID_CHUNK;
        if (fsh_fileshuf_buckets(s->key, s->bits, i, ids, m) != FSH_OK)
            s->rc = FSH_EINVAL;
        for (size_t j = 0; j < m; j++)
            h[ids[j]]++;
    }
}

static void scat_place(void *ctx, size_t t)
{
    scat *s = ctx;
    size_t lo, hi, *h = s->hist + t * s->nb;
    uint32_t ids[ID_CHUNK];
    scat_range(s, t, &lo, &hi);
    for (size_t i = lo; i < hi; i += ID_CHUNK) {
        size_t m = hi - i < ID_CHUNK ? hi - i : ID_CHUNK;
        if (fsh_fileshuf_buckets(s->key, s->bits, i, ids, m) != FSH_OK)
            s->rc = FSH_EINVAL;
        if (s->size == 4) {
            const uint32_t *a = (const uint32_t *)(const void *)s->src + i;
            uint32_t *d = (uint32_t *)(void *)s->dst;
            for (size_t j = 0; j < m; j++)
                d[h[ids[j]]++] = a[j];
        } else {
            const uint64_t *a = (const uint64_t *)(const void *)s->src + i;
            uint64_t *d = (uint64_t *)(void *)s->dst;
            for (size_t j = 0; j < m; j++)
                d[h[ids[j]]++] = a[j];
        }
    }
}

static void scat_shuffle(void *ctx, size_t b)
{
    scat *s = ctx;
    int rc = fsh_fileshuf_bucket(s->key, b, s->dst + s->start[b] * s->size,
                                 s->start[b + 1] - s->start[b], s->size);
    if (rc != FSH_OK)
        s->rc = rc;
}

static void *scatter_perm(const uint8_t key[32], void *a, size_t n,
                          size_t size, unsigned threads)
{
    scat s;
    memset(&s, 0, sizeof s);
    s.key = key;
    s.bits = fsh_fileshuf_bits(n);
    s.nb = (size_t)1 << s.bits;
    s.n = n;
    s.size = size;
    /* Deterministic whatever the split: stable placement per part. */
    s.parts = threads;
    while (s.parts > 1 && (s.parts * s.nb > ((size_t)1 << 23) ||
                           n / s.parts < ID_CHUNK))
        s.parts--;
    s.src = a;
    s.dst = xmalloc(n * size);
    s.hist = calloc(s.parts * s.nb, sizeof *s.hist);
    s.start = xmalloc((s.nb + 1) * sizeof *s.start);
    if (s.hist == NULL)
        xalloc_die();
    parallel_for(threads, s.parts, scat_count, &s);
    size_t run = 0;
    for (size_t b = 0; b < s.nb; b++) {
        s.start[b] = run;
        for (size_t t = 0; t < s.parts; t++) {
            size_t c = s.hist[t * s.nb + b];
            s.hist[t * s.nb + b] = run;
            run += c;
        }
    }
    s.start[s.nb] = run;
    parallel_for(threads, s.parts, scat_place, &s);
    free(a);
    free(s.hist);
    parallel_for(threads, s.nb, scat_shuffle, &s);
    free(s.start);
    check_status(s.rc);
    return s.dst;
}

/* ------------------------------------------------------------------------ */
/* The rule                                                                 */

int perm_keyed(uint64_t n)
{
    return n > FSH_FILESHUF_SMALL;
}

void perm_key(lazy_rng *r, uint8_t key[32])
{
    check_status(fsh_rng_bytes(lazy_get(r), key, 32));
}

void *perm_records(lazy_rng *r, void *a, size_t n, size_t size,
                   unsigned threads)
{
    if (n < 2)
        return a; /* nothing to draw: no rng, so no OS entropy needed */
    if (!perm_keyed(n)) {
        check_status(fsh_shuffle(lazy_get(r), a, n, size));
        return a;
    }
    uint8_t key[32];
    perm_key(r, key);
    return scatter_perm(key, a, n, size, threads);
}

typedef struct gjob {
    const uint8_t *key;
    size_t *off;
    size_t *start;
    uint32_t lo;
    int rc;
} gjob;

static void group_bucket(void *ctx, size_t b)
{
    gjob *j = ctx;
    int rc = fsh_fileshuf_bucket(j->key, j->lo + b, j->off + j->start[b],
                                 j->start[b + 1] - j->start[b], sizeof(size_t));
    if (rc != FSH_OK)
        j->rc = rc;
}

size_t *perm_group(const uint8_t key[32], size_t *off, size_t n,
                   const uint32_t *ids, uint32_t lo, size_t nb,
                   unsigned threads)
{
    size_t *ord = xmalloc((n ? n : 1) * sizeof *ord);
    gjob j;
    j.key = key;
    j.lo = lo;
    j.start = xmalloc((nb + 1) * sizeof *j.start);
    check_status(fsh_fileshuf_scatter(ids, lo, nb, off, ord, n, sizeof *off,
                                      j.start));
    j.off = ord;
    j.rc = FSH_OK;
    parallel_for(threads, nb, group_bucket, &j);
    check_status(j.rc);
    free(j.start);
    free(off);
    return ord;
}
