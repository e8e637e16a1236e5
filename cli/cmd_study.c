/* yinsh study: a study file's runs, each played, resumed or skipped by its
 * state in the database, then their report. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/commands.h"
#include "engine/notation.h"
#include "study/plans/study.h"
#include "study/plans/study_text.h"
#include "engine/base/number.h"

/* Plays the runs not complete yet, in order: 0, or the exit status. */
static int play_runs(const char *cmd, const Study *s, Planned *runs, const CliShared *sh, const PlannedOptions *o,
                     const char *shard)
{
    int count[PLANNED_STATES] = {0};
    for (int i = 0; i < s->nruns; i++) count[runs[i].state]++;
    if (!sh->quiet)
        fprintf(stderr, "yinsh %s: %s: study %s, %d run%s into %s: %d complete, %d unfinished, %d to play\n", cmd,
                s->path, s->name, s->nruns, number_plural((uint64_t)s->nruns), sh->db, count[PLANNED_COMPLETE],
                count[PLANNED_UNFINISHED],
                count[PLANNED_MISSING]);
    CliPlay show = {.cmd = cmd, .quiet = sh->quiet, .summary = true,
                    .repeat = "a study's runs are new games: give the study another database (db =) or another "
                              "seed, or report the run that holds them"};
    for (int i = 0; i < s->nruns; i++) {
        const StudyRun *r = &s->runs[i];
        if (runs[i].state == PLANNED_COMPLETE) {
            if (!sh->quiet) fprintf(stderr, "yinsh %s: run %s is already complete (%u game%s)\n", cmd, r->name,
                                    r->plan.games, number_plural(r->plan.games));
            continue;
        }
        char *command = study_run_command(r, sh->db, shard);
        if (!command) return cli_error(cmd, "out of memory");
        runs[i].command = command;
        show.k = i;
        show.n = s->nruns;
        int rc = cli_play_planned(&show, &runs[i], o);
        runs[i].command = NULL;
        free(command);
        if (rc > 128 && shard)
            fprintf(stderr, "yinsh %s: `yinsh study %s --shard %s --db %s` picks up where the shard stopped\n", cmd,
                    s->path, shard, sh->db);
        else if (rc > 128)
            fprintf(stderr, "yinsh %s: `yinsh study %s` picks up where the study stopped\n", cmd, s->path);
        if (rc) return rc;
    }
    return 0;
}

/* A build of a work tree with changes not committed plays a study only
 * when --allow-dirty or YINSH_ALLOW_DIRTY=1 says so (study_build_check). */
static int build_check(const char *cmd, const Study *s, const Planned *runs, bool allow)
{
    const char *env = getenv("YINSH_ALLOW_DIRTY");
    return study_build_check(stderr, cmd, s, runs, allow || (env && !strcmp(env, "1"))) ? 0 : 1;
}

/* --shard and --db together, and the shard's database not the study's. */
static int shard_check(const char *cmd, const Study *s, const char *shard, const char *db)
{
    if (!shard && db) return cli_usage_error(cmd, "--db names a shard's database: with --shard K/N only (the "
                                                  "study's database is the file's db)");
    if (shard && !db) return cli_usage_error(cmd, "--shard plays a slice into a database of its own: give it with --db");
    if (shard && !strcmp(db, s->db))
        return cli_usage_error(cmd, "--db %s is the study's database: a shard plays into its own, merged later", db);
    return 0;
}

/* The command line, as parsed. */
typedef struct StudyArgs {
    CliShared sh;
    bool check, allow_dirty;
    const char *shard, *shard_db, *file;
    uint32_t shard_k, shard_n; /* --shard K/N; 0/0: every game */
} StudyArgs;

static int parse_args(int argc, char **argv, StudyArgs *a)
{
    const char *cmd = "study";
    const CliOpt opts[] = {
        {.name = "--shard", .kind = CLI_TEXT, .out = &a->shard},
        {.name = "--db", .kind = CLI_TEXT, .out = &a->shard_db},
        CLI_THREADS_OPTION(&a->sh.threads),
        {.name = "--check", .kind = CLI_FLAG, .out = &a->check},
        {.name = "--allow-dirty", .kind = CLI_FLAG, .out = &a->allow_dirty},
        CLI_QUIET_OPTION(&a->sh),
        CLI_BUSY_OPTION(&a->sh),
    };
    const char *pos[1];
    int npos;
    int rc = cli_parse(cmd, argc, argv, opts, sizeof opts / sizeof *opts, pos, 1, &npos);
    if (rc) return rc;
    if (npos != 1) return cli_usage_error(cmd, "a study FILE is required");
    a->file = pos[0];
    return 0;
}

/* The study file and the report's reference evaluator, read as the
 * report will read it: 0, or the exit status after saying why. */
static int load_study(const char *cmd, const char *file, Study *s)
{
    char err[ERR_LEN];
    int got = study_load(s, file, err);
    if (got == ERR_USAGE) {
        fprintf(stderr, "yinsh %s: %s\n(docs/study.md describes study files; nothing was stored)\n", cmd, err);
        return EXIT_USAGE;
    }
    if (got) return cli_error(cmd, "%s", err);
    if (s->reference && (got = report_reference_check(s->reference, err))) {
        fprintf(stderr, "yinsh %s: %s:%d: %s\n(docs/study.md describes study files; nothing was stored)\n", cmd, s->path,
                s->reference_line, err);
        return got == ERR_USAGE ? EXIT_USAGE : 1;
    }
    return 0;
}

/* The shard, the database and the report's folder against what the study
 * reads, before any run. */
static int check_where(const char *cmd, StudyArgs *a, Study *s)
{
    char err[ERR_LEN];
    int rc;
    if (a->shard && (rc = cli_shard(cmd, a->shard, &a->shard_k, &a->shard_n))) return rc;
    if ((rc = shard_check(cmd, s, a->shard, a->shard_db))) return rc;
    a->sh.db = a->shard ? a->shard_db : s->db;
    if ((rc = cli_shared_check(cmd, &a->sh))) return rc;
    const char *inputs[] = {a->sh.db, s->path}, *input_opts[] = {"the study's database", "the study file"};
    if ((rc = cli_check_report_out(cmd, "the report folder", s->report_out, inputs, input_opts, 2))) return rc;
    if (study_report_owner_check(s, err)) return cli_error(cmd, "%s", err);
    return 0;
}

/* The engines of the runs to play start and shake hands before the first game. */
static int check_engines(const char *cmd, const Study *s, const Planned *runs)
{
    const AgentSpec **agents = calloc((size_t)s->nruns, sizeof *agents);
    int nagents = 0, rc = 0;
    if (!agents) return cli_error(cmd, "out of memory");
    for (int i = 0; i < s->nruns; i++)
        if (runs[i].state != PLANNED_COMPLETE) agents[nagents++] = &s->runs[i].plan.white;
    if (nagents) rc = cli_check_engines(cmd, agents, nagents, &s->runs[0].plan.controls);
    free(agents);
    return rc;
}

/* The report of the whole study, once every run is played. */
static int write_report(const char *cmd, const Study *s, const CliShared *sh, const char *cmdline)
{
    char err[ERR_LEN];
    const char **names = calloc((size_t)s->nruns, sizeof *names);
    if (!names) return cli_error(cmd, "out of memory");
    for (int i = 0; i < s->nruns; i++) names[i] = s->runs[i].name;
    ReportComparison declared[STUDY_MAX_COMPARE];
    for (int i = 0; i < s->ncompare; i++) {
        const StudyCompare *c = &s->compare[i];
        declared[i] = (ReportComparison){.a = c->spec[0], .b = c->spec[1], .name_a = c->label[0], .name_b = c->label[1],
                                       .opening_a = c->opening[0], .opening_b = c->opening[1]};
    }
    CliReport job = {.db = sh->db, .busy = sh->busy, .sel = {.runs = names, .nruns = s->nruns}, .out = s->report_out,
                     .no_plots = !s->plots, .quiet = sh->quiet, .cmdline = cmdline, .declared = declared,
                     .ndeclared = s->ncompare, .reference = s->reference, .margin = s->margin / 100};
    int rc = cli_report_write(cmd, &job);
    if (!rc && study_report_owner_mark(s, err)) rc = cli_error(cmd, "%s", err);
    free(names);
    return rc;
}

int cmd_study(int argc, char **argv)
{
    const char *cmd = "study";
    StudyArgs a = {.sh = CLI_SHARED_DEFAULTS};
    int rc = parse_args(argc, argv, &a);
    if (rc) return rc;

    /* The file, then the database, before anything is stored. */
    Study s;
    Planned *runs = NULL;
    char err[ERR_LEN], *cmdline = NULL;
    if ((rc = load_study(cmd, a.file, &s)) || (rc = check_where(cmd, &a, &s))) goto done;
    if (!(runs = calloc((size_t)s.nruns, sizeof *runs)) || !(cmdline = cli_join_args(argc, argv))) {
        rc = cli_error(cmd, "out of memory");
        goto done;
    }
    PlannedOptions o = cli_planned_options(&a.sh);
    o.shard = a.shard_k;
    o.shards = a.shard_n;
    if (study_state(&s, &o, runs, err)) {
        rc = cli_error(cmd, "%s (nothing was stored)", err);
        goto done;
    }
    if ((rc = check_engines(cmd, &s, runs))) goto done;
    if (a.check) {
        study_plan_print(stdout, &s, runs, a.shard_k, a.shard_n);
        goto done;
    }
    if ((rc = build_check(cmd, &s, runs, a.allow_dirty)) || (rc = play_runs(cmd, &s, runs, &a.sh, &o, a.shard)))
        goto done;
    if (a.shard) {
        /* a slice of the games: the report waits for all of them */
        if (!a.sh.quiet)
            fprintf(stderr,
                    "yinsh %s: shard %s of study %s is in %s. Once every shard is played: `yinsh merge --db %s "
                    "SHARD.db...`, then `yinsh study %s` writes the report\n",
                    cmd, a.shard, s.name, a.sh.db, s.db, s.path);
        goto done;
    }
    rc = write_report(cmd, &s, &a.sh, cmdline);
done:
    free(cmdline);
    free(runs);
    study_free(&s);
    return rc;
}
