/* SPDX-License-Identifier: MIT */
/* A 64-bit hash of a byte stream, whatever the read sizes (see fhash.c). */
#ifndef FSH_CLI_FHASH_H
#define FSH_CLI_FHASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct fhash {
    uint64_t v[4];
    unsigned char tail[32];
    size_t tlen;
    uint64_t total;
} fhash;

void fhash_init(fhash *h);
void fhash_update(fhash *h, const void *data, size_t n);
uint64_t fhash_final(const fhash *h);

#endif
