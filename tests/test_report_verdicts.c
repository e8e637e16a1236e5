#define _GNU_SOURCE /* nftw, in test_proc.h */
/* The balance report's verdicts: exact p-values and no verdict that the
 * interval beside it contradicts, Holm's correction, too few distinct
 * games for a verdict (one imported game, blitz against standard at the
 * edges), copies counted once (#22), declared comparisons and a
 * difference not claimed naming its bounds and power, and --compare's
 * mistakes. */
#include <math.h>
#include "selfplay/stats/stats.h"
#include "study/report/report.h"
#include "tests/report_helpers.h"

/* ---- exact p-values, and no verdict the interval beside it contradicts -- */

/* 3 wins of 3 (the issue's `selfplay --games 3 --agent ab:depth=1`, had
 * its games been distinct): Wilson 43.9-100%, and the exact sign test's
 * p = 2 (1/2)^3 = 0.25, where the normal approximation said p < 0.001
 * and "too large to be chance". */
Test(report, exact_p_and_verdicts)
{
    ReportPair p = hand_pair(VARIANT_STANDARD, "ab:depth=1,tt=16", 3, 0, 0);
    ReportScore s = report_score(&p);
    cr_expect_float_eq(s.p, 0.25, 1e-12);
    cr_expect_float_eq(s.lo, 0.438503, 1e-5);
    cr_expect_eq(s.verdict, REPORT_TOO_FEW);
    Report rep = {.db = "hand.db", .pairs = &p, .npairs = 1, .games = 3};
    char *md = markdown_of(&rep);
    char *summary = section(md, "## Summary");
    cr_expect(!strstr(md, "too large to be chance"), "%s", summary);
    cr_expect(strstr(summary, "White scored **100.0%** (95% CI 43.9–100.0%), +∞ Elo (-43 to +∞). Only 3 distinct "
                              "games: too few for a verdict"),
              "%s", summary);
    cr_expect(strstr(summary, "(p = 0.250)"), "%s", summary);
    cr_expect(strstr(md, "| 100.0% (43.9–100.0) | 0.250 | – | +∞ (-43 to +∞) |"), "%s", section(md, "## Results"));

    /* 20 of 20: p = 2 / 2^20; 15 of 20: p = 43400 / 2^20 (test_stats), the
     * interval 53.1-88.8% without 50%: an edge */
    p = hand_pair(VARIANT_STANDARD, "random", 20, 0, 0);
    s = report_score(&p);
    cr_expect_float_eq(s.p, 2.0 / 1048576, 1e-15);
    cr_expect_eq(s.verdict, REPORT_EDGE);
    p = hand_pair(VARIANT_STANDARD, "random", 15, 5, 0);
    s = report_score(&p);
    cr_expect_float_eq(s.p, 43400.0 / 1048576, 1e-12);
    cr_expect_eq(s.verdict, REPORT_EDGE);
    /* 10 wins, 2 losses, 30 draws: the sign test's p = 2 (1 + 12 + 66) /
     * 4096 = 0.0386, but the score 59.5% has the interval 44.5-73.0%: the
     * two disagree, and the report concludes nothing */
    p = hand_pair(VARIANT_STANDARD, "random", 10, 2, 30);
    s = report_score(&p);
    cr_expect_float_eq(s.p, 158.0 / 4096, 1e-12);
    cr_expect(s.lo < 0.5 && s.hi > 0.5);
    cr_expect_eq(s.verdict, REPORT_SPLIT);
    rep = (Report){.db = "hand.db", .pairs = &p, .npairs = 1, .games = 42};
    md = markdown_of(&rep);
    cr_expect(!strstr(md, "too large to be chance") && !strstr(md, "can be told from chance"), "%s", md);
    cr_expect(strstr(md, "p = 0.039, yet the interval 44.5–73.0% holds 50%: on the edge of chance, no verdict"),
              "%s", section(md, "## Summary"));
    /* 10 and 10: nothing */
    p = hand_pair(VARIANT_STANDARD, "random", 10, 10, 0);
    cr_expect_eq(report_score(&p).verdict, REPORT_CHANCE);

    /* every count up to 40 games: a verdict agrees with the interval */
    for (uint64_t w = 0; w <= 40; w += 1)
        for (uint64_t b = 0; w + b <= 40; b++)
            for (uint64_t d = 0; w + b + d <= 40; d += 3) {
                ReportPair q = {.results = {[RESULT_WHITE] = w, [RESULT_BLACK] = b, [RESULT_DRAW] = d}};
                s = report_score(&q);
                bool holds = s.lo <= 0.5 && 0.5 <= s.hi, elo_holds = s.elo_lo <= 0 && 0 <= s.elo_hi;
                cr_assert_eq(holds, elo_holds, "%llu %llu %llu: the Elo interval is the score's",
                             (unsigned long long)w, (unsigned long long)b, (unsigned long long)d);
                if (s.verdict == REPORT_EDGE) cr_assert(!holds && s.p < 0.05 && s.n >= REPORT_MIN_VERDICT_GAMES);
                if (s.verdict == REPORT_CHANCE) cr_assert(holds && s.p >= 0.05);
            }
}

/* Holm's correction in the report (issue 31): 15 White wins and 5 Black
 * wins in standard, p = 43400 / 2^20 = 0.0414 and the interval 53.1-88.8%
 * without 50%, an edge as one test; beside it 10 and 10 in blitz, p = 1.
 * The family of White's score is both pairs' tests: the smaller p times
 * 2 is 0.0828, the larger max(0.0828, 1 x 1) = 1. The edge is then a
 * question, worded as one; the comparison of the variants is a family
 * of one, its p unchanged. */
Test(report, holm_turns_a_lone_edge_into_a_question)
{
    ReportPair pairs[2] = {hand_pair(VARIANT_STANDARD, "random", 15, 5, 0), hand_pair(VARIANT_BLITZ, "random", 10, 10, 0)};
    Report rep = {.db = "hand.db", .pairs = pairs, .npairs = 2, .games = 40};
    cr_expect_eq(report_score(&pairs[0]).verdict, REPORT_EDGE, "a report made by hand: no family, the raw p");
    cr_assert_eq(report_families(&rep), 0);
    ReportScore s = report_score(&pairs[0]);
    cr_expect_eq(s.family, 2);
    cr_expect_float_eq(s.p, 43400.0 / 1048576, 1e-12);
    cr_expect_float_eq(s.p_holm, 2 * 43400.0 / 1048576, 1e-12);
    cr_expect_eq(s.verdict, REPORT_QUESTION);
    cr_expect_float_eq(report_score(&pairs[1]).p_holm, 1, 1e-12);
    cr_expect_eq(pairs[0].diff_family, 1);
    ReportDiff d = report_diff(&pairs[0], &pairs[1]);
    cr_expect_float_eq(pairs[0].diff_p_holm, d.p, 1e-15);

    char *md = markdown_of(&rep);
    char *summary = section(md, "## Summary");
    cr_expect(!strstr(md, "too large to be chance.") && !strstr(md, "White's edge is"), "%s", summary);
    cr_expect(strstr(summary, "p = 0.041, p = 0.083 after Holm's correction for the 2 tests of White's score in its "
                              "family: does White have an edge? Beyond chance as one test, not as one of 2"),
              "%s", summary);
    cr_expect(strstr(md, "| 75.0% (53.1–88.8) | 0.041 | 0.083 |"), "%s", section(md, "## Results"));
    char *sec = section(md, "## Blitz against standard");
    cr_expect(strstr(sec, "one family, 1 test, and those of pairs of two agents another"), "%s", sec);
    cr_expect(!rep.opening_p_holm && !rep.opening_family, "no openings compared");

    /* a pair of two agents asks another question (the first move mixed
     * with their strength): a family of its own, here of one, its p as
     * it is and its edge a verdict */
    ReportPair three[3] = {hand_pair(VARIANT_STANDARD, "random", 15, 5, 0),
                           hand_pair(VARIANT_BLITZ, "random", 10, 10, 0),
                           hand_pair(VARIANT_STANDARD, "random", 15, 5, 0)};
    three[2].black = "mcts:sims=10";
    Report rep3 = {.db = "hand.db", .pairs = three, .npairs = 3, .games = 60};
    cr_assert_eq(report_families(&rep3), 0);
    cr_expect_eq(three[0].score_family, 2);
    cr_expect_eq(three[2].score_family, 1);
    cr_expect_float_eq(three[2].score_p_holm, 43400.0 / 1048576, 1e-12);
    cr_expect_eq(report_score(&three[2]).verdict, REPORT_EDGE);
    cr_expect_eq(report_score(&three[0]).verdict, REPORT_QUESTION);
}

/* A one-game import (a game played elsewhere, Black's win): p = 1, no
 * verdict; the normal approximation said "p < 0.001" and "too large to
 * be chance". */
Test(report, one_imported_game_gives_no_verdict)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "d.db"), *so, *se;
    cr_assert_eq(yinsh_run(dir, ARGS("import", "--format", "boardspace", SHARED_SGF, "--db", db), NULL, &se), 0, "%s",
                 se);
    cr_assert_eq(yinsh_run(dir, ARGS("report", "--db", db, "--kind", "import", "--out", "r", "--no-plots"), &so, &se),
                 0, "%s", se);
    char *summary = section(so, "## Summary");
    cr_expect(!strstr(so, "too large to be chance"), "%s", summary);
    cr_expect(strstr(summary, "White scored **0.0%** (95% CI 0.0–79.3%)") &&
                  strstr(summary, "Only 1 distinct game: too few for a verdict") && strstr(summary, "(p = 1.000)"),
              "%s", summary);
}

/* Blitz against standard by hand: 3 White wins of 3 in standard, 3 Black
 * wins of 3 in blitz. The normal approximation had no width and p = 0
 * ("1 of 1 pair show a difference too large to be chance"); the exact
 * permutation test gives 2 / C(6, 3) = 0.1, Newcombe's interval -100 to
 * -20.6 points, and 3 games a side are too few for a verdict. With 30 a
 * side the difference is real. */
Test(report, blitz_against_standard_at_the_edges)
{
    ReportPair pairs[2] = {hand_pair(VARIANT_STANDARD, "random", 3, 0, 0), hand_pair(VARIANT_BLITZ, "random", 0, 3, 0)};
    ReportDiff d = report_diff(&pairs[0], &pairs[1]);
    cr_expect_float_eq(d.p, 0.1, 1e-12);
    cr_expect(d.exact);
    cr_expect_float_eq(d.d.mid, -1, 1e-12);
    cr_expect_float_eq(d.d.lo, -1, 1e-12);
    cr_expect_float_eq(d.d.hi, -0.205923, 1e-5);
    cr_expect_eq(d.verdict, REPORT_TOO_FEW);
    Report rep = {.db = "hand.db", .pairs = pairs, .npairs = 2, .games = 6};
    char *sec = section(markdown_of(&rep), "## Blitz against standard");
    cr_expect(strstr(sec, "| `random` | 100.0% (3 games) | 0.0% (3 games) | -100.0 (-100.0 to -20.6) | 0.100 | – | too "
                          "few games |"),
              "%s", sec);
    cr_expect(strstr(sec, "0 of 1 pair show a difference too large to be chance") && strstr(sec, "1 has too few games"),
              "%s", sec);

    pairs[0] = hand_pair(VARIANT_STANDARD, "random", 30, 0, 0);
    pairs[1] = hand_pair(VARIANT_BLITZ, "random", 0, 30, 0);
    d = report_diff(&pairs[0], &pairs[1]);
    cr_expect_float_eq(d.p, 2 / exp(lgamma(61) - 2 * lgamma(31)), 1e-20); /* 2 / C(60, 30) */
    cr_expect_eq(d.verdict, REPORT_EDGE);
    rep.games = 60;
    sec = section(markdown_of(&rep), "## Blitz against standard");
    cr_expect(strstr(sec, "1 of 1 pair show a difference too large to be chance"), "%s", sec);
}

/* ---- copies are not independent games (#22) ---------------------------- */

/* The study: alpha-beta at depth 2 against itself from the empty
 * board, 100 games per variant, stores 100 copies of one game per
 * variant. The report counts one distinct game each, says so, draws no
 * verdict (it said "p < 0.001: Black's edge is too large to be chance")
 * and does not call the agent one that never played itself. */
Test(report, copies_are_counted_once)
{
    char *dir = tmpdir_new(), *so, *se;
    char *ini = gc(malloc(1024));
    snprintf(ini, 1024,
             "[study]\nname = ab\ndb = %s/d.db\nseed = 1\ngames = 100\nvariants = standard, blitz\n"
             "[agent ab2]\nspec = ab:depth=2\n[report]\nout = %s/r\n",
             dir, dir);
    write_in(dir, "s.ini", ini);
    cr_assert_eq(yinsh_run(dir, ARGS("study", "s.ini", "--quiet"), NULL, &se), 0, "%s", se);
    char *md = slurp(path_in(dir, "r/report.md"));
    cr_expect(!strstr(section(md, "## Summary"), "too large to be chance"), "%s", section(md, "## Summary"));
    cr_expect(strstr(md, "all runs, 2 distinct games. **198 copies of them left out**") ||
                  strstr(md, ", 2 distinct games. **198 copies of them left out**"),
              "%.600s", md);
    char *summary = section(md, "## Summary");
    cr_expect(strstr(summary, "- **Standard.** Most-played agent against itself, `ab:depth=2` on both sides, "
                              "1 distinct game (99 copies left out): ") &&
                  strstr(summary, "Only 1 distinct game: too few for a verdict"),
              "%s", summary);
    cr_expect(strstr(md, "| `ab:depth=2,tt=16` | `ab:depth=2,tt=16` | 1 | 99 | "), "%s", section(md, "## Results"));
    cr_expect(strstr(md, "**198 stored games are left out as copies**"), "%s", section(md, "## Results"));
    cr_expect(strstr(md, " | 100 of 100, 1 distinct | "), "the runs' distinct games: %s", section(md, "## Runs"));
    cr_expect(strstr(section(md, "## Blitz against standard"), "0 of 1 pair show a difference") &&
                  strstr(section(md, "## Blitz against standard"), "1 has too few games"),
              "%s", section(md, "## Blitz against standard"));
    cr_expect(!strstr(md, "No agent played itself"), "%s", section(md, "## Pictures"));
    if (system("command -v gnuplot >/dev/null 2>&1") == 0)
        cr_expect(strstr(md, "The agents that played themselves here have no simulations per move"), "%s",
                  section(md, "## Pictures"));
    /* the JSON says the same */
    cr_assert_eq(yinsh_run(dir, ARGS("report", "--db", "d.db", "--out", "r2", "--no-plots", "--json"), &so, &se), 0,
                 "%s", se);
    cr_expect(strstr(so, "\"games\": 2,") && strstr(so, "\"copies_left_out\": 198,") &&
                  strstr(so, "\"copies_left_out\": 99,") && strstr(so, "\"verdict\": \"too_few_games\"") &&
                  strstr(so, "\"games_distinct\": 1,"),
              "%s", so);
}

/* Declared comparisons (report_compare): A − B of the two agents'
 * self-play in every variant with games, from the declared opening where
 * one is given; the rows with both sides one Holm family; a side not
 * played is said so, and tested in no family. */
Test(report, declared_comparisons_by_hand)
{
    const char *A = "ab:depth=2", *B = "ab:depth=1";
    ReportPair pairs[4] = {
        hand_pair(VARIANT_STANDARD, A, 30, 10, 0), hand_pair(VARIANT_STANDARD, B, 20, 20, 0),
        hand_pair(VARIANT_STANDARD, A, 12, 28, 0), hand_pair(VARIANT_BLITZ, A, 25, 15, 0),
    };
    pairs[2].opening = "rings";
    pairs[0].opening_shown = pairs[2].opening_shown = true;
    Report rep = {.db = "hand.db", .pairs = pairs, .npairs = 4, .games = 160};
    const ReportComparison decl[] = {
        {.a = A, .b = B, .name_a = "d2", .name_b = "d1"},
        {.a = A, .b = A, .name_a = "d2-rings", .name_b = "d2", .opening_a = "rings", .opening_b = "none"},
    };
    cr_assert_eq(report_compare(&rep, decl, 2), 0);
    cr_assert_eq(rep.ndeclared, 2);
    cr_assert_eq(rep.ncompared, 4, "two declarations in two variants");
    const ReportCompared *r = rep.compared;
    cr_expect(r[0].variant == VARIANT_STANDARD && r[0].pa == 0 && r[0].pb == 1);
    cr_expect(r[1].variant == VARIANT_BLITZ && r[1].pa == 3 && r[1].pb == -1, "blitz: B not played");
    cr_expect(r[2].variant == VARIANT_STANDARD && r[2].pa == 2 && r[2].pb == 0, "the declared openings");
    cr_expect(r[3].variant == VARIANT_BLITZ && r[3].pa == -1 && r[3].pb == 3, "no blitz pair from rings");
    double p[2] = {report_diff(&pairs[1], &pairs[0]).p, report_diff(&pairs[0], &pairs[2]).p};
    cr_expect_float_eq(r[0].d.d.mid, 0.25, 1e-12);
    cr_expect_float_eq(r[2].d.d.mid, 0.30 - 0.75, 1e-12);
    cr_expect_float_eq(r[0].d.p, p[0], 1e-15);
    stats_holm(p, 2, p);
    cr_expect_eq(r[0].d.family, 2);
    cr_expect_eq(r[2].d.family, 2);
    cr_expect_float_eq(r[0].d.p_holm, p[0], 1e-15);
    cr_expect_float_eq(r[2].d.p_holm, p[1], 1e-15);
    cr_expect_eq(r[1].d.family, 0);

    char *md = section(markdown_of(&rep), "## Declared comparisons");
    cr_expect(strstr(md, "one family (2 tests)"), "%s", md);
    cr_expect(strstr(md, "| 1. `d2` vs `d1` | blitz | played | not played yet | not played yet |"), "%s", md);
    cr_expect(strstr(md, "| 1. `d2` vs `d1` | standard | 75.0% (40 games) | 50.0% (40 games) | +25.0 ("), "%s", md);
    cr_expect(strstr(md, "`ab:depth=2` from `rings` against `ab:depth=2` from `none`"), "%s", md);
    char *js = json_of(&rep);
    cr_expect(strstr(js, "\"verdict\": \"not_played\""), "%s", js);
    cr_expect(strstr(js, "\"a\": \"d2-rings\""), "%s", js);
    cr_assert_eq(report_compare(&rep, NULL, 0), 0);
    cr_expect(!rep.declared && !rep.compared && !rep.ncompared);
}

/* The issue's own case (studies/top.ini, d7 - d5 in standard: 1265 W
 * 1060 L 75 D against 1266 W 1068 L 66 D): the report printed "≈ 0.918"
 * and "none told from chance", which readers took for "does not grow".
 * Now the p is exact (0.930, as the statistician found) and the verdict
 * says what the interval excludes and the power to see two points (each
 * side's variance per game, se 1.42 points: about 29%; the statistician,
 * from the interval's width, had 1.44 and 28%). */
Test(report, a_difference_not_claimed_names_its_bounds_and_power)
{
    const char *A = "ab:depth=7", *B = "ab:depth=5";
    ReportPair pairs[2] = {hand_pair(VARIANT_STANDARD, A, 1265, 1060, 75),
                           hand_pair(VARIANT_STANDARD, B, 1266, 1068, 66)};
    Report rep = {.db = "hand.db", .pairs = pairs, .npairs = 2, .games = 4800};
    const ReportComparison decl[] = {{.a = A, .b = B, .name_a = "d7", .name_b = "d5"}};
    cr_assert_eq(report_compare(&rep, decl, 1), 0);
    const ReportDiff *d = &rep.compared[0].d;
    cr_expect(d->exact);
    cr_expect_float_eq(d->p, 0.9297071327, 1e-9);
    cr_expect_float_eq(d->se, 0.0141684352, 1e-9);
    cr_expect(d->power > 0.28 && d->power < 0.30, "%f", d->power);
    char *md = section(markdown_of(&rep), "## Declared comparisons");
    cr_expect(strstr(md, "| +0.1 (-2.7 to +3.0) | 0.930 | 0.930 | none told from chance; excluded: below -2.7 and "
                         "above +3.0; power to see ±2 points 29% |"),
              "%s", md);
    cr_expect(!strstr(md, "≈"), "%s", md);
    cr_assert_eq(report_compare(&rep, NULL, 0), 0);
}

/* --compare: 'SPEC vs SPEC', two different agents in any spelling; a
 * mistake is a usage error that names it, before the database is read. */
Test(report, compare_option_mistakes)
{
    char *dir = tmpdir_new(), *err;
    const struct {
        const char *arg, *says;
    } cases[] = {
        {"random", "--compare wants 'SPEC vs SPEC'"},
        {"random vs mcts:sims=5 vs ab:depth=1", "--compare wants 'SPEC vs SPEC'"},
        {" vs random", "an agent is missing"},
        {"random vs mcts:simz=5", "unknown mcts key 'simz'"},
        {"mcts:sims=5 vs mcts:sims=5,c=1", "compares an agent with itself"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *args[] = {"report", "--db", "none.db", "--out", "r", "--compare", cases[i].arg, NULL};
        cr_assert_eq(yinsh_run(dir, args, NULL, &err), 2, "case %zu: %s", i, err);
        cr_expect(strstr(err, cases[i].says), "case %zu: '%s' lacks '%s'", i, err, cases[i].says);
    }
    const char *match[] = {"report", "--db", "none.db", "--kind", "match", "--compare", "random vs ab:depth=1", NULL};
    cr_assert_eq(yinsh_run(dir, match, NULL, &err), 2, "%s", err);
    cr_expect(strstr(err, "the match report (--kind match) has none"), "%s", err);
}
