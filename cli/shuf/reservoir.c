/* SPDX-License-Identifier: MIT */
/* -n K on lines: the reservoir of kept records. */
#include "shuf/reservoir.h"

#include "common/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* Reservoir: k record copies in one arena, replaced slots become garbage
   that is compacted away when it dominates.                                */


/* A small reservoir (at most INPLACE_MAX slots) compacts in place, as
   soon as an eighth of its full arena is garbage: its live records, taken
   in arena order, slide down over the garbage, and the arena stays within
   8/7 of them. A fresh arena beside the old one, or a doubled one, would
   double the peak memory of -n 1000 (issue 13: the freed block stays
   resident in the heap). Each compaction sorts at most INPLACE_MAX
   offsets, and follows at least an eighth of an arena of new records
   (at most 8 ln(n/k) of them for n records: ~75 for -n 8192 of 1e8). */
#define INPLACE_MAX 8192

typedef struct { uint64_t off; size_t slot; } at_slot;

static int by_off(const void *a, const void *b)
{
    uint64_t x = ((const at_slot *)a)->off, y = ((const at_slot *)b)->off;
    return (x > y) - (x < y);
}

static void resv_compact_inplace(resv *r)
{
    at_slot *o = xmalloc(r->m * sizeof *o);
    size_t n = 0;
    for (size_t i = 0; i < r->m; i++) {
        if (r->len[i] > 0)
            o[n++] = (at_slot){r->off[i], i};
        else
            r->off[i] = 0; /* garbage or empty: nothing to keep */
    }
    qsort(o, n, sizeof *o, by_off);
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = (size_t)r->len[o[i].slot];
        memmove(r->arena + at, r->arena + o[i].off, len);
        r->off[o[i].slot] = at;
        at += len;
    }
    free(o);
    r->alen = at;
    r->garbage = 0;
}

static void resv_compact(resv *r, size_t need)
{
    size_t live = r->alen - r->garbage;
    size_t cap = r->acap;
    while (cap - live < need || cap < 2 * live) {
        if (cap > SIZE_MAX / 2)
            xalloc_die();
        cap *= 2;
    }
    char *fresh = xmalloc(cap);
    size_t at = 0;
    for (size_t i = 0; i < r->m; i++) {
        memcpy(fresh + at, r->arena + r->off[i], r->len[i]);
        r->off[i] = at;
        at += r->len[i];
    }
    free(r->arena);
    r->arena = fresh;
    r->acap = cap;
    r->alen = at;
    r->garbage = 0;
}

/* Make slot ready for a new record: a new slot at the end, or its old
   record becomes garbage. */
static void resv_slot(resv *r, size_t slot)
{
    if (slot == r->m) {
        if (r->m == r->cap) {
            r->cap = r->cap ? 2 * r->cap : 1024;
            r->off = xrealloc(r->off, r->cap * sizeof *r->off);
            r->len = xrealloc(r->len, r->cap * sizeof *r->len);
        }
        r->m++;
    } else {
        /* The old record is garbage now; a compaction must not copy it. */
        r->garbage += (size_t)r->len[slot];
        r->len[slot] = 0;
    }
}

static void resv_put(resv *r, size_t slot, const char *rec, size_t len)
{
    resv_slot(r, slot);
    if (r->acap - r->alen < len) {
        if (r->arena != NULL && r->m <= INPLACE_MAX &&
            r->garbage >= r->alen / 8)
            resv_compact_inplace(r);
        if (r->acap - r->alen >= len) {
            /* room now */
        } else if (r->arena != NULL && r->garbage >= r->alen / 2) {
            resv_compact(r, len);
        } else {
            size_t cap = r->acap ? r->acap : (size_t)1 << 16;
            while (cap - r->alen < len) {
                if (cap > SIZE_MAX / 2)
                    xalloc_die();
                cap *= 2;
            }
            r->arena = xrealloc(r->arena, cap);
            r->acap = cap;
        }
    }
    memcpy(r->arena + r->alen, rec, len);
    r->off[slot] = r->alen;
    r->len[slot] = len;
    r->alen += len;
}

/* resv_put of the record reader_next just returned. A long record that
   outweighs the others is taken over from the stream and becomes the start
   of a new arena (the others are copied after it), so it is never held
   twice: -n 1 on one huge line needs about the line's size. */
void resv_put_from(resv *r, size_t slot, reader *s, const char *rec,
                          size_t len)
{
    size_t old = slot < r->m ? (size_t)r->len[slot] : 0;
    size_t live = r->alen - r->garbage - old; /* the other records */
    char *block = len > live ? reader_take(s, len) : NULL;
    if (block == NULL) {
        resv_put(r, slot, rec, len);
        return;
    }
    resv_slot(r, slot);
    block = xrealloc(block, len + live);
    size_t at = len;
    for (size_t i = 0; i < r->m; i++) {
        if (i == slot)
            continue;
        memcpy(block + at, r->arena + r->off[i], r->len[i]);
        r->off[i] = at;
        at += r->len[i];
    }
    free(r->arena);
    r->arena = block;
    r->acap = r->alen = at;
    r->garbage = 0;
    r->off[slot] = 0;
    r->len[slot] = len;
}

void resv_free(resv *r)
{
    free(r->off);
    free(r->len);
    free(r->arena);
}

