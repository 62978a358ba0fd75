/* SPDX-License-Identifier: MIT */
/* Ordered k-of-n samples: sparse forward Fisher-Yates (fsh_rangeperm,
   fsh_sample_range). */
#include "sample/sample.h"
#include "uniform/uniform.h"

#include <errno.h>
#include <sodium.h>
#include <stdlib.h>
#include <sys/mman.h>

/*
 * fsh_rangeperm is the forward Fisher-Yates shuffle of the identity array
 * 0..last, run one step per draw: step i picks j uniform in [i, last], swaps
 * a[i] and a[j] and hands out a[i]. Only positions that were touched differ
 * from the identity, so a hash map from position to value is enough
 * (Knuth TAOCP 3.4.2 exercise 12 notes the idea; the memory is O(draws)).
 * When the draws expected (a hint), or made so far, are a tenth of the
 * range or more (half, above 2^32 values) a plain array is faster at about
 * the map's size; both storages follow the same steps and so give the same
 * output for the same draws.
 */

enum { DENSE_NONE = 0, DENSE_U32 = 1, DENSE_U64 = 2 };

/* A uint32 array of the n = last + 1 positions replaces the map from
   n <= DENSE_RATIO * draws (fsh_sample_range's k; a permutation's hint, or
   its draws when the map grows past it): see fsh_sample_range below. */
#ifndef DENSE_RATIO
#define DENSE_RATIO 10
#endif

/* A slot of the position map: key = a displaced position, val = the value
   now there. Only positions j > i are ever stored (step i stores j = i + r
   for r >= 1), so position 0 is never a key and key 0 marks an empty slot,
   even over the full 64-bit range. Key and value share a cache line, so a
   look-up is one memory access. */
typedef struct pm_slot {
    uint64_t key;
    uint64_t val;
} pm_slot;

/*
 * Storage of fsh_sample_range and fsh_rangeperm. Tables of megabytes are read at random
 * positions, and with 4 KiB pages nearly every access then also misses the
 * TLB (a two-level page walk under virtualisation) and the first touch of
 * each page faults: such blocks get 2 MiB more than they need, and their
 * 2 MiB aligned interior is marked for transparent huge pages where the
 * system offers them (a hint; the contents are the same either way). The
 * memory still comes from malloc/calloc (a large calloc is fresh, untouched
 * zero pages), so allocation failures are the usual FSH_ENOMEM.
 */
#define BIG_BLOCK ((size_t)4 << 20)
#define HUGE_PAGE ((size_t)2 << 20)

typedef struct block {
    void *p;    /* usable memory (zeroed if asked) */
    void *base; /* what to free */
} block;

static int block_alloc(block *b, size_t bytes, int zero)
{
    size_t extra = bytes >= BIG_BLOCK && bytes <= SIZE_MAX - HUGE_PAGE
                       ? HUGE_PAGE
                       : 0;
    b->base = zero ? calloc(1, bytes + extra) : malloc(bytes + extra);
    if (b->base == NULL)
        return FSH_ENOMEM;
    b->p = b->base;
#if defined(MADV_HUGEPAGE)
    if (extra != 0) {
        uintptr_t a = ((uintptr_t)b->base + HUGE_PAGE - 1) &
                      ~(uintptr_t)(HUGE_PAGE - 1);
        b->p = (void *)a;
        int e = errno; /* a hint: with THP off it fails, silently */
        (void)madvise(b->p, bytes & ~(HUGE_PAGE - 1), MADV_HUGEPAGE);
        errno = e;
    }
#endif
    return FSH_OK;
}

/*
 * Wiping: the storage holds the order drawn and the state behind the rest
 * of it, so it is zeroed (sodium_memzero) before it goes back to the
 * allocator, as the deck's cards and the rng's key are (docs/DESIGN.md,
 * "RNG layer"). An array was written whole when it was made, and is wiped
 * whole. A map is wiped by chunks of 2^MARK_SHIFT slots (4 KiB): a bit
 * each, after the slots in the map's block, marks the chunks a key went
 * into, and only those are zeroed. A map sized for a large hint and used
 * for a few draws is mostly untouched zero pages (a fresh calloc block):
 * zeroing all of it would fault every page in, as much memory as the hint
 * asked for, at the moment it is given back.
 */
#define MARK_SHIFT 8

/* 64-bit words of marks for a map of cap slots. */
static size_t mark_words(size_t cap)
{
    return ((cap - 1) >> MARK_SHIFT) / 64 + 1;
}

/* A zeroed map of cap slots (pm_cap_for) and its marks, in one block. */
static int map_alloc(block *b, size_t cap, pm_slot **slots, uint64_t **marks)
{
    size_t bytes = cap * sizeof(pm_slot) + mark_words(cap) * sizeof(uint64_t);
    if (block_alloc(b, bytes, 1) != FSH_OK)
        return FSH_ENOMEM;
    *slots = b->p;
    *marks = (uint64_t *)(*slots + cap);
    return FSH_OK;
}

static inline int marked(const uint64_t *marks, size_t chunk)
{
    return (int)(marks[chunk / 64] >> (chunk % 64) & 1);
}

/* Zero the chunks of the map that keys went into, then the marks. */
static void map_wipe(pm_slot *s, size_t cap, uint64_t *marks)
{
    size_t chunks = ((cap - 1) >> MARK_SHIFT) + 1;
    for (size_t c = 0; c < chunks;) {
        if (!marked(marks, c)) {
            c++;
            continue;
        }
        size_t e = c + 1; /* a run of marked chunks: one call */
        while (e < chunks && marked(marks, e))
            e++;
        size_t from = c << MARK_SHIFT, to = e << MARK_SHIFT;
        sodium_memzero(s + from, ((to < cap ? to : cap) - from) * sizeof *s);
        c = e;
    }
    sodium_memzero(marks, mark_words(cap) * sizeof *marks);
}

struct fsh_rangeperm {
    uint64_t lo;    /* values handed out are lo + the positions' values */
    uint64_t last;  /* the permutation is of [0, last], last = hi - lo */
    uint64_t next;  /* position of the next draw */
    int done;       /* every position has been drawn */
    int dense;      /* DENSE_U32 / DENSE_U64: array storage */
    void *array;    /* dense: last + 1 values */
    void *array_base; /* what to free (block_alloc) */
    /* Sparse: open addressing with linear probing, load at most 1/2. */
    pm_slot *slots;
    uint64_t *marks; /* the chunks written (map_wipe) */
    void *slots_base;
    size_t cap;     /* power of two (sparse) */
    size_t count;
    fsh_reach_state reach; /* the prefix's groups (hardware reseeds) */
    /* Nonzero while fsh_rangeperm_next_n draws: a draw from this
       permutation made from inside the rng's callback (a caller's word or
       [1, k] source) is refused (FSH_EINVAL) instead of stepping it, or
       growing its storage, under the running steps. */
    int busy;
};

/*
 * The home slot of a position is its low bits. Stored keys are the j of
 * the steps, uniform over the untouched positions, so they spread evenly;
 * the look-ups of the step positions i = 0, 1, 2, ... then walk the table
 * in order (four slots a cache line) instead of jumping, which leaves one
 * random memory access a step, the one at j.
 */
static inline size_t pm_home(uint64_t key, size_t mask)
{
    return (size_t)key & mask;
}

/* Value at position pos, or pos itself when untouched. */
static inline uint64_t pm_get(const pm_slot *s, size_t mask, uint64_t pos)
{
    for (size_t h = pm_home(pos, mask);; h = (h + 1) & mask) {
        uint64_t key = s[h].key;
        if (key == 0) /* empty: untouched (so is position 0, never a key) */
            return pos;
        if (key == pos)
            return s[h].val;
    }
}

/* Store val at position pos >= 1 and return the value that was there (pos
   itself when untouched); *count grows by one for a new key, whose chunk
   is marked. The table must have room (load below 1). */
static inline uint64_t pm_swap(pm_slot *s, size_t mask, uint64_t pos,
                               uint64_t val, size_t *count, uint64_t *marks)
{
    for (size_t h = pm_home(pos, mask);; h = (h + 1) & mask) {
        uint64_t key = s[h].key;
        if (key == pos) {
            uint64_t old = s[h].val;
            s[h].val = val;
            return old;
        }
        if (key == 0) {
            s[h].key = pos;
            s[h].val = val;
            ++*count;
            marks[h >> (MARK_SHIFT + 6)] |= (uint64_t)1
                                            << (h >> MARK_SHIFT & 63);
            return pos;
        }
    }
}

/* FSH_ENOMEM for storage whose size does not fit in a size_t, with errno
   ENOMEM as the allocators set it for a size they cannot give. */
static int size_overflow(void)
{
    errno = ENOMEM;
    return FSH_ENOMEM;
}

/* Slots for at most k stored keys at load 1/2 or less: a power of two >=
   2k (at least 16); 0 if that overflows. */
static size_t pm_cap_for(size_t k)
{
    size_t cap = 16;
    while (cap / 2 < k) {
        if (cap > SIZE_MAX / 2 / sizeof(pm_slot))
            return 0;
        cap *= 2;
    }
    return cap;
}

/* 1 if the uint32 array of p's range is the storage for draws draws. */
static int array_pays(uint64_t last, uint64_t draws)
{
    return last <= UINT32_MAX &&
           last < (uint64_t)(SIZE_MAX / sizeof(uint32_t)) &&
           last / DENSE_RATIO < draws;
}

/*
 * Growing the map. The storage for more entries is made first (pm_grow:
 * nothing of p changes) and put in place after (grow_commit, which cannot
 * fail): fsh_rangeperm_next_n makes it before its hardware words are drawn
 * and puts it in place once they are, so a batch the source refuses leaves
 * the permutation as it was, storage included.
 */
enum { GROW_NONE = 0, GROW_ARRAY = 1, GROW_MAP = 2 };

typedef struct pm_grow {
    int kind;
    block mem;
    size_t cap; /* GROW_MAP: its slots and marks */
    pm_slot *slots;
    uint64_t *marks;
} pm_grow;

/* The storage for extra more entries of p's map at load 1/2 or less: none
   when there is room (or p is an array); where the draws made and the
   extra ones reach a tenth of a range of at most 2^32 values, the uint32
   array of the range (as fsh_rangeperm_new chooses it for a hint); else,
   or if the array cannot be had (errno kept), a larger map. FSH_ENOMEM:
   nothing made. */
static int grow_make(const fsh_rangeperm *p, size_t extra, pm_grow *g)
{
    g->kind = GROW_NONE;
    if (p->dense != DENSE_NONE || p->cap / 2 - p->count >= extra)
        return FSH_OK;
    if (array_pays(p->last, p->next + (uint64_t)extra)) {
        int e = errno;
        if (block_alloc(&g->mem, ((size_t)p->last + 1) * sizeof(uint32_t),
                        0) == FSH_OK) {
            g->kind = GROW_ARRAY;
            return FSH_OK;
        }
        errno = e;
    }
    if (extra > SIZE_MAX / 2 - p->count)
        return size_overflow();
    size_t cap = pm_cap_for(p->count + extra);
    if (cap == 0)
        return size_overflow();
    if (map_alloc(&g->mem, cap, &g->slots, &g->marks) != FSH_OK)
        return FSH_ENOMEM;
    g->kind = GROW_MAP;
    g->cap = cap;
    return FSH_OK;
}

/* Give back storage made and not used (nothing was written in it). */
static void grow_drop(pm_grow *g)
{
    if (g->kind != GROW_NONE)
        free(g->mem.base);
    g->kind = GROW_NONE;
}

/* Put the storage made in place of p's map: the array is the identity
   with the map's entries written over it, so every position reads what it
   read in the map (the entries at positions already stepped are never
   read again); a larger map takes the entries. The old map is wiped and
   freed. */
static void grow_commit(fsh_rangeperm *p, pm_grow *g)
{
    if (g->kind == GROW_NONE)
        return;
    size_t count = 0;
    if (g->kind == GROW_ARRAY) {
        size_t n = (size_t)p->last + 1;
        uint32_t *a = g->mem.p;
        for (size_t i = 0; i < n; i++)
            a[i] = (uint32_t)i;
        for (size_t h = 0; h < p->cap; h++)
            if (p->slots[h].key != 0)
                a[p->slots[h].key] = (uint32_t)p->slots[h].val;
        p->array = a;
        p->array_base = g->mem.base;
        p->dense = DENSE_U32;
    } else {
        for (size_t h = 0; h < p->cap; h++)
            if (p->slots[h].key != 0)
                (void)pm_swap(g->slots, g->cap - 1, p->slots[h].key,
                              p->slots[h].val, &count, g->marks);
    }
    map_wipe(p->slots, p->cap, p->marks);
    free(p->slots_base);
    if (g->kind == GROW_ARRAY) {
        p->slots = NULL;
        p->marks = NULL;
        p->slots_base = NULL;
        p->cap = 0;
    } else {
        p->slots = g->slots;
        p->marks = g->marks;
        p->slots_base = g->mem.base;
        p->cap = g->cap;
    }
    p->count = count;
    g->kind = GROW_NONE;
}

/* Make room for extra more entries at once; on failure the table is
   unchanged. The map may become the array: the caller checks p->dense
   again. */
static int sparse_reserve(fsh_rangeperm *p, size_t extra)
{
    pm_grow g;
    int rc = grow_make(p, extra, &g);
    if (rc == FSH_OK)
        grow_commit(p, &g);
    return rc;
}

int fsh_rangeperm_new(fsh_rangeperm **out, uint64_t lo, uint64_t hi,
                      size_t hint)
{
    if (out == NULL)
        return FSH_EINVAL;
    *out = NULL;
    if (lo > hi)
        return FSH_EINVAL;
    uint64_t last = hi - lo;
    fsh_rangeperm *p = calloc(1, sizeof *p);
    if (p == NULL)
        return FSH_ENOMEM;
    p->lo = lo;
    p->last = last;
    fsh_reach_state_init(&p->reach);
    /* An array when it pays for the expected draws: a uint32 one as in
       fsh_sample_range (n <= DENSE_RATIO * hint: at most 1.25 times the
       map's bytes), a uint64 one (a range above 2^32) when the range is
       at most twice the draws, where it costs no more than the map. */
    if (array_pays(last, hint) ||
        (last > UINT32_MAX && last / 2 < (uint64_t)hint &&
         last < (uint64_t)(SIZE_MAX / sizeof(uint64_t)))) {
        size_t n = (size_t)last + 1;
        int e = errno; /* a failure falls back to the map: keep errno */
        block mem;
        if (last <= UINT32_MAX) {
            if (block_alloc(&mem, n * sizeof(uint32_t), 0) == FSH_OK) {
                uint32_t *a = mem.p;
                for (size_t i = 0; i < n; i++)
                    a[i] = (uint32_t)i;
                p->array = a;
                p->array_base = mem.base;
                p->dense = DENSE_U32;
            }
        } else {
            if (block_alloc(&mem, n * sizeof(uint64_t), 0) == FSH_OK) {
                uint64_t *a = mem.p;
                for (size_t i = 0; i < n; i++)
                    a[i] = (uint64_t)i;
                p->array = a;
                p->array_base = mem.base;
                p->dense = DENSE_U64;
            }
        }
        if (p->array != NULL) {
            *out = p;
            return FSH_OK;
        }
        /* Fall back to the map; it needs more memory for as many draws,
           but an allocator that refused one request may grant another. */
        errno = e;
    }
    /*
     * The map, sized at once for the hint's draws: step i stores at most
     * one key (its j > i, a position in 1..last), so hint draws store at
     * most min(hint, last) keys. One block for all of them, rather than a
     * small table doubled as the draws come, means a plan whose memory can
     * never be had is FSH_ENOMEM here, at once, from one request the
     * kernel (or ulimit -v) refuses, instead of a table that doubles
     * through the machine's memory while values are handed out, until the
     * OOM killer ends the process. A fresh calloc block is untouched zero
     * pages: it costs what the draws use. With hint 0 (or past the hint)
     * the table grows as draws are made.
     */
    size_t keys = (uint64_t)hint < last ? hint : (size_t)last;
    size_t cap = pm_cap_for(keys);
    if (cap == 0) {
        free(p);
        return size_overflow();
    }
    block mem;
    if (map_alloc(&mem, cap, &p->slots, &p->marks) != FSH_OK) {
        free(p);
        return FSH_ENOMEM;
    }
    p->slots_base = mem.base;
    p->cap = cap;
    *out = p;
    return FSH_OK;
}

/* The values drawn and the order of the rest are wiped (see map_wipe):
   the array whole, the map's written chunks, and the object. */
void fsh_rangeperm_free(fsh_rangeperm *perm)
{
    if (perm == NULL)
        return;
    if (perm->dense != DENSE_NONE)
        sodium_memzero(perm->array,
                       ((size_t)perm->last + 1) *
                           (perm->dense == DENSE_U32 ? sizeof(uint32_t)
                                                     : sizeof(uint64_t)));
    else
        map_wipe(perm->slots, perm->cap, perm->marks);
    free(perm->array_base);
    free(perm->slots_base);
    sodium_memzero(perm, sizeof *perm);
    free(perm);
}

void fsh_rangeperm_storage(const fsh_rangeperm *perm, int *dense, size_t *cap,
                           size_t *count)
{
    *dense = perm->dense;
    *cap = perm->cap;
    *count = perm->count;
}

uint64_t fsh_rangeperm_drawn(const fsh_rangeperm *perm)
{
    if (perm == NULL)
        return 0;
    if (perm->done) /* saturates for the full 2^64 range */
        return perm->last == UINT64_MAX ? UINT64_MAX : perm->last + 1;
    return perm->next;
}

int fsh_rangeperm_next_at(fsh_rangeperm *perm, uint64_t *out, uint64_t r)
{
    if (perm == NULL || out == NULL || perm->busy)
        return FSH_EINVAL;
    if (perm->done)
        return FSH_EEMPTY;
    uint64_t i = perm->next;
    if (r > perm->last - i)
        return FSH_EINVAL;
    uint64_t j = i + r, v;
    if (perm->dense == DENSE_NONE && j != i) {
        /* Position i is never read again, so only j needs storing (the
           map may become the array here). */
        int rc = sparse_reserve(perm, 1);
        if (rc != FSH_OK)
            return rc;
    }
    if (perm->dense == DENSE_U32) {
        uint32_t *a = perm->array;
        v = a[j];
        a[j] = a[i];
        a[i] = (uint32_t)v;
    } else if (perm->dense == DENSE_U64) {
        uint64_t *a = perm->array;
        v = a[j];
        a[j] = a[i];
        a[i] = v;
    } else {
        uint64_t vi = pm_get(perm->slots, perm->cap - 1, i);
        v = j == i ? vi
                   : pm_swap(perm->slots, perm->cap - 1, j, vi, &perm->count,
                             perm->marks);
    }
    *out = perm->lo + v;
    if (i == perm->last)
        perm->done = 1;
    else
        perm->next = i + 1;
    return FSH_OK;
}

/* One step: fsh_rangeperm_next_n's, below, with k = 1 (its checks, the
   mixing rng's reseed when this draw opens a new group, then the draw). */
int fsh_rangeperm_next(fsh_rng *rng, fsh_rangeperm *perm, uint64_t *out)
{
    return fsh_rangeperm_next_n(rng, perm, out, 1);
}

/*
 * fsh_sample_range runs the same steps as fsh_rangeperm_next, with the same
 * draws in the same order, in one loop over storage of its own:
 * - the draws run AHEAD steps ahead of the steps that apply them, and each
 *   draw prefetches the cell its step will swap, so the memory accesses of
 *   about AHEAD steps overlap instead of following one another. The rng
 *   sees exactly the sequence of a step-by-step run (each step's hardware
 *   mixing step, then its draw, in step order); a step reading a cell that
 *   an earlier step wrote still reads the written value because the steps
 *   themselves are applied in order (the prefetch is only a hint).
 * - a uint32 array of all n = last + 1 positions when n <= DENSE_RATIO * k:
 *   4n bytes, at most 1.25 times the map's 16 bytes a slot at >= 2k slots,
 *   and one random access a step with no probing, which pays for
 *   initialising the n cells up to about that ratio (measured on Zen 4,
 *   docs/PERFORMANCE.md: 1.0-1.6x faster than the map at n = 10k, even at
 *   n = 12k, slower beyond); else the position map, sized once for the
 *   k - 1 keys at most that the steps store.
 */
#ifndef AHEAD
#define AHEAD 16
#endif

/* The word of a step over all 2^64 values, returned in a register, with
   fsh_rng_u64's output wiped here (see step_draw). */
static __attribute__((noinline)) uint64_t step_word(fsh_rng *rng, int *rc)
{
    uint64_t w = 0;
    *rc = fsh_rng_u64(rng, &w);
    uint64_t r = w;
    *(volatile uint64_t *)&w = 0;
    return r;
}

/* Step i's draw r uniform in [0, s], s = last - i, exactly as
   fsh_uniform_range(rng, &r, 0, s) makes it: one word for s = 2^64 - 1,
   nothing for s = 0, else Lemire's method on s + 1 (or the randint
   callback). A callback's error is put in *rc (and cleared) as there,
   else FSH_OK. The draw is returned, never stored through a pointer: a
   variable whose address is taken lives in a stack slot, which kept a
   draw of the ring (the last, and at -O1 the ring's first fill's last)
   after the ring's wipe. */
static inline uint64_t step_draw(fsh_rng *rng, uint64_t s, int *rc)
{
    if (FSH_UNLIKELY(s == UINT64_MAX))
        return step_word(rng, rc);
    *rc = FSH_OK;
    if (FSH_UNLIKELY(s == 0))
        return 0;
    uint64_t r = fsh_uniform_fast(rng, s + 1);
    if (FSH_UNLIKELY(rng->err != FSH_OK))
        *rc = fsh_rng_take_error(rng);
    return r;
}

/* The k steps from position i0 over a or a64 (dense) or the map s (mask =
   its size - 1, *count its keys, marks its chunks), writing out[0..k).
   Before each draw a one-shot operation's m steps (fsh_mix_step; a piece
   of its hardware words that cannot be had ends the steps there,
   m->failed set), or an incremental one's state st (fsh_rng_reach_next
   with m from fsh_rng_reach_begin). stage (a only, i0 = 0): step i's
   value is kept in a[i], which no later step reads, instead of written to
   out (the caller copies it there). Returns FSH_OK, or the error of the
   first draw that failed (then the steps before it are applied and
   written to out, or kept, no later draw is made: as a step-by-step run);
   *applied = the steps applied. */
static inline __attribute__((always_inline)) int
run_steps(fsh_rng *rng, fsh_mix *m, fsh_reach_state *st, uint64_t *out,
          size_t k, uint64_t i0, uint64_t lo, uint64_t last, uint32_t *a,
          uint64_t *a64, pm_slot *s, size_t mask, size_t *count,
          uint64_t *marks, size_t *applied, int stage)
{
    uint64_t ring[AHEAD];
    size_t drawn = 0, end = k;
    int rc = FSH_OK;
/* Draw step t's r into ring and prefetch its cell; on failure end = t
   (the break leaves only this do-while). */
#define DRAW_STEP(t)                                                           \
    do {                                                                       \
        uint64_t r_, j_, p_ = i0 + (uint64_t)(t);                              \
        if (st != NULL) {                                                      \
            (void)fsh_rng_reach_next(rng, st, m, last - p_);                   \
        } else if (m != NULL) {                                                \
            fsh_mix_step(rng, m, last - p_);                                   \
            if (m->failed != FSH_OK) {                                         \
                end = (t);                                                     \
                break;                                                         \
            }                                                                  \
        }                                                                      \
        r_ = step_draw(rng, last - p_, &rc);                                   \
        if (rc != FSH_OK) {                                                    \
            end = (t);                                                         \
            break;                                                             \
        }                                                                      \
        ring[(t) % AHEAD] = r_;                                                \
        j_ = p_ + r_;                                                          \
        if (a != NULL)                                                         \
            __builtin_prefetch(&a[j_], 1);                                     \
        else if (a64 != NULL)                                                  \
            __builtin_prefetch(&a64[j_], 1);                                   \
        else                                                                   \
            __builtin_prefetch(&s[pm_home(j_, mask)], 1);                      \
    } while (0)
    /* (A failed draw sets end = drawn, which ends the loop.) */
    for (; drawn < end && drawn < AHEAD; drawn++)
        DRAW_STEP(drawn);
    for (size_t i = 0; i < end; i++) {
        uint64_t r = ring[i % AHEAD], v, p = i0 + i;
        if (drawn < end) {
            DRAW_STEP(drawn);
            drawn++;
        }
        /* Position p is never read again: only j is written. */
        if (a != NULL) {
            size_t j = (size_t)(p + r);
            v = a[j];
            a[j] = a[p];
            if (stage)
                a[p] = (uint32_t)v;
        } else if (a64 != NULL) {
            size_t j = (size_t)(p + r);
            v = a64[j];
            a64[j] = a64[p];
        } else {
            v = pm_get(s, mask, p);
            if (r != 0)
                v = pm_swap(s, mask, p + r, v, count, marks);
        }
        if (!stage)
            out[i] = lo + v;
    }
#undef DRAW_STEP
    /* The draws held ahead are wiped as the storage is, by volatile
       stores the compiler keeps (libsodium's portable wipe), not a call
       into libsodium: one store for an fsh_rangeperm_next. */
    volatile uint64_t *held = ring;
    for (size_t t = 0; t < (k < AHEAD ? k : AHEAD); t++)
        held[t] = 0;
    *applied = end;
    return rc;
}

/* fsh_sample_range's mixed steps over the array a (last + 1 cells, the
   identity), the hardware words drawn a piece (2 KiB) at a time as the
   steps reach them (fsh_mix_prepare_pieces), not all first, which held
   about log2(last + 1) / 8 bytes a value (27 MB for 10^7 of 10^7): the
   same words in the same order, the same values. The values are kept in
   a (stage) and copied to out at the end, so a piece the source cannot
   fill leaves out untouched: the rng is put back, a set to the identity
   again, and the call gives what a failure of all the words drawn first
   gave (refused, or the steps made unmixed, bounded by the key). The map
   still draws its words first: it has no free cell to keep a value in,
   and its words take less room than its slots (at most 8 bytes a value
   against 32 or more). */
static int dense_mixed(fsh_rng *rng, uint64_t groups, uint64_t *out,
                       size_t k, uint64_t lo, uint64_t last, uint32_t *a)
{
    fsh_rng snap = *rng;
    fsh_mix m;
    size_t count = 0, applied = 0;
    int rc = fsh_mix_prepare_pieces(rng, &m, groups);
    if (rc != FSH_OK)
        goto out; /* refused at once: nothing drawn */
    if (m.groups > 1) {
        rc = run_steps(rng, &m, NULL, out, k, 0, lo, last, a, NULL, NULL, 0,
                       &count, NULL, &applied, 1);
        int failed = m.failed;
        fsh_mix_done(&m);
        if (failed == FSH_OK) {
            for (size_t i = 0; i < applied; i++)
                out[i] = lo + a[i];
            goto out;
        }
        *rng = snap;
        if ((rc = fsh_mix_refused(rng, failed)) != FSH_OK)
            goto out;
        for (size_t i = 0; i <= (size_t)last; i++)
            a[i] = (uint32_t)i;
    } else {
        fsh_mix_done(&m); /* no hardware, and the key bound is accepted */
    }
    rc = run_steps(rng, NULL, NULL, out, k, 0, lo, last, a, NULL, NULL, 0,
                   &count, NULL, &applied, 0);
out:
    sodium_memzero(&snap, sizeof snap);
    return rc;
}

int fsh_sample_range(fsh_rng *rng, uint64_t *out, size_t k, uint64_t lo,
                     uint64_t hi)
{
    if (rng == NULL || hi < lo || (out == NULL && k > 0))
        return FSH_EINVAL;
    uint64_t last = hi - lo;
    if (k > 0 && (uint64_t)(k - 1) > last)
        return FSH_EINVAL;
    int rc = fsh_rng_ready(rng);
    if (rc != FSH_OK || k == 0)
        return rc;
    /* The seed-size check of every ordered operation (k of n = last + 1 in
       order, as fsh_permutation for k = n), and the hardware plan. */
    uint64_t groups;
    if ((rc = fsh_rng_plan_ordered(rng, last, k, &groups)) != FSH_OK)
        return rc;
    /* All the storage the k steps need, and the hardware entropy, before
       the first is written: a failure then leaves out untouched. */
    uint32_t *a = NULL;
    pm_slot *s = NULL;
    uint64_t *marks = NULL;
    size_t cap = 0, n = 0;
    block mem;
    int e = errno; /* the array's failure falls back to the map: keep it */
    if (array_pays(last, k) &&
        block_alloc(&mem, ((size_t)last + 1) * sizeof *a, 0) == FSH_OK) {
        n = (size_t)last + 1;
        a = mem.p;
        for (size_t i = 0; i < n; i++)
            a[i] = (uint32_t)i;
    }
    if (a == NULL) { /* the map (also if the array could not be had) */
        errno = e;
        cap = pm_cap_for(k);
        if (cap == 0)
            return size_overflow();
        if (map_alloc(&mem, cap, &s, &marks) != FSH_OK)
            return FSH_ENOMEM;
    }
    fsh_mix m;
    size_t count = 0, applied;
    if (groups > 1 && a != NULL) {
        rc = dense_mixed(rng, groups, out, k, lo, last, a);
    } else if (groups > 1) {
        rc = fsh_mix_prepare(rng, &m, groups);
        if (rc == FSH_OK) {
            rc = run_steps(rng, &m, NULL, out, k, 0, lo, last, NULL, NULL, s,
                           cap - 1, &count, marks, &applied, 0);
            fsh_mix_done(&m);
        }
    } else if (a != NULL) {
        rc = run_steps(rng, NULL, NULL, out, k, 0, lo, last, a, NULL, NULL, 0,
                       &count, NULL, &applied, 0);
    } else {
        rc = run_steps(rng, NULL, NULL, out, k, 0, lo, last, NULL, NULL, s,
                       cap - 1, &count, marks, &applied, 0);
    }
    /* Wiped as a permutation's storage is (see map_wipe). */
    if (a != NULL)
        sodium_memzero(a, n * sizeof *a);
    else
        map_wipe(s, cap, marks);
    free(mem.base);
    return rc;
}

/*
 * fsh_rangeperm_next_n: k steps of the permutation with the draws run
 * ahead as in fsh_sample_range, over the permutation's own storage. The
 * rng sees what k calls of fsh_rangeperm_next would show it (each step's
 * hardware mixing, then its draw, in step order), so the values and the
 * rng's state after them are the same; only the checks move to the front:
 * the reachability of the whole batch's prefix and the map's room for its
 * keys come before the first draw.
 */
static int next_n_busy(fsh_rng *rng, fsh_rangeperm *perm, uint64_t *out,
                       size_t k)
{
    /* k past the values left is an argument error: reported before an
       unkeyed rng's FSH_ESYSRAND, as every FSH_EINVAL is (none left is
       FSH_EEMPTY, after it). */
    if (rng == NULL || (out == NULL && k > 0) ||
        (k > 0 && !perm->done &&
         (uint64_t)(k - 1) > perm->last - perm->next))
        return FSH_EINVAL;
    int rc = fsh_rng_ready(rng);
    if (rc != FSH_OK || k == 0)
        return rc;
    if (perm->done)
        return FSH_EEMPTY;
    uint64_t i0 = perm->next, last = perm->last;
    /* Nothing changes before every check has passed. First the
       reachability of the whole batch, decided without a draw (the seed's
       bound, or a mixing rng's policy and cap: fsh_rng_reach_check), as
       fsh_sample_range checks before it allocates: FSH_EENTROPY or
       FSH_ENOHWRAND comes before an FSH_ENOMEM of storage it would not
       use. Then the storage is made, not yet put in place, so no hardware
       word is drawn for a batch whose storage cannot be had. Then a mixing
       rng's hardware words, which can still fail: the storage made is
       given back, and the permutation is as it was. Putting it in place
       cannot fail. */
    fsh_reach_plan plan;
    if ((rc = fsh_rng_reach_check(rng, &perm->reach, last, i0, k, &plan)) !=
        FSH_OK)
        return rc;
    pm_grow grow;
    if ((rc = grow_make(perm, k, &grow)) != FSH_OK)
        return rc;
    fsh_mix m;
    if ((rc = fsh_rng_reach_start(rng, &perm->reach, &m, &plan, 0)) !=
        FSH_OK) {
        grow_drop(&grow);
        return rc;
    }
    grow_commit(perm, &grow);
    /* An array is passed from position i0 on, as positions 0, 1, ... of
       a range of last - i0 + 1: the same cells and the same draws (each
       step's range is last - p + 1 either way), and the loop of
       fsh_sample_range, which starts at 0. The map's keys are positions,
       so it is passed whole with i0. */
    fsh_reach_state *st = &perm->reach;
    uint32_t *a = perm->dense == DENSE_U32 ? (uint32_t *)perm->array + i0
                                           : NULL;
    uint64_t *a64 = perm->dense == DENSE_U64
                        ? (uint64_t *)perm->array + i0
                        : NULL;
    uint64_t lo = perm->lo, rel = last - i0;
    size_t applied = 0, count = perm->count; /* a register in the loop */
    if (m.track) { /* the rng mixes along this batch */
        if (a != NULL)
            rc = run_steps(rng, &m, st, out, k, 0, lo, rel, a, NULL, NULL, 0,
                           &count, NULL, &applied, 0);
        else if (a64 != NULL)
            rc = run_steps(rng, &m, st, out, k, 0, lo, rel, NULL, a64, NULL,
                           0, &count, NULL, &applied, 0);
        else
            rc = run_steps(rng, &m, st, out, k, i0, lo, last, NULL, NULL,
                           perm->slots, perm->cap - 1, &count, perm->marks,
                           &applied, 0);
    } else { /* fsh_rng_reach_next would return at once: plain steps */
        if (a != NULL)
            rc = run_steps(rng, NULL, NULL, out, k, 0, lo, rel, a, NULL, NULL,
                           0, &count, NULL, &applied, 0);
        else if (a64 != NULL)
            rc = run_steps(rng, NULL, NULL, out, k, 0, lo, rel, NULL, a64,
                           NULL, 0, &count, NULL, &applied, 0);
        else
            rc = run_steps(rng, NULL, NULL, out, k, i0, lo, last, NULL, NULL,
                           perm->slots, perm->cap - 1, &count, perm->marks,
                           &applied, 0);
    }
    perm->count = count;
    fsh_mix_done(&m);
    if (applied > 0) {
        uint64_t p = i0 + (applied - 1); /* the last position stepped */
        if (p == last)
            perm->done = 1;
        else
            perm->next = p + 1;
    }
    return rc;
}

int fsh_rangeperm_next_n(fsh_rng *rng, fsh_rangeperm *perm, uint64_t *out,
                         size_t k)
{
    /* Marked busy while it draws: a call on it from inside the rng's
       callback is refused. */
    if (perm == NULL || perm->busy)
        return FSH_EINVAL;
    perm->busy = 1;
    int rc = next_n_busy(rng, perm, out, k);
    perm->busy = 0;
    return rc;
}
