/* yinsh import: games played elsewhere (boardspace.net's YINSH records)
 * into the database, one run of kind "import" per file (docs/boardspace.md). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/commands.h"
#include "engine/base/number.h"
#include "engine/notation.h"
#include "selfplay/play/import_records.h"
#include "selfplay/play/import_text.h"

enum { IMPORT_MAX_FILES = 10000 };

/* Each record file stored as a run of its own; a file refused is said and
 * the others go on: 0, or 1 when any was refused. */
static int import_files(const char *cmd, const char *db, const char **files, int nfiles, bool repeat)
{
    Store *store = NULL;
    char err[ERR_LEN];
    if (store_open(&store, db, STORE_CREATE, STORE_BUSY_MS, err)) return cli_error(cmd, "%s", err);
    int failed = 0;
    for (int i = 0; i < nfiles; i++) {
        ImportedGame g;
        char *argv[] = {"import", "--format", "boardspace", (char *)files[i]};
        char *joined = cli_join_args(4, argv);
        int got = import_boardspace(store, files[i], joined, repeat, &g, err);
        free(joined);
        if (got) {
            fprintf(stderr, "yinsh import: %s: %s%s\n", files[i], err,
                    got == ERR_REPEAT ? ": add --repeat to store it again, as a repeat that every statistic skips" : "");
            failed++;
            continue;
        }
        import_game_print(stdout, files[i], &g);
    }
    store_close(store);
    if (failed)
        fprintf(stderr, "yinsh import: %d of %d file%s refused\n", failed, nfiles, number_plural((uint64_t)nfiles));
    return failed ? 1 : 0;
}

/* yinsh import --format games FILE: all of it in one transaction or
 * nothing (import_games), then what was imported. */
static int import_compact(const char *cmd, const char *file, const char *db)
{
    char err[ERR_LEN];
    ImportedRuns in;
    int failed;
    if (import_games(file, db, &in, &failed, err)) {
        cli_error(cmd, "%s", err);
        if (failed == IMPORT_FAILED_READ)
            fprintf(stderr, "yinsh import: %s refused: nothing was written to '%s'\n", file, db);
        else if (failed == IMPORT_FAILED_MERGE)
            fprintf(stderr, "yinsh import: nothing was written to '%s'\n", db);
        return 1;
    }
    import_runs_print(stdout, file, &in);
    free(in.runs);
    return 0;
}

/* The command line, as parsed. */
typedef struct ImportArgs {
    const char *db, *format;
    bool repeat, games;
    const char **files;
    int nfiles;
} ImportArgs;

static int parse_args(int argc, char **argv, ImportArgs *a)
{
    static const char *files[IMPORT_MAX_FILES];
    const CliOpt opts[] = {
        {.name = "--db", .kind = CLI_TEXT, .out = &a->db},
        {.name = "--format", .kind = CLI_TEXT, .out = &a->format},
        {.name = "--repeat", .kind = CLI_FLAG, .out = &a->repeat},
    };
    a->files = files;
    return cli_parse("import", argc, argv, opts, sizeof opts / sizeof *opts, files, IMPORT_MAX_FILES, &a->nfiles);
}

/* The format, the database and the files, none of them the database: 0,
 * or the exit status. */
static int check_args(const char *cmd, ImportArgs *a)
{
    int rc;
    if (!a->format) return cli_usage_error(cmd, "--format wants the records' format (boardspace or games)");
    a->games = !strcmp(a->format, "games");
    if (strcmp(a->format, "boardspace") && !a->games)
        return cli_usage_error(cmd, "--format '%s': the formats read are boardspace and games", a->format);
    if ((rc = cli_db(cmd, &a->db))) return rc;
    if (a->nfiles == 0) return cli_usage_error(cmd, "no record files given");
    if (a->games && a->nfiles > 1) return cli_usage_error(cmd, "--format games reads one file (or '-')");
    if (a->games && a->repeat)
        return cli_usage_error(cmd, "--repeat: --format games keeps the runs' own repeat marks");
    for (int i = 0; i < a->nfiles; i++) {
        const char *input_opts[] = {"the record file"};
        if ((rc = cli_check_same(cmd, "--db", a->db, &a->files[i], input_opts, 1))) return rc;
    }
    return 0;
}

int cmd_import(int argc, char **argv)
{
    const char *cmd = "import";
    ImportArgs a = {0};
    int rc = parse_args(argc, argv, &a);
    if (rc || (rc = check_args(cmd, &a))) return rc;
    if (a.games) return import_compact(cmd, a.files[0], a.db);
    return import_files(cmd, a.db, a.files, a.nfiles, a.repeat);
}
