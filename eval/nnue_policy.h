/* The lab's own policy and value net for PUCT (selfplay/search/mcts.h):
 * a net of eval/nnue.h scores a leaf, and a policy head on its hidden
 * layer, with the children's values, gives the priors of its actions.
 *
 * Value. The leaf's value is the net's for the side to act, settled
 * through removals: the net was trained on positions in states P and M
 * (eval/nnue_train.h), which are the ones it judges; a position where a
 * row or a ring is to be taken off (R, X, r, x) is worth its best child
 * for the one who takes it off (to at most NNUE_SETTLE_DEPTH removals, as
 * many as a game can chain), and an ended game is worth its result
 * (NNUE_TERMINAL_LOGIT for a win).
 *
 * Priors. Each legal action a of the leaf has the logit
 *
 *   z(a) = beta * L(a) + (b[i] + w[i] . h) / (QA * NNUE_POLICY_Q)
 *
 * where L(a) is the settled logit of the position after a for the side
 * that chose it (the child's value: what a one-ply search sees), i the
 * action's index (engine/encode/encode.h), h the leaf's hidden layer (the
 * actor's accumulator then the other's, clipped to [0, QA]: 2 * hidden
 * integers) and w, b the head's weights and biases, integers. The search
 * takes the softmax of the logits over the legal actions. A net without
 * a head (feature sets 1 to 3) has beta 1 and no w and b: its priors are
 * the softmax of its children's values, so every value net plays PUCT.
 * The head's sums are integers on every path (int32, which no sum of a
 * net within NNUE_POLICY_MAX can overflow), L and the value come from the
 * net's integers, and z is computed in double from those, so a leaf gets
 * the same priors and value on any machine.
 *
 * The direct head (feature set 5): a one-evaluation leaf. The priors'
 * logits are the head's alone,
 *
 *   z(a) = (b[i] + w[i] . h) / (QA * NNUE_POLICY_Q),
 *
 * read from the leaf's own hidden layer over the action indices (each
 * one a slot of the board-shaped layout, engine/encode/encode.h), only
 * the legal actions' computed: no child is made or evaluated to form
 * them. The value is the net's one evaluation of the leaf in states P
 * and M (what the net was trained on, and nearly every leaf); a leaf in
 * a removal state is still settled through its removals as above (the
 * one place children are evaluated, for the value, never the priors).
 * The head's sums run on the net's path (nnue_path): AVX2 and portable
 * give the same int32 integers (nnue_policy_sums_path).
 *
 * The head is trained by `yinsh train --policy` (eval/policy_train.h)
 * from stored visit distributions or the actions played. */
#ifndef YINSH_NNUE_POLICY_H
#define YINSH_NNUE_POLICY_H

#include <stdint.h>
#include "engine/position.h"
#include "eval/nnue.h"

enum { NNUE_SETTLE_DEPTH = 8 };
#define NNUE_TERMINAL_LOGIT 12.0

/* The inputs of the head at pos (not over), whose legal actions are
 * legal[0 .. n): the hidden layer into h (2 * hidden values; NULL: not
 * wanted), the children's settled logits for the chooser into child, and
 * the settled logit of pos itself for its actor (the return value). */
double nnue_policy_inputs(const Nnue *net, const Position *pos, const Action *legal, int n, int16_t *h, double *child);

/* The leaf's hidden layer into h (2 * hidden values): the actor's
 * accumulator, then the other's, clipped, from scratch; what a direct
 * head reads. */
void nnue_policy_hidden(const Nnue *net, const Position *pos, int16_t *h);

/* The head's integer sums b[idx[k]] + w[idx[k]] . h for the action
 * indices idx[0 .. n) into out, on path p (an available one): the same
 * integers on every path. The net has a head (nnue_policy_head); h is
 * 32-byte aligned. */
void nnue_policy_sums_path(const Nnue *net, NnuePath p, const int16_t *h, const int *idx, int n, int32_t *out);

/* The priors' logits z (n values) and the leaf's value, the expected
 * score of pos's actor in (0, 1): with a direct head (feature set 5) the
 * one-evaluation leaf, else the children's values and the head. */
void nnue_policy_value(const Nnue *net, const Position *pos, const Action *legal, int n, double *z, double *value);

/* A direct head's leaf (feature set 5) in its two parts, each the same
 * numbers as nnue_policy_value's, for a search that scores a leaf when it
 * first reaches it and forms its priors only if it comes back: the value,
 * and the priors' logits z (n values). */
double nnue_policy_direct_value(const Nnue *net, const Position *pos, const Action *legal, int n);
void nnue_policy_direct_logits(const Nnue *net, const Position *pos, const Action *legal, int n, double *z);
/* The same from pos's accumulators (acc: nnue_refresh's, or nnue_make's
 * from its parent's: the same integers). */
double nnue_policy_direct_value_acc(const Nnue *net, const NnueAcc *acc, const Position *pos, const Action *legal, int n);
void nnue_policy_direct_logits_acc(const Nnue *net, const NnueAcc *acc, const Position *pos, const Action *legal,
                                   int n, double *z);

/* Adds w times each child's settled logit for the chooser (pos's actor:
 * the position after legal[i], removals settled as for the value) to
 * z[i], for i < n: the children's values in the priors (mcts.h, child).
 * acc is pos's accumulator pair. */
void nnue_policy_children_add(const Nnue *net, const NnueAcc *acc, const Position *pos, const Action *legal, int n,
                              double w, double *z);

#endif
