/* SPDX-License-Identifier: MIT */
/* `fairshuf deal`: deal a shuffled deck of cards. */
#ifndef FSH_CLI_DEAL_H
#define FSH_CLI_DEAL_H

/* argv[0] is "deal". Returns the exit status. */
int cmd_deal(int argc, char **argv);

#endif
