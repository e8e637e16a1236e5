/* yinsh study: a study file's runs, each played, resumed or skipped by its
 * state in the database, then their report. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/commands.h"
#include "engine/notation.h"
#include "plans/study.h"

const char USAGE_STUDY[] =
    "usage: yinsh study FILE [--threads T] [--check] [--quiet] [--busy-timeout MS]\n"
    "  Runs the study that FILE describes (an INI file: docs/study.md): a\n"
    "  self-play run for each agent and variant, the same agent on both sides,\n"
    "  into the study's database, then the report of those runs (as `yinsh\n"
    "  report` writes it) into the study's report folder and on stdout.\n"
    "  Run k (agents in file order, then variants in the order listed) is\n"
    "  named STUDY-VARIANT-LABEL and has seed SEED + k, so the file fixes\n"
    "  every game.\n"
    "\n"
    "  The whole file is checked first (every key, agent spec and weights\n"
    "  file; a mistake names the file and line), then the database (a stored\n"
    "  run with a study run's name must be that run): nothing is stored when\n"
    "  anything is wrong. A complete run is skipped, an unfinished one resumed\n"
    "  (as `yinsh selfplay --resume`), a missing one played: a second `yinsh\n"
    "  study FILE` plays nothing, and a killed study picks up where it stopped,\n"
    "  ending with the same games as one that was never stopped.\n"
    "\n"
    "  --threads T        OpenMP threads (default: the number of cores)\n"
    "  --check            check the file and the database, print each run and\n"
    "                     its state (complete, unfinished, missing); play nothing\n"
    "  --quiet            no progress or run lines, no report on stdout\n"
    "  --busy-timeout MS  how long to wait for another process's lock (default 5000)\n"
    "  Exit status: 2 for a mistake in the file or the options, 1 when the\n"
    "  file or the database cannot be read, a stored run differs from the\n"
    "  study's, or a run fails; 130 (143) after Ctrl-C (SIGTERM).\n";

static const char *const STATE_NAME[] = {"missing", "unfinished", "complete"};

/* The `yinsh selfplay` command that makes the same run (stored with it:
 * it reproduces the run on its own, whatever becomes of the file). */
static char *selfplay_command(const Study *s, const StudyRun *r)
{
    char games[16], seed[24];
    snprintf(games, sizeof games, "%u", r->plan.games);
    snprintf(seed, sizeof seed, "%" PRIu64, r->plan.seed);
    char *argv[] = {"selfplay", "--games", games, "--variant", (char *)variant_name(r->plan.variant),
                    "--agent", (char *)r->spec, "--seed", seed, "--run", (char *)r->name, "--db", s->db};
    return cli_join_args(sizeof argv / sizeof *argv, argv);
}

static void print_plan(const Study *s, const StudyState *states)
{
    printf("%-40s %-8s %-24s %9s %20s  %s\n", "run", "variant", "agent", "games", "seed", "state");
    for (int i = 0; i < s->nruns; i++) {
        const StudyRun *r = &s->runs[i];
        printf("%-40s %-8s %-24s %9u %20" PRIu64 "  %s\n", r->name, variant_name(r->plan.variant), r->spec,
               r->plan.games, r->plan.seed, STATE_NAME[states[i]]);
    }
}

/* Plays or resumes one run of the study: 0, or the exit status. */
static int play_run(const char *cmd, const Study *s, const StudyRun *sr, StudyState state, long threads, long busy,
                    bool quiet)
{
    RunOptions o = {.kind = "selfplay", .db = s->db, .busy_ms = (int)busy, .plan = sr->plan, .have_seed = true};
    o.plan.threads = (int)threads;
    if (state == STUDY_UNFINISHED) o.resume = sr->name;
    else o.name = sr->name;
    char err[ERR_LEN], *command = selfplay_command(s, sr);
    if (!command) return cli_error(cmd, "out of memory");
    o.command = command;
    Run run;
    int rc = 0;
    if ((rc = run_open(&run, &o, err))) {
        bool repeat = rc == ERR_REPEAT;
        rc = cli_error(cmd, "%s", err);
        if (repeat)
            fprintf(stderr, "yinsh %s: a study's runs are new games: give the study another database (db =) or "
                            "another seed, or report the run that holds them\n", cmd);
        goto done;
    }
    if ((rc = cli_selfplay_play(cmd, &run, quiet))) goto done;
    if (!quiet)
        fprintf(stderr,
                "yinsh %s: run %s complete: %" PRIu64 " games, White %" PRIu64 ", Black %" PRIu64
                ", draws %" PRIu64 ", hash %016" PRIx64 "\n",
                cmd, run.row.name, run.sum.games, run.sum.wins[RESULT_WHITE], run.sum.wins[RESULT_BLACK],
                run.sum.wins[RESULT_DRAW], run.sum.hash);
done:
    run_close(&run);
    free(command);
    return rc;
}

int cmd_study(int argc, char **argv)
{
    const char *cmd = "study";
    long threads = 0, busy = STORE_BUSY_MS;
    bool check = false, quiet = false;
    const CliOpt opts[] = {
        CLI_THREADS_OPTION(&threads),
        {.name = "--check", .kind = CLI_FLAG, .out = &check},
        {.name = "--quiet", .kind = CLI_FLAG, .out = &quiet},
        {.name = "--busy-timeout", .kind = CLI_INT, .out = &busy, .min = 0, .max = 3600000},
    };
    const char *pos[1];
    int npos;
    int rc = cli_parse(cmd, argc, argv, opts, sizeof opts / sizeof *opts, pos, 1, &npos);
    if (rc) return rc;
    if (npos != 1) return cli_usage_error(cmd, "a study FILE is required");

    /* The file, then the database, before anything is stored. */
    Study s;
    StudyState *states = NULL;
    char err[ERR_LEN], *cmdline = NULL;
    const char **names = NULL;
    int got = study_load(&s, pos[0], err);
    if (got == ERR_USAGE) {
        fprintf(stderr, "yinsh %s: %s\n(docs/study.md describes study files; nothing was stored)\n", cmd, err);
        rc = EXIT_USAGE;
        goto done;
    }
    if (got) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    if (!(states = calloc((size_t)s.nruns, sizeof *states)) || !(names = calloc((size_t)s.nruns, sizeof *names)) ||
        !(cmdline = cli_join_args(argc, argv))) {
        rc = cli_error(cmd, "out of memory");
        goto done;
    }
    if (study_state(&s, states, err)) {
        rc = cli_error(cmd, "%s (nothing was stored)", err);
        goto done;
    }
    if (check) {
        print_plan(&s, states);
        goto done;
    }

    int count[3] = {0};
    for (int i = 0; i < s.nruns; i++) count[states[i]]++;
    if (!quiet)
        fprintf(stderr, "yinsh %s: %s: study %s, %d runs into %s: %d complete, %d unfinished, %d to play\n", cmd,
                s.path, s.name, s.nruns, s.db, count[STUDY_COMPLETE], count[STUDY_UNFINISHED], count[STUDY_MISSING]);
    for (int i = 0; i < s.nruns; i++) {
        const StudyRun *r = &s.runs[i];
        names[i] = r->name;
        if (states[i] == STUDY_COMPLETE) {
            if (!quiet) fprintf(stderr, "yinsh %s: run %s is already complete (%u games)\n", cmd, r->name, r->plan.games);
            continue;
        }
        if ((rc = play_run(cmd, &s, r, states[i], threads, busy, quiet))) {
            if (rc > 128)
                fprintf(stderr, "yinsh %s: `yinsh study %s` picks up where the study stopped\n", cmd, s.path);
            goto done;
        }
    }

    CliReport job = {.db = s.db, .sel = {.runs = names, .nruns = s.nruns}, .out = s.report_out,
                     .no_plots = !s.plots, .quiet = quiet, .cmdline = cmdline};
    rc = cli_report_write(cmd, &job);

done:
    free(cmdline);
    free(names);
    free(states);
    study_free(&s);
    return rc;
}
