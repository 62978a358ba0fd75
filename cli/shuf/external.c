/* SPDX-License-Identifier: MIT */
/* External mode: more records than --memory holds, shuffled through
 * temporary files with the library's record permutation, in pieces
 * (fsh_records_buckets, fsh_records_shuffle_group). It counts the
 * records (a pipe is first copied to a spool file), then pass 1 writes
 * each record, prefixed by a 32-bit tag, to the temporary file of its
 * group, and pass 2 loads each group, orders it and writes it out:
 * - small N: group = a range of output positions, tag = position in it;
 * - large N: group = the high bits of the bucket id, tag = bucket id.
 * Temporary files are unlinked as soon as they are created, so they vanish
 * on success, error, signal or crash alike. ext_prepare reads all input
 * and draws; the caller then opens its output and calls ext_write.
 */
#include "shuf/external.h"

#include "common/msg.h"
#include "common/quote.h"
#include "common/sysio.h"
#include "common/xalloc.h"
#include "io/fhash.h"
#include "io/tmpfile.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ID_CHUNK 16384

typedef struct ext {
    char delim;
    uint64_t n, bytes;   /* body records and their bytes */
    uint64_t raw;        /* bytes read from the input by the count pass */
    uint64_t hash;       /* their hash */
    int check;           /* the input is the user's file: check the hash */
    int small;           /* n <= FSH_RECORDS_SMALL: position groups */
    uint8_t key[32];
    unsigned bits, gbits; /* bucket bits, group bits (large) */
    uint32_t *pos;       /* small: output position of each record */
    uint64_t gsize;      /* small: positions per group */
    size_t ngroups;
    int *gfd;
    outw **gw;
    int in, spooled;     /* the descriptor read, and whether it is our spool */
    const char *tmpdir;  /* -T */
    unsigned threads;
    const char *input_name; /* for messages; NULL: standard input */
    progress *pg;
} ext;

static _Noreturn void input_changed(const ext *x)
{
    if (x->input_name != NULL)
        die(0, "%s: file changed as we read it", quotef(x->input_name));
    die(0, "standard input: file changed as we read it");
}

/* Pass 1: every body record, tagged, to its group's file. It reads exactly
   the bytes the count pass read and must find the same records in them
   (and, for the user's file, the same hash): otherwise the input changed
   in between and the run fails before any output is opened. */
static void ext_distribute(ext *x, int fd, uint64_t header)
{
    fhash h;
    fhash_init(&h);
    reader r;
    reader_init(&r, fd, x->delim, (size_t)4 << 20, x->raw, x->check ? &h : NULL);
    const char *p;
    size_t len;
    uint64_t i = 0, skip = header;
    uint32_t ids[ID_CHUNK];
    size_t idn = 0, idat = 0;
    while (reader_block(&r, &p, &len)) {
        const char *e = p + len;
        while (p < e) {
            const char *q = (const char *)memchr(p, x->delim,
                                                 (size_t)(e - p)) + 1;
            if (skip > 0) {
                skip--;
                p = q;
                continue;
            }
            uint32_t tag;
            size_t g;
            if (i == x->n)
                input_changed(x);
            if (x->small) {
                uint64_t ps = x->pos[i];
                g = (size_t)(ps / x->gsize);
                tag = (uint32_t)(ps % x->gsize);
            } else {
                if (idat == idn) {
                    idn = ID_CHUNK;
                    check_status(fsh_records_buckets(x->key, ids, idn, x->bits, i));
                    idat = 0;
                }
                tag = ids[idat++];
                g = tag >> (x->bits - x->gbits);
            }
            unsigned char t4[4] = {(unsigned char)tag,
                                   (unsigned char)(tag >> 8),
                                   (unsigned char)(tag >> 16),
                                   (unsigned char)(tag >> 24)};
            tmp_write(x->tmpdir, x->gw[g], t4, 4);
            tmp_write(x->tmpdir, x->gw[g], p, (size_t)(q - p));
            p = q;
            i++;
            if ((i & 0xffff) == 0)
                progress_show(x->pg, "scatter", i, x->n);
        }
    }
    reader_free(&r);
    if (i != x->n || r.raw != x->raw ||
        (x->check && fhash_final(&h) != x->hash))
        input_changed(x);
    for (size_t g = 0; g < x->ngroups; g++) {
        tmp_flush(x->tmpdir, x->gw[g]);
        out_free(x->gw[g]);
    }
    free(x->gw);
    x->gw = NULL;
}

/* Pass 2: load, order and write group g. */
static void ext_group(ext *x, size_t g, outw *out, uint64_t *written)
{
    struct stat st;
    int fd = x->gfd[g];
    if (fstat(fd, &st) != 0)
        tmp_die(x->tmpdir, errno, "read error on");
    size_t size = (size_t)st.st_size;
    char *buf = tmp_load(x->tmpdir, fd, size);
    close(fd);
    x->gfd[g] = -1;
    size_t cnt = 0;
    for (size_t at = 0; at < size; cnt++)
        at = (size_t)((char *)memchr(buf + at + 4, x->delim,
                                     size - at - 4) - buf) + 1;
    size_t *off = xmalloc((cnt ? cnt : 1) * sizeof *off);
    uint32_t *tag = xmalloc((cnt ? cnt : 1) * sizeof *tag);
    size_t k = 0;
    for (size_t at = 0; at < size; k++) {
        const unsigned char *t = (const unsigned char *)buf + at;
        tag[k] = (uint32_t)t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 |
                 (uint32_t)t[3] << 24;
        off[k] = at + 4;
        at = (size_t)((char *)memchr(buf + at + 4, x->delim, size - at - 4) -
                      buf) + 1;
    }
    size_t *ord;
    if (x->small) {
        /* Pass 1 wrote positions g * gsize .. of a permutation: exactly
           every slot of ord once. Check it anyway; ord is indexed by it. */
        ord = xmalloc((cnt ? cnt : 1) * sizeof *ord);
        uint64_t lo = (uint64_t)g * x->gsize;
        uint64_t want = lo >= x->n ? 0
                        : x->n - lo < x->gsize ? x->n - lo : x->gsize;
        if (cnt != want)
            tmp_die(x->tmpdir, 0, "inconsistent");
        for (size_t i = 0; i < cnt; i++) {
            if (tag[i] >= cnt)
                tmp_die(x->tmpdir, 0, "inconsistent");
            ord[tag[i]] = off[i];
        }
        free(off);
    } else {
        uint32_t nb = (uint32_t)1 << (x->bits - x->gbits);
        uint32_t lo = (uint32_t)(g << (x->bits - x->gbits));
        check_status(fsh_records_shuffle_group(x->key, off, cnt, sizeof *off,
                                               tag, lo, nb, x->threads));
        ord = off;
    }
    free(tag);
    for (size_t i = 0; i < cnt; i++) {
        inbuf in = {buf, size};
        if (write_rec(out, &in, ord[i], x->delim) != 0)
            break;
        if ((++*written & 0xffff) == 0)
            progress_show(x->pg, "write", *written, x->n);
    }
    free(ord);
    free(buf);
}

/* Count the body records of the regular file fd from its current offset
   (which is restored), collecting the header records into hdr. */
static void ext_count(ext *x, int fd, uint64_t header, headbuf *hdr)
{
    off_t start = lseek(fd, 0, SEEK_CUR);
    struct stat st;
    uint64_t total = fstat(fd, &st) == 0 ? (uint64_t)st.st_size : 0;
    uint64_t nrec = 0, bytes = 0, want = header;
    fhash h;
    fhash_init(&h);
    reader r;
    reader_init(&r, fd, x->delim, (size_t)4 << 20, UINT64_MAX,
                x->check ? &h : NULL);
    const char *p;
    size_t len;
    while (reader_block(&r, &p, &len)) {
        const char *e = p + len, *q = p;
        if (want > 0)
            q += header_take(hdr, q, len, x->delim, &want);
        bytes += (uint64_t)(e - q);
        for (; q < e; nrec++)
            q = (const char *)rawmemchr(q, x->delim) + 1;
        progress_show(x->pg, "count", r.bytes, total);
    }
    reader_free(&r);
    x->n = nrec;
    x->bytes = bytes;
    x->raw = r.raw;
    x->hash = fhash_final(&h);
    if (lseek(fd, start < 0 ? 0 : start, SEEK_SET) < 0)
        die(errno, "read error");
}

/* Copy pre[0..prelen) and the rest of fd (a pipe) to a spool file. */
static int ext_spool(const ext *x, int fd, const char *pre, size_t prelen)
{
    int spool = tmp_create(x->tmpdir);
    outw *sw = out_new_cap(spool, (size_t)1 << 20);
    tmp_write(x->tmpdir, sw, pre, prelen);
    tmp_flush(x->tmpdir, sw);
    size_t cap = (size_t)4 << 20;
    char *buf = xmalloc(cap);
    uint64_t got = prelen;
    for (;;) {
        if (x->pg->on)
            input_wait(fd, progress_read_tick, x->pg, got, 0);
        ssize_t r = read_retry(fd, buf, cap);
        if (r < 0)
            die(errno, "read error");
        if (r == 0)
            break;
        tmp_write(x->tmpdir, sw, buf, (size_t)r);
        /* Still the read phase (full.c's read_tick before it): the bytes
           so far, not the count where the in-memory attempt stopped. */
        got += (uint64_t)r;
        progress_show(x->pg, "read", got, PROGRESS_UNKNOWN);
    }
    free(buf);
    tmp_flush(x->tmpdir, sw);
    out_free(sw);
    if (lseek(spool, 0, SEEK_SET) < 0)
        tmp_die(x->tmpdir, errno, "read error on");
    return spool;
}

/* One descriptor per group file, with room for the rest: raise the soft
   limit on open files toward the hard one when it is too low (a shell's
   default of 1024, or 256, is below the 1024 groups of a small --memory);
   when even the hard limit is too low, say so. */
static void ensure_fds(size_t groups)
{
    struct rlimit rl;
    rlim_t want = (rlim_t)groups + 16; /* stdio, input, output, spool */
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
        rl.rlim_cur >= want)
        return;
    rlim_t old = rl.rlim_cur;
    rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= want
                      ? want
                      : rl.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
        rl.rlim_cur = old;
    if (rl.rlim_cur < want)
        die(0,
            "external mode needs %zu open files for its %zu groups, but the "
            "limit is %llu (ulimit -n): raise it, or give more --memory",
            groups + 16, groups, (unsigned long long)rl.rlim_cur);
}

ext *ext_prepare(const ext_args *a, int fd, const char *pre, size_t prelen)
{
    ext *xp = xmalloc(sizeof *xp);
    ext x;
    memset(&x, 0, sizeof x);
    x.delim = a->delim;
    x.tmpdir = a->big->tmpdir;
    x.threads = a->big->threads;
    x.input_name = a->input_name;
    x.pg = a->pg;
    x.in = pre != NULL ? ext_spool(&x, fd, pre, prelen) : fd;
    x.spooled = x.in != fd;
    x.check = !x.spooled; /* a spool file of ours cannot change */
    ext_count(&x, x.in, a->header, a->hdr);
    uint64_t need = x.bytes + 24 * x.n;
    uint64_t budget = a->big->memory / 10 * 9;
    if (budget < 16)
        budget = 16;
    uint64_t ng = (need + budget - 1) / budget;
    if (ng < 1)
        ng = 1;
    x.small = x.n <= FSH_RECORDS_SMALL;
    if (x.small) {
        if (ng > 1024)
            ng = 1024;
        if (x.n > 0 && ng > x.n)
            ng = x.n;
        x.ngroups = (size_t)ng;
        x.gsize = x.n ? (x.n + ng - 1) / ng : 1;
        x.ngroups = x.n ? (size_t)((x.n + x.gsize - 1) / x.gsize) : 1;
        uint32_t *v = xmalloc((size_t)(x.n ? x.n : 1) * sizeof *v);
        for (size_t i = 0; i < (size_t)x.n; i++)
            v[i] = (uint32_t)i;
        shuffle_records(a->rng, v, (size_t)x.n, sizeof *v, x.threads);
        x.pos = xmalloc((size_t)(x.n ? x.n : 1) * sizeof *x.pos);
        for (size_t k = 0; k < (size_t)x.n; k++)
            x.pos[v[k]] = (uint32_t)k;
        free(v);
    } else {
        /* The record permutation's key: the rng's next 32 bytes. */
        check_status(fsh_rng_bytes(lazy_get(a->rng), x.key, sizeof x.key));
        x.bits = fsh_records_bits(x.n);
        unsigned gb = 0;
        while (gb < x.bits && gb < 10 && ((uint64_t)1 << gb) < ng)
            gb++;
        x.gbits = gb;
        x.ngroups = (size_t)1 << gb;
    }
    progress_note(x.pg, "external shuffle: %llu records, %zu groups in %s",
                  (unsigned long long)x.n, x.ngroups, x.tmpdir);
    ensure_fds(x.ngroups);
    x.gfd = xmalloc(x.ngroups * sizeof *x.gfd);
    x.gw = xmalloc(x.ngroups * sizeof *x.gw);
    uint64_t wb = a->big->memory / 4 / x.ngroups;
    size_t wcap = wb > ((uint64_t)1 << 20) ? (size_t)1 << 20
                  : wb < 4096             ? 4096
                                          : (size_t)wb;
    for (size_t g = 0; g < x.ngroups; g++) {
        x.gfd[g] = tmp_create(x.tmpdir);
        x.gw[g] = out_new_cap(x.gfd[g], wcap);
    }
    ext_distribute(&x, x.in, a->header);
    if (x.spooled)
        close(x.in);
    free(x.pos);
    x.pos = NULL;
    *xp = x;
    return xp;
}

void ext_write(ext *x, outw *out)
{
    uint64_t written = 0;
    for (size_t g = 0; g < x->ngroups; g++)
        ext_group(x, g, out, &written);
    progress_show(x->pg, "write", x->n, x->n);
    free(x->gfd);
    free(x);
}
