/* yinsh report: the balance report of stored games, as Markdown and PNG
 * pictures in a directory, the Markdown also on stdout. */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "commands.h"
#include "report.h"

#define REPORT_DEFAULT_DB "results/yinsh.db"
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
    "  --db PATH     the database (default " REPORT_DEFAULT_DB ")\n"
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

/* mkdir -p */
static int make_dirs(const char *path)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
    struct stat sb;
    if (stat(buf, &sb) != 0) return -1;
    if (!S_ISDIR(sb.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

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

enum { OPT_DB = 256, OPT_RUNS, OPT_OUT, OPT_PLOTS, OPT_NO_PLOTS, OPT_QUIET };
enum { MAX_RUNS = 1000 };

int cmd_report(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"db", required_argument, NULL, OPT_DB},       {"runs", required_argument, NULL, OPT_RUNS},
        {"out", required_argument, NULL, OPT_OUT},     {"plots", required_argument, NULL, OPT_PLOTS},
        {"no-plots", no_argument, NULL, OPT_NO_PLOTS}, {"quiet", no_argument, NULL, OPT_QUIET},
        {NULL, 0, NULL, 0},
    };
    const char *cmd = "report";
    const char *db = REPORT_DEFAULT_DB, *out = REPORT_DEFAULT_OUT, *plots = NULL;
    bool no_plots = false, quiet = false;
    char *runs_text[MAX_RUNS];
    int nruns_text = 0;

    optind = 0;
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
        switch (opt) {
        case OPT_DB: db = optarg; break;
        case OPT_RUNS:
            if (nruns_text == MAX_RUNS) return cli_usage_error(cmd, "too many --runs options");
            runs_text[nruns_text++] = optarg;
            break;
        case OPT_OUT: out = optarg; break;
        case OPT_PLOTS: plots = optarg; break;
        case OPT_NO_PLOTS: no_plots = true; break;
        case OPT_QUIET: quiet = true; break;
        default:
            if (optopt) return cli_usage_error(cmd, "option '%s' wants a value", argv[optind - 1]);
            return cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc) return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
    if (plots && no_plots) return cli_usage_error(cmd, "--plots and --no-plots contradict each other");
    if (!*db) return cli_usage_error(cmd, "--db wants a path");
    if (!*out) return cli_usage_error(cmd, "--out wants a directory");
    if (plots && !has_scripts(plots)) return cli_usage_error(cmd, "--plots '%s' holds no strength.gp", plots);

    int rc = 0;
    char *cmdline = NULL, *names_buf = NULL, *md = NULL, err[REPORT_ERR_LEN], path[4096], plots_buf[4096];
    const char **names = NULL;
    int nnames = 0;
    size_t md_len = 0;
    Report rep = {0};
    FILE *mf = NULL;

    /* The run names: every --runs value split at commas. */
    size_t total = 0;
    for (int i = 0; i < nruns_text; i++) total += strlen(runs_text[i]) + 1;
    names_buf = malloc(total + 1);
    names = malloc((total + 1) * sizeof *names);
    cmdline = cli_join_args(argc, argv);
    if (!names_buf || !names || !cmdline) {
        rc = cli_error(cmd, "out of memory");
        goto done;
    }
    char *at = names_buf;
    for (int i = 0; i < nruns_text; i++) {
        strcpy(at, runs_text[i]);
        for (char *tok = strtok(at, ","); tok; tok = strtok(NULL, ",")) names[nnames++] = tok;
        at += strlen(runs_text[i]) + 1;
    }
    if (nruns_text && !nnames) {
        rc = cli_usage_error(cmd, "--runs wants run names");
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

    if (make_dirs(out) != 0) {
        rc = cli_error(cmd, "cannot create the directory '%s': %s", out, strerror(errno));
        goto done;
    }
    ReportPictures pics, *pp = NULL;
    if (!no_plots) {
        if (!plots) plots = find_plots(plots_buf, sizeof plots_buf);
        if (report_draw(&rep, out, plots, &pics, err)) {
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

    snprintf(path, sizeof path, "%s/report.md", out);
    FILE *f = fopen(path, "w");
    bool written = f && fwrite(md, 1, md_len, f) == md_len;
    if (f && fclose(f) != 0) written = false;
    if (!written) {
        rc = cli_error(cmd, "cannot write '%s': %s", path, strerror(errno));
        goto done;
    }
    if (!quiet) fwrite(md, 1, md_len, stdout);
    if (pp && pp->note[0]) fprintf(stderr, "yinsh report: %s\n", pp->note);
    fprintf(stderr, "yinsh report: wrote %s\n", path);

done:
    if (mf) fclose(mf);
    free(md);
    report_free(&rep);
    free(names);
    free(names_buf);
    free(cmdline);
    return rc;
}
