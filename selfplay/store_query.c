/* The studies' read-only queries (store.h): the report's runs, outcomes
 * and first actions, over a selection of runs. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "store_internal.h"

/* Prepares `head`, then the selection's conditions after `join` ("WHERE"
 * or "AND"), then `tail`, and binds the values. A selection names runs,
 * a kind, an agent (either side) and a variant, each optional; with
 * `games`, repeats (schema version 5: a game stored again) are left out. */
static int prepare_selected(Store *r, const StoreSelection *sel, const char *head, const char *join,
                            const char *tail, bool games, sqlite3_stmt **st, char *err)
{
    int n = sel ? sel->nruns : 0;
    size_t len = strlen(head) + strlen(join) + strlen(tail) + 256 + 3 * (size_t)n;
    char *sql = malloc(len);
    if (!sql) {
        snprintf(err, ERR_LEN, "out of memory");
        return STORE_ERROR;
    }
    size_t at = (size_t)snprintf(sql, len, "%s", head);
    const char *sep = join;
#define COND(...)                                                                   \
    do {                                                                            \
        at += (size_t)snprintf(sql + at, len - at, " %s ", sep);                    \
        at += (size_t)snprintf(sql + at, len - at, __VA_ARGS__);                     \
        sep = "AND";                                                                \
    } while (0)
    if (n > 0) {
        COND("run.name IN (");
        for (int i = 0; i < n; i++) at += (size_t)snprintf(sql + at, len - at, i ? ",?" : "?");
        at += (size_t)snprintf(sql + at, len - at, ")");
    }
    if (sel && sel->kind) COND("run.kind = ?");
    if (sel && sel->agent) COND("(run.white = ? OR run.black = ?)");
    if (sel && sel->variant) COND("run.variant = ?");
    if (games && r->version >= 5) COND("game.repeat = 0");
#undef COND
    snprintf(sql + at, len - at, " %s", tail);
    int rc = sqlite3_prepare_v2(r->db, sql, -1, st, NULL);
    free(sql);
    int k = 1;
    for (int i = 0; rc == SQLITE_OK && i < n; i++) rc = sqlite3_bind_text(*st, k++, sel->runs[i], -1, SQLITE_STATIC);
    if (rc == SQLITE_OK && sel && sel->kind) rc = sqlite3_bind_text(*st, k++, sel->kind, -1, SQLITE_STATIC);
    for (int i = 0; rc == SQLITE_OK && sel && sel->agent && i < 2; i++)
        rc = sqlite3_bind_text(*st, k++, sel->agent, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK && sel && sel->variant) rc = sqlite3_bind_text(*st, k++, sel->variant, -1, SQLITE_STATIC);
    if (rc != SQLITE_OK) {
        store_fail(r, err, "preparing a query");
        sqlite3_finalize(*st);
        *st = NULL;
        return STORE_ERROR;
    }
    return STORE_OK;
}

static const char *text(sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    return t ? (const char *)t : "";
}

int store_query_check(Store *r, const StoreSelection *sel, char *err)
{
    sqlite3_stmt *st = NULL;
    int rc = STORE_OK;
    if (!sel || sel->nruns == 0) return STORE_OK;
    if (sqlite3_prepare_v2(r->db, "SELECT 1 FROM run WHERE name = ?", -1, &st, NULL) != SQLITE_OK)
        return store_fail(r, err, "looking up runs");
    for (int i = 0; i < sel->nruns && !rc; i++) {
        sqlite3_reset(st);
        sqlite3_bind_text(st, 1, sel->runs[i], -1, SQLITE_STATIC);
        int step = sqlite3_step(st);
        if (step == SQLITE_DONE) {
            snprintf(err, ERR_LEN, "database '%s' has no run named '%s'", r->path, sel->runs[i]);
            rc = STORE_NOT_FOUND;
        } else if (step != SQLITE_ROW) {
            rc = store_fail(r, err, "looking up runs");
        }
    }
    sqlite3_finalize(st);
    return rc;
}

/* The loop every query shares: step to the end, fill `row` from the
 * statement, hand it to fn; the statement is finalized. */
#define EACH_ROW(r, st, fill, fn, ctx, what, err)                              \
    do {                                                                       \
        int rc_ = STORE_OK, step_;                                             \
        while ((step_ = sqlite3_step(st)) == SQLITE_ROW) {                     \
            fill;                                                              \
            if ((rc_ = fn(ctx, &row))) break;                                  \
        }                                                                      \
        if (!rc_ && step_ != SQLITE_DONE) rc_ = store_fail(r, err, what);            \
        sqlite3_finalize(st);                                                  \
        return rc_;                                                            \
    } while (0)

int store_query_runs(Store *r, const StoreSelection *sel, int (*fn)(void *ctx, const StoreRunRow *row),
                      void *ctx, char *err)
{
    sqlite3_stmt *st = NULL;
    int rc = prepare_selected(r, sel,
                              "SELECT run.name, run.command, run.variant, run.white, run.black, run.version, "
                              "run.started_at, run.finished_at, run.seed, run.games, "
                              "(SELECT count(*) FROM game WHERE game.run_id = run.id) FROM run",
                              "WHERE", "ORDER BY run.id", false, &st, err);
    if (rc) return rc;
    StoreRunRow row;
    EACH_ROW(r, st,
             (row = (StoreRunRow){
                  .name = text(st, 0),
                  .command = text(st, 1),
                  .variant = text(st, 2),
                  .white = text(st, 3),
                  .black = text(st, 4),
                  .version = text(st, 5),
                  .started_at = text(st, 6),
                  .finished_at = sqlite3_column_type(st, 7) == SQLITE_NULL ? NULL : text(st, 7),
                  .seed = (uint64_t)sqlite3_column_int64(st, 8),
                  .games = sqlite3_column_int64(st, 9),
                  .stored = sqlite3_column_int64(st, 10),
              }),
             fn, ctx, "reading runs", err);
}

int store_query_outcomes(Store *r, const StoreSelection *sel,
                          int (*fn)(void *ctx, const StoreOutcomeRow *row), void *ctx, char *err)
{
    sqlite3_stmt *st = NULL;
    int rc = prepare_selected(r, sel,
                              "SELECT game.variant, game.white, game.black, game.result, game.reason, game.actions, "
                              "count(*) FROM game JOIN run ON run.id = game.run_id",
                              "WHERE", "GROUP BY 1, 2, 3, 4, 5, 6", true, &st, err);
    if (rc) return rc;
    StoreOutcomeRow row;
    EACH_ROW(r, st,
             (row = (StoreOutcomeRow){
                  .variant = text(st, 0),
                  .white = text(st, 1),
                  .black = text(st, 2),
                  .result = text(st, 3),
                  .reason = text(st, 4),
                  .actions = sqlite3_column_int64(st, 5),
                  .games = sqlite3_column_int64(st, 6),
              }),
             fn, ctx, "reading games", err);
}

int store_query_first_actions(Store *r, const StoreSelection *sel,
                               int (*fn)(void *ctx, const StoreFirstRow *row), void *ctx, char *err)
{
    sqlite3_stmt *st = NULL;
    int rc = prepare_selected(r, sel,
                              "SELECT game.variant, action.action, game.result, count(*) FROM game "
                              "JOIN run ON run.id = game.run_id "
                              "JOIN action ON action.game_id = game.id AND action.ply = 0",
                              "WHERE", "GROUP BY 1, 2, 3", true, &st, err);
    if (rc) return rc;
    StoreFirstRow row;
    EACH_ROW(r, st,
             (row = (StoreFirstRow){
                  .variant = text(st, 0),
                  .action = text(st, 1),
                  .result = text(st, 2),
                  .games = sqlite3_column_int64(st, 3),
              }),
             fn, ctx, "reading first actions", err);
}

int store_query_repeats(Store *r, const StoreSelection *sel, int64_t *repeats, char *err)
{
    sqlite3_stmt *st = NULL;
    *repeats = 0;
    if (r->version < 5) return STORE_OK;
    int rc = prepare_selected(r, sel, "SELECT count(*) FROM game JOIN run ON run.id = game.run_id WHERE game.repeat = 1",
                              "AND", "", false, &st, err);
    if (rc) return rc;
    if (sqlite3_step(st) == SQLITE_ROW) *repeats = sqlite3_column_int64(st, 0);
    else rc = store_fail(r, err, "counting repeats");
    sqlite3_finalize(st);
    return rc;
}
