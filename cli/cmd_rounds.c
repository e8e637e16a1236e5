/* yinsh rounds: self-play, fit and match, round after round while the new
 * weights gain (study/plans/rounds.h, docs/rounds.md). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "engine/base/clock.h"
#include "cli/commands.h"
#include "engine/base/json.h"
#include "study/plans/rounds_text.h"
#include "engine/base/number.h"

typedef struct RoundsCtx {
    const char *cmd;
    bool quiet;
    PlannedOptions o;
    const char *command;
    int rounds;
    bool net;
} RoundsCtx;

/* The rounds' advice when a stored run under a round's name has another plan. */
static const char ROUNDS_REFUSED[] = ": give the agent, weights, sizes, seed, controls and training options they were started with, "
                                     "or another --name or database";

static int play_run(void *ctx, const Planned *run)
{
    RoundsCtx *c = ctx;
    bool match = !strcmp(run->kind, "match");
    if (run->state == PLANNED_COMPLETE) {
        if (!c->quiet) fprintf(stderr, "yinsh %s: run %s is complete: its games are reused\n", c->cmd, run->name);
        return 0;
    }
    if (match && !c->quiet) {
        char a[SPEC_LEN], b[SPEC_LEN];
        fprintf(stderr, "yinsh %s: run %s (%s): %s vs %s, %u game%s\n", c->cmd, run->name,
                planned_state_name(run->state), agent_spec_format(&run->plan.white, a),
                agent_spec_format(&run->plan.black, b), run->plan.games, number_plural(run->plan.games));
    }
    Planned p = *run;
    p.command = c->command;
    CliPlay show = {.cmd = c->cmd, .quiet = c->quiet, .k = 0, .n = 1,
                    .repeat = match ? "a tournament's runs are new games: give it another name, seed or database"
                                    : "the rounds' runs are new games: give another --name, --seed or --db"};
    return cli_play_planned(&show, &p, &c->o);
}

static void show_fitted(void *ctx, const RoundRow *w)
{
    RoundsCtx *c = ctx;
    if (c->quiet) return;
    fprintf(stderr, "yinsh %s: ", c->cmd);
    rounds_fitted_write(stderr, w, c->rounds, c->net);
}

static void show_judged(void *ctx, const RoundRow *w)
{
    RoundsCtx *c = ctx;
    if (c->quiet) return;
    fprintf(stderr, "yinsh %s: ", c->cmd);
    rounds_judged_write(stderr, w, c->rounds);
}

/* The command line, as parsed. */
typedef struct RoundsArgs {
    const char *agent_text, *name;
    long rounds, games, pairs;
    long hidden, l2, epochs; /* -1: not given */
    double lambda;           /* -1: not given */
    bool json;
    CliShared sh;
    CliControls ctl;
} RoundsArgs;

/* The whole command line into r, before anything is stored or written:
 * 0, or the exit status. */
static int check_args(const char *cmd, RoundsArgs *a, Rounds *r)
{
    char err[ERR_LEN];
    int rc = cli_shared_check(cmd, &a->sh);
    if (rc) return rc;
    const char *train_opt = a->hidden >= 0 ? "--hidden" : a->l2 >= 0 ? "--l2" : a->epochs >= 0 ? "--epochs"
                            : a->lambda >= 0 ? "--lambda" : NULL;
    if (!train_opt && r->warm) train_opt = "--warm";
    if (train_opt && !r->net) return cli_usage_error(cmd, "%s trains nets: it needs --net", train_opt);
    nnue_train_options_default(&r->train);
    if (a->hidden >= 0) r->train.hidden = (int)a->hidden;
    if (a->l2 >= 0) r->train.l2 = (int)a->l2;
    if (a->epochs >= 0) r->train.epochs = (int)a->epochs;
    if (a->lambda >= 0) r->train.lambda = a->lambda;
    if (r->net && r->train.hidden % 16)
        return cli_usage_error(cmd, "--hidden %d: a multiple of 16 is needed", r->train.hidden);
    if ((rc = cli_agent(cmd, "the agent", a->agent_text, &r->agent))) return rc;
    const AgentSpec *agents[] = {&r->agent};
    if ((rc = cli_controls_check(cmd, &a->ctl, a->sh.db, agents, 1, &r->controls))) return rc;
    snprintf(r->name, sizeof r->name, "%s", a->name);
    if (strlen(a->name) > ROUNDS_NAME_LEN) r->name[0] = '\0'; /* refused by rounds_check, naming it */
    r->rounds = (int)a->rounds;
    r->games = (uint32_t)a->games;
    r->pairs = (uint32_t)a->pairs;
    r->where = cli_planned_options(&a->sh);
    if (rounds_check(r, err))
        return cli_usage_error(cmd, "%s%s%s", err, r->name[0] ? "" : ": ", r->name[0] ? "" : a->name);
    if (r->net) {
        /* the starting net, loaded as the first round will load it */
        AgentSpec s;
        char eval[AGENT_PATH_LEN + 8];
        snprintf(eval, sizeof eval, AGENT_NET_PREFIX "%s", r->from);
        agent_spec_copy(&s, &r->agent);
        rc = agent_spec_set(&s, "eval", eval, err);
        const Nnue *w0 = rc ? NULL : agent_spec_net(&s);
        int h0 = w0 ? nnue_hidden(w0) : 0, l0 = w0 ? nnue_l2(w0) : 0;
        bool lin0 = w0 && nnue_has_linear(w0);
        agent_spec_release(&s);
        if (rc) return rc == ERR_USAGE ? cli_usage_error(cmd, "--from: %s", err) : cli_error(cmd, "--from: %s", err);
        /* a warm start goes on from W0's shape */
        if (r->warm) {
            r->train.linear = lin0;
            if (a->hidden < 0) r->train.hidden = h0;
            if (a->l2 < 0) r->train.l2 = l0;
            if (r->train.hidden != h0 || r->train.l2 != l0)
                return cli_usage_error(cmd, "--warm: the net --from '%s' has hidden %d and l2 %d, not the hidden %d "
                                            "and l2 %d asked for", r->from, h0, l0, r->train.hidden, r->train.l2);
        }
    } else {
        Weights w0;
        if (weights_load(r->from, &w0, err)) return cli_error(cmd, "--from: %s", err);
    }
    /* what is written (DIR/NAME.csv, DIR/NAME.k.txt or .nnue) against what is read */
    bool builtin = r->net && !strcmp(r->from, AGENT_NET_BUILTIN);
    const char *inputs[] = {a->sh.db, r->from}, *input_opts[] = {"--db", "--from"};
    FolderWrites w = {.dir = r->dir, .writes = rounds_writes_file, .ctx = r};
    return cli_check_writes(cmd, "--out-dir", &w, inputs, input_opts, builtin ? 1 : 2);
}

static int parse_args(int argc, char **argv, RoundsArgs *a, Rounds *r)
{
    const CliOpt opts[] = {
        CLI_CONTROL_OPTIONS(&a->ctl),
        {.name = "--agent", .kind = CLI_TEXT, .out = &a->agent_text,
         .required = "--agent SPEC (the agent whose evaluation is tuned) is required"},
        {.name = "--from", .kind = CLI_TEXT, .out = &r->from,
         .required = "--from is required: with --net, --from NET (the starting net file, or builtin); without, "
                     "--from WEIGHTS (the starting weights file)"},
        {.name = "--db", .kind = CLI_TEXT, .out = &a->sh.db, .required = "--db PATH is required"},
        {.name = "--name", .kind = CLI_TEXT, .out = &a->name,
         .required = "--name NAME (the runs' and files' prefix) is required"},
        {.name = "--out-dir", .kind = CLI_TEXT, .out = &r->dir,
         .required = "--out-dir DIR (the folder of the weights files) is required"},
        {.name = "--rounds", .kind = CLI_INT, .out = &a->rounds, .min = 1, .max = ROUNDS_MAX},
        {.name = "--games", .kind = CLI_INT, .out = &a->games, .min = 1, .max = STORE_MAX_GAMES},
        {.name = "--pairs", .kind = CLI_INT, .out = &a->pairs, .min = 1, .max = STORE_MAX_GAMES / 2},
        {.name = "--seed", .kind = CLI_U64, .out = &r->seed},
        CLI_THREADS_OPTION(&a->sh.threads),
        CLI_BUSY_OPTION(&a->sh),
        CLI_QUIET_OPTION(&a->sh),
        {.name = "--json", .kind = CLI_FLAG, .out = &a->json},
        {.name = "--net", .kind = CLI_FLAG, .out = &r->net},
        {.name = "--warm", .kind = CLI_FLAG, .out = &r->warm},
        {.name = "--hidden", .kind = CLI_INT, .out = &a->hidden, .min = NNUE_MIN_HIDDEN, .max = NNUE_MAX_HIDDEN},
        {.name = "--l2", .kind = CLI_INT, .out = &a->l2, .min = 0, .max = NNUE_MAX_L2},
        {.name = "--epochs", .kind = CLI_INT, .out = &a->epochs, .min = 1, .max = NNUE_TRAIN_MAX_EPOCHS},
        {.name = "--lambda", .kind = CLI_REAL, .out = &a->lambda, .min = 0, .max = 1},
    };
    int npos;
    return cli_parse("rounds", argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
}

int cmd_rounds(int argc, char **argv)
{
    const char *cmd = "rounds";
    RoundsArgs a = {.rounds = 5, .games = 2000, .pairs = 200, .hidden = -1, .l2 = -1, .epochs = -1, .lambda = -1,
                    .sh = CLI_SHARED_DEFAULTS};
    Rounds r = {.seed = 1};
    RoundRow *rows = NULL;
    char err[ERR_LEN], *command = NULL;
    int rc = parse_args(argc, argv, &a, &r);
    if (rc || (rc = check_args(cmd, &a, &r))) goto done;
    if (!(rows = calloc((size_t)r.rounds, sizeof *rows)) || !(command = cli_join_args(argc, argv))) {
        rc = cli_error(cmd, "out of memory");
        goto done;
    }
    RoundsCtx c = {.cmd = cmd, .quiet = a.sh.quiet, .o = r.where, .command = command, .rounds = r.rounds,
                  .net = r.net};

    char csv[2 * AGENT_PATH_LEN];
    snprintf(csv, sizeof csv, "%s/%s.csv", r.dir, r.name);
    if (!c.quiet)
        fprintf(stderr, "yinsh %s: %s: at most %d round%s of %u self-play game%s and %u pair%s from %s into %s; "
                        "%s and %s in %s\n", cmd, r.name, r.rounds, number_plural((uint64_t)r.rounds), r.games,
                number_plural(r.games), r.pairs, number_plural(r.pairs), r.from, r.where.db, r.net ? "nets" : "weights", csv, r.dir);
    double t0 = clock_now();
    RoundsHooks hooks = {.play = play_run, .fitted = show_fitted, .judged = show_judged, .ctx = &c};
    int n = 0, best = 0;
    rc = rounds_run(&r, &hooks, rows, &n, &best, err);
    if (rc < 0) rc = cli_error(cmd, "%s%s", err, rc == ERR_EXISTS ? ROUNDS_REFUSED : "");
    if (rc > 128) fprintf(stderr, "yinsh %s: the same command picks up where the rounds stopped\n", cmd);
    if (rc) goto done;
    if (!c.quiet) fprintf(stderr, "yinsh %s: done in %.1f s\n", cmd, clock_now() - t0);
    if (a.json) {
        Json j;
        json_begin_command(&j, stdout, cmd, argc, argv);
        rounds_json_write(&j, &r, rows, n, best, csv);
        json_end(&j);
    } else {
        rounds_table_write(stdout, &r, rows, n, best);
    }

done:
    agent_spec_release(&r.agent);
    free(rows);
    free(command);
    return rc;
}
