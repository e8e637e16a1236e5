#define _GNU_SOURCE /* nftw, in test_proc.h */
/* Self-play: agent specs, playouts, MCTS, the scheduler's determinism, the
 * database, and the `yinsh selfplay` command as a process (kill -9 and
 * resume, the summary, every bad input of issue #3). Each test works in its
 * own temporary directory, so Criterion may run them in parallel. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "selfplay/agents/agent.h"
#include "selfplay/play/bench.h"
#include "selfplay/play/run.h"
#include "selfplay/search/mcts.h"
#include "selfplay/search/mcts_tree.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "selfplay/search/playout.h"
#include "selfplay/play/scheduler.h"
#include "selfplay/store/cursor.h"
#include "selfplay/store/store.h"
#include "tests/test_proc.h"

/* ---- helpers ---------------------------------------------------------- */

/* Everything a run's games say, timing and row ids aside, as one text:
 * two runs are the same games, action for action, iff the texts are equal. */
static char *run_dump(const char *path, const char *run)
{
    sqlite3 *db = db_open(path);
    char sql[1024];
    snprintf(sql, sizeof sql,
             "SELECT coalesce(group_concat(line, char(10)), '') FROM ("
             " SELECT g.idx || ' ' || g.seed || ' ' || g.variant || ' ' || g.white || ' ' || g.black || ' ' ||"
             "  g.result || ' ' || g.reason || ' ' || g.actions || ' ' || g.white_removed || g.black_removed ||"
             "  ' ' || g.white_markers || ' ' || g.black_markers || ' :' ||"
             "  (SELECT group_concat(a.ply || a.actor || a.state || a.action || '/' || a.legal || '/' ||"
             "     coalesce(a.root_visits, '-') || '/' || coalesce(a.chosen_visits, '-') || '/' ||"
             "     coalesce(printf('%%.9f', a.value), '-'), ' ')"
             "   FROM (SELECT * FROM action WHERE game_id = g.id ORDER BY ply) a) AS line"
             " FROM game g JOIN run r ON g.run_id = r.id WHERE r.name = '%s' ORDER BY g.idx)",
             run);
    char *s = db_text(db, sql);
    sqlite3_close(db);
    return s;
}

/* ---- agent specs ------------------------------------------------------ */

Test(agent, spec_parse_and_format)
{
    AgentSpec s;
    char err[ERR_LEN], text[SPEC_LEN];
    cr_assert_eq(agent_spec_parse("random", &s, err), 0, "%s", err);
    cr_assert(agent_spec_random(&s));
    cr_assert_str_eq(agent_spec_format(&s, text), "random");

    cr_assert_eq(agent_spec_parse("mcts:sims=800", &s, err), 0, "%s", err);
    cr_assert_str_eq(agent_spec_kind_name(&s), "mcts");
    cr_assert_eq(s.mcts.sims, 800);
    cr_assert_str_eq(agent_spec_format(&s, text), "mcts:sims=800,c=1,rollout=random");

    cr_assert_eq(agent_spec_parse("mcts:sims=800,c=1.2,rollout=random", &s, err), 0, "%s", err);
    cr_assert_float_eq(s.mcts.c, 1.2, 1e-12);
    cr_assert_str_eq(agent_spec_format(&s, text), "mcts:sims=800,c=1.2,rollout=random");
    AgentSpec back;
    cr_assert_eq(agent_spec_parse(text, &back, err), 0, "%s", err);
    cr_assert(back.mcts.sims == s.mcts.sims && back.mcts.c == s.mcts.c && back.mcts.nodes == s.mcts.nodes);

    cr_assert_eq(agent_spec_parse("mcts", &s, err), 0, "%s", err);
    cr_assert_eq(s.mcts.sims, 200); /* `mcts` alone is the default agent of selfplay */
    cr_assert_eq(agent_spec_parse("mcts:nodes=5000", &s, err), 0, "%s", err);
    cr_assert_str_eq(agent_spec_format(&s, text), "mcts:sims=200,c=1,rollout=random,nodes=5000");

    /* the search options: written only when set, and read back */
    cr_assert_eq(agent_spec_parse("mcts:threads=1,solver=0,prior=0,policy=uniform", &s, err), 0, "%s", err);
    cr_assert_str_eq(agent_spec_format(&s, text), "mcts:sims=200,c=1,rollout=random");
    cr_assert_eq(agent_spec_parse("mcts:rollout=4,policy=rows,prior=0.5,solver=1,threads=2", &s, err), 0, "%s", err);
    cr_assert(s.mcts.threads == 2 && s.mcts.solver && s.mcts.prior == 0.5 && s.mcts.policy == MCTS_POLICY_ROWS);
    cr_assert_str_eq(agent_spec_format(&s, text), "mcts:sims=200,c=1,rollout=4,threads=2,solver=1,prior=0.5,policy=rows");
    cr_assert_eq(agent_spec_parse(text, &back, err), 0, "%s", err);
    cr_assert(back.mcts.threads == 2 && back.mcts.solver && back.mcts.prior == 0.5 && back.mcts.policy == MCTS_POLICY_ROWS);
    cr_assert_eq(agent_spec_set(&back, "threads", "3", err), 0, "%s", err);
    cr_assert_eq(back.mcts.threads, 3);
    cr_assert_neq(agent_spec_set(&back, "solver", "maybe", err), 0);
    cr_assert(back.mcts.solver);
}

Test(agent, spec_errors_name_the_problem)
{
    AgentSpec s;
    char err[ERR_LEN];
    struct {
        const char *spec, *word;
    } bad[] = {
        {"alphazero", "alphazero"},   {"mcts:simz=5", "simz"},     {"mcts:sims=0", "sims"},
        {"mcts:sims=abc", "abc"},     {"mcts:c=-1", "c"},          {"mcts:rollout=smart", "smart"},
        {"mcts:sims", "sims"},        {"random:sims=5", "random"}, {"mcts:nodes=1", "nodes"},
        {"mcts:sims=10,c=x", "x"},    {"mcts:threads=0", "threads"}, {"mcts:threads=65", "threads"},
        {"mcts:threads=two", "two"},  {"mcts:solver=2", "solver"},   {"mcts:solver=yes", "yes"},
        {"mcts:prior=-1", "prior"},   {"mcts:prior=101", "prior"},   {"mcts:prior=1e", "1e"},
        {"mcts:policy=smart", "smart"}, {"mcts:threads=", "threads"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_neq(agent_spec_parse(bad[i].spec, &s, err), 0, "%s accepted", bad[i].spec);
        cr_assert(strstr(err, bad[i].word), "%s: message '%s' does not name '%s'", bad[i].spec, err, bad[i].word);
    }
}

/* ---- playouts --------------------------------------------------------- */

Test(playout, reaches_the_end)
{
    Rng rng;
    rng_seed(&rng, 1, 1);
    Position pos;
    pos_start(&pos, VARIANT_STANDARD);
    for (int i = 0; i < 200; i++) {
        int plies, r = playout_random(&pos, &rng, &plies);
        cr_assert(r == RESULT_WHITE || r == RESULT_BLACK || r == RESULT_DRAW);
        cr_assert(plies > 10 && plies < GAME_MAX_ACTIONS);
    }
}

/* ---- MCTS ------------------------------------------------------------- */

static Mcts *new_mcts(const MctsConfig *cfg)
{
    Mcts *m;
    char err[ERR_LEN];
    cr_assert_eq(mcts_new(&m, cfg, err), 0, "%s", err);
    return m;
}

Test(mcts, search_is_legal_and_counts_visits)
{
    MctsConfig cfg = {.sims = 300, .c = 1.0};
    Mcts *m = new_mcts(&cfg);
    for (int k = 0; k < 6; k++) {
        Position pos;
        bench_mcts_position(3, k, &pos);
        Rng rng;
        rng_seed(&rng, 9, (uint64_t)k);
        mcts_clear(m);
        MctsResult r;
        Action a = mcts_search(m, &pos, &rng, &r);
        cr_assert(movegen_is_legal(&pos, a));
        cr_assert_eq(r.root_visits, 300);
        cr_assert(r.chosen_visits > 0 && r.chosen_visits <= r.root_visits);
        cr_assert(r.value >= 0 && r.value <= 1);
        cr_assert_eq(r.legal, movegen_count(&pos));
    }
    mcts_free(m);
}

/* Blitz, White to move: markers e1-e4 are white and White's ring stands on
 * e5, so moving that ring up the column makes a white row and wins. */
Test(mcts, finds_the_winning_move)
{
    const char *ypn = "4/2b1B2/3W4/2w6/wwwwW1b3/B5w2/2W4W2/3W3B1/4B3/2B4/1b2 w M blitz";
    Position pos;
    char err[ERR_LEN];
    cr_assert_eq(ypn_parse(ypn, &pos, err), 0, "%s", err);
    MctsConfig cfg = {.sims = 2000, .c = 1.0};
    Mcts *m = new_mcts(&cfg);
    Rng rng;
    rng_seed(&rng, 5, 5);
    MctsResult r;
    Action a = mcts_search(m, &pos, &rng, &r);
    Undo u;
    pos_make(&pos, a, &u);
    int result;
    char text[ACTION_MAX_LEN];
    cr_assert(pos_outcome(&pos, &result, NULL) && result == RESULT_WHITE, "chose %s", action_format(a, text));
    cr_assert(r.value > 0.99, "value %f", r.value);
    mcts_free(m);
}

/* Tree-parallel search: on 2 and 4 threads (more threads than this
 * machine's cores, so that they interleave), with playouts, evaluated
 * leaves and the solver, every search runs its simulations exactly once
 * each (the root's visits are the simulations: a lost update of a shared
 * counter shows here), chooses a legal action and leaves a tree whose
 * every invariant holds (children's visits within their parent's, no
 * virtual loss left behind). Games go on with tree reuse. */
Test(mcts, tree_parallel_search_is_legal_and_counts)
{
    for (int variant = 0; variant < 3; variant++)
        for (uint32_t threads = 2; threads <= 4; threads += 2) {
            MctsConfig cfg = {.sims = 1500, .c = 1.0, .threads = threads, .evaluate = variant > 0,
                              .rollout = 4, .solver = variant == 2};
            weights_default(&cfg.weights);
            Mcts *m = new_mcts(&cfg);
            cr_assert_not_null(m);
            for (int k = 0; k < 4; k++) {
                Position pos;
                bench_mcts_position(11, k, &pos);
                Rng rng;
                rng_seed(&rng, 4, (uint64_t)k);
                mcts_clear(m);
                MctsResult r;
                Action a = mcts_search(m, &pos, &rng, &r);
                char why[ERR_LEN];
                cr_assert(movegen_is_legal(&pos, a), "threads %u", threads);
                cr_assert_eq(mcts_tree_check(m, why), 0, "threads %u: %s", threads, why);
                if (!r.proven) {
                    cr_assert_eq(r.sims, 1500, "threads %u: %u simulations", threads, r.sims);
                    cr_assert_eq(r.root_visits, 1500, "threads %u: root visits %u", threads, r.root_visits);
                }
                cr_assert(r.chosen_visits <= r.root_visits && r.value >= 0 && r.value <= 1);
                /* the next decision reuses the tree */
                uint32_t before = r.root_visits;
                Position next = pos;
                Undo u;
                mcts_advance(m, &pos, a);
                pos_make(&next, a, &u);
                if (movegen_count(&next) > 0) {
                    mcts_search(m, &next, &rng, &r);
                    cr_assert_eq(mcts_tree_check(m, why), 0, "threads %u, reused: %s", threads, why);
                    cr_assert(r.root_visits >= r.sims && r.root_visits <= r.sims + before);
                }
            }
            mcts_free(m);
        }
}

/* Solver, win in one: White has removed two rings and has markers e2-e5
 * under its ring on e6; any move of that ring but down the column (which
 * jumps and flips e2-e5) leaves a marker on e6, makes the row e2-e6, and
 * the row's removal and a third ring win. The search proves it: a proven
 * win, value 1, a winning move. */
Test(mcts, solver_proves_a_win_in_one)
{
    Position pos;
    char err[ERR_LEN];
    cr_assert_eq(ypn_parse("W3/W6/8/9/1wwwwW4/9/10/8B/8/B6/B3 w M standard", &pos, err), 0, "%s", err);
    for (uint32_t threads = 1; threads <= 2; threads++) {
        MctsConfig cfg = {.sims = 20000, .c = 1.0, .solver = true, .threads = threads};
        Mcts *m = new_mcts(&cfg);
        Rng rng;
        rng_seed(&rng, 8, threads);
        MctsResult r;
        Action a = mcts_search(m, &pos, &rng, &r);
        char text[ACTION_MAX_LEN];
        Point e6, e1;
        cr_assert(point_parse("e6", 2, &e6) && point_parse("e1", 2, &e1));
        cr_assert_eq(r.proven, RESULT_WHITE, "threads %u: not proven (chose %s)", threads, action_format(a, text));
        cr_assert_eq(r.value, 1.0);
        cr_assert(r.sims < 20000, "the search goes on after the proof");
        cr_assert(ACTION_FROM(a) == e6 && ACTION_TO(a) != e1, "threads %u: chose %s", threads,
                  action_format(a, text));
        mcts_free(m);
    }
}

/* Solver, a lost line avoided: Black has removed two rings and has
 * markers b5 c5 d5 f5; White's marker e5 lies between them, right above
 * White's ring on e4. The ring's move e4-e6 jumps e5 and turns it black:
 * Black's row b5-f5, whose removal and a third ring win for Black. The
 * search proves that child lost, and chooses another move on every seed,
 * also when told to search so little that the proof is all it has. */
Test(mcts, solver_avoids_a_proven_loss)
{
    Position pos;
    char err[ERR_LEN];
    cr_assert_eq(ypn_parse("W3/W3b2/4b3/4b4/3Ww5/3b5/10/8B/8/6B/B3 w M standard", &pos, err), 0, "%s", err);
    Action lose;
    cr_assert_eq(action_parse(&pos, "e4-e6", &lose, err), 0, "%s", err);
    for (int seed = 0; seed < 6; seed++) {
        MctsConfig cfg = {.sims = seed < 3 ? 3000 : 400, .c = 1.0, .solver = true, .threads = seed % 2 ? 2 : 1};
        Mcts *m = new_mcts(&cfg);
        Rng rng;
        rng_seed(&rng, 21, (uint64_t)seed);
        MctsResult r;
        Action a = mcts_search(m, &pos, &rng, &r);
        char text[ACTION_MAX_LEN];
        cr_assert_neq(a, lose, "seed %d chose the lost move", seed);
        if (seed < 3) cr_assert_eq(mcts_root_child_proven(m, lose), RESULT_BLACK, "seed %d: e4-e6 not proven lost", seed);
        cr_assert_neq(r.proven, RESULT_BLACK, "seed %d: %s", seed, action_format(a, text));
        mcts_free(m);
    }
}

/* What one search shows: its choice, the chosen child's visits and value,
 * and the principal variation. */
static void search_seen(Mcts *m, const Position *pos, Rng *rng, char *out, size_t size)
{
    MctsResult r;
    mcts_clear(m);
    mcts_search(m, pos, rng, &r);
    cr_assert(movegen_is_legal(pos, r.action));
    char why[ERR_LEN];
    cr_assert_eq(mcts_tree_check(m, why), 0, "%s", why);
    Action pv[8];
    int n = mcts_pv(m, pv, 8), len = snprintf(out, size, "visits %u value %.9f pv", r.chosen_visits, r.value);
    for (int i = 0; i < n; i++) {
        char a[ACTION_MAX_LEN];
        action_format(pv[i], a);
        len += snprintf(out + len, size - (size_t)len, " %s", a);
    }
}

/* Priors and the rows policy change the search: on every position and
 * seed, a spec with the option searches otherwise than the same spec
 * without it (its choice, visits, value or principal variation differ),
 * and so does the prior's weight (the priors' values count, not only the
 * way a search with priors scores unvisited children); each still
 * searches legally (a sound tree) and deterministically (one thread: the
 * same seed, the same search). Each spec goes through the parser, so a key
 * the parser dropped fails here as the search ignoring it would. */
Test(mcts, prior_and_rows_policy_are_legal_and_deterministic)
{
    static const struct {
        const char *with, *without;
    } OPTIONS[] = {
        {"mcts:sims=500,rollout=4,prior=1", "mcts:sims=500,rollout=4"},
        {"mcts:sims=500,rollout=4,prior=4", "mcts:sims=500,rollout=4,prior=1"},
        {"mcts:sims=500,policy=rows", "mcts:sims=500"},
        {"mcts:sims=500,rollout=4,prior=1,policy=rows", "mcts:sims=500,rollout=4,prior=1"},
        {"mcts:sims=500,rollout=4,prior=1,policy=rows", "mcts:sims=500,rollout=4,policy=rows"},
    };
    for (size_t o = 0; o < sizeof OPTIONS / sizeof OPTIONS[0]; o++) {
        AgentSpec with, without;
        MctsConfig cfg_with, cfg_without;
        char err[ERR_LEN];
        cr_assert_eq(agent_spec_parse(OPTIONS[o].with, &with, err), 0, "%s", err);
        cr_assert_eq(agent_spec_parse(OPTIONS[o].without, &without, err), 0, "%s", err);
        cr_assert(agent_spec_mcts_config(&with, &cfg_with));
        cr_assert(agent_spec_mcts_config(&without, &cfg_without));
        Mcts *m1 = new_mcts(&cfg_with), *m2 = new_mcts(&cfg_with), *plain = new_mcts(&cfg_without);
        for (int k = 0; k < 4; k++) {
            Position pos;
            bench_mcts_position(12, k, &pos);
            Rng r1, r2, r3;
            rng_seed(&r1, 6, (uint64_t)k);
            r3 = r2 = r1;
            char a[512], b[512], c[512];
            search_seen(m1, &pos, &r1, a, sizeof a);
            search_seen(m2, &pos, &r2, b, sizeof b);
            search_seen(plain, &pos, &r3, c, sizeof c);
            cr_assert_str_eq(a, b, "%s, position %d: two searches of one seed differ", OPTIONS[o].with, k);
            cr_assert_str_neq(a, c, "%s, position %d: searches as %s does (%s)", OPTIONS[o].with, k,
                              OPTIONS[o].without, a);
        }
        mcts_free(m1);
        mcts_free(m2);
        mcts_free(plain);
    }
}

/* A tiny arena: the search stops growing and still answers. */
Test(mcts, arena_bound_stops_growth)
{
    MctsConfig cfg = {.sims = 3000, .c = 1.0, .nodes = 300};
    Mcts *m = new_mcts(&cfg);
    Position pos;
    pos_start(&pos, VARIANT_STANDARD);
    Rng rng;
    rng_seed(&rng, 1, 2);
    for (int ply = 0; ply < 20; ply++) {
        MctsResult r;
        Action a = mcts_search(m, &pos, &rng, &r);
        cr_assert(movegen_is_legal(&pos, a));
        cr_assert(mcts_nodes_used(m) <= 300);
        cr_assert_geq(r.root_visits, 3000);
        char why[ERR_LEN];
        cr_assert_eq(mcts_tree_check(m, why), 0, "ply %d: %s", ply, why);
        Undo u;
        mcts_advance(m, &pos, a);
        cr_assert_eq(mcts_tree_check(m, why), 0, "after ply %d: %s", ply, why);
        pos_make(&pos, a, &u);
    }
    /* even an arena that cannot hold the root's children answers */
    MctsConfig tiny = {.sims = 50, .c = 1.0, .nodes = 2};
    Mcts *t = new_mcts(&tiny);
    pos_start(&pos, VARIANT_STANDARD);
    cr_assert(movegen_is_legal(&pos, mcts_search(t, &pos, &rng, NULL)));
    mcts_free(t);
    mcts_free(m);
}

/* The tree is kept when the game goes down it: after the chosen action the
 * new root already holds that child's visits. */
Test(mcts, tree_reuse)
{
    MctsConfig cfg = {.sims = 500, .c = 1.0};
    Mcts *m = new_mcts(&cfg);
    Position pos;
    bench_mcts_position(1, 3, &pos);
    Rng rng;
    rng_seed(&rng, 3, 3);
    MctsResult r1, r2;
    Action a = mcts_search(m, &pos, &rng, &r1);
    mcts_advance(m, &pos, a);
    Undo u;
    pos_make(&pos, a, &u);
    mcts_search(m, &pos, &rng, &r2);
    cr_assert_eq(r2.root_visits, 500 + r1.chosen_visits);
    char why[ERR_LEN];
    cr_assert_eq(mcts_tree_check(m, why), 0, "%s", why);
    /* a position off the tree starts afresh */
    Position other;
    bench_mcts_position(1, 4, &other);
    mcts_search(m, &other, &rng, &r2);
    cr_assert_eq(r2.root_visits, 500);
    mcts_free(m);
}

/* The root's value (MctsResult.root_value): the root's mean score for the
 * actor over all its visits, the search's estimate of the position, where
 * value is the chosen child's. Checked where it is known apart from the
 * search's own figures:
 *   - one simulation from a fresh root goes through the chosen child: the
 *     two are the same number;
 *   - a kept root's visits are the chosen child's of the last search
 *     (value * chosen_visits, for that search's actor) and one more
 *     simulation's result (0, 1/2 or 1): root_value * root_visits
 *     recomputed from them, for whichever player acts now;
 *   - a position every line of which White wins, White to act, fresh and
 *     kept: 1, not 0. A fresh root's statistics count for the player
 *     before the actor, a kept one's (after a move that made a row) for
 *     the actor himself: a wrong point of view reads 0 in one of them;
 *   - many simulations: in [0, 1], and not the chosen child's value. */
Test(mcts, root_value_is_the_roots_mean)
{
    MctsConfig cfg = {.sims = 300, .c = 1.0};
    Mcts *m = new_mcts(&cfg);
    SearchLimits one = {.sims = 1};
    int differ = 0;
    for (int k = 0; k < 6; k++) {
        Position pos;
        bench_mcts_position(1, k, &pos);
        Rng rng;
        rng_seed(&rng, 7, (uint64_t)k);
        MctsResult r;
        mcts_clear(m);
        mcts_search_limited(m, &pos, &rng, &one, &r);
        cr_assert_eq(r.root_visits, 1);
        cr_assert_eq(r.root_value, r.value, "position %d: one simulation: %f against %f", k, r.root_value, r.value);

        mcts_clear(m);
        Action a = mcts_search(m, &pos, &rng, &r);
        cr_assert(r.root_value >= 0 && r.root_value <= 1, "position %d: %f", k, r.root_value);
        differ += r.root_value != r.value;
        /* the chosen child becomes the root: its figures, then one simulation */
        int actor = pos.actor;
        mcts_advance(m, &pos, a);
        Undo u;
        pos_make(&pos, a, &u);
        if (!movegen_count(&pos)) continue;
        MctsResult next;
        mcts_search_limited(m, &pos, &rng, &one, &next);
        cr_assert_eq(next.root_visits, r.chosen_visits + 1);
        double before = pos.actor == actor ? r.value : 1 - r.value; /* for the new actor */
        double last = next.root_value * next.root_visits - before * r.chosen_visits;
        cr_assert(fabs(last) < 1e-9 || fabs(last - 0.5) < 1e-9 || fabs(last - 1) < 1e-9,
                  "position %d: the kept root's mean is not its earlier visits' and one simulation's (%f)", k, last);
    }
    cr_expect_gt(differ, 3, "the root's value is the chosen child's in %d positions of 6", 6 - differ);

    /* White's ring e6 over e2-e5 with two rings removed: its move up makes
     * the row e2-e6, and then every line wins (R, X: a third ring) */
    Position pos, won;
    char err[ERR_LEN];
    cr_assert_eq(ypn_parse("W3/W6/8/9/1wwwwW4/9/10/8B/8/B6/B3 w M standard", &pos, err), 0, "%s", err);
    Action up;
    cr_assert_eq(action_parse(&pos, "e6-e8", &up, err), 0, "%s", err);
    won = pos;
    Undo u;
    pos_make(&won, up, &u);
    cr_assert(won.actor == WHITE && won.state == STATE_R);
    Rng rng;
    rng_seed(&rng, 2, 2);
    MctsResult r;
    mcts_clear(m);
    mcts_search(m, &won, &rng, &r);
    cr_assert(r.value == 1 && r.root_value == 1, "fresh: value %f, root_value %f", r.value, r.root_value);
    /* kept: the root reached by White's own move */
    mcts_clear(m);
    mcts_search(m, &pos, &rng, &r);
    mcts_advance(m, &pos, up);
    mcts_search(m, &won, &rng, &r);
    cr_assert_gt(r.root_visits, 300, "the tree under e6-e8 was not kept");
    cr_assert(r.value == 1 && r.root_value == 1, "kept: value %f, root_value %f", r.value, r.root_value);
    mcts_free(m);
}

/* mcts_nodes_check on a tree built by hand, then on copies of it with one
 * invariant broken each. The tree: the root (White to act) has two
 * children; the first was expanded on its second visit, so its children
 * hold 2 of its 3 visits; the second is a won end for Black. */
Test(mcts, tree_check_catches_broken_trees)
{
    static const MctsNode TREE[] = {
        {.child = 1, .nchild = 2, .visits = 4, .score2 = 3, .mover = BLACK},
        {.child = 3, .nchild = 2, .visits = 3, .score2 = 4, .mover = WHITE},
        {.visits = 1, .score2 = 0, .mover = WHITE, .terminal = RESULT_BLACK},
        {.visits = 1, .score2 = 2, .mover = BLACK},
        {.visits = 1, .score2 = 1, .mover = BLACK},
    };
    enum { USED = sizeof TREE / sizeof TREE[0] };
    char why[ERR_LEN];
    cr_assert_eq(mcts_nodes_check(TREE, USED, why), 0, "%s", why);

    /* break k: one change to a copy, and words of the message it must give */
    for (int k = 0; k < 13; k++) {
        MctsNode t[USED + 1];
        memcpy(t, TREE, sizeof TREE);
        uint32_t used = USED;
        const char *word = NULL;
        switch (k) {
        case 0: t[3].visits = 3; word = "visits sum"; break; /* 3 + 1 under a parent of 3 */
        case 1: t[1].nchild = 3; word = "child range"; break; /* nodes 3..5 of 0..4 */
        case 2: t[1].child = 1; word = "child range"; break;  /* itself */
        case 3: t[4].child = 5; t[4].nchild = MAX_ACTIONS + 1; word = "MAX_ACTIONS"; break;
        case 4: t[1].nchild = 0; word = "expanded node has no children"; break;
        case 5: t[4].nchild = 1; word = "unexpanded node counts children"; break;
        case 6: t[0].mover = 2; word = "mover is neither"; break;
        case 7: t[4].mover = WHITE; word = "different movers"; break;
        case 8: t[4].score2 = 2.5; word = "score2"; break;
        case 9: t[4].score2 = NAN; word = "score2"; break;
        case 10: t[1].terminal = RESULT_WHITE; word = "terminal node has children"; break;
        case 11: t[2].terminal = RESULT_DRAW + 1; word = "terminal result"; break;
        case 12: t[used++] = (MctsNode){.mover = WHITE}; word = "every node but the root"; break; /* no parent */
        }
        why[0] = '\0';
        cr_assert_eq(mcts_nodes_check(t, used, why), ERR_FAIL, "break %d passed", k);
        cr_assert(strstr(why, word), "break %d: '%s' does not say '%s'", k, why, word);
    }
}

/* ---- scheduler -------------------------------------------------------- */

typedef struct Collect {
    GameRecord games[64];
    int count;
} Collect;

static int collect_write(void *ctx, GameRecord *const *games, int n, char *err)
{
    (void)err;
    Collect *c = ctx;
    for (int i = 0; i < n; i++) {
        GameRecord *g = &c->games[games[i]->index];
        *g = *games[i];
        g->actions = gc(malloc((size_t)g->nactions * sizeof *g->actions));
        memcpy(g->actions, games[i]->actions, (size_t)g->nactions * sizeof *g->actions);
        c->count++;
    }
    return 0;
}

static void play_all(const SelfplayPlan *plan, Collect *c)
{
    uint32_t idx[64];
    for (uint32_t i = 0; i < plan->games; i++) idx[i] = i;
    SelfplaySink sink = {.write = collect_write, .ctx = c, .batch_games = 3};
    char err[ERR_LEN];
    cr_assert_eq(selfplay_run(plan, idx, plan->games, &sink, err), 0, "%s", err);
    cr_assert_eq(c->count, (int)plan->games);
}

Test(scheduler, same_games_with_1_and_2_threads)
{
    SelfplayPlan plan = {.variant = VARIANT_STANDARD, .seed = 12345, .games = 8};
    char err[ERR_LEN];
    cr_assert_eq(agent_spec_parse("mcts:sims=40", &plan.white, err), 0, "%s", err);
    cr_assert_eq(agent_spec_parse("random", &plan.black, err), 0, "%s", err);
    static Collect one, two;
    plan.threads = 1;
    play_all(&plan, &one);
    plan.threads = 2;
    play_all(&plan, &two);
    for (uint32_t i = 0; i < plan.games; i++) {
        GameRecord *a = &one.games[i], *b = &two.games[i];
        cr_assert_eq(a->nactions, b->nactions, "game %u", i);
        cr_assert_eq(a->result, b->result);
        cr_assert_eq(a->reason, b->reason);
        cr_assert_eq(a->seed, b->seed);
        for (int k = 0; k < a->nactions; k++) {
            cr_assert_eq(a->actions[k].action, b->actions[k].action, "game %u ply %d", i, k);
            cr_assert_eq(a->actions[k].chosen_visits, b->actions[k].chosen_visits);
            cr_assert_eq(a->actions[k].value, b->actions[k].value);
        }
    }
    /* and each game replays: every action legal, ending as recorded */
    for (uint32_t i = 0; i < plan.games; i++) {
        Position pos;
        pos_start(&pos, plan.variant);
        for (int k = 0; k < one.games[i].nactions; k++) {
            cr_assert(movegen_is_legal(&pos, one.games[i].actions[k].action));
            cr_assert_eq(one.games[i].actions[k].actor, pos.actor);
            Undo u;
            pos_make(&pos, one.games[i].actions[k].action, &u);
        }
        int result, reason;
        cr_assert(pos_outcome(&pos, &result, &reason));
        cr_assert_eq(result, one.games[i].result);
        cr_assert_eq(reason, one.games[i].reason);
    }
}

/* Wilson intervals worked out by hand (z = 1.96): 50 of 100 gives
 * 0.5 +- 0.0962; 10 of 10 gives [0.7225, 1]; draws count half. */
Test(scheduler, white_score_interval)
{
    RecordSummary s = {.games = 100};
    s.wins[RESULT_WHITE] = 50;
    s.wins[RESULT_BLACK] = 50;
    Interval i = record_white_score(&s);
    cr_assert_float_eq(i.mid, 0.5, 1e-12);
    cr_assert_float_eq(i.lo, 0.4038, 1e-4);
    cr_assert_float_eq(i.hi, 0.5962, 1e-4);
    RecordSummary all = {.games = 10};
    all.wins[RESULT_WHITE] = 10;
    i = record_white_score(&all);
    cr_assert_float_eq(i.mid, 1.0, 1e-12);
    cr_assert_float_eq(i.lo, 0.7225, 1e-4);
    cr_assert_float_eq(i.hi, 1.0, 1e-12);
    RecordSummary d = {.games = 100};
    d.wins[RESULT_WHITE] = 30;
    d.wins[RESULT_DRAW] = 40;
    d.wins[RESULT_BLACK] = 30;
    i = record_white_score(&d);
    cr_assert_float_eq(i.mid, 0.5, 1e-12);
    cr_assert_float_eq(i.lo, 0.4038, 1e-4);
}

/* ---- the database ----------------------------------------------------- */

/* A database's schema as sqlite_master holds it: every table (with its
 * columns, in its CREATE text), index (sqlite's own for UNIQUE included)
 * and view, one per line in name order, and the schema version. */
static char *schema_objects(sqlite3 *db)
{
    char *objects = db_text(db, "SELECT group_concat(line, char(10)) FROM (SELECT type || ' ' || name || ' on ' || "
                                "tbl_name || ': ' || coalesce(sql, '(automatic)') AS line FROM sqlite_master "
                                "ORDER BY type, name)");
    char *text = gc(malloc(strlen(objects) + 64));
    sprintf(text, "%s\nuser_version %lld", objects, db_int(db, "PRAGMA user_version"));
    return text;
}

/* selfplay/store/schema.sql is the one copy of the schema: the binary
 * carries it byte for byte, and a database that `yinsh selfplay` creates
 * has exactly the tables, columns, indices and views the file declares,
 * and its version: nothing added, altered or missing. */
Test(store, schema_file_is_the_schema_of_a_new_database)
{
    char *file = slurp(YINSH_SCHEMA_SQL);
    cr_assert(strstr(file, "CREATE TABLE run"), "cannot read %s", YINSH_SCHEMA_SQL);
    cr_assert_str_eq(file, store_schema_sql(), "the embedded schema is not %s", YINSH_SCHEMA_SQL);
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(":memory:", &db), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db, file, NULL, NULL, NULL), SQLITE_OK, "%s", sqlite3_errmsg(db));
    char *declared = schema_objects(db);
    sqlite3_close(db);
    cr_assert(strstr(declared, "table game on game: CREATE TABLE game (") &&
                  strstr(declared, "view run_summary on run_summary: CREATE VIEW") &&
                  strstr(declared, "index action_by_state on action: CREATE INDEX"),
              "%s", declared);

    char *dir = tmpdir_new(), *err;
    const char *args[] = {"selfplay", "--games", "1", "--agent", "random", "--seed", "1",
                          "--db", "s.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    db = db_open(path_in(dir, "s.db"));
    char *made = schema_objects(db);
    sqlite3_close(db);
    cr_assert_str_eq(made, declared, "the database yinsh created:\n%s\n\nthe schema file declares:\n%s", made,
                     declared);
}

Test(store, create_write_summary_resume)
{
    char *dir = tmpdir_new(), *path = path_in(dir, "s.db"), err[ERR_LEN];
    Store *s;
    cr_assert_eq(store_open(&s, path, STORE_CREATE, 1000, err), 0, "%s", err);
    SelfplayPlan plan = {.variant = VARIANT_BLITZ, .seed = 99, .games = 6, .threads = 2};
    char aerr[ERR_LEN];
    cr_assert_eq(agent_spec_parse("random", &plan.white, aerr), 0);
    cr_assert_eq(agent_spec_parse("mcts:sims=10", &plan.black, aerr), 0);
    StoreRun run = {.variant = VARIANT_BLITZ, .seed = 99, .games = 6, .threads = 2, .white = "random",
                    .black = "mcts:sims=10,c=1,rollout=random"};
    store_new_uid(99, run.uid);
    cr_assert_eq(strlen(run.uid), 32);
    strcpy(run.name, "t");
    cr_assert_eq(store_run_create(s, &run, "yinsh selfplay test", false, NULL, err), 0, "%s", err);
    StoreRun again = run;
    cr_assert_eq(store_run_create(s, &again, "x", false, NULL, err), ERR_EXISTS);
    cr_assert(strstr(err, "'t'"));

    /* store games 0, 2 and 5 */
    Agent *w, *b;
    cr_assert_eq(agent_new(&w, &plan.white, aerr), 0);
    cr_assert_eq(agent_new(&b, &plan.black, aerr), 0);
    GameRecord g[3];
    GameRecord *gp[3] = {&g[0], &g[1], &g[2]};
    uint32_t which[3] = {0, 2, 5};
    RecordSummary mem = {0};
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(selfplay_play_game(&plan, w, b, which[i], &g[i]), 0);
        record_summary_add(&mem, &g[i]);
    }
    cr_assert_eq(store_write_games(s, &run, gp, 3, err), 0, "%s", err);
    uint32_t *missing, n;
    cr_assert_eq(store_run_missing(s, &run, &missing, &n, err), 0);
    cr_assert_eq(n, 3);
    cr_assert(missing[0] == 1 && missing[1] == 3 && missing[2] == 4);
    free(missing);
    RecordSummary db = {0};
    cr_assert_eq(store_summary(s, &run, &db, err), 0);
    cr_assert_eq(memcmp(&db, &mem, sizeof db), 0);

    /* a game index stored twice is refused, and the batch with it is not stored at all */
    GameRecord *dup[2] = {&g[1], &g[1]};
    cr_assert_neq(store_write_games(s, &run, dup, 2, err), 0);
    cr_assert_eq(store_summary(s, &run, &db, err), 0);
    cr_assert_eq(db.games, 3);

    StoreRun found;
    cr_assert_eq(store_run_get(s, "t", &found, err), 0, "%s", err);
    cr_assert_eq(found.id, run.id);
    cr_assert_eq(found.seed, 99);
    cr_assert_eq(found.variant, VARIANT_BLITZ);
    cr_assert_str_eq(found.black, "mcts:sims=10,c=1,rollout=random");
    cr_assert_eq(found.games, 6);
    cr_assert_eq(found.threads, 2);
    cr_assert_not(found.pairs);
    cr_assert_eq(found.opening, OPENING_NONE);
    cr_assert_not(found.finished);
    cr_assert_eq(store_run_get(s, "nope", &found, err), ERR_NOT_FOUND);
    cr_assert_eq(store_run_finish(s, &run, err), 0);
    for (int i = 0; i < 3; i++) record_free(&g[i]);
    agent_free(w);
    agent_free(b);
    store_close(s);

    sqlite3 *db3 = db_open(path);
    cr_assert_eq(db_int(db3, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
    char *mode = db_text(db3, "PRAGMA journal_mode");
    cr_assert_str_eq(mode, "wal");
    cr_assert_eq(db_int(db3, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name LIKE 'game_by%'"), 3);
    cr_assert_eq(db_int(db3, "SELECT count(*) FROM run WHERE finished_at IS NOT NULL"), 0, "3 of 6 games: not finished");
    cr_assert_eq(db_int(db3, "SELECT count(*) FROM game WHERE white = 'random' AND variant = 'blitz'"), 3);
    cr_assert_eq(db_int(db3, "SELECT count(*) FROM action WHERE actor = 'b' AND state = 'M' AND root_visits IS NULL "
                             "AND legal > 1"),
                 0);
    cr_assert_eq(db_int(db3, "SELECT (SELECT sum(actions) FROM game) = (SELECT count(*) FROM action)"), 1);
    sqlite3_close(db3);
}

Test(store, refuses_newer_version_and_foreign_files)
{
    char *dir = tmpdir_new(), *path = path_in(dir, "n.db"), err[ERR_LEN];
    sqlite3 *db = db_open(path);
    char newer[64];
    snprintf(newer, sizeof newer, "PRAGMA user_version = %d", STORE_SCHEMA_VERSION + 1);
    sqlite3_exec(db, newer, NULL, NULL, NULL);
    sqlite3_close(db);
    Store *s;
    cr_assert_neq(store_open(&s, path, STORE_CREATE, 100, err), 0);
    snprintf(newer, sizeof newer, "version %d", STORE_SCHEMA_VERSION + 1);
    cr_assert(strstr(err, newer) && strstr(err, "newer"), "%s", err);

    char *other = path_in(dir, "o.db");
    db = db_open(other);
    sqlite3_exec(db, "CREATE TABLE t (x)", NULL, NULL, NULL);
    sqlite3_close(db);
    cr_assert_neq(store_open(&s, other, STORE_CREATE, 100, err), 0);
    cr_assert(strstr(err, "not a Yinsh Lab"), "%s", err);

    char *text = path_in(dir, "t.txt");
    FILE *f = fopen(text, "w");
    fprintf(f, "this is not a database, just some text long enough to fill a header........................\n");
    fclose(f);
    cr_assert_neq(store_open(&s, text, STORE_CREATE, 100, err), 0);
    cr_assert(strstr(err, "not a database"), "%s", err);
}

/* ---- the command ------------------------------------------------------ */

Test(cli, determinism_1_vs_2_threads_and_summary)
{
    char *dir = tmpdir_new(), *a = path_in(dir, "a.db"), *b = path_in(dir, "b.db"), *out, *err;
    const char *args1[] = {"selfplay", "--games", "10", "--white", "mcts:sims=30", "--black", "random", "--seed", "77",
                           "--threads", "1", "--db", a, "--run", "r", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args1, &out, &err), 0, "%s", err);
    const char *args2[] = {"selfplay", "--games", "10", "--white", "mcts:sims=30", "--black", "random", "--seed", "77",
                           "--threads", "2", "--db", b, "--run", "r", "--quiet", NULL};
    char *out2;
    cr_assert_eq(yinsh_run(dir, args2, &out2, &err), 0, "%s", err);
    char *da = run_dump(a, "r"), *db = run_dump(b, "r");
    cr_assert(strlen(da) > 1000);
    cr_assert_str_eq(da, db);
    cr_assert_str_eq(out, out2);

    /* the summary agrees with the database */
    sqlite3 *h = db_open(a);
    long long w = db_int(h, "SELECT count(*) FROM game WHERE result = 'white'");
    long long bl = db_int(h, "SELECT count(*) FROM game WHERE result = 'black'");
    long long d = db_int(h, "SELECT count(*) FROM game WHERE result = 'draw'");
    cr_assert_eq(w + bl + d, 10);
    char expect[256];
    snprintf(expect, sizeof expect, "games        10\nwhite wins   %lld\nblack wins   %lld\ndraws        %lld\n", w,
             bl, d);
    cr_assert(strstr(out, expect), "summary:\n%s", out);
    cr_assert(strstr(out, "white score  "));
    cr_assert(strstr(out, "95% CI"));
    cr_assert(strstr(out, "mean length  "));
    cr_assert(strstr(out, "end reasons  "));
    char *ok = db_text(h, "PRAGMA integrity_check");
    cr_assert_str_eq(ok, "ok");
    cr_assert_eq(db_int(h, "SELECT count(*) FROM run WHERE name = 'r' AND seed = 77 AND games = 10 AND "
                           "finished_at IS NOT NULL AND white = 'mcts:sims=30,c=1,rollout=random'"),
                 1);
    sqlite3_close(h);
}

/* A run of `agent` (its extra arguments after it, NULL-ended) killed
 * with -9 after a few stored games and resumed ends with the games, and
 * the summary, of the run never stopped. */
static char *kill_9_and_resume_with(const char *games, const char *const *agent)
{
    char *dir = tmpdir_new(), *k = path_in(dir, "k.db"), *full = path_in(dir, "full.db"), *err;
    const char *args[32] = {"selfplay", "--games", games, "--seed", "2024", "--threads", "2", "--run", "killed",
                            "--quiet", "--db"};
    int n = 11, n0;
    args[n++] = k;
    n0 = n;
    for (int i = 0; agent[i]; i++) args[n++] = agent[i];
    args[n] = NULL;
    pid_t pid = yinsh_start(dir, args);
    /* wait for a few stored games, then kill -9 in the middle of the run
     * (on a quiet machine 40 were all done in the first batch) */
    long long stored = games_awaited(k, 4, 30);
    cr_assert_geq(stored, 4, "no games stored");
    kill(pid, SIGKILL);
    cr_assert_eq(yinsh_wait(pid), 128 + SIGKILL);
    stored = games_in(k);
    cr_assert_lt(stored, atoll(games), "the run finished before the kill: make it longer");

    sqlite3 *h = db_open(k);
    char *ok = db_text(h, "PRAGMA integrity_check");
    cr_assert_str_eq(ok, "ok");
    /* every stored game is whole */
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game g WHERE actions != (SELECT count(*) FROM action WHERE game_id = "
                           "g.id)"),
                 0);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM run WHERE finished_at IS NULL"), 1);
    sqlite3_close(h);

    const char *resume[] = {"selfplay", "--resume", "killed", "--db", k, "--threads", "1", "--quiet", NULL};
    char *out;
    cr_assert_eq(yinsh_run(dir, resume, &out, &err), 0, "%s", err);
    char want[64];
    snprintf(want, sizeof want, "games        %s\n", games);
    cr_assert(strstr(out, want), "%s", out);

    args[n0 - 1] = full;
    char *out2;
    cr_assert_eq(yinsh_run(dir, args, &out2, &err), 0, "%s", err);
    char *dk = run_dump(k, "killed"), *df = run_dump(full, "killed");
    cr_assert_str_eq(dk, df);
    cr_assert_str_eq(out, out2);
    h = db_open(k);
    ok = db_text(h, "PRAGMA integrity_check");
    cr_assert_str_eq(ok, "ok");
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game"), atoll(games));
    cr_assert_eq(db_int(h, "SELECT count(*) FROM run WHERE finished_at IS NOT NULL"), 1);
    sqlite3_close(h);

    /* resuming a finished run plays nothing and prints the same summary */
    char *out3;
    cr_assert_eq(yinsh_run(dir, resume, &out3, &err), 0, "%s", err);
    cr_assert_str_eq(out3, out2);
    return k;
}

Test(cli, kill_9_and_resume)
{
    const char *agent[] = {"--agent", "mcts:sims=60", NULL};
    kill_9_and_resume_with("120", agent);
}

/* The data generation of docs/datagen.md: `best` under a node budget from
 * random openings, each searched action stored with its score. The same
 * seed gives the same positions and scores, on 2 threads and after a kill
 * -9 and a resume on 1. */
Test(cli, datagen_is_reproducible_after_kill_9)
{
    const char *agent[] = {"--agent", "best", "--sims", "400", "--opening", "random:12", NULL};
    char *k = kill_9_and_resume_with("300", agent);
    /* every ring move the agent chose has its search's score; the random
     * opening's actions have none */
    sqlite3 *h = db_open(k);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM action WHERE ply >= 12 AND state = 'M' AND value IS NULL"), 0);
    cr_assert_gt(db_int(h, "SELECT count(*) FROM action WHERE state = 'M' AND value IS NOT NULL"), 5000);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM action WHERE ply < 12 AND value IS NOT NULL"), 0);
    sqlite3_close(h);
}

/* A bad input: non-zero exit, a message containing `word`, and the files
 * named in `untouched` exactly as before. */
static void expect_failure(const char *dir, const char *const *args, int status, const char *word)
{
    char *out, *err;
    int rc = yinsh_run(dir, args, &out, &err);
    cr_assert_eq(rc, status, "exit %d, stderr: %s", rc, err);
    cr_assert(strstr(err, word), "stderr does not say '%s': %s", word, err);
    cr_assert_str_eq(out, "", "stdout: %s", out);
}

Test(cli, bad_inputs)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "x.db"), *err;
    const char *make[] = {"selfplay", "--games", "3", "--agent", "random", "--db", db, "--run", "one", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, make, NULL, &err), 0, "%s", err);
    char *before = run_dump(db, "one");

    /* usage errors: exit 2 */
    const char *unknown[] = {"selfplay", "--games", "3", "--frobnicate", NULL};
    expect_failure(dir, unknown, 2, "frobnicate");
    /* an abbreviation is not an option: --game is not --games */
    const char *abbrev[] = {"selfplay", "--game", "3", "--agent", "random", "--db", db, NULL};
    expect_failure(dir, abbrev, 2, "unknown option '--game'");
    /* a number with white space before it is not a number */
    const char *tabseed[] = {"selfplay", "--games", "3", "--seed", "\t-1", "--db", db, NULL};
    expect_failure(dir, tabseed, 2, "--seed");
    const char *badspec[] = {"selfplay", "--games", "3", "--white", "mcts:simz=5", "--black", "random", "--db", db, NULL};
    expect_failure(dir, badspec, 2, "simz");
    const char *oneside[] = {"selfplay", "--games", "3", "--white", "random", "--db", db, NULL};
    expect_failure(dir, oneside, 2, "--white without --black");
    const char *nogames[] = {"selfplay", "--db", db, NULL};
    expect_failure(dir, nogames, 2, "--games");
    const char *resumemix[] = {"selfplay", "--resume", "one", "--games", "5", "--db", db, NULL};
    expect_failure(dir, resumemix, 2, "--resume");

    /* an unwritable path */
    const char *nodir[] = {"selfplay", "--games", "3", "--agent", "random", "--db", "/nonexistent-dir/y.db", NULL};
    expect_failure(dir, nodir, 1, "/nonexistent-dir/y.db");
    const char *isdir[] = {"selfplay", "--games", "3", "--agent", "random", "--db", dir, NULL};
    expect_failure(dir, isdir, 1, "directory");

    /* a file that is not a database: refused and left as it was */
    char *text = path_in(dir, "notes.txt");
    FILE *f = fopen(text, "w");
    fprintf(f, "Not a database. Not a database. Not a database. Not a database. Not a database. Not a database.\n");
    fclose(f);
    char *text_before = slurp(text);
    const char *notdb[] = {"selfplay", "--games", "3", "--agent", "random", "--db", text, NULL};
    expect_failure(dir, notdb, 1, "not a database");
    char *text_after = slurp(text);
    cr_assert_str_eq(text_before, text_after);
    char *wal = path_in(dir, "notes.txt-wal");
    cr_assert_not(file_exists(wal));

    /* a run name that exists */
    const char *again[] = {"selfplay", "--games", "3", "--agent", "random", "--db", db, "--run", "one", NULL};
    expect_failure(dir, again, 1, "exists");
    /* --resume of an unknown run, in an existing and in a missing database */
    const char *unk[] = {"selfplay", "--resume", "two", "--db", db, NULL};
    expect_failure(dir, unk, 1, "two");
    char *missing = path_in(dir, "missing.db");
    const char *unk2[] = {"selfplay", "--resume", "two", "--db", missing, NULL};
    expect_failure(dir, unk2, 1, "missing.db");
    cr_assert_not(file_exists(missing));

    /* a newer schema version */
    char *newer = path_in(dir, "newer.db");
    sqlite3 *h = db_open(newer);
    sqlite3_exec(h, "PRAGMA user_version = 99", NULL, NULL, NULL);
    sqlite3_close(h);
    const char *nv[] = {"selfplay", "--games", "3", "--agent", "random", "--db", newer, NULL};
    expect_failure(dir, nv, 1, "newer");

    /* a locked database: another process holds the write lock */
    h = db_open(db);
    cr_assert_eq(sqlite3_exec(h, "BEGIN EXCLUSIVE; UPDATE run SET command = command", NULL, NULL, NULL), SQLITE_OK);
    const char *locked[] = {"selfplay", "--games", "3", "--agent", "random", "--db", db, "--run", "three",
                            "--busy-timeout", "200", NULL};
    expect_failure(dir, locked, 1, "locked");
    sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(h);

    /* nothing of all this reached the database */
    h = db_open(db);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM run"), 1);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game"), 3);
    char *ok = db_text(h, "PRAGMA integrity_check");
    cr_assert_str_eq(ok, "ok");
    sqlite3_close(h);
    char *after = run_dump(db, "one");
    cr_assert_str_eq(before, after);
}

/* The names in dir other than the out and err files of yinsh_run, joined
 * by spaces ("" when there are none). */
static char *extra_files(const char *dir)
{
    char *names = gc(calloc(1, 4096));
    DIR *d = opendir(dir);
    cr_assert(d, "%s", dir);
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, "out") &&
            strcmp(e->d_name, "err") && strlen(names) + strlen(e->d_name) + 2 < 4096) {
            if (*names) strcat(names, " ");
            strcat(names, e->d_name);
        }
    closedir(d);
    return names;
}

/* --no-db writes no file at all: the folder yinsh runs in keeps only its
 * output. Without --no-db the same command makes the default database,
 * yinsh.db, there: that is the file --no-db must not create. */
Test(cli, no_db_plays_and_stores_nothing)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *args[] = {"selfplay", "--games", "5", "--agent", "random", "--no-db", "--seed", "3", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "games        5\n"), "%s", out);
    char *extra = extra_files(dir);
    cr_assert_str_eq(extra, "", "--no-db left files: %s", extra);

    char *with = tmpdir_new();
    const char *stored[] = {"selfplay", "--games", "5", "--agent", "random", "--seed", "3", "--quiet", NULL};
    cr_assert_eq(yinsh_run(with, stored, NULL, &err), 0, "%s", err);
    cr_assert(file_nonempty(path_in(with, "yinsh.db")), "no default database in %s", with);
    cr_assert_str_eq(extra_files(with), "yinsh.db");
}

/* ---- evaluated rollouts (issue #4) -------------------------------------- */

Test(agent, eval_keys_parse_format_and_load_once)
{
    char *dir = tmpdir_new(), *w = path_in(dir, "w.txt"), err[ERR_LEN], text[SPEC_LEN];
    FILE *f = fopen(w, "w");
    fprintf(f, "# test weights\nrings_removed 2.5\ntempo 0\n");
    fclose(f);
    char spec[512];
    snprintf(spec, sizeof spec, "mcts:sims=50,eval=%s,rollout=8", w);
    AgentSpec s, back;
    cr_assert_eq(agent_spec_parse(spec, &s, err), 0, "%s", err);
    cr_assert_eq(s.mcts.rollout, 8);
    cr_assert_str_eq(s.eval, w);
    cr_assert_eq(s.weights.w[FEAT_RINGS_REMOVED], 2.5);
    cr_assert_eq(s.weights.w[FEAT_TEMPO], 0);
    Weights d;
    weights_default(&d);
    cr_assert_eq(s.weights.w[FEAT_MARKERS], d.w[FEAT_MARKERS], "unlisted features keep their default");
    char expect[512];
    snprintf(expect, sizeof expect, "mcts:sims=50,c=1,rollout=8,eval=%s", w);
    cr_assert_str_eq(agent_spec_format(&s, text), expect);
    cr_assert_eq(agent_spec_parse(text, &back, err), 0, "%s", err);
    cr_assert(!memcmp(&back.weights, &s.weights, sizeof s.weights) && back.mcts.rollout == 8);

    /* rollout=N alone uses the built-in defaults; rollout=random stays the old canonical form */
    cr_assert_eq(agent_spec_parse("mcts:sims=50,rollout=0", &s, err), 0, "%s", err);
    cr_assert_str_eq(agent_spec_format(&s, text), "mcts:sims=50,c=1,rollout=0");
    cr_assert(!memcmp(&s.weights, &d, sizeof d));
    cr_assert_eq(agent_spec_parse("mcts:sims=50,rollout=random", &s, err), 0, "%s", err);
    cr_assert_eq(s.mcts.rollout, ROLLOUT_RANDOM);
    cr_assert_str_eq(agent_spec_format(&s, text), "mcts:sims=50,c=1,rollout=random");

    /* errors name the file and the line */
    f = fopen(w, "w");
    fprintf(f, "markers 0.1\nlines3 zero\n");
    fclose(f);
    cr_assert_neq(agent_spec_parse(spec, &s, err), 0);
    cr_assert(strstr(err, w) && strstr(err, ":2:") && strstr(err, "zero"), "%s", err);
    cr_assert_neq(agent_spec_parse("mcts:rollout=4,eval=/no/such/file.txt", &s, err), 0);
    cr_assert(strstr(err, "/no/such/file.txt"), "%s", err);
    /* reading a stored spec needs no file */
    cr_assert_eq(agent_spec_parse_text("mcts:sims=9,rollout=4,eval=/no/such/file.txt", &s, err), 0, "%s", err);
    cr_assert(s.mcts.sims == 9 && s.mcts.rollout == 4 && !strcmp(s.eval, "/no/such/file.txt"));
    cr_assert_neq(agent_spec_parse("mcts:eval=eval/weights/default.txt", &s, err), 0);
    cr_assert(strstr(err, "rollout"), "%s", err);
    cr_assert_neq(agent_spec_parse("mcts:rollout=1001", &s, err), 0);
    cr_assert(strstr(err, "1001"), "%s", err);
    cr_assert_neq(agent_spec_parse("mcts:rollout=4,eval=", &s, err), 0);
    cr_assert(strstr(err, "eval"), "%s", err);
}

Test(mcts, evaluated_rollouts_search_and_are_deterministic)
{
    AgentSpec s;
    char err[ERR_LEN];
    cr_assert_eq(agent_spec_parse("mcts:sims=200,rollout=4", &s, err), 0, "%s", err);
    Position pos;
    bench_mcts_position(1, 20, &pos);
    Action first = ACTION_NONE;
    for (int rep = 0; rep < 2; rep++) {
        Agent *a;
        cr_assert_eq(agent_new(&a, &s, err), 0);
        Rng rng;
        rng_seed(&rng, 5, 5);
        MoveStats st;
        Action x = agent_choose(a, &pos, &rng, &st);
        cr_assert(movegen_is_legal(&pos, x));
        cr_assert(st.searched && st.root_visits == 200);
        cr_assert(st.value >= 0 && st.value <= 1);
        if (rep == 0) first = x;
        else cr_assert_eq(x, first);
        agent_free(a);
    }
    /* a short playout from a finished position gives its result */
    Rng rng;
    rng_seed(&rng, 1, 1);
    Weights w;
    weights_default(&w);
    Position p;
    pos_start(&p, VARIANT_STANDARD);
    double v = playout_evaluate(&p, &rng, 0, &w);
    cr_assert(v > 0 && v < 1);
    cr_assert_float_eq(v, eval_white(&w, &p), 1e-15);
}

/* The run table as versions 1 and 2 had it (version 1: without kind),
 * and as version 3 had it; game and action have not changed since
 * version 1, lease came with version 4. */
static const char RUN_V2[] = "CREATE TABLE run (id INTEGER PRIMARY KEY, uid TEXT NOT NULL UNIQUE, name TEXT NOT NULL "
                             "UNIQUE, command TEXT NOT NULL, version TEXT NOT NULL, host TEXT NOT NULL, seed INTEGER "
                             "NOT NULL, variant TEXT NOT NULL, white TEXT NOT NULL, black TEXT NOT NULL, games "
                             "INTEGER NOT NULL, threads INTEGER NOT NULL, params TEXT NOT NULL, started_at TEXT NOT "
                             "NULL, finished_at TEXT%s);";
static const char RUN_V3[] = "CREATE TABLE run (id INTEGER PRIMARY KEY, uid TEXT NOT NULL UNIQUE, name TEXT NOT NULL "
                             "UNIQUE, command TEXT NOT NULL, version TEXT NOT NULL, host TEXT NOT NULL, seed INTEGER "
                             "NOT NULL, variant TEXT NOT NULL, white TEXT NOT NULL, black TEXT NOT NULL, games "
                             "INTEGER NOT NULL, threads INTEGER NOT NULL, started_at TEXT NOT NULL, finished_at TEXT,"
                             " kind TEXT NOT NULL DEFAULT 'selfplay', pairs INTEGER NOT NULL DEFAULT 0, opening TEXT "
                             "NOT NULL DEFAULT 'none', max_actions INTEGER NOT NULL DEFAULT 1000);";

/* Cuts what schema version 8 added out of the schema's text: the column
 * action.root_value. */
static void strip_v8(char *sql)
{
    char *c = strstr(sql, "    root_value ");
    cr_assert(c);
    char *eol = strchr(c, '\n') + 1;
    memmove(c, eol, strlen(eol) + 1);
    cr_assert(!strstr(sql, "root_value"));
}

/* Cuts what schema versions 7 and 8 added out of the schema's text: the
 * column run.visits and the table action_visits (with its comment), then
 * action.root_value. */
static void strip_v7(char *sql)
{
    strip_v8(sql);
    char *c = strstr(sql, ",\n    visits ");
    cr_assert(c);
    char *eol = strchr(c + 2, '\n');
    memmove(c, eol, strlen(eol) + 1);
    char *from = strstr(sql, "-- With run.visits"), *to = strstr(sql, ") WITHOUT ROWID;\nCREATE TABLE lease");
    cr_assert(from && to && to > from);
    to += strlen(") WITHOUT ROWID;\n");
    memmove(from, to, strlen(to) + 1);
    cr_assert(!strstr(sql, "action_visits") && !strstr(sql, "    visits "));
}

/* An old database: the current schema less what later versions added
 * (the lines that name them), with the run table of its version, two runs
 * of one plan (the main job run twice) with a game each, and a match. */
static void make_old_db(const char *path, int version)
{
    char *sql = gc(strdup(store_schema_sql()));
    strip_v7(sql);
    char *run = strstr(sql, "CREATE TABLE run"), *end = strstr(run, ");\n") + 3;
    char *views = strstr(sql, "-- White's score per game"); /* version 5 */
    *views = '\0';
    char *lease = strstr(sql, "CREATE TABLE lease"); /* version 4 */
    if (version < 4) *lease = '\0';
    static const char *const LATER[] = {"run_by_plan", "game_by_ident", "    ident ", "    repeat ", /* version 5 */
                                        "    clock_us "};                                            /* version 6 */
    char rest[8192] = "";
    for (char *line = end, *next; *line; line = next) {
        next = strchr(line, '\n');
        next = next ? next + 1 : line + strlen(line);
        bool later = false;
        for (int k = 0; k < 5; k++) later |= strstr(line, LATER[k]) && strstr(line, LATER[k]) < next;
        if (!later) strncat(rest, line, (size_t)(next - line));
    }
    /* the game table's last column lost its comma's follower */
    char *comma = strstr(rest, "UNIQUE (run_id, idx)");
    cr_assert(comma);
    char table[2048], full[16384];
    if (version == 4) snprintf(table, sizeof table, "%.*s, white_weights TEXT, black_weights TEXT);",
                               (int)(strlen(RUN_V3) - 2), RUN_V3);
    else if (version == 3) snprintf(table, sizeof table, "%s", RUN_V3);
    else snprintf(table, sizeof table, RUN_V2, version >= 2 ? ", kind TEXT NOT NULL DEFAULT 'selfplay'" : "");
    snprintf(full, sizeof full, "%.*s%s%sPRAGMA user_version = %d;", (int)(run - sql), sql, table, rest, version);
    sqlite3 *db = db_open(path);
    cr_assert_eq(sqlite3_exec(db, full, NULL, NULL, NULL), SQLITE_OK, "%s\n%s", sqlite3_errmsg(db), full);
    const char *v3 = "INSERT INTO run (uid, name, command, version, host, seed, variant, white, black, games, "
                     "threads, started_at, pairs, opening) VALUES ('u', 'old', 'c', '0.1', 'h', 1, 'standard', "
                     "'random', 'random', 2, 1, 'now', 0, 'none'), ('v', 'pairs', 'c', '0.1', 'h', 2, 'blitz', "
                     "'random', 'random', 4, 1, 'now', 1, 'rings'), ('w', 'old2', 'c', '0.1', 'h', 1, 'standard', "
                     "'random', 'random', 2, 1, 'now', 0, 'none')";
    cr_assert_eq(sqlite3_exec(db, version >= 3 ? v3 :
                              "INSERT INTO run (uid, name, command, version, host, seed, variant, white, black, "
                              "games, threads, params, started_at) VALUES ('u', 'old', 'c', '0.1', 'h', 1, "
                              "'standard', 'random', 'random', 2, 1, 'game_max_plies=1000,playout_max_plies=1000', "
                              "'now'), ('v', 'pairs', 'c', '0.1', 'h', 2, 'blitz', 'random', 'random', 4, 1, "
                              "'game_max_plies=1000,playout_max_plies=1000,pairs=1,opening=rings', 'now'), "
                              "('w', 'old2', 'c', '0.1', 'h', 1, 'standard', 'random', 'random', 2, 1, "
                              "'game_max_plies=1000,playout_max_plies=1000', 'now')",
                              NULL, NULL, NULL),
                 SQLITE_OK, "%s", sqlite3_errmsg(db));
    cr_assert_eq(sqlite3_exec(db,
                              "INSERT INTO game (run_id, idx, seed, variant, white, black, result, reason, actions, "
                              "white_removed, black_removed, white_markers, black_markers, duration_ms, stored_at) "
                              "SELECT id, 0, 1, 'standard', 'random', 'random', 'white', 'pool-empty', 0, 0, 0, 0, 0, "
                              "1, 'now' FROM run WHERE name IN ('old', 'old2') ORDER BY id",
                              NULL, NULL, NULL),
                 SQLITE_OK, "%s", sqlite3_errmsg(db));
    sqlite3_close(db);
}

Test(store, upgrades_old_versions_in_place)
{
    for (int version = 1; version < 5; version++) {
        char *dir = tmpdir_new(), *path = path_in(dir, "old.db"), err[ERR_LEN];
        make_old_db(path, version);
        Store *s;
        cr_assert_eq(store_open(&s, path, STORE_WRITE, 1000, err), 0, "%s", err);
        StoreRun run;
        cr_assert_eq(store_run_get(s, "old", &run, err), 0, "%s", err);
        cr_assert_str_eq(run.kind, "selfplay");
        cr_assert_not(run.pairs);
        cr_assert_eq(run.opening, OPENING_NONE);
        cr_assert_eq(store_run_get(s, "pairs", &run, err), 0, "%s", err);
        cr_assert(run.pairs);
        cr_assert_eq(run.opening, OPENING_RINGS);
        cr_assert_eq(run.variant, VARIANT_BLITZ);
        store_close(s);
        sqlite3 *db = db_open(path);
        cr_assert_eq(db_int(db, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
        cr_assert_str_eq(db_text(db, "SELECT kind FROM run WHERE name = 'old'"), "selfplay");
        cr_assert_eq(db_int(db, "SELECT count(*) FROM pragma_table_info('run') WHERE name = 'params'"), 0);
        cr_assert_eq(db_int(db, "SELECT count(*) FROM pragma_table_info('lease')"), 5);
        /* identities filled in: the second copy of the twice-stored game is a repeat */
        cr_assert_eq(db_int(db, "SELECT count(*) FROM run WHERE plan_ident IS NULL"), 0);
        cr_assert_eq(db_int(db, "SELECT count(DISTINCT plan_ident) FROM run"), 2);
        cr_assert_eq(db_int(db, "SELECT count(*) FROM game WHERE ident IS NULL"), 0);
        cr_assert_eq(db_int(db, "SELECT count(DISTINCT ident) FROM game"), 1);
        cr_assert_eq(db_int(db, "SELECT g.repeat FROM game g JOIN run r ON r.id = g.run_id WHERE r.name = 'old2'"), 1);
        cr_assert_eq(db_int(db, "SELECT g.repeat FROM game g JOIN run r ON r.id = g.run_id WHERE r.name = 'old'"), 0);
        cr_assert_eq(db_int(db, "SELECT repeat_of = (SELECT id FROM run WHERE name = 'old') FROM run WHERE name = "
                                "'old2'"), 1);
        cr_assert_eq(db_int(db, "SELECT stored FROM run_summary WHERE run = 'old2'"), 0);
        /* the upgraded table has the shape of a new one, column for column */
        char *cols = db_text(db, "SELECT group_concat(name || ' ' || type || ' ' || \"notnull\" || ' ' || "
                                 "coalesce(dflt_value, ''), '|') FROM pragma_table_info('run')");
        sqlite3_close(db);
        char *fresh = path_in(dir, "fresh.db");
        db = db_open(fresh);
        cr_assert_eq(sqlite3_exec(db, store_schema_sql(), NULL, NULL, NULL), SQLITE_OK);
        cr_assert_str_eq(cols, db_text(db, "SELECT group_concat(name || ' ' || type || ' ' || \"notnull\" || ' ' || "
                                           "coalesce(dflt_value, ''), '|') FROM pragma_table_info('run')"));
        sqlite3_close(db);
        /* opening it again changes nothing */
        cr_assert_eq(store_open(&s, path, STORE_WRITE, 1000, err), 0, "%s", err);
        store_close(s);
    }
}

/* The columns of a table, as pragma_table_info gives them. */
static char *table_shape(sqlite3 *db, const char *table)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT group_concat(name || ' ' || type || ' ' || \"notnull\" || ' ' || "
                              "coalesce(dflt_value, ''), '|') FROM pragma_table_info('%s')", table);
    return db_text(db, sql);
}

/* Version 5 -> 6: run.controls and action.clock_us are added; earlier runs
 * keep their identity and have no controls, earlier actions no clock. */
Test(store, upgrades_version_5)
{
    char *dir = tmpdir_new(), *path = path_in(dir, "v5.db"), err[ERR_LEN];
    char *sql = gc(strdup(store_schema_sql()));
    strip_v7(sql);
    /* the version-5 schema: the version-6 one without its two new columns */
    char *c = strstr(sql, ",\n    controls");
    cr_assert(c);
    memmove(c, strchr(c + 2, '\n'), strlen(strchr(c + 2, '\n')) + 1);
    c = strstr(sql, "    clock_us");
    cr_assert(c);
    memmove(c, strchr(c, '\n') + 1, strlen(strchr(c, '\n') + 1) + 1);
    c = strstr(sql, "PRAGMA user_version = 8");
    cr_assert(c);
    c[22] = '5';
    sqlite3 *db = db_open(path);
    cr_assert_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK, "%s", sqlite3_errmsg(db));
    cr_assert_eq(sqlite3_exec(db,
                              "INSERT INTO run (uid, name, command, version, host, seed, variant, white, black, "
                              "games, threads, started_at, plan_ident) VALUES ('u', 'old', 'c', '0.1', 'h', 1, "
                              "'standard', 'random', 'random', 2, 1, 'now', 'abc');"
                              "INSERT INTO game (run_id, idx, seed, variant, white, black, result, reason, actions, "
                              "white_removed, black_removed, white_markers, black_markers, duration_ms, stored_at) "
                              "VALUES (1, 0, 1, 'standard', 'random', 'random', 'white', 'pool-empty', 1, 0, 0, 0, 0, "
                              "1, 'now');"
                              "INSERT INTO action (game_id, ply, actor, state, action, legal, time_us) VALUES "
                              "(1, 0, 'w', 'P', 'e5', 85, 3)",
                              NULL, NULL, NULL),
                 SQLITE_OK, "%s", sqlite3_errmsg(db));
    sqlite3_close(db);
    Store *s;
    cr_assert_eq(store_open(&s, path, STORE_WRITE, 1000, err), 0, "%s", err);
    StoreRun run;
    cr_assert_eq(store_run_get(s, "old", &run, err), 0, "%s", err);
    cr_assert_str_eq(run.controls, "");
    cr_assert_str_eq(run.plan_ident, "abc");
    store_close(s);
    db = db_open(path);
    cr_assert_eq(db_int(db, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
    cr_assert_eq(db_int(db, "SELECT count(*) FROM action WHERE clock_us IS NULL"), 1);
    char *run_cols = table_shape(db, "run"), *action_cols = table_shape(db, "action");
    sqlite3_close(db);
    db = db_open(path_in(dir, "fresh.db"));
    cr_assert_eq(sqlite3_exec(db, store_schema_sql(), NULL, NULL, NULL), SQLITE_OK);
    cr_assert_str_eq(run_cols, table_shape(db, "run"));
    cr_assert_str_eq(action_cols, table_shape(db, "action"));
    sqlite3_close(db);
}

/* The agent of an action row (a is action, g its game), in SQL. */
#define ROW_AGENT "CASE a.actor WHEN 'w' THEN g.white ELSE g.black END"

/* action.root_value (schema 8): the searched position's value for the
 * actor beside the chosen action's. An MCTS row has one where it has a
 * value, in [0, 1], in general not the chosen child's; the two are one
 * number where every root visit went through the chosen child (one
 * simulation from a fresh root); alpha-beta's is its value (its score is
 * the root's); a random agent's and MCTS's forced actions' are NULL. */
Test(store, root_value_is_stored_for_searched_actions)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "r.db"), *err;
    const char *mixed[] = {"selfplay", "--games", "2", "--white", "mcts:sims=50", "--black", "ab:depth=1",
                           "--seed", "3", "--db", db, "--run", "mixed", "--threads", "1", "--quiet", NULL};
    const char *one[] = {"selfplay", "--games", "2", "--white", "random", "--black", "mcts:sims=1", "--seed", "4",
                         "--db", db, "--run", "one", "--threads", "1", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, mixed, NULL, &err), 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, one, NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(db);
    const char *from = " FROM action a JOIN game g ON g.id = a.game_id JOIN run r ON r.id = g.run_id WHERE ";
    char sql[512];
#define COUNT(cond) (snprintf(sql, sizeof sql, "SELECT count(*)%s%s", from, cond), db_int(h, sql))
    cr_assert_gt(COUNT(ROW_AGENT " LIKE 'mcts:sims=50,%' AND a.value IS NOT NULL"), 50);
    cr_expect_eq(COUNT("(a.root_value IS NULL) != (a.value IS NULL)"), 0, "a root value without a value, or not");
    cr_expect_eq(COUNT("a.root_value < 0 OR a.root_value > 1"), 0);
    cr_expect_gt(COUNT(ROW_AGENT " LIKE 'mcts:%' AND a.root_value != a.value"), 20);
    cr_expect_eq(COUNT(ROW_AGENT " LIKE 'mcts:%' AND a.root_visits = a.chosen_visits AND a.root_value != a.value"), 0);
    cr_expect_gt(COUNT(ROW_AGENT " LIKE 'mcts:sims=1,%' AND a.root_visits = 1"), 10);
    cr_expect_gt(COUNT(ROW_AGENT " LIKE 'ab:%' AND a.value IS NOT NULL"), 20);
    cr_expect_eq(COUNT(ROW_AGENT " LIKE 'ab:%' AND a.root_value IS NOT a.value"), 0);
    cr_expect_gt(COUNT(ROW_AGENT " = 'random'"), 20);
    cr_expect_eq(COUNT(ROW_AGENT " = 'random' AND a.root_value IS NOT NULL"), 0);
    cr_expect_gt(COUNT(ROW_AGENT " LIKE 'mcts:%' AND a.legal = 1"), 0);
    cr_expect_eq(COUNT(ROW_AGENT " LIKE 'mcts:%' AND a.legal = 1 AND a.root_value IS NOT NULL"), 0,
                 "a forced action has a root value");
#undef COUNT
    sqlite3_close(h);
}

/* `yinsh positions` ends every format with the root value, after the
 * fields it had before: the last column of csv (named root_value) and of
 * ypn (after the visits), the last 4 bytes of each .npy record (float32,
 * after the policy and the mask when asked for; NaN where none is
 * stored), each the action's stored root_value. */
Test(positions, root_value_is_each_records_last)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "p.db"), *err;
    const char *play[] = {"selfplay", "--games", "2", "--white", "mcts:sims=30", "--black", "random", "--seed", "8",
                          "--db", db, "--run", "p", "--threads", "1", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, play, NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(db);
    long long n = db_int(h, "SELECT count(*) FROM action");
    double *want = gc(calloc((size_t)n, sizeof *want));
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(h, "SELECT a.root_value FROM action a JOIN game g ON g.id = a.game_id ORDER BY "
                                       "g.idx, a.ply", -1, &st, NULL), SQLITE_OK);
    for (long long k = 0; k < n; k++) {
        cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
        want[k] = sqlite3_column_type(st, 0) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 0);
    }
    sqlite3_finalize(st);
    sqlite3_close(h);
    int stored = 0;
    for (long long k = 0; k < n; k++) stored += !isnan(want[k]);
    cr_assert(stored > 20 && stored < n, "%d of %lld", stored, n);

    const char *formats[] = {"csv", "ypn"};
    for (int f = 0; f < 2; f++) {
        char *out = path_in(dir, formats[f]);
        const char *args[] = {"positions", "--db", db, "--out", out, "--format", formats[f], "--quiet", NULL};
        cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
        char *text = slurp(out), *line = text, sep = f ? '\t' : ',';
        if (!f) {
            cr_assert(!strncmp(text, "run,index,ply,ypn,actor,state,action,action_index,legal,searched,value,"
                                     "root_visits,chosen_visits,result,z,visits,root_value\n", 124), "%.200s", text);
            line = strchr(text, '\n') + 1;
        }
        long long k = 0;
        for (char *next; *line; line = next, k++) {
            next = strchr(line, '\n') + 1;
            char *last = memrchr(line, sep, (size_t)(next - line)) + 1;
            cr_assert_lt(k, n);
            if (isnan(want[k])) cr_expect_eq(last, next - 1, "%s line %lld: %.300s", formats[f], k, line);
            else cr_expect_eq(strtod(last, NULL), want[k], "%s line %lld: %.300s", formats[f], k, line);
        }
        cr_expect_eq(k, n);
    }

    /* the planes: plain, and with the policy and the mask before it */
    const char *plain[] = {"positions", "--db", db, "--out", "a.npy", "--format", "planes", "--quiet", NULL};
    const char *extras[] = {"positions", "--db", db, "--out", "b.npy", "--format", "planes", "--policy",
                            "--mask", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, plain, NULL, &err), 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, extras, NULL, &err), 0, "%s", err);
    const long len[2] = {2083 + 4, 2083 + 4 * 2142 + 268 + 4};
    const char *files[2] = {"a.npy", "b.npy"};
    for (int f = 0; f < 2; f++) {
        FILE *in = fopen(path_in(dir, files[f]), "rb");
        cr_assert(in);
        unsigned char head[10];
        cr_assert_eq(fread(head, 1, 10, in), 10);
        int hlen = head[8] | head[9] << 8;
        char *dict = gc(calloc(1, (size_t)hlen + 1));
        cr_assert_eq(fread(dict, 1, (size_t)hlen, in), (size_t)hlen);
        cr_expect(strstr(dict, "('root_value', '<f4')]"), "%s", dict);
        unsigned char *rec = gc(malloc((size_t)len[f]));
        for (long long k = 0; k < n; k++) {
            cr_assert_eq(fread(rec, 1, (size_t)len[f], in), (size_t)len[f], "%s record %lld", files[f], k);
            float got;
            memcpy(&got, rec + len[f] - 4, sizeof got); /* little-endian, as this machine */
            if (isnan(want[k])) cr_expect(isnan(got), "%s record %lld: %f", files[f], k, got);
            else cr_expect_eq(got, (float)want[k], "%s record %lld", files[f], k);
        }
        cr_expect_eq(fgetc(in), EOF);
        fclose(in);
    }
}

/* A version-7 database (the schema without action.root_value) is read
 * as it is (reading never upgrades; no root values) and upgraded in place
 * by the next writer: every earlier row keeps its values and has NULL,
 * the action table has a new database's shape, the new run's rows have
 * their root values, and a reader opened before the upgrade reads them. */
Test(store, version_7_is_upgraded_in_place)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "v7.db"), *err, why[ERR_LEN];
    const char *args[] = {"selfplay", "--games", "2", "--agent", "mcts:sims=20", "--seed", "1", "--db", db,
                          "--run", "old", "--quiet", "--store-visits", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(db);
    cr_assert_eq(sqlite3_exec(h, "ALTER TABLE action DROP COLUMN root_value; PRAGMA user_version = 7", NULL, NULL,
                              NULL),
                 SQLITE_OK, "%s", sqlite3_errmsg(h));
    const char *rows = "SELECT group_concat(x, ' ') FROM (SELECT game_id || '/' || ply || '/' || actor || state || "
                       "action || '/' || legal || '/' || quote(root_visits) || '/' || quote(chosen_visits) || '/' || "
                       "CASE WHEN value IS NULL THEN 'NULL' ELSE printf('%.17g', value) END || '/' || time_us || '/' || quote(clock_us) AS x "
                       "FROM action WHERE game_id IN (SELECT g.id FROM game g JOIN run r ON r.id = g.run_id WHERE "
                       "r.name = 'old') ORDER BY game_id, ply)";
    char *before = db_text(h, rows);
    long long visits = db_int(h, "SELECT count(*) FROM action_visits");
    cr_assert_gt(strlen(before), 1000);
    sqlite3_close(h);

    /* reading never upgrades: the positions have no root values */
    char *csv = path_in(dir, "p.csv");
    const char *pos[] = {"positions", "--db", db, "--out", csv, "--format", "csv", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, pos, NULL, &err), 0, "%s", err);
    char *text = slurp(csv);
    cr_assert(strstr(text, ",visits,root_value\n"), "%.200s", text);
    for (char *line = strchr(text, '\n') + 1; *line; line = strchr(line, '\n') + 1)
        cr_assert_eq(strchr(line, '\n')[-1], ',', "a root value read from version 7: %.300s", line);
    h = db_open(db);
    cr_assert_eq(db_int(h, "PRAGMA user_version"), 7);
    sqlite3_close(h);
    Store *s;
    cr_assert_eq(store_open(&s, db, STORE_READ, STORE_BUSY_MS, why), 0, "%s", why);

    const char *more[] = {"selfplay", "--games", "2", "--agent", "mcts:sims=20", "--seed", "2", "--db", db,
                          "--run", "new", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, more, NULL, &err), 0, "%s", err);
    h = db_open(db);
    cr_expect_eq(db_int(h, "PRAGMA user_version"), 8);
    cr_expect_str_eq(db_text(h, rows), before, "an earlier action row changed");
    cr_expect_eq(db_int(h, "SELECT count(*) FROM action_visits"), visits);
    cr_expect_eq(db_int(h, "SELECT count(root_value) FROM action a JOIN game g ON g.id = a.game_id JOIN run r ON "
                           "r.id = g.run_id WHERE r.name = 'old'"),
                 0);
    cr_expect_gt(db_int(h, "SELECT count(root_value) FROM action"), 40);
    cr_expect_eq(db_int(h, "SELECT count(*) FROM action WHERE (root_value IS NULL) != (value IS NULL) AND game_id "
                           "IN (SELECT g.id FROM game g JOIN run r ON r.id = g.run_id WHERE r.name = 'new')"),
                 0);
    char *shape = table_shape(h, "action");
    sqlite3_close(h);
    h = db_open(path_in(dir, "fresh.db"));
    cr_assert_eq(sqlite3_exec(h, store_schema_sql(), NULL, NULL, NULL), SQLITE_OK);
    cr_expect_str_eq(shape, table_shape(h, "action"));
    sqlite3_close(h);

    /* the reader opened on version 7 reads the new run's root values */
    const char *runs[] = {"new"};
    StoreSelection sel = {.runs = runs, .nruns = 1};
    StoreCursor *c;
    const StoreCursorGame *g;
    cr_assert_eq(store_cursor_open(s, &sel, &c, why), 0, "%s", why);
    cr_assert_eq(store_cursor_next(c, &g, why), 0, "%s", why);
    cr_assert_not_null(g);
    int with = 0;
    for (int i = 0; i < g->text.nactions; i++) {
        cr_expect_eq(g->acts[i].searched, !isnan(g->acts[i].root_value), "action %d", i);
        with += !isnan(g->acts[i].root_value);
    }
    cr_expect_gt(with, 20);
    store_cursor_close(c);
    store_close(s);
}

Test(mcts, zeroed_config_is_the_random_playout_agent)
{
    /* a config that names only sims and c plays out to the end, as
     * mcts:sims=N,rollout=random does (the bench relies on it) */
    MctsConfig cfg = {.sims = 300, .c = 1.0};
    Mcts *m = new_mcts(&cfg);
    AgentSpec s;
    char err[ERR_LEN];
    cr_assert_eq(agent_spec_parse("mcts:sims=300,rollout=random", &s, err), 0, "%s", err);
    Agent *a;
    cr_assert_eq(agent_new(&a, &s, err), 0);
    Position pos;
    bench_mcts_position(1, 7, &pos);
    Rng r1, r2;
    rng_seed(&r1, 3, 3);
    rng_seed(&r2, 3, 3);
    MctsResult res;
    MoveStats st;
    Action x = mcts_search(m, &pos, &r1, &res), y = agent_choose(a, &pos, &r2, &st);
    cr_assert_eq(x, y);
    cr_assert(res.chosen_visits == st.chosen_visits && res.value == st.value);
    cr_assert_eq(r1.state, r2.state, "the same random draws");
    mcts_free(m);
    agent_free(a);
}

/* External engine specs (agent.h): escapes survive the round trip, the
 * canonical order is name, cmd, dir, options, and bad fields are refused. */
Test(agent, uyi_specs)
{
    AgentSpec a, b;
    char err[ERR_LEN], fa[SPEC_LEN], fb[SPEC_LEN];
    cr_assert_eq(agent_spec_parse("uyi:option.seed=3;cmd=./eng a\\;b \\\\ c,d;dir=/tmp;name=x y", &a, err), 0, "%s",
                 err);
    cr_assert(agent_spec_external(&a));
    cr_assert_str_eq(a.external.cmd, "./eng a;b \\ c,d");
    cr_assert_str_eq(a.external.name, "x y");
    cr_assert_eq(a.external.noptions, 1);
    cr_assert_str_eq(agent_spec_format(&a, fa), "uyi:name=x y;cmd=./eng a\\;b \\\\ c,d;dir=/tmp;option.seed=3");
    cr_assert_eq(agent_spec_parse(fa, &b, err), 0, "%s", err);
    cr_assert_str_eq(agent_spec_format(&b, fb), fa);
    cr_assert_str_eq(agent_spec_format(&(AgentSpec){0}, fb), "random"); /* kinds apart */
    /* options keep their order, and each its value */
    cr_assert_eq(agent_spec_parse("uyi:cmd=e;option.Hash=64;option.b=;option.Threads=2", &a, err), 0, "%s", err);
    cr_assert_eq(a.external.noptions, 3);
    const char *k, *v;
    uyi_engine_option(&a.external, 1, &k, &v);
    cr_assert(!strcmp(k, "b") && !strcmp(v, ""), "%s=%s", k, v);
    uyi_engine_option(&a.external, 2, &k, &v);
    cr_assert(!strcmp(k, "Threads") && !strcmp(v, "2"), "%s=%s", k, v);
    cr_assert_str_eq(agent_spec_format(&a, fa), "uyi:name=engine;cmd=e;option.Hash=64;option.b=;option.Threads=2");
    static const char *const bad[] = {"uyi", "uyi:", "uyi:name=x", "uyi:cmd=", "uyi:cmd=x;colour=red",
                                      "uyi:cmd=x;option.a b=1", "uyi:cmd=x;name=",
                                      "uyi:cmd=x;option.a=1\nquit"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = '\0';
        cr_assert_neq(agent_spec_parse(bad[i], &a, err), 0, "%s accepted", bad[i]);
        cr_assert(err[0], "%s: no message", bad[i]);
    }
}

/* A run in words and its tally, as `yinsh selfplay` and the planned runs
 * show them (run_describe, run_tally); one process, no MPI ranks. */
Test(run, describes_itself_and_its_tally)
{
    Run r = {.db = "x.db", .plan = {.seed = 5, .variant = VARIANT_BLITZ, .games = 4, .threads = 1}, .ntodo = 3};
    snprintf(r.row.name, sizeof r.row.name, "r1");
    snprintf(r.row.white, sizeof r.row.white, "random");
    snprintf(r.row.black, sizeof r.row.black, "mcts");
    char *text = NULL, tally[128];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert(f);
    run_describe(f, &r);
    fclose(f);
    cr_expect_str_eq(text, "run r1, seed 5, blitz, random vs mcts, 4 games (3 to play), 1 thread");
    free(text);
    r.sum.wins[RESULT_WHITE] = 3;
    r.sum.wins[RESULT_BLACK] = 2;
    r.sum.wins[RESULT_DRAW] = 1;
    cr_expect_str_eq(run_tally(&r.sum, tally, sizeof tally), "W 3 B 2 D 1");
}
