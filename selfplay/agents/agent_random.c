/* The random agent (agents/kind.h): a uniformly random legal action, the
 * spec `random` with no keys. */
#include <stdio.h>
#include "selfplay/agents/agent.h"
#include "selfplay/agents/kind.h"
#include "engine/base/error.h"
#include "engine/movegen.h"

static int random_parse(AgentSpec *spec, char *params, char *err)
{
    (void)spec;
    if (params) return error_code(err, ERR_USAGE, "agent 'random' takes no parameters (got '%.64s')", params);
    return 0;
}

static void random_format(const AgentSpec *spec, char *out)
{
    (void)spec;
    snprintf(out, SPEC_LEN, "random");
}

static Action random_choose(void *self, const Position *pos, Rng *rng, const SearchLimits *lim, MoveStats *st)
{
    (void)self;
    (void)lim;
    st->legal = movegen_count(pos);
    return movegen_random(pos, rng);
}

bool agent_spec_random(const AgentSpec *spec) { return spec->kind == AGENT_RANDOM; }

const AgentKind AGENT_KIND_RANDOM = {
    .name = "random",
    .parse = random_parse,
    .format = random_format,
    .choose = random_choose,
};
