/* SPDX-License-Identifier: MIT */
/* Input: the input file, the whole-input read, the one record reader. */
#ifndef FSH_CLI_INPUT_H
#define FSH_CLI_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "io/fhash.h"

/* FILE (NULL or "-": standard input) as standard input, as GNU reopens it
   (so a later --random-source=/dev/stdin names the input file); dies with
   GNU's message. Returns the descriptor to read (STDIN_FILENO). */
int input_open(const char *path);
/* Close the input; dies with "read error" when that fails. */
void input_close(int fd);
/* GNU's input_size(): bytes left in a regular file, else UINT64_MAX. */
uint64_t input_size(int fd);

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
/* read_upto that calls tick(ctx, bytes read, bytes expected or 0 when
   unknown) for a progress display: before the first read, after each
   read, and every 0.2 s while fd (a pipe) has nothing to read. */
int read_upto_ticking(int fd, char delim, inbuf *in, uint64_t max,
                      void (*tick)(void *, uint64_t, uint64_t), void *ctx);

/* A regular file mapped in place of a read (input_map). */
typedef struct inmap {
    void *base;         /* NULL: nothing mapped */
    size_t len;
} inmap;

/* When fd is a regular file with 1..max bytes left, map them read-only
   (MAP_PRIVATE) instead of reading them: in->buf points into the mapping,
   with a delimiter appended when missing and INBUF_SLACK readable bytes
   after it; returns 1. Returns 0, touching nothing, when fd is not such a
   file or cannot be mapped (then read it). While the mapping lives, a
   SIGBUS on it (the file was truncated under us) removes the -o
   temporaries and exits 1 with "NAME: file changed as we read it" (name
   NULL: standard input). */
int input_map(int fd, char delim, uint64_t max, const char *name, inbuf *in,
              inmap *m);
/* Unmap (and stop catching SIGBUS on the mapping). */
void input_unmap(inmap *m);

/* Ask for transparent huge pages on a big buffer before it is touched. */
void advise_huge(void *p, size_t n);

/* The record reader: records of fd one at a time (reader_next) or in
   blocks of whole records (reader_block), each with its delimiter (added
   if missing at the end of input). Reads at most `limit` bytes of fd, and
   feeds every byte read to hash when there is one. Dies on a read error. */
typedef struct reader {
    int fd;
    char delim;
    char *buf;          /* cap + 1 bytes: room for a final delimiter */
    size_t cap, start, end, scan;
    size_t last;        /* offset of the record reader_next returned last */
    int eof;
    uint64_t bytes;     /* bytes of records returned so far */
    uint64_t raw;       /* bytes read from fd so far */
    uint64_t left;      /* may still read from fd (end of input after that) */
    fhash *hash;
    void (*tick)(void *, uint64_t, uint64_t); /* reader_ticking's */
    void *tick_ctx;
    uint64_t expect;    /* a regular file's bytes left at the start, or 0 */
} reader;

/* A reader with a first buffer of cap bytes. */
void reader_init(reader *r, int fd, char delim, size_t cap, uint64_t limit,
                 fhash *hash);
/* Next record; the pointer is valid until the next call. 1, or 0 at end. */
int reader_next(reader *r, const char **rec, size_t *len);
/* Next block of whole records; valid until the next call. 1, or 0 at end. */
int reader_block(reader *r, const char **p, size_t *len);
/* The record of len bytes that reader_next just returned, as a block of
   its own that the caller frees, when it is long (at least TAKE_MIN bytes)
   and starts the reader's buffer: the reader keeps only the bytes after it,
   so a long record is never held twice. NULL otherwise (copy the record
   before the next reader_next). */
char *reader_take(reader *r, size_t len);
#define TAKE_MIN ((size_t)1 << 20)
/* The first buffer of the streaming readers that keep no input (-n K's
   reservoir, GNU's reservoir): records are consumed as they are read, so a
   larger buffer only saves read calls while its pages count in the peak
   RSS. Issue 13, measured on Zen 4/KVM: -n 1000 of a 1 GB file is about
   5 % slower than with 1 MiB (16 times the read calls), while 96 KiB and
   more cost 150 KB of peak RSS and the margin under GNU shuf's with it.
   The buffer grows for a longer record. */
#define STREAM_BUF ((size_t)64 << 10)
void reader_free(reader *r);
/* Call tick(ctx, bytes read, bytes expected or 0 when unknown) now and as
   read_upto_ticking does, for a progress display. */
void reader_ticking(reader *r, void (*tick)(void *, uint64_t, uint64_t),
                    void *ctx);

/* Return when fd has something to read (or is at its end, or failed),
   calling tick(ctx, done, expect) every 0.2 s until then. */
void input_wait(int fd, void (*tick)(void *, uint64_t, uint64_t), void *ctx,
                uint64_t done, uint64_t expect);

#endif
