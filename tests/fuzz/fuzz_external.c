/* SPDX-License-Identifier: MIT */
/* Target external: the full shuffle (cli/shuf/full.c) with a tiny --memory, so the
   records go through temporary files (several groups), from a regular file
   or a pipe (spooled), with 1-4 threads and 0-3 header records.
   Input: byte 0 flags (bit 0: -z, bit 1: pipe, bits 2-3: header, bits 4-5:
   threads - 1), byte 1 the memory cap (16 + 4 * byte bytes), the rest the
   data. Properties: the output is the header records verbatim then a
   permutation of the other records (a missing final delimiter added), and
   equals the in-memory shuffle of the same data under the same seed. */
#include "fuzz.h"
#include "fairshuf.h"
#include "shuf/full.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int out_fd = -1;
static outw *out_w;

typedef struct job {
    const uint8_t *p;
    size_t len;
    char delim;
    int kind;
    uint64_t header;
    bigopts big;
} job;

static void run(void *ctx)
{
    const job *j = ctx;
    int fd = fz_input_fd(j->p, j->len, j->kind);
    /* The rng is made at its first draw, as the command makes it. */
    lazy_rng rng = {.seed = "ext", .gen = GEN_DEFAULT, .rng = NULL};
    headbuf hdr = {NULL, 0};
    progress pg; /* started by the command before full_prepare */
    progress_start(&pg, j->big.progress);
    ext_args a = {j->delim, j->header, &hdr, &j->big, &rng, &pg, NULL};
    full *f = full_prepare(&a, fd);
    out_w = out_new(out_fd);
    out_header(out_w, hdr.buf, hdr.len);
    full_write(f, out_w);
    close(fd);
    lazy_free(&rng);
    header_free(&hdr);
}

/* The full shuffle with --memory = mem; the output, malloc'd. */
static char *shuffle(job *j, uint64_t mem, unsigned threads, size_t *len)
{
    bigopts_defaults(&j->big);
    j->big.memory = mem;
    j->big.threads = threads;
    j->big.tmpdir = fz_sandbox();
    j->big.progress = 0;
    if (out_fd < 0)
        out_fd = memfd_create("fz-ext", MFD_CLOEXEC);
    FZ_CHECK(out_fd >= 0 && ftruncate(out_fd, 0) == 0);
    FZ_CHECK(lseek(out_fd, 0, SEEK_SET) == 0);
    out_w = NULL;
    int st = fz_catch(run, j);
    FZ_CHECK(st == -1); /* no die() */
    FZ_CHECK(out_w != NULL);
    FZ_CHECK(out_flush(out_w) == 0);
    out_free(out_w);
    off_t end = lseek(out_fd, 0, SEEK_CUR);
    char *buf = malloc((size_t)end + 1);
    FZ_CHECK(buf != NULL);
    FZ_CHECK(pread(out_fd, buf, (size_t)end, 0) == (ssize_t)end);
    *len = (size_t)end;
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > 32768)
        return 0;
    job j = {data + 2, size - 2, (data[0] & 1) ? '\0' : '\n',
             (data[0] >> 1) & 1, (uint64_t)(data[0] >> 2) & 3, {0}};
    unsigned threads = 1 + ((data[0] >> 4) & 3);
    uint64_t mem = 16 + 4 * (uint64_t)data[1];

    size_t n, *st, *ln;
    fz_split((const char *)j.p, j.len, j.delim, &n, &st, &ln);
    /* The input with its final delimiter, as the reader sees it. */
    char *in = malloc(j.len + 2);
    FZ_CHECK(in != NULL);
    memcpy(in, j.p, j.len);
    size_t inlen = j.len;
    if (inlen > 0 && in[inlen - 1] != j.delim)
        in[inlen++] = j.delim;

    size_t elen, mlen;
    char *ext_out = shuffle(&j, mem, threads, &elen);
    job jm = j;
    jm.kind = 0;
    char *mem_out = shuffle(&jm, (uint64_t)1 << 30, 1, &mlen);

    FZ_CHECK(elen == inlen);
    size_t h = j.header < n ? (size_t)j.header : n, hb = 0;
    for (size_t i = 0; i < h; i++)
        hb += ln[i];
    FZ_CHECK(memcmp(ext_out, in, hb) == 0);
    size_t on, *ost, *oln;
    fz_split(ext_out, elen, j.delim, &on, &ost, &oln);
    FZ_CHECK(on == n);
    FZ_CHECK(fz_same_records(in, st + h, ln + h, ext_out, ost + h, oln + h, n - h));
    FZ_CHECK(mlen == elen && memcmp(mem_out, ext_out, elen) == 0);
    free(ost);
    free(oln);
    free(ext_out);
    free(mem_out);
    free(in);
    free(st);
    free(ln);
    return 0;
}
