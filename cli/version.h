/* SPDX-License-Identifier: MIT */
/* --version (for either command). */
#ifndef FSH_CLI_VERSION_H
#define FSH_CLI_VERSION_H

/* Print the version and exit. */
_Noreturn void print_version(void);

#endif
