/* Output paths (engine/base/file.h): an output is never also an input,
 * and a path that is not a regular file is never replaced by one: a
 * link's file is replaced and the link stays, a FIFO or a device is
 * written through, "-" and /dev/stdout stream; a command stopped by a
 * signal leaves no partial copy behind. Through the yinsh binary and the
 * library (include/yinsh.h). */
#define _GNU_SOURCE /* nftw, in test_proc.h */
#include <errno.h>
#include <signal.h>
#include <sys/sysmacros.h>
#include <yinsh.h>
#include "tests/test_proc.h"

/* What `yinsh positions --format F` writes into a file of dir. */
static char *positions_file(const char *dir, const char *format)
{
    const char *args[] = {"positions", "--db", "t.db", "--out", "plain.out", "--format", format, "--quiet", NULL};
    char *out, *errs;
    cr_assert_eq(yinsh_run(dir, args, &out, &errs), 0, "%s", errs);
    return slurp(path_in(dir, "plain.out"));
}

TEST_HELPER bool is_link(const char *path)
{
    struct stat sb;
    return lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode);
}

/* No PATH.*.tmp sibling left in dir. */
static void no_sibling_in(const char *dir)
{
    char *ls = gc(malloc(strlen(dir) + 64));
    sprintf(ls, "ls -a %s | grep -c '\\.tmp$'", dir);
    FILE *p = popen(ls, "r");
    int n = -1;
    cr_assert(p && fscanf(p, "%d", &n) == 1);
    pclose(p);
    cr_expect_eq(n, 0, "%d partial copies left in %s", n, dir);
}

Test(outputs, the_library_never_exports_over_its_database)
{
    char *dir = tmpdir_new(), err[YINSH_ERR_LEN];
    const char *path = small_games_db(dir);
    char *before = slurp(path);
    struct stat sb;
    cr_assert(stat(path, &sb) == 0);
    off_t size = sb.st_size;
    cr_assert(symlink("t.db", path_in(dir, "link.db")) == 0);
    yinsh_db *db;
    cr_assert_eq(yinsh_db_open(&db, path, err), YINSH_OK, "%s", err);
    /* the database by its name, by another spelling, through a link, and its journal */
    const char *spellings[] = {path, path_in(dir, "./t.db"), path_in(dir, "link.db"), path_in(dir, "t.db-wal")};
    for (size_t i = 0; i < sizeof spellings / sizeof *spellings; i++) {
        err[0] = '\0';
        cr_expect_eq(yinsh_export_positions(db, NULL, "ypn", YINSH_VIEW_ACTOR, spellings[i], NULL, NULL, err),
                     YINSH_ERR_USAGE, "%s", spellings[i]);
        cr_expect(strstr(err, "database") != NULL, "%s: message: %s", spellings[i], err);
    }
    /* still the database it was, and readable */
    cr_assert(stat(path, &sb) == 0);
    cr_expect_eq(sb.st_size, size);
    cr_expect(!memcmp(slurp(path), before, 16), "the database was overwritten");
    uint64_t positions = 0;
    cr_expect_eq(yinsh_export_positions(db, NULL, "ypn", YINSH_VIEW_ACTOR, path_in(dir, "ok.tsv"), &positions, NULL,
                                        err),
                 YINSH_OK, "%s", err);
    cr_expect_gt(positions, 0);
    yinsh_db_close(db);
    no_sibling_in(dir);
}

Test(outputs, a_link_is_followed_and_stays_a_link)
{
    char *dir = tmpdir_new();
    small_games_db(dir);
    char *want = positions_file(dir, "csv");
    write_in(dir, "target.csv", "old\n");
    cr_assert(symlink("target.csv", path_in(dir, "link.csv")) == 0);
    const char *args[] = {"positions", "--db", "t.db", "--out", "link.csv", "--format", "csv", "--quiet", NULL};
    char *out, *errs;
    cr_assert_eq(yinsh_run(dir, args, &out, &errs), 0, "%s", errs);
    cr_expect(is_link(path_in(dir, "link.csv")), "the link was replaced by a file");
    cr_expect_str_eq(slurp(path_in(dir, "target.csv")), want);
    /* a link to nothing is refused, saying so, and stays */
    cr_assert(symlink("missing/none.csv", path_in(dir, "dangling.csv")) == 0);
    const char *dangling[] = {"positions", "--db", "t.db", "--out", "dangling.csv", "--quiet", NULL};
    cr_expect_eq(yinsh_run(dir, dangling, &out, &errs), 1, "%s", errs);
    cr_expect(strstr(errs, "link") != NULL, "message: %s", errs);
    cr_expect(is_link(path_in(dir, "dangling.csv")));
    no_sibling_in(dir);
}

Test(outputs, a_fifo_is_written_through)
{
    char *dir = tmpdir_new();
    small_games_db(dir);
    char *want = positions_file(dir, "ypn");
    const char *fifo = path_in(dir, "fifo"), *got = path_in(dir, "got");
    cr_assert(mkfifo(fifo, 0600) == 0);
    pid_t reader = fork();
    cr_assert(reader >= 0);
    if (reader == 0) {
        alarm(60);
        execl("/bin/sh", "sh", "-c", "exec cat \"$0\" > \"$1\"", fifo, got, (char *)NULL);
        _exit(127);
    }
    const char *args[] = {"positions", "--db", "t.db", "--out", "fifo", "--quiet", NULL};
    char *out, *errs;
    cr_assert_eq(yinsh_run(dir, args, &out, &errs), 0, "%s", errs);
    int st;
    cr_assert(waitpid(reader, &st, 0) == reader && WIFEXITED(st) && WEXITSTATUS(st) == 0);
    struct stat sb;
    cr_assert(stat(fifo, &sb) == 0);
    cr_expect(S_ISFIFO(sb.st_mode), "the FIFO was replaced by a file");
    cr_expect_str_eq(slurp(got), want);
    /* the planes, whose header is written last, need a file: refused before the FIFO is opened */
    const char *planes[] = {"positions", "--db", "t.db", "--out", "fifo", "--format", "planes", "--quiet", NULL};
    reader = fork();
    if (reader == 0) {
        alarm(60);
        execl("/bin/sh", "sh", "-c", "exec cat \"$0\" > /dev/null", fifo, (char *)NULL);
        _exit(127);
    }
    cr_expect_eq(yinsh_run(dir, planes, &out, &errs), 2, "%s", errs);
    cr_expect(strstr(errs, "planes") != NULL, "message: %s", errs);
    kill(reader, SIGKILL);
    waitpid(reader, &st, 0);
    no_sibling_in(dir);
}

Test(outputs, standard_output_streams)
{
    char *dir = tmpdir_new();
    small_games_db(dir);
    char *want = positions_file(dir, "ypn");
    /* /dev/stdout's own link, made here: a yinsh that replaced it (as root)
     * would replace this one, never the system's */
    cr_assert(symlink("/proc/self/fd/1", path_in(dir, "stdout")) == 0);
    const char *names[] = {"-", "stdout", "/proc/self/fd/1"};
    for (int i = 0; i < 3; i++) {
        const char *args[] = {"positions", "--db", "t.db", "--out", names[i], NULL};
        char *out, *errs;
        cr_assert_eq(yinsh_run(dir, args, &out, &errs), 0, "%s: %s", names[i], errs);
        cr_expect_str_eq(out, want, "--out %s", names[i]);
        cr_expect(strstr(errs, "positions of") != NULL, "the summary goes to stderr: %s", errs);
    }
    cr_expect(is_link(path_in(dir, "stdout")), "the link to standard output was replaced");
    no_sibling_in(dir);
}

Test(outputs, a_device_is_written_through_never_replaced)
{
    char *dir = tmpdir_new();
    small_games_db(dir);
    /* as root, a device of our own (the null device's numbers): /dev/null
     * itself is not this test's to risk */
    const char *null = "/dev/null";
    if (geteuid() == 0) {
        null = path_in(dir, "null");
        cr_assert(mknod(null, S_IFCHR | 0666, makedev(1, 3)) == 0, "mknod: %s", strerror(errno));
    }
    const char *args[] = {"positions", "--db", "t.db", "--out", null, "--quiet", NULL};
    char *out, *errs;
    cr_assert_eq(yinsh_run(dir, args, &out, &errs), 0, "%s", errs);
    struct stat sb;
    cr_assert(stat(null, &sb) == 0);
    cr_expect(S_ISCHR(sb.st_mode), "%s was replaced by a file", null);
    /* a device that refuses the write: the error, and the device stays */
    const char *full = "/dev/full";
    if (geteuid() == 0) {
        full = path_in(dir, "full");
        cr_assert(mknod(full, S_IFCHR | 0666, makedev(1, 7)) == 0, "mknod: %s", strerror(errno));
    }
    const char *to_full[] = {"positions", "--db", "t.db", "--out", full, "--quiet", NULL};
    cr_expect_eq(yinsh_run(dir, to_full, &out, &errs), 1, "%s", errs);
    cr_expect(strstr(errs, "No space left") != NULL, "message: %s", errs);
    cr_assert(stat(full, &sb) == 0);
    cr_expect(S_ISCHR(sb.st_mode), "%s was replaced by a file", full);
    no_sibling_in(dir);
}

/* A tiny net's training (a few seconds): ARGS after the common ones. */
static int train(const char *dir, const char *out, const char *baseline, char **errs)
{
    const char *args[] = {"train", "--db", "t.db", "--out", out, "--epochs", "1", "--hidden", "16", "--threads", "1",
                          "--quiet", baseline ? "--baseline" : NULL, baseline, NULL};
    char *o;
    return yinsh_run(dir, args, &o, errs);
}

Test(outputs, train_never_writes_over_its_baseline)
{
    char *dir = tmpdir_new(), *errs;
    small_games_db(dir);
    char *weights = slurp(YINSH_SOURCE_DIR "/eval/weights/tuned3.txt");
    const char *base = write_in(dir, "base.txt", weights);
    cr_assert(symlink("base.txt", path_in(dir, "base-link.txt")) == 0);
    const char *outs[] = {"base.txt", "./base.txt", "base-link.txt"};
    for (int i = 0; i < 3; i++) {
        cr_expect_eq(train(dir, outs[i], "base.txt", &errs), 2, "--out %s: %s", outs[i], errs);
        cr_expect(strstr(errs, "--baseline") != NULL, "message: %s", errs);
    }
    cr_expect_str_eq(slurp(base), weights, "the baseline was overwritten");
    /* its checkpoint neither */
    cr_expect_eq(train(dir, "net", "net.ckpt", &errs), 2, "%s", errs);
}

Test(outputs, train_follows_a_link_and_streams)
{
    char *dir = tmpdir_new(), *errs;
    small_games_db(dir);
    write_in(dir, "target.nnue", "old");
    cr_assert(symlink("target.nnue", path_in(dir, "link.nnue")) == 0);
    cr_assert_eq(train(dir, "link.nnue", NULL, &errs), 0, "%s", errs);
    cr_expect(is_link(path_in(dir, "link.nnue")), "the link was replaced by a file");
    cr_assert_eq(train(dir, "plain.nnue", NULL, &errs), 0, "%s", errs);
    char *want = slurp(path_in(dir, "plain.nnue"));
    cr_expect_eq(memcmp(slurp(path_in(dir, "target.nnue")), want, 8), 0);
    /* to standard output: the net alone, its summary on stderr */
    const char *args[] = {"train", "--db", "t.db", "--out", "-", "--epochs", "1", "--hidden", "16", "--threads", "1",
                          "--quiet", NULL};
    char *out;
    cr_assert_eq(yinsh_run(dir, args, &out, &errs), 0, "%s", errs);
    cr_expect_eq(memcmp(out, want, 8), 0, "standard output holds no net");
    cr_expect(strstr(errs, "wrote -") != NULL, "the summary goes to stderr: %s", errs);
    cr_expect(!file_exists(path_in(dir, "-.ckpt")) && !file_exists(path_in(dir, "-")));
    no_sibling_in(dir);
}

/* A database of enough random games that `yinsh positions` takes about a
 * second to write them. */
static const char *big_db(const char *dir)
{
    const char *args[] = {"selfplay", "--games", "2000", "--agent", "random", "--seed", "1", "--db", "big.db",
                          "--quiet", "--threads", "2", NULL};
    char *out, *errs;
    cr_assert_eq(yinsh_run(dir, args, &out, &errs), 0, "%s", errs);
    return path_in(dir, "big.db");
}

Test(outputs, a_stopped_export_leaves_no_partial_copy, .timeout = 120)
{
    char *dir = tmpdir_new();
    big_db(dir);
    write_in(dir, "old.tsv", "old\n");
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 3; i++) {
        const char *args[] = {"positions", "--db", "big.db", "--out", "old.tsv", NULL};
        pid_t pid = yinsh_start(dir, args);
        /* its sibling old.tsv.PID.tmp appears once the writing begins */
        char *tmp = gc(malloc(strlen(dir) + 64));
        sprintf(tmp, "%s/old.tsv.%ld.tmp", dir, (long)pid);
        for (int k = 0; k < 20000 && !file_nonempty(tmp); k++) usleep(500);
        cr_assert(file_nonempty(tmp), "no sibling %s", tmp);
        kill(pid, sigs[i]);
        int rc = yinsh_wait(pid);
        cr_expect_eq(rc, 128 + sigs[i], "%s: exit %d: %s", strsignal(sigs[i]), rc, slurp(path_in(dir, "err")));
        cr_expect(!file_exists(tmp), "%s: %s left behind", strsignal(sigs[i]), tmp);
        cr_expect_str_eq(slurp(path_in(dir, "old.tsv")), "old\n");
        cr_expect(strstr(slurp(path_in(dir, "err")), "left as it was") != NULL, "%s",
                  slurp(path_in(dir, "err")));
    }
    no_sibling_in(dir);
}

/* ---- every command: an output path is never also an input ----------------- */

Test(outputs, spsa_refuses_a_path_that_is_its_database_or_weights)
{
    char *dir = tmpdir_new(), *db = random_db(dir, "x.db", "r", "2");
    const char *same[] = {"spsa", "--agent", "mcts:sims=5", "--param", "c=1:0.5:2", "--iterations", "1", "--db", db,
                          "--out", db, "--quiet", NULL};
    expect_exit(dir, same, 2, "same file");
    cr_assert(is_sqlite(db), "the database was overwritten");
    char *link = path_in(dir, "path.csv");
    cr_assert_eq(symlink(db, link), 0);
    const char *linked[] = {"spsa", "--agent", "mcts:sims=5", "--param", "c=1:0.5:2", "--iterations", "1", "--db", db,
                            "--out", link, "--quiet", NULL};
    expect_exit(dir, linked, 2, "same file");
    /* the agent's weights are the final weights file the run will write */
    char *wdir = path_in(dir, "p.csv.weights"), *final = path_in(wdir, "final.txt");
    cr_assert_eq(mkdir(wdir, 0777), 0);
    char *text = slurp(default_weights());
    write_in(wdir, "final.txt", text);
    char spec[600];
    snprintf(spec, sizeof spec, "ab:depth=1,eval=%s", final);
    const char *weights[] = {"spsa", "--agent", spec, "--param", "w.markers=0.1:0:1", "--iterations", "1", "--db", db,
                             "--out", path_in(dir, "p.csv"), "--quiet", NULL};
    expect_exit(dir, weights, 2, "final.txt");
    cr_assert_str_eq(slurp(final), text);
}

Test(outputs, rounds_refuse_files_that_are_their_database_or_start)
{
    char *dir = tmpdir_new(), *out = path_in(dir, "rounds"); /* not "out": yinsh_run's stdout */
    cr_assert_eq(mkdir(out, 0777), 0);
    const char *names[] = {"r.csv", "r.1.txt"};
    for (int i = 0; i < 2; i++) {
        char *db = random_db(dir, names[i], "x", "2");
        (void)db;
        char *moved = path_in(out, names[i]);
        cr_assert_eq(rename(path_in(dir, names[i]), moved), 0);
        const char *args[] = {"rounds", "--agent", "ab:depth=1", "--from", default_weights(), "--db", moved,
                              "--name", "r", "--out-dir", out, "--rounds", "1", "--games", "2", "--pairs", "1",
                              "--quiet", NULL};
        expect_exit(dir, args, 2, "--out-dir");
        cr_assert(is_sqlite(moved), "%s was overwritten", names[i]);
    }
    /* the starting weights are round 2's file */
    char *from = write_in(out, "q.2.txt", slurp(default_weights()));
    const char *start[] = {"rounds", "--agent", "ab:depth=1", "--from", from, "--db", path_in(dir, "q.db"), "--name",
                           "q", "--out-dir", out, "--rounds", "2", "--games", "2", "--pairs", "1", "--quiet", NULL};
    expect_exit(dir, start, 2, "--from");
    cr_assert(!file_exists(path_in(dir, "q.db")), "something was played");
}

Test(outputs, export_report_view_refuse_to_write_over_their_database)
{
    char *dir = tmpdir_new(), *folder = path_in(dir, "f");
    cr_assert_eq(mkdir(folder, 0777), 0);
    /* export: a record of run x, game 0, is f/x-000000.rec */
    char *rec = random_db(folder, "x-000000.rec", "x", "1");
    const char *export[] = {"export", "--db", rec, "--out", path_in(dir, "f/"), NULL};
    expect_exit(dir, export, 2, "--out");
    cr_assert(is_sqlite(rec));
    /* report: report.md, the pictures and their data */
    char *md = random_db(folder, "report.md", "r", "2");
    const char *report[] = {"report", "--db", md, "--out", folder, "--no-plots", NULL};
    expect_exit(dir, report, 2, "--out");
    cr_assert(is_sqlite(md));
    /* view: a database inside the games folder that a site replaces */
    char *games = path_in(folder, "games");
    cr_assert_eq(mkdir(games, 0777), 0);
    write_in(games, ".yinsh-view", "a site's folder\n");
    char *in_games = random_db(games, "g.db", "g", "1");
    const char *view[] = {"view", "--db", in_games, "--out", folder, NULL};
    expect_exit(dir, view, 2, "--out");
    cr_assert(is_sqlite(in_games), "the database in games/ is gone");
}

Test(outputs, a_study_refuses_a_report_folder_over_its_database_before_playing)
{
    char *dir = tmpdir_new();
    cr_assert_eq(mkdir(path_in(dir, "r"), 0777), 0);
    write_in(dir, "s.ini", "[study]\nname = s\nseed = 1\nvariants = standard\ngames = 2\ndb = r/report.md\n"
                           "[agent random]\nspec = random\n[report]\nout = r\nplots = no\n");
    const char *args[] = {"study", "s.ini", "--quiet", NULL};
    expect_exit(dir, args, 2, "the report folder");
    cr_assert(!file_exists(path_in(dir, "r/report.md")), "the study played before refusing");
}

Test(outputs, import_and_merge_refuse_a_database_that_is_an_input)
{
    char *dir = tmpdir_new(), *db = random_db(dir, "a.db", "a", "2");
    const char *merge[] = {"merge", "--db", db, db, NULL};
    expect_exit(dir, merge, 1, "name it once");
    cr_assert(is_sqlite(db));
    char *sgf = write_in(dir, "g.sgf", slurp(YINSH_SOURCE_DIR "/tests/data/Y-DrMih-Dumbot-2026-02-20-0858.sgf"));
    const char *import[] = {"import", "--format", "boardspace", "--db", sgf, sgf, NULL};
    expect_exit(dir, import, 2, "same file");
    /* tune had the check already: its output against its database */
    const char *tune[] = {"tune", "--db", db, "--out", db, NULL};
    expect_exit(dir, tune, 2, "same file");
    cr_assert(is_sqlite(db));
}

/* ---- tune: an output that is an input, by any spelling --------------------- */

Test(outputs, an_output_that_is_an_input_is_refused)
{
    char *dir = tmpdir_new(), *db = random_db(dir, "v.db", "r", "30");
    char *before = slurp(db);
    struct stat a;
    cr_assert_eq(stat(db, &a), 0);
    const char *same[] = {"tune", "--db", db, "--out", db, NULL};
    expect_exit(dir, same, 2, "same file");
    /* through a link */
    char *link = path_in(dir, "link.txt");
    cr_assert_eq(symlink(db, link), 0);
    const char *linked[] = {"tune", "--db", db, "--out", link, NULL};
    expect_exit(dir, linked, 2, "same file");
    /* the starting weights file */
    char *w = path_in(dir, "w.txt");
    FILE *f = fopen(w, "w");
    fprintf(f, "markers 0.05\n");
    fclose(f);
    const char *from[] = {"tune", "--db", db, "--from", w, "--out", w, NULL};
    expect_exit(dir, from, 2, "--from");
    cr_assert_str_eq(slurp(w), "markers 0.05\n");
    /* an output folder that does not exist: said before any work */
    const char *nodir[] = {"tune", "--db", db, "--out", "/nonexistent-dir/w.txt", NULL};
    expect_exit(dir, nodir, 1, "/nonexistent-dir");
    struct stat b;
    cr_assert_eq(stat(db, &b), 0);
    cr_assert_eq(a.st_size, b.st_size);
    cr_assert_eq(memcmp(before, slurp(db), (size_t)a.st_size), 0, "the database changed");
}
