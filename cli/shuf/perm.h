/* The record permutation (see perm.c). */
#ifndef FSH_CLI_PERM_H
#define FSH_CLI_PERM_H

#include <stddef.h>
#include <stdint.h>

#include "common/rng.h"

/* a[0..n) (elements of 4 or 8 bytes) permuted on up to threads threads;
   returns the permuted array, a or a new one (then a is freed). n < 2
   draws nothing. */
void *perm_records(lazy_rng *r, void *a, size_t n, size_t size,
                   unsigned threads);

/* External mode's pieces: 1 when n records are permuted by a key (else by
   Fisher-Yates, perm_records on an index array); the key; the permutation
   of a group of buckets [lo, lo + nb): off[0..n) in input order with their
   bucket ids, returned (a new array; off is freed) as the group's stretch
   of the output. */
int perm_keyed(uint64_t n);
void perm_key(lazy_rng *r, uint8_t key[32]);
size_t *perm_group(const uint8_t key[32], size_t *off, size_t n,
                   const uint32_t *ids, uint32_t lo, size_t nb,
                   unsigned threads);

#endif
