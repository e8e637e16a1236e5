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

/* The command line, as parsed. */
typedef struct ExportArgs {
    const char *db, *out, *format;
    CliList runs;
    long game;
    bool have_game;
} ExportArgs;

static int parse_args(int argc, char **argv, ExportArgs *a)
{
    const CliOpt opts[] = {
        {.name = "--db", .kind = CLI_TEXT, .out = &a->db},
        {.name = "--run", .kind = CLI_TEXTS, .out = &a->runs},
        {.name = "--game", .kind = CLI_INT, .out = &a->game, .min = 0, .max = STORE_MAX_GAMES - 1,
         .seen = &a->have_game},
        {.name = "--out", .kind = CLI_TEXT, .out = &a->out},
        {.name = "--format", .kind = CLI_TEXT, .out = &a->format},
    };
    int npos;
    return cli_parse("export", argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
}

/* The runs, the game, the database, the format and the output into q,
 * before any file is read: 0, or the exit status. */
static int check_args(const char *cmd, ExportArgs *a, ExportRequest *q)
{
    bool games = !strcmp(a->format, "games");
    if (a->runs.n > 1 && !games) return cli_usage_error(cmd, "--run is given once, except with --format games");
    for (int i = 0; i < a->runs.n; i++)
        if (!a->runs.items[i][0]) return cli_usage_error(cmd, "--run wants a name");
    if (a->have_game && games) return cli_usage_error(cmd, "--game: --format games writes whole runs");
    *q = (ExportRequest){.runs = (const char *const *)a->runs.items, .nruns = a->runs.n,
                         .game = a->have_game ? a->game : -1, .stream = stdout};
    int rc;
    if ((rc = cli_db(cmd, &a->db))) return rc;
    q->db = a->db;
    if (q->game >= 0 && !a->runs.n) return cli_usage_error(cmd, "--game I goes with --run NAME (game I of which run?)");
    const char *out = a->out;
    if (out && !*out) return cli_usage_error(cmd, "--out wants a file or a directory");
    if (!export_format_parse(a->format, &q->format))
        return cli_usage_error(cmd, "--format '%s': records, boardspace or games", a->format);

    /* --out: a directory when it is one or ends in '/', else a file */
    struct stat sb;
    size_t olen = out ? strlen(out) : 0;
    bool to_dir = out && ((stat(out, &sb) == 0 && S_ISDIR(sb.st_mode)) || out[olen - 1] == '/');
    if (to_dir && games)
        return cli_usage_error(cmd, "--out '%s' is a directory: --format games writes one file, --out FILE", out);
    const char *inputs[] = {q->db}, *input_opts[] = {"--db"};
    if (out && !to_dir && (rc = cli_check_output(cmd, "--out", out, inputs, input_opts, 1))) return rc;
    FolderWrites w = {.dir = out, .writes = export_writes, .ctx = &q->format};
    if (to_dir && (rc = cli_check_writes(cmd, "--out", &w, inputs, input_opts, 1))) return rc;
    if (to_dir) q->dir = out;
    else q->out = out;
    return 0;
}

int cmd_export(int argc, char **argv)
{
    const char *cmd = "export";
    ExportArgs a = {.format = "records", .game = -1};
    ExportRequest q;
    ExportResult res;
    char err[ERR_LEN];
    int rc = parse_args(argc, argv, &a);
    if (rc || (rc = check_args(cmd, &a, &q))) goto done;
    if (store_export(&q, &res, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    if (a.out && q.format == EXPORT_GAMES)
        fprintf(stderr, "yinsh export: wrote %" PRIu64 " run%s, %" PRIu64 " game%s to %s\n", res.runs,
                number_plural(res.runs), res.games, number_plural(res.games), a.out);
    else if (a.out)
        fprintf(stderr, "yinsh export: wrote %" PRIu64 " record%s to %s\n", res.games, res.games == 1 ? "" : "s",
                a.out);
done:
    cli_list_free(&a.runs);
    return rc;
}
