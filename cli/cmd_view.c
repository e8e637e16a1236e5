/* yinsh view: stored games as a static web site (study/viewer/view_site.c). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/commands.h"
#include "play/run.h"
#include "viewer/view_site.h"

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
    "                games/ are replaced, the rest of DIR is left alone.\n"
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
    char err[ERR_LEN], stage[4096] = "";
    View v = {0};
    int npos, rc = cli_parse(cmd, argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
    if (rc) goto done;
    if ((rc = cli_check_db_out(cmd, &db, out))) goto done;

    if (view_load(&v, db, STORE_BUSY_MS, (const char *const *)runs.items, runs.n, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    if (v.ngames == 0) {
        if (runs.n)
            rc = cli_error(cmd, "the selected %s of '%s' hold%s no games: nothing to show", runs.n > 1 ? "runs" : "run",
                           db, runs.n > 1 ? "" : "s");
        else
            rc = cli_error(cmd, "database '%s' holds no games: nothing to show (`yinsh selfplay` plays some)", db);
        goto done;
    }

    /* Everything is written into a staging folder inside DIR first and
     * moved into DIR only when all of it was written: a full disk leaves
     * DIR as it was. */
    if ((rc = cli_stage_open(cmd, out, "view", stage, sizeof stage))) goto done;
    if (view_write(&v, stage, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    /* the index last: it never links a page that is not there yet */
    if (cli_stage_commit(stage, out, "index.html") != 0) {
        rc = cli_error(cmd, "cannot move the site into '%s': %s", out, strerror(errno));
        goto done;
    }
    fprintf(stderr,
            "yinsh view: %" PRId64 " games (%" PRId64 " actions) of %d run%s, %" PRIu64 " files, %.1f MB "
            "(largest page %.0f kB): open %s/index.html\n",
            v.ngames, v.actions, v.nruns, v.nruns == 1 ? "" : "s", v.files, v.bytes / 1e6, v.largest / 1e3, out);

done:
    if (stage[0]) cli_stage_remove(stage);
    view_free(&v);
    cli_list_free(&runs);
    return rc;
}
