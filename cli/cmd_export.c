/* yinsh export: stored games as game records with tags (docs/records.md),
 * which `yinsh replay` reads back and checks. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli/cli.h"
#include "cli/commands.h"
#include "engine/base/number.h"
#include "selfplay/store/store_export.h"

const char USAGE_EXPORT[] =
    "usage: yinsh export [--db PATH] [--run NAME [--game I]] [--out FILE|DIR/] [--format F]\n"
    "       yinsh export --format games [--db PATH] [--run NAME]... [--out FILE]\n"
    "  Writes stored games as game records: tag lines ([Run \"...\"], [Index \"...\"],\n"
    "  the variant, the agents, the seed, the result and its reason, the date\n"
    "  (when it was stored; an imported game's, the record's own), the\n"
    "  version; docs/records.md), the start YPN, then the actions ten to a\n"
    "  line, as `yinsh randgame` prints them. `yinsh replay` checks them: every\n"
    "  action, and the stored result against the replayed one.\n"
    "\n"
    "  --db PATH     the database (default " RUN_DEFAULT_DB ")\n"
    "  --run NAME    only this run's games (default: every run's); with --format\n"
    "                games, repeated for several runs\n"
    "  --game I      only game I of the run (its index, from 0)\n"
    "  --format F    records (default), or boardspace: boardspace.net's YINSH SGF,\n"
    "                one game per file (docs/boardspace.md), standard games only;\n"
    "                `yinsh import --format boardspace` reads them back; or games:\n"
    "                the compact form of a study's games (docs/records.md): every\n"
    "                row of the runs (--run, repeated, or every run) as one text,\n"
    "                each run's row, then a line per game with every action's\n"
    "                stored figures and root visits, a hash line every 100 games\n"
    "                and the run's hash (as `yinsh selfplay` prints it) at its\n"
    "                end; `yinsh import --format games` rebuilds the database from\n"
    "                it, the same rows. Compress it with `gzip -n -9`\n"
    "  --out FILE    one stream of records, a blank line between two (default:\n"
    "                standard output)\n"
    "  --out DIR/    one file per game, DIR/RUN-INDEX.rec (an existing directory,\n"
    "                or a path ending in '/', made if missing)\n"
    "  Games come in run order, then by index. A selection without stored games\n"
    "  is an error (1).\n";

static int export_checked(const char *cmd, const char *db, const CliList *runs, const char *out, const char *format,
                          long game);

int cmd_export(int argc, char **argv)
{
    const char *cmd = "export";
    const char *db = NULL, *out = NULL, *format = "records";
    CliList runs = {.n = 0};
    long game = -1;
    bool have_game = false;
    const CliOpt opts[] = {
        {.name = "--db", .kind = CLI_TEXT, .out = &db},
        {.name = "--run", .kind = CLI_TEXTS, .out = &runs},
        {.name = "--game", .kind = CLI_INT, .out = &game, .min = 0, .max = STORE_MAX_GAMES - 1, .seen = &have_game},
        {.name = "--out", .kind = CLI_TEXT, .out = &out},
        {.name = "--format", .kind = CLI_TEXT, .out = &format},
    };
    int npos, rc = cli_parse(cmd, argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
    if (rc) goto done_args;
    bool games = !strcmp(format, "games");
    rc = EXIT_USAGE;
    if (runs.n > 1 && !games) {
        cli_usage_error(cmd, "--run is given once, except with --format games");
        goto done_args;
    }
    for (int i = 0; i < runs.n; i++)
        if (!runs.items[i][0]) {
            cli_usage_error(cmd, "--run wants a name");
            goto done_args;
        }
    if (have_game && games) {
        cli_usage_error(cmd, "--game: --format games writes whole runs");
        goto done_args;
    }
    rc = export_checked(cmd, db, runs.n ? &runs : NULL, out, format, have_game ? game : -1);
done_args:
    cli_list_free(&runs);
    return rc;
}

/* The export, its options read: runs is the --run list (NULL: none). */
static int export_checked(const char *cmd, const char *db, const CliList *runs, const char *out, const char *format,
                          long game)
{
    ExportRequest q = {.runs = runs ? (const char *const *)runs->items : NULL, .nruns = runs ? runs->n : 0,
                       .game = game, .stream = stdout};
    int rc;
    if ((rc = cli_db(cmd, &db))) return rc;
    q.db = db;
    if (game >= 0 && !runs) return cli_usage_error(cmd, "--game I goes with --run NAME (game I of which run?)");
    if (out && !*out) return cli_usage_error(cmd, "--out wants a file or a directory");
    if (!export_format_parse(format, &q.format))
        return cli_usage_error(cmd, "--format '%s': records, boardspace or games", format);
    bool games = q.format == EXPORT_GAMES;

    /* --out: a directory when it is one or ends in '/', else a file */
    struct stat sb;
    size_t olen = out ? strlen(out) : 0;
    bool to_dir = out && ((stat(out, &sb) == 0 && S_ISDIR(sb.st_mode)) || out[olen - 1] == '/');
    if (to_dir && games)
        return cli_usage_error(cmd, "--out '%s' is a directory: --format games writes one file, --out FILE", out);
    const char *inputs[] = {db}, *input_opts[] = {"--db"};
    if (out && !to_dir && (rc = cli_check_output(cmd, "--out", out, inputs, input_opts, 1))) return rc;
    FolderWrites w = {.dir = out, .writes = export_writes, .ctx = &q.format};
    if (to_dir && (rc = cli_check_writes(cmd, "--out", &w, inputs, input_opts, 1))) return rc;
    if (to_dir) q.dir = out;
    else q.out = out;

    char err[ERR_LEN];
    ExportResult res;
    if (store_export(&q, &res, err)) return cli_error(cmd, "%s", err);
    if (out && games)
        fprintf(stderr, "yinsh export: wrote %" PRIu64 " run%s, %" PRIu64 " game%s to %s\n", res.runs,
                number_plural(res.runs), res.games, number_plural(res.games), out);
    else if (out)
        fprintf(stderr, "yinsh export: wrote %" PRIu64 " record%s to %s\n", res.games, res.games == 1 ? "" : "s",
                out);
    return 0;
}
