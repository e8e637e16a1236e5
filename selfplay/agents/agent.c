/* The agent interface (agents/agent.h), dispatching to the kind's table
 * (agents/kind.h) once per call: the limits a harness sets turned into a
 * search's, and an agent's own movetime, are the same for every kind. */
#include <assert.h>
#include <stdlib.h>
#include "selfplay/agents/agent.h"
#include "selfplay/agents/kind.h"
#include "engine/base/clock.h"
#include "engine/base/error.h"

struct Agent {
    AgentSpec spec;
    const AgentKind *kind;
    void *self; /* the kind's own state */
};

int agent_new(Agent **out, const AgentSpec *spec, char *err)
{
    *out = NULL;
    if (agent_spec_names_net(spec) && !agent_spec_net(spec))
        return error_set(err, "eval=%.200s: the spec was read without its net (an agent needs it loaded)",
                         agent_spec_eval_file(spec));
    if (agent_spec_names_outside(spec) && !spec->outside)
        return error_code(err, ERR_USAGE, "eval=%.200s: an evaluator outside yinsh, which only the program that "
                          "gives it plays (python -m yinsh.selfplay or yinsh.uyi --evaluate; docs/python.md)",
                          agent_spec_eval_file(spec));
    Agent *a = calloc(1, sizeof *a);
    if (!a) return error_set(err, "out of memory for an agent");
    agent_spec_copy(&a->spec, spec); /* the agent's own reference to the net */
    a->kind = agent_kind(spec);
    int rc = a->kind->create ? a->kind->create(&a->spec, &a->self, err) : 0;
    if (rc) {
        agent_spec_release(&a->spec);
        free(a);
        return rc;
    }
    *out = a;
    return 0;
}

void agent_free(Agent *agent)
{
    if (!agent) return;
    if (agent->kind->destroy) agent->kind->destroy(agent->self);
    agent_spec_release(&agent->spec);
    free(agent);
}

const AgentSpec *agent_spec(const Agent *agent) { return &agent->spec; }

void agent_reset(Agent *agent)
{
    if (agent->kind->reset) agent->kind->reset(agent->self);
}

int agent_new_game(Agent *agent, const AgentEnv *env, bool seeded, uint64_t seed, char *why)
{
    agent_reset(agent);
    return agent->kind->new_game ? agent->kind->new_game(agent->self, env, seeded, seed, why) : REASON_NONE;
}

void agent_log(Agent *agent, int reason, const char *why)
{
    if (agent->kind->log) agent->kind->log(agent->self, reason, why);
}

int agent_pid(const Agent *agent) { return agent->kind->pid ? agent->kind->pid(agent->self) : 0; }

UyiGo agent_limits_go(const AgentLimits *lim)
{
    UyiGo go = {.sims = -1, .movetime = -1, .wtime = -1, .btime = -1, .winc = -1, .binc = -1, .depth = -1};
    if (!lim) return go;
    if (lim->sims) go.sims = lim->sims;
    if (lim->movetime_ms > 0) go.movetime = lim->movetime_ms;
    if (lim->clock) {
        go.wtime = lim->clock_ms[WHITE] > 0 ? lim->clock_ms[WHITE] : 0;
        go.btime = lim->clock_ms[BLACK] > 0 ? lim->clock_ms[BLACK] : 0;
        go.winc = go.binc = lim->inc_ms;
    }
    return go;
}

/* An internal agent searches within its share of the clock or movetime,
 * by the policy of `yinsh uyi` (uyi_budget_ms); the agent's own movetime
 * replaces the run's (under a clock, the clock's share still caps it). */
Action agent_act(Agent *agent, const Position *pos, Rng *rng, const AgentLimits *lim, MoveStats *stats)
{
    if (agent->kind->act) {
        MoveStats st = {0};
        Action a = agent->kind->act(agent->self, pos, lim, &st);
        if (stats) *stats = st;
        return a;
    }
    if (!lim) return agent_choose_limited(agent, pos, rng, NULL, stats);
    AgentLimits own;
    if (agent->spec.movetime_ms) {
        own = *lim;
        own.movetime_ms = agent->spec.movetime_ms;
        lim = &own;
    }
    UyiGo go = agent_limits_go(lim);
    SearchLimits sl;
    agent_go_limits(agent, &go, pos->actor, clock_now(), &sl, NULL);
    return agent_choose_limited(agent, pos, rng, &sl, stats);
}

void agent_go_limits(const Agent *agent, const UyiGo *go, int actor, double start, SearchLimits *lim, char *why)
{
    *lim = (SearchLimits){0};
    if (why) why[0] = '\0';
    if (go->infinite) lim->until_stop = true; /* whatever the other limits say (the protocol) */
    else if (go->sims > 0) lim->sims = go->sims > UINT32_MAX ? UINT32_MAX : (uint32_t)go->sims;
    int64_t budget = uyi_budget_ms(go, actor);
    if (budget >= 0) lim->deadline = start + (double)budget * 1e-3;
    if (go->depth > 0) {
        if (agent->spec.kind == AGENT_AB) lim->depth = (int)go->depth;
        else if (why)
            error_set(why, "go: ignored 'depth' (the %s agent has no depth: only alpha-beta searches by depth)",
                      agent->kind->name);
    }
}

Action agent_choose(Agent *agent, const Position *pos, Rng *rng, MoveStats *stats)
{
    return agent_choose_limited(agent, pos, rng, NULL, stats);
}

Action agent_choose_limited(Agent *agent, const Position *pos, Rng *rng, const SearchLimits *lim, MoveStats *stats)
{
    assert(agent->kind->choose && "an external agent is asked through agent_act");
    /* the agent's own movetime (a searcher's key): it never thinks longer,
     * whatever it is given */
    SearchLimits own = lim ? *lim : (SearchLimits){0};
    if (agent->spec.movetime_ms) {
        double deadline = clock_now() + (double)agent->spec.movetime_ms * 1e-3;
        if (own.deadline <= 0 || deadline < own.deadline) own.deadline = deadline;
        lim = &own;
    }
    /* a time limit lifts the default sims of a spec that does not give
     * them: the time, not 200 simulations, ends the search */
    if (own.deadline > 0 && !own.sims && !own.until_stop && agent_spec_uncapped(&agent->spec)) {
        own.sims = UINT32_MAX;
        lim = &own;
    }
    MoveStats st = {0};
    Action a = agent->kind->choose(agent->self, pos, rng, lim, &st);
    if (stats) *stats = st;
    return a;
}

int agent_pv(const Agent *agent, Action *pv, int max)
{
    return agent->kind->pv ? agent->kind->pv(agent->self, pv, max) : 0;
}

int agent_root_children(const Agent *agent, Action *actions, uint32_t *visits, int max)
{
    return agent->kind->children ? agent->kind->children(agent->self, actions, visits, max) : 0;
}

void agent_observe(Agent *agent, const Position *before, Action a)
{
    if (agent->kind->observe) agent->kind->observe(agent->self, before, a);
}
