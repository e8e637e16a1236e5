#define _GNU_SOURCE /* nftw (test_proc.h) */
/* What a command leaves beside its database: nothing but the database.
 * SQLite's write-ahead log (-wal) and shared memory (-shm) belong to open
 * connections; a command that ends leaves neither, whatever it last did
 * with the file (a read-only connection closing last once left both:
 * `yinsh spsa` and `yinsh rounds`, whose last act is a read). */
#include <grp.h>
#include "tests/test_proc.h"

static void expect_alone(const char *db)
{
    char *wal = gc(malloc(strlen(db) + 8)), *shm = gc(malloc(strlen(db) + 8));
    sprintf(wal, "%s-wal", db);
    sprintf(shm, "%s-shm", db);
    cr_expect(file_exists(db), "no %s", db);
    cr_expect(!file_exists(wal), "%s left behind", wal);
    cr_expect(!file_exists(shm), "%s left behind", shm);
}

Test(store_files, spsa_and_rounds_leave_no_wal_or_shm)
{
    char *dir = tmpdir_new(), *err;
    char *s = path_in(dir, "s.db"), *r = path_in(dir, "r.db"), *w = path_in(dir, "w");
    const char *spsa[] = {"spsa", "--agent", "ab:depth=1", "--param", "depth=1:1:2", "--iterations", "1", "--pairs",
                          "2", "--db", s, "--out", path_in(dir, "p.csv"), "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, spsa, NULL, &err), 0, "%s", err);
    expect_alone(s);
    cr_assert_eq(mkdir(w, 0777), 0);
    char *weights = gc(malloc(strlen(YINSH_SOURCE_DIR) + 64));
    sprintf(weights, "%s/eval/weights/tuned3.txt", YINSH_SOURCE_DIR);
    const char *rounds[] = {"rounds", "--agent", "ab:depth=1", "--from", weights, "--db", r, "--name", "r",
                            "--out-dir", w, "--rounds", "1", "--games", "10", "--pairs", "4", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, rounds, NULL, &err), 0, "%s", err);
    expect_alone(r);
    /* the readers alone, on a database in WAL mode */
    const char *readers[][12] = {
        {"report", "--db", r, "--kind", "all", "--out", path_in(dir, "rep"), "--no-plots", "--quiet", NULL},
        {"export", "--db", r, "--out", path_in(dir, "all.txt"), NULL},
        {"view", "--db", r, "--out", path_in(dir, "view"), NULL},
    };
    for (size_t i = 0; i < sizeof readers / sizeof *readers; i++) {
        cr_assert_eq(yinsh_run(dir, readers[i], NULL, &err), 0, "%s: %s", readers[i][0], err);
        expect_alone(r);
    }
}

/* A database the user may not write is still read, as before. */
Test(store_files, a_read_only_database_is_read)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "ro.db"), *err;
    const char *play[] = {"selfplay", "--games", "4", "--agent", "random", "--seed", "2", "--db", db, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, play, NULL, &err), 0, "%s", err);
    cr_assert_eq(chmod(db, 0444), 0);
    char *before = slurp(db);
    const char *report[] = {"report", "--db", db, "--out", path_in(dir, "rep"), "--no-plots", "--quiet", NULL};
    int rc = yinsh_run(dir, report, NULL, &err);
    cr_expect_eq(rc, 0, "%s", err);
    cr_expect(!memcmp(before, slurp(db), 100), "the database changed");
}

/* A copy of the yinsh binary in dir (./yinsh), for the reader: the user
 * nobody may not reach the build's own (a clone under a private folder,
 * such as a home or `mktemp -d`), and a path relative to the folder it
 * runs in needs no other folder's permission. */
static void reader_copy(const char *dir)
{
    FILE *in = fopen(YINSH_BIN, "rb"), *out = fopen(path_in(dir, "yinsh"), "wb");
    cr_assert(in && out, "cannot copy %s into %s", YINSH_BIN, dir);
    char buf[1 << 16];
    for (size_t n; (n = fread(buf, 1, sizeof buf, in)) > 0;) cr_assert_eq(fwrite(buf, 1, n, out), n);
    cr_assert_eq(fclose(out), 0);
    fclose(in);
    cr_assert_eq(chmod(path_in(dir, "yinsh"), 0755), 0);
}

/* Runs `./yinsh ARGS` (the copy of reader_copy; or, with sh, `sh -c
 * ARGS[0]`) in dir as a user who cannot write in `ro`: as root, the user
 * nobody (65534), else this user with ro made read-only. Output into
 * dir/out and dir/err. */
static int run_as_reader(const char *dir, bool sh, const char *const *args, char **err)
{
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        int fo = open(path_in(dir, "out"), O_WRONLY | O_CREAT | O_TRUNC, 0666),
            fe = open(path_in(dir, "err"), O_WRONLY | O_CREAT | O_TRUNC, 0666);
        dup2(fo, 1);
        dup2(fe, 2);
        if (chdir(dir) != 0) _exit(126);
        if (geteuid() == 0 && (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0)) _exit(125);
        const char *argv[32];
        int n = 0;
        if (sh) argv[n++] = "/bin/sh", argv[n++] = "-c";
        else argv[n++] = "./yinsh";
        for (int i = 0; args[i]; i++) argv[n++] = args[i];
        argv[n] = NULL;
        execv(argv[0], (char **)argv);
        _exit(127);
    }
    int rc = yinsh_wait(pid);
    *err = slurp(path_in(dir, "err"));
    return rc;
}

/* A WAL database in a folder the reader cannot write (a shared data set on
 * a read-only mount): its -shm cannot be made, and it is read all the
 * same, as immutable, leaving the folder as it was. */
Test(store_files, a_database_in_a_folder_the_reader_cannot_write_is_read)
{
    char *dir = tmpdir_new(), *ro = path_in(dir, "ro"), *err;
    cr_assert_eq(chmod(dir, 0777), 0);
    cr_assert_eq(mkdir(ro, 0755), 0);
    reader_copy(dir);
    const char *play[] = {"selfplay", "--games", "3", "--agent", "random", "--seed", "2", "--db", "ro/t.db",
                          "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, play, NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(path_in(ro, "t.db"));
    cr_assert_str_eq(db_text(h, "PRAGMA journal_mode"), "wal");
    sqlite3_close(h);
    if (geteuid() != 0) cr_assert_eq(chmod(ro, 0555), 0);
    /* the reader indeed cannot write there */
    const char *probe[] = {"echo > ro/probe", NULL};
    int rc = run_as_reader(dir, true, probe, &err);
    if (rc == 125) cr_skip_test("cannot become the user nobody here");
    cr_assert_neq(rc, 0, "the reader can write in the folder: this test would test nothing");
    cr_assert(!file_exists(path_in(ro, "probe")));
    /* the reader runs its copy of yinsh (not where the folder is mounted noexec) */
    const char *version[] = {"--version", NULL};
    rc = run_as_reader(dir, false, version, &err);
    if (rc == 126 || rc == 127) cr_skip_test("the reader cannot run a copy of yinsh in %s (mounted noexec?): %s", dir, err);
    cr_assert_eq(rc, 0, "%s", err);
    const char *positions[] = {"positions", "--db", "ro/t.db", "--out", "p.tsv", "--quiet", NULL};
    cr_expect_eq(run_as_reader(dir, false, positions, &err), 0, "%s", err);
    cr_expect(file_nonempty(path_in(dir, "p.tsv")));
    const char *export[] = {"export", "--db", "ro/t.db", NULL};
    cr_expect_eq(run_as_reader(dir, false, export, &err), 0, "%s", err);
    cr_expect(strstr(slurp(path_in(dir, "out")), "[Run ") != NULL);
    const char *report[] = {"report", "--db", "ro/t.db", "--out", "rep", "--no-plots", "--quiet", NULL};
    cr_expect_eq(run_as_reader(dir, false, report, &err), 0, "%s", err);
    expect_alone(path_in(ro, "t.db"));
    if (geteuid() != 0) chmod(ro, 0755);
}
