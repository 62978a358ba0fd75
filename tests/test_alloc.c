/* SPDX-License-Identifier: MIT */
/* run.sh: weight 27 (its usual wall time in s: longest first) */
/* Allocation-failure injection (as SQLite's tests do): every public call
   that can return FSH_ENOMEM is run with its 1st, 2nd, 3rd, ... allocation
   failing ("one-shot"), then with every allocation from the Nth on failing
   ("persistent"), until a run makes fewer than N allocations. Each run whose
   injected failure the call reports must return FSH_ENOMEM, leak nothing
   (the count of live allocations is back to its value before the call) and
   leave the caller's data as the header says: unchanged, except the
   shuffles' documented "still a permutation of the input" when the scatter
   shuffle's allocation fails (arrays above 24 MiB). A call that absorbs an
   injected failure (a fallback) must return FSH_OK with the output of the
   clean run and errno as it was (an injected failure sets errno to ENOMEM,
   as the C library's allocators do; fairshuf.h: nothing sets errno), as
   must the last run (nothing injected). No call may report FSH_ENOMEM
   when nothing failed.

   The program is linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,
   --wrap=free,--wrap=pthread_create (Makefile). --wrap rewrites only the
   references in the objects linked statically, this program and
   libfairshuf.a: libsodium (a shared library) and libc's own allocations
   are neither counted nor failed. Injection is armed only around the call
   under test. Failed pthread_create (EAGAIN) is injected the same way into
   the threaded shuffle, which must then give the same output on fewer
   threads. */
#include "check.h"
#include <errno.h>
#include <fairshuf.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* The wrappers                                                             */

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
int __real_pthread_create(pthread_t *t, const pthread_attr_t *a,
                          void *(*fn)(void *), void *arg);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a,
                          void *(*fn)(void *), void *arg);

/* One injection point: allocations or thread creations. */
typedef struct {
    atomic_int armed;
    atomic_long seen;     /* calls while armed */
    atomic_long fail_at;  /* 1-based call to fail; 0: none */
    atomic_int persist;   /* also fail every later call */
    atomic_long injected; /* failures injected */
} point;

static point allocs, threads_pt;
static atomic_long live; /* allocations through the wrappers not yet freed */

static int should_fail(point *p)
{
    if (!atomic_load(&p->armed))
        return 0;
    long k = atomic_fetch_add(&p->seen, 1) + 1;
    long f = atomic_load(&p->fail_at);
    if (f > 0 && (k == f || (atomic_load(&p->persist) && k > f))) {
        atomic_fetch_add(&p->injected, 1);
        return 1;
    }
    return 0;
}

static atomic_size_t largest; /* largest malloc while armed */

/* An injected failure sets errno as the C library's allocators do. */
static void *fail_alloc(void)
{
    errno = ENOMEM;
    return NULL;
}

void *__wrap_malloc(size_t n)
{
    if (atomic_load(&allocs.armed) && n > atomic_load(&largest))
        atomic_store(&largest, n); /* one thread in the cases that read it */
    if (should_fail(&allocs))
        return fail_alloc();
    void *q = __real_malloc(n);
    if (q != NULL)
        atomic_fetch_add(&live, 1);
    return q;
}

void *__wrap_calloc(size_t n, size_t m)
{
    if (should_fail(&allocs))
        return fail_alloc();
    void *q = __real_calloc(n, m);
    if (q != NULL)
        atomic_fetch_add(&live, 1);
    return q;
}

void *__wrap_realloc(void *p, size_t n)
{
    if (should_fail(&allocs))
        return fail_alloc();
    void *q = __real_realloc(p, n);
    if (p == NULL && q != NULL)
        atomic_fetch_add(&live, 1);
    else if (p != NULL && n == 0 && q == NULL)
        atomic_fetch_sub(&live, 1); /* freed */
    return q;
}

void __wrap_free(void *p)
{
    if (p != NULL)
        atomic_fetch_sub(&live, 1);
    __real_free(p);
}

int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a,
                          void *(*fn)(void *), void *arg)
{
    if (should_fail(&threads_pt))
        return EAGAIN;
    return __real_pthread_create(t, a, fn, arg);
}

static void arm(point *p, long fail_at, int persist)
{
    atomic_store(&p->seen, 0);
    atomic_store(&p->injected, 0);
    atomic_store(&p->fail_at, fail_at);
    atomic_store(&p->persist, persist);
    atomic_store(&p->armed, 1);
}

static void disarm(point *p)
{
    atomic_store(&p->armed, 0);
}

/* ------------------------------------------------------------------------ */
/* The driver                                                               */

/* A call under test. prepare sets up its inputs (unarmed; it may allocate);
   call makes the call (armed) and returns its status; after_fail checks the
   caller's data after a failed call, after_ok checks the output of a
   successful one against the reference (which the first, clean run
   records) and then releases what prepare and call made. */
typedef struct acase {
    const char *name;
    void (*prepare)(struct acase *c);
    int (*call)(struct acase *c);
    void (*after_fail)(struct acase *c);
    void (*after_ok)(struct acase *c);
    void *ctx;
    int have_ref;   /* the clean run's output is recorded */
    int must_alloc; /* the clean run must allocate (else the case tests nothing)
                     */
} acase;

#define MAX_RUNS 100000L

/* errno as the call under test left it (drive sets EDOM before it), for
   after_fail checks of calls that keep errno even on FSH_ENOMEM. */
static int call_errno;

/* Runs the case over every allocation (pt = &allocs) or thread creation
   (pt = &threads_pt), one-shot then persistent. */
static void drive(acase *c, point *pt)
{
    const char *what = pt == &allocs ? "allocations" : "thread creations";
    /* The clean run: the reference output and the number of calls. */
    long l0 = atomic_load(&live);
    c->prepare(c);
    arm(pt, 0, 0);
    errno = EDOM;
    int rc = c->call(c);
    int e = errno;
    disarm(pt);
    long total = atomic_load(&pt->seen);
    CHECK_EQ(rc, FSH_OK);
    CHECK_EQ(e, EDOM); /* fairshuf.h: nothing sets errno on caller input */
    if (rc != FSH_OK) {
        fprintf(stderr, "%s: clean run failed: %s\n", c->name,
                fsh_strerror(rc));
        c->after_fail(c);
        return;
    }
    c->after_ok(c);
    c->have_ref = 1;
    CHECK_EQ(atomic_load(&live), l0);
    if (c->must_alloc)
        CHECK(total > 0);
    long failed = 0, absorbed = 0;
    for (int persist = 0; persist <= 1; persist++) {
        for (long n = 1; n <= MAX_RUNS; n++) {
            l0 = atomic_load(&live);
            c->prepare(c);
            long l1 = atomic_load(&live);
            arm(pt, n, persist);
            errno = EDOM;
            rc = c->call(c);
            e = errno;
            call_errno = e;
            disarm(pt);
            long hit = atomic_load(&pt->injected);
            if (hit == 0) { /* fewer than n calls: done */
                CHECK_EQ(rc, FSH_OK);
                if (rc == FSH_OK)
                    c->after_ok(c);
                CHECK_EQ(atomic_load(&live), l0);
                break;
            }
            if (rc == FSH_OK) { /* a fallback absorbed the failure */
                absorbed++;
                /* ... and the allocator's errno with it. */
                if (e != EDOM)
                    fprintf(stderr, "%s: %s %ld%s absorbed, errno %d\n",
                            c->name, what, n, persist ? "+" : "", e);
                CHECK_EQ(e, EDOM);
                c->after_ok(c);
            } else {
                failed++;
                if (rc != FSH_ENOMEM)
                    fprintf(stderr, "%s: %s %ld%s failed: status %s\n", c->name,
                            what, n, persist ? "+" : "", fsh_strerror(rc));
                CHECK_EQ(rc, FSH_ENOMEM);
                long l2 = atomic_load(&live);
                if (l2 != l1)
                    fprintf(stderr, "%s: %s %ld%s failed: %ld leaked\n",
                            c->name, what, n, persist ? "+" : "", l2 - l1);
                CHECK_EQ(l2, l1);
                c->after_fail(c);
            }
            CHECK_EQ(atomic_load(&live), l0);
            CHECK(n < MAX_RUNS);
        }
    }
    printf("test_alloc: %-34s %3ld %s; %3ld failing runs, %ld absorbed\n",
           c->name, total, what, failed, absorbed);
}

/* ------------------------------------------------------------------------ */
/* Cases                                                                    */

static fsh_rng *seeded; /* reseeded by every prepare that draws */
/* 32 bytes: 256 bits; simulation grade (set in main) so every size is
   accepted (a 256-bit seed alone reaches 57 elements). */
static const char seed32[] = "test_alloc: 32 bytes of seed...!";

static void reseed(void)
{
    CHECK_EQ(fsh_rng_seed(seeded, seed32, 32), FSH_OK);
}

static int sentinel_; /* an address that no constructor returns */
#define SENTINEL ((void *)&sentinel_)

/* fsh_rng_new / fsh_rng_new_seeded: *out is NULL on error. */
typedef struct {
    fsh_rng *r;
    int seeded;
    uint64_t ref[4];
} rngcase;

static void rng_prepare(acase *c)
{
    rngcase *x = c->ctx;
    x->r = SENTINEL;
}
static int rng_call(acase *c)
{
    rngcase *x = c->ctx;
    return x->seeded ? fsh_rng_new_seeded(&x->r, "alloc", 5)
                     : fsh_rng_new(&x->r);
}
static void rng_fail(acase *c)
{
    rngcase *x = c->ctx;
    CHECK(x->r == NULL);
}
static void rng_ok(acase *c)
{
    rngcase *x = c->ctx;
    CHECK(x->r != NULL && x->r != SENTINEL);
    if (x->r == NULL || x->r == SENTINEL)
        return;
    CHECK_EQ(fsh_rng_entropy_bits(x->r), x->seeded ? 40 : 256);
    if (x->seeded) {
        for (int i = 0; i < 4; i++) {
            uint64_t w = 0;
            CHECK_EQ(fsh_rng_u64(x->r, &w), FSH_OK);
            if (!c->have_ref)
                x->ref[i] = w;
            CHECK(w == x->ref[i]);
        }
    }
    fsh_rng_free(x->r);
}

/* fsh_deck_new / fsh_deck_new_from: on error *out is NULL (as the
   constructors do) or unchanged (the header's general rule). */
typedef struct {
    fsh_deck *d;
    size_t n;
    const uint32_t *from; /* NULL: fsh_deck_new */
    uint32_t dealt[64], ref[64];
} deckcase;

static void deck_prepare(acase *c)
{
    deckcase *x = c->ctx;
    x->d = SENTINEL;
}
static int deck_call(acase *c)
{
    deckcase *x = c->ctx;
    return x->from ? fsh_deck_new_from(&x->d, x->from, x->n)
                   : fsh_deck_new(&x->d, x->n);
}
static void deck_fail(acase *c)
{
    deckcase *x = c->ctx;
    CHECK(x->d == NULL);
}
static void deck_ok(acase *c)
{
    deckcase *x = c->ctx;
    CHECK(x->d != NULL && x->d != SENTINEL);
    if (x->d == NULL || x->d == SENTINEL)
        return;
    CHECK_EQ(fsh_deck_size(x->d), x->n);
    reseed();
    CHECK_EQ(fsh_deck_deal_n(seeded, x->d, x->dealt, x->n), FSH_OK);
    if (!c->have_ref)
        memcpy(x->ref, x->dealt, sizeof x->ref);
    CHECK(memcmp(x->ref, x->dealt, x->n * sizeof x->dealt[0]) == 0);
    fsh_deck_free(x->d);
}

/* Card sets and the deck made from one: fsh_cardset_standard,
   fsh_cardset_custom and fsh_deck_new_set set *out to NULL on error and
   leak nothing (the custom set allocates its names and their index). */
enum { CS_STANDARD, CS_CUSTOM, CS_DECK };
typedef struct {
    int kind;
    fsh_cardset *set; /* CS_DECK: made by prepare */
    fsh_deck *d;
    uint32_t dealt[108], ref[108];
} cardsetcase;

static const char *const cs_names[5] = {"ant", "bee", "cat", "dog", "eel"};

static void cardset_prepare(acase *c)
{
    cardsetcase *x = c->ctx;
    x->set = SENTINEL;
    x->d = SENTINEL;
    if (x->kind == CS_DECK)
        CHECK_EQ(fsh_cardset_standard(&x->set, 2, 2), FSH_OK);
}
static int cardset_call(acase *c)
{
    cardsetcase *x = c->ctx;
    switch (x->kind) {
    case CS_STANDARD:
        return fsh_cardset_standard(&x->set, 6, 1);
    case CS_CUSTOM:
        return fsh_cardset_custom(&x->set, cs_names, 5, 3);
    default:
        return fsh_deck_new_set(&x->d, x->set);
    }
}
static void cardset_fail(acase *c)
{
    cardsetcase *x = c->ctx;
    if (x->kind == CS_DECK) {
        CHECK(x->d == NULL);
        fsh_cardset_free(x->set);
    } else {
        CHECK(x->set == NULL);
    }
}
static void cardset_ok(acase *c)
{
    cardsetcase *x = c->ctx;
    if (x->kind != CS_DECK) {
        CHECK(x->set != NULL && x->set != SENTINEL);
        if (x->set == NULL || x->set == SENTINEL)
            return;
        size_t m = x->kind == CS_STANDARD ? 53 : 5;
        CHECK_EQ(fsh_cardset_faces(x->set), m);
        CHECK_EQ(fsh_cardset_size(x->set), x->kind == CS_STANDARD ? 318 : 15);
        for (uint32_t f = 0; f < m; f++) {
            char name[32];
            uint32_t back = UINT32_MAX;
            CHECK_EQ(fsh_cardset_name(x->set, name, sizeof name, f,
                                      FSH_CARD_POKER), FSH_OK);
            CHECK_EQ(fsh_cardset_parse(x->set, &back, name), FSH_OK);
            CHECK_EQ(back, f);
        }
        fsh_cardset_free(x->set);
        return;
    }
    CHECK(x->d != NULL && x->d != SENTINEL);
    if (x->d != NULL && x->d != SENTINEL) {
        CHECK_EQ(fsh_deck_size(x->d), 108);
        reseed();
        CHECK_EQ(fsh_deck_deal_n(seeded, x->d, x->dealt, 108), FSH_OK);
        if (!c->have_ref)
            memcpy(x->ref, x->dealt, sizeof x->ref);
        CHECK(memcmp(x->ref, x->dealt, sizeof x->ref) == 0);
        fsh_deck_free(x->d);
    }
    fsh_cardset_free(x->set);
}

/* Provably fair rounds: fsh_fair_order (and fsh_fair_seed_min) allocate
   only the seed rule's bignum; its failure is FSH_ENOMEM with out (or
   *bytes) unchanged. */
typedef struct {
    size_t faces;
    unsigned copies;
    int seed_min; /* fsh_fair_seed_min, else fsh_fair_order */
    size_t bytes;
    uint32_t out[416], ref[416];
} faircase;

static const uint8_t fair_seed[279] = {42};

static void fair_prepare(acase *c)
{
    faircase *x = c->ctx;
    x->bytes = 77;
    for (size_t i = 0; i < 416; i++)
        x->out[i] = 0xdeadbeef;
}
static int fair_call(acase *c)
{
    faircase *x = c->ctx;
    if (x->seed_min)
        return fsh_fair_seed_min(&x->bytes, x->faces, x->copies);
    return fsh_fair_order(x->out, x->faces, x->copies, fair_seed,
                          sizeof fair_seed, "alloc", 5, 7);
}
static void fair_fail(acase *c)
{
    faircase *x = c->ctx;
    CHECK_EQ(x->bytes, 77);
    int untouched = 1;
    for (size_t i = 0; i < 416; i++)
        untouched &= x->out[i] == 0xdeadbeef;
    CHECK(untouched);
}
static void fair_ok(acase *c)
{
    faircase *x = c->ctx;
    if (x->seed_min) {
        CHECK_EQ(x->bytes, x->faces == 52 && x->copies == 8 ? 279 : 32);
        return;
    }
    if (!c->have_ref)
        memcpy(x->ref, x->out, sizeof x->ref);
    CHECK(memcmp(x->ref, x->out, sizeof x->ref) == 0);
}

/* fsh_stats_inversions_law allocates O(len): FSH_ENOMEM leaves pmf
   unchanged. */
#define INV_N 40
#define INV_LEN (INV_N * (INV_N - 1) / 2 + 1)
typedef struct {
    double pmf[INV_LEN], ref[INV_LEN];
} invcase;

static void inv_prepare(acase *c)
{
    invcase *x = c->ctx;
    for (size_t i = 0; i < INV_LEN; i++)
        x->pmf[i] = -1;
}
static int inv_call(acase *c)
{
    invcase *x = c->ctx;
    return fsh_stats_inversions_law(INV_N, x->pmf, INV_LEN);
}
static void inv_fail(acase *c)
{
    invcase *x = c->ctx;
    int untouched = 1;
    for (size_t i = 0; i < INV_LEN; i++)
        untouched &= x->pmf[i] == -1;
    CHECK(untouched);
    /* fairshuf.h, "Statistics": "None of them changes errno", FSH_ENOMEM
       included (the allocator's ENOMEM is not passed on). */
    CHECK_EQ(call_errno, EDOM);
}
static void inv_ok(acase *c)
{
    invcase *x = c->ctx;
    if (!c->have_ref)
        memcpy(x->ref, x->pmf, sizeof x->ref);
    CHECK(memcmp(x->ref, x->pmf, sizeof x->ref) == 0);
}

/* fsh_stats_pearson_sf allocates its groups and two rows of states per
   group (four groups here): FSH_ENOMEM leaves *p unchanged. */
typedef struct {
    double p, ref;
} pearsoncase;

static void pearson_prepare(acase *c)
{
    ((pearsoncase *)c->ctx)->p = -1;
}
static int pearson_call(acase *c)
{
    static const double pr[4] = {0.1, 0.2, 0.3, 0.4};
    return fsh_stats_pearson_sf(40, pr, 4, 12, &((pearsoncase *)c->ctx)->p);
}
static void pearson_fail(acase *c)
{
    CHECK(((pearsoncase *)c->ctx)->p == -1);
    CHECK_EQ(call_errno, EDOM); /* errno kept, as inv_fail */
}
static void pearson_ok(acase *c)
{
    pearsoncase *x = c->ctx;
    if (!c->have_ref)
        x->ref = x->p;
    CHECK(x->p == x->ref && x->p > 0 && x->p < 1);
}

static int psteps_call(acase *c)
{
    static const double pr[4] = {0.1, 0.2, 0.3, 0.4};
    return fsh_stats_pearson_steps(40, pr, 4, 12,
                                   &((pearsoncase *)c->ctx)->p);
}
static void psteps_ok(acase *c)
{
    pearsoncase *x = c->ctx;
    if (!c->have_ref)
        x->ref = x->p;
    CHECK(x->p == x->ref && x->p > 0);
}

static int pbytes_call(acase *c)
{
    static const double pr[4] = {0.1, 0.2, 0.3, 0.4};
    return fsh_stats_pearson_bytes(40, pr, 4, 12,
                                   &((pearsoncase *)c->ctx)->p);
}

/* fsh_stats_pearson_equal_bound allocates its transforms (4 n long
   doubles): FSH_ENOMEM leaves *p unchanged (fsh_stats_chi2_sf(3)). 200
   counts over 6 cells at the limit's 1e-4 quantile, 20.5: a tail the
   quick one-cell bound does not settle, so the transform runs. */
static void peqcase_prepare(acase *c)
{
    ((pearsoncase *)c->ctx)->p = -1;
}
static int peqcase_call(acase *c)
{
    return fsh_stats_pearson_equal_bound(200, 6, 20.5,
                                         &((pearsoncase *)c->ctx)->p);
}

/* fsh_rangeperm_new: the hash map (hint 0), the dense array (hint near the
   range; its allocation failing falls back to the map, same output). */
#define RP_DRAWS 200
typedef struct {
    fsh_rangeperm *p;
    uint64_t last;
    size_t hint;
    uint64_t out[RP_DRAWS], ref[RP_DRAWS];
} rpnewcase;

static void rpnew_prepare(acase *c)
{
    rpnewcase *x = c->ctx;
    x->p = SENTINEL;
}
static int rpnew_call(acase *c)
{
    rpnewcase *x = c->ctx;
    return fsh_rangeperm_new(&x->p, 0, x->last, x->hint);
}
static void rpnew_fail(acase *c)
{
    rpnewcase *x = c->ctx;
    CHECK(x->p == NULL);
}
/* r for step i of a fixed sequence of offsets into [0, last - i]. */
static uint64_t offset_at(uint64_t last, uint64_t i)
{
    uint64_t z = (i + 1) * UINT64_C(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    z ^= z >> 31;
    uint64_t span = last - i;
    return span == UINT64_MAX ? z : z % (span + 1);
}
static void rpnew_ok(acase *c)
{
    rpnewcase *x = c->ctx;
    CHECK(x->p != NULL && x->p != SENTINEL);
    if (x->p == NULL || x->p == SENTINEL)
        return;
    int rc = FSH_OK;
    for (uint64_t i = 0; i < RP_DRAWS && rc == FSH_OK; i++)
        rc = fsh_rangeperm_next_at(x->p, &x->out[i], offset_at(x->last, i));
    CHECK_EQ(rc, FSH_OK);
    if (!c->have_ref)
        memcpy(x->ref, x->out, sizeof x->ref);
    CHECK(memcmp(x->ref, x->out, sizeof x->ref) == 0);
    fsh_rangeperm_free(x->p);
}

/* fsh_rangeperm_next, fsh_rangeperm_next_at and fsh_rangeperm_next_n
   (7 a call) over many draws (the map grows, doubling; over 10,000 values
   it gives way to the array of the range where it grows past 1,000 draws,
   and a failure there falls back to growing the map): the failing draw leaves
   the permutation as it was (drawn count, *out), and the permutation goes
   on afterwards: with next_at, retrying the same offset gives the clean
   run's sequence; with next and next_n (whose draws are spent), the
   values stay distinct and in range. */
#define RN_DRAWS 3000
#define RN_BATCH 7
typedef struct {
    fsh_rangeperm *p;
    int at; /* 1: next_at, 2: next_n, else next */
    uint64_t last;
    size_t i; /* draws made */
    uint64_t out[RN_DRAWS], ref[RN_DRAWS];
} rpnextcase;

static void rpnext_prepare(acase *c)
{
    rpnextcase *x = c->ctx;
    reseed();
    CHECK_EQ(fsh_rangeperm_new(&x->p, 0, x->last, 0), FSH_OK);
    for (size_t i = 0; i < RN_DRAWS; i++)
        x->out[i] = UINT64_MAX;
    x->i = 0;
}
/* The next draw or batch: its status, *m = the draws it made. */
static int rpnext_step(rpnextcase *x, size_t *m)
{
    *m = 1;
    if (x->at == 2) {
        *m = RN_DRAWS - x->i < RN_BATCH ? RN_DRAWS - x->i : RN_BATCH;
        return fsh_rangeperm_next_n(seeded, x->p, &x->out[x->i], *m);
    }
    return x->at ? fsh_rangeperm_next_at(x->p, &x->out[x->i],
                                         offset_at(x->last, x->i))
                 : fsh_rangeperm_next(seeded, x->p, &x->out[x->i]);
}
static int rpnext_call(acase *c)
{
    rpnextcase *x = c->ctx;
    size_t m;
    for (; x->i < RN_DRAWS; x->i += m) {
        int rc = rpnext_step(x, &m);
        if (rc != FSH_OK)
            return rc;
    }
    return FSH_OK;
}
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}
/* a[0..n) distinct and each <= last. */
static int distinct_in_range(const uint64_t *a, size_t n, uint64_t last)
{
    uint64_t *s = malloc(n * sizeof *s);
    if (s == NULL)
        return 0;
    memcpy(s, a, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_u64);
    int ok = 1;
    for (size_t i = 0; i < n; i++)
        if (s[i] > last || (i > 0 && s[i] == s[i - 1]))
            ok = 0;
    free(s);
    return ok;
}
static void rpnext_ok(acase *c)
{
    rpnextcase *x = c->ctx;
    CHECK_EQ(x->i, RN_DRAWS);
    if (!c->have_ref) {
        memcpy(x->ref, x->out, sizeof x->ref);
        CHECK(distinct_in_range(x->ref, RN_DRAWS, x->last));
    }
    CHECK(memcmp(x->ref, x->out, sizeof x->ref) == 0);
    fsh_rangeperm_free(x->p);
}
static void rpnext_fail(acase *c)
{
    rpnextcase *x = c->ctx;
    CHECK_EQ(fsh_rangeperm_drawn(x->p), x->i);
    CHECK(x->out[x->i] == UINT64_MAX);
    int rc = rpnext_call(c); /* go on, unarmed */
    CHECK_EQ(rc, FSH_OK);
    if (x->at == 1)
        CHECK(memcmp(x->ref, x->out, sizeof x->ref) == 0);
    else
        CHECK(distinct_in_range(x->out, RN_DRAWS, x->last));
    fsh_rangeperm_free(x->p);
}

/* fsh_sample_range: out untouched on failure. */
typedef struct {
    uint64_t lo, hi;
    size_t k;
    uint64_t *out, *ref;
} samplecase;

static void sample_prepare(acase *c)
{
    samplecase *x = c->ctx;
    reseed();
    for (size_t i = 0; i < x->k; i++)
        x->out[i] = 7;
}
static int sample_call(acase *c)
{
    samplecase *x = c->ctx;
    return fsh_sample_range(seeded, x->out, x->k, x->lo, x->hi);
}
static void sample_fail(acase *c)
{
    samplecase *x = c->ctx;
    size_t bad = 0;
    for (size_t i = 0; i < x->k; i++)
        bad += x->out[i] != 7;
    if (bad)
        fprintf(stderr, "%s: %zu of %zu outputs written by a failed call\n",
                c->name, bad, x->k);
    CHECK_EQ(bad, 0);
}
static void sample_ok(acase *c)
{
    samplecase *x = c->ctx;
    if (!c->have_ref) {
        memcpy(x->ref, x->out, x->k * sizeof *x->out);
        for (size_t i = 0; i < x->k; i++)
            x->ref[i] -= x->lo;
        CHECK(distinct_in_range(x->ref, x->k, x->hi - x->lo));
        memcpy(x->ref, x->out, x->k * sizeof *x->out);
    }
    CHECK(memcmp(x->ref, x->out, x->k * sizeof *x->out) == 0);
}

/* Shuffles of large arrays (above 24 MiB: the scatter shuffle). Element i
   of the input holds i (in its first 4 or 8 bytes; the rest of a 12-byte
   element is a function of i), so "a permutation of the input" is checked
   with a bitmap. */
enum {
    SH_U32,
    SH_U64,
    SH_GEN12,
    SH_THREADS,
    SH_PERM,
    SH_PERM32,
    SH_RECORDS, /* fsh_shuffle_records: unchanged on failure above 2^20 */
    SH_GROUP,   /* fsh_records_shuffle_group: unchanged on failure */
    SH_GROUP_WIDE /* the same records passed as all 2^24 buckets */
};
static uint8_t group_key[32];
static uint32_t *group_ids; /* bucket ids of the SH_GROUP records */
static unsigned group_bits;
typedef struct {
    int kind;
    size_t n, size;
    unsigned threads;
    unsigned char *a, *ref;
    int given_ref; /* ref holds another case's clean output */
} shufcase;

static uint64_t elem_id(const shufcase *x, size_t i)
{
    const unsigned char *e = x->a + i * x->size;
    if (x->size == 4) {
        uint32_t v;
        memcpy(&v, e, 4);
        return v;
    }
    uint64_t v;
    memcpy(&v, e, 8);
    return v;
}

/* Bytes 8.. of an element larger than 8 bytes. */
static unsigned char tail_byte(uint64_t id, size_t j)
{
    return (unsigned char)((uint32_t)(id * 2654435761u) >> (8 * (j % 4)));
}

/* Bytes 8..size of element id: tail_byte repeats every 4
   bytes, so the first 4 are doubled by copies (the fill and the check
   of the 24 MiB cases ran byte by byte: most of this program's time). */
static void tail_fill(unsigned char *e, uint64_t id, size_t size)
{
    if (size <= 8)
        return;
    for (size_t j = 8; j < 12 && j < size; j++)
        e[j] = tail_byte(id, j);
    for (size_t have = 4; 8 + have < size; have *= 2) {
        size_t c = size - 8 - have < have ? size - 8 - have : have;
        memcpy(e + 8 + have, e + 8, c);
    }
}

static void shuf_fill(shufcase *x)
{
    for (size_t i = 0; i < x->n; i++) {
        unsigned char *e = x->a + i * x->size;
        if (x->size == 4) {
            uint32_t v = (uint32_t)i;
            memcpy(e, &v, 4);
        } else {
            uint64_t v = i;
            memcpy(e, &v, 8);
            tail_fill(e, i, x->size);
        }
    }
}

static void shuf_prepare(acase *c)
{
    shufcase *x = c->ctx;
    reseed();
    if (x->kind == SH_PERM || x->kind == SH_PERM32)
        memset(x->a, 0xA5, x->n * x->size);
    else
        shuf_fill(x);
}
static int shuf_call(acase *c)
{
    shufcase *x = c->ctx;
    switch (x->kind) {
    case SH_U32:
        return fsh_shuffle_u32(seeded, (uint32_t *)(void *)x->a, x->n);
    case SH_U64:
        return fsh_shuffle_u64(seeded, (uint64_t *)(void *)x->a, x->n);
    case SH_GEN12:
        return fsh_shuffle(seeded, x->a, x->n, x->size);
    case SH_THREADS:
        return fsh_shuffle_threads(seeded, x->a, x->n, x->size, x->threads);
    case SH_PERM:
        return fsh_permutation(seeded, (uint64_t *)(void *)x->a, 0, x->n - 1);
    case SH_RECORDS:
        return fsh_shuffle_records(seeded, x->a, x->n, x->size, x->threads);
    case SH_GROUP:
        return fsh_records_shuffle_group(group_key, x->a, x->n, x->size,
                                         group_ids, 0,
                                         (uint32_t)1 << group_bits, x->threads);
    case SH_GROUP_WIDE:
        return fsh_records_shuffle_group(
            group_key, x->a, x->n, x->size, group_ids, 0,
            (uint32_t)1 << FSH_RECORDS_MAX_BITS, x->threads);
    default:
        return fsh_permutation_u32(seeded, (uint32_t *)(void *)x->a, 0,
                                   (uint32_t)(x->n - 1));
    }
}
/* The array is a permutation of 0..n-1 (ids), 12-byte tails intact. */
static int shuf_is_perm(shufcase *x)
{
    size_t words = (x->n + 63) / 64;
    uint64_t *seen = calloc(words, sizeof *seen);
    if (seen == NULL)
        return 0;
    int ok = 1;
    for (size_t i = 0; i < x->n && ok; i++) {
        uint64_t v = elem_id(x, i);
        if (v >= x->n || (seen[v / 64] >> (v % 64) & 1))
            ok = 0;
        else
            seen[v / 64] |= (uint64_t)1 << (v % 64);
        if (ok && x->size > 8 && x->size <= 8192) {
            static unsigned char row[8192];
            tail_fill(row, v, x->size);
            ok = memcmp(x->a + i * x->size + 8, row + 8, x->size - 8) == 0;
        }
    }
    free(seen);
    return ok;
}
/* Element i holds id i: the input as prepared. */
static int shuf_is_input(shufcase *x)
{
    for (size_t i = 0; i < x->n; i++)
        if (elem_id(x, i) != i)
            return 0;
    return shuf_is_perm(x);
}
static void shuf_fail(acase *c)
{
    shufcase *x = c->ctx;
    /* The documented state after FSH_ENOMEM: the record calls above 2^20
       records leave the array unchanged, the shuffles leave a permutation. */
    if (x->kind == SH_GROUP || x->kind == SH_GROUP_WIDE ||
        (x->kind == SH_RECORDS && x->n > FSH_RECORDS_SMALL))
        CHECK(shuf_is_input(x));
    else
        CHECK(shuf_is_perm(x));
}
static void shuf_ok(acase *c)
{
    shufcase *x = c->ctx;
    if (!c->have_ref && !x->given_ref) {
        CHECK(shuf_is_perm(x));
        memcpy(x->ref, x->a, x->n * x->size);
    }
    CHECK(memcmp(x->ref, x->a, x->n * x->size) == 0);
}

/* The largest allocation of shufcase x's clean run (which must succeed):
   the header's promises of what a call allocates. */
static size_t shuf_largest(shufcase *x)
{
    acase c = {"largest", shuf_prepare, shuf_call, shuf_fail, shuf_ok,
               x, 0, 1};
    c.prepare(&c);
    atomic_store(&largest, 0);
    arm(&allocs, 0, 0);
    CHECK_EQ(c.call(&c), FSH_OK);
    disarm(&allocs);
    return atomic_load(&largest);
}

/* ------------------------------------------------------------------------ */

static void run_case(const char *name, void (*prepare)(acase *),
                     int (*call)(acase *), void (*after_fail)(acase *),
                     void (*after_ok)(acase *), void *ctx, point *pt)
{
    acase c = {name, prepare, call, after_fail, after_ok, ctx, 0, 1};
    drive(&c, pt);
}

int main(void)
{
    CHECK_EQ(sizeof seed32, 33);
    CHECK_EQ(fsh_rng_new_seeded(&seeded, seed32, 32), FSH_OK);
    if (seeded == NULL)
        return check_done("test_alloc");
    CHECK_EQ(fsh_rng_set_simulation(seeded, 1), FSH_OK);

    rngcase rn = {0};
    run_case("fsh_rng_new", rng_prepare, rng_call, rng_fail, rng_ok, &rn,
             &allocs);
    rngcase rs = {.seeded = 1};
    run_case("fsh_rng_new_seeded", rng_prepare, rng_call, rng_fail, rng_ok, &rs,
             &allocs);

    deckcase dn = {.n = 52};
    run_case("fsh_deck_new", deck_prepare, deck_call, deck_fail, deck_ok, &dn,
             &allocs);
    static uint32_t shoe[64];
    for (size_t i = 0; i < 64; i++)
        shoe[i] = (uint32_t)(i % 52);
    deckcase df = {.n = 64, .from = shoe};
    run_case("fsh_deck_new_from", deck_prepare, deck_call, deck_fail, deck_ok,
             &df, &allocs);

    static cardsetcase css = {.kind = CS_STANDARD},
                       csc = {.kind = CS_CUSTOM}, csd = {.kind = CS_DECK};
    run_case("fsh_cardset_standard", cardset_prepare, cardset_call,
             cardset_fail, cardset_ok, &css, &allocs);
    run_case("fsh_cardset_custom", cardset_prepare, cardset_call,
             cardset_fail, cardset_ok, &csc, &allocs);
    run_case("fsh_deck_new_set", cardset_prepare, cardset_call, cardset_fail,
             cardset_ok, &csd, &allocs);

    static faircase f1 = {52, 1, 0, 0, {0}, {0}},
                    f8 = {52, 8, 0, 0, {0}, {0}},
                    fm = {52, 8, 1, 0, {0}, {0}};
    run_case("fsh_fair_order 52 x 1", fair_prepare, fair_call, fair_fail,
             fair_ok, &f1, &allocs);
    run_case("fsh_fair_order 52 x 8", fair_prepare, fair_call, fair_fail,
             fair_ok, &f8, &allocs);
    run_case("fsh_fair_seed_min 52 x 8", fair_prepare, fair_call, fair_fail,
             fair_ok, &fm, &allocs);

    /* fairshuf.h: fsh_fair_order allocates nothing but the seed rule's
       bignum (one block, for sets of up to 2048 cards; none above). */
    {
        static uint32_t big[3000];
        arm(&allocs, 0, 0);
        CHECK_EQ(fsh_fair_order(f8.out, 52, 8, fair_seed, sizeof fair_seed,
                                NULL, 0, 0), FSH_OK);
        disarm(&allocs);
        CHECK_EQ(atomic_load(&allocs.seen), 1);
        static uint8_t seed4k[3792];
        arm(&allocs, 0, 0);
        CHECK_EQ(fsh_fair_order(big, 3000, 1, seed4k, sizeof seed4k, NULL, 0,
                                0), FSH_OK);
        disarm(&allocs);
        CHECK_EQ(atomic_load(&allocs.seen), 0);
    }

    static invcase inv;
    run_case("fsh_stats_inversions_law", inv_prepare, inv_call, inv_fail,
             inv_ok, &inv, &allocs);
    static pearsoncase pearson;
    run_case("fsh_stats_pearson_sf", pearson_prepare, pearson_call,
             pearson_fail, pearson_ok, &pearson, &allocs);
    /* fsh_stats_pearson_steps sorts a copy of the probabilities, as
       fsh_stats_pearson_sf (its page said it allocated nothing). */
    static pearsoncase pst;
    run_case("fsh_stats_pearson_steps", pearson_prepare, psteps_call,
             pearson_fail, psteps_ok, &pst, &allocs);
    /* fsh_stats_pearson_bytes makes the same plan (a sorted copy). */
    static pearsoncase pby;
    run_case("fsh_stats_pearson_bytes", pearson_prepare, pbytes_call,
             pearson_fail, psteps_ok, &pby, &allocs);
    static pearsoncase peq;
    run_case("fsh_stats_pearson_equal_bound", peqcase_prepare, peqcase_call,
             pearson_fail, pearson_ok, &peq, &allocs);

    /* fsh_stats_chi2_sf(3): "no allocation except in
       fsh_stats_inversions_law(), fsh_stats_pearson_sf(),
       fsh_stats_pearson_steps(), fsh_stats_pearson_bytes() and
       fsh_stats_pearson_equal_bound()":
       every other statistics call, on
       arguments that take each its longer paths, allocates nothing. */
    {
        static const uint64_t obs[6] = {0, 9, 30, 2, 40, 19};
        static const double pr[6] = {0.01, 0.09, 0.3, 0.05, 0.35, 0.2};
        double a, b, c, pmf[64], gp[6];
        uint64_t go[6];
        size_t g;
        int ok = 0;
        arm(&allocs, 0, 0);
        ok += fsh_stats_gamma_pq(150, 160, &a, &b) == FSH_OK; /* Temme */
        ok += fsh_stats_gamma_pq(0.5, 3, &a, &b) == FSH_OK;
        ok += fsh_stats_chi2_sf(75.2, 51, &a) == FSH_OK;
        ok += fsh_stats_chi2_isf(1e-9, 51, &a) == FSH_OK;
        ok += fsh_stats_normal_sf(-3, &a) == FSH_OK;
        ok += fsh_stats_poisson_sf(12, 4.5, &a) == FSH_OK;
        ok += fsh_stats_fixed_points_law(63, pmf) == FSH_OK;
        ok += fsh_stats_successions_law(64, pmf) == FSH_OK;
        ok += fsh_stats_chi2_gof(obs, pr, 6, 5, &a, &b, &c) == FSH_OK;
        ok += fsh_stats_chi2_pool(obs, pr, 6, 5, go, gp, &g) == FSH_OK;
        disarm(&allocs);
        CHECK_EQ(ok, 10);
        CHECK_EQ(atomic_load(&allocs.seen), 0);
    }

    rpnewcase rpm = {.last = (uint64_t)1 << 40, .hint = 0};
    run_case("fsh_rangeperm_new (map)", rpnew_prepare, rpnew_call, rpnew_fail,
             rpnew_ok, &rpm, &allocs);
    rpnewcase rpa = {.last = 999, .hint = 1000};
    run_case("fsh_rangeperm_new (array)", rpnew_prepare, rpnew_call, rpnew_fail,
             rpnew_ok, &rpa, &allocs);

    /* fairshuf.h: the storage for the hint's draws is allocated by
       fsh_rangeperm_new, at once; the draws up to the hint allocate
       nothing (2^20 draws over 2^64 values: a map of 2^21 slots). */
    {
        fsh_rangeperm *p;
        size_t draws = (size_t)1 << 20;
        CHECK_EQ(fsh_rangeperm_new(&p, 0, UINT64_MAX, draws), FSH_OK);
        int rc = p != NULL ? FSH_OK : FSH_EINVAL;
        uint64_t v;
        arm(&allocs, 0, 0);
        for (size_t i = 0; i < draws && rc == FSH_OK; i++)
            rc = fsh_rangeperm_next_at(p, &v, offset_at(UINT64_MAX, i));
        disarm(&allocs);
        CHECK_EQ(rc, FSH_OK);
        CHECK_EQ(atomic_load(&allocs.seen), 0);
        fsh_rangeperm_free(p);
    }

    static rpnextcase rnx = {.at = 0, .last = (uint64_t)1 << 40};
    run_case("fsh_rangeperm_next (map grows)", rpnext_prepare, rpnext_call,
             rpnext_fail, rpnext_ok, &rnx, &allocs);
    static rpnextcase rna = {.at = 1, .last = (uint64_t)1 << 40};
    run_case("fsh_rangeperm_next_at (map grows)", rpnext_prepare, rpnext_call,
             rpnext_fail, rpnext_ok, &rna, &allocs);
    static rpnextcase rnn = {.at = 2, .last = (uint64_t)1 << 40};
    run_case("fsh_rangeperm_next_n (map grows)", rpnext_prepare, rpnext_call,
             rpnext_fail, rpnext_ok, &rnn, &allocs);
    static rpnextcase rnxa = {.at = 0, .last = 9999};
    run_case("fsh_rangeperm_next (map to array)", rpnext_prepare,
             rpnext_call, rpnext_fail, rpnext_ok, &rnxa, &allocs);
    static rpnextcase rnaa = {.at = 1, .last = 9999};
    run_case("fsh_rangeperm_next_at (map to array)", rpnext_prepare,
             rpnext_call, rpnext_fail, rpnext_ok, &rnaa, &allocs);
    static rpnextcase rnna = {.at = 2, .last = 9999};
    run_case("fsh_rangeperm_next_n (map to array)", rpnext_prepare,
             rpnext_call, rpnext_fail, rpnext_ok, &rnna, &allocs);

    /* The array of a range of 10,000 values (malloc'd, 40,000 bytes; the
       map is calloc'd): from fsh_rangeperm_new for a hint of a tenth of
       the range, and in place of the map where it grows after the draws
       passed a tenth (by next, next_at or next_n); below a tenth, the
       map. */
    for (int how = 0; how < 4; how++) {
        fsh_rangeperm *p = NULL;
        int rc = FSH_OK;
        uint64_t v[RN_BATCH];
        reseed();
        atomic_store(&largest, 0);
        arm(&allocs, 0, 0);
        CHECK_EQ(fsh_rangeperm_new(&p, 0, 9999, how == 0 ? 1000 : 0), FSH_OK);
        for (size_t i = 0; p != NULL && how > 0 && i < 2100 && rc == FSH_OK;
             i += how == 3 ? RN_BATCH : 1)
            rc = how == 1   ? fsh_rangeperm_next(seeded, p, &v[0])
                 : how == 2 ? fsh_rangeperm_next_at(p, &v[0],
                                                    offset_at(9999, i))
                            : fsh_rangeperm_next_n(seeded, p, v, RN_BATCH);
        disarm(&allocs);
        CHECK_EQ(rc, FSH_OK);
        CHECK_EQ(atomic_load(&largest), 10000 * sizeof(uint32_t));
        fsh_rangeperm_free(p);
    }
    {
        fsh_rangeperm *p = NULL;
        int rc = FSH_OK;
        uint64_t v;
        atomic_store(&largest, 0);
        arm(&allocs, 0, 0);
        CHECK_EQ(fsh_rangeperm_new(&p, 0, 9999, 0), FSH_OK);
        for (size_t i = 0; p != NULL && i < 999 && rc == FSH_OK; i++)
            rc = fsh_rangeperm_next_at(p, &v, offset_at(9999, i));
        disarm(&allocs);
        CHECK_EQ(rc, FSH_OK);
        CHECK_EQ(atomic_load(&largest), 0);
        fsh_rangeperm_free(p);
    }

    /* Sparse (map sized from k), dense (array) and a large k (a map of
       2^21 slots, allocated once before the first draw). */
    size_t kmax = 700000;
    uint64_t *sout = malloc(kmax * sizeof *sout),
             *sref = malloc(kmax * sizeof *sref);
    CHECK(sout != NULL && sref != NULL);
    if (sout == NULL || sref == NULL)
        return check_done("test_alloc");
    samplecase s1 = {5, 5 + ((uint64_t)1 << 40), 3000, sout, sref};
    run_case("fsh_sample_range (map)", sample_prepare, sample_call, sample_fail,
             sample_ok, &s1, &allocs);
    samplecase s2 = {10, 1009, 800, sout, sref};
    run_case("fsh_sample_range (array)", sample_prepare, sample_call,
             sample_fail, sample_ok, &s2, &allocs);
    samplecase s3 = {0, UINT64_MAX, kmax, sout, sref};
    run_case("fsh_sample_range (map grows)", sample_prepare, sample_call,
             sample_fail, sample_ok, &s3, &allocs);
    free(sout);
    free(sref);

    /* 36 MiB arrays: the scatter shuffle. */
    size_t bytes = (size_t)36 << 20;
    unsigned char *a = malloc(bytes), *ref = malloc(bytes),
                  *ref64 = malloc(bytes);
    CHECK(a != NULL && ref != NULL && ref64 != NULL);
    if (a == NULL || ref == NULL || ref64 == NULL)
        return check_done("test_alloc");
    shufcase sh;
    sh = (shufcase){SH_U32, bytes / 4, 4, 0, a, ref, 0};
    run_case("fsh_shuffle_u32 (36 MiB)", shuf_prepare, shuf_call, shuf_fail,
             shuf_ok, &sh, &allocs);
    sh = (shufcase){SH_GEN12, bytes / 12, 12, 0, a, ref, 0};
    run_case("fsh_shuffle size 12 (36 MiB)", shuf_prepare, shuf_call, shuf_fail,
             shuf_ok, &sh, &allocs);
    /* Records of 100 bytes go by index (src/shuffle/byindex.c): in cache
       and in the scatter's leaves, a failed index allocation falls back
       to the in-place kernel, whose permutation is the same. */
    sh = (shufcase){SH_GEN12, 20000, 100, 0, a, ref, 0};
    run_case("fsh_shuffle size 100 (2 MB, by index)", shuf_prepare,
             shuf_call, shuf_fail, shuf_ok, &sh, &allocs);
    /* fairshuf.h: the index takes 4 bytes per record (and one record). */
    size_t most = shuf_largest(&sh);
    CHECK(most > 0 && most <= 20000 * 4 + 100);
    /* ... and records above 4096 bytes are swapped in place: no
       allocation (the walk would hold a whole record aside). */
    {
        shufcase big = {SH_GEN12, 200, 4097, 0, a, ref, 0};
        acase c = {"in place", shuf_prepare, shuf_call, shuf_fail, shuf_ok,
                   &big, 0, 1};
        c.prepare(&c);
        arm(&allocs, 0, 0);
        CHECK_EQ(c.call(&c), FSH_OK);
        disarm(&allocs);
        CHECK_EQ(atomic_load(&allocs.seen), 0);
        CHECK(shuf_is_perm(&big));
    }
    size_t just_over = ((size_t)24 << 20) + 4096; /* the scatter's */
    sh = (shufcase){SH_GEN12, just_over / 100, 100, 0, a, ref, 0};
    run_case("fsh_shuffle size 100 (24 MiB)", shuf_prepare, shuf_call,
             shuf_fail, shuf_ok, &sh, &allocs);
    /* 1000 bytes on one thread: the scatter's permutation made on an
       index; without the index, the scatter in place (the same output). */
    sh = (shufcase){SH_GEN12, just_over / 1000, 1000, 0, a, ref, 0};
    run_case("fsh_shuffle size 1000 (24 MiB)", shuf_prepare, shuf_call,
             shuf_fail, shuf_ok, &sh, &allocs);
    sh = (shufcase){SH_U64, bytes / 8, 8, 0, a, ref64, 0};
    run_case("fsh_shuffle_u64 (36 MiB)", shuf_prepare, shuf_call, shuf_fail,
             shuf_ok, &sh, &allocs);
    /* fsh_shuffle_threads must give fsh_shuffle_u64's output (ref64). */
    static const unsigned nthreads[] = {1, 2, 4};
    static const char *const tname[] = {"fsh_shuffle_threads 1 (36 MiB)",
                                        "fsh_shuffle_threads 2 (36 MiB)",
                                        "fsh_shuffle_threads 4 (36 MiB)"};
    for (int t = 0; t < 3; t++) {
        sh = (shufcase){SH_THREADS, bytes / 8, 8, nthreads[t], a, ref64, 1};
        run_case(tname[t], shuf_prepare, shuf_call, shuf_fail, shuf_ok, &sh,
                 &allocs);
    }
    sh = (shufcase){SH_THREADS, bytes / 8, 8, 4, a, ref64, 1};
    run_case("fsh_shuffle_threads 4, pthread_create", shuf_prepare, shuf_call,
             shuf_fail, shuf_ok, &sh, &threads_pt);
    sh = (shufcase){SH_PERM, bytes / 8, 8, 0, a, ref, 0};
    run_case("fsh_permutation (36 MiB)", shuf_prepare, shuf_call, shuf_fail,
             shuf_ok, &sh, &allocs);
    sh = (shufcase){SH_PERM32, bytes / 4, 4, 0, a, ref, 0};
    run_case("fsh_permutation_u32 (36 MiB)", shuf_prepare, shuf_call, shuf_fail,
             shuf_ok, &sh, &allocs);

    /* Record shuffles: 1.5 million records (above FSH_RECORDS_SMALL, the
       keyed bucket rule), threads 1 and 4, and FSH_RECORDS_SMALL records of
       32 bytes (32 MiB: fsh_shuffle, the scatter shuffle). */
    CHECK_EQ(fsh_rng_set_simulation(seeded, 1), FSH_OK); /* 256 bits anyway */
    sh = (shufcase){SH_RECORDS, 1500000, 4, 1, a, ref, 0};
    run_case("fsh_shuffle_records 1.5M, 1 thread", shuf_prepare, shuf_call,
             shuf_fail, shuf_ok, &sh, &allocs);
    sh = (shufcase){SH_RECORDS, 1500000, 4, 4, a, ref, 1};
    run_case("fsh_shuffle_records 1.5M, 4 threads", shuf_prepare, shuf_call,
             shuf_fail, shuf_ok, &sh, &allocs);
    sh = (shufcase){SH_RECORDS, 1500000, 4, 4, a, ref, 1};
    run_case("fsh_shuffle_records 1.5M, pthread_create", shuf_prepare,
             shuf_call, shuf_fail, shuf_ok, &sh, &threads_pt);
    sh = (shufcase){SH_RECORDS, FSH_RECORDS_SMALL, 32, 2, a, ref, 0};
    run_case("fsh_shuffle_records 2^20 x 32 bytes", shuf_prepare, shuf_call,
             shuf_fail, shuf_ok, &sh, &allocs);
    /* One group of every bucket of 1.5 million records. */
    CHECK_EQ(fsh_rng_bytes(seeded, group_key, 32), FSH_OK);
    group_bits = fsh_records_bits(1500000);
    group_ids = malloc(1500000 * sizeof *group_ids);
    CHECK(group_ids != NULL);
    if (group_ids != NULL) {
        CHECK_EQ(
            fsh_records_buckets(group_key, group_ids, 1500000, group_bits, 0),
            FSH_OK);
        sh = (shufcase){SH_GROUP, 1500000, 4, 1, a, ref, 0};
        run_case("fsh_records_shuffle_group, 1 thread", shuf_prepare, shuf_call,
                 shuf_fail, shuf_ok, &sh, &allocs);
        sh = (shufcase){SH_GROUP, 1500000, 4, 3, a, ref, 1};
        run_case("fsh_records_shuffle_group, 3 threads", shuf_prepare,
                 shuf_call, shuf_fail, shuf_ok, &sh, &allocs);
        /* 100,000 of them passed as the range of all 2^24 buckets: fewer
           records than buckets, so no 2^24 counts (128 MiB) but 8 bytes
           per record (fairshuf.h). */
        sh = (shufcase){SH_GROUP_WIDE, 100000, 4, 2, a, ref, 0};
        run_case("fsh_records_shuffle_group, 2^24 buckets", shuf_prepare,
                 shuf_call, shuf_fail, shuf_ok, &sh, &allocs);
        most = shuf_largest(&sh);
        CHECK(most > 0 && most <= 100000 * 8);
        free(group_ids);
    }
    free(a);
    free(ref);
    free(ref64);

    fsh_rng_free(seeded);
    CHECK_EQ(atomic_load(&live), 0);
    return check_done("test_alloc");
}
