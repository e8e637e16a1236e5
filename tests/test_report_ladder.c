#define _GNU_SOURCE /* nftw, in test_proc.h */
/* The balance report's ladder: the levels on one Elo scale (#23), worked
 * out by hand (ratings, links, White's score along strength and matched)
 * and from a tiny ladder played by `yinsh study`, its cells against SQL
 * counts. */
#include <math.h>
#include "selfplay/stats/stats.h"
#include "study/report/report.h"
#include "tests/report_helpers.h"

/* ---- the ladder: the levels on one Elo scale (#23) --------------------- */

/* A match run by hand: A's tally over whole pairs. */
static ReportMatch hand_match(int variant, const char *run, const char *a, const char *b, uint64_t wins,
                              uint64_t draws, uint64_t losses, const uint64_t penta[5])
{
    ReportMatch m = {.run = (char *)run, .a = (char *)a, .b = (char *)b, .opening = "none", .variant = variant};
    match_stored_init(&m.pairs);
    m.pairs.tally = (MatchTally){.wins = wins, .draws = draws, .losses = losses};
    for (int k = 0; k < 5; k++) {
        m.pairs.tally.penta[k] = penta[k];
        m.pairs.tally.pairs += penta[k];
    }
    cr_assert_eq(2 * m.pairs.tally.pairs, wins + draws + losses);
    return m;
}

/* The Elo cell of a rated level, as the report writes it. */
static char *elo_text(double elo, double se)
{
    char *t = gc(malloc(64));
    double h = STATS_Z95 * se;
    snprintf(t, 64, "%+.0f (%+.0f to %+.0f)", elo + 0.0, elo - h + 0.0, elo + h + 0.0);
    return t;
}

/* A ladder worked out by hand. Standard: random < L1 < L2 < L3 < L4,
 * L1 3:1 over random in 8 games (4 pairs), L2 6:4 over L1 in 10 (5
 * pairs), L3 won all 40 games (20 pairs) against L2, L4 5:5 with L3 (4
 * wins, 2 draws, 4 losses); L5 played itself but no match, and a match
 * of L1 against an agent that never played itself is no link. Each link
 * of a chain is fitted by its own score: r = 400 log10(s / (1 - s)),
 * with the information N s (1 - s) per link (natural units), so that
 *   L1 = 400 log10 3 = 190.849, se = sqrt(1 / 1.5) 400 / ln 10 = 141.840,
 *   L2 = L1 + 400 log10 1.5 = 261.286, se = sqrt(1/1.5 + 1/2.4) 400 / ln 10
 *      = 180.811 (the inverse of [[3.9, -2.4], [-2.4, 2.4]]: 1/a + 1/b),
 * and the sweep parts L3 and L4 from the anchor's block: they are rated
 * against L3, L4 = 0 with se = sqrt(1 / 2.5) 400 / ln 10 = 109.868; the
 * sweep allows L3 - L2 >= the Elo of 0.05^(1/20) = 0.860891, +316.64.
 * Depth: 75%, 60% (at least 60: counted), 100% count, 50% does not: 3 of
 * 4, and only the sweep's interval (91.2-100%) stays above 60%. Blitz:
 * L2 6:4 over L1 alone, no random level: L1, the weakest, is the anchor,
 * L2 = +70.437, se = sqrt(1 / 2.4) 400 / ln 10 = 112.134. */
Test(report, ladder_by_hand)
{
    const char *L[] = {"random", "mcts:sims=10", "mcts:sims=30", "ab:depth=1", "ab:depth=2", "mcts:sims=100"};
    ReportPair pairs[8];
    for (int i = 0; i < 6; i++) pairs[i] = hand_pair(VARIANT_STANDARD, L[i], 10 + i, 10, 2);
    pairs[6] = hand_pair(VARIANT_BLITZ, L[1], 12, 8, 0);
    pairs[7] = hand_pair(VARIANT_BLITZ, L[2], 15, 5, 0);
    ReportMatch matches[] = {
        hand_match(VARIANT_STANDARD, "l1-vs-r", L[1], L[0], 6, 0, 2, (uint64_t[5]){0, 0, 2, 0, 2}),
        hand_match(VARIANT_STANDARD, "l2-vs-l1", L[2], L[1], 6, 0, 4, (uint64_t[5]){0, 0, 4, 0, 1}),
        hand_match(VARIANT_STANDARD, "l3-vs-l2", L[3], L[2], 40, 0, 0, (uint64_t[5]){0, 0, 0, 0, 20}),
        hand_match(VARIANT_STANDARD, "l4-vs-l3", L[4], L[3], 4, 2, 4, (uint64_t[5]){0, 0, 5, 0, 0}),
        hand_match(VARIANT_STANDARD, "l1-vs-x", L[1], "mcts:sims=999", 2, 0, 0, (uint64_t[5]){0, 0, 0, 0, 1}),
        hand_match(VARIANT_BLITZ, "b-l2-vs-l1", L[2], L[1], 6, 0, 4, (uint64_t[5]){0, 0, 4, 0, 1}),
    };
    Report rep = {.db = "hand.db", .pairs = pairs, .npairs = 8, .matches = matches, .nmatches = 6, .games = 172};
    for (int v = 0; v < REPORT_VARIANT_NB; v++) report_ladder_build(&rep, v, &rep.ladder[v]);

    const ReportLadder *s = &rep.ladder[VARIANT_STANDARD];
    cr_assert(report_ladder_rated(s), "%s", s->why);
    cr_assert_eq(s->nlevels, 6);
    cr_assert_eq(s->nlinks, 4);
    cr_expect_eq(s->left_out, 1);
    cr_expect(s->anchor_random);
    cr_expect_str_eq(s->level[s->anchor].agent, "random");
    cr_expect_eq(s->nblocks, 2);
    /* the order: each link's lower level first; the level in no match last */
    for (int k = 0; k < 6; k++) cr_expect_str_eq(s->level[k].agent, L[k], "level %d", k);
    const double UNIT = 400 / log(10);
    const struct {
        double elo, se;
        int block, base;
    } WANT[] = {
        {0, 0, 0, 0},
        {400 * log10(3), sqrt(1 / 1.5) * UNIT, 0, 0},
        {400 * log10(3) + 400 * log10(1.5), sqrt(1 / 1.5 + 1 / 2.4) * UNIT, 0, 0},
        {0, 0, 1, 3},
        {0, sqrt(1 / 2.5) * UNIT, 1, 3},
    };
    cr_expect_float_eq(WANT[1].elo, 190.849, 1e-3);
    cr_expect_float_eq(WANT[2].se, 180.811, 1e-3);
    for (int k = 0; k < 5; k++) {
        cr_expect_float_eq(s->level[k].elo, WANT[k].elo, 1e-6, "level %d: %f", k, s->level[k].elo);
        cr_expect_float_eq(s->level[k].se, WANT[k].se, 1e-6, "level %d: se %f", k, s->level[k].se);
        cr_expect_eq(s->level[k].block, WANT[k].block, "level %d", k);
        cr_expect_eq(s->level[k].base, WANT[k].base, "level %d", k);
    }
    cr_expect_eq(s->level[5].block, -1, "a level in no match has no Elo");
    /* the sweep and its bound */
    const ReportLink *sweep = &s->link[2];
    cr_expect_eq(sweep->swept, 1);
    cr_expect_float_eq(sweep->bound, 316.64, 0.01);
    cr_expect_eq(s->link[0].swept + s->link[1].swept + s->link[3].swept, 0);
    /* each link's own Elo: the match's, from the pairs */
    Interval penta = stats_elo_pentanomial((uint64_t[5]){0, 0, 2, 0, 2});
    cr_expect_float_eq(s->link[0].elo.mid, penta.mid, 1e-9);
    cr_expect_float_eq(s->link[0].elo.lo, penta.lo, 1e-9);
    int surely, depth = report_ladder_depth(s, &surely);
    cr_expect_eq(depth, 3);
    cr_expect_eq(surely, 1);
    cr_expect_eq(report_ladder_top(s), 4, "the strongest: the top block's highest (L3 and L4 tie: the later)");

    const ReportLadder *b = &rep.ladder[VARIANT_BLITZ];
    cr_assert(report_ladder_rated(b), "%s", b->why);
    cr_expect(!b->anchor_random);
    cr_expect_str_eq(b->level[b->anchor].agent, L[1], "no random level: the weakest is the anchor");
    cr_expect_float_eq(b->level[1].elo, 400 * log10(1.5), 1e-6);
    cr_expect_float_eq(b->level[1].se, sqrt(1 / 2.4) * UNIT, 1e-6);

    /* the Markdown says all of it, and no number for what has none */
    char *md = markdown_of(&rep);
    char *lad = section(md, "## The ladder");
    cr_expect(strstr(lad, "| `random` | 0 (the anchor) | 0 (block 0's base) | 22 | 8 |"), "%s", lad);
    char want[512];
    snprintf(want, sizeof want, "| `mcts:sims=10` | %s | %s over `random` | 23 | 18 |", elo_text(WANT[1].elo, WANT[1].se),
             elo_text(WANT[1].elo, WANT[1].se));
    cr_expect(strstr(lad, want), "want '%s' in\n%s", want, lad);
    snprintf(want, sizeof want, "| `mcts:sims=30` | %s |", elo_text(WANT[2].elo, WANT[2].se));
    cr_expect(strstr(lad, want), "want '%s' in\n%s", want, lad);
    cr_expect(strstr(lad, "| `ab:depth=1` | not finite (above a link won game for game) | 0 (block 1's base) |"), "%s",
              lad);
    snprintf(want, sizeof want, "| `ab:depth=2` | not finite (above a link won game for game) | %s over `ab:depth=1` |",
             elo_text(0, WANT[4].se));
    cr_expect(strstr(lad, want), "want '%s' in\n%s", want, lad);
    cr_expect(strstr(lad, "| `mcts:sims=100` | – (in no ladder match) |"), "%s", lad);
    cr_expect(strstr(lad, "| `ab:depth=1` vs `mcts:sims=30` | 1 | 20 | 40 0 0 | 100.0% (91.2–100.0) | ≥ +317 "
                          "(one-sided 95%): no finite value, one side won every game | yes, and its whole interval |"),
              "%s", lad);
    cr_expect(strstr(lad, "| `mcts:sims=30` vs `mcts:sims=10` | 1 | 5 | 6 0 4 | 60.0% (31.3–83.2) |") &&
                  strstr(lad, "| yes, not its whole interval |"),
              "%s", lad);
    cr_expect(strstr(lad, "**No finite Elo between `ab:depth=1` and `mcts:sims=30`**: the first won all 40 games (20 "
                          "pairs) against the second") &&
                  strstr(lad, "at least +317 Elo (one-sided 95%"),
              "%s", lad);
    cr_expect(strstr(lad, "**Depth (Ai Ai): 3** of the 4 links") && strstr(lad, "not in `ab:depth=2` over `ab:depth=1` "
                                                                                "(50.0%)") &&
                  strstr(lad, "Of the 3, 1 stays at or above 60%"),
              "%s", lad);
    cr_expect(strstr(lad, "Left out of the ladder, as no match between two levels (one side played no self-play game "
                          "of this variant here, or both sides are the same agent): `l1-vs-x`."),
              "%s", lad);
    cr_expect(strstr(lad, "Anchor: random play is no level with ladder matches here, so the weakest level of the "
                          "ladder's first block, `mcts:sims=10`, is 0."),
              "%s", lad);
    /* White's score against Elo: the levels' rows */
    char *by = section(md, "## White's score against Elo");
    snprintf(want, sizeof want, "| `mcts:sims=30` | %s | 24 | ", elo_text(WANT[2].elo, WANT[2].se));
    cr_expect(strstr(by, want), "want '%s' in\n%s", want, by);
    cr_expect(strstr(by, "| boardspace.net | 59.0% | 747 |") && strstr(by, "| Board Game Arena | 50.1% | 705 |") &&
                  strstr(by, "| 52.55% | 200000 |"),
              "%s", by);
    cr_expect(strstr(section(md, "## Summary"), "Strongest level of the ladder here (by its Elo), `ab:depth=2`"), "%s",
              section(md, "## Summary"));
    for (int v = 0; v < REPORT_VARIANT_NB; v++) report_ladder_free(&rep.ladder[v]);
}

/* White's score against strength, by hand. Standard: random < A < B,
 * A over random 60:20 (40 pairs), B over A 60:40 (50 pairs): A +190.8
 * (se 44.9), B +261.3 (se 57.2). Blitz: random < A < B < C, A over random
 * 44:36 (40 pairs), B over A 60:20, C over B 36:4 (20 pairs): A +34.9 (se
 * 39.0), B +225.7 (se 59.5), C +607.4 (se 109.2). Each blitz level beside
 * the standard level nearest it in Elo: random beside random, A (34.9)
 * beside random (0, not A's 190.8), B (225.7) beside A (190.8, not B's
 * 261.3); C (its interval 393 to 821) has none whose interval meets its
 * own (B's: 149 to 373). The trend of each ladder is stats_score_trend's
 * on the levels' self-play at their Elo, the four tests one family. */
Test(report, strength_along_and_matched_by_hand)
{
    const char *L[] = {"random", "mcts:sims=10", "mcts:sims=30", "ab:depth=1"};
    ReportPair pairs[7] = {
        hand_pair(VARIANT_STANDARD, L[0], 15, 15, 0), hand_pair(VARIANT_STANDARD, L[1], 18, 12, 0),
        hand_pair(VARIANT_STANDARD, L[2], 24, 6, 0),  hand_pair(VARIANT_BLITZ, L[0], 10, 10, 0),
        hand_pair(VARIANT_BLITZ, L[1], 20, 20, 0),    hand_pair(VARIANT_BLITZ, L[2], 28, 12, 0),
        hand_pair(VARIANT_BLITZ, L[3], 30, 10, 0),
    };
    ReportMatch matches[] = {
        hand_match(VARIANT_STANDARD, "s-a", L[1], L[0], 60, 0, 20, (uint64_t[5]){0, 0, 20, 0, 20}),
        hand_match(VARIANT_STANDARD, "s-b", L[2], L[1], 60, 0, 40, (uint64_t[5]){0, 0, 40, 0, 10}),
        hand_match(VARIANT_BLITZ, "b-a", L[1], L[0], 44, 0, 36, (uint64_t[5]){0, 0, 36, 0, 4}),
        hand_match(VARIANT_BLITZ, "b-b", L[2], L[1], 60, 0, 20, (uint64_t[5]){0, 0, 20, 0, 20}),
        hand_match(VARIANT_BLITZ, "b-c", L[3], L[2], 36, 0, 4, (uint64_t[5]){0, 0, 4, 0, 16}),
    };
    Report rep = {.db = "hand.db", .pairs = pairs, .npairs = 7, .matches = matches, .nmatches = 5, .games = 230};
    for (int v = 0; v < REPORT_VARIANT_NB; v++) report_ladder_build(&rep, v, &rep.ladder[v]);
    const ReportLadder *s = &rep.ladder[VARIANT_STANDARD], *b = &rep.ladder[VARIANT_BLITZ];
    cr_assert(report_ladder_rated(s) && report_ladder_rated(b));
    cr_assert_eq(s->nlevels, 3);
    cr_assert_eq(b->nlevels, 4);
    cr_expect_float_eq(s->level[1].elo, 400 * log10(3), 1e-6);
    cr_expect_float_eq(b->level[1].elo, 400 * log10(44 / 36.0), 1e-6);
    cr_expect_float_eq(b->level[3].elo, 400 * (log10(44 / 36.0) + log10(3) + log10(9)), 1e-6);

    ReportAlong along[REPORT_VARIANT_NB];
    report_along(&rep, along);
    const uint64_t sc[3][3] = {{15, 0, 15}, {12, 0, 18}, {6, 0, 24}};
    const uint64_t bc[4][3] = {{10, 0, 10}, {20, 0, 20}, {12, 0, 28}, {10, 0, 30}};
    double sx[3], bx[4];
    for (int k = 0; k < 3; k++) sx[k] = s->level[k].elo;
    for (int k = 0; k < 4; k++) bx[k] = b->level[k].elo;
    StatsTrend ts, tb;
    cr_assert_eq(stats_score_trend(sc, sx, 3, &ts), 0);
    cr_assert_eq(stats_score_trend(bc, bx, 4, &tb), 0);
    cr_assert(along[VARIANT_STANDARD].ok && along[VARIANT_BLITZ].ok);
    cr_expect_eq(along[VARIANT_STANDARD].nlevels, 3);
    cr_expect_eq(along[VARIANT_BLITZ].nlevels, 4);
    cr_expect_float_eq(along[VARIANT_STANDARD].t.chi2, ts.chi2, 1e-12);
    cr_expect_float_eq(along[VARIANT_STANDARD].t.slope, ts.slope, 1e-15);
    cr_expect_float_eq(along[VARIANT_BLITZ].t.slope, tb.slope, 1e-15);
    cr_expect(ts.slope > 0 && tb.slope > 0);
    double fam[4] = {ts.p, ts.p_slope, tb.p, tb.p_slope};
    stats_holm(fam, 4, fam);
    cr_expect_eq(along[VARIANT_STANDARD].family, 4);
    cr_expect_float_eq(along[VARIANT_STANDARD].p_holm, fam[0], 1e-15);
    cr_expect_float_eq(along[VARIANT_STANDARD].p_slope_holm, fam[1], 1e-15);
    cr_expect_float_eq(along[VARIANT_BLITZ].p_holm, fam[2], 1e-15);
    cr_expect_float_eq(along[VARIANT_BLITZ].p_slope_holm, fam[3], 1e-15);
    cr_expect(!along[VARIANT_SWAP].ok, "no ladder: no trend");

    ReportMatched rows[REPORT_LEVEL_MAX];
    cr_assert_eq(report_matched(&rep, rows), 3);
    const int WANT[3][2] = {{0, 0}, {0, 1}, {1, 2}}; /* standard level, blitz level */
    double p[3];
    for (int i = 0; i < 3; i++) {
        cr_expect_eq(rows[i].standard, WANT[i][0], "row %d", i);
        cr_expect_eq(rows[i].blitz, WANT[i][1], "row %d", i);
        p[i] = report_diff(&pairs[WANT[i][0]], &pairs[3 + WANT[i][1]]).p;
        cr_expect_float_eq(rows[i].d.p, p[i], 1e-15);
        cr_expect_eq(rows[i].d.family, 3);
    }
    stats_holm(p, 3, p);
    for (int i = 0; i < 3; i++) cr_expect_float_eq(rows[i].d.p_holm, p[i], 1e-15, "row %d", i);
    /* B (70.0%) beside A (60.0%): +10 points */
    cr_expect_float_eq(rows[2].d.d.mid, 0.10, 1e-12);

    char *by = section(markdown_of(&rep), "## White's score against Elo");
    char want[512];
    snprintf(want, sizeof want,
             "**Along the ladder** (Standard: the 3 levels above, rated against the anchor, each level's self-play "
             "from its ladder opening, its Elo taken as exact): %s, χ² = %.1f on 2 df, ",
             fam[0] < 0.05 ? "the levels' White's scores differ beyond chance"
                           : "no difference between the levels' White's scores is told from chance",
             ts.chi2);
    cr_expect(strstr(by, want), "want '%s' in\n%s", want, by);
    snprintf(want, sizeof want, "its linear trend in Elo is %+.1f points per 1,000 Elo", 1e5 * tb.slope);
    cr_expect(strstr(by, want), "want '%s' in\n%s", want, by);
    cr_expect(strstr(by, "after Holm's correction over the 4 tests along the ladders"), "%s", by);
    cr_expect(strstr(by, "### Blitz against standard at matched strength") && strstr(by, "one family (3 tests, Holm)"),
              "%s", by);
    cr_expect(strstr(by, "| `random` | 0 (the anchor) | `random` | 0 (the anchor) | 50.0% (30 games) | 50.0% (20 "
                         "games) | +0.0 ("),
              "%s", by);
    snprintf(want, sizeof want, "| `mcts:sims=30` | %s | `mcts:sims=10` | %s | 60.0%% (30 games) | 70.0%% (40 games) | "
                                "+10.0 (",
             elo_text(b->level[2].elo, b->level[2].se), elo_text(s->level[1].elo, s->level[1].se));
    cr_expect(strstr(by, want), "want '%s' in\n%s", want, by);
    char *matched = gc(strdup(strstr(by, "### Blitz against standard at matched strength")));
    char *after = strstr(matched, "\n### ");
    if (after) *after = '\0';
    cr_expect_not(strstr(matched, "| `ab:depth=1` | "), "C has no standard level of matched strength:\n%s", matched);
    cr_expect(strstr(by, "what the line leaves, the levels' departure from it: χ² = "), "%s", by);
    for (int v = 0; v < REPORT_VARIANT_NB; v++) report_ladder_free(&rep.ladder[v]);
}

/* A match run's first agent's results by SQL: game 2k has A as White,
 * game 2k+1 has B as White. */
static void sql_match(sqlite3 *h, const char *run, long long *w, long long *d, long long *l)
{
    char sql[512];
#define A_COUNT(cond)                                                                                          \
    (snprintf(sql, sizeof sql, "SELECT count(*) FROM game JOIN run ON run.id = game.run_id WHERE run.name = '%s' " \
                               "AND (%s)", run, cond),                                                         \
     db_int(h, sql))
    *w = A_COUNT("(idx % 2 = 0 AND result = 'white') OR (idx % 2 = 1 AND result = 'black')");
    *d = A_COUNT("result = 'draw'");
    *l = A_COUNT("(idx % 2 = 0 AND result = 'black') OR (idx % 2 = 1 AND result = 'white')");
#undef A_COUNT
}

/* White's results of a self-play run by SQL. */
static Interval sql_selfplay(sqlite3 *h, const char *run, uint64_t counts[3])
{
    char sql[512];
    const char *const RESULTS[3] = {"black", "draw", "white"};
    for (int r = 0; r < 3; r++) {
        snprintf(sql, sizeof sql, "SELECT count(*) FROM game JOIN run ON run.id = game.run_id WHERE run.name = '%s' "
                                  "AND result = '%s'", run, RESULTS[r]);
        counts[r] = (uint64_t)db_int(h, sql);
    }
    return stats_score(counts[2], counts[1], counts[0]);
}

/* The score cell "s% (lo–hi)" of counts. */
static char *score_text(Interval s)
{
    char *t = gc(malloc(64));
    snprintf(t, 64, "%.1f%% (%.1f–%.1f)", 100 * s.mid, 100 * s.lo, 100 * s.hi);
    return t;
}

/* A tiny ladder played by `yinsh study`: random, mcts:sims=2 and
 * mcts:sims=8 against themselves from random:4, mcts:sims=8 also from
 * rings, and the ladder's neighbour matches (20 pairs each), in both
 * variants. Its report against SQL counts and a hand fit: a chain of
 * three levels is fitted link by link (r = 400 log10(s / (1 - s)) of
 * each link's score s, the se from the information N s (1 - s) added up
 * the chain), the links' rows, the depth, White's score against Elo,
 * prefix against rings (Newcombe's interval and the exact permutation
 * test), the picture data and the pictures. */
Test(report, ladder_from_a_study)
{
    char *dir = tmpdir_new(), *se, *so;
    char *ini = gc(malloc(2048));
    snprintf(ini, 2048,
             "[study]\nname = t\ndb = %s/t.db\nseed = 7\nvariants = standard, blitz\ngames = 40\nopening = random:4\n"
             "[agent random]\nspec = random\n[agent m2]\nspec = mcts:sims=2\n[agent m8]\nspec = mcts:sims=8\n"
             "[agent m8-rings]\nspec = mcts:sims=8\nopening = rings\n"
             "[ladder]\nlevels = random, m2, m8\ngames = 40\n[report]\nout = %s/rep\nplots = yes\n",
             dir, dir);
    write_in(dir, "t.ini", ini);
    cr_assert_eq(yinsh_run(dir, ARGS("study", "t.ini", "--quiet", "--threads", "2"), NULL, &se), 0, "%s", se);
    char *out = path_in(dir, "rep"), *md = slurp(path_in(out, "report.md"));
    sqlite3 *h = db_open(path_in(dir, "t.db"));
    const double UNIT = 400 / log(10);
    const char *const VARIANTS[2] = {"standard", "blitz"};
    const char *const LEVELS[3] = {"random", "mcts:sims=2", "mcts:sims=8"};
    const char *const LINKS[2] = {"m2-vs-random", "m8-vs-m2"};
    char *lad = section(md, "## The ladder"), *by = section(md, "## White's score against Elo");
    char *dat = slurp(path_in(out, "ladder.dat"));
    for (int v = 0; v < 2; v++) {
        const char *vsec = strstr(lad, v ? "### Blitz" : "### Standard");
        cr_assert(vsec, "%s", lad);
        double elo[3] = {0}, var[3] = {0};
        int deep = 0;
        for (int k = 0; k < 2; k++) {
            char run[64], want[512];
            snprintf(run, sizeof run, "t-%s-%s", VARIANTS[v], LINKS[k]);
            long long w, d, l;
            sql_match(h, run, &w, &d, &l);
            cr_assert_eq(w + d + l, 40, "%s", run);
            cr_assert(w + d / 2.0 > 0 && l + d / 2.0 > 0, "%s: a sweep; the test wants each side scoring", run);
            Interval s = stats_score((uint64_t)w, (uint64_t)d, (uint64_t)l);
            elo[k + 1] = elo[k] + 400 * log10(s.mid / (1 - s.mid));
            var[k + 1] = var[k] + 1 / (40 * s.mid * (1 - s.mid));
            deep += 5 * (2 * w + d) >= 6 * 40;
            snprintf(want, sizeof want, "| `%s` vs `%s` | 1 | 20 | %lld %lld %lld | %s | ", LEVELS[k + 1], LEVELS[k], w,
                     d, l, score_text(s));
            cr_expect(strstr(vsec, want), "want '%s' in\n%s", want, vsec);
        }
        /* the levels' Elo: the hand fit */
        cr_expect(strstr(vsec, "| `random` | 0 (the anchor) | 40 | 40 |"), "%s", vsec);
        for (int k = 1; k < 3; k++) {
            char want[256];
            snprintf(want, sizeof want, "| `%s` | %s | 40 | %d |", LEVELS[k], elo_text(elo[k], sqrt(var[k]) * UNIT),
                     k == 1 ? 80 : 40);
            cr_expect(strstr(vsec, want), "want '%s' in\n%s", want, vsec);
        }
        char want[256];
        snprintf(want, sizeof want, "**Depth (Ai Ai): %d** of the 2 links", deep);
        cr_expect(strstr(vsec, want), "want '%s' in\n%s", want, vsec);

        /* White's score against Elo: each level's self-play, and mcts:sims=8 from rings too */
        const char *bsec = strstr(by, v ? "### Blitz" : "### Standard");
        cr_assert(bsec, "%s", by);
        const char *const RUNS[4] = {"random", "m2", "m8", "m8-rings"};
        Interval score[4];
        uint64_t counts[4][3];
        for (int k = 0; k < 4; k++) {
            char run[64];
            snprintf(run, sizeof run, "t-%s-%s", VARIANTS[v], RUNS[k]);
            score[k] = sql_selfplay(h, run, counts[k]);
            int lv = k < 3 ? k : 2;
            const char *label = k < 2 ? LEVELS[k] : k == 2 ? "mcts:sims=8 (opening random:4)" : "mcts:sims=8 (opening "
                                                                                                 "rings)";
            snprintf(want, sizeof want, "| `%s` | %s | 40 | %s | ", label,
                     lv ? elo_text(elo[lv], sqrt(var[lv]) * UNIT) : "0 (the anchor)", score_text(score[k]));
            cr_expect(strstr(bsec, want), "want '%s' in\n%s", want, bsec);
        }
        /* prefix against rings: random:4 minus rings */
        Interval diff = stats_diff_newcombe(score[2], score[3]);
        double p = stats_p_scores_differ(counts[2], counts[3], NULL);
        char pv[32];
        if (p < 0.001) snprintf(pv, sizeof pv, "< 0.001");
        else snprintf(pv, sizeof pv, "%.3f", p);
        snprintf(want, sizeof want,
                 "| %s | `mcts:sims=8` | `random:4`: %.1f%% (40 games) | `rings`: %.1f%% (40 games) | %+.1f (%+.1f to "
                 "%+.1f) | %s |",
                 VARIANTS[v], 100 * score[2].mid, 100 * score[3].mid, 100 * diff.mid + 0.0, 100 * diff.lo + 0.0,
                 100 * diff.hi + 0.0, pv);
        cr_expect(strstr(section(md, "## One agent from two openings"), want), "want '%s' in\n%s", want,
                  section(md, "## One agent from two openings"));

        /* ladder.dat: the block of the variant, the levels in Elo order, then the other opening's row */
        char head[32];
        snprintf(head, sizeof head, "# %s\n", VARIANTS[v]);
        const char *row = strstr(dat, head);
        cr_assert(row, "%s", dat);
        row += strlen(head);
        double prev = -1e9;
        for (int k = 0; k < 4; k++) {
            double e, lo, hi, s, slo, shi, dr, dlo, dhi, mean, median;
            int q1, q3, main;
            unsigned long long n;
            if (k == 3) {
                cr_assert(row[0] == '\n', "one blank line before the other opening's row: %s", row);
                row++;
            }
            cr_assert_eq(sscanf(row, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %d %d %llu %d", &e, &lo, &hi, &s, &slo,
                                &shi, &dr, &dlo, &dhi, &mean, &median, &q1, &q3, &n, &main),
                         15, "%s", row);
            int lv = k < 3 ? k : 2;
            cr_expect(e >= prev, "Elo order");
            prev = k < 3 ? e : prev;
            cr_expect_float_eq(e, elo[lv], 0.006, "%s: %f, want %f", row, e, elo[lv]);
            cr_expect_float_eq(hi - e, lv ? STATS_Z95 * sqrt(var[lv]) * UNIT : 0, 0.011, "%s", row);
            cr_expect_float_eq(s, score[k].mid, 1e-5, "%s", row);
            cr_expect_float_eq(slo, score[k].lo, 1e-5, "%s", row);
            cr_expect_float_eq(dr, (double)counts[k][1] / 40, 1e-5, "%s", row);
            cr_expect_eq(n, 40);
            cr_expect_eq(main, k < 3);
            row = strchr(row, '\n') + 1;
        }
    }
    sqlite3_close(h);

    /* published.dat: the figures as published */
    const char *pub = slurp(path_in(out, "published.dat"));
    cr_expect(strstr(pub, "\n1 0.59000 ") && strstr(pub, " 747 \"boardspace.net\" \"humans\" \"59.0%\" \"747\"\n"), "%s",
              pub);
    cr_expect(strstr(pub, "\n2 0.50100 ") && strstr(pub, " 705 \"Board Game Arena\""), "%s", pub);
    cr_expect(strstr(pub, "\n3 0.52550 ") && strstr(pub, " 200000 ") && strstr(pub, "\"52.55%\" \"200,000\"\n"), "%s",
              pub);
    /* the pictures: White's score against Elo in place of against simulations, drawn by gnuplot */
    cr_assert_eq(system("command -v gnuplot >/dev/null 2>&1"), 0,
                 "gnuplot is not installed: run scripts/setup.sh (it installs gnuplot-nox) to test the pictures");
    cr_expect(file_nonempty(path_in(out, "score-elo.png")), "%s", slurp(path_in(out, "gnuplot.log")));
    cr_expect(file_nonempty(path_in(out, "draws-length-elo.png")), "%s", slurp(path_in(out, "gnuplot.log")));
    cr_expect(!file_exists(path_in(out, "gnuplot.log")), "%s", slurp(path_in(out, "gnuplot.log")));
    cr_expect(!file_exists(path_in(out, "strength.png")) && !file_exists(path_in(out, "strength.dat")),
              "with a ladder, no picture against simulations");
    /* the key of the numbered levels, and each main row's number in it */
    cr_expect_str_eq(slurp(path_in(out, "ladder-levels.dat")),
                     "# The levels numbered in the pictures against Elo (yinsh report)\n# level label\n"
                     "1 \"random\"\n2 \"mcts:sims=2\"\n3 \"mcts:sims=8\"\n");
    cr_expect(strstr(dat, " 1 \"random\" 1\n") && strstr(dat, " 1 \"mcts:sims=8 (opening random:4)\" 3\n") &&
                  strstr(dat, " 0 \"mcts:sims=8 (opening rings)\" 3\n"),
              "%s", dat);
    /* the lengths against Elo: ladder.dat's rows, x the level's Elo */
    const char *lens = slurp(path_in(out, "lengths-standard.dat"));
    cr_expect(strstr(lens, "the ladder's levels against their Elo") && strstr(lens, "\n0.00 0.00 ") &&
                  strstr(lens, " 40 1 \"random\"\n") && strstr(lens, " 40 0 \"mcts:sims=8 (opening rings)\"\n"),
              "%s", lens);
    char *pics = section(md, "## Pictures");
    cr_expect(strstr(pics, "![White's score against Elo](score-elo.png)") &&
                  strstr(pics, "![Draws and game length against Elo](draws-length-elo.png)") &&
                  strstr(pics, "](lengths.png)") && strstr(pics, "](first-ring.png)") &&
                  strstr(pics, "Each variant at each level of its ladder") && !strstr(pics, "](strength.png)"),
              "%s", pics);

    /* the JSON says the same: two ladders of one block, depth, the comparison of openings */
    cr_assert_eq(yinsh_run(dir, ARGS("report", "--db", "t.db", "--kind", "all", "--out", "r2", "--no-plots", "--json"),
                           &so, &se),
                 0, "%s", se);
    write_in(dir, "r.json", so);
    char check[2048];
    snprintf(check, sizeof check,
             "cd %s && python3 -c \"import json; d = json.load(open('r.json')); L = d['ladders']; "
             "assert all(len(x['along']['levels']) == 3 and x['along']['df'] == 2 and x['along']['holm_family'] == 4 "
             "and x['along']['games'] == 120 for x in L); "
             "M = d['matched_strength']; "
             "assert M and M[0]['blitz_level'] == 'random' and M[0]['standard_level'] == 'random'; "
             "assert all(r['holm_family'] == len(M) and r['p_holm'] >= r['p_value'] for r in M); "
             "assert [x['variant'] for x in L] == ['standard', 'blitz']; "
             "assert all(x['anchor'] == 'random' and x['anchor_random'] and x['blocks'] == 1 for x in L); "
             "assert all(len(x['levels']) == 3 and len(x['links']) == 2 for x in L); "
             "assert all(x['links'][0]['pairs'] == 20 and x['links'][0]['swept'] == 0 for x in L); "
             "assert L[0]['levels'][0]['elo']['ci95'] is None and L[0]['levels'][1]['elo']['relative_to'] == 'random'; "
             "assert L[0]['strongest']['agent'].startswith('mcts:sims=8'); "
             "assert len(d['openings_compared']) == 2 and d['openings_compared'][0]['second_opening'] == 'rings'; "
             "assert [p['games'] for p in d['published']] == [747, 705, 200000]; "
             "m = [p for p in d['pairs'] if p['white'] == 'random' and p['black'] == 'random'][0]; "
             "assert m['opening'] == 'random:4' and m['ladder_elo']['value'] == 0\"",
             dir);
    cr_expect_eq(system(check), 0, "%s", so);

    /* the self-play runs alone (the default selection) hold no ladder: the strength picture as before */
    cr_assert_eq(yinsh_run(dir, ARGS("report", "--db", "t.db", "--out", "r3", "--quiet"), NULL, &se), 0, "%s", se);
    char *md3 = slurp(path_in(dir, "r3/report.md"));
    cr_expect(!strstr(md3, "## The ladder") && strstr(md3, "](strength.png)"), "%s", section(md3, "## Pictures"));
}
