/* SPDX-License-Identifier: MIT */
/* The shuf-compatible command: one run's state, passed down. */
#ifndef FSH_CLI_SHUF_H
#define FSH_CLI_SHUF_H

#include "common/rng.h"
#include "io/dest.h"
#include "shuf/options.h"
#include "shuf/progress.h"
#include "shuf/records.h"

typedef struct shuf_run {
    opts o;
    lazy_rng rng;           /* default mode's generator */
    headbuf hdr;            /* --header records */
    dest out;
    const char *input_name; /* the input file for messages; NULL: stdin */
    progress pg;            /* --progress, started with the run */
} shuf_run;

/* The command (no subcommand). Returns the exit status. */
int cmd_shuf(int argc, char **argv);

/* The two modes: the library's exact draws (default.c), GNU's draws over
   --random-source (gnu.c). */
int run_default(shuf_run *r);
int run_gnu(shuf_run *r);

/* Open the input (the FILE operand, or standard input). */
int run_open_input(shuf_run *r);
/* Open the output, header first. */
outw *run_open_output(shuf_run *r);
/* --progress of the write phase: done of total items written (total
   PROGRESS_UNKNOWN: -r without -n, the bytes written instead); call it
   after each item (inline: one test of a flag per line, the clock every
   4096 lines), and with last set after the loop. */
static inline void run_wrote(shuf_run *r, const outw *out, uint64_t done,
                             uint64_t total, int last)
{
    if (r->pg.on && (last || (done & 4095) == 0))
        progress_write(&r->pg, done, total, out_total(out));
}

#endif
