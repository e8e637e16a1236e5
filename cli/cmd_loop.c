/* yinsh loop: PUCT self-play that trains its own net, value and policy,
 * behind an SPRT gate, round after round (study/plans/loop.h, docs/loop.md). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/commands.h"
#include "engine/base/clock.h"
#include "engine/base/number.h"
#include "study/plans/loop.h"

/* An agent's text with eval=net:FROM added when it names no eval (the
 * loop replaces it every round; a PUCT spec needs one to parse). */
static int loop_agent(const char *cmd, const char *opt, const char *text, const char *from, AgentSpec *spec)
{
    char full[SPEC_LEN + AGENT_PATH_LEN + 16];
    if (strstr(text, "eval=") || snprintf(full, sizeof full, "%s,eval=" AGENT_NET_PREFIX "%s", text, from) >=
                                        (int)sizeof full)
        return cli_agent(cmd, opt, text, spec);
    return cli_agent(cmd, opt, full, spec);
}

typedef struct LoopCtx {
    const char *cmd;
    bool quiet;
    PlannedOptions o;
    const char *command;
    int rounds;
    uint32_t gate_total; /* the gate's most games */
    Progress gate;
    bool gate_shown;
    uint64_t gate_games; /* shown so far */
} LoopCtx;

static int play_run(void *ctx, const Planned *run)
{
    LoopCtx *c = ctx;
    Planned p = *run;
    p.command = c->command;
    CliPlay show = {.cmd = c->cmd, .quiet = c->quiet, .k = 0, .n = 1,
                    .repeat = "the loop's runs are new games: give another --name, --seed or --db"};
    return cli_play_planned(&show, &p, &c->o);
}

static void show_step(void *ctx, const LoopRow *r, const char *step, bool before)
{
    LoopCtx *c = ctx;
    if (c->quiet) return;
    if (c->gate_shown) {
        progress_finish(&c->gate, c->gate_games, NULL);
        c->gate_shown = false;
    }
    fprintf(stderr, "yinsh %s: ", c->cmd);
    loop_step_write(stderr, r, step, c->rounds, before);
}

static void show_gate(void *ctx, const MatchTally *t, uint64_t games)
{
    LoopCtx *c = ctx;
    if (c->quiet) return;
    if (!c->gate_shown) {
        progress_start(&c->gate, "gate games", c->gate_total, false);
        c->gate_shown = true;
    }
    char tail[96];
    snprintf(tail, sizeof tail, "W %" PRIu64 " D %" PRIu64 " L %" PRIu64, t->wins, t->draws, t->losses);
    c->gate_games = games;
    progress_update(&c->gate, games, tail);
}

/* The command line, as parsed, and the loop it makes. */
typedef struct LoopArgs {
    const char *agent_text, *gate_text, *name, *sprt_text;
    long rounds, games, window, gate_games, vepochs, pepochs, widen;
    CliShared sh;
    Loop l;
    bool have_agent, have_gate; /* l.agent, l.gate parsed: to give back */
} LoopArgs;

static int parse_args(int argc, char **argv, LoopArgs *a)
{
    Loop *l = &a->l;
    const CliOpt opts[] = {
        {.name = "--agent", .kind = CLI_TEXT, .out = &a->agent_text,
         .required = "--agent SPEC (the self-play agent, mcts:puct=1,...) is required"},
        {.name = "--from", .kind = CLI_TEXT, .out = &l->from, .required = "--from NET (net 0) is required"},
        {.name = "--db", .kind = CLI_TEXT, .out = &a->sh.db, .required = "--db PATH is required"},
        {.name = "--name", .kind = CLI_TEXT, .out = &a->name, .required = "--name NAME is required"},
        {.name = "--out-dir", .kind = CLI_TEXT, .out = &l->dir, .required = "--out-dir DIR is required"},
        {.name = "--rounds", .kind = CLI_INT, .out = &a->rounds, .min = 1, .max = LOOP_MAX_ROUNDS},
        {.name = "--games", .kind = CLI_INT, .out = &a->games, .min = 1, .max = STORE_MAX_GAMES},
        {.name = "--window", .kind = CLI_INT, .out = &a->window, .min = 1, .max = LOOP_MAX_WINDOW},
        {.name = "--lambda", .kind = CLI_REAL, .out = &l->lambda, .min = 0, .max = 1},
        {.name = "--value-epochs", .kind = CLI_INT, .out = &a->vepochs, .min = 1, .max = NNUE_TRAIN_MAX_EPOCHS},
        {.name = "--value-lr", .kind = CLI_REAL, .out = &l->value.lr, .min = 1e-7, .max = 1},
        {.name = "--policy-epochs", .kind = CLI_INT, .out = &a->pepochs, .min = 1, .max = 1000},
        {.name = "--policy-lr", .kind = CLI_REAL, .out = &l->policy.lr, .min = 1e-7, .max = 1},
        CLI_HEAD_OPTIONS(&l->policy, &a->widen),
        {.name = "--gate", .kind = CLI_TEXT, .out = &a->gate_text},
        {.name = "--sprt", .kind = CLI_TEXT, .out = &a->sprt_text},
        {.name = "--gate-games", .kind = CLI_INT, .out = &a->gate_games, .min = 2, .max = STORE_MAX_GAMES},
        {.name = "--seed", .kind = CLI_U64, .out = &l->seed},
        CLI_THREADS_OPTION(&a->sh.threads),
        CLI_BUSY_OPTION(&a->sh),
        CLI_QUIET_OPTION(&a->sh),
    };
    int npos;
    return cli_parse("loop", argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
}

/* The agents, the test, the sizes and the loop's name into a->l, checked
 * (loop_check): 0, or the exit status. */
static int check_loop(const char *cmd, LoopArgs *a)
{
    Loop *l = &a->l;
    char err[ERR_LEN];
    int rc;
    if ((rc = cli_shared_check(cmd, &a->sh))) return rc;
    if ((rc = loop_agent(cmd, "--agent", a->agent_text, l->from, &l->agent))) return rc;
    a->have_agent = true;
    if (a->gate_text) rc = loop_agent(cmd, "--gate", a->gate_text, l->from, &l->gate);
    else if (loop_default_gate(&l->agent, &l->gate, err)) rc = cli_usage_error(cmd, "--agent: %s", err);
    if (rc) return rc;
    a->have_gate = true;
    if (match_sprt_parse(a->sprt_text, &l->sprt, err)) return cli_usage_error(cmd, "--sprt: %s", err);
    snprintf(l->name, sizeof l->name, "%s", a->name);
    if (strlen(a->name) > LOOP_NAME_LEN) l->name[0] = '\0'; /* refused by loop_check, naming it */
    l->rounds = (int)a->rounds;
    l->games = (uint32_t)a->games;
    l->window = (int)a->window;
    l->gate_games = (uint32_t)a->gate_games;
    l->value.epochs = (int)a->vepochs;
    l->policy.epochs = (int)a->pepochs;
    l->where = cli_planned_options(&a->sh);
    if (loop_check(l, err))
        return cli_usage_error(cmd, "%s%s%s", err, l->name[0] ? "" : ": ", l->name[0] ? "" : a->name);
    return 0;
}

/* Net 0, read now as round 1 will read it, the head options against it
 * (as `yinsh train --policy` checks them against its --init net), and the
 * folder the loop writes. */
static int check_files(const char *cmd, LoopArgs *a)
{
    Loop *l = &a->l;
    char err[ERR_LEN];
    Nnue *net0 = NULL;
    int lrc = nnue_load(&net0, l->from, err);
    bool patterns = !lrc && nnue_has_patterns(net0);
    if (lrc) return cli_error(cmd, "--from: %s", err);
    int rc = patterns ? cli_head_options_check(cmd, &l->policy, a->widen, true, net0, "--from", l->from) : 0;
    nnue_free(net0);
    if (!patterns)
        return cli_usage_error(cmd, "--from %s: the loop's nets have a linear and a pattern part (feature set 3 to 5, "
                                    "e.g. eval/nets/leaf32.nnue)", l->from);
    if (rc) return rc;
    const char *inputs[] = {a->sh.db, l->from}, *input_opts[] = {"--db", "--from"};
    FolderWrites w = {.dir = l->dir, .writes = loop_writes_file, .ctx = l};
    return cli_check_writes(cmd, "--out-dir", &w, inputs, input_opts, 2);
}

/* The rounds (loop_run) with their progress, then the table: 0, or the
 * exit status. */
static int run_loop(const char *cmd, LoopArgs *a, LoopRow *rows, const char *command)
{
    Loop *l = &a->l;
    char err[ERR_LEN];
    LoopCtx c = {.cmd = cmd, .quiet = a->sh.quiet, .o = l->where, .command = command, .rounds = l->rounds,
                 .gate_total = l->gate_games};
    if (!c.quiet)
        fprintf(stderr, "yinsh %s: %s: %d round%s of %u self-play game%s from %s into %s; nets and figures in %s\n", cmd,
                l->name, l->rounds, number_plural((uint64_t)l->rounds), l->games, number_plural(l->games), l->from,
                a->sh.db, l->dir);
    double t0 = clock_now();
    LoopHooks hooks = {.play = play_run, .step = show_step, .gate_progress = show_gate, .ctx = &c,
                       .interrupt = interrupt_catch()};
    int best = 0;
    int rc = loop_run(l, &hooks, rows, &best, err);
    if (c.gate_shown) progress_finish(&c.gate, c.gate_games, NULL);
    if (rc < 0) rc = cli_error(cmd, "%s", err);
    else if (rc == 1 && interrupt_signal()) {
        fprintf(stderr, "yinsh %s: interrupted; the same command goes on from there\n", cmd);
        rc = 128 + interrupt_signal();
    }
    if (rc) return rc;
    if (!c.quiet) fprintf(stderr, "yinsh %s: done in %.1f s\n", cmd, clock_now() - t0);
    loop_table_write(stdout, l, rows, l->rounds, best);
    return 0;
}

int cmd_loop(int argc, char **argv)
{
    const char *cmd = "loop";
    LoopArgs a = {.sprt_text = "0,10,0.05,0.05", .rounds = 10, .games = 2000, .window = 4, .gate_games = 2000,
                  .vepochs = 4, .pepochs = 4, .sh = CLI_SHARED_DEFAULTS, .l = {.seed = 1, .lambda = 0.5}};
    nnue_train_options_default(&a.l.value);
    a.l.value.lr = 0.0005;
    policy_train_options_default(&a.l.policy);
    a.l.policy.lr = 0.01;
    LoopRow *rows = NULL;
    char *command = NULL;
    int rc = parse_args(argc, argv, &a);
    if (rc || (rc = check_loop(cmd, &a)) || (rc = check_files(cmd, &a))) goto done;
    if (!(rows = calloc((size_t)a.l.rounds, sizeof *rows)) || !(command = cli_join_args(argc, argv))) {
        rc = cli_error(cmd, "out of memory");
        goto done;
    }
    rc = run_loop(cmd, &a, rows, command);
done:
    if (a.have_agent) agent_spec_release(&a.l.agent);
    if (a.have_gate) agent_spec_release(&a.l.gate);
    free(rows);
    free(command);
    return rc;
}
