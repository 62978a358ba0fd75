/* SPDX-License-Identifier: MIT */
/* The shuf-compatible command: options, then one of two modes.
 *
 * Two sources of randomness:
 * - default (default.c): the library's ChaCha8 keyed from the OS (ChaCha20
 *   from --seed), with exactly uniform draws;
 * - --random-source=FILE (gnu.c): gnulib's randint over the file's bytes,
 *   used in the same places and the same order as GNU shuf 9.1, so the
 *   output is byte-identical to GNU's for the same file.
 */
#include "shuf/shuf.h"

#include "common/msg.h"
#include "io/input.h"

#include <stdint.h>
#include <string.h>

static void on_die(void *ctx)
{
    shuf_run *r = ctx;
    progress_end(&r->pg); /* the message on a line of its own */
    dest_abort(&r->out);
}

static int on_flush(void *ctx, int *close_err)
{
    shuf_run *r = ctx;
    return dest_flush_before_error(&r->out, close_err);
}

int run_open_input(shuf_run *r)
{
    const opts *o = &r->o;
    if (o->nops == 1 && strcmp(o->ops[0], "-") != 0)
        r->input_name = o->ops[0];
    r->out.input_read = 1;
    return input_open(o->nops == 1 ? o->ops[0] : NULL);
}

outw *run_open_output(shuf_run *r)
{
    return dest_open(&r->out, r->hdr.buf, r->hdr.len);
}

int cmd_shuf(int argc, char **argv)
{
    argv[0] = (char *)(uintptr_t)program_name; /* for getopt's messages */
    shuf_run run; /* the die hook reaches it: die() exits from below here */
    memset(&run, 0, sizeof run);
    set_die_hook(on_die, &run);
    set_flush_hook(on_flush, &run);
    parse_options(&run.o, argc, argv);
    progress_start(&run.pg, run.o.big.progress);
    run.rng.seed = run.o.seed;
    run.rng.gen = run.o.gen;
    run.out.outfile = run.o.outfile;
    run.out.prefix = run.o.prefix;
    run.out.shards = run.o.shards;
    run.out.tmpdir = run.o.big.tmpdir;
    run.out.memory_capped = run.o.big.memory_set;
    int rc = run.o.random_source != NULL ? run_gnu(&run) : run_default(&run);
    progress_end(&run.pg);
    lazy_free(&run.rng);
    header_free(&run.hdr);
    set_die_hook(NULL, NULL);
    set_flush_hook(NULL, NULL);
    return rc;
}
