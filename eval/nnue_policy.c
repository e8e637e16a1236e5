#include <math.h>
#include <stdalign.h>
#include "engine/encode/encode.h"
#include "engine/movegen.h"
#include "eval/nnue_policy.h"

static double settled_white(const Nnue *net, const NnueAcc *acc, const Position *pos, int depth);

/* White's settled logit of the position after action a from pos (acc its
 * accumulators). */
static double child_white(const Nnue *net, const NnueAcc *acc, const Position *pos, Action a, int depth)
{
    Position next = *pos;
    Undo u;
    NnueAcc child;
    pos_make(&next, a, &u);
    nnue_make(net, acc, &child, &next, a, &u);
    return settled_white(net, &child, &next, depth);
}

/* White's logit of pos, removals settled (nnue_policy.h): acc is pos's
 * accumulator pair. The one who removes picks the removal best for them,
 * to at most depth removals; then (or in P and M) the net judges. */
static double settled_white(const Nnue *net, const NnueAcc *acc, const Position *pos, int depth)
{
    int result;
    if (pos_outcome(pos, &result, NULL))
        return result == RESULT_DRAW ? 0 : result == RESULT_WHITE ? NNUE_TERMINAL_LOGIT : -NNUE_TERMINAL_LOGIT;
    if (depth == 0 || pos->state == STATE_P || pos->state == STATE_M) {
        double l = nnue_logit(net, nnue_output(net, acc, pos->actor) + nnue_parts(net, acc, pos));
        return pos->actor == WHITE ? l : -l;
    }
    Action list[MAX_ACTIONS];
    int k = movegen_all(pos, list);
    double sign = pos->actor == WHITE ? 1 : -1, best = -INFINITY;
    for (int i = 0; i < k; i++) {
        double v = sign * child_white(net, acc, pos, list[i], depth - 1);
        if (v > best) best = v;
    }
    return sign * best;
}

double nnue_policy_inputs(const Nnue *net, const Position *pos, const Action *legal, int n, int16_t *h, double *child)
{
    NnueAcc acc;
    nnue_refresh(net, pos, &acc);
    if (h) nnue_hidden_values(net, &acc, pos->actor, h);
    double sign = pos->actor == WHITE ? 1 : -1, best = -INFINITY;
    for (int i = 0; i < n; i++) {
        child[i] = sign * child_white(net, &acc, pos, legal[i], NNUE_SETTLE_DEPTH - 1);
        if (child[i] > best) best = child[i];
    }
    if (pos->state == STATE_P || pos->state == STATE_M || n == 0)
        return nnue_logit(net, nnue_output(net, &acc, pos->actor) + nnue_parts(net, &acc, pos));
    return best; /* a removal: the best one's */
}

void nnue_policy_value(const Nnue *net, const Position *pos, const Action *legal, int n, double *z, double *value)
{
    alignas(32) int16_t h[2 * NNUE_MAX_HIDDEN];
    const int16_t *ppw;
    const int32_t *ppb;
    int32_t beta_q = NNUE_BETA_Q;
    bool head = nnue_policy_head(net, &ppw, &ppb, &beta_q);
    double l = nnue_policy_inputs(net, pos, legal, n, head ? h : NULL, z);
    *value = 1.0 / (1.0 + exp(-l));
    double beta = (double)beta_q / NNUE_BETA_Q;
    int m = 2 * nnue_hidden(net);
    double scale = 1.0 / ((double)nnue_qa(net) * NNUE_POLICY_Q);
    for (int i = 0; i < n; i++) {
        z[i] *= beta;
        if (!head) continue;
        int idx = encode_action(legal[i]);
        const int16_t *w = ppw + (size_t)idx * (size_t)m;
        int32_t s = ppb[idx];
        for (int j = 0; j < m; j++) s += (int32_t)w[j] * h[j];
        z[i] += s * scale;
    }
}
