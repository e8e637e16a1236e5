/* The report in Markdown: a summary per variant, the results table of each
 * variant, the measures beyond the win rate, blitz against standard for
 * the pairs that played both, White's score by the first ring's class,
 * the pictures with what they show, and the runs with the commands that
 * reproduce them.
 *
 * Text from the database (names, specs, commands, paths) reaches the
 * Markdown through report_md_code alone and the shell block through
 * sh_quote alone: nothing stored can end a table's row, start a line of
 * shell or reach a terminal as an escape sequence. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/text.h"
#include "engine/geometry.h"
#include "engine/notation.h"
#include "selfplay/agents/agent.h"
#include "selfplay/play/provenance.h"
#include "selfplay/play/scheduler.h"
#include "selfplay/store/store.h"
#include "study/report/report_internal.h"
#include "selfplay/stats/stats.h"
#include "engine/base/number.h"

static void fmt_p_sentence(double p, char *out, size_t len)
{
    char v[32];
    report_fmt_p(p, v, sizeof v);
    snprintf(out, len, "p %s%s", v[0] == '<' ? "" : "= ", v);
}


/* The sentence on White's score in a pair: what its test and interval
 * allow together (report_verdict), read with the p corrected for the
 * family of every pair's test (report_families), never more. */
static void write_verdict(FILE *f, const ReportPair *p, const ReportScore *s)
{
    char pv[160], raw[40], adj[32];
    fmt_p_sentence(s->p, raw, sizeof raw);
    report_fmt_p(s->p_holm, adj, sizeof adj);
    if (s->family > 1)
        snprintf(pv, sizeof pv, "%s, %s%s after Holm's correction for the %d tests of White's score in its family",
                 raw, adj[0] == '<' ? "" : "p = ", adj, s->family);
    else snprintf(pv, sizeof pv, "%s", raw);
    bool same = !strcmp(p->white, p->black);
    const char *side = s->score > 0.5 ? "White" : "Black";
    switch (s->verdict) {
    case REPORT_TOO_FEW:
        fprintf(f, "Only %llu distinct %s: too few for a verdict (the report draws none from fewer than %d); the "
                   "data allow White anything from %.1f%% to %.1f%% (%s).",
                (unsigned long long)s->n, s->n == 1 ? "game" : "games", REPORT_MIN_VERDICT_GAMES, 100 * s->lo,
                100 * s->hi, pv);
        break;
    case REPORT_EDGE:
        if (same) fprintf(f, "%s: %s's edge is too large to be chance.", pv, side);
        else
            /* different agents: the first move and the agents' strength together */
            fprintf(f, "%s: the edge of %s's agent (moving first and second mixed with the agents' strength) is "
                       "too large to be chance.", pv, side);
        break;
    case REPORT_CHANCE:
        fprintf(f, "%s: no advantage for either side can be told from chance; the data allow White anything from "
                   "%.1f%% to %.1f%%.", pv, 100 * s->lo, 100 * s->hi);
        break;
    case REPORT_SPLIT:
        fprintf(f, "%s, yet the interval %.1f–%.1f%% %s 50%%: on the edge of chance, no verdict until more games "
                   "tell.", pv, 100 * s->lo, 100 * s->hi, s->p < 0.05 ? "holds" : "excludes");
        break;
    case REPORT_QUESTION:
        fprintf(f, "%s: does %s have an edge? Beyond chance as one test, not as one of %d: a question for more games, "
                   "not a verdict.", pv, side, s->family);
        break;
    }
}

/* "N games" or "N distinct games (C copies left out)". */
static void write_games(FILE *f, const ReportPair *p)
{
    if (p->copies)
        fprintf(f, "%llu distinct %s (%llu %s left out)", (unsigned long long)p->games,
                p->games == 1 ? "game" : "games", (unsigned long long)p->copies, p->copies == 1 ? "copy" : "copies");
    else fprintf(f, "%llu %s", (unsigned long long)p->games, p->games == 1 ? "game" : "games");
}

static void write_summary(const Report *rep, FILE *f)
{
    fprintf(f, "## Summary\n\n");
    for (int v = 0; v < REPORT_VARIANT_NB; v++) {
        const ReportPair *best = report_headline(rep, v);
        if (!best) continue;
        ReportScore s = report_score(best);
        char label[1100], elo[32], elo_lo[32], elo_hi[32];
        report_pair_label(best, label, sizeof label);
        report_fmt_elo(s.elo, elo, sizeof elo);
        report_fmt_elo(s.elo_lo, elo_lo, sizeof elo_lo);
        report_fmt_elo(s.elo_hi, elo_hi, sizeof elo_hi);
        bool same = !strcmp(best->white, best->black);
        const ReportLadder *lad = &rep->ladder[v];
        int top = report_ladder_top(lad);
        bool laddered = top >= 0 && &rep->pairs[lad->level[top].pair] == best;
        fprintf(f, "- **%s.** %s ", report_variant_title(v),
                laddered ? "Strongest level of the ladder here (by its Elo)," : best->strength > 0 ? "Strongest agent here (by simulations per move),"
                : same ? "Most-played agent against itself," : "Most-played pair,");
        report_md_code(f, label);
        fprintf(f, "%s, ", same ? " on both sides" : "");
        write_games(f, best);
        fprintf(f, ": White scored **%.1f%%** (95%% CI %.1f–%.1f%%), %s Elo (%s to %s). ", 100 * s.score, 100 * s.lo,
                100 * s.hi, elo, elo_lo, elo_hi);
        write_verdict(f, best, &s);
        /* White's score up the ladder, or across the strengths, weakest first */
        int nstr = 0;
        for (int i = 0; i < rep->npairs; i++) nstr += rep->pairs[i].variant == v && rep->pairs[i].strength > 0;
        if (laddered) {
            fprintf(f, " White's score up the ladder:");
            for (int k = 0; k < lad->nlevels; k++) {
                const ReportLevel *lv = &lad->level[k];
                if (lv->block < 0) continue;
                char ql[1100], e[32];
                report_agent_label(lv->agent, ql, sizeof ql);
                report_fmt_elo(lv->elo, e, sizeof e);
                fprintf(f, "%s %.1f%% (", k ? " →" : "", 100 * report_score(&rep->pairs[lv->pair]).score);
                report_md_code(f, ql);
                if (k == lad->anchor) fprintf(f, ", the anchor: 0 Elo)");
                else if (lv->block == 0) fprintf(f, ", %s Elo)", e);
                else fprintf(f, ", no finite Elo)");
            }
            fprintf(f, ".");
        } else if (nstr > 1) {
            fprintf(f, " White's score by strength:");
            bool first = true;
            for (int i = 0; i < rep->npairs; i++) {
                const ReportPair *q = &rep->pairs[i];
                if (q->variant != v || q->strength <= 0) continue;
                char ql[1100];
                report_pair_label(q, ql, sizeof ql);
                fprintf(f, "%s %.1f%% (", first ? "" : " →", 100 * report_score(q).score);
                report_md_code(f, ql);
                fprintf(f, ")");
                first = false;
            }
            fprintf(f, ".");
        }
        fprintf(f, "\n");
    }
    fprintf(f, "\n");
}

static void write_reasons(const ReportPair *p, FILE *f)
{
    bool any = false;
    for (int r = 0; r < REPORT_REASON_NB; r++) {
        if (!p->reasons[r]) continue;
        fprintf(f, "%s%s %llu", any ? ", " : "", r < REPORT_REASON_NB - 1 ? reason_name(r) : "other",
                (unsigned long long)p->reasons[r]);
        any = true;
    }
    if (!any) fprintf(f, "–");
}

void report_md_agents(FILE *f, const char *a, const char *sep, const char *b)
{
    char da[SPEC_LEN], db[SPEC_LEN];
    agent_spec_display(a, da, sizeof da);
    agent_spec_display(b, db, sizeof db);
    bool clash = !strcmp(da, db) && strcmp(a, b);
    report_md_code(f, clash ? a : da);
    fputs(sep, f);
    report_md_code(f, clash ? b : db);
}

/* "| `white` | `black` | " */
static void write_agents_cells(const ReportPair *p, FILE *f)
{
    fprintf(f, "| ");
    report_md_agents(f, p->white, " | ", p->black);
    fprintf(f, " | ");
}

/* Equivalence to a fair game (report_equivalence): the table a game's
 * designer reads first, each self-play pair's White's score beside the
 * verdict of the TOST within the declared margin. */
static void write_equivalence(const Report *rep, FILE *f)
{
    ReportEquivalence *rows = rep->margin > 0 ? calloc((size_t)rep->npairs + 1, sizeof *rows) : NULL;
    int n = rows ? report_equivalence(rep, rows) : 0;
    if (!n) {
        free(rows);
        return;
    }
    double m = 100 * rep->margin;
    fprintf(f, "## Equivalence to a fair game\n\n"
               "Is the game fair within ±%.1f points, the margin declared before the games (a study's `[report] "
               "margin`, or `yinsh report --margin`)? An interval that holds 50%% is no evidence of balance; two "
               "one-sided tests are (TOST), exact at any number of games: on White's share of the decisive games "
               "(as the sign test reads them, draws apart), the tests of \"at most %.1f%%\" and of \"at least "
               "%.1f%%\", each at 0.05. Both rejected, the share's exact 90%% interval lies inside %.1f–%.1f%%, and "
               "so does White's score (its distance from 50%% is the share's times the decisive games' fraction "
               "of all): **fair within ±%.1f**. The contrary is tested too (\"the share is within the margin\", "
               "from either side: twice the smaller one-sided p): rejected, the share is **beyond ±%.1f** (the "
               "score beyond that times the decisive fraction). "
               "Neither: **inconclusive**, the games allowing both a fair game and an edge of %.1f points. The %d "
               "rows are one family for each kind of test, corrected by Holm's step-down (\"Holm\"); the verdict "
               "reads the corrected p's. \"Power at 50%%\" is the chance that the TOST (uncorrected) finds the "
               "row fair were White's share exactly 50%% with these decisive games. The exact sign test of 50%% and "
               "its Holm p are the results table's (the family of every agent against itself).\n\n",
            m, 50 - m, 50 + m, 50 - m, 50 + m, m, m, m, n);
    fprintf(f, "| variant | agent | opening | games | White's score (95%% CI) | p (Holm) | White's share of decisive "
               "games (90%% CI) | TOST p (Holm) | beyond p (Holm) | power at 50%% | verdict | Black swapped |\n"
               "|---|---|---|--:|---|--:|---|--:|--:|--:|---|---|\n");
    for (int k = 0; k < n; k++) {
        const ReportEquivalence *r = &rows[k];
        const ReportPair *p = &rep->pairs[r->pair];
        ReportScore sc = report_score(p);
        char ps[16], ph[16], tp[16], th[16], bp[16], bh[16];
        report_fmt_p(sc.p, ps, sizeof ps);
        report_fmt_holm(sc.p_holm, sc.family, ph, sizeof ph);
        report_fmt_p(r->t.p, tp, sizeof tp);
        report_fmt_p(r->p_holm, th, sizeof th);
        report_fmt_p(r->t.p_beyond, bp, sizeof bp);
        report_fmt_p(r->beyond_holm, bh, sizeof bh);
        fprintf(f, "| %s | ", variant_name(p->variant));
        report_md_code(f, p->white);
        fprintf(f, " | ");
        report_md_code(f, p->opening[0] ? p->opening : "not stored");
        fprintf(f, " | %llu | %.1f%% (%.1f–%.1f) | %s (%s) | %.1f%% (%.1f–%.1f) | %s (%s) | %s (%s) | %.0f%% | %s | ",
                (unsigned long long)p->games, 100 * sc.score, 100 * sc.lo, 100 * sc.hi, ps, ph, 100 * r->t.ci.mid,
                100 * r->t.ci.lo, 100 * r->t.ci.hi, tp, th, bp, bh, 100 * r->power,
                r->verdict == TOST_EQUIVALENT ? "**fair within the margin**"
                : r->verdict == TOST_BEYOND   ? "**beyond the margin**"
                                              : "inconclusive");
        if (p->variant & VARIANT_SWAP) {
            uint64_t swaps = p->swapped[RESULT_WHITE] + p->swapped[RESULT_BLACK] + p->swapped[RESULT_DRAW];
            fprintf(f, "%llu of %llu (%.1f%%)", (unsigned long long)swaps, (unsigned long long)p->games,
                    100.0 * (double)swaps / (double)p->games);
        } else {
            fprintf(f, "–");
        }
        fprintf(f, " |\n");
    }
    fprintf(f, "\n");
    free(rows);
}

/* A +swap variant's swaps (docs/rules.md §9.1): how often Black took
 * White's first ring, and White's score (the colour's: after a swap
 * Black moves first) in the games with and without a swap. */
static void write_swaps(const Report *rep, int v, FILE *f)
{
    fprintf(f, "Swaps (Black takes White's first ring and moves first; White's score is the colour's, "
               "95%% Wilson intervals):\n\n");
    for (int i = 0; i < rep->npairs; i++) {
        const ReportPair *p = &rep->pairs[i];
        if (p->variant != v || !p->games) continue;
        const uint64_t *sw = p->swapped;
        uint64_t swaps = sw[RESULT_WHITE] + sw[RESULT_BLACK] + sw[RESULT_DRAW];
        uint64_t kept[RESULT_NB];
        for (int r = 0; r < RESULT_NB; r++) kept[r] = p->results[r] - sw[r];
        Interval share = stats_wilson((double)swaps / (double)p->games, (double)p->games, STATS_Z95);
        fprintf(f, "- ");
        report_md_agents(f, p->white, " against ", p->black);
        fprintf(f, ": Black swapped in %llu of %llu games (%.1f%%, %.1f–%.1f)", (unsigned long long)swaps,
                (unsigned long long)p->games, 100 * share.mid, 100 * share.lo, 100 * share.hi);
        const uint64_t *part[2] = {sw, kept};
        const char *name[2] = {"; White's score after a swap", ", without one"};
        for (int k = 0; k < 2; k++) {
            const uint64_t *c = part[k];
            uint64_t n = c[RESULT_WHITE] + c[RESULT_BLACK] + c[RESULT_DRAW];
            if (!n) {
                fprintf(f, "%s: no games", name[k]);
                continue;
            }
            Interval s = stats_score(c[RESULT_WHITE], c[RESULT_DRAW], c[RESULT_BLACK]);
            fprintf(f, "%s: %.1f%% (%.1f–%.1f, %llu games)", name[k], 100 * s.mid, 100 * s.lo, 100 * s.hi,
                    (unsigned long long)n);
        }
        fprintf(f, ".\n");
    }
    fprintf(f, "\n");
}

static void write_tables(const Report *rep, FILE *f)
{
    fprintf(f, "## Results by variant and agents\n\n"
               "Every figure counts distinct games: a stored game whose actions and end repeat another game of "
               "the same agents and variant is a copy, left out (column \"copies\"). White's score counts a win 1 "
               "and a draw ½: 50%% is a fair game. The interval is the 95%% Wilson score interval. p is the "
               "two-sided p-value of \"no first-player advantage\" (score 50%%) by the exact sign test on the "
               "decisive games: a score of 50%% is White winning as often as Black, and given the decisive games "
               "White's wins are then binomial with one half, whatever the draws; it is exact at any number of "
               "games, where the normal approximation finds \"p < 0.001\" in 3 wins of 3. The advantage in Elo is "
               "the score on the logistic Elo scale (+35 Elo ≈ 55%%), its interval the score's interval read on "
               "that scale. A verdict needs at least %d distinct games, and p and the interval to agree (p < 0.05 "
               "with an interval that excludes 50%%, or p ≥ 0.05 with one that holds it); where they disagree the "
               "report says so and concludes nothing. The tests of White's score of every pair of an agent "
               "against itself with enough games, both variants, are one family, and those of every pair of two "
               "agents another: a report that reads the smallest of many p-values has made many tests. \"p (Holm)\" is each p adjusted by Holm's step-down over that family (the k-th smallest p "
               "times the tests less k − 1, never below the one before it, at most 1), and an edge is claimed "
               "only when the adjusted p is below 0.05 too; one whose raw p alone is below it is a question, not "
               "a verdict. Lengths count actions (placements, moves and removals of "
               "both players).\n\n", REPORT_MIN_VERDICT_GAMES);
    for (int v = 0; v < REPORT_VARIANT_NB; v++) {
        if (!report_has_variant(rep, v)) continue;
        fprintf(f, "### %s\n\n", report_variant_title(v));
        fprintf(f, "| White | Black | games | copies | White wins | Black wins | draws | White's score (95%% CI) | p | "
                   "p (Holm) | Elo (95%% CI) | mean length | median length | end reasons |\n"
                   "|---|---|--:|--:|--:|--:|--:|---|--:|--:|---|--:|--:|---|\n");
        for (int i = 0; i < rep->npairs; i++) {
            const ReportPair *p = &rep->pairs[i];
            if (p->variant != v) continue;
            ReportScore s = report_score(p);
            char pv[32], ph[32], elo[32], lo[32], hi[32];
            report_fmt_p(s.p, pv, sizeof pv);
            report_fmt_holm(s.p_holm, s.family, ph, sizeof ph);
            report_fmt_elo(s.elo, elo, sizeof elo);
            report_fmt_elo(s.elo_lo, lo, sizeof lo);
            report_fmt_elo(s.elo_hi, hi, sizeof hi);
            write_agents_cells(p, f);
            fprintf(f, "%llu | %llu | %llu | %llu | %llu | %.1f%% (%.1f–%.1f) | %s | %s | %s (%s to %s) | %.1f | %.1f | ",
                    (unsigned long long)p->games, (unsigned long long)p->copies, (unsigned long long)s.wins,
                    (unsigned long long)s.losses, (unsigned long long)s.draws, 100 * s.score, 100 * s.lo,
                    100 * s.hi, pv, ph, elo, lo, hi, report_mean_length(p), report_median_length(p));
            write_reasons(p, f);
            fprintf(f, " |\n");
        }
        fprintf(f, "\n");
        if (v & VARIANT_SWAP) write_swaps(rep, v, f);
    }
    if (rep->copies)
        fprintf(f, "**%llu stored %s left out as copies**: %s the same actions to the same end as another game of "
                   "the same agents and variant, as a deterministic agent (alpha-beta) plays from the same start "
                   "every time. A copy is the same evidence again, not more of it: each game "
                   "counts once, and no verdict is drawn from fewer than %d distinct games. Different starts give "
                   "different games: `--opening random:K` (`opening = random:K` in a study file).\n\n",
                (unsigned long long)rep->copies, rep->copies == 1 ? "game is" : "games are",
                rep->copies == 1 ? "it has" : "each has", REPORT_MIN_VERDICT_GAMES);
}

/* The measures beyond the win rate, one row per pair of a variant. */
static void write_measures(const Report *rep, FILE *f)
{
    fprintf(f, "## Beyond the win rate\n\n"
               "The measures that game designers read beside the win rate (Ludii's metrics), over the same "
               "distinct games:\n\n"
               "- **draws**: the share of drawn games, with its 95%% Wilson interval.\n"
               "- **balance**: Ludii's balance, 1 − |White's wins − Black's wins| / games: 1 when both sides win "
               "equally often (draws count among the games), 0 when one side wins every game.\n"
               "- **length**: the mean and median in actions, then the distribution: the shortest game, the "
               "first quartile, the third quartile and the longest (nearest-rank); every length with its games "
               "is in `--json`, the spread of each pair in `lengths-VARIANT.dat` and the lengths picture.\n"
               "- **decided at**: how early the eventual winner leads for good, from the stored values. Each "
               "searched action's value (the chosen action's mean score for the side that played it) is turned "
               "to the winner's point of view; the game is decided at the first searched action from which on "
               "every searched action gives the winner more than ½, written as the share of the game's actions "
               "played by then ((ply + 1) / actions): 0.25 is a winner who led for good from the first quarter "
               "on, 1 a winner whom the values never favoured to the end. The mean over the decisive games with "
               "values (their number in brackets); draws, and games without values (random play), have none.\n"
               "- **lead changes**: per game with values, how often the side ahead by the values (the one whose "
               "value is above ½, turned as above) changes from one searched action to the next that has a side "
               "ahead; the mean over those games (their number in brackets). The values are each searcher's own "
               "estimates: a weak search that finds a win for itself everywhere changes the lead at nearly every "
               "action, and two searchers that disagree change it at every other one.\n"
               "- **decided at, lead changes (reference)**: the same two by one reference evaluator, the same for "
               "every pair, so that they measure the game and not how far two searchers disagree: every game is "
               "replayed from its stored actions and each position scored by %s `%s` (White's expected score%s; "
               "after the last action the result itself), "
               "with a dead band of ±%.2f about ½: the lead changes only when the value crosses from above %.2f to "
               "below %.2f or back, and the game is decided at the first ply after which the value stays outside "
               "the band on the winner's side, as a share of the game's actions. Random play has them too.\n"
               "- **legal actions**: the branching factor by phase, the mean number of legal actions at a "
               "decision of that phase, forced ones included: placements (state P), moves (M, a pass included) "
               "and removals (rows and rings: R, X, r, x).\n\n",
            rep->reference_searched ? "the fixed searcher" : "the linear evaluation with the weights",
            rep->reference ? rep->reference : REPORT_REFERENCE,
            rep->reference_searched ? " from its score, the search's table cleared at each game's start" : "",
            REPORT_LEAD_BAND, 0.5 + REPORT_LEAD_BAND, 0.5 - REPORT_LEAD_BAND);
    for (int v = 0; v < REPORT_VARIANT_NB; v++) {
        if (!report_has_variant(rep, v)) continue;
        fprintf(f, "### %s\n\n", report_variant_title(v));
        fprintf(f, "| White | Black | games | draws (95%% CI) | balance | length: mean, median | shortest, "
                   "quartiles, longest | decided at | lead changes | decided at (reference) | lead changes (reference) | "
                   "legal actions: placement, move, removal |\n"
                   "|---|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|\n");
        for (int i = 0; i < rep->npairs; i++) {
            const ReportPair *p = &rep->pairs[i];
            if (p->variant != v) continue;
            Interval d = report_draw_rate(p);
            char bal[32], at[32], lead[32], rat[32], rlead[32], br[REPORT_PHASE_NB][32];
            report_fmt_opt(report_ref_decided_at(p), "%.2f", rat, sizeof rat);
            report_fmt_opt(report_ref_lead_changes(p), "%.2f", rlead, sizeof rlead);
            report_fmt_opt(report_balance(p), "%.3f", bal, sizeof bal);
            report_fmt_opt(report_decided_at(p), "%.2f", at, sizeof at);
            report_fmt_opt(report_lead_changes(p), "%.2f", lead, sizeof lead);
            for (int k = 0; k < REPORT_PHASE_NB; k++) report_fmt_opt(report_branching(p, k), "%.1f", br[k], sizeof br[k]);
            write_agents_cells(p, f);
            fprintf(f, "%llu | %.1f%% (%.1f–%.1f) | %s | %.1f, %.1f | %d, %d–%d, %d | %s (%llu) | %s (%llu) | "
                       "%s (%llu) | %s (%llu) | %s, %s, %s |\n",
                    (unsigned long long)p->games, 100 * d.mid, 100 * d.lo, 100 * d.hi, bal, report_mean_length(p),
                    report_median_length(p), report_length_quantile(p, 0), report_length_quantile(p, 0.25),
                    report_length_quantile(p, 0.75), report_length_quantile(p, 1), at,
                    (unsigned long long)p->decided, lead, (unsigned long long)p->valued, rat,
                    (unsigned long long)p->ref_decided, rlead, (unsigned long long)p->ref_valued, br[0], br[1], br[2]);
        }
        fprintf(f, "\n");
    }
}

const char *const REPORT_VERDICT_WORD[REPORT_VERDICT_NB] = {
    [REPORT_TOO_FEW] = "too few games",
    [REPORT_CHANCE] = "none told from chance",
    [REPORT_EDGE] = "too large to be chance",
    [REPORT_SPLIT] = "on the edge: p and the interval disagree",
    [REPORT_QUESTION] = "a question: p < 0.05 alone, not after Holm's correction",
};

static void write_comparison(const Report *rep, FILE *f)
{
    fprintf(f, "## Blitz against standard\n\n");
    int rows = 0, counts[REPORT_VERDICT_NB] = {0};
    for (int i = 0; i < rep->npairs; i++) {
        const ReportPair *st = &rep->pairs[i];
        int at = report_blitz_twin(rep, st);
        if (at < 0) continue;
        const ReportPair *bl = &rep->pairs[at];
        if (!rows++)
            fprintf(f, "For each pair of agents that played both variants: the difference in White's score, "
                       "blitz minus standard, in percentage points, with its 95%% interval (Newcombe's hybrid "
                       "score interval, from each variant's Wilson interval: it holds at small samples and at 0%% "
                       "and 100%%, where the normal approximation's has no width), and the p-value of \"the "
                       "variant does not change the results\" by the exact permutation test (every split of the "
                       "pooled games into the two variants' numbers weighed by its probability; the normal "
                       "approximation of the same test beyond %d splits, marked ≈). The comparisons of every agent "
                       "against itself with enough games in both variants are one family, %d test%s, and those of "
                       "pairs of two agents another: \"p (Holm)\" is each p adjusted by Holm's step-down over its "
                       "family. A difference is too large to be chance only when "
                       "the adjusted p < 0.05 and the interval excludes 0, with at least %d distinct games in each "
                       "variant; a raw p alone below 0.05 makes a question, not a verdict. A difference not "
                       "claimed is no evidence of none: its verdict names what the interval excludes and the "
                       "power the test had to see %d points (two-sided, 0.05, normal approximation with each "
                       "variant's own variance per game).\n\n"
                       "| agents | standard: White's score | blitz: White's score | blitz − standard (95%% CI) | p | "
                       "p (Holm) | verdict |\n|---|--:|--:|---|--:|--:|---|\n",
                    STATS_EXACT_SPLITS, report_diff_family(rep), number_plural((uint64_t)report_diff_family(rep)),
                    REPORT_MIN_VERDICT_GAMES, REPORT_POWER_POINTS);
        report_md_pair_cell(f, st);
        ReportDiff d = report_md_diff_cells(f, st, bl);
        counts[d.verdict]++;
    }
    if (!rows) {
        fprintf(f, "No pair of agents played both variants in this selection: nothing to compare.\n\n");
        return;
    }
    fprintf(f, "\n%d of %d pair%s show a difference too large to be chance (Holm's adjusted p < 0.05 and an interval "
               "without 0)",
            counts[REPORT_EDGE], rows, number_plural((uint64_t)rows));
    if (counts[REPORT_QUESTION])
        fprintf(f, "; %d %s a question: p < 0.05 alone, not after Holm's correction", counts[REPORT_QUESTION],
                counts[REPORT_QUESTION] == 1 ? "is" : "are");
    if (counts[REPORT_SPLIT]) fprintf(f, "; %d %s on the edge", counts[REPORT_SPLIT], counts[REPORT_SPLIT] == 1 ? "is" : "are");
    if (counts[REPORT_TOO_FEW])
        fprintf(f, "; %d %s too few games to tell", counts[REPORT_TOO_FEW], counts[REPORT_TOO_FEW] == 1 ? "has" : "have");
    fprintf(f, ".\n\n");
}

/* White's score by the class of White's first ring, per variant. */
static void write_classes(const Report *rep, FILE *f)
{
    fprintf(f, "## White's first ring by class\n\n"
               "The 85 points fall into %d classes under the board's 12 symmetries (six turns of the hexagon, "
               "each with and without a reflection: they map the board and its three line directions onto "
               "themselves and change no rule), so a first ring on any point of a class starts the same game, "
               "turned. A class pools 6 or 12 points (the centre f6 is one), so its score rests on that many "
               "times a point's games: a few thousand games are enough to read it. A class is named by its first "
               "point in the canonical order, with its distance from the centre in steps along the lines; all "
               "pairs of agents of the variant together (the first-ring picture shows the top level's alone). "
               "Classes with fewer than %d "
               "games are marked: too few to read a score.\n\n",
            REPORT_CLASS_NB, REPORT_MIN_POINT_GAMES);
    for (int v = 0; v < REPORT_VARIANT_NB; v++) {
        if (!report_has_variant(rep, v)) continue;
        ReportClass c[REPORT_CLASS_NB];
        report_classes(rep, v, NULL, c);
        fprintf(f, "### %s\n\n| class | points | from f6 | games | White's score (95%% CI) |\n|---|--:|--:|--:|---|\n",
                report_variant_title(v));
        report_md_class_rows(f, c);
        fprintf(f, "\n");
    }
}

/* The classes of a variant's first-ring map (the top pair's games,
 * pooled by class) with fewer than REPORT_MIN_POINT_GAMES games (*empty:
 * those with none). */
static int thin_classes(const Report *rep, int v, int *empty)
{
    ReportClass c[REPORT_CLASS_NB];
    report_classes(rep, v, report_headline(rep, v), c);
    int thin = 0;
    *empty = 0;
    for (int k = 0; k < REPORT_CLASS_NB; k++) {
        uint64_t n = c[k].results[RESULT_WHITE] + c[k].results[RESULT_BLACK] + c[k].results[RESULT_DRAW];
        thin += n < REPORT_MIN_POINT_GAMES;
        *empty += n == 0;
    }
    return thin;
}

/* Each picture drawn, cited where it stands with what it shows: a
 * picture in the folder that the report does not cite would be read
 * without its caption. */
static void write_pictures(const Report *rep, const ReportPictures *pics, FILE *f)
{
    fprintf(f, "## Pictures\n\n");
    if (pics && pics->score_elo) {
        fprintf(f, "![White's score against Elo](score-elo.png)\n\n"
                   "White's score at each level of the ladder against the level's Elo, a panel per variant, each "
                   "on its own Elo axis: each variant's ladder is its own fit (the joint fit of its matches), with "
                   "its own anchor at 0, so the two axes are two scales and a level's places on them are not to be "
                   "compared. The levels are in Elo order, numbered at their points and named in the key under "
                   "the panels; the vertical bar is the score's 95%% Wilson interval, the horizontal one the Elo's "
                   "95%% interval from the fit; open circles are a level's games from another opening (its games "
                   "from the opening of its matches are on the line). The dashed line is 50%%, no advantage. "
                   "Levels with no finite Elo from the anchor (above a match won game for game) have no place on "
                   "the axis and are not drawn. Beside them, on the same score scale, the figures published "
                   "elsewhere as reference marks, each labelled with who played, the source and the games, as in "
                   "the table of published figures (their bars are our Wilson intervals of the published share; "
                   "they have no Elo on these scales, so their places left to right mean nothing).\n\n");
    }
    if (pics && pics->draws_length_elo)
        fprintf(f, "![Draws and game length against Elo](draws-length-elo.png)\n\n"
                   "The levels of the ladder rated against its anchor, one line per variant: above, the draws' "
                   "share with its 95%% Wilson interval; below, the game length in actions, the median with the "
                   "middle half of the games (first to third quartile) as the bar. Both variants are drawn on one "
                   "Elo axis, as the picture says: each variant's Elo is its own ladder's, so read each line "
                   "along its own scale.\n\n");
    if (pics && pics->strength)
        fprintf(f, "![White's score against MCTS simulations](strength.png)\n\n"
                   "White's score against MCTS simulations per move (logarithmic), one line per variant through "
                   "the MCTS levels only, with 95%% intervals and the games (n) at each point: agents that search "
                   "by depth (alpha-beta) have no simulations and are not drawn (the tables above have them). "
                   "Random play has no simulations either: it is drawn apart at the left, a square joined to no "
                   "level. The right axis is the same scale read as White's advantage in Elo (logistic), so a bar "
                   "read there is the score's own interval in Elo, as the tables give it. Only pairs in which both "
                   "sides are the same agent are drawn; blitz is shifted slightly right so that the bars do not "
                   "overlap.\n\n");
    if (pics && pics->lengths) {
        fprintf(f, "![Game lengths](lengths.png)\n\n"
                   "How long games last, in actions, a panel per variant: the median, the middle half of the games "
                   "(first to third quartile) and 80%% of them (10th to 90th percentile), nearest-rank, as "
                   "`lengths-VARIANT.dat` gives them.");
        int shown = 0, rated = 0;
        for (int v = 0; v < REPORT_VARIANT_NB; v++)
            if (report_has_variant(rep, v)) shown++, rated += report_ladder_rated(&rep->ladder[v]);
        static const char BY_ELO[] = "at each level of its ladder against the level's Elo, on the variant's own "
                                     "Elo axis (a level's games from another opening as an open circle with its "
                                     "middle half); the ladder's matches are not drawn",
                          BY_PAIR[] = "every pair of agents, side by side";
        if (rated == shown || !rated) fprintf(f, " Each variant %s.", rated ? BY_ELO : BY_PAIR);
        else
            for (int v = 0; v < REPORT_VARIANT_NB; v++)
                if (report_has_variant(rep, v))
                    fprintf(f, " %s: %s.", report_variant_title(v), report_ladder_rated(&rep->ladder[v]) ? BY_ELO : BY_PAIR);
        fprintf(f, "\n\n");
    }
    if (pics && pics->first_ring) {
        fprintf(f, "![White's score by White's first ring](first-ring.png)\n\n"
                   "The board, one panel per variant, for the games of the variant's top pair alone (named in "
                   "the panel: the ladder's strongest level, else the strongest MCTS level, else the agent "
                   "against itself with the most games), as in the table of the strongest level's first rings: "
                   "each point is coloured by White's score in the games whose first action (White's first ring) "
                   "was placed on any point of its class under the board's 12 symmetries (\"White's first ring "
                   "by class\"), so the points of a class share a colour, and the class's games are written at "
                   "its first point. One colour scale, centred at 50%%, serves both panels. Classes with fewer "
                   "than %d games are grey: too few to read a score.",
                REPORT_MIN_POINT_GAMES);
        for (int v = 0; v < REPORT_VARIANT_NB; v++) {
            if (!report_has_variant(rep, v)) continue;
            int empty, thin = thin_classes(rep, v, &empty);
            if (thin)
                fprintf(f, " **%s: too few games in %d of the %d classes** (fewer than %d games each; %d with "
                           "none).", report_variant_title(v), thin, REPORT_CLASS_NB, REPORT_MIN_POINT_GAMES, empty);
            else
                fprintf(f, " %s: every class has at least %d games.", report_variant_title(v), REPORT_MIN_POINT_GAMES);
        }
        fprintf(f, "\n\n");
    }
    if (!pics) fprintf(f, "Pictures not drawn (--no-plots).\n\n");
    else if (pics->note[0]) fprintf(f, "%s\n\n", pics->note);
}

/* A variant's name as the database has it: plain when it is one this
 * yinsh knows, else as code. */
static void write_variant(FILE *f, const char *text)
{
    int v;
    if (variant_parse(text, &v)) fputs(variant_name(v), f);
    else report_md_code(f, text);
}

bool report_commits_clean(const char *list)
{
    if (!list[0]) return false;
    char commit[STORE_COMMITS_LEN];
    for (const char *p = list; *p;) {
        const char *end = strstr(p, ", ");
        size_t k = end ? (size_t)(end - p) : strlen(p);
        snprintf(commit, sizeof commit, "%.*s", (int)k, p);
        if (!provenance_committed(commit)) return false;
        if (!end) break;
        p = end + 2;
    }
    return true;
}

static void write_runs(const Report *rep, FILE *f)
{
    fprintf(f, "## Runs\n\n"
               "Each run as it was made (the command as typed, in the folder it was typed in), with its distinct "
               "games (its stored games less the copies of one another); \"How to reproduce\" below gives "
               "commands that play the same games again.\n\n"
               "| run | variant | White | Black | games stored | seed | command |\n"
               "|---|---|---|---|--:|--:|---|\n");
    for (int i = 0; i < rep->nrun_rows; i++) {
        const ReportRun *r = &rep->run_rows[i];
        fprintf(f, "| ");
        report_md_code(f, r->name);
        fprintf(f, " | ");
        write_variant(f, r->variant);
        fprintf(f, " | ");
        report_md_code(f, r->white);
        fprintf(f, " | ");
        report_md_code(f, r->black);
        fprintf(f, " | %lld of %lld%s, %lld distinct | %llu | ", (long long)r->stored, (long long)r->games,
                r->finished ? "" : " (unfinished)", (long long)r->distinct, (unsigned long long)r->seed);
        report_md_code(f, r->command);
        fprintf(f, " |\n");
    }
    fprintf(f, "\n");
    /* what made each run: the same figures need the same engine */
    int uncommitted = 0;
    for (int i = 0; i < rep->nrun_rows; i++) uncommitted += !report_commits_clean(rep->run_rows[i].git_commit);
    fprintf(f, "### Provenance\n\n"
               "The builds that played each run: the commit of the one that started it, then of each other build "
               "that resumed it or played a shard merged into it. A commit that ends in `-dirty` was built from a "
               "work tree with changes not committed (`yinsh study` plays with such a build only when told, "
               "`--allow-dirty`); `unknown`, outside a git checkout. ");
    if (uncommitted)
        fprintf(f, "**%d of %d run%s played in part by a build of code not committed**: the games replay (\"How "
                   "to reproduce\"), but no commit holds the code that played them.\n\n",
                uncommitted, rep->nrun_rows, rep->nrun_rows == 1 ? " was" : "s were");
    else
        fprintf(f, "Every run was played by committed code.\n\n");
    fprintf(f, "| run | yinsh | commits | compiler and flags | machine |\n|---|---|---|---|---|\n");
    for (int i = 0; i < rep->nrun_rows; i++) {
        const ReportRun *r = &rep->run_rows[i];
        fprintf(f, "| ");
        report_md_code(f, r->name);
        fprintf(f, " | ");
        report_md_code(f, r->version);
        fprintf(f, " | ");
        report_md_code(f, r->git_commit[0] ? r->git_commit : "not stored");
        fprintf(f, " | ");
        report_md_code(f, r->compiler[0] ? r->compiler : "not stored");
        fprintf(f, " | ");
        report_md_code(f, r->machine[0] ? r->machine : "not stored");
        fprintf(f, " |\n");
    }
    fprintf(f, "\n");
}

/* Text as one word of POSIX shell: single quotes around it, each quote
 * inside written '\'' (inside single quotes nothing is special: no $,
 * no backquote, no backslash). Every word of the shell block that comes
 * from the database is written by this one function. A control
 * character or a byte that is not UTF-8 cannot be written so that the
 * line both runs as printed and shows what it runs (a newline would end
 * the line, an ESC would reach the terminal): such bytes are written as
 * '?' and the function returns false, and the caller prints the line as
 * a comment. */
static bool sh_quote(FILE *f, const char *text)
{
    bool ok = true;
    fputc('\'', f);
    for (const unsigned char *p = (const unsigned char *)text; *p;) {
        int len = text_utf8_length(p);
        if (!len || text_control(*p)) {
            fputc('?', f);
            ok = false;
            p++;
            continue;
        }
        if (*p == '\'') fputs("'\\''", f);
        else fwrite(p, 1, (size_t)len, f);
        p += len;
    }
    fputc('\'', f);
    return ok;
}

/* The options that give a run's controls (run.controls, controls_format:
 * sims=N, movetime=MS, tc=BASE+INC, margin=MS, streams=agent), as the
 * command line of `yinsh selfplay` and `yinsh match` takes them. False
 * for a text this yinsh cannot read (a newer yinsh's). *clock is set for
 * a time limit. */
static bool write_controls(FILE *f, const char *text, bool *clock)
{
    PlayControls c;
    char err[ERR_LEN];
    *clock = false;
    if (!text[0]) return true;
    if (controls_parse(text, &c, err)) return false;
    if (c.sims) fprintf(f, " --sims %u", (unsigned)c.sims);
    if (c.movetime_ms) fprintf(f, " --movetime %lld", (long long)c.movetime_ms);
    if (c.base_ms) fprintf(f, " --tc %g+%g", (double)c.base_ms / 1e3, (double)c.inc_ms / 1e3);
    if (c.movetime_ms || c.base_ms) fprintf(f, " --tc-margin %lld", (long long)c.margin_ms);
    if (c.agent_streams) fprintf(f, " --agent-streams");
    *clock = c.movetime_ms || c.base_ms;
    return true;
}

/* A run's command into the buffer `line` (*len bytes): false, with why
 * in `why`, when no command can give its games. */
static bool reproduce_line(const ReportRun *r, char **line, size_t *len, bool *quoted, const char **why)
{
    FILE *f = open_memstream(line, len);
    if (!f) return false;
    bool ok = true, clock;
    *quoted = true;
    /* an opening book's column is book:HASH:PATH (store.h) */
    bool book = !strncmp(r->opening, "book:", 5) && strlen(r->opening) > 22 && r->opening[21] == ':';
    if (!strcmp(r->kind, "match")) {
        fprintf(f, "build/yinsh match --a ");
        *quoted &= sh_quote(f, r->white);
        fprintf(f, " --b ");
        *quoted &= sh_quote(f, r->black);
    } else if (!r->pairs) {
        fprintf(f, "build/yinsh selfplay --white ");
        *quoted &= sh_quote(f, r->white);
        fprintf(f, " --black ");
        *quoted &= sh_quote(f, r->black);
    } else {
        *why = "self-play in colour-swapped pairs, which no command plays";
        ok = false;
    }
    int variant;
    fprintf(f, " --games %lld --variant ", (long long)r->games);
    if (variant_parse(r->variant, &variant)) fputs(variant_name(variant), f);
    else *quoted &= sh_quote(f, r->variant);
    fprintf(f, " --seed %llu %s ", (unsigned long long)r->seed, book ? "--book" : "--opening");
    *quoted &= sh_quote(f, book ? r->opening + 22 : r->opening);
    if (ok && !write_controls(f, r->controls, &clock)) {
        *why = "controls this yinsh cannot read";
        ok = false;
    }
    /* the name is in the comment only: shown with '?' for what would not print, it runs nothing */
    fprintf(f, " --no-db --quiet   # ");
    sh_quote(f, r->name);
    fprintf(f, ": hash %016llx", (unsigned long long)r->hash);
    if (ok && clock)
        fprintf(f, " (under a time limit: the same hash only where no agent's play depends on the machine's "
                   "speed, as random play)");
    if (ok && book) fprintf(f, " (the book's path as it was given, from the folder the run was made in)");
    fclose(f);
    return ok;
}

/* Commands that play each run's games again, from the repository root,
 * into no database: the hash they print is the run's play hash, the same
 * exactly when every action and visit count is. Every game depends only
 * on the run's seed, its plan (agents, variant, opening, controls) and its
 * index, so this holds on any number of threads. A run whose kind the
 * database does not record (a schema before version 5, read without
 * upgrading), or that is unfinished, is left out. */
static void write_reproduce(const Report *rep, FILE *f)
{
    fprintf(f, "## How to reproduce\n\n"
               "From the repository root, after `cmake -S . -B build && cmake --build build`, each command plays "
               "a run's stored games again without storing them and prints their `hash`; the same hash means the "
               "same games, action for action and visit count for visit count. A line that starts with `#` is no "
               "command: it says why.\n\n```sh\n");
    int n = 0;
    for (int i = 0; i < rep->nrun_rows; i++) {
        const ReportRun *r = &rep->run_rows[i];
        /* an imported game was played elsewhere: `yinsh import` of its file again */
        if (!strcmp(r->kind, "import")) {
            fprintf(f, "# ");
            sh_quote(f, r->name);
            fprintf(f, ": played elsewhere; `yinsh export --run ");
            sh_quote(f, r->name);
            fprintf(f, " --format boardspace` gives its record\n");
            n++;
            continue;
        }
        if (!r->kind[0] || r->stored < r->games) continue;
        char *line = NULL;
        size_t len = 0;
        bool quoted;
        const char *why = "";
        bool ok = reproduce_line(r, &line, &len, &quoted, &why);
        if (!line) continue;
        if (ok && quoted) fprintf(f, "%s\n", line);
        else
            fprintf(f, "# not a command: %s: %s\n",
                    !ok ? why : "its text holds control characters or bytes that are not UTF-8 (shown as ?)", line);
        free(line);
        n++;
    }
    fprintf(f, "```\n\n");
    if (n < rep->nrun_rows)
        fprintf(f, "%d of the %d run%s are left out: unfinished, or stored before the database recorded their kind "
                   "(schema version 5).\n\n", rep->nrun_rows - n, rep->nrun_rows,
                number_plural((uint64_t)rep->nrun_rows));
}

/* The selection in words, and the runs it took, at the top. */
static void write_selection(const Report *rep, FILE *f)
{
    fprintf(f, "Selection: %s",
            rep->kind ? (!strcmp(rep->kind, "match") ? "matches" : !strcmp(rep->kind, "import") ? "imported games"
                                                                                               : "self-play runs")
                      : "all runs");
    if (rep->agent) {
        fprintf(f, " with the agent ");
        report_md_code(f, rep->agent);
    }
    int only;
    if (rep->variant) fprintf(f, ", %s only", variant_parse(rep->variant, &only) ? variant_name(only) : "standard");
    fprintf(f, "; %llu %sgame%s", (unsigned long long)rep->games, rep->copies ? "distinct " : "",
            number_plural(rep->games));
    if (rep->copies)
        fprintf(f, ", and %llu %s of them left out (the same actions to the same end)", (unsigned long long)rep->copies,
                rep->copies == 1 ? "copy" : "copies");
    if (rep->repeats)
        fprintf(f, ", and %lld repeat%s left out (games stored again by a later run: each game counts once)",
                (long long)rep->repeats, number_plural((uint64_t)rep->repeats));
    fprintf(f, ".\n\nRuns used:");
    for (int i = 0; i < rep->nrun_rows; i++) {
        const ReportRun *r = &rep->run_rows[i];
        fprintf(f, "%s ", i ? "," : "");
        report_md_code(f, r->name);
        fprintf(f, " (%lld game%s", (long long)(r->stored - r->repeats), number_plural((uint64_t)(r->stored - r->repeats)));
        if (r->distinct < r->stored - r->repeats) fprintf(f, ", %lld distinct", (long long)r->distinct);
        fprintf(f, ", seed %llu)", (unsigned long long)r->seed);
    }
    fprintf(f, "%s\n\n", rep->nrun_rows ? "." : " none.");
}

void report_write_markdown(const Report *rep, const char *cmdline, const ReportPictures *pics, FILE *f)
{
    fprintf(f, "# YINSH balance report\n\n");
    fprintf(f, "Made by ");
    report_md_code(f, cmdline);
    fprintf(f, " from the database ");
    report_md_code(f, rep->db);
    fprintf(f, ": ");
    if (rep->nruns) {
        fprintf(f, "%s ", rep->nruns > 1 ? "runs" : "run");
        for (int i = 0; i < rep->nruns; i++) {
            fprintf(f, "%s", i ? ", " : "");
            report_md_code(f, rep->runs[i]);
        }
    } else {
        fprintf(f, "all runs");
    }
    fprintf(f, ", %llu %sgames.", (unsigned long long)rep->games, rep->copies ? "distinct " : "");
    if (rep->copies)
        fprintf(f, " **%llu %s of them left out**: every figure counts each game once.",
                (unsigned long long)rep->copies, rep->copies == 1 ? "copy" : "copies");
    if (rep->skipped)
        fprintf(f, " %llu game%s of unknown variants left out.", (unsigned long long)rep->skipped,
                number_plural(rep->skipped));
    if (rep->unfinished)
        fprintf(f, " %llu unfinished games (imported records that stop before the end) left out.",
                (unsigned long long)rep->unfinished);
    fprintf(f, "\n\n");
    write_selection(rep, f);
    write_summary(rep, f);
    write_equivalence(rep, f);
    report_md_compared(rep, f);
    report_md_ladder(rep, f);
    report_md_by_elo(rep, f);
    report_md_openings(rep, f);
    write_tables(rep, f);
    write_measures(rep, f);
    write_comparison(rep, f);
    write_classes(rep, f);
    write_pictures(rep, pics, f);
    write_runs(rep, f);
    write_reproduce(rep, f);
}
