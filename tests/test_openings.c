#define _GNU_SOURCE /* nftw (test_proc.h) */
/* How games start, as a process: `--opening random:K` for selfplay, match
 * and tournament, the `opening` key of study files. A deterministic agent
 * (ab at a fixed depth) plays one game over and over from the empty
 * board; from K random first actions its games differ, the K actions are
 * the harness's (not searched), the plan remembers K (a resume or a study
 * with another K is refused), and the stored command reproduces the run. */
#include "tests/test_proc.h"

/* The number of distinct action sequences among a run's games. */
static long long distinct_games(sqlite3 *h, const char *run)
{
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT count(DISTINCT seq) FROM (SELECT (SELECT group_concat(action, ' ') FROM "
             "(SELECT action FROM action a WHERE a.game_id = g.id ORDER BY ply)) AS seq FROM game g "
             "JOIN run ON run.id = g.run_id WHERE run.name = '%s')", run);
    return db_int(h, sql);
}

Test(openings, random_prefix_sets_a_deterministic_agents_games_apart)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "o.db");
    const char *plain[] = {"selfplay", "--games", "12", "--agent", "ab:depth=1", "--seed", "3", "--db", db,
                           "--run", "plain", "--quiet", NULL};
    const char *prefix[] = {"selfplay", "--games", "12", "--agent", "ab:depth=1", "--seed", "3", "--db", db,
                            "--run", "prefix", "--opening", "random:4", "--quiet", NULL};
    char *err;
    cr_assert_eq(yinsh_run(dir, plain, NULL, &err), 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, prefix, NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(db);
    cr_expect_eq(distinct_games(h, "plain"), 1, "ab from the empty board plays one game");
    cr_expect_eq(distinct_games(h, "prefix"), 12, "four random actions set twelve games apart");
    cr_expect_str_eq(db_text(h, "SELECT opening FROM run WHERE name = 'prefix'"), "random:4");
    /* the four actions are the harness's: not searched, no visits */
    cr_expect_eq(db_int(h, "SELECT count(*) FROM action a JOIN game g ON g.id = a.game_id JOIN run ON run.id = "
                           "g.run_id WHERE run.name = 'prefix' AND a.ply < 4 AND a.root_visits IS NOT NULL"),
                 0);
    cr_expect_eq(db_int(h, "SELECT count(*) FROM action a JOIN game g ON g.id = a.game_id JOIN run ON run.id = "
                           "g.run_id WHERE run.name = 'prefix' AND a.ply = 4 AND a.root_visits IS NOT NULL"),
                 12, "the agent searches from the fifth action on");
    sqlite3_close(h);
}

Test(openings, the_prefix_is_part_of_the_plan)
{
    char *dir = tmpdir_new(), *a = path_in(dir, "a.db"), *b = path_in(dir, "b.db");
    const char *k4[] = {"selfplay", "--games", "6", "--agent", "random", "--seed", "9", "--db", a, "--run", "r",
                        "--opening", "random:4", "--quiet", NULL};
    const char *k5[] = {"selfplay", "--games", "6", "--agent", "random", "--seed", "9", "--db", b, "--run", "r",
                        "--opening", "random:5", "--quiet", NULL};
    char *out4, *out5, *err;
    cr_assert_eq(yinsh_run(dir, k4, &out4, &err), 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, k5, &out5, &err), 0, "%s", err);
    sqlite3 *ha = db_open(a), *hb = db_open(b);
    cr_expect_str_neq(db_text(ha, "SELECT plan_ident FROM run"), db_text(hb, "SELECT plan_ident FROM run"),
                      "K is part of the run's identity");
    sqlite3_close(ha);
    sqlite3_close(hb);
    /* the same plan again is the same games: refused as a repeat */
    const char *again[] = {"selfplay", "--games", "6", "--agent", "random", "--seed", "9", "--db", a, "--run", "s",
                           "--opening", "random:4", "--quiet", NULL};
    cr_expect_eq(yinsh_run(dir, again, NULL, &err), 1, "a repeat is refused: %s", err);
    /* bad openings are usage errors, and nothing is stored */
    const char *bad0[] = {"selfplay", "--games", "2", "--agent", "random", "--opening", "random:0", "--no-db", NULL};
    const char *badx[] = {"selfplay", "--games", "2", "--agent", "random", "--opening", "random:x", "--no-db", NULL};
    const char *both[] = {"selfplay", "--games", "2", "--agent", "random", "--opening", "rings", "--book", "b",
                          "--no-db", NULL};
    const char *resume[] = {"selfplay", "--resume", "r", "--db", a, "--opening", "rings", NULL};
    cr_expect_eq(yinsh_run(dir, bad0, NULL, &err), 2, "%s", err);
    cr_expect(strstr(err, "random:K"), "%s", err);
    cr_expect_eq(yinsh_run(dir, badx, NULL, &err), 2, "%s", err);
    cr_expect_eq(yinsh_run(dir, both, NULL, &err), 2, "%s", err);
    cr_expect(strstr(err, "exclude"), "%s", err);
    cr_expect_eq(yinsh_run(dir, resume, NULL, &err), 2, "--resume takes the run's own opening: %s", err);
}

Test(openings, match_and_tournament_take_a_prefix)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "m.db");
    const char *match[] = {"match", "--a", "ab:depth=1", "--b", "ab:depth=2", "--games", "8", "--seed", "4",
                           "--opening", "random:3", "--db", db, "--run", "m", "--quiet", NULL};
    char *err;
    cr_assert_eq(yinsh_run(dir, match, NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(db);
    cr_expect_str_eq(db_text(h, "SELECT opening FROM run WHERE name = 'm'"), "random:3");
    /* both games of a pair start alike: the same three actions */
    cr_expect_eq(db_int(h, "SELECT count(*) FROM (SELECT g.idx / 2 AS pair, a.ply, count(DISTINCT a.action) AS n "
                           "FROM action a JOIN game g ON g.id = a.game_id WHERE a.ply < 3 GROUP BY pair, a.ply) "
                           "WHERE n > 1"),
                 0);
    sqlite3_close(h);
    const char *tour[] = {"tournament", "--p", "one=ab:depth=1", "--p", "two=ab:depth=2", "--games", "4",
                          "--opening", "random:2", "--db", db, "--name", "t", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, tour, NULL, &err), 0, "%s", err);
    h = db_open(db);
    cr_expect_str_eq(db_text(h, "SELECT opening FROM run WHERE name = 't/one-vs-two'"), "random:2");
    sqlite3_close(h);
}

Test(openings, a_study_opens_its_runs_as_its_file_says)
{
    char *dir = tmpdir_new();
    char *db = path_in(dir, "s.db");
    char text[1024];
    snprintf(text, sizeof text,
             "[study]\nname = o\ndb = %s\nseed = 7\ngames = 6\nvariants = standard\nopening = random:4\n"
             "[agent ab1]\nspec = ab:depth=1\n"
             "[agent rings]\nspec = ab:depth=1\nopening = rings\n"
             "[report]\nout = %s/report\nplots = no\n",
             db, dir);
    char *file = write_in(dir, "o.ini", text);
    const char *run[] = {"study", file, "--quiet", NULL};
    char *err;
    cr_assert_eq(yinsh_run(dir, run, NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(db);
    cr_expect_str_eq(db_text(h, "SELECT opening FROM run WHERE name = 'o-standard-ab1'"), "random:4");
    cr_expect_str_eq(db_text(h, "SELECT opening FROM run WHERE name = 'o-standard-rings'"), "rings");
    cr_expect_eq(distinct_games(h, "o-standard-ab1"), 6);
    /* the stored command makes the same run by itself: the same games */
    char *command = db_text(h, "SELECT command FROM run WHERE name = 'o-standard-ab1'");
    cr_expect(strstr(command, "--opening random:4"), "%s", command);
    char *hash = db_text(h, "SELECT group_concat(action, ' ') FROM (SELECT action FROM action a JOIN game g ON "
                            "g.id = a.game_id JOIN run ON run.id = g.run_id WHERE run.name = 'o-standard-ab1' "
                            "ORDER BY g.idx, a.ply)");
    sqlite3_close(h);
    char *db2 = path_in(dir, "again.db");
    const char *again[] = {"selfplay", "--games", "6", "--variant", "standard", "--agent", "ab:depth=1", "--seed",
                           "7", "--run", "o-standard-ab1", "--db", db2, "--opening", "random:4", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, again, NULL, &err), 0, "%s", err);
    h = db_open(db2);
    cr_expect_str_eq(db_text(h, "SELECT group_concat(action, ' ') FROM (SELECT action FROM action a JOIN game g "
                                "ON g.id = a.game_id ORDER BY g.idx, a.ply)"),
                     hash);
    sqlite3_close(h);
    /* another K under the same names is another plan: refused, nothing played */
    snprintf(text, sizeof text,
             "[study]\nname = o\ndb = %s\nseed = 7\ngames = 6\nvariants = standard\nopening = random:5\n"
             "[agent ab1]\nspec = ab:depth=1\n", db);
    char *changed = write_in(dir, "changed.ini", text);
    const char *check[] = {"study", changed, "--check", NULL};
    cr_expect_eq(yinsh_run(dir, check, NULL, &err), 1, "%s", err);
    cr_expect(strstr(err, "opens its games"), "%s", err);
    /* a bad opening names its line */
    snprintf(text, sizeof text,
             "[study]\nname = o\ndb = %s\nseed = 7\ngames = 6\nvariants = standard\n"
             "[agent ab1]\nspec = ab:depth=1\nopening = random:101\n", db);
    char *bad = write_in(dir, "bad.ini", text);
    const char *badrun[] = {"study", bad, NULL};
    cr_expect_eq(yinsh_run(dir, badrun, NULL, &err), 2, "%s", err);
    cr_expect(strstr(err, "bad.ini:9"), "%s", err);
}

/* One game's actions with their searched figures, as text. */
static const char *game_text(sqlite3 *h, const char *run, int idx)
{
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT group_concat(t, ' ') FROM (SELECT a.action || ':' || coalesce(a.root_visits, '-') || ':' || "
             "coalesce(a.chosen_visits, '-') || ':' || coalesce(a.value, '-') AS t FROM action a JOIN game g ON "
             "g.id = a.game_id JOIN run ON run.id = g.run_id WHERE run.name = '%s' AND g.idx = %d ORDER BY a.ply)",
             run, idx);
    return db_text(h, sql);
}

/* In a +swap variant Black's first action decides the swap. From random:2
 * the random opening takes it; from pie:4 the agents place the first ring
 * and answer it themselves (searched), four random actions follow, and
 * the rest is theirs again, and a deterministic agent's first two actions,
 * found once and replayed in the other games of a process, are those a
 * game searched alone finds. */
Test(openings, pie_leaves_the_first_ring_and_the_swap_to_the_agents)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "o.db"), *alone = path_in(dir, "alone.db"), *err;
    cr_assert_eq(yinsh_run(dir, ARGS("selfplay", "--games", "12", "--variant", "standard+swap", "--agent",
                                     "ab:depth=2", "--seed", "4", "--db", db, "--run", "r2", "--opening",
                                     "random:2", "--threads", "1", "--quiet"),
                           NULL, &err),
                 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, ARGS("selfplay", "--games", "12", "--variant", "standard+swap", "--agent",
                                     "ab:depth=2", "--seed", "4", "--db", db, "--run", "pie", "--opening", "pie:4",
                                     "--threads", "1", "--quiet"),
                           NULL, &err),
                 0, "%s", err);
    sqlite3 *h = db_open(db);
    const char *searched = "SELECT count(*) FROM action a JOIN game g ON g.id = a.game_id JOIN run ON run.id = "
                           "g.run_id WHERE run.name = '%s' AND a.ply = %d AND a.root_visits IS NOT NULL";
    char sql[512];
    snprintf(sql, sizeof sql, searched, "r2", 1);
    cr_expect_eq(db_int(h, sql), 0, "from random:2 the swap decision is the opening's, not the agent's");
    int want[7] = {12, 12, 0, 0, 0, 0, 12};
    for (int ply = 0; ply < 7; ply++) {
        snprintf(sql, sizeof sql, searched, "pie", ply);
        cr_expect_eq(db_int(h, sql), want[ply], "ply %d: %lld searched", ply, db_int(h, sql));
    }
    cr_expect_eq(distinct_games(h, "pie"), 12);
    cr_expect_str_eq(db_text(h, "SELECT opening FROM run WHERE name = 'pie'"), "pie:4");
    cr_expect_eq(db_int(h, "SELECT count(DISTINCT a.action) FROM action a JOIN game g ON g.id = a.game_id JOIN run "
                           "ON run.id = g.run_id WHERE run.name = 'pie' AND a.ply = 1"),
                 1, "one deterministic agent answers one first ring alike");
    /* game 7 played alone, in a process of its own, searches its first two
     * actions: the same game, figure for figure */
    cr_assert_eq(yinsh_run(dir, ARGS("selfplay", "--games", "12", "--variant", "standard+swap", "--agent",
                                     "ab:depth=2", "--seed", "4", "--db", alone, "--run", "pie", "--opening", "pie:4",
                                     "--threads", "1", "--shard", "8/12", "--quiet"),
                           NULL, &err),
                 0, "%s", err);
    sqlite3 *a = db_open(alone);
    cr_expect_str_eq(game_text(a, "pie", 7), game_text(h, "pie", 7));
    cr_expect_str_eq(db_text(a, "SELECT plan_ident FROM run"), db_text(h, "SELECT plan_ident FROM run WHERE name = 'pie'"));
    sqlite3_close(a);
    sqlite3_close(h);
    /* K from 1 */
    cr_expect_eq(yinsh_run(dir, ARGS("selfplay", "--games", "2", "--agent", "random", "--opening", "pie:0", "--no-db"),
                           NULL, &err),
                 2, "%s", err);
    cr_expect(strstr(err, "pie:K"), "%s", err);
}
