/* The ladder's sections of the report in Markdown: the levels on one Elo
 * scale with the links between them and the ladder's depth; White's score
 * and the measures beyond it against Elo, beside the figures published
 * elsewhere, blitz against standard at every level and the first-ring map
 * of the strongest level; and the same agent from two openings. Text from
 * the database goes through report_md_code alone, as in markdown.c. */
#include <math.h>
#include <string.h>
#include "engine/geometry.h"
#include "engine/notation.h"
#include "study/report/report_internal.h"
#include "selfplay/stats/stats.h"
#include "engine/base/number.h"

/* A level's agent, short, as code. */
static void level_code(const ReportLadder *lad, int k, FILE *f)
{
    char label[1100];
    report_agent_label(lad->level[k].agent, label, sizeof label);
    report_md_code(f, label);
}

/* An interval in Elo: "+123 (+100 to +146)". */
static void elo_interval(Interval e, FILE *f)
{
    char mid[32], lo[32], hi[32];
    report_fmt_elo(e.mid, mid, sizeof mid);
    report_fmt_elo(e.lo, lo, sizeof lo);
    report_fmt_elo(e.hi, hi, sizeof hi);
    fprintf(f, "%s (%s to %s)", mid, lo, hi);
}

/* A level's Elo relative to the anchor as a cell: the rating with its
 * interval, the anchor itself, or why there is none. */
static void elo_cell(const ReportLadder *lad, int k, FILE *f)
{
    const ReportLevel *lv = &lad->level[k];
    if (lv->block < 0) fprintf(f, "– (in no ladder match)");
    else if (lv->block > 0) fprintf(f, "not finite (above a link won game for game)");
    else if (k == lad->anchor) fprintf(f, "0 (the anchor)");
    else elo_interval(report_level_elo(lv), f);
}

/* A level's Elo within its block, for a ladder of several blocks. */
static void block_cell(const ReportLadder *lad, int k, FILE *f)
{
    const ReportLevel *lv = &lad->level[k];
    if (lv->block < 0) fprintf(f, "–");
    else if (lv->base == k) fprintf(f, "0 (block %d's base)", lv->block);
    else {
        elo_interval(report_level_elo(lv), f);
        fprintf(f, " over ");
        level_code(lad, lv->base, f);
    }
}

/* A link's Elo: from the pairs with its interval, or the bound a sweep
 * allows. */
static void link_elo_cell(const ReportLink *l, FILE *f)
{
    if (l->swept) {
        char b[32];
        report_fmt_elo(l->swept > 0 ? l->bound : -l->bound, b, sizeof b);
        fprintf(f, "%s %s (one-sided 95%%): no finite value, one side won every game", l->swept > 0 ? "≥" : "≤", b);
    } else if (l->elo.lo == l->elo.hi) {
        char mid[32];
        report_fmt_elo(l->elo.mid, mid, sizeof mid);
        fprintf(f, "%s (no interval)", mid);
    } else {
        elo_interval(l->elo, f);
    }
}

/* Whether a link's upper level scored at least REPORT_DEPTH_SCORE_PCT
 * (as report_ladder_depth counts), and whether its interval does too. */
static bool link_deep(const ReportLink *l, bool *surely)
{
    ReportLadder one = {.link = (ReportLink *)l, .nlinks = 1};
    int sure, n = report_ladder_depth(&one, &sure);
    *surely = sure > 0;
    return n > 0;
}

/* The levels' table: each level's Elo (and within its block, when there
 * are blocks), its self-play games and its ladder games. */
static void write_levels(const Report *rep, const ReportLadder *lad, FILE *f)
{
    bool blocks = lad->nblocks > 1;
    fprintf(f, "| level | Elo (95%% CI) |%s self-play games | ladder games |\n|---|---|%s--:|--:|\n",
            blocks ? " Elo within its block (95% CI) |" : "", blocks ? "---|" : "");
    for (int k = 0; k < lad->nlevels; k++) {
        uint64_t games = 0;
        for (int i = 0; i < lad->nlinks; i++)
            if (lad->link[i].upper == k || lad->link[i].lower == k) games += 2 * lad->link[i].tally.pairs;
        fprintf(f, "| ");
        level_code(lad, k, f);
        fprintf(f, " | ");
        elo_cell(lad, k, f);
        fprintf(f, " | ");
        if (blocks) {
            block_cell(lad, k, f);
            fprintf(f, " | ");
        }
        fprintf(f, "%llu | %llu |\n", (unsigned long long)rep->pairs[lad->level[k].pair].games,
                (unsigned long long)games);
    }
}

/* The links' table: each match between two levels, its pairs, score and
 * Elo, and whether it is as deep as the depth asks. */
static void write_links(const ReportLadder *lad, FILE *f)
{
    fprintf(f, "\n| match | runs | pairs | first agent: W D L | its score (95%% CI) | Elo from the pairs (95%% CI) | "
               "at least %d%%? |\n|---|--:|--:|---|---|---|---|\n", REPORT_DEPTH_SCORE_PCT);
    for (int i = 0; i < lad->nlinks; i++) {
        const ReportLink *l = &lad->link[i];
        bool surely, deep = link_deep(l, &surely);
        fprintf(f, "| ");
        level_code(lad, l->upper, f);
        fprintf(f, " vs ");
        level_code(lad, l->lower, f);
        fprintf(f, " | %d | %llu | %llu %llu %llu | %.1f%% (%.1f–%.1f) | ", l->runs, (unsigned long long)l->tally.pairs,
                (unsigned long long)l->tally.wins, (unsigned long long)l->tally.draws,
                (unsigned long long)l->tally.losses, 100 * l->score.mid, 100 * l->score.lo, 100 * l->score.hi);
        link_elo_cell(l, f);
        fprintf(f, " | %s |\n", !deep ? "no" : surely ? "yes, and its whole interval" : "yes, not its whole interval");
    }
    fprintf(f, "\n");

}

/* The depth, and which links make it. */
static void write_depth(const ReportLadder *lad, FILE *f)
{
    int surely, depth = report_ladder_depth(lad, &surely);
    fprintf(f, "**Depth (Ai Ai): %d** of the %d %s: the first agent scored at least %d%% against the second in ", depth,
            lad->nlinks, lad->nlinks == 1 ? "link" : "links", REPORT_DEPTH_SCORE_PCT);
    bool any = false;
    for (int pass = 0; pass < 2; pass++) {
        if (pass) {
            if (depth == lad->nlinks) break;
            fprintf(f, "%snot in ", any ? "; " : "none; ");
            any = false;
        }
        for (int i = 0; i < lad->nlinks; i++) {
            bool s, deep = link_deep(&lad->link[i], &s);
            if (deep == !!pass) continue;
            fprintf(f, "%s", any ? ", " : "");
            level_code(lad, lad->link[i].upper, f);
            fprintf(f, " over ");
            level_code(lad, lad->link[i].lower, f);
            fprintf(f, " (%.1f%%)", 100 * lad->link[i].score.mid);
            any = true;
        }
    }
    if (depth)
        fprintf(f, ". Of the %d, %d %s at or above %d%% across the whole 95%% interval%s", depth, surely,
                surely == 1 ? "stays" : "stay", REPORT_DEPTH_SCORE_PCT,
                surely < depth ? "; the others' intervals reach below it" : "");
    fprintf(f, ".\n\n");

}

/* The sweeps: no finite rating across them, and the bound the pairs
 * allow. */
static void write_sweeps(const ReportLadder *lad, FILE *f)
{
    for (int i = 0; i < lad->nlinks; i++) {
        const ReportLink *l = &lad->link[i];
        if (!l->swept) continue;
        int won = l->swept > 0 ? l->upper : l->lower, lost = l->swept > 0 ? l->lower : l->upper;
        char b[32];
        report_fmt_elo(l->bound, b, sizeof b);
        fprintf(f, "**No finite Elo between ");
        level_code(lad, won, f);
        fprintf(f, " and ");
        level_code(lad, lost, f);
        fprintf(f, "**: the first won all %llu games (%llu pairs) against the second, and no rating fits a score "
                   "of 100%%. The pairs allow a difference of at least %s Elo (one-sided 95%%: a pair won 2–0 at a "
                   "rate of at least 0.05^(1/%llu), and a game's score is at least that rate), and no upper "
                   "bound.",
                (unsigned long long)(2 * l->tally.pairs), (unsigned long long)l->tally.pairs, b,
                (unsigned long long)l->tally.pairs);
        if (lad->level[won].block != lad->level[lost].block)
            fprintf(f, " The levels it parts are rated in separate blocks, each against its own weakest level.");
        fprintf(f, "\n\n");
    }
}

/* The matches of variant v left out of the ladder, when there are some. */
static void write_left_out(const Report *rep, const ReportLadder *lad, int v, FILE *f)
{
    if (!lad->left_out) return;
    fprintf(f, "Left out of the ladder, as no match between two levels (one side played no self-play game of "
               "this variant here, or both sides are the same agent): ");
    bool first = true;
    for (int i = 0; i < rep->nmatches; i++) {
        const ReportMatch *m = &rep->matches[i];
        if (m->variant != v) continue;
        int a = report_level_of(lad, m->a), b = report_level_of(lad, m->b);
        if (a >= 0 && b >= 0 && a != b) continue;
        fprintf(f, "%s", first ? "" : ", ");
        report_md_code(f, m->run);
        first = false;
    }
    fprintf(f, ".\n\n");
}

static void write_variant_ladder(const Report *rep, int v, FILE *f)
{
    const ReportLadder *lad = &rep->ladder[v];
    fprintf(f, "### %s\n\n", report_variant_title(v));
    if (lad->why[0]) {
        fprintf(f, "No level is rated: %s.\n\n", lad->why);
        return;
    }
    if (lad->anchor_random) fprintf(f, "Anchor: random play = 0.");
    else {
        fprintf(f, "Anchor: random play is no level with ladder matches here, so the weakest level of the "
                   "ladder's first block, ");
        level_code(lad, lad->anchor, f);
        fprintf(f, ", is 0.");
    }
    fprintf(f, " Levels weakest first, in the order of the matches (each match's second agent below its first).\n\n");
    write_levels(rep, lad, f);
    write_links(lad, f);
    write_depth(lad, f);
    write_sweeps(lad, f);
    write_left_out(rep, lad, v, f);
}

void report_md_ladder(const Report *rep, FILE *f)
{
    bool any = false;
    for (int v = 0; v < REPORT_VARIANT_NB; v++) any |= rep->ladder[v].nlinks || rep->ladder[v].why[0];
    if (!any) return;
    fprintf(f, "## The ladder\n\n"
               "The levels are the agents that played themselves in this selection; the ladder's matches are the "
               "match runs between two levels (pairs of games from one opening, colours swapped). Each variant's "
               "levels are rated by one joint Bradley-Terry fit of all its ladder matches: the maximum-likelihood "
               "ratings on the logistic Elo scale (+35 Elo ≈ 55%%), a draw half a win, whole pairs only, as "
               "`yinsh tournament` rates its players and `yinsh match` counts its pairs. The anchor is random "
               "play = 0 where random play is a level, else the weakest level. A level's interval is the fit's, "
               "its rating ± 1.96 standard errors (from the information of all the matches, relative to the "
               "anchor). Each match follows with its own figures: the first agent's score with its Wilson "
               "interval, and the Elo difference from the pairs' scores (pentanomial) as `yinsh match` gives "
               "it. The depth is Ai Ai's measure of a ladder: how many levels beat the one below by at least "
               "%d%%. A match that one side won game for game has no finite Elo: the report says so and gives "
               "the bound the pairs allow.\n\n",
            REPORT_DEPTH_SCORE_PCT);
    for (int v = 0; v < REPORT_VARIANT_NB; v++)
        if (rep->ladder[v].nlinks || rep->ladder[v].why[0]) write_variant_ladder(rep, v, f);
}

/* A level's row of White's score against Elo: a pair of the level (its
 * self-play from one opening) with the level's Elo. */
static void write_level_row(const ReportLadder *lad, int k, const ReportPair *p, FILE *f)
{
    ReportScore s = report_score(p);
    Interval d = report_draw_rate(p);
    char label[1100], pv[32], ph[32], at[32], lead[32], rat[32], rlead[32], bal[32], br[REPORT_PHASE_NB][32];
    report_fmt_opt(report_ref_decided_at(p), "%.2f", rat, sizeof rat);
    report_fmt_opt(report_ref_lead_changes(p), "%.2f", rlead, sizeof rlead);
    report_pair_label(p, label, sizeof label);
    report_fmt_p(s.p, pv, sizeof pv);
    report_fmt_holm(s.p_holm, s.family, ph, sizeof ph);
    report_fmt_opt(report_decided_at(p), "%.2f", at, sizeof at);
    report_fmt_opt(report_lead_changes(p), "%.2f", lead, sizeof lead);
    report_fmt_opt(report_balance(p), "%.3f", bal, sizeof bal);
    for (int i = 0; i < REPORT_PHASE_NB; i++) report_fmt_opt(report_branching(p, i), "%.1f", br[i], sizeof br[i]);
    static const char *const VERDICT[] = {
        [REPORT_TOO_FEW] = "too few games",
        [REPORT_CHANCE] = "none told from chance",
        [REPORT_SPLIT] = "on the edge: no verdict",
        [REPORT_QUESTION] = "a question: p < 0.05 alone, not after Holm's correction",
    };
    fprintf(f, "| ");
    report_md_code(f, label);
    fprintf(f, " | ");
    elo_cell(lad, k, f);
    fprintf(f, " | %llu | %.1f%% (%.1f–%.1f) | %s | %s | %s | %.1f%% (%.1f–%.1f) | %.1f, %.1f | %s | %s | %s | %s | %s | "
               "%s, %s, %s |\n",
            (unsigned long long)p->games, 100 * s.score, 100 * s.lo, 100 * s.hi, pv, ph,
            s.verdict == REPORT_EDGE ? (s.score > 0.5 ? "White's edge, too large to be chance"
                                                      : "Black's edge, too large to be chance")
                                     : VERDICT[s.verdict],
            100 * d.mid, 100 * d.lo, 100 * d.hi, report_mean_length(p), report_median_length(p), at, lead, rat, rlead,
            bal, br[0],
            br[1], br[2]);
}

static void write_published(FILE *f)
{
    fprintf(f, "White's score in games published elsewhere, **as published** (their share and games; the variant, "
               "the draws and the players' strength on this report's scale are not given, so they have no place "
               "on its Elo axis: the pictures mark them beside it). The interval is ours, the Wilson interval of "
               "the share over the games, at least as wide as the score's would be with the draws known.\n\n"
               "| who | source | White's score, as published | games | 95%% CI (ours) |\n|---|---|--:|--:|---|\n");
    for (int i = 0; i < REPORT_PUBLISHED_NB; i++) {
        const ReportPublished *p = &REPORT_PUBLISHED[i];
        Interval w = report_published_interval(p);
        fprintf(f, "| %s | %s | %.*f%% | %llu | %.1f–%.1f%% |\n", p->who, p->source, p->digits, 100 * p->white_score,
                (unsigned long long)p->games, 100 * w.lo, 100 * w.hi);
    }
    fprintf(f, "\n");
}

/* Blitz against standard at every level that played both (the same
 * opening), with each variant's Elo. */
static void write_levels_compared(const Report *rep, FILE *f)
{
    const ReportLadder *st = &rep->ladder[VARIANT_STANDARD], *bl = &rep->ladder[VARIANT_BLITZ];
    int rows = 0;
    for (int k = 0; k < st->nlevels; k++) {
        const ReportPair *a = &rep->pairs[st->level[k].pair];
        int at = report_pair_index(rep, VARIANT_BLITZ, a->white, a->black, a->opening), kb = report_level_of(bl, a->white);
        if (at < 0 || kb < 0) continue;
        const ReportPair *b = &rep->pairs[at];
        if (!rows++)
            fprintf(f, "### Blitz against standard at every level\n\n"
                       "White's score, blitz minus standard, in percentage points, with Newcombe's interval and the "
                       "exact permutation test, as in \"Blitz against standard\" below; each variant's Elo from its "
                       "own ladder. \"p (Holm)\" is p adjusted over the family of every agent's comparison of "
                       "the variants against itself (%d tests), and the verdict is worded by it.\n\n"
                       "| level | Elo: standard | Elo: blitz | standard: White's score | blitz: White's score | "
                       "blitz − standard (95%% CI) | p | p (Holm) | verdict |\n|---|---|---|--:|--:|---|--:|--:|---|\n",
                    report_diff_family(rep));
        report_md_pair_cell(f, a);
        fprintf(f, " | ");
        elo_cell(st, k, f);
        fprintf(f, " | ");
        elo_cell(bl, kb, f);
        report_md_diff_cells(f, a, b);
    }
    if (rows) fprintf(f, "\n");
}

/* A test's p and its Holm-adjusted p in words: "p = 0.012 (0.048 after
 * Holm's correction over the 4 tests along the ladders)". */
static void p_words(double p, double p_holm, int family, FILE *f)
{
    char pv[32], ph[32];
    report_fmt_p(p, pv, sizeof pv);
    report_fmt_p(p_holm, ph, sizeof ph);
    fprintf(f, "p %s%s (%s after Holm's correction over the %d test%s along the ladders)", pv[0] == '<' ? "" : "= ",
            pv, ph, family, number_plural((uint64_t)family));
}

/* White's score along a variant's ladder: whether the levels differ, the
 * linear trend in Elo, and what the line leaves. */
static void write_along(const ReportAlong *a, int v, FILE *f)
{
    if (!a->ok) return;
    const StatsTrend *t = &a->t;
    bool differ = a->p_holm < 0.05, slope = a->p_slope_holm < 0.05;
    fprintf(f, "**Along the ladder** (%s: the %d levels above, rated against the anchor, each level's self-play "
               "from its ladder opening, its Elo taken as exact): %s, χ² = %.1f on %d df, ",
            report_variant_title(v), a->nlevels,
            differ ? "the levels' White's scores differ beyond chance"
                   : "no difference between the levels' White's scores is told from chance",
            t->chi2, t->k - 1);
    p_words(t->p, a->p_holm, a->family, f);
    fprintf(f, "; its linear trend in Elo is %+.1f points per 1,000 Elo (95%% CI %+.1f to %+.1f), ",
            1e5 * t->slope + 0.0, 1e5 * t->slope_ci.lo + 0.0, 1e5 * t->slope_ci.hi + 0.0);
    p_words(t->p_slope, a->p_slope_holm, a->family, f);
    fprintf(f, "%s", slope ? (t->slope > 0 ? ": White's score grows with strength beyond chance"
                                            : ": White's score falls with strength beyond chance")
                           : ": no trend told from chance");
    if (!isnan(t->chi2_dev)) {
        char pd[32];
        report_fmt_p(t->p_dev, pd, sizeof pd);
        fprintf(f, "; what the line leaves, the levels' departure from it: χ² = %.1f on %d df (p %s%s)",
                t->chi2_dev, t->k - 2, pd[0] == '<' ? "" : "= ", pd);
    }
    fprintf(f, ".\n\n");
}

/* Blitz against standard at matched strength. */
static void write_matched(const Report *rep, FILE *f)
{
    ReportMatched rows[REPORT_LEVEL_MAX];
    int n = report_matched(rep, rows);
    if (!n) return;
    const ReportLadder *st = &rep->ladder[VARIANT_STANDARD], *bl = &rep->ladder[VARIANT_BLITZ];
    fprintf(f, "### Blitz against standard at matched strength\n\n"
               "Each blitz level beside the standard level nearest it in Elo, where the two levels' 95%% intervals "
               "of Elo overlap: White's score, blitz minus standard, with Newcombe's interval and the exact "
               "permutation test, as in \"Blitz against standard\" below. The comparisons are one family (%d "
               "test%s, Holm), and a standard level may serve more than one blitz level. Each Elo is above its own "
               "variant's anchor: the same Elo in two variants says that each level wins as often against its own "
               "variant's weaker levels, which is this table's meaning of matched strength, not a proof that the "
               "two play equally well.\n\n"
               "| blitz level | its Elo | standard level | its Elo | standard: White's score | blitz: White's score | "
               "blitz − standard (95%% CI) | p | p (Holm) | verdict |\n|---|---|---|---|--:|--:|---|--:|--:|---|\n",
            rows[0].d.family, number_plural((uint64_t)rows[0].d.family));
    for (int i = 0; i < n; i++) {
        const ReportPair *a = &rep->pairs[st->level[rows[i].standard].pair],
                         *b = &rep->pairs[bl->level[rows[i].blitz].pair];
        fprintf(f, "| ");
        level_code(bl, rows[i].blitz, f);
        fprintf(f, " | ");
        elo_cell(bl, rows[i].blitz, f);
        fprintf(f, " | ");
        level_code(st, rows[i].standard, f);
        fprintf(f, " | ");
        elo_cell(st, rows[i].standard, f);
        report_md_scores_diff(f, a, b, &rows[i].d);
    }
    fprintf(f, "\n");
}

/* White's score by the first ring's class at a variant's strongest level. */
static void write_top_classes(const Report *rep, FILE *f)
{
    bool head = false;
    for (int v = 0; v < REPORT_VARIANT_NB; v++) {
        const ReportLadder *lad = &rep->ladder[v];
        int top = report_ladder_top(lad);
        if (top < 0) continue;
        const ReportPair *p = &rep->pairs[lad->level[top].pair];
        if (!head)
            fprintf(f, "### White's first ring at the strongest level\n\n"
                       "White's score by the class of White's first ring (the classes of \"White's first ring by "
                       "class\" below), in the self-play games of the ladder's strongest level alone: the highest "
                       "rated of the ladder's top block. Where its games start from random actions "
                       "(`random:K`), the first ring is one of them: the table then says what a first ring there "
                       "is worth when both sides play at that level, not where the agent would put it. Classes "
                       "with fewer than %d games are marked.\n\n",
                    REPORT_MIN_POINT_GAMES);
        head = true;
        char label[1100];
        report_pair_label(p, label, sizeof label);
        fprintf(f, "%s: ", report_variant_title(v));
        report_md_code(f, label);
        fprintf(f, ", opening ");
        report_md_code(f, p->opening[0] ? p->opening : "not stored");
        fprintf(f, ", %llu games.\n\n| class | points | from f6 | games | White's score (95%% CI) |\n"
                   "|---|--:|--:|--:|---|\n",
                (unsigned long long)p->games);
        ReportClass c[REPORT_CLASS_NB];
        report_classes(rep, v, p, c);
        report_md_class_rows(f, c);
        fprintf(f, "\n");
    }
}

void report_md_by_elo(const Report *rep, FILE *f)
{
    if (!report_has_ladder(rep)) return;
    fprintf(f, "## White's score against Elo\n\n"
               "Each level's self-play games (the same agent on both sides) beside its Elo from the ladder: "
               "White's score (a win 1, a draw ½) with its 95%% Wilson interval, the exact sign test's p of \"no "
               "first-player advantage\" with its Holm-adjusted p over the family of every test of White's "
               "score of an agent against itself in this report (%d tests), and the verdict they allow together (as in the results below: at "
               "least %d distinct games, p and the interval agreeing, and the adjusted p below 0.05 for an edge; "
               "a raw p alone below it is a question), the draws' share with its Wilson "
               "interval, the length in actions (mean, median), when the winner leads for good (decided at), "
               "the lead changes, both by the searchers' own values and by the reference evaluator, Ludii's balance and the legal actions by phase, each as \"Beyond the win "
               "rate\" defines it. A level that played itself from two openings has a row for each. Below each "
               "table, the levels tested together along the ladder: whether their White's scores differ (each "
               "level's score against the pooled one, with the pooled variance of a game's score: χ² on levels − 1 "
               "df), the score's linear trend in Elo (the Cochran-Armitage test for trend, scores 0, ½ and 1) and "
               "what the line leaves; large-sample tests, each level's Elo taken as exact, the two tests of every "
               "ladder one family (Holm).\n\n",
            report_score_family(rep), REPORT_MIN_VERDICT_GAMES);
    write_published(f);
    ReportAlong along[REPORT_VARIANT_NB];
    report_along(rep, along);
    for (int v = 0; v < REPORT_VARIANT_NB; v++) {
        const ReportLadder *lad = &rep->ladder[v];
        if (!report_ladder_rated(lad)) continue;
        fprintf(f, "### %s\n\n| level | Elo (95%% CI) | games | White's score (95%% CI) | p | p (Holm) | verdict | "
                   "draws (95%% CI) | length: mean, median | decided at | lead changes | decided at (reference) | "
                   "lead changes (reference) | balance | legal actions: placement, move, removal |\n"
                   "|---|---|--:|---|--:|--:|---|---|--:|--:|--:|--:|--:|--:|--:|\n",
                report_variant_title(v));
        for (int k = 0; k < lad->nlevels; k++) {
            const ReportPair *main = &rep->pairs[lad->level[k].pair];
            write_level_row(lad, k, main, f);
            for (int i = 0; i < rep->npairs; i++) {
                const ReportPair *p = &rep->pairs[i];
                if (p != main && p->variant == v && !strcmp(p->white, main->white) && !strcmp(p->black, main->black))
                    write_level_row(lad, k, p, f);
            }
        }
        fprintf(f, "\n");
        write_along(&along[v], v, f);
    }
    write_levels_compared(rep, f);
    write_matched(rep, f);
    write_top_classes(rep, f);
}

void report_md_openings(const Report *rep, FILE *f)
{
    int rows = 0;
    for (int i = 0; i < rep->npairs; i++)
        for (int j = i + 1; j < rep->npairs; j++) {
            const ReportPair *a, *b;
            if (!report_openings_compared(&rep->pairs[i], &rep->pairs[j], &a, &b)) continue;
            if (!rows++)
                fprintf(f, "## One agent from two openings\n\n"
                           "The same agent against itself from two openings: White's score from the first "
                           "opening minus White's score from the second (an opening is `random:K`, a prefix of "
                           "K random actions, or `none`, the agent placing every ring, or `rings`, all ten rings "
                           "placed at random), in percentage points, with Newcombe's "
                           "interval and the exact permutation test's p, as blitz against standard: what the "
                           "placements the agent makes itself change in the balance. The comparisons are one family "
                           "(%d test%s): \"p (Holm)\" is each p adjusted by Holm's step-down over it. A "
                           "difference is too large to be chance only when the adjusted p < 0.05 and the interval "
                           "excludes 0, with at least %d distinct games from each opening; a raw p alone below "
                           "0.05 makes a question, not a verdict.\n\n"
                           "| variant | agent | first opening: White's score | second opening: White's score | "
                           "first − second (95%% CI) | p | p (Holm) | verdict |\n|---|---|--:|--:|---|--:|--:|---|\n",
                        rep->opening_family, number_plural((uint64_t)rep->opening_family), REPORT_MIN_VERDICT_GAMES);
            ReportScore sa = report_score(a), sb = report_score(b);
            ReportDiff d = report_diff(b, a);
            if (rep->opening_p_holm && !isnan(rep->opening_p_holm[i * rep->npairs + j]))
                d = report_diff_corrected(d, rep->opening_p_holm[i * rep->npairs + j], rep->opening_family);
            char label[1100], pv[32], ph[32];
            report_agent_label(a->white, label, sizeof label);
            report_fmt_p(d.p, pv, sizeof pv);
            report_fmt_holm(d.p_holm, d.family, ph, sizeof ph);
            fprintf(f, "| %s | ", variant_name(a->variant));
            report_md_code(f, label);
            fprintf(f, " | ");
            report_md_code(f, a->opening);
            fprintf(f, ": %.1f%% (%llu games) | ", 100 * sa.score, (unsigned long long)sa.n);
            report_md_code(f, b->opening);
            fprintf(f, ": %.1f%% (%llu games) | %+.1f (%+.1f to %+.1f) | %s%s | %s | ", 100 * sb.score,
                    (unsigned long long)sb.n, 100 * d.d.mid + 0.0, 100 * d.d.lo + 0.0, 100 * d.d.hi + 0.0,
                    d.exact ? "" : "≈ ", pv, ph);
            report_md_diff_verdict(f, &d);
            fprintf(f, " |\n");
        }
    if (rows) fprintf(f, "\n");
}

void report_md_compared(const Report *rep, FILE *f)
{
    if (!rep->ndeclared) return;
    int family = 0;
    for (int i = 0; i < rep->ncompared; i++)
        if (rep->compared[i].d.family) family = rep->compared[i].d.family;
    fprintf(f, "## Declared comparisons\n\n"
               "The comparisons declared before the games were played (a study's `[report] compare`, or "
               "`yinsh report --compare`), each asked in every variant of the selection: White's score in agent "
               "A's self-play minus agent B's, in percentage points, with Newcombe's interval and the exact "
               "permutation test's p (an agent's self-play is its ladder level's games where it is a level, else "
               "its most-played self-play). The rows that allow a test are one family (%d test%s): \"p (Holm)\" "
               "is each p adjusted by Holm's step-down over it, and a difference is too large to be chance only "
               "when the adjusted p < 0.05 and the interval excludes 0, with at least %d distinct games on each "
               "side. A difference not claimed is no evidence of none: its verdict names what the interval "
               "excludes and the power the test had to see %d points (two-sided, 0.05, normal approximation with "
               "each side's own variance per game). A row that is not played yet says which side is missing.\n\n",
            family, number_plural((uint64_t)family), REPORT_MIN_VERDICT_GAMES, REPORT_POWER_POINTS);
    for (int i = 0; i < rep->ndeclared; i++) {
        const ReportDeclared *d = &rep->declared[i];
        fprintf(f, "%d. ", i + 1);
        report_md_code(f, d->name_a);
        fprintf(f, " vs ");
        report_md_code(f, d->name_b);
        fprintf(f, ": ");
        report_md_code(f, d->a);
        if (d->opening_a) {
            fprintf(f, " from ");
            report_md_code(f, d->opening_a);
        }
        fprintf(f, " against ");
        report_md_code(f, d->b);
        if (d->opening_b) {
            fprintf(f, " from ");
            report_md_code(f, d->opening_b);
        }
        fprintf(f, "\n");
    }
    fprintf(f, "\n| comparison | variant | A: White's score | B: White's score | A − B (95%% CI) | p | p (Holm) | "
               "verdict |\n|---|---|--:|--:|---|--:|--:|---|\n");
    for (int i = 0; i < rep->ncompared; i++) {
        const ReportCompared *r = &rep->compared[i];
        const ReportDeclared *d = &rep->declared[r->declared];
        fprintf(f, "| %d. ", r->declared + 1);
        report_md_code(f, d->name_a);
        fprintf(f, " vs ");
        report_md_code(f, d->name_b);
        fprintf(f, " | %s", variant_name(r->variant));
        if (r->pa >= 0 && r->pb >= 0) {
            report_md_scores_diff(f, &rep->pairs[r->pa], &rep->pairs[r->pb], &r->d);
            continue;
        }
        fprintf(f, " | %s | %s | not played yet | – | – | – |\n", r->pa >= 0 ? "played" : "not played yet",
                r->pb >= 0 ? "played" : "not played yet");
    }
    fprintf(f, "\n");
}
