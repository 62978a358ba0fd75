/* Messages, GNU-style quoting and allocation for the fairshuf command. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

const char *program_name = "fairshuf";
int as_shuf;
static void (*die_hook)(void);

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

void emit_text(const char *text)
{
    /* As GNU's --help and --version: a write error is reported and
       exits 1 (out_finish). */
    outw *o = out_new(STDOUT_FILENO);
    out_write(o, text, strlen(text));
    out_finish(o, 1);
    exit(0);
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
/* Quoting, as gnulib's quotearg does it in the current locale (setlocale
   is called by main): quote() is locale_quoting_style, with curly quotes
   when the codeset is UTF-8; quotef() is shell_escape_quoting_style.
   Multibyte characters the locale deems printable pass through; invalid
   or unprintable bytes become octal escapes.                               */

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

static void sb_putn(sbuf *b, const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sb_putc(b, (char)s[i]);
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

/* The character at s[i] (len bytes in all): its length in bytes and
   whether the locale deems it printable. A byte that starts no valid
   character is one unprintable byte; an incomplete character at the end
   runs to the end (gnulib's rule). */
static size_t char_at(const unsigned char *s, size_t len, size_t i,
                      int *printable)
{
    if (s[i] < 0x80 || MB_CUR_MAX == 1) {
        *printable = s[i] < 0x80 ? c_printable(s[i]) : isprint(s[i]) != 0;
        return 1;
    }
    mbstate_t st;
    memset(&st, 0, sizeof st);
    wchar_t w;
    size_t n = mbrtowc(&w, (const char *)s + i, len - i, &st);
    if (n == (size_t)-1 || n == 0) {
        *printable = 0;
        return 1;
    }
    if (n == (size_t)-2) {
        *printable = 0;
        return len - i;
    }
    *printable = iswprint((wint_t)w) != 0;
    return n;
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

/* gnulib's gettext_quote() without a message catalog. */
static int utf8_locale(void)
{
    return strcasecmp(nl_langinfo(CODESET), "UTF-8") == 0;
}

/* quote() and quotef() keep errno, as gnulib's do: callers pass it to
   die() in the same call. */
static const char *quote_(const char *str);
static const char *quotef_(const char *str);

const char *quote(const char *str)
{
    int e = errno;
    const char *q = quote_(str);
    errno = e;
    return q;
}

const char *quotef(const char *str)
{
    int e = errno;
    const char *q = quotef_(str);
    errno = e;
    return q;
}

static const char *quote_(const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t len = strlen(str);
    int utf8 = utf8_locale();
    const char *lq = utf8 ? "\xe2\x80\x98" : "'";
    const char *rq = utf8 ? "\xe2\x80\x99" : "'";
    size_t rql = strlen(rq);
    sbuf b = {0};
    sb_puts(&b, lq);
    for (size_t i = 0; i < len;) {
        unsigned char c = s[i];
        char e = c_escape(c);
        /* The closing quote inside the string gets a backslash. */
        int is_rq = i + rql <= len && memcmp(s + i, rq, rql) == 0;
        if (c == '\\') {
            sb_puts(&b, "\\\\");
            i++;
            continue;
        }
        if (e) {
            sb_putc(&b, '\\');
            sb_putc(&b, e);
            i++;
            continue;
        }
        int printable;
        size_t n = char_at(s, len, i, &printable);
        if (!printable) {
            for (size_t j = 0; j < n; j++) {
                sb_putc(&b, '\\');
                sb_octal(&b, s[i + j]);
            }
        } else {
            if (is_rq)
                sb_putc(&b, '\\');
            sb_putn(&b, s + i, n);
        }
        i += n;
    }
    sb_puts(&b, rq);
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

static const char *quotef_(const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t len = strlen(str);
    sbuf b = {0};
    int needs = len == 0, squote = 0, all_dq = 1;
    for (size_t i = 0; i < len;) {
        int printable = 1;
        size_t n = s[i] < 0x80 ? 1 : char_at(s, len, i, &printable);
        if (s[i] < 0x80) {
            needs |= shell_needs_quote(s, len, i);
            squote |= s[i] == '\'';
            all_dq &= dq_compatible(s, len, i);
        } else {
            needs |= !printable;
            all_dq &= printable;
        }
        i += n;
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
    for (size_t i = 0; i < len;) {
        unsigned char c = s[i];
        char e = c_escape(c);
        int printable = 1;
        size_t n = c < 0x80 ? 1 : char_at(s, len, i, &printable);
        if (e || (c < 0x80 && !c_printable(c)) || !printable) {
            if (!pending) {
                sb_puts(&b, "'$'");
                pending = 1;
            }
            for (size_t j = 0; j < n; j++) {
                sb_putc(&b, '\\');
                if (e)
                    sb_putc(&b, e);
                else
                    sb_octal(&b, s[i + j]);
            }
            i += n;
            continue;
        }
        if (c == '\'') {
            sb_puts(&b, "'\\''");
            pending = 0;
            i++;
            continue;
        }
        if (pending) {
            sb_puts(&b, "''");
            pending = 0;
        }
        sb_putn(&b, s + i, n);
        i += n;
    }
    sb_putc(&b, '\'');
    return sb_keep(&b);
}
