/* SPDX-License-Identifier: MIT */
/* shuf's --help. */
#ifndef FSH_CLI_HELP_H
#define FSH_CLI_HELP_H

/* Print the help and exit. */
_Noreturn void shuf_help(void);

#endif
