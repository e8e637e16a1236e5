/* yinsh bench: placeholder until the engine benchmark lands (issue 6). */
#include "cli.h"
#include "commands.h"
const char USAGE_BENCH[] = "usage: yinsh bench [--quick] [--threads T]\n";
int cmd_bench(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_error("bench", "not built yet");
}
