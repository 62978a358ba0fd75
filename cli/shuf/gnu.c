/* SPDX-License-Identifier: MIT */
/* GNU mode (--random-source=FILE): GNU shuf 9.1's draws, in its order,
   through gnurand.c, so the output is byte-identical to GNU's. */
#include "shuf/shuf.h"

#include "common/msg.h"
#include "common/quote.h"
#include "common/xalloc.h"
#include "io/input.h"
#include "shuf/gnurand.h"
#include "shuf/reservoir.h"

#include <errno.h>
#include <stdlib.h>

/* GNU shuf reads inputs of up to 8 MiB whole even with -n. */
#define RESERVOIR_MIN_INPUT ((uint64_t)8192 * 1024)

/* ------------------------------------------------------------------------ */
/* GNU mode: --random-source                                                */

static void gnu_perm_recs(gnurand *g, recs *r, size_t h)
{
    for (size_t i = 0; i < h; i++) {
        size_t j = i + (size_t)gnurand_choose(g, (uint64_t)(r->n - i));
        recs_swap(r, i, j);
    }
}

/* GNU's randint_choose(k) as a source of uniform integers in [1, k]
   (fsh_rng_from_randint). fsh_rangeperm_next_n calls it once a step, in
   step order, with k = n - i, the values GNU's randperm_new draws; only a
   step with k = 1 is not drawn, and GNU's choose(1) reads nothing and
   leaves the state as it was. A short or unreadable source dies in there,
   before the output is opened, as GNU does. */
static uint64_t gnu_randint(void *ctx, uint64_t k)
{
    return gnurand_choose(ctx, k) + 1;
}

/* out[0..h) = the first h values of GNU's permutation of [0, n), h < n,
   in O(h) memory. One call of fsh_rangeperm_next_n: GNU's draws are made
   16 steps ahead of the steps that use them and the cells those touch are
   fetched meanwhile (fsh_sample_range's step loop), where one
   fsh_rangeperm_next_at a value waited for each cell in turn. */
static void gnu_perm_prefix(gnurand *g, uint64_t *out, uint64_t n, size_t h)
{
    fsh_rangeperm *rp;
    fsh_rng *rng;
    /* The rng only carries the callback: seeded (no OS entropy read),
       then given GNU's draws. */
    if (fsh_rangeperm_new(&rp, 0, n - 1, h) != FSH_OK ||
        fsh_rng_new_seeded(&rng, "gnu", 3) != FSH_OK)
        xalloc_die();
    if (fsh_rng_from_randint(rng, gnu_randint, g) != FSH_OK ||
        fsh_rangeperm_next_n(rng, rp, out, h) != FSH_OK)
        xalloc_die();
    fsh_rng_free(rng);
    fsh_rangeperm_free(rp);
}

static void gnu_perm_u64(gnurand *g, uint64_t *v, size_t n, size_t h)
{
    for (size_t i = 0; i < h; i++) {
        size_t j = i + (size_t)gnurand_choose(g, (uint64_t)(n - i));
        uint64_t t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

int run_gnu(shuf_run *r)
{
    const opts *o = &r->o;
    uint64_t head = o->head; /* UINT64_MAX: no limit */
    uint64_t n = 0;
    int fd = -1, reservoir = 0;
    echo_lines e = {0};
    inbuf in = {0};
    char *inbase = NULL;
    recs rs = {0};

    if (head == 0 && o->header == 0) { /* --header's lines are written */
        n = 0;
    } else if (o->echo) {
        echo_build(o->ops, o->nops, o->delim, o->header, &r->hdr, &e);
        n = e.n;
    } else if (o->range) {
        n = o->hi - o->lo + 1;
    } else {
        fd = run_open_input(r);
        if (o->repeat || !o->head_set || input_size(fd) <= RESERVOIR_MIN_INPUT) {
            (void)read_upto_ticking(fd, o->delim, &in, UINT64_MAX,
                                    r->pg.on ? progress_read_tick : NULL,
                                    &r->pg);
            inbase = in.buf;
            header_from_inbuf(&r->hdr, &in, o->delim, o->header);
            scan_records(&in, o->delim, &rs);
            n = rs.n;
        } else {
            reservoir = 1;
            n = UINT64_MAX;
        }
    }
    uint64_t ahead = o->repeat || head < n ? head : n;
    uint64_t bound = reservoir || o->repeat ? UINT64_MAX
                                            : gnurand_perm_bound(ahead, n);
    gnurand *g = gnurand_new(o->random_source, bound);
    if (g == NULL)
        die(errno, "%s", quotef(o->random_source));

    resv rv = {0};
    if (reservoir) {
        /* GNU fills k slots, then draws choose(i + 1) for every further
           line i, including one draw after the last line. */
        reader s;
        reader_init(&s, fd, o->delim, STREAM_BUF, UINT64_MAX, NULL);
        if (r->pg.on)
            reader_ticking(&s, progress_read_tick, &r->pg);
        header_from_reader(&r->hdr, &s, o->delim, o->header);
        const char *rec;
        size_t len;
        uint64_t k = ahead, seen = 0;
        int more = 1;
        while (seen < k && (more = reader_next(&s, &rec, &len)) != 0) {
            resv_put_from(&rv, (size_t)seen, &s, rec, len);
            seen++;
        }
        if (more && k > 0) { /* -n 0 with --header: no draw */
            for (;;) {
                uint64_t j = gnurand_choose(g, seen + 1);
                if (!reader_next(&s, &rec, &len))
                    break;
                if (j < k)
                    resv_put_from(&rv, (size_t)j, &s, rec, len);
                seen++;
                if (seen == 0)
                    die(EOVERFLOW, "too many input lines");
            }
        }
        reader_free(&s);
        n = rv.m;
        ahead = rv.m;
    }
    if (fd >= 0)
        input_close(fd);

    uint64_t *perm = NULL;
    if (!o->repeat) {
        if (reservoir || o->echo || (o->range && ahead == n)) {
            perm = iota_u64((size_t)n);
            gnu_perm_u64(g, perm, (size_t)n, (size_t)ahead);
        } else if (o->range) {
            /* A prefix of the permutation: O(ahead) memory. */
            if (ahead > 0) {
                /* All draws come before the output is opened, as in GNU. */
                if (ahead > SIZE_MAX / sizeof(uint64_t))
                    xalloc_die();
                perm = malloc((size_t)ahead * sizeof *perm);
                if (perm == NULL)
                    xalloc_die();
                gnu_perm_prefix(g, perm, n, (size_t)ahead);
            }
        } else if (head != 0) {
            gnu_perm_recs(g, &rs, (size_t)ahead);
        }
    }

    /* The output first, as GNU: -o's errors come before this one. */
    outw *out = run_open_output(r);
    if (o->repeat && head != 0 && n == 0)
        die(0, "no lines to repeat");
    /* Items written, of total (-r without -n: unknown). */
    uint64_t i = 0, total = o->repeat ? head : ahead;
    if (o->repeat) {
        if (head != 0) {
            for (; i < head || head == UINT64_MAX; i++) {
                uint64_t j = gnurand_choose(g, n);
                int rc;
                if (o->range)
                    rc = out_number(out, o->lo + j, o->delim);
                else if (o->echo)
                    rc = write_echo(out, &e, j);
                else
                    rc = write_rec(out, &in, recs_get(&rs, (size_t)j), o->delim);
                if (rc != 0)
                    break;
                run_wrote(r, out, i + 1, total, 0);
            }
        }
    } else if (reservoir) {
        for (; i < ahead; i++) {
            uint64_t s = perm[i];
            if (out_write(out, rv.arena + rv.off[s], (size_t)rv.len[s]) != 0)
                break;
            run_wrote(r, out, i + 1, total, 0);
        }
    } else if (o->echo) {
        for (; i < ahead && write_echo(out, &e, perm[i]) == 0; i++)
            run_wrote(r, out, i + 1, total, 0);
    } else if (o->range) {
        for (; i < ahead && out_number(out, o->lo + perm[i], o->delim) == 0; i++)
            run_wrote(r, out, i + 1, total, 0);
    } else if (head != 0) {
        enum { STEP = 1 << 16 };
        for (; i < ahead && out_error(out) == 0; i += STEP) {
            size_t m = ahead - i < STEP ? (size_t)(ahead - i) : STEP;
            recs sub = rs;
            if (rs.wide)
                sub.off64 += i;
            else
                sub.off32 += i;
            write_recs(out, &in, &sub, m, o->delim);
            run_wrote(r, out, i + m, total, 0);
        }
    }
    run_wrote(r, out, i < total ? i : total, total, 1);
    dest_finish(&r->out);
    free(perm);
    resv_free(&rv);
    recs_free(&rs);
    free(inbase);
    echo_free(&e);
    gnurand_free(g);
    return 0;
}

