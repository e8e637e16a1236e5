#define _GNU_SOURCE /* nftw, in test_proc.h */
/* The balance report: `yinsh report` as a process on a tiny database made
 * by a quick self-play run of random agents, its tables checked against
 * direct SQL counts; the Report functions against the same counts; empty
 * databases, selections without games and bad flags. Each test works in
 * its own temporary directory. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "engine/notation.h"
#include "report/report.h"
#include "stats/stats.h"
#include "store/store.h"
#include "test_proc.h"

/* ---- helpers ---------------------------------------------------------- */

/* The tiny database: two random self-play runs per variant (seeded, fast). */
static char *tiny_db(const char *dir)
{
    char *db = path_in(dir, "tiny.db");
    const char *const runs[][10] = {
        {"selfplay", "--games", "60", "--agent", "random", "--seed", "11", "--run", "std-a", NULL},
        {"selfplay", "--games", "40", "--agent", "random", "--seed", "12", "--run", "std-b", NULL},
        {"selfplay", "--games", "50", "--agent", "random", "--seed", "13", "--run", "blitz-a", NULL},
    };
    for (int i = 0; i < 3; i++) {
        const char *args[24];
        int n = 0;
        for (int k = 0; runs[i][k]; k++) args[n++] = runs[i][k];
        args[n++] = "--db";
        args[n++] = db;
        args[n++] = "--quiet";
        args[n++] = "--threads";
        args[n++] = "2";
        if (i == 2) {
            args[n++] = "--variant";
            args[n++] = "blitz";
        }
        args[n] = NULL;
        char *err;
        cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "selfplay: %s", err);
    }
    return db;
}

/* The table row of a variant's section for `random` against `random`:
 * the text after "| `random` | `random` | " in the section that follows
 * heading. */
static const char *random_row(const char *md, const char *heading)
{
    const char *sec = strstr(md, heading);
    cr_assert(sec, "no section '%s' in:\n%s", heading, md);
    const char *row = strstr(sec, "| `random` | `random` | ");
    cr_assert(row, "no random row after '%s'", heading);
    return row + strlen("| `random` | `random` | ");
}

/* Games of a variant over the selected runs (where: an SQL condition on
 * run) by result, counted directly in SQL. */
static void sql_results(sqlite3 *db, const char *variant, const char *where, long long *n, long long *w,
                        long long *b, long long *d)
{
    char sql[512];
#define COUNT(cond)                                                                                             \
    (snprintf(sql, sizeof sql,                                                                                  \
              "SELECT count(*) FROM game JOIN run ON run.id = game.run_id WHERE game.variant = '%s' AND %s%s", \
              variant, where, cond),                                                                            \
     db_int(db, sql))
    *n = COUNT("");
    *w = COUNT(" AND result = 'white'");
    *b = COUNT(" AND result = 'black'");
    *d = COUNT(" AND result = 'draw'");
#undef COUNT
}

/* Checks a variant's row against SQL counts over the selected runs. */
static void check_row(sqlite3 *db, const char *md, const char *heading, const char *variant, const char *where)
{
    char sql[512];
    long long n, w, b, d;
    sql_results(db, variant, where, &n, &w, &b, &d);
    snprintf(sql, sizeof sql,
             "SELECT avg(actions) FROM game JOIN run ON run.id = game.run_id WHERE game.variant = '%s' AND %s",
             variant, where);
    double mean = db_double(db, sql);
    cr_assert(n > 0);
    unsigned long long rn, rw, rb, rd;
    const char *row = random_row(md, heading);
    cr_assert_eq(sscanf(row, "%llu | %llu | %llu | %llu |", &rn, &rw, &rb, &rd), 4, "row: %.80s", row);
    cr_expect_eq(rn, (unsigned long long)n);
    cr_expect_eq(rw, (unsigned long long)w);
    cr_expect_eq(rb, (unsigned long long)b);
    cr_expect_eq(rd, (unsigned long long)d);
    /* White's score and interval as stats.h has them, the mean length */
    Interval s = stats_score((uint64_t)w, (uint64_t)d, (uint64_t)b);
    char want[128];
    snprintf(want, sizeof want, "| %.1f%% (%.1f–%.1f) | ", 100 * s.mid, 100 * s.lo, 100 * s.hi);
    const char *eol = strchr(row, '\n');
    cr_assert(eol);
    char *line = gc(strndup(row, (size_t)(eol - row)));
    cr_expect(strstr(line, want), "want '%s' in '%s'", want, line);
    snprintf(want, sizeof want, "| %.1f | ", mean);
    cr_expect(strstr(line, want), "want mean length '%s' in '%s'", want, line);
}

/* The text of the "## " section that starts at heading, up to the next
 * "## " heading: a row looked for here cannot be matched in another table. */
static char *section(const char *md, const char *heading)
{
    const char *sec = strstr(md, heading);
    cr_assert(sec, "no section '%s' in:\n%s", heading, md);
    const char *end = strstr(sec + strlen(heading), "\n## ");
    return gc(strndup(sec, end ? (size_t)(end - sec) : strlen(sec)));
}

/* Checks the comparison row of `random` against SQL counts over all runs:
 * each variant's score and games, and the difference blitz minus standard
 * with its interval and p-value as stats_diff gives them from the counts. */
static void check_comparison(sqlite3 *db, const char *md)
{
    const char *sec = section(md, "## Blitz against standard");
    double score[2], var[2];
    long long n[2];
    const char *const VARIANTS[2] = {"standard", "blitz"};
    for (int v = 0; v < 2; v++) {
        long long w, b, d;
        sql_results(db, VARIANTS[v], "1", &n[v], &w, &b, &d);
        cr_assert(n[v] > 0);
        score[v] = stats_score((uint64_t)w, (uint64_t)d, (uint64_t)b).mid;
        var[v] = ((double)w + 0.25 * (double)d) / (double)n[v] - score[v] * score[v];
    }
    double p;
    Interval diff = stats_diff(score[1], var[1], (double)n[1], score[0], var[0], (double)n[0], &p);
    char pv[32], want[256];
    if (p < 0.001) snprintf(pv, sizeof pv, "< 0.001");
    else snprintf(pv, sizeof pv, "%.3f", p);
    snprintf(want, sizeof want,
             "| `random` | %.1f%% (%lld games) | %.1f%% (%lld games) | %+.1f (%+.1f to %+.1f) | %s |\n",
             100 * score[0], n[0], 100 * score[1], n[1], 100 * diff.mid, 100 * diff.lo, 100 * diff.hi, pv);
    cr_expect(strstr(sec, want), "want the row '%s' in:\n%s", want, sec);
    snprintf(want, sizeof want, "\n%d of 1 pair show a difference", p < 0.05);
    cr_expect(strstr(sec, want), "want '%s' in:\n%s", want, sec);
}

/* The thin points of a variant's first-ring map as SQL counts them: the
 * board's points with fewer than REPORT_MIN_POINT_GAMES first rings
 * (*empty: with none). */
static long long sql_thin_points(sqlite3 *h, const char *variant, long long *empty)
{
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM (SELECT action.action FROM game JOIN action ON action.game_id = game.id "
             "AND action.ply = 0 WHERE game.variant = '%s' GROUP BY action.action HAVING count(*) >= %d)",
             variant, REPORT_MIN_POINT_GAMES);
    long long enough = db_int(h, sql);
    snprintf(sql, sizeof sql,
             "SELECT count(DISTINCT action.action) FROM game JOIN action ON action.game_id = game.id "
             "AND action.ply = 0 WHERE game.variant = '%s'", variant);
    *empty = 85 - db_int(h, sql);
    return 85 - enough;
}

/* The note of the first-ring map in the Markdown, as the report should
 * write it for a variant with thin points out of 85, empty of them empty. */
static char *thin_note(const char *title, long long thin, long long empty)
{
    char *want = gc(malloc(256));
    snprintf(want, 256, "**%s: too few games at %lld of the 85 points** (fewer than %d games each; %lld with none).",
             title, thin, REPORT_MIN_POINT_GAMES, empty);
    return want;
}

/* ---- the report as a process ---------------------------------------- */

Test(report, tables_match_sql)
{
    char *dir = tmpdir_new(), *db = tiny_db(dir), *out = path_in(dir, "rep"), *so, *se;
    const char *args[] = {"report", "--db", db, "--out", out, "--no-plots", NULL};
    cr_assert_eq(yinsh_run(dir, args, &so, &se), 0, "report: %s", se);
    char *md = slurp(path_in(out, "report.md"));
    cr_expect_str_eq(so, md, "stdout and report.md differ");
    sqlite3 *h = db_open(db);
    check_row(h, md, "### Standard", "standard", "1");
    check_row(h, md, "### Blitz", "blitz", "1");
    cr_expect(strstr(md, "all runs, 150 games."), "%.300s", md);
    /* both variants were played by random: one comparison row */
    check_comparison(h, md);
    /* every run with its seed and command */
    cr_expect(strstr(md, "| `std-a` | standard | `random` | `random` | 60 of 60 | 11 | `yinsh selfplay --games 60"));
    cr_expect(strstr(md, "| `blitz-a` | blitz | `random` | `random` | 50 of 50 | 13 |"));
    cr_expect(strstr(md, "## Summary") && strstr(md, "- **Standard.**") && strstr(md, "- **Blitz.**"));
    sqlite3_close(h);
}

Test(report, runs_filter)
{
    char *dir = tmpdir_new(), *db = tiny_db(dir), *out = path_in(dir, "rep"), *so, *se;
    const char *args[] = {"report", "--db", db, "--out", out, "--no-plots", "--runs", "std-b", NULL};
    cr_assert_eq(yinsh_run(dir, args, &so, &se), 0, "report: %s", se);
    sqlite3 *h = db_open(db);
    check_row(h, so, "### Standard", "standard", "run.name = 'std-b'");
    cr_expect(strstr(so, "run `std-b`, 40 games."), "%.300s", so);
    cr_expect(!strstr(so, "### Blitz"));
    cr_expect(strstr(so, "No pair of agents played both variants"));
    /* names split at commas and repeated --runs add up */
    const char *args2[] = {"report", "--db", db, "--out", out, "--no-plots", "--quiet",
                           "--runs", "std-a,std-b", "--runs", "blitz-a", NULL};
    cr_assert_eq(yinsh_run(dir, args2, &so, &se), 0, "report: %s", se);
    cr_expect_str_eq(so, "");
    char *md = slurp(path_in(out, "report.md"));
    check_row(h, md, "### Standard", "standard", "run.name IN ('std-a', 'std-b')");
    check_row(h, md, "### Blitz", "blitz", "run.name = 'blitz-a'");
    sqlite3_close(h);
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
    /* the pictures */
    cr_expect(file_nonempty(path_in(out, "strength.png")), "%s", slurp(path_in(out, "gnuplot.log")));
    cr_expect(file_nonempty(path_in(out, "lengths.png")), "%s", slurp(path_in(out, "gnuplot.log")));
    cr_expect(file_nonempty(path_in(out, "first-ring.png")), "%s", slurp(path_in(out, "gnuplot.log")));
    cr_expect(strstr(md, "![White's score against strength](strength.png)"));
    cr_expect(strstr(md, "](first-ring.png)") && !strstr(md, "pictures failed"), "%s",
              slurp(path_in(out, "gnuplot.log")));
    /* 100 and 50 games over 85 points: the map says its points are thin */
    sqlite3 *h = db_open(db);
    long long empty, thin = sql_thin_points(h, "standard", &empty);
    cr_expect_eq(thin, 85);
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

/* lengths-VARIANT.dat bins by the lengths that occur: a row for each and
 * no other (no empty bin), with its share of the pair's games and the
 * games, as SQL counts them; the block is headed by the pair and its
 * games, the picture's key. */
Test(report, lengths_data)
{
    char *dir = tmpdir_new(), *db = tiny_db(dir), *out = path_in(dir, "rep"), *se;
    const char *args[] = {"report", "--db", db, "--out", out, "--quiet", NULL};
    /* without gnuplot: the data files are written all the same */
    cr_assert_eq(yinsh_run_env(dir, "/nonexistent", args, NULL, &se), 0, "report: %s", se);
    sqlite3 *h = db_open(db);
    const char *const VARIANTS[] = {"standard", "blitz"};
    for (int v = 0; v < 2; v++) {
        char name[64], sql[256], head[64];
        snprintf(name, sizeof name, "lengths-%s.dat", VARIANTS[v]);
        const char *text = slurp(path_in(out, name));
        snprintf(sql, sizeof sql, "SELECT count(*) FROM game WHERE variant = '%s'", VARIANTS[v]);
        long long games = db_int(h, sql);
        snprintf(head, sizeof head, "\"random (%lld games)\"\n", games);
        cr_assert(!strncmp(text, head, strlen(head)), "want the header '%s' in %s:\n%s", head, name, text);
        long long rows = 0, sum = 0;
        for (const char *line = text + strlen(head); *line;) {
            int len;
            double pct;
            long long n;
            cr_assert_eq(sscanf(line, "%d %lf %lld", &len, &pct, &n), 3, "%s row: %.60s", name, line);
            snprintf(sql, sizeof sql, "SELECT count(*) FROM game WHERE variant = '%s' AND actions = %d", VARIANTS[v],
                     len);
            cr_expect_eq(n, db_int(h, sql), "%s: %lld games of %d actions", name, n, len);
            cr_expect_gt(n, 0, "%s: an empty bin at %d", name, len);
            cr_expect_float_eq(pct, 100.0 * (double)n / (double)games, 1e-4, "%s: share at %d", name, len);
            rows++;
            sum += n;
            const char *eol = strchr(line, '\n');
            if (!eol) break;
            line = eol + 1;
        }
        snprintf(sql, sizeof sql, "SELECT count(DISTINCT actions) FROM game WHERE variant = '%s'", VARIANTS[v]);
        cr_expect_eq(rows, db_int(h, sql), "%s: a row for each length that occurs", name);
        cr_expect_eq(sum, games, "%s: every game in a row", name);
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

/* The Markdown says how many points of the first-ring map have too few
 * games, per variant, as SQL counts them; once every point has enough, it
 * says that instead. */
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
    long long thin, empty;
    thin = sql_thin_points(h, "standard", &empty);
    cr_expect(strstr(md, thin_note("Standard", thin, empty)), "want '%s' in:\n%s", thin_note("Standard", thin, empty),
              section(md, "## Pictures"));
    thin = sql_thin_points(h, "blitz", &empty);
    cr_expect(strstr(md, thin_note("Blitz", thin, empty)), "want '%s' in:\n%s", thin_note("Blitz", thin, empty),
              section(md, "## Pictures"));
    sqlite3_close(h);

    /* enough games at every point of standard (the other 36 squares of the
     * embedding are no points: what they hold must not count) */
    for (int pt = 0; pt < SQUARE_NB; pt++) rep.first[VARIANT_STANDARD][pt][RESULT_DRAW] += REPORT_MIN_POINT_GAMES;
    f = open_memstream(&md, &len);
    report_write_markdown(&rep, "yinsh report", &pics, f);
    fclose(f);
    gc(md);
    char want[128];
    snprintf(want, sizeof want, "Standard: every point has at least %d games.", REPORT_MIN_POINT_GAMES);
    cr_expect(strstr(md, want), "want '%s' in:\n%s", want, section(md, "## Pictures"));
    cr_expect(!strstr(md, "**Standard: too few"), "%s", section(md, "## Pictures"));
    /* and at none but one point: 84 thin, none empty */
    memset(rep.first[VARIANT_STANDARD], 0, sizeof rep.first[VARIANT_STANDARD]);
    for (int pt = 0; pt < SQUARE_NB; pt++) rep.first[VARIANT_STANDARD][pt][RESULT_WHITE] = 1;
    Point e5;
    cr_assert(point_parse("e5", 2, &e5));
    rep.first[VARIANT_STANDARD][e5][RESULT_BLACK] = REPORT_MIN_POINT_GAMES;
    f = open_memstream(&md, &len);
    report_write_markdown(&rep, "yinsh report", &pics, f);
    fclose(f);
    gc(md);
    cr_expect(strstr(md, thin_note("Standard", 84, 0)), "%s", section(md, "## Pictures"));
    report_free(&rep);
}

/* ---- nothing to report -------------------------------------------------- */

static void expect_fail(const char *dir, const char *const *args, int status, const char *word)
{
    char *so, *se;
    int rc = yinsh_run(dir, args, &so, &se);
    cr_expect_eq(rc, status, "exit %d, want %d; stderr: %s", rc, status, se);
    cr_expect(strstr(se, word), "stderr lacks '%s': %s", word, se);
    cr_expect_str_eq(so, "", "nothing on stdout");
}

Test(report, nothing_to_report)
{
    char *dir = tmpdir_new(), *out = path_in(dir, "rep");
    /* no file */
    const char *a1[] = {"report", "--db", path_in(dir, "none.db"), "--out", out, NULL};
    expect_fail(dir, a1, 1, "no database");
    cr_expect(!file_nonempty(path_in(out, "report.md")));
    /* an empty file */
    char *empty = path_in(dir, "empty.db");
    fclose(fopen(empty, "w"));
    const char *a2[] = {"report", "--db", empty, "--out", out, NULL};
    expect_fail(dir, a2, 1, "empty");
    /* the schema, no runs */
    char *schema = path_in(dir, "schema.db");
    sqlite3 *h = db_open(schema);
    cr_assert(sqlite3_exec(h, store_schema_sql(), NULL, NULL, NULL) == SQLITE_OK, "%s", sqlite3_errmsg(h));
    const char *a3[] = {"report", "--db", schema, "--out", out, NULL};
    expect_fail(dir, a3, 1, "holds no games");
    /* a run without games, selected by name; an unknown name */
    cr_assert(sqlite3_exec(h,
                           "INSERT INTO run (uid, name, command, version, host, seed, variant, white, black, games, "
                           "threads, started_at) VALUES ('0', 'idle', 'yinsh selfplay', '0', 'h', 1, "
                           "'standard', 'random', 'random', 10, 1, '2026-01-01T00:00:00Z')",
                           NULL, NULL, NULL) == SQLITE_OK,
              "%s", sqlite3_errmsg(h));
    sqlite3_close(h);
    const char *a4[] = {"report", "--db", schema, "--out", out, "--runs", "idle", NULL};
    expect_fail(dir, a4, 1, "hold");
    const char *a5[] = {"report", "--db", schema, "--out", out, "--runs", "idle,nosuch", NULL};
    expect_fail(dir, a5, 1, "no run named 'nosuch'");
    /* not a Yinsh Lab database */
    char *other = path_in(dir, "other.db");
    h = db_open(other);
    cr_assert(sqlite3_exec(h, "CREATE TABLE t (x)", NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(h);
    const char *a6[] = {"report", "--db", other, "--out", out, NULL};
    expect_fail(dir, a6, 1, "not a Yinsh Lab");
    cr_expect(!file_nonempty(path_in(out, "report.md")));
}

Test(report, bad_flags)
{
    char *dir = tmpdir_new();
    const char *a1[] = {"report", "--bogus", NULL};
    expect_fail(dir, a1, 2, "unknown option");
    const char *a2[] = {"report", "--db", NULL};
    expect_fail(dir, a2, 2, "wants a value");
    const char *a3[] = {"report", "extra", NULL};
    expect_fail(dir, a3, 2, "unexpected argument");
    const char *a4[] = {"report", "--runs", ",", NULL};
    expect_fail(dir, a4, 2, "--runs wants");
    const char *a5[] = {"report", "--plots", dir, NULL};
    expect_fail(dir, a5, 2, "strength.gp");
    const char *a6[] = {"report", "--plots", dir, "--no-plots", NULL};
    expect_fail(dir, a6, 2, "contradict");
    char *so;
    const char *a7[] = {"report", "--help", NULL};
    cr_expect_eq(yinsh_run(dir, a7, &so, NULL), 0);
    cr_expect(strstr(so, "usage: yinsh report"));
}

/* ---- the Report functions ------------------------------------------------ */

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

Test(report, load_and_figures)
{
    char *dir = tmpdir_new(), *db = tiny_db(dir);
    Report rep;
    char err[ERR_LEN];
    const char *runs[] = {"std-a", "std-b"};
    cr_assert_eq(report_load(&rep, db, STORE_BUSY_MS, &(StoreSelection){.runs = runs, .nruns = 2}, err), 0, "%s", err);
    cr_expect_eq(rep.games, 100);
    cr_expect_eq(rep.npairs, 1);
    cr_expect_eq(rep.nrun_rows, 2);
    const ReportPair *p = &rep.pairs[0];
    cr_expect_eq(p->variant, VARIANT_STANDARD);
    cr_expect_eq(p->strength, 1, "random play counts as one simulation");
    cr_expect_eq(report_strongest(&rep, VARIANT_STANDARD), p);
    cr_expect_null(report_strongest(&rep, VARIANT_BLITZ));

    /* the median against the sorted lengths from SQL */
    sqlite3 *h = db_open(db);
    sqlite3_stmt *st;
    cr_assert(sqlite3_prepare_v2(h,
                                 "SELECT actions FROM game JOIN run ON run.id = game.run_id "
                                 "WHERE run.name IN ('std-a', 'std-b')",
                                 -1, &st, NULL) == SQLITE_OK);
    int len[100], n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) len[n++] = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    cr_assert_eq(n, 100);
    qsort(len, (size_t)n, sizeof len[0], cmp_int);
    cr_expect_float_eq(report_median_length(p), 0.5 * (len[49] + len[50]), 1e-9);
    double sum = 0;
    for (int i = 0; i < n; i++) sum += len[i];
    cr_expect_float_eq(report_mean_length(p), sum / n, 1e-9);

    /* the score's figures are stats.h's */
    ReportScore s = report_score(p);
    cr_expect_eq(s.wins + s.draws + s.losses, 100);
    cr_expect_eq((long long)s.wins,
                 db_int(h, "SELECT count(*) FROM game JOIN run ON run.id = game.run_id "
                           "WHERE run.name IN ('std-a', 'std-b') AND result = 'white'"));
    Interval elo = stats_elo_trinomial(s.wins, s.draws, s.losses);
    cr_expect_float_eq(s.elo_lo, elo.lo, 1e-9);
    cr_expect_float_eq(s.p, stats_p_equal(s.wins, s.draws, s.losses), 1e-12);
    sqlite3_close(h);

    /* first rings: every game counted once, at a point */
    uint64_t first = 0;
    for (int pt = 0; pt < SQUARE_NB; pt++)
        for (int r = 0; r < RESULT_NB; r++) first += rep.first[VARIANT_STANDARD][pt][r];
    cr_expect_eq(first, 100);
    report_free(&rep);

    cr_expect_neq(report_load(&rep, db, STORE_BUSY_MS, &(StoreSelection){.runs = (const char *[]){"nosuch"}, .nruns = 1}, err), 0);
    cr_expect(strstr(err, "nosuch"), "%s", err);
    report_free(&rep);
}
