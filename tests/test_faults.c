#define _GNU_SOURCE /* nftw, in test_proc.h */
/* The fault suite: races, leases, tampered rows, files left as they were,
 * weights files, write errors and quoting, each run as a hostile or
 * careless user would and asserting the behaviour its name says. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tests/test_proc.h"


/* ---- concurrent first use of a new database ------------------------------ */

/* Eight processes create runs in one new database at once, twenty times
 * over: each must succeed (the schema check reads one snapshot, the WAL
 * switch waits for the creator). Before the fix about 3% of launches
 * failed, so 160 launches all but never passed. */
/* In the child: waits until the gate (a pipe) closes, so that all the
 * processes of a round start at the same moment. */
static void wait_at_gate(void *ctx)
{
    int *gate = ctx;
    char c;
    close(gate[1]);
    while (read(gate[0], &c, 1) > 0) {}
}

Test(faults, concurrent_first_use_of_a_new_database)
{
    enum { ROUNDS = 40, PROCS = 8 };
    char *top = tmpdir_new();
    char *dirs[PROCS];
    for (int i = 0; i < PROCS; i++) dirs[i] = tmpdir_new();
    int failed = 0;
    char first[1024] = "";
    for (int round = 0; round < ROUNDS; round++) {
        char name[32];
        snprintf(name, sizeof name, "race%d.db", round);
        char *db = path_in(top, name);
        pid_t pids[PROCS];
        int gate[2];
        cr_assert_eq(pipe(gate), 0);
        for (int i = 0; i < PROCS; i++) {
            char run[16], seed[16];
            snprintf(run, sizeof run, "R%d", i);
            snprintf(seed, sizeof seed, "%d", i + 1);
            const char *args[] = {"selfplay", "--db", db, "--run", gc(strdup(run)), "--games", "1", "--agent",
                                  "random", "--seed", gc(strdup(seed)), "--quiet", NULL};
            pids[i] = yinsh_spawn(dirs[i], "/dev/null", NULL, wait_at_gate, gate, args);
        }
        close(gate[0]);
        close(gate[1]);
        for (int i = 0, rc; i < PROCS; i++)
            if ((rc = yinsh_wait(pids[i])) != 0 && failed++ == 0)
                snprintf(first, sizeof first, "round %d process %d: exit %d: %s", round, i, rc,
                         slurp(path_in(dirs[i], "err")));
    }
    cr_assert_eq(failed, 0, "%d of %d launches failed; the first: %s", failed, ROUNDS * PROCS, first);
}

/* ---- a run played by two processes --------------------------------------- */

/* A second process that resumes a run being played is told who holds it
 * and changes nothing; once the holder is gone (killed), --resume takes
 * the run over and finishes it. */
Test(faults, a_run_in_play_is_held_until_its_process_is_gone)
{
    char *dir = tmpdir_new(), *other = tmpdir_new(), *db = path_in(dir, "l.db");
    const char *play[] = {"selfplay", "--games", "400", "--agent", "mcts:sims=200", "--seed", "3", "--db", db,
                          "--run", "long", "--threads", "1", "--quiet", NULL};
    pid_t pid = yinsh_start(dir, play);
    db_wait_for_lease(db); /* the run exists and is in play */
    const char *resume[] = {"selfplay", "--resume", "long", "--db", db, "--quiet", NULL};
    char *err;
    int rc = yinsh_run(other, resume, NULL, &err);
    cr_assert_eq(rc, 1, "a second process resumed a run in play: exit %d (%s)", rc, err);
    char pidtext[32];
    snprintf(pidtext, sizeof pidtext, "process %d", (int)pid);
    cr_assert(strstr(err, "being played") && strstr(err, pidtext), "%s", err);
    kill(pid, SIGKILL);
    yinsh_wait(pid);
    /* the holder is gone: the lease is taken over (fewer games: a shorter wait) */
    sqlite3 *h = db_open(db);
    sqlite3_exec(h, "UPDATE run SET games = (SELECT count(*) FROM game) + 2", NULL, NULL, NULL);
    sqlite3_close(h);
    rc = yinsh_run(other, resume, NULL, &err);
    cr_assert_eq(rc, 0, "%s", err);
    h = db_open(db);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM run WHERE finished_at IS NOT NULL"), 1);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM lease"), 0, "the lease is given back");
    sqlite3_close(h);
}

/* A lease held on another host cannot be checked from here: refused, and
 * --take-over takes it. */
Test(faults, a_lease_from_another_host_is_taken_over_only_when_asked)
{
    char *dir = tmpdir_new(), *db = random_db(dir, "h.db", "r", "2");
    sqlite3 *h = db_open(db);
    sqlite3_exec(h, "UPDATE run SET games = 4, finished_at = NULL; INSERT INTO lease VALUES ((SELECT id FROM run), "
                    "'elsewhere.example', 4242, 1, 'then')", NULL, NULL, NULL);
    sqlite3_close(h);
    const char *resume[] = {"selfplay", "--resume", "r", "--db", db, "--quiet", NULL};
    expect_exit(dir, resume, 1, "elsewhere.example");
    const char *take[] = {"selfplay", "--resume", "r", "--db", db, "--take-over", "--quiet", NULL};
    char *err;
    cr_assert_eq(yinsh_run(dir, take, NULL, &err), 0, "%s", err);
    h = db_open(db);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game"), 4);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM lease"), 0);
    sqlite3_close(h);
}

/* ---- what is read must be what it says ----------------------------------- */

Test(faults, numbers_and_paths_read_are_checked)
{
    char *dir = tmpdir_new(), *db = random_db(dir, "t.db", "r", "3");
    /* a tab before -1 is not a seed */
    const char *tab[] = {"randgame", "--seed", "\t-1", NULL};
    expect_exit(dir, tab, 2, "--seed");
    /* an empty --db */
    const char *empty_db[] = {"selfplay", "--games", "1", "--db", "", NULL};
    expect_exit(dir, empty_db, 2, "--db wants a path");
    const char *empty_db2[] = {"report", "--db", "", NULL};
    expect_exit(dir, empty_db2, 2, "--db wants a path");
    /* a tampered size is refused, not played */
    sqlite3 *h = db_open(db);
    sqlite3_exec(h, "UPDATE run SET games = -1, finished_at = NULL", NULL, NULL, NULL);
    sqlite3_close(h);
    const char *resume[] = {"selfplay", "--resume", "r", "--db", db, "--quiet", NULL};
    expect_exit(dir, resume, 1, "altered");
    /* OMP_NUM_THREADS far beyond any machine: the default is capped */
    setenv("OMP_NUM_THREADS", "100000", 1);
    const char *many[] = {"selfplay", "--games", "2", "--agent", "random", "--no-db", "--quiet", NULL};
    char *err;
    int rc = yinsh_run(dir, many, NULL, &err);
    unsetenv("OMP_NUM_THREADS");
    cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
}

Test(faults, failed_commands_leave_the_database_as_it_was)
{
    char *dir = tmpdir_new();
    /* a rollback-journal database: a failed --resume must not make it WAL */
    char *db = random_db(dir, "j.db", "r", "2");
    sqlite3 *h = db_open(db);
    cr_assert_str_eq(db_text(h, "PRAGMA journal_mode=DELETE"), "delete");
    sqlite3_close(h);
    char *before = slurp(db);
    struct stat a, b;
    cr_assert_eq(stat(db, &a), 0);
    const char *resume[] = {"selfplay", "--resume", "nosuch", "--db", db, "--quiet", NULL};
    expect_exit(dir, resume, 1, "nosuch");
    cr_assert_eq(stat(db, &b), 0);
    cr_assert_eq(a.st_size, b.st_size);
    cr_assert_eq(memcmp(before, slurp(db), (size_t)a.st_size), 0, "the file changed");
    cr_assert_not(file_exists(path_in(dir, "j.db-wal")));
    h = db_open(db);
    cr_assert_str_eq(db_text(h, "PRAGMA journal_mode"), "delete");
    sqlite3_close(h);

    /* tune on a 0-byte file: refused, and the file stays empty */
    char *zero = path_in(dir, "zero.db");
    fclose(fopen(zero, "w"));
    const char *tune[] = {"tune", "--db", zero, "--out", "w.txt", NULL};
    expect_exit(dir, tune, 1, "empty");
    cr_assert_not(file_nonempty(zero));
    cr_assert_not(file_exists(path_in(dir, "w.txt")));

    /* report refuses a newer schema, as every other command does */
    char *newer = path_in(dir, "newer.db");
    h = db_open(newer);
    sqlite3_exec(h, "CREATE TABLE run (x); PRAGMA user_version = 99", NULL, NULL, NULL);
    sqlite3_close(h);
    const char *report[] = {"report", "--db", newer, "--out", path_in(dir, "rep"), NULL};
    expect_exit(dir, report, 1, "newer");
}

/* ---- a weights file is the content it had -------------------------------- */

Test(faults, a_resumed_run_refuses_changed_weights)
{
    char *dir = tmpdir_new(), *w = path_in(dir, "w.txt"), *db = path_in(dir, "w.db");
    FILE *f = fopen(w, "w");
    fprintf(f, "markers 0.07\n");
    fclose(f);
    char spec[600];
    snprintf(spec, sizeof spec, "mcts:sims=20,rollout=2,eval=%s", w);
    const char *play[] = {"selfplay", "--games", "300", "--agent", spec, "--seed", "1", "--db", db, "--run", "e",
                          "--quiet", NULL};
    pid_t pid = yinsh_start(dir, play);
    db_wait_for_lease(db);
    usleep(300000);
    kill(pid, SIGKILL);
    yinsh_wait(pid);
    /* the file changes: the run cannot go on with other weights */
    f = fopen(w, "w");
    fprintf(f, "markers 0.08\n");
    fclose(f);
    const char *resume[] = {"selfplay", "--resume", "e", "--db", db, "--quiet", NULL};
    expect_exit(dir, resume, 1, "not the one the run was played with");
    /* restored, it goes on */
    f = fopen(w, "w");
    fprintf(f, "markers 0.07\n");
    fclose(f);
    sqlite3 *h = db_open(db);
    sqlite3_exec(h, "UPDATE run SET games = (SELECT count(*) FROM game) + 1", NULL, NULL, NULL);
    cr_assert_eq(db_int(h, "SELECT length(white_weights) FROM run"), 16);
    sqlite3_close(h);
    char *err;
    cr_assert_eq(yinsh_run(dir, resume, NULL, &err), 0, "%s", err);
}

/* ---- weights files ------------------------------------------------------- */

Test(faults, weights_files_read_back_and_bad_ones_are_refused)
{
    char *dir = tmpdir_new(), *db = random_db(dir, "t.db", "r", "40");
    char *w = path_in(dir, "w.txt");
    /* tune's own header with a long command line reads back (a line of
     * over 255 bytes was split, and the rest read as a bad line) */
    char longrun[400];
    memset(longrun, 'x', 300);
    longrun[300] = '\0';
    sqlite3 *h = db_open(db);
    char sql[600];
    snprintf(sql, sizeof sql, "UPDATE run SET name = '%s'", longrun);
    sqlite3_exec(h, sql, NULL, NULL, NULL);
    sqlite3_close(h);
    const char *tune[] = {"tune", "--db", db, "--runs", longrun, "--out", w, "--quiet", NULL};
    char *err;
    cr_assert_eq(yinsh_run(dir, tune, NULL, &err), 0, "%s", err);
    const char *from[] = {"tune", "--db", db, "--from", w, "--out", path_in(dir, "w2.txt"), "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, from, NULL, &err), 0, "%s", err);
    char spec[600];
    snprintf(spec, sizeof spec, "mcts:sims=5,rollout=1,eval=%s", w);
    const char *use[] = {"selfplay", "--games", "1", "--agent", spec, "--no-db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, use, NULL, &err), 0, "%s", err);
    /* a directory is not a weights file */
    snprintf(spec, sizeof spec, "mcts:sims=5,rollout=1,eval=%s", dir);
    const char *isdir[] = {"selfplay", "--games", "1", "--agent", spec, "--no-db", "--quiet", NULL};
    expect_exit(dir, isdir, 1, "directory");
    /* absurd weights are refused when read */
    FILE *f = fopen(w, "w");
    fprintf(f, "markers 1e308\n");
    fclose(f);
    snprintf(spec, sizeof spec, "mcts:sims=5,rollout=1,eval=%s", w);
    const char *absurd[] = {"selfplay", "--games", "1", "--agent", spec, "--no-db", "--quiet", NULL};
    expect_exit(dir, absurd, 1, "1e308");
}

/* ---- write errors on output ---------------------------------------------- */

/* Runs yinsh with stdout on /dev/full: it must fail, naming the output. */
static void expect_full(const char *dir, const char *const *args)
{
    int rc = yinsh_wait(yinsh_spawn(dir, "/dev/full", NULL, NULL, NULL, args));
    char *err = slurp(path_in(dir, "err"));
    cr_assert_eq(rc, 1, "%s > /dev/full: exit %d (%s)", args[0], rc, err);
    cr_assert(strstr(err, "cannot write the output"), "%s: %s", args[0], err);
}

Test(faults, a_failed_write_of_the_output_is_an_error)
{
    char *dir = tmpdir_new(), *db = random_db(dir, "t.db", "r", "6");
    const char *start = "4/7/8/9/10/9/10/9/8/7/4 w P standard";
    const char *legal[] = {"legal", start, NULL};
    const char *apply[] = {"apply", start, "e5", NULL};
    const char *randgame[] = {"randgame", "--seed", "1", NULL};
    const char *perft[] = {"perft", "2", NULL};
    const char *selfplay[] = {"selfplay", "--games", "2", "--agent", "random", "--no-db", "--quiet", NULL};
    const char *report[] = {"report", "--db", db, "--out", path_in(dir, "rep"), "--no-plots", NULL};
    const char *help[] = {"selfplay", "--help", NULL};
    expect_full(dir, legal);
    expect_full(dir, apply);
    expect_full(dir, randgame);
    expect_full(dir, perft);
    expect_full(dir, selfplay);
    expect_full(dir, report);
    expect_full(dir, help);
    /* replay reads a record from a file */
    char *rec = path_in(dir, "g.txt");
    FILE *f = fopen(rec, "w");
    fprintf(f, "%s\ne5 e6\n", start);
    fclose(f);
    const char *replay[] = {"replay", rec, NULL};
    expect_full(dir, replay);
}

/* In the child: files can grow to 1500 bytes, and a write past that fails
 * (EFBIG) as on a full disk instead of killing the process. */
static void limit_files(void *ctx)
{
    (void)ctx;
    struct rlimit rl = {1500, 1500};
    setrlimit(RLIMIT_FSIZE, &rl);
    signal(SIGXFSZ, SIG_IGN);
}

/* A report that cannot be written whole (files limited to 1500 bytes, as a
 * full disk would cut them) leaves its folder as it was: no partial
 * report.md, no .dat, no staging folder. */
Test(faults, a_report_on_a_full_disk_leaves_its_folder_as_it_was)
{
    char *dir = tmpdir_new(), *db = random_db(dir, "t.db", "r", "20"), *out = path_in(dir, "rep");
    mkdir(out, 0777);
    /* a rollback journal: reading it writes nothing (WAL would need a -shm
     * file, which the limit would stop before the report is reached) */
    sqlite3 *h = db_open(db);
    cr_assert_str_eq(db_text(h, "PRAGMA journal_mode=DELETE"), "delete");
    sqlite3_close(h);
    const char *args[] = {"report", "--db", db, "--out", out, "--no-plots", NULL};
    int rc = yinsh_wait(yinsh_spawn(dir, "/dev/null", NULL, limit_files, NULL, args));
    char *err = slurp(path_in(dir, "err"));
    cr_assert_eq(rc, 1, "exit %d: %s", rc, err);
    DIR *d = opendir(out);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) files++;
    closedir(d);
    cr_assert_eq(files, 0, "the report folder holds %d entries after a failed report (%s)", files, err);
}

/* ---- run names and commands in reports ----------------------------------- */

/* Splits a stored command the way sh does (eval) and returns the words
 * joined by newlines. */
static char *shell_words(const char *dir, const char *command)
{
    char *script = path_in(dir, "words.sh");
    FILE *f = fopen(script, "w");
    fprintf(f, "eval \"set -- $1\"\nfor w; do printf '%%s\\n' \"$w\"; done\n");
    fclose(f);
    char *out = path_in(dir, "words.out");
    pid_t pid = fork();
    if (pid == 0) {
        int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fo, 1);
        execl("/bin/bash", "bash", script, command, (char *)NULL);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
    return slurp(out);
}

Test(faults, run_names_and_commands_are_quoted)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "q.db");
    const char *play[] = {"selfplay", "--games", "2", "--agent", "random", "--seed", "4", "--db", db, "--run",
                          "a|b c'd", "--quiet", NULL};
    char *err;
    cr_assert_eq(yinsh_run(dir, play, NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(db);
    char *command = db_text(h, "SELECT command FROM run");
    sqlite3_close(h);
    /* the stored command gives back the words as typed */
    char expect[1024];
    snprintf(expect, sizeof expect, "yinsh\nselfplay\n--games\n2\n--agent\nrandom\n--seed\n4\n--db\n%s\n--run\na|b c'd\n--quiet\n",
             db);
    cr_assert_str_eq(shell_words(dir, command), expect, "stored: %s", command);
    /* a control character is not part of a name */
    const char *newline[] = {"selfplay", "--games", "1", "--db", db, "--run", "x\ny", NULL};
    expect_exit(dir, newline, 2, "control");
    /* the report's Runs table keeps its shape: each row 8 cell borders */
    const char *report[] = {"report", "--db", db, "--out", path_in(dir, "rep"), "--no-plots", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, report, NULL, &err), 0, "%s", err);
    char *md = slurp(path_in(dir, "rep/report.md"));
    const char *runs = strstr(md, "## Runs");
    cr_assert(runs);
    const char *row = strstr(runs, "\n|---"); /* the separator under the header */
    cr_assert(row);
    row = strstr(row + 1, "\n| ");
    cr_assert(row);
    int borders = 0;
    for (const char *p = row + 1; *p && *p != '\n'; p++)
        if (*p == '|' && p[-1] != '\\') borders++;
    cr_assert_eq(borders, 8, "row: %.300s", row + 1);
}
