/* SPDX-License-Identifier: MIT */
/* The rng object: keying (OS, seed, raw key, callbacks), fork safety, the
   guard, the word buffer and its refill, words and bytes. */
#include "rng/rng.h"

#include "common/wide.h"
#include "rng/chacha.h"
#include "rng/xoshiro.h"

#include <errno.h>
#include <sodium.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* ------------------------------------------------------------------------ */
/* The rng object                                                           */

static int rekey_from_os(fsh_rng *rng);

/* Eight byte draws, little-endian. The callback is not called again once
   it has failed (rng->err set): a caller's device or counter sees no draw
   after the one that failed, and the word is not used. */
static uint64_t randint_word(fsh_rng *rng)
{
    uint64_t w = 0;
    for (int b = 0; b < 8 && rng->err == FSH_OK; b++)
        w |= fsh_randint_draw(rng, 256) << (8 * b);
    return w;
}

static int forked(const fsh_rng *rng)
{
    if (!rng->fork_watch)
        return 0;
    if (rng->fork_canary != NULL)
        return *rng->fork_canary == 0;
    return (long)getpid() != rng->owner_pid;
}

/* The one piece of process-wide state: a counter that gives every keying
   a distinct id, so objects that cache draws (the deck's pending dice) can
   tell whether they came from the rng's current keying. It never affects
   which values are drawn, only whether a cache is still valid. */
static atomic_uint_fast64_t key_ids;

uint64_t fsh_rng_new_key_id(void)
{
    return (uint64_t)atomic_fetch_add_explicit(&key_ids, 1,
                                               memory_order_relaxed) + 1;
}

static void set_entropy(fsh_rng *rng, unsigned bits);
static void reset(fsh_rng *rng);

/* Leave rng unkeyed after the OS keying failed with errno e: no key, no
   buffered words, every operation refused with FSH_ESYSRAND (errno e)
   until it is keyed again. */
static void make_unkeyed(fsh_rng *rng, int e)
{
    reset(rng);
    rng->src = FSH_SRC_NONE;
    rng->sys_errno = e;
    rng->guard = 1;
    set_entropy(rng, 0);
    errno = e;
}

/* The rng is being used in a forked child: nothing the parent had drawn or
   buffered may be handed out here. */
static int handle_fork(fsh_rng *rng)
{
    if (rng->os_keyed) {
        int rc = rekey_from_os(rng);
        if (rc != FSH_OK) {
            /* No entropy in the child: refuse rather than derive a stream
               from what the parent knows. */
            int e = errno;
            volatile uint64_t *canary = rng->fork_canary;
            make_unkeyed(rng, e);
            rng->fork_canary = canary;
            return rc;
        }
    } else {
        /* Word callback: the read-ahead came from the parent. */
        sodium_memzero(rng->buf, sizeof rng->buf);
        rng->pos = FSH_BUF_WORDS;
        if (rng->fork_canary != NULL)
            *rng->fork_canary = 1;
        rng->owner_pid = (long)getpid();
    }
    rng->key_id = fsh_rng_new_key_id();
    return FSH_OK;
}

int fsh_rng_guard(fsh_rng *rng)
{
    if (rng->in_cb)
        return FSH_EINVAL;
    if (forked(rng)) {
        int rc = handle_fork(rng);
        if (rc != FSH_OK)
            return rc;
    }
    if (FSH_UNLIKELY(rng->src == FSH_SRC_NONE)) {
        errno = rng->sys_errno;
        return FSH_ESYSRAND;
    }
    return FSH_OK;
}

int fsh_rng_fork_check(fsh_rng *rng)
{
    if (!forked(rng))
        return FSH_OK;
    int rc = fsh_rng_guard(rng);
    return rc != FSH_OK ? rc : 1;
}

/* Mark rng busy while the caller's callback runs (in_cb): guard set, so
   every operation's fsh_rng_ready reaches fsh_rng_guard, which refuses it,
   and the keying and setting functions check in_cb. Returns the guard to
   put back. */
static int cb_enter(fsh_rng *rng)
{
    int guard = rng->guard;
    rng->guard = 1;
    rng->in_cb = 1;
    return guard;
}

static void cb_leave(fsh_rng *rng, int guard)
{
    rng->in_cb = 0;
    rng->guard = guard;
}

void fsh_rng_refill(fsh_rng *rng)
{
    if (rng->guard && forked(rng))
        (void)handle_fork(rng); /* unkeyed on failure: see below */
    switch (rng->src) {
    case FSH_SRC_CHACHA:
        fsh_chacha_blocks(rng->key, rng->counter, rng->stream, rng->rounds,
                          rng->buf, FSH_BUF_WORDS / 8);
        rng->counter += FSH_BUF_WORDS / 8;
        break;
    case FSH_SRC_XOSHIRO:
        fsh_xoshiro_fill(rng->xs, rng->buf, FSH_BUF_WORDS);
        break;
    case FSH_SRC_WORDS: {
        /* Read ahead only FSH_CB_WORDS, as fairshuf.h promises: fill the
           tail of the buffer. */
        int guard = cb_enter(rng);
        for (unsigned i = FSH_BUF_WORDS - FSH_CB_WORDS; i < FSH_BUF_WORDS; i++)
            rng->buf[i] = rng->words_fn(rng->ctx);
        cb_leave(rng, guard);
        rng->words_made += FSH_CB_WORDS;
        rng->pos = FSH_BUF_WORDS - FSH_CB_WORDS;
        return;
    }
    case FSH_SRC_NONE:
        /* Unreachable through the public API (fsh_rng_ready refuses
           first); if a draw gets here anyway, it fails the operation and
           is served one all-ones word at a time, which every rejection
           loop accepts, so the operation still ends. */
        rng->err = FSH_ESYSRAND;
        rng->buf[FSH_BUF_WORDS - 1] = UINT64_MAX;
        rng->words_made += 1;
        rng->pos = FSH_BUF_WORDS - 1;
        return;
    default: /* FSH_SRC_RANDINT never buffers: see word_any() */
        for (unsigned i = 0; i < FSH_BUF_WORDS; i++)
            rng->buf[i] = randint_word(rng);
        break;
    }
    rng->words_made += FSH_BUF_WORDS;
    rng->pos = 0;
}

void fsh_rng_refill_made(fsh_rng *rng, const uint64_t *words)
{
    if (rng->guard && forked(rng)) {
        /* fsh_rng_refill rekeys first: the words made are the parent's. */
        fsh_rng_refill(rng);
        return;
    }
    if (FSH_UNLIKELY(rng->src != FSH_SRC_CHACHA)) {
        /* Unkeyed since the words were begun (a forked child's rekey
           failed; AHEAD_REFILL itself refills plainly then): they are not
           this rng's, so the unkeyed path's all-ones word is served
           instead. */
        fsh_rng_refill(rng);
        return;
    }
    memcpy(rng->buf, words, sizeof rng->buf);
    rng->counter += FSH_BUF_WORDS / 8;
    rng->words_made += FSH_BUF_WORDS;
    rng->pos = 0;
}

static atomic_ulong ahead_stale;

void fsh_rng_ahead_stale_count(void)
{
    atomic_fetch_add_explicit(&ahead_stale, 1, memory_order_relaxed);
}

unsigned long fsh_rng_ahead_stale(void)
{
    return atomic_load_explicit(&ahead_stale, memory_order_relaxed);
}

uint64_t fsh_randint_draw(fsh_rng *rng, uint64_t k)
{
    int guard = cb_enter(rng);
    uint64_t r = rng->randint_fn(rng->ctx, k);
    cb_leave(rng, guard);
    if (FSH_UNLIKELY(r < 1 || r > k)) {
        rng->err = FSH_ECALLBACK;
        return 0;
    }
    /* Credit ceil(log2 k) bits. */
    rng->randint_bits += k > 1 ? (uint64_t)(64 - __builtin_clzll(k - 1)) : 0;
    return r - 1;
}

int fsh_rng_check_ordered_slow(const fsh_rng *rng, uint64_t last,
                               uint64_t k)
{
    /* The seed's bound, or for a mixing rng its policy (an incremental
       caller mixes through fsh_rng_reach_begin). */
    uint64_t groups;
    return fsh_rng_plan_ordered(rng, last, k, &groups);
}

int fsh_rng_check_subset(const fsh_rng *rng, uint64_t last, uint64_t k)
{
    if (rng->max_fair_n == SIZE_MAX || k == 0)
        return FSH_OK;
    if (fsh_subset_fits(last, k, rng->entropy_bits))
        return FSH_OK;
    /* Beyond the key: Algorithm R's steps are not mixed (no object state
       to cut groups in), so a mixing rng runs them bounded by the key only
       where its policy accepts that. */
    if (fsh_rng_mixable(rng) &&
        (fsh_rng_reach_flags(rng) & (FSH_REACH_KEY | FSH_REACH_KEY_LARGE)))
        return FSH_OK;
    return FSH_EENTROPY;
}

/* Largest n with n! <= 2^256 (57! ~ 2^254.4, 58! ~ 2^260.4). */
#define FSH_KEY_MAX_N 57

static void set_entropy(fsh_rng *rng, unsigned bits)
{
    rng->entropy_bits = bits > 256 ? 256 : bits;
    /* The fast-path bound: the largest n accepted without looking further.
       A 256-bit key reaches 57 cards; beyond, a mixing rng consults its
       policy (fsh_rng_plan_ordered) and every other keyed one refuses. */
    rng->max_fair_n = rng->src == FSH_SRC_NONE ? 0
                      : rng->simulation || rng->src == FSH_SRC_XOSHIRO ||
                              rng->src == FSH_SRC_WORDS ||
                              rng->src == FSH_SRC_RANDINT
                          ? SIZE_MAX
                      : rng->entropy_bits >= 256
                          ? FSH_KEY_MAX_N
                          : fsh_max_fair_n_for_bits(rng->entropy_bits);
}

/* Forget the current source: wipe keys, buffer and callbacks. */
static void reset(fsh_rng *rng)
{
    volatile uint64_t *canary = rng->fork_canary;
    int sim = rng->simulation, direct = rng->direct;
    unsigned reach_x = rng->reach_x, stream_v = rng->stream_v;
    uint64_t cap_x = rng->hw_cap_x, os = rng->os_bits, hw = rng->hw_bits;
    sodium_memzero(rng, sizeof *rng);
    rng->fork_canary = canary;
    rng->simulation = sim;
    rng->direct = direct;
    rng->stream_v = stream_v;
    rng->reach_x = reach_x;
    rng->hw_cap_x = cap_x;
    rng->os_bits = os;
    rng->hw_bits = hw;
    rng->pos = FSH_BUF_WORDS;
    rng->key_id = fsh_rng_new_key_id();
}

static int gen_rounds(fsh_gen gen)
{
    switch (gen) {
    case FSH_GEN_CHACHA20:
        return 20;
    case FSH_GEN_CHACHA12:
        return 12;
    case FSH_GEN_CHACHA8:
        return 8;
    default:
        return 0;
    }
}

/* Key rng->gen from 32 fresh OS bytes. */
static int rekey_from_os(fsh_rng *rng)
{
    uint8_t k[32];
    int rc = fsh_entropy(k, sizeof k);
    if (rc != FSH_OK)
        return rc;
    if (rng->src == FSH_SRC_CHACHA) {
        fsh_chacha_key(rng->key, k);
        rng->counter = 0;
        rng->stream = 0;
    } else {
        uint64_t x = 0;
        memcpy(&x, k, 8);
        for (int i = 0; i < 4; i++)
            memcpy(&rng->xs[i], k + 8 * i, 8);
        if ((rng->xs[0] | rng->xs[1] | rng->xs[2] | rng->xs[3]) == 0)
            rng->xs[0] = fsh_splitmix64(&x); /* the all-zero state is a fixed point */
    }
    sodium_memzero(k, sizeof k);
    rng->os_bits += 256;
    /* Drop (and wipe) buffered words from before the fork. */
    sodium_memzero(rng->buf, sizeof rng->buf);
    rng->pos = FSH_BUF_WORDS;
    if (rng->fork_canary != NULL)
        *rng->fork_canary = 1;
    rng->owner_pid = (long)getpid();
    return FSH_OK;
}

static void arm_fork_detection(fsh_rng *rng)
{
    if (rng->fork_canary == NULL) {
        long page = sysconf(_SC_PAGESIZE);
        void *p = mmap(NULL, (size_t)(page > 0 ? page : 4096),
                       PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
                       0);
#ifdef MADV_WIPEONFORK
        if (p != MAP_FAILED && madvise(p, (size_t)page, MADV_WIPEONFORK) != 0) {
            munmap(p, (size_t)page);
            p = MAP_FAILED;
        }
#else
        if (p != MAP_FAILED) {
            munmap(p, (size_t)page);
            p = MAP_FAILED;
        }
#endif
        /* Without the page, fall back to comparing pids. */
        rng->fork_canary = p == MAP_FAILED ? NULL : p;
    }
}

/* Allocate an rng keyed from the OS (os set) or by fsh_rng_seed(seed, len).
   *out is NULL on error, and errno is the failed OS call's, past munmap and
   free. */
static int new_keyed(fsh_rng **out, int os, const void *seed, size_t len)
{
    if (out == NULL)
        return FSH_EINVAL;
    *out = NULL;
    fsh_rng *rng = calloc(1, sizeof *rng);
    if (rng == NULL)
        return FSH_ENOMEM;
    int rc = os ? fsh_rng_rekey(rng) : fsh_rng_seed(rng, seed, len);
    if (rc != FSH_OK) {
        int e = errno;
        fsh_rng_free(rng);
        errno = e;
        return rc;
    }
    *out = rng;
    return FSH_OK;
}

int fsh_rng_new(fsh_rng **out)
{
    return new_keyed(out, 1, NULL, 0);
}

int fsh_rng_new_seeded(fsh_rng **out, const void *seed, size_t len)
{
    return new_keyed(out, 0, seed, len);
}

void fsh_rng_free(fsh_rng *rng)
{
    if (rng == NULL)
        return;
    if (rng->fork_canary != NULL) {
        long page = sysconf(_SC_PAGESIZE);
        munmap((void *)(uintptr_t)rng->fork_canary,
               (size_t)(page > 0 ? page : 4096));
    }
    sodium_memzero(rng, sizeof *rng);
    free(rng);
}

/* The OS-keyed default is ChaCha8 (docs/DESIGN.md, "The default
   generator"); seeded rngs stay ChaCha20 (fsh_rng_seed, docs/STREAMS.md). */
int fsh_rng_rekey(fsh_rng *rng)
{
    return fsh_rng_rekey_gen(rng, FSH_GEN_CHACHA8);
}

int fsh_rng_rekey_gen(fsh_rng *rng, fsh_gen gen)
{
    if (rng == NULL || rng->in_cb ||
        (gen_rounds(gen) == 0 && gen != FSH_GEN_XOSHIRO256PP))
        return FSH_EINVAL;
    reset(rng);
    rng->gen = gen;
    rng->src = gen == FSH_GEN_XOSHIRO256PP ? FSH_SRC_XOSHIRO : FSH_SRC_CHACHA;
    rng->rounds = gen_rounds(gen);
    arm_fork_detection(rng);
    rng->os_keyed = 1;
    rng->fork_watch = 1;
    rng->guard = 1;
    int rc = rekey_from_os(rng);
    if (rc != FSH_OK) {
        make_unkeyed(rng, errno);
        return rc;
    }
    set_entropy(rng, 256);
    return FSH_OK;
}

int fsh_rng_seed(fsh_rng *rng, const void *seed, size_t len)
{
    return fsh_rng_seed_gen(rng, FSH_GEN_CHACHA20, seed, len);
}

int fsh_rng_seed_gen(fsh_rng *rng, fsh_gen gen, const void *seed, size_t len)
{
    uint8_t d[32];
    if (rng == NULL || rng->in_cb || (seed == NULL && len > 0) ||
        (gen_rounds(gen) == 0 && gen != FSH_GEN_XOSHIRO256PP))
        return FSH_EINVAL;
    int rc = fsh_seed_digest(seed, len, d);
    if (rc != FSH_OK)
        return rc;
    if (gen == FSH_GEN_XOSHIRO256PP) {
        uint64_t x = 0;
        for (int i = 7; i >= 0; i--)
            x = x << 8 | d[i];
        rc = fsh_rng_key_xoshiro(rng, x);
    } else {
        rc = fsh_rng_key_chacha(rng, gen_rounds(gen), d, 0, 0);
        if (rc == FSH_OK) {
            rng->gen = gen;
            set_entropy(rng, len > 32 ? 256u : (unsigned)(8 * len));
        }
    }
    sodium_memzero(d, sizeof d);
    return rc;
}

int fsh_rng_key_chacha(fsh_rng *rng, int rounds, const uint8_t key[32],
                   uint64_t stream, uint64_t counter)
{
    if (rng == NULL || rng->in_cb || key == NULL ||
        (rounds != 8 && rounds != 12 && rounds != 20))
        return FSH_EINVAL;
    reset(rng);
    rng->src = FSH_SRC_CHACHA;
    rng->gen = rounds == 20   ? FSH_GEN_CHACHA20
               : rounds == 12 ? FSH_GEN_CHACHA12
                              : FSH_GEN_CHACHA8;
    rng->rounds = rounds;
    fsh_chacha_key(rng->key, key);
    rng->stream = stream;
    rng->counter = counter;
    set_entropy(rng, 256);
    return FSH_OK;
}

void fsh_rng_stack_chacha(fsh_rng *r, int rounds, const uint8_t key[32],
                          uint64_t stream)
{
    memset(r, 0, sizeof *r); /* no fork canary to keep */
    int rc = fsh_rng_key_chacha(r, rounds, key, stream, 0);
    (void)rc; /* FSH_OK: the arguments are the library's own */
    /* A derived stream: the caller's call decided reachability already. */
    r->simulation = 1;
    set_entropy(r, 256);
}

void fsh_rng_stack_wipe(fsh_rng *r)
{
    sodium_memzero(r, sizeof *r);
}

int fsh_rng_key_xoshiro(fsh_rng *rng, uint64_t seed)
{
    if (rng == NULL || rng->in_cb)
        return FSH_EINVAL;
    reset(rng);
    rng->src = FSH_SRC_XOSHIRO;
    rng->gen = FSH_GEN_XOSHIRO256PP;
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        rng->xs[i] = fsh_splitmix64(&x);
    set_entropy(rng, 64);
    return FSH_OK;
}

int fsh_rng_from_words(fsh_rng *rng, uint64_t (*fn)(void *ctx), void *ctx)
{
    if (rng == NULL || rng->in_cb || fn == NULL)
        return FSH_EINVAL;
    reset(rng);
    rng->src = FSH_SRC_WORDS;
    rng->words_fn = fn;
    rng->ctx = ctx;
    /* The read-ahead must not reach a forked child. */
    arm_fork_detection(rng);
    rng->fork_watch = 1;
    rng->guard = 1;
    rng->owner_pid = (long)getpid();
    if (rng->fork_canary != NULL)
        *rng->fork_canary = 1;
    set_entropy(rng, 256);
    return FSH_OK;
}

int fsh_rng_from_randint(fsh_rng *rng,
                         uint64_t (*randint)(void *ctx, uint64_t k), void *ctx)
{
    if (rng == NULL || rng->in_cb || randint == NULL)
        return FSH_EINVAL;
    reset(rng);
    rng->src = FSH_SRC_RANDINT;
    rng->randint_fn = randint;
    rng->ctx = ctx;
    set_entropy(rng, 256);
    return FSH_OK;
}

int fsh_rng_set_simulation(fsh_rng *rng, int on)
{
    if (rng == NULL || rng->in_cb)
        return FSH_EINVAL;
    rng->simulation = on != 0;
    set_entropy(rng, rng->entropy_bits);
    return FSH_OK;
}

unsigned fsh_rng_entropy_bits(const fsh_rng *rng)
{
    return rng == NULL ? 0 : rng->entropy_bits;
}

int fsh_rng_get_direct(const fsh_rng *rng)
{
    return rng != NULL && rng->direct;
}


/* One word from any source; a randint source builds it from 8 byte draws
   (k = 256, least significant first) so no draw is made ahead of need. */
static uint64_t word_any(fsh_rng *rng)
{
    return rng->src == FSH_SRC_RANDINT ? randint_word(rng)
                                       : fsh_next_word(rng);
}

/* Take a sticky callback error, clearing it for the next operation. */
static int take_cb_error(fsh_rng *rng)
{
    if (FSH_LIKELY(rng->err == FSH_OK))
        return FSH_OK;
    int rc = rng->err;
    rng->err = FSH_OK;
    if (rc == FSH_ESYSRAND)
        errno = rng->sys_errno;
    return rc;
}

int fsh_rng_u64(fsh_rng *rng, uint64_t *out)
{
    if (rng == NULL || out == NULL)
        return FSH_EINVAL;
    int rc = fsh_rng_ready(rng);
    if (rc != FSH_OK)
        return rc;
    /* A randint source that answers out of range fails the call: *out is
       written only on success, as every output (fairshuf.h). */
    uint64_t w = word_any(rng);
    rc = take_cb_error(rng);
    if (rc == FSH_OK)
        *out = w;
    return rc;
}

int fsh_rng_bytes(fsh_rng *rng, void *buf, size_t len)
{
    uint8_t *p = buf;
    if (rng == NULL || (p == NULL && len > 0))
        return FSH_EINVAL;
    int rc = fsh_rng_ready(rng);
    if (rc != FSH_OK)
        return rc;
    /* Stop at the first callback failure (a randint source's): buf keeps
       the words drawn before it and is unchanged from the failed word on. */
    while (len >= 8) {
        uint64_t w = word_any(rng);
        if (FSH_UNLIKELY(rng->err != FSH_OK))
            return take_cb_error(rng);
        for (int i = 0; i < 8; i++)
            p[i] = (uint8_t)(w >> (8 * i));
        p += 8;
        len -= 8;
    }
    if (len > 0) {
        /* A partial word is consumed whole, so the stream stays aligned. */
        uint64_t w = word_any(rng);
        if (FSH_UNLIKELY(rng->err != FSH_OK))
            return take_cb_error(rng);
        for (size_t i = 0; i < len; i++)
            p[i] = (uint8_t)(w >> (8 * i));
    }
    return take_cb_error(rng);
}

uint64_t fsh_rng_bits_used(const fsh_rng *rng)
{
    if (rng == NULL)
        return 0;
    if (rng->src == FSH_SRC_RANDINT)
        return rng->randint_bits;
    return 64 * (rng->words_made - (FSH_BUF_WORDS - rng->pos));
}

int fsh_rng_take_error(fsh_rng *rng)
{
    return take_cb_error(rng);
}

