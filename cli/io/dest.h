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
    outw *out;              /* while open */
    int is_stdout;
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

#endif
