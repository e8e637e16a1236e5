/* The strength ladder of a selection, per variant: the agents that played
 * themselves (the levels), the match runs between them summed per two
 * levels (the links), and the levels rated by one joint Bradley-Terry fit
 * of those matches (stats_bt_fit, as a tournament rates its players),
 * anchored at random play. A link that one side won game for game admits
 * no finite rating across it, so the fit is made per block of levels that
 * such links part (docs/json.md: "ladders"); the bound the sweep allows is
 * kept with the link. Also: the figures published elsewhere that the
 * pictures show beside the ladder's. */
#include <stdlib.h>
#include <string.h>
#include "selfplay/agents/agent.h"
#include "study/report/report_internal.h"
#include "selfplay/stats/stats.h"

/* White's share in games published elsewhere, as published (issue #23). */
const ReportPublished REPORT_PUBLISHED[REPORT_PUBLISHED_NB] = {
    {"human players", "boardspace.net", "humans", 0.590, 1, 747},
    {"the top 10 players", "Board Game Arena", "top 10 players", 0.501, 1, 705},
    {"one engine against itself at one strength, 1,000 MCTS simulations per move", "an engine's self-play",
     "1,000 MCTS sims", 0.5255, 2, 200000},
};

Interval report_published_interval(const ReportPublished *p)
{
    return stats_wilson(p->white_score, (double)p->games, STATS_Z95);
}

static bool is_random(const char *spec)
{
    AgentSpec a;
    char err[ERR_LEN];
    return !agent_spec_parse_text(spec, &a, err) && agent_spec_random(&a);
}

/* A tally seen from the other side: wins and losses swapped, pairs by the
 * other side's half points. */
static MatchTally tally_turned(const MatchTally *t)
{
    MatchTally u = {.wins = t->losses, .draws = t->draws, .losses = t->wins, .pairs = t->pairs};
    for (int k = 0; k < 5; k++) u.penta[k] = t->penta[4 - k];
    return u;
}

static void tally_add(MatchTally *to, const MatchTally *t)
{
    to->wins += t->wins;
    to->draws += t->draws;
    to->losses += t->losses;
    to->pairs += t->pairs;
    for (int k = 0; k < 5; k++) to->penta[k] += t->penta[k];
}

/* The blocks: levels joined by links in which each side scored. */
static int find(int *up, int i)
{
    while (up[i] != i) i = up[i] = up[up[i]];
    return i;
}

/* The ladder's order, weakest first: a level comes once the lower level
 * of every link it is the upper of has come, the first such in the
 * report's pair order (a circle of links is broken there too); the
 * levels in no link come last. order[k] is the level at place k. */
static void ladder_order(const ReportLadder *lad, const bool *linked, int *order)
{
    int n = lad->nlevels, placed = 0;
    bool done[REPORT_LEVEL_MAX] = {false};
    while (placed < n) {
        int pick = -1;
        for (int i = 0; i < n && pick < 0; i++) {
            if (done[i] || !linked[i]) continue;
            bool ready = true;
            for (int k = 0; k < lad->nlinks && ready; k++)
                if (lad->link[k].upper == i && !done[lad->link[k].lower]) ready = false;
            if (ready) pick = i;
        }
        /* a circle of links: its first level in pair order; then the levels in no link */
        for (int i = 0; i < n && pick < 0; i++)
            if (!done[i] && linked[i]) pick = i;
        for (int i = 0; i < n && pick < 0; i++)
            if (!done[i]) pick = i;
        done[pick] = true;
        order[placed++] = pick;
    }
}

/* Fits one block (members[m], in the ladder's order) anchored at
 * members[0], then again at its base, so that every se is relative to
 * the base: `anchor` where it is given (the ladder's anchor, a member of
 * block 0), else the block's weakest member. *base: its index in
 * members. */
static int fit_block(const ReportLadder *lad, const int *members, int m, int anchor, double *elo, double *se,
                     int *base, char *err)
{
    double games[REPORT_LEVEL_MAX * REPORT_LEVEL_MAX] = {0}, score[REPORT_LEVEL_MAX * REPORT_LEVEL_MAX] = {0};
    const char *names[REPORT_LEVEL_MAX];
    int at[REPORT_LEVEL_MAX];
    for (int i = 0; i < lad->nlevels; i++) at[i] = -1;
    for (int a = 0; a < m; a++) {
        at[members[a]] = a;
        names[a] = lad->level[members[a]].agent;
    }
    if (m == 1) {
        elo[0] = se[0] = 0;
        *base = 0;
        return 0;
    }
    for (int k = 0; k < lad->nlinks; k++) {
        const ReportLink *l = &lad->link[k];
        int u = at[l->upper], w = at[l->lower];
        if (u < 0 || w < 0) continue;
        /* the games of whole pairs, a draw half a win: as matches and tournaments count them */
        double g = 2.0 * (double)l->tally.pairs, pts = (double)l->tally.wins + 0.5 * (double)l->tally.draws;
        games[u * m + w] += g;
        games[w * m + u] += g;
        score[u * m + w] += pts;
        score[w * m + u] += g - pts;
    }
    if (stats_bt_fit(m, games, score, 0, names, elo, se, err)) return -1;
    int b = 0;
    for (int a = 0; a < m; a++)
        if (anchor >= 0 ? members[a] == anchor : elo[a] < elo[b]) b = a;
    *base = b;
    return b ? stats_bt_fit(m, games, score, b, names, elo, se, err) : 0;
}

void report_ladder_free(ReportLadder *lad)
{
    free(lad->link);
    lad->link = NULL;
    lad->nlinks = 0;
}

/* The levels: every agent that played itself, once, in pair order. False,
 * with lad->why, when there are too many to rate. */
static bool ladder_levels(const Report *rep, int variant, ReportLadder *lad)
{
    for (int i = 0; i < rep->npairs; i++) {
        const ReportPair *p = &rep->pairs[i];
        if (p->variant != variant || strcmp(p->white, p->black) || !p->games) continue;
        int at = report_level_of(lad, p->white);
        if (at >= 0) {
            if (p->games > rep->pairs[lad->level[at].pair].games) lad->level[at].pair = i;
            continue;
        }
        if (lad->nlevels == REPORT_LEVEL_MAX) {
            snprintf(lad->why, sizeof lad->why, "more than %d agents played themselves: too many levels to rate",
                     REPORT_LEVEL_MAX);
            return false;
        }
        lad->level[lad->nlevels++] = (ReportLevel){.agent = p->white, .pair = i, .block = -1, .base = -1};
    }
    return true;
}

/* The links: the match runs of the variant between two levels, and each
 * level's first ladder match's opening into opening[]. False when there
 * is no link (or, with lad->why, no memory for them). */
static bool ladder_links(const Report *rep, int variant, ReportLadder *lad, const char **opening)
{
    int nruns = 0;
    for (int i = 0; i < rep->nmatches; i++) nruns += rep->matches[i].variant == variant;
    if (!lad->nlevels || !nruns) return false;
    if (!(lad->link = calloc((size_t)nruns, sizeof *lad->link))) {
        snprintf(lad->why, sizeof lad->why, "out of memory");
        return false;
    }
    for (int i = 0; i < rep->nmatches; i++) {
        const ReportMatch *m = &rep->matches[i];
        if (m->variant != variant) continue;
        int a = report_level_of(lad, m->a), b = report_level_of(lad, m->b);
        if (a < 0 || b < 0 || a == b) {
            lad->left_out++;
            continue;
        }
        if (!m->pairs.tally.pairs) continue; /* no whole pair yet */
        ReportLink *l = NULL;
        for (int k = 0; k < lad->nlinks && !l; k++)
            if ((lad->link[k].upper == a && lad->link[k].lower == b) ||
                (lad->link[k].upper == b && lad->link[k].lower == a))
                l = &lad->link[k];
        if (!l) {
            l = &lad->link[lad->nlinks++];
            *l = (ReportLink){.upper = a, .lower = b, .run = m->run};
        }
        MatchTally t = l->upper == a ? m->pairs.tally : tally_turned(&m->pairs.tally);
        tally_add(&l->tally, &t);
        l->runs++;
        if (!opening[a]) opening[a] = m->opening;
        if (!opening[b]) opening[b] = m->opening;
    }
    return lad->nlinks > 0;
}

/* Each link's own figures, and the sweeps: the links that are no sweep
 * join their levels' sets in up (union-find); linked[] marks the levels
 * with a link. */
static void ladder_link_figures(ReportLadder *lad, int *up, bool *linked)
{
    for (int i = 0; i < lad->nlevels; i++) up[i] = i;
    for (int k = 0; k < lad->nlinks; k++) {
        ReportLink *l = &lad->link[k];
        const MatchTally *t = &l->tally;
        l->score = stats_score(t->wins, t->draws, t->losses);
        l->elo = stats_elo_pentanomial(t->penta);
        l->swept = !t->draws && !t->losses ? 1 : !t->draws && !t->wins ? -1 : 0;
        /* a pair swept is a pair won 2-0, and a game's score is at least the share of such pairs:
           a bound that holds however the two games of a pair go together */
        if (l->swept) l->bound = stats_elo(stats_sweep_lower(t->pairs, 0.05));
        else up[find(up, l->upper)] = find(up, l->lower);
        linked[l->upper] = linked[l->lower] = true;
    }
}

/* The order, then the levels and links renumbered by it: up2[k] is the
 * root of new level k's set (a new number), linked2[k] whether it has a
 * link. */
static void ladder_renumber(ReportLadder *lad, int *up, const bool *linked, int *up2, bool *linked2)
{
    int order[REPORT_LEVEL_MAX], place[REPORT_LEVEL_MAX];
    ladder_order(lad, linked, order);
    ReportLevel levels[REPORT_LEVEL_MAX];
    for (int k = 0; k < lad->nlevels; k++) {
        levels[k] = lad->level[order[k]];
        linked2[k] = linked[order[k]];
        place[order[k]] = k;
    }
    for (int k = 0; k < lad->nlevels; k++) up2[k] = place[find(up, order[k])];
    memcpy(lad->level, levels, sizeof levels);
    for (int k = 0; k < lad->nlinks; k++) {
        lad->link[k].upper = place[lad->link[k].upper];
        lad->link[k].lower = place[lad->link[k].lower];
    }
}

/* The blocks (the sets of levels joined by links that are no sweep), the
 * anchor's first, then the others in the order of their first levels,
 * each fitted on its own Elo scale. */
static void ladder_fit_blocks(ReportLadder *lad, const int *up2, const bool *linked2)
{
    int anchor = -1;
    for (int k = 0; k < lad->nlevels && anchor < 0; k++)
        if (linked2[k] && is_random(lad->level[k].agent)) anchor = k;
    lad->anchor_random = anchor >= 0;
    int anchor_root = anchor >= 0 ? up2[anchor] : up2[0];
    int roots[REPORT_LEVEL_MAX], nroots = 0;
    roots[nroots++] = anchor_root;
    for (int k = 0; k < lad->nlevels; k++) {
        if (!linked2[k]) continue;
        bool seen = false;
        for (int r = 0; r < nroots; r++) seen |= roots[r] == up2[k];
        if (!seen) roots[nroots++] = up2[k];
    }
    for (int r = 0; r < nroots; r++) {
        int members[REPORT_LEVEL_MAX], m = 0;
        for (int k = 0; k < lad->nlevels; k++)
            if (linked2[k] && up2[k] == roots[r]) members[m++] = k;
        double elo[REPORT_LEVEL_MAX], se[REPORT_LEVEL_MAX];
        int base;
        char err[ERR_LEN];
        if (fit_block(lad, members, m, r == 0 ? anchor : -1, elo, se, &base, err)) {
            snprintf(lad->why, sizeof lad->why, "the joint fit failed: %s", err);
            for (int k = 0; k < lad->nlevels; k++) lad->level[k].block = -1;
            lad->anchor = -1;
            lad->nblocks = 0;
            return;
        }
        for (int a = 0; a < m; a++) {
            ReportLevel *lv = &lad->level[members[a]];
            lv->block = r;
            lv->base = members[base];
            lv->elo = elo[a] + 0.0;
            lv->se = se[a];
        }
        if (r == 0) lad->anchor = members[base];
    }
    lad->nblocks = nroots;
}

void report_ladder_build(const Report *rep, int variant, ReportLadder *lad)
{
    *lad = (ReportLadder){.anchor = -1};
    const char *opening[REPORT_LEVEL_MAX] = {NULL}; /* each level's first ladder match's opening */
    if (!ladder_levels(rep, variant, lad) || !ladder_links(rep, variant, lad, opening)) return;
    int up[REPORT_LEVEL_MAX];
    bool linked[REPORT_LEVEL_MAX] = {false};
    ladder_link_figures(lad, up, linked);

    /* each level's self-play from the opening of its matches, where it has one */
    for (int i = 0; i < lad->nlevels; i++) {
        if (!opening[i]) continue;
        int at = report_pair_index(rep, variant, lad->level[i].agent, lad->level[i].agent, opening[i]);
        if (at >= 0 && rep->pairs[at].games) lad->level[i].pair = at;
    }

    int up2[REPORT_LEVEL_MAX];
    bool linked2[REPORT_LEVEL_MAX];
    ladder_renumber(lad, up, linked, up2, linked2);
    ladder_fit_blocks(lad, up2, linked2);
}

int report_level_of(const ReportLadder *lad, const char *spec)
{
    for (int i = 0; i < lad->nlevels; i++)
        if (!strcmp(lad->level[i].agent, spec)) return i;
    return -1;
}

bool report_ladder_rated(const ReportLadder *lad)
{
    return lad->nlinks > 0 && !lad->why[0];
}

bool report_has_ladder(const Report *rep)
{
    for (int v = 0; v < REPORT_VARIANT_NB; v++)
        if (report_ladder_rated(&rep->ladder[v])) return true;
    return false;
}

int report_ladder_top(const ReportLadder *lad)
{
    int last = -1;
    for (int k = 0; k < lad->nlevels; k++)
        if (lad->level[k].block >= 0) last = k;
    if (last < 0) return -1;
    int top = last;
    for (int k = 0; k < lad->nlevels; k++)
        if (lad->level[k].block == lad->level[last].block && lad->level[k].elo > lad->level[top].elo) top = k;
    return top;
}

Interval report_level_elo(const ReportLevel *level)
{
    double h = STATS_Z95 * level->se;
    return (Interval){level->elo - h, level->elo, level->elo + h};
}

int report_ladder_depth(const ReportLadder *lad, int *surely)
{
    int n = 0;
    *surely = 0;
    for (int k = 0; k < lad->nlinks; k++) {
        const ReportLink *l = &lad->link[k];
        /* points / games >= pct / 100, in half points and integers */
        uint64_t half = 2 * l->tally.wins + l->tally.draws, games = l->tally.wins + l->tally.draws + l->tally.losses;
        if (100 * half < 2 * (uint64_t)REPORT_DEPTH_SCORE_PCT * games || !games) continue;
        n++;
        *surely += 100 * l->score.lo >= REPORT_DEPTH_SCORE_PCT;
    }
    return n;
}
