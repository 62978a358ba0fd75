/* Shared declarations for the fairshuf command. */
#ifndef FSH_CLI_H
#define FSH_CLI_H

/* `fairshuf deal`: argv[0] is "deal". Returns the exit status. */
int cmd_deal(int argc, char **argv);

#endif
