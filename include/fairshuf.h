/*
 * fairshuf: exactly uniform, reachable, reproducible shuffles, samples and
 * deals. Version 0.2 (the API may still change before 1.0; every change is
 * listed in docs/CHANGELOG.md).
 *
 * Layers (docs/DESIGN.md): random words (fsh_rng) -> exact bounded integers
 * (fsh_uniform) -> shuffles (Fisher-Yates and the scatter shuffle) ->
 * permutations, record shuffles, samples and decks.
 *
 * Conventions
 * - Every function that can fail returns an int status: FSH_OK (0) or a
 *   negative FSH_E* code with one meaning each; fsh_strerror() names it.
 *   Nothing aborts, prints or sets errno on caller input (FSH_ESYSRAND keeps
 *   the errno of the failed system call). A call that fails leaves its
 *   outputs unchanged unless its comment says otherwise; FSH_NODISCARD makes
 *   the compiler warn when a status is ignored.
 * - Argument order: the fsh_rng first when the call draws randomness, then
 *   the object it works on, then outputs, then inputs; a buffer is followed
 *   by its length. Constructors take the new object's address first and
 *   set it to NULL on any error.
 * - Ranges of values are inclusive, lo and hi (so the full 64-bit range can
 *   be given); a count n means the n values 0..n-1 or n items.
 * - Functions are reentrant; use each object from one thread at a time.
 *   There is no hidden global state: give each thread its own fsh_rng.
 * - A seeded run replays exactly, on every platform and in every later
 *   version: the streams and the algorithms that consume them are fixed in
 *   docs/STREAMS.md.
 */
#ifndef FAIRSHUF_H
#define FAIRSHUF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FSH_VERSION_MAJOR 0
#define FSH_VERSION_MINOR 2
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

/* Warn when the caller ignores a status that says the call did nothing. */
#if defined(__GNUC__)
#define FSH_NODISCARD __attribute__((warn_unused_result))
#else
#define FSH_NODISCARD
#endif

/* Version of the linked library (may differ from FSH_VERSION_NUMBER). */
FSH_API unsigned fsh_version_number(void);

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */

#define FSH_OK 0
#define FSH_EINVAL (-1)    /* bad argument: NULL, overflow, empty range, k > n */
#define FSH_ENOMEM (-2)    /* allocation failed */
#define FSH_EENTROPY (-3)  /* the rng's seed is too short to reach every
                              outcome of this call (see Reachability) */
#define FSH_EEMPTY (-4)    /* nothing left: the deck or permutation is used up */
#define FSH_ECALLBACK (-5) /* a user callback returned a value out of range */
#define FSH_ESYSRAND (-6)  /* the OS random source failed (errno says why),
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
 * Reachability: an rng knows how many bits b of entropy its seed holds. A
 * call that produces an order or a subset must be able to reach every
 * outcome: an ordered k of n needs n!/(n-k)! <= 2^b (a shuffle of n: n!;
 * 52 cards: 226 bits), an unordered k of n needs C(n, k) <= 2^b; b = 256
 * (the key size) is always accepted. Otherwise the call
 * returns FSH_EENTROPY and changes nothing, unless the caller opted into
 * simulation grade with fsh_rng_set_simulation(); xoshiro256++ is
 * simulation grade by construction. Incremental calls check what they have
 * produced so far: see fsh_deck_deal_n, fsh_rangeperm_next,
 * fsh_reservoir_slot. Words, bytes and single bounded integers
 * (fsh_rng_u64, fsh_rng_bytes, fsh_uniform*) are neither and are never
 * refused for entropy.
 *
 * Keying failures: when keying from the OS fails (fsh_rng_new,
 * fsh_rng_rekey, fsh_rng_rekey_gen, or a forked child's automatic rekey),
 * the call returns FSH_ESYSRAND with errno from the failing system call,
 * and the rng is left unkeyed: it holds no key and no words, and every call
 * that takes it to draw (even one that would draw nothing, e.g. a shuffle
 * of 1 element) returns FSH_ESYSRAND, sets errno to that same value and
 * changes none of its outputs, simulation grade or not, until the rng is
 * keyed again by a successful fsh_rng_rekey*, fsh_rng_seed*,
 * fsh_rng_key_chacha, fsh_rng_key_xoshiro or fsh_rng_from_*. FSH_EENTROPY
 * never means an OS failure. Seeding (fsh_rng_seed*) reads no OS
 * randomness. Argument errors (FSH_EINVAL) are reported first, then
 * FSH_ESYSRAND, then any other status.
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
FSH_API FSH_NODISCARD int fsh_entropy(void *buf, size_t len);

/* Allocate an rng and key it from the OS like fsh_rng_rekey. *out is NULL
   on error. */
FSH_API FSH_NODISCARD int fsh_rng_new(fsh_rng **out);

/* Allocate an rng keyed like fsh_rng_seed from seed[0..len). It reads no OS
   entropy, so it works when the OS random source fails. *out is NULL on
   error. */
FSH_API FSH_NODISCARD int fsh_rng_new_seeded(fsh_rng **out, const void *seed,
                                             size_t len);

/* Wipe the rng's key material and release it; NULL does nothing. */
FSH_API void fsh_rng_free(fsh_rng *rng);

/* (Re)key as ChaCha20 with 256 bits from the OS; FSH_ESYSRAND (errno kept)
   leaves the rng unkeyed (see above). Fork-safe: the first call using the
   rng in a child process detects the fork and rekeys it from the OS, so the
   child never repeats the parent's words, nor any object's randomness drawn
   before the fork (a deck's pending draws are dropped); if the child cannot
   get OS randomness, that call returns FSH_ESYSRAND and the rng is unkeyed
   (never a stream the parent could predict). Calling fsh_rng_rekey in the
   child yourself is equally safe. */
FSH_API FSH_NODISCARD int fsh_rng_rekey(fsh_rng *rng);

/* (Re)key generator gen from the OS (fork-safe as fsh_rng_rekey). */
FSH_API FSH_NODISCARD int fsh_rng_rekey_gen(fsh_rng *rng, fsh_gen gen);

/* Reproducible ChaCha20 from any seed bytes: key = SHA-256("fairshuf/seed/v1"
   || 0x00 || seed), stream 0, counter 0. Entropy credited: 8*len bits, max 256. */
FSH_API FSH_NODISCARD int fsh_rng_seed(fsh_rng *rng, const void *seed,
                                       size_t len);

/* Reproducible generator gen from seed bytes. ChaCha: as fsh_rng_seed with
   that round count. xoshiro256++: the first 8 bytes of the same SHA-256,
   little-endian, seed SplitMix64 (see fsh_rng_key_xoshiro). */
FSH_API FSH_NODISCARD int fsh_rng_seed_gen(fsh_rng *rng, fsh_gen gen,
                                           const void *seed, size_t len);

/* Raw ChaCha with rounds 8, 12 or 20, the given key, stream id and starting
   block counter: for known-answer tests and interoperability. Full entropy. */
FSH_API FSH_NODISCARD int fsh_rng_key_chacha(fsh_rng *rng, int rounds,
                                             const uint8_t key[32],
                                             uint64_t stream, uint64_t counter);

/* xoshiro256++ whose state is four successive SplitMix64 outputs from seed,
   as the authors recommend. Simulation grade. */
FSH_API FSH_NODISCARD int fsh_rng_key_xoshiro(fsh_rng *rng, uint64_t seed);

/* Words come from fn(ctx), which must return uniform 64-bit words. The rng
   buffers up to 128 words ahead; a forked child drops (never hands out)
   the words read ahead in the parent, and objects drop randomness cached
   from them; what fn returns in the child is fn's business. Credited with
   full entropy. Seeded and raw-keyed rngs (fsh_rng_seed*, fsh_rng_key_*)
   are reproducible by design: a forked child replays the parent's stream. */
FSH_API FSH_NODISCARD int fsh_rng_from_words(fsh_rng *rng,
                                             uint64_t (*fn)(void *ctx),
                                             void *ctx);

/* Indices come from randint(ctx, k), which must return a uniform integer in
   [1, k] for k >= 1: the "uniform random integer source" model. Shuffles
   then use only swaps and one call per position (plain Fisher-Yates at
   every size); word-level calls (fsh_rng_u64, fsh_rng_bytes) draw bytes
   with k = 256. A return outside [1, k] makes the call fail with
   FSH_ECALLBACK. Credited with full entropy. */
FSH_API FSH_NODISCARD int fsh_rng_from_randint(
    fsh_rng *rng, uint64_t (*randint)(void *ctx, uint64_t k), void *ctx);

/* Opt in (on != 0) or out of simulation grade: allow shuffles larger than the
   seed's entropy can reach. The choice stays with the rng across re-keying
   (fsh_rng_seed, fsh_rng_rekey, ...) until changed. */
FSH_API FSH_NODISCARD int fsh_rng_set_simulation(fsh_rng *rng, int on);

/* Bits of seed entropy credited to the rng (0..256). */
FSH_API unsigned fsh_rng_entropy_bits(const fsh_rng *rng);

/* Largest n whose every order the rng can reach fairly (SIZE_MAX when the
   rng has 256 bits or is simulation grade; 0 when unkeyed or NULL). */
FSH_API size_t fsh_rng_max_fair_n(const fsh_rng *rng);

/* *out = next uniform 64-bit word. With a randint callback, FSH_ECALLBACK
   is possible; FSH_ESYSRAND if the rng is unkeyed; otherwise never fails. */
FSH_API FSH_NODISCARD int fsh_rng_u64(fsh_rng *rng, uint64_t *out);

/* Fill buf with len uniform bytes (the word stream, little-endian). */
FSH_API FSH_NODISCARD int fsh_rng_bytes(fsh_rng *rng, void *buf, size_t len);

/* Random bits handed out since keying: 64 per word consumed (for a randint
   callback, ceil(log2 k) per call). */
FSH_API uint64_t fsh_rng_bits_used(const fsh_rng *rng);

/* ------------------------------------------------------------------------ */
/* Exactly uniform bounded integers                                         */

/* *out = uniform integer in [0, n), one of n values; n = 0 is FSH_EINVAL.
   Lemire's nearly-divisionless method: no modulo bias, no floating point. */
FSH_API FSH_NODISCARD int fsh_uniform(fsh_rng *rng, uint64_t *out, uint64_t n);

/* *out = uniform integer in [lo, hi] (inclusive; the full 64-bit range
   works); lo > hi is FSH_EINVAL. */
FSH_API FSH_NODISCARD int fsh_uniform_range(fsh_rng *rng, uint64_t *out,
                                            uint64_t lo, uint64_t hi);

/* ------------------------------------------------------------------------ */
/* Shuffles and permutations                                                */
/*
 * Every order of the n elements is equally likely (Fisher-Yates: for
 * i = n-1 down to 1 swap a[i] with a[j], j uniform in [0, i]; large arrays
 * use an equally exact scatter shuffle, docs/DESIGN.md). O(n) time. n of 0
 * or 1 is a no-op. NULL with n > 0, size 0, or n * size overflowing is
 * FSH_EINVAL. The kernel is chosen by the array's size in bytes; which
 * kernel runs is fixed for each size and generator (docs/STREAMS.md), so a
 * seeded shuffle replays exactly. Extra memory is O(1) up to tens of MiB;
 * above that a scatter shuffle allocates about 1 % of the array, and if
 * that allocation fails the call returns FSH_ENOMEM with the array still a
 * permutation of its input, but not a uniform one (shuffle it again). On
 * FSH_ECALLBACK the array is also a permutation of its input. Every other
 * failure leaves the array unchanged.
 */

/* Shuffle n elements of size bytes each at base (qsort-like). */
FSH_API FSH_NODISCARD int fsh_shuffle(fsh_rng *rng, void *base, size_t n,
                                      size_t size);

/* Typed fast paths: shuffle a[0..n) in place. */
FSH_API FSH_NODISCARD int fsh_shuffle_u32(fsh_rng *rng, uint32_t *a, size_t n);
FSH_API FSH_NODISCARD int fsh_shuffle_u64(fsh_rng *rng, uint64_t *a, size_t n);
FSH_API FSH_NODISCARD int fsh_shuffle_ptr(fsh_rng *rng, void **a, size_t n);

/* As fsh_shuffle, on up to threads threads (0 = all online cores; pthreads),
   with output identical to fsh_shuffle for the same rng state whatever the
   thread count. Small arrays, and rngs with a randint source, run
   fsh_shuffle on the calling thread. */
FSH_API FSH_NODISCARD int fsh_shuffle_threads(fsh_rng *rng, void *base,
                                              size_t n, size_t size,
                                              unsigned threads);

/* out[0..hi-lo] = a uniform random order of the values lo..hi, in O(n)
   (filled in order, then shuffled); out must hold hi - lo + 1 values.
   lo > hi, or a count that does not fit in memory, is FSH_EINVAL. */
FSH_API FSH_NODISCARD int fsh_permutation(fsh_rng *rng, uint64_t *out,
                                          uint64_t lo, uint64_t hi);

/* As fsh_permutation, 32-bit values. */
FSH_API FSH_NODISCARD int fsh_permutation_u32(fsh_rng *rng, uint32_t *out,
                                              uint32_t lo, uint32_t hi);

/* ------------------------------------------------------------------------ */
/* Statistics for audits                                                    */
/*
 * The distributions the audit command (fairshuf audit, docs/AUDIT.md) and
 * the statistical tests use: chi-square, normal and Poisson tails, and the
 * exact laws of permutation statistics under a uniform shuffle. Pure
 * computations: no rng, no allocation unless said. Tails are upper tails
 * computed directly (never 1 - lower), so tiny p-values keep their relative
 * accuracy (about 1e-12 for moderate arguments; tested to 1e-9 against
 * published values down to 1e-300). NaN, infinite or out-of-range
 * arguments and NULL outputs are FSH_EINVAL and leave the outputs unchanged.
 */

/* Regularized incomplete gamma functions for a > 0, x >= 0:
   *p = P(a, x) = gamma(a, x) / Gamma(a) and *q = Q(a, x) = 1 - P(a, x),
   each computed without cancellation (series where x < a + 1, Lentz's
   continued fraction otherwise). Either output may be NULL, not both. */
FSH_API FSH_NODISCARD int fsh_stats_gamma_pq(double a, double x, double *p,
                                             double *q);

/* *p = P(X >= x) for X chi-square with df > 0 degrees of freedom (x < 0
   gives 1). */
FSH_API FSH_NODISCARD int fsh_stats_chi2_sf(double x, double df, double *p);

/* *x = the upper p quantile of chi-square(df): P(X >= *x) = p, 0 < p < 1,
   to a relative accuracy of 1e-12 (bisection on fsh_stats_chi2_sf). */
FSH_API FSH_NODISCARD int fsh_stats_chi2_isf(double p, double df, double *x);

/* *p = P(Z >= z) for a standard normal Z (erfc, accurate far into both
   tails). */
FSH_API FSH_NODISCARD int fsh_stats_normal_sf(double z, double *p);

/* *p = P(X >= k) for X Poisson with mean lambda >= 0 (= P(k, lambda) for
   k >= 1; 1 for k = 0). */
FSH_API FSH_NODISCARD int fsh_stats_poisson_sf(uint64_t k, double lambda,
                                               double *p);

/* The exact law of the number of fixed points of a uniform permutation of
   n >= 1 items (rencontres numbers): pmf[k] = P(k fixed points) =
   D(n-k) / ((n-k)! k!) for k = 0..n, D the derangement numbers; pmf holds
   n + 1 values. Also the law of the number of positions where two
   independent uniform permutations agree. */
FSH_API FSH_NODISCARD int fsh_stats_fixed_points_law(size_t n, double *pmf);

/* The exact law of the number of successions (positions i with
   a[i+1] = a[i] + 1) of a uniform permutation of n >= 1 items: pmf[k] =
   C(n-1, k) (D(n-k) + D(n-k-1)) / n! for k = 0..n-1; pmf holds n values. */
FSH_API FSH_NODISCARD int fsh_stats_successions_law(size_t n, double *pmf);

/* The exact (Mahonian) law of the number of inversions of a uniform
   permutation of n items, 1 <= n <= 4096: pmf[k] for k = 0..n(n-1)/2, so
   len must be n(n-1)/2 + 1 (else FSH_EINVAL). Dynamic programming in long
   double, O(n^3) time; allocates O(len) (FSH_ENOMEM). Also the law of the
   Kendall distance between two independent uniform permutations. */
FSH_API FSH_NODISCARD int fsh_stats_inversions_law(size_t n, double *pmf,
                                                   size_t len);

/* Chi-square goodness of fit of counts obs[0..k) to the probabilities
   prob[0..k) (non-negative, summing to 1 within 1e-9) over total =
   sum obs trials. Adjacent categories are pooled from the left until
   each pooled group expects at least min_expected (>= 0) counts; a short
   last group joins the one before it. *stat = sum (O - E)^2 / E over the
   groups, *df = groups - 1, *p = the chi-square(df) upper tail (1 when
   df = 0). A count in a category of probability 0 gives *stat = INFINITY
   and *p = 0. Any output may be NULL. */
FSH_API FSH_NODISCARD int fsh_stats_chi2_gof(const uint64_t *obs,
                                             const double *prob, size_t k,
                                             double min_expected, double *stat,
                                             double *df, double *p);

/* ------------------------------------------------------------------------ */
/* Record shuffles by key                                                   */
/*
 * The permutation fairshuf (the command) gives n records, defined by n and
 * the rng alone, so it does not depend on memory limits, temporary files or
 * thread counts:
 * - n <= FSH_RECORDS_SMALL: fsh_shuffle with the rng.
 * - larger n: a 256-bit key, the rng's next 32 bytes (fsh_rng_bytes), and
 *   a bucket (Rao-Sandelius) scatter with 2^bits buckets, bits =
 *   fsh_records_bits(n): record i goes to bucket w_i >> (64 - bits), w_i =
 *   word i of ChaCha20(key, stream 0, counter 0) read as little-endian
 *   64-bit words; bucket b's records, in input order, are shuffled by
 *   fsh_shuffle with ChaCha20(key, stream b + 1, counter 0); the buckets
 *   are concatenated in order.
 * Uniform given uniform bucket ids: conditional on the bucket sizes every
 * arrangement is equally likely (docs/DESIGN.md). These values never change.
 * fsh_shuffle_records does the whole permutation in memory. The
 * fsh_records_* calls are its pieces, for records that do not fit in memory
 * (the command's external mode): compute bucket ids in passes, gather each
 * group of buckets, shuffle the group.
 */
#define FSH_RECORDS_SMALL ((uint64_t)1 << 20)
#define FSH_RECORDS_MAX_BITS 24

/* Apply the record permutation of n elements of size bytes at base, on up
   to threads threads (0 = all online cores); the output does not depend on
   threads. Reachability as fsh_shuffle (n! <= 2^bits unless simulation
   grade). Above FSH_RECORDS_SMALL it allocates a copy of the array, a
   histogram of threads x buckets counts and the bucket starts (bucket ids
   are recomputed in chunks, never stored); FSH_ENOMEM leaves the array
   unchanged. */
FSH_API FSH_NODISCARD int fsh_shuffle_records(fsh_rng *rng, void *base,
                                              size_t n, size_t size,
                                              unsigned threads);

/* log2 of the bucket count for n records; 0 when n <= FSH_RECORDS_SMALL. */
FSH_API unsigned fsh_records_bits(uint64_t n);

/* out[0..count) = bucket ids (in [0, 2^bits)) of records first ..
   first + count - 1; any split of the records gives the same ids. bits in
   1..FSH_RECORDS_MAX_BITS. */
FSH_API FSH_NODISCARD int fsh_records_buckets(const uint8_t key[32],
                                              uint32_t *out, size_t count,
                                              unsigned bits, uint64_t first);

/* Shuffle a group of records: base[0..n) (elements of size bytes) holds, in
   input order, every record whose bucket id is in [lo, lo + nb), and ids[i]
   is the bucket id of base[i]. Afterwards base holds those buckets in
   order, each shuffled with its own stream: the group's stretch of the
   record permutation. An id out of range is FSH_EINVAL; both leave base
   unchanged, as does FSH_ENOMEM (it allocates a copy of the group). */
FSH_API FSH_NODISCARD int fsh_records_shuffle_group(const uint8_t key[32],
                                                    void *base, size_t n,
                                                    size_t size,
                                                    const uint32_t *ids,
                                                    uint32_t lo, uint32_t nb,
                                                    unsigned threads);

/* ------------------------------------------------------------------------ */
/* Cards and decks                                                          */
/*
 * Card encoding: card = suit * 13 + (rank - 2), so 0..51.
 * rank 2..14 (11 = J, 12 = Q, 13 = K, 14 = A); suit 0 = clubs, 1 = diamonds,
 * 2 = hearts, 3 = spades. Names: "A♠", "10♥" (FSH_CARD_UNICODE) or poker
 * notation "As", "Th" (FSH_CARD_POKER).
 */

#define FSH_CARD_UNICODE 0
#define FSH_CARD_POKER 1

/* *card = the card of rank (2..14) and suit (0..3); FSH_EINVAL otherwise. */
FSH_API FSH_NODISCARD int fsh_card_make(uint32_t *card, int rank, int suit);
/* Rank 2..14 of card (0..51), or FSH_EINVAL. */
FSH_API int fsh_card_rank(uint32_t card);
/* Suit 0..3 of card (0..51), or FSH_EINVAL. */
FSH_API int fsh_card_suit(uint32_t card);

/* Write card's name (NUL-terminated) into buf of len bytes; 8 suffice.
   notation is FSH_CARD_UNICODE or FSH_CARD_POKER. */
FSH_API FSH_NODISCARD int fsh_card_name(char *buf, size_t len, uint32_t card,
                                        int notation);

/* *card = the card named by name in either notation ("A♠", "10♥", "As",
   "Th"); anything else (mixed notations, case changes, extra bytes) is
   FSH_EINVAL. */
FSH_API FSH_NODISCARD int fsh_card_parse(uint32_t *card, const char *name);

/* A deck with a dealing cursor; opaque. */
typedef struct fsh_deck fsh_deck;

/* New deck of n cards valued 0..n-1 (n = 52: the standard deck), all
   remaining. n of 0 or over 2^32 is FSH_EINVAL. */
FSH_API FSH_NODISCARD int fsh_deck_new(fsh_deck **out, size_t n);

/* New deck holding a copy of cards[0..n) (shoes, custom decks). */
FSH_API FSH_NODISCARD int fsh_deck_new_from(fsh_deck **out,
                                            const uint32_t *cards, size_t n);

/* Release the deck; NULL does nothing. */
FSH_API void fsh_deck_free(fsh_deck *deck);

/* O(1): return every card to the deck and start a new dealt prefix for
   reachability. Draws nothing: dealing is a lazy Fisher-Yates, so the next
   deal is uniform without reordering. */
FSH_API FSH_NODISCARD int fsh_deck_reset(fsh_deck *deck);

/* O(1): deal one uniformly chosen remaining card into *card. FSH_EEMPTY when
   none remain; FSH_EENTROPY (nothing dealt) if the rng cannot reach every
   ordered prefix of the deck dealt since the last fsh_deck_reset, this
   card included: d cards of n need n!/(n-d)! <= 2^bits. The deck draws in
   batches and keeps the unused draws for later deals; draws made under
   another keying (another rng, a re-key, a forked child's rekey) are
   dropped unseen, never dealt. */
FSH_API FSH_NODISCARD int fsh_deck_deal(fsh_rng *rng, fsh_deck *deck,
                                        uint32_t *card);

/* Deal k cards into out[0..k) in deal order; k > remaining is FSH_EEMPTY
   and deals nothing, as is FSH_EENTROPY (the prefix rule of fsh_deck_deal
   with the k cards). */
FSH_API FSH_NODISCARD int fsh_deck_deal_n(fsh_rng *rng, fsh_deck *deck,
                                          uint32_t *out, size_t k);

/* Cards left to deal. */
FSH_API size_t fsh_deck_remaining(const fsh_deck *deck);

/* Total cards in the deck. */
FSH_API size_t fsh_deck_size(const fsh_deck *deck);

/* ------------------------------------------------------------------------ */
/* Sampling                                                                 */
/*
 * Ordered samples: k of n items where every one of the n!/(n-k)! ordered
 * k-tuples is equally likely, in O(k) memory whatever n is.
 * - fsh_rangeperm: forward Fisher-Yates over [lo, hi] that stores only the
 *   displaced positions. Step i draws j uniform in [i, n-1], swaps
 *   positions i and j and returns the value now at i; the first k steps
 *   have n(n-1)...(n-k+1) equally likely outcomes, each giving a distinct
 *   ordered prefix.
 * - fsh_reservoir_slot: Algorithm R (Waterman; Knuth, The Art of Computer
 *   Programming vol. 2, 3.4.2) with exact draws: after a stream of any
 *   length the kept items are a uniform k-subset; shuffling them afterwards
 *   (fsh_shuffle) makes the order uniform as well. Skip-based variants
 *   (Li's Algorithm L) need floating point and are not exact, so they are
 *   not offered.
 */

/* A lazily built uniform permutation of [lo, hi]; opaque. */
typedef struct fsh_rangeperm fsh_rangeperm;

/* New permutation of the values lo..hi (0..UINT64_MAX covers all 2^64
   values); lo > hi is FSH_EINVAL. hint = expected number of draws (0:
   unknown); it sizes the storage, never changes the output. */
FSH_API FSH_NODISCARD int fsh_rangeperm_new(fsh_rangeperm **out, uint64_t lo,
                                            uint64_t hi, size_t hint);

/* Release the permutation; NULL does nothing. */
FSH_API void fsh_rangeperm_free(fsh_rangeperm *perm);

/* *out = next element of the permutation (position j uniform in
   [drawn, n-1]); FSH_EEMPTY once all n values were drawn. Expected O(1).
   FSH_EENTROPY (nothing drawn) if the rng cannot reach every ordered
   prefix drawn so far, this draw included: d draws of n values need
   n!/(n-d)! <= 2^bits. */
FSH_API FSH_NODISCARD int fsh_rangeperm_next(fsh_rng *rng,
                                             fsh_rangeperm *perm,
                                             uint64_t *out);

/* As fsh_rangeperm_next with the step's offset r = j - drawn supplied by the
   caller (an external source of uniform r in [0, n - 1 - drawn]); r out of
   range is FSH_EINVAL, used up is FSH_EEMPTY. No rng, so no entropy check:
   reachability is the caller's source's business. */
FSH_API FSH_NODISCARD int fsh_rangeperm_next_at(fsh_rangeperm *perm,
                                                uint64_t *out, uint64_t r);

/* Number of values drawn so far. */
FSH_API uint64_t fsh_rangeperm_drawn(const fsh_rangeperm *perm);

/* out[0..k) = k distinct values of [lo, hi] in uniformly random order, the
   first k steps of an fsh_rangeperm: O(k) time and memory for any range
   (the full 64-bit range works). k larger than the range, or lo > hi, is
   FSH_EINVAL; FSH_EENTROPY (out untouched) unless n!/(n-k)! <= 2^bits for
   the range's n values. */
FSH_API FSH_NODISCARD int fsh_sample_range(fsh_rng *rng, uint64_t *out,
                                           size_t k, uint64_t lo, uint64_t hi);

/* Algorithm R step for the stream item with 0-based index seen: *slot =
   seen while seen < k (fill the reservoir), else j uniform in [0, seen],
   with *slot = j when j < k (replace that slot) and *slot = k meaning
   "drop the item". k = 0 always drops and draws nothing. Reachability:
   a step that draws (seen >= k >= 1) returns FSH_EENTROPY unless every
   k-subset of the seen + 1 items so far is reachable, C(seen + 1, k) <=
   2^bits (the kept set; its order needs a separate shuffle, checked
   there). */
FSH_API FSH_NODISCARD int fsh_reservoir_slot(fsh_rng *rng, size_t *slot,
                                             size_t k, uint64_t seen);

#ifdef __cplusplus
}
#endif

#endif /* FAIRSHUF_H */
