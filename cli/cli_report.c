/* The command line's side of a report written into a folder, for `yinsh
 * report` and `yinsh study`: the selection checked for games, the gnuplot
 * scripts found, and what is printed; the report itself is study/report/
 * (report_publish, report_write_json). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "engine/base/json.h"
#include "study/report/plots_dir.h"
#include "study/report/report.h"

/* A searched reference's progress: games scored of the selected. */
typedef struct RefProgress {
    Progress p;
    uint64_t done;
    bool quiet, started;
} RefProgress;

static void ref_progress(void *ctx, int64_t done, int64_t total)
{
    RefProgress *r = ctx;
    if (!r->started) progress_start(&r->p, "reference games", (uint64_t)total, r->quiet);
    r->started = true;
    r->done = (uint64_t)done;
    progress_update(&r->p, r->done, "");
}

/* The games of a report that scores them (not a match report): 0, or
 * the exit status after saying why (none selected included). */
static int load_games(const char *cmd, const CliReport *job, Report *rep)
{
    const StoreSelection *sel = &job->sel;
    const char *db = job->db;
    int nnames = sel->nruns;
    char err[ERR_LEN];
    RefProgress progress = {.quiet = job->quiet};
    ReportLoadOptions lo = {.reference = job->reference, .progress = ref_progress, .progress_ctx = &progress};
    int loaded = report_load_with(rep, db, (int)job->busy, sel, &lo, err);
    if (progress.started) progress_finish(&progress.p, progress.done, "(copies and unfinished games are not scored)");
    if (loaded) return loaded == ERR_USAGE ? cli_usage_error(cmd, "%s", err) : cli_error(cmd, "%s", err);
    if (rep->games == 0) {
        if (nnames)
            return cli_error(cmd, "the selected %s of '%s' hold%s no games%s: nothing to report",
                             nnames > 1 ? "runs" : "run", db, nnames > 1 ? "" : "s",
                             sel->kind ? " of this kind (self-play runs by default: --kind match or --kind all)" : "");
        return cli_error(cmd, "database '%s' holds no games%s: nothing to report (`yinsh selfplay` plays some)", db,
                         sel->kind || sel->agent || sel->variant ? " in this selection" : "");
    }
    rep->margin = job->margin;
    if (report_compare(rep, job->declared, job->ndeclared)) return cli_error(cmd, "out of memory");
    return 0;
}

int cli_report_write(const char *cmd, const CliReport *job)
{
    const char *db = job->db, *out = job->out, *plots = job->plots;
    const StoreSelection *sel = &job->sel;
    int rc = 0;
    char *md = NULL, err[ERR_LEN], plots_buf[4096];
    size_t md_len = 0;
    Report rep = {0};
    ReportPictures pics;
    bool matches = sel->kind && !strcmp(sel->kind, "match"), drawn = false;

    if (!matches && (rc = load_games(cmd, job, &rep))) goto done;
    if (!plots && !job->no_plots && !matches) plots = report_plots_find(YINSH_SOURCE_DIR, plots_buf, sizeof plots_buf);
    ReportJob rj = {.db = db, .busy_ms = (int)job->busy, .sel = *sel, .out = out, .plots = plots,
                    .no_plots = job->no_plots, .cmdline = job->cmdline};
    if (report_publish(&rj, matches ? NULL : &rep, &md, &md_len, &pics, &drawn, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    if (!job->quiet && !job->json) fwrite(md, 1, md_len, stdout);
    fprintf(stderr, "yinsh %s: wrote %s/report.md\n", cmd, out);
    /* the match report has no pictures and no JSON */
    if (matches) goto done;
    if (drawn && pics.note[0]) fprintf(stderr, "yinsh %s: %s\n", cmd, pics.note);
    if (job->json) {
        Json j;
        json_begin_command(&j, stdout, "report", job->argc, job->argv);
        report_write_json(&j, &rep, out, drawn ? &pics : NULL);
        json_end(&j);
    }

done:
    free(md);
    report_free(&rep);
    return rc;
}
