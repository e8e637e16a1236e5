#define _GNU_SOURCE /* nftw, in test_proc.h */
/* Shards and `yinsh merge` (docs/cluster.md): --shard K/N plays a slice of
 * a run with the run's identity, `yinsh merge` joins the slices by uid,
 * checked, in one transaction. No MPI needed. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/test_proc.h"

/* Shard K of N of a run of random games, seed 5, in dir/shard-K.db. */
static char *shard(const char *dir, const char *kind, int k, int n, const char *games)
{
    char name[32], spec[16];
    snprintf(name, sizeof name, "shard-%d.db", k);
    snprintf(spec, sizeof spec, "%d/%d", k, n);
    char *db = path_in(dir, name), *err;
    if (!strcmp(kind, "match")) {
        const char *args[] = {"match", "--a", "mcts:sims=10", "--b", "random", "--games", games, "--seed", "5",
                              "--db", db, "--shard", gc(strdup(spec)), "--quiet", NULL};
        cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    } else {
        const char *args[] = {"selfplay", "--games", games, "--agent", "random", "--seed", "5", "--db", db,
                              "--shard", gc(strdup(spec)), "--quiet", NULL};
        cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    }
    return db;
}

/* The name of the one run of a database. */
static char *run_name(const char *db)
{
    sqlite3 *h = db_open(db);
    char *name = db_text(h, "SELECT name FROM run");
    sqlite3_close(h);
    return name;
}

/* What a database holds, but the clock and local row ids. */
static char *contents(const char *db)
{
    sqlite3 *h = db_open(db);
    char *t = db_text(h, "SELECT coalesce((SELECT group_concat(uid || name || seed || games || (finished_at IS NOT NULL), "
                         "',') FROM run), '') || '/' || coalesce((SELECT group_concat(x, '|') FROM (SELECT r.uid || "
                         "g.idx || g.result || g.ident || g.repeat || a.ply || a.action || coalesce(a.root_visits, '') "
                         "|| coalesce(a.value, '') AS x FROM run r JOIN game g ON g.run_id = r.id JOIN action a ON "
                         "a.game_id = g.id ORDER BY r.uid, g.idx, a.ply)), '')");
    sqlite3_close(h);
    return t;
}

static void expect(const char *dir, const char *const *args, int rc, const char *w1, const char *w2)
{
    char *out, *err;
    int got = yinsh_run(dir, args, &out, &err);
    cr_assert_eq(got, rc, "%s: exit %d, not %d: %s", args[0], got, rc, err);
    if (w1) cr_assert(strstr(err, w1), "'%s' does not say '%s'", err, w1);
    if (w2) cr_assert(strstr(err, w2), "'%s' does not say '%s'", err, w2);
}

Test(merge, shard_usage_errors)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "x.db");
    const char *bad[][2] = {{"0/3", "K/N"}, {"4/3", "K/N"}, {"1/0", "K/N"}, {"x", "K/N"}, {"1/3/", "K/N"},
                            {"+1/3", "K/N"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *args[] = {"selfplay", "--games", "6", "--agent", "random", "--seed", "1", "--db", db, "--shard",
                              bad[i][0], NULL};
        expect(dir, args, 2, bad[i][1], NULL);
    }
    const char *noseed[] = {"selfplay", "--games", "6", "--agent", "random", "--db", db, "--shard", "1/2", NULL};
    expect(dir, noseed, 2, "--seed", NULL);
    const char *nodb[] = {"selfplay", "--games", "6", "--agent", "random", "--seed", "1", "--no-db", "--shard", "1/2",
                          NULL};
    expect(dir, nodb, 2, "--no-db", NULL);
    const char *sprt[] = {"match", "--a", "random", "--b", "random", "--games", "6", "--seed", "1", "--db", db,
                          "--sprt", "0,10,0.05,0.05", "--shard", "1/2", NULL};
    expect(dir, sprt, 2, "--sprt", NULL);
    const char *none[] = {"merge", "--db", db, NULL};
    expect(dir, none, 2, "no database", NULL);
    cr_assert(!file_exists(db), "a usage error wrote %s", db);
}

/* Shards of a self-play run and of a match, merged in any order and
 * twice over, into a database that holds another run: each run whole,
 * finished, the games of one process; the other run untouched. */
Test(merge, shards_merge_to_one_process)
{
    char *dir = tmpdir_new(), *out = path_in(dir, "out.db"), *one = path_in(dir, "one.db"), *text, *err;
    const char *other[] = {"selfplay", "--games", "5", "--agent", "random", "--seed", "99", "--db", out, "--run",
                           "other", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, other, NULL, &err), 0, "%s", err);
    char *s1 = shard(dir, "selfplay", 1, 3, "50"), *s2 = shard(dir, "selfplay", 2, 3, "50"),
         *s3 = shard(dir, "selfplay", 3, 3, "50");
    /* one shard first: the run is not finished, its missing games listed as ranges */
    const char *first[] = {"merge", "--db", out, s2, NULL};
    cr_assert_eq(yinsh_run(dir, first, &text, &err), 0, "%s", err);
    cr_assert(strstr(text, "17/50 games: missing 0, 2-3, 5-6,"), "%s", text);
    const char *rest[] = {"merge", "--db", out, s3, s1, s2, NULL};
    cr_assert_eq(yinsh_run(dir, rest, &text, &err), 0, "%s", err);
    cr_assert(strstr(text, "50/50 games: finished"), "%s", text);
    cr_assert(strstr(text, "17 held already"), "%s", text);
    char *name = run_name(s1);
    const char *single[] = {"selfplay", "--games", "50", "--agent", "random", "--seed", "5", "--db", one, "--run",
                            name, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, single, NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(out);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game g JOIN run r ON r.id = g.run_id WHERE r.name = 'other'"), 5);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM run WHERE finished_at IS NOT NULL"), 2);
    char *merged = db_text(h, "SELECT group_concat(x, '|') FROM (SELECT g.idx || g.seed || g.result || a.ply || a.action "
                              "AS x FROM game g JOIN action a ON a.game_id = g.id JOIN run r ON r.id = g.run_id WHERE "
                              "r.name != 'other' ORDER BY g.idx, a.ply)");
    sqlite3_close(h);
    h = db_open(one);
    char *ref = db_text(h, "SELECT group_concat(x, '|') FROM (SELECT g.idx || g.seed || g.result || a.ply || a.action "
                           "AS x FROM game g JOIN action a ON a.game_id = g.id ORDER BY g.idx, a.ply)");
    sqlite3_close(h);
    cr_assert(!strcmp(merged, ref), "the merged run is not the run of one process");

    /* a match, sliced by pairs */
    char *mdir = tmpdir_new(), *mout = path_in(mdir, "m.db"), *mone = path_in(mdir, "one.db");
    char *m1 = shard(mdir, "match", 1, 2, "20"), *m2 = shard(mdir, "match", 2, 2, "20");
    sqlite3 *mh = db_open(m1);
    cr_assert_eq(db_int(mh, "SELECT count(*) FROM game WHERE (idx / 2) % 2 != 0"), 0, "a pair was split");
    sqlite3_close(mh);
    const char *mm[] = {"merge", "--db", mout, m1, m2, NULL};
    cr_assert_eq(yinsh_run(mdir, mm, &text, &err), 0, "%s", err);
    cr_assert(strstr(text, "20/20 games: finished"), "%s", text);
    const char *msingle[] = {"match", "--a", "mcts:sims=10", "--b", "random", "--games", "20", "--seed", "5", "--db",
                             mone, "--quiet", NULL};
    cr_assert_eq(yinsh_run(mdir, msingle, NULL, &err), 0, "%s", err);
    mh = db_open(mout);
    char *mg = db_text(mh, "SELECT group_concat(x, '|') FROM (SELECT g.idx || g.result || a.ply || a.action || "
                           "coalesce(a.root_visits, '') AS x FROM game g JOIN action a ON a.game_id = g.id ORDER BY "
                           "g.idx, a.ply)");
    sqlite3_close(mh);
    mh = db_open(mone);
    char *mr = db_text(mh, "SELECT group_concat(x, '|') FROM (SELECT g.idx || g.result || a.ply || a.action || "
                           "coalesce(a.root_visits, '') AS x FROM game g JOIN action a ON a.game_id = g.id ORDER BY "
                           "g.idx, a.ply)");
    sqlite3_close(mh);
    cr_assert(!strcmp(mg, mr), "the merged match is not the match of one process");
}

/* Bad inputs: each refused by name, and the output left as it was (or
 * not made at all). */
Test(merge, refuses_bad_inputs_writing_nothing)
{
    char *dir = tmpdir_new(), *out = path_in(dir, "out.db"), *err;
    char *s1 = shard(dir, "selfplay", 1, 2, "30"), *s2 = shard(dir, "selfplay", 2, 2, "30");
    const char *first[] = {"merge", "--db", out, s1, NULL};
    cr_assert_eq(yinsh_run(dir, first, NULL, &err), 0, "%s", err);
    char *before = contents(out);

    /* truncated: a copy cut short */
    char *cut = path_in(dir, "cut.db");
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s' && truncate -s 8192 '%s'", s2, cut, cut);
    cr_assert_eq(system(cmd), 0);
    /* foreign: an SQLite database of something else, and a file that is no database */
    char *foreign = path_in(dir, "foreign.db"), *text = path_in(dir, "notes.db");
    sqlite3 *h = db_open(foreign);
    sqlite3_exec(h, "CREATE TABLE t (x); INSERT INTO t VALUES (1)", NULL, NULL, NULL);
    sqlite3_close(h);
    FILE *f = fopen(text, "w");
    fprintf(f, "these are not the games you are looking for\n");
    fclose(f);
    /* newer: a shard of a schema this yinsh does not know */
    char *newer = path_in(dir, "newer.db");
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", s2, newer);
    cr_assert_eq(system(cmd), 0);
    h = db_open(newer);
    sqlite3_exec(h, "PRAGMA user_version = 99", NULL, NULL, NULL);
    sqlite3_close(h);
    const char *bad[][2] = {{cut, "damaged"}, {foreign, "not a Yinsh Lab"}, {text, "not a database"},
                            {newer, "newer"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        /* the good shard first: its games would be written but for the bad one */
        const char *args[] = {"merge", "--db", out, s2, bad[i][0], NULL};
        expect(dir, args, 1, bad[i][0], bad[i][1]);
        cr_assert_str_eq(contents(out), before, "merging %s changed %s", bad[i][0], out);
        char *fresh = path_in(dir, "fresh.db");
        const char *args2[] = {"merge", "--db", fresh, bad[i][0], NULL};
        expect(dir, args2, 1, bad[i][0], "nothing was written");
        cr_assert(!file_exists(fresh), "a failed merge left %s", fresh);
    }

    /* a conflicting game: same run and index, other actions; both files named */
    char *forged = path_in(dir, "forged.db");
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", s1, forged);
    cr_assert_eq(system(cmd), 0);
    h = db_open(forged);
    cr_assert_eq(sqlite3_exec(h, "UPDATE action SET action = 'a1' WHERE ply = 3 AND game_id = (SELECT min(id) FROM "
                                 "game)", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);
    const char *conflict[] = {"merge", "--db", out, s2, forged, NULL};
    expect(dir, conflict, 1, out, forged);
    cr_assert_str_eq(contents(out), before);
    const char *conflict2[] = {"merge", "--db", path_in(dir, "two.db"), s1, forged, NULL};
    expect(dir, conflict2, 1, s1, forged);

    /* a plan that disagrees (the same uid, another seed): both files named */
    char *other = path_in(dir, "other.db");
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", s2, other);
    cr_assert_eq(system(cmd), 0);
    h = db_open(other);
    sqlite3_exec(h, "UPDATE run SET seed = 6", NULL, NULL, NULL);
    sqlite3_close(h);
    const char *plan[] = {"merge", "--db", out, other, NULL};
    expect(dir, plan, 1, "seed", other);
    cr_assert_str_eq(contents(out), before);

    /* the output named as an input */
    const char *self[] = {"merge", "--db", out, out, NULL};
    expect(dir, self, 1, "once", NULL);
}

/* A shard killed with SIGKILL and resumed with its --shard: the merge is
 * the run of one process. */
Test(merge, shard_killed_and_resumed)
{
    char *dir = tmpdir_new(), *err, *text;
    char *s1 = path_in(dir, "s1.db"), *out = path_in(dir, "out.db"), *one = path_in(dir, "one.db");
    const char *play[] = {"selfplay", "--games", "40", "--agent", "mcts:sims=400", "--seed", "8", "--db", s1,
                          "--shard", "1/2", "--threads", "1", "--quiet", NULL};
    pid_t pid = yinsh_start(dir, play);
    games_awaited(s1, 3, 30);
    kill(pid, SIGKILL);
    yinsh_wait(pid);
    cr_assert_lt(games_in(s1), 20, "the shard finished before the kill");
    char *name = run_name(s1);
    const char *resume[] = {"selfplay", "--resume", name, "--db", s1, "--shard", "1/2", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, resume, NULL, &err), 0, "%s", err);
    cr_assert_eq(games_in(s1), 20);
    char *s2 = path_in(dir, "s2.db");
    const char *play2[] = {"selfplay", "--games", "40", "--agent", "mcts:sims=400", "--seed", "8", "--db", s2,
                           "--shard", "2/2", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, play2, NULL, &err), 0, "%s", err);
    const char *merge[] = {"merge", "--db", out, s1, s2, NULL};
    cr_assert_eq(yinsh_run(dir, merge, &text, &err), 0, "%s", err);
    cr_assert(strstr(text, "40/40 games: finished"), "%s", text);
    const char *single[] = {"selfplay", "--games", "40", "--agent", "mcts:sims=400", "--seed", "8", "--db", one,
                            "--run", name, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, single, NULL, &err), 0, "%s", err);
    /* the same games: one process's run has its own uid; compare the rest */
    sqlite3 *a = db_open(out), *b = db_open(one);
    const char *q = "SELECT group_concat(x, '|') FROM (SELECT g.idx || g.ident || g.result || a.ply || a.action || "
                    "coalesce(a.root_visits, '') || coalesce(a.value, '') AS x FROM game g JOIN action a ON "
                    "a.game_id = g.id ORDER BY g.idx, a.ply)";
    cr_assert_str_eq(db_text(a, q), db_text(b, q));
    sqlite3_close(a);
    sqlite3_close(b);
}

/* A merge keeps what a run was played under: its controls and every
 * action's clock, so that a --resume of the merged database plays under
 * the run's own plan (issue 22, item 7). */
Test(merge, keeps_controls_and_clocks)
{
    char *dir = tmpdir_new(), *out = path_in(dir, "m.db"), *err;
    char *db[2];
    for (int k = 1; k <= 2; k++) {
        char name[16], spec[8];
        snprintf(name, sizeof name, "c%d.db", k);
        snprintf(spec, sizeof spec, "%d/2", k);
        db[k - 1] = path_in(dir, name);
        const char *args[] = {"match", "--a", "mcts:sims=10", "--b", "mcts:sims=15", "--games", "8", "--seed", "3",
                              "--shard", gc(strdup(spec)), "--agent-streams", "--tc", "30+0.1", "--db", db[k - 1],
                              "--quiet", NULL};
        cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    }
    const char *merge[] = {"merge", "--db", out, db[0], db[1], NULL};
    cr_assert_eq(yinsh_run(dir, merge, NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(out), *a = db_open(db[0]), *b = db_open(db[1]);
    cr_expect_str_eq(db_text(h, "SELECT controls FROM run"), db_text(a, "SELECT controls FROM run"));
    cr_expect_str_eq(db_text(h, "SELECT controls FROM run"), "tc=30+0.1,margin=100,streams=agent");
    long long clocks = db_int(a, "SELECT count(clock_us) FROM action") + db_int(b, "SELECT count(clock_us) FROM action");
    cr_expect_gt(clocks, 0);
    cr_expect_eq(db_int(h, "SELECT count(clock_us) FROM action"), clocks, "every clock is kept");
    cr_expect_eq(db_int(h, "SELECT sum(clock_us) FROM action"),
                 db_int(a, "SELECT sum(clock_us) FROM action") + db_int(b, "SELECT sum(clock_us) FROM action"));
    sqlite3_close(h);
    sqlite3_close(a);
    sqlite3_close(b);
}

/* A game that is not a game of its run is refused before anything is
 * written, naming the file, the run and the game: an index past the
 * run's size, an action that is not legal, a length or a result its
 * actions do not give, another game's identity (issue 22, item 7). */
Test(merge, refuses_games_that_are_not_their_runs)
{
    char *dir = tmpdir_new(), *s1 = shard(dir, "selfplay", 1, 2, "12"), *err;
    const char *tamper[][2] = {
        {"index", "UPDATE game SET idx = 1000 WHERE id = (SELECT min(id) FROM game)"},
        {"action", "UPDATE action SET action = 'k11' WHERE ply = 20 AND game_id = (SELECT min(id) FROM game)"},
        {"length", "UPDATE game SET actions = actions + 1 WHERE id = (SELECT min(id) FROM game)"},
        {"result", "UPDATE game SET result = CASE result WHEN 'white' THEN 'black' ELSE 'white' END, reason = "
                   "'three-rings' WHERE id = (SELECT min(id) FROM game)"},
        {"identity", "UPDATE game SET ident = '0123456789abcdef' WHERE id = (SELECT min(id) FROM game)"},
        {"state", "UPDATE action SET state = 'X' WHERE ply = 30 AND game_id = (SELECT min(id) FROM game)"},
    };
    for (size_t i = 0; i < sizeof tamper / sizeof *tamper; i++) {
        char name[32], cmd[4096];
        snprintf(name, sizeof name, "t-%s.db", tamper[i][0]);
        char *bad = path_in(dir, name), *out = path_in(dir, gc(strdup(name + 2)));
        snprintf(cmd, sizeof cmd, "cp '%s' '%s'", s1, bad);
        cr_assert_eq(system(cmd), 0);
        sqlite3 *h = db_open(bad);
        cr_assert_eq(sqlite3_exec(h, tamper[i][1], NULL, NULL, NULL), SQLITE_OK, "%s", tamper[i][0]);
        sqlite3_close(h);
        const char *args[] = {"merge", "--db", out, bad, NULL};
        int rc = yinsh_run(dir, args, NULL, &err);
        cr_expect_eq(rc, 1, "%s: exit %d: %s", tamper[i][0], rc, err);
        cr_expect(strstr(err, bad) && strstr(err, "is not a game of that run"), "%s: %s", tamper[i][0], err);
        cr_expect(!file_exists(out), "%s: the refused merge left %s", tamper[i][0], out);
    }
}

/* Two copies of a run whose games differ only in a root visit
 * distribution (visits moved from one child to another, every action and
 * its root and chosen counts unchanged): not the same game, so the merge
 * refuses them, naming both files, instead of counting a duplicate. */
Test(merge, games_that_differ_only_in_visits_are_not_one_game)
{
    char *dir = tmpdir_new(), *err, cmd[4096];
    char *a = path_in(dir, "a.db"), *b = path_in(dir, "b.db"), *out = path_in(dir, "out.db");
    const char *play[] = {"selfplay", "--games", "2", "--agent", "mcts:sims=30", "--seed", "5", "--db", a,
                          "--store-visits", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, play, NULL, &err), 0, "%s", err);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", a, b);
    cr_assert_eq(system(cmd), 0);
    /* a position where two children besides the chosen one were visited,
     * one of them twice or more: one visit moves between them */
    sqlite3 *h = db_open(b);
    const char *pick = "SELECT v.game_id || ' ' || v.ply || ' ' || v.action || ' ' || w.action FROM action_visits v "
                       "JOIN action_visits w ON w.game_id = v.game_id AND w.ply = v.ply AND w.action != v.action "
                       "JOIN action a ON a.game_id = v.game_id AND a.ply = v.ply "
                       "WHERE v.visits >= 2 AND v.action != a.action AND w.action != a.action "
                       "ORDER BY v.game_id, v.ply, v.action, w.action LIMIT 1";
    char *row = db_text(h, pick), from[32], to[32];
    long long game, ply;
    cr_assert(row && sscanf(row, "%lld %lld %31s %31s", &game, &ply, from, to) == 4, "no such position: %s", row);
    char sql[512];
    snprintf(sql, sizeof sql,
             "UPDATE action_visits SET visits = visits - 1 WHERE game_id = %lld AND ply = %lld AND action = '%s'; "
             "UPDATE action_visits SET visits = visits + 1 WHERE game_id = %lld AND ply = %lld AND action = '%s'",
             game, ply, from, game, ply, to);
    cr_assert_eq(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);
    const char *merge[] = {"merge", "--db", out, a, b, NULL};
    expect(dir, merge, 1, a, b);
    expect(dir, merge, 1, "root visit distributions", NULL);
    cr_assert_not(file_exists(out), "a failed merge left %s", out);
    /* the same file twice is one game (duplicates), as before */
    char *c = path_in(dir, "c.db");
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", a, c);
    cr_assert_eq(system(cmd), 0);
    const char *same[] = {"merge", "--db", out, a, c, NULL};
    expect(dir, same, 0, NULL, NULL);
}

/* Every action's root value (a game's search, game by game and ply by
 * ply; NULL where none), as one text. */
static char *root_values(const char *db)
{
    sqlite3 *h = db_open(db);
    char *text = db_text(h, "SELECT group_concat(x, ' ') FROM (SELECT g.idx || '/' || a.ply || '/' || "
                            "CASE WHEN a.root_value IS NULL THEN 'NULL' ELSE printf('%.17g', a.root_value) END AS x FROM action a JOIN game g ON "
                            "g.id = a.game_id ORDER BY g.idx, a.ply)");
    sqlite3_close(h);
    return text;
}

/* A merge copies each action's root value (schema 8) with its row: the
 * shards of a run merged hold the values of the run played whole, NULL
 * where it has none (a forced action, the random agent's). */
Test(merge, keeps_root_values)
{
    char *dir = tmpdir_new(), *whole = path_in(dir, "whole.db"), *out = path_in(dir, "out.db"), *err;
    const char *w[] = {"selfplay", "--games", "4", "--white", "mcts:sims=20", "--black", "random", "--seed", "6",
                       "--db", whole, "--run", "r", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, w, NULL, &err), 0, "%s", err);
    char *s[2];
    for (int k = 0; k < 2; k++) {
        char name[16], spec[8];
        snprintf(name, sizeof name, "s%d.db", k + 1);
        snprintf(spec, sizeof spec, "%d/2", k + 1);
        s[k] = path_in(dir, name);
        const char *a[] = {"selfplay", "--games", "4", "--white", "mcts:sims=20", "--black", "random", "--seed",
                           "6", "--db", s[k], "--run", "r", "--quiet", "--shard", gc(strdup(spec)), NULL};
        cr_assert_eq(yinsh_run(dir, a, NULL, &err), 0, "%s", err);
    }
    const char *m[] = {"merge", "--db", out, s[0], s[1], "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, m, NULL, &err), 0, "%s", err);
    char *expected = root_values(whole);
    cr_assert(strstr(expected, "NULL") && strstr(expected, "0."), "%.300s", expected);
    cr_expect_str_eq(root_values(out), expected);
    sqlite3 *h = db_open(out);
    cr_expect_gt(db_int(h, "SELECT count(root_value) FROM action"), 50);
    sqlite3_close(h);
}
