#include <math.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/base/rng.h"
#include "engine/encode/encode.h"
#include "eval/nnue_policy.h"
#include "eval/policy_train.h"

void policy_train_options_default(PolicyTrainOptions *o)
{
    *o = (PolicyTrainOptions){.seed = 1, .epochs = 4, .lr = 0.003, .batch = 256, .val_frac = 0.1};
}

/* *p resized to n items of size item: false when out of memory (*p kept). */
static bool resize(void **p, size_t n, size_t item)
{
    void *q = realloc(*p, n * item);
    if (!q) return false;
    *p = q;
    return true;
}

/* Whether game g is held out: a hash of it and the seed below val_frac. */
static bool held_out(uint64_t seed, uint64_t g, double val_frac)
{
    uint64_t x = (g + 1) * 0x9E3779B97F4A7C15ULL ^ seed;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 29;
    return (double)(x >> 11) / 9007199254740992.0 < val_frac;
}

int policy_collect(PolicyData *d, const PolicyTrainOptions *o, uint64_t game, const Position *pos,
                   const Action *legal, int n, const float *target, char *err)
{
    if (n < 2) return 0;
    size_t k = d->count, w = (size_t)d->width;
    if (k + 1 > d->cap) {
        size_t c = d->cap ? 2 * d->cap : 4096;
        if (!resize((void **)&d->h, c * w, 1) || !resize((void **)&d->off, c, sizeof *d->off) ||
            !resize((void **)&d->n, c, sizeof *d->n) || !resize((void **)&d->held_out, c, 1) ||
            (o->symmetries && !resize((void **)&d->pos, c, sizeof *d->pos)))
            return error_set(err, "out of memory for %zu policy samples", c);
        d->cap = c;
    }
    if (d->acts + (size_t)n > d->acts_cap) {
        size_t c = d->acts_cap ? 2 * d->acts_cap : 65536;
        while (c < d->acts + (size_t)n) c *= 2;
        if (!resize((void **)&d->idx, c, sizeof *d->idx) || !resize((void **)&d->child, c, sizeof *d->child) ||
            !resize((void **)&d->target, c, sizeof *d->target))
            return error_set(err, "out of memory for %zu policy samples' actions", c);
        d->acts_cap = c;
    }
    alignas(32) int16_t h[2 * NNUE_MAX_HIDDEN];
    double child[MAX_ACTIONS] = {0};
    if (d->direct) nnue_policy_hidden(d->net, pos, h);
    else nnue_policy_inputs(d->net, pos, legal, n, h, child);
    if (o->symmetries) d->pos[k] = *pos;
    for (size_t j = 0; j < w; j++) d->h[k * w + j] = (uint8_t)h[j];
    d->off[k] = d->acts;
    d->n[k] = (uint16_t)n;
    for (int i = 0; i < n; i++) {
        d->idx[d->acts + (size_t)i] = (uint16_t)encode_action(legal[i]);
        d->child[d->acts + (size_t)i] = (float)child[i];
        d->target[d->acts + (size_t)i] = target[i];
    }
    d->acts += (size_t)n;
    d->held_out[k] = held_out(o->seed, game, o->val_frac);
    d->positions_val += d->held_out[k];
    d->count++;
    return 0;
}

void policy_data_free(PolicyData *d)
{
    free(d->pos);
    free(d->h);
    free(d->held_out);
    free(d->off);
    free(d->n);
    free(d->idx);
    free(d->child);
    free(d->target);
    *d = (PolicyData){0};
}

void policy_sample_sym(const PolicyData *d, size_t k, int s, int16_t *h, int *idx)
{
    Position img;
    encode_sym_position(&d->pos[k], s, &img);
    nnue_policy_hidden(d->net, &img, h);
    for (int i = 0; i < d->n[k]; i++) idx[i] = encode_sym_action(s, d->idx[d->off[k] + (size_t)i]);
}

/* One sample as a step sees it: its hidden layer (uint8, 0..QA) and its
 * actions' indices, in symmetry s (0: as stored). */
static void sample_view(const PolicyData *d, size_t k, int s, uint8_t *h, int *idx)
{
    size_t width = (size_t)d->width, at = d->off[k];
    if (s == 0) {
        memcpy(h, d->h + k * width, width);
        for (int i = 0; i < d->n[k]; i++) idx[i] = d->idx[at + (size_t)i];
        return;
    }
    alignas(32) int16_t hv[2 * NNUE_MAX_HIDDEN];
    policy_sample_sym(d, k, s, hv, idx);
    for (size_t j = 0; j < width; j++) h[j] = (uint8_t)hv[j];
}

/* The symmetry sample k is seen in at epoch e (symmetries: drawn from the
 * seed; else 0). */
static int sample_symmetry(const PolicyData *d, const PolicyTrainOptions *o, int e, size_t k)
{
    if (!o->symmetries || !d->pos) return 0;
    return (int)(rng_mix(o->seed ^ ((uint64_t)(e + 1) << 40), (uint64_t)k) % ENCODE_SYMMETRIES);
}

/* The logits of sample k (seen as h, idx: sample_view) into z, and the
 * softmax into p; returns the cross-entropy against the target. b and w
 * NULL: beta L alone. */
static double sample_forward(const PolicyData *d, size_t k, const uint8_t *h, const int *idxs, double beta,
                             const float *b, const float *w, double *p)
{
    size_t at = d->off[k], width = (size_t)d->width;
    int n = d->n[k];
    float hf[2 * NNUE_MAX_HIDDEN];
    double qa = nnue_qa(d->net), top = -INFINITY, sum = 0, loss = 0;
    for (size_t j = 0; j < width; j++) hf[j] = (float)(h[j] / qa);
    for (int i = 0; i < n; i++) {
        double z = beta * d->child[at + (size_t)i];
        if (b) {
            int idx = idxs[i];
            const float *wr = w + (size_t)idx * width;
            float s = 0;
            for (size_t j = 0; j < width; j++) s += wr[j] * hf[j];
            z += b[idx] + s;
        }
        p[i] = z;
        if (z > top) top = z;
    }
    for (int i = 0; i < n; i++) sum += (p[i] = exp(p[i] - top));
    for (int i = 0; i < n; i++) {
        p[i] /= sum;
        float t = d->target[at + (size_t)i];
        if (t > 0) loss -= t * log(p[i] > 1e-300 ? p[i] : 1e-300);
    }
    return loss;
}

void policy_measure(const PolicyData *d, double beta, const float *b, const float *w, double *loss, double *top1)
{
    double p[MAX_ACTIONS], sl = 0, hits = 0;
    size_t m = 0;
    uint8_t h[2 * NNUE_MAX_HIDDEN];
    int idx[MAX_ACTIONS];
    for (size_t k = 0; k < d->count; k++) {
        if (!d->held_out[k]) continue;
        sample_view(d, k, 0, h, idx);
        sl += sample_forward(d, k, h, idx, beta, b, w, p);
        int best = 0, want = 0;
        for (int i = 1; i < d->n[k]; i++) {
            if (p[i] > p[best]) best = i;
            if (d->target[d->off[k] + (size_t)i] > d->target[d->off[k] + (size_t)want]) want = i;
        }
        hits += best == want;
        m++;
    }
    *loss = m ? sl / (double)m : NAN;
    *top1 = m ? hits / (double)m : NAN;
}

/* Adam on one parameter array. */
static void adam(float *x, float *g, float *m1, float *m2, size_t n, double lr, int t, float clip)
{
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    double c1 = 1 - pow(b1, t), c2 = 1 - pow(b2, t);
    for (size_t i = 0; i < n; i++) {
        if (g[i] == 0 && m1[i] == 0) continue; /* never touched: stays */
        m1[i] = (float)(b1 * m1[i] + (1 - b1) * g[i]);
        m2[i] = (float)(b2 * m2[i] + (1 - b2) * g[i] * g[i]);
        double v = x[i] - lr * (m1[i] / c1) / (sqrt(m2[i] / c2) + eps);
        x[i] = (float)(clip > 0 && v > clip ? clip : clip > 0 && v < -clip ? -clip : v);
        g[i] = 0;
    }
}

int policy_train(const PolicyData *d, const PolicyTrainOptions *o, const char *description,
                 void (*progress)(void *ctx, const PolicyEpoch *e), void *ctx, uint8_t **bytes, size_t *len,
                 PolicyEpoch *base, PolicyEpoch *start, PolicyEpoch *final, char *err)
{
    size_t width = (size_t)d->width, nw = (size_t)ENCODE_ACTIONS * width, ntrain = 0;
    for (size_t k = 0; k < d->count; k++) ntrain += !d->held_out[k];
    if (!ntrain) return error_set(err, "no positions to train the policy on (all %zu held out)", d->count);
    if (o->symmetries && (!d->direct || !d->pos))
        return error_set(err, "symmetries need a direct head whose samples keep their positions");
    float *w = calloc(nw * 3, sizeof *w), *b = calloc((size_t)ENCODE_ACTIONS * 3, sizeof *b);
    size_t *order = malloc(ntrain * sizeof *order);
    int16_t *ppw = malloc(nw * sizeof *ppw), *w1 = malloc((size_t)NNUE_FEATURES * NNUE_MAX_HIDDEN * sizeof *w1);
    int32_t *ppb = malloc((size_t)ENCODE_ACTIONS * sizeof *ppb);
    int rc = 0;
    if (!w || !b || !order || !ppw || !ppb || !w1) {
        rc = error_set(err, "out of memory for the policy head");
        goto done;
    }
    float *gw = w + nw, *mw = w + 2 * nw, *gb = b + ENCODE_ACTIONS, *mb = b + 2 * ENCODE_ACTIONS;
    float *vw = calloc(nw, sizeof *vw), *vb = calloc(ENCODE_ACTIONS, sizeof *vb);
    if (!vw || !vb) {
        free(vw);
        free(vb);
        rc = error_set(err, "out of memory for the policy head");
        goto done;
    }
    /* a direct head has no children's values: beta 0, never trained, and
     * its baseline the uniform prior (the zero head) */
    float beta = d->direct ? 0 : 1, gbeta = 0, mbeta = 0, vbeta = 0;
    *base = (PolicyEpoch){0};
    policy_measure(d, beta, d->direct ? b : NULL, d->direct ? w : NULL, &base->val_loss, &base->val_top1);
    /* a net with a head: training goes on from it (a warm start), and its
     * figures before are measured */
    const int16_t *ppw0;
    const int32_t *ppb0;
    int32_t beta0;
    double qa = nnue_qa(d->net);
    *start = (PolicyEpoch){.val_loss = NAN, .val_top1 = NAN};
    const Nnue *from = o->head_from ? o->head_from : d->net;
    if (nnue_policy_head(from, &ppw0, &ppb0, &beta0) && nnue_policy_direct(from) == d->direct &&
        nnue_hidden(from) == nnue_hidden(d->net)) {
        beta = (float)beta0 / NNUE_BETA_Q;
        for (size_t i = 0; i < nw; i++) w[i] = (float)ppw0[i] / NNUE_POLICY_Q;
        for (int i = 0; i < ENCODE_ACTIONS; i++) b[i] = (float)(ppb0[i] / ((double)nnue_qa(from) * NNUE_POLICY_Q));
        policy_measure(d, beta, b, w, &start->val_loss, &start->val_top1);
    }
    for (size_t k = 0, j = 0; k < d->count; k++)
        if (!d->held_out[k]) order[j++] = k;
    Rng rng;
    rng_seed(&rng, o->seed, 77);
    int t = 0;
    for (int e = 0; e < o->epochs; e++) {
        for (size_t i = ntrain - 1; i > 0; i--) {
            size_t j = (size_t)(rng_double(&rng) * (double)(i + 1));
            if (j > i) j = i;
            size_t x = order[i];
            order[i] = order[j];
            order[j] = x;
        }
        double lr = o->lr * pow(0.1, o->epochs > 1 ? (double)e / (o->epochs - 1) : 0), sum = 0;
        for (size_t s0 = 0; s0 < ntrain; s0 += (size_t)o->batch) {
            size_t s1 = s0 + (size_t)o->batch < ntrain ? s0 + (size_t)o->batch : ntrain;
            double scale = 1.0 / (double)(s1 - s0);
            for (size_t s = s0; s < s1; s++) {
                size_t k = order[s], at = d->off[k];
                double p[MAX_ACTIONS];
                uint8_t h[2 * NNUE_MAX_HIDDEN];
                int idxs[MAX_ACTIONS];
                sample_view(d, k, sample_symmetry(d, o, e, k), h, idxs);
                sum += sample_forward(d, k, h, idxs, beta, b, w, p);
                for (int i = 0; i < d->n[k]; i++) {
                    double g = (p[i] - d->target[at + (size_t)i]) * scale;
                    int idx = idxs[i];
                    gbeta += (float)(g * d->child[at + (size_t)i]);
                    gb[idx] += (float)g;
                    float *gr = gw + (size_t)idx * width;
                    for (size_t j = 0; j < width; j++) gr[j] += (float)(g * (h[j] / qa));
                }
            }
            t++;
            adam(w, gw, mw, vw, nw, lr, t, NNUE_POLICY_MAX);
            adam(b, gb, mb, vb, ENCODE_ACTIONS, lr, t, 0);
            if (!d->direct) adam(&beta, &gbeta, &mbeta, &vbeta, 1, lr, t, 0);
        }
        PolicyEpoch ep = {.epoch = e + 1, .train_loss = sum / (double)ntrain};
        policy_measure(d, beta, b, w, &ep.val_loss, &ep.val_top1);
        if (progress) progress(ctx, &ep);
    }
    /* quantised: the head's integers, measured as the search will use them */
    for (size_t i = 0; i < nw; i++) ppw[i] = (int16_t)lround(w[i] * NNUE_POLICY_Q);
    for (int i = 0; i < ENCODE_ACTIONS; i++) ppb[i] = (int32_t)lround(b[i] * qa * NNUE_POLICY_Q);
    int32_t beta_q = (int32_t)lround(beta * NNUE_BETA_Q);
    for (size_t i = 0; i < nw; i++) w[i] = (float)ppw[i] / NNUE_POLICY_Q;
    for (int i = 0; i < ENCODE_ACTIONS; i++) b[i] = (float)(ppb[i] / (qa * NNUE_POLICY_Q));
    *final = (PolicyEpoch){.epoch = o->epochs};
    policy_measure(d, (double)beta_q / NNUE_BETA_Q, b, w, &final->val_loss, &final->val_top1);
    NnueParams np;
    nnue_int_params(d->net, w1, &np);
    np.ppw = ppw;
    np.ppb = ppb;
    np.beta = d->direct ? 0 : beta_q;
    np.direct = d->direct;
    np.description = description;
    rc = nnue_encode(&np, bytes, len, err);
    free(vw);
    free(vb);
done:
    free(w);
    free(b);
    free(order);
    free(ppw);
    free(ppb);
    free(w1);
    return rc;
}
