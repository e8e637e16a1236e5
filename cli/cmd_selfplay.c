/* yinsh selfplay: a self-play run, stored game by game in the database. */
#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli.h"
#include "engine/base/clock.h"
#include "cli/commands.h"
#include "selfplay/play/distribute.h"
#include "engine/base/json.h"
#include "engine/notation.h"
#include "engine/base/parallel.h"
#include "selfplay/play/run.h"
#include "selfplay/play/run_summary.h"
#include "selfplay/records/summary_text.h"
#include "engine/base/number.h"

/* After each stored batch: the progress line. */
static void show_progress(void *ctx, const Run *run)
{
    char tail[128];
    run_tally(&run->sum, tail, sizeof tail);
    progress_update(ctx, run->done, tail);
}

/* Plays the games an open self-play run lacks (run->todo) with progress
 * on stderr (a first line naming the run, unless quiet) and Ctrl-C
 * handled, then marks the run finished: 0; 1 after printing a failure;
 * 128 + the signal after an interruption, with the hint to resume. */
static int selfplay_play(const char *cmd, Run *run, bool quiet)
{
    char err[ERR_LEN];
    if (run->worker) return cli_run_work(cmd, run);
    if (!quiet) {
        fprintf(stderr, "yinsh %s: ", cmd);
        run_describe(stderr, run);
        fputc('\n', stderr);
    }

    Progress progress = {0};
    DistStats dist;
    double t0 = clock_now();
    progress_start(&progress, "games", run->ntodo, quiet);
    RunHooks hooks = {.stored = show_progress, .ctx = &progress, .interrupt = interrupt_catch(), .dist = &dist};
    cli_mpi_signal_note(cmd, run);
    int failed = run_play(run, &hooks, err);
    interrupt_note(NULL);
    if (failed) {
        if (progress.shown) fprintf(stderr, "\n");
        int rc = cli_error(cmd, "%s", err);
        run_hint(stderr, cmd, run);
        return rc;
    }
    if (interrupt_signal()) {
        if (progress.shown) fprintf(stderr, "\n");
        fprintf(stderr, "yinsh %s: interrupted (%s)\n", cmd, strsignal(interrupt_signal()));
        run_hint(stderr, cmd, run);
        return 128 + interrupt_signal();
    }
    char tail[128];
    run_tally(&run->sum, tail, sizeof tail);
    progress_finish(&progress, run->done, tail);
    if (!quiet) run_dist_summary(stderr, cmd, &dist, clock_now() - t0);
    if (run->done < run->ntodo) {
        /* a rank failed and said so; its games are missing */
        cli_error(cmd, "%" PRIu64 " of the %u game%s to play were not stored", (uint64_t)run->ntodo - run->done,
                  run->ntodo, number_plural(run->ntodo));
        run_hint(stderr, cmd, run);
        return 1;
    }
    if (run_finish(run, err)) return cli_error(cmd, "%s", err);
    return 0;
}

/* The command line, as parsed. */
typedef struct SelfplayArgs {
    const char *variant_text, *white, *black, *agent, *opening, *book_path, *resign, *resign_check;
    bool have_games, json;
    long games;
    CliRun r;
    CliControls ctl;
} SelfplayArgs;

/* --resume takes the run's own parameters; a new run names its games and
 * its sides once: 0, or the usage error's status. */
static int check_mode(const char *cmd, const SelfplayArgs *a)
{
    const RunOptions *o = &a->r.o;
    if (o->resume) {
        if (a->have_games || o->have_seed || a->variant_text || a->white || a->black || a->agent || o->name ||
            o->no_db || a->opening || a->book_path || o->plan.store_visits || cli_controls_plan_given(&a->ctl) ||
            a->resign || a->resign_check)
            return cli_usage_error(cmd, "--resume takes the run's own parameters: only --db, --threads, "
                                        "--busy-timeout, --take-over, --shard, --engine-logs, --engine-timeout "
                                        "and --quiet go with it");
        return 0;
    }
    if (!a->have_games) return cli_usage_error(cmd, "--games N is required (or --resume RUN)");
    if (o->take_over) return cli_usage_error(cmd, "--take-over goes with --resume");
    if (a->agent && (a->white || a->black))
        return cli_usage_error(cmd, "--agent sets both sides: use it or --white/--black");
    if (a->resign_check && !a->resign) return cli_usage_error(cmd, "--resign-check goes with --resign");
    if (!a->white != !a->black)
        return cli_usage_error(cmd, "--%s without --%s: give both sides, or --agent for both",
                               a->white ? "white" : "black", a->white ? "black" : "white");
    return 0;
}

/* A new run's variant, opening and agents into its plan. */
static int check_plan(const char *cmd, SelfplayArgs *a)
{
    SelfplayPlan *plan = &a->r.o.plan;
    int rc;
    if (a->variant_text && !variant_parse(a->variant_text, &plan->variant))
        return cli_usage_error(cmd, "unknown variant '%s' (" VARIANT_EXPECTED ")", a->variant_text);
    if ((rc = cli_opening(cmd, a->opening, a->book_path, OPENING_NONE, &plan->opening, &plan->opening_actions)))
        return rc;
    const char *white = a->white ? a->white : a->agent ? a->agent : SELFPLAY_DEFAULT_AGENT;
    const char *black = a->black ? a->black : a->agent ? a->agent : SELFPLAY_DEFAULT_AGENT;
    if ((rc = cli_agent_in(cmd, a->white ? "white agent" : "the agent", white, a->ctl.engines, &plan->white)) ||
        (rc = cli_agent_in(cmd, a->black ? "black agent" : "the agent", black, a->ctl.engines, &plan->black)))
        run_plan_release(plan);
    return rc;
}

/* The whole command line into the run's options, before any file is
 * touched (but the book, read last): 0, or the exit status (the plan's
 * agents given back). */
static int check_args(const char *cmd, SelfplayArgs *a, Book *book)
{
    RunOptions *o = &a->r.o;
    char err[ERR_LEN];
    int rc;
    o->plan.variant = VARIANT_STANDARD;
    if ((rc = check_mode(cmd, a)) || (rc = cli_run_check(cmd, &a->r))) return rc;
    if (!o->resume && (rc = check_plan(cmd, a))) return rc;
    /* a resumed run's engines log where --engine-logs says, else nowhere */
    const AgentSpec *agents[] = {&o->plan.white, &o->plan.black};
    if ((rc = cli_controls_check(cmd, &a->ctl, o->db, agents, o->resume ? 0 : 2, &o->plan.controls))) goto fail;
    o->plan.games = (uint32_t)a->games;
    if (a->resign) {
        ResignRule *rule = &o->plan.controls.resign;
        rule->check = RESIGN_DEFAULT_CHECK;
        if (resign_parse(a->resign, rule, err) || (a->resign_check && resign_parse_check(a->resign_check, rule, err))) {
            rc = cli_usage_error(cmd, "%s", err);
            goto fail;
        }
    }
    if (a->book_path) {
        if (book_load(book, a->book_path, o->plan.variant, err)) {
            rc = cli_error(cmd, "%s (nothing was played)", err);
            goto fail;
        }
        o->plan.book = book;
    }
    return 0;
fail:
    run_plan_release(&o->plan);
    return rc;
}

/* The summary (JSON or text) and, unless quiet, the rate: also after an
 * interruption (a data job is often stopped). */
static void print_end(const char *cmd, const SelfplayArgs *a, const Run *run, int rc, uint64_t actions_now,
                      double seconds, int argc, char **argv)
{
    if (!rc && a->json) {
        Json j;
        run_json_begin(&j, stdout, cmd, argc, argv, run, run->plan.variant);
        run_summary_json(&j, run, actions_now, seconds);
        json_end(&j);
    } else if (!rc) {
        record_summary_print(stdout, run->row.name, &run->sum);
        if (run->plan.controls.resign.value > 0)
            run_resign_print(stdout, &run->plan.controls.resign, &run->resign, &run->sum);
    }
    if (!a->r.sh.quiet && (!rc || rc > 128))
        run_rate_write(stderr, cmd, actions_now, seconds, parallel_threads(run->plan.threads) * dist_ranks());
}

int cmd_selfplay(int argc, char **argv)
{
    const char *cmd = "selfplay";
    SelfplayArgs a = {.r = CLI_RUN_DEFAULTS("selfplay")};
    RunOptions *o = &a.r.o;
    const CliOpt opts[] = {
        CLI_CONTROL_OPTIONS(&a.ctl),
        {.name = "--games", .kind = CLI_INT, .out = &a.games, .min = 1, .max = 100000000, .seen = &a.have_games},
        {.name = "--variant", .kind = CLI_TEXT, .out = &a.variant_text},
        {.name = "--white", .kind = CLI_TEXT, .out = &a.white},
        {.name = "--black", .kind = CLI_TEXT, .out = &a.black},
        {.name = "--agent", .kind = CLI_TEXT, .out = &a.agent},
        {.name = "--opening", .kind = CLI_TEXT, .out = &a.opening},
        {.name = "--book", .kind = CLI_TEXT, .out = &a.book_path},
        {.name = "--resume", .kind = CLI_TEXT, .out = &o->resume},
        {.name = "--take-over", .kind = CLI_FLAG, .out = &o->take_over},
        {.name = "--json", .kind = CLI_FLAG, .out = &a.json},
        {.name = "--resign", .kind = CLI_TEXT, .out = &a.resign},
        {.name = "--resign-check", .kind = CLI_TEXT, .out = &a.resign_check},
        CLI_RUN_OPTIONS(&a.r),
    };
    int npos;
    int rc = cli_parse(cmd, argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
    Book book = {0};
    if (rc || (rc = check_args(cmd, &a, &book))) {
        book_free(&book);
        return rc;
    }
    Run run = {0};
    if ((rc = cli_run_open(cmd, &a.r, argc, argv, &run))) goto done;
    /* a resumed run's engines come from its row: checked now, before its first game */
    const AgentSpec *stored[] = {&run.plan.white, &run.plan.black};
    if (o->resume && !run.worker && (rc = cli_check_engines(cmd, stored, 2, &run.plan.controls))) goto done;
    double t0 = clock_now();
    uint64_t actions0 = run.sum.actions;
    rc = selfplay_play(cmd, &run, a.r.sh.quiet);
    if (!run.worker) print_end(cmd, &a, &run, rc, run.sum.actions - actions0, clock_now() - t0, argc, argv);
done:
    cli_run_close(&a.r, &run);
    book_free(&book);
    return rc;
}
