/* SPDX-License-Identifier: MIT */
/* --progress: a bar on stderr. */
#include "shuf/progress.h"

#include "common/msg.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Standard output is the terminal standard error is: the records go to the
   screen, where a bar redrawn among them would garble them. */
static int output_on_tty(void)
{
    struct stat o, e;
    return isatty(STDOUT_FILENO) && fstat(STDOUT_FILENO, &o) == 0 &&
           fstat(STDERR_FILENO, &e) == 0 && o.st_rdev == e.st_rdev;
}

void progress_start(progress *pg, int mode)
{
    memset(pg, 0, sizeof *pg);
    pg->forced = mode == 1;
    pg->on = pg->forced ||
             (mode == -1 && isatty(STDERR_FILENO) && !output_on_tty());
    pg->t0 = now();
    pg->last = 0;
}

void progress_show(progress *pg, const char *phase, uint64_t done, uint64_t total)
{
    if (!pg->on)
        return;
    double t = now();
    /* Unasked, only runs longer than a second get a bar. */
    if (!pg->forced && t - pg->t0 < 1.0)
        return;
    if (t - pg->last < 0.2 && done != total)
        return;
    pg->last = t;
    if (total == PROGRESS_UNKNOWN) {
        int u = done >= 1000000 ? 2 : done >= 1000;
        fprintf(stderr, "\r%s: %-10s %10.1f %-2s %.1fs  ", program_name,
                phase, (double)done / (u == 2 ? 1e6 : u ? 1e3 : 1),
                u == 2 ? "MB" : u ? "kB" : "B", t - pg->t0);
        fflush(stderr);
        pg->shown = 1;
        return;
    }
    /* done * 100 may not fit: -r -n COUNT goes up to 2^64 - 1. */
    unsigned pct = done >= total                ? 100
                   : total <= UINT64_MAX / 100 ? (unsigned)(done * 100 / total)
                                               : (unsigned)(done / (total / 100));
    if (pct > 99 && done < total)
        pct = 99;
    char bar[21];
    for (unsigned i = 0; i < 20; i++)
        bar[i] = i < pct / 5 ? '#' : '.';
    bar[20] = '\0';
    fprintf(stderr, "\r%s: %-10s [%s] %3u%% %.1fs", program_name, phase, bar,
            pct, t - pg->t0);
    fflush(stderr);
    pg->shown = 1;
}

void progress_read_tick(void *pg, uint64_t done, uint64_t expect)
{
    progress_show(pg, "read", done, expect ? expect : PROGRESS_UNKNOWN);
}

void progress_write(progress *pg, uint64_t done, uint64_t total,
                    uint64_t bytes)
{
    if (total == PROGRESS_UNKNOWN)
        progress_show(pg, "write", bytes, PROGRESS_UNKNOWN);
    else
        progress_show(pg, "write", done, total);
}

void progress_note(progress *pg, const char *fmt, ...)
{
    if (!pg->on || (!pg->forced && now() - pg->t0 < 1.0))
        return;
    va_list ap;
    va_start(ap, fmt);
    if (pg->shown)
        fputc('\n', stderr);
    pg->shown = 0;
    fprintf(stderr, "%s: ", program_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void progress_end(progress *pg)
{
    if (pg->shown)
        fputc('\n', stderr);
    pg->shown = 0;
}

