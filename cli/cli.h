/* Shared declarations for the fairshuf command. */
#ifndef FSH_CLI_H
#define FSH_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* `fairshuf deal`: argv[0] is "deal". Returns the exit status. */
int cmd_deal(int argc, char **argv);

/* The shuf-compatible command (no subcommand). Returns the exit status. */
int cmd_shuf(int argc, char **argv);

/* ------------------------------------------------------------------------ */
/* Messages (util.c)                                                        */

/* Name used in messages: basename of argv[0] ("fairshuf", or "shuf" when run
   through a symlink of that name). */
extern const char *program_name;
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

/* GNU quote() in the C locale: 'like this' with C escapes. */
const char *quote(const char *s);
/* GNU quotef(): shell-escaped, quoted only when needed (':' too). */
const char *quotef(const char *s);

/* open(2) with O_CLOEXEC, retried on EINTR, never returning fds 0-2. */
int open_safer(const char *path, int flags, int mode);

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

/* -o FILE: a temporary next to FILE renamed over it at commit, or FILE
   itself for devices, FIFOs, /dev paths, symlinks and hard-linked files.
   Dies with GNU's message if FILE cannot be opened. Returns the fd. */
int outfile_open(const char *path);
/* Rename the temporary into place (no-op when writing in place). */
void outfile_commit(void);
/* Remove the temporary, if any (async-signal-safe). */
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
    int eof;
} instream;

void stream_init(instream *s, int fd, char delim);
/* Next record (with its delimiter, added if missing at EOF); the pointer is
   valid until the next call. Returns 1, or 0 at end of input; dies on a
   read error. */
int stream_next(instream *s, const char **rec, size_t *len);
void stream_free(instream *s);

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
