/* libFuzzer target for the agent-spec parser (selfplay/agents/spec.c), the text
 * users type after --agent. Whatever the input it must not crash, and what
 * it accepts must survive a round trip: the canonical text parses again
 * to the same spec and formats to the same text. The weights file named
 * by eval= is not read (agent_spec_parse_text). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "selfplay/agents/agent.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 2048) return 0;
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    AgentSpec a, b;
    char err[ERR_LEN], fa[SPEC_LEN], fb[SPEC_LEN];
    if (agent_spec_parse_text(text, &a, err) == 0) {
        agent_spec_format(&a, fa);
        if (agent_spec_parse_text(fa, &b, err)) abort();
        agent_spec_format(&b, fb);
        if (strcmp(fa, fb)) abort();
        if (strcmp(agent_spec_kind_name(&a), agent_spec_kind_name(&b)) || agent_spec_sims(&a) != agent_spec_sims(&b) ||
            strcmp(agent_spec_eval_file(&a), agent_spec_eval_file(&b)) || a.movetime_ms != b.movetime_ms)
            abort();
        if (!strcmp(agent_spec_kind_name(&a), "mcts") &&
            (a.mcts.c != b.mcts.c || a.mcts.rollout != b.mcts.rollout || a.mcts.nodes != b.mcts.nodes))
            abort();
    } else if (!memchr(err, '\0', sizeof err) || !err[0]) {
        abort(); /* a refusal always says why */
    }
    free(text);
    return 0;
}
