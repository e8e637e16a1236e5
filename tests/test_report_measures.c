#define _GNU_SOURCE /* nftw, in test_proc.h */
/* The balance report's measures beyond the win rate (#23): the reference
 * evaluators (the linear evaluation, a fixed searcher) and the lead with
 * its dead band, decision points and lead changes by hand and against the
 * stored rows, a pair's measures by hand, and the swaps of a +swap
 * variant. */
#include <math.h>
#include "engine/notation.h"
#include "eval/evaluation.h"
#include "selfplay/search/ab.h"
#include "selfplay/stats/stats.h"
#include "selfplay/store/store.h"
#include "study/report/report.h"
#include "tests/report_helpers.h"

/* The reference measures of stored games, by hand: each game's actions
 * replayed and every position scored by the linear evaluation (the
 * default reference) or by a fixed searcher (ab at depth 2, its table
 * cleared at each game's start), White's values read by report_lead, the
 * sums against the report's. The searcher's figures are not the linear
 * evaluation's (the option changes what is measured). */
static void reference_by_hand(const char *db, const char *spec, uint64_t *valued, uint64_t *changes,
                              uint64_t *decided, double *decided_at)
{
    Weights w;
    char err[ERR_LEN];
    cr_assert_eq(weights_load("eval/weights/tuned3.txt", &w, err), 0, "%s", err);
    Ab *ab = NULL;
    if (spec) {
        AbConfig cfg = {.depth = 2, .tt_mb = AB_DEFAULT_TT_MB, .weights = w};
        cr_assert_eq(ab_new(&ab, &cfg, err), 0, "%s", err);
    }
    sqlite3 *h = db_open(db);
    sqlite3_stmt *g, *a;
    cr_assert_eq(sqlite3_prepare_v2(h, "SELECT id, result FROM game ORDER BY id", -1, &g, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_prepare_v2(h, "SELECT action FROM action WHERE game_id = ? ORDER BY ply", -1, &a, NULL),
                 SQLITE_OK);
    *valued = *changes = *decided = 0;
    *decided_at = 0;
    while (sqlite3_step(g) == SQLITE_ROW) {
        int result = result_parse((const char *)sqlite3_column_text(g, 1));
        double white[1000];
        int n = 0;
        Position pos;
        pos_start(&pos, VARIANT_STANDARD);
        if (ab) ab_clear(ab);
        sqlite3_bind_int64(a, 1, sqlite3_column_int64(g, 0));
        while (sqlite3_step(a) == SQLITE_ROW) {
            Action act;
            Undo u;
            cr_assert_eq(action_parse(&pos, (const char *)sqlite3_column_text(a, 0), &act, err), 0, "%s", err);
            pos_make(&pos, act, &u);
            if (!ab) {
                white[n] = eval_white(&w, &pos);
            } else {
                AbResult r;
                ab_search(ab, &pos, NULL, &r);
                white[n] = pos.actor == WHITE ? ab_score_value(r.score) : 1 - ab_score_value(r.score);
            }
            n++;
        }
        sqlite3_reset(a);
        white[n - 1] = result == RESULT_WHITE ? 1 : result == RESULT_BLACK ? 0 : 0.5;
        ReportLead r = report_lead(white, n, result, REPORT_LEAD_BAND);
        (*valued)++;
        *changes += (uint64_t)r.lead_changes;
        if (r.decided_at >= 0) {
            (*decided)++;
            *decided_at += r.decided_at;
        }
    }
    sqlite3_finalize(g);
    sqlite3_finalize(a);
    sqlite3_close(h);
    if (ab) ab_free(ab);
}

Test(report, reference_evaluators_by_hand)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "r.db"), *err;
    const char *args[] = {"selfplay", "--games", "12", "--agent", "ab:depth=1", "--opening", "random:4", "--seed", "3",
                          "--db", db, "--quiet", "--threads", "1", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "selfplay: %s", err);
    const char *specs[] = {NULL, "ab:depth=2,eval=eval/weights/tuned3.txt"};
    double mean_changes[2];
    for (int k = 0; k < 2; k++) {
        uint64_t valued, changes, decided;
        double decided_at;
        reference_by_hand(db, specs[k], &valued, &changes, &decided, &decided_at);
        Report rep;
        char e[ERR_LEN];
        ReportLoadOptions o = {.reference = specs[k]};
        cr_assert_eq(report_load_with(&rep, db, STORE_BUSY_MS, &(StoreSelection){0}, &o, e), 0, "%s", e);
        cr_assert_eq(rep.npairs, 1);
        const ReportPair *p = &rep.pairs[0];
        cr_expect_eq(p->games, 12);
        cr_expect_eq(p->ref_valued, valued, "%s", specs[k] ? specs[k] : "default");
        cr_expect_eq(p->ref_lead_changes, changes, "%s: %llu by hand %llu", specs[k] ? specs[k] : "default",
                     (unsigned long long)p->ref_lead_changes, (unsigned long long)changes);
        cr_expect_eq(p->ref_decided, decided);
        cr_expect_float_eq(p->ref_decided_at, decided_at, 1e-9);
        cr_expect_str_eq(rep.reference, specs[k] ? specs[k] : REPORT_REFERENCE);
        cr_expect_eq(rep.reference_searched, specs[k] != NULL);
        mean_changes[k] = (double)changes / (double)valued;
        report_free(&rep);
    }
    cr_expect_neq(mean_changes[0], mean_changes[1], "the searcher measured what the evaluation did");
    /* what is not a reference evaluator is refused, naming it */
    const char *bad[] = {"mcts:sims=5", "ab:depth=2,movetime=5", "ab:depth=2,threads=2", "ab:depth=2,maxdepth=4",
                         "nosuch.txt", "ab:dept=2"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        Report rep;
        char e[ERR_LEN];
        ReportLoadOptions o = {.reference = bad[i]};
        cr_expect_eq(report_load_with(&rep, db, STORE_BUSY_MS, &(StoreSelection){0}, &o, e), ERR_USAGE, "%s", bad[i]);
        cr_expect(strstr(e, bad[i]), "%s: %s", bad[i], e);
        report_free(&rep);
        cr_expect_eq(report_reference_check(bad[i], e), ERR_USAGE, "%s", bad[i]);
    }
    /* and on the command line: status 2, nothing written */
    const char *cli[] = {"report", "--db", db, "--out", "o", "--no-plots", "--reference", "mcts:sims=5", NULL};
    cr_expect_eq(yinsh_run(dir, cli, NULL, &err), 2, "%s", err);
    cr_expect(strstr(err, "an agent of another kind"), "%s", err);
    cr_expect(!file_exists(path_in(dir, "o/report.md")));
    const char *match[] = {"report", "--db", db, "--kind", "match", "--reference", "ab:depth=1", NULL};
    cr_expect_eq(yinsh_run(dir, match, NULL, &err), 2, "%s", err);
}

/* The reference evaluator's lead with its dead band of 0.05 (issue 31),
 * on White's values made by hand. */
Test(report, lead_with_a_dead_band)
{
    /* noise about an even game: .52 .47 .54 .46 .5 .53, all inside
     * .45-.55: nobody is ever ahead, no lead change; White won, the last
     * value inside the band: decided at the end, 6 of 6 */
    double noise[] = {0.52, 0.47, 0.54, 0.46, 0.5, 0.53};
    ReportLead r = report_lead(noise, 6, RESULT_WHITE, REPORT_LEAD_BAND);
    cr_expect(r.valued);
    cr_expect_eq(r.lead_changes, 0);
    cr_expect_eq(r.decided_ply, 6);
    cr_expect_float_eq(r.decided_at, 1, 1e-12);
    /* the same noise read without a band: ahead W B W B - W, four changes */
    cr_expect_eq(report_lead(noise, 6, RESULT_WHITE, 0).lead_changes, 4);
    /* a known game of 10 actions, White's values
     *   .60 .50 .40 .52 .44 .58 .70 .54 .65 1
     * sides W - B - B W W - W W (inside the band the side before holds):
     * W to B at action 3, B to W at action 6: two changes. Black's .44 at
     * action 5 is the last value not outside the band on White's side;
     * from action 6 on (.58 .70 .54 ...) .54 at action 8 is inside it, so
     * White leads for good from action 9 (.65): decided at ply 9, 0.9 */
    double game[] = {0.60, 0.50, 0.40, 0.52, 0.44, 0.58, 0.70, 0.54, 0.65, 1};
    r = report_lead(game, 10, RESULT_WHITE, REPORT_LEAD_BAND);
    cr_expect_eq(r.lead_changes, 2);
    cr_expect_eq(r.decided_ply, 9);
    cr_expect_float_eq(r.decided_at, 0.9, 1e-12);
    /* the same values with Black the winner: Black's side last at action
     * 5, never for good: decided at the end */
    r = report_lead(game, 10, RESULT_BLACK, REPORT_LEAD_BAND);
    cr_expect_eq(r.decided_ply, 10);
    /* ahead from the first action on, a value missing (NaN) in between:
     * decided at ply 1 */
    double early[] = {0.1, NAN, 0.3, 0.2, 0};
    r = report_lead(early, 5, RESULT_BLACK, REPORT_LEAD_BAND);
    cr_expect_eq(r.lead_changes, 0);
    cr_expect_eq(r.decided_ply, 1);
    cr_expect_float_eq(r.decided_at, 0.2, 1e-12);
    /* a draw has no decision point; no values, nothing */
    r = report_lead(game, 10, RESULT_DRAW, REPORT_LEAD_BAND);
    cr_expect(r.valued && r.lead_changes == 2 && r.decided_ply == -1 && r.decided_at == -1);
    double none[] = {NAN, NAN};
    r = report_lead(none, 2, RESULT_WHITE, REPORT_LEAD_BAND);
    cr_expect(!r.valued && r.lead_changes == 0 && r.decided_ply == -1);
}

/* ---- the measures beyond the win rate (#23) ----------------------------- */

/* An action by hand: actor 'w' or 'b', a value (NAN: not searched). */
static StoreActionRow act(const char *actor, double value)
{
    return (StoreActionRow){.actor = actor, .state = "M", .action = "?", .legal = 1, .searched = !isnan(value),
                            .value = isnan(value) ? 0 : value};
}

/* Decision points and lead changes of games worked out by hand. */
Test(report, game_values_by_hand)
{
    /* values for the actor .6 .45 .4 .3 .8, White's view .6 .55 .4 .7 .8:
     * ahead W W B W W, two changes; White won and led for good from
     * action 3 on: decided at (3 + 1) / 5 */
    StoreActionRow g1[] = {act("w", 0.6), act("b", 0.45), act("w", 0.4), act("b", 0.3), act("w", 0.8)};
    ReportGameValues v = report_game_values(g1, 5, RESULT_WHITE);
    cr_expect(v.valued);
    cr_expect_eq(v.lead_changes, 2);
    cr_expect_float_eq(v.decided_at, 0.8, 1e-12);
    /* unsearched actions count for the length only, a value of exactly
     * 1/2 has nobody ahead: White's view - .5 .7 .4 -, one change (W to
     * B); Black won, Black's view .5 .3 .6: decided at (3 + 1) / 5 */
    StoreActionRow g2[] = {act("w", NAN), act("b", 0.5), act("w", 0.7), act("b", 0.6), act("w", NAN)};
    v = report_game_values(g2, 5, RESULT_BLACK);
    cr_expect_eq(v.lead_changes, 1);
    cr_expect_float_eq(v.decided_at, 0.8, 1e-12);
    /* White won, but the last value gave White .4: never led for good, 1 */
    StoreActionRow g3[] = {act("w", 0.7), act("b", 0.6)};
    v = report_game_values(g3, 2, RESULT_WHITE);
    cr_expect_eq(v.lead_changes, 1);
    cr_expect_float_eq(v.decided_at, 1, 1e-12);
    /* led from the first action on: 1/4 */
    StoreActionRow g4[] = {act("b", 0.1), act("w", 0.9), act("b", 0.2), act("w", 0.7)};
    v = report_game_values(g4, 4, RESULT_WHITE);
    cr_expect_eq(v.lead_changes, 0);
    cr_expect_float_eq(v.decided_at, 0.25, 1e-12);
    /* a draw has no decision point; random play no values at all */
    v = report_game_values(g1, 5, RESULT_DRAW);
    cr_expect(v.valued && v.lead_changes == 2 && v.decided_at == -1);
    StoreActionRow g5[] = {act("w", NAN), act("b", NAN)};
    v = report_game_values(g5, 2, RESULT_WHITE);
    cr_expect(!v.valued && v.lead_changes == 0 && v.decided_at == -1);
    /* the phases of the states */
    cr_expect(report_phase("P") == REPORT_PLACEMENT && report_phase("M") == REPORT_MOVE);
    cr_expect(report_phase("R") == REPORT_REMOVAL && report_phase("X") == REPORT_REMOVAL &&
              report_phase("r") == REPORT_REMOVAL && report_phase("x") == REPORT_REMOVAL);
    cr_expect(report_phase("-") == -1 && report_phase("MM") == -1 && report_phase("") == -1);
}

/* A pair's measures by hand: 6 White wins, 2 Black wins, 2 draws. */
Test(report, pair_measures_by_hand)
{
    ReportPair p = hand_pair(VARIANT_STANDARD, "random", 6, 2, 2);
    /* balance 1 - |6 - 2| / 10 = 0.6; draws 2/10 with Wilson's interval */
    cr_expect_float_eq(report_balance(&p), 0.6, 1e-12);
    Interval d = report_draw_rate(&p), w = stats_wilson(0.2, 10, STATS_Z95);
    cr_expect(d.mid == 0.2 && d.lo == w.lo && d.hi == w.hi);
    /* lengths 10 20 20 30 30 30 40 50 60 90: quartiles by nearest rank
     * (ceil(q n)-th shortest): 20 (3rd), 30 (5th and 6th: median 30), 50 (8th) */
    memset(p.lengths, 0, (REPORT_MAX_LENGTH + 1) * sizeof *p.lengths);
    int lens[] = {10, 20, 20, 30, 30, 30, 40, 50, 60, 90};
    for (int i = 0; i < 10; i++) p.lengths[lens[i]]++;
    cr_expect_eq(report_length_quantile(&p, 0), 10);
    cr_expect_eq(report_length_quantile(&p, 0.25), 20);
    cr_expect_float_eq(report_median_length(&p), 30, 1e-12);
    cr_expect_eq(report_length_quantile(&p, 0.75), 50);
    cr_expect_eq(report_length_quantile(&p, 1), 90);
    cr_expect_float_eq(report_mean_length(&p), 38, 1e-12);
    /* no values, no legal counts: no figure, not a zero */
    cr_expect(isnan(report_decided_at(&p)) && isnan(report_lead_changes(&p)) && isnan(report_branching(&p, 0)));
    p.decided = 4;
    p.decided_at = 2;
    p.valued = 5;
    p.lead_changes = 7;
    p.legal[REPORT_MOVE] = 300;
    p.decisions[REPORT_MOVE] = 8;
    /* the reference evaluator's: 3 decided games at 0.9 in sum, 2 lead
     * changes over 6 games */
    cr_expect(isnan(report_ref_decided_at(&p)) && isnan(report_ref_lead_changes(&p)));
    p.ref_decided = 3;
    p.ref_decided_at = 0.9;
    p.ref_valued = 6;
    p.ref_lead_changes = 2;
    cr_expect_float_eq(report_ref_decided_at(&p), 0.3, 1e-12);
    cr_expect_float_eq(report_ref_lead_changes(&p), 1.0 / 3, 1e-12);
    cr_expect_float_eq(report_decided_at(&p), 0.5, 1e-12);
    cr_expect_float_eq(report_lead_changes(&p), 1.4, 1e-12);
    cr_expect_float_eq(report_branching(&p, REPORT_MOVE), 37.5, 1e-12);
    /* the Markdown row */
    Report rep = {.db = "hand.db", .pairs = &p, .npairs = 1, .games = 10};
    char *sec = section(markdown_of(&rep), "## Beyond the win rate");
    char want[256];
    snprintf(want, sizeof want, "| `random` | `random` | 10 | 20.0%% (%.1f–%.1f) | 0.600 | 38.0, 30.0 | 10, 20–50, 90 | "
                                "0.50 (4) | 1.40 (5) | 0.30 (3) | 0.33 (6) | –, 37.5, – |", 100 * w.lo, 100 * w.hi);
    cr_expect(strstr(sec, want), "want '%s' in:\n%s", want, sec);
}

/* ---- the measures against the stored rows (#23) ------------------------- */

/* A game's decision point and lead changes computed here from its rows
 * (actor, value; NULL unsearched), the definitions of docs/json.md
 * written out again. */
static void sql_game_values(sqlite3 *h, long long game, const char *result, int *valued, int *changes,
                            double *decided)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT actor, value FROM action WHERE game_id = %lld ORDER BY ply", game);
    sqlite3_stmt *st;
    cr_assert(sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK);
    int n = 0, ahead = 0, from = -1;
    bool on = false;
    *valued = 0;
    *changes = 0;
    char winner = !strcmp(result, "white") ? 'w' : !strcmp(result, "black") ? 'b' : 0;
    for (; sqlite3_step(st) == SQLITE_ROW; n++) {
        if (sqlite3_column_type(st, 1) == SQLITE_NULL) continue;
        *valued = 1;
        char actor = (char)sqlite3_column_text(st, 0)[0];
        double v = sqlite3_column_double(st, 1), white = actor == 'w' ? v : 1 - v;
        int side = white > 0.5 ? 1 : white < 0.5 ? 2 : 0;
        if (side && ahead && side != ahead) ++*changes;
        if (side) ahead = side;
        double mine = winner == 'w' ? white : 1 - white;
        if (winner && mine > 0.5 && !on) from = n;
        on = mine > 0.5;
    }
    sqlite3_finalize(st);
    *decided = winner && *valued ? (on ? (from + 1.0) / n : 1) : -1;
}

/* MCTS self-play (values stored) and random play (none): the report's
 * measures against the stored rows. */
Test(report, measures_match_the_stored_rows)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "m.db"), *se, *so;
    cr_assert_eq(yinsh_run(dir, ARGS("selfplay", "--games", "6", "--agent", "mcts:sims=12", "--seed", "8", "--db", db,
                                     "--run", "mcts", "--quiet"),
                           NULL, &se),
                 0, "%s", se);
    cr_assert_eq(yinsh_run(dir, ARGS("selfplay", "--games", "8", "--agent", "random", "--seed", "9", "--db", db,
                                     "--run", "rnd", "--quiet"),
                           NULL, &se),
                 0, "%s", se);
    Report rep;
    char err[ERR_LEN];
    cr_assert_eq(report_load(&rep, db, STORE_BUSY_MS, &(StoreSelection){0}, err), 0, "%s", err);
    cr_assert_eq(rep.npairs, 2);
    sqlite3 *h = db_open(db);
    for (int i = 0; i < 2; i++) {
        const ReportPair *p = &rep.pairs[i];
        const char *run = !strcmp(p->white, "random") ? "rnd" : "mcts";
        char sql[512];
        /* the branching factor by phase */
        static const char *const STATES[REPORT_PHASE_NB] = {"'P'", "'M'", "'R', 'X', 'r', 'x'"};
        for (int k = 0; k < REPORT_PHASE_NB; k++) {
            snprintf(sql, sizeof sql,
                     "SELECT coalesce(avg(legal), -1) FROM action JOIN game ON game.id = action.game_id JOIN run ON "
                     "run.id = game.run_id WHERE run.name = '%s' AND state IN (%s)",
                     run, STATES[k]);
            double want = db_double(h, sql), got = report_branching(p, k);
            if (want < 0) cr_expect(isnan(got), "%s phase %d", run, k);
            else cr_expect_float_eq(got, want, 1e-9, "%s phase %d", run, k);
        }
        /* the values' measures, game by game */
        snprintf(sql, sizeof sql, "SELECT game.id, result FROM game JOIN run ON run.id = game.run_id WHERE run.name = '%s'",
                 run);
        sqlite3_stmt *st;
        cr_assert(sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK);
        int valued = 0, changes = 0, decided = 0;
        double decided_sum = 0;
        while (sqlite3_step(st) == SQLITE_ROW) {
            int v, c;
            double d;
            sql_game_values(h, sqlite3_column_int64(st, 0), (const char *)sqlite3_column_text(st, 1), &v, &c, &d);
            valued += v;
            changes += c;
            if (d >= 0) decided++, decided_sum += d;
        }
        sqlite3_finalize(st);
        cr_expect_eq(p->valued, (uint64_t)valued, "%s", run);
        cr_expect_eq(p->decided, (uint64_t)decided, "%s", run);
        if (valued) cr_expect_float_eq(report_lead_changes(p), (double)changes / valued, 1e-12, "%s", run);
        else cr_expect(isnan(report_lead_changes(p)), "%s: random play has no values", run);
        if (decided) cr_expect_float_eq(report_decided_at(p), decided_sum / decided, 1e-12, "%s", run);
        else cr_expect(isnan(report_decided_at(p)), "%s", run);
        if (!strcmp(run, "mcts")) cr_expect_eq(valued, 6, "every MCTS game has values");
    }
    sqlite3_close(h);
    report_free(&rep);
    /* and the JSON has them */
    cr_assert_eq(yinsh_run(dir, ARGS("report", "--db", db, "--out", "r", "--no-plots", "--json"), &so, &se), 0, "%s",
                 se);
    char *check = gc(malloc(strlen(so) + 2048));
    write_in(dir, "r.json", so);
    sprintf(check,
            "python3 -c \"import json; d = json.load(open('%s/r.json')); "
            "p = {x['white']: x for x in d['pairs']}; r = p['random']; "
            "assert r['decided_at'] == {'mean': None, 'games': 0}, r['decided_at']; "
            "assert r['lead_changes']['games'] == 0 and r['legal_actions']['placement'] > 0; "
            "assert abs(r['balance'] - (1 - abs(r['results']['white'] - r['results']['black']) / r['games'])) < 1e-9; "
            "assert sum(g for _, g in r['length_actions']['games_by_length']) == r['games'] == 8; "
            "assert r['draw_rate']['value'] == r['results']['draw'] / 8; "
            "m = [x for x in d['pairs'] if x['white'] != 'random'][0]; assert m['lead_changes']['games'] == 6; "
            "c = d['first_ring_classes']['standard']; assert len(c) == 11 and sum(x['games'] for x in c) == 14; "
            "assert sum(x['points'] for x in c) == 85\"",
            dir);
    cr_expect_eq(system(check), 0, "%s", so);
}

/* ---- swaps (issue 31, item 5) -------------------------------------------- */

/* A +swap variant's swaps: the loader counts the games whose second
 * action is `swap` by result, as SQL counts them; the Markdown says how
 * often Black swapped and White's score with and without a swap, and the
 * JSON gives `swapped` (null in a variant without the option). */
Test(report, swaps_counted_and_written)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "swap.db"), *err;
    const char *args[] = {"selfplay", "--games", "40", "--variant", "standard+swap", "--agent", "mcts:sims=100,rollout=4",
                          "--opening", "random:1", "--seed", "5", "--run", "sw", "--db", db, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    Report rep;
    char rerr[ERR_LEN];
    StoreSelection sel = {0};
    cr_assert_eq(report_load(&rep, db, STORE_BUSY_MS, &sel, rerr), 0, "%s", rerr);
    cr_assert_eq(rep.npairs, 1);
    const ReportPair *p = &rep.pairs[0];
    sqlite3 *h = db_open(db);
    const char *results[] = {"white", "black", "draw"};
    const int index[] = {RESULT_WHITE, RESULT_BLACK, RESULT_DRAW};
    uint64_t swaps = 0;
    for (int r = 0; r < 3; r++) {
        char q[512];
        /* distinct games (the report counts a copy once) whose second action is swap */
        snprintf(q, sizeof q,
                 "SELECT count(*) FROM (SELECT DISTINCT (SELECT group_concat(action, ' ') FROM (SELECT action FROM "
                 "action WHERE game_id = g.id ORDER BY ply)) FROM game g WHERE g.result = '%s' AND (SELECT action "
                 "FROM action WHERE game_id = g.id AND ply = 1) = 'swap')",
                 results[r]);
        cr_expect_eq(p->swapped[index[r]], (uint64_t)db_int(h, q), "%s", results[r]);
        swaps += p->swapped[index[r]];
    }
    sqlite3_close(h);
    cr_assert(swaps > 0 && swaps < p->games, "a run with and without swaps: %llu of %llu", (unsigned long long)swaps,
              (unsigned long long)p->games);
    char *md = markdown_of(&rep);
    char want[128];
    snprintf(want, sizeof want, "Black swapped in %llu of %llu games (", (unsigned long long)swaps,
             (unsigned long long)p->games);
    cr_expect(strstr(md, want), "no '%s' in:\n%s", want, md);
    report_free(&rep);

    /* by hand: 10 games, 4 swapped (3 White wins), 6 kept (1 White win, 1 draw) */
    ReportPair q[2] = {hand_pair(VARIANT_STANDARD | VARIANT_SWAP, "ab:depth=3", 4, 5, 1),
                       hand_pair(VARIANT_STANDARD, "ab:depth=3", 5, 5, 0)};
    q[0].swapped[RESULT_WHITE] = 3;
    q[0].swapped[RESULT_BLACK] = 1;
    Report hand = {.db = "hand.db", .pairs = q, .npairs = 2, .games = 20};
    md = markdown_of(&hand);
    cr_expect(strstr(md, "Black swapped in 4 of 10 games (40.0%, 16.8–68.7); White's score after a swap: 75.0% "
                         "(30.1–95.4, 4 games), without one: 25.0% (6.0–63.5, 6 games)."),
              "%s", md);
    const char *first = strstr(md, "Black swapped in");
    cr_expect(first && !strstr(first + 1, "Black swapped in"), "only the +swap variant has swaps:\n%s", md);
    char *text = json_of(&hand);
    cr_expect(strstr(text, "\"swapped\": {\"white\": 3, \"black\": 1, \"draw\": 0}"), "%s", text);
    cr_expect(strstr(text, "\"swapped\": null"), "%s", text);
}
