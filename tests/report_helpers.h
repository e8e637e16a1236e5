/* Helpers shared by the report's tests (tests/test_report_*.c): the tiny
 * self-play database they report on, SQL counts of its games, a report's
 * sections, its Markdown and JSON in process, and pairs made by hand.
 * Static and unused-tolerant (TEST_HELPER), as tests/test_proc.h. */
#ifndef YINSH_REPORT_HELPERS_H
#define YINSH_REPORT_HELPERS_H

#include "engine/base/json.h"
#include "study/report/report.h"
#include "tests/test_proc.h"

/* The tiny database: two random self-play runs per variant (seeded, fast). */
TEST_HELPER char *tiny_db(const char *dir)
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

/* Games of a variant over the selected runs (where: an SQL condition on
 * run) by result, counted directly in SQL. */
TEST_HELPER void sql_results(sqlite3 *db, const char *variant, const char *where, long long *n, long long *w,
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

/* The text of the "## " section that starts at heading, up to the next
 * "## " heading: a row looked for here cannot be matched in another table. */
TEST_HELPER char *section(const char *md, const char *heading)
{
    const char *sec = strstr(md, heading);
    cr_assert(sec, "no section '%s' in:\n%s", heading, md);
    const char *end = strstr(sec + strlen(heading), "\n## ");
    return gc(strndup(sec, end ? (size_t)(end - sec) : strlen(sec)));
}

/* boardspace.net's record of a game, which tests import. */
#define SHARED_SGF YINSH_SOURCE_DIR "/tests/data/Y-DrMih-Dumbot-2026-02-20-0858.sgf"

/* The report's JSON, with "OUT" as its folder (freed by gc). */
TEST_HELPER char *json_of(const Report *rep)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    Json j;
    json_begin(&j, f);
    report_write_json(&j, rep, "OUT", NULL);
    json_end(&j);
    fclose(f);
    return gc(text);
}

/* The Markdown of a report made by hand. */
TEST_HELPER char *markdown_of(const Report *rep)
{
    char *md;
    size_t len;
    FILE *f = open_memstream(&md, &len);
    report_write_markdown(rep, "yinsh report", NULL, f);
    fclose(f);
    return gc(md);
}

/* A pair made by hand: w White wins, b Black wins, d draws, every game of
 * 60 actions. */
TEST_HELPER ReportPair hand_pair(int variant, const char *spec, uint64_t w, uint64_t b, uint64_t d)
{
    ReportPair p = {.variant = variant, .white = (char *)spec, .black = (char *)spec, .opening = "none", .games = w + b + d};
    p.results[RESULT_WHITE] = w;
    p.results[RESULT_BLACK] = b;
    p.results[RESULT_DRAW] = d;
    p.reasons[REASON_THREE_RINGS] = w + b;
    p.reasons[REASON_POOL_EMPTY] = d;
    p.lengths = gc(calloc(REPORT_MAX_LENGTH + 1, sizeof *p.lengths));
    p.lengths[60] = p.games;
    p.first = gc(calloc(SQUARE_NB, sizeof *p.first));
    return p;
}

#endif
