/* Gamma and Dirichlet samples (dirichlet.h says which methods). */
#include <math.h>
#include "selfplay/search/dirichlet.h"

/* A uniform in (0, 1), never 0, so that its logarithm is finite. */
static double uniform_open(Rng *rng) { return (rng_next(rng) + 0.5) * (1.0 / 4294967296.0); }

/* A standard normal: Marsaglia's polar method (one of the pair is kept:
 * no hidden state, so a draw depends on the Rng alone). */
static double normal(Rng *rng)
{
    for (;;) {
        double x = 2.0 * uniform_open(rng) - 1.0, y = 2.0 * uniform_open(rng) - 1.0, s = x * x + y * y;
        if (s > 0 && s < 1) return x * sqrt(-2.0 * log(s) / s);
    }
}

/* log Gamma(a) for a >= 1: Marsaglia and Tsang's rejection. */
static double log_gamma_ge1(Rng *rng, double a)
{
    double d = a - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
    for (;;) {
        double x = normal(rng), t = 1.0 + c * x;
        if (t <= 0) continue;
        double v = t * t * t, u = uniform_open(rng), x2 = x * x;
        if (u < 1.0 - 0.0331 * x2 * x2 || log(u) < 0.5 * x2 + d * (1.0 - v + log(v))) return log(d) + log(v);
    }
}

double dirichlet_log_gamma_sample(Rng *rng, double shape)
{
    if (shape >= 1) return log_gamma_ge1(rng, shape);
    /* Gamma(a) = Gamma(a + 1) * U^(1/a) */
    double g = log_gamma_ge1(rng, shape + 1.0);
    return g + log(uniform_open(rng)) / shape;
}

double dirichlet_gamma_sample(Rng *rng, double shape) { return exp(dirichlet_log_gamma_sample(rng, shape)); }

void dirichlet_sample(Rng *rng, double alpha, int k, double *out)
{
    double top = -INFINITY, sum = 0;
    for (int i = 0; i < k; i++) {
        out[i] = dirichlet_log_gamma_sample(rng, alpha);
        if (out[i] > top) top = out[i];
    }
    for (int i = 0; i < k; i++) sum += (out[i] = exp(out[i] - top));
    for (int i = 0; i < k; i++) out[i] /= sum;
}
