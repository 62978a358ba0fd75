/* SPDX-License-Identifier: MIT */
/* External mode: shuffling records through temporary files. */
#ifndef FSH_CLI_EXTERNAL_H
#define FSH_CLI_EXTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "common/rng.h"
#include "io/output.h"
#include "shuf/options.h"
#include "shuf/progress.h"
#include "shuf/records.h"

typedef struct ext ext;

/* What external mode takes from the run. */
typedef struct ext_args {
    char delim;
    uint64_t header;        /* --header records, collected into hdr */
    headbuf *hdr;
    const bigopts *big;
    lazy_rng *rng;
    progress *pg;
    const char *input_name; /* for messages; NULL: standard input */
} ext_args;

/* Read fd's records (pre[0..prelen) are bytes already read from fd, which
   is then a pipe and gets spooled first), draw their permutation and
   spread them over temporary files. Nothing is written yet. */
ext *ext_prepare(const ext_args *a, int fd, const char *pre, size_t prelen);
/* Write the records to out, in their new order; frees x. */
void ext_write(ext *x, outw *out);

#endif
