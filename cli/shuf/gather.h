/* SPDX-License-Identifier: MIT */
/* Writing shuffled records with several threads gathering them. */
#ifndef FSH_CLI_GATHER_H
#define FSH_CLI_GATHER_H

#include "io/output.h"
#include "shuf/progress.h"
#include "shuf/records.h"

/* The records of in at r's offsets, r->n of them in array order, to out:
   the bytes write_recs writes, with up to `threads` threads copying them
   out of in (this one included); "write" progress on pg. Stops at the
   first write error (out_error says which). */
void gather_write(outw *out, const inbuf *in, const recs *r, char delim,
                  unsigned threads, progress *pg);

#endif
