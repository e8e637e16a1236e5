#include <errno.h>
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "engine/base/error.h"
#include "engine/base/clock.h"
#include "engine/geometry.h"
#include "engine/movegen.h"
#include "engine/base/number.h"
#include "engine/base/parallel.h"
#include "selfplay/search/playout.h"
#include "selfplay/play/scheduler.h"

uint64_t selfplay_game_seed(uint64_t run_seed, uint32_t index) { return rng_mix(run_seed, index); }

/* Salts the run seed of the opening streams, which would otherwise be the
 * streams of games 0, 1, ... of the same seed. */
#define OPENING_SALT 0x6f70656e696e6773ULL /* "openings" */

uint64_t selfplay_agent_seed(uint64_t run_seed, uint32_t index, int colour)
{
    return rng_mix(selfplay_game_seed(run_seed, index), 1 + (uint64_t)colour);
}

bool selfplay_agent_streams(const SelfplayPlan *plan)
{
    return plan->controls.agent_streams || agent_spec_external(&plan->white) || agent_spec_external(&plan->black);
}

void selfplay_plan_settle(SelfplayPlan *plan)
{
    PlayControls *c = &plan->controls;
    c->uncapped = 0;
    if (c->sims) return; /* the run's sims bound every search */
    bool timed = c->movetime_ms || c->base_ms;
    if (agent_spec_uncapped(&plan->white) && (timed || plan->white.movetime_ms)) c->uncapped |= CONTROLS_UNCAPPED_WHITE;
    if (agent_spec_uncapped(&plan->black) && (timed || plan->black.movetime_ms)) c->uncapped |= CONTROLS_UNCAPPED_BLACK;
}

int selfplay_play_game(const SelfplayPlan *plan, Agent *white, Agent *black, uint32_t index, GameRecord *rec)
{
    return selfplay_play_game_env(plan, white, black, index, NULL, rec);
}

/* The side at fault loses. */
static int fault_result(int actor) { return actor == WHITE ? RESULT_BLACK : RESULT_WHITE; }

/* One game in play: what selfplay_play_game_env's steps share. */
typedef struct Game {
    const SelfplayPlan *plan;
    const PlayControls *pc;
    GameRecord *rec;
    int cap;                       /* actions rec has room for */
    Agent *white, *black;          /* White's and Black's agents (a pair's second game swaps them) */
    Agent *side[COLOUR_NB];
    bool streams;                  /* one stream per agent (scheduler.h) */
    Rng game_rng, side_rng[COLOUR_NB];
    uint64_t side_seed[COLOUR_NB];
    Rng opening;                   /* the pair's opening stream */
    const Action *book;            /* the pair's book opening, nbook actions */
    int nbook;
    bool timed, limited;
    int child_cap;                 /* RootChild entries rec->children has room for */
    AgentLimits lim;
    int64_t clock_us[COLOUR_NB];
    bool resign;                   /* the rule holds in this game (not checked, resign.h) */
    ResignWatch watch;
    Position pos;
    char why[ERR_LEN];
} Game;

/* The record's head, the streams, the opening and the clocks: 0, or -1
 * when out of memory. */
static int game_start(Game *g, const SelfplayPlan *plan, Agent *white, Agent *black, uint32_t index,
                      GameRecord *rec)
{
    const PlayControls *pc = &plan->controls;
    *g = (Game){.plan = plan, .pc = pc, .rec = rec, .cap = 128};
    memset(rec, 0, sizeof *rec);
    rec->index = index;
    rec->seed = selfplay_game_seed(plan->seed, index);
    rec->variant = plan->variant;
    rec->swapped = plan->pairs && (index & 1);
    if (rec->swapped) {
        Agent *t = white;
        white = black;
        black = t;
    }
    g->white = white;
    g->black = black;
    g->side[WHITE] = white;
    g->side[BLACK] = black;
    rec->actions = malloc((size_t)g->cap * sizeof *rec->actions);
    if (!rec->actions) return -1;

    /* one stream for the game, or one per agent (scheduler.h) */
    g->streams = selfplay_agent_streams(plan);
    rng_stream(&g->game_rng, plan->seed, index); /* starts at rec->seed */
#ifdef YINSH_TEST_EXTRA_DRAW
    /* tests/test_mpi.c's other build: one more random draw a game, as a
     * rank built from other code would make (the ranks' build check,
     * dist_check_builds, must refuse it); never in a yinsh binary */
    (void)rng_next(&g->game_rng);
#endif
    for (int c = 0; c < COLOUR_NB; c++) {
        g->side_seed[c] = selfplay_agent_seed(plan->seed, index, c);
        rng_stream(&g->side_rng[c], g->side_seed[c], 0);
    }
    pos_start(&g->pos, plan->variant);
    g->timed = pc->base_ms > 0;
    g->lim = (AgentLimits){.sims = pc->sims, .movetime_ms = pc->movetime_ms, .clock = g->timed,
                           .clock_ms = {pc->base_ms, pc->base_ms}, .inc_ms = pc->inc_ms, .margin_ms = pc->margin_ms};
    g->limited = pc->sims || pc->movetime_ms || g->timed;
    g->clock_us[WHITE] = g->clock_us[BLACK] = pc->base_ms * 1000;
    g->resign = pc->resign.value > 0 && !resign_checked(&pc->resign, rec->seed);
    /* the pair's opening: its own stream, so both games of the pair agree */
    uint32_t pair = plan->pairs ? index / 2 : index;
    rng_stream(&g->opening, plan->seed ^ OPENING_SALT, pair);
    g->book = plan->opening == OPENING_BOOK ? book_opening(plan->book, pair, &g->nbook) : NULL;
    return 0;
}

/* Both agents start the game; an engine that cannot loses it (the
 * reason, else REASON_NONE). */
static int game_agents_start(Game *g, const AgentEnv *env, int *result)
{
    for (int c = 0; c < COLOUR_NB; c++) {
        if (c == BLACK && g->black == g->white) break;
        int f = agent_new_game(g->side[c], env, g->streams, g->side_seed[c], g->why);
        if (f) {
            *result = fault_result(c);
            return f;
        }
    }
    return REASON_NONE;
}

/* The action of the side to move: the harness's random ring placement,
 * the book's, or the agent's. */
static Action game_choose(Game *g, bool harness, MoveStats *st)
{
    const Position *pos = &g->pos;
    int actor = pos->actor;
    Agent *agent = g->side[actor];
    if (harness) {
        st->legal = movegen_count(pos);
        return movegen_random(pos, &g->opening);
    }
    if (g->rec->nactions < g->nbook) {
        st->legal = movegen_count(pos);
        return g->book[g->rec->nactions];
    }
    Rng *rng = g->streams ? &g->side_rng[actor] : &g->game_rng;
    for (int c = 0; c < COLOUR_NB; c++) g->lim.clock_ms[c] = g->clock_us[c] / 1000;
    return agent_act(agent, pos, rng, g->limited ? &g->lim : NULL, st);
}

/* The time an agent's action took, against its movetime and its clock:
 * REASON_TIME_FORFEIT when it lost on time (logged), else REASON_NONE. */
static int game_clock(Game *g, int actor, int64_t dt_us)
{
    const PlayControls *pc = g->pc;
    Agent *agent = g->side[actor];
    int64_t margin_us = pc->margin_ms * 1000;
    /* an agent's own movetime (a spec key) replaces the run's */
    int64_t movetime = agent_spec(agent)->movetime_ms ? agent_spec(agent)->movetime_ms : pc->movetime_ms;
    if (pc->movetime_ms && dt_us > (movetime * 1000 + margin_us)) {
        snprintf(g->why, sizeof g->why, "an action took %.1f ms, movetime %lld + margin %lld", dt_us / 1e3,
                 (long long)movetime, (long long)pc->margin_ms);
        agent_log(agent, REASON_TIME_FORFEIT, g->why);
        return REASON_TIME_FORFEIT;
    }
    if (!g->timed) return REASON_NONE;
    g->clock_us[actor] -= dt_us;
    if (g->clock_us[actor] < -margin_us) {
        snprintf(g->why, sizeof g->why, "the clock fell to %.1f ms (margin %lld) after an action of %.1f ms",
                 g->clock_us[actor] / 1e3, (long long)pc->margin_ms, dt_us / 1e3);
        agent_log(agent, REASON_TIME_FORFEIT, g->why);
        return REASON_TIME_FORFEIT;
    }
    g->clock_us[actor] += pc->inc_ms * 1000;
    return REASON_NONE;
}

/* The root visit distribution of the search that chose the action at
 * ply, appended to the record's children: 0, or -1 out of memory. */
static int game_children(Game *g, const Agent *agent, int ply)
{
    Action actions[MAX_ACTIONS];
    uint32_t visits[MAX_ACTIONS];
    GameRecord *rec = g->rec;
    int k = agent_root_children(agent, actions, visits, MAX_ACTIONS);
    if (rec->nchildren + k > g->child_cap) {
        int cap = g->child_cap ? g->child_cap : 1024;
        while (cap < rec->nchildren + k) cap *= 2;
        RootChild *more = realloc(rec->children, (size_t)cap * sizeof *more);
        if (!more) return -1;
        rec->children = more;
        g->child_cap = cap;
    }
    for (int i = 0; i < k; i++)
        rec->children[rec->nchildren++] = (RootChild){.ply = (uint16_t)ply, .action = actions[i], .visits = visits[i]};
    return 0;
}

/* One action of the side to move, played and recorded: REASON_NONE, or
 * the fault that ends the game (*result then the other side's win); -1
 * when memory runs out. */
static int game_step(Game *g, int *result)
{
    GameRecord *rec = g->rec;
    int actor = g->pos.actor;
    MoveStats st = {0};
    double t = clock_now();
    bool harness = (g->plan->opening == OPENING_RINGS && g->pos.state == STATE_P) ||
                   (g->plan->opening == OPENING_RANDOM && g->rec->nactions < g->plan->opening_actions) ||
                   (g->plan->opening == OPENING_PIE && g->rec->nactions >= 2 &&
                    g->rec->nactions < 2 + g->plan->opening_actions);
    Action a = game_choose(g, harness, &st);
    double dt = clock_now() - t;
    int64_t dt_us = (int64_t)(dt * 1e6 + 0.5);
    if (st.fault) {
        *result = fault_result(actor);
        return st.fault;
    }
    /* resigning instead of playing the action (resign.h) */
    if (g->resign && resign_watch(&g->watch, &g->pc->resign, actor, st.searched, st.root_value)) {
        *result = fault_result(actor);
        return REASON_RESIGN;
    }
    ActionRecord *r = &rec->actions[rec->nactions];
    *r = (ActionRecord){
        .action = a,
        .actor = g->pos.actor,
        .state = g->pos.state,
        .legal = (uint16_t)st.legal,
        .searched = st.searched,
        .root_visits = st.root_visits,
        .chosen_visits = move_stats_chosen(&st),
        .value = st.value,
        .root_value = st.root_value,
        .budget = st.budget,
        .time_us = (uint32_t)(dt_us > UINT32_MAX ? UINT32_MAX : dt_us),
    };
    int fault = harness ? REASON_NONE : game_clock(g, actor, dt_us);
    if (fault) {
        *result = fault_result(actor);
        return fault;
    }
    if (g->timed) {
        r->has_clock = true;
        r->clock_us = g->clock_us[actor];
    }
    if (g->plan->store_visits && st.searched && !harness && game_children(g, g->side[actor], rec->nactions))
        return -1;
    rec->nactions++;
    agent_observe(g->white, &g->pos, a);
    if (g->black != g->white) agent_observe(g->black, &g->pos, a);
    Undo u;
    pos_make(&g->pos, a, &u);
    return REASON_NONE;
}

/* The pie opening's first two actions (record.h, OPENING_PIE): the
 * agents' own, each game's agents reset after them, so that nothing of
 * how they were found reaches the rest of the game. For deterministic
 * agents under no limits they are the same in every game of a plan's
 * colour assignment (its variant and the specs of White and Black), and
 * found once per process: the first game to need them searches them while
 * the others that need them wait, then every game replays their records
 * (action, figures, the time of the search that found them). The games
 * are the same either way (the replayed figures are the searched ones;
 * only the games' durations differ). A process-wide cache of a pure
 * function, under its own lock. */
enum { PIE_MEMO_MAX = 64 };
typedef enum { PIE_FREE, PIE_SEARCHING, PIE_READY } PieState;
static struct {
    int variant;
    char white[SPEC_LEN], black[SPEC_LEN];
    uint64_t white_eval, black_eval;
    PieState state;
    ActionRecord first[2];
} pie_memo[PIE_MEMO_MAX]; /* guarded by pie_lock */
static int pie_memo_n;     /* guarded by pie_lock */
static pthread_mutex_t pie_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pie_ready = PTHREAD_COND_INITIALIZER; /* an entry became ready, or was given up */

/* The memo's key of a game: false when its first two actions may differ
 * between games (an agent that is not deterministic, or limits). */
static bool pie_key(const Game *g, const AgentSpec *const spec[COLOUR_NB], char text[COLOUR_NB][SPEC_LEN],
                    uint64_t eval[COLOUR_NB])
{
    if (g->limited) return false;
    for (int c = 0; c < COLOUR_NB; c++) {
        if (!agent_spec_deterministic(spec[c])) return false;
        agent_spec_format(spec[c], text[c]);
        eval[c] = 0;
        agent_spec_eval_hash(spec[c], &eval[c]);
    }
    return true;
}

/* Under pie_lock. */
static int pie_find(int variant, char text[COLOUR_NB][SPEC_LEN], const uint64_t eval[COLOUR_NB])
{
    for (int i = 0; i < pie_memo_n; i++)
        if (pie_memo[i].state != PIE_FREE && pie_memo[i].variant == variant &&
            !strcmp(pie_memo[i].white, text[WHITE]) && !strcmp(pie_memo[i].black, text[BLACK]) &&
            pie_memo[i].white_eval == eval[WHITE] && pie_memo[i].black_eval == eval[BLACK])
            return i;
    return -1;
}

/* The entry of a key, ready (its actions copied into first: true) or
 * taken to be searched by the caller (*mine set to its index: false);
 * -1 in *mine when the memo is full. Under pie_lock. */
static bool pie_take(int variant, char text[COLOUR_NB][SPEC_LEN], const uint64_t eval[COLOUR_NB],
                     ActionRecord first[2], int *mine)
{
    *mine = -1;
    for (;;) {
        int at = pie_find(variant, text, eval);
        if (at >= 0 && pie_memo[at].state == PIE_READY) {
            memcpy(first, pie_memo[at].first, 2 * sizeof *first);
            return true;
        }
        if (at >= 0) { /* another game searches them */
            pthread_cond_wait(&pie_ready, &pie_lock);
            continue;
        }
        for (at = 0; at < pie_memo_n && pie_memo[at].state != PIE_FREE; at++) {}
        if (at == PIE_MEMO_MAX) return false;
        if (at == pie_memo_n) pie_memo_n++;
        pie_memo[at].variant = variant;
        snprintf(pie_memo[at].white, SPEC_LEN, "%s", text[WHITE]);
        snprintf(pie_memo[at].black, SPEC_LEN, "%s", text[BLACK]);
        pie_memo[at].white_eval = eval[WHITE];
        pie_memo[at].black_eval = eval[BLACK];
        pie_memo[at].state = PIE_SEARCHING;
        *mine = at;
        return false;
    }
}

/* The searcher's entry: ready with the game's first two actions, or
 * (the search did not end them) given up, free again, so that another
 * game searches them. */
static void pie_give(int mine, const GameRecord *rec, bool found)
{
    pthread_mutex_lock(&pie_lock);
    if (found) {
        memcpy(pie_memo[mine].first, rec->actions, sizeof pie_memo[mine].first);
        pie_memo[mine].state = PIE_READY;
    } else {
        pie_memo[mine].state = PIE_FREE;
    }
    pthread_cond_broadcast(&pie_ready);
    pthread_mutex_unlock(&pie_lock);
}

/* Plays the pie opening's first two actions: REASON_NONE, a fault's
 * reason, or -1 out of memory (as game_step). */
static int game_pie(Game *g, int *result)
{
    const SelfplayPlan *plan = g->plan;
    bool swapped = g->rec->swapped;
    const AgentSpec *spec[COLOUR_NB] = {swapped ? &plan->black : &plan->white, swapped ? &plan->white : &plan->black};
    char text[COLOUR_NB][SPEC_LEN];
    uint64_t eval[COLOUR_NB];
    ActionRecord first[2];
    int mine = -1;
    bool ready = false;
    if (pie_key(g, spec, text, eval)) {
        pthread_mutex_lock(&pie_lock);
        ready = pie_take(plan->variant, text, eval, first, &mine);
        pthread_mutex_unlock(&pie_lock);
    }
    if (ready) {
        for (int k = 0; k < 2; k++) {
            Undo u;
            g->rec->actions[g->rec->nactions++] = first[k];
            agent_observe(g->white, &g->pos, first[k].action);
            if (g->black != g->white) agent_observe(g->black, &g->pos, first[k].action);
            pos_make(&g->pos, first[k].action, &u);
        }
    } else {
        int reason = REASON_NONE;
        for (int k = 0; k < 2 && !reason; k++) reason = game_step(g, result);
        if (mine >= 0) pie_give(mine, g->rec, !reason);
        if (reason) return reason;
    }
    agent_reset(g->white);
    if (g->black != g->white) agent_reset(g->black);
    return REASON_NONE;
}

int selfplay_play_game_env(const SelfplayPlan *plan, Agent *white, Agent *black, uint32_t index,
                           const AgentEnv *env, GameRecord *rec)
{
    Game g;
    if (game_start(&g, plan, white, black, index, rec)) return -1;
    double start = clock_now();
    int result = RESULT_NONE, reason = game_agents_start(&g, env, &result);
    if (!reason && plan->opening == OPENING_PIE) reason = game_pie(&g, &result);
    if (reason < 0) {
        record_free(rec);
        return -1;
    }
    while (!reason && !pos_outcome(&g.pos, &result, &reason)) {
        /* never in a legal game (types.h); scored like an empty pool */
        if (rec->nactions == GAME_MAX_ACTIONS) {
            result = playout_adjudicate(&g.pos);
            reason = REASON_NONE;
            break;
        }
        if (rec->nactions == g.cap) {
            ActionRecord *more = realloc(rec->actions, (size_t)g.cap * 2 * sizeof *more);
            if (!more) {
                record_free(rec);
                return -1;
            }
            rec->actions = more;
            g.cap *= 2;
        }
        reason = game_step(&g, &result);
        if (reason < 0) {
            record_free(rec);
            return -1;
        }
    }
    rec->result = result;
    rec->reason = reason;
    record_final_counts(rec, &g.pos);
    rec->duration_s = clock_now() - start;
    return 0;
}

/* The hand-over from the game threads to the one writer thread: a queue
 * of finished games under a mutex. Game threads push (and wait while the
 * queue is full, so a slow disk bounds memory rather than growing it); the
 * writer takes the whole queue as one batch once it holds batch_games
 * games, or its oldest game has waited batch_s, or the games are done. */
struct SelfplayInlet {
    pthread_mutex_t lock;
    pthread_cond_t nonempty, notfull;
    GameRecord **items; /* guarded by lock */
    int count, cap;     /* guarded by lock */
    double oldest;      /* guarded by lock: when items[0] was pushed */
    bool done;          /* guarded by lock: no more games will come */
    atomic_bool failed; /* set by the writer (or a game thread out of memory); read by all */
    char err[ERR_LEN]; /* written once, by whoever sets failed first, under lock */
    const SelfplaySink *sink;
};
typedef struct SelfplayInlet Queue;

enum { QUEUE_CAP = 1024 };

static void queue_fail(Queue *q, const char *msg)
{
    pthread_mutex_lock(&q->lock);
    if (!atomic_load(&q->failed)) {
        snprintf(q->err, sizeof q->err, "%s", msg);
        atomic_store(&q->failed, true);
    }
    pthread_cond_broadcast(&q->notfull);
    pthread_mutex_unlock(&q->lock);
}

static void queue_push(Queue *q, GameRecord *g)
{
    pthread_mutex_lock(&q->lock);
    while (q->count == q->cap && !atomic_load(&q->failed)) pthread_cond_wait(&q->notfull, &q->lock);
    if (atomic_load(&q->failed)) {
        pthread_mutex_unlock(&q->lock);
        record_free(g);
        free(g);
        return;
    }
    if (q->count == 0) q->oldest = clock_now();
    q->items[q->count++] = g;
    pthread_cond_signal(&q->nonempty);
    pthread_mutex_unlock(&q->lock);
}

static bool queue_stopping(const Queue *q)
{
    const SelfplaySink *sink = q->sink;
    return atomic_load(&q->failed) || (sink && sink->stop && atomic_load(sink->stop)) ||
           (sink && sink->interrupt && atomic_load(sink->interrupt));
}

bool selfplay_inlet_stopping(const SelfplayInlet *in) { return queue_stopping(in); }

bool selfplay_inlet_push(SelfplayInlet *in, GameRecord *g)
{
    if (atomic_load(&in->failed)) {
        record_free(g);
        free(g);
        return false;
    }
    queue_push(in, g);
    return true;
}

static void abs_deadline(double when, struct timespec *ts)
{
    /* `when` is on the monotonic clock, as is the condition's clock */
    ts->tv_sec = (time_t)when;
    ts->tv_nsec = (long)((when - (double)ts->tv_sec) * 1e9);
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec++;
        ts->tv_nsec -= 1000000000L;
    }
}

static void *writer_main(void *arg)
{
    Queue *q = arg;
    const SelfplaySink *sink = q->sink;
    int batch_games = sink && sink->batch_games > 0 ? sink->batch_games : 64;
    double batch_s = sink && sink->batch_s > 0 ? sink->batch_s : 0.25;
    GameRecord **batch = malloc((size_t)q->cap * sizeof *batch);
    if (!batch) queue_fail(q, "out of memory for the writer's batch");

    pthread_mutex_lock(&q->lock);
    for (;;) {
        while (q->count == 0 && !q->done) pthread_cond_wait(&q->nonempty, &q->lock);
        if (q->count == 0 && q->done) break;
        struct timespec ts;
        abs_deadline(q->oldest + batch_s, &ts);
        while (q->count < batch_games && !q->done && clock_now() < q->oldest + batch_s)
            if (pthread_cond_timedwait(&q->nonempty, &q->lock, &ts) == ETIMEDOUT) break;
        int n = q->count;
        if (batch) memcpy(batch, q->items, (size_t)n * sizeof *batch);
        GameRecord **taken = batch ? batch : q->items; /* no batch: drop them below */
        q->count = 0;
        pthread_cond_broadcast(&q->notfull);
        if (!batch) {
            for (int i = 0; i < n; i++) {
                record_free(taken[i]);
                free(taken[i]);
            }
            continue;
        }
        pthread_mutex_unlock(&q->lock);

        if (!atomic_load(&q->failed)) {
            char err[ERR_LEN] = "";
            if (sink && sink->write && sink->write(sink->ctx, batch, n, err) != 0)
                queue_fail(q, err[0] ? err : "writing games failed");
            else if (sink && sink->stored)
                sink->stored(sink->ctx, batch, n);
        }
        for (int i = 0; i < n; i++) {
            record_free(batch[i]);
            free(batch[i]);
        }
        pthread_mutex_lock(&q->lock);
    }
    pthread_mutex_unlock(&q->lock);
    free(batch);
    return NULL;
}

/* A fixed list of indices as a source: the next one to any thread. */
typedef struct ListSource {
    const uint32_t *indices;
    uint32_t n;
    atomic_uint_fast32_t at;
} ListSource;

static bool list_next(void *ctx, uint32_t *index)
{
    ListSource *l = ctx;
    uint_fast32_t k = atomic_fetch_add(&l->at, 1);
    if (k >= l->n) return false;
    *index = l->indices[k];
    return true;
}

int selfplay_run(const SelfplayPlan *plan, const uint32_t *indices, uint32_t n, const SelfplaySink *sink,
                 char *err)
{
    ListSource l = {.indices = indices, .n = n};
    atomic_init(&l.at, 0);
    SelfplaySource src = {.next = list_next, .ctx = &l};
    return selfplay_run_source(plan, &src, sink, err);
}

/* The serve thread of a source: its failure fails the run. */
typedef struct Serve {
    const SelfplaySource *src;
    Queue *q;
} Serve;

static void *serve_main(void *arg)
{
    Serve *s = arg;
    char err[ERR_LEN] = "";
    if (s->src->serve(s->src->ctx, s->q, err) != 0) queue_fail(s->q, err[0] ? err : "serving the other ranks failed");
    return NULL;
}

int selfplay_run_source(const SelfplayPlan *plan, const SelfplaySource *src, const SelfplaySink *sink, char *err)
{
    int rc = 0;
    bool lock_ok = false, cond1_ok = false, cond2_ok = false, writer_ok = false, serve_ok = false;
    pthread_condattr_t attr;
    pthread_t writer, server;
    Queue q = {.cap = QUEUE_CAP, .sink = sink};
    Serve serve = {.src = src, .q = &q};
    atomic_init(&q.failed, false);
    err[0] = '\0';

    q.items = malloc((size_t)q.cap * sizeof *q.items);
    if (!q.items) {
        rc = error_set(err, "out of memory for the game queue");
        goto done;
    }
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    lock_ok = pthread_mutex_init(&q.lock, NULL) == 0;
    cond1_ok = pthread_cond_init(&q.nonempty, &attr) == 0;
    cond2_ok = pthread_cond_init(&q.notfull, NULL) == 0;
    pthread_condattr_destroy(&attr);
    writer_ok = lock_ok && cond1_ok && cond2_ok && pthread_create(&writer, NULL, writer_main, &q) == 0;
    if (!writer_ok) {
        rc = error_set(err, "cannot start the writer thread");
        goto done;
    }
    if (src->serve && !(serve_ok = pthread_create(&server, NULL, serve_main, &serve) == 0))
        queue_fail(&q, "cannot start the thread that serves the other ranks");

    int threads = parallel_threads(plan->threads);
#pragma omp parallel num_threads(threads)
    {
        char aerr[ERR_LEN];
        Agent *white = NULL, *black = NULL;
        uint32_t index;
        AgentEnv env = {.log_dir = plan->controls.engine_logs, .answer_ms = plan->controls.answer_ms,
                        .thread = omp_get_thread_num(), .transcript = plan->controls.engine_transcript,
                        .visits = plan->store_visits};
        if (agent_new(&white, &plan->white, aerr) || agent_new(&black, &plan->black, aerr)) queue_fail(&q, aerr);
        while (!queue_stopping(&q) && src->next(src->ctx, &index)) {
            GameRecord *g = malloc(sizeof *g);
            if (!g || !white || !black || selfplay_play_game_env(plan, white, black, index, &env, g) != 0) {
                free(g);
                queue_fail(&q, "out of memory for a game record");
                continue;
            }
            queue_push(&q, g);
        }
        agent_free(white);
        agent_free(black);
    }
    if (serve_ok) pthread_join(server, NULL);

    pthread_mutex_lock(&q.lock);
    q.done = true;
    pthread_cond_signal(&q.nonempty);
    pthread_mutex_unlock(&q.lock);
    pthread_join(writer, NULL);
    if (atomic_load(&q.failed)) {
        rc = error_set(err, "%s", q.err);
    }

done:
    if (lock_ok) pthread_mutex_destroy(&q.lock);
    if (cond1_ok) pthread_cond_destroy(&q.nonempty);
    if (cond2_ok) pthread_cond_destroy(&q.notfull);
    free(q.items);
    return rc;
}
