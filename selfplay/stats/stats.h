/* Statistics that compare agents and variants: pure functions of counts,
 * checked by the tests against values worked out by hand.
 *
 * Scores count a win 1, a draw 1/2, a loss 0. Intervals are two-sided 95%
 * unless a z is given. Elo is the logistic scale: E = 1 / (1 + 10^(-d/400)). */
#ifndef YINSH_STATS_H
#define YINSH_STATS_H

#include <stdbool.h>
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
 * normal approximation with the sample's own (trinomial) variance. Poor
 * for small samples and wrong when the sample does not vary (3 wins of 3
 * give 0); stats_p_sign is exact. */
double stats_p_equal(uint64_t wins, uint64_t draws, uint64_t losses);

/* The exact two-sided binomial test of a fair coin: k successes in n
 * trials, p = min(1, 2 P(X <= min(k, n - k))) for X ~ Binomial(n, 1/2)
 * (twice the smaller tail, the test the Clopper-Pearson interval
 * inverts). 1 when n = 0. Exact up to rounding at any n: the tail is
 * summed term by term from its largest term, computed with lgamma. */
double stats_binomial_p(uint64_t k, uint64_t n);

/* The sign test of "expected score = 1/2", exact at any sample size:
 * a score of 1/2 is P(win) + P(draw)/2 = 1/2, which is P(win) = P(loss),
 * and given the number of decisive games d = wins + losses the wins are
 * then Binomial(d, 1/2), whatever the draws. So the p-value is
 * stats_binomial_p(wins, wins + losses): draws say nothing about which
 * side is ahead. For large samples it agrees with stats_p_equal. */
double stats_p_sign(uint64_t wins, uint64_t losses);

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

/* The one-sided lower confidence bound, at level 1 - alpha, of a success
 * probability when every one of n trials succeeded: the exact
 * (Clopper-Pearson) bound, the p at which n successes of n have
 * probability alpha, p^n = alpha, so alpha^(1/n). A side that won every
 * game gives no finite Elo (stats_elo(1) is +inf) and no finite rating
 * (stats_bt_fit refuses it): this bound is what the games do allow, read
 * on the Elo scale as stats_elo of it. 0 when n = 0 (nothing is known). */
double stats_sweep_lower(uint64_t n, double alpha);

/* The exact (Clopper-Pearson) two-sided interval, at level 1 - alpha, of
 * a success probability from k successes in n trials: lo is the p at
 * which P(X >= k) = alpha/2 and hi the p at which P(X <= k) = alpha/2,
 * X ~ Binomial(n, p) (lo 0 when k = 0, hi 1 when k = n), found by
 * bisection on the binomial tails; mid is k/n. Conservative (it covers
 * at least 1 - alpha at every p), and sound for rare events, where a
 * normal interval is not: a false-resignation rate of 0 in 40 checked
 * games is 0 (0 to 0.088). {0, 0, 1} when n = 0. */
Interval stats_clopper_pearson(uint64_t k, uint64_t n, double alpha);

/* The binomial's tails at any success probability p: P(X <= k) and
 * P(X >= k) for X ~ Binomial(n, p), each summed from its end nearest the
 * mean outwards (the tail beyond the mean directly, the other as one
 * minus it), so a tail of 1e-300 keeps its digits. */
double stats_binomial_cdf(uint64_t k, uint64_t n, double p);
double stats_binomial_sf(uint64_t k, uint64_t n, double p);

/* Equivalence to a fair game within a margin m (0.02: two points), by
 * two one-sided tests (TOST, Schuirmann 1987), exact at any sample size.
 * As the sign test (stats_p_sign), it reads the decisive games: White's
 * share of them, pi = P(win) / (P(win) + P(loss)), and given the n = W +
 * L decisive games White's wins W are Binomial(n, pi) whatever the draws.
 * White's score s = 1/2 + (1 - d)(pi - 1/2), d the draws' share, so a
 * decisive share within 1/2 +- m puts the score within 1/2 +- (1 - d) m,
 * inside the same margin: equivalence of pi is equivalence of s (exact,
 * conservative by the draws' share), and pi beyond the margin is s
 * beyond (1 - d) m. The tests:
 *   p_low:  H0 pi <= 1/2 - m, P(Bin(n, 1/2 - m) >= W);
 *   p_high: H0 pi >= 1/2 + m, P(Bin(n, 1/2 + m) <= W);
 * equivalent when both reject: p = max(p_low, p_high) < alpha, which is
 * the exact (Clopper-Pearson) 1 - 2 alpha interval of pi inside 1/2 +- m.
 * The contrary, "beyond the margin" (H0: |pi - 1/2| <= m), from the other
 * side: p_above = P(Bin(n, 1/2 + m) >= W), p_below = P(Bin(n, 1/2 - m) <=
 * W), p_beyond = min(1, 2 min(p_above, p_below)). Neither: inconclusive,
 * the data allowing both a fair game and an edge of m. verdict is by p
 * and p_beyond at alpha as given; a caller with a family adjusts both
 * (stats_holm) and decides by stats_tost_verdict. */
typedef enum { TOST_INCONCLUSIVE, TOST_EQUIVALENT, TOST_BEYOND, TOST_VERDICTS } TostVerdict;
typedef struct StatsTost {
    double margin, alpha;
    double p_low, p_high, p;           /* the two one-sided tests of "not equivalent", and their max */
    double p_above, p_below, p_beyond; /* the tests of "within the margin", and twice their min */
    Interval ci;                       /* the exact 1 - 2 alpha interval of pi, mid W / n */
    TostVerdict verdict;
} StatsTost;
/* 0, or -1 when there is no decisive game, or the margin is not in (0,
 * 1/2) or alpha not in (0, 1/2). */
int stats_tost_sign(uint64_t wins, uint64_t losses, double margin, double alpha, StatsTost *t);
/* The verdict of a TOST whose two p-values (p, p_beyond) were adjusted
 * for a family: equivalent when p < alpha, beyond when p_beyond < alpha
 * (never both: the two need contradictory intervals), else
 * inconclusive. */
TostVerdict stats_tost_verdict(double p, double p_beyond, double alpha);

/* The upper quantile of the standard normal: the z with P(Z > z) = q, 0
 * < q < 1 (bisection on erfc, to 1e-12). */
double stats_normal_upper(double q);

/* The power of the two-sided z test at level alpha, for an estimate
 * whose standard error is se, to tell a true difference delta from 0:
 * P(|est / se| > z) with est ~ N(delta, se^2), z = stats_normal_upper(alpha / 2). */
double stats_power_z(double delta, double se, double alpha);

/* Pooled estimates and their heterogeneity: k estimates est[i] with
 * standard errors se[i] (each > 0) pooled by inverse-variance weights w =
 * 1/se^2 (the fixed-effect mean, with its standard error 1/sqrt(sum w)
 * and 95% interval), and Cochran's Q = sum w (est - mean)^2 on k - 1 df
 * with its chi-squared p: a small p says the estimates differ by more
 * than their errors, so the pooled one is no one number they share.
 * I^2 = max(0, (Q - df) / Q) is the share of their spread beyond chance
 * (Higgins and Thompson 2002). */
typedef struct StatsPooled {
    int k, df;
    double mean, se;
    Interval ci;
    double q, p, i2;
} StatsPooled;
/* 0, or -1 for k < 2 or a standard error that is not positive. */
int stats_pool(const double *est, const double *se, int k, StatsPooled *out);

/* Likelihood of superiority: P(A stronger than B) from wins and losses. */
double stats_los(uint64_t wins, uint64_t losses);

/* Difference of two proportions p1 - p2 (n1, n2 trials) with its interval
 * (normal approximation, unpooled) and the two-sided p-value of p1 = p2.
 * Poor for small samples, and of no width when neither sample varies;
 * stats_diff_newcombe and stats_p_scores_differ hold at the edges. */
Interval stats_diff(double p1, double var1, double n1, double p2, double var2, double n2, double *p_value);

/* The difference a.mid - b.mid of two scores with Newcombe's hybrid
 * score interval (Newcombe 1998, method 10) from each score's own
 * interval (a Wilson interval): lo = d - sqrt((a.mid - a.lo)^2 + (b.hi -
 * b.mid)^2), hi = d + sqrt((a.hi - a.mid)^2 + (b.mid - b.lo)^2). It keeps
 * the Wilson interval's behaviour at small samples and at 0% and 100%,
 * where the normal approximation's interval has no width. */
Interval stats_diff_newcombe(Interval a, Interval b);

/* The exact permutation test of "the two samples' scores differ by
 * chance": a[3] and b[3] count losses, draws and wins (scores 0, 1/2, 1)
 * of samples A and B. Under the hypothesis that the results do not depend
 * on the sample, every split of the pooled results into n_A and n_B games
 * is as likely as the observed one, and a split's probability is the
 * multivariate hypergeometric; the p-value sums those of the splits whose
 * difference in mean score is at least as far from 0 as the observed one
 * (either sign). Exact when there are at most STATS_EXACT_SPLITS splits to
 * sum (*exact set: two samples of 10,000 games with 1,000 draws between
 * them are 10 million splits, summed in a fraction of a second); beyond
 * that the counts are large and the split's score is normal with the
 * permutation variance, n_A n_B / (N (N - 1))
 * times the pooled sum of squares (*exact cleared). 1 when either sample
 * is empty or the pooled results do not vary. */
enum { STATS_EXACT_SPLITS = 20000000 };
double stats_p_scores_differ(const uint64_t a[3], const uint64_t b[3], bool *exact);

/* Holm's step-down correction of a family of n tests (Holm 1979): the
 * p-values sorted, p(1) <= ... <= p(n), the k-th adjusted is
 * max over j <= k of min(1, (n - j + 1) p(j)), written into adjusted[i]
 * for p[i] (adjusted may be p). A verdict "adjusted < alpha" rejects
 * with a chance of alpha or less that any of the n true "none"s is
 * rejected, whatever the tests' dependence: the claim a report makes
 * from the smallest of twelve p-values is the claim of the family, not
 * of one test. The adjusted values are never below the raw ones, keep
 * their order, reach at most 1, and tied p-values get one adjusted
 * value; a family of one is left as it is. n <= STATS_HOLM_MAX; no
 * allocation, the sort an insertion sort: the families a report prints
 * are tens of tests. */
enum { STATS_HOLM_MAX = 4096 };
void stats_holm(const double *p, int n, double *adjusted);

/* The upper tail of the chi-squared distribution with df degrees of
 * freedom, P(X >= x): the regularized upper incomplete gamma function
 * Q(df/2, x/2), by its series below x/2 = df/2 + 1 and its continued
 * fraction above, each to about 1e-14 relative. 1 for x <= 0; NaN for df
 * < 1. */
double stats_chi2_upper(double x, int df);

/* White's score across k groups (the levels of a ladder) against a
 * strength x[i] of each (its Elo): a[i][3] counts losses, draws and wins
 * (scores 0, 1/2, 1) as stats_p_scores_differ does. Under "the groups'
 * results are one distribution" each group's mean score is the pooled
 * mean with the pooled variance of a game's score (draws counted) over
 * its games, so
 *   chi2 = sum n_i (s_i - s)^2 / v         on k - 1 df (the groups differ),
 * and the weighted least-squares line of s_i on x_i, weights n_i, has the
 *   slope b = sum n_i (x_i - xm)(s_i - s) / sxx,  se = sqrt(v / sxx),
 * sxx = sum n_i (x_i - xm)^2, tested by z = b / se (the Cochran-Armitage
 * test for trend, with scores of 0, 1/2 and 1); what the line leaves,
 * chi2 - z^2 on k - 2 df, is the groups' departure from it. Large-sample
 * tests (each group's games many); the x are taken as exact. */
typedef struct StatsTrend {
    int k;                  /* the groups */
    uint64_t n;             /* their games */
    double mean, var;       /* the pooled score and a game's pooled variance */
    double chi2, p;         /* the groups differ: chi2 on k - 1 df and its p */
    double slope, se;       /* the score's change per unit of x, and its standard error */
    Interval slope_ci;      /* slope +- 1.96 se */
    double p_slope;         /* two-sided p of "no slope" (normal) */
    double chi2_dev, p_dev; /* the departure from the line: chi2 - z^2 on k - 2 df (NaN for k < 3) */
} StatsTrend;
/* 0, or -1 when there is nothing to test (k < 2, a group without games,
 * results that do not vary, or one x for all: no slope). */
int stats_score_trend(const uint64_t (*a)[3], const double *x, int k, StatsTrend *t);

/* The SPRT is selfplay/match/sprt.h. */

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
/* Who reaches whom along "scored a point against" (i -> j when score[i*n+j]
 * > 0), through chains of games: reach[i][j], every i reaching itself. The
 * ratings of a group are finite when each of its players reaches every
 * other (stats_bt_fit, stats_bt_bounds). */
void stats_bt_reach(int n, const double *score, bool reach[][STATS_BT_MAX]);
int stats_bt_fit(int n, const double *games, const double *score, int anchor, const char *const *names, double *elo,
                 double *se, char *err);

#endif
