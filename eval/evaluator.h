/* One evaluation for the searches, linear or a net, chosen once: a search
 * holds an Evaluator (a tag, the net, and the weights) and asks it for a
 * position's value from scratch, as MCTS does at its leaves and priors.
 * Alpha-beta keeps its own accumulators along make and unmake instead
 * (AbConfig.net, selfplay/search/ab.h), so that a node pays only for the
 * rows its action changed. Either way the linear evaluation is the one of
 * eval/evaluation.h, bit for bit, when no net is given. */
#ifndef YINSH_EVALUATOR_H
#define YINSH_EVALUATOR_H

#include "eval/evaluation.h"
#include "eval/nnue.h"

typedef struct Evaluator {
    const Nnue *net; /* NULL: the linear evaluation of weights; else the net (read-only, shared) */
    Weights weights;
} Evaluator;

/* White's advantage in logits: eval_logit, or the net's logit for the
 * side to act signed for White. */
double evaluator_logit(const Evaluator *e, const Position *pos);
/* The probability that White wins (1/2 for a draw): eval_white, or the
 * logistic of the net's logit for White. */
double evaluator_white(const Evaluator *e, const Position *pos);

#endif
