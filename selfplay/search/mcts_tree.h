/* The search tree's node and the check of a tree's invariants: mcts.c's
 * insides, in a header of their own so that the tests can hand the check
 * small trees built by hand, broken one invariant at a time. Nothing but
 * mcts.c and the tests should need it. */
#ifndef YINSH_MCTS_TREE_H
#define YINSH_MCTS_TREE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "engine/types.h"

/* A node is the action that leads to it and its statistics. score2 counts
 * half points for `mover`, the player who made the action: 2 for a win,
 * 1 for a draw (twice the evaluation's probability for an evaluated leaf).
 * A double holds the integer sums of playout results exactly (below 2^53),
 * so pure playout search gives the same figures as integer counts.
 *
 * Who writes what. One search thread (threads=1, and every advance or
 * clear) writes everything with plain relaxed stores. A tree-parallel
 * search (MctsConfig.threads > 1) shares the tree: visits, score2,
 * terminal, proven and claim are updated with atomic read-modify-writes or
 * stores by any thread; the expander, the thread whose compare-and-swap
 * set claim, writes the children's plain fields (action, mover, nchild)
 * before it publishes them by a release store of child, and readers load
 * child with acquire before they read them. Nothing else is written while
 * threads share the tree. */
enum { MCTS_CLAIM_DEFERRED = 2, MCTS_CLAIM_CHILD = 3 };

typedef struct MctsNode {
    Action action;
    _Atomic uint32_t child;  /* index of the first child; 0: not expanded (the root is 0, never a child) */
    _Atomic uint32_t visits;
    uint32_t acc; /* deferred children: 1 + this node's accumulators' slot in the search's pool; 0, none */
    /* a parallel search counts a visit on the way down (the virtual loss) and its score on the way up */
    _Atomic double score2;
    uint16_t nchild;
    uint8_t mover;           /* WHITE or BLACK */
    _Atomic uint8_t terminal; /* RESULT_* of the node's position when over, else RESULT_NONE */
    _Atomic uint8_t proven;  /* solver: RESULT_WHITE or RESULT_BLACK when the position's winner is proven, else RESULT_NONE */
    _Atomic uint8_t claim;   /* 1 while or after a thread expands the node; MCTS_CLAIM_DEFERRED: evaluated, its
                              * nchild children not made yet (mcts.h, "Deferred children"); MCTS_CLAIM_CHILD:
                              * expanded, its priors with the children's values (mcts.h, child_visits) */
    uint16_t prior;          /* prior=W: the evaluation's prior of this action, 0..65535 for 0..1 */
} MctsNode;

/* Checks nodes[0 .. used) as a tree rooted at nodes[0]. Every node of an
 * arena belongs to the tree (expansion appends, and a kept subtree is
 * copied to the front of a fresh arena), so the whole used part is
 * checked, not only what a walk from the root reaches:
 *   - a node has at most MAX_ACTIONS children, in a range after its own
 *     index and inside the used part (so walks go forward and end), and an
 *     unexpanded or terminal node has none;
 *   - the ranges together hold used - 1 nodes: all but the root;
 *   - movers are WHITE or BLACK, the same for all children of a node;
 *     terminal is a RESULT_*;
 *   - the children's visits sum to at most the parent's: every simulation
 *     through a child also passes its parent, but one that ends at the
 *     parent (a new leaf played out, a terminal node, the arena full) adds
 *     a parent visit and no child visit; the root of a kept subtree is
 *     such a former leaf too, so `<=`, not `==`, even at the root;
 *   - 0 <= score2 <= 2 * visits (a NaN from an evaluation fails);
 *   - proven is RESULT_NONE, RESULT_WHITE or RESULT_BLACK;
 *   - a node with no child range counts no children, unless it is a
 *     deferred leaf (claim MCTS_CLAIM_DEFERRED, not terminal), whose
 *     nchild children are counted by the search, not in the arena.
 * Returns 0, or ERR_FAIL (base/error.h) at the first broken invariant,
 * named in err (ERR_LEN bytes; NULL: the code alone). */
int mcts_nodes_check(const MctsNode *nodes, uint32_t used, char *err);

/* PUCT's selection among the children c[0 .. k) of a node (no solver, no
 * root noise; mcts.h): the index of the child it takes, an unvisited
 * child scoring fpu, the exploration term's factor cc = c sqrt(N). fast:
 * the way a search takes (select_puct_fast); else every child scored in
 * turn, the reference the fast way must equal. For the tests. */
int mcts_select_puct_child(MctsNode *c, int k, double fpu, double cc, bool fast);

/* The tree of search m: its arena's nodes (the root first) and, in *used,
 * how many are in use. Read only, for the tests. */
typedef struct Mcts Mcts;
const MctsNode *mcts_tree_nodes(const Mcts *m, uint32_t *used);

#endif
