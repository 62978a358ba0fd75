/* The rng object (struct fsh_rng) and what the layers above use of it: the
   word buffer, the randint source, the per-call guard and the
   reachability checks. */
#ifndef FSH_RNG_H
#define FSH_RNG_H

#include "common/common.h"

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

/* Refill rng->buf from its source and set pos = 0. */
FSH_HIDDEN void fsh_rng_refill(fsh_rng *rng);

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

/* The seed rule: out = SHA-256("fairshuf/seed/v1" || 0x00 || seed). */
FSH_HIDDEN int fsh_seed_digest(const void *seed, size_t len, uint8_t out[32]);

#endif /* FSH_RNG_H */
