/* yinsh report: the balance report of stored games, as Markdown and PNG
 * pictures in a directory, the Markdown also on stdout. */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "commands.h"
#include "report.h"
#include "run.h"

#define REPORT_DEFAULT_OUT "results/report"

const char USAGE_REPORT[] =
    "usage: yinsh report [--db PATH] [--runs NAME[,NAME...]] [--out DIR]\n"
    "                    [--plots DIR | --no-plots] [--quiet]\n"
    "  Reads the stored games and writes the balance report: for each variant\n"
    "  and pair of agents, the games, wins, draws, White's score with its 95%\n"
    "  Wilson interval, the p-value of no first-player advantage, the advantage\n"
    "  in Elo, game lengths and end reasons; blitz against standard for each pair\n"
    "  of agents that played both; and pictures drawn with gnuplot: White's score\n"
    "  against strength, game lengths, and White's score by White's first ring.\n"
    "  The report goes to DIR/report.md (and stdout), the pictures and their data\n"
    "  beside it.\n"
    "\n"
    "  --db PATH     the database (default " RUN_DEFAULT_DB ")\n"
    "  --runs NAMES  only these runs (comma-separated; may be repeated);\n"
    "                default: every run in the database\n"
    "  --out DIR     where report.md and the pictures go (default " REPORT_DEFAULT_OUT ";\n"
    "                created if missing)\n"
    "  --plots DIR   the gnuplot scripts (default: scripts/plots/ of the source\n"
    "                tree this binary was built from, else ./scripts/plots)\n"
    "  --no-plots    write the Markdown only\n"
    "  --quiet       do not print the report on stdout\n"
    "  Without gnuplot the Markdown is still written and says so. An empty\n"
    "  database, an unknown run or a selection without games is an error (1).\n";

static bool has_scripts(const char *dir)
{
    char path[4096 + 16];
    snprintf(path, sizeof path, "%s/strength.gp", dir);
    return access(path, R_OK) == 0;
}

/* The gnuplot scripts: scripts/plots of the source tree this binary was
 * built in (the binary lives in a build directory there, or the tree that
 * configured the build), else of the current directory. NULL when none has
 * them. */
static const char *find_plots(char *buf, size_t len)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        snprintf(buf, len, "%s/../scripts/plots", dirname(exe));
        if (has_scripts(buf)) return buf;
    }
    snprintf(buf, len, "%s/scripts/plots", YINSH_SOURCE_DIR);
    if (has_scripts(buf)) return buf;
    snprintf(buf, len, "scripts/plots");
    return has_scripts(buf) ? buf : NULL;
}

int cmd_report(int argc, char **argv)
{
    const char *cmd = "report";
    const char *db = RUN_DEFAULT_DB, *out = REPORT_DEFAULT_OUT, *plots = NULL;
    bool no_plots = false, quiet = false;
    CliList runs = {0};
    const CliOpt opts[] = {
        {.name = "--db", .kind = CLI_TEXT, .out = &db},
        {.name = "--runs", .kind = CLI_LIST, .out = &runs},
        {.name = "--out", .kind = CLI_TEXT, .out = &out},
        {.name = "--plots", .kind = CLI_TEXT, .out = &plots},
        {.name = "--no-plots", .kind = CLI_FLAG, .out = &no_plots},
        {.name = "--quiet", .kind = CLI_FLAG, .out = &quiet},
    };
    int npos;
    char *cmdline = NULL, *md = NULL, err[ERR_LEN], path[4200], plots_buf[4096], stage[4096] = "";
    size_t md_len = 0;
    Report rep = {0};
    FILE *mf = NULL;
    const char **names = (const char **)runs.items;
    int nnames = 0;
    int rc = cli_parse(cmd, argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
    if (rc) goto done;
    nnames = runs.n;
    if (plots && no_plots) {
        rc = cli_usage_error(cmd, "--plots and --no-plots contradict each other");
        goto done;
    }
    if (!*db) {
        rc = cli_usage_error(cmd, "--db wants a path");
        goto done;
    }
    if (!*out) {
        rc = cli_usage_error(cmd, "--out wants a directory");
        goto done;
    }
    if (plots && !has_scripts(plots)) {
        rc = cli_usage_error(cmd, "--plots '%s' holds no strength.gp", plots);
        goto done;
    }
    if (!(cmdline = cli_join_args(argc, argv))) {
        rc = cli_error(cmd, "out of memory");
        goto done;
    }

    if (report_load(&rep, db, names, nnames, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    if (rep.games == 0) {
        if (nnames)
            rc = cli_error(cmd, "the selected %s of '%s' hold%s no games: nothing to report",
                           nnames > 1 ? "runs" : "run", db, nnames > 1 ? "" : "s");
        else
            rc = cli_error(cmd, "database '%s' holds no games: nothing to report (`yinsh selfplay` plays some)", db);
        goto done;
    }

    if (cli_make_dirs(out) != 0) {
        rc = cli_error(cmd, "cannot create the directory '%s': %s", out, strerror(errno));
        goto done;
    }
    /* Everything is written into a staging folder inside DIR first and
     * moved into DIR only when all of it was written: a full disk leaves
     * DIR as it was. */
    snprintf(stage, sizeof stage, "%s/.report-XXXXXX", out);
    if (!mkdtemp(stage)) {
        stage[0] = '\0';
        rc = cli_error(cmd, "cannot write in '%s': %s", out, strerror(errno));
        goto done;
    }
    ReportPictures pics, *pp = NULL;
    if (!no_plots) {
        if (!plots) plots = find_plots(plots_buf, sizeof plots_buf);
        if (report_draw(&rep, stage, plots, &pics, err)) {
            rc = cli_error(cmd, "%s", err);
            goto done;
        }
        pp = &pics;
    }

    if (!(mf = open_memstream(&md, &md_len))) {
        rc = cli_error(cmd, "out of memory");
        goto done;
    }
    report_write_markdown(&rep, cmdline, pp, mf);
    fclose(mf);
    mf = NULL;

    snprintf(path, sizeof path, "%s/report.md", stage);
    FILE *f = fopen(path, "w");
    bool written = f && fwrite(md, 1, md_len, f) == md_len;
    if (f && fclose(f) != 0) written = false;
    if (!written) {
        rc = cli_error(cmd, "cannot write '%s/report.md': %s", out, strerror(errno));
        goto done;
    }
    if (cli_stage_commit(stage, out, NULL) != 0) {
        rc = cli_error(cmd, "cannot move the report into '%s': %s", out, strerror(errno));
        goto done;
    }
    snprintf(path, sizeof path, "%s/report.md", out);
    if (!quiet) fwrite(md, 1, md_len, stdout);
    if (pp && pp->note[0]) fprintf(stderr, "yinsh report: %s\n", pp->note);
    fprintf(stderr, "yinsh report: wrote %s\n", path);

done:
    if (stage[0]) cli_stage_remove(stage);
    if (mf) fclose(mf);
    free(md);
    report_free(&rep);
    cli_list_free(&runs);
    free(cmdline);
    return rc;
}
