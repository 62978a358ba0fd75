/* SPDX-License-Identifier: MIT */
/* Target json: the strict JSON reader behind `fairshuf verify --json`
   (cli/verify/json.c) on any bytes. It must never read or write out of
   bounds; a failure names a reason and an offset within the input; a
   success gives a well-formed tree (strings NUL-terminated at their
   length and UTF-8, objects with a key per member, no duplicate keys,
   integers marked u64 only when they are digits that fit). */
#include "fuzz.h"
#include "verify/json.h"
#include "../../shared/utf8.h"

#include <string.h>

/* s[0..len) is UTF-8 (a \u0000 decodes to a NUL, one character). */
static int utf8_counted(const char *s, size_t len)
{
    for (size_t i = 0; i < len;) {
        unsigned k = utf8_char_len((const unsigned char *)s + i, len - i);
        if (k == 0)
            return 0;
        i += k;
    }
    return 1;
}

static void walk(const jval *v, int depth)
{
    FZ_CHECK(depth <= 65);
    switch (v->type) {
    case J_STR:
        FZ_CHECK(v->str != NULL && v->str[v->len] == '\0');
        FZ_CHECK(utf8_counted(v->str, v->len));
        break;
    case J_ARR:
        for (size_t i = 0; i < v->len; i++)
            walk(&v->items[i], depth + 1);
        break;
    case J_OBJ:
        for (size_t i = 0; i < v->len; i++) {
            FZ_CHECK(v->keys[i] != NULL);
            FZ_CHECK(utf8_counted(v->keys[i], strlen(v->keys[i])));
            for (size_t j = 0; j < i; j++)
                FZ_CHECK(strcmp(v->keys[i], v->keys[j]) != 0);
            FZ_CHECK(json_get(v, v->keys[i]) == &v->items[i]);
            walk(&v->items[i], depth + 1);
        }
        break;
    case J_NUM:
    case J_NULL:
    case J_TRUE:
    case J_FALSE:
        break;
    default:
        FZ_CHECK(0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* An exact-size copy, so ASan sees any read past the end. */
    char *text = malloc(size ? size : 1);
    FZ_CHECK(text != NULL);
    memcpy(text, data, size);
    jval v;
    const char *why = NULL;
    size_t at = (size_t)-1;
    if (json_parse(&v, text, size, &why, &at) == 0) {
        walk(&v, 0);
        json_free(&v);
    } else {
        FZ_CHECK(why != NULL && at <= size);
    }
    free(text);
    return 0;
}
