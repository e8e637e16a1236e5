/* yinsh view: stored games as a static web site (study/viewer/view_site.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/commands.h"
#include "selfplay/play/run.h"
#include "study/viewer/view_site.h"
#include "engine/base/number.h"

/* The command line, as parsed. */
typedef struct ViewArgs {
    const char *db, *out;
    CliList runs;
} ViewArgs;

static int parse_args(int argc, char **argv, ViewArgs *a)
{
    const CliOpt opts[] = {
        {.name = "--db", .kind = CLI_TEXT, .out = &a->db},
        {.name = "--run", .kind = CLI_LIST, .out = &a->runs},
        {.name = "--runs", .kind = CLI_LIST, .out = &a->runs},
        {.name = "--out", .kind = CLI_TEXT, .out = &a->out},
    };
    int npos;
    return cli_parse("view", argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
}

/* Before anything is read: the database is not among what the site
 * replaces, and the site replaces only a site's files. */
static int check_args(const char *cmd, ViewArgs *a)
{
    char err[ERR_LEN];
    int rc;
    if ((rc = cli_check_db_out(cmd, &a->db, a->out))) return rc;
    const char *inputs[] = {a->db}, *input_opts[] = {"--db"};
    FolderWrites w = {.dir = a->out, .writes = view_writes, .sub = VIEW_GAMES};
    if ((rc = cli_check_writes(cmd, "--out", &w, inputs, input_opts, 1))) return rc;
    if (view_check_dir(a->out, err))
        return cli_error(cmd, "%s; nothing was written (write the site into another folder with --out DIR)", err);
    return 0;
}

/* The games of the runs, or why there are none: 0, or the exit status. */
static int load(const char *cmd, const ViewArgs *a, View *v)
{
    char err[ERR_LEN];
    if (view_load(v, a->db, STORE_BUSY_MS, (const char *const *)a->runs.items, a->runs.n, err))
        return cli_error(cmd, "%s", err);
    if (v->ngames > 0) return 0;
    if (a->runs.n)
        return cli_error(cmd, "the selected run%s of '%s' hold%s no games: nothing to show",
                         number_plural((uint64_t)a->runs.n), a->db, a->runs.n > 1 ? "" : "s");
    return cli_error(cmd, "database '%s' holds no games: nothing to show (`yinsh selfplay` plays some)", a->db);
}

int cmd_view(int argc, char **argv)
{
    const char *cmd = "view";
    ViewArgs a = {.out = VIEW_DEFAULT_OUT};
    char err[ERR_LEN];
    View v = {0};
    int rc = parse_args(argc, argv, &a);
    if (rc || (rc = check_args(cmd, &a)) || (rc = load(cmd, &a, &v))) goto done;
    if (view_publish(&v, a.out, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    view_summary_write(stderr, &v, a.out);
done:
    view_free(&v);
    cli_list_free(&a.runs);
    return rc;
}
