/* SPDX-License-Identifier: MIT */
/* A consumer of the installed libfairshuf_mpi (tests/mpi/test_mpi_pkg.sh,
   through fairshuf_mpi.pc and the CMake package): the numbers 1..20 split
   over the ranks, shuffled by fsh_mpi_shuffle under a fixed seed, gathered
   on rank 0 and printed on one line. The same line for any number of
   ranks (fsh_mpi_shuffle(3)). */
#include <fairshuf_mpi.h>

#include <stdio.h>
#include <stdlib.h>

enum { N = 20 };

int main(int argc, char **argv)
{
    int rank, np, st;
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
        return 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np > N) {
        MPI_Finalize();
        return 1;
    }
    /* Rank r holds [r N / np, (r + 1) N / np). */
    int cnt[N], off[N];
    for (int r = 0; r < np; r++) {
        off[r] = r * N / np;
        cnt[r] = (r + 1) * N / np - off[r];
    }
    uint32_t mine[N], all[N];
    for (int i = 0; i < cnt[rank]; i++)
        mine[i] = (uint32_t)(off[rank] + i + 1);
    fsh_rng *rng = NULL;
    st = fsh_rng_new_seeded(&rng, "pkg", 3);
    if (st == FSH_OK)
        st = fsh_rng_set_simulation(rng, 1);
    if (st == FSH_OK)
        st = fsh_mpi_shuffle(MPI_COMM_WORLD, rng, mine, (size_t)cnt[rank],
                             sizeof mine[0], 1, NULL);
    fsh_rng_free(rng);
    if (st != FSH_OK) {
        fprintf(stderr, "mpi_shuffle: rank %d: %s\n", rank, fsh_mpi_strerror(st));
        MPI_Finalize();
        return 1;
    }
    if (MPI_Gatherv(mine, cnt[rank], MPI_UINT32_T, all, cnt, off, MPI_UINT32_T,
                    0, MPI_COMM_WORLD) != MPI_SUCCESS) {
        MPI_Finalize();
        return 1;
    }
    if (rank == 0)
        for (int i = 0; i < N; i++)
            printf("%u%c", (unsigned)all[i], i + 1 < N ? ' ' : '\n');
    MPI_Finalize();
    return 0;
}
