/* The root visit distributions of MCTS actions (--store-visits; table
 * action_visits, docs/schema.md): what is stored and what it means, that
 * it changes no game, the upgrade of a version-6 database, merge, resume,
 * and `yinsh positions`. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <math.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "selfplay/store/cursor.h"
#include "selfplay/store/store.h"
#include "tests/test_proc.h"

/* MCTS against alpha-beta, from two random actions: MCTS, alpha-beta
 * and unsearched actions in one game. */
#define MIXED "--white", "mcts:sims=40", "--black", "ab:depth=1", "--opening", "random:2"

static const char *hash_line(const char *out)
{
    const char *h = strstr(out, "hash ");
    cr_assert(h, "%s", out);
    return gc(strndup(h, strcspn(h, "\n")));
}

/* Every MCTS action has its root's children: their visits sum to the
 * root's visits (less the root's own first visit when the root was a leaf
 * of the search before), the first search of a game's fresh tree to the
 * root's visits exactly, and the chosen action's row holds the stored
 * chosen visits; alpha-beta and unsearched actions have none. */
Test(visits, stored_distribution_is_the_roots)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "v.db"), *err;
    const char *args[] = {"selfplay", "--games", "3", MIXED, "--seed", "5", "--threads", "2", "--db", db,
                          "--run", "v", "--quiet", "--store-visits", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(db);
    cr_assert_eq(db_int(h, "SELECT visits FROM run WHERE name = 'v'"), 1);
    cr_assert_gt(db_int(h, "SELECT count(*) FROM action_visits"), 100);
    const char *per_action = "CREATE TEMP VIEW t AS SELECT a.game_id, a.ply, a.actor, a.root_visits AS root, "
                             "a.chosen_visits AS chosen, (SELECT sum(visits) FROM action_visits v WHERE "
                             "v.game_id = a.game_id AND v.ply = a.ply) AS children, (SELECT count(*) FROM "
                             "action_visits v WHERE v.game_id = a.game_id AND v.ply = a.ply) AS n, (SELECT visits "
                             "FROM action_visits v WHERE v.game_id = a.game_id AND v.ply = a.ply AND v.action = "
                             "a.action) AS mine FROM action a";
    cr_assert_eq(sqlite3_exec(h, per_action, NULL, NULL, NULL), SQLITE_OK, "%s", sqlite3_errmsg(h));
    long long mcts = db_int(h, "SELECT count(*) FROM t WHERE actor = 'w' AND root IS NOT NULL");
    cr_assert_gt(mcts, 20);
    /* every MCTS action has a distribution, nothing else has one */
    cr_expect_eq(db_int(h, "SELECT count(*) FROM t WHERE actor = 'w' AND root IS NOT NULL AND n > 0"), mcts);
    cr_expect_eq(db_int(h, "SELECT count(*) FROM t WHERE (actor = 'b' OR root IS NULL) AND n > 0"), 0);
    cr_expect_gt(db_int(h, "SELECT count(*) FROM t WHERE actor = 'b' AND root IS NOT NULL"), 10);
    /* the sums, and the chosen action's row */
    cr_expect_eq(db_int(h, "SELECT count(*) FROM t WHERE n > 0 AND children NOT IN (root, root - 1)"), 0);
    cr_expect_eq(db_int(h, "SELECT count(*) FROM t WHERE n > 0 AND mine IS NOT chosen"), 0);
    cr_expect_eq(db_int(h, "SELECT count(*) FROM t WHERE n > 0 AND ply = (SELECT min(ply) FROM t t2 WHERE "
                           "t2.game_id = t.game_id AND t2.n > 0) AND children != root"), 0);
    cr_expect_gt(db_int(h, "SELECT count(*) FROM t WHERE n > 0 AND children = root - 1"), 0, "no kept subtree met");
    cr_expect_eq(db_int(h, "SELECT count(*) FROM action_visits WHERE visits < 1"), 0);
    sqlite3_close(h);
}

/* Storing the distributions changes no game: the same play hash, the
 * same actions and figures, with and without; without, no rows and the
 * run says so. A match takes the option too. */
Test(visits, same_games_with_and_without)
{
    char *dir = tmpdir_new(), *with = path_in(dir, "with.db"), *without = path_in(dir, "without.db"), *out1, *out2,
         *err;
    const char *a[] = {"selfplay", "--games", "3", MIXED, "--seed", "9", "--threads", "2", "--db", with,
                       "--run", "r", "--quiet", "--store-visits", NULL};
    const char *b[] = {"selfplay", "--games", "3", MIXED, "--seed", "9", "--threads", "2", "--db", without,
                       "--run", "r", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, a, &out1, &err), 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, b, &out2, &err), 0, "%s", err);
    cr_expect_str_eq(hash_line(out1), hash_line(out2));
    sqlite3 *h = db_open(without);
    cr_expect_eq(db_int(h, "SELECT count(*) FROM action_visits"), 0);
    cr_expect_eq(db_int(h, "SELECT visits FROM run"), 0);
    char attach[512];
    snprintf(attach, sizeof attach, "ATTACH '%s' AS w", with);
    cr_assert_eq(sqlite3_exec(h, attach, NULL, NULL, NULL), SQLITE_OK);
    cr_expect_eq(db_int(h, "SELECT count(*) FROM (SELECT ply, action, root_visits, chosen_visits, value FROM "
                           "main.action EXCEPT SELECT ply, action, root_visits, chosen_visits, value FROM w.action)"),
                 0);
    cr_expect_eq(db_int(h, "SELECT (SELECT count(*) FROM main.action) = (SELECT count(*) FROM w.action)"), 1);
    /* the plan is the same: the same identity */
    cr_expect_eq(db_int(h, "SELECT (SELECT plan_ident FROM main.run) = (SELECT plan_ident FROM w.run)"), 1);
    sqlite3_close(h);

    char *m = path_in(dir, "m.db"), *out3, *out4;
    const char *ma[] = {"match", "--a", "mcts:sims=30", "--b", "mcts:sims=20", "--games", "2", "--seed", "3",
                        "--db", m, "--run", "m", "--quiet", "--store-visits", NULL};
    const char *mb[] = {"match", "--a", "mcts:sims=30", "--b", "mcts:sims=20", "--games", "2", "--seed", "3",
                        "--no-db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, ma, &out3, &err), 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, mb, &out4, &err), 0, "%s", err);
    cr_expect_str_eq(hash_line(out3), hash_line(out4));
    h = db_open(m);
    cr_expect_eq(db_int(h, "SELECT visits FROM run"), 1);
    cr_expect_eq(db_int(h, "SELECT count(*) FROM action a WHERE root_visits IS NOT NULL AND NOT EXISTS (SELECT 1 "
                           "FROM action_visits v WHERE v.game_id = a.game_id AND v.ply = a.ply)"),
                 0);
    sqlite3_close(h);
}

/* A version-6 database (the schema without run.visits and action_visits)
 * is upgraded in place: its games kept, its runs marked as storing no
 * visits, the new table there and shaped as a new database's; a run then
 * played into it stores its distributions. */
Test(visits, version_6_is_upgraded_in_place)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "v6.db"), *err;
    const char *args[] = {"selfplay", "--games", "2", "--agent", "mcts:sims=20", "--seed", "1", "--db", db,
                          "--run", "old", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(db);
    long long actions = db_int(h, "SELECT count(*) FROM action");
    cr_assert_eq(sqlite3_exec(h, "DROP TABLE action_visits; ALTER TABLE run DROP COLUMN visits; "
                                 "ALTER TABLE action DROP COLUMN full; ALTER TABLE action DROP COLUMN root_value; "
                                 "PRAGMA user_version = 6", NULL, NULL, NULL),
                 SQLITE_OK, "%s", sqlite3_errmsg(h));
    sqlite3_close(h);
    /* reading never upgrades */
    char *out;
    const char *pos[] = {"positions", "--db", db, "--out", path_in(dir, "p.csv"), "--format", "csv", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, pos, &out, &err), 0, "%s", err);
    h = db_open(db);
    cr_assert_eq(db_int(h, "PRAGMA user_version"), 6);
    sqlite3_close(h);
    const char *more[] = {"selfplay", "--games", "2", "--agent", "mcts:sims=20", "--seed", "2", "--db", db,
                          "--run", "new", "--quiet", "--store-visits", NULL};
    cr_assert_eq(yinsh_run(dir, more, NULL, &err), 0, "%s", err);
    h = db_open(db);
    cr_expect_eq(db_int(h, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
    cr_expect_eq(STORE_SCHEMA_VERSION, 9);
    cr_expect_eq(db_int(h, "SELECT count(*) FROM action a JOIN game g ON g.id = a.game_id JOIN run r ON "
                           "r.id = g.run_id WHERE r.name = 'old'"),
                 actions);
    cr_expect_eq(db_int(h, "SELECT visits FROM run WHERE name = 'old'"), 0);
    cr_expect_eq(db_int(h, "SELECT visits FROM run WHERE name = 'new'"), 1);
    cr_expect_eq(db_int(h, "SELECT count(*) FROM action_visits v JOIN game g ON g.id = v.game_id JOIN run r ON "
                           "r.id = g.run_id WHERE r.name = 'old'"),
                 0);
    cr_expect_gt(db_int(h, "SELECT count(*) FROM action_visits"), 0);
    const char *shape = "SELECT group_concat(name || ' ' || type || ' ' || \"notnull\" || ' ' || pk || ' ' || "
                        "coalesce(dflt_value, ''), '|') FROM pragma_table_info('%s')";
    char sql[512];
    char *cols[2][2];
    for (int t = 0; t < 2; t++) {
        snprintf(sql, sizeof sql, shape, t ? "action_visits" : "run");
        sqlite3_stmt *st;
        cr_assert_eq(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
        cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
        cols[t][0] = gc(strdup((const char *)sqlite3_column_text(st, 0)));
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    h = db_open(path_in(dir, "fresh.db"));
    cr_assert_eq(sqlite3_exec(h, store_schema_sql(), NULL, NULL, NULL), SQLITE_OK);
    for (int t = 0; t < 2; t++) {
        snprintf(sql, sizeof sql, shape, t ? "action_visits" : "run");
        sqlite3_stmt *st;
        cr_assert_eq(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
        cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
        cols[t][1] = gc(strdup((const char *)sqlite3_column_text(st, 0)));
        sqlite3_finalize(st);
        cr_expect_str_eq(cols[t][0], cols[t][1]);
    }
    sqlite3_close(h);
}

/* The rows of a run, as one text (game index, ply, action, visits). */
static char *visit_rows(const char *db, const char *run)
{
    sqlite3 *h = db_open(db);
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT coalesce(group_concat(x, ' '), '') FROM (SELECT g.idx || '/' || v.ply || '/' || v.action || "
             "'=' || v.visits AS x FROM action_visits v JOIN game g ON g.id = v.game_id JOIN run r ON r.id = "
             "g.run_id WHERE r.name = '%s' ORDER BY g.idx, v.ply, v.action)",
             run);
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK, "%s", sqlite3_errmsg(h));
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    char *rows = gc(strdup((const char *)sqlite3_column_text(st, 0)));
    sqlite3_finalize(st);
    sqlite3_close(h);
    return rows;
}

/* Shards merged hold the rows one database would: merge copies them with
 * the games. A resumed run stores them for the games it plays, and a
 * resume cannot start storing them for a run that did not. */
Test(visits, merge_and_resume_keep_them)
{
    char *dir = tmpdir_new(), *whole = path_in(dir, "whole.db"), *s1 = path_in(dir, "s1.db"),
         *s2 = path_in(dir, "s2.db"), *out = path_in(dir, "out.db"), *err;
    const char *w[] = {"selfplay", "--games", "4", "--agent", "mcts:sims=20", "--seed", "4", "--db", whole,
                       "--run", "r", "--quiet", "--store-visits", NULL};
    const char *a[] = {"selfplay", "--games", "4", "--agent", "mcts:sims=20", "--seed", "4", "--db", s1,
                       "--run", "r", "--quiet", "--store-visits", "--shard", "1/2", NULL};
    const char *b[] = {"selfplay", "--games", "4", "--agent", "mcts:sims=20", "--seed", "4", "--db", s2,
                       "--run", "r", "--quiet", "--store-visits", "--shard", "2/2", NULL};
    const char *m[] = {"merge", "--db", out, s1, s2, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, w, NULL, &err), 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, a, NULL, &err), 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, b, NULL, &err), 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, m, NULL, &err), 0, "%s", err);
    char *expected = visit_rows(whole, "r");
    cr_assert_gt(strlen(expected), 100);
    cr_expect_str_eq(visit_rows(out, "r"), expected);
    sqlite3 *h = db_open(out);
    cr_expect_eq(db_int(h, "SELECT visits FROM run"), 1);
    sqlite3_close(h);

    /* games 2 and 3 lost: the resume plays them again, rows and all */
    h = db_open(whole);
    cr_assert_eq(sqlite3_exec(h, "DELETE FROM action_visits WHERE game_id IN (SELECT id FROM game WHERE idx >= 2);"
                                 "DELETE FROM action WHERE game_id IN (SELECT id FROM game WHERE idx >= 2);"
                                 "DELETE FROM game WHERE idx >= 2; UPDATE run SET finished_at = NULL",
                              NULL, NULL, NULL),
                 SQLITE_OK, "%s", sqlite3_errmsg(h));
    sqlite3_close(h);
    cr_assert_str_neq(visit_rows(whole, "r"), expected);
    const char *resume[] = {"selfplay", "--resume", "r", "--db", whole, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, resume, NULL, &err), 0, "%s", err);
    cr_expect_str_eq(visit_rows(whole, "r"), expected);

    /* a run without them is not resumed with them */
    char *plain = path_in(dir, "plain.db");
    const char *p[] = {"selfplay", "--games", "2", "--agent", "mcts:sims=20", "--seed", "4", "--db", plain,
                       "--run", "p", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, p, NULL, &err), 0, "%s", err);
    const char *again[] = {"selfplay", "--resume", "p", "--db", plain, "--quiet", "--store-visits", NULL};
    cr_expect_eq(yinsh_run(dir, again, NULL, &err), 2);
}

/* `yinsh positions`: the visits column of csv and ypn is the stored
 * distribution; --policy adds the visit shares to the .npy records. */
Test(visits, positions_export_the_distribution)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "v.db"), *csv = path_in(dir, "p.csv"), *ypn = path_in(dir, "p.ypn"),
         *npy = path_in(dir, "p.npy"), *err;
    const char *args[] = {"selfplay", "--games", "2", MIXED, "--seed", "5", "--db", db, "--run", "v", "--quiet",
                          "--store-visits", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    const char *c[] = {"positions", "--db", db, "--out", csv, "--format", "csv", "--quiet", NULL};
    const char *y[] = {"positions", "--db", db, "--out", ypn, "--quiet", NULL};
    const char *n[] = {"positions", "--db", db, "--out", npy, "--format", "planes", "--policy", "--quiet", NULL};
    const char *bad[] = {"positions", "--db", db, "--out", csv, "--policy", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, c, NULL, &err), 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, y, NULL, &err), 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, n, NULL, &err), 0, "%s", err);
    cr_expect_eq(yinsh_run(dir, bad, NULL, &err), 2);

    /* the csv: the header names the column; each line's distribution is
     * the stored one (game 0, ply by ply) */
    char *text = slurp(csv);
    cr_assert(!strncmp(text, "run,index,ply,ypn,actor,state,action,action_index,legal,searched,value,root_visits,"
                             "chosen_visits,result,z,visits,root_value\n", 124), "%.200s", text);
    sqlite3 *h = db_open(db);
    long long positions = db_int(h, "SELECT count(*) FROM action");
    int lines = 0, with = 0;
    char *ytext = slurp(ypn), *yline = ytext;
    for (char *line = strchr(text, '\n') + 1, *next; *line; line = next, lines++) {
        next = strchr(line, '\n') + 1;
        /* the distribution is the last column but root_value */
        char *end = memrchr(line, ',', (size_t)(next - line)), *last = memrchr(line, ',', (size_t)(end - line)) + 1;
        char *dist = gc(strndup(last, (size_t)(end - last)));
        int idx, ply;
        cr_assert_eq(sscanf(line, "v,%d,%d,", &idx, &ply), 2, "%.100s", line);
        char sql[256];
        snprintf(sql, sizeof sql,
                 "SELECT coalesce(group_concat(x, ';'), '') FROM (SELECT v.action || ':' || v.visits AS x FROM "
                 "action_visits v JOIN game g ON g.id = v.game_id WHERE g.idx = %d AND v.ply = %d ORDER BY v.action)",
                 idx, ply);
        sqlite3_stmt *st;
        cr_assert_eq(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
        cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
        cr_expect_str_eq(dist, (const char *)sqlite3_column_text(st, 0), "game %d ply %d", idx, ply);
        sqlite3_finalize(st);
        with += dist[0] != '\0';
        /* the ypn line has the same column after its sixth tab, before root_value */
        char *ynext = strchr(yline, '\n') + 1, *yend = memrchr(yline, '\t', (size_t)(ynext - yline));
        char *ylast = memrchr(yline, '\t', (size_t)(yend - yline)) + 1;
        cr_expect_eq(strncmp(ylast, dist, strlen(dist)), 0);
        cr_expect_eq(ylast + strlen(dist), yend);
        yline = ynext;
    }
    cr_expect_eq(lines, positions);
    cr_expect_gt(with, 20);

    /* the .npy: records of 2083 + 4 * 2142 + 4 bytes, the policy after
     * the fixed fields: the shares of the stored visits, 0 where none is
     * stored; root_value last */
    FILE *f = fopen(npy, "rb");
    cr_assert(f);
    unsigned char head[10];
    cr_assert_eq(fread(head, 1, 10, f), 10);
    int hlen = head[8] | head[9] << 8;
    char *dict = gc(calloc(1, (size_t)hlen + 1));
    cr_assert_eq(fread(dict, 1, (size_t)hlen, f), (size_t)hlen);
    cr_expect((hlen + 10) % 64 == 0);
    cr_expect(strstr(dict, "('policy', '<f4', (2142,)), ('root_value', '<f4')]"), "%s", dict);
    char shape[64];
    snprintf(shape, sizeof shape, "'shape': (%lld,)", positions);
    cr_expect(strstr(dict, shape), "%s", dict);
    size_t len = 2083 + 4 * 2142 + 4;
    unsigned char *rec = gc(malloc(len));
    int searched_seen = 0;
    for (long long k = 0; k < positions; k++) {
        cr_assert_eq(fread(rec, 1, len, f), len);
        int action = rec[2057] | rec[2058] << 8, searched = rec[2062];
        float p[2142], sum = 0;
        memcpy(p, rec + 2083, sizeof p);
        for (int i = 0; i < 2142; i++) sum += p[i];
        if (sum == 0) continue;
        cr_expect(searched);
        cr_expect_float_eq(sum, 1.0f, 1e-4);
        cr_expect_gt(p[action], 0.0f, "record %lld", k);
        searched_seen++;
    }
    cr_expect_eq(fgetc(f), EOF);
    fclose(f);
    cr_expect_eq(searched_seen, with);
    sqlite3_close(h);
}

/* A .npy file's header length and records (into *rec, malloc'ed), the
 * record size and count from its size. */
static long npy_records(const char *path, long record, unsigned char **rec, char **dict)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f, "%s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char head[10];
    cr_assert_eq(fread(head, 1, 10, f), 10);
    int hlen = head[8] | head[9] << 8;
    cr_assert((hlen + 10) % 64 == 0);
    *dict = gc(calloc(1, (size_t)hlen + 1));
    cr_assert_eq(fread(*dict, 1, (size_t)hlen, f), (size_t)hlen);
    long n = (size - 10 - hlen) / record;
    cr_assert_eq(10 + hlen + n * record, size, "%s: records of %ld bytes", path, record);
    *rec = gc(malloc((size_t)(n * record) + 1));
    cr_assert_eq(fread(*rec, 1, (size_t)(n * record), f), (size_t)(n * record));
    fclose(f);
    return n;
}

static float f32_at(const unsigned char *p)
{
    uint32_t b = p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static unsigned u16_at(const unsigned char *p) { return p[0] | p[1] << 8; }

/* IEEE binary16, non-negative and finite, as a float. */
static float f16_at(const unsigned char *p)
{
    unsigned h = u16_at(p), e = (h >> 10) & 31, m = h & 1023;
    return e ? ldexpf(1 + m / 1024.0f, (int)e - 15) : ldexpf(m / 1024.0f, -14);
}

/* --policy-format f16 and sparse, and --mask: the same policy as the
 * dense float32 one (within float16's precision), the sparse one its
 * children in index order, the mask the legal actions (as many bits as
 * the record's `legal`, the action played among them); each record far
 * smaller than the dense one's 10655 bytes. */
Test(visits, positions_policy_formats_and_mask)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "v.db"), *err, *dict;
    const char *args[] = {"selfplay", "--games", "2", MIXED, "--seed", "5", "--db", db, "--run", "v", "--quiet",
                          "--store-visits", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    char *dense = path_in(dir, "d.npy"), *half = path_in(dir, "h.npy"), *sparse = path_in(dir, "s.npy");
    const char *d[] = {"positions", "--db", db, "--out", dense, "--format", "planes", "--policy", "--quiet", NULL};
    const char *h[] = {"positions", "--db", db, "--out", half, "--format", "planes", "--policy-format", "f16",
                       "--quiet", NULL};
    const char *s[] = {"positions", "--db", db, "--out", sparse, "--format", "planes", "--policy-format", "sparse",
                       "--mask", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, d, NULL, &err), 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, h, NULL, &err), 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, s, NULL, &err), 0, "%s", err);
    /* each record ends with root_value's 4 bytes (schema 8) */
    enum { BASE = 2083, DENSE = BASE + 4 * 2142 + 4, HALF = BASE + 2 * 2142 + 4, SPARSE = BASE + 4 * 256 + 268 + 4 };
    unsigned char *rd, *rh, *rs;
    long n = npy_records(dense, DENSE, &rd, &dict);
    cr_assert_gt(n, 20);
    cr_assert_eq(npy_records(half, HALF, &rh, &dict), n);
    cr_assert(strstr(dict, "('policy', '<f2', (2142,))"), "%s", dict);
    cr_assert_eq(npy_records(sparse, SPARSE, &rs, &dict), n);
    cr_assert(strstr(dict, "('policy_index', '<u2', (256,)), ('policy_share', '<f2', (256,)), "
                           "('legal_mask', '|u1', (268,)), ('root_value', '<f4')]"), "%s", dict);
    int with = 0;
    for (long r = 0; r < n; r++) {
        const unsigned char *pd = rd + r * DENSE, *ph = rh + r * HALF, *ps = rs + r * SPARSE;
        cr_assert_eq(memcmp(pd, ph, BASE), 0, "record %ld", r);
        cr_assert_eq(memcmp(pd, ps, BASE), 0, "record %ld", r);
        int k = 0;
        for (int i = 0; i < 2142; i++) {
            float want = f32_at(pd + BASE + 4 * i);
            cr_assert(fabsf(f16_at(ph + BASE + 2 * i) - want) <= want / 1024 + 1e-7f, "record %ld action %d", r, i);
            if (want > 0) {
                cr_assert_eq(u16_at(ps + BASE + 2 * k), (unsigned)i, "record %ld child %d", r, k);
                cr_assert(fabsf(f16_at(ps + BASE + 512 + 2 * k) - want) <= want / 1024 + 1e-7f);
                k++;
            }
        }
        with += k > 0;
        for (int j = k; j < 256; j++) cr_assert_eq(u16_at(ps + BASE + 2 * j), 65535u);
        /* the mask: `legal` bits, the action's among them */
        const unsigned char *mask = ps + BASE + 1024;
        int bits = 0;
        for (int i = 0; i < 2142; i++) bits += (mask[i >> 3] >> (7 - (i & 7))) & 1;
        cr_assert_eq(bits, (int)u16_at(pd + 2063), "record %ld", r);
        int action = (int)u16_at(pd + 2057);
        cr_assert((mask[action >> 3] >> (7 - (action & 7))) & 1, "record %ld: action %d not in its mask", r, action);
    }
    cr_assert_gt(with, 20);
    /* and refused off the planes */
    const char *bad[] = {"positions", "--db", db, "--out", path_in(dir, "x.csv"), "--format", "csv", "--mask", NULL};
    cr_assert_eq(yinsh_run(dir, bad, NULL, &err), 2, "%s", err);
    cr_assert(strstr(err, "--mask goes with --format planes"), "%s", err);
    const char *badf[] = {"positions", "--db", db, "--out", half, "--format", "planes", "--policy-format", "bf16",
                          NULL};
    cr_assert_eq(yinsh_run(dir, badf, NULL, &err), 2, "%s", err);
    cr_assert(strstr(err, "f32, f16 or sparse"), "%s", err);
}

/* A reader opened on a version-6 database that another process then
 * upgrades (a run played with --store-visits) reads the new run's
 * distributions: the schema version is asked again, not kept from the
 * open. */
Test(visits, a_reader_sees_an_upgrade_made_after_it_opened)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "v6.db"), *err;
    const char *args[] = {"selfplay", "--games", "1", "--agent", "mcts:sims=20", "--seed", "1", "--db", db,
                          "--run", "old", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(db);
    cr_assert_eq(sqlite3_exec(h, "DROP TABLE action_visits; ALTER TABLE run DROP COLUMN visits; "
                                 "ALTER TABLE action DROP COLUMN full; ALTER TABLE action DROP COLUMN root_value; "
                                 "PRAGMA user_version = 6", NULL, NULL, NULL),
                 SQLITE_OK, "%s", sqlite3_errmsg(h));
    sqlite3_close(h);
    Store *s;
    char why[ERR_LEN];
    cr_assert_eq(store_open(&s, db, STORE_READ, STORE_BUSY_MS, why), 0, "%s", why);
    const char *more[] = {"selfplay", "--games", "1", "--agent", "mcts:sims=20", "--seed", "2", "--db", db,
                          "--run", "new", "--quiet", "--store-visits", NULL};
    cr_assert_eq(yinsh_run(dir, more, NULL, &err), 0, "%s", err);
    const char *runs[] = {"new"};
    StoreSelection sel = {.runs = runs, .nruns = 1};
    StoreCursor *c;
    const StoreCursorGame *g;
    cr_assert_eq(store_cursor_open(s, &sel, &c, why), 0, "%s", why);
    cr_assert_eq(store_cursor_next(c, &g, why), 0, "%s", why);
    cr_assert_not_null(g);
    cr_expect(g->visits, "the new run's distributions read as not stored");
    int with = 0;
    for (int i = 0; i < g->text.nactions; i++) with += g->acts[i].nchildren > 0;
    cr_expect_gt(with, 0, "no action read with its root children");
    store_cursor_close(c);
    store_close(s);
}

/* Playout cap randomisation's flag (action.full, schema 9): MCTS's
 * searched actions say full (1) or reduced (0), alpha-beta's full, the
 * actions nobody searched nothing; the planes' policy target is empty for
 * a reduced search (as where none is stored), and `yinsh train --policy`
 * leaves its positions out and says how many. */
Test(visits, only_full_searches_are_policy_targets)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "v.db"), *npy = path_in(dir, "p.npy"), *out, *err, *dict;
    const char *args[] = {"selfplay", "--games", "3", "--white", "mcts:sims=40,pcr=0.5:6", "--black", "ab:depth=1",
                          "--opening", "random:2", "--seed", "5", "--threads", "1", "--db", db, "--run", "v",
                          "--quiet", "--store-visits", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(db);
    long long reduced = db_int(h, "SELECT count(*) FROM action WHERE full = 0"),
              full_w = db_int(h, "SELECT count(*) FROM action WHERE full = 1 AND actor = 'w'");
    cr_assert(reduced > 5 && full_w > 5, "both kinds: %lld reduced, %lld full", reduced, full_w);
    cr_expect_eq(db_int(h, "SELECT count(*) FROM action WHERE full = 0 AND actor = 'b'"), 0, "alpha-beta is full");
    cr_expect_eq(db_int(h, "SELECT count(*) FROM action WHERE (full IS NULL) != (value IS NULL)"), 0);
    cr_expect_gt(db_int(h, "SELECT count(*) FROM action WHERE full IS NULL"), 0, "unsearched actions");
    /* a reduced search's root visits are its few simulations (and what its
     * kept subtree had): below a full search's 40 */
    cr_expect_eq(db_int(h, "SELECT count(*) FROM action WHERE full = 1 AND actor = 'w' AND root_visits < 40"), 0);

    /* the planes: a policy exactly where a full search stored visits */
    const char *n[] = {"positions", "--db", db, "--out", npy, "--format", "planes", "--policy", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, n, NULL, &err), 0, "%s", err);
    enum { DENSE = 2083 + 4 * 2142 + 4 };
    unsigned char *rec;
    long records = npy_records(npy, DENSE, &rec, &dict);
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(h,
                                    "SELECT coalesce(a.full, -1), (SELECT count(*) FROM action_visits v WHERE "
                                    "v.game_id = a.game_id AND v.ply = a.ply) FROM action a JOIN game g ON g.id = "
                                    "a.game_id ORDER BY g.idx, a.ply",
                                    -1, &st, NULL),
                 SQLITE_OK);
    long r = 0, with = 0;
    for (; sqlite3_step(st) == SQLITE_ROW; r++) {
        cr_assert_lt(r, records);
        int full = sqlite3_column_int(st, 0), children = sqlite3_column_int(st, 1);
        float sum = 0;
        for (int i = 0; i < 2142; i++) sum += f32_at(rec + r * DENSE + 2083 + 4 * i);
        bool want = full == 1 && children > 0;
        cr_expect_eq(sum > 0, want, "record %ld: full %d, %d children stored, policy sum %f", r, full, children, sum);
        with += want;
    }
    sqlite3_finalize(st);
    cr_expect_eq(r, records);
    cr_expect_gt(with, 5);

    /* training: the reduced searches' positions are left out, counted */
    const char *t[] = {"train", "--policy", "--db", db, "--init", "eval/nets/patterns32.nnue", "--out",
                       path_in(dir, "p.nnue"), "--epochs", "1", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, t, &out, &err), 0, "%s", err);
    char want[128];
    snprintf(want, sizeof want, "data: %lld positions of reduced searches (playout cap) left out", reduced);
    cr_expect(strstr(out, want), "%s", out);
    long long choice = db_int(h, "SELECT count(*) FROM action WHERE legal > 1 AND coalesce(full, 1) = 1");
    snprintf(want, sizeof want, "3 games, %lld positions with a choice", choice);
    cr_expect(strstr(out, want), "%s", out);
    sqlite3_close(h);
}
