/* SPDX-License-Identifier: MIT */
/* Tiny test harness: CHECK(cond) records a failure with file, line and the
   current seed; check_done() prints the program's summary and exit status. */
#ifndef FSH_CHECK_H
#define FSH_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long check_passed, check_failed;
static uint64_t check_seed; /* set by tests that use a seed */

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (cond) {                                                            \
            check_passed++;                                                    \
        } else {                                                               \
            check_failed++;                                                    \
            fprintf(stderr, "%s:%d: CHECK failed: %s (seed %llu)\n", __FILE__, \
                    __LINE__, #cond, (unsigned long long)check_seed);          \
        }                                                                      \
    } while (0)

/* CHECK(a == b) for integers, printing both values. */
#define CHECK_EQ(a, b)                                                         \
    do {                                                                       \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);        \
        if (check_a_ == check_b_) {                                            \
            check_passed++;                                                    \
        } else {                                                               \
            check_failed++;                                                    \
            fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s (%lld vs %lld, " \
                    "seed %llu)\n", __FILE__, __LINE__, #a, #b, check_a_,      \
                    check_b_, (unsigned long long)check_seed);                 \
        }                                                                      \
    } while (0)

static inline int check_done(const char *name)
{
    printf("%s: %lu checks passed, %lu failed\n", name, check_passed,
           check_failed);
    return check_failed ? 1 : 0;
}

#endif
