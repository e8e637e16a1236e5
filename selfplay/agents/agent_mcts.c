/* The MCTS agent (agents/kind.h): the spec `mcts:KEY=VALUE,...` and its
 * keys (agent.h lists them), and an agent that keeps one search tree
 * (search/mcts.h) from decision to decision, following the game. */
#include <stdio.h>
#include <string.h>
#include "selfplay/agents/agent.h"
#include "selfplay/agents/kind.h"
#include "engine/base/error.h"
#include "engine/base/number.h"
#include "engine/movegen.h"
#include "selfplay/search/mcts.h"

static void mcts_defaults(AgentSpec *spec)
{
    spec->mcts = (AgentMctsParams){.sims = AGENT_DEFAULT_SIMS, .c = 1.0, .rollout = ROLLOUT_RANDOM, .threads = 1};
}

/* The exploration keys for self-play data (agent.h, mcts.h): temp,
 * tempmoves, noise, alpha, pcr; temp=0 and noise=0 are none, and as an
 * option (agent_spec_set) alpha=0 goes back to its default and pcr=0 to
 * none. */
static int explore_set(AgentMctsParams *m, const char *key, const char *value, bool option, char *err)
{
    bool unset = option && !strcmp(value, "0");
    if (!strcmp(key, "temp")) {
        if (number_real(value, 0, 100, &m->temp)) return 0;
        return error_code(err, ERR_USAGE, "bad value '%.64s' for temp (a number from 0 to 100; 0: none)", value);
    }
    if (!strcmp(key, "tempmoves")) {
        if (agent_parse_u32(value, 0, AGENT_MAX_TEMP_MOVES, &m->temp_moves)) return 0;
        return error_code(err, ERR_USAGE, "bad value '%.64s' for tempmoves (an integer from 0 to %d)", value,
                          AGENT_MAX_TEMP_MOVES);
    }
    if (!strcmp(key, "noise")) {
        if (number_real(value, 0, 1, &m->noise)) return 0;
        return error_code(err, ERR_USAGE, "bad value '%.64s' for noise (a number from 0 to 1)", value);
    }
    if (!strcmp(key, "alpha")) {
        double a;
        if (unset || (number_real(value, 0, 100, &a) && a > 0)) {
            m->alpha = unset ? 0 : a;
            return 0;
        }
        return error_code(err, ERR_USAGE, "bad value '%.64s' for alpha (a number above 0, at most 100)", value);
    }
    if (!strcmp(key, "pcr")) {
        /* P:S, the probability of a full search and the sims of the others */
        char p[64];
        const char *colon = strchr(value, ':');
        size_t len = colon ? (size_t)(colon - value) : 0;
        double pp;
        uint32_t ss;
        if (unset) {
            m->pcr_sims = 0;
            m->pcr_p = 0;
            return 0;
        }
        if (colon && len < sizeof p) {
            memcpy(p, value, len);
            p[len] = '\0';
            if (number_real(p, 0, 1, &pp) && agent_parse_u32(colon + 1, 1, 10000000, &ss)) {
                m->pcr_p = pp;
                m->pcr_sims = ss;
                return 0;
            }
        }
        return error_code(err, ERR_USAGE,
                          "bad value '%.64s' for pcr (P:S, the probability P of a full search, 0 to 1, and the "
                          "simulations S of the others, 1 to 10000000)",
                          value);
    }
    if (!strcmp(key, "puct")) {
        uint32_t v;
        if (agent_parse_u32(value, 0, 1, &v)) {
            m->puct = v;
            return 0;
        }
        return error_code(err, ERR_USAGE, "bad value '%.64s' for puct (0 or 1)", value);
    }
    if (!strcmp(key, "batch")) {
        if ((option && !strcmp(value, "0")) || agent_parse_u32(value, 1, MCTS_MAX_BATCH, &m->batch)) {
            if (!strcmp(value, "0")) m->batch = 0;
            return 0;
        }
        return error_code(err, ERR_USAGE, "bad value '%.64s' for batch (an integer from 1 to %d)", value,
                          (int)MCTS_MAX_BATCH);
    }
    if (!strcmp(key, "fpu")) {
        if (number_real(value, 0, 1, &m->fpu)) return 0;
        return error_code(err, ERR_USAGE, "bad value '%.64s' for fpu (a number from 0 to 1)", value);
    }
    if (!strcmp(key, "childvisits")) {
        if (agent_parse_u32(value, 1, 10000000, &m->child_visits)) return 0;
        return error_code(err, ERR_USAGE, "bad value '%.64s' for childvisits (an integer from 1 to 10000000)", value);
    }
    if (!strcmp(key, "child")) {
        if (number_real(value, 0, 100, &m->child)) return 0;
        return error_code(err, ERR_USAGE, "bad value '%.64s' for child (a number from 0 to 100; 0: none)", value);
    }
    return error_code(err, ERR_USAGE,
                      "unknown mcts key '%.64s' (known: sims, c, rollout, eval, nodes, threads, solver, prior, policy, "
                      "temp, tempmoves, noise, alpha, pcr, puct, batch, fpu, child, childvisits, movetime)",
                      key);
}

static int mcts_set(AgentSpec *spec, const char *key, const char *value, bool option, char *err)
{
    AgentMctsParams *m = &spec->mcts;
    if (!strcmp(key, "sims")) {
        if (agent_parse_u32(value, 1, 10000000, &m->sims)) {
            m->sims_set = true;
            return 0;
        }
        return error_code(err, ERR_USAGE, "bad value '%s' for sims (an integer from 1 to 10000000)", value);
    }
    if (!strcmp(key, "c")) {
        if (number_real(value, 0, 100, &m->c)) return 0;
        return error_code(err, ERR_USAGE, "bad value '%s' for c (a number from 0 to 100)", value);
    }
    if (!strcmp(key, "rollout")) {
        uint32_t n;
        if (!strcmp(value, "random")) {
            m->rollout = ROLLOUT_RANDOM;
            return 0;
        }
        if (agent_parse_u32(value, 0, ROLLOUT_MAX, &n)) {
            m->rollout = (int)n;
            return 0;
        }
        return error_code(err, ERR_USAGE, "bad value '%.64s' for rollout (random, or an integer from 0 to %d)", value,
                          ROLLOUT_MAX);
    }
    if (!strcmp(key, "nodes")) {
        if (option && !strcmp(value, "0")) {
            m->nodes = 0;
            return 0;
        }
        if (agent_parse_u32(value, 2, MCTS_MAX_NODES, &m->nodes)) return 0;
        return error_code(err, ERR_USAGE, "bad value '%s' for nodes (an integer from 2 to %u)", value,
                          (unsigned)MCTS_MAX_NODES);
    }
    if (!strcmp(key, "threads")) {
        if (agent_parse_u32(value, 1, MCTS_MAX_THREADS, &m->threads)) return 0;
        return error_code(err, ERR_USAGE, "bad value '%.64s' for threads (an integer from 1 to %d)", value,
                          MCTS_MAX_THREADS);
    }
    if (!strcmp(key, "solver")) {
        uint32_t v;
        if (agent_parse_u32(value, 0, 1, &v)) {
            m->solver = v;
            return 0;
        }
        return error_code(err, ERR_USAGE, "bad value '%.64s' for solver (0 or 1)", value);
    }
    if (!strcmp(key, "prior")) {
        if (number_real(value, 0, 100, &m->prior)) return 0;
        return error_code(err, ERR_USAGE, "bad value '%.64s' for prior (a number from 0 to 100)", value);
    }
    if (!strcmp(key, "policy")) {
        if (!strcmp(value, "uniform") || !strcmp(value, "rows")) {
            m->policy = !strcmp(value, "rows") ? MCTS_POLICY_ROWS : MCTS_POLICY_UNIFORM;
            return 0;
        }
        return error_code(err, ERR_USAGE, "bad value '%.64s' for policy (uniform or rows)", value);
    }
    return explore_set(m, key, value, option, err);
}

/* The weights of eval are those of the rollouts' evaluation: without
 * rollout=N they would go unused. */
static int mcts_check(const AgentSpec *spec, bool option, char *err)
{
    const AgentMctsParams *m = &spec->mcts;
    if (m->child_visits && !(m->child > 0))
        return error_code(err, ERR_USAGE, "childvisits goes with child=W (the children's values in the priors)");
    if (m->puct) {
        if (strncmp(spec->eval, AGENT_NET_PREFIX, strlen(AGENT_NET_PREFIX)) &&
            strncmp(spec->eval, AGENT_FN_PREFIX, strlen(AGENT_FN_PREFIX)))
            return error_code(err, ERR_USAGE, "puct=1 needs a net: give eval=net:FILE (its value and priors), or "
                              "eval=fn:NAME (an evaluator a program gives: python -m yinsh.selfplay)");
        if (m->rollout != ROLLOUT_RANDOM || m->prior > 0 || m->policy != MCTS_POLICY_UNIFORM)
            return error_code(err, ERR_USAGE, "rollout, prior and policy do not apply to puct=1 (the net scores the leaves)");
        return 0;
    }
    if (!strncmp(spec->eval, AGENT_FN_PREFIX, strlen(AGENT_FN_PREFIX)))
        return error_code(err, ERR_USAGE, "eval=%.200s: an outside evaluator scores PUCT's leaves: it goes with "
                          "mcts:...,puct=1", spec->eval);
    if (m->batch || m->fpu > 0 || m->child > 0)
        return error_code(err, ERR_USAGE, "batch, fpu and child apply only to puct=1");
    if (spec->eval[0] && spec->mcts.rollout == ROLLOUT_RANDOM)
        return error_code(err, ERR_USAGE, "eval=%.64s has no effect with rollout=random (%s)", spec->eval,
                          option ? "set rollout=N first" : "give rollout=N");
    return 0;
}

static bool mcts_has_eval(const AgentSpec *spec) { return spec->mcts.rollout != ROLLOUT_RANDOM || spec->mcts.puct; }

static void rollout_text(const AgentMctsParams *m, char out[16])
{
    if (m->rollout == ROLLOUT_RANDOM) snprintf(out, 16, "random");
    else snprintf(out, 16, "%d", m->rollout);
}

/* sims, c and rollout always (the first version's text), the others only
 * when set, so that earlier specs keep their text. */
static void mcts_format(const AgentSpec *spec, char *out)
{
    const AgentMctsParams *m = &spec->mcts;
    char c[32], prior[32], rollout[16];
    agent_shortest_real(m->c, c);
    agent_shortest_real(m->prior, prior);
    rollout_text(m, rollout);
    /* a puct spec (newer than the rest) has no rollout to write */
    int n = m->puct ? snprintf(out, SPEC_LEN, "mcts:sims=%u,c=%s", (unsigned)m->sims, c)
                    : snprintf(out, SPEC_LEN, "mcts:sims=%u,c=%s,rollout=%s", (unsigned)m->sims, c, rollout);
    if (spec->eval[0] && n > 0 && n < SPEC_LEN) n += snprintf(out + n, SPEC_LEN - (size_t)n, ",eval=%s", spec->eval);
    if (m->nodes && n > 0 && n < SPEC_LEN) n += snprintf(out + n, SPEC_LEN - (size_t)n, ",nodes=%u", (unsigned)m->nodes);
    if (m->threads > 1 && n > 0 && n < SPEC_LEN)
        n += snprintf(out + n, SPEC_LEN - (size_t)n, ",threads=%u", (unsigned)m->threads);
    if (m->solver && n > 0 && n < SPEC_LEN) n += snprintf(out + n, SPEC_LEN - (size_t)n, ",solver=1");
    if (m->prior > 0 && n > 0 && n < SPEC_LEN) n += snprintf(out + n, SPEC_LEN - (size_t)n, ",prior=%s", prior);
    if (m->policy == MCTS_POLICY_ROWS && n > 0 && n < SPEC_LEN)
        n += snprintf(out + n, SPEC_LEN - (size_t)n, ",policy=rows");
    /* the exploration keys, newer still: each only when set */
    char v[32];
    if (m->temp > 0 && n > 0 && n < SPEC_LEN) {
        agent_shortest_real(m->temp, v);
        n += snprintf(out + n, SPEC_LEN - (size_t)n, ",temp=%s", v);
    }
    if (m->temp_moves && n > 0 && n < SPEC_LEN)
        n += snprintf(out + n, SPEC_LEN - (size_t)n, ",tempmoves=%u", (unsigned)m->temp_moves);
    if (m->noise > 0 && n > 0 && n < SPEC_LEN) {
        agent_shortest_real(m->noise, v);
        n += snprintf(out + n, SPEC_LEN - (size_t)n, ",noise=%s", v);
    }
    if (m->alpha > 0 && n > 0 && n < SPEC_LEN) {
        agent_shortest_real(m->alpha, v);
        n += snprintf(out + n, SPEC_LEN - (size_t)n, ",alpha=%s", v);
    }
    if (m->pcr_sims && n > 0 && n < SPEC_LEN) {
        agent_shortest_real(m->pcr_p, v);
        n += snprintf(out + n, SPEC_LEN - (size_t)n, ",pcr=%s:%u", v, (unsigned)m->pcr_sims);
    }
    /* PUCT's keys, the newest: each only when set */
    if (m->puct && n > 0 && n < SPEC_LEN) n += snprintf(out + n, SPEC_LEN - (size_t)n, ",puct=1");
    if (m->batch && n > 0 && n < SPEC_LEN) n += snprintf(out + n, SPEC_LEN - (size_t)n, ",batch=%u", (unsigned)m->batch);
    if (m->fpu > 0 && n > 0 && n < SPEC_LEN) {
        agent_shortest_real(m->fpu, v);
        n += snprintf(out + n, SPEC_LEN - (size_t)n, ",fpu=%s", v);
    }
    if (m->child > 0 && n > 0 && n < SPEC_LEN) {
        agent_shortest_real(m->child, v);
        n += snprintf(out + n, SPEC_LEN - (size_t)n, ",child=%s", v);
    }
    if (m->child_visits > 1 && n > 0 && n < SPEC_LEN)
        snprintf(out + n, SPEC_LEN - (size_t)n, ",childvisits=%u", (unsigned)m->child_visits);
}

static int mcts_options(const AgentSpec *spec, AgentOption *out)
{
    const AgentMctsParams *m = &spec->mcts;
    char c[32], rollout[16];
    agent_shortest_real(m->c, c);
    rollout_text(m, rollout);
    agent_option(&out[0], "sims", 1, 10000000, "%u", (unsigned)m->sims);
    agent_option(&out[1], "c", 1, 0, "%s", c);
    agent_option(&out[2], "rollout", 1, 0, "%s", rollout);
    agent_option(&out[3], "eval", 1, 0, "%s", spec->eval);
    agent_option(&out[4], "nodes", 0, MCTS_MAX_NODES, "%u", (unsigned)m->nodes);
    return 5;
}

static void config_of(const AgentSpec *spec, MctsConfig *cfg)
{
    const AgentMctsParams *m = &spec->mcts;
    *cfg = (MctsConfig){.sims = m->sims, .c = m->c, .nodes = m->nodes, .evaluate = m->rollout != ROLLOUT_RANDOM,
                        .rollout = m->rollout, .weights = spec->weights, .net = spec->net, .threads = m->threads,
                        .solver = m->solver, .prior = m->prior, .policy = m->policy, .temp = m->temp,
                        .temp_moves = m->temp_moves, .noise = m->noise, .alpha = m->alpha, .pcr_sims = m->pcr_sims,
                        .pcr_p = m->pcr_p, .puct = m->puct, .batch = m->batch, .fpu = m->fpu, .child = m->child, .child_visits = m->child_visits,
                        .evaluate_fn = spec->outside ? spec->outside->fn : NULL,
                        .evaluate_ctx = spec->outside ? spec->outside->ctx : NULL};
}

bool agent_spec_mcts_config(const AgentSpec *spec, MctsConfig *cfg)
{
    if (spec->kind != AGENT_MCTS) return false;
    config_of(spec, cfg);
    return true;
}

uint32_t agent_spec_sims(const AgentSpec *spec) { return spec->kind == AGENT_MCTS ? spec->mcts.sims : 0; }

bool agent_spec_uncapped(const AgentSpec *spec) { return spec->kind == AGENT_MCTS && !spec->mcts.sims_set; }

void agent_spec_set_uncapped(AgentSpec *spec, bool uncapped)
{
    if (spec->kind == AGENT_MCTS) spec->mcts.sims_set = !uncapped;
}

/* ---- the agent: self is its Mcts ------------------------------------------ */

static int mcts_create(const AgentSpec *spec, void **self, char *err)
{
    MctsConfig cfg;
    config_of(spec, &cfg);
    cfg.threads = agent_search_threads(spec);
    Mcts *m;
    int rc = mcts_new(&m, &cfg, err);
    *self = m;
    return rc;
}

static void mcts_destroy(void *self) { mcts_free(self); }
static void mcts_reset(void *self) { mcts_clear(self); }

static Action mcts_choose(void *self, const Position *pos, Rng *rng, const SearchLimits *lim, MoveStats *st)
{
    st->legal = movegen_count(pos);
    /* a forced action needs no search */
    if (st->legal == 1) return movegen_random(pos, rng);
    MctsResult r;
    Action a = mcts_search_limited(self, pos, rng, lim, &r);
    st->searched = r.searched; /* a random fallback is not a search */
    st->root_visits = r.root_visits;
    st->chosen_visits = r.chosen_visits;
    st->value = r.value;
    st->root_value = r.root_value;
    st->sims = r.sims;
    st->budget = !r.searched ? SEARCH_BUDGET_UNKNOWN : r.reduced ? SEARCH_BUDGET_REDUCED : SEARCH_BUDGET_FULL;
    st->proven = r.proven;
    return a;
}

static int mcts_agent_pv(const void *self, Action *pv, int max) { return mcts_pv(self, pv, max); }
static int mcts_agent_children(const void *self, Action *actions, uint32_t *visits, int max)
{
    return mcts_root_children(self, actions, visits, max);
}
static void mcts_observe(void *self, const Position *before, Action a) { mcts_advance(self, before, a); }

const AgentKind AGENT_KIND_MCTS = {
    .name = "mcts",
    .defaults = mcts_defaults,
    .set = mcts_set,
    .check = mcts_check,
    .has_eval = mcts_has_eval,
    .format = mcts_format,
    .options = mcts_options,
    .create = mcts_create,
    .destroy = mcts_destroy,
    .reset = mcts_reset,
    .choose = mcts_choose,
    .pv = mcts_agent_pv,
    .children = mcts_agent_children,
    .observe = mcts_observe,
};
