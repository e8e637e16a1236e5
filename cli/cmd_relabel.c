/* yinsh relabel: the games of stored runs copied into a new run whose
 * searched positions carry another agent's values (selfplay/play/relabel.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli/cli.h"
#include "cli/commands.h"
#include "engine/base/interrupt.h"
#include "engine/base/number.h"
#include "engine/base/progress.h"
#include "selfplay/play/relabel.h"

/* The command line, parsed. */
typedef struct RelabelArgs {
    CliShared sh;
    CliList runs;
    const char *agent, *name, *seed;
    long every, games;
} RelabelArgs;

static int parse_args(int argc, char **argv, RelabelArgs *a)
{
    const CliOpt opts[] = {
        CLI_DB_OPTION(&a->sh),
        CLI_BUSY_OPTION(&a->sh),
        CLI_QUIET_OPTION(&a->sh),
        CLI_THREADS_OPTION(&a->sh.threads),
        {.name = "--runs", .kind = CLI_LIST, .out = &a->runs,
         .required = "--runs R1[,R2...] is required: the runs whose games are relabelled"},
        {.name = "--agent", .kind = CLI_TEXT, .out = &a->agent,
         .required = "--agent SPEC is required: the search whose values are stored (e.g. best:depth=6)"},
        {.name = "--run", .kind = CLI_TEXT, .out = &a->name, .required = "--run NEW is required: the new run's name"},
        {.name = "--every", .kind = CLI_INT, .out = &a->every, .min = 1, .max = RELABEL_MAX_EVERY},
        {.name = "--games", .kind = CLI_INT, .out = &a->games, .min = 1, .max = STORE_MAX_GAMES},
        {.name = "--seed", .kind = CLI_TEXT, .out = &a->seed},
    };
    int npos;
    return cli_parse("relabel", argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
}

/* After each stored game: the progress line over this attempt's games
 * (known once the sources are read), with the positions a second. */
static void show_progress(void *ctx, const RelabelProgress *p)
{
    Progress *pr = ctx;
    pr->total = p->total - p->done_before;
    char tail[96];
    snprintf(tail, sizeof tail, "%.1f positions/s", p->seconds > 0 ? (double)p->positions / p->seconds : 0.0);
    progress_update(ctx, p->done - p->done_before, tail);
}

int cmd_relabel(int argc, char **argv)
{
    const char *cmd = "relabel";
    RelabelArgs a = {.sh = CLI_SHARED_DEFAULTS, .every = RELABEL_DEFAULT_EVERY};
    AgentSpec agent = {0};
    char err[ERR_LEN], *command = NULL;
    Store *s = NULL;
    uint64_t seed = RELABEL_DEFAULT_SEED;
    int rc = parse_args(argc, argv, &a);
    if (!rc) rc = cli_shared_check(cmd, &a.sh);
    if (!rc && a.seed && !number_u64(a.seed, &seed))
        rc = cli_usage_error(cmd, "--seed '%s' is not a number from 0 to 2^64-1", a.seed);
    if (!rc && !a.name[0]) rc = cli_usage_error(cmd, "--run NEW is empty: give the new run a name");
    if (!rc && (rc = cli_agent(cmd, "--agent", a.agent, &agent)) == 0 && relabel_agent_check(&agent, err))
        rc = cli_usage_error(cmd, "--agent: %s", err);
    struct stat sb;
    if (!rc && stat(a.sh.db, &sb) != 0) rc = cli_error(cmd, "database '%s' does not exist", a.sh.db);
    if (!rc && !(command = cli_join_args(argc, argv))) rc = cli_error(cmd, "out of memory");
    if (!rc && store_open(&s, a.sh.db, STORE_WRITE, (int)a.sh.busy, err)) rc = cli_error(cmd, "%s", err);
    if (rc) goto done;

    RelabelPlan plan = {.runs = (const char *const *)a.runs.items, .nruns = a.runs.n, .agent = &agent,
                        .every = (uint32_t)a.every, .games = (uint32_t)a.games, .seed = seed,
                        .threads = (int)a.sh.threads, .name = a.name, .command = command};
    Progress progress = {0};
    progress_start(&progress, "games", 0, a.sh.quiet);
    RelabelHooks hooks = {.on_stored = show_progress, .ctx = &progress, .stop = interrupt_catch()};
    RelabelResult res;
    int lrc = relabel_run(s, &plan, &hooks, &res, err);
    if (lrc) {
        if (progress.shown) fputc('\n', stderr);
        rc = lrc == ERR_USAGE || lrc == ERR_NOT_FOUND ? cli_usage_error(cmd, "%s", err) : cli_error(cmd, "%s", err);
        if (lrc == ERR_EXISTS) fprintf(stderr, "yinsh %s: name another run with --run\n", cmd);
        goto done;
    }
    if (interrupt_signal() && !res.finished) {
        if (progress.shown) fputc('\n', stderr);
        fprintf(stderr, "yinsh %s: interrupted (%s): %u of %u games stored; the same command goes on from there\n",
                cmd, strsignal(interrupt_signal()), res.progress.done, res.progress.total);
        rc = 128 + interrupt_signal();
        goto done;
    }
    char tail[96];
    snprintf(tail, sizeof tail, "%.1f positions/s",
             res.progress.seconds > 0 ? (double)res.progress.positions / res.progress.seconds : 0.0);
    progress_finish(&progress, res.progress.done - res.progress.done_before, tail);
    if (!a.sh.quiet) {
        printf("relabel %s: %u games, %llu positions searched by %s in %.1f s", a.name, res.progress.total,
               (unsigned long long)res.progress.positions, a.agent, res.progress.seconds);
        if (res.progress.seconds > 0) printf(" (%.1f positions/s)", (double)res.progress.positions / res.progress.seconds);
        if (res.resumed) printf("; %u games were stored before", res.progress.done_before);
        printf("\n");
    }

done:
    store_close(s);
    agent_spec_release(&agent);
    cli_list_free(&a.runs);
    free(command);
    return rc;
}
