/* SPDX-License-Identifier: MIT */
/* A caller's callback that calls back into the library: a word source
 * (fsh_rng_from_words) or a [1, k] source (fsh_rng_from_randint) that,
 * while the library is drawing from it, draws from its own rng, re-keys
 * or re-configures it, or deals from (or resets) the deck or draws from
 * the range permutation that the interrupted call is working on.
 *
 * Such an inner call must be refused with FSH_EINVAL and change nothing,
 * so the outer call goes on as if it had not been made: its result equals
 * a run without the inner call (the same words, the same cards, the same
 * values), a deck deals each card once, and a reset deck replays. Until
 * session 24 a re-key dropped the callback under the outer call (a crash),
 * a draw from the same rng handed a word out twice, and a deck dealt from
 * inside the callback dealt a card twice. Each case runs in a child
 * process, so a crash fails its own row only. */
#include "check.h"
#include "fairshuf.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define AT 3      /* the callback's call that makes the inner call */
#define WORDS 300 /* words the outer draw takes: three refills */
#define PERM_N 1000
#define PERM_K 40

enum { SRC_WORDS, SRC_RANDINT };
enum { OUT_WORDS, OUT_DECK, OUT_PERM };

typedef struct reentry reentry;
typedef int (*inner_fn)(reentry *r);

typedef struct re_case {
    const char *name;
    int outer;   /* OUT_*: what the interrupted call is */
    inner_fn inner; /* the call the callback makes; NULL: none */
} re_case;

struct reentry {
    const re_case *c;
    fsh_rng *self;  /* the rng whose callback this is */
    fsh_rng *other; /* a second rng, seeded */
    fsh_deck *deck; /* the deck the outer call deals */
    fsh_rangeperm *perm;
    uint64_t count; /* the callback's calls so far */
    int inner_rc;   /* what the inner call returned; 1: not made */
};

/* A bijection of the counter (the SplitMix64 finalizer): distinct words. */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

static void maybe_inner(reentry *r)
{
    if (++r->count == AT && r->c->inner != NULL)
        r->inner_rc = r->c->inner(r);
}

static uint64_t words_cb(void *ctx)
{
    reentry *r = ctx;
    maybe_inner(r);
    return mix(r->count);
}

static uint64_t randint_cb(void *ctx, uint64_t k)
{
    reentry *r = ctx;
    maybe_inner(r);
    return 1 + mix(r->count) % k;
}

static uint64_t plain_words(void *ctx)
{
    (void)ctx;
    return 42;
}

/* ---- the inner calls ---------------------------------------------------- */

static int in_u64(reentry *r)
{
    uint64_t w;
    return fsh_rng_u64(r->self, &w);
}

static int in_shuffle(reentry *r)
{
    uint32_t a[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    return fsh_shuffle_u32(r->self, a, 8);
}

static int in_seed(reentry *r)
{
    return fsh_rng_seed(r->self, "0123456789abcdef0123456789abcdef", 32);
}

static int in_xoshiro(reentry *r)
{
    return fsh_rng_key_xoshiro(r->self, 7);
}

static int in_rekey(reentry *r)
{
    return fsh_rng_rekey(r->self);
}

static int in_from_words(reentry *r)
{
    return fsh_rng_from_words(r->self, plain_words, NULL);
}

static int in_simulation(reentry *r)
{
    return fsh_rng_set_simulation(r->self, 1);
}

static int in_reach(reentry *r)
{
    return fsh_rng_set_reach(r->self, FSH_REACH_KEY);
}

/* The rest of the keying calls and settings, and the other draws: the
   header refuses every one of them from inside the rng's callback. */
static int in_rekey_gen(reentry *r)
{
    return fsh_rng_rekey_gen(r->self, FSH_GEN_CHACHA20);
}

static int in_seed_gen(reentry *r)
{
    return fsh_rng_seed_gen(r->self, FSH_GEN_CHACHA12, "inner", 5);
}

static int in_key_chacha(reentry *r)
{
    static const uint8_t key[32] = {9};
    return fsh_rng_key_chacha(r->self, 20, key, 0, 0);
}

static uint64_t plain_randint(void *ctx, uint64_t k)
{
    (void)ctx;
    return k;
}

static int in_from_randint(reentry *r)
{
    return fsh_rng_from_randint(r->self, plain_randint, NULL);
}

static int in_hw_cap(reentry *r)
{
    return fsh_rng_set_hw_cap(r->self, 0);
}

static int in_direct(reentry *r)
{
    return fsh_rng_set_direct(r->self, 1);
}

static int in_stream_version(reentry *r)
{
    return fsh_rng_set_stream_version(r->self, FSH_STREAM_V3);
}

static int in_bytes(reentry *r)
{
    uint8_t b[5];
    return fsh_rng_bytes(r->self, b, sizeof b);
}

static int in_uniform(reentry *r)
{
    uint64_t v;
    return fsh_uniform(r->self, &v, 1000);
}

static int in_sample(reentry *r)
{
    uint64_t v[2];
    return fsh_sample_range(r->self, v, 2, 0, 9);
}

static int in_deal_self(reentry *r)
{
    uint32_t c;
    return fsh_deck_deal(r->self, r->deck, &c);
}

static int in_deal_other(reentry *r)
{
    uint32_t c;
    return fsh_deck_deal(r->other, r->deck, &c);
}

static int in_burn_other(reentry *r)
{
    return fsh_deck_burn(r->other, r->deck, 2);
}

static int in_hands_other(reentry *r)
{
    uint32_t h[4];
    return fsh_deck_deal_hands(r->other, r->deck, h, 2, 2,
                               FSH_DEAL_ROUND_ROBIN);
}

static int in_reset(reentry *r)
{
    return fsh_deck_reset(r->deck);
}

static int in_cut(reentry *r)
{
    return fsh_deck_set_cut(r->deck, 10);
}

static int in_perm_other(reentry *r)
{
    uint64_t v;
    return fsh_rangeperm_next(r->other, r->perm, &v);
}

static int in_perm_n_other(reentry *r)
{
    uint64_t v[3];
    return fsh_rangeperm_next_n(r->other, r->perm, v, 3);
}

static int in_perm_at(reentry *r)
{
    uint64_t v;
    return fsh_rangeperm_next_at(r->perm, &v, 0);
}

static const re_case cases[] = {
    {"words, nothing (reference)", OUT_WORDS, NULL},
    {"words, draw from the rng", OUT_WORDS, in_u64},
    {"words, shuffle with the rng", OUT_WORDS, in_shuffle},
    {"words, re-seed the rng", OUT_WORDS, in_seed},
    {"words, key the rng as xoshiro", OUT_WORDS, in_xoshiro},
    {"words, re-key the rng from the OS", OUT_WORDS, in_rekey},
    {"words, another word callback", OUT_WORDS, in_from_words},
    {"words, simulation grade", OUT_WORDS, in_simulation},
    {"words, reach policy", OUT_WORDS, in_reach},
    {"words, re-key the rng as ChaCha20", OUT_WORDS, in_rekey_gen},
    {"words, seed the rng as ChaCha12", OUT_WORDS, in_seed_gen},
    {"words, raw ChaCha key", OUT_WORDS, in_key_chacha},
    {"words, a [1, k] callback", OUT_WORDS, in_from_randint},
    {"words, hardware cap", OUT_WORDS, in_hw_cap},
    {"words, certified-source mode", OUT_WORDS, in_direct},
    {"words, stream version", OUT_WORDS, in_stream_version},
    {"words, bytes from the rng", OUT_WORDS, in_bytes},
    {"words, a bounded integer", OUT_WORDS, in_uniform},
    {"words, a sample", OUT_WORDS, in_sample},
    {"deck, nothing (reference)", OUT_DECK, NULL},
    {"deck, draw from the rng", OUT_DECK, in_u64},
    {"deck, re-seed the rng", OUT_DECK, in_seed},
    {"deck, deal from it with the rng", OUT_DECK, in_deal_self},
    {"deck, deal from it with another rng", OUT_DECK, in_deal_other},
    {"deck, burn from it with another rng", OUT_DECK, in_burn_other},
    {"deck, hands from it with another rng", OUT_DECK, in_hands_other},
    {"deck, reset it", OUT_DECK, in_reset},
    {"deck, move its cut card", OUT_DECK, in_cut},
    {"perm, nothing (reference)", OUT_PERM, NULL},
    {"perm, re-seed the rng", OUT_PERM, in_seed},
    {"perm, next with another rng", OUT_PERM, in_perm_other},
    {"perm, next_n with another rng", OUT_PERM, in_perm_n_other},
    {"perm, next_at", OUT_PERM, in_perm_at},
};
#define NCASES (sizeof cases / sizeof *cases)

/* What the outer call gave: compared with the reference run's. */
typedef struct outcome {
    int rc, inner_rc;
    uint64_t v[WORDS];
    size_t nv;
    uint32_t replay[52]; /* the deck after a reset, dealt by a seeded rng */
} outcome;

static int is_perm52(const uint64_t *v)
{
    int seen[52] = {0};
    for (size_t i = 0; i < 52; i++) {
        if (v[i] >= 52 || seen[v[i]]++)
            return 0;
    }
    return 1;
}

/* Run case c with source src, in this process. */
static void run_case(const re_case *c, int src, outcome *o)
{
    reentry r;
    memset(&r, 0, sizeof r);
    memset(o, 0, sizeof *o);
    r.c = c;
    r.inner_rc = 1;
    if (fsh_rng_new_seeded(&r.self, "s", 1) != FSH_OK ||
        fsh_rng_new_seeded(&r.other, "0123456789abcdef0123456789abcdef",
                           32) != FSH_OK ||
        fsh_deck_new(&r.deck, 52) != FSH_OK ||
        fsh_rangeperm_new(&r.perm, 0, PERM_N - 1, 0) != FSH_OK)
        exit(99);
    /* Simulation grade for the other rng: the deck's and the permutation's
       prefixes stay within its reach whatever the inner calls add. */
    if (fsh_rng_set_simulation(r.other, 1) != FSH_OK)
        exit(99);
    int rc = src == SRC_WORDS ? fsh_rng_from_words(r.self, words_cb, &r)
                              : fsh_rng_from_randint(r.self, randint_cb, &r);
    if (rc != FSH_OK)
        exit(99);
    if (c->outer == OUT_WORDS) {
        o->rc = FSH_OK;
        for (size_t i = 0; i < WORDS && o->rc == FSH_OK; i++)
            o->rc = fsh_rng_u64(r.self, &o->v[o->nv++]);
    } else if (c->outer == OUT_DECK) {
        uint32_t cards[52];
        o->rc = fsh_deck_deal_n(r.self, r.deck, cards, 52);
        for (size_t i = 0; i < 52; i++)
            o->v[i] = cards[i];
        o->nv = 52;
        /* The replay rule: reset, the deck deals as a fresh one. */
        if (fsh_deck_reset(r.deck) != FSH_OK ||
            fsh_rng_seed(r.other, "replay", 6) != FSH_OK ||
            fsh_deck_deal_n(r.other, r.deck, o->replay, 52) != FSH_OK)
            o->replay[0] = UINT32_MAX;
    } else {
        o->rc = fsh_rangeperm_next_n(r.self, r.perm, o->v, PERM_K);
        o->nv = PERM_K;
    }
    o->inner_rc = r.inner_rc;
    fsh_rangeperm_free(r.perm);
    fsh_deck_free(r.deck);
    fsh_rng_free(r.other);
    fsh_rng_free(r.self);
}

/* Failures of case c against the reference ref (c's own run in a child;
   the exit status counts them, a crash is one). */
static int child_failures(const re_case *c, int src, const outcome *ref)
{
    static outcome o;
    int bad = 0;
    run_case(c, src, &o);
    if (c->inner != NULL && o.inner_rc != FSH_EINVAL) {
        fprintf(stderr, "  inner call returned %d, not FSH_EINVAL\n",
                o.inner_rc);
        bad++;
    }
    if (o.rc != FSH_OK) {
        fprintf(stderr, "  outer call returned %d\n", o.rc);
        bad++;
    }
    if (o.nv != ref->nv || memcmp(o.v, ref->v, o.nv * sizeof *o.v) != 0) {
        fprintf(stderr, "  outer result differs from the run without the "
                        "inner call\n");
        bad++;
    }
    if (c->outer == OUT_DECK) {
        if (!is_perm52(o.v)) {
            fprintf(stderr, "  the deck dealt a card twice\n");
            bad++;
        }
        if (memcmp(o.replay, ref->replay, sizeof o.replay) != 0) {
            fprintf(stderr, "  the reset deck does not replay\n");
            bad++;
        }
    }
    return bad;
}

int main(void)
{
    static outcome ref[2][3];
    for (int src = SRC_WORDS; src <= SRC_RANDINT; src++) {
        for (size_t i = 0; i < NCASES; i++) {
            const re_case *c = &cases[i];
            if (c->inner == NULL) {
                run_case(c, src, &ref[src][c->outer]);
                CHECK_EQ(ref[src][c->outer].rc, FSH_OK);
                if (c->outer == OUT_DECK)
                    CHECK(is_perm52(ref[src][c->outer].v));
                continue;
            }
            fflush(NULL);
            pid_t pid = fork();
            if (pid < 0) {
                CHECK(pid >= 0);
                continue;
            }
            if (pid == 0) {
                int bad = child_failures(c, src, &ref[src][c->outer]);
                _exit(bad > 100 ? 100 : bad);
            }
            int st = 0;
            CHECK(waitpid(pid, &st, 0) == pid);
            int ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
            if (!ok)
                fprintf(stderr, "%s source: %s: %s\n",
                        src == SRC_WORDS ? "word" : "[1, k]", c->name,
                        WIFSIGNALED(st) ? "killed by a signal" : "failed");
            CHECK(ok);
        }
    }
    return check_done("test_reentry");
}
