/* What an SPRT's bounds cost before a match runs it (sprt_cost.h). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "selfplay/match/sprt_cost.h"
#include "engine/base/error.h"
#include "engine/base/number.h"
#include "selfplay/stats/stats.h"

int sprt_cost_shape(SprtCost *c, const char *text, char *err)
{
    static const double yinsh_pairs[5] = {0.2, 0.02, 0.56, 0.02, 0.2};
    c->have_counts = text != NULL;
    if (!text) {
        memcpy(c->shape, yinsh_pairs, sizeof yinsh_pairs);
        c->kinds = 5;
        return 0;
    }
    int n = 0;
    const char *s = text;
    for (;;) {
        char *end;
        if (n == 5 || !(*s >= '0' && *s <= '9')) break;
        c->counts[n++] = strtoull(s, &end, 10);
        if (*end != ',') {
            s = end;
            break;
        }
        s = end + 1;
    }
    if (*s || (n != 3 && n != 5))
        return error_code(err, ERR_USAGE,
                          "'%.64s' is not five pentanomial counts N0,N1,N2,N3,N4 or three game counts L,D,W", text);
    double sum = 0;
    for (int i = 0; i < n; i++) sum += c->shape[i] = c->counts[i] ? (double)c->counts[i] : 1e-3;
    for (int i = 0; i < n; i++) c->shape[i] /= sum;
    c->kinds = n;
    return 0;
}

int sprt_cost(SprtCost *c, void (*progress)(void *ctx, int h, uint64_t done, uint64_t runs), void *ctx, char *err)
{
    c->bounds = sprt_test(c->counts, 0, &c->spec);
    c->nat = 0;
    for (int h = 0; h < 2; h++) {
        SprtCostAt *at = &c->at[h];
        double elo = h ? c->spec.elo1 : c->spec.elo0;
        *at = (SprtCostAt){.p_h1 = h ? 1 - c->spec.beta : c->spec.alpha};
        if (sprt_tilt(c->shape, c->kinds, elo, c->spec.model, at->pdf))
            return error_set(err, "no distribution of this shape has Elo %g in the %s model", elo,
                             sprt_model_name(c->spec.model));
        at->expected = sprt_expected_samples(at->pdf, c->kinds, &c->spec, at->p_h1);
        c->nat = h + 1;
        if (!c->runs) continue;
        /* in chunks, so that progress shows */
        uint64_t cap = (uint64_t)ceil(100 * at->expected) + 100;
        if (progress) progress(ctx, h, 0, c->runs);
        for (uint64_t done = 0; done < c->runs;) {
            uint64_t chunk = c->runs - done < 100 ? c->runs - done : 100;
            sprt_simulate(at->pdf, c->kinds, &c->spec, done, chunk, cap, c->seed + (uint64_t)h, &at->sim);
            done += chunk;
            if (progress) progress(ctx, h, done, c->runs);
        }
    }
    return 0;
}

void sprt_cost_print_head(FILE *f, const SprtCost *c)
{
    const SprtSpec *spec = &c->spec;
    fprintf(f, "test         H0 elo=%g vs H1 elo=%g (%s), alpha %g beta %g: llr bounds %.3f, %.3f\n", spec->elo0,
            spec->elo1, sprt_model_name(spec->model), spec->alpha, spec->beta, c->bounds.lower, c->bounds.upper);
    if (c->have_counts) {
        Sprt s = sprt_test(c->counts, c->kinds, spec);
        uint64_t n = 0;
        for (int i = 0; i < c->kinds; i++) n += c->counts[i];
        fprintf(f, "llr          %.3f after %" PRIu64 " %s%s: %s\n", s.llr, n, c->kinds == 5 ? "pair" : "game",
                number_plural(n), s.decision > 0 ? "H1 accepted" : s.decision < 0 ? "H0 accepted" : "no decision");
    }
    fprintf(f, "shape        %s", c->have_counts ? "of the counts:" : "YINSH pairs (the default):");
    for (int i = 0; i < c->kinds; i++) fprintf(f, " %.3f", c->shape[i]);
    fprintf(f, "\n");
}

void sprt_cost_print_at(FILE *f, const SprtCost *c, int h)
{
    const SprtCostAt *at = &c->at[h];
    const char *unit = c->kinds == 5 ? "pairs" : "games";
    fprintf(f, "at elo%d      %s %.0f %s expected (Wald), H1 accepted with probability %g\n", h, h ? "(H1)" : "(H0)",
            at->expected, unit, at->p_h1);
    if (!c->runs) return;
    const SprtSim *sim = &at->sim;
    uint64_t decided = sim->h1 + sim->h0;
    Interval rate = stats_wilson((double)sim->h1 / (double)sim->runs, (double)sim->runs, STATS_Z95);
    fprintf(f, "simulated    %" PRIu64 " run%s: H1 accepted in %.2f%% (95%% CI %.2f%% to %.2f%%), mean %.0f %s",
            sim->runs, number_plural(sim->runs), 100 * rate.mid, 100 * rate.lo, 100 * rate.hi,
            decided ? sim->samples / (double)decided : 0, unit);
    if (sim->open) fprintf(f, ", %" PRIu64 " undecided", sim->open);
    fprintf(f, "\n");
}
