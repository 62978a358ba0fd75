/* SPDX-License-Identifier: MIT */
/* The reservoir: k record copies in one arena; replaced records become
   garbage that is compacted away once it is a sixth of the arena. */
#ifndef FSH_CLI_RESERVOIR_H
#define FSH_CLI_RESERVOIR_H

#include <stddef.h>
#include <stdint.h>

#include "io/input.h"

typedef struct resv {
    size_t m, cap;
    uint64_t *off, *len;
    char *arena;        /* records, each followed by its slot number */
    size_t alen, acap, garbage;
    char delim;         /* the records' */
} resv;

/* Put the record that reader_next just returned, rec[0..len), in slot
   (slot == r->m: a new slot at the end). A long record that outweighs the
   others is taken over from the reader, so it is never held twice. */
void resv_put_from(resv *r, size_t slot, reader *s, const char *rec,
                   size_t len);
void resv_free(resv *r);

#endif
