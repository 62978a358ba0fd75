/* Shared declarations for the fairshuf command. */
#ifndef FSH_CLI_H
#define FSH_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fairshuf.h"

/* `fairshuf deal`: argv[0] is "deal". Returns the exit status. */
int cmd_deal(int argc, char **argv);

/* The shuf-compatible command (no subcommand). Returns the exit status. */
int cmd_shuf(int argc, char **argv);
/* --version (for either command), then exit. */
_Noreturn void print_version(void);

/* ------------------------------------------------------------------------ */
/* Messages (util.c)                                                        */

/* Name used in messages. Invoked as "fairshuf" (argv[0]'s basename), it is
   "fairshuf" and the command has subcommands; invoked under any other
   name, as_shuf is 1, the command is GNU shuf and, as GNU, names itself
   by argv[0] exactly as given. */
extern const char *program_name;
extern int as_shuf;
void set_program_name(const char *argv0);

/* "NAME: MESSAGE[: strerror(errnum)]\n" on stderr (errnum 0: no suffix). */
void error_msg(int errnum, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* error_msg, then the cleanup hooks, then exit(1). */
_Noreturn void die(int errnum, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* "Try 'NAME --help' for more information." and exit(1). */
_Noreturn void usage_error(void);

/* Called by die() before exiting (at most one hook). */
void set_die_hook(void (*hook)(void));

/* GNU quote(): 'like this' with C escapes, in curly quotes (U+2018,
   U+2019) when the locale's codeset is UTF-8. */
const char *quote(const char *s);
/* GNU quotef(): shell-escaped, quoted only when needed (':' too). Both
   keep the multibyte characters the locale deems printable. */
const char *quotef(const char *s);

/* Write text to stdout and exit 0, or report a write error as GNU's
   --help does and exit 1. */
_Noreturn void emit_text(const char *text);

/* open(2) with O_CLOEXEC, retried on EINTR, never returning fds 0-2. */
int open_safer(const char *path, int flags, int mode);

/* A new rng from seed (simulation grade: a string rarely holds 226+
   bits), or keyed from the OS when seed is NULL. Dies naming the cause when
   the OS random source fails: call it only when a draw is needed. */
fsh_rng *rng_make(const char *seed);
/* Dies with a message for a library status other than FSH_OK. */
void check_status(int rc);

/* Allocation that dies with "memory exhausted". */
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
_Noreturn void xalloc_die(void);

/* ------------------------------------------------------------------------ */
/* Output (output.c)                                                        */
/*
 * One buffered writer for the run. Write failures are reported as GNU shuf
 * 9.1 reports them through stdio (one line when the failure shows at close,
 * two when it shows mid-stream), which depends on glibc's buffer size for
 * the descriptor; the writer tracks what stdio would have done.
 */
typedef struct outw outw;

/* Writer on descriptor fd (buffer allocated lazily). */
outw *out_new(int fd);
/* Append n bytes as one logical write (one fwrite in GNU shuf). Returns 0,
   or -1 after a write error (then the caller stops and calls out_finish). */
int out_write(outw *o, const void *p, size_t n);
/* Append a decimal number followed by the byte delim. */
int out_number(outw *o, uint64_t v, char delim);
/* Flush, close if asked, and report errors as GNU does (then exit 1).
   Returns only on success. */
void out_finish(outw *o, int close_fd);
/* Flush what is buffered, ignoring errors (used by die()). */
void out_flush_quiet(outw *o);
/* Bytes logically written so far. */
uint64_t out_total(const outw *o);

/* Writer with a buffer of cap bytes (4 KiB at least). */
outw *out_new_cap(int fd, size_t cap);
/* Shards: each logical write (one record) goes to the next of kids[0..n),
   round-robin; out_finish finishes and frees them. o owns kids. */
void out_fan(outw *o, outw **kids, size_t n);
/* Header bytes: to every shard, or once. */
void out_header(outw *o, const void *p, size_t n);
/* Write what is buffered; -1 after a write error (see out_error). */
int out_flush(outw *o);
/* errno of the first write error, or 0. */
int out_error(const outw *o);
/* Free a writer without flushing or closing. */
void out_free(outw *o);
/* Install the handlers that remove temporaries on fatal signals. */
void install_cleanup_handlers(void);

/* -o FILE, called once all input is read. Returns the fd to write: a
   temporary beside FILE, renamed over it at commit, when the rename keeps
   FILE's owner, group, mode, extended attributes (ACLs) and links; else a
   spool (TMPDIR, or memory) copied over FILE at commit; devices and FIFOs
   are opened and truncated as GNU does. FILE's contents are untouched until
   commit. Dies with GNU's message if FILE cannot be opened for writing. */
int outfile_open(const char *path);
/* Put the output in place: rename, or copy with all signals blocked and
   the space reserved first. Dies with "write error: ..." if the copy
   fails. */
void outfile_commit(void);
/* Remove the temporaries, if any (async-signal-safe). Several files may
   be open at once (--shards); outfile_commit renames them all. */
void outfile_abort(void);

/* ------------------------------------------------------------------------ */
/* Input (input.c)                                                          */

/* Bytes readable (allocated, contents unspecified) after inbuf data. */
#define INBUF_SLACK 64

/* The whole input in one buffer; every record ends with the delimiter. */
typedef struct inbuf {
    char *buf;
    size_t size;
} inbuf;

/* Read all of fd (large reads; sized from fstat for regular files) and
   append a missing final delimiter. Dies with "read error: ..." on error. */
void read_all(int fd, char delim, inbuf *in);
/* read_all, but stop once more than max bytes were read: then return 0 with
   the bytes read so far in *in (no delimiter added); 1 at end of input. */
int read_upto(int fd, char delim, inbuf *in, uint64_t max);

/* The input file's name for messages; NULL for standard input. */
extern const char *input_name;

/* Record start offsets: 32-bit when the buffer is under 4 GiB. */
typedef struct recs {
    size_t n;
    int wide;       /* 1: off64, 0: off32 */
    uint32_t *off32;
    uint64_t *off64;
} recs;

/* Scan in->buf for record starts. */
void scan_records(const inbuf *in, char delim, recs *r);
void recs_free(recs *r);
static inline uint64_t recs_get(const recs *r, size_t i)
{
    return r->wide ? r->off64[i] : r->off32[i];
}
static inline void recs_swap(recs *r, size_t i, size_t j)
{
    if (r->wide) {
        uint64_t t = r->off64[i];
        r->off64[i] = r->off64[j];
        r->off64[j] = t;
    } else {
        uint32_t t = r->off32[i];
        r->off32[i] = r->off32[j];
        r->off32[j] = t;
    }
}

/* Streaming records for reservoir sampling. */
typedef struct instream {
    int fd;
    char delim;
    char *buf;
    size_t cap, start, end, scan;
    size_t last;    /* offset of the record stream_next returned last */
    int eof;
} instream;

void stream_init(instream *s, int fd, char delim);
/* Next record (with its delimiter, added if missing at EOF); the pointer is
   valid until the next call. Returns 1, or 0 at end of input; dies on a
   read error. */
int stream_next(instream *s, const char **rec, size_t *len);
/* The record of len bytes that stream_next just returned, as a block of its
   own that the caller frees, when it is long (at least STREAM_TAKE_MIN
   bytes) and starts the stream's buffer: the stream keeps only the bytes
   after it, so a long record is never held twice. NULL otherwise (copy the
   record before the next stream_next). */
char *stream_take(instream *s, size_t len);
#define STREAM_TAKE_MIN ((size_t)1 << 20)
void stream_free(instream *s);

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
/* Write record i of a scanned buffer (it ends with delim). */
static inline int write_rec(outw *out, const inbuf *in, uint64_t start,
                            char delim)
{
    const char *p = in->buf + start;
#if defined(__SSE2__)
    /* Most records are short: look at the first 16 bytes inline (the
       buffer has INBUF_SLACK readable bytes after its end). */
    unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
        _mm_loadu_si128((const __m128i *)(const void *)p), _mm_set1_epi8(delim)));
    if (m != 0)
        return out_write(out, p, (size_t)__builtin_ctz(m) + 1);
    const char *e = rawmemchr(p + 16, delim);
#else
    const char *e = rawmemchr(p, delim);
#endif
    return out_write(out, p, (size_t)(e - p) + 1);
}

/* Records in array order, the first h of them; prefetch a few ahead since
   consecutive records sit at random places in a large buffer. */
static inline void write_recs(outw *out, const inbuf *in, const recs *r, size_t h,
                       char delim)
{
    enum { AHEAD = 16 };
    for (size_t i = 0; i < h; i++) {
        if (i + AHEAD < h)
            __builtin_prefetch(in->buf + recs_get(r, i + AHEAD));
        if (write_rec(out, in, recs_get(r, i), delim) != 0)
            return;
    }
}

/* ------------------------------------------------------------------------ */
/* Large inputs (big.c): --memory, external mode, scatter, threads,
   progress                                                                 */

/* Options (set by shuf.c; defaults from big_defaults()). */
extern uint64_t big_memory;      /* bytes */
extern const char *big_tmpdir;
/* A temporary file in big_tmpdir, already unlinked (O_TMPFILE where the
   filesystem has it), on a descriptor above stderr; -1 with errno. */
int tmp_unlinked(void);
extern unsigned big_threads;
extern int big_progress;         /* -1 auto (stderr a terminal), 0, 1 */
void big_defaults(void);
/* SIZE with suffix b, K (default), M, G, T or %: 0 ok, -1 invalid. */
int parse_size(const char *s, uint64_t *out);

/* Header records (--header): collected from the input, written first. */
extern char *hdr_buf;
extern size_t hdr_len;
/* Bytes taken by the first h records of buf[0..size) (each ends with delim). */
size_t header_bytes(const char *buf, size_t size, char delim, uint64_t h);

/* Progress on stderr (see --progress). */
void progress_start(void);
void progress(const char *phase, uint64_t done, uint64_t total);
void progress_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void progress_end(void);

/* Run fn(ctx, i) for i in [0, n) on up to big_threads threads. */
void parallel_for(size_t n, void (*fn)(void *ctx, size_t i), void *ctx);

/* The seeded permutation of records with more than FSH_FILESHUF_SMALL
   records: a[0..n) (size 4 or 8 bytes each) is replaced by a new array in
   bucket order (a is freed). */
void *scatter_perm(const uint8_t key[32], void *a, size_t n, size_t size);

/* Full shuffle of the lines on fd after skipping `header` records (kept in
   hdr_buf): in memory when they fit in big_memory, else external with
   temporary files. rng() gives the rng for the key (or the Fisher-Yates
   draws for small inputs); it is called only when a draw is needed, so
   fewer than 2 records need no OS entropy. open_out() opens the output
   after all input is read. */
void shuffle_lines(int fd, char delim, uint64_t header, fsh_rng *(*rng)(void),
                   outw *(*open_out)(void));

/* ------------------------------------------------------------------------ */
/* GNU-compatible random source (gnurand.c)                                 */
/*
 * Byte-for-byte the draws of gnulib's randint over a --random-source file:
 * big-endian byte accumulation, leftover entropy kept between calls.
 */
typedef struct gnurand gnurand;

/* Open name unless bound (GNU's byte estimate) is 0. NULL with errno set
   when the file cannot be opened. */
gnurand *gnurand_new(const char *name, uint64_t bound);
/* Uniform integer in [0, n), n >= 1; dies on end of file / read error. */
uint64_t gnurand_choose(gnurand *g, uint64_t n);
void gnurand_free(gnurand *g);
/* GNU randperm_bound(h, n): bytes needed for h draws of a permutation of n. */
uint64_t gnurand_perm_bound(uint64_t h, uint64_t n);

#endif
