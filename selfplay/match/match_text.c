/* A match's result as `yinsh match` prints it (match_text.h). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include "selfplay/match/match_text.h"
#include "engine/base/json.h"
#include "engine/base/number.h"
#include "engine/notation.h"
#include "selfplay/records/summary_text.h"

void match_progress_tail(const MatchTally *t, const MatchSprt *sprt, char *tail, size_t len)
{
    int at = snprintf(tail, len, "A: W %" PRIu64 " D %" PRIu64 " L %" PRIu64, t->wins, t->draws, t->losses);
    if (t->pairs) {
        MatchFigures f = match_figures(t);
        Interval e = f.elo;
        at += snprintf(tail + at, len - (size_t)at, ", score %.3f", f.score.mid);
        if (isfinite(e.lo) && isfinite(e.hi) && e.lo < e.hi)
            at += snprintf(tail + at, len - (size_t)at, ", Elo %+.0f ± %.0f", e.mid + 0.0, (e.hi - e.lo) / 2);
        else if (isfinite(e.mid) && isfinite(e.lo) && e.lo < e.mid)
            /* A won every pair so far: no upper bound */
            at += snprintf(tail + at, len - (size_t)at, ", Elo %+.0f (at least %+.0f)", e.mid + 0.0, e.lo);
        else if (isfinite(e.mid) && isfinite(e.hi) && e.hi > e.mid)
            at += snprintf(tail + at, len - (size_t)at, ", Elo %+.0f (at most %+.0f)", e.mid + 0.0, e.hi);
        else if (isfinite(e.mid))
            at += snprintf(tail + at, len - (size_t)at, ", Elo %+.0f", e.mid + 0.0);
    }
    if (sprt->on) {
        Sprt s = sprt_test(t->penta, 5, &sprt->spec);
        snprintf(tail + at, len - (size_t)at, ", LLR %.2f (%.2f, %.2f)", s.llr + 0.0, s.lower, s.upper);
    }
}

/* Adding 0.0 turns a -0.0 into 0.0; an interval of no width (one pair,
 * or every pair alike) says so instead of pretending to a precision. */
static void print_elo(FILE *f, const char *label, Interval e)
{
    if (e.lo == e.hi)
        fprintf(f, "%-12s %+.1f (no interval: the pairs do not vary)\n", label, e.mid + 0.0);
    else
        fprintf(f, "%-12s %+.1f (95%% CI %+.1f to %+.1f)\n", label, e.mid + 0.0, e.lo + 0.0, e.hi + 0.0);
}

void match_result_print(FILE *f, const StoreRun *run, const RecordSummary *sum, const MatchPlan *mp,
                        const MatchResult *r)
{
    const MatchTally *t = &r->tally;
    const MatchFigures *fig = &r->figures;
    uint64_t games = t->wins + t->draws + t->losses;
    fprintf(f, "run          %s\n", run->name);
    fprintf(f, "a            %s\n", run->white);
    fprintf(f, "b            %s\n", run->black);
    fprintf(f, "games        %" PRIu64 " (%" PRIu64 " colour-swapped pairs)\n", games, t->pairs);
    fprintf(f, "a results    W %" PRIu64 " D %" PRIu64 " L %" PRIu64 "\n", t->wins, t->draws, t->losses);
    fprintf(f, "a score      %.4f (95%% CI %.4f to %.4f)\n", fig->score.mid, fig->score.lo, fig->score.hi);
    print_elo(f, "elo", fig->elo);
    print_elo(f, "elo (games)", fig->elo_games);
    fprintf(f, "los          %.4f\n", fig->los);
    fprintf(f, "pentanomial  %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
           " (pairs in which A scored 0, 1/2, 1, 3/2, 2)\n",
           t->penta[0], t->penta[1], t->penta[2], t->penta[3], t->penta[4]);
    fprintf(f, "hash         %016" PRIx64 " (actions and visit counts of every game)\n", r->hash);
    if (run->controls[0]) fprintf(f, "controls     %s\n", run->controls);
    static const char *const ab[2] = {"a", "b"};
    record_faults_print(f, ab, sum);
    if (mp->sprt.on) {
        const Sprt *s = &r->sprt;
        const SprtSpec *p = &mp->sprt.spec;
        fprintf(f, "sprt         H0 elo=%g vs H1 elo=%g (%s), alpha %g beta %g: llr %.3f (bounds %.3f, %.3f): ", p->elo0,
               p->elo1, sprt_model_name(p->model), p->alpha, p->beta, s->llr, s->lower, s->upper);
        if (r->decided_at)
            fprintf(f, "%s accepted after %" PRIu64 " pair%s\n", s->decision > 0 ? "H1" : "H0", r->decided_at,
                   number_plural(r->decided_at));
        else
            fprintf(f, "no decision after %" PRIu64 " pair%s\n", t->pairs, number_plural(t->pairs));
    }
}

static void interval_json(Json *j, const char *key, Interval v) { json_estimate(j, key, v.lo, v.mid, v.hi); }

/* The SPRT's bounds and state, null when it is off. */
static void sprt_json(Json *j, const MatchPlan *mp, const MatchResult *r)
{
    if (!mp->sprt.on) {
        json_null(j, "sprt");
        return;
    }
    const Sprt *s = &r->sprt;
    json_object(j, "sprt");
    json_num(j, "elo0", mp->sprt.spec.elo0);
    json_num(j, "elo1", mp->sprt.spec.elo1);
    json_num(j, "alpha", mp->sprt.spec.alpha);
    json_num(j, "beta", mp->sprt.spec.beta);
    json_str(j, "model", sprt_model_name(mp->sprt.spec.model));
    json_num(j, "llr", s->llr);
    json_num(j, "lower", s->lower);
    json_num(j, "upper", s->upper);
    json_str(j, "accepted", !r->decided_at ? NULL : s->decision > 0 ? "H1" : "H0");
    if (r->decided_at) json_uint(j, "decided_after_pairs", r->decided_at);
    else json_null(j, "decided_after_pairs");
    json_close(j);
}

void match_result_json(Json *j, const Run *run, const MatchPlan *mp, const MatchResult *r, double seconds)
{
    const MatchTally *t = &r->tally;
    char opening[32];
    json_str(j, "opening", opening_format(mp->plan.opening, mp->plan.opening_actions, opening, sizeof opening));
    json_str(j, "a", run->row.white);
    json_str(j, "b", run->row.black);
    json_u64_text(j, "seed", mp->plan.seed);
    json_uint(j, "games_planned", mp->plan.games);
    json_uint(j, "games", t->wins + t->draws + t->losses);
    json_uint(j, "pairs", t->pairs);
    json_open(j, "a_results", '{', true);
    json_uint(j, "wins", t->wins);
    json_uint(j, "draws", t->draws);
    json_uint(j, "losses", t->losses);
    json_close(j);
    interval_json(j, "a_score", r->figures.score);
    interval_json(j, "elo", r->figures.elo);
    interval_json(j, "elo_games", r->figures.elo_games);
    json_num(j, "los", r->figures.los);
    json_open(j, "pentanomial", '[', true);
    for (int k = 0; k < 5; k++) json_uint(j, NULL, t->penta[k]);
    json_close(j);
    json_hex(j, "hash", r->hash);
    json_str(j, "controls", run->row.controls);
    static const char *const ab[2] = {"a", "b"};
    record_faults_json(j, ab, &run->sum);
    sprt_json(j, mp, r);
    json_num(j, "time_s", seconds);
}

