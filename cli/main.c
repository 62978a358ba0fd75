/* fairshuf command: dispatch to subcommands. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "deal") == 0)
        return cmd_deal(argc - 1, argv + 1);
    fprintf(stderr, "fairshuf: usage: fairshuf deal [OPTION]...\n");
    return 1;
}
