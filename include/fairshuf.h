/*
 * fairshuf: exactly uniform, reachable, verifiable shuffles, samples and deals.
 *
 * Layers (see docs/DESIGN.md): rng (64-bit words) -> uniform (exact bounded
 * integers) -> shuffle (Fisher-Yates kernels) -> deck / sample.
 *
 * Conventions
 * - Every function that can fail returns an int status: FSH_OK (0) or a
 *   negative FSH_E* code; fsh_strerror() names it. Nothing aborts, prints or
 *   sets errno on caller input.
 * - Functions are reentrant; use each object from one thread at a time. There
 *   is no hidden global state: give each thread its own fsh_rng.
 * - Everything random takes the fsh_rng first, so a seeded run replays
 *   exactly, on every platform and in every later version (docs/STREAMS.md).
 */
#ifndef FAIRSHUF_H
#define FAIRSHUF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FSH_VERSION_MAJOR 0
#define FSH_VERSION_MINOR 1
#define FSH_VERSION_PATCH 0
#define FSH_VERSION_NUMBER                                                     \
    (FSH_VERSION_MAJOR * 10000 + FSH_VERSION_MINOR * 100 + FSH_VERSION_PATCH)

#if defined(_WIN32) && defined(FSH_BUILDING_DLL)
#define FSH_API __declspec(dllexport)
#elif defined(__GNUC__)
#define FSH_API __attribute__((visibility("default")))
#else
#define FSH_API
#endif

/* Version of the linked library (may differ from FSH_VERSION_NUMBER). */
FSH_API unsigned fsh_version_number(void);

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */

#define FSH_OK 0
#define FSH_EINVAL (-1)   /* bad argument: NULL, overflow, bound 0, k > n */
#define FSH_ENOMEM (-2)   /* allocation failed */
#define FSH_EENTROPY (-3) /* seed holds too few bits for a fair result (reachability) */
#define FSH_EEMPTY (-4)   /* deck exhausted */
#define FSH_ECALLBACK (-5) /* a user callback returned a value out of range */
#define FSH_ESYSRAND (-6) /* the OS random source failed (errno says why),
                             or the rng is unkeyed since it did */

/* Message for a status code; never NULL; unknown codes give "unknown error". */
FSH_API const char *fsh_strerror(int status);

/* ------------------------------------------------------------------------ */
/* Random word sources (fsh_rng)                                            */
/*
 * An fsh_rng hands out uniform 64-bit words from one of these generators:
 * - ChaCha20 (default), ChaCha12, ChaCha8: a 256-bit key, 64-bit stream id and
 *   64-bit block counter (the original 64-bit-nonce layout, as in libsodium's
 *   crypto_stream_chacha20). Words are the keystream read 8 bytes at a time,
 *   little-endian.
 * - xoshiro256++ (Blackman & Vigna), seeded through SplitMix64: fast,
 *   simulation grade (reaches at most 2^64 orders per seed).
 * - A user callback returning uniform 64-bit words, or one returning a uniform
 *   integer in [1, k] (fsh_rng_from_randint).
 *
 * Reachability: an rng knows how many bits b of entropy its seed holds. An
 * operation that produces an order or a subset must be able to reach every
 * outcome: an ordered k of n needs n!/(n-k)! <= 2^b (a shuffle of n: n!;
 * 52 cards: 226 bits), an unordered k of n needs C(n, k) <= 2^b; b = 256
 * (the key size) is always enough. Otherwise the operation returns
 * FSH_EENTROPY and changes nothing, unless the caller opted into simulation
 * grade with fsh_rng_set_simulation(); xoshiro256++ is simulation grade by
 * construction. Incremental operations check what they have produced so
 * far: see fsh_deck_deal_n, fsh_rangeperm_next, fsh_reservoir_slot. Words,
 * bytes and single bounded integers (fsh_rng_u64, fsh_rng_bytes,
 * fsh_uniform*) are neither and are never refused for entropy.
 *
 * Keying failures: when keying from the OS fails (fsh_rng_new, fsh_rng_init,
 * fsh_rng_init_gen, or a forked child's automatic rekey), the call returns
 * FSH_ESYSRAND with errno from the failing system call, and the rng is left
 * unkeyed: it holds no key and no words, and every call that takes it to
 * draw (even one that would draw nothing, e.g. a shuffle of 1 element)
 * returns FSH_ESYSRAND, sets errno to that same value and changes none of
 * its outputs, simulation grade or not, until the rng is keyed again by a
 * successful fsh_rng_init*, fsh_rng_seed*, fsh_rng_chacha, fsh_rng_xoshiro
 * or fsh_rng_from_*. FSH_EENTROPY never means an OS failure. Seeding
 * (fsh_rng_seed*) reads no OS randomness. Argument errors (FSH_EINVAL)
 * are reported first, then FSH_ESYSRAND, then any other status.
 */

typedef struct fsh_rng fsh_rng;

typedef enum fsh_gen {
    FSH_GEN_CHACHA20 = 0,
    FSH_GEN_CHACHA12 = 1,
    FSH_GEN_CHACHA8 = 2,
    FSH_GEN_XOSHIRO256PP = 3
} fsh_gen;

/* Fill buf with len bytes of OS entropy: getrandom(2), else /dev/urandom.
   FSH_ESYSRAND if neither works, with errno from the last failing call;
   never a weaker source. */
FSH_API int fsh_entropy(void *buf, size_t len);

/* Allocate an rng and key it like fsh_rng_init. *out is NULL on error. */
FSH_API int fsh_rng_new(fsh_rng **out);

/* Allocate an rng keyed like fsh_rng_seed from seed[0..len). It reads no OS
   entropy, so it works when the OS random source fails. *out is NULL on
   error. */
FSH_API int fsh_rng_new_seeded(fsh_rng **out, const void *seed, size_t len);

/* Wipe the rng's key material and release it; NULL does nothing. */
FSH_API void fsh_rng_free(fsh_rng *rng);

/* (Re)key as ChaCha20 with 256 bits from the OS; FSH_ESYSRAND (errno kept)
   leaves the rng unkeyed (see above). Fork-safe: the first call using the
   rng in a child process detects the fork and rekeys it from the OS, so the
   child never repeats the parent's words, nor any object's randomness drawn
   before the fork (a deck's pending dice are dropped); if the child cannot
   get OS randomness, that call returns FSH_ESYSRAND and the rng is unkeyed
   (never a stream the parent could predict). Calling fsh_rng_init in the
   child yourself is equally safe. */
FSH_API int fsh_rng_init(fsh_rng *rng);

/* (Re)key generator gen from the OS (fork-safe as fsh_rng_init). */
FSH_API int fsh_rng_init_gen(fsh_rng *rng, fsh_gen gen);

/* Reproducible ChaCha20 from any seed bytes: key = SHA-256("fairshuf/seed/v1"
   || 0x00 || seed), stream 0, counter 0. Entropy credited: 8*len bits, max 256. */
FSH_API int fsh_rng_seed(fsh_rng *rng, const void *seed, size_t len);

/* Reproducible generator gen from seed bytes. ChaCha: as fsh_rng_seed with
   that round count. xoshiro256++: the first 8 bytes of the same SHA-256,
   little-endian, seed SplitMix64 (see fsh_rng_xoshiro). */
FSH_API int fsh_rng_seed_gen(fsh_rng *rng, fsh_gen gen, const void *seed,
                             size_t len);

/* Raw ChaCha with rounds 8, 12 or 20, the given key, stream id and starting
   block counter: for known-answer tests and interoperability. Full entropy. */
FSH_API int fsh_rng_chacha(fsh_rng *rng, int rounds, const uint8_t key[32],
                           uint64_t stream, uint64_t counter);

/* xoshiro256++ whose state is four successive SplitMix64 outputs from seed,
   as the authors recommend. Simulation grade. */
FSH_API int fsh_rng_xoshiro(fsh_rng *rng, uint64_t seed);

/* Words come from fn(ctx), which must return uniform 64-bit words. The rng
   buffers up to 128 words ahead; a forked child drops (never hands out)
   the words read ahead in the parent, and objects drop randomness cached
   from them; what fn returns in the child is fn's business. Credited with
   full entropy. Seeded and raw-keyed rngs (fsh_rng_seed*, fsh_rng_chacha,
   fsh_rng_xoshiro) are reproducible by design: a forked child replays the
   parent's stream. */
FSH_API int fsh_rng_from_words(fsh_rng *rng, uint64_t (*fn)(void *ctx),
                               void *ctx);

/* Indices come from randint(ctx, k), which must return a uniform integer in
   [1, k] for k >= 1 (seed 002). Shuffles then use only swaps and one call per
   position; word-level calls (fsh_rng_u64, fsh_rng_bytes) draw bytes with
   k = 256. A return outside [1, k] makes the operation fail with
   FSH_ECALLBACK. Credited with full entropy. */
FSH_API int fsh_rng_from_randint(fsh_rng *rng,
                                 uint64_t (*randint)(void *ctx, uint64_t k),
                                 void *ctx);

/* Opt in (on != 0) or out of simulation grade: allow shuffles larger than the
   seed's entropy can reach. The choice stays with the rng across re-keying
   (fsh_rng_seed, fsh_rng_init, ...) until changed. */
FSH_API int fsh_rng_set_simulation(fsh_rng *rng, int on);

/* Bits of seed entropy credited to the rng (0..256). */
FSH_API unsigned fsh_rng_entropy_bits(const fsh_rng *rng);

/* Largest n whose every order the rng can reach fairly (SIZE_MAX when the
   rng has 256 bits or is simulation grade; 0 when unkeyed or NULL). */
FSH_API size_t fsh_rng_max_fair_n(const fsh_rng *rng);

/* Next uniform 64-bit word. With a randint callback, FSH_ECALLBACK is
   possible; FSH_ESYSRAND if the rng is unkeyed; otherwise never fails. */
FSH_API int fsh_rng_u64(fsh_rng *rng, uint64_t *out);

/* Fill buf with len uniform bytes (the word stream, little-endian). */
FSH_API int fsh_rng_bytes(fsh_rng *rng, void *buf, size_t len);

/* Random bits handed out since keying: 64 per word consumed (for a randint
   callback, ceil(log2 k) per call). */
FSH_API uint64_t fsh_rng_bits_used(const fsh_rng *rng);

/* ------------------------------------------------------------------------ */
/* Exactly uniform bounded integers                                         */

/* *out = uniform integer in [0, bound); bound 0 is FSH_EINVAL. Lemire's
   nearly-divisionless method: no modulo bias, no floating point. */
FSH_API int fsh_uniform(fsh_rng *rng, uint64_t bound, uint64_t *out);

/* *out = uniform integer in [lo, hi] (inclusive; the full 64-bit range works). */
FSH_API int fsh_uniform_range(fsh_rng *rng, uint64_t lo, uint64_t hi,
                              uint64_t *out);

/* ------------------------------------------------------------------------ */
/* Shuffles and permutations                                                */
/*
 * Fisher-Yates (Durstenfeld): for i = n-1 down to 1 swap a[i] with a[j],
 * j uniform in [0, i]. O(n) time, O(1) extra space. n of 0 or 1 is a no-op.
 * NULL with n > 0, size 0, or n * size overflowing is FSH_EINVAL. On
 * FSH_ECALLBACK the array is still a permutation of its input.
 */

/* Shuffle n elements of size bytes each at base (qsort-like). */
FSH_API int fsh_shuffle(fsh_rng *rng, void *base, size_t n, size_t size);

/* Typed fast paths: shuffle a[0..n) in place. */
FSH_API int fsh_shuffle_u32(fsh_rng *rng, uint32_t *a, size_t n);
FSH_API int fsh_shuffle_u64(fsh_rng *rng, uint64_t *a, size_t n);
FSH_API int fsh_shuffle_ptr(fsh_rng *rng, void **a, size_t n);

/* Seed 002: shuffle using only swaps and randint(ctx, k), a uniform integer
   in [1, k]; one call per position, O(n). No fsh_rng needed. */
FSH_API int fsh_shuffle_randint(void *base, size_t n, size_t size,
                                uint64_t (*randint)(void *ctx, uint64_t k),
                                void *ctx);

/* out[0..n) = uniform random permutation of first..first+n-1 in O(n)
   (filled in order, then Fisher-Yates). FSH_EINVAL if first+n-1 overflows. */
FSH_API int fsh_permutation(fsh_rng *rng, uint64_t *out, size_t n,
                            uint64_t first);

/* As fsh_permutation, 32-bit values. */
FSH_API int fsh_permutation_u32(fsh_rng *rng, uint32_t *out, size_t n,
                                uint32_t first);

/* ------------------------------------------------------------------------ */
/* Cards and decks (seed 001)                                               */
/*
 * Card encoding: card = suit * 13 + (rank - 2), so 0..51.
 * rank 2..14 (11 = J, 12 = Q, 13 = K, 14 = A); suit 0 = clubs, 1 = diamonds,
 * 2 = hearts, 3 = spades. Names: "A♠", "10♥" (FSH_CARD_UNICODE) or poker
 * notation "As", "Th" (FSH_CARD_POKER).
 */

#define FSH_CARD_UNICODE 0
#define FSH_CARD_POKER 1

/* Card from rank (2..14) and suit (0..3); FSH_EINVAL otherwise. */
FSH_API int fsh_card_make(int rank, int suit, uint32_t *card);
/* Rank 2..14 of card (0..51), or FSH_EINVAL. */
FSH_API int fsh_card_rank(uint32_t card);
/* Suit 0..3 of card (0..51), or FSH_EINVAL. */
FSH_API int fsh_card_suit(uint32_t card);

/* Write card's name (NUL-terminated) into buf of len bytes; 8 suffice.
   notation is FSH_CARD_UNICODE or FSH_CARD_POKER. */
FSH_API int fsh_card_name(uint32_t card, int notation, char *buf, size_t len);

/* Parse one card name in either notation ("A♠", "10♥", "As", "Th"); anything
   else (mixed notations, case changes, extra bytes) is FSH_EINVAL. */
FSH_API int fsh_card_parse(const char *name, uint32_t *card);

/* A deck with a dealing cursor; opaque. */
typedef struct fsh_deck fsh_deck;

/* New deck of n cards valued 0..n-1 (n = 52: the standard deck), all
   remaining. n of 0 or over 2^32 is FSH_EINVAL. */
FSH_API int fsh_deck_new(fsh_deck **out, size_t n);

/* New deck holding a copy of cards[0..n) (shoes, custom decks). */
FSH_API int fsh_deck_new_from(fsh_deck **out, const uint32_t *cards, size_t n);

/* Release the deck; NULL does nothing. */
FSH_API void fsh_deck_free(fsh_deck *deck);

/* O(1): return every card to the deck (and start a new dealt prefix for
   reachability). Dealing is lazy Fisher-Yates, so no reordering is needed
   for the next deal to be uniform. */
FSH_API int fsh_deck_shuffle(fsh_deck *deck);

/* O(1): deal one uniformly chosen remaining card into *card. FSH_EEMPTY when
   none remain; FSH_EENTROPY (nothing dealt) if the rng cannot reach every
   ordered prefix of the deck dealt since the last fsh_deck_shuffle, this
   card included: d cards of n need n!/(n-d)! <= 2^bits. The deck draws
   dice in batches and keeps the rest for later deals; dice drawn under
   another keying (another rng, a re-key, a forked child's rekey) are
   dropped unseen, never dealt. */
FSH_API int fsh_deck_deal(fsh_rng *rng, fsh_deck *deck, uint32_t *card);

/* Deal k cards into out[0..k) in deal order; k > remaining is FSH_EEMPTY
   and deals nothing, as is FSH_EENTROPY (the prefix rule of fsh_deck_deal
   with the k cards). */
FSH_API int fsh_deck_deal_n(fsh_rng *rng, fsh_deck *deck, uint32_t *out,
                            size_t k);

/* Cards left to deal. */
FSH_API size_t fsh_deck_remaining(const fsh_deck *deck);

/* Total cards in the deck. */
FSH_API size_t fsh_deck_size(const fsh_deck *deck);

/* ------------------------------------------------------------------------ */
/* Sampling                                                                 */
/*
 * Ordered samples: k of n items where every one of the n!/(n-k)! ordered
 * k-tuples is equally likely, in O(k) memory whatever n is.
 * - fsh_rangeperm: forward Fisher-Yates over [0, last] that stores only the
 *   displaced positions (a hash map, or a plain array when the range is
 *   small next to the expected number of draws). Step i draws j uniform in
 *   [i, last], swaps positions i and j and returns the value now at i; the
 *   first k steps have n(n-1)...(n-k+1) equally likely outcomes, each giving
 *   a distinct ordered prefix. The map and array give identical output.
 * - fsh_reservoir_slot: Algorithm R (Waterman; Knuth TAOCP 3.4.2) with exact
 *   draws: after a stream of any length the kept items are a uniform
 *   k-subset; shuffling them afterwards (fsh_shuffle) makes the order
 *   uniform as well. Skip-based variants (Li's Algorithm L) need floating
 *   point and are not exact, so they are not offered.
 */

/* A lazily built uniform permutation of [0, last]; opaque. */
typedef struct fsh_rangeperm fsh_rangeperm;

/* New permutation of [0, last] (last = UINT64_MAX covers all 2^64 values).
   hint = expected number of draws (0: unknown); it picks array or hash map
   storage and sizes it, never the output. */
FSH_API int fsh_rangeperm_new(fsh_rangeperm **out, uint64_t last, size_t hint);

/* Release the permutation; NULL does nothing. */
FSH_API void fsh_rangeperm_free(fsh_rangeperm *perm);

/* *out = next element of the permutation (j uniform in [drawn, last]);
   FSH_EEMPTY once all last + 1 elements were drawn. Expected O(1).
   FSH_EENTROPY (nothing drawn) if the rng cannot reach every ordered
   prefix drawn so far, this draw included: d draws need
   (last+1)!/(last+1-d)! <= 2^bits. */
FSH_API int fsh_rangeperm_next(fsh_rng *rng, fsh_rangeperm *perm,
                               uint64_t *out);

/* As fsh_rangeperm_next with the step's offset r = j - drawn supplied by the
   caller (an external source of uniform r in [0, last - drawn]); r out of
   range is FSH_EINVAL, exhausted is FSH_EEMPTY. No rng, so no entropy check:
   reachability is the caller's source's business. */
FSH_API int fsh_rangeperm_next_at(fsh_rangeperm *perm, uint64_t r,
                                  uint64_t *out);

/* Number of elements drawn so far. */
FSH_API uint64_t fsh_rangeperm_drawn(const fsh_rangeperm *perm);

/* out[0..k) = k distinct values of [lo, hi] in uniformly random order, the
   first k steps of an fsh_rangeperm: O(k) time and memory for any range
   (the full 64-bit range works). k larger than the range is FSH_EINVAL;
   FSH_EENTROPY (out untouched) unless n!/(n-k)! <= 2^bits for the range's
   n values. */
FSH_API int fsh_sample_range(fsh_rng *rng, uint64_t lo, uint64_t hi,
                             uint64_t *out, size_t k);

/* Algorithm R step for the stream item with 0-based index seen: *slot =
   seen while seen < k (fill the reservoir), else j uniform in [0, seen],
   with *slot = j when j < k (replace that slot) and *slot = k meaning
   "drop the item". k = 0 always drops and draws nothing. Reachability:
   a step that draws (seen >= k >= 1) returns FSH_EENTROPY unless every
   k-subset of the seen + 1 items so far is reachable, C(seen + 1, k) <=
   2^bits (the kept set; its order needs a separate shuffle, checked
   there). */
FSH_API int fsh_reservoir_slot(fsh_rng *rng, uint64_t seen, size_t k,
                               size_t *slot);

/* ------------------------------------------------------------------------ */
/* File shuffles: bucket scatter over caller buffers                        */
/*
 * The permutation fairshuf gives inputs of n records, defined by n and a
 * 256-bit key only (so it does not depend on memory limits, temporary files
 * or thread counts). n <= FSH_FILESHUF_SMALL: one Fisher-Yates (fsh_shuffle)
 * with the caller's rng. Larger n: a bucket (Rao-Sandelius) scatter with
 * 2^bits buckets, bits = fsh_fileshuf_bits(n):
 *   record i goes to bucket w_i >> (64 - bits), w_i = word i of
 *   ChaCha20(key, stream 0, counter 0), little-endian 64-bit words;
 *   bucket b's records, in input order, are shuffled by fsh_shuffle with
 *   ChaCha20(key, stream b + 1, counter 0); buckets are concatenated in order.
 * Uniform given uniform bucket ids: conditional on the bucket sizes every
 * arrangement is equally likely. These values never change.
 */
#define FSH_FILESHUF_SMALL ((uint64_t)1 << 20)
#define FSH_FILESHUF_MAX_BITS 24

/* log2 of the bucket count for n records; 0 when n <= FSH_FILESHUF_SMALL. */
FSH_API unsigned fsh_fileshuf_bits(uint64_t n);

/* out[0..count) = bucket ids (in [0, 2^bits)) of records first..first+count-1;
   any split of the records gives the same ids. bits in 1..24. */
FSH_API int fsh_fileshuf_buckets(const uint8_t key[32], unsigned bits,
                                 uint64_t first, uint32_t *out, size_t count);

/* Shuffle base[0..n) (elements of size bytes), the records of bucket id in
   input order, with that bucket's own stream. */
FSH_API int fsh_fileshuf_bucket(const uint8_t key[32], uint64_t id, void *base,
                                size_t n, size_t size);

/* Stable scatter of src[0..n) into dst by bucket[i] - lo (which must be in
   [0, nb)); start[0..nb] receives the bucket boundaries in dst. */
FSH_API int fsh_fileshuf_scatter(const uint32_t *bucket, uint32_t lo, size_t nb,
                                 const void *src, void *dst, size_t n,
                                 size_t size, size_t *start);

/* ------------------------------------------------------------------------ */
/* Large and parallel shuffles                                              */
/*
 * fsh_shuffle (and the typed shuffles and fsh_permutation) switch kernels by
 * array size n * size, except with a randint source, which always gets the
 * plain Fisher-Yates above:
 * - up to 12 MiB: plain Fisher-Yates; O(1) extra memory.
 * - 12 to 24 MiB: the same Fisher-Yates with its indices drawn a window ahead
 *   and prefetched; identical output; about 1 KiB of stack.
 * - above 24 MiB: an in-place scatter shuffle (Rao-Sandelius, Penschuck's
 *   rough shuffle with an exact multinomial fix-up; docs/DESIGN.md). Its
 *   output is defined by that algorithm: 4 words of rng key one ChaCha
 *   stream per bucket task (the rng's round count; ChaCha8 for other
 *   generators), so it is the same for every thread count. Extra memory:
 *   about 40 KiB of stack per level, 48 KiB of heap for the top level's
 *   cursors, and one heap copy of the "stash", the elements the rough
 *   shuffle leaves unlabelled, with a 2-byte label each: about 1 % of the
 *   array (size + 2 bytes per stash element; 0.8 % at 24 MiB and 1.3 % at
 *   1e8 8-byte elements; by design never more than the array). If an
 *   allocation fails the call returns FSH_ENOMEM and the array is still a
 *   permutation of its input, but not a uniform one: shuffle it again.
 */

/* As fsh_shuffle, on up to threads threads (0 = all online cores; pthreads),
   with output identical to fsh_shuffle for the same rng state whatever the
   thread count. Up to 24 MiB, or with a randint source, it runs fsh_shuffle
   on the calling thread. Extra memory: fsh_shuffle's, plus a 2.5 KiB rng and
   a thread stack per extra thread, and with more than one thread 64 bytes
   per bucket and thread for the parallel stash placement (64 KiB for two
   threads). Threads beyond 4 speed up the bucket phase but not the rough
   pass, which has 4 stripes. */
FSH_API int fsh_shuffle_threads(fsh_rng *rng, void *base, size_t n,
                                size_t size, unsigned threads);

#ifdef __cplusplus
}
#endif

#endif /* FAIRSHUF_H */
