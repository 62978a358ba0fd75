/* SPDX-License-Identifier: MIT */
/* What the library frees holding secrets is wiped first: a deck's cards
   and dice (fsh_deck_free), after a partial deal, a whole one, a reset
   and a failed deal; the storage of ordered samples (fsh_sample_range's
   array or map, also when its source fails part-way; an fsh_rangeperm's
   array, its map, the maps it outgrows and the map it trades for the
   array, and the object), and a map sized for a large hint and used for
   a few draws wiped without touching the rest of it (no page resident
   when it is freed that was not after the draws). The program is linked
   with -Wl,--wrap=malloc,--wrap=calloc,--wrap=free (Makefile): the
   wrappers note each block's size, and free() of the block under watch
   (or of every block, while watching all) counts its nonzero bytes
   before the memory goes back. */
#include "check.h"
#include "common/common.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void __wrap_free(void *p);

/* The sizes of the blocks alive, for the few this program makes at once. */
#define SLOTS 256
static struct {
    void *p;
    size_t n;
} blocks[SLOTS];

static void note(void *p, size_t n)
{
    size_t at = SLOTS;
    for (size_t i = 0; p != NULL && i < SLOTS; i++) {
        if (blocks[i].p == p) { /* stale (freed by an unwrapped call) */
            at = i;
            break;
        }
        if (blocks[i].p == NULL && at == SLOTS)
            at = i;
    }
    if (at < SLOTS) {
        blocks[at].p = p;
        blocks[at].n = n;
    }
}

void *__wrap_malloc(size_t n)
{
    void *p = __real_malloc(n);
    note(p, n);
    return p;
}

void *__wrap_calloc(size_t n, size_t m)
{
    void *p = __real_calloc(n, m);
    note(p, n * m); /* the library's own sizes: no overflow */
    return p;
}

static void *watched;       /* the block whose free is checked */
static long watched_freed;  /* its frees seen (one expected) */
static size_t watched_dirty; /* its nonzero bytes when freed */
static size_t watched_size;

/* Nonzero bytes of p[0..n). */
static size_t dirty_bytes(const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t d = 0, k = 0;
    for (; k + 8 <= n; k += 8) {
        uint64_t w;
        memcpy(&w, b + k, 8);
        for (size_t j = 0; w != 0 && j < 8; j++)
            d += b[k + j] != 0;
    }
    for (; k < n; k++)
        d += b[k] != 0;
    return d;
}

/* Watching all: every block freed (count, bytes, nonzero bytes), and the
   largest one's pages and those resident (mincore) when it was freed,
   before it was read. */
static int watch_all;
static long all_freed;
static size_t all_bytes, all_dirty, big_size, big_pages, big_resident;

static void resident(const void *p, size_t n)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t a = (uintptr_t)p & ~(uintptr_t)(pg - 1);
    size_t len = (uintptr_t)p + n - a, pages = (len + pg - 1) / pg;
    unsigned char *v = __real_malloc(pages);
    big_size = n;
    big_pages = pages;
    big_resident = pages; /* unknown counts as all */
    if (v != NULL && mincore((void *)a, len, v) == 0) {
        big_resident = 0;
        for (size_t i = 0; i < pages; i++)
            big_resident += v[i] & 1;
    }
    __real_free(v);
}

void __wrap_free(void *p)
{
    for (size_t i = 0; p != NULL && i < SLOTS; i++)
        if (blocks[i].p == p) {
            if (p == watched) {
                watched_freed++;
                watched_size = blocks[i].n;
                watched_dirty = dirty_bytes(p, blocks[i].n);
            }
            if (watch_all) {
                if (blocks[i].n > big_size)
                    resident(p, blocks[i].n);
                all_freed++;
                all_bytes += blocks[i].n;
                all_dirty += dirty_bytes(p, blocks[i].n);
            }
            blocks[i].p = NULL;
            break;
        }
    __real_free(p);
}

static void watch_start(void)
{
    all_freed = 0;
    all_bytes = all_dirty = big_size = big_pages = big_resident = 0;
    watch_all = 1;
}

/* Stop watching: at least blocks blocks of bytes bytes in all were freed,
   every byte zero. */
static void watch_check(long blocks_min, size_t bytes_min)
{
    watch_all = 0;
    CHECK(all_freed >= blocks_min);
    CHECK(all_bytes >= bytes_min);
    CHECK_EQ(all_dirty, 0);
}

/* fsh_deck_free(d) under watch: every byte of the block was zero. */
static void free_checked(fsh_deck *d, size_t min_size)
{
    watched = d;
    watched_freed = 0;
    fsh_deck_free(d);
    watched = NULL;
    CHECK_EQ(watched_freed, 1);
    CHECK(watched_size >= min_size);
    CHECK_EQ(watched_dirty, 0);
}

/* A randint callback that answers out of range on its 4th call. */
static uint64_t liar(void *ctx, uint64_t k)
{
    uint64_t *calls = ctx;
    return ++*calls == 4 ? k + 1 : 1 + (*calls * 7) % k;
}

/* Ordered samples: fsh_sample_range and fsh_rangeperm. */
static void samples(void)
{
    static const char seed[] = "samples wiped before free, 32 b.";
    static uint64_t out[3000];
    fsh_rng *rng;
    CHECK_EQ(fsh_rng_new_seeded(&rng, seed, 32), FSH_OK);
    if (rng == NULL)
        return;
    CHECK_EQ(fsh_rng_set_simulation(rng, 1), FSH_OK);
    /* fsh_sample_range: the array of 1,000 values (4,000 bytes), then the
       map (300 keys: 1,024 slots of 16 bytes); each also with a source
       that fails at its 4th call. */
    for (int fail = 0; fail < 2; fail++) {
        static const uint64_t ns[] = {1000, (uint64_t)1 << 40};
        static const size_t bytes[] = {4000, 1024 * 16};
        for (size_t t = 0; t < 2; t++) {
            uint64_t calls = 0;
            if (fail)
                CHECK_EQ(fsh_rng_from_randint(rng, liar, &calls), FSH_OK);
            watch_start();
            CHECK_EQ(fsh_sample_range(rng, out, 300, 0, ns[t] - 1),
                     fail ? FSH_ECALLBACK : FSH_OK);
            watch_check(1, bytes[t]);
        }
    }
    CHECK_EQ(fsh_rng_seed(rng, seed, 32), FSH_OK);
    /* fsh_rangeperm, drawn and freed (each block counted with the
       object's): the array from a hint (300 of 1,000), the map from a
       hint (3,000 of 2^40: 8,192 slots), the map grown one draw at a time
       (2,000 of 2^40: the maps of 16 to 2,048 slots freed as it grows,
       then the last, of 4,096), and the map traded for the array (2,100
       of 10,000 in batches of 7: eight maps, then the array). */
    static const struct {
        uint64_t n;
        size_t hint, draws, batch;
        long blocks;
        size_t bytes;
    } rp[] = {{1000, 300, 300, 300, 2, 4000},
              {(uint64_t)1 << 40, 3000, 3000, 3000, 2, 8192 * 16},
              {(uint64_t)1 << 40, 0, 2000, 1, 10, 4096 * 16},
              {10000, 0, 2100, 7, 10, 40000}};
    for (size_t t = 0; t < sizeof rp / sizeof rp[0]; t++) {
        fsh_rangeperm *p = NULL;
        int rc = FSH_OK;
        watch_start();
        CHECK_EQ(fsh_rangeperm_new(&p, 0, rp[t].n - 1, rp[t].hint), FSH_OK);
        for (size_t i = 0; p != NULL && i < rp[t].draws && rc == FSH_OK;
             i += rp[t].batch)
            rc = fsh_rangeperm_next_n(rng, p, out, rp[t].batch);
        CHECK_EQ(rc, FSH_OK);
        fsh_rangeperm_free(p);
        watch_check(rp[t].blocks, rp[t].bytes);
    }
    /* A map sized for a hint of 2^22 draws (2^23 slots: 128 MiB, a fresh
       calloc block of untouched pages) used for 4: wiped, and only where
       keys went: the pages resident when it is freed are those resident
       after the draws (a wipe of all of it would fault every page in). */
    {
        fsh_rangeperm *p = NULL;
        watch_start();
        CHECK_EQ(fsh_rangeperm_new(&p, 0, ((uint64_t)1 << 40) - 1,
                                   (size_t)1 << 22),
                 FSH_OK);
        if (p != NULL)
            CHECK_EQ(fsh_rangeperm_next_n(rng, p, out, 4), FSH_OK);
        size_t at = 0; /* the largest block alive: the map */
        for (size_t i = 1; i < SLOTS; i++)
            if (blocks[i].p != NULL && blocks[i].n > blocks[at].n)
                at = i;
        resident(blocks[at].p, blocks[at].n);
        size_t before = big_resident;
        big_size = 0;
        fsh_rangeperm_free(p);
        watch_check(2, (size_t)128 << 20);
        CHECK(big_size >= (size_t)128 << 20);
        CHECK(big_resident <= before);
    }
    fsh_rng_free(rng);
}

/* The draws held ahead on the stack: fsh_sample_range and
   fsh_rangeperm_next_n (and fsh_rangeperm_next, a batch of one) make each
   step's draw up to 16 steps before the step uses it, in a ring of 16
   words in the call's frame, and wipe the ring before they return (a
   batch of one holds only its last draw, which is not counted below). Over
   the full 64-bit range step t's draw r_t is a 64-bit word (uniform in
   [0, 2^64 - 1 - t]) that nothing else leaves on the stack: the values
   written to out are t + r_t, the rng's words sit in the rng. The draws
   are replayed first from a second rng on the same words, 48 KiB of the
   stack below this frame is zeroed, the call is made, and the dead stack
   it used is read in place, in this function (no call in between would
   overwrite it). The ring held the last 16 draws (all k below 16); the
   compiler may still keep the latest one or two in registers, which a
   callee saves on the stack, out of reach of any wipe written in C: only
   the draws before the call's last two are counted, and none may be
   found. Without the ring's wipe 3 to 14 are; with a draw whose address
   was taken (the word of a full-range step, read by fsh_rng_u64 into
   it), built at -O1 as make sanitize does, the ring's first fill left its
   last draw (r_15) in that variable's stack slot. */
static uint64_t splitmix(void *ctx)
{
    uint64_t *st = ctx;
    uint64_t z = (*st += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

#define SCRUB_BYTES ((size_t)48 << 10)

/* Zero SCRUB_BYTES of the stack below the caller's frame (what earlier
   calls, the replay's among them, left there); the address of the zeroed
   block, so the caller knows that stack is there. */
__attribute__((noinline)) static uintptr_t scrub_stack(void)
{
    volatile unsigned char pad[SCRUB_BYTES + 256];
    for (size_t i = 0; i < sizeof pad; i++)
        pad[i] = 0;
    return (uintptr_t)pad;
}

enum { HELD_SAMPLE, HELD_NEXT_N };

/* How many of the draws before the last two of one call (how, k values
   of [0, 2^64 - 1], SplitMix64 words from seed) are on the dead stack
   after it; SIZE_MAX if the call or the replay went wrong; 0 when the
   stack cannot be read so (the scrub's block was not just below this
   frame: ASan's detect_stack_use_after_return). Not instrumented by ASan:
   it reads memory no object owns. */
__attribute__((noinline))
#if defined(__SANITIZE_ADDRESS__)
__attribute__((no_sanitize_address))
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
__attribute__((no_sanitize("address")))
#endif
#endif
static size_t held_draws_found(int how, size_t k, uint64_t seed)
{
    static uint64_t out[64], want[64];
    uint64_t s1 = seed, s2 = seed;
    fsh_rng *r1 = NULL, *r2 = NULL;
    fsh_rangeperm *p = NULL;
    size_t found = SIZE_MAX;
    if (k < 3 || k > 64 || fsh_rng_new_seeded(&r1, "held", 4) != FSH_OK ||
        fsh_rng_new_seeded(&r2, "held", 4) != FSH_OK ||
        fsh_rng_from_words(r1, splitmix, &s1) != FSH_OK ||
        fsh_rng_from_words(r2, splitmix, &s2) != FSH_OK ||
        fsh_rangeperm_new(&p, 0, UINT64_MAX, k) != FSH_OK)
        goto out;
    for (size_t t = 0; t < k; t++)
        if (fsh_uniform_range(r2, &want[t], 0, UINT64_MAX - t) != FSH_OK)
            goto out;
    volatile uint64_t top = 0; /* this frame: the scan ends here */
    uintptr_t hi = (uintptr_t)&top, lo = scrub_stack();
    if (lo > hi || hi - lo > SCRUB_BYTES + 4096) {
        found = 0;
        goto out;
    }
    lo = (hi - SCRUB_BYTES) & ~(uintptr_t)7;
    int rc = how == HELD_SAMPLE ? fsh_sample_range(r1, out, k, 0, UINT64_MAX)
                                : fsh_rangeperm_next_n(r1, p, out, k);
    if (rc != FSH_OK)
        goto out;
    size_t n = 0;
    for (const volatile uint64_t *w = (const volatile uint64_t *)lo;
         (uintptr_t)w < hi; w++) {
        uint64_t x = *w;
        for (size_t t = 0; t + 2 < k; t++)
            n += x == want[t];
    }
    found = n;
    for (size_t t = 0; t < k; t++) /* the replay is right */
        if (out[t] != t + want[t])
            found = SIZE_MAX;
out:
    fsh_rangeperm_free(p);
    fsh_rng_free(r1);
    fsh_rng_free(r2);
    return found;
}

static void held_draws(void)
{
#ifndef __OPTIMIZE__
    /* Unoptimized, every variable of the steps lives on the stack. */
    printf("test_wipe: held draws not checked (built without -O)\n");
    return;
#endif
    static const struct {
        int how;
        size_t k;
    } cs[] = {{HELD_SAMPLE, 16}, {HELD_SAMPLE, 40}, {HELD_SAMPLE, 5},
              {HELD_NEXT_N, 16}, {HELD_NEXT_N, 33}, {HELD_NEXT_N, 3}};
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        size_t f = held_draws_found(cs[i].how, cs[i].k, 1000 + i);
        CHECK_EQ(f, 0);
        if (f != 0)
            fprintf(stderr, "  held draws: case %zu (k = %zu) left %zu of "
                    "its draws on the stack\n", i, cs[i].k, f);
    }
}

int main(void)
{
    static const char seed[] = "wipe before free, 32 bytes long.";
    uint32_t out[52];
    for (int how = 0; how < 4; how++) {
        fsh_rng *rng;
        fsh_deck *d;
        CHECK_EQ(fsh_rng_new_seeded(&rng, seed, 32), FSH_OK);
        CHECK_EQ(fsh_deck_new(&d, 52), FSH_OK);
        if (how == 0) { /* part dealt: dice drawn ahead are pending */
            CHECK_EQ(fsh_deck_deal_n(rng, d, out, 5), FSH_OK);
        } else if (how == 1) { /* all dealt */
            CHECK_EQ(fsh_deck_deal_n(rng, d, out, 52), FSH_OK);
        } else if (how == 2) { /* dealt, reset, dealt again */
            CHECK_EQ(fsh_deck_deal_n(rng, d, out, 20), FSH_OK);
            CHECK_EQ(fsh_deck_reset(d), FSH_OK);
            CHECK_EQ(fsh_deck_deal_n(rng, d, out, 7), FSH_OK);
        } else { /* a failed deal after a good one */
            uint64_t calls = 0;
            CHECK_EQ(fsh_deck_deal_n(rng, d, out, 3), FSH_OK);
            CHECK_EQ(fsh_rng_from_randint(rng, liar, &calls), FSH_OK);
            CHECK_EQ(fsh_deck_deal_n(rng, d, out, 10), FSH_ECALLBACK);
        }
        /* 52 cards and 52 undo entries at least. */
        free_checked(d, 2 * 52 * sizeof(uint32_t));
        fsh_rng_free(rng);
    }
    /* A deck made from the caller's cards: never dealt, still wiped. */
    uint32_t mine[8] = {7, 1, 5, 3, 2, 6, 4, 0};
    fsh_deck *d;
    CHECK_EQ(fsh_deck_new_from(&d, mine, 8), FSH_OK);
    free_checked(d, 2 * 8 * sizeof(uint32_t));
    samples();
    held_draws();
    return check_done("test_wipe");
}
