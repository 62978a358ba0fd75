/* SPDX-License-Identifier: MIT */
/* GNU-style quoting of strings in messages (gnulib's quote and quotef). */
#include "common/quote.h"

#include "common/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>
#include <wctype.h>

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

static const char *keep_errno(const char *(*style)(const char *),
                              const char *str)
{
    int e = errno;
    const char *q = style(str);
    errno = e;
    return q;
}

const char *quote(const char *str)
{
    return keep_errno(quote_, str);
}

const char *quotef(const char *str)
{
    return keep_errno(quotef_, str);
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

/* Classify ASCII byte s[i] of a file name for shell quoting (gnulib's
   shell-escape style): the return value says whether it needs quoting,
   *dq whether it is safe inside both C and shell double quotes. */
static int shell_char(const unsigned char *s, size_t len, size_t i, int *dq)
{
    unsigned char c = s[i];
    if (!c_printable(c))
        return *dq = 0, 1;
    switch (c) {
    case '{':
    case '}':
        return *dq = len == 1;
    case '#':
    case '~':
        return *dq = i == 0;
    case ' ': case '\'': case ':':
        return *dq = 1, 1;
    case '!': case '"': case '$': case '&': case '(': case ')': case '*':
    case ';': case '<': case '=': case '>': case '[': case '^': case '`':
    case '|': case '?': case '\\':
        return *dq = 0, 1;
    default:
        return *dq = 1, 0;
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
            int dq;
            needs |= shell_char(s, len, i, &dq);
            squote |= s[i] == '\'';
            all_dq &= dq;
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
