/* The statistics against values worked out by hand (the arithmetic is in
 * the comments, so a reader can redo it with a calculator). */
#include <criterion/criterion.h>
#include <math.h>
#include "stats.h"

#define NEAR(x, want, tol) cr_expect(fabs((x) - (want)) < (tol), "%s = %.6f, want %.6f", #x, (double)(x), (double)(want))

Test(stats, elo_of_score)
{
    /* 0.75 -> -400 log10(1/0.75 - 1) = -400 log10(1/3) = 190.848 */
    NEAR(stats_elo(0.75), 190.848, 1e-3);
    NEAR(stats_elo(0.5), 0, 1e-9);
    /* 0.64 -> -400 log10(0.5625) = 99.95 */
    NEAR(stats_elo(0.64), 99.95, 1e-2);
    NEAR(stats_elo(0.25), -190.848, 1e-3);
    cr_expect(isinf(stats_elo(1)) && stats_elo(1) > 0);
    NEAR(stats_score_of_elo(190.848), 0.75, 1e-6);
    NEAR(stats_score_of_elo(0), 0.5, 1e-12);
}

Test(stats, wilson)
{
    /* p = 0.5, n = 100, z = 1.96: centre 0.5, half = 1.96 sqrt(0.0025 + 0.000096)/1.038416
     * = 1.96 * 0.050951 / 1.038416 = 0.096170 -> [0.403830, 0.596170] */
    Interval w = stats_wilson(0.5, 100, 1.96);
    NEAR(w.lo, 0.403830, 1e-5);
    NEAR(w.hi, 0.596170, 1e-5);
    /* p = 0, n = 10: lo = 0, hi = z^2/n / (1 + z^2/n) = 0.38416/1.38416 = 0.277538 */
    w = stats_wilson(0, 10, 1.96);
    NEAR(w.lo, 0, 1e-12);
    NEAR(w.hi, 0.277538, 1e-5);
    /* 60 wins, 20 draws, 20 losses: score (60 + 10)/100 = 0.7 */
    w = stats_score(60, 20, 20);
    NEAR(w.mid, 0.7, 1e-12);
    cr_expect(w.lo < 0.7 && w.hi > 0.7);
}

Test(stats, p_value_and_los)
{
    /* 60 W, 0 D, 40 L: mean 0.6, variance 0.24, se sqrt(0.0024) = 0.048990,
     * z = 2.041241, two-sided p = erfc(2.041241/sqrt 2) = 0.041227 */
    NEAR(stats_p_equal(60, 0, 40), 0.041227, 1e-5);
    NEAR(stats_p_equal(50, 10, 50), 1.0, 1e-12);
    /* LOS = (1 + erf((60-40)/sqrt(200)))/2 = (1 + erf(1.414214))/2 = 0.977250 */
    NEAR(stats_los(60, 40), 0.977250, 1e-5);
    NEAR(stats_los(10, 10), 0.5, 1e-12);
}

Test(stats, elo_interval_trinomial)
{
    /* 60 W, 0 D, 40 L: score 0.6 -> 70.437 Elo; half-width 1.959964 * 0.048990 = 0.096018:
     * scores [0.503982, 0.696018] -> Elo [2.767, 143.909] */
    Interval e = stats_elo_trinomial(60, 0, 40);
    NEAR(e.mid, 70.437, 1e-2);
    NEAR(e.lo, 2.767, 1e-2);
    NEAR(e.hi, 143.909, 1e-2);
}

Test(stats, pentanomial)
{
    /* pairs scoring 0, 1/2, 1, 3/2, 2 points: 10, 20, 40, 20, 10 -> symmetric, Elo 0 */
    uint64_t n[5] = {10, 20, 40, 20, 10};
    Interval e = stats_elo_pentanomial(n);
    NEAR(e.mid, 0, 1e-9);
    /* per-pair score values 0, .25, .5, .75, 1: variance = (2*10*.25 + 2*20*.0625)/100
     * = 7.5/100 = 0.075; half = 1.959964 sqrt(0.075/100) = 0.053676:
     * Elo of 0.553676 = -400 log10(0.806111) = 37.44 */
    NEAR(e.hi, 37.44, 1e-2);
    NEAR(e.lo, -37.44, 1e-2);
}

Test(stats, sprt_llr)
{
    /* elo0 = 0, elo1 = 10: s0 = 0.5, s1 = 1/(1 + 10^(-0.025)) = 0.514388.
     * 550 W, 300 D, 450 L (N = 1300): m = (550 + 150)/1300 = 0.538462,
     * E[x^2] = (550 + 75)/1300 = 0.480769, v = 0.480769 - 0.289941 = 0.190828.
     * LLR = 1300 * 0.014388 * (1.076923 - 1.014388) / (2 * 0.190828) = 3.0650 */
    uint64_t c[3] = {450, 300, 550};
    Sprt s = stats_sprt(c, 3, 0, 10, 0.05, 0.05);
    NEAR(s.llr, 3.0650, 2e-3);
    /* bounds ln(0.05/0.95) = -2.944439 and +2.944439 */
    NEAR(s.lower, -2.944439, 1e-6);
    NEAR(s.upper, 2.944439, 1e-6);
    cr_expect_eq(s.decision, 1);
    uint64_t even[3] = {500, 300, 500};
    s = stats_sprt(even, 3, 0, 10, 0.05, 0.05);
    /* m = 0.5: LLR = 1300 * 0.014388 * (1 - 1.014388)/(2 * 0.192308) = -0.6997 */
    NEAR(s.llr, -0.6997, 2e-3);
    cr_expect_eq(s.decision, 0);
}

Test(stats, difference_of_scores)
{
    double p;
    /* 0.6 (var .24, n 100) - 0.5 (var .25, n 100): se = sqrt(.0049) = .07,
     * z = 1.428571, p = erfc(1.428571/sqrt 2) = 0.153127 */
    Interval d = stats_diff(0.6, 0.24, 100, 0.5, 0.25, 100, &p);
    NEAR(d.mid, 0.1, 1e-12);
    NEAR(d.lo, 0.1 - 1.959964 * 0.07, 1e-6);
    NEAR(p, 0.153127, 1e-5);
}
