/* SPDX-License-Identifier: MIT */
/* Target opts: the command line as main() sees it. The input is the
   arguments separated by NUL bytes; "deal" first runs the deal subcommand,
   anything else the shuf command (GNU abbreviations, every option).
   Properties: no crash or sanitizer report, an exit status of
   0 or 1, and every failure explained by a message on stderr. Arguments
   with '/' are skipped so runs stay inside the sandbox directory. */
#include "fuzz.h"
#include "deal/deal.h"
#include "shuf/shuf.h"

#include <string.h>

FZ_NO_LEAK_CHECK

#define MAX_ARGS 24

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1024 || memchr(data, '/', size) != NULL)
        return 0;
    char *text = malloc(size + 1);
    FZ_CHECK(text != NULL);
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = "fairshuf";
    for (size_t at = 0; at < size && argc < MAX_ARGS + 1;) {
        argv[argc++] = text + at;
        at += strlen(text + at) + 1;
    }
    argv[argc] = NULL;
    const fz_run *r;
    int deal = argc > 1 && strcmp(argv[1], "deal") == 0;
    if (deal)
        r = fz_cli(cmd_deal, argc - 1, argv + 1, "x\ny\n", 4);
    else
        r = fz_cli(cmd_shuf, argc, argv, "a\nb\nc\n", 6);
    FZ_CHECK(r->status == 0 || r->status == 1);
    if (r->status != 0) {
        /* Failures say why, in whole lines. */
        FZ_CHECK(r->err_len > 0);
        FZ_CHECK(r->err[r->err_len - 1] == '\n');
    }
    if (r->status == 0 && !deal)
        FZ_CHECK(!r->out_full); /* a full output is a write error */
    free(text);
    return 0;
}
