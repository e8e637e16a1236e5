/* Monte Carlo tree search (UCT) over the engine's atomic actions.
 *
 * Every decision is a search decision of the player who acts: placements,
 * moves, passes, row and ring removals alike. Because the actor does not
 * simply alternate (after R the same player acts in X, after a move the
 * opponent may act in r), every node records who made the action that
 * leads to it, and backup scores a result from that player's point of view;
 * there is no sign alternation anywhere.
 *
 * Nodes live in an arena of fixed capacity allocated once per Mcts: a
 * node's children are one contiguous index range, created together when
 * the node is expanded. A search that would need more nodes than the arena
 * holds stops growing (its leaves are played out but not expanded) and goes
 * on; it never allocates and never fails.
 *
 * The tree is kept between decisions: mcts_advance() follows each action
 * played in the game, and the subtree under it is copied to the front of a
 * second arena (breadth first, so child ranges stay contiguous), which then
 * becomes the tree. A search from a position that is not the tree's root
 * starts a fresh tree.
 *
 * A leaf is scored by a random playout to the end of the game (the
 * default), or by at most `rollout` random actions and then the
 * evaluation's probability that White wins (eval/evaluation.h), turned to
 * the point of view of each node's mover during backup.
 *
 * Options beyond plain UCT, each off by default (and then the search is the
 * one above, byte for byte):
 *   - threads > 1: tree-parallel search. The caller's thread and
 *     threads - 1 pthreads of the search's own share one tree, lock-free:
 *     statistics are atomics, a node is expanded by the one thread whose
 *     compare-and-swap claims it (a thread that loses the race plays out
 *     from the node instead of waiting), and a virtual loss (a visit that
 *     scores nothing, added on the way down and taken back on the way up)
 *     steers threads apart. Such a search is not reproducible: the
 *     interleaving decides which simulations see which statistics.
 *   - solver: proven results. A node whose position is over with a winner
 *     is proven; a node whose actor has a proven winning child, or whose
 *     every child is proven lost for the actor, is proven too, and proofs
 *     propagate up during backup. A simulation that reaches a proven node
 *     stops there and backs up its result; selection never enters a child
 *     proven lost for the chooser while another exists; the final choice
 *     takes a proven win when there is one and avoids proven losses; the
 *     search stops once the root is proven.
 *   - prior > 0: knowledge in the tree. When a node is expanded, each child
 *     is scored by the evaluation (its position after the action, from the
 *     chooser's side), and a softmax over those logits is the child's
 *     prior p; selection adds prior * p * sqrt(N) / (1 + n) (PUCT's
 *     exploration term) to UCT's score, and an unvisited child scores
 *     1/2 + c sqrt(ln N) plus that term instead of always coming first.
 *   - policy = MCTS_POLICY_ROWS: the random part of a playout prefers, in
 *     a position where a ring moves, an action that makes a row for the
 *     mover among 3 random legal actions (playout.h).
 *
  * Exploration for self-play data, each off by default (AlphaZero,
 * KataGo; docs/python.md, "Exploration for learning"):
 *   - temp > 0 and temp_moves = N: while fewer than N actions have been
 *     played in the game (the actions mcts_advance was shown since
 *     mcts_new or mcts_clear), the action is not the most visited child
 *     but one drawn from the Rng with probability proportional to
 *     visits^(1/temp) among the visited children (temp 1: in proportion
 *     to the visits); a solver's proven win is still taken and proven
 *     losses avoided when another child is open. MctsResult describes
 *     the drawn child. The principal variation stays the most visited.
 *   - noise = EPS > 0: at the start of each search the root is expanded
 *     and a Dirichlet(alpha) sample eta over its children drawn from the
 *     Rng (dirichlet.h); the root's selection then scores each child as
 *     with priors p' = (1 - EPS) p + EPS eta: it adds
 *     W * EPS * (eta - p) * sqrt(N) / (1 + n) to the child's score, where
 *     p is the child's prior and W the prior weight (prior > 0), or, in
 *     plain UCT, p = 1/k and W = c (then the root still tries each child
 *     once first, and the noise moves later visits among them; c = 0
 *     makes the noise do nothing). Below the root nothing changes.
 *   - pcr_sims = S > 0: playout cap randomisation. A search that runs the
 *     configured sims (no sims or stop limit of its own) draws from the
 *     Rng (only when 0 < pcr_p < 1): with probability pcr_p it runs the
 *     full sims, else S. The
 *     simulations run are MctsResult.sims; MctsResult.reduced says
 *     which it was (stored as action.full, docs/schema.md).
 *
  * PUCT (AlphaZero) instead of UCT, when puct is set: a leaf is not played
 * out but evaluated, once, by an evaluator that gives priors over its
 * legal actions and a value (MctsEvaluate below), and it is expanded then,
 * its children carrying the priors. Selection takes the child maximising
 *
 *     Q + c * P * sqrt(N) / (1 + n)
 *
 * where N is the node's visits (its own evaluation counts one), n and Q
 * the child's visits and mean score for the chooser (the child's mover),
 * P its prior, c the exploration constant; an unvisited child's Q is the
 * node's own mean for the chooser less fpu (first-play urgency), and ties
 * go to the first child (children are in the canonical order of actions).
 * The value v of a leaf, the expected score of its side to act, counts v
 * for that player and 1 - v for the other at every node of the path; a
 * position that is over counts its result. Leaves are evaluated in
 * batches of `batch`: a simulation's visits are counted on the way down,
 * so that the next simulations of the batch see them as visits that have
 * not scored (a virtual loss) and go elsewhere; a simulation that reaches
 * a leaf already in the batch (or being evaluated by another thread) is a
 * collision, undone and not counted; a batch is evaluated when it is full,
 * when its simulations are all handed out, or after `batch` collisions.
 * With one thread the search is a function of the position, the evaluator
 * and the Rng (noise, temp and pcr draw from it; selection never does),
 * and an evaluator that gives each leaf the same numbers in a batch as
 * alone gives the same games at every batch size of one, the same tree
 * as batch 1 is not (the virtual losses steer it). threads > 1 share the
 * tree as UCT's threads do, each gathering its own batches. The solver
 * works as above. Without an evaluator function the net's is used (net,
 * required: eval/nnue_policy.h, the lab's own, whose priors come from its
 * policy head and its children's values). prior, policy, evaluate and
 * rollout do not apply.
 *
 * Deferred children. With the lab's own net and a direct head (feature set
 * 5, eval/nnue_policy.h), one thread, no solver and no outside evaluator,
 * a leaf is evaluated for its value alone when a simulation first reaches
 * it, and its children are made, with their priors, when a simulation
 * comes back to it (most leaves of a large search are reached once: four
 * in five at 40,000 simulations). The arena keeps room for a deferred
 * leaf's children as if they were made, so it is full exactly when it
 * would be, and the priors are the numbers the leaf would have had: the
 * search is the same, simulation for simulation, as one that makes every
 * leaf's children at once (tests/test_puct.c checks it against an
 * outside evaluator of the same numbers), in less time and memory. The
 * root's children are made at the end of a search (and after the first
 * simulation with root noise), so that what reads them finds them. A
 * node whose children are made keeps its accumulators (eval/nnue.h) in a
 * pool of the search, so that a new leaf's are its parent's updated by
 * the one action between them (the same integers as from scratch); the
 * pool is emptied when the tree is kept or reset, and a leaf whose parent
 * has none when the pool is full is evaluated from scratch.
 *
 * Children's values in the priors (child = W > 0, the lab's net with a
 * direct head): when a node's children are made, each child is evaluated
 * by the net (its settled logit for the chooser, as the value of a leaf
 * in a removal settles it) and W times that logit is added to the head's
 * logit for its action before the softmax: one ply of the value net's
 * knowledge (a row made, a ring taken) in the priors. With deferred
 * children and child_visits = T > 1, a node's children are made with the
 * head's priors alone and take the children's values at the node's T-th
 * visit (the simulation that counts it selects with them), so that only
 * the nodes a search keeps coming back to pay for their children's
 * evaluations: at T = 4 about a third of a search's time, for most of
 * what T = 1 gives (results/strength.md); without deferred children T
 * does not apply and the values are taken when the children are made.
 * W = 0 (the default) is the search above, byte for byte.
 *
 * A search is deterministic: it draws all randomness from the Rng it is
 * given and uses a fixed number of simulations. mcts_search_limited adds
 * a deadline and a stop flag for engines that play on a clock (cli's UYI
 * loop), until_stop (no simulation bound) and progress reports
 * (search/limits.h: the simulations, the most visited child's mean, the
 * principal variation, from the caller's thread); a search they end early
 * is not reproducible, but one that ends on its simulation count is the
 * search mcts_search would have made, reports or not. */
#ifndef YINSH_MCTS_H
#define YINSH_MCTS_H

#include <stdbool.h>
#include <stdint.h>
#include "eval/evaluation.h"
#include "eval/nnue.h"
#include "selfplay/search/limits.h"
#include "engine/position.h"
#include "engine/base/rng.h"

/* A leaf for PUCT's evaluator: a position that is not over and its legal
 * actions (movegen_all's, the canonical order); the evaluator writes the
 * priors (nlegal non-negative finite weights, which the search divides by
 * their sum; all 0: uniform) and the value (the expected score of the
 * side to act, in [0, 1]). */
typedef struct MctsLeaf {
    const Position *pos;
    const Action *legal;
    int nlegal;
    float *prior;
    float value;
} MctsLeaf;

/* Evaluates leaves[0 .. n): 0, or non-zero with a message in err (ERR_LEN
 * bytes), which stops the search (mcts_error). With threads > 1 it is
 * called from several threads at once. */
typedef int (*MctsEvaluate)(void *ctx, MctsLeaf *leaves, int n, char *err);

enum { MCTS_MAX_BATCH = 1024 };

typedef struct MctsConfig {
    uint32_t sims;   /* simulations per decision (> 0) */
    double c;        /* UCT exploration constant */
    uint32_t nodes;  /* arena bound in nodes; 0: mcts_default_nodes(sims) */
    bool evaluate;   /* false (the default): leaves are played out at random to the end */
    int rollout;     /* evaluate: at most this many random actions, then the evaluation */
    Weights weights; /* evaluate: the evaluation's weights */
    uint32_t threads; /* search threads sharing one tree; 0 or 1: the caller's alone */
    bool solver;      /* prove wins and losses (above) */
    double prior;     /* weight of the evaluation's prior (above); 0: none */
    int policy;       /* MCTS_POLICY_UNIFORM or MCTS_POLICY_ROWS */
    /* evaluate, prior: NULL, the weights; else this net instead (eval/nnue.h;
     * read-only and shared, it must outlive the Mcts) */
    const Nnue *net;
    /* Exploration for self-play data (AlphaZero, KataGo), each off at 0: */
    double temp;         /* > 0 with temp_moves: the choice sampled from visits^(1/temp) */
    uint32_t temp_moves; /* ... while fewer actions than this were played (mcts_advance counts them) */
    double noise;        /* root Dirichlet noise's weight EPS, 0..1; 0: none */
    double alpha;        /* its concentration (> 0; 0: MCTS_DEFAULT_ALPHA) */
    uint32_t pcr_sims;   /* > 0: playout cap randomisation, pcr_sims simulations ... */
    double pcr_p;        /* ... except with this probability, the full sims */
    /* PUCT (above), off when false: */
    bool puct;
    uint32_t batch;        /* leaves per evaluation, 1..MCTS_MAX_BATCH; 0: 1 */
    double fpu;            /* an unvisited child's Q: the parent's less this */
    double child;          /* > 0 (the lab's net with a direct head): the children's values in the priors, below */
    uint32_t child_visits; /* child > 0: ... from a node's this-many-th visit (0 or 1: when its children are made) */
    MctsEvaluate evaluate_fn; /* NULL: the net's (eval/nnue_policy.h) */
    void *evaluate_ctx;       /* handed to evaluate_fn */
} MctsConfig;

#define MCTS_DEFAULT_ALPHA 0.3

enum { MCTS_POLICY_UNIFORM = 0, MCTS_POLICY_ROWS = 1, MCTS_MAX_THREADS = 64 };

/* What one search found, for the game record. */
typedef struct MctsResult {
    Action action;          /* the most visited root child */
    bool searched;          /* false: the arena could not hold the root's children, the action is random */
    int legal;              /* legal actions at the root */
    uint32_t root_visits;   /* root visits after the search (reused ones included) */
    uint32_t chosen_visits; /* visits of the chosen child */
    double value;           /* chosen child's mean score for the actor, in [0, 1] */
    /* the root's mean score for the actor, in [0, 1]: over all its visits
     * (root_visits, reused ones included), the search's estimate of the
     * position itself. A node's score2 counts for its mover (the player
     * whose action led to it, mcts_tree.h), who is the actor's opponent at
     * a fresh root and may be the actor at a kept one (after R, the same
     * player removes a ring), so the actor's score is score2 or its
     * complement 2 * visits - score2. Equal to value when every root visit
     * went through the chosen child (root_visits == chosen_visits). */
    double root_value;
    uint32_t sims;          /* simulations run by this search */
    bool reduced;           /* pcr: this search drew the reduced budget (pcr_sims), not the full sims */
    int proven;             /* solver: the root's proven winner (RESULT_WHITE/BLACK), else RESULT_NONE;
                             * value and root_value are then 1 or 0 */
} MctsResult;

typedef struct Mcts Mcts;

/* Enough nodes for a fresh search of sims simulations in any position
 * (each simulation expands at most one node, of at most 128 children),
 * capped at MCTS_MAX_DEFAULT_NODES. */
enum { MCTS_MAX_DEFAULT_NODES = 1 << 22, MCTS_MAX_NODES = 1 << 28 };
uint32_t mcts_default_nodes(uint32_t sims);

/* A search with its arenas allocated: 0, or ERR_FAIL (base/error.h) with
 * the message in err when they cannot be had. */
int mcts_new(Mcts **out, const MctsConfig *cfg, char *err);
void mcts_free(Mcts *m);

/* Forgets the tree (a new game). */
void mcts_clear(Mcts *m);
/* Sets playout cap randomisation (MctsConfig's pcr_p and pcr_sims) for
 * the searches to come: a caller that gives it after mcts_new (the C
 * API's yinsh_puct_set_pcr). p 1 turns it off; else sims must be fewer
 * than the configured sims: 0, or ERR_USAGE with why in err. */
int mcts_set_pcr(Mcts *m, double p, uint32_t sims, char *err);

/* Searches pos, which must not be over, and returns the chosen action. */
Action mcts_search(Mcts *m, const Position *pos, Rng *rng, MctsResult *res);
/* The same under limits (search/limits.h; NULL: none, which is
 * mcts_search). The clock and the flag are read before every simulation
 * but the first, so a search always runs at least one. */
Action mcts_search_limited(Mcts *m, const Position *pos, Rng *rng, const SearchLimits *lim, MctsResult *res);

/* The principal variation of the last search: from the root, the most
 * visited child (as the search chooses) while it has visits, at most max
 * actions into pv. Returns how many; 0 without a tree. Read only. */
int mcts_pv(const Mcts *m, Action *pv, int max);

/* The root's children after the last search with their visits, in the
 * tree's (shuffled) order, those with at least one visit only, at most
 * max of them into actions and visits: their number; 0 without a tree.
 * Their visits sum to the root's (MctsResult.root_visits), less one when
 * the root was itself a leaf of an earlier search (a kept subtree whose
 * first visit was its own playout). Read only. */
int mcts_root_children(const Mcts *m, Action *actions, uint32_t *visits, int max);

/* Follows an action played from the tree's root position (by anyone). */
void mcts_advance(Mcts *m, const Position *before, Action a);

/* Solver: the proven winner (RESULT_WHITE/BLACK, else RESULT_NONE) of the
 * root's child for action a after the last search; -1 when the root has
 * no such child (for the tests). */
int mcts_root_child_proven(const Mcts *m, Action a);

/* Why the last search stopped early: the evaluator's message, or a
 * prior or value it gave that is not one (PUCT); NULL when it did not. A
 * search that stopped so chose from what it had (MctsResult.searched
 * false when that was nothing). */
const char *mcts_error(const Mcts *m);

/* Nodes in use (for the tests). */
uint32_t mcts_nodes_used(const Mcts *m);

/* Checks the tree's invariants (mcts_nodes_check in mcts_tree.h lists
 * them): 0, also for a cleared tree, or ERR_FAIL (base/error.h) with the
 * broken invariant named in err (NULL: the code alone). mcts_search and
 * mcts_advance assert it when assertions are on (NDEBUG not defined). */
int mcts_tree_check(const Mcts *m, char *err);

#endif
