/* Self-play of an outside evaluator into a database (include/yinsh.h):
 * the lab's run (selfplay/play/run.h: create, resume, lease, store,
 * finish) and scheduler (selfplay/play/scheduler.h: one game per thread,
 * one writer), whose PUCT agents (puct=1,eval=fn:NAME) evaluate their
 * leaves through one batcher (selfplay/search/batcher.h) in front of the
 * caller's function (LibOutside), so that the games at once share each
 * call. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/notation.h"
#include "lib/lib_internal.h"
#include "selfplay/agents/agent.h"
#include "selfplay/play/resign.h"
#include "selfplay/play/run.h"
#include "selfplay/search/batcher.h"

struct yinsh_selfplay {
    Run run;
    bool opened;             /* run_open succeeded (run_close is called whatever its outcome) */
    AgentOutside agent;      /* what the specs attach: fn batcher_evaluate, ctx the batcher of a play */
    LibOutside outside;      /* the caller's function behind the batcher */
    Batcher *batcher;        /* during a play */
    atomic_bool stop;        /* set by yinsh_selfplay_stop, read by the scheduler */
    _Atomic uint32_t next;   /* the source: the next of run.todo to hand out */
    pthread_mutex_t lock;    /* guards the figures below (the writer thread adds, any thread reads) */
    yinsh_selfplay_info info;
};

/* The run's plan for a new run: both sides the agent, its evaluator attached. */
static int new_plan(yinsh_selfplay *s, const yinsh_selfplay_config *cfg, SelfplayPlan *plan, char *err)
{
    *plan = (SelfplayPlan){.games = cfg->games, .seed = cfg->seed, .store_visits = true};
    if (!cfg->agent) return error_code(err, ERR_USAGE, "a new run needs its agent");
    if (cfg->games < 1 || cfg->games > STORE_MAX_GAMES)
        return error_code(err, ERR_USAGE, "games %u: expected 1..%d", (unsigned)cfg->games, (int)STORE_MAX_GAMES);
    if (cfg->variant && !variant_parse(cfg->variant, &plan->variant))
        return error_code(err, ERR_USAGE, "variant '%.64s': expected " VARIANT_EXPECTED, cfg->variant);
    if (cfg->opening && !opening_parse(cfg->opening, &plan->opening, &plan->opening_actions))
        return error_code(err, ERR_USAGE, "opening '%.64s': expected none, rings, or random:K with K from 1 to %d",
                          cfg->opening, OPENING_RANDOM_MAX);
    if (plan->opening == OPENING_BOOK) return error_code(err, ERR_USAGE, "an opening book is not taken here");
    if (cfg->resign) {
        char why[ERR_LEN], check[64];
        ResignRule *rule = &plan->controls.resign;
        rule->check = RESIGN_DEFAULT_CHECK;
        snprintf(check, sizeof check, "%.17g", cfg->resign_check);
        if (resign_parse(cfg->resign, rule, why) || resign_parse_check(check, rule, why))
            return error_code(err, ERR_USAGE, "%s", why);
    }
    int rc = agent_spec_parse(cfg->agent, &plan->white, err);
    if (rc) return rc;
    MctsConfig mc;
    if (!agent_spec_names_outside(&plan->white) || !agent_spec_mcts_config(&plan->white, &mc) || !mc.puct) {
        agent_spec_release(&plan->white);
        return error_code(err, ERR_USAGE, "agent '%.200s': expected PUCT over the outside evaluator, "
                          "mcts:...,puct=1,eval=fn:%.100s", cfg->agent, cfg->evaluator);
    }
    if (mc.threads > 1) {
        agent_spec_release(&plan->white);
        return error_code(err, ERR_USAGE, "agent '%.200s': threads=%u: the games at once are the threads here",
                          cfg->agent, (unsigned)mc.threads);
    }
    if ((rc = agent_spec_attach(&plan->white, &s->agent, err))) {
        agent_spec_release(&plan->white);
        return rc;
    }
    plan->black = plan->white;
    return 0;
}

int yinsh_selfplay_open(yinsh_selfplay **out, const yinsh_selfplay_config *cfg, char *err)
{
    char scratch[ERR_LEN];
    err = ERR_OR_SCRATCH(err, scratch);
    *out = NULL;
    if (!cfg || !cfg->db || !cfg->run || !cfg->evaluator)
        return error_code(err, ERR_USAGE, "self-play needs a database, a run's name and the evaluator's name");
    if (!cfg->evaluator[0] || strlen(cfg->evaluator) + strlen(AGENT_FN_PREFIX) >= AGENT_PATH_LEN ||
        strchr(cfg->evaluator, ','))
        return error_code(err, ERR_USAGE, "evaluator name '%.64s': 1 to %d characters, no ','", cfg->evaluator,
                          (int)(AGENT_PATH_LEN - strlen(AGENT_FN_PREFIX) - 1));
    if (!cfg->run[0] || strlen(cfg->run) >= STORE_NAME_LEN)
        return error_code(err, ERR_USAGE, "run name '%.64s': 1 to %d characters", cfg->run, STORE_NAME_LEN - 1);
    if (cfg->join && (cfg->shards < 1 || cfg->shard < 1 || cfg->shard > cfg->shards))
        return error_code(err, ERR_USAGE, "a worker's slice %u of %u: expected 1 <= slice <= slices",
                          (unsigned)cfg->shard, (unsigned)cfg->shards);
    yinsh_selfplay *s = calloc(1, sizeof *s);
    if (!s) return error_set(err, "out of memory for a self-play");
    pthread_mutex_init(&s->lock, NULL);
    *out = s;
    snprintf(s->agent.name, sizeof s->agent.name, "%s", cfg->evaluator);
    s->agent.hash = cfg->net_hash;
    s->agent.fn = batcher_evaluate;
    RunOptions o = {.kind = "selfplay", .db = cfg->db, .name = cfg->run, .command = cfg->command,
                    .have_seed = true, .outside = &s->agent};
    if (cfg->resume || cfg->join) {
        o.resume = cfg->run;
        o.joined = cfg->join != 0;
        if (cfg->join) o.shard = cfg->shard, o.shards = cfg->shards;
    } else {
        int rc = new_plan(s, cfg, &o.plan, err);
        if (rc) return rc;
    }
    o.plan.store_visits = true;
    int rc = run_open(&s->run, &o, err); /* a new run's plan is o's, copied: its specs hold no net */
    if (rc) return rc < 0 ? rc : ERR_FAIL;
    s->opened = true;
    snprintf(s->info.name, sizeof s->info.name, "%s", s->run.row.name);
    snprintf(s->info.agent, sizeof s->info.agent, "%s", s->run.row.white);
    s->info.seed = s->run.row.seed;
    s->info.games = s->run.row.games;
    s->info.todo = s->run.ntodo;
    s->info.stored = (uint32_t)s->run.sum.games;
    return 0;
}

/* ---- a play: the scheduler's source and sink ---------------------------- */

/* The next game of this process's todo; a thread that gets none leaves
 * the batcher, which then waits for one member fewer. */
static bool next_game(void *ctx, uint32_t *index)
{
    yinsh_selfplay *s = ctx;
    uint32_t k = atomic_fetch_add(&s->next, 1);
    if (k < s->run.ntodo) {
        *index = s->run.todo[k];
        return true;
    }
    batcher_leave(s->batcher);
    return false;
}

/* Stores finished games, unless the evaluator failed: a game in play
 * then had searches stopped short, and is dropped (a resume plays it). */
static int write_games(void *ctx, GameRecord *const *games, int n, char *err)
{
    yinsh_selfplay *s = ctx;
    char why[ERR_LEN];
    if (batcher_failed(s->batcher, why)) return error_set(err, "%s", why);
    return run_store(&s->run, games, n, err);
}

static void stored_games(void *ctx, GameRecord *const *games, int n)
{
    yinsh_selfplay *s = ctx;
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < n; i++) {
        s->info.played++;
        s->info.actions += (uint64_t)games[i]->nactions;
        if (games[i]->result >= 0 && games[i]->result < 4) s->info.results[games[i]->result]++;
    }
    s->info.stored = (uint32_t)s->run.sum.games;
    s->info.resigned = s->run.resign.resigned;
    s->info.checked = s->run.resign.checked;
    s->info.fired = s->run.resign.fired;
    s->info.wrong = s->run.resign.wrong;
    pthread_mutex_unlock(&s->lock);
}

int yinsh_selfplay_play(yinsh_selfplay *s, uint32_t threads, yinsh_eval_fn fn, void *ctx, char *err)
{
    char scratch[ERR_LEN];
    err = ERR_OR_SCRATCH(err, scratch);
    if (!s->opened) return error_code(err, ERR_USAGE, "the self-play did not open");
    if (!fn) return error_code(err, ERR_USAGE, "no evaluator function");
    if (threads < 1 || threads > 4096) return error_code(err, ERR_USAGE, "threads %u: expected 1..4096", threads);
    if (s->run.ntodo == 0) return 0;
    MctsConfig mc;
    agent_spec_mcts_config(&s->run.plan.white, &mc);
    uint32_t games = threads < s->run.ntodo ? threads : s->run.ntodo;
    int batch = mc.batch > 1 ? (int)mc.batch : 1;
    lib_outside_free(&s->outside);
    s->outside = (LibOutside){.fn = fn, .ctx = ctx};
    int rc = batcher_new(&s->batcher, lib_outside_evaluate, &s->outside, (int)games * batch, err);
    if (rc) return rc;
    s->agent.ctx = s->batcher;
    for (uint32_t i = 0; i < games; i++) batcher_join(s->batcher);
    atomic_store(&s->next, 0);
    atomic_store(&s->stop, false);
    s->run.plan.threads = (int)games;
    SelfplaySource src = {.next = next_game, .ctx = s};
    SelfplaySink sink = {.write = write_games, .stored = stored_games, .ctx = s, .batch_games = 1,
                         .interrupt = &s->stop};
    uint64_t done0 = s->run.done;
    rc = selfplay_run_source(&s->run.plan, &src, &sink, err);
    char why[ERR_LEN];
    if (batcher_failed(s->batcher, why)) rc = error_set(err, "%s", why); /* the evaluator's, not the writer's */
    else if (!rc && atomic_load(&s->stop)) rc = error_set(err, "stopped: the games in play were dropped");
    else if (!rc && s->run.done - done0 < s->run.ntodo)
        rc = error_set(err, "%u of the %u games to play were not stored", (unsigned)(s->run.ntodo - (s->run.done - done0)),
                       (unsigned)s->run.ntodo);
    uint64_t rounds, leaves;
    batcher_counts(s->batcher, &rounds, &leaves);
    pthread_mutex_lock(&s->lock);
    s->info.rounds += rounds;
    s->info.leaves += leaves;
    pthread_mutex_unlock(&s->lock);
    batcher_free(s->batcher);
    s->batcher = NULL;
    s->agent.ctx = NULL;
    return rc ? ERR_FAIL : 0;
}

void yinsh_selfplay_stop(yinsh_selfplay *s) { atomic_store(&s->stop, true); }

void yinsh_selfplay_get_info(yinsh_selfplay *s, yinsh_selfplay_info *info)
{
    pthread_mutex_lock(&s->lock);
    *info = s->info;
    Batcher *b = s->batcher;
    if (b) {
        uint64_t rounds, leaves;
        batcher_counts(b, &rounds, &leaves);
        info->rounds += rounds;
        info->leaves += leaves;
    }
    pthread_mutex_unlock(&s->lock);
}

int yinsh_selfplay_finish(yinsh_selfplay *s, char *err)
{
    char scratch[ERR_LEN];
    err = ERR_OR_SCRATCH(err, scratch);
    if (!s->opened) return error_code(err, ERR_USAGE, "the self-play did not open");
    uint32_t *missing = NULL, n = 0;
    if (store_run_missing(s->run.store, &s->run.row, &missing, &n, err)) return ERR_FAIL;
    free(missing);
    if (run_finish(&s->run, err)) return ERR_FAIL;
    pthread_mutex_lock(&s->lock);
    s->info.stored = (uint32_t)s->run.sum.games;
    pthread_mutex_unlock(&s->lock);
    return n == 0;
}

void yinsh_selfplay_close(yinsh_selfplay *s)
{
    if (!s) return;
    run_close(&s->run); /* whatever run_open did: also after a failure */
    batcher_free(s->batcher);
    lib_outside_free(&s->outside);
    pthread_mutex_destroy(&s->lock);
    free(s);
}
