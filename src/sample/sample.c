/* SPDX-License-Identifier: MIT */
/* Ordered k-of-n samples: sparse forward Fisher-Yates (fsh_rangeperm,
   fsh_sample_range). */
#include "uniform/uniform.h"

#include <stdlib.h>

/*
 * fsh_rangeperm is the forward Fisher-Yates shuffle of the identity array
 * 0..last, run one step per draw: step i picks j uniform in [i, last], swaps
 * a[i] and a[j] and hands out a[i]. Only positions that were touched differ
 * from the identity, so a hash map from position to value is enough
 * (Knuth TAOCP 3.4.2 exercise 12 notes the idea; the memory is O(draws)).
 * When the range is at most twice the expected number of draws a plain array
 * is smaller and faster; both storages follow the same steps and so give
 * the same output for the same draws.
 */

enum { DENSE_NONE = 0, DENSE_U32 = 1, DENSE_U64 = 2 };

struct fsh_rangeperm {
    uint64_t lo;    /* values handed out are lo + the positions' values */
    uint64_t last;  /* the permutation is of [0, last], last = hi - lo */
    uint64_t next;  /* position of the next draw */
    int done;       /* every position has been drawn */
    int dense;      /* DENSE_U32 / DENSE_U64: array storage */
    void *array;    /* dense: last + 1 values */
    /* Sparse: open addressing with linear probing, load at most 1/2. */
    uint64_t *keys;
    uint64_t *vals;
    unsigned char *used;
    size_t cap;     /* power of two (sparse) */
    size_t count;
    unsigned shift; /* 64 - log2(cap) */
    fsh_reach_state reach; /* the prefix's groups (hardware reseeds) */
};

static size_t slot_of(const fsh_rangeperm *p, uint64_t key)
{
    /* Fibonacci hashing: the multiply spreads consecutive positions. */
    return (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> p->shift);
}

static int table_alloc(fsh_rangeperm *p, size_t cap)
{
    uint64_t *k = malloc(cap * sizeof *k);
    uint64_t *v = malloc(cap * sizeof *v);
    unsigned char *u = calloc(cap, 1);
    if (k == NULL || v == NULL || u == NULL) {
        free(k);
        free(v);
        free(u);
        return FSH_ENOMEM;
    }
    p->keys = k;
    p->vals = v;
    p->used = u;
    p->cap = cap;
    unsigned bits = 0;
    while (((size_t)1 << bits) < cap)
        bits++;
    p->shift = 64 - bits;
    return FSH_OK;
}

/* Value at position key, or key itself when untouched. */
static uint64_t sparse_get(const fsh_rangeperm *p, uint64_t key)
{
    size_t mask = p->cap - 1, i = slot_of(p, key);
    while (p->used[i]) {
        if (p->keys[i] == key)
            return p->vals[i];
        i = (i + 1) & mask;
    }
    return key;
}

static void sparse_put_nogrow(fsh_rangeperm *p, uint64_t key, uint64_t val)
{
    size_t mask = p->cap - 1, i = slot_of(p, key);
    while (p->used[i]) {
        if (p->keys[i] == key) {
            p->vals[i] = val;
            return;
        }
        i = (i + 1) & mask;
    }
    p->used[i] = 1;
    p->keys[i] = key;
    p->vals[i] = val;
    p->count++;
}

/* Make room for extra more entries (load at most 1/2); on failure the
   table is unchanged. */
static int sparse_reserve(fsh_rangeperm *p, size_t extra)
{
    size_t cap = p->cap;
    while (cap / 2 - p->count < extra) {
        if (cap > SIZE_MAX / 2 / sizeof(uint64_t))
            return FSH_ENOMEM;
        cap *= 2;
    }
    if (cap == p->cap)
        return FSH_OK;
    fsh_rangeperm old = *p;
    int rc = table_alloc(p, cap);
    if (rc != FSH_OK)
        return rc;
    p->count = 0;
    for (size_t i = 0; i < old.cap; i++)
        if (old.used[i])
            sparse_put_nogrow(p, old.keys[i], old.vals[i]);
    free(old.keys);
    free(old.vals);
    free(old.used);
    return FSH_OK;
}

int fsh_rangeperm_new(fsh_rangeperm **out, uint64_t lo, uint64_t hi,
                      size_t hint)
{
    if (out == NULL)
        return FSH_EINVAL;
    *out = NULL;
    if (lo > hi)
        return FSH_EINVAL;
    uint64_t last = hi - lo;
    fsh_rangeperm *p = calloc(1, sizeof *p);
    if (p == NULL)
        return FSH_ENOMEM;
    p->lo = lo;
    p->last = last;
    fsh_reach_state_init(&p->reach);
    /* An array when the range is at most twice the expected draws: then it
       costs no more than the hash map would. */
    if (hint > 0 && last / 2 < (uint64_t)hint &&
        last < (uint64_t)(SIZE_MAX / sizeof(uint64_t))) {
        size_t n = (size_t)last + 1;
        if (last <= UINT32_MAX) {
            uint32_t *a = malloc(n * sizeof *a);
            if (a != NULL) {
                for (size_t i = 0; i < n; i++)
                    a[i] = (uint32_t)i;
                p->array = a;
                p->dense = DENSE_U32;
            }
        } else {
            uint64_t *a = malloc(n * sizeof *a);
            if (a != NULL) {
                for (size_t i = 0; i < n; i++)
                    a[i] = (uint64_t)i;
                p->array = a;
                p->dense = DENSE_U64;
            }
        }
        if (p->array != NULL) {
            *out = p;
            return FSH_OK;
        }
        /* Fall back to the map, which grows only as draws are made. */
    }
    size_t cap = 16;
    size_t want = hint < (SIZE_MAX >> 2) ? 2 * hint : SIZE_MAX >> 1;
    while (cap < want && cap < ((size_t)1 << 20))
        cap *= 2;
    int rc = table_alloc(p, cap);
    if (rc != FSH_OK) {
        free(p);
        return rc;
    }
    *out = p;
    return FSH_OK;
}

void fsh_rangeperm_free(fsh_rangeperm *perm)
{
    if (perm == NULL)
        return;
    free(perm->array);
    free(perm->keys);
    free(perm->vals);
    free(perm->used);
    free(perm);
}

uint64_t fsh_rangeperm_drawn(const fsh_rangeperm *perm)
{
    if (perm == NULL)
        return 0;
    if (perm->done) /* saturates for the full 2^64 range */
        return perm->last == UINT64_MAX ? UINT64_MAX : perm->last + 1;
    return perm->next;
}

int fsh_rangeperm_next_at(fsh_rangeperm *perm, uint64_t *out, uint64_t r)
{
    if (perm == NULL || out == NULL)
        return FSH_EINVAL;
    if (perm->done)
        return FSH_EEMPTY;
    uint64_t i = perm->next;
    if (r > perm->last - i)
        return FSH_EINVAL;
    uint64_t j = i + r, v;
    if (perm->dense == DENSE_U32) {
        uint32_t *a = perm->array;
        v = a[j];
        a[j] = a[i];
        a[i] = (uint32_t)v;
    } else if (perm->dense == DENSE_U64) {
        uint64_t *a = perm->array;
        v = a[j];
        a[j] = a[i];
        a[i] = v;
    } else {
        uint64_t vi = sparse_get(perm, i);
        if (j == i) {
            v = vi;
        } else {
            /* Position i is never read again, so only j needs storing. */
            int rc = sparse_reserve(perm, 1);
            if (rc != FSH_OK)
                return rc;
            v = sparse_get(perm, j);
            sparse_put_nogrow(perm, j, vi);
        }
    }
    *out = perm->lo + v;
    if (i == perm->last)
        perm->done = 1;
    else
        perm->next = i + 1;
    return FSH_OK;
}

/* One step with a draw from rng; the caller has made the checks. */
static int perm_step(fsh_rng *rng, fsh_rangeperm *perm, uint64_t *out)
{
    uint64_t r;
    int rc = fsh_uniform_range(rng, &r, 0, perm->last - perm->next);
    if (rc != FSH_OK)
        return rc;
    return fsh_rangeperm_next_at(perm, out, r);
}

int fsh_rangeperm_next(fsh_rng *rng, fsh_rangeperm *perm, uint64_t *out)
{
    if (rng == NULL || perm == NULL || out == NULL)
        return FSH_EINVAL;
    int rc = fsh_rng_ready(rng);
    if (rc != FSH_OK)
        return rc;
    if (perm->done)
        return FSH_EEMPTY;
    /* The ordered prefix drawn so far, this draw included; a mixing rng
       reseeds from hardware when this draw opens a new group. */
    rc = fsh_rng_reach_draw(rng, &perm->reach, perm->last, perm->next + 1);
    if (rc != FSH_OK)
        return rc;
    return perm_step(rng, perm, out);
}

int fsh_sample_range(fsh_rng *rng, uint64_t *out, size_t k, uint64_t lo,
                     uint64_t hi)
{
    if (rng == NULL || hi < lo || (out == NULL && k > 0))
        return FSH_EINVAL;
    uint64_t last = hi - lo;
    if (k > 0 && (uint64_t)(k - 1) > last)
        return FSH_EINVAL;
    int rc = fsh_rng_ready(rng);
    if (rc != FSH_OK || k == 0)
        return rc;
    /* The seed-size check of every ordered operation (k of n = last + 1 in
       order, as fsh_permutation for k = n), and the hardware plan. */
    uint64_t groups;
    if ((rc = fsh_rng_plan_ordered(rng, last, k, &groups)) != FSH_OK)
        return rc;
    fsh_rangeperm *p;
    rc = fsh_rangeperm_new(&p, lo, hi, k);
    /* All the storage the k steps need, and the hardware entropy, before
       the first is written: a failure then leaves out untouched. */
    if (rc == FSH_OK && p->array == NULL)
        rc = sparse_reserve(p, k);
    fsh_mix m;
    int mixing = 0;
    if (rc == FSH_OK && groups > 1) {
        rc = fsh_mix_prepare(rng, &m, groups);
        mixing = rc == FSH_OK;
    }
    for (size_t i = 0; rc == FSH_OK && i < k; i++) {
        if (mixing)
            fsh_mix_step(rng, &m, last - i);
        rc = perm_step(rng, p, &out[i]);
    }
    if (mixing)
        fsh_mix_done(&m);
    fsh_rangeperm_free(p);
    return rc;
}
