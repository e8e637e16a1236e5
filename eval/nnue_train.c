#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "engine/base/clock.h"
#include "engine/base/error.h"
#include "engine/base/file.h"
#include "engine/base/parallel.h"
#include "engine/geometry.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/base/rng.h"
#include "eval/nnue_train.h"
#include "eval/patterns.h"
#include "eval/tune.h"

void nnue_train_options_default(NnueTrainOptions *o)
{
    *o = (NnueTrainOptions){.seed = 1, .epochs = 10, .hidden = 64, .l2 = 0, .lambda = 0.5, .lr = 0.001,
                            .batch = 1024, .val_frac = 0.1, .min_ply = 0, .symmetry = true, .threads = 0};
}

/* In coordinates x = column - 5, y = row - 6, the board is |x|, |y|,
 * |x - y| <= 5 less six corners, and its lines run along (0, 1), (1, 0)
 * and (1, 1). (x, y) -> (x - y, x) turns those into each other (a
 * rotation by 60 degrees) and (x, y) -> (y, x) swaps two of them (a
 * reflection); both keep the region and its corners. */
void nnue_train_symmetries(uint8_t map[NNUE_SYMMETRIES][SQUARE_NB])
{
    for (int k = 0; k < NNUE_SYMMETRIES; k++)
        for (Point p = 0; p < SQUARE_NB; p++) {
            map[k][p] = (uint8_t)p;
            if (!bb_test(GEO->valid, p)) continue;
            int x = point_col(p) - 5, y = point_row(p) - 6;
            if (k >= 6) {
                int t = x;
                x = y;
                y = t;
            }
            for (int r = 0; r < k % 6; r++) {
                int nx = x - y, ny = x;
                x = nx;
                y = ny;
            }
            map[k][p] = (uint8_t)point_make(x + 5, y + 6);
        }
}

/* -[y log p + (1-y) log(1-p)] for p = sigmoid(z), stable for large |z|
 * (the linear tuner's, eval/tune.c) */
static inline double logloss(double z, double y)
{
    double lse = z > 0 ? z + log1p(exp(-z)) : log1p(exp(z));
    return lse - y * z;
}

/* ---- positions ------------------------------------------------------ */

void nnue_collect_free(NnueCollector *c)
{
    free(c->s);
    free(c->val);
    free(c->seen);
    c->s = NULL;
    c->val = NULL;
    c->seen = NULL;
    c->n = c->cap = c->nseen = c->seen_cap = 0;
}

void nnue_data_free(NnueData *d)
{
    free(d->train);
    free(d->val);
    memset(d, 0, sizeof *d);
}

/* Whether h is in the set of game hashes; adds it if not. 0 marks an
 * empty slot, so a hash of 0 is taken as 1. */
static int seen_before(NnueCollector *c, uint64_t h, bool *seen, char *err)
{
    h += !h;
    if (2 * (c->nseen + 1) > c->seen_cap) {
        size_t cap = c->seen_cap ? 2 * c->seen_cap : 4096;
        uint64_t *t = calloc(cap, sizeof *t);
        if (!t) return error_set(err, "out of memory for %zu games", c->nseen);
        for (size_t i = 0; i < c->seen_cap; i++) {
            if (!c->seen[i]) continue;
            size_t j = c->seen[i] & (cap - 1);
            while (t[j]) j = (j + 1) & (cap - 1);
            t[j] = c->seen[i];
        }
        free(c->seen);
        c->seen = t;
        c->seen_cap = cap;
    }
    size_t j = h & (c->seen_cap - 1);
    while (c->seen[j] && c->seen[j] != h) j = (j + 1) & (c->seen_cap - 1);
    *seen = c->seen[j] == h;
    if (!*seen) {
        c->seen[j] = h;
        c->nseen++;
    }
    return 0;
}

/* One game's positions into an NnueCollector (tune_replay's visitor). */
typedef struct NnueVisit {
    NnueCollector *c;
    const double *values;
    int result;
    bool val;
} NnueVisit;

static int nnue_visit(void *ctx, const Position *pos, int ply, char *err)
{
    NnueVisit *g = ctx;
    NnueCollector *c = g->c;
    const NnueTrainOptions *o = c->o;
    bool noisy = o->quiet_only && movegen_row_in_reach(pos);
    c->noisy += noisy && ply >= o->min_ply;
    if (ply < o->min_ply || (pos->state != STATE_P && pos->state != STATE_M) || noisy) return 0;
    void *arrays[] = {c->s, c->val};
    int rc = tune_grow(c->n, &c->cap, arrays, (const size_t[]){sizeof *c->s, 1}, 2, err);
    c->s = arrays[0], c->val = arrays[1];
    if (rc) return rc;
    int result = g->result;
    float res = result == RESULT_DRAW ? 0.5f : (result == RESULT_WHITE) == (pos->actor == WHITE) ? 1.0f : 0.0f;
    double v = g->values ? g->values[ply] : NAN;
    double target = res;
    if (!isnan(v)) target = o->lambda * fmin(fmax(v, 0), 1) + (1 - o->lambda) * res;
    c->s[c->n] = (NnueSample){.pos = *pos, .target = (float)target, .result = res};
    if (o->linear) {
        double f[FEAT_NB];
        features_compute(pos, f);
        for (int k = 0; k < FEAT_NB; k++) c->s[c->n].lf[k] = (float)(pos->actor == WHITE ? f[k] : -f[k]);
    }
    /* bit 0: held out; bit 1: the target has a search value */
    c->val[c->n] = (uint8_t)(g->val | (!isnan(v) ? 2 : 0));
    c->n++;
    return 0;
}

int nnue_collect_game(NnueCollector *c, const char *ident, uint32_t index, int variant, int result,
                      const char *const *actions, const double *values, int nactions, char *err)
{
    const NnueTrainOptions *o = c->o;
    if (o->max_positions && c->n >= o->max_positions) {
        c->capped++;
        return 0;
    }
    /* the same actions in the same variant are the same game, whoever
     * stored it: a ';' after each action keeps "a","bc" apart from "ab","c" */
    uint64_t gh = rng_mix(RNG_HASH_START, (uint64_t)variant);
    for (int i = 0; i < nactions; i++) gh = rng_hash_text_from(rng_hash_text_from(gh, actions[i]), ";");
    bool dup;
    if (seen_before(c, gh, &dup, err)) return ERR_FAIL;
    if (dup) {
        c->duplicates++;
        return 0;
    }
    uint64_t h;
    NnueVisit g = {.c = c, .values = values, .result = result, .val = tune_held_out(ident, o->val_frac, &h)};
    int rc = tune_replay(ident, index, variant, actions, nactions, nnue_visit, &g, err);
    if (rc) return rc;
    c->games++;
    c->games_val += g.val;
    return 0;
}

static uint64_t hash_sample(uint64_t h, const NnueSample *s)
{
    const Position *p = &s->pos;
    for (int c = 0; c < COLOUR_NB; c++) {
        h = rng_mix(h, (uint64_t)p->rings[c]);
        h = rng_mix(h, (uint64_t)(p->rings[c] >> 64));
        h = rng_mix(h, (uint64_t)p->markers[c]);
        h = rng_mix(h, (uint64_t)(p->markers[c] >> 64));
    }
    h = rng_mix(h, (uint64_t)p->actor | (uint64_t)p->state << 8 | (uint64_t)p->variant << 16 |
                       (uint64_t)p->removed[0] << 24 | (uint64_t)p->removed[1] << 32 | (uint64_t)p->pool << 40);
    uint32_t t, r;
    memcpy(&t, &s->target, sizeof t);
    memcpy(&r, &s->result, sizeof r);
    return rng_mix(h, (uint64_t)t << 32 | r);
}

int nnue_collect_finish(NnueCollector *c, NnueData *d, char *err)
{
    int rc = 0;
    memset(d, 0, sizeof *d);
    if (c->games == 0) {
        rc = error_set(err, "no games to train on");
        goto done;
    }
    size_t nv = 0;
    for (size_t i = 0; i < c->n; i++) nv += c->val[i] & 1;
    if (c->n == nv) {
        rc = c->n == 0 ? error_set(err, "no positions to train on: %llu games, none reaches ply %d",
                                   (unsigned long long)c->games, c->o->min_ply)
                       : error_set(err, "no training positions: all %llu games went to the validation set",
                                   (unsigned long long)c->games);
        goto done;
    }
    d->train = malloc((c->n - nv) * sizeof *d->train);
    d->val = malloc((nv ? nv : 1) * sizeof *d->val);
    if (!d->train || !d->val) {
        rc = error_set(err, "out of memory for %zu positions", c->n);
        goto done;
    }
    uint64_t h = RNG_HASH_START;
    for (size_t i = 0; i < c->n; i++) {
        if (c->val[i] & 1) d->val[d->n_val++] = c->s[i];
        else d->train[d->n_train++] = c->s[i];
        d->with_value += (c->val[i] & 2) != 0;
        h = hash_sample(rng_mix(h, c->val[i]), &c->s[i]);
    }
    d->hash = h;
    d->games = c->games;
    d->games_val = c->games_val;
    d->duplicates = c->duplicates;
    d->capped = c->capped;
    d->noisy = c->noisy;
done:
    nnue_collect_free(c);
    if (rc) nnue_data_free(d);
    return rc;
}

/* ---- the float network ----------------------------------------------- */

/* Where each part of the parameters lies in one array (floats). */
typedef struct Layout {
    size_t w1, b1, w2, b2, w3, b3, lw, nlw, pw, npw, n;
} Layout;

static Layout layout(int h, int l2, bool linear, bool patterns)
{
    Layout L;
    size_t at = 0, hh = (size_t)h;
    L.w1 = at;
    at += (size_t)NNUE_ROWS * hh;
    L.b1 = at;
    at += hh;
    L.w2 = at;
    at += l2 ? (size_t)l2 * 2 * hh : 2 * hh;
    L.b2 = at;
    at += l2 ? (size_t)l2 : 1;
    L.w3 = at;
    at += (size_t)l2;
    L.b3 = at;
    at += l2 ? 1 : 0;
    L.lw = at;
    L.nlw = linear ? FEAT_NB : 0;
    at += L.nlw;
    L.pw = at;
    L.npw = patterns ? PATTERN_NB : 0;
    at += L.npw;
    L.n = at;
    return L;
}

/* The clipping bound of parameter k (see nnue_train.h). */
static float bound_of(const Layout *L, size_t k)
{
    if (k < L->w2) return 1.8f;                   /* w1, b1 */
    if (k < L->b2 || (k >= L->w3 && k < L->b3)) return 64.0f; /* w2, w3: 64 QW fits int16 */
    if (k >= L->lw) return NNUE_LINEAR_MAX;       /* the linear and pattern parts (nnue.h) */
    return NNUE_BIAS_MAX;                         /* biases: 1000 QA QW fits int32 */
}

struct NnueTrainer {
    NnueTrainOptions o;
    const NnueData *d;
    Layout L;
    int h, l2, threads;
    float *p, *m, *v;  /* the parameters and Adam's moments */
    float *g;          /* NNUE_TRAIN_CHUNKS gradients of L.n */
    double chunk_loss[NNUE_TRAIN_CHUNKS];
    uint32_t *order;   /* the training positions in the epoch's order */
    int order_epoch;   /* the epoch order is of; -1: none */
    /* where training stands: what a checkpoint holds */
    int epoch;         /* epochs done */
    size_t done;       /* positions of the current epoch done */
    uint64_t step;     /* Adam steps taken */
    double loss_sum;   /* log-loss summed over the current epoch's positions so far */
    double seconds;    /* training time of the current epoch so far */
    NnueEpoch *history;
    uint8_t sym[NNUE_SYMMETRIES][SQUARE_NB];
};

static const double ADAM_B1 = 0.9, ADAM_B2 = 0.999, ADAM_EPS = 1e-8;

/* Loss of one position, seen in symmetry map (NULL: as it is), and (g
 * not NULL) its gradient added into g. */
static double sample(const NnueTrainer *t, const NnueSample *s, const uint8_t *map, double y, float *g)
{
    const Layout *L = &t->L;
    const float *P = t->p;
    int H = t->h, n = 2 * H, actor = s->pos.actor;
    uint16_t rows[2][NNUE_MAX_ACTIVE];
    int nr[2];
    float a[2][NNUE_MAX_HIDDEN], hid[2 * NNUE_MAX_HIDDEN];
    for (int half = 0; half < 2; half++) {
        nr[half] = nnue_features(&s->pos, half ? actor ^ 1 : actor, rows[half]);
        if (map)
            for (int i = 0; i < nr[half]; i++) {
                int r = rows[half][i];
                if (r < NNUE_ROW_REMOVED) rows[half][i] = (uint16_t)(r - r % SQUARE_NB + map[r % SQUARE_NB]);
            }
        float *acc = a[half];
        memcpy(acc, P + L->b1, (size_t)H * sizeof *acc);
        for (int i = 0; i < nr[half]; i++) {
            const float *w = P + L->w1 + (size_t)rows[half][i] * H;
            for (int j = 0; j < H; j++) acc[j] += w[j];
        }
        for (int j = 0; j < H; j++) hid[half * H + j] = acc[j] < 0 ? 0 : acc[j] > 1 ? 1 : acc[j];
    }
    float z2[NNUE_MAX_L2], h2[NNUE_MAX_L2];
    float out;
    if (t->l2 == 0) {
        out = P[L->b2];
        for (int i = 0; i < n; i++) out += P[L->w2 + i] * hid[i];
    } else {
        out = P[L->b3];
        for (int k = 0; k < t->l2; k++) {
            const float *w = P + L->w2 + (size_t)k * n;
            float z = P[L->b2 + k];
            for (int i = 0; i < n; i++) z += w[i] * hid[i];
            z2[k] = z;
            h2[k] = z < 0 ? 0 : z > 1 ? 1 : z;
            out += P[L->w3 + k] * h2[k];
        }
    }
    for (size_t k = 0; k < L->nlw; k++) out += P[L->lw + k] * s->lf[k];
    /* the pattern classes are the same in every symmetry (patterns.h) */
    uint16_t cls[PATTERN_WINDOWS];
    if (L->npw) {
        patterns_classes(&s->pos, actor, cls);
        for (int w = 0; w < PATTERN_WINDOWS; w++) out += P[L->pw + cls[w]];
    }
    double loss = logloss(out, y);
    if (!g) return loss;

    float gy = (float)(1 / (1 + exp(-(double)out)) - y), dh[2 * NNUE_MAX_HIDDEN];
    for (size_t k = 0; k < L->nlw; k++) g[L->lw + k] += gy * s->lf[k];
    if (L->npw)
        for (int w = 0; w < PATTERN_WINDOWS; w++) g[L->pw + cls[w]] += gy;
    if (t->l2 == 0) {
        g[L->b2] += gy;
        for (int i = 0; i < n; i++) {
            g[L->w2 + i] += gy * hid[i];
            dh[i] = gy * P[L->w2 + i];
        }
    } else {
        g[L->b3] += gy;
        memset(dh, 0, (size_t)n * sizeof *dh);
        for (int k = 0; k < t->l2; k++) {
            g[L->w3 + k] += gy * h2[k];
            if (!(z2[k] > 0 && z2[k] < 1)) continue;
            float dz = gy * P[L->w3 + k];
            const float *w = P + L->w2 + (size_t)k * n;
            float *gw = g + L->w2 + (size_t)k * n;
            g[L->b2 + k] += dz;
            for (int i = 0; i < n; i++) {
                gw[i] += dz * hid[i];
                dh[i] += dz * w[i];
            }
        }
    }
    for (int half = 0; half < 2; half++) {
        float da[NNUE_MAX_HIDDEN];
        for (int j = 0; j < H; j++) {
            float x = a[half][j];
            da[j] = x > 0 && x < 1 ? dh[half * H + j] : 0;
            g[L->b1 + j] += da[j];
        }
        for (int i = 0; i < nr[half]; i++) {
            float *gw = g + L->w1 + (size_t)rows[half][i] * H;
            for (int j = 0; j < H; j++) gw[j] += da[j];
        }
    }
    return loss;
}

enum { LOSS_BLOCKS = 256 };

/* The mean of one(ctx, s, i, y) over the n samples s, y each one's result
 * or target, summed in LOSS_BLOCKS fixed blocks (in block order: the same
 * sum on any number of threads); NAN when n is 0. */
typedef double LossOne(const void *ctx, const NnueSample *s, double y);
static double mean_loss(const NnueSample *s, size_t n, bool result, int threads, LossOne *one, const void *ctx)
{
    if (n == 0) return NAN;
    double blk[LOSS_BLOCKS];
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int b = 0; b < LOSS_BLOCKS; b++) {
        double sum = 0;
        for (size_t i = n * (size_t)b / LOSS_BLOCKS; i < n * (size_t)(b + 1) / LOSS_BLOCKS; i++)
            sum += one(ctx, &s[i], result ? s[i].result : s[i].target);
        blk[b] = sum;
    }
    double sum = 0;
    for (int b = 0; b < LOSS_BLOCKS; b++) sum += blk[b];
    return sum / (double)n;
}

static double trainer_one(const void *ctx, const NnueSample *s, double y)
{
    return sample(ctx, s, NULL, y, NULL);
}

double nnue_trainer_loss(const NnueTrainer *t, bool val, bool result)
{
    return mean_loss(val ? t->d->val : t->d->train, val ? t->d->n_val : t->d->n_train, result, t->threads,
                     trainer_one, t);
}

static double net_one(const void *ctx, const NnueSample *s, double y)
{
    const Nnue *net = ctx;
    return logloss(nnue_logit(net, nnue_evaluate(net, &s->pos)), y);
}

double nnue_data_loss(const Nnue *net, const NnueData *d, bool val, bool result, int threads)
{
    return mean_loss(val ? d->val : d->train, val ? d->n_val : d->n_train, result, parallel_threads(threads), net_one,
                     net);
}

/* The linear evaluation's logit in the actor's view, or the constant z0. */
typedef struct LinearLoss {
    const Weights *w;
    double z0;
} LinearLoss;

static double linear_one(const void *ctx, const NnueSample *s, double y)
{
    const LinearLoss *l = ctx;
    double z = l->z0;
    if (l->w) z = (s->pos.actor == WHITE ? 1 : -1) * eval_logit(l->w, &s->pos);
    return logloss(z, y);
}

double nnue_data_loss_linear(const Weights *w, const NnueData *d, bool val, bool result, int threads)
{
    size_t n = val ? d->n_val : d->n_train;
    if (n == 0) return NAN;
    double mean = 0;
    for (size_t i = 0; i < d->n_train; i++) mean += result ? d->train[i].result : d->train[i].target;
    mean = fmin(fmax(mean / (double)d->n_train, 1e-6), 1 - 1e-6);
    LinearLoss l = {.w = w, .z0 = log(mean / (1 - mean))};
    return mean_loss(val ? d->val : d->train, n, result, parallel_threads(threads), linear_one, &l);
}

void nnue_trainer_free(NnueTrainer *t)
{
    if (!t) return;
    free(t->p);
    free(t->m);
    free(t->v);
    free(t->g);
    free(t->order);
    free(t->history);
    free(t);
}

int nnue_trainer_new(NnueTrainer **out, const NnueTrainOptions *o, const NnueData *d, char *err)
{
    *out = NULL;
    if (o->hidden < NNUE_MIN_HIDDEN || o->hidden > NNUE_MAX_HIDDEN || o->hidden % 16)
        return error_code(err, ERR_USAGE, "hidden width %d: a multiple of 16 from %d to %d", o->hidden,
                          (int)NNUE_MIN_HIDDEN, (int)NNUE_MAX_HIDDEN);
    if (o->l2 < 0 || o->l2 > NNUE_MAX_L2)
        return error_code(err, ERR_USAGE, "second layer of %d units: 0 to %d", o->l2, (int)NNUE_MAX_L2);
    if (o->epochs < 1 || o->epochs > NNUE_TRAIN_MAX_EPOCHS || o->batch < 1 || d->n_train > UINT32_MAX)
        return error_code(err, ERR_USAGE, "%d epochs of batches of %d: out of range", o->epochs, o->batch);
    NnueTrainer *t = calloc(1, sizeof *t);
    if (!t) return error_set(err, "out of memory");
    t->o = *o;
    t->d = d;
    t->h = o->hidden;
    t->l2 = o->l2;
    t->threads = parallel_threads(o->threads);
    if (o->patterns && !o->linear) return error_code(err, ERR_USAGE, "a pattern part needs a linear part");
    t->L = layout(t->h, t->l2, o->linear, o->patterns);
    t->order_epoch = -1;
    nnue_train_symmetries(t->sym);
    size_t n = t->L.n;
    t->p = calloc(n, sizeof *t->p);
    t->m = calloc(n, sizeof *t->m);
    t->v = calloc(n, sizeof *t->v);
    t->g = malloc((size_t)NNUE_TRAIN_CHUNKS * n * sizeof *t->g);
    t->order = malloc((d->n_train ? d->n_train : 1) * sizeof *t->order);
    t->history = calloc((size_t)o->epochs, sizeof *t->history);
    if (!t->p || !t->m || !t->v || !t->g || !t->order || !t->history) {
        nnue_trainer_free(t);
        return error_set(err, "out of memory for a net of %zu parameters", n);
    }
    /* the initial weights: small uniform first-layer rows (61 pieces and
     * a few other inputs sum to a spread of about 0.2), biases of 1/2 so
     * that the clipped units start in their linear part; the output's
     * weights by the fan-in. The rows of points off the board stay 0. */
    Rng rng;
    rng_stream(&rng, o->seed, 0x4e4e5545); /* "NNUE" */
    for (int row = 0; row < NNUE_ROWS; row++) {
        bool on = nnue_row_feature(row) >= 0;
        for (int j = 0; j < t->h; j++) {
            float r = (float)(rng_double(&rng) * 2 - 1);
            t->p[t->L.w1 + (size_t)row * t->h + j] = on ? 0.05f * r : 0;
        }
    }
    for (int j = 0; j < t->h; j++) t->p[t->L.b1 + j] = 0.5f;
    int fan = 2 * t->h;
    for (size_t k = t->L.w2; k < t->L.b2; k++) t->p[k] = (float)((rng_double(&rng) * 2 - 1) / sqrt(fan));
    for (size_t k = t->L.w3; k < t->L.b3; k++) t->p[k] = (float)((rng_double(&rng) * 2 - 1) / sqrt(t->l2));
    for (size_t k = 0; k < t->L.nlw; k++) {
        double w = o->linear_start.w[k];
        t->p[t->L.lw + k] = (float)(w > NNUE_LINEAR_MAX ? NNUE_LINEAR_MAX : w < -NNUE_LINEAR_MAX ? -NNUE_LINEAR_MAX : w);
    }
    if (o->init) {
        /* a warm start: the net's weights, already within the bounds the
         * trainer clips to (they were clipped before their quantisation) */
        if (nnue_hidden(o->init) != t->h || nnue_l2(o->init) != t->l2 || nnue_has_linear(o->init) != o->linear ||
            (nnue_has_patterns(o->init) && !o->patterns)) {
            int hi = nnue_hidden(o->init), l2 = nnue_l2(o->init);
            bool lin = nnue_has_linear(o->init);
            nnue_trainer_free(t);
            return error_code(err, ERR_USAGE,
                              "the net to start from has hidden %d and l2 %d%s, not the hidden %d and l2 %d%s asked for",
                              hi, l2, nnue_has_patterns(o->init) ? ", a linear and a pattern part" : lin ? " and a linear part" : "",
                              o->hidden, o->l2, o->linear ? " and a linear part" : "");
        }
        nnue_float_params(o->init, t->p);
    }
    *out = t;
    return 0;
}

static double epoch_lr(const NnueTrainOptions *o, int epoch)
{
    return o->epochs > 1 ? o->lr * pow(0.1, (double)epoch / (o->epochs - 1)) : o->lr;
}

/* One Adam step on the positions idx[0 .. n-1] of the training set. */
static void train_batch(NnueTrainer *t, const uint32_t *idx, size_t n)
{
    const Layout *L = &t->L;
    size_t np = L->n;
#pragma omp parallel for num_threads(t->threads) schedule(dynamic, 1)
    for (int c = 0; c < NNUE_TRAIN_CHUNKS; c++) {
        float *g = t->g + (size_t)c * np;
        memset(g, 0, np * sizeof *g);
        double loss = 0;
        for (size_t i = n * (size_t)c / NNUE_TRAIN_CHUNKS; i < n * (size_t)(c + 1) / NNUE_TRAIN_CHUNKS; i++) {
            const NnueSample *s = &t->d->train[idx[i]];
            /* the symmetry of a position in an epoch: from the seed, the
             * epoch and the position alone */
            const uint8_t *map = NULL;
            if (t->o.symmetry)
                map = t->sym[rng_mix(t->o.seed ^ ((uint64_t)t->epoch << 40), idx[i]) % NNUE_SYMMETRIES];
            loss += sample(t, s, map, s->target, g);
        }
        t->chunk_loss[c] = loss;
    }
    for (int c = 0; c < NNUE_TRAIN_CHUNKS; c++) t->loss_sum += t->chunk_loss[c];
    t->step++;
    float lr = (float)epoch_lr(&t->o, t->epoch);
    float bc1 = (float)(1 - pow(ADAM_B1, (double)t->step)), bc2 = (float)(1 - pow(ADAM_B2, (double)t->step));
    float inv_n = 1.0f / (float)n;
    float *P = t->p, *M = t->m, *V = t->v;
    const float *G = t->g;
#pragma omp parallel for num_threads(t->threads) schedule(static)
    for (size_t k = 0; k < np; k++) {
        float gk = 0;
        for (int c = 0; c < NNUE_TRAIN_CHUNKS; c++) gk += G[(size_t)c * np + k];
        gk *= inv_n;
        float m = M[k] = (float)ADAM_B1 * M[k] + (float)(1 - ADAM_B1) * gk;
        float v = V[k] = (float)ADAM_B2 * V[k] + (float)(1 - ADAM_B2) * gk * gk;
        float x = P[k] - lr * (m / bc1) / (sqrtf(v / bc2) + (float)ADAM_EPS);
        float b = bound_of(L, k);
        P[k] = x > b ? b : x < -b ? -b : x;
    }
}

/* The epoch's order: a Fisher-Yates shuffle from the epoch's own stream,
 * so that a resumed run shuffles as the first did. */
static void make_order(NnueTrainer *t)
{
    size_t n = t->d->n_train;
    for (size_t i = 0; i < n; i++) t->order[i] = (uint32_t)i;
    Rng rng;
    rng_stream(&rng, t->o.seed, 0x1000 + (uint64_t)t->epoch);
    for (size_t i = n; i > 1; i--) {
        size_t j = rng_below(&rng, (uint32_t)i);
        uint32_t x = t->order[i - 1];
        t->order[i - 1] = t->order[j];
        t->order[j] = x;
    }
    t->order_epoch = t->epoch;
}

int nnue_trainer_run(NnueTrainer *t, double seconds, NnueEpoch *done)
{
    if (t->epoch >= t->o.epochs) return 2;
    if (t->order_epoch != t->epoch) make_order(t);
    size_t n = t->d->n_train;
    double start = clock_now();
    while (t->done < n) {
        size_t b = n - t->done < (size_t)t->o.batch ? n - t->done : (size_t)t->o.batch;
        train_batch(t, t->order + t->done, b);
        t->done += b;
        if (t->done < n && clock_now() - start >= seconds) {
            t->seconds += clock_now() - start;
            return 0;
        }
    }
    t->seconds += clock_now() - start;
    NnueEpoch e = {.epoch = t->epoch + 1,
                   .lr = epoch_lr(&t->o, t->epoch),
                   .train = t->loss_sum / (double)n,
                   .val_target = nnue_trainer_loss(t, true, false),
                   .val_result = nnue_trainer_loss(t, true, true),
                   .seconds = t->seconds};
    t->history[t->epoch++] = e;
    t->done = 0;
    t->loss_sum = 0;
    t->seconds = 0;
    if (done) *done = e;
    return 1;
}

void nnue_trainer_progress(const NnueTrainer *t, int *epoch, size_t *positions)
{
    *epoch = t->epoch;
    *positions = t->done;
}

const NnueEpoch *nnue_trainer_history(const NnueTrainer *t, int *n)
{
    *n = t->epoch;
    return t->history;
}

/* ---- the checkpoint ---------------------------------------------------
 *
 * Native byte order (a checkpoint resumes on the machine that wrote it):
 * "YINSHCKP", the format, what it is of (options and the data's hash and
 * sizes), where training stands, the epochs' figures, the parameters and
 * Adam's moments, and an FNV-1a hash of all the bytes before it. */

static const char CKP_MAGIC[8] = {'Y', 'I', 'N', 'S', 'H', 'C', 'K', 'P'};
enum { CKP_VERSION = 3 }; /* 2: the net started from, max_positions, quiet_only; 3: patterns */

typedef struct CkpIdentity {
    uint64_t seed, data_hash, n_train, n_val;
    int32_t epochs, hidden, l2, batch, min_ply, symmetry;
    double lambda, lr, val_frac;
    uint64_t init_hash, max_positions; /* init_hash 0: random initial weights */
    int32_t quiet_only, linear;
    uint64_t linear_hash; /* the linear part's starting weights (0: none) */
    int32_t patterns, pad;
} CkpIdentity;

typedef struct CkpState {
    uint64_t done, step, nparams;
    double loss_sum, seconds;
    int32_t epoch, pad;
} CkpState;

static CkpIdentity identity_of(const NnueTrainer *t)
{
    CkpIdentity id;
    memset(&id, 0, sizeof id); /* the padding too: it is hashed */
    id.seed = t->o.seed;
    id.data_hash = t->d->hash;
    id.n_train = t->d->n_train;
    id.n_val = t->d->n_val;
    id.epochs = t->o.epochs;
    id.hidden = t->h;
    id.l2 = t->l2;
    id.batch = t->o.batch;
    id.min_ply = t->o.min_ply;
    id.symmetry = t->o.symmetry;
    id.lambda = t->o.lambda;
    id.lr = t->o.lr;
    id.val_frac = t->o.val_frac;
    id.init_hash = t->o.init ? nnue_hash(t->o.init) : 0;
    id.max_positions = t->o.max_positions;
    id.quiet_only = t->o.quiet_only;
    id.linear = t->o.linear;
    id.linear_hash = t->o.linear ? weights_hash(&t->o.linear_start) : 0;
    id.patterns = t->o.patterns;
    return id;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

int nnue_trainer_save(const NnueTrainer *t, const char *path, char *err)
{
    FileOut o;
    if (file_out_open(&o, path, err)) return ERR_FAIL;
    CkpIdentity id = identity_of(t);
    CkpState st;
    memset(&st, 0, sizeof st);
    st.done = t->done;
    st.step = t->step;
    st.nparams = t->L.n;
    st.loss_sum = t->loss_sum;
    st.seconds = t->seconds;
    st.epoch = t->epoch;
    uint32_t version = CKP_VERSION;
    uint64_t h = 14695981039346656037ULL;
#define PUT(ptr, size)                         \
    do {                                       \
        fwrite((ptr), 1, (size), o.f);         \
        h = fnv(h, (ptr), (size));             \
    } while (0)
    PUT(CKP_MAGIC, sizeof CKP_MAGIC);
    PUT(&version, sizeof version);
    PUT(&id, sizeof id);
    PUT(&st, sizeof st);
    PUT(t->history, (size_t)t->epoch * sizeof *t->history);
    PUT(t->p, t->L.n * sizeof *t->p);
    PUT(t->m, t->L.n * sizeof *t->m);
    PUT(t->v, t->L.n * sizeof *t->v);
#undef PUT
    fwrite(&h, 1, sizeof h, o.f); /* a short write: commit sees the stream's error */
    return file_out_commit(&o, err);
}

/* The first option or figure in which two identities differ, into why. */
static bool identity_differs(const CkpIdentity *a, const CkpIdentity *b, char *why, size_t len)
{
#define DIFF(field, name, fmt, cast)                                                              \
    if (a->field != b->field) {                                                                    \
        snprintf(why, len, name " " fmt " (this run: " fmt ")", (cast)a->field, (cast)b->field);    \
        return true;                                                                               \
    }
    DIFF(seed, "seed", "%llu", unsigned long long);
    DIFF(epochs, "epochs", "%d", int);
    DIFF(hidden, "hidden", "%d", int);
    DIFF(l2, "l2", "%d", int);
    DIFF(batch, "batch", "%d", int);
    DIFF(lambda, "lambda", "%g", double);
    DIFF(lr, "lr", "%g", double);
    DIFF(val_frac, "val", "%g", double);
    DIFF(min_ply, "min-ply", "%d", int);
    DIFF(symmetry, "symmetry", "%d", int);
    DIFF(init_hash, "net started from", "%016llx", unsigned long long);
    DIFF(max_positions, "positions", "%llu", unsigned long long);
    DIFF(quiet_only, "quiet-only", "%d", int);
    DIFF(linear, "linear part", "%d", int);
    DIFF(linear_hash, "linear part's start", "%016llx", unsigned long long);
    DIFF(patterns, "pattern part", "%d", int);
    DIFF(n_train, "training positions", "%llu", unsigned long long);
    DIFF(n_val, "validation positions", "%llu", unsigned long long);
    DIFF(data_hash, "data hash", "%016llx", unsigned long long);
#undef DIFF
    return false;
}

int nnue_trainer_resume(NnueTrainer *t, const char *path, char *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) return error_code(err, errno == ENOENT ? ERR_NOT_FOUND : ERR_FAIL, "%s: cannot open: %s", path, strerror(errno));
    int rc = 0;
    char magic[8];
    uint32_t version;
    CkpIdentity id, want = identity_of(t);
    CkpState st;
    uint64_t h = 14695981039346656037ULL, said;
    NnueEpoch *hist = NULL;
    float *p = NULL, *m = NULL, *v = NULL;
#define GET(ptr, size)                                               \
    do {                                                             \
        if (fread((ptr), 1, (size), f) != (size)) goto truncated;    \
        h = fnv(h, (ptr), (size));                                   \
    } while (0)
    GET(magic, sizeof magic);
    if (memcmp(magic, CKP_MAGIC, sizeof magic)) {
        rc = error_set(err, "%s: not a training checkpoint of yinsh train", path);
        goto done;
    }
    GET(&version, sizeof version);
    if (version != CKP_VERSION) {
        rc = error_set(err, "%s: checkpoint format %u; this yinsh reads %d", path, (unsigned)version, (int)CKP_VERSION);
        goto done;
    }
    GET(&id, sizeof id);
    char why[256];
    if (identity_differs(&id, &want, why, sizeof why)) {
        rc = error_set(err, "%s: a checkpoint of other training: %s", path, why);
        goto done;
    }
    GET(&st, sizeof st);
    if (st.nparams != t->L.n || st.epoch < 0 || st.epoch > t->o.epochs || st.done > t->d->n_train) {
        rc = error_set(err, "%s: damaged: impossible progress (epoch %d, %llu positions)", path, (int)st.epoch,
                       (unsigned long long)st.done);
        goto done;
    }
    size_t np = t->L.n;
    hist = malloc(((size_t)st.epoch + 1) * sizeof *hist);
    p = malloc(np * sizeof *p);
    m = malloc(np * sizeof *m);
    v = malloc(np * sizeof *v);
    if (!hist || !p || !m || !v) {
        rc = error_set(err, "%s: out of memory", path);
        goto done;
    }
    GET(hist, (size_t)st.epoch * sizeof *hist);
    GET(p, np * sizeof *p);
    GET(m, np * sizeof *m);
    GET(v, np * sizeof *v);
#undef GET
    if (fread(&said, 1, sizeof said, f) != sizeof said) goto truncated;
    if (said != h) {
        rc = error_set(err, "%s: damaged: its hash is %016llx, the file says %016llx", path, (unsigned long long)h,
                       (unsigned long long)said);
        goto done;
    }
    if (fgetc(f) != EOF) {
        rc = error_set(err, "%s: damaged: bytes after the checkpoint's end", path);
        goto done;
    }
    memcpy(t->history, hist, (size_t)st.epoch * sizeof *hist);
    memcpy(t->p, p, np * sizeof *p);
    memcpy(t->m, m, np * sizeof *m);
    memcpy(t->v, v, np * sizeof *v);
    t->epoch = st.epoch;
    t->done = st.done;
    t->step = st.step;
    t->loss_sum = st.loss_sum;
    t->seconds = st.seconds;
    t->order_epoch = -1;
    goto done;
truncated:
    rc = error_set(err, "%s: truncated: the checkpoint ends early", path);
done:
    fclose(f);
    free(hist);
    free(p);
    free(m);
    free(v);
    return rc;
}

/* ---- quantisation ----------------------------------------------------- */

static int16_t q16(float x, double scale)
{
    double r = round((double)x * scale);
    return (int16_t)(r > 32767 ? 32767 : r < -32767 ? -32767 : r);
}
static int32_t q32(float x, double scale)
{
    double r = round((double)x * scale);
    return (int32_t)(r > 2147483647.0 ? 2147483647.0 : r < -2147483647.0 ? -2147483647.0 : r);
}

int nnue_trainer_quantise(const NnueTrainer *t, const char *description, uint8_t **bytes, size_t *len, char *err)
{
    const Layout *L = &t->L;
    const float *P = t->p;
    size_t h = (size_t)t->h, l2 = (size_t)t->l2, n2 = l2 ? l2 * 2 * h : 2 * h;
    int16_t *w1 = malloc((size_t)NNUE_FEATURES * h * sizeof *w1), *b1 = malloc(h * sizeof *b1);
    int32_t lw[FEAT_NB], pw[PATTERN_NB];
    for (size_t k = 0; k < L->nlw; k++) lw[k] = q32(P[L->lw + k], (double)NNUE_QA * NNUE_QW);
    for (size_t k = 0; k < L->npw; k++) pw[k] = q32(P[L->pw + k], (double)NNUE_QA * NNUE_QW);
    int16_t *w2 = malloc(n2 * sizeof *w2), *w3 = malloc((l2 ? l2 : 1) * sizeof *w3);
    int32_t *b2 = malloc((l2 ? l2 : 1) * sizeof *b2);
    int rc = 0;
    if (!w1 || !b1 || !w2 || !w3 || !b2) {
        rc = error_set(err, "out of memory");
        goto done;
    }
    const double qa = NNUE_QA, qw = NNUE_QW;
    for (int row = 0; row < NNUE_ROWS; row++) {
        int f = nnue_row_feature(row);
        if (f < 0) continue;
        for (size_t j = 0; j < h; j++) w1[(size_t)f * h + j] = q16(P[L->w1 + (size_t)row * h + j], qa);
    }
    for (size_t j = 0; j < h; j++) b1[j] = q16(P[L->b1 + j], qa);
    for (size_t k = 0; k < n2; k++) w2[k] = q16(P[L->w2 + k], qw);
    for (size_t k = 0; k < (l2 ? l2 : 1); k++) b2[k] = q32(P[L->b2 + k], qa * qw);
    for (size_t k = 0; k < l2; k++) w3[k] = q16(P[L->w3 + k], qw);
    NnueParams q = {.hidden = t->h, .l2 = t->l2, .qa = NNUE_QA, .qw = NNUE_QW, .w1 = w1, .b1 = b1, .w2 = w2,
                    .b2 = b2, .w3 = w3, .b3 = l2 ? q32(P[L->b3], qa * qw) : 0, .lw = L->nlw ? lw : NULL, .pw = L->npw ? pw : NULL,
                    .description = description};
    rc = nnue_encode(&q, bytes, len, err);
done:
    free(w1);
    free(b1);
    free(w2);
    free(w3);
    free(b2);
    return rc;
}

void nnue_train_describe(char *out, size_t len, const NnueTrainOptions *o, const NnueData *d)
{
    /* the options after the first ones only when set: a net trained as
     * before describes itself as before */
    char more[96] = "";
    int n = 0;
    if (o->quiet_only) n += snprintf(more + n, sizeof more - (size_t)n, ", quiet only");
    if (o->root_value && n >= 0 && (size_t)n < sizeof more)
        n += snprintf(more + n, sizeof more - (size_t)n, ", root values");
    if (o->linear && !o->init && n >= 0 && (size_t)n < sizeof more)
        n += snprintf(more + n, sizeof more - (size_t)n, ", linear from %016llx",
                      (unsigned long long)weights_hash(&o->linear_start));
    else if (o->linear && n >= 0 && (size_t)n < sizeof more)
        n += snprintf(more + n, sizeof more - (size_t)n, ", linear");
    if (o->patterns && n >= 0 && (size_t)n < sizeof more) n += snprintf(more + n, sizeof more - (size_t)n, ", patterns");
    if (o->init && n >= 0 && (size_t)n < sizeof more)
        n += snprintf(more + n, sizeof more - (size_t)n, ", from net %016llx", (unsigned long long)nnue_hash(o->init));
    snprintf(out, len,
             "seed %llu, %d epochs, hidden %d, l2 %d, lambda %g, lr %g, batch %d, min-ply %d%s%s; "
             "%zu positions (%zu validation) of %llu games, data %016llx",
             (unsigned long long)o->seed, o->epochs, o->hidden, o->l2, o->lambda, o->lr, o->batch, o->min_ply,
             o->symmetry ? "" : ", no symmetry", more, d->n_train + d->n_val, d->n_val, (unsigned long long)d->games,
             (unsigned long long)d->hash);
}

/* One slice of the driver's loop: trained, then the checkpoint (after an
 * epoch, every `every` seconds, and on a stop) and the hook. 2 when every
 * epoch is done, 1 when stopped (the checkpoint saved), 0 to go on, or
 * ERR_FAIL when the checkpoint cannot be written. */
static int drive_slice(NnueTrainer *t, const NnueTrainRun *run, NnueTrained *out, uint64_t *at, double *last_ckpt,
                       char *err)
{
    NnueEpoch ep;
    double s0 = clock_now();
    int r = nnue_trainer_run(t, 1.0, &ep);
    out->seconds += clock_now() - s0;
    if (r == 2) return 2;
    int e;
    size_t p;
    nnue_trainer_progress(t, &e, &p);
    uint64_t now = (uint64_t)e * t->d->n_train + p;
    out->positions += now - *at;
    *at = now;
    bool stop = run->stop && atomic_load(run->stop);
    bool save = r == 1 || clock_now() - *last_ckpt >= run->every || stop;
    if (save && e < t->o.epochs && run->checkpoint && run->checkpoint[0]) {
        if (nnue_trainer_save(t, run->checkpoint, err)) return ERR_FAIL;
        *last_ckpt = clock_now();
    }
    if (run->slice) run->slice(run->ctx, r == 1 ? &ep : NULL, e, *at);
    return stop && e < t->o.epochs ? 1 : 0;
}

/* The end: the quantised net, the float net's losses and its epochs. */
static int drive_end(const NnueTrainer *t, const NnueTrainRun *run, NnueTrained *out, char *err)
{
    if (nnue_trainer_quantise(t, run->description, &out->bytes, &out->len, err)) return ERR_FAIL;
    for (int v = 0; v < 2; v++)
        for (int r = 0; r < 2; r++) out->loss[v][r] = nnue_trainer_loss(t, v, r);
    int n;
    const NnueEpoch *h = nnue_trainer_history(t, &n);
    out->history = malloc((size_t)(n > 0 ? n : 1) * sizeof *out->history);
    if (!out->history) return error_set(err, "out of memory");
    memcpy(out->history, h, (size_t)n * sizeof *h);
    out->epochs = n;
    return 0;
}

int nnue_train(const NnueTrainOptions *o, const NnueData *d, const NnueTrainRun *run, NnueTrained *out, char *err)
{
    *out = (NnueTrained){0};
    NnueTrainer *t = NULL;
    int rc = nnue_trainer_new(&t, o, d, err);
    if (rc) return ERR_FAIL;
    if (run->resume && run->checkpoint && run->checkpoint[0]) {
        rc = nnue_trainer_resume(t, run->checkpoint, err);
        if (rc && rc != ERR_NOT_FOUND) goto done;
        int e;
        size_t p;
        nnue_trainer_progress(t, &e, &p);
        if (run->resumed) run->resumed(run->ctx, rc == 0, e, p);
    }
    int e0;
    size_t p0;
    nnue_trainer_progress(t, &e0, &p0);
    uint64_t at = (uint64_t)e0 * d->n_train + p0;
    double last_ckpt = clock_now();
    while ((rc = drive_slice(t, run, out, &at, &last_ckpt, err)) == 0) {
    }
    if (rc == 2) rc = drive_end(t, run, out, err);
done:
    nnue_trainer_free(t);
    if (rc < 0) {
        nnue_trained_free(out);
        return ERR_FAIL;
    }
    return rc;
}

void nnue_trained_free(NnueTrained *t)
{
    free(t->bytes);
    free(t->history);
    t->bytes = NULL;
    t->history = NULL;
}

int nnue_checkpoint_name(const char *out, char *ckpt, size_t len)
{
    struct stat so;
    ckpt[0] = '\0';
    if (file_is_stdout(out) || (stat(out, &so) == 0 && !S_ISREG(so.st_mode))) return 0;
    if (snprintf(ckpt, len, "%s.ckpt", out) >= (int)len - 4) return ERR_USAGE;
    return 0;
}

bool nnue_checkpoint_exists(const char *ckpt)
{
    struct stat sb;
    return ckpt[0] && stat(ckpt, &sb) == 0;
}

int nnue_train_save(const NnueTrained *tr, const NnueData *d, const Weights *baseline, int threads, const char *out,
                    const char *ckpt, Nnue **net, NnueLosses losses, char *warn, char *err)
{
    warn[0] = '\0';
    if (nnue_decode(net, tr->bytes, tr->len, out, err)) return ERR_FAIL;
    for (int v = 0; v < 2; v++)
        for (int r = 0; r < 2; r++) {
            losses[0][v][r] = nnue_data_loss_linear(NULL, d, v, r, threads);
            losses[1][v][r] = baseline ? nnue_data_loss_linear(baseline, d, v, r, threads) : NAN;
            losses[2][v][r] = tr->loss[v][r];
            losses[3][v][r] = nnue_data_loss(*net, d, v, r, threads);
        }
    if (nnue_save(out, tr->bytes, tr->len, err)) return ERR_FAIL;
    if (ckpt && ckpt[0] && remove(ckpt) != 0 && errno != ENOENT)
        error_set(warn, "cannot remove %s: %s", ckpt, strerror(errno));
    return 0;
}
