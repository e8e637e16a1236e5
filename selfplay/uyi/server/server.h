/* The UYI engine server: one of our agents as a UYI engine, reading the
 * harness's commands and writing its replies (docs/protocol.md; our
 * choices in docs/uyi.md). `yinsh uyi` is a thin call into it on stdin and
 * stdout; the harness's side of the protocol is selfplay/uyi/engine.h.
 *
 * It sits above the agents (selfplay/agents/) that it serves, which in
 * turn use the protocol's reader and client below (selfplay/uyi/): so it
 * is a concept of its own, nested in the protocol's folder. */
#ifndef YINSH_UYI_SERVER_H
#define YINSH_UYI_SERVER_H

#include <stdio.h>
#include "selfplay/agents/agent.h"

/* Serves the agent of spec (copied; an external engine's spec is refused
 * with ERR_USAGE) until `quit` or the end of in: commands are read from
 * in, replies written to out a line at a time, flushed at once. A
 * malformed command is answered with an `info string error` line and the
 * serving goes on. 0 after quit or the end of input; ERR_USAGE or
 * ERR_FAIL, with the message in err, when no agent could be made. */
int uyi_serve(FILE *in, FILE *out, const AgentSpec *spec, char *err);

#endif
