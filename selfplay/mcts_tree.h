/* The search tree's node and the check of a tree's invariants: mcts.c's
 * insides, in a header of their own so that the tests can hand the check
 * small trees built by hand, broken one invariant at a time. Nothing but
 * mcts.c and the tests should need it. */
#ifndef YINSH_MCTS_TREE_H
#define YINSH_MCTS_TREE_H

#include <stdbool.h>
#include <stdint.h>
#include "types.h"

/* A node is the action that leads to it and its statistics. score2 counts
 * half points for `mover`, the player who made the action: 2 for a win,
 * 1 for a draw (twice the evaluation's probability for an evaluated leaf).
 * A double holds the integer sums of playout results exactly (below 2^53),
 * so pure playout search gives the same figures as integer counts. */
typedef struct MctsNode {
    Action action;
    uint32_t child;   /* index of the first child; 0: not expanded (the root is 0, never a child) */
    uint32_t visits;
    double score2;
    uint16_t nchild;
    uint8_t mover;    /* WHITE or BLACK */
    uint8_t terminal; /* RESULT_* of the node's position when over, else RESULT_NONE */
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
 *   - 0 <= score2 <= 2 * visits (a NaN from an evaluation fails).
 * Returns false at the first broken invariant and names it in *why (if not
 * NULL). */
bool mcts_nodes_ok(const MctsNode *nodes, uint32_t used, const char **why);

#endif
