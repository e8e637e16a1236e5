/* The report's figures as JSON (docs/json.md), as the Markdown has them:
 * the runs used, each pair of agents per variant, blitz against standard,
 * the first ring's classes, the ladders, the openings compared, the
 * published figures and the pictures. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/json.h"
#include "engine/notation.h"
#include "study/report/report.h"

/* An estimate with its 95% interval: {"value", "ci95"}. */
static void json_interval(Json *j, const char *key, Interval v) { json_estimate(j, key, v.lo, v.mid, v.hi); }

/* A verdict as a word (docs/json.md): for White's score "white" or
 * "black" (whose edge is too large to be chance), for a difference
 * "differ"; "chance", "undecided" (p and the interval disagree),
 * "question" (p < 0.05 alone, not after Holm's correction) or
 * "too_few_games". */
static const char *verdict_word(ReportVerdict v, const char *edge)
{
    switch (v) {
    case REPORT_TOO_FEW: return "too_few_games";
    case REPORT_CHANCE: return "chance";
    case REPORT_EDGE: return edge;
    case REPORT_SPLIT: return "undecided";
    case REPORT_QUESTION: return "question";
    }
    return NULL;
}

/* A level's Elo on its ladder: {"value", "ci95", "relative_to", "block"};
 * null for a level in no ladder match. */
static void json_level_elo(Json *j, const char *key, const ReportLadder *lad, int k)
{
    const ReportLevel *lv = &lad->level[k];
    if (lv->block < 0) {
        json_null(j, key);
        return;
    }
    Interval e = report_level_elo(lv);
    json_open(j, key, '{', true);
    json_num(j, "value", e.mid);
    if (lv->base == k) json_null(j, "ci95");
    else {
        json_open(j, "ci95", '[', true);
        json_num(j, NULL, e.lo);
        json_num(j, NULL, e.hi);
        json_close(j);
    }
    json_num(j, "se", lv->se);
    json_str(j, "relative_to", lad->level[lv->base].agent);
    json_int(j, "block", lv->block);
    json_close(j);
}

/* White's results of a pair: counts, score, p, Elo, lengths, end reasons,
 * the measures beyond the win rate, and the level's Elo on the ladder. */
static void json_pair(Json *j, const Report *rep, const ReportPair *p)
{
    ReportScore s = report_score(p);
    json_open(j, NULL, '{', false);
    json_str(j, "variant", variant_name(p->variant));
    json_str(j, "white", p->white);
    json_str(j, "black", p->black);
    json_str(j, "opening", p->opening);
    const ReportLadder *lad = &rep->ladder[p->variant];
    int level = strcmp(p->white, p->black) ? -1 : report_level_of(lad, p->white);
    if (level >= 0) json_level_elo(j, "ladder_elo", lad, level);
    else json_null(j, "ladder_elo");
    if (p->strength > 0) json_num(j, "strength_sims", p->strength);
    else json_null(j, "strength_sims");
    json_uint(j, "games", p->games);
    json_uint(j, "copies_left_out", p->copies);
    json_open(j, "results", '{', true);
    json_uint(j, "white", s.wins);
    json_uint(j, "black", s.losses);
    json_uint(j, "draw", s.draws);
    json_close(j);
    if (p->variant & VARIANT_SWAP) {
        json_open(j, "swapped", '{', true);
        json_uint(j, "white", p->swapped[RESULT_WHITE]);
        json_uint(j, "black", p->swapped[RESULT_BLACK]);
        json_uint(j, "draw", p->swapped[RESULT_DRAW]);
        json_close(j);
    } else {
        json_null(j, "swapped");
    }
    json_interval(j, "white_score", (Interval){.lo = s.lo, .mid = s.score, .hi = s.hi});
    json_num(j, "p_value", s.p);
    if (s.family) json_num(j, "p_holm", s.p_holm);
    else json_null(j, "p_holm");
    json_int(j, "holm_family", s.family);
    json_interval(j, "white_advantage_elo", (Interval){.lo = s.elo_lo, .mid = s.elo, .hi = s.elo_hi});
    json_str(j, "verdict", verdict_word(s.verdict, s.score > 0.5 ? "white" : "black"));
    json_num(j, "mean_length_actions", report_mean_length(p));
    json_num(j, "median_length_actions", report_median_length(p));
    json_open(j, "end_reasons", '{', true);
    for (int r = 0; r < REPORT_REASON_NB; r++) json_uint(j, r < REASON_NB ? reason_name(r) : "other", p->reasons[r]);
    json_close(j);
    json_interval(j, "draw_rate", report_draw_rate(p));
    json_num(j, "balance", report_balance(p));
    json_open(j, "length_actions", '{', true);
    json_uint(j, "shortest", (uint64_t)report_length_quantile(p, 0));
    json_uint(j, "q1", (uint64_t)report_length_quantile(p, 0.25));
    json_num(j, "median", report_median_length(p));
    json_uint(j, "q3", (uint64_t)report_length_quantile(p, 0.75));
    json_uint(j, "longest", (uint64_t)report_length_quantile(p, 1));
    json_open(j, "games_by_length", '[', true);
    for (int a = 0; a <= REPORT_MAX_LENGTH; a++) {
        if (!p->lengths[a]) continue;
        json_open(j, NULL, '[', true);
        json_uint(j, NULL, (uint64_t)a);
        json_uint(j, NULL, p->lengths[a]);
        json_close(j);
    }
    json_close(j);
    json_close(j);
    json_open(j, "decided_at", '{', true);
    json_num(j, "mean", report_decided_at(p));
    json_uint(j, "games", p->decided);
    json_close(j);
    json_open(j, "lead_changes", '{', true);
    json_num(j, "mean", report_lead_changes(p));
    json_uint(j, "games", p->valued);
    json_close(j);
    json_open(j, "reference", '{', true);
    json_str(j, "evaluator", rep->reference ? rep->reference : REPORT_REFERENCE);
    json_num(j, "band", REPORT_LEAD_BAND);
    json_num(j, "decided_at", report_ref_decided_at(p));
    json_uint(j, "decided_games", p->ref_decided);
    json_num(j, "lead_changes", report_ref_lead_changes(p));
    json_uint(j, "games", p->ref_valued);
    json_close(j);
    static const char *const PHASES[REPORT_PHASE_NB] = {"placement", "move", "removal"};
    json_open(j, "legal_actions", '{', true);
    for (int k = 0; k < REPORT_PHASE_NB; k++) json_num(j, PHASES[k], report_branching(p, k));
    json_close(j);
    json_close(j);
}

/* White's score by the first ring's class: per variant with games (all
 * pairs), or of one pair. */
static void json_class_list(Json *j, const char *key, const Report *rep, int v, const ReportPair *pair)
{
    ReportClass c[REPORT_CLASS_NB];
    report_classes(rep, v, pair, c);
    json_array(j, key);
    for (int k = 0; k < REPORT_CLASS_NB; k++) {
        uint64_t w = c[k].results[RESULT_WHITE], d = c[k].results[RESULT_DRAW], l = c[k].results[RESULT_BLACK];
        char name[8];
        point_format(c[k].first, name);
        json_open(j, NULL, '{', true);
        json_str(j, "class", name);
        json_int(j, "points", c[k].points);
        json_int(j, "distance", c[k].distance);
        json_uint(j, "games", w + d + l);
        if (w + d + l) json_interval(j, "white_score", stats_score(w, d, l));
        else json_null(j, "white_score");
        json_close(j);
    }
    json_close(j);
}

static void json_classes(Json *j, const Report *rep)
{
    json_object(j, "first_ring_classes");
    for (int v = 0; v < REPORT_VARIANT_NB; v++)
        if (report_has_variant(rep, v)) json_class_list(j, variant_name(v), rep, v, NULL);
    json_close(j);
}

/* White's score along a ladder (report_along): null when untested; the
 * slope per 1,000 Elo in points of score (percentage points). */
static void json_along(Json *j, const ReportLadder *lad, const ReportAlong *a)
{
    if (!a->ok) {
        json_null(j, "along");
        return;
    }
    const StatsTrend *t = &a->t;
    json_open(j, "along", '{', false);
    json_array(j, "levels");
    for (int i = 0; i < a->nlevels; i++) json_str(j, NULL, lad->level[a->level[i]].agent);
    json_close(j);
    json_uint(j, "games", t->n);
    json_num(j, "chi2", t->chi2);
    json_int(j, "df", t->k - 1);
    json_num(j, "p_value", t->p);
    json_num(j, "p_holm", a->p_holm);
    json_open(j, "slope_points_per_1000_elo", '{', true);
    json_num(j, "value", 1e5 * t->slope);
    json_open(j, "ci95", '[', true);
    json_num(j, NULL, 1e5 * t->slope_ci.lo);
    json_num(j, NULL, 1e5 * t->slope_ci.hi);
    json_close(j);
    json_close(j);
    json_num(j, "slope_p_value", t->p_slope);
    json_num(j, "slope_p_holm", a->p_slope_holm);
    json_int(j, "holm_family", a->family);
    if (isnan(t->chi2_dev)) {
        json_null(j, "departure_chi2");
        json_null(j, "departure_p_value");
    } else {
        json_num(j, "departure_chi2", t->chi2_dev);
        json_num(j, "departure_p_value", t->p_dev);
    }
    json_close(j);
}

/* A variant's ladder: the levels with their Elo, the links with their
 * own figures (or the bound a sweep allows), the depth. */
static void json_ladder(Json *j, const Report *rep, int v, const ReportAlong *along)
{
    const ReportLadder *lad = &rep->ladder[v];
    json_open(j, NULL, '{', false);
    json_str(j, "variant", variant_name(v));
    json_bool(j, "rated", !lad->why[0]);
    json_str(j, "why_unrated", lad->why[0] ? lad->why : NULL);
    json_str(j, "anchor", report_ladder_rated(lad) ? lad->level[lad->anchor].agent : NULL);
    json_bool(j, "anchor_random", lad->anchor_random);
    json_int(j, "blocks", lad->nblocks);
    json_array(j, "levels");
    for (int k = 0; k < lad->nlevels; k++) {
        const ReportPair *p = &rep->pairs[lad->level[k].pair];
        json_open(j, NULL, '{', true);
        json_str(j, "agent", lad->level[k].agent);
        json_str(j, "opening", p->opening);
        json_uint(j, "selfplay_games", p->games);
        json_level_elo(j, "elo", lad, k);
        json_close(j);
    }
    json_close(j);
    json_array(j, "links");
    for (int i = 0; i < lad->nlinks; i++) {
        const ReportLink *l = &lad->link[i];
        json_open(j, NULL, '{', false);
        json_str(j, "upper", lad->level[l->upper].agent);
        json_str(j, "lower", lad->level[l->lower].agent);
        json_str(j, "run", l->run);
        json_int(j, "runs", l->runs);
        json_uint(j, "pairs", l->tally.pairs);
        json_open(j, "upper_results", '{', true);
        json_uint(j, "wins", l->tally.wins);
        json_uint(j, "draws", l->tally.draws);
        json_uint(j, "losses", l->tally.losses);
        json_close(j);
        json_open(j, "pentanomial", '[', true);
        for (int k = 0; k < 5; k++) json_uint(j, NULL, l->tally.penta[k]);
        json_close(j);
        json_interval(j, "upper_score", l->score);
        if (l->swept) {
            json_null(j, "elo");
            json_num(j, l->swept > 0 ? "elo_at_least" : "elo_at_most", l->swept > 0 ? l->bound : -l->bound);
        } else {
            json_interval(j, "elo", l->elo);
        }
        json_int(j, "swept", l->swept);
        json_close(j);
    }
    json_close(j);
    int surely, depth = report_ladder_depth(lad, &surely);
    json_open(j, "depth", '{', true);
    json_int(j, "score_pct", REPORT_DEPTH_SCORE_PCT);
    json_int(j, "links", lad->nlinks);
    json_int(j, "at_least", depth);
    json_int(j, "interval_at_least", surely);
    json_close(j);
    json_int(j, "matches_left_out", lad->left_out);
    json_along(j, lad, along);
    int top = report_ladder_top(lad);
    if (top >= 0) {
        json_open(j, "strongest", '{', false);
        json_str(j, "agent", lad->level[top].agent);
        json_str(j, "opening", rep->pairs[lad->level[top].pair].opening);
        json_class_list(j, "first_ring_classes", rep, v, &rep->pairs[lad->level[top].pair]);
        json_close(j);
    } else {
        json_null(j, "strongest");
    }
    json_close(j);
}

/* A difference of White's scores with its interval, p and verdict. */
static void json_diff(Json *j, const ReportDiff *d)
{
    json_interval(j, "difference", d->d);
    json_num(j, "p_value", d->p);
    json_bool(j, "p_exact", d->exact);
    json_num(j, "se", d->se);
    json_num(j, "power_2_points", d->power);
    if (d->family) json_num(j, "p_holm", d->p_holm);
    else json_null(j, "p_holm");
    json_int(j, "holm_family", d->family);
    json_str(j, "verdict", verdict_word(d->verdict, "differ"));
}

/* The runs used, each with its plan, its stored and distinct games and
 * its provenance. */
static void json_runs(Json *j, const Report *rep)
{
    json_array(j, "runs");
    for (int i = 0; i < rep->nrun_rows; i++) {
        const ReportRun *r = &rep->run_rows[i];
        json_open(j, NULL, '{', false);
        json_str(j, "name", r->name);
        json_str(j, "command", r->command);
        json_str(j, "variant", r->variant);
        json_str(j, "white", r->white);
        json_str(j, "black", r->black);
        json_u64_text(j, "seed", r->seed);
        json_int(j, "games_planned", r->games);
        json_int(j, "games_stored", r->stored);
        json_int(j, "games_distinct", r->distinct);
        json_int(j, "repeats", r->repeats);
        json_str(j, "kind", r->kind);
        json_str(j, "opening", r->opening);
        json_str(j, "controls", r->controls);
        json_str(j, "git_commit", r->git_commit);
        json_str(j, "compiler", r->compiler);
        json_str(j, "machine", r->machine);
        json_hex(j, "hash", r->hash);
        json_bool(j, "finished", r->finished);
        json_close(j);
    }
    json_close(j);
}

/* Each pair that played both variants: White's score in each, and the
 * difference. */
static void json_blitz(Json *j, const Report *rep)
{
    json_array(j, "blitz_vs_standard");
    for (int i = 0; i < rep->npairs; i++) {
        const ReportPair *st = &rep->pairs[i];
        int at = report_blitz_twin(rep, st);
        if (at < 0) continue;
        const ReportPair *bl = &rep->pairs[at];
        ReportScore a = report_score(st), b = report_score(bl);
        ReportDiff d = report_diff(st, bl);
        if (st->diff_family) d = report_diff_corrected(d, st->diff_p_holm, st->diff_family);
        json_open(j, NULL, '{', false);
        json_str(j, "white", st->white);
        json_str(j, "black", st->black);
        json_str(j, "opening", st->opening);
        json_num(j, "standard_white_score", a.score);
        json_uint(j, "standard_games", a.n);
        json_num(j, "blitz_white_score", b.score);
        json_uint(j, "blitz_games", b.n);
        json_diff(j, &d);
        json_close(j);
    }
    json_close(j);
}

/* Blitz against standard at matched strength (report_matched). */
static void json_matched(Json *j, const Report *rep)
{
    ReportMatched rows[REPORT_LEVEL_MAX];
    int n = report_matched(rep, rows);
    const ReportLadder *st = &rep->ladder[VARIANT_STANDARD], *bl = &rep->ladder[VARIANT_BLITZ];
    json_array(j, "matched_strength");
    for (int i = 0; i < n; i++) {
        const ReportPair *a = &rep->pairs[st->level[rows[i].standard].pair],
                         *b = &rep->pairs[bl->level[rows[i].blitz].pair];
        json_open(j, NULL, '{', false);
        json_str(j, "blitz_level", b->white);
        json_level_elo(j, "blitz_elo", bl, rows[i].blitz);
        json_str(j, "standard_level", a->white);
        json_level_elo(j, "standard_elo", st, rows[i].standard);
        ReportScore sa = report_score(a), sb = report_score(b);
        json_num(j, "standard_white_score", sa.score);
        json_uint(j, "standard_games", sa.n);
        json_num(j, "blitz_white_score", sb.score);
        json_uint(j, "blitz_games", sb.n);
        json_diff(j, &rows[i].d);
        json_close(j);
    }
    json_close(j);
}

/* Equivalence to a fair game within the declared margin
 * (report_equivalence): one object per row; none without a margin. */
static void json_equivalence(Json *j, const Report *rep)
{
    ReportEquivalence *rows = calloc((size_t)rep->npairs + 1, sizeof *rows);
    int n = rows ? report_equivalence(rep, rows) : 0;
    if (rep->margin > 0) json_num(j, "equivalence_margin", rep->margin);
    else json_null(j, "equivalence_margin");
    json_array(j, "equivalence");
    static const char *const VERDICT[TOST_VERDICTS] = {"inconclusive", "equivalent", "beyond"};
    for (int k = 0; k < n; k++) {
        const ReportEquivalence *r = &rows[k];
        const ReportPair *p = &rep->pairs[r->pair];
        json_open(j, NULL, '{', false);
        json_str(j, "variant", variant_name(p->variant));
        json_str(j, "agent", p->white);
        json_str(j, "opening", p->opening);
        json_uint(j, "games", p->games);
        json_uint(j, "decisive", p->results[RESULT_WHITE] + p->results[RESULT_BLACK]);
        json_num(j, "decisive_share", r->t.ci.mid);
        json_num(j, "decisive_share_lo90", r->t.ci.lo);
        json_num(j, "decisive_share_hi90", r->t.ci.hi);
        json_num(j, "p_low", r->t.p_low);
        json_num(j, "p_high", r->t.p_high);
        json_num(j, "p_tost", r->t.p);
        json_num(j, "p_tost_holm", r->p_holm);
        json_num(j, "p_beyond", r->t.p_beyond);
        json_num(j, "p_beyond_holm", r->beyond_holm);
        json_num(j, "power_at_half", r->power);
        json_str(j, "verdict", VERDICT[r->verdict]);
        json_close(j);
    }
    json_close(j);
    free(rows);
}

/* The comparisons declared before the games (rep->compared): one object
 * per row; a side not played yet has a null score, and the row no test. */
static void json_compared(Json *j, const Report *rep)
{
    json_array(j, "declared_comparisons");
    for (int i = 0; i < rep->ncompared; i++) {
        const ReportCompared *r = &rep->compared[i];
        const ReportDeclared *d = &rep->declared[r->declared];
        json_open(j, NULL, '{', false);
        json_int(j, "declared", r->declared + 1);
        json_str(j, "a", d->name_a);
        json_str(j, "a_spec", d->a);
        json_str(j, "b", d->name_b);
        json_str(j, "b_spec", d->b);
        json_str(j, "a_opening", d->opening_a);
        json_str(j, "b_opening", d->opening_b);
        json_str(j, "variant", variant_name(r->variant));
        const int side[2] = {r->pa, r->pb};
        const char *const score[2] = {"a_white_score", "b_white_score"}, *const games[2] = {"a_games", "b_games"};
        for (int k = 0; k < 2; k++) {
            if (side[k] < 0) {
                json_null(j, score[k]);
                json_uint(j, games[k], 0);
                continue;
            }
            ReportScore sc = report_score(&rep->pairs[side[k]]);
            json_num(j, score[k], sc.score);
            json_uint(j, games[k], sc.n);
        }
        if (r->pa >= 0 && r->pb >= 0) {
            json_diff(j, &r->d);
        } else {
            json_null(j, "difference");
            json_null(j, "p_value");
            json_null(j, "p_holm");
            json_int(j, "holm_family", 0);
            json_str(j, "verdict", "not_played");
        }
        json_close(j);
    }
    json_close(j);
}

/* The same agent from two openings, compared. */
static void json_openings_compared(Json *j, const Report *rep)
{
    json_array(j, "openings_compared");
    for (int i = 0; i < rep->npairs; i++)
        for (int k = i + 1; k < rep->npairs; k++) {
            const ReportPair *a, *b;
            if (!report_openings_compared(&rep->pairs[i], &rep->pairs[k], &a, &b)) continue;
            ReportDiff d = report_diff(b, a);
            if (rep->opening_p_holm && !isnan(rep->opening_p_holm[i * rep->npairs + k]))
                d = report_diff_corrected(d, rep->opening_p_holm[i * rep->npairs + k], rep->opening_family);
            json_open(j, NULL, '{', false);
            json_str(j, "variant", variant_name(a->variant));
            json_str(j, "agent", a->white);
            json_str(j, "first_opening", a->opening);
            json_num(j, "first_white_score", report_score(a).score);
            json_uint(j, "first_games", a->games);
            json_str(j, "second_opening", b->opening);
            json_num(j, "second_white_score", report_score(b).score);
            json_uint(j, "second_games", b->games);
            json_diff(j, &d);
            json_close(j);
        }
    json_close(j);
}

/* The published figures the report quotes beside its own. */
static void json_published(Json *j)
{
    json_array(j, "published");
    for (int i = 0; i < REPORT_PUBLISHED_NB; i++) {
        const ReportPublished *p = &REPORT_PUBLISHED[i];
        json_open(j, NULL, '{', true);
        json_str(j, "who", p->who);
        json_str(j, "source", p->source);
        json_num(j, "white_score", p->white_score);
        json_uint(j, "games", p->games);
        json_close(j);
    }
    json_close(j);
}

/* The report's figures as JSON (docs/json.md): the runs used, each pair
 * of agents per variant, blitz against standard where a pair played
 * both, and the first ring's classes, as the Markdown has them. */
void report_write_json(Json *j, const Report *rep, const char *out, const ReportPictures *pics)
{
    json_str(j, "db", rep->db);
    json_str(j, "out", out);
    json_uint(j, "games", rep->games);
    json_uint(j, "copies_left_out", rep->copies);
    json_uint(j, "games_unknown_variant", rep->skipped);
    json_uint(j, "games_unfinished", rep->unfinished);
    json_int(j, "repeats_left_out", rep->repeats);
    json_str(j, "kind", rep->kind);
    json_str(j, "agent", rep->agent);
    json_str(j, "variant", rep->variant);
    json_runs(j, rep);
    json_array(j, "pairs");
    for (int i = 0; i < rep->npairs; i++) json_pair(j, rep, &rep->pairs[i]);
    json_close(j);
    json_blitz(j, rep);
    json_classes(j, rep);
    ReportAlong along[REPORT_VARIANT_NB];
    report_along(rep, along);
    json_array(j, "ladders");
    for (int v = 0; v < REPORT_VARIANT_NB; v++)
        if (rep->ladder[v].nlinks || rep->ladder[v].why[0]) json_ladder(j, rep, v, &along[v]);
    json_close(j);
    json_matched(j, rep);
    json_equivalence(j, rep);
    json_compared(j, rep);
    json_openings_compared(j, rep);
    json_published(j);
    if (pics) {
        json_open(j, "pictures", '{', true);
        json_bool(j, "strength", pics->strength);
        json_bool(j, "lengths", pics->lengths);
        json_bool(j, "first_ring", pics->first_ring);
        json_bool(j, "score_elo", pics->score_elo);
        json_bool(j, "draws_length_elo", pics->draws_length_elo);
        json_str(j, "note", pics->note[0] ? pics->note : NULL);
        json_close(j);
    } else {
        json_null(j, "pictures");
    }
}
