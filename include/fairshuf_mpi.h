/* SPDX-License-Identifier: MIT */
/* libfairshuf_mpi: fairshuf's record permutation over MPI (issue 15).
 *
 * Built by "make mpi" (mk/mpi.mk) with mpicc; optional: the core library
 * and the command never need it. Link with -lfairshuf_mpi -lfairshuf and
 * MPI (mpicc). Installed beside fairshuf.h, which it includes.
 *
 * The permutation is the one fsh_shuffle_records gives the concatenation
 * of every rank's records in rank order, so the output depends only on the
 * generator and the records, never on the number of ranks or on how the
 * records are split among them (docs/DESIGN.md, "Distributed shuffle").
 * One exception, in fsh_mpi_shuffle(3), NOTES: up to FSH_RECORDS_SMALL
 * records of more than 24 bytes and 24 MiB in all.
 */
#ifndef FAIRSHUF_MPI_H
#define FAIRSHUF_MPI_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "fairshuf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes beyond fairshuf.h's (every rank returns the same one). */
#define FSH_MPI_ECOMM (-100)     /* an MPI call failed (a rank died, ...) */
#define FSH_MPI_EMISMATCH (-101) /* ranks passed different arguments:
                                    record size, generator state, NULL-ness */

/* What one call did, on this rank (any field may be ignored). */
typedef struct fsh_mpi_info {
    uint64_t records;         /* N: records on all ranks together */
    unsigned bits;            /* bucket bits (0: N <= FSH_RECORDS_SMALL) */
    uint64_t sent_records;    /* records this rank sent to other ranks in
                                 the exchange */
    uint64_t sent_bytes;      /* bytes of them, with their 4-byte tags */
    uint64_t rebalance_records; /* records this rank sent when rebalancing */
    uint64_t rebalance_bytes;
} fsh_mpi_info;

/* Collective over comm: each rank holds count records of size bytes at
   base; afterwards the concatenation of the ranks' arrays in rank order is
   the record permutation of the whole (fsh_shuffle_records with rng on the
   concatenation, for every generator but a mixing one, which
   fsh_shuffle_records treats as one stream), and each rank holds count
   records again. A generator in certified-source mode (fsh_rng_set_direct)
   is taken up to FSH_RECORDS_SMALL records in all (every index from its
   words, as fsh_shuffle_records); above, where the buckets' streams would
   be keyed from it, the call is FSH_EINVAL on every rank, before anything
   is drawn or moved. rng: a generator in the same state on every rank (each
   then draws the same values, so they stay equal), or NULL on every rank:
   rank 0 makes one from the OS (fsh_rng_new, full reach where the hardware
   allows, else the 256-bit key's bound: as the fairshuf command) and sends
   what it draws. size, NULL-ness and generator state are checked to be the
   same on every rank (FSH_MPI_EMISMATCH), and so is the test hook
   FSH_MPI_TEST_CHUNK (a message size limit) in the environment. threads as fsh_shuffle_records.
   info may be NULL. FSH_EINVAL (on this rank alone) when MPI is not
   initialized, already finalized, or comm is MPI_COMM_NULL or an
   intercommunicator. Errors are
   FSH_EINVAL, FSH_ENOMEM, FSH_MPI_ECOMM,
   FSH_MPI_EMISMATCH, or the generator's (FSH_EENTROPY where
   fsh_shuffle_records refuses rng for N records); every rank returns the same
   status, and on error the arrays are unchanged unless the status is
   FSH_MPI_ECOMM. MPI calls use a duplicate of comm whose error handler
   returns (MPI_ERRORS_RETURN); comm itself is not changed. The duplicate
   is made by MPI_Comm_dup, which runs the copy callbacks of comm's
   attributes, under comm's own error handler: its failure is
   FSH_MPI_ECOMM only when that handler returns. An MPI call that fails
   on some ranks only can leave the others waiting in a collective (MPI
   tells them nothing). */
FSH_API FSH_NODISCARD int fsh_mpi_shuffle(MPI_Comm comm, fsh_rng *rng,
                                          void *base, size_t count,
                                          size_t size, unsigned threads,
                                          fsh_mpi_info *info);

/* A message for a status (fsh_strerror's, plus the two above). */
FSH_API const char *fsh_mpi_strerror(int status);

#ifdef __cplusplus
}
#endif

#endif
