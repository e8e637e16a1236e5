/* Statistics that compare agents and variants: pure functions of counts,
 * checked by the tests against values worked out by hand.
 *
 * Scores count a win 1, a draw 1/2, a loss 0. Intervals are two-sided 95%
 * unless a z is given. Elo is the logistic scale: E = 1 / (1 + 10^(-d/400)). */
#ifndef YINSH_STATS_H
#define YINSH_STATS_H

#include <stdint.h>

#define STATS_Z95 1.959963984540054

typedef struct Interval {
    double lo, mid, hi;
} Interval;

/* Wilson score interval for a proportion p observed over n trials. */
Interval stats_wilson(double p, double n, double z);

/* Mean score of wins, draws, losses, and its Wilson 95% interval. */
Interval stats_score(uint64_t wins, uint64_t draws, uint64_t losses);

/* Two-sided p-value of the hypothesis "expected score = 1/2", from the
 * normal approximation with the sample's own (trinomial) variance. */
double stats_p_equal(uint64_t wins, uint64_t draws, uint64_t losses);

/* Elo difference of a score in (0, 1); +-inf at the ends. */
double stats_elo(double score);
/* Expected score of an Elo difference. */
double stats_score_of_elo(double elo);

/* Elo difference with its 95% interval, from the mean score and the
 * variance per game (trinomial). */
Interval stats_elo_trinomial(uint64_t wins, uint64_t draws, uint64_t losses);

/* Pair counts: games played in colour-swapped pairs; n[k] counts the pairs
 * in which A scored k/2 points (k = 0..4). Elo with its 95% interval from
 * the variance per pair, which removes the opening's share of the noise. */
Interval stats_elo_pentanomial(const uint64_t n[5]);

/* Likelihood of superiority: P(A stronger than B) from wins and losses. */
double stats_los(uint64_t wins, uint64_t losses);

/* Difference of two proportions p1 - p2 (n1, n2 trials) with its interval
 * (normal approximation, unpooled) and the two-sided p-value of p1 = p2. */
Interval stats_diff(double p1, double var1, double n1, double p2, double var2, double n2, double *p_value);

/* Sequential probability ratio test between H0: elo = elo0 and H1: elo =
 * elo1 (logistic Elo), with the generalized SPRT's normal approximation
 * (as in Stockfish's fishtest): LLR = N (s1 - s0)(2 m - s0 - s1) / (2 v),
 * m and v the mean and variance of the score per sample. Samples are games
 * (trinomial: counts[3] = losses, draws, wins) or pairs (pentanomial). */
typedef struct Sprt {
    double llr, lower, upper; /* the test continues while lower < llr < upper */
    int decision;             /* 0 continue, +1 accept H1, -1 accept H0 */
} Sprt;
Sprt stats_sprt(const uint64_t *counts, int kinds, double elo0, double elo1, double alpha, double beta);

/* Ratings of n players from all their games at once: the maximum-
 * likelihood Bradley-Terry model on the Elo scale, P(i beats j) =
 * 1 / (1 + 10^(-(r_i - r_j)/400)), a draw counted as half a win and half
 * a loss (so only the points matter: score[i*n+j] is what i scored
 * against j, a win 1 and a draw 1/2; games[i*n+j] = games[j*n+i] the
 * games they played). Player `anchor` is fixed at 0 and the others are
 * fitted by Newton's method on the log-likelihood (concave; each step is
 * halved until it gains). se[i] is the standard error of r_i from the
 * inverse of the observed Fisher information (the negative Hessian with
 * the anchor's row and column removed): an interval r_i +- 1.96 se[i] is
 * relative to the anchor, whose own se is 0.
 *
 * The ratings are finite only when no group of players scored every
 * point of the games against the rest (for every split of the players
 * in two, each side scored something against the other); otherwise, or
 * when a group played no game against the rest, the fit is refused:
 * -1 with the group in err (names[i] name the players, ERR_LEN bytes).
 * 0 on success; n <= STATS_BT_MAX. */
enum { STATS_BT_MAX = 64 };
int stats_bt_fit(int n, const double *games, const double *score, int anchor, const char *const *names, double *elo,
                 double *se, char *err);

#endif
