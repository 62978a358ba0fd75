/* SPDX-License-Identifier: MIT */
/* Strict JSON reader for `fairshuf verify --json` (json.h). */
#include "verify/json.h"

#include "common/xalloc.h"
#include "../../shared/utf8.h"

#include <stdlib.h>
#include <string.h>

#define JSON_MAX_MEMBERS 64 /* members of one object */

typedef struct {
    const char *p, *end, *start;
    const char *why;
    int depth;
} jparser;

static int fail(jparser *ps, const char *why)
{
    if (!ps->why)
        ps->why = why;
    return -1;
}

static void skip_ws(jparser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
                               *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

static int hex4(jparser *ps, unsigned *v)
{
    *v = 0;
    for (int k = 0; k < 4; k++) {
        if (ps->p >= ps->end)
            return fail(ps, "truncated \\u escape");
        char c = *ps->p++;
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            return fail(ps, "bad \\u escape");
        *v = *v << 4 | d;
    }
    return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xc0 | cp >> 6);
        o[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | cp >> 12);
        o[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | cp >> 18);
    o[1] = (char)(0x80 | (cp >> 12 & 0x3f));
    o[2] = (char)(0x80 | (cp >> 6 & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* A string at ps->p (after the opening quote); the decoded bytes are never
   longer than the source. */
static int parse_string(jparser *ps, char **out, size_t *len)
{
    const char *q = ps->p;
    while (q < ps->end && *q != '"') {
        if (*q == '\\')
            q++;
        q++;
    }
    if (q >= ps->end)
        return fail(ps, "unterminated string");
    char *s = xmalloc((size_t)(q - ps->p) + 1), *o = s;
    while (*ps->p != '"') {
        unsigned char c = (unsigned char)*ps->p++;
        if (c < 0x20) {
            free(s);
            return fail(ps, "control character in a string");
        }
        if (c >= 0x80) {
            /* RFC 8259 8.1: JSON text is UTF-8. The other verifiers read
               text (Python decodes the file, the page gets a string), so
               a byte that is no UTF-8 could reach none of them as it is. */
            unsigned k = utf8_char_len((const unsigned char *)ps->p - 1,
                                       (size_t)(ps->end - ps->p) + 1);
            if (k == 0) {
                free(s);
                ps->p--;
                return fail(ps, "invalid UTF-8 in a string");
            }
            memcpy(o, ps->p - 1, k);
            o += k;
            ps->p += k - 1;
            continue;
        }
        if (c != '\\') {
            *o++ = (char)c;
            continue;
        }
        char e = *ps->p++;
        unsigned cp;
        switch (e) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u':
            if (hex4(ps, &cp) != 0) {
                free(s);
                return -1;
            }
            if (cp >= 0xd800 && cp < 0xdc00) {
                unsigned lo;
                if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u') {
                    free(s);
                    return fail(ps, "lone surrogate in \\u escape");
                }
                ps->p += 2;
                if (hex4(ps, &lo) != 0 || lo < 0xdc00 || lo > 0xdfff) {
                    free(s);
                    return fail(ps, "lone surrogate in \\u escape");
                }
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            } else if (cp >= 0xdc00 && cp < 0xe000) {
                free(s);
                return fail(ps, "lone surrogate in \\u escape");
            }
            o += put_utf8(o, cp);
            break;
        default:
            free(s);
            return fail(ps, "bad escape in a string");
        }
    }
    ps->p++; /* closing quote */
    *o = '\0';
    *out = s;
    *len = (size_t)(o - s);
    return 0;
}

static int parse_value(jparser *ps, jval *v);

static int parse_number(jparser *ps, jval *v)
{
    const char *s = ps->p;
    int neg = 0, frac = 0;
    if (ps->p < ps->end && *ps->p == '-') {
        neg = 1;
        ps->p++;
    }
    if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
        return fail(ps, "bad number");
    if (*ps->p == '0' && ps->p + 1 < ps->end && ps->p[1] >= '0' && ps->p[1] <= '9')
        return fail(ps, "leading zero in a number");
    uint64_t u = 0;
    int fits = 1;
    while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') {
        unsigned d = (unsigned)(*ps->p++ - '0');
        if (u > (UINT64_MAX - d) / 10)
            fits = 0;
        else
            u = u * 10 + d;
    }
    if (ps->p < ps->end && *ps->p == '.') {
        frac = 1;
        ps->p++;
        if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
            return fail(ps, "bad number");
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
            ps->p++;
    }
    if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
        frac = 1;
        ps->p++;
        if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
            ps->p++;
        if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
            return fail(ps, "bad number");
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
            ps->p++;
    }
    (void)s;
    v->type = J_NUM;
    v->is_u64 = fits && !frac && !(neg && u != 0);
    v->u = v->is_u64 ? u : 0;
    return 0;
}

static int parse_literal(jparser *ps, const char *word, enum jtype t, jval *v)
{
    size_t n = strlen(word);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
        return fail(ps, "unexpected character");
    ps->p += n;
    v->type = t;
    return 0;
}

static void push(jval **items, char ***keys, size_t *n, size_t *cap)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 8;
        *items = xrealloc(*items, *cap * sizeof **items);
        if (keys)
            *keys = xrealloc(*keys, *cap * sizeof **keys);
    }
}

static int parse_container(jparser *ps, jval *v, int obj)
{
    size_t cap = 0;
    v->type = obj ? J_OBJ : J_ARR;
    if (++ps->depth > 64)
        return fail(ps, "nesting too deep");
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == (obj ? '}' : ']')) {
        ps->p++;
        ps->depth--;
        return 0;
    }
    for (;;) {
        push(&v->items, obj ? &v->keys : NULL, &v->len, &cap);
        memset(&v->items[v->len], 0, sizeof *v->items);
        if (obj) {
            size_t klen;
            skip_ws(ps);
            if (ps->p >= ps->end || *ps->p != '"')
                return fail(ps, "expected a member name");
            ps->p++;
            if (parse_string(ps, &v->keys[v->len], &klen) != 0)
                return -1;
            v->len++; /* the key is owned from here on */
            if (strlen(v->keys[v->len - 1]) != klen)
                return fail(ps, "NUL in a member name");
            /* The duplicate check is quadratic: a deal's objects have at
               most 13 members. */
            if (v->len > JSON_MAX_MEMBERS)
                return fail(ps, "too many members in an object");
            for (size_t k = 0; k + 1 < v->len; k++)
                if (strcmp(v->keys[k], v->keys[v->len - 1]) == 0)
                    return fail(ps, "duplicate member name");
            skip_ws(ps);
            if (ps->p >= ps->end || *ps->p != ':')
                return fail(ps, "expected ':'");
            ps->p++;
            if (parse_value(ps, &v->items[v->len - 1]) != 0)
                return -1;
        } else {
            v->len++;
            if (parse_value(ps, &v->items[v->len - 1]) != 0)
                return -1;
        }
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == (obj ? '}' : ']')) {
            ps->p++;
            ps->depth--;
            return 0;
        }
        return fail(ps, obj ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static int parse_value(jparser *ps, jval *v)
{
    memset(v, 0, sizeof *v);
    skip_ws(ps);
    if (ps->p >= ps->end)
        return fail(ps, "unexpected end of input");
    switch (*ps->p) {
    case '{':
        ps->p++;
        return parse_container(ps, v, 1);
    case '[':
        ps->p++;
        return parse_container(ps, v, 0);
    case '"':
        ps->p++;
        v->type = J_STR;
        return parse_string(ps, &v->str, &v->len);
    case 't':
        return parse_literal(ps, "true", J_TRUE, v);
    case 'f':
        return parse_literal(ps, "false", J_FALSE, v);
    case 'n':
        return parse_literal(ps, "null", J_NULL, v);
    default:
        return parse_number(ps, v);
    }
}

int json_parse(jval *out, const char *text, size_t len, const char **why,
               size_t *at)
{
    jparser ps = {text, text + len, text, NULL, 0};
    int rc = parse_value(&ps, out);
    if (rc == 0) {
        skip_ws(&ps);
        if (ps.p != ps.end)
            rc = fail(&ps, "extra data after the value");
    }
    if (rc != 0) {
        *why = ps.why;
        *at = (size_t)(ps.p - ps.start);
        json_free(out);
        memset(out, 0, sizeof *out);
    }
    return rc;
}

const jval *json_get(const jval *v, const char *key)
{
    if (!v || v->type != J_OBJ)
        return NULL;
    for (size_t k = 0; k < v->len; k++)
        if (strcmp(v->keys[k], key) == 0)
            return &v->items[k];
    return NULL;
}

void json_free(jval *v)
{
    if (!v)
        return;
    for (size_t k = 0; k < v->len && (v->type == J_ARR || v->type == J_OBJ); k++) {
        json_free(&v->items[k]);
        if (v->keys)
            free(v->keys[k]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
    v->items = NULL;
    v->keys = NULL;
    v->str = NULL;
}
