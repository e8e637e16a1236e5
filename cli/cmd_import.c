/* yinsh import: games played elsewhere (boardspace.net's YINSH records)
 * into the database, one run of kind "import" per file (docs/boardspace.md). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "engine/base/error.h"
#include "engine/base/file.h"
#include "engine/base/text.h"
#include "selfplay/records/boardspace.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "engine/notation.h"
#include "selfplay/store/store.h"
#include "engine/base/number.h"

const char USAGE_IMPORT[] =
    "usage: yinsh import --format boardspace FILE.sgf... [--db PATH] [--repeat]\n"
    "       yinsh import --format games FILE [--db PATH]\n"
    "  Reads boardspace.net YINSH records (SGF), checks every action with the\n"
    "  engine, and stores each file's game as a run of kind `import` holding\n"
    "  that one game (docs/boardspace.md): the run is named import-GAME (GAME:\n"
    "  the record's GN), its white and black are boardspace:NAME, its command\n"
    "  says the file, the site and the date. A resigned game is won by the\n"
    "  other side (reason resign); a record that stops early is stored with\n"
    "  result none. Each file is one transaction: a file that cannot be read,\n"
    "  or holds an illegal action, is refused with its move number and why,\n"
    "  and the other files are still imported (exit status 1 if any failed).\n"
    "\n"
    "  --format games reads the compact form of a study's games that `yinsh\n"
    "  export --format games` writes (docs/records.md; FILE '-': standard\n"
    "  input, so a gzip'd file reads as `gzip -dc FILE.gz | yinsh import\n"
    "  --format games - --db DB`) and rebuilds its runs, the same rows: every\n"
    "  action is replayed and must be legal, every stored result must be the\n"
    "  replay's, and every 100-game prefix hash and run hash must be the\n"
    "  games'. Then its runs are merged into the database as `yinsh merge`\n"
    "  merges (one transaction): a run the database holds already (same uid)\n"
    "  must hold the same games, which are then skipped; a different game, or\n"
    "  another run of the same name, refuses the file. Any fault refuses the\n"
    "  whole file, naming its line, run and game, and writes nothing.\n"
    "\n"
    "  --format F    the records' format: boardspace, or games\n"
    "  --db PATH     the database (default " RUN_DEFAULT_DB ")\n"
    "  --repeat      store a game the database holds already (same players and\n"
    "                actions) again, as a repeat that every statistic skips\n";

enum { IMPORT_MAX_FILES = 10000, IMPORT_MAX_BYTES = 4 << 20 };

/* A whole file (at most IMPORT_MAX_BYTES) into *text, malloc'ed; 0, or
 * file_read's code with why in err, without the path (the caller names
 * the file). */
static int slurp(const char *path, char **text, size_t *len, char *err)
{
    char why[ERR_LEN];
    int rc = file_read(path, IMPORT_MAX_BYTES, 0, text, len, why);
    return rc ? error_code(err, rc, "%s", file_read_reason(why, path)) : 0;
}

/* The run's name: import- and the game's name on the site (else the
 * file's name without its folder and extension). */
static void run_name(const BoardspaceGame *g, const char *path, char *out, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    int blen = dot && dot > base ? (int)(dot - base) : (int)strlen(base);
    if (g->name[0]) snprintf(out, size, "import-%.100s", g->name);
    else snprintf(out, size, "import-%.*s", blen > 100 ? 100 : blen, base);
    if (strlen(g->name[0] ? g->name : base) > 100) text_cut(out); /* cut at a whole character */
}

static int import_file(Store *store, const char *path, bool repeat, char *err)
{
    size_t len;
    char *text;
    if (slurp(path, &text, &len, err)) return ERR_FAIL;
    BoardspaceGame g;
    int rc = boardspace_read(text, len, &g, err);
    free(text);
    if (!rc) {
        char name[STORE_NAME_LEN], white[SPEC_LEN], black[SPEC_LEN], *command = NULL;
        run_name(&g, path, name, sizeof name);
        /* a name made from the file's name: the record's own were checked */
        long bad = text_bad_byte(name);
        if (bad >= 0) {
            rc = error_set(err, "the run's name, made from the file's name, holds %s (byte 0x%02x): refused; "
                                "give the record a GN or the file another name",
                           text_control((unsigned char)name[bad]) ? "a control character" : "a byte that is not UTF-8",
                           (unsigned char)name[bad]);
            record_free(&g.rec);
            return rc;
        }
        snprintf(white, sizeof white, "boardspace:%s", g.player[WHITE]);
        snprintf(black, sizeof black, "boardspace:%s", g.player[BLACK]);
        /* the site and date ride in the command, after a shell comment */
        char *argv[] = {"import", "--format", "boardspace", (char *)path};
        char *joined = cli_join_args(4, argv);
        size_t clen = (joined ? strlen(joined) : 0) + strlen(g.date) + strlen(g.name) + 96;
        if (joined && (command = malloc(clen)))
            snprintf(command, clen, "%s # site boardspace.net, date %s, game %s", joined, g.date[0] ? g.date : "?",
                     g.name[0] ? g.name : "?");
        free(joined);
        if (!command) {
            rc = error_set(err, "out of memory");
        } else {
            rc = run_import(store, name, white, black, command, &g.rec, repeat, err);
        }
        free(command);
        if (!rc)
            printf("%s: run %s: %s (White) against %s (Black), %d action%s, result %s (%s)\n", path, name,
                   g.player[WHITE], g.player[BLACK], g.rec.nactions, number_plural((uint64_t)g.rec.nactions),
                   result_name(g.rec.result),
                   reason_name(g.rec.reason));
    }
    record_free(&g.rec);
    return rc;
}

/* --format games: the file's runs written into a database of their own
 * (tmp) as the reader checks them, for the merge. */
typedef struct GamesIn {
    Store *tmp;
    int64_t run_id;
    char plan_ident[STORE_HASH_LEN];
    bool has_plan;
} GamesIn;

static int games_in_run(void *ctx, const GamesColumn *cols, int ncols, char *err)
{
    GamesIn *in = ctx;
    const char *plan = games_column(cols, ncols, "plan_ident");
    in->has_plan = plan != NULL;
    snprintf(in->plan_ident, sizeof in->plan_ident, "%s", plan ? plan : "");
    return store_rows_add_run(in->tmp, cols, ncols, &in->run_id, err);
}

static int games_in_game(void *ctx, const GamesGame *g, char *err)
{
    GamesIn *in = ctx;
    return store_rows_add_game(in->tmp, in->run_id, in->has_plan ? in->plan_ident : NULL, g, err);
}

/* The file read (and checked) into the new database tmp: 0, or the
 * reader's or the store's code with why in err. */
static int games_to_db(const char *file, const char *tmp, GamesTotals *totals, char *err)
{
    FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
    if (!f) return error_set(err, "cannot open '%s': %s", file, strerror(errno));
    GamesIn in = {0};
    GamesRows to = {.on_run = games_in_run, .on_game = games_in_game, .ctx = &in};
    int rc = store_open(&in.tmp, tmp, STORE_CREATE, STORE_BUSY_MS, err);
    if (!rc) rc = store_transaction_begin(in.tmp, err);
    if (!rc) {
        rc = games_read(f, strcmp(file, "-") ? file : "standard input", &to, totals, err);
        if (!rc) rc = store_transaction_commit(in.tmp, err);
        else store_transaction_rollback(in.tmp);
    }
    store_close(in.tmp);
    if (f != stdin) fclose(f);
    return rc;
}

/* yinsh import --format games FILE: read into a database of its own in
 * the temporary folder, then merged (store_merge, naming FILE), so that
 * the database receives all of it in one transaction or nothing. */
static int import_games(const char *cmd, const char *file, const char *db)
{
    const char *folder = getenv("TMPDIR");
    char tmp[4096], err[ERR_LEN];
    snprintf(tmp, sizeof tmp, "%s/yinsh-import-XXXXXX", folder && *folder ? folder : "/tmp");
    int fd = mkstemp(tmp);
    if (fd < 0) return cli_error(cmd, "cannot make a file in '%s': %s", folder && *folder ? folder : "/tmp", strerror(errno));
    close(fd);
    GamesTotals totals;
    int rc = games_to_db(file, tmp, &totals, err);
    if (rc) {
        cli_remove_db(tmp);
        cli_error(cmd, "%s", err);
        fprintf(stderr, "yinsh import: %s refused: nothing was written to '%s'\n", file, db);
        return 1;
    }
    struct stat sb;
    bool existed = stat(db, &sb) == 0;
    Store *s = NULL;
    StoreMergeRun *runs = NULL;
    int nruns = 0;
    const char *paths[] = {tmp}, *names[] = {strcmp(file, "-") ? file : "standard input"};
    if (store_open(&s, db, STORE_CREATE, STORE_BUSY_MS, err) ||
        store_merge(s, paths, names, 1, &runs, &nruns, err)) {
        store_close(s);
        if (!existed) cli_remove_db(db);
        cli_remove_db(tmp);
        cli_error(cmd, "%s", err);
        fprintf(stderr, "yinsh import: nothing was written to '%s'\n", db);
        return 1;
    }
    store_close(s);
    cli_remove_db(tmp);
    for (int i = 0; i < nruns; i++) {
        const StoreMergeRun *r = &runs[i];
        printf("run %s: %" PRIu64 " game%s imported, %" PRIu64 " held already (identical); %" PRIu64 "/%u game%s%s\n",
               r->name, r->added, number_plural(r->added), r->duplicates, r->stored, r->games,
               number_plural(r->games), r->finished ? ", finished" : "");
    }
    printf("%s: %" PRIu64 " run%s, %" PRIu64 " game%s: every action legal, every result and hash as the file says\n",
           names[0], totals.runs, number_plural(totals.runs), totals.games, number_plural(totals.games));
    free(runs);
    return 0;
}

int cmd_import(int argc, char **argv)
{
    const char *cmd = "import";
    const char *db = NULL, *format = NULL;
    bool repeat = false;
    static const char *files[IMPORT_MAX_FILES];
    const CliOpt opts[] = {
        {.name = "--db", .kind = CLI_TEXT, .out = &db},
        {.name = "--format", .kind = CLI_TEXT, .out = &format},
        {.name = "--repeat", .kind = CLI_FLAG, .out = &repeat},
    };
    int nfiles, rc = cli_parse(cmd, argc, argv, opts, sizeof opts / sizeof *opts, files, IMPORT_MAX_FILES, &nfiles);
    if (rc) return rc;
    if (!format) return cli_usage_error(cmd, "--format wants the records' format (boardspace or games)");
    bool games = !strcmp(format, "games");
    if (strcmp(format, "boardspace") && !games)
        return cli_usage_error(cmd, "--format '%s': the formats read are boardspace and games", format);
    if ((rc = cli_db(cmd, &db))) return rc;
    if (nfiles == 0) return cli_usage_error(cmd, "no record files given");
    if (games && nfiles > 1) return cli_usage_error(cmd, "--format games reads one file (or '-')");
    if (games && repeat) return cli_usage_error(cmd, "--repeat: --format games keeps the runs' own repeat marks");
    for (int i = 0; i < nfiles; i++) {
        const char *input_opts[] = {"the record file"};
        if ((rc = cli_check_same(cmd, "--db", db, &files[i], input_opts, 1))) return rc;
    }

    if (games) return import_games(cmd, files[0], db);

    Store *store = NULL;
    char err[ERR_LEN];
    if (store_open(&store, db, STORE_CREATE, STORE_BUSY_MS, err))
        return cli_error(cmd, "%s", err);
    int failed = 0;
    for (int i = 0; i < nfiles; i++) {
        int got = import_file(store, files[i], repeat, err);
        if (got) {
            fprintf(stderr, "yinsh import: %s: %s%s\n", files[i], err,
                    got == ERR_REPEAT ? ": add --repeat to store it again, as a repeat that every statistic skips" : "");
            failed++;
        }
    }
    store_close(store);
    if (failed)
        fprintf(stderr, "yinsh import: %d of %d file%s refused\n", failed, nfiles, number_plural((uint64_t)nfiles));
    return failed ? 1 : 0;
}
