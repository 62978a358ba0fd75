/* SPDX-License-Identifier: MIT */
/* Shared helpers for the fuzz harnesses (tests/fuzz/README.md).
 *
 * Each fuzz_<target>.c defines LLVMFuzzerTestOneInput. It is linked either
 * with libFuzzer (make fuzz) or with replay.c, a main() that feeds it every
 * file of tests/fuzz/corpus/<target> and tests/fuzz/regress/<target> (make
 * check, make sanitize). Harnesses are linked with -Wl,--wrap=exit,
 * --wrap=malloc, --wrap=calloc, --wrap=realloc, so that the CLI's die() and
 * exit() return to the harness and huge allocations fail cleanly.
 */
#ifndef FSH_FUZZ_H
#define FSH_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Property failure: print where and why, then abort (a crash for libFuzzer,
   a failing test for the replay driver). */
#define FZ_CHECK(cond)                                                         \
    do {                                                                       \
        if (!(cond))                                                           \
            fz_fail(__FILE__, __LINE__, #cond);                                \
    } while (0)
_Noreturn void fz_fail(const char *file, int line, const char *what);

/* Largest single allocation while a target runs (bigger ones return NULL,
   so the CLI says "memory exhausted" and the library FSH_ENOMEM). */
#define FZ_ALLOC_LIMIT ((size_t)16 << 20)
/* Largest output captured from the CLI (writes beyond it fail). */
#define FZ_OUT_CAP ((size_t)256 << 10)

/* For harnesses that drive the CLI: its error paths (and the argv strings
   resolve_abbrevs rewrites) are left for exit() to reclaim, so LeakSanitizer
   is off there. */
#define FZ_NO_LEAK_CHECK                                                       \
    const char *__asan_default_options(void);                                  \
    const char *__asan_default_options(void)                                   \
    {                                                                          \
        return "detect_leaks=0";                                               \
    }

/* Result of one in-process CLI run. */
typedef struct fz_run {
    int status;      /* return value, or the exit()/die() status */
    int exited;      /* 1: it called exit() */
    char *out;       /* fd 1 (and stdout), NUL-terminated; owned by fz */
    size_t out_len;
    int out_full;    /* the output reached FZ_OUT_CAP */
    char *err;       /* stderr, NUL-terminated; owned by fz */
    size_t err_len;
} fz_run;

/* Run cmd(argc, argv) in the sandbox directory (a private temporary
   directory holding the files "in" and "rs"; files the run creates are
   removed afterwards), with stdin reading stdin_data[0..stdin_len), fd 1
   and stdout captured, stderr captured, getopt reset,
   and files limited to FZ_OUT_CAP bytes (RLIMIT_FSIZE, SIGXFSZ ignored), so
   an endless -r run to -o FILE ends with a write error too.
   The result stays valid until the next call. */
const fz_run *fz_cli(int (*cmd)(int, char **), int argc, char **argv,
                     const void *stdin_data, size_t stdin_len);

/* Absolute path of the sandbox directory (created on first use). */
const char *fz_sandbox(void);

/* Write data to the sandbox file name (relative to the sandbox). */
void fz_put_file(const char *name, const void *data, size_t len);

/* A file descriptor reading data[0..len) from the start: a regular file
   (kind 0) or a pipe (kind 1; len must fit in the pipe buffer). */
int fz_input_fd(const void *data, size_t len, int kind);

/* Run fn(ctx) with exit() and die() returning here; returns -1 when fn
   returned normally, else the exit status. */
int fz_catch(void (*fn)(void *ctx), void *ctx);

/* Split records of buf[0..len) ending with delim (a missing final delim is
   added): *n records, starts[i] and lens[i] (with the delimiter) into
   arrays the caller frees. */
void fz_split(const char *buf, size_t len, char delim, size_t *n,
              size_t **starts, size_t **lens);

/* Multiset equality of two record lists (records compared as bytes). */
int fz_same_records(const char *a, const size_t *as, const size_t *al,
                    const char *b, const size_t *bs, const size_t *bl,
                    size_t n);

void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);
_Noreturn void __wrap_exit(int status);
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
_Noreturn void __real_exit(int status);

#endif
