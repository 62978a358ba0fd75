/* SPDX-License-Identifier: MIT */
/* The record inputs of the record-permutation golden tests, shared by the
 * generator (tests/gen/gen_records.c, built against a 0.1 tree) and the
 * test (tests/test_records.c): n elements of size bytes, element i holding
 * the little-endian bytes of i (size 4 or 8), or of (uint32 i,
 * uint64 i * 0x9E3779B97F4A7C15) (size 12). One spare byte at the end.
 * NULL when out of memory. */
#ifndef FSH_TESTS_RECORDS_INPUT_H
#define FSH_TESTS_RECORDS_INPUT_H

#include <stdint.h>
#include <stdlib.h>

static inline unsigned char *records_input(size_t n, size_t size)
{
    unsigned char *a = malloc(n * size + 1);
    if (a == NULL)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        unsigned char *e = a + i * size;
        uint64_t v = i, w = (uint64_t)i * UINT64_C(0x9E3779B97F4A7C15);
        if (size == 12) {
            for (int b = 0; b < 4; b++)
                e[b] = (unsigned char)(v >> (8 * b));
            for (int b = 0; b < 8; b++)
                e[4 + b] = (unsigned char)(w >> (8 * b));
        } else {
            for (size_t b = 0; b < size; b++)
                e[b] = (unsigned char)(v >> (8 * b));
        }
    }
    return a;
}

#endif
