#define _GNU_SOURCE /* nftw, in test_proc.h */
/* The self-play database (selfplay/store/): schema.sql is the schema of a
 * new database; create, write, summary and resume; a newer version and
 * foreign files refused; the root value stored for searched actions and
 * written last in each record of `yinsh positions`. */
#include <math.h>
#include "selfplay/agents/agent.h"
#include "selfplay/play/scheduler.h"
#include "selfplay/store/store.h"
#include "tests/test_proc.h"

/* ---- the database ----------------------------------------------------- */

/* A database's schema as sqlite_master holds it: every table (with its
 * columns, in its CREATE text), index (sqlite's own for UNIQUE included)
 * and view, one per line in name order, and the schema version. */
static char *schema_objects(sqlite3 *db)
{
    char *objects = db_text(db, "SELECT group_concat(line, char(10)) FROM (SELECT type || ' ' || name || ' on ' || "
                                "tbl_name || ': ' || coalesce(sql, '(automatic)') AS line FROM sqlite_master "
                                "ORDER BY type, name)");
    char *text = gc(malloc(strlen(objects) + 64));
    sprintf(text, "%s\nuser_version %lld", objects, db_int(db, "PRAGMA user_version"));
    return text;
}

/* selfplay/store/schema.sql is the one copy of the schema: the binary
 * carries it byte for byte, and a database that `yinsh selfplay` creates
 * has exactly the tables, columns, indices and views the file declares,
 * and its version: nothing added, altered or missing. */
Test(store, schema_file_is_the_schema_of_a_new_database)
{
    char *file = slurp(YINSH_SCHEMA_SQL);
    cr_assert(strstr(file, "CREATE TABLE run"), "cannot read %s", YINSH_SCHEMA_SQL);
    cr_assert_str_eq(file, store_schema_sql(), "the embedded schema is not %s", YINSH_SCHEMA_SQL);
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(":memory:", &db), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db, file, NULL, NULL, NULL), SQLITE_OK, "%s", sqlite3_errmsg(db));
    char *declared = schema_objects(db);
    sqlite3_close(db);
    cr_assert(strstr(declared, "table game on game: CREATE TABLE game (") &&
                  strstr(declared, "view run_summary on run_summary: CREATE VIEW") &&
                  strstr(declared, "index action_by_state on action: CREATE INDEX"),
              "%s", declared);

    char *dir = tmpdir_new(), *err;
    const char *args[] = {"selfplay", "--games", "1", "--agent", "random", "--seed", "1",
                          "--db", "s.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    db = db_open(path_in(dir, "s.db"));
    char *made = schema_objects(db);
    sqlite3_close(db);
    cr_assert_str_eq(made, declared, "the database yinsh created:\n%s\n\nthe schema file declares:\n%s", made,
                     declared);
}

Test(store, create_write_summary_resume)
{
    char *dir = tmpdir_new(), *path = path_in(dir, "s.db"), err[ERR_LEN];
    Store *s;
    cr_assert_eq(store_open(&s, path, STORE_CREATE, 1000, err), 0, "%s", err);
    SelfplayPlan plan = {.variant = VARIANT_BLITZ, .seed = 99, .games = 6, .threads = 2};
    char aerr[ERR_LEN];
    cr_assert_eq(agent_spec_parse("random", &plan.white, aerr), 0);
    cr_assert_eq(agent_spec_parse("mcts:sims=10", &plan.black, aerr), 0);
    StoreRun run = {.variant = VARIANT_BLITZ, .seed = 99, .games = 6, .threads = 2, .white = "random",
                    .black = "mcts:sims=10,c=1,rollout=random"};
    store_new_uid(99, run.uid);
    cr_assert_eq(strlen(run.uid), 32);
    strcpy(run.name, "t");
    cr_assert_eq(store_run_create(s, &run, "yinsh selfplay test", false, NULL, err), 0, "%s", err);
    StoreRun again = run;
    cr_assert_eq(store_run_create(s, &again, "x", false, NULL, err), ERR_EXISTS);
    cr_assert(strstr(err, "'t'"));

    /* store games 0, 2 and 5 */
    Agent *w, *b;
    cr_assert_eq(agent_new(&w, &plan.white, aerr), 0);
    cr_assert_eq(agent_new(&b, &plan.black, aerr), 0);
    GameRecord g[3];
    GameRecord *gp[3] = {&g[0], &g[1], &g[2]};
    uint32_t which[3] = {0, 2, 5};
    RecordSummary mem = {0};
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(selfplay_play_game(&plan, w, b, which[i], &g[i]), 0);
        record_summary_add(&mem, &g[i]);
    }
    cr_assert_eq(store_write_games(s, &run, gp, 3, err), 0, "%s", err);
    uint32_t *missing, n;
    cr_assert_eq(store_run_missing(s, &run, &missing, &n, err), 0);
    cr_assert_eq(n, 3);
    cr_assert(missing[0] == 1 && missing[1] == 3 && missing[2] == 4);
    free(missing);
    RecordSummary db = {0};
    cr_assert_eq(store_summary(s, &run, &db, err), 0);
    cr_assert_eq(memcmp(&db, &mem, sizeof db), 0);

    /* a game index stored twice is refused, and the batch with it is not stored at all */
    GameRecord *dup[2] = {&g[1], &g[1]};
    cr_assert_neq(store_write_games(s, &run, dup, 2, err), 0);
    cr_assert_eq(store_summary(s, &run, &db, err), 0);
    cr_assert_eq(db.games, 3);

    StoreRun found;
    cr_assert_eq(store_run_get(s, "t", &found, err), 0, "%s", err);
    cr_assert_eq(found.id, run.id);
    cr_assert_eq(found.seed, 99);
    cr_assert_eq(found.variant, VARIANT_BLITZ);
    cr_assert_str_eq(found.black, "mcts:sims=10,c=1,rollout=random");
    cr_assert_eq(found.games, 6);
    cr_assert_eq(found.threads, 2);
    cr_assert_not(found.pairs);
    cr_assert_eq(found.opening, OPENING_NONE);
    cr_assert_not(found.finished);
    cr_assert_eq(store_run_get(s, "nope", &found, err), ERR_NOT_FOUND);
    cr_assert_eq(store_run_finish(s, &run, err), 0);
    for (int i = 0; i < 3; i++) record_free(&g[i]);
    agent_free(w);
    agent_free(b);
    store_close(s);

    sqlite3 *db3 = db_open(path);
    cr_assert_eq(db_int(db3, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
    char *mode = db_text(db3, "PRAGMA journal_mode");
    cr_assert_str_eq(mode, "wal");
    cr_assert_eq(db_int(db3, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name LIKE 'game_by%'"), 3);
    cr_assert_eq(db_int(db3, "SELECT count(*) FROM run WHERE finished_at IS NOT NULL"), 0, "3 of 6 games: not finished");
    cr_assert_eq(db_int(db3, "SELECT count(*) FROM game WHERE white = 'random' AND variant = 'blitz'"), 3);
    cr_assert_eq(db_int(db3, "SELECT count(*) FROM action WHERE actor = 'b' AND state = 'M' AND root_visits IS NULL "
                             "AND legal > 1"),
                 0);
    cr_assert_eq(db_int(db3, "SELECT (SELECT sum(actions) FROM game) = (SELECT count(*) FROM action)"), 1);
    sqlite3_close(db3);
}

Test(store, refuses_newer_version_and_foreign_files)
{
    char *dir = tmpdir_new(), *path = path_in(dir, "n.db"), err[ERR_LEN];
    sqlite3 *db = db_open(path);
    char newer[64];
    snprintf(newer, sizeof newer, "PRAGMA user_version = %d", STORE_SCHEMA_VERSION + 1);
    sqlite3_exec(db, newer, NULL, NULL, NULL);
    sqlite3_close(db);
    Store *s;
    cr_assert_neq(store_open(&s, path, STORE_CREATE, 100, err), 0);
    snprintf(newer, sizeof newer, "version %d", STORE_SCHEMA_VERSION + 1);
    cr_assert(strstr(err, newer) && strstr(err, "newer"), "%s", err);

    char *other = path_in(dir, "o.db");
    db = db_open(other);
    sqlite3_exec(db, "CREATE TABLE t (x)", NULL, NULL, NULL);
    sqlite3_close(db);
    cr_assert_neq(store_open(&s, other, STORE_CREATE, 100, err), 0);
    cr_assert(strstr(err, "not a Yinsh Lab"), "%s", err);

    char *text = path_in(dir, "t.txt");
    FILE *f = fopen(text, "w");
    fprintf(f, "this is not a database, just some text long enough to fill a header........................\n");
    fclose(f);
    cr_assert_neq(store_open(&s, text, STORE_CREATE, 100, err), 0);
    cr_assert(strstr(err, "not a database"), "%s", err);
}

/* The agent of an action row (a is action, g its game), in SQL. */
#define ROW_AGENT "CASE a.actor WHEN 'w' THEN g.white ELSE g.black END"

/* action.root_value (schema 8): the searched position's value for the
 * actor beside the chosen action's. An MCTS row has one where it has a
 * value, in [0, 1], in general not the chosen child's; the two are one
 * number where every root visit went through the chosen child (one
 * simulation from a fresh root); alpha-beta's is its value (its score is
 * the root's); a random agent's and MCTS's forced actions' are NULL. */
Test(store, root_value_is_stored_for_searched_actions)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "r.db"), *err;
    const char *mixed[] = {"selfplay", "--games", "2", "--white", "mcts:sims=50", "--black", "ab:depth=1",
                           "--seed", "3", "--db", db, "--run", "mixed", "--threads", "1", "--quiet", NULL};
    const char *one[] = {"selfplay", "--games", "2", "--white", "random", "--black", "mcts:sims=1", "--seed", "4",
                         "--db", db, "--run", "one", "--threads", "1", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, mixed, NULL, &err), 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, one, NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(db);
    const char *from = " FROM action a JOIN game g ON g.id = a.game_id JOIN run r ON r.id = g.run_id WHERE ";
    char sql[512];
#define COUNT(cond) (snprintf(sql, sizeof sql, "SELECT count(*)%s%s", from, cond), db_int(h, sql))
    cr_assert_gt(COUNT(ROW_AGENT " LIKE 'mcts:sims=50,%' AND a.value IS NOT NULL"), 50);
    cr_expect_eq(COUNT("(a.root_value IS NULL) != (a.value IS NULL)"), 0, "a root value without a value, or not");
    cr_expect_eq(COUNT("a.root_value < 0 OR a.root_value > 1"), 0);
    cr_expect_gt(COUNT(ROW_AGENT " LIKE 'mcts:%' AND a.root_value != a.value"), 20);
    cr_expect_eq(COUNT(ROW_AGENT " LIKE 'mcts:%' AND a.root_visits = a.chosen_visits AND a.root_value != a.value"), 0);
    cr_expect_gt(COUNT(ROW_AGENT " LIKE 'mcts:sims=1,%' AND a.root_visits = 1"), 10);
    cr_expect_gt(COUNT(ROW_AGENT " LIKE 'ab:%' AND a.value IS NOT NULL"), 20);
    cr_expect_eq(COUNT(ROW_AGENT " LIKE 'ab:%' AND a.root_value IS NOT a.value"), 0);
    cr_expect_gt(COUNT(ROW_AGENT " = 'random'"), 20);
    cr_expect_eq(COUNT(ROW_AGENT " = 'random' AND a.root_value IS NOT NULL"), 0);
    cr_expect_gt(COUNT(ROW_AGENT " LIKE 'mcts:%' AND a.legal = 1"), 0);
    cr_expect_eq(COUNT(ROW_AGENT " LIKE 'mcts:%' AND a.legal = 1 AND a.root_value IS NOT NULL"), 0,
                 "a forced action has a root value");
#undef COUNT
    sqlite3_close(h);
}

/* `yinsh positions` ends every format with the root value, after the
 * fields it had before: the last column of csv (named root_value) and of
 * ypn (after the visits), the last 4 bytes of each .npy record (float32,
 * after the policy and the mask when asked for; NaN where none is
 * stored), each the action's stored root_value. */
Test(positions, root_value_is_each_records_last)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "p.db"), *err;
    const char *play[] = {"selfplay", "--games", "2", "--white", "mcts:sims=30", "--black", "random", "--seed", "8",
                          "--db", db, "--run", "p", "--threads", "1", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, play, NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(db);
    long long n = db_int(h, "SELECT count(*) FROM action");
    double *want = gc(calloc((size_t)n, sizeof *want));
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(h, "SELECT a.root_value FROM action a JOIN game g ON g.id = a.game_id ORDER BY "
                                       "g.idx, a.ply", -1, &st, NULL), SQLITE_OK);
    for (long long k = 0; k < n; k++) {
        cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
        want[k] = sqlite3_column_type(st, 0) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 0);
    }
    sqlite3_finalize(st);
    sqlite3_close(h);
    int stored = 0;
    for (long long k = 0; k < n; k++) stored += !isnan(want[k]);
    cr_assert(stored > 20 && stored < n, "%d of %lld", stored, n);

    const char *formats[] = {"csv", "ypn"};
    for (int f = 0; f < 2; f++) {
        char *out = path_in(dir, formats[f]);
        const char *args[] = {"positions", "--db", db, "--out", out, "--format", formats[f], "--quiet", NULL};
        cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
        char *text = slurp(out), *line = text, sep = f ? '\t' : ',';
        if (!f) {
            cr_assert(!strncmp(text, "run,index,ply,ypn,actor,state,action,action_index,legal,searched,value,"
                                     "root_visits,chosen_visits,result,z,visits,root_value\n", 124), "%.200s", text);
            line = strchr(text, '\n') + 1;
        }
        long long k = 0;
        for (char *next; *line; line = next, k++) {
            next = strchr(line, '\n') + 1;
            char *last = memrchr(line, sep, (size_t)(next - line)) + 1;
            cr_assert_lt(k, n);
            if (isnan(want[k])) cr_expect_eq(last, next - 1, "%s line %lld: %.300s", formats[f], k, line);
            else cr_expect_eq(strtod(last, NULL), want[k], "%s line %lld: %.300s", formats[f], k, line);
        }
        cr_expect_eq(k, n);
    }

    /* the planes: plain, and with the policy and the mask before it */
    const char *plain[] = {"positions", "--db", db, "--out", "a.npy", "--format", "planes", "--quiet", NULL};
    const char *extras[] = {"positions", "--db", db, "--out", "b.npy", "--format", "planes", "--policy",
                            "--mask", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, plain, NULL, &err), 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, extras, NULL, &err), 0, "%s", err);
    const long len[2] = {2083 + 4, 2083 + 4 * 2142 + 268 + 4};
    const char *files[2] = {"a.npy", "b.npy"};
    for (int f = 0; f < 2; f++) {
        FILE *in = fopen(path_in(dir, files[f]), "rb");
        cr_assert(in);
        unsigned char head[10];
        cr_assert_eq(fread(head, 1, 10, in), 10);
        int hlen = head[8] | head[9] << 8;
        char *dict = gc(calloc(1, (size_t)hlen + 1));
        cr_assert_eq(fread(dict, 1, (size_t)hlen, in), (size_t)hlen);
        cr_expect(strstr(dict, "('root_value', '<f4')]"), "%s", dict);
        unsigned char *rec = gc(malloc((size_t)len[f]));
        for (long long k = 0; k < n; k++) {
            cr_assert_eq(fread(rec, 1, (size_t)len[f], in), (size_t)len[f], "%s record %lld", files[f], k);
            float got;
            memcpy(&got, rec + len[f] - 4, sizeof got); /* little-endian, as this machine */
            if (isnan(want[k])) cr_expect(isnan(got), "%s record %lld: %f", files[f], k, got);
            else cr_expect_eq(got, (float)want[k], "%s record %lld", files[f], k);
        }
        cr_expect_eq(fgetc(in), EOF);
        fclose(in);
    }
}
