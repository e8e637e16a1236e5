/* Gamma and Dirichlet samples over the engine's pcg32 stream (base/rng.h),
 * for the root noise of MCTS (mcts.h, noise=EPS,alpha=A): written here,
 * from the papers, so that a search draws them from the game's Rng and
 * stays reproducible from its seed.
 *
 * Gamma(shape, 1) is Marsaglia and Tsang's method (ACM TOMS 26(3), 2000):
 * for shape a >= 1, with d = a - 1/3 and c = 1/sqrt(9d), a standard normal
 * x gives v = (1 + cx)^3 and the sample d*v, accepted by the squeeze
 * u < 1 - 0.0331 x^4 or by log u < x^2/2 + d(1 - v + log v); a shape below
 * 1 is Gamma(a + 1) * u^(1/a). The normals are Marsaglia's polar method.
 * A Dirichlet(alpha, ..., alpha) sample is k independent Gamma(alpha)
 * draws divided by their sum, done in logarithms so that small shapes
 * (u^(1/a) far below the smallest double) still give a distribution
 * that sums to 1; a component may then be 0 when alpha is tiny. */
#ifndef YINSH_DIRICHLET_H
#define YINSH_DIRICHLET_H

#include "engine/base/rng.h"

/* The natural logarithm of one Gamma(shape, 1) sample, shape > 0. */
double dirichlet_log_gamma_sample(Rng *rng, double shape);
/* One Gamma(shape, 1) sample, shape > 0 (may be 0 for a shape near 0). */
double dirichlet_gamma_sample(Rng *rng, double shape);
/* One Dirichlet sample of k >= 1 components, each of concentration alpha
 * > 0, into out: non-negative, summing to 1 (within rounding). */
void dirichlet_sample(Rng *rng, double alpha, int k, double *out);

#endif
