/* yinsh sprt: what an SPRT's bounds cost before a match runs it, and the
 * test's state for counts already played (selfplay/match/sprt.h). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/commands.h"
#include "engine/base/number.h"
#include "selfplay/match/sprt.h"
#include "selfplay/stats/stats.h"

const char USAGE_SPRT[] =
    "usage: yinsh sprt E0,E1,ALPHA,BETA[,MODEL] [--counts C] [--simulate RUNS] [--seed S]\n"
    "                  [--quiet]\n"
    "  The SPRT of `yinsh match --sprt` before a match runs it: how many pairs it\n"
    "  takes when A's true Elo is E0 and when it is E1 (Wald's approximation), and,\n"
    "  with --simulate, its error rates and length measured on simulated pairs. With\n"
    "  --counts, the test's log-likelihood ratio and decision for those counts.\n"
    "  MODEL: logistic (default; Elo of the mean score) or normalized (fishtest's\n"
    "  nElo). docs/sprt.md says how the test works and how to choose bounds.\n"
    "\n"
    "  --counts C      five pentanomial counts N0,N1,N2,N3,N4 (pairs in which A\n"
    "                  scored 0, 1/2, 1, 3/2, 2, as `match` prints them) or three\n"
    "                  game counts L,D,W. Their shape (how often a pair splits,\n"
    "                  how many draws) is the model of the expectations; without\n"
    "                  it, YINSH pairs between near-equal agents: 0.2 0.02 0.56\n"
    "                  0.02 0.2 (mcts:sims=100 against itself: 0.205 0 0.54\n"
    "                  0.015 0.24)\n"
    "  --simulate RUNS  run the test RUNS times (1 to 1000000) on samples drawn at\n"
    "                  E0 and at E1 (the shape tilted to each Elo), each run until it\n"
    "                  decides or takes 100 times the expected length\n"
    "  --seed S        the simulation's seed (default 1)\n"
    "  --quiet         no progress on stderr\n";

/* The shape: counts regularized as the test does (a zero is 1e-3), or
 * the default pairs. */
static int shape_of(const char *text, double *shape, uint64_t *counts, int *kinds, char *err)
{
    static const double yinsh_pairs[5] = {0.2, 0.02, 0.56, 0.02, 0.2};
    if (!text) {
        memcpy(shape, yinsh_pairs, sizeof yinsh_pairs);
        *kinds = 5;
        return 0;
    }
    int n = 0;
    const char *s = text;
    for (;;) {
        char *end;
        if (n == 5 || !(*s >= '0' && *s <= '9')) break;
        counts[n++] = strtoull(s, &end, 10);
        if (*end != ',') {
            s = end;
            break;
        }
        s = end + 1;
    }
    if (*s || (n != 3 && n != 5))
        return error_set(err, "'%.64s' is not five pentanomial counts N0,N1,N2,N3,N4 or three game counts L,D,W",
                         text);
    double sum = 0;
    for (int i = 0; i < n; i++) sum += shape[i] = counts[i] ? (double)counts[i] : 1e-3;
    for (int i = 0; i < n; i++) shape[i] /= sum;
    *kinds = n;
    return 0;
}

static void print_counts(const uint64_t *counts, int kinds, const SprtSpec *spec)
{
    Sprt s = sprt_test(counts, kinds, spec);
    uint64_t n = 0;
    for (int i = 0; i < kinds; i++) n += counts[i];
    printf("llr          %.3f after %" PRIu64 " %s%s: %s\n", s.llr, n, kinds == 5 ? "pair" : "game",
           number_plural(n), s.decision > 0 ? "H1 accepted" : s.decision < 0 ? "H0 accepted" : "no decision");
}

/* The simulation at one hypothesis, in chunks so that progress shows. */
static void simulate(const double *pdf, int kinds, const SprtSpec *spec, uint64_t runs, uint64_t cap, uint64_t seed,
                     bool quiet, SprtSim *sim)
{
    Progress progress;
    progress_start(&progress, "runs", runs, quiet);
    for (uint64_t done = 0; done < runs;) {
        uint64_t chunk = runs - done < 100 ? runs - done : 100;
        sprt_simulate(pdf, kinds, spec, done, chunk, cap, seed, sim);
        done += chunk;
        progress_update(&progress, done, "");
    }
    progress_finish(&progress, runs, "");
}

int cmd_sprt(int argc, char **argv)
{
    const char *cmd = "sprt", *counts_text = NULL, *args[1];
    long runs = 0;
    uint64_t seed = 1;
    bool quiet = false;
    const CliOpt opts[] = {
        {.name = "--counts", .kind = CLI_TEXT, .out = &counts_text},
        {.name = "--simulate", .kind = CLI_INT, .out = &runs, .min = 1, .max = 1000000},
        {.name = "--seed", .kind = CLI_U64, .out = &seed},
        {.name = "--quiet", .kind = CLI_FLAG, .out = &quiet},
    };
    int n, rc = cli_parse(cmd, argc, argv, opts, sizeof opts / sizeof *opts, args, 1, &n);
    if (rc) return rc;
    if (n != 1) return cli_usage_error(cmd, "one argument, the bounds E0,E1,ALPHA,BETA[,MODEL]");
    char err[ERR_LEN];
    SprtSpec spec;
    if (sprt_parse(args[0], &spec, err)) return cli_usage_error(cmd, "%s", err);
    double shape[5];
    uint64_t counts[5];
    int kinds;
    if (shape_of(counts_text, shape, counts, &kinds, err)) return cli_usage_error(cmd, "--counts: %s", err);
    const char *unit = kinds == 5 ? "pairs" : "games";
    Sprt bounds = sprt_test(counts, 0, &spec);
    printf("test         H0 elo=%g vs H1 elo=%g (%s), alpha %g beta %g: llr bounds %.3f, %.3f\n", spec.elo0,
           spec.elo1, sprt_model_name(spec.model), spec.alpha, spec.beta, bounds.lower, bounds.upper);
    if (counts_text) print_counts(counts, kinds, &spec);
    printf("shape        %s", counts_text ? "of the counts:" : "YINSH pairs (the default):");
    for (int i = 0; i < kinds; i++) printf(" %.3f", shape[i]);
    printf("\n");
    for (int h = 0; h < 2; h++) {
        double pdf[5], elo = h ? spec.elo1 : spec.elo0, p_h1 = h ? 1 - spec.beta : spec.alpha;
        if (sprt_tilt(shape, kinds, elo, spec.model, pdf))
            return cli_error(cmd, "no distribution of this shape has Elo %g in the %s model", elo,
                             sprt_model_name(spec.model));
        double expected = sprt_expected_samples(pdf, kinds, &spec, p_h1);
        printf("at elo%d      %s %.0f %s expected (Wald), H1 accepted with probability %g\n", h,
               h ? "(H1)" : "(H0)", expected, unit, p_h1);
        if (!runs) continue;
        SprtSim sim = {0};
        simulate(pdf, kinds, &spec, (uint64_t)runs, (uint64_t)ceil(100 * expected) + 100, seed + (uint64_t)h, quiet,
                 &sim);
        uint64_t decided = sim.h1 + sim.h0;
        Interval rate = stats_wilson((double)sim.h1 / (double)sim.runs, (double)sim.runs, STATS_Z95);
        printf("simulated    %" PRIu64 " run%s: H1 accepted in %.2f%% (95%% CI %.2f%% to %.2f%%), mean %.0f %s",
               sim.runs, number_plural(sim.runs), 100 * rate.mid, 100 * rate.lo, 100 * rate.hi,
               decided ? sim.samples / (double)decided : 0, unit);
        if (sim.open) printf(", %" PRIu64 " undecided", sim.open);
        printf("\n");
    }
    return 0;
}
