/* A tournament's results as `yinsh tournament` prints them
 * (tournament_text.h). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include "study/plans/tournament_text.h"
#include "engine/base/json.h"
#include "engine/base/number.h"
#include "engine/notation.h"

/* Who won every game against whom, and which pairings have no games:
 * the facts behind ratings that are missing or only bounds. */
static void sweep_facts(FILE *f, const Tournament *t, const TournamentResults *r)
{
    for (int k = 0; k < t->npairings; k++) {
        const MatchTally *m = &r->tally[k];
        const char *a = t->players[t->pairings[k].a].name, *b = t->players[t->pairings[k].b].name;
        uint64_t g = m->wins + m->draws + m->losses;
        if (!g) fprintf(f, "             %s and %s played no game\n", a, b);
        else if (m->wins == g || m->losses == g)
            fprintf(f, "             %s won %" PRIu64 " of %" PRIu64 " game%s against %s\n", m->wins == g ? a : b, g, g,
                   number_plural(g), m->wins == g ? b : a);
    }
    fprintf(f, "\n");
}

/* The rating list's head: the tournament, its database, how it is rated. */
static void print_head(FILE *f, const Tournament *t, const TournamentResults *r, const char *db, int asked_anchor)
{
    fprintf(f, "tournament   %s: %s of %d participants, %d pairing%s of %u games, seed %" PRIu64 ", %s\n", t->name,
           t->gauntlet ? "gauntlet" : "round robin", t->nplayers, t->npairings, number_plural((uint64_t)t->npairings),
           t->games, t->seed, variant_name(t->variant));
    fprintf(f, "database     %s\n", db);
    if (r->rated && !r->partial) {
        fprintf(f, "ratings      Elo, anchored at %s = 0; Bradley-Terry over all games (a draw half a win), 95%% "
               "intervals from the observed information\n\n",
               t->players[r->anchor].name);
    } else if (r->rated) {
        fprintf(f, "ratings      Elo, anchored at %s = 0%s%s%s; Bradley-Terry over the games of the participants whose "
               "ratings the games bound (a draw half a win), 95%% intervals from the observed information; "
               "a participant who won (lost) every game against them has a one-sided 95%% bound instead: "
               "above X (below Y)\n",
               t->players[r->anchor].name, r->anchor != asked_anchor ? " (" : "",
               r->anchor != asked_anchor ? t->players[asked_anchor].name : "",
               r->anchor != asked_anchor ? " has no finite rating)" : "");
        sweep_facts(f, t, r);
    } else {
        fprintf(f, "ratings      none: %s; ranked by score\n", r->why);
        sweep_facts(f, t, r);
    }
}

/* The rating list, best first. */
static void print_ratings(FILE *f, const Tournament *t, const TournamentResults *r)
{
    fprintf(f, "%-4s %-24s %8s %19s %7s %8s %6s %6s  %s\n", "rank", "name", "elo", "95% interval", "se", "games", "score",
           "faults", "spec");
    for (int x = 0; x < t->nplayers; x++) {
        int i = r->rank[x];
        const StatsBtRating *q = &r->rating[i];
        char elo[16] = "-", ci[40] = "-", se[16] = "-", shown[SPEC_LEN];
        if (r->rated && q->state == STATS_BT_RATED) {
            snprintf(elo, sizeof elo, "%+.1f", q->elo + 0.0);
            if (i == r->anchor) {
                snprintf(ci, sizeof ci, "(anchor)");
            } else {
                snprintf(ci, sizeof ci, "%+.0f to %+.0f", q->elo - STATS_Z95 * q->se + 0.0,
                         q->elo + STATS_Z95 * q->se + 0.0);
                snprintf(se, sizeof se, "%.1f", q->se);
            }
        } else if (r->rated && (q->state == STATS_BT_ABOVE || q->state == STATS_BT_BELOW)) {
            const char *side = q->state == STATS_BT_ABOVE ? "above" : "below";
            if (isnan(q->bound)) snprintf(ci, sizeof ci, "%s", side);
            else snprintf(ci, sizeof ci, "%s %+.0f", side, q->bound + 0.0);
        }
        fprintf(f, "%-4d %-24s %8s %19s %7s %8" PRIu64 " %6.3f %6" PRIu64 "  %s\n", x + 1, t->players[i].name, elo, ci, se,
               r->games[i], tournament_score(r, i), r->faults[i],
               agent_spec_display(t->players[i].spec, shown, sizeof shown));
    }
}

/* The pairwise table, in the list's order, and each pairing's figures. */
static void print_pairs(FILE *f, const Tournament *t, const TournamentResults *r)
{
    int n = t->nplayers;
    const int *order = r->rank;
    fprintf(f, "\npairwise: the row's points against the column / games\n%-24s", "");
    for (int x = 0; x < n; x++) fprintf(f, " %12.12s", t->players[order[x]].name);
    fprintf(f, "\n");
    for (int x = 0; x < n; x++) {
        int i = order[x];
        fprintf(f, "%-24s", t->players[i].name);
        for (int y = 0; y < n; y++) {
            int j = order[y];
            double pts;
            uint64_t g;
            char cell[32] = "";
            tournament_pair_points(t, r, i, j, &pts, &g);
            if (i != j && g) snprintf(cell, sizeof cell, "%g/%" PRIu64, pts, g);
            fprintf(f, " %12s", i == j ? "." : g ? cell : "-");
        }
        fprintf(f, "\n");
    }
    fprintf(f, "\npairings (A's results; Elo A - B from the pairs, 95%% interval; the play hash of the games)\n");
    for (int k = 0; k < t->npairings; k++) {
        const MatchTally *m = &r->tally[k];
        MatchFigures fig = match_figures(m);
        Interval e = fig.elo;
        fprintf(f, "%-40s W %3" PRIu64 " D %3" PRIu64 " L %3" PRIu64 "  score %.3f", t->pairings[k].run, m->wins,
               m->draws, m->losses, fig.score.mid);
        char elo[48] = "";
        if (m->pairs && isfinite(e.mid) && isfinite(e.lo) && isfinite(e.hi))
            snprintf(elo, sizeof elo, "Elo %+.0f (%+.0f to %+.0f)", e.mid + 0.0, e.lo + 0.0, e.hi + 0.0);
        else if (m->pairs && isfinite(e.mid))
            snprintf(elo, sizeof elo, "Elo %+.0f", e.mid + 0.0);
        fprintf(f, "  %-26s hash %016" PRIx64 "\n", elo, r->hash[k]);
    }
}

void tournament_results_print(FILE *f, const Tournament *t, const TournamentResults *r, const char *db,
                              int asked_anchor)
{
    print_head(f, t, r, db, asked_anchor);
    print_ratings(f, t, r);
    print_pairs(f, t, r);
}

/* The participants' ratings as JSON (docs/json.md). */
static void json_participants(Json *j, const Tournament *t, const TournamentResults *r)
{
    json_array(j, "participants");
    static const char *const states[] = {"rated", "above", "below", "unlinked"};
    for (int i = 0; i < t->nplayers; i++) {
        const StatsBtRating *q = &r->rating[i];
        char shown[SPEC_LEN];
        json_open(j, NULL, '{', true);
        json_str(j, "name", t->players[i].name);
        json_str(j, "spec", t->players[i].spec);
        json_str(j, "display", agent_spec_display(t->players[i].spec, shown, sizeof shown));
        json_str(j, "rating", r->rated ? states[q->state] : NULL);
        if (r->rated && q->state == STATS_BT_RATED) {
            double half = STATS_Z95 * q->se;
            json_estimate(j, "elo", q->elo - half, q->elo, q->elo + half);
            json_num(j, "se", q->se);
        } else {
            json_null(j, "elo");
            json_null(j, "se");
        }
        bool bound = r->rated && (q->state == STATS_BT_ABOVE || q->state == STATS_BT_BELOW) && !isnan(q->bound);
        if (bound) json_num(j, "bound", q->bound);
        else json_null(j, "bound");
        json_uint(j, "games", r->games[i]);
        json_num(j, "points", r->points[i]);
        json_uint(j, "faults", r->faults[i]);
        json_close(j);
    }
    json_close(j);
}

/* The pairings' results as JSON (docs/json.md). */
static void json_pairings(Json *j, const Tournament *t, const TournamentResults *r)
{
    json_array(j, "pairings");
    for (int k = 0; k < t->npairings; k++) {
        const MatchTally *m = &r->tally[k];
        json_open(j, NULL, '{', true);
        json_str(j, "run", t->pairings[k].run);
        json_str(j, "a", t->players[t->pairings[k].a].name);
        json_str(j, "b", t->players[t->pairings[k].b].name);
        json_uint(j, "games", m->wins + m->draws + m->losses);
        json_uint(j, "wins", m->wins);
        json_uint(j, "draws", m->draws);
        json_uint(j, "losses", m->losses);
        json_num(j, "a_points", m->wins + 0.5 * m->draws);
        json_open(j, "pentanomial", '[', true);
        for (int x = 0; x < 5; x++) json_uint(j, NULL, m->penta[x]);
        json_close(j);
        json_hex(j, "hash", r->hash[k]);
        json_close(j);
    }
    json_close(j);
}

void tournament_results_json(Json *j, const Tournament *t, const TournamentResults *r, const char *db)
{
    json_str(j, "name", t->name);
    json_str(j, "db", db);
    json_str(j, "format", t->gauntlet ? "gauntlet" : "round robin");
    json_str(j, "variant", variant_name(t->variant));
    char opening[32];
    json_str(j, "opening", opening_format(t->opening, t->opening_actions, opening, sizeof opening));
    if (t->opening == OPENING_BOOK) json_hex(j, "book_hash", t->book->hash);
    json_u64_text(j, "seed", t->seed);
    json_uint(j, "games_per_pairing", t->games);
    json_str(j, "model", "bradley-terry, draw = half win + half loss");
    json_str(j, "anchor", t->players[r->anchor].name);
    json_bool(j, "rated", r->rated);
    json_bool(j, "partial", r->partial);
    json_str(j, "why_unrated", r->rated ? NULL : r->why);
    json_participants(j, t, r);
    json_pairings(j, t, r);
}

