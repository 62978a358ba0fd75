/* Large inputs: --memory, external mode over temporary files, the bucket
 * scatter that defines the permutation of more than FSH_FILESHUF_SMALL
 * records, --threads and --progress.
 *
 * The permutation depends on the record count N and the key only:
 * - N <= FSH_FILESHUF_SMALL: backward Fisher-Yates of the N records with
 *   the run's rng (the same draws as part A's in-memory shuffle);
 * - larger: fsh_fileshuf_* (bucket ids from ChaCha20 stream 0, bucket b
 *   shuffled with stream b + 1), the key being the rng's first 32 bytes.
 * In memory, record offsets are permuted directly. External mode counts
 * the records (a pipe is first copied to a spool file), then pass 1 writes
 * each record, prefixed by a 32-bit tag, to the temporary file of its
 * group, and pass 2 loads each group, orders it and writes it out:
 * - small N: group = a range of output positions, tag = position in it;
 * - large N: group = the high bits of the bucket id, tag = bucket id.
 * Temporary files are unlinked as soon as they are created, so they vanish
 * on success, error, signal or crash alike.
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

uint64_t big_memory;
const char *big_tmpdir;
unsigned big_threads;
int big_progress = -1;
char *hdr_buf;
size_t hdr_len;

/* ------------------------------------------------------------------------ */
/* Default --memory                                                         */

/* The whole of a small file (at most cap - 1 bytes), or NULL. */
static char *slurp(const char *path, size_t cap)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    char *buf = xmalloc(cap);
    size_t len = 0;
    for (;;) {
        ssize_t r = read(fd, buf + len, cap - 1 - len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        len += (size_t)r;
        if (len == cap - 1)
            break;
    }
    close(fd);
    buf[len] = '\0';
    return buf;
}

/* A limit file's value ("max" or garbage: none, UINT64_MAX). */
static uint64_t limit_value(const char *path)
{
    char *t = slurp(path, 64);
    uint64_t v = UINT64_MAX;
    if (t != NULL && t[0] >= '0' && t[0] <= '9') {
        char *end;
        unsigned long long x = strtoull(t, &end, 10);
        if (*end == '\n' || *end == '\0')
            v = (uint64_t)x;
    }
    free(t);
    return v;
}

/* The least memory limit on the way from the cgroup to the root of the
   hierarchy mounted at mnt (mount root mroot): file name lim in each. */
static uint64_t cgroup_walk(const char *mnt, const char *mroot,
                            const char *cg, const char *lim)
{
    size_t rl = strlen(mroot);
    if (strcmp(mroot, "/") == 0)
        rl = 0;
    else if (strncmp(cg, mroot, rl) != 0 || (cg[rl] != '/' && cg[rl] != '\0'))
        return UINT64_MAX; /* our cgroup is not under this mount */
    const char *rel = cg + rl;
    size_t n = strlen(mnt) + strlen(rel) + strlen(lim) + 3;
    char *path = xmalloc(n);
    uint64_t least = UINT64_MAX;
    size_t keep = strlen(rel);
    for (;;) {
        while (keep > 0 && rel[keep - 1] == '/')
            keep--;
        snprintf(path, n, "%s%.*s/%s", mnt, (int)keep, rel, lim);
        uint64_t v = limit_value(path);
        if (v < least)
            least = v;
        if (keep == 0)
            break;
        while (keep > 0 && rel[keep - 1] != '/')
            keep--;
    }
    free(path);
    return least;
}

/* The cgroup memory limit of this process: v2 memory.max or v1
   memory.limit_in_bytes of its cgroup (from /proc/self/cgroup) and of every
   ancestor visible in /proc/self/mountinfo; UINT64_MAX when none. */
static uint64_t cgroup_limit(void)
{
    char *cgs = slurp("/proc/self/cgroup", 1 << 16);
    char *mi = slurp("/proc/self/mountinfo", 1 << 20);
    uint64_t least = UINT64_MAX;
    if (cgs == NULL || mi == NULL)
        goto out;
    const char *v2 = NULL, *v1 = NULL; /* cgroup paths */
    for (char *l = cgs, *next; l != NULL && *l != '\0'; l = next) {
        next = strchr(l, '\n');
        if (next != NULL)
            *next++ = '\0';
        char *c1 = strchr(l, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (c2 == NULL)
            continue;
        *c2 = '\0';
        if (strcmp(l, "0:") == 0)
            v2 = c2 + 1;
        for (char *tok = c1 + 1, *sp; tok != NULL; tok = sp) {
            sp = strchr(tok, ',');
            if (sp != NULL)
                *sp++ = '\0';
            if (strcmp(tok, "memory") == 0)
                v1 = c2 + 1;
        }
    }
    /* mountinfo: ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS... - TYPE SRC SUPER */
    for (char *l = mi, *next; l != NULL && *l != '\0'; l = next) {
        next = strchr(l, '\n');
        if (next != NULL)
            *next++ = '\0';
        char *f[5];
        char *p = l;
        int k = 0;
        for (; k < 5 && p != NULL; k++) {
            f[k] = p;
            p = strchr(p, ' ');
            if (p != NULL)
                *p++ = '\0';
        }
        char *dash = p != NULL ? strstr(p, " - ") : NULL;
        if (k < 5 || dash == NULL)
            continue;
        char *type = dash + 3, *src = strchr(type, ' ');
        char *super = src != NULL ? strchr(src + 1, ' ') : NULL;
        if (src == NULL)
            continue;
        *src = '\0';
        if (strcmp(type, "cgroup2") == 0 && v2 != NULL) {
            uint64_t v = cgroup_walk(f[4], f[3], v2, "memory.max");
            least = v < least ? v : least;
        } else if (strcmp(type, "cgroup") == 0 && v1 != NULL &&
                   super != NULL) {
            int mem = 0;
            for (char *tok = super + 1, *sp; tok != NULL; tok = sp) {
                sp = strchr(tok, ',');
                if (sp != NULL)
                    *sp++ = '\0';
                mem |= strcmp(tok, "memory") == 0;
            }
            if (mem) {
                uint64_t v = cgroup_walk(f[4], f[3], v1,
                                         "memory.limit_in_bytes");
                least = v < least ? v : least;
            }
        }
    }
out:
    free(cgs);
    free(mi);
    return least;
}

/* The default --memory: the least of half of physical memory, half of the
   cgroup memory limit, and a third of the address-space and data-segment
   limits (RLIMIT_AS, RLIMIT_DATA) after 64 MiB for the program itself.
   Those limits count address space, which runs ahead of resident memory
   (buffers grown by doubling, thread stacks, the in-memory mode's offset
   arrays on top of the data), hence the third; at least 4 MiB. */
static uint64_t default_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    uint64_t m = pages > 0 && psize > 0
                     ? (uint64_t)pages * (uint64_t)psize / 2
                     : (uint64_t)1 << 30;
    uint64_t cg = cgroup_limit();
    if (cg != UINT64_MAX && cg / 2 < m)
        m = cg / 2;
    /* Named one by one: glibc's resource type is an enum, and clang's
       -Wsign-conversion rejects an int array of them. */
    struct rlimit rl[2];
    int got[2] = {getrlimit(RLIMIT_AS, &rl[0]) == 0,
                  getrlimit(RLIMIT_DATA, &rl[1]) == 0};
    for (size_t i = 0; i < 2; i++) {
        if (!got[i] || rl[i].rlim_cur == RLIM_INFINITY)
            continue;
        uint64_t v = (uint64_t)rl[i].rlim_cur;
        uint64_t own = (uint64_t)64 << 20;
        v = v > own ? (v - own) / 3 : 0;
        if (v < m)
            m = v;
    }
    uint64_t floor = (uint64_t)4 << 20;
    return m > floor ? m : floor;
}

void big_defaults(void)
{
    big_memory = default_memory();
    const char *t = getenv("TMPDIR");
    big_tmpdir = t != NULL && *t != '\0' ? t : "/tmp";
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    big_threads = cpus < 1 ? 1u : cpus > 16 ? 16u : (unsigned)cpus;
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

size_t header_bytes(const char *buf, size_t size, char delim, uint64_t h)
{
    size_t at = 0;
    for (uint64_t i = 0; i < h && at < size; i++) {
        const char *e = memchr(buf + at, delim, size - at);
        at = e != NULL ? (size_t)(e - buf) + 1 : size;
    }
    return at;
}

/* ------------------------------------------------------------------------ */
/* Progress                                                                 */

static struct {
    int on, forced, shown;
    double t0, last;
} pg;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_start(void)
{
    pg.forced = big_progress == 1;
    pg.on = pg.forced || (big_progress == -1 && isatty(STDERR_FILENO));
    pg.t0 = now();
    pg.last = 0;
}

void progress(const char *phase, uint64_t done, uint64_t total)
{
    if (!pg.on)
        return;
    double t = now();
    /* Unasked, only runs longer than a second get a bar. */
    if (!pg.forced && t - pg.t0 < 1.0)
        return;
    if (t - pg.last < 0.2 && done != total)
        return;
    pg.last = t;
    unsigned pct = total ? (unsigned)(done * 100 / total) : 100;
    char bar[21];
    for (unsigned i = 0; i < 20; i++)
        bar[i] = i < pct / 5 ? '#' : '.';
    bar[20] = '\0';
    fprintf(stderr, "\r%s: %-10s [%s] %3u%% %.1fs", program_name, phase, bar,
            pct, t - pg.t0);
    fflush(stderr);
    pg.shown = 1;
}

void progress_note(const char *fmt, ...)
{
    if (!pg.on || (!pg.forced && now() - pg.t0 < 1.0))
        return;
    va_list ap;
    va_start(ap, fmt);
    if (pg.shown)
        fputc('\n', stderr);
    pg.shown = 0;
    fprintf(stderr, "%s: ", program_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void progress_end(void)
{
    if (pg.shown)
        fputc('\n', stderr);
    pg.shown = 0;
}

/* ------------------------------------------------------------------------ */
/* Threads                                                                  */

typedef struct pool {
    void (*fn)(void *ctx, size_t i);
    void *ctx;
    size_t n;
    atomic_size_t next;
} pool;

static void *worker(void *arg)
{
    pool *p = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&p->next, 1);
        if (i >= p->n)
            break;
        p->fn(p->ctx, i);
    }
    return NULL;
}

void parallel_for(size_t n, void (*fn)(void *ctx, size_t i), void *ctx)
{
    pool p;
    p.fn = fn;
    p.ctx = ctx;
    p.n = n;
    atomic_init(&p.next, 0);
    size_t t = big_threads < n ? big_threads : n;
    pthread_t tid[16];
    size_t started = 0;
    for (; t > 1 && started < t - 1; started++)
        if (pthread_create(&tid[started], NULL, worker, &p) != 0)
            break;
    worker(&p);
    for (size_t i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
}

/* ------------------------------------------------------------------------ */
/* In-memory scatter                                                        */

#define ID_CHUNK 16384

typedef struct scat {
    const uint8_t *key;
    unsigned bits;
    size_t nb, parts, n, size;
    const unsigned char *src;
    unsigned char *dst;
    size_t *hist;  /* parts x nb: counts, then running positions */
    size_t *start; /* nb + 1 */
    int rc;
} scat;

static void scat_range(const scat *s, size_t t, size_t *lo, size_t *hi)
{
    *lo = s->n / s->parts * t + (t < s->n % s->parts ? t : s->n % s->parts);
    *hi = *lo + s->n / s->parts + (t < s->n % s->parts);
}

static void scat_count(void *ctx, size_t t)
{
    scat *s = ctx;
    size_t lo, hi, *h = s->hist + t * s->nb;
    uint32_t ids[ID_CHUNK];
    scat_range(s, t, &lo, &hi);
    for (size_t i = lo; i < hi; i += ID_CHUNK) {
        size_t m = hi - i < ID_CHUNK ? hi - i : ID_CHUNK;
        if (fsh_fileshuf_buckets(s->key, s->bits, i, ids, m) != FSH_OK)
            s->rc = FSH_EINVAL;
        for (size_t j = 0; j < m; j++)
            h[ids[j]]++;
    }
}

static void scat_place(void *ctx, size_t t)
{
    scat *s = ctx;
    size_t lo, hi, *h = s->hist + t * s->nb;
    uint32_t ids[ID_CHUNK];
    scat_range(s, t, &lo, &hi);
    for (size_t i = lo; i < hi; i += ID_CHUNK) {
        size_t m = hi - i < ID_CHUNK ? hi - i : ID_CHUNK;
        if (fsh_fileshuf_buckets(s->key, s->bits, i, ids, m) != FSH_OK)
            s->rc = FSH_EINVAL;
        if (s->size == 4) {
            const uint32_t *a = (const uint32_t *)(const void *)s->src + i;
            uint32_t *d = (uint32_t *)(void *)s->dst;
            for (size_t j = 0; j < m; j++)
                d[h[ids[j]]++] = a[j];
        } else {
            const uint64_t *a = (const uint64_t *)(const void *)s->src + i;
            uint64_t *d = (uint64_t *)(void *)s->dst;
            for (size_t j = 0; j < m; j++)
                d[h[ids[j]]++] = a[j];
        }
    }
}

static void scat_shuffle(void *ctx, size_t b)
{
    scat *s = ctx;
    int rc = fsh_fileshuf_bucket(s->key, b, s->dst + s->start[b] * s->size,
                                 s->start[b + 1] - s->start[b], s->size);
    if (rc != FSH_OK)
        s->rc = rc;
}

void *scatter_perm(const uint8_t key[32], void *a, size_t n, size_t size)
{
    scat s;
    memset(&s, 0, sizeof s);
    s.key = key;
    s.bits = fsh_fileshuf_bits(n);
    s.nb = (size_t)1 << s.bits;
    s.n = n;
    s.size = size;
    /* Deterministic whatever the split: stable placement per part. */
    s.parts = big_threads;
    while (s.parts > 1 && (s.parts * s.nb > ((size_t)1 << 23) ||
                           n / s.parts < ID_CHUNK))
        s.parts--;
    s.src = a;
    s.dst = xmalloc(n * size);
    s.hist = calloc(s.parts * s.nb, sizeof *s.hist);
    s.start = xmalloc((s.nb + 1) * sizeof *s.start);
    if (s.hist == NULL)
        xalloc_die();
    parallel_for(s.parts, scat_count, &s);
    size_t run = 0;
    for (size_t b = 0; b < s.nb; b++) {
        s.start[b] = run;
        for (size_t t = 0; t < s.parts; t++) {
            size_t c = s.hist[t * s.nb + b];
            s.hist[t * s.nb + b] = run;
            run += c;
        }
    }
    s.start[s.nb] = run;
    parallel_for(s.parts, scat_place, &s);
    free(a);
    free(s.hist);
    parallel_for(s.nb, scat_shuffle, &s);
    free(s.start);
    check_status(s.rc);
    return s.dst;
}

/* ------------------------------------------------------------------------ */
/* Temporary files                                                          */

static _Noreturn void tmp_die(int e, const char *what)
{
    die(e, "%s temporary file in %s", what, quotef(big_tmpdir));
}

int tmp_unlinked(void)
{
    int fd = open(big_tmpdir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0) {
        /* No O_TMPFILE here: a named file, unlinked with signals blocked
           so no handler can leave it behind. */
        size_t n = strlen(big_tmpdir) + 32;
        char *path = xmalloc(n);
        snprintf(path, n, "%s/fairshuf.XXXXXX", big_tmpdir);
        sigset_t all, old;
        sigfillset(&all);
        sigprocmask(SIG_BLOCK, &all, &old);
        fd = mkostemp(path, O_CLOEXEC);
        int e = errno;
        if (fd >= 0)
            unlink(path);
        sigprocmask(SIG_SETMASK, &old, NULL);
        free(path);
        errno = e;
    }
    if (fd >= 0 && fd <= STDERR_FILENO) {
        int d = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
        int e = errno;
        close(fd);
        errno = e;
        fd = d;
    }
    return fd;
}

/* tmp_unlinked, or die naming the directory. */
static int tmp_create(void)
{
    int fd = tmp_unlinked();
    if (fd < 0)
        tmp_die(errno, "cannot create");
    return fd;
}

static void tmp_flush(outw *w)
{
    if (out_flush(w) != 0)
        tmp_die(out_error(w), "write error on");
}

static void tmp_write(outw *w, const void *p, size_t n)
{
    if (out_write(w, p, n) != 0)
        tmp_die(out_error(w), "write error on");
}

/* Read all of fd from offset 0 into a buffer of size bytes (+ slack). */
static char *load_file(int fd, size_t size)
{
    char *buf = xmalloc(size + INBUF_SLACK);
    size_t got = 0;
    while (got < size) {
        ssize_t r = pread(fd, buf + got, size - got, (off_t)got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            tmp_die(r < 0 ? errno : EIO, "read error on");
        got += (size_t)r;
    }
    return buf;
}

/* ------------------------------------------------------------------------ */
/* Content hash                                                             */

/* External mode reads its input twice; both reads must see the same bytes.
   A 64-bit hash of every byte read (xxHash64's lane round over four lanes,
   then a final mix of the lanes, the tail and the length) tells an
   unchanged file from a changed one whatever the read sizes were. It is no
   defence against someone choosing a collision, only against accidents. */
#define H_P1 UINT64_C(11400714785074694791)
#define H_P2 UINT64_C(14029467366897019727)
#define H_P4 UINT64_C(9650029242287828579)
#define H_P5 UINT64_C(2870177450012600261)

typedef struct fhash {
    uint64_t v[4];
    unsigned char tail[32];
    size_t tlen;
    uint64_t total;
} fhash;

static uint64_t rotl64(uint64_t x, unsigned r)
{
    return x << r | x >> (64 - r);
}

static uint64_t load64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static uint64_t hround(uint64_t acc, uint64_t w)
{
    return rotl64(acc + w * H_P2, 31) * H_P1;
}

static void fhash_init(fhash *h)
{
    memset(h, 0, sizeof *h);
    h->v[0] = H_P1 + H_P2;
    h->v[1] = H_P2;
    h->v[3] = 0 - H_P1;
}

/* Whole 32-byte stripes p[0..n), n a multiple of 32. */
static void fhash_stripes(fhash *h, const unsigned char *p, size_t n)
{
    uint64_t v0 = h->v[0], v1 = h->v[1], v2 = h->v[2], v3 = h->v[3];
    for (; n >= 32; p += 32, n -= 32) {
        v0 = hround(v0, load64(p));
        v1 = hround(v1, load64(p + 8));
        v2 = hround(v2, load64(p + 16));
        v3 = hround(v3, load64(p + 24));
    }
    h->v[0] = v0;
    h->v[1] = v1;
    h->v[2] = v2;
    h->v[3] = v3;
}

static void fhash_update(fhash *h, const void *data, size_t n)
{
    const unsigned char *p = data;
    h->total += n;
    if (h->tlen > 0) {
        size_t take = 32 - h->tlen < n ? 32 - h->tlen : n;
        memcpy(h->tail + h->tlen, p, take);
        h->tlen += take;
        p += take;
        n -= take;
        if (h->tlen < 32)
            return;
        fhash_stripes(h, h->tail, 32);
        h->tlen = 0;
    }
    size_t whole = n & ~(size_t)31;
    fhash_stripes(h, p, whole);
    memcpy(h->tail, p + whole, n - whole);
    h->tlen = n - whole;
}

static uint64_t fhash_final(const fhash *h)
{
    uint64_t r = h->total * H_P5;
    for (int i = 0; i < 4; i++)
        r = rotl64(r ^ hround(0, h->v[i]), 27) * H_P1 + H_P4;
    size_t i = 0;
    for (; i + 8 <= h->tlen; i += 8)
        r = rotl64(r ^ hround(0, load64(h->tail + i)), 27) * H_P1 + H_P4;
    for (; i < h->tlen; i++)
        r = rotl64(r ^ h->tail[i] * H_P5, 11) * H_P1;
    r ^= r >> 33;
    r *= H_P2;
    r ^= r >> 29;
    return r ^ r >> 32;
}

/* ------------------------------------------------------------------------ */
/* Record reader over a file descriptor (large reads)                       */

typedef struct rdr {
    int fd;
    char delim;
    char *buf;
    size_t cap, start, end;
    int eof;
    uint64_t bytes; /* consumed so far */
    uint64_t raw;   /* read from fd so far */
    uint64_t left;  /* may still read from fd (end of input after that) */
    fhash *hash;    /* if not NULL, fed every byte read from fd */
} rdr;

static void rdr_init(rdr *r, int fd, char delim, uint64_t limit, fhash *h)
{
    memset(r, 0, sizeof *r);
    r->fd = fd;
    r->delim = delim;
    r->cap = (size_t)4 << 20;
    r->buf = xmalloc(r->cap + 1);
    r->left = limit;
    r->hash = h;
}

/* Next block of whole records buf[*a, *b), each ending with delim. */
static int rdr_block(rdr *r, const char **p, size_t *len)
{
    for (;;) {
        if (r->start < r->end) {
            char *last = memrchr(r->buf + r->start, r->delim,
                                 r->end - r->start);
            if (last != NULL) {
                size_t stop = (size_t)(last - r->buf) + 1;
                *p = r->buf + r->start;
                *len = stop - r->start;
                r->bytes += *len;
                r->start = stop;
                return 1;
            }
            if (r->eof) {
                r->buf[r->end++] = r->delim; /* room: cap + 1 */
                continue;
            }
        } else if (r->eof) {
            return 0;
        }
        if (r->start > 0) {
            memmove(r->buf, r->buf + r->start, r->end - r->start);
            r->end -= r->start;
            r->start = 0;
        }
        if (r->end == r->cap) {
            r->cap *= 2;
            r->buf = xrealloc(r->buf, r->cap + 1);
        }
        size_t want = r->cap - r->end;
        if (want > r->left)
            want = (size_t)r->left;
        ssize_t n = want > 0 ? read(r->fd, r->buf + r->end, want) : 0;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            die(errno, "read error");
        }
        if (n == 0) {
            r->eof = 1;
        } else {
            if (r->hash != NULL)
                fhash_update(r->hash, r->buf + r->end, (size_t)n);
            r->end += (size_t)n;
            r->raw += (uint64_t)n;
            r->left -= (uint64_t)n;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* External mode                                                            */

typedef struct ext {
    char delim;
    uint64_t n, bytes;   /* body records and their bytes */
    uint64_t raw;        /* bytes read from the input by the count pass */
    uint64_t hash;       /* their hash */
    int check;           /* the input is the user's file: check the hash */
    int small;           /* n <= FSH_FILESHUF_SMALL: position groups */
    uint8_t key[32];
    unsigned bits, gbits; /* bucket bits, group bits (large) */
    uint32_t *pos;       /* small: output position of each record */
    uint64_t gsize;      /* small: positions per group */
    size_t ngroups;
    int *gfd;
    outw **gw;
} ext;

static _Noreturn void input_changed(void)
{
    if (input_name != NULL)
        die(0, "%s: file changed as we read it", quotef(input_name));
    die(0, "standard input: file changed as we read it");
}

/* Pass 1: every body record, tagged, to its group's file. It reads exactly
   the bytes the count pass read and must find the same records in them
   (and, for the user's file, the same hash): otherwise the input changed
   in between and the run fails before any output is opened. */
static void ext_distribute(ext *x, int fd, uint64_t header)
{
    fhash h;
    fhash_init(&h);
    rdr r;
    rdr_init(&r, fd, x->delim, x->raw, x->check ? &h : NULL);
    const char *p;
    size_t len;
    uint64_t i = 0, skip = header;
    uint32_t ids[ID_CHUNK];
    size_t idn = 0, idat = 0;
    while (rdr_block(&r, &p, &len)) {
        const char *e = p + len;
        while (p < e) {
            const char *q = (const char *)memchr(p, x->delim,
                                                 (size_t)(e - p)) + 1;
            if (skip > 0) {
                skip--;
                p = q;
                continue;
            }
            uint32_t tag;
            size_t g;
            if (i == x->n)
                input_changed();
            if (x->small) {
                uint64_t ps = x->pos[i];
                g = (size_t)(ps / x->gsize);
                tag = (uint32_t)(ps % x->gsize);
            } else {
                if (idat == idn) {
                    idn = ID_CHUNK;
                    check_status(fsh_fileshuf_buckets(x->key, x->bits, i, ids, idn));
                    idat = 0;
                }
                tag = ids[idat++];
                g = tag >> (x->bits - x->gbits);
            }
            unsigned char t4[4] = {(unsigned char)tag,
                                   (unsigned char)(tag >> 8),
                                   (unsigned char)(tag >> 16),
                                   (unsigned char)(tag >> 24)};
            tmp_write(x->gw[g], t4, 4);
            tmp_write(x->gw[g], p, (size_t)(q - p));
            p = q;
            i++;
            if ((i & 0xffff) == 0)
                progress("scatter", i, x->n);
        }
    }
    free(r.buf);
    if (i != x->n || r.raw != x->raw ||
        (x->check && fhash_final(&h) != x->hash))
        input_changed();
    for (size_t g = 0; g < x->ngroups; g++) {
        tmp_flush(x->gw[g]);
        out_free(x->gw[g]);
    }
    free(x->gw);
    x->gw = NULL;
}

typedef struct gjob {
    const ext *x;
    char *buf;
    size_t *off;
    size_t *start;
    uint32_t lo;
    int rc;
} gjob;

static void group_bucket(void *ctx, size_t b)
{
    gjob *j = ctx;
    int rc = fsh_fileshuf_bucket(j->x->key, j->lo + b, j->off + j->start[b],
                                 j->start[b + 1] - j->start[b], sizeof(size_t));
    if (rc != FSH_OK)
        j->rc = rc;
}

/* Pass 2: load, order and write group g. */
static void ext_group(ext *x, size_t g, outw *out, uint64_t *written)
{
    struct stat st;
    int fd = x->gfd[g];
    if (fstat(fd, &st) != 0)
        tmp_die(errno, "read error on");
    size_t size = (size_t)st.st_size;
    char *buf = load_file(fd, size);
    close(fd);
    x->gfd[g] = -1;
    size_t cnt = 0;
    for (size_t at = 0; at < size; cnt++)
        at = (size_t)((char *)memchr(buf + at + 4, x->delim,
                                     size - at - 4) - buf) + 1;
    size_t *off = xmalloc((cnt ? cnt : 1) * sizeof *off);
    uint32_t *tag = xmalloc((cnt ? cnt : 1) * sizeof *tag);
    size_t k = 0;
    for (size_t at = 0; at < size; k++) {
        const unsigned char *t = (const unsigned char *)buf + at;
        tag[k] = (uint32_t)t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 |
                 (uint32_t)t[3] << 24;
        off[k] = at + 4;
        at = (size_t)((char *)memchr(buf + at + 4, x->delim, size - at - 4) -
                      buf) + 1;
    }
    size_t *ord = xmalloc((cnt ? cnt : 1) * sizeof *ord);
    if (x->small) {
        /* Pass 1 wrote positions g * gsize .. of a permutation: exactly
           every slot of ord once. Check it anyway; ord is indexed by it. */
        uint64_t lo = (uint64_t)g * x->gsize;
        uint64_t want = lo >= x->n ? 0
                        : x->n - lo < x->gsize ? x->n - lo : x->gsize;
        if (cnt != want)
            tmp_die(0, "inconsistent");
        for (size_t i = 0; i < cnt; i++) {
            if (tag[i] >= cnt)
                tmp_die(0, "inconsistent");
            ord[tag[i]] = off[i];
        }
    } else {
        size_t nb = (size_t)1 << (x->bits - x->gbits);
        gjob j;
        j.x = x;
        j.lo = (uint32_t)(g << (x->bits - x->gbits));
        j.start = xmalloc((nb + 1) * sizeof *j.start);
        check_status(fsh_fileshuf_scatter(tag, j.lo, nb, off, ord, cnt,
                                      sizeof *off, j.start));
        j.off = ord;
        j.buf = buf;
        j.rc = FSH_OK;
        parallel_for(nb, group_bucket, &j);
        check_status(j.rc);
        free(j.start);
    }
    free(tag);
    free(off);
    for (size_t i = 0; i < cnt; i++) {
        inbuf in = {buf, size};
        if (write_rec(out, &in, ord[i], x->delim) != 0)
            break;
        if ((++*written & 0xffff) == 0)
            progress("write", *written, x->n);
    }
    free(ord);
    free(buf);
}

/* Count the body records of the regular file fd from its current offset
   (which is restored), collecting the header records into hdr_buf. */
static void ext_count(ext *x, int fd, uint64_t header)
{
    off_t start = lseek(fd, 0, SEEK_CUR);
    struct stat st;
    uint64_t total = fstat(fd, &st) == 0 ? (uint64_t)st.st_size : 0;
    uint64_t nrec = 0, bytes = 0;
    fhash h;
    fhash_init(&h);
    rdr r;
    rdr_init(&r, fd, x->delim, UINT64_MAX, x->check ? &h : NULL);
    const char *p;
    size_t len;
    while (rdr_block(&r, &p, &len)) {
        const char *e = p + len, *q = p;
        while (nrec < header && q < e) {
            const char *d = memchr(q, x->delim, (size_t)(e - q));
            size_t l = (size_t)(d + 1 - q);
            hdr_buf = xrealloc(hdr_buf, hdr_len + l);
            memcpy(hdr_buf + hdr_len, q, l);
            hdr_len += l;
            q = d + 1;
            nrec++;
        }
        bytes += (uint64_t)(e - q);
        for (; q < e; nrec++)
            q = (const char *)rawmemchr(q, x->delim) + 1;
        progress("count", r.bytes, total);
    }
    free(r.buf);
    x->n = nrec > header ? nrec - header : 0;
    x->bytes = bytes;
    x->raw = r.raw;
    x->hash = fhash_final(&h);
    if (lseek(fd, start < 0 ? 0 : start, SEEK_SET) < 0)
        die(errno, "read error");
}

/* Copy pre[0..prelen) and the rest of fd (a pipe) to a spool file. */
static int ext_spool(int fd, const char *pre, size_t prelen)
{
    int spool = tmp_create();
    outw *sw = out_new_cap(spool, (size_t)1 << 20);
    tmp_write(sw, pre, prelen);
    tmp_flush(sw);
    size_t cap = (size_t)4 << 20;
    char *buf = xmalloc(cap);
    for (;;) {
        ssize_t r = read(fd, buf, cap);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            die(errno, "read error");
        }
        if (r == 0)
            break;
        tmp_write(sw, buf, (size_t)r);
    }
    free(buf);
    tmp_flush(sw);
    out_free(sw);
    if (lseek(spool, 0, SEEK_SET) < 0)
        tmp_die(errno, "read error on");
    return spool;
}

/* Shuffle fd's body records in external mode. pre[0..prelen) are bytes
   already read from fd (then a pipe, which is spooled first). */
static void ext_run(int fd, char delim, uint64_t header, fsh_rng *(*rng)(void),
                    outw *(*open_out)(void), const char *pre, size_t prelen)
{
    ext x;
    memset(&x, 0, sizeof x);
    x.delim = delim;
    int in = pre != NULL ? ext_spool(fd, pre, prelen) : fd;
    x.check = in == fd; /* a spool file of ours cannot change */
    ext_count(&x, in, header);
    uint64_t need = x.bytes + 24 * x.n;
    uint64_t budget = big_memory / 10 * 9;
    if (budget < 16)
        budget = 16;
    uint64_t ng = (need + budget - 1) / budget;
    if (ng < 1)
        ng = 1;
    x.small = x.n <= FSH_FILESHUF_SMALL;
    if (x.small) {
        if (ng > 1024)
            ng = 1024;
        if (x.n > 0 && ng > x.n)
            ng = x.n;
        x.ngroups = (size_t)ng;
        x.gsize = x.n ? (x.n + ng - 1) / ng : 1;
        x.ngroups = x.n ? (size_t)((x.n + x.gsize - 1) / x.gsize) : 1;
        uint32_t *v = xmalloc((size_t)(x.n ? x.n : 1) * sizeof *v);
        for (size_t i = 0; i < (size_t)x.n; i++)
            v[i] = (uint32_t)i;
        if (x.n > 1)
            check_status(fsh_shuffle(rng(), v, (size_t)x.n, sizeof *v));
        x.pos = xmalloc((size_t)(x.n ? x.n : 1) * sizeof *x.pos);
        for (size_t k = 0; k < (size_t)x.n; k++)
            x.pos[v[k]] = (uint32_t)k;
        free(v);
    } else {
        check_status(fsh_rng_bytes(rng(), x.key, sizeof x.key));
        x.bits = fsh_fileshuf_bits(x.n);
        unsigned gb = 0;
        while (gb < x.bits && gb < 10 && ((uint64_t)1 << gb) < ng)
            gb++;
        x.gbits = gb;
        x.ngroups = (size_t)1 << gb;
    }
    progress_note("external shuffle: %llu records, %zu groups in %s",
                  (unsigned long long)x.n, x.ngroups, big_tmpdir);
    x.gfd = xmalloc(x.ngroups * sizeof *x.gfd);
    x.gw = xmalloc(x.ngroups * sizeof *x.gw);
    uint64_t wb = big_memory / 4 / x.ngroups;
    size_t wcap = wb > ((uint64_t)1 << 20) ? (size_t)1 << 20
                  : wb < 4096             ? 4096
                                          : (size_t)wb;
    for (size_t g = 0; g < x.ngroups; g++) {
        x.gfd[g] = tmp_create();
        x.gw[g] = out_new_cap(x.gfd[g], wcap);
    }
    ext_distribute(&x, in, header);
    if (in != fd)
        close(in);
    free(x.pos);
    x.pos = NULL;
    outw *out = open_out();
    uint64_t written = 0;
    for (size_t g = 0; g < x.ngroups; g++)
        ext_group(&x, g, out, &written);
    progress("write", x.n, x.n);
    free(x.gfd);
}

/* ------------------------------------------------------------------------ */
/* Entry point                                                              */

void shuffle_lines(int fd, char delim, uint64_t header, fsh_rng *(*rng)(void),
                   outw *(*open_out)(void))
{
    progress_start();
    struct stat st;
    int reg = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    off_t at = reg ? lseek(fd, 0, SEEK_CUR) : -1;
    /* Data plus at least 4 bytes of offset per record and a copy for the
       scatter: beyond half the budget, go external. The size is only a
       hint (the file may grow while it is read): the read stops there. */
    uint64_t lim = big_memory / 2;
    if (reg && at >= 0 && st.st_size > at &&
        (uint64_t)(st.st_size - at) > lim) {
        ext_run(fd, delim, header, rng, open_out, NULL, 0);
        progress_end();
        return;
    }
    inbuf in;
    if (!read_upto(fd, delim, &in, lim)) {
        if (reg && at >= 0 && lseek(fd, at, SEEK_SET) == at) {
            free(in.buf);
            ext_run(fd, delim, header, rng, open_out, NULL, 0);
        } else {
            ext_run(fd, delim, header, rng, open_out, in.buf, in.size);
            free(in.buf);
        }
        progress_end();
        return;
    }
    size_t h = header_bytes(in.buf, in.size, delim, header);
    if (h > 0) {
        hdr_buf = xmalloc(h);
        memcpy(hdr_buf, in.buf, h);
        hdr_len = h;
    }
    inbuf body = {in.buf + h, in.size - h};
    recs r;
    scan_records(&body, delim, &r);
    if (r.n > FSH_FILESHUF_SMALL) {
        uint8_t key[32];
        check_status(fsh_rng_bytes(rng(), key, sizeof key));
        if (r.wide)
            r.off64 = scatter_perm(key, r.off64, r.n, sizeof *r.off64);
        else
            r.off32 = scatter_perm(key, r.off32, r.n, sizeof *r.off32);
    } else if (r.n < 2) {
        /* Nothing to draw: no rng, so no OS entropy needed. */
    } else if (r.wide) {
        check_status(fsh_shuffle(rng(), r.off64, r.n, sizeof *r.off64));
    } else {
        check_status(fsh_shuffle(rng(), r.off32, r.n, sizeof *r.off32));
    }
    outw *out = open_out();
    enum { STEP = 1 << 16 };
    for (size_t i = 0; i < r.n; i += STEP) {
        size_t m = r.n - i < STEP ? r.n - i : STEP;
        recs sub = r;
        if (r.wide)
            sub.off64 += i;
        else
            sub.off32 += i;
        write_recs(out, &body, &sub, m, delim);
        progress("write", i + m, r.n);
    }
    recs_free(&r);
    free(in.buf);
    progress_end();
}
