/* SPDX-License-Identifier: MIT */
/* fairshuf-mpi: shuffle the lines of files (or directories of shards) on
 * MPI ranks, into one file, standard output or one shard per rank
 * (docs/fairshuf-mpi.1). Under --seed=S the output is byte for byte that of
 * "fairshuf --seed=S" on the concatenated lines, for every number of ranks.
 *
 * Each rank reads the records that start in its byte range of the
 * concatenated inputs (pread), the ranks agree on the global record
 * indices (MPI_Exscan), the first --header records go to the header, and
 * the body goes through libfairshuf_mpi's permutation (mpi/internal.h,
 * variable-length records, no rebalancing: each rank ends with the
 * stretch of the output it owns). Output: pwrite at offsets from an Exscan
 * of byte counts into one temporary file, or one temporary per shard,
 * renamed only after every rank reported success. The output files follow
 * fairshuf's rules, with its code (cli/io/outfile.c): a temporary renamed
 * over FILE only when that keeps its identity, otherwise rank 0 writes
 * through FILE (symlinks, hard links: copied over at commit) or into it
 * (devices, FIFOs).
 */
#include "internal.h"

#include "common/msg.h"
#include "common/number.h"
#include "common/quote.h"
#include "io/outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <locale.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *prog = "fairshuf-mpi";
static int rank, np;
static fshm M;
/* The ranks on this rank's node (MPI_COMM_TYPE_SHARED), and whether rank 0
   is one of them (then st_dev numbers compare: on another node the same
   shared file system may have another device number). */
static int node_np = 1, node_has0 = 1;
/* The default --threads (node_threads), and the node's CPUs it shares. */
static unsigned node_thr = 1, node_cpus = 0;

static void msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void msg(const char *fmt, ...)
{
    /* One line in one write: mpirun merges the ranks' standard errors, and
       ranks failing together wrote their pieces into each other's lines. */
    char b[4096];
    int at = snprintf(b, sizeof b, "%s: rank %d: ", prog, rank);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b + at, sizeof b - (size_t)at - 1, fmt, ap);
    va_end(ap);
    size_t len = (size_t)at + (n < 0 ? 0
                               : (size_t)n < sizeof b - (size_t)at - 1
                                   ? (size_t)n
                                   : sizeof b - (size_t)at - 2);
    b[len++] = '\n';
    fwrite(b, 1, len, stderr);
    fflush(stderr);
}

/* The output temporaries (cli/io/outfile.c's table) are removed on
   failure and on fatal signals. */
static void on_signal(int sig)
{
    outfile_abort();
    char b[96] = "fairshuf-mpi: rank ";
    size_t at = strlen(b);
    char d[16];
    int k = 0, r = rank;
    do {
        d[k++] = (char)('0' + r % 10);
        r /= 10;
    } while (r > 0 && k < 15);
    while (k > 0)
        b[at++] = d[--k];
    const char *t = ": terminated by a signal (another rank failed?)\n";
    memcpy(b + at, t, strlen(t));
    at += strlen(t);
    (void)!write(STDERR_FILENO, b, at);
    _exit(sig == SIGINT ? 130 : 1);
}

static void quiet_exit(int sig)
{
    (void)sig;
    _exit(1);
}

/* h for the signals mpirun sends a rank to stop it. */
static void stop_signals(void (*h)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = h;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

/* Leave: every rank calls it with the agreed status. */
static _Noreturn void finish(int status)
{
    outfile_abort();
    if (status != 0) {
        /* The job failed and the ranks said why; the first rank to exit 1
           makes mpirun send SIGTERM to those still finalizing, which is no
           news: no "terminated by a signal" then. */
        stop_signals(quiet_exit);
    }
    fshm_close(&M);
    MPI_Finalize();
    exit(status);
}

/* An MPI call failed: a rank died, or the job is being torn down. */
static _Noreturn void comm_failed(void)
{
    msg("MPI communication failed (another rank died?)");
    finish(1);
}

/* Agree on rc (0 ok, nonzero failed on some rank): exit 1 if any failed. */
static void agree_or_exit(int failed)
{
    int rc = fshm_agree(&M, failed ? -1 : 0);
    if (rc == FSH_MPI_ECOMM)
        msg("MPI communication failed");
    if (rc != 0)
        finish(1);
}

/* Every rank's header lines (its bytes of mine), concatenated in rank
   order, on every rank: a malloc'd copy, *total bytes long. Exits on
   every rank when any fails or has more than INT32_MAX bytes. */
static char *gather_header(const void *mine, uint64_t bytes, int *total)
{
    int hb = (int)bytes, *hc = calloc((size_t)np, sizeof *hc),
        *hd = calloc((size_t)np, sizeof *hd);
    if (bytes > INT32_MAX)
        msg("--header: more than %d bytes of header lines", INT32_MAX);
    agree_or_exit(hc == NULL || hd == NULL || bytes > INT32_MAX);
    if (MPI_Allgather(&hb, 1, MPI_INT, hc, 1, MPI_INT, M.comm) != MPI_SUCCESS)
        comm_failed();
    /* Every rank below INT32_MAX, the sum too (MPI's int displacements;
       it overflowed: a silent exit 1, or with three ranks or more
       negative displacements). The same counts everywhere: the same
       decision, no agreement needed. */
    uint64_t sum = 0;
    for (int q = 0; q < np; q++)
        sum += (uint64_t)hc[q];
    if (sum > INT32_MAX) {
        if (rank == 0)
            msg("--header: more than %d bytes of header lines", INT32_MAX);
        finish(1);
    }
    int htot = 0;
    for (int q = 0; q < np; q++) {
        hd[q] = htot;
        htot += hc[q];
    }
    char *hdr = malloc((size_t)htot + 1);
    if (hdr == NULL)
        msg("memory exhausted (%d bytes of header lines)", htot);
    agree_or_exit(hdr == NULL);
    if (MPI_Allgatherv(mine ? mine : hdr, hb, MPI_BYTE, hdr, hc, hd,
                       MPI_BYTE, M.comm) != MPI_SUCCESS)
        comm_failed();
    free(hc);
    free(hd);
    *total = htot;
    return hdr;
}

/* The default thread count of a rank: its share of the CPUs it may run
   on (sched_getaffinity), each CPU split evenly among the node's ranks
   whose affinity includes it; at least 1, at most 16. Ranks that mpirun
   leaves unbound (all the same mask) get the node's usable CPUs over its
   ranks; ranks bound to cores of their own get those (all online cores,
   as before, made ranks sharing a node run more threads than it has).
   *cpus: the CPUs in the node's ranks' masks together. Collective over
   node (local ranks); when a mask cannot be had on some rank: the online
   CPUs over the ranks. */
static unsigned node_threads(MPI_Comm node, int local, unsigned *cpus)
{
    cpu_set_t *set = NULL;
    size_t bytes = 0;
    for (int n = 1024; n <= (1 << 20) && set == NULL; n *= 2) {
        cpu_set_t *c = CPU_ALLOC((size_t)n);
        if (c == NULL)
            break;
        size_t b = CPU_ALLOC_SIZE((size_t)n);
        if (sched_getaffinity(0, b, c) == 0) {
            set = c;
            bytes = b;
            break;
        }
        CPU_FREE(c);
        if (errno != EINVAL)
            break;
    }
    unsigned long v[2] = {(unsigned long)bytes, set == NULL};
    unsigned char *mine = NULL, *all = NULL;
    double share = 0;
    unsigned u = 0;
    int ok = MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_UNSIGNED_LONG, MPI_MAX,
                           node) == MPI_SUCCESS && v[1] == 0;
    if (ok) {
        /* Every rank's mask, in the largest size of any (zero-padded). */
        mine = calloc(1, v[0]);
        all = calloc((size_t)local, v[0]);
        ok = mine != NULL && all != NULL;
        if (ok)
            memcpy(mine, set, bytes);
        int agreed = ok;
        if (MPI_Allreduce(&agreed, &ok, 1, MPI_INT, MPI_MIN, node) !=
            MPI_SUCCESS)
            ok = 0;
    }
    if (ok && v[0] <= INT_MAX &&
        MPI_Allgather(mine, (int)v[0], MPI_BYTE, all, (int)v[0], MPI_BYTE,
                      node) == MPI_SUCCESS) {
        size_t n = v[0] * 8;
        for (size_t c = 0; c < n; c++) {
            int with = 0;
            for (int q = 0; q < local; q++) {
                cpu_set_t *m = (cpu_set_t *)(void *)(all + (size_t)q * v[0]);
                with += CPU_ISSET_S(c, v[0], m) != 0;
            }
            u += with > 0;
            if (CPU_ISSET_S(c, v[0], (cpu_set_t *)(void *)mine))
                share += 1.0 / with;
        }
    } else {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        u = c > 0 ? (unsigned)c : 1;
        share = (double)u / local;
    }
    if (set != NULL)
        CPU_FREE(set);
    free(mine);
    free(all);
    *cpus = u;
    /* A little over: a sum of 1/k that is a whole number stays one. */
    share += 1e-6;
    return share < 1 ? 1 : share > 16 ? 16 : (unsigned)share;
}

/* ------------------------------------------------------------------------ */
/* Options                                                                  */

typedef struct opts {
    char delim;
    const char *seed, *outfile, *prefix, *tmpdir;
    uint64_t head, header, memory;
    int memory_default; /* memory is the default, not --memory's */
    int head_set;
    unsigned threads;
    char **ops;
    int nops;
} opts;

/* SIZE[bKMGT] (no suffix: KiB, as fairshuf and sort -S). */
static int parse_size(const char *s, uint64_t *v)
{
    char num[32];
    size_t n = strlen(s);
    unsigned shift = 10;
    if (n == 0 || n >= sizeof num)
        return -1;
    memcpy(num, s, n + 1);
    switch (num[n - 1]) {
    case 'b': shift = 0; break;
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    case 't': case 'T': shift = 40; break;
    default: n++; break;
    }
    num[n - 1] = num[n - 1] >= '0' && num[n - 1] <= '9' ? num[n - 1] : '\0';
    if (parse_udec(num, 0, UINT64_MAX, v) != 0 || *v > (UINT64_MAX >> shift))
        return -1;
    *v <<= shift;
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: mpirun [MPI OPTIONS] %s [OPTION]... FILE|DIR...\n"
            "Write a random permutation of the lines of the FILEs (and of the\n"
            "files in each DIR, by name) to standard output, shuffled by all\n"
            "MPI ranks together; under --seed, the same output as\n"
            "'fairshuf --seed' on the concatenated lines, for any rank count.\n"
            "\n"
            "  -n, --head-count=COUNT   output at most COUNT lines (the first\n"
            "                           COUNT of the full shuffle)\n"
            "  -o, --output=FILE        write the result to FILE\n"
            "      --output-prefix=PFX  one shard per rank: PFX0, PFX1, ...\n"
            "      --header=N           the first N lines of the input first, as is\n"
            "      --seed=STRING        reproducible output\n"
            "      --memory=SIZE        memory per rank (bKMGT; default: half\n"
            "                           the node's RAM / its ranks, less under\n"
            "                           ulimit -v, -d); beyond it, external\n"
            "                           mode through temporary files\n"
            "  -T, --temporary-directory=DIR  for external mode (default $TMPDIR\n"
            "                           or /tmp)\n"
            "      --threads=N          threads per rank (1 to 16; default:\n"
            "                           its share of the node's CPUs)\n"
            "  -z, --zero-terminated    line delimiter is NUL, not newline\n"
            "      --help               display this help and exit\n"
            "      --version            output version information and exit\n",
            prog);
}

static int parse(opts *o, int argc, char **argv, char *err, size_t errn)
{
    enum { O_SEED = 256, O_HEADER, O_PREFIX, O_MEMORY, O_THREADS, O_HELP,
           O_VERSION };
    static const struct option lo[] = {
        {"head-count", required_argument, NULL, 'n'},
        {"output", required_argument, NULL, 'o'},
        {"zero-terminated", no_argument, NULL, 'z'},
        {"seed", required_argument, NULL, O_SEED},
        {"header", required_argument, NULL, O_HEADER},
        {"output-prefix", required_argument, NULL, O_PREFIX},
        {"memory", required_argument, NULL, O_MEMORY},
        {"threads", required_argument, NULL, O_THREADS},
        {"temporary-directory", required_argument, NULL, 'T'},
        {"help", no_argument, NULL, O_HELP},
        {"version", no_argument, NULL, O_VERSION},
        {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof *o);
    o->delim = '\n';
    o->threads = 0;
    const char *td = getenv("TMPDIR");
    o->tmpdir = td != NULL && *td != '\0' ? td : "/tmp";
    /* getopt's own GNU messages ("option requires an argument -- 'n'",
       "option '--he' is ambiguous; ..."), once, named as the command. */
    static char argv0[] = "fairshuf-mpi";
    argv[0] = argv0;
    opterr = rank == 0;
    int c;
    uint64_t v;
    while ((c = getopt_long(argc, argv, "n:o:zT:", lo, NULL)) != -1) {
        switch (c) {
        case 'n': {
            if (optarg[0] == '\0' ||
                optarg[strspn(optarg, "0123456789")] != '\0') {
                snprintf(err, errn, "invalid line count: %s", quote(optarg));
                return 1;
            }
            if (parse_udec(optarg, 0, UINT64_MAX, &v) != 0)
                break; /* beyond 2^64 - 1: no limit, as fairshuf and GNU */
            o->head = o->head_set && o->head < v ? o->head : v;
            o->head_set = 1;
            break;
        }
        case 'o': o->outfile = optarg; break;
        case 'z': o->delim = '\0'; break;
        case 'T': o->tmpdir = optarg; break;
        case O_SEED: o->seed = optarg; break;
        case O_HEADER:
            if (parse_udec(optarg, 0, UINT64_MAX, &o->header) != 0) {
                snprintf(err, errn, "invalid header line count: %s",
                         quote(optarg));
                return 1;
            }
            break;
        case O_PREFIX: o->prefix = optarg; break;
        case O_MEMORY:
            if (parse_size(optarg, &o->memory) != 0 || o->memory == 0) {
                snprintf(err, errn, "invalid memory size: %s", quote(optarg));
                return 1;
            }
            break;
        case O_THREADS:
            if (parse_udec(optarg, 1, 16, &v) != 0) {
                snprintf(err, errn, "invalid thread count: %s (1 to 16)",
                         quote(optarg));
                return 1;
            }
            o->threads = (unsigned)v;
            break;
        case O_HELP: return 2;
        case O_VERSION: return 3;
        default: /* getopt said why (on rank 0) */
            err[0] = '\0';
            return 1;
        }
    }
    o->ops = argv + optind;
    o->nops = argc - optind;
    if (o->nops == 0) {
        snprintf(err, errn, "missing file operand (standard input is not "
                            "read: give files or directories)");
        return 1;
    }
    if (o->outfile && o->prefix) {
        snprintf(err, errn, "cannot combine -o and --output-prefix");
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Inputs                                                                   */

/* What fstat said of an input when this rank first opened it: every later
   open and every read's end must see the same, or the file changed while
   the job read it (the ranks' pieces and checks were planned on the old
   bytes). */
typedef struct look {
    uint64_t dev, ino, size, mtime, ctime;
} look;

/* The inputs as rank 0 measured them (name, size, mtime), and what this
   rank saw of them when it opened them (verify_inputs compares). */
typedef struct files {
    char **name;
    uint64_t *size;
    uint64_t *mtime;     /* nanoseconds since the epoch, rank 0's */
    uint64_t *fp;        /* this rank's sample_fp, 0: not opened */
    unsigned char *mdiff; /* 1: the mtime differs from rank 0's here */
    look *here;          /* this rank's first look (size 0: none yet) */
    unsigned char *seen; /* 1: here[i] is set */
    size_t n;
} files;

static uint64_t mtime_ns(const struct stat *st)
{
    return (uint64_t)st->st_mtim.tv_sec * 1000000000u +
           (uint64_t)st->st_mtim.tv_nsec;
}

static look look_of(const struct stat *st)
{
    look l = {(uint64_t)st->st_dev, (uint64_t)st->st_ino,
              (uint64_t)st->st_size, mtime_ns(st),
              (uint64_t)st->st_ctim.tv_sec * 1000000000u +
                  (uint64_t)st->st_ctim.tv_nsec};
    return l;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_file(files *f, const char *name, const struct stat *st)
{
    uint64_t *mt = realloc(f->mtime, (f->n + 1) * sizeof *mt);
    if (mt == NULL)
        return -1;
    f->mtime = mt;
    f->mtime[f->n] = mtime_ns(st);
    char **nn = realloc(f->name, (f->n + 1) * sizeof *nn);
    if (nn == NULL)
        return -1;
    f->name = nn;
    uint64_t *ss = realloc(f->size, (f->n + 1) * sizeof *ss);
    if (ss == NULL)
        return -1;
    f->size = ss;
    if ((f->name[f->n] = strdup(name)) == NULL)
        return -1;
    f->size[f->n++] = (uint64_t)st->st_size;
    return 0;
}

/* stat(path), following symlinks: 0, or -1 after a message. A symlink
   whose target does not exist (dangling) is named as one: inside a
   directory operand it is a name the user never typed, which "No such
   file or directory" would contradict (ls lists it), and a shard that is
   missing must fail the job, not vanish from the output. */
static int stat_input(const char *path, struct stat *st)
{
    if (stat(path, st) == 0)
        return 0;
    int e = errno;
    struct stat lst;
    char to[4096];
    ssize_t tl;
    if (e == ENOENT && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) &&
        (tl = readlink(path, to, sizeof to - 1)) >= 0) {
        to[tl] = '\0';
        msg("%s: dangling symbolic link (to %s)", quotef(path), quotef(to));
    } else {
        msg("%s: %s", quotef(path), strerror(e));
    }
    return -1;
}

/* Rank 0: the operands' files (a directory: its regular files whose names
   do not start with '.', sorted bytewise; symlinks followed, a dangling
   one an error). 0, or -1 after a message. */
static int list_inputs(const opts *o, files *f)
{
    for (int i = 0; i < o->nops; i++) {
        const char *p = o->ops[i];
        struct stat st;
        if (stat_input(p, &st) != 0)
            return -1;
        if (!S_ISDIR(st.st_mode)) {
            if (!S_ISREG(st.st_mode)) {
                msg("%s: not a regular file or directory", quotef(p));
                return -1;
            }
            if (add_file(f, p, &st) != 0)
                goto nomem;
            continue;
        }
        DIR *d = opendir(p);
        if (d == NULL) {
            msg("%s: %s", quotef(p), strerror(errno));
            return -1;
        }
        char **names = NULL;
        size_t nn = 0;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            char **t = realloc(names, (nn + 1) * sizeof *t);
            if (t == NULL)
                goto nomem;
            names = t;
            size_t l = strlen(p) + strlen(e->d_name) + 2;
            if ((names[nn] = malloc(l)) == NULL)
                goto nomem;
            snprintf(names[nn++], l, "%s/%s", p, e->d_name);
        }
        closedir(d);
        if (nn > 1) /* names is NULL when the directory has none */
            qsort(names, nn, sizeof *names, cmp_str);
        for (size_t j = 0; j < nn; j++) {
            if (stat_input(names[j], &st) != 0)
                return -1;
            if (S_ISREG(st.st_mode) &&
                add_file(f, names[j], &st) != 0)
                goto nomem;
            free(names[j]);
        }
        free(names);
    }
    return 0;
nomem:
    msg("memory exhausted");
    return -1;
}

/* Send rank 0's list to every rank. */
static void bcast_files(files *f)
{
    uint64_t hdr[2] = {f->n, 0};
    char *blob = NULL;
    if (rank == 0) {
        for (size_t i = 0; i < f->n; i++)
            hdr[1] += strlen(f->name[i]) + 1;
        blob = malloc(hdr[1] + 1);
        size_t at = 0;
        for (size_t i = 0; blob && i < f->n; i++) {
            size_t l = strlen(f->name[i]) + 1;
            memcpy(blob + at, f->name[i], l);
            at += l;
        }
    }
    if (MPI_Bcast(hdr, 2, MPI_UINT64_T, 0, M.comm) != MPI_SUCCESS)
        comm_failed();
    if (rank != 0) {
        f->n = (size_t)hdr[0];
        blob = malloc(hdr[1] + 1);
    }
    /* Rank 0's lists are add_file's, none when no operand had a regular
       file (an empty directory: no lines, as an empty file); the ranks
       then agreed that it had failed, and exited 1 without a word. */
    if (f->name == NULL) {
        f->name = calloc(f->n + 1, sizeof *f->name);
        f->size = calloc(f->n + 1, sizeof *f->size);
        f->mtime = calloc(f->n + 1, sizeof *f->mtime);
    }
    f->fp = calloc(f->n + 1, sizeof *f->fp);
    f->mdiff = calloc(f->n + 1, 1);
    f->here = calloc(f->n + 1, sizeof *f->here);
    f->seen = calloc(f->n + 1, 1);
    agree_or_exit(blob == NULL || f->name == NULL || f->size == NULL ||
                  f->mtime == NULL || f->fp == NULL || f->mdiff == NULL ||
                  f->here == NULL || f->seen == NULL);
    if (MPI_Bcast(blob, (int)hdr[1], MPI_CHAR, 0, M.comm) != MPI_SUCCESS ||
        MPI_Bcast(f->size, (int)f->n, MPI_UINT64_T, 0, M.comm) !=
            MPI_SUCCESS ||
        MPI_Bcast(f->mtime, (int)f->n, MPI_UINT64_T, 0, M.comm) != MPI_SUCCESS)
        comm_failed();
    if (rank != 0 && f->n > 0) {
        /* The names point into blob, which stays. */
        size_t at = 0;
        for (size_t i = 0; i < f->n; i++) {
            f->name[i] = blob + at;
            at += strlen(blob + at) + 1;
        }
    } else {
        free(blob);
    }
}

/* 0 when st is input i as this rank first saw it (recording that look
   the first time), else -1 after a message. */
static int same_look(files *f, size_t i, const struct stat *st)
{
    look l = look_of(st);
    if (!f->seen[i]) {
        f->here[i] = l;
        f->seen[i] = 1;
        return 0;
    }
    if (memcmp(&l, &f->here[i], sizeof l) == 0)
        return 0;
    msg("%s: file changed as we read it", quotef(f->name[i]));
    return -1;
}

/* Input i opened for reading, checked against rank 0's measure: the same
   size (ranks with different working directories or node-local paths may
   see different files under one name); a different mtime is noted for
   verify_inputs; and against this rank's first look (same_look). The fd,
   or -1 after a message. */
static int open_input(files *f, size_t i)
{
    int fd = open(f->name[i], O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        msg("%s: %s", quotef(f->name[i]), strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        msg("%s: %s", quotef(f->name[i]), strerror(errno));
        close(fd);
        return -1;
    }
    if ((uint64_t)st.st_size != f->size[i]) {
        msg("%s: %llu bytes here, %llu on rank 0: the ranks do not see the "
            "same file (or it changed)",
            quotef(f->name[i]), (unsigned long long)st.st_size,
            (unsigned long long)f->size[i]);
        close(fd);
        return -1;
    }
    if (mtime_ns(&st) != f->mtime[i])
        f->mdiff[i] = 1;
    if (same_look(f, i, &st) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Close input i after reading from fd: 0 when it is still as this rank
   first saw it, else -1 after a message (a write since then may have
   moved the line boundaries the ranks planned on). Timestamps have the
   kernel's tick as resolution: a write in the same tick as the first look
   and not changing the size passes unseen. */
static int close_input(files *f, size_t i, int fd)
{
    struct stat st;
    int rc = 0;
    if (fstat(fd, &st) != 0) {
        msg("%s: %s", quotef(f->name[i]), strerror(errno));
        rc = -1;
    } else {
        rc = same_look(f, i, &st);
    }
    close(fd);
    return rc;
}

/* A fingerprint of input i (open as fd, size bytes): a hash of its size
   and of three 4 KiB blocks, the first, the middle and the last (the whole
   file up to 12 KiB); never 0 or UINT64_MAX. 0, or -1 after a message. */
static int sample_fp(const files *f, size_t i, int fd, uint64_t *out)
{
    enum { BLK = 4096 };
    unsigned char buf[BLK];
    uint64_t size = f->size[i];
    uint64_t at[3] = {0, size / 2 > BLK / 2 ? size / 2 - BLK / 2 : 0,
                      size > BLK ? size - BLK : 0};
    uint64_t h = fshm_digest(&size, sizeof size, 0xcbf29ce484222325ULL);
    for (int k = 0; k < 3; k++) {
        size_t len = size - at[k] < BLK ? (size_t)(size - at[k]) : BLK;
        for (size_t got = 0; got < len;) {
            ssize_t r = pread(fd, buf + got, len - got, (off_t)(at[k] + got));
            if (r <= 0) {
                msg("%s: %s", quotef(f->name[i]),
                    r < 0 ? strerror(errno) : "file shrank as we read it");
                return -1;
            }
            got += (size_t)r;
        }
        h = fshm_digest(at + k, sizeof at[k], h);
        h = fshm_digest(buf, len, h);
    }
    h |= 1;
    *out = h == UINT64_MAX ? h - 1 : h;
    return 0;
}

/* First position >= from of delim in fd (size bytes), or size. */
static int find_delim(int fd, const char *name, uint64_t from, uint64_t size,
                      char delim, uint64_t *at)
{
    char buf[65536];
    while (from < size) {
        size_t want = size - from < sizeof buf ? (size_t)(size - from)
                                               : sizeof buf;
        ssize_t got = pread(fd, buf, want, (off_t)from);
        if (got < 0) {
            msg("%s: %s", quotef(name), strerror(errno));
            return -1;
        }
        if (got == 0)
            break;
        char *p = memchr(buf, delim, (size_t)got);
        if (p != NULL) {
            *at = from + (uint64_t)(p - buf);
            return 0;
        }
        from += (uint64_t)got;
    }
    *at = size;
    return 0;
}

typedef struct piece {
    size_t file;
    uint64_t lo, hi; /* bytes [lo, hi) of the file */
    int add_delim;
} piece;

/* This rank's pieces of files: the records that start in its byte range
   of the concatenation. *bytes: their size plus one per piece (a missing
   final delimiter). Returns 0, or -1 after a message. */
static int plan_pieces(files *f, char delim, piece **out, size_t *nout,
                       uint64_t *bytes_out)
{
    uint64_t total = 0;
    for (size_t i = 0; i < f->n; i++)
        total += f->size[i];
    uint64_t a = total / (uint64_t)np * (uint64_t)rank +
                 total % (uint64_t)np * (uint64_t)rank / (uint64_t)np;
    uint64_t b = rank == np - 1
                     ? total
                     : total / (uint64_t)np * (uint64_t)(rank + 1) +
                           total % (uint64_t)np * (uint64_t)(rank + 1) /
                               (uint64_t)np;
    piece *pc = calloc(f->n + 1, sizeof *pc);
    size_t npc = 0;
    uint64_t bytes = 0, base = 0;
    if (pc == NULL) {
        msg("memory exhausted");
        return -1;
    }
    for (size_t i = 0; i < f->n; base += f->size[i], i++) {
        uint64_t sz = f->size[i];
        if (sz == 0 || base + sz <= a || base >= b)
            continue;
        uint64_t lo = a > base ? a - base : 0, hi = b - base < sz ? b - base : sz;
        int fd = open_input(f, i);
        if (fd < 0 || sample_fp(f, i, fd, &f->fp[i]) != 0) {
            if (fd >= 0)
                close(fd);
            free(pc);
            return -1;
        }
        uint64_t s = lo, e = sz;
        if (lo > 0) {
            char c;
            ssize_t got = pread(fd, &c, 1, (off_t)(lo - 1));
            if (got != 1) {
                msg("%s: %s", quotef(f->name[i]),
                    got < 0 ? strerror(errno) : "file shrank as we read it");
                close(fd);
                free(pc);
                return -1;
            }
            if (c != delim) {
                if (find_delim(fd, f->name[i], lo, sz, delim, &s) != 0) {
                    close(fd);
                    free(pc);
                    return -1;
                }
                s++;
            }
        }
        if (s < hi && hi < sz) {
            if (find_delim(fd, f->name[i], hi - 1, sz, delim, &e) != 0) {
                close(fd);
                free(pc);
                return -1;
            }
            e = e < sz ? e + 1 : sz;
        }
        if (close_input(f, i, fd) != 0) {
            free(pc);
            return -1;
        }
        if (s >= hi || s >= sz)
            continue;
        pc[npc].file = i;
        pc[npc].lo = s;
        pc[npc].hi = e;
        pc[npc].add_delim = e == sz;
        bytes += e - s + 1;
        npc++;
    }
    *out = pc;
    *nout = npc;
    *bytes_out = bytes;
    return 0;
}

/* Every rank reads the file rank 0 measured, or the job fails on every
   rank (a path may name different files on different ranks: other working
   directories, node-local disks). open_input checked the size of each file
   a rank opens. Here: (1) the fingerprints (sample_fp) of the ranks that
   opened a file agree, and rank 0's too wherever some rank's mtime differs
   from rank 0's (rank 0 then samples the file if it had not: copies staged
   without their mtimes pass, different contents do not); (2) the pieces of
   each file tile it exactly, each starting where the previous rank's ended
   (the ranks found the same record boundaries: no record lost or read
   twice). Costs: three reductions of one word per file, and a gather of
   the pieces on rank 0. */
static void verify_inputs(files *f, const piece *pc, size_t npc)
{
    size_t n = f->n;
    if (n == 0)
        return;
    int failed = 0;
    if (MPI_Allreduce(MPI_IN_PLACE, f->mdiff, (int)n, MPI_UNSIGNED_CHAR,
                      MPI_MAX, M.comm) != MPI_SUCCESS)
        comm_failed();
    if (rank == 0) {
        for (size_t i = 0; i < n && !failed; i++) {
            if (!f->mdiff[i] || f->fp[i] != 0 || f->size[i] == 0)
                continue;
            int fd = open_input(f, i);
            if (fd < 0 || sample_fp(f, i, fd, &f->fp[i]) != 0) {
                failed = 1;
                if (fd >= 0)
                    close(fd);
            } else if (close_input(f, i, fd) != 0) {
                failed = 1;
            }
        }
    }
    uint64_t *lo = malloc(n * sizeof *lo), *hi = malloc(n * sizeof *hi);
    int *cnt = rank == 0 ? calloc((size_t)np, sizeof *cnt) : NULL;
    int *dsp = rank == 0 ? calloc((size_t)np, sizeof *dsp) : NULL;
    if (lo == NULL || hi == NULL || (rank == 0 && (cnt == NULL || dsp == NULL))) {
        msg("memory exhausted");
        failed = 1;
    }
    agree_or_exit(failed);
    for (size_t i = 0; i < n; i++) {
        lo[i] = f->fp[i] != 0 ? f->fp[i] : UINT64_MAX;
        hi[i] = f->fp[i];
    }
    if (MPI_Allreduce(MPI_IN_PLACE, lo, (int)n, MPI_UINT64_T, MPI_MIN,
                      M.comm) != MPI_SUCCESS ||
        MPI_Allreduce(MPI_IN_PLACE, hi, (int)n, MPI_UINT64_T, MPI_MAX,
                      M.comm) != MPI_SUCCESS)
        comm_failed();
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++)
        if (hi[i] != 0 && lo[i] != hi[i])
            bad = i;
    free(lo);
    free(hi);
    /* The pieces, (file, start, end) each, on rank 0, in rank order. */
    int mine = (int)(3 * npc), total = 0;
    uint64_t *sp = malloc(3 * npc * sizeof *sp + 1), *all = NULL;
    agree_or_exit(sp == NULL);
    for (size_t k = 0; k < npc; k++) {
        sp[3 * k] = pc[k].file;
        sp[3 * k + 1] = pc[k].lo;
        sp[3 * k + 2] = pc[k].hi;
    }
    if (MPI_Gather(&mine, 1, MPI_INT, cnt, 1, MPI_INT, 0, M.comm) !=
        MPI_SUCCESS)
        comm_failed();
    uint64_t *next = NULL;
    if (rank == 0) {
        for (int q = 0; q < np; q++) {
            dsp[q] = total;
            total += cnt[q];
        }
        all = malloc((size_t)total * sizeof *all + 1);
        next = calloc(n, sizeof *next);
        if (all == NULL || next == NULL) {
            msg("memory exhausted");
            failed = 1;
        }
    }
    agree_or_exit(failed);
    if (MPI_Gatherv(sp, mine, MPI_UINT64_T, all, cnt, dsp, MPI_UINT64_T, 0,
                    M.comm) != MPI_SUCCESS)
        comm_failed();
    if (rank == 0) {
        for (int k = 0; k + 2 < total && bad == n; k += 3) {
            size_t i = (size_t)all[k];
            if (i >= n || all[k + 1] != next[i] || all[k + 2] < all[k + 1])
                bad = i < n ? i : 0;
            else
                next[i] = all[k + 2];
        }
        for (size_t i = 0; i < n && bad == n; i++)
            if (next[i] != f->size[i])
                bad = i;
        if (bad < n)
            msg("%s: the ranks do not see the same file (its contents "
                "differ between ranks: different files at the same path?)",
                quotef(f->name[bad]));
    }
    free(sp);
    free(all);
    free(next);
    free(cnt);
    free(dsp);
    agree_or_exit(bad < n);
}

/* r->len[0..r->n) = the lengths of the records in r->data[0..r->bytes),
   each ending with delim (the last one included); -1 when memory runs
   out, -2 when the last record has no delimiter (the callers check their
   pieces' ends first: an input that changed as it was read). */
static int set_lens(fshm_recs *r, char delim)
{
    size_t n = 0, cap = 1024;
    r->len = malloc(cap * sizeof *r->len);
    const unsigned char *p = r->data, *end = r->data + r->bytes;
    while (r->len != NULL && p < end) {
        const unsigned char *q = memchr(p, delim, (size_t)(end - p));
        if (q == NULL) {
            r->n = n;
            return -2;
        }
        if (n == cap) {
            uint64_t *t = realloc(r->len, 2 * cap * sizeof *t);
            if (t == NULL) {
                free(r->len);
                r->len = NULL;
                break;
            }
            r->len = t;
            cap *= 2;
        }
        r->len[n++] = (uint64_t)(q - p) + 1;
        p = q + 1;
    }
    r->n = n;
    return r->len == NULL ? -1 : 0;
}

/* This rank's records (its pieces pc, bytes long), all in memory.
   Returns 0, or -1 after a message. */
static int read_mine(files *f, char delim, const piece *pc, size_t npc,
                     uint64_t bytes, fshm_recs *r)
{
    memset(r, 0, sizeof *r);
    r->owned = 1;
    r->data = malloc(bytes ? (size_t)bytes : 1);
    if (r->data == NULL) {
        msg("memory exhausted (%llu bytes of input)", (unsigned long long)bytes);
        return -1;
    }
    uint64_t at = 0;
    for (size_t k = 0; k < npc; k++) {
        const char *name = f->name[pc[k].file];
        int fd = open_input(f, pc[k].file);
        if (fd < 0)
            return -1;
        uint64_t off = pc[k].lo;
        while (off < pc[k].hi) {
            size_t want = pc[k].hi - off > ((uint64_t)1 << 30)
                              ? (size_t)1 << 30
                              : (size_t)(pc[k].hi - off);
            ssize_t got = pread(fd, r->data + at, want, (off_t)off);
            if (got <= 0) {
                msg("%s: %s", quotef(name),
                    got < 0 ? strerror(errno) : "file shrank as we read it");
                close(fd);
                return -1;
            }
            at += (uint64_t)got;
            off += (uint64_t)got;
        }
        if (close_input(f, pc[k].file, fd) != 0)
            return -1;
        /* A piece ends after a delimiter, unless it ends its file. */
        if (pc[k].add_delim && r->data[at - 1] != delim) {
            r->data[at++] = (unsigned char)delim;
        } else if (r->data[at - 1] != delim) {
            msg("%s: file changed as we read it", quotef(name));
            return -1;
        }
    }
    r->bytes = at;
    int sl = set_lens(r, delim);
    if (sl != 0) {
        msg(sl == -1 ? "memory exhausted" : "an input changed as we read it");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Output                                                                   */

static int write_all(int fd, const void *p, uint64_t n, uint64_t off,
                     int positioned)
{
    const unsigned char *b = p;
    while (n > 0) {
        size_t c = n > ((uint64_t)1 << 30) ? (size_t)1 << 30 : (size_t)n;
        ssize_t w = positioned ? pwrite(fd, b, c, (off_t)off) : write(fd, b, c);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        b += w;
        n -= (uint64_t)w;
        off += (uint64_t)w;
    }
    return 0;
}

/* cli/io's outfile_open and outfile_commit report an error with die():
   here its hook jumps back, so that the rank tells the others (the
   agreement after each step) instead of leaving alone. The message is
   fairshuf's, named "fairshuf-mpi: rank R" (program_name, set in main). */
static sigjmp_buf io_jump;

static void io_die_hook(void *ctx)
{
    (void)ctx;
    siglongjmp(io_jump, 1);
}

/* outfile_open_named(path): the fd, or -1 after a message. */
static int io_open(const char *path, const char *tmpdir, const char **tmp)
{
    if (sigsetjmp(io_jump, 1) != 0)
        return -1;
    set_die_hook(io_die_hook, NULL);
    int fd = outfile_open_named(path, tmpdir, tmp);
    set_die_hook(NULL, NULL);
    return fd;
}

/* outfile_commit: 0, or -1 after a message. */
static int io_commit(void)
{
    if (sigsetjmp(io_jump, 1) != 0)
        return -1;
    set_die_hook(io_die_hook, NULL);
    outfile_commit();
    set_die_hook(NULL, NULL);
    return 0;
}

/* Test hook (tests/mpi/test_mpi.sh kills a rank mid-run, or changes an
   input between the ranks' looks at it): with FSH_MPI_TEST_PIDS=DIR, each
   rank writes its pid to DIR/RANK at point where (FSH_MPI_TEST_PAUSE_AT:
   "read", the default, after reading; "plan", after the inputs were
   measured and checked but before they are read; "temp", when rank 0 has
   made -o FILE's temporary and named it to the others, before they open
   it; or "write", with the output temporaries open) and waits there until DIR/go exists (the test
   has done its part), for at most 30 s. */
static void test_pause(const char *where)
{
    const char *pids = getenv("FSH_MPI_TEST_PIDS");
    const char *at = getenv("FSH_MPI_TEST_PAUSE_AT");
    if (pids == NULL || strcmp(at ? at : "read", where) != 0)
        return;
    char pf[4096], go[4096];
    snprintf(pf, sizeof pf, "%s/%d", pids, rank);
    snprintf(go, sizeof go, "%s/go", pids);
    FILE *pfh = fopen(pf, "w");
    if (pfh) {
        fprintf(pfh, "%ld\n", (long)getpid());
        fclose(pfh);
    }
    struct timespec tick = {0, 10000000};
    for (int i = 0; i < 3000 && access(go, F_OK) != 0; i++)
        nanosleep(&tick, NULL);
}

/* ------------------------------------------------------------------------ */
/* Where the output goes: every rank writes its part, in output order, with
   sink_write; sink_open and sink_close are collective.                    */

typedef struct sink {
    int mode;    /* 0: rank 0 writes all (standard output; -o FILE copied
                    over or written in place), 1: -o FILE renamed (every
                    rank writes into the temporary), 2: shards */
    int fd;
    uint64_t off;
    char *name;  /* the file (NULL: standard output) */
    int commit;  /* fd is outfile_open's: close it, then outfile_commit */
    int renamed; /* fd is a temporary renamed at commit: fsync it first */
    int failed;
    unsigned char *buf; /* rank 0, mode 0: receive buffer */
} sink;

/* The most bytes of output one message carries to rank 0 (standard output,
   -o FILE written through): rank 0 receives into one buffer of this size,
   so it stays a few MiB, whatever MPI's message limit (M.chunk, 1 GiB) and
   whatever an address-space limit allows. */
static size_t out_msg(void)
{
    size_t cap = (size_t)4 << 20;
    return M.chunk < cap ? M.chunk : cap;
}

static void sink_fail(sink *k, const char *name)
{
    if (!k->failed)
        msg("%s%swrite error: %s", name ? quotef(name) : "", name ? ": " : "",
            strerror(errno));
    k->failed = 1;
}

/* obytes: this rank's output bytes (for -o's offsets). */
static void sink_open(sink *k, const opts *o, uint64_t obytes,
                      const char *hdr, uint64_t hlen)
{
    memset(k, 0, sizeof *k);
    k->fd = -1;
    int failed = 0;
    if (o->prefix != NULL) {
        k->mode = 2;
        int w = snprintf(NULL, 0, "%d", np - 1);
        size_t l = strlen(o->prefix) + (size_t)w + 1;
        k->name = malloc(l);
        if (k->name == NULL) {
            msg("memory exhausted");
            failed = 1;
        } else {
            snprintf(k->name, l, "%s%0*d", o->prefix, w, rank);
            const char *tmp = NULL;
            if ((k->fd = io_open(k->name, o->tmpdir, &tmp)) < 0)
                failed = 1;
            k->commit = k->fd >= 0;
            k->renamed = tmp != NULL;
        }
        test_pause("write");
        if (!failed && write_all(k->fd, hdr, hlen, 0, 0) != 0) {
            sink_fail(k, k->name);
            failed = 1;
        }
        agree_or_exit(failed);
    } else if (o->outfile != NULL) {
        /* Rank 0 opens FILE as fairshuf does. A temporary to rename over
           it: every rank opens it by name and writes its bytes at its
           offset. Otherwise (a symlink, hard links, another user's file,
           a device, a FIFO, ...) the others send their bytes to rank 0,
           which writes them in order, as to standard output. */
        k->name = strdup(o->outfile);
        const char *tmp = NULL;
        if (rank == 0 && (k->fd = io_open(o->outfile, o->tmpdir, &tmp)) < 0)
            failed = 1;
        agree_or_exit(failed || k->name == NULL);
        char name[4096] = "";
        if (rank == 0) {
            k->commit = 1;
            k->renamed = tmp != NULL;
            if (tmp != NULL &&
                snprintf(name, sizeof name, "%s", tmp) >= (int)sizeof name) {
                msg("%s: %s", quotef(o->outfile), strerror(ENAMETOOLONG));
                failed = 1;
            }
        }
        /* The temporary's identity: the others open it by name, and a name
           in a directory others can write to may be replaced by then (a
           symlink to elsewhere, another file). Its inode number stays
           taken while rank 0 holds it open, so no other file in that
           directory has it; the device number too on rank 0's node. */
        uint64_t id[2] = {0, 0};
        struct stat tst;
        if (rank == 0 && name[0] != '\0') {
            if (fstat(k->fd, &tst) != 0) {
                msg("%s: %s", quotef(name), strerror(errno));
                failed = 1;
            } else {
                id[0] = (uint64_t)tst.st_dev;
                id[1] = (uint64_t)tst.st_ino;
            }
        }
        agree_or_exit(failed);
        if (MPI_Bcast(name, (int)sizeof name, MPI_CHAR, 0, M.comm) !=
                MPI_SUCCESS ||
            MPI_Bcast(id, 2, MPI_UINT64_T, 0, M.comm) != MPI_SUCCESS)
            comm_failed();
        if (name[0] == '\0') {
            k->mode = 0;
            if (rank == 0) {
                k->buf = malloc(out_msg());
                if (k->buf == NULL) {
                    msg("memory exhausted");
                    failed = 1;
                } else if (write_all(k->fd, hdr, hlen, 0, 0) != 0) {
                    sink_fail(k, k->name);
                }
            }
            test_pause("write");
            agree_or_exit(failed);
            return;
        }
        k->mode = 1;
        test_pause("temp");
        if (rank != 0) {
            /* Not through a symlink, and the very file rank 0 made. */
            k->fd = open(name, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
            if (k->fd < 0 && errno == ELOOP) {
                msg("%s: %s is not rank 0's temporary: a symbolic link (was "
                    "it replaced?)", quotef(o->outfile), quotef(name));
                failed = 1;
            } else if (k->fd < 0) {
                msg("%s: cannot open rank 0's temporary %s: %s (do the "
                    "ranks share the output's directory?)",
                    quotef(o->outfile), quotef(name), strerror(errno));
                failed = 1;
            } else if (fstat(k->fd, &tst) != 0) {
                msg("%s: %s: %s", quotef(o->outfile), quotef(name), strerror(errno));
                failed = 1;
            } else if ((node_has0 && (uint64_t)tst.st_dev != id[0]) ||
                       (uint64_t)tst.st_ino != id[1]) {
                msg("%s: %s is not rank 0's temporary: another file (was it "
                    "replaced, or do the ranks not share the output's "
                    "directory?)", quotef(o->outfile), quotef(name));
                failed = 1;
            }
            if (failed && k->fd >= 0) {
                close(k->fd);
                k->fd = -1;
            }
        }
        uint64_t boff = 0;
        if (MPI_Exscan(&obytes, &boff, 1, MPI_UINT64_T, MPI_SUM, M.comm) !=
            MPI_SUCCESS)
            comm_failed();
        k->off = hlen + (rank == 0 ? 0 : boff);
        if (!failed && rank == 0 && write_all(k->fd, hdr, hlen, 0, 1) != 0) {
            sink_fail(k, o->outfile);
            failed = 1;
        }
        test_pause("write");
        agree_or_exit(failed);
    } else {
        k->mode = 0;
        k->fd = STDOUT_FILENO;
        if (rank == 0) {
            k->buf = malloc(out_msg());
            if (k->buf == NULL) {
                msg("memory exhausted");
                failed = 1;
            } else if (write_all(STDOUT_FILENO, hdr, hlen, 0, 0) != 0) {
                sink_fail(k, NULL);
            }
        }
        agree_or_exit(failed);
    }
}

/* Rank 0 or a shard's rank: close fd (after an fsync when it is to be
   renamed) and put the output in place (outfile_commit). 0, or -1 after
   a message. */
static int sink_commit(sink *k)
{
    int fd = k->fd;
    k->fd = -1;
    if ((k->renamed && fsync(fd) != 0) || close(fd) != 0) {
        msg("%s: write error: %s", quotef(k->name), strerror(errno));
        return -1;
    }
    return io_commit();
}

static void sink_write(sink *k, const void *p, uint64_t n)
{
    if (n == 0)
        return;
    if (k->mode == 0 && rank != 0) {
        const unsigned char *b = p;
        if (MPI_Send(&n, 1, MPI_UINT64_T, 0, 7, M.comm) != MPI_SUCCESS)
            comm_failed();
        for (uint64_t at = 0; at < n;) {
            size_t c = n - at < out_msg() ? (size_t)(n - at) : out_msg();
            if (MPI_Send(b + at, (int)c, MPI_BYTE, 0, 8, M.comm) != MPI_SUCCESS)
                comm_failed();
            at += c;
        }
        return;
    }
    if (k->failed)
        return;
    if (write_all(k->fd, p, n, k->off, k->mode == 1) != 0)
        sink_fail(k, k->name);
    k->off += n;
}

/* The first keep records of r (obytes bytes), in r's order: gathered into
   a buffer when r has an order. */
static void sink_recs(sink *k, const fshm_recs *r, uint64_t keep,
                      uint64_t obytes)
{
    if (r->order == NULL) {
        sink_write(k, r->data, obytes);
        return;
    }
    uint64_t *off = fshm_offsets(r);
    size_t cap = (size_t)1 << 22, used = 0;
    unsigned char *buf = malloc(cap);
    if (off == NULL || buf == NULL) {
        msg("memory exhausted");
        k->failed = 1;
        free(off);
        free(buf);
        return;
    }
    for (uint64_t i = 0; i < keep; i++) {
        uint64_t j = r->order[i], l = r->len[j];
        if (used + l > cap) {
            sink_write(k, buf, used);
            used = 0;
        }
        if (l > cap) {
            sink_write(k, r->data + off[j], l);
            continue;
        }
        memcpy(buf + used, r->data + off[j], (size_t)l);
        used += (size_t)l;
    }
    sink_write(k, buf, used);
    free(off);
    free(buf);
}

static void sink_close(sink *k, const opts *o)
{
    (void)o;
    int failed = k->failed;
    if (k->mode == 0) {
        if (rank == 0) {
            for (int q = 1; q < np; q++) {
                for (;;) {
                    uint64_t sz;
                    if (MPI_Recv(&sz, 1, MPI_UINT64_T, q, 7, M.comm,
                                 MPI_STATUS_IGNORE) != MPI_SUCCESS)
                        comm_failed();
                    if (sz == 0)
                        break;
                    while (sz > 0) {
                        size_t c = sz < out_msg() ? (size_t)sz : out_msg();
                        if (MPI_Recv(k->buf, (int)c, MPI_BYTE, q, 8, M.comm,
                                     MPI_STATUS_IGNORE) != MPI_SUCCESS)
                            comm_failed();
                        sink_write(k, k->buf, c);
                        sz -= c;
                    }
                }
            }
            failed = k->failed;
        } else {
            uint64_t z = 0;
            if (MPI_Send(&z, 1, MPI_UINT64_T, 0, 7, M.comm) != MPI_SUCCESS)
                comm_failed();
        }
        agree_or_exit(failed);
        if (k->commit && rank == 0 && sink_commit(k) != 0)
            failed = 1;
        agree_or_exit(failed);
    } else if (k->mode == 1) {
        if (rank != 0 && k->fd >= 0 && close(k->fd) != 0 && !failed) {
            sink_fail(k, k->name);
            failed = 1;
        }
        agree_or_exit(failed);
        if (rank == 0 && sink_commit(k) != 0)
            failed = 1;
        agree_or_exit(failed);
    } else {
        if (!failed && k->renamed && fsync(k->fd) != 0) {
            sink_fail(k, k->name);
            failed = 1;
        }
        agree_or_exit(failed);
        if (sink_commit(k) != 0)
            failed = 1;
        agree_or_exit(failed);
    }
    free(k->name);
    free(k->buf);
}

/* ------------------------------------------------------------------------ */

static void print_peak(const char *what, double t0, const fsh_mpi_info *info,
                       uint64_t n)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    fprintf(stderr,
            "%s: rank %d: %s: %llu records in, %llu sent (%llu bytes), "
            "peak RSS %ld KiB, %.3f s\n",
            prog, rank, what, (unsigned long long)n,
            (unsigned long long)info->sent_records,
            (unsigned long long)info->sent_bytes, ru.ru_maxrss,
            (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 - t0);
}

/* Half the room left under resource limit res (RLIMIT_AS, RLIMIT_DATA)
   above what this process uses of it (field of /proc/self/statm, in
   pages: 0, the whole size; 5, data and stack; 0 bytes where statm cannot
   be read), or UINT64_MAX when there is no limit. */
static uint64_t limit_room(int res, int field)
{
    struct rlimit rl;
    if (getrlimit(res, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return UINT64_MAX;
    uint64_t used = 0;
    unsigned long long v[7];
    long ps = sysconf(_SC_PAGESIZE);
    FILE *fp = fopen("/proc/self/statm", "r");
    if (fp != NULL) {
        if (fscanf(fp, "%llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
                   &v[2], &v[3], &v[4], &v[5], &v[6]) == 7 &&
            ps > 0)
            used = (uint64_t)v[field] * (uint64_t)ps;
        fclose(fp);
    }
    uint64_t lim = (uint64_t)rl.rlim_cur;
    return lim > used ? (lim - used) / 2 : 0;
}

/* ------------------------------------------------------------------------ */
/* External mode: a rank's share exceeds --memory (and there are more than
 * FSH_RECORDS_SMALL lines). The ranks read their records in chunks of at
 * most --memory / 4 bytes, one bucket exchange per chunk (every rank takes
 * part in every round, with an empty chunk when done); each receiver
 * appends what it gets, tagged (bucket id, source rank), to the unnamed
 * temporary file of the group of buckets the id falls in. Then each group
 * is loaded, put back in global input order (a stable sort by source rank:
 * all of a source's records precede the next source's, and rounds keep
 * each source's order), shuffled with fsh_records_shuffle_group and
 * written. Same output as in memory.                                     */

typedef struct chunker {
    files *f;
    piece *pc;
    size_t npc, k;
    uint64_t off;
    char delim;
    size_t max;
} chunker;

/* The next chunk of whole records (at most c->max bytes, unless one record
   is longer). 1 with records, 0 at the end, -1 after a message. */
static int chunk_next(chunker *c, fshm_recs *r)
{
    memset(r, 0, sizeof *r);
    r->owned = 1;
    while (c->k < c->npc && c->off >= c->pc[c->k].hi) {
        c->k++;
        if (c->k < c->npc)
            c->off = c->pc[c->k].lo;
    }
    if (c->k >= c->npc)
        return 0;
    const piece *p = &c->pc[c->k];
    const char *name = c->f->name[p->file];
    int fd = open_input(c->f, p->file);
    if (fd < 0)
        return -1;
    uint64_t want = p->hi - c->off;
    size_t have = 0, cap = want < c->max ? (size_t)want : c->max, use = 0;
    unsigned char *buf = NULL;
    for (;;) {
        unsigned char *nb = realloc(buf, cap + 1);
        if (nb == NULL) {
            msg("memory exhausted");
            goto fail;
        }
        buf = nb;
        while (have < cap) {
            ssize_t got = pread(fd, buf + have, cap - have,
                                (off_t)(c->off + have));
            if (got <= 0) {
                msg("%s: %s", quotef(name),
                    got < 0 ? strerror(errno) : "file shrank as we read it");
                goto fail;
            }
            have += (size_t)got;
        }
        if (c->off + cap >= p->hi) {
            use = cap;
            break;
        }
        const unsigned char *q = memrchr(buf, c->delim, cap);
        if (q != NULL) {
            use = (size_t)(q - buf) + 1;
            break;
        }
        /* One record longer than the chunk: read on. */
        cap = want - cap < cap ? (size_t)want : 2 * cap;
    }
    if (close_input(c->f, p->file, fd) != 0) {
        free(buf);
        return -1;
    }
    c->off += use;
    if (c->off == p->hi && p->add_delim && buf[use - 1] != c->delim) {
        buf[use++] = (unsigned char)c->delim;
    } else if (buf[use - 1] != c->delim) {
        /* A piece ends after a delimiter, unless it ends its file. */
        msg("%s: file changed as we read it", quotef(name));
        free(buf);
        return -1;
    }
    r->data = buf;
    r->bytes = use;
    int sl = set_lens(r, c->delim);
    if (sl != 0) {
        msg(sl == -1 ? "memory exhausted" : "an input changed as we read it");
        return -1;
    }
    return 1;
fail:
    close(fd);
    free(buf);
    return -1;
}

/* An unnamed temporary in dir (or a named one, unlinked at once). */
static FILE *ext_temp(const char *dir)
{
    int fd = -1;
#ifdef O_TMPFILE
    fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
    if (fd < 0) {
        char name[4096];
        snprintf(name, sizeof name, "%s/.fairshuf-mpi.XXXXXX", dir);
        fd = mkstemp(name);
        if (fd >= 0)
            unlink(name);
    }
    if (fd < 0) {
        msg("%s: %s", quotef(dir), strerror(errno));
        return NULL;
    }
    FILE *fp = fdopen(fd, "w+");
    if (fp == NULL) {
        msg("%s: %s", quotef(dir), strerror(errno));
        close(fd);
    }
    return fp;
}

typedef struct xgroups {
    FILE **fp;
    uint32_t G, lo, nb;
    uint8_t key[32];
    unsigned threads;
    const char *dir;
} xgroups;

typedef struct xtag {
    uint32_t bucket, src;
    uint64_t len;
} xtag;

/* Group g's records, in global input order, shuffled: the group's stretch
   of the output. */
static int ext_load(xgroups *x, uint32_t g, fshm_recs *r)
{
    memset(r, 0, sizeof *r);
    r->owned = 1;
    FILE *fp = x->fp[g];
    if (fflush(fp) != 0 || fseeko(fp, 0, SEEK_END) != 0) {
        msg("%s: temporary file: %s", quotef(x->dir), strerror(errno));
        return -1;
    }
    off_t sz = ftello(fp);
    rewind(fp);
    unsigned char *raw = malloc(sz > 0 ? (size_t)sz : 1);
    if (raw == NULL || (sz > 0 && fread(raw, 1, (size_t)sz, fp) != (size_t)sz)) {
        msg("%s: temporary file: %s", quotef(x->dir),
            raw == NULL ? "memory exhausted" : strerror(errno));
        free(raw);
        return -1;
    }
    size_t n = 0;
    for (off_t at = 0; at < sz; n++) {
        xtag t;
        memcpy(&t, raw + at, sizeof t);
        at += (off_t)(sizeof t + t.len);
    }
    uint32_t *ids = malloc((n ? n : 1) * sizeof *ids);
    uint32_t *src = malloc((n ? n : 1) * sizeof *src);
    uint64_t *idx = malloc((n ? n : 1) * sizeof *idx);
    size_t *cnt = calloc((size_t)np + 1, sizeof *cnt);
    r->len = malloc((n ? n : 1) * sizeof *r->len);
    r->data = malloc(sz > 0 ? (size_t)sz : 1);
    int rc = -1;
    if (!ids || !src || !idx || !cnt || !r->len || !r->data) {
        msg("memory exhausted");
        goto out;
    }
    uint64_t b = 0;
    off_t at = 0;
    for (size_t i = 0; i < n; i++) {
        xtag t;
        memcpy(&t, raw + at, sizeof t);
        at += (off_t)sizeof t;
        memcpy(r->data + b, raw + at, (size_t)t.len);
        at += (off_t)t.len;
        b += t.len;
        r->len[i] = t.len;
        ids[i] = t.bucket;
        src[i] = t.src;
        cnt[t.src + 1]++;
    }
    free(raw);
    raw = NULL;
    r->n = n;
    r->bytes = b;
    /* Stable by source rank: global input order within each bucket. */
    for (int q = 0; q < np; q++)
        cnt[q + 1] += cnt[q];
    for (size_t i = 0; i < n; i++)
        idx[cnt[src[i]]++] = i;
    for (size_t i = 0; i < n; i++)
        src[i] = ids[idx[i]];
    if (fshm_apply(r, idx) != FSH_OK) {
        msg("memory exhausted");
        goto out;
    }
    uint32_t glo = x->lo + (uint32_t)(((uint64_t)g * x->nb + x->G - 1) / x->G);
    uint32_t ghi = x->lo + (uint32_t)(((uint64_t)(g + 1) * x->nb + x->G - 1) / x->G);
    if (n > 0 && fshm_key_group(x->key, r, src, glo, ghi - glo, x->threads) !=
                     FSH_OK) {
        msg("memory exhausted");
        goto out;
    }
    rc = 0;
out:
    free(raw);
    free(ids);
    free(src);
    free(idx);
    free(cnt);
    return rc;
}

static _Noreturn void run_external(const opts *o, files *f, piece *pc,
                                   size_t npc, fsh_rng *rng,
                                   const char *report, double t0)
{
    size_t cmax = (size_t)(o->memory / 4 > 4096 ? o->memory / 4 : 4096);
    chunker c = {f, pc, npc, 0, npc ? pc[0].lo : 0, o->delim, cmax};
    /* Count pass. */
    uint64_t n = 0;
    fshm_recs r;
    int st;
    while ((st = chunk_next(&c, &r)) == 1) {
        n += r.n;
        fshm_recs_free(&r);
    }
    agree_or_exit(st < 0);
    uint64_t first = 0, N = 0;
    if (MPI_Exscan(&n, &first, 1, MPI_UINT64_T, MPI_SUM, M.comm) !=
            MPI_SUCCESS ||
        MPI_Allreduce(&n, &N, 1, MPI_UINT64_T, MPI_SUM, M.comm) != MPI_SUCCESS)
        comm_failed();
    if (rank == 0)
        first = 0;
    uint64_t H = o->header < N ? o->header : N, Nb = N - H;
    if (Nb <= FSH_RECORDS_SMALL) {
        if (rank == 0)
            msg("--memory=%llu%s is too small for this input, and external "
                "mode needs more than %llu lines",
                (unsigned long long)o->memory,
                o->memory_default ? " (the default here: see ulimit -v, -d)"
                                  : "",
                (unsigned long long)FSH_RECORDS_SMALL);
        finish(1);
    }
    xgroups x;
    memset(&x, 0, sizeof x);
    x.threads = o->threads;
    x.dir = o->tmpdir;
    int rc = fshm_draw_key(&M, rng, x.key);
    if (rc != FSH_OK) {
        msg("%s", fsh_mpi_strerror(rc));
        finish(1);
    }
    unsigned bits = fsh_records_bits(Nb);
    fshm_bucket_range(&M, bits, &x.lo, &x.nb);
    uint64_t total = 0;
    for (size_t i = 0; i < f->n; i++)
        total += f->size[i];
    /* Expected bytes received, doubled, in groups of a quarter of the
       budget each. */
    uint64_t expect = 2 * (total / (uint64_t)np + 24 * (Nb / (uint64_t)np));
    uint64_t G = expect / (o->memory / 4 ? o->memory / 4 : 1) + 1;
    x.G = (uint32_t)(G < x.nb ? G : x.nb);
    int failed = 0;
    x.fp = calloc(x.G + 1, sizeof *x.fp);
    for (uint32_t g = 0; x.fp && g < x.G && !failed; g++) {
        if ((x.fp[g] = ext_temp(x.dir)) == NULL)
            failed = 1;
        else
            setvbuf(x.fp[g], NULL, _IOFBF, 1 << 18);
    }
    agree_or_exit(failed || x.fp == NULL);
    /* Rounds. */
    chunker c2 = {f, pc, npc, 0, npc ? pc[0].lo : 0, o->delim, cmax};
    fsh_mpi_info info;
    memset(&info, 0, sizeof info);
    info.records = Nb;
    info.bits = bits;
    char *hb = NULL;
    uint64_t hlen = 0, done = 0, rn = 0, rbytes = 0;
    uint64_t *from = calloc((size_t)np, sizeof *from);
    agree_or_exit(from == NULL);
    for (;;) {
        st = chunk_next(&c2, &r);
        if (st == 0) {
            r.data = malloc(1);
            r.len = malloc(sizeof *r.len);
        }
        int v[2] = {st == 1, st < 0 || r.data == NULL || r.len == NULL};
        if (MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_INT, MPI_MAX, M.comm) !=
            MPI_SUCCESS)
            comm_failed();
        if (v[1])
            finish(1);
        if (!v[0]) {
            fshm_recs_free(&r);
            break;
        }
        /* Header records first (global index < H). */
        size_t hl = 0;
        uint64_t hbytes = 0;
        while (hl < r.n && first + done + hl < H)
            hbytes += r.len[hl++];
        if (hl > 0) {
            char *t = realloc(hb, hlen + hbytes);
            agree_or_exit(t == NULL);
            hb = t;
            memcpy(hb + hlen, r.data, (size_t)hbytes);
            hlen += hbytes;
            memmove(r.data, r.data + hbytes, (size_t)(r.bytes - hbytes));
            memmove(r.len, r.len + hl, (r.n - hl) * sizeof *r.len);
            r.bytes -= hbytes;
            r.n -= hl;
        } else {
            agree_or_exit(0);
        }
        uint32_t *ids = malloc((r.n ? r.n : 1) * sizeof *ids);
        agree_or_exit(ids == NULL ||
                      fsh_records_buckets(x.key, ids, r.n, bits,
                                          first + done + hl - H) != FSH_OK);
        done += r.n + hl;
        fshm_recs got;
        uint32_t *gt = NULL;
        rc = fshm_route_buckets(&M, &r, ids, bits, &got, &gt, from, &info);
        free(ids);
        fshm_recs_free(&r);
        if (rc != FSH_OK) {
            msg("%s", fsh_mpi_strerror(rc));
            finish(1);
        }
        uint64_t at = 0;
        size_t j = 0;
        for (int q = 0; q < np; q++)
            for (uint64_t e = 0; e < from[q]; e++, j++) {
                xtag t = {gt[j], (uint32_t)q, got.len[j]};
                uint32_t g = (uint32_t)((uint64_t)(gt[j] - x.lo) * x.G / x.nb);
                if (!failed &&
                    (fwrite(&t, sizeof t, 1, x.fp[g]) != 1 ||
                     fwrite(got.data + at, 1, (size_t)t.len, x.fp[g]) !=
                         (size_t)t.len)) {
                    msg("%s: temporary file: %s", quotef(x.dir), strerror(errno));
                    failed = 1;
                }
                at += t.len;
            }
        rn += got.n;
        rbytes += got.bytes;
        free(gt);
        fshm_recs_free(&got);
        agree_or_exit(failed);
    }
    free(pc);
    if (report)
        print_peak("external rounds", t0, &info, n);
    /* The header, to every rank. */
    int htot;
    char *hdr = gather_header(hb, hlen, &htot);
    free(hb);
    free(from);
    /* -n: this rank keeps its first keep records. */
    uint64_t ostart = 0, keep = rn, obytes = rbytes;
    if (MPI_Exscan(&rn, &ostart, 1, MPI_UINT64_T, MPI_SUM, M.comm) !=
        MPI_SUCCESS)
        comm_failed();
    if (rank == 0)
        ostart = 0;
    if (o->head_set)
        keep = ostart >= o->head ? 0 : o->head - ostart < rn ? o->head - ostart : rn;
    if (keep < rn) { /* the bytes of the first keep records */
        obytes = 0;
        uint64_t left = keep;
        for (uint32_t g = 0; g < x.G && left > 0 && !failed; g++) {
            fshm_recs gr;
            if (ext_load(&x, g, &gr) != 0) {
                failed = 1;
                break;
            }
            for (size_t i = 0; i < gr.n && left > 0; i++, left--)
                obytes += gr.len[i];
            fshm_recs_free(&gr);
        }
    }
    agree_or_exit(failed);
    sink k;
    sink_open(&k, o, obytes, hdr, (uint64_t)htot);
    free(hdr);
    uint64_t left = keep;
    for (uint32_t g = 0; g < x.G && left > 0 && !failed; g++) {
        fshm_recs gr;
        if (ext_load(&x, g, &gr) != 0) {
            failed = 1;
            break;
        }
        uint64_t b = 0;
        size_t i = 0;
        for (; i < gr.n && left > 0; i++, left--)
            b += gr.len[i];
        sink_write(&k, gr.data, b);
        fshm_recs_free(&gr);
    }
    k.failed |= failed;
    sink_close(&k, o);
    for (uint32_t g = 0; g < x.G; g++)
        fclose(x.fp[g]);
    free(x.fp);
    if (report)
        print_peak("done", t0, &info, n);
    finish(0);
}

int main(int argc, char **argv)
{
    /* As fairshuf: the locale decides the quotes in messages (cli/common's
       quote and quotef, which both commands link) and the printable
       multibyte characters in file names. */
    setlocale(LC_ALL, "");
    int prov;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &prov) !=
        MPI_SUCCESS) {
        fprintf(stderr, "%s: MPI_Init failed\n", prog);
        return 1;
    }
    struct timespec ts0;
    clock_gettime(CLOCK_MONOTONIC, &ts0);
    double t0 = (double)ts0.tv_sec + (double)ts0.tv_nsec * 1e-9;
    if (fshm_open(&M, MPI_COMM_WORLD) != FSH_OK) {
        fprintf(stderr, "%s: cannot set up MPI\n", prog);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    rank = M.rank;
    np = M.np;
    MPI_Comm node;
    if (MPI_Comm_split_type(M.comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL,
                            &node) == MPI_SUCCESS) {
        int low = rank;
        if (MPI_Comm_size(node, &node_np) != MPI_SUCCESS || node_np < 1)
            node_np = 1;
        if (MPI_Allreduce(&rank, &low, 1, MPI_INT, MPI_MIN, node) ==
            MPI_SUCCESS)
            node_has0 = low == 0;
        node_thr = node_threads(node, node_np, &node_cpus);
        MPI_Comm_free(&node);
    } else {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        node_thr = c < 1 ? 1 : c > 16 ? 16 : (unsigned)c;
    }
    /* cli/io's messages: "fairshuf-mpi: rank R: ...", as this file's. */
    static char pname[64];
    snprintf(pname, sizeof pname, "%s: rank %d", prog, rank);
    program_name = pname;
    /* cli/io's handlers (every signal that ends the process removes the
       output temporaries), then ours for the signals mpirun sends, which
       also say why the rank stops. */
    install_cleanup_handlers();
    stop_signals(on_signal);
    signal(SIGPIPE, SIG_IGN);

    /* The same arguments on every rank. */
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int i = 1; i < argc; i++)
        h = fshm_digest(argv[i], strlen(argv[i]) + 1, h);
    h = fshm_digest(&argc, sizeof argc, h);
    /* And the same message size limit (FSH_MPI_TEST_CHUNK): ranks cutting
       the exchange into other pieces post receives that do not match the
       sends (an MPI error or worse). */
    int st;
    const char *what = "arguments";
    if (fshm_same(&M, h, &st) == FSH_OK) {
        what = "FSH_MPI_TEST_CHUNK values";
        fshm_same(&M, (uint64_t)M.chunk, &st);
    }
    if (st != FSH_OK) {
        if (rank == 0 || st != FSH_MPI_EMISMATCH) {
            if (st == FSH_MPI_EMISMATCH)
                msg("the ranks were given different %s", what);
            else
                msg("MPI communication failed");
        }
        finish(1);
    }
    opts o;
    char err[512] = "";
    int pr = parse(&o, argc, argv, err, sizeof err);
    if (pr == 2 || pr == 3) {
        if (rank == 0) {
            if (pr == 2)
                usage(stdout);
            else
                printf("%s (fairshuf) %d.%d.%d\n", prog, FSH_VERSION_MAJOR,
                       FSH_VERSION_MINOR, FSH_VERSION_PATCH);
        }
        finish(0);
    }
    if (pr != 0) {
        if (rank == 0) {
            if (err[0] != '\0')
                fprintf(stderr, "%s: %s\n", prog, err);
            fprintf(stderr, "Try '%s --help' for more information.\n", prog);
        }
        finish(1);
    }
    const char *report = getenv("FSH_MPI_REPORT"); /* measurements */
    const char *memory_from = "";
    if (report) {
        if (o.threads != 0)
            msg("threads: %u (--threads)", o.threads);
        else
            msg("threads: %u (the default: its share of %u usable CPUs, %d "
                "ranks on the node)", node_thr, node_cpus, node_np);
    }
    if (o.threads == 0)
        o.threads = node_thr;

    /* Inputs: rank 0 lists, every rank reads its byte range. */
    files f;
    memset(&f, 0, sizeof f);
    agree_or_exit(rank == 0 && list_inputs(&o, &f) != 0);
    bcast_files(&f);
    /* This rank's pieces of the inputs; every rank reads what rank 0
       measured. */
    piece *pc = NULL;
    size_t npc = 0;
    uint64_t pb = 0;
    agree_or_exit(plan_pieces(&f, o.delim, &pc, &npc, &pb) != 0);
    verify_inputs(&f, pc, npc);
    test_pause("plan");
    /* --memory: count this rank's lines; if a rank would need more (its
       input, a send copy, a receive copy, and 48 bytes per line of
       lengths, tags and indices), every rank goes external. */
    if (o.memory == 0) {
        /* Default: half the node's memory, shared by the ranks on it, and
           at most half the room left under this rank's limits on its
           address space and data (ulimit -v, -d, as batch systems set per
           job): beyond those an allocation fails where external mode
           would have fitted. */
        uint64_t m = UINT64_MAX, r;
        long pages = sysconf(_SC_PHYS_PAGES), ps = sysconf(_SC_PAGESIZE);
        if (pages > 0 && ps > 0) {
            m = (uint64_t)pages * (uint64_t)ps / 2 / (uint64_t)node_np;
            memory_from = "the node's RAM";
        }
        if ((r = limit_room(RLIMIT_AS, 0)) < m) {
            m = r;
            memory_from = "ulimit -v";
        }
        if ((r = limit_room(RLIMIT_DATA, 5)) < m) {
            m = r;
            memory_from = "ulimit -d";
        }
        o.memory = m == UINT64_MAX ? 0 : m > 0 ? m : 1;
        o.memory_default = 1;
    }
    if (report)
        msg("memory: %llu bytes (%s%s)", (unsigned long long)o.memory,
            o.memory == 0 ? "no limit"
            : o.memory_default ? "the default, from " : "--memory",
            o.memory != 0 && o.memory_default ? memory_from : "");
    if (o.memory) {
        uint64_t cn = 0;
        /* Lines have at least one byte: count them only when that bound
           does not already fit. */
        int cs = 0;
        if (51 * pb > o.memory) {
            /* Chunks of a quarter of --memory, as external mode's (at most
               16 MiB): 16 MiB ones, with 8 bytes of length per line, made
               a rank's peak grow with its share whatever --memory said. */
            uint64_t cq = o.memory / 4 < ((uint64_t)1 << 24)
                              ? o.memory / 4 : (uint64_t)1 << 24;
            chunker c = {&f, pc, npc, 0, npc ? pc[0].lo : 0, o.delim,
                         (size_t)(cq > 4096 ? cq : 4096)};
            fshm_recs cr;
            while ((cs = chunk_next(&c, &cr)) == 1) {
                cn += cr.n;
                fshm_recs_free(&cr);
            }
        }
        agree_or_exit(cs < 0);
        int ext = 3 * pb + 48 * cn > o.memory;
        if (MPI_Allreduce(MPI_IN_PLACE, &ext, 1, MPI_INT, MPI_MAX, M.comm) !=
            MPI_SUCCESS)
            comm_failed();
        if (ext) {
            fsh_rng *xr = NULL;
            if (o.seed != NULL)
                agree_or_exit(
                    fsh_rng_new_seeded(&xr, o.seed, strlen(o.seed)) != FSH_OK ||
                    fsh_rng_set_simulation(xr, 1) != FSH_OK);
            run_external(&o, &f, pc, npc, xr, report, t0);
        }
    }
    fshm_recs in;
    agree_or_exit(read_mine(&f, o.delim, pc, npc, pb, &in) != 0);
    free(pc);

    test_pause("read");

    /* Global indices; the header records. */
    uint64_t n = in.n, first = 0, N = 0;
    if (MPI_Exscan(&n, &first, 1, MPI_UINT64_T, MPI_SUM, M.comm) !=
            MPI_SUCCESS ||
        MPI_Allreduce(&n, &N, 1, MPI_UINT64_T, MPI_SUM, M.comm) != MPI_SUCCESS)
        comm_failed();
    if (rank == 0)
        first = 0;
    uint64_t H = o.header < N ? o.header : N;
    size_t hl = first >= H ? 0 : (size_t)(H - first < n ? H - first : n);
    uint64_t hbytes = 0;
    for (size_t i = 0; i < hl; i++)
        hbytes += in.len[i];
    /* The header, gathered on rank 0 then sent to all (shards repeat it). */
    int htot;
    char *hdr = gather_header(in.data, hbytes, &htot);
    /* The body, owned, so the exchange frees it once packed. */
    if (hl > 0) {
        memmove(in.data, in.data + hbytes, (size_t)(in.bytes - hbytes));
        memmove(in.len, in.len + hl, (in.n - hl) * sizeof *in.len);
    }
    fshm_recs body = {in.data, in.n - hl, 0, in.len, in.bytes - hbytes, 1,
                      1, NULL};
    in.owned = 0;
    uint64_t bfirst = first + hl - H, Nb = N - H;
    if (first + hl < H)
        bfirst = 0; /* no body records here */

    /* The permutation. */
    fsh_rng *rng = NULL;
    if (o.seed != NULL) {
        agree_or_exit(fsh_rng_new_seeded(&rng, o.seed, strlen(o.seed)) !=
                          FSH_OK ||
                      fsh_rng_set_simulation(rng, 1) != FSH_OK);
    }
    fshm_recs out;
    fsh_mpi_info info;
    int rc = fshm_shuffle(&M, rng, &body, bfirst, Nb, o.threads, 0, &out,
                          &info);
    fsh_rng_free(rng);
    fshm_recs_free(&body);
    if (rc != FSH_OK) {
        msg("%s", fsh_mpi_strerror(rc));
        finish(1);
    }
    if (report)
        print_peak("shuffled", t0, &info, n);

    /* -n: the first COUNT records of the output. */
    uint64_t on = out.n, ostart = 0, keep = out.n, obytes = 0;
    if (MPI_Exscan(&on, &ostart, 1, MPI_UINT64_T, MPI_SUM, M.comm) !=
        MPI_SUCCESS)
        comm_failed();
    if (rank == 0)
        ostart = 0;
    if (o.head_set)
        keep = ostart >= o.head ? 0 : o.head - ostart < on ? o.head - ostart : on;
    for (uint64_t i = 0; i < keep; i++)
        obytes += out.len[out.order ? out.order[i] : i];

    sink k;
    sink_open(&k, &o, obytes, hdr, (uint64_t)htot);
    sink_recs(&k, &out, keep, obytes);
    sink_close(&k, &o);
    if (report)
        print_peak("done", t0, &info, n);
    fshm_recs_free(&out);
    free(hdr);
    finish(0);
}
