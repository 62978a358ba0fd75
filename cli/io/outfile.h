/* SPDX-License-Identifier: MIT */
/* -o FILE (and --shards files): written whole or not at all. */
#ifndef FSH_CLI_OUTFILE_H
#define FSH_CLI_OUTFILE_H

#include <stdint.h>

/* FILE, called once all input is read. Returns the fd to write: a
   temporary beside FILE, renamed over it at commit, when the rename keeps
   FILE's owner, group, mode, extended attributes (ACLs) and links; else a
   spool (in tmpdir, or memory) copied over FILE at commit; devices and
   FIFOs are opened and truncated as GNU does. FILE's contents are untouched
   until commit. Dies with GNU's message if FILE cannot be opened for
   writing. Several files may be open at once (--shards). */
int outfile_open(const char *path, const char *tmpdir);
/* outfile_open, and *direct: 1 when the fd is FILE itself, opened and
   truncated as by GNU (a device, a FIFO, a pseudo file system's file),
   0 when FILE is untouched until commit. */
int outfile_open_ex(const char *path, const char *tmpdir, int *direct);
/* outfile_open, and *tmp: the temporary's path when FILE is to be renamed
   over (a named file other processes may open and write too), NULL when
   the fd is a private spool or FILE itself (copy and direct). For
   fairshuf-mpi, whose ranks share one -o temporary. */
int outfile_open_named(const char *path, const char *tmpdir,
                       const char **tmp);
/* Whether a spool (for the copy over FILE) may be memory when the tmpdir
   cannot hold it: 1, the default; 0 under --memory, whose cap a spool of
   the whole output in memory would exceed. Then the spool is the tmpdir
   or nothing: outfile_open dies with "cannot create temporary file in
   DIR", outfile_respool fails (the write error stands). */
void outfile_memory_spool(int allowed);
/* The temporary beside FILE, written through fd, filled its file system
   after `written` bytes: when FILE exists (its own space then counts),
   move those bytes to a spool (TMPDIR, else memory if allowed) that fd now writes,
   at that offset, to be copied over FILE at commit (the space reserved
   first, so FILE survives if it is still too little), and remove the
   temporary. 0, or -1 with nothing changed. */
int outfile_respool(int fd, uint64_t written, const char *tmpdir);
/* Put every output in place: rename, or copy with all signals blocked and
   the space reserved first. Dies with "write error: ..." if a copy
   fails. */
void outfile_commit(void);
/* FILE, opened by outfile_open, is not to be written after all: its
   temporary goes, and outfile_commit leaves FILE as it was (the caller
   closes its fd). A FILE written directly (a device, a FIFO) keeps what
   was written. */
void outfile_drop(const char *path);
/* Remove the temporaries, if any (async-signal-safe). */
void outfile_abort(void);
/* Install the handlers that remove temporaries on fatal signals (once). */
void install_cleanup_handlers(void);
/* A function those handlers run first, before the temporaries go
   (async-signal-safe; NULL for none): audit stops its runs there. */
void outfile_signal_hook(void (*hook)(void));
/* Put the signals those handlers hold back to their default action: in a
   child before its exec, which must not remove its parent's temporaries. */
void outfile_reset_handlers(void);

#endif
