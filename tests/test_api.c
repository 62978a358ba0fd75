/* SPDX-License-Identifier: MIT */
/* Public API contracts: argument checks, entropy refusal, callback errors,
 * fork safety and status strings. */
#include "check.h"
#include "common/wide.h"
#include "fake_hw.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int is_perm_u32(const uint32_t *a, size_t n, uint32_t first)
{
    unsigned char seen[256] = {0};
    for (size_t i = 0; i < n; i++) {
        uint32_t v = a[i] - first;
        if (v >= n || v >= 256 || seen[v])
            return 0;
        seen[v] = 1;
    }
    return 1;
}

static void test_rng_args(void)
{
    fsh_rng *rng;
    uint64_t w;
    uint8_t buf[16];
    CHECK_EQ(fsh_rng_new(NULL), FSH_EINVAL);
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    CHECK_EQ(fsh_rng_entropy_bits(rng), 256);
    /* 57 from the key; more with hardware mixing (tests/test_reach_hw.c). */
    CHECK(fsh_rng_max_fair_n(rng) >= 57);
    CHECK_EQ(fsh_rng_rekey(NULL), FSH_EINVAL);
    CHECK_EQ(fsh_rng_rekey_gen(rng, (fsh_gen)7), FSH_EINVAL);
    CHECK_EQ(fsh_rng_rekey_gen(rng, (fsh_gen)-1), FSH_EINVAL);
    for (int g = 0; g <= 3; g++)
        CHECK_EQ(fsh_rng_rekey_gen(rng, (fsh_gen)g), FSH_OK);
    CHECK_EQ(fsh_rng_seed(NULL, "x", 1), FSH_EINVAL);
    CHECK_EQ(fsh_rng_seed(rng, NULL, 1), FSH_EINVAL);
    CHECK_EQ(fsh_rng_seed(rng, NULL, 0), FSH_OK);
    CHECK_EQ(fsh_rng_seed_gen(rng, (fsh_gen)9, "x", 1), FSH_EINVAL);
    CHECK_EQ(fsh_rng_from_words(rng, NULL, NULL), FSH_EINVAL);
    CHECK_EQ(fsh_rng_from_randint(rng, NULL, NULL), FSH_EINVAL);
    CHECK_EQ(fsh_rng_set_simulation(NULL, 1), FSH_EINVAL);
    CHECK_EQ(fsh_rng_entropy_bits(NULL), 0);
    CHECK_EQ(fsh_rng_max_fair_n(NULL), 0);
    CHECK_EQ(fsh_rng_bits_used(NULL), 0);
    CHECK_EQ(fsh_rng_u64(NULL, &w), FSH_EINVAL);
    CHECK_EQ(fsh_rng_u64(rng, NULL), FSH_EINVAL);
    CHECK_EQ(fsh_rng_bytes(NULL, buf, 1), FSH_EINVAL);
    CHECK_EQ(fsh_rng_bytes(rng, NULL, 1), FSH_EINVAL);
    CHECK_EQ(fsh_rng_bytes(rng, NULL, 0), FSH_OK);
    CHECK_EQ(fsh_entropy(NULL, 1), FSH_EINVAL);
    CHECK_EQ(fsh_entropy(NULL, 0), FSH_OK);
    uint8_t e1[32], e2[32];
    CHECK_EQ(fsh_entropy(e1, sizeof e1), FSH_OK);
    CHECK_EQ(fsh_entropy(e2, sizeof e2), FSH_OK);
    CHECK(memcmp(e1, e2, sizeof e1) != 0);
    fsh_rng_free(rng);
    fsh_rng_free(NULL);
    CHECK_EQ(fsh_version_number(), FSH_VERSION_NUMBER);
    {
        char want[32];
        snprintf(want, sizeof want, "%d.%d.%d", FSH_VERSION_MAJOR,
                 FSH_VERSION_MINOR, FSH_VERSION_PATCH);
        CHECK(fsh_version_string() != NULL);
        CHECK(strcmp(fsh_version_string(), want) == 0);
    }
}

static void test_shuffle_args(void)
{
    fsh_rng *rng;
    uint32_t a[64];
    uint64_t p[4];
    uint32_t p32[4];
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);

    CHECK_EQ(fsh_shuffle(NULL, a, 4, 4), FSH_EINVAL);
    CHECK_EQ(fsh_shuffle(rng, NULL, 4, 4), FSH_EINVAL);
    CHECK_EQ(fsh_shuffle(rng, a, 4, 0), FSH_EINVAL);
    CHECK_EQ(fsh_shuffle(rng, a, SIZE_MAX / 2, 4), FSH_EINVAL); /* overflow */
    CHECK_EQ(fsh_shuffle(rng, a, 2, SIZE_MAX), FSH_EINVAL);
    /* No overflow, but more bytes than any array can hold: refused before
       anything is touched (it walked past the array). */
    CHECK_EQ(fsh_shuffle(rng, a, SIZE_MAX, 1), FSH_EINVAL);
    CHECK_EQ(fsh_shuffle(rng, a, (size_t)PTRDIFF_MAX + 1, 1), FSH_EINVAL);
    CHECK_EQ(fsh_shuffle(rng, a, (size_t)PTRDIFF_MAX / 8 + 1, 8), FSH_EINVAL);
    {
        uint64_t w = 7;
        CHECK_EQ(fsh_shuffle_u64(rng, &w, (size_t)PTRDIFF_MAX / 8 + 1),
                 FSH_EINVAL);
        CHECK(w == 7);
    }
    CHECK_EQ(fsh_shuffle(rng, NULL, 0, 4), FSH_OK);
    CHECK_EQ(fsh_shuffle_u32(rng, NULL, 3), FSH_EINVAL);
    CHECK_EQ(fsh_shuffle_u64(rng, NULL, 3), FSH_EINVAL);
    CHECK_EQ(fsh_shuffle_ptr(rng, NULL, 3), FSH_EINVAL);
    CHECK_EQ(fsh_shuffle_u32(NULL, a, 3), FSH_EINVAL);

    /* n of 0 and 1: no-op, no randomness consumed. */
    CHECK_EQ(fsh_rng_seed(rng, "0123456789abcdef0123456789abcdef", 32), FSH_OK);
    a[0] = 42;
    CHECK_EQ(fsh_shuffle(rng, a, 0, 4), FSH_OK);
    CHECK_EQ(fsh_shuffle(rng, a, 1, 4), FSH_OK);
    CHECK_EQ(fsh_shuffle(rng, a, 1, 1000), FSH_OK);
    CHECK_EQ(a[0], 42);
    CHECK_EQ(fsh_permutation(rng, p, 5, 5), FSH_OK); /* one value */
    CHECK(p[0] == 5);
    CHECK_EQ(fsh_rng_bits_used(rng), 0);

    /* Permutations: lo..hi inclusive; lo > hi and counts that do not fit
       in memory are refused, with out untouched. */
    p[0] = 77;
    CHECK_EQ(fsh_permutation(NULL, p, 0, 1), FSH_EINVAL);
    CHECK_EQ(fsh_permutation(rng, NULL, 0, 1), FSH_EINVAL);
    CHECK_EQ(fsh_permutation(rng, NULL, 1, 0), FSH_EINVAL);
    CHECK_EQ(fsh_permutation(rng, p, 1, 0), FSH_EINVAL);
    CHECK_EQ(fsh_permutation(rng, p, UINT64_MAX, 0), FSH_EINVAL);
    CHECK_EQ(fsh_permutation(rng, p, 0, UINT64_MAX), FSH_EINVAL);
    CHECK_EQ(fsh_permutation(rng, p, 1, UINT64_MAX), FSH_EINVAL);
    CHECK_EQ(fsh_permutation(rng, p, 0, (uint64_t)(SIZE_MAX / 8)), FSH_EINVAL);
    CHECK(p[0] == 77);
    CHECK_EQ(fsh_rng_bits_used(rng), 0);
    CHECK_EQ(fsh_permutation(rng, p, UINT64_MAX, UINT64_MAX), FSH_OK);
    CHECK(p[0] == UINT64_MAX);
    CHECK_EQ(fsh_permutation(rng, p, UINT64_MAX - 3, UINT64_MAX), FSH_OK);
    uint64_t sum = 0;
    for (int i = 0; i < 4; i++)
        sum += p[i] - (UINT64_MAX - 3);
    CHECK(sum == 6);
    p32[0] = 77;
    CHECK_EQ(fsh_permutation_u32(NULL, p32, 0, 1), FSH_EINVAL);
    CHECK_EQ(fsh_permutation_u32(rng, NULL, 0, 1), FSH_EINVAL);
    CHECK_EQ(fsh_permutation_u32(rng, p32, 1, 0), FSH_EINVAL);
    CHECK_EQ(fsh_permutation_u32(rng, p32, UINT32_MAX, 0), FSH_EINVAL);
    CHECK(p32[0] == 77);
    CHECK_EQ(fsh_permutation_u32(rng, p32, UINT32_MAX - 3, UINT32_MAX), FSH_OK);
    CHECK(is_perm_u32(p32, 4, UINT32_MAX - 3));
    CHECK_EQ(fsh_permutation_u32(rng, p32, 7, 7), FSH_OK);
    CHECK(p32[0] == 7);
    fsh_rng_free(rng);
}

/* Largest n with log2(n!) <= bits, computed independently. */
static size_t fair_n(unsigned bits)
{
    if (bits >= 256)
        return SIZE_MAX;
    size_t n = 1;
    while (lgamma((double)n + 2) / log(2.0) <= bits)
        n++;
    return n;
}

static void test_entropy(void)
{
    /* The documented figures: log2(52!) = 225.58. */
    CHECK_EQ(fsh_max_fair_n_for_bits(226), 52);
    CHECK_EQ(fsh_max_fair_n_for_bits(225), 51);
    CHECK_EQ(fsh_max_fair_n_for_bits(64), 20);
    CHECK_EQ(fsh_max_fair_n_for_bits(0), 1);
    CHECK(fsh_max_fair_n_for_bits(256) == SIZE_MAX);
    int bad = 0;
    for (unsigned b = 0; b < 256; b++)
        bad += fsh_max_fair_n_for_bits(b) != fair_n(b);
    CHECK_EQ(bad, 0);

    fsh_rng *rng;
    uint32_t a[64];
    uint64_t p[64];
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    /* Seed length L credits 8L bits (max 256). */
    static const struct {
        size_t len;
        unsigned bits;
        size_t n;
    } rows[] = {{0, 0, 1},    {1, 8, 5},    {8, 64, 20},  {28, 224, 51},
                {29, 232, 53}, {31, 248, 55}, {32, 256, 57},
                {100, 256, 57}};
    static const char seed[100] = "some seed material";
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        CHECK_EQ(fsh_rng_seed(rng, seed, rows[r].len), FSH_OK);
        CHECK_EQ(fsh_rng_entropy_bits(rng), rows[r].bits);
        CHECK(fsh_rng_max_fair_n(rng) == rows[r].n);
    }
    /* 8 bytes: 52 cards refused, 20 allowed, 21 refused. */
    CHECK_EQ(fsh_rng_seed(rng, "8 bytes!", 8), FSH_OK);
    for (uint32_t i = 0; i < 52; i++)
        a[i] = i;
    CHECK_EQ(fsh_shuffle_u32(rng, a, 52), FSH_EENTROPY);
    int untouched = 1;
    for (uint32_t i = 0; i < 52; i++)
        untouched &= a[i] == i;
    CHECK(untouched);
    CHECK_EQ(fsh_shuffle_u32(rng, a, 20), FSH_OK);
    CHECK_EQ(fsh_shuffle_u32(rng, a, 21), FSH_EENTROPY);
    /* A refused permutation leaves out unchanged (it is filled only once
       the checks pass). */
    uint32_t p32[64];
    for (size_t i = 0; i < 64; i++)
        p[i] = 77, p32[i] = 77;
    CHECK_EQ(fsh_permutation(rng, p, 0, 20), FSH_EENTROPY);
    CHECK_EQ(fsh_permutation_u32(rng, p32, 5, 25), FSH_EENTROPY);
    untouched = 1;
    for (size_t i = 0; i < 64; i++)
        untouched &= p[i] == 77 && p32[i] == 77;
    CHECK(untouched);
    CHECK_EQ(fsh_permutation(rng, p, 0, 19), FSH_OK);
    /* Simulation grade allows it; turning it off refuses again. */
    CHECK_EQ(fsh_rng_set_simulation(rng, 1), FSH_OK);
    CHECK(fsh_rng_max_fair_n(rng) == SIZE_MAX);
    CHECK_EQ(fsh_rng_entropy_bits(rng), 64);
    CHECK_EQ(fsh_shuffle_u32(rng, a, 52), FSH_OK);
    CHECK_EQ(fsh_permutation(rng, p, 0, 51), FSH_OK);
    CHECK_EQ(fsh_rng_set_simulation(rng, 0), FSH_OK);
    CHECK_EQ(fsh_shuffle_u32(rng, a, 52), FSH_EENTROPY);
    /* A 32-byte seed is enough. */
    CHECK_EQ(fsh_rng_seed(rng, seed, 32), FSH_OK);
    CHECK_EQ(fsh_shuffle_u32(rng, a, 52), FSH_OK);
    /* xoshiro is simulation grade by construction. */
    CHECK_EQ(fsh_rng_key_xoshiro(rng, 1), FSH_OK);
    CHECK_EQ(fsh_shuffle_u32(rng, a, 52), FSH_OK);
    fsh_rng_free(rng);
}

/* A randint callback that answers out of range on call number bad_at. */
struct liar {
    uint64_t calls, bad_at, bad_value_kind;
};
static uint64_t liar_randint(void *ctx, uint64_t k)
{
    struct liar *l = ctx;
    uint64_t c = l->calls++;
    if (c == l->bad_at)
        return l->bad_value_kind == 0 ? 0 : k + 1;
    return 1 + (c * 7) % k;
}

/* fsh_rng_u64(3): a randint callback that fails is not called again in
   that call (a device or a counter behind it sees no draw after the
   failure); fsh_rng_bytes keeps the whole words drawn before the failed
   one and leaves the rest of buf as it was. Byte draw c answers
   1 + (c * 7) % 256, so byte c of the stream is (c * 7) % 256. */
static void test_callback_stops(void)
{
    fsh_rng *rng;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    for (uint64_t kind = 0; kind < 2; kind++)
        for (uint64_t at = 0; at < 21; at++) {
            struct liar l = {0, at, kind};
            CHECK_EQ(fsh_rng_from_randint(rng, liar_randint, &l), FSH_OK);
            uint8_t b[21];
            memset(b, 0xEE, sizeof b);
            /* 21 bytes: two words and a partial one, 24 draws. */
            CHECK_EQ(fsh_rng_bytes(rng, b, sizeof b), FSH_ECALLBACK);
            CHECK_EQ(l.calls, at + 1);
            size_t kept = (size_t)(at / 8 * 8);
            int ok = 1;
            for (size_t i = 0; i < sizeof b; i++)
                ok &= b[i] == (i < kept ? (uint8_t)(i * 7 % 256) : 0xEE);
            CHECK(ok);
            /* The next call starts afresh. */
            l.calls = 0;
            l.bad_at = UINT64_MAX;
            CHECK_EQ(fsh_rng_bytes(rng, b, sizeof b), FSH_OK);
            CHECK_EQ(l.calls, 24);
            if (at < 8) {
                uint64_t u = 777;
                l.calls = 0;
                l.bad_at = at;
                CHECK_EQ(fsh_rng_u64(rng, &u), FSH_ECALLBACK);
                CHECK_EQ(l.calls, at + 1);
                CHECK(u == 777);
            }
        }
    fsh_rng_free(rng);
}

static void test_callback_errors(void)
{
    fsh_rng *rng;
    uint32_t a[10];
    uint64_t p[10], u;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    for (uint64_t kind = 0; kind < 2; kind++)
        for (uint64_t at = 0; at < 9; at++) {
            struct liar l = {0, at, kind};
            CHECK_EQ(fsh_rng_from_randint(rng, liar_randint, &l), FSH_OK);
            for (uint32_t i = 0; i < 10; i++)
                a[i] = 100 + i;
            CHECK_EQ(fsh_shuffle_u32(rng, a, 10), FSH_ECALLBACK);
            CHECK(is_perm_u32(a, 10, 100));
            /* The error is not sticky: the next operation is fine. */
            CHECK_EQ(fsh_shuffle_u32(rng, a, 10), FSH_OK);
            CHECK(is_perm_u32(a, 10, 100));

            l.calls = 0;
            CHECK_EQ(fsh_permutation(rng, p, 0, 9), FSH_ECALLBACK);
            l.calls = 0;
            uint32_t cards[4];
            fsh_deck *d;
            CHECK_EQ(fsh_deck_new(&d, 10), FSH_OK);
            CHECK_EQ(fsh_deck_deal_n(rng, d, cards, 4),
                     at < 4 ? FSH_ECALLBACK : FSH_OK);
            fsh_deck_free(d);
            l.calls = 0;
            for (uint32_t i = 0; i < 10; i++)
                a[i] = 100 + i;
            /* (0.1's fsh_shuffle_randint: fsh_shuffle with a randint rng.) */
            CHECK_EQ(fsh_shuffle(rng, a, 10, sizeof a[0]), FSH_ECALLBACK);
            CHECK(is_perm_u32(a, 10, 100));
            /* A word or bounded integer whose draw failed is not written
               ("a call that fails leaves its outputs unchanged"): *out
               kept its value (before the fix, the word of the draws made,
               the failed one read as 0). */
            l.calls = 0;
            l.bad_at = 0;
            u = 777;
            CHECK_EQ(fsh_uniform(rng, &u, 10), FSH_ECALLBACK);
            CHECK(u == 777);
            l.calls = 0;
            l.bad_at = at % 8; /* a word is 8 byte draws */
            CHECK_EQ(fsh_rng_u64(rng, &u), FSH_ECALLBACK);
            CHECK(u == 777);
            CHECK_EQ(fsh_rng_u64(rng, &u), FSH_OK);
            u = 777;
            l.calls = 0;
            CHECK_EQ(fsh_uniform_range(rng, &u, 0, UINT64_MAX), FSH_ECALLBACK);
            CHECK(u == 777);
            l.calls = 0;
            l.bad_at = 0; /* one draw */
            CHECK_EQ(fsh_uniform_range(rng, &u, 5, 1000), FSH_ECALLBACK);
            CHECK(u == 777);
            /* Bytes: the error of any of the draws, then a clean call. */
            uint8_t bytes[20];
            l.calls = 0;
            l.bad_at = at * 2; /* draw 0..16 of the 20 bytes */
            CHECK_EQ(fsh_rng_bytes(rng, bytes, sizeof bytes), FSH_ECALLBACK);
            CHECK_EQ(fsh_rng_bytes(rng, bytes, sizeof bytes), FSH_OK);
        }
    /* A randint source makes words from 8 draws of k = 256 (8 bits each). */
    struct liar ok = {0, UINT64_MAX, 0};
    CHECK_EQ(fsh_rng_from_randint(rng, liar_randint, &ok), FSH_OK);
    CHECK_EQ(fsh_rng_u64(rng, &u), FSH_OK);
    CHECK_EQ(ok.calls, 8);
    CHECK_EQ(fsh_rng_bits_used(rng), 64);
    /* Shuffles use one call per position, ceil(log2 k) bits each. */
    ok.calls = 0;
    CHECK_EQ(fsh_shuffle_u32(rng, a, 10), FSH_OK);
    CHECK_EQ(ok.calls, 9);
    /* bounds 10..2: 4+4+3+3+3+3+2+2+1 = 25 bits */
    CHECK_EQ(fsh_rng_bits_used(rng), 64 + 25);
    fsh_rng_free(rng);
}

/* Fork safety: after fork, parent and child draw different words, even when
   the parent had buffered words before the fork. */
static void test_fork(void)
{
    static const int gens[] = {FSH_GEN_CHACHA20, FSH_GEN_CHACHA8,
                               FSH_GEN_XOSHIRO256PP};
    for (size_t g = 0; g < sizeof gens / sizeof gens[0]; g++)
        for (int predraw = 0; predraw < 2; predraw++) {
            fsh_rng *rng;
            uint64_t w, mine[4], theirs[4];
            CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
            CHECK_EQ(fsh_rng_rekey_gen(rng, (fsh_gen)gens[g]), FSH_OK);
            if (predraw)
                CHECK_EQ(fsh_rng_u64(rng, &w), FSH_OK);
            int fd[2];
            CHECK_EQ(pipe(fd), 0);
            fflush(NULL);
            pid_t pid = fork();
            if (pid == 0) {
                close(fd[0]);
                for (int i = 0; i < 4; i++)
                    if (fsh_rng_u64(rng, &theirs[i]) != FSH_OK)
                        _exit(2);
                ssize_t wr = write(fd[1], theirs, sizeof theirs);
                _exit(wr == (ssize_t)sizeof theirs ? 0 : 1);
            }
            CHECK(pid > 0);
            close(fd[1]);
            for (int i = 0; i < 4; i++)
                CHECK_EQ(fsh_rng_u64(rng, &mine[i]), FSH_OK);
            memset(theirs, 0, sizeof theirs);
            ssize_t got = read(fd[0], theirs, sizeof theirs);
            close(fd[0]);
            int status = 0;
            waitpid(pid, &status, 0);
            CHECK(got == (ssize_t)sizeof theirs);
            CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
            int same = 0;
            for (int i = 0; i < 4; i++)
                same += mine[i] == theirs[i];
            CHECK_EQ(same, 0);
            if (same)
                fprintf(stderr, "  fork: child repeated the parent's words "
                        "(gen %d, predraw %d)\n", gens[g], predraw);
            fsh_rng_free(rng);
        }
}

/* fsh_rng_entropy_drawn: *os_bits counts 256 per OS keying, a forked
   child's automatic rekey included; seeding and raw keys read none. */
static void test_os_bits(void)
{
    fsh_rng *rng;
    uint64_t os = 1, hw = 1, w;
    static const uint8_t key[32] = {3};
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    CHECK_EQ(fsh_rng_entropy_drawn(rng, &os, NULL), FSH_OK);
    CHECK_EQ(os, 256);
    CHECK_EQ(fsh_rng_rekey_gen(rng, FSH_GEN_XOSHIRO256PP), FSH_OK);
    CHECK_EQ(fsh_rng_seed(rng, "no OS bits", 10), FSH_OK);
    CHECK_EQ(fsh_rng_key_chacha(rng, 8, key, 0, 0), FSH_OK);
    CHECK_EQ(fsh_rng_entropy_drawn(rng, &os, &hw), FSH_OK);
    CHECK_EQ(os, 512);
    CHECK_EQ(hw, 0);
    CHECK_EQ(fsh_rng_rekey(rng), FSH_OK);
    CHECK_EQ(fsh_rng_u64(rng, &w), FSH_OK);
    int fd[2];
    CHECK_EQ(pipe(fd), 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        uint64_t child = 0;
        close(fd[0]);
        if (fsh_rng_u64(rng, &w) != FSH_OK ||
            fsh_rng_entropy_drawn(rng, &child, NULL) != FSH_OK)
            _exit(2);
        ssize_t wr = write(fd[1], &child, sizeof child);
        _exit(wr == (ssize_t)sizeof child ? 0 : 1);
    }
    CHECK(pid > 0);
    close(fd[1]);
    uint64_t child = 0;
    ssize_t got = read(fd[0], &child, sizeof child);
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(got == (ssize_t)sizeof child);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK_EQ(child, 1024); /* the parent's 768 and the child's rekey */
    CHECK_EQ(fsh_rng_entropy_drawn(rng, &os, NULL), FSH_OK);
    CHECK_EQ(os, 768);
    fsh_rng_free(rng);
}

/* A word source that counts its calls (splitmix64 of the count: the
   calls-th word of the sequence from state 0). */
static uint64_t counted_word(void *ctx)
{
    uint64_t *calls = ctx, state = (*calls)++ * UINT64_C(0x9E3779B97F4A7C15);
    return fake_splitmix64(&state);
}

static uint64_t any_randint(void *ctx, uint64_t k)
{
    (void)ctx;
    return k;
}

/* Words a record shuffle of FSH_RECORDS_SMALL + 1 records takes from a
   word source: 32 bytes of key (at most one read-ahead of 128 words)
   without certified-source mode, one Fisher-Yates draw per record with it
   (fsh_rng_set_direct: "every index ... drawn from the rng's own words"). */
static uint64_t record_words(fsh_rng *rng, uint32_t *a)
{
    uint64_t calls = 0;
    CHECK_EQ(fsh_rng_from_words(rng, counted_word, &calls), FSH_OK);
    CHECK_EQ(fsh_shuffle_records(rng, a, FSH_RECORDS_SMALL + 1, 4, 1),
             FSH_OK);
    return calls;
}

/* A [1, k] source counting its calls. */
static uint64_t counted_randint(void *ctx, uint64_t k)
{
    uint64_t *calls = ctx, state = (*calls)++ * UINT64_C(0x9E3779B97F4A7C15);
    return 1 + fake_splitmix64(&state) % k;
}

/* fsh_rng_from_randint(3): a shuffle makes one call per position at every
   size (n - 1 calls for FSH_RECORDS_SMALL + 1 elements, far above the
   scatter threshold), but the record permutation above
   FSH_RECORDS_SMALL keys its buckets from 32 byte draws (k = 256), unless
   certified-source mode makes it fsh_shuffle too. */
static void test_randint_records(void)
{
    fsh_rng *rng;
    uint64_t calls = 0;
    const size_t n = FSH_RECORDS_SMALL + 1;
    uint32_t *a = malloc(n * sizeof *a);
    CHECK(a != NULL);
    if (a == NULL)
        return;
    for (size_t i = 0; i < n; i++)
        a[i] = (uint32_t)i;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    CHECK_EQ(fsh_rng_from_randint(rng, counted_randint, &calls), FSH_OK);
    CHECK_EQ(fsh_shuffle_u32(rng, a, n), FSH_OK);
    CHECK_EQ(calls, n - 1);
    calls = 0;
    CHECK_EQ(fsh_shuffle_records(rng, a, n, sizeof *a, 1), FSH_OK);
    CHECK_EQ(calls, 32);
    calls = 0;
    CHECK_EQ(fsh_rng_set_direct(rng, 1), FSH_OK);
    CHECK_EQ(fsh_shuffle_records(rng, a, n, sizeof *a, 1), FSH_OK);
    CHECK_EQ(calls, n - 1);
    fsh_rng_free(rng);
    free(a);
}

/* fsh_rng_bits_used(3): the scatter shuffle's stream words count as the
   rng's own, the record permutation's bucket streams do not (its 32 key
   bytes do). A word source shows the difference: the scatter shuffle of
   24 MiB + 1 bytes takes four of its words (one read-ahead of 128 at
   most) but counts about one word per 8 elements; the record shuffle
   counts exactly its 4 key words. Under FSH_SANITIZE=1 the scatter case
   is left out (0.1 s here, some seconds there); the record case, which
   covers the bucket streams' side, still runs. */
static void test_bits_used_streams(void)
{
    fsh_rng *rng;
    uint64_t calls = 0;
    const size_t nr = FSH_RECORDS_SMALL + 1;
    uint32_t *rec = malloc(nr * sizeof *rec);
    CHECK(rec != NULL);
    if (rec == NULL)
        return;
    for (size_t i = 0; i < nr; i++)
        rec[i] = (uint32_t)i;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    CHECK_EQ(fsh_rng_from_words(rng, counted_word, &calls), FSH_OK);
    uint64_t before = fsh_rng_bits_used(rng);
    CHECK_EQ(fsh_shuffle_records(rng, rec, nr, sizeof *rec, 1), FSH_OK);
    CHECK_EQ(fsh_rng_bits_used(rng) - before, 256);
    CHECK(calls <= 128);
    free(rec);
    if (getenv("FSH_SANITIZE") == NULL) {
        const size_t n = ((size_t)24 << 20) + 1; /* the V1 scatter shuffle */
        unsigned char *a = malloc(n);
        CHECK(a != NULL);
        if (a != NULL) {
            for (size_t i = 0; i < n; i++)
                a[i] = (unsigned char)i;
            calls = 0;
            before = fsh_rng_bits_used(rng);
            CHECK_EQ(fsh_shuffle(rng, a, n, 1), FSH_OK);
            CHECK(calls <= 128);
            CHECK(fsh_rng_bits_used(rng) - before > 64 * (uint64_t)(n / 16));
            free(a);
        }
    }
    fsh_rng_free(rng);
}

/* Simulation grade, the reach policy, the hardware cap and certified-source
   mode are kept across every re-keying (fairshuf.h), each set to a
   non-default value first. */
static void test_settings_kept(void)
{
    fsh_rng *rng;
    static const uint8_t key[32] = {7};
    uint64_t calls = 0;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    CHECK_EQ(fsh_rng_set_simulation(rng, 1), FSH_OK);
    CHECK_EQ(fsh_rng_set_reach(rng, FSH_REACH_KEY), FSH_OK);
    CHECK_EQ(fsh_rng_set_hw_cap(rng, 512), FSH_OK);
    CHECK_EQ(fsh_rng_set_direct(rng, 1), FSH_OK);
    for (int step = 0; step < 8; step++) {
        /* observe: simulation grade shows in max_fair_n (a seeded or
           OS-keyed ChaCha rng alone stops at 57 or less). */
        int rc, observe = 1;
        switch (step) {
        case 0:
            rc = fsh_rng_rekey(rng);
            break;
        case 1:
            rc = fsh_rng_rekey_gen(rng, FSH_GEN_CHACHA20);
            break;
        case 2:
            rc = fsh_rng_seed(rng, "8 bytes!", 8);
            break;
        case 3:
            rc = fsh_rng_seed_gen(rng, FSH_GEN_CHACHA12, "8 bytes!", 8);
            break;
        case 4:
            rc = fsh_rng_key_chacha(rng, 20, key, 0, 0);
            break;
        case 5:
            rc = fsh_rng_key_xoshiro(rng, 1), observe = 0;
            break;
        case 6:
            rc = fsh_rng_from_randint(rng, any_randint, NULL), observe = 0;
            break;
        default:
            rc = fsh_rng_from_words(rng, counted_word, &calls), observe = 0;
            break;
        }
        check_seed = (uint64_t)step;
        CHECK_EQ(rc, FSH_OK);
        CHECK_EQ(fsh_rng_get_reach(rng), FSH_REACH_KEY);
        CHECK(fsh_rng_get_hw_cap(rng) == 512);
        CHECK_EQ(fsh_rng_get_direct(rng), 1);
        if (observe)
            CHECK(fsh_rng_max_fair_n(rng) == SIZE_MAX);
    }
    check_seed = 0;
    /* Certified-source mode, set before all those keyings, still holds. */
    uint32_t *a = malloc((FSH_RECORDS_SMALL + 1) * sizeof *a);
    CHECK(a != NULL);
    if (a != NULL) {
        for (size_t i = 0; i <= FSH_RECORDS_SMALL; i++)
            a[i] = (uint32_t)i;
        CHECK(record_words(rng, a) > FSH_RECORDS_SMALL / 4);
        CHECK_EQ(fsh_rng_set_direct(rng, 0), FSH_OK);
        CHECK_EQ(fsh_rng_get_direct(rng), 0);
        CHECK(record_words(rng, a) <= 128);
        free(a);
    }
    /* ... and the simulation choice is switched off the same way. */
    CHECK_EQ(fsh_rng_set_simulation(rng, 0), FSH_OK);
    CHECK_EQ(fsh_rng_seed(rng, "8 bytes!", 8), FSH_OK);
    CHECK_EQ(fsh_rng_max_fair_n(rng), 20);
    fsh_rng_free(rng);
}

/* Callback sources are credited with full entropy and never refused:
   fsh_rng_max_fair_n is SIZE_MAX for both kinds. */
static void test_callback_reach(void)
{
    fsh_rng *rng;
    uint64_t calls = 0;
    uint32_t a[64];
    for (uint32_t i = 0; i < 64; i++)
        a[i] = i;
    CHECK_EQ(fsh_rng_new_seeded(&rng, "x", 1), FSH_OK);
    CHECK_EQ(fsh_rng_max_fair_n(rng), 5);
    CHECK_EQ(fsh_rng_from_words(rng, counted_word, &calls), FSH_OK);
    CHECK(fsh_rng_max_fair_n(rng) == SIZE_MAX);
    CHECK_EQ(fsh_rng_entropy_bits(rng), 256);
    CHECK_EQ(fsh_shuffle_u32(rng, a, 64), FSH_OK);
    CHECK_EQ(fsh_rng_seed(rng, "x", 1), FSH_OK);
    CHECK_EQ(fsh_rng_from_randint(rng, any_randint, NULL), FSH_OK);
    CHECK(fsh_rng_max_fair_n(rng) == SIZE_MAX);
    CHECK_EQ(fsh_rng_entropy_bits(rng), 256);
    CHECK_EQ(fsh_shuffle_u32(rng, a, 64), FSH_OK);
    fsh_rng_free(rng);
}

/* A word source is read at most 128 words ahead of what was handed out
   (fsh_rng_from_words). */
static void test_read_ahead(void)
{
    fsh_rng *rng;
    uint64_t calls = 0, w, handed = 0;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    CHECK_EQ(fsh_rng_from_words(rng, counted_word, &calls), FSH_OK);
    CHECK_EQ(calls, 0);
    int worst = 0;
    for (int i = 0; i < 600; i++) {
        CHECK_EQ(fsh_rng_u64(rng, &w), FSH_OK);
        handed++;
        if (calls < handed || calls - handed > 128)
            worst++;
    }
    CHECK_EQ(worst, 0);
    fsh_rng_free(rng);
}

/* The setters and queries of the rng's policy refuse a NULL rng (and
   fsh_rng_reach_plan a NULL output or k > last + 1), as every call does. */
static void test_policy_args(void)
{
    fsh_rng *rng;
    uint64_t hw = 77;
    CHECK_EQ(fsh_rng_new_seeded(&rng, "policy", 6), FSH_OK);
    CHECK_EQ(fsh_rng_set_reach(NULL, FSH_REACH_DEFAULT), FSH_EINVAL);
    CHECK_EQ(fsh_rng_set_reach(rng, 0x80000000u), FSH_EINVAL);
    CHECK_EQ(fsh_rng_get_reach(rng), FSH_REACH_DEFAULT); /* unchanged */
    CHECK_EQ(fsh_rng_set_hw_cap(NULL, 1), FSH_EINVAL);
    CHECK_EQ(fsh_rng_set_direct(NULL, 1), FSH_EINVAL);
    /* fsh_rng_get_direct: off by default; any non-zero on is 1. */
    CHECK_EQ(fsh_rng_get_direct(rng), 0);
    CHECK_EQ(fsh_rng_set_direct(rng, 7), FSH_OK);
    CHECK_EQ(fsh_rng_get_direct(rng), 1);
    CHECK_EQ(fsh_rng_set_direct(rng, 0), FSH_OK);
    CHECK_EQ(fsh_rng_get_direct(rng), 0);
    CHECK_EQ(fsh_rng_set_stream_version(NULL, 1), FSH_EINVAL);
    CHECK_EQ(fsh_rng_entropy_drawn(NULL, &hw, &hw), FSH_EINVAL);
    CHECK_EQ(fsh_rng_reach_plan(NULL, &hw, 9, 9), FSH_EINVAL);
    CHECK_EQ(fsh_rng_reach_plan(rng, NULL, 9, 9), FSH_EINVAL);
    CHECK_EQ(fsh_rng_reach_plan(rng, &hw, 9, 11), FSH_EINVAL);
    CHECK_EQ(hw, 77);
    CHECK_EQ(fsh_rng_reach_plan(rng, &hw, 19, 19), FSH_EENTROPY); /* 20! */
    CHECK_EQ(hw, 77);
    CHECK_EQ(fsh_rng_reach_plan(rng, &hw, 3, 4), FSH_OK); /* 4! < 2^48 */
    CHECK_EQ(hw, 0);
    /* The getters give 0 for NULL (fsh_rng_set_reach(3), RETURN VALUE). */
    CHECK_EQ(fsh_rng_get_reach(NULL), 0);
    CHECK(fsh_rng_get_hw_cap(NULL) == 0);
    CHECK_EQ(fsh_rng_get_direct(NULL), 0);
    fsh_rng_free(rng);
}

/* A keying call refused for its arguments (fsh_rng_rekey(3), ERRORS:
   NULL rng, unknown gen or rounds, NULL key, NULL seed with len > 0, NULL
   callback) changes nothing: the rng goes on with the stream, credit and
   reach it had, word for word as a twin that was never asked. */
static void test_keying_refused(void)
{
    fsh_rng *rng = NULL, *twin = NULL;
    uint64_t calls = 0;
    static const uint8_t key[32] = {1};
    CHECK_EQ(fsh_rng_new_seeded(NULL, "x", 1), FSH_EINVAL);
    CHECK_EQ(fsh_rng_new_seeded(&rng, "keep", 4), FSH_OK);
    CHECK_EQ(fsh_rng_new_seeded(&twin, "keep", 4), FSH_OK);
    if (rng == NULL || twin == NULL)
        return;
    uint64_t w, v;
    CHECK_EQ(fsh_rng_u64(rng, &w), FSH_OK); /* a buffer part-used */
    CHECK_EQ(fsh_rng_u64(twin, &v), FSH_OK);
    int refused = 0;
    refused += fsh_rng_rekey(NULL) == FSH_EINVAL;
    refused += fsh_rng_rekey_gen(NULL, FSH_GEN_CHACHA8) == FSH_EINVAL;
    refused += fsh_rng_rekey_gen(rng, (fsh_gen)4) == FSH_EINVAL;
    refused += fsh_rng_seed(NULL, "x", 1) == FSH_EINVAL;
    refused += fsh_rng_seed(rng, NULL, 1) == FSH_EINVAL;
    refused += fsh_rng_seed_gen(NULL, FSH_GEN_CHACHA20, "x", 1) == FSH_EINVAL;
    refused += fsh_rng_seed_gen(rng, (fsh_gen)4, "x", 1) == FSH_EINVAL;
    refused += fsh_rng_seed_gen(rng, FSH_GEN_XOSHIRO256PP, NULL, 1) ==
               FSH_EINVAL;
    refused += fsh_rng_key_chacha(NULL, 20, key, 0, 0) == FSH_EINVAL;
    refused += fsh_rng_key_chacha(rng, 10, key, 0, 0) == FSH_EINVAL;
    refused += fsh_rng_key_chacha(rng, 20, NULL, 0, 0) == FSH_EINVAL;
    refused += fsh_rng_key_xoshiro(NULL, 1) == FSH_EINVAL;
    refused += fsh_rng_from_words(NULL, counted_word, &calls) == FSH_EINVAL;
    refused += fsh_rng_from_words(rng, NULL, &calls) == FSH_EINVAL;
    refused += fsh_rng_from_randint(NULL, any_randint, NULL) == FSH_EINVAL;
    refused += fsh_rng_from_randint(rng, NULL, NULL) == FSH_EINVAL;
    CHECK_EQ(refused, 16);
    CHECK_EQ(calls, 0);
    CHECK_EQ(fsh_rng_entropy_bits(rng), 32);
    CHECK_EQ(fsh_rng_max_fair_n(rng), fsh_rng_max_fair_n(twin));
    int same = 0;
    for (int i = 0; i < 200; i++) { /* past the buffer's end */
        CHECK_EQ(fsh_rng_u64(rng, &w), FSH_OK);
        CHECK_EQ(fsh_rng_u64(twin, &v), FSH_OK);
        same += w == v;
    }
    CHECK_EQ(same, 200);
    fsh_rng_free(twin);
    fsh_rng_free(rng);
}

/* "Nothing aborts, prints or sets errno on caller input": errno is the
   caller's across refused and accepted calls alike. */
static void test_errno_kept(void)
{
    fsh_rng *rng;
    fsh_deck *d = NULL;
    fsh_cardset *cs = NULL;
    fsh_rangeperm *p = NULL;
    uint32_t a[64], card;
    uint64_t o[64], u;
    size_t need;
    char hex[FSH_FAIR_COMMIT_LEN];
    static const char *const bad_names[2] = {"ok", "no good"};
    CHECK_EQ(fsh_rng_new_seeded(&rng, "8 bytes!", 8), FSH_OK);
    for (uint32_t i = 0; i < 64; i++)
        a[i] = i;
    errno = EDOM;
    int refused = 0;
    refused += fsh_shuffle(NULL, a, 4, 4) == FSH_EINVAL;
    refused += fsh_shuffle(rng, a, SIZE_MAX / 2, 4) == FSH_EINVAL;
    refused += fsh_shuffle(rng, a, 4, 0) == FSH_EINVAL;
    refused += fsh_shuffle_u32(rng, a, 52) == FSH_EENTROPY;
    refused += fsh_permutation(rng, o, 1, 0) == FSH_EINVAL;
    refused += fsh_uniform(rng, &u, 0) == FSH_EINVAL;
    refused += fsh_sample_range(rng, o, 11, 0, 9) == FSH_EINVAL;
    refused += fsh_sample_range(rng, o, 30, 0, 99) == FSH_EENTROPY;
    refused += fsh_rangeperm_new(&p, 2, 1, 0) == FSH_EINVAL;
    refused += fsh_deck_new(&d, 0) == FSH_EINVAL;
    refused += fsh_deck_new(&d, 2) == FSH_OK;
    refused += fsh_deck_deal_n(rng, d, a, 3) == FSH_EEMPTY;
    refused += fsh_deck_deal_hands(rng, d, a, 0, 1, 0) == FSH_EINVAL;
    refused += fsh_card_parse(&card, "10s") == FSH_EINVAL;
    refused += fsh_cardset_standard(&cs, 1, 3) == FSH_EINVAL;
    refused += fsh_cardset_custom(&cs, bad_names, 2, 1) == FSH_EINVAL;
    refused += fsh_fair_order(a, 52, 1, (const uint8_t *)"short", 5, NULL, 0,
                              0) == FSH_ESEED;
    refused += fsh_fair_commit(hex, NULL, 1) == FSH_EINVAL;
    refused += fsh_records_buckets(NULL, a, 1, 1, 0) == FSH_EINVAL;
    refused += fsh_rng_set_reach(rng, 8) == FSH_EINVAL;
    CHECK_EQ(refused, 20);
    CHECK_EQ(errno, EDOM);
    /* Accepted calls, the floating-point ones included. */
    int ok = 0;
    ok += fsh_shuffle_u32(rng, a, 20) == FSH_OK;
    ok += fsh_sample_range(rng, o, 5, 0, 999) == FSH_OK;
    ok += fsh_deck_deal_n(rng, d, a, 2) == FSH_OK;
    ok += fsh_cardset_standard(&cs, 8, 2) == FSH_OK;
    ok += fsh_cardset_order_bits(cs) > 2000;
    ok += fsh_fair_seed_min(&need, 52, 8) == FSH_OK;
    ok += fsh_fair_seed_min(&need, 100000, 3) == FSH_OK; /* lgammal */
    ok += fsh_ordered_bits(UINT64_MAX, 1000) > 0;
    ok += fsh_subset_bits(UINT64_MAX, UINT64_MAX / 2) > 0;
    CHECK_EQ(ok, 9);
    CHECK_EQ(errno, EDOM);
    errno = 0;
    fsh_cardset_free(cs);
    fsh_deck_free(d);
    fsh_rng_free(rng);
}

static void test_strerror(void)
{
    static const int codes[] = {FSH_OK, FSH_EINVAL, FSH_ENOMEM, FSH_EENTROPY,
                                FSH_EEMPTY, FSH_ECALLBACK, FSH_ESYSRAND,
                                FSH_ESEED, FSH_ENOHWRAND};
    const char *unknown = fsh_strerror(-1000);
    CHECK(unknown != NULL && strcmp(unknown, "unknown error") == 0);
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const char *m = fsh_strerror(codes[i]);
        CHECK(m != NULL && m[0] != '\0');
        CHECK(strcmp(m, unknown) != 0);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(m, fsh_strerror(codes[j])) != 0);
    }
    /* One meaning each (0.2): the reachability refusal is not an OS
       failure, and "empty" is not only a deck's. */
    CHECK(strcmp(fsh_strerror(FSH_EENTROPY),
                 "cannot reach every outcome: seed too short, or beyond the "
                 "hardware entropy cap") == 0);
    CHECK(strcmp(fsh_strerror(FSH_EEMPTY), "nothing left to deal or draw") ==
          0);
    CHECK_EQ(FSH_VERSION_NUMBER, 200);
    static const int unknowns[] = {1, 2, -9, -10, 100, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof unknowns / sizeof unknowns[0]; i++)
        CHECK(strcmp(fsh_strerror(unknowns[i]), "unknown error") == 0);
    /* Released values keep their numbers. */
    CHECK_EQ(FSH_OK, 0);
    CHECK_EQ(FSH_EINVAL, -1);
    CHECK_EQ(FSH_ENOMEM, -2);
    CHECK_EQ(FSH_EENTROPY, -3);
    CHECK_EQ(FSH_EEMPTY, -4);
    CHECK_EQ(FSH_ECALLBACK, -5);
    CHECK_EQ(FSH_ESYSRAND, -6);
    CHECK_EQ(FSH_ESEED, -7);
    CHECK_EQ(FSH_ENOHWRAND, -8);
}

int main(void)
{
    test_rng_args();
    test_shuffle_args();
    test_entropy();
    test_callback_errors();
    test_fork();
    test_os_bits();
    test_settings_kept();
    test_callback_reach();
    test_randint_records();
    test_callback_stops();
    test_bits_used_streams();
    test_read_ahead();
    test_policy_args();
    test_keying_refused();
    test_errno_kept();
    test_strerror();
    return check_done("test_api");
}
