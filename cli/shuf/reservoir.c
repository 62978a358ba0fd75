/* SPDX-License-Identifier: MIT */
/* -n K on lines: the reservoir of kept records. */
#include "shuf/reservoir.h"

#include "common/xalloc.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

/* The arena holds the kept records in the order they came, each followed
   by its slot number (FOOT bytes); a replaced record stays as garbage: its
   slot's offset is no longer its own. Once a sixth of the arena is
   garbage, a compaction walks it in order (each record ends with the
   delimiter) and slides the kept records down over the garbage: the arena
   stays within 6/5 of the kept records and their slot numbers, with no
   second arena beside it (a fresh or doubled arena doubled the peak
   memory: -n 1e6 of 100-byte lines held 377 MB against GNU shuf's 173,
   now 152). A compaction moves at most 5 bytes for each byte of garbage
   it removes. */
#define FOOT sizeof(uint64_t)

static void foot_put(char *p, uint64_t slot) { memcpy(p, &slot, FOOT); }

static uint64_t foot_get(const char *p)
{
    uint64_t slot;
    memcpy(&slot, p, FOOT);
    return slot;
}

static void resv_compact(resv *r)
{
    size_t w = 0, run = 0, p = 0; /* the kept run arena[run..p) goes to w */
    while (p < r->alen) {
        const char *e = memchr(r->arena + p, r->delim, r->alen - p);
        size_t end = (size_t)(e - r->arena) + 1 + FOOT;
        uint64_t slot = foot_get(e + 1);
        if (r->off[slot] == p && r->len[slot] > 0) {
            r->off[slot] = w + (p - run);
        } else {
            memmove(r->arena + w, r->arena + run, p - run);
            w += p - run;
            run = end;
        }
        p = end;
    }
    memmove(r->arena + w, r->arena + run, p - run);
    r->alen = w + (p - run);
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
        r->garbage += (size_t)r->len[slot] + FOOT;
        r->len[slot] = 0;
    }
}

static void resv_put(resv *r, size_t slot, const char *rec, size_t len)
{
    resv_slot(r, slot);
    if (r->garbage > 0 && r->garbage >= r->alen / 6)
        resv_compact(r);
    if (r->acap - r->alen < len + FOOT) {
        size_t cap = r->acap ? r->acap : (size_t)1 << 16;
        while (cap - r->alen < len + FOOT) {
            if (cap > SIZE_MAX / 2)
                xalloc_die();
            cap *= 2;
        }
        r->arena = xrealloc(r->arena, cap);
        r->acap = cap;
    }
    memcpy(r->arena + r->alen, rec, len);
    foot_put(r->arena + r->alen + len, slot);
    r->off[slot] = r->alen;
    r->len[slot] = len;
    r->alen += len + FOOT;
}

/* resv_put of the record reader_next just returned. A long record that
   outweighs the others is taken over from the stream and becomes the start
   of a new arena (the others are copied after it), so it is never held
   twice: -n 1 on one huge line needs about the line's size. */
void resv_put_from(resv *r, size_t slot, reader *s, const char *rec,
                   size_t len)
{
    r->delim = s->delim;
#ifdef M_MMAP_THRESHOLD
    if (r->m == 0) {
        /* glibc raises its mmap threshold to the size of a mapped block
           once it is freed (the start-up's 1 MiB buffers): the arena's
           doublings up to there then came from the heap, each copied and
           the old block left resident. A fixed threshold keeps them
           mapped, grown by mremap: -n 10000 of 100-byte lines peaked at
           4.6 MB, now 3.3 (GNU shuf: 3.4). */
        mallopt(M_MMAP_THRESHOLD, 128 << 10);
    }
#endif
    size_t old = slot < r->m ? (size_t)r->len[slot] + FOOT : 0;
    size_t live = r->alen - r->garbage - old; /* the other records */
    char *block = len > live ? reader_take(s, len) : NULL;
    if (block == NULL) {
        resv_put(r, slot, rec, len);
        return;
    }
    resv_slot(r, slot);
    if (live > SIZE_MAX - FOOT - len)
        xalloc_die();
    block = xrealloc(block, len + FOOT + live);
    foot_put(block + len, slot);
    size_t at = len + FOOT;
    for (size_t i = 0; i < r->m; i++) {
        if (i == slot)
            continue;
        memcpy(block + at, r->arena + r->off[i], r->len[i] + FOOT);
        r->off[i] = at;
        at += r->len[i] + FOOT;
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

