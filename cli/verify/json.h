/* SPDX-License-Identifier: MIT */
/* A small strict JSON reader (RFC 8259) for `fairshuf verify --json`:
   values as a tree; integers kept exactly as unsigned 64-bit. */
#ifndef FSH_CLI_JSON_H
#define FSH_CLI_JSON_H

#include <stddef.h>
#include <stdint.h>

enum jtype { J_NULL, J_FALSE, J_TRUE, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct jval {
    enum jtype type;
    char *str;            /* J_STR: UTF-8, NUL-terminated (len bytes) */
    size_t len;           /* J_STR: bytes; J_ARR/J_OBJ: members */
    int is_u64;           /* J_NUM: a non-negative integer that fits u64 */
    uint64_t u;           /* J_NUM when is_u64 */
    struct jval *items;   /* J_ARR/J_OBJ: the members */
    char **keys;          /* J_OBJ: the member names */
} jval;

/* Parse text[0..len) into *out (one value, whitespace around it). Returns 0,
   or -1 with a message (static storage) in *why and the byte offset in
   *at. Nesting deeper than 64, duplicate keys and a string's bytes that
   are no UTF-8 (RFC 3629) are errors. */
int json_parse(jval *out, const char *text, size_t len, const char **why,
               size_t *at);
/* Member `key` of object v, or NULL (also when v is not an object). */
const jval *json_get(const jval *v, const char *key);
/* Release what json_parse allocated under v. */
void json_free(jval *v);

#endif
