/* The studies' read-only queries (store.h): the report's runs, outcomes
 * and first actions, over a selection of runs. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/notation.h"
#include "selfplay/store/store_internal.h"
#include "selfplay/store/store.h"

/* Prepares `head`, then the selection's conditions after `join` ("WHERE"
 * or "AND"), then `tail`, and binds the values. A selection names runs,
 * a kind, an agent (either side) and a variant, each optional; with
 * `games`, repeats (schema version 5: a game stored again) are left out. */
static int prepare_selected(Store *r, const StoreSelection *sel, const char *head, const char *join,
                            const char *tail, bool games, sqlite3_stmt **st, char *err)
{
    int n = sel ? sel->nruns : 0;
    if (store_version_now(r, err)) return ERR_FAIL;
    size_t len = strlen(head) + strlen(join) + strlen(tail) + 256 + 3 * (size_t)n;
    char *sql = malloc(len);
    if (!sql) {
        return error_set(err, "out of memory");
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
    if (sel && sel->kind) COND(r->version >= 2 ? "run.kind = ?" : "'selfplay' = ?"); /* kind came with version 2 */
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
        return ERR_FAIL;
    }
    return ERR_OK;
}

/* prepare_selected for the store's other files (cursor.c). */
int store_prepare_selected(Store *r, const StoreSelection *sel, const char *head, const char *tail, sqlite3_stmt **st,
                           char *err)
{
    return prepare_selected(r, sel, head, "WHERE", tail, true, st, err);
}

const char *store_column_text(sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    return t ? (const char *)t : "";
}

double store_column_real(sqlite3_stmt *st, int col)
{
    return sqlite3_column_type(st, col) == SQLITE_NULL ? NAN : sqlite3_column_double(st, col);
}

const char *store_root_value_column(const Store *s) { return s->version >= 8 ? "action.root_value" : "NULL"; }
const char *store_full_column(const Store *s) { return s->version >= 9 ? "action.full" : "NULL"; }
uint8_t store_column_budget(sqlite3_stmt *st, int col)
{
    if (sqlite3_column_type(st, col) == SQLITE_NULL) return SEARCH_BUDGET_UNKNOWN;
    return sqlite3_column_int64(st, col) ? SEARCH_BUDGET_FULL : SEARCH_BUDGET_REDUCED;
}

static const char *text(sqlite3_stmt *st, int col) { return store_column_text(st, col); }

StoreGameText store_game_text_row(sqlite3_stmt *st)
{
    return (StoreGameText){
        .run = text(st, 0),
        .run_uid = text(st, 1),
        .kind = text(st, 2),
        .version = text(st, 3),
        .commit = sqlite3_column_type(st, 16) == SQLITE_NULL ? NULL : text(st, 16),
        .seed = (uint64_t)sqlite3_column_int64(st, 4),
        .index = (uint32_t)sqlite3_column_int64(st, 6),
        .variant = text(st, 7),
        .white = text(st, 8),
        .black = text(st, 9),
        .white_weights = sqlite3_column_type(st, 10) == SQLITE_NULL ? NULL : text(st, 10),
        .black_weights = sqlite3_column_type(st, 11) == SQLITE_NULL ? NULL : text(st, 11),
        .result = text(st, 12),
        .reason = text(st, 13),
        .stored_at = text(st, 14),
        .length = sqlite3_column_int64(st, 15),
    };
}

int store_query_check(Store *r, const StoreSelection *sel, char *err)
{
    sqlite3_stmt *st = NULL;
    int rc = store_version_now(r, err);
    if (rc || !sel || sel->nruns == 0) return rc;
    if (r->version == 0) {
        return error_code(err, ERR_NOT_FOUND, "database '%s' has no run named '%s' (it holds no runs)", r->path, sel->runs[0]);
    }
    if (sqlite3_prepare_v2(r->db, "SELECT 1 FROM run WHERE name = ?", -1, &st, NULL) != SQLITE_OK)
        return store_fail(r, err, "looking up runs");
    for (int i = 0; i < sel->nruns && !rc; i++) {
        sqlite3_reset(st);
        sqlite3_bind_text(st, 1, sel->runs[i], -1, SQLITE_STATIC);
        int step = sqlite3_step(st);
        if (step == SQLITE_DONE) {
            rc = error_code(err, ERR_NOT_FOUND, "database '%s' has no run named '%s'", r->path, sel->runs[i]);
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
        int rc_ = ERR_OK, step_;                                             \
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
    char head[1024];
    if (store_version_now(r, err)) return ERR_FAIL;
    /* provenance and repeats from version 5 on, controls from 6 */
    if (r->version >= 5)
        snprintf(head, sizeof head,
                 "SELECT run.name, run.command, run.variant, run.white, run.black, run.version, "
                 "run.started_at, run.finished_at, run.seed, run.games, "
                 "(SELECT count(*) FROM game WHERE game.run_id = run.id), run.kind, "
                 "coalesce(run.git_commit, ''), coalesce(run.compiler, ''), coalesce(run.machine, ''), "
                 "(SELECT count(*) FROM game WHERE game.run_id = run.id AND game.repeat = 1), run.id, run.opening, "
                 "run.pairs, %s FROM run",
                 r->version >= 6 ? "run.controls" : "''");
    else
        snprintf(head, sizeof head, "%s",
                 "SELECT run.name, run.command, run.variant, run.white, run.black, run.version, "
                 "run.started_at, run.finished_at, run.seed, run.games, "
                 "(SELECT count(*) FROM game WHERE game.run_id = run.id), '', '', '', '', 0, run.id, "
                 "'', 0, '' FROM run");
    int rc = prepare_selected(r, sel, head, "WHERE", "ORDER BY run.id", false, &st, err);
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
                  .kind = r->version >= 5 ? text(st, 11) : "",
                  .git_commit = text(st, 12),
                  .compiler = text(st, 13),
                  .machine = text(st, 14),
                  .repeats = sqlite3_column_int64(st, 15),
                  .opening = text(st, 17),
                  .pairs = sqlite3_column_int(st, 18) != 0,
                  .controls = text(st, 19),
              },
              store_run_hash(r, sqlite3_column_int64(st, 16), &row.hash, err)),
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
    if (store_version_now(r, err)) return ERR_FAIL;
    if (r->version < 5) return ERR_OK;
    int rc = prepare_selected(r, sel, "SELECT count(*) FROM game JOIN run ON run.id = game.run_id WHERE game.repeat = 1",
                              "AND", "", false, &st, err);
    if (rc) return rc;
    if (sqlite3_step(st) == SQLITE_ROW) *repeats = sqlite3_column_int64(st, 0);
    else rc = store_fail(r, err, "counting repeats");
    sqlite3_finalize(st);
    return rc;
}

int store_query_match_games(Store *r, const StoreSelection *sel, int (*fn)(void *ctx, const StoreMatchRow *row),
                            void *ctx, char *err)
{
    sqlite3_stmt *st = NULL;
    int rc = prepare_selected(r, sel,
                              "SELECT run.name, run.white, run.black, run.variant, run.games, game.idx, game.result "
                              "FROM game JOIN run ON run.id = game.run_id WHERE run.kind = 'match'",
                              "AND", "ORDER BY run.id, game.idx", true, &st, err);
    if (rc) return rc;
    StoreMatchRow row;
    EACH_ROW(r, st,
             (row = (StoreMatchRow){
                  .run = text(st, 0),
                  .a = text(st, 1),
                  .b = text(st, 2),
                  .variant = text(st, 3),
                  .games = sqlite3_column_int64(st, 4),
                  .index = sqlite3_column_int64(st, 5),
                  .result = text(st, 6),
              }),
             fn, ctx, "reading matches", err);
}

/* Streams one query's rows (game id, game identity, idx, variant, result,
 * action text, action value; ordered by game, then ply) into whole games
 * for fn. */
static int games_each_query(Store *s, sqlite3_stmt *st, int (*fn)(void *, const StoreGame *, char *), void *ctx,
                            uint64_t *ngames, char *err)
{
    int rc = ERR_OK, step;
    char *text = NULL, ident[64] = "";
    size_t tlen = 0, tcap = 0;
    size_t *offs = NULL;
    const char **ptrs = NULL;
    double *vals = NULL, *roots = NULL;
    int nact = 0, acap = 0;
    int64_t cur = -1;
    StoreGame g = {0};
    for (;;) {
        step = sqlite3_step(st);
        int64_t id = step == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
        if (cur >= 0 && id != cur) {
            /* the game `cur` is complete: hand it over */
            for (int i = 0; i < nact; i++) ptrs[i] = text + offs[i];
            g.ident = ident;
            g.nactions = nact;
            g.actions = ptrs;
            g.values = vals;
            g.root_values = roots;
            (*ngames)++;
            if (fn(ctx, &g, err)) {
                rc = ERR_FAIL;
                break;
            }
            nact = 0;
            tlen = 0;
        }
        if (step != SQLITE_ROW) break;
        if (id != cur) {
            const char *u = (const char *)sqlite3_column_text(st, 1);
            const char *variant = (const char *)sqlite3_column_text(st, 3);
            const char *result = (const char *)sqlite3_column_text(st, 4);
            snprintf(ident, sizeof ident, "%s", u ? u : "");
            g.index = (uint32_t)sqlite3_column_int64(st, 2);
            if (!variant || !variant_parse(variant, &g.variant)) g.variant = -1;
            g.result = result_parse(result);
            if (g.variant < 0 || g.result == RESULT_NONE) {
                rc = error_set(err, "database '%s': game %s (index %u): unknown variant or result ('%s', '%s')",
                         s->path, ident, (unsigned)g.index, variant ? variant : "", result ? result : "");
                break;
            }
            cur = id;
        }
        const char *a = (const char *)sqlite3_column_text(st, 5);
        size_t len = a ? strlen(a) : 0;
        if (tlen + len + 1 > tcap || nact == acap) {
            size_t ncap = tcap ? tcap : 4096;
            while (ncap < tlen + len + 1) ncap *= 2;
            int nacap = nact == acap ? (acap ? acap * 2 : 256) : acap;
            char *t = realloc(text, ncap);
            if (t) text = t;
            size_t *o = realloc(offs, (size_t)nacap * sizeof *o);
            if (o) offs = o;
            const char **p = realloc(ptrs, (size_t)nacap * sizeof *p);
            if (p) ptrs = p;
            double *v = realloc(vals, (size_t)nacap * sizeof *v);
            if (v) vals = v;
            double *rv = realloc(roots, (size_t)nacap * sizeof *rv);
            if (rv) roots = rv;
            if (!t || !o || !p || !v || !rv) {
                rc = error_set(err, "out of memory reading games");
                break;
            }
            tcap = ncap;
            acap = nacap;
        }
        memcpy(text + tlen, a ? a : "", len + 1);
        vals[nact] = sqlite3_column_type(st, 6) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 6);
        roots[nact] = sqlite3_column_type(st, 7) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 7);
        offs[nact++] = tlen;
        tlen += len + 1;
    }
    if (!rc && step != SQLITE_DONE) rc = store_fail(s, err, "reading games");
    free(text);
    free(offs);
    free(ptrs);
    free(vals);
    free(roots);
    return rc;
}

int store_games_each(Store *s, const StoreSelection *sel, int (*fn)(void *ctx, const StoreGame *g, char *err),
                     void *ctx, uint64_t *ngames, char *err)
{
    sqlite3_stmt *st = NULL;
    *ngames = 0;
    int rc = store_query_check(s, sel, err);
    if (rc || s->version == 0) return rc; /* no schema: no games */
    /* a game's identity (version 5; before, its run and index), the root
     * values (version 8) */
    char head[512];
    snprintf(head, sizeof head,
             "SELECT game.id, %s, game.idx, game.variant, game.result, action.action, action.value, %s "
             "FROM game JOIN run ON run.id = game.run_id JOIN action ON action.game_id = game.id "
             "WHERE game.result != 'none'",
             s->version >= 5 ? "game.ident" : "run.uid || ':' || game.idx", store_root_value_column(s));
    rc = prepare_selected(s, sel, head, "AND", "ORDER BY game.run_id, game.idx, action.ply", true, &st, err);
    if (rc) return rc;
    rc = games_each_query(s, st, fn, ctx, ngames, err);
    sqlite3_finalize(st);
    return rc;
}

/* Whether a table has a column: a database opened for reading keeps its
 * schema version, and columns added by later versions may be missing. */
static int has_column(Store *r, const char *table, const char *column, bool *yes, char *err)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(r->db, "SELECT 1 FROM pragma_table_info(?) WHERE name = ?", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, column, -1, SQLITE_STATIC);
        rc = sqlite3_step(st);
    }
    *yes = rc == SQLITE_ROW;
    if (rc == SQLITE_ROW || rc == SQLITE_DONE) rc = SQLITE_OK;
    sqlite3_finalize(st);
    return rc == SQLITE_OK ? ERR_OK : store_fail(r, err, "reading the schema");
}

/* The action texts of one game, gathered into one buffer: offsets while
 * it grows, pointers once it is complete. */
typedef struct ActionTexts {
    char *buf;
    size_t len, cap;
    size_t *offset;
    const char **text;
    int n, cap_n;
} ActionTexts;

static int action_texts_read(Store *r, sqlite3_stmt *st, int64_t game_id, ActionTexts *a, char *err)
{
    int step;
    a->len = 0;
    a->n = 0;
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, game_id);
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        const char *t = text(st, 0);
        size_t tl = strlen(t) + 1;
        if (a->len + tl > a->cap) {
            size_t cap = a->cap ? 2 * a->cap : 4096;
            while (cap < a->len + tl) cap *= 2;
            char *more = realloc(a->buf, cap);
            if (!more) goto oom;
            a->buf = more;
            a->cap = cap;
        }
        if (a->n == a->cap_n) {
            int cap = a->cap_n ? 2 * a->cap_n : 256;
            size_t *more = realloc(a->offset, (size_t)cap * sizeof *more);
            if (!more) goto oom;
            a->offset = more;
            const char **more_text = realloc(a->text, (size_t)cap * sizeof *more_text);
            if (!more_text) goto oom;
            a->text = more_text;
            a->cap_n = cap;
        }
        memcpy(a->buf + a->len, t, tl);
        a->offset[a->n++] = a->len;
        a->len += tl;
    }
    if (step != SQLITE_DONE) return store_fail(r, err, "reading actions");
    for (int i = 0; i < a->n; i++) a->text[i] = a->buf + a->offset[i];
    return ERR_OK;
oom:
    return error_set(err, "out of memory for a game's actions");
}

int store_query_game_texts(Store *r, const char *run, int64_t index, int (*fn)(void *ctx, const StoreGameText *g),
                           void *ctx, char *err)
{
    sqlite3_stmt *st = NULL, *acts = NULL;
    ActionTexts a = {0};
    bool schema, weights, kind;
    int rc = has_column(r, "run", "name", &schema, err);
    if (!rc && !schema) {
        return error_code(err, ERR_NOT_FOUND, "database '%s' holds no runs", r->path);
    }
    if (!rc && run) {
        const char *names[] = {run};
        StoreSelection sel = {.runs = names, .nruns = 1};
        rc = store_query_check(r, &sel, err);
    }
    if (!rc) rc = has_column(r, "run", "white_weights", &weights, err);
    if (!rc) rc = has_column(r, "run", "kind", &kind, err);
    if (rc) return rc;
    /* Columns of later schema versions: run.kind (2), the weights (4).
     * The weights belong to the run's agents (white: A of a match); a
     * game's side gets the hash of the run agent it is. */
    const char *sql_weights =
        "NULLIF(CASE WHEN game.white = run.white THEN run.white_weights ELSE run.black_weights END, ''), "
        "NULLIF(CASE WHEN game.black = run.black THEN run.black_weights ELSE run.white_weights END, '')";
    char sql[1600];
    snprintf(sql, sizeof sql,
             "SELECT run.name, run.uid, %s, run.version, run.seed, game.id, game.idx, game.variant, "
             "game.white, game.black, %s, game.result, game.reason, game.stored_at, game.actions, %s, run.command "
             "FROM game JOIN run ON run.id = game.run_id "
             "WHERE (?1 IS NULL OR run.name = ?1) AND (?2 < 0 OR game.idx = ?2) ORDER BY run.id, game.idx",
             kind ? "run.kind" : "'selfplay'", weights ? sql_weights : "NULL, NULL",
             r->version >= 5 ? "run.git_commit" : "NULL"); /* the commit came with version 5 */
    if (sqlite3_prepare_v2(r->db, sql, -1, &st, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(r->db, "SELECT action FROM action WHERE game_id = ? ORDER BY ply", -1, &acts, NULL) !=
            SQLITE_OK) {
        rc = store_fail(r, err, "preparing the games query");
        goto done;
    }
    if (run) sqlite3_bind_text(st, 1, run, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, index);
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if ((rc = action_texts_read(r, acts, sqlite3_column_int64(st, 5), &a, err))) goto done;
        StoreGameText g = store_game_text_row(st);
        g.command = text(st, 17);
        g.nactions = a.n;
        g.actions = a.text;
        if ((rc = fn(ctx, &g))) goto done;
    }
    if (step != SQLITE_DONE) rc = store_fail(r, err, "reading games");
done:
    sqlite3_finalize(st);
    sqlite3_finalize(acts);
    free(a.buf);
    free(a.offset);
    free(a.text);
    return rc;
}

int store_query_games(Store *r, const StoreSelection *sel, int (*fn)(void *ctx, const StoreGameRow *row), void *ctx,
                      char *err)
{
    sqlite3_stmt *st = NULL;
    int rc = prepare_selected(r, sel,
                              "SELECT game.id, run.name, game.idx, game.seed, game.variant, game.white, game.black, "
                              "game.result, game.reason, game.actions, game.duration_ms "
                              "FROM game JOIN run ON run.id = game.run_id",
                              "WHERE", "ORDER BY run.id, game.idx", true, &st, err);
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
    if (store_version_now(r, err)) return ERR_FAIL;
    char head[512];
    snprintf(head, sizeof head,
             "SELECT action.game_id, action.ply, action.actor, action.state, action.action, action.legal, "
             "action.root_visits, action.chosen_visits, action.value, action.time_us, %s, %s "
             "FROM game JOIN run ON run.id = game.run_id JOIN action ON action.game_id = game.id",
             store_root_value_column(r), store_full_column(r));
    int rc = prepare_selected(r, sel, head, "WHERE", "ORDER BY run.id, game.idx, action.ply", true, &st, err);
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
                  .root_value = store_column_real(st, 10),
                  .budget = store_column_budget(st, 11),
                  .time_us = sqlite3_column_int64(st, 9),
              }),
             fn, ctx, "reading actions", err);
}

/* A game as store_query_game_actions gathers it: its texts in one buffer
 * (offsets while it grows, pointers once it is whole) and its actions. */
typedef struct GameBuffer {
    char *text;
    size_t len, cap;
    StoreActionRow *rows;
    size_t *off;      /* per row: the offsets of actor, state and action */
    int n, cap_n;
    size_t head[6];   /* run, variant, white, black, result, reason */
} GameBuffer;

/* Appends s (NUL included) to the buffer; its offset in *at. */
static bool buffer_put(GameBuffer *b, const char *s, size_t *at)
{
    size_t n = strlen(s) + 1;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 4096;
        while (cap < b->len + n) cap *= 2;
        char *more = realloc(b->text, cap);
        if (!more) return false;
        b->text = more;
        b->cap = cap;
    }
    memcpy(b->text + b->len, s, n);
    *at = b->len;
    b->len += n;
    return true;
}

int store_query_game_actions(Store *r, const StoreSelection *sel, int (*fn)(void *ctx, const StoreGameActions *g),
                             void *ctx, char *err)
{
    sqlite3_stmt *st = NULL;
    if (store_version_now(r, err)) return ERR_FAIL;
    /* LEFT JOIN: a game without action rows (an imported record that
     * stops at once) is still a game */
    char head[640];
    snprintf(head, sizeof head,
             "SELECT game.id, run.name, game.idx, game.variant, game.white, game.black, game.result, game.reason, "
             "game.actions, action.ply, action.actor, action.state, action.action, action.legal, action.root_visits, "
             "action.chosen_visits, action.value, action.time_us, %s, %s "
             "FROM game JOIN run ON run.id = game.run_id LEFT JOIN action ON action.game_id = game.id",
             store_root_value_column(r), store_full_column(r));
    int rc = prepare_selected(r, sel, head, "WHERE", "ORDER BY run.id, game.idx, action.ply", true, &st, err);
    if (rc) return rc;
    GameBuffer b = {0};
    StoreGameActions g = {0};
    int64_t cur = -1;
    int step;
    for (;;) {
        step = sqlite3_step(st);
        int64_t id = step == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
        if (cur >= 0 && id != cur) {
            /* the game `cur` is whole: its pointers, then fn */
            for (int i = 0; i < b.n; i++) {
                b.rows[i].actor = b.text + b.off[3 * i];
                b.rows[i].state = b.text + b.off[3 * i + 1];
                b.rows[i].action = b.text + b.off[3 * i + 2];
            }
            const char **head[6] = {&g.run, &g.variant, &g.white, &g.black, &g.result, &g.reason};
            for (int k = 0; k < 6; k++) *head[k] = b.text + b.head[k];
            g.nactions = b.n;
            g.actions = b.rows;
            if ((rc = fn(ctx, &g))) break;
            b.len = 0;
            b.n = 0;
        }
        if (step != SQLITE_ROW) break;
        if (id != cur) {
            cur = id;
            g = (StoreGameActions){.index = sqlite3_column_int64(st, 2), .length = sqlite3_column_int64(st, 8)};
            static const int COLUMNS[6] = {1, 3, 4, 5, 6, 7};
            for (int k = 0; k < 6; k++)
                if (!buffer_put(&b, text(st, COLUMNS[k]), &b.head[k])) goto oom;
        }
        if (sqlite3_column_type(st, 9) == SQLITE_NULL) continue; /* no action rows */
        if (b.n == b.cap_n) {
            int cap = b.cap_n ? 2 * b.cap_n : 256;
            StoreActionRow *rows = realloc(b.rows, (size_t)cap * sizeof *rows);
            if (!rows) goto oom;
            b.rows = rows;
            size_t *off = realloc(b.off, 3 * (size_t)cap * sizeof *off);
            if (!off) goto oom;
            b.off = off;
            b.cap_n = cap;
        }
        b.rows[b.n] = (StoreActionRow){
            .game_id = id,
            .ply = sqlite3_column_int64(st, 9),
            .legal = sqlite3_column_int64(st, 13),
            .searched = sqlite3_column_type(st, 16) != SQLITE_NULL,
            .root_visits = sqlite3_column_int64(st, 14),
            .chosen_visits = sqlite3_column_int64(st, 15),
            .value = sqlite3_column_double(st, 16),
            .root_value = store_column_real(st, 18),
            .budget = store_column_budget(st, 19),
            .time_us = sqlite3_column_int64(st, 17),
        };
        for (int k = 0; k < 3; k++)
            if (!buffer_put(&b, text(st, 10 + k), &b.off[3 * b.n + (size_t)k])) goto oom;
        b.n++;
    }
    if (!rc && step != SQLITE_DONE) rc = store_fail(r, err, "reading games and their actions");
    goto done;
oom:
    rc = error_set(err, "out of memory reading a game's actions");
done:
    sqlite3_finalize(st);
    free(b.text);
    free(b.rows);
    free(b.off);
    return rc;
}
