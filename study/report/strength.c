/* White's score against strength: along each variant's ladder (do the
 * levels differ, and how does the score run with Elo), and blitz against
 * standard at matched strength (each blitz level beside the standard
 * level nearest it in Elo), each family corrected by Holm's step-down. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "study/report/report_internal.h"

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

/* An agent's self-play in a variant: from the opening where one is
 * given, else its ladder level's pair, else its most-played self-play
 * pair there; -1 for none. */
static int self_play(const Report *rep, int v, const char *spec, const char *opening)
{
    int k = opening ? -1 : report_level_of(&rep->ladder[v], spec);
    if (k >= 0) return rep->ladder[v].level[k].pair;
    int best = -1;
    for (int i = 0; i < rep->npairs; i++) {
        const ReportPair *p = &rep->pairs[i];
        if (p->variant == v && !strcmp(p->white, spec) && !strcmp(p->black, spec) &&
            (!opening || !strcmp(p->opening, opening)) && (best < 0 || p->games > rep->pairs[best].games))
            best = i;
    }
    return best;
}

/* A copy of text, NULL staying NULL: false when out of memory. */
static bool copy_text(char **to, const char *text)
{
    *to = text ? strdup(text) : NULL;
    return !text || *to;
}

static void declared_free(Report *rep)
{
    for (int i = 0; i < rep->ndeclared; i++) {
        free(rep->declared[i].a);
        free(rep->declared[i].b);
        free(rep->declared[i].name_a);
        free(rep->declared[i].name_b);
        free(rep->declared[i].opening_a);
        free(rep->declared[i].opening_b);
    }
    free(rep->declared);
    free(rep->compared);
    rep->declared = NULL;
    rep->compared = NULL;
    rep->ndeclared = rep->ncompared = 0;
}

int report_compare(Report *rep, const ReportComparison *declared, int n)
{
    declared_free(rep);
    if (n <= 0) return 0;
    int nv = 0;
    for (int v = 0; v < REPORT_VARIANT_NB; v++) nv += report_has_variant(rep, v);
    size_t rows = (size_t)n * (size_t)(nv ? nv : 1);
    rep->declared = calloc((size_t)n, sizeof *rep->declared);
    rep->compared = calloc(rows, sizeof *rep->compared);
    double *p = calloc(rows, sizeof *p);
    int *at = calloc(rows, sizeof *at);
    if (!rep->declared || !rep->compared || !p || !at) goto oom;
    for (int i = 0; i < n; i++) {
        ReportDeclared *d = &rep->declared[rep->ndeclared++];
        const ReportComparison *in = &declared[i];
        if (!copy_text(&d->a, in->a) || !copy_text(&d->b, in->b) ||
            !copy_text(&d->name_a, in->name_a ? in->name_a : in->a) ||
            !copy_text(&d->name_b, in->name_b ? in->name_b : in->b) || !copy_text(&d->opening_a, in->opening_a) ||
            !copy_text(&d->opening_b, in->opening_b))
            goto oom;
    }
    int m = 0;
    for (int i = 0; i < n; i++)
        for (int v = 0; v < REPORT_VARIANT_NB; v++) {
            if (!report_has_variant(rep, v)) continue;
            const ReportDeclared *d = &rep->declared[i];
            ReportCompared *r = &rep->compared[rep->ncompared++];
            *r = (ReportCompared){.declared = i, .variant = v, .pa = self_play(rep, v, d->a, d->opening_a),
                                  .pb = self_play(rep, v, d->b, d->opening_b)};
            if (r->pa < 0 || r->pb < 0) continue;
            r->d = report_diff(&rep->pairs[r->pb], &rep->pairs[r->pa]);
            if (r->d.verdict != REPORT_TOO_FEW) at[m] = rep->ncompared - 1, p[m++] = r->d.p;
        }
    stats_holm(p, m, p);
    for (int k = 0; k < m; k++) rep->compared[at[k]].d = report_diff_corrected(rep->compared[at[k]].d, p[k], m);
    free(p);
    free(at);
    return 0;
oom:
    free(p);
    free(at);
    declared_free(rep);
    return -1;
}
