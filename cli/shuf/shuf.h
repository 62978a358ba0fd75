/* SPDX-License-Identifier: MIT */
/* The shuf-compatible command: one run's state, passed down. */
#ifndef FSH_CLI_SHUF_H
#define FSH_CLI_SHUF_H

#include "common/rng.h"
#include "io/dest.h"
#include "shuf/options.h"
#include "shuf/records.h"

typedef struct shuf_run {
    opts o;
    lazy_rng rng;           /* default mode's generator */
    headbuf hdr;            /* --header records */
    dest out;
    const char *input_name; /* the input file for messages; NULL: stdin */
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

#endif
