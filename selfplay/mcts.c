#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clock.h"
#include "mcts.h"
#include "mcts_tree.h"
#include "movegen.h"
#include "playout.h"

struct Mcts {
    MctsConfig cfg;
    MctsNode *nodes, *spare; /* the tree, and the arena the next advance copies into */
    uint32_t used, cap;
    Position root_pos;
    bool valid;              /* root_pos and nodes[0] describe a tree */
};

/* Assertion builds check the whole tree after every search and advance. */
#ifdef NDEBUG
#define MCTS_DEBUG_CHECK(m) ((void)0)
#else
#define MCTS_DEBUG_CHECK(m) mcts_check(m)
#endif

/* The path of one simulation; the tree is never deeper than a game. */
enum { PATH_MAX_LEN = GAME_MAX_ACTIONS + 1 };

uint32_t mcts_default_nodes(uint32_t sims)
{
    uint64_t n = (uint64_t)sims * 128 + 256;
    return n > MCTS_MAX_DEFAULT_NODES ? MCTS_MAX_DEFAULT_NODES : (uint32_t)n;
}

Mcts *mcts_new(const MctsConfig *cfg)
{
    Mcts *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->cfg = *cfg;
    m->cap = cfg->nodes ? cfg->nodes : mcts_default_nodes(cfg->sims);
    if (m->cap < 2) m->cap = 2;
    if (m->cap > MCTS_MAX_NODES) m->cap = MCTS_MAX_NODES;
    m->nodes = malloc((size_t)m->cap * sizeof(MctsNode));
    m->spare = malloc((size_t)m->cap * sizeof(MctsNode));
    if (!m->nodes || !m->spare) {
        mcts_free(m);
        return NULL;
    }
    return m;
}

void mcts_free(Mcts *m)
{
    if (!m) return;
    free(m->nodes);
    free(m->spare);
    free(m);
}

void mcts_clear(Mcts *m) { m->valid = false; }
uint32_t mcts_nodes_used(const Mcts *m) { return m->valid ? m->used : 0; }

bool mcts_nodes_ok(const MctsNode *nodes, uint32_t used, const char **why)
{
    const char *w = NULL;
    uint64_t in_ranges = 0;
    for (uint32_t i = 0; i < used && !w; i++) {
        const MctsNode *n = nodes + i;
        if (n->mover != WHITE && n->mover != BLACK) w = "a node's mover is neither WHITE nor BLACK";
        else if (n->terminal > RESULT_DRAW) w = "a node's terminal result is not a RESULT_*";
        else if (!(n->score2 >= 0 && n->score2 <= 2.0 * n->visits)) w = "a node's score2 lies outside [0, 2 * visits]";
        else if (n->nchild > MAX_ACTIONS) w = "a node has more than MAX_ACTIONS children";
        else if (!n->child && n->nchild) w = "an unexpanded node counts children";
        else if (n->child && !n->nchild) w = "an expanded node has no children";
        else if (n->child && n->terminal) w = "a terminal node has children";
        else if (n->child && (n->child <= i || n->child > used || n->nchild > used - n->child))
            w = "a child range lies outside the arena's used part or not after its parent";
        if (w || !n->child) continue;
        const MctsNode *c = nodes + n->child;
        uint64_t sum = 0;
        for (int k = 0; k < n->nchild && !w; k++) {
            sum += c[k].visits;
            if (c[k].mover != c[0].mover) w = "the children of one node have different movers";
        }
        if (!w && sum > n->visits) w = "children's visits sum to more than their parent's";
        in_ranges += n->nchild;
    }
    if (!w && used && in_ranges != used - 1) w = "the child ranges do not hold every node but the root";
    if (why) *why = w;
    return w == NULL;
}

bool mcts_tree_ok(const Mcts *m, const char **why)
{
    if (why) *why = NULL;
    if (!m->valid) return true;
    if (m->used < 1 || m->used > m->cap) {
        if (why) *why = "the nodes in use are none or more than the arena holds";
        return false;
    }
    return mcts_nodes_ok(m->nodes, m->used, why);
}

void mcts_check(const Mcts *m)
{
    const char *why;
    if (mcts_tree_ok(m, &why)) return;
    fprintf(stderr, "mcts_check: search tree invariant broken: %s\n", why);
    abort();
}

static void reset_root(Mcts *m, const Position *pos)
{
    m->root_pos = *pos;
    m->nodes[0] = (MctsNode){.mover = (uint8_t)(pos->actor ^ 1)};
    m->used = 1;
    m->valid = true;
}

/* Creates the children of n (all legal actions, in an order shuffled with
 * the search's Rng so that unvisited children are tried in random order).
 * Returns false when the position is over (n becomes terminal) or when the
 * arena has no room (n stays a leaf). */
static bool expand(Mcts *m, MctsNode *n, const Position *pos, Rng *rng)
{
    Action list[MAX_ACTIONS];
    int k = movegen_all(pos, list);
    if (k == 0) {
        int result;
        pos_outcome(pos, &result, NULL);
        n->terminal = (uint8_t)result;
        return false;
    }
    if ((uint32_t)k > m->cap - m->used) return false;
    for (int i = k - 1; i > 0; i--) {
        int j = (int)rng_below(rng, (uint32_t)i + 1);
        Action t = list[i];
        list[i] = list[j];
        list[j] = t;
    }
    MctsNode *c = m->nodes + m->used;
    for (int i = 0; i < k; i++) c[i] = (MctsNode){.action = list[i], .mover = pos->actor};
    n->child = m->used;
    n->nchild = (uint16_t)k;
    m->used += (uint32_t)k;
    return true;
}

/* UCT: the first unvisited child (children are shuffled), else the child
 * maximising mean + c * sqrt(ln N / n). Means are from the point of view of
 * the child's mover, who is the player choosing here. */
static MctsNode *select_child(const Mcts *m, const MctsNode *n)
{
    MctsNode *c = m->nodes + n->child, *best = c;
    double logn = log((double)n->visits), bestu = -1.0, cc = m->cfg.c;
    for (int i = 0; i < n->nchild; i++) {
        if (c[i].visits == 0) return c + i;
        double inv = 1.0 / c[i].visits;
        double u = 0.5 * c[i].score2 * inv + cc * sqrt(logn * inv);
        if (u > bestu) {
            bestu = u;
            best = c + i;
        }
    }
    return best;
}

static inline double score2_for(int result, int player)
{
    if (result == RESULT_DRAW) return 1;
    return (result == RESULT_WHITE) == (player == WHITE) ? 2 : 0;
}

/* One simulation: select down the tree making actions on a copy of the
 * root position, expand the leaf if it has been visited before (the root
 * always), play out from the leaf or from its first new child, back up. */
static void simulate(Mcts *m, Rng *rng)
{
    uint32_t path[PATH_MAX_LEN];
    int depth = 0;
    Position pos = m->root_pos;
    Undo u;
    MctsNode *n = m->nodes;
    path[depth++] = 0;
    int result = RESULT_NONE;
    for (;;) {
        if (n->terminal) {
            result = n->terminal;
            break;
        }
        if (!n->child) {
            if (n->visits == 0 && depth > 1) break;
            if (!expand(m, n, &pos, rng)) {
                if (n->terminal) result = n->terminal;
                break;
            }
        }
        if (depth == PATH_MAX_LEN) break;
        n = select_child(m, n);
        pos_make(&pos, n->action, &u);
        path[depth++] = (uint32_t)(n - m->nodes);
    }
    if (result == RESULT_NONE && !m->cfg.evaluate) result = playout_random(&pos, rng, NULL);
    if (result != RESULT_NONE) {
        for (int i = 0; i < depth; i++) {
            MctsNode *p = m->nodes + path[i];
            p->visits++;
            p->score2 += score2_for(result, p->mover);
        }
        return;
    }
    /* an evaluated leaf: White's expected score, from each mover's side */
    double white = playout_evaluate(&pos, rng, m->cfg.rollout, &m->cfg.weights);
    for (int i = 0; i < depth; i++) {
        MctsNode *p = m->nodes + path[i];
        p->visits++;
        p->score2 += 2 * (p->mover == WHITE ? white : 1 - white);
    }
}

/* The most visited child of n (expanded); ties go to the better mean,
 * then the first in the (shuffled) child order. */
static const MctsNode *best_child(const Mcts *m, const MctsNode *n)
{
    const MctsNode *c = m->nodes + n->child, *best = c;
    for (int i = 1; i < n->nchild; i++)
        if (c[i].visits > best->visits ||
            (c[i].visits == best->visits && c[i].score2 * best->visits > best->score2 * c[i].visits))
            best = c + i;
    return best;
}

static bool limit_reached(const MctsLimits *lim)
{
    if (lim->stop && atomic_load_explicit(lim->stop, memory_order_relaxed)) return true;
    return lim->deadline > 0 && clock_now() >= lim->deadline;
}

Action mcts_search(Mcts *m, const Position *pos, Rng *rng, MctsResult *res)
{
    return mcts_search_limited(m, pos, rng, NULL, res);
}

Action mcts_search_limited(Mcts *m, const Position *pos, Rng *rng, const MctsLimits *lim, MctsResult *res)
{
    if (!m->valid || !pos_equal(&m->root_pos, pos)) reset_root(m, pos);
    uint32_t sims = lim && lim->sims ? lim->sims : m->cfg.sims, s = 0;
    for (; s < sims; s++) {
        if (lim && s && limit_reached(lim)) break;
        simulate(m, rng);
    }

    MctsNode *root = m->nodes;
    MctsResult r = {.sims = s};
    if (root->child) {
        const MctsNode *best = best_child(m, root);
        r.action = best->action;
        r.searched = true;
        r.legal = root->nchild;
        r.chosen_visits = best->visits;
        r.value = best->visits ? 0.5 * best->score2 / best->visits : 0.5;
    } else {
        /* The arena could not hold even the root's children: fall back to a
         * random legal action, still drawn from the search's Rng. */
        Action list[MAX_ACTIONS];
        r.legal = movegen_all(pos, list);
        r.action = r.legal ? list[rng_below(rng, (uint32_t)r.legal)] : ACTION_NONE;
        r.value = 0.5;
    }
    r.root_visits = root->visits;
    if (res) *res = r;
    MCTS_DEBUG_CHECK(m);
    return r.action;
}

int mcts_pv(const Mcts *m, Action *pv, int max)
{
    int k = 0;
    if (!m->valid) return 0;
    for (const MctsNode *n = m->nodes; k < max && n->child;) {
        n = best_child(m, n);
        if (!n->visits) break;
        pv[k++] = n->action;
    }
    return k;
}

/* Copies the subtree under nodes[from] to the front of the spare arena,
 * breadth first, and swaps the arenas. */
static void keep_subtree(Mcts *m, uint32_t from)
{
    MctsNode *dst = m->spare, *src = m->nodes;
    dst[0] = src[from];
    uint32_t used = 1;
    for (uint32_t j = 0; j < used; j++) {
        MctsNode *n = dst + j;
        if (!n->child) continue;
        memcpy(dst + used, src + n->child, n->nchild * sizeof(MctsNode));
        n->child = used;
        used += n->nchild;
    }
    m->spare = src;
    m->nodes = dst;
    m->used = used;
}

void mcts_advance(Mcts *m, const Position *before, Action a)
{
    Position next = *before;
    Undo u;
    pos_make(&next, a, &u);
    if (!m->valid || !pos_equal(&m->root_pos, before)) {
        m->valid = false;
        return;
    }
    const MctsNode *root = m->nodes;
    for (int i = 0; root->child && i < root->nchild; i++)
        if (m->nodes[root->child + i].action == a) {
            keep_subtree(m, root->child + i);
            m->root_pos = next;
            MCTS_DEBUG_CHECK(m);
            return;
        }
    reset_root(m, &next);
}
