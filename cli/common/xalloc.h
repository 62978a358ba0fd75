/* SPDX-License-Identifier: MIT */
/* Allocation that dies with GNU's "memory exhausted". */
#ifndef FSH_CLI_XALLOC_H
#define FSH_CLI_XALLOC_H

#include <stddef.h>
#include <stdint.h>

void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
_Noreturn void xalloc_die(void);
/* Die with "memory exhausted" unless the kernel grants bytes in one
   request now: the peak of a plan whose parts are allocated one by one.
   Nothing is kept or used. */
void xreserve(uint64_t bytes);

#endif
