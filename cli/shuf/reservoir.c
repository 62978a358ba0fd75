/* SPDX-License-Identifier: MIT */
/* -n K on lines: the reservoir of kept records. */
#include "shuf/reservoir.h"

#include "common/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* Reservoir: k record copies in one arena, replaced slots become garbage
   that is compacted away when it dominates.                                */


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
        if (r->arena != NULL && r->garbage >= r->alen / 2) {
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

