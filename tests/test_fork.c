/* SPDX-License-Identifier: MIT */
/* Fork safety of everything that holds randomness between calls: the rng's
 * buffered words (ChaCha, xoshiro256++ and its inline kernel state, a word
 * callback's read-ahead), the deck's batch of pending dice, and the
 * objects built on the rng (range permutation, samples, reservoir steps).
 *
 * For each case the parent draws before the fork (so every cache is half
 * used), then parent and child each make the same calls; their results must
 * differ. Each row gives the probability that a correct library fails it
 * (both processes drawing the same values by chance); all are below 1e-9,
 * about 1e-9 for the whole file. The child also sends its rng's key and
 * state: none of the parent's key, xoshiro state or unread buffered words may
 * be left in it, so the child cannot reproduce the parent's next draws. */
#include "check.h"
#include "rng/rng.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAXV 64

/* A fork-safe user word source: every word from the OS. */
static uint64_t os_word(void *ctx)
{
    uint64_t w = 0;
    (void)ctx;
    if (fsh_entropy(&w, sizeof w) != FSH_OK)
        abort();
    return w;
}

typedef struct fork_case {
    const char *name;
    int gen;        /* fsh_gen keyed from the OS, or -1: word callback */
    int child_init; /* the child calls fsh_rng_rekey_gen itself first */
    /* Before the fork: draw, leaving caches half used; *obj may be set. */
    void (*pre)(fsh_rng *rng, void **obj);
    /* After the fork, in both processes: m values into v. */
    size_t (*post)(fsh_rng *rng, void *obj, uint64_t *v);
    void (*done)(void *obj);
} fork_case;

static void pre_word(fsh_rng *rng, void **obj)
{
    uint64_t w;
    (void)obj;
    CHECK_EQ(fsh_rng_u64(rng, &w), FSH_OK);
}

/* 4 words: 2^-256. */
static size_t post_u64(fsh_rng *rng, void *obj, uint64_t *v)
{
    (void)obj;
    for (int i = 0; i < 4; i++)
        CHECK_EQ(fsh_rng_u64(rng, &v[i]), FSH_OK);
    return 4;
}

/* 24 bytes: 2^-192. */
static size_t post_bytes(fsh_rng *rng, void *obj, uint64_t *v)
{
    (void)obj;
    CHECK_EQ(fsh_rng_bytes(rng, v, 24), FSH_OK);
    return 3;
}

/* 8 draws below 52: 52^-8 = 1.9e-14. */
static size_t post_uniform(fsh_rng *rng, void *obj, uint64_t *v)
{
    (void)obj;
    for (int i = 0; i < 8; i++)
        CHECK_EQ(fsh_uniform(rng, &v[i], 52), FSH_OK);
    return 8;
}

/* A 52-card order: 1/52! = 1.2e-68. */
static size_t post_shuffle(fsh_rng *rng, void *obj, uint64_t *v)
{
    uint32_t a[52];
    (void)obj;
    for (uint32_t i = 0; i < 52; i++)
        a[i] = i;
    CHECK_EQ(fsh_shuffle_u32(rng, a, 52), FSH_OK);
    for (int i = 0; i < 52; i++)
        v[i] = a[i];
    return 52;
}

/* 2000 elements: the xoshiro kernel steps the generator inline once its
   buffer is empty. 1/2000!. */
static size_t post_shuffle_long(fsh_rng *rng, void *obj, uint64_t *v)
{
    static uint32_t a[2000];
    (void)obj;
    for (uint32_t i = 0; i < 2000; i++)
        a[i] = i;
    CHECK_EQ(fsh_shuffle_u32(rng, a, 2000), FSH_OK);
    CHECK_EQ(fsh_shuffle_u32(rng, a, 2000), FSH_OK);
    for (int i = 0; i < MAXV; i++)
        v[i] = a[i];
    return MAXV; /* 64 positions: 1/(2000*1999*...*1937) < 1e-200 */
}

/* One card dealt before the fork leaves 9 pending dice of the first batch
   (10 dice for 52 cards); the next 9 cards: 1/(51*50*...*43) = 1.0e-15. */
static void pre_deck(fsh_rng *rng, void **obj)
{
    fsh_deck *d;
    uint32_t c;
    CHECK_EQ(fsh_deck_new(&d, 52), FSH_OK);
    CHECK_EQ(fsh_deck_deal(rng, d, &c), FSH_OK);
    *obj = d;
}

static size_t post_deck(fsh_rng *rng, void *obj, uint64_t *v)
{
    uint32_t c[9];
    CHECK_EQ(fsh_deck_deal_n(rng, obj, c, 9), FSH_OK);
    for (int i = 0; i < 9; i++)
        v[i] = c[i];
    return 9;
}

static void done_deck(void *obj)
{
    fsh_deck_free(obj);
}

/* The same deck, 3 hands of 3 round robin: 9 cards, 1.0e-15. */
static size_t post_hands(fsh_rng *rng, void *obj, uint64_t *v)
{
    uint32_t c[9];
    CHECK_EQ(fsh_deck_deal_hands(rng, obj, c, 3, 3, FSH_DEAL_ROUND_ROBIN),
             FSH_OK);
    for (int i = 0; i < 9; i++)
        v[i] = c[i];
    return 9;
}

/* A burn of 4, then 9 cards: the 9 after the burn, 1/(47*...*39) =
   2.6e-15 (the burn takes the pending dice first). */
static size_t post_burn(fsh_rng *rng, void *obj, uint64_t *v)
{
    uint32_t c[9];
    CHECK_EQ(fsh_deck_burn(rng, obj, 4), FSH_OK);
    CHECK_EQ(fsh_deck_deal_n(rng, obj, c, 9), FSH_OK);
    for (int i = 0; i < 9; i++)
        v[i] = c[i];
    return 9;
}

/* 3 values drawn before, 4 after: at most 1/(997*996*995*994) = 1e-12. */
static void pre_rangeperm(fsh_rng *rng, void **obj)
{
    fsh_rangeperm *p;
    uint64_t x;
    CHECK_EQ(fsh_rangeperm_new(&p, 0, 999, 0), FSH_OK);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(fsh_rangeperm_next(rng, p, &x), FSH_OK);
    *obj = p;
}

static size_t post_rangeperm(fsh_rng *rng, void *obj, uint64_t *v)
{
    for (int i = 0; i < 4; i++)
        CHECK_EQ(fsh_rangeperm_next(rng, obj, &v[i]), FSH_OK);
    return 4;
}

static void done_rangeperm(void *obj)
{
    fsh_rangeperm_free(obj);
}

/* The same, the 4 values in one fsh_rangeperm_next_n call. */
static size_t post_rangeperm_n(fsh_rng *rng, void *obj, uint64_t *v)
{
    CHECK_EQ(fsh_rangeperm_next_n(rng, obj, v, 4), FSH_OK);
    return 4;
}

/* 4 of 1000 in order: 1/(1000*999*998*997) = 1e-12. */
static size_t post_sample(fsh_rng *rng, void *obj, uint64_t *v)
{
    (void)obj;
    CHECK_EQ(fsh_sample_range(rng, v, 4, 0, 999), FSH_OK);
    return 4;
}

/* 16 Algorithm R steps with k = 500, items 1000..1015: each step agrees
   with probability 500/1001^2 + (501/1001)^2 < 0.2511 (at most that for
   the later items), so all 16 with < 2.5e-10. */
static size_t post_reservoir(fsh_rng *rng, void *obj, uint64_t *v)
{
    (void)obj;
    for (int i = 0; i < 16; i++) {
        size_t s;
        CHECK_EQ(fsh_reservoir_slot(rng, &s, 500, 1000 + (uint64_t)i),
                 FSH_OK);
        v[i] = s;
    }
    return 16;
}

static const fork_case cases[] = {
    {"u64 chacha20", FSH_GEN_CHACHA20, 0, pre_word, post_u64, NULL},
    {"u64 chacha12", FSH_GEN_CHACHA12, 0, pre_word, post_u64, NULL},
    {"u64 chacha8", FSH_GEN_CHACHA8, 0, pre_word, post_u64, NULL},
    {"u64 xoshiro", FSH_GEN_XOSHIRO256PP, 0, pre_word, post_u64, NULL},
    {"u64 word callback", -1, 0, pre_word, post_u64, NULL},
    {"bytes chacha20", FSH_GEN_CHACHA20, 0, pre_word, post_bytes, NULL},
    {"bytes word callback", -1, 0, pre_word, post_bytes, NULL},
    {"uniform chacha20", FSH_GEN_CHACHA20, 0, pre_word, post_uniform, NULL},
    {"uniform word callback", -1, 0, pre_word, post_uniform, NULL},
    {"shuffle chacha20", FSH_GEN_CHACHA20, 0, pre_word, post_shuffle, NULL},
    {"shuffle xoshiro", FSH_GEN_XOSHIRO256PP, 0, pre_word, post_shuffle, NULL},
    {"shuffle xoshiro inline", FSH_GEN_XOSHIRO256PP, 0, pre_word,
     post_shuffle_long, NULL},
    {"shuffle word callback", -1, 0, pre_word, post_shuffle, NULL},
    {"deck chacha20", FSH_GEN_CHACHA20, 0, pre_deck, post_deck, done_deck},
    {"deck chacha8", FSH_GEN_CHACHA8, 0, pre_deck, post_deck, done_deck},
    {"deck xoshiro", FSH_GEN_XOSHIRO256PP, 0, pre_deck, post_deck, done_deck},
    {"deck word callback", -1, 0, pre_deck, post_deck, done_deck},
    {"deck, child rekeys first", FSH_GEN_CHACHA20, 1, pre_deck, post_deck,
     done_deck},
    {"rangeperm chacha20", FSH_GEN_CHACHA20, 0, pre_rangeperm, post_rangeperm,
     done_rangeperm},
    {"rangeperm xoshiro", FSH_GEN_XOSHIRO256PP, 0, pre_rangeperm,
     post_rangeperm, done_rangeperm},
    {"rangeperm next_n chacha8", FSH_GEN_CHACHA8, 0, pre_rangeperm,
     post_rangeperm_n, done_rangeperm},
    {"rangeperm next_n word callback", -1, 0, pre_rangeperm,
     post_rangeperm_n, done_rangeperm},
    {"hands chacha8", FSH_GEN_CHACHA8, 0, pre_deck, post_hands, done_deck},
    {"hands word callback", -1, 0, pre_deck, post_hands, done_deck},
    {"burn chacha8", FSH_GEN_CHACHA8, 0, pre_deck, post_burn, done_deck},
    {"burn xoshiro", FSH_GEN_XOSHIRO256PP, 0, pre_deck, post_burn, done_deck},
    {"sample chacha20", FSH_GEN_CHACHA20, 0, pre_word, post_sample, NULL},
    {"reservoir chacha20", FSH_GEN_CHACHA20, 0, pre_word, post_reservoir,
     NULL},
};

/* What the child reports: its values, then its rng's secrets. */
typedef struct report {
    size_t m;
    uint64_t v[MAXV];
    uint32_t key[8];
    uint64_t xs[4];
    uint64_t buf[FSH_BUF_WORDS];
    int failed;
} report;

static int contains_word(const uint64_t *a, size_t n, uint64_t w)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] == w)
            return 1;
    return 0;
}

static void run_case(const fork_case *fc)
{
    fsh_rng *rng;
    void *obj = NULL;
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    if (fc->gen >= 0)
        CHECK_EQ(fsh_rng_rekey_gen(rng, (fsh_gen)fc->gen), FSH_OK);
    else
        CHECK_EQ(fsh_rng_from_words(rng, os_word, NULL), FSH_OK);
    fc->pre(rng, &obj);
    /* The parent's secrets at the fork. */
    uint32_t key[8];
    uint64_t xs[4], unread[FSH_BUF_WORDS];
    size_t nunread = FSH_BUF_WORDS - rng->pos;
    memcpy(key, rng->key, sizeof key);
    memcpy(xs, rng->xs, sizeof xs);
    memcpy(unread, rng->buf + rng->pos, nunread * sizeof *unread);

    int fd[2];
    CHECK_EQ(pipe(fd), 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        static report r;
        close(fd[0]);
        check_failed = 0; /* count the child's own failures */
        if (fc->child_init)
            CHECK_EQ(fsh_rng_rekey_gen(rng, (fsh_gen)fc->gen), FSH_OK);
        r.m = fc->post(rng, obj, r.v);
        memcpy(r.key, rng->key, sizeof r.key);
        memcpy(r.xs, rng->xs, sizeof r.xs);
        memcpy(r.buf, rng->buf, sizeof r.buf);
        r.failed = check_failed != 0;
        ssize_t wr = write(fd[1], &r, sizeof r);
        _exit(wr == (ssize_t)sizeof r ? 0 : 1);
    }
    CHECK(pid > 0);
    close(fd[1]);
    uint64_t mine[MAXV];
    size_t m = fc->post(rng, obj, mine);
    static report theirs;
    memset(&theirs, 0, sizeof theirs);
    size_t got = 0;
    while (got < sizeof theirs) {
        ssize_t rd = read(fd[0], (char *)&theirs + got, sizeof theirs - got);
        if (rd <= 0)
            break;
        got += (size_t)rd;
    }
    close(fd[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(got == sizeof theirs);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CHECK(!theirs.failed);
    CHECK(theirs.m == m);
    int same = theirs.m == m && memcmp(theirs.v, mine, m * sizeof *mine) == 0;
    CHECK(!same);
    if (same)
        fprintf(stderr, "  fork %s: the child drew the parent's values\n",
                fc->name);
    /* The child's rng holds none of the parent's secrets. */
    if (fc->gen >= 0 && fc->gen != FSH_GEN_XOSHIRO256PP)
        CHECK(memcmp(theirs.key, key, sizeof key) != 0);
    if (fc->gen == FSH_GEN_XOSHIRO256PP)
        CHECK(memcmp(theirs.xs, xs, sizeof xs) != 0);
    int leaked = 0;
    for (size_t i = 0; i < nunread; i++)
        leaked += contains_word(theirs.buf, FSH_BUF_WORDS, unread[i]);
    CHECK_EQ(leaked, 0);
    if (leaked)
        fprintf(stderr, "  fork %s: %d of the parent's unread words left in "
                "the child's buffer\n", fc->name, leaked);
    if (fc->done != NULL)
        fc->done(obj);
    fsh_rng_free(rng);
}

/* Seeded rngs are reproducible by design: a forked child replays the
   parent's stream (fairshuf.h, fsh_rng_from_words). */
static void test_seeded_replays(void)
{
    fsh_rng *rng;
    uint64_t w[4], theirs[4] = {0};
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    CHECK_EQ(fsh_rng_seed(rng, "replay", 6), FSH_OK);
    CHECK_EQ(fsh_rng_u64(rng, &w[0]), FSH_OK);
    int fd[2];
    CHECK_EQ(pipe(fd), 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        for (int i = 0; i < 4; i++)
            if (fsh_rng_u64(rng, &w[i]) != FSH_OK)
                _exit(2);
        _exit(write(fd[1], w, sizeof w) == (ssize_t)sizeof w ? 0 : 1);
    }
    close(fd[1]);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(fsh_rng_u64(rng, &w[i]), FSH_OK);
    CHECK(read(fd[0], theirs, sizeof theirs) == (ssize_t)sizeof theirs);
    close(fd[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CHECK(memcmp(w, theirs, sizeof w) == 0);
    fsh_rng_free(rng);
}

int main(void)
{
    test_seeded_replays();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(&cases[i]);
    return check_done("test_fork");
}
