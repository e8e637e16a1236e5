#define _GNU_SOURCE /* nftw, in test_proc.h */
/* The balance report's tables: `yinsh report` as a process on a tiny
 * database made by a quick self-play run of random agents, its tables
 * checked against direct SQL counts over all runs and over a selection;
 * empty databases, selections without games and bad flags; the Report
 * functions, and the folder and JSON written in process, against the same
 * counts. Each test works in its own temporary directory. */
#include "selfplay/stats/stats.h"
#include "selfplay/store/store.h"
#include "study/report/report.h"
#include "tests/report_helpers.h"

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
    unsigned long long rn, rc, rw, rb, rd;
    const char *row = random_row(md, heading);
    cr_assert_eq(sscanf(row, "%llu | %llu | %llu | %llu | %llu |", &rn, &rc, &rw, &rb, &rd), 5, "row: %.80s", row);
    cr_expect_eq(rn, (unsigned long long)n);
    cr_expect_eq(rc, 0, "random games are no copies of one another");
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

/* Checks the comparison row of `random` against SQL counts over all runs:
 * each variant's score and games, and the difference blitz minus standard
 * with Newcombe's interval and the exact permutation test's p-value, as
 * stats.h gives them from the counts. */
static void check_comparison(sqlite3 *db, const char *md)
{
    const char *sec = section(md, "## Blitz against standard");
    Interval score[2];
    long long n[2];
    uint64_t counts[2][3];
    const char *const VARIANTS[2] = {"standard", "blitz"};
    for (int v = 0; v < 2; v++) {
        long long w, b, d;
        sql_results(db, VARIANTS[v], "1", &n[v], &w, &b, &d);
        cr_assert(n[v] > 0);
        score[v] = stats_score((uint64_t)w, (uint64_t)d, (uint64_t)b);
        counts[v][0] = (uint64_t)b;
        counts[v][1] = (uint64_t)d;
        counts[v][2] = (uint64_t)w;
    }
    Interval diff = stats_diff_newcombe(score[1], score[0]);
    double p = stats_p_scores_differ(counts[1], counts[0], NULL);
    char pv[32], want[256];
    if (p < 0.001) snprintf(pv, sizeof pv, "< 0.001");
    else snprintf(pv, sizeof pv, "%.3f", p);
    snprintf(want, sizeof want,
             "| `random` | %.1f%% (%lld games) | %.1f%% (%lld games) | %+.1f (%+.1f to %+.1f) | %s | ",
             100 * score[0].mid, n[0], 100 * score[1].mid, n[1], 100 * diff.mid, 100 * diff.lo, 100 * diff.hi, pv);
    cr_expect(strstr(sec, want), "want the row '%s' in:\n%s", want, sec);
    bool differ = p < 0.05 && (diff.lo > 0 || diff.hi < 0);
    snprintf(want, sizeof want, "\n%d of 1 pair show a difference", differ);
    cr_expect(strstr(sec, want), "want '%s' in:\n%s", want, sec);
}

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
    /* every run with its distinct games, seed and command */
    cr_expect(strstr(md, "| `std-a` | standard | `random` | `random` | 60 of 60, 60 distinct | 11 | `yinsh selfplay --games 60"));
    cr_expect(strstr(md, "| `blitz-a` | blitz | `random` | `random` | 50 of 50, 50 distinct | 13 |"));
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
    /* the Elo interval is the score's read on the Elo scale; p the exact sign test's */
    Interval score = stats_score(s.wins, s.draws, s.losses);
    cr_expect_float_eq(s.elo_lo, stats_elo(score.lo), 1e-9);
    cr_expect_float_eq(s.elo_hi, stats_elo(score.hi), 1e-9);
    cr_expect_float_eq(s.p, stats_p_sign(s.wins, s.losses), 1e-12);
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

/* The report written into a folder and its JSON, in this process
 * (report_write_folder, report_write_json): report.md holds the Markdown
 * it leaves, with the table row of random against itself; the JSON the
 * figures of the same selection; the match report of no matches is an
 * error, with report.md left unwritten. */
Test(report, folder_and_json_in_process)
{
    char *dir = tmpdir_new(), *db = tiny_db(dir), *out = path_in(dir, "folder");
    cr_assert_eq(mkdir(out, 0777), 0);
    Report rep;
    ReportPictures pics;
    char err[ERR_LEN], *md = NULL;
    size_t md_len = 0;
    bool drawn = true;
    const char *runs[] = {"std-a", "std-b"};
    ReportJob job = {.db = db, .busy_ms = STORE_BUSY_MS, .sel = {.runs = runs, .nruns = 2}, .out = "OUT",
                     .no_plots = true, .cmdline = "yinsh report"};
    cr_assert_eq(report_load(&rep, db, STORE_BUSY_MS, &job.sel, err), 0, "%s", err);
    cr_assert_eq(report_write_folder(&job, &rep, out, &md, &md_len, &pics, &drawn, err), 0, "%s", err);
    cr_expect(!drawn, "no pictures asked for");
    char *file = slurp(path_in(out, "report.md"));
    cr_assert_eq(strlen(file), md_len);
    cr_expect(!memcmp(file, md, md_len), "report.md is the Markdown left in md");
    random_row(md, "### Standard");
    free(md);

    char *text = json_of(&rep);
    cr_expect(strstr(text, "\n  \"out\": \"OUT\",\n  \"games\": 100,\n"), "%s", text);
    cr_expect(strstr(text, "\"white\": \"random\""), "%s", text);
    cr_expect(strstr(text, "\n  \"pictures\": null\n}"), "%s", text);
    report_free(&rep);

    char *empty = path_in(dir, "no-match");
    cr_assert_eq(mkdir(empty, 0777), 0);
    job.sel.kind = "match";
    cr_expect_neq(report_write_folder(&job, NULL, empty, &md, &md_len, &pics, &drawn, err), 0);
    cr_expect(err[0], "the error says why");
    cr_expect_eq(access(path_in(empty, "report.md"), F_OK), -1, "no report.md");
    free(md);
}
