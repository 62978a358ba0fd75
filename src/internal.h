/* Private helpers shared by the library sources (and white-box tests). */
#ifndef FSH_INTERNAL_H
#define FSH_INTERNAL_H

#include "fairshuf.h"

#include <stdint.h>
#include <string.h>

#define FSH_HIDDEN __attribute__((visibility("hidden")))

#if defined(__GNUC__)
#define FSH_LIKELY(x) __builtin_expect(!!(x), 1)
#define FSH_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define FSH_LIKELY(x) (x)
#define FSH_UNLIKELY(x) (x)
#endif

/* The value of x, hidden from the optimiser: stops GCC from widening a
   multiplier that counts down into a 128-bit induction variable (which costs
   a second multiply per die in the batched loops). */
#if defined(__GNUC__)
#define FSH_OPAQUE(x)                                                          \
    __extension__({                                                            \
        __typeof__(x) o_ = (x);                                                \
        __asm__("" : "+r"(o_));                                                \
        o_;                                                                    \
    })
#else
#define FSH_OPAQUE(x) (x)
#endif

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 fsh_u128;
#define FSH_HAVE_U128 1
#endif

/* High and low halves of the 128-bit product a * b. */
static inline uint64_t fsh_mul128(uint64_t a, uint64_t b, uint64_t *lo)
{
#ifdef FSH_HAVE_U128
    fsh_u128 m = (fsh_u128)a * b;
    *lo = (uint64_t)m;
    return (uint64_t)(m >> 64);
#else
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    *lo = (mid << 32) | (uint32_t)p00;
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

/* ------------------------------------------------------------------------ */
/* rng                                                                      */

enum fsh_src {
    FSH_SRC_CHACHA = 0,  /* buffered ChaCha keystream */
    FSH_SRC_XOSHIRO = 1, /* buffered xoshiro256++ */
    FSH_SRC_WORDS = 2,   /* buffered user word callback */
    FSH_SRC_RANDINT = 3, /* unbuffered user [1, k] callback */
    FSH_SRC_NONE = 4     /* unkeyed (OS keying failed): every draw refused */
};

/* 2 KiB: 32 ChaCha blocks per refill, the AVX-512 kernel's widest pass
   (two 16-block groups in flight). Against 16 blocks it cut a 1000-element
   ChaCha20 shuffle from 1.7 to 1.35 ns per element on Zen 5; the stream is
   the same for any buffer size. */
#define FSH_BUF_WORDS 256

/* Words read ahead from a user word callback (documented in fairshuf.h). */
#define FSH_CB_WORDS 128

struct fsh_rng {
    /* Hot: the word buffer. Words buf[pos..FSH_BUF_WORDS) are unread. */
    uint64_t buf[FSH_BUF_WORDS];
    unsigned pos;
    int src;
    /* ChaCha: key words, block counter (next block), stream id, rounds. */
    uint32_t key[8];
    uint64_t counter;
    uint64_t stream;
    int rounds;
    /* xoshiro256++ state. */
    uint64_t xs[4];
    /* User callbacks. */
    uint64_t (*words_fn)(void *ctx);
    uint64_t (*randint_fn)(void *ctx, uint64_t k);
    void *ctx;
    int err; /* sticky status for the end of the operation: FSH_ECALLBACK
                (a randint callback went out of range) or FSH_ESYSRAND */
    /* Accounting: words produced by all refills, and randint bits. */
    uint64_t words_made;
    uint64_t randint_bits;
    /* Reachability. */
    unsigned entropy_bits;
    int simulation; /* the caller's opt-in; xoshiro is simulation grade anyway */
    size_t max_fair_n;
    /* Fork safety for OS-keyed rngs: a MADV_WIPEONFORK page whose first
       word reads 0 in a child; or the pid as fallback. */
    volatile uint64_t *fork_canary;
    long owner_pid;
    int os_keyed;   /* keyed from the OS: a child rekeys */
    int fork_watch; /* OS-keyed or word callback: check for forks */
    /* Nonzero when every operation must first call fsh_rng_guard: the rng
       watches for forks or is unkeyed. One test per operation, none per
       word: an unkeyed rng also has an empty buffer and src FSH_SRC_NONE,
       so a draw that got past the guard would land in the refill. */
    int guard;
    int sys_errno;   /* unkeyed: errno of the failed OS keying */
    uint64_t key_id; /* process-unique id of this keying (fsh_rng_key_id) */
    fsh_gen gen;
};

/* One xoshiro256++ step (Blackman & Vigna): the word, and the state moved
   on. The buffer refill and the shuffle kernels' inline source share it. */
static inline uint64_t fsh_xoshiro_next(uint64_t *s0, uint64_t *s1,
                                        uint64_t *s2, uint64_t *s3)
{
    uint64_t a = *s0 + *s3, r = ((a << 23) | (a >> 41)) + *s0;
    uint64_t t = *s1 << 17;
    *s2 ^= *s0;
    *s3 ^= *s1;
    *s1 ^= *s2;
    *s0 ^= *s3;
    *s2 ^= t;
    *s3 = (*s3 << 45) | (*s3 >> 19);
    return r;
}

/* Swap the disjoint byte ranges x[0..size) and y[0..size) through a small
   bounce buffer (any size, any alignment). */
FSH_HIDDEN void fsh_swap_bytes(unsigned char *x, unsigned char *y, size_t size);

/* Refill rng->buf from its source and set pos = 0. */
FSH_HIDDEN void fsh_rng_refill(fsh_rng *rng);

/* One ChaCha block (64 bytes) for key/counter/stream; portable reference. */
FSH_HIDDEN void fsh_chacha_block(const uint32_t key[8], uint64_t counter,
                                 uint64_t stream, int rounds,
                                 uint8_t out[64]);

/* nblocks consecutive ChaCha blocks (counters counter, counter + 1, ...
   mod 2^64) as little-endian words, out[8 * nblocks]; runs the fastest
   kernel this CPU supports (see fsh_chacha_impl_pick). */
FSH_HIDDEN void fsh_chacha_blocks(const uint32_t key[8], uint64_t counter,
                                  uint64_t stream, int rounds, uint64_t *out,
                                  size_t nblocks);

/*
 * ChaCha kernels. Each one has the signature of fsh_chacha_blocks and gives
 * byte-identical output; portable is the reference. The SIMD kernels keep
 * one block per vector lane (8 blocks per AVX2 pass, 16 per AVX-512 pass)
 * and transpose at the end; they exist only on x86 with GCC or clang
 * (FSH_CHACHA_X86: x86-64) and may only run where fsh_chacha_impl_available says so.
 */
enum fsh_chacha_impl {
    FSH_CHACHA_PORTABLE = 0,
    FSH_CHACHA_AVX2 = 1,
    FSH_CHACHA_AVX512 = 2,
    FSH_CHACHA_NIMPL = 3
};

typedef void fsh_chacha_fn(const uint32_t key[8], uint64_t counter,
                           uint64_t stream, int rounds, uint64_t *out,
                           size_t nblocks);

#if defined(__x86_64__) && defined(__GNUC__)
#define FSH_CHACHA_X86 1
#else
#define FSH_CHACHA_X86 0
#endif

FSH_HIDDEN fsh_chacha_fn fsh_chacha_blocks_portable;
#if FSH_CHACHA_X86
FSH_HIDDEN fsh_chacha_fn fsh_chacha_blocks_avx2;   /* src/chacha_simd.c */
FSH_HIDDEN fsh_chacha_fn fsh_chacha_blocks_avx512; /* src/chacha_simd.c */
#endif

/* 1 if kernel impl is built in and this CPU (and OS) can run it. */
FSH_HIDDEN int fsh_chacha_impl_available(int impl);

/* The kernel for impl, or NULL if it is not available. */
FSH_HIDDEN fsh_chacha_fn *fsh_chacha_impl_fn(int impl);

/* "portable", "avx2", "avx512"; NULL for an unknown impl. */
FSH_HIDDEN const char *fsh_chacha_impl_name(int impl);

/* The kernel to use when FSH_CHACHA_IMPL is request (may be NULL): the named
   one if available, else the best available (an unknown or unsupported
   name never fails, it only loses the preference). Pure: no state. */
FSH_HIDDEN int fsh_chacha_impl_pick(const char *request);

/* The kernel fsh_chacha_blocks runs: fsh_chacha_impl_pick of the
   environment variable FSH_CHACHA_IMPL, decided once per process. */
FSH_HIDDEN int fsh_chacha_impl_active(void);

/* The throwaway ChaCha generator: key r, an rng on the caller's stack, as
   ChaCha with rounds 8, 12 or 20, key, stream, counter 0; when done,
   fsh_rng_stack_wipe(r) wipes all of it (key and buffered keystream) with
   sodium_memzero, which the compiler cannot drop. */
FSH_HIDDEN void fsh_rng_stack_chacha(fsh_rng *r, int rounds,
                                     const uint8_t key[32], uint64_t stream);
FSH_HIDDEN void fsh_rng_stack_wipe(fsh_rng *r);

/* Next word from a buffered source (not FSH_SRC_RANDINT). */
static inline uint64_t fsh_next_word(fsh_rng *rng)
{
    if (FSH_UNLIKELY(rng->pos >= FSH_BUF_WORDS))
        fsh_rng_refill(rng);
    return rng->buf[rng->pos++];
}

/* Call the randint callback for k >= 1, returning a value in [0, k); on an
   out-of-range answer sets rng->err to FSH_ECALLBACK and returns 0 (a valid index, so
   the caller's array stays a permutation). */
FSH_HIDDEN uint64_t fsh_randint_draw(fsh_rng *rng, uint64_t k);

/* FSH_ECALLBACK (and clear it) if a randint callback misbehaved since the
   last call, else FSH_OK. */
FSH_HIDDEN int fsh_rng_take_error(fsh_rng *rng);

/* The slow half of fsh_rng_ready: in a forked child, rekey an OS-keyed rng
   (FSH_ESYSRAND and unkeyed if the OS fails) or drop a word callback's
   read-ahead, with a new key id either way; an unkeyed rng gives
   FSH_ESYSRAND with errno set to the failed keying's errno. */
FSH_HIDDEN int fsh_rng_guard(fsh_rng *rng);

/* Call at the start of every public operation that takes an rng to draw
   (after its argument checks), before any other check: FSH_OK, or
   FSH_ESYSRAND if the rng is unkeyed. The refill alone would let a child
   replay the words the parent had buffered. */
static inline int fsh_rng_ready(fsh_rng *rng)
{
    return FSH_LIKELY(!rng->guard) ? FSH_OK : fsh_rng_guard(rng);
}

/* FSH_EENTROPY if the rng cannot fairly reach all n! orders, else FSH_OK.
   Operations call it after fsh_rng_ready. */
static inline int fsh_rng_check_fair(const fsh_rng *rng, size_t n)
{
    return n > rng->max_fair_n ? FSH_EENTROPY : FSH_OK;
}

/* FSH_EENTROPY unless the rng reaches every ordered k-tuple of distinct
   items of n = last + 1 (n!/(n-k)! <= 2^bits); last = UINT64_MAX is
   n = 2^64. */
FSH_HIDDEN int fsh_rng_check_ordered_slow(const fsh_rng *rng, uint64_t last,
                                          uint64_t k);
static inline int fsh_rng_check_ordered(const fsh_rng *rng, uint64_t last,
                                        uint64_t k)
{
    if (FSH_LIKELY(rng->max_fair_n == SIZE_MAX)) /* 256 bits or simulation */
        return FSH_OK;
    return fsh_rng_check_ordered_slow(rng, last, k);
}

/* FSH_EENTROPY unless the rng reaches every k-subset of n = last + 1
   items (C(n, k) <= 2^bits); k <= n. */
FSH_HIDDEN int fsh_rng_check_subset(const fsh_rng *rng, uint64_t last,
                                    uint64_t k);

/* ------------------------------------------------------------------------ */
/* uniform                                                                  */

/*
 * Lemire's nearly-divisionless bounded integer ("Fast Random Integer
 * Generation in an Interval", ACM TOMACS 2019), written once as a macro so the
 * exhaustive tests can instantiate the very same code at 8 and 16 bits.
 * Multiply a uniform word x by s: the high half is the result. The low half
 * l identifies x's position inside its output's bucket; rejecting l < 2^W mod s
 * leaves exactly floor(2^W / s) accepted words per output. The division is
 * only needed when l < s, with probability s / 2^W.
 */
#define FSH_DEFINE_LEMIRE(name, word_t, dword_t, BITS, state_t, NEXT)         \
    static inline word_t name(state_t st, word_t s)                           \
    {                                                                          \
        dword_t m = (dword_t)((dword_t)NEXT(st) * (dword_t)s);                 \
        word_t l = (word_t)m;                                                  \
        if (FSH_UNLIKELY(l < s)) {                                             \
            /* Reject the 2^W mod s lowest products so every output has the   \
               same number of preimages. */                                    \
            word_t t = (word_t)((word_t)(0u - s) % s);                         \
            while (l < t) {                                                    \
                m = (dword_t)((dword_t)NEXT(st) * (dword_t)s);                 \
                l = (word_t)m;                                                 \
            }                                                                  \
        }                                                                      \
        return (word_t)(m >> BITS);                                            \
    }

#ifdef FSH_HAVE_U128
FSH_DEFINE_LEMIRE(fsh_lemire_words, uint64_t, fsh_u128, 64, fsh_rng *,
                  fsh_next_word)
#else
/* Same algorithm via fsh_mul128 when the compiler has no 128-bit type. */
static inline uint64_t fsh_lemire_words(fsh_rng *rng, uint64_t s)
{
    uint64_t l, hi = fsh_mul128(fsh_next_word(rng), s, &l);
    if (FSH_UNLIKELY(l < s)) {
        uint64_t t = (0u - s) % s;
        while (l < t)
            hi = fsh_mul128(fsh_next_word(rng), s, &l);
    }
    return hi;
}
#endif

/*
 * Batched dice (Brackett-Rozinsky & Lemire, "Batched Ranged Random Integer
 * Generation", SPE 2024): k indices from one word, idx[d] uniform in
 * [0, b - d), for bounds b, b-1, ..., b-k+1 whose product P fits in a word.
 * Multiplying r by each bound in turn and keeping the low half reads the
 * mixed-radix digits of floor(r * P / 2^W), and the final low half equals
 * r * P mod 2^W, so this is Lemire's method on the range P: rejecting a final
 * low half below 2^W mod P makes every index tuple equally likely. `cheap`
 * must be >= P (so >= 2^W mod P); the exact P is only computed, with one
 * division, when the low half falls below it. Returns the exact P when it was
 * computed (a valid, tighter cheap bound for later batches with smaller
 * bounds), else cheap.
 */
#define FSH_DEFINE_BATCH(name, word_t, dword_t, BITS, state_t, NEXT)          \
    static inline word_t name(state_t st, word_t b, unsigned k, word_t cheap,  \
                              word_t *idx)                                     \
    {                                                                          \
        word_t r = NEXT(st);                                                   \
        for (unsigned d = 0; d < k; d++) {                                     \
            word_t bd_ = FSH_OPAQUE((word_t)(b - d));                          \
            dword_t m = (dword_t)((dword_t)r * (dword_t)bd_);                  \
            idx[d] = (word_t)(m >> BITS);                                      \
            r = (word_t)m;                                                     \
        }                                                                      \
        if (FSH_UNLIKELY(r < cheap)) {                                         \
            word_t p = b;                                                      \
            for (unsigned d = 1; d < k; d++)                                   \
                p = (word_t)(p * (word_t)(b - d));                             \
            word_t t = (word_t)((word_t)(0u - p) % p);                         \
            while (r < t) {                                                    \
                r = NEXT(st);                                                  \
                for (unsigned d = 0; d < k; d++) {                             \
                    dword_t m =                                                \
                        (dword_t)((dword_t)r * (dword_t)(word_t)(b - d));      \
                    idx[d] = (word_t)(m >> BITS);                              \
                    r = (word_t)m;                                             \
                }                                                              \
            }                                                                  \
            return p;                                                          \
        }                                                                      \
        return cheap;                                                          \
    }

#ifdef FSH_HAVE_U128
FSH_DEFINE_BATCH(fsh_batch_words, uint64_t, fsh_u128, 64, fsh_rng *,
                 fsh_next_word)
#endif

/* Largest product of a batch of dice built greedily (fsh_batch_plan): a
   rejection then costs at most 1/16 of a word. */
#define FSH_BATCH_CAP ((uint64_t)1 << 60)

/* fsh_batch_plan without the table: the number k of dice b, b-1, ... (each >= 2) whose product stays <= cap, and
   that product in *prod; 0 when b < 2. Exception: when all the remaining
   dice b, ..., 2 fit under 2^62 (b <= 20: 20! < 2^61.1) they form one batch,
   so any permutation of up to 20 elements comes from one word (rejected
   with probability below 1/4, 7.7% for b = 20). */
static inline unsigned fsh_batch_plan_compute(uint64_t b, uint64_t cap, uint64_t *prod)
{
    uint64_t p = 1, q;
    unsigned k = 0;
    if (b <= 20) {
        for (uint64_t d = b; d >= 2; d--)
            p *= d;
        *prod = p;
        return b >= 2 ? (unsigned)(b - 1) : 0;
    }
    while (b - k >= 2 && !__builtin_mul_overflow(p, b - k, &q) && q <= cap) {
        p = q;
        k++;
    }
    *prod = p;
    return k;
}

/* Below this bound the shuffle kernels switch from fixed-size batches to
   fsh_batch_plan, as the deck does: a deck dealt to the end and a shuffle of
   the same n <= 64 then use the same dice (a 52-card order from 4 words). */
#define FSH_GREEDY_TAIL 64

typedef struct fsh_plan {
    unsigned k;    /* dice in the batch */
    uint64_t prod; /* their product */
} fsh_plan;

/* The greedy plans for cap FSH_BATCH_CAP, b <= FSH_GREEDY_TAIL (uniform.c). */
FSH_HIDDEN extern const fsh_plan fsh_greedy_plan[FSH_GREEDY_TAIL + 1];

/* Number k of dice b, b-1, ... whose product stays <= cap, and the product
   in *prod (see fsh_batch_plan_compute); a table lookup for the cap every
   kernel uses. */
static inline unsigned fsh_batch_plan(uint64_t b, uint64_t cap, uint64_t *prod)
{
    if (cap == FSH_BATCH_CAP && b <= FSH_GREEDY_TAIL) {
        *prod = fsh_greedy_plan[b].prod;
        return fsh_greedy_plan[b].k;
    }
    return fsh_batch_plan_compute(b, cap, prod);
}

/* Uniform in [0, s), s >= 1, from any source. */
static inline uint64_t fsh_uniform_fast(fsh_rng *rng, uint64_t s)
{
    if (FSH_UNLIKELY(rng->src == FSH_SRC_RANDINT))
        return fsh_randint_draw(rng, s);
    return fsh_lemire_words(rng, s);
}

/* Smallest n where log2(n!) > bits, minus 1: the largest fair n. */
FSH_HIDDEN size_t fsh_max_fair_n_for_bits(unsigned bits);

/* ------------------------------------------------------------------------ */
/* Task runner (src/tasks.c)                                                */

/* The one thread cap of the library. */
#define FSH_MAX_THREADS 256

/* A running thread's view: stride = threads running (its likely next task
   is the current one + stride), expect = scratch for the task function
   (SIZE_MAX at the start of each thread). */
typedef struct fsh_worker {
    unsigned stride;
    size_t expect;
} fsh_worker;

/* A named kind of task: run(ctx, i, w) for each i in [0, count). */
typedef struct fsh_tasks {
    const char *name;
    void (*run)(void *ctx, size_t i, fsh_worker *w);
    size_t count;
} fsh_tasks;

/* threads, or all online cores for 0, capped at FSH_MAX_THREADS. */
FSH_HIDDEN unsigned fsh_threads_resolve(unsigned threads);

/* Run every task of t on up to threads threads (0: all cores); returns when
   all are done. */
FSH_HIDDEN void fsh_tasks_run(const fsh_tasks *t, void *ctx, unsigned threads);

/* ------------------------------------------------------------------------ */
/* Large arrays (src/scatter.c)                                             */

/* fsh_shuffle hands arrays of more than FSH_PREFETCH_MIN_BYTES to
   fsh_shuffle_large: up to FSH_SCATTER_MIN_BYTES it runs the prefetching
   Fisher-Yates (same output as the plain kernel), above it the scatter
   shuffle. Measured on Zen 5 (docs/DESIGN.md). */
#define FSH_PREFETCH_MIN_BYTES ((size_t)12 << 20)
#define FSH_SCATTER_MIN_BYTES ((size_t)24 << 20)

/* The plain in-cache Fisher-Yates for any element size (src/shuffle.c). */
FSH_HIDDEN void fsh_fy_kernel(fsh_rng *rng, unsigned char *a, size_t n,
                              size_t size);

/* fsh_fy_kernel (the same permutation) that also prefetches the
   ahead_bytes at ahead, spread over the shuffle: the scatter shuffle's
   buckets pull in the next bucket. Element sizes other than 4, 8, 16: no
   prefetching. */
FSH_HIDDEN void fsh_fy_kernel_ahead(fsh_rng *rng, unsigned char *a, size_t n,
                                   size_t size, const unsigned char *ahead,
                                   size_t ahead_bytes);

/* The prefetching Fisher-Yates: same draws and swaps as fsh_fy_kernel.
   Returns 0 (and does nothing) where it has no kernel: randint sources,
   element sizes other than 4, 8, 16, no 128-bit multiply. */
FSH_HIDDEN int fsh_fy_prefetch(fsh_rng *rng, unsigned char *a, size_t n,
                               size_t size);

/* Shuffle n > FSH_PREFETCH_MIN_BYTES / size elements with a buffered rng
   (not randint) on up to threads threads; output independent of threads.
   FSH_ENOMEM if the stash copy cannot be allocated (a[] is then still a
   permutation of its input). */
FSH_HIDDEN int fsh_shuffle_large(fsh_rng *rng, unsigned char *a, size_t n,
                                 size_t size, unsigned threads);

/* Test hook: the scatter kernel with fixed parameters. */
typedef struct fsh_scatter_params {
    unsigned k;       /* buckets per level, 2..512 */
    unsigned stripes; /* stripes of the top level, 1..8 */
    size_t base;      /* buckets of at most base elements: Fisher-Yates */
    unsigned threads; /* keyed only; 0 = 1 */
    int keyed;  /* 1: task streams keyed from rng, as fsh_shuffle does;
                   0: every draw from rng itself, in order (randint ok) */
    int broken; /* known-bad variant: skip the multinomial fix-up */
} fsh_scatter_params;

FSH_HIDDEN int fsh_scatter_hook(fsh_rng *rng, unsigned char *a, size_t n,
                                size_t size, const fsh_scatter_params *p);

#endif /* FSH_INTERNAL_H */
