/* yinsh match: agent A against agent B in colour-swapped pairs, with Elo,
 * its interval, LOS, the pentanomial counts and an optional SPRT. */
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
#include "selfplay/play/run_summary.h"
#include "engine/base/json.h"
#include "selfplay/match/match.h"
#include "selfplay/match/match_text.h"
#include "engine/notation.h"
#include "engine/base/number.h"

/* Progress: A's results so far, their score, the Elo difference from
 * the pairs with the half-width of its 95% interval and, with an SPRT, the
 * log-likelihood ratio between its bounds. */
typedef struct MatchProgress {
    Progress progress;
    const MatchSprt *sprt;
} MatchProgress;

static void show_progress(void *ctx, const MatchTally *t, uint64_t done)
{
    MatchProgress *m = ctx;
    char tail[256];
    match_progress_tail(t, m->sprt, tail, sizeof tail);
    size_t at = strlen(tail);
    if (dist_ranks() > 1)
        snprintf(tail + at, sizeof tail - at, ", ranks alive %d/%d", dist_ranks_alive(), dist_ranks());
    progress_update(&m->progress, done, tail);
}

/* The command line, as parsed. */
typedef struct MatchArgs {
    const char *a, *b, *variant_text, *sprt_text, *opening, *book_path;
    bool json;
    long games;
    CliRun r;
    CliControls ctl;
} MatchArgs;

/* The whole command line into mp and the run's options, before any file
 * is touched (but the book, read last): 0, or the exit status. */
static int check_args(const char *cmd, MatchArgs *m, MatchPlan *mp, Book *book)
{
    char err[ERR_LEN];
    int rc;
    SelfplayPlan *plan = &m->r.o.plan;
    plan->variant = VARIANT_STANDARD;
    plan->opening = OPENING_RINGS;
    plan->pairs = true;
    if (m->games == 0) m->games = m->sprt_text ? MATCH_DEFAULT_SPRT_GAMES : MATCH_DEFAULT_GAMES;
    if (m->games % 2) return cli_usage_error(cmd, "--games wants an even number (pairs of games), not %ld", m->games);
    if ((rc = cli_run_check(cmd, &m->r))) return rc;
    if (m->variant_text && !variant_parse(m->variant_text, &plan->variant))
        return cli_usage_error(cmd, "unknown variant '%s' (" VARIANT_EXPECTED ")", m->variant_text);
    if ((rc = cli_opening(cmd, m->opening, m->book_path, OPENING_RINGS, &plan->opening, &plan->opening_actions)))
        return rc;
    if ((rc = cli_agent_in(cmd, "agent A", m->a, m->ctl.engines, &plan->white)) ||
        (rc = cli_agent_in(cmd, "agent B", m->b, m->ctl.engines, &plan->black)))
        return rc;
    const AgentSpec *agents[] = {&plan->white, &plan->black};
    if ((rc = cli_controls_check(cmd, &m->ctl, m->r.o.db, agents, 2, &plan->controls))) return rc;
    if (m->sprt_text && match_sprt_parse(m->sprt_text, &mp->sprt, err))
        return cli_usage_error(cmd, "--sprt: %s", err);
    if (m->sprt_text && m->r.shard)
        return cli_usage_error(cmd, "--sprt decides on the whole match, a shard holds a slice: not with --shard");
    plan->games = (uint32_t)m->games;
    if (m->book_path) {
        if (book_load(book, m->book_path, plan->variant, err)) return cli_error(cmd, "%s (nothing was played)", err);
        plan->book = book;
    }
    return 0;
}

/* Plays the open run (rank 0) with its progress and Ctrl-C handled: 0,
 * or the exit status after printing why. */
static int play(const char *cmd, MatchArgs *m, Run *run, MatchPlan *mp, MatchResult *res)
{
    char err[ERR_LEN];
    bool quiet = m->r.sh.quiet;
    MatchProgress mprog = {.sprt = &mp->sprt};
    Progress *progress = &mprog.progress;
    mp->plan = run->plan;
    if (!quiet)
        fprintf(stderr, "yinsh match: run %s%s%s, seed %" PRIu64 ", %s, A %s vs B %s, %u game%s, %d thread%s\n",
                run->row.name, run->store ? " in " : "", run->store ? run->db : "", mp->plan.seed,
                variant_name(mp->plan.variant), run->row.white, run->row.black, mp->plan.games,
                number_plural(mp->plan.games), run->row.threads, number_plural((uint64_t)run->row.threads));
    progress_start(progress, "games", mp->plan.games, quiet);
    mp->progress = show_progress;
    mp->ctx = &mprog;
    mp->interrupt = interrupt_catch();
    DistStats dist;
    mp->dist = &dist;
    cli_mpi_signal_note(cmd, run);
    double tplay = clock_now();
    int failed = match_run(mp, run, res, err);
    interrupt_note(NULL);
    if (failed) {
        if (progress->shown) fprintf(stderr, "\n");
        int rc = cli_error(cmd, "%s", err);
        run_hint(stderr, cmd, run);
        return rc;
    }
    if (interrupt_signal() && !res->decided_at) {
        if (progress->shown) fprintf(stderr, "\n");
        fprintf(stderr, "yinsh %s: interrupted (%s)\n", cmd, strsignal(interrupt_signal()));
        run_hint(stderr, cmd, run);
        return 128 + interrupt_signal();
    }
    char tail[256];
    match_progress_tail(&res->tally, &mp->sprt, tail, sizeof tail);
    progress_finish(progress, 2 * res->tally.pairs, tail);
    if (!quiet) run_dist_summary(stderr, cmd, &dist, clock_now() - tplay);
    if (run_finish(run, err)) return cli_error(cmd, "%s", err);
    return 0;
}

int cmd_match(int argc, char **argv)
{
    const char *cmd = "match";
    MatchArgs m = {.r = CLI_RUN_DEFAULTS("match")};
    const CliOpt opts[] = {
        CLI_CONTROL_OPTIONS(&m.ctl),
        {.name = "--a", .kind = CLI_TEXT, .out = &m.a, .required = "--a SPEC and --b SPEC are required"},
        {.name = "--b", .kind = CLI_TEXT, .out = &m.b, .required = "--a SPEC and --b SPEC are required"},
        {.name = "--games", .kind = CLI_INT, .out = &m.games, .min = 2, .max = 100000000},
        {.name = "--variant", .kind = CLI_TEXT, .out = &m.variant_text},
        {.name = "--sprt", .kind = CLI_TEXT, .out = &m.sprt_text},
        {.name = "--opening", .kind = CLI_TEXT, .out = &m.opening},
        {.name = "--book", .kind = CLI_TEXT, .out = &m.book_path},
        {.name = "--json", .kind = CLI_FLAG, .out = &m.json},
        CLI_RUN_OPTIONS(&m.r),
    };
    int npos;
    int rc = cli_parse(cmd, argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
    if (rc) return rc;
    MatchPlan mp = {0};
    Book book = {0};
    Run run = {0};
    MatchResult res;
    double t0 = 0;
    if ((rc = check_args(cmd, &m, &mp, &book))) goto done;
    t0 = clock_now();
    if ((rc = cli_run_open(cmd, &m.r, argc, argv, &run))) goto done;
    if (run.worker) rc = cli_run_work(cmd, &run);
    else if (!(rc = play(cmd, &m, &run, &mp, &res)) && m.json) {
        Json j;
        run_json_begin(&j, stdout, cmd, argc, argv, &run, mp.plan.variant);
        match_result_json(&j, &run, &mp, &res, clock_now() - t0);
        json_end(&j);
    } else if (!rc) {
        match_result_print(stdout, &run.row, &run.sum, &mp, &res);
    }

done:
    cli_run_close(&m.r, &run);
    book_free(&book);
    return rc;
}
