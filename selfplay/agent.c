#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "agent.h"
#include "mcts.h"
#include "movegen.h"
#include "number.h"

struct Agent {
    AgentSpec spec;
    Mcts *mcts; /* AGENT_MCTS */
};

static bool parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
    long v;
    if (!number_long(s, min, max, &v)) return false;
    *out = (uint32_t)v;
    return true;
}

/* One key=value of an mcts spec. */
static int parse_mcts_key(AgentSpec *spec, const char *key, const char *value, char *err)
{
    if (!strcmp(key, "sims")) {
        if (parse_u32(value, 1, 10000000, &spec->sims)) return 0;
        snprintf(err, ERR_LEN, "bad value '%s' for sims (an integer from 1 to 10000000)", value);
    } else if (!strcmp(key, "c")) {
        if (number_real(value, 0, 100, &spec->c)) return 0;
        snprintf(err, ERR_LEN, "bad value '%s' for c (a number from 0 to 100)", value);
    } else if (!strcmp(key, "rollout")) {
        uint32_t n;
        if (!strcmp(value, "random")) {
            spec->rollout = ROLLOUT_RANDOM;
            return 0;
        }
        if (parse_u32(value, 0, ROLLOUT_MAX, &n)) {
            spec->rollout = (int)n;
            return 0;
        }
        snprintf(err, ERR_LEN, "bad value '%.64s' for rollout (random, or an integer from 0 to %d)", value,
                 ROLLOUT_MAX);
    } else if (!strcmp(key, "eval")) {
        if (!*value || strlen(value) >= AGENT_PATH_LEN || strchr(value, ',')) {
            snprintf(err, ERR_LEN, "bad value '%.64s' for eval (a weights file path of 1 to %d characters, no ',')",
                     value, AGENT_PATH_LEN - 1);
            return -1;
        }
        snprintf(spec->eval, sizeof spec->eval, "%s", value);
        return 0;
    } else if (!strcmp(key, "nodes")) {
        if (parse_u32(value, 2, MCTS_MAX_NODES, &spec->nodes)) return 0;
        snprintf(err, ERR_LEN, "bad value '%s' for nodes (an integer from 2 to %u)", value,
                 (unsigned)MCTS_MAX_NODES);
    } else if (!strcmp(key, "threads")) {
        if (parse_u32(value, 1, MCTS_MAX_THREADS, &spec->threads)) return 0;
        snprintf(err, ERR_LEN, "bad value '%.64s' for threads (an integer from 1 to %d)", value, MCTS_MAX_THREADS);
    } else if (!strcmp(key, "solver")) {
        uint32_t v;
        if (parse_u32(value, 0, 1, &v)) {
            spec->solver = v;
            return 0;
        }
        snprintf(err, ERR_LEN, "bad value '%.64s' for solver (0 or 1)", value);
    } else if (!strcmp(key, "prior")) {
        if (number_real(value, 0, 100, &spec->prior)) return 0;
        snprintf(err, ERR_LEN, "bad value '%.64s' for prior (a number from 0 to 100)", value);
    } else if (!strcmp(key, "policy")) {
        if (!strcmp(value, "uniform") || !strcmp(value, "rows")) {
            spec->policy = !strcmp(value, "rows") ? MCTS_POLICY_ROWS : MCTS_POLICY_UNIFORM;
            return 0;
        }
        snprintf(err, ERR_LEN, "bad value '%.64s' for policy (uniform or rows)", value);
    } else {
        snprintf(err, ERR_LEN,
                 "unknown mcts key '%.64s' (known: sims, c, rollout, eval, nodes, threads, solver, prior, policy)", key);
    }
    return -1;
}

static int spec_parse(const char *text, AgentSpec *spec, bool load, char *err)
{
    char buf[SPEC_LEN * 2];
    if (strlen(text) >= sizeof buf) {
        snprintf(err, ERR_LEN, "agent spec too long");
        return -1;
    }
    strcpy(buf, text);
    char *params = strchr(buf, ':');
    if (params) *params++ = '\0';

    *spec = (AgentSpec){.kind = AGENT_RANDOM, .sims = AGENT_DEFAULT_SIMS, .c = 1.0, .rollout = ROLLOUT_RANDOM,
                        .threads = 1};
    weights_default(&spec->weights);
    if (!strcmp(buf, "random")) {
        if (params) {
            snprintf(err, ERR_LEN, "agent 'random' takes no parameters (got '%.64s')", params);
            return -1;
        }
        return 0;
    }
    if (strcmp(buf, "mcts")) {
        snprintf(err, ERR_LEN, "unknown agent '%.64s' (known: random, mcts)", buf);
        return -1;
    }
    spec->kind = AGENT_MCTS;
    if (!params) return 0;
    for (char *save = NULL, *kv = strtok_r(params, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq) {
            snprintf(err, ERR_LEN, "mcts parameter '%.64s' is not key=value", kv);
            return -1;
        }
        *eq = '\0';
        if (parse_mcts_key(spec, kv, eq + 1, err)) return -1;
    }
    if (spec->eval[0]) {
        if (spec->rollout == ROLLOUT_RANDOM) {
            snprintf(err, ERR_LEN, "eval=%.64s has no effect with rollout=random (give rollout=N)", spec->eval);
            return -1;
        }
        /* read once here: every agent made from this spec shares the values */
        if (load && weights_load(spec->eval, &spec->weights, err)) return AGENT_ERR_FILE;
    }
    return 0;
}

int agent_spec_parse(const char *text, AgentSpec *spec, char *err) { return spec_parse(text, spec, true, err); }

int agent_spec_parse_text(const char *text, AgentSpec *spec, char *err)
{
    return spec_parse(text, spec, false, err);
}

int agent_spec_set(AgentSpec *spec, const char *key, const char *value, char *err)
{
    if (spec->kind != AGENT_MCTS) {
        snprintf(err, ERR_LEN, "agent 'random' has no parameters");
        return AGENT_ERR_SPEC;
    }
    AgentSpec s = *spec;
    if (!strcmp(key, "eval") && !*value) {
        s.eval[0] = '\0';
        weights_default(&s.weights);
    } else if (!strcmp(key, "nodes") && !strcmp(value, "0")) {
        s.nodes = 0;
    } else if (parse_mcts_key(&s, key, value, err)) {
        return AGENT_ERR_SPEC;
    }
    if (s.eval[0] && s.rollout == ROLLOUT_RANDOM) {
        snprintf(err, ERR_LEN, "eval=%.64s has no effect with rollout=random (set rollout=N first)", s.eval);
        return AGENT_ERR_SPEC;
    }
    if (!strcmp(key, "eval") && s.eval[0] && weights_load(s.eval, &s.weights, err)) return AGENT_ERR_FILE;
    *spec = s;
    return 0;
}

/* %.17g round-trips but is noisy; the shortest form that does (32 bytes). */
static void shortest_real(double v, char *out)
{
    snprintf(out, 32, "%.17g", v);
    for (int prec = 1; prec < 17; prec++) {
        char tmp[32];
        snprintf(tmp, sizeof tmp, "%.*g", prec, v);
        if (strtod(tmp, NULL) == v) {
            memcpy(out, tmp, sizeof tmp);
            return;
        }
    }
}

char *agent_spec_format(const AgentSpec *spec, char *out)
{
    if (spec->kind == AGENT_RANDOM) {
        snprintf(out, SPEC_LEN, "random");
        return out;
    }
    char c[32], prior[32], rollout[16];
    shortest_real(spec->c, c);
    shortest_real(spec->prior, prior);
    if (spec->rollout == ROLLOUT_RANDOM)
        snprintf(rollout, sizeof rollout, "random");
    else
        snprintf(rollout, sizeof rollout, "%d", spec->rollout);
    int n = snprintf(out, SPEC_LEN, "mcts:sims=%u,c=%s,rollout=%s", (unsigned)spec->sims, c, rollout);
    if (spec->eval[0] && n > 0 && n < SPEC_LEN)
        n += snprintf(out + n, SPEC_LEN - (size_t)n, ",eval=%s", spec->eval);
    if (spec->nodes && n > 0 && n < SPEC_LEN)
        n += snprintf(out + n, SPEC_LEN - (size_t)n, ",nodes=%u", (unsigned)spec->nodes);
    /* the newer keys only when set, so that earlier specs keep their text */
    if (spec->threads > 1 && n > 0 && n < SPEC_LEN)
        n += snprintf(out + n, SPEC_LEN - (size_t)n, ",threads=%u", (unsigned)spec->threads);
    if (spec->solver && n > 0 && n < SPEC_LEN) n += snprintf(out + n, SPEC_LEN - (size_t)n, ",solver=1");
    if (spec->prior > 0 && n > 0 && n < SPEC_LEN) n += snprintf(out + n, SPEC_LEN - (size_t)n, ",prior=%s", prior);
    if (spec->policy == MCTS_POLICY_ROWS && n > 0 && n < SPEC_LEN)
        snprintf(out + n, SPEC_LEN - (size_t)n, ",policy=rows");
    return out;
}

void agent_mcts_config(const AgentSpec *spec, MctsConfig *cfg)
{
    *cfg = (MctsConfig){.sims = spec->sims, .c = spec->c, .nodes = spec->nodes,
                        .evaluate = spec->rollout != ROLLOUT_RANDOM, .rollout = spec->rollout,
                        .weights = spec->weights, .threads = spec->threads, .solver = spec->solver,
                        .prior = spec->prior, .policy = spec->policy};
}

int agent_new(Agent **out, const AgentSpec *spec, char *err)
{
    Agent *a = calloc(1, sizeof *a);
    *out = NULL;
    if (!a) goto oom;
    a->spec = *spec;
    if (spec->kind == AGENT_MCTS) {
        MctsConfig cfg;
        agent_mcts_config(spec, &cfg);
        a->mcts = mcts_new(&cfg);
        if (!a->mcts) goto oom;
    }
    *out = a;
    return 0;
oom:
    free(a);
    snprintf(err, ERR_LEN, "out of memory for an agent's search tree");
    return -1;
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
    return agent_choose_limited(agent, pos, rng, NULL, stats);
}

Action agent_choose_limited(Agent *agent, const Position *pos, Rng *rng, const MctsLimits *lim, MoveStats *stats)
{
    MoveStats st = {0};
    Action a = ACTION_NONE;
    if (agent->spec.kind == AGENT_MCTS) {
        st.legal = movegen_count(pos);
        if (st.legal == 1) {
            /* a forced action needs no search */
            a = movegen_random(pos, rng);
        } else {
            MctsResult r;
            a = mcts_search_limited(agent->mcts, pos, rng, lim, &r);
            st.searched = r.searched; /* a random fallback is not a search */
            st.root_visits = r.root_visits;
            st.chosen_visits = r.chosen_visits;
            st.value = r.value;
            st.sims = r.sims;
            st.proven = r.proven;
        }
    } else {
        st.legal = movegen_count(pos);
        a = movegen_random(pos, rng);
    }
    if (stats) *stats = st;
    return a;
}

int agent_pv(const Agent *agent, Action *pv, int max)
{
    return agent->mcts ? mcts_pv(agent->mcts, pv, max) : 0;
}

void agent_observe(Agent *agent, const Position *before, Action a)
{
    if (agent->mcts) mcts_advance(agent->mcts, before, a);
}
