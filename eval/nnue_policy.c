#include <math.h>
#include <stdalign.h>
#include "engine/encode/encode.h"
#include "engine/movegen.h"
#include "eval/nnue_policy.h"
#if defined(__x86_64__)
#include <immintrin.h>
#endif

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

void nnue_policy_hidden(const Nnue *net, const Position *pos, int16_t *h)
{
    NnueAcc acc;
    nnue_refresh(net, pos, &acc);
    nnue_hidden_values(net, &acc, pos->actor, h);
}

/* ---- the head's sums ---------------------------------------------------- */

/* Each dot product is at most 512 products of a weight within
 * NNUE_POLICY_MAX * NNUE_POLICY_Q and an activation of at most 255 (the
 * loader bounds the weights), below 2^31; the bias is added in uint32_t,
 * which wraps as the vector adds do, so both paths give the same bits
 * for any file the loader takes. */
static void sums_portable(const int16_t *w, const int32_t *b, int m, const int16_t *h, const int *idx, int n,
                          int32_t *out)
{
    for (int k = 0; k < n; k++) {
        const int16_t *r = w + (size_t)idx[k] * (size_t)m;
        int32_t s = 0;
        for (int j = 0; j < m; j++) s += (int32_t)r[j] * h[j];
        out[k] = (int32_t)((uint32_t)b[idx[k]] + (uint32_t)s);
    }
}

#if defined(__x86_64__)
/* madd: pairs of int16 products summed into int32 lanes; the lanes of one
 * row added at the end (int32 adds in any order: the same sum). Rows are
 * 32-byte aligned (2 * hidden is a multiple of 16). */
__attribute__((target("avx2"))) static void sums_avx2(const int16_t *w, const int32_t *b, int m, const int16_t *h,
                                                      const int *idx, int n, int32_t *out)
{
    for (int k = 0; k < n; k++) {
        const int16_t *r = w + (size_t)idx[k] * (size_t)m;
        __m256i s = _mm256_setzero_si256();
        for (int j = 0; j < m; j += 16)
            s = _mm256_add_epi32(s, _mm256_madd_epi16(_mm256_load_si256((const __m256i *)(h + j)),
                                                      _mm256_load_si256((const __m256i *)(r + j))));
        __m128i q = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
        q = _mm_add_epi32(q, _mm_shuffle_epi32(q, _MM_SHUFFLE(1, 0, 3, 2)));
        q = _mm_add_epi32(q, _mm_shuffle_epi32(q, _MM_SHUFFLE(2, 3, 0, 1)));
        out[k] = (int32_t)((uint32_t)b[idx[k]] + (uint32_t)_mm_cvtsi128_si32(q));
    }
}
#endif

void nnue_policy_sums_path(const Nnue *net, NnuePath p, const int16_t *h, const int *idx, int n, int32_t *out)
{
    const int16_t *w;
    const int32_t *b;
    int32_t beta;
    if (!nnue_policy_head(net, &w, &b, &beta)) return;
    int m = 2 * nnue_hidden(net);
#if defined(__x86_64__)
    if (p == NNUE_PATH_AVX2) {
        sums_avx2(w, b, m, h, idx, n, out);
        return;
    }
#endif
    (void)p;
    sums_portable(w, b, m, h, idx, n, out);
}

/* ---- the leaf ------------------------------------------------------------- */

/* The one-evaluation leaf of a direct head (nnue_policy.h), in its two
 * parts on the leaf's accumulators: the value, and the priors' logits. */
double nnue_policy_direct_value_acc(const Nnue *net, const NnueAcc *acc, const Position *pos, const Action *legal, int n)
{
    double l;
    if (pos->state == STATE_P || pos->state == STATE_M || n == 0) {
        l = nnue_logit(net, nnue_output(net, acc, pos->actor) + nnue_parts(net, acc, pos));
    } else {
        double sign = pos->actor == WHITE ? 1 : -1;
        l = -INFINITY;
        for (int i = 0; i < n; i++) {
            double c = sign * child_white(net, acc, pos, legal[i], NNUE_SETTLE_DEPTH - 1);
            if (c > l) l = c;
        }
    }
    return 1.0 / (1.0 + exp(-l));
}

void nnue_policy_direct_logits_acc(const Nnue *net, const NnueAcc *acc, const Position *pos, const Action *legal,
                                   int n, double *z)
{
    alignas(32) int16_t h[2 * NNUE_MAX_HIDDEN];
    int idx[MAX_ACTIONS];
    int32_t sum[MAX_ACTIONS];
    nnue_hidden_values(net, acc, pos->actor, h);
    for (int i = 0; i < n; i++) idx[i] = encode_action(legal[i]);
    nnue_policy_sums_path(net, nnue_path(net), h, idx, n, sum);
    double scale = 1.0 / ((double)nnue_qa(net) * NNUE_POLICY_Q);
    for (int i = 0; i < n; i++) z[i] = sum[i] * scale;
}

void nnue_policy_children_add(const Nnue *net, const NnueAcc *acc, const Position *pos, const Action *legal, int n,
                              double w, double *z)
{
    double sign = pos->actor == WHITE ? w : -w;
    for (int i = 0; i < n; i++) z[i] += sign * child_white(net, acc, pos, legal[i], NNUE_SETTLE_DEPTH - 1);
}

static void direct_value(const Nnue *net, const Position *pos, const Action *legal, int n, double *z, double *value)
{
    NnueAcc acc;
    nnue_refresh(net, pos, &acc);
    *value = nnue_policy_direct_value_acc(net, &acc, pos, legal, n);
    nnue_policy_direct_logits_acc(net, &acc, pos, legal, n, z);
}

double nnue_policy_direct_value(const Nnue *net, const Position *pos, const Action *legal, int n)
{
    NnueAcc acc;
    nnue_refresh(net, pos, &acc);
    return nnue_policy_direct_value_acc(net, &acc, pos, legal, n);
}

void nnue_policy_direct_logits(const Nnue *net, const Position *pos, const Action *legal, int n, double *z)
{
    NnueAcc acc;
    nnue_refresh(net, pos, &acc);
    nnue_policy_direct_logits_acc(net, &acc, pos, legal, n, z);
}

void nnue_policy_value(const Nnue *net, const Position *pos, const Action *legal, int n, double *z, double *value)
{
    if (nnue_policy_direct(net)) {
        direct_value(net, pos, legal, n, z, value);
        return;
    }
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
