/* SPDX-License-Identifier: MIT */
/* Allocation that dies with GNU's "memory exhausted". */
#ifndef FSH_CLI_XALLOC_H
#define FSH_CLI_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
_Noreturn void xalloc_die(void);

#endif
