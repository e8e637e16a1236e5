#define _GNU_SOURCE /* nftw */
/* The SPRT (selfplay/match/sprt.h): its log-likelihood ratio against a
 * brute-force maximization, the small samples that must not decide, and
 * its error rates and length by simulation from pentanomial and trinomial
 * models, where the sample counts are drawn from a known distribution and
 * the truth is known: at elo0 the test must accept H1 with probability
 * alpha, at elo1 with probability 1 - beta, each within one point, and the
 * mean number of samples must be what Wald's approximation says. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include "engine/base/error.h"
#include "selfplay/match/sprt.h"
#include "tests/test_proc.h"

#define NEAR(x, want, tol) cr_expect(fabs((x) - (want)) < (tol), "%s = %.6f, want %.6f", #x, (double)(x), (double)(want))

/* ---- the ratio itself --------------------------------------------------- */

/* The largest sum_i q_i log p_i over trinomial distributions p = (l, d, w)
 * that meet the model's constraint, by a fine grid and golden-section
 * search over the one free parameter; independent of sprt.c's Lagrange
 * solution. Logistic: the mean d/2 + w is s; the free parameter is d.
 * Normalized: (mu - 1/2) / sigma = t; the free parameter is mu, and sigma
 * = (mu - 1/2) / t fixes the second moment m2 = sigma^2 + mu^2, so d =
 * 4 (mu - m2), w = mu - d/2, l = 1 - d - w (at t = 0 the mean is 1/2
 * and the free parameter is d). */
static bool constrained(double free, double target, SprtModel model, double p[3])
{
    if (model == SPRT_LOGISTIC || target == 0) {
        /* the mean is fixed (t = 0 fixes it at 1/2) */
        p[1] = free;
        p[2] = (model == SPRT_LOGISTIC ? target : 0.5) - free / 2;
    } else {
        double mu = free, sigma = (mu - 0.5) / target, m2 = sigma * sigma + mu * mu;
        if (!(sigma > 0)) return false;
        p[1] = 4 * (mu - m2);
        p[2] = mu - p[1] / 2;
    }
    p[0] = 1 - p[1] - p[2];
    return p[0] > 0 && p[1] > 0 && p[2] > 0;
}

static double loglik(const double q[3], double free, double target, SprtModel model)
{
    double p[3];
    if (!constrained(free, target, model, p)) return -INFINITY;
    return q[0] * log(p[0]) + q[1] * log(p[1]) + q[2] * log(p[2]);
}

static double max_loglik(const double q[3], double target, SprtModel model)
{
    /* the grid finds the bump, golden sections refine it */
    double best = -INFINITY, at = 0, step = 1e-4;
    for (double f = step; f < 1; f += step) {
        double v = loglik(q, f, target, model);
        if (v > best) best = v, at = f;
    }
    double a = at - step, b = at + step, g = (sqrt(5) - 1) / 2;
    for (int i = 0; i < 200; i++) {
        double c = b - g * (b - a), d = a + g * (b - a);
        if (loglik(q, c, target, model) > loglik(q, d, target, model)) b = d;
        else a = c;
    }
    return loglik(q, (a + b) / 2, target, model);
}

static double brute_llr(const uint64_t c[3], const SprtSpec *spec)
{
    double n = (double)(c[0] + c[1] + c[2]), q[3], sum = 0;
    for (int i = 0; i < 3; i++) sum += q[i] = c[i] ? (double)c[i] : 1e-3;
    for (int i = 0; i < 3; i++) q[i] /= sum;
    double target[2];
    for (int h = 0; h < 2; h++) {
        double elo = h ? spec->elo1 : spec->elo0;
        target[h] = spec->model == SPRT_LOGISTIC ? 1 / (1 + pow(10, -elo / 400)) : elo * M_LN10 / 800;
    }
    return n * (max_loglik(q, target[1], spec->model) - max_loglik(q, target[0], spec->model));
}

Test(sprt, llr_is_the_ratio_of_the_constrained_maxima)
{
    const uint64_t cases[][3] = {{450, 300, 550}, {500, 300, 500}, {30, 2, 41}, {7, 0, 3}, {1, 0, 1}, {120, 80, 95}};
    const SprtSpec specs[] = {{0, 10, 0.05, 0.05, SPRT_LOGISTIC},
                              {-20, 30, 0.05, 0.1, SPRT_LOGISTIC},
                              {0, 10, 0.05, 0.05, SPRT_NORMALIZED},
                              {-10, 25, 0.05, 0.05, SPRT_NORMALIZED}};
    for (size_t s = 0; s < sizeof specs / sizeof *specs; s++)
        for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
            Sprt r = sprt_test(cases[k], 3, &specs[s]);
            double want = brute_llr(cases[k], &specs[s]);
            cr_expect(fabs(r.llr - want) < 1e-5 * fmax(1, fabs(want)), "spec %zu counts %zu: llr %.8f, brute force %.8f",
                      s, k, r.llr, want);
        }
}

Test(sprt, bounds_and_decisions)
{
    SprtSpec spec = {0, 10, 0.05, 0.05, SPRT_LOGISTIC};
    uint64_t none[3] = {0, 0, 0};
    Sprt r = sprt_test(none, 3, &spec);
    cr_expect_eq(r.llr, 0);
    cr_expect_eq(r.decision, 0);
    /* Wald's bounds: ln(0.05/0.95) and ln(0.95/0.05) */
    NEAR(r.lower, -2.944439, 1e-6);
    NEAR(r.upper, 2.944439, 1e-6);
    /* 550 W 300 D 450 L favours +10 over 0 (mean 0.5385, Elo +26.8) */
    uint64_t ahead[3] = {450, 300, 550};
    r = sprt_test(ahead, 3, &spec);
    cr_expect_eq(r.decision, 1, "llr %f", r.llr);
    uint64_t even[3] = {500, 300, 500};
    r = sprt_test(even, 3, &spec);
    cr_expect(r.llr < 0 && r.decision == 0, "llr %f", r.llr);
    uint64_t behind[3] = {600, 300, 500};
    cr_expect_eq(sprt_test(behind, 3, &spec).decision, -1);
}

/* The reproduction: `match --sprt 0,50,0.05,0.05` accepted H1 after two
 * pairs scored 3/2 and 2 (LLR +3.10 from a sample variance of 1/64) and H0
 * after two others. A ratio of likelihoods moves by a bounded step per
 * pair: no pentanomial of 12 pairs or fewer decides at these bounds, in
 * either model. */
Test(sprt, a_handful_of_pairs_decides_nothing)
{
    SprtSpec spec = {0, 50, 0.05, 0.05, SPRT_LOGISTIC};
    uint64_t two[5] = {0, 0, 0, 1, 1};
    Sprt r = sprt_test(two, 5, &spec);
    cr_expect(r.decision == 0 && fabs(r.llr) < 0.5, "llr %f", r.llr);
    for (int model = 0; model < 2; model++) {
        spec.model = (SprtModel)model;
        for (int n = 1; n <= 12; n++)
            for (int a = 0; a <= n; a++)
                for (int b = 0; a + b <= n; b++)
                    for (int c = 0; a + b + c <= n; c++)
                        for (int d = 0; a + b + c + d <= n; d++) {
                            uint64_t k[5] = {a, b, c, d, n - a - b - c - d};
                            r = sprt_test(k, 5, &spec);
                            cr_assert(r.decision == 0 && isfinite(r.llr), "%s: %d %d %d %d %d pairs decide (llr %f)",
                                      sprt_model_name(spec.model), a, b, c, d, n - a - b - c - d, r.llr);
                        }
    }
}

Test(sprt, parse)
{
    SprtSpec s;
    char err[ERR_LEN];
    cr_assert_eq(sprt_parse("0,10,0.05,0.1", &s, err), 0);
    cr_expect(s.elo0 == 0 && s.elo1 == 10 && s.alpha == 0.05 && s.beta == 0.1 && s.model == SPRT_LOGISTIC);
    cr_assert_eq(sprt_parse("-1.5,2.5,0.05,0.05,normalized", &s, err), 0);
    cr_expect(s.elo0 == -1.5 && s.model == SPRT_NORMALIZED);
    cr_assert_eq(sprt_parse("0,5,0.05,0.05,logistic", &s, err), 0);
    cr_expect_eq(s.model, SPRT_LOGISTIC);
    const char *bad[] = {"0,10", "10,0,0.05,0.05", "0,10,0.5,0.05", "0,10,0.05,0", "0,10,0.05,0.05,", "0,10,0.05,0.05,bayes",
                         "0,10,0.05,0.05x", "nan,10,0.05,0.05", "0,5000,0.05,0.05", ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = 0;
        cr_expect_eq(sprt_parse(bad[i], &s, err), ERR_USAGE, "'%s' accepted", bad[i]);
        cr_expect(err[0], "'%s': no message", bad[i]);
    }
}

Test(sprt, tilted_models_have_the_elo_asked)
{
    const double base[5] = {0.2, 0.02, 0.56, 0.02, 0.2};
    double pdf[5];
    for (int model = 0; model < 2; model++)
        for (double elo = -200; elo <= 200; elo += 50) {
            cr_assert_eq(sprt_tilt(base, 5, elo, (SprtModel)model, pdf), 0);
            NEAR(sprt_elo(pdf, 5, (SprtModel)model), elo, 1e-6);
        }
    /* the drift points to the true hypothesis */
    SprtSpec spec = {0, 20, 0.05, 0.05, SPRT_LOGISTIC};
    sprt_tilt(base, 5, 0, SPRT_LOGISTIC, pdf);
    cr_expect_lt(sprt_drift(pdf, 5, &spec), 0);
    sprt_tilt(base, 5, 20, SPRT_LOGISTIC, pdf);
    cr_expect_gt(sprt_drift(pdf, 5, &spec), 0);
}

/* ---- by simulation ------------------------------------------------------ */

/* Runs the test at elo0 and at elo1 of a model made from base; the rates of
 * accepting H1 must be alpha and 1 - beta within a point, the mean length
 * within 10% of Wald's approximation, and every run must decide. */
static void simulate(const double *base, int kinds, const SprtSpec *spec, uint64_t runs, uint64_t seed)
{
    for (int h = 0; h < 2; h++) {
        double pdf[5];
        cr_assert_eq(sprt_tilt(base, kinds, h ? spec->elo1 : spec->elo0, spec->model, pdf), 0);
        SprtSim sim = {0};
        sprt_simulate(pdf, kinds, spec, 0, runs, 100000, seed + (uint64_t)h, &sim);
        double mean = sim.samples / (double)(sim.h1 + sim.h0);
        double rate = (double)sim.h1 / (double)runs, want = h ? 1 - spec->beta : spec->alpha;
        double wald = sprt_expected_samples(pdf, kinds, spec, want);
        /* (on stderr: Criterion's own log leaks a block that LeakSanitizer reports) */
        fprintf(stderr, "%s %s [%g, %g] at elo%d: accepted H1 in %.4f of %llu runs (want %.4f), mean %.1f samples (Wald %.1f)\n",
                    kinds == 5 ? "pentanomial" : "trinomial", sprt_model_name(spec->model), spec->elo0, spec->elo1, h,
                    rate, (unsigned long long)runs, want, mean, wald);
        cr_expect_eq(sim.open, 0);
        cr_expect(fabs(rate - want) <= 0.01, "%s [%g, %g] at elo%d: H1 accepted in %.4f of the runs, want %.4f +- 0.01",
                  sprt_model_name(spec->model), spec->elo0, spec->elo1, h, rate, want);
        cr_expect(fabs(mean / wald - 1) <= 0.10, "at elo%d: mean %.1f samples, Wald %.1f", h, mean, wald);
    }
}

/* Pairs as YINSH plays them: few draws, so a pair mostly splits (1/2) or
 * goes one way (0 or 2 points). */
static const double yinsh_pairs[5] = {0.2, 0.02, 0.56, 0.02, 0.2};
/* Pairs as chess engines play them: many draws. */
static const double drawish_pairs[5] = {0.02, 0.2, 0.56, 0.2, 0.02};

Test(sprt, error_rates_logistic_pairs, .timeout = 120)
{
    SprtSpec spec = {0, 50, 0.05, 0.05, SPRT_LOGISTIC};
    simulate(yinsh_pairs, 5, &spec, 4000, 11);
}

Test(sprt, error_rates_normalized_pairs, .timeout = 120)
{
    SprtSpec spec = {0, 50, 0.05, 0.05, SPRT_NORMALIZED};
    simulate(yinsh_pairs, 5, &spec, 3000, 21);
}

Test(sprt, error_rates_drawish_pairs_narrow_bounds, .timeout = 120)
{
    SprtSpec spec = {0, 10, 0.05, 0.05, SPRT_LOGISTIC};
    simulate(drawish_pairs, 5, &spec, 2000, 31);
}

Test(sprt, error_rates_games_unequal_alpha_beta, .timeout = 120)
{
    const double games[3] = {0.4, 0.2, 0.4};
    SprtSpec spec = {-10, 30, 0.1, 0.05, SPRT_LOGISTIC};
    simulate(games, 3, &spec, 4000, 41);
}

Test(sprt, a_simulation_in_chunks_equals_one_in_one_go)
{
    SprtSpec spec = {0, 50, 0.05, 0.05, SPRT_LOGISTIC};
    double pdf[5];
    sprt_tilt(yinsh_pairs, 5, 25, SPRT_LOGISTIC, pdf);
    SprtSim whole = {0}, parts = {0};
    sprt_simulate(pdf, 5, &spec, 0, 300, 100000, 7, &whole);
    sprt_simulate(pdf, 5, &spec, 0, 120, 100000, 7, &parts);
    sprt_simulate(pdf, 5, &spec, 120, 180, 100000, 7, &parts);
    cr_expect(whole.runs == 300 && parts.runs == 300 && whole.h1 == parts.h1 && whole.h0 == parts.h0 &&
              whole.samples == parts.samples);
    cr_expect(whole.h1 > 0 && whole.h0 > 0, "at the middle of the bounds both answers happen");
}

/* ---- as the user meets it ---------------------------------------------- */

/* The reproduction: mcts:sims=10 against itself stopped after 4
 * games on seeds 3, 8 and 9 (LLR +3.10, -3.76, -3.76). */
Test(sprt, match_does_not_decide_after_two_pairs)
{
    char *dir = tmpdir_new();
    const char *seeds[] = {"3", "8", "9"};
    for (int i = 0; i < 3; i++) {
        const char *args[] = {"match", "--a", "mcts:sims=10", "--b", "mcts:sims=10", "--games", "600", "--sprt",
                              "0,50,0.05,0.05", "--seed", seeds[i], "--no-db", "--quiet", "--threads", "1", NULL};
        char *out;
        cr_assert_eq(yinsh_run(dir, args, &out, NULL), 0);
        const char *at = strstr(out, "accepted after ");
        if (at) cr_expect_geq(atoi(at + strlen("accepted after ")), 20, "seed %s: %s", seeds[i], out);
    }
}

Test(sprt, the_command)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *two_pairs[] = {"sprt", "0,50,0.05,0.05", "--counts", "0,0,0,1,1", NULL};
    cr_assert_eq(yinsh_run(dir, two_pairs, &out, NULL), 0);
    cr_expect(strstr(out, "after 2 pairs: no decision"), "%s", out);
    cr_expect(strstr(out, "pairs expected (Wald)"), "%s", out);
    const char *sim[] = {"sprt", "0,50,0.05,0.05,normalized", "--simulate", "200", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, sim, &out, &err), 0);
    cr_expect(strstr(out, "(normalized)") && strstr(out, "simulated    200 runs: H1 accepted in"), "%s", out);
    cr_expect_eq(err[0], 0, "--quiet: %s", err);
    const char *bad[][6] = {{"sprt", "0,50", NULL},
                            {"sprt", "0,50,0.05,0.05,probit", NULL},
                            {"sprt", "0,50,0.05,0.05", "--counts", "1,2", NULL},
                            {"sprt", "0,50,0.05,0.05", "--counts", "1,2,x", NULL},
                            {"sprt", NULL}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_expect_eq(yinsh_run(dir, bad[i], NULL, &err), 2, "case %zu", i);
        cr_expect(strstr(err, "yinsh sprt:"), "case %zu: %s", i, err);
    }
}

Test(sprt, match_takes_the_model)
{
    char *dir = tmpdir_new(), *out;
    const char *args[] = {"match", "--a", "mcts:sims=10", "--b", "random", "--games", "20", "--seed", "2", "--no-db",
                          "--sprt", "0,50,0.05,0.05,normalized", "--json", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, NULL), 0);
    cr_expect(strstr(out, "\"model\": \"normalized\""), "%s", out);
}
