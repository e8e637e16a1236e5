/* What is read off a Report: White's score in a pair and the verdict it
 * allows, blitz against standard, the game lengths and the other measures,
 * the first ring's classes, the strongest pair, and the labels that the
 * other parts of the report share (the lookups of pairs are pairs.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "engine/geometry.h"
#include "engine/encode/encode.h"
#include "study/report/report_internal.h"
#include "selfplay/agents/agent.h"
#include "selfplay/search/ab.h"
#include "selfplay/stats/stats.h"

ReportVerdict report_verdict(uint64_t games, double p, Interval interval, double none)
{
    if (games < REPORT_MIN_VERDICT_GAMES) return REPORT_TOO_FEW;
    bool holds = interval.lo <= none && none <= interval.hi;
    if (p < 0.05 && !holds) return REPORT_EDGE;
    if (p >= 0.05 && holds) return REPORT_CHANCE;
    return REPORT_SPLIT;
}

ReportVerdict report_verdict_corrected(ReportVerdict raw, double p_holm)
{
    return raw == REPORT_EDGE && !(p_holm < 0.05) ? REPORT_QUESTION : raw;
}

/* The Elo interval is the score's interval read on the Elo scale (a
 * monotone map), so that it holds 0 exactly when the score's holds 50%:
 * an interval from the games' variance by the normal approximation has
 * no width when the games do not vary (3 wins of 3: +inf to +inf) and
 * could exclude 0 beside a score interval that holds 50%. */
ReportScore report_score(const ReportPair *pair)
{
    ReportScore s = {
        .wins = pair->results[RESULT_WHITE],
        .draws = pair->results[RESULT_DRAW],
        .losses = pair->results[RESULT_BLACK],
    };
    s.n = s.wins + s.draws + s.losses;
    Interval score = stats_score(s.wins, s.draws, s.losses);
    s.score = score.mid;
    s.lo = score.lo;
    s.hi = score.hi;
    s.var = s.n ? ((double)s.wins + 0.25 * (double)s.draws) / (double)s.n - s.score * s.score : 0;
    if (s.var < 0) s.var = 0;
    s.p = stats_p_sign(s.wins, s.losses);
    s.elo = stats_elo(score.mid);
    s.elo_lo = stats_elo(score.lo);
    s.elo_hi = stats_elo(score.hi);
    s.family = pair->score_family;
    s.p_holm = s.family ? pair->score_p_holm : s.p;
    s.verdict = report_verdict_corrected(report_verdict(s.n, s.p, score, 0.5), s.p_holm);
    return s;
}

int report_equivalence(const Report *rep, ReportEquivalence *rows)
{
    if (!(rep->margin > 0)) return 0;
    int n = 0;
    double p[STATS_HOLM_MAX], beyond[STATS_HOLM_MAX];
    for (int i = 0; i < rep->npairs && n < STATS_HOLM_MAX; i++) {
        const ReportPair *pair = &rep->pairs[i];
        uint64_t w = pair->results[RESULT_WHITE], l = pair->results[RESULT_BLACK];
        if (strcmp(pair->white, pair->black) || pair->games < REPORT_MIN_VERDICT_GAMES) continue;
        ReportEquivalence *r = &rows[n];
        if (stats_tost_sign(w, l, rep->margin, 0.05, &r->t)) continue;
        r->pair = i;
        /* were the share 1/2: the estimate normal with sd 1/(2 sqrt n), the
           TOST rejecting when it is within margin - z sd of 1/2 */
        double sd = 0.5 / sqrt((double)(w + l)), reach = rep->margin / sd - stats_normal_upper(0.05);
        r->power = reach > 0 ? erf(reach / sqrt(2.0)) : 0;
        p[n] = r->t.p;
        beyond[n] = r->t.p_beyond;
        n++;
    }
    double ph[STATS_HOLM_MAX], bh[STATS_HOLM_MAX];
    stats_holm(p, n, ph);
    stats_holm(beyond, n, bh);
    for (int k = 0; k < n; k++) {
        rows[k].p_holm = ph[k];
        rows[k].beyond_holm = bh[k];
        rows[k].verdict = stats_tost_verdict(ph[k], bh[k], 0.05);
    }
    return n;
}

ReportDiff report_diff(const ReportPair *standard, const ReportPair *blitz)
{
    ReportScore s = report_score(standard), b = report_score(blitz);
    /* blitz minus standard */
    ReportDiff d = {.d = stats_diff_newcombe((Interval){b.lo, b.score, b.hi}, (Interval){s.lo, s.score, s.hi})};
    const uint64_t st[3] = {s.losses, s.draws, s.wins}, bl[3] = {b.losses, b.draws, b.wins};
    d.p = stats_p_scores_differ(bl, st, &d.exact);
    d.se = sqrt((s.n ? s.var / (double)s.n : 0) + (b.n ? b.var / (double)b.n : 0));
    d.power = d.se > 0 ? stats_power_z(REPORT_POWER_POINTS / 100.0, d.se, 0.05) : NAN;
    d.p_holm = d.p;
    d.verdict = report_verdict(s.n < b.n ? s.n : b.n, d.p, d.d, 0);
    return d;
}

ReportDiff report_diff_corrected(ReportDiff d, double p_holm, int family)
{
    d.family = family;
    d.p_holm = p_holm;
    d.verdict = report_verdict_corrected(d.verdict, p_holm);
    return d;
}

int report_diff_family(const Report *rep)
{
    for (int i = 0; i < rep->npairs; i++)
        if (rep->pairs[i].diff_family && !strcmp(rep->pairs[i].white, rep->pairs[i].black))
            return rep->pairs[i].diff_family;
    return 0;
}

int report_score_family(const Report *rep)
{
    for (int i = 0; i < rep->npairs; i++)
        if (rep->pairs[i].score_family && !strcmp(rep->pairs[i].white, rep->pairs[i].black))
            return rep->pairs[i].score_family;
    return 0;
}

/* One family: the p-values of its tests in the order they were found,
 * adjusted in place; the size is the family's. */
static int holm_family(double *p, int n)
{
    stats_holm(p, n, p);
    return n;
}

int report_families(Report *rep)
{
    int n = rep->npairs, m = 0;
    if (n > STATS_HOLM_MAX) return -1;
    double p[STATS_HOLM_MAX];
    int at[STATS_HOLM_MAX];

    /* an agent against itself (the first move's edge) and two agents (the
       first move mixed with their strength) ask different questions: a
       family each */
    for (int same = 0; same < 2; same++) {
        bool self[STATS_HOLM_MAX];
        for (int i = 0; i < n; i++) self[i] = !strcmp(rep->pairs[i].white, rep->pairs[i].black);
        /* White's score, every pair that allows a verdict */
        m = 0;
        for (int i = 0; i < n; i++) {
            ReportScore s = report_score(&rep->pairs[i]);
            if (self[i] == (bool)same && s.verdict != REPORT_TOO_FEW)
                at[m] = i, p[m++] = s.p;
        }
        holm_family(p, m);
        for (int k = 0; k < m; k++) {
            rep->pairs[at[k]].score_family = m;
            rep->pairs[at[k]].score_p_holm = p[k];
        }
        /* blitz - standard, on the standard pair */
        m = 0;
        for (int i = 0; i < n; i++) {
            int tw = report_blitz_twin(rep, &rep->pairs[i]);
            if (tw < 0 || self[i] != (bool)same) continue;
            ReportDiff d = report_diff(&rep->pairs[i], &rep->pairs[tw]);
            if (d.verdict != REPORT_TOO_FEW) at[m] = i, p[m++] = d.p;
        }
        holm_family(p, m);
        for (int k = 0; k < m; k++) {
            rep->pairs[at[k]].diff_family = m;
            rep->pairs[at[k]].diff_p_holm = p[k];
        }
    }

    /* the same agent from two openings: by (i, j), as the report compares them */
    m = 0;
    int ij[STATS_HOLM_MAX];
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n && m < STATS_HOLM_MAX; j++) {
            const ReportPair *a, *b;
            if (!report_openings_compared(&rep->pairs[i], &rep->pairs[j], &a, &b)) continue;
            ReportDiff d = report_diff(b, a);
            if (d.verdict != REPORT_TOO_FEW) ij[m] = i * n + j, p[m++] = d.p;
        }
    free(rep->opening_p_holm);
    rep->opening_p_holm = NULL;
    rep->opening_family = 0;
    if (!m) return 0;
    if (!(rep->opening_p_holm = malloc((size_t)n * (size_t)n * sizeof *rep->opening_p_holm))) return -1;
    for (int k = 0; k < n * n; k++) rep->opening_p_holm[k] = NAN;
    rep->opening_family = holm_family(p, m);
    for (int k = 0; k < m; k++) rep->opening_p_holm[ij[k]] = p[k];
    return 0;
}

double report_mean_length(const ReportPair *pair)
{
    double sum = 0;
    for (int a = 0; a <= REPORT_MAX_LENGTH; a++) sum += (double)a * (double)pair->lengths[a];
    return pair->games ? sum / (double)pair->games : 0;
}

/* The k-th smallest length (0-based). */
static int nth_length(const ReportPair *pair, uint64_t k)
{
    uint64_t seen = 0;
    for (int a = 0; a <= REPORT_MAX_LENGTH; a++) {
        seen += pair->lengths[a];
        if (seen > k) return a;
    }
    return REPORT_MAX_LENGTH;
}

double report_median_length(const ReportPair *pair)
{
    if (!pair->games) return 0;
    uint64_t n = pair->games;
    return 0.5 * (nth_length(pair, (n - 1) / 2) + nth_length(pair, n / 2));
}

/* The nearest-rank quantile: the length of the ceil(q n)-th shortest
 * game (the shortest for q = 0). */
int report_length_quantile(const ReportPair *pair, double q)
{
    if (!pair->games) return 0;
    double rank = ceil(q * (double)pair->games);
    uint64_t k = rank < 1 ? 0 : (uint64_t)rank - 1;
    return nth_length(pair, k < pair->games ? k : pair->games - 1);
}

Interval report_draw_rate(const ReportPair *pair)
{
    return stats_wilson(pair->games ? (double)pair->results[RESULT_DRAW] / (double)pair->games : 0,
                        (double)pair->games, STATS_Z95);
}

double report_balance(const ReportPair *pair)
{
    if (!pair->games) return NAN;
    double w = (double)pair->results[RESULT_WHITE], b = (double)pair->results[RESULT_BLACK];
    return 1 - fabs(w - b) / (double)pair->games;
}

double report_decided_at(const ReportPair *pair)
{
    return pair->decided ? pair->decided_at / (double)pair->decided : NAN;
}

double report_lead_changes(const ReportPair *pair)
{
    return pair->valued ? (double)pair->lead_changes / (double)pair->valued : NAN;
}

double report_ref_decided_at(const ReportPair *pair)
{
    return pair->ref_decided ? pair->ref_decided_at / (double)pair->ref_decided : NAN;
}

double report_ref_lead_changes(const ReportPair *pair)
{
    return pair->ref_valued ? (double)pair->ref_lead_changes / (double)pair->ref_valued : NAN;
}

ReportLead report_lead(const double *white, int n, int result, double band)
{
    ReportLead g = {.decided_ply = -1, .decided_at = -1};
    int ahead = 0, winner = result == RESULT_WHITE ? 1 : result == RESULT_BLACK ? -1 : 0;
    int from = -1; /* the first valued action of the winner's last run outside the band */
    bool last_favours = false;
    for (int i = 0; i < n; i++) {
        if (isnan(white[i])) continue;
        g.valued = true;
        int side = white[i] > 0.5 + band ? 1 : white[i] < 0.5 - band ? -1 : 0;
        if (side && ahead && side != ahead) g.lead_changes++;
        if (side) ahead = side;
        bool favours = winner && side == winner;
        if (favours && !last_favours) from = i;
        last_favours = favours;
    }
    if (!g.valued || !winner) return g;
    g.decided_ply = last_favours ? from + 1 : n;
    g.decided_at = (double)g.decided_ply / (double)n;
    return g;
}

double report_branching(const ReportPair *pair, int phase)
{
    return pair->decisions[phase] ? (double)pair->legal[phase] / (double)pair->decisions[phase] : NAN;
}

int report_phase(const char *state)
{
    if (!state[0] || state[1]) return -1;
    switch (state[0]) {
    case 'P': return REPORT_PLACEMENT;
    case 'M': return REPORT_MOVE;
    case 'R': case 'X': case 'r': case 'x': return REPORT_REMOVAL;
    default: return -1;
    }
}

ReportGameValues report_game_values(const StoreActionRow *a, int n, int result)
{
    ReportGameValues g = {.decided_at = -1};
    int ahead = -1, from = -1; /* the side ahead; the first action of the winner's last run above 1/2 */
    bool last_favours = false;
    for (int i = 0; i < n; i++) {
        if (!a[i].searched) continue;
        g.valued = true;
        double white = a[i].actor[0] == 'w' ? a[i].value : 1 - a[i].value; /* White's point of view */
        int side = white > 0.5 ? WHITE : white < 0.5 ? BLACK : -1;
        if (side >= 0) {
            if (ahead >= 0 && side != ahead) g.lead_changes++;
            ahead = side;
        }
        if (result == RESULT_WHITE || result == RESULT_BLACK) {
            double winner = result == RESULT_WHITE ? white : 1 - white;
            if (winner > 0.5 && !last_favours) from = i;
            last_favours = winner > 0.5;
        }
    }
    if (g.valued && (result == RESULT_WHITE || result == RESULT_BLACK))
        g.decided_at = last_favours ? (double)(from + 1) / n : 1;
    return g;
}

/* The first point in canonical order (the lowest index) of p's class:
 * its images under the board's 12 symmetries (engine/encode's table, the
 * one the learning code turns positions by; docs/rules.md §1). */
static Point class_first(Point p)
{
    Point first = p;
    for (int s = 1; s < ENCODE_SYMMETRIES; s++) {
        Point q = (Point)encode_sym_cell(s, p);
        if (q < first) first = q;
    }
    return first;
}

int report_point_class(Point p)
{
    Point first = class_first(p);
    int c = 0;
    /* classes are numbered by their first points, in canonical order */
    for (Point q = 0; q < first; q++)
        if (point_valid(point_col(q), point_row(q)) && class_first(q) == q) c++;
    return c;
}

void report_classes(const Report *rep, int variant, const ReportPair *pair, ReportClass *classes)
{
    memset(classes, 0, REPORT_CLASS_NB * sizeof *classes);
    for (Point p = 0; p < SQUARE_NB; p++) {
        if (!point_valid(point_col(p), point_row(p))) continue;
        ReportClass *c = &classes[report_point_class(p)];
        int x = point_col(p) - 5, y = point_row(p) - 6;
        c->first = class_first(p);
        c->points++;
        c->distance = (int)fmax(fmax(abs(x), abs(y)), abs(x - y));
        for (int r = 0; r < RESULT_NB; r++) c->results[r] += pair ? pair->first[p][r] : rep->first[variant][p][r];
    }
}

const ReportPair *report_strongest(const Report *rep, int variant)
{
    const ReportPair *best = NULL;
    for (int i = 0; i < rep->npairs; i++) {
        const ReportPair *p = &rep->pairs[i];
        if (p->variant != variant || p->strength <= 0) continue;
        if (!best || p->strength > best->strength || (p->strength == best->strength && p->games > best->games))
            best = p;
    }
    return best;
}

const ReportPair *report_headline(const Report *rep, int variant)
{
    int top = report_ladder_top(&rep->ladder[variant]);
    if (top >= 0) return &rep->pairs[rep->ladder[variant].level[top].pair];
    const ReportPair *best = report_strongest(rep, variant), *level = NULL, *most = NULL;
    if (best) return best;
    for (int i = 0; i < rep->npairs; i++) {
        const ReportPair *p = &rep->pairs[i];
        if (p->variant != variant) continue;
        if (!strcmp(p->white, p->black) && (!level || p->games > level->games)) level = p;
        if (!most || p->games > most->games) most = p;
    }
    return level ? level : most;
}

/* An agent spec without the parts that only repeat the defaults: what a
 * reader needs in a picture's key or a sentence ("mcts:sims=600",
 * "ab:depth=3,eval=..."; an external engine by its display name, "uyi:NAME"). */
static void short_agent(const char *spec, char *out, size_t len)
{
    char tt[32];
    snprintf(tt, sizeof tt, ",tt=%d,", AB_DEFAULT_TT_MB);
    const char *const DEFAULTS[] = {",c=1,", ",rollout=random,", tt};
    char buf[1024], shown[SPEC_LEN];
    snprintf(buf, sizeof buf, "%s,", agent_spec_display(spec, shown, sizeof shown));
    for (size_t i = 0; i < sizeof DEFAULTS / sizeof DEFAULTS[0]; i++) {
        char *at = strstr(buf, DEFAULTS[i]);
        if (at) memmove(at, at + strlen(DEFAULTS[i]) - 1, strlen(at + strlen(DEFAULTS[i]) - 1) + 1);
    }
    buf[strlen(buf) - 1] = '\0';
    snprintf(out, len, "%s", buf);
}

void report_pair_label(const ReportPair *p, char *out, size_t len)
{
    char w[512], b[512];
    short_agent(p->white, w, sizeof w);
    short_agent(p->black, b, sizeof b);
    if (!strcmp(p->white, p->black)) snprintf(out, len, "%s", w);
    else snprintf(out, len, "%s vs %s", w, b);
    if (p->opening_shown) {
        size_t at = strlen(out);
        snprintf(out + at, len - at, " (opening %s)", p->opening[0] ? p->opening : "not stored");
    }
}

void report_agent_label(const char *spec, char *out, size_t len)
{
    short_agent(spec, out, len);
}
