/* SPDX-License-Identifier: MIT */
/* fairshuf command: subcommands (first argument only), else shuf mode.
   Invoked under another name than "fairshuf" (installed as shuf), it is
   GNU shuf: no subcommands, GNU's name in messages and --version. */
#include "audit/audit.h"
#include "common/msg.h"
#include "deal/deal.h"
#include "shuf/shuf.h"
#include "verify/verify.h"

#include <locale.h>
#include <string.h>

int main(int argc, char **argv)
{
    /* As GNU: the locale decides the quotes in messages, the printable
       multibyte characters and the language of strerror(). */
    setlocale(LC_ALL, "");
    set_program_name(argv[0]);
    /* Only the very first argument can name a subcommand, so a file called
       "deal" or "audit" is still reachable as ./deal or after --. */
    /* A subcommand names itself "fairshuf deal: ..." in its messages. */
    if (!as_shuf && argc >= 2 && strcmp(argv[1], "deal") == 0) {
        set_subcommand("deal");
        return cmd_deal(argc - 1, argv + 1);
    }
    if (!as_shuf && argc >= 2 && strcmp(argv[1], "verify") == 0) {
        set_subcommand("verify");
        return cmd_verify(argc - 1, argv + 1);
    }
    if (!as_shuf && argc >= 2 && strcmp(argv[1], "audit") == 0) {
        set_subcommand("audit");
        return cmd_audit(argc - 1, argv + 1);
    }
    return cmd_shuf(argc, argv);
}
