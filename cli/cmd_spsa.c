/* yinsh spsa: tuning an agent spec's numeric parameters by SPSA, every
 * iteration a match run (study/plans/spsa_match.h, eval/spsa.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli/cli.h"
#include "engine/base/clock.h"
#include "cli/commands.h"
#include "engine/notation.h"
#include "study/plans/spsa_text.h"
#include "engine/base/number.h"

/* The command line, as parsed. */
typedef struct SpsaArgs {
    const char *agent_text, *out, *name, *variant_text;
    CliList plist;
    long iterations, pairs;
    uint64_t seed;
    double gain[5];
    bool seen[5];
    CliShared sh;
    CliControls ctl;
} SpsaArgs;

/* The path (CSV) and every weights file written, against what is read:
 * the database, the agent's weights, the engines file. 0, or the exit
 * status. */
static int check_outputs(const char *cmd, const SpsaArgs *a, const SpsaRun *s)
{
    const char *inputs[] = {a->sh.db, s->agent.eval[0] ? s->agent.eval : NULL, a->ctl.engines};
    const char *input_opts[] = {"--db", "the agent's eval", "--engines"};
    int rc = cli_check_output(cmd, "--out", a->out, inputs, input_opts, 3);
    if (rc || !s->weights_dir[0]) return rc;
    FolderWrites w = {.dir = s->weights_dir, .writes = spsa_writes_weights, .ctx = s};
    return cli_check_writes(cmd, "the weights folder", &w, inputs, input_opts, 3);
}

/* The whole command line into s, before anything is played: 0, or the
 * exit status. */
static int check_args(const char *cmd, SpsaArgs *a, SpsaRun *s)
{
    char err[ERR_LEN];
    int rc;
    if ((rc = cli_shared_check(cmd, &a->sh))) return rc;
    if (a->variant_text && !variant_parse(a->variant_text, &s->variant))
        return cli_usage_error(cmd, "unknown variant '%s' (" VARIANT_EXPECTED ")", a->variant_text);
    if ((rc = cli_agent(cmd, "the agent", a->agent_text, &s->agent))) return rc;
    const AgentSpec *agents[] = {&s->agent};
    if ((rc = cli_controls_check(cmd, &a->ctl, a->sh.db, agents, 1, &s->controls))) return rc;
    if (!agent_spec_has_keys(&s->agent))
        return cli_usage_error(cmd, "agent '%s' has no parameters to tune", agent_spec_kind_name(&s->agent));
    if (a->plist.n > SPSA_MAX_PARAMS)
        return cli_usage_error(cmd, "at most %d parameters (%d given)", SPSA_MAX_PARAMS, a->plist.n);
    for (int i = 0; i < a->plist.n; i++)
        if (spsa_param_parse(a->plist.items[i], &s->params[s->nparams++], err))
            return cli_usage_error(cmd, "--param: %s", err);
    snprintf(s->name, sizeof s->name, "%.*s", SPSA_RUN_NAME_LEN, a->name);
    if (strlen(a->name) > SPSA_RUN_NAME_LEN) s->name[0] = '\0'; /* refused below, naming it */
    s->iterations = (int)a->iterations;
    s->pairs = (uint32_t)a->pairs;
    s->seed = a->seed;
    spsa_gains_default(&s->gains, s->iterations);
    double *g[5] = {&s->gains.a, &s->gains.c, &s->gains.A, &s->gains.alpha, &s->gains.gamma};
    for (int i = 0; i < 5; i++)
        if (a->seen[i]) *g[i] = a->gain[i];
    bool weights = false;
    for (int i = 0; i < s->nparams; i++) {
        int f;
        weights = weights || spsa_weight_param(s->params[i].name, &f);
    }
    if (weights && snprintf(s->weights_dir, sizeof s->weights_dir, "%s.weights", a->out) >= (int)sizeof s->weights_dir)
        return cli_usage_error(cmd, "--out '%s': too long a path for the weights folder beside it", a->out);
    if (!s->nparams) return cli_usage_error(cmd, "no parameter to tune: give --param NAME=START:LO:HI");
    if (spsa_run_check(s, err))
        return cli_usage_error(cmd, "%s%s%s", err, s->name[0] ? "" : ": ", s->name[0] ? "" : a->name);
    return check_outputs(cmd, a, s);
}

typedef struct SpsaCtx {
    const char *cmd;
    const SpsaRun *s;
    bool quiet;
    PlannedOptions o;
    const char *command;
} SpsaCtx;

static int play_iteration(void *ctx, const Planned *run)
{
    SpsaCtx *c = ctx;
    Planned p = *run;
    p.command = c->command;
    CliPlay show = {.cmd = c->cmd, .quiet = c->quiet, .k = 0, .n = 1,
                    .repeat = "a tournament's runs are new games: give it another name, seed or database"};
    return cli_play_planned(&show, &p, &c->o);
}

static void show_step(void *ctx, const SpsaStep *st, const double *u)
{
    SpsaCtx *c = ctx;
    if (c->quiet) return;
    fprintf(stderr, "yinsh %s: ", c->cmd);
    spsa_step_write(stderr, c->s, st, u);
}

/* The result: the final point, and the agent it makes. */
static int print_result(const char *cmd, const SpsaRun *s, const double *u, const char *out)
{
    AgentSpec best;
    char text[SPEC_LEN], err[ERR_LEN];
    if (spsa_agent_at(s, u, "final", &best, text, err)) return cli_error(cmd, "%s", err);
    spsa_result_write(stdout, s, u, text, out);
    return 0;
}

static int parse_args(int argc, char **argv, SpsaArgs *a)
{
    const CliOpt opts[] = {
        CLI_CONTROL_OPTIONS(&a->ctl),
        {.name = "--agent", .kind = CLI_TEXT, .out = &a->agent_text,
         .required = "--agent SPEC is required (the agent to tune)"},
        {.name = "--param", .kind = CLI_TEXTS, .out = &a->plist},
        {.name = "--iterations", .kind = CLI_INT, .out = &a->iterations, .min = 1, .max = SPSA_MAX_ITERATIONS,
         .required = "--iterations N is required"},
        {.name = "--out", .kind = CLI_TEXT, .out = &a->out,
         .required = "--out FILE is required (the parameter path, CSV)"},
        {.name = "--pairs", .kind = CLI_INT, .out = &a->pairs, .min = 1, .max = STORE_MAX_GAMES / 2},
        {.name = "--name", .kind = CLI_TEXT, .out = &a->name},
        {.name = "--seed", .kind = CLI_U64, .out = &a->seed},
        {.name = "--a", .kind = CLI_REAL, .out = &a->gain[0], .min = 0, .max = 1e6, .seen = &a->seen[0]},
        {.name = "--c", .kind = CLI_REAL, .out = &a->gain[1], .min = 0, .max = 1e6, .seen = &a->seen[1]},
        {.name = "--A", .kind = CLI_REAL, .out = &a->gain[2], .min = 0, .max = 1e9, .seen = &a->seen[2]},
        {.name = "--alpha", .kind = CLI_REAL, .out = &a->gain[3], .min = 0, .max = 1e6, .seen = &a->seen[3]},
        {.name = "--gamma", .kind = CLI_REAL, .out = &a->gain[4], .min = 0, .max = 1e6, .seen = &a->seen[4]},
        {.name = "--variant", .kind = CLI_TEXT, .out = &a->variant_text},
        CLI_DB_OPTION(&a->sh),
        CLI_THREADS_OPTION(&a->sh.threads),
        CLI_BUSY_OPTION(&a->sh),
        CLI_QUIET_OPTION(&a->sh),
    };
    int npos;
    return cli_parse("spsa", argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
}

int cmd_spsa(int argc, char **argv)
{
    const char *cmd = "spsa";
    SpsaArgs a = {.name = "spsa", .pairs = 1, .seed = 1, .sh = CLI_SHARED_DEFAULTS};
    SpsaRun s = {.seed = 1, .variant = VARIANT_STANDARD};
    SpsaStep *steps = NULL;
    char err[ERR_LEN], *command = NULL;
    int rc = parse_args(argc, argv, &a);
    if (rc || (rc = check_args(cmd, &a, &s))) goto done;
    if (!(steps = calloc((size_t)s.iterations, sizeof *steps)) || !(command = cli_join_args(argc, argv))) {
        rc = cli_error(cmd, "out of memory");
        goto done;
    }
    if (s.weights_dir[0] && mkdir(s.weights_dir, 0777) != 0 && errno != EEXIST) {
        rc = cli_error(cmd, "cannot create the folder '%s': %s", s.weights_dir, strerror(errno));
        goto done;
    }

    if (!a.sh.quiet)
        fprintf(stderr, "yinsh %s: %s: %d iteration%s of %u pair%s into %s; path in %s\n", cmd, s.name, s.iterations,
                number_plural((uint64_t)s.iterations), s.pairs, number_plural(s.pairs), a.sh.db, a.out);
    double t0 = clock_now(), u[SPSA_MAX_PARAMS];
    SpsaCtx c = {.cmd = cmd, .s = &s, .quiet = a.sh.quiet, .o = cli_planned_options(&a.sh), .command = command};
    SpsaHooks hooks = {.play = play_iteration, .stepped = show_step, .ctx = &c};
    rc = spsa_run(&s, &c.o, a.out, &hooks, steps, u, err);
    if (rc == ERR_USAGE) rc = cli_usage_error(cmd, "%s", err);
    else if (rc < 0) rc = cli_error(cmd, "%s%s", err, rc == ERR_EXISTS ? CLI_TOURNAMENT_REFUSED : "");
    if (rc) goto done;
    if (!a.sh.quiet) fprintf(stderr, "yinsh %s: done in %.1f s\n", cmd, clock_now() - t0);
    rc = print_result(cmd, &s, u, a.out);

done:
    agent_spec_release(&s.agent);
    free(steps);
    free(command);
    cli_list_free(&a.plist);
    return rc;
}
