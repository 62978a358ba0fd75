/* SPDX-License-Identifier: MIT */
/* Messages: the program's name, "NAME: MESSAGE" on stderr, fatal errors. */
#ifndef FSH_CLI_MSG_H
#define FSH_CLI_MSG_H

/* Name used in messages. Invoked as "fairshuf" (argv[0]'s basename), it is
   "fairshuf" and the command has subcommands; invoked under any other
   name, as_shuf is 1, the command is GNU shuf and, as GNU, names itself
   by argv[0] exactly as given. Set once by main, read everywhere. */
extern const char *program_name;
extern int as_shuf;
void set_program_name(const char *argv0);
/* A subcommand of fairshuf (name: "deal", "verify", "audit") names itself
   "fairshuf NAME" from here on: in its messages, getopt's, and its usage
   line ("Try 'fairshuf NAME --help' ..."). */
void set_subcommand(const char *name);

/* "NAME: MESSAGE[: strerror(errnum)]\n" on stderr (errnum 0: no suffix). */
void error_msg(int errnum, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The flush hook, error_msg, then the clean-up hook, then exit(1). */
_Noreturn void die(int errnum, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* "Try 'NAME --help' for more information.", the hook, exit(1). */
_Noreturn void usage_error(void);

/* The hook, then exit(1), with no message (the caller printed it). */
_Noreturn void fatal_exit(void);

/* Called once, with ctx, by die() and usage_error() before exiting (at
   most one hook; NULL removes it). The command's run registers its state
   here, the only place a fatal error can reach it from. */
void set_die_hook(void (*hook)(void *ctx), void *ctx);

/* Called by die() before its message, with ctx, as GNU's error() flushes
   standard output first (at most one hook; NULL removes it). Returns 0,
   or -1 when that flush failed: die() then adds the line GNU's
   close_stdout() prints at exit, "write error", with the strerror of the
   errno the hook put in *close_err (0: none). The hook may itself report
   a write error and exit. */
void set_flush_hook(int (*hook)(void *ctx, int *close_err), void *ctx);

/* Dies with a message for a library status other than FSH_OK. */
void check_status(int rc);

#endif
