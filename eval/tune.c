#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/notation.h"
#include "engine/base/rng.h"
#include "engine/base/parallel.h"
#include "eval/tune.h"

void tune_options_default(TuneOptions *o)
{
    *o = (TuneOptions){.min_ply = 10, .sample = 1.0, .seed = 1, .val_frac = 0.1, .l2 = 1e-4, .threads = 0};
}

void tune_data_free(TuneData *d)
{
    free(d->f);
    free(d->y);
    free(d->val);
    memset(d, 0, sizeof *d);
}

void tune_collect_free(TuneCollector *c)
{
    free(c->pos);
    free(c->y);
    free(c->val);
    c->pos = NULL;
    c->y = NULL;
    c->val = NULL;
    c->n = c->cap = 0;
}

bool tune_held_out(const char *ident, double val_frac, uint64_t *h)
{
    *h = rng_hash_text(ident);
    return (double)(*h >> 11) * 0x1p-53 < val_frac;
}

int tune_replay(const char *ident, uint32_t index, int variant, const char *const *actions, int nactions,
                int (*visit)(void *ctx, const Position *pos, int ply, char *err), void *ctx, char *err)
{
    Position pos;
    pos_start(&pos, variant);
    for (int ply = 0; ply < nactions; ply++) {
        Action a;
        char aerr[ERR_LEN];
        if (action_parse(&pos, actions[ply], &a, aerr))
            return error_set(err, "game %s (index %u) ply %d: action '%.16s' does not replay: %.200s", ident,
                             (unsigned)index, ply, actions[ply], aerr);
        int rc = visit(ctx, &pos, ply, err);
        if (rc) return rc;
        Undo u;
        pos_make(&pos, a, &u);
    }
    return 0;
}

int tune_grow(size_t n, size_t *cap, void **arrays, const size_t *sizes, int count, char *err)
{
    if (n < *cap) return 0;
    size_t want = *cap ? 2 * *cap : 65536;
    bool grown = true;
    for (int i = 0; i < count; i++) {
        void *p = realloc(arrays[i], want * sizes[i]);
        if (p) arrays[i] = p;
        grown = grown && p;
    }
    if (!grown) return error_set(err, "out of memory for %zu positions", want);
    *cap = want;
    return 0;
}

/* One game's positions into a TuneCollector (tune_replay's visitor). */
typedef struct TuneVisit {
    TuneCollector *c;
    Rng rng;
    float y;
    bool val;
} TuneVisit;

static int tune_visit(void *ctx, const Position *pos, int ply, char *err)
{
    TuneVisit *g = ctx;
    TuneCollector *c = g->c;
    const TuneOptions *o = c->o;
    if (ply < o->min_ply || !(o->sample >= 1 || rng_double(&g->rng) < o->sample)) return 0;
    void *arrays[] = {c->pos, c->y, c->val};
    int rc = tune_grow(c->n, &c->cap, arrays, (const size_t[]){sizeof *c->pos, sizeof *c->y, 1}, 3, err);
    c->pos = arrays[0], c->y = arrays[1], c->val = arrays[2];
    if (rc) return rc;
    c->pos[c->n] = *pos;
    c->y[c->n] = g->y;
    c->val[c->n] = g->val;
    c->n++;
    return 0;
}

int tune_collect_game(TuneCollector *c, const char *ident, uint32_t index, int variant, int result,
                      const char *const *actions, int nactions, char *err)
{
    uint64_t h;
    TuneVisit g = {.c = c, .y = result == RESULT_WHITE ? 1.0f : result == RESULT_BLACK ? 0.0f : 0.5f};
    g.val = tune_held_out(ident, c->o->val_frac, &h);
    rng_stream(&g.rng, c->o->seed, h);
    int rc = tune_replay(ident, index, variant, actions, nactions, tune_visit, &g, err);
    if (rc) return rc;
    c->games++;
    c->games_val += g.val;
    return 0;
}

int tune_collect_finish(TuneCollector *c, TuneData *d, char *err)
{
    int rc = 0;
    const TuneOptions *o = c->o;
    memset(d, 0, sizeof *d);
    if (c->games == 0) {
        rc = error_set(err, "no games to tune on");
        goto done;
    }
    if (c->n == 0) {
        rc = error_set(err, "no positions to tune on: %llu games, none reaches ply %d (or the sample kept none)",
                 (unsigned long long)c->games, o->min_ply);
        goto done;
    }
    d->f = malloc(c->n * FEAT_NB * sizeof *d->f);
    if (!d->f) {
        rc = error_set(err, "out of memory for the features of %zu positions", c->n);
        goto done;
    }
    int threads = parallel_threads(o->threads);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < (int64_t)c->n; i++) {
        double f[FEAT_NB];
        features_compute(&c->pos[i], f);
        for (int k = 0; k < FEAT_NB; k++) d->f[i * FEAT_NB + k] = (float)f[k];
    }
    d->y = c->y;
    d->val = c->val;
    c->y = NULL;
    c->val = NULL;
    d->n = c->n;
    for (size_t i = 0; i < c->n; i++) d->n_val += d->val[i];
    d->games = c->games;
    d->games_val = c->games_val;
    if (d->n_val == d->n) {
        rc = error_set(err, "no training positions: all %llu games went to the validation set (a smaller validation share leaves some to train on)",
                 (unsigned long long)d->games);
    }
done:
    tune_collect_free(c);
    if (rc) tune_data_free(d);
    return rc;
}

/* ---- the sums ---------------------------------------------------------- */

/* Positions are summed in TUNE_BLOCKS fixed blocks, added in block order:
 * the same floating-point sums on any number of threads. */
enum { TUNE_BLOCKS = 256 };

typedef struct Sums {
    double n, loss;
    double g[FEAT_NB];
    double h[FEAT_NB][FEAT_NB];
} Sums;

static inline double sigmoid(double x) { return 1 / (1 + exp(-x)); }

/* -[y log p + (1-y) log(1-p)] for p = sigmoid(z), stable for large |z| */
static inline double logloss(double z, double y)
{
    double lse = z > 0 ? z + log1p(exp(-z)) : log1p(exp(z)); /* log(1 + e^z) */
    return lse - y * z;
}

/* Sums over the positions of set `val` (0 train, 1 validation) of the
 * loss of w.f, and (want >= 1) its gradient, (want >= 2) its Hessian. */
static Sums sums(const TuneData *d, const double *w, int val, int want, int threads)
{
    Sums *blk = calloc(TUNE_BLOCKS, sizeof *blk);
    Sums total = {0};
    if (!blk) return (Sums){.n = NAN, .loss = NAN};
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int b = 0; b < TUNE_BLOCKS; b++) {
        size_t lo = d->n * (size_t)b / TUNE_BLOCKS, hi = d->n * (size_t)(b + 1) / TUNE_BLOCKS;
        Sums *s = &blk[b];
        for (size_t i = lo; i < hi; i++) {
            if (d->val[i] != val) continue;
            const float *f = d->f + i * FEAT_NB;
            double z = 0;
            for (int k = 0; k < FEAT_NB; k++) z += w[k] * f[k];
            double y = d->y[i];
            s->n += 1;
            s->loss += logloss(z, y);
            if (want < 1) continue;
            double p = sigmoid(z), r = p - y, q = p * (1 - p);
            for (int k = 0; k < FEAT_NB; k++) {
                s->g[k] += r * f[k];
                if (want < 2) continue;
                for (int j = 0; j <= k; j++) s->h[k][j] += q * f[k] * f[j];
            }
        }
    }
    for (int b = 0; b < TUNE_BLOCKS; b++) {
        total.n += blk[b].n;
        total.loss += blk[b].loss;
        for (int k = 0; k < FEAT_NB; k++) {
            total.g[k] += blk[b].g[k];
            for (int j = 0; j <= k; j++) total.h[k][j] += blk[b].h[k][j];
        }
    }
    free(blk);
    return total;
}

static int nthreads(const TuneOptions *o) { return parallel_threads(o ? o->threads : 0); }

double tune_loss(const TuneData *d, const Weights *w, int val, int threads)
{
    Sums s = sums(d, w->w, val, 0, parallel_threads(threads));
    return s.n > 0 ? s.loss / s.n : NAN;
}

/* The regularised objective on the training set. */
static double objective(const TuneData *d, const double *w, double l2, int threads)
{
    Sums s = sums(d, w, 0, 0, threads);
    double r = 0;
    for (int k = 0; k < FEAT_NB; k++) r += w[k] * w[k];
    return s.loss / s.n + 0.5 * l2 * r;
}

/* Solves A x = b for a symmetric positive definite A (lower triangle
 * given) by Cholesky; false when A is not positive definite. */
static bool cholesky_solve(double a[FEAT_NB][FEAT_NB], const double *b, double *x)
{
    double l[FEAT_NB][FEAT_NB] = {{0}};
    for (int i = 0; i < FEAT_NB; i++)
        for (int j = 0; j <= i; j++) {
            double s = a[i][j];
            for (int k = 0; k < j; k++) s -= l[i][k] * l[j][k];
            if (i == j) {
                if (s <= 0) return false;
                l[i][i] = sqrt(s);
            } else {
                l[i][j] = s / l[j][j];
            }
        }
    double z[FEAT_NB];
    for (int i = 0; i < FEAT_NB; i++) {
        double s = b[i];
        for (int k = 0; k < i; k++) s -= l[i][k] * z[k];
        z[i] = s / l[i][i];
    }
    for (int i = FEAT_NB - 1; i >= 0; i--) {
        double s = z[i];
        for (int k = i + 1; k < FEAT_NB; k++) s -= l[k][i] * x[k];
        x[i] = s / l[i][i];
    }
    return true;
}

static void scaled(const Weights *w0, double k, Weights *out)
{
    for (int i = 0; i < FEAT_NB; i++) out->w[i] = k * w0->w[i];
}

void tune_fit(const TuneData *d, const Weights *w0, const TuneOptions *o, TuneFit *fit)
{
    int threads = nthreads(o);
    memset(fit, 0, sizeof *fit);
    fit->before = *w0;

    /* the scale: golden-section search of the (convex) loss in K */
    double lo = 0, hi = 20, g = (sqrt(5) - 1) / 2;
    Weights t;
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    scaled(w0, x1, &t);
    double f1 = tune_loss(d, &t, 0, threads);
    scaled(w0, x2, &t);
    double f2 = tune_loss(d, &t, 0, threads);
    for (int it = 0; it < 60; it++) {
        if (f1 < f2) {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - g * (hi - lo);
            scaled(w0, x1, &t);
            f1 = tune_loss(d, &t, 0, threads);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + g * (hi - lo);
            scaled(w0, x2, &t);
            f2 = tune_loss(d, &t, 0, threads);
        }
    }
    fit->k = (lo + hi) / 2;
    scaled(w0, fit->k, &fit->scaled);

    /* the weights: damped Newton from K w0 */
    double w[FEAT_NB];
    memcpy(w, fit->scaled.w, sizeof w);
    double obj = objective(d, w, o->l2, threads);
    for (int it = 0; it < 100; it++) {
        Sums s = sums(d, w, 0, 2, threads);
        double grad[FEAT_NB], h[FEAT_NB][FEAT_NB], step[FEAT_NB];
        for (int k = 0; k < FEAT_NB; k++) {
            grad[k] = s.g[k] / s.n + o->l2 * w[k];
            for (int j = 0; j <= k; j++) h[k][j] = s.h[k][j] / s.n + (j == k ? o->l2 : 0);
            h[k][k] += 1e-12; /* a feature constant over the data keeps H definite */
        }
        if (!cholesky_solve(h, grad, step)) break;
        double alpha = 1, next = obj, trial[FEAT_NB];
        for (int ls = 0; ls < 30; ls++, alpha /= 2) {
            for (int k = 0; k < FEAT_NB; k++) trial[k] = w[k] - alpha * step[k];
            next = objective(d, trial, o->l2, threads);
            if (next <= obj) break;
        }
        if (!(next <= obj)) break;
        memcpy(w, trial, sizeof w);
        fit->iterations = it + 1;
        double gain = obj - next;
        obj = next;
        if (gain < 1e-12) break;
    }
    memcpy(fit->after.w, w, sizeof w);

    /* the figures */
    double mean = 0;
    Sums base = {0};
    for (size_t i = 0; i < d->n; i++)
        if (!d->val[i]) {
            mean += d->y[i];
            base.n += 1;
        }
    mean = base.n > 0 ? mean / base.n : 0.5;
    mean = fmin(fmax(mean, 1e-6), 1 - 1e-6);
    for (int v = 0; v < 2; v++) {
        fit->loss_before[v] = tune_loss(d, &fit->before, v, threads);
        fit->loss_scaled[v] = tune_loss(d, &fit->scaled, v, threads);
        fit->loss_after[v] = tune_loss(d, &fit->after, v, threads);
        /* a constant prediction, the training mean */
        double loss = 0, n = 0, z = log(mean / (1 - mean));
        for (size_t i = 0; i < d->n; i++)
            if (d->val[i] == v) {
                loss += logloss(z, d->y[i]);
                n += 1;
            }
        fit->loss_constant[v] = n > 0 ? loss / n : NAN;
    }
}
