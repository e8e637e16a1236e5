#include <errno.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "notation.h"
#include "playout.h"
#include "store.h"

#ifndef YINSH_VERSION
#define YINSH_VERSION "unknown"
#endif

/* selfplay/schema.sql, verbatim (test_selfplay compares the two). */
static const char SCHEMA_SQL[] =
    "-- Yinsh Lab self-play database, schema version 2 (PRAGMA user_version).\n"
    "-- docs/schema.md explains every column; store.c embeds this text (a test\n"
    "-- checks that the two agree).\n"
    "CREATE TABLE run (\n"
    "    id          INTEGER PRIMARY KEY,\n"
    "    uid         TEXT    NOT NULL UNIQUE,\n"
    "    name        TEXT    NOT NULL UNIQUE,\n"
    "    command     TEXT    NOT NULL,\n"
    "    version     TEXT    NOT NULL,\n"
    "    host        TEXT    NOT NULL,\n"
    "    seed        INTEGER NOT NULL,\n"
    "    variant     TEXT    NOT NULL,\n"
    "    white       TEXT    NOT NULL,\n"
    "    black       TEXT    NOT NULL,\n"
    "    games       INTEGER NOT NULL,\n"
    "    threads     INTEGER NOT NULL,\n"
    "    params      TEXT    NOT NULL,\n"
    "    started_at  TEXT    NOT NULL,\n"
    "    finished_at TEXT,\n"
    "    kind        TEXT    NOT NULL DEFAULT 'selfplay'\n"
    ");\n"
    "CREATE TABLE game (\n"
    "    id            INTEGER PRIMARY KEY,\n"
    "    run_id        INTEGER NOT NULL REFERENCES run (id),\n"
    "    idx           INTEGER NOT NULL,\n"
    "    seed          INTEGER NOT NULL,\n"
    "    variant       TEXT    NOT NULL,\n"
    "    white         TEXT    NOT NULL,\n"
    "    black         TEXT    NOT NULL,\n"
    "    result        TEXT    NOT NULL,\n"
    "    reason        TEXT    NOT NULL,\n"
    "    actions       INTEGER NOT NULL,\n"
    "    white_removed INTEGER NOT NULL,\n"
    "    black_removed INTEGER NOT NULL,\n"
    "    white_markers INTEGER NOT NULL,\n"
    "    black_markers INTEGER NOT NULL,\n"
    "    duration_ms   REAL    NOT NULL,\n"
    "    stored_at     TEXT    NOT NULL,\n"
    "    UNIQUE (run_id, idx)\n"
    ");\n"
    "CREATE INDEX game_by_agents ON game (white, black, variant);\n"
    "CREATE INDEX game_by_result ON game (run_id, result, reason);\n"
    "CREATE TABLE action (\n"
    "    game_id       INTEGER NOT NULL REFERENCES game (id),\n"
    "    ply           INTEGER NOT NULL,\n"
    "    actor         TEXT    NOT NULL,\n"
    "    state         TEXT    NOT NULL,\n"
    "    action        TEXT    NOT NULL,\n"
    "    legal         INTEGER NOT NULL,\n"
    "    root_visits   INTEGER,\n"
    "    chosen_visits INTEGER,\n"
    "    value         REAL,\n"
    "    time_us       INTEGER NOT NULL,\n"
    "    PRIMARY KEY (game_id, ply)\n"
    ") WITHOUT ROWID;\n"
    "CREATE INDEX action_by_state ON action (state, actor);\n"
    "PRAGMA user_version = 2;\n";

const char *store_schema_sql(void) { return SCHEMA_SQL; }

struct Store {
    sqlite3 *db;
    char *path;
    sqlite3_stmt *ins_game, *ins_action; /* prepared on first write */
};

/* "database 'path': what (sqlite's message)" */
static int fail(const Store *s, char *err, const char *what)
{
    const char *why = s->db ? sqlite3_errmsg(s->db) : "out of memory";
    int code = s->db ? sqlite3_errcode(s->db) : SQLITE_NOMEM;
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
        snprintf(err, STORE_ERR_LEN, "database '%s': %s: it is locked by another process (%s)", s->path, what, why);
    else if (code == SQLITE_NOTADB)
        snprintf(err, STORE_ERR_LEN, "'%s' is not a database (%s)", s->path, why);
    else
        snprintf(err, STORE_ERR_LEN, "database '%s': %s: %s", s->path, what, why);
    return STORE_ERROR;
}

static int schema_version(Store *s, int *version, char *err)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *version = sqlite3_column_int(st, 0);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_OK ? STORE_OK : fail(s, err, "reading the schema version");
}

static int count_tables(Store *s, int *n, char *err)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *n = sqlite3_column_int(st, 0);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_OK ? STORE_OK : fail(s, err, "reading the schema");
}

/* Runs one statement that may return one text row (a PRAGMA); the row, if
 * any, is copied to out. */
static int exec1(Store *s, const char *sql, char *out, size_t outlen, char *err)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        if (out) snprintf(out, outlen, "%s", (const char *)sqlite3_column_text(st, 0));
        rc = SQLITE_DONE;
    }
    if (rc == SQLITE_DONE) rc = SQLITE_OK;
    sqlite3_finalize(st);
    return rc == SQLITE_OK ? STORE_OK : fail(s, err, sql);
}

static int begin(Store *s, char *err);
static int commit(Store *s, char *err);
static void rollback(Store *s);

/* Version 1 -> 2: run.kind. The version is read again inside the write
 * transaction, so two processes opening one old file upgrade it once. */
static int upgrade_v1(Store *s, char *err)
{
    int rc, version = 0;
    if ((rc = begin(s, err))) return rc;
    if ((rc = schema_version(s, &version, err))) goto done;
    if (version == 1) {
        if (sqlite3_exec(s->db, "ALTER TABLE run ADD COLUMN kind TEXT NOT NULL DEFAULT 'selfplay'", NULL, NULL,
                         NULL) != SQLITE_OK ||
            sqlite3_exec(s->db, "PRAGMA user_version = 2", NULL, NULL, NULL) != SQLITE_OK) {
            rc = fail(s, err, "upgrading the schema from version 1 to 2");
            goto done;
        }
    }
    rc = commit(s, err);
done:
    if (rc) rollback(s);
    return rc;
}

int store_open(Store **out, const char *path, bool create, int busy_ms, char *err)
{
    int rc = STORE_OK, version = 0, tables = 0;
    char mode[16] = "";
    struct stat sb;
    Store *s = calloc(1, sizeof *s);
    *out = NULL;
    if (!s || !(s->path = strdup(path))) {
        snprintf(err, STORE_ERR_LEN, "out of memory");
        rc = STORE_ERROR;
        goto done;
    }
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        snprintf(err, STORE_ERR_LEN, "database '%s': is a directory", path);
        rc = STORE_ERROR;
        goto done;
    }
    if (!create && stat(path, &sb) != 0) {
        snprintf(err, STORE_ERR_LEN, "database '%s': %s", path, strerror(errno));
        rc = STORE_ERROR;
        goto done;
    }
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_FULLMUTEX;
    if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
        snprintf(err, STORE_ERR_LEN, "cannot open database '%s': %s (does its directory exist, and is it writable?)",
                 path, s->db ? sqlite3_errmsg(s->db) : "out of memory");
        rc = STORE_ERROR;
        goto done;
    }
    sqlite3_extended_result_codes(s->db, 0);
    sqlite3_busy_timeout(s->db, busy_ms);
    if (sqlite3_db_readonly(s->db, "main") == 1) {
        snprintf(err, STORE_ERR_LEN, "database '%s': the file is read-only", path);
        rc = STORE_ERROR;
        goto done;
    }

    /* Check what the file is before writing anything to it. */
    if ((rc = schema_version(s, &version, err))) goto done;
    if (version > STORE_SCHEMA_VERSION) {
        snprintf(err, STORE_ERR_LEN,
                 "database '%s' has schema version %d, newer than this yinsh understands (%d): use a newer yinsh",
                 path, version, STORE_SCHEMA_VERSION);
        rc = STORE_ERROR;
        goto done;
    }
    if (version == 0) {
        if ((rc = count_tables(s, &tables, err))) goto done;
        if (tables > 0) {
            snprintf(err, STORE_ERR_LEN,
                     "database '%s' is an SQLite database but not a Yinsh Lab one (it has tables but no schema "
                     "version)",
                     path);
            rc = STORE_ERROR;
            goto done;
        }
    }

    if ((rc = exec1(s, "PRAGMA journal_mode=WAL", mode, sizeof mode, err))) goto done;
    if (strcmp(mode, "wal") && strcmp(mode, "memory")) {
        snprintf(err, STORE_ERR_LEN, "database '%s': cannot switch to WAL mode (journal mode is '%s')", path, mode);
        rc = STORE_ERROR;
        goto done;
    }
    if ((rc = exec1(s, "PRAGMA synchronous=NORMAL", NULL, 0, err))) goto done;
    if ((rc = exec1(s, "PRAGMA foreign_keys=ON", NULL, 0, err))) goto done;
    if (version == 1 && (rc = upgrade_v1(s, err))) goto done;

done:
    if (rc) {
        store_close(s);
        s = NULL;
    }
    *out = s;
    return rc;
}

void store_close(Store *s)
{
    if (!s) return;
    sqlite3_finalize(s->ins_game);
    sqlite3_finalize(s->ins_action);
    sqlite3_close(s->db);
    free(s->path);
    free(s);
}

void store_new_uid(uint64_t seed, char uid[STORE_UID_LEN])
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    uint64_t h = rng_hash_text(host);
    uint64_t t = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
    uint64_t a = rng_mix(t, (uint64_t)getpid() ^ h);
    uint64_t b = rng_mix(seed ^ h, t ^ (uint64_t)(uintptr_t)&ts);
    snprintf(uid, STORE_UID_LEN, "%016" PRIx64 "%016" PRIx64, a, b);
}

static int begin(Store *s, char *err)
{
    if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return fail(s, err, "starting a transaction");
    return STORE_OK;
}

static void rollback(Store *s)
{
    if (!sqlite3_get_autocommit(s->db)) sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

static int commit(Store *s, char *err)
{
    if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) return fail(s, err, "committing");
    return STORE_OK;
}

/* Whether the schema exists yet (the run table is there). */
static int has_schema(Store *s, bool *yes, char *err)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'run'", -1, &st,
                                NULL);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    *yes = rc == SQLITE_ROW;
    if (rc == SQLITE_ROW || rc == SQLITE_DONE) rc = SQLITE_OK;
    sqlite3_finalize(st);
    return rc == SQLITE_OK ? STORE_OK : fail(s, err, "reading the schema");
}

static int find_run(Store *s, const char *name, StoreRun *run, char *err);

int store_run_create(Store *s, StoreRun *run, const char *command, char *err)
{
    int rc;
    bool schema;
    sqlite3_stmt *st = NULL;
    char host[256] = "", white[AGENT_SPEC_LEN], black[AGENT_SPEC_LEN], params[160];
    gethostname(host, sizeof host - 1);
    agent_spec_format(&run->plan.white, white);
    agent_spec_format(&run->plan.black, black);
    int np = snprintf(params, sizeof params, "game_max_plies=%d,playout_max_plies=%d", GAME_MAX_ACTIONS,
                      GAME_MAX_ACTIONS);
    if (run->plan.pairs) np += snprintf(params + np, sizeof params - (size_t)np, ",pairs=1");
    if (run->plan.opening == OPENING_RINGS) snprintf(params + np, sizeof params - (size_t)np, ",opening=rings");
    if (!run->kind[0]) snprintf(run->kind, sizeof run->kind, "selfplay");

    if ((rc = begin(s, err))) return rc;
    if ((rc = has_schema(s, &schema, err))) goto done;
    if (!schema && sqlite3_exec(s->db, SCHEMA_SQL, NULL, NULL, NULL) != SQLITE_OK) {
        rc = fail(s, err, "creating the schema");
        goto done;
    }
    StoreRun other;
    rc = find_run(s, run->name, &other, err);
    if (rc == STORE_OK) {
        snprintf(err, STORE_ERR_LEN, "database '%s': a run named '%s' exists already (--resume %s finishes it)",
                 s->path, run->name, run->name);
        rc = STORE_EXISTS;
        goto done;
    }
    if (rc != STORE_NOT_FOUND) goto done;
    rc = STORE_OK;

    const char *sql =
        "INSERT INTO run (uid, name, command, version, host, seed, variant, white, black, games, threads, params, "
        "kind, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))";
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
        rc = fail(s, err, "preparing the run");
        goto done;
    }
    sqlite3_bind_text(st, 1, run->uid, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, run->name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, command, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, YINSH_VERSION, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, host, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 6, (int64_t)run->plan.seed);
    sqlite3_bind_text(st, 7, variant_name(run->plan.variant), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 8, white, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 9, black, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 10, run->plan.games);
    sqlite3_bind_int(st, 11, run->plan.threads);
    sqlite3_bind_text(st, 12, params, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 13, run->kind, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(st) != SQLITE_DONE) {
        rc = fail(s, err, "storing the run");
        goto done;
    }
    run->id = sqlite3_last_insert_rowid(s->db);
    run->finished = false;
    rc = commit(s, err);

done:
    sqlite3_finalize(st);
    if (rc) rollback(s);
    return rc;
}

static int find_run(Store *s, const char *name, StoreRun *run, char *err)
{
    int rc = STORE_OK;
    bool schema;
    sqlite3_stmt *st = NULL;
    char perr[AGENT_ERR_LEN];
    if ((rc = has_schema(s, &schema, err))) return rc;
    if (!schema) {
        snprintf(err, STORE_ERR_LEN, "database '%s' has no run named '%s' (it holds no runs)", s->path, name);
        return STORE_NOT_FOUND;
    }
    const char *sql = "SELECT id, uid, name, seed, variant, white, black, games, threads, finished_at IS NOT NULL, "
                      "kind, params FROM run WHERE name = ?";
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) return fail(s, err, "looking up the run");
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    int step = sqlite3_step(st);
    if (step == SQLITE_DONE) {
        snprintf(err, STORE_ERR_LEN, "database '%s' has no run named '%s'", s->path, name);
        rc = STORE_NOT_FOUND;
        goto done;
    }
    if (step != SQLITE_ROW) {
        rc = fail(s, err, "looking up the run");
        goto done;
    }
    memset(run, 0, sizeof *run);
    run->id = sqlite3_column_int64(st, 0);
    snprintf(run->uid, sizeof run->uid, "%s", (const char *)sqlite3_column_text(st, 1));
    snprintf(run->name, sizeof run->name, "%s", (const char *)sqlite3_column_text(st, 2));
    run->plan.seed = (uint64_t)sqlite3_column_int64(st, 3);
    const char *variant = (const char *)sqlite3_column_text(st, 4);
    const char *white = (const char *)sqlite3_column_text(st, 5);
    const char *black = (const char *)sqlite3_column_text(st, 6);
    run->plan.games = (uint32_t)sqlite3_column_int64(st, 7);
    run->plan.threads = sqlite3_column_int(st, 8);
    run->finished = sqlite3_column_int(st, 9) != 0;
    const char *kind = (const char *)sqlite3_column_text(st, 10);
    const char *params = (const char *)sqlite3_column_text(st, 11);
    snprintf(run->kind, sizeof run->kind, "%s", kind ? kind : "selfplay");
    run->plan.pairs = params && strstr(params, "pairs=1") != NULL;
    run->plan.opening = params && strstr(params, "opening=rings") ? OPENING_RINGS : OPENING_NONE;
    if (!variant || !variant_parse(variant, &run->plan.variant)) {
        snprintf(err, STORE_ERR_LEN, "database '%s': run '%s' has an unknown variant '%s'", s->path, name,
                 variant ? variant : "");
        rc = STORE_ERROR;
    } else if (!white || !agent_spec_parse(white, &run->plan.white, perr)) {
        snprintf(err, STORE_ERR_LEN, "database '%s': run '%s': white agent: %s", s->path, name, perr);
        rc = STORE_ERROR;
    } else if (!black || !agent_spec_parse(black, &run->plan.black, perr)) {
        snprintf(err, STORE_ERR_LEN, "database '%s': run '%s': black agent: %s", s->path, name, perr);
        rc = STORE_ERROR;
    }
done:
    sqlite3_finalize(st);
    return rc;
}

int store_run_find(Store *s, const char *name, StoreRun *run, char *err) { return find_run(s, name, run, err); }

int store_run_missing(Store *s, const StoreRun *run, uint32_t **indices, uint32_t *n, char *err)
{
    int rc = STORE_OK;
    sqlite3_stmt *st = NULL;
    uint32_t games = run->plan.games, count = 0;
    uint8_t *have = calloc(games ? games : 1, 1);
    uint32_t *list = malloc((games ? games : 1) * sizeof *list);
    *indices = NULL;
    *n = 0;
    if (!have || !list) {
        snprintf(err, STORE_ERR_LEN, "out of memory");
        rc = STORE_ERROR;
        goto done;
    }
    if (sqlite3_prepare_v2(s->db, "SELECT idx FROM game WHERE run_id = ?", -1, &st, NULL) != SQLITE_OK) {
        rc = fail(s, err, "reading the run's games");
        goto done;
    }
    sqlite3_bind_int64(st, 1, run->id);
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t i = sqlite3_column_int64(st, 0);
        if (i >= 0 && i < games) have[i] = 1;
    }
    if (step != SQLITE_DONE) {
        rc = fail(s, err, "reading the run's games");
        goto done;
    }
    for (uint32_t i = 0; i < games; i++)
        if (!have[i]) list[count++] = i;
    *indices = list;
    *n = count;
    list = NULL;
done:
    sqlite3_finalize(st);
    free(have);
    free(list);
    return rc;
}

static const char STATE_LETTERS[] = "PMRXrx-";

int store_write_games(Store *s, const StoreRun *run, GameRecord *const *games, int n, char *err)
{
    int rc;
    char white[AGENT_SPEC_LEN], black[AGENT_SPEC_LEN];
    agent_spec_format(&run->plan.white, white);
    agent_spec_format(&run->plan.black, black);
    if (!s->ins_game) {
        const char *sql = "INSERT INTO game (run_id, idx, seed, variant, white, black, result, reason, actions, "
                          "white_removed, black_removed, white_markers, black_markers, duration_ms, stored_at) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))";
        if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s->ins_game, NULL) != SQLITE_OK)
            return fail(s, err, "preparing the game insert");
    }
    if (!s->ins_action) {
        const char *sql = "INSERT INTO action (game_id, ply, actor, state, action, legal, root_visits, "
                          "chosen_visits, value, time_us) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
        if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s->ins_action, NULL) != SQLITE_OK)
            return fail(s, err, "preparing the action insert");
    }
    if ((rc = begin(s, err))) return rc;
    for (int g = 0; g < n && !rc; g++) {
        const GameRecord *r = games[g];
        sqlite3_stmt *st = s->ins_game;
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, run->id);
        sqlite3_bind_int64(st, 2, r->index);
        sqlite3_bind_int64(st, 3, (int64_t)r->seed);
        sqlite3_bind_text(st, 4, variant_name(r->variant), -1, SQLITE_STATIC);
        /* the agents as they played this game: a match swaps them in odd games */
        sqlite3_bind_text(st, 5, r->swapped ? black : white, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 6, r->swapped ? white : black, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 7, result_name(r->result), -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 8, reason_name(r->reason), -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 9, r->nactions);
        sqlite3_bind_int(st, 10, r->removed[WHITE]);
        sqlite3_bind_int(st, 11, r->removed[BLACK]);
        sqlite3_bind_int(st, 12, r->markers[WHITE]);
        sqlite3_bind_int(st, 13, r->markers[BLACK]);
        sqlite3_bind_double(st, 14, r->duration_s * 1e3);
        if (sqlite3_step(st) != SQLITE_DONE) {
            rc = fail(s, err, "storing a game");
            break;
        }
        int64_t game_id = sqlite3_last_insert_rowid(s->db);
        st = s->ins_action;
        for (int i = 0; i < r->nactions; i++) {
            const ActionRecord *a = &r->actions[i];
            char text[ACTION_MAX_LEN];
            sqlite3_reset(st);
            sqlite3_bind_int64(st, 1, game_id);
            sqlite3_bind_int(st, 2, i);
            sqlite3_bind_text(st, 3, a->actor == WHITE ? "w" : "b", 1, SQLITE_STATIC);
            sqlite3_bind_text(st, 4, STATE_LETTERS + (a->state < STATE_NB ? a->state : STATE_END), 1,
                              SQLITE_STATIC);
            sqlite3_bind_text(st, 5, action_format(a->action, text), -1, SQLITE_TRANSIENT);
            sqlite3_bind_int(st, 6, a->legal);
            if (a->searched) {
                sqlite3_bind_int64(st, 7, a->root_visits);
                sqlite3_bind_int64(st, 8, a->chosen_visits);
                sqlite3_bind_double(st, 9, a->value);
            } else {
                sqlite3_bind_null(st, 7);
                sqlite3_bind_null(st, 8);
                sqlite3_bind_null(st, 9);
            }
            sqlite3_bind_int64(st, 10, a->time_us);
            if (sqlite3_step(st) != SQLITE_DONE) {
                rc = fail(s, err, "storing an action");
                break;
            }
        }
    }
    sqlite3_reset(s->ins_game);
    sqlite3_reset(s->ins_action);
    if (!rc) rc = commit(s, err);
    if (rc) rollback(s);
    return rc;
}

int store_run_truncate(Store *s, StoreRun *run, uint32_t games, char *err)
{
    static const char *const SQL[] = {
        "DELETE FROM action WHERE game_id IN (SELECT id FROM game WHERE run_id = ?1 AND idx >= ?2)",
        "DELETE FROM game WHERE run_id = ?1 AND idx >= ?2",
        "UPDATE run SET games = ?2 WHERE id = ?1",
    };
    int rc;
    if ((rc = begin(s, err))) return rc;
    for (int i = 0; i < 3 && !rc; i++) {
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(s->db, SQL[i], -1, &st, NULL) != SQLITE_OK) {
            rc = fail(s, err, "ending the run early");
            break;
        }
        sqlite3_bind_int64(st, 1, run->id);
        sqlite3_bind_int64(st, 2, games);
        if (sqlite3_step(st) != SQLITE_DONE) rc = fail(s, err, "ending the run early");
        sqlite3_finalize(st);
    }
    if (!rc) rc = commit(s, err);
    if (rc) rollback(s);
    else run->plan.games = games;
    return rc;
}

int store_run_finish(Store *s, const StoreRun *run, char *err)
{
    int rc = STORE_OK;
    sqlite3_stmt *st = NULL;
    const char *sql = "UPDATE run SET finished_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ? AND finished_at IS NULL";
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) return fail(s, err, "finishing the run");
    sqlite3_bind_int64(st, 1, run->id);
    if (sqlite3_step(st) != SQLITE_DONE) rc = fail(s, err, "finishing the run");
    sqlite3_finalize(st);
    return rc;
}

int store_summary(Store *s, const StoreRun *run, SelfplaySummary *sum, char *err)
{
    int rc = STORE_OK;
    sqlite3_stmt *st = NULL;
    memset(sum, 0, sizeof *sum);
    const char *sql = "SELECT result, reason, count(*), sum(actions) FROM game WHERE run_id = ? GROUP BY result, reason";
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) return fail(s, err, "summarising the run");
    sqlite3_bind_int64(st, 1, run->id);
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        const char *result = (const char *)sqlite3_column_text(st, 0);
        const char *reason = (const char *)sqlite3_column_text(st, 1);
        uint64_t count = (uint64_t)sqlite3_column_int64(st, 2);
        sum->games += count;
        sum->actions += (uint64_t)sqlite3_column_int64(st, 3);
        for (int r = RESULT_WHITE; r <= RESULT_DRAW; r++)
            if (result && !strcmp(result, result_name(r))) sum->wins[r] += count;
        for (int r = 0; r < REASON_NB; r++)
            if (reason && !strcmp(reason, reason_name(r))) sum->reasons[r] += count;
    }
    if (step != SQLITE_DONE) rc = fail(s, err, "summarising the run");
    sqlite3_finalize(st);
    if (rc) return rc;
    /* the run's hash, from the stored actions (selfplay_game_hash) */
    sql = "SELECT g.idx, a.action, a.root_visits, a.chosen_visits FROM game g JOIN action a ON a.game_id = g.id "
          "WHERE g.run_id = ? ORDER BY g.idx, a.ply";
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) return fail(s, err, "summarising the run");
    sqlite3_bind_int64(st, 1, run->id);
    int64_t cur = -1;
    uint64_t h = 0;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t idx = sqlite3_column_int64(st, 0);
        if (idx != cur) {
            if (cur >= 0) sum->hash += selfplay_hash_game(h, (uint32_t)cur);
            cur = idx;
            h = RNG_HASH_START;
        }
        const char *a = (const char *)sqlite3_column_text(st, 1);
        h = selfplay_hash_step(h, a ? a : "", (uint32_t)sqlite3_column_int64(st, 2),
                               (uint32_t)sqlite3_column_int64(st, 3));
    }
    if (cur >= 0) sum->hash += selfplay_hash_game(h, (uint32_t)cur);
    if (step != SQLITE_DONE) rc = fail(s, err, "summarising the run");
    sqlite3_finalize(st);
    return rc;
}

/* Streams one query's rows (game id, run uid, idx, variant, result, action
 * text; ordered by game, then ply) into whole games for fn. */
static int games_each_query(Store *s, sqlite3_stmt *st, int (*fn)(void *, const StoreGame *, char *), void *ctx,
                            uint64_t *ngames, char *err)
{
    int rc = STORE_OK, step;
    char *text = NULL, uid[STORE_UID_LEN] = "";
    size_t tlen = 0, tcap = 0;
    size_t *offs = NULL;
    const char **ptrs = NULL;
    int nact = 0, acap = 0;
    int64_t cur = -1;
    StoreGame g = {0};
    for (;;) {
        step = sqlite3_step(st);
        int64_t id = step == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
        if (cur >= 0 && id != cur) {
            /* the game `cur` is complete: hand it over */
            for (int i = 0; i < nact; i++) ptrs[i] = text + offs[i];
            g.run_uid = uid;
            g.nactions = nact;
            g.actions = ptrs;
            (*ngames)++;
            if (fn(ctx, &g, err)) {
                rc = STORE_ERROR;
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
            snprintf(uid, sizeof uid, "%s", u ? u : "");
            g.index = (uint32_t)sqlite3_column_int64(st, 2);
            if (!variant || !variant_parse(variant, &g.variant)) g.variant = -1;
            g.result = RESULT_NONE;
            for (int r = RESULT_WHITE; r <= RESULT_DRAW; r++)
                if (result && !strcmp(result, result_name(r))) g.result = r;
            if (g.variant < 0 || g.result == RESULT_NONE) {
                snprintf(err, STORE_ERR_LEN, "database '%s': run %s game %u: unknown variant or result ('%s', '%s')",
                         s->path, uid, (unsigned)g.index, variant ? variant : "", result ? result : "");
                rc = STORE_ERROR;
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
            if (!t || !o || !p) {
                snprintf(err, STORE_ERR_LEN, "out of memory reading games");
                rc = STORE_ERROR;
                break;
            }
            tcap = ncap;
            acap = nacap;
        }
        memcpy(text + tlen, a ? a : "", len + 1);
        offs[nact++] = tlen;
        tlen += len + 1;
    }
    if (!rc && step != SQLITE_DONE) rc = fail(s, err, "reading games");
    free(text);
    free(offs);
    free(ptrs);
    return rc;
}

int store_games_each(Store *s, const char *const *runs, int nruns,
                     int (*fn)(void *ctx, const StoreGame *g, char *err), void *ctx, uint64_t *ngames, char *err)
{
    int rc = STORE_OK;
    bool schema;
    sqlite3_stmt *st = NULL;
    int64_t *ids = NULL;
    *ngames = 0;
    if ((rc = has_schema(s, &schema, err))) return rc;
    if (nruns > 0) {
        ids = malloc((size_t)nruns * sizeof *ids);
        if (!ids) {
            snprintf(err, STORE_ERR_LEN, "out of memory");
            return STORE_ERROR;
        }
        /* ids only: the runs' agent specs need not be loadable here */
        if (!schema) {
            snprintf(err, STORE_ERR_LEN, "database '%s' has no run named '%s' (it holds no runs)", s->path, runs[0]);
            rc = STORE_NOT_FOUND;
            goto done;
        }
        if (sqlite3_prepare_v2(s->db, "SELECT id FROM run WHERE name = ?", -1, &st, NULL) != SQLITE_OK) {
            rc = fail(s, err, "looking up the runs");
            goto done;
        }
        for (int i = 0; i < nruns && !rc; i++) {
            sqlite3_reset(st);
            sqlite3_bind_text(st, 1, runs[i], -1, SQLITE_TRANSIENT);
            int step = sqlite3_step(st);
            if (step == SQLITE_ROW) {
                ids[i] = sqlite3_column_int64(st, 0);
            } else if (step == SQLITE_DONE) {
                snprintf(err, STORE_ERR_LEN, "database '%s' has no run named '%s'", s->path, runs[i]);
                rc = STORE_NOT_FOUND;
            } else {
                rc = fail(s, err, "looking up the runs");
            }
        }
        sqlite3_finalize(st);
        st = NULL;
        if (rc) goto done;
    }
    if (!schema) goto done;
    const char *sql = "SELECT g.id, r.uid, g.idx, g.variant, g.result, a.action FROM game g "
                      "JOIN run r ON r.id = g.run_id JOIN action a ON a.game_id = g.id "
                      "WHERE ?1 IS NULL OR g.run_id = ?1 ORDER BY g.id, a.ply";
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
        rc = fail(s, err, "reading games");
        goto done;
    }
    for (int i = 0; i < (nruns > 0 ? nruns : 1) && !rc; i++) {
        sqlite3_reset(st);
        if (nruns > 0)
            sqlite3_bind_int64(st, 1, ids[i]);
        else
            sqlite3_bind_null(st, 1);
        rc = games_each_query(s, st, fn, ctx, ngames, err);
    }
done:
    sqlite3_finalize(st);
    free(ids);
    return rc;
}
