/* White's score against strength: along each variant's ladder (do the
 * levels differ, and how does the score run with Elo), and blitz against
 * standard at matched strength (each blitz level beside the standard
 * level nearest it in Elo), each family corrected by Holm's step-down. */
#include <math.h>
#include "study/report/internal.h"

/* A level that the figures against strength take: rated against the
 * anchor, its self-play enough for a verdict. */
static bool usable(const Report *rep, const ReportLadder *lad, int k)
{
    return lad->level[k].block == 0 && report_score(&rep->pairs[lad->level[k].pair]).verdict != REPORT_TOO_FEW;
}

/* A level's Elo above its ladder's anchor (the anchor's own is 0). */
static double level_elo(const ReportLadder *lad, int k) { return k == lad->anchor ? 0 : lad->level[k].elo; }

static void along_one(const Report *rep, int v, ReportAlong *a)
{
    const ReportLadder *lad = &rep->ladder[v];
    uint64_t counts[REPORT_LEVEL_MAX][3];
    double x[REPORT_LEVEL_MAX];
    *a = (ReportAlong){0};
    if (!report_ladder_rated(lad)) return;
    for (int k = 0; k < lad->nlevels; k++) {
        if (!usable(rep, lad, k)) continue;
        ReportScore s = report_score(&rep->pairs[lad->level[k].pair]);
        counts[a->nlevels][0] = s.losses;
        counts[a->nlevels][1] = s.draws;
        counts[a->nlevels][2] = s.wins;
        x[a->nlevels] = level_elo(lad, k);
        a->level[a->nlevels++] = k;
    }
    a->ok = stats_score_trend((const uint64_t (*)[3])counts, x, a->nlevels, &a->t) == 0;
}

void report_along(const Report *rep, ReportAlong along[REPORT_VARIANT_NB])
{
    double p[2 * REPORT_VARIANT_NB];
    int m = 0;
    for (int v = 0; v < REPORT_VARIANT_NB; v++) {
        along_one(rep, v, &along[v]);
        if (!along[v].ok) continue;
        p[m++] = along[v].t.p;
        p[m++] = along[v].t.p_slope;
    }
    stats_holm(p, m, p);
    for (int v = 0, i = 0; v < REPORT_VARIANT_NB; v++) {
        if (!along[v].ok) continue;
        along[v].family = m;
        along[v].p_holm = p[i++];
        along[v].p_slope_holm = p[i++];
    }
}

int report_matched(const Report *rep, ReportMatched *rows)
{
    const ReportLadder *st = &rep->ladder[VARIANT_STANDARD], *bl = &rep->ladder[VARIANT_BLITZ];
    int n = 0;
    if (!report_ladder_rated(st) || !report_ladder_rated(bl)) return 0;
    for (int kb = 0; kb < bl->nlevels; kb++) {
        if (!usable(rep, bl, kb)) continue;
        double eb = level_elo(bl, kb);
        int best = -1;
        for (int ks = 0; ks < st->nlevels; ks++)
            if (usable(rep, st, ks) && (best < 0 || fabs(level_elo(st, ks) - eb) < fabs(level_elo(st, best) - eb)))
                best = ks;
        if (best < 0) continue;
        Interval ib = report_level_elo(&bl->level[kb]), is = report_level_elo(&st->level[best]);
        if (ib.hi < is.lo || is.hi < ib.lo) continue;
        rows[n++] = (ReportMatched){.standard = best, .blitz = kb,
                                    .d = report_diff(&rep->pairs[st->level[best].pair], &rep->pairs[bl->level[kb].pair])};
    }
    double p[REPORT_LEVEL_MAX];
    int at[REPORT_LEVEL_MAX], m = 0;
    for (int i = 0; i < n; i++)
        if (rows[i].d.verdict != REPORT_TOO_FEW) at[m] = i, p[m++] = rows[i].d.p;
    stats_holm(p, m, p);
    for (int i = 0; i < m; i++) rows[at[i]].d = report_diff_corrected(rows[at[i]].d, p[i], m);
    return n;
}
