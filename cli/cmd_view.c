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

#define VIEW_DEFAULT_OUT "results/view"

const char USAGE_VIEW[] =
    "usage: yinsh view [--db PATH] [--run NAME[,NAME...]]... [--out DIR]\n"
    "  Writes the stored games as a web site that opens from disk, with no server\n"
    "  and no network: DIR/index.html lists the selected runs and their games\n"
    "  (sort by any column; filter by variant, agents, result, reason, length),\n"
    "  and links a page per game (DIR/games/ID.html) that draws the board and\n"
    "  steps through the actions (buttons, arrow keys, a slider, the list of\n"
    "  actions), with the searching agents' win probability, visits and time per\n"
    "  action.\n"
    "\n"
    "  --db PATH     the database (default " RUN_DEFAULT_DB ")\n"
    "  --run NAMES   only these runs (comma-separated; may be repeated; --runs is\n"
    "                the same); default: every run in the database\n"
    "  --out DIR     the site's folder (default " VIEW_DEFAULT_OUT "; created if\n"
    "                missing). Its index.html, board.js, viewer.js, viewer.css and\n"
    "                games/ are replaced, the rest of DIR is left alone. Only a\n"
    "                site's own files are replaced: each folder of a site holds\n"
    "                the marker " VIEW_MARKER ", and a DIR/games or a page file\n"
    "                that a site did not write is refused, and nothing written.\n"
    "  The site is written into a hidden folder in DIR and moved in when it is\n"
    "  complete: a failure leaves DIR as it was. An empty database, an unknown run\n"
    "  or a selection without games is an error (1).\n";

int cmd_view(int argc, char **argv)
{
    const char *cmd = "view", *db = NULL, *out = VIEW_DEFAULT_OUT;
    CliList runs = {0};
    const CliOpt opts[] = {
        {.name = "--db", .kind = CLI_TEXT, .out = &db},
        {.name = "--run", .kind = CLI_LIST, .out = &runs},
        {.name = "--runs", .kind = CLI_LIST, .out = &runs},
        {.name = "--out", .kind = CLI_TEXT, .out = &out},
    };
    char err[ERR_LEN];
    View v = {0};
    int npos, rc = cli_parse(cmd, argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
    if (rc) goto done;
    if ((rc = cli_check_db_out(cmd, &db, out))) goto done;
    /* before anything is read: the database is not among what the site
     * replaces, and the site replaces only a site's files */
    const char *inputs[] = {db}, *input_opts[] = {"--db"};
    FolderWrites w = {.dir = out, .writes = view_writes, .sub = VIEW_GAMES};
    if ((rc = cli_check_writes(cmd, "--out", &w, inputs, input_opts, 1))) goto done;
    if (view_check_dir(out, err)) {
        rc = cli_error(cmd, "%s; nothing was written (write the site into another folder with --out DIR)", err);
        goto done;
    }

    if (view_load(&v, db, STORE_BUSY_MS, (const char *const *)runs.items, runs.n, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    if (v.ngames == 0) {
        if (runs.n)
            rc = cli_error(cmd, "the selected run%s of '%s' hold%s no games: nothing to show",
                           number_plural((uint64_t)runs.n), db, runs.n > 1 ? "" : "s");
        else
            rc = cli_error(cmd, "database '%s' holds no games: nothing to show (`yinsh selfplay` plays some)", db);
        goto done;
    }

    if (view_publish(&v, out, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    fprintf(stderr,
            "yinsh view: %" PRId64 " game%s (%" PRId64 " action%s) of %d run%s, %" PRIu64 " file%s, %.1f MB "
            "(largest page %.0f kB): open %s/index.html\n",
            v.ngames, number_plural((uint64_t)v.ngames), v.actions, number_plural((uint64_t)v.actions), v.nruns,
            number_plural((uint64_t)v.nruns), v.files, number_plural(v.files), v.bytes / 1e6, v.largest / 1e3, out);

done:
    view_free(&v);
    cli_list_free(&runs);
    return rc;
}
