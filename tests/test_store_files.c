#define _GNU_SOURCE /* nftw (test_proc.h) */
/* What a command leaves beside its database: nothing but the database.
 * SQLite's write-ahead log (-wal) and shared memory (-shm) belong to open
 * connections; a command that ends leaves neither, whatever it last did
 * with the file (a read-only connection closing last once left both:
 * `yinsh spsa` and `yinsh rounds`, whose last act is a read). */
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
