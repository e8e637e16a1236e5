#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "selfplay/match/match.h"
#include "engine/notation.h"

int match_points2(int result, bool swapped)
{
    if (result == RESULT_DRAW) return 1;
    bool white_won = result == RESULT_WHITE;
    return white_won != swapped ? 2 : 0;
}

void match_tally_pair(MatchTally *t, int p0, int p1)
{
    int p[2] = {p0, p1};
    for (int i = 0; i < 2; i++) {
        t->wins += p[i] == 2;
        t->draws += p[i] == 1;
        t->losses += p[i] == 0;
    }
    t->penta[p0 + p1]++;
    t->pairs++;
}

MatchFigures match_figures(const MatchTally *t)
{
    return (MatchFigures){.score = stats_score(t->wins, t->draws, t->losses),
                          .elo = stats_elo_pentanomial(t->penta),
                          .elo_games = stats_elo_trinomial(t->wins, t->draws, t->losses),
                          .los = stats_los(t->wins, t->losses)};
}

int match_stored_points2(const StoreMatchRow *row)
{
    int result = result_parse(row->result);
    return result == RESULT_NONE ? -1 : match_points2(result, row->index & 1);
}

void match_stored_init(MatchStored *m) { *m = (MatchStored){.pair = -1, .first = -1}; }

void match_stored_add(MatchStored *m, const StoreMatchRow *row)
{
    int points = match_stored_points2(row);
    if (points < 0) return;
    if (!(row->index & 1)) {
        m->first = points;
        m->pair = row->index / 2;
    } else if (m->pair == row->index / 2 && m->first >= 0) {
        match_tally_pair(&m->tally, m->first, points);
        m->first = -1;
    }
}

int match_sprt_parse(const char *text, MatchSprt *sprt, char *err)
{
    SprtSpec spec;
    int rc = sprt_parse(text, &spec, err);
    if (!rc) *sprt = (MatchSprt){true, spec};
    return rc;
}

/* The writer thread's view of the match: A's half points per finished
 * game (-1 until it is finished), the pairs tallied in index order, the
 * test. Only the writer thread touches it while games are played; `stop`
 * is read by the game threads. */
typedef struct MatchCtx {
    const MatchPlan *mp;
    Run *run;
    int8_t *points2;
    uint64_t *hashes; /* record_game_hash of each finished game */
    uint64_t next_pair, games_done;
    MatchResult res;
    atomic_bool stop;
} MatchCtx;

/* Tallies the pairs now complete, in index order, until the test decides. */
static void tally_ready(MatchCtx *c)
{
    const MatchPlan *mp = c->mp;
    uint64_t pairs = mp->plan.games / 2;
    while (!c->res.decided_at && c->next_pair < pairs &&
           (c->points2[2 * c->next_pair] >= 0 || c->points2[2 * c->next_pair] == -2) &&
           (c->points2[2 * c->next_pair + 1] >= 0 || c->points2[2 * c->next_pair + 1] == -2)) {
        uint64_t k = c->next_pair++;
        if (c->points2[2 * k] == -2 || c->points2[2 * k + 1] == -2) continue; /* not this shard's pair */
        match_tally_pair(&c->res.tally, c->points2[2 * k], c->points2[2 * k + 1]);
        if (mp->sprt.on) {
            c->res.sprt = sprt_test(c->res.tally.penta, 5, &mp->sprt.spec);
            if (c->res.sprt.decision) {
                c->res.decided_at = c->res.tally.pairs;
                atomic_store(&c->stop, true);
            }
        }
    }
}

/* A batch of finished games: their points and hashes, then the pairs they
 * complete, before any of them is stored. */
static void on_finished(void *ctx, GameRecord *const *games, int n)
{
    MatchCtx *c = ctx;
    for (int i = 0; i < n; i++) {
        c->points2[games[i]->index] = (int8_t)match_points2(games[i]->result, games[i]->swapped);
        c->hashes[games[i]->index] = record_game_hash(games[i]);
    }
    c->games_done += (uint64_t)n;
    tally_ready(c);
}

/* Under an SPRT a game is stored once its pair is counted, so that the
 * games played past the deciding pair (threads run ahead) are never
 * stored: held until then, dropped once the test has decided before it. */
static int on_fate(void *ctx, const GameRecord *g)
{
    const MatchCtx *c = ctx;
    uint64_t pair = g->index / 2;
    if (pair < c->next_pair) return c->res.decided_at && pair >= c->res.decided_at ? RUN_DROP : RUN_STORE;
    return c->res.decided_at ? RUN_DROP : RUN_HOLD;
}

static void on_stored(void *ctx, const Run *run)
{
    (void)run;
    MatchCtx *c = ctx;
    if (c->mp->progress) c->mp->progress(c->mp->ctx, &c->res.tally, c->games_done);
}

/* A resumed run's stored games: A's half points in each (their hashes are
 * in run->sum already). */
static int on_stored_row(void *ctx, const StoreMatchRow *row)
{
    MatchCtx *c = ctx;
    int points = match_stored_points2(row);
    if (points >= 0 && row->index >= 0 && (uint64_t)row->index < c->mp->plan.games)
        c->points2[row->index] = (int8_t)points;
    c->games_done++;
    return 0;
}

int match_run(const MatchPlan *mp, Run *run, MatchResult *res, char *err)
{
    int rc = 0;
    SelfplayPlan plan = mp->plan;
    plan.pairs = true;
    /* no run: one that stores nothing (run_store sums its games) */
    Run none = {.plan = plan};
    if (!run) run = &none;
    MatchCtx c = {.mp = mp, .run = run, .points2 = malloc(plan.games ? plan.games : 1),
                  .hashes = calloc(plan.games ? plan.games : 1, sizeof *c.hashes)};
    atomic_init(&c.stop, false);
    uint32_t *all = run->todo ? NULL : malloc((plan.games ? plan.games : 1) * sizeof *all);
    if ((!run->todo && !all) || !c.points2 || !c.hashes) {
        rc = error_set(err, "out of memory for the match");
        goto done;
    }
    if (plan.games % 2) {
        rc = error_set(err, "a match plays pairs of games: %u is odd", (unsigned)plan.games);
        goto done;
    }
    bool resumed = run->store && run->sum.games > 0;
    if (resumed && mp->sprt.on) {
        rc = error_set(err, "run '%s': a match with an SPRT is not resumed (it may have stopped early): "
                 "start a new run", run->row.name);
        goto done;
    }
    /* the games to play: the run's (a shard's slice, a resumed run's
     * missing games), or all; a game left out is marked -2, and a pair of
     * two left out is skipped by the tally */
    const uint32_t *todo = run->todo ? run->todo : all;
    uint32_t n = run->todo ? run->ntodo : plan.games;
    for (uint32_t i = 0; all && i < n; i++) all[i] = i;
    memset(c.points2, -2, plan.games);
    for (uint32_t i = 0; i < n; i++) c.points2[todo[i]] = -1;
    uint64_t stored_hash = resumed ? run->sum.hash : 0; /* run_store adds this process's games to run->sum */
    if (resumed) {
        /* the stored games count as played (their hashes are in stored_hash) */
        const char *names[1] = {run->row.name};
        StoreSelection sel = {.runs = names, .nruns = 1};
        if (store_query_match_games(run->store, &sel, on_stored_row, &c, err)) {
            rc = -1;
            goto done;
        }
        tally_ready(&c);
    }
    RunHooks hooks = {.finished = on_finished, .fate = mp->sprt.on ? on_fate : NULL, .stored = on_stored,
                      .ctx = &c, .stop = &c.stop, .interrupt = mp->interrupt, .dist = mp->dist};
    /* played as the match plans it (pairs), the run's todo its games */
    SelfplayPlan run_plan = run->plan;
    uint32_t *run_todo = run->todo, run_ntodo = run->ntodo;
    run->plan = plan;
    run->todo = (uint32_t *)todo;
    run->ntodo = n;
    rc = run_play(run, &hooks, err);
    run->plan = run_plan;
    run->todo = run_todo;
    run->ntodo = run_ntodo;
    if (rc) goto done;
    /* a decided match ends at its deciding pair (no game past it was stored) */
    if (c.res.decided_at && run->store && (rc = store_run_shorten(run->store, &run->row, (uint32_t)(2 * c.res.decided_at), err)))
        goto done;
    if (mp->sprt.on && !c.res.decided_at)
        c.res.sprt = sprt_test(c.res.tally.penta, 5, &mp->sprt.spec);
    for (uint64_t i = 0; i < plan.games && i < (c.res.decided_at ? 2 * c.res.decided_at : plan.games); i++)
        if (c.points2[i] >= 0) c.res.hash += c.hashes[i]; /* 0 for a game stored before */
    c.res.hash += stored_hash;
    c.res.figures = match_figures(&c.res.tally);
    *res = c.res;
done:
    free(all);
    free(c.points2);
    free(c.hashes);
    return rc;
}
