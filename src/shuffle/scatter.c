/* SPDX-License-Identifier: MIT */
/*
 * Large and parallel shuffles.
 *
 * In-place scatter shuffle (Rao 1961, Sandelius 1962; Sanders 1998), in
 *    the rough-shuffle form of Penschuck ("Engineering Shared-Memory Parallel
 *    Shuffling to Generate Random Permutations In-Place", SEA 2023), with an
 *    integer-only multinomial step. One level on a[0..n) with k buckets:
 *
 *    a. The array is cut into k equal bucket regions, each cut into S equal
 *       stripes' parts. Stripe s streams over its parts: the element at the
 *       front of its part of bucket 0 draws a uniform label j in [0, k) and
 *       swaps with the first unprocessed element of its part of bucket j,
 *       which advances; stop as soon as one of its parts is full.
 *    b. Processed elements of each bucket are compacted to the front of the
 *       bucket region; the rest (the stash, m elements, ~1-3 %) have no
 *       label yet. Their labels' counts are drawn as m fresh uniform labels
 *       (a histogram: an exact multinomial sample, no floating point).
 *    c. Bucket j's final region gets the p_j processed elements of label j
 *       (moved by swapping only near the boundaries) and s_j stash slots;
 *       the stash slots are then Fisher-Yates shuffled as one virtual array,
 *       which hands every bucket a uniformly random s_j-subset of the stash.
 *    d. Each bucket is shuffled recursively (plain Fisher-Yates when small).
 *
 *    Every element thus gets an independent uniform label (which element is
 *    labelled next depends only on earlier labels), buckets hold exactly
 *    their labels' elements, and each bucket is shuffled uniformly: the
 *    Rao-Sandelius argument gives 1/n! per order. docs/DESIGN.md has the
 *    proof; tests/test_scatter.c enumerates it at tiny sizes.
 *
 *    Randomness: 4 words of the caller's rng key a ChaCha stream per task
 *    (stream id = node path in the bucket tree + task), so the output does
 *    not depend on the thread count or on which thread ran a task.
 */
#include "shuffle/scatter.h"

#include "common/tasks.h"
#include "shuffle/byindex.h"
#include "shuffle/fy.h"
#include "shuffle/thresholds.h"
#include "rng/chacha_simd.h"

#include <errno.h>
#include <sodium.h>
#include <stdatomic.h>
#include <stdlib.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* Phase timing for measurements only (never in a normal build): with
   -DFSH_SCATTER_TIMING the top level's wall time per phase is added to
   fsh_scatter_phase_ns[] (rough pass, fix-up, buckets; the fix-up's four
   steps; the whole; the first level's leaves: warming, shuffling). */
#ifdef FSH_SCATTER_TIMING
#include <time.h>
FSH_HIDDEN double fsh_scatter_phase_ns[10];
FSH_HIDDEN int fsh_scatter_phase_clock = CLOCK_MONOTONIC;
static double phase_now(void)
{
    struct timespec ts;
    clock_gettime(fsh_scatter_phase_clock, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}
#define PHASE_MARK(t) double t = phase_now()
#define PHASE_ADD(i, t0, t1) (fsh_scatter_phase_ns[i] += (t1) - (t0))
#else
#define PHASE_MARK(t) (void)0
#define PHASE_ADD(i, t0, t1) (void)0
#endif

/* ------------------------------------------------------------------------ */
/* Scatter shuffle                                                          */

#define SC_KMAX FSH_SCATTER_KMAX /* buckets per level */
#define SC_SMAX 8                /* stripes of the top level (test hook) */
#define SC_MAXDEPTH 5 /* levels the stream ids can name (10 bits each) */
/* Bits per level in the stream ids: 10 (the stream), 11 only in the
   prototype builds with more than 1024 buckets per level. */
#if SC_KMAX > 2048
#error "FSH_SCATTER_KMAX above 2048"
#elif SC_KMAX > 1024
#define SC_LEVEL_BITS 11
#else
#define SC_LEVEL_BITS 10
#endif

#if SC_KMAX <= 256
typedef uint8_t lab_t;
#else
typedef uint16_t lab_t;
#endif

/* Stream ids: node path (1, then SC_LEVEL_BITS = 10 bits per level) << 6
   | task. */
#define TASK_STASH 62u
#define TASK_LEAF 63u

typedef struct sctx {
    size_t size;
    fsh_rng *shared; /* test hook: every draw from this one rng, in order */
    uint8_t key[32];
    int rounds;
    size_t base;      /* buckets of at most this many elements: Fisher-Yates */
    size_t kbase;     /* a level's buckets are made at most this big (base
                         in stream version 1, base / 2 in version 2) while
                         it has fewer than SC_KMAX */
    unsigned kfix;    /* test hook: buckets per level (0: automatic) */
    unsigned sfix;    /* stripes at the top level */
    int broken;       /* test hook: skip the multinomial fix-up */
    int forward;      /* leaves by the forward Fisher-Yates (version 3) */
    atomic_int error;    /* an allocation failed: stop, report FSH_ENOMEM */
    atomic_ullong words; /* words drawn from task streams (accounting) */
} sctx;

/* A task's rng: its own ChaCha stream, or the shared rng in the test hook. */
static fsh_rng *task_rng(const sctx *c, fsh_rng *local, uint64_t node,
                         unsigned task)
{
    if (c->shared != NULL)
        return c->shared;
    fsh_rng_stack_chacha(local, c->rounds, c->key, node << 6 | task);
    return local;
}

static void task_done(sctx *c, fsh_rng *r)
{
    if (r == c->shared)
        return;
    atomic_fetch_add(&c->words,
                     (unsigned long long)(r->words_made -
                                          (FSH_BUF_WORDS - r->pos)));
    fsh_rng_stack_wipe(r);
}

/* Uniform labels in [0, k): log2(k) bits at a time for a power of two
   (exact: every bit pattern is one label), else one bounded draw each. */
typedef struct labeler {
    fsh_rng *rng;
    uint64_t w, k;
    unsigned left, bits, per;
    int pow2;
} labeler;

static void labeler_init(labeler *L, fsh_rng *rng, uint64_t k)
{
    L->rng = rng;
    L->k = k;
    L->w = 0;
    L->left = 0;
    L->pow2 = (k & (k - 1)) == 0 && rng->src != FSH_SRC_RANDINT;
    L->bits = L->pow2 ? (unsigned)__builtin_ctzll(k) : 0;
    L->per = L->pow2 ? 64 / L->bits : 0;
}

static inline size_t next_label(labeler *L)
{
    if (!L->pow2)
        return (size_t)fsh_uniform_fast(L->rng, L->k);
    if (L->left == 0) {
        L->w = fsh_next_word(L->rng);
        L->left = L->per;
    }
    size_t r = (size_t)(L->w >> (64 - L->bits));
    L->w <<= L->bits;
    L->left--;
    return r;
}

/* One level's bookkeeping. Stripe s's part of bucket j is
   [nx[s*k+j] - done, en[s*k+j]); nx is its first unprocessed slot. */
typedef struct level {
    unsigned char *a;
    size_t n;
    unsigned k, S, depth;
    uint64_t node;
    size_t *nx, *en, *st;  /* S * k each, stripe-major */
    size_t F[SC_KMAX + 1]; /* final bucket boundaries */
} level;

/* Start of piece j of n cut into k near-equal pieces. */
static size_t cut(size_t n, size_t k, size_t j)
{
    return (n / k) * j + (n % k) * j / k;
}

/*
 * Rough shuffle of one stripe (step a), for power-of-two k. The current
 * element sits at the stripe's slot nx[0] of bucket 0 and is held in a
 * register: label j != 0 trades it for the first unprocessed element of
 * bucket j; label 0 keeps it in place and takes the next one. Equivalent to
 * swapping a[nx[0]] with a[nx[j]] and advancing nx[j], as the generic
 * version does.
 *
 * The stripe stops the moment a part fills. With R the least room left in
 * any part, no part can fill in the next R - 1 steps, so those run
 * unchecked, a whole label word at a time (the per = 64 / bits labels of a
 * word unrolled for each label width); parts fill slowly and evenly, so R
 * shrinks by about 1/k a run and the k-term scan for R is paid rarely. Only
 * the last steps, once R <= per, are checked one by one. Same labels, same
 * steps, same stop as checking every step: at k = 512 the pass went from
 * 1.27 to 0.85 ns per element (bench/rough experiment in docs/DESIGN.md).
 *
 * For small k (bits <= 4) the label-0 case is taken without a branch: store
 * the held element at bucket j's slot, then hold either what that slot held
 * (j != 0) or the next element of bucket 0 (j == 0), by a select. A branch
 * there mispredicts on about 1/k of the steps: at k = 2, as in lower
 * levels, it took 3.6 ns per element instead of 1.5. For larger k the
 * branch is cheaper than the extra load.
 */
/* The rough pass's prefetch: distance, locality hint, and for measurement
   builds only PF_BURST (0: none; B: the B-byte block ahead, line by line).
   At 1e8 on Zen 4: 512 bytes as fast as 256, none 0.15 ns per element
   slower, bursts of 128 or 256 bytes 0.7-0.9 slower.
   The hint is chosen per CPU at run time (fsh_scatter_prefetch_l2):
   PF_LOC (3, PREFETCHT0, into L1) where that was measured best (Zen 4),
   PF_LOC_L2
   (2, PREFETCHT1, into L2 only) on Intel CPUs, where the 512 streams'
   lines prefetched into the 48 KiB L1 evicted the lines in use: at 1e8
   on a Xeon (family 6 model 207) the pass's step took 1.6-1.7 ns with
   the L2 hint against 2.1 with the L1 one (docs/PERFORMANCE.md, issue 13,
   session 26). The 4-, 8- and 16-byte rough functions are built for both
   hints (DEFINE_ROUGH's LOC; the L2 builds for 7- to 9-bit labels
   only); the permutation is the same. */
#ifndef PF_BYTES
#define PF_BYTES 256 /* prefetch distance in each bucket's stream */
#endif
#ifndef PF_LOC
#define PF_LOC 3
#endif
#define PF_LOC_L2 2
/* ... from this many label bits (128 streams) up; at 64 streams the two
   hints were as fast there, so the L2 builds leave out the narrower
   label widths. */
#define PF_L2_MIN_BITS 7
#ifndef PF_BURST
#define ROUGH_PREFETCH(p)                                                      \
    __builtin_prefetch((const void *)((uintptr_t)(p) + PF_BYTES), 1, pf_loc_)
#elif PF_BURST == 0
#define ROUGH_PREFETCH(p) (void)0
#else
#define ROUGH_PREFETCH(p)                                                      \
    do {                                                                       \
        uintptr_t q_ = ((uintptr_t)(p) + PF_BYTES) &                          \
                       ~(uintptr_t)(PF_BURST - 1);                             \
        for (unsigned l_ = 0; l_ < PF_BURST; l_ += 64)                         \
            __builtin_prefetch((const void *)(q_ + l_), 1, pf_loc_);           \
    } while (0)
#endif

/* Least room left in any of the k parts, from the pointer cursors P
   (P[j] = a + nx[j] * size). */
static inline size_t least_room(unsigned char *const *P,
                                const unsigned char *a, const size_t *en,
                                unsigned k, size_t size)
{
    size_t r = SIZE_MAX;
    for (unsigned j = 0; j < k; j++) {
        size_t room = en[j] - (size_t)(P[j] - a) / size;
        if (room < r)
            r = room;
    }
    return r;
}

/* One unchecked step with label j: P the bucket cursors as pointers
   (P[j] = a + nx[j] * SIZE), p0 == P[0] kept in a register, x the held
   element, y and z scratch (all lvalues of the element type). Pointer
   cursors spare the index-to-address arithmetic of every step. */
#define ROUGH_STEP(P, p0, x, y, z, SIZE, SELECT, SELECTED, j)                  \
    do {                                                                       \
        size_t j1_ = (j);                                                      \
        if (SELECTED) {                                                        \
            unsigned char *p_ = (P)[j1_];                                      \
            (P)[j1_] = p_ + (SIZE);                                            \
            (p0) += j1_ == 0 ? (SIZE) : 0;                                     \
            memcpy(&(y), p_, (SIZE));                                          \
            memcpy(p_, &(x), (SIZE));                                          \
            memcpy(&(z), (p0), (SIZE));                                        \
            (x) = SELECT(j1_ != 0, (y), (z));                                  \
        } else if (j1_ == 0) {                                                 \
            memcpy((p0), &(x), (SIZE));                                        \
            (p0) += (SIZE);                                                    \
            (P)[0] = (p0);                                                     \
            memcpy(&(x), (p0), (SIZE));                                        \
        } else {                                                               \
            unsigned char *p_ = (P)[j1_];                                      \
            (P)[j1_] = p_ + (SIZE);                                            \
            ROUGH_PREFETCH(p_);                                                \
            memcpy(&(y), p_, (SIZE));                                          \
            memcpy(p_, &(x), (SIZE));                                          \
            (x) = (y);                                                         \
        }                                                                      \
    } while (0)

/* `words` label words of width B from rng, unchecked (ROUGH_STEP's
   arguments passed through). */
#define ROUGH_RUN(rng, words, P, p0, x, y, z, SIZE, SELECT, B)                 \
    for (size_t t_ = 0; t_ < (words); t_++) {                                  \
        uint64_t w_ = *wp_++;                                                  \
        _Pragma("GCC unroll 64") for (unsigned u_ = 0; u_ < 64 / (B); u_++) {  \
            size_t j_ = (size_t)(w_ >> (64 - (B)));                            \
            w_ <<= (B);                                                        \
            ROUGH_STEP(P, p0, x, y, z, SIZE, SELECT, (B) <= 4, j_);            \
        }                                                                      \
    }

/* The rough pass's words: read through a local pointer into the rng's
   buffer (rng->pos is written back after the runs), refilled as
   fsh_next_word would. Two builds of each rough function:
   - IL 0: a refill stops the pass while it makes the next 32 blocks;
   - IL 1 (ChaCha task streams where the AVX-512 ChaCha kernel runs): the
     next 32 blocks are made ahead in slices (chacha_simd.h's AHEAD_*),
     one every 8 label words or fewer (a double round of 16 blocks, their
     feed-forward and transpose, or the store of a quarter of them into
     side_), with the state in 16 zmm registers the pass itself never
     uses, so the vector work overlaps the pass's memory
     traffic instead of stopping it; a refill then copies side_ in,
     exactly the words and the rng state fsh_rng_refill would give
     (tests/test_scatter_wide.c, and tests/cli/test_kernel_impl.sh with
     FSH_CHACHA_IMPL=avx2 for the other build). */
#define ROUGH_DECL_0(rng) (void)0
#define ROUGH_SLICE_0(rng) (void)0
#define ROUGH_BUSY_0(rng) 0
#define ROUGH_REFILL_0(rng)                                                    \
    do {                                                                       \
        (rng)->pos = FSH_BUF_WORDS;                                            \
        fsh_rng_refill(rng);                                                   \
    } while (0)
#define ROUGH_END_0(rng) (void)0

#if FSH_CHACHA_X86
#define ROUGH_DECL_1(rng) AHEAD_DECL(rng)
#define ROUGH_SLICE_1(rng) AHEAD_SLICE(rng)
#define ROUGH_BUSY_1(rng) AHEAD_BUSY(rng)
#define ROUGH_REFILL_1(rng) AHEAD_REFILL(rng)
#define ROUGH_END_1(rng) AHEAD_END(rng)
#endif

/* Label widths above 9 bits: the small-leaf prototype builds only. */
#if SC_KMAX > 1024
#define ROUGH_CASES_WIDE(rng, words, P, p0, x, y, z, SIZE, SELECT)             \
    case 10:                                                                   \
        ROUGH_RUN(rng, words, P, p0, x, y, z, SIZE, SELECT, 10);               \
        break;                                                                 \
    case 11:                                                                   \
        ROUGH_RUN(rng, words, P, p0, x, y, z, SIZE, SELECT, 11);               \
        break;
#elif SC_KMAX > 512
#define ROUGH_CASES_WIDE(rng, words, P, p0, x, y, z, SIZE, SELECT)             \
    case 10:                                                                   \
        ROUGH_RUN(rng, words, P, p0, x, y, z, SIZE, SELECT, 10);               \
        break;
#else
#define ROUGH_CASES_WIDE(rng, words, P, p0, x, y, z, SIZE, SELECT)
#endif

/* T: an element type of SIZE bytes; SELECT(c, y, z): c ? y : z without a
   branch on c. The unchecked runs work on pointer cursors P (on the stack),
   converted back to nx before the checked last steps. */
#define DEFINE_ROUGH(name, T, SIZE, SELECT, IL, ATTR, LOC)                     \
    ATTR static void name(const labeler *L, unsigned char *a, size_t *nx,      \
                          const size_t *en)                                    \
    {                                                                          \
        enum { pf_loc_ = LOC }; /* ROUGH_PREFETCH's hint: a constant */       \
        fsh_rng *rng = L->rng;                                                 \
        const unsigned bits = L->bits, per = L->per, k = (unsigned)L->k;       \
        unsigned char *P[SC_KMAX];                                             \
        for (unsigned j = 0; j < k; j++)                                       \
            P[j] = a + nx[j] * SIZE;                                           \
        unsigned char *p0 = a + nx[0] * SIZE; /* P[0] (k >= 2) */             \
        T x, y, z;                                                             \
        memcpy(&x, p0, SIZE);                                                  \
        const uint64_t *wp_ = rng->buf + rng->pos,                             \
                       *const we_ = rng->buf + FSH_BUF_WORDS;                  \
        ROUGH_DECL_##IL(rng);                                                  \
        for (;;) {                                                             \
            size_t R = least_room(P, a, en, k, SIZE);                          \
            if (R <= per)                                                      \
                break;                                                         \
            size_t words = (R - 1) / per;                                      \
            /* Chunks of at most 8 words inside the buffer: one slice of       \
               the next buffer each (ROUGH_SLICE_1), the refill between.       \
               The next buffer is made in full (ROUGH_BUSY_1) before it is     \
               taken in. */                                                    \
            while (words > 0) {                                                \
                ROUGH_SLICE_##IL(rng);                                         \
                if (FSH_UNLIKELY(wp_ == we_)) {                                \
                    if (ROUGH_BUSY_##IL(rng))                                  \
                        continue;                                              \
                    ROUGH_REFILL_##IL(rng);                                    \
                    wp_ = rng->buf + rng->pos;                                 \
                }                                                              \
                size_t n_ = (size_t)(we_ - wp_);                               \
                n_ = n_ < 8 ? n_ : 8;                                          \
                n_ = n_ < words ? n_ : words;                                  \
                words -= n_;                                                   \
                if (LOC == PF_LOC_L2 && bits < PF_L2_MIN_BITS)                 \
                    __builtin_unreachable(); /* see rough_stripe */            \
                switch (bits) {                                                \
                case 1:                                                        \
                    ROUGH_RUN(rng, n_, P, p0, x, y, z, SIZE, SELECT, 1);       \
                    break;                                                     \
                case 2:                                                        \
                    ROUGH_RUN(rng, n_, P, p0, x, y, z, SIZE, SELECT, 2);       \
                    break;                                                     \
                case 3:                                                        \
                    ROUGH_RUN(rng, n_, P, p0, x, y, z, SIZE, SELECT, 3);       \
                    break;                                                     \
                case 4:                                                        \
                    ROUGH_RUN(rng, n_, P, p0, x, y, z, SIZE, SELECT, 4);       \
                    break;                                                     \
                case 5:                                                        \
                    ROUGH_RUN(rng, n_, P, p0, x, y, z, SIZE, SELECT, 5);       \
                    break;                                                     \
                case 6:                                                        \
                    ROUGH_RUN(rng, n_, P, p0, x, y, z, SIZE, SELECT, 6);       \
                    break;                                                     \
                case 7:                                                        \
                    ROUGH_RUN(rng, n_, P, p0, x, y, z, SIZE, SELECT, 7);       \
                    break;                                                     \
                case 8:                                                        \
                    ROUGH_RUN(rng, n_, P, p0, x, y, z, SIZE, SELECT, 8);       \
                    break;                                                     \
                ROUGH_CASES_WIDE(rng, n_, P, p0, x, y, z, SIZE, SELECT)        \
                default:                                                       \
                    ROUGH_RUN(rng, n_, P, p0, x, y, z, SIZE, SELECT, 9);       \
                    break;                                                     \
                }                                                              \
            }                                                                  \
        }                                                                      \
        rng->pos = (unsigned)(wp_ - rng->buf);                                 \
        ROUGH_END_##IL(rng);                                                   \
        for (unsigned j = 0; j < k; j++)                                       \
            nx[j] = (size_t)(P[j] - a) / SIZE;                                 \
        /* The last steps, checked, labels from a copy of the fresh         \
           labeler: the runs consumed whole words only. */                   \
        labeler lc = *L;                                                       \
        for (;;) {                                                             \
            size_t j = next_label(&lc);                                        \
            unsigned char *p = a + nx[j] * SIZE;                               \
            memcpy(&y, p, SIZE);                                               \
            memcpy(p, &x, SIZE);                                               \
            if (++nx[j] == en[j]) {                                            \
                if (j != 0)                                                    \
                    memcpy(a + nx[0] * SIZE, &y, SIZE);                        \
                return;                                                        \
            }                                                                  \
            if (j != 0)                                                        \
                x = y;                                                         \
            else                                                               \
                memcpy(&x, a + nx[0] * SIZE, SIZE);                            \
        }                                                                      \
    }

typedef struct {
    uint64_t lo, hi;
} u64x2;

#define SELECT_INT(c, y, z) ((c) ? (y) : (z))

static inline u64x2 select_u64x2(int c, u64x2 y, u64x2 z)
{
    uint64_t m = 0u - (uint64_t)c;
    u64x2 r = {(y.lo & m) | (z.lo & ~m), (y.hi & m) | (z.hi & ~m)};
    return r;
}

DEFINE_ROUGH(rough1, uint8_t, 1, SELECT_INT, 0, , PF_LOC)
DEFINE_ROUGH(rough2, uint16_t, 2, SELECT_INT, 0, , PF_LOC)
DEFINE_ROUGH(rough4, uint32_t, 4, SELECT_INT, 0, , PF_LOC)
DEFINE_ROUGH(rough8, uint64_t, 8, SELECT_INT, 0, , PF_LOC)
DEFINE_ROUGH(rough16, u64x2, 16, select_u64x2, 0, , PF_LOC)
DEFINE_ROUGH(rough4_l2, uint32_t, 4, SELECT_INT, 0, , PF_LOC_L2)
DEFINE_ROUGH(rough8_l2, uint64_t, 8, SELECT_INT, 0, , PF_LOC_L2)
DEFINE_ROUGH(rough16_l2, u64x2, 16, select_u64x2, 0, , PF_LOC_L2)
#if FSH_CHACHA_X86
DEFINE_ROUGH(rough4_il, uint32_t, 4, SELECT_INT, 1, FSH_AVX512_FN, PF_LOC)
DEFINE_ROUGH(rough8_il, uint64_t, 8, SELECT_INT, 1, FSH_AVX512_FN, PF_LOC)
DEFINE_ROUGH(rough16_il, u64x2, 16, select_u64x2, 1, FSH_AVX512_FN, PF_LOC)
DEFINE_ROUGH(rough4_il_l2, uint32_t, 4, SELECT_INT, 1, FSH_AVX512_FN,
             PF_LOC_L2)
DEFINE_ROUGH(rough8_il_l2, uint64_t, 8, SELECT_INT, 1, FSH_AVX512_FN,
             PF_LOC_L2)
DEFINE_ROUGH(rough16_il_l2, u64x2, 16, select_u64x2, 1, FSH_AVX512_FN,
             PF_LOC_L2)
#endif

/* Whether the rough pass prefetches into L2 (PF_LOC_L2) rather than L1:
   on Intel CPUs (see PF_LOC). FSH_ROUGH_PREFETCH=l1 or l2 in the
   environment forces one (the tests run both, the benchmarks compare
   them). Decided once per process; the permutation is the same. */
static atomic_int rough_pf_state; /* 0: undecided, 1: L1, 2: L2 */

FSH_HIDDEN int fsh_scatter_prefetch_l2(void)
{
    int v = atomic_load_explicit(&rough_pf_state, memory_order_relaxed);
    if (v == 0) {
        const char *e = getenv("FSH_ROUGH_PREFETCH");
        if (e != NULL && strcmp(e, "l1") == 0) {
            v = 1;
        } else if (e != NULL && strcmp(e, "l2") == 0) {
            v = 2;
        } else {
            v = 1;
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
            __builtin_cpu_init();
            if (__builtin_cpu_is("intel"))
                v = 2;
#endif
        }
        atomic_store_explicit(&rough_pf_state, v, memory_order_relaxed);
    }
    return v == 2;
}

/* Measurement builds (bench/large.c's "p" entries): force the hint, 1 for
   L1 or 2 for L2 (0: decide again as above). */
FSH_HIDDEN void fsh_scatter_prefetch_force(int hint)
{
    atomic_store_explicit(&rough_pf_state, hint, memory_order_relaxed);
}

/* Any other element size: one checked step at a time, each bucket's
   stream prefetched PF_BYTES (or one element, if larger) ahead: every
   line of that element (without it, 12- to 32-byte elements waited for
   DRAM on every new line of every stream, 1.6-2.3x slower at 100 MiB;
   with its two ends only, records of more than 64 bytes waited on their
   middle lines, the pass 1.4-2.7x slower for 100- to 256-byte records:
   docs/PERFORMANCE.md, issue 13, session 15). */
static void rough_any(labeler *L, unsigned char *a, size_t *nx,
                      const size_t *en, size_t size)
{
    size_t d = size > PF_BYTES ? size : PF_BYTES;
    for (;;) {
        size_t j = next_label(L);
        unsigned char *p = a + nx[j] * size;
        FSH_PREFETCH_ELEMENT(p + d, size, 1, PF_LOC);
        if (j != 0)
            fsh_swap_inline(a + nx[0] * size, p, size);
        if (++nx[j] == en[j])
            return;
    }
}

static void rough_stripe(sctx *c, level *lv, unsigned s)
{
    unsigned k = lv->k;
    size_t *nx = lv->nx + (size_t)s * k;
    const size_t *en = lv->en + (size_t)s * k;
    for (unsigned j = 0; j < k; j++)
        if (nx[j] == en[j])
            return; /* a part with no room: everything is stash */
    fsh_rng local, *r = task_rng(c, &local, lv->node, s);
    labeler L;
    labeler_init(&L, r, k);
    /* A task stream (ChaCha, no fork guard) on a CPU running the AVX-512
       ChaCha kernel: the rough functions that make their next buffer in
       slices (ROUGH_DECL_1). Same words, same output. */
    int il = 0;
    int l2 = L.bits >= PF_L2_MIN_BITS && fsh_scatter_prefetch_l2();
#if FSH_CHACHA_X86
    il = r == &local && r->src == FSH_SRC_CHACHA && !r->guard &&
         fsh_chacha_impl_active() == FSH_CHACHA_AVX512;
#define ROUGH_CALL(f)                                                          \
    (il ? (l2 ? f##_il_l2(&L, lv->a, nx, en) : f##_il(&L, lv->a, nx, en))      \
        : (l2 ? f##_l2(&L, lv->a, nx, en) : f(&L, lv->a, nx, en)))
#else
#define ROUGH_CALL(f)                                                          \
    (l2 ? f##_l2(&L, lv->a, nx, en) : f(&L, lv->a, nx, en))
#endif
    switch (L.pow2 ? c->size : 0) {
    case 1: /* 1- and 2-byte elements: never the 1e8-element case */
        rough1(&L, lv->a, nx, en);
        break;
    case 2:
        rough2(&L, lv->a, nx, en);
        break;
    case 4:
        ROUGH_CALL(rough4);
        break;
    case 8:
        ROUGH_CALL(rough8);
        break;
    case 16:
        ROUGH_CALL(rough16);
        break;
    default:
        rough_any(&L, lv->a, nx, en, c->size);
        break;
    }
    task_done(c, r);
}

/* Buckets for n elements: enough that a bucket fits kbase (the base case,
   or half of it), at most SC_KMAX, and each stripe part big enough to keep
   the stash small. */
static unsigned choose_k(const sctx *c, size_t n, unsigned S)
{
    if (c->kfix)
        return c->kfix;
    unsigned k = 2;
    while (k < SC_KMAX && n / k > c->kbase && n / ((size_t)2 * k * S) >= 4096)
        k *= 2;
    return k;
}

/* buf holds 3 * S * SC_KMAX words. */
static void level_plan(const sctx *c, level *lv, unsigned char *a, size_t n,
                       uint64_t node, unsigned depth, unsigned S, size_t *buf)
{
    lv->nx = buf;
    lv->en = buf + (size_t)S * SC_KMAX;
    lv->st = buf + (size_t)2 * S * SC_KMAX;
    lv->a = a;
    lv->n = n;
    lv->node = node;
    lv->depth = depth;
    lv->S = S;
    lv->k = choose_k(c, n, S);
    unsigned k = lv->k;
    for (unsigned j = 0; j < k; j++) {
        size_t r0 = cut(n, k, j), r1 = cut(n, k, j + 1), len = r1 - r0;
        for (unsigned s = 0; s < S; s++) {
            size_t i = (size_t)s * k + j;
            lv->st[i] = lv->nx[i] = r0 + cut(len, S, s);
            lv->en[i] = r0 + cut(len, S, s + 1);
        }
    }
}

/* Steps b and c's shared state, so that their per-bucket and per-chunk
   parts can run as parallel tasks (one definition either way: the output
   does not depend on how they are split). */
typedef struct fixup {
    size_t P[SC_KMAX];     /* processed elements of bucket j */
    size_t V[SC_KMAX + 1]; /* bucket j's stash in tmp: [V_j, V_j+1) */
    lab_t *lab;            /* m labels, then the m stash elements (tmp) */
    unsigned char *tmp;
    size_t m;
    size_t chunks, chunk_len; /* the stash placement's tasks */
    size_t *cpos; /* chunks * k: next slot of (chunk, label) */
} fixup;

/* A level's parallel steps: the tasks of one kind share this. */
typedef struct lvjob {
    sctx *c;
    level *lv;
    fixup *fx;
} lvjob;

static void fix_bucket_task(void *ctx, size_t j);
static void fix_place_task(void *ctx, size_t q);

/* Task: compact bucket j's processed parts to the front of its region and
   copy the unlabelled rest (its share of the stash) out to tmp. */
static void fix_bucket(const sctx *c, const level *lv, const fixup *fx,
                       unsigned j)
{
    unsigned k = lv->k, S = lv->S;
    size_t size = c->size;
    unsigned char *a = lv->a;
    size_t w = lv->nx[j];
    for (unsigned s = 1; s < S; s++) {
        size_t i = (size_t)s * k + j;
        size_t L = lv->nx[i] - lv->st[i], h = lv->st[i] - w;
        size_t cc = h < L ? h : L;
        if (cc > 0)
            fsh_swap_bytes(a + w * size, a + (lv->nx[i] - cc) * size,
                           cc * size);
        w += L;
    }
    memcpy(fx->tmp + fx->V[j] * size, a + w * size,
           (fx->V[j + 1] - fx->V[j]) * size);
}

/* Task: stash chunk q's elements to the next free slots of their labels'
   buckets, in order (the chunks' slots were handed out in order). */
static void fix_place(const sctx *c, const level *lv, fixup *fx, size_t q)
{
    size_t size = c->size, t0 = q * fx->chunk_len;
    size_t t1 = t0 + fx->chunk_len < fx->m ? t0 + fx->chunk_len : fx->m;
    size_t *pos = fx->cpos + q * lv->k;
    for (size_t t = t0; t < t1; t++)
        memcpy(lv->a + pos[fx->lab[t]]++ * size, fx->tmp + t * size, size);
}

/* The stash copy is fresh memory (megabytes at 1e8 elements, from mmap):
   ask for transparent huge pages before its first touch, so that filling
   it takes a few faults instead of one per 4 KiB page (KVM makes each
   fault expensive). Only the 2 MiB-aligned interior; a hint, no effect on
   the output. */
static void huge_hint(void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t H = (uintptr_t)2 << 20;
    uintptr_t b = ((uintptr_t)p + H - 1) & ~(H - 1);
    uintptr_t e = ((uintptr_t)p + bytes) & ~(H - 1);
    if (e > b) {
        int err = errno; /* a hint: with THP off it fails, silently */
        (void)madvise((void *)b, (size_t)(e - b), MADV_HUGEPAGE);
        errno = err;
    }
#else
    (void)p, (void)bytes;
#endif
}

/* Steps b and c: compact, label the stash, move the boundaries, place the
   stash. Sets lv->F; on allocation failure sets c->error and leaves a
   permutation of the input. The compaction and the placement run on up to
   `threads` threads. */
static void level_fix(sctx *c, level *lv, unsigned threads)
{
    unsigned k = lv->k, S = lv->S;
    size_t size = c->size;
    unsigned char *a = lv->a;
    size_t cnt[SC_KMAX];
    if (c->broken) { /* test hook: the rough regions taken as the buckets */
        for (unsigned j = 0; j <= k; j++)
            lv->F[j] = cut(lv->n, k, j);
        return;
    }
    fixup *fx = malloc(sizeof *fx);
    if (fx == NULL)
        goto nomem;
    /* Processed counts and stash offsets, known before any compaction. */
    fx->m = 0;
    for (unsigned j = 0; j < k; j++) {
        size_t p = 0;
        for (unsigned s = 0; s < S; s++)
            p += lv->nx[(size_t)s * k + j] - lv->st[(size_t)s * k + j];
        fx->P[j] = p;
        fx->V[j] = fx->m;
        fx->m += cut(lv->n, k, j + 1) - cut(lv->n, k, j) - p;
        cnt[j] = 0;
    }
    fx->V[k] = fx->m;
    size_t m = fx->m;
    fx->chunks = threads > 1 && m >= 65536 ? 8 * (size_t)threads : 1;
    fx->chunk_len = (m + fx->chunks - 1) / fx->chunks;
    fx->lab = NULL;
    fx->cpos = malloc(fx->chunks * k * sizeof *fx->cpos);
    if (fx->cpos == NULL ||
        (m > 0 && (fx->lab = malloc(m * (sizeof(lab_t) + size))) == NULL)) {
        free(fx->cpos);
        free(fx);
        goto nomem;
    }
    if (m > 0)
        huge_hint(fx->lab, m * (sizeof(lab_t) + size));
    /* Labels first: they need their alignment, the elements (moved by
       memcpy) do not. */
    fx->tmp = m > 0 ? (unsigned char *)(fx->lab + m) : NULL;
    /* b. Compaction; the stash (unlabelled elements, in order of
       position) to tmp. */
    lvjob jb = {c, lv, fx};
    PHASE_MARK(f0);
    fsh_tasks compact = {"scatter: compact buckets", fix_bucket_task, k};
    fsh_tasks_run(&compact, &jb, threads);
    PHASE_MARK(f1);
    /* Each stash element's label: m fresh uniform draws, counted (per
       placement chunk). */
    memset(fx->cpos, 0, fx->chunks * k * sizeof *fx->cpos);
    fsh_rng local, *r = task_rng(c, &local, lv->node, TASK_STASH);
    labeler L;
    labeler_init(&L, r, k);
    /* Chunk by chunk (no division per label); cnt is summed from the
       chunks' counts afterwards. */
    for (size_t q = 0, t = 0; q < fx->chunks; q++) {
        size_t *cq = fx->cpos + q * k;
        size_t t1 = t + fx->chunk_len < m ? t + fx->chunk_len : m;
        for (; t < t1; t++) {
            size_t j = next_label(&L);
            fx->lab[t] = (lab_t)j;
            cq[j]++;
        }
        for (unsigned j = 0; j < k; j++)
            cnt[j] += cq[j];
    }
    task_done(c, r);
    PHASE_MARK(f2);
    lv->F[0] = 0;
    for (unsigned j = 0; j < k; j++)
        lv->F[j + 1] = lv->F[j] + fx->P[j] + cnt[j];
    /* c. Move processed block j from [R_j, R_j + P_j) to [F_j, F_j + P_j):
       blocks moving left in increasing j, then those moving right in
       decreasing j, so a block's new slots never hold another block (only
       stash slots, already copied out). Only the non-overlapping part
       moves: order inside a bucket does not matter. */
    for (unsigned j = 0; j < k; j++) {
        size_t from = cut(lv->n, k, j), to = lv->F[j], p = fx->P[j];
        if (to < from) {
            size_t cc = from - to < p ? from - to : p;
            memcpy(a + to * size, a + (from + p - cc) * size, cc * size);
        }
    }
    for (unsigned j = k; j-- > 0;) {
        size_t from = cut(lv->n, k, j), to = lv->F[j], p = fx->P[j];
        if (to > from) {
            size_t cc = to - from < p ? to - from : p;
            memcpy(a + (to + p - cc) * size, a + from * size, cc * size);
        }
    }
    /* Each stash element to the next free slot of its label's bucket, in
       stash order: chunk q's first slot for label j comes after the slots
       of the chunks before it. */
    for (unsigned j = 0; j < k; j++) {
        size_t pos = lv->F[j] + fx->P[j];
        for (size_t q = 0; q < fx->chunks; q++) {
            size_t n_qj = fx->cpos[q * k + j];
            fx->cpos[q * k + j] = pos;
            pos += n_qj;
        }
    }
    PHASE_MARK(f3);
    fsh_tasks place = {"scatter: place stash", fix_place_task, fx->chunks};
    fsh_tasks_run(&place, &jb, threads);
    PHASE_MARK(f4);
    if (lv->depth == 0) {
        PHASE_ADD(3, f0, f1);
        PHASE_ADD(4, f1, f2);
        PHASE_ADD(5, f2, f3);
        PHASE_ADD(6, f3, f4);
    }
    free(fx->lab);
    free(fx->cpos);
    free(fx);
    return;
nomem:
    atomic_store(&c->error, 1);
    for (unsigned j = 0; j <= k; j++)
        lv->F[j] = j == k ? lv->n : 0; /* one bucket: nothing to do */
}

static void scatter_node(sctx *c, unsigned char *a, size_t n, uint64_t node,
                         unsigned depth);

/* Pull a bucket into cache in one streaming read before its backward
   Fisher-Yates, whose random accesses would otherwise each miss to DRAM
   (the forward one of stream version 3 needs none: it reads the bucket
   in order as it goes). On the Zen 4 VM
   (L2 1 MiB, 1.56 MiB leaves at 1e8) this beat prefetching the next bucket
   while the current one shuffles, half of it or all (the look-ahead
   kernels of fairshuf 0.2): the prefetched lines slowed the running leaf by
   more than the read they saved (docs/PERFORMANCE.md, issue 13, session
   9). */
static void warm(const unsigned char *p, size_t bytes)
{
    uint64_t acc = 0, w;
    for (size_t o = 0; o + 8 <= bytes; o += 64) {
        memcpy(&w, p + o, 8);
        acc += w;
    }
    __asm__ volatile("" : : "r"(acc));
}

/* Step d for bucket j. */
static void level_bucket(sctx *c, const level *lv, unsigned j)
{
    size_t b0 = lv->F[j], b1 = lv->F[j + 1];
    scatter_node(c, lv->a + b0 * c->size, b1 - b0,
                 lv->node << SC_LEVEL_BITS | (uint64_t)j, lv->depth + 1);
}

/* A bucket: Fisher-Yates when small (or too deep to name), else a level.
   The leaf's Fisher-Yates runs backward after a warming read (by index
   for records of 96 to 4096 bytes, the same permutation), or forward
   (stream version 3, small elements) without one. */
static void scatter_node(sctx *c, unsigned char *a, size_t n, uint64_t node,
                         unsigned depth)
{
    if (n < 2 || atomic_load(&c->error))
        return;
    if (n <= c->base || depth >= SC_MAXDEPTH) {
        PHASE_MARK(l0);
        if (!c->forward)
            warm(a, n * c->size);
        PHASE_MARK(l1);
        fsh_rng local, *r = task_rng(c, &local, node, TASK_LEAF);
        if (c->forward)
            fsh_fy_forward(r, a, n, c->size);
        else
            fsh_fy_records(r, a, n, c->size);
        task_done(c, r);
        PHASE_MARK(l2);
        if (depth == 1) {
            PHASE_ADD(8, l0, l1);
            PHASE_ADD(9, l1, l2);
        }
        return;
    }
    size_t buf[3 * SC_KMAX]; /* ~8 KiB of stack per level, <= 5 levels */
    level lv;
    level_plan(c, &lv, a, n, node, depth, 1, buf);
    rough_stripe(c, &lv, 0);
    level_fix(c, &lv, 1);
    for (unsigned j = 0; j < lv.k; j++)
        level_bucket(c, &lv, j);
}

/* ------------------------------------------------------------------------ */
/* The top level's tasks. Which thread runs a task never changes its
   output. */

static void rough_task(void *ctx, size_t s)
{
    lvjob *jb = ctx;
    rough_stripe(jb->c, jb->lv, (unsigned)s);
}

static void bucket_task(void *ctx, size_t j)
{
    lvjob *jb = ctx;
    level_bucket(jb->c, jb->lv, (unsigned)j);
}

static void fix_bucket_task(void *ctx, size_t j)
{
    const lvjob *jb = ctx;
    fix_bucket(jb->c, jb->lv, jb->fx, (unsigned)j);
}

static void fix_place_task(void *ctx, size_t q)
{
    lvjob *jb = ctx;
    fix_place(jb->c, jb->lv, jb->fx, q);
}

static void scatter_run(sctx *c, unsigned char *a, size_t n,
                        unsigned threads)
{
    unsigned S = c->sfix ? c->sfix : FSH_SCATTER_STRIPES;
    if (n <= c->base) {
        scatter_node(c, a, n, 1, 0);
        return;
    }
    /* 3 * S * SC_KMAX words (48 KiB): on the heap, not a caller's stack. */
    size_t *buf = malloc(3 * (size_t)S * SC_KMAX * sizeof *buf);
    if (buf == NULL) {
        atomic_store(&c->error, 1);
        return;
    }
    level lv;
    level_plan(c, &lv, a, n, 1, 0, S, buf);
    lvjob jb = {c, &lv, NULL};
    PHASE_MARK(t0);
    fsh_tasks rough = {"scatter: rough stripes", rough_task, S};
    fsh_tasks_run(&rough, &jb, threads);
    PHASE_MARK(t1);
    level_fix(c, &lv, threads);
    PHASE_MARK(t2);
    fsh_tasks buckets = {"scatter: buckets", bucket_task, lv.k};
    fsh_tasks_run(&buckets, &jb, threads);
    PHASE_MARK(t3);
    PHASE_ADD(0, t0, t1);
    PHASE_ADD(1, t1, t2);
    PHASE_ADD(2, t2, t3);
    free(buf);
}

static void key_from(sctx *c, fsh_rng *rng)
{
    for (int w = 0; w < 4; w++) {
        uint64_t x = fsh_next_word(rng);
        for (int b = 0; b < 8; b++)
            c->key[8 * w + b] = (uint8_t)(x >> (8 * b));
    }
    c->rounds = rng->src == FSH_SRC_CHACHA ? rng->rounds : 8;
}

int fsh_scatter_hook(fsh_rng *rng, unsigned char *a, size_t n, size_t size,
                     const fsh_scatter_params *p)
{
    if (p->k < 2 || p->k > SC_KMAX || p->stripes < 1 ||
        p->stripes > SC_SMAX || p->base < 1 ||
        (p->keyed && rng->src == FSH_SRC_RANDINT))
        return FSH_EINVAL;
    int rc = fsh_rng_ready(rng);
    if (rc != FSH_OK)
        return rc;
    sctx c;
    memset(&c, 0, sizeof c);
    atomic_init(&c.words, 0);
    atomic_init(&c.error, 0);
    c.size = size;
    c.base = p->base;
    c.kbase = p->base;
    c.kfix = p->k;
    c.sfix = p->stripes;
    c.broken = p->broken;
    c.forward = p->forward;
    if (p->keyed)
        key_from(&c, rng);
    else
        c.shared = rng;
    scatter_run(&c, a, n, p->keyed && p->threads ? p->threads : 1);
    rng->words_made += (uint64_t)atomic_load(&c.words);
    sodium_memzero(c.key, sizeof c.key);
    if (atomic_load(&c.error))
        return FSH_ENOMEM;
    return fsh_rng_take_error(rng);
}

/* Elements per bucket at the base case, for this element size. */
static size_t base_elems(size_t size)
{
    size_t b = FSH_SCATTER_BASE_BYTES / size;
    return b < 64 ? 64 : b;
}

/* The scatter shuffle of elements of esize bytes, by the stream of
   elements of size bytes (its levels, leaves and leaf order; the
   permutation does not depend on what the elements hold). */
static int scatter_as(fsh_rng *rng, unsigned char *a, size_t n, size_t esize,
                      size_t size, unsigned threads, unsigned version)
{
    sctx c;
    memset(&c, 0, sizeof c);
    atomic_init(&c.words, 0);
    atomic_init(&c.error, 0);
    c.size = esize;
    c.base = base_elems(size);
    c.kbase = version == FSH_STREAM_V1 ? c.base
                                       : c.base >> FSH_SCATTER_V2_SHIFT;
    c.forward = version >= FSH_STREAM_V3 && size <= FSH_SCATTER_V2_MAX_SIZE;
    PHASE_MARK(w0);
    key_from(&c, rng);
    scatter_run(&c, a, n, fsh_threads_resolve(threads));
    PHASE_MARK(w1);
    PHASE_ADD(7, w0, w1);
    rng->words_made += (uint64_t)atomic_load(&c.words);
    sodium_memzero(c.key, sizeof c.key);
    return atomic_load(&c.error) ? FSH_ENOMEM : FSH_OK;
}

int fsh_scatter_shuffle(fsh_rng *rng, unsigned char *a, size_t n, size_t size,
                        unsigned threads, unsigned version)
{
    return scatter_as(rng, a, n, size, size, threads, version);
}

int fsh_scatter_by_index(fsh_rng *rng, unsigned char *a, size_t n,
                         size_t size, unsigned version)
{
    if (size < FSH_BYINDEX_SCATTER_MIN_SIZE || size > FSH_BYINDEX_MAX_SIZE)
        return FSH_SCATTER_NOT_DONE;
    uint32_t *idx = fsh_index_new(n, size);
    if (idx == NULL)
        return FSH_SCATTER_NOT_DONE;
    int rc = scatter_as(rng, (unsigned char *)idx, n, sizeof *idx, size, 1,
                        version);
    if (rc == FSH_OK)
        fsh_apply_index(a, n, size, idx);
    free(idx);
    return rc;
}
