/* SPDX-License-Identifier: MIT */
/* Writing shuffled records with several threads gathering them.

   In a large input the next record to write sits at a random place: the
   copy waits on memory (a cache miss, and a TLB miss on the mapped file's
   4 KiB pages, for each record) far more than it computes, so one thread
   leaves the memory system mostly idle. The output is cut into chunks of
   consecutive records; chunk c is copied by thread c mod T into one of
   that thread's buffers, and this thread (thread 0, which copies its own
   share too) writes the chunks in order. The bytes written are exactly
   write_recs'. */
#include "shuf/gather.h"

#include "common/xalloc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum {
    MIN_BYTES = 1 << 23,   /* a smaller input stays in cache: one thread */
    CHUNK_BYTES = 1 << 18, /* aim of a chunk's size */
    CHUNK_MAX = 4096,      /* records in a chunk, at most ... */
    CHUNK_MIN = 64,        /* ... and at least */
    SLOT_MAX = 1 << 22,    /* a chunk's buffer grows to this */
    BIG = 1 << 16,         /* a record this long is written in place */
    SLOTS = 2,             /* chunks a thread may have copied ahead */
    AHEAD = 16,            /* records prefetched ahead of the copy */
    PROGRESS_EVERY = 1 << 16, /* records between progress updates */
};

/* n bytes to write: buf + off of the chunk's buffer when p is NULL, else p
   (a record written in place); first: the length of its first record. */
typedef struct span {
    const char *p;
    size_t off, n, first;
} span;

typedef struct slot {
    char *buf;
    size_t cap;
    span *spans;
    size_t nspans;
    int ready; /* copied, not yet written (under the gatherer's lock) */
} slot;

typedef struct gatherer gatherer;

typedef struct worker {
    gatherer *g;
    unsigned id;
    slot slots[SLOTS];
    pthread_t th;
} worker;

struct gatherer {
    const inbuf *in;
    const recs *r;
    char delim;
    size_t per;     /* records a chunk */
    size_t nchunks;
    unsigned nth;   /* threads, this one included */
    worker *w;      /* w[0]: this thread */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop;       /* a write failed: the workers leave */
};

static void span_push(slot *s, const char *p, size_t off, size_t n,
                      size_t first)
{
    s->spans[s->nspans++] = (span){p, off, n, first};
}

/* Copy chunk c's records into s. */
static void gather_chunk(const gatherer *g, size_t c, slot *s)
{
    const recs *r = g->r;
    const char *base = g->in->buf;
    size_t lo = c * g->per;
    size_t hi = r->n - lo < g->per ? r->n : lo + g->per;
    size_t used = 0, open = 0, first = 0;
    s->nspans = 0;
    for (size_t i = lo; i < hi; i++) {
        if (i + AHEAD < hi)
            __builtin_prefetch(base + recs_get(r, i + AHEAD));
        const char *p = base + recs_get(r, i);
        size_t n = rec_len(p, g->delim);
        if (n > s->cap - used && n < BIG && s->cap < SLOT_MAX) {
            /* Spans hold offsets: the buffer may move. */
            size_t cap = s->cap;
            while (n > cap - used && cap < SLOT_MAX)
                cap *= 2;
            s->buf = xrealloc(s->buf, cap);
            s->cap = cap;
        }
        if (n >= BIG || n > s->cap - used) {
            if (used > open)
                span_push(s, NULL, open, used - open, first);
            span_push(s, p, 0, n, n);
            open = used;
            continue;
        }
        if (used == open)
            first = n;
        memcpy(s->buf + used, p, n);
        used += n;
    }
    if (used > open)
        span_push(s, NULL, open, used - open, first);
}

/* Write s's spans to out: 0, or -1 after a write error. */
static int write_slot(outw *out, const slot *s)
{
    for (size_t k = 0; k < s->nspans; k++) {
        const span *sp = &s->spans[k];
        const char *p = sp->p != NULL ? sp->p : s->buf + sp->off;
        if (out_write_many(out, p, sp->n, sp->first) != 0)
            return -1;
    }
    return 0;
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    gatherer *g = w->g;
    size_t k = 0;
    for (size_t c = w->id; c < g->nchunks; c += g->nth, k++) {
        slot *s = &w->slots[k % SLOTS];
        pthread_mutex_lock(&g->mu);
        while (s->ready && !g->stop)
            pthread_cond_wait(&g->cv, &g->mu);
        int stop = g->stop;
        pthread_mutex_unlock(&g->mu);
        if (stop)
            break;
        gather_chunk(g, c, s);
        pthread_mutex_lock(&g->mu);
        s->ready = 1;
        pthread_cond_broadcast(&g->cv);
        pthread_mutex_unlock(&g->mu);
    }
    return NULL;
}

/* One thread: write_recs in steps, with progress. */
static void write_serial(outw *out, const inbuf *in, const recs *r,
                         char delim, progress *pg)
{
    for (size_t i = 0; i < r->n && out_error(out) == 0; i += PROGRESS_EVERY) {
        size_t m = r->n - i < PROGRESS_EVERY ? r->n - i : PROGRESS_EVERY;
        recs sub = *r;
        if (r->wide)
            sub.off64 += i;
        else
            sub.off32 += i;
        write_recs(out, in, &sub, m, delim);
        progress_show(pg, "write", i + m, r->n);
    }
}

void gather_write(outw *out, const inbuf *in, const recs *r, char delim,
                  unsigned threads, progress *pg)
{
    size_t per = r->n == 0 ? 0 : CHUNK_BYTES / (in->size / r->n + 1);
    per = per > CHUNK_MAX ? CHUNK_MAX : per < CHUNK_MIN ? CHUNK_MIN : per;
    if (threads <= 1 || in->size < MIN_BYTES || r->n / per < 2 * threads ||
        out_sharded(out)) {
        write_serial(out, in, r, delim, pg);
        return;
    }
    gatherer g;
    memset(&g, 0, sizeof g);
    g.in = in;
    g.r = r;
    g.delim = delim;
    g.per = per;
    g.nchunks = (r->n + g.per - 1) / g.per;
    g.nth = threads;
    g.w = xmalloc(g.nth * sizeof *g.w);
    memset(g.w, 0, g.nth * sizeof *g.w);
    for (unsigned t = 0; t < g.nth; t++) {
        g.w[t].g = &g;
        g.w[t].id = t;
        for (unsigned k = 0; k < SLOTS; k++) {
            slot *s = &g.w[t].slots[k];
            s->cap = 2 * CHUNK_BYTES;
            s->buf = xmalloc(s->cap);
            s->spans = xmalloc(2 * g.per * sizeof *s->spans);
        }
    }
    pthread_mutex_init(&g.mu, NULL);
    pthread_cond_init(&g.cv, NULL);
    /* Threads are started while nth may still shrink: none reads it (or
       takes a chunk) before the lock below is released. */
    pthread_mutex_lock(&g.mu);
    unsigned started = 1;
    while (started < g.nth &&
           pthread_create(&g.w[started].th, NULL, worker_main,
                          &g.w[started]) == 0)
        started++;
    g.nth = started; /* a thread that could not start: fewer share */
    pthread_mutex_unlock(&g.mu);

    size_t shown = 0;
    for (size_t c = 0; c < g.nchunks; c++) {
        worker *w = &g.w[c % g.nth];
        slot *s = &w->slots[(c / g.nth) % SLOTS];
        if (w->id == 0) {
            gather_chunk(&g, c, s);
        } else {
            pthread_mutex_lock(&g.mu);
            while (!s->ready)
                pthread_cond_wait(&g.cv, &g.mu);
            pthread_mutex_unlock(&g.mu);
        }
        int failed = write_slot(out, s);
        if (w->id != 0) {
            pthread_mutex_lock(&g.mu);
            s->ready = 0;
            pthread_cond_broadcast(&g.cv);
            pthread_mutex_unlock(&g.mu);
        }
        if (failed)
            break;
        size_t done = c + 1 < g.nchunks ? (c + 1) * g.per : r->n;
        if (done - shown >= PROGRESS_EVERY || done == r->n) {
            progress_show(pg, "write", done, r->n);
            shown = done;
        }
    }
    pthread_mutex_lock(&g.mu);
    g.stop = 1;
    pthread_cond_broadcast(&g.cv);
    pthread_mutex_unlock(&g.mu);
    for (unsigned t = 1; t < g.nth; t++)
        pthread_join(g.w[t].th, NULL);
    pthread_cond_destroy(&g.cv);
    pthread_mutex_destroy(&g.mu);
    for (unsigned t = 0; t < threads; t++) {
        for (unsigned k = 0; k < SLOTS; k++) {
            free(g.w[t].slots[k].buf);
            free(g.w[t].slots[k].spans);
        }
    }
    free(g.w);
}
