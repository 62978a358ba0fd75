/* SPDX-License-Identifier: MIT */
/* The command's generator (cli/common/rng.c, rng_make: what `fairshuf`
   and `fairshuf deal` draw from): without --seed, ChaCha8 keyed from the
   OS, as `fairshuf --help`, `deal --help` and fairshuf(1) say; with
   --seed, the library's seeded ChaCha20 stream of that string. Built with
   the two CLI sources it needs (Makefile). The known-bad checks: the
   unseeded rng's words must differ from the ChaCha20 keystream of its key,
   so a command that went back to ChaCha20 (fairshuf 0.2) would fail. */
#include "chacha_ref.h"
#include "check.h"
#include "common/rng.h"
#include "rng/rng.h"

#include <string.h>

#define NW 64

/* The rng's first NW words (it must be freshly keyed) into got. */
static void first_words(fsh_rng *rng, uint64_t got[NW])
{
    CHECK_EQ(rng->counter, 0u);
    CHECK_EQ(rng->stream, 0u);
    for (size_t i = 0; i < NW; i++)
        CHECK_EQ(fsh_rng_u64(rng, &got[i]), FSH_OK);
}

/* 1 if got is the ChaCha(rounds) keystream of key from counter 0. */
static int keystream_is(const uint32_t key[8], const uint64_t got[NW],
                        int rounds)
{
    uint64_t want[NW];
    ref_blocks(key, 0, 0, rounds, want, NW / 8);
    return memcmp(got, want, sizeof want) == 0;
}

int main(void)
{
    /* No --seed: ChaCha8 from the OS. */
    fsh_rng *rng = rng_make(NULL);
    CHECK_EQ((int)rng->gen, (int)FSH_GEN_CHACHA8);
    CHECK_EQ(rng->src, FSH_SRC_CHACHA);
    CHECK_EQ(rng->rounds, 8);
    CHECK_EQ(rng->os_keyed, 1);
    uint32_t key[8];
    uint64_t got[NW];
    memcpy(key, rng->key, sizeof key);
    first_words(rng, got);
    CHECK_EQ(keystream_is(key, got, 8), 1);
    CHECK_EQ(keystream_is(key, got, 12), 0);
    CHECK_EQ(keystream_is(key, got, 20), 0);
    fsh_rng_free(rng);

    /* --seed=STRING: ChaCha20, the words of fsh_rng_new_seeded(STRING). */
    rng = rng_make("fairshuf");
    CHECK_EQ((int)rng->gen, (int)FSH_GEN_CHACHA20);
    CHECK_EQ(rng->rounds, 20);
    CHECK_EQ(rng->os_keyed, 0);
    fsh_rng *ref = NULL;
    CHECK_EQ(fsh_rng_new_seeded(&ref, "fairshuf", 8), FSH_OK);
    int same = 1;
    for (int i = 0; i < NW; i++) {
        uint64_t x = 0, y = 1;
        CHECK_EQ(fsh_rng_u64(rng, &x), FSH_OK);
        CHECK_EQ(fsh_rng_u64(ref, &y), FSH_OK);
        same = same && x == y;
    }
    CHECK_EQ(same, 1);
    fsh_rng_free(ref);
    fsh_rng_free(rng);

    /* lazy_get makes the same kind on first use, and only then. */
    lazy_rng l = {NULL, NULL};
    CHECK(l.rng == NULL);
    rng = lazy_get(&l);
    CHECK(rng == l.rng && lazy_get(&l) == rng);
    CHECK_EQ(rng->rounds, 8);
    lazy_free(&l);
    CHECK(l.rng == NULL);
    return check_done("test_cli_rng");
}
