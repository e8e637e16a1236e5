#define _GNU_SOURCE /* nftw, in test_proc.h */
/* What a command says when something is wrong around it, run as a
 * careless user would: a full disk and a full standard output, low
 * memory, ulimit -f, a device as a database, a misnamed key, a byte order
 * mark, a count of one; a signal that stops a run (and the hint to go
 * on), an unknown option, a missing file, figures that say what they mean. */
#include <criterion/criterion.h>
#include <signal.h>
#include <sys/resource.h>
#include "tests/test_proc.h"

Test(messages, a_full_standard_output_is_named_as_a_full_disk)
{
    char *dir = tmpdir_new(), *db = random_db(dir, "t.db", "r", "4");
    const char *args[] = {"report", "--db", db, "--out", path_in(dir, "rep"), NULL};
    int rc = yinsh_wait(yinsh_spawn(dir, "/dev/full", NULL, NULL, NULL, args));
    char *err = slurp(path_in(dir, "err"));
    cr_assert_eq(rc, 1, "%s", err);
    cr_assert(strstr(err, "cannot write the output: No space left on device"), "%s", err);
    /* a report folder that is a device is refused by name, before any work */
    const char *full[] = {"report", "--db", db, "--out", "/dev/full", "--no-plots", NULL};
    expect_exit(dir, full, 2, "'/dev/full' is not a directory");
}

/* In the child: at most 40 MB of address space. */
static void limit_memory(void *ctx)
{
    (void)ctx;
    struct rlimit rl = {40u << 20, 40u << 20};
    setrlimit(RLIMIT_AS, &rl);
}

Test(messages, gnuplot_without_memory_is_not_called_missing)
{
    char *dir = tmpdir_new(), *db = random_db(dir, "t.db", "r", "4"), *err;
    const char *args[] = {"report", "--db", db, "--out", path_in(dir, "rep"), "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    if (strstr(err, "not installed")) cr_skip_test("gnuplot is not installed here");
    int rc = yinsh_wait(yinsh_spawn(dir, NULL, NULL, limit_memory, NULL, args));
    err = slurp(path_in(dir, "err"));
    /* a sanitizer's build cannot start in 40 MB: nothing to check there */
    if (rc != 0 && !strstr(err, "yinsh report")) cr_skip_test("yinsh does not start in 40 MB: %s", err);
    cr_assert_eq(rc, 0, "%s", err);
    cr_assert(!strstr(err, "not installed"), "%s", err);
}

/* In the child: files grow to 1 KiB at most (LLVM's OpenMP runtime needs
 * a little for its registration file), and SIGXFSZ is left as it comes
 * (ending the process, unless yinsh says otherwise). */
static void limit_files(void *ctx)
{
    (void)ctx;
    struct rlimit rl = {1024, 1024};
    setrlimit(RLIMIT_FSIZE, &rl);
    signal(SIGXFSZ, SIG_DFL);
}

Test(messages, a_file_too_large_is_a_write_error_not_a_signal_or_a_bad_fit)
{
    char *dir = tmpdir_new(), *db = random_db(dir, "t.db", "r", "20");
    /* a rollback journal: reading writes nothing (WAL's -shm would meet the limit first) */
    sqlite3 *h = db_open(db);
    cr_assert_str_eq(db_text(h, "PRAGMA journal_mode=DELETE"), "delete");
    sqlite3_close(h);
    /* a weights file larger than that: its header holds the command line */
    const char *tune[64] = {"tune", "--db", db, "--out", path_in(dir, "w.txt"), "--quiet"};
    for (int i = 6; i < 60; i += 2) tune[i] = "--l2", tune[i + 1] = "0.000100000000000000000000000";
    int rc = yinsh_wait(yinsh_spawn(dir, "/dev/null", NULL, limit_files, NULL, tune));
    char *err = slurp(path_in(dir, "err"));
    cr_assert_eq(rc, 1, "exit %d: %s", rc, err);
    cr_assert(strstr(err, "File too large") && !strstr(err, "no usable weights"), "%s", err);
    const char *export[] = {"export", "--db", db, "--out", path_in(dir, "all.rec"), NULL};
    rc = yinsh_wait(yinsh_spawn(dir, "/dev/null", NULL, limit_files, NULL, export));
    err = slurp(path_in(dir, "err"));
    cr_assert_eq(rc, 1, "exit %d: %s", rc, err);
    cr_assert(strstr(err, "File too large"), "%s", err);
}

Test(messages, a_device_is_not_called_an_empty_database)
{
    char *dir = tmpdir_new();
    const char *args[] = {"merge", "--db", path_in(dir, "out.db"), "/dev/zero", NULL};
    char *err = expect_exit(dir, args, 1, "a device");
    cr_assert(!strstr(err, "empty"), "%s", err);
}

Test(messages, a_misnamed_key_is_named)
{
    char *dir = tmpdir_new();
    /* a spec that is a key without its agent */
    const char *bare[] = {"selfplay", "--agent", "sim=1", "--games", "1", "--no-db", NULL};
    expect_exit(dir, bare, 2, "key 'sim'");
    /* an external engine's option with no name */
    const char *option[] = {"selfplay", "--agent", "uyi:name=e;cmd=e;option.=1", "--games", "1", "--no-db", NULL};
    char *err = expect_exit(dir, option, 2, "'option.'");
    cr_assert(!strstr(err, "value '1'"), "%s", err);
    /* a spec's key, an SPSA parameter's name, a study file's key */
    const char *spec[] = {"selfplay", "--agent", "mcts:sim=1", "--games", "1", "--no-db", NULL};
    expect_exit(dir, spec, 2, "key 'sim'");
    const char *param[] = {"spsa", "--agent", "mcts:sims=5", "--param", "sim=10:1:20", "--iterations", "1", "--out",
                           "p.csv", NULL};
    expect_exit(dir, param, 2, "key 'sim'");
    write_in(dir, "s.ini", "[study]\nname = s\nseed = 1\nvariants = standard\ngames = 2\nsim = 1\n"
                           "[agent random]\nspec = random\n");
    const char *study[] = {"study", "s.ini", "--check", NULL};
    expect_exit(dir, study, 2, "key 'sim'");
}

Test(messages, a_study_file_may_begin_with_a_byte_order_mark)
{
    char *dir = tmpdir_new(), *out, *err;
    write_in(dir, "s.ini", "\xef\xbb\xbf[study]\nname = s\nseed = 1\nvariants = standard\ngames = 2\ndb = s.db\n"
                           "[agent random]\nspec = random\n");
    const char *args[] = {"study", "s.ini", "--check", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "s-standard-random"), "%s", out);
}

Test(messages, a_count_of_one_is_singular)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *spsa[] = {"spsa", "--agent", "mcts:sims=5", "--param", "c=1:0.5:2", "--iterations", "1", "--db",
                          "s.db", "--out", "p.csv", NULL};
    cr_assert_eq(yinsh_run(dir, spsa, &out, &err), 0, "%s", err);
    cr_assert(strstr(err, "1 iteration of 1 pair into") && strstr(out, "1 iteration of 1 pair,"), "%s", out);
    char *a = random_db(dir, "a.db", "a", "1");
    const char *merge[] = {"merge", "--db", path_in(dir, "m.db"), a, NULL};
    cr_assert_eq(yinsh_run(dir, merge, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "1 game copied") && strstr(out, "1/1 game:"), "%s", out);
    write_in(dir, "bad.sgf", "(;GM[24]\n");
    const char *import[] = {"import", "--format", "boardspace", "--db", path_in(dir, "i.db"), "bad.sgf", NULL};
    expect_exit(dir, import, 1, "1 of 1 file refused");
    const char *tournament[] = {"tournament", "--p", "a=random", "--p", "b=random", "--games", "2", "--db", "t.db",
                                NULL};
    cr_assert_eq(yinsh_run(dir, tournament, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "1 pairing of 2 games"), "%s", out);
}

/* ---- a signal, an unknown option, a missing file, figures ----------------- */

Test(messages, signals_stop_a_run_cleanly_with_a_hint)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "s.db");
    const char *play[] = {"selfplay", "--games", "300", "--agent", "mcts:sims=60", "--seed", "9", "--db", db, "--run",
                          "s", "--threads", "2", "--quiet", NULL};
    const int sigs[] = {SIGINT, SIGTERM};
    for (int k = 0; k < 2; k++) {
        pid_t pid = yinsh_start(dir, k == 0 ? play : (const char *const[]){"selfplay", "--resume", "s", "--db", db,
                                                                          "--quiet", NULL});
        db_wait_for_lease(db);
        usleep(300000);
        kill(pid, sigs[k]);
        int rc = yinsh_wait(pid);
        char *err = slurp(path_in(dir, "err"));
        cr_assert_eq(rc, 128 + sigs[k], "exit %d: %s", rc, err);
        cr_assert(strstr(err, "interrupted") && strstr(err, "--resume s"), "%s", err);
        sqlite3 *h = db_open(db);
        cr_assert_eq(db_int(h, "SELECT count(*) FROM run WHERE finished_at IS NULL"), 1);
        cr_assert_eq(db_int(h, "SELECT count(*) FROM lease"), 0);
        cr_assert_eq(db_int(h, "SELECT count(*) FROM game g WHERE actions != (SELECT count(*) FROM action a WHERE "
                               "a.game_id = g.id)"),
                     0, "a game stored in part");
        sqlite3_close(h);
    }
    /* the resumed run is the uninterrupted one */
    char *out, *err;
    const char *resume[] = {"selfplay", "--resume", "s", "--db", db, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, resume, &out, &err), 0, "%s", err);
    char *hash = strstr(out, "hash");
    cr_assert(hash);
    const char *whole[] = {"selfplay", "--games", "300", "--agent", "mcts:sims=60", "--seed", "9", "--no-db",
                           "--quiet", NULL};
    char *out2;
    cr_assert_eq(yinsh_run(dir, whole, &out2, &err), 0, "%s", err);
    cr_assert(strstr(out2, hash), "resumed: %s\nwhole: %s", out, out2);
}

Test(messages, messages_and_figures_say_what_they_mean)
{
    char *dir = tmpdir_new(), *db = random_db(dir, "m.db", "done", "2");
    /* an unknown short option is unknown, not "wants a value" */
    const char *shortopt[] = {"selfplay", "--games", "1", "-x", NULL};
    expect_exit(dir, shortopt, 2, "unknown option '-x'");
    /* a finished run is not offered to --resume */
    const char *again[] = {"selfplay", "--games", "2", "--agent", "random", "--db", db, "--run", "done", NULL};
    char *out, *err;
    cr_assert_eq(yinsh_run(dir, again, &out, &err), 1);
    cr_assert(strstr(err, "finished run") && !strstr(err, "--resume"), "%s", err);
    /* replay says why a file cannot be read */
    const char *replay[] = {"replay", "/nonexistent", NULL};
    expect_exit(dir, replay, 1, "No such file");
    /* lines ended by CR alone */
    char *rec = path_in(dir, "cr.txt");
    FILE *f = fopen(rec, "w");
    fprintf(f, "4/7/8/9/10/9/10/9/8/7/4 w P standard\re5 e6\re7\r");
    fclose(f);
    const char *cr[] = {"replay", rec, NULL};
    cr_assert_eq(yinsh_run(dir, cr, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "actions 3"), "%s", out);
    /* no validation set: no nan */
    char *big = random_db(dir, "t.db", "r", "30");
    const char *tune[] = {"tune", "--db", big, "--out", path_in(dir, "w.txt"), "--val", "0", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, tune, &out, &err), 0, "%s", err);
    cr_assert(!strstr(out, "nan"), "%s", out);
    /* a policy head is measured on held-out positions: --val 0 is refused
     * (it printed "cross-entropy nan", and the PUCT loop recorded it) */
    char *net = gc(malloc(strlen(YINSH_SOURCE_DIR) + 32));
    sprintf(net, "%s/eval/nets/pv32.nnue", YINSH_SOURCE_DIR);
    char *visits = path_in(dir, "v.db");
    const char *play[] = {"selfplay", "--games", "2", "--agent", "mcts:sims=8", "--store-visits", "--db", visits,
                          "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, play, NULL, &err), 0, "%s", err);
    const char *head[] = {"train", "--policy", "--db", visits, "--init", net, "--out", path_in(dir, "h.nnue"), "--val",
                          "0", "--quiet", NULL};
    expect_exit(dir, head, 2, "--val 0: the head is measured on the positions held out");
    cr_assert(!file_exists(path_in(dir, "h.nnue")));
    /* one pair: no negative zero */
    const char *pair[] = {"match", "--a", "random", "--b", "random", "--games", "2", "--seed", "1", "--no-db",
                          "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, pair, &out, &err), 0, "%s", err);
    cr_assert(!strstr(out, "-0.0"), "%s", out);
    /* the report says "p < 0.001", never "p = < 0.001" */
    const char *many[] = {"match", "--a", "mcts:sims=30", "--b", "random", "--games", "40", "--seed", "2", "--db",
                          big, "--run", "m", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, many, &out, &err), 0, "%s", err);
    const char *rep[] = {"report", "--db", big, "--runs", "m", "--kind", "all", "--out", path_in(dir, "rep"),
                         "--no-plots", NULL};
    cr_assert_eq(yinsh_run(dir, rep, &out, &err), 0, "%s", err);
    cr_assert(!strstr(out, "p = <"), "%s", out);
    cr_assert(!strstr(out, "White's edge"), "a match's edge is its agents', not White's: %s", out);
    /* an arena too small for the root's children: the random fallback is not recorded as searched */
    char *tiny = path_in(dir, "n.db");
    const char *nodes[] = {"selfplay", "--games", "1", "--agent", "mcts:sims=50,nodes=2", "--db", tiny, "--quiet",
                           NULL};
    cr_assert_eq(yinsh_run(dir, nodes, &out, &err), 0, "%s", err);
    sqlite3 *h = db_open(tiny);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM action WHERE root_visits IS NOT NULL"), 0);
    sqlite3_close(h);
}
