#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "selfplay/match/sprt.h"
#include "engine/base/error.h"
#include "engine/base/rng.h"

enum { SPRT_KINDS_MAX = 5 };

/* fishtest's regularization of an outcome not seen yet */
#define SPRT_EPSILON 1e-3

/* nElo per unit of t (the score's excess in standard deviations per game) */
#define NELO_PER_T (800 / M_LN10)

const char *sprt_model_name(SprtModel model) { return model == SPRT_NORMALIZED ? "normalized" : "logistic"; }

static double score_of_elo(double elo) { return 1 / (1 + pow(10, -elo / 400)); }

/* the sample's score: a_i = i / (kinds - 1) */
static double score_of(int i, int kinds) { return (double)i / (kinds - 1); }

static void mean_var(const double *p, int kinds, double *mu, double *var)
{
    double m = 0, s = 0;
    for (int i = 0; i < kinds; i++) m += p[i] * score_of(i, kinds);
    for (int i = 0; i < kinds; i++) s += p[i] * (score_of(i, kinds) - m) * (score_of(i, kinds) - m);
    *mu = m;
    *var = s;
}

/* The t-value the normalized model's constraint holds the distribution
 * to: (mu - 1/2) / sigma, sigma the standard deviation of one sample (a
 * pair's standard deviation is 1/sqrt 2 of a game's). */
static double t_of_nelo(double nelo, int kinds)
{
    double t = nelo / NELO_PER_T;
    return kinds == 5 ? t * M_SQRT2 : t;
}

/* The root lambda of sum_i q_i x_i / (1 + lambda x_i) = 0 with every 1 +
 * lambda x_i > 0: q_i > 0, min x < 0 < max x. The sum falls from +inf to
 * -inf over that interval. Newton's steps inside a shrinking bracket, and
 * a bisection whenever a step would leave the bracket or the last one did
 * not halve |f|: near a pole f's steepness makes Newton's steps tiny, so a
 * small step is no sign of the root; only the bracket's width or f itself
 * says when it is found. */
static double secular(const double *q, const double *x, int kinds)
{
    double xmin = 0, xmax = 0;
    for (int i = 0; i < kinds; i++) {
        xmin = fmin(xmin, x[i]);
        xmax = fmax(xmax, x[i]);
    }
    double lo = -1 / xmax, hi = -1 / xmin, lam = 0, last = INFINITY;
    for (int iter = 0; iter < 300 && hi - lo > 1e-15 * fmax(1, fabs(lam)); iter++) {
        double f = 0, df = 0;
        for (int i = 0; i < kinds; i++) {
            double d = 1 + lam * x[i];
            f += q[i] * x[i] / d;
            df -= q[i] * x[i] * x[i] / (d * d);
        }
        if (f == 0) break;
        if (f > 0) lo = lam;
        else hi = lam;
        double next = lam - f / df;
        if (!(next > lo && next < hi) || fabs(f) > 0.5 * last) next = 0.5 * (lo + hi);
        last = fabs(f);
        lam = next;
    }
    return lam;
}

/* p_i = q_i / (1 + lambda x_i), normalized */
static void reweight(const double *q, const double *x, int kinds, double lam, double *p)
{
    double sum = 0;
    for (int i = 0; i < kinds; i++) sum += p[i] = q[i] / (1 + lam * x[i]);
    for (int i = 0; i < kinds; i++) p[i] /= sum;
}

/* The distribution of largest likelihood for the observed q whose mean
 * score is s (0 < s < 1): the Lagrange condition makes it q_i / (1 +
 * lambda (a_i - s)). */
static void mle_mean(const double *q, int kinds, double s, double *p)
{
    double x[SPRT_KINDS_MAX];
    for (int i = 0; i < kinds; i++) x[i] = score_of(i, kinds) - s;
    reweight(q, x, kinds, secular(q, x, kinds), p);
}

/* The distribution of largest likelihood for q whose t-value (mu - 1/2) /
 * sigma is t. The constraint's gradient depends on the distribution (mu and
 * sigma), so the Lagrange condition p_i = q_i / (1 + lambda x_i), x_i =
 * a_i - 1/2 - t sigma (1 + ((a_i - mu) / sigma)^2) / 2, is iterated to its
 * fixed point from the uniform distribution (fishtest's method; from q
 * itself, whose sigma is near 0 after a few samples alike, it can fail). */
static void mle_t(const double *q, int kinds, double t, double *p)
{
    double x[SPRT_KINDS_MAX], next[SPRT_KINDS_MAX];
    for (int i = 0; i < kinds; i++) p[i] = 1.0 / kinds;
    for (int iter = 0; iter < 100; iter++) {
        double mu, var;
        mean_var(p, kinds, &mu, &var);
        double sigma = sqrt(var), xmin = 0, xmax = 0;
        for (int i = 0; i < kinds; i++) {
            double z = (score_of(i, kinds) - mu) / sigma;
            x[i] = score_of(i, kinds) - 0.5 - t * sigma * (1 + z * z) / 2;
            xmin = fmin(xmin, x[i]);
            xmax = fmax(xmax, x[i]);
        }
        if (!(xmin < 0 && xmax > 0)) return; /* cannot happen near the fixed point; keep the last */
        reweight(q, x, kinds, secular(q, x, kinds), next);
        double moved = 0;
        for (int i = 0; i < kinds; i++) moved = fmax(moved, fabs(next[i] - p[i]));
        memcpy(p, next, (size_t)kinds * sizeof *p);
        if (moved < 1e-13) break;
    }
}

static void mle(const double *q, int kinds, double elo, SprtModel model, double *p)
{
    if (model == SPRT_NORMALIZED) mle_t(q, kinds, t_of_nelo(elo, kinds), p);
    else mle_mean(q, kinds, score_of_elo(elo), p);
}

/* Each outcome's contribution to the LLR, log(p1_i / p0_i), for the
 * distribution q. */
static void llr_steps(const double *q, int kinds, const SprtSpec *spec, double *step)
{
    double p0[SPRT_KINDS_MAX], p1[SPRT_KINDS_MAX];
    mle(q, kinds, spec->elo0, spec->model, p0);
    mle(q, kinds, spec->elo1, spec->model, p1);
    for (int i = 0; i < kinds; i++) step[i] = log(p1[i] / p0[i]);
}

Sprt sprt_test(const uint64_t *counts, int kinds, const SprtSpec *spec)
{
    Sprt r = {0, log(spec->beta / (1 - spec->alpha)), log((1 - spec->beta) / spec->alpha), 0};
    double n = 0, sum = 0, q[SPRT_KINDS_MAX], step[SPRT_KINDS_MAX];
    for (int i = 0; i < kinds; i++) n += (double)counts[i];
    if (n == 0) return r;
    for (int i = 0; i < kinds; i++) sum += q[i] = counts[i] ? (double)counts[i] : SPRT_EPSILON;
    for (int i = 0; i < kinds; i++) q[i] /= sum;
    llr_steps(q, kinds, spec, step);
    for (int i = 0; i < kinds; i++) r.llr += n * q[i] * step[i];
    r.decision = r.llr >= r.upper ? 1 : r.llr <= r.lower ? -1 : 0;
    return r;
}

int sprt_parse(const char *text, SprtSpec *spec, char *err)
{
    double v[4];
    const char *s = text;
    SprtModel model = SPRT_LOGISTIC;
    for (int i = 0; i < 4; i++) {
        char *end;
        v[i] = strtod(s, &end);
        bool last = *end == '\0' || (i == 3 && *end == ',');
        if (end == s || !isfinite(v[i]) || (i < 3 ? *end != ',' : !last))
            return error_code(err, ERR_USAGE, "'%.64s' is not elo0,elo1,alpha,beta[,logistic|normalized]", text);
        s = end + 1;
        if (i == 3 && *end == ',') {
            if (strcmp(s, "normalized") == 0) model = SPRT_NORMALIZED;
            else if (strcmp(s, "logistic") != 0)
                return error_code(err, ERR_USAGE, "'%.64s': the Elo model is logistic or normalized, not '%.32s'",
                                  text, s);
        }
    }
    if (!(v[0] < v[1])) return error_code(err, ERR_USAGE, "elo0 (%g) must be below elo1 (%g)", v[0], v[1]);
    if (!(v[2] > 0 && v[2] < 0.5 && v[3] > 0 && v[3] < 0.5))
        return error_code(err, ERR_USAGE, "alpha and beta must lie in (0, 0.5), not %g and %g", v[2], v[3]);
    if (fmax(fabs(v[0]), fabs(v[1])) >= 2000)
        return error_code(err, ERR_USAGE, "elo0 and elo1 must lie within +-2000, not %g and %g", v[0], v[1]);
    *spec = (SprtSpec){v[0], v[1], v[2], v[3], model};
    return 0;
}

double sprt_elo(const double *pdf, int kinds, SprtModel model)
{
    double mu, var;
    mean_var(pdf, kinds, &mu, &var);
    if (model == SPRT_LOGISTIC) return -400 * log10(1 / mu - 1);
    double t = (mu - 0.5) / sqrt(var);
    return (kinds == 5 ? t / M_SQRT2 : t) * NELO_PER_T;
}

int sprt_tilt(const double *base, int kinds, double elo, SprtModel model, double *pdf)
{
    double lo = -60, hi = 60;
    for (int iter = 0; iter < 200; iter++) {
        double theta = 0.5 * (lo + hi), sum = 0;
        for (int i = 0; i < kinds; i++) sum += pdf[i] = base[i] * exp(theta * score_of(i, kinds));
        for (int i = 0; i < kinds; i++) pdf[i] /= sum;
        if (sprt_elo(pdf, kinds, model) < elo) lo = theta;
        else hi = theta;
    }
    return fabs(sprt_elo(pdf, kinds, model) - elo) < 1e-6 ? 0 : -1;
}

double sprt_drift(const double *pdf, int kinds, const SprtSpec *spec)
{
    double step[SPRT_KINDS_MAX], d = 0;
    llr_steps(pdf, kinds, spec, step);
    for (int i = 0; i < kinds; i++) d += pdf[i] * step[i];
    return d;
}

double sprt_expected_samples(const double *pdf, int kinds, const SprtSpec *spec, double p_h1)
{
    double lower = log(spec->beta / (1 - spec->alpha)), upper = log((1 - spec->beta) / spec->alpha);
    return (p_h1 * upper + (1 - p_h1) * lower) / sprt_drift(pdf, kinds, spec);
}

void sprt_simulate(const double *pdf, int kinds, const SprtSpec *spec, uint64_t first, uint64_t runs, uint64_t cap,
                   uint64_t seed, SprtSim *out)
{
    double cdf[SPRT_KINDS_MAX], acc = 0;
    for (int i = 0; i < kinds; i++) cdf[i] = acc += pdf[i];
    for (uint64_t run = first; run < first + runs; run++) {
        Rng rng;
        rng_seed(&rng, seed, run);
        uint64_t counts[SPRT_KINDS_MAX] = {0}, n = 0;
        int decision = 0;
        while (!decision && n < cap) {
            double u = rng_next(&rng) * 0x1p-32;
            int i = 0;
            while (i < kinds - 1 && u >= cdf[i]) i++;
            counts[i]++;
            n++;
            decision = sprt_test(counts, kinds, spec).decision;
        }
        out->runs++;
        if (decision > 0) out->h1++;
        else if (decision < 0) out->h0++;
        else out->open++;
        if (decision) out->samples += (double)n;
    }
}
