#define _GNU_SOURCE /* nftw, in test_proc.h */
/* Every answer right at the edges (issue #22): each test is the
 * reproduction of one item, run as a careless user would, and named after
 * the behaviour it asserts.
 *
 *   item 9   tournament lists without finite ratings, a pairing's identity
 *            whatever the order of the participants;
 *   item 10  an output path is never also an input (every command);
 *   item 11  `yinsh view` replaces only what a site wrote;
 *   item 15  messages: a full disk, low memory, ulimit -f, a device as a
 *            database, misnamed keys, a byte order mark, counts of one;
 *   item 17  defaults: tune's database, a study's report folder, the date
 *            of an exported import. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <signal.h>
#include <sys/resource.h>
#include "engine/base/rng.h"
#include "tests/test_proc.h"

/* A small finished run of random games at path dir/name. */
static char *random_db(const char *dir, const char *name, const char *run, const char *games)
{
    char *db = path_in(dir, name), *err;
    const char *args[] = {"selfplay", "--games", games, "--agent", "random", "--seed", "5", "--db", db, "--run", run,
                          "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    return db;
}

/* Runs yinsh, expecting exit status rc and, if word is not NULL, word in
 * its stderr; returns stderr. */
static char *expect_exit(const char *dir, const char *const *args, int rc, const char *word)
{
    char *out, *err;
    int got = yinsh_run(dir, args, &out, &err);
    (void)out; /* not in the message: Criterion reads a message's '%' again (the rounds' "95% CI") */
    cr_assert_eq(got, rc, "%s: exit %d, not %d (%s)", args[0], got, rc, err);
    if (word) cr_assert(strstr(err, word), "%s: '%s' does not say '%s'", args[0], err, word);
    return err;
}

/* Whether the file at path is still an SQLite database. */
static bool is_sqlite(const char *path) { return !strncmp(slurp(path), "SQLite format 3", 15); }

static const char *default_weights(void) { return YINSH_SOURCE_DIR "/eval/weights/default.txt"; }

/* ---- item 9: tournament lists ------------------------------------------ */

/* Participants in an order that ranks the loser first when the list
 * follows the command line: rnd lost every game, s1 and s2 beat it (and
 * s1 beat s2): no finite ratings but the anchor's, a bound above it for
 * the others (tests/test_tournament.c has the bounds' figures). */
Test(tournament, without_finite_ratings_the_list_bounds_and_says_who_beat_whom)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *args[] = {"tournament", "--p", "rnd=random", "--p", "s1=mcts:sims=200", "--p", "s2=mcts:sims=300",
                          "--games", "2", "--db", "t.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "anchored at rnd = 0") && !strstr(out, "ratings      none"), "%s", out);
    cr_assert(strstr(out, "\n1    s1 ") && strstr(out, "\n2    s2 "), "%s", out);
    cr_assert(strstr(strstr(out, "\n1    s1 "), " above "), "%s", out);
    /* rank 1 is not the participant that lost every game */
    const char *list = strstr(out, "\nrank ");
    cr_assert(list, "%s", out);
    const char *first = strchr(list + 1, '\n') + 1;
    cr_assert(!strncmp(first, "1    s1 ", 8) || !strncmp(first, "1    s2 ", 8), "%s", out);
    cr_assert(strstr(out, "\n3    rnd "), "%s", out);
    /* the facts pairing by pairing, not one sentence naming a group */
    cr_assert(!strstr(out, "s1, s2") && !strstr(out, "s2, s1"), "%s", out);
    cr_assert(strstr(out, "s1 won 2 of 2 games against rnd"), "%s", out);
    cr_assert(strstr(out, "s2 won 2 of 2 games against rnd"), "%s", out);
}

Test(tournament, a_pairing_is_the_same_run_in_any_order)
{
    char *dir = tmpdir_new(), *err;
    const char *one[] = {"tournament", "--p", "rnd=random", "--p", "m5=mcts:sims=5", "--games", "4", "--db", "t.db",
                         NULL};
    cr_assert_eq(yinsh_run(dir, one, NULL, &err), 0, "%s", err);
    const char *other[] = {"tournament", "--p", "m5=mcts:sims=5", "--p", "rnd=random", "--games", "4", "--db",
                           "t.db", NULL};
    cr_assert_eq(yinsh_run(dir, other, NULL, &err), 0, "%s", err);
    cr_assert(strstr(err, "1 complete, 0 unfinished, 0 to play"), "%s", err);
    sqlite3 *db = db_open(path_in(dir, "t.db"));
    cr_assert_eq(db_int(db, "SELECT count(*) FROM run"), 1);
    /* A and B in the names' order: m5 before rnd, mcts5 before mcts20 (digits as numbers) */
    cr_assert_str_eq(db_text(db, "SELECT name FROM run"), "tournament/m5-vs-rnd");
    sqlite3_close(db);
    const char *numbers[] = {"tournament", "--p", "mcts20=mcts:sims=20", "--p", "mcts5=mcts:sims=5", "--games", "2",
                             "--name", "n", "--db", "t.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, numbers, NULL, &err), 0, "%s", err);
    db = db_open(path_in(dir, "t.db"));
    cr_assert_eq(db_int(db, "SELECT count(*) FROM run WHERE name = 'n/mcts5-vs-mcts20'"), 1);
    sqlite3_close(db);
}

/* A pairing stored by a yinsh that named it in the order given (B first
 * in the names' order) is found under that name, with its games. */
Test(tournament, a_pairing_stored_in_the_order_given_is_found)
{
    char *dir = tmpdir_new(), *err, seed[32];
    snprintf(seed, sizeof seed, "%" PRIu64, rng_mix(1, rng_hash_text("t/rnd-vs-m5")));
    const char *old[] = {"match", "--a", "random", "--b", "mcts:sims=5", "--games", "4", "--seed", seed, "--run",
                         "t/rnd-vs-m5", "--db", "t.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, old, NULL, &err), 0, "%s", err);
    const char *args[] = {"tournament", "--name", "t", "--p", "m5=mcts:sims=5", "--p", "rnd=random", "--games", "4",
                          "--db", "t.db", NULL};
    char *out;
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
    cr_assert(strstr(err, "1 complete, 0 unfinished, 0 to play"), "%s", err);
    cr_assert(strstr(out, "t/rnd-vs-m5 "), "%s", out);
    sqlite3 *db = db_open(path_in(dir, "t.db"));
    cr_assert_eq(db_int(db, "SELECT count(*) FROM run"), 1);
    sqlite3_close(db);
}

/* ---- item 10: an output path is never also an input --------------------- */

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

/* ---- item 11: the viewer replaces only what it wrote --------------------- */

Test(view, a_games_folder_the_viewer_did_not_write_is_kept)
{
    char *dir = tmpdir_new(), *db = random_db(dir, "v.db", "v", "2");
    /* docs/boardspace.md's example: records in games/, then a site in . */
    cr_assert_eq(mkdir(path_in(dir, "games"), 0777), 0);
    char *sgf = write_in(path_in(dir, "games"), "mine.sgf", "(;GM[24])\n");
    const char *args[] = {"view", "--db", db, "--out", ".", NULL};
    char *err = expect_exit(dir, args, 1, "games");
    cr_assert(strstr(err, "no site wrote"), "%s", err);
    cr_assert_str_eq(slurp(sgf), "(;GM[24])\n");
    cr_assert(!file_exists(path_in(dir, "index.html")), "the site was written anyway");
    /* a page file of the user's in the site's folder */
    char *site = path_in(dir, "site");
    cr_assert_eq(mkdir(site, 0777), 0);
    write_in(site, "index.html", "my page\n");
    const char *into_site[] = {"view", "--db", db, "--out", site, NULL};
    expect_exit(dir, into_site, 1, "index.html");
    cr_assert_str_eq(slurp(path_in(site, "index.html")), "my page\n");
    /* a site of its own is replaced, again and again */
    char *own = path_in(dir, "own");
    const char *fresh[] = {"view", "--db", db, "--out", own, NULL};
    expect_exit(dir, fresh, 0, NULL);
    cr_assert(file_exists(path_in(own, ".yinsh-view")) && file_exists(path_in(own, "games/.yinsh-view")));
    expect_exit(dir, fresh, 0, NULL);
    /* a site written before the marker: pages and nothing else */
    char *older = path_in(dir, "older");
    cr_assert_eq(mkdir(older, 0777), 0);
    cr_assert_eq(mkdir(path_in(older, "games"), 0777), 0);
    write_in(older, "index.html", "old index\n");
    write_in(path_in(older, "games"), "12.html", "old page\n");
    const char *again[] = {"view", "--db", db, "--out", older, NULL};
    expect_exit(dir, again, 0, NULL);
    cr_assert(!file_exists(path_in(older, "games/12.html")), "the old page is still there");
}

/* ---- item 15: messages --------------------------------------------------- */

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

/* ---- item 17: defaults --------------------------------------------------- */

Test(defaults, tune_reads_the_default_database)
{
    char *dir = tmpdir_new(), *err;
    const char *play[] = {"selfplay", "--games", "10", "--agent", "random", "--seed", "3", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, play, NULL, &err), 0, "%s", err);
    cr_assert(file_exists(path_in(dir, "results/yinsh.db")));
    const char *tune[] = {"tune", "--out", "w.txt", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, tune, NULL, &err), 0, "%s", err);
    cr_assert(file_nonempty(path_in(dir, "w.txt")));
}

/* match (and every command) without --db in a folder that has no
 * results/ yet says where the database goes, the folder named; once it is
 * there, and with --quiet or --no-db, nothing more is said. */
Test(defaults, a_default_database_in_a_new_folder_is_named)
{
    char *dir = tmpdir_new(), *err, *real = gc(realpath(dir, NULL));
    const char *match[] = {"match", "--a", "random", "--b", "random", "--games", "2", "--seed", "1", NULL};
    cr_assert_eq(yinsh_run(dir, match, NULL, &err), 0, "%s", err);
    cr_expect(strstr(err, "no --db given") && strstr(err, real), "not named: %s", err);
    cr_assert(file_exists(path_in(dir, "results/yinsh.db")));
    const char *again[] = {"match", "--a", "random", "--b", "random", "--games", "2", "--seed", "2", NULL};
    cr_assert_eq(yinsh_run(dir, again, NULL, &err), 0, "%s", err);
    cr_expect(!strstr(err, "no --db given"), "said again: %s", err);
    char *other = tmpdir_new();
    const char *quiet[] = {"match", "--a", "random", "--b", "random", "--games", "2", "--seed", "1", "--quiet", NULL};
    cr_assert_eq(yinsh_run(other, quiet, NULL, &err), 0, "%s", err);
    cr_expect(!strstr(err, "no --db given"), "said with --quiet: %s", err);
    const char *none[] = {"match", "--a", "random", "--b", "random", "--games", "2", "--seed", "1", "--no-db", NULL};
    char *third = tmpdir_new();
    cr_assert_eq(yinsh_run(third, none, NULL, &err), 0, "%s", err);
    cr_expect(!strstr(err, "no --db given"), "said with --no-db: %s", err);
    const char *report[] = {"report", "--no-plots", NULL};
    cr_expect_eq(yinsh_run(third, report, NULL, &err), 1, "%s", err);
    cr_expect(strstr(err, "no --db given"), "report: %s", err);
}

Test(defaults, a_study_reports_into_a_folder_of_its_own)
{
    char *dir = tmpdir_new(), *err;
    write_in(dir, "s.ini", "[study]\nname = mine\nseed = 1\nvariants = standard\ngames = 2\ndb = s.db\n"
                           "[agent random]\nspec = random\n[report]\nplots = no\n");
    const char *args[] = {"study", "s.ini", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    cr_assert(file_exists(path_in(dir, "results/mine/report.md")), "%s", err);
    cr_assert(!file_exists(path_in(dir, "results/report")), "the main job's report folder was written");
    /* the repository's studies keep theirs */
    cr_assert(strstr(slurp(YINSH_SOURCE_DIR "/studies/main.ini"), "\nout = results/report\n"));
    cr_assert(strstr(slurp(YINSH_SOURCE_DIR "/studies/balance.ini"), "\nout = results/balance\n"));
}

/* The repro: a copy of studies/main.ini with only its name changed
 * keeps `out = results/report`, and wrote over the main job's report. */
Test(defaults, a_copy_that_keeps_another_studys_out_is_refused)
{
    char *dir = tmpdir_new(), *err;
    const char *body = "seed = 1\nvariants = standard\ngames = 2\ndb = s.db\n"
                       "[agent random]\nspec = random\n[report]\nout = rep\nplots = no\n";
    char one[512], two[512];
    snprintf(one, sizeof one, "[study]\nname = main\n%s", body);
    snprintf(two, sizeof two, "[study]\nname = mine\n%s", body);
    write_in(dir, "main.ini", one);
    write_in(dir, "mine.ini", two);
    const char *first[] = {"study", "main.ini", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, first, NULL, &err), 0, "%s", err);
    char *report = slurp(path_in(dir, "rep/report.md"));
    cr_assert(strstr(report, "main-standard-random"), "%s", report);
    /* the copy: refused before it plays, the report left as it was */
    const char *copy[] = {"study", "mine.ini", "--quiet", NULL};
    err = expect_exit(dir, copy, 1, "holds the report of study 'main'");
    cr_assert(strstr(err, "nothing was stored"), "%s", err);
    cr_assert_str_eq(slurp(path_in(dir, "rep/report.md")), report);
    const char *check[] = {"study", "mine.ini", "--check", NULL};
    expect_exit(dir, check, 1, "holds the report of study 'main'");
    /* the study that owns the folder goes on writing there */
    cr_assert_eq(yinsh_run(dir, first, NULL, &err), 0, "%s", err);
}

Test(defaults, an_exported_import_keeps_the_record_date)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *sgf = YINSH_SOURCE_DIR "/tests/data/Y-DrMih-Dumbot-2026-02-20-0858.sgf";
    const char *import[] = {"import", "--format", "boardspace", "--db", "i.db", sgf, NULL};
    cr_assert_eq(yinsh_run(dir, import, NULL, &err), 0, "%s", err);
    const char *records[] = {"export", "--db", "i.db", NULL};
    cr_assert_eq(yinsh_run(dir, records, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "[Date \"Fri Feb 20 11:58:00 MSK 2026\"]"), "%s", out);
    const char *boardspace[] = {"export", "--db", "i.db", "--format", "boardspace", NULL};
    cr_assert_eq(yinsh_run(dir, boardspace, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "DT[Fri Feb 20 11:58:00 MSK 2026]"), "%s", out);
    /* a game played here keeps the date it was stored */
    random_db(dir, "p.db", "p", "1");
    const char *played[] = {"export", "--db", "p.db", NULL};
    cr_assert_eq(yinsh_run(dir, played, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "[Date \"20"), "%s", out);
}
