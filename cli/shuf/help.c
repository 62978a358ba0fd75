/* SPDX-License-Identifier: MIT */
/* shuf's --help. */
#include "shuf/help.h"

#include "common/msg.h"
#include "io/output.h"

#include <stdio.h>
#include <string.h>

void shuf_help(void)
{
    static char text[8192];
    snprintf(
        text, sizeof text,
        "Usage: %s [OPTION]... [FILE]\n"
        "  or:  %s -e [OPTION]... [ARG]...\n"
        "  or:  %s -i LO-HI [OPTION]...\n"
        "%s%s%s"
        "Write a random permutation of the input lines to standard output;\n"
        "every order is exactly equally likely.\n"
        "\n"
        "With no FILE, or when FILE is -, read standard input.\n"
        "\n"
        "Mandatory arguments to long options are mandatory for short options "
        "too.\n"
        "  -e, --echo                treat each ARG as an input line\n"
        "  -i, --input-range=LO-HI   treat each number LO through HI as an "
        "input line\n"
        "  -n, --head-count=COUNT    output at most COUNT lines\n"
        "  -o, --output=FILE         write result to FILE instead of standard "
        "output\n"
        "      --random-source=FILE  get random bytes from FILE, drawing them "
        "as\n"
        "                              GNU shuf does (identical output)\n"
        "  -r, --repeat              output lines can be repeated\n"
        "      --seed=STRING         reproducible output from STRING: inputs "
        "with the\n"
        "                              same number of lines get the same "
        "order;\n"
        "                              only as unpredictable as STRING\n"
        "      --generator=NAME      the generator keyed from the OS: chacha8\n"
        "                              (default), chacha12 or chacha20\n"
        "  -z, --zero-terminated     line delimiter is NUL, not newline\n"
        "\n"
        "Large inputs and output:\n"
        "      --memory=SIZE         keep at most about SIZE of input in memory;\n"
        "                              beyond, shuffle through temporary files\n"
        "                              (SIZE: b, K (default), M, G, T or %% of RAM;\n"
        "                              default: half of physical memory, less\n"
        "                              under ulimit -v/-d or a cgroup limit)\n"
        "  -T, --temporary-directory=DIR  temporary files in DIR, not $TMPDIR\n"
        "                              or /tmp (removed whatever happens)\n"
        "      --threads=N           use up to N threads (1-16; default: CPUs);\n"
        "                              output does not depend on N\n"
        "      --header=N            keep the first N lines first, unshuffled\n"
        "      --shards=K            write records round-robin to K files named\n"
        "      --output-prefix=P       P0 .. P(K-1), numbers zero-padded to the\n"
        "                              width of K-1 (each with the header)\n"
        "      --progress            progress bar on stderr (default: only when it\n"
        "      --no-progress           is a terminal the output is not on, for runs\n"
        "                              longer than 1 s); -r without -n: bytes\n"
        "                              written, no bar\n"
        "      --help        display this help and exit\n"
        "      --version     output version information and exit\n"
        "\n"
        "Without --seed or --random-source, randomness is ChaCha8 (or "
        "--generator's)\n"
        "keyed from the operating system (ChaCha20 under --seed). -o FILE is\n"
        "replaced only when the output is complete.\n"
        "Under --seed, inputs with the same number of lines get the same order,\n"
        "whatever --memory or --threads. Long options may be abbreviated as in\n"
        "GNU shuf; abbreviations of the options above only when unambiguous.\n"
        "--seed, --generator and the options for large inputs, given twice, must\n"
        "have the same value both times, as -o must; of --progress and\n"
        "--no-progress, the last one wins.\n",
        program_name, program_name, program_name,
        as_shuf ? "" : "  or:  ", as_shuf ? "" : program_name,
        as_shuf ? "" : " SUBCOMMAND [OPTION]...\n");
    if (!as_shuf) {
        /* The subcommands, recognised only as the first argument. */
        static const char *const sub[][2] = {
            {"deal", "deal a shuffled deck, shoe or table round of cards"},
            {"verify", "check a provably fair deal from its revealed seed"},
            {"audit", "test a shuffler's output for uniformity and independence"},
        };
        size_t len = strlen(text);
        len += (size_t)snprintf(text + len, sizeof text - len,
                                "\nSubcommands are recognised only as the "
                                "first argument:\n");
        for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++)
            len += (size_t)snprintf(text + len, sizeof text - len,
                                    "  %-9s %s\n", sub[i][0], sub[i][1]);
        snprintf(text + len, sizeof text - len,
                 "Each has its own --help ('%s deal --help'). To shuffle a "
                 "file named\nlike a subcommand, write ./deal or put -- "
                 "first.\n",
                 program_name);
    }
    emit_text(text);
}

