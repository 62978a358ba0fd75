/* SPDX-License-Identifier: MIT */
/* shuf's command line: GNU shuf's options and abbreviations, then ours. */
#include "shuf/options.h"

#include "common/msg.h"
#include "common/quote.h"
#include "common/rng.h"
#include "common/xalloc.h"
#include "shuf/help.h"
#include "shuf/memory.h"
#include "version.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    OPT_RANDOM_SOURCE = 256,
    OPT_SEED,
    OPT_HELP,
    OPT_VERSION,
    OPT_MEMORY,
    OPT_HEADER,
    OPT_SHARDS,
    OPT_OUTPUT_PREFIX,
    OPT_PROGRESS,
    OPT_NO_PROGRESS,
    OPT_THREADS,
    OPT_GENERATOR,
    OPT_AMBIGUOUS
};

void bigopts_defaults(bigopts *b)
{
    b->memory = default_memory();
    b->memory_set = 0;
    const char *t = getenv("TMPDIR");
    b->tmpdir = t != NULL && *t != '\0' ? t : "/tmp";
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    b->threads = cpus < 1 ? 1u : cpus > 16 ? 16u : (unsigned)cpus;
    /* Run as shuf, nothing GNU shuf would not print: no bar unless asked. */
    b->progress = as_shuf ? 0 : -1;
}

int parse_size(const char *s, uint64_t *out)
{
    if (*s < '0' || *s > '9')
        return -1;
    uint64_t v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        uint64_t d = (uint64_t)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    unsigned shift = 10; /* no suffix: KiB, as sort -S */
    if (*s != '\0') {
        switch (*s++) {
        case 'b': shift = 0; break;
        case 'k': case 'K': shift = 10; break;
        case 'm': case 'M': shift = 20; break;
        case 'g': case 'G': shift = 30; break;
        case 't': case 'T': shift = 40; break;
        case '%': {
            long pages = sysconf(_SC_PHYS_PAGES), ps = sysconf(_SC_PAGESIZE);
            if (*s != '\0' || v > 100 || pages <= 0 || ps <= 0)
                return -1;
            *out = (uint64_t)pages / 100 * v * (uint64_t)ps;
            return 0;
        }
        default: return -1;
        }
        if (*s != '\0')
            return -1;
    }
    if (v > (UINT64_MAX >> shift))
        return -1;
    *out = v << shift;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Numbers, parsed as gnulib's xstrtoumax (base 10, no suffixes).           */

enum { NUM_OK, NUM_OVERFLOW, NUM_INVALID, NUM_INVALID_OVERFLOW };

static int parse_u64(const char *s, uint64_t *out)
{
    const char *q = s;
    while (*q == ' ' || (*q >= '\t' && *q <= '\r'))
        q++;
    if (*q == '-')
        return NUM_INVALID;
    if (*q == '+')
        q++;
    if (*q < '0' || *q > '9')
        return NUM_INVALID;
    uint64_t v = 0;
    int over = 0;
    for (; *q >= '0' && *q <= '9'; q++) {
        unsigned d = (unsigned)(*q - '0');
        if (v > (UINT64_MAX - d) / 10)
            over = 1;
        else
            v = v * 10 + d;
    }
    *out = over ? UINT64_MAX : v;
    if (*q != '\0')
        return over ? NUM_INVALID_OVERFLOW : NUM_INVALID;
    return over ? NUM_OVERFLOW : NUM_OK;
}

/* gnulib xdectoumax(s, 0, UINT64_MAX, "", "invalid input range", 0). */
static uint64_t range_bound(const char *s)
{
    uint64_t v;
    int rc = parse_u64(s, &v);
    if (rc == NUM_OVERFLOW)
        die(EOVERFLOW, "invalid input range: %s", quote(s));
    if (rc != NUM_OK)
        die(0, "invalid input range: %s", quote(s));
    return v;
}

static void parse_range(opts *o, char *arg)
{
    if (o->range)
        die(0, "multiple -i options specified");
    o->range = 1;
    char *dash = strchr(arg, '-');
    const char *hi_arg = arg;
    uint64_t lo = UINT64_MAX;
    if (dash != NULL) {
        *dash = '\0';
        lo = range_bound(arg);
        *dash = '-';
        hi_arg = dash + 1;
    }
    uint64_t hi = range_bound(hi_arg);
    uint64_t n = hi - lo + 1;
    /* A count that wraps to 0 (the full 2^64 range) is rejected, as GNU
       does; hi = lo - 1 is the empty range. */
    if (dash == NULL || (lo <= hi) == (n == 0))
        die(0, "invalid input range: %s", quote(arg));
    o->lo = lo;
    o->hi = hi;
}

/* ------------------------------------------------------------------------ */
/* Options                                                                  */

/* GNU shuf's own long options, in GNU's order, then ours. */
static const struct option gnu_opts[] = {
    {"echo", no_argument, NULL, 'e'},
    {"input-range", required_argument, NULL, 'i'},
    {"head-count", required_argument, NULL, 'n'},
    {"output", required_argument, NULL, 'o'},
    {"random-source", required_argument, NULL, OPT_RANDOM_SOURCE},
    {"repeat", no_argument, NULL, 'r'},
    {"zero-terminated", no_argument, NULL, 'z'},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0}};
static const struct option ext_opts[] = {
    {"seed", required_argument, NULL, OPT_SEED},
    {"memory", required_argument, NULL, OPT_MEMORY},
    {"temporary-directory", required_argument, NULL, 'T'},
    {"header", required_argument, NULL, OPT_HEADER},
    {"shards", required_argument, NULL, OPT_SHARDS},
    {"output-prefix", required_argument, NULL, OPT_OUTPUT_PREFIX},
    {"progress", no_argument, NULL, OPT_PROGRESS},
    {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"generator", required_argument, NULL, OPT_GENERATOR},
    {NULL, 0, NULL, 0}};
#define SHORT_OPTS "ei:n:o:rzT:"

/* Matches of name[0..len) in table: exact match first (returned alone),
   else every prefix match. */
static size_t long_matches(const struct option *t, const char *name,
                           size_t len, const struct option **m)
{
    size_t k = 0;
    for (; t->name != NULL; t++) {
        if (strncmp(t->name, name, len) != 0)
            continue;
        if (strlen(t->name) == len) {
            m[0] = t;
            return 1;
        }
        m[k++] = t;
    }
    return k;
}

/* An abbreviation that names several options: reported when getopt reaches
   it, in its turn among the other options and their errors, as GNU's
   getopt does. */
typedef struct ambig {
    const char *arg;  /* as typed */
    char *marker;     /* what argv holds instead: "--" AMBIG_NAME "=" */
    const struct option *m[16];
    size_t k;
} ambig;

/* The hidden option that stands for an ambiguous abbreviation in argv. */
#define AMBIG_NAME "\001ambiguous"

static _Noreturn void ambiguous(const ambig *a)
{
    /* glibc's wording: the argument as typed, then the candidates. */
    size_t cap = strlen(program_name) + strlen(a->arg) + 64;
    for (size_t i = 0; i < a->k; i++)
        cap += strlen(a->m[i]->name) + 5;
    char *msg = xmalloc(cap);
    size_t n = (size_t)snprintf(msg, cap,
                                "%s: option '%s' is ambiguous; possibilities:",
                                program_name, a->arg);
    for (size_t i = 0; i < a->k; i++)
        n += (size_t)snprintf(msg + n, cap - n, " '--%s'", a->m[i]->name);
    fprintf(stderr, "%s\n", msg);
    free(msg);
    usage_error();
}

/* Long option abbreviations, resolved before getopt sees them: GNU's own
   options are resolved among GNU's options only, exactly as GNU shuf does
   (so --head=2 is --head-count and --he is GNU's ambiguity error, even
   though --header exists); our extensions only when the abbreviation is
   unambiguous among all options. Resolved names are rewritten in full; an
   ambiguous one becomes the hidden option, recorded in *amb (*namb of
   them), so that its error comes in getopt's order. */
static void resolve_abbrevs(int argc, char **argv, ambig **amb, size_t *namb)
{
    int posix = getenv("POSIXLY_CORRECT") != NULL;
    *amb = NULL;
    *namb = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0)
            break;
        if (a[0] != '-' || a[1] == '\0') {
            if (posix)
                break;
            continue;
        }
        if (a[1] != '-') {
            /* A cluster of short options; one taking an argument ends it. */
            for (const char *c = a + 1; *c; c++) {
                const char *sp = strchr(SHORT_OPTS, *c);
                if (sp != NULL && sp[1] == ':') {
                    if (c[1] == '\0')
                        i++;
                    break;
                }
            }
            continue;
        }
        const char *name = a + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const struct option *m[16], *x[16];
        size_t k = long_matches(gnu_opts, name, len, m);
        size_t kx = long_matches(ext_opts, name, len, x);
        const struct option *hit = NULL;
        int exact_ext = kx == 1 && strlen(x[0]->name) == len;
        const struct option **many = NULL;
        size_t nmany = 0;
        if (exact_ext) {
            hit = x[0];
        } else if (k == 1) {
            hit = m[0];
        } else if (k > 1) {
            if (strlen(m[0]->name) == len)
                hit = m[0];
            else
                many = m, nmany = k;
        } else if (kx == 1) {
            hit = x[0];
        } else if (kx > 1) {
            many = x, nmany = kx;
        }
        if (many != NULL) {
            if (*namb == 0)
                *amb = xmalloc((size_t)argc * sizeof **amb);
            ambig *e = &(*amb)[(*namb)++];
            e->arg = a;
            e->k = nmany;
            memcpy(e->m, many, nmany * sizeof *many);
            size_t n = sizeof "--" AMBIG_NAME "=";
            e->marker = xmalloc(n);
            memcpy(e->marker, "--" AMBIG_NAME "=", n);
            argv[i] = e->marker;
            continue;
        }
        if (hit == NULL)
            continue; /* getopt reports it */
        size_t n = strlen(hit->name) + (eq ? strlen(eq) : 0) + 3;
        char *full = xmalloc(n);
        snprintf(full, n, "--%s%s", hit->name, eq ? eq : "");
        argv[i] = full;
        if (hit->has_arg == required_argument && eq == NULL)
            i++;
    }
}

/* getopt returned the hidden option, typed as opt (optarg arg): report
   the abbreviation it stands for; one the user typed is, to GNU, an
   unknown option. */
static _Noreturn void ambiguous_at(const ambig *amb, size_t namb,
                                   const char *opt, const char *arg)
{
    for (size_t i = 0; arg != NULL && i < namb; i++)
        if (arg == amb[i].marker + sizeof "--" AMBIG_NAME "=" - 1)
            ambiguous(&amb[i]);
    fprintf(stderr, "%s: unrecognized option '%s'\n", program_name, opt);
    usage_error();
}

static uint64_t parse_count(const char *arg, const char *what)
{
    uint64_t v;
    if (parse_u64(arg, &v) != NUM_OK)
        die(0, "invalid %s: %s", what, quote(arg));
    return v;
}

/* Our options that take a value, given again: the same value is accepted,
   another is "multiple WHAT specified", as GNU says of two -o values.
   Numbers are the same when they parse to the same value (--threads=2
   --threads=02, --memory=1G --memory=1024M), strings when their bytes
   are (as GNU compares -o: -T /tmp and -T /tmp/ differ). *set records
   that the option was given. */
static void once_u64(int *set, uint64_t *slot, uint64_t v, const char *what)
{
    if (*set && *slot != v)
        die(0, "multiple %s specified", what);
    *set = 1;
    *slot = v;
}

static void once_str(int *set, const char **slot, const char *v,
                     const char *what)
{
    if (*set && strcmp(*slot, v) != 0)
        die(0, "multiple %s specified", what);
    *set = 1;
    *slot = v;
}

void parse_options(opts *o, int argc, char **argv)
{
    struct option long_opts[sizeof gnu_opts / sizeof *gnu_opts +
                            sizeof ext_opts / sizeof *ext_opts + 1];
    size_t nl = 0;
    for (size_t i = 0; gnu_opts[i].name != NULL; i++)
        long_opts[nl++] = gnu_opts[i];
    for (size_t i = 0; ext_opts[i].name != NULL; i++)
        long_opts[nl++] = ext_opts[i];
    /* An optional argument: getopt never takes the next one for it. */
    long_opts[nl++] = (struct option){AMBIG_NAME, optional_argument, NULL,
                                      OPT_AMBIGUOUS};
    memset(&long_opts[nl], 0, sizeof long_opts[nl]);
    ambig *amb;
    size_t namb;
    resolve_abbrevs(argc, argv, &amb, &namb);
    memset(o, 0, sizeof *o);
    bigopts_defaults(&o->big);
    o->delim = '\n';
    o->head = UINT64_MAX;
    o->gen = GEN_DEFAULT;
    int c, memory_set = 0, tmpdir_set = 0, threads_set = 0, header_set = 0,
           shards_set = 0, prefix_set = 0;
    uint64_t threads = 0;
    while ((c = getopt_long(argc, argv, SHORT_OPTS, long_opts, NULL)) != -1) {
        switch (c) {
        case 'e':
            o->echo = 1;
            break;
        case 'i':
            parse_range(o, optarg);
            break;
        case 'n': {
            uint64_t v;
            int rc = parse_u64(optarg, &v);
            if (rc == NUM_OK) {
                o->head_set = 1;
                if (v < o->head)
                    o->head = v;
            } else if (rc != NUM_OVERFLOW) {
                die(0, "invalid line count: %s", quote(optarg));
            }
            /* A count beyond 2^64 - 1 means no limit, as in GNU. */
            break;
        }
        case 'o':
            if (o->outfile != NULL && strcmp(o->outfile, optarg) != 0)
                die(0, "multiple output files specified");
            o->outfile = optarg;
            break;
        case OPT_RANDOM_SOURCE:
            if (o->random_source != NULL &&
                strcmp(o->random_source, optarg) != 0)
                die(0, "multiple random sources specified");
            o->random_source = optarg;
            break;
        case OPT_SEED:
            if (o->seed != NULL && strcmp(o->seed, optarg) != 0)
                die(0, "multiple seeds specified");
            o->seed = optarg;
            break;
        case 'r':
            o->repeat = 1;
            break;
        case 'z':
            o->delim = '\0';
            break;
        case OPT_MEMORY: {
            uint64_t m;
            if (parse_size(optarg, &m) != 0 || m == 0)
                die(0, "invalid memory size: %s", quote(optarg));
            once_u64(&memory_set, &o->big.memory, m, "memory sizes");
            o->big.memory_set = 1;
            break;
        }
        case 'T':
            once_str(&tmpdir_set, &o->big.tmpdir, optarg,
                     "temporary directories");
            break;
        case OPT_HEADER:
            once_u64(&header_set, &o->header,
                     parse_count(optarg, "header line count"),
                     "header line counts");
            break;
        case OPT_SHARDS: {
            uint64_t k = parse_count(optarg, "shard count");
            if (k == 0 || k > 100000)
                die(0, "invalid shard count: %s", quote(optarg));
            once_u64(&shards_set, &o->shards, k, "shard counts");
            break;
        }
        case OPT_OUTPUT_PREFIX:
            once_str(&prefix_set, &o->prefix, optarg, "output prefixes");
            break;
        case OPT_PROGRESS:
            o->big.progress = 1;
            break;
        case OPT_NO_PROGRESS:
            o->big.progress = 0;
            break;
        case OPT_THREADS: {
            uint64_t t = parse_count(optarg, "thread count");
            if (t == 0 || t > 16)
                die(0, "invalid thread count: %s (1 to 16)", quote(optarg));
            once_u64(&threads_set, &threads, t, "thread counts");
            o->big.threads = (unsigned)t;
            break;
        }
        case OPT_GENERATOR: {
            int g = parse_generator(optarg);
            if (o->gen_arg != NULL && o->gen != g)
                die(0, "multiple generators specified");
            o->gen = g;
            o->gen_arg = optarg;
            break;
        }
        case OPT_AMBIGUOUS:
            ambiguous_at(amb, namb, argv[optind - 1], optarg);
        case OPT_HELP:
            shuf_help();
            break;
        case OPT_VERSION:
            print_version();
            break;
        default:
            usage_error();
        }
    }
    /* GNU keeps SIZE_MAX for "no -n": a count of 2^64 - 1 is no limit. */
    if (o->head == UINT64_MAX)
        o->head_set = 0;
    o->nops = argc - optind;
    o->ops = argv + optind;
    if (o->echo && o->range) {
        error_msg(0, "cannot combine -e and -i options");
        usage_error();
    }
    if (o->range ? o->nops > 0 : !o->echo && o->nops > 1) {
        error_msg(0, "extra operand %s", quote(o->ops[!o->range]));
        usage_error();
    }
    if (o->seed != NULL && o->random_source != NULL) {
        error_msg(0, "cannot combine --seed and --random-source");
        usage_error();
    }
    if (o->gen_arg != NULL && (o->seed != NULL || o->random_source != NULL)) {
        /* A seed's stream is ChaCha20 (docs/STREAMS.md); a random source
           is GNU's draws from the file. */
        error_msg(0, "cannot combine --generator and %s",
                  o->seed != NULL ? "--seed" : "--random-source");
        usage_error();
    }
    if ((o->shards != 0) != (o->prefix != NULL)) {
        error_msg(0, "--shards and --output-prefix go together");
        usage_error();
    }
    if (o->shards != 0 && o->outfile != NULL) {
        error_msg(0, "cannot combine -o and --shards");
        usage_error();
    }
    if (o->header != 0 && o->range) {
        error_msg(0, "cannot combine --header and -i");
        usage_error();
    }
}

