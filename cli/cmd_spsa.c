/* yinsh spsa: tuning an agent spec's numeric parameters by SPSA, every
 * iteration a match run (study/plans/spsa_match.h, eval/spsa.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli/cli.h"
#include "base/clock.h"
#include "cli/commands.h"
#include "engine/notation.h"
#include "plans/spsa_match.h"

const char USAGE_SPSA[] =
    "usage: yinsh spsa --agent SPEC --param NAME=START:LO:HI [--param ...]\n"
    "                  --iterations N --out FILE.csv [--pairs P] [--name NAME]\n"
    "                  [--seed S] [--a A] [--c C] [--A A0] [--alpha X] [--gamma Y]\n"
    "                  [--variant V] [--db PATH] [--threads T] [--quiet]\n"
    "                  [--sims N | --movetime MS | --tc BASE+INC [--tc-margin MS]]\n"
    "  Tunes numeric parameters of an agent spec by SPSA (fishtest style): each\n"
    "  iteration k moves every parameter at once by +-c_k of its range (random\n"
    "  signs), plays the agent at the plus point against the agent at the minus\n"
    "  point in P colour-swapped pairs, and moves the point along the signs by\n"
    "  a_k * result / (2 c_k), where result is plus's (wins - losses) / games:\n"
    "    c_k = c / (k + 1)^gamma,   a_k = a / (k + 1 + A)^alpha\n"
    "  in units of each parameter's range (eval/spsa.h). Every game is stored:\n"
    "  iteration k is the match run NAME.k/plus-vs-minus. The same command again\n"
    "  recomputes the path from the stored games, resumes an unfinished\n"
    "  iteration and plays on (a killed run ends where an uninterrupted one\n"
    "  does); the whole path is rewritten to FILE.csv after every iteration.\n"
    "\n"
    "  --agent SPEC    the agent whose parameters are tuned (see `yinsh selfplay\n"
    "                  --help`), e.g. mcts:sims=100\n"
    "  --param NAME=START:LO:HI  a key of the spec (c, sims, rollout, depth, ...),\n"
    "                  its start and range; written as integers, it is played\n"
    "                  rounded; repeated for several (at most 16). w.FEATURE\n"
    "                  (w.markers, w.lines4, ...) is an evaluation weight of an\n"
    "                  agent with an evaluation: its weights files are written\n"
    "                  to FILE.weights/ (NAME.k.plus.txt, ..., final.txt)\n"
    "  --iterations N  iterations (1 to 100000)\n"
    "  --out FILE      the path as CSV: per iteration the point, the plus and\n"
    "                  minus values played, the signs, plus's results; then the\n"
    "                  final point\n"
    "  --pairs P       game pairs per iteration (default 1)\n"
    "  --name NAME     the runs' prefix (default spsa; 1 to 20 letters, digits,\n"
    "                  '.', '_', '+', '-')\n"
    "  --seed S        the seed of the signs and the games (default 1)\n"
    "  --a, --c, --A, --alpha, --gamma  the gains (defaults 0.02, 0.1, a tenth of\n"
    "                  the iterations, 0.602, 0.101)\n"
    "  --variant V     standard (default) or blitz\n"
    "  --db PATH       the SQLite database (default " RUN_DEFAULT_DB ")\n"
    "  --threads T     OpenMP threads (default: the number of cores)\n"
    CLI_CONTROL_USAGE
    "                  (the controls are part of every iteration's stored plan)\n"
    "  --busy-timeout MS  how long to wait for another process's lock (default 5000)\n"
    "  --quiet         no progress\n";

int cmd_spsa(int argc, char **argv)
{
    const char *cmd = "spsa";
    const char *agent_text = NULL, *out = NULL, *name = "spsa", *variant_text = NULL;
    CliList plist = {0};
    long iterations = 0, pairs = 1;
    uint64_t seed = 1;
    double gain[5] = {0};
    bool seen[5] = {false};
    CliRun cr = {.busy = STORE_BUSY_MS};
    CliControls ctl = {0};
    const CliOpt opts[] = {
        CLI_CONTROL_OPTIONS(&ctl),
        {.name = "--agent", .kind = CLI_TEXT, .out = &agent_text},
        {.name = "--param", .kind = CLI_TEXTS, .out = &plist},
        {.name = "--iterations", .kind = CLI_INT, .out = &iterations, .min = 1, .max = SPSA_MAX_ITERATIONS},
        {.name = "--out", .kind = CLI_TEXT, .out = &out},
        {.name = "--pairs", .kind = CLI_INT, .out = &pairs, .min = 1, .max = STORE_MAX_GAMES / 2},
        {.name = "--name", .kind = CLI_TEXT, .out = &name},
        {.name = "--seed", .kind = CLI_U64, .out = &seed},
        {.name = "--a", .kind = CLI_REAL, .out = &gain[0], .min = 0, .max = 1e6, .seen = &seen[0]},
        {.name = "--c", .kind = CLI_REAL, .out = &gain[1], .min = 0, .max = 1e6, .seen = &seen[1]},
        {.name = "--A", .kind = CLI_REAL, .out = &gain[2], .min = 0, .max = 1e9, .seen = &seen[2]},
        {.name = "--alpha", .kind = CLI_REAL, .out = &gain[3], .min = 0, .max = 1e6, .seen = &seen[3]},
        {.name = "--gamma", .kind = CLI_REAL, .out = &gain[4], .min = 0, .max = 1e6, .seen = &seen[4]},
        {.name = "--variant", .kind = CLI_TEXT, .out = &variant_text},
        {.name = "--db", .kind = CLI_TEXT, .out = &cr.o.db},
        {.name = "--threads", .kind = CLI_INT, .out = &cr.threads, .min = 1, .max = 1024},
        {.name = "--busy-timeout", .kind = CLI_INT, .out = &cr.busy, .min = 0, .max = 3600000},
        {.name = "--quiet", .kind = CLI_FLAG, .out = &cr.quiet},
    };
    SpsaRun s = {.seed = 1, .variant = VARIANT_STANDARD};
    SpsaStep *steps = NULL;
    char err[ERR_LEN], *command = NULL;
    int npos;
    int rc = cli_parse(cmd, argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
    if (rc) goto done;

    /* the whole command line first: nothing is played on a mistake */
    if (!agent_text) {
        rc = cli_usage_error(cmd, "--agent SPEC is required (the agent to tune)");
        goto done;
    }
    if (!iterations) {
        rc = cli_usage_error(cmd, "--iterations N is required");
        goto done;
    }
    if (!out || !*out) {
        rc = cli_usage_error(cmd, "--out FILE is required (the parameter path, CSV)");
        goto done;
    }
    const char *db = cr.o.db ? cr.o.db : RUN_DEFAULT_DB;
    if (!*db) {
        rc = cli_usage_error(cmd, "--db wants a path");
        goto done;
    }
    if (variant_text && !variant_parse(variant_text, &s.variant)) {
        rc = cli_usage_error(cmd, "unknown variant '%s' (standard or blitz)", variant_text);
        goto done;
    }
    if ((rc = cli_agent(cmd, "the agent", agent_text, &s.agent))) goto done;
    SelfplayPlan cplan = {.white = s.agent, .black = s.agent};
    if ((rc = cli_controls_check(cmd, &ctl, db, false, &cplan))) goto done;
    s.controls = cplan.controls;
    if (!agent_spec_has_keys(&s.agent)) {
        rc = cli_usage_error(cmd, "agent '%s' has no parameters to tune", agent_spec_kind_name(&s.agent));
        goto done;
    }
    if (plist.n > SPSA_MAX_PARAMS) {
        rc = cli_usage_error(cmd, "at most %d parameters (%d given)", SPSA_MAX_PARAMS, plist.n);
        goto done;
    }
    for (int i = 0; i < plist.n; i++)
        if (spsa_param_parse(plist.items[i], &s.params[s.nparams++], err)) {
            rc = cli_usage_error(cmd, "%s", err);
            goto done;
        }
    snprintf(s.name, sizeof s.name, "%.*s", SPSA_RUN_NAME_LEN, name);
    if (strlen(name) > SPSA_RUN_NAME_LEN) s.name[0] = '\0'; /* refused below, naming it */
    s.iterations = (int)iterations;
    s.pairs = (uint32_t)pairs;
    s.seed = seed;
    spsa_gains_default(&s.gains, s.iterations);
    double *g[5] = {&s.gains.a, &s.gains.c, &s.gains.A, &s.gains.alpha, &s.gains.gamma};
    for (int i = 0; i < 5; i++)
        if (seen[i]) *g[i] = gain[i];
    bool weights = false;
    for (int i = 0; i < s.nparams; i++) {
        int f;
        weights = weights || spsa_weight_param(s.params[i].name, &f);
    }
    if (weights && snprintf(s.weights_dir, sizeof s.weights_dir, "%s.weights", out) >= (int)sizeof s.weights_dir) {
        rc = cli_usage_error(cmd, "--out '%s': too long a path for the weights folder beside it", out);
        goto done;
    }
    if (spsa_run_check(&s, err)) {
        rc = cli_usage_error(cmd, "%s%s%s", err, s.name[0] ? "" : ": ", s.name[0] ? "" : name);
        goto done;
    }
    if (!(steps = calloc((size_t)s.iterations, sizeof *steps)) || !(command = cli_join_args(argc, argv))) {
        rc = cli_error(cmd, "out of memory");
        goto done;
    }
    cr.o.db = db;
    if (weights && mkdir(s.weights_dir, 0777) != 0 && errno != EEXIST) {
        rc = cli_error(cmd, "cannot create the folder '%s': %s", s.weights_dir, strerror(errno));
        goto done;
    }

    double u[SPSA_MAX_PARAMS];
    for (int i = 0; i < s.nparams; i++) u[i] = spsa_unit(&s.params[i], s.params[i].start);
    if (!cr.quiet)
        fprintf(stderr, "yinsh %s: %s: %d iterations of %u pairs into %s; path in %s\n", cmd, s.name, s.iterations,
                s.pairs, db, out);
    double t0 = clock_now();
    for (int k = 0; k < s.iterations; k++) {
        SpsaStep *st = &steps[k];
        Tournament t;
        TournamentState state;
        TournamentResults res = {0};
        if (spsa_iteration(&s, k, u, st, &t, err)) {
            rc = cli_usage_error(cmd, "iteration %d: %s", k, err);
            tournament_free(&t);
            goto done;
        }
        if (tournament_state(&t, db, &state, err)) {
            rc = cli_error(cmd, "iteration %d: %s", k, err);
            tournament_free(&t);
            goto done;
        }
        if (state != TOURNAMENT_COMPLETE && (rc = tournament_play_pairing(cmd, &t, 0, state, &cr, command))) {
            tournament_free(&t);
            goto done;
        }
        if (tournament_results(&t, db, 0, &res, err)) {
            rc = cli_error(cmd, "iteration %d: %s", k, err);
            tournament_free(&t);
            goto done;
        }
        spsa_step_finish(&s, st, &res.tally[0], u);
        tournament_results_free(&res);
        tournament_free(&t);
        if (spsa_path_write(out, &s, steps, k + 1, u, err)) {
            rc = cli_error(cmd, "%s", err);
            goto done;
        }
        if (!cr.quiet) {
            fprintf(stderr, "yinsh %s: iteration %d/%d: plus W %" PRIu64 " D %" PRIu64 " L %" PRIu64 " ->", cmd,
                    k + 1, s.iterations, st->tally.wins, st->tally.draws, st->tally.losses);
            for (int i = 0; i < s.nparams; i++) {
                const SpsaParam *p = &s.params[i];
                fprintf(stderr, " %s %.4g", p->name, p->lo + u[i] * (p->hi - p->lo));
            }
            fprintf(stderr, "\n");
        }
    }
    if (!cr.quiet) fprintf(stderr, "yinsh %s: done in %.1f s\n", cmd, clock_now() - t0);
    /* the result: the final point, and the agent it makes */
    AgentSpec best;
    char text[SPEC_LEN];
    if (spsa_agent_at(&s, u, "final", &best, text, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    printf("spsa         %s: %d iterations of %u pairs, seed %" PRIu64 ", gains a %g c %g A %g alpha %g gamma %g\n",
           s.name, s.iterations, s.pairs, s.seed, s.gains.a, s.gains.c, s.gains.A, s.gains.alpha, s.gains.gamma);
    for (int i = 0; i < s.nparams; i++) {
        const SpsaParam *p = &s.params[i];
        printf("%-12s %.6g (start %g, range %g to %g)\n", p->name, p->lo + u[i] * (p->hi - p->lo), p->start, p->lo,
               p->hi);
    }
    printf("agent        %s\n", text);
    printf("path         %s\n", out);

done:
    free(steps);
    free(command);
    cli_list_free(&plist);
    return rc;
}
