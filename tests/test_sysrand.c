/* SPDX-License-Identifier: MIT */
/* OS random source failures, through the LD_PRELOAD shim
 * (tests/shim/noentropy.c, BUILD/tests/libnoentropy.so):
 * - every path that keys from the OS fails with FSH_ESYSRAND (never
 *   FSH_EENTROPY) and errno from the failing call;
 * - an rng whose keying failed refuses every call that takes it for drawing
 *   with FSH_ESYSRAND (errno again), simulation grade or not, and leaves the
 *   caller's data alone, until it is keyed successfully again;
 * - a forked child that cannot rekey refuses the same way instead of
 *   drawing a stream the parent could predict;
 * - a forked child whose rekey fails inside the Fisher-Yates kernel (entered
 *   directly, past the entry check, on words buffered before the fork;
 *   backward and forward) finishes on the unkeyed path's all-ones words,
 *   one per refill, never on a keystream made from the wiped key, and
 *   computes none: no ChaCha block is begun ahead once the rng is
 *   unkeyed (where the AVX-512 ChaCha kernel runs, the kernels make the
 *   next refill in slices; tests/cli/test_kernel_impl.sh runs this
 *   program with FSH_CHACHA_IMPL=avx2 too, for the kernels without);
 * - a fork during a shuffle (from a signal handler; the child returns into
 *   the running call): the child's result is shuffled again from its own
 *   key, never the parent's permutation, or the call fails with
 *   FSH_ESYSRAND (errno from the failed call) when the child cannot
 *   rekey, having computed nothing from a wiped key since; an rng left
 *   unkeyed in a shuffle that mixes hardware entropy is never given a key
 *   again;
 * - seeding needs no OS randomness.
 * The program re-executes itself with the shim preloaded; the shim's
 * FSH_SHIM_AFTER is read on every call, so setenv() switches the OS source
 * off and on at run time. Skipped (with a message) only if the shim file is
 * missing. */
#include "check.h"
#include "fairshuf.h"
#include "rng/hwrand.h"
#include "rng/rng.h"
#include "shuffle/fy.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define SHIM_ERRNO ENOMEDIUM /* an errno nothing else here produces */

/* Turn the OS random source off (1) or on (0). */
static void os_fail(int on)
{
    setenv("FSH_SHIM_AFTER", on ? "0" : "1000000000", 1);
}

static void reexec_under_shim(char **argv)
{
    if (getenv("FSH_TEST_SHIMMED") != NULL)
        return;
    char shim[4096];
    const char *slash = strrchr(argv[0], '/');
    int dl = slash != NULL ? (int)(slash - argv[0]) : 1;
    snprintf(shim, sizeof shim, "%.*s/libnoentropy.so", dl,
             slash != NULL ? argv[0] : ".");
    if (access(shim, R_OK) != 0) {
        printf("test_sysrand: SKIP: %s missing (make %s)\n", shim, shim);
        exit(0);
    }
    char asan[1024];
    const char *old = getenv("ASAN_OPTIONS");
    snprintf(asan, sizeof asan, "%s%sverify_asan_link_order=0",
             old != NULL ? old : "", old != NULL && *old ? ":" : "");
    char e[16];
    snprintf(e, sizeof e, "%d", SHIM_ERRNO);
    setenv("ASAN_OPTIONS", asan, 1);
    setenv("LD_PRELOAD", shim, 1);
    setenv("FSH_SHIM_ERRNO", e, 1);
    setenv("FSH_SHIM_AFTER", "1000000000", 1);
    setenv("FSH_TEST_SHIMMED", "1", 1);
    fflush(NULL);
    execv(argv[0], argv);
    perror("test_sysrand: execv");
    exit(1);
}

/* ------------------------------------------------------------------------ */
/* Every public call that takes an rng to draw, with valid arguments. Each
   sets `touched` if it changed the caller's data.                          */

static int touched;
enum { BIG_U64 = 3300000 }; /* 26.4 MB: the scatter shuffle (> 24 MiB) */
enum { MID_U64 = 2000000 }; /* 16 MB: the prefetching Fisher-Yates */
static uint64_t *big;

static void ident64(uint64_t *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = i;
}

static void check_ident64(const uint64_t *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != i) {
            touched = 1;
            return;
        }
}

static int op_u64(fsh_rng *r)
{
    uint64_t w = 7;
    int rc = fsh_rng_u64(r, &w);
    touched |= w != 7;
    return rc;
}

static int op_bytes(fsh_rng *r)
{
    unsigned char b[13] = {0};
    int rc = fsh_rng_bytes(r, b, sizeof b);
    for (size_t i = 0; i < sizeof b; i++)
        touched |= b[i] != 0;
    return rc;
}

static int op_bytes0(fsh_rng *r)
{
    unsigned char b[1] = {0};
    return fsh_rng_bytes(r, b, 0);
}

static int op_uniform(fsh_rng *r)
{
    uint64_t v = 99;
    int rc = fsh_uniform(r, &v, 52);
    touched |= v != 99;
    return rc;
}

static int op_uniform1(fsh_rng *r)
{
    uint64_t v = 99;
    int rc = fsh_uniform(r, &v, 1);
    touched |= v != 99;
    return rc;
}

static int op_uniform_range(fsh_rng *r)
{
    uint64_t v = 99;
    int rc = fsh_uniform_range(r, &v, 5, 1000);
    touched |= v != 99;
    return rc;
}

static int op_uniform_full(fsh_rng *r)
{
    uint64_t v = 99;
    int rc = fsh_uniform_range(r, &v, 0, UINT64_MAX);
    touched |= v != 99;
    return rc;
}

#define OP_SHUFFLE(name, T, CALL, N)                                           \
    static int name(fsh_rng *r)                                                \
    {                                                                          \
        T a[N];                                                                \
        for (size_t i = 0; i < (N); i++)                                       \
            a[i] = (T)i;                                                       \
        int rc = CALL;                                                         \
        for (size_t i = 0; i < (N); i++)                                       \
            touched |= a[i] != (T)i;                                           \
        return rc;                                                             \
    }
OP_SHUFFLE(op_shuffle3, uint8_t, fsh_shuffle(r, a, 52 / 3, 3), 52)
OP_SHUFFLE(op_shuffle_u32, uint32_t, fsh_shuffle_u32(r, a, 52), 52)
OP_SHUFFLE(op_shuffle_u32_1, uint32_t, fsh_shuffle_u32(r, a, 1), 1)
OP_SHUFFLE(op_shuffle_u64, uint64_t, fsh_shuffle_u64(r, a, 1000), 1000)
OP_SHUFFLE(op_shuffle_ptr, uintptr_t, fsh_shuffle_ptr(r, (void **)a, 20), 20)
OP_SHUFFLE(op_threads_small, uint32_t, fsh_shuffle_threads(r, a, 52, 4, 2),
           52)

static int op_shuffle_mid(fsh_rng *r)
{
    ident64(big, MID_U64);
    int rc = fsh_shuffle_u64(r, big, MID_U64);
    check_ident64(big, MID_U64);
    return rc;
}

static int op_shuffle_big(fsh_rng *r)
{
    ident64(big, BIG_U64);
    int rc = fsh_shuffle_u64(r, big, BIG_U64);
    check_ident64(big, BIG_U64);
    return rc;
}

static int op_threads_big(fsh_rng *r)
{
    ident64(big, BIG_U64);
    int rc = fsh_shuffle_threads(r, big, BIG_U64, 8, 2);
    check_ident64(big, BIG_U64);
    return rc;
}

static int op_permutation(fsh_rng *r)
{
    uint64_t p[52] = {0};
    int rc = fsh_permutation(r, p, 1, 52);
    for (size_t i = 0; i < 52; i++)
        touched |= p[i] != 0;
    return rc;
}

static int op_permutation_u32(fsh_rng *r)
{
    uint32_t p[52] = {0};
    int rc = fsh_permutation_u32(r, p, 1, 52);
    for (size_t i = 0; i < 52; i++)
        touched |= p[i] != 0;
    return rc;
}

/* One value (lo == hi): nothing to draw. (0.1's n = 0 no longer exists.) */
static int op_permutation1(fsh_rng *r)
{
    uint64_t p[1] = {0};
    int rc = fsh_permutation(r, p, 9, 9);
    touched |= p[0] != (rc == FSH_OK ? 9 : 0);
    return rc;
}

static int op_deck(fsh_rng *r)
{
    fsh_deck *d;
    uint32_t c = 77;
    if (fsh_deck_new(&d, 52) != FSH_OK)
        return 1;
    int rc = fsh_deck_deal(r, d, &c);
    touched |= c != 77 || fsh_deck_remaining(d) != 52;
    fsh_deck_free(d);
    return rc;
}

static int op_deck_n(fsh_rng *r)
{
    fsh_deck *d;
    uint32_t c[5] = {0};
    if (fsh_deck_new(&d, 52) != FSH_OK)
        return 1;
    int rc = fsh_deck_deal_n(r, d, c, 5);
    for (size_t i = 0; i < 5; i++)
        touched |= c[i] != 0;
    touched |= fsh_deck_remaining(d) != 52;
    fsh_deck_free(d);
    return rc;
}

/* fsh_deck_burn, fsh_deck_deal_hands (cards and none) */
static int op_deck_burn(fsh_rng *r)
{
    fsh_deck *d;
    if (fsh_deck_new(&d, 52) != FSH_OK)
        return 1;
    int rc = fsh_deck_burn(r, d, 3);
    touched |= fsh_deck_remaining(d) != 52;
    fsh_deck_free(d);
    return rc;
}

static int op_deck_hands(fsh_rng *r, size_t cards)
{
    fsh_deck *d;
    uint32_t c[6] = {0};
    if (fsh_deck_new(&d, 52) != FSH_OK)
        return 1;
    int rc = fsh_deck_deal_hands(r, d, c, 3, cards, FSH_DEAL_ROUND_ROBIN);
    for (size_t i = 0; i < 6; i++)
        touched |= c[i] != 0;
    touched |= fsh_deck_remaining(d) != 52;
    fsh_deck_free(d);
    return rc;
}

static int op_deck_hands2(fsh_rng *r)
{
    return op_deck_hands(r, 2);
}

static int op_deck_hands0(fsh_rng *r)
{
    return op_deck_hands(r, 0);
}

/* fsh_rangeperm_next_n, over the map and over the array (hint) */
static int op_rangeperm_n(fsh_rng *r, size_t hint)
{
    fsh_rangeperm *p;
    uint64_t v[4] = {0};
    if (fsh_rangeperm_new(&p, 0, 999, hint) != FSH_OK)
        return 1;
    int rc = fsh_rangeperm_next_n(r, p, v, 4);
    for (size_t i = 0; i < 4; i++)
        touched |= v[i] != 0;
    touched |= fsh_rangeperm_drawn(p) != 0;
    fsh_rangeperm_free(p);
    return rc;
}

static int op_rangeperm_n_map(fsh_rng *r)
{
    return op_rangeperm_n(r, 0);
}

static int op_rangeperm_n_array(fsh_rng *r)
{
    return op_rangeperm_n(r, 1000);
}

/* fsh_shuffle_records above FSH_RECORDS_SMALL (the keyed buckets) */
static int op_records_big(fsh_rng *r)
{
    size_t n = (size_t)FSH_RECORDS_SMALL + 1;
    ident64(big, n);
    int rc = fsh_shuffle_records(r, big, n, sizeof *big, 1);
    for (size_t i = 0; i < n && !touched; i++)
        touched |= big[i] != i;
    return rc;
}

static int op_rangeperm(fsh_rng *r)
{
    fsh_rangeperm *p;
    uint64_t v = 5;
    if (fsh_rangeperm_new(&p, 0, 999, 0) != FSH_OK)
        return 1;
    int rc = fsh_rangeperm_next(r, p, &v);
    touched |= v != 5 || fsh_rangeperm_drawn(p) != 0;
    fsh_rangeperm_free(p);
    return rc;
}

static int op_sample(fsh_rng *r)
{
    uint64_t o[10] = {0};
    int rc = fsh_sample_range(r, o, 10, 1, 100);
    for (size_t i = 0; i < 10; i++)
        touched |= o[i] != 0;
    return rc;
}

static int op_sample0(fsh_rng *r)
{
    uint64_t o[1] = {0};
    return fsh_sample_range(r, o, 0, 1, 100);
}

static int op_reservoir(fsh_rng *r)
{
    size_t s = 12345;
    int rc = fsh_reservoir_slot(r, &s, 10, 1000);
    touched |= s != 12345;
    return rc;
}

static int op_reservoir_fill(fsh_rng *r)
{
    size_t s = 12345;
    int rc = fsh_reservoir_slot(r, &s, 10, 3);
    touched |= s != 12345;
    return rc;
}

static const struct {
    const char *name;
    int (*fn)(fsh_rng *);
} ops[] = {
    {"fsh_rng_u64", op_u64},
    {"fsh_rng_bytes", op_bytes},
    {"fsh_rng_bytes (0 bytes)", op_bytes0},
    {"fsh_uniform", op_uniform},
    {"fsh_uniform (bound 1)", op_uniform1},
    {"fsh_uniform_range", op_uniform_range},
    {"fsh_uniform_range (full range)", op_uniform_full},
    {"fsh_shuffle (3-byte elements)", op_shuffle3},
    {"fsh_shuffle_u32", op_shuffle_u32},
    {"fsh_shuffle_u32 (n = 1)", op_shuffle_u32_1},
    {"fsh_shuffle_u64", op_shuffle_u64},
    {"fsh_shuffle_ptr", op_shuffle_ptr},
    {"fsh_shuffle_u64 (prefetching)", op_shuffle_mid},
    {"fsh_shuffle_u64 (scatter)", op_shuffle_big},
    {"fsh_shuffle_threads (small)", op_threads_small},
    {"fsh_shuffle_threads (scatter, 2 threads)", op_threads_big},
    {"fsh_permutation", op_permutation},
    {"fsh_permutation (one value)", op_permutation1},
    {"fsh_permutation_u32", op_permutation_u32},
    {"fsh_deck_deal", op_deck},
    {"fsh_deck_deal_n", op_deck_n},
    {"fsh_deck_burn", op_deck_burn},
    {"fsh_deck_deal_hands", op_deck_hands2},
    {"fsh_deck_deal_hands (no cards)", op_deck_hands0},
    {"fsh_rangeperm_next", op_rangeperm},
    {"fsh_rangeperm_next_n (map)", op_rangeperm_n_map},
    {"fsh_rangeperm_next_n (array)", op_rangeperm_n_array},
    {"fsh_shuffle_records (keyed buckets)", op_records_big},
    {"fsh_sample_range", op_sample},
    {"fsh_sample_range (k = 0)", op_sample0},
    {"fsh_reservoir_slot", op_reservoir},
    {"fsh_reservoir_slot (filling)", op_reservoir_fill},
};
#define NOPS (sizeof ops / sizeof ops[0])

/* Every op refuses with FSH_ESYSRAND, errno SHIM_ERRNO, data untouched. */
static void expect_refused(fsh_rng *r, const char *what)
{
    for (size_t i = 0; i < NOPS; i++) {
        touched = 0;
        errno = 0;
        int rc = ops[i].fn(r);
        int e = errno;
        CHECK_EQ(rc, FSH_ESYSRAND);
        CHECK_EQ(e, SHIM_ERRNO);
        CHECK(!touched);
        if (rc != FSH_ESYSRAND || e != SHIM_ERRNO || touched)
            fprintf(stderr, "  %s: %s gave %d (errno %d%s)\n", what,
                    ops[i].name, rc, e, touched ? ", data changed" : "");
    }
}

/* Every op works again. */
static void expect_working(fsh_rng *r, const char *what)
{
    for (size_t i = 0; i < NOPS; i++) {
        int rc = ops[i].fn(r);
        CHECK_EQ(rc, FSH_OK);
        if (rc != FSH_OK)
            fprintf(stderr, "  %s: %s gave %d\n", what, ops[i].name, rc);
    }
}

/* A forked child's checks end here: its status tells the parent. */
static _Noreturn void child_done(void)
{
    fflush(NULL);
    _exit(check_failed ? 1 : 0);
}

/* The parent: the child pid ran and passed its checks. */
static void child_passed(pid_t pid)
{
    int st = 0;
    CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* ------------------------------------------------------------------------ */

/* Seeding reads no OS randomness (it used to call sodium_init, which aborts
   the process when the OS source is gone), nor do a provably fair
   round's commitment and deal (which called it until session 25). Run
   first, in a child, before anything in this process initialises
   libsodium. */
static void test_seed_without_os(void)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        fsh_rng *r;
        os_fail(0);
        if (fsh_rng_new(&r) != FSH_OK)
            _exit(2);
        os_fail(1);
        uint64_t w;
        int ok = fsh_rng_seed(r, "abc", 3) == FSH_OK &&
                 fsh_rng_seed_gen(r, FSH_GEN_XOSHIRO256PP, "abc", 3) ==
                     FSH_OK &&
                 fsh_rng_u64(r, &w) == FSH_OK;
        if (!ok)
            _exit(3);
        /* fsh_rng_new_seeded needs no OS randomness at all and gives the
           stream of fsh_rng_seed on an OS-keyed rng. */
        fsh_rng *s;
        uint64_t a[8], b[8];
        if (fsh_rng_new_seeded(&s, "abc", 3) != FSH_OK ||
            fsh_rng_seed(r, "abc", 3) != FSH_OK)
            _exit(4);
        for (int i = 0; i < 8; i++)
            if (fsh_rng_u64(s, &a[i]) != FSH_OK ||
                fsh_rng_u64(r, &b[i]) != FSH_OK)
                _exit(5);
        if (memcmp(a, b, sizeof a) != 0)
            _exit(6);
        uint32_t p[52];
        if (fsh_rng_set_simulation(s, 1) != FSH_OK ||
            fsh_permutation_u32(s, p, 0, 51) != FSH_OK)
            _exit(7);
        fsh_rng_free(s);
        s = (fsh_rng *)1;
        if (fsh_rng_new_seeded(&s, NULL, 1) != FSH_EINVAL || s != NULL)
            _exit(8);
        /* A provably fair round is a function of its inputs: committing
           and dealing read no OS randomness either (they called
           sodium_init, which aborted here: "nothing aborts"). */
        char hex[FSH_FAIR_COMMIT_LEN];
        static const uint8_t server[32] = {1, 2, 3};
        uint32_t deal[52];
        if (fsh_fair_commit(hex, (const uint8_t *)"abc", 3) != FSH_OK ||
            strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb4"
                        "10ff61f20015ad") != 0)
            _exit(9);
        if (fsh_fair_order(deal, 52, 1, server, sizeof server, "alice", 5,
                           0) != FSH_OK)
            _exit(10);
        fsh_rng_free(r);
        _exit(0);
    }
    int st = 0;
    CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fprintf(stderr, "  fsh_rng_seed without OS randomness: %s %d\n",
                WIFSIGNALED(st) ? "killed by signal" : "exit",
                WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
}

static void test_entropy_paths(void)
{
    uint8_t b[32];
    fsh_rng *r = (fsh_rng *)&r; /* must be overwritten with NULL */
    os_fail(1);
    errno = 0;
    CHECK_EQ(fsh_entropy(b, sizeof b), FSH_ESYSRAND);
    CHECK_EQ(errno, SHIM_ERRNO);
    errno = 0;
    CHECK_EQ(fsh_rng_new(&r), FSH_ESYSRAND);
    CHECK_EQ(errno, SHIM_ERRNO);
    CHECK(r == NULL);
    os_fail(0);
    CHECK_EQ(fsh_entropy(b, sizeof b), FSH_OK);
}

/* fsh_entropy(3): getrandom(2) may return less than asked (at most
   32 MiB - 1 a call on older Linux kernels, which the shim's FSH_SHIM_MAX
   imitates here; current ones return 40 MiB at once), so a 40 MiB request
   takes two calls; when the second fails (and /dev/urandom, the fallback,
   cannot be opened) the call returns FSH_ESYSRAND with that errno, buf
   partly written: the first call's bytes, nothing past them. With the
   source working, all 40 MiB are written. About 0.1 s (two 40 MiB reads
   and scans), under the sanitizers too. */
enum { PART_LEN = 40 << 20, PART_MAX = 32 << 20 };

/* Bytes of p[0..n) still equal to the fill byte 0xA5. */
static size_t still_a5(const uint8_t *p, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += p[i] == 0xA5;
    return k;
}

static void test_entropy_partial(void)
{
    uint8_t *b = malloc(PART_LEN);
    CHECK(b != NULL);
    if (b == NULL)
        return;
    memset(b, 0xA5, PART_LEN);
    setenv("FSH_SHIM_MAX", "33554431", 1);
    setenv("FSH_SHIM_AFTER", "+1", 1); /* the second getrandom fails */
    errno = 0;
    CHECK_EQ(fsh_entropy(b, PART_LEN), FSH_ESYSRAND);
    CHECK_EQ(errno, SHIM_ERRNO);
    /* Written by the first call (1 byte in 256 keeps 0xA5 by chance; the
       bound fails about never), nothing after it. */
    CHECK(still_a5(b, 1 << 20) < (1 << 20) / 64);
    CHECK(still_a5(b + PART_MAX, PART_LEN - PART_MAX) ==
          PART_LEN - PART_MAX);
    os_fail(0);
    memset(b, 0xA5, PART_LEN);
    CHECK_EQ(fsh_entropy(b, PART_LEN), FSH_OK);
    CHECK(still_a5(b + PART_MAX, PART_LEN - PART_MAX) <
          (PART_LEN - PART_MAX) / 64);
    unsetenv("FSH_SHIM_MAX");
    free(b);
}

/* A failed (re)key leaves an rng that refuses everything, for every
   generator, with simulation grade on or off; two such rngs do not share a
   stream because neither has one. */
static void test_failed_rekey(void)
{
    for (int g = 0; g <= 3; g++)
        for (int sim = 0; sim < 2; sim++) {
            fsh_rng *r;
            os_fail(0);
            CHECK_EQ(fsh_rng_new(&r), FSH_OK);
            CHECK_EQ(fsh_rng_set_simulation(r, sim), FSH_OK);
            uint64_t w;
            CHECK_EQ(fsh_rng_u64(r, &w), FSH_OK); /* a half-used buffer */
            os_fail(1);
            errno = 0;
            int rc = fsh_rng_rekey_gen(r, (fsh_gen)g);
            CHECK_EQ(rc, FSH_ESYSRAND);
            CHECK_EQ(errno, SHIM_ERRNO);
            CHECK_EQ(fsh_rng_entropy_bits(r), 0);
            CHECK(fsh_rng_max_fair_n(r) == 0);
            uint64_t plan = 1;
            errno = 0;
            CHECK_EQ(fsh_rng_reach_plan(r, &plan, 51, 51), FSH_ESYSRAND);
            CHECK_EQ(errno, SHIM_ERRNO);
            /* Argument errors come first, then FSH_ESYSRAND, then the
               rest (an exhausted deck, a range permutation at its end). */
            uint32_t card;
            fsh_deck *one;
            fsh_rangeperm *p1;
            CHECK_EQ(fsh_rng_u64(r, NULL), FSH_EINVAL);
            CHECK_EQ(fsh_shuffle(r, NULL, 4, 4), FSH_EINVAL);
            CHECK_EQ(fsh_deck_new(&one, 1), FSH_OK);
            CHECK_EQ(fsh_deck_deal_n(r, one, &card, 2), FSH_ESYSRAND);
            fsh_deck_free(one);
            CHECK_EQ(fsh_rangeperm_new(&p1, 0, 0, 0), FSH_OK);
            CHECK_EQ(fsh_rangeperm_next_at(p1, &w, 0), FSH_OK);
            CHECK_EQ(fsh_rangeperm_next(r, p1, &w), FSH_ESYSRAND);
            CHECK_EQ(fsh_rangeperm_next_n(r, p1, &w, 1), FSH_ESYSRAND);
            fsh_rangeperm_free(p1);
            /* k past the values left is FSH_EINVAL, before FSH_ESYSRAND */
            uint64_t v3[3];
            CHECK_EQ(fsh_rangeperm_new(&p1, 0, 1, 0), FSH_OK);
            CHECK_EQ(fsh_rangeperm_next_n(r, p1, v3, 3), FSH_EINVAL);
            CHECK_EQ(fsh_rangeperm_next_n(r, p1, v3, 2), FSH_ESYSRAND);
            CHECK_EQ(fsh_rangeperm_next_n(r, p1, NULL, 1), FSH_EINVAL);
            CHECK(fsh_rangeperm_drawn(p1) == 0);
            fsh_rangeperm_free(p1);
            char what[64];
            snprintf(what, sizeof what, "failed init gen %d sim %d", g, sim);
            expect_refused(r, what);
            /* Still refused after the OS source comes back: only keying
               makes it usable again. */
            os_fail(0);
            expect_refused(r, what);
            CHECK_EQ(fsh_rng_rekey_gen(r, (fsh_gen)g), FSH_OK);
            CHECK_EQ(fsh_rng_entropy_bits(r), 256);
            expect_working(r, what);
            fsh_rng_free(r);
        }
}

/* Every way of keying makes an unkeyed rng usable again, with the OS source
   still off (except fsh_rng_rekey). */
static uint64_t counter_words(void *ctx)
{
    uint64_t *c = ctx;
    return (*c += 0x9e3779b97f4a7c15u) * 0xbf58476d1ce4e5b9u;
}

static uint64_t counter_randint(void *ctx, uint64_t k)
{
    return 1 + counter_words(ctx) % k;
}

static void test_rekey_ways(void)
{
    static const uint8_t key[32] = {1, 2, 3};
    for (int way = 0; way < 6; way++) {
        fsh_rng *r;
        uint64_t ctr = 0, w;
        os_fail(0);
        CHECK_EQ(fsh_rng_new(&r), FSH_OK);
        CHECK_EQ(fsh_rng_set_simulation(r, 1), FSH_OK);
        os_fail(1);
        CHECK_EQ(fsh_rng_rekey(r), FSH_ESYSRAND);
        CHECK_EQ(fsh_rng_u64(r, &w), FSH_ESYSRAND);
        int rc = -100;
        switch (way) {
        case 0:
            rc = fsh_rng_seed(r, "seed", 4);
            break;
        case 1:
            rc = fsh_rng_seed_gen(r, FSH_GEN_CHACHA8, "seed", 4);
            break;
        case 2:
            rc = fsh_rng_key_chacha(r, 12, key, 5, 6);
            break;
        case 3:
            rc = fsh_rng_key_xoshiro(r, 42);
            break;
        case 4:
            rc = fsh_rng_from_words(r, counter_words, &ctr);
            break;
        case 5:
            rc = fsh_rng_from_randint(r, counter_randint, &ctr);
            break;
        }
        CHECK_EQ(rc, FSH_OK);
        CHECK_EQ(fsh_rng_u64(r, &w), FSH_OK);
        char what[32];
        snprintf(what, sizeof what, "rekeyed way %d", way);
        expect_working(r, what);
        fsh_rng_free(r);
    }
    os_fail(0);
}

/* Fork without entropy in the child: the child refuses (it used to move to
   stream id ^ pid, which the parent can predict); once the OS source works
   again an explicit fsh_rng_rekey brings it back. The parent is unaffected. */
static void test_fork_without_entropy(void)
{
    for (int g = 0; g <= 3; g++) {
        fsh_rng *r;
        fsh_deck *d;
        uint32_t c;
        uint64_t w;
        os_fail(0);
        CHECK_EQ(fsh_rng_new(&r), FSH_OK);
        CHECK_EQ(fsh_rng_rekey_gen(r, (fsh_gen)g), FSH_OK);
        CHECK_EQ(fsh_rng_u64(r, &w), FSH_OK);
        CHECK_EQ(fsh_deck_new(&d, 52), FSH_OK);
        CHECK_EQ(fsh_deck_deal(r, d, &c), FSH_OK);
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            os_fail(1);
            char what[48];
            snprintf(what, sizeof what, "forked child, gen %d", g);
            /* The deck first: it holds dice drawn before the fork. */
            errno = 0;
            c = 1000;
            CHECK_EQ(fsh_deck_deal(r, d, &c), FSH_ESYSRAND);
            CHECK_EQ(errno, SHIM_ERRNO);
            CHECK_EQ(c, 1000);
            expect_refused(r, what);
            os_fail(0);
            CHECK_EQ(fsh_rng_rekey_gen(r, (fsh_gen)g), FSH_OK);
            expect_working(r, what);
            CHECK_EQ(fsh_deck_deal(r, d, &c), FSH_OK);
            child_done();
        }
        child_passed(pid);
        CHECK_EQ(fsh_rng_u64(r, &w), FSH_OK);
        CHECK_EQ(fsh_deck_deal(r, d, &c), FSH_OK);
        fsh_deck_free(d);
        fsh_rng_free(r);
    }
}

/* The kernel entered directly in a child without entropy, on words the
   parent buffered (the public calls check the fork first, so only the
   kernel's own refills meet it here). Its first refill (made ahead where
   the AVX-512 ChaCha kernel runs) finds the fork, the rekey fails and the
   rng is left unkeyed; every later refill serves one all-ones word, which
   draws each position's own index. So the kernel must end with no element
   moved outside the positions the buffered words placed (the top ones for
   the backward kernel, the bottom ones for the forward kernel) except by
   their swaps, the rng refusing, at least one refill per word of indices
   drawn after the failure, and no ChaCha block begun ahead since the
   failure (ahead_blocks, zeroed by it). Known-bad variants tried: slices
   made ahead from the wiped key and installed by the next refill (until
   this test, the kernel went on with a zero-key ChaCha stream) move
   96,050 low positions; slices still made after the failure (the
   AVX-512 kernels until the fix: AHEAD_FRESH without its key check, or
   AHEAD_SLICE without AHEAD_FRESH) begin about a million blocks of the
   zero key (1,010,624 here), 32 for each all-ones word. Not told apart: the kernel resuming at
   buffer position 0 after the failed refill (as before 2552e14) reads the
   wiped buffer's zeros first, which every batch of bounds here rejects,
   so its output is the same. */
static void test_fork_kernel_without_entropy(int forward)
{
    enum { N = 100000, PLACED = 2000 }; /* 255 words x <= 6 indices each */
    fsh_rng *r;
    uint64_t w;
    os_fail(0);
    CHECK_EQ(fsh_rng_new(&r), FSH_OK);
    CHECK_EQ(fsh_rng_u64(r, &w), FSH_OK); /* 255 words left buffered */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        os_fail(1);
        uint64_t *a = malloc(N * sizeof *a);
        if (a == NULL)
            _exit(1);
        ident64(a, N);
        uint64_t made = r->words_made;
        (forward ? fsh_fy_forward : fsh_fy_kernel)(r, (unsigned char *)a, N,
                                                   8);
        /* Outside the positions the buffered words placed only their
           swaps moved anything: the backward kernel's brought elements
           down from the top, the forward kernel's touched nothing above
           its bottom positions. */
        size_t moved = 0;
        for (size_t i = 0; i < N - PLACED; i++)
            moved += forward ? a[PLACED + i] != PLACED + i
                             : a[i] != i && a[i] < N - PLACED;
        CHECK_EQ(moved, 0);
        /* Still a permutation of 0..N-1. */
        unsigned char *seen = calloc(N, 1);
        int perm = seen != NULL;
        for (size_t i = 0; perm && i < N; i++)
            perm = a[i] < N && !seen[a[i]]++;
        CHECK(perm);
        CHECK_EQ(r->src, FSH_SRC_NONE);
        CHECK(r->words_made - made >= (N - PLACED) / 6);
        CHECK_EQ(r->ahead_blocks, 0);
        if (r->ahead_blocks != 0)
            fprintf(stderr, "  %s kernel: %llu ChaCha blocks begun after "
                    "the failed rekey\n", forward ? "forward" : "backward",
                    (unsigned long long)r->ahead_blocks);
        errno = 0;
        CHECK_EQ(fsh_rng_u64(r, &w), FSH_ESYSRAND);
        CHECK_EQ(errno, SHIM_ERRNO);
        free(seen);
        free(a);
        child_done();
    }
    child_passed(pid);
    CHECK_EQ(fsh_rng_u64(r, &w), FSH_OK);
    fsh_rng_free(r);
}

/* ------------------------------------------------------------------------ */
/* A fork in the middle of a call. One page of the array is PROT_NONE; the
   first touch faults, and the SIGSEGV handler forks, makes the page
   accessible and returns: parent and child both carry on inside the
   running shuffle. In the child the handler turns the OS source off
   (through a putenv'd string the shim reads on every call: async-signal-
   safe) when fork_fail is set. Before the fix the scatter shuffle, the
   record shuffle and the xoshiro kernel (which key streams or hold state
   taken from the rng before the fork, so never refill) gave the child the
   parent's permutation with FSH_OK, whether or not the child could rekey;
   a shuffle mixing hardware entropy reseeded an rng the failed rekey had
   left unkeyed, from words and hardware values the parent had drawn.
   The in-cache backward and forward kernels (which, where the AVX-512
   ChaCha kernel runs, make the next refill ahead in slices) failed their
   rekey at the first refill after the fork and then, until the fix, went
   on making every later refill's slices from the wiped key (never
   installed): the child must have begun no ChaCha block ahead since its
   failed rekey, and its errno must be the failed call's. */

static char fork_env[] = "FSH_SHIM_AFTER=1000000000";
static volatile sig_atomic_t fork_child, fork_fail;
static volatile pid_t fork_pid;
static unsigned char *fork_page;

static void fork_on_segv(int sig, siginfo_t *si, void *ctx)
{
    (void)sig, (void)si, (void)ctx;
    if ((fork_pid = fork()) == 0) {
        fork_child = 1;
        if (fork_fail)
            memcpy(fork_env + 15, "0", 2); /* FSH_SHIM_AFTER=0 */
    }
    (void)mprotect(fork_page, (size_t)sysconf(_SC_PAGESIZE),
                   PROT_READ | PROT_WRITE);
}

enum {
    FM_SCATTER,
    FM_RECORDS,
    FM_XOSHIRO,
    FM_PERM,
    FM_MIXED,
    FM_INCACHE, /* 3.2 MB: the in-cache backward kernel */
    FM_FORWARD, /* 8 MB: the forward kernel of stream version 3 */
    FM_COUNT
};

static uint64_t hash64(const uint64_t *a, size_t n)
{
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ a[i]) * 1099511628211u;
    return h;
}

/* One case: mode's call on n elements, forked in the middle, the child's
   OS source failing or not. */
static void fork_during(int mode, int fail)
{
    static const char *names[] = {"scatter",     "records", "xoshiro",
                                  "permutation", "mixed",   "in-cache",
                                  "forward"};
    size_t n = mode == FM_XOSHIRO || mode == FM_FORWARD ? 1000000
               : mode == FM_MIXED                      ? 5000
               : mode == FM_INCACHE                    ? 400000
                                                       : (size_t)BIG_U64;
    long pg = sysconf(_SC_PAGESIZE);
    size_t bytes = (n * 8 + (size_t)pg - 1) / (size_t)pg * (size_t)pg;
    uint64_t *res = mmap(NULL, (size_t)pg, PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    uint64_t *a = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (res == MAP_FAILED || a == MAP_FAILED)
        abort();
    ident64(a, n);
    fsh_rng *r;
    os_fail(0);
    CHECK_EQ(fsh_rng_new(&r), FSH_OK);
    if (mode == FM_XOSHIRO)
        CHECK_EQ(fsh_rng_rekey_gen(r, FSH_GEN_XOSHIRO256PP), FSH_OK);
    if (mode == FM_MIXED)
        CHECK_EQ(fsh_rng_set_reach(r, FSH_REACH_FULL), FSH_OK);
    uint64_t w0; /* the rest of the buffer is the parent's words */
    CHECK_EQ(fsh_rng_u64(r, &w0), FSH_OK);
    memcpy(fork_env, "FSH_SHIM_AFTER=1000000000", sizeof fork_env);
    putenv(fork_env);
    fork_child = 0;
    fork_pid = 0;
    fork_fail = fail;
    fork_page = (unsigned char *)a + (n * 8 / 2 & ~(size_t)(pg - 1));
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = fork_on_segv;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    fflush(NULL);
    CHECK_EQ(sigaction(SIGSEGV, &sa, &old), 0);
    CHECK_EQ(mprotect(fork_page, (size_t)pg, PROT_NONE), 0);
    errno = 0;
    int rc = mode == FM_RECORDS ? fsh_shuffle_records(r, a, n, 8, 1)
             : mode == FM_PERM  ? fsh_permutation(r, a, 0, n - 1)
                                : fsh_shuffle_u64(r, a, n);
    int e = errno;
    if (fork_child) {
        res[0] = (uint64_t)(int64_t)rc;
        res[1] = hash64(a, n);
        /* A permutation of 0..n-1, whether the call succeeded or failed
           for the child's rekey (fairshuf.h, "Shuffles": the array is
           then a permutation of its input, not unchanged). */
        int sorted_ok = 1;
        {
            unsigned char *seen = calloc(n, 1);
            for (size_t i = 0; seen != NULL && i < n && sorted_ok; i++)
                sorted_ok = a[i] < n && !seen[a[i]]++;
            sorted_ok &= seen != NULL;
            free(seen);
        }
        res[2] = (uint64_t)sorted_ok;
        res[3] = 1;
        if (r->src == FSH_SRC_NONE) /* unkeyed: no key at all */
            for (size_t i = 0; i < 8; i++)
                res[3] &= r->key[i] == 0;
        res[4] = r->src == FSH_SRC_NONE ? r->ahead_blocks : 0;
        res[5] = (uint64_t)e;
        _exit(0);
    }
    child_passed(fork_pid);
    CHECK_EQ(sigaction(SIGSEGV, &old, NULL), 0);
    os_fail(0); /* setenv: fork_env is no longer the environment's */
    char what[64];
    snprintf(what, sizeof what, "fork during %s, child OS %s", names[mode],
             fail ? "failing" : "working");
    int ok = rc == FSH_OK && res[2] == 1 && res[3] == 1 && res[4] == 0;
    if (fail)
        ok &= (int64_t)res[0] == FSH_ESYSRAND && res[5] == SHIM_ERRNO;
    else
        ok &= res[0] == FSH_OK && res[1] != hash64(a, n);
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "  %s: parent rc %d, child rc %d (errno %d), child "
                "%s the parent's order, key wiped %d, %llu blocks begun "
                "after the failed rekey\n", what, rc, (int)res[0],
                (int)res[5], res[1] == hash64(a, n) ? "repeats"
                                                    : "differs from",
                (int)res[3], (unsigned long long)res[4]);
    munmap(a, bytes);
    munmap(res, (size_t)pg);
    fsh_rng_free(r);
}

static void test_fork_during_call(void)
{
    for (int mode = 0; mode < FM_COUNT; mode++) {
        if (mode == FM_MIXED && !fsh_hw_available()) {
            printf("  fork during a mixed shuffle: skipped (no RDSEED)\n");
            continue;
        }
        fork_during(mode, 0);
        fork_during(mode, 1);
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    reexec_under_shim(argv);
    big = malloc(BIG_U64 * sizeof *big);
    if (big == NULL)
        return 1;
    test_seed_without_os();
    test_entropy_paths();
    test_entropy_partial();
    test_failed_rekey();
    test_rekey_ways();
    test_fork_without_entropy();
    test_fork_kernel_without_entropy(0);
    test_fork_kernel_without_entropy(1);
    test_fork_during_call();
    free(big);
    return check_done("test_sysrand");
}
