#define _GNU_SOURCE /* nftw, in test_proc.h */
/* MCTS and its playouts (selfplay/search/): a playout reaches the end; a
 * search legal and counting its visits, on one thread and tree-parallel;
 * the winning move found; the solver proving a win and avoiding a proven
 * loss; the prior and the rows policy; the arena's bound, tree reuse, the
 * root's value; the tree check catching broken trees; evaluated rollouts;
 * a zeroed config as the random-playout agent. */
#include <math.h>
#include "engine/movegen.h"
#include "engine/notation.h"
#include "selfplay/agents/agent.h"
#include "selfplay/play/bench.h"
#include "selfplay/search/mcts.h"
#include "selfplay/search/mcts_tree.h"
#include "selfplay/search/playout.h"
#include "tests/test_proc.h"

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
