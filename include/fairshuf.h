/* SPDX-License-Identifier: MIT */
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
 * - A caller's callback (fsh_rng_from_words, fsh_rng_from_randint) may
 *   call the library, but not on what the call it interrupts is using:
 *   drawing from, keying or setting its own rng, or dealing from,
 *   resetting or drawing from the deck or range permutation being dealt
 *   or drawn, is refused with FSH_EINVAL and changes nothing. It must not
 *   free any of them.
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

/* Attribute arguments are spelled __x__, reserved names, so that no macro of
   the including program (one called visibility, say) can change them. */
#if defined(_WIN32) && defined(FSH_BUILDING_DLL)
#define FSH_API __declspec(dllexport)
#elif defined(__GNUC__)
#define FSH_API __attribute__((__visibility__("default")))
#else
#define FSH_API
#endif

/* Warn when the caller ignores a status that says the call did nothing. */
#if defined(__GNUC__)
#define FSH_NODISCARD __attribute__((__warn_unused_result__))
#else
#define FSH_NODISCARD
#endif

/* Version of the linked library (may differ from FSH_VERSION_NUMBER). */
FSH_API unsigned fsh_version_number(void);

/* The same version as text, "MAJOR.MINOR.PATCH" ("0.2.0"); static, never
   NULL. docs/VERSIONING.md says what each part promises. */
FSH_API const char *fsh_version_string(void);

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */

#define FSH_OK 0
#define FSH_EINVAL (-1)    /* bad argument: NULL, overflow, empty range, k > n */
#define FSH_ENOMEM (-2)    /* allocation failed */
#define FSH_EENTROPY (-3)  /* the rng cannot reach every outcome of this
                              call: seed too short, or beyond its hardware
                              entropy cap (see Reachability) */
#define FSH_EEMPTY (-4)    /* nothing left: the deck or permutation is used up */
#define FSH_ECALLBACK (-5) /* a user callback returned a value out of range */
#define FSH_ESYSRAND (-6)  /* the OS random source failed (errno says why),
                              or the rng is unkeyed since it did */
#define FSH_ESEED (-7)     /* provably fair round: the server seed is too
                              short for this game (fsh_fair_seed_min) */
#define FSH_ENOHWRAND (-8) /* the call needs more than the 256-bit key can
                              reach, and no hardware entropy source is there
                              to mix in (see Reachability) */

/* Message for a status code; never NULL; unknown codes give "unknown error". */
FSH_API const char *fsh_strerror(int status);

/* ------------------------------------------------------------------------ */
/* Random word sources (fsh_rng)                                            */
/*
 * An fsh_rng hands out uniform 64-bit words from one of these generators:
 * - ChaCha8, ChaCha12, ChaCha20: a 256-bit key, 64-bit stream id and 64-bit
 *   block counter (the original 64-bit-nonce layout, as in libsodium's
 *   crypto_stream_chacha20). Words are the keystream read 8 bytes at a time,
 *   little-endian. An rng keyed from the OS (fsh_rng_new, fsh_rng_rekey)
 *   runs ChaCha8: no published attack reaches 8 rounds, and it is the
 *   fastest (docs/DESIGN.md, "The default generator"). A seeded one
 *   (fsh_rng_new_seeded, fsh_rng_seed) runs ChaCha20, whose seeded stream
 *   never changes (docs/STREAMS.md). fsh_rng_rekey_gen / fsh_rng_seed_gen
 *   pick any of them.
 * - xoshiro256++ (Blackman & Vigna), seeded through SplitMix64: fast,
 *   simulation grade (reaches at most 2^64 orders per seed).
 * - A user callback returning uniform 64-bit words, or one returning a uniform
 *   integer in [1, k] (fsh_rng_from_randint).
 *
 * Reachability: every call that produces an order or a subset knows the
 * bits its outcomes need, b = log2 of their number: log2 n! for a shuffle
 * of n (52 cards: 225.6; 58 cards: 260.4), log2(n!/(n-k)!) for an ordered
 * k of n, log2 C(n, k) for an unordered k of n (fsh_ordered_bits,
 * fsh_subset_bits; a multiset's orders: fsh_multiset_bits). A generator
 * driven by one key of s bits reaches at most 2^s outcomes, so:
 * - A seeded or raw-keyed generator (fsh_rng_seed*: s = 8 * seed bytes, at
 *   most 256; fsh_rng_key_chacha: 256) refuses any call with b > s:
 *   FSH_EENTROPY, nothing changed (a 32-byte seed shuffles 57 cards, not
 *   58), unless the caller opted into simulation grade with
 *   fsh_rng_set_simulation(); xoshiro256++ (64-bit state) is simulation
 *   grade by construction.
 * - The default OS-keyed ChaCha generator (fsh_rng_new, fsh_rng_rekey*)
 *   mixes hardware entropy into a call with b > 256 (RDSEED on x86-64): the
 *   draws are cut into groups whose joint outcomes number at most 2^256,
 *   and every group after the first runs on a fresh key, SHA-256 of the
 *   stream and 256 new hardware bits, so the randomness behind that one
 *   call carries at least b bits. How far it goes is the rng's reach policy
 *   (fsh_rng_set_reach) and its hardware cap (fsh_rng_set_hw_cap): by
 *   default up to 65,536 hardware bits per call (shuffles of up to 5,808
 *   elements; about 2 ms of RDSEED here), and above that the call runs
 *   bounded by the key, as every 256-bit generator is; without a hardware
 *   source, calls with 256 < b that the cap covers fail with FSH_ENOHWRAND.
 *   Such a call is all or nothing when the source fails, part-way too: a
 *   shuffle or permutation holds its hardware words (32 bytes a reseed,
 *   about log2(n) / 8 bytes an element) from before its first draw to its
 *   end; the deck and fsh_sample_range over its array draw them a few KiB
 *   at a time and put back what they changed if one cannot be had.
 *   docs/FAIRNESS.md ("Reachability") has the rule and the figures.
 * - Callback sources (fsh_rng_from_words, fsh_rng_from_randint) are taken
 *   as true sources of independent uniform values: every draw comes from
 *   them (in the scatter shuffle of large arrays, four of a word source's
 *   words key ChaCha streams instead, and in the record permutation
 *   above FSH_RECORDS_SMALL the next 32 bytes of either source key its
 *   buckets, unless fsh_rng_set_direct).
 * Incremental calls check what they have produced so far: see
 * fsh_deck_deal_n, fsh_rangeperm_next, fsh_reservoir_slot; a prefix (or
 * Algorithm R stream) that went bound by the key stays so until it
 * restarts, and each later call on it runs only if the drawing rng's
 * policy accepts that (strict FULL refuses it: FSH_ENOHWRAND while no
 * hardware source is there, FSH_EENTROPY once one is, since mixing it in
 * can no longer make the prefix reach every outcome). Words, bytes and
 * single bounded integers (fsh_rng_u64, fsh_rng_bytes, fsh_uniform*) are
 * neither and are never refused for entropy.
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
   FSH_ESYSRAND if neither works, with errno from the last failing call
   (buf may then be partly written); never a weaker source. */
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

/* (Re)key as ChaCha8 (the default generator; ChaCha20 before 0.3) with 256
   bits from the OS; FSH_ESYSRAND (errno kept) leaves the rng unkeyed (see
   above). Fork-safe: the first call using the
   rng in a child process detects the fork and rekeys it from the OS, so the
   child never repeats the parent's words, nor any object's randomness drawn
   before the fork (a deck's pending draws are dropped); if the child cannot
   get OS randomness, that call returns FSH_ESYSRAND and the rng is unkeyed
   (never a stream the parent could predict). A fork in the middle of a
   shuffle, permutation or record shuffle (from a signal handler) is
   caught when the call ends: the child's array is shuffled again from its
   own key, or the call returns FSH_ESYSRAND. Calling fsh_rng_rekey in the
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
   every size; fsh_shuffle_records above FSH_RECORDS_SMALL keys its
   buckets from 32 byte draws instead, unless fsh_rng_set_direct);
   word-level calls (fsh_rng_u64, fsh_rng_bytes) draw bytes with k = 256.
   A return outside [1, k] makes the call fail with FSH_ECALLBACK.
   Credited with full entropy. */
FSH_API FSH_NODISCARD int fsh_rng_from_randint(
    fsh_rng *rng, uint64_t (*randint)(void *ctx, uint64_t k), void *ctx);

/* Opt in (on != 0) or out of simulation grade: allow shuffles larger than the
   seed's entropy can reach, with no hardware mixing. The choice stays with the rng across re-keying
   (fsh_rng_seed, fsh_rng_rekey, ...) until changed. */
FSH_API FSH_NODISCARD int fsh_rng_set_simulation(fsh_rng *rng, int on);

/* Reach policy of an OS-keyed ChaCha rng (others ignore it: see
   Reachability), flags:
   FSH_REACH_FULL       mix hardware entropy into calls beyond the key, up
                        to the hardware cap, so they reach every outcome;
   FSH_REACH_KEY_LARGE  above the cap, run bounded by the key (else
                        FSH_EENTROPY);
   FSH_REACH_KEY        wherever full reach is not delivered (no hardware
                        source, or above the cap), run bounded by the key
                        (else FSH_ENOHWRAND / FSH_EENTROPY).
   FSH_REACH_DEFAULT = FULL | KEY_LARGE. FSH_REACH_FULL alone is strict:
   every call reaches all its outcomes or fails. FSH_REACH_KEY alone never
   uses hardware (the behaviour before 0.3). FULL | KEY never fails for
   entropy (the command's choice). 0 refuses every call beyond 256 bits.
   Kept across re-keying. Unknown bits are FSH_EINVAL. */
#define FSH_REACH_FULL 1u
#define FSH_REACH_KEY_LARGE 2u
#define FSH_REACH_KEY 4u
#define FSH_REACH_DEFAULT (FSH_REACH_FULL | FSH_REACH_KEY_LARGE)
FSH_API FSH_NODISCARD int fsh_rng_set_reach(fsh_rng *rng, unsigned flags);
FSH_API unsigned fsh_rng_get_reach(const fsh_rng *rng);

/* Most hardware bits one call may mix in (a multiple of 256 is used:
   256 per group after the first). Default FSH_HW_CAP_DEFAULT = 65,536:
   shuffles up to 5,808 elements (ordered samples: as many outcomes), at
   most about 2 ms of RDSEED (33 to 83 Mbit/s measured). A 10^6-element
   shuffle needs about 18.5 Mbit (0.45 to 0.74 s with the cap raised).
   Kept across re-keying. */
#define FSH_HW_CAP_DEFAULT UINT64_C(65536)
FSH_API FSH_NODISCARD int fsh_rng_set_hw_cap(fsh_rng *rng, uint64_t bits);
FSH_API uint64_t fsh_rng_get_hw_cap(const fsh_rng *rng);

/* Certified-source mode (on != 0): every index of every shuffle is drawn
   from the rng's own words, never from a stream it keys (the scatter
   shuffle of large arrays, see the stream versions below, and the record
   permutation above FSH_RECORDS_SMALL do that otherwise): Fisher-Yates at
   every size, one thread (docs/PERFORMANCE.md has the cost). Meant for
   fsh_rng_from_words; allowed on any rng. Kept across re-keying
   (fsh_mpi_shuffle, fairshuf_mpi.h, refuses it above FSH_RECORDS_SMALL).
   fsh_rng_get_direct: 1 when the mode is on, 0 when off or rng is NULL. */
FSH_API FSH_NODISCARD int fsh_rng_set_direct(fsh_rng *rng, int on);
FSH_API int fsh_rng_get_direct(const fsh_rng *rng);

/* Stream versions (docs/STREAMS.md, "Stream versions"): which algorithm
   shuffles an array of each size, hence what a seed reproduces.
   - FSH_STREAM_V1: Fisher-Yates up to 24 MiB, the scatter shuffle above it
     with buckets of up to 2 MiB.
   - FSH_STREAM_V2 (0.3): the scatter shuffle above 12 MiB for elements of
     up to 8 bytes (above 24 MiB for larger ones, as version 1), with
     buckets of up to 1 MiB where a level has fewer than 512: faster from
     12 to 24 MiB and as fast beyond (docs/PERFORMANCE.md), exactly
     uniform as version 1.
   - FSH_STREAM_V3 (0.3): version 2, except that for elements of up to 8
     bytes the Fisher-Yates of arrays of more than 6 MiB and at most
     12 MiB, and the scatter shuffle's leaves, run forward (position b-1
     takes a uniform j < b, for b = 2, 3, ...: each order still 1/n!),
     which touches memory in order: up to 1.8x faster from 6 to 12 MiB and
     a little faster beyond (docs/PERFORMANCE.md).
   Versions 1 and 2 differ only for fsh_shuffle* and fsh_permutation* (and
   what is built on them) of more than 12 MiB (n * size) with an rng that
   is not in certified-source mode; 2 and 3 only for those of more than
   6 MiB with elements of up to 8 bytes (in certified-source mode, of
   6 to 12 MiB). Every other output is the same in all three.
   fsh_rng_set_stream_version(rng, v): v = 1, 2 or 3 pins that version for
   every keying of the rng (kept across re-keying); v = 0, the initial
   setting, lets the keying choose: an rng keyed from the OS runs the
   newest version (FSH_STREAM_LATEST; it has no stream to reproduce, and a
   later release may move it to a newer one), every other rng (seeded,
   raw-keyed, callbacks) runs version 1, so that a seed keeps its outputs.
   Other values of v: FSH_EINVAL, nothing changed. */
#define FSH_STREAM_V1 1u
#define FSH_STREAM_V2 2u
#define FSH_STREAM_V3 3u
#define FSH_STREAM_LATEST FSH_STREAM_V3
FSH_API FSH_NODISCARD int fsh_rng_set_stream_version(fsh_rng *rng,
                                                     unsigned version);

/* The stream version the rng's shuffles follow as it is keyed now (1, 2
   or 3); 0 for NULL. */
FSH_API unsigned fsh_rng_stream_version(const fsh_rng *rng);

/* Entropy the rng has drawn over its life: *os_bits from the OS (256 per
   OS keying, fork rekeys included), *hw_bits from the hardware source
   (256 per reseed). Either pointer may be NULL. Words handed out:
   fsh_rng_bits_used. */
FSH_API FSH_NODISCARD int fsh_rng_entropy_drawn(const fsh_rng *rng,
                                                uint64_t *os_bits,
                                                uint64_t *hw_bits);

/* 1 if this machine has a hardware entropy source the library uses
   (RDSEED, checked with CPUID), else 0. */
FSH_API int fsh_hw_entropy_available(void);

/* What an ordered k of n = last + 1 (a shuffle of n: k = n - 1 draws,
   last = n - 1) would do with rng: FSH_OK and *hw_bits, the hardware bits
   it would mix in (0: none), or the status it would fail with. */
FSH_API FSH_NODISCARD int fsh_rng_reach_plan(const fsh_rng *rng,
                                             uint64_t *hw_bits, uint64_t last,
                                             uint64_t k);

/* log2(n!/(n-k)!) (k <= n), log2 C(n, k), and log2 of the distinct orders
   of a multiset with counts[0..m) copies, (sum c)! / prod c!: the bits an
   ordered sample, a subset and a shoe's order need (floating point, for
   reports; the checks themselves are exact). Relative error below 1e-15
   for every argument (no cancellation at large k; the counts' total may
   pass 2^64); k > n gives 0. errno is kept. */
FSH_API double fsh_ordered_bits(uint64_t n, uint64_t k);
FSH_API double fsh_subset_bits(uint64_t n, uint64_t k);
FSH_API double fsh_multiset_bits(const uint64_t *counts, size_t m);

/* Bits of seed entropy credited to the rng's key (0..256). */
FSH_API unsigned fsh_rng_entropy_bits(const fsh_rng *rng);

/* Largest n whose every order the rng reaches (a shuffle of it is
   accepted and not key-bound): 8 * seed bytes decide for a seeded rng (57
   at 256 bits); an OS-keyed ChaCha rng with FSH_REACH_FULL and a hardware
   source: the largest n its hardware cap covers (5,808 by default), else
   57; SIZE_MAX for simulation grade and callback sources; 0 when unkeyed
   or NULL. */
FSH_API size_t fsh_rng_max_fair_n(const fsh_rng *rng);

/* *out = next uniform 64-bit word. With a randint callback, FSH_ECALLBACK
   is possible (the callback is not called again in that call once it has
   failed); FSH_ESYSRAND if the rng is unkeyed; otherwise never fails. */
FSH_API FSH_NODISCARD int fsh_rng_u64(fsh_rng *rng, uint64_t *out);

/* Fill buf with len uniform bytes (the word stream, little-endian). A
   randint callback that fails part-way (FSH_ECALLBACK) is not called again:
   buf keeps the whole 8-byte words drawn before the failed one (not to be
   used) and is unchanged from there on. */
FSH_API FSH_NODISCARD int fsh_rng_bytes(fsh_rng *rng, void *buf, size_t len);

/* Random bits handed out since keying: 64 per word consumed (for a randint
   callback, ceil(log2 k) per call). The words of the ChaCha streams the
   scatter shuffle keys from the rng count as its own; the record
   permutation's bucket streams do not (only the 32 key bytes it takes). */
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
 * or 1 is a no-op. NULL with n > 0, size 0, or n * size above PTRDIFF_MAX
 * (larger than any array can be) is FSH_EINVAL. The kernel is chosen by the array's size in bytes; which
 * kernel runs is fixed for each size and generator (docs/STREAMS.md), so a
 * seeded shuffle replays exactly. Extra memory is O(1) up to tens of MiB,
 * except that records of 96 to 4096 bytes may be shuffled through a
 * temporary index of 4 bytes per record plus one record (the same
 * permutation; if the index cannot be allocated they are shuffled in
 * place, with the same result); above that a scatter shuffle allocates
 * about 1 % of the array (on one thread, records of 768 to 4096 bytes
 * again through such an index, or in place without it, with the same
 * result), and
 * if that allocation fails the call returns FSH_ENOMEM with the array
 * still a permutation of its input, but not a uniform one (shuffle it
 * again). On
 * FSH_ECALLBACK the array is also a permutation of its input, and so it is
 * on the FSH_ESYSRAND of a forked child that could not rekey after a fork
 * in the middle of the call (see fsh_rng_rekey; the order is one the
 * parent may know). Every other failure leaves the array unchanged.
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
 * accuracy: about 1e-12 relative (checked to 2e-16 against mpmath) for
 * every finite argument, a up to 1e308 included. NaN, infinite or
 * out-of-range arguments and NULL outputs are FSH_EINVAL and leave the
 * outputs unchanged. None of them changes errno.
 */

/* Regularized incomplete gamma functions for a > 0, x >= 0:
   *p = P(a, x) = gamma(a, x) / Gamma(a) and *q = Q(a, x) = 1 - P(a, x),
   each computed without cancellation (for a >= 100 and x/a in about
   [0.19, 2.68] Temme's uniform asymptotic expansion; elsewhere the series
   where x < a + 1, Lentz's continued fraction otherwise, and for a < 1 a
   direct series for Q). Either output may be NULL, not both. */
FSH_API FSH_NODISCARD int fsh_stats_gamma_pq(double a, double x, double *p,
                                             double *q);

/* *p = P(X >= x) for X chi-square with df > 0 degrees of freedom (x <= 0
   gives 1; x and df finite). */
FSH_API FSH_NODISCARD int fsh_stats_chi2_sf(double x, double df, double *p);

/* *x = the upper p quantile of chi-square(df): P(X >= *x) = p, 0 < p < 1,
   to a relative accuracy of 1e-12 for every answer a double holds
   (bisection over the doubles, subnormals included): the largest double x
   with P(X >= x) >= p. A quantile below the smallest positive double gives
   0; one above the largest double is FSH_EINVAL. */
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
   each pooled group expects at least min_expected (>= 0) counts and more
   than 0; a short last group joins the one before it (total = 0: no
   group, so *stat = 0, *df = 0, *p = 1). *stat = sum (O - E)^2 / E over the
   groups, *df = groups - 1, *p = the chi-square(df) upper tail (1 when
   df = 0). A count in a category of probability 0 gives *stat = INFINITY
   and *p = 0. Any output may be NULL. */
FSH_API FSH_NODISCARD int fsh_stats_chi2_gof(const uint64_t *obs,
                                             const double *prob, size_t k,
                                             double min_expected, double *stat,
                                             double *df, double *p);

/* The groups fsh_stats_chi2_gof pools obs and prob into: *groups of them,
   their counts in gobs[0..*groups) and probabilities in gprob[0..*groups)
   (each array holds k values). A count in a category of probability 0 is
   FSH_EINVAL (fsh_stats_chi2_gof: *p = 0). */
FSH_API FSH_NODISCARD int fsh_stats_chi2_pool(const uint64_t *obs,
                                              const double *prob, size_t k,
                                              double min_expected,
                                              uint64_t *gobs, double *gprob,
                                              size_t *groups);

/* *p = P(X >= x) exactly, X = sum (O_i - E_i)^2 / E_i Pearson's statistic
   of counts O multinomial(total, prob[0..k)), E_i = total prob[i] (prob as
   for fsh_stats_chi2_gof; categories of probability 0 are left out),
   where the chi-square limit is only approximate (its far tail is too
   thin: with 5 expected per category, P(X >= its 1e-6 quantile) is about
   3e-6 to 5e-6). Each term is rounded up to a multiple of 1/64, so
   P(X >= x) <= *p <= P(X >= x - k/64): never below the exact tail.
   x <= 0 gives 1; total <= 2^52, x <= 1.5e7. Dynamic programming over
   the categories in long double: time about fsh_stats_pearson_steps (a
   few ns each; it grows as x^2 total sqrt(k)); memory
   fsh_stats_pearson_bytes, two tables of at most 2 sqrt(x total) + 7
   rows of 64 x long doubles (FSH_ENOMEM). */
FSH_API FSH_NODISCARD int fsh_stats_pearson_sf(uint64_t total,
                                               const double *prob, size_t k,
                                               double x, double *p);

/* *p >= P(X >= x) for Pearson's X = sum (O_i - E)^2 / E of counts O
   multinomial(total, uniform over k >= 1 cells), E = total / k, at any
   size (total <= 2^52): a Chernoff bound, the least over t in [0, 1/2) of
   E[e^(t X); B] e^(-t x) + P(not B), B every count within a box around E
   (P(not B) bounded by the binomial tails of one count), the expectation
   exact (a discrete Fourier transform in long double, with an allowance
   for its rounding): never below the exact tail, and above it by a factor
   of about (x - k + 1) sqrt(pi / (k - 1)) (the chi-square limit's
   Chernoff excess: 10 to 50 at tails of 1e-3 to 1e-9 for k = 3 to
   5040 and many counts; more with few counts a cell, 16 to 320 at 52
   cells of 5).
   x <= 0 gives 1; x above total (k - 1) gives 0 (so every x > 0 does for
   k = 1 or total = 0); any other x at most k - 1 gives 1.
   Time: about 18 transforms of length n, n a power of 2 near
   16 sqrt(total max(1, x / (k - 1))), at most 2^20 (0.1 s for 10^6
   counts over 52 cells); memory 4 n long doubles (FSH_ENOMEM). */
FSH_API FSH_NODISCARD int fsh_stats_pearson_equal_bound(uint64_t total,
                                                        size_t k, double x,
                                                        double *p);

/* *steps = the inner steps fsh_stats_pearson_sf takes for these arguments
   (0 when it needs none), computed in O(k log k): callers bound its
   time. It sorts a copy of the probabilities (k doubles: FSH_ENOMEM). */
FSH_API FSH_NODISCARD int fsh_stats_pearson_steps(uint64_t total,
                                                  const double *prob,
                                                  size_t k, double x,
                                                  double *steps);

/* *bytes = the most memory fsh_stats_pearson_sf holds at once for these
   arguments (its tables; 0 when it needs none), computed in O(k log k)
   as fsh_stats_pearson_steps (a sorted copy of the probabilities:
   FSH_ENOMEM): callers bound its memory, which its steps do not (258 MB
   within 5e7 steps). */
FSH_API FSH_NODISCARD int fsh_stats_pearson_bytes(uint64_t total,
                                                  const double *prob,
                                                  size_t k, double x,
                                                  double *bytes);

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
#define FSH_RECORDS_SMALL (UINT64_C(1) << 20)
#define FSH_RECORDS_MAX_BITS 24

/* Apply the record permutation of n elements of size bytes at base, on up
   to threads threads (0 = all online cores); the output does not depend on
   threads. Reachability as fsh_shuffle (n! <= 2^bits unless simulation
   grade; a mixing or direct-mode rng gets fsh_shuffle itself at every n,
   since the keyed buckets would bound it by their 256-bit key). Above
   FSH_RECORDS_SMALL it allocates a copy of the array, a histogram of
   threads x buckets counts and the bucket starts (bucket ids are
   recomputed in chunks, never stored); FSH_ENOMEM leaves the array
   unchanged there (where it runs fsh_shuffle, fsh_shuffle's rules). */
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
   unchanged, as does FSH_ENOMEM. It allocates a copy of the group and,
   for n >= nb, up to threads x nb bucket counts; for n < nb, 8 bytes per
   record in their place (so a few records of a wide range cost little). */
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
   remaining. n of 0 or over 2^32 - 1 is FSH_EINVAL. */
FSH_API FSH_NODISCARD int fsh_deck_new(fsh_deck **out, size_t n);

/* New deck holding a copy of cards[0..n) (shoes, custom decks). */
FSH_API FSH_NODISCARD int fsh_deck_new_from(fsh_deck **out,
                                            const uint32_t *cards, size_t n);

/* Wipe and release the deck (its cards and the dice behind their order);
   NULL does nothing. */
FSH_API void fsh_deck_free(fsh_deck *deck);

/* Return every card to the deck, restore the order it was made with (the
   canonical order of its set, or the cards given to fsh_deck_new_from) and
   start a new dealt prefix for reachability; the cut card stays where it
   is. O(cards dealt since the last reset): the deck undoes its swaps, last
   first. Draws nothing, and wipes the dice drawn ahead and those undone.
   The replay rule: a reset deck deals exactly as a fresh one made the same
   way, given the same rng state (the same seed gives the same deal on a
   reused deck). */
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
   with the k cards). Every deal, burn and hand deal is all or nothing: when
   the rng fails during it (FSH_ECALLBACK, FSH_ESYSRAND) the deck takes
   those cards back and out is not written. A mixing rng's hardware words
   are drawn as the deal reaches them, a few KiB at a time, whatever k,
   with the cards those drawn first would give. */
FSH_API FSH_NODISCARD int fsh_deck_deal_n(fsh_rng *rng, fsh_deck *deck,
                                          uint32_t *out, size_t k);

/* Cards left to deal. */
FSH_API size_t fsh_deck_remaining(const fsh_deck *deck);

/* Total cards in the deck. */
FSH_API size_t fsh_deck_size(const fsh_deck *deck);

/*
 * Card sets: m distinct faces, c copies of each, n = m * c cards. A card's
 * value is its face index 0..m-1 (copies are indistinguishable). The
 * canonical order, the order of a fresh deck or shoe, is copy 0 faces
 * 0..m-1, then copy 1 faces 0..m-1, ...: canonical[k] = k mod m.
 * - Standard set: d decks (copies), j = 0, 1 or 2 jokers per deck; faces
 *   0..51 are the card encoding above, face 52 the red joker "RJ" and face
 *   53 the black joker "BJ" (the same names in both notations), m = 52 + j.
 * - Custom set: the caller's m distinct names (1 to 31 bytes of UTF-8, no
 *   white space, ASCII or Unicode, no '"', '\\' or control character, C1
 *   included: docs/CARDS.md), any number of copies.
 * n is at most 2^32 - 1.
 */
typedef struct fsh_cardset fsh_cardset;

/* *out = the standard set of decks (>= 1) decks with jokers (0..2) jokers
   per deck; anything else is FSH_EINVAL (*out = NULL on every error). */
FSH_API FSH_NODISCARD int fsh_cardset_standard(fsh_cardset **out,
                                               unsigned decks,
                                               unsigned jokers);

/* *out = a set of faces cards named names[0..faces), copies of each
   (faces, copies >= 1). Names are copied. A bad or repeated name, or more
   than 2^32 - 1 cards, is FSH_EINVAL. */
FSH_API FSH_NODISCARD int fsh_cardset_custom(fsh_cardset **out,
                                             const char *const *names,
                                             size_t faces, unsigned copies);

/* Release the set; NULL does nothing. Decks made from it do not need it. */
FSH_API void fsh_cardset_free(fsh_cardset *set);

/* Cards in the set (n = faces * copies); 0 for NULL. */
FSH_API size_t fsh_cardset_size(const fsh_cardset *set);
/* Distinct faces (m); 0 for NULL. */
FSH_API size_t fsh_cardset_faces(const fsh_cardset *set);
/* Copies of each face (c); 0 for NULL. */
FSH_API unsigned fsh_cardset_copies(const fsh_cardset *set);
/* Jokers per deck of a standard set (0..2); FSH_EINVAL for NULL or a
   custom set. */
FSH_API int fsh_cardset_jokers(const fsh_cardset *set);

/* Write the name of face card (NUL-terminated) into buf of len bytes; 32
   suffice for every set. notation (FSH_CARD_UNICODE or FSH_CARD_POKER)
   matters for the 52 standard faces only; jokers are "RJ" and "BJ" in
   both, custom faces their names. card >= faces, a bad notation or a short
   buffer is FSH_EINVAL. */
FSH_API FSH_NODISCARD int fsh_cardset_name(const fsh_cardset *set, char *buf,
                                           size_t len, uint32_t card,
                                           int notation);

/* *card = the face named name: for a standard set any name fsh_card_parse
   takes, or "RJ" / "BJ" if the set has that joker; for a custom set one of
   its names exactly. Anything else is FSH_EINVAL. O(log m). */
FSH_API FSH_NODISCARD int fsh_cardset_parse(const fsh_cardset *set,
                                            uint32_t *card, const char *name);

/* log2 of the number of distinct orders of the set, n! / (c!)^m: the
   entropy a fair shuffle of it needs (one deck: 225.58; an 8-deck shoe:
   about 2,229). Computed from the exact integer while the count is
   below 2^64 (so 2 orders give exactly 1); above, from lgamma, with an absolute error
   below 1e-9 bits for n up to 10^5 and below 1e-4 bits at n = 2^32.
   -1 for NULL. */
FSH_API double fsh_cardset_order_bits(const fsh_cardset *set);

/* New deck holding the set's n cards in canonical order (k mod m). */
FSH_API FSH_NODISCARD int fsh_deck_new_set(fsh_deck **out,
                                           const fsh_cardset *set);

/*
 * Dealing as a table does. A round deals, in order: burn cards
 * (fsh_deck_burn), then hands (fsh_deck_deal_hands), then whatever the game
 * needs; fsh_deck_needs_shuffle tells when the cut card has come out.
 * Every card dealt is the next card of one deal order d (d[t] is the t-th
 * card dealt since the reset, a uniform order of the deck), and costs O(1).
 * Hands are laid out over d by fsh_hand_position:
 */
#define FSH_DEAL_ROUND_ROBIN 0 /* one card to each player in turn: pos = card * players + player */
#define FSH_DEAL_BLOCKS 1      /* each hand in one block: pos = player * cards + card */

/* *pos = the position in deal order, counted from the first card of the
   hands, of card `card` of hand `player` when players hands of cards cards
   are dealt with layout. player >= players, card >= cards, an unknown
   layout or an overflowing players * cards is FSH_EINVAL. */
FSH_API FSH_NODISCARD int fsh_hand_position(size_t *pos, size_t player,
                                            size_t card, size_t players,
                                            size_t cards, int layout);

/* Deal k cards face down (discarded): fsh_deck_deal_n's rules, no output. */
FSH_API FSH_NODISCARD int fsh_deck_burn(fsh_rng *rng, fsh_deck *deck,
                                        size_t k);

/* Deal players hands of cards cards: out[player * cards + card] is card
   `card` of hand `player`, the card at fsh_hand_position in the next
   players * cards cards of the deal order; the rest stays in the deck.
   players = 0, an unknown layout or an overflowing product is FSH_EINVAL;
   more cards than remain is FSH_EEMPTY (nothing dealt); FSH_EENTROPY as
   fsh_deck_deal_n. cards = 0 deals nothing. */
FSH_API FSH_NODISCARD int fsh_deck_deal_hands(fsh_rng *rng, fsh_deck *deck,
                                              uint32_t *out, size_t players,
                                              size_t cards, int layout);

/* Place the cut card after the first cards_before_cut cards of the deal
   order (0 removes it; more than the deck's size is FSH_EINVAL). It stays
   through resets. */
FSH_API FSH_NODISCARD int fsh_deck_set_cut(fsh_deck *deck,
                                           size_t cards_before_cut);

/* Where the cut card is (cards before it), 0 if there is none. */
FSH_API size_t fsh_deck_cut(const fsh_deck *deck);

/* 1 once the cut card is out (cards dealt since the reset >= the cut) or the
   deck is empty, else 0; FSH_EINVAL for NULL. The caller finishes the round
   and resets (reshuffles) before the next one. */
FSH_API int fsh_deck_needs_shuffle(const fsh_deck *deck);

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
   values); lo > hi is FSH_EINVAL. hint = the number of draws the caller
   means to make (0: unknown): the storage for that many is allocated here,
   at once, so a hint whose storage cannot be had is FSH_ENOMEM (errno
   ENOMEM) before anything is drawn; the draws up to the hint allocate
   nothing, and past it (or with hint 0) the storage grows as they come.
   A hint past the range's size counts as the size. It never changes the
   output. */
FSH_API FSH_NODISCARD int fsh_rangeperm_new(fsh_rangeperm **out, uint64_t lo,
                                            uint64_t hi, size_t hint);

/* Wipe and release the permutation (the values drawn and the order of the
   rest: its storage, zeroed where it was written); NULL does nothing. */
FSH_API void fsh_rangeperm_free(fsh_rangeperm *perm);

/* *out = next element of the permutation (position j uniform in
   [drawn, n-1]); FSH_EEMPTY once all n values were drawn. Expected O(1).
   FSH_EENTROPY (nothing drawn) if the rng cannot reach every ordered
   prefix drawn so far, this draw included: d draws of n values need
   n!/(n-d)! <= 2^bits. A mixing rng (OS-keyed ChaCha) re-keys from 256
   hardware bits at each draw where the prefix's current group would pass
   2^256 outcomes, or fails as its policy says (FSH_ENOHWRAND), see
   Reachability. */
FSH_API FSH_NODISCARD int fsh_rangeperm_next(fsh_rng *rng,
                                             fsh_rangeperm *perm,
                                             uint64_t *out);

/* out[0..k) = the next k elements, as k calls of fsh_rangeperm_next would
   give them: the same values from the same draws, the rng left in the same
   state, but several times faster on large ranges (the draws are made
   ahead of the steps and their memory is fetched meanwhile, as in
   fsh_sample_range). k = 0 draws nothing; k past the values left is
   FSH_EINVAL and none left FSH_EEMPTY, with nothing drawn. The checks come
   first for the whole batch: FSH_EENTROPY or FSH_ENOHWRAND if the rng
   cannot reach every ordered prefix up to the batch's end, FSH_ENOMEM
   (errno ENOMEM) if the storage for its steps cannot be had; then nothing
   is drawn, and the permutation is as it was (its storage too: the
   batch's is made before a mixing rng's hardware words are drawn and put
   in place after). A caller's word or [1, k] source that fails part-way leaves
   the steps before it made: their values in out, fsh_rangeperm_drawn
   counting them. */
FSH_API FSH_NODISCARD int fsh_rangeperm_next_n(fsh_rng *rng,
                                               fsh_rangeperm *perm,
                                               uint64_t *out, size_t k);

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
   FSH_EINVAL; the reachability rule of fsh_permutation applies with
   n!/(n-k)! outcomes (a seeded rng: FSH_EENTROPY unless n!/(n-k)! <=
   2^bits; an OS-keyed one mixes hardware entropy beyond 2^256 or returns
   FSH_ENOHWRAND). out is untouched when the checks, the storage
   (allocated at once; FSH_ENOMEM with errno ENOMEM when it cannot be had)
   or the hardware entropy fail, a hardware source that fails part-way
   included: over its array (a uint32 cell for each of the n = hi - lo + 1
   values, used when n <= 2^32 and floor((n - 1) / 10) < k, that is
   n <= 10 k, and it can be allocated; else the map) a mixing rng's
   hardware words are drawn a few KiB at a time and out is written at the
   end, over its map they are all drawn before the first value is
   written; a caller's word
   or [1, k] source that fails part-way (fsh_rng_from_words /
   fsh_rng_from_randint) leaves the values drawn before it in out. The
   storage is wiped before it is freed. */
FSH_API FSH_NODISCARD int fsh_sample_range(fsh_rng *rng, uint64_t *out,
                                           size_t k, uint64_t lo, uint64_t hi);

/* Algorithm R step for the stream item with 0-based index seen: *slot =
   seen while seen < k (fill the reservoir), else j uniform in [0, seen],
   with *slot = j when j < k (replace that slot) and *slot = k meaning
   "drop the item". k = 0 always drops and draws nothing. Reachability of
   the kept set (its order needs a separate shuffle, checked there): with
   a seeded rng a step that draws (seen >= k >= 1) returns FSH_EENTROPY
   unless C(seen + 1, k) <= 2^bits. The OS-keyed rng is reseeded with 256
   bits of hardware entropy each time log2 C(seen + 1, k) passes another
   256 bits beyond its key along one stream (the steps since seen = k, or
   since a step with another k), within its reach policy and cap, so it
   fails as the shuffles do (FSH_ENOHWRAND, or FSH_EENTROPY beyond the cap
   under FSH_REACH_FULL alone). */
FSH_API FSH_NODISCARD int fsh_reservoir_slot(fsh_rng *rng, size_t *slot,
                                             size_t k, uint64_t seen);

/* ------------------------------------------------------------------------ */
/* Provably fair rounds                                                     */
/*
 * Commit-reveal deals (docs/FAIRNESS.md, "Provably fair rounds", holds the
 * byte-level specification and test vectors). The operator draws a secret
 * server seed S of L bytes and publishes its commitment, the lowercase hex
 * SHA-256(S), before play; each player supplies a client seed (0 to 256
 * bytes of UTF-8 text); each round has a 64-bit nonce (0, 1, 2, ...). The deal order is a
 * deterministic function of (S, client seed, nonce) and the card set, so
 * once S is revealed anyone can recompute every round and check it against
 * the commitment (fairshuf verify, examples/verify_deal.py, web/verify.html).
 *
 * A card set here is (faces m, copies c): n = m * c cards, card values are
 * faces 0..m-1, and the shuffle's input is the canonical array
 * a[k] = k mod m (a fresh shoe: copy 0's faces 0..m-1, then copy 1's, ...).
 * The standard set with d decks and j jokers is m = 52 + j, c = d.
 *
 * The stream: the backward Fisher-Yates steps i = n-1..1 (range r = i + 1)
 * are cut from the top into groups whose range product stays below 2^256;
 * S is cut into ceil(L/32) segments of 32 bytes (the last may be shorter)
 * and group g draws from HMAC-SHA-256(key = segment g mod segments,
 * "fairshuf-deal-v1" || u32be(client length) || client || u64be(nonce) ||
 * u32be(g) || u64be(block)), block = 0, 1, ..., read as big-endian 64-bit
 * words; j = high half of x * r, redrawing while the low half is below
 * 2^64 mod r. out[t] = a[n-1-t] is the deal order. A set holds at most
 * FSH_FAIR_CARDS_MAX (2^32 - 1) cards, as every card set and deck: a
 * larger one is FSH_EINVAL (it was taken up to about 3e10 cards, whose
 * order no verifier but this function could rebuild). Group numbers are
 * 32 bits, and every set of at most 7 * 2^32 + 1 cards fits in 2^32
 * groups, so none of them is ever dealt from a wrapped group number that
 * would repeat group 0's words. No key is ever hashed
 * down (every segment is at most 32 bytes) and each group's outcomes fit in
 * a full segment's 2^256 keys (the last segment may be shorter: then the
 * seed as a whole, by the seed rule, carries the count), so every byte of a
 * seed of the required length takes part.
 *
 * Seed rule: L >= 32 and 8L >= ceil(log2(n! / (c!)^m)), the number of
 * distinct orders of the set (32 bytes for one deck, 279 for an 8-deck
 * shoe); shorter seeds are FSH_ESEED.
 */

#define FSH_FAIR_SEED_MIN 32      /* bytes: the floor of the seed rule */
#define FSH_FAIR_CARDS_MAX 4294967295u /* cards: the largest set, 2^32 - 1 */
#define FSH_FAIR_CLIENT_MAX 256   /* bytes: longest client seed */
#define FSH_FAIR_COMMIT_LEN 65    /* hex commitment, NUL included */
#define FSH_FAIR_ALGORITHM "fairshuf-deal-v1"

/* hex[0..65) = the commitment: lowercase hex SHA-256 of seed[0..len), NUL
   terminated. Any length is hashed (the seed rule is fsh_fair_order's);
   hex NULL, or seed NULL with len > 0, is FSH_EINVAL. */
FSH_API FSH_NODISCARD int fsh_fair_commit(char hex[FSH_FAIR_COMMIT_LEN],
                                          const uint8_t *seed, size_t len);

/* *bytes = the shortest server seed fsh_fair_order accepts for the set of
   `faces` faces times `copies` copies: max(32, ceil(ceil(log2(n!/(c!)^m))
   / 8)), computed exactly. faces or copies 0, or n over
   FSH_FAIR_CARDS_MAX (or SIZE_MAX / 4) is FSH_EINVAL. O(1) for sets of
   more than 2048 cards, but for the rare one whose count lies within 1e-6
   bits of a byte boundary: O(n) bounds in 128-bit floating point (12 to
   100 ns a card: minutes near the limit), and where they cannot settle
   it, or without 128-bit integers, the exact bignum, for which
   FSH_ENOMEM is possible. */
FSH_API FSH_NODISCARD int fsh_fair_seed_min(size_t *bytes, size_t faces,
                                            unsigned copies);

/* out[0..n) = the deal order of the round (server seed seed[0..len),
   client[0..client_len), nonce) for the set (faces, copies), n = faces *
   copies: out[0] is the first card dealt. The client seed is text: its
   bytes must be well-formed UTF-8 (a NUL is a character), as every
   verifier takes it. Bad arguments (NULL out or seed, client NULL with
   client_len > 0, client_len over 256, a client that is no UTF-8, the set's
   arguments as fsh_fair_seed_min: n at most FSH_FAIR_CARDS_MAX) are
   FSH_EINVAL, reported before FSH_ESEED; a seed shorter than
   fsh_fair_seed_min is FSH_ESEED; out is unchanged on failure. out must
   not overlap seed or client (it is written before they are read). O(n)
   time (an HMAC-SHA-256 every four draws: about 0.4 us a card in a set
   of 2^26 cards, so half an hour for the largest), no allocation except
   fsh_fair_seed_min's: the memory is the caller's out, 4 bytes a card
   (16 GiB for 2^32 - 1 cards). */
FSH_API FSH_NODISCARD int fsh_fair_order(uint32_t *out, size_t faces,
                                         unsigned copies, const uint8_t *seed,
                                         size_t len, const void *client,
                                         size_t client_len, uint64_t nonce);

/* Decode hex text[0..text_len) into out[0..cap): pairs of hex digits
   (either case), ASCII whitespace anywhere ignored. *len = the number of
   bytes (also when out is NULL, which only counts). An odd digit count,
   any other byte, or more than cap bytes (out not NULL) is FSH_EINVAL. */
FSH_API FSH_NODISCARD int fsh_fair_hex_decode(uint8_t *out, size_t cap,
                                              size_t *len, const char *text,
                                              size_t text_len);

#ifdef __cplusplus
}
#endif

#endif /* FAIRSHUF_H */
