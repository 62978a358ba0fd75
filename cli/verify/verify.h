/* SPDX-License-Identifier: MIT */
/* `fairshuf verify`: check a provably fair deal from the revealed seed. */
#ifndef FSH_CLI_VERIFY_H
#define FSH_CLI_VERIFY_H

/* The largest shoe verify checks, in decks (54,000 cards; the seed rule
   asks 63 KiB of seed): `fairshuf deal` deals no larger fair round. */
#define FAIR_MAX_DECKS 1000

/* The largest --json or seed file verify reads (8 MiB; a deal is under
   1 MB). */
#define VERIFY_MAX_FILE ((size_t)8 << 20)
/* The largest server seed file fairshuf deal reads: half of that, so that
   verify reads both the seed file and the JSON of the round with the seed
   revealed (its hex, no longer than the file, and the deal). */
#define FAIR_SEED_FILE_MAX (VERIFY_MAX_FILE / 2)

#include <stddef.h>

/* Dies (exit 1) when a server seed of len bytes is too short for a fair
   round of decks decks with jokers jokers each: "server seed too short"
   below FSH_FAIR_SEED_MIN bytes, "server seed too short for this game"
   below what the shoe needs (fsh_fair_seed_min). fairshuf deal and
   verify say the same. */
void fair_seed_check(size_t len, unsigned decks, unsigned jokers);

/* argv[0] is "verify". Returns the exit status (0 VALID, 1 otherwise). */
int cmd_verify(int argc, char **argv);

#endif
