/* SPDX-License-Identifier: MIT */
/* The command's generator (cli/common/rng.c, rng_make: what `fairshuf`
   and `fairshuf deal` draw from): without --seed, ChaCha8 keyed from the
   OS, as `fairshuf --help`, `deal --help` and fairshuf(1) say, or the
   ChaCha variant --generator names (parse_generator); with --seed, the
   library's seeded ChaCha20 stream of that string. Built with the two CLI
   sources it needs (Makefile). The known-bad checks: each rng's words must
   be its variant's keystream of its key and not the other two variants',
   so a command that went back to ChaCha20 (fairshuf 0.2), or a --generator
   that kept the default, would fail. rng_make_dealer (`fairshuf deal`):
   every order of the shoe reached at any size, through a stand-in
   hardware source. */
#include "chacha_ref.h"
#include "check.h"
#include "common/rng.h"
#include "fake_hw.h"
#include "rng/rng.h"

#include <stdlib.h>
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

/* An OS-keyed rng of rng_make(NULL, gen) is ChaCha with rounds. */
static void os_keyed_is(int gen, fsh_gen want, int rounds)
{
    fsh_rng *rng = rng_make(NULL, gen);
    CHECK_EQ((int)rng->gen, (int)want);
    CHECK_EQ(rng->src, FSH_SRC_CHACHA);
    CHECK_EQ(rng->rounds, rounds);
    CHECK_EQ(rng->os_keyed, 1);
    uint32_t key[8];
    uint64_t got[NW];
    memcpy(key, rng->key, sizeof key);
    first_words(rng, got);
    CHECK_EQ(keystream_is(key, got, 8), rounds == 8);
    CHECK_EQ(keystream_is(key, got, 12), rounds == 12);
    CHECK_EQ(keystream_is(key, got, 20), rounds == 20);
    fsh_rng_free(rng);
}

/* Deal the whole shoe of decks decks from a fresh rng_make_dealer(seed):
   the status, and in *hw the hardware bits the rng mixed in. */
static int deal_shoe(const char *seed, unsigned decks, uint64_t *hw)
{
    fsh_cardset *set = NULL;
    fsh_deck *deck = NULL;
    fsh_rng *rng = rng_make_dealer(seed, GEN_DEFAULT);
    CHECK_EQ(fsh_cardset_standard(&set, decks, 0), FSH_OK);
    CHECK_EQ(fsh_deck_new_set(&deck, set), FSH_OK);
    int rc = fsh_deck_burn(rng, deck, fsh_deck_size(deck));
    *hw = 1;
    CHECK_EQ(fsh_rng_entropy_drawn(rng, NULL, hw), FSH_OK);
    fsh_deck_free(deck);
    fsh_cardset_free(set);
    fsh_rng_free(rng);
    return rc;
}

/* `fairshuf deal`'s rng reaches every order of the shoe at any size: with
   a hardware source, a 112-deck shoe (5,824 cards, past the library's
   default cap of 5,808, which would deal it from the 256-bit key alone)
   gets at least log2(5824!) - 256 hardware bits; without one, any shoe
   beyond 57 cards is refused, the large one too. --seed: simulation. */
static void test_dealer(void)
{
    uint64_t hw;
    fake_hw src; /* the stand-in hardware source */
    fake_hw_init(&src, 1);
    fake_hw_on(&src, 1);
    CHECK_EQ(deal_shoe(NULL, 1, &hw), FSH_OK);
    CHECK_EQ(hw, 0u);
    CHECK_EQ(deal_shoe(NULL, 2, &hw), FSH_OK);
    CHECK((double)hw + 256 >= fsh_ordered_bits(104, 104));
    CHECK_EQ(deal_shoe(NULL, 112, &hw), FSH_OK);
    CHECK((double)hw + 256 >= fsh_ordered_bits(5824, 5824));
    CHECK_EQ(deal_shoe(NULL, 300, &hw), FSH_OK);
    CHECK((double)hw + 256 >= fsh_ordered_bits(15600, 15600));
    fake_hw_on(&src, 0); /* no hardware source */
    CHECK_EQ(deal_shoe(NULL, 1, &hw), FSH_OK);
    CHECK_EQ(deal_shoe(NULL, 2, &hw), FSH_ENOHWRAND);
    CHECK_EQ(deal_shoe(NULL, 112, &hw), FSH_ENOHWRAND);
    CHECK_EQ(deal_shoe("x", 112, &hw), FSH_OK);
    CHECK_EQ(hw, 0u);
    fake_hw_off();
}

int main(void)
{
    /* No --seed: ChaCha8 from the OS, or --generator's variant. */
    os_keyed_is(GEN_DEFAULT, FSH_GEN_CHACHA8, 8);
    CHECK_EQ(parse_generator("chacha8"), (int)FSH_GEN_CHACHA8);
    CHECK_EQ(parse_generator("chacha12"), (int)FSH_GEN_CHACHA12);
    CHECK_EQ(parse_generator("chacha20"), (int)FSH_GEN_CHACHA20);
    os_keyed_is(parse_generator("chacha8"), FSH_GEN_CHACHA8, 8);
    os_keyed_is(parse_generator("chacha12"), FSH_GEN_CHACHA12, 12);
    os_keyed_is(parse_generator("chacha20"), FSH_GEN_CHACHA20, 20);

    /* --seed=STRING: ChaCha20, the words of fsh_rng_new_seeded(STRING). */
    fsh_rng *rng = rng_make("fairshuf", GEN_DEFAULT);
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
    lazy_rng l = {.seed = NULL, .gen = GEN_DEFAULT, .rng = NULL};
    CHECK(l.rng == NULL);
    rng = lazy_get(&l);
    CHECK(rng == l.rng && lazy_get(&l) == rng);
    CHECK_EQ(rng->rounds, 8);
    lazy_free(&l);
    CHECK(l.rng == NULL);
    l.gen = FSH_GEN_CHACHA20;
    CHECK_EQ(lazy_get(&l)->rounds, 20);
    lazy_free(&l);

    test_dealer();
    return check_done("test_cli_rng");
}
