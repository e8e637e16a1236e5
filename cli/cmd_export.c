/* yinsh export: stored games as game records with tags (docs/records.md),
 * which `yinsh replay` reads back and checks. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "engine/base/file.h"
#include "selfplay/records/boardspace.h"
#include "selfplay/records/record_text.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "engine/notation.h"
#include "selfplay/store/store.h"
#include "engine/base/number.h"

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

typedef struct ExportCtx {
    FILE *stream;     /* one stream; NULL: a file per game in dir */
    bool boardspace;  /* SGF as boardspace.net writes it, not our records */
    const char *dir;
    uint64_t games;
    char err[ERR_LEN];
} ExportCtx;

/* A run's name as a file name: letters, digits, '.', '_' and '-' kept,
 * anything else '_'; a name that changed gets the start of the run's uid,
 * so that two runs never share a file. */
static void file_name(const StoreGameText *g, const char *ext, char *out, size_t len)
{
    char safe[STORE_NAME_LEN];
    size_t k = 0;
    bool changed = false;
    for (const char *p = g->run; *p && k + 1 < sizeof safe; p++) {
        bool ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '.' ||
                  *p == '_' || *p == '-';
        safe[k++] = ok ? *p : '_';
        changed |= !ok;
    }
    safe[k] = 0;
    changed |= safe[0] == '.'; /* no hidden files, no ".." */
    if (changed) snprintf(out, len, "%s-%.8s-%06" PRIu32 ".%s", safe, g->run_uid, g->index, ext);
    else snprintf(out, len, "%s-%06" PRIu32 ".%s", safe, g->index, ext);
}

static int export_checked(const char *cmd, const char *db, const char *run, const CliList *runs, const char *out,
                          const char *format, long game);

static int export_game(void *ctx, const StoreGameText *stored)
{
    ExportCtx *c = ctx;
    const RecordText *g = stored;
    int (*write)(FILE *, const RecordText *, char *) = c->boardspace ? boardspace_write : record_text_write;
    int rc;
    if (c->stream) {
        if (c->games) fputc('\n', c->stream);
        if ((rc = write(c->stream, g, c->err))) return rc;
        c->games++;
        return 0;
    }
    /* one file a game, written whole or not at all (base/file.h) */
    char name[STORE_NAME_LEN + 64], path[4096 + sizeof name];
    file_name(stored, c->boardspace ? "sgf" : "rec", name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", c->dir, name);
    FileOut o;
    if ((rc = file_out_open(&o, path, c->err))) return rc;
    if ((rc = write(o.f, g, c->err))) {
        file_out_abandon(&o);
        return rc;
    }
    if ((rc = file_out_commit(&o, c->err))) return rc;
    c->games++;
    return 0;
}

/* Whether --out DIR/ may hold a record of that name (file_name: ends in
 * .rec, or .sgf for boardspace's): the files it replaces. */
static bool writes_record(const char *name, const void *ctx)
{
    size_t n = strlen(name);
    const char *ext = strcmp(ctx, "boardspace") ? ".rec" : ".sgf";
    return n > 4 && !strcmp(name + n - 4, ext);
}

/* Says that the selection (game >= 0: that game of run) holds no game; 1. */
static int nothing_to_export(const char *cmd, const char *db, const char *run, long game)
{
    if (game >= 0) return cli_error(cmd, "run '%s' of '%s' has no stored game %ld", run, db, game);
    if (run) return cli_error(cmd, "run '%s' of '%s' holds no stored games: nothing to export", run, db);
    return cli_error(cmd, "database '%s' holds no games: nothing to export", db);
}

/* --format games: the rows of the runs, the hash lines kept as they go
 * (selfplay/records/games.h). */
typedef struct GamesOut {
    FILE *f;
    bool open;            /* a run's end is due */
    uint32_t games, next; /* the run's size; its next hash line */
    uint64_t sum, stored; /* its games so far */
    uint64_t runs, all;   /* runs and games written */
} GamesOut;

static void games_close_run(GamesOut *o)
{
    if (o->open) games_write_end(o->f, o->games, o->stored, o->sum, o->next);
    o->open = false;
}

static int games_on_run(void *ctx, const GamesColumn *cols, int ncols, char *err)
{
    (void)err;
    GamesOut *o = ctx;
    if (o->runs == 0) games_write_head(o->f); /* nothing written before the selection is found */
    games_close_run(o);
    const char *games = games_column(cols, ncols, "games");
    *o = (GamesOut){.f = o->f, .open = true, .games = games ? (uint32_t)strtoul(games, NULL, 10) : 0,
                    .next = GAMES_PREFIX, .runs = o->runs + 1, .all = o->all};
    games_write_run(o->f, cols, ncols);
    return 0;
}

static int games_on_game(void *ctx, const GamesGame *g, char *err)
{
    (void)err;
    GamesOut *o = ctx;
    games_write_game(o->f, g, o->games, o->sum, &o->next);
    o->sum += games_game_hash(g);
    o->stored++;
    o->all++;
    return 0;
}

/* The compact form of the runs (all when there are none) into f. */
static int export_games(Store *store, const CliList *runs, FILE *f, GamesOut *o, char *err)
{
    *o = (GamesOut){.f = f};
    GamesRows to = {.on_run = games_on_run, .on_game = games_on_game, .ctx = o};
    int rc = store_rows_each(store, runs ? (const char *const *)runs->items : NULL, runs ? runs->n : 0, &to, err);
    if (rc) return rc;
    games_close_run(o);
    if (o->runs) games_write_tail(f, o->runs);
    return 0;
}

int cmd_export(int argc, char **argv)
{
    const char *cmd = "export";
    const char *db = NULL, *run = NULL, *out = NULL, *format = "records";
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
    run = runs.n ? runs.items[0] : NULL;
    rc = export_checked(cmd, db, run, runs.n ? &runs : NULL, out, format, have_game ? game : -1);
done_args:
    cli_list_free(&runs);
    return rc;
}

/* The export, its options read: runs is the --run list (NULL: none). */
static int export_checked(const char *cmd, const char *db, const char *run, const CliList *runs, const char *out,
                          const char *format, long game)
{
    bool have_game = game >= 0, games = !strcmp(format, "games");
    int rc;
    if ((rc = cli_db(cmd, &db))) return rc;
    if (have_game && !run) return cli_usage_error(cmd, "--game I goes with --run NAME (game I of which run?)");
    if (out && !*out) return cli_usage_error(cmd, "--out wants a file or a directory");
    if (strcmp(format, "records") && strcmp(format, "boardspace") && !games)
        return cli_usage_error(cmd, "--format '%s': records, boardspace or games", format);

    /* --out: a directory when it is one or ends in '/', else a file */
    struct stat sb;
    size_t olen = out ? strlen(out) : 0;
    bool to_dir = out && ((stat(out, &sb) == 0 && S_ISDIR(sb.st_mode)) || out[olen - 1] == '/');
    if (to_dir && games)
        return cli_usage_error(cmd, "--out '%s' is a directory: --format games writes one file, --out FILE", out);
    const char *inputs[] = {db}, *input_opts[] = {"--db"};
    if (out && !to_dir && (rc = cli_check_output(cmd, "--out", out, inputs, input_opts, 1))) return rc;
    FolderWrites w = {.dir = out, .writes = writes_record, .ctx = format};
    if (to_dir && (rc = cli_check_writes(cmd, "--out", &w, inputs, input_opts, 1))) return rc;

    Store *store = NULL;
    FileOut file = {0}; /* --out FILE: the stream, renamed over FILE once every record is in it */
    char err[ERR_LEN];
    ExportCtx c = {.boardspace = !strcmp(format, "boardspace")};
    if (store_open(&store, db, STORE_READ, STORE_BUSY_MS, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    if (to_dir) {
        if (mkdir(out, 0777) != 0 && errno != EEXIST) {
            rc = cli_error(cmd, "cannot make the directory '%s': %s", out, strerror(errno));
            goto done;
        }
        c.dir = out;
    } else if (out) {
        if (file_out_open(&file, out, err)) {
            rc = cli_error(cmd, "%s", err);
            goto done;
        }
        c.stream = file.f;
    } else {
        c.stream = stdout;
    }
    GamesOut go;
    if (games) {
        if (export_games(store, runs, c.stream, &go, err)) {
            rc = cli_error(cmd, "%s", err);
            goto done;
        }
        c.games = go.all;
        if (go.runs == 0) {
            rc = cli_error(cmd, "database '%s' holds no runs: nothing to export", db);
            goto done;
        }
    } else if (store_query_game_texts(store, run, game, export_game, &c, err)) {
        /* a message of export_game's own, else the store's */
        rc = cli_error(cmd, "%s", c.err[0] ? c.err : err);
        goto done;
    }
    if (c.games == 0 && !games) {
        rc = nothing_to_export(cmd, db, run, have_game ? game : -1);
        goto done;
    }
    if (file.f && file_out_commit(&file, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    if (out && games)
        fprintf(stderr, "yinsh export: wrote %" PRIu64 " run%s, %" PRIu64 " game%s to %s\n", go.runs,
                number_plural(go.runs), c.games, number_plural(c.games), out);
    else if (out)
        fprintf(stderr, "yinsh export: wrote %" PRIu64 " record%s to %s\n", c.games, c.games == 1 ? "" : "s", out);

done:
    file_out_abandon(&file);
    store_close(store);
    return rc;
}
