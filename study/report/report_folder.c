/* The report written into a folder (`yinsh report`, a study's report):
 * the match report, or the balance report with its pictures, as
 * report.md beside them, the Markdown also kept for the caller. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/base/folder.h"
#include "study/report/report.h"

int report_write_folder(const ReportJob *job, const Report *rep, const char *dir, char **md, size_t *md_len,
                        ReportPictures *pics, bool *drawn, char *err)
{
    char path[4200];
    int rc = 0;
    *md = NULL;
    *md_len = 0;
    *drawn = false;
    FILE *mf = open_memstream(md, md_len);
    if (!mf) return error_set(err, "out of memory");
    if (!rep) {
        /* the match report: a table, no pictures */
        rc = report_matches(job->db, job->busy_ms, &job->sel, job->cmdline, mf, err);
    } else {
        if (!job->no_plots) {
            if ((rc = report_draw(rep, dir, job->plots, pics, err))) goto done;
            *drawn = true;
        }
        report_write_markdown(rep, job->cmdline, *drawn ? pics : NULL, mf);
    }
done:
    fclose(mf);
    if (rc) return rc;
    snprintf(path, sizeof path, "%s/report.md", dir);
    FILE *f = fopen(path, "w");
    bool written = f && fwrite(*md, 1, *md_len, f) == *md_len;
    if (f && fclose(f) != 0) written = false;
    if (!written) return error_set(err, "cannot write '%s/report.md': %s", job->out, strerror(errno));
    return 0;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && !strcmp(s + n - t, tail);
}

bool report_folder_writes(const char *name, const void *ctx)
{
    (void)ctx;
    return !strcmp(name, "report.md") || !strcmp(name, "gnuplot.log") || ends_with(name, ".png") ||
           ends_with(name, ".dat");
}

int report_publish(const ReportJob *job, const Report *rep, char **md, size_t *md_len, ReportPictures *pics,
                   bool *drawn, char *err)
{
    char stage[4096];
    if (folder_stage_open(job->out, "report", stage, sizeof stage, err)) return ERR_FAIL;
    int rc = report_write_folder(job, rep, stage, md, md_len, pics, drawn, err);
    if (!rc && folder_stage_commit(stage, job->out, NULL, report_folder_writes, NULL) != 0)
        rc = error_set(err, "cannot move the report into '%s': %s", job->out, strerror(errno));
    folder_stage_remove(stage);
    return rc;
}
