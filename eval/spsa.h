/* SPSA (simultaneous perturbation stochastic approximation) for tuning an
 * agent's numeric parameters by matches, fishtest style: each iteration
 * moves every parameter at once by +-c_k (random signs), plays the two
 * agents against each other, and steps along the signs in proportion to
 * the result. The math only: the matches are the caller's (`yinsh spsa`).
 *
 * Parameters are tuned in units of their range: u = (value - lo) / (hi -
 * lo), in [0, 1]. With the gains a, c, A, alpha, gamma of iteration k
 * (k = 0, 1, ...):
 *
 *   c_k = c / (k + 1)^gamma              the perturbation, a fraction of the range
 *   a_k = a / (k + 1 + A)^alpha          the step size
 *   plus  = u + c_k * delta,  minus = u - c_k * delta   (each clamped to [0, 1])
 *   u    += a_k * result / (2 c_k delta_i)              (then clamped)
 *
 * where delta_i = +-1 with equal odds from the iteration's own stream
 * (rng_stream(seed, k)), and result is the plus agent's score minus the
 * minus agent's, per game: (wins - losses) / games, in [-1, 1]. So a pair
 * won 2-0 by plus moves every parameter by a_k / (2 c_k) of its range
 * towards plus. The usual choices (Spall): alpha 0.602, gamma 0.101, A
 * about a tenth of the iterations; c a tenth of the range, a so that the
 * first steps are a few per cent of it.
 *
 * An integer parameter is tuned as a real number and played rounded. */
#ifndef YINSH_SPSA_H
#define YINSH_SPSA_H

#include <stdbool.h>
#include <stdint.h>
#include "engine/types.h"

enum { SPSA_MAX_PARAMS = 16, SPSA_NAME_LEN = 32 };

typedef struct SpsaParam {
    char name[SPSA_NAME_LEN]; /* a key of the agent's spec */
    double start, lo, hi;     /* lo < hi, start within */
    bool integer;             /* start, lo and hi written as integers: played rounded */
} SpsaParam;

typedef struct SpsaGains {
    double a, c, A, alpha, gamma;
} SpsaGains;

/* The defaults above for a run of `iterations`: a 0.02, c 0.1, A a tenth
 * of the iterations, alpha 0.602, gamma 0.101. */
void spsa_gains_default(SpsaGains *g, int iterations);
/* 0 when the gains make sense (a, c > 0, c <= 0.5, A >= 0, alpha and
 * gamma in [0, 2], all finite), else -1 naming the bad one in err. */
int spsa_gains_check(const SpsaGains *g, char *err);

/* Parses NAME=START:LO:HI; 0, or -1 with a message naming the text. */
int spsa_param_parse(const char *text, SpsaParam *p, char *err);

double spsa_c(const SpsaGains *g, int k);
double spsa_a(const SpsaGains *g, int k);

/* Iteration k's signs (n of them) from the run's seed. */
void spsa_delta(uint64_t seed, int k, int n, int8_t *delta);

/* The parameter's value at u in [0, 1] (rounded for an integer one), and
 * back: u of a value (clamped). */
double spsa_value(const SpsaParam *p, double u);
double spsa_unit(const SpsaParam *p, double value);

/* The plus and minus points of iteration k, in units. */
void spsa_points(int n, const double *u, const int8_t *delta, double ck, double *plus, double *minus);

/* The step: u moves by a_k * result / (2 c_k delta_i), clamped to [0, 1]. */
void spsa_update(int n, double *u, const int8_t *delta, double ak, double ck, double result);

#endif
