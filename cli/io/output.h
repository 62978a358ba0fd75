/* SPDX-License-Identifier: MIT */
/* Output: one buffered writer for the run, fanned out to shards. */
#ifndef FSH_CLI_OUTPUT_H
#define FSH_CLI_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Write failures are reported as GNU shuf 9.1 reports them through stdio
 * (one line when the failure shows at close, two when it shows
 * mid-stream), which depends on glibc's buffer size for the descriptor;
 * the writer tracks what stdio would have done.
 */
typedef struct outw outw;

/* Writer on descriptor fd (buffer allocated lazily). */
outw *out_new(int fd);
/* Writer with a buffer of cap bytes (4 KiB at least). */
outw *out_new_cap(int fd, size_t cap);
/* Append n bytes as one logical write (one fwrite in GNU shuf). Returns 0,
   or -1 after a write error (then the caller stops and calls out_finish). */
int out_write(outw *o, const void *p, size_t n);
/* Several logical writes at once, n bytes in all, the first of them
   `first` bytes long: as out_write of each in turn. Not on shards. */
int out_write_many(outw *o, const void *p, size_t n, size_t first);
/* Whether o fans records out to shards (out_fan). */
int out_sharded(const outw *o);
/* Append a decimal number followed by the byte delim. */
int out_number(outw *o, uint64_t v, char delim);
/* Flush, close if asked, and report errors as GNU does (then fatal_exit).
   Returns only on success; o's buffer is freed, o itself is not. */
void out_finish(outw *o, int close_fd);
/* Flush what is buffered, ignoring errors (used when dying). */
void out_flush_quiet(outw *o);
/* Before a fatal error's message (GNU's error() flushes stdout first):
   write what is buffered. Returns 0, or -1 when that failed, with the fd
   closed and *close_err set to close's errno or 0 (what close_stdout
   reports then); when GNU's stdio would already have written, and
   failed, before this point (GNU shuf would have stopped there with its
   write error), reports that as out_finish does and exits instead. */
int out_flush_before_error(outw *o, int *close_err);
/* Write what is buffered; -1 after a write error (see out_error). */
int out_flush(outw *o);
/* errno of the first write error, or 0. */
int out_error(const outw *o);
/* Bytes logically written so far. */
uint64_t out_total(const outw *o);
/* When a write fails for lack of space (ENOSPC, EDQUOT), call
   fn(ctx, fd, written) once, written being the bytes the fd took before;
   if it returns 0 (the fd now writes elsewhere, at that offset), the write
   is made again. */
void out_on_full(outw *o, int (*fn)(void *ctx, int fd, uint64_t written),
                 void *ctx);
/* glibc's stdio buffer for fd (GNU shuf's output buffer): st_blksize when
   below BUFSIZ, else BUFSIZ. */
uint64_t out_stdio_bufsize(int fd);
/* Whether GNU shuf would report a failure to write `total` bytes, of
   which the file took `took`, mid-stream (two lines) rather than at
   close (one): see out_finish. */
int out_stdio_mid(uint64_t total, uint64_t took, uint64_t bufsize);
/* Free a writer without flushing or closing. */
void out_free(outw *o);

/* Shards: each logical write (one record) goes to the next of kids[0..n),
   round-robin; out_finish finishes and frees them. o owns kids. */
void out_fan(outw *o, outw **kids, size_t n);
/* Header bytes: to every shard, or once. */
void out_header(outw *o, const void *p, size_t n);

/* Write text to stdout and exit 0, or report a write error as GNU's
   --help does and exit 1. */
_Noreturn void emit_text(const char *text);

#endif
