/* yinsh sprt: what an SPRT's bounds cost before a match runs it, and the
 * test's state for counts already played (selfplay/match/sprt.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/commands.h"
#include "selfplay/match/sprt_cost.h"

/* The command line, as parsed. */
typedef struct SprtArgs {
    const char *counts, *bounds;
    long runs;
    uint64_t seed;
    bool quiet;
} SprtArgs;

static int parse_args(int argc, char **argv, SprtArgs *a)
{
    const char *cmd = "sprt", *args[1];
    const CliOpt opts[] = {
        {.name = "--counts", .kind = CLI_TEXT, .out = &a->counts},
        {.name = "--simulate", .kind = CLI_INT, .out = &a->runs, .min = 1, .max = 1000000},
        {.name = "--seed", .kind = CLI_U64, .out = &a->seed},
        {.name = "--quiet", .kind = CLI_FLAG, .out = &a->quiet},
    };
    int n, rc = cli_parse(cmd, argc, argv, opts, sizeof opts / sizeof *opts, args, 1, &n);
    if (rc) return rc;
    if (n != 1) return cli_usage_error(cmd, "one argument, the bounds E0,E1,ALPHA,BETA[,MODEL]");
    a->bounds = args[0];
    return 0;
}

/* The bounds and the shape into c: 0, or the exit status. */
static int check_args(const char *cmd, const SprtArgs *a, SprtCost *c)
{
    char err[ERR_LEN];
    *c = (SprtCost){.runs = (uint64_t)a->runs, .seed = a->seed};
    if (sprt_parse(a->bounds, &c->spec, err)) return cli_usage_error(cmd, "%s", err);
    if (sprt_cost_shape(c, a->counts, err)) return cli_usage_error(cmd, "--counts: %s", err);
    return 0;
}

/* The simulation's progress at each hypothesis. */
static void show_progress(void *ctx, int h, uint64_t done, uint64_t runs)
{
    (void)h;
    Progress *p = ctx;
    if (done == 0) return progress_start(p, "runs", runs, p->quiet);
    progress_update(p, done, "");
    if (done == runs) progress_finish(p, runs, "");
}

int cmd_sprt(int argc, char **argv)
{
    const char *cmd = "sprt";
    SprtArgs a = {.seed = 1};
    SprtCost c;
    char err[ERR_LEN];
    int rc = parse_args(argc, argv, &a);
    if (rc || (rc = check_args(cmd, &a, &c))) return rc;
    Progress progress = {.quiet = a.quiet};
    int failed = sprt_cost(&c, show_progress, &progress, err);
    sprt_cost_print_head(stdout, &c);
    for (int h = 0; h < c.nat; h++) sprt_cost_print_at(stdout, &c, h);
    return failed ? cli_error(cmd, "%s", err) : 0;
}
