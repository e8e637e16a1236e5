#include <math.h>
#include <stdio.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/base/number.h"
#include "engine/base/rng.h"
#include "eval/spsa.h"

/* A salt so that the signs' streams differ from the games' of one seed. */
#define SPSA_SALT 0x5b5a5350u

void spsa_gains_default(SpsaGains *g, int iterations)
{
    *g = (SpsaGains){.a = 0.02, .c = 0.1, .A = iterations / 10.0, .alpha = 0.602, .gamma = 0.101};
}

int spsa_gains_check(const SpsaGains *g, char *err)
{
    const char *bad = NULL;
    if (!(isfinite(g->a) && g->a > 0)) bad = "a (above 0)";
    else if (!(isfinite(g->c) && g->c > 0 && g->c <= 0.5)) bad = "c (above 0, at most 0.5 of the range)";
    else if (!(isfinite(g->A) && g->A >= 0)) bad = "A (0 or more)";
    else if (!(isfinite(g->alpha) && g->alpha >= 0 && g->alpha <= 2)) bad = "alpha (0 to 2)";
    else if (!(isfinite(g->gamma) && g->gamma >= 0 && g->gamma <= 2)) bad = "gamma (0 to 2)";
    if (!bad) return 0;
    return error_set(err, "bad SPSA gain %s", bad);
}

/* Whether a number's text is an integer (no '.', no exponent). */
static bool integer_text(const char *s)
{
    long v;
    return number_long(s, -1000000000L, 1000000000L, &v);
}

int spsa_param_parse(const char *text, SpsaParam *p, char *err)
{
    char buf[128];
    if (strlen(text) >= sizeof buf) {
        return error_set(err, "'%.64s...' is too long for NAME=START:LO:HI", text);
    }
    strcpy(buf, text);
    char *eq = strchr(buf, '='), *f[3];
    if (!eq || eq == buf || (size_t)(eq - buf) >= SPSA_NAME_LEN) {
        return error_set(err, "'%.64s' is not NAME=START:LO:HI with a NAME of 1 to %d characters", text,
                         SPSA_NAME_LEN - 1);
    }
    *eq = '\0';
    f[0] = eq + 1;
    for (int i = 1; i < 3; i++) {
        f[i] = f[i - 1] ? strchr(f[i - 1], ':') : NULL;
        if (f[i]) *f[i]++ = '\0';
    }
    double v[3];
    bool integer = true;
    for (int i = 0; i < 3; i++) {
        if (!f[i] || !number_real(f[i], -1e9, 1e9, &v[i]) || (i == 2 && strchr(f[i], ':'))) {
            return error_set(err, "'%.64s' is not NAME=START:LO:HI (three numbers)", text);
        }
        integer = integer && integer_text(f[i]);
    }
    if (!(v[1] < v[2] && v[0] >= v[1] && v[0] <= v[2])) {
        return error_set(err, "'%.64s' is not NAME=START:LO:HI with LO < HI and LO <= START <= HI", text);
    }
    *p = (SpsaParam){.start = v[0], .lo = v[1], .hi = v[2], .integer = integer};
    snprintf(p->name, sizeof p->name, "%s", buf);
    return 0;
}

double spsa_c(const SpsaGains *g, int k) { return g->c / pow(k + 1.0, g->gamma); }
double spsa_a(const SpsaGains *g, int k) { return g->a / pow(k + 1.0 + g->A, g->alpha); }

void spsa_delta(uint64_t seed, int k, int n, int8_t *delta)
{
    Rng rng;
    rng_stream(&rng, seed ^ SPSA_SALT, (uint64_t)k);
    for (int i = 0; i < n; i++) delta[i] = rng_below(&rng, 2) ? 1 : -1;
}

static double clamp01(double u) { return u < 0 ? 0 : u > 1 ? 1 : u; }

double spsa_value(const SpsaParam *p, double u)
{
    double v = p->lo + clamp01(u) * (p->hi - p->lo);
    return p->integer ? round(v) : v;
}

double spsa_unit(const SpsaParam *p, double value) { return clamp01((value - p->lo) / (p->hi - p->lo)); }

void spsa_points(int n, const double *u, const int8_t *delta, double ck, double *plus, double *minus)
{
    for (int i = 0; i < n; i++) {
        plus[i] = clamp01(u[i] + ck * delta[i]);
        minus[i] = clamp01(u[i] - ck * delta[i]);
    }
}

void spsa_update(int n, double *u, const int8_t *delta, double ak, double ck, double result)
{
    for (int i = 0; i < n; i++) u[i] = clamp01(u[i] + ak * result / (2 * ck * delta[i]));
}
