/* The shuf-compatible command: options, input, permutation, output.
 *
 * Two sources of randomness:
 * - default: the library's ChaCha20 keyed from the OS (or from --seed),
 *   with exactly uniform draws: full shuffles are backward Fisher-Yates
 *   over record offsets, -n on lines is Algorithm R plus a shuffle of the
 *   reservoir, -i with -n is a sparse forward Fisher-Yates;
 * - --random-source=FILE: gnulib's randint over the file's bytes, used in
 *   the same places and the same order as GNU shuf 9.1, so the output is
 *   byte-identical to GNU's for the same file.
 */
#include "cli.h"
#include "fairshuf.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


/* GNU shuf reads inputs of up to 8 MiB whole even with -n. */
#define RESERVOIR_MIN_INPUT ((uint64_t)8192 * 1024)

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
    OPT_THREADS
};

typedef struct opts {
    int echo, range, repeat, head_set;
    char delim;
    uint64_t lo, hi, head;
    const char *outfile, *random_source, *seed;
    uint64_t header, shards;
    const char *prefix;
    int nops;
    char **ops;
} opts;

/* State shared with the die() hook. */
static outw *g_out;
static int g_out_is_stdout;

static void on_die(void)
{
    /* GNU's close_stdout() flushes what stdio buffered before exiting. */
    if (g_out != NULL && g_out_is_stdout)
        out_flush_quiet(g_out);
    outfile_abort();
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
/* Help and version                                                         */

static void help(void)
{
    static char text[8192];
    snprintf(
        text, sizeof text,
        "Usage: %s [OPTION]... [FILE]\n"
        "  or:  %s -e [OPTION]... [ARG]...\n"
        "  or:  %s -i LO-HI [OPTION]...\n"
        "%s%s%s"
        "Write a random permutation of the input lines to standard output;\n"
        "every order is exactly equally likely.\n"
        "\n"
        "With no FILE, or when FILE is -, read standard input.\n"
        "\n"
        "Mandatory arguments to long options are mandatory for short options "
        "too.\n"
        "  -e, --echo                treat each ARG as an input line\n"
        "  -i, --input-range=LO-HI   treat each number LO through HI as an "
        "input line\n"
        "  -n, --head-count=COUNT    output at most COUNT lines\n"
        "  -o, --output=FILE         write result to FILE instead of standard "
        "output\n"
        "      --random-source=FILE  get random bytes from FILE, drawing them "
        "as\n"
        "                              GNU shuf does (identical output)\n"
        "  -r, --repeat              output lines can be repeated\n"
        "      --seed=STRING         reproducible output from STRING: inputs "
        "with the\n"
        "                              same number of lines get the same "
        "order;\n"
        "                              only as unpredictable as STRING\n"
        "  -z, --zero-terminated     line delimiter is NUL, not newline\n"
        "\n"
        "Large inputs and output:\n"
        "      --memory=SIZE         keep at most about SIZE of input in memory;\n"
        "                              beyond, shuffle through temporary files\n"
        "                              (SIZE: b, K (default), M, G, T or %% of RAM;\n"
        "                              default: half of physical memory, less\n"
        "                              under ulimit -v/-d or a cgroup limit)\n"
        "  -T, --temporary-directory=DIR  temporary files in DIR, not $TMPDIR\n"
        "                              or /tmp (removed whatever happens)\n"
        "      --threads=N           use up to N threads (1-16; default: CPUs);\n"
        "                              output does not depend on N\n"
        "      --header=N            keep the first N lines first, unshuffled\n"
        "      --shards=K            write records round-robin to K files named\n"
        "      --output-prefix=P       P0 .. P(K-1), numbers zero-padded to the\n"
        "                              width of K-1 (each with the header)\n"
        "      --progress            progress bar on stderr (default: only on a\n"
        "      --no-progress           terminal, for runs longer than 1 s)\n"
        "      --help        display this help and exit\n"
        "      --version     output version information and exit\n"
        "\n"
        "Without --seed or --random-source, randomness is ChaCha20 keyed "
        "from the\n"
        "operating system. -o FILE is replaced only when the output is "
        "complete.\n"
        "Under --seed, inputs with the same number of lines get the same order,\n"
        "whatever --memory or --threads. Long options may be abbreviated as in\n"
        "GNU shuf; abbreviations of the options above only when unambiguous.\n"
        "%s%s%s",
        program_name, program_name, program_name,
        as_shuf ? "" : "  or:  ", as_shuf ? "" : program_name,
        as_shuf ? "" : " deal [OPTION]...\n",
        as_shuf ? "" : "\n"
        "Subcommands are recognised only as the first argument:\n"
        "  deal      deal a shuffled deck of cards (see '",
        as_shuf ? "" : program_name,
        as_shuf ? "" : " deal --help')\n"
        "To shuffle a file named like a subcommand, write ./deal or put -- "
        "first.\n");
    emit_text(text);
}

void print_version(void)
{
    static char text[512];
    unsigned v = fsh_version_number();
    /* Installed as shuf, the first line is "shuf (PACKAGE) VERSION" as
       GNU's (whose name there does not follow argv[0] either). */
    snprintf(text, sizeof text,
             "%s %u.%u.%u\n"
             "Exactly uniform shuffles; a drop-in for GNU shuf.\n",
             as_shuf ? "shuf (fairshuf)" : "fairshuf", v / 10000,
             v / 100 % 100, v % 100);
    emit_text(text);
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

static _Noreturn void ambiguous(const char *arg, const struct option **m,
                                size_t k)
{
    /* glibc's wording: the argument as typed, then the candidates. */
    size_t cap = strlen(program_name) + strlen(arg) + 64;
    for (size_t i = 0; i < k; i++)
        cap += strlen(m[i]->name) + 5;
    char *msg = xmalloc(cap);
    size_t n = (size_t)snprintf(msg, cap,
                                "%s: option '%s' is ambiguous; possibilities:",
                                program_name, arg);
    for (size_t i = 0; i < k; i++)
        n += (size_t)snprintf(msg + n, cap - n, " '--%s'", m[i]->name);
    fprintf(stderr, "%s\n", msg);
    free(msg);
    usage_error();
}

/* Long option abbreviations, resolved before getopt sees them: GNU's own
   options are resolved among GNU's options only, exactly as GNU shuf does
   (so --head=2 is --head-count and --he is GNU's ambiguity error, even
   though --header exists); our extensions only when the abbreviation is
   unambiguous among all options. Resolved names are rewritten in full. */
static void resolve_abbrevs(int argc, char **argv)
{
    int posix = getenv("POSIXLY_CORRECT") != NULL;
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
        if (exact_ext) {
            hit = x[0];
        } else if (k == 1) {
            hit = m[0];
        } else if (k > 1) {
            if (strlen(m[0]->name) == len)
                hit = m[0];
            else
                ambiguous(a, m, k);
        } else if (kx == 1) {
            hit = x[0];
        } else if (kx > 1) {
            ambiguous(a, x, kx);
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

static uint64_t parse_count(const char *arg, const char *what)
{
    uint64_t v;
    if (parse_u64(arg, &v) != NUM_OK)
        die(0, "invalid %s: %s", what, quote(arg));
    return v;
}

static void parse_options(opts *o, int argc, char **argv)
{
    struct option long_opts[sizeof gnu_opts / sizeof *gnu_opts +
                            sizeof ext_opts / sizeof *ext_opts];
    size_t nl = 0;
    for (size_t i = 0; gnu_opts[i].name != NULL; i++)
        long_opts[nl++] = gnu_opts[i];
    for (size_t i = 0; ext_opts[i].name != NULL; i++)
        long_opts[nl++] = ext_opts[i];
    memset(&long_opts[nl], 0, sizeof long_opts[nl]);
    resolve_abbrevs(argc, argv);
    big_defaults();
    memset(o, 0, sizeof *o);
    o->delim = '\n';
    o->head = UINT64_MAX;
    int c;
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
        case OPT_MEMORY:
            if (parse_size(optarg, &big_memory) != 0 || big_memory == 0)
                die(0, "invalid memory size: %s", quote(optarg));
            break;
        case 'T':
            big_tmpdir = optarg;
            break;
        case OPT_HEADER:
            o->header = parse_count(optarg, "header line count");
            break;
        case OPT_SHARDS:
            o->shards = parse_count(optarg, "shard count");
            if (o->shards == 0 || o->shards > 100000)
                die(0, "invalid shard count: %s", quote(optarg));
            break;
        case OPT_OUTPUT_PREFIX:
            o->prefix = optarg;
            break;
        case OPT_PROGRESS:
            big_progress = 1;
            break;
        case OPT_NO_PROGRESS:
            big_progress = 0;
            break;
        case OPT_THREADS: {
            uint64_t t = parse_count(optarg, "thread count");
            if (t == 0 || t > 16)
                die(0, "invalid thread count: %s (1 to 16)", quote(optarg));
            big_threads = (unsigned)t;
            break;
        }
        case OPT_HELP:
            help();
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

/* ------------------------------------------------------------------------ */
/* Input                                                                    */

static int open_input(const opts *o)
{
    if (o->nops == 1 && strcmp(o->ops[0], "-") != 0) {
        int fd = open_safer(o->ops[0], O_RDONLY, 0);
        if (fd < 0)
            die(errno, "%s", quotef(o->ops[0]));
        /* GNU reopens the file as stdin (freopen), so a later
           --random-source=/dev/stdin names the input file: do the same. */
        if (dup2(fd, STDIN_FILENO) < 0)
            die(errno, "%s", quotef(o->ops[0]));
        close(fd);
        input_name = o->ops[0];
    }
    return STDIN_FILENO;
}

static void close_input(int fd)
{
    if (close(fd) != 0)
        die(errno, "read error");
}

/* GNU's input_size(): bytes left in a regular file, else "unknown". */
static uint64_t input_size(int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return UINT64_MAX;
    off_t pos = lseek(fd, 0, SEEK_CUR);
    if (pos < 0)
        return UINT64_MAX;
    return (uint64_t)(st.st_size - pos);
}

/* -e operands as one buffer of delimited lines, with n + 1 bounds. */
typedef struct echo_lines {
    char *buf;
    uint64_t *bounds;
    size_t n;
} echo_lines;

static void echo_ops(char **ops, int nops, char delim, echo_lines *e);

static void echo_build(const opts *o, echo_lines *e)
{
    int first = o->header < (uint64_t)o->nops ? (int)o->header : o->nops;
    for (int i = 0; i < first; i++) {
        size_t l = strlen(o->ops[i]);
        hdr_buf = xrealloc(hdr_buf, hdr_len + l + 1);
        memcpy(hdr_buf + hdr_len, o->ops[i], l);
        hdr_len += l;
        hdr_buf[hdr_len++] = o->delim;
    }
    echo_ops(o->ops + first, o->nops - first, o->delim, e);
}

static void echo_ops(char **ops, int nops, char delim, echo_lines *e)
{
    size_t size = (size_t)nops;
    for (int i = 0; i < nops; i++)
        size += strlen(ops[i]);
    e->n = (size_t)nops;
    e->buf = xmalloc(size);
    e->bounds = xmalloc((e->n + 1) * sizeof *e->bounds);
    size_t at = 0;
    for (size_t i = 0; i < e->n; i++) {
        size_t len = strlen(ops[i]);
        e->bounds[i] = at;
        memcpy(e->buf + at, ops[i], len);
        at += len;
        e->buf[at++] = delim;
    }
    e->bounds[e->n] = at;
}

/* --header: move the first o->header records of in into hdr_buf and leave
   in as a view of the rest (the caller frees the original buffer). */
static void take_header(const opts *o, inbuf *in)
{
    size_t h = header_bytes(in->buf, in->size, o->delim, o->header);
    if (h == 0)
        return;
    hdr_buf = xmalloc(h);
    memcpy(hdr_buf, in->buf, h);
    hdr_len = h;
    in->buf += h;
    in->size -= h;
}

/* --header on a stream: the first o->header records go to hdr_buf. */
static void stream_header(const opts *o, instream *s)
{
    const char *rec;
    size_t len;
    for (uint64_t i = 0; i < o->header && stream_next(s, &rec, &len); i++) {
        hdr_buf = xrealloc(hdr_buf, hdr_len + len);
        memcpy(hdr_buf + hdr_len, rec, len);
        hdr_len += len;
    }
}

/* ------------------------------------------------------------------------ */
/* Reservoir: k record copies in one arena, replaced slots become garbage
   that is compacted away when it dominates.                                */

typedef struct resv {
    size_t m, cap;
    uint64_t *off, *len;
    char *arena;
    size_t alen, acap, garbage;
} resv;

static void resv_compact(resv *r, size_t need)
{
    size_t live = r->alen - r->garbage;
    size_t cap = r->acap;
    while (cap - live < need || cap < 2 * live) {
        if (cap > SIZE_MAX / 2)
            xalloc_die();
        cap *= 2;
    }
    char *fresh = xmalloc(cap);
    size_t at = 0;
    for (size_t i = 0; i < r->m; i++) {
        memcpy(fresh + at, r->arena + r->off[i], r->len[i]);
        r->off[i] = at;
        at += r->len[i];
    }
    free(r->arena);
    r->arena = fresh;
    r->acap = cap;
    r->alen = at;
    r->garbage = 0;
}

/* Make slot ready for a new record: a new slot at the end, or its old
   record becomes garbage. */
static void resv_slot(resv *r, size_t slot)
{
    if (slot == r->m) {
        if (r->m == r->cap) {
            r->cap = r->cap ? 2 * r->cap : 1024;
            r->off = xrealloc(r->off, r->cap * sizeof *r->off);
            r->len = xrealloc(r->len, r->cap * sizeof *r->len);
        }
        r->m++;
    } else {
        /* The old record is garbage now; a compaction must not copy it. */
        r->garbage += (size_t)r->len[slot];
        r->len[slot] = 0;
    }
}

static void resv_put(resv *r, size_t slot, const char *rec, size_t len)
{
    resv_slot(r, slot);
    if (r->acap - r->alen < len) {
        if (r->arena != NULL && r->garbage >= r->alen / 2) {
            resv_compact(r, len);
        } else {
            size_t cap = r->acap ? r->acap : (size_t)1 << 16;
            while (cap - r->alen < len) {
                if (cap > SIZE_MAX / 2)
                    xalloc_die();
                cap *= 2;
            }
            r->arena = xrealloc(r->arena, cap);
            r->acap = cap;
        }
    }
    memcpy(r->arena + r->alen, rec, len);
    r->off[slot] = r->alen;
    r->len[slot] = len;
    r->alen += len;
}

/* resv_put of the record stream_next just returned. A long record that
   outweighs the others is taken over from the stream and becomes the start
   of a new arena (the others are copied after it), so it is never held
   twice: -n 1 on one huge line needs about the line's size. */
static void resv_put_from(resv *r, size_t slot, instream *s, const char *rec,
                          size_t len)
{
    size_t old = slot < r->m ? (size_t)r->len[slot] : 0;
    size_t live = r->alen - r->garbage - old; /* the other records */
    char *block = len > live ? stream_take(s, len) : NULL;
    if (block == NULL) {
        resv_put(r, slot, rec, len);
        return;
    }
    resv_slot(r, slot);
    block = xrealloc(block, len + live);
    size_t at = len;
    for (size_t i = 0; i < r->m; i++) {
        if (i == slot)
            continue;
        memcpy(block + at, r->arena + r->off[i], r->len[i]);
        r->off[i] = at;
        at += r->len[i];
    }
    free(r->arena);
    r->arena = block;
    r->acap = r->alen = at;
    r->garbage = 0;
    r->off[slot] = 0;
    r->len[slot] = len;
}

static void resv_free(resv *r)
{
    free(r->off);
    free(r->len);
    free(r->arena);
}

/* ------------------------------------------------------------------------ */
/* Output helpers                                                           */

static const opts *g_opts;

static outw *open_output(const opts *o)
{
    if (o->shards != 0) {
        /* P0 .. P(K-1), numbers zero-padded to the width of K - 1. */
        int width = snprintf(NULL, 0, "%llu", (unsigned long long)(o->shards - 1));
        size_t k = (size_t)o->shards;
        outw **kids = xmalloc(k * sizeof *kids);
        size_t plen = strlen(o->prefix) + (size_t)width + 1;
        /* Buffers share 64 MiB, 64 KiB to 1 MiB each. */
        size_t cap = ((size_t)64 << 20) / k;
        cap = cap > ((size_t)1 << 20) ? (size_t)1 << 20 : cap < 65536 ? 65536 : cap;
        for (size_t i = 0; i < k; i++) {
            char *name = xmalloc(plen);
            snprintf(name, plen, "%s%0*llu", o->prefix, width,
                     (unsigned long long)i);
            kids[i] = out_new_cap(outfile_open(name), cap);
        }
        g_out = out_new(-1);
        out_fan(g_out, kids, k);
        g_out_is_stdout = 0;
    } else {
        int fd = STDOUT_FILENO;
        if (o->outfile != NULL)
            fd = outfile_open(o->outfile);
        g_out = out_new(fd);
        g_out_is_stdout = o->outfile == NULL;
    }
    out_header(g_out, hdr_buf, hdr_len);
    return g_out;
}

static outw *open_output_cb(void)
{
    return open_output(g_opts);
}

static void finish_output(const opts *o, outw *out)
{
    out_finish(out, 1);
    if (o->outfile != NULL || o->shards != 0)
        outfile_commit();
    free(out);
    g_out = NULL;
}

static int write_echo(outw *out, const echo_lines *e, uint64_t i)
{
    return out_write(out, e->buf + e->bounds[i],
                     (size_t)(e->bounds[i + 1] - e->bounds[i]));
}

/* ------------------------------------------------------------------------ */
/* GNU mode: --random-source                                                */

static void gnu_perm_recs(gnurand *g, recs *r, size_t h)
{
    for (size_t i = 0; i < h; i++) {
        size_t j = i + (size_t)gnurand_choose(g, (uint64_t)(r->n - i));
        recs_swap(r, i, j);
    }
}

static void gnu_perm_u64(gnurand *g, uint64_t *v, size_t n, size_t h)
{
    for (size_t i = 0; i < h; i++) {
        size_t j = i + (size_t)gnurand_choose(g, (uint64_t)(n - i));
        uint64_t t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

static uint64_t *iota(size_t n)
{
    if (n > SIZE_MAX / sizeof(uint64_t))
        xalloc_die();
    uint64_t *v = xmalloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = i;
    return v;
}

static int run_gnu(const opts *o)
{
    uint64_t head = o->head; /* UINT64_MAX: no limit */
    uint64_t n = 0;
    int fd = -1, reservoir = 0;
    echo_lines e = {0};
    inbuf in = {0};
    char *inbase = NULL;
    recs r = {0};

    if (head == 0) {
        n = 0;
    } else if (o->echo) {
        echo_build(o, &e);
        n = e.n;
    } else if (o->range) {
        n = o->hi - o->lo + 1;
    } else {
        fd = open_input(o);
        if (o->repeat || !o->head_set || input_size(fd) <= RESERVOIR_MIN_INPUT) {
            read_all(fd, o->delim, &in);
            inbase = in.buf;
            take_header(o, &in);
            scan_records(&in, o->delim, &r);
            n = r.n;
        } else {
            reservoir = 1;
            n = UINT64_MAX;
        }
    }
    uint64_t ahead = o->repeat || head < n ? head : n;
    uint64_t bound = reservoir || o->repeat ? UINT64_MAX
                                            : gnurand_perm_bound(ahead, n);
    gnurand *g = gnurand_new(o->random_source, bound);
    if (g == NULL)
        die(errno, "%s", quotef(o->random_source));

    resv rv = {0};
    if (reservoir) {
        /* GNU fills k slots, then draws choose(i + 1) for every further
           line i, including one draw after the last line. */
        instream s;
        stream_init(&s, fd, o->delim);
        stream_header(o, &s);
        const char *rec;
        size_t len;
        uint64_t k = ahead, seen = 0;
        int more = 1;
        while (seen < k && (more = stream_next(&s, &rec, &len)) != 0) {
            resv_put_from(&rv, (size_t)seen, &s, rec, len);
            seen++;
        }
        if (more) {
            for (;;) {
                uint64_t j = gnurand_choose(g, seen + 1);
                if (!stream_next(&s, &rec, &len))
                    break;
                if (j < k)
                    resv_put_from(&rv, (size_t)j, &s, rec, len);
                seen++;
                if (seen == 0)
                    die(EOVERFLOW, "too many input lines");
            }
        }
        stream_free(&s);
        n = rv.m;
        ahead = rv.m;
    }
    if (fd >= 0)
        close_input(fd);

    uint64_t *perm = NULL;
    fsh_rangeperm *rp = NULL;
    if (!o->repeat) {
        if (reservoir) {
            perm = iota((size_t)n);
            gnu_perm_u64(g, perm, (size_t)n, (size_t)ahead);
        } else if (o->echo || (o->range && ahead == n)) {
            perm = iota((size_t)n);
            gnu_perm_u64(g, perm, (size_t)n, (size_t)ahead);
        } else if (o->range) {
            /* A prefix of the permutation: O(ahead) memory. */
            if (ahead > 0) {
                size_t hint = ahead < SIZE_MAX ? (size_t)ahead : SIZE_MAX;
                if (fsh_rangeperm_new(&rp, n - 1, hint) != FSH_OK)
                    xalloc_die();
                /* All draws come before the output is opened, as in GNU. */
                if (ahead > SIZE_MAX / sizeof(uint64_t))
                    xalloc_die();
                perm = malloc((size_t)ahead * sizeof *perm);
                if (perm == NULL)
                    xalloc_die();
                for (uint64_t i = 0; i < ahead; i++) {
                    uint64_t rnd = gnurand_choose(g, n - i);
                    if (fsh_rangeperm_next_at(rp, rnd, &perm[i]) != FSH_OK)
                        xalloc_die();
                }
                fsh_rangeperm_free(rp);
                rp = NULL;
            }
        } else if (head != 0) {
            gnu_perm_recs(g, &r, (size_t)ahead);
        }
    }

    if (o->repeat && head != 0 && n == 0)
        die(0, "no lines to repeat");
    outw *out = open_output(o);
    if (o->repeat) {
        if (head != 0) {
            for (uint64_t i = 0; i < head || head == UINT64_MAX; i++) {
                uint64_t j = gnurand_choose(g, n);
                int rc;
                if (o->range)
                    rc = out_number(out, o->lo + j, o->delim);
                else if (o->echo)
                    rc = write_echo(out, &e, j);
                else
                    rc = write_rec(out, &in, recs_get(&r, (size_t)j), o->delim);
                if (rc != 0)
                    break;
            }
        }
    } else if (reservoir) {
        for (size_t i = 0; i < (size_t)ahead; i++) {
            uint64_t s = perm[i];
            if (out_write(out, rv.arena + rv.off[s], (size_t)rv.len[s]) != 0)
                break;
        }
    } else if (o->echo) {
        for (size_t i = 0; i < (size_t)ahead; i++)
            if (write_echo(out, &e, perm[i]) != 0)
                break;
    } else if (o->range) {
        for (size_t i = 0; i < (size_t)ahead; i++)
            if (out_number(out, o->lo + perm[i], o->delim) != 0)
                break;
    } else if (head != 0) {
        write_recs(out, &in, &r, (size_t)ahead, o->delim);
    }
    finish_output(o, out);
    free(perm);
    resv_free(&rv);
    recs_free(&r);
    free(inbase);
    free(e.buf);
    free(e.bounds);
    gnurand_free(g);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Default mode: the library's exact draws                                  */

/* The run's rng, made at its first draw: a run that draws nothing (-n 0,
   one record, no records) needs no OS entropy, and --seed never does. */
static fsh_rng *g_rng;

static fsh_rng *run_rng(void)
{
    if (g_rng == NULL)
        g_rng = rng_make(g_opts->seed);
    return g_rng;
}

/* Shuffle v[0..n); n < 2 draws nothing. */
static void shuffle_n(void *v, size_t n, size_t size)
{
    if (n > 1)
        check_status(fsh_shuffle(run_rng(), v, n, size));
}

/* Uniform in [0, n), n >= 1; n = 1 draws nothing. */
static uint64_t uniform_n(uint64_t n)
{
    uint64_t j = 0;
    if (n > 1)
        check_status(fsh_uniform(run_rng(), n, &j));
    return j;
}

/* Algorithm R slot of stream item t with k slots (k means "drop"); no draw
   while the reservoir fills. */
static size_t algr_slot(uint64_t t, size_t k)
{
    size_t slot = (size_t)t;
    if (t >= k)
        check_status(fsh_reservoir_slot(run_rng(), t, k, &slot));
    return slot;
}

/* The permutation of n records (see big.c): Fisher-Yates up to
   FSH_FILESHUF_SMALL, else the bucket scatter keyed by the rng. */
static void *shuffle_indices(void *v, size_t n, size_t size)
{
    if (n <= FSH_FILESHUF_SMALL) {
        shuffle_n(v, n, size);
        return v;
    }
    uint8_t key[32];
    check_status(fsh_rng_bytes(run_rng(), key, sizeof key));
    return scatter_perm(key, v, n, size);
}

/* Kept indices of an n-item stream after Algorithm R with k slots, in a
   uniformly shuffled order; returns how many (min(k, n)). */
static size_t index_sample(uint64_t n, uint64_t k, uint64_t **out)
{
    size_t m = (size_t)(n < k ? n : k);
    uint64_t *kept = xmalloc((m ? m : 1) * sizeof *kept);
    for (uint64_t t = 0; t < n; t++) {
        size_t slot = algr_slot(t, m);
        if (slot < m)
            kept[slot] = t;
    }
    shuffle_n(kept, m, sizeof *kept);
    *out = kept;
    return m;
}

static int run_default(const opts *o)
{
    uint64_t head = o->head;
    outw *out;

    if (head == 0) {
        /* Nothing is read, as in GNU; -o FILE is still created. */
        out = open_output(o);
        finish_output(o, out);
        return 0;
    }

    if (o->range) {
        uint64_t n = o->hi - o->lo + 1;
        if (o->repeat) {
            if (n == 0)
                die(0, "no lines to repeat");
            if (n > 1)
                run_rng();
            out = open_output(o);
            for (uint64_t i = 0; i < head || !o->head_set; i++) {
                uint64_t v = o->lo;
                if (n > 1)
                    check_status(fsh_uniform_range(g_rng, o->lo, o->hi, &v));
                if (out_number(out, v, o->delim) != 0)
                    break;
            }
        } else if (n == 0) {
            out = open_output(o);
        } else if (head >= n) {
            /* The whole range: backward Fisher-Yates, the same draws as a
               file of n lines under the same --seed. */
            if (n - 1 <= UINT32_MAX) {
                if (n > SIZE_MAX / sizeof(uint32_t))
                    xalloc_die();
                uint32_t *v = malloc((size_t)n * sizeof *v);
                if (v == NULL)
                    xalloc_die();
                for (size_t i = 0; i < (size_t)n; i++)
                    v[i] = (uint32_t)i;
                v = shuffle_indices(v, (size_t)n, sizeof *v);
                out = open_output(o);
                for (size_t i = 0; i < (size_t)n; i++)
                    if (out_number(out, o->lo + v[i], o->delim) != 0)
                        break;
                free(v);
            } else {
                if (n > SIZE_MAX / sizeof(uint64_t))
                    xalloc_die();
                uint64_t *v = malloc((size_t)n * sizeof *v);
                if (v == NULL)
                    xalloc_die();
                for (size_t i = 0; i < (size_t)n; i++)
                    v[i] = i;
                v = shuffle_indices(v, (size_t)n, sizeof *v);
                out = open_output(o);
                for (size_t i = 0; i < (size_t)n; i++)
                    if (out_number(out, o->lo + v[i], o->delim) != 0)
                        break;
                free(v);
            }
        } else {
            /* head < n: O(head) memory, values streamed as drawn. */
            fsh_rangeperm *rp;
            size_t hint = head < SIZE_MAX ? (size_t)head : SIZE_MAX;
            check_status(fsh_rangeperm_new(&rp, n - 1, hint));
            fsh_rng *rng = run_rng();
            out = open_output(o);
            for (uint64_t i = 0; i < head; i++) {
                uint64_t v;
                check_status(fsh_rangeperm_next(rng, rp, &v));
                if (out_number(out, o->lo + v, o->delim) != 0)
                    break;
            }
            fsh_rangeperm_free(rp);
        }
        finish_output(o, out);
        fsh_rng_free(g_rng);
        g_rng = NULL;
        return 0;
    }

    if (o->echo) {
        echo_lines e;
        echo_build(o, &e);
        if (o->repeat) {
            if (e.n == 0)
                die(0, "no lines to repeat");
            if (e.n > 1)
                run_rng();
            out = open_output(o);
            for (uint64_t i = 0; i < head || !o->head_set; i++)
                if (write_echo(out, &e, uniform_n(e.n)) != 0)
                    break;
        } else {
            uint64_t *idx;
            size_t m = index_sample(e.n, head, &idx);
            out = open_output(o);
            for (size_t i = 0; i < m; i++)
                if (write_echo(out, &e, idx[i]) != 0)
                    break;
            free(idx);
        }
        finish_output(o, out);
        free(e.buf);
        free(e.bounds);
        fsh_rng_free(g_rng);
        g_rng = NULL;
        return 0;
    }

    int fd = open_input(o);
    if (!o->repeat && !o->head_set) {
        /* Full shuffle: in memory or external (big.c). */
        shuffle_lines(fd, o->delim, o->header, run_rng, open_output_cb);
        close_input(fd);
        finish_output(o, g_out);
        fsh_rng_free(g_rng);
        g_rng = NULL;
        return 0;
    }
    if (o->repeat) {
        inbuf in;
        recs r;
        read_all(fd, o->delim, &in);
        close_input(fd);
        char *inbase = in.buf;
        take_header(o, &in);
        scan_records(&in, o->delim, &r);
        if (r.n == 0)
            die(0, "no lines to repeat");
        if (r.n > 1)
            run_rng();
        out = open_output(o);
        for (uint64_t i = 0; i < head || !o->head_set; i++) {
            uint64_t j = uniform_n(r.n);
            if (write_rec(out, &in, recs_get(&r, (size_t)j), o->delim) != 0)
                break;
        }
        finish_output(o, out);
        recs_free(&r);
        free(inbase);
        fsh_rng_free(g_rng);
        g_rng = NULL;
        return 0;
    }

    /* -n K on lines: Algorithm R over the stream, then a uniform order. */
    instream s;
    resv rv = {0};
    stream_init(&s, fd, o->delim);
    stream_header(o, &s);
    const char *rec;
    size_t len;
    size_t k = head < SIZE_MAX ? (size_t)head : SIZE_MAX;
    for (uint64_t t = 0; stream_next(&s, &rec, &len); t++) {
        size_t slot = algr_slot(t, k);
        if (slot < k)
            resv_put_from(&rv, slot, &s, rec, len);
    }
    stream_free(&s);
    close_input(fd);
    uint64_t *order = iota(rv.m);
    shuffle_n(order, rv.m, sizeof *order);
    out = open_output(o);
    for (size_t i = 0; i < rv.m; i++) {
        uint64_t sl = order[i];
        if (out_write(out, rv.arena + rv.off[sl], (size_t)rv.len[sl]) != 0)
            break;
    }
    finish_output(o, out);
    free(order);
    resv_free(&rv);
    fsh_rng_free(g_rng);
    g_rng = NULL;
    return 0;
}

int cmd_shuf(int argc, char **argv)
{
    argv[0] = (char *)(uintptr_t)program_name; /* for getopt's messages */
    set_die_hook(on_die);
    opts o;
    g_rng = NULL; /* a fresh run (the fuzz harnesses run many in-process) */
    parse_options(&o, argc, argv);
    g_opts = &o;
    if (o.random_source != NULL)
        return run_gnu(&o);
    return run_default(&o);
}
