/* SPDX-License-Identifier: MIT */
/* Where the output goes: standard output, -o FILE, or --shards files. */
#ifndef FSH_CLI_DEST_H
#define FSH_CLI_DEST_H

#include <stddef.h>
#include <stdint.h>

#include "io/output.h"

typedef struct dest {
    const char *outfile;    /* -o FILE, or NULL */
    const char *prefix;     /* --output-prefix with shards > 0 */
    uint64_t shards;
    const char *tmpdir;     /* for -o's spool */
    int memory_capped;      /* --memory given: -o's spool, the whole
                               output, is never memory (it would come on
                               top of the cap; docs/fairshuf.1, -o) */
    size_t cap;             /* the output's buffer; 0: out_new's */
    outw *out;              /* while open */
    int is_stdout;
    int direct;             /* writes reach the output as GNU's stdio's:
                               standard output or a direct -o FILE */
    int input_read;         /* the input was read on standard input (GNU
                               has closed it when it opens -o FILE) */
} dest;

/* Open the output once all input is read, and write the header records
   (to every shard). Shards are P0 .. P(K-1), zero-padded to the width of
   K - 1. */
outw *dest_open(dest *d, const void *hdr, size_t hdr_len);
/* Finish (GNU's write-error reports), commit -o or the shards, free. */
void dest_finish(dest *d);
/* On a fatal error: flush what standard output buffered, as GNU's
   close_stdout() does, and remove the temporaries. */
void dest_abort(dest *d);
/* Before a fatal error's message, as GNU's error() flushes stdout: write
   what a direct output buffered (out_flush_before_error); 0, or -1 when
   that failed (*close_err as there). */
int dest_flush_before_error(dest *d, int *close_err);

#endif
