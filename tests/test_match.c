#define _GNU_SOURCE /* nftw */
/* Matches: pairs share their opening and swap colours, results do not
 * depend on the number of threads, the SPRT stops a match and the store
 * keeps exactly the pairs counted, the figures of a hand-worked tally, and
 * `yinsh match` as a process (its output and its bad inputs). */
#include <math.h>
#include <sqlite3.h>
#include "selfplay/match/match.h"
#include "engine/notation.h"
#include "tests/test_proc.h"

#define NEAR(a, b, eps) cr_assert(fabs((a) - (b)) <= (eps), "%s = %.6f, expected %.6f", #a, (double)(a), (double)(b))

static SelfplayPlan plan_of(const char *a, const char *b, uint32_t games, uint64_t seed)
{
    SelfplayPlan p = {.variant = VARIANT_STANDARD, .seed = seed, .games = games, .pairs = true,
                      .opening = OPENING_RINGS};
    char err[ERR_LEN];
    cr_assert_eq(agent_spec_parse(a, &p.white, err), 0, "%s", err);
    cr_assert_eq(agent_spec_parse(b, &p.black, err), 0, "%s", err);
    return p;
}

/* ---- the tally and its figures ---------------------------------------- */

Test(match, points_and_pentanomial)
{
    /* A is White in game 0 (not swapped), Black in game 1 (swapped) */
    cr_assert_eq(match_points2(RESULT_WHITE, false), 2);
    cr_assert_eq(match_points2(RESULT_WHITE, true), 0);
    cr_assert_eq(match_points2(RESULT_BLACK, true), 2);
    cr_assert_eq(match_points2(RESULT_DRAW, true), 1);
    MatchTally t = {0};
    match_tally_pair(&t, 2, 0); /* 1 point of 2 */
    match_tally_pair(&t, 2, 0);
    match_tally_pair(&t, 2, 2); /* 2 of 2 */
    match_tally_pair(&t, 2, 2);
    cr_assert_eq(t.pairs, 4);
    cr_assert(t.wins == 6 && t.draws == 0 && t.losses == 2);
    cr_assert(t.penta[0] == 0 && t.penta[1] == 0 && t.penta[2] == 2 && t.penta[3] == 0 && t.penta[4] == 2);

    /* By hand: pair scores 1/2, 1/2, 1, 1: mean 3/4, Elo 400 log10(3) =
     * 190.85; variance per pair 1/16, so the mean's standard error is 1/8
     * and the 95% interval 0.75 -+ 1.96/8 = 0.50500 .. 0.99500, Elo +3.48
     * .. +919.5. */
    Interval e = stats_elo_pentanomial(t.penta);
    NEAR(e.mid, 190.8485, 1e-3);
    NEAR(e.lo, 3.4777, 5e-3);
    NEAR(e.hi, 919.54, 0.5);
    /* four pairs cannot decide the SPRT of H0 elo 0 against H1 elo 10
     * (tests/test_sprt.c checks the ratio itself) */
    SprtSpec spec = {0, 10, 0.05, 0.05, SPRT_LOGISTIC};
    Sprt s = sprt_test(t.penta, 5, &spec);
    cr_assert(s.llr > 0 && s.llr < 0.2, "llr %f", s.llr);
    cr_assert_eq(s.decision, 0);
}

Test(match, sprt_parse)
{
    MatchSprt s;
    char err[ERR_LEN];
    cr_assert_eq(match_sprt_parse("0,10,0.05,0.1", &s, err), 0);
    cr_assert(s.on && s.spec.elo0 == 0 && s.spec.elo1 == 10 && s.spec.alpha == 0.05 && s.spec.beta == 0.1);
    const char *bad[] = {"0,10,0.05", "10,0,0.05,0.05", "0,10,0.6,0.05", "0,10,0.05,0.05,1", "a,b,c,d", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_neq(match_sprt_parse(bad[i], &s, err), 0, "'%s' accepted", bad[i]);
}

/* ---- pairs ------------------------------------------------------------- */

Test(match, pairs_share_openings_and_swap_colours)
{
    SelfplayPlan plan = plan_of("random", "mcts:sims=10", 6, 42);
    char err[ERR_LEN];
    Agent *a, *b;
    cr_assert_eq(agent_new(&a, &plan.white, err), 0, "%s", err);
    cr_assert_eq(agent_new(&b, &plan.black, err), 0, "%s", err);
    GameRecord g[6];
    for (uint32_t i = 0; i < 6; i++) cr_assert_eq(selfplay_play_game(&plan, a, b, i, &g[i]), 0);
    for (int k = 0; k < 3; k++) {
        GameRecord *x = &g[2 * k], *y = &g[2 * k + 1];
        cr_assert(!x->swapped && y->swapped, "pair %d: colours", k);
        cr_assert(x->nactions > 10 && y->nactions > 10);
        for (int i = 0; i < 10; i++) {
            cr_assert_eq(x->actions[i].action, y->actions[i].action, "pair %d action %d", k, i);
            cr_assert_eq(x->actions[i].state, STATE_P);
            cr_assert_not(x->actions[i].searched);
        }
        /* after the opening, the agents choose: B (MCTS) searches as White in the odd game */
        cr_assert_eq(y->actions[10].actor, WHITE);
        cr_assert(y->actions[10].searched || y->actions[10].legal == 1);
        cr_assert_not(x->actions[10].searched);
    }
    /* pairs differ from each other */
    bool differ = false;
    for (int i = 0; i < 10; i++) differ |= g[0].actions[i].action != g[2].actions[i].action;
    cr_assert(differ);
    for (int i = 0; i < 6; i++) record_free(&g[i]);
    agent_free(a);
    agent_free(b);
}

static MatchResult play(const char *a, const char *b, uint32_t games, uint64_t seed, int threads, const char *sprt,
                        Run *run)
{
    MatchPlan mp = {.plan = plan_of(a, b, games, seed)};
    mp.plan.threads = threads;
    char err[ERR_LEN];
    if (sprt) cr_assert_eq(match_sprt_parse(sprt, &mp.sprt, err), 0);
    MatchResult r;
    cr_assert_eq(match_run(&mp, run, &r, err), 0, "%s", err);
    return r;
}

Test(match, results_do_not_depend_on_threads)
{
    MatchResult one = play("random", "mcts:sims=8", 40, 7, 1, NULL, NULL);
    MatchResult two = play("random", "mcts:sims=8", 40, 7, 2, NULL, NULL);
    cr_assert_eq(one.tally.pairs, 20);
    cr_assert(!memcmp(&one.tally, &two.tally, sizeof one.tally));
    cr_assert_eq(one.tally.wins + one.tally.draws + one.tally.losses, 40);
    uint64_t sum = 0;
    for (int k = 0; k < 5; k++) sum += one.tally.penta[k];
    cr_assert_eq(sum, 20);
}

Test(match, sprt_stops_and_the_store_keeps_the_counted_pairs)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "m.db"), err[ERR_LEN];
    RunOptions o = {.kind = "match", .db = db, .name = "m", .command = "test", .have_seed = true,
                    .plan = plan_of("random", "mcts:sims=30", 400, 3)};
    Run run;
    cr_assert_eq(run_open(&run, &o, err), 0, "%s", err);
    /* random against MCTS: far weaker, so H0 (elo 0, not the +20 of H1) is accepted early */
    MatchResult r = play("random", "mcts:sims=30", 400, 3, 2, "0,20,0.05,0.05", &run);
    cr_assert_eq(r.sprt.decision, -1);
    cr_assert(r.decided_at > 0 && r.decided_at < 200, "decided after %llu pairs", (unsigned long long)r.decided_at);
    cr_assert_eq(r.tally.pairs, r.decided_at);
    cr_assert(r.sprt.llr <= r.sprt.lower);
    cr_assert_eq(run.row.games, 2 * r.decided_at);
    run_close(&run);

    sqlite3 *h;
    cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(h,
                                    "SELECT (SELECT count(*) FROM game), (SELECT max(idx) FROM game), "
                                    "(SELECT games FROM run), (SELECT kind FROM run), (SELECT count(*) FROM game "
                                    "WHERE idx % 2 = 1 AND white LIKE 'mcts%')",
                                    -1, &st, NULL),
                 SQLITE_OK);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    cr_assert_eq(sqlite3_column_int64(st, 0), (int64_t)(2 * r.decided_at));
    cr_assert_eq(sqlite3_column_int64(st, 1), (int64_t)(2 * r.decided_at - 1));
    cr_assert_eq(sqlite3_column_int64(st, 2), (int64_t)(2 * r.decided_at));
    cr_assert_str_eq((const char *)sqlite3_column_text(st, 3), "match");
    cr_assert_eq(sqlite3_column_int64(st, 4), (int64_t)r.decided_at, "odd games: B is White");
    sqlite3_finalize(st);
    sqlite3_close(h);

    /* the same decision on one thread */
    MatchResult one = play("random", "mcts:sims=30", 400, 3, 1, "0,20,0.05,0.05", NULL);
    cr_assert_eq(one.decided_at, r.decided_at);
    cr_assert(!memcmp(&one.tally, &r.tally, sizeof one.tally));
}

/* ---- yinsh match ------------------------------------------------------- */

Test(cli, match_output_and_threads)
{
    char *dir = tmpdir_new(), *out1, *out2, *err;
    const char *a1[] = {"match", "--a", "mcts:sims=10", "--b", "random", "--games", "20", "--seed", "5",
                        "--threads", "1", "--db", "m.db", "--run", "one", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, a1, &out1, &err), 0, "%s", err);
    const char *a2[] = {"match", "--a", "mcts:sims=10", "--b", "random", "--games", "20", "--seed", "5",
                        "--threads", "2", "--no-db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, a2, &out2, &err), 0, "%s", err);
    cr_assert_str_eq(after_line(out1, "run "), after_line(out2, "run "));
    cr_assert(strstr(out1, "games        20 (10 colour-swapped pairs)"), "%s", out1);
    cr_assert(strstr(out1, "a score") && strstr(out1, "elo ") && strstr(out1, "los ") && strstr(out1, "pentanomial"));

    const char *a3[] = {"match", "--a", "random", "--b", "mcts:sims=20", "--games", "200", "--seed", "5",
                        "--sprt", "0,20,0.05,0.05", "--no-db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, a3, &out1, &err), 0, "%s", err);
    cr_assert(strstr(out1, "H0 accepted after"), "%s", out1);
}

/* A match without --games plays its default: 100 pairs, or under an SPRT
 * until the test decides (a cap said in the usage). */
Test(cli, match_without_games_plays_its_default)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *a[] = {"match", "--a", "random", "--b", "random", "--seed", "3", "--no-db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, a, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "games        200 (100 colour-swapped pairs)"), "%s", out);
    const char *b[] = {"match", "--a", "random", "--b", "mcts:sims=20", "--seed", "5", "--sprt", "0,20,0.05,0.05",
                       "--no-db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, b, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "H0 accepted after"), "%s", out);
}

Test(cli, match_bad_inputs)
{
    char *dir = tmpdir_new(), *err;
    struct {
        const char *args[16];
        int rc;
        const char *word;
    } cases[] = {
        {{"match", "--a", "random", "--games", "10", "--no-db", NULL}, 2, "--b"},
        {{"match", "--a", "random", "--b", "random", "--games", "9", "--no-db", NULL}, 2, "even"},
        {{"match", "--a", "mcts:sims=0", "--b", "random", "--games", "2", "--no-db", NULL}, 2, "sims"},
        {{"match", "--a", "random", "--b", "random", "--games", "2", "--sprt", "0,10", "--no-db", NULL}, 2, "sprt"},
        {{"match", "--a", "random", "--b", "random", "--games", "2", "--opening", "x", "--no-db", NULL}, 2, "opening"},
        {{"match", "--a", "mcts:rollout=4,eval=nowhere.txt", "--b", "random", "--games", "2", "--no-db", NULL},
         1, /* a missing weights file is bad data, not a usage error */
         "nowhere.txt"},
        {{"match", "--a", "random", "--b", "random", "--games", "2", "--db", "/nonexistent/dir/x.db", NULL},
         1,
         "nonexistent"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = yinsh_run(dir, cases[i].args, NULL, &err);
        cr_assert_eq(rc, cases[i].rc, "case %zu: exit %d (%s)", i, rc, err);
        cr_assert(strstr(err, cases[i].word), "case %zu: '%s' does not name '%s'", i, err, cases[i].word);
    }
}

/* A time limit lifts the default sims of an MCTS spec that gives none
 * (issue #22): the run records which side it lifted in its controls
 * (`uncapped=white`: run.white, agent A), since the stored spec text
 * writes sims either way, and a resume reads it back. A spec that gives
 * sims, a run without a time limit and a run under --sims record nothing:
 * their texts are the ones they always were. */
Test(cli, a_time_limit_lifts_the_default_sims_and_the_run_records_it)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *timed[] = {"match", "--a", "mcts:rollout=2", "--b", "mcts:sims=30", "--games", "2", "--seed", "3",
                           "--movetime", "20", "--db", "m.db", "--run", "t", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, timed, &out, &err), 0, "%s", err);
    sqlite3 *db = db_open(path_in(dir, "m.db"));
    cr_expect_str_eq(db_text(db, "SELECT controls FROM run WHERE name = 't'"), "movetime=20,margin=100,uncapped=white");
    cr_expect_str_eq(db_text(db, "SELECT white FROM run WHERE name = 't'"), "mcts:sims=200,c=1,rollout=2");
    sqlite3_close(db);
    const char *resume[] = {"selfplay", "--resume", "t", "--db", "m.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, resume, &out, &err), 0, "%s", err);
    struct {
        const char *a, *extra, *value, *controls;
    } plain[] = {
        {"mcts:sims=200,rollout=2", "--movetime", "20", "movetime=20,margin=100"},
        {"mcts:rollout=2", "--sims", "40", "sims=40"},
        {"mcts:rollout=2", NULL, NULL, ""},
    };
    for (size_t i = 0; i < sizeof plain / sizeof *plain; i++) {
        char run[16];
        snprintf(run, sizeof run, "p%zu", i);
        const char *args[] = {"match", "--a", plain[i].a, "--b", "random", "--games", "2", "--seed", "3", "--db",
                              "m.db", "--run", run, "--quiet", plain[i].extra, plain[i].value, NULL};
        cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "case %zu: %s", i, err);
        db = db_open(path_in(dir, "m.db"));
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT controls FROM run WHERE name = '%s'", run);
        cr_expect_str_eq(db_text(db, sql), plain[i].controls, "case %zu", i);
        sqlite3_close(db);
    }
}

/* ---- an SPRT-stopped match stores only what it counts ----------------- */

/* What the store holds at each progress call, seen through a second
 * connection: at most the games of the pairs counted so far. */
typedef struct StoreWatch {
    const char *db;
    uint64_t calls, most;     /* progress calls; the most games seen stored */
    int64_t past;             /* a stored game past the pairs counted (-1: none) */
} StoreWatch;

static void watch_store(void *ctx, const MatchTally *t, uint64_t games_done)
{
    (void)games_done;
    StoreWatch *w = ctx;
    sqlite3 *h;
    cr_assert_eq(sqlite3_open_v2(w->db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(h, "SELECT count(*), coalesce(max(idx), -1) FROM game", -1, &st, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    uint64_t n = (uint64_t)sqlite3_column_int64(st, 0);
    int64_t max = sqlite3_column_int64(st, 1);
    sqlite3_finalize(st);
    sqlite3_close(h);
    if (n > w->most) w->most = n;
    if (max >= (int64_t)(2 * t->pairs) && w->past < 0) w->past = max;
    w->calls++;
}

Test(match, sprt_never_stores_a_game_past_the_pairs_counted)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "w.db"), err[ERR_LEN];
    RunOptions o = {.kind = "match", .db = db, .name = "w", .command = "test", .have_seed = true,
                    .plan = plan_of("random", "mcts:sims=30", 400, 3)};
    Run run;
    cr_assert_eq(run_open(&run, &o, err), 0, "%s", err);
    StoreWatch w = {.db = db, .past = -1};
    MatchPlan mp = {.plan = plan_of("random", "mcts:sims=30", 400, 3), .progress = watch_store, .ctx = &w};
    mp.plan.threads = 4;
    cr_assert_eq(match_sprt_parse("0,20,0.05,0.05", &mp.sprt, err), 0);
    MatchResult r;
    cr_assert_eq(match_run(&mp, &run, &r, err), 0, "%s", err);
    cr_assert(r.decided_at > 0 && r.decided_at < 200);
    cr_assert_gt(w.calls, 0);
    cr_assert_eq(w.past, -1, "game %lld was stored with %llu pairs counted", (long long)w.past,
                 (unsigned long long)r.tally.pairs);
    cr_assert_leq(w.most, 2 * r.decided_at, "%llu games stored at once, %llu counted", (unsigned long long)w.most,
                  (unsigned long long)(2 * r.decided_at));
    cr_assert_eq(run.row.games, 2 * r.decided_at);
    run_close(&run);
}

/* run_play's fate hook: a game held to the end of the run is stored then,
 * one dropped never is. */
static int hold_even_drop_odd(void *ctx, const GameRecord *g)
{
    (void)ctx;
    return g->index % 2 ? RUN_DROP : RUN_HOLD;
}

Test(match, run_play_stores_held_games_at_the_end)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "h.db"), err[ERR_LEN];
    RunOptions o = {.kind = "match", .db = db, .name = "h", .command = "test", .have_seed = true,
                    .plan = plan_of("random", "random", 12, 9)};
    o.plan.threads = 2;
    Run run;
    cr_assert_eq(run_open(&run, &o, err), 0, "%s", err);
    RunHooks hooks = {.fate = hold_even_drop_odd};
    cr_assert_eq(run_play(&run, &hooks, err), 0, "%s", err);
    cr_assert_eq(run.done, 6);
    run_close(&run);
    sqlite3 *h;
    cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(h, "SELECT count(*), sum(idx % 2) FROM game", -1, &st, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    cr_assert_eq(sqlite3_column_int64(st, 0), 6, "the held games stored");
    cr_assert_eq(sqlite3_column_int64(st, 1), 0, "no dropped game stored");
    sqlite3_finalize(st);
    sqlite3_close(h);
}

Test(match, sprt_undecided_stores_every_game)
{
    /* bounds no 20 games decide: every game held back for its pair is stored by the end */
    char *dir = tmpdir_new(), *db = path_in(dir, "u.db"), err[ERR_LEN];
    RunOptions o = {.kind = "match", .db = db, .name = "u", .command = "test", .have_seed = true,
                    .plan = plan_of("random", "random", 20, 9)};
    Run run;
    cr_assert_eq(run_open(&run, &o, err), 0, "%s", err);
    MatchResult r = play("random", "random", 20, 9, 3, "0,5,0.001,0.001", &run);
    cr_assert_eq(r.decided_at, 0);
    cr_assert_eq(r.tally.pairs, 10);
    cr_assert_eq(run.sum.games, 20);
    cr_assert_eq(run.row.games, 20);
    run_close(&run);
    sqlite3 *h;
    cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(h, "SELECT count(*), max(idx) FROM game", -1, &st, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    cr_assert_eq(sqlite3_column_int64(st, 0), 20);
    cr_assert_eq(sqlite3_column_int64(st, 1), 19);
    sqlite3_finalize(st);
    sqlite3_close(h);
}
