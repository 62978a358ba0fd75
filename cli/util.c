/* Messages, GNU-style quoting and allocation for the fairshuf command. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *program_name = "fairshuf";
static void (*die_hook)(void);

void set_program_name(const char *argv0)
{
    if (argv0 == NULL || *argv0 == '\0')
        return;
    const char *slash = strrchr(argv0, '/');
    program_name = slash != NULL && slash[1] != '\0' ? slash + 1 : argv0;
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

void set_die_hook(void (*hook)(void))
{
    die_hook = hook;
}

void die(int errnum, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(errnum, fmt, ap);
    va_end(ap);
    if (die_hook != NULL) {
        void (*h)(void) = die_hook;
        die_hook = NULL;
        h();
    }
    exit(1);
}

void usage_error(void)
{
    fprintf(stderr, "Try '%s --help' for more information.\n", program_name);
    if (die_hook != NULL) {
        void (*h)(void) = die_hook;
        die_hook = NULL;
        h();
    }
    exit(1);
}

int open_safer(const char *path, int flags, int mode)
{
    int fd;
    do
        fd = open(path, flags | O_CLOEXEC, mode);
    while (fd < 0 && errno == EINTR);
    if (fd >= 0 && fd <= STDERR_FILENO) {
        /* Never let a file we open pose as stdin, stdout or stderr when
           those were closed: writes to "stdout" must not reach it. */
        int d = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
        int e = errno;
        close(fd);
        errno = e;
        fd = d;
    }
    return fd;
}

void xalloc_die(void)
{
    die(0, "memory exhausted");
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL)
        xalloc_die();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (q == NULL)
        xalloc_die();
    return q;
}

void check_status(int rc)
{
    if (rc == FSH_OK)
        return;
    if (rc == FSH_ENOMEM)
        xalloc_die();
    if (rc == FSH_ESYSRAND)
        die(errno, "cannot read the OS random source");
    die(0, "%s", fsh_strerror(rc));
}

fsh_rng *rng_make(const char *seed)
{
    fsh_rng *rng;
    if (seed == NULL) {
        check_status(fsh_rng_new(&rng));
        return rng;
    }
    check_status(fsh_rng_new_seeded(&rng, seed, strlen(seed)));
    check_status(fsh_rng_set_simulation(rng, 1));
    return rng;
}

/* ------------------------------------------------------------------------ */
/* Quoting, as gnulib's quotearg does it in the C locale.                   */

typedef struct sbuf {
    char *p;
    size_t len, cap;
} sbuf;

static void sb_putc(sbuf *b, char c)
{
    if (b->len + 2 > b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        b->p = xrealloc(b->p, b->cap);
    }
    b->p[b->len++] = c;
    b->p[b->len] = '\0';
}

static void sb_puts(sbuf *b, const char *s)
{
    while (*s)
        sb_putc(b, *s++);
}

/* C escape letter for c, or 0. */
static char c_escape(unsigned char c)
{
    switch (c) {
    case '\a': return 'a';
    case '\b': return 'b';
    case '\f': return 'f';
    case '\n': return 'n';
    case '\r': return 'r';
    case '\t': return 't';
    case '\v': return 'v';
    default: return 0;
    }
}

static int c_printable(unsigned char c)
{
    return c >= 0x20 && c < 0x7f;
}

static void sb_octal(sbuf *b, unsigned char c)
{
    sb_putc(b, (char)('0' + (c >> 6)));
    sb_putc(b, (char)('0' + ((c >> 3) & 7)));
    sb_putc(b, (char)('0' + (c & 7)));
}

/* Quoted strings live until exit: messages are printed just before it. */
static char *keep[8];
static unsigned keep_i;

static const char *sb_keep(sbuf *b)
{
    if (b->p == NULL)
        sb_putc(b, 0), b->len = 0, b->p[0] = '\0';
    free(keep[keep_i]);
    keep[keep_i] = b->p;
    keep_i = (keep_i + 1) % 8;
    return b->p;
}

const char *quote(const char *s)
{
    sbuf b = {0};
    sb_putc(&b, '\'');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned char c = *p;
        char e = c_escape(c);
        if (c == '\'' || c == '\\') {
            sb_putc(&b, '\\');
            sb_putc(&b, (char)c);
        } else if (e) {
            sb_putc(&b, '\\');
            sb_putc(&b, e);
        } else if (c_printable(c)) {
            sb_putc(&b, (char)c);
        } else {
            sb_putc(&b, '\\');
            sb_octal(&b, c);
        }
    }
    sb_putc(&b, '\'');
    return sb_keep(&b);
}

/* Characters that make a file name need shell quoting. */
static int shell_needs_quote(const unsigned char *s, size_t len, size_t i)
{
    unsigned char c = s[i];
    if (!c_printable(c))
        return 1;
    switch (c) {
    case '{':
    case '}':
        return len == 1;
    case '#':
    case '~':
        return i == 0;
    case ' ': case '!': case '"': case '$': case '&': case '(': case ')':
    case '*': case ';': case '<': case '=': case '>': case '[': case '^':
    case '`': case '|': case '\'': case '?': case '\\': case ':':
        return 1;
    default:
        return 0;
    }
}

/* Safe inside both C and shell double quotes (gnulib's "compat" chars). */
static int dq_compatible(const unsigned char *s, size_t len, size_t i)
{
    unsigned char c = s[i];
    if (!c_printable(c))
        return 0;
    switch (c) {
    case '{':
    case '}':
        return len == 1;
    case '#':
    case '~':
        return i == 0;
    case '!': case '"': case '$': case '&': case '(': case ')': case '*':
    case ';': case '<': case '=': case '>': case '[': case '^': case '`':
    case '|': case '?': case '\\':
        return 0;
    default:
        return 1;
    }
}

const char *quotef(const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t len = strlen(str);
    sbuf b = {0};
    int needs = len == 0, squote = 0, all_dq = 1;
    for (size_t i = 0; i < len; i++) {
        needs |= shell_needs_quote(s, len, i);
        squote |= s[i] == '\'';
        all_dq &= dq_compatible(s, len, i);
    }
    if (!needs) {
        sb_puts(&b, str);
        return sb_keep(&b);
    }
    if (squote && all_dq) {
        sb_putc(&b, '"');
        sb_puts(&b, str);
        sb_putc(&b, '"');
        return sb_keep(&b);
    }
    /* 'single quotes', with $'\n' segments for unprintable bytes. */
    int pending = 0; /* inside a $'...' segment */
    sb_putc(&b, '\'');
    for (size_t i = 0; i < len; i++) {
        unsigned char c = s[i];
        char e = c_escape(c);
        if (e || !c_printable(c)) {
            if (!pending) {
                sb_puts(&b, "'$'");
                pending = 1;
            }
            sb_putc(&b, '\\');
            if (e)
                sb_putc(&b, e);
            else
                sb_octal(&b, c);
            continue;
        }
        if (c == '\'') {
            sb_puts(&b, "'\\''");
            pending = 0;
            continue;
        }
        if (pending) {
            sb_puts(&b, "''");
            pending = 0;
        }
        sb_putc(&b, (char)c);
    }
    sb_putc(&b, '\'');
    return sb_keep(&b);
}
