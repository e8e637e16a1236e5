#define _GNU_SOURCE /* nftw, in test_proc.h */
/* `yinsh study` as a process: a study run twice plays nothing the second
 * time; a study killed with -9 (or stopped by ctrl-c) and run again ends
 * with the database of one never stopped; the stored command reproduces a
 * run; a build of a changed work tree refused unless told; an older
 * database upgraded; check and shards (a shard's share, merged shards
 * equal the whole); the repository's studies keep the names, seeds,
 * agents and games of the scripts they replaced; two at once meet the
 * lease. */
#include <fcntl.h>
#include <signal.h>
#include "selfplay/play/provenance.h"
#include "selfplay/store/store.h"
#include "tests/study_helpers.h"

Test(study, second_time_plays_nothing)
{
    char *dir = tmpdir_new(), *file = write_in(dir, "small.ini", SMALL), *db = path_in(dir, "s.db"), *out, *err;
    /* a run that is not the study's stays out of its report */
    const char *other[] = {"selfplay", "--games", "3", "--agent", "random", "--seed", "1", "--run", "other",
                           "--db", "s.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, other, NULL, &err), 0, "%s", err);

    const char *args[] = {"study", file, "--threads", "2", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "# YINSH balance report"), "%s", out);
    char *md = slurp(path_in(dir, "report/report.md"));
    cr_assert_str_eq(md, out);
    cr_assert(strstr(md, "yinsh study"), "%s", md);
    cr_assert(!strstr(md, "`other`"), "the report counts a run that is not the study's:\n%s", md);
    cr_assert(!file_exists(path_in(dir, "report/strength.png")), "plots = no drew pictures");
    cr_assert(strstr(err, "4 runs into s.db: 0 complete, 0 unfinished, 4 to play"), "%s", err);

    sqlite3 *h = db_open(db);
    cr_assert_str_eq(db_text(h, "SELECT group_concat(name || ' ' || variant || ' ' || seed || ' ' || games || ' ' ||"
                                " white, ', ') FROM (SELECT * FROM run WHERE name != 'other' ORDER BY id)"),
                     "small-standard-random standard 40 6 random, small-blitz-random blitz 41 6 random, "
                     "small-standard-s20 standard 42 4 mcts:sims=20,c=1,rollout=random, "
                     "small-blitz-s20 blitz 43 4 mcts:sims=20,c=1,rollout=random");
    cr_assert_eq(db_int(h, "SELECT count(*) FROM run WHERE finished_at IS NULL"), 0);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game"), 3 + 20);
    /* each run keeps the selfplay command that makes it by itself */
    cr_assert_str_eq(db_text(h, "SELECT command FROM run WHERE name = 'small-blitz-s20'"),
                     "yinsh selfplay --games 4 --variant blitz --agent mcts:sims=20 --seed 43 --run small-blitz-s20 "
                     "--db s.db");
    sqlite3_close(h);

    /* the second time: nothing to play, the database as it was */
    char *dump = db_dump(db), *out2, *err2;
    cr_assert_eq(yinsh_run(dir, args, &out2, &err2), 0, "%s", err2);
    cr_assert(strstr(err2, "4 complete, 0 unfinished, 0 to play"), "%s", err2);
    const char *runs[] = {"small-standard-random", "small-blitz-random", "small-standard-s20", "small-blitz-s20"};
    for (int i = 0; i < 4; i++) {
        char line[128];
        snprintf(line, sizeof line, "run %s is already complete", runs[i]);
        cr_assert(strstr(err2, line), "no '%s' in:\n%s", line, err2);
    }
    cr_assert(!strstr(err2, "to play)"), "a run was opened:\n%s", err2);
    cr_assert_str_eq(db_dump(db), dump);
    cr_assert_str_eq(out2, out);

    /* --check lists the runs and their states and plays nothing */
    const char *check[] = {"study", file, "--check", NULL};
    char *out3;
    cr_assert_eq(yinsh_run(dir, check, &out3, &err), 0, "%s", err);
    cr_assert(strstr(out3, "small-blitz-s20"), "%s", out3);
    cr_assert(strstr(out3, "complete"), "%s", out3);
    cr_assert(!strstr(out3, "missing"), "%s", out3);
}

/* A database of schema version 3 (before the weights' hashes, the
 * leases) is upgraded in place, then read: its complete runs stay complete. */
/* ---- who plays a study ---------------------------------------------------- */

Test(study, which_builds_are_committed_code)
{
    cr_expect(provenance_committed("9ae7967c6a22"));
    cr_expect(!provenance_committed("9ae7967c6a22-dirty"));
    cr_expect(!provenance_committed("unknown"));
    cr_expect(!provenance_committed(""));
    /* a run's list of builds: each once, in order, a full list marked */
    char list[STORE_COMMITS_LEN] = "";
    cr_expect(store_commits_add(list, sizeof list, "aaa"));
    cr_expect(!store_commits_add(list, sizeof list, "aaa"));
    cr_expect(store_commits_add(list, sizeof list, "aaa-dirty"));
    cr_expect(!store_commits_add(list, sizeof list, ""));
    cr_expect_str_eq(list, "aaa, aaa-dirty");
    char small[24] = "aaa, bbb";
    cr_expect(store_commits_add(small, sizeof small, "ccc"));
    cr_expect_str_eq(small, "aaa, bbb, ccc");
    cr_expect(store_commits_add(small, sizeof small, "dddddddd"));
    cr_expect_str_eq(small, "aaa, bbb, ccc, ...");
    cr_expect(!store_commits_add(small, sizeof small, "e"));
}

/* Runs yinsh_dirty (the same objects as yinsh, its commit made up:
 * 0123456789ab-dirty) in dir, with YINSH_ALLOW_DIRTY as env says (NULL:
 * unset); *err receives its standard error. */
static int dirty_run(const char *dir, const char *env, const char *const *args, char **err)
{
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        int fo = open(path_in(dir, "out"), O_WRONLY | O_CREAT | O_TRUNC, 0644),
            fe = open(path_in(dir, "err"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fo, 1);
        dup2(fe, 2);
        if (chdir(dir) != 0) _exit(126);
        if (env) setenv("YINSH_ALLOW_DIRTY", env, 1);
        else unsetenv("YINSH_ALLOW_DIRTY");
        const char *argv[32];
        int n = 0;
        argv[n++] = YINSH_DIRTY_BIN;
        for (int i = 0; args[i] && n < 31; i++) argv[n++] = args[i];
        argv[n] = NULL;
        execv(YINSH_DIRTY_BIN, (char **)argv);
        _exit(127);
    }
    int rc = yinsh_wait(pid);
    *err = slurp(path_in(dir, "err"));
    return rc;
}

Test(study, a_build_of_a_changed_tree_is_refused_unless_told)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "s.db"), *err;
    write_in(dir, "small.ini", SMALL);
    /* refused before anything is stored, naming the build and the way on */
    cr_assert_eq(dirty_run(dir, NULL, ARGS("study", "small.ini", "--quiet"), &err), 1, "%s", err);
    cr_assert(strstr(err, "yinsh study: this yinsh was built from a work tree with changes not committed (commit "
                          "0123456789ab-dirty), and 4 runs of study small would be played by it"), "%s", err);
    cr_assert(strstr(err, "--allow-dirty") && strstr(err, "Nothing was stored"), "%s", err);
    cr_assert(!file_exists(db), "the refused study made its database");
    /* YINSH_ALLOW_DIRTY other than 1 tells it nothing */
    cr_assert_eq(dirty_run(dir, "yes", ARGS("study", "small.ini", "--quiet"), &err), 1, "%s", err);
    /* --check plays nothing: nothing to refuse */
    cr_assert_eq(dirty_run(dir, NULL, ARGS("study", "small.ini", "--check"), &err), 0, "%s", err);

    /* told: it plays, and every run names the build */
    cr_assert_eq(dirty_run(dir, NULL, ARGS("study", "small.ini", "--quiet", "--allow-dirty"), &err), 0, "%s", err);
    cr_assert(strstr(err, "playing anyway, as told"), "%s", err);
    sqlite3 *h = db_open(db);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM run WHERE git_commit = '0123456789ab-dirty'"), 4);
    sqlite3_close(h);
    char *md = slurp(path_in(dir, "report/report.md"));
    cr_assert(strstr(md, "**4 of 4 runs were played in part by a build of code not committed**"), "%s", md);
    cr_assert(strstr(md, "`0123456789ab-dirty`"), "%s", md);
    /* every run complete: the report alone is written, nothing refused */
    cr_assert_eq(dirty_run(dir, NULL, ARGS("study", "small.ini", "--quiet"), &err), 0, "%s", err);

    /* the environment tells it as the flag does; a run resumed by another
     * build names both, in order, as does a merge of shards played by two */
    char *d2 = tmpdir_new(), *out;
    write_in(d2, "small.ini", SMALL);
    cr_assert_eq(dirty_run(d2, "1", ARGS("study", "small.ini", "--quiet", "--shard", "1/2", "--db", "a.db"), &err), 0,
                 "%s", err);
    cr_assert_eq(yinsh_run(d2, ARGS("study", "small.ini", "--quiet", "--shard", "2/2", "--db", "b.db"), &out, &err), 0,
                 "%s", err);
    char both[STORE_COMMITS_LEN], sql[512];
    snprintf(both, sizeof both, "0123456789ab-dirty, %s", YINSH_GIT_COMMIT);
    cr_assert_eq(yinsh_run(d2, ARGS("merge", "--db", "m.db", "a.db", "b.db"), &out, &err), 0, "%s", err);
    h = db_open(path_in(d2, "m.db"));
    snprintf(sql, sizeof sql, "SELECT count(*) FROM run WHERE git_commit = '%s'", both);
    cr_assert_eq(db_int(h, sql), 4, "%s", db_text(h, "SELECT group_concat(git_commit, ' | ') FROM run"));
    sqlite3_close(h);
    /* shard 2 resumed in shard 1's database by this build */
    cr_assert_eq(yinsh_run(d2, ARGS("study", "small.ini", "--quiet", "--shard", "2/2", "--db", "a.db"), &out, &err),
                 0, "%s", err);
    h = db_open(path_in(d2, "a.db"));
    cr_assert_eq(db_int(h, sql), 4, "%s", db_text(h, "SELECT group_concat(git_commit, ' | ') FROM run"));
    sqlite3_close(h);
}

Test(study, an_older_database_is_upgraded_then_read)
{
    char *dir = tmpdir_new(), *file = write_in(dir, "small.ini", SMALL), *db = path_in(dir, "s.db"), *err;
    const char *args[] = {"study", file, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(db);
    cr_assert_eq(sqlite3_exec(h, "DROP VIEW run_summary; DROP VIEW game_score; DROP INDEX run_by_plan; "
                                 "DROP INDEX game_by_ident; ALTER TABLE run DROP COLUMN plan_ident; "
                                 "ALTER TABLE run DROP COLUMN repeat_of; ALTER TABLE run DROP COLUMN git_commit; "
                                 "ALTER TABLE run DROP COLUMN compiler; ALTER TABLE run DROP COLUMN machine; "
                                 "ALTER TABLE game DROP COLUMN ident; ALTER TABLE game DROP COLUMN repeat; "
                                 "ALTER TABLE run DROP COLUMN white_weights; ALTER TABLE run DROP COLUMN black_weights;"
                                 " DROP TABLE lease; ALTER TABLE run DROP COLUMN controls; "
                                 "ALTER TABLE action DROP COLUMN clock_us; DROP TABLE action_visits; ALTER TABLE run DROP COLUMN visits; "
                                 "ALTER TABLE action DROP COLUMN full; "
                                 "ALTER TABLE action DROP COLUMN root_value; PRAGMA user_version = 3;", NULL, NULL, NULL), SQLITE_OK,
                 "%s", sqlite3_errmsg(h));
    sqlite3_close(h);
    char *out;
    const char *check[] = {"study", file, "--check", NULL};
    cr_assert_eq(yinsh_run(dir, check, &out, &err), 0, "%s", err);
    cr_assert(!strstr(out, "missing") && !strstr(out, "unfinished"), "%s", out);
    h = db_open(db);
    cr_assert_eq(db_int(h, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
    sqlite3_close(h);
}

/* Long enough to be killed in the middle: the random runs take no time,
 * the 200-simulation runs a second or more each on two threads. */
static const char KILLED[] = "[study]\n"
                             "name = k\n"
                             "db = k.db\n"
                             "seed = 900\n"
                             "variants = blitz standard\n"
                             "[agent random]\n"
                             "spec = random\n"
                             "games = 10\n"
                             "[agent s200]\n"
                             "spec = mcts:sims=200\n"
                             "games = 16\n"
                             "[report]\n"
                             "out = report\n"
                             "plots = no\n";
enum { KILLED_GAMES = 2 * 10 + 2 * 16 };

/* Starts the study and stops it with sig once the first MCTS games are
 * stored; returns the exit status. */
static int stop_midway(const char *dir, const char *file, int sig)
{
    const char *args[] = {"study", file, "--threads", "2", "--quiet", NULL};
    pid_t pid = yinsh_start(dir, args);
    char *db = path_in(dir, "k.db");
    long long stored = games_awaited(db, 21, 30);
    cr_assert_gt(stored, 20, "no MCTS game stored");
    kill(pid, sig);
    int rc = yinsh_wait(pid);
    stored = games_in(db);
    cr_assert_lt(stored, KILLED_GAMES, "the study finished before it was stopped: make it longer");
    return rc;
}

Test(study, killed_and_run_again_equals_never_stopped)
{
    char *dir = tmpdir_new(), *file = write_in(dir, "k.ini", KILLED), *err, *out;
    cr_assert_eq(stop_midway(dir, file, SIGKILL), 128 + SIGKILL);

    /* the first runs are complete, an MCTS run is unfinished (or, if the
     * kill fell between two runs, missing) */
    const char *check[] = {"study", file, "--check", NULL};
    cr_assert_eq(yinsh_run(dir, check, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "k-blitz-random"), "%s", out);
    cr_assert(strstr(out, "unfinished") || strstr(out, "missing"), "%s", out);

    const char *again[] = {"study", file, "--threads", "1", NULL};
    cr_assert_eq(yinsh_run(dir, again, &out, &err), 0, "%s", err);
    cr_assert(strstr(err, "run k-blitz-random is already complete"), "%s", err);
    cr_assert(strstr(err, "run k-standard-random is already complete"), "%s", err);

    /* the same study never stopped, in another folder */
    char *whole = tmpdir_new(), *wfile = write_in(whole, "k.ini", KILLED), *wout;
    const char *args[] = {"study", wfile, "--threads", "2", "--quiet", NULL};
    cr_assert_eq(yinsh_run(whole, args, &wout, &err), 0, "%s", err);
    char *dk = db_dump(path_in(dir, "k.db")), *dw = db_dump(path_in(whole, "k.db"));
    cr_assert(strlen(dk) > 5000);
    cr_assert_str_eq(dk, dw);
    sqlite3 *h = db_open(path_in(dir, "k.db"));
    cr_assert_str_eq(db_text(h, "PRAGMA integrity_check"), "ok");
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game"), KILLED_GAMES);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM run WHERE finished_at IS NOT NULL"), 4);
    sqlite3_close(h);
    /* the reports agree but for the command line that made them */
    cr_assert_str_eq(after_line(out, "Made by"), after_line(slurp(path_in(whole, "report/report.md")), "Made by"));
}

Test(study, ctrl_c_stops_and_says_how_to_go_on)
{
    char *dir = tmpdir_new(), *file = write_in(dir, "k.ini", KILLED), *err;
    cr_assert_eq(stop_midway(dir, file, SIGINT), 130);
    err = slurp(path_in(dir, "err"));
    cr_assert(strstr(err, "picks up where the study stopped"), "%s", err);
    const char *again[] = {"study", file, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, again, NULL, &err), 0, "%s", err);
    cr_assert_eq(games_in(path_in(dir, "k.db")), KILLED_GAMES);
}

/* A study run's stored command, run by itself, plays the same games. */
Test(study, stored_command_reproduces_the_run)
{
    char *dir = tmpdir_new(), *file = write_in(dir, "small.ini", SMALL), *err;
    const char *args[] = {"study", file, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(path_in(dir, "s.db"));
    char *command = db_text(h, "SELECT command FROM run WHERE name = 'small-standard-s20'");
    sqlite3_close(h);
    char *other = tmpdir_new(), shell[1024];
    cr_assert(!strncmp(command, "yinsh ", 6));
    snprintf(shell, sizeof shell, "cd '%s' && '%s' %s --quiet >/dev/null", other, YINSH_BIN, command + 6);
    cr_assert_eq(system(shell), 0, "%s", shell);
    const char *q = "SELECT group_concat(g.idx || g.result || g.reason || (SELECT group_concat(action, ' ') FROM "
                    "(SELECT action FROM action WHERE game_id = g.id ORDER BY ply)), char(10)) FROM game g JOIN run r "
                    "ON g.run_id = r.id WHERE r.name = 'small-standard-s20' ORDER BY g.idx";
    sqlite3 *a = db_open(path_in(dir, "s.db")), *b = db_open(path_in(other, "s.db"));
    char *ga = db_text(a, q), *gb = db_text(b, q);
    sqlite3_close(a);
    sqlite3_close(b);
    cr_assert(strlen(ga) > 100);
    cr_assert_str_eq(ga, gb);
}

/* A study played as shards (`--shard K/N --db`), each into its own
 * database, then merged: the study finds every run complete, plays
 * nothing, and its games and figures are those of the study played
 * whole; a shard writes no report, and its options are checked. */
static const char LADDER[] = "[study]\nname = small\ndb = s.db\nseed = 40\ngames = 6\nvariants = standard, blitz\n"
                             "opening = random:4\n[agent random]\nspec = random\n[agent s20]\nspec = mcts:sims=20\n"
                             "games = 4\n[ladder]\nlevels = random, s20\ngames = 4\n[report]\nout = report\n"
                             "plots = no\n";

static char *games_of(const char *db)
{
    sqlite3 *h = db_open(db);
    char *s = db_text(h, "SELECT group_concat(line, char(10)) FROM (SELECT r.name || ' ' || g.idx || ' ' || g.result ||"
                         " ' ' || (SELECT group_concat(action, ' ') FROM (SELECT action FROM action WHERE game_id = g.id"
                         " ORDER BY ply)) AS line FROM game g JOIN run r ON r.id = g.run_id ORDER BY r.name, g.idx)");
    sqlite3_close(h);
    return s;
}

/* The text with every run of spaces one space: --check's rows, whatever
 * their columns' widths. */
static char *squeezed(const char *text)
{
    char *s = strdup(text), *w = s;
    cr_assert(s);
    for (const char *r = text; *r; r++)
        if (*r != ' ' || w == s || w[-1] != ' ') *w++ = *r;
    *w = '\0';
    return s;
}

/* --check counts each run's stored games: after one shard of two is
 * merged, every run holds its half (a match's by pairs), unfinished. */
Test(study, check_counts_the_games_stored)
{
    char *dir = tmpdir_new(), *file = write_in(dir, "s.ini", LADDER), *err, *out;
    const char *shard[] = {"study", file, "--shard", "1/2", "--db", "sh1.db", "--threads", "1", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, shard, NULL, &err), 0, "%s", err);
    const char *merge[] = {"merge", "--db", "s.db", "sh1.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, merge, NULL, &err), 0, "%s", err);
    const char *check[] = {"study", file, "--check", NULL};
    cr_assert_eq(yinsh_run(dir, check, &out, &err), 0, "%s", err);
    out = squeezed(out);
    /* games 0, 2, 4 of 6; 0, 2 of 4; a match's pairs 0 (games 0 and 1) of 2 */
    const char *rows[] = {"small-standard-random standard unfinished 3/6 40 random\n",
                          "small-blitz-random blitz unfinished 3/6 41 random\n",
                          "small-standard-s20 standard unfinished 2/4 42 mcts:sims=20\n",
                          "small-blitz-s20 blitz unfinished 2/4 43 mcts:sims=20\n",
                          /* a match's seed is drawn from the study's */
                          "small-standard-s20-vs-random standard unfinished 2/4 ",
                          "small-blitz-s20-vs-random blitz unfinished 2/4 "};
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) cr_expect(strstr(out, rows[i]), "no '%s' in:\n%s", rows[i], out);
    cr_assert(strstr(out, "run variant state games seed agent\n"), "%s", out);

    /* the study played to the end: every run complete, all its games */
    const char *study[] = {"study", file, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, study, NULL, &err), 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, check, &out, &err), 0, "%s", err);
    out = squeezed(out);
    cr_expect(strstr(out, "small-blitz-random blitz complete 6/6 41 random\n"), "%s", out);
    cr_expect(strstr(out, "small-blitz-s20-vs-random blitz complete 4/4 "), "%s", out);
}

/* --check with --shard counts a shard's own share: a shard is complete
 * in its database when it holds every game of its slice (a study across
 * sessions finds which shards are done by it), and the total line says
 * how far the whole has come. */
Test(study, check_counts_a_shards_share)
{
    char *dir = tmpdir_new(), *file = write_in(dir, "s.ini", LADDER), *err, *out;
    const char *check[] = {"study", file, "--shard", "2/3", "--db", "sh2.db", "--check", NULL};
    cr_assert_eq(yinsh_run(dir, check, &out, &err), 0, "%s", err);
    out = squeezed(out);
    /* before: games 1 and 4 of 6, 1 of 4, a match's pair 1 (games 2 and 3) of 2 */
    cr_expect(strstr(out, "small-standard-random standard missing 0/2 40 random\n"), "%s", out);
    cr_expect(strstr(out, "small-blitz-s20 blitz missing 0/1 43 mcts:sims=20\n"), "%s", out);
    cr_expect(strstr(out, "small-blitz-s20-vs-random blitz missing 0/2 "), "%s", out);
    cr_expect(strstr(out, "shard 2/3: 0 of 6 runs complete, 0/10 games\n"), "%s", out);
    const char *shard[] = {"study", file, "--shard", "2/3", "--db", "sh2.db", "--threads", "1", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, shard, NULL, &err), 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, check, &out, &err), 0, "%s", err);
    out = squeezed(out);
    cr_expect(strstr(out, "small-standard-random standard complete 2/2 40 random\n"), "%s", out);
    cr_expect(strstr(out, "small-blitz-s20 blitz complete 1/1 43 mcts:sims=20\n"), "%s", out);
    cr_expect(strstr(out, "small-blitz-s20-vs-random blitz complete 2/2 "), "%s", out);
    cr_expect(strstr(out, "shard 2/3: 6 of 6 runs complete, 10/10 games\n"), "%s", out);
    /* the whole study: the shard's games of 28, no run complete */
    const char *whole[] = {"merge", "--db", "s.db", "sh2.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, whole, NULL, &err), 0, "%s", err);
    const char *all[] = {"study", file, "--check", NULL};
    cr_assert_eq(yinsh_run(dir, all, &out, &err), 0, "%s", err);
    cr_expect(strstr(out, "study small: 0 of 6 runs complete, 10/28 games\n"), "%s", out);
}

Test(study, shards_merged_equal_the_whole)
{
    char *dir = tmpdir_new(), *file = write_in(dir, "s.ini", LADDER), *err, *out;
    char *shards[3];
    for (int k = 1; k <= 3; k++) {
        char slice[8], name[16];
        snprintf(slice, sizeof slice, "%d/3", k);
        snprintf(name, sizeof name, "sh%d.db", k);
        const char *args[] = {"study", file, "--shard", slice, "--db", name, "--threads", "1", NULL};
        cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
        cr_assert_str_eq(out, "", "a shard wrote a report: %s", out);
        cr_assert(strstr(err, "the shard of run small-blitz-s20-vs-random complete"), "%s", err);
        cr_assert(strstr(err, "yinsh merge --db s.db SHARD.db"), "%s", err);
        shards[k - 1] = path_in(dir, name);
    }
    cr_assert_not(file_exists(path_in(dir, "report/report.md")), "a shard wrote the report");
    cr_assert_not(file_exists(path_in(dir, "s.db")), "a shard wrote the study's database");
    /* a shard again resumes it: nothing to play */
    const char *again[] = {"study", file, "--shard", "2/3", "--db", "sh2.db", "--quiet", NULL};
    char *before = games_of(shards[1]);
    cr_assert_eq(yinsh_run(dir, again, NULL, &err), 0, "%s", err);
    cr_assert_str_eq(games_of(shards[1]), before);
    sqlite3 *h = db_open(shards[1]);
    cr_assert_str_eq(db_text(h, "SELECT command FROM run WHERE name = 'small-standard-s20'"),
                     "yinsh selfplay --games 4 --variant standard --agent mcts:sims=20 --seed 42 --run "
                     "small-standard-s20 --db sh2.db --opening random:4 --shard 2/3");
    cr_assert_eq(db_int(h, "SELECT count(*) FROM run WHERE finished_at IS NOT NULL"), 0);
    sqlite3_close(h);

    const char *merge[] = {"merge", "--db", "s.db", shards[0], shards[1], shards[2], "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, merge, NULL, &err), 0, "%s", err);
    const char *study[] = {"study", file, NULL};
    cr_assert_eq(yinsh_run(dir, study, &out, &err), 0, "%s", err);
    cr_assert(strstr(err, "6 complete, 0 unfinished, 0 to play"), "%s", err);

    char *whole = tmpdir_new(), *wfile = write_in(whole, "s.ini", LADDER), *wout;
    const char *args[] = {"study", wfile, "--quiet", NULL};
    cr_assert_eq(yinsh_run(whole, args, &wout, &err), 0, "%s", err);
    char *gw = games_of(path_in(whole, "s.db"));
    cr_assert(strlen(gw) > 1000);
    cr_assert_str_eq(games_of(path_in(dir, "s.db")), gw);
    cr_assert_str_eq(figures(out), figures(slurp(path_in(whole, "report/report.md"))));
    cr_assert_str_eq(wout, "");

    /* the options */
    const char *no_db[] = {"study", file, "--shard", "1/3", NULL};
    cr_assert_eq(yinsh_run(dir, no_db, NULL, &err), 2);
    cr_assert(strstr(err, "give it with --db"), "%s", err);
    const char *db_alone[] = {"study", file, "--db", "x.db", NULL};
    cr_assert_eq(yinsh_run(dir, db_alone, NULL, &err), 2);
    cr_assert(strstr(err, "with --shard K/N only"), "%s", err);
    const char *own[] = {"study", file, "--shard", "1/3", "--db", "s.db", NULL};
    cr_assert_eq(yinsh_run(dir, own, NULL, &err), 2);
    cr_assert(strstr(err, "is the study's database"), "%s", err);
    const char *bad[] = {"study", file, "--shard", "4/3", "--db", "x.db", NULL};
    cr_assert_eq(yinsh_run(dir, bad, NULL, &err), 2);
    cr_assert(strstr(err, "--shard wants K/N"), "%s", err);
    cr_assert_not(file_exists(path_in(dir, "x.db")));
}

/* The repository's studies keep the runs of the scripts they replaced
 * (scripts/experiment.sh: seed 1 + k, agents outside, variants inside;
 * scripts/balance.sh: its table), so their results stay reproducible. */
Test(study, repository_studies_keep_their_runs)
{
    char *dir = tmpdir_new(), *out, *err;
    cr_assert_eq(mkdir(path_in(dir, "results"), 0777), 0);
    const char *main_runs[][4] = {
        {"main-standard-random", "standard", "200", "1"}, {"main-blitz-random", "blitz", "200", "2"},
        {"main-standard-sims100", "standard", "200", "3"}, {"main-blitz-sims100", "blitz", "200", "4"},
        {"main-standard-sims300", "standard", "200", "5"}, {"main-blitz-sims300", "blitz", "200", "6"},
    };
    const char *main_agents[] = {"random", "random", "mcts:sims=100", "mcts:sims=100", "mcts:sims=300",
                                 "mcts:sims=300"};
    const char *args[] = {"study", YINSH_SOURCE_DIR "/studies/main.ini", "--check", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
    out = squeezed(out);
    for (int i = 0; i < 6; i++) {
        char line[256];
        snprintf(line, sizeof line, "%s %s missing 0/%s %s %s\n", main_runs[i][0], main_runs[i][1], main_runs[i][2],
                 main_runs[i][3], main_agents[i]);
        cr_assert(strstr(out, line), "no '%s' in:\n%s", line, out);
    }

    static const char *const balance[] = {
        "balance-standard-random standard random 2000 5101",
        "balance-blitz-random blitz random 2000 5102",
        "balance-standard-sims50 standard mcts:sims=50 800 5103",
        "balance-blitz-sims50 blitz mcts:sims=50 800 5104",
        "balance-standard-sims200 standard mcts:sims=200 800 5105",
        "balance-blitz-sims200 blitz mcts:sims=200 800 5106",
        "balance-standard-sims600 standard mcts:sims=600 1600 5107",
        "balance-blitz-sims600 blitz mcts:sims=600 1600 5108",
        "balance-standard-sims1000 standard mcts:sims=1000 1600 5109",
        "balance-blitz-sims1000 blitz mcts:sims=1000 1600 5110",
    };
    const char *bargs[] = {"study", YINSH_SOURCE_DIR "/studies/balance.ini", "--check", NULL};
    cr_assert_eq(yinsh_run(dir, bargs, &out, &err), 0, "%s", err);
    out = squeezed(out);
    for (int i = 0; i < 10; i++) {
        char name[64], variant[16], agent[32], games[16], seed[16], line[256];
        cr_assert_eq(sscanf(balance[i], "%63s %15s %31s %15s %15s", name, variant, agent, games, seed), 5);
        snprintf(line, sizeof line, "%s %s missing 0/%s %s %s\n", name, variant, games, seed, agent);
        cr_assert(strstr(out, line), "no '%s' in:\n%s", line, out);
    }
    cr_assert(!file_exists(path_in(dir, "yinsh.db")), "--check made the database");
    cr_assert(!file_exists(path_in(dir, "results/balance.db")), "--check made the database");
}

/* The shipped weights are built into yinsh (issue #22): a study whose
 * spec names eval/weights/tuned3.txt plays in a folder that has the file
 * and finds its stored runs, by their content hash, from a folder that
 * has not (the built-in copy). */
Test(study, shipped_weights_find_the_stored_runs_from_any_folder)
{
    char *a = tmpdir_new(), *b = tmpdir_new(), *err, text[1024];
    char *db = path_in(a, "w.db");
    snprintf(text, sizeof text, "[study]\nname = w\ndb = %s\nseed = 7\ngames = 2\nvariants = blitz\nopening = random:4\n\n"
                                "[agent ab1]\nspec = ab:depth=1,eval=eval/weights/tuned3.txt\n", db);
    /* folder a: a real eval/weights/tuned3.txt, the source tree's */
    char *ev = path_in(a, "eval"), *wd = path_in(ev, "weights");
    cr_assert(mkdir(ev, 0777) == 0 && mkdir(wd, 0777) == 0);
    write_in(wd, "tuned3.txt", slurp(YINSH_SOURCE_DIR "/eval/weights/tuned3.txt"));
    char *fa = write_in(a, "w.ini", text), *fb = write_in(b, "w.ini", text);
    const char *first[] = {"study", fa, "--quiet", NULL};
    cr_assert_eq(yinsh_run(a, first, NULL, &err), 0, "%s", err);
    char *dump = db_dump(db);
    const char *again[] = {"study", fb, NULL};
    cr_assert_eq(yinsh_run(b, again, NULL, &err), 0, "from a folder without eval/: %s", err);
    cr_assert(strstr(err, "1 complete, 0 unfinished, 0 to play"), "%s", err);
    cr_assert_str_eq(db_dump(db), dump);
}

/* Two `yinsh study FILE` started at once on a new database: both find
 * the run missing and one makes it first; the other meets the run that
 * the first plays and says so (its lease: "being played by process N"),
 * never that a run of that name "exists already, unfinished" (as if a
 * stale run stood in the way). Several rounds, for the race to happen. */
Test(study, two_at_once_meet_the_lease)
{
    int raced = 0;
    for (int round = 0; round < 3; round++) {
        /* one database, each process in a folder of its own (its output, its report) */
        char *dir = tmpdir_new(), *db = path_in(dir, "s.db"), race[512];
        snprintf(race, sizeof race, "[study]\nname = t\ndb = %s\nseed = 7\ngames = 20\nvariants = standard\n"
                 "[agent m]\nspec = mcts:sims=30\n[report]\nout = report\nplots = no\n", db);
        char *file = write_in(dir, "t.ini", race);
        char *d1 = path_in(dir, "one"), *d2 = path_in(dir, "two");
        cr_assert(mkdir(d1, 0755) == 0 && mkdir(d2, 0755) == 0);
        const char *args[] = {"study", file, "--threads", "1", "--quiet", NULL};
        pid_t a = yinsh_start(d1, args), b = yinsh_start(d2, args);
        int ra = yinsh_wait(a), rb = yinsh_wait(b);
        char *ea = slurp(path_in(d1, "err")), *eb = slurp(path_in(d2, "err"));
        cr_assert(ra == 0 || rb == 0, "neither played: %s / %s", ea, eb);
        for (int k = 0; k < 2; k++) {
            int rc = k ? rb : ra;
            const char *e = k ? eb : ea;
            cr_assert_not(strstr(e, "exists already"), "%s", e);
            if (rc) {
                cr_assert_eq(rc, 1, "%s", e);
                cr_assert(strstr(e, "run 't-standard-m' is being played by process "), "%s", e);
                raced++;
            }
        }
        sqlite3 *h = db_open(db);
        cr_assert_eq(db_int(h, "SELECT count(*) FROM run WHERE finished_at IS NOT NULL"), 1);
        cr_assert_eq(db_int(h, "SELECT count(*) FROM game"), 20);
        sqlite3_close(h);
    }
    cr_log_info("%d of 3 rounds raced", raced);
}
