/* SPDX-License-Identifier: MIT */
/* libfairshuf_mpi's pieces, shared by fsh_mpi_shuffle, the fairshuf-mpi
 * command (variable-length lines) and the tests (their own bucket ids and
 * group shuffles, known-bad routing). Not installed; hidden in the .so. */
#ifndef FSH_MPI_INTERNAL_H
#define FSH_MPI_INTERNAL_H

#include "fairshuf_mpi.h"

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define FSHM_HIDDEN __attribute__((visibility("hidden")))
#else
#define FSHM_HIDDEN
#endif

typedef struct fshm {
    MPI_Comm comm; /* a dup with MPI_ERRORS_RETURN */
    int rank, np;
    size_t chunk;  /* most bytes per message (FSH_MPI_TEST_CHUNK) */
} fshm;

/* Records: fixed size (size > 0) or variable (size 0, len[i] bytes each),
   stored back to back in data. */
typedef struct fshm_recs {
    unsigned char *data;
    size_t n;
    size_t size;
    uint64_t *len;
    uint64_t bytes;
    int owned; /* data and len are ours to free; the exchange frees
                  them as soon as they are packed (consumed) */
    int lazy;        /* variable records: the last step (group shuffle or
                        placement) may leave them in place and set order */
    uint64_t *order; /* if set: record i is the stored record order[i] */
} fshm_recs;

/* Permute r (in place) given the bucket ids of its records, all in
   [lo, lo + nb): r holds, in input order, every record of those buckets. */
typedef int (*fshm_group_fn)(void *ctx, fshm_recs *r, const uint32_t *ids,
                             uint32_t lo, uint32_t nb, unsigned threads);

/* Open: dup comm, set MPI_ERRORS_RETURN. FSH_OK or FSH_MPI_ECOMM. */
FSHM_HIDDEN int fshm_open(fshm *m, MPI_Comm comm);
FSHM_HIDDEN void fshm_close(fshm *m);
/* Every rank's status reduced to the lowest (errors are negative). */
FSHM_HIDDEN int fshm_agree(fshm *m, int rc);
/* FSH_OK when every rank passed the same v, else FSH_MPI_EMISMATCH. */
FSHM_HIDDEN int fshm_same(fshm *m, uint64_t v, int *rc);
FSHM_HIDDEN uint64_t fshm_digest(const void *p, size_t n, uint64_t h);
FSHM_HIDDEN void fshm_recs_free(fshm_recs *r);
/* Byte offset of record i (variable records: a walk; use sparingly). */
FSHM_HIDDEN uint64_t *fshm_offsets(const fshm_recs *r);
/* r reordered: new[i] = old[idx[i]]. */
FSHM_HIDDEN int fshm_apply(fshm_recs *r, const uint64_t *idx);

/* The bucket stage: record i of in (global index first + i) has bucket id
   ids[i] of 2^bits; rank r receives buckets [r B / P, (r + 1) B / P) in
   input order and fn permutes them; out gets them. bad = 1 routes record
   to rank (first + i) mod P instead, with every bucket (the known-bad
   variant the tests must catch). */
FSHM_HIDDEN int fshm_buckets(fshm *m, fshm_recs *in,
                             const uint32_t *ids, unsigned bits,
                             uint64_t first, int bad, fshm_group_fn fn,
                             void *fctx, unsigned threads, fshm_recs *out,
                             fsh_mpi_info *info);
/* The group shuffle of the keyed permutation (fsh_records_shuffle_group). */
FSHM_HIDDEN int fshm_key_group(void *key, fshm_recs *r, const uint32_t *ids,
                               uint32_t lo, uint32_t nb, unsigned threads);
/* Move records so that rank r holds target records (its part of the
   sequence in rank order), order unchanged. */
FSHM_HIDDEN int fshm_rebalance(fshm *m, fshm_recs *in, uint64_t target,
                               fshm_recs *out, fsh_mpi_info *info);
/* The whole permutation of the N records (this rank: in, global index
   first..): rng as fsh_mpi_shuffle (rng_null: NULL on every rank). out gets
   this rank's stretch: when rebalance, in->n records; else the stretch of
   the buckets it owns (N > FSH_RECORDS_SMALL) or in->n records. */
FSHM_HIDDEN int fshm_shuffle(fshm *m, fsh_rng *rng, fshm_recs *in,
                             uint64_t first, uint64_t N, unsigned threads,
                             int rebalance, fshm_recs *out,
                             fsh_mpi_info *info);

/* The key of N > FSH_RECORDS_SMALL records: rng's next 32 bytes (checked
   equal on every rank), or rank 0's OS generator's, broadcast. FSH_EINVAL
   on every rank when rng is in certified-source mode on any. */
FSHM_HIDDEN int fshm_draw_key(fshm *m, fsh_rng *rng, uint8_t key[32]);
/* One exchange round of the bucket stage: record i goes with its tag
   ids[i] to the owner of bucket ids[i]; out, *otags as received, from[s]
   = records received from rank s (P entries). Adds to info's sent
   counts. */
FSHM_HIDDEN int fshm_route_buckets(fshm *m, fshm_recs *in,
                                   const uint32_t *ids, unsigned bits,
                                   fshm_recs *out, uint32_t **otags,
                                   uint64_t *from, fsh_mpi_info *info);
/* This rank's buckets: [*lo, *lo + *nb). */
FSHM_HIDDEN void fshm_bucket_range(const fshm *m, unsigned bits,
                                   uint32_t *lo, uint32_t *nb);

#endif
