/* SPDX-License-Identifier: MIT */
/* The full shuffle of the input's lines (no -n, no -r): in memory when
   the input fits in half of --memory, else external mode. */
#include "shuf/full.h"

#include "common/msg.h"
#include "common/quote.h"
#include "common/rng.h"
#include "common/sysio.h"
#include "common/xalloc.h"
#include "shuf/gather.h"
#include "shuf/records.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct full {
    ext *x;             /* external mode, or NULL */
    char delim;
    inbuf in;           /* in memory: the whole input */
    inmap map;          /* ... mapped, when map.base != NULL */
    const char *name;   /* the input, for messages (NULL: stdin) */
    inbuf body;         /* its records after the header */
    recs r;             /* their offsets, permuted */
    unsigned threads;   /* to write them */
    progress *pg;
};

/*
 * Whether the in-memory shuffle of in fits in the budget: it holds the
 * input, 4 bytes of offset per record (8 from 4 GiB of input) and, above
 * FSH_RECORDS_SMALL records, the shuffle's copy of the offsets. With the
 * input at most half the budget that fits for records of 8 bytes or more
 * on average; short records make the offsets outweigh the input (4 GB of
 * empty lines: 16 GB of offsets, then a 16 GB copy, each part granted
 * and the whole killed by the OOM killer), so the records are counted
 * whenever a record a byte would not fit, and such an input goes
 * external.
 */
static int offsets_fit(const inbuf *in, char delim, uint64_t budget)
{
    uint64_t size = in->size, w = size <= UINT32_MAX ? 4 : 8;
    if (size <= budget / (1 + 2 * w))
        return 1;
    uint64_t n = count_delims(in->buf, in->size, delim);
    uint64_t need = n * w + shuffle_records_extra(n, (size_t)w);
    return size <= budget && need <= budget - size;
}

full *full_prepare(const ext_args *a, int fd)
{
    full *f = xmalloc(sizeof *f);
    memset(f, 0, sizeof *f);
    f->delim = a->delim;
    f->pg = a->pg;
    f->threads = a->big->threads;
    f->name = a->input_name;
    struct stat st;
    /* A regular file that external mode may read again from here. Not
       one of the kernel's pseudo files (/proc, /sys): they are made at
       each read, so their size (0, or 4096) says nothing of their bytes
       and a second read gives others (/proc/self/maps: our own mappings,
       which the first read changed). Those are read once, as a pipe. */
    int reg = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
              !fd_on_pseudo_fs(fd);
    off_t at = reg ? lseek(fd, 0, SEEK_CUR) : -1;
    /* Data plus at least 4 bytes of offset per record and a copy for the
       scatter: beyond half the budget, go external. The size is only a
       hint (the file may grow while it is read): the read stops there. */
    uint64_t lim = a->big->memory / 2;
    if (reg && at >= 0 && st.st_size > at &&
        (uint64_t)(st.st_size - at) > lim) {
        f->x = ext_prepare(a, fd, NULL, 0);
        return f;
    }
    inbuf in;
    int whole;
    if (reg && input_map(fd, a->delim, lim, a->input_name, &in, &f->map)) {
        /* A regular file, referenced in place. */
        whole = 1;
    } else {
        whole = read_upto_ticking(fd, a->delim, &in, lim,
                                  a->pg->on ? progress_read_tick : NULL,
                                  a->pg);
    }
    if (!whole || !offsets_fit(&in, a->delim, a->big->memory)) {
        if (f->map.base != NULL) {
            input_unmap(&f->map);
            if (lseek(fd, at, SEEK_SET) != at)
                die(errno, "read error");
            f->x = ext_prepare(a, fd, NULL, 0);
        } else if (reg && at >= 0 && lseek(fd, at, SEEK_SET) == at) {
            free(in.buf);
            f->x = ext_prepare(a, fd, NULL, 0);
        } else {
            f->x = ext_prepare(a, fd, in.buf, in.size);
            free(in.buf);
        }
        return f;
    }
    uint64_t want = a->header;
    size_t h = header_take(a->hdr, in.buf, in.size, a->delim, &want);
    f->in = in;
    f->body.buf = in.buf + h;
    f->body.size = in.size - h;
    recs *r = &f->r;
    scan_records(&f->body, a->delim, r);
    if (r->wide)
        shuffle_records(a->rng, r->off64, r->n, sizeof *r->off64,
                        a->big->threads);
    else
        shuffle_records(a->rng, r->off32, r->n, sizeof *r->off32,
                        a->big->threads);
    return f;
}

void full_write(full *f, outw *out)
{
    if (f->x != NULL) {
        ext_write(f->x, out);
    } else {
        recs *r = &f->r;
        uint64_t before = out_total(out);
        gather_write(out, &f->body, r, f->delim, f->threads, f->pg);
        recs_free(r);
        if (f->map.base != NULL) {
            /* Records are read from the file itself up to here: a write
               that moved a delimiter since the scan changes the bytes
               written (a record cut short or run into the next). */
            if (out_error(out) == 0 &&
                out_total(out) - before != f->body.size) {
                if (f->name != NULL)
                    die(0, "%s: file changed as we read it",
                        quotef(f->name));
                die(0, "standard input: file changed as we read it");
            }
            input_unmap(&f->map);
        } else {
            free(f->in.buf);
        }
    }
    progress_end(f->pg);
    free(f);
}
