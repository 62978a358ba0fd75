/* SPDX-License-Identifier: MIT */
/*
 * The scatter shuffle's wide cases, locked to the output of the tree before
 * issue 13's large-array changes (commit 0fe7cb7): 9-bit labels (k = 512,
 * the layout of 1e8 elements, which tests/test_scatter.c's locked cases do
 * not reach), four stripes, for 4-, 8- and 16-byte elements through the
 * test hook; and fsh_shuffle_threads on 1e7 u64 (80 MB: k = 64, a stash of
 * about 140,000 elements, labelled in 16 chunks on two threads), seeded,
 * with one, two and three threads. The rough pass's pointer cursors, the
 * stash labels' chunked counting and the leaves' kernel must all give
 * exactly the old permutations: a hash differing means a seeded output
 * changed. Each case also checks the result is a permutation.
 *
 * Known-bad variant: the same case with the multinomial fix-up skipped
 * (the hook's broken flag) must hash differently.
 *
 * The rough pass is built twice for 7- to 9-bit labels, prefetching into
 * L1 or into L2 (chosen per CPU): the hook cases run under both.
 */
#include "check.h"
#include "shuffle/scatter.h"

#include <fairshuf.h>
#include <string.h>

static uint64_t fnv(const unsigned char *p, size_t bytes)
{
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < bytes; i++) {
        h ^= p[i];
        h *= 1099511628211u;
    }
    return h;
}

/* a[i] = i in the element's first 4 bytes, the rest a function of i. */
static void fill(unsigned char *a, size_t n, size_t size)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t v = (uint32_t)i;
        memcpy(a + i * size, &v, 4);
        for (size_t b = 4; b < size; b++)
            a[i * size + b] = (unsigned char)(i * 7 + b);
    }
}

/* Every value 0..n-1 once in the first 4 bytes. */
static int is_perm(const unsigned char *a, size_t n, size_t size)
{
    unsigned char *seen = calloc(n, 1);
    int ok = seen != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        uint32_t v;
        memcpy(&v, a + i * size, 4);
        ok = v < n && !seen[v];
        if (ok)
            seen[v] = 1;
    }
    free(seen);
    return ok;
}

static uint64_t hook_case(size_t size, unsigned threads, int broken)
{
    const size_t n = (size_t)1 << 18; /* 512 buckets of ~512, parts of 128 */
    unsigned char *a = malloc(n * size);
    fsh_rng *rng = NULL;
    uint64_t h = 0;
    if (a == NULL || fsh_rng_new(&rng) != FSH_OK ||
        fsh_rng_key_xoshiro(rng, 1300 + size) != FSH_OK ||
        fsh_rng_set_simulation(rng, 1) != FSH_OK) {
        CHECK(0);
        goto out;
    }
    fill(a, n, size);
    fsh_scatter_params p = {512, 4, 1024, threads, 1, broken, 0};
    CHECK_EQ(fsh_scatter_hook(rng, a, n, size, &p), FSH_OK);
    CHECK(is_perm(a, n, size));
    h = fnv(a, n * size);
out:
    fsh_rng_free(rng);
    free(a);
    return h;
}

static uint64_t big_case(unsigned threads)
{
    const size_t n = 10000000;
    uint64_t *a = malloc(n * sizeof *a);
    fsh_rng *rng = NULL;
    uint64_t h = 0;
    if (a == NULL || fsh_rng_new(&rng) != FSH_OK ||
        fsh_rng_seed(rng, "issue 13", 8) != FSH_OK ||
        fsh_rng_set_simulation(rng, 1) != FSH_OK) {
        CHECK(0);
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        a[i] = i;
    CHECK_EQ(fsh_shuffle_threads(rng, a, n, sizeof *a, threads), FSH_OK);
    /* Permutation check on the low 32 bits (the values are < 2^24). */
    unsigned char *seen = calloc(n, 1);
    int ok = seen != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        ok = a[i] < n && !seen[a[i]];
        if (ok)
            seen[a[i]] = 1;
    }
    free(seen);
    CHECK(ok);
    h = fnv((const unsigned char *)a, n * sizeof *a);
out:
    fsh_rng_free(rng);
    free(a);
    return h;
}

int main(void)
{
    static const struct {
        size_t size;
        uint64_t hash;
    } wide[] = {
        {4, 0x5994504226d496c7u},
        {8, 0x7c376ce6d4ff4d4fu},
        {16, 0x01c92baa95795d67u},
    };
    int print = getenv("FSH_PRINT_HASHES") != NULL;
    /* The rough pass's prefetch hint, chosen per CPU (Intel: into L2):
       FSH_ROUGH_PREFETCH=l1 or l2 forces it, otherwise Intel CPUs take
       L2 and others L1. */
    const char *pe = getenv("FSH_ROUGH_PREFETCH");
    int want_l2 = pe != NULL && strcmp(pe, "l2") == 0;
    if (pe == NULL || (strcmp(pe, "l1") != 0 && strcmp(pe, "l2") != 0)) {
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
        __builtin_cpu_init();
        want_l2 = __builtin_cpu_is("intel") != 0;
#endif
    }
    CHECK_EQ(fsh_scatter_prefetch_l2(), want_l2);
    /* Both hints' builds of the rough pass (9-bit labels: the L2 builds
       run from 7 bits), whatever this CPU is: the same permutations. */
    for (int hint = 1; hint <= 2; hint++) {
        fsh_scatter_prefetch_force(hint);
        CHECK_EQ(fsh_scatter_prefetch_l2(), hint == 2);
        for (size_t c = 0; c < sizeof wide / sizeof wide[0]; c++) {
            uint64_t h1 = hook_case(wide[c].size, 1, 0);
            uint64_t h2 = hook_case(wide[c].size, 2, 0);
            if (print)
                printf("hook size %zu: 0x%016llxu\n", wide[c].size,
                       (unsigned long long)h1);
            CHECK(h1 == wide[c].hash);
            CHECK(h2 == h1);
            /* Known-bad: no fix-up gives another permutation. */
            CHECK(hook_case(wide[c].size, 1, 1) != h1);
        }
    }
    fsh_scatter_prefetch_force(0);
    CHECK_EQ(fsh_scatter_prefetch_l2(), want_l2);
    const uint64_t big = 0xb89fa504dc61f207u;
    uint64_t b1 = big_case(1);
    if (print)
        printf("fsh_shuffle_threads 1e7: 0x%016llxu\n",
               (unsigned long long)b1);
    CHECK(b1 == big);
    CHECK(big_case(2) == b1);
    CHECK(big_case(3) == b1);
    return check_done("test_scatter_wide");
}
