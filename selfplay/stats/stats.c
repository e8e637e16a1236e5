#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "selfplay/stats/stats.h"
#include "engine/base/error.h"
#include "engine/base/number.h"

Interval stats_wilson(double p, double n, double z)
{
    if (n <= 0) return (Interval){0, p, 1}; /* nothing observed: anything goes */
    double z2 = z * z, denom = 1 + z2 / n;
    double centre = (p + z2 / (2 * n)) / denom;
    double half = z * sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom;
    return (Interval){fmax(0, centre - half), p, fmin(1, centre + half)};
}

Interval stats_score(uint64_t wins, uint64_t draws, uint64_t losses)
{
    double n = (double)(wins + draws + losses);
    double p = n > 0 ? (wins + 0.5 * draws) / n : 0.5;
    return stats_wilson(p, n, STATS_Z95);
}

/* Mean and variance of a discrete score distribution: value k/(kinds-1)
 * with count counts[k]. */
static void moments(const uint64_t *counts, int kinds, double *n, double *mean, double *var)
{
    double total = 0, sum = 0, sq = 0;
    for (int k = 0; k < kinds; k++) {
        double v = (double)k / (kinds - 1);
        total += counts[k];
        sum += counts[k] * v;
        sq += counts[k] * v * v;
    }
    *n = total;
    *mean = total > 0 ? sum / total : 0.5;
    *var = total > 0 ? sq / total - *mean * *mean : 0;
}

double stats_p_equal(uint64_t wins, uint64_t draws, uint64_t losses)
{
    uint64_t c[3] = {losses, draws, wins};
    double n, m, v;
    moments(c, 3, &n, &m, &v);
    if (n == 0) return 1;
    if (v <= 0) return m == 0.5 ? 1 : 0;
    double z = (m - 0.5) / sqrt(v / n);
    return erfc(fabs(z) / sqrt(2));
}

double stats_binomial_p(uint64_t k, uint64_t n)
{
    if (n == 0) return 1;
    if (k > n) k = n;
    uint64_t m = k < n - k ? k : n - k; /* the smaller tail is P(X <= m) */
    if (2 * m + 1 >= n) return 1;       /* that tail holds half the mass or more */
    /* The terms fall from j = m down (t(j - 1) = t(j) j / (n - j + 1), a
     * ratio below 1 left of the middle): start at the largest, stop when
     * the rest cannot change the sum. */
    double nd = (double)n, md = (double)m;
    double t = exp(lgamma(nd + 1) - lgamma(md + 1) - lgamma(nd - md + 1) - nd * M_LN2), sum = 0;
    for (uint64_t j = m;; j--) {
        sum += t;
        if (j == 0 || t <= sum * 1e-17) break;
        t *= (double)j / (nd - (double)j + 1);
    }
    return fmin(1, 2 * sum);
}

double stats_p_sign(uint64_t wins, uint64_t losses) { return stats_binomial_p(wins, wins + losses); }

static double sq(double x) { return x * x; }

Interval stats_diff_newcombe(Interval a, Interval b)
{
    double d = a.mid - b.mid;
    return (Interval){d - sqrt(sq(a.mid - a.lo) + sq(b.hi - b.mid)), d, d + sqrt(sq(a.hi - a.mid) + sq(b.mid - b.lo))};
}

static double log_choose(uint64_t n, uint64_t k)
{
    return lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1);
}

/* In half points (a draw 1, a win 2), so that every score is an integer
 * and "as far from the expectation" compares integers: a split with h
 * half points for A is as far as the observed h_obs when
 * |N h - n_A H| >= |N h_obs - n_A H|, H the pooled half points (products
 * below 2^63 for any run the store allows). */
double stats_p_scores_differ(const uint64_t a[3], const uint64_t b[3], bool *exact)
{
    uint64_t c[3], na = a[0] + a[1] + a[2], nb = b[0] + b[1] + b[2], n = na + nb;
    for (int k = 0; k < 3; k++) c[k] = a[k] + b[k];
    if (exact) *exact = true;
    if (!na || !nb || c[0] == n || c[1] == n || c[2] == n) return 1; /* nothing to split */
    int64_t total = (int64_t)(c[1] + 2 * c[2]), observed = (int64_t)(a[1] + 2 * a[2]);
    int64_t far = llabs((int64_t)n * observed - (int64_t)na * total);

    /* the splits: A's wins x2, then its draws x1 (its losses the rest) */
    uint64_t lo2 = na > c[0] + c[1] ? na - c[0] - c[1] : 0, hi2 = c[2] < na ? c[2] : na;
    double splits = 0;
    for (uint64_t x2 = lo2; x2 <= hi2 && splits <= STATS_EXACT_SPLITS; x2++) {
        uint64_t rest = na - x2, lo1 = rest > c[0] ? rest - c[0] : 0, hi1 = c[1] < rest ? c[1] : rest;
        splits += (double)(hi1 - lo1 + 1);
    }
    if (splits > STATS_EXACT_SPLITS) {
        /* a sample of na from the pooled N: variance na nb / (N - 1) times
         * the pooled variance per game */
        if (exact) *exact = false;
        double mean = (double)total / (double)n, var = 0;
        for (int k = 0; k < 3; k++) var += (double)c[k] * sq(k - mean);
        var *= (double)na * (double)nb / ((double)n * ((double)n - 1));
        double z = ((double)observed - (double)na * mean) / sqrt(var);
        return erfc(fabs(z) / sqrt(2));
    }
    /* log k! for k <= n, looked up rather than recomputed at each of up
     * to STATS_EXACT_SPLITS terms */
    double *lf = malloc(((size_t)n + 1) * sizeof *lf);
    if (lf)
        for (uint64_t k = 0; k <= n; k++) lf[k] = lgamma((double)k + 1);
#define LOG_CHOOSE(a, b) (lf ? lf[a] - lf[b] - lf[(a) - (b)] : log_choose(a, b))
    double whole = LOG_CHOOSE(n, na), p = 0;
    for (uint64_t x2 = lo2; x2 <= hi2; x2++) {
        uint64_t rest = na - x2, lo1 = rest > c[0] ? rest - c[0] : 0, hi1 = c[1] < rest ? c[1] : rest;
        double wins = LOG_CHOOSE(c[2], x2) - whole;
        for (uint64_t x1 = lo1; x1 <= hi1; x1++) {
            int64_t h = (int64_t)(x1 + 2 * x2);
            if (llabs((int64_t)n * h - (int64_t)na * total) < far) continue;
            p += exp(wins + LOG_CHOOSE(c[1], x1) + LOG_CHOOSE(c[0], rest - x1));
        }
    }
#undef LOG_CHOOSE
    free(lf);
    return fmin(1, p);
}

double stats_elo(double score)
{
    if (score <= 0) return -INFINITY;
    if (score >= 1) return INFINITY;
    return -400 * log10(1 / score - 1);
}

double stats_sweep_lower(uint64_t n, double alpha)
{
    return n ? pow(alpha, 1.0 / (double)n) : 0;
}

/* P(X <= k) for X ~ Binomial(n, p), 0 < p < 1, summed term by term. */
static double binomial_cdf(uint64_t k, uint64_t n, double p)
{
    double sum = 0, lp = log(p), lq = log1p(-p);
    for (uint64_t j = 0; j <= k && j <= n; j++)
        sum += exp(log_choose(n, j) + (double)j * lp + (double)(n - j) * lq);
    return fmin(1, sum);
}

/* The binomial's terms from j outwards, away from the mean: t(j) first,
 * then t(j + 1) = t(j) (n - j)/(j + 1) p/q upwards or t(j - 1) = t(j)
 * j/(n - j + 1) q/p downwards, while they still count. */
static double binomial_tail_from(uint64_t j, uint64_t n, double p, bool up)
{
    double lp = log(p), lq = log1p(-p), nd = (double)n;
    double t = exp(log_choose(n, j) + (double)j * lp + (nd - (double)j) * lq), sum = 0, r = p / (1 - p);
    for (;;) {
        sum += t;
        if (t <= sum * 1e-17 || (up ? j == n : j == 0)) break;
        if (up) {
            t *= (nd - (double)j) / ((double)j + 1) * r;
            j++;
        } else {
            t *= (double)j / (nd - (double)j + 1) / r;
            j--;
        }
    }
    return fmin(1, sum);
}

double stats_binomial_sf(uint64_t k, uint64_t n, double p)
{
    if (k == 0) return 1;
    if (k > n || p <= 0) return 0;
    if (p >= 1) return 1;
    if ((double)k > (double)n * p) return binomial_tail_from(k, n, p, true);
    return 1 - stats_binomial_cdf(k - 1, n, p);
}

double stats_binomial_cdf(uint64_t k, uint64_t n, double p)
{
    if (k >= n || p <= 0) return 1;
    if (p >= 1) return 0;
    if ((double)k < (double)n * p) return binomial_tail_from(k, n, p, false);
    return 1 - stats_binomial_sf(k + 1, n, p);
}

TostVerdict stats_tost_verdict(double p, double p_beyond, double alpha)
{
    return p < alpha ? TOST_EQUIVALENT : p_beyond < alpha ? TOST_BEYOND : TOST_INCONCLUSIVE;
}

int stats_tost_sign(uint64_t wins, uint64_t losses, double margin, double alpha, StatsTost *t)
{
    uint64_t n = wins + losses;
    *t = (StatsTost){.margin = margin, .alpha = alpha, .p_low = NAN, .p_high = NAN, .p = NAN, .p_above = NAN,
                     .p_below = NAN, .p_beyond = NAN, .verdict = TOST_INCONCLUSIVE};
    if (!n || !(margin > 0 && margin < 0.5) || !(alpha > 0 && alpha < 0.5)) return -1;
    double lo = 0.5 - margin, hi = 0.5 + margin;
    t->p_low = stats_binomial_sf(wins, n, lo);
    t->p_high = stats_binomial_cdf(wins, n, hi);
    t->p = fmax(t->p_low, t->p_high);
    t->p_above = stats_binomial_sf(wins, n, hi);
    t->p_below = stats_binomial_cdf(wins, n, lo);
    t->p_beyond = fmin(1, 2 * fmin(t->p_above, t->p_below));
    t->ci = stats_clopper_pearson(wins, n, 2 * alpha);
    t->verdict = stats_tost_verdict(t->p, t->p_beyond, alpha);
    return 0;
}

double stats_normal_upper(double q)
{
    double a = -40, b = 40; /* P(Z > z) = erfc(z / sqrt 2) / 2 falls with z */
    for (int i = 0; i < 200 && b - a > 1e-12; i++) {
        double m = (a + b) / 2;
        if (0.5 * erfc(m / sqrt(2.0)) > q) a = m;
        else b = m;
    }
    return (a + b) / 2;
}

double stats_power_z(double delta, double se, double alpha)
{
    double z = stats_normal_upper(alpha / 2), d = delta / se;
    return 0.5 * erfc((z - d) / sqrt(2.0)) + 0.5 * erfc((z + d) / sqrt(2.0));
}

int stats_pool(const double *est, const double *se, int k, StatsPooled *out)
{
    *out = (StatsPooled){.k = k, .df = k - 1, .mean = NAN, .se = NAN, .q = NAN, .p = NAN, .i2 = NAN};
    if (k < 2) return -1;
    double sw = 0, swx = 0;
    for (int i = 0; i < k; i++) {
        if (!(se[i] > 0)) return -1;
        double w = 1 / (se[i] * se[i]);
        sw += w;
        swx += w * est[i];
    }
    out->mean = swx / sw;
    out->se = 1 / sqrt(sw);
    out->ci = (Interval){out->mean - STATS_Z95 * out->se, out->mean, out->mean + STATS_Z95 * out->se};
    double q = 0;
    for (int i = 0; i < k; i++) q += (est[i] - out->mean) * (est[i] - out->mean) / (se[i] * se[i]);
    out->q = q;
    out->p = stats_chi2_upper(q, k - 1);
    out->i2 = q > 0 ? fmax(0, (q - (k - 1)) / q) : 0;
    return 0;
}

Interval stats_clopper_pearson(uint64_t k, uint64_t n, double alpha)
{
    if (n == 0) return (Interval){0, 0, 1};
    if (k > n) k = n;
    Interval r = {0, (double)k / (double)n, 1};
    /* P(X >= k) rises with p, P(X <= k) falls: 100 halvings of [0, 1] */
    if (k > 0) {
        double a = 0, b = 1;
        for (int i = 0; i < 100; i++) {
            double m = (a + b) / 2;
            if (1 - binomial_cdf(k - 1, n, m) < alpha / 2) a = m;
            else b = m;
        }
        r.lo = (a + b) / 2;
    }
    if (k < n) {
        double a = 0, b = 1;
        for (int i = 0; i < 100; i++) {
            double m = (a + b) / 2;
            if (binomial_cdf(k, n, m) > alpha / 2) a = m;
            else b = m;
        }
        r.hi = (a + b) / 2;
    }
    return r;
}

double stats_score_of_elo(double elo) { return 1 / (1 + pow(10, -elo / 400)); }

/* The Elo interval of a mean score m whose sampling variance is var/n; the
 * score interval's ends, clamped into (0, 1), map to Elo. */
static Interval elo_interval(double n, double m, double var)
{
    if (n == 0) return (Interval){-INFINITY, 0, INFINITY};
    double half = STATS_Z95 * sqrt(var / n);
    return (Interval){stats_elo(m - half), stats_elo(m), stats_elo(m + half)};
}

Interval stats_elo_trinomial(uint64_t wins, uint64_t draws, uint64_t losses)
{
    uint64_t c[3] = {losses, draws, wins};
    double n, m, v;
    moments(c, 3, &n, &m, &v);
    return elo_interval(n, m, v);
}

Interval stats_elo_pentanomial(const uint64_t n5[5])
{
    double n, m, v;
    moments(n5, 5, &n, &m, &v);
    return elo_interval(n, m, v);
}

double stats_los(uint64_t wins, uint64_t losses)
{
    if (wins + losses == 0) return 0.5;
    return 0.5 * (1 + erf(((double)wins - (double)losses) / sqrt(2.0 * (double)(wins + losses))));
}

Interval stats_diff(double p1, double var1, double n1, double p2, double var2, double n2, double *p_value)
{
    double d = p1 - p2;
    double se = sqrt((n1 > 0 ? var1 / n1 : 0) + (n2 > 0 ? var2 / n2 : 0));
    if (p_value) *p_value = se > 0 ? erfc(fabs(d / se) / sqrt(2)) : (d == 0 ? 1 : 0);
    return (Interval){d - STATS_Z95 * se, d, d + STATS_Z95 * se};
}

/* ---- Bradley-Terry ------------------------------------------------------- */

/* The fit works in natural units, t = r ln(10) / 400, where
 * P(i beats j) = 1 / (1 + e^(t_j - t_i)). */
#define BT_UNIT (400.0 / M_LN10)

void stats_bt_reach(int n, const double *score, bool reach[][STATS_BT_MAX])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) reach[i][j] = i == j || score[i * n + j] > 0;
    for (int k = 0; k < n; k++) /* Warshall's closure */
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) reach[i][j] = reach[i][j] || (reach[i][k] && reach[k][j]);
}

/* Whether the ratings are finite: who can reach whom along "scored a point
 * against" (i -> j when score[i][j] > 0). Every player must reach every
 * other; when player i does not, the players it cannot reach scored every
 * point against those it can. Returns -1 with that group in err. */
static int bt_check(int n, const double *games, const double *score, const char *const *names, char *err)
{
    bool reach[STATS_BT_MAX][STATS_BT_MAX];
    stats_bt_reach(n, score, reach);
    for (int i = 0; i < n; i++) {
        int j;
        for (j = 0; j < n && reach[i][j]; j++) {}
        if (j == n) continue;
        /* T = reach[i]: nobody in T scored against anybody outside it */
        double between = 0;
        char out[ERR_LEN / 2] = "";
        for (int a = 0; a < n; a++) {
            if (reach[i][a]) continue;
            size_t len = strlen(out);
            snprintf(out + len, sizeof out - len, "%s%s", len ? ", " : "", names ? names[a] : "?");
            for (int b = 0; b < n; b++)
                if (reach[i][b]) between += games[a * n + b];
        }
        if (between > 0)
            return error_set(err,
                             "no finite ratings: %s won every game against the others (%.0f game%s), so the fit "
                             "would rate them infinitely far above; play more games or against stronger opponents",
                             out, between, number_plural((uint64_t)between));
        return error_set(err,
                         "no ratings: %s played no game against the others, so nothing ties their ratings together",
                         out);
    }
    return 0;
}

/* Solves a x = b for the m x m symmetric positive definite a (row
 * length STATS_BT_MAX) by Gauss-Jordan elimination with partial pivoting,
 * and leaves a's inverse in inv. False when a is singular. */
static bool bt_solve(int m, double a[][STATS_BT_MAX], const double *b, double *x, double inv[][STATS_BT_MAX])
{
    double aug[STATS_BT_MAX][2 * STATS_BT_MAX + 1];
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < m; j++) {
            aug[i][j] = a[i][j];
            aug[i][m + j] = i == j;
        }
        aug[i][2 * m] = b[i];
    }
    for (int c = 0; c < m; c++) {
        int p = c;
        for (int r = c + 1; r < m; r++)
            if (fabs(aug[r][c]) > fabs(aug[p][c])) p = r;
        if (!(fabs(aug[p][c]) > 1e-300)) return false;
        if (p != c)
            for (int k = 0; k <= 2 * m; k++) {
                double t = aug[p][k];
                aug[p][k] = aug[c][k];
                aug[c][k] = t;
            }
        double d = aug[c][c];
        for (int k = 0; k <= 2 * m; k++) aug[c][k] /= d;
        for (int r = 0; r < m; r++) {
            if (r == c || aug[r][c] == 0) continue;
            double f = aug[r][c];
            for (int k = 0; k <= 2 * m; k++) aug[r][k] -= f * aug[c][k];
        }
    }
    for (int i = 0; i < m; i++) {
        x[i] = aug[i][2 * m];
        for (int j = 0; j < m; j++) inv[i][j] = aug[i][m + j];
    }
    return true;
}

static double bt_loglik(int n, const double *score, const double *t)
{
    double ll = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = score[i * n + j];
            /* log P(i beats j) = -log(1 + e^(t_j - t_i)), summed with weight s */
            if (s > 0) ll -= s * log1p(exp(t[j] - t[i]));
        }
    return ll;
}

int stats_bt_fit(int n, const double *games, const double *score, int anchor, const char *const *names, double *elo,
                 double *se, char *err)
{
    if (n < 2 || n > STATS_BT_MAX || anchor < 0 || anchor >= n) {
        return error_set(err, "a rating fit takes 2 to %d players and an anchor among them", STATS_BT_MAX);
    }
    if (bt_check(n, games, score, names, err)) return -1;

    /* The free players: every one but the anchor, in order. */
    int free_[STATS_BT_MAX], m = 0;
    for (int i = 0; i < n; i++)
        if (i != anchor) free_[m++] = i;
    double t[STATS_BT_MAX] = {0}, grad[STATS_BT_MAX], step[STATS_BT_MAX];
    double info[STATS_BT_MAX][STATS_BT_MAX], inv[STATS_BT_MAX][STATS_BT_MAX];
    double ll = bt_loglik(n, score, t);
    for (int iter = 0;; iter++) {
        /* gradient (points scored minus points expected) and information */
        for (int a = 0; a < m; a++) {
            int i = free_[a];
            grad[a] = 0;
            for (int b = 0; b < m; b++) info[a][b] = 0;
            for (int j = 0; j < n; j++) {
                if (j == i) continue;
                double g = games[i * n + j], p = 1 / (1 + exp(t[j] - t[i]));
                grad[a] += score[i * n + j] - g * p;
                info[a][a] += g * p * (1 - p);
            }
            for (int b = 0; b < m; b++) {
                int j = free_[b];
                if (j == i) continue;
                double g = games[i * n + j], p = 1 / (1 + exp(t[j] - t[i]));
                info[a][b] -= g * p * (1 - p);
            }
        }
        if (!bt_solve(m, info, grad, step, inv)) {
            return error_set(err, "the rating fit's information matrix is singular: too few games");
        }
        double biggest = 0;
        for (int a = 0; a < m; a++) biggest = fmax(biggest, fabs(step[a]));
        if (biggest < 1e-12 || iter == 200) {
            if (iter == 200 && biggest > 1e-6) {
                return error_set(err, "the rating fit did not converge in 200 Newton steps");
            }
            break;
        }
        /* a Newton step, halved until the likelihood does not fall */
        double tried[STATS_BT_MAX], f = 1, lt;
        for (int h = 0;; h++, f /= 2) {
            memcpy(tried, t, sizeof tried);
            for (int a = 0; a < m; a++) tried[free_[a]] += f * step[a];
            lt = bt_loglik(n, score, tried);
            if (lt >= ll - 1e-12 * fabs(ll) || h == 50) break;
        }
        memcpy(t, tried, sizeof t);
        ll = lt;
    }
    for (int i = 0; i < n; i++) {
        elo[i] = t[i] * BT_UNIT + 0.0;
        se[i] = 0;
    }
    for (int a = 0; a < m; a++) se[free_[a]] = sqrt(inv[a][a]) * BT_UNIT;
    return 0;
}

void stats_holm(const double *p, int n, double *adjusted)
{
    assert(n >= 0 && n <= STATS_HOLM_MAX);
    /* the places in ascending order of p (insertion sort: stable, so ties
       keep the order they came in, which the running maximum evens out) */
    double v[STATS_HOLM_MAX];
    int at[STATS_HOLM_MAX];
    for (int i = 0; i < n; i++) {
        v[i] = p[i];
        int k = i;
        for (; k > 0 && p[at[k - 1]] > p[i]; k--) at[k] = at[k - 1];
        at[k] = i;
    }
    double running = 0;
    for (int k = 0; k < n; k++) {
        double s = (double)(n - k) * v[at[k]];
        if (s > running) running = s;
        adjusted[at[k]] = running < 1 ? running : 1;
    }
}

/* ---- chi-squared and the trend of a score ---------------------------- */

/* P(a, x), the regularized lower incomplete gamma, by its series: for x
 * below a + 1, where it converges fast. */
static double gamma_p_series(double a, double x)
{
    double term = 1 / a, sum = term;
    for (int n = 1; n < 10000; n++) {
        term *= x / (a + n);
        sum += term;
        if (fabs(term) < fabs(sum) * 1e-16) break;
    }
    return sum * exp(-x + a * log(x) - lgamma(a));
}

/* Q(a, x) = 1 - P(a, x) by its continued fraction (modified Lentz): for
 * x above a + 1. */
static double gamma_q_fraction(double a, double x)
{
    const double tiny = 1e-300;
    double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
    for (int i = 1; i < 10000; i++) {
        double an = -i * (i - a);
        b += 2;
        d = an * d + b;
        if (fabs(d) < tiny) d = tiny;
        c = b + an / c;
        if (fabs(c) < tiny) c = tiny;
        d = 1 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1) < 1e-16) break;
    }
    return exp(-x + a * log(x) - lgamma(a)) * h;
}

double stats_chi2_upper(double x, int df)
{
    if (df < 1) return NAN;
    if (!(x > 0)) return 1;
    double a = df / 2.0, h = x / 2;
    return h < a + 1 ? 1 - gamma_p_series(a, h) : gamma_q_fraction(a, h);
}

int stats_score_trend(const uint64_t (*a)[3], const double *x, int k, StatsTrend *t)
{
    *t = (StatsTrend){.k = k, .chi2 = NAN, .p = NAN, .slope = NAN, .se = NAN, .p_slope = NAN, .chi2_dev = NAN,
                      .p_dev = NAN};
    if (k < 2) return -1;
    double n = 0, pts = 0, sq = 0, xs = 0;
    for (int i = 0; i < k; i++) {
        double ni = (double)(a[i][0] + a[i][1] + a[i][2]);
        if (ni == 0) return -1;
        n += ni;
        pts += a[i][1] * 0.5 + a[i][2];
        sq += a[i][1] * 0.25 + a[i][2];
        xs += ni * x[i];
    }
    t->n = (uint64_t)n;
    t->mean = pts / n;
    t->var = sq / n - t->mean * t->mean;
    if (!(t->var > 0)) return -1;
    double xm = xs / n, sxx = 0, sxy = 0, chi2 = 0;
    for (int i = 0; i < k; i++) {
        double ni = (double)(a[i][0] + a[i][1] + a[i][2]), si = (a[i][1] * 0.5 + a[i][2]) / ni;
        chi2 += ni * (si - t->mean) * (si - t->mean) / t->var;
        sxx += ni * (x[i] - xm) * (x[i] - xm);
        sxy += ni * (x[i] - xm) * (si - t->mean);
    }
    t->chi2 = chi2;
    t->p = stats_chi2_upper(chi2, k - 1);
    if (!(sxx > 0)) return -1;
    t->slope = sxy / sxx;
    t->se = sqrt(t->var / sxx);
    t->slope_ci = (Interval){t->slope - STATS_Z95 * t->se, t->slope, t->slope + STATS_Z95 * t->se};
    double z = t->slope / t->se;
    t->p_slope = erfc(fabs(z) / sqrt(2.0));
    if (k >= 3) {
        t->chi2_dev = fmax(0, chi2 - z * z);
        t->p_dev = stats_chi2_upper(t->chi2_dev, k - 2);
    }
    return 0;
}
