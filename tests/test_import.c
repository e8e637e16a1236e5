/* `yinsh import --format boardspace` and `yinsh export --format
 * boardspace`, as processes (docs/boardspace.md): the shared boardspace
 * record gives the final position of our record of the same game; records
 * cut from it (resigned, unfinished, a row named end first) import as
 * described; a bad file is refused by name, move and reason while the
 * others are stored; our games go out and come back with the same
 * actions. */
#define _GNU_SOURCE /* nftw, in test_proc.h */
#include "tests/test_proc.h"

#define SGF YINSH_SOURCE_DIR "/tests/data/Y-DrMih-Dumbot-2026-02-20-0858.sgf"
#define REC YINSH_SOURCE_DIR "/tests/data/boardspace-2026-02-20-DrMih-Dumbot.rec"

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

/* The shared record up to (not with) the line that holds `cut`, then
 * `tail`, then the closing ')': a shorter game from the real one. */
static char *sgf_cut(const char *cut, const char *tail)
{
    char *all = slurp(SGF);
    char *at = strstr(all, cut);
    cr_assert(at, "'%s' is not in the shared record", cut);
    while (at > all && at[-1] != '\n') at--;
    char *out = gc(malloc((size_t)(at - all) + strlen(tail) + 4));
    sprintf(out, "%.*s%s)\n", (int)(at - all), all, tail);
    return out;
}

/* One text column of the first row of a query. */
static char *query1(const char *db, const char *sql)
{
    sqlite3 *h = db_open(db);
    sqlite3_stmt *st;
    cr_assert(sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(h));
    char *v = gc(strdup(sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0)
                            ? (const char *)sqlite3_column_text(st, 0)
                            : ""));
    sqlite3_finalize(st);
    sqlite3_close(h);
    return v;
}

/* The first line of `yinsh replay` of a file: the final YPN. */
static char *final_ypn(const char *dir, const char *file)
{
    char *out, *err;
    cr_assert_eq(yinsh_run(dir, ARGS("replay", file), &out, &err), 0, "replay %s: %s", file, err);
    char *nl = strchr(out, '\n');
    if (nl) *nl = 0;
    return out;
}

/* Every stored game's actions, one line per game in run order. */
static const char *GAME_ACTIONS = "SELECT group_concat(a, ' ') FROM (SELECT (SELECT group_concat(action, ' ') FROM "
                                  "(SELECT action FROM action WHERE game_id = game.id ORDER BY ply)) AS a "
                                  "FROM game ORDER BY run_id, idx)";

Test(import, shared_record_gives_the_final_position_and_a_black_win)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "d.db"), *rec = path_in(dir, "g.rec"), *out, *err;
    cr_assert_eq(yinsh_run(dir, ARGS("import", "--format", "boardspace", SGF, "--db", db), &out, &err), 0, "%s",
                 err);
    cr_expect(strstr(out, "DrMih (White) against Dumbot (Black), 56 actions, result black (three-rings)"), "%s", out);
    cr_assert_eq(yinsh_run(dir, ARGS("export", "--db", db, "--out", rec), NULL, &err), 0, "%s", err);
    cr_expect_str_eq(final_ypn(dir, rec), final_ypn(dir, REC));
    cr_expect_str_eq(query1(db, "SELECT kind || ' ' || white || ' ' || black || ' ' || games FROM run"),
                     "import boardspace:DrMih boardspace:Dumbot 1");
    cr_expect_str_eq(query1(db, "SELECT result || ' ' || reason || ' ' || actions FROM game"), "black three-rings 56");
    char *command = query1(db, "SELECT command FROM run");
    cr_expect(strstr(command, "# site boardspace.net, date Fri Feb 20 11:58:00 MSK 2026"), "%s", command);
    cr_expect_str_eq(query1(db, "SELECT name FROM run WHERE finished_at IS NOT NULL"),
                     "import-Y-DrMih-Dumbot-2026-02-20-0858");
    cr_expect_str_eq(query1(db, "SELECT count(*) FROM lease"), "0");
    /* TM is the player's total in ms: White's first turn took 1689 ms */
    cr_expect_str_eq(query1(db, "SELECT time_us FROM action WHERE ply = 0"), "1689000");
    /* the same file again is the same game: refused, nothing added */
    cr_expect_eq(yinsh_run(dir, ARGS("import", "--format", "boardspace", SGF, "--db", db), NULL, &err), 1);
    cr_expect(strstr(err, "imported before"), "%s", err);
    cr_expect_str_eq(query1(db, "SELECT count(*) FROM game"), "1");
}

Test(import, resigned_game_keeps_its_actions_and_goes_to_the_other_side)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "d.db"), *f = path_in(dir, "resign.sgf"), *rec = path_in(dir, "r.rec"),
         *err;
    /* after White's move 28 (h11-g10: 12 actions) Black resigns */
    write_file(f, sgf_cut("P1[29 move", "; P1[29 Resign ]\n"));
    cr_assert_eq(yinsh_run(dir, ARGS("import", "--format", "boardspace", f, "--db", db), NULL, &err), 0, "%s", err);
    cr_expect_str_eq(query1(db, "SELECT result || ' ' || reason || ' ' || actions FROM game"), "white resign 13");
    cr_expect_str_eq(query1(db, GAME_ACTIONS), "h6 g6 g8 c6 e10 f8 g11 e9 h11 d7 g11-g9 c6-c1 h11-g10");
    /* our record of it replays, its result taken as the record says */
    cr_assert_eq(yinsh_run(dir, ARGS("export", "--db", db, "--out", rec), NULL, &err), 0, "%s", err);
    cr_expect_eq(yinsh_run(dir, ARGS("replay", rec), NULL, &err), 0, "%s", err);
    /* and boardspace's: the Resign goes out again */
    char *out;
    cr_assert_eq(yinsh_run(dir, ARGS("export", "--db", db, "--format", "boardspace"), &out, &err), 0, "%s", err);
    cr_expect(strstr(out, "; P1[") && strstr(out, " Resign ]"), "%s", out);
}

Test(import, row_named_from_either_end)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "d.db"), *f = path_in(dir, "rev.sgf"), *rec = path_in(dir, "r.rec"),
         *err;
    /* White's first row named from its upper end; the record names
     * Black's second row so already (I 7 E 7) */
    char *text = gc(strdup(slurp(SGF)));
    char *at = strstr(text, "remove w H 5 H 9");
    cr_assert(at);
    memcpy(at, "remove w H 9 H 5", 16);
    write_file(f, text);
    cr_assert_eq(yinsh_run(dir, ARGS("import", "--format", "boardspace", f, "--db", db), NULL, &err), 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, ARGS("export", "--db", db, "--out", rec), NULL, &err), 0, "%s", err);
    cr_expect_str_eq(final_ypn(dir, rec), final_ypn(dir, REC));
    char *acts = query1(db, GAME_ACTIONS);
    cr_expect(strstr(acts, " xh5-h9 ") && strstr(acts, " xe7-i7 "), "%s", acts);
}

Test(import, unfinished_record_is_stored_without_a_result_and_reports_leave_it_out)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "d.db"), *f = path_in(dir, "cut.sgf"), *rep = path_in(dir, "rep"),
         *err;
    /* the record stops in the middle of White's move (a place without its drop) */
    char *text = sgf_cut("P0[32 drop", "");
    strstr(text, "GN[Y-")[3] = 'Z'; /* another game's name: another run */
    write_file(f, text);
    cr_assert_eq(yinsh_run(dir, ARGS("import", "--format", "boardspace", f, SGF, "--db", db), NULL, &err), 0, "%s",
                 err);
    cr_expect_str_eq(query1(db, "SELECT result || ' ' || reason || ' ' || actions FROM game WHERE result = 'none'"),
                     "none none 14");
    cr_assert_eq(yinsh_run(dir, ARGS("report", "--db", db, "--kind", "import", "--out", rep, "--no-plots"), NULL, &err), 0, "%s", err);
    char *md = slurp(path_in(rep, "report.md"));
    cr_expect(strstr(md, "1 unfinished games"), "%s", md);
    cr_expect(strstr(md, "1 games.") || strstr(md, ", 1 games"), "%s", md);
}

Test(import, bad_files_are_refused_by_name_move_and_reason_and_the_others_stored)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "d.db"), *err;
    char *illegal = path_in(dir, "illegal.sgf"), *garbled = path_in(dir, "garbled.sgf"),
         *unknown = path_in(dir, "unknown.sgf"), *turn = path_in(dir, "turn.sgf"), *two = path_in(dir, "two.sgf");
    char *both = gc(malloc(2 * strlen(slurp(SGF)) + 1));
    sprintf(both, "%s%s", slurp(SGF), slurp(SGF));
    write_file(two, both);
    /* d7 holds a black ring: no ring moves there */
    write_file(illegal, sgf_cut("P1[24 move", "; P1[24 move C 6 D 7]\n"));
    write_file(garbled, sgf_cut("P1[24 move", "; P1[24 move C 6 Z 1]\n"));
    write_file(unknown, sgf_cut("P1[24 move", "; P1[24 swap]\n"));
    write_file(turn, sgf_cut("P1[24 move", "; P0[24 move G 9 G 8]\n"));
    cr_assert_eq(yinsh_run(dir, ARGS("import", "--format", "boardspace", illegal, garbled, SGF, unknown, turn,
                                     path_in(dir, "missing.sgf"), two, "--db", db),
                           NULL, &err),
                 1);
    cr_expect(strstr(err, "illegal.sgf: move 24: "), "%s", err);
    cr_expect(strstr(err, "garbled.sgf: move 24: 'C 6 Z 1' are not points"), "%s", err);
    cr_expect(strstr(err, "unknown.sgf: move 24: 'swap' is not a YINSH command"), "%s", err);
    cr_expect(strstr(err, "turn.sgf: move 24: "), "%s", err);
    cr_expect(strstr(err, "missing.sgf: cannot open"), "%s", err);
    cr_expect(strstr(err, "two.sgf: more than one game in the file"), "%s", err);
    cr_expect(strstr(err, "6 of 7 files refused"), "%s", err);
    cr_expect_str_eq(query1(db, "SELECT count(*) || ' ' || min(name) FROM run"),
                     "1 import-Y-DrMih-Dumbot-2026-02-20-0858");
    cr_expect_str_eq(query1(db, "SELECT count(*) FROM game"), "1");
}

Test(import, export_then_import_gives_the_same_actions)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "d.db"), *db2 = path_in(dir, "e.db"), *sgf = path_in(dir, "sgf/"),
         *err;
    /* game 6 of seed 11 has a row that its mover made for the opponent
     * (states r and x): the other player removes it, mid-turn */
    cr_assert_eq(yinsh_run(dir, ARGS("selfplay", "--games", "8", "--agent", "random", "--seed", "11", "--db", db,
                                      "--run", "self", "--quiet"),
                           NULL, &err),
                 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, ARGS("import", "--format", "boardspace", SGF, "--db", db), NULL, &err), 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, ARGS("export", "--db", db, "--format", "boardspace", "--out", sgf), NULL, &err), 0,
                 "%s", err);
    char *files[9];
    for (int i = 0; i < 8; i++) {
        char name[32];
        snprintf(name, sizeof name, "self-%06d.sgf", i);
        files[i] = path_in(sgf, name);
    }
    files[8] = path_in(sgf, "import-Y-DrMih-Dumbot-2026-02-20-0858-000000.sgf");
    cr_assert_eq(yinsh_run(dir, ARGS("import", "--format", "boardspace", files[8], files[0], files[1], files[2],
                                     files[3], files[4], files[5], files[6], files[7], "--db", db2),
                           NULL, &err),
                 0, "%s", err);
    /* the same games in the same order: the imported one first in both */
    const char *by_name = "SELECT group_concat(a, ' | ') FROM (SELECT (SELECT group_concat(action, ' ') FROM "
                          "(SELECT action FROM action WHERE game_id = game.id ORDER BY ply)) AS a FROM game JOIN run "
                          "ON run.id = game.run_id ORDER BY run.name, idx)";
    char *a = query1(db, by_name), *b = query1(db2, by_name);
    cr_expect(strlen(a) > 100);
    cr_expect_str_eq(query1(db2, "SELECT count(*) > 0 FROM action WHERE state IN ('r', 'x')"), "1");
    cr_expect_str_eq(b, a);
    cr_expect_str_eq(query1(db2, "SELECT group_concat(result || reason, ',') FROM (SELECT result, reason FROM game "
                                 "JOIN run ON run.id = game.run_id ORDER BY run.name, idx)"),
                     query1(db, "SELECT group_concat(result || reason, ',') FROM (SELECT result, reason FROM game "
                                "JOIN run ON run.id = game.run_id ORDER BY run.name, idx)"));
    cr_expect_str_eq(query1(db2, "SELECT white FROM run WHERE name = 'import-Y-DrMih-Dumbot-2026-02-20-0858'"),
                     "boardspace:DrMih");
}
