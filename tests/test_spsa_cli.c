#define _GNU_SOURCE /* nftw */
/* `yinsh spsa` as a process: killed with -9 and run again, it ends with the
 * path and the games of a run never stopped; run again when complete, it
 * plays nothing and says the same; mistakes on the command line are
 * usage errors that leave nothing behind. */
#include <criterion/criterion.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "tests/test_proc.h"

#define AGENT "mcts:sims=150,rollout=4"

static char *all_games(const char *db)
{
    sqlite3 *h = db_open(db);
    char *s = db_text(h, "SELECT coalesce(group_concat(line, char(10)), '') FROM (SELECT r.name || ' ' || g.idx || ' "
                         "' || g.white || ' ' || g.black || ' ' || g.result || ' ' || g.actions || ' ' || g.seed AS "
                         "line FROM game g JOIN run r ON r.id = g.run_id ORDER BY r.name, g.idx)");
    sqlite3_close(h);
    return s;
}

Test(spsa_cli, kill_9_and_run_again_equals_uninterrupted)
{
    char *dir = tmpdir_new(), *k = path_in(dir, "k.db"), *kcsv = path_in(dir, "k.csv"), *full = path_in(dir, "f.db"),
         *fcsv = path_in(dir, "f.csv"), *err;
    const char *args[] = {"spsa", "--agent", AGENT, "--param", "c=1.0:0.2:3.0", "--param", "rollout=4:0:10",
                          "--iterations", "10", "--pairs", "2", "--seed", "11", "--c", "0.2", "--a", "0.1",
                          "--threads", "2", "--db", k, "--out", kcsv, "--quiet", NULL};
    pid_t pid = yinsh_start(dir, args);
    long long stored = games_awaited(k, 10, 60);
    cr_assert_geq(stored, 10, "no games stored");
    kill(pid, SIGKILL);
    cr_assert_eq(yinsh_wait(pid), 128 + SIGKILL);
    stored = games_in(k);
    cr_assert_lt(stored, 40, "the run finished before the kill: make it longer");

    char *out1;
    cr_assert_eq(yinsh_run(dir, args, &out1, &err), 0, "%s", err);
    const char *whole[] = {"spsa", "--agent", AGENT, "--param", "c=1.0:0.2:3.0", "--param", "rollout=4:0:10",
                           "--iterations", "10", "--pairs", "2", "--seed", "11", "--c", "0.2", "--a", "0.1",
                           "--threads", "1", "--db", full, "--out", fcsv, "--quiet", NULL};
    char *out2;
    cr_assert_eq(yinsh_run(dir, whole, &out2, &err), 0, "%s", err);
    char *pk = slurp(kcsv), *pf = slurp(fcsv);
    cr_assert(strlen(pf) > 0);
    cr_assert_str_eq(pk, pf);
    /* the printed result names the path file, which differs: compare the rest */
    char *p1 = strstr(out1, "\npath "), *p2 = strstr(out2, "\npath ");
    cr_assert(p1 && p2, "%s\n%s", out1, out2);
    cr_assert_eq(p1 - out1, p2 - out2);
    cr_assert_eq(strncmp(out1, out2, (size_t)(p1 - out1)), 0, "%s\n%s", out1, out2);
    char *ga = all_games(k), *gf = all_games(full);
    cr_assert_str_eq(ga, gf);
    cr_assert_eq(games_in(k), 40);
    /* a header, 10 iterations, the final point */
    int lines = 0;
    for (const char *c = pk; *c; c++) lines += *c == '\n';
    cr_expect_eq(lines, 12, "%s", pk);

    /* complete: plays nothing, prints the same */
    char *out3;
    cr_assert_eq(yinsh_run(dir, args, &out3, &err), 0, "%s", err);
    cr_assert_str_eq(out3, out1);
    cr_assert_eq(games_in(k), 40);
    cr_assert_str_eq(slurp(kcsv), pk);
}

Test(spsa_cli, another_plan_under_the_name_is_refused)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "s.db"), *csv = path_in(dir, "s.csv"), *out, *err;
    const char *a[] = {"spsa", "--agent", "ab:depth=1", "--param", "depth=2:1:3", "--iterations", "2", "--db", db,
                       "--out", csv, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, a, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "agent        ab:depth="), "%s", out);
    const char *b[] = {"spsa", "--agent", "ab:depth=1", "--param", "depth=2:1:3", "--iterations", "2", "--db", db,
                       "--out", csv, "--seed", "5", "--quiet", NULL};
    cr_assert_neq(yinsh_run(dir, b, &out, &err), 0);
    cr_assert(strstr(err, "spsa.0/plus-vs-minus"), "%s", err);
}

Test(spsa_cli, bad_command_lines)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "never.db"), *csv = path_in(dir, "never.csv");
    struct {
        const char *args[16];
        const char *word;
    } cases[] = {
        {{"spsa", "--param", "c=1:0:2", "--iterations", "2", "--out", csv, "--db", db, NULL}, "--agent"},
        {{"spsa", "--agent", "mcts", "--param", "c=1:0:2", "--out", csv, "--db", db, NULL}, "--iterations"},
        {{"spsa", "--agent", "mcts", "--param", "c=1:0:2", "--iterations", "2", "--db", db, NULL}, "--out"},
        {{"spsa", "--agent", "mcts", "--iterations", "2", "--out", csv, "--db", db, NULL}, "--param"},
        {{"spsa", "--agent", "mcts", "--param", "c=1:2", "--iterations", "2", "--out", csv, "--db", db, NULL},
         "c=1:2"},
        {{"spsa", "--agent", "mcts", "--param", "q=1:0:2", "--iterations", "2", "--out", csv, "--db", db, NULL},
         "'q'"},
        {{"spsa", "--agent", "random", "--param", "c=1:0:2", "--iterations", "2", "--out", csv, "--db", db, NULL},
         "random"},
        {{"spsa", "--agent", "mcts", "--param", "c=1:0:2", "--iterations", "0", "--out", csv, "--db", db, NULL},
         "--iterations"},
        {{"spsa", "--agent", "mcts", "--param", "c=1:0:2", "--iterations", "2", "--out", csv, "--db", db, "--c",
          "0.9", NULL},
         "gain c"},
        {{"spsa", "--agent", "mcts", "--param", "c=1:0:2", "--iterations", "2", "--out", csv, "--db", db, "--name",
          "a/b", NULL},
         "a/b"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *out, *err;
        cr_expect_eq(yinsh_run(dir, cases[i].args, &out, &err), 2, "case %zu: %s", i, err);
        cr_expect(strstr(err, cases[i].word), "case %zu: '%s' does not name %s", i, err, cases[i].word);
    }
    cr_expect_not(file_exists(db));
    cr_expect_not(file_exists(csv));
}

Test(spsa_cli, evaluation_weights_by_name)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "w.db"), *csv = path_in(dir, "w.csv"), *out, *err, *out2;
    const char *a[] = {"spsa", "--agent", "ab:depth=1", "--param", "w.markers=0.05:0.0:0.3", "--param",
                       "w.lines4=0.25:0.0:0.5", "--iterations", "3", "--db", db, "--out", csv, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, a, &out, &err), 0, "%s", err);
    char *weights = path_in(dir, "w.csv.weights/spsa.2.minus.txt"), *final = path_in(dir, "w.csv.weights/final.txt");
    cr_assert(file_nonempty(weights));
    cr_assert(file_nonempty(final));
    cr_assert(strstr(slurp(final), "markers "));
    cr_assert(strstr(out, "eval="), "%s", out);
    char *path = slurp(csv);
    /* again: the same files, the same runs (their weights' hashes checked) */
    cr_assert_eq(yinsh_run(dir, a, &out2, &err), 0, "%s", err);
    cr_assert_str_eq(out2, out);
    cr_assert_str_eq(slurp(csv), path);
    const char *bad[] = {"spsa", "--agent", "mcts", "--param", "w.markers=0.05:0.0:0.3", "--iterations", "3", "--db",
                         db, "--out", csv, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, bad, &out, &err), 2);
    cr_assert(strstr(err, "no evaluation"), "%s", err);
}

/* Without --db the iterations go to the default database, yinsh.db in
 * the working folder, made as `yinsh selfplay` and `yinsh tournament`
 * make it: in an empty folder the loop plays and stores. */
Test(spsa_cli, default_database_in_an_empty_folder)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *args[] = {"spsa", "--agent", "ab:depth=1", "--param", "depth=1:1:2", "--iterations", "1",
                          "--out", "p.csv", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
    char *db = path_in(dir, "yinsh.db");
    cr_assert(file_nonempty(db), "no default database: %s", err);
    sqlite3 *h = db_open(db);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game g JOIN run r ON r.id = g.run_id "
                           "WHERE r.name = 'spsa.0/plus-vs-minus' AND r.finished_at IS NOT NULL"), 2);
    sqlite3_close(h);
    cr_assert(file_nonempty(path_in(dir, "p.csv")));
    cr_assert(strstr(out, "path         p.csv\n"), "%s", out);
}
