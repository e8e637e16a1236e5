#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "engine/base/error.h"
#include "engine/base/number.h"
#include "engine/base/process.h"
#include "engine/notation.h"
#include "engine/base/clock.h"
#include "engine/base/rng.h"
#include "selfplay/store/store_internal.h"
#include "selfplay/store/store.h"

#ifndef YINSH_VERSION
#define YINSH_VERSION "unknown"
#endif

/* selfplay/store/schema.sql, turned into a C string by the build
 * (cmake/embed.cmake): the schema exists once. */
extern const char STORE_SCHEMA_SQL[];

const char *store_schema_sql(void) { return STORE_SCHEMA_SQL; }

/* "database 'path': what (sqlite's message)" */
int store_fail(const Store *s, char *err, const char *what)
{
    const char *why = s->db ? sqlite3_errmsg(s->db) : "out of memory";
    int code = s->db ? sqlite3_errcode(s->db) : SQLITE_NOMEM;
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
        error_set(err, "database '%s': %s: it is locked by another process (%s)", s->path, what, why);
    else if (code == SQLITE_NOTADB)
        error_set(err, "'%s' is not a database (%s)", s->path, why);
    else if (code == SQLITE_CORRUPT)
        error_set(err, "database '%s' is damaged (%s: %s): a truncated or broken copy? copy it again from "
                  "where it was written", s->path, what, why);
    else
        error_set(err, "database '%s': %s: %s", s->path, what, why);
    return ERR_FAIL;
}

/* One integer from a statement without parameters. */
static int query_int(Store *s, const char *sql, int *out, char *err)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int(st, 0);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_OK ? ERR_OK : store_fail(s, err, "reading the schema");
}

static int schema_version(Store *s, int *version, char *err)
{
    return query_int(s, "PRAGMA user_version", version, err);
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
    return rc == SQLITE_OK ? ERR_OK : store_fail(s, err, sql);
}

static int begin(Store *s, char *err);
static int commit(Store *s, char *err);
static void rollback(Store *s);

/* ---- one transaction around several writes -------------------------------- */

int store_transaction_begin(Store *s, char *err)
{
    int rc = begin(s, err);
    if (!rc) s->outer = true;
    return rc;
}

int store_transaction_commit(Store *s, char *err)
{
    s->outer = false;
    int rc = commit(s, err);
    if (rc) rollback(s);
    return rc;
}

void store_transaction_rollback(Store *s)
{
    s->outer = false;
    rollback(s);
}

/* ---- identity ------------------------------------------------------------ */

/* The opening column's text: "none", "rings", "random:K" or
 * "book:HASH:PATH". */
static void opening_text(const StoreRun *run, char *out, size_t len)
{
    if (run->opening == OPENING_BOOK)
        snprintf(out, len, "book:%016" PRIx64 ":%s", run->book_hash, run->book_path);
    else
        opening_format(run->opening, run->opening_actions, out, len);
}

/* Reads the opening column back; false for a text this yinsh does not know. */
static bool opening_read(const char *text, StoreRun *run)
{
    run->book_hash = 0;
    run->book_path[0] = '\0';
    run->opening_actions = 0;
    if (!text) run->opening = OPENING_NONE;
    else if (opening_parse(text, &run->opening, &run->opening_actions)) return true;
    else if (!strncmp(text, "book:", 5) && strlen(text) > 22 && text[21] == ':' &&
             strspn(text + 5, "0123456789abcdef") == 16) {
        run->book_hash = strtoull(text + 5, NULL, 16);
        run->opening = OPENING_BOOK;
        snprintf(run->book_path, sizeof run->book_path, "%s", text + 22);
    } else
        return false;
    return true;
}

/* What determines a run's games, hashed: the engine version that plays
 * them, the variant, both agents with their weights' content hashes, the
 * seed, pairs, opening (with a book's content hash), the length bound and the controls. Two runs with one plan hold
 * the same games, index for index. */
static void plan_ident(const char *version, const StoreRun *r, char out[STORE_HASH_LEN])
{
    char text[4 * SPEC_LEN];
    int len = snprintf(text, sizeof text, "%s|%s|%s|%s|%s|%s|%" PRIu64 "|%d|%d|%d", version, variant_name(r->variant),
                       r->white, r->white_weights, r->black, r->black_weights, r->seed, r->pairs, r->opening,
                       GAME_MAX_ACTIONS);
    /* a book's content, not its path; runs without one keep their identity */
    if (r->opening == OPENING_BOOK && len > 0 && (size_t)len < sizeof text)
        snprintf(text + len, sizeof text - (size_t)len, "|book=%016" PRIx64, r->book_hash);
    if ((r->opening == OPENING_RANDOM || r->opening == OPENING_PIE) && len > 0 && (size_t)len < sizeof text)
        snprintf(text + len, sizeof text - (size_t)len, "|random=%d", r->opening_actions);
    /* controls came with version 6: a run without keeps its identity */
    if (r->controls[0]) snprintf(text + strlen(text), sizeof text - strlen(text), "|%s", r->controls);
    snprintf(out, STORE_HASH_LEN, "%016" PRIx64, rng_hash_text(text));
}

bool store_plan_ident_text(const char *version, const char *variant, const char *white, const char *white_weights,
                           const char *black, const char *black_weights, const char *seed, const char *pairs,
                           const char *opening, const char *controls, char out[STORE_HASH_LEN])
{
    StoreRun r = {0};
    long s, p; /* the seed as SQLite's int64 holds it: a seed from 2^63 is negative */
    if (!variant || !variant_parse(variant, &r.variant) || !seed || !number_long(seed, LONG_MIN, LONG_MAX, &s) || !pairs ||
        !number_long(pairs, 0, 1, &p) || !opening_read(opening, &r))
        return false;
    r.seed = (uint64_t)s;
    r.pairs = p;
    snprintf(r.white, sizeof r.white, "%s", white ? white : "");
    snprintf(r.black, sizeof r.black, "%s", black ? black : "");
    snprintf(r.white_weights, sizeof r.white_weights, "%s", white_weights ? white_weights : "");
    snprintf(r.black_weights, sizeof r.black_weights, "%s", black_weights ? black_weights : "");
    snprintf(r.controls, sizeof r.controls, "%s", controls ? controls : "");
    plan_ident(version ? version : "", &r, out);
    return true;
}

void store_game_ident(const char *plan, uint32_t index, char out[STORE_HASH_LEN])
{
    uint64_t p = strtoull(plan, NULL, 16);
    snprintf(out, STORE_HASH_LEN, "%016" PRIx64, rng_mix(p, index));
}

/* yinsh_game_ident(plan, idx) in SQL, for the upgrade that fills in the
 * identities of the games stored before them. */
static void sql_game_ident(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *plan = (const char *)sqlite3_value_text(argv[0]);
    char out[STORE_HASH_LEN];
    if (!plan) {
        sqlite3_result_null(ctx);
        return;
    }
    store_game_ident(plan, (uint32_t)sqlite3_value_int64(argv[1]), out);
    sqlite3_result_text(ctx, out, -1, SQLITE_TRANSIENT);
}

/* ---- upgrades -------------------------------------------------------------- */

static int upgrade_v5(Store *s, char *err);

/* The upgrades, each from its version to the next; the current schema is
 * what a version-1 database becomes after all of them (docs/schema.md).
 * Version 2 adds run.kind. Version 3 turns run.params, a text of
 * `key=value` pairs, into typed columns (pairs, opening, max_actions) and
 * drops it. Version 4 adds the weights files' content hashes to run and
 * the lease table. Version 5 adds game identity (run.plan_ident,
 * run.repeat_of, game.ident, game.repeat), provenance (git_commit,
 * compiler, machine) and the views. Version 6 adds run.controls (the
 * time controls and agent streams of a run; '' for every earlier run) and
 * action.clock_us (the actor's clock after the action; NULL without a
 * clock); the fault reasons it brings need no change to stored rows.
 * Version 7 adds run.visits (0: no run before it stored visits) and the
 * table action_visits (the root visit distributions of MCTS actions).
 * Version 8 adds action.root_value (the searched position's value for the
 * actor, beside the chosen action's; NULL for every earlier action).
 * Version 9 adds action.full (1 a search that ran its full budget, 0 a
 * reduced one under playout cap randomisation; NULL for every earlier
 * action, whose searches did not say).
 * `after` fills in what SQL alone cannot. */
static const struct {
    const char *sql;
    int (*after)(Store *s, char *err);
} UPGRADES[] = {
    /* 1 -> 2 */
    {"ALTER TABLE run ADD COLUMN kind TEXT NOT NULL DEFAULT 'selfplay';", NULL},
    /* 2 -> 3 */
    {"ALTER TABLE run ADD COLUMN pairs INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE run ADD COLUMN opening TEXT NOT NULL DEFAULT 'none';"
     "ALTER TABLE run ADD COLUMN max_actions INTEGER NOT NULL DEFAULT 1000;"
     "UPDATE run SET pairs = (params LIKE '%pairs=1%'),"
     " opening = CASE WHEN params LIKE '%opening=rings%' THEN 'rings' ELSE 'none' END;"
     "ALTER TABLE run DROP COLUMN params;",
     NULL},
    /* 3 -> 4 */
    {"ALTER TABLE run ADD COLUMN white_weights TEXT;"
     "ALTER TABLE run ADD COLUMN black_weights TEXT;"
     "CREATE TABLE lease (run_id INTEGER PRIMARY KEY REFERENCES run (id), host TEXT NOT NULL,"
     " pid INTEGER NOT NULL, pid_start INTEGER NOT NULL, since TEXT NOT NULL);",
     NULL},
    /* 4 -> 5 */
    {"ALTER TABLE run ADD COLUMN plan_ident TEXT;"
     "ALTER TABLE run ADD COLUMN repeat_of INTEGER;"
     "ALTER TABLE run ADD COLUMN git_commit TEXT;"
     "ALTER TABLE run ADD COLUMN compiler TEXT;"
     "ALTER TABLE run ADD COLUMN machine TEXT;"
     "CREATE INDEX run_by_plan ON run (plan_ident);"
     "ALTER TABLE game ADD COLUMN ident TEXT;"
     "ALTER TABLE game ADD COLUMN repeat INTEGER NOT NULL DEFAULT 0;"
     "CREATE INDEX game_by_ident ON game (ident);",
     upgrade_v5},
    /* 5 -> 6 */
    {"ALTER TABLE run ADD COLUMN controls TEXT NOT NULL DEFAULT '';"
     "ALTER TABLE action ADD COLUMN clock_us INTEGER;",
     NULL},
    /* 6 -> 7 */
    {"ALTER TABLE run ADD COLUMN visits INTEGER NOT NULL DEFAULT 0;"
     "CREATE TABLE action_visits (game_id INTEGER NOT NULL REFERENCES game (id), ply INTEGER NOT NULL,"
     " action TEXT NOT NULL, visits INTEGER NOT NULL, PRIMARY KEY (game_id, ply, action)) WITHOUT ROWID;",
     NULL},
    /* 7 -> 8 */
    {"ALTER TABLE action ADD COLUMN root_value REAL;", NULL},
    /* 8 -> 9 */
    {"ALTER TABLE action ADD COLUMN full INTEGER;", NULL},
};

/* 4 -> 5, after the columns: the views (from the schema itself, so they
 * exist once), every run's plan identity from its row, every game's
 * identity, and the games that were stored twice (the main job run twice)
 * marked as repeats, the first copy kept. */
static int upgrade_v5(Store *s, char *err)
{
    const char *views = strstr(STORE_SCHEMA_SQL, "CREATE VIEW game_score");
    const char *end = views ? strstr(views, "PRAGMA user_version") : NULL;
    if (!views || !end) {
        return error_set(err, "database '%s': the embedded schema has no views", s->path);
    }
    char *sql = strndup(views, (size_t)(end - views));
    int rc = sql && sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ? ERR_OK
                                                                           : store_fail(s, err, "creating the views");
    free(sql);
    if (rc) return rc;
    sqlite3_stmt *st = NULL, *up = NULL;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT id, version, variant, white, coalesce(white_weights, ''), black, "
                           "coalesce(black_weights, ''), seed, pairs, opening FROM run",
                           -1, &st, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db, "UPDATE run SET plan_ident = ?2 WHERE id = ?1", -1, &up, NULL) != SQLITE_OK) {
        rc = store_fail(s, err, "computing the runs' identities");
        goto done;
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
        StoreRun r = {0};
        const char *version = (const char *)sqlite3_column_text(st, 1);
        const char *variant = (const char *)sqlite3_column_text(st, 2);
        if (!variant || !variant_parse(variant, &r.variant)) r.variant = -1;
        snprintf(r.white, sizeof r.white, "%s", (const char *)sqlite3_column_text(st, 3));
        snprintf(r.white_weights, sizeof r.white_weights, "%s", (const char *)sqlite3_column_text(st, 4));
        snprintf(r.black, sizeof r.black, "%s", (const char *)sqlite3_column_text(st, 5));
        snprintf(r.black_weights, sizeof r.black_weights, "%s", (const char *)sqlite3_column_text(st, 6));
        r.seed = (uint64_t)sqlite3_column_int64(st, 7);
        r.pairs = sqlite3_column_int(st, 8) != 0;
        const char *opening = (const char *)sqlite3_column_text(st, 9);
        if (!opening_read(opening, &r)) r.opening = OPENING_NONE;
        plan_ident(version ? version : "", &r, r.plan_ident);
        sqlite3_reset(up);
        sqlite3_bind_int64(up, 1, sqlite3_column_int64(st, 0));
        sqlite3_bind_text(up, 2, r.plan_ident, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(up) != SQLITE_DONE) {
            rc = store_fail(s, err, "computing the runs' identities");
            goto done;
        }
    }
    if (sqlite3_exec(s->db,
                     "UPDATE game SET ident = yinsh_game_ident((SELECT plan_ident FROM run WHERE run.id = game.run_id), "
                     "idx);"
                     "UPDATE game SET repeat = 1 WHERE id NOT IN (SELECT min(id) FROM game GROUP BY ident);"
                     "UPDATE run SET repeat_of = (SELECT min(r2.id) FROM run r2 WHERE r2.plan_ident = run.plan_ident "
                     "AND r2.id < run.id);",
                     NULL, NULL, NULL) != SQLITE_OK)
        rc = store_fail(s, err, "computing the games' identities");
done:
    sqlite3_finalize(st);
    sqlite3_finalize(up);
    return rc;
}

/* Brings an older database to STORE_SCHEMA_VERSION in one write
 * transaction. The version is read again inside it, so two processes
 * opening one old file upgrade it once. */
static int upgrade(Store *s, char *err)
{
    int rc, version = 0;
    if ((rc = begin(s, err))) return rc;
    if ((rc = schema_version(s, &version, err))) goto done;
    for (; version >= 1 && version < STORE_SCHEMA_VERSION; version++) {
        char what[96], pragma[64];
        snprintf(what, sizeof what, "upgrading the schema from version %d to %d", version, version + 1);
        snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", version + 1);
        if (sqlite3_exec(s->db, UPGRADES[version - 1].sql, NULL, NULL, NULL) != SQLITE_OK) {
            rc = store_fail(s, err, what);
            goto done;
        }
        if (UPGRADES[version - 1].after && (rc = UPGRADES[version - 1].after(s, err))) goto done;
        if (sqlite3_exec(s->db, pragma, NULL, NULL, NULL) != SQLITE_OK) {
            rc = store_fail(s, err, what);
            goto done;
        }
    }
    rc = commit(s, err);
done:
    if (rc) rollback(s);
    return rc;
}

/* What the file is, checked before anything is written to it: the
 * version and the tables in one read transaction, so that a process
 * creating the schema right now (in one transaction, the version with
 * it) is seen either before or after, never half done. A version this
 * yinsh understands (0: no schema yet, in a file without tables), or
 * ERR_FAIL. */
static int read_version(Store *s, int *version, char *err)
{
    int tables = 0;
    if (sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) return store_fail(s, err, "reading the schema");
    int rc = schema_version(s, version, err);
    if (!rc) rc = query_int(s, "SELECT count(*) FROM sqlite_master", &tables, err);
    sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
    if (rc) return rc;
    if (*version > STORE_SCHEMA_VERSION) {
        return error_set(err,
                         "database '%s' has schema version %d, newer than this yinsh understands (%d): use a newer "
                         "yinsh", s->path, *version, STORE_SCHEMA_VERSION);
    }
    if (*version == 0 && tables > 0) {
        return error_set(err, "database '%s' is an SQLite database but not a Yinsh Lab one (it has tables but no "
                         "schema version)", s->path);
    }
    return ERR_OK;
}

int store_version_now(Store *s, char *err)
{
    if (s->mode != STORE_READ) return ERR_OK; /* a writer upgraded at open: the newest there is */
    int version;
    int rc = schema_version(s, &version, err);
    if (rc) return rc;
    if (version > STORE_SCHEMA_VERSION)
        return error_set(err, "database '%s' was upgraded to schema version %d, newer than this yinsh understands "
                              "(%d): use a newer yinsh", s->path, version, STORE_SCHEMA_VERSION);
    s->version = version;
    return ERR_OK;
}

/* "file:" and path as an SQLite URI with immutable=1 (out: len bytes):
 * every byte but the plain ones percent-encoded ('?' and '#' would end
 * the path), an absolute path after an empty authority. False when it
 * does not fit. */
static bool immutable_uri(const char *path, char *out, size_t len)
{
    size_t at = (size_t)snprintf(out, len, "file:%s", path[0] == '/' ? "//" : "");
    for (const unsigned char *p = (const unsigned char *)path; *p && at + 4 < len; p++) {
        if (isalnum(*p) || strchr("/-._~", *p)) out[at++] = (char)*p;
        else at += (size_t)snprintf(out + at, len - at, "%%%02X", *p);
    }
    return at + 16 < len && snprintf(out + at, len - at, "?immutable=1") < (int)(len - at);
}

/* Opens s->db on path: read-write (a reader with writes refused:
 * query_only), read-only, or read-only and immutable (no lock, no -shm:
 * for a WAL database whose folder cannot be written). */
static int connect(Store *s, const char *path, bool read_write, bool immutable, char *err)
{
    int flags = !read_write              ? SQLITE_OPEN_READONLY
                : s->mode == STORE_CREATE ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                                          : SQLITE_OPEN_READWRITE;
    char uri[3 * 4096 + 32];
    if (immutable && !immutable_uri(path, uri, sizeof uri))
        return error_set(err, "database '%.200s': the path is too long", path);
    s->immutable = immutable;
    if (sqlite3_open_v2(immutable ? uri : path, &s->db, flags | SQLITE_OPEN_FULLMUTEX | (immutable ? SQLITE_OPEN_URI : 0),
                        NULL) != SQLITE_OK)
        return error_set(err, "cannot open database '%s': %s (does its directory exist, and is it writable?)", path,
                         s->db ? sqlite3_errmsg(s->db) : "out of memory");
    sqlite3_extended_result_codes(s->db, 0);
    sqlite3_busy_timeout(s->db, s->busy_ms);
    int rc = s->mode == STORE_READ && read_write ? exec1(s, "PRAGMA query_only=1", NULL, 0, err) : ERR_OK;
    if (rc) return rc;
    sqlite3_create_function(s->db, "yinsh_game_ident", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, sql_game_ident,
                            NULL, NULL);
    if (s->mode != STORE_READ && sqlite3_db_readonly(s->db, "main") == 1)
        return error_set(err, "database '%s': the file is read-only", path);
    return ERR_OK;
}

/* Whether the file cannot be read for want of a -shm or -wal that could
 * not be made or opened (asked again: read_version's COMMIT has replaced
 * the connection's last error). */
static bool wal_unreadable(Store *s)
{
    sqlite3_stmt *st = NULL;
    int code = s->db ? sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) : SQLITE_NOMEM;
    if (code == SQLITE_OK) code = sqlite3_step(st);
    sqlite3_finalize(st);
    return code == SQLITE_READONLY || code == SQLITE_CANTOPEN || code == SQLITE_IOERR;
}

int store_open(Store **out, const char *path, int mode, int busy_ms, char *err)
{
    int rc = ERR_OK, version = 0;
    struct stat sb;
    Store *s = calloc(1, sizeof *s);
    *out = NULL;
    if (!s || !(s->path = strdup(path))) {
        rc = error_set(err, "out of memory");
        goto done;
    }
    s->mode = mode;
    s->busy_ms = busy_ms;
    bool exists = stat(path, &sb) == 0;
    if (exists && S_ISDIR(sb.st_mode)) {
        rc = error_set(err, "database '%s': is a directory", path);
        goto done;
    }
    /* a device or a pipe reads as an empty database (/dev/zero) or never ends */
    if (exists && !S_ISREG(sb.st_mode)) {
        rc = error_set(err, "database '%s' is not a file but %s", path,
                       S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "a device" : S_ISFIFO(sb.st_mode) ? "a pipe"
                                                                                           : "a socket");
        goto done;
    }
    if (!exists && mode == STORE_READ) {
        rc = error_code(err, ERR_NOT_FOUND, "no database at '%s' (%s): `yinsh selfplay` creates one", path, strerror(errno));
        goto done;
    }
    if (!exists && mode == STORE_WRITE) {
        rc = error_set(err, "database '%s': %s", path, strerror(errno));
        goto done;
    }
    /* A reader opens the file read-write where it may, with writes
     * refused (query_only below): a read-only connection that is the last
     * to close a WAL database cannot checkpoint it, and leaves its -wal
     * and -shm files behind (after `yinsh spsa` and `yinsh rounds`, whose
     * last act is a read). A file this process may not write is opened
     * read-only, as before. */
    bool read_write = mode != STORE_READ || access(path, W_OK) == 0;
    if ((rc = connect(s, path, read_write, false, err))) goto done;
    if ((rc = read_version(s, &version, err)) && mode == STORE_READ && !s->immutable && wal_unreadable(s)) {
        /* a WAL database in a folder this process cannot write (a
         * read-only mount, another user's folder): its -shm cannot be
         * made, so it is read as immutable (docs/schema.md) */
        sqlite3_close(s->db);
        s->db = NULL;
        if (!(rc = connect(s, path, false, true, err))) rc = read_version(s, &version, err);
    }
    if (rc) goto done;
    s->version = version;
    if (version == 0 && mode == STORE_READ) {
        rc = error_code(err, ERR_NOT_FOUND, "database '%s' is empty: no games stored yet (`yinsh selfplay` stores some)", path);
        goto done;
    }
    if (mode == STORE_READ) goto done;

    /* Per connection, nothing written: the journal becomes WAL only with
     * the first write (begin), so a command that fails before writing
     * leaves the file as it was. */
    if ((rc = exec1(s, "PRAGMA synchronous=NORMAL", NULL, 0, err))) goto done;
    if ((rc = exec1(s, "PRAGMA foreign_keys=ON", NULL, 0, err))) goto done;
    if (version >= 1 && version < STORE_SCHEMA_VERSION && (rc = upgrade(s, err))) goto done;
    s->version = version ? STORE_SCHEMA_VERSION : 0;

done:
    if (rc) {
        store_close(s);
        s = NULL;
    }
    *out = s;
    return rc;
}

const char *store_path(const Store *s) { return s->path; }

bool store_outdated(const Store *s) { return s->version > 0 && s->version < STORE_SCHEMA_VERSION; }

void store_close(Store *s)
{
    if (!s) return;
    sqlite3_finalize(s->ins_game);
    sqlite3_finalize(s->ins_action);
    sqlite3_finalize(s->ins_visits);
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

void store_shard_uid(const StoreRun *run, char uid[STORE_UID_LEN])
{
    char plan[STORE_HASH_LEN], text[STORE_NAME_LEN + 96];
    plan_ident(YINSH_VERSION, run, plan);
    snprintf(text, sizeof text, "shard|%s|%s|%u|%s", plan, run->kind[0] ? run->kind : "selfplay", run->games,
             run->name);
    uint64_t a = rng_hash_text(text);
    snprintf(uid, STORE_UID_LEN, "%016" PRIx64 "%016" PRIx64, a, rng_mix(a, rng_hash_text(plan)));
}

/* Switches the file to WAL once, before the first write. The switch needs
 * the file to itself and SQLite does not wait for it with the busy
 * handler, so a process that meets another one creating the file retries
 * for the busy timeout. */
static int ensure_wal(Store *s, char *err)
{
    if (s->wal) return ERR_OK;
    double until = clock_now() + s->busy_ms / 1000.0;
    for (;;) {
        char jmode[16] = "";
        sqlite3_stmt *st = NULL;
        int rc = sqlite3_prepare_v2(s->db, "PRAGMA journal_mode=WAL", -1, &st, NULL);
        if (rc == SQLITE_OK) rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) snprintf(jmode, sizeof jmode, "%s", (const char *)sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
        if (rc == SQLITE_ROW) {
            if (strcmp(jmode, "wal") && strcmp(jmode, "memory")) {
                return error_set(err, "database '%s': cannot switch to WAL mode (journal mode is '%s')", s->path,
                         jmode);
            }
            s->wal = true;
            return ERR_OK;
        }
        if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || clock_now() >= until)
            return store_fail(s, err, "switching to WAL mode");
        usleep(5000);
    }
}

static int begin(Store *s, char *err)
{
    if (s->outer) return ERR_OK;
    int rc = ensure_wal(s, err);
    if (rc) return rc;
    if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return store_fail(s, err, "starting a transaction");
    return ERR_OK;
}

static void rollback(Store *s)
{
    if (s->outer) return; /* the outer transaction's owner rolls it all back */
    if (!sqlite3_get_autocommit(s->db)) sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

static int commit(Store *s, char *err)
{
    if (s->outer) return ERR_OK;
    if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) return store_fail(s, err, "committing");
    return ERR_OK;
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
    return rc == SQLITE_OK ? ERR_OK : store_fail(s, err, "reading the schema");
}

int store_ensure_schema(Store *s, char *err)
{
    bool schema;
    int rc = has_schema(s, &schema, err);
    if (rc) return rc;
    if (!schema && sqlite3_exec(s->db, STORE_SCHEMA_SQL, NULL, NULL, NULL) != SQLITE_OK)
        return store_fail(s, err, "creating the schema");
    s->version = STORE_SCHEMA_VERSION;
    return ERR_OK;
}


/* ---- leases -------------------------------------------------------------- */

/* This process as a lease names it: host, pid, and the process's start
 * time in clock ticks after boot (field 22 of /proc/PID/stat), which tells
 * a live holder from a later process that got the same pid. */
typedef struct Holder {
    char host[256];
    int64_t pid, start;
} Holder;

static void holder_self(Holder *h)
{
    memset(h, 0, sizeof *h);
    gethostname(h->host, sizeof h->host - 1);
    h->pid = getpid();
    h->start = process_start(h->pid);
}

/* Whether a holder of this host still runs. */
static bool holder_alive(const Holder *h)
{
    if (kill((pid_t)h->pid, 0) != 0 && errno != EPERM) return false;
    return process_start(h->pid) == h->start && !process_ended(h->pid);
}

static int lease_insert(Store *s, const StoreRun *run, const Holder *me, char *err)
{
    sqlite3_stmt *st = NULL;
    int rc = ERR_OK;
    const char *sql = "INSERT OR REPLACE INTO lease (run_id, host, pid, pid_start, since) VALUES (?, ?, ?, ?, "
                      "strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))";
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) return store_fail(s, err, "taking the run's lease");
    sqlite3_bind_int64(st, 1, run->id);
    sqlite3_bind_text(st, 2, me->host, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 3, me->pid);
    sqlite3_bind_int64(st, 4, me->start);
    if (sqlite3_step(st) != SQLITE_DONE) rc = store_fail(s, err, "taking the run's lease");
    sqlite3_finalize(st);
    return rc;
}

int store_run_claim(Store *s, const StoreRun *run, bool take_over, StoreClash *clash, char *err)
{
    int rc;
    Holder me, other = {0};
    char since[40] = "";
    sqlite3_stmt *st = NULL;
    holder_self(&me);
    if ((rc = begin(s, err))) return rc;
    if (sqlite3_prepare_v2(s->db, "SELECT host, pid, pid_start, since FROM lease WHERE run_id = ?", -1, &st, NULL) !=
        SQLITE_OK) {
        rc = store_fail(s, err, "reading the run's lease");
        goto done;
    }
    sqlite3_bind_int64(st, 1, run->id);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW) {
        const char *host = (const char *)sqlite3_column_text(st, 0);
        snprintf(other.host, sizeof other.host, "%s", host ? host : "");
        other.pid = sqlite3_column_int64(st, 1);
        other.start = sqlite3_column_int64(st, 2);
        const char *t = (const char *)sqlite3_column_text(st, 3);
        snprintf(since, sizeof since, "%s", t ? t : "");
    } else if (step != SQLITE_DONE) {
        rc = store_fail(s, err, "reading the run's lease");
        goto done;
    }
    sqlite3_finalize(st);
    st = NULL;
    bool mine = step == SQLITE_ROW && !strcmp(other.host, me.host) && other.pid == me.pid && other.start == me.start;
    if (step == SQLITE_ROW && !mine && !take_over) {
        bool here = !strcmp(other.host, me.host);
        if (!here || holder_alive(&other)) {
            rc = error_code(err, ERR_HELD, "database '%s': run '%s' is being played by process %lld on host %s (since %s)%s",
                            s->path, run->name, (long long)other.pid, other.host, since,
                            here ? ": wait for it to finish, or stop it first" : "");
            if (clash) *clash = (StoreClash){.elsewhere = !here};
            goto done;
        }
    }
    if ((rc = lease_insert(s, run, &me, err))) goto done;
    rc = commit(s, err);
done:
    sqlite3_finalize(st);
    if (rc) rollback(s);
    return rc;
}

int store_run_release(Store *s, const StoreRun *run, char *err)
{
    Holder me;
    sqlite3_stmt *st = NULL;
    int rc = ERR_OK;
    holder_self(&me);
    if (sqlite3_prepare_v2(s->db, "DELETE FROM lease WHERE run_id = ? AND host = ? AND pid = ?", -1, &st, NULL) !=
        SQLITE_OK)
        return store_fail(s, err, "giving back the run's lease");
    sqlite3_bind_int64(st, 1, run->id);
    sqlite3_bind_text(st, 2, me.host, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 3, me.pid);
    if (sqlite3_step(st) != SQLITE_DONE) rc = store_fail(s, err, "giving back the run's lease");
    sqlite3_finalize(st);
    return rc;
}

/* ---- runs ---------------------------------------------------------------- */

/* The earliest other run of the same plan (its games are these games):
 * run->repeat_of and its name into earlier, or 0 and "". */
static int find_repeat(Store *s, StoreRun *run, char earlier[STORE_NAME_LEN], char *err)
{
    sqlite3_stmt *st = NULL;
    run->repeat_of = 0;
    earlier[0] = '\0';
    if (sqlite3_prepare_v2(s->db, "SELECT id, name FROM run WHERE plan_ident = ? AND name != ? ORDER BY id LIMIT 1",
                           -1, &st, NULL) != SQLITE_OK)
        return store_fail(s, err, "looking for the run's games");
    sqlite3_bind_text(st, 1, run->plan_ident, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, run->name, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(st) == SQLITE_ROW) {
        run->repeat_of = sqlite3_column_int64(st, 0);
        snprintf(earlier, STORE_NAME_LEN, "%s", (const char *)sqlite3_column_text(st, 1));
    }
    sqlite3_finalize(st);
    return ERR_OK;
}

/* The run's row, unless its name is taken: ERR_EXISTS then, with nothing
 * said (the caller says what the other run is). */
static int insert_run(Store *s, StoreRun *run, const char *command, char *err)
{
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    const char *sql =
        "INSERT INTO run (uid, name, command, version, host, seed, variant, white, black, games, threads, kind, "
        "pairs, opening, max_actions, white_weights, black_weights, plan_ident, repeat_of, git_commit, compiler, "
        "machine, controls, visits, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
        "?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) ON CONFLICT (name) DO NOTHING";
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) return store_fail(s, err, "preparing the run");
    sqlite3_bind_text(st, 1, run->uid, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, run->name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, command, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, YINSH_VERSION, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, host, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 6, (int64_t)run->seed);
    sqlite3_bind_text(st, 7, variant_name(run->variant), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 8, run->white, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 9, run->black, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 10, run->games);
    sqlite3_bind_int(st, 11, run->threads);
    sqlite3_bind_text(st, 12, run->kind, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 13, run->pairs);
    char opening[STORE_BOOK_PATH_LEN + 32];
    opening_text(run, opening, sizeof opening);
    sqlite3_bind_text(st, 14, opening, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 15, GAME_MAX_ACTIONS);
    for (int i = 0; i < 2; i++) {
        const char *h = i ? run->black_weights : run->white_weights;
        if (h[0]) sqlite3_bind_text(st, 16 + i, h, -1, SQLITE_TRANSIENT);
        else sqlite3_bind_null(st, 16 + i);
    }
    sqlite3_bind_text(st, 18, run->plan_ident, -1, SQLITE_TRANSIENT);
    if (run->repeat_of) sqlite3_bind_int64(st, 19, run->repeat_of);
    else sqlite3_bind_null(st, 19);
    sqlite3_bind_text(st, 20, run->git_commit, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 21, run->compiler, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 22, run->machine, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 23, run->controls, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 24, run->visits);
    int rc = ERR_OK;
    if (sqlite3_step(st) != SQLITE_DONE) rc = store_fail(s, err, "storing the run");
    else if (sqlite3_changes(s->db) == 0) rc = ERR_EXISTS;
    sqlite3_finalize(st);
    return rc;
}

int store_run_create(Store *s, StoreRun *run, const char *command, bool allow_repeat, StoreClash *clash, char *err)
{
    int rc;
    bool schema;
    if (!run->kind[0]) snprintf(run->kind, sizeof run->kind, "selfplay");

    plan_ident(YINSH_VERSION, run, run->plan_ident);
    run->repeat_of = 0;
    char earlier[STORE_NAME_LEN] = "";
    if ((rc = begin(s, err))) return rc;
    if ((rc = has_schema(s, &schema, err))) goto done;
    if (!schema && sqlite3_exec(s->db, STORE_SCHEMA_SQL, NULL, NULL, NULL) != SQLITE_OK) {
        rc = store_fail(s, err, "creating the schema");
        goto done;
    }
    s->version = STORE_SCHEMA_VERSION;
    /* the same plan stored already: the same games */
    if ((rc = find_repeat(s, run, earlier, err))) goto done;
    if (run->repeat_of && !allow_repeat) {
        rc = error_code(err, ERR_REPEAT, "database '%s': these games are stored already, in run '%s' (the same "
                        "agents, weights, variant and seed give the same games)", s->path, earlier);
        if (clash) {
            *clash = (StoreClash){0};
            snprintf(clash->run, sizeof clash->run, "%s", earlier);
        }
        goto done;
    }
    if ((rc = insert_run(s, run, command, err))) goto done;
    run->id = sqlite3_last_insert_rowid(s->db);
    run->finished = false;
    Holder me;
    holder_self(&me);
    if ((rc = lease_insert(s, run, &me, err))) goto done;
    rc = commit(s, err);

done:
    if (rc) rollback(s);
    if (rc == ERR_EXISTS) {
        /* say what the existing run is, so that the user knows what to do */
        StoreRun other;
        char gerr[ERR_LEN];
        bool finished = store_run_get(s, run->name, &other, gerr) == ERR_OK && other.finished;
        error_set(err, "database '%s': a %srun named '%s' exists already%s", s->path, finished ? "finished " : "",
                  run->name, finished ? "" : ", unfinished");
        if (clash) {
            *clash = (StoreClash){.finished = finished};
            snprintf(clash->run, sizeof clash->run, "%s", run->name);
        }
    }
    return rc;
}

int store_run_get(Store *s, const char *name, StoreRun *run, char *err)
{
    int rc = ERR_OK;
    bool schema;
    sqlite3_stmt *st = NULL;
    if ((rc = has_schema(s, &schema, err))) return rc;
    if (!schema) {
        return error_code(err, ERR_NOT_FOUND, "database '%s' has no run named '%s' (it holds no runs)", s->path, name);
    }
    /* run.visits came with version 7: a version-6 file read as it is has none */
    const char *sql = s->version >= 7 || s->mode != STORE_READ
                          ? "SELECT id, uid, name, seed, variant, white, black, games, threads, finished_at IS NOT NULL, "
                            "kind, pairs, opening, max_actions, white_weights, black_weights, plan_ident, "
                            "coalesce(repeat_of, 0), coalesce(git_commit, ''), coalesce(compiler, ''), "
                            "coalesce(machine, ''), controls, visits FROM run WHERE name = ?"
                          : "SELECT id, uid, name, seed, variant, white, black, games, threads, finished_at IS NOT NULL, "
                            "kind, pairs, opening, max_actions, white_weights, black_weights, plan_ident, "
                            "coalesce(repeat_of, 0), coalesce(git_commit, ''), coalesce(compiler, ''), "
                            "coalesce(machine, ''), controls, 0 FROM run WHERE name = ?";
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) return store_fail(s, err, "looking up the run");
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    int step = sqlite3_step(st);
    if (step == SQLITE_DONE) {
        rc = error_code(err, ERR_NOT_FOUND, "database '%s' has no run named '%s'", s->path, name);
        goto done;
    }
    if (step != SQLITE_ROW) {
        rc = store_fail(s, err, "looking up the run");
        goto done;
    }
    memset(run, 0, sizeof *run);
    const char *uid = (const char *)sqlite3_column_text(st, 1);
    const char *variant = (const char *)sqlite3_column_text(st, 4);
    const char *white = (const char *)sqlite3_column_text(st, 5);
    const char *black = (const char *)sqlite3_column_text(st, 6);
    const char *kind = (const char *)sqlite3_column_text(st, 10);
    const char *opening = (const char *)sqlite3_column_text(st, 12);
    run->id = sqlite3_column_int64(st, 0);
    snprintf(run->uid, sizeof run->uid, "%s", uid ? uid : "");
    snprintf(run->name, sizeof run->name, "%s", name);
    run->seed = (uint64_t)sqlite3_column_int64(st, 3);
    snprintf(run->white, sizeof run->white, "%s", white ? white : "");
    snprintf(run->black, sizeof run->black, "%s", black ? black : "");
    int64_t games = sqlite3_column_int64(st, 7);
    run->games = games >= 1 && games <= STORE_MAX_GAMES ? (uint32_t)games : 0;
    run->threads = sqlite3_column_int(st, 8);
    run->finished = sqlite3_column_int(st, 9) != 0;
    snprintf(run->kind, sizeof run->kind, "%s", kind ? kind : "selfplay");
    run->pairs = sqlite3_column_int(st, 11) != 0;
    bool opening_ok = opening_read(opening, run);
    int max_actions = sqlite3_column_int(st, 13);
    for (int i = 0; i < 2; i++) {
        const char *h = (const char *)sqlite3_column_text(st, 14 + i);
        snprintf(i ? run->black_weights : run->white_weights, STORE_HASH_LEN, "%s", h ? h : "");
    }
    const char *plan = (const char *)sqlite3_column_text(st, 16);
    snprintf(run->plan_ident, sizeof run->plan_ident, "%s", plan ? plan : "");
    run->repeat_of = sqlite3_column_int64(st, 17);
    snprintf(run->git_commit, sizeof run->git_commit, "%s", (const char *)sqlite3_column_text(st, 18));
    snprintf(run->compiler, sizeof run->compiler, "%s", (const char *)sqlite3_column_text(st, 19));
    snprintf(run->machine, sizeof run->machine, "%s", (const char *)sqlite3_column_text(st, 20));
    const char *controls = (const char *)sqlite3_column_text(st, 21);
    snprintf(run->controls, sizeof run->controls, "%s", controls ? controls : "");
    run->visits = sqlite3_column_int(st, 22) != 0;
    if (!variant || !variant_parse(variant, &run->variant)) {
        rc = error_set(err, "database '%s': run '%s' has an unknown variant '%s'", s->path, name,
                 variant ? variant : "");
    } else if (!opening_ok) {
        rc = error_set(err, "database '%s': run '%s' has an opening this yinsh does not know ('%.200s')", s->path,
                 name, opening);
    } else if (run->games == 0) {
        rc = error_set(err, "database '%s': run '%s' has %lld games, not 1 to %d: the database was altered",
                 s->path, name, (long long)games, STORE_MAX_GAMES);
    } else if (run->threads < 1) {
        rc = error_set(err, "database '%s': run '%s' has %d threads: the database was altered", s->path, name,
                 run->threads);
    } else if (max_actions != GAME_MAX_ACTIONS) {
        rc = error_set(err, "database '%s': run '%s' was played with games cut at %d actions, this yinsh cuts "
                 "them at %d: it cannot replay the run", s->path, name, max_actions, GAME_MAX_ACTIONS);
    }
done:
    sqlite3_finalize(st);
    return rc;
}

int store_run_missing(Store *s, const StoreRun *run, uint32_t **indices, uint32_t *n, char *err)
{
    int rc = ERR_OK;
    sqlite3_stmt *st = NULL;
    uint32_t games = run->games, count = 0;
    uint8_t *have = calloc(games ? games : 1, 1);
    uint32_t *list = malloc((games ? games : 1) * sizeof *list);
    *indices = NULL;
    *n = 0;
    if (!have || !list) {
        rc = error_set(err, "out of memory");
        goto done;
    }
    if (sqlite3_prepare_v2(s->db, "SELECT idx FROM game WHERE run_id = ?", -1, &st, NULL) != SQLITE_OK) {
        rc = store_fail(s, err, "reading the run's games");
        goto done;
    }
    sqlite3_bind_int64(st, 1, run->id);
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t i = sqlite3_column_int64(st, 0);
        if (i >= 0 && i < games) have[i] = 1;
    }
    if (step != SQLITE_DONE) {
        rc = store_fail(s, err, "reading the run's games");
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


/* The three inserts of store_write_games, prepared once a connection
 * and kept. */
static int prepare_game_inserts(Store *s, char *err)
{
    if (!s->ins_game) {
        /* a game the database holds already (same identity) is a repeat */
        const char *sql = "INSERT INTO game (run_id, idx, seed, variant, white, black, result, reason, actions, "
                          "white_removed, black_removed, white_markers, black_markers, duration_ms, stored_at, "
                          "ident, repeat) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                          "strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?15, "
                          "EXISTS (SELECT 1 FROM game WHERE ident = ?15 AND repeat = 0))";
        if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s->ins_game, NULL) != SQLITE_OK)
            return store_fail(s, err, "preparing the game insert");
    }
    if (!s->ins_action) {
        const char *sql = "INSERT INTO action (game_id, ply, actor, state, action, legal, root_visits, "
                          "chosen_visits, value, time_us, clock_us, root_value, full) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
        if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s->ins_action, NULL) != SQLITE_OK)
            return store_fail(s, err, "preparing the action insert");
    }
    if (!s->ins_visits) {
        const char *sql = "INSERT INTO action_visits (game_id, ply, action, visits) VALUES (?, ?, ?, ?)";
        if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s->ins_visits, NULL) != SQLITE_OK)
            return store_fail(s, err, "preparing the visits insert");
    }
    return ERR_OK;
}

/* Game r of run into the game table; its row's id to *game_id. */
static int insert_game(Store *s, const StoreRun *run, const GameRecord *r, int64_t *game_id, char *err)
{
    const char *white = run->white, *black = run->black;
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
    char ident[STORE_HASH_LEN];
    store_game_ident(run->plan_ident, r->index, ident);
    sqlite3_bind_text(st, 15, ident, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(st) != SQLITE_DONE) return store_fail(s, err, "storing a game");
    *game_id = sqlite3_last_insert_rowid(s->db);
    return ERR_OK;
}

/* The actions of game r, stored as game_id, with the search's figures
 * where it searched (NULL where it did not). */
static int insert_actions(Store *s, int64_t game_id, const GameRecord *r, char *err)
{
    sqlite3_stmt *st = s->ins_action;
    for (int i = 0; i < r->nactions; i++) {
        const ActionRecord *a = &r->actions[i];
        char text[ACTION_MAX_LEN];
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, game_id);
        sqlite3_bind_int(st, 2, i);
        sqlite3_bind_text(st, 3, a->actor == WHITE ? "w" : "b", 1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, STATE_CHARS + (a->state < STATE_NB ? a->state : STATE_END), 1, SQLITE_STATIC);
        sqlite3_bind_text(st, 5, action_format(a->action, text), -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 6, a->legal);
        if (a->searched) {
            sqlite3_bind_int64(st, 7, a->root_visits);
            sqlite3_bind_int64(st, 8, a->chosen_visits);
            sqlite3_bind_double(st, 9, a->value);
            sqlite3_bind_double(st, 12, a->root_value);
            if (a->budget == SEARCH_BUDGET_UNKNOWN) sqlite3_bind_null(st, 13);
            else sqlite3_bind_int(st, 13, a->budget == SEARCH_BUDGET_FULL);
        } else {
            sqlite3_bind_null(st, 7);
            sqlite3_bind_null(st, 8);
            sqlite3_bind_null(st, 9);
            sqlite3_bind_null(st, 12);
            sqlite3_bind_null(st, 13);
        }
        sqlite3_bind_int64(st, 10, a->time_us);
        if (a->has_clock) sqlite3_bind_int64(st, 11, a->clock_us);
        else sqlite3_bind_null(st, 11);
        if (sqlite3_step(st) != SQLITE_DONE) return store_fail(s, err, "storing an action");
    }
    return ERR_OK;
}

/* The root visit distributions of game r, stored as game_id. */
static int insert_visits(Store *s, int64_t game_id, const GameRecord *r, char *err)
{
    sqlite3_stmt *st = s->ins_visits;
    for (int i = 0; i < r->nchildren; i++) {
        const RootChild *c = &r->children[i];
        char text[ACTION_MAX_LEN];
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, game_id);
        sqlite3_bind_int(st, 2, c->ply);
        sqlite3_bind_text(st, 3, action_format(c->action, text), -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 4, c->visits);
        if (sqlite3_step(st) != SQLITE_DONE) return store_fail(s, err, "storing an action's visits");
    }
    return ERR_OK;
}

int store_write_games(Store *s, const StoreRun *run, GameRecord *const *games, int n, char *err)
{
    int rc;
    if ((rc = prepare_game_inserts(s, err))) return rc;
    if ((rc = begin(s, err))) return rc;
    for (int g = 0; g < n && !rc; g++) {
        int64_t game_id;
        if (!(rc = insert_game(s, run, games[g], &game_id, err)) && !(rc = insert_actions(s, game_id, games[g], err)))
            rc = insert_visits(s, game_id, games[g], err);
    }
    sqlite3_reset(s->ins_game);
    sqlite3_reset(s->ins_action);
    sqlite3_reset(s->ins_visits);
    if (!rc) rc = commit(s, err);
    if (rc) rollback(s);
    return rc;
}

void store_remove(const char *db)
{
    char side[4096];
    unlink(db);
    snprintf(side, sizeof side, "%s-wal", db);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", db);
    unlink(side);
}

int store_run_shorten(Store *s, StoreRun *run, uint32_t games, char *err)
{
    int rc = ERR_OK;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, "UPDATE run SET games = ?2 WHERE id = ?1", -1, &st, NULL) != SQLITE_OK)
        return store_fail(s, err, "ending the run early");
    sqlite3_bind_int64(st, 1, run->id);
    sqlite3_bind_int64(st, 2, games);
    if (sqlite3_step(st) != SQLITE_DONE) rc = store_fail(s, err, "ending the run early");
    sqlite3_finalize(st);
    if (!rc) run->games = games;
    return rc;
}

int store_run_finish(Store *s, const StoreRun *run, char *err)
{
    int rc = ERR_OK;
    sqlite3_stmt *st = NULL;
    const char *sql = "UPDATE run SET finished_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1 AND finished_at IS NULL "
                      "AND (SELECT count(*) FROM game WHERE run_id = ?1) >= games";
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) return store_fail(s, err, "finishing the run");
    sqlite3_bind_int64(st, 1, run->id);
    if (sqlite3_step(st) != SQLITE_DONE) rc = store_fail(s, err, "finishing the run");
    sqlite3_finalize(st);
    return rc;
}

bool store_commits_add(char *list, size_t len, const char *commit)
{
    static const char MORE[] = ", ...";
    size_t have = strlen(list), n = strlen(commit);
    if (!n) return false;
    for (const char *p = list; *p;) {
        const char *end = strstr(p, ", ");
        size_t k = end ? (size_t)(end - p) : strlen(p);
        if (k == n && !strncmp(p, commit, n)) return false;
        if (!end) break;
        p = end + 2;
    }
    if (have >= sizeof MORE - 1 && !strcmp(list + have - (sizeof MORE - 1), MORE)) return false; /* full already */
    size_t sep = have ? 2 : 0;
    /* room for this one and, after it, the mark of a full list */
    if (have + sep + n + sizeof MORE <= len) {
        snprintf(list + have, len - have, "%s%s", sep ? ", " : "", commit);
        return true;
    }
    if (have + sizeof MORE <= len) {
        memcpy(list + have, MORE, sizeof MORE);
        return true;
    }
    return false;
}

int store_run_add_commit(Store *s, StoreRun *run, const char *commit, char *err)
{
    if (!store_commits_add(run->git_commit, sizeof run->git_commit, commit)) return ERR_OK;
    sqlite3_stmt *st = NULL;
    int rc = ERR_OK;
    if (sqlite3_prepare_v2(s->db, "UPDATE run SET git_commit = ? WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
        return store_fail(s, err, "naming the run's build");
    sqlite3_bind_text(st, 1, run->git_commit, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, run->id);
    if (sqlite3_step(st) != SQLITE_DONE) rc = store_fail(s, err, "naming the run's build");
    sqlite3_finalize(st);
    return rc;
}

int store_summary(Store *s, const StoreRun *run, RecordSummary *sum, char *err)
{
    int rc = ERR_OK;
    sqlite3_stmt *st = NULL;
    memset(sum, 0, sizeof *sum);
    /* the third column: the game gave White to run.black (odd games of a match) */
    const char *sql = "SELECT g.result, g.reason, CASE WHEN r.pairs THEN g.idx % 2 ELSE 0 END, count(*), "
                      "sum(g.actions) FROM game g JOIN run r ON r.id = g.run_id WHERE g.run_id = ? "
                      "GROUP BY 1, 2, 3";
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) return store_fail(s, err, "summarising the run");
    sqlite3_bind_int64(st, 1, run->id);
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        const char *result = (const char *)sqlite3_column_text(st, 0);
        const char *reason = (const char *)sqlite3_column_text(st, 1);
        bool swapped = sqlite3_column_int(st, 2) != 0;
        uint64_t count = (uint64_t)sqlite3_column_int64(st, 3);
        int res = result_parse(result), why = -1;
        sum->games += count;
        sum->actions += (uint64_t)sqlite3_column_int64(st, 4);
        if (res != RESULT_NONE) sum->wins[res] += count;
        for (int r = 0; r < REASON_NB; r++)
            if (reason && !strcmp(reason, reason_name(r))) sum->reasons[why = r] += count;
        if (why >= 0) record_summary_fault(sum, res, why, swapped, count);
    }
    if (step != SQLITE_DONE) rc = store_fail(s, err, "summarising the run");
    sqlite3_finalize(st);
    if (rc) return rc;
    return store_run_hash(s, run->id, &sum->hash, err);
}

int store_run_hash(Store *s, int64_t run_id, uint64_t *hash, char *err)
{
    sqlite3_stmt *st = NULL;
    int rc = ERR_OK, step;
    const char *sql = "SELECT g.idx, a.action, a.root_visits, a.chosen_visits FROM game g JOIN action a ON "
                      "a.game_id = g.id WHERE g.run_id = ? ORDER BY g.idx, a.ply";
    *hash = 0;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) return store_fail(s, err, "hashing the run");
    sqlite3_bind_int64(st, 1, run_id);
    int64_t cur = -1;
    uint64_t h = 0;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t idx = sqlite3_column_int64(st, 0);
        if (idx != cur) {
            if (cur >= 0) *hash += record_hash_game(h, (uint32_t)cur);
            cur = idx;
            h = RNG_HASH_START;
        }
        const char *a = (const char *)sqlite3_column_text(st, 1);
        h = record_hash_action(h, a ? a : "", (uint32_t)sqlite3_column_int64(st, 2),
                               (uint32_t)sqlite3_column_int64(st, 3));
    }
    if (cur >= 0) *hash += record_hash_game(h, (uint32_t)cur);
    if (step != SQLITE_DONE) rc = store_fail(s, err, "hashing the run");
    sqlite3_finalize(st);
    return rc;
}

