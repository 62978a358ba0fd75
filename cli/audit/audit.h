/* SPDX-License-Identifier: MIT */
/* `fairshuf audit`: a statistical audit of any shuffler's output. */
#ifndef FSH_CLI_AUDIT_H
#define FSH_CLI_AUDIT_H

/* argv[0] is "audit". Returns 0 when every test passes, 1 when any fails;
   exits 2 on usage and input errors. */
int cmd_audit(int argc, char **argv);

#endif
