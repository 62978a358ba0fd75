/* SPDX-License-Identifier: MIT */
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
    /* Nonzero while one of those callbacks runs (cb_enter in rng.c, with
       guard set meanwhile): a call it makes back into the library that
       would draw from this rng or change it is refused, FSH_EINVAL
       (fsh_rng_guard and every keying or setting function), instead of
       re-keying under the running call (a crash: the callback it was
       calling is gone) or serving the running call the words the inner
       draw was given. */
    int in_cb;
    int err; /* sticky status for the end of the operation: FSH_ECALLBACK
                (a randint callback went out of range) or FSH_ESYSRAND */
    /* Accounting: words produced by all refills, and randint bits. */
    uint64_t words_made;
    uint64_t randint_bits;
    /* ChaCha blocks whose keystream was begun ahead, in slices, from this
       rng's key (chacha_simd.h's AHEAD_STEP), installed or not. Zeroed
       with the rest by keying and by a failed keying, so after a forked
       child's failed rekey it counts what was computed since: nothing. */
    uint64_t ahead_blocks;
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
    /* Reachability beyond the key (reach.c). Kept across re-keying, like
       simulation. Stored XOR their defaults, so a zeroed rng (calloc, the
       stack generators) has the default policy. */
    unsigned reach_x;  /* fsh_rng_set_reach flags ^ FSH_REACH_DEFAULT */
    uint64_t hw_cap_x; /* hardware bits per operation ^ FSH_HW_CAP_DEFAULT */
    int direct;        /* fsh_rng_set_direct: no derived streams */
    unsigned stream_v; /* fsh_rng_set_stream_version: 0 (by keying), 1-3 */
    /* Entropy drawn over the rng's life (fsh_rng_entropy_drawn). */
    uint64_t os_bits;
    uint64_t hw_bits;
    /* Algorithm R streams (fsh_rng_reach_subset): hardware reseeds made
       for the current stream, and the item index below which the next one
       surely is not due. Reset at each stream's first draw and by keying. */
    uint64_t res_reseeds;
    uint64_t res_next;
    uint64_t res_k; /* the stream's k (another k: another stream) */
    int res_keybound; /* the stream runs bound by the key (KEYBOUND_*) */
};

static inline unsigned fsh_rng_reach_flags(const fsh_rng *rng)
{
    return rng->reach_x ^ FSH_REACH_DEFAULT;
}

static inline uint64_t fsh_rng_hw_cap(const fsh_rng *rng)
{
    return rng->hw_cap_x ^ FSH_HW_CAP_DEFAULT;
}

/* The stream version the rng's shuffles follow (fsh_rng_stream_version):
   the pinned one, else the newest for an OS-keyed rng and 1 for others. */
static inline unsigned fsh_rng_stream_v(const fsh_rng *rng)
{
    return rng->stream_v   ? rng->stream_v
           : rng->os_keyed ? FSH_STREAM_LATEST
                           : FSH_STREAM_V1;
}

/* The OS-keyed ChaCha generators: the only ones that mix hardware entropy
   into operations beyond their 256-bit key (a seeded or raw-keyed one is
   reproducible and refuses instead; xoshiro and callbacks never need it). */
static inline int fsh_rng_mixable(const fsh_rng *rng)
{
    return rng->os_keyed && rng->src == FSH_SRC_CHACHA;
}

/* An ordered operation's draws, cut into groups (the backward or forward
   Fisher-Yates steps, ranges r_1, r_2, ... in draw order): a group takes
   steps while the product of its ranges is at most 2^256, so every joint
   outcome of a group is reachable from one 256-bit key. acc is the
   current group's product (320 bits, little-endian). */
typedef struct fsh_reach_acc {
    uint64_t l[5];
} fsh_reach_acc;

/* acc = 1. */
FSH_HIDDEN void fsh_reach_acc_init(fsh_reach_acc *acc);

/* If acc * (m1 + 1) <= 2^256 (m1 = UINT64_MAX: the range 2^64), acc *= it
   and 1; else acc unchanged and 0 (the step opens a new group). */
FSH_HIDDEN int fsh_reach_acc_take(fsh_reach_acc *acc, uint64_t m1);

/* Groups of the k draws with ranges last + 1, last, ..., last + 2 - k; at
   most max + 1 (the count stops there). */
FSH_HIDDEN uint64_t fsh_reach_groups(uint64_t last, uint64_t k, uint64_t max);

/* What an ordered operation of k draws over last + 1 items (a shuffle of n:
   last = n - 1, k = n - 1) needs from rng: FSH_OK with *groups = 1 (run
   it as is) or G > 1 (mix: G - 1 reseeds of 256 hardware bits, one at
   each group boundary), or the refusal: FSH_EENTROPY or FSH_ENOHWRAND.
   Call after fsh_rng_ready. */
FSH_HIDDEN int fsh_rng_plan_ordered(const fsh_rng *rng, uint64_t last,
                                    uint64_t k, uint64_t *groups);

/* A one-shot mixed operation (shuffle, fsh_sample_range): the hardware
   words for every reseed are drawn before anything is changed
   (fsh_mix_prepare), or a piece at a time as the reseeds reach them
   (fsh_mix_prepare_pieces) by an operation that can put back what it
   changed when a later piece cannot be had. */
typedef struct fsh_mix {
    fsh_reach_acc acc;
    uint64_t groups; /* 1: plain, nothing to do per step */
    uint64_t *hw;    /* 4 words per reseed still to come */
    uint64_t *heap;
    size_t nwords;   /* hardware words held (wiped by fsh_mix_done) */
    int track;       /* incremental: keep the object's group state */
    /* Drawn in pieces (fsh_rng_reach_begin_pieces): words still to draw
       after those held, and the status of a piece the source failed. */
    uint64_t left;
    int failed;
    uint64_t stack[256];
} fsh_mix;

/* Prepare m for groups (from fsh_rng_plan_ordered): draw 256 hardware
   bits per reseed. FSH_OK; FSH_ENOMEM; FSH_ENOHWRAND if the source failed
   (unless the rng accepts the key bound: then m runs plain). */
FSH_HIDDEN int fsh_mix_prepare(fsh_rng *rng, fsh_mix *m, uint64_t groups);

/* fsh_mix_prepare, the same hardware words in the same order, drawn a
   piece (m->stack, 64 reseeds, 2 KiB) at a time: the first now, the
   others by fsh_mix_step as the reseeds reach them; no allocation. A
   piece after the first that the source fails to fill sets m->failed to
   its status and stops the reseeds (m->groups = 1): the caller then puts
   back what the draws changed, the rng included, and has what a failure
   of all the words drawn first gave (fsh_mix_refused). */
FSH_HIDDEN int fsh_mix_prepare_pieces(fsh_rng *rng, fsh_mix *m,
                                      uint64_t groups);

/* The next piece of m's hardware words (the used ones wiped): 1, or 0
   with m->failed set and no more reseeds when the source failed. */
FSH_HIDDEN int fsh_mix_refill(fsh_mix *m);

/* After a failed piece (status rc) and the draws put back: FSH_OK (make
   them again, unmixed, bounded by the key) when the policy accepts that,
   as a failure of the first piece does, else rc. */
FSH_HIDDEN int fsh_mix_refused(const fsh_rng *rng, int rc);

/* Before the draw of range m1 + 1: at a group boundary reseed rng (from
   the next piece first, if m's are drawn in pieces and used up). */
static inline void fsh_mix_step(fsh_rng *rng, fsh_mix *m, uint64_t m1);

/* Wipe and free m's hardware words. */
FSH_HIDDEN void fsh_mix_done(fsh_mix *m);

/* Reseed rng (an OS-keyed ChaCha) in place for a new group: key =
   SHA-256("fairshuf/reach/v1" || 0x00 || 32 bytes of its stream || 32
   bytes hw), stream 0, counter 0; the unread buffer is dropped and the
   key id changes (objects drop draws cached from the old key). */
FSH_HIDDEN void fsh_rng_reseed(fsh_rng *rng, const uint64_t hw[4]);

static inline void fsh_mix_step(fsh_rng *rng, fsh_mix *m, uint64_t m1)
{
    if (m->groups > 1 && !fsh_reach_acc_take(&m->acc, m1)) {
        if (m->left > 0 && m->hw == m->stack + m->nwords && !fsh_mix_refill(m))
            return;
        fsh_rng_reseed(rng, m->hw);
        m->hw += 4;
        fsh_reach_acc_init(&m->acc);
        (void)fsh_reach_acc_take(&m->acc, m1);
    }
}

/* Incremental ordered operations (fsh_rangeperm_next; the deck): the
   object keeps this state, reset with fsh_reach_state_init when its
   prefix restarts. */
typedef struct fsh_reach_state {
    fsh_reach_acc acc; /* the current group's product */
    uint64_t reseeds;  /* hardware reseeds in this prefix */
    int keybound;      /* key bound accepted: KEYBOUND_NO_HW (no hardware,
                          or its source failed) or KEYBOUND_OVER (beyond
                          the cap); each later batch asks the rng's
                          policy again (reach.c) */
} fsh_reach_state;

enum { KEYBOUND_NO_HW = 1, KEYBOUND_OVER = 2 };

FSH_HIDDEN void fsh_reach_state_init(fsh_reach_state *st);

/* Before draws k0 + 1 .. k0 + k of an incremental ordered operation over
   last + 1 items (draw i has the range last + 2 - i), whose state since
   its prefix began is st: the reachability check of the prefix of k0 + k
   draws (the seed's bound, or the mixing rng's policy), and for a mixing
   rng the hardware words of every group boundary among these k draws,
   drawn now into m. FSH_OK: make the k draws, calling fsh_rng_reach_next
   before each, then fsh_mix_done(m). Else FSH_EENTROPY, FSH_ENOHWRAND or
   FSH_ENOMEM: nothing drawn, st unchanged, m needs no fsh_mix_done. Call
   after fsh_rng_ready. */
FSH_HIDDEN int fsh_rng_reach_begin(fsh_rng *rng, fsh_reach_state *st,
                                   fsh_mix *m, uint64_t last, uint64_t k0,
                                   uint64_t k);

/* fsh_rng_reach_begin in two parts: the check, which draws nothing and
   changes nothing, and the start, which draws the hardware words the check
   planned (it can still fail: FSH_ENOHWRAND, FSH_ENOMEM) and records in st
   what the plan says. A caller that must make something between them
   (fsh_rangeperm_next_n: its storage) knows every refusal that needs no
   draw before it makes it, and can drop it if the start fails. */
enum {
    REACH_PLAIN = 0,          /* nothing to track: draw as is */
    REACH_TRACK = 1,          /* no boundary among the draws: track them */
    REACH_MIX = 2,            /* draw the words of groups - 1 reseeds */
    REACH_KEYBOUND_NO_HW = 3, /* run bounded by the key from here */
    REACH_KEYBOUND_OVER = 4
};
typedef struct fsh_reach_plan {
    int action;
    uint64_t groups; /* REACH_MIX: the groups among the draws */
} fsh_reach_plan;

/* The check of fsh_rng_reach_begin (same arguments): FSH_OK and *plan, or
   FSH_EENTROPY / FSH_ENOHWRAND; draws nothing, changes nothing. */
FSH_HIDDEN int fsh_rng_reach_check(const fsh_rng *rng,
                                   const fsh_reach_state *st, uint64_t last,
                                   uint64_t k0, uint64_t k,
                                   fsh_reach_plan *plan);

/* The start of fsh_rng_reach_begin (pieces: of _begin_pieces) with the
   plan of fsh_rng_reach_check, made with st as it is now: its results
   and obligations (FSH_ENOHWRAND or FSH_ENOMEM: nothing drawn, st
   unchanged, m needs no fsh_mix_done). */
FSH_HIDDEN int fsh_rng_reach_start(fsh_rng *rng, fsh_reach_state *st,
                                   fsh_mix *m, const fsh_reach_plan *plan,
                                   int pieces);

/* fsh_rng_reach_begin, the same checks and the same hardware words in
   the same order, but drawn a piece (m->stack, 64 reseeds) at a time as
   the draws reach them, not all first: at most 2 KiB held, however many
   reseeds, and no allocation. A piece after the first that the source
   fails to fill sets m->failed to its status and stops the reseeds: the
   caller then puts the draws made back as they were when this began (the
   rng, the object, st) and calls fsh_rng_reach_refused, to have what a
   failure of the whole draw would have given. */
FSH_HIDDEN int fsh_rng_reach_begin_pieces(fsh_rng *rng, fsh_reach_state *st,
                                          fsh_mix *m, uint64_t last,
                                          uint64_t k0, uint64_t k);

/* After a failed piece (status rc) and the draws put back: as a failure
   of the first piece, FSH_OK with st bounded by the key from here (make
   the draws again, unmixed) when the policy accepts it, else rc. */
FSH_HIDDEN int fsh_rng_reach_refused(const fsh_rng *rng, fsh_reach_state *st,
                                     int rc);

/* Before the draw of range m1 + 1 begun by fsh_rng_reach_begin: 1 if it
   opened a new group and rng was reseeded from hardware (the caller drops
   any draws it made ahead from the old key: they are also stale by key
   id), else 0. */
FSH_HIDDEN int fsh_rng_reach_next(fsh_rng *rng, fsh_reach_state *st,
                                  fsh_mix *m, uint64_t m1);

/* A process-unique id for a new keying (or reseed) of an rng. */
FSH_HIDDEN uint64_t fsh_rng_new_key_id(void);

/* Refill rng->buf from its source and set pos = 0. */
FSH_HIDDEN void fsh_rng_refill(fsh_rng *rng);

/* The refill fsh_rng_refill would make of a ChaCha rng, from its
   FSH_BUF_WORDS / 8 blocks made elsewhere (from rng's key, counter and
   stream: chacha_simd.h's AHEAD_* make them in slices). A guarded rng
   used in a forked child is refilled by fsh_rng_refill instead, which
   rekeys it first. */
FSH_HIDDEN void fsh_rng_refill_made(fsh_rng *rng, const uint64_t *words);

/* Refills made ahead (chacha_simd.h's AHEAD_*) that were stale and
   dropped: counted, for the tests that must reach that path. */
FSH_HIDDEN void fsh_rng_ahead_stale_count(void);
FSH_HIDDEN unsigned long fsh_rng_ahead_stale(void);

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
   FSH_ESYSRAND with errno set to the failed keying's errno; a call from
   inside the rng's own callback, FSH_EINVAL. */
FSH_HIDDEN int fsh_rng_guard(fsh_rng *rng);

/* fsh_rng_forked_during's slow half. */
FSH_HIDDEN int fsh_rng_fork_check(fsh_rng *rng);

/* At the end of a shuffle, whose randomness may come from words or keys
   drawn before a fork that happened during the call (from a signal
   handler; the child returned into it): streams keyed from the rng at the
   start, the xoshiro kernel's registers, the last buffered words. FSH_OK
   if no fork is pending; 1 if there was one and the rng has now been
   rekeyed (the caller shuffles again from the child's key); FSH_ESYSRAND
   if that rekey failed. One load when no fork is watched for. */
static inline int fsh_rng_forked_during(fsh_rng *rng)
{
    if (FSH_LIKELY(!rng->guard))
        return FSH_OK;
    return fsh_rng_fork_check(rng);
}

/* Call at the start of every public operation that takes an rng to draw
   (after its argument checks), before any other check: FSH_OK, or
   FSH_ESYSRAND if the rng is unkeyed, or FSH_EINVAL from inside one of its
   callbacks (in_cb). The refill alone would let a child
   replay the words the parent had buffered. */
static inline int fsh_rng_ready(fsh_rng *rng)
{
    return FSH_LIKELY(!rng->guard) ? FSH_OK : fsh_rng_guard(rng);
}

/* rng->max_fair_n is the largest shuffle accepted without looking further
   (the seed's bound; 57 for a mixing rng, which then consults its policy:
   fsh_rng_plan_ordered; SIZE_MAX for simulation grade). */

/* FSH_EENTROPY unless the rng reaches every ordered k-tuple of distinct
   items of n = last + 1 (n!/(n-k)! <= 2^bits); last = UINT64_MAX is
   n = 2^64. */
FSH_HIDDEN int fsh_rng_check_ordered_slow(const fsh_rng *rng, uint64_t last,
                                          uint64_t k);
static inline int fsh_rng_check_ordered(const fsh_rng *rng, uint64_t last,
                                        uint64_t k)
{
    if (FSH_LIKELY(rng->max_fair_n == SIZE_MAX)) /* simulation grade */
        return FSH_OK;
    return fsh_rng_check_ordered_slow(rng, last, k);
}

/* FSH_EENTROPY unless the rng reaches every k-subset of n = last + 1
   items (C(n, k) <= 2^bits); k <= n. */
FSH_HIDDEN int fsh_rng_check_subset(const fsh_rng *rng, uint64_t last,
                                    uint64_t k);

/* Before Algorithm R's draw for item last (0-based; the stream's first
   draw is last = k): the kept set is a k-subset of last + 1 items. A
   seeded rng: fsh_rng_check_subset. A mixing rng: reseed it from hardware
   (fsh_rng_reseed) whenever log2 C(last + 1, k) passes 256 bits more than
   its stream (the calls since one with last = k, or with another k) has
   had, within its cap and policy; FSH_ENOHWRAND or
   FSH_EENTROPY as for the ordered operations when that cannot be done. */
FSH_HIDDEN int fsh_rng_reach_subset(fsh_rng *rng, uint64_t last, uint64_t k);

/* The seed rule: out = SHA-256("fairshuf/seed/v1" || 0x00 || seed). */
FSH_HIDDEN int fsh_seed_digest(const void *seed, size_t len, uint8_t out[32]);

#endif /* FSH_RNG_H */
