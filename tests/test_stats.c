/* The statistics against values worked out by hand (the arithmetic is in
 * the comments, so a reader can redo it with a calculator). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include "selfplay/stats/stats.h"
#include "engine/types.h"

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

/* ---- exact tests, for the small samples and the edges (#22) ------------ */

Test(stats, clopper_pearson)
{
    /* 0 of n: hi solves (1 - p)^n = 0.025, 1 - 0.025^(1/n); 10 of 10 mirrors it */
    Interval r = stats_clopper_pearson(0, 10, 0.05);
    NEAR(r.lo, 0, 1e-12);
    NEAR(r.mid, 0, 1e-12);
    NEAR(r.hi, 1 - pow(0.025, 0.1), 1e-9); /* 0.308497 */
    r = stats_clopper_pearson(10, 10, 0.05);
    NEAR(r.lo, pow(0.025, 0.1), 1e-9);
    NEAR(r.hi, 1, 1e-12);
    NEAR(stats_clopper_pearson(0, 40, 0.05).hi, 1 - pow(0.025, 1.0 / 40), 1e-9); /* 0.088097 */
    /* 1 of 10: lo solves 1 - (1 - p)^10 = 0.025, 1 - 0.975^(1/10) = 0.0025286;
     * hi solves (1 - p)^10 + 10 p (1 - p)^9 = 0.025, 0.445016 (tables) */
    r = stats_clopper_pearson(1, 10, 0.05);
    NEAR(r.lo, 1 - pow(0.975, 0.1), 1e-9);
    NEAR(r.mid, 0.1, 1e-12);
    NEAR(r.hi, 0.445016, 1e-6);
    /* 5 of 10, symmetric: 0.187086 to 0.812914 */
    r = stats_clopper_pearson(5, 10, 0.05);
    NEAR(r.lo, 0.187086, 1e-6);
    NEAR(r.lo + r.hi, 1, 1e-9);
    r = stats_clopper_pearson(0, 0, 0.05);
    cr_expect(r.lo == 0 && r.hi == 1);
}

Test(stats, exact_binomial)
{
    /* 3 of 3: P(X <= 0) = 1/8, twice that = 0.25 (the normal test said 0) */
    NEAR(stats_binomial_p(3, 3), 0.25, 1e-12);
    NEAR(stats_binomial_p(0, 3), 0.25, 1e-12);
    NEAR(stats_p_equal(3, 0, 0), 0, 1e-12);
    /* one game, none, the middle: nothing against a fair coin */
    NEAR(stats_binomial_p(1, 1), 1, 1e-12);
    NEAR(stats_binomial_p(0, 0), 1, 1e-12);
    NEAR(stats_binomial_p(5, 10), 1, 1e-12);
    NEAR(stats_binomial_p(3, 7), 1, 1e-12); /* P(X <= 3) = 1/2 exactly */
    /* 6 of 6: 2 / 64 */
    NEAR(stats_binomial_p(6, 6), 0.03125, 1e-12);
    /* 9 of 10: P(X <= 1) = (1 + 10) / 1024, twice that 22/1024 */
    NEAR(stats_binomial_p(9, 10), 22.0 / 1024, 1e-12);
    NEAR(stats_binomial_p(1, 10), 22.0 / 1024, 1e-12);
    /* 4 of 10: P(X <= 4) = (1 + 10 + 45 + 120 + 210) / 1024 = 386/1024 */
    NEAR(stats_binomial_p(4, 10), 772.0 / 1024, 1e-12);
    /* 15 of 20: P(X <= 5) = (1 + 20 + 190 + 1140 + 4845 + 15504) / 2^20 = 21700 / 2^20 */
    NEAR(stats_binomial_p(15, 20), 43400.0 / 1048576, 1e-12);
    /* 5100 of 10000: 2 sum_{j <= 4900} C(10000, j) / 2^10000, summed in
     * integers (Python's math.comb) = 0.0465855277; the normal
     * approximation with continuity correction gives 0.0466 */
    NEAR(stats_binomial_p(5100, 10000), 0.0465855277, 1e-8);
    /* far in the tail: no underflow trouble, no endless loop */
    cr_expect(stats_binomial_p(10, 100000000) < 1e-300);
    /* the sign test: draws do not count */
    NEAR(stats_p_sign(9, 1), 22.0 / 1024, 1e-12);
    NEAR(stats_p_sign(0, 0), 1, 1e-12);
}

Test(stats, newcombe_difference)
{
    /* Newcombe (1998), Statistics in Medicine 17, 873-890, example (a):
     * 56/70 - 48/80 = 0.2, method 10 (hybrid score) 0.0524 to 0.3339 */
    Interval a = stats_wilson(56.0 / 70, 70, STATS_Z95), b = stats_wilson(48.0 / 80, 80, STATS_Z95);
    Interval d = stats_diff_newcombe(a, b);
    NEAR(d.mid, 0.2, 1e-12);
    NEAR(d.lo, 0.0524, 1e-4);
    NEAR(d.hi, 0.3339, 1e-4);
    /* 3 of 3 against 0 of 3: the normal interval has no width; this one
     * is d -+ sqrt((1 - lo)^2 + (hi - 0)^2) with Wilson's ends
     * 0.438503 and 0.561497: 1 - sqrt(0.315279 + 0.315279) = 0.205923 */
    Interval w = stats_score(3, 0, 0), l = stats_score(0, 0, 3);
    d = stats_diff_newcombe(w, l);
    NEAR(d.lo, 0.205923, 1e-5);
    NEAR(d.hi, 1, 1e-12);
    double p;
    Interval n = stats_diff(1, 0, 3, 0, 0, 3, &p);
    cr_expect(n.lo == n.hi && p == 0, "the normal approximation's zero-width answer");
}

Test(stats, scores_differ_exactly)
{
    bool exact;
    /* counts are (losses, draws, wins). 3 wins of 3 against 3 losses of 3:
     * A takes 3 of the 6 pooled games, C(6,3) = 20 splits alike; as far
     * from the middle as observed: all wins (1/20) or all losses (1/20) */
    NEAR(stats_p_scores_differ((uint64_t[]){0, 0, 3}, (uint64_t[]){3, 0, 0}, &exact), 0.1, 1e-12);
    cr_expect(exact);
    /* A = {win, draw}, B = {loss}: A takes 2 of {0, 1/2, 1}, 3 splits
     * alike with 1/2, 1 or 3/2 points, expected 1: observed 3/2, and 1/2
     * is as far: p = 2/3 */
    NEAR(stats_p_scores_differ((uint64_t[]){0, 1, 1}, (uint64_t[]){1, 0, 0}, NULL), 2.0 / 3, 1e-12);
    /* 2 L 3 D 5 W against 6 L 2 D 2 W: 5911/46189, summed in exact
     * fractions over every split (Python) */
    NEAR(stats_p_scores_differ((uint64_t[]){2, 3, 5}, (uint64_t[]){6, 2, 2}, NULL), 5911.0 / 46189, 1e-12);
    /* the same result everywhere, or an empty sample: nothing differs */
    NEAR(stats_p_scores_differ((uint64_t[]){0, 0, 5}, (uint64_t[]){0, 0, 7}, NULL), 1, 1e-12);
    NEAR(stats_p_scores_differ((uint64_t[]){0, 0, 0}, (uint64_t[]){1, 2, 3}, NULL), 1, 1e-12);
    /* 320 games a side: exact (44,000 splits), 0.0630750634 in exact
     * fractions; the normal approximation of the same split gives 0.0567 */
    NEAR(stats_p_scores_differ((uint64_t[]){100, 100, 120}, (uint64_t[]){120, 100, 100}, &exact), 0.0630750634,
         1e-9);
    cr_expect(exact);
    /* 1600 a side, about a million splits: exact, 2.188177346e-05 (the
     * same sum in Python's lgamma); the normal approximation below gives
     * 2.0139e-5 */
    NEAR(stats_p_scores_differ((uint64_t[]){500, 500, 600}, (uint64_t[]){600, 500, 500}, &exact), 2.188177346e-05,
         1e-12);
    cr_expect(exact);
    /* the top study's declared comparisons, whose p the report printed as
     * normal approximations (0.918, 0.032): d7 - d5 in standard (1060 L 75
     * D 1265 W against 1068 L 66 D 1266 W), 0.9297071327, and puct - d7
     * (1120 L 101 D 1179 W against d7), 0.03271004917, as the issue's
     * statistician found them */
    NEAR(stats_p_scores_differ((uint64_t[]){1060, 75, 1265}, (uint64_t[]){1068, 66, 1266}, &exact), 0.9297071327,
         1e-9);
    cr_expect(exact);
    NEAR(stats_p_scores_differ((uint64_t[]){1120, 101, 1179}, (uint64_t[]){1060, 75, 1265}, &exact),
         0.03271004917, 1e-10);
    cr_expect(exact);
    /* 25,000 a side with 10,000 draws each: more splits than
     * STATS_EXACT_SPLITS, the normal approximation. Pooled 15000 L 20000 D
     * 15000 W, mean 1 half point, variance per game 30000/50000 = 0.6; the
     * split's variance 25000^2 / (50000 * 49999) * 30000 = 7500.15; A has
     * 25300 half points, 300 above 25000: z = 300 / sqrt(7500.15) =
     * 3.46401, p = erfc(z / sqrt 2) = 5.3208e-4 */
    NEAR(stats_p_scores_differ((uint64_t[]){7350, 10000, 7650}, (uint64_t[]){7650, 10000, 7350}, &exact), 5.3208e-4,
         1e-7);
    cr_expect(!exact);
}

/* ---- the joint rating fit (Bradley-Terry, draws as half points) --------- */

static const char *const NAMES[] = {"A", "B", "C", "D"};

Test(stats, bt_two_players)
{
    /* A 3 - 1 B: P = 3/4 at the maximum, r_A - r_B = 400 log10(3) = 190.849.
     * Information N p (1-p) = 4 * 3/16 = 0.75 in natural units: se =
     * sqrt(1/0.75) * 400/ln 10 = 1.154701 * 173.717793 = 200.592 */
    double games[4] = {0, 4, 4, 0}, score[4] = {0, 3, 1, 0}, elo[2], se[2];
    char err[ERR_LEN];
    cr_assert_eq(stats_bt_fit(2, games, score, 1, NAMES, elo, se, err), 0, "%s", err);
    NEAR(elo[0], 190.849, 1e-3);
    NEAR(elo[1], 0, 1e-12);
    NEAR(se[0], 200.592, 1e-3);
    NEAR(se[1], 0, 1e-12);
    /* anchored at A instead: the same difference, B below */
    cr_assert_eq(stats_bt_fit(2, games, score, 0, NAMES, elo, se, err), 0, "%s", err);
    NEAR(elo[1], -190.849, 1e-3);
    NEAR(elo[0], 0, 1e-12);
    NEAR(se[1], 200.592, 1e-3);
    /* 2 wins, 2 draws, no loss scores 3 of 4 too: the same fit */
    double drawn[4] = {0, 3, 1, 0};
    cr_assert_eq(stats_bt_fit(2, games, drawn, 1, NAMES, elo, se, err), 0, "%s", err);
    NEAR(elo[0], 190.849, 1e-3);
}

Test(stats, bt_three_players_by_hand)
{
    /* A 6-4 B, B 7-3 C, A 5-5 C, ten games each. A and B both score 11 of
     * 20 and C 8; r_A = r_B solves it if A's 11 = 5 (against B at evens)
     * + 10 P(A beats C): P = 0.6, r_A - r_C = 400 log10(1.5) = 70.437;
     * B: 5 + 10 * 0.6 = 11 and C: 4 + 4 = 8 check. */
    double games[9] = {0, 10, 10, 10, 0, 10, 10, 10, 0};
    double score[9] = {0, 6, 5, 4, 0, 7, 5, 3, 0};
    double elo[3], se[3];
    char err[ERR_LEN];
    cr_assert_eq(stats_bt_fit(3, games, score, 0, NAMES, elo, se, err), 0, "%s", err);
    NEAR(elo[1], 0, 1e-6);
    NEAR(elo[2], -70.437, 1e-3);
    /* the information with A's row and column removed (10 p(1-p) = 2.5
     * between A and B, 2.4 against C): [[4.9, -2.4], [-2.4, 4.8]], det
     * 17.76, so var_B = 4.8/17.76, var_C = 4.9/17.76 (natural units):
     * se_B = 90.312, se_C = 91.247 Elo */
    NEAR(se[1], sqrt(4.8 / 17.76) * 400 / M_LN10, 1e-6);
    NEAR(se[2], sqrt(4.9 / 17.76) * 400 / M_LN10, 1e-6);
}

/* Zermelo's iteration (Hunter's MM form) for the same model, a different
 * algorithm from the fit's Newton steps: gamma_i = W_i / sum_j N_ij /
 * (gamma_i + gamma_j), rescaled so that gamma_anchor = 1. */
static void zermelo(int n, const double *games, const double *score, int anchor, double *elo)
{
    double g[4] = {1, 1, 1, 1};
    for (int it = 0; it < 200000; it++) {
        double next[4];
        for (int i = 0; i < n; i++) {
            double w = 0, d = 0;
            for (int j = 0; j < n; j++) {
                if (j == i) continue;
                w += score[i * n + j];
                d += games[i * n + j] / (g[i] + g[j]);
            }
            next[i] = w / d;
        }
        for (int i = 0; i < n; i++) g[i] = next[i] / next[anchor];
    }
    for (int i = 0; i < n; i++) elo[i] = 400 * log10(g[i]);
}

Test(stats, bt_four_players_fixed_point)
{
    /* uneven schedule with draws: A-B 8 games (A 5.5), A-C 6 (A 4), B-C 10
     * (B 4.5), B-D 4 (B 3), C-D 6 (C 2.5), A and D never met */
    double games[16] = {0, 8, 6, 0, 8, 0, 10, 4, 6, 10, 0, 6, 0, 4, 6, 0};
    double score[16] = {0, 5.5, 4, 0, 2.5, 0, 4.5, 3, 2, 5.5, 0, 2.5, 0, 1, 3.5, 0};
    double elo[4], se[4], want[4];
    char err[ERR_LEN];
    for (int anchor = 0; anchor < 4; anchor++) {
        cr_assert_eq(stats_bt_fit(4, games, score, anchor, NAMES, elo, se, err), 0, "%s", err);
        zermelo(4, games, score, anchor, want);
        for (int i = 0; i < 4; i++) NEAR(elo[i], want[i], 1e-4);
        cr_expect_eq(se[anchor], 0);
        for (int i = 0; i < 4; i++)
            if (i != anchor) cr_expect(se[i] > 10 && se[i] < 1000, "se[%d] = %g", i, se[i]);
        /* at the maximum each player's points are the points expected */
        for (int i = 0; i < 4; i++) {
            double got = 0, expect = 0;
            for (int j = 0; j < 4; j++) {
                got += score[i * 4 + j];
                expect += games[i * 4 + j] * stats_score_of_elo(elo[i] - elo[j]);
            }
            NEAR(expect, got, 1e-8);
        }
    }
}

Test(stats, bt_refuses_unbounded)
{
    double elo[3], se[3];
    char err[ERR_LEN] = "";
    /* A 4-0 B: A's rating would be infinite */
    double g2[4] = {0, 4, 4, 0}, s2[4] = {0, 4, 0, 0};
    cr_expect_eq(stats_bt_fit(2, g2, s2, 1, NAMES, elo, se, err), -1);
    cr_expect(strstr(err, "A won every game"), "%s", err);
    /* A won all its games against B and C, who split theirs */
    double g3[9] = {0, 2, 2, 2, 0, 4, 2, 4, 0}, s3[9] = {0, 2, 2, 0, 0, 2, 0, 2, 0};
    cr_expect_eq(stats_bt_fit(3, g3, s3, 1, NAMES, elo, se, err), -1);
    cr_expect(strstr(err, "A won every game") && !strstr(err, "B,"), "%s", err);
    /* C played nobody */
    double g4[9] = {0, 4, 0, 4, 0, 0, 0, 0, 0}, s4[9] = {0, 2, 0, 2, 0, 0, 0, 0, 0};
    cr_expect_eq(stats_bt_fit(3, g4, s4, 0, NAMES, elo, se, err), -1);
    cr_expect(strstr(err, "C played no game"), "%s", err);
}

Test(stats, sweep_bound)
{
    /* 5 wins of 5: the p with p^5 = 0.05 is 0.05^(1/5) = e^(ln 0.05 / 5)
     * = e^(-2.995732 / 5) = e^(-0.599146) = 0.549280; on the Elo scale
     * -400 log10(1/0.549280 - 1) = -400 log10(0.820566) = 34.35 */
    NEAR(stats_sweep_lower(5, 0.05), 0.549280, 1e-6);
    NEAR(stats_elo(stats_sweep_lower(5, 0.05)), 34.35, 1e-2);
    /* 200 of 200: e^(-2.995732 / 200) = e^(-0.0149787) = 0.985133, and
     * -400 log10(0.0150914) = 728.5 */
    NEAR(stats_sweep_lower(200, 0.05), 0.985133, 1e-6);
    NEAR(stats_elo(stats_sweep_lower(200, 0.05)), 728.5, 0.1);
    /* one trial: the bound is alpha itself; none: nothing known */
    NEAR(stats_sweep_lower(1, 0.05), 0.05, 1e-12);
    NEAR(stats_sweep_lower(0, 0.05), 0, 1e-12);
}

/* Holm's step-down on a textbook family: p = .01 .04 .03 .005, sorted
 * .005 .01 .03 .04, multiplied by 4 3 2 1: .02 .03 .06 .04; the running
 * maximum .02 .03 .06 .06; back in the given order .03 .06 .06 .02. */
Test(stats, holm_by_hand)
{
    double p[] = {0.01, 0.04, 0.03, 0.005}, a[4];
    stats_holm(p, 4, a);
    NEAR(a[0], 0.03, 1e-12);
    NEAR(a[1], 0.06, 1e-12);
    NEAR(a[2], 0.06, 1e-12);
    NEAR(a[3], 0.02, 1e-12);
    /* in place: adjusted may be the p-values themselves */
    stats_holm(p, 4, p);
    NEAR(p[0], 0.03, 1e-12);
    NEAR(p[3], 0.02, 1e-12);
    /* the balance report's case (issue 31): twelve comparisons of blitz
     * with standard, the smallest p .015: 12 x .015 = .18, no longer
     * below .05 (Holm's first threshold is .05 / 12 = .0042) */
    double q[12] = {0.015, 0.11, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.2, 0.25}, b[12];
    stats_holm(q, 12, b);
    NEAR(b[0], 0.18, 1e-12);
    /* .11 is second: max(.18, 11 x .11 = 1.21) capped at 1 */
    NEAR(b[1], 1, 1e-12);
}

/* The adjusted values keep the p-values' order, are never below them,
 * reach at most 1, give ties one value, and leave a family of one as it
 * is. */
Test(stats, holm_properties)
{
    /* ties: .02 .02 .02 .5 sorted, times 4 3 2 1: .08 .06 .04 .5, running
     * maximum .08 .08 .08 .5 */
    double t[] = {0.02, 0.5, 0.02, 0.02}, a[4];
    stats_holm(t, 4, a);
    NEAR(a[0], 0.08, 1e-12);
    NEAR(a[2], 0.08, 1e-12);
    NEAR(a[3], 0.08, 1e-12);
    NEAR(a[1], 0.5, 1e-12);
    /* the cap: .6 .9 times 2 1 is 1.2 .9, running maximum 1.2 1.2, capped 1 1 */
    double c[] = {0.6, 0.9}, b[2];
    stats_holm(c, 2, b);
    NEAR(b[0], 1, 1e-12);
    NEAR(b[1], 1, 1e-12);
    /* a family of one: p itself; none: nothing written */
    double one = 0.037, o;
    stats_holm(&one, 1, &o);
    NEAR(o, 0.037, 1e-15);
    stats_holm(NULL, 0, NULL);
    /* a family of many: monotone in p, never below p, at most 1 */
    enum { N = 200 };
    double p[N], adj[N];
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        p[i] = (double)(x >> 11) / 9007199254740992.0 * (i % 3 ? 1 : 0.001);
    }
    stats_holm(p, N, adj);
    for (int i = 0; i < N; i++) {
        cr_expect(adj[i] >= p[i] && adj[i] <= 1, "p %g adjusted %g", p[i], adj[i]);
        for (int j = 0; j < N; j++)
            if (p[i] <= p[j]) cr_expect(adj[i] <= adj[j], "p %g <= %g but %g > %g", p[i], p[j], adj[i], adj[j]);
    }
}

Test(stats, chi2_upper_tail)
{
    /* the 5% points of the tables: 3.841459 (1 df), 5.991465 (2),
     * 18.307038 (10), 124.342113 (100) */
    NEAR(stats_chi2_upper(3.841459, 1), 0.05, 1e-6);
    NEAR(stats_chi2_upper(5.991465, 2), 0.05, 1e-6);
    NEAR(stats_chi2_upper(18.307038, 10), 0.05, 1e-6);
    NEAR(stats_chi2_upper(124.342113, 100), 0.05, 1e-6);
    /* an even df has a closed form, Q = e^(-x/2) sum_{i < df/2} (x/2)^i / i!:
     * df 2, x 0.8: e^-0.4 = 0.670320 (the series side); df 4, x 10:
     * e^-5 (1 + 5) = 0.040428 (the fraction side); df 10, x 2: e^-1 (1 + 1
     * + 1/2 + 1/6 + 1/24) = 0.996340 */
    NEAR(stats_chi2_upper(0.8, 2), exp(-0.4), 1e-12);
    NEAR(stats_chi2_upper(10, 4), 6 * exp(-5), 1e-12);
    NEAR(stats_chi2_upper(2, 10), exp(-1) * (1 + 1 + 0.5 + 1 / 6.0 + 1 / 24.0), 1e-12);
    /* 1 df is a squared normal: P(X >= 4) = P(|Z| >= 2) = erfc(2 / sqrt 2) */
    NEAR(stats_chi2_upper(4, 1), erfc(2 / sqrt(2.0)), 1e-12);
    cr_expect_eq(stats_chi2_upper(0, 3), 1);
    NEAR(stats_chi2_upper(400, 10), 0, 1e-60);
    cr_expect(isnan(stats_chi2_upper(1, 0)));
}

Test(stats, trend_by_hand)
{
    /* three groups at x = 0, 1, 2 scoring 0.4, 0.5, 0.6 over 10 games each
     * (losses, draws, wins): pooled 0.5, a game's variance 0.25; chi2 =
     * 10 (0.01 + 0 + 0.01) / 0.25 = 0.8 on 2 df, p = e^-0.4; sxx = 20, sxy
     * = 10 (-1)(-0.1) + 10 (1)(0.1) = 2: slope 0.1, se sqrt(0.25 / 20) =
     * 0.111803, z^2 = 0.8 = chi2: the line leaves nothing */
    const uint64_t a[3][3] = {{6, 0, 4}, {5, 0, 5}, {4, 0, 6}};
    const double x[3] = {0, 1, 2};
    StatsTrend t;
    cr_assert_eq(stats_score_trend(a, x, 3, &t), 0);
    cr_expect_eq(t.k, 3);
    cr_expect_eq(t.n, 30);
    NEAR(t.mean, 0.5, 1e-12);
    NEAR(t.var, 0.25, 1e-12);
    NEAR(t.chi2, 0.8, 1e-12);
    NEAR(t.p, exp(-0.4), 1e-12);
    NEAR(t.slope, 0.1, 1e-12);
    NEAR(t.se, sqrt(0.25 / 20), 1e-12);
    NEAR(t.slope_ci.lo, 0.1 - STATS_Z95 * sqrt(0.25 / 20), 1e-12);
    NEAR(t.p_slope, erfc(0.1 / sqrt(0.25 / 20) / sqrt(2.0)), 1e-12);
    NEAR(t.chi2_dev, 0, 1e-12);
    NEAR(t.p_dev, 1, 1e-12);

    /* draws count in the variance: (1, 2, 1) at x = 0 and (0, 0, 4) at x =
     * 1: pooled 6 / 8 = 0.75, E[s^2] = (2 / 4 + 1 + 4) / 8 = 0.6875, var
     * 0.125; chi2 = (4 (0.0625) + 4 (0.0625)) / 0.125 = 4 on 1 df; slope
     * (4 (-0.5)(-0.25) + 4 (0.5)(0.25)) / 2 = 0.5, se sqrt(0.125 / 2) =
     * 0.25, z = 2; two groups leave no departure to test */
    const uint64_t b[2][3] = {{1, 2, 1}, {0, 0, 4}};
    cr_assert_eq(stats_score_trend(b, x, 2, &t), 0);
    NEAR(t.var, 0.125, 1e-12);
    NEAR(t.chi2, 4, 1e-12);
    NEAR(t.p, erfc(2 / sqrt(2.0)), 1e-12);
    NEAR(t.slope, 0.5, 1e-12);
    NEAR(t.se, 0.25, 1e-12);
    NEAR(t.p_slope, erfc(2 / sqrt(2.0)), 1e-12);
    cr_expect(isnan(t.chi2_dev) && isnan(t.p_dev));

    /* nothing to test: one group, a group without games, results that do
     * not vary, one x for all */
    cr_expect_eq(stats_score_trend(a, x, 1, &t), -1);
    const uint64_t empty[2][3] = {{6, 0, 4}, {0, 0, 0}}, same[2][3] = {{0, 3, 0}, {0, 5, 0}};
    cr_expect_eq(stats_score_trend(empty, x, 2, &t), -1);
    cr_expect_eq(stats_score_trend(same, x, 2, &t), -1);
    const double flat[3] = {7, 7, 7};
    cr_expect_eq(stats_score_trend(a, flat, 3, &t), -1);
    NEAR(t.chi2, 0.8, 1e-12); /* the groups still differ, as much as they do */
}

Test(stats, trend_of_the_ladder)
{
    /* the 2,400-game ladder (results/ladder/report.md, 2026-12-02), blitz:
     * each level's self-play (losses, draws, wins) at its Elo. A reviewer
     * found chi2 55.8 on 10 df (binomial variance) and +4.0 points per
     * 1,000 Elo; with a game's variance from its results (draws counted)
     * the figures, redone in Python from the same counts, are 57.006 and
     * +4.016 (se 0.630), and the levels leave 16.320 on 9 df off the line */
    const uint64_t a[11][3] = {{429, 248, 423}, {570, 14, 516}, {573, 0, 527}, {539, 0, 561},
                               {556, 0, 544},   {536, 0, 564},  {556, 0, 544}, {567, 4, 529},
                               {525, 0, 575},   {491, 7, 602},  {1035, 0, 1365}};
    const double elo[11] = {0, 201, 292, 634, 851, 1015, 998, 1280, 1595, 1772, 2039};
    StatsTrend t;
    cr_assert_eq(stats_score_trend(a, elo, 11, &t), 0);
    NEAR(t.chi2, 57.0060, 1e-3);
    NEAR(100 * 1000 * t.slope, 4.0158, 1e-3);
    NEAR(100 * 1000 * t.se, 0.6296, 1e-3);
    NEAR(t.chi2_dev, 16.3200, 1e-3);
    cr_expect(t.p < 1e-7 && t.p_slope < 1e-8, "p %g, p_slope %g", t.p, t.p_slope);
    cr_expect(t.p_dev > 0.05 && t.p_dev < 0.07, "p_dev %g", t.p_dev);
}

Test(stats, binomial_tails_at_any_p)
{
    /* Binomial(10, 0.3): P(X <= 2) = 0.7^10 + 10 (0.3) 0.7^9 + 45 (0.09) 0.7^8
     * = 0.0282475249 + 0.1210608210 + 0.2334744405 = 0.3827827864, and
     * P(X >= 3) is the rest, 0.6172172136 */
    NEAR(stats_binomial_cdf(2, 10, 0.3), 0.3827827864, 1e-10);
    NEAR(stats_binomial_sf(3, 10, 0.3), 0.6172172136, 1e-10);
    /* far tails keep their digits (exact sums in integers, Python's
     * fractions): P(X >= 60 | 100, 0.3) = 5.129949815583e-10, P(X <= 5 |
     * 1000, 0.1) = 2.55654569306e-38 */
    NEAR(stats_binomial_sf(60, 100, 0.3) / 5.129949815583161e-10, 1, 1e-9);
    NEAR(stats_binomial_cdf(5, 1000, 0.1) / 2.55654569305999e-38, 1, 1e-9);
    /* the ends */
    NEAR(stats_binomial_sf(0, 10, 0.3), 1, 1e-15);
    NEAR(stats_binomial_sf(11, 10, 0.3), 0, 1e-15);
    NEAR(stats_binomial_cdf(10, 10, 0.3), 1, 1e-15);
    /* at p = 1/2 the two-sided test is twice a tail */
    NEAR(2 * stats_binomial_cdf(4900, 10000, 0.5), stats_binomial_p(5100, 10000), 1e-12);
}

/* TOST with a margin of two points on made-up games; the expected
 * p-values are exact binomial sums in integers (Python's fractions). */
Test(stats, tost_equivalent_beyond_inconclusive)
{
    StatsTost t;
    /* equivalent: 1500 wins and 1500 losses. P(Bin(3000, 0.48) >= 1500) =
     * 0.0148641873615 on each side (symmetric), below 0.05 */
    cr_assert_eq(stats_tost_sign(1500, 1500, 0.02, 0.05, &t), 0);
    NEAR(t.p_low, 0.0148641873615, 1e-11);
    NEAR(t.p_high, 0.0148641873615, 1e-11);
    NEAR(t.p, 0.0148641873615, 1e-11);
    cr_expect_eq(t.verdict, TOST_EQUIVALENT);
    /* the 90% interval is inside 48-52% exactly when the tests reject */
    cr_expect(t.ci.lo > 0.48 && t.ci.hi < 0.52, "%f %f", t.ci.lo, t.ci.hi);
    NEAR(t.ci.lo + t.ci.hi, 1, 1e-9);

    /* beyond: 55% (1650 of 3000). P(Bin(3000, 0.52) >= 1650) =
     * 0.000530277191443, twice it (either side) 0.00106055438289 */
    cr_assert_eq(stats_tost_sign(1650, 1350, 0.02, 0.05, &t), 0);
    NEAR(t.p_above, 0.000530277191443, 1e-12);
    NEAR(t.p_beyond, 0.00106055438289, 1e-12);
    NEAR(t.p, 0.99953449392, 1e-10);
    cr_expect_eq(t.verdict, TOST_BEYOND);
    cr_expect(t.ci.lo > 0.52);

    /* inconclusive: 52 of 100 allow both a fair game and an edge of two
     * points (p_low 0.241669986196, p_high 0.539299504612) */
    cr_assert_eq(stats_tost_sign(52, 48, 0.02, 0.05, &t), 0);
    NEAR(t.p_low, 0.241669986196, 1e-11);
    NEAR(t.p_high, 0.539299504612, 1e-11);
    NEAR(t.p_beyond, 1, 1e-15);
    cr_expect_eq(t.verdict, TOST_INCONCLUSIVE);
    /* so are 51.7% of 3000 games: an edge inside the margin, which the
     * games cannot tell from one at it (p_high 0.3641549559639509; the
     * edge itself is beyond chance, p_low 3.17e-05) */
    cr_assert_eq(stats_tost_sign(1550, 1450, 0.02, 0.05, &t), 0);
    NEAR(t.p_low, 3.172608182243476e-05, 1e-15);
    NEAR(t.p_high, 0.3641549559639509, 1e-11);
    NEAR(t.p_above, 0.6494780046793652, 1e-11);
    cr_expect_eq(t.verdict, TOST_INCONCLUSIVE);
    /* the draws are left out: 1480 wins of 2960 decisive games
     * (0.015428647928857576 a side) */
    cr_assert_eq(stats_tost_sign(1480, 1480, 0.02, 0.05, &t), 0);
    NEAR(t.p, 0.015428647928857576, 1e-11);
    NEAR(t.ci.mid, 0.5, 1e-12);

    /* a family: the verdict from adjusted p-values */
    cr_expect_eq(stats_tost_verdict(0.01, 1, 0.05), TOST_EQUIVALENT);
    cr_expect_eq(stats_tost_verdict(0.2, 0.01, 0.05), TOST_BEYOND);
    cr_expect_eq(stats_tost_verdict(0.2, 0.2, 0.05), TOST_INCONCLUSIVE);
    /* nothing to test */
    cr_expect_eq(stats_tost_sign(0, 0, 0.02, 0.05, &t), -1);
    cr_expect_eq(stats_tost_sign(5, 5, 0, 0.05, &t), -1);
    cr_expect_eq(stats_tost_sign(5, 5, 0.5, 0.05, &t), -1);
}

Test(stats, power_of_a_difference)
{
    /* the statistician's figure: d7 - d5 with a standard error of 1.44
     * points, power to see 2 points Phi(2/1.44 - 1.96) + Phi(-2/1.44 -
     * 1.96) = 0.28396 + 0.00042 = 0.28438 */
    NEAR(stats_normal_upper(0.025), STATS_Z95, 1e-9);
    NEAR(stats_normal_upper(0.5), 0, 1e-9);
    NEAR(stats_power_z(2, 1.44, 0.05), 0.2843801041, 1e-8);
    /* no difference: the power is the level */
    NEAR(stats_power_z(0, 1, 0.05), 0.05, 1e-9);
}

/* Cochran's Q on the textbook example of meta-analysis: the 13 BCG
 * vaccine trials (Colditz et al. 1994; metafor's dat.bcg, Viechtbauer
 * 2010), log relative risks from the counts, variances 1/a - 1/(a+b) +
 * 1/c - 1/(c+d). metafor's fixed-effect fit gives -0.4303 (se 0.0405)
 * and Q(df = 12) = 152.2330, p < 0.0001. */
Test(stats, cochran_q_on_the_bcg_trials)
{
    static const double t[13][4] = {
        {4, 119, 11, 128},      {6, 300, 29, 274},      {3, 228, 11, 209},      {62, 13536, 248, 12619},
        {33, 5036, 47, 5761},   {180, 1361, 372, 1079}, {8, 2537, 10, 619},     {505, 87886, 499, 87892},
        {29, 7470, 45, 7232},   {17, 1699, 65, 1600},   {186, 50448, 141, 27197}, {5, 2493, 3, 2338},
        {27, 16886, 29, 17825},
    };
    double est[13], se[13];
    for (int i = 0; i < 13; i++) {
        double a = t[i][0], b = t[i][1], c = t[i][2], d = t[i][3];
        est[i] = log((a / (a + b)) / (c / (c + d)));
        se[i] = sqrt(1 / a - 1 / (a + b) + 1 / c - 1 / (c + d));
    }
    StatsPooled p;
    cr_assert_eq(stats_pool(est, se, 13, &p), 0);
    NEAR(p.mean, -0.4303, 5e-5);
    NEAR(p.se, 0.0405, 5e-5);
    NEAR(p.q, 152.2330, 5e-5);
    cr_expect_eq(p.df, 12);
    cr_expect(p.p < 1e-20, "%g", p.p);
    NEAR(p.i2, (152.2330 - 12) / 152.2330, 1e-6);
    /* estimates that agree: Q below its df, I^2 0, p large */
    double same[3] = {0.1, 0.11, 0.09}, err[3] = {0.05, 0.05, 0.05};
    cr_assert_eq(stats_pool(same, err, 3, &p), 0);
    NEAR(p.mean, 0.1, 1e-12);
    NEAR(p.q, (0 + 0.0001 + 0.0001) / 0.0025, 1e-12);
    NEAR(p.i2, 0, 1e-15);
    cr_expect(p.p > 0.9);
    cr_expect_eq(stats_pool(same, err, 1, &p), -1);
    err[1] = 0;
    cr_expect_eq(stats_pool(same, err, 3, &p), -1);
}
