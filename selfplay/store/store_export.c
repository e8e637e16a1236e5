/* yinsh export's work (store_export.h): the store's games through the
 * record writers of selfplay/records/. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "engine/base/error.h"
#include "engine/base/file.h"
#include "selfplay/records/boardspace.h"
#include "selfplay/records/games.h"
#include "selfplay/records/record_text.h"
#include "selfplay/store/store.h"
#include "selfplay/store/store_export.h"

bool export_format_parse(const char *text, ExportFormat *f)
{
    static const char *const NAMES[] = {"records", "boardspace", "games"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(text, NAMES[i])) {
            *f = (ExportFormat)i;
            return true;
        }
    return false;
}

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

bool export_writes(const char *name, const void *ctx)
{
    size_t n = strlen(name);
    const char *ext = *(const ExportFormat *)ctx == EXPORT_BOARDSPACE ? ".sgf" : ".rec";
    return n > 4 && !strcmp(name + n - 4, ext);
}

/* The selection (game >= 0: that game of run) holds no game. */
static int nothing_to_export(const char *db, const char *run, long game, char *err)
{
    if (game >= 0) return error_code(err, ERR_NOT_FOUND, "run '%s' of '%s' has no stored game %ld", run, db, game);
    if (run)
        return error_code(err, ERR_NOT_FOUND, "run '%s' of '%s' holds no stored games: nothing to export", run, db);
    return error_code(err, ERR_NOT_FOUND, "database '%s' holds no games: nothing to export", db);
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
static int export_games(Store *store, const ExportRequest *q, FILE *f, ExportResult *res, char *err)
{
    GamesOut o = {.f = f};
    GamesRows to = {.on_run = games_on_run, .on_game = games_on_game, .ctx = &o};
    int rc = store_rows_each(store, q->nruns ? q->runs : NULL, q->nruns, &to, err);
    if (rc) return rc;
    games_close_run(&o);
    if (o.runs) games_write_tail(f, o.runs);
    res->runs = o.runs;
    res->games = o.all;
    if (o.runs == 0) return error_code(err, ERR_NOT_FOUND, "database '%s' holds no runs: nothing to export", q->db);
    return 0;
}

/* Where the records go: a folder made when missing, a file opened to be
 * renamed over its path at the end, or the stream. */
static int open_out(const ExportRequest *q, ExportCtx *c, FileOut *file, char *err)
{
    if (q->dir) {
        if (mkdir(q->dir, 0777) != 0 && errno != EEXIST)
            return error_set(err, "cannot make the directory '%s': %s", q->dir, strerror(errno));
        c->dir = q->dir;
        return 0;
    }
    if (q->out) {
        int rc = file_out_open(file, q->out, err);
        if (!rc) c->stream = file->f;
        return rc;
    }
    c->stream = q->stream;
    return 0;
}

int store_export(const ExportRequest *q, ExportResult *res, char *err)
{
    const char *run = q->nruns ? q->runs[0] : NULL;
    Store *store = NULL;
    FileOut file = {0}; /* --out FILE: the stream, renamed over FILE once every record is in it */
    ExportCtx c = {.boardspace = q->format == EXPORT_BOARDSPACE};
    *res = (ExportResult){0};
    int rc = store_open(&store, q->db, STORE_READ, STORE_BUSY_MS, err);
    if (!rc) rc = open_out(q, &c, &file, err);
    if (rc) goto done;
    if (q->format == EXPORT_GAMES) {
        if ((rc = export_games(store, q, c.stream, res, err))) goto done;
    } else {
        if ((rc = store_query_game_texts(store, run, q->game, export_game, &c, err))) {
            /* a message of export_game's own, else the store's */
            if (c.err[0]) error_set(err, "%s", c.err);
            goto done;
        }
        res->games = c.games;
        if (c.games == 0) {
            rc = nothing_to_export(q->db, run, q->game, err);
            goto done;
        }
    }
    if (file.f) rc = file_out_commit(&file, err);
done:
    file_out_abandon(&file);
    store_close(store);
    return rc;
}
