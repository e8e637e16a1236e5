#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "agent.h"
#include "mcts.h"
#include "movegen.h"
#include "playout.h"

struct Agent {
    AgentSpec spec;
    Mcts *mcts; /* AGENT_MCTS */
};

static bool parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
    if (!*s || *s == '-' || *s == '+' || *s == ' ') return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < min || v > max) return false;
    *out = (uint32_t)v;
    return true;
}

static bool parse_double(const char *s, double min, double max, double *out)
{
    if (!*s || *s == ' ') return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !isfinite(v) || v < min || v > max) return false;
    *out = v;
    return true;
}

/* One key=value of an mcts spec. */
static bool parse_mcts_key(AgentSpec *spec, const char *key, const char *value, char *err)
{
    if (!strcmp(key, "sims")) {
        if (parse_u32(value, 1, 10000000, &spec->sims)) return true;
        snprintf(err, AGENT_ERR_LEN, "bad value '%s' for sims (an integer from 1 to 10000000)", value);
    } else if (!strcmp(key, "c")) {
        if (parse_double(value, 0, 100, &spec->c)) return true;
        snprintf(err, AGENT_ERR_LEN, "bad value '%s' for c (a number from 0 to 100)", value);
    } else if (!strcmp(key, "rollout")) {
        if (!strcmp(value, "random")) {
            spec->rollout = ROLLOUT_RANDOM;
            return true;
        }
        snprintf(err, AGENT_ERR_LEN, "bad value '%s' for rollout (known: random)", value);
    } else if (!strcmp(key, "nodes")) {
        if (parse_u32(value, 2, MCTS_MAX_NODES, &spec->nodes)) return true;
        snprintf(err, AGENT_ERR_LEN, "bad value '%s' for nodes (an integer from 2 to %u)", value,
                 (unsigned)MCTS_MAX_NODES);
    } else {
        snprintf(err, AGENT_ERR_LEN, "unknown mcts key '%s' (known: sims, c, rollout, nodes)", key);
    }
    return false;
}

bool agent_spec_parse(const char *text, AgentSpec *spec, char *err)
{
    char buf[AGENT_SPEC_LEN * 2];
    if (strlen(text) >= sizeof buf) {
        snprintf(err, AGENT_ERR_LEN, "agent spec too long");
        return false;
    }
    strcpy(buf, text);
    char *params = strchr(buf, ':');
    if (params) *params++ = '\0';

    *spec = (AgentSpec){.kind = AGENT_RANDOM, .sims = 1000, .c = 1.0, .rollout = ROLLOUT_RANDOM};
    if (!strcmp(buf, "random")) {
        if (params) {
            snprintf(err, AGENT_ERR_LEN, "agent 'random' takes no parameters (got '%.64s')", params);
            return false;
        }
        return true;
    }
    if (strcmp(buf, "mcts")) {
        snprintf(err, AGENT_ERR_LEN, "unknown agent '%.64s' (known: random, mcts)", buf);
        return false;
    }
    spec->kind = AGENT_MCTS;
    if (!params) return true;
    for (char *save = NULL, *kv = strtok_r(params, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq) {
            snprintf(err, AGENT_ERR_LEN, "mcts parameter '%.64s' is not key=value", kv);
            return false;
        }
        *eq = '\0';
        if (!parse_mcts_key(spec, kv, eq + 1, err)) return false;
    }
    return true;
}

char *agent_spec_format(const AgentSpec *spec, char *out)
{
    if (spec->kind == AGENT_RANDOM) {
        snprintf(out, AGENT_SPEC_LEN, "random");
        return out;
    }
    int n = snprintf(out, AGENT_SPEC_LEN, "mcts:sims=%u,c=%.17g,rollout=random", (unsigned)spec->sims, spec->c);
    /* %.17g round-trips but is noisy; prefer the shortest form that does */
    for (int prec = 1; prec < 17; prec++) {
        char tmp[32];
        snprintf(tmp, sizeof tmp, "%.*g", prec, spec->c);
        if (strtod(tmp, NULL) == spec->c) {
            n = snprintf(out, AGENT_SPEC_LEN, "mcts:sims=%u,c=%s,rollout=random", (unsigned)spec->sims, tmp);
            break;
        }
    }
    if (spec->nodes && n > 0 && n < AGENT_SPEC_LEN)
        snprintf(out + n, AGENT_SPEC_LEN - (size_t)n, ",nodes=%u", (unsigned)spec->nodes);
    return out;
}

Agent *agent_new(const AgentSpec *spec, char *err)
{
    Agent *a = calloc(1, sizeof *a);
    if (!a) goto oom;
    a->spec = *spec;
    if (spec->kind == AGENT_MCTS) {
        MctsConfig cfg = {.sims = spec->sims, .c = spec->c, .nodes = spec->nodes};
        a->mcts = mcts_new(&cfg);
        if (!a->mcts) goto oom;
    }
    return a;
oom:
    free(a);
    snprintf(err, AGENT_ERR_LEN, "out of memory for an agent's search tree");
    return NULL;
}

void agent_free(Agent *agent)
{
    if (!agent) return;
    mcts_free(agent->mcts);
    free(agent);
}

const AgentSpec *agent_spec(const Agent *agent) { return &agent->spec; }

void agent_reset(Agent *agent)
{
    if (agent->mcts) mcts_clear(agent->mcts);
}

Action agent_choose(Agent *agent, const Position *pos, Rng *rng, MoveStats *stats)
{
    MoveStats st = {0};
    Action a = ACTION_NONE;
    if (agent->spec.kind == AGENT_MCTS) {
        st.legal = movegen_count(pos);
        if (st.legal == 1) {
            /* a forced action needs no search */
            a = playout_random_action(pos, rng);
        } else {
            MctsResult r;
            a = mcts_search(agent->mcts, pos, rng, &r);
            st.searched = true;
            st.root_visits = r.root_visits;
            st.chosen_visits = r.chosen_visits;
            st.value = r.value;
        }
    } else {
        st.legal = movegen_count(pos);
        a = movegen_random(pos, rng);
    }
    if (stats) *stats = st;
    return a;
}

void agent_observe(Agent *agent, const Position *before, Action a)
{
    if (agent->mcts) mcts_advance(agent->mcts, before, a);
}
