/* SPDX-License-Identifier: MIT */
/* The task runner: count independent tasks handed out in order by an
   atomic counter to up to `threads` threads (the caller's thread included).
   Which thread runs a task never changes a task's output. */
#include "common/tasks.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

typedef struct tasks_job {
    const fsh_tasks *t;
    void *ctx;
    atomic_size_t next;
} tasks_job;

static void *tasks_worker(void *arg)
{
    tasks_job *jb = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&jb->next, 1);
        if (i >= jb->t->count)
            break;
        jb->t->run(jb->ctx, i);
    }
    return NULL;
}

unsigned fsh_threads_resolve(unsigned threads)
{
    if (threads == 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        threads = c < 1 ? 1u : c > FSH_MAX_THREADS ? FSH_MAX_THREADS
                                                   : (unsigned)c;
    }
    return threads > FSH_MAX_THREADS ? FSH_MAX_THREADS : threads;
}

void fsh_tasks_run(const fsh_tasks *t, void *ctx, unsigned threads)
{
    pthread_t tid[FSH_MAX_THREADS];
    unsigned made = 0;
    threads = fsh_threads_resolve(threads);
    if (threads > t->count)
        threads = t->count > 0 ? (unsigned)t->count : 1u;
    tasks_job jb;
    jb.t = t;
    jb.ctx = ctx;
    atomic_init(&jb.next, 0);
    for (unsigned i = 1; i < threads; i++) {
        if (pthread_create(&tid[made], NULL, tasks_worker, &jb) != 0)
            break; /* fewer threads: same output */
        made++;
    }
    tasks_worker(&jb);
    for (unsigned i = 0; i < made; i++)
        pthread_join(tid[i], NULL);
}
