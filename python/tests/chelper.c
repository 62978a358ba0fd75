/* SPDX-License-Identifier: MIT */
/* Reference outputs of the C library for the Python tests: a seeded rng
   (simulation grade), one operation, its values one per line.
   chelper SEED shuffle N SIZE [THREADS]   record indices after fsh_shuffle
                                           (fsh_shuffle_u64 for SIZE 8, fsh_shuffle_threads
                                           with THREADS)
   chelper SEED perm N                     fsh_permutation 0..N-1
   chelper SEED sample K LO HI             fsh_sample_range
   chelper SEED uniform COUNT SPAN         fsh_uniform_range(0, SPAN)
   chelper SEED words COUNT                fsh_rng_u64
   chelper SEED rangeperm LO HI HINT B,B.. fsh_rangeperm_new(LO, HI, HINT), then
                                           per B: fsh_rangeperm_next (B = 1) or
                                           fsh_rangeperm_next_n(B); then the
                                           status of one more fsh_rangeperm_next */
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
    } else if (strcmp(op, "rangeperm") == 0 && argc > 6) {
        fsh_rangeperm *p;
        st = fsh_rangeperm_new(&p, a, b, (size_t)c);
        if (st != FSH_OK)
            die(st);
        for (char *s = argv[6]; *s != '\0';) {
            char *end;
            size_t k = (size_t)strtoull(s, &end, 10);
            uint64_t *out = malloc((k + 1) * 8);
            if (out == NULL || end == s)
                return 2;
            st = k == 1 ? fsh_rangeperm_next(rng, p, out)
                        : fsh_rangeperm_next_n(rng, p, out, k);
            if (st != FSH_OK)
                die(st);
            for (size_t i = 0; i < k; i++)
                printf("%" PRIu64 "\n", out[i]);
            free(out);
            s = *end == ',' ? end + 1 : end;
        }
        uint64_t v;
        printf("%d\n", fsh_rangeperm_next(rng, p, &v));
        fsh_rangeperm_free(p);
    } else {
        return 2;
    }
    fsh_rng_free(rng);
    return 0;
}
