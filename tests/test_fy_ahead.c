/* SPDX-License-Identifier: MIT */
/*
 * The Fisher-Yates kernel that makes its next refill ahead (src/shuffle/
 * fy.c, fy_body_ahead; chacha_simd.h's AHEAD_*) gives exactly what the
 * buffered kernel gives: the same permutation, the same words consumed,
 * and the rng left where the plain kernel leaves it.
 *
 * Each case shuffles the same array twice with fsh_fy_kernel: once with a
 * raw-keyed ChaCha rng (the kernel with the refill made ahead, where the
 * AVX-512 ChaCha kernel runs), once with a word-callback rng fed by a
 * second rng with the same key (the same words, through the plain buffered
 * kernel). The two arrays must be equal and the next 600 words of the two
 * rngs too. Cases: ChaCha8, 12 and 20; 8- and 4-byte elements; sizes from
 * the kernel's threshold (4096) to a 1e8 leaf (195312); rngs entering the
 * kernel at buffer positions 0 to 256 (the refill due at once). A run of
 * random keys at sizes whose last phases (5 and 6 dice per word) redraw
 * often must reach the stale path (a redraw that refilled the rng behind
 * the slices' back): it is counted and must have happened. A forked child
 * running the kernel on the parent's guarded rng must not deal the
 * parent's permutation (the refill made ahead checks the fork guard).
 *
 * Every case runs for the backward kernel (fsh_fy_kernel) and for the
 * forward one of stream version 3 (fsh_fy_forward, fyf_body_ahead), each
 * against itself through the plain buffered path; the stale path must be
 * reached by both.
 *
 * Known-bad variants tried: AHEAD_REFILL installing the slices when they
 * are stale fails the random-key run; fsh_rng_refill_made without its fork
 * check fails the fork case; a slice schedule that skips a double round
 * fails every case. Where the kernel does not make refills ahead
 * (fsh_fy_ahead_on: no AVX-512 ChaCha kernel, FSH_CHACHA_IMPL=avx2 or
 * FSH_FY_IMPL=plain in tests/cli/test_kernel_impl.sh, the sanitizer
 * builds) both sides take the plain kernel and the stale count is not
 * required.
 */
#include "check.h"
#include "rng/rng.h"
#include "shuffle/fy.h"

#include <fairshuf.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The kernel under test: fsh_fy_kernel or fsh_fy_forward. */
static void (*kern)(fsh_rng *, unsigned char *, size_t, size_t) =
    fsh_fy_kernel;

static uint64_t next_of(void *ctx)
{
    uint64_t w = 0;
    if (fsh_rng_u64((fsh_rng *)ctx, &w) != FSH_OK)
        abort();
    return w;
}

static void fill(unsigned char *a, size_t n, size_t size)
{
    for (size_t i = 0; i < n; i++) {
        if (size == 8) {
            uint64_t v = i * 0x9e3779b97f4a7c15u;
            memcpy(a + 8 * i, &v, 8);
        } else {
            uint32_t v = (uint32_t)i;
            memcpy(a + 4 * i, &v, 4);
        }
    }
}

static fsh_rng *make(void)
{
    fsh_rng *r = NULL;
    if (fsh_rng_new(&r) != FSH_OK)
        abort();
    return r;
}

/* One case: 1 if the two sides agree. */
static int one(int rounds, const uint8_t key[32], uint64_t stream, size_t n,
               size_t size, unsigned skip)
{
    fsh_rng *ra = make(), *rb = make(), *feed = make();
    int ok = 1;
    ok &= fsh_rng_key_chacha(ra, rounds, key, stream, 0) == FSH_OK;
    ok &= fsh_rng_key_chacha(feed, rounds, key, stream, 0) == FSH_OK;
    ok &= fsh_rng_from_words(rb, next_of, feed) == FSH_OK;
    for (unsigned i = 0; ok && i < skip; i++) {
        uint64_t x, y;
        ok &= fsh_rng_u64(ra, &x) == FSH_OK && fsh_rng_u64(rb, &y) == FSH_OK &&
              x == y;
    }
    unsigned char *a = malloc(n * size), *b = malloc(n * size);
    if (a == NULL || b == NULL)
        abort();
    fill(a, n, size);
    fill(b, n, size);
    kern(ra, a, n, size);
    kern(rb, b, n, size);
    ok &= memcmp(a, b, n * size) == 0;
    for (unsigned i = 0; ok && i < 600; i++) {
        uint64_t x, y;
        ok &= fsh_rng_u64(ra, &x) == FSH_OK && fsh_rng_u64(rb, &y) == FSH_OK &&
              x == y;
    }
    free(a);
    free(b);
    fsh_rng_free(ra);
    fsh_rng_free(rb);
    fsh_rng_free(feed);
    return ok;
}

static void cases(void)
{
    static const size_t sizes[] = {4096, 4097, 5003, 9999, 16400, 70001,
                                   195312};
    static const unsigned skips[] = {0, 1, 100, 250, 252, 253, 255, 256};
    static const int rounds[] = {8, 12, 20};
    uint8_t key[32];
    for (unsigned i = 0; i < 32; i++)
        key[i] = (uint8_t)(i * 29 + 3);
    for (size_t r = 0; r < 3; r++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (size_t k = 0; k < sizeof skips / sizeof skips[0]; k++)
                for (size_t size = 4; size <= 8; size += 4) {
                    check_seed = (uint64_t)(r * 1000 + s * 10 + k);
                    CHECK(one(rounds[r], key, 7, sizes[s], size, skips[k]));
                }
}

/* Random keys at sizes just above the threshold: the 5- and 6-dice phases
   redraw about once in 2^9 batches, and a redraw on a buffer's last word
   refills the rng behind the slices' back. */
static void stale_run(void)
{
    unsigned long before = fsh_rng_ahead_stale();
    unsigned long bad = 0;
    fsh_rng *keys = NULL;
    if (fsh_rng_new_seeded(&keys, "test_fy_ahead", 13) != FSH_OK)
        abort();
    for (unsigned t = 0; t < 10000; t++) {
        uint8_t key[32];
        uint64_t pick;
        if (fsh_rng_bytes(keys, key, sizeof key) != FSH_OK ||
            fsh_rng_u64(keys, &pick) != FSH_OK)
            abort();
        check_seed = t;
        static const int rounds[] = {8, 12, 20};
        size_t n = 4096 + (size_t)(pick % 2048);
        if (!one(rounds[(pick >> 16) % 3], key, t, n,
                 (pick >> 61 & 1) ? 8 : 4, (unsigned)(pick >> 32) % 257))
            bad++;
    }
    fsh_rng_free(keys);
    CHECK_EQ(bad, 0);
    unsigned long stale = fsh_rng_ahead_stale() - before;
    printf("  %s, random keys: 10000 cases, %lu stale refills made "
           "plainly\n", kern == fsh_fy_kernel ? "backward" : "forward",
           stale);
    if (fsh_fy_ahead_on())
        CHECK(stale > 0);
}

/* A forked child shuffling on the parent's OS-keyed (guarded) rng, the
   kernel called directly (no entry check) on words buffered before the
   fork: its first refill, made ahead, must rekey, so its permutation is
   not the parent's. */
static void fork_case(void)
{
    const size_t n = 100000;
    fsh_rng *r = make();
    uint64_t *a = malloc(n * 8), *b = malloc(n * 8);
    int fd[2];
    if (a == NULL || b == NULL || pipe(fd) != 0)
        abort();
    fill((unsigned char *)a, n, 8);
    fill((unsigned char *)b, n, 8);
    /* A word drawn first: the kernel starts on words buffered before the
       fork, so its first refill is one made ahead. */
    uint64_t w0;
    if (fsh_rng_u64(r, &w0) != FSH_OK)
        abort();
    pid_t pid = fork();
    if (pid < 0)
        abort();
    if (pid == 0) {
        kern(r, (unsigned char *)b, n, 8);
        ssize_t w = write(fd[1], b, n * 8 > 65536 ? 65536 : n * 8);
        _exit(w > 0 ? 0 : 1);
    }
    kern(r, (unsigned char *)a, n, 8);
    size_t got = 0;
    while (got < 65536) {
        ssize_t k = read(fd[0], (unsigned char *)b + got, 65536 - got);
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(got == 65536 && WIFEXITED(st) && WEXITSTATUS(st) == 0);
    /* The first 8192 elements are placed last (backward; forward, the
       elements there are swapped in by draws up to the end), by words
       drawn after many refills: equal only if the child replayed the
       parent's stream. */
    CHECK(memcmp(a, b, 65536) != 0);
    close(fd[0]);
    close(fd[1]);
    free(a);
    free(b);
    fsh_rng_free(r);
}

int main(void)
{
    printf("  %s\n", fsh_fy_ahead_on()
                         ? "refills made ahead (AVX-512 ChaCha kernel)"
                         : "no refills made ahead here: the plain kernel on "
                           "both sides");
    for (int k = 0; k < 2; k++) {
        kern = k == 0 ? fsh_fy_kernel : fsh_fy_forward;
        cases();
        stale_run();
        fork_case();
    }
    return check_done("test_fy_ahead");
}
