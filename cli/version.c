/* SPDX-License-Identifier: MIT */
/* --version, for every command. */
#include "version.h"

#include "common/msg.h"
#include "fairshuf.h"
#include "io/output.h"

#include <stdio.h>

void print_version(void)
{
    static char text[512];
    unsigned v = fsh_version_number();
    /* Installed as shuf, the first line is "shuf (PACKAGE) VERSION" as
       GNU's (whose name there does not follow argv[0] either). */
    snprintf(text, sizeof text,
             "%s %u.%u.%u\n"
             "Exactly uniform shuffles; a drop-in for GNU shuf.\n",
             as_shuf ? "shuf (fairshuf)" : "fairshuf", v / 10000,
             v / 100 % 100, v % 100);
    emit_text(text);
}

