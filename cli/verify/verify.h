/* SPDX-License-Identifier: MIT */
/* `fairshuf verify`: check a provably fair deal from the revealed seed. */
#ifndef FSH_CLI_VERIFY_H
#define FSH_CLI_VERIFY_H

/* argv[0] is "verify". Returns the exit status (0 VALID, 1 otherwise). */
int cmd_verify(int argc, char **argv);

#endif
