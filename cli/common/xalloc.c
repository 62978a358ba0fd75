/* SPDX-License-Identifier: MIT */
/* Allocation that dies with "memory exhausted". */
#include "common/xalloc.h"

#include "common/msg.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

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

/*
 * Under the kernel's heuristic overcommit (Linux's default) a request is
 * refused only when it alone exceeds what the machine has (RAM + swap);
 * smaller ones are granted however many there are, and the OOM killer
 * ends the process once their pages are used. A plan allocated in parts
 * (an array, then the shuffle's copy of it; a deck, then the cards dealt
 * from it) therefore gets every part and is killed part-way, where one
 * request for its peak would have been refused at once. This asks for
 * the peak in one anonymous mapping, as malloc does for a large block,
 * and unmaps it untouched: it uses no memory, and ulimit -v and -d count
 * it as they count the parts.
 */
void xreserve(uint64_t bytes)
{
    if (bytes == 0)
        return;
    if (bytes > SIZE_MAX)
        xalloc_die();
    void *p = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        xalloc_die();
    munmap(p, (size_t)bytes);
}
