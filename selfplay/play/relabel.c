/* `yinsh relabel`: stored games given the values of another search
 * (relabel.h says what the new run holds). */
#include <inttypes.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/clock.h"
#include "engine/base/error.h"
#include "engine/base/parallel.h"
#include "engine/base/rng.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "selfplay/play/provenance.h"
#include "selfplay/play/relabel.h"

/* One source game, as the new run needs it. */
typedef struct SourceGame {
    int result, reason;
    int nactions;
    char (*actions)[ACTION_MAX_LEN];
    bool *searched; /* the source's agent searched the position (its figures are stored) */
} SourceGame;

typedef struct Sources {
    SourceGame *games;
    uint32_t n, cap;
    uint32_t limit;  /* 0: none */
    const char *run; /* the run being read, for messages */
} Sources;

static void sources_free(Sources *src)
{
    for (uint32_t i = 0; i < src->n; i++) {
        free(src->games[i].actions);
        free(src->games[i].searched);
    }
    free(src->games);
    *src = (Sources){0};
}

static int reason_of(const char *text)
{
    for (int r = 0; r < REASON_NB; r++)
        if (text && !strcmp(text, reason_name(r))) return r;
    return -1;
}

/* store_rows_each's visitor: one source game kept (GamesAction's field 1
 * is root_visits, set where the agent searched). */
static int on_game(void *ctx, const GamesGame *g, char *err)
{
    Sources *src = ctx;
    if (src->limit && src->n >= src->limit) return ERR_OK;
    if (src->n == src->cap) {
        uint32_t cap = src->cap ? 2 * src->cap : 256;
        SourceGame *p = realloc(src->games, cap * sizeof *p);
        if (!p) return error_set(err, "out of memory for the source games");
        src->games = p, src->cap = cap;
    }
    SourceGame *s = &src->games[src->n];
    *s = (SourceGame){.nactions = g->nactions, .result = result_parse(g->result), .reason = reason_of(g->reason)};
    if (s->reason < 0)
        return error_set(err, "run '%s' game %" PRId64 ": its reason '%s' cannot be read", src->run, g->index,
                         g->reason ? g->reason : "");
    s->actions = malloc((size_t)(g->nactions ? g->nactions : 1) * sizeof *s->actions);
    s->searched = malloc((size_t)(g->nactions ? g->nactions : 1) * sizeof *s->searched);
    if (!s->actions || !s->searched) {
        free(s->actions);
        free(s->searched);
        return error_set(err, "out of memory for the source games");
    }
    src->n++;
    for (int i = 0; i < g->nactions; i++) {
        snprintf(s->actions[i], ACTION_MAX_LEN, "%s", g->actions[i].action);
        s->searched[i] = g->actions[i].field[1] != NULL;
    }
    return ERR_OK;
}

/* The sources' games into src, run by run in the plan's order; the new
 * run's row (variant, opening, seed) from theirs into row. */
static int read_sources(Store *s, const RelabelPlan *p, Sources *src, StoreRun *row, char *err)
{
    uint64_t h = rng_mix(rng_mix(p->seed, p->every), p->games);
    for (int i = 0; i < p->nruns; i++) {
        StoreRun r;
        int rc = store_run_get(s, p->runs[i], &r, err);
        if (rc == ERR_NOT_FOUND) return error_code(err, rc, "database '%s' has no run '%s'", store_path(s), p->runs[i]);
        if (rc) return rc;
        for (int j = 0; j < i; j++)
            if (!strcmp(p->runs[j], p->runs[i]))
                return error_code(err, ERR_USAGE, "run '%s' is named twice", p->runs[i]);
        if (!strcmp(p->runs[i], p->name))
            return error_code(err, ERR_USAGE, "run '%s' is a source: the new run needs a name of its own", p->name);
        if (i == 0) {
            row->variant = r.variant;
            row->opening = r.opening;
            row->opening_actions = r.opening_actions;
            row->book_hash = r.book_hash;
            snprintf(row->book_path, sizeof row->book_path, "%s", r.book_path);
        } else if (r.variant != row->variant) {
            return error_code(err, ERR_USAGE, "run '%s' plays %s and run '%s' %s: a run holds games of one variant",
                              p->runs[0], variant_name(row->variant), p->runs[i], variant_name(r.variant));
        } else if (r.opening != row->opening || r.opening_actions != row->opening_actions ||
                   r.book_hash != row->book_hash) {
            row->opening = OPENING_NONE, row->opening_actions = 0; /* the openings differ: the actions say them */
        }
        h = rng_mix(h, rng_hash_text(r.uid));
        src->run = p->runs[i];
        GamesRows to = {.on_game = on_game, .ctx = src};
        const char *one[] = {p->runs[i]};
        if ((rc = store_rows_each(s, one, 1, &to, err))) return rc;
    }
    if (src->n == 0) return error_code(err, ERR_USAGE, "the runs named hold no games to relabel");
    row->seed = h;
    row->games = src->n;
    return ERR_OK;
}

/* The new run created, or the existing one checked to be this plan's and
 * claimed; *resumed says which. */
static int open_run(Store *s, const RelabelPlan *p, StoreRun *row, bool *resumed, char *err)
{
    StoreRun old;
    *resumed = false;
    int rc = store_run_get(s, p->name, &old, err);
    if (rc && rc != ERR_NOT_FOUND) return rc;
    if (rc == ERR_OK) {
        if (strcmp(old.kind, "relabel") || strcmp(old.white, row->white) || old.seed != row->seed ||
            old.games != row->games || old.variant != row->variant)
            return error_code(err, ERR_EXISTS,
                              "database '%s': a run named '%s' exists already, and is not this relabel (the same "
                              "source runs, agent, every, seed and games)",
                              store_path(s), p->name);
        if (old.finished)
            return error_code(err, ERR_EXISTS, "database '%s': a finished run named '%s' exists already",
                              store_path(s), p->name);
        if ((rc = store_run_claim(s, &old, false, NULL, err))) return rc;
        if ((rc = store_run_add_commit(s, &old, YINSH_GIT_COMMIT, err))) {
            char rerr[ERR_LEN];
            store_run_release(s, &old, rerr);
            return rc;
        }
        *row = old;
        *resumed = true;
        return ERR_OK;
    }
    snprintf(row->kind, sizeof row->kind, "relabel");
    snprintf(row->name, sizeof row->name, "%s", p->name);
    store_new_uid(row->seed, row->uid);
    snprintf(row->git_commit, sizeof row->git_commit, "%s", YINSH_GIT_COMMIT);
    snprintf(row->compiler, sizeof row->compiler, "%s", YINSH_COMPILER);
    provenance_machine(row->machine, sizeof row->machine);
    StoreClash clash;
    rc = store_run_create(s, row, p->command ? p->command : "", false, &clash, err);
    if (rc == ERR_REPEAT)
        error_code(err, rc, "database '%s': run '%s' holds this relabel already (the same source runs, agent, every, "
                   "games and seed)", store_path(s), clash.run);
    return rc;
}

/* Game g relabelled into rec (index idx): 0, 1 when stopped, or ERR_FAIL. */
static int relabel_game(Agent *agent, const StoreRun *row, uint32_t every, const atomic_bool *stop, uint32_t idx,
                        const SourceGame *g, GameRecord *rec, uint64_t *positions, char *err)
{
    double start = clock_now();
    /* the game's stream in the new run, as self-play's (selfplay_game_seed): its seed */
    *rec = (GameRecord){.index = idx, .seed = rng_mix(row->seed, idx), .variant = row->variant, .result = g->result,
                        .reason = g->reason};
    rec->actions = calloc((size_t)(g->nactions ? g->nactions : 1), sizeof *rec->actions);
    if (!rec->actions) return error_set(err, "out of memory for game %u", (unsigned)idx);
    Position pos;
    pos_start(&pos, row->variant);
    Rng rng;
    rng_stream(&rng, row->seed, idx);
    uint32_t searched = 0;
    for (int ply = 0; ply < g->nactions; ply++) {
        if (stop && atomic_load(stop)) {
            record_free(rec);
            return 1;
        }
        ActionRecord *a = &rec->actions[ply];
        char aerr[ERR_LEN];
        if (action_parse(&pos, g->actions[ply], &a->action, aerr)) {
            record_free(rec);
            return error_set(err, "game %u ply %d: action '%s' does not replay: %s", (unsigned)idx, ply,
                             g->actions[ply], aerr);
        }
        a->actor = (uint8_t)pos.actor;
        a->state = (uint8_t)pos.state;
        a->legal = (uint16_t)movegen_count(&pos);
        if (g->searched[ply] && searched++ % every == 0) {
            MoveStats st = {0};
            double t = clock_now();
            agent_reset(agent);
            agent_choose(agent, &pos, &rng, &st);
            a->time_us = (uint32_t)((clock_now() - t) * 1e6);
            a->searched = true;
            a->budget = SEARCH_BUDGET_FULL;
            a->root_visits = st.root_visits;
            a->chosen_visits = move_stats_chosen(&st);
            a->value = a->root_value = st.root_value;
            (*positions)++;
        }
        Undo u;
        pos_make(&pos, a->action, &u);
    }
    rec->nactions = g->nactions;
    record_final_counts(rec, &pos);
    rec->duration_s = clock_now() - start;
    return 0;
}

int relabel_agent_check(const AgentSpec *spec, char *err)
{
    char text[SPEC_LEN];
    agent_spec_format(spec, text);
    if (agent_spec_random(spec) || agent_spec_external(spec))
        return error_code(err, ERR_USAGE, "agent '%s' has no search of its own to take a value from: give a searcher "
                          "such as best:depth=6 or ab:depth=4", text);
    if (!agent_spec_deterministic(spec))
        return error_code(err, ERR_USAGE, "agent '%s' is not deterministic (its values would depend on the threads or "
                          "the clock): give alpha-beta at a fixed depth on one thread, such as best:depth=6", text);
    return ERR_OK;
}

int relabel_run(Store *s, const RelabelPlan *p, const RelabelHooks *h, RelabelResult *res, char *err)
{
    static const RelabelHooks none = {0};
    if (!h) h = &none;
    *res = (RelabelResult){0};
    int rc = relabel_agent_check(p->agent, err);
    if (rc) return rc;
    if (p->every < 1 || p->every > RELABEL_MAX_EVERY)
        return error_code(err, ERR_USAGE, "every must be 1 to %d, not %u", RELABEL_MAX_EVERY, (unsigned)p->every);
    if (p->nruns < 1) return error_code(err, ERR_USAGE, "no source run named");
    Sources src = {.limit = p->games};
    StoreRun row = {.threads = parallel_threads(p->threads)};
    agent_spec_format(p->agent, row.white);
    snprintf(row.black, sizeof row.black, "%s", row.white);
    uint64_t hash;
    if (agent_spec_eval_hash(p->agent, &hash)) {
        snprintf(row.white_weights, sizeof row.white_weights, "%016" PRIx64, hash);
        snprintf(row.black_weights, sizeof row.black_weights, "%016" PRIx64, hash);
    }
    if ((rc = read_sources(s, p, &src, &row, err))) {
        sources_free(&src);
        return rc;
    }
    bool resumed;
    if ((rc = open_run(s, p, &row, &resumed, err))) {
        sources_free(&src);
        return rc;
    }
    uint32_t *todo = NULL, ntodo = 0;
    if ((rc = store_run_missing(s, &row, &todo, &ntodo, err))) {
        char rerr[ERR_LEN];
        store_run_release(s, &row, rerr);
        sources_free(&src);
        return rc;
    }
    RelabelProgress pr = {.total = row.games, .done = row.games - ntodo, .done_before = row.games - ntodo};
    res->resumed = resumed;
    double start = clock_now();
    int threads = parallel_threads(p->threads);
    if (threads > (int)ntodo) threads = ntodo ? (int)ntodo : 1;
    atomic_int failed = 0;
    char ferr[ERR_LEN] = "";
    uint32_t next = 0;
#pragma omp parallel num_threads(threads)
    {
        Agent *agent = NULL;
        char terr[ERR_LEN];
        if (agent_new(&agent, p->agent, terr)) {
#pragma omp critical(relabel_store)
            if (!atomic_exchange(&failed, 1)) snprintf(ferr, sizeof ferr, "%s", terr);
        }
        for (;;) {
            uint32_t k;
#pragma omp atomic capture
            k = next++;
            if (k >= ntodo || atomic_load(&failed) || (h->stop && atomic_load(h->stop))) break;
            uint32_t idx = todo[k];
            GameRecord rec;
            uint64_t positions = 0;
            int grc = relabel_game(agent, &row, p->every, h->stop, idx, &src.games[idx], &rec, &positions, terr);
            if (grc == 1) break;
#pragma omp critical(relabel_store)
            {
                if (grc) {
                    if (!atomic_exchange(&failed, 1)) snprintf(ferr, sizeof ferr, "%s", terr);
                } else {
                    GameRecord *one = &rec;
                    if (!atomic_load(&failed) && store_write_games(s, &row, &one, 1, terr)) {
                        if (!atomic_exchange(&failed, 1)) snprintf(ferr, sizeof ferr, "%s", terr);
                    } else if (!atomic_load(&failed)) {
                        pr.done++;
                        pr.positions += positions;
                        pr.seconds = clock_now() - start;
                        res->actions += (uint64_t)rec.nactions;
                        if (h->on_stored) h->on_stored(h->ctx, &pr);
                    }
                    record_free(&rec);
                }
            }
        }
        agent_free(agent);
    }
    free(todo);
    sources_free(&src);
    pr.seconds = clock_now() - start;
    res->progress = pr;
    res->finished = pr.done == pr.total;
    if (failed) {
        char rerr[ERR_LEN];
        store_run_release(s, &row, rerr);
        return error_set(err, "%s", ferr);
    }
    if (res->finished && (rc = store_run_finish(s, &row, err))) {
        char rerr[ERR_LEN];
        store_run_release(s, &row, rerr);
        return rc;
    }
    return store_run_release(s, &row, err);
}
