/* yinsh uyi: one of our agents as a UYI engine on stdin and stdout
 * (docs/protocol.md; our choices in docs/uyi.md): the server is
 * selfplay/uyi/server/. */
#include <stdio.h>
#include <stdlib.h>
#include "cli/cli.h"
#include "cli/commands.h"
#include "selfplay/agents/agent.h"
#include "selfplay/uyi/server/server.h"

/* The command line, as parsed. */
typedef struct UyiArgs {
    const char *agent;
} UyiArgs;

/* The agent to serve, one of ours: 0, or the exit status. */
static int check_args(const char *cmd, const UyiArgs *a, AgentSpec *spec)
{
    int rc = cli_agent(cmd, "--agent", a->agent, spec);
    if (!rc && agent_spec_external(spec))
        rc = cli_usage_error(cmd, "--agent: an external engine speaks UYI itself: run it, not yinsh uyi");
    return rc;
}

int cmd_uyi(int argc, char **argv)
{
    const char *cmd = "uyi";
    UyiArgs a = {.agent = "best"};
    const CliOpt opts[] = {{.name = "--agent", .kind = CLI_TEXT, .out = &a.agent}};
    const char *pos[1];
    int npos, rc;
    if (cli_parse(cmd, argc, argv, opts, 1, pos, 0, &npos)) return EXIT_USAGE;
    AgentSpec spec = {0};
    char err[ERR_LEN];
    if (!(rc = check_args(cmd, &a, &spec)) && uyi_serve(stdin, stdout, &spec, err)) rc = cli_error(cmd, "%s", err);
    agent_spec_release(&spec);
    return rc;
}
