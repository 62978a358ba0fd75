/* SPDX-License-Identifier: MIT */
/* `fairshuf verify`: check a provably fair deal from the revealed seed. */
#ifndef FSH_CLI_VERIFY_H
#define FSH_CLI_VERIFY_H

/* The largest shoe verify checks, in decks (54,000 cards; the seed rule
   asks 63 KiB of seed): `fairshuf deal` deals no larger fair round. */
#define FAIR_MAX_DECKS 1000

/* argv[0] is "verify". Returns the exit status (0 VALID, 1 otherwise). */
int cmd_verify(int argc, char **argv);

#endif
