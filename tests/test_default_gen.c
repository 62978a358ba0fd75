/* SPDX-License-Identifier: MIT */
/* Which generator each constructor gives (include/fairshuf.h, "Random word
   sources"; docs/DESIGN.md, "The default generator"): an rng keyed from the
   OS (fsh_rng_new, fsh_rng_rekey) runs ChaCha8, and its words are the
   ChaCha8 keystream of its key; a seeded one (fsh_rng_new_seeded,
   fsh_rng_seed) runs ChaCha20, whose stream never changes; an explicit
   generator (fsh_rng_rekey_gen, fsh_rng_seed_gen) is kept, through a fork
   and a hardware reseed too. The known-bad check: the same words against
   the ChaCha20 and ChaCha12 keystreams of that key must differ, so an rng
   labelled ChaCha8 that ran another round count would fail. */
#include "chacha_ref.h"
#include "check.h"
#include "rng/rng.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NW 200 /* words compared: 25 blocks of the first buffer fill */
#define NB (NW / 8)

/* The rng's next NW words are ChaCha(rounds) of its current key from
   counter 0 (a freshly keyed rng), and not those of the other counts. */
static void check_words(fsh_rng *rng, int rounds)
{
    uint32_t key[8];
    uint64_t got[NW], want[NW];
    memcpy(key, rng->key, sizeof key);
    CHECK_EQ(rng->counter, 0u);
    CHECK_EQ(rng->stream, 0u);
    for (size_t i = 0; i < NW; i++)
        CHECK_EQ(fsh_rng_u64(rng, &got[i]), FSH_OK);
    static const int all[3] = {8, 12, 20};
    for (int r = 0; r < 3; r++) {
        ref_blocks(key, 0, 0, all[r], want, NB);
        int same = memcmp(got, want, sizeof got) == 0;
        CHECK_EQ(same, all[r] == rounds);
    }
}

static void check_gen(const fsh_rng *rng, fsh_gen gen, int rounds)
{
    CHECK_EQ((int)rng->gen, (int)gen);
    CHECK_EQ(rng->src, FSH_SRC_CHACHA);
    CHECK_EQ(rng->rounds, rounds);
}

int main(void)
{
    fsh_rng *rng = NULL;

    /* OS-keyed: ChaCha8. */
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    check_gen(rng, FSH_GEN_CHACHA8, 8);
    check_words(rng, 8);
    /* fsh_rng_rekey goes back to the default after another generator. */
    CHECK_EQ(fsh_rng_rekey_gen(rng, FSH_GEN_CHACHA20), FSH_OK);
    check_gen(rng, FSH_GEN_CHACHA20, 20);
    check_words(rng, 20);
    CHECK_EQ(fsh_rng_rekey(rng), FSH_OK);
    check_gen(rng, FSH_GEN_CHACHA8, 8);
    check_words(rng, 8);
    CHECK_EQ(fsh_rng_rekey_gen(rng, FSH_GEN_CHACHA12), FSH_OK);
    check_gen(rng, FSH_GEN_CHACHA12, 12);
    check_words(rng, 12);

    /* Seeded: ChaCha20, through both entry points, after an OS key too. */
    CHECK_EQ(fsh_rng_seed(rng, "42", 2), FSH_OK);
    check_gen(rng, FSH_GEN_CHACHA20, 20);
    check_words(rng, 20);
    fsh_rng_free(rng);
    CHECK_EQ(fsh_rng_new_seeded(&rng, "42", 2), FSH_OK);
    check_gen(rng, FSH_GEN_CHACHA20, 20);
    CHECK_EQ(fsh_rng_seed_gen(rng, FSH_GEN_CHACHA8, "42", 2), FSH_OK);
    check_gen(rng, FSH_GEN_CHACHA8, 8);
    check_words(rng, 8);
    fsh_rng_free(rng);

    /* A hardware reseed (what full reach does between groups) keeps the
       round count: the words after it are ChaCha8 of the new key. */
    CHECK_EQ(fsh_rng_new(&rng), FSH_OK);
    uint64_t w;
    CHECK_EQ(fsh_rng_u64(rng, &w), FSH_OK);
    const uint64_t hw[4] = {1, 2, 3, 4};
    fsh_rng_reseed(rng, hw);
    check_gen(rng, FSH_GEN_CHACHA8, 8);
    check_words(rng, 8);

    /* A fork: the child's first call rekeys it from the OS with the same
       generator (the default, or the one chosen). */
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            CHECK_EQ(fsh_rng_rekey_gen(rng, FSH_GEN_CHACHA20), FSH_OK);
        CHECK_EQ(fsh_rng_u64(rng, &w), FSH_OK);
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            uint64_t x;
            int ok = fsh_rng_u64(rng, &x) == FSH_OK;
            ok = ok && rng->gen == (pass ? FSH_GEN_CHACHA20 : FSH_GEN_CHACHA8);
            ok = ok && rng->rounds == (pass ? 20 : 8);
            _exit(ok ? 0 : 1);
        }
        int status = -1;
        CHECK(pid > 0);
        CHECK_EQ(waitpid(pid, &status, 0), pid);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    fsh_rng_free(rng);
    return check_done("test_default_gen");
}
