#include <math.h>
#include "eval/evaluator.h"

double evaluator_logit(const Evaluator *e, const Position *pos)
{
    if (!e->net) return eval_logit(&e->weights, pos);
    double l = nnue_logit(e->net, nnue_evaluate(e->net, pos));
    return pos->actor == WHITE ? l : -l;
}

double evaluator_white(const Evaluator *e, const Position *pos)
{
    if (!e->net) return eval_white(&e->weights, pos);
    return 1 / (1 + exp(-evaluator_logit(e, pos)));
}
