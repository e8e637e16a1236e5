/* The alpha-beta searcher (selfplay/search/ab.h) and its agent spec: rulebook
 * situations it must see (a win in one, an immediate loss to avoid), its
 * spec's parsing, determinism at a fixed depth, legal actions throughout,
 * and a deadline that has passed. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "selfplay/search/ab.h"
#include "eval/nnue.h"
#include "engine/base/clock.h"
#include "selfplay/agents/agent.h"
#include "engine/movegen.h"
#include "engine/notation.h"

static Position parse(const char *ypn)
{
    Position p;
    char err[ERR_LEN];
    cr_assert_eq(ypn_parse(ypn, &p, err), 0, "%s: %s", ypn, err);
    return p;
}

static Ab *new_ab(int depth)
{
    AbConfig cfg = {.depth = depth, .tt_mb = 1};
    weights_default(&cfg.weights);
    Ab *ab;
    char err[ERR_LEN];
    cr_assert_eq(ab_new(&ab, &cfg, err), 0, "%s", err);
    return ab;
}

/* White has removed two rings (three left) and has markers c2..c5 under
 * its ring c6: any move of the ring c6 that does not jump back down column
 * c leaves a marker on c6, makes the row c2..c6, and White removes it and
 * a third ring: a win. Depth 1 must see it (removals cost no depth). */
#define WIN_IN_ONE "4/7/1wwwwW2/9/W9/9/W9/B7B/B7/B6/B3 w M standard"

Test(ab, finds_a_win_in_one)
{
    Position p = parse(WIN_IN_ONE);
    for (int depth = 1; depth <= 3; depth++) {
        Ab *ab = new_ab(depth);
        AbResult r;
        Position q = p;
        Action a = ab_search(ab, &q, NULL, &r);
        cr_assert(movegen_is_legal(&q, a));
        cr_expect_geq(r.score, AB_WIN_BOUND, "depth %d: score %d is not a win", depth, r.score);
        /* play it out with the searcher: White removes the row and a third ring */
        int result = RESULT_NONE, reason;
        for (int k = 0; k < 4 && !pos_outcome(&q, &result, &reason); k++) {
            Undo u;
            pos_make(&q, a, &u);
            if (pos_outcome(&q, &result, &reason)) break;
            cr_assert_eq(q.actor, WHITE, "depth %d: the win needs White's own actions only", depth);
            a = ab_search(ab, &q, NULL, NULL);
        }
        cr_expect_eq(result, RESULT_WHITE, "depth %d: White did not win", depth);
        cr_expect_eq(reason, REASON_THREE_RINGS);
        ab_free(ab);
    }
}

/* Black has removed two rings and threatens g3..g7: markers g3..g6 under
 * its ring g7, which leaves a marker on g7 whenever it moves. White (no
 * row in sight) must flip one of g3..g6 now, or lose. */
#define THREAT "W3/W6/W7/W8/10/2W6/1bbbbB4/9/8/6B/B3 w M standard"

/* Whether Black, to act after White's action a, can make a row at once. */
static bool black_rows_next(const Position *p, Action a)
{
    Position q = *p;
    Undo u;
    pos_make(&q, a, &u);
    Action list[MAX_ACTIONS];
    int n = movegen_all(&q, list);
    for (int i = 0; i < n; i++) {
        Position r = q;
        pos_make(&r, list[i], &u);
        if (pos_has_row(&r, BLACK)) return true;
    }
    return false;
}

Test(ab, avoids_an_immediate_loss)
{
    Position p = parse(THREAT);
    Action list[MAX_ACTIONS];
    int n = movegen_all(&p, list), losing = 0;
    for (int i = 0; i < n; i++) losing += black_rows_next(&p, list[i]);
    cr_assert(losing > 0 && losing < n, "the position should offer both: %d losing of %d", losing, n);
    for (int depth = 2; depth <= 3; depth++) {
        Ab *ab = new_ab(depth);
        AbResult r;
        Action a = ab_search(ab, &p, NULL, &r);
        char s[16];
        cr_expect_not(black_rows_next(&p, a), "depth %d plays %s, which lets Black make the row", depth,
                      action_format(a, s));
        cr_expect_gt(r.score, -AB_WIN_BOUND, "depth %d: a block exists, yet scored lost", depth);
        ab_free(ab);
    }
    /* depth 1 does not look at Black's reply, but the line ends when the loss
     * is certain: after any losing move, Black's search finds its win */
    Ab *ab = new_ab(2);
    for (int i = 0; i < n; i++) {
        if (!black_rows_next(&p, list[i])) continue;
        Position q = p;
        Undo u;
        pos_make(&q, list[i], &u);
        AbResult r;
        ab_search(ab, &q, NULL, &r);
        cr_expect_geq(r.score, AB_WIN_BOUND, "Black misses its win after White's losing move");
        break;
    }
    ab_free(ab);
}

Test(ab_spec, parses_formats_and_refuses)
{
    AgentSpec s;
    char err[ERR_LEN], out[SPEC_LEN];
    cr_assert_eq(agent_spec_parse("ab", &s, err), 0, "%s", err);
    cr_expect_str_eq(agent_spec_kind_name(&s), "ab");
    cr_expect_eq(s.ab.depth, AB_DEFAULT_DEPTH);
    cr_expect_eq(s.ab.tt_mb, AB_DEFAULT_TT_MB);
    cr_expect_str_eq(agent_spec_format(&s, out), "ab:depth=3,tt=16");
    cr_assert_eq(agent_spec_parse("ab:tt=2,depth=5,eval=" YINSH_SOURCE_DIR "/eval/weights/tuned.txt", &s, err), 0,
                 "%s", err);
    cr_expect_str_eq(agent_spec_format(&s, out), "ab:depth=5,tt=2,eval=" YINSH_SOURCE_DIR "/eval/weights/tuned.txt");
    Weights tuned;
    cr_assert_eq(weights_load(YINSH_SOURCE_DIR "/eval/weights/tuned.txt", &tuned, err), 0, "%s", err);
    cr_expect_eq(weights_hash(&s.weights), weights_hash(&tuned));
    AgentSpec back;
    cr_assert_eq(agent_spec_parse(out, &back, err), 0, "%s", err);
    cr_expect_eq(back.ab.depth, 5);
    cr_expect_eq(back.ab.tt_mb, 2);

    cr_assert_eq(agent_spec_set(&s, "depth", "7", err), 0, "%s", err);
    cr_expect_eq(s.ab.depth, 7);
    cr_expect_neq(agent_spec_set(&s, "sims", "7", err), 0);
    cr_expect(strstr(err, "sims"), "%s", err);

    struct {
        const char *spec, *word;
    } bad[] = {
        {"ab:depth=0", "depth"},   {"ab:depth=65", "depth"}, {"ab:depth=x", "x"},
        {"ab:tt=0", "tt"},         {"ab:tt=5000", "tt"},     {"ab:sims=10", "sims"},
        {"ab:depth", "depth"},     {"ab:eval=", "eval"},     {"ab:rollout=4", "rollout"},
        {"abc", "abc"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_neq(agent_spec_parse(bad[i].spec, &s, err), 0, "%s accepted", bad[i].spec);
        cr_assert(strstr(err, bad[i].word), "%s: message '%s' does not name '%s'", bad[i].spec, err, bad[i].word);
    }
    cr_expect_eq(agent_spec_parse("ab:eval=/nonexistent/w.txt", &s, err), ERR_FAIL);
    cr_expect(strstr(err, "/nonexistent/w.txt"), "%s", err);
}

/* Plays a whole game between an ab agent and a random one; every action
 * legal; returns the actions' hash. */
static uint64_t play(const char *spec_text, uint64_t seed)
{
    AgentSpec spec, rnd;
    char err[ERR_LEN];
    cr_assert_eq(agent_spec_parse(spec_text, &spec, err), 0, "%s", err);
    cr_assert_eq(agent_spec_parse("random", &rnd, err), 0, "%s", err);
    Agent *a, *b;
    cr_assert_eq(agent_new(&a, &spec, err), 0, "%s", err);
    cr_assert_eq(agent_new(&b, &rnd, err), 0, "%s", err);
    Position p;
    pos_start(&p, VARIANT_STANDARD);
    Rng rng;
    rng_seed(&rng, seed, 1);
    uint64_t h = 0;
    int result, reason, k = 0;
    while (!pos_outcome(&p, &result, &reason) && k++ < GAME_MAX_ACTIONS) {
        MoveStats st;
        Action x = agent_choose(p.actor == WHITE ? a : b, &p, &rng, &st);
        cr_assert(movegen_is_legal(&p, x), "illegal action at ply %d", k);
        if (p.actor == WHITE) {
            cr_assert(st.searched);
            cr_assert(st.value >= 0 && st.value <= 1);
        }
        agent_observe(a, &p, x);
        agent_observe(b, &p, x);
        h = h * 1000003 + x;
        Undo u;
        pos_make(&p, x, &u);
    }
    cr_expect_eq(pos_check(&p, err), 0, "%s", err);
    agent_free(a);
    agent_free(b);
    return h;
}

Test(ab, deterministic_at_fixed_depth_and_legal)
{
    uint64_t h1 = play("ab:depth=2,tt=1", 7), h2 = play("ab:depth=2,tt=1", 7);
    cr_expect_eq(h1, h2, "two games from one seed differ");
    cr_expect_neq(play("ab:depth=2,tt=1", 8), h1, "another seed, another game (random's choices)");
}

Test(ab, a_passed_deadline_still_gives_depth_one)
{
    Position p = parse(WIN_IN_ONE);
    Ab *ab = new_ab(10);
    SearchLimits lim = {.deadline = 1e-9}; /* long past */
    AbResult r;
    Action a = ab_search(ab, &p, &lim, &r);
    cr_expect(movegen_is_legal(&p, a));
    cr_expect_geq(r.depth, 1);
    cr_expect_geq(r.score, AB_WIN_BOUND, "depth 1 sees the win");
    /* the stop flag too */
    atomic_bool stop;
    atomic_init(&stop, true);
    lim = (SearchLimits){.stop = &stop};
    Position s;
    pos_start(&s, VARIANT_STANDARD);
    a = ab_search(ab, &s, &lim, &r);
    cr_expect(movegen_is_legal(&s, a));
    cr_expect_eq(r.depth, 1);
    cr_expect_gt(ab_pv(ab, &a, 1), 0);
    ab_free(ab);
}

/* movetime=MS, both searchers' key: parsed, written last and only when
 * set, refused out of range; `best:KEY=VALUE` is best with those keys. */
Test(agent_spec, movetime_and_best_with_keys)
{
    AgentSpec s;
    char err[ERR_LEN], out[SPEC_LEN];
    cr_assert_eq(agent_spec_parse("ab:movetime=25,depth=64", &s, err), 0, "%s", err);
    cr_expect_eq(s.movetime_ms, 25);
    cr_expect_str_eq(agent_spec_format(&s, out), "ab:depth=64,tt=16,movetime=25");
    cr_assert_eq(agent_spec_parse("mcts:movetime=400,sims=10000000", &s, err), 0, "%s", err);
    cr_expect_str_eq(agent_spec_format(&s, out), "mcts:sims=10000000,c=1,rollout=random,movetime=400");
    AgentSpec back;
    cr_assert_eq(agent_spec_parse(out, &back, err), 0, "%s", err);
    cr_expect_eq(back.movetime_ms, 400);
    cr_assert_eq(agent_spec_parse("mcts", &s, err), 0, "%s", err);
    cr_expect_str_eq(agent_spec_format(&s, out), "mcts:sims=200,c=1,rollout=random", "unset: the old text");
    const char *bad[] = {"ab:movetime=0", "mcts:movetime=-5", "ab:movetime=86400001", "mcts:movetime=1.5",
                         "best:movetime=x", "best:sims=5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_neq(agent_spec_parse(bad[i], &s, err), 0, "%s accepted", bad[i]);
        cr_expect(strstr(err, "movetime") || strstr(err, "sims"), "%s: %s", bad[i], err);
    }

    cr_assert_eq(agent_spec_parse("best", &s, err), 0, "%s", err);
    char plain[SPEC_LEN];
    agent_spec_format(&s, plain);
    cr_assert_eq(agent_spec_parse("best:depth=64,movetime=100", &s, err), 0, "%s", err);
    cr_expect_str_eq(agent_spec_kind_name(&s), "ab");
    cr_expect_eq(s.ab.depth, 64);
    cr_expect_eq(s.movetime_ms, 100);
    /* best's evaluation is the shipped net with a linear part, kept */
    cr_assert(agent_spec_net(&s) != NULL, "best names no net");
    cr_expect(nnue_has_linear(agent_spec_net(&s)));
    agent_spec_format(&s, out);
    cr_expect(strstr(out, ",eval=net:eval/nets/patterns32.nnue"), "%s", out);
    cr_expect(!strncmp(out, "ab:depth=64,", 12), "%s", out);
    cr_expect(strstr(out, ",movetime=100"), "%s", out);
    cr_expect(strstr(plain, "ab:depth=5,tt=16,maxdepth=64,") == plain, "%s", plain);
    cr_expect_neq(agent_spec_parse("bestx", &s, err), 0);
}

/* The agent of a spec, the start position and an rng seeded (1, 1). */
static Agent *agent_at_start(const char *spec_text, Position *p, Rng *rng)
{
    AgentSpec s;
    char err[ERR_LEN];
    cr_assert_eq(agent_spec_parse(spec_text, &s, err), 0, "%s", err);
    Agent *a;
    cr_assert_eq(agent_new(&a, &s, err), 0, "%s", err);
    pos_start(p, VARIANT_STANDARD);
    rng_seed(rng, 1, 1);
    return a;
}

/* An agent's own movetime stops a search that its depth would not: depth
 * 64 is out of reach, so the search must end by the clock; and it does so
 * whatever limit it is handed (agent_act with a run's far longer movetime,
 * agent_choose with none). */
Test(agent_spec, own_movetime_stops_the_search)
{
    Position p;
    Rng rng;
    Agent *a = agent_at_start("ab:depth=64,tt=1,movetime=20", &p, &rng);
    MoveStats st;
    Action x = agent_choose(a, &p, &rng, &st);
    cr_expect(movegen_is_legal(&p, x));
    cr_expect(st.depth >= 1 && st.depth < 64, "depth reached %u", (unsigned)st.depth);
    AgentLimits lim = {.movetime_ms = 3600 * 1000, .margin_ms = 100};
    x = agent_act(a, &p, &rng, &lim, &st);
    cr_expect(movegen_is_legal(&p, x));
    cr_expect(st.depth >= 1 && st.depth < 64, "depth reached %u", (unsigned)st.depth);
    agent_free(a);
}

/* maxdepth: the cap under a time limit, depth without one. ab:depth=1,
 * maxdepth=64 searches depth 1 untimed, and deeper than 1 with a second
 * to think (depth 2 of the start takes well under a millisecond). */
Test(ab_spec, maxdepth_is_the_cap_under_time_only)
{
    AgentSpec s;
    char err[ERR_LEN], out[SPEC_LEN];
    cr_assert_eq(agent_spec_parse("ab:maxdepth=64,depth=1,tt=1", &s, err), 0, "%s", err);
    cr_expect_str_eq(agent_spec_format(&s, out), "ab:depth=1,tt=1,maxdepth=64");
    cr_expect_neq(agent_spec_parse("ab:maxdepth=0", &s, err), 0);
    cr_expect(strstr(err, "maxdepth"), "%s", err);
    cr_expect_neq(agent_spec_parse("ab:maxdepth=65", &s, err), 0);
    /* an engine option: 0 unsets maxdepth and movetime */
    cr_assert_eq(agent_spec_parse("ab:maxdepth=64,depth=1,tt=1", &s, err), 0, "%s", err);
    cr_assert_eq(agent_spec_set(&s, "movetime", "40", err), 0, "%s", err);
    cr_expect_eq(s.movetime_ms, 40);
    cr_assert_eq(agent_spec_set(&s, "maxdepth", "0", err), 0, "%s", err);
    cr_assert_eq(agent_spec_set(&s, "movetime", "0", err), 0, "%s", err);
    cr_expect_str_eq(agent_spec_format(&s, out), "ab:depth=1,tt=1");
    cr_expect_neq(agent_spec_set(&s, "movetime", "-1", err), 0);
    Position p;
    Rng rng;
    Agent *a = agent_at_start("ab:maxdepth=3,depth=1,tt=1", &p, &rng);
    MoveStats st;
    agent_choose(a, &p, &rng, &st);
    cr_expect_eq(st.depth, 1, "untimed: depth");
    SearchLimits lim = {.deadline = clock_now() + 60.0};
    agent_choose_limited(a, &p, &rng, &lim, &st);
    cr_expect_eq(st.depth, 3, "timed: maxdepth (3 here, done long before the minute)");
    agent_free(a);
}

/* ---- issue #22: limits at the edges --------------------------------------- */


/* Sets a stop flag after a delay, as a reader thread would, unless told
 * that the search is over first (then it ends at once). */
typedef struct Stopper {
    atomic_bool *flag;
    atomic_bool over;
    double after_s;
} Stopper;

static void *stop_later(void *arg)
{
    Stopper *s = arg;
    double end = clock_now() + s->after_s;
    while (clock_now() < end && !atomic_load(&s->over)) {
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    atomic_store(s->flag, true);
    return NULL;
}

/* A stop flag alone (an engine always holds one) keeps the depth: depth 2
 * with maxdepth 64 searches depth 2 and ends by itself long before the
 * flag is set; until_stop (go infinite) deepens past it until the flag;
 * a depth asked for is the cap; and a node budget is exact and
 * reproducible, and deepens past depth (maxdepth is its cap). */
Test(ab, a_stop_flag_alone_keeps_the_depth)
{
    Position s;
    pos_start(&s, VARIANT_STANDARD);
    AbConfig cfg = {.depth = 2, .max_depth = 64, .tt_mb = 1};
    weights_default(&cfg.weights);
    char err[ERR_LEN];
    Ab *ab;
    cr_assert_eq(ab_new(&ab, &cfg, err), 0, "%s", err);
    atomic_bool stop;
    atomic_init(&stop, false);
    Stopper st = {.flag = &stop, .after_s = 20.0};
    atomic_init(&st.over, false);
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, stop_later, &st), 0);
    SearchLimits lim = {.stop = &stop};
    AbResult r;
    double t0 = clock_now();
    ab_search(ab, &s, &lim, &r);
    atomic_store(&st.over, true);
    pthread_join(t, NULL);
    cr_expect_eq(r.depth, 2, "a stop flag alone deepened to %d", r.depth);
    cr_expect(clock_now() - t0 < 19.0, "the search waited for the flag");

    atomic_store(&stop, false);
    atomic_store(&st.over, false);
    st.after_s = 0.3;
    cr_assert_eq(pthread_create(&t, NULL, stop_later, &st), 0);
    lim = (SearchLimits){.stop = &stop, .until_stop = true};
    ab_clear(ab);
    ab_search(ab, &s, &lim, &r);
    pthread_join(t, NULL);
    cr_expect_gt(r.depth, 2, "until_stop deepens past depth (reached %d)", r.depth);

    lim = (SearchLimits){.depth = 3};
    ab_clear(ab);
    ab_search(ab, &s, &lim, &r);
    cr_expect_eq(r.depth, 3, "a depth asked for is the cap");

    lim = (SearchLimits){.sims = 50000};
    ab_clear(ab);
    Action a1 = ab_search(ab, &s, &lim, &r);
    AbResult r2;
    ab_clear(ab);
    Action a2 = ab_search(ab, &s, &lim, &r2);
    cr_expect(r.nodes <= 50000 && r.nodes > 0, "%llu positions", (unsigned long long)r.nodes);
    cr_expect(a1 == a2 && r.nodes == r2.nodes && r.depth == r2.depth, "a node budget is reproducible");
    cr_expect_gt(r.depth, 2, "a node budget deepens past depth (reached %d)", r.depth);
    ab_free(ab);
}

/* A time limit lifts the default sims of an MCTS spec that gives none:
 * `mcts` under a movetime of 2 s searches far beyond its default 200
 * simulations (generous: 200 simulations of the start take milliseconds),
 * while `mcts:sims=200`, which gives them, stops at 200, and the run's
 * sims bound both. The flag is not in the canonical text, which stays. */
Test(agent, a_time_limit_lifts_the_default_sims)
{
    char out[SPEC_LEN];
    Position p;
    Rng rng;
    MoveStats st;
    AgentLimits lim = {.movetime_ms = 2000, .margin_ms = 100};
    Agent *a = agent_at_start("mcts", &p, &rng);
    cr_expect(agent_spec_uncapped(agent_spec(a)));
    cr_expect_str_eq(agent_spec_format(agent_spec(a), out), "mcts:sims=200,c=1,rollout=random");
    agent_act(a, &p, &rng, &lim, &st);
    cr_expect_gt(st.sims, AGENT_DEFAULT_SIMS, "an uncapped spec searched %u simulations in 2 s", (unsigned)st.sims);
    agent_choose(a, &p, &rng, &st);
    cr_expect_eq(st.sims, AGENT_DEFAULT_SIMS, "without a time limit, its default");
    AgentLimits sims = lim;
    sims.sims = 50;
    agent_act(a, &p, &rng, &sims, &st);
    cr_expect_eq(st.sims, 50, "the run's sims bound it");
    agent_free(a);

    a = agent_at_start("mcts:sims=200", &p, &rng);
    cr_expect(!agent_spec_uncapped(agent_spec(a)));
    cr_expect_str_eq(agent_spec_format(agent_spec(a), out), "mcts:sims=200,c=1,rollout=random");
    agent_act(a, &p, &rng, &lim, &st);
    cr_expect_eq(st.sims, 200, "a spec that gives sims keeps them under a time limit");
    agent_free(a);
}
