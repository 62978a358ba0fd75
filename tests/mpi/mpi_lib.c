/* SPDX-License-Identifier: MIT */
/* libfairshuf_mpi under mpirun (run by tests/mpi/test_mpi.sh for P = 1..4):
 *   mpi_lib perm      fsh_mpi_shuffle equals fsh_shuffle_records on the
 *                     concatenation, for splits with empty ranks, one
 *                     record, all records on one rank, below and above
 *                     FSH_RECORDS_SMALL; counts kept; rng NULL permutes
 *                     and fsh_mpi_info's fields
 *   mpi_lib errors    mismatched size / seed / NULL-ness / message size
 *                     limit (FSH_MPI_TEST_CHUNK), bad arguments, a
 *                     certified-source generator above FSH_RECORDS_SMALL
 *                     (FSH_EINVAL, on one rank too), the generator's own
 *                     error (FSH_EENTROPY), a failed allocation on one
 *                     rank (FSH_ENOMEM) and failed MPI calls on all
 *                     (FSH_MPI_ECOMM: MPI_Comm_dup of a comm whose
 *                     attribute's copy callback fails, and MPI_Alltoall
 *                     made to fail through the profiling interface) on
 *                     every rank; fsh_mpi_strerror
 *   mpi_lib enum      exhaustive: every bucket assignment and every
 *                     per-bucket order at tiny N; each output order must
 *                     get weight exactly B^N (uniform), the distributed
 *                     result must equal the serial one, and two known-bad
 *                     variants (modulo routing, no per-bucket shuffle) must
 *                     be caught
 *   mpi_lib chi       position-by-value chi-square of the keyed bucket
 *                     path (real ChaCha20 ids and streams) at N = 6
 *   mpi_lib finalized fsh_mpi_shuffle before MPI_Init and after
 *                     MPI_Finalize: FSH_EINVAL, not an abort (each rank
 *                     prints its own summary)
 * Several parts run one after another in one launch ("mpi_lib perm errors
 * enum"), each with its summary line; PART@BYTES runs PART with
 * FSH_MPI_TEST_CHUNK=BYTES (messages of at most BYTES bytes).
 * Every rank runs the checks; rank 0 prints the summary with the sum of
 * every rank's counts.
 */
#include "fairshuf_mpi.h"
#include "internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long passed, failed;
static int rank, np;

#define CHECK(c)                                                               \
    do {                                                                       \
        if (c) {                                                               \
            passed++;                                                          \
        } else {                                                               \
            failed++;                                                          \
            fprintf(stderr, "mpi_lib: rank %d: %s:%d: CHECK failed: %s\n",     \
                    rank, __FILE__, __LINE__, #c);                             \
        }                                                                      \
    } while (0)

static fsh_rng *seeded(const char *s)
{
    fsh_rng *g = NULL;
    if (fsh_rng_new_seeded(&g, s, strlen(s)) != FSH_OK ||
        fsh_rng_set_simulation(g, 1) != FSH_OK) {
        fprintf(stderr, "mpi_lib: cannot make a generator\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return g;
}

/* This rank's count under split kind k of N records. */
static size_t split(int k, uint64_t N, int r)
{
    switch (k) {
    case 0: /* even */
        return (size_t)(N / (uint64_t)np + ((uint64_t)r < N % (uint64_t)np));
    case 1: /* all on the last rank */
        return r == np - 1 ? (size_t)N : 0;
    case 2: /* rank 1 has one record; P = 2: rank 0 the rest; else rank 0
               none and the last rank the rest */
        if (np == 1)
            return (size_t)N;
        if (r == 1)
            return N > 0 ? 1 : 0;
        if ((np == 2 && r == 0) || (np > 2 && r == np - 1))
            return (size_t)(N > 0 ? N - 1 : 0);
        return 0;
    default: /* uneven: rank r gets (r + 1) shares */
    {
        uint64_t tot = (uint64_t)np * ((uint64_t)np + 1) / 2, a = 0;
        for (int q = 0; q < r; q++)
            a += N * (uint64_t)(q + 1) / tot;
        if (r == np - 1)
            return (size_t)(N - a);
        return (size_t)(N * (uint64_t)(r + 1) / tot);
    }
    }
}

static uint64_t prefix(int k, uint64_t N, int r)
{
    uint64_t a = 0;
    for (int q = 0; q < r; q++)
        a += split(k, N, q);
    return a;
}

/* Rank r's part of 0..N-1 under split k, as 8-byte records: *n of them
   from *first (one spare slot, so that n = 0 still allocates). */
static uint64_t *slice_new(int k, uint64_t N, int r, size_t *n,
                           uint64_t *first)
{
    *n = split(k, N, r);
    *first = prefix(k, N, r);
    uint64_t *v = malloc(*n * 8 + 8);
    if (v != NULL)
        for (size_t i = 0; i < *n; i++)
            v[i] = *first + i;
    return v;
}

/* Gather every rank's n records of size bytes to rank 0 (NULL elsewhere). */
static unsigned char *gather(const void *p, size_t n, size_t size,
                             uint64_t N)
{
    int *cnt = malloc((size_t)np * sizeof *cnt),
        *dis = malloc((size_t)np * sizeof *dis);
    int c = (int)(n * size);
    MPI_Gather(&c, 1, MPI_INT, cnt, 1, MPI_INT, 0, MPI_COMM_WORLD);
    unsigned char *all = NULL;
    if (rank == 0) {
        int at = 0;
        for (int q = 0; q < np; q++) {
            dis[q] = at;
            at += cnt[q];
        }
        all = malloc(N * size + 1);
    }
    MPI_Gatherv(p, c, MPI_BYTE, all, cnt, dis, MPI_BYTE, 0, MPI_COMM_WORLD);
    free(cnt);
    free(dis);
    return all;
}

/* ------------------------------------------------------------------------ */

/* fsh_mpi_info: the bucket bits (0 up to FSH_RECORDS_SMALL), bytes as
   records times size plus the 4-byte tag the exchange sends with each,
   none in the rebalancing; nothing sent to another rank when P = 1. */
static void check_info(const fsh_mpi_info *i, uint64_t N, size_t size)
{
    CHECK(i->bits == (N > FSH_RECORDS_SMALL ? fsh_records_bits(N) : 0));
    CHECK(i->sent_bytes == i->sent_records * (size + 4));
    CHECK(i->rebalance_bytes == i->rebalance_records * size);
    CHECK(i->sent_records <= N && i->rebalance_records <= N);
    if (np == 1)
        CHECK(i->sent_records == 0 && i->rebalance_records == 0);
}

/* mode 1: the generator passed, and the reference's, are in
   certified-source mode (fsh_rng_set_direct), which fsh_shuffle_records
   takes as one stream at every size; fsh_mpi_shuffle takes it up to
   FSH_RECORDS_SMALL records (above, it refuses: run_errors). mode 2: both
   run stream version 3, whose fsh_shuffle runs elements of up to 8 bytes
   forward above 6 MiB (the permutation the small path must draw). */
static int set_mode(fsh_rng *g, int mode)
{
    if (mode == 1)
        return fsh_rng_set_direct(g, 1);
    if (mode == 2)
        return fsh_rng_set_stream_version(g, FSH_STREAM_V3);
    return FSH_OK;
}

static void perm_case(uint64_t N, int k, size_t size, const char *seed,
                      int mode)
{
    size_t n = split(k, N, rank);
    uint64_t first = prefix(k, N, rank);
    /* Each record starts with its input index, in its first idb bytes
       (little-endian hosts; the sizes below 8 hold every N they run). */
    size_t idb = size < 8 ? size : 8;
    unsigned char *a = malloc(n * size + 1);
    for (size_t i = 0; i < n; i++) {
        memset(a + i * size, (int)(i & 0x7f), size);
        uint64_t v = first + i;
        memcpy(a + i * size, &v, idb);
    }
    fsh_rng *g = seeded(seed);
    if (set_mode(g, mode) != FSH_OK)
        CHECK(0);
    fsh_mpi_info info;
    memset(&info, 0xEE, sizeof info);
    int rc = fsh_mpi_shuffle(MPI_COMM_WORLD, g, a, n, size, 2, &info);
    CHECK(rc == FSH_OK);
    CHECK(info.records == N);
    check_info(&info, N, size);
    /* The generator advanced as on one machine: same next draw as the
       reference's. */
    uint64_t next;
    CHECK(fsh_rng_u64(g, &next) == FSH_OK);
    unsigned char *all = gather(a, n, size, N);
    uint64_t sent[2] = {info.sent_records, info.rebalance_records}, *sents =
        rank == 0 ? malloc(2 * (size_t)np * sizeof *sents) : NULL;
    MPI_Gather(sent, 2, MPI_UINT64_T, sents, 2, MPI_UINT64_T, 0,
               MPI_COMM_WORLD);
    if (rank == 0 && N > 1 && N <= FSH_RECORDS_SMALL) {
        /* One exchange, no rebalancing: rank q sent exactly its records
           whose output position another rank owns (the record's first
           idb bytes are its input index). */
        uint64_t *want = calloc((size_t)np, sizeof *want);
        for (uint64_t p = 0; p < N; p++) {
            uint64_t v = 0;
            memcpy(&v, all + p * size, idb);
            int src = 0, dst = 0;
            while (src + 1 < np && prefix(k, N, src + 1) <= v)
                src++;
            while (dst + 1 < np && prefix(k, N, dst + 1) <= p)
                dst++;
            want[src] += src != dst;
        }
        int ok = 1;
        for (int q = 0; q < np; q++)
            ok &= sents[2 * q] == want[q] && sents[2 * q + 1] == 0;
        CHECK(ok);
        free(want);
    }
    free(sents);
    if (rank == 0) {
        unsigned char *ref = malloc(N * size + 1);
        uint64_t at = 0;
        for (int q = 0; q < np; q++)
            for (size_t i = 0; i < split(k, N, q); i++, at++) {
                memset(ref + at * size, (int)(i & 0x7f), size);
                memcpy(ref + at * size, &at, idb);
            }
        fsh_rng *h = seeded(seed);
        if (set_mode(h, mode) != FSH_OK)
            CHECK(0);
        if (N > 1)
            CHECK(fsh_shuffle_records(h, ref, (size_t)N, size, 1) == FSH_OK);
        uint64_t rnext;
        CHECK(fsh_rng_u64(h, &rnext) == FSH_OK);
        CHECK(rnext == next || N < 2);
        int same = memcmp(ref, all, (size_t)(N * size)) == 0;
        if (!same)
            fprintf(stderr, "mpi_lib: N=%llu split %d size %zu: differs from "
                            "fsh_shuffle_records\n",
                    (unsigned long long)N, k, size);
        CHECK(same);
        fsh_rng_free(h);
        free(ref);
    }
    free(all);
    fsh_rng_free(g);
    free(a);
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static void perm_null(uint64_t N, int k)
{
    size_t n = split(k, N, rank);
    uint64_t first = prefix(k, N, rank);
    uint64_t *a = malloc(n * 8 + 8);
    for (size_t i = 0; i < n; i++)
        a[i] = first + i;
    CHECK(fsh_mpi_shuffle(MPI_COMM_WORLD, NULL, a, n, 8, 0, NULL) == FSH_OK);
    uint64_t *all = (uint64_t *)(void *)gather(a, n, 8, N);
    if (rank == 0) {
        qsort(all, (size_t)N, 8, cmp_u64);
        int ok = 1;
        for (uint64_t i = 0; i < N; i++)
            ok &= all[i] == i;
        CHECK(ok);
    }
    free(all);
    free(a);
}

static void run_perm(void)
{
    const uint64_t Ns[] = {0, 1, 2, 3, 10, 1000, 100000};
    for (size_t i = 0; i < sizeof Ns / sizeof *Ns; i++)
        for (int k = 0; k < 4; k++)
            perm_case(Ns[i], k, i % 2 ? 8 : 13, "perm", 0);
    /* Above FSH_RECORDS_SMALL: the keyed bucket path and the rebalance. */
    uint64_t big = FSH_RECORDS_SMALL + 150000;
    perm_case(big, 0, 8, "big", 0);
    perm_case(big, 2, 8, "big", 0);
    perm_case(big, 3, 12, "big2", 0);
    perm_case(1000, 3, 8, "direct", 1);
    perm_case(FSH_RECORDS_SMALL, 3, 8, "direct", 1);
    /* Stream version 3 below FSH_RECORDS_SMALL: 8-byte records above
       6 MiB, 7-byte ones at 2^20 (7 MiB) run forward, 6-byte ones at 2^20
       (6 MiB) do not, nor 4-byte ones (4 MiB); direct too. */
    perm_case(900000, 3, 8, "v3", 2);
    perm_case(FSH_RECORDS_SMALL, 0, 7, "v3", 2);
    perm_case(FSH_RECORDS_SMALL, 2, 6, "v3", 2);
    perm_case(FSH_RECORDS_SMALL, 0, 4, "v3", 2);
    perm_case(3000, 0, 3, "v3", 2);
    perm_null(1000, 3);
    perm_null(big, 0);
}

/* ------------------------------------------------------------------------ */

/* An attribute copy callback that refuses: MPI_Comm_dup of a comm carrying
   it fails with this (the standard's rule for a copy function's error). */
static int copy_refused(MPI_Comm comm, int keyval, void *extra, void *in,
                        void *out, int *flag)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    (void)in;
    (void)out;
    *flag = 0;
    return MPI_ERR_OTHER;
}

/* Fault injection through MPI's profiling interface: while fail_alltoall
   is set, MPI_Alltoall (the library's, linked into this program) fails on
   this rank without communicating; otherwise it is PMPI_Alltoall. */
static int fail_alltoall;

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    if (fail_alltoall)
        return MPI_ERR_OTHER;
    return PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

/* a[0..4) still 1, 2, 3, 4 (the header: on error the arrays are
   unchanged). */
static int untouched(const uint64_t *a)
{
    return a[0] == 1 && a[1] == 2 && a[2] == 3 && a[3] == 4;
}

static void run_errors(void)
{
    uint64_t a[4] = {1, 2, 3, 4};
    fsh_rng *g = seeded("e");
    /* The caller's communicator keeps its error handler. */
    MPI_Errhandler eh0, eh1;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh0);
    /* Record size differs on the last rank. */
    int rc = fsh_mpi_shuffle(MPI_COMM_WORLD, g, a, 2,
                             rank == np - 1 && np > 1 ? 4 : 8, 0, NULL);
    CHECK(rc == (np > 1 ? FSH_MPI_EMISMATCH : FSH_OK));
    if (np > 1)
        CHECK(untouched(a));
    /* Different seeds: the drawn permutation differs. */
    fsh_rng *h = seeded(rank == np - 1 ? "other" : "e2");
    uint64_t b[4] = {1, 2, 3, 4};
    rc = fsh_mpi_shuffle(MPI_COMM_WORLD, h, b, 2, 8, 0, NULL);
    CHECK(rc == (np > 1 ? FSH_MPI_EMISMATCH : FSH_OK));
    if (np > 1)
        CHECK(untouched(b));
    /* Another message size limit (FSH_MPI_TEST_CHUNK) on the last rank. */
    if (np > 1) {
        uint64_t f[4] = {1, 2, 3, 4};
        const char *was = getenv("FSH_MPI_TEST_CHUNK");
        char keep[32] = "";
        if (was != NULL)
            snprintf(keep, sizeof keep, "%s", was);
        if (rank == np - 1 &&
            setenv("FSH_MPI_TEST_CHUNK", was && strcmp(was, "4096") == 0
                                             ? "4097" : "4096", 1) != 0)
            CHECK(0);
        rc = fsh_mpi_shuffle(MPI_COMM_WORLD, g, f, 2, 8, 0, NULL);
        if (was != NULL)
            setenv("FSH_MPI_TEST_CHUNK", keep, 1);
        else
            unsetenv("FSH_MPI_TEST_CHUNK");
        CHECK(rc == FSH_MPI_EMISMATCH);
        CHECK(untouched(f));
    }
    /* A generator on some ranks only. */
    uint64_t c[4] = {1, 2, 3, 4};
    rc = fsh_mpi_shuffle(MPI_COMM_WORLD, rank == 0 ? NULL : g, c, 2, 8, 0,
                         NULL);
    CHECK(rc == (np > 1 ? FSH_MPI_EMISMATCH : FSH_OK));
    if (np > 1)
        CHECK(untouched(c));
    /* NULL base with a count on one rank: FSH_EINVAL everywhere. */
    uint64_t d[4] = {1, 2, 3, 4};
    rc = fsh_mpi_shuffle(MPI_COMM_WORLD, g, rank == 0 ? NULL : d, 2, 8, 0,
                         NULL);
    CHECK(rc == FSH_EINVAL);
    CHECK(untouched(d));
    rc = fsh_mpi_shuffle(MPI_COMM_WORLD, g, d, 2, 0, 0, NULL);
    CHECK(rc == FSH_EINVAL);
    /* count * size beyond SIZE_MAX. */
    rc = fsh_mpi_shuffle(MPI_COMM_WORLD, g, d, SIZE_MAX / 4, 8, 0, NULL);
    CHECK(rc == FSH_EINVAL);
    CHECK(untouched(d));
    /* The generator's own error, on every rank, arrays unchanged: a
       6-byte seed without simulation grade reaches no order of 100
       records, nor of more than FSH_RECORDS_SMALL (the keyed bucket path,
       where fsh_shuffle_records refuses too: it shuffled them). */
    {
        const uint64_t Ns[] = {100, FSH_RECORDS_SMALL + 1000};
        for (size_t t = 0; t < 2; t++) {
            uint64_t N = Ns[t], first;
            size_t n;
            uint64_t *v = slice_new(0, N, rank, &n, &first);
            CHECK(v != NULL);
            fsh_rng *w = NULL;
            CHECK(fsh_rng_new_seeded(&w, "run-42", 6) == FSH_OK);
            rc = fsh_mpi_shuffle(MPI_COMM_WORLD, w, v, n, 8, 1, NULL);
            CHECK(rc == FSH_EENTROPY);
            int same = 1;
            for (size_t i = 0; i < n; i++)
                same &= v[i] == first + i;
            CHECK(same);
            if (rank == 0) {
                /* What fsh_shuffle_records says of the same generator. */
                uint64_t *all = malloc(N * 8);
                fsh_rng *x = NULL;
                CHECK(fsh_rng_new_seeded(&x, "run-42", 6) == FSH_OK);
                for (uint64_t i = 0; i < N; i++)
                    all[i] = i;
                CHECK(fsh_shuffle_records(x, all, (size_t)N, 8, 1) ==
                      FSH_EENTROPY);
                fsh_rng_free(x);
                free(all);
            }
            fsh_rng_free(w);
            free(v);
        }
    }
    /* Certified-source mode (fsh_rng_set_direct) above
       FSH_RECORDS_SMALL: the keyed buckets would take their key from the
       generator, which the mode forbids (fsh_mpi_shuffle(3)). FSH_EINVAL on
       every rank before anything is drawn or moved: arrays unchanged, the
       generator's next word a fresh one's first. The mode on every rank,
       then on the last rank only; and before the generator's own refusal
       (a 6-byte seed without simulation grade: FSH_EENTROPY otherwise). */
    {
        uint64_t N = FSH_RECORDS_SMALL + 1000;
        size_t n = split(3, N, rank);
        uint64_t *v = malloc(n * 8 + 8), first = prefix(3, N, rank);
        for (int t = 0; t < 3; t++) {
            for (size_t i = 0; i < n; i++)
                v[i] = first + i;
            fsh_rng *w = NULL, *x = NULL;
            if (t < 2) {
                w = seeded("direct");
                x = seeded("direct");
            } else {
                CHECK(fsh_rng_new_seeded(&w, "run-42", 6) == FSH_OK);
                CHECK(fsh_rng_new_seeded(&x, "run-42", 6) == FSH_OK);
            }
            CHECK(fsh_rng_set_direct(w, t != 1 || rank == np - 1) == FSH_OK);
            rc = fsh_mpi_shuffle(MPI_COMM_WORLD, w, v, n, 8, 1, NULL);
            CHECK(rc == FSH_EINVAL);
            int same = 1;
            for (size_t i = 0; i < n; i++)
                same &= v[i] == first + i;
            CHECK(same);
            uint64_t wn = 0, xn = 1;
            CHECK(fsh_rng_u64(w, &wn) == FSH_OK);
            CHECK(fsh_rng_u64(x, &xn) == FSH_OK);
            CHECK(wn == xn);
            fsh_rng_free(w);
            fsh_rng_free(x);
        }
        free(v);
    }
    /* FSH_MPI_ECOMM: an MPI call that fails on every rank. MPI_Comm_dup
       copies comm's attributes through their copy callbacks and fails when
       one does (MPI-3.1, 6.7.2), so a comm carrying an attribute whose
       callback refuses makes the library's own duplicate fail, under
       comm's error handler, here MPI_ERRORS_RETURN. Arrays unchanged (it
       fails before anything moves), nothing drawn, comm usable after it
       with its handler, and without the attribute the same call works. */
    {
        MPI_Comm dc;
        MPI_Errhandler ceh;
        int kv = MPI_KEYVAL_INVALID;
        CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dc) == MPI_SUCCESS);
        CHECK(MPI_Comm_set_errhandler(dc, MPI_ERRORS_RETURN) == MPI_SUCCESS);
        CHECK(MPI_Comm_create_keyval(copy_refused, MPI_COMM_NULL_DELETE_FN,
                                     &kv, NULL) == MPI_SUCCESS);
        CHECK(MPI_Comm_set_attr(dc, kv, NULL) == MPI_SUCCESS);
        uint64_t e[4] = {1, 2, 3, 4};
        fsh_rng *w = seeded("ecomm"), *x = seeded("ecomm");
        rc = fsh_mpi_shuffle(dc, w, e, 4, 8, 0, NULL);
        CHECK(rc == FSH_MPI_ECOMM);
        CHECK(untouched(e));
        uint64_t wn = 0, xn = 1;
        CHECK(fsh_rng_u64(w, &wn) == FSH_OK);
        CHECK(fsh_rng_u64(x, &xn) == FSH_OK);
        CHECK(wn == xn);
        int all = 1;
        CHECK(MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_SUM, dc) ==
              MPI_SUCCESS);
        CHECK(all == np);
        CHECK(MPI_Comm_get_errhandler(dc, &ceh) == MPI_SUCCESS);
        CHECK(ceh == MPI_ERRORS_RETURN);
        MPI_Errhandler_free(&ceh);
        CHECK(MPI_Comm_delete_attr(dc, kv) == MPI_SUCCESS);
        rc = fsh_mpi_shuffle(dc, w, e, 4, 8, 0, NULL);
        CHECK(rc == FSH_OK);
        MPI_Comm_free_keyval(&kv);
        MPI_Comm_free(&dc);
        fsh_rng_free(w);
        fsh_rng_free(x);
    }
    /* FSH_MPI_ECOMM in the middle of the call: the exchange's MPI_Alltoall
       fails on every rank (through the wrapper above) after the generator
       was drawn from, on the small path and on the keyed one. Every rank
       returns it; MPI_COMM_WORLD works after it, and so does the same
       call without the failure. */
    {
        const uint64_t Ns[] = {1000, FSH_RECORDS_SMALL + 1000};
        for (size_t t = 0; t < 2; t++) {
            uint64_t N = Ns[t], first;
            size_t n;
            uint64_t *v = slice_new(0, N, rank, &n, &first);
            CHECK(v != NULL);
            fsh_rng *w = seeded("alltoall");
            fail_alltoall = 1;
            rc = fsh_mpi_shuffle(MPI_COMM_WORLD, w, v, n, 8, 1, NULL);
            fail_alltoall = 0;
            CHECK(rc == FSH_MPI_ECOMM);
            int all = 1;
            CHECK(MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_SUM,
                                MPI_COMM_WORLD) == MPI_SUCCESS);
            CHECK(all == np);
            CHECK(fsh_mpi_shuffle(MPI_COMM_WORLD, w, v, n, 8, 1, NULL) ==
                  FSH_OK);
            fsh_rng_free(w);
            free(v);
        }
    }
    /* An allocation that fails on one rank: FSH_ENOMEM on every rank,
       arrays unchanged. The last rank claims 2^46 one-byte records (the
       keyed path's bucket ids alone would take 256 TiB, beyond any
       address space, overcommitted or not); the library allocates them
       before it reads a record, so its small array is never read past. */
    {
        uint64_t m[4] = {1, 2, 3, 4};
        fsh_rng *s = seeded("enomem");
        rc = fsh_mpi_shuffle(MPI_COMM_WORLD, s, m,
                             rank == np - 1 ? (size_t)1 << 46 : sizeof m, 1,
                             1, NULL);
        CHECK(rc == FSH_ENOMEM);
        CHECK(untouched(m));
        fsh_rng_free(s);
    }
    /* No records anywhere, base NULL: nothing to do. */
    rc = fsh_mpi_shuffle(MPI_COMM_WORLD, g, NULL, 0, 8, 0, NULL);
    CHECK(rc == FSH_OK);
    rc = fsh_mpi_shuffle(MPI_COMM_NULL, g, a, 2, 8, 0, NULL);
    CHECK(rc == FSH_EINVAL);
    /* An intercommunicator (two groups): FSH_EINVAL on every rank, not an
       abort in the first MPI_Allreduce (MPI_IN_PLACE is invalid there). */
    if (np > 1) {
        MPI_Comm half, inter;
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 99,
                             &inter);
        uint64_t e[4] = {1, 2, 3, 4};
        rc = fsh_mpi_shuffle(inter, NULL, e, 2, 8, 0, NULL);
        CHECK(rc == FSH_EINVAL);
        CHECK(untouched(e));
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh1);
    CHECK(eh0 == eh1 && eh1 == MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&eh0);
    MPI_Errhandler_free(&eh1);
    CHECK(strcmp(fsh_mpi_strerror(FSH_MPI_EMISMATCH),
                 "ranks passed different arguments") == 0);
    /* fsh_mpi_strerror(3): the two codes of its own, fsh_strerror's
       message for every other value, never NULL. */
    CHECK(strcmp(fsh_mpi_strerror(FSH_MPI_ECOMM),
                 "an MPI call failed (a rank may have died)") == 0);
    {
        const int other[] = {FSH_OK, FSH_EINVAL, FSH_ENOMEM, FSH_EENTROPY,
                             FSH_ECALLBACK, FSH_ESYSRAND, -99, -102, 1,
                             INT_MIN, INT_MAX};
        int ok = 1;
        for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
            const char *msg = fsh_mpi_strerror(other[i]);
            ok &= msg != NULL && strcmp(msg, fsh_strerror(other[i])) == 0;
        }
        CHECK(ok);
    }
    fsh_rng_free(g);
    fsh_rng_free(h);
}

/* ------------------------------------------------------------------------ */
/* Exhaustive enumeration                                                   */

#define EN_MAX 6

typedef struct en {
    const size_t *k; /* per bucket: which order (0 .. s_b! - 1) */
    int shuffle;     /* 0: leave each bucket in input order (known-bad) */
} en;

static size_t fact(size_t n)
{
    size_t f = 1;
    for (size_t i = 2; i <= n; i++)
        f *= i;
    return f;
}

/* The k-th order of a[0..n) (Lehmer code). */
static void nth_perm(uint64_t *a, size_t n, size_t k)
{
    uint64_t t[EN_MAX];
    k %= fact(n); /* known-bad routing: a rank may hold part of a bucket */
    memcpy(t, a, n * sizeof *a);
    size_t left = n;
    for (size_t i = 0; i < n; i++) {
        size_t f = fact(left - 1), j = k / f;
        k %= f;
        a[i] = t[j];
        memmove(t + j, t + j + 1, (left - j - 1) * sizeof *t);
        left--;
    }
}

/* The test's group shuffle: stable by bucket, then order k[b] of bucket b. */
static int en_group(void *ctx, fshm_recs *r, const uint32_t *ids, uint32_t lo,
                    uint32_t nb, unsigned threads)
{
    const en *e = ctx;
    (void)threads;
    uint64_t *v = (uint64_t *)(void *)r->data, out[64];
    size_t at = 0;
    for (uint32_t b = lo; b < lo + nb; b++) {
        size_t s = at;
        for (size_t i = 0; i < r->n; i++)
            if (ids[i] == b)
                out[at++] = v[i];
        if (e->shuffle)
            nth_perm(out + s, at - s, e->k[b]);
    }
    memcpy(v, out, r->n * sizeof *v);
    return FSH_OK;
}

/* One distributed run: ids of all N records (global), orders k; rank 0 gets
   the output in res. */
static int en_run(size_t N, unsigned bits, const uint32_t *ids, int sk,
                  int bad, const en *e, uint64_t *res)
{
    fshm m;
    if (fshm_open(&m, MPI_COMM_WORLD) != FSH_OK)
        return -1;
    size_t n = split(sk, N, rank);
    uint64_t first = prefix(sk, N, rank), v[EN_MAX];
    for (size_t i = 0; i < n; i++)
        v[i] = first + i;
    fshm_recs in = {(unsigned char *)v, n, 8, NULL, 8 * n, 0, 0, NULL}, mid,
                  out;
    int rc = fshm_buckets(&m, &in, ids + first, bits, first, bad, en_group,
                          (void *)(uintptr_t)e, 1, &mid, NULL);
    if (rc == FSH_OK) {
        rc = fshm_rebalance(&m, &mid, n, &out, NULL);
        fshm_recs_free(&mid);
    }
    if (rc == FSH_OK) {
        CHECK(out.n == n);
        unsigned char *all = gather(out.data, out.n, 8, N);
        if (rank == 0)
            memcpy(res, all, N * 8);
        free(all);
        fshm_recs_free(&out);
    }
    fshm_close(&m);
    return rc;
}

/* Rank of the order a[0..n) among all n! (Lehmer). */
static size_t perm_rank(const uint64_t *a, size_t n)
{
    size_t r = 0;
    for (size_t i = 0; i < n; i++) {
        size_t less = 0;
        for (size_t j = i + 1; j < n; j++)
            less += a[j] < a[i];
        r += less * fact(n - 1 - i);
    }
    return r;
}

/* Walk every bucket assignment of N records into B = 2^bits buckets and
   every per-bucket order; weight of an outcome = N! / prod s_b! (so the
   total per output order is B^N exactly when uniform). Returns 1 when every
   order got B^N; also checks distributed == serial (good variants). */
static int enumerate(size_t N, unsigned bits, int sk, int bad, int shuffle)
{
    size_t B = (size_t)1 << bits, nf = fact(N), assigns = 1;
    for (size_t i = 0; i < N; i++)
        assigns *= B;
    uint64_t *w = calloc(nf, sizeof *w);
    uint32_t ids[EN_MAX];
    size_t k[16], s[16];
    uint64_t res[EN_MAX], ser[EN_MAX];
    int match = 1;
    for (size_t a = 0; a < assigns; a++) {
        size_t x = a;
        memset(s, 0, sizeof s);
        for (size_t i = 0; i < N; i++) {
            ids[i] = (uint32_t)(x % B);
            x /= B;
            s[ids[i]]++;
        }
        size_t combos = 1, wt = nf;
        for (size_t b = 0; b < B; b++) {
            combos *= shuffle ? fact(s[b]) : 1;
            wt /= fact(s[b]);
        }
        for (size_t c = 0; c < combos; c++) {
            size_t y = c;
            for (size_t b = 0; b < B; b++) {
                size_t f = shuffle ? fact(s[b]) : 1;
                k[b] = y % f;
                y /= f;
            }
            en e = {k, shuffle};
            if (en_run(N, bits, ids, sk, bad, &e, res) != FSH_OK) {
                CHECK(0);
                free(w);
                return 0;
            }
            if (rank == 0) {
                /* The serial definition: buckets in order, each in input
                   order then order k[b]. */
                size_t at = 0;
                for (size_t b = 0; b < B; b++) {
                    size_t st = at;
                    for (size_t i = 0; i < N; i++)
                        if (ids[i] == b)
                            ser[at++] = i;
                    if (shuffle)
                        nth_perm(ser + st, at - st, k[b]);
                }
                if (!bad && memcmp(ser, res, N * 8) != 0)
                    match = 0;
                w[perm_rank(res, N)] += wt;
            }
        }
    }
    int uniform = 1;
    if (rank == 0) {
        for (size_t p = 0; p < nf; p++)
            uniform &= w[p] == assigns;
        if (!bad && shuffle)
            CHECK(match);
    }
    MPI_Bcast(&uniform, 1, MPI_INT, 0, MPI_COMM_WORLD);
    free(w);
    return uniform;
}

static void run_enum(void)
{
    for (int sk = 0; sk < 4; sk++) {
        CHECK(enumerate(4, 1, sk, 0, 1));
        CHECK(enumerate(3, 2, sk, 0, 1));
    }
    CHECK(enumerate(5, 1, 3, 0, 1));
    /* Known-bad variants must be caught. */
    if (np > 1)
        CHECK(!enumerate(4, 1, 0, 1, 1)); /* record i to rank i mod P */
    CHECK(!enumerate(4, 1, 0, 0, 0));     /* no per-bucket shuffle */
}

/* ------------------------------------------------------------------------ */
/* Chi-square, position by value, on the real keyed path at N = 6.         */

/* R runs; counts[pos * N + value]. The six per-position goodness-of-fit
   tests (5 df each) at alpha 1e-6 / 6: a correct shuffle fails with
   probability below 1e-6 in all (Bonferroni). The same fixed seed every
   run, so the outcome is deterministic. Returns 1 when all pass. */
static int chi(int bad, unsigned bits, int sk, int R)
{
    enum { N = 6 };
    uint64_t cnt[N * N];
    memset(cnt, 0, sizeof cnt);
    fsh_rng *g = seeded("chi");
    fshm m;
    if (fshm_open(&m, MPI_COMM_WORLD) != FSH_OK)
        return 0;
    for (int run = 0; run < R; run++) {
        uint8_t key[32];
        if (fsh_rng_bytes(g, key, sizeof key) != FSH_OK)
            return 0;
        size_t n = split(sk, N, rank);
        uint64_t first = prefix(sk, N, rank), v[N];
        uint32_t ids[N];
        for (size_t i = 0; i < n; i++)
            v[i] = first + i;
        if (fsh_records_buckets(key, ids, n, bits, first) != FSH_OK)
            return 0;
        fshm_recs in = {(unsigned char *)v, n, 8, NULL, 8 * n, 0, 0, NULL}, mid,
                  out;
        int rc = fshm_buckets(&m, &in, ids, bits, first, bad, fshm_key_group,
                              key, 1, &mid, NULL);
        if (rc == FSH_OK) {
            rc = fshm_rebalance(&m, &mid, n, &out, NULL);
            fshm_recs_free(&mid);
        }
        if (rc != FSH_OK)
            return 0;
        unsigned char *all = gather(out.data, out.n, 8, N);
        if (rank == 0) {
            const uint64_t *o = (const uint64_t *)(void *)all;
            for (size_t p = 0; p < N; p++)
                cnt[p * N + o[p]]++;
        }
        free(all);
        fshm_recs_free(&out);
    }
    fshm_close(&m);
    fsh_rng_free(g);
    int ok = 1;
    if (rank == 0) {
        double prob[N];
        for (int i = 0; i < N; i++)
            prob[i] = 1.0 / N;
        for (int p = 0; p < N; p++) {
            double pv;
            if (fsh_stats_chi2_gof(cnt + p * N, prob, N, 5.0, NULL, NULL,
                                   &pv) != FSH_OK || pv < 1e-6 / N)
                ok = 0;
        }
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return ok;
}

static void run_chi(void)
{
    CHECK(chi(0, 1, 0, 3000));
    CHECK(chi(0, 2, 3, 3000));
    if (np > 1)
        CHECK(!chi(1, 1, 0, 3000)); /* modulo routing: caught */
}

/* "stats N": not a test: fsh_mpi_shuffle of N 8-byte records split
   evenly, and how many records the exchange and the rebalancing sent
   (docs/PERFORMANCE.md). */
static void run_stats(uint64_t N)
{
    size_t n = split(0, N, rank);
    uint64_t *a = malloc(n * 8 + 8);
    for (size_t i = 0; i < n; i++)
        a[i] = i;
    fsh_rng *g = seeded("stats");
    fsh_mpi_info info;
    double t = MPI_Wtime();
    CHECK(fsh_mpi_shuffle(MPI_COMM_WORLD, g, a, n, 8, 1, &info) == FSH_OK);
    t = MPI_Wtime() - t;
    uint64_t v[4] = {info.sent_records, info.sent_bytes,
                     info.rebalance_records, info.rebalance_bytes};
    MPI_Allreduce(MPI_IN_PLACE, v, 4, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        fprintf(stderr,
                "stats: N=%llu P=%d: exchange sent %llu records (%.4f of N, "
                "%llu bytes), rebalancing %llu records (%.6f of N), %.3f s\n",
                (unsigned long long)N, np, (unsigned long long)v[0],
                (double)v[0] / (double)N, (unsigned long long)v[1],
                (unsigned long long)v[2], (double)v[2] / (double)N, t);
    fsh_rng_free(g);
    free(a);
}

int main(int argc, char **argv)
{
    /* "finalized": before MPI_Init the library must refuse as well
       (fairshuf_mpi.h: FSH_EINVAL when MPI is not initialized). */
    uint64_t pre[4] = {1, 2, 3, 4};
    int pre_rc = FSH_OK;
    if (argc > 1 && strcmp(argv[1], "finalized") == 0)
        pre_rc = fsh_mpi_shuffle(MPI_COMM_WORLD, NULL, pre, 4, 8, 0, NULL);
    MPI_Init(&argc, &argv);
    if (argc > 1 && strcmp(argv[1], "finalized") == 0) {
        CHECK(pre_rc == FSH_EINVAL);
        CHECK(untouched(pre));
        /* After MPI_Finalize no MPI call may be made (Open MPI aborts the
           process): the library must check and refuse. */
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Finalize();
        uint64_t a[4] = {1, 2, 3, 4};
        CHECK(fsh_mpi_shuffle(MPI_COMM_WORLD, NULL, a, 4, 8, 0, NULL) ==
              FSH_EINVAL);
        CHECK(untouched(a));
        printf("mpi_lib finalized (rank %d): %lu checks passed, %lu failed\n",
               rank, passed, failed);
        return failed ? 1 : 0;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    /* Each part in turn, one launch of mpirun for all (a launch costs
       more than most parts); each part gets its own summary line. */
    int bad = 0;
    for (int i = 1; i < argc || i == 1; i++) {
        const char *what = i < argc ? argv[i] : "perm";
        char name[64];
        snprintf(name, sizeof name, "%s", what);
        char *at = strchr(name, '@');
        if (at != NULL) {
            *at = '\0';
            if (setenv("FSH_MPI_TEST_CHUNK", at + 1, 1) != 0)
                CHECK(0);
        }
        passed = failed = 0;
        if (strcmp(name, "perm") == 0)
            run_perm();
        else if (strcmp(name, "errors") == 0)
            run_errors();
        else if (strcmp(name, "enum") == 0)
            run_enum();
        else if (strcmp(name, "chi") == 0)
            run_chi();
        else if (strcmp(name, "stats") == 0 && i + 1 < argc)
            run_stats(strtoull(argv[++i], NULL, 10));
        else
            CHECK(0);
        if (at != NULL)
            unsetenv("FSH_MPI_TEST_CHUNK");
        unsigned long t[2] = {passed, failed};
        MPI_Allreduce(MPI_IN_PLACE, t, 2, MPI_UNSIGNED_LONG, MPI_SUM,
                      MPI_COMM_WORLD);
        if (rank == 0) {
            printf("mpi_lib %s (P=%d): %lu checks passed, %lu failed\n", what,
                   np, t[0], t[1]);
            fflush(stdout);
        }
        bad |= t[1] != 0;
    }
    MPI_Finalize();
    return bad;
}
