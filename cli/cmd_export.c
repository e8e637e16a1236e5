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
#include "cli/cli.h"
#include "cli/commands.h"
#include "engine/notation.h"
#include "selfplay/store/store.h"

const char USAGE_EXPORT[] =
    "usage: yinsh export [--db PATH] [--run NAME [--game I]] [--out FILE|DIR/] [--format F]\n"
    "  Writes stored games as game records: tag lines ([Run \"...\"], [Index \"...\"],\n"
    "  the variant, the agents, the seed, the result and its reason, the date\n"
    "  (when it was stored; an imported game's, the record's own), the\n"
    "  version; docs/records.md), the start YPN, then the actions ten to a\n"
    "  line, as `yinsh randgame` prints them. `yinsh replay` checks them: every\n"
    "  action, and the stored result against the replayed one.\n"
    "\n"
    "  --db PATH     the database (default " RUN_DEFAULT_DB ")\n"
    "  --run NAME    only this run's games (default: every run's)\n"
    "  --game I      only game I of the run (its index, from 0)\n"
    "  --format F    records (default), or boardspace: boardspace.net's YINSH SGF,\n"
    "                one game per file (docs/boardspace.md), standard games only;\n"
    "                `yinsh import --format boardspace` reads them back\n"
    "  --out FILE    one stream of records, a blank line between two (default:\n"
    "                standard output)\n"
    "  --out DIR/    one file per game, DIR/RUN-INDEX.rec (an existing directory,\n"
    "                or a path ending in '/', made if missing)\n"
    "  Games come in run order, then by index. A selection without stored games\n"
    "  is an error (1).\n";

/* Room for one tag line: a value of RECORD_VALUE_LEN bytes, each escaped
 * in at most four. */
enum { TAG_LINE_LEN = 4 * RECORD_VALUE_LEN + RECORD_KEY_LEN + 8 };

typedef struct ExportCtx {
    FILE *stream;     /* one stream; NULL: a file per game in dir */
    bool boardspace;  /* SGF as boardspace.net writes it, not our records */
    const char *dir;
    uint64_t games;
    char err[ERR_LEN];
} ExportCtx;

static int put_tag(FILE *f, const char *key, const char *value, char *err)
{
    char line[TAG_LINE_LEN];
    if (strlen(value) >= RECORD_VALUE_LEN || record_tag_format(key, value, line, sizeof line) < 0) {
        snprintf(err, ERR_LEN, "the %s '%.40s...' is longer than a record's tag holds (%d bytes)", key, value,
                 RECORD_VALUE_LEN - 1);
        return 1;
    }
    fprintf(f, "%s\n", line);
    return 0;
}

/* The date a record gives its game: when it was stored, or for an
 * imported game the date of the record it came from, which the import
 * keeps in the run's command ("... # site boardspace.net, date DATE,
 * game NAME", cli/cmd_import.c; "?" when the record had none). */
static const char *game_date(const StoreGameText *g, char *out, size_t len)
{
    const char *d = strcmp(g->kind, "import") ? NULL : strstr(g->command, " # site ");
    if (d && (d = strstr(d, ", date "))) {
        d += strlen(", date ");
        const char *end = strstr(d, ", game ");
        int n = (int)(end ? (size_t)(end - d) : strlen(d));
        if (n > 0 && strncmp(d, "?", (size_t)n)) {
            snprintf(out, len, "%.*s", n, d);
            return out;
        }
    }
    return g->stored_at;
}

/* One record. The tags first, in a fixed order; then the start position
 * of the variant and the stored actions. */
static int write_record(FILE *f, const StoreGameText *g, char *err)
{
    int variant;
    if (!variant_parse(g->variant, &variant)) {
        snprintf(err, ERR_LEN, "run '%s' game %" PRIu32 ": variant '%.32s' is not one this yinsh plays", g->run,
                 g->index, g->variant);
        return 1;
    }
    char seed[24], index[16], length[24], date[RECORD_VALUE_LEN];
    snprintf(seed, sizeof seed, "%" PRIu64, g->seed);
    snprintf(index, sizeof index, "%" PRIu32, g->index);
    snprintf(length, sizeof length, "%" PRId64, g->length);
    const char *tags[][2] = {
        {"Run", g->run},
        {"Index", index},
        {"Kind", g->kind},
        {"Variant", g->variant},
        {"White", g->white},
        {"Black", g->black},
        {"WhiteWeights", g->white_weights},
        {"BlackWeights", g->black_weights},
        {"Seed", seed},
        {"Result", g->result},
        {"Reason", g->reason},
        {"Actions", length},
        {"Date", game_date(g, date, sizeof date)},
        {"Version", g->version},
        {"Commit", g->commit ? g->commit : "?"},
        {"RunUid", g->run_uid},
    };
    for (size_t i = 0; i < sizeof tags / sizeof *tags; i++)
        if (tags[i][1] && put_tag(f, tags[i][0], tags[i][1], err)) return 1;
    Position pos;
    char ypn[YPN_MAX_LEN];
    pos_start(&pos, variant);
    fprintf(f, "%s\n", ypn_format(&pos, ypn));
    for (int i = 0; i < g->nactions; i++) cli_print_action(f, i, g->actions[i]);
    if (g->nactions) fputc('\n', f);
    return 0;
}

/* An SGF value with ']' and '\\' escaped. */
static void sgf_value(FILE *f, const char *v)
{
    for (; *v; v++) {
        if (*v == ']' || *v == '\\') fputc('\\', f);
        fputc(*v, f);
    }
}

/* A player's name on boardspace: ours without the boardspace: of an
 * imported one, so that a game goes out and comes back the same. */
static const char *player_name(const char *spec)
{
    return strncmp(spec, "boardspace:", 11) ? spec : spec + 11;
}

/* One game as boardspace.net writes it: the header, then each action's
 * commands numbered in order, each with its player (P0 White, P1 Black);
 * a resigned game ends with the loser's Resign. Passes are not written:
 * boardspace has none, and the reader puts them back. */
static int write_boardspace(FILE *f, const StoreGameText *g, char *err)
{
    int variant;
    Position pos;
    if (!variant_parse(g->variant, &variant) || variant != VARIANT_STANDARD) {
        snprintf(err, ERR_LEN, "run '%s' game %" PRIu32 ": a %.32s game: boardspace records are standard YINSH",
                 g->run, g->index, g->variant);
        return 1;
    }
    char date[RECORD_VALUE_LEN];
    fprintf(f, "(;\nGM[24]VV[2]\nSU[Yinsh]\nDT[");
    sgf_value(f, game_date(g, date, sizeof date));
    /* the game's name: an imported one's own (its run is import-NAME), so
     * that it comes back under the same run name; else RUN-INDEX */
    fprintf(f, "]\nGN[");
    if (!strcmp(g->kind, "import") && !strncmp(g->run, "import-", 7)) {
        sgf_value(f, g->run + 7);
    } else {
        sgf_value(f, g->run);
        fprintf(f, "-%" PRIu32, g->index);
    }
    fprintf(f, "]\nRE[");
    sgf_value(f, g->result);
    fprintf(f, " %s]\nP0[id \"", g->reason);
    sgf_value(f, player_name(g->white));
    fprintf(f, "\"]\nP1[id \"");
    sgf_value(f, player_name(g->black));
    fprintf(f, "\"]\n; P0[0 Start White]\n");
    pos_start(&pos, variant);
    int num = 1;
    for (int i = 0; i < g->nactions; i++) {
        Action a;
        char perr[ERR_LEN], cmds[2 * BOARDSPACE_TEXT_LEN];
        if (action_parse(&pos, g->actions[i], &a, perr)) {
            snprintf(err, ERR_LEN, "run '%s' game %" PRIu32 ": action %d: %s", g->run, g->index, i + 1, perr);
            return 1;
        }
        boardspace_format(&pos, a, cmds, sizeof cmds);
        for (char *line = strtok(cmds, "\n"); line; line = strtok(NULL, "\n"))
            fprintf(f, "; P%d[%d %s]\n", pos.actor, num++, line);
        Undo u;
        pos_make(&pos, a, &u);
    }
    int result, reason;
    /* boardspace.net records know no faults: a game an engine lost on one
     * is written as its resignation, the nearest they have */
    bool stopped = false;
    for (int r = REASON_RESIGN; r < REASON_NB; r++) stopped |= !strcmp(g->reason, reason_name(r));
    if (stopped && !pos_outcome(&pos, &result, &reason)) {
        int loser = !strcmp(g->result, result_name(RESULT_WHITE)) ? BLACK : WHITE;
        fprintf(f, "; P%d[%d Resign ]\n", loser, num++);
    }
    fprintf(f, ")\n");
    return 0;
}

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

static int export_game(void *ctx, const StoreGameText *g)
{
    ExportCtx *c = ctx;
    if (c->stream) {
        if (c->games) fputc('\n', c->stream);
        if ((c->boardspace ? write_boardspace : write_record)(c->stream, g, c->err)) return 1;
        c->games++;
        return 0;
    }
    /* one file a game, written whole or not at all (base/file.h) */
    char name[STORE_NAME_LEN + 64], path[4096 + sizeof name];
    file_name(g, c->boardspace ? "sgf" : "rec", name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", c->dir, name);
    FileOut o;
    if (file_out_open(&o, path, c->err)) return 1;
    if ((c->boardspace ? write_boardspace : write_record)(o.f, g, c->err)) {
        file_out_abandon(&o);
        return 1;
    }
    if (file_out_commit(&o, c->err)) return 1;
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

int cmd_export(int argc, char **argv)
{
    const char *cmd = "export";
    const char *db = NULL, *run = NULL, *out = NULL, *format = "records";
    long game = -1;
    bool have_game = false;
    const CliOpt opts[] = {
        {.name = "--db", .kind = CLI_TEXT, .out = &db},
        {.name = "--run", .kind = CLI_TEXT, .out = &run},
        {.name = "--game", .kind = CLI_INT, .out = &game, .min = 0, .max = STORE_MAX_GAMES - 1, .seen = &have_game},
        {.name = "--out", .kind = CLI_TEXT, .out = &out},
        {.name = "--format", .kind = CLI_TEXT, .out = &format},
    };
    int npos, rc = cli_parse(cmd, argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
    if (rc) return rc;
    if ((rc = cli_db(cmd, &db))) return rc;
    if (run && !*run) return cli_usage_error(cmd, "--run wants a name");
    if (have_game && !run) return cli_usage_error(cmd, "--game I goes with --run NAME (game I of which run?)");
    if (out && !*out) return cli_usage_error(cmd, "--out wants a file or a directory");
    if (strcmp(format, "records") && strcmp(format, "boardspace"))
        return cli_usage_error(cmd, "--format '%s': records or boardspace", format);

    /* --out: a directory when it is one or ends in '/', else a file */
    struct stat sb;
    size_t olen = out ? strlen(out) : 0;
    bool to_dir = out && ((stat(out, &sb) == 0 && S_ISDIR(sb.st_mode)) || out[olen - 1] == '/');
    const char *inputs[] = {db}, *input_opts[] = {"--db"};
    if (out && !to_dir && (rc = cli_check_output(cmd, "--out", out, inputs, input_opts, 1))) return rc;
    CliWrites w = {.dir = out, .writes = writes_record, .ctx = format};
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
    /* a message of export_game's own, else the store's */
    if (store_query_game_texts(store, run, game, export_game, &c, err)) {
        rc = cli_error(cmd, "%s", c.err[0] ? c.err : err);
        goto done;
    }
    if (c.games == 0) {
        rc = nothing_to_export(cmd, db, run, have_game ? game : -1);
        goto done;
    }
    if (file.f && file_out_commit(&file, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    if (out) fprintf(stderr, "yinsh export: wrote %" PRIu64 " record%s to %s\n", c.games, c.games == 1 ? "" : "s", out);

done:
    file_out_abandon(&file);
    store_close(store);
    return rc;
}
