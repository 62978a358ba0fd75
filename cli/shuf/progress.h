/* SPDX-License-Identifier: MIT */
/* --progress: a bar on stderr for long runs. */
#ifndef FSH_CLI_PROGRESS_H
#define FSH_CLI_PROGRESS_H

#include <stdint.h>

typedef struct progress {
    int on, forced, shown;
    double t0, last;
} progress;

/* mode: 1 --progress, 0 --no-progress, -1 only on a terminal and for runs
   longer than a second. */
void progress_start(progress *pg, int mode);
/* "PHASE [####......]  NN% T s", at most 5 times a second; with total
   PROGRESS_UNKNOWN, "PHASE  N.N MB  T s" (done counts bytes). */
#define PROGRESS_UNKNOWN UINT64_MAX
void progress_show(progress *pg, const char *phase, uint64_t done,
                   uint64_t total);
/* A line of its own (when the bar is shown). */
void progress_note(progress *pg, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void progress_end(progress *pg);

#endif
