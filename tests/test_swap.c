/* SPDX-License-Identifier: MIT */
/*
 * Elements of any size (src/shuffle/fy.c, fsh_swap_bytes): the generic swap
 * moves every byte of both elements and nothing around them, and shuffles
 * of such elements keep each record whole.
 * - fsh_swap_bytes for every size 0..300 at eight alignments of each side:
 *   the two ranges exchanged exactly, guard bytes before and after
 *   untouched; x == y changes nothing.
 * - fsh_shuffle of records of 3 to 255 bytes (in cache, through the
 *   prefetching band's size and the scatter shuffle above 12 and 24 MiB):
 *   every record intact (its bytes are a function of its index) and the
 *   indices a permutation; in cache, the same permutation as fsh_shuffle_u64
 *   of 0..n-1 with the same seed (the index sequence does not depend on the
 *   element size, docs/STREAMS.md section 5) and the same words drawn
 *   (the rng's next word agrees), also in certified-source mode; records of 96 bytes and more take that permutation by index
 *   (src/shuffle/byindex.c);
 * - the scatter's leaves through the test hook: the same levels give u64
 *   and 24- to 200-byte records the same permutation (by index from 96
 *   bytes);
 * - above 24 MiB, records of 767 to 1000 bytes: one thread (by index from
 *   768 bytes) gives the array and draws the words two threads do.
 * Known-bad variants tried: a generic swap that leaves the last byte of
 * every size fails 3,626 of the 5,373 checks; one that stops when 3 bytes
 * are left after the 4-byte chunk fails 1,212.
 */
#include "check.h"
#include "shuffle/fy.h"
#include "shuffle/scatter.h"

#include <fairshuf.h>
#include <string.h>

static unsigned char pat(size_t rec, size_t i)
{
    return (unsigned char)(rec * 131u + i * 7u + (rec >> 8) * 29u + 1u);
}

static void test_swap_bytes(void)
{
    enum { MAXS = 300, G = 16 };
    static unsigned char buf[2][G + 8 + MAXS + G];
    for (size_t size = 0; size <= MAXS; size++) {
        for (size_t ox = 0; ox < 8; ox++) {
            size_t oy = (ox * 5 + size) % 8;
            for (size_t i = 0; i < sizeof buf[0]; i++) {
                buf[0][i] = pat(1, i);
                buf[1][i] = pat(2, i);
            }
            unsigned char *x = buf[0] + G + ox, *y = buf[1] + G + oy;
            fsh_swap_bytes(x, y, size);
            int ok = 1;
            for (size_t i = 0; i < sizeof buf[0]; i++) {
                int in_x = i >= G + ox && i < G + ox + size;
                int in_y = i >= G + oy && i < G + oy + size;
                unsigned char want0 = in_x ? pat(2, i - ox + oy) : pat(1, i);
                unsigned char want1 = in_y ? pat(1, i - oy + ox) : pat(2, i);
                ok &= buf[0][i] == want0 && buf[1][i] == want1;
            }
            CHECK(ok);
            fsh_swap_bytes(x, x, size); /* the same element: unchanged */
            ok = 1;
            for (size_t i = 0; i < size; i++)
                ok &= x[i] == pat(2, G + oy + i);
            CHECK(ok);
        }
    }
}

/* a holds n records of size bytes (fill_records: record r's first three
   bytes are r, little-endian, its others pat(r, i)): 1 if every record is
   whole and their indices form a permutation, with idx[k] the index of the
   record at k. */
static int records_whole(const unsigned char *a, size_t n, size_t size,
                         size_t *idx, unsigned char *seen)
{
    memset(seen, 0, n);
    for (size_t k = 0; k < n; k++) {
        const unsigned char *p = a + k * size;
        size_t r = 0;
        for (size_t b = 0; b < size && b < 3; b++)
            r |= (size_t)p[b] << (8 * b);
        if (r >= n || seen[r])
            return 0;
        seen[r] = 1;
        for (size_t i = 3; i < size; i++)
            if (p[i] != pat(r, i))
                return 0;
        idx[k] = r;
    }
    return 1;
}

static void fill_records(unsigned char *a, size_t n, size_t size)
{
    for (size_t r = 0; r < n; r++) {
        unsigned char *p = a + r * size;
        for (size_t i = 0; i < size; i++)
            p[i] = (unsigned char)(i < 3 ? r >> (8 * i) : pat(r, i));
    }
}

static void seed(fsh_rng *rng, unsigned v, const char *s)
{
    CHECK(fsh_rng_set_stream_version(rng, v) == FSH_OK);
    CHECK(fsh_rng_seed(rng, s, strlen(s)) == FSH_OK);
    CHECK(fsh_rng_set_simulation(rng, 1) == FSH_OK);
}

static void test_records(void)
{
    /* 96 bytes and more: by index (src/shuffle/byindex.c). */
    static const size_t sizes[] = {3,  5,  12, 24,  32,  33,  48,
                                   64, 95, 96, 100, 128, 255, 1000};
    static const size_t ns[] = {2, 3, 100, 5000, 70000};
    fsh_rng *rng = NULL;
    CHECK(fsh_rng_new(&rng) == FSH_OK);
    size_t maxn = 70000;
    unsigned char *a = malloc(maxn * 255), *seen = malloc(maxn);
    size_t *idx = malloc(maxn * sizeof *idx);
    uint64_t *ref = malloc(maxn * 8);
    CHECK(a != NULL && seen != NULL && idx != NULL && ref != NULL);
    if (rng == NULL || a == NULL || seen == NULL || idx == NULL ||
        ref == NULL)
        goto done;
    /* Up to 24 MiB (Fisher-Yates in version 1, in cache for the u64
       reference): the u64 shuffle's permutation, in the normal and the
       certified-source modes. */
    for (int direct = 0; direct <= 1; direct++) {
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
                size_t n = ns[t], size = sizes[s];
                if (n * size > maxn * 255)
                    continue;
                fill_records(a, n, size);
                seed(rng, 1, "records");
                CHECK(fsh_rng_set_direct(rng, direct) == FSH_OK);
                CHECK(fsh_shuffle(rng, a, n, size) == FSH_OK);
                uint64_t after = 0, after_ref = 1; /* the rng's next word */
                CHECK(fsh_rng_u64(rng, &after) == FSH_OK);
                int whole = records_whole(a, n, size, idx, seen);
                CHECK(whole);
                for (size_t i = 0; i < n; i++)
                    ref[i] = i;
                seed(rng, 1, "records");
                CHECK(fsh_shuffle_u64(rng, ref, n) == FSH_OK);
                CHECK(fsh_rng_u64(rng, &after_ref) == FSH_OK);
                int same = whole;
                for (size_t i = 0; same && i < n; i++)
                    same = idx[i] == ref[i];
                CHECK(same);
                CHECK(after == after_ref); /* the same words drawn */
            }
        }
    }
    CHECK(fsh_rng_set_direct(rng, 0) == FSH_OK);

    /* The scatter's leaves (records of 96 bytes and more go by index):
       with the same levels, stripes and leaf size, the permutation of
       u64 and of larger records (the test hook; keyed task streams, one
       and two threads). */
    static const size_t hsizes[] = {24, 95, 96, 100, 200};
    for (size_t s = 0; s < sizeof hsizes / sizeof hsizes[0]; s++) {
        size_t n = 60000, size = hsizes[s];
        for (unsigned th = 1; th <= 2; th++) {
            fsh_scatter_params p = {8, 2, 3000, th, 1, 0, 0};
            fill_records(a, n, size);
            seed(rng, 1, "hook records");
            CHECK(fsh_scatter_hook(rng, a, n, size, &p) == FSH_OK);
            uint64_t bits = fsh_rng_bits_used(rng);
            int whole = records_whole(a, n, size, idx, seen);
            CHECK(whole);
            for (size_t i = 0; i < n; i++)
                ref[i] = i;
            seed(rng, 1, "hook records");
            CHECK(fsh_scatter_hook(rng, (unsigned char *)ref, n, 8, &p) ==
                  FSH_OK);
            CHECK(fsh_rng_bits_used(rng) == bits); /* the same words */
            int same = whole;
            for (size_t i = 0; same && i < n; i++)
                same = idx[i] == ref[i];
            CHECK(same);
        }
    }
    free(a);
    free(seen);
    free(idx);
    a = NULL, seen = NULL, idx = NULL;

    /* Beyond cache: 32- and 12-byte records in the band between 12 and
       24 MiB (version 1: Fisher-Yates; version 2: the scatter) and above
       24 MiB (the scatter in both). */
    static const struct {
        size_t size;
        double mib;
    } big[] = {{32, 13}, {32, 25}, {12, 13}, {12, 25}, {100, 25}};
    for (size_t b = 0; b < sizeof big / sizeof big[0]; b++) {
        size_t size = big[b].size;
        size_t n = (size_t)(big[b].mib * 1048576) / size;
        a = malloc(n * size);
        seen = malloc(n);
        idx = malloc(n * sizeof *idx);
        CHECK(a != NULL && seen != NULL && idx != NULL);
        if (a == NULL || seen == NULL || idx == NULL)
            goto done;
        for (unsigned v = 1; v <= 2; v++) {
            fill_records(a, n, size);
            seed(rng, v, "big records");
            CHECK(fsh_shuffle_threads(rng, a, n, size, 2) == FSH_OK);
            CHECK(records_whole(a, n, size, idx, seen));
        }
        free(a);
        free(seen);
        free(idx);
        a = NULL, seen = NULL, idx = NULL;
    }

    /* Above 24 MiB on one thread, records of 768 bytes and more take the
       scatter's permutation made on an index (byindex.c): the same array
       and the same words drawn as the scatter in place (two threads; its
       output does not depend on them), in every stream version. */
    static const size_t wsizes[] = {767, 768, 1000};
    for (size_t w = 0; w < sizeof wsizes / sizeof wsizes[0]; w++) {
        size_t size = wsizes[w];
        size_t n = ((size_t)25 << 20) / size + 3;
        a = malloc(n * size);
        unsigned char *b = malloc(n * size);
        CHECK(a != NULL && b != NULL);
        if (a == NULL || b == NULL) {
            free(b);
            goto done;
        }
        for (unsigned v = 1; v <= 3; v++) {
            uint64_t after = 0, after_ref = 1;
            fill_records(a, n, size);
            memcpy(b, a, n * size);
            seed(rng, v, "whole by index");
            CHECK(fsh_shuffle(rng, a, n, size) == FSH_OK);
            CHECK(fsh_rng_u64(rng, &after) == FSH_OK);
            seed(rng, v, "whole by index");
            CHECK(fsh_shuffle_threads(rng, b, n, size, 2) == FSH_OK);
            CHECK(fsh_rng_u64(rng, &after_ref) == FSH_OK);
            CHECK(memcmp(a, b, n * size) == 0);
            CHECK(after == after_ref);
        }
        free(b);
        free(a);
        a = NULL;
    }
done:
    fsh_rng_free(rng);
    free(a);
    free(seen);
    free(idx);
    free(ref);
}

int main(void)
{
    test_swap_bytes();
    test_records();
    return check_done("test_swap");
}
