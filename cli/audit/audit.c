/* SPDX-License-Identifier: MIT */
/* `fairshuf audit`: read deals from a file or a command's output (one deal
   per line; or, with --per-run, one deal per run of the command, or per N
   lines of the file), check that each is a permutation, feed the battery
   (battery.c), report PASS/FAIL lines, a verdict and "N passed, N failed";
   optionally JSON (--json) and an SVG picture (--plot, plot.c).
   Exit status: 0 all passed, 1 a test failed, 2 usage or input errors. */
#include "audit/audit.h"

#include "audit/battery.h"
#include "audit/plot.h"
#include "common/msg.h"
#include "common/number.h"
#include "common/quote.h"
#include "common/sysio.h"
#include "fairshuf.h"
#include "io/outfile.h"
#include "version.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EXIT_TROUBLE 2
/* The longest line (or --per-run output of one run) read: a deal holds at
   most AUDIT_MAX_N values of at most 63 bytes, so this leaves room for any
   spacing while a stream without line breaks is refused, not held. */
#define AUDIT_MAX_TEXT (16 << 20)

enum {
    OPT_INPUT = 256,
    OPT_N,
    OPT_TRIALS,
    OPT_PER_RUN,
    OPT_JOBS,
    OPT_TIME,
    OPT_ALPHA,
    OPT_JSON,
    OPT_BASE,
    OPT_PLOT,
    OPT_POWER,
    OPT_PROGRESS,
    OPT_NO_PROGRESS,
    OPT_HELP,
    OPT_VERSION
};

/* The process groups of the runs of COMMAND not yet reaped: an audit that
   fails (bad input, a run that fails) or is ended by a signal stops them,
   as the time limit does, rather than leave them running in their own
   groups, which a terminal's ^C does not reach. Changed with signals
   blocked; the signal handler reads it. At most 256 jobs and the stream. */
static volatile pid_t kids[260];
static volatile sig_atomic_t nkids;

static void kids_block(sigset_t *old)
{
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, old);
}

static void kid_add(pid_t pid)
{
    sigset_t old;
    kids_block(&old);
    if ((size_t)nkids < sizeof kids / sizeof *kids)
        kids[nkids++] = pid;
    sigprocmask(SIG_SETMASK, &old, NULL);
}

static void kid_remove(pid_t pid)
{
    sigset_t old;
    kids_block(&old);
    for (sig_atomic_t i = 0; i < nkids; i++)
        if (kids[i] == pid) {
            kids[i] = kids[--nkids];
            break;
        }
    sigprocmask(SIG_SETMASK, &old, NULL);
}

/* SIGTERM to every run not reaped (async-signal-safe). */
static void kids_stop(void)
{
    for (sig_atomic_t i = 0; i < nkids; i++)
        kill(-kids[i], SIGTERM);
}

/* How long a run stopped with SIGTERM (a time limit, --trials reached,
   an error) may take to end before its process group gets SIGKILL: a
   command that ignores or catches SIGTERM must not hold the audit, nor
   run on in a group no ^C reaches. */
#define STOP_GRACE 2.0

static double now(void);

/* Wait for pid, stopped with SIGTERM, until time until; then SIGKILL to
   its group and wait for it (async-signal-safe: waitpid, kill, nanosleep,
   clock_gettime). Returns waitpid's last answer: pid, or -1 with errno
   (not ours). */
static pid_t end_by(pid_t pid, double until)
{
    for (;;) {
        pid_t w = waitpid(pid, NULL, WNOHANG);
        if (w != 0 && !(w < 0 && errno == EINTR))
            return w;
        if (now() >= until)
            break;
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    kill(-pid, SIGKILL);
    pid_t w;
    while ((w = waitpid(pid, NULL, 0)) < 0 && errno == EINTR)
        ;
    return w;
}

/* After kids_stop, on an error or a fatal signal: reap the runs as they
   end; SIGKILL to the groups of those still there after STOP_GRACE.
   Other signals wait until it returns (the list is not changed under a
   handler). */
static void kids_end(void)
{
    sigset_t old;
    kids_block(&old);
    double until = now() + STOP_GRACE;
    for (sig_atomic_t i = 0; i < nkids; i++)
        (void)end_by(kids[i], until);
    nkids = 0;
    sigprocmask(SIG_SETMASK, &old, NULL);
}

/* The fatal signals' hook (outfile's handlers, before the temporaries
   go): as an error does, SIGTERM, then SIGKILL to the runs still there
   after STOP_GRACE (waitpid, kill, nanosleep and clock_gettime are
   async-signal-safe; the list changes with signals blocked). */
static void kids_stop_end(void)
{
    kids_stop();
    kids_end();
}

static _Noreturn void trouble(void)
{
    kids_stop();
    kids_end();
    outfile_abort(); /* --json and --plot: the old files stay */
    exit(EXIT_TROUBLE);
}

/* die() (outfile_open's messages, after its message): remove the
   temporaries, and exit as every audit error does. */
static void abort_hook(void *ctx)
{
    (void)ctx;
    trouble();
}

__attribute__((format(printf, 1, 2))) static _Noreturn void fail(
    const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    error_msg(0, "%s", buf);
    trouble();
}

static _Noreturn void audit_usage_error(void)
{
    fprintf(stderr, "Try '%s --help' for more information.\n",
            program_name);
    trouble();
}

static void *amalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL)
        fail("memory exhausted");
    return p;
}

static void *arealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (p == NULL)
        fail("memory exhausted");
    return p;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* "s" for a count other than 1: "1 value", "2 values". */
static const char *plural(uint64_t count)
{
    return count == 1 ? "" : "s";
}

/* ------------------------------------------------------------------------ */
/* Options                                                                  */

typedef struct aopts {
    const char *input, *json, *plot;
    size_t n;          /* 0: from the first deal */
    uint64_t trials;   /* 0: all (file), default (command) */
    int per_run, base; /* base -1: auto */
    unsigned jobs;
    double time_limit, alpha, power;
    int progress; /* -1 terminal only, 0 off, 1 on */
    char **cmd;
} aopts;

static _Noreturn void help(void)
{
    printf("Usage: %s [OPTION]... --input=FILE\n"
           "  or:  %s [OPTION]... -- COMMAND [ARG]...\n"
           "Test a shuffler's output for uniformity and independence between deals.\n"
           "Input: one deal per line, a permutation of 1..N (or 0..N-1) separated by\n"
           "spaces or commas, or card names (As Th, A\xE2\x99\xA0 10\xE2\x99\xA5).\n"
           "\n"
           "      --input=FILE      read deals from FILE ('-': standard input)\n"
           "      --per-run         one value per line; each run of COMMAND (or each\n"
           "                        N lines of FILE) is one deal\n"
           "      --n=N             values per deal (default: the first deal's count)\n"
           "      --trials=T        number of deals (file: exactly T; command: stop\n"
           "                        after T; default 10000 with --per-run)\n"
           "      --base=0|1        values start at 0 or 1 (default: 0 if the first\n"
           "                        deal holds 0, else 1); numbers only\n"
           "      --jobs=J          with --per-run, run COMMAND J at a time\n"
           "      --time-limit=S    stop collecting after S seconds; test what came\n"
           "      --alpha=A         family-wise false-failure rate (default 0.01)\n"
           "      --json=FILE       also write the results as JSON to FILE\n"
           "      --plot=FILE.svg   write an SVG picture of the results\n"
           "      --power[=BIAS]    print the deals each test needs to see a\n"
           "                        relative bias BIAS (default 0.01) in what it\n"
           "                        measures, and the duplicate test for k-bit seeds\n"
           "      --progress, --no-progress  progress bar (default: on a terminal)\n"
           "      --help            display this help and exit\n"
           "      --version         output version information and exit\n"
           "\n"
           "An option that takes a value, given twice, must have the same value both\n"
           "times (numbers by value, files by name); of --progress and --no-progress,\n"
           "the last one wins.\n"
           "Exit status: 0 if every test passes, 1 if any fails, 2 for trouble.\n"
           "The tests and their exact null distributions: docs/AUDIT.md.\n",
           program_name, program_name);
    /* The reason, as the report's write error and every other --help
       give it ("write error: No space left on device"). */
    if (fflush(stdout) != 0 || ferror(stdout))
        fail("write error: %s", strerror(errno));
    exit(0);
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*s == '\0' || *end != '\0' || errno != 0 || isnan(v) || isinf(v))
        return -1;
    *out = v;
    return 0;
}

/* An option that takes a value, given again (bit: its bit in *given):
   the same value is accepted, another is "multiple OPT values specified",
   as fairshuf deal, verify and shuf mode refuse two different values.
   Each value is checked before it comes here, so an invalid one is
   reported as invalid; numbers are the same when their values are
   (--n=8 --n=08, --alpha=0.01 --alpha=1e-2), file names when their bytes
   are (as shuf mode compares -o). */
static void once(unsigned *given, unsigned bit, int same, const char *opt)
{
    if ((*given & bit) && !same)
        fail("multiple %s values specified", opt);
    *given |= bit;
}

static int same_name(const char *old, const char *arg)
{
    return old != NULL && strcmp(old, arg) == 0;
}

static void parse_options(int argc, char **argv, aopts *o)
{
    static const struct option lo[] = {
        {"input", required_argument, NULL, OPT_INPUT},
        {"n", required_argument, NULL, OPT_N},
        {"trials", required_argument, NULL, OPT_TRIALS},
        {"per-run", no_argument, NULL, OPT_PER_RUN},
        {"jobs", required_argument, NULL, OPT_JOBS},
        {"time-limit", required_argument, NULL, OPT_TIME},
        {"alpha", required_argument, NULL, OPT_ALPHA},
        {"json", required_argument, NULL, OPT_JSON},
        {"base", required_argument, NULL, OPT_BASE},
        {"plot", required_argument, NULL, OPT_PLOT},
        {"power", optional_argument, NULL, OPT_POWER},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
        {"help", no_argument, NULL, OPT_HELP},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof *o);
    o->base = -1;
    o->jobs = 1;
    o->alpha = 0.01;
    o->progress = -1;
    int c;
    unsigned given = 0; /* 1 << (OPT_x - OPT_INPUT): options given */
    uint64_t v;
    double d;
    argv[0] = (char *)(uintptr_t)program_name; /* for getopt's messages */
    /* '+': options end at COMMAND, whose own options are its business. */
    while ((c = getopt_long(argc, argv, "+", lo, NULL)) != -1) {
        unsigned bit = c >= OPT_INPUT && c < OPT_HELP
                           ? 1u << (unsigned)(c - OPT_INPUT)
                           : 0;
        switch (c) {
        case OPT_INPUT:
            once(&given, bit, same_name(o->input, optarg), "--input");
            o->input = optarg;
            break;
        case OPT_N:
            if (parse_udec(optarg, 2, AUDIT_MAX_N, &v) != 0)
                fail("invalid --n: %s (2 to %d)", quote(optarg), AUDIT_MAX_N);
            once(&given, bit, o->n == v, "--n");
            o->n = (size_t)v;
            break;
        case OPT_TRIALS:
            if (parse_udec(optarg, 1, UINT64_MAX / 2, &v) != 0)
                fail("invalid --trials: %s (1 to %llu)", quote(optarg),
                     (unsigned long long)(UINT64_MAX / 2));
            once(&given, bit, o->trials == v, "--trials");
            o->trials = v;
            break;
        case OPT_PER_RUN:
            o->per_run = 1;
            break;
        case OPT_JOBS:
            if (parse_udec(optarg, 1, 256, &v) != 0)
                fail("invalid --jobs: %s (1 to 256)", quote(optarg));
            once(&given, bit, o->jobs == v, "--jobs");
            o->jobs = (unsigned)v;
            break;
        case OPT_TIME:
            if (parse_double(optarg, &d) != 0 || !(d > 0))
                fail("invalid --time-limit: %s (seconds > 0)",
                     quote(optarg));
            once(&given, bit, o->time_limit == d, "--time-limit");
            o->time_limit = d;
            break;
        case OPT_ALPHA:
            if (parse_double(optarg, &d) != 0 || !(d > 0 && d < 1))
                fail("invalid --alpha: %s (between 0 and 1)", quote(optarg));
            once(&given, bit, o->alpha == d, "--alpha");
            o->alpha = d;
            break;
        case OPT_JSON:
            once(&given, bit, same_name(o->json, optarg), "--json");
            o->json = optarg;
            break;
        case OPT_PLOT:
            once(&given, bit, same_name(o->plot, optarg), "--plot");
            o->plot = optarg;
            break;
        case OPT_POWER:
            d = 0.01;
            if (optarg != NULL &&
                (parse_double(optarg, &d) != 0 || !(d > 0 && d < 1)))
                fail("invalid --power: %s (a relative bias between 0 and 1)",
                     quote(optarg));
            once(&given, bit, o->power == d, "--power");
            o->power = d;
            break;
        case OPT_BASE:
            if (strcmp(optarg, "0") != 0 && strcmp(optarg, "1") != 0)
                fail("invalid --base: %s (0 or 1)", quote(optarg));
            once(&given, bit, o->base == optarg[0] - '0', "--base");
            o->base = optarg[0] - '0';
            break;
        case OPT_PROGRESS:
            o->progress = 1;
            break;
        case OPT_NO_PROGRESS:
            o->progress = 0;
            break;
        case OPT_HELP:
            help();
        case OPT_VERSION:
            print_version();
        default:
            audit_usage_error();
        }
    }
    if (optind < argc)
        o->cmd = argv + optind;
    if (o->input != NULL && o->cmd != NULL) {
        error_msg(0, "cannot combine --input and a COMMAND");
        audit_usage_error();
    }
    if (o->input == NULL && o->cmd == NULL) {
        error_msg(0, "nothing to audit: give --input=FILE or "
                     "-- COMMAND");
        audit_usage_error();
    }
    if (o->jobs > 1 && !(o->per_run && o->cmd != NULL))
        fail("--jobs needs --per-run and a COMMAND");
    if (o->per_run && o->input != NULL && o->n == 0)
        fail("--per-run with --input needs --n (values per deal)");
    if (o->per_run && o->cmd != NULL && o->trials == 0)
        o->trials = 10000;
}

/* ------------------------------------------------------------------------ */
/* Progress bar (stderr, on a terminal)                                     */

typedef struct pbar {
    int on, shown;
    double last;
} pbar;

static void pbar_show(pbar *pb, uint64_t done, uint64_t total)
{
    if (!pb->on)
        return;
    double t = now();
    if (t - pb->last < 0.2 && done != total)
        return;
    pb->last = t;
    pb->shown = 1;
    char bar[31];
    size_t fill = total ? (size_t)(30.0 * (double)done / (double)total) : 0;
    if (fill > 30)
        fill = 30;
    memset(bar, '#', fill);
    memset(bar + fill, '.', 30 - fill);
    bar[30] = '\0';
    if (total)
        fprintf(stderr, "\r%s: [%s] %3d%% %llu/%llu deals", program_name,
                bar, (int)(100.0 * (double)done / (double)total),
                (unsigned long long)done, (unsigned long long)total);
    else
        fprintf(stderr, "\r%s: %llu deals", program_name,
                (unsigned long long)done);
    fflush(stderr);
}

static void pbar_end(pbar *pb)
{
    if (pb->shown)
        fprintf(stderr, "\r\033[K");
    pb->shown = 0;
}

/* ------------------------------------------------------------------------ */
/* Deals: tokens to a checked permutation of 0..n-1                         */

enum { MODE_UNKNOWN, MODE_NUMBER, MODE_CARD };

typedef struct dealer {
    const aopts *o;
    const char *src; /* for messages */
    const char *input; /* --input as given ("-": standard input), or NULL */
    size_t n;        /* 0 until the first deal */
    int mode, base;
    uint32_t *raw;   /* values of the deal being read */
    size_t len, cap;
    uint32_t *deal;  /* checked, 0-based */
    uint64_t *seen;  /* deal stamp per value */
    int32_t cardmap[256]; /* card code -> index (a shoe: face), -1 */
    /* A shoe (cards only): every card of the first deal appears copies
       times. Identical cards get distinct labels face * copies + j by a
       random tie-break, independent of the deals (one seeded generator for
       the run, so the audit replays): it turns a uniform shoe order into a
       uniform permutation of n labels. The duplicate test compares the
       face sequences. */
    unsigned copies;
    fsh_rng *ties;
    uint32_t *lab;  /* n: each face's block of labels, shuffled per deal */
    uint32_t *used; /* faces: labels handed out in this deal */
    uint32_t *seq;  /* n: the deal's face sequence, the duplicate key */
    uint64_t deals;
    battery *bat;
} dealer;

__attribute__((format(printf, 3, 4))) static _Noreturn void bad_input(
    const dealer *d, unsigned long line, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    /* An --input file is named as its open and read errors name it,
       quoted when needed (quotef: a space, a colon, an escape sequence
       were printed raw). */
    const char *src = d->input != NULL && strcmp(d->input, "-") != 0
                          ? quotef(d->input)
                          : d->src;
    if (line)
        fail("%s:%lu: %s", src, line, buf);
    fail("%s: %s", src, buf);
}

/* The jokers of fairshuf deal --jokers (and of fsh_cardset_standard):
   their codes after the 52 cards, their names in both notations. */
#define RED_JOKER 52u
#define BLACK_JOKER 53u

/* *v = the card named name: a name fsh_card_parse takes, or a joker. */
static int card_code(uint32_t *v, const char *name)
{
    if (fsh_card_parse(v, name) == FSH_OK)
        return *v <= 255 ? 0 : -1;
    if (strcmp(name, "RJ") == 0)
        *v = RED_JOKER;
    else if (strcmp(name, "BJ") == 0)
        *v = BLACK_JOKER;
    else
        return -1;
    return 0;
}

/* The poker-notation name of card code v (a joker's too), for messages. */
static void card_label(char *buf, size_t len, uint32_t v)
{
    if (v == RED_JOKER || v == BLACK_JOKER)
        snprintf(buf, len, "%s", v == RED_JOKER ? "RJ" : "BJ");
    else if (fsh_card_name(buf, len, v, FSH_CARD_POKER) != FSH_OK)
        snprintf(buf, len, "#%u", v);
}

static void add_token(dealer *d, const char *tok, size_t tlen,
                      unsigned long line)
{
    char tmp[64];
    int digits = tlen > 0;
    for (size_t i = 0; i < tlen; i++)
        digits &= tok[i] >= '0' && tok[i] <= '9';
    int mode = digits ? MODE_NUMBER : MODE_CARD;
    if (memchr(tok, '\0', tlen) != NULL)
        bad_input(d, line, "a NUL byte in a value");
    if (tlen >= sizeof tmp) {
        /* Its start, quoted as every value in a message is (it was
           printed raw: a terminal's escape sequences, a cut character). */
        memcpy(tmp, tok, 20);
        tmp[20] = '\0';
        bad_input(d, line, "value too long: %s...", quote(tmp));
    }
    memcpy(tmp, tok, tlen);
    tmp[tlen] = '\0';
    uint32_t v;
    if (mode == MODE_NUMBER) {
        uint64_t x;
        if (parse_udec(tmp, 0, UINT32_MAX, &x) != 0)
            bad_input(d, line, "value %s too large", quote(tmp));
        v = (uint32_t)x;
    } else if (card_code(&v, tmp) != 0) {
        bad_input(d, line, "%s is neither a number nor a card name",
                  quote(tmp));
    }
    if (d->mode == MODE_UNKNOWN)
        d->mode = mode;
    else if (d->mode != mode)
        bad_input(d, line, "%s: numbers and card names mixed", quote(tmp));
    if (d->len == d->cap) {
        d->cap = d->cap ? 2 * d->cap : 64;
        if (d->cap > (size_t)AUDIT_MAX_N * 2)
            bad_input(d, line, "more than %d values in a deal", AUDIT_MAX_N);
        d->raw = arealloc(d->raw, d->cap * sizeof *d->raw);
    }
    d->raw[d->len++] = v;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* A card of the first deal seen a different number of times than the
   first card (a deck has each card once, a shoe each the same number of
   times). */
static _Noreturn void card_count_error(const dealer *d, unsigned long line,
                                       uint32_t card, size_t run)
{
    char name[16];
    card_label(name, sizeof name, card);
    if (run == 1)
        bad_input(d, line, "card %s repeated", name);
    bad_input(d, line,
              "card %s is not there %zu times (a shoe holds every card the "
              "same number of times)",
              name, run);
}

static void first_deal(dealer *d, unsigned long line)
{
    size_t n = d->o->n ? d->o->n : d->len;
    if (d->len == 0)
        bad_input(d, line, "empty deal");
    if (d->len != n)
        bad_input(d, line, "%zu value%s, expected %zu (--n)", d->len,
                  plural(d->len), n);
    if (n < 2 || n > AUDIT_MAX_N)
        bad_input(d, line, "%zu value%s in a deal (2 to %d)", n, plural(n),
                  AUDIT_MAX_N);
    d->n = n;
    if (d->mode == MODE_NUMBER) {
        d->base = d->o->base;
        if (d->base < 0) {
            d->base = 1;
            for (size_t i = 0; i < n; i++)
                if (d->raw[i] == 0)
                    d->base = 0;
        }
    } else {
        /* --base numbers values; card names have none to number. */
        if (d->o->base >= 0)
            bad_input(d, line, "--base applies to numbers, not card names");
        /* The first deal defines the deck: its cards, in code order. A
           shoe: every card the same number of times. */
        uint32_t *s = amalloc(n * sizeof *s);
        memcpy(s, d->raw, n * sizeof *s);
        qsort(s, n, sizeof *s, cmp_u32);
        for (size_t i = 0; i < 256; i++)
            d->cardmap[i] = -1;
        size_t run = 1;
        while (run < n && s[run] == s[0])
            run++;
        size_t face = 0;
        for (size_t i = 0; i < n; i += run, face++) {
            for (size_t j = 1; j < run; j++)
                if (i + j >= n || s[i + j] != s[i])
                    card_count_error(d, line, s[i], run);
            if (i + run < n && s[i + run] == s[i])
                card_count_error(d, line, s[i], run);
            d->cardmap[s[i]] = (int32_t)face;
        }
        d->copies = (unsigned)run;
        if (run > 1) {
            static const char tie_seed[] = "fairshuf/audit/ties/v2";
            if (fsh_rng_new_seeded(&d->ties, tie_seed, sizeof tie_seed - 1) !=
                    FSH_OK ||
                fsh_rng_set_simulation(d->ties, 1) != FSH_OK)
                fail("memory exhausted");
            d->lab = amalloc(n * sizeof *d->lab);
            d->used = amalloc(face * sizeof *d->used);
            d->seq = amalloc(n * sizeof *d->seq);
        }
        free(s);
    }
    d->deal = amalloc(n * sizeof *d->deal);
    d->seen = calloc(n, sizeof *d->seen);
    if (d->seen == NULL)
        fail("memory exhausted");
    d->bat = battery_new(n);
    if (d->bat == NULL)
        fail("memory exhausted");
    if (d->copies > 1)
        battery_set_shoe(d->bat, d->copies);
}

/* A shoe's deal: each card's occurrences get its face's labels in an
   order shuffled by the tie-break generator (a tie-break that depended on
   the deal would map a shoe of D orders onto only D labelled permutations,
   and a fair shoe of few orders would fail every test). */
static void shoe_labels(dealer *d, unsigned long line)
{
    size_t n = d->n, c = d->copies, faces = n / c;
    for (size_t f = 0; f < faces; f++) {
        for (size_t j = 0; j < c; j++)
            d->lab[f * c + j] = (uint32_t)(f * c + j);
        if (fsh_shuffle_u32(d->ties, d->lab + f * c, c) != FSH_OK)
            fail("the tie-break generator failed");
        d->used[f] = 0;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t v = d->raw[i];
        char name[16];
        if (d->cardmap[v] < 0 || d->used[d->cardmap[v]] == c) {
            card_label(name, sizeof name, v);
            if (d->cardmap[v] < 0)
                bad_input(d, line, "card %s is not in the first deal's shoe",
                          name);
            bad_input(d, line, "card %s more than %zu times (position %zu)",
                      name, c, i + 1);
        }
        size_t f = (size_t)d->cardmap[v];
        d->seq[i] = (uint32_t)f;
        d->deal[i] = d->lab[f * c + d->used[f]++];
    }
}

static void end_deal(dealer *d, unsigned long line)
{
    if (d->n == 0)
        first_deal(d, line);
    size_t n = d->n;
    if (d->len != n)
        bad_input(d, line, "%zu value%s, expected %zu", d->len,
                  plural(d->len), n);
    if (d->copies > 1) {
        shoe_labels(d, line);
        battery_add(d->bat, d->deal, d->seq);
        d->deals++;
        d->len = 0;
        return;
    }
    uint64_t stamp = d->deals + 1;
    for (size_t i = 0; i < n; i++) {
        uint32_t v = d->raw[i], idx;
        if (d->mode == MODE_NUMBER) {
            if (v < (uint32_t)d->base || v - (uint32_t)d->base >= n)
                bad_input(d, line, "value %u out of range %d..%zu", v,
                          d->base, n - 1 + (size_t)d->base);
            idx = v - (uint32_t)d->base;
        } else {
            if (d->cardmap[v] < 0) {
                char name[16];
                card_label(name, sizeof name, v);
                bad_input(d, line, "card %s is not in the first deal's deck",
                          name);
            }
            idx = (uint32_t)d->cardmap[v];
        }
        if (d->seen[idx] == stamp) {
            size_t miss = 0;
            for (size_t j = 0; j < n; j++)
                if (d->seen[j] != stamp) {
                    /* The first value not yet seen (some may come later:
                       then it is another that is missing). */
                    int later = 0;
                    for (size_t k = i + 1; k < n; k++) {
                        uint32_t w = d->raw[k];
                        uint32_t wi = d->mode == MODE_NUMBER
                                          ? w - (uint32_t)d->base
                                          : (uint32_t)d->cardmap[w];
                        later |= wi == j;
                    }
                    if (!later) {
                        miss = j;
                        break;
                    }
                }
            if (d->mode == MODE_NUMBER)
                bad_input(d, line, "value %u repeated (value %zu missing)", v,
                          miss + (size_t)d->base);
            char name[16];
            card_label(name, sizeof name, v);
            bad_input(d, line, "card %s repeated (position %zu)", name, i + 1);
        }
        d->seen[idx] = stamp;
        d->deal[i] = idx;
    }
    battery_add(d->bat, d->deal, NULL);
    d->deals++;
    d->len = 0;
}

/* A separator between the values of a deal (a line break ends the line). */
static int is_sep(char c)
{
    return c == ' ' || c == '\t' || c == ',' || c == '\r';
}

/* Tokens of text[0..len) (separators: blanks, commas), line by line from
   *line; a line break ends a deal when per_line. */
static void add_text(dealer *d, const char *s, size_t len, unsigned long line)
{
    size_t i = 0;
    while (i < len) {
        while (i < len && is_sep(s[i]))
            i++;
        size_t j = i;
        while (j < len && !is_sep(s[j]) && s[j] != '\n')
            j++;
        if (j > i)
            add_token(d, s + i, j - i, line);
        if (j < len && s[j] == '\n') {
            line++;
            j++;
        }
        i = j;
    }
}

/* ------------------------------------------------------------------------ */
/* Line reader on a descriptor, with a deadline                             */

typedef struct lreader {
    int fd, eof;
    char *buf;
    size_t len, pos, cap;
    size_t scanned; /* buf[pos..scanned) holds no '\n' */
} lreader;

/* poll's timeout until deadline (0: none, -1), in ms rounded up; 0 once
   it has passed. */
static int poll_ms(double deadline)
{
    if (deadline <= 0)
        return -1;
    double left = deadline - now();
    return left <= 0 ? 0 : left > 1e6 ? 1000000000 : (int)(left * 1000) + 1;
}

/* Next line (without '\n') in *line and *len: 1; 0 at the end; -1 when the
   deadline (0: none) passed. A last line without '\n' counts. A line longer
   than AUDIT_MAX_TEXT is an error (line number ln + 1), so a stream without
   line breaks is neither held in memory nor scanned again and again. */
static int next_line(lreader *r, double deadline, char **line, size_t *len,
                     const dealer *d, unsigned long ln)
{
    for (;;) {
        char *nl = r->scanned < r->len
                       ? memchr(r->buf + r->scanned, '\n',
                                r->len - r->scanned)
                       : NULL;
        r->scanned = r->len;
        /* The line, whole or so far. */
        size_t end = nl ? (size_t)(nl - r->buf) : r->len;
        if (end - r->pos > AUDIT_MAX_TEXT)
            bad_input(d, ln + 1, "line longer than %d bytes", AUDIT_MAX_TEXT);
        if (nl != NULL || (r->eof && r->pos < r->len)) {
            *line = r->buf + r->pos;
            *len = end - r->pos;
            r->pos = nl ? end + 1 : end;
            r->scanned = r->pos;
            return 1;
        }
        if (r->eof)
            return 0;
        if (r->pos > 0) {
            memmove(r->buf, r->buf + r->pos, r->len - r->pos);
            r->len -= r->pos;
            r->scanned -= r->pos;
            r->pos = 0;
        }
        if (r->len == r->cap) {
            r->cap = r->cap ? 2 * r->cap : 1 << 16;
            r->buf = arealloc(r->buf, r->cap);
        }
        if (deadline > 0) {
            int ms = poll_ms(deadline);
            if (ms == 0)
                return -1;
            struct pollfd p = {r->fd, POLLIN, 0};
            int pr = poll(&p, 1, ms);
            if (pr < 0 && errno != EINTR)
                fail("poll: %s", strerror(errno));
            if (pr <= 0)
                continue;
        }
        ssize_t got = read_retry(r->fd, r->buf + r->len, r->cap - r->len);
        if (got < 0) {
            /* --input's file is named as given, as deal and verify name
               theirs and GNU cat its operands ("-" for standard input);
               a COMMAND's output by the command. */
            if (d->input != NULL)
                fail("%s: %s", quotef(d->input), strerror(errno));
            fail("read error on %s: %s", d->src, strerror(errno));
        }
        if (got == 0)
            r->eof = 1;
        r->len += (size_t)got;
    }
}

/* ------------------------------------------------------------------------ */
/* Running COMMAND                                                          */

static pid_t spawn(char **cmd, int *fd)
{
    int p[2];
    if (pipe(p) != 0)
        fail("pipe: %s", strerror(errno));
    fflush(stdout);
    fflush(stderr);
    sigset_t old;
    kids_block(&old); /* no signal between the fork and kid_add */
    pid_t pid = fork();
    if (pid < 0) {
        sigprocmask(SIG_SETMASK, &old, NULL);
        fail("fork: %s", strerror(errno));
    }
    if (pid == 0) {
        /* Its own process group, so a time limit stops all of it; the
           default SIGPIPE, which we ignore; no runs of its own to stop;
           and until its exec a signal (the time limit's SIGTERM to a run
           just started) takes its default action, not the handler that
           would remove the audit's --json and --plot temporaries. */
        nkids = 0;
        setpgid(0, 0);
        outfile_reset_handlers();
        sigprocmask(SIG_SETMASK, &old, NULL);
        signal(SIGPIPE, SIG_DFL);
        close(p[0]);
        if (p[1] != STDOUT_FILENO) {
            dup2(p[1], STDOUT_FILENO);
            close(p[1]);
        }
        int dn = open("/dev/null", O_RDONLY);
        if (dn >= 0 && dn != STDIN_FILENO) {
            dup2(dn, STDIN_FILENO);
            close(dn);
        }
        execvp(cmd[0], cmd);
        error_msg(errno, "cannot run %s", quote(cmd[0]));
        _exit(127);
    }
    /* The group exists before anything may signal it (the child sets it
       too: whichever comes first). */
    setpgid(pid, pid);
    kid_add(pid);
    sigprocmask(SIG_SETMASK, &old, NULL);
    close(p[1]);
    *fd = p[0];
    return pid;
}

/* Wait for pid; die unless it exited 0. killed: we sent it SIGTERM, so
   its status does not matter, and at time until (now() + STOP_GRACE, one
   for the runs stopped together) its group gets SIGKILL if it is still
   there. */
static void reap(pid_t pid, const char *what, int killed, double until)
{
    int st;
    if (killed) {
        if (end_by(pid, until) < 0)
            fail("waitpid: %s", strerror(errno));
        kid_remove(pid);
        return;
    }
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            fail("waitpid: %s", strerror(errno));
    kid_remove(pid);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return;
    if (WIFEXITED(st))
        fail("%s exited with status %d", what, WEXITSTATUS(st));
    fail("%s killed by signal %d", what, WTERMSIG(st));
}

/* The whole output of a run into buf. */
typedef struct job {
    pid_t pid;
    int fd;
    char *buf;
    size_t len, cap;
} job;

static int collect_per_run(dealer *d, const aopts *o, pbar *pb,
                           double deadline)
{
    job *jobs = calloc(o->jobs, sizeof *jobs);
    if (jobs == NULL)
        fail("memory exhausted");
    int stopped = 0;
    char what[64];
    size_t srclen = strlen(o->cmd[0]) + sizeof what + 4;
    char *src = amalloc(srclen);
    while (d->deals < o->trials && !stopped) {
        unsigned nj = o->jobs;
        if (o->trials - d->deals < nj)
            nj = (unsigned)(o->trials - d->deals);
        for (unsigned j = 0; j < nj; j++) {
            jobs[j].pid = spawn(o->cmd, &jobs[j].fd);
            jobs[j].len = 0;
        }
        struct pollfd pf[256];
        unsigned open_fds = nj;
        for (unsigned j = 0; j < nj; j++)
            pf[j] = (struct pollfd){jobs[j].fd, POLLIN, 0};
        while (open_fds > 0) {
            int pr = poll(pf, nj, poll_ms(deadline));
            if (pr < 0) {
                if (errno == EINTR)
                    continue;
                fail("poll: %s", strerror(errno));
            }
            if (pr == 0 && deadline > 0 && now() >= deadline) {
                /* The time limit, with runs in progress: stop them (their
                   process groups) and count none of this batch. */
                for (unsigned j = 0; j < nj; j++) {
                    kill(-jobs[j].pid, SIGTERM);
                    if (pf[j].fd >= 0)
                        close(pf[j].fd);
                }
                double until = now() + STOP_GRACE;
                for (unsigned j = 0; j < nj; j++)
                    reap(jobs[j].pid, o->cmd[0], 1, until);
                stopped = 1;
                break;
            }
            for (unsigned j = 0; j < nj; j++) {
                if (pf[j].fd < 0 || pf[j].revents == 0)
                    continue;
                job *jb = &jobs[j];
                if (jb->len > AUDIT_MAX_TEXT) {
                    snprintf(what, sizeof what, "run %llu",
                             (unsigned long long)d->deals + j + 1);
                    fail("%s (%s): output longer than %d bytes", o->cmd[0],
                         what, AUDIT_MAX_TEXT);
                }
                if (jb->cap - jb->len < 4096) {
                    jb->cap = jb->cap ? 2 * jb->cap : 8192;
                    jb->buf = arealloc(jb->buf, jb->cap);
                }
                ssize_t got =
                    read_retry(jb->fd, jb->buf + jb->len, jb->cap - jb->len);
                if (got < 0)
                    fail("read error: %s", strerror(errno));
                if (got == 0) {
                    close(jb->fd);
                    pf[j].fd = -1;
                    open_fds--;
                } else {
                    jb->len += (size_t)got;
                }
            }
        }
        for (unsigned j = 0; j < nj && !stopped; j++) {
            snprintf(what, sizeof what, "run %llu",
                     (unsigned long long)d->deals + 1);
            /* "COMMAND (run N)" whole, however long COMMAND's name (96
               bytes cut the run number off a long path). */
            snprintf(src, srclen, "%s (%s)", o->cmd[0], what);
            d->src = src;
            reap(jobs[j].pid, src, 0, 0);
            add_text(d, jobs[j].buf, jobs[j].len, 1);
            end_deal(d, 0);
            d->src = o->cmd[0];
        }
        pbar_show(pb, d->deals, o->trials);
        if (deadline > 0 && now() >= deadline)
            stopped = 1;
    }
    for (unsigned j = 0; j < o->jobs; j++)
        free(jobs[j].buf);
    free(jobs);
    free(src);
    return stopped;
}

/* Deals from a descriptor: lines (or n lines of one value with per_run).
   Returns 1 when stopped by the deadline or by --trials before the end. */
static int collect_stream(dealer *d, const aopts *o, int fd, pbar *pb,
                          double deadline, int *cut)
{
    lreader r = {fd, 0, NULL, 0, 0, 0, 0};
    char *line;
    size_t len;
    unsigned long ln = 0;
    int rc, stopped = 0;
    *cut = 0;
    while ((rc = next_line(&r, deadline, &line, &len, d, ln)) == 1) {
        ln++;
        if (!o->per_run && d->len == 0) {
            size_t k = 0; /* a line of separators only: no deal */
            while (k < len && is_sep(line[k]))
                k++;
            if (k == len)
                bad_input(d, ln, "empty line");
        }
        if (o->trials && d->deals >= o->trials) {
            if (o->cmd != NULL) { /* enough: stop the command */
                *cut = 1;
                break;
            }
            bad_input(d, ln, "more deals than --trials=%llu",
                      (unsigned long long)o->trials);
        }
        size_t before = d->len;
        add_text(d, line, len, ln);
        if (o->per_run) {
            if (d->len != before + 1)
                bad_input(d, ln, "%zu values on a line; --per-run takes one "
                                 "value per line",
                          d->len - before);
            if (d->len == o->n)
                end_deal(d, ln);
        } else {
            if (d->len == 0)
                bad_input(d, ln, "empty line");
            end_deal(d, ln);
        }
        if ((d->deals & 1023) == 0)
            pbar_show(pb, d->deals, o->trials);
    }
    pbar_show(pb, d->deals, d->deals);
    if (rc < 0)
        stopped = 1;
    if (rc == 0 && d->len > 0)
        bad_input(d, ln, "last deal incomplete: %zu of %zu values", d->len,
                  o->n);
    if (!stopped && !*cut && o->trials && d->deals < o->trials)
        bad_input(d, 0, "%llu deal%s, expected %llu (--trials)",
                  (unsigned long long)d->deals, plural(d->deals),
                  (unsigned long long)o->trials);
    free(r.buf);
    return stopped;
}

/* ------------------------------------------------------------------------ */
/* Report                                                                   */

/* Deals a test with df degrees of freedom at level alpha needs when each
   deal (or each pair of consecutive deals, one more than a deal)
   adds per_deal to the noncentrality: power 1/2 where the noncentrality
   reaches the critical value minus df, as deals_needed does. */
static double deals_for(double df, double per_deal, double alpha)
{
    double crit;
    if (fsh_stats_chi2_isf(alpha, df, &crit) != FSH_OK)
        return NAN;
    /* A bias whose square underflows (--power=1e-200): more deals than a
       double holds, as deals_needed says. */
    if (!(per_deal > 0))
        return INFINITY;
    return (crit - df) / per_deal;
}

/* The critical value at level alpha of a test of k equally likely cells
   whose p-value is the Chernoff bound on its exact tail (battery.c,
   fsh_stats_pearson_equal_bound: many deals, beyond the exact tail); with
   many deals that bound tends to the chi-square limit's Chernoff bound
   (x/df)^(df/2) e^((df - x)/2): its critical value is where that is
   alpha (98.3 for the limit's 88.0 at df 51 and 1e-3). */
static double cells_crit(double df, double alpha)
{
    double la = log(alpha), lo = df, hi = df + 1;
    if (!(la < 0))
        return df;
    while (df / 2 * log(hi / df) + (df - hi) / 2 > la)
        hi = df + 2 * (hi - df);
    for (int it = 0; it < 200 && hi - lo > 1e-9 * hi; it++) {
        double mid = (lo + hi) / 2;
        if (df / 2 * log(mid / df) + (df - mid) / 2 > la)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

/* The deals a statistic of df_stat degrees of freedom (noncentrality
   per_deal a deal) needs when its p-value is that of the test of k
   equally likely cells at the same value, one of `lines` at level a each
   (family level alpha): the cells tests themselves (df_stat = k - 1),
   and position by value at 2 to 4 values (df_stat = (n - 1)^2, its
   p-value that of the n! orders where it decides). Where the battery
   takes that p-value from the exact tail at the deals found (few cells:
   battery_cells_exact), whose critical value is the limit's with many
   deals, from it; else from the bound's (cells_crit). */
static double deals_for_test(size_t k, double df_stat, double per_deal,
                             double a, double alpha, double lines)
{
    double df = (double)(k - 1), crit;
    if (!(per_deal > 0))
        return INFINITY;
    if (fsh_stats_chi2_isf(a, df, &crit) == FSH_OK) {
        double t = ceil((crit - df_stat) / per_deal);
        if (t >= 1 && t < 0x1p52 &&
            battery_cells_exact((uint64_t)t, k, alpha, lines) == 1)
            return (crit - df_stat) / per_deal;
    }
    return (cells_crit(df, a) - df_stat) / per_deal;
}

/* Deals the position-by-value test needs to see one value at one position
   with probability (1 + bias)/n instead of 1/n (the others in its row and
   column lowered evenly), with power 1/2 at level alpha / tests: the
   noncentrality T * sum (p - p0)^2 / p0 must reach the critical value
   minus the degrees of freedom (normal approximation of the noncentral
   chi-square's median). The critical value is the test's: the
   chi-square((n-1)^2) limit's, but for 2 to 4 values that of the n!
   orders' test at the same value (battery.c's pbv_p), exact or the
   bound (deals_for_test; the limit's was quoted before: at 3 values,
   10 tests and alpha 0.01, 1.6 times too few deals). */
static double deals_needed(size_t n, double bias, double alpha, int tests)
{
    double dn = (double)n, df = (dn - 1) * (dn - 1), crit;
    /* The cell gains bias/n; its row and column each lose it evenly over
       n - 1 cells, the rest of the matrix gains bias/(n(n-1)^2) per
       cell: about bias^2/n * (1 + 2/(n-1)) in sum (p-p0)^2/p0 (p0 = 1/n),
       scaled by (n-1)/n as the statistic is. */
    double per_deal = bias * bias / dn * (1 + 2 / (dn - 1)) * (dn - 1) / dn;
    if (n <= 4)
        return deals_for_test(n == 2 ? 2 : n == 3 ? 6 : 24, df, per_deal,
                              alpha / tests, alpha, 1);
    if (fsh_stats_chi2_isf(alpha / tests, df, &crit) != FSH_OK)
        return NAN;
    return (crit - df) / per_deal;
}

/* Per deal, the noncentrality that a shift of a count's mean by the
   relative bias adds to the battery's two-group test of the count (the
   law pmf[0..k) split at the category whose cumulative probability is
   nearest 1/2, battery.c's gof, which the counts use at the sizes where
   power matters): with the shift made by tilting the law, the upper
   group's probability p moves by bias mu cov(X, upper) / var X, so
   (bias mu)^2 cov^2 / (var^2 p (1 - p)) per deal, the mean test's
   (bias mu)^2 / var times the squared correlation of X with the split
   (2/pi for a near-normal law, 0.58 for Poisson(1)). NAN without
   memory. */
static double split_noncentrality(const double *pmf, size_t k, double bias)
{
    double mu = 0, m2 = 0, p = 0, up = 0;
    size_t cut = battery_median_cut(pmf, k);
    for (size_t i = 0; i < k; i++) {
        double x = (double)i;
        mu += x * pmf[i];
        m2 += x * x * pmf[i];
        if (i >= cut) {
            p += pmf[i];
            up += x * pmf[i];
        }
    }
    double var = m2 - mu * mu, cov = up - mu * p;
    if (!(var > 0 && p > 0 && p < 1))
        return NAN;
    return bias * bias * mu * mu * cov * cov / (var * var * p * (1 - p));
}

/* The same for a count whose law is laws(n, pmf) with k cells. */
static double count_noncentrality(int (*laws)(size_t, double *), size_t n,
                                  size_t k, double bias)
{
    double *pmf = malloc(k * sizeof *pmf), v = NAN;
    if (pmf != NULL && laws(n, pmf) == FSH_OK)
        v = split_noncentrality(pmf, k, bias);
    free(pmf);
    return v;
}

/* The inversions' law (Kendall distances too), up to AUDIT_MAX_N_INV
   cards (beyond, the tests do not run: the near-normal law's 2/pi). */
static double inv_noncentrality(size_t n, double bias)
{
    double dn = (double)n, mu = dn * (dn - 1) / 4,
           var = dn * (dn - 1) * (2 * dn + 5) / 72;
    if (n > AUDIT_MAX_N_INV)
        return bias * bias * mu * mu / var * 2 / 3.141592653589793;
    size_t k = n * (n - 1) / 2 + 1;
    double *pmf = malloc(k * sizeof *pmf), v = NAN;
    if (pmf != NULL && fsh_stats_inversions_law(n, pmf, k) == FSH_OK)
        v = split_noncentrality(pmf, k, bias);
    free(pmf);
    return v;
}

static int succ_law(size_t n, double *pmf)
{
    return fsh_stats_successions_law(n, pmf);
}

static int fix_law(size_t n, double *pmf)
{
    return fsh_stats_fixed_points_law(n, pmf);
}

/* --power for every test: the deals each needs to see a relative bias in
   what it measures, at power 1/2 and level alpha / tests (Holm's first
   step, its strictest). Counts (fixed points, successions, matches,
   inversions, Kendall distances): a shift of the mean by bias * mu, seen
   by the two-group split (split_noncentrality). One cell bias more
   likely among k equally likely ones (an order of n!, a difference of
   consecutive first or last cards among n, one value at one position in
   a row): per deal bias^2 / k, against the critical value of the p-value
   the battery computes at those deals, the exact tail's or the bound's
   (deals_for_test). The tests of consecutive deals take every
   consecutive pair: as many pairs as deals, less one. */
static void print_power(size_t n, double bias, double alpha, int tests)
{
    double dn = (double)n, a = alpha / tests, b2 = bias * bias;
    double nc_fix = count_noncentrality(fix_law, n, n + 1, bias),
           nc_suc = count_noncentrality(succ_law, n, n, bias),
           nc_inv = inv_noncentrality(n, bias);
    printf("power: deals each test needs to see a %g%% bias in what it "
           "measures (power 1/2,\n       level alpha/%d):\n",
           bias * 100, tests);
    if (n <= 8) {
        double f = 1;
        for (size_t i = 2; i <= n; i++)
            f *= (double)i;
        printf("  %-40s %10.3g  (one order more likely)\n",
               "full permutation",
               deals_for_test((size_t)f, f - 1, b2 / f, a, alpha, 1));
    }
    printf("  %-40s %10.3g  (one card at one position)\n",
           "position by value", deals_needed(n, bias, alpha, tests));
    printf("  %-40s %10.3g  (one card at one position)\n",
           "worst row or column",
           deals_for_test(n, dn - 1, b2 / dn, a / (2 * dn), alpha, 2 * dn));
    printf("  %-40s %10.3g  (mean successor pairs)\n", "successor pairs",
           deals_for(1, nc_suc, a));
    printf("  %-40s %10.3g  (mean fixed points)\n", "fixed points",
           deals_for(1, nc_fix, a));
    printf("  %-40s %10.3g  (mean inversions)\n", "inversions",
           deals_for(1, nc_inv, a));
    printf("  %-40s %10.3g  (mean matches)\n", "consecutive deals: matches",
           deals_for(1, nc_fix, a));
    printf("  %-40s %10.3g  (mean distance)\n",
           "consecutive deals: Kendall distance", deals_for(1, nc_inv, a));
    printf("  %-40s %10.3g  (one difference of n)\n",
           "consecutive deals: first/last-card diff.",
           deals_for_test(n, dn - 1, b2 / dn, a, alpha, 1));
}

static void jstr(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void jnum(FILE *f, double v)
{
    if (isnan(v) || isinf(v))
        fputs("null", f);
    else
        fprintf(f, "%.17g", v);
}

/* Whether --json and --plot name one regular file, which the second
   rename would take from the first: the same name, the same file under
   another name or link, or (neither there yet) the same name in the same
   directory. A device or a FIFO takes both, one after the other. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (strcmp(a, b) == 0)
        return !ea || S_ISREG(sa.st_mode);
    if (ea && eb)
        return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev &&
               sa.st_ino == sb.st_ino;
    if (ea || eb)
        return 0;
    const char *ba = strrchr(a, '/'), *bb = strrchr(b, '/');
    ba = ba ? ba + 1 : a;
    bb = bb ? bb + 1 : b;
    if (strcmp(ba, bb) != 0)
        return 0;
    /* The directories: "." for a bare name, "/" for "/name". */
    char *da = strndup(a, ba > a ? (size_t)(ba - a) : 0),
         *db = strndup(b, bb > b ? (size_t)(bb - b) : 0);
    if (da == NULL || db == NULL)
        fail("memory exhausted");
    int same = stat(*da ? da : ".", &sa) == 0 &&
               stat(*db ? db : ".", &sb) == 0 && sa.st_dev == sb.st_dev &&
               sa.st_ino == sb.st_ino;
    free(da);
    free(db);
    return same;
}

/* --json and --plot: a regular FILE is written to a temporary beside it
   and renamed over it at the end (cli/io/outfile.c, as -o), so a failed
   audit leaves the old file; opened before the deals are collected, so a
   bad destination is found at once. "-": standard output, and the report
   goes to standard error (set up in cmd_audit). */
static FILE *open_out(const char *path, int stdout_fd)
{
    int fd = strcmp(path, "-") == 0 ? stdout_fd : outfile_open(path, NULL);
    FILE *f = fdopen(fd, "w");
    if (f == NULL)
        fail("%s: %s", quotef(path), strerror(errno));
    return f;
}

static void close_out(FILE *f, const char *path)
{
    if (ferror(f) | (fclose(f) != 0))
        fail("%s: %s", strcmp(path, "-") == 0 ? "write error" : quotef(path),
             strerror(errno ? errno : EIO));
}

static void write_json(FILE *f, const char *path, const aopts *o,
                       const dealer *d, const test_result *r, int k,
                       int passed, int failed, int stopped)
{
    fprintf(f, "{\n  \"deals\": %llu,\n  \"n\": %zu,\n  \"alpha\": ",
            (unsigned long long)d->deals, d->n);
    jnum(f, o->alpha);
    fprintf(f, ",\n  \"correction\": \"Holm\",\n  \"time_limit_reached\": %s,"
               "\n  \"tests\": [\n",
            stopped ? "true" : "false");
    for (int i = 0; i < k; i++) {
        fputs("    {\"name\": ", f);
        jstr(f, r[i].name);
        fprintf(f, ", \"result\": \"%s\", \"statistic\": ",
                r[i].status == T_PASS   ? "PASS"
                : r[i].status == T_FAIL ? "FAIL"
                : r[i].status == T_NONE ? "NONE"
                                        : "SKIP");
        jnum(f, r[i].stat);
        fputs(", \"df\": ", f);
        jnum(f, r[i].df);
        fputs(", \"p\": ", f);
        jnum(f, r[i].p);
        fputs(", \"p_holm\": ", f);
        jnum(f, r[i].p_holm);
        fputs(", \"note\": ", f);
        jstr(f, r[i].note);
        fprintf(f, "}%s\n", i + 1 < k ? "," : "");
    }
    fputs("  ],\n  \"duplicates\": {\"pairs\": ", f);
    jnum(f, battery_dup_pairs(d->bat));
    fputs(", \"expected_uniform\": ", f);
    jnum(f, battery_dup_expected(d->bat, 0));
    static const unsigned bits[] = {24, 32, 48, 64};
    for (int i = 0; i < 4; i++) {
        fprintf(f, ", \"expected_%u_bit_seed\": ", bits[i]);
        jnum(f, battery_dup_expected(d->bat, bits[i]));
    }
    /* The verdict, as the report gives it: NONE (exit status 2) with
       its reason, so that a reader of the file alone knows why. */
    int ran = 0, unknown = 0;
    for (int i = 0; i < k; i++) {
        ran += r[i].status != T_SKIP;
        unknown += r[i].status == T_NONE;
    }
    fprintf(f, "},\n  \"passed\": %d,\n  \"failed\": %d,\n  \"verdict\": \"%s\"",
            passed, failed,
            failed ? "FAIL" : ran && !unknown ? "PASS" : "NONE");
    if (!ran)
        fputs(",\n  \"reason\": \"too few deals for any test\"", f);
    else if (unknown && !failed)
        fputs(",\n  \"reason\": \"memory exhausted: a test's p-value is "
              "unknown\"", f);
    fputs("\n}\n", f);
    close_out(f, path);
}

int cmd_audit(int argc, char **argv)
{
    aopts o;
    set_die_hook(abort_hook, NULL);
    parse_options(argc, argv, &o);
    /* outfile's handlers, which remove the --json and --plot temporaries
       on a fatal signal, stop the runs of COMMAND first. */
    outfile_signal_hook(kids_stop_end);
    install_cleanup_handlers();
    signal(SIGPIPE, SIG_IGN); /* a command that stops reading is not us */
    int data_fd = STDOUT_FILENO; /* --json=- or --plot=- */
    if ((o.json && strcmp(o.json, "-") == 0) ||
        (o.plot && strcmp(o.plot, "-") == 0)) {
        if (o.json && o.plot && strcmp(o.json, "-") == 0 &&
            strcmp(o.plot, "-") == 0)
            fail("--json and --plot cannot both be standard output");
        /* The data on standard output, the report on standard error.
           Standard output closed: the data cannot be written, said as
           the report's write error says it (it said "dup: ..."). */
        if ((data_fd = dup(STDOUT_FILENO)) < 0 ||
            dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
            fail("write error: %s", strerror(errno));
    }
    if (o.json && o.plot && strcmp(o.json, "-") != 0 &&
        strcmp(o.plot, "-") != 0 && same_file(o.json, o.plot))
        fail("--json and --plot cannot both be %s", quote(o.json));
    FILE *jf = o.json ? open_out(o.json, data_fd) : NULL;
    FILE *pf = o.plot ? open_out(o.plot, data_fd) : NULL;

    dealer d;
    memset(&d, 0, sizeof d);
    d.o = &o;
    pbar pb = {0, 0, 0};
    pb.on = o.progress == 1 || (o.progress < 0 && isatty(STDERR_FILENO));
    double t0 = now(), deadline = o.time_limit > 0 ? t0 + o.time_limit : 0;
    int stopped = 0, cut = 0;
    if (o.input != NULL) {
        int fd = STDIN_FILENO;
        d.src = strcmp(o.input, "-") == 0 ? "(standard input)" : o.input;
        d.input = o.input;
        /* With a time limit, a FIFO that no writer has opened yet must
           not hold the audit in open() past it (it did, forever): opened
           without blocking, then read as usual, next_line's poll waiting
           for the writer's data until the limit. */
        int nb = deadline > 0 ? O_NONBLOCK : 0;
        if (strcmp(o.input, "-") != 0 &&
            (fd = open_safer(o.input, O_RDONLY | nb, 0)) < 0)
            fail("%s: %s", quotef(o.input), strerror(errno));
        int fl;
        if (nb && fd != STDIN_FILENO && (fl = fcntl(fd, F_GETFL)) >= 0)
            fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
        stopped = collect_stream(&d, &o, fd, &pb, deadline, &cut);
        if (fd != STDIN_FILENO)
            close(fd);
    } else if (o.per_run) {
        d.src = o.cmd[0];
        stopped = collect_per_run(&d, &o, &pb, deadline);
    } else {
        int fd;
        d.src = o.cmd[0];
        pid_t pid = spawn(o.cmd, &fd);
        stopped = collect_stream(&d, &o, fd, &pb, deadline, &cut);
        if (stopped || cut)
            kill(-pid, SIGTERM);
        close(fd);
        reap(pid, o.cmd[0], stopped || cut, now() + STOP_GRACE);
    }
    pbar_end(&pb);
    double secs = now() - t0;
    if (d.deals == 0)
        bad_input(&d, 0, "no deals");

    test_result r[BATTERY_TESTS];
    int k = battery_run(d.bat, o.alpha, r);
    if (k < 0)
        fail("memory exhausted");
    int passed = 0, failed = 0, ran = 0, unknown = 0;
    for (int i = 0; i < k; i++) {
        passed += r[i].status == T_PASS;
        failed += r[i].status == T_FAIL;
        ran += r[i].status != T_SKIP;
        unknown += r[i].status == T_NONE;
    }

    printf("fairshuf audit: %llu deal%s of %zu %s from %s (%.2f s)\n",
           (unsigned long long)d.deals, plural(d.deals), d.n,
           d.mode == MODE_CARD ? "cards"
           : d.base == 0       ? "values (0-based)"
                               : "values (1-based)",
           o.input ? d.src : o.cmd[0], secs);
    if (d.copies > 1)
        printf("a shoe: %zu cards %u times each; identical cards are told "
               "apart by a\nrandom tie-break, repeats counted among the "
               "shoe's orders (docs/AUDIT.md, \"Shoes\")\n",
               d.n / d.copies, d.copies);
    if (stopped)
        printf("time limit of %g s reached: testing the deals collected\n",
               o.time_limit);
    printf("%d test%s, Holm's correction, family-wise alpha = %g\n\n", ran,
           plural((uint64_t)ran), o.alpha);
    for (int i = 0; i < k; i++) {
        if (r[i].status == T_SKIP) {
            printf("SKIP  %-42s (%s)\n", r[i].name, r[i].note);
            continue;
        }
        if (r[i].status == T_NONE) {
            printf("NONE  %-42s stat = %-11.6g df = %-7g p = unknown (%s)\n",
                   r[i].name, r[i].stat, r[i].df, r[i].note);
            continue;
        }
        printf("%s  %-42s stat = %-11.6g df = %-7g p = %-10.4g p(Holm) = "
               "%.4g\n",
               r[i].status == T_PASS ? "PASS" : "FAIL", r[i].name,
               r[i].stat, r[i].df, r[i].p, r[i].p_holm);
    }
    double pairs = battery_dup_pairs(d.bat);
    printf("\nduplicate decks: %.0f pair%s of equal deals; expected %.3g with "
           "a uniform shuffle, %.3g with 24-bit seeds, %.3g with 32-bit, "
           "%.3g with 64-bit\n",
           pairs, pairs == 1 ? "" : "s", battery_dup_expected(d.bat, 0),
           battery_dup_expected(d.bat, 24), battery_dup_expected(d.bat, 32),
           battery_dup_expected(d.bat, 64));
    if (o.power > 0) {
        print_power(d.n, o.power, o.alpha, ran ? ran : 1);
        /* About 3 expected pairs: T = sqrt(6 * 2^k). */
        printf("power: duplicate decks needs about %.2g deals to expose "
               "24-bit seeds, %.2g for 32-bit, %.2g for 48-bit, %.2g for "
               "64-bit (3 expected pairs)\n",
               sqrt(6 * ldexp(1, 24)), sqrt(6 * ldexp(1, 32)),
               sqrt(6 * ldexp(1, 48)), sqrt(6 * ldexp(1, 64)));
    }
    printf("not shown by any black-box test: a 16-bit modulo bias at n = 52 "
           "needs about 1e9 deals; a 64-bit seed about 1e10 deals for the "
           "birthday test; unpredictability needs a source review "
           "(docs/AUDIT.md)\n");
    printf("verdict: %s\n",
           failed    ? "FAIL: the output is not that of a uniform shuffle with "
                       "independent deals"
           : !ran    ? "NONE: too few deals for any test (exit status 2)"
           : unknown ? "NONE: memory exhausted: a test's p-value is unknown "
                       "(exit status 2)"
                     : "PASS: no evidence against a uniform shuffle with "
                       "independent deals");
    printf("%d passed, %d failed\n", passed, failed);
    if (unknown)
        error_msg(0, "memory exhausted: the p-value of %d test%s is unknown%s",
                  unknown, plural((uint64_t)unknown),
                  failed ? " (the failures stand)" : "");
    if (jf != NULL)
        write_json(jf, o.json, &o, &d, r, k, passed, failed, stopped);
    if (pf != NULL && ran && (failed || !unknown)) {
        plot_write(pf, d.bat, r, k);
        close_out(pf, o.plot);
    } else if (pf != NULL) {
        /* Verdict NONE: no picture is written; the old file stays, as
           when an audit fails. */
        fclose(pf);
        outfile_drop(o.plot);
        error_msg(0, "%s: no plot written: %s", quotef(o.plot),
                  ran ? "a test's p-value is unknown (memory exhausted)"
                      : "no test ran (too few deals)");
    }
    if (fflush(stdout) != 0 || ferror(stdout))
        fail("write error: %s", strerror(errno));
    outfile_commit(); /* --json, --plot: put in place */
    battery_free(d.bat);
    free(d.raw);
    free(d.deal);
    free(d.seen);
    free(d.lab);
    free(d.used);
    free(d.seq);
    fsh_rng_free(d.ties);
    return failed ? 1 : ran && !unknown ? 0 : EXIT_TROUBLE;
}
