/* SPDX-License-Identifier: MIT */
/* What the library frees holding secrets is wiped first: a deck's cards
   and dice (fsh_deck_free), after a partial deal, a whole one, a reset
   and a failed deal. The program is linked with
   -Wl,--wrap=malloc,--wrap=calloc,--wrap=free (Makefile): the wrappers
   note each block's size, and free() of the block under watch counts its
   nonzero bytes before the memory goes back. */
#include "check.h"
#include "common/common.h"

#include <string.h>

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

void __wrap_free(void *p)
{
    for (size_t i = 0; p != NULL && i < SLOTS; i++)
        if (blocks[i].p == p) {
            if (p == watched) {
                const unsigned char *b = p;
                watched_freed++;
                watched_size = blocks[i].n;
                watched_dirty = 0;
                for (size_t k = 0; k < blocks[i].n; k++)
                    watched_dirty += b[k] != 0;
            }
            blocks[i].p = NULL;
            break;
        }
    __real_free(p);
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
    return check_done("test_wipe");
}
