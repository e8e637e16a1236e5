#include <math.h>
#include "stats.h"

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

double stats_elo(double score)
{
    if (score <= 0) return -INFINITY;
    if (score >= 1) return INFINITY;
    return -400 * log10(1 / score - 1);
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

Sprt stats_sprt(const uint64_t *counts, int kinds, double elo0, double elo1, double alpha, double beta)
{
    double n, m, v;
    moments(counts, kinds, &n, &m, &v);
    double s0 = stats_score_of_elo(elo0), s1 = stats_score_of_elo(elo1);
    Sprt r = {0, log(beta / (1 - alpha)), log((1 - beta) / alpha), 0};
    if (n > 0 && v > 0) r.llr = n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v);
    r.decision = r.llr >= r.upper ? 1 : r.llr <= r.lower ? -1 : 0;
    return r;
}
