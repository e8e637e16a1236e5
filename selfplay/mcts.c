#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mcts.h"
#include "movegen.h"
#include "playout.h"

/* A node is the action that leads to it and its statistics. score2 counts
 * half points for `mover`, the player who made the action: 2 for a win,
 * 1 for a draw (twice the evaluation's probability for an evaluated leaf).
 * A double holds the integer sums of playout results exactly (below 2^53),
 * so pure playout search gives the same figures as integer counts. */
typedef struct Node {
    Action action;
    uint32_t child;   /* index of the first child; 0: not expanded (the root is 0, never a child) */
    uint32_t visits;
    double score2;
    uint16_t nchild;
    uint8_t mover;    /* WHITE or BLACK */
    uint8_t terminal; /* RESULT_* of the node's position when over, else RESULT_NONE */
} Node;

struct Mcts {
    MctsConfig cfg;
    Node *nodes, *spare; /* the tree, and the arena the next advance copies into */
    uint32_t used, cap;
    Position root_pos;
    bool valid;          /* root_pos and nodes[0] describe a tree */
};

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
    m->nodes = malloc((size_t)m->cap * sizeof(Node));
    m->spare = malloc((size_t)m->cap * sizeof(Node));
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
uint32_t mcts_nodes_capacity(const Mcts *m) { return m->cap; }

static void reset_root(Mcts *m, const Position *pos)
{
    m->root_pos = *pos;
    m->nodes[0] = (Node){.mover = (uint8_t)(pos->actor ^ 1)};
    m->used = 1;
    m->valid = true;
}

/* Creates the children of n (all legal actions, in an order shuffled with
 * the search's Rng so that unvisited children are tried in random order).
 * Returns false when the position is over (n becomes terminal) or when the
 * arena has no room (n stays a leaf). */
static bool expand(Mcts *m, Node *n, const Position *pos, Rng *rng)
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
    Node *c = m->nodes + m->used;
    for (int i = 0; i < k; i++) c[i] = (Node){.action = list[i], .mover = pos->actor};
    n->child = m->used;
    n->nchild = (uint16_t)k;
    m->used += (uint32_t)k;
    return true;
}

/* UCT: the first unvisited child (children are shuffled), else the child
 * maximising mean + c * sqrt(ln N / n). Means are from the point of view of
 * the child's mover, who is the player choosing here. */
static Node *select_child(const Mcts *m, const Node *n)
{
    Node *c = m->nodes + n->child, *best = c;
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
    Node *n = m->nodes;
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
            Node *p = m->nodes + path[i];
            p->visits++;
            p->score2 += score2_for(result, p->mover);
        }
        return;
    }
    /* an evaluated leaf: White's expected score, from each mover's side */
    double white = playout_evaluate(&pos, rng, m->cfg.rollout, &m->cfg.weights);
    for (int i = 0; i < depth; i++) {
        Node *p = m->nodes + path[i];
        p->visits++;
        p->score2 += 2 * (p->mover == WHITE ? white : 1 - white);
    }
}

Action mcts_search(Mcts *m, const Position *pos, Rng *rng, MctsResult *res)
{
    if (!m->valid || !pos_equal(&m->root_pos, pos)) reset_root(m, pos);
    for (uint32_t s = 0; s < m->cfg.sims; s++) simulate(m, rng);

    /* The most visited child; ties go to the better mean, then the first
     * in the (shuffled) child order. */
    Node *root = m->nodes, *best = NULL;
    MctsResult r = {0};
    if (root->child) {
        Node *c = m->nodes + root->child;
        best = c;
        for (int i = 1; i < root->nchild; i++)
            if (c[i].visits > best->visits ||
                (c[i].visits == best->visits &&
                 c[i].score2 * best->visits > best->score2 * c[i].visits))
                best = c + i;
        r.action = best->action;
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
    r.nodes = m->used;
    r.full = m->cap - m->used < MAX_ACTIONS;
    if (res) *res = r;
    return r.action;
}

/* Copies the subtree under nodes[from] to the front of the spare arena,
 * breadth first, and swaps the arenas. */
static void keep_subtree(Mcts *m, uint32_t from)
{
    Node *dst = m->spare, *src = m->nodes;
    dst[0] = src[from];
    uint32_t used = 1;
    for (uint32_t j = 0; j < used; j++) {
        Node *n = dst + j;
        if (!n->child) continue;
        memcpy(dst + used, src + n->child, n->nchild * sizeof(Node));
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
    const Node *root = m->nodes;
    for (int i = 0; root->child && i < root->nchild; i++)
        if (m->nodes[root->child + i].action == a) {
            keep_subtree(m, root->child + i);
            m->root_pos = next;
            return;
        }
    reset_root(m, &next);
}

/* Benchmark positions: from a random game of the seed's stream k, the
 * position after 5 + (37 k mod 60) actions, or the middle of the game when
 * it is shorter; placements, moves and removals all appear in the set. */
void mcts_bench_position(uint64_t seed, int k, Position *pos)
{
    Rng rng;
    rng_stream(&rng, seed, (uint64_t)k);
    Position hist[GAME_MAX_ACTIONS + 1];
    Position p;
    pos_start(&p, VARIANT_STANDARD);
    int n = 0;
    Undo u;
    Action a;
    hist[n++] = p;
    while (n <= GAME_MAX_ACTIONS && (a = playout_random_action(&p, &rng)) != ACTION_NONE) {
        pos_make(&p, a, &u);
        hist[n++] = p;
    }
    /* hist[n-1] is over; every earlier position has a legal action */
    int want = 5 + (37 * k) % 60;
    *pos = hist[want < n - 1 ? want : (n - 1) / 2];
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double mcts_bench_run(int sims, int npositions, uint64_t seed, uint64_t *total_sims, uint64_t *hash)
{
    uint64_t h = RNG_HASH_START;
    MctsConfig cfg = {.sims = (uint32_t)sims, .c = 1.0};
    Mcts *m = mcts_new(&cfg);
    if (!m) return 0;
    uint64_t total = 0;
    double elapsed = 0;
    for (int k = 0; k < npositions; k++) {
        Position pos;
        mcts_bench_position(seed, k, &pos);
        Rng rng;
        rng_seed(&rng, seed, (uint64_t)k);
        mcts_clear(m);
        double t = now_s();
        MctsResult r;
        mcts_search(m, &pos, &rng, &r);
        elapsed += now_s() - t;
        h = rng_mix(h ^ r.action, ((uint64_t)r.root_visits << 32) | r.chosen_visits);
        total += (uint64_t)sims;
    }
    mcts_free(m);
    if (total_sims) *total_sims = total;
    if (hash) *hash = h;
    return elapsed > 0 ? total / elapsed : 0;
}
