/* SPDX-License-Identifier: MIT */
/* --progress: a bar on stderr for long runs. */
#ifndef FSH_CLI_PROGRESS_H
#define FSH_CLI_PROGRESS_H

#include <stdint.h>

typedef struct progress {
    int on, forced, shown;
    double t0, last;
} progress;

/* mode: 1 --progress, 0 --no-progress, -1 only when standard error is a
   terminal that standard output is not (the bar would garble records on
   the screen), and for runs longer than a second. */
void progress_start(progress *pg, int mode);
/* "PHASE [####......]  NN% T s", at most 5 times a second; with total
   PROGRESS_UNKNOWN, "PHASE  N.N MB  T s" (done counts bytes). */
#define PROGRESS_UNKNOWN UINT64_MAX
void progress_show(progress *pg, const char *phase, uint64_t done,
                   uint64_t total);
/* The read phase, as the tick of read_upto_ticking and reader_ticking
   (ctx: the progress): "read" and the bytes so far, or their share of
   expect when it is not 0. */
void progress_read_tick(void *pg, uint64_t done, uint64_t expect);
/* The write phase: done of total items written, or with total
   PROGRESS_UNKNOWN (-r without -n) the bytes written so far. Each call
   reads the clock: call it every few thousand items, and once at the end
   (a finished total is always drawn). */
void progress_write(progress *pg, uint64_t done, uint64_t total,
                    uint64_t bytes);
/* A line of its own (when the bar is shown). */
void progress_note(progress *pg, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void progress_end(progress *pg);

#endif
