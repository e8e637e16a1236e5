/* The SPSA math (eval/spsa.h) on objectives given as pure functions: a
 * step goes the right way, the iterates reach a known optimum, the signs
 * are a function of the seed, and parameters parse strictly. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include "eval/spsa.h"

/* A match's result between the plus and minus points for an objective f
 * (higher is better), squashed into [-1, 1] as a score difference is. */
static double duel(double (*f)(const double *), int n, const double *plus, const double *minus)
{
    (void)n;
    return tanh(4 * (f(plus) - f(minus)));
}

/* Best at u = (0.7, 0.2). */
static double bowl(const double *u) { return -((u[0] - 0.7) * (u[0] - 0.7) + (u[1] - 0.2) * (u[1] - 0.2)); }
static double rising(const double *u) { return u[0]; }

Test(spsa, one_step_goes_uphill_whatever_the_signs)
{
    SpsaGains g;
    spsa_gains_default(&g, 100);
    for (int k = 0; k < 50; k++) {
        int8_t d[1];
        spsa_delta(99, k, 1, d);
        double u[1] = {0.5}, plus[1], minus[1], ck = spsa_c(&g, k);
        spsa_points(1, u, d, ck, plus, minus);
        spsa_update(1, u, d, spsa_a(&g, k), ck, duel(rising, 1, plus, minus));
        cr_expect_gt(u[0], 0.5, "iteration %d (delta %d): u = %g did not rise", k, d[0], u[0]);
    }
}

Test(spsa, reaches_the_optimum_of_a_bowl)
{
    SpsaGains g;
    spsa_gains_default(&g, 2000);
    g.a = 0.2;
    double u[2] = {0.1, 0.9};
    for (int k = 0; k < 2000; k++) {
        int8_t d[2];
        double plus[2], minus[2], ck = spsa_c(&g, k);
        spsa_delta(5, k, 2, d);
        spsa_points(2, u, d, ck, plus, minus);
        spsa_update(2, u, d, spsa_a(&g, k), ck, duel(bowl, 2, plus, minus));
    }
    cr_expect(fabs(u[0] - 0.7) < 0.05, "u0 = %g, not near 0.7", u[0]);
    cr_expect(fabs(u[1] - 0.2) < 0.05, "u1 = %g, not near 0.2", u[1]);
}

Test(spsa, gains_and_signs)
{
    SpsaGains g = {.a = 1, .c = 0.1, .A = 9, .alpha = 1, .gamma = 0.5};
    cr_expect_float_eq(spsa_c(&g, 3), 0.05, 1e-12);
    cr_expect_float_eq(spsa_a(&g, 0), 0.1, 1e-12);
    cr_expect_eq(spsa_gains_check(&g, (char[ERR_LEN]){0}), 0);
    int8_t a[8], b[8], c[8];
    spsa_delta(1, 4, 8, a);
    spsa_delta(1, 4, 8, b);
    cr_expect_eq(memcmp(a, b, sizeof a), 0);
    int differ = 0;
    for (int k = 0; k < 20; k++) {
        spsa_delta(1, k, 8, c);
        differ += memcmp(a, c, sizeof a) != 0;
        for (int i = 0; i < 8; i++) cr_expect(c[i] == 1 || c[i] == -1);
    }
    cr_expect_geq(differ, 18);
    char err[ERR_LEN];
    g.c = 0.9;
    cr_expect_neq(spsa_gains_check(&g, err), 0);
    cr_expect(strstr(err, "c "), "%s", err);
}

Test(spsa, params_parse_strictly)
{
    SpsaParam p;
    char err[ERR_LEN];
    cr_assert_eq(spsa_param_parse("c=1.0:0.1:3.0", &p, err), 0, "%s", err);
    cr_expect_str_eq(p.name, "c");
    cr_expect_eq(p.start, 1.0);
    cr_expect_eq(p.lo, 0.1);
    cr_expect_eq(p.hi, 3.0);
    cr_expect_not(p.integer);
    cr_assert_eq(spsa_param_parse("rollout=4:0:12", &p, err), 0, "%s", err);
    cr_expect(p.integer);
    cr_expect_eq(spsa_value(&p, 0.3), 4); /* 3.6 rounded */
    cr_expect_float_eq(spsa_unit(&p, 6), 0.5, 1e-12);
    const char *bad[] = {"c", "c=1", "c=1:0", "c=1:0:2:3", "=1:0:2", "c=x:0:2", "c=5:0:2", "c=1:2:0", "c=1:1:1",
                         "c=1:0:inf", "c= 1:0:2"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_expect_neq(spsa_param_parse(bad[i], &p, err), 0, "'%s' accepted", bad[i]);
        cr_expect(strstr(err, "NAME=START:LO:HI"), "%s", err);
    }
}
