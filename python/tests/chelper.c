/* SPDX-License-Identifier: MIT */
/* Reference outputs of the C library for the Python tests: a seeded rng
   (simulation grade), one operation, its values one per line.
   chelper SEED shuffle N SIZE [THREADS]   record indices after fsh_shuffle
                                           (fsh_shuffle_u64 for SIZE 8, fsh_shuffle_threads
                                           with THREADS)
   chelper SEED perm N                     fsh_permutation 0..N-1
   chelper SEED sample K LO HI             fsh_sample_range
   chelper SEED uniform COUNT SPAN         fsh_uniform_range(0, SPAN)
   chelper SEED words COUNT                fsh_rng_u64 */
#include <fairshuf.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(int st)
{
    fprintf(stderr, "chelper: %s\n", fsh_strerror(st));
    exit(1);
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    fsh_rng *rng;
    int st = fsh_rng_new_seeded(&rng, argv[1], strlen(argv[1]));
    if (st != FSH_OK || (st = fsh_rng_set_simulation(rng, 1)) != FSH_OK)
        die(st);
    const char *op = argv[2];
    uint64_t a = strtoull(argv[3], NULL, 10);
    uint64_t b = argc > 4 ? strtoull(argv[4], NULL, 10) : 0;
    uint64_t c = argc > 5 ? strtoull(argv[5], NULL, 10) : 0;
    if (strcmp(op, "shuffle") == 0) {
        size_t n = (size_t)a, size = (size_t)b;
        unsigned char *buf = calloc(n, size);
        if (buf == NULL || size < 8)
            return 2;
        for (size_t i = 0; i < n; i++)
            memcpy(buf + i * size, &(uint64_t){i}, 8);
        if (argc > 5)
            st = fsh_shuffle_threads(rng, buf, n, size, (unsigned)c);
        else if (size == 8) /* the typed path: the same permutation */
            st = fsh_shuffle_u64(rng, (uint64_t *)(void *)buf, n);
        else
            st = fsh_shuffle(rng, buf, n, size);
        if (st != FSH_OK)
            die(st);
        for (size_t i = 0; i < n; i++) {
            uint64_t v;
            memcpy(&v, buf + i * size, 8);
            printf("%" PRIu64 "\n", v);
        }
        free(buf);
    } else if (strcmp(op, "perm") == 0 || strcmp(op, "sample") == 0) {
        size_t k = (size_t)a;
        uint64_t *out = malloc((k + 1) * 8);
        if (out == NULL)
            return 2;
        st = strcmp(op, "perm") == 0
                 ? (k ? fsh_permutation(rng, out, 0, k - 1) : FSH_OK)
                 : fsh_sample_range(rng, out, k, b, c);
        if (st != FSH_OK)
            die(st);
        for (size_t i = 0; i < k; i++)
            printf("%" PRIu64 "\n", out[i]);
        free(out);
    } else if (strcmp(op, "uniform") == 0 || strcmp(op, "words") == 0) {
        for (uint64_t i = 0; i < a; i++) {
            uint64_t v;
            st = op[0] == 'u' ? fsh_uniform_range(rng, &v, 0, b)
                              : fsh_rng_u64(rng, &v);
            if (st != FSH_OK)
                die(st);
            printf("%" PRIu64 "\n", v);
        }
    } else {
        return 2;
    }
    fsh_rng_free(rng);
    return 0;
}
