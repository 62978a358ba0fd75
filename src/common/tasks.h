/* SPDX-License-Identifier: MIT */
/* The task runner: the library's one thread pool. Callers name each kind
   of task and give a count; tasks are handed out in order, and which thread
   runs a task never changes what it computes. */
#ifndef FSH_TASKS_H
#define FSH_TASKS_H

#include "common/common.h"

/* The one thread cap of the library. */
#define FSH_MAX_THREADS 256

/* A named kind of task: run(ctx, i) for each i in [0, count). */
typedef struct fsh_tasks {
    const char *name;
    void (*run)(void *ctx, size_t i);
    size_t count;
} fsh_tasks;

/* threads, or all online cores for 0, capped at FSH_MAX_THREADS. */
FSH_HIDDEN unsigned fsh_threads_resolve(unsigned threads);

/* Run every task of t on up to threads threads (0: all cores); returns when
   all are done. */
FSH_HIDDEN void fsh_tasks_run(const fsh_tasks *t, void *ctx, unsigned threads);

#endif /* FSH_TASKS_H */
