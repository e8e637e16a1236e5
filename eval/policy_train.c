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
    *o = (PolicyTrainOptions){.seed = 1, .epochs = 4, .lr = 0.003, .batch = 256, .val_frac = 0.1, .lambda = 0.5,
                              .trunk_lr = 0.0005};
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

void policy_child_target(const Nnue *net, const Position *pos, const Action *legal, int n, double temp, float *t)
{
    double child[MAX_ACTIONS], top = -INFINITY, sum = 0;
    nnue_policy_inputs(net, pos, legal, n, NULL, child);
    for (int i = 0; i < n; i++) top = child[i] / temp > top ? child[i] / temp : top;
    for (int i = 0; i < n; i++) sum += (child[i] = exp(child[i] / temp - top));
    for (int i = 0; i < n; i++) t[i] = (float)(child[i] / sum);
}

/* Whether the samples keep their positions. */
static bool keeps_positions(const PolicyTrainOptions *o) { return o->symmetries || o->joint > 0 || o->child_temp > 0; }

int policy_collect(PolicyData *d, const PolicyTrainOptions *o, uint64_t game, const Position *pos,
                   const Action *legal, int n, const float *target, char *err)
{
    return policy_collect_full(d, o, game, pos, legal, n, target, true, NAN, err);
}

int policy_collect_full(PolicyData *d, const PolicyTrainOptions *o, uint64_t game, const Position *pos,
                        const Action *legal, int n, const float *target, bool stored_ok, double value_target,
                        char *err)
{
    if (n < 2) return 0;
    size_t k = d->count, w = (size_t)d->width;
    if (k + 1 > d->cap) {
        size_t c = d->cap ? 2 * d->cap : 4096;
        if (!resize((void **)&d->h, c * w, 1) || !resize((void **)&d->off, c, sizeof *d->off) ||
            !resize((void **)&d->n, c, sizeof *d->n) || !resize((void **)&d->held_out, c, 1) ||
            !resize((void **)&d->stored_ok, c, 1) || !resize((void **)&d->vtarget, c, sizeof *d->vtarget) ||
            (keeps_positions(o) && !resize((void **)&d->pos, c, sizeof *d->pos)))
            return error_set(err, "out of memory for %zu policy samples", c);
        d->cap = c;
    }
    if (d->acts + (size_t)n > d->acts_cap) {
        size_t c = d->acts_cap ? 2 * d->acts_cap : 65536;
        while (c < d->acts + (size_t)n) c *= 2;
        if (!resize((void **)&d->idx, c, sizeof *d->idx) || !resize((void **)&d->child, c, sizeof *d->child) ||
            !resize((void **)&d->target, c, sizeof *d->target) ||
            (o->child_temp > 0 && !resize((void **)&d->ctarget, c, sizeof *d->ctarget)))
            return error_set(err, "out of memory for %zu policy samples' actions", c);
        d->acts_cap = c;
    }
    alignas(32) int16_t h[2 * NNUE_MAX_HIDDEN];
    double child[MAX_ACTIONS] = {0};
    if (d->direct) nnue_policy_hidden(d->net, pos, h);
    else nnue_policy_inputs(d->net, pos, legal, n, h, child);
    if (keeps_positions(o)) d->pos[k] = *pos;
    if (o->child_temp > 0) policy_child_target(d->net, pos, legal, n, o->child_temp, d->ctarget + d->acts);
    d->stored_ok[k] = stored_ok;
    d->vtarget[k] = (float)value_target;
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
    free(d->ctarget);
    free(d->stored_ok);
    free(d->vtarget);
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

/* The training target of sample k into t: (1 - child_mix) x stored +
 * child_mix x child, the child target alone where the stored one is none. */
static void sample_target(const PolicyData *d, const PolicyTrainOptions *o, size_t k, float *t)
{
    size_t at = d->off[k];
    double m = d->ctarget ? (d->stored_ok[k] ? o->child_mix : 1) : 0;
    for (int i = 0; i < d->n[k]; i++)
        t[i] = m > 0 ? (float)((1 - m) * d->target[at + (size_t)i] + m * d->ctarget[at + (size_t)i])
                     : d->target[at + (size_t)i];
}

/* The cross-entropy of p (n shares) against t. */
static double cross_entropy(const double *p, const float *t, int n)
{
    double loss = 0;
    for (int i = 0; i < n; i++)
        if (t[i] > 0) loss -= t[i] * log(p[i] > 1e-300 ? p[i] : 1e-300);
    return loss;
}

/* Whether the most likely action of p is the one t puts most on. */
static bool top1_hit(const double *p, const float *t, int n)
{
    int best = 0, want = 0;
    for (int i = 1; i < n; i++) {
        if (p[i] > p[best]) best = i;
        if (t[i] > t[want]) want = i;
    }
    return best == want;
}

/* The logits of sample k (seen as h, idx: sample_view) into z, and the
 * softmax into p; returns the cross-entropy against t (the sample's
 * actions' shares). b and w NULL: beta L alone. */
static double sample_forward(const PolicyData *d, size_t k, const uint8_t *h, const int *idxs, double beta,
                             const float *b, const float *w, double *p, const float *t)
{
    size_t at = d->off[k], width = (size_t)d->width;
    int n = d->n[k];
    float hf[2 * NNUE_MAX_HIDDEN];
    double qa = nnue_qa(d->net), top = -INFINITY, sum = 0;
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
    for (int i = 0; i < n; i++) p[i] /= sum;
    return cross_entropy(p, t, n);
}

/* The held-out figures against the stored targets (child false: those
 * that are targets) or the child-value ones. */
static void measure(const PolicyData *d, double beta, const float *b, const float *w, bool child, double *loss,
                    double *top1)
{
    double p[MAX_ACTIONS], sl = 0, hits = 0;
    size_t m = 0;
    uint8_t h[2 * NNUE_MAX_HIDDEN];
    int idx[MAX_ACTIONS];
    const float *tt = child ? d->ctarget : d->target;
    for (size_t k = 0; tt && k < d->count; k++) {
        if (!d->held_out[k] || (!child && !d->stored_ok[k])) continue;
        const float *t = tt + d->off[k];
        sample_view(d, k, 0, h, idx);
        sl += sample_forward(d, k, h, idx, beta, b, w, p, t);
        hits += top1_hit(p, t, d->n[k]);
        m++;
    }
    *loss = m ? sl / (double)m : NAN;
    *top1 = m ? hits / (double)m : NAN;
}

void policy_measure(const PolicyData *d, double beta, const float *b, const float *w, double *loss, double *top1)
{
    measure(d, beta, b, w, false, loss, top1);
}

/* Both figures of a head (and no value figure) into e. */
static void measure_both(const PolicyData *d, double beta, const float *b, const float *w, PolicyEpoch *e)
{
    measure(d, beta, b, w, false, &e->val_loss, &e->val_top1);
    measure(d, beta, b, w, true, &e->val_loss_child, &e->val_top1_child);
    e->val_value = NAN;
}

/* The held-out figures' sums: the cross-entropy and top-1 hits of the
 * priors against the stored target [0] and the child-value target [1]
 * (where the sample has one), and the value's log-loss. */
typedef struct HeldOut {
    double sl[2], hits[2], vl;
    size_t m[2], mv;
} HeldOut;

/* Sample k's priors p (and its value's log-loss, NAN: none) into a. */
static void held_out_add(HeldOut *a, const PolicyData *d, size_t k, const double *p, double vloss)
{
    size_t at = d->off[k];
    int n = d->n[k];
    for (int c = 0; c < 2; c++) {
        const float *t = c ? (d->ctarget ? d->ctarget + at : NULL) : (d->stored_ok[k] ? d->target + at : NULL);
        if (!t) continue;
        a->sl[c] += cross_entropy(p, t, n);
        a->hits[c] += top1_hit(p, t, n);
        a->m[c]++;
    }
    if (!isnan(vloss)) {
        a->vl += vloss;
        a->mv++;
    }
}

/* The means (NAN where no sample had the target). */
static void held_out_figures(const HeldOut *a, PolicyEpoch *e)
{
    *e = (PolicyEpoch){.val_loss = a->m[0] ? a->sl[0] / (double)a->m[0] : NAN,
                       .val_top1 = a->m[0] ? a->hits[0] / (double)a->m[0] : NAN,
                       .val_loss_child = a->m[1] ? a->sl[1] / (double)a->m[1] : NAN,
                       .val_top1_child = a->m[1] ? a->hits[1] / (double)a->m[1] : NAN,
                       .val_value = a->mv ? a->vl / (double)a->mv : NAN};
}

void policy_measure_child_prior(const PolicyData *d, PolicyEpoch *e)
{
    HeldOut a = {0};
    for (size_t k = 0; d->ctarget && k < d->count; k++) {
        if (!d->held_out[k]) continue;
        size_t at = d->off[k];
        int n = d->n[k];
        double p[MAX_ACTIONS];
        for (int i = 0; i < n; i++) p[i] = d->ctarget[at + (size_t)i];
        held_out_add(&a, d, k, p, NAN);
    }
    held_out_figures(&a, e);
}

void policy_measure_net(const PolicyData *d, const Nnue *net, PolicyEpoch *e)
{
    HeldOut a = {0};
    const int16_t *ppw;
    const int32_t *ppb;
    int32_t beta;
    bool head = nnue_policy_head(net, &ppw, &ppb, &beta) && nnue_policy_direct(net);
    for (size_t k = 0; d->pos && k < d->count; k++) {
        if (!d->held_out[k]) continue;
        size_t at = d->off[k];
        int n = d->n[k];
        double p[MAX_ACTIONS], top = -INFINITY, sum = 0;
        if (head) {
            alignas(32) int16_t h[2 * NNUE_MAX_HIDDEN];
            int idx[MAX_ACTIONS];
            int32_t z[MAX_ACTIONS];
            nnue_policy_hidden(net, &d->pos[k], h);
            for (int i = 0; i < n; i++) idx[i] = d->idx[at + (size_t)i];
            nnue_policy_sums_path(net, NNUE_PATH_PORTABLE, h, idx, n, z);
            double scale = 1.0 / ((double)nnue_qa(net) * NNUE_POLICY_Q);
            for (int i = 0; i < n; i++) top = (p[i] = z[i] * scale) > top ? p[i] : top;
        } else {
            for (int i = 0; i < n; i++) p[i] = top = 0;
        }
        for (int i = 0; i < n; i++) sum += (p[i] = exp(p[i] - top));
        for (int i = 0; i < n; i++) p[i] /= sum;
        double vt = d->vtarget[k], vloss = NAN;
        if (!isnan(vt)) {
            double l = nnue_logit(net, nnue_evaluate(net, &d->pos[k]));
            double q = 1 / (1 + exp(-l));
            q = q < 1e-12 ? 1e-12 : q > 1 - 1e-12 ? 1 - 1e-12 : q;
            vloss = -(vt * log(q) + (1 - vt) * log(1 - q));
        }
        held_out_add(&a, d, k, p, vloss);
    }
    held_out_figures(&a, e);
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

/* ---- joint training (PolicyTrainOptions.joint) ---------------------------- */

int policy_joint_init(PolicyJointNet *j, int hidden, const Nnue *net, const Nnue *head_from, char *err)
{
    *j = (PolicyJointNet){0};
    if (net && nnue_l2(net) != 0)
        return error_set(err, "joint training needs a net without a second layer (this one has %d units)",
                         nnue_l2(net));
    size_t h = (size_t)(net ? nnue_hidden(net) : hidden), width = 2 * h, nw = (size_t)ENCODE_ACTIONS * width;
    j->hidden = (int)h;
    j->n = (size_t)NNUE_ROWS * h + h + width + 1 + nw + ENCODE_ACTIONS;
    float *p = calloc(j->n, sizeof *p);
    if (!p) return error_set(err, "out of memory for joint training");
    j->w1 = p;
    j->b1 = j->w1 + (size_t)NNUE_ROWS * h;
    j->w2 = j->b1 + h;
    j->b2 = j->w2 + width;
    j->w = j->b2 + 1;
    j->b = j->w + nw;
    if (!net) return 0;
    float *fp = malloc(nnue_float_params(net, NULL) * sizeof *fp);
    if (!fp) {
        policy_joint_free(j);
        return error_set(err, "out of memory for joint training");
    }
    nnue_float_params(net, fp);
    /* w1, b1, w2, b2 lead nnue_float_params as they lead the joint net */
    memcpy(j->w1, fp, ((size_t)NNUE_ROWS * h + h + width + 1) * sizeof *fp);
    free(fp);
    const Nnue *from = head_from ? head_from : net;
    const int16_t *ppw;
    const int32_t *ppb;
    int32_t beta;
    if (nnue_policy_head(from, &ppw, &ppb, &beta) && nnue_policy_direct(from) && nnue_hidden(from) == (int)h) {
        for (size_t i = 0; i < nw; i++) j->w[i] = (float)ppw[i] / NNUE_POLICY_Q;
        for (int i = 0; i < ENCODE_ACTIONS; i++) j->b[i] = (float)(ppb[i] / ((double)nnue_qa(from) * NNUE_POLICY_Q));
    }
    return 0;
}

int policy_joint_widen(PolicyJointNet *j, int hidden, uint64_t seed, char *err)
{
    if (hidden < j->hidden || hidden > NNUE_MAX_HIDDEN || hidden % 16)
        return error_set(err, "a net of %d hidden units a side cannot widen to %d (a multiple of 16, up to %d)",
                         j->hidden, hidden, NNUE_MAX_HIDDEN);
    PolicyJointNet w;
    if (policy_joint_init(&w, hidden, NULL, NULL, err)) return ERR_FAIL;
    size_t h = (size_t)j->hidden, H = (size_t)hidden;
    Rng rng;
    rng_seed(&rng, seed, 55);
    for (size_t r = 0; r < (size_t)NNUE_ROWS; r++) {
        bool on = nnue_row_feature((int)r) >= 0;
        for (size_t q = 0; q < H; q++)
            w.w1[r * H + q] = q < h ? j->w1[r * h + q] : on ? (float)(0.1 * (rng_double(&rng) - 0.5)) : 0;
    }
    for (size_t q = 0; q < H; q++) w.b1[q] = q < h ? j->b1[q] : 0.5f;
    /* the new units' output weights 0: the value and the priors as before */
    for (size_t half = 0; half < 2; half++)
        for (size_t q = 0; q < h; q++) w.w2[half * H + q] = j->w2[half * h + q];
    w.b2[0] = j->b2[0];
    for (size_t i = 0; i < (size_t)ENCODE_ACTIONS; i++) {
        for (size_t half = 0; half < 2; half++)
            for (size_t q = 0; q < h; q++) w.w[i * 2 * H + half * H + q] = j->w[i * 2 * h + half * h + q];
        w.b[i] = j->b[i];
    }
    policy_joint_free(j);
    *j = w;
    return 0;
}

void policy_joint_free(PolicyJointNet *j)
{
    free(j->w1);
    *j = (PolicyJointNet){0};
}

/* The forward pass of sample k in symmetry s: the image's active rows
 * (perspective 0 the actor, 1 the other) into rows and nr, the
 * accumulators (before the clip) into acc, the hidden layer into h, the
 * shares into p (its actions' indices into idx); returns the value's
 * logit. */
static double joint_forward(const PolicyData *d, const PolicyJointNet *j, size_t k, int s, uint16_t rows[2][NNUE_MAX_ACTIVE],
                            int nr[2], double *acc, double *h, int *idx, double *p)
{
    size_t hd = (size_t)j->hidden, width = 2 * hd, at = d->off[k];
    Position img;
    encode_sym_position(&d->pos[k], s, &img);
    int actor = img.actor;
    for (int half = 0; half < 2; half++) {
        nr[half] = nnue_features(&img, half ? actor ^ 1 : actor, rows[half]);
        double *a = acc + (size_t)half * hd;
        for (size_t q = 0; q < hd; q++) a[q] = j->b1[q];
        for (int r = 0; r < nr[half]; r++) {
            const float *row = j->w1 + (size_t)rows[half][r] * hd;
            for (size_t q = 0; q < hd; q++) a[q] += row[q];
        }
    }
    double v = j->b2[0] + nnue_linear(d->net, &img) / ((double)nnue_qa(d->net) * NNUE_QW);
    for (size_t q = 0; q < width; q++) {
        h[q] = acc[q] < 0 ? 0 : acc[q] > 1 ? 1 : acc[q];
        v += j->w2[q] * h[q];
    }
    int n = d->n[k];
    double top = -INFINITY, sum = 0;
    for (int i = 0; i < n; i++) {
        idx[i] = s ? encode_sym_action(s, d->idx[at + (size_t)i]) : d->idx[at + (size_t)i];
        const float *wr = j->w + (size_t)idx[i] * width;
        double z = j->b[idx[i]];
        for (size_t q = 0; q < width; q++) z += wr[q] * h[q];
        p[i] = z;
        top = z > top ? z : top;
    }
    for (int i = 0; i < n; i++) sum += (p[i] = exp(p[i] - top));
    for (int i = 0; i < n; i++) p[i] /= sum;
    return v;
}

double policy_joint_sample(const PolicyData *d, const PolicyJointNet *j, size_t k, int s, const float *t,
                           double joint, double scale, PolicyJointNet *g, double *value_loss)
{
    size_t hd = (size_t)j->hidden, width = 2 * hd;
    uint16_t rows[2][NNUE_MAX_ACTIVE];
    int nr[2], idx[MAX_ACTIONS], n = d->n[k];
    double acc[2 * NNUE_MAX_HIDDEN], h[2 * NNUE_MAX_HIDDEN], p[MAX_ACTIONS];
    double v = joint_forward(d, j, k, s, rows, nr, acc, h, idx, p);
    double loss = cross_entropy(p, t, n), vt = d->vtarget[k], dv = 0, vl = NAN;
    if (!isnan(vt)) {
        /* log(1 + e^-v) and log(1 + e^v), stable */
        double lp = v > 0 ? log1p(exp(-v)) : -v + log1p(exp(v)), ln = lp + v;
        vl = vt * lp + (1 - vt) * ln;
        loss += joint * vl;
        dv = joint * (1 / (1 + exp(-v)) - vt);
    }
    if (value_loss) *value_loss = vl;
    if (!g) return loss;
    double dh[2 * NNUE_MAX_HIDDEN];
    for (size_t q = 0; q < width; q++) {
        dh[q] = dv * j->w2[q];
        g->w2[q] += (float)(scale * dv * h[q]);
    }
    g->b2[0] += (float)(scale * dv);
    for (int i = 0; i < n; i++) {
        double dz = p[i] - t[i];
        const float *wr = j->w + (size_t)idx[i] * width;
        float *gr = g->w + (size_t)idx[i] * width;
        for (size_t q = 0; q < width; q++) {
            dh[q] += dz * wr[q];
            gr[q] += (float)(scale * dz * h[q]);
        }
        g->b[idx[i]] += (float)(scale * dz);
    }
    for (int half = 0; half < 2; half++) {
        float da[NNUE_MAX_HIDDEN];
        for (size_t q = 0; q < hd; q++) {
            size_t u = (size_t)half * hd + q;
            da[q] = acc[u] > 0 && acc[u] < 1 ? (float)(scale * dh[u]) : 0;
            g->b1[q] += da[q];
        }
        for (int r = 0; r < nr[half]; r++) {
            float *gr = g->w1 + (size_t)rows[half][r] * hd;
            for (size_t q = 0; q < hd; q++) gr[q] += da[q];
        }
    }
    return loss;
}

/* The float joint net's held-out figures (as measure_both, with the value). */
static void joint_measure(const PolicyData *d, const PolicyJointNet *j, PolicyEpoch *e)
{
    HeldOut a = {0};
    for (size_t k = 0; k < d->count; k++) {
        if (!d->held_out[k]) continue;
        uint16_t rows[2][NNUE_MAX_ACTIVE];
        int nr[2], idx[MAX_ACTIONS];
        double acc[2 * NNUE_MAX_HIDDEN], h[2 * NNUE_MAX_HIDDEN], p[MAX_ACTIONS], vk;
        joint_forward(d, j, k, 0, rows, nr, acc, h, idx, p);
        float dummy[MAX_ACTIONS] = {0};
        policy_joint_sample(d, j, k, 0, dummy, 1, 0, NULL, &vk);
        held_out_add(&a, d, k, p, vk);
    }
    held_out_figures(&a, e);
}

static int16_t jq16(double x, double scale) { return (int16_t)lround(x * scale); }

/* The joint net's file: the value net's linear and pattern parts, the
 * joint trunk, value output and direct head, quantised. */
static int joint_encode(const PolicyData *d, const PolicyJointNet *j, const char *description, uint8_t **bytes,
                        size_t *len, char *err)
{
    size_t hd = (size_t)j->hidden, width = 2 * hd, nw = (size_t)ENCODE_ACTIONS * width;
    int16_t *w1 = malloc((size_t)NNUE_FEATURES * hd * sizeof *w1), *b1 = malloc(hd * sizeof *b1),
            *w2 = malloc(width * sizeof *w2), *ppw = malloc(nw * sizeof *ppw);
    int32_t *ppb = malloc((size_t)ENCODE_ACTIONS * sizeof *ppb), b2;
    int rc;
    if (!w1 || !b1 || !w2 || !ppw || !ppb) {
        rc = error_set(err, "out of memory for the joint net's file");
        goto done;
    }
    double qa = nnue_qa(d->net), qw = NNUE_QW;
    NnueParams np;
    nnue_int_params(d->net, w1, &np);
    for (int row = 0; row < NNUE_ROWS; row++) {
        int f = nnue_row_feature(row);
        if (f < 0) continue;
        for (size_t q = 0; q < hd; q++) w1[(size_t)f * hd + q] = jq16(j->w1[(size_t)row * hd + q], qa);
    }
    for (size_t q = 0; q < hd; q++) b1[q] = jq16(j->b1[q], qa);
    for (size_t q = 0; q < width; q++) w2[q] = jq16(j->w2[q], qw);
    b2 = (int32_t)lround(j->b2[0] * qa * qw);
    for (size_t i = 0; i < nw; i++) ppw[i] = (int16_t)lround(j->w[i] * NNUE_POLICY_Q);
    for (int i = 0; i < ENCODE_ACTIONS; i++) ppb[i] = (int32_t)lround(j->b[i] * qa * NNUE_POLICY_Q);
    np.hidden = j->hidden;
    np.b1 = b1;
    np.w2 = w2;
    np.b2 = &b2;
    np.ppw = ppw;
    np.ppb = ppb;
    np.beta = 0;
    np.direct = true;
    np.description = description;
    rc = nnue_encode(&np, bytes, len, err);
done:
    free(w1);
    free(b1);
    free(w2);
    free(ppw);
    free(ppb);
    return rc;
}

/* policy_train with joint > 0. */
static int train_joint(const PolicyData *d, const PolicyTrainOptions *o, const char *description,
                       void (*progress)(void *ctx, const PolicyEpoch *e), void *ctx, uint8_t **bytes, size_t *len,
                       PolicyEpoch *base, PolicyEpoch *start, PolicyEpoch *final, char *err)
{
    size_t ntrain = 0;
    for (size_t k = 0; k < d->count; k++) ntrain += !d->held_out[k];
    PolicyJointNet J, G = {0}, M1 = {0}, M2 = {0}, Z = {0};
    Nnue *out = NULL;
    size_t *order = NULL;
    if (policy_joint_init(&J, 0, d->net, o->head_from, err)) return ERR_FAIL;
    int rc = 0;
    if (o->widen && (rc = policy_joint_widen(&J, o->widen, o->seed, err))) {
        policy_joint_free(&J);
        return rc;
    }
    if (policy_joint_init(&G, J.hidden, NULL, NULL, err) || policy_joint_init(&M1, J.hidden, NULL, NULL, err) ||
        policy_joint_init(&M2, J.hidden, NULL, NULL, err) || policy_joint_init(&Z, J.hidden, NULL, NULL, err)) {
        rc = ERR_FAIL;
        goto done;
    }
    order = malloc(ntrain * sizeof *order);
    if (!order) {
        rc = error_set(err, "out of memory for joint training");
        goto done;
    }
    /* the uniform prior (a zero head) and the value net as it is */
    memcpy(Z.w1, J.w1, (size_t)(Z.w - Z.w1) * sizeof *Z.w1);
    joint_measure(d, &Z, base);
    joint_measure(d, &J, start);
    for (size_t k = 0, q = 0; k < d->count; k++)
        if (!d->held_out[k]) order[q++] = k;
    Rng rng;
    rng_seed(&rng, o->seed, 77);
    int t = 0;
    size_t ntrunk = (size_t)(J.w - J.w1), nw = (size_t)(J.b - J.w);
    for (int e = 0; e < o->epochs; e++) {
        for (size_t i = ntrain - 1; i > 0; i--) {
            size_t q = (size_t)(rng_double(&rng) * (double)(i + 1));
            if (q > i) q = i;
            size_t x = order[i];
            order[i] = order[q];
            order[q] = x;
        }
        double fall = pow(0.1, o->epochs > 1 ? (double)e / (o->epochs - 1) : 0), sum = 0;
        for (size_t s0 = 0; s0 < ntrain; s0 += (size_t)o->batch) {
            size_t s1 = s0 + (size_t)o->batch < ntrain ? s0 + (size_t)o->batch : ntrain;
            double scale = 1.0 / (double)(s1 - s0);
            for (size_t s = s0; s < s1; s++) {
                size_t k = order[s];
                float tg[MAX_ACTIONS];
                sample_target(d, o, k, tg);
                sum += policy_joint_sample(d, &J, k, sample_symmetry(d, o, e, k), tg, o->joint, scale, &G, NULL);
            }
            t++;
            double lt = o->trunk_lr * fall;
            adam(J.w1, G.w1, M1.w1, M2.w1, (size_t)(J.w2 - J.w1), lt, t, 1.8f);
            adam(J.w2, G.w2, M1.w2, M2.w2, (size_t)(J.b2 - J.w2), lt, t, 64.0f);
            adam(J.b2, G.b2, M1.b2, M2.b2, 1, lt, t, NNUE_BIAS_MAX);
            adam(J.w, G.w, M1.w, M2.w, nw, o->lr * fall, t, NNUE_POLICY_MAX);
            adam(J.b, G.b, M1.b, M2.b, ENCODE_ACTIONS, o->lr * fall, t, 0);
        }
        (void)ntrunk;
        PolicyEpoch ep = {.epoch = e + 1, .train_loss = sum / (double)ntrain};
        joint_measure(d, &J, &ep);
        if (progress) progress(ctx, &ep);
    }
    char err2[ERR_LEN];
    if ((rc = joint_encode(d, &J, description, bytes, len, err))) goto done;
    if (nnue_decode(&out, *bytes, *len, "the joint net", err2)) {
        rc = error_set(err, "%s", err2);
        goto done;
    }
    *final = (PolicyEpoch){.epoch = o->epochs};
    policy_measure_net(d, out, final);
done:
    nnue_free(out);
    free(order);
    policy_joint_free(&J);
    policy_joint_free(&G);
    policy_joint_free(&M1);
    policy_joint_free(&M2);
    policy_joint_free(&Z);
    return rc;
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
    if (o->child_mix > 0 && !d->ctarget)
        return error_set(err, "a child-value share of the target needs samples collected with a child temperature");
    if (o->joint > 0) {
        if (!d->direct || !d->pos)
            return error_set(err, "joint training needs a direct head whose samples keep their positions");
        return train_joint(d, o, description, progress, ctx, bytes, len, base, start, final, err);
    }
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
    measure_both(d, beta, d->direct ? b : NULL, d->direct ? w : NULL, base);
    /* a net with a head: training goes on from it (a warm start), and its
     * figures before are measured */
    const int16_t *ppw0;
    const int32_t *ppb0;
    int32_t beta0;
    double qa = nnue_qa(d->net);
    *start = (PolicyEpoch){.val_loss = NAN, .val_top1 = NAN, .val_loss_child = NAN, .val_top1_child = NAN,
                           .val_value = NAN};
    const Nnue *from = o->head_from ? o->head_from : d->net;
    if (nnue_policy_head(from, &ppw0, &ppb0, &beta0) && nnue_policy_direct(from) == d->direct &&
        nnue_hidden(from) == nnue_hidden(d->net)) {
        beta = (float)beta0 / NNUE_BETA_Q;
        for (size_t i = 0; i < nw; i++) w[i] = (float)ppw0[i] / NNUE_POLICY_Q;
        for (int i = 0; i < ENCODE_ACTIONS; i++) b[i] = (float)(ppb0[i] / ((double)nnue_qa(from) * NNUE_POLICY_Q));
        measure_both(d, beta, b, w, start);
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
                float t[MAX_ACTIONS];
                sample_target(d, o, k, t);
                sum += sample_forward(d, k, h, idxs, beta, b, w, p, t);
                for (int i = 0; i < d->n[k]; i++) {
                    double g = (p[i] - t[i]) * scale;
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
        measure_both(d, beta, b, w, &ep);
        if (progress) progress(ctx, &ep);
    }
    /* quantised: the head's integers, measured as the search will use them */
    for (size_t i = 0; i < nw; i++) ppw[i] = (int16_t)lround(w[i] * NNUE_POLICY_Q);
    for (int i = 0; i < ENCODE_ACTIONS; i++) ppb[i] = (int32_t)lround(b[i] * qa * NNUE_POLICY_Q);
    int32_t beta_q = (int32_t)lround(beta * NNUE_BETA_Q);
    for (size_t i = 0; i < nw; i++) w[i] = (float)ppw[i] / NNUE_POLICY_Q;
    for (int i = 0; i < ENCODE_ACTIONS; i++) b[i] = (float)(ppb[i] / (qa * NNUE_POLICY_Q));
    *final = (PolicyEpoch){.epoch = o->epochs};
    measure_both(d, (double)beta_q / NNUE_BETA_Q, b, w, final);
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
