/* fairshuf command: subcommands (first argument only), else shuf mode. */
#include "cli.h"

#include <string.h>

int main(int argc, char **argv)
{
    /* Only the very first argument can name a subcommand, so a file called
       "deal" is still reachable as ./deal or after --. */
    if (argc >= 2 && strcmp(argv[1], "deal") == 0)
        return cmd_deal(argc - 1, argv + 1);
    return cmd_shuf(argc, argv);
}
