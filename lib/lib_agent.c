/* Agents by spec (include/yinsh.h): selfplay/agents/agent.h behind a
 * handle that owns the agent's random stream and follows the game it
 * plays, since an external engine is told a game by its actions. */
#include <stdlib.h>
#include <string.h>
#include "selfplay/agents/agent.h"
#include "engine/base/error.h"
#include "engine/base/parallel.h"
#include "engine/encode/encode.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "lib/lib_internal.h"

/* A program that loads the library: the OpenMP runtime's stale
 * registration removed before its first agent (base/parallel.h). */
__attribute__((constructor)) static void lib_at_load(void) { parallel_clear_stale_registration(); }

struct yinsh_agent {
    Agent *agent;
    Rng rng;
    uint64_t seed;
    Position game;  /* where the observed actions led from the game's start */
    bool followed;  /* game is the position of the game being played */
    LibUse use;     /* a call of it runs (lib_internal.h) */
};

static int busy(char *err)
{
    return error_code(err, ERR_BUSY, "the agent is busy: a call of it (from another thread) has not returned; "
                                     "one choice, new game or observed action at a time");
}

static void agent_destroy(yinsh_agent *a)
{
    agent_free(a->agent);
    free(a);
}

/* Ends a call of a: the agent is released here when a free was asked
 * during the call (a must not be used afterwards). */
static void agent_end(yinsh_agent *a)
{
    if (lib_use_end(&a->use) & LIB_FREE) agent_destroy(a);
}

int yinsh_agent_new(yinsh_agent **out, const char *spec, uint64_t seed, char *err)
{
    char scratch[ERR_LEN];
    err = ERR_OR_SCRATCH(err, scratch);
    *out = NULL;
    AgentSpec s;
    int rc = agent_spec_parse(spec, &s, err);
    if (rc) return rc;
    yinsh_agent *a = calloc(1, sizeof *a);
    if (a) rc = agent_new(&a->agent, &s, err); /* the agent holds its own reference to a net */
    agent_spec_release(&s);
    if (!a) return error_set(err, "out of memory for an agent");
    if (rc) {
        free(a);
        return rc;
    }
    a->seed = seed;
    rng_seed(&a->rng, seed, 0);
    if ((rc = yinsh_agent_new_game(a, VARIANT_STANDARD, err))) {
        yinsh_agent_free(a);
        return rc;
    }
    *out = a;
    return 0;
}

void yinsh_agent_free(yinsh_agent *a)
{
    /* during a call of it, the call releases it when it returns */
    if (a && lib_use_now_or_later(&a->use, LIB_FREE)) agent_destroy(a);
}

void yinsh_agent_spec(const yinsh_agent *a, char out[YINSH_SPEC_LEN]) { agent_spec_format(agent_spec(a->agent), out); }

static int new_game(yinsh_agent *a, int variant, char *err)
{
    if (variant < 0 || variant >= VARIANT_NB)
        return error_code(err, ERR_USAGE, "variant %d: expected %d (standard) or %d (blitz), plus %d (swap) and/or %d (draw odds)",
                          variant, VARIANT_STANDARD, VARIANT_BLITZ, VARIANT_SWAP, VARIANT_DRAW_ODDS);
    char why[ERR_LEN];
    int fault = agent_new_game(a->agent, NULL, true, a->seed, why);
    if (fault != REASON_NONE) return error_set(err, "%s: %s", reason_name(fault), why);
    pos_start(&a->game, variant);
    a->followed = true;
    return 0;
}

int yinsh_agent_new_game(yinsh_agent *a, int variant, char *err)
{
    if (!lib_use_begin(&a->use)) return busy(err);
    int rc = new_game(a, variant, err);
    agent_end(a);
    return rc;
}

static int observe(yinsh_agent *a, const yinsh_position *before, int index, char *err)
{
    Action act = encode_action_in(&before->pos, index);
    if (act == ACTION_NONE || !movegen_is_legal(&before->pos, act))
        return error_code(err, ERR_USAGE, "action index %d is not legal in the position observed", index);
    agent_observe(a->agent, &before->pos, act);
    /* a game followed from its start stays followed while each action
     * observed is played from where the last one led */
    if (a->followed && pos_equal(&a->game, &before->pos)) {
        Undo u;
        pos_make(&a->game, act, &u);
    } else {
        a->followed = false;
    }
    return 0;
}

int yinsh_agent_observe(yinsh_agent *a, const yinsh_position *before, int index, char *err)
{
    if (!lib_use_begin(&a->use)) return busy(err);
    int rc = observe(a, before, index, err);
    agent_end(a);
    return rc;
}

static int choose(yinsh_agent *a, const yinsh_position *p, int *index, yinsh_move_stats *stats, char *err)
{
    const AgentSpec *spec = agent_spec(a->agent);
    *index = -1;
    if (stats) memset(stats, 0, sizeof *stats);
    int result, reason;
    if (pos_outcome(&p->pos, &result, &reason)) {
        char ypn[YPN_MAX_LEN];
        return error_code(err, ERR_USAGE, "the game is over in %s: nothing to choose", ypn_format(&p->pos, ypn));
    }
    if (agent_spec_external(spec) && !(a->followed && pos_equal(&a->game, &p->pos)))
        return error_code(err, ERR_USAGE,
                          "an external engine knows a game only by its actions: start it with a new game and "
                          "observe every action played, then ask in the position they lead to");
    MoveStats st;
    Action act = agent_act(a->agent, &p->pos, &a->rng, NULL, &st);
    if (st.fault != REASON_NONE) return error_set(err, "%s: %s", reason_name(st.fault), st.why);
    *index = encode_action(act);
    if (!stats) return 0;
    Action pv[YINSH_PV_MAX];
    int npv = st.searched ? agent_pv(a->agent, pv, YINSH_PV_MAX) : 0;
    *stats = (yinsh_move_stats){
        .legal = st.legal,
        .searched = st.searched,
        .root_visits = st.root_visits,
        .chosen_visits = move_stats_chosen(&st),
        .value = st.value,
        .sims = st.sims,
        /* alpha-beta: its completed depth (which its chosen_visits above also holds, as ever) */
        .depth = !strcmp(agent_spec_kind_name(spec), "ab") ? (int)st.depth : npv,
        .proven = st.proven,
        .npv = npv,
        .root_value = st.root_value,
    };
    for (int k = 0; k < npv; k++) stats->pv[k] = encode_action(pv[k]);
    return 0;
}

int yinsh_agent_choose(yinsh_agent *a, const yinsh_position *p, int *index, yinsh_move_stats *stats, char *err)
{
    *index = -1;
    if (stats) memset(stats, 0, sizeof *stats);
    if (!lib_use_begin(&a->use)) return busy(err);
    int rc = choose(a, p, index, stats, err);
    agent_end(a);
    return rc;
}
