/* SPDX-License-Identifier: MIT */
/* Allocation that dies with "memory exhausted". */
#include "common/xalloc.h"

#include "common/msg.h"

#include <stdlib.h>

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
