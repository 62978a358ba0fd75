/* SPDX-License-Identifier: MIT */
/* Where the output goes: standard output, -o FILE, or --shards files. */
#include "io/dest.h"

#include "common/xalloc.h"
#include "io/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* -o FILE opened as GNU shuf opens it: its input (read on standard
   input) is closed by then, and gnulib's freopen_safer puts /dev/null on a
   closed standard input while FILE is opened. So /dev/stdin, /dev/fd/0 or
   /proc/self/fd/0 as FILE name /dev/null after the input was read, or
   when standard input was closed, and standard input otherwise (-e, -i,
   -n 0). Our input may still be open on descriptor 0 (external mode reads
   it again while writing): it is set aside for the open and put back. */
static int open_outfile(dest *d)
{
    int saved = -1, guard = -1;
    if (d->input_read && fcntl(STDIN_FILENO, F_GETFD) >= 0) {
        saved = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
        if (saved < 0)
            saved = -2; /* cannot set it aside: open FILE as before */
        else
            close(STDIN_FILENO);
    }
    if (saved != -2 && fcntl(STDIN_FILENO, F_GETFD) < 0 && errno == EBADF)
        guard = open("/dev/null", O_RDONLY | O_CLOEXEC);
    int fd = outfile_open_ex(d->outfile, d->tmpdir, &d->direct);
    if (guard >= 0)
        close(guard);
    if (saved >= 0) {
        dup2(saved, STDIN_FILENO);
        close(saved);
    }
    return fd;
}

/* -o FILE's temporary filled the file system: FILE's own space may do
   (outfile_respool). */
static int dest_full(void *ctx, int fd, uint64_t written)
{
    const dest *d = ctx;
    return outfile_respool(fd, written, d->tmpdir);
}

outw *dest_open(dest *d, const void *hdr, size_t hdr_len)
{
    outfile_memory_spool(!d->memory_capped);
    if (d->shards != 0) {
        int width = snprintf(NULL, 0, "%llu", (unsigned long long)(d->shards - 1));
        size_t k = (size_t)d->shards;
        outw **kids = xmalloc(k * sizeof *kids);
        size_t plen = strlen(d->prefix) + (size_t)width + 1;
        /* Buffers share 64 MiB, 64 KiB to 1 MiB each. */
        size_t cap = ((size_t)64 << 20) / k;
        cap = cap > ((size_t)1 << 20) ? (size_t)1 << 20 : cap < 65536 ? 65536 : cap;
        for (size_t i = 0; i < k; i++) {
            char *name = xmalloc(plen);
            snprintf(name, plen, "%s%0*llu", d->prefix, width,
                     (unsigned long long)i);
            kids[i] = out_new_cap(outfile_open(name, d->tmpdir), cap);
        }
        d->out = out_new(-1);
        out_fan(d->out, kids, k);
        d->is_stdout = 0;
        d->direct = 0;
    } else {
        int fd = STDOUT_FILENO;
        d->direct = 1;
        if (d->outfile != NULL)
            fd = open_outfile(d);
        d->out = d->cap != 0 ? out_new_cap(fd, d->cap) : out_new(fd);
        d->is_stdout = d->outfile == NULL;
        if (d->outfile != NULL && !d->direct)
            out_on_full(d->out, dest_full, d);
    }
    out_header(d->out, hdr, hdr_len);
    return d->out;
}

void dest_finish(dest *d)
{
    out_finish(d->out, 1);
    if (d->outfile != NULL || d->shards != 0)
        outfile_commit();
    free(d->out);
    d->out = NULL;
}

void dest_abort(dest *d)
{
    if (d->out != NULL && d->is_stdout)
        out_flush_quiet(d->out);
    outfile_abort();
}

int dest_flush_before_error(dest *d, int *close_err)
{
    if (d->out == NULL || !d->direct)
        return 0;
    return out_flush_before_error(d->out, close_err);
}
