/* SPDX-License-Identifier: MIT */
/* Default mode: the library's exact draws, keyed from the OS or --seed.
 * Full shuffles are the library's record permutation of the record count,
 * -n on lines is Algorithm R plus a shuffle of the reservoir, -i with
 * -n below the range is a sparse forward Fisher-Yates (fsh_rangeperm),
 * -r draws each line independently.
 */
#include "shuf/shuf.h"

#include "common/msg.h"
#include "common/xalloc.h"
#include "io/input.h"
#include "shuf/full.h"
#include "shuf/reservoir.h"

#include <stdlib.h>

/* Values of -i LO-HI -n COUNT drawn a call: large enough that the draws
   run ahead of their memory (fsh_rangeperm_next_n), small enough to stay
   in L1 and to stream the output. */
#define RANGE_BATCH 512

/* Shuffle v[0..n) with Fisher-Yates; n < 2 draws nothing. */
static void shuffle_n(lazy_rng *g, void *v, size_t n, size_t size)
{
    if (n > 1)
        check_status(fsh_shuffle(lazy_get(g), v, n, size));
}

/* Uniform in [0, n), n >= 1; n = 1 draws nothing. */
static uint64_t uniform_n(lazy_rng *g, uint64_t n)
{
    uint64_t j = 0;
    if (n > 1)
        check_status(fsh_uniform(lazy_get(g), &j, n));
    return j;
}

/* Algorithm R slot of stream item t with k slots (k means "drop"); no draw
   while the reservoir fills. */
static size_t algr_slot(lazy_rng *g, uint64_t t, size_t k)
{
    size_t slot = (size_t)t;
    if (t >= k)
        check_status(fsh_reservoir_slot(lazy_get(g), &slot, k, t));
    return slot;
}

/* Kept indices of an n-item stream after Algorithm R with k slots, in a
   uniformly shuffled order; returns how many (min(k, n)). */
static size_t index_sample(lazy_rng *g, uint64_t n, uint64_t k,
                           uint64_t **out)
{
    size_t m = (size_t)(n < k ? n : k);
    uint64_t *kept = xmalloc((m ? m : 1) * sizeof *kept);
    for (uint64_t t = 0; t < n; t++) {
        size_t slot = algr_slot(g, t, m);
        if (slot < m)
            kept[slot] = t;
    }
    shuffle_n(g, kept, m, sizeof *kept);
    *out = kept;
    return m;
}

/* The whole range lo .. lo + n - 1: the record permutation of n records,
   so the same order as a file of n lines under the same --seed. */
#define RANGE_ALL(T)                                                           \
    static void range_all_##T(shuf_run *r, uint64_t n)                        \
    {                                                                          \
        const opts *o = &r->o;                                                 \
        if (n > SIZE_MAX / sizeof(T))                                          \
            xalloc_die();                                                      \
        /* The array and the shuffle's copy of it, in one request first. */    \
        uint64_t extra = shuffle_records_extra(n, sizeof(T));                  \
        if (extra > UINT64_MAX - n * sizeof(T))                                \
            xalloc_die();                                                      \
        xreserve(n * sizeof(T) + extra);                                       \
        T *v = malloc((size_t)n * sizeof *v);                                  \
        if (v == NULL)                                                         \
            xalloc_die();                                                      \
        for (size_t i = 0; i < (size_t)n; i++)                                 \
            v[i] = (T)i;                                                       \
        shuffle_records(&r->rng, v, (size_t)n, sizeof *v, o->big.threads);       \
        outw *out = run_open_output(r);                                        \
        size_t i = 0;                                                          \
        while (i < (size_t)n && out_number(out, o->lo + v[i], o->delim) == 0)  \
            run_wrote(r, out, ++i, n, 0);                                      \
        run_wrote(r, out, i, n, 1);                                            \
        free(v);                                                               \
    }
RANGE_ALL(uint32_t)
RANGE_ALL(uint64_t)

/* -i LO-HI. */
static void run_range(shuf_run *r)
{
    const opts *o = &r->o;
    uint64_t head = o->head, n = o->hi - o->lo + 1;
    if (o->repeat) {
        fsh_rng *rng = n > 1 ? lazy_get(&r->rng) : NULL;
        /* The output first, as GNU: -o's errors come before this one. */
        outw *out = run_open_output(r);
        if (n == 0)
            die(0, "no lines to repeat");
        uint64_t i = 0;
        for (; i < head || !o->head_set; i++) {
            uint64_t v = o->lo;
            if (n > 1)
                check_status(fsh_uniform_range(rng, &v, o->lo, o->hi));
            if (out_number(out, v, o->delim) != 0)
                break;
            run_wrote(r, out, i + 1, head, 0);
        }
        run_wrote(r, out, i, head, 1);
    } else if (n == 0) {
        (void)run_open_output(r);
    } else if (head >= n) {
        if (n - 1 <= UINT32_MAX)
            range_all_uint32_t(r, n);
        else
            range_all_uint64_t(r, n);
    } else {
        /* head < n: O(head) memory, values streamed as drawn, a batch at
           a time (fsh_rangeperm_next_n: the values of one call each, its
           draws made ahead of the memory they touch). */
        fsh_rangeperm *rp;
        size_t hint = head < SIZE_MAX ? (size_t)head : SIZE_MAX;
        check_status(fsh_rangeperm_new(&rp, o->lo, o->hi, hint));
        fsh_rng *rng = lazy_get(&r->rng);
        outw *out = run_open_output(r);
        uint64_t i = 0, batch[RANGE_BATCH];
        while (i < head) {
            size_t m = head - i < RANGE_BATCH ? (size_t)(head - i)
                                              : RANGE_BATCH;
            check_status(fsh_rangeperm_next_n(rng, rp, batch, m));
            size_t t = 0;
            for (; t < m; t++) {
                if (out_number(out, batch[t], o->delim) != 0)
                    break;
                run_wrote(r, out, i + t + 1, head, 0);
            }
            i += t;
            if (t < m)
                break;
        }
        run_wrote(r, out, i, head, 1);
        fsh_rangeperm_free(rp);
    }
}

/* -e ARG... */
static void run_echo(shuf_run *r)
{
    const opts *o = &r->o;
    echo_lines e;
    echo_build(o->ops, o->nops, o->delim, o->header, &r->hdr, &e);
    if (o->repeat) {
        if (e.n > 1)
            (void)lazy_get(&r->rng);
        outw *out = run_open_output(r);
        if (e.n == 0)
            die(0, "no lines to repeat");
        uint64_t i = 0;
        for (; i < o->head || !o->head_set; i++) {
            if (write_echo(out, &e, uniform_n(&r->rng, e.n)) != 0)
                break;
            run_wrote(r, out, i + 1, o->head, 0);
        }
        run_wrote(r, out, i, o->head, 1);
    } else {
        uint64_t *idx;
        size_t m = index_sample(&r->rng, e.n, o->head, &idx);
        outw *out = run_open_output(r);
        size_t i = 0;
        while (i < m && write_echo(out, &e, idx[i]) == 0)
            run_wrote(r, out, ++i, m, 0);
        run_wrote(r, out, i, m, 1);
        free(idx);
    }
    dest_finish(&r->out);
    echo_free(&e);
}

/* -r on lines. */
static void run_repeat(shuf_run *r, int fd)
{
    const opts *o = &r->o;
    inbuf in;
    recs rs;
    (void)read_upto_ticking(fd, o->delim, &in, UINT64_MAX,
                            r->pg.on ? progress_read_tick : NULL, &r->pg);
    input_close(fd);
    char *inbase = in.buf;
    header_from_inbuf(&r->hdr, &in, o->delim, o->header);
    scan_records(&in, o->delim, &rs);
    if (rs.n > 1)
        (void)lazy_get(&r->rng);
    outw *out = run_open_output(r);
    if (rs.n == 0)
        die(0, "no lines to repeat");
    uint64_t i = 0;
    for (; i < o->head || !o->head_set; i++) {
        uint64_t j = uniform_n(&r->rng, rs.n);
        if (write_rec(out, &in, recs_get(&rs, (size_t)j), o->delim) != 0)
            break;
        run_wrote(r, out, i + 1, o->head, 0);
    }
    run_wrote(r, out, i, o->head, 1);
    dest_finish(&r->out);
    recs_free(&rs);
    free(inbase);
}

/* -n K on lines: Algorithm R over the stream, then a uniform order. */
#define SAMPLE_OUT_BUF ((size_t)64 << 10)
static void run_sample(shuf_run *r, int fd)
{
    const opts *o = &r->o;
    reader s;
    resv rv = {0};
    reader_init(&s, fd, o->delim, STREAM_BUF, UINT64_MAX, NULL);
    if (r->pg.on)
        reader_ticking(&s, progress_read_tick, &r->pg);
    header_from_reader(&r->hdr, &s, o->delim, o->header);
    const char *rec;
    size_t len;
    size_t k = o->head < SIZE_MAX ? (size_t)o->head : SIZE_MAX;
    for (uint64_t t = 0; reader_next(&s, &rec, &len); t++) {
        size_t slot = algr_slot(&r->rng, t, k);
        if (slot < k)
            resv_put_from(&rv, slot, &s, rec, len);
    }
    reader_free(&s);
    input_close(fd);
    uint64_t *order = iota_u64(rv.m);
    shuffle_n(&r->rng, order, rv.m, sizeof *order);
    /* The records are in memory already: a buffer of a few pages is
       enough, and a 1 MiB one's pages would count in the peak RSS (1 MB
       more for -n 10000 of 100-byte lines than GNU's stdio). */
    r->out.cap = SAMPLE_OUT_BUF;
    outw *out = run_open_output(r);
    size_t i = 0;
    for (; i < rv.m; i++) {
        uint64_t sl = order[i];
        if (out_write(out, rv.arena + rv.off[sl], (size_t)rv.len[sl]) != 0)
            break;
        run_wrote(r, out, i + 1, rv.m, 0);
    }
    run_wrote(r, out, i, rv.m, 1);
    dest_finish(&r->out);
    free(order);
    resv_free(&rv);
}

int run_default(shuf_run *r)
{
    const opts *o = &r->o;
    if (o->head == 0 && o->header == 0) {
        /* Nothing is read, as in GNU; -o FILE is still created. (With
           --header, -n does not count the header lines: they are read
           and written.) */
        (void)run_open_output(r);
        dest_finish(&r->out);
        return 0;
    }
    if (o->range) {
        run_range(r);
        dest_finish(&r->out);
        return 0;
    }
    if (o->echo) {
        run_echo(r);
        return 0;
    }
    int fd = run_open_input(r);
    if (o->repeat) {
        run_repeat(r, fd);
    } else if (o->head_set) {
        run_sample(r, fd);
    } else {
        /* Full shuffle: in memory or external. */
        ext_args a = {o->delim, o->header, &r->hdr, &o->big, &r->rng, &r->pg,
                      r->input_name};
        full *f = full_prepare(&a, fd);
        full_write(f, run_open_output(r));
        input_close(fd);
        dest_finish(&r->out);
    }
    return 0;
}
