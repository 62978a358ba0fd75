/* SPDX-License-Identifier: MIT */
/* shuf's command line. */
#ifndef FSH_CLI_OPTIONS_H
#define FSH_CLI_OPTIONS_H

#include <stdint.h>

/* Large inputs: --memory, -T, --threads, --progress. */
typedef struct bigopts {
    uint64_t memory;    /* bytes */
    int memory_set;     /* --memory was given: a cap on memory the output's
                           spool must not exceed either */
    const char *tmpdir;
    unsigned threads;
    int progress;       /* -1 auto (stderr a terminal), 0, 1 */
} bigopts;

/* The defaults: memory from memory.c, $TMPDIR or /tmp, the online CPUs
   (1 to 16), automatic progress. */
void bigopts_defaults(bigopts *b);

typedef struct opts {
    int echo, range, repeat, head_set;
    char delim;
    uint64_t lo, hi, head;      /* head UINT64_MAX: no -n */
    const char *outfile, *random_source, *seed;
    const char *gen_arg; /* --generator as given (NULL: none) */
    int gen;             /* its fsh_gen, or GEN_DEFAULT */
    uint64_t header, shards;
    const char *prefix;
    int nops;
    char **ops;
    bigopts big;
} opts;

/* Parse argv (GNU abbreviations resolved first, rewriting argv); dies with
   GNU's messages on errors; --help and --version exit. */
void parse_options(opts *o, int argc, char **argv);

/* SIZE with suffix b, K (default), M, G, T or %: 0 ok, -1 invalid. */
int parse_size(const char *s, uint64_t *out);

#endif
