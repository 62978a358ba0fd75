/* SPDX-License-Identifier: MIT */
/*
 * fairshuf benchmark (make bench): ns per element of the library's shuffles,
 * side by side in one run with
 *   - "textbook": backward Fisher-Yates, one Lemire bounded draw per element,
 *     fed with the SAME generator's words through the fastest public path
 *     (fsh_rng_u64 per draw, or a local 128-word buffer refilled by
 *     fsh_rng_u64 or fsh_rng_bytes), chosen per generator at start-up;
 *   - "textbook_inline": the same loop with xoshiro256++ inlined in the
 *     bench (same seed, same words as the library's), the strongest textbook;
 *   - "textbook_call": the same loop, one fsh_rng_u64 call per draw;
 *   - "std_shuffle": libstdc++ std::shuffle with std::mt19937_64 (peer_std.cpp);
 *   - "batched", "batched_clang": the batched-index shuffle of
 *     Brackett-Rozinsky & Lemire with lehmer64, written here from their
 *     paper (peer_batched.c), built by $(CC) and by clang;
 *   - "memcpy" of the same array (bandwidth reference);
 *   - "swaps": the n - 1 swaps of a backward Fisher-Yates with the indices
 *     drawn before the timing (a uint32 array): no generator, no bounded
 *     draws, so a floor for any Fisher-Yates on this array and machine.
 * Every cell of one size is timed in the same run, repetitions interleaved
 * (rep r times all cells, then rep r+1 ...), and the median is reported.
 * See docs/PERFORMANCE.md for the method and the environment variables.
 *
 * Usage: bench                       the run configured by FSH_BENCH_* variables
 *        bench --one METHOD GEN N K  set up one cell and run K operations
 *                                    untimed (for perf.sh / callgrind)
 *        bench --list                methods, generators and size rows
 */
#define _GNU_SOURCE /* sysconf(_SC_NPROCESSORS_ONLN), uname */

#include "fairshuf.h"
#include "peer.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#ifndef FSH_BENCH_CFLAGS
#define FSH_BENCH_CFLAGS "(unknown)"
#endif
#ifndef FSH_BENCH_CXXFLAGS
#define FSH_BENCH_CXXFLAGS "(unknown)"
#endif

__extension__ typedef unsigned __int128 u128;

#define UNLIKELY(x) __builtin_expect(!!(x), 0)

#define SEED "fairshuf-bench-v1" /* ChaCha cells: fsh_rng_seed_gen(SEED) */
#define XOSHIRO_SEED 0x5eed5eed2024ull /* xoshiro cells: fsh_rng_key_xoshiro */
#define STD_SEED 20240601u       /* std::mt19937_64 seed */
#define BATCHED_SEED 20240813u   /* batched peer: lehmer64 seed */
#define MAX_REPS 101
#define TB_WORDS 128 /* textbook word buffer: the library's refill size */

/* ------------------------------------------------------------------------ */
/* Configuration tables: adding a generator, method or size is one row.     */

typedef struct gen_info {
    const char *name; /* CSV "generator" column */
    fsh_gen gen;
} gen_info;

static const gen_info GENS[] = {
    {"chacha20", FSH_GEN_CHACHA20},
    {"chacha12", FSH_GEN_CHACHA12},
    {"chacha8", FSH_GEN_CHACHA8},
    {"xoshiro256pp", FSH_GEN_XOSHIRO256PP},
};
#define NGENS (sizeof GENS / sizeof GENS[0])

/* How "textbook" reaches the generator's words through the public API. All
   three give the same words; choose_textbook_path() times real textbook
   shuffles with each at start-up and keeps the fastest, per GENS[] entry. */
enum { TB_CALL, TB_U64, TB_BYTES, TB_NPATHS };
static const char *const TB_PATH_NAMES[TB_NPATHS] = {"call", "u64", "bytes"};
static int tb_path[NGENS];
static double tb_path_ns[NGENS][TB_NPATHS];
#define TB_PATH(c) tb_path[(c)->g - GENS]

struct cell;

typedef struct method {
    const char *name;      /* CSV "method" column */
    size_t elem_bytes;     /* element width; the key sits in the first 4/8 */
    unsigned threads;      /* CSV "threads" column */
    int on_by_default;     /* runs unless FSH_BENCH_METHODS or a size row says */
    const char *gen_label; /* NULL: run once per fsh generator; else the
                              fixed generator it uses (CSV column) */
    const char *only_gens; /* NULL, or the generators it supports */
    int (*run)(struct cell *c);    /* one shuffle (or copy) of c->a[0..n) */
    double (*bits)(struct cell *c); /* bits per element drawn, or NULL */
    int (*setup)(struct cell *c);  /* optional extra set-up */
    const char *what;              /* legend */
} method;

/* Sizes: n, generators and methods (comma lists; NULL = all generators /
   all default methods) and when the row runs. */
#define RUN_DEFAULT 1 /* plain make bench */
#define RUN_QUICK 2   /* FSH_BENCH_QUICK=1 */
typedef struct size_row {
    double n;
    const char *gens;
    const char *methods;
    int runs;
} size_row;

/* The stream version every rng of the run follows (FSH_BENCH_STREAM, 1 or
   2; default the newest, what an OS-keyed rng runs): it decides which
   kernel shuffles 12-24 MiB and how many buckets the scatter takes. */
static unsigned bench_stream = FSH_STREAM_LATEST;

static const size_row SIZES[] = {
    {1e3, NULL, NULL, RUN_DEFAULT | RUN_QUICK},
    {1e4, NULL, NULL, RUN_DEFAULT | RUN_QUICK},
    {1e5, NULL, NULL, RUN_DEFAULT | RUN_QUICK},
    {1e6, NULL, NULL, RUN_DEFAULT | RUN_QUICK},
    /* 20 MB: the band where stream version 2 takes the scatter shuffle
       and version 1 the prefetching Fisher-Yates (FSH_BENCH_STREAM). */
    {2.5e6, NULL, "fairshuf,textbook,batched,memcpy", RUN_DEFAULT},
    {1e7, NULL, NULL, RUN_DEFAULT},
    {1e7, "xoshiro256pp,chacha20", "threads1,threads2", RUN_DEFAULT},
    /* Issue 4 (beyond cache): 800 MB and 4 GB arrays. */
    {1e8, "chacha20,xoshiro256pp",
     "fairshuf,textbook,textbook_inline,std_shuffle,memcpy,batched,threads1,"
     "threads2",
     RUN_DEFAULT},
    {1e9, "xoshiro256pp", "fairshuf_u32,fairshuf_u32_threads", RUN_DEFAULT},
};
#define NSIZES (sizeof SIZES / sizeof SIZES[0])

/* ------------------------------------------------------------------------ */
/* Cells: one (method, generator, n) measurement.                           */

typedef struct cell {
    const method *m;
    const char *gen;    /* generator name (CSV) */
    const gen_info *g;  /* NULL for methods with a fixed generator */
    size_t n;
    void *a;            /* n elements of m->elem_bytes (shared per width) */
    void *dst;          /* memcpy destination, n * 8 bytes */
    fsh_rng *rng;
    peer_std *peer;
    peer_batched pb;    /* batched peers: lehmer64 state and word count */
    uint64_t bits0;     /* fsh_rng_bits_used after set-up */
    uint64_t ops;       /* shuffles run since set-up (warm-up included) */
    /* textbook: words handed out = refills * TB_WORDS - (TB_WORDS - pos) */
    uint64_t tb_buf[TB_WORDS];
    unsigned tb_pos;
    uint64_t tb_refills;
    double std_bits;    /* std_shuffle: bits per element (probe) */
    uint64_t xs[4];     /* textbook_inline: xoshiro256++ state */
    uint64_t xwords;    /* textbook_inline: words drawn */
    uint32_t *idx;      /* swaps: idx[i] uniform in [0, i] */
    int status;         /* first non-OK status of any operation */
    size_t k;           /* operations per timing */
    double t[MAX_REPS]; /* ns per element, per repetition */
} cell;

/* One finished measurement, kept for the summary tables. */
typedef struct result {
    const char *method, *gen;
    size_t n, elem_bytes;
    unsigned threads;
    double ns, bits, spread;
    size_t k;
} result;

/* ------------------------------------------------------------------------ */
/* Methods                                                                  */

static int run_fsh_u64(cell *c)
{
    return fsh_shuffle_u64(c->rng, c->a, c->n);
}

static int run_fsh_u32(cell *c)
{
    return fsh_shuffle_u32(c->rng, c->a, c->n);
}

static int run_fsh_16(cell *c)
{
    return fsh_shuffle(c->rng, c->a, c->n, 16);
}

static int run_fsh_threads1(cell *c)
{
    return fsh_shuffle_threads(c->rng, c->a, c->n, 8, 1);
}

static int run_fsh_threads2(cell *c)
{
    return fsh_shuffle_threads(c->rng, c->a, c->n, 8, 2);
}

static int run_fsh_u32_threads(cell *c)
{
    return fsh_shuffle_threads(c->rng, c->a, c->n, 4, 0);
}

static int refill_via_u64(fsh_rng *rng, uint64_t *buf)
{
    int rc = FSH_OK;
    for (size_t i = 0; i < TB_WORDS && rc == FSH_OK; i++)
        rc = fsh_rng_u64(rng, &buf[i]);
    return rc;
}

static int tb_refill(cell *c)
{
    c->tb_refills++;
    if (TB_PATH(c) == TB_BYTES)
        return fsh_rng_bytes(c->rng, c->tb_buf, sizeof c->tb_buf);
    return refill_via_u64(c->rng, c->tb_buf);
}

/* Next buffered word; *pos lives in a register inside the loop. */
static inline uint64_t tb_next(cell *c, unsigned *pos)
{
    if (UNLIKELY(*pos == TB_WORDS)) {
        int rc = tb_refill(c);
        if (rc != FSH_OK && c->status == FSH_OK)
            c->status = rc;
        *pos = 0;
    }
    return c->tb_buf[(*pos)++];
}

/*
 * Textbook Fisher-Yates (Durstenfeld), backward, one Lemire
 * nearly-divisionless draw per element, words from the same fsh_rng. Buffered
 * paths read a local TB_WORDS buffer refilled by fsh_rng_bytes or a loop of
 * fsh_rng_u64; the call path (run_textbook_call) calls fsh_rng_u64 per draw.
 */
static int run_textbook_call(cell *c);

static int run_textbook_buffered(cell *c)
{
    uint64_t *restrict a = c->a;
    unsigned pos = c->tb_pos;
    for (size_t i = c->n - 1; i > 0; i--) {
        uint64_t s = (uint64_t)i + 1;
        u128 m = (u128)tb_next(c, &pos) * s;
        uint64_t l = (uint64_t)m;
        if (UNLIKELY(l < s)) {
            uint64_t t = (0 - s) % s;
            while (l < t) {
                m = (u128)tb_next(c, &pos) * s;
                l = (uint64_t)m;
            }
        }
        size_t j = (size_t)(m >> 64);
        uint64_t x = a[i];
        a[i] = a[j];
        a[j] = x;
    }
    c->tb_pos = pos;
    return c->status;
}

/* The textbook loop, one fsh_rng_u64 call per word. */
static inline uint64_t call_next(cell *c)
{
    uint64_t w = 0;
    int rc = fsh_rng_u64(c->rng, &w);
    if (UNLIKELY(rc != FSH_OK) && c->status == FSH_OK)
        c->status = rc;
    return w;
}

static int run_textbook_call(cell *c)
{
    uint64_t *restrict a = c->a;
    for (size_t i = c->n - 1; i > 0; i--) {
        uint64_t s = (uint64_t)i + 1;
        u128 m = (u128)call_next(c) * s;
        uint64_t l = (uint64_t)m;
        if (UNLIKELY(l < s)) {
            uint64_t t = (0 - s) % s;
            while (l < t) {
                m = (u128)call_next(c) * s;
                l = (uint64_t)m;
            }
        }
        size_t j = (size_t)(m >> 64);
        uint64_t x = a[i];
        a[i] = a[j];
        a[j] = x;
    }
    return c->status;
}

/* xoshiro256++ (Blackman & Vigna), as the library seeds it: the state is
   four successive SplitMix64 outputs of the seed. */
static inline uint64_t rotl64(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static inline uint64_t xoshiro_next(uint64_t s[4])
{
    uint64_t r = rotl64(s[0] + s[3], 23) + s[0];
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return r;
}

/* Seed like fsh_rng_key_xoshiro and check the words really are the
   library's. */
static int setup_inline(cell *c)
{
    uint64_t x = XOSHIRO_SEED;
    for (int i = 0; i < 4; i++)
        c->xs[i] = splitmix64(&x);
    uint64_t s[4];
    memcpy(s, c->xs, sizeof s);
    fsh_rng *ref;
    int rc = fsh_rng_new(&ref);
    if (rc == FSH_OK)
        rc = fsh_rng_key_xoshiro(ref, XOSHIRO_SEED);
    for (int i = 0; i < 1000 && rc == FSH_OK; i++) {
        uint64_t w;
        rc = fsh_rng_u64(ref, &w);
        if (rc == FSH_OK && w != xoshiro_next(s)) {
            fprintf(stderr, "bench: inline xoshiro256++ differs from the "
                            "library's at word %d\n", i);
            rc = FSH_EINVAL;
        }
    }
    fsh_rng_free(ref);
    return rc;
}

static int run_textbook_inline(cell *c)
{
    uint64_t *restrict a = c->a;
    uint64_t s[4] = {c->xs[0], c->xs[1], c->xs[2], c->xs[3]};
    uint64_t words = 0;
    for (size_t i = c->n - 1; i > 0; i--) {
        uint64_t bound = (uint64_t)i + 1;
        u128 m = (u128)xoshiro_next(s) * bound;
        uint64_t l = (uint64_t)m;
        words++;
        if (UNLIKELY(l < bound)) {
            uint64_t t = (0 - bound) % bound;
            while (l < t) {
                m = (u128)xoshiro_next(s) * bound;
                l = (uint64_t)m;
                words++;
            }
        }
        size_t j = (size_t)(m >> 64);
        uint64_t x = a[i];
        a[i] = a[j];
        a[j] = x;
    }
    memcpy(c->xs, s, sizeof s);
    c->xwords += words;
    return FSH_OK;
}

static double bits_inline(cell *c)
{
    return 64.0 * (double)c->xwords / ((double)c->ops * (double)c->n);
}

/* "textbook": the fastest public path for this generator. */
static int run_textbook(cell *c)
{
    if (TB_PATH(c) == TB_CALL)
        return run_textbook_call(c);
    return run_textbook_buffered(c);
}

static int setup_std(cell *c)
{
    c->peer = peer_std_new(STD_SEED);
    if (c->peer == NULL)
        return FSH_ENOMEM;
    /* Bits: one untimed shuffle through a counting engine wrapper. */
    uint64_t words = peer_std_shuffle_count_words(c->peer, c->a, c->n);
    c->std_bits = 64.0 * (double)words / (double)c->n;
    return FSH_OK;
}

static int run_std(cell *c)
{
    peer_std_shuffle(c->peer, c->a, c->n);
    return FSH_OK;
}

static int setup_batched(cell *c)
{
    peer_batched_seed(&c->pb, BATCHED_SEED);
    return FSH_OK;
}

static int setup_batched_clang(cell *c)
{
    peer_batched_clang_seed(&c->pb, BATCHED_SEED);
    return FSH_OK;
}

static int run_batched(cell *c)
{
    peer_batched_shuffle(&c->pb, c->a, c->n);
    return FSH_OK;
}

static int run_batched_clang(cell *c)
{
    peer_batched_clang_shuffle(&c->pb, c->a, c->n);
    return FSH_OK;
}

static double bits_batched(cell *c)
{
    return 64.0 * (double)c->pb.words / ((double)c->ops * (double)c->n);
}

static int run_memcpy(cell *c)
{
    memcpy(c->dst, c->a, c->n * 8);
    return FSH_OK;
}

/* "swaps": the indices of one backward Fisher-Yates (xoshiro256++ and
   Lemire's bounded draw, as textbook_inline), drawn once at set-up; each
   timed operation applies the same n - 1 swaps. */
static int setup_swaps(cell *c)
{
    if (c->n > UINT32_MAX)
        return FSH_EINVAL;
    c->idx = malloc(c->n * sizeof *c->idx);
    if (c->idx == NULL)
        return FSH_ENOMEM;
    uint64_t s[4] = {0x9e3779b97f4a7c15u, 0xbf58476d1ce4e5b9u,
                     0x94d049bb133111ebu, 0x2545f4914f6cdd1du};
    c->idx[0] = 0;
    for (size_t i = c->n - 1; i > 0; i--) {
        uint64_t bound = (uint64_t)i + 1, t = (0 - bound) % bound;
        u128 m;
        do
            m = (u128)xoshiro_next(s) * bound;
        while ((uint64_t)m < t);
        c->idx[i] = (uint32_t)(m >> 64);
    }
    return FSH_OK;
}

static int run_swaps(cell *c)
{
    uint64_t *restrict a = c->a;
    const uint32_t *restrict idx = c->idx;
    for (size_t i = c->n - 1; i > 0; i--) {
        size_t j = idx[i];
        uint64_t x = a[i];
        a[i] = a[j];
        a[j] = x;
    }
    return FSH_OK;
}

static double bits_rng(cell *c)
{
    double used = (double)(fsh_rng_bits_used(c->rng) - c->bits0);
    return used / ((double)c->ops * (double)c->n);
}

static double bits_rng(cell *c);

static double bits_textbook(cell *c)
{
    if (TB_PATH(c) == TB_CALL)
        return bits_rng(c);
    double words = (double)c->tb_refills * TB_WORDS - (TB_WORDS - c->tb_pos);
    return 64.0 * words / ((double)c->ops * (double)c->n);
}

static double bits_std(cell *c)
{
    return c->std_bits;
}

/* The columns of the summary table name the first four; any other method
   is listed in the "other methods" table with its ratio to "fairshuf". */
static const method METHODS[] = {
    /* name, bytes, threads, default, gen_label, only_gens, run, bits, setup,
       what */
    {"fairshuf", 8, 1, 1, NULL, NULL, run_fsh_u64, bits_rng, NULL,
     "fsh_shuffle_u64"},
    {"textbook", 8, 1, 1, NULL, NULL, run_textbook, bits_textbook, NULL,
     "backward Fisher-Yates + Lemire, same generator, fastest public path"},
    {"textbook_inline", 8, 1, 1, NULL, "xoshiro256pp", run_textbook_inline,
     bits_inline, setup_inline, "textbook with xoshiro256++ inlined"},
    {"std_shuffle", 8, 1, 1, "mt19937_64", NULL, run_std, bits_std, setup_std,
     "libstdc++ std::shuffle, std::mt19937_64"},
    {"memcpy", 8, 1, 1, "none", NULL, run_memcpy, NULL, NULL,
     "memcpy of the n*8-byte array"},
    {"batched", 8, 1, 1, "lehmer64", NULL, run_batched, bits_batched,
     setup_batched,
     "batched-index peer (Brackett-Rozinsky & Lemire, lehmer64), $(CC)"},
    {"batched_clang", 8, 1, 1, "lehmer64", NULL, run_batched_clang,
     bits_batched, setup_batched_clang,
     "the same batched-index peer built by clang"},
    {"swaps", 8, 1, 1, "none", NULL, run_swaps, NULL, setup_swaps,
     "Fisher-Yates swaps alone, indices drawn before timing (a floor)"},
    {"textbook_call", 8, 1, 0, NULL, NULL, run_textbook_call, bits_rng, NULL,
     "textbook with one fsh_rng_u64 call per draw"},
    {"fairshuf_u32", 4, 1, 1, NULL, NULL, run_fsh_u32, bits_rng, NULL,
     "fsh_shuffle_u32"},
    {"fairshuf_16B", 16, 1, 0, NULL, NULL, run_fsh_16, bits_rng, NULL,
     "fsh_shuffle with 16-byte elements"},
    /* Large and parallel shuffles (scatter above 24 MiB); threaded rows
       are timed on the wall clock. */
    {"threads1", 8, 1, 0, NULL, NULL, run_fsh_threads1, bits_rng, NULL,
     "fsh_shuffle_threads, 1 thread"},
    {"threads2", 8, 2, 0, NULL, NULL, run_fsh_threads2, bits_rng, NULL,
     "fsh_shuffle_threads, 2 threads"},
    {"fairshuf_u32_threads", 4, 0, 0, NULL, NULL, run_fsh_u32_threads,
     bits_rng, NULL, "fsh_shuffle_threads, 32-bit, all cores"},
};
#define NMETHODS (sizeof METHODS / sizeof METHODS[0])

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static double clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Wall time: for totals and multi-threaded cells. */
static double now_ns(void)
{
    return clock_ns(CLOCK_MONOTONIC);
}

/*
 * The clock for one cell. Single-threaded cells use this thread's CPU time:
 * on a machine shared with other jobs, time spent descheduled would
 * otherwise land in whichever cell was running. Multi-threaded cells need
 * wall time. FSH_BENCH_CLOCK=wall forces wall time everywhere.
 */
static int wall_only;

static clockid_t cell_clock(unsigned threads)
{
    return threads != 1 || wall_only ? CLOCK_MONOTONIC
                                    : CLOCK_THREAD_CPUTIME_ID;
}

/* Is name in the comma-separated list? */
static int in_list(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; *p != '\0';) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == len && strncmp(p, name, len) == 0)
            return 1;
        if (e == NULL)
            break;
        p = e + 1;
    }
    return 0;
}

static const char *env(const char *name)
{
    const char *v = getenv(name);
    return (v != NULL && *v != '\0') ? v : NULL;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median(const double *v, size_t cnt, double *spread)
{
    double s[MAX_REPS];
    memcpy(s, v, cnt * sizeof *s);
    qsort(s, cnt, sizeof *s, cmp_double);
    double med = cnt % 2 ? s[cnt / 2] : (s[cnt / 2 - 1] + s[cnt / 2]) / 2;
    *spread = med > 0 ? (s[cnt - 1] - s[0]) / med : 0;
    return med;
}

/* "1e6" for powers of ten, else the digits. */
static const char *fmt_n(size_t n, char *buf, size_t len)
{
    int e = 0;
    size_t x = n;
    while (x >= 10 && x % 10 == 0)
        x /= 10, e++;
    if (x == 1 && e >= 3)
        snprintf(buf, len, "1e%d", e);
    else
        snprintf(buf, len, "%zu", n);
    return buf;
}

static double log2_fact_per_el(size_t n)
{
    return lgamma((double)n + 1) / log(2.0) / (double)n;
}

static const method *find_method(const char *name)
{
    for (size_t i = 0; i < NMETHODS; i++)
        if (strcmp(METHODS[i].name, name) == 0)
            return &METHODS[i];
    return NULL;
}

static const gen_info *find_gen(const char *name)
{
    for (size_t i = 0; i < NGENS; i++)
        if (strcmp(GENS[i].name, name) == 0)
            return &GENS[i];
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Machine report                                                           */

static void read_line(const char *path, char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return;
    if (fgets(buf, (int)len, f) == NULL)
        buf[0] = '\0';
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
}

/* Value of the first "key<spaces>: value" line of /proc/cpuinfo. */
static void cpuinfo(const char *key, char *buf, size_t len)
{
    char line[8192]; /* the flags line is long */
    size_t klen = strlen(key);
    buf[0] = '\0';
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL)
        return;
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, key, klen) != 0 || !strchr(" \t:", line[klen]))
            continue;
        char *v = strchr(line, ':');
        if (v == NULL)
            continue;
        v++;
        while (*v == ' ')
            v++;
        v[strcspn(v, "\n")] = '\0';
        snprintf(buf, len, "%s", v);
        break;
    }
    fclose(f);
}

/* The ISA features that choose code paths here (ChaCha's AVX2 and
   AVX-512 kernels, 128-bit multiplies), from /proc/cpuinfo's flags. */
static void print_isa(void)
{
    static const char *const want[] = {"sse4_2", "avx",      "avx2",
                                       "bmi2",   "avx512f",  "avx512vl",
                                       "avx512bw", "avx512dq", "adx"};
    char *flags = malloc(8192);
    if (flags == NULL)
        return;
    cpuinfo("flags", flags, 8192);
    printf("- ISA features:");
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        size_t len = strlen(want[i]);
        int have = 0;
        for (const char *p = flags; (p = strstr(p, want[i])) != NULL;
             p += len)
            if ((p == flags || p[-1] == ' ') &&
                (p[len] == ' ' || p[len] == '\0'))
                have = 1;
        printf(" %s%s", have ? "" : "no-", want[i]);
    }
    printf("%s\n", flags[0] ? "" : " (no flags line in /proc/cpuinfo)");
    free(flags);
}

static void print_machine(void)
{
    char model[256], fam[32], mod[32], mhz[32], line[256];
    cpuinfo("model name", model, sizeof model);
    cpuinfo("cpu family", fam, sizeof fam);
    cpuinfo("model", mod, sizeof mod);
    cpuinfo("cpu MHz", mhz, sizeof mhz);
    printf("## Machine\n\n");
    printf("- CPU: %s (family %s, model %s), %ld online CPUs, %s MHz "
           "reported\n",
           model[0] ? model : "unknown", fam[0] ? fam : "?",
           mod[0] ? mod : "?", sysconf(_SC_NPROCESSORS_ONLN),
           mhz[0] ? mhz : "?");
    printf("- caches (cpu0):");
    for (int i = 0; i < 8; i++) {
        char dir[96], path[128], level[16], type[32], size[32], shared[64];
        snprintf(dir, sizeof dir, "/sys/devices/system/cpu/cpu0/cache/index%d",
                 i);
        snprintf(path, sizeof path, "%s/level", dir);
        read_line(path, level, sizeof level);
        if (level[0] == '\0')
            break;
        snprintf(path, sizeof path, "%s/type", dir);
        read_line(path, type, sizeof type);
        snprintf(path, sizeof path, "%s/size", dir);
        read_line(path, size, sizeof size);
        snprintf(path, sizeof path, "%s/shared_cpu_list", dir);
        read_line(path, shared, sizeof shared);
        printf("%s L%s%s %s (CPUs %s)", i ? "," : "", level,
               strcmp(type, "Data") == 0          ? "d"
               : strcmp(type, "Instruction") == 0 ? "i"
                                                  : "",
               size, shared);
    }
    printf("\n");
    print_isa();
    struct utsname u;
    if (uname(&u) == 0)
        printf("- OS: %s %s %s\n", u.sysname, u.release, u.machine);
    printf("- C: "
#if defined(__clang__)
           "clang "
#elif defined(__GNUC__)
           "gcc "
#endif
           "%s, flags: %s\n",
           __VERSION__, FSH_BENCH_CFLAGS);
    printf("- C++ peer: %s, flags: %s\n", peer_std_compiler(),
           FSH_BENCH_CXXFLAGS);
    printf("- batched peer: %s (method batched) and %s (batched_clang), "
           "flags: %s\n",
           peer_batched_compiler(), peer_batched_clang_compiler(),
           FSH_BENCH_CFLAGS);
    unsigned v = fsh_version_number();
    printf("- fairshuf %u.%u.%u (libfairshuf.a), stream version %u "
           "(FSH_BENCH_STREAM)\n",
           v / 10000, v / 100 % 100, v % 100, bench_stream);
    char date[64];
    time_t now = time(NULL);
    struct tm tmv;
    if (gmtime_r(&now, &tmv) != NULL &&
        strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", &tmv) > 0)
        printf("- date: %s\n", date);
    read_line("/proc/loadavg", line, sizeof line);
    printf("- load average at start: %s\n", line);
}

/* ------------------------------------------------------------------------ */
/* Arrays                                                                   */

typedef struct arrays {
    size_t n;
    void *w[17]; /* by element width 4, 8, 16 */
    void *dst;
} arrays;

static void *get_array(arrays *ar, size_t width)
{
    if (ar->w[width] != NULL)
        return ar->w[width];
    size_t bytes = (ar->n * width + 63) / 64 * 64;
    unsigned char *p = aligned_alloc(64, bytes);
    if (p == NULL)
        return NULL;
    memset(p, 0, bytes);
    for (size_t i = 0; i < ar->n; i++) {
        if (width == 4) {
            uint32_t k = (uint32_t)i;
            memcpy(p + i * width, &k, 4);
        } else {
            uint64_t k = i;
            memcpy(p + i * width, &k, 8);
        }
    }
    ar->w[width] = p;
    return p;
}

/* Is every array still a permutation of its keys 0..n-1? */
static int verify_arrays(const arrays *ar)
{
    size_t nb = (ar->n + 63) / 64;
    uint64_t *seen = malloc(nb * sizeof *seen);
    if (seen == NULL)
        return 1; /* cannot check; not a failure of the shuffle */
    int ok = 1;
    for (size_t width = 4; width <= 16; width *= 2) {
        const unsigned char *p = ar->w[width];
        if (p == NULL)
            continue;
        memset(seen, 0, nb * sizeof *seen);
        for (size_t i = 0; i < ar->n && ok; i++) {
            uint64_t k;
            if (width == 4) {
                uint32_t k32;
                memcpy(&k32, p + i * width, 4);
                k = k32;
            } else {
                memcpy(&k, p + i * width, 8);
            }
            if (k >= ar->n || (seen[k / 64] >> (k % 64) & 1)) {
                fprintf(stderr, "bench: %zu-byte array of n = %zu is not a "
                                "permutation (key %llu at %zu)\n",
                        width, ar->n, (unsigned long long)k, i);
                ok = 0;
            } else {
                seen[k / 64] |= (uint64_t)1 << (k % 64);
            }
        }
    }
    free(seen);
    return ok;
}

static void free_arrays(arrays *ar)
{
    for (size_t i = 0; i < 17; i++)
        free(ar->w[i]);
    free(ar->dst);
    memset(ar, 0, sizeof *ar);
}

/* ------------------------------------------------------------------------ */
/* Cells                                                                    */

/* Reproducible seeding: xoshiro through fsh_rng_key_xoshiro (so the inline
   textbook can reproduce its words), ChaCha through fsh_rng_seed_gen;
   both pinned to bench_stream. */
static int seed_rng(fsh_rng *rng, const gen_info *g)
{
    int rc = fsh_rng_set_stream_version(rng, bench_stream);
    if (rc != FSH_OK)
        return rc;
    if (g->gen == FSH_GEN_XOSHIRO256PP)
        return fsh_rng_key_xoshiro(rng, XOSHIRO_SEED);
    return fsh_rng_seed_gen(rng, g->gen, SEED, strlen(SEED));
}


/* Pick the textbook's word path per generator: FSH_BENCH_TB_PATH if set
   (call, u64 or bytes), else (timed) the fastest over 5 rounds of a few
   n = 1e4 textbook shuffles each, else (untimed, --one) call. */
static void choose_textbook_path(int timed)
{
    const char *force = env("FSH_BENCH_TB_PATH");
    int forced = TB_CALL;
    for (int p = 0; force != NULL && p < TB_NPATHS; p++)
        if (strcmp(force, TB_PATH_NAMES[p]) == 0)
            forced = p;
    for (size_t i = 0; i < NGENS; i++) {
        size_t gen = i;
        tb_path[gen] = forced;
        if (force != NULL || !timed)
            continue;
        for (int p = 0; p < TB_NPATHS; p++)
            tb_path_ns[gen][p] = 1e300;
        size_t n = 10000;
        uint64_t *a = malloc(n * sizeof *a);
        fsh_rng *rng = NULL;
        if (a == NULL || fsh_rng_new(&rng) != FSH_OK ||
            seed_rng(rng, &GENS[i]) != FSH_OK ||
            fsh_rng_set_simulation(rng, 1) != FSH_OK) {
            free(a);
            fsh_rng_free(rng);
            continue;
        }
        for (size_t e = 0; e < n; e++)
            a[e] = e;
        cell *c = calloc(1, sizeof *c);
        if (c == NULL) {
            free(a);
            fsh_rng_free(rng);
            continue;
        }
        c->g = &GENS[i];
        c->n = n;
        c->a = a;
        c->rng = rng;
        c->tb_pos = TB_WORDS;
        for (int round = 0; round < 5; round++) {
            for (int p = 0; p < TB_NPATHS; p++) {
                tb_path[gen] = p;
                double t0 = clock_ns(cell_clock(1));
                for (int r = 0; r < 3; r++)
                    run_textbook(c);
                double t = (clock_ns(cell_clock(1)) - t0) / (3.0 * (double)n);
                if (t < tb_path_ns[gen][p])
                    tb_path_ns[gen][p] = t;
            }
        }
        int best = TB_CALL;
        for (int p = 1; p < TB_NPATHS; p++)
            if (tb_path_ns[gen][p] < tb_path_ns[gen][best])
                best = p;
        tb_path[gen] = best;
        fsh_rng_free(rng);
        free(a);
        free(c);
    }
}

static int setup_cell(cell *c, const method *m, const gen_info *g,
                      arrays *ar)
{
    memset(c, 0, sizeof *c);
    c->m = m;
    c->g = g;
    c->gen = g ? g->name : m->gen_label;
    c->n = ar->n;
    c->tb_pos = TB_WORDS;
    c->a = get_array(ar, m->elem_bytes);
    if (c->a == NULL)
        return FSH_ENOMEM;
    if (m->run == run_memcpy) {
        if (ar->dst == NULL) {
            ar->dst = aligned_alloc(64, (ar->n * 8 + 63) / 64 * 64);
            if (ar->dst == NULL)
                return FSH_ENOMEM;
            memset(ar->dst, 0, ar->n * 8); /* fault the pages in now */
        }
        c->dst = ar->dst;
    }
    if (g != NULL) {
        int rc = fsh_rng_new(&c->rng);
        if (rc == FSH_OK)
            rc = seed_rng(c->rng, g);
        if (rc == FSH_OK)
            rc = fsh_rng_set_simulation(c->rng, 1);
        if (rc != FSH_OK)
            return rc;
        c->bits0 = fsh_rng_bits_used(c->rng);
    }
    return m->setup ? m->setup(c) : FSH_OK;
}

static void free_cell(cell *c)
{
    fsh_rng_free(c->rng);
    peer_std_free(c->peer);
    free(c->idx);
    c->rng = NULL;
    c->peer = NULL;
    c->idx = NULL;
}

/* Run k operations; ns elapsed in *ns. */
static int time_ops(cell *c, size_t k, double *ns)
{
    int rc = FSH_OK;
    clockid_t id = cell_clock(c->m->threads);
    double t0 = clock_ns(id);
    for (size_t i = 0; i < k && rc == FSH_OK; i++)
        rc = c->m->run(c);
    *ns = clock_ns(id) - t0;
    c->ops += k;
    return rc;
}

/* Warm up and choose k so that one timing takes at least min_ns. */
static int calibrate(cell *c, double min_ns)
{
    double t;
    int rc = time_ops(c, 1, &t);
    if (rc != FSH_OK)
        return rc;
    size_t k = t >= min_ns ? 1 : (size_t)(min_ns / (t > 1 ? t : 1)) + 1;
    if (k > 1) {
        /* A second, warm estimate; also the warm-up proper. */
        rc = time_ops(c, k, &t);
        if (rc != FSH_OK)
            return rc;
        double per = t / (double)k;
        k = per >= min_ns ? 1 : (size_t)(min_ns / (per > 1 ? per : 1)) + 1;
    } else {
        rc = time_ops(c, 1, &t); /* warm-up for large n */
    }
    c->k = k;
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Configuration from the environment                                       */

typedef struct config {
    size_t reps;
    double min_ns;
    const char *sizes;   /* FSH_BENCH_SIZES */
    const char *gens;    /* FSH_BENCH_GENS filter */
    const char *methods; /* FSH_BENCH_METHODS filter (may enable extras) */
    const char *csv;
    int quick;
} config;

static config read_config(void)
{
    /* bin/results.csv (ignored by git): the committed results.csv is the
       reference run, rewritten only on purpose (FSH_BENCH_CSV=results.csv). */
    config cf = {7, 5e6, NULL, NULL, NULL, "bin/results.csv", 0};
    const char *v;
    if ((v = env("FSH_BENCH_QUICK")) != NULL && strcmp(v, "0") != 0) {
        cf.quick = 1;
        cf.reps = 3;
        cf.min_ns = 2e6;
    }
    if ((v = env("FSH_BENCH_REPS")) != NULL) {
        long r = strtol(v, NULL, 10);
        cf.reps = r < 1 ? 1 : r > MAX_REPS ? MAX_REPS : (size_t)r;
    }
    if ((v = env("FSH_BENCH_MIN_MS")) != NULL) {
        double ms = strtod(v, NULL);
        cf.min_ns = ms > 0 ? ms * 1e6 : 0;
    }
    cf.sizes = env("FSH_BENCH_SIZES");
    cf.gens = env("FSH_BENCH_GENS");
    cf.methods = env("FSH_BENCH_METHODS");
    if ((v = env("FSH_BENCH_CLOCK")) != NULL)
        wall_only = strcmp(v, "wall") == 0;
    if ((v = getenv("FSH_BENCH_CSV")) != NULL)
        cf.csv = v; /* empty: no CSV */
    if ((v = env("FSH_BENCH_STREAM")) != NULL) {
        if (strcmp(v, "1") != 0 && strcmp(v, "2") != 0) {
            fprintf(stderr, "bench: FSH_BENCH_STREAM must be 1 or 2\n");
            exit(2);
        }
        bench_stream = (unsigned)(v[0] - '0');
    }
    return cf;
}

/* The size rows of this run, in order. */
static size_t plan_sizes(const config *cf, size_row *out, size_t max)
{
    size_t cnt = 0;
    if (cf->sizes == NULL) {
        int want = cf->quick ? RUN_QUICK : RUN_DEFAULT;
        for (size_t i = 0; i < NSIZES && cnt < max; i++)
            if (SIZES[i].runs & want)
                out[cnt++] = SIZES[i];
        return cnt;
    }
    for (const char *p = cf->sizes; *p != '\0' && cnt < max;) {
        char *end;
        double n = strtod(p, &end);
        if (end == p || n < 2 || n > 1e12) {
            fprintf(stderr, "bench: bad FSH_BENCH_SIZES entry at '%s'\n", p);
            exit(2);
        }
        size_row row = {n, NULL, NULL, 0};
        for (size_t i = 0; i < NSIZES; i++)
            if (SIZES[i].n == n)
                row = SIZES[i];
        out[cnt++] = row;
        p = *end == ',' ? end + 1 : end;
    }
    return cnt;
}

static int method_wanted(const config *cf, const size_row *row,
                         const method *m)
{
    if (cf->methods != NULL)
        return in_list(cf->methods, m->name);
    return row->methods ? in_list(row->methods, m->name) : m->on_by_default;
}

static int gen_wanted(const config *cf, const size_row *row,
                      const method *m, const gen_info *g)
{
    if (m->only_gens != NULL && !in_list(m->only_gens, g->name))
        return 0;
    if (cf->gens != NULL)
        return in_list(cf->gens, g->name);
    return row->gens ? in_list(row->gens, g->name) : 1;
}

/* ------------------------------------------------------------------------ */
/* Reports                                                                  */

static result *results;
static size_t nresults, cap_results;

static void keep(const result *r)
{
    if (nresults == cap_results) {
        size_t cap = cap_results ? 2 * cap_results : 64;
        result *p = realloc(results, cap * sizeof *p);
        if (p == NULL) {
            fprintf(stderr, "bench: out of memory\n");
            exit(2);
        }
        results = p, cap_results = cap;
    }
    results[nresults++] = *r;
}

/* gen NULL: any generator (for methods with a fixed one). */
static const result *lookup(const char *name, const char *gen, size_t n)
{
    for (size_t i = 0; i < nresults; i++)
        if (results[i].n == n && strcmp(results[i].method, name) == 0 &&
            (gen == NULL || strcmp(results[i].gen, gen) == 0))
            return &results[i];
    return NULL;
}

/* One table cell: x with prec decimals, or "-" when unmeasured. */
static void print_num(double x, int prec)
{
    if (isnan(x))
        printf(" - |");
    else
        printf(" %.*f |", prec, x);
}

static double ns_of(const result *r)
{
    return r ? r->ns : NAN;
}

static double bits_of(const result *r)
{
    return r ? r->bits : NAN;
}

static int is_summary_method(const char *name)
{
    return strcmp(name, "fairshuf") == 0 || strcmp(name, "textbook") == 0 ||
           strcmp(name, "textbook_inline") == 0 ||
           strcmp(name, "std_shuffle") == 0 || strcmp(name, "memcpy") == 0 ||
           strcmp(name, "batched") == 0 || strcmp(name, "batched_clang") == 0 ||
           strcmp(name, "swaps") == 0;
}

static int cmp_spread_desc(const void *x, const void *y)
{
    const result *a = *(const result *const *)x, *b = *(const result *const *)y;
    return (a->spread < b->spread) - (a->spread > b->spread);
}

/* The summary table: fairshuf, textbook and the peers side by side. */
static void print_summary(const size_t *ns, size_t cnt)
{
    char nb[32];
    printf("\n## fsh_shuffle_u64 versus peers (ns per element, median)\n\n");
    printf("| n | generator | fairshuf | textbook | textbook inline "
           "| std::shuffle | memcpy | fairshuf/textbook | fairshuf/inline "
           "| fairshuf/std | fairshuf/memcpy | bits/el fairshuf "
           "| bits/el std | log2(n!)/n |\n");
    printf("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:"
           "|---:|\n");
    for (size_t j = 0; j < cnt; j++) {
        size_t n = ns[j];
        const result *st = lookup("std_shuffle", NULL, n);
        const result *mc = lookup("memcpy", NULL, n);
        int rows = 0;
        for (size_t g = 0; g <= NGENS; g++) {
            const char *gen = g < NGENS ? GENS[g].name : NULL;
            const result *fs = gen ? lookup("fairshuf", gen, n) : NULL;
            const result *tb = gen ? lookup("textbook", gen, n) : NULL;
            const result *ti = gen ? lookup("textbook_inline", gen, n) : NULL;
            /* Last pass: a row for peers alone if no generator had one. */
            if (gen == NULL && (rows > 0 || (st == NULL && mc == NULL)))
                continue;
            if (gen != NULL && fs == NULL && tb == NULL && ti == NULL)
                continue;
            rows++;
            printf("| %s | %s |", fmt_n(n, nb, sizeof nb), gen ? gen : "-");
            print_num(ns_of(fs), 2);
            print_num(ns_of(tb), 2);
            print_num(ns_of(ti), 2);
            print_num(ns_of(st), 2);
            print_num(ns_of(mc), 3);
            print_num(ns_of(fs) / ns_of(tb), 2);
            print_num(ns_of(fs) / ns_of(ti), 2);
            print_num(ns_of(fs) / ns_of(st), 2);
            print_num(ns_of(fs) / ns_of(mc), 1);
            print_num(bits_of(fs), 1);
            print_num(bits_of(st), 1);
            print_num(log2_fact_per_el(n), 2);
            printf("\n");
        }
    }
}

/* Issue 13's table: every fairshuf generator against the batched-index
   peer (the $(CC) build; the clang build beside it), the inline textbook
   and std::shuffle, with the ratios the targets are stated in. */
static void print_batched(const size_t *ns, size_t cnt)
{
    char nb[32];
    int any = 0;
    for (size_t j = 0; j < cnt; j++)
        any |= lookup("batched", NULL, ns[j]) != NULL;
    if (!any)
        return;
    printf("\n## Against the batched-index peer (ns per element, median; "
           "ratios < 1: fairshuf faster)\n\n");
    /* ChaCha8 is the default of an OS-keyed rng (fsh_rng_new), ChaCha20
       of a seeded one (fsh_rng_seed). */
    printf("| n | xoshiro | chacha20 | chacha12 | chacha8 (default) | batched "
           "| batched clang | textbook inline | std::shuffle | memcpy "
           "| xoshiro/batched | chacha20/batched | chacha12/batched "
           "| chacha8/batched | chacha20/textbook inline "
           "| chacha8/textbook inline "
           "| bits/el xoshiro | bits/el batched |\n");
    printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:"
           "|---:|---:|---:|---:|---:|\n");
    for (size_t j = 0; j < cnt; j++) {
        size_t n = ns[j];
        const result *bp = lookup("batched", NULL, n);
        if (bp == NULL)
            continue;
        const result *xo = lookup("fairshuf", "xoshiro256pp", n);
        const result *c20 = lookup("fairshuf", "chacha20", n);
        const result *c12 = lookup("fairshuf", "chacha12", n);
        const result *c8 = lookup("fairshuf", "chacha8", n);
        const result *bc = lookup("batched_clang", NULL, n);
        const result *ti = lookup("textbook_inline", NULL, n);
        const result *st = lookup("std_shuffle", NULL, n);
        const result *mc = lookup("memcpy", NULL, n);
        printf("| %s |", fmt_n(n, nb, sizeof nb));
        print_num(ns_of(xo), 2);
        print_num(ns_of(c20), 2);
        print_num(ns_of(c12), 2);
        print_num(ns_of(c8), 2);
        print_num(ns_of(bp), 2);
        print_num(ns_of(bc), 2);
        print_num(ns_of(ti), 2);
        print_num(ns_of(st), 2);
        print_num(ns_of(mc), 3);
        print_num(ns_of(xo) / ns_of(bp), 2);
        print_num(ns_of(c20) / ns_of(bp), 2);
        print_num(ns_of(c12) / ns_of(bp), 2);
        print_num(ns_of(c8) / ns_of(bp), 2);
        print_num(ns_of(c20) / ns_of(ti), 2);
        print_num(ns_of(c8) / ns_of(ti), 2);
        print_num(bits_of(xo), 1);
        print_num(bits_of(bp), 1);
        printf("\n");
    }
}

/* The swap floor: the time of the swaps alone beside the shuffles that
   make them, so a ratio near 1 says the swaps, not the generator or the
   bounded draws, set the pace. */
static void print_swaps(const size_t *ns, size_t cnt)
{
    char nb[32];
    int any = 0;
    for (size_t j = 0; j < cnt; j++)
        any |= lookup("swaps", NULL, ns[j]) != NULL;
    if (!any)
        return;
    printf("\n## The swap floor (ns per element, median; swaps alone, "
           "indices drawn before timing)\n\n");
    printf("| n | swaps | xoshiro | chacha8 (default) | batched "
           "| batched clang | textbook inline | xoshiro/swaps "
           "| chacha8/swaps | batched/swaps | batched clang/swaps "
           "| textbook inline/swaps |\n");
    printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t j = 0; j < cnt; j++) {
        size_t n = ns[j];
        const result *sw = lookup("swaps", NULL, n);
        if (sw == NULL)
            continue;
        const result *xo = lookup("fairshuf", "xoshiro256pp", n);
        const result *c8 = lookup("fairshuf", "chacha8", n);
        const result *bp = lookup("batched", NULL, n);
        const result *bc = lookup("batched_clang", NULL, n);
        const result *ti = lookup("textbook_inline", NULL, n);
        printf("| %s |", fmt_n(n, nb, sizeof nb));
        print_num(ns_of(sw), 2);
        print_num(ns_of(xo), 2);
        print_num(ns_of(c8), 2);
        print_num(ns_of(bp), 2);
        print_num(ns_of(bc), 2);
        print_num(ns_of(ti), 2);
        print_num(ns_of(xo) / ns_of(sw), 2);
        print_num(ns_of(c8) / ns_of(sw), 2);
        print_num(ns_of(bp) / ns_of(sw), 2);
        print_num(ns_of(bc) / ns_of(sw), 2);
        print_num(ns_of(ti) / ns_of(sw), 2);
        printf("\n");
    }
}

static void print_tables(void)
{
    char nb[32];
    size_t ns[64], cnt = 0;
    for (size_t i = 0; i < nresults; i++) {
        size_t j = 0;
        while (j < cnt && ns[j] != results[i].n)
            j++;
        if (j == cnt && cnt < 64)
            ns[cnt++] = results[i].n;
    }

    int summary = 0;
    for (size_t i = 0; i < nresults; i++)
        summary += is_summary_method(results[i].method);
    if (summary > 0) {
        print_summary(ns, cnt);
        print_batched(ns, cnt);
        print_swaps(ns, cnt);
    }

    int others = 0;
    for (size_t i = 0; i < nresults; i++)
        others += !is_summary_method(results[i].method);
    if (others > 0) {
        printf("\n## Other entry points and variants (ns per element, "
               "median)\n\n");
        printf("| method | generator | n | bytes | threads | ns/el "
               "| vs fairshuf | bits/el |\n");
        printf("|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (size_t i = 0; i < nresults; i++) {
            const result *r = &results[i];
            if (is_summary_method(r->method))
                continue;
            const result *fs = lookup("fairshuf", r->gen, r->n);
            printf("| %s | %s | %s | %zu | %u |", r->method, r->gen,
                   fmt_n(r->n, nb, sizeof nb), r->elem_bytes, r->threads);
            print_num(r->ns, 2);
            print_num(r->ns / ns_of(fs), 2);
            print_num(r->bits, 1);
            printf("\n");
        }
    }

    /* The noisiest cells: (max - min) / median over the repetitions. */
    size_t noisy = 0;
    const result **worst = malloc(nresults * sizeof *worst);
    for (size_t i = 0; worst != NULL && i < nresults; i++)
        if (results[i].spread > 0.25)
            worst[noisy++] = &results[i];
    if (noisy > 0) {
        qsort(worst, noisy, sizeof *worst, cmp_spread_desc);
        printf("\n%zu of %zu cells had (max - min) / median > 25%% over the "
               "repetitions; worst:",
               noisy, nresults);
        for (size_t j = 0; j < noisy && j < 8; j++)
            printf("%s %s/%s/%s %.0f%%", j ? "," : "", worst[j]->method,
                   worst[j]->gen, fmt_n(worst[j]->n, nb, sizeof nb),
                   100 * worst[j]->spread);
        printf("\n");
    }
    free(worst);
}

/* ------------------------------------------------------------------------ */
/* Driver                                                                   */

static int bench_size(const config *cf, const size_row *row, FILE *csv)
{
    size_t n = (size_t)row->n;
    arrays ar;
    memset(&ar, 0, sizeof ar);
    ar.n = n;

    size_t ncells = 0;
    for (size_t i = 0; i < NMETHODS; i++) {
        const method *m = &METHODS[i];
        if (!method_wanted(cf, row, m))
            continue;
        ncells += m->gen_label ? 1 : 0;
        for (size_t g = 0; g < NGENS && !m->gen_label; g++)
            ncells += (size_t)gen_wanted(cf, row, m, &GENS[g]);
    }
    if (ncells == 0)
        return 0;
    cell *cells = calloc(ncells, sizeof *cells);
    if (cells == NULL)
        return -1;

    double t0 = now_ns();
    int rc = FSH_OK;
    size_t c = 0;
    for (size_t i = 0; i < NMETHODS && rc == FSH_OK; i++) {
        const method *m = &METHODS[i];
        if (!method_wanted(cf, row, m))
            continue;
        for (size_t g = 0; g < (m->gen_label ? 1 : NGENS); g++) {
            const gen_info *gi = m->gen_label ? NULL : &GENS[g];
            if (gi != NULL && !gen_wanted(cf, row, m, gi))
                continue;
            rc = setup_cell(&cells[c], m, gi, &ar);
            if (rc == FSH_OK)
                rc = calibrate(&cells[c], cf->min_ns);
            if (rc != FSH_OK)
                fprintf(stderr, "bench: %s/%s n=%zu: %s\n", m->name,
                        cells[c].gen ? cells[c].gen : "?", n,
                        fsh_strerror(rc));
            c++;
        }
    }

    /* Interleave: each repetition times every cell once, in a rotating
       order, so drift and neighbours' load spread over all methods. */
    for (size_t r = 0; r < cf->reps && rc == FSH_OK; r++) {
        for (size_t j = 0; j < ncells && rc == FSH_OK; j++) {
            cell *x = &cells[(j + r) % ncells];
            double t;
            rc = time_ops(x, x->k, &t);
            x->t[r] = t / ((double)x->k * (double)n);
            if (rc != FSH_OK)
                fprintf(stderr, "bench: %s/%s n=%zu: %s\n", x->m->name,
                        x->gen, n, fsh_strerror(rc));
        }
    }

    int ok = rc == FSH_OK && verify_arrays(&ar);
    char nb[32];
    for (size_t j = 0; j < ncells && ok; j++) {
        cell *x = &cells[j];
        result res;
        res.method = x->m->name;
        res.gen = x->gen;
        res.n = n;
        res.elem_bytes = x->m->elem_bytes;
        res.threads = x->m->threads;
        res.ns = median(x->t, cf->reps, &res.spread);
        res.bits = x->m->bits ? x->m->bits(x) : NAN;
        res.k = x->k;
        keep(&res);
        if (csv != NULL) {
            fprintf(csv, "%s,%s,%zu,%zu,%u,%.4f,", res.method, res.gen, n,
                    res.elem_bytes, res.threads, res.ns);
            if (!isnan(res.bits))
                fprintf(csv, "%.3f", res.bits);
            fputc('\n', csv);
        }
    }
    if (csv != NULL)
        fflush(csv);
    for (size_t j = 0; j < ncells; j++)
        free_cell(&cells[j]);
    free(cells);
    free_arrays(&ar);
    fprintf(stderr, "bench: n = %s: %zu cells x %zu repetitions in %.1f s%s\n",
            fmt_n(n, nb, sizeof nb), ncells, cf->reps,
            (now_ns() - t0) / 1e9, ok ? "" : " (FAILED)");
    return ok ? 0 : -1;
}

/* --one METHOD GEN N K: set up, then K untimed operations. */
static int run_one(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: bench --one METHOD GEN N K\n");
        return 2;
    }
    const method *m = find_method(argv[2]);
    const gen_info *g = find_gen(argv[3]);
    if (m == NULL || (m->gen_label == NULL && g == NULL) ||
        (m->gen_label == NULL && m->only_gens != NULL &&
         !in_list(m->only_gens, g->name))) {
        fprintf(stderr, "bench: unknown method or generator (try --list)\n");
        return 2;
    }
    choose_textbook_path(0); /* deterministic, see FSH_BENCH_TB_PATH */
    arrays ar;
    memset(&ar, 0, sizeof ar);
    ar.n = (size_t)strtod(argv[4], NULL);
    size_t k = (size_t)strtod(argv[5], NULL);
    cell c;
    int rc = ar.n >= 2 ? setup_cell(&c, m, m->gen_label ? NULL : g, &ar)
                       : FSH_EINVAL;
    for (size_t i = 0; i < k && rc == FSH_OK; i++)
        rc = m->run(&c);
    if (rc != FSH_OK)
        fprintf(stderr, "bench: %s\n", fsh_strerror(rc));
    free_cell(&c);
    free_arrays(&ar);
    return rc == FSH_OK ? 0 : 1;
}

static void list(void)
{
    char nb[32];
    printf("methods (* = on by default):\n");
    for (size_t i = 0; i < NMETHODS; i++)
        printf("  %c %-14s %2zu B  %s\n", METHODS[i].on_by_default ? '*' : ' ',
               METHODS[i].name, METHODS[i].elem_bytes, METHODS[i].what);
    printf("generators:");
    for (size_t i = 0; i < NGENS; i++)
        printf(" %s", GENS[i].name);
    printf("\nsize rows:\n");
    for (size_t i = 0; i < NSIZES; i++)
        printf("  %-5s %s%s gens=%s methods=%s\n",
               fmt_n((size_t)SIZES[i].n, nb, sizeof nb),
               SIZES[i].runs & RUN_DEFAULT ? "[default]" : "[opt-in]",
               SIZES[i].runs & RUN_QUICK ? "[quick]" : "",
               SIZES[i].gens ? SIZES[i].gens : "all",
               SIZES[i].methods ? SIZES[i].methods : "defaults");
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--one") == 0)
        return run_one(argc, argv);
    if (argc > 1 && strcmp(argv[1], "--list") == 0) {
        list();
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "usage: bench [--list | --one METHOD GEN N K]\n");
        return 2;
    }

    config cf = read_config();
    size_row rows[64];
    size_t nrows = plan_sizes(&cf, rows, 64);

    FILE *csv = NULL;
    if (cf.csv[0] != '\0') {
        csv = fopen(cf.csv, "w"); /* a fresh file per run */
        if (csv == NULL) {
            fprintf(stderr, "bench: %s: %s\n", cf.csv, strerror(errno));
            return 1;
        }
        fprintf(csv, "method,generator,n,element_bytes,threads,"
                     "ns_per_element,bits_per_element\n");
    }

    printf("# fairshuf benchmark\n\n");
    print_machine();
    printf("- timing: %s; per cell a warm-up, then %zu "
           "repetitions, interleaved across methods; each repetition runs the "
           "operation k times for >= %.0f ms; median reported%s\n",
           wall_only ? "wall clock (CLOCK_MONOTONIC)"
                     : "thread CPU time (CLOCK_THREAD_CPUTIME_ID) for 1-thread "
                       "cells, wall clock for threaded ones",
           cf.reps, cf.min_ns / 1e6, cf.quick ? " (QUICK run)" : "");
    choose_textbook_path(1);
    printf("- textbook word path (ns per element at n = 1e4 with fsh_rng_u64 "
           "per draw / 128-word buffer refilled by fsh_rng_u64 / by "
           "fsh_rng_bytes; the fastest is used):");
    if (env("FSH_BENCH_TB_PATH") != NULL)
        printf(" forced by FSH_BENCH_TB_PATH=%s", env("FSH_BENCH_TB_PATH"));
    for (size_t i = 0; i < NGENS && env("FSH_BENCH_TB_PATH") == NULL; i++) {
        size_t gen = i;
        printf("%s %s %.2f / %.2f / %.2f -> %s", i ? ";" : "", GENS[i].name,
               tb_path_ns[gen][TB_CALL], tb_path_ns[gen][TB_U64],
               tb_path_ns[gen][TB_BYTES], TB_PATH_NAMES[tb_path[gen]]);
    }
    printf("\n");
    fflush(stdout);

    double t0 = now_ns();
    int failed = 0;
    for (size_t i = 0; i < nrows; i++)
        failed |= bench_size(&cf, &rows[i], csv) != 0;
    if (csv != NULL)
        fclose(csv);

    print_tables();
    char line[256];
    read_line("/proc/loadavg", line, sizeof line);
    printf("\nTotal %.0f s; load average at end: %s%s%s\n",
           (now_ns() - t0) / 1e9, line, csv ? "; figures in " : "",
           csv ? cf.csv : "");
    printf("\nThe command against GNU shuf (1 GB of lines, seq 1 10000000) "
           "is bench/cli.sh: `bash bench/cli.sh ./fairshuf` from the top "
           "directory (about 6 GB of data in /tmp/fsh-bench; BIG=0 skips "
           "the 4 GB file); make bench runs it when a mk/*.mk file lists it "
           "in BENCH_TARGETS.\n");
    free(results);
    return failed ? 1 : 0;
}
