/* SPDX-License-Identifier: MIT */
/* Messages and fatal errors for the fairshuf command. */
#include "common/msg.h"

#include "fairshuf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *program_name = "fairshuf";
int as_shuf;
static void (*die_hook)(void *ctx);
static void *die_ctx;
static int (*flush_hook)(void *ctx, int *close_err);
static void *flush_ctx;

void set_program_name(const char *argv0)
{
    if (argv0 == NULL || *argv0 == '\0')
        return;
    const char *slash = strrchr(argv0, '/');
    const char *base = slash != NULL ? slash + 1 : argv0;
    if (strcmp(base, "fairshuf") == 0) {
        program_name = base;
        as_shuf = 0;
    } else {
        /* Any other name (shuf, gshuf, ...): GNU shuf, which names itself
           by argv[0] exactly as given. */
        program_name = argv0;
        as_shuf = 1;
    }
}

void set_subcommand(const char *name)
{
    static char buf[64];
    snprintf(buf, sizeof buf, "%s %s", program_name, name);
    program_name = buf;
}

__attribute__((format(printf, 2, 0)))
static void verror(int errnum, const char *fmt, va_list ap)
{
    /* Built in one buffer and written at once, so that messages from
       concurrent processes do not interleave mid-line. */
    va_list aq;
    va_copy(aq, ap);
    int body = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (body < 0)
        body = 0;
    const char *es = errnum != 0 ? strerror(errnum) : "";
    size_t cap = strlen(program_name) + (size_t)body + strlen(es) + 8;
    char *msg = malloc(cap);
    if (msg == NULL) {
        fprintf(stderr, "%s: memory exhausted\n", program_name);
        return;
    }
    size_t n = (size_t)snprintf(msg, cap, "%s: ", program_name);
    vsnprintf(msg + n, cap - n, fmt, ap);
    n += (size_t)body;
    if (errnum != 0)
        n += (size_t)snprintf(msg + n, cap - n, ": %s", es);
    msg[n++] = '\n';
    fwrite(msg, 1, n, stderr);
    fflush(stderr);
    free(msg);
}

void error_msg(int errnum, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(errnum, fmt, ap);
    va_end(ap);
}

void set_die_hook(void (*hook)(void *ctx), void *ctx)
{
    die_hook = hook;
    die_ctx = ctx;
}

void set_flush_hook(int (*hook)(void *ctx, int *close_err), void *ctx)
{
    flush_hook = hook;
    flush_ctx = ctx;
}

static int run_flush_hook(int *close_err)
{
    if (flush_hook == NULL)
        return 0;
    int (*h)(void *, int *) = flush_hook;
    flush_hook = NULL; /* once: the hook may die itself */
    return h(flush_ctx, close_err);
}

static void run_hook(void)
{
    if (die_hook != NULL) {
        void (*h)(void *) = die_hook;
        die_hook = NULL;
        h(die_ctx);
    }
}

void fatal_exit(void)
{
    run_hook();
    exit(1);
}

void die(int errnum, const char *fmt, ...)
{
    /* GNU's error() flushes stdout before the message: output written
       before the error comes before it (2>&1), and a failing output dies
       by SIGPIPE or adds close_stdout()'s "write error". */
    int close_err = 0;
    int flush_failed = run_flush_hook(&close_err) != 0;
    va_list ap;
    va_start(ap, fmt);
    verror(errnum, fmt, ap);
    va_end(ap);
    if (flush_failed)
        error_msg(close_err, "write error");
    run_hook();
    exit(1);
}

void usage_error(void)
{
    fprintf(stderr, "Try '%s --help' for more information.\n", program_name);
    run_hook();
    exit(1);
}

void check_status(int rc)
{
    if (rc == FSH_OK)
        return;
    if (rc == FSH_ENOMEM)
        die(0, "memory exhausted");
    if (rc == FSH_ESYSRAND)
        die(errno, "cannot read the OS random source");
    die(0, "%s", fsh_strerror(rc));
}
