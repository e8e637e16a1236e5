#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/clock.h"
#include "engine/base/error.h"
#include "engine/base/number.h"
#include "eval/nnue_policy.h"
#include "selfplay/search/dirichlet.h"
#include "selfplay/search/mcts.h"
#include "selfplay/search/mcts_tree.h"
#include "engine/movegen.h"
#include "selfplay/search/playout.h"

struct Mcts {
    MctsConfig cfg;
    MctsNode *nodes, *spare; /* the tree, and the arena the next advance copies into */
    _Atomic uint32_t used;   /* nodes in use: a tree-parallel search's threads allocate with a CAS */
    uint32_t cap;
    /* defer: a leaf's children are made when a simulation comes back to it,
     * not when it is first evaluated (mcts.h, "Deferred children"); pending
     * counts the children of the tree's deferred leaves, which the arena
     * holds room for: used + pending is what the tree would use with every
     * leaf's children made at once, and the arena is full when that is */
    bool defer;
    bool refine; /* the children's values in the priors at a node's child_visits-th visit (deferred children) */
    uint32_t pending;
    /* defer: the accumulators of nodes whose children were made (a node's
     * acc names its slot), so that a new leaf's are its parent's updated by
     * one action, not made from scratch; emptied when the tree is kept or
     * reset, and when full a leaf's are made from scratch */
    NnueAcc *accs;
    uint32_t nacc, acc_cap;
    Position root_pos;
    bool valid;              /* root_pos and nodes[0] describe a tree */
    uint32_t ply;            /* actions mcts_advance was shown since mcts_new or mcts_clear (temp_moves) */
    /* noise: during a search, the root children's Dirichlet sample (their
     * order), written by the caller's thread before any simulation */
    bool noisy;
    double root_noise[MAX_ACTIONS];
    /* puct: each thread's batch (threads of them), and the first error of
     * an evaluation (failed set once, by whichever thread) */
    struct PuctBatch *batches;
    _Atomic bool failed;
    char error[ERR_LEN];
};

/* One thread's batch of leaves waiting for the evaluator (puct). */
typedef struct PuctBatch {
    int n, cap;
    MctsLeaf *leaf;
    Position *pos;
    Action (*legal)[MAX_ACTIONS];
    float (*prior)[MAX_ACTIONS];
    uint32_t (*path)[GAME_MAX_ACTIONS + 1];
    int *depth;
    Undo *undo; /* the last action's, from the leaf's parent */
} PuctBatch;

/* Relaxed loads and stores: what one thread's search uses on the atomic
 * fields (plain moves on x86), and what a parallel search uses where the
 * order of other threads' updates does not matter. */
#define LD(x) atomic_load_explicit(&(x), memory_order_relaxed)
#define ST(x, v) atomic_store_explicit(&(x), (v), memory_order_relaxed)

/* Assertion builds check the whole tree after every search and advance;
 * a broken invariant is a bug of this file (mcts_tree_check names it). */
#define MCTS_DEBUG_CHECK(m) assert(mcts_tree_check((m), NULL) == 0 && "search tree invariant broken")

/* The path of one simulation; the tree is never deeper than a game. */
enum { PATH_MAX_LEN = GAME_MAX_ACTIONS + 1 };

uint32_t mcts_default_nodes(uint32_t sims)
{
    uint64_t n = (uint64_t)sims * 128 + 256;
    return n > MCTS_MAX_DEFAULT_NODES ? MCTS_MAX_DEFAULT_NODES : (uint32_t)n;
}

static void batch_free(PuctBatch *b)
{
    free(b->leaf);
    free(b->pos);
    free(b->legal);
    free(b->prior);
    free(b->path);
    free(b->depth);
    free(b->undo);
}

static bool batch_alloc(PuctBatch *b, int cap)
{
    *b = (PuctBatch){.cap = cap};
    b->leaf = calloc((size_t)cap, sizeof *b->leaf);
    b->pos = calloc((size_t)cap, sizeof *b->pos);
    b->legal = calloc((size_t)cap, sizeof *b->legal);
    b->prior = calloc((size_t)cap, sizeof *b->prior);
    b->path = calloc((size_t)cap, sizeof *b->path);
    b->depth = calloc((size_t)cap, sizeof *b->depth);
    b->undo = calloc((size_t)cap, sizeof *b->undo);
    return b->leaf && b->pos && b->legal && b->prior && b->path && b->depth && b->undo;
}

static uint32_t threads_of(const MctsConfig *cfg) { return cfg->threads > 1 ? cfg->threads : 1; }
static int batch_of(const MctsConfig *cfg) { return cfg->batch > 1 ? (int)cfg->batch : 1; }

int mcts_new(Mcts **out, const MctsConfig *cfg, char *err)
{
    *out = NULL;
    uint32_t cap = cfg->nodes ? cfg->nodes : mcts_default_nodes(cfg->sims);
    if (cap < 2) cap = 2;
    if (cap > MCTS_MAX_NODES) cap = MCTS_MAX_NODES;
    Mcts *m = calloc(1, sizeof *m);
    if (m) {
        m->cfg = *cfg;
        m->cap = cap;
        m->nodes = malloc((size_t)cap * sizeof(MctsNode));
        m->spare = malloc((size_t)cap * sizeof(MctsNode));
    }
    if (!m || !m->nodes || !m->spare) {
        mcts_free(m);
        return error_set(err, "out of memory for a search tree of %u nodes (two arenas of %zu MiB)", (unsigned)cap,
                         ((size_t)cap * sizeof(MctsNode)) >> 20);
    }
    if (cfg->puct && !cfg->evaluate_fn && !cfg->net) {
        mcts_free(m);
        return error_code(err, ERR_USAGE, "PUCT needs an evaluator: a net or an evaluation function");
    }
    if (cfg->puct && cfg->batch > MCTS_MAX_BATCH) {
        mcts_free(m);
        return error_code(err, ERR_USAGE, "a batch of %u leaves is more than %d", (unsigned)cfg->batch,
                          (int)MCTS_MAX_BATCH);
    }
    if (cfg->child > 0 && (!cfg->puct || cfg->evaluate_fn || !cfg->net || !nnue_policy_direct(cfg->net))) {
        mcts_free(m);
        return error_code(err, ERR_USAGE, "the children's values in the priors (child) need PUCT on the lab's net "
                          "with a direct head");
    }
    m->defer = cfg->puct && !cfg->evaluate_fn && threads_of(cfg) == 1 && !cfg->solver && cfg->net &&
               nnue_policy_direct(cfg->net);
    m->refine = m->defer && cfg->child > 0 && cfg->child_visits > 1;
    if (m->defer) {
        /* a slot for one node in 128 of the arena's room (a search makes the children of about one
         * leaf in five, and a leaf takes room for dozens), at most 64 MiB */
        uint64_t want = cap / 128 + 64, most = ((uint64_t)64 << 20) / sizeof(NnueAcc);
        m->acc_cap = (uint32_t)(want < most ? want : most);
        m->accs = aligned_alloc(_Alignof(NnueAcc), (size_t)m->acc_cap * sizeof(NnueAcc));
        if (!m->accs) {
            mcts_free(m);
            return error_set(err, "out of memory for %u accumulators", (unsigned)m->acc_cap);
        }
    }
    if (cfg->puct) {
        uint32_t t = threads_of(cfg);
        bool ok = (m->batches = calloc(t, sizeof *m->batches)) != NULL;
        for (uint32_t i = 0; ok && i < t; i++) ok = batch_alloc(&m->batches[i], batch_of(cfg));
        if (!ok) {
            mcts_free(m);
            return error_set(err, "out of memory for %u batches of %d leaves", (unsigned)t, batch_of(cfg));
        }
    }
    *out = m;
    return 0;
}

void mcts_free(Mcts *m)
{
    if (!m) return;
    for (uint32_t i = 0; m->batches && i < threads_of(&m->cfg); i++) batch_free(&m->batches[i]);
    free(m->batches);
    free(m->accs);
    free(m->nodes);
    free(m->spare);
    free(m);
}

void mcts_clear(Mcts *m)
{
    m->valid = false;
    m->ply = 0;
}
int mcts_set_pcr(Mcts *m, double p, uint32_t sims, char *err)
{
    if (!(p >= 0 && p <= 1)) return error_code(err, ERR_USAGE, "pcr probability %g: expected 0..1", p);
    if (p < 1 && (sims == 0 || sims >= m->cfg.sims))
        return error_code(err, ERR_USAGE, "pcr sims %u: expected 1..%u, fewer than the search's sims",
                          (unsigned)sims, (unsigned)(m->cfg.sims - 1));
    m->cfg.pcr_p = p;
    m->cfg.pcr_sims = p < 1 ? sims : 0;
    return 0;
}

uint32_t mcts_nodes_used(const Mcts *m) { return m->valid ? LD(m->used) + m->pending : 0; }
const MctsNode *mcts_tree_nodes(const Mcts *m, uint32_t *used)
{
    *used = m->valid ? LD(m->used) : 0;
    return m->nodes;
}
const char *mcts_error(const Mcts *m) { return atomic_load(&m->failed) ? m->error : NULL; }

int mcts_nodes_check(const MctsNode *nodes, uint32_t used, char *err)
{
    const char *w = NULL;
    uint64_t in_ranges = 0;
    for (uint32_t i = 0; i < used && !w; i++) {
        const MctsNode *n = nodes + i;
        uint32_t child = LD(n->child), visits = LD(n->visits);
        uint8_t terminal = LD(n->terminal), proven = LD(n->proven);
        double score2 = LD(n->score2);
        if (n->mover != WHITE && n->mover != BLACK) w = "a node's mover is neither WHITE nor BLACK";
        else if (terminal > RESULT_DRAW) w = "a node's terminal result is not a RESULT_*";
        else if (proven > RESULT_BLACK) w = "a node's proven result is not RESULT_NONE, _WHITE or _BLACK";
        else if (!(score2 >= 0 && score2 <= 2.0 * visits)) w = "a node's score2 lies outside [0, 2 * visits]";
        else if (n->nchild > MAX_ACTIONS) w = "a node has more than MAX_ACTIONS children";
        else if (!child && n->nchild && LD(n->claim) != MCTS_CLAIM_DEFERRED) w = "an unexpanded node counts children";
        else if (!child && n->nchild && terminal) w = "a terminal node has deferred children";
        else if (child && !n->nchild) w = "an expanded node has no children";
        else if (child && terminal) w = "a terminal node has children";
        else if (child && (child <= i || child > used || n->nchild > used - child))
            w = "a child range lies outside the arena's used part or not after its parent";
        if (w || !child) continue;
        const MctsNode *c = nodes + child;
        uint64_t sum = 0;
        for (int k = 0; k < n->nchild && !w; k++) {
            sum += LD(c[k].visits);
            if (c[k].mover != c[0].mover) w = "the children of one node have different movers";
        }
        if (!w && sum > visits) w = "children's visits sum to more than their parent's";
        in_ranges += n->nchild;
    }
    if (!w && used && in_ranges != used - 1) w = "the child ranges do not hold every node but the root";
    return w ? error_set(err, "%s", w) : 0;
}

int mcts_tree_check(const Mcts *m, char *err)
{
    if (!m->valid) return 0;
    uint32_t used = LD(m->used);
    if (used < 1 || used > m->cap || m->pending > m->cap - used)
        return error_set(err, "the nodes in use are none or more than the arena holds");
    return mcts_nodes_check(m->nodes, used, err);
}

static void reset_root(Mcts *m, const Position *pos)
{
    m->root_pos = *pos;
    m->nodes[0] = (MctsNode){.mover = (uint8_t)(pos->actor ^ 1)};
    ST(m->used, 1);
    m->pending = 0;
    m->nacc = 0;
    m->valid = true;
}

/* Takes k nodes from the arena: their first index, or 0 when it is full.
 * A compare-and-swap, so that the threads of a parallel search each get
 * their own range; one thread's search sees the plain bump it always had. */
static uint32_t arena_take(Mcts *m, uint32_t k)
{
    uint32_t at = LD(m->used);
    do {
        if (k > m->cap - m->pending - at) return 0;
    } while (!atomic_compare_exchange_weak_explicit(&m->used, &at, at + k, memory_order_relaxed,
                                                    memory_order_relaxed));
    return at;
}

/* A terminal node's winner is proven (the solver's seed); a draw is not. */
static void mark_terminal(const Mcts *m, MctsNode *n, int result)
{
    ST(n->terminal, (uint8_t)result);
    if (m->cfg.solver && result != RESULT_DRAW) ST(n->proven, (uint8_t)result);
}

/* prior=W: each child's position after its action scored by the
 * evaluation from the chooser's side, and a softmax over those logits,
 * stored in 16 bits (plenty for a selection bonus). */
static void set_priors(const Mcts *m, MctsNode *c, int k, const Position *pos)
{
    double logit[MAX_ACTIONS], top = -1e300, sum = 0;
    for (int i = 0; i < k; i++) {
        Position next = *pos;
        Undo u;
        pos_make(&next, c[i].action, &u);
        int result;
        double l;
        if (pos_outcome(&next, &result, NULL))
            l = result == RESULT_DRAW ? 0 : ((result == RESULT_WHITE) == (pos->actor == WHITE) ? 50 : -50);
        else
            l = (pos->actor == WHITE ? 1 : -1) * (m->cfg.net ? evaluator_logit(&(Evaluator){.net = m->cfg.net}, &next)
                                                             : eval_logit(&m->cfg.weights, &next));
        logit[i] = l;
        if (l > top) top = l;
    }
    for (int i = 0; i < k; i++) sum += (logit[i] = exp(logit[i] - top));
    for (int i = 0; i < k; i++) c[i].prior = (uint16_t)number_round(65535.0 * logit[i] / sum);
}

/* Creates the children of n (all legal actions, in an order shuffled with
 * the search's Rng so that unvisited children are tried in random order).
 * Returns false when the position is over (n becomes terminal) or when the
 * arena has no room (n stays a leaf). In a parallel search the caller has
 * claimed n; the children are published by the release store of child. */
static bool expand(Mcts *m, MctsNode *n, const Position *pos, Rng *rng)
{
    Action list[MAX_ACTIONS];
    int k = movegen_all(pos, list);
    if (k == 0) {
        int result;
        pos_outcome(pos, &result, NULL);
        mark_terminal(m, n, result);
        return false;
    }
    uint32_t at = arena_take(m, (uint32_t)k);
    if (!at) return false;
    for (int i = k - 1; i > 0; i--) {
        int j = (int)rng_below(rng, (uint32_t)i + 1);
        Action t = list[i];
        list[i] = list[j];
        list[j] = t;
    }
    MctsNode *c = m->nodes + at;
    for (int i = 0; i < k; i++) c[i] = (MctsNode){.action = list[i], .mover = pos->actor};
    if (m->cfg.prior > 0) set_priors(m, c, k, pos);
    n->nchild = (uint16_t)k;
    atomic_store_explicit(&n->child, at, memory_order_release);
    return true;
}

/* UCT, the default search's selection, exactly as it always chose: the
 * first unvisited child (children are shuffled), else the child maximising
 * mean + c * sqrt(ln N / n). Means are from the point of view of the
 * child's mover, who is the player choosing here. The scores are computed
 * in a loop of their own over copied statistics, which the compiler turns
 * into vector divisions and square roots: the same IEEE operations lane by
 * lane (no contraction, -ffp-contract=off), so the same choices, in less
 * time (this selection was a quarter of the tuned agent's time). */
static MctsNode *select_uct(const Mcts *m, const MctsNode *n)
{
    MctsNode *c = m->nodes + LD(n->child);
    int k = n->nchild;
    double vis[MAX_ACTIONS], sc[MAX_ACTIONS], u[MAX_ACTIONS];
    for (int i = 0; i < k; i++) {
        uint32_t v = LD(c[i].visits);
        if (v == 0) return c + i;
        vis[i] = v;
        sc[i] = LD(c[i].score2);
    }
    double logn = log((double)LD(n->visits)), cc = m->cfg.c;
    for (int i = 0; i < k; i++) {
        double inv = 1.0 / vis[i];
        u[i] = 0.5 * sc[i] * inv + cc * __builtin_sqrt(logn * inv);
    }
    int best = 0;
    double bestu = -1.0;
    for (int i = 0; i < k; i++)
        if (u[i] > bestu) {
            bestu = u[i];
            best = i;
        }
    return c + best;
}

/* Selection with any of the options: virtual losses (a parallel search),
 * proofs (the solver), priors and the root's noise (noise: the Dirichlet
 * sample of n's children, else NULL; mcts.h has the term). In a parallel
 * search a child's visits count the threads now below it, whose scores
 * are not in yet: visits that scored nothing, the virtual loss. With the solver a child proven
 * won for the chooser is taken at once, and children proven lost are
 * passed over while another exists. */
static MctsNode *select_general(const Mcts *m, const MctsNode *n, const double *noise)
{
    MctsNode *c = m->nodes + atomic_load_explicit(&n->child, memory_order_acquire);
    int k = n->nchild, chooser = c[0].mover;
    int win = chooser == WHITE ? RESULT_WHITE : RESULT_BLACK;
    bool solver = m->cfg.solver;
    double nn = (double)LD(n->visits), logn = log(nn > 1 ? nn : 1), rootn = sqrt(nn);
    double cc = m->cfg.c, w = m->cfg.prior, fpu = 0.5 + cc * sqrt(logn);
    /* gather (proofs decide at once), then score in a vector loop as in
     * select_uct: an unvisited child scores fpu, a lost one never wins */
    double vis[MAX_ACTIONS], sc[MAX_ACTIONS], pri[MAX_ACTIONS], off[MAX_ACTIONS], u[MAX_ACTIONS];
    for (int i = 0; i < k; i++) {
        uint8_t pr = solver ? LD(c[i].proven) : RESULT_NONE;
        if (pr == win) return c + i;
        vis[i] = LD(c[i].visits);
        if (pr == RESULT_NONE && vis[i] == 0 && w == 0) return c + i;
        sc[i] = LD(c[i].score2);
        pri[i] = c[i].prior * (w / 65535.0);
        off[i] = pr == RESULT_NONE ? 0 : -1e300; /* proven lost for the chooser */
    }
    for (int i = 0; i < k; i++) {
        double inv = 1.0 / (vis[i] > 0 ? vis[i] : 1);
        double uct = vis[i] > 0 ? 0.5 * sc[i] * inv + cc * __builtin_sqrt(logn * inv) : fpu;
        u[i] = uct + pri[i] * rootn / (1 + vis[i]) + off[i];
    }
    if (noise) {
        /* the priors p' = (1 - EPS) p + EPS eta: with priors, W p' is W p
         * (above) plus this; in plain UCT, p = 1/k and W = c */
        double eps = m->cfg.noise, wn = w > 0 ? w : cc, flat = 1.0 / k;
        for (int i = 0; i < k; i++) {
            double p = w > 0 ? c[i].prior / 65535.0 : flat;
            u[i] += wn * eps * (noise[i] - p) * rootn / (1 + vis[i]);
        }
    }
    int best = 0;
    double bestu = u[0];
    for (int i = 1; i < k; i++)
        if (u[i] > bestu) {
            bestu = u[i];
            best = i;
        }
    /* every child lost: the best of the lost, as good as any */
    return c + best;
}

static inline double score2_for(int result, int player)
{
    if (result == RESULT_DRAW) return 1;
    return (result == RESULT_WHITE) == (player == WHITE) ? 2 : 0;
}

/* Adds a simulation's result to a node: a visit and its score, plain in
 * one thread's search; in a parallel one the visit was counted on the way
 * down (the virtual loss), and the score is added by a compare-and-swap
 * loop (C11 has no atomic add of a double). */
static inline void node_add(MctsNode *p, double s2, bool parallel)
{
    if (!parallel) {
        ST(p->visits, LD(p->visits) + 1);
        ST(p->score2, LD(p->score2) + s2);
        return;
    }
    double old = LD(p->score2);
    while (!atomic_compare_exchange_weak_explicit(&p->score2, &old, old + s2, memory_order_relaxed,
                                                  memory_order_relaxed)) {
    }
}

/* Solver: after a simulation whose leaf was proven, the proof climbs the
 * path while each parent becomes proven: its actor wins if one child is
 * won for the actor, loses if every child is lost for the actor. */
static void prove_path(Mcts *m, const uint32_t *path, int depth)
{
    for (int i = depth - 2; i >= 0; i--) {
        MctsNode *n = m->nodes + path[i];
        if (LD(n->proven)) continue; /* another thread's proof got here first */
        const MctsNode *c = m->nodes + atomic_load_explicit(&n->child, memory_order_acquire);
        int win = c[0].mover == WHITE ? RESULT_WHITE : RESULT_BLACK, lose = RESULT_WHITE + RESULT_BLACK - win;
        int k = n->nchild, lost = 0;
        for (int j = 0; j < k; j++) {
            uint8_t pr = LD(c[j].proven);
            if (pr == win) {
                lost = -1;
                break;
            }
            lost += pr == lose;
        }
        if (lost == -1)
            ST(n->proven, (uint8_t)win);
        else if (lost == k)
            ST(n->proven, (uint8_t)lose);
        else
            return;
    }
}

/* One simulation: select down the tree making actions on a copy of the
 * root position, expand the leaf if it has been visited before (the root
 * always), play out from the leaf or from its first new child, back up.
 * In a parallel search a leaf another thread is expanding is played out
 * as a leaf, and each node's visit is counted on the way down, so that
 * the threads behind see it as a visit that has not scored yet (a virtual
 * loss, made good by the score added during backup): two read-modify-
 * writes per node, the visit and the score. */
static void simulate(Mcts *m, Rng *rng, bool parallel)
{
    uint32_t path[PATH_MAX_LEN];
    int depth = 0;
    Position pos = m->root_pos;
    Undo u;
    MctsNode *n = m->nodes;
    path[depth++] = 0;
    int result = RESULT_NONE;
    /* a parallel search's selection is UCT's over visits that count the
     * threads below (the virtual loss): select_uct serves it too */
    bool solver = m->cfg.solver, general = solver || m->cfg.prior > 0;
    /* parallel: the visits n had before this simulation counted its own */
    uint32_t seen = parallel ? atomic_fetch_add_explicit(&n->visits, 1, memory_order_relaxed) : 0;
    for (;;) {
        uint8_t t = LD(n->terminal);
        if (t) {
            result = t;
            break;
        }
        if (solver && depth > 1 && (t = LD(n->proven))) {
            result = t;
            break;
        }
        if (!atomic_load_explicit(&n->child, memory_order_acquire)) {
            if ((parallel ? seen : LD(n->visits)) == 0 && depth > 1) {
                if (solver && pos_outcome(&pos, &result, NULL)) mark_terminal(m, n, result);
                break;
            }
            uint8_t unclaimed = 0;
            if (parallel && !atomic_compare_exchange_strong_explicit(&n->claim, &unclaimed, 1, memory_order_relaxed,
                                                                     memory_order_relaxed))
                break; /* another thread expands it: a leaf for now */
            bool grown = expand(m, n, &pos, rng);
            if (!grown) {
                if (parallel) ST(n->claim, 0);
                result = LD(n->terminal);
                break;
            }
        }
        if (depth == PATH_MAX_LEN) break;
        if (depth == 1 && m->noisy) n = select_general(m, n, m->root_noise);
        else n = general ? select_general(m, n, NULL) : select_uct(m, n);
        if (parallel) seen = atomic_fetch_add_explicit(&n->visits, 1, memory_order_relaxed);
        pos_make(&pos, n->action, &u);
        path[depth++] = (uint32_t)(n - m->nodes);
    }
    double white = 0.5; /* an evaluated leaf: White's expected score */
    if (result == RESULT_NONE && !m->cfg.evaluate)
        result = playout_random_policy(&pos, rng, m->cfg.policy, NULL);
    if (result == RESULT_NONE)
        white = m->cfg.net ? playout_evaluate_with(&pos, rng, m->cfg.rollout, &(Evaluator){.net = m->cfg.net}, m->cfg.policy)
                           : playout_evaluate_policy(&pos, rng, m->cfg.rollout, &m->cfg.weights, m->cfg.policy);
    for (int i = 0; i < depth; i++) {
        MctsNode *p = m->nodes + path[i];
        double s2 = result != RESULT_NONE ? score2_for(result, p->mover) : 2 * (p->mover == WHITE ? white : 1 - white);
        node_add(p, s2, parallel);
    }
    if (solver && LD(m->nodes[path[depth - 1]].proven)) prove_path(m, path, depth);
}

/* The most visited child of n (expanded); ties go to the better mean,
 * then the first in the (shuffled) child order. With the solver, a child
 * proven won for the chooser comes first, and children proven lost only
 * when every child is. */
static const MctsNode *best_child(const Mcts *m, const MctsNode *n)
{
    const MctsNode *c = m->nodes + LD(n->child), *best = NULL;
    int win = c[0].mover == WHITE ? RESULT_WHITE : RESULT_BLACK;
    int rank_best = -1;
    for (int i = 0; i < n->nchild; i++) {
        /* rank: 2 proven won, 1 open, 0 proven lost (all 1 without the solver) */
        uint8_t pr = m->cfg.solver ? LD(c[i].proven) : RESULT_NONE;
        int rank = pr == RESULT_NONE ? 1 : pr == win ? 2 : 0;
        uint32_t v = LD(c[i].visits), bv = best ? LD(best->visits) : 0;
        if (!best || rank > rank_best ||
            (rank == rank_best &&
             (v > bv || (v == bv && LD(c[i].score2) * bv > LD(best->score2) * v)))) {
            best = c + i;
            rank_best = rank;
        }
    }
    return best;
}

Action mcts_search(Mcts *m, const Position *pos, Rng *rng, MctsResult *res)
{
    return mcts_search_limited(m, pos, rng, NULL, res);
}

/* ---- PUCT (mcts.h) ---------------------------------------------------- */

/* A visit counted on the way down, and one taken back (a collision). */
static inline void visit_add(MctsNode *p, bool parallel)
{
    if (parallel) atomic_fetch_add_explicit(&p->visits, 1, memory_order_relaxed);
    else ST(p->visits, LD(p->visits) + 1);
}

static inline void visit_undo(MctsNode *p, bool parallel)
{
    if (parallel) atomic_fetch_sub_explicit(&p->visits, 1, memory_order_relaxed);
    else ST(p->visits, LD(p->visits) - 1);
}

/* PUCT's score of every child in turn (select_puct): the reference the
 * fast way must agree with, and the way with the solver or the root's
 * noise. win: the result that is a win for the chooser. */
static MctsNode *select_puct_scan(MctsNode *c, int k, int win, bool solver, double fpu, double cc, const double *noise,
                                  double eps)
{
    int best = 0;
    double bestu = -INFINITY;
    for (int i = 0; i < k; i++) {
        uint8_t pr = solver ? LD(c[i].proven) : RESULT_NONE;
        if (pr == win) return c + i;
        double v = LD(c[i].visits), p = c[i].prior / 65535.0;
        if (noise) p = (1 - eps) * p + eps * noise[i];
        double u = (v > 0 ? 0.5 * LD(c[i].score2) / v : fpu) + cc * p / (1 + v) + (pr == RESULT_NONE ? 0 : -1e300);
        if (u > bestu) {
            bestu = u;
            best = i;
        }
    }
    return c + best;
}

/* select_puct without the solver and the root's noise, to the same child
 * in fewer operations: an unvisited child's score, fpu + cc * P (the
 * division by 1 + 0 is exact), does not fall as its prior grows (each
 * rounded step is monotone for cc >= 0), so of the unvisited children only
 * the first with the largest prior can be the first with the largest
 * score, unless an earlier one with a smaller prior rounds to the same
 * score: then NULL, and the caller scores every child as before. A visited
 * child is scored by select_puct's own expression. The first child of the
 * largest score wins, as there. */
static MctsNode *select_puct_fast(MctsNode *c, int k, double fpu, double cc)
{
    int best = 0, top = -1, below = -1; /* top: the first unvisited of the largest prior; below: the
                                         * largest prior of the unvisited before it */
    double bestu = -INFINITY;
    for (int i = 0; i < k; i++) {
        uint32_t vi = LD(c[i].visits);
        if (!vi) {
            if (top < 0 || c[i].prior > c[top].prior) {
                below = top < 0 ? -1 : c[top].prior;
                top = i;
            }
            continue;
        }
        double v = vi, p = c[i].prior / 65535.0;
        double u = 0.5 * LD(c[i].score2) / v + cc * p / (1 + v);
        if (u > bestu) {
            bestu = u;
            best = i;
        }
    }
    if (top < 0) return c + best;
    double ut = fpu + cc * (c[top].prior / 65535.0);
    if (below >= 0 && fpu + cc * (below / 65535.0) == ut) return NULL;
    if (ut > bestu || (ut == bestu && top < best)) return c + top;
    return c + best;
}

/* PUCT's selection (mcts.h): Q + c P sqrt(N) / (1 + n), an unvisited
 * child's Q the parent's less fpu; the root's priors mixed with its noise
 * (noise: the sample, else NULL). With the solver, a child proven won for
 * the chooser is taken at once and proven losses only when every child is
 * one. Ties go to the first child. */
static MctsNode *select_puct(const Mcts *m, const MctsNode *n, const double *noise)
{
    MctsNode *c = m->nodes + atomic_load_explicit(&n->child, memory_order_acquire);
    int k = n->nchild, chooser = c[0].mover;
    int win = chooser == WHITE ? RESULT_WHITE : RESULT_BLACK;
    bool solver = m->cfg.solver;
    double nv = LD(n->visits), q = nv > 0 ? 0.5 * LD(n->score2) / nv : 0.5;
    if (n->mover != chooser) q = 1 - q;
    double fpu = q - m->cfg.fpu, cc = m->cfg.c * sqrt(nv), eps = noise ? m->cfg.noise : 0;
    if (!solver && !noise && cc >= 0) {
        MctsNode *fast = select_puct_fast(c, k, fpu, cc);
        if (fast) return fast;
    }
    return select_puct_scan(c, k, win, solver, fpu, cc, noise, eps);
}

int mcts_select_puct_child(MctsNode *c, int k, double fpu, double cc, bool fast)
{
    MctsNode *n = fast && cc >= 0 ? select_puct_fast(c, k, fpu, cc) : NULL;
    if (!n) n = select_puct_scan(c, k, -1, false, fpu, cc, NULL, 0); /* -1: no result is a win */
    return (int)(n - c);
}

/* Adds a simulation's score to every node of its path (their visits were
 * counted on the way down): a result, or White's expected score. */
static void puct_backup(Mcts *m, const uint32_t *path, int depth, int result, double white, bool parallel)
{
    for (int i = 0; i < depth; i++) {
        MctsNode *p = m->nodes + path[i];
        double s2 = result != RESULT_NONE ? score2_for(result, p->mover) : 2 * (p->mover == WHITE ? white : 1 - white);
        if (!parallel) {
            ST(p->score2, LD(p->score2) + s2);
            continue;
        }
        double old = LD(p->score2);
        while (!atomic_compare_exchange_weak_explicit(&p->score2, &old, old + s2, memory_order_relaxed,
                                                      memory_order_relaxed)) {
        }
    }
    if (m->cfg.solver && result != RESULT_NONE && LD(m->nodes[path[depth - 1]].proven)) prove_path(m, path, depth);
}

enum { DESCENT_COLLISION, DESCENT_LEAF, DESCENT_RESULT };

/* One simulation's way down: DESCENT_LEAF, a leaf claimed and added to
 * the batch; DESCENT_RESULT, a position over (or proven) reached and its
 * result backed up; DESCENT_COLLISION, a leaf already claimed (in this
 * batch or by another thread) reached, and the visits taken back. */
static void make_deferred(Mcts *m, MctsNode *n, const MctsNode *parent, const Position *pos, const Undo *undo,
                          Action *legal, float *prior);
static void refine_priors(Mcts *m, MctsNode *n, const MctsNode *parent, const Position *pos, const Undo *undo,
                          Action *legal, float *prior);

static int puct_descend(Mcts *m, PuctBatch *b, bool parallel)
{
    int slot = b->n, depth = 0, result = RESULT_NONE;
    uint32_t *path = b->path[slot];
    Position *pos = &b->pos[slot];
    *pos = m->root_pos;
    MctsNode *n = m->nodes;
    path[depth++] = 0;
    visit_add(n, parallel);
    for (;;) {
        uint8_t t = LD(n->terminal);
        if (t || (m->cfg.solver && depth > 1 && (t = LD(n->proven)))) {
            result = t;
            break;
        }
        if (m->defer && !LD(n->child) && LD(n->claim) == MCTS_CLAIM_DEFERRED)
            /* back at a deferred leaf: its children now */
            make_deferred(m, n, depth >= 2 ? m->nodes + path[depth - 2] : NULL, pos, &b->undo[slot], b->legal[slot],
                          b->prior[slot]);
        if (!atomic_load_explicit(&n->child, memory_order_acquire)) {
            uint8_t unclaimed = 0;
            if (!atomic_compare_exchange_strong_explicit(&n->claim, &unclaimed, 1, memory_order_relaxed,
                                                         memory_order_relaxed)) {
                for (int i = 0; i < depth; i++) visit_undo(m->nodes + path[i], parallel);
                return DESCENT_COLLISION;
            }
            /* deferred children: a leaf in P or M is valued without its actions, which are listed when
             * its children are made; their number keeps the room */
            int k = m->defer && (pos->state == STATE_P || pos->state == STATE_M) ? movegen_count(pos)
                                                                                : movegen_all(pos, b->legal[slot]);
            if (k == 0) {
                pos_outcome(pos, &result, NULL);
                mark_terminal(m, n, result);
                break;
            }
            b->depth[slot] = depth;
            b->leaf[slot] = (MctsLeaf){.pos = pos, .legal = b->legal[slot], .nlegal = k, .prior = b->prior[slot]};
            b->n++;
            return DESCENT_LEAF;
        }
        if (depth == PATH_MAX_LEN) break; /* never: a game ends first */
        if (m->refine && LD(n->claim) == 1 && LD(n->visits) >= m->cfg.child_visits)
            refine_priors(m, n, depth >= 2 ? m->nodes + path[depth - 2] : NULL, pos, &b->undo[slot], b->legal[slot],
                          b->prior[slot]);
        n = select_puct(m, n, depth == 1 && m->noisy ? m->root_noise : NULL);
        visit_add(n, parallel);
        pos_make(pos, n->action, &b->undo[slot]);
        path[depth++] = (uint32_t)(n - m->nodes);
    }
    puct_backup(m, path, depth, result, 0.5, parallel);
    return DESCENT_RESULT;
}

/* The lab's net as the evaluator (eval/nnue_policy.h): the softmax of
 * its priors' logits, and its value. */
static void net_priors(const double *z, int n, float *prior)
{
    double top = -INFINITY;
    for (int i = 0; i < n; i++) top = z[i] > top ? z[i] : top;
    for (int i = 0; i < n; i++) prior[i] = (float)exp(z[i] - top);
}

static void net_evaluate(const Mcts *m, MctsLeaf *leaves, int n)
{
    const Nnue *net = m->cfg.net;
    for (int l = 0; l < n; l++) {
        MctsLeaf *f = leaves + l;
        double z[MAX_ACTIONS], v;
        nnue_policy_value(net, f->pos, f->legal, f->nlegal, z, &v);
        if (m->cfg.child > 0) {
            NnueAcc acc;
            nnue_refresh(net, f->pos, &acc);
            nnue_policy_children_add(net, &acc, f->pos, f->legal, f->nlegal, m->cfg.child, z);
        }
        net_priors(z, f->nlegal, f->prior);
        f->value = (float)v;
    }
}

/* A slot of the pool for node n's accumulators, or NULL when it is full. */
static NnueAcc *acc_slot(Mcts *m, MctsNode *n)
{
    if (m->nacc == m->acc_cap) return NULL;
    n->acc = ++m->nacc;
    return &m->accs[n->acc - 1];
}

/* Deferred children: the net's value alone, the priors left for later;
 * a leaf's accumulators from its parent's (made now if the parent has
 * none: it is about to have more children evaluated). */
static void net_evaluate_value(Mcts *m, PuctBatch *b, int n)
{
    const Nnue *net = m->cfg.net;
    for (int l = 0; l < n; l++) {
        MctsLeaf *f = &b->leaf[l];
        int depth = b->depth[l];
        NnueAcc acc, *from = NULL;
        if (depth >= 2) {
            MctsNode *parent = m->nodes + b->path[l][depth - 2], *leaf = m->nodes + b->path[l][depth - 1];
            if (parent->acc) {
                from = &m->accs[parent->acc - 1];
            } else if ((from = acc_slot(m, parent))) {
                Position before = *f->pos;
                pos_unmake(&before, leaf->action, &b->undo[l]);
                nnue_refresh(net, &before, from);
            }
            if (from) nnue_make(net, from, &acc, f->pos, leaf->action, &b->undo[l]);
        }
        if (!from) nnue_refresh(net, f->pos, &acc);
        f->value = (float)nnue_policy_direct_value_acc(net, &acc, f->pos, f->legal, f->nlegal);
    }
}

/* Makes leaf's k children in the arena from at: the legal actions of
 * its position (actor to act) with the evaluator's priors, normalised
 * and rounded to 16 bits; then publishes them. */
static void make_children(Mcts *m, MctsNode *leaf, uint32_t at, const Action *legal, const float *prior, int k,
                          int actor)
{
    double sum = 0;
    for (int i = 0; i < k; i++) sum += prior[i];
    MctsNode *c = m->nodes + at;
    for (int i = 0; i < k; i++)
        c[i] = (MctsNode){.action = legal[i], .mover = (uint8_t)actor,
                          .prior = (uint16_t)number_round(65535.0 * (sum > 0 ? prior[i] / sum : 1.0 / k))};
    leaf->nchild = (uint16_t)k;
    atomic_store_explicit(&leaf->child, at, memory_order_release);
}

/* Node n's accumulators (at pos, reached from parent by undo; parent
 * NULL at the root): its slot in the pool, made now if it has none (from
 * the parent's when it has them), or own when the pool is full. */
static const NnueAcc *node_acc(Mcts *m, MctsNode *n, const MctsNode *parent, const Position *pos, const Undo *undo,
                               NnueAcc *own)
{
    if (n->acc) return &m->accs[n->acc - 1];
    NnueAcc *acc = acc_slot(m, n);
    if (!acc) acc = own;
    if (parent && parent->acc) nnue_make(m->cfg.net, &m->accs[parent->acc - 1], acc, pos, n->action, undo);
    else nnue_refresh(m->cfg.net, pos, acc);
    return acc;
}

/* Whether a node's priors take the children's values when its children
 * are made (else at its child_visits-th visit, refine_priors). */
static bool child_at_once(const Mcts *m) { return m->cfg.child > 0 && m->cfg.child_visits <= 1; }

/* A deferred leaf n (at pos) reached again: its priors from the net and
 * its children made, in the room kept for them (legal and prior:
 * scratch). The same children, priors and order as made at once. */
static void make_deferred(Mcts *m, MctsNode *n, const MctsNode *parent, const Position *pos, const Undo *undo,
                          Action *legal, float *prior)
{
    int k = movegen_all(pos, legal);
    assert(k == n->nchild && (uint32_t)k <= m->pending);
    double z[MAX_ACTIONS];
    NnueAcc own;
    const NnueAcc *acc = node_acc(m, n, parent, pos, undo, &own);
    nnue_policy_direct_logits_acc(m->cfg.net, acc, pos, legal, k, z);
    if (child_at_once(m)) nnue_policy_children_add(m->cfg.net, acc, pos, legal, k, m->cfg.child, z);
    net_priors(z, k, prior);
    m->pending -= (uint32_t)k;
    uint32_t at = arena_take(m, (uint32_t)k); /* never 0: the room was kept */
    make_children(m, n, at, legal, prior, k, pos->actor);
    ST(n->claim, child_at_once(m) ? MCTS_CLAIM_CHILD : 1);
}

/* Node n (at pos), its children made, at its child_visits-th visit: its
 * priors anew from the head's logits and the children's values (legal
 * and prior: scratch). */
static void refine_priors(Mcts *m, MctsNode *n, const MctsNode *parent, const Position *pos, const Undo *undo,
                          Action *legal, float *prior)
{
    int k = n->nchild;
    MctsNode *c = m->nodes + LD(n->child);
    for (int i = 0; i < k; i++) legal[i] = c[i].action;
    double z[MAX_ACTIONS], sum = 0;
    NnueAcc own;
    const NnueAcc *acc = node_acc(m, n, parent, pos, undo, &own);
    nnue_policy_direct_logits_acc(m->cfg.net, acc, pos, legal, k, z);
    nnue_policy_children_add(m->cfg.net, acc, pos, legal, k, m->cfg.child, z);
    net_priors(z, k, prior);
    for (int i = 0; i < k; i++) sum += prior[i];
    for (int i = 0; i < k; i++) c[i].prior = (uint16_t)number_round(65535.0 * (sum > 0 ? prior[i] / sum : 1.0 / k));
    ST(n->claim, MCTS_CLAIM_CHILD);
}

/* The root's children made if it is a deferred leaf: what reads them
 * after a search (the choice, the noise, the visits stored) finds them. */
static void make_root(Mcts *m)
{
    MctsNode *r = m->nodes;
    if (m->defer && !LD(r->child) && LD(r->claim) == MCTS_CLAIM_DEFERRED)
        make_deferred(m, r, NULL, &m->root_pos, NULL, m->batches[0].legal[0], m->batches[0].prior[0]);
}

/* Whether the evaluator's numbers for leaf f are numbers it may give. */
static const char *leaf_problem(const MctsLeaf *f)
{
    if (!(f->value >= 0 && f->value <= 1)) return "a value outside [0, 1]";
    for (int i = 0; i < f->nlegal; i++)
        if (!(f->prior[i] >= 0 && isfinite(f->prior[i]))) return "a prior that is not a finite number >= 0";
    return NULL;
}

/* The first error of a search, kept (the others are dropped). */
static void puct_fail(Mcts *m, const char *msg)
{
    bool was = false;
    /* the first to fail writes; the message is read after the threads end */
    if (atomic_compare_exchange_strong(&m->failed, &was, true)) snprintf(m->error, sizeof m->error, "%s", msg);
}

/* Evaluates the batch, expands its leaves with the priors and backs up
 * the values; returns the simulations it completed. An evaluator that
 * fails (or gives numbers that are not priors and values) completes none:
 * its leaves are released and their visits taken back, and the search
 * stops (mcts_error). */
static uint32_t puct_evaluate(Mcts *m, PuctBatch *b, bool parallel)
{
    int n = b->n;
    b->n = 0;
    if (!n) return 0;
    char err[ERR_LEN] = "";
    int rc = 0;
    if (m->cfg.evaluate_fn) rc = m->cfg.evaluate_fn(m->cfg.evaluate_ctx, b->leaf, n, err);
    else if (m->defer) net_evaluate_value(m, b, n);
    else net_evaluate(m, b->leaf, n);
    for (int l = 0; !rc && !m->defer && l < n; l++) {
        const char *why = leaf_problem(&b->leaf[l]);
        if (why) rc = error_set(err, "the evaluator gave %s", why);
    }
    if (rc && !err[0]) snprintf(err, sizeof err, "the evaluator failed (%d)", rc);
    for (int l = 0; l < n; l++) {
        const MctsLeaf *f = &b->leaf[l];
        uint32_t *path = b->path[l];
        int depth = b->depth[l];
        MctsNode *leaf = m->nodes + path[depth - 1];
        if (rc) {
            for (int i = 0; i < depth; i++) visit_undo(m->nodes + path[i], parallel);
            ST(leaf->claim, 0);
            continue;
        }
        int k = f->nlegal;
        if (m->defer) {
            /* the room for its children kept, as if they were made (the arena full as it would be) */
            if ((uint32_t)k <= m->cap - m->pending - LD(m->used)) {
                m->pending += (uint32_t)k;
                leaf->nchild = (uint16_t)k;
                ST(leaf->claim, MCTS_CLAIM_DEFERRED);
            } else {
                ST(leaf->claim, 0);
            }
            double white = f->pos->actor == WHITE ? f->value : 1.0 - f->value;
            puct_backup(m, path, depth, RESULT_NONE, white, parallel);
            continue;
        }
        uint32_t at = arena_take(m, (uint32_t)k);
        if (at) {
            make_children(m, leaf, at, f->legal, f->prior, k, f->pos->actor);
        } else {
            ST(leaf->claim, 0); /* the arena is full: a leaf again, evaluated anew when reached */
        }
        double white = f->pos->actor == WHITE ? f->value : 1.0 - f->value;
        puct_backup(m, path, depth, RESULT_NONE, white, parallel);
    }
    if (rc) {
        puct_fail(m, err);
        return 0;
    }
    return (uint32_t)n;
}

/* The shared state of one search's threads. Simulations are handed out by
 * a counter, so that together the threads run the configured number. */
typedef struct Worker {
    Mcts *m;
    const SearchLimits *lim;
    uint32_t sims;
    _Atomic uint32_t *next; /* simulations handed out (may pass sims: those are not run) */
    _Atomic uint32_t *done; /* simulations run */
    Rng rng;                /* this thread's own */
    bool parallel;
    bool reporter;          /* the caller's thread (worker 0), which alone reports progress */
    PuctBatch *batch;       /* puct: this thread's */
} Worker;

static bool root_proven(const Mcts *m) { return m->cfg.solver && LD(m->nodes[0].proven); }

/* A progress report (search/limits.h): the simulations so far, the most
 * visited root child's mean and the principal variation. It only reads
 * the tree (relaxed loads, as any thread of a parallel search does). */
static void report(const Mcts *m, const SearchLimits *lim, uint64_t sims, const double *value)
{
    SearchReport r = {.nodes = sims, .value = 0.5};
    const MctsNode *root = m->nodes;
    if (value) {
        r.value = *value;
    } else if (LD(root->child)) {
        const MctsNode *best = best_child(m, root);
        uint32_t bv = LD(best->visits);
        if (bv) r.value = 0.5 * LD(best->score2) / bv;
    }
    r.npv = mcts_pv(m, r.pv, SEARCH_REPORT_PV);
    lim->report(lim->report_ctx, &r);
}

/* Whether a report is due (the caller's thread only): at most every
 * report_s seconds. */
static bool report_due(const SearchLimits *lim, double *next)
{
    if (!lim || !lim->report) return false;
    double now = clock_now();
    if (now < *next) return false;
    *next = now + lim->report_s;
    return true;
}

/* PUCT's simulations on one thread: batches gathered (each simulation
 * handed out by the shared counter; a collision hands its own back) and
 * evaluated, until the simulations are all handed out, a limit is
 * reached, the root is proven or an evaluation failed. */
static void puct_run(Worker *w)
{
    Mcts *m = w->m;
    PuctBatch *b = w->batch;
    double next = w->reporter ? clock_now() + w->lim->report_s : 0;
    for (bool last = false; !last;) {
        int collisions = 0;
        while (b->n < b->cap && collisions < b->cap) {
            uint32_t s = atomic_fetch_add_explicit(w->next, 1, memory_order_relaxed);
            if (s >= w->sims || (s && ((w->lim && search_limits_reached(w->lim)) || root_proven(m))) ||
                atomic_load_explicit(&m->failed, memory_order_relaxed)) {
                last = true;
                break;
            }
            int r = puct_descend(m, b, w->parallel);
            if (r == DESCENT_COLLISION) {
                collisions++;
                atomic_fetch_sub_explicit(w->next, 1, memory_order_relaxed);
            } else if (r == DESCENT_RESULT) {
                atomic_fetch_add_explicit(w->done, 1, memory_order_relaxed);
            }
        }
        uint32_t done = atomic_fetch_add_explicit(w->done, puct_evaluate(m, b, w->parallel), memory_order_relaxed);
        if (w->reporter && report_due(w->lim, &next)) report(m, w->lim, done, NULL);
    }
}

static void *worker_run(void *arg)
{
    Worker *w = arg;
    if (w->m->cfg.puct) {
        puct_run(w);
        return NULL;
    }
    double next = w->reporter ? clock_now() + w->lim->report_s : 0;
    for (;;) {
        uint32_t s = atomic_fetch_add_explicit(w->next, 1, memory_order_relaxed);
        if (s >= w->sims) break;
        if (s && ((w->lim && search_limits_reached(w->lim)) || root_proven(w->m))) break;
        simulate(w->m, &w->rng, w->parallel);
        uint32_t done = atomic_fetch_add_explicit(w->done, 1, memory_order_relaxed) + 1;
        if (w->reporter && report_due(w->lim, &next)) report(w->m, w->lim, done, NULL);
    }
    return NULL;
}

/* noise: the root expanded now (a fresh tree's first simulation would
 * have done it), and its children's Dirichlet sample drawn, before any
 * thread selects. A root the arena cannot expand, or a finished one, gets
 * none. */
static void draw_root_noise(Mcts *m, Rng *rng)
{
    MctsNode *root = m->nodes;
    if (!LD(root->child) && !LD(root->terminal) && (m->cfg.puct || !expand(m, root, &m->root_pos, rng))) return;
    if (!LD(root->child)) return;
    double alpha = m->cfg.alpha > 0 ? m->cfg.alpha : MCTS_DEFAULT_ALPHA;
    dirichlet_sample(rng, alpha, root->nchild, m->root_noise);
    m->noisy = true;
}

/* temp: a visited root child drawn with probability in proportion to
 * visits^(1/temp), computed as (v / most)^(1/temp) so that a small temp
 * does not overflow. best is the most visited (best_child): a proven win
 * is kept, proven losses are left out while best is open. */
static const MctsNode *sample_child(const Mcts *m, const MctsNode *best, Rng *rng)
{
    const MctsNode *root = m->nodes, *c = m->nodes + LD(root->child);
    int win = c[0].mover == WHITE ? RESULT_WHITE : RESULT_BLACK;
    uint8_t best_pr = m->cfg.solver ? LD(best->proven) : RESULT_NONE;
    if (best_pr != RESULT_NONE || !LD(best->visits)) return best;
    double w[MAX_ACTIONS], sum = 0, most = LD(best->visits), inv = 1.0 / m->cfg.temp;
    for (int i = 0; i < root->nchild; i++) {
        uint32_t v = LD(c[i].visits);
        uint8_t pr = m->cfg.solver ? LD(c[i].proven) : RESULT_NONE;
        w[i] = v && pr != RESULT_WHITE + RESULT_BLACK - win ? exp(inv * log(v / most)) : 0;
        sum += w[i];
    }
    double x = rng_double(rng) * sum;
    for (int i = 0; i < root->nchild; i++) {
        if (w[i] > 0 && x < w[i]) return c + i;
        x -= w[i];
    }
    return best; /* rounding left x at the end */
}

Action mcts_search_limited(Mcts *m, const Position *pos, Rng *rng, const SearchLimits *lim, MctsResult *res)
{
    if (!m->valid || !pos_equal(&m->root_pos, pos)) reset_root(m, pos);
    uint32_t sims = lim && lim->until_stop ? UINT32_MAX : lim && lim->sims ? lim->sims : m->cfg.sims, s = 0;
    /* pcr: the configured sims with probability pcr_p, else pcr_sims
     * (drawn only when both can happen: pcr_p 1 is no pcr at all) */
    bool reduced = false;
    if (m->cfg.pcr_sims && m->cfg.pcr_p < 1 && !(lim && (lim->until_stop || lim->sims)) &&
        !(m->cfg.pcr_p > 0 && rng_double(rng) < m->cfg.pcr_p)) {
        sims = m->cfg.pcr_sims;
        reduced = true;
    }
    atomic_store(&m->failed, false);
    /* puct: a fresh root is evaluated first (one simulation), so that the
     * noise has its children */
    if (m->cfg.puct && m->cfg.noise > 0 && !LD(m->nodes[0].child) && !LD(m->nodes[0].terminal) && sims) {
        PuctBatch *b = &m->batches[0];
        int r = puct_descend(m, b, false);
        s = r == DESCENT_LEAF ? puct_evaluate(m, b, false) : r == DESCENT_RESULT;
        make_root(m);
    }
    if (m->cfg.noise > 0) draw_root_noise(m, rng);
    uint32_t threads = m->cfg.threads > 1 ? m->cfg.threads : 1;
    if (m->cfg.puct && threads == 1) {
        _Atomic uint32_t next = s, done = s;
        Worker w = {.m = m, .lim = lim, .sims = sims, .next = &next, .done = &done, .rng = *rng,
                    .reporter = lim && lim->report, .batch = &m->batches[0]};
        worker_run(&w);
        s = atomic_load(&done);
    } else if (threads == 1) {
        double next = lim && lim->report ? clock_now() + lim->report_s : 0;
        for (; s < sims; s++) {
            if (s && ((lim && search_limits_reached(lim)) || root_proven(m))) break;
            simulate(m, rng, false);
            if (report_due(lim, &next)) report(m, lim, s + 1, NULL);
        }
    } else {
        /* the caller's thread is worker 0 with the caller's Rng; helpers
         * get streams seeded from it, so a search still follows from the
         * game's seed, though the interleaving makes it irreproducible */
        _Atomic uint32_t next = s, done = s;
        Worker w[MCTS_MAX_THREADS];
        pthread_t tid[MCTS_MAX_THREADS];
        bool started[MCTS_MAX_THREADS] = {false};
        uint64_t seed = (uint64_t)rng_next(rng) << 32 | rng_next(rng);
        for (uint32_t i = 0; i < threads; i++) {
            w[i] = (Worker){.m = m, .lim = lim, .sims = sims, .next = &next, .done = &done, .parallel = true,
                            .reporter = i == 0 && lim && lim->report,
                            .batch = m->batches ? &m->batches[i] : NULL};
            if (i) rng_seed(&w[i].rng, seed, i);
        }
        w[0].rng = *rng;
        /* a helper that cannot be started leaves its share to the others */
        for (uint32_t i = 1; i < threads; i++) started[i] = pthread_create(&tid[i], NULL, worker_run, &w[i]) == 0;
        worker_run(&w[0]);
        for (uint32_t i = 1; i < threads; i++)
            if (started[i]) pthread_join(tid[i], NULL);
        *rng = w[0].rng;
        s = atomic_load(&done);
    }

    make_root(m);
    MctsNode *root = m->nodes;
    MctsResult r = {.sims = s, .reduced = reduced};
    m->noisy = false;
    const MctsNode *best = LD(root->child) ? best_child(m, root) : NULL; /* NULL: no child (never, once expanded) */
    if (best && m->cfg.temp > 0 && m->ply < m->cfg.temp_moves) best = sample_child(m, best, rng);
    if (best) {
        uint32_t bv = LD(best->visits);
        r.action = best->action;
        r.searched = true;
        r.legal = root->nchild;
        r.chosen_visits = bv;
        r.value = bv ? 0.5 * LD(best->score2) / bv : 0.5;
        uint32_t rv = LD(root->visits);
        double rs2 = LD(root->score2);
        r.root_value = rv ? 0.5 * (root->mover == pos->actor ? rs2 : 2.0 * rv - rs2) / rv : 0.5;
        if (m->cfg.solver && (r.proven = LD(root->proven)))
            r.value = r.root_value = (r.proven == RESULT_WHITE) == (pos->actor == WHITE) ? 1.0 : 0.0;
    } else {
        /* The arena could not hold even the root's children: fall back to a
         * random legal action, still drawn from the search's Rng. */
        Action list[MAX_ACTIONS];
        r.legal = movegen_all(pos, list);
        r.action = r.legal ? list[rng_below(rng, (uint32_t)r.legal)] : ACTION_NONE;
        r.value = r.root_value = 0.5;
    }
    r.root_visits = LD(root->visits);
    if (res) *res = r;
    if (best && lim && lim->report) report(m, lim, r.sims, &r.value);
    MCTS_DEBUG_CHECK(m);
    return r.action;
}

int mcts_root_child_proven(const Mcts *m, Action a)
{
    uint32_t child = m->valid ? LD(m->nodes[0].child) : 0;
    for (int i = 0; child && i < m->nodes[0].nchild; i++)
        if (m->nodes[child + i].action == a) return LD(m->nodes[child + i].proven);
    return -1;
}

int mcts_pv(const Mcts *m, Action *pv, int max)
{
    int k = 0;
    if (!m->valid) return 0;
    for (const MctsNode *n = m->nodes; k < max && LD(n->child);) {
        n = best_child(m, n);
        if (!LD(n->visits)) break;
        pv[k++] = n->action;
    }
    return k;
}

int mcts_root_children(const Mcts *m, Action *actions, uint32_t *visits, int max)
{
    int k = 0;
    uint32_t child = m->valid ? LD(m->nodes[0].child) : 0;
    for (int i = 0; child && i < m->nodes[0].nchild && k < max; i++) {
        uint32_t v = LD(m->nodes[child + i].visits);
        if (!v) continue;
        actions[k] = m->nodes[child + i].action;
        visits[k++] = v;
    }
    return k;
}

/* Copies the subtree under nodes[from] to the front of the spare arena,
 * breadth first, and swaps the arenas. */
static void keep_subtree(Mcts *m, uint32_t from)
{
    MctsNode *dst = m->spare, *src = m->nodes;
    dst[0] = src[from];
    uint32_t used = 1, pending = 0;
    for (uint32_t j = 0; j < used; j++) {
        MctsNode *n = dst + j;
        n->acc = 0;
        uint32_t child = LD(n->child);
        if (!child) {
            if (LD(n->claim) == MCTS_CLAIM_DEFERRED) pending += n->nchild;
            continue;
        }
        memcpy(dst + used, src + child, n->nchild * sizeof(MctsNode));
        ST(n->child, used);
        used += n->nchild;
    }
    m->spare = src;
    m->nodes = dst;
    ST(m->used, used);
    m->pending = pending;
    m->nacc = 0;
}

void mcts_advance(Mcts *m, const Position *before, Action a)
{
    m->ply++;
    Position next = *before;
    Undo u;
    pos_make(&next, a, &u);
    if (!m->valid || !pos_equal(&m->root_pos, before)) {
        m->valid = false;
        return;
    }
    const MctsNode *root = m->nodes;
    uint32_t child = LD(root->child);
    for (int i = 0; child && i < root->nchild; i++)
        if (m->nodes[child + i].action == a) {
            keep_subtree(m, child + i);
            m->root_pos = next;
            MCTS_DEBUG_CHECK(m);
            return;
        }
    reset_root(m, &next);
}
