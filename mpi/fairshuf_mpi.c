/* SPDX-License-Identifier: MIT */
/* fsh_mpi_shuffle: fairshuf's record permutation of records spread over
 * MPI ranks (include/fairshuf_mpi.h; docs/DESIGN.md, "Distributed
 * shuffle").
 *
 * N records in all, record i (global index, in rank order) on some rank:
 * - N <= FSH_RECORDS_SMALL: every rank (or rank 0, without a generator)
 *   computes the permutation of 0..N-1 that fsh_shuffle gives, so each
 *   record's output position is known; records go straight to the rank
 *   owning that position (one exchange).
 * - larger N: key = the generator's next 32 bytes; record i's bucket id
 *   comes from ChaCha20(key) and i (fsh_records_buckets); rank r owns the
 *   buckets [r B / P, (r + 1) B / P); records go to their bucket's owner,
 *   which receives them by source rank, so in global input order within
 *   each bucket, and shuffles its buckets with their own streams
 *   (fsh_records_shuffle_group): the ranks' stretches in rank order are
 *   the single-machine permutation. The rebalancing then moves records by
 *   global position so each rank holds its original count again.
 * Messages carry at most m->chunk bytes (default 1 GiB), so per-pair
 * volumes beyond MPI's int counts work; every allocation and check ends in
 * an all-rank agreement, so a failure on one rank never leaves the others
 * waiting in a collective.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_DEFAULT ((size_t)1 << 30)

int fshm_open(fshm *m, MPI_Comm comm)
{
    memset(m, 0, sizeof *m);
    m->comm = MPI_COMM_NULL;
    /* MPI_Initialized stays true after MPI_Finalize, when any other call
       (MPI_Comm_dup) aborts the process: refuse both states. */
    int init = 0, fin = 1;
    if (MPI_Initialized(&init) != MPI_SUCCESS || !init ||
        MPI_Finalized(&fin) != MPI_SUCCESS || fin || comm == MPI_COMM_NULL)
        return FSH_EINVAL;
    /* An intercommunicator has two groups and no in-place reductions:
       every rank of it gets the same answer here, without a collective. */
    int inter = 1;
    if (MPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter)
        return FSH_EINVAL;
    if (MPI_Comm_dup(comm, &m->comm) != MPI_SUCCESS) {
        m->comm = MPI_COMM_NULL;
        return FSH_MPI_ECOMM;
    }
    if (MPI_Comm_set_errhandler(m->comm, MPI_ERRORS_RETURN) != MPI_SUCCESS ||
        MPI_Comm_rank(m->comm, &m->rank) != MPI_SUCCESS ||
        MPI_Comm_size(m->comm, &m->np) != MPI_SUCCESS) {
        fshm_close(m);
        return FSH_MPI_ECOMM;
    }
    m->chunk = CHUNK_DEFAULT;
    /* Test knob: a small limit exercises the chunked exchange. */
    const char *c = getenv("FSH_MPI_TEST_CHUNK");
    if (c != NULL && *c != '\0') {
        char *e;
        unsigned long long v = strtoull(c, &e, 10);
        if (*e == '\0' && v > 0 && v <= CHUNK_DEFAULT)
            m->chunk = (size_t)v;
    }
    return FSH_OK;
}

void fshm_close(fshm *m)
{
    if (m->comm != MPI_COMM_NULL)
        (void)MPI_Comm_free(&m->comm);
    m->comm = MPI_COMM_NULL;
}

int fshm_agree(fshm *m, int rc)
{
    int v = rc;
    if (MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MIN, m->comm) !=
        MPI_SUCCESS)
        return FSH_MPI_ECOMM;
    return v;
}

int fshm_same(fshm *m, uint64_t v, int *rc)
{
    uint64_t a[2] = {v, ~v};
    if (MPI_Allreduce(MPI_IN_PLACE, a, 2, MPI_UINT64_T, MPI_MAX, m->comm) !=
        MPI_SUCCESS)
        return *rc = FSH_MPI_ECOMM;
    /* Both maxima equal to this rank's: v is also the minimum. */
    int same = a[0] == v && a[1] == ~v;
    return *rc = same ? FSH_OK : FSH_MPI_EMISMATCH;
}

uint64_t fshm_digest(const void *p, size_t n, uint64_t h)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

void fshm_recs_free(fshm_recs *r)
{
    if (r->owned) {
        free(r->data);
        free(r->len);
    }
    free(r->order);
    memset(r, 0, sizeof *r);
}

static uint64_t rec_len(const fshm_recs *r, size_t i)
{
    return r->size ? r->size : r->len[i];
}

uint64_t *fshm_offsets(const fshm_recs *r)
{
    uint64_t *o = malloc((r->n + 1) * sizeof *o);
    if (o == NULL)
        return NULL;
    uint64_t at = 0;
    for (size_t i = 0; i < r->n; i++) {
        o[i] = at;
        at += rec_len(r, i);
    }
    o[r->n] = at;
    return o;
}

int fshm_apply(fshm_recs *r, const uint64_t *idx)
{
    if (r->n == 0)
        return FSH_OK;
    unsigned char *d = malloc(r->bytes ? (size_t)r->bytes : 1);
    uint64_t *len = NULL, *off = NULL;
    if (d == NULL)
        return FSH_ENOMEM;
    if (r->size) {
        for (size_t i = 0; i < r->n; i++)
            memcpy(d + i * r->size, r->data + idx[i] * r->size, r->size);
    } else {
        len = malloc(r->n * sizeof *len);
        off = fshm_offsets(r);
        if (len == NULL || off == NULL) {
            free(d);
            free(len);
            free(off);
            return FSH_ENOMEM;
        }
        uint64_t at = 0;
        for (size_t i = 0; i < r->n; i++) {
            len[i] = r->len[idx[i]];
            memcpy(d + at, r->data + off[idx[i]], (size_t)len[i]);
            at += len[i];
        }
        free(off);
    }
    if (r->owned) {
        free(r->data);
        free(r->len);
    }
    r->data = d;
    if (!r->size)
        r->len = len;
    r->owned = 1;
    return FSH_OK;
}

/* ------------------------------------------------------------------------ */
/* The exchange                                                             */

typedef int (*dest_fn)(void *ctx, size_t i, uint32_t tag);

typedef struct reqs {
    MPI_Request *r;
    size_t n, cap;
} reqs;

static int reqs_add(reqs *q)
{
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 64;
        MPI_Request *r = realloc(q->r, cap * sizeof *r);
        if (r == NULL)
            return FSH_ENOMEM;
        q->r = r;
        q->cap = cap;
    }
    q->n++;
    return FSH_OK;
}

/* Post the sends or receives of n bytes at p with peer, in chunks. */
static int post(fshm *m, reqs *q, int send, void *p, uint64_t n, int peer,
                int tag)
{
    unsigned char *b = p;
    while (n > 0) {
        size_t c = n < m->chunk ? (size_t)n : m->chunk;
        if (reqs_add(q) != FSH_OK)
            return FSH_ENOMEM;
        int rc = send ? MPI_Isend(b, (int)c, MPI_BYTE, peer, tag, m->comm,
                                  &q->r[q->n - 1])
                      : MPI_Irecv(b, (int)c, MPI_BYTE, peer, tag, m->comm,
                                  &q->r[q->n - 1]);
        if (rc != MPI_SUCCESS) {
            q->n--;
            return FSH_MPI_ECOMM;
        }
        b += c;
        n -= c;
    }
    return FSH_OK;
}

/* Send record i of in (with tags[i] when tags) to rank dest(i); out gets
   what this rank receives, by source rank, each source's records in their
   order (and otags their tags). Stable: the order within a source is
   kept. An owned in is consumed: its arrays are freed once packed, so the
   input, the send buffer and the receive buffer never coexist. */
static int route(fshm *m, fshm_recs *in, const uint32_t *tags,
                 dest_fn dest, void *dctx, fshm_recs *out, uint32_t **otags,
                 uint64_t *sent_recs, uint64_t *sent_bytes, uint64_t *from)
{
    int P = m->np, var = in->size == 0, rc = FSH_OK;
    size_t np = (size_t)P;
    uint64_t *cnt = calloc(4 * np, sizeof *cnt); /* send recs, bytes; recv */
    uint64_t *soff = calloc(2 * np + 2, sizeof *soff);
    uint64_t *roff = calloc(2 * np + 2, sizeof *roff);
    unsigned char *sbuf = NULL;
    uint32_t *stag = NULL, *rtag = NULL;
    uint64_t *slen = NULL;
    reqs q = {NULL, 0, 0};
    memset(out, 0, sizeof *out);
    out->size = in->size;
    out->owned = 1;
    out->lazy = in->lazy;
    if (otags)
        *otags = NULL;
    if (cnt == NULL || soff == NULL || roff == NULL)
        rc = FSH_ENOMEM;
    for (size_t i = 0; rc == FSH_OK && i < in->n; i++) {
        int d = dest(dctx, i, tags ? tags[i] : 0);
        cnt[2 * d]++;
        cnt[2 * d + 1] += rec_len(in, i);
    }
    /* Everything stays here (P = 1, or a lucky split) and in is ours:
       hand its arrays over instead of copying them twice. */
    int stay = rc == FSH_OK && in->owned && cnt[2 * m->rank] == in->n;
    if (fshm_agree(m, stay ? 1 : 0) == 1 && in->owned) {
        /* (every rank agreed: 1 is the minimum only if all had 1) */
        *out = *in;
        in->data = NULL;
        in->len = NULL;
        in->owned = 0;
        if (otags) {
            *otags = malloc((in->n ? in->n : 1) * sizeof **otags);
            if (*otags != NULL && tags)
                memcpy(*otags, tags, in->n * sizeof **otags);
            rc = *otags != NULL ? FSH_OK : FSH_ENOMEM;
        }
        *sent_recs = *sent_bytes = 0;
        if (from) {
            memset(from, 0, np * sizeof *from);
            from[m->rank] = out->n;
        }
        rc = fshm_agree(m, rc);
        goto out;
    }
    if (rc == FSH_OK) {
        sbuf = malloc(in->bytes ? (size_t)in->bytes : 1);
        stag = tags ? malloc((in->n ? in->n : 1) * sizeof *stag) : NULL;
        slen = var ? malloc((in->n ? in->n : 1) * sizeof *slen) : NULL;
        if (sbuf == NULL || (tags && stag == NULL) || (var && slen == NULL))
            rc = FSH_ENOMEM;
    }
    if (rc == FSH_OK) {
        /* soff[2d]: first record slot of d, soff[2d+1]: first byte. */
        uint64_t r = 0, b = 0;
        for (size_t d = 0; d < np; d++) {
            soff[2 * d] = r;
            soff[2 * d + 1] = b;
            r += cnt[2 * d];
            b += cnt[2 * d + 1];
        }
        uint64_t *next = roff; /* scratch for now */
        memcpy(next, soff, 2 * np * sizeof *next);
        uint64_t at = 0;
        for (size_t i = 0; i < in->n; i++) {
            int d = dest(dctx, i, tags ? tags[i] : 0);
            uint64_t l = rec_len(in, i);
            memcpy(sbuf + next[2 * d + 1], in->data + at, (size_t)l);
            if (stag)
                stag[next[2 * d]] = tags[i];
            if (slen)
                slen[next[2 * d]] = l;
            next[2 * d]++;
            next[2 * d + 1] += l;
            at += l;
        }
        if (in->owned) {
            free(in->data);
            free(in->len);
            in->data = NULL;
            in->len = NULL;
            in->owned = 0;
        }
    }
    if ((rc = fshm_agree(m, rc)) != FSH_OK)
        goto out;
    if (MPI_Alltoall(cnt, 2, MPI_UINT64_T, cnt + 2 * np, 2, MPI_UINT64_T,
                     m->comm) != MPI_SUCCESS) {
        rc = FSH_MPI_ECOMM;
        goto out;
    }
    {
        uint64_t r = 0, b = 0;
        for (size_t s = 0; s < np; s++) {
            roff[2 * s] = r;
            roff[2 * s + 1] = b;
            if (from)
                from[s] = cnt[2 * np + 2 * s];
            r += cnt[2 * np + 2 * s];
            b += cnt[2 * np + 2 * s + 1];
        }
        out->n = (size_t)r;
        out->bytes = b;
        out->data = malloc(b ? (size_t)b : 1);
        if (otags)
            *otags = rtag = malloc((r ? (size_t)r : 1) * sizeof *rtag);
        if (var)
            out->len = malloc((r ? (size_t)r : 1) * sizeof *out->len);
        if (out->data == NULL || (otags && rtag == NULL) ||
            (var && out->len == NULL))
            rc = FSH_ENOMEM;
    }
    if ((rc = fshm_agree(m, rc)) != FSH_OK)
        goto out;
    *sent_recs = *sent_bytes = 0;
    for (size_t p = 0; p < np && rc == FSH_OK; p++) {
        uint64_t rr = cnt[2 * np + 2 * p], rb = cnt[2 * np + 2 * p + 1];
        uint64_t sr = cnt[2 * p], sb = cnt[2 * p + 1];
        if ((int)p == m->rank) {
            memcpy(out->data + roff[2 * p + 1], sbuf + soff[2 * p + 1],
                   (size_t)sb);
            if (rtag)
                memcpy(rtag + roff[2 * p], stag + soff[2 * p],
                       (size_t)sr * sizeof *rtag);
            if (var)
                memcpy(out->len + roff[2 * p], slen + soff[2 * p],
                       (size_t)sr * sizeof *slen);
            continue;
        }
        *sent_recs += sr;
        *sent_bytes += sb + (stag ? 4 * sr : 0) + (var ? 8 * sr : 0);
        int pp = (int)p;
        if (rc == FSH_OK)
            rc = post(m, &q, 0, out->data + roff[2 * p + 1], rb, pp, 1);
        if (rc == FSH_OK && rtag)
            rc = post(m, &q, 0, rtag + roff[2 * p], 4 * rr, pp, 2);
        if (rc == FSH_OK && var)
            rc = post(m, &q, 0, out->len + roff[2 * p], 8 * rr, pp, 3);
        if (rc == FSH_OK)
            rc = post(m, &q, 1, sbuf + soff[2 * p + 1], sb, pp, 1);
        if (rc == FSH_OK && stag)
            rc = post(m, &q, 1, stag + soff[2 * p], 4 * sr, pp, 2);
        if (rc == FSH_OK && var)
            rc = post(m, &q, 1, slen + soff[2 * p], 8 * sr, pp, 3);
    }
    if (q.n > 0 && MPI_Waitall((int)q.n, q.r, MPI_STATUSES_IGNORE) !=
                       MPI_SUCCESS)
        rc = FSH_MPI_ECOMM;
    rc = fshm_agree(m, rc);
out:
    if (rc != FSH_OK) {
        fshm_recs_free(out);
        if (otags) {
            free(*otags);
            *otags = NULL;
        }
    }
    free(q.r);
    free(cnt);
    free(soff);
    free(roff);
    free(sbuf);
    free(stag);
    free(slen);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* The bucket stage and the rebalancing                                     */

typedef struct bdest {
    uint64_t B, P, first;
    int bad;
} bdest;

/* Owner of bucket b: the r with floor(r B / P) <= b < floor((r+1) B / P),
   i.e. r = ceil((b + 1) P / B) - 1. */
static int bucket_dest(void *ctx, size_t i, uint32_t b)
{
    const bdest *d = ctx;
    if (d->bad)
        return (int)((d->first + i) % d->P);
    return (int)((((uint64_t)b + 1) * d->P + d->B - 1) / d->B - 1);
}

static int bucket_dest_ext(void *ctx, size_t i, uint32_t b)
{
    return bucket_dest(ctx, i, b);
}

int fshm_buckets(fshm *m, fshm_recs *in, const uint32_t *ids,
                 unsigned bits, uint64_t first, int bad, fshm_group_fn fn,
                 void *fctx, unsigned threads, fshm_recs *out,
                 fsh_mpi_info *info)
{
    bdest d = {(uint64_t)1 << bits, (uint64_t)m->np, first, bad};
    uint32_t *rtag = NULL;
    uint64_t sr = 0, sb = 0;
    int rc = route(m, in, ids, bucket_dest, &d, out, &rtag, &sr, &sb, NULL);
    if (rc != FSH_OK)
        return rc;
    if (info) {
        info->sent_records = sr;
        info->sent_bytes = sb;
    }
    uint64_t r = (uint64_t)m->rank;
    uint32_t lo = (uint32_t)(r * d.B / d.P);
    uint32_t nb = (uint32_t)((r + 1) * d.B / d.P) - lo;
    if (bad) {
        lo = 0;
        nb = (uint32_t)d.B;
    }
    if (out->n > 0)
        rc = fn(fctx, out, rtag, lo, nb, threads);
    free(rtag);
    rc = fshm_agree(m, rc);
    if (rc != FSH_OK)
        fshm_recs_free(out);
    return rc;
}

int fshm_key_group(void *key, fshm_recs *r, const uint32_t *ids, uint32_t lo,
                   uint32_t nb, unsigned threads)
{
    if (r->size)
        return fsh_records_shuffle_group(key, r->data, r->n, r->size, ids, lo,
                                         nb, threads);
    /* Variable records: the same permutation on their indices (it does not
       depend on the element size), then the records in that order. */
    uint64_t *idx = malloc(r->n * sizeof *idx);
    if (idx == NULL)
        return FSH_ENOMEM;
    for (size_t i = 0; i < r->n; i++)
        idx[i] = i;
    int rc = fsh_records_shuffle_group(key, idx, r->n, sizeof *idx, ids, lo,
                                       nb, threads);
    if (rc == FSH_OK && r->lazy && r->order == NULL) {
        r->order = idx;
        return FSH_OK;
    }
    if (rc == FSH_OK)
        rc = fshm_apply(r, idx);
    free(idx);
    return rc;
}

typedef struct pdest {
    const uint64_t *firsts; /* P + 1 target starts */
    uint64_t at;            /* global position of local record 0 */
    int P;
} pdest;

/* Owner of global position at + i: the last r with firsts[r] <= pos. */
static int pos_dest(void *ctx, size_t i, uint32_t tag)
{
    const pdest *d = ctx;
    /* at = UINT64_MAX: the position is the tag (the small path). */
    uint64_t pos = d->at == UINT64_MAX ? tag : d->at + i;
    int lo = 0, hi = d->P - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (d->firsts[mid] <= pos)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* firsts[0..P]: the prefix sums of every rank's v. */
static int gather_firsts(fshm *m, uint64_t v, uint64_t **out)
{
    uint64_t *f = malloc(((size_t)m->np + 1) * sizeof *f);
    int rc = f ? FSH_OK : FSH_ENOMEM;
    if ((rc = fshm_agree(m, rc)) != FSH_OK) {
        free(f);
        return rc;
    }
    if (MPI_Allgather(&v, 1, MPI_UINT64_T, f + 1, 1, MPI_UINT64_T, m->comm) !=
        MPI_SUCCESS) {
        free(f);
        return FSH_MPI_ECOMM;
    }
    f[0] = 0;
    for (int r = 1; r <= m->np; r++)
        f[r] += f[r - 1];
    *out = f;
    return FSH_OK;
}

int fshm_rebalance(fshm *m, fshm_recs *in, uint64_t target,
                   fshm_recs *out, fsh_mpi_info *info)
{
    uint64_t *tf = NULL, *sf = NULL;
    int rc = gather_firsts(m, target, &tf);
    if (rc != FSH_OK)
        return rc;
    if ((rc = gather_firsts(m, (uint64_t)in->n, &sf)) != FSH_OK) {
        free(tf);
        return rc;
    }
    if (sf[m->np] != tf[m->np]) {
        rc = FSH_EINVAL; /* the same on every rank */
    } else {
        pdest d = {tf, sf[m->rank], m->np};
        uint64_t sr = 0, sb = 0;
        rc = route(m, in, NULL, pos_dest, &d, out, NULL, &sr, &sb, NULL);
        if (rc == FSH_OK && info) {
            info->rebalance_records = sr;
            info->rebalance_bytes = sb;
        }
    }
    free(tf);
    free(sf);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* The permutation                                                          */

/* rank 0's generator when the caller passes none (as the command's). */
static int os_rng(fsh_rng **g)
{
    int rc = fsh_rng_new(g);
    if (rc == FSH_OK &&
        (rc = fsh_rng_set_reach(*g, FSH_REACH_FULL | FSH_REACH_KEY)) != FSH_OK) {
        fsh_rng_free(*g);
        *g = NULL;
    }
    return rc;
}

/* v[0..n) = the permutation fsh_shuffle applies to n elements of size
   bytes (v[j]: the input index at output position j), n <= 2^20. Its
   kernel depends on the element size (stream version 3 runs elements of
   up to 8 bytes forward above 6 MiB, another order for the same draws),
   so the indices are shuffled as elements of the records' own size where
   one fits (3 to 8 bytes: n < 2^24), else as 4-byte ones. */
static int draw_perm(fsh_rng *g, uint32_t *v, size_t n, size_t size)
{
    size_t e = size >= 3 && size <= 8 ? size : sizeof *v;
    if (e == sizeof *v) {
        for (size_t j = 0; j < n; j++)
            v[j] = (uint32_t)j;
        return fsh_shuffle(g, v, n, sizeof *v);
    }
    unsigned char *b = calloc(n, e);
    if (b == NULL)
        return FSH_ENOMEM;
    for (size_t j = 0; j < n; j++) {
        b[j * e] = (unsigned char)j;
        b[j * e + 1] = (unsigned char)(j >> 8);
        b[j * e + 2] = (unsigned char)(j >> 16);
    }
    int rc = fsh_shuffle(g, b, n, e);
    for (size_t j = 0; rc == FSH_OK && j < n; j++)
        v[j] = (uint32_t)b[j * e] | (uint32_t)b[j * e + 1] << 8 |
               (uint32_t)b[j * e + 2] << 16;
    free(b);
    return rc;
}

/* N <= FSH_RECORDS_SMALL: the output position of each record. */
static int small_path(fshm *m, fsh_rng *rng, fshm_recs *in,
                      uint64_t first, uint64_t N, fshm_recs *out,
                      fsh_mpi_info *info)
{
    size_t n = (size_t)N;
    uint32_t *v = malloc(n * sizeof *v);
    uint32_t *pos = malloc((in->n ? in->n : 1) * sizeof *pos);
    uint64_t *firsts = NULL;
    int rc = v && pos ? FSH_OK : FSH_ENOMEM;
    if (rc == FSH_OK && (rng != NULL || m->rank == 0)) {
        fsh_rng *own = NULL;
        fsh_rng *g = rng;
        if (g == NULL && (rc = os_rng(&own)) == FSH_OK)
            g = own;
        if (rc == FSH_OK)
            rc = draw_perm(g, v, n, in->size);
        fsh_rng_free(own);
    }
    if ((rc = fshm_agree(m, rc)) != FSH_OK)
        goto out;
    if (rng == NULL) {
        if (MPI_Bcast(v, (int)n, MPI_UINT32_T, 0, m->comm) != MPI_SUCCESS) {
            rc = FSH_MPI_ECOMM;
            goto out;
        }
    } else {
        int st;
        fshm_same(m, fshm_digest(v, n * sizeof *v, 0xcbf29ce484222325ULL),
                  &st);
        if ((rc = fshm_agree(m, st)) != FSH_OK)
            goto out;
    }
    for (size_t j = 0; j < n; j++)
        if (v[j] >= first && v[j] - first < in->n)
            pos[v[j] - first] = (uint32_t)j;
    if ((rc = gather_firsts(m, (uint64_t)in->n, &firsts)) != FSH_OK)
        goto out;
    {
        pdest d = {firsts, UINT64_MAX, m->np};
        fshm_recs got;
        uint32_t *gpos = NULL;
        uint64_t sr = 0, sb = 0;
        rc = route(m, in, pos, pos_dest, &d, &got, &gpos, &sr, &sb, NULL);
        if (rc != FSH_OK)
            goto out;
        if (info) {
            info->sent_records = sr;
            info->sent_bytes = sb;
        }
        /* Place by position: idx[pos - mine] = received index. */
        uint64_t *idx = malloc((got.n ? got.n : 1) * sizeof *idx);
        rc = idx ? FSH_OK : FSH_ENOMEM;
        for (size_t i = 0; rc == FSH_OK && i < got.n; i++)
            idx[gpos[i] - firsts[m->rank]] = i;
        if (rc == FSH_OK && got.lazy && got.size == 0) {
            got.order = idx;
            idx = NULL;
        } else if (rc == FSH_OK) {
            rc = fshm_apply(&got, idx);
        }
        free(idx);
        free(gpos);
        if ((rc = fshm_agree(m, rc)) != FSH_OK)
            fshm_recs_free(&got);
        else
            *out = got;
    }
out:
    free(v);
    free(pos);
    free(firsts);
    return rc;
}

static int copy_recs(const fshm_recs *in, fshm_recs *out)
{
    memset(out, 0, sizeof *out);
    out->size = in->size;
    out->n = in->n;
    out->bytes = in->bytes;
    out->owned = 1;
    out->data = malloc(in->bytes ? (size_t)in->bytes : 1);
    if (!in->size)
        out->len = malloc((in->n ? in->n : 1) * sizeof *out->len);
    if (out->data == NULL || (!in->size && out->len == NULL)) {
        fshm_recs_free(out);
        return FSH_ENOMEM;
    }
    /* Not memcpy(p, NULL, 0) (undefined): a rank without records may
       pass base NULL. */
    if (in->bytes > 0)
        memcpy(out->data, in->data, (size_t)in->bytes);
    if (!in->size && in->n > 0)
        memcpy(out->len, in->len, in->n * sizeof *out->len);
    return FSH_OK;
}

int fshm_draw_key(fshm *m, fsh_rng *rng, uint8_t key[32])
{
    int rc = FSH_OK;
    if (rng != NULL) {
        /* Never a stream keyed from a certified-source generator. */
        rc = fsh_rng_get_direct(rng) ? FSH_EINVAL
                                     : fsh_rng_bytes(rng, key, 32);
        if ((rc = fshm_agree(m, rc)) != FSH_OK)
            return rc;
        int st;
        fshm_same(m, fshm_digest(key, 32, 0xcbf29ce484222325ULL), &st);
        return fshm_agree(m, st);
    }
    if (m->rank == 0) {
        fsh_rng *g = NULL;
        rc = os_rng(&g);
        if (rc == FSH_OK)
            rc = fsh_rng_bytes(g, key, 32);
        fsh_rng_free(g);
    }
    if ((rc = fshm_agree(m, rc)) != FSH_OK)
        return rc;
    if (MPI_Bcast(key, 32, MPI_BYTE, 0, m->comm) != MPI_SUCCESS)
        return FSH_MPI_ECOMM;
    return FSH_OK;
}

static int bucket_dest_ext(void *ctx, size_t i, uint32_t b);

int fshm_route_buckets(fshm *m, fshm_recs *in, const uint32_t *ids,
                       unsigned bits, fshm_recs *out, uint32_t **otags,
                       uint64_t *from, fsh_mpi_info *info)
{
    bdest d = {(uint64_t)1 << bits, (uint64_t)m->np, 0, 0};
    uint64_t sr = 0, sb = 0;
    int rc = route(m, in, ids, bucket_dest_ext, &d, out, otags, &sr, &sb,
                   from);
    if (rc == FSH_OK && info) {
        info->sent_records += sr;
        info->sent_bytes += sb;
    }
    return rc;
}

void fshm_bucket_range(const fshm *m, unsigned bits, uint32_t *lo,
                       uint32_t *nb)
{
    uint64_t B = (uint64_t)1 << bits, P = (uint64_t)m->np,
             r = (uint64_t)m->rank;
    *lo = (uint32_t)(r * B / P);
    *nb = (uint32_t)((r + 1) * B / P) - *lo;
}

int fshm_shuffle(fshm *m, fsh_rng *rng, fshm_recs *in, uint64_t first,
                 uint64_t N, unsigned threads, int rebalance, fshm_recs *out,
                 fsh_mpi_info *info)
{
    int rc;
    if (info) {
        memset(info, 0, sizeof *info);
        info->records = N;
    }
    if (N < 2) /* nothing to draw */
        return fshm_agree(m, copy_recs(in, out));
    /* A generator in certified-source mode (fsh_rng_set_direct) promises
       that every index comes from its own words; above FSH_RECORDS_SMALL
       the buckets' streams would be keyed from it, so refuse, on every
       rank (the argument error first, as fairshuf.h orders them). Then
       the refusal fsh_shuffle_records makes (FSH_EENTROPY for a generator
       whose seed reaches too few orders, unless simulation grade): the
       keyed bucket path draws only fsh_rng_bytes, which is never refused,
       so ask before it (and before the small path's allocations). Both
       before anything is drawn or moved, in one agreement. */
    if (rng != NULL) {
        uint64_t hw;
        rc = N > FSH_RECORDS_SMALL && fsh_rng_get_direct(rng)
                 ? FSH_EINVAL
                 : fsh_rng_reach_plan(rng, &hw, N - 1, N - 1);
        if ((rc = fshm_agree(m, rc)) != FSH_OK)
            return rc;
    }
    if (N <= FSH_RECORDS_SMALL)
        return small_path(m, rng, in, first, N, out, info);
    uint8_t key[32];
    if ((rc = fshm_draw_key(m, rng, key)) != FSH_OK)
        return rc;
    unsigned bits = fsh_records_bits(N);
    if (info)
        info->bits = bits;
    uint32_t *ids = malloc((in->n ? in->n : 1) * sizeof *ids);
    rc = ids ? fsh_records_buckets(key, ids, in->n, bits, first) : FSH_ENOMEM;
    if ((rc = fshm_agree(m, rc)) == FSH_OK) {
        fshm_recs mid;
        rc = fshm_buckets(m, in, ids, bits, first, 0, fshm_key_group, key,
                          threads, &mid, info);
        if (rc == FSH_OK && rebalance) {
            rc = fshm_rebalance(m, &mid, (uint64_t)in->n, out, info);
            fshm_recs_free(&mid);
        } else if (rc == FSH_OK) {
            *out = mid;
        }
    }
    free(ids);
    for (size_t i = 0; i < sizeof key; i++)
        ((volatile uint8_t *)key)[i] = 0;
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Public calls                                                             */

int fsh_mpi_shuffle(MPI_Comm comm, fsh_rng *rng, void *base, size_t count,
                    size_t size, unsigned threads, fsh_mpi_info *info)
{
    fshm m;
    int rc = fshm_open(&m, comm);
    if (rc != FSH_OK)
        return rc;
    int bad = size == 0 || (count > 0 && base == NULL) ||
              count > SIZE_MAX / (size ? size : 1);
    rc = fshm_agree(&m, bad ? FSH_EINVAL : FSH_OK);
    /* Same record size, generator NULL-ness and message size limit
       (FSH_MPI_TEST_CHUNK) everywhere. */
    if (rc == FSH_OK) {
        int st;
        uint64_t ck = m.chunk;
        fshm_same(&m, fshm_digest(&ck, sizeof ck,
                                  (uint64_t)size * 2 + (rng != NULL)),
                  &st);
        rc = fshm_agree(&m, st);
    }
    uint64_t n = count, first = 0, N = 0;
    if (rc == FSH_OK &&
        (MPI_Exscan(&n, &first, 1, MPI_UINT64_T, MPI_SUM, m.comm) !=
             MPI_SUCCESS ||
         MPI_Allreduce(&n, &N, 1, MPI_UINT64_T, MPI_SUM, m.comm) !=
             MPI_SUCCESS))
        rc = FSH_MPI_ECOMM;
    if (m.rank == 0)
        first = 0; /* MPI_Exscan leaves rank 0's undefined */
    if (rc == FSH_OK) {
        fshm_recs in = {base, count, size, NULL, (uint64_t)count * size, 0,
                        0, NULL};
        fshm_recs out;
        rc = fshm_shuffle(&m, rng, &in, first, N, threads, 1, &out, info);
        if (rc == FSH_OK) {
            if (count > 0)
                memcpy(base, out.data, count * size);
            fshm_recs_free(&out);
        }
    }
    fshm_close(&m);
    return rc;
}

const char *fsh_mpi_strerror(int status)
{
    switch (status) {
    case FSH_MPI_ECOMM:
        return "an MPI call failed (a rank may have died)";
    case FSH_MPI_EMISMATCH:
        return "ranks passed different arguments";
    default:
        return fsh_strerror(status);
    }
}
