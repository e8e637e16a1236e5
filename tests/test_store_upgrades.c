#define _GNU_SOURCE /* nftw, in test_proc.h */
/* The self-play database's upgrades (selfplay/store/): databases of every
 * older schema version, made here as those versions had them, upgraded in
 * place with their games kept and read back. */
#include <math.h>
#include "selfplay/store/cursor.h"
#include "selfplay/store/store.h"
#include "tests/test_proc.h"

/* The run table as versions 1 and 2 had it (version 1: without kind),
 * and as version 3 had it; game and action have not changed since
 * version 1, lease came with version 4. */
static const char RUN_V2[] = "CREATE TABLE run (id INTEGER PRIMARY KEY, uid TEXT NOT NULL UNIQUE, name TEXT NOT NULL "
                             "UNIQUE, command TEXT NOT NULL, version TEXT NOT NULL, host TEXT NOT NULL, seed INTEGER "
                             "NOT NULL, variant TEXT NOT NULL, white TEXT NOT NULL, black TEXT NOT NULL, games "
                             "INTEGER NOT NULL, threads INTEGER NOT NULL, params TEXT NOT NULL, started_at TEXT NOT "
                             "NULL, finished_at TEXT%s);";
static const char RUN_V3[] = "CREATE TABLE run (id INTEGER PRIMARY KEY, uid TEXT NOT NULL UNIQUE, name TEXT NOT NULL "
                             "UNIQUE, command TEXT NOT NULL, version TEXT NOT NULL, host TEXT NOT NULL, seed INTEGER "
                             "NOT NULL, variant TEXT NOT NULL, white TEXT NOT NULL, black TEXT NOT NULL, games "
                             "INTEGER NOT NULL, threads INTEGER NOT NULL, started_at TEXT NOT NULL, finished_at TEXT,"
                             " kind TEXT NOT NULL DEFAULT 'selfplay', pairs INTEGER NOT NULL DEFAULT 0, opening TEXT "
                             "NOT NULL DEFAULT 'none', max_actions INTEGER NOT NULL DEFAULT 1000);";

/* Cuts what schema version 9 added out of the schema's text: the column
 * action.full. */
static void strip_v9(char *sql)
{
    char *c = strstr(sql, "    full ");
    cr_assert(c);
    char *eol = strchr(c, '\n') + 1;
    memmove(c, eol, strlen(eol) + 1);
    cr_assert(!strstr(sql, "    full "));
}

/* Cuts what schema versions 8 and 9 added out of the schema's text: the
 * columns action.root_value and action.full. */
static void strip_v8(char *sql)
{
    strip_v9(sql);
    char *c = strstr(sql, "    root_value ");
    cr_assert(c);
    char *eol = strchr(c, '\n') + 1;
    memmove(c, eol, strlen(eol) + 1);
    cr_assert(!strstr(sql, "root_value"));
}

/* Cuts what schema versions 7 to 9 added out of the schema's text: the
 * column run.visits and the table action_visits (with its comment), then
 * action.root_value and action.full. */
static void strip_v7(char *sql)
{
    strip_v8(sql);
    char *c = strstr(sql, ",\n    visits ");
    cr_assert(c);
    char *eol = strchr(c + 2, '\n');
    memmove(c, eol, strlen(eol) + 1);
    char *from = strstr(sql, "-- With run.visits"), *to = strstr(sql, ") WITHOUT ROWID;\nCREATE TABLE lease");
    cr_assert(from && to && to > from);
    to += strlen(") WITHOUT ROWID;\n");
    memmove(from, to, strlen(to) + 1);
    cr_assert(!strstr(sql, "action_visits") && !strstr(sql, "    visits "));
}

/* An old database: the current schema less what later versions added
 * (the lines that name them), with the run table of its version, two runs
 * of one plan (the main job run twice) with a game each, and a match. */
static void make_old_db(const char *path, int version)
{
    char *sql = gc(strdup(store_schema_sql()));
    strip_v7(sql);
    char *run = strstr(sql, "CREATE TABLE run"), *end = strstr(run, ");\n") + 3;
    char *views = strstr(sql, "-- White's score per game"); /* version 5 */
    *views = '\0';
    char *lease = strstr(sql, "CREATE TABLE lease"); /* version 4 */
    if (version < 4) *lease = '\0';
    static const char *const LATER[] = {"run_by_plan", "game_by_ident", "    ident ", "    repeat ", /* version 5 */
                                        "    clock_us "};                                            /* version 6 */
    char rest[8192] = "";
    for (char *line = end, *next; *line; line = next) {
        next = strchr(line, '\n');
        next = next ? next + 1 : line + strlen(line);
        bool later = false;
        for (int k = 0; k < 5; k++) later |= strstr(line, LATER[k]) && strstr(line, LATER[k]) < next;
        if (!later) strncat(rest, line, (size_t)(next - line));
    }
    /* the game table's last column lost its comma's follower */
    char *comma = strstr(rest, "UNIQUE (run_id, idx)");
    cr_assert(comma);
    char table[2048], full[16384];
    if (version == 4) snprintf(table, sizeof table, "%.*s, white_weights TEXT, black_weights TEXT);",
                               (int)(strlen(RUN_V3) - 2), RUN_V3);
    else if (version == 3) snprintf(table, sizeof table, "%s", RUN_V3);
    else snprintf(table, sizeof table, RUN_V2, version >= 2 ? ", kind TEXT NOT NULL DEFAULT 'selfplay'" : "");
    snprintf(full, sizeof full, "%.*s%s%sPRAGMA user_version = %d;", (int)(run - sql), sql, table, rest, version);
    sqlite3 *db = db_open(path);
    cr_assert_eq(sqlite3_exec(db, full, NULL, NULL, NULL), SQLITE_OK, "%s\n%s", sqlite3_errmsg(db), full);
    const char *v3 = "INSERT INTO run (uid, name, command, version, host, seed, variant, white, black, games, "
                     "threads, started_at, pairs, opening) VALUES ('u', 'old', 'c', '0.1', 'h', 1, 'standard', "
                     "'random', 'random', 2, 1, 'now', 0, 'none'), ('v', 'pairs', 'c', '0.1', 'h', 2, 'blitz', "
                     "'random', 'random', 4, 1, 'now', 1, 'rings'), ('w', 'old2', 'c', '0.1', 'h', 1, 'standard', "
                     "'random', 'random', 2, 1, 'now', 0, 'none')";
    cr_assert_eq(sqlite3_exec(db, version >= 3 ? v3 :
                              "INSERT INTO run (uid, name, command, version, host, seed, variant, white, black, "
                              "games, threads, params, started_at) VALUES ('u', 'old', 'c', '0.1', 'h', 1, "
                              "'standard', 'random', 'random', 2, 1, 'game_max_plies=1000,playout_max_plies=1000', "
                              "'now'), ('v', 'pairs', 'c', '0.1', 'h', 2, 'blitz', 'random', 'random', 4, 1, "
                              "'game_max_plies=1000,playout_max_plies=1000,pairs=1,opening=rings', 'now'), "
                              "('w', 'old2', 'c', '0.1', 'h', 1, 'standard', 'random', 'random', 2, 1, "
                              "'game_max_plies=1000,playout_max_plies=1000', 'now')",
                              NULL, NULL, NULL),
                 SQLITE_OK, "%s", sqlite3_errmsg(db));
    cr_assert_eq(sqlite3_exec(db,
                              "INSERT INTO game (run_id, idx, seed, variant, white, black, result, reason, actions, "
                              "white_removed, black_removed, white_markers, black_markers, duration_ms, stored_at) "
                              "SELECT id, 0, 1, 'standard', 'random', 'random', 'white', 'pool-empty', 0, 0, 0, 0, 0, "
                              "1, 'now' FROM run WHERE name IN ('old', 'old2') ORDER BY id",
                              NULL, NULL, NULL),
                 SQLITE_OK, "%s", sqlite3_errmsg(db));
    sqlite3_close(db);
}

Test(store, upgrades_old_versions_in_place)
{
    for (int version = 1; version < 5; version++) {
        char *dir = tmpdir_new(), *path = path_in(dir, "old.db"), err[ERR_LEN];
        make_old_db(path, version);
        Store *s;
        cr_assert_eq(store_open(&s, path, STORE_WRITE, 1000, err), 0, "%s", err);
        StoreRun run;
        cr_assert_eq(store_run_get(s, "old", &run, err), 0, "%s", err);
        cr_assert_str_eq(run.kind, "selfplay");
        cr_assert_not(run.pairs);
        cr_assert_eq(run.opening, OPENING_NONE);
        cr_assert_eq(store_run_get(s, "pairs", &run, err), 0, "%s", err);
        cr_assert(run.pairs);
        cr_assert_eq(run.opening, OPENING_RINGS);
        cr_assert_eq(run.variant, VARIANT_BLITZ);
        store_close(s);
        sqlite3 *db = db_open(path);
        cr_assert_eq(db_int(db, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
        cr_assert_str_eq(db_text(db, "SELECT kind FROM run WHERE name = 'old'"), "selfplay");
        cr_assert_eq(db_int(db, "SELECT count(*) FROM pragma_table_info('run') WHERE name = 'params'"), 0);
        cr_assert_eq(db_int(db, "SELECT count(*) FROM pragma_table_info('lease')"), 5);
        /* identities filled in: the second copy of the twice-stored game is a repeat */
        cr_assert_eq(db_int(db, "SELECT count(*) FROM run WHERE plan_ident IS NULL"), 0);
        cr_assert_eq(db_int(db, "SELECT count(DISTINCT plan_ident) FROM run"), 2);
        cr_assert_eq(db_int(db, "SELECT count(*) FROM game WHERE ident IS NULL"), 0);
        cr_assert_eq(db_int(db, "SELECT count(DISTINCT ident) FROM game"), 1);
        cr_assert_eq(db_int(db, "SELECT g.repeat FROM game g JOIN run r ON r.id = g.run_id WHERE r.name = 'old2'"), 1);
        cr_assert_eq(db_int(db, "SELECT g.repeat FROM game g JOIN run r ON r.id = g.run_id WHERE r.name = 'old'"), 0);
        cr_assert_eq(db_int(db, "SELECT repeat_of = (SELECT id FROM run WHERE name = 'old') FROM run WHERE name = "
                                "'old2'"), 1);
        cr_assert_eq(db_int(db, "SELECT stored FROM run_summary WHERE run = 'old2'"), 0);
        /* the upgraded table has the shape of a new one, column for column */
        char *cols = db_text(db, "SELECT group_concat(name || ' ' || type || ' ' || \"notnull\" || ' ' || "
                                 "coalesce(dflt_value, ''), '|') FROM pragma_table_info('run')");
        sqlite3_close(db);
        char *fresh = path_in(dir, "fresh.db");
        db = db_open(fresh);
        cr_assert_eq(sqlite3_exec(db, store_schema_sql(), NULL, NULL, NULL), SQLITE_OK);
        cr_assert_str_eq(cols, db_text(db, "SELECT group_concat(name || ' ' || type || ' ' || \"notnull\" || ' ' || "
                                           "coalesce(dflt_value, ''), '|') FROM pragma_table_info('run')"));
        sqlite3_close(db);
        /* opening it again changes nothing */
        cr_assert_eq(store_open(&s, path, STORE_WRITE, 1000, err), 0, "%s", err);
        store_close(s);
    }
}

/* The columns of a table, as pragma_table_info gives them. */
static char *table_shape(sqlite3 *db, const char *table)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT group_concat(name || ' ' || type || ' ' || \"notnull\" || ' ' || "
                              "coalesce(dflt_value, ''), '|') FROM pragma_table_info('%s')", table);
    return db_text(db, sql);
}

/* Version 5 -> 6: run.controls and action.clock_us are added; earlier runs
 * keep their identity and have no controls, earlier actions no clock. */
Test(store, upgrades_version_5)
{
    char *dir = tmpdir_new(), *path = path_in(dir, "v5.db"), err[ERR_LEN];
    char *sql = gc(strdup(store_schema_sql()));
    strip_v7(sql);
    /* the version-5 schema: the version-6 one without its two new columns */
    char *c = strstr(sql, ",\n    controls");
    cr_assert(c);
    memmove(c, strchr(c + 2, '\n'), strlen(strchr(c + 2, '\n')) + 1);
    c = strstr(sql, "    clock_us");
    cr_assert(c);
    memmove(c, strchr(c, '\n') + 1, strlen(strchr(c, '\n') + 1) + 1);
    c = strstr(sql, "PRAGMA user_version = 9");
    cr_assert(c);
    c[22] = '5';
    sqlite3 *db = db_open(path);
    cr_assert_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK, "%s", sqlite3_errmsg(db));
    cr_assert_eq(sqlite3_exec(db,
                              "INSERT INTO run (uid, name, command, version, host, seed, variant, white, black, "
                              "games, threads, started_at, plan_ident) VALUES ('u', 'old', 'c', '0.1', 'h', 1, "
                              "'standard', 'random', 'random', 2, 1, 'now', 'abc');"
                              "INSERT INTO game (run_id, idx, seed, variant, white, black, result, reason, actions, "
                              "white_removed, black_removed, white_markers, black_markers, duration_ms, stored_at) "
                              "VALUES (1, 0, 1, 'standard', 'random', 'random', 'white', 'pool-empty', 1, 0, 0, 0, 0, "
                              "1, 'now');"
                              "INSERT INTO action (game_id, ply, actor, state, action, legal, time_us) VALUES "
                              "(1, 0, 'w', 'P', 'e5', 85, 3)",
                              NULL, NULL, NULL),
                 SQLITE_OK, "%s", sqlite3_errmsg(db));
    sqlite3_close(db);
    Store *s;
    cr_assert_eq(store_open(&s, path, STORE_WRITE, 1000, err), 0, "%s", err);
    StoreRun run;
    cr_assert_eq(store_run_get(s, "old", &run, err), 0, "%s", err);
    cr_assert_str_eq(run.controls, "");
    cr_assert_str_eq(run.plan_ident, "abc");
    store_close(s);
    db = db_open(path);
    cr_assert_eq(db_int(db, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
    cr_assert_eq(db_int(db, "SELECT count(*) FROM action WHERE clock_us IS NULL"), 1);
    char *run_cols = table_shape(db, "run"), *action_cols = table_shape(db, "action");
    sqlite3_close(db);
    db = db_open(path_in(dir, "fresh.db"));
    cr_assert_eq(sqlite3_exec(db, store_schema_sql(), NULL, NULL, NULL), SQLITE_OK);
    cr_assert_str_eq(run_cols, table_shape(db, "run"));
    cr_assert_str_eq(action_cols, table_shape(db, "action"));
    sqlite3_close(db);
}

/* A version-7 database (the schema without action.root_value) is read
 * as it is (reading never upgrades; no root values) and upgraded in place
 * by the next writer: every earlier row keeps its values and has NULL,
 * the action table has a new database's shape, the new run's rows have
 * their root values, and a reader opened before the upgrade reads them. */
Test(store, version_7_is_upgraded_in_place)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "v7.db"), *err, why[ERR_LEN];
    const char *args[] = {"selfplay", "--games", "2", "--agent", "mcts:sims=20", "--seed", "1", "--db", db,
                          "--run", "old", "--quiet", "--store-visits", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(db);
    cr_assert_eq(sqlite3_exec(h, "ALTER TABLE action DROP COLUMN full; ALTER TABLE action DROP COLUMN root_value; "
                                 "PRAGMA user_version = 7",
                              NULL, NULL, NULL),
                 SQLITE_OK, "%s", sqlite3_errmsg(h));
    const char *rows = "SELECT group_concat(x, ' ') FROM (SELECT game_id || '/' || ply || '/' || actor || state || "
                       "action || '/' || legal || '/' || quote(root_visits) || '/' || quote(chosen_visits) || '/' || "
                       "CASE WHEN value IS NULL THEN 'NULL' ELSE printf('%.17g', value) END || '/' || time_us || '/' || quote(clock_us) AS x "
                       "FROM action WHERE game_id IN (SELECT g.id FROM game g JOIN run r ON r.id = g.run_id WHERE "
                       "r.name = 'old') ORDER BY game_id, ply)";
    char *before = db_text(h, rows);
    long long visits = db_int(h, "SELECT count(*) FROM action_visits");
    cr_assert_gt(strlen(before), 1000);
    sqlite3_close(h);

    /* reading never upgrades: the positions have no root values */
    char *csv = path_in(dir, "p.csv");
    const char *pos[] = {"positions", "--db", db, "--out", csv, "--format", "csv", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, pos, NULL, &err), 0, "%s", err);
    char *text = slurp(csv);
    cr_assert(strstr(text, ",visits,root_value\n"), "%.200s", text);
    for (char *line = strchr(text, '\n') + 1; *line; line = strchr(line, '\n') + 1)
        cr_assert_eq(strchr(line, '\n')[-1], ',', "a root value read from version 7: %.300s", line);
    h = db_open(db);
    cr_assert_eq(db_int(h, "PRAGMA user_version"), 7);
    sqlite3_close(h);
    Store *s;
    cr_assert_eq(store_open(&s, db, STORE_READ, STORE_BUSY_MS, why), 0, "%s", why);

    const char *more[] = {"selfplay", "--games", "2", "--agent", "mcts:sims=20", "--seed", "2", "--db", db,
                          "--run", "new", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, more, NULL, &err), 0, "%s", err);
    h = db_open(db);
    cr_expect_eq(db_int(h, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
    cr_expect_str_eq(db_text(h, rows), before, "an earlier action row changed");
    cr_expect_eq(db_int(h, "SELECT count(*) FROM action_visits"), visits);
    cr_expect_eq(db_int(h, "SELECT count(root_value) FROM action a JOIN game g ON g.id = a.game_id JOIN run r ON "
                           "r.id = g.run_id WHERE r.name = 'old'"),
                 0);
    cr_expect_gt(db_int(h, "SELECT count(root_value) FROM action"), 40);
    cr_expect_eq(db_int(h, "SELECT count(*) FROM action WHERE (root_value IS NULL) != (value IS NULL) AND game_id "
                           "IN (SELECT g.id FROM game g JOIN run r ON r.id = g.run_id WHERE r.name = 'new')"),
                 0);
    char *shape = table_shape(h, "action");
    sqlite3_close(h);
    h = db_open(path_in(dir, "fresh.db"));
    cr_assert_eq(sqlite3_exec(h, store_schema_sql(), NULL, NULL, NULL), SQLITE_OK);
    cr_expect_str_eq(shape, table_shape(h, "action"));
    sqlite3_close(h);

    /* the reader opened on version 7 reads the new run's root values */
    const char *runs[] = {"new"};
    StoreSelection sel = {.runs = runs, .nruns = 1};
    StoreCursor *c;
    const StoreCursorGame *g;
    cr_assert_eq(store_cursor_open(s, &sel, &c, why), 0, "%s", why);
    cr_assert_eq(store_cursor_next(c, &g, why), 0, "%s", why);
    cr_assert_not_null(g);
    int with = 0;
    for (int i = 0; i < g->text.nactions; i++) {
        cr_expect_eq(g->acts[i].searched, !isnan(g->acts[i].root_value), "action %d", i);
        with += !isnan(g->acts[i].root_value);
    }
    cr_expect_gt(with, 20);
    store_cursor_close(c);
    store_close(s);
}

/* A version-8 database (the schema without action.full) is read as it
 * is (reading never upgrades: every budget unknown) and upgraded in place
 * by the next writer: every earlier row keeps its values and has NULL,
 * the action table has a new database's shape, the new run's searched
 * actions say full (1) or reduced (0) and the others NULL, and a reader
 * opened before the upgrade reads them. */
Test(store, version_8_is_upgraded_in_place)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "v8.db"), *err, why[ERR_LEN];
    const char *args[] = {"selfplay", "--games", "2", "--agent", "mcts:sims=20,pcr=0.5:4", "--seed", "1", "--db", db,
                          "--run", "old", "--quiet", "--store-visits", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(db);
    cr_assert_gt(db_int(h, "SELECT count(*) FROM action WHERE full = 0"), 0);
    cr_assert_eq(sqlite3_exec(h, "ALTER TABLE action DROP COLUMN full; PRAGMA user_version = 8", NULL, NULL, NULL),
                 SQLITE_OK, "%s", sqlite3_errmsg(h));
    const char *rows = "SELECT group_concat(x, ' ') FROM (SELECT game_id || '/' || ply || '/' || actor || state || "
                       "action || '/' || legal || '/' || quote(root_visits) || '/' || quote(chosen_visits) || '/' || "
                       "CASE WHEN value IS NULL THEN 'NULL' ELSE printf('%.17g', value) END || '/' || "
                       "CASE WHEN root_value IS NULL THEN 'NULL' ELSE printf('%.17g', root_value) END || '/' || "
                       "time_us || '/' || quote(clock_us) AS x "
                       "FROM action WHERE game_id IN (SELECT g.id FROM game g JOIN run r ON r.id = g.run_id WHERE "
                       "r.name = 'old') ORDER BY game_id, ply)";
    char *before = db_text(h, rows);
    cr_assert_gt(strlen(before), 1000);
    sqlite3_close(h);

    /* a reader of version 8: no budget known */
    Store *s;
    cr_assert_eq(store_open(&s, db, STORE_READ, STORE_BUSY_MS, why), 0, "%s", why);
    StoreCursor *c;
    const StoreCursorGame *g;
    cr_assert_eq(store_cursor_open(s, &(StoreSelection){0}, &c, why), 0, "%s", why);
    cr_assert_eq(store_cursor_next(c, &g, why), 0, "%s", why);
    cr_assert_not_null(g);
    for (int i = 0; i < g->text.nactions; i++) cr_expect_eq(g->acts[i].budget, SEARCH_BUDGET_UNKNOWN, "action %d", i);
    store_cursor_close(c);

    const char *more[] = {"selfplay", "--games", "2", "--agent", "mcts:sims=20,pcr=0.5:4", "--seed", "2", "--db", db,
                          "--run", "new", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, more, NULL, &err), 0, "%s", err);
    h = db_open(db);
    cr_expect_eq(db_int(h, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
    cr_expect_str_eq(db_text(h, rows), before, "an earlier action row changed");
    cr_expect_eq(db_int(h, "SELECT count(full) FROM action a JOIN game g ON g.id = a.game_id JOIN run r ON "
                           "r.id = g.run_id WHERE r.name = 'old'"),
                 0);
    const char *new_run = " AND game_id IN (SELECT g.id FROM game g JOIN run r ON r.id = g.run_id WHERE r.name = 'new')";
    char sql[512];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM action WHERE (full IS NULL) != (value IS NULL)%s", new_run);
    cr_expect_eq(db_int(h, sql), 0, "full is stored exactly where the action was searched");
    snprintf(sql, sizeof sql, "SELECT count(*) FROM action WHERE full = 0%s", new_run);
    long long reduced = db_int(h, sql);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM action WHERE full = 1%s", new_run);
    long long full = db_int(h, sql);
    cr_expect(reduced > 10 && full > 10, "pcr=0.5: both kinds (%lld reduced, %lld full)", reduced, full);
    char *shape = table_shape(h, "action");
    sqlite3_close(h);
    h = db_open(path_in(dir, "fresh.db"));
    cr_assert_eq(sqlite3_exec(h, store_schema_sql(), NULL, NULL, NULL), SQLITE_OK);
    cr_expect_str_eq(shape, table_shape(h, "action"));
    sqlite3_close(h);

    /* the reader opened on version 8 reads the new run's budgets */
    const char *runs[] = {"new"};
    StoreSelection sel = {.runs = runs, .nruns = 1};
    cr_assert_eq(store_cursor_open(s, &sel, &c, why), 0, "%s", why);
    int seen[3] = {0, 0, 0};
    while (!store_cursor_next(c, &g, why) && g)
        for (int i = 0; i < g->text.nactions; i++) {
            cr_expect_eq(g->acts[i].budget != SEARCH_BUDGET_UNKNOWN, g->acts[i].searched, "action %d", i);
            seen[g->acts[i].budget]++;
        }
    cr_expect_eq(seen[SEARCH_BUDGET_REDUCED], reduced);
    cr_expect_eq(seen[SEARCH_BUDGET_FULL], full);
    store_cursor_close(c);
    store_close(s);
}
