/* `yinsh export`, `yinsh replay` and `yinsh show` on stored games, as
 * processes (docs/records.md). The round trip: every game of a database
 * (self-play in both variants, a match with a weights file on one side)
 * exported and replayed gives the stored result, reason and length; a
 * stored row changed behind the record's back is caught. And the writers
 * (selfplay/records/) in this process, read back by the readers. */
#define _GNU_SOURCE /* nftw, in test_proc.h */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include "engine/base/error.h"
#include "engine/notation.h"
#include "selfplay/records/boardspace.h"
#include "selfplay/records/record_text.h"
#include "tests/test_proc.h"


/* Three runs: "self" (12 standard games), "odd/name x" (4 blitz games; a
 * name that is no file name), "m" (a match of 2 pairs, A with a weights
 * file, so the records carry its content hash). 20 games. */
static char *make_db(const char *dir)
{
    char *db = path_in(dir, "d.db"), *err;
    cr_assert_eq(yinsh_run(dir, ARGS("selfplay", "--games", "12", "--agent", "random", "--seed", "7", "--db", db,
                                      "--run", "self", "--threads", "2", "--quiet"),
                           NULL, &err),
                 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, ARGS("selfplay", "--games", "4", "--variant", "blitz", "--agent", "random", "--seed",
                                      "8", "--db", db, "--run", "odd/name x", "--quiet"),
                           NULL, &err),
                 0, "%s", err);
    char *a = gc(strdup("mcts:sims=4,rollout=2,eval=" YINSH_SOURCE_DIR "/eval/weights/tuned.txt"));
    cr_assert_eq(yinsh_run(dir, ARGS("match", "--a", a, "--b", "random", "--games", "4", "--seed", "3", "--db", db,
                                      "--run", "m", "--quiet"),
                           NULL, &err),
                 0, "%s", err);
    return db;
}

/* Runs yinsh with stdout into the file `out` (in dir); its exit status. */
static int run_to(const char *dir, const char *out, const char *const *args, char **err)
{
    int rc = yinsh_wait(yinsh_spawn(dir, path_in(dir, out), NULL, NULL, NULL, args));
    if (err) *err = slurp(path_in(dir, "err"));
    return rc;
}

static int count_of(const char *s, const char *word)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, word)); p += strlen(word)) n++;
    return n;
}

/* Every game of the database, exported as one stream and replayed: the
 * replay's result, reason and length of each, in order, are the stored
 * ones. */
Test(export, round_trip)
{
    char *dir = tmpdir_new(), *db = make_db(dir), *out, *err;
    cr_assert_eq(yinsh_run(dir, ARGS("export", "--db", db, "--out", "all.rec"), NULL, &err), 0, "%s", err);
    cr_expect(strstr(err, "wrote 20 records to all.rec"), "%s", err);
    cr_assert_eq(yinsh_run(dir, ARGS("replay", "all.rec"), &out, &err), 0, "%s", err);
    cr_expect(strstr(out, "records 20: every action legal; stored results as replayed: 20"), "%s", out);

    /* the stored games, in the export's order, as the replay prints them */
    sqlite3 *h = db_open(db);
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(h,
                                    "SELECT game.actions, game.result, game.reason FROM game JOIN run "
                                    "ON run.id = game.run_id ORDER BY run.id, game.idx",
                                    -1, &st, NULL),
                 SQLITE_OK);
    char *expected = gc(calloc(1, 20 * 80)), *got = gc(calloc(1, strlen(out) + 1));
    while (sqlite3_step(st) == SQLITE_ROW)
        sprintf(expected + strlen(expected), "actions %d result %s reason %s\n", sqlite3_column_int(st, 0),
                (const char *)sqlite3_column_text(st, 1), (const char *)sqlite3_column_text(st, 2));
    sqlite3_finalize(st);
    sqlite3_close(h);
    for (const char *line = out; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line + 1) : strlen(line);
        if (!strncmp(line, "actions ", 8)) strncat(got, line, len);
        line += len;
    }
    cr_expect_str_eq(got, expected);

    /* the same stream on standard output */
    cr_assert_eq(run_to(dir, "stdout.rec", ARGS("export", "--db", db), &err), 0, "%s", err);
    cr_expect_str_eq(slurp(path_in(dir, "stdout.rec")), slurp(path_in(dir, "all.rec")));
}

/* One run, one game: the tags say what the database holds. */
Test(export, tags)
{
    char *dir = tmpdir_new(), *db = make_db(dir), *err;
    cr_assert_eq(run_to(dir, "self.rec", ARGS("export", "--db", db, "--run", "self"), &err), 0, "%s", err);
    char *self = slurp(path_in(dir, "self.rec"));
    cr_expect_eq(count_of(self, "[Run \"self\"]\n"), 12, "%s", self);
    sqlite3 *hc = db_open(db);
    char commit[128];
    snprintf(commit, sizeof commit, "[Commit \"%s\"]\n", db_text(hc, "SELECT git_commit FROM run WHERE name = 'self'"));
    sqlite3_close(hc);
    cr_expect_eq(count_of(self, commit), 12, "the run's commit in every record: %s", commit);

    cr_assert_eq(run_to(dir, "g3.rec", ARGS("export", "--db", db, "--run", "self", "--game", "3"), &err), 0, "%s",
                 err);
    char *g3 = slurp(path_in(dir, "g3.rec"));
    sqlite3 *h = db_open(db);
    char want[2048];
    snprintf(want, sizeof want,
             "[Run \"self\"]\n[Index \"3\"]\n[Kind \"selfplay\"]\n[Variant \"standard\"]\n[White \"random\"]\n"
             "[Black \"random\"]\n[Seed \"7\"]\n[Result \"%s\"]\n[Reason \"%s\"]\n[Actions \"%lld\"]\n"
             "[Date \"%s\"]\n[Version \"%s\"]\n[Commit \"%s\"]\n[RunUid \"%s\"]\n"
             "4/7/8/9/10/9/10/9/8/7/4 w P standard\n",
             db_text(h, "SELECT result FROM game WHERE idx = 3 AND run_id = (SELECT id FROM run WHERE name = 'self')"),
             db_text(h, "SELECT reason FROM game WHERE idx = 3 AND run_id = (SELECT id FROM run WHERE name = 'self')"),
             db_int(h, "SELECT actions FROM game WHERE idx = 3 AND run_id = (SELECT id FROM run WHERE name = 'self')"),
             db_text(h, "SELECT stored_at FROM game WHERE idx = 3 AND run_id = (SELECT id FROM run WHERE name = 'self')"),
             db_text(h, "SELECT version FROM run WHERE name = 'self'"),
             db_text(h, "SELECT git_commit FROM run WHERE name = 'self'"),
             db_text(h, "SELECT uid FROM run WHERE name = 'self'"));
    cr_expect(!strncmp(g3, want, strlen(want)), "got:\n%s\nwanted a start of:\n%s", g3, want);
    /* the actions, ten to a line */
    const char *acts = g3 + strlen(want);
    cr_expect_eq(count_of(acts, "\n"), (int)(db_int(h, "SELECT actions FROM game WHERE idx = 3 AND run_id = "
                                                       "(SELECT id FROM run WHERE name = 'self')") + 9) / 10);

    /* a match: game 0 has A (with its weights) as White, game 1 as Black */
    char *hash = db_text(h, "SELECT white_weights FROM run WHERE name = 'm'");
    cr_assert_eq(strlen(hash), 16, "A's weights hash: '%s'", hash);
    char w[64];
    snprintf(w, sizeof w, "[WhiteWeights \"%s\"]", hash);
    cr_assert_eq(run_to(dir, "m0.rec", ARGS("export", "--db", db, "--run", "m", "--game", "0"), &err), 0, "%s", err);
    char *m0 = slurp(path_in(dir, "m0.rec"));
    cr_expect(strstr(m0, w) && !strstr(m0, "[BlackWeights") && strstr(m0, "[Black \"random\"]"), "%s", m0);
    cr_expect(strstr(m0, "[Kind \"match\"]"), "%s", m0);
    snprintf(w, sizeof w, "[BlackWeights \"%s\"]", hash);
    cr_assert_eq(run_to(dir, "m1.rec", ARGS("export", "--db", db, "--run", "m", "--game", "1"), &err), 0, "%s", err);
    char *m1 = slurp(path_in(dir, "m1.rec"));
    cr_expect(strstr(m1, w) && !strstr(m1, "[WhiteWeights") && strstr(m1, "[White \"random\"]"), "%s", m1);
    sqlite3_close(h);
}

/* --out DIR/: one file per game, each a record that replays; a run name
 * that is no file name gets the start of its uid. */
Test(export, a_file_per_game)
{
    char *dir = tmpdir_new(), *db = make_db(dir), *out, *err;
    cr_assert_eq(yinsh_run(dir, ARGS("export", "--db", db, "--out", "recs/"), NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(db);
    char *uid = db_text(h, "SELECT substr(uid, 1, 8) FROM run WHERE name = 'odd/name x'");
    sqlite3_close(h);
    char odd[128];
    snprintf(odd, sizeof odd, "recs/odd_name_x-%s-000003.rec", uid);
    cr_expect(file_exists(path_in(dir, odd)), "%s", odd);
    cr_expect(file_exists(path_in(dir, "recs/self-000011.rec")));
    cr_expect(file_exists(path_in(dir, "recs/m-000003.rec")));
    DIR *d = opendir(path_in(dir, "recs"));
    cr_assert(d);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        files++;
        char *rec = path_in(path_in(dir, "recs"), e->d_name);
        cr_expect_eq(yinsh_run(dir, ARGS("replay", rec), &out, &err), 0, "%s: %s", e->d_name, err);
        cr_expect(strstr(out, "records 1: every action legal; stored results as replayed: 1"), "%s", out);
    }
    closedir(d);
    cr_expect_eq(files, 20);
    /* again into the same folder: the files are replaced */
    cr_expect_eq(yinsh_run(dir, ARGS("export", "--db", db, "--run", "self", "--out", "recs"), NULL, &err), 0, "%s",
                 err);
}

/* In the child: files can grow to `ctx` bytes; a write past that fails
 * (EFBIG) as on a full disk instead of killing the process. */
static void limit_files(void *ctx)
{
    rlim_t max = (rlim_t)(uintptr_t)ctx;
    struct rlimit rl = {max, max};
    setrlimit(RLIMIT_FSIZE, &rl);
    signal(SIGXFSZ, SIG_IGN);
}

/* The names in a folder, sorted, each followed by a space. */
static char *listing(const char *path)
{
    struct dirent **names;
    int n = scandir(path, &names, NULL, alphasort);
    cr_assert(n >= 0, "cannot list %s", path);
    char *text = gc(calloc(1, 4096));
    for (int i = 0; i < n; i++) {
        if (names[i]->d_name[0] != '.' && strlen(text) + strlen(names[i]->d_name) + 2 < 4096)
            strcat(strcat(text, names[i]->d_name), " ");
        free(names[i]);
    }
    free(names);
    return text;
}

/* A failed export leaves no half-written record and nothing beside it: a
 * stream cut short (files limited to 3,000 bytes, as a full disk cuts
 * them) leaves the file that was there as it was, a file per game
 * (limited to 200 bytes: the first game cannot be written) leaves the
 * folder empty, and an export with nothing to write makes no file. */
Test(export, a_failure_leaves_no_partial_file)
{
    char *dir = tmpdir_new(), *db = make_db(dir), *err;
    /* a rollback journal: reading writes nothing (WAL would need a -shm file) */
    sqlite3 *h = db_open(db);
    cr_assert_str_eq(db_text(h, "PRAGMA journal_mode=DELETE"), "delete");
    sqlite3_close(h);
    cr_expect_eq(yinsh_run(dir, ARGS("export", "--db", db, "--run", "nope", "--out", "none.rec"), NULL, &err), 1);
    cr_expect(!file_exists(path_in(dir, "none.rec")), "an export of nothing made a file");

    write_in(dir, "all.rec", "mine\n");
    int rc = yinsh_wait(yinsh_spawn(dir, "/dev/null", NULL, limit_files, (void *)(uintptr_t)3000,
                                    ARGS("export", "--db", db, "--out", "all.rec")));
    err = slurp(path_in(dir, "err"));
    cr_expect_eq(rc, 1, "exit %d: %s", rc, err);
    cr_expect(strstr(err, "cannot write 'all.rec'"), "%s", err);
    cr_expect_str_eq(slurp(path_in(dir, "all.rec")), "mine\n");

    rc = yinsh_wait(yinsh_spawn(dir, "/dev/null", NULL, limit_files, (void *)(uintptr_t)200,
                                ARGS("export", "--db", db, "--out", "recs/")));
    err = slurp(path_in(dir, "err"));
    cr_expect_eq(rc, 1, "exit %d: %s", rc, err);
    cr_expect(strstr(err, "cannot write 'recs/") && strstr(err, "/self-000000.rec'"), "%s", err);
    cr_expect_str_eq(listing(path_in(dir, "recs")), "");
    cr_expect_str_eq(listing(dir), "all.rec d.db err out recs ");
}

/* A stored row changed behind the record: the replay says which record
 * and what differs, and fails. */
Test(export, tampered_rows_are_caught)
{
    char *dir = tmpdir_new(), *db = make_db(dir), *err;
    sqlite3 *h = db_open(db);
    const char *where = "WHERE idx = 2 AND run_id = (SELECT id FROM run WHERE name = 'self')";
    char sql[512];
    snprintf(sql, sizeof sql,
             "UPDATE game SET result = CASE result WHEN 'white' THEN 'black' ELSE 'white' END %s", where);
    cr_assert_eq(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
    cr_assert_eq(yinsh_run(dir, ARGS("export", "--db", db, "--out", "bad.rec"), NULL, &err), 0, "%s", err);
    cr_expect_eq(yinsh_run(dir, ARGS("replay", "bad.rec"), NULL, &err), 1);
    cr_expect(strstr(err, "record 3 (run self, game 2)") && strstr(err, "Result"), "%s", err);

    /* put it back, then lose the last action of game 5 */
    snprintf(sql, sizeof sql,
             "UPDATE game SET result = CASE result WHEN 'white' THEN 'black' ELSE 'white' END %s", where);
    cr_assert_eq(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(h,
                              "DELETE FROM action WHERE game_id = (SELECT id FROM game WHERE idx = 5 AND run_id = "
                              "(SELECT id FROM run WHERE name = 'self')) AND ply = (SELECT max(ply) FROM action WHERE "
                              "game_id = (SELECT id FROM game WHERE idx = 5 AND run_id = (SELECT id FROM run WHERE "
                              "name = 'self')))",
                              NULL, NULL, NULL),
                 SQLITE_OK);
    sqlite3_close(h);
    cr_assert_eq(yinsh_run(dir, ARGS("export", "--db", db, "--run", "self", "--out", "short.rec"), NULL, &err), 0,
                 "%s", err);
    cr_expect_eq(yinsh_run(dir, ARGS("replay", "short.rec"), NULL, &err), 1);
    cr_expect(strstr(err, "record 6 (run self, game 5)") && strstr(err, "actions, it holds"), "%s", err);
}

Test(export, bad_requests)
{
    char *dir = tmpdir_new(), *db = make_db(dir), *err;
    cr_expect_eq(yinsh_run(dir, ARGS("export", "--db", db, "--game", "1"), NULL, &err), 2);
    cr_expect(strstr(err, "--run"), "%s", err);
    cr_expect_eq(yinsh_run(dir, ARGS("export", "--db", db, "--run", "nope"), NULL, &err), 1);
    cr_expect(strstr(err, "no run named 'nope'"), "%s", err);
    cr_expect_eq(yinsh_run(dir, ARGS("export", "--db", db, "--run", "self", "--game", "12"), NULL, &err), 1);
    cr_expect(strstr(err, "no stored game 12"), "%s", err);
    cr_expect_eq(yinsh_run(dir, ARGS("export", "--db", db, "--out", db), NULL, &err), 2);
    cr_expect(strstr(err, "same file"), "%s", err);
    cr_expect_eq(yinsh_run(dir, ARGS("export", "--db", path_in(dir, "none.db")), NULL, &err), 1);
    cr_expect_eq(yinsh_run(dir, ARGS("export", "--db", db, "--games", "1"), NULL, &err), 2);
    cr_expect(!file_exists(path_in(dir, "yinsh.db")), "no default database made");
}

/* show --run R --game I [--ply K]: the position after K actions, by
 * default the final one (the replay's); K past the end is refused. */
Test(show, stored_game)
{
    char *dir = tmpdir_new(), *db = make_db(dir), *out, *err;
    cr_assert_eq(yinsh_run(dir, ARGS("show", "--db", db, "--run", "self", "--game", "4", "--ply", "0"), &out, &err),
                 0, "%s", err);
    cr_expect(strstr(out, "after 0 of") && strstr(out, "\n4/7/8/9/10/9/10/9/8/7/4 w P standard\n"), "%s", out);
    cr_expect(strstr(out, "White places a ring"), "%s", out);

    cr_assert_eq(run_to(dir, "g4.rec", ARGS("export", "--db", db, "--run", "self", "--game", "4"), &err), 0, "%s",
                 err);
    cr_assert_eq(yinsh_run(dir, ARGS("replay", "g4.rec"), &out, &err), 0, "%s", err);
    char final[256];
    cr_assert_eq(sscanf(out, "%255[^\n]", final), 1);
    cr_assert_eq(yinsh_run(dir, ARGS("show", "--db", db, "--run", "self", "--game", "4"), &out, &err), 0, "%s", err);
    cr_expect(strstr(out, final), "the final position %s in:\n%s", final, out);
    cr_expect(strstr(out, "result: "), "%s", out);

    sqlite3 *h = db_open(db);
    long long n = db_int(h, "SELECT actions FROM game WHERE idx = 4 AND run_id = (SELECT id FROM run WHERE name = 'self')");
    sqlite3_close(h);
    char past[32];
    snprintf(past, sizeof past, "%lld", n + 1);
    cr_expect_eq(yinsh_run(dir, ARGS("show", "--db", db, "--run", "self", "--game", "4", "--ply", past), NULL, &err),
                 1);
    cr_expect(strstr(err, "--ply wants 0 to"), "%s", err);
    cr_expect_eq(yinsh_run(dir, ARGS("show", "--db", db, "--run", "self"), NULL, &err), 2);
    cr_expect_eq(yinsh_run(dir, ARGS("show", "--db", db, "--run", "self", "--game", "99"), NULL, &err), 1);
    cr_expect(strstr(err, "no stored game 99"), "%s", err);
    cr_expect_eq(yinsh_run(dir, ARGS("show", "--run", "self", "--game", "1", "4/7/8/9/10/9/10/9/8/7/4 w P standard"),
                           NULL, &err),
                 2);
}

/* The writers of selfplay/records/ on a game made by hand, read back by
 * their readers: our record by record_next (its tags, the imported
 * game's date taken from the run's command, every action), boardspace's
 * SGF by boardspace_read (the players, the actions, the resignation);
 * a blitz game is no boardspace record. */
Test(export, writers_read_back_in_process)
{
    static const char *const actions[] = {"e5", "f6", "e4", "f7", "e6", "f8", "d5", "g6", "c5", "h6"};
    RecordText g = {.run = "import-g1", .run_uid = "0123456789abcdef", .kind = "import", .version = "0.1.0",
                    .variant = "standard", .white = "boardspace:alice", .black = "bob", .result = "black",
                    .reason = "resign", .stored_at = "2026-01-01 00:00:00",
                    .command = "yinsh import x.sgf # site boardspace.net, date 2019-05-04, game g1", .seed = 9,
                    .index = 0, .length = 10, .nactions = 10, .actions = actions};
    char err[ERR_LEN], *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert(f);
    cr_assert_eq(record_text_write(f, &g, err), 0, "%s", err);
    fclose(f);
    cr_assert(strstr(text, "[Date \"2019-05-04\"]\n"), "%s", text);
    cr_assert(strstr(text, "[Commit \"?\"]\n"), "%s", text);
    cr_assert_null(strstr(text, "WhiteWeights"), "a tag without a value is left out: %s", text);
    RecordReader r;
    RecordTags tags;
    Position pos;
    int count;
    record_reader_init(&r, text, len);
    cr_assert_eq(record_next(&r, &tags, &pos, &count, err), 0, "%s: %s", err, text);
    cr_expect_eq(count, 10);
    cr_expect_str_eq(record_tag(&tags, "White"), "boardspace:alice");
    free(text);

    f = open_memstream(&text, &len);
    cr_assert_eq(boardspace_write(f, &g, err), 0, "%s", err);
    fclose(f);
    BoardspaceGame b;
    cr_assert_eq(boardspace_read(text, len, &b, err), 0, "%s: %s", err, text);
    cr_expect_str_eq(b.player[WHITE], "alice");
    cr_expect_str_eq(b.name, "g1");
    cr_expect_eq(b.rec.nactions, 10);
    cr_expect_eq(b.rec.result, RESULT_BLACK);
    cr_expect_eq(b.rec.reason, REASON_RESIGN);
    record_free(&b.rec);
    free(text);

    g.variant = "blitz";
    f = open_memstream(&text, &len);
    cr_expect_eq(boardspace_write(f, &g, err), ERR_USAGE);
    cr_expect(strstr(err, "boardspace records are standard YINSH"), "%s", err);
    fclose(f);
    free(text);
}
