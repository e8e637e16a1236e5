#define _GNU_SOURCE /* nftw, in test_proc.h */
/* The board drawing and the viewer's site, without a browser (the browser
 * test, tests/browser/, clicks through the site; svg_check.sh parses
 * `yinsh svg` as XML):
 *
 *   - the marks of every action of many random games: each action is
 *     accepted as the last one of the position it made, and the markers
 *     it marks as flipped or removed are those make flipped or removed;
 *     actions that cannot have made a position are refused;
 *   - `yinsh svg` and `yinsh view` as processes: pages for every selected
 *     game with the positions the engine gives, the folder's other files
 *     kept, old pages gone, the marker in a site's folders (.yinsh-view),
 *     and failures (an unknown run, no games, a full disk, bad options)
 *     that leave the folder as it was. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <signal.h>
#include <sys/resource.h>
#include "study/viewer/board_svg.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/base/rng.h"
#include "tests/test_proc.h"

/* ---- marks ------------------------------------------------------------- */

/* The places of marks of one kind, as a set of points. */
static Bitboard marked(const BoardMark *m, int n, const char *kinds)
{
    Bitboard b = 0;
    for (int i = 0; i < n; i++)
        if (strchr(kinds, m[i].kind) && m[i].at < SQUARE_NB) b |= bb_bit(m[i].at);
    return b;
}

Test(marks, every_action_of_random_games)
{
    char err[ERR_LEN];
    int kinds[ACT_SWAP + 1] = {0};
    for (uint64_t seed = 1; seed <= 300; seed++) {
        Rng rng;
        rng_seed(&rng, seed, 0);
        Position pos;
        pos_start(&pos, (seed % 3 ? VARIANT_STANDARD : VARIANT_BLITZ) | (seed % 2 ? VARIANT_SWAP : 0));
        Action list[MAX_ACTIONS];
        int n;
        while ((n = movegen_all(&pos, list)) > 0) {
            Action a = list[rng_below(&rng, (uint32_t)n)];
            Undo u;
            pos_make(&pos, a, &u);
            BoardMark m[BOARD_MARKS_MAX];
            int nm = 0;
            cr_assert_eq(board_last_marks(&pos, a, m, &nm, err), 0, "seed %lu: %s", (unsigned long)seed, err);
            int kind = ACTION_KIND(a);
            kinds[kind]++;
            switch (kind) {
            case ACT_MOVE:
                cr_assert_eq(m[0].kind, 'p');
                cr_assert(marked(m, nm, "f") == u.flips, "seed %lu: flipped markers", (unsigned long)seed);
                break;
            case ACT_ROW:
                cr_assert_eq(m[0].kind, 'r');
                cr_assert(marked(m, nm, pos.actor == WHITE ? "x" : "y") == u.flips, "removed markers");
                cr_assert_eq(nm, 6);
                break;
            case ACT_PLACE: cr_assert(nm == 1 && m[0].kind == 'n' && m[0].at == ACTION_FROM(a)); break;
            case ACT_RING: cr_assert(nm == 1 && m[0].kind == 'z' && m[0].at == ACTION_FROM(a)); break;
            case ACT_PASS: cr_assert_eq(nm, 0); break;
            case ACT_SWAP: cr_assert(nm == 1 && m[0].kind == 'n' && m[0].at == bb_lsb(pos.rings[BLACK])); break;
            }
            /* the slots: one ring per ring removed */
            int before = nm;
            board_slot_marks(&pos, m, &nm);
            cr_assert_eq(nm - before, pos.removed[WHITE] + pos.removed[BLACK]);
        }
    }
    cr_assert(kinds[ACT_MOVE] && kinds[ACT_ROW] && kinds[ACT_RING] && kinds[ACT_PLACE], "every kind of action drawn");
}

/* A swap after each of White's 85 first rings: the ring, Black's now,
 * is marked; a swap is refused where none can have been made. */
Test(marks, swap_after_every_first_ring)
{
    char err[ERR_LEN];
    for (int variant = VARIANT_STANDARD | VARIANT_SWAP; variant <= (VARIANT_BLITZ | VARIANT_SWAP); variant++) {
        Position start;
        pos_start(&start, variant);
        Action list[MAX_ACTIONS];
        int n = movegen_all(&start, list);
        cr_assert_eq(n, 85);
        for (int i = 0; i < n; i++) {
            Position pos = start;
            Undo u;
            pos_make(&pos, list[i], &u);
            cr_assert(movegen_is_legal(&pos, ACTION_SWAP));
            pos_make(&pos, ACTION_SWAP, &u);
            BoardMark m[BOARD_MARKS_MAX];
            int nm = 0;
            cr_assert_eq(board_last_marks(&pos, ACTION_SWAP, m, &nm, err), 0, "%s", err);
            cr_assert(nm == 1 && m[0].kind == 'n' && m[0].at == ACTION_FROM(list[i]));
        }
    }
}

/* The position of a YPN and an action text that cannot have made it. */
static void refused(const char *ypn, const char *last, const char *word)
{
    Position pos;
    char err[ERR_LEN];
    Action a;
    cr_assert_eq(ypn_parse(ypn, &pos, err), 0, "%s", err);
    cr_assert_eq(action_parse_form(last, &a, err), 0, "%s", err);
    BoardMark m[BOARD_MARKS_MAX];
    int n = 0;
    cr_assert_neq(board_last_marks(&pos, a, m, &n, err), 0, "%s accepted after %s", last, ypn);
    cr_assert(strstr(err, word), "%s: '%s' does not say '%s'", last, err, word);
}

Test(marks, actions_that_do_not_fit)
{
    const char *placed = "4/7/8/9/4W5/9/10/9/8/7/4 b P standard";
    refused(placed, "e6", "no ring on e6");
    refused(placed, "xe5", "not empty");
    /* the position after the placements of docs/notation.md §6, then h6-h8: a
     * white ring on h8, a white marker on h6 */
    const char *moved = "4/7/5B2/6B2/8BW/6B2/4B1W2W/3w1W2W/8/7/4 b M standard";
    refused(moved, "h6-h9", "no ring there");
    refused(moved, "h5-h8", "leaves a");
    refused(moved, "e6-h8", "not on one line");
    refused(moved, "xe2-e6", "state X or x");
    refused(moved, "xc2-c7", "not the ends of a row of 5");
    refused(placed, "pass", "other player's move");
    refused("4/7/8/9/10/9/10/9/8/7/4 w P standard", "xe5", "while rings are placed");
    /* a swap leaves Black one ring and White to place, in a +swap variant */
    refused(placed, "swap", "a swap leaves Black one ring");
    refused("4/7/8/9/4W5/9/10/9/8/7/4 b P standard+swap", "swap", "a swap leaves Black one ring");
    refused("4/7/8/9/4W4B/9/10/9/8/7/4 w P standard+swap", "swap", "a swap leaves Black one ring");
}

Test(marks, status_lines)
{
    char text[BOARD_TEXT_LEN];
    Position pos;
    char err[ERR_LEN];
    cr_assert_eq(ypn_parse("4/7/8/9/10/9/10/9/8/7/4 w P standard", &pos, err), 0);
    cr_assert_str_eq(board_status_text(board_status(&pos), text), "White to place a ring");
    cr_assert_eq(ypn_parse("4/2b4/5b2/4B1b2/4b2Bb1/7W1/4b5/4Wwwww/4b1W1/7/4 b - standard", &pos, err), 0, "%s", err);
    cr_assert_str_eq(board_status_text(board_status(&pos), text), "Black wins: three rings removed");
    for (int code = 0; code < BOARD_STATUS_NB; code++) cr_assert_neq(strlen(board_status_text(code, text)), 0);
}

/* ---- yinsh svg ---------------------------------------------------------- */

Test(svg, command)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *four[] = {"svg", "4/7/8/9/4W5/9/10/9/8/7/4", "b", "P", "standard", "--last", "e5", "--size", "300", NULL};
    cr_assert_eq(yinsh_run(dir, four, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "width=\"300\" height=\"353\""), "%s", out);
    cr_assert(strstr(out, "class=\"placed\""));
    cr_assert(strstr(out, ">Black to place a ring<"));
    cr_assert(strstr(out, ">last: e5<"));
    const char *bad_ypn[] = {"svg", "4/7/8/9/10/9/10/9/8/7/4 w Q standard", NULL};
    expect_exit(dir, bad_ypn, 1, "invalid position");
    const char *bad_last[] = {"svg", "4/7/8/9/4W5/9/10/9/8/7/4 b P standard", "--last", "e6", NULL};
    expect_exit(dir, bad_last, 1, "no ring on e6");
    const char *not_action[] = {"svg", "4/7/8/9/4W5/9/10/9/8/7/4 b P standard", "--last", "z9", NULL};
    expect_exit(dir, not_action, 1, "last action 'z9'");
    const char *small[] = {"svg", "4/7/8/9/4W5/9/10/9/8/7/4 b P standard", "--size", "10", NULL};
    expect_exit(dir, small, 2, "--size");
    const char *none[] = {"svg", NULL};
    expect_exit(dir, none, 2, "missing YPN");
    const char *extra[] = {"svg", "4/7/8/9/4W5/9/10/9/8/7/4 b P standard", "e5", NULL};
    expect_exit(dir, extra, 2, "unexpected argument");
    /* after a swap: Black's ring marked, White to place */
    const char *swap[] = {"svg", "4/7/8/9/6B3/9/10/9/8/7/4 w P standard+swap", "--last", "swap", NULL};
    cr_assert_eq(yinsh_run(dir, swap, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "class=\"placed\"") && strstr(out, ">last: swap<"), "%s", out);
}

/* ---- yinsh view ----------------------------------------------------------- */

static char *make_db(const char *dir)
{
    char *db = path_in(dir, "t.db"), *err;
    const char *a[] = {"selfplay", "--games", "5", "--agent", "mcts:sims=20", "--seed", "3", "--run", "std", "--db", db,
                       "--quiet", NULL};
    const char *b[] = {"selfplay", "--games", "4", "--agent", "random", "--variant", "blitz", "--seed", "4", "--run",
                       "blitz", "--db", db, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, a, NULL, &err), 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, b, NULL, &err), 0, "%s", err);
    return db;
}

/* The entries of a folder, sorted, joined by spaces. */
static char *listing(const char *path)
{
    struct dirent **names;
    int n = scandir(path, &names, NULL, alphasort);
    if (n < 0) return gc(strdup("(none)"));
    char *s = gc(calloc(1, (size_t)n * 300 + 1));
    for (int i = 0; i < n; i++) {
        if (strcmp(names[i]->d_name, ".") && strcmp(names[i]->d_name, "..")) {
            strcat(s, names[i]->d_name);
            strcat(s, " ");
        }
        free(names[i]);
    }
    free(names);
    return s;
}

/* The YPN after every stored action of a game, by the engine. */
static void final_ypn(sqlite3 *h, long long id, char *ypn)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT variant FROM game WHERE id = %lld", id);
    int variant;
    cr_assert(variant_parse(db_text(h, sql), &variant));
    Position pos;
    pos_start(&pos, variant);
    sqlite3_stmt *st;
    snprintf(sql, sizeof sql, "SELECT action FROM action WHERE game_id = %lld ORDER BY ply", id);
    cr_assert_eq(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
    char err[ERR_LEN];
    while (sqlite3_step(st) == SQLITE_ROW) {
        Action a;
        Undo u;
        cr_assert_eq(action_parse(&pos, (const char *)sqlite3_column_text(st, 0), &a, err), 0, "%s", err);
        pos_make(&pos, a, &u);
    }
    sqlite3_finalize(st);
    ypn_format(&pos, ypn);
}

Test(view, site)
{
    char *dir = tmpdir_new(), *db = make_db(dir), *site = path_in(dir, "site"), *err;
    /* a file of the user's in the folder stays */
    mkdir(site, 0777);
    FILE *f = fopen(path_in(site, "notes.txt"), "w");
    fputs("mine\n", f);
    fclose(f);
    const char *all[] = {"view", "--db", db, "--out", site, NULL};
    cr_assert_eq(yinsh_run(dir, all, NULL, &err), 0, "%s", err);
    cr_assert(strstr(err, "9 games"), "%s", err);
    cr_assert_str_eq(listing(site), ".yinsh-view board.js games index.html notes.txt viewer.css viewer.js ");
    sqlite3 *h = db_open(db);
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(h, "SELECT id, actions FROM game", -1, &st, NULL), SQLITE_OK);
    int pages = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        long long id = sqlite3_column_int64(st, 0);
        char name[64], ypn[YPN_MAX_LEN], frame[YPN_MAX_LEN + 8];
        snprintf(name, sizeof name, "games/%lld.html", id);
        char *page = slurp(path_in(site, name));
        cr_assert(strstr(page, "YinshView.game("), "%s is not a game page", name);
        final_ypn(h, id, ypn);
        snprintf(frame, sizeof frame, "[\"%s\", ", ypn);
        cr_assert(strstr(page, frame), "%s does not end in %s", name, ypn);
        pages++;
    }
    sqlite3_finalize(st);
    cr_assert_eq(pages, 9);
    cr_assert_str_eq(listing(path_in(site, "games")),
                     ".yinsh-view 1.html 2.html 3.html 4.html 5.html 6.html 7.html 8.html 9.html ");
    char *index = slurp(path_in(site, "index.html"));
    cr_assert(strstr(index, "\"name\": \"std\"") && strstr(index, "\"name\": \"blitz\""));

    /* one run: the other run's pages go, the user's file stays */
    const char *one[] = {"view", "--db", db, "--run", "blitz", "--out", site, NULL};
    cr_assert_eq(yinsh_run(dir, one, NULL, &err), 0, "%s", err);
    cr_assert_str_eq(listing(path_in(site, "games")), ".yinsh-view 6.html 7.html 8.html 9.html ");
    cr_assert_str_eq(listing(site), ".yinsh-view board.js games index.html notes.txt viewer.css viewer.js ");
    cr_assert_str_eq(slurp(path_in(site, "notes.txt")), "mine\n");
    char *before = slurp(path_in(site, "index.html"));

    /* failures leave the site as it was */
    const char *unknown[] = {"view", "--db", db, "--run", "nope", "--out", site, NULL};
    expect_exit(dir, unknown, 1, "no run named 'nope'");
    sqlite3_exec(h, "DELETE FROM action WHERE game_id IN (SELECT game.id FROM game JOIN run ON run.id = game.run_id "
                    "WHERE run.name = 'std'); DELETE FROM game WHERE run_id = (SELECT id FROM run WHERE name = 'std')",
                 NULL, NULL, NULL);
    const char *empty[] = {"view", "--db", db, "--run", "std", "--out", site, NULL};
    expect_exit(dir, empty, 1, "no games");
    /* a stored action that is not legal where it stands */
    sqlite3_exec(h, "UPDATE action SET action = 'e5-e8' WHERE ply = 3 AND game_id = 7", NULL, NULL, NULL);
    const char *tampered[] = {"view", "--db", db, "--out", site, NULL};
    expect_exit(dir, tampered, 1, "game 7: action 4");
    sqlite3_close(h);
    cr_assert_str_eq(slurp(path_in(site, "index.html")), before);
    cr_assert_str_eq(listing(path_in(site, "games")), ".yinsh-view 6.html 7.html 8.html 9.html ");
    cr_assert_str_eq(listing(site), ".yinsh-view board.js games index.html notes.txt viewer.css viewer.js ");

    const char *no_db[] = {"view", "--db", path_in(dir, "none.db"), "--out", site, NULL};
    expect_exit(dir, no_db, 1, NULL);
    const char *empty_out[] = {"view", "--db", db, "--out", "", NULL};
    expect_exit(dir, empty_out, 2, "--out");
    const char *bad_opt[] = {"view", "--db", db, "--games", "3", NULL};
    expect_exit(dir, bad_opt, 2, "unknown option");
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

/* A site that cannot be written whole leaves the folder as it was, with
 * no staging folder: the first file cut (board.js, at 1,500 bytes), and
 * a later one (viewer.js, at 16,000 bytes, after board.js was written). */
Test(view, full_disk)
{
    char *dir = tmpdir_new(), *db = make_db(dir), *site = path_in(dir, "site"), *err;
    const char *args[] = {"view", "--db", db, "--out", site, NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    char *index = slurp(path_in(site, "index.html")), *games = listing(path_in(site, "games"));
    /* a rollback journal: reading writes nothing (WAL would need a -shm file) */
    sqlite3 *h = db_open(db);
    cr_assert_str_eq(db_text(h, "PRAGMA journal_mode=DELETE"), "delete");
    sqlite3_close(h);
    uintptr_t limits[] = {1500, 16000};
    for (int i = 0; i < 2; i++) {
        int rc = yinsh_wait(yinsh_spawn(dir, "/dev/null", NULL, limit_files, (void *)limits[i], args));
        err = slurp(path_in(dir, "err"));
        cr_assert_eq(rc, 1, "limit %lu: exit %d: %s", (unsigned long)limits[i], rc, err);
        cr_assert(strstr(err, "cannot write"), "%s", err);
        cr_assert_str_eq(listing(site), ".yinsh-view board.js games index.html viewer.css viewer.js ");
        cr_assert_str_eq(listing(path_in(site, "games")), games);
        cr_assert_str_eq(slurp(path_in(site, "index.html")), index);
    }
}

/* Text from the database (run names, agent specs, commands) cannot end
 * the script element its page's data sits in. */
Test(view, text_stays_data)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "t.db"), *site = path_in(dir, "site"), *err;
    const char *play[] = {"selfplay", "--games", "1", "--agent", "random", "--seed", "1", "--db", db, "--run",
                          "a</script><script>alert(1)</script>&\"'", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, play, NULL, &err), 0, "%s", err);
    const char *view[] = {"view", "--db", db, "--out", site, NULL};
    cr_assert_eq(yinsh_run(dir, view, NULL, &err), 0, "%s", err);
    const char *pages[] = {"index.html", "games/1.html"};
    for (int i = 0; i < 2; i++) {
        char *page = slurp(path_in(site, pages[i]));
        cr_assert(strstr(page, "a\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\\u0026\\\"'"),
                  "%s: the name is not escaped: %s", pages[i], page);
        cr_assert_null(strstr(page, "alert(1)</script>"), "%s", pages[i]);
    }
}

/* A site of games that swapped: every page written, the swap a step of
 * its game like any other action. */
Test(view, games_with_a_swap)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "t.db"), *site = path_in(dir, "site"), *err;
    const char *play[] = {"selfplay", "--games", "30", "--agent", "random", "--variant", "standard+swap", "--seed", "2",
                          "--db", db, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, play, NULL, &err), 0, "%s", err);
    sqlite3 *h = db_open(db);
    const char *swapped = db_text(h, "SELECT min(game_id) FROM action WHERE action = 'swap'");
    cr_assert(swapped && *swapped, "no game of the 30 swapped: the test needs one");
    char name[64];
    snprintf(name, sizeof name, "games/%s.html", swapped);
    sqlite3_close(h);
    const char *view[] = {"view", "--db", db, "--out", site, NULL};
    cr_assert_eq(yinsh_run(dir, view, NULL, &err), 0, "%s", err);
    cr_assert(strstr(err, "30 games"), "%s", err);
    cr_assert(strstr(slurp(path_in(site, name)), "\"swap\""), "%s does not show the swap", name);
}

/* ---- the viewer replaces only what it wrote ------------------------------- */

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
