/* PUCT over a policy and value evaluator (issue 34, item 1;
 * search/mcts.h, eval/nnue_policy.h, eval/policy_train.h): a hand-worked
 * tree under a uniform prior and a constant value; the same games from a
 * batch evaluated in one call or leaf by leaf; an evaluator's failure and
 * its bad numbers stop the search cleanly; the agent's keys; a net with a
 * policy head written, read back and refused when damaged; the head's
 * trainer deterministic and learning what it is shown. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/encode/encode.h"
#include "engine/movegen.h"
#include "eval/nnue_policy.h"
#include "eval/policy_train.h"
#include <pthread.h>
#include "selfplay/agents/agent.h"
#include "selfplay/search/batcher.h"
#include "selfplay/search/mcts.h"
#include "selfplay/search/mcts_tree.h"

/* ---- evaluators for the tests ------------------------------------------ */

typedef struct Counting {
    int calls, leaves, fail_at; /* fail_at > 0: the call of that number fails */
    float value;                /* the constant value; NAN: the net's (net) */
    bool bad_value;
    const Nnue *net;
} Counting;

/* Uniform priors (all 1) and a constant value, counted. */
static int constant_eval(void *ctx, MctsLeaf *leaves, int n, char *err)
{
    Counting *c = ctx;
    if (++c->calls == c->fail_at) return error_set(err, "the test's evaluator fails on call %d", c->calls);
    for (int l = 0; l < n; l++) {
        for (int i = 0; i < leaves[l].nlegal; i++) leaves[l].prior[i] = 1;
        leaves[l].value = c->bad_value ? NAN : c->value;
    }
    c->leaves += n;
    return 0;
}

/* The net's priors and value, leaf by leaf from the last to the first:
 * what an outside evaluator gives when its batch is the net's numbers. */
static int net_one_by_one(void *ctx, MctsLeaf *leaves, int n, char *err)
{
    (void)err;
    Counting *c = ctx;
    c->calls++;
    for (int l = n - 1; l >= 0; l--) {
        double z[MAX_ACTIONS], v, top = -INFINITY;
        MctsLeaf *f = leaves + l;
        nnue_policy_value(c->net, f->pos, f->legal, f->nlegal, z, &v);
        for (int i = 0; i < f->nlegal; i++) top = z[i] > top ? z[i] : top;
        for (int i = 0; i < f->nlegal; i++) f->prior[i] = (float)exp(z[i] - top);
        f->value = (float)v;
        c->leaves++;
    }
    return 0;
}

static Position start_position(void)
{
    Position p;
    pos_start(&p, VARIANT_STANDARD);
    return p;
}

static const Nnue *shipped(void)
{
    static Nnue *net;
    char err[ERR_LEN];
    if (!net) cr_assert_eq(nnue_load(&net, "eval/nets/patterns32.nnue", err), 0, "%s", err);
    return net;
}

/* A PUCT search of cfg from the start (seed 1): its Mcts, kept for the
 * test to look at (and free), and its result. */
static Mcts *search_start(MctsConfig cfg, MctsResult *r)
{
    Mcts *m;
    char err[ERR_LEN];
    cr_assert_eq(mcts_new(&m, &cfg, err), 0, "%s", err);
    Position p = start_position();
    Rng rng;
    rng_seed(&rng, 1, 0);
    mcts_search(m, &p, &rng, r);
    return m;
}

/* ---- the hand-worked tree ------------------------------------------------ */

/* From the start (85 placements), uniform priors and the value 1/2 for
 * every leaf, c = 1, fpu 0, one leaf a batch. Simulation 1 evaluates the
 * root. After it every unvisited child scores Q = the root's 1/2 plus
 * c (1/85) sqrt(N) / 1, a visited one 1/2 + c (1/85) sqrt(N) / 2: each
 * simulation takes the first unvisited child (ties go to the first), so
 * simulations 2 to 86 evaluate the 85 children in order, one visit each.
 * Simulation 87 finds them all at 1 visit, equal: the first child again,
 * whose first child (of 84) it evaluates. Every evaluated node was
 * expanded: 1 + 85 + 85 * 84 + 83 nodes... and the root's mean is 1/2. */
Test(puct, hand_worked_tree)
{
    Counting c = {.value = 0.5f};
    MctsResult r;
    Mcts *m = search_start((MctsConfig){.sims = 87, .c = 1, .puct = true, .evaluate_fn = constant_eval,
                                        .evaluate_ctx = &c},
                           &r);
    Position p = start_position();
    char err[ERR_LEN];
    cr_assert_eq(c.leaves, 87);
    cr_assert_eq(c.calls, 87, "one leaf a batch");
    cr_assert_eq(r.sims, 87);
    cr_assert_eq(r.root_visits, 87);
    cr_assert_eq(r.legal, 85);
    Action acts[MAX_ACTIONS], legal[MAX_ACTIONS];
    uint32_t visits[MAX_ACTIONS];
    int k = mcts_root_children(m, acts, visits, MAX_ACTIONS);
    cr_assert_eq(k, 85);
    cr_assert_eq(movegen_all(&p, legal), 85);
    for (int i = 0; i < k; i++) {
        cr_assert_eq(acts[i], legal[i], "children in the canonical order");
        cr_assert_eq(visits[i], i == 0 ? 2u : 1u, "child %d", i);
    }
    cr_assert_eq(r.action, legal[0], "the most visited");
    cr_assert_eq(r.chosen_visits, 2);
    cr_assert_float_eq(r.root_value, 0.5, 1e-12);
    cr_assert_float_eq(r.value, 0.5, 1e-12);
    cr_assert_eq(mcts_nodes_used(m), 1u + 85 + 85 * 84 + 83);
    Action pv[4];
    cr_assert_eq(mcts_pv(m, pv, 4), 2, "the first child, then its first child");
    cr_assert_eq(mcts_tree_check(m, err), 0, "%s", err);
    mcts_free(m);
}

/* A value that is not 1/2 is counted for the leaf's actor and against the
 * other: with value 1 for whoever acts, the root's actor (White) sees
 * each child (where Black acts) at 0, and the root's own visit at 1. */
/* The fast selection (mcts_tree.h) takes the child that scoring every
 * child takes, first of the largest score included: random children with
 * few distinct priors and visits (ties), unvisited ones beside visited ones
 * of the same score, and constants down to where fpu + cc P rounds two
 * priors to one score (cc 1e-17: the fast way must hand back to the scan). */
Test(puct, fast_selection_takes_the_scans_child)
{
    static const double ccs[] = {0, 1e-300, 1e-17, 1e-9, 0.3, 1, 7.5, 300};
    Rng rng;
    rng_seed(&rng, 65, 0);
    MctsNode c[MAX_ACTIONS];
    int differ = 0, cases = 0;
    for (int t = 0; t < 200000; t++) {
        int k = 1 + (int)rng_below(&rng, t % 3 ? 90 : 4);
        int spread = 1 + (int)rng_below(&rng, 4); /* distinct priors: from 2 up to all */
        for (int i = 0; i < k; i++) {
            uint32_t v = rng_below(&rng, 3) ? 0 : rng_below(&rng, 6);
            uint16_t prior = spread == 1 ? 1000 : (uint16_t)(rng_below(&rng, spread == 4 ? 65536 : 3) * 9000);
            c[i] = (MctsNode){.visits = v, .score2 = v ? (double)rng_below(&rng, 2 * v + 1) : 0, .prior = prior};
        }
        /* an fpu of the visited children's own scores makes exact ties */
        double fpu = rng_below(&rng, 2) ? 0.5 * (double)rng_below(&rng, 5) / 4 : rng_double(&rng) * 1.5 - 0.5;
        double cc = ccs[rng_below(&rng, sizeof ccs / sizeof *ccs)];
        int fast = mcts_select_puct_child(c, k, fpu, cc, true), scan = mcts_select_puct_child(c, k, fpu, cc, false);
        differ += fast != scan;
        cases++;
    }
    cr_assert_eq(differ, 0, "%d of %d selections differ", differ, cases);
}

Test(puct, values_count_for_the_actor)
{
    Counting c = {.value = 1.0f};
    MctsResult r;
    Mcts *m = search_start((MctsConfig){.sims = 3, .c = 1, .puct = true, .evaluate_fn = constant_eval,
                                        .evaluate_ctx = &c},
                           &r);
    /* visits: the root's evaluation (White 1), children 1 and 2 (Black to act: White 0) */
    cr_assert_float_eq(r.root_value, 1.0 / 3, 1e-12);
    cr_assert_float_eq(r.value, 0.0, 1e-12);
    mcts_free(m);
}

/* ---- batches ------------------------------------------------------------ */

/* A game of PUCT self-play: its actions and each search's root visits. */
static int play(MctsConfig cfg, uint64_t seed, int max, Action *acts, uint32_t *visits)
{
    Mcts *m;
    char err[ERR_LEN];
    cr_assert_eq(mcts_new(&m, &cfg, err), 0, "%s", err);
    Position p = start_position();
    Rng rng;
    rng_seed(&rng, seed, 0);
    int n = 0;
    while (n < max && !pos_outcome(&p, NULL, NULL)) {
        MctsResult r;
        Action a = mcts_search(m, &p, &rng, &r);
        cr_assert_null(mcts_error(m));
        acts[n] = a;
        visits[n++] = r.chosen_visits;
        mcts_advance(m, &p, a);
        Undo u;
        pos_make(&p, a, &u);
    }
    mcts_free(m);
    return n;
}

Test(puct, batch_in_one_call_equals_leaf_by_leaf)
{
    Counting c = {.net = shipped()};
    MctsConfig own = {.sims = 64, .c = 1.5, .puct = true, .batch = 8, .net = shipped(), .noise = 0.25, .temp = 1,
                      .temp_moves = 6};
    MctsConfig outside = own;
    outside.net = NULL;
    outside.evaluate_fn = net_one_by_one;
    outside.evaluate_ctx = &c;
    Action a1[40], a2[40];
    uint32_t v1[40], v2[40];
    int n1 = play(own, 9, 40, a1, v1), n2 = play(outside, 9, 40, a2, v2);
    cr_assert_eq(n1, n2);
    for (int i = 0; i < n1; i++) {
        cr_assert_eq(a1[i], a2[i], "action %d", i);
        cr_assert_eq(v1[i], v2[i], "visits at action %d", i);
    }
    cr_assert(c.leaves > 8 * c.calls / 2, "batches were gathered (%d leaves in %d calls)", c.leaves, c.calls);
    /* and a search follows from its seed */
    int n3 = play(own, 9, 40, a2, v2);
    cr_assert_eq(n3, n1);
    for (int i = 0; i < n1; i++) cr_assert_eq(a1[i], a2[i]);
}

/* Deferred children (mcts.h): a search on a direct head's net makes a
 * leaf's children only when a simulation comes back to it; an outside
 * evaluator of the same numbers makes them at once. Side by side over a
 * game, with the tree kept between actions, in an arena small enough to
 * fill, with batches and the root's noise: every search the same (choice,
 * visits, values, the nodes the tree holds), and both trees whole. */
static const Nnue *direct_net(void)
{
    static Nnue *net;
    char err[ERR_LEN];
    if (!net) cr_assert_eq(nnue_load(&net, "eval/nets/leaf32.nnue", err), 0, "%s", err);
    cr_assert(nnue_policy_direct(net));
    return net;
}

/* Searches own and outside side by side over a game from the start
 * (seed), the tree kept between actions: every search the same (choice,
 * visits, values, the nodes the tree holds, the root's children), and
 * both trees whole. Returns the most nodes the tree held. */
static uint32_t side_by_side(const MctsConfig *own, const MctsConfig *outside, uint64_t seed, size_t run)
{
    Mcts *a, *b;
    char err[ERR_LEN];
    cr_assert_eq(mcts_new(&a, own, err), 0, "%s", err);
    cr_assert_eq(mcts_new(&b, outside, err), 0, "%s", err);
    Position p = start_position();
    Rng ra, rb;
    rng_seed(&ra, seed, 0);
    rng_seed(&rb, seed, 0);
    uint32_t fullest = 0;
    for (int n = 0; n < 60 && !pos_outcome(&p, NULL, NULL); n++) {
        MctsResult x, y;
        Action ax = mcts_search(a, &p, &ra, &x), ay = mcts_search(b, &p, &rb, &y);
        cr_assert_null(mcts_error(a));
        cr_assert_eq(ax, ay, "run %zu, action %d", run, n);
        cr_assert_eq(x.root_visits, y.root_visits, "run %zu, action %d", run, n);
        cr_assert_eq(x.chosen_visits, y.chosen_visits, "run %zu, action %d", run, n);
        cr_assert_eq(x.value, y.value, "run %zu, action %d", run, n);
        cr_assert_eq(x.root_value, y.root_value, "run %zu, action %d", run, n);
        cr_assert_eq(mcts_nodes_used(a), mcts_nodes_used(b), "run %zu, action %d", run, n);
        Action ka[MAX_ACTIONS], kb[MAX_ACTIONS];
        uint32_t va[MAX_ACTIONS], vb[MAX_ACTIONS];
        int na = mcts_root_children(a, ka, va, MAX_ACTIONS), nb = mcts_root_children(b, kb, vb, MAX_ACTIONS);
        cr_assert_eq(na, nb);
        for (int i = 0; i < na; i++) cr_assert(ka[i] == kb[i] && va[i] == vb[i], "run %zu, child %d", run, i);
        cr_assert_eq(mcts_tree_check(a, err), 0, "run %zu: %s", run, err);
        cr_assert_eq(mcts_tree_check(b, err), 0, "run %zu: %s", run, err);
        if (mcts_nodes_used(a) > fullest) fullest = mcts_nodes_used(a);
        mcts_advance(a, &p, ax);
        mcts_advance(b, &p, ay);
        Undo u;
        pos_make(&p, ax, &u);
    }
    mcts_free(a);
    mcts_free(b);
    return fullest;
}

Test(puct, deferred_children_search_as_children_made_at_once)
{
    static const struct {
        uint32_t sims, nodes, batch;
        double noise;
    } runs[] = {{300, 0, 0, 0}, {300, 6000, 0, 0}, {200, 5000, 8, 0.25}, {1, 0, 0, 0}};
    for (size_t t = 0; t < sizeof runs / sizeof *runs; t++) {
        Counting c = {.net = direct_net()};
        MctsConfig own = {.sims = runs[t].sims, .c = 1, .puct = true, .nodes = runs[t].nodes, .batch = runs[t].batch,
                          .net = direct_net(), .noise = runs[t].noise, .temp = runs[t].noise > 0 ? 1 : 0,
                          .temp_moves = 8};
        MctsConfig outside = own;
        outside.net = NULL;
        outside.evaluate_fn = net_one_by_one;
        outside.evaluate_ctx = &c;
        uint32_t fullest = side_by_side(&own, &outside, 11 + t, t);
        if (runs[t].nodes) cr_assert_gt(fullest + 100, runs[t].nodes, "run %zu never filled its arena", t);
    }
}

/* The children's values in the priors (mcts.h, child = W): made at once,
 * the search equals one whose outside evaluator gives, at every leaf,
 * the softmax of the head's logits plus W times each child's settled
 * logit computed from scratch (nnue_policy_inputs), with the tree kept
 * between actions, an arena that fills, batches and the root's noise. */
typedef struct ChildEval {
    const Nnue *net;
    double w;
} ChildEval;

static void child_logits(const Nnue *net, double w, const Position *pos, const Action *legal, int n, double *z)
{
    double child[MAX_ACTIONS];
    nnue_policy_direct_logits(net, pos, legal, n, z);
    nnue_policy_inputs(net, pos, legal, n, NULL, child);
    for (int i = 0; i < n; i++) z[i] += w * child[i];
}

static int net_with_children(void *ctx, MctsLeaf *leaves, int n, char *err)
{
    (void)err;
    const ChildEval *c = ctx;
    for (int l = 0; l < n; l++) {
        MctsLeaf *f = leaves + l;
        double z[MAX_ACTIONS], top = -INFINITY;
        child_logits(c->net, c->w, f->pos, f->legal, f->nlegal, z);
        for (int i = 0; i < f->nlegal; i++) top = z[i] > top ? z[i] : top;
        for (int i = 0; i < f->nlegal; i++) f->prior[i] = (float)exp(z[i] - top);
        f->value = (float)nnue_policy_direct_value(c->net, f->pos, f->legal, f->nlegal);
    }
    return 0;
}

Test(puct, children_values_in_the_priors_as_from_scratch)
{
    static const struct {
        uint32_t sims, nodes, batch;
        double noise, w;
    } runs[] = {{300, 0, 0, 0, 2}, {300, 6000, 0, 0, 0.5}, {200, 5000, 8, 0.25, 2}};
    for (size_t t = 0; t < sizeof runs / sizeof *runs; t++) {
        ChildEval c = {.net = direct_net(), .w = runs[t].w};
        MctsConfig own = {.sims = runs[t].sims, .c = 1, .puct = true, .nodes = runs[t].nodes, .batch = runs[t].batch,
                          .net = direct_net(), .noise = runs[t].noise, .temp = runs[t].noise > 0 ? 1 : 0,
                          .temp_moves = 8, .child = runs[t].w};
        MctsConfig outside = own;
        outside.net = NULL;
        outside.child = 0;
        outside.evaluate_fn = net_with_children;
        outside.evaluate_ctx = &c;
        uint32_t fullest = side_by_side(&own, &outside, 21 + t, t);
        if (runs[t].nodes) cr_assert_gt(fullest + 100, runs[t].nodes, "run %zu never filled its arena", t);
    }
}

/* ... and from a node's T-th visit (childvisits = T): every node of the
 * tree with children has the head's priors alone while it has fewer than
 * T visits, and the head's with the children's values (from scratch) from
 * then on, rounded as the search rounds them; over a game with the tree
 * kept, so that kept nodes are checked too. */
static int refined_walk(const MctsNode *nodes, uint32_t at, const Position *pos, const Nnue *net, double w,
                        uint32_t t)
{
    const MctsNode *n = nodes + at;
    uint32_t child = atomic_load(&n->child);
    if (!child) return 0;
    int k = n->nchild, refined = 0;
    bool want = atomic_load(&n->visits) >= t;
    cr_assert_eq(atomic_load(&n->claim) == MCTS_CLAIM_CHILD, want, "node %u: %u visits, claim %d", (unsigned)at,
                 (unsigned)atomic_load(&n->visits), (int)atomic_load(&n->claim));
    Action legal[MAX_ACTIONS];
    double z[MAX_ACTIONS], top = -INFINITY, e[MAX_ACTIONS], sum = 0;
    for (int i = 0; i < k; i++) legal[i] = nodes[child + i].action;
    if (want) child_logits(net, w, pos, legal, k, z);
    else nnue_policy_direct_logits(net, pos, legal, k, z);
    for (int i = 0; i < k; i++) top = z[i] > top ? z[i] : top;
    for (int i = 0; i < k; i++) sum += e[i] = (float)exp(z[i] - top);
    for (int i = 0; i < k; i++)
        cr_assert_eq(nodes[child + i].prior, (uint16_t)lround(65535.0 * e[i] / sum), "node %u, child %d",
                     (unsigned)at, i);
    refined += want;
    for (int i = 0; i < k; i++) {
        Position q = *pos;
        Undo u;
        pos_make(&q, legal[i], &u);
        refined += refined_walk(nodes, child + (uint32_t)i, &q, net, w, t);
    }
    return refined;
}

Test(puct, children_values_in_the_priors_from_a_nodes_tth_visit)
{
    MctsConfig cfg = {.sims = 400, .c = 1, .puct = true, .net = direct_net(), .child = 2, .child_visits = 4};
    Mcts *m;
    char err[ERR_LEN];
    cr_assert_eq(mcts_new(&m, &cfg, err), 0, "%s", err);
    Position p = start_position();
    Rng rng;
    rng_seed(&rng, 5, 0);
    int refined = 0;
    for (int n = 0; n < 50 && !pos_outcome(&p, NULL, NULL); n++) {
        MctsResult r;
        Action a = mcts_search(m, &p, &rng, &r);
        uint32_t used;
        const MctsNode *nodes = mcts_tree_nodes(m, &used);
        cr_assert_gt(used, 1);
        refined += refined_walk(nodes, 0, &p, direct_net(), 2, 4);
        mcts_advance(m, &p, a);
        Undo u;
        pos_make(&p, a, &u);
    }
    cr_assert_gt(refined, 1000, "only %d nodes took the children's values", refined);
    mcts_free(m);
}

Test(puct, tree_parallel_keeps_its_invariants)
{
    MctsConfig cfg = {.sims = 400, .c = 1.5, .puct = true, .batch = 4, .threads = 2, .net = shipped()};
    Action a[12];
    uint32_t v[12];
    cr_assert_eq(play(cfg, 3, 12, a, v), 12);
}

/* ---- leaves of many searches in one evaluation (search/batcher.h) -------- */

typedef struct Game {
    MctsConfig cfg;
    Batcher *b;
    uint64_t seed;
    Action acts[30];
    uint32_t visits[30];
    int n;
} Game;

static void *game_main(void *arg)
{
    Game *g = arg;
    g->n = play(g->cfg, g->seed, 30, g->acts, g->visits);
    if (g->b) batcher_leave(g->b);
    return NULL;
}

/* Four games on threads of their own, their searches' leaves evaluated
 * together through one batcher: each game the same as played alone (the
 * net's numbers leaf by leaf, whatever the round), and the rounds larger
 * than one search's batch. A failing evaluator fails every search after
 * it, and the batcher says why. */
Test(puct, a_batcher_evaluates_many_searches_together)
{
    Counting c = {.net = shipped()}, alone = {.net = shipped()};
    Batcher *b;
    char err[ERR_LEN];
    cr_assert_eq(batcher_new(&b, net_one_by_one, &c, 4 * 8, err), 0, "%s", err);
    Game games[4];
    pthread_t tid[4];
    for (int i = 0; i < 4; i++) {
        games[i] = (Game){.cfg = {.sims = 48, .c = 1.5, .puct = true, .batch = 8, .noise = 0.25, .temp = 1,
                                  .temp_moves = 6, .evaluate_fn = batcher_evaluate, .evaluate_ctx = b},
                          .b = b, .seed = 20 + (uint64_t)i};
        batcher_join(b);
    }
    for (int i = 0; i < 4; i++) cr_assert_eq(pthread_create(&tid[i], NULL, game_main, &games[i]), 0);
    for (int i = 0; i < 4; i++) pthread_join(tid[i], NULL);
    cr_assert_not(batcher_failed(b, err));
    uint64_t rounds, leaves;
    batcher_counts(b, &rounds, &leaves);
    cr_assert_eq(leaves, (uint64_t)c.leaves);
    cr_assert(leaves > 8 * rounds, "rounds of more than one batch (%llu leaves in %llu rounds)",
              (unsigned long long)leaves, (unsigned long long)rounds);
    for (int i = 0; i < 4; i++) {
        Game one = games[i];
        one.cfg.evaluate_fn = net_one_by_one;
        one.cfg.evaluate_ctx = &alone;
        one.b = NULL;
        game_main(&one);
        cr_assert_eq(one.n, games[i].n);
        for (int k = 0; k < one.n; k++) {
            cr_assert_eq(one.acts[k], games[i].acts[k], "game %d action %d", i, k);
            cr_assert_eq(one.visits[k], games[i].visits[k], "game %d visits at action %d", i, k);
        }
    }
    batcher_free(b);

    /* a failure is every later call's */
    Counting f = {.value = 0.5f, .fail_at = 2};
    cr_assert_eq(batcher_new(&b, constant_eval, &f, 8, err), 0, "%s", err);
    MctsConfig cfg = {.sims = 40, .c = 1, .puct = true, .batch = 4, .evaluate_fn = batcher_evaluate, .evaluate_ctx = b};
    Mcts *m;
    cr_assert_eq(mcts_new(&m, &cfg, err), 0, "%s", err);
    Position p = start_position();
    Rng rng;
    rng_seed(&rng, 1, 0);
    MctsResult r;
    mcts_search(m, &p, &rng, &r);
    cr_assert(mcts_error(m) && strstr(mcts_error(m), "fails on call 2"), "%s", mcts_error(m));
    mcts_search(m, &p, &rng, &r);
    cr_assert(mcts_error(m) && strstr(mcts_error(m), "fails on call 2"), "the next search fails too");
    cr_assert(batcher_failed(b, err) && strstr(err, "fails on call 2"), "%s", err);
    cr_assert_eq(f.calls, 2, "the evaluator is not called again");
    mcts_free(m);
    batcher_free(b);
}

/* ---- failures ------------------------------------------------------------ */

Test(puct, a_failing_evaluator_stops_the_search)
{
    Counting c = {.value = 0.5f, .fail_at = 3};
    MctsConfig cfg = {.sims = 50, .c = 1, .puct = true, .batch = 2, .evaluate_fn = constant_eval, .evaluate_ctx = &c};
    Mcts *m;
    char err[ERR_LEN];
    cr_assert_eq(mcts_new(&m, &cfg, err), 0, "%s", err);
    Position p = start_position();
    Rng rng;
    rng_seed(&rng, 1, 0);
    MctsResult r;
    mcts_search(m, &p, &rng, &r);
    cr_assert_not_null(mcts_error(m));
    cr_assert(strstr(mcts_error(m), "fails on call 3"), "%s", mcts_error(m));
    cr_assert(r.sims < 50);
    cr_assert_eq(mcts_tree_check(m, err), 0, "%s", err);
    /* the next search starts clean */
    c.fail_at = 0;
    mcts_search(m, &p, &rng, &r);
    cr_assert_null(mcts_error(m));
    mcts_free(m);

    Counting bad = {.bad_value = true};
    cfg.evaluate_ctx = &bad;
    cr_assert_eq(mcts_new(&m, &cfg, err), 0, "%s", err);
    mcts_search(m, &p, &rng, &r);
    cr_assert_not_null(mcts_error(m));
    cr_assert(strstr(mcts_error(m), "value outside [0, 1]"), "%s", mcts_error(m));
    cr_assert_eq(r.searched, false, "nothing was searched");
    mcts_free(m);

    MctsConfig none = {.sims = 5, .puct = true};
    cr_assert_eq(mcts_new(&m, &none, err), ERR_USAGE);
    cr_assert(strstr(err, "needs an evaluator"), "%s", err);
}

/* ---- the agent's keys ------------------------------------------------------ */

Test(puct, spec_keys)
{
    AgentSpec s, back;
    char err[ERR_LEN], text[SPEC_LEN], again[SPEC_LEN];
    cr_assert_eq(agent_spec_parse("mcts:sims=300,c=1.5,eval=net:eval/nets/patterns32.nnue,puct=1,batch=8,fpu=0.1", &s,
                                  err),
                 0, "%s", err);
    cr_assert_str_eq(agent_spec_format(&s, text),
                     "mcts:sims=300,c=1.5,eval=net:eval/nets/patterns32.nnue,puct=1,batch=8,fpu=0.1");
    cr_assert_eq(agent_spec_parse(text, &back, err), 0, "%s", err);
    cr_assert_str_eq(agent_spec_format(&back, again), text);
    agent_spec_release(&s);
    agent_spec_release(&back);
    cr_assert_eq(agent_spec_parse("mcts:puct=1,eval=net:eval/nets/leaf32.nnue,childvisits=4,child=2", &s, err), 0,
                 "%s", err);
    cr_assert_str_eq(agent_spec_format(&s, text),
                     "mcts:sims=200,c=1,eval=net:eval/nets/leaf32.nnue,puct=1,child=2,childvisits=4");
    agent_spec_release(&s);
    /* the children's values need a direct head */
    MctsConfig cfg = {.sims = 10, .c = 1, .puct = true, .net = shipped(), .child = 1};
    Mcts *m;
    cr_assert_neq(mcts_new(&m, &cfg, err), 0);
    cr_assert(strstr(err, "direct head"), "%s", err);
    const char *bad[][2] = {
        {"mcts:puct=1", "needs a net"},
        {"mcts:puct=1,rollout=4,eval=net:eval/nets/patterns32.nnue", "do not apply"},
        {"mcts:puct=1,eval=eval/weights/tuned.txt", "needs a net"},
        {"mcts:batch=4", "only to puct=1"},
        {"mcts:puct=2", "bad value '2' for puct"},
        {"mcts:puct=1,batch=0,eval=net:eval/nets/patterns32.nnue", "bad value '0' for batch"},
        {"mcts:puct=1,batch=1025,eval=net:eval/nets/patterns32.nnue", "bad value '1025' for batch"},
        {"mcts:puct=1,fpu=2,eval=net:eval/nets/patterns32.nnue", "bad value '2' for fpu"},
        {"mcts:child=1", "only to puct=1"},
        {"mcts:puct=1,child=101,eval=net:eval/nets/leaf32.nnue", "bad value '101' for child"},
        {"mcts:puct=1,child=1,childvisits=0,eval=net:eval/nets/leaf32.nnue", "bad value '0' for childvisits"},
        {"mcts:puct=1,childvisits=4,eval=net:eval/nets/leaf32.nnue", "goes with child=W"},
        {"mcts:puct=1,eval=fn:", "fn: wants"},
        {"mcts:rollout=4,eval=fn:mine", "goes with mcts:...,puct=1"},
        {"ab:depth=2,eval=fn:mine", "goes with mcts:...,puct=1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_assert_neq(agent_spec_parse(bad[i][0], &s, err), 0, "%s was accepted", bad[i][0]);
        cr_assert(strstr(err, bad[i][1]), "%s: %s", bad[i][0], err);
        agent_spec_release(&s);
    }
}

/* An evaluator outside yinsh (eval=fn:NAME, agents/agent.h): the spec's
 * text names it; an agent needs it attached (by its name), then plays
 * with it as a search with the same evaluate_fn; its hash is the spec's. */
Test(puct, an_outside_evaluator_by_name)
{
    AgentSpec s;
    char err[ERR_LEN], text[SPEC_LEN];
    cr_assert_eq(agent_spec_parse("mcts:sims=40,c=1,puct=1,batch=4,eval=fn:mynet:evaluate", &s, err), 0, "%s", err);
    cr_assert_str_eq(agent_spec_format(&s, text), "mcts:sims=40,c=1,eval=fn:mynet:evaluate,puct=1,batch=4");
    cr_assert(agent_spec_names_outside(&s));
    uint64_t h;
    cr_assert_not(agent_spec_eval_hash(&s, &h), "no hash before it is attached");
    Agent *a;
    cr_assert_eq(agent_new(&a, &s, err), ERR_USAGE);
    cr_assert(strstr(err, "outside yinsh"), "%s", err);
    Counting c = {.value = 0.5f};
    AgentOutside other = {.fn = constant_eval, .ctx = &c, .name = "theirs:evaluate", .hash = 7};
    cr_assert_eq(agent_spec_attach(&s, &other, err), ERR_USAGE);
    AgentOutside mine = {.fn = constant_eval, .ctx = &c, .name = "mynet:evaluate", .hash = 0x1234};
    cr_assert_eq(agent_spec_attach(&s, &mine, err), 0, "%s", err);
    cr_assert(agent_spec_eval_hash(&s, &h) && h == 0x1234);
    cr_assert_null(agent_spec_weights(&s));
    cr_assert_eq(agent_new(&a, &s, err), 0, "%s", err);
    Position p = start_position();
    Rng rng;
    rng_seed(&rng, 3, 0);
    MoveStats st;
    Action got = agent_choose_limited(a, &p, &rng, NULL, &st);
    cr_assert(st.searched && st.sims == 40 && c.calls > 0);
    /* the same search as mcts with that evaluate_fn */
    MctsConfig cfg = {.sims = 40, .c = 1, .puct = true, .batch = 4, .evaluate_fn = constant_eval, .evaluate_ctx = &c};
    Mcts *m;
    cr_assert_eq(mcts_new(&m, &cfg, err), 0, "%s", err);
    rng_seed(&rng, 3, 0);
    MctsResult r;
    cr_assert_eq(mcts_search(m, &p, &rng, &r), got);
    mcts_free(m);
    agent_free(a);
    agent_spec_release(&s);
}

/* ---- the head: the file, the trainer ---------------------------------------- */

/* Samples from a few random games' positions: target the first legal action. */
static void collect(PolicyData *d, const PolicyTrainOptions *o, int games)
{
    char err[ERR_LEN];
    Rng rng;
    rng_seed(&rng, 5, 0);
    for (int g = 0; g < games; g++) {
        Position p = start_position();
        for (int ply = 0; ply < 60 && !pos_outcome(&p, NULL, NULL); ply++) {
            Action legal[MAX_ACTIONS];
            float t[MAX_ACTIONS] = {0};
            int n = movegen_all(&p, legal);
            t[0] = 1;
            cr_assert_eq(policy_collect(d, o, (uint64_t)g, &p, legal, n, t, err), 0, "%s", err);
            Undo u;
            pos_make(&p, legal[rng_below(&rng, (uint32_t)n)], &u);
        }
    }
}

static void train(PolicyData *d, const PolicyTrainOptions *o, uint8_t **bytes, size_t *len, PolicyEpoch *base,
                  PolicyEpoch *final)
{
    char err[ERR_LEN];
    PolicyEpoch start;
    cr_assert_eq(policy_train(d, o, "test head", NULL, NULL, bytes, len, base, &start, final, err), 0, "%s", err);
    cr_assert_eq(isnan(start.val_loss), !nnue_policy_head(d->net, &(const int16_t *){0}, &(const int32_t *){0},
                                                           &(int32_t){0}),
                 "the head before is measured when there is one");
}

Test(puct, head_trains_round_trips_and_is_refused_damaged, .timeout = 120)
{
    PolicyTrainOptions o;
    policy_train_options_default(&o);
    o.epochs = 6;
    o.lr = 0.02;
    o.val_frac = 0.3;
    PolicyData d = {.net = shipped(), .width = 2 * nnue_hidden(shipped())};
    collect(&d, &o, 30);
    cr_assert(d.positions_val > 0 && d.positions_val < d.count);
    uint8_t *b1, *b2;
    size_t l1, l2;
    PolicyEpoch base, final, base2, final2;
    train(&d, &o, &b1, &l1, &base, &final);
    /* "the first legal action" is a rule the head can learn: it does */
    cr_assert(final.val_top1 > base.val_top1 + 0.2, "top-1 %.3f against %.3f without the head", final.val_top1,
              base.val_top1);
    cr_assert(final.val_loss < base.val_loss);
    train(&d, &o, &b2, &l2, &base2, &final2);
    cr_assert(l1 == l2 && !memcmp(b1, b2, l1), "the same samples and seed, the same file");

    /* read back: feature set 4, and the numbers the trainer measured */
    Nnue *net;
    char err[ERR_LEN];
    cr_assert_eq(nnue_decode(&net, b1, l1, "head", err), 0, "%s", err);
    const int16_t *ppw;
    const int32_t *ppb;
    int32_t beta;
    cr_assert(nnue_policy_head(net, &ppw, &ppb, &beta));
    cr_assert(!nnue_policy_head(shipped(), &ppw, &ppb, &beta));
    Position p = start_position();
    cr_assert_eq(nnue_evaluate(net, &p), nnue_evaluate(shipped(), &p), "the value net is unchanged");
    /* a warm start begins at the head it starts from: no epoch, the same head */
    PolicyData warm = d;
    warm.net = net;
    PolicyTrainOptions none = o;
    none.epochs = 0;
    uint8_t *b3;
    size_t l3;
    PolicyEpoch base3, final3;
    train(&warm, &none, &b3, &l3, &base3, &final3);
    size_t tail = 4 + 4 * (size_t)ENCODE_ACTIONS + 2 * (size_t)ENCODE_ACTIONS * (size_t)warm.width;
    cr_assert(l3 >= tail && !memcmp(b3 + l3 - tail, b1 + l1 - tail, tail), "a warm start moved the head");
    cr_assert_float_eq(final3.val_loss, final.val_loss, 1e-9);
    free(b3);
    /* a search with it */
    MctsConfig cfg = {.sims = 50, .c = 1.5, .puct = true, .net = net};
    Action a[4];
    uint32_t v[4];
    cr_assert_eq(play(cfg, 1, 4, a, v), 4);

    /* damaged: a byte of the head, the file cut, a byte more */
    b1[l1 - 7] ^= 0x40;
    Nnue *x;
    cr_assert_neq(nnue_decode(&x, b1, l1, "head", err), 0);
    cr_assert(strstr(err, "damaged"), "%s", err);
    b1[l1 - 7] ^= 0x40;
    cr_assert_neq(nnue_decode(&x, b1, l1 - 100, "head", err), 0);
    cr_assert(strstr(err, "truncated"), "%s", err);
    /* another shape: a set-3 header over a set-4 body */
    b1[12] = 3;
    cr_assert_neq(nnue_decode(&x, b1, l1, "head", err), 0);
    cr_assert(strstr(err, "mismatched sizes"), "%s", err);
    nnue_free(net);
    free(b1);
    free(b2);
    policy_data_free(&d);
}
