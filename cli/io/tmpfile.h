/* SPDX-License-Identifier: MIT */
/* Unlinked temporary files in the -T directory. */
#ifndef FSH_CLI_TMPFILE_H
#define FSH_CLI_TMPFILE_H

#include <stddef.h>

#include "io/output.h"

/* A temporary file in dir, already unlinked (O_TMPFILE where the
   filesystem has it), on a descriptor above stderr; -1 with errno. */
int tmp_unlinked(const char *dir);
/* tmp_unlinked, or die naming the directory. */
int tmp_create(const char *dir);
/* Die with "WHAT temporary file in DIR[: strerror(e)]". */
_Noreturn void tmp_die(const char *dir, int e, const char *what);
/* out_write / out_flush on a writer to a temporary in dir, dying on error. */
void tmp_write(const char *dir, outw *w, const void *p, size_t n);
void tmp_flush(const char *dir, outw *w);
/* All size bytes of the temporary fd (from offset 0) in a new buffer with
   INBUF_SLACK readable bytes after them; dies on a read error. */
char *tmp_load(const char *dir, int fd, size_t size);

#endif
