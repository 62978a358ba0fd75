/* SPDX-License-Identifier: MIT */
/* LD_PRELOAD shim for tests: pthread_create fails with EAGAIN (as at a
 * thread or memory limit) after FSH_NOTHREAD_AFTER successful calls (0 when
 * unset: every call fails).
 * Built by make (tests/shim/NAME.c -> build/tests/libNAME.so). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

int pthread_create(pthread_t *t, const pthread_attr_t *a,
                   void *(*fn)(void *), void *arg)
{
    static int (*real)(pthread_t *, const pthread_attr_t *,
                       void *(*)(void *), void *);
    static long made;
    const char *after = getenv("FSH_NOTHREAD_AFTER");
    if (made >= (after != NULL ? atol(after) : 0))
        return EAGAIN;
    if (real == NULL)
        real = (int (*)(pthread_t *, const pthread_attr_t *,
                        void *(*)(void *), void *))dlsym(RTLD_NEXT,
                                                         "pthread_create");
    if (real == NULL)
        return EAGAIN;
    made++;
    return real(t, a, fn, arg);
}
