/* Helpers for the tests that run the yinsh binary and make databases in
 * temporary folders (test_selfplay_runs, test_match, test_tune, test_report_*):
 * one folder per test, so Criterion may run them in parallel; folders and
 * allocations go at exit (before LeakSanitizer looks: the handler is
 * registered after its own). YINSH_BIN is the binary's path. */
#ifndef YINSH_TEST_PROC_H
#define YINSH_TEST_PROC_H

#include <criterion/criterion.h>
#include <fcntl.h>
#include <ftw.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TEST_HELPER __attribute__((unused)) static

static void *proc_garbage[4096];
static int proc_ngarbage;
static char *proc_dirs[256];
static int proc_ndirs;

static int proc_remove(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void proc_cleanup(void)
{
    while (proc_ndirs) nftw(proc_dirs[--proc_ndirs], proc_remove, 16, FTW_DEPTH | FTW_PHYS);
    while (proc_ngarbage) free(proc_garbage[--proc_ngarbage]);
}

/* Keeps p to be freed at exit; returns it. */
TEST_HELPER void *gc(void *p)
{
    if (proc_ngarbage == 0 && proc_ndirs == 0) atexit(proc_cleanup);
    cr_assert(proc_ngarbage < 4096);
    proc_garbage[proc_ngarbage++] = p;
    return p;
}

/* A new temporary folder, removed with its contents at exit. */
TEST_HELPER char *tmpdir_new(void)
{
    char *d = gc(strdup("/tmp/yinsh-test-XXXXXX"));
    cr_assert(mkdtemp(d), "mkdtemp");
    cr_assert(proc_ndirs < 256);
    proc_dirs[proc_ndirs++] = d;
    return d;
}

TEST_HELPER char *path_in(const char *dir, const char *name)
{
    char *p = gc(malloc(strlen(dir) + strlen(name) + 2));
    sprintf(p, "%s/%s", dir, name);
    return p;
}

/* Writes text to dir/name; returns the path. */
TEST_HELPER char *write_in(const char *dir, const char *name, const char *text)
{
    char *p = path_in(dir, name);
    FILE *f = fopen(p, "w");
    cr_assert(f, "cannot write %s", p);
    fputs(text, f);
    fclose(f);
    return p;
}

/* A file's contents ("" when it cannot be read). */
TEST_HELPER char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return gc(strdup(""));
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = gc(malloc((size_t)n + 1));
    size_t got = fread(s, 1, (size_t)n, f);
    s[got] = '\0';
    fclose(f);
    return s;
}

TEST_HELPER bool file_exists(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0;
}

TEST_HELPER bool file_nonempty(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && sb.st_size > 0;
}

/* Starts `yinsh ARGS...` (NULL-terminated) in dir, stdout going to out
 * (NULL: dir/out) and stderr to dir/err; with path_env, PATH is set to it
 * in the child; `before`, if not NULL, runs in the child just before the
 * exec (a start gate, a resource limit). */
TEST_HELPER pid_t yinsh_spawn(const char *dir, const char *out, const char *path_env, void (*before)(void *),
                              void *ctx, const char *const *args)
{
    char *o = out ? (char *)out : path_in(dir, "out"), *e = path_in(dir, "err");
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        if (before) before(ctx);
        int fo = open(o, O_WRONLY | O_CREAT | O_TRUNC, 0644), fe = open(e, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fo, 1);
        dup2(fe, 2);
        if (chdir(dir) != 0) _exit(126);
        if (path_env) setenv("PATH", path_env, 1);
        /* the suite's studies are played by the build it tests, committed or not */
        setenv("YINSH_ALLOW_DIRTY", "1", 1);
        const char *argv[64];
        int n = 0;
        argv[n++] = YINSH_BIN;
        for (int i = 0; args[i]; i++) argv[n++] = args[i];
        argv[n] = NULL;
        execv(YINSH_BIN, (char **)argv);
        _exit(127);
    }
    return pid;
}

TEST_HELPER pid_t yinsh_start_env(const char *dir, const char *path_env, const char *const *args)
{
    return yinsh_spawn(dir, NULL, path_env, NULL, NULL, args);
}

TEST_HELPER pid_t yinsh_start(const char *dir, const char *const *args)
{
    return yinsh_start_env(dir, NULL, args);
}

/* The exit status (128 + signal when killed). */
TEST_HELPER int yinsh_wait(pid_t pid)
{
    int st;
    cr_assert(waitpid(pid, &st, 0) == pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* A command line as yinsh_run takes it: ARGS("report", "--db", db). */
#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Runs yinsh to the end; *out and *err (if not NULL) receive its output. */
TEST_HELPER int yinsh_run_env(const char *dir, const char *path_env, const char *const *args, char **out, char **err)
{
    int rc = yinsh_wait(yinsh_start_env(dir, path_env, args));
    if (out) *out = slurp(path_in(dir, "out"));
    if (err) *err = slurp(path_in(dir, "err"));
    return rc;
}

TEST_HELPER int yinsh_run(const char *dir, const char *const *args, char **out, char **err)
{
    return yinsh_run_env(dir, NULL, args, out, err);
}

/* The output after the line that starts with prefix (the line naming the
 * run differs between runs that are otherwise the same). */
TEST_HELPER const char *after_line(const char *s, const char *prefix)
{
    const char *p = strstr(s, prefix);
    if (!p) return s;
    const char *nl = strchr(p, '\n');
    return nl ? nl + 1 : s;
}

TEST_HELPER sqlite3 *db_open(const char *path)
{
    sqlite3 *db;
    cr_assert(sqlite3_open(path, &db) == SQLITE_OK, "open %s", path);
    sqlite3_busy_timeout(db, 5000);
    return db;
}

/* The first column of the first row of a query that must return one. */
static sqlite3_stmt *db_row(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    cr_assert(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(db));
    cr_assert(sqlite3_step(st) == SQLITE_ROW, "%s: no row", sql);
    return st;
}

TEST_HELPER long long db_int(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = db_row(db, sql);
    long long v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* A database of a few seeded games in dir (t.db), stored by the binary:
 * 4 games of mcts:sims=20, seed 11, run "small". */
TEST_HELPER const char *small_games_db(const char *dir)
{
    const char *args[] = {"selfplay", "--games", "4", "--agent", "mcts:sims=20", "--seed", "11", "--db", "t.db",
                          "--run", "small", "--quiet", "--threads", "1", NULL};
    char *out, *errs;
    cr_assert_eq(yinsh_run(dir, args, &out, &errs), 0, "%s", errs);
    return path_in(dir, "t.db");
}

/* Waits, up to 30 s, until a process playing into db holds its run's
 * lease (the run exists and games are under way): a fixed sleep before a
 * kill is not enough on a loaded machine or under a sanitizer. */
TEST_HELPER void db_wait_for_lease(const char *db)
{
    for (int i = 0; i < 1500; i++) {
        struct stat sb;
        if (stat(db, &sb) == 0 && sb.st_size > 0) {
            sqlite3 *h = db_open(db);
            sqlite3_stmt *st;
            bool ready = sqlite3_prepare_v2(h, "SELECT count(*) FROM lease", -1, &st, NULL) == SQLITE_OK &&
                         sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 1;
            sqlite3_finalize(st);
            sqlite3_close(h);
            if (ready) return;
        }
        usleep(20000);
    }
    cr_assert_fail("no process took the lease of a run in %s within 30 s", db);
}

TEST_HELPER double db_double(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = db_row(db, sql);
    double v = sqlite3_column_double(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* Games stored so far in a database another process may be writing (0
 * while it has none): for tests that kill a run midway. */
TEST_HELPER long long games_in(const char *path)
{
    sqlite3 *db;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return 0;
    }
    sqlite3_busy_timeout(db, 1000);
    sqlite3_stmt *st;
    long long n = 0;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM game", -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return n;
}

/* Waits (polling every 2 ms, at most timeout_s) until the database at
 * path holds at least n games; returns how many it holds then (fewer
 * than n after the timeout), for the tests that stop a run midway. */
TEST_HELPER long long games_awaited(const char *path, long long n, double timeout_s)
{
    long long stored = games_in(path);
    for (long i = 0; stored < n && i < (long)(timeout_s * 500); i++) {
        usleep(2000);
        stored = games_in(path);
    }
    return stored;
}

TEST_HELPER char *db_text(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = db_row(db, sql);
    const unsigned char *t = sqlite3_column_text(st, 0);
    char *v = gc(strdup(t ? (const char *)t : ""));
    sqlite3_finalize(st);
    return v;
}

/* A small finished run of random games at dir/name (random agents, seed
 * 5, run `run`, `games` games): the database most command tests read. */
TEST_HELPER char *random_db(const char *dir, const char *name, const char *run, const char *games)
{
    char *db = path_in(dir, name), *err;
    const char *args[] = {"selfplay", "--games", games, "--agent", "random", "--seed", "5", "--db", db, "--run", run,
                          "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    return db;
}

/* Runs yinsh, expecting exit status rc and, if word is not NULL, word in
 * its stderr; returns stderr. */
TEST_HELPER char *expect_exit(const char *dir, const char *const *args, int rc, const char *word)
{
    char *out, *err;
    int got = yinsh_run(dir, args, &out, &err);
    (void)out; /* not in the message: Criterion reads a message's '%' again (the rounds' "95% CI") */
    cr_assert_eq(got, rc, "%s %s: exit %d, not %d (%s)", args[0], args[1] ? args[1] : "", got, rc, err);
    if (word) cr_assert(strstr(err, word), "%s: '%s' does not say '%s'", args[0], err, word);
    return err;
}

/* Whether the file at path is still an SQLite database. */
TEST_HELPER bool is_sqlite(const char *path) { return !strncmp(slurp(path), "SQLite format 3", 15); }

#ifdef YINSH_SOURCE_DIR
TEST_HELPER const char *default_weights(void) { return YINSH_SOURCE_DIR "/eval/weights/default.txt"; }
#endif

#endif
