/* SPDX-License-Identifier: MIT */
/* Target input: the input reads (cli/io/input.c), record scanning and
   header_bytes (cli/shuf/records.c).
   Input: byte 0 flags (bit 0: -z NUL records, bit 1: a pipe instead of a
   regular file, bits 2-3: header records), the rest the data. Properties:
   read_all returns the data plus a final delimiter when missing;
   scan_records finds exactly the record starts of a reference split;
   header_bytes covers exactly the first h records; write_recs copies the
   records back byte for byte (through a small writer buffer); reader_next
   yields the same records, each with its delimiter, and reader_block the
   same bytes. */
#include "fuzz.h"
#include "shuf/records.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct job {
    const uint8_t *p;
    size_t len;
    char delim;
    int kind;
    uint64_t h;
} job;

static void run(void *ctx)
{
    const job *j = ctx;
    size_t n, *st, *ln;
    fz_split((const char *)j->p, j->len, j->delim, &n, &st, &ln);

    int fd = fz_input_fd(j->p, j->len, j->kind);
    inbuf in;
    read_all(fd, j->delim, &in);
    close(fd);
    size_t want = j->len + (j->len > 0 && j->p[j->len - 1] != (uint8_t)j->delim);
    FZ_CHECK(in.size == want);
    FZ_CHECK(j->len == 0 || memcmp(in.buf, j->p, j->len) == 0);
    FZ_CHECK(in.size == 0 || in.buf[in.size - 1] == j->delim);

    recs r;
    scan_records(&in, j->delim, &r);
    FZ_CHECK(r.n == n);
    for (size_t i = 0; i < n; i++)
        FZ_CHECK(recs_get(&r, i) == st[i]);

    size_t hb = 0;
    for (size_t i = 0; i < n && i < j->h; i++)
        hb += ln[i];
    FZ_CHECK(header_bytes(in.buf, in.size, j->delim, j->h) == hb);
    /* On the raw data too, where the last record may lack its delimiter. */
    size_t hraw = hb > j->len ? j->len : hb;
    FZ_CHECK(header_bytes((const char *)j->p, j->len, j->delim, j->h) == hraw);

    int ofd = memfd_create("fz-recs", MFD_CLOEXEC);
    FZ_CHECK(ofd >= 0);
    outw *o = out_new_cap(ofd, 4096);
    write_recs(o, &in, &r, r.n, j->delim);
    FZ_CHECK(out_flush(o) == 0);
    FZ_CHECK(out_total(o) == in.size);
    out_free(o);
    char *back = malloc(in.size + 1);
    FZ_CHECK(back != NULL);
    FZ_CHECK(pread(ofd, back, in.size + 1, 0) == (ssize_t)in.size);
    FZ_CHECK(memcmp(back, in.buf, in.size) == 0);
    free(back);
    close(ofd);
    recs_free(&r);

    fd = fz_input_fd(j->p, j->len, j->kind);
    reader s;
    reader_init(&s, fd, j->delim, 16, UINT64_MAX, NULL);
    const char *rec;
    size_t len, k = 0;
    while (reader_next(&s, &rec, &len)) {
        FZ_CHECK(k < n);
        FZ_CHECK(len == ln[k] && memcmp(rec, in.buf + st[k], len) == 0);
        k++;
    }
    FZ_CHECK(k == n);
    reader_free(&s);
    close(fd);

    fd = fz_input_fd(j->p, j->len, j->kind);
    reader_init(&s, fd, j->delim, 16, UINT64_MAX, NULL);
    size_t at = 0;
    while (reader_block(&s, &rec, &len)) {
        FZ_CHECK(len > 0 && at + len <= in.size);
        FZ_CHECK(memcmp(rec, in.buf + at, len) == 0);
        FZ_CHECK(rec[len - 1] == j->delim);
        at += len;
    }
    FZ_CHECK(at == in.size);
    reader_free(&s);
    close(fd);
    free(in.buf);
    free(st);
    free(ln);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 65536)
        return 0;
    job j = {data + 1, size - 1, (data[0] & 1) ? '\0' : '\n',
             (data[0] >> 1) & 1, (uint64_t)(data[0] >> 2) & 3};
    FZ_CHECK(fz_catch(run, &j) == -1); /* no die() on good input */
    return 0;
}
