/* The studies' read-only queries (store.h): the report's runs, outcomes
 * and first actions, over a selection of runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "store_internal.h"

/* Prepares `head` followed, with a selection, by `join` "run.name IN
 * (?, ...)" and `tail`, and binds the names. */
static int prepare_selected(Store *r, const StoreSelection *sel, const char *head, const char *join,
                            const char *tail, sqlite3_stmt **st, char *err)
{
    int n = sel ? sel->nruns : 0;
    size_t len = strlen(head) + strlen(join) + strlen(tail) + 32 + 3 * (size_t)n;
    char *sql = malloc(len);
    if (!sql) {
        snprintf(err, ERR_LEN, "out of memory");
        return STORE_ERROR;
    }
    size_t at = (size_t)snprintf(sql, len, "%s", head);
    if (n > 0) {
        at += (size_t)snprintf(sql + at, len - at, " %s run.name IN (", join);
        for (int i = 0; i < n; i++) at += (size_t)snprintf(sql + at, len - at, i ? ",?" : "?");
        at += (size_t)snprintf(sql + at, len - at, ")");
    }
    snprintf(sql + at, len - at, " %s", tail);
    int rc = sqlite3_prepare_v2(r->db, sql, -1, st, NULL);
    free(sql);
    for (int i = 0; rc == SQLITE_OK && i < n; i++)
        rc = sqlite3_bind_text(*st, i + 1, sel->runs[i], -1, SQLITE_STATIC);
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
                              "WHERE", "ORDER BY run.id", &st, err);
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
                              "WHERE", "GROUP BY 1, 2, 3, 4, 5, 6", &st, err);
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
                              "WHERE", "GROUP BY 1, 2, 3", &st, err);
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

int store_query_games(Store *r, const StoreSelection *sel, int (*fn)(void *ctx, const StoreGameRow *row), void *ctx,
                      char *err)
{
    sqlite3_stmt *st = NULL;
    int rc = prepare_selected(r, sel,
                              "SELECT game.id, run.name, game.idx, game.seed, game.variant, game.white, game.black, "
                              "game.result, game.reason, game.actions, game.duration_ms "
                              "FROM game JOIN run ON run.id = game.run_id",
                              "WHERE", "ORDER BY run.id, game.idx", &st, err);
    if (rc) return rc;
    StoreGameRow row;
    EACH_ROW(r, st,
             (row = (StoreGameRow){
                  .id = sqlite3_column_int64(st, 0),
                  .run = text(st, 1),
                  .index = sqlite3_column_int64(st, 2),
                  .seed = (uint64_t)sqlite3_column_int64(st, 3),
                  .variant = text(st, 4),
                  .white = text(st, 5),
                  .black = text(st, 6),
                  .result = text(st, 7),
                  .reason = text(st, 8),
                  .actions = sqlite3_column_int64(st, 9),
                  .duration_ms = sqlite3_column_double(st, 10),
              }),
             fn, ctx, "reading games", err);
}

/* In the order of store_query_games, so that a caller can walk both
 * together; the search figures are NULL together (an action not searched). */
int store_query_actions(Store *r, const StoreSelection *sel, int (*fn)(void *ctx, const StoreActionRow *row),
                        void *ctx, char *err)
{
    sqlite3_stmt *st = NULL;
    int rc = prepare_selected(r, sel,
                              "SELECT action.game_id, action.ply, action.actor, action.state, action.action, "
                              "action.legal, action.root_visits, action.chosen_visits, action.value, action.time_us "
                              "FROM game JOIN run ON run.id = game.run_id JOIN action ON action.game_id = game.id",
                              "WHERE", "ORDER BY run.id, game.idx, action.ply", &st, err);
    if (rc) return rc;
    StoreActionRow row;
    EACH_ROW(r, st,
             (row = (StoreActionRow){
                  .game_id = sqlite3_column_int64(st, 0),
                  .ply = sqlite3_column_int64(st, 1),
                  .actor = text(st, 2),
                  .state = text(st, 3),
                  .action = text(st, 4),
                  .legal = sqlite3_column_int64(st, 5),
                  .searched = sqlite3_column_type(st, 8) != SQLITE_NULL,
                  .root_visits = sqlite3_column_int64(st, 6),
                  .chosen_visits = sqlite3_column_int64(st, 7),
                  .value = sqlite3_column_double(st, 8),
                  .time_us = sqlite3_column_int64(st, 9),
              }),
             fn, ctx, "reading actions", err);
}
