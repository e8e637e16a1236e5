#define _GNU_SOURCE /* nftw, in test_proc.h */
/* The balance report's pictures and their data: the data files of
 * `yinsh report` on a tiny self-play database against SQL (lengths,
 * strength, the first ring), the first ring's classes and the note that
 * names the thin ones, the picture data of a report made by hand, every
 * rule variant's name reaching the pictures whole, and a report without
 * pictures leaving no earlier drawing. */
#include <math.h>
#include "engine/notation.h"
#include "selfplay/stats/stats.h"
#include "selfplay/store/store.h"
#include "study/report/report.h"
#include "tests/report_helpers.h"

/* The thin classes of a variant's first-ring map as SQL counts them,
 * for a database whose variant holds one pair (the map's top pair): the
 * classes (report_point_class) of the board's points with fewer than
 * REPORT_MIN_POINT_GAMES first rings on their points together (*empty:
 * with none). */
static int sql_thin_classes(sqlite3 *h, const char *variant, int *empty)
{
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT action.action, count(*) FROM game JOIN action ON action.game_id = game.id AND action.ply = 0 "
             "WHERE game.variant = '%s' GROUP BY action.action", variant);
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
    long long games[REPORT_CLASS_NB] = {0};
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        Point pt;
        cr_assert(point_parse(name, strlen(name), &pt), "a first ring at '%s'", name);
        games[report_point_class(pt)] += sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    int thin = 0;
    *empty = 0;
    for (int k = 0; k < REPORT_CLASS_NB; k++) {
        thin += games[k] < REPORT_MIN_POINT_GAMES;
        *empty += games[k] == 0;
    }
    return thin;
}

/* The note of the first-ring map in the Markdown, as the report should
 * write it for a variant with thin classes of 11, empty of them empty. */
static char *thin_note(const char *title, int thin, int empty)
{
    char *want = gc(malloc(256));
    snprintf(want, 256, "**%s: too few games in %d of the %d classes** (fewer than %d games each; %d with none).",
             title, thin, REPORT_CLASS_NB, REPORT_MIN_POINT_GAMES, empty);
    return want;
}

/* ---- the report as a process ---------------------------------------- */

/* A report written without pictures leaves no earlier drawing's
 * gnuplot.log beside it (its messages are not this report's). */
Test(report, no_plots_removes_an_old_drawing)
{
    /* a report without pictures leaves none of an earlier report's beside
     * it: its pictures, their data and gnuplot's messages go; a file the
     * report never writes, and a link, stay */
    char *dir = tmpdir_new(), *db = tiny_db(dir), *out = path_in(dir, "rep"), *se;
    cr_assert_eq(mkdir(out, 0777), 0);
    write_in(out, "gnuplot.log", "line 3: an old drawing's error\n");
    write_in(out, "lengths.png", "an old picture\n");
    write_in(out, "lengths-blitz.dat", "1 2\n");
    write_in(out, "notes.txt", "the user's own\n");
    write_in(dir, "kept.png", "the user's own picture\n");
    cr_assert_eq(symlink(path_in(dir, "kept.png"), path_in(out, "linked.png")), 0);
    cr_assert_eq(yinsh_run(dir, ARGS("report", "--db", db, "--out", out, "--no-plots", "--quiet"), NULL, &se), 0,
                 "%s", se);
    cr_expect_not(file_exists(path_in(out, "gnuplot.log")));
    cr_expect_not(file_exists(path_in(out, "lengths.png")), "an old picture stayed beside a report without one");
    cr_expect_not(file_exists(path_in(out, "lengths-blitz.dat")));
    cr_expect(file_exists(path_in(out, "notes.txt")), "a file the report does not write was removed");
    struct stat sb;
    cr_expect(lstat(path_in(out, "linked.png"), &sb) == 0 && S_ISLNK(sb.st_mode), "a link was removed");
    cr_expect(file_exists(path_in(dir, "kept.png")));
    cr_expect(file_exists(path_in(out, "report.md")));
    char *md = slurp(path_in(out, "report.md"));
    cr_expect_not(strstr(md, ".png)"), "a report without pictures links one");
}

/* The pictures and their data; gnuplot is part of the setup
 * (scripts/setup.sh), so a machine without it fails here, saying so,
 * rather than skipping the pictures' checks. */
Test(report, pictures)
{
    cr_assert_eq(system("command -v gnuplot >/dev/null 2>&1"), 0,
                 "gnuplot is not installed: run scripts/setup.sh (it installs gnuplot-nox) to test the pictures");
    char *dir = tmpdir_new(), *db = tiny_db(dir), *out = path_in(dir, "rep"), *se;
    const char *args[] = {"report", "--db", db, "--out", out, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &se), 0, "report: %s", se);
    char *md = slurp(path_in(out, "report.md"));
    /* the data files are written whether or not gnuplot is there */
    cr_expect(file_nonempty(path_in(out, "strength.dat")));
    cr_expect(file_nonempty(path_in(out, "lengths-standard.dat")));
    cr_expect(file_nonempty(path_in(out, "first-ring-blitz.dat")));
    int points = 0;
    for (const char *c = slurp(path_in(out, "first-ring-standard.dat")); *c; c = strchr(c, '\n') + 1) {
        points += *c != '#';
        if (!strchr(c, '\n')) break;
    }
    cr_expect_eq(points, 85, "the board's 85 points");
    /* without a ladder: no ladder data */
    cr_expect(!file_exists(path_in(out, "ladder.dat")) && !file_exists(path_in(out, "ladder-levels.dat")));
    /* the pictures */
    cr_expect(file_nonempty(path_in(out, "strength.png")), "%s", slurp(path_in(out, "gnuplot.log")));
    cr_expect(file_nonempty(path_in(out, "lengths.png")), "%s", slurp(path_in(out, "gnuplot.log")));
    cr_expect(file_nonempty(path_in(out, "first-ring.png")), "%s", slurp(path_in(out, "gnuplot.log")));
    cr_expect(strstr(md, "![White's score against MCTS simulations](strength.png)"));
    cr_expect(strstr(md, "](lengths.png)") && strstr(md, "Each variant every pair of agents, side by side."), "%s",
              section(md, "## Pictures"));
    cr_expect(strstr(md, "](first-ring.png)") && !strstr(md, "pictures failed"), "%s",
              slurp(path_in(out, "gnuplot.log")));
    /* 100 games over 11 classes: the map says some are thin (the centre's, of one point, surely) */
    sqlite3 *h = db_open(db);
    int empty, thin = sql_thin_classes(h, "standard", &empty);
    cr_expect_gt(thin, 0);
    cr_expect(strstr(md, thin_note("Standard", thin, empty)), "%s", section(md, "## Pictures"));
    sqlite3_close(h);
    /* without gnuplot: the Markdown, exit 0, and a note that says so */
    char *out2 = path_in(dir, "rep2");
    const char *args2[] = {"report", "--db", db, "--out", out2, "--quiet", NULL};
    cr_assert_eq(yinsh_run_env(dir, "/nonexistent", args2, NULL, &se), 0, "report: %s", se);
    md = slurp(path_in(out2, "report.md"));
    cr_expect(strstr(md, "Pictures skipped: gnuplot is not installed"), "%s", md);
    cr_expect(!strstr(md, "](strength.png)"));
    cr_expect(!file_nonempty(path_in(out2, "strength.png")));
}

/* The n-th shortest game (0-based) of a variant, by SQL. */
static long long sql_nth_length(sqlite3 *h, const char *variant, long long n)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT actions FROM game WHERE variant = '%s' ORDER BY actions LIMIT 1 OFFSET %lld",
             variant, n);
    return db_int(h, sql);
}

/* lengths-VARIANT.dat without a ladder: a row per pair (here one,
 * random against itself), "x elo q10 q25 median q75 q90 mean games main
 * label", the quantiles by nearest rank (the ceil(q n)-th shortest game)
 * and the median as SQL orders the games' lengths. */
Test(report, lengths_data)
{
    char *dir = tmpdir_new(), *db = tiny_db(dir), *out = path_in(dir, "rep"), *se;
    const char *args[] = {"report", "--db", db, "--out", out, "--quiet", NULL};
    /* without gnuplot: the data files are written all the same */
    cr_assert_eq(yinsh_run_env(dir, "/nonexistent", args, NULL, &se), 0, "report: %s", se);
    sqlite3 *h = db_open(db);
    const char *const VARIANTS[] = {"standard", "blitz"};
    for (int v = 0; v < 2; v++) {
        char name[64], sql[256];
        snprintf(name, sizeof name, "lengths-%s.dat", VARIANTS[v]);
        const char *text = slurp(path_in(out, name)), *row = text;
        while (*row == '#') row = strchr(row, '\n') + 1;
        snprintf(sql, sizeof sql, "SELECT count(*) FROM game WHERE variant = '%s'", VARIANTS[v]);
        long long n = db_int(h, sql);
        long long q[5];
        const double QS[5] = {0.1, 0.25, 0.5, 0.75, 0.9};
        for (int k = 0; k < 5; k++) q[k] = sql_nth_length(h, VARIANTS[v], (long long)ceil(QS[k] * (double)n) - 1);
        double median = 0.5 * (double)(sql_nth_length(h, VARIANTS[v], (n - 1) / 2) + sql_nth_length(h, VARIANTS[v], n / 2));
        snprintf(sql, sizeof sql, "SELECT avg(actions) FROM game WHERE variant = '%s'", VARIANTS[v]);
        char want[256];
        snprintf(want, sizeof want, "1.00 NaN %lld %lld %.1f %lld %lld %.2f %lld 1 \"random\"\n", q[0], q[1], median, q[3],
                 q[4], db_double(h, sql), n);
        cr_expect_str_eq(row, want, "%s:\n%s", name, text);
    }
    sqlite3_close(h);
}

/* strength.dat: per point the games (the n the picture prints) and the
 * score with its interval from SQL counts; random play at 0 simulations
 * and first in its block, apart from the MCTS levels. */
Test(report, strength_data)
{
    char *dir = tmpdir_new(), *db = tiny_db(dir), *out = path_in(dir, "rep"), *se;
    const char *mcts[] = {"selfplay", "--games", "6", "--agent", "mcts:sims=8", "--seed", "14", "--run", "mcts-a",
                          "--db", db, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, mcts, NULL, &se), 0, "selfplay: %s", se);
    const char *args[] = {"report", "--db", db, "--out", out, "--quiet", NULL};
    cr_assert_eq(yinsh_run_env(dir, "/nonexistent", args, NULL, &se), 0, "report: %s", se);
    const char *text = slurp(path_in(out, "strength.dat"));
    const char *blitz = strstr(text, "\n# blitz\n");
    cr_assert(blitz, "no blitz block in:\n%s", text);
    sqlite3 *h = db_open(db);
    struct {
        const char *variant, *spec, *label, *sims;
    } const POINTS[] = {
        {"standard", "random", "random", "0"},
        {"standard", "mcts:sims=8%", "mcts:sims=8", "8"},
        {"blitz", "random", "random", "0"},
    };
    const char *at[3];
    for (int i = 0; i < 3; i++) {
        char where[256], want[256];
        snprintf(where, sizeof where, "game.white LIKE '%s' AND game.black = game.white", POINTS[i].spec);
        long long n, w, b, d;
        sql_results(h, POINTS[i].variant, where, &n, &w, &b, &d);
        cr_assert_gt(n, 0, "%s in %s", POINTS[i].spec, POINTS[i].variant);
        Interval s = stats_score((uint64_t)w, (uint64_t)d, (uint64_t)b);
        snprintf(want, sizeof want, "\n%s %.5f %.5f %.5f %lld \"%s\"\n", POINTS[i].sims, s.mid, s.lo, s.hi, n,
                 POINTS[i].label);
        at[i] = strstr(text, want);
        cr_expect(at[i], "want the row '%s' in:\n%s", want + 1, text);
        if (at[i]) cr_expect((at[i] > blitz) == !strcmp(POINTS[i].variant, "blitz"), "'%s' in its block", want + 1);
    }
    cr_expect(at[0] && at[1] && at[0] < at[1], "random play first in its block:\n%s", text);
    sqlite3_close(h);
}

/* The Markdown says how many classes of the first-ring map (the top
 * pair's games, pooled by class) have too few games, per variant, as SQL
 * counts them; once every class has enough, it says that instead. */
Test(report, first_ring_note)
{
    char *dir = tmpdir_new(), *db = tiny_db(dir);
    Report rep;
    char err[ERR_LEN];
    cr_assert_eq(report_load(&rep, db, STORE_BUSY_MS, &(StoreSelection){0}, err), 0, "%s", err);
    ReportPictures pics = {.first_ring = true};
    char *md;
    size_t len;
    FILE *f = open_memstream(&md, &len);
    report_write_markdown(&rep, "yinsh report", &pics, f);
    fclose(f);
    gc(md);
    sqlite3 *h = db_open(db);
    int thin, empty;
    thin = sql_thin_classes(h, "standard", &empty);
    cr_expect(strstr(md, thin_note("Standard", thin, empty)), "want '%s' in:\n%s", thin_note("Standard", thin, empty),
              section(md, "## Pictures"));
    thin = sql_thin_classes(h, "blitz", &empty);
    cr_expect(strstr(md, thin_note("Blitz", thin, empty)), "want '%s' in:\n%s", thin_note("Blitz", thin, empty),
              section(md, "## Pictures"));
    sqlite3_close(h);

    /* enough games in every class of standard's top pair (the other 36
     * squares of the embedding are no points: what they hold must not
     * count) */
    ReportPair *top = (ReportPair *)report_headline(&rep, VARIANT_STANDARD);
    cr_assert(top);
    for (int pt = 0; pt < SQUARE_NB; pt++) top->first[pt][RESULT_DRAW] += REPORT_MIN_POINT_GAMES;
    f = open_memstream(&md, &len);
    report_write_markdown(&rep, "yinsh report", &pics, f);
    fclose(f);
    gc(md);
    char want[128];
    snprintf(want, sizeof want, "Standard: every class has at least %d games.", REPORT_MIN_POINT_GAMES);
    cr_expect(strstr(md, want), "want '%s' in:\n%s", want, section(md, "## Pictures"));
    cr_expect(!strstr(md, "**Standard: too few"), "%s", section(md, "## Pictures"));
    /* a game at every point: classes of 1, 6 and 12 games, all thin;
     * then e5's class (6 points) has 6 + 20 */
    memset(top->first, 0, SQUARE_NB * sizeof *top->first);
    for (int pt = 0; pt < SQUARE_NB; pt++) top->first[pt][RESULT_WHITE] = 1;
    f = open_memstream(&md, &len);
    report_write_markdown(&rep, "yinsh report", &pics, f);
    fclose(f);
    gc(md);
    cr_expect(strstr(md, thin_note("Standard", 11, 0)), "%s", section(md, "## Pictures"));
    Point e5;
    cr_assert(point_parse("e5", 2, &e5));
    top->first[e5][RESULT_BLACK] = REPORT_MIN_POINT_GAMES;
    f = open_memstream(&md, &len);
    report_write_markdown(&rep, "yinsh report", &pics, f);
    fclose(f);
    gc(md);
    cr_expect(strstr(md, thin_note("Standard", 10, 0)), "%s", section(md, "## Pictures"));
    report_free(&rep);
}

/* The first ring's classes: the 85 points in 11 classes of sizes 12, 12,
 * 6, 12, 6, 6, 12, 6, 6, 6, 1 (their first points a2, a3, b2, b3, b4,
 * c3, c4, d4, d5, e5, f6); the centre's six neighbours are one class. */
Test(report, first_ring_classes)
{
    static const char *const FIRST[REPORT_CLASS_NB] = {"a2", "a3", "b2", "b3", "b4", "c3", "c4", "d4", "d5", "e5", "f6"};
    static const int SIZE[REPORT_CLASS_NB] = {12, 12, 6, 12, 6, 6, 12, 6, 6, 6, 1};
    static const int DISTANCE[REPORT_CLASS_NB] = {5, 5, 4, 4, 4, 3, 3, 2, 2, 1, 0};
    Report rep = {0};
    Point pt;
    /* a2's class, by hand (docs/rules.md §1: a2 is x = -5, y = -4): turned
     * (x - y, x) = (-1, -5), e1; again (4, -1), j5; reflected (y, x) =
     * (-4, -5), b1; a5 (-5, -1) is the reflection of e1 */
    const char *const A2[] = {"a2", "e1", "j5", "b1", "a5"};
    for (int i = 0; i < 5; i++) {
        cr_assert(point_parse(A2[i], strlen(A2[i]), &pt));
        cr_expect_eq(report_point_class(pt), 0, "%s", A2[i]);
        rep.first[VARIANT_STANDARD][pt][RESULT_WHITE] += 1;
    }
    const char *const NEAR_CENTRE[] = {"e5", "e6", "f5", "f7", "g6", "g7"};
    for (int i = 0; i < 6; i++) {
        cr_assert(point_parse(NEAR_CENTRE[i], 2, &pt));
        cr_expect_eq(report_point_class(pt), 9, "%s", NEAR_CENTRE[i]);
        rep.first[VARIANT_STANDARD][pt][RESULT_DRAW] += 2;
    }
    ReportClass c[REPORT_CLASS_NB];
    report_classes(&rep, VARIANT_STANDARD, NULL, c);
    int total = 0;
    for (int k = 0; k < REPORT_CLASS_NB; k++) {
        char name[8];
        point_format(c[k].first, name);
        cr_expect_str_eq(name, FIRST[k]);
        cr_expect_eq(c[k].points, SIZE[k], "%s", FIRST[k]);
        cr_expect_eq(c[k].distance, DISTANCE[k], "%s", FIRST[k]);
        total += c[k].points;
    }
    cr_expect_eq(total, 85);
    cr_expect_eq(c[0].results[RESULT_WHITE], 5);
    cr_expect_eq(c[9].results[RESULT_DRAW], 12);
    cr_expect_eq(c[10].results[RESULT_WHITE] + c[10].results[RESULT_DRAW], 0);
}

/* The row of a point in first-ring-VARIANT.dat: the text after its x and
 * y, "score games point class class_score class_games first". */
static const char *ring_row(const char *text, const char *point)
{
    char key[16];
    snprintf(key, sizeof key, " %s ", point);
    for (const char *line = text; *line; line = strchr(line, '\n') + 1) {
        const char *eol = strchr(line, '\n');
        const char *at = strstr(line, key);
        if (line[0] != '#' && at && at < eol) {
            /* skip x and y */
            const char *c = strchr(strchr(line, ' ') + 1, ' ') + 1;
            return gc(strndup(c, (size_t)(eol - c)));
        }
        if (!eol) break;
    }
    cr_assert_fail("no row for %s in:\n%s", point, text);
    return NULL;
}

/* The picture data of a report made by hand, with no ladder: the first
 * ring at the top pair alone (the strongest by simulations, here
 * mcts:sims=100; random play's first rings must not count), pooled by
 * class: a2, e1 and j5 are one class (first_ring_classes), so its games
 * and score add theirs up and every point of it, b1 with no game of its
 * own too, carries them; the game lengths' quantiles by nearest rank. */
Test(report, picture_data_by_hand)
{
    ReportPair p[2] = {hand_pair(VARIANT_STANDARD, "random", 0, 50, 0),
                       hand_pair(VARIANT_STANDARD, "mcts:sims=100", 6, 3, 2)};
    p[0].strength = 1;
    p[1].strength = 100;
    Point pt;
    cr_assert(point_parse("a2", 2, &pt));
    p[0].first[pt][RESULT_BLACK] = 50;
    p[1].first[pt][RESULT_WHITE] = 5;
    cr_assert(point_parse("e1", 2, &pt));
    p[1].first[pt][RESULT_BLACK] = 3;
    cr_assert(point_parse("j5", 2, &pt));
    p[1].first[pt][RESULT_DRAW] = 2;
    cr_assert(point_parse("f6", 2, &pt));
    p[1].first[pt][RESULT_WHITE] = 1;
    /* 11 games of 10 20 20 30 30 30 40 50 60 90 100 actions: the 2nd, 3rd,
     * 6th, 9th and 10th shortest */
    memset(p[1].lengths, 0, (REPORT_MAX_LENGTH + 1) * sizeof *p[1].lengths);
    const int LENS[11] = {10, 20, 20, 30, 30, 30, 40, 50, 60, 90, 100};
    for (int i = 0; i < 11; i++) p[1].lengths[LENS[i]]++;
    Report rep = {.db = "hand.db", .pairs = p, .npairs = 2, .games = 61};
    char *dir = tmpdir_new(), err[ERR_LEN];
    ReportPictures pics;
    cr_assert_eq(report_draw(&rep, dir, NULL, &pics, err), 0, "%s", err);

    const char *ring = slurp(path_in(dir, "first-ring-standard.dat"));
    cr_expect(strstr(ring, "at the top: mcts:sims=100, 11 games"), "%s", ring);
    /* a2's class: 5 + 3 + 2 games, White's score (5 + 1) / 10 */
    cr_expect_str_eq(ring_row(ring, "a2"), "1.00000 5 a2 a2 0.60000 10 1");
    cr_expect_str_eq(ring_row(ring, "e1"), "0.00000 3 e1 a2 0.60000 10 0");
    cr_expect_str_eq(ring_row(ring, "j5"), "0.50000 2 j5 a2 0.60000 10 0");
    cr_expect_str_eq(ring_row(ring, "b1"), "NaN 0 b1 a2 0.60000 10 0");
    cr_expect_str_eq(ring_row(ring, "f6"), "1.00000 1 f6 f6 1.00000 1 1");
    cr_expect_str_eq(ring_row(ring, "e5"), "NaN 0 e5 e5 NaN 0 1");
    cr_expect_str_eq(ring_row(ring, "g7"), "NaN 0 g7 e5 NaN 0 0");

    const char *len = slurp(path_in(dir, "lengths-standard.dat"));
    cr_expect(strstr(len, "\n1.00 NaN 60 60 60.0 60 60 60.00 50 1 \"random\"\n"
                          "2.00 NaN 20 20 30.0 60 90 43.64 11 1 \"mcts:sims=100\"\n"),
              "%s", len);
    /* no ladder: White's score against simulations in its place */
    cr_expect(file_exists(path_in(dir, "strength.dat")) && !file_exists(path_in(dir, "ladder.dat")));
}

/* Every variant's name reaches the pictures whole: the four rules of
 * studies/rules.ini list 64 bytes of names ("standard standard+swap
 * standard+draw-odds standard+swap+draw-odds"), which a 64-byte list cut
 * to "standard+swap+draw-od": its data file was not found and the lengths
 * and first-ring pictures failed. */
Test(report, pictures_of_every_rule_variant)
{
    cr_assert_eq(system("command -v gnuplot >/dev/null 2>&1"), 0,
                 "gnuplot is not installed: run scripts/setup.sh (it installs gnuplot-nox) to test the pictures");
    const int V[4] = {VARIANT_STANDARD, VARIANT_STANDARD | VARIANT_SWAP, VARIANT_STANDARD | VARIANT_DRAW_ODDS,
                      VARIANT_STANDARD | VARIANT_SWAP | VARIANT_DRAW_ODDS};
    ReportPair p[4];
    for (int i = 0; i < 4; i++) {
        p[i] = hand_pair(V[i], "mcts:sims=100", 12, 10, V[i] & VARIANT_DRAW_ODDS ? 0 : 2);
        p[i].strength = 100;
        p[i].first[0][RESULT_WHITE] = p[i].results[RESULT_WHITE];
    }
    Report rep = {.db = "hand.db", .pairs = p, .npairs = 4, .games = 94};
    char *dir = tmpdir_new(), err[ERR_LEN];
    ReportPictures pics;
    cr_assert_eq(report_draw(&rep, dir, YINSH_SOURCE_DIR "/scripts/plots", &pics, err), 0, "%s", err);
    cr_expect(file_exists(path_in(dir, "lengths-standard+swap+draw-odds.dat")));
    cr_expect(pics.lengths && pics.first_ring, "%s\n%s", pics.note,
              file_exists(path_in(dir, "gnuplot.log")) ? slurp(path_in(dir, "gnuplot.log")) : "");
    cr_expect_str_eq(pics.note, "");
}
