#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "engine/base/error.h"
#include "engine/notation.h"
#include "engine/base/rng.h"
#include "study/plans/tournament.h"

int tournament_add(Tournament *t, const char *name, const char *spec, const AgentSpec *agent, char *err)
{
    if (!planned_word(name, TOURNAMENT_NAME_LEN)) {
        return error_set(err, "participant name '%.60s': 1 to %d " PLANNED_WORD " (it is part of the runs' names)",
                         name, TOURNAMENT_NAME_LEN - 1);
    }
    if (t->nplayers == TOURNAMENT_MAX_PLAYERS) {
        return error_set(err, "a tournament has at most %d participants", TOURNAMENT_MAX_PLAYERS);
    }
    for (int i = 0; i < t->nplayers; i++)
        if (!strcmp(t->players[i].name, name)) {
            return error_set(err, "participant name '%s' is given twice", name);
        }
    if (strlen(spec) >= SPEC_LEN) {
        return error_set(err, "participant '%s': a spec is at most %d characters", name, SPEC_LEN - 1);
    }
    TournamentPlayer *p = &t->players[t->nplayers++];
    snprintf(p->name, sizeof p->name, "%s", name);
    snprintf(p->spec, sizeof p->spec, "%s", spec);
    agent_spec_copy(&p->agent, agent); /* the tournament's own reference to a net */
    return 0;
}

int tournament_order(const char *a, const char *b)
{
    const char *p = a, *q = b;
    while (*p && *q) {
        bool dp = *p >= '0' && *p <= '9', dq = *q >= '0' && *q <= '9';
        if (!dp || !dq) {
            if (*p != *q) return (unsigned char)*p < (unsigned char)*q ? -1 : 1;
            p++, q++;
            continue;
        }
        /* two runs of digits: the shorter number (leading zeros aside) first, else the first digit that differs */
        while (*p == '0') p++;
        while (*q == '0') q++;
        size_t np = 0, nq = 0;
        while (p[np] >= '0' && p[np] <= '9') np++;
        while (q[nq] >= '0' && q[nq] <= '9') nq++;
        if (np != nq) return np < nq ? -1 : 1;
        int c = strncmp(p, q, np);
        if (c) return c < 0 ? -1 : 1;
        p += np, q += nq;
    }
    if (*p || *q) return *p ? 1 : -1;
    int c = strcmp(a, b); /* equal but for leading zeros: a01 and a1 */
    return c < 0 ? -1 : c > 0;
}

/* Names pairing k's run T/A-vs-B after its players a and b. */
static int name_pairing(const Tournament *t, TournamentPairing *p, char *err)
{
    const char *a = t->players[p->a].name, *b = t->players[p->b].name;
    if (snprintf(p->run, sizeof p->run, "%s/%s-vs-%s", t->name, a, b) >= (int)sizeof p->run) {
        return error_set(err, "the run name '%s/%s-vs-%s' is longer than %d characters", t->name, a, b,
                         STORE_NAME_LEN - 1);
    }
    return 0;
}

int tournament_pairings(Tournament *t, char *err)
{
    free(t->pairings);
    t->pairings = NULL;
    t->npairings = 0;
    if (t->nplayers < 2) {
        return error_set(err, "a tournament needs at least two participants");
    }
    int n = t->nplayers, max = t->gauntlet ? n - 1 : n * (n - 1) / 2;
    if (!(t->pairings = calloc((size_t)max, sizeof *t->pairings))) {
        return error_set(err, "out of memory");
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if (t->gauntlet && i > 0) break;
            TournamentPairing *p = &t->pairings[t->npairings++];
            /* the pairing's identity is its two names, whatever order they came in */
            bool swap = !t->as_given && tournament_order(t->players[j].name, t->players[i].name) < 0;
            p->a = swap ? j : i;
            p->b = swap ? i : j;
            if (name_pairing(t, p, err)) return -1;
        }
    return 0;
}

void tournament_free(Tournament *t)
{
    for (int i = 0; i < t->nplayers; i++) agent_spec_release(&t->players[i].agent);
    free(t->pairings);
    t->pairings = NULL;
    t->npairings = 0;
}

/* The one place a pairing's match is planned: whatever limits a match
 * takes, a tournament passes them to every pairing from here. */
void tournament_planned(const Tournament *t, int k, Planned *p)
{
    const TournamentPairing *pair = &t->pairings[k];
    *p = (Planned){.kind = "match", .name = pair->run, .state = PLANNED_MISSING};
    p->plan = (SelfplayPlan){
        .variant = t->variant,
        .white = t->players[pair->a].agent,
        .black = t->players[pair->b].agent,
        .seed = rng_mix(t->seed, rng_hash_text(pair->run)),
        .games = t->games,
        .pairs = true,
        .opening = t->opening,
        .opening_actions = t->opening_actions,
        .book = t->book,
        .controls = t->controls,
    };
}

/* Pairing k under the name of the other order (B-vs-A), as a yinsh that
 * named pairings in the order given may have stored it: when the
 * database holds that run with that order's plan, the pairing becomes it
 * (run: its planned run). 0, or ERR_FAIL with err. */
static int other_order(Tournament *t, int k, const PlannedOptions *o, Planned *run, char *err)
{
    TournamentPairing *p = &t->pairings[k], was = *p;
    *p = (TournamentPairing){.a = was.b, .b = was.a};
    Planned other;
    int refused, rc = name_pairing(t, p, err); /* as long as the pairing's own name: it fits */
    if (!rc) {
        tournament_planned(t, k, &other);
        rc = planned_read(o, &other, 1, &refused, err);
    }
    if (!rc && other.state != PLANNED_MISSING) {
        *run = other;
        return 0;
    }
    *p = was;
    /* another plan under that name is not this pairing's run */
    return rc == ERR_EXISTS ? 0 : rc;
}

int tournament_state(Tournament *t, const PlannedOptions *o, Planned *runs, char *err)
{
    for (int k = 0; k < t->npairings; k++) tournament_planned(t, k, &runs[k]);
    int refused, rc = planned_read(o, runs, t->npairings, &refused, err);
    if (rc == ERR_EXISTS) error_append(err, "; the tournament asks for another run under that name");
    for (int k = 0; !rc && !t->as_given && k < t->npairings; k++)
        if (runs[k].state == PLANNED_MISSING) rc = other_order(t, k, o, &runs[k], err);
    return rc;
}

/* Reading the pairings' games: which pairing a run is, and its pairs
 * (a run's games come together, in index order). */
typedef struct Collect {
    const Tournament *t;
    TournamentResults *r;
    int k;                /* the pairing of the last row */
    MatchStored pairs;    /* its pairs so far */
} Collect;

static int on_game(void *ctx, const StoreMatchRow *row)
{
    Collect *c = ctx;
    if (c->k < 0 || strcmp(c->t->pairings[c->k].run, row->run)) {
        c->k = -1;
        for (int k = 0; k < c->t->npairings && c->k < 0; k++)
            if (!strcmp(c->t->pairings[k].run, row->run)) c->k = k;
        match_stored_init(&c->pairs);
        if (c->k < 0) return 0;
    }
    match_stored_add(&c->pairs, row);
    c->r->tally[c->k] = c->pairs.tally;
    return 0;
}

/* Why there are no ratings, in general: the fit's message names a group
 * ("A, B won every game against the others"), which reads as if A had
 * also beaten B; who beat whom is the pairings' to say. Linked: the games
 * join every participant to every other (through others). */
static void unrated(const Tournament *t, TournamentResults *r)
{
    int group[TOURNAMENT_MAX_PLAYERS], n = t->nplayers, groups = n;
    for (int i = 0; i < n; i++) group[i] = i;
    for (int k = 0; k < t->npairings; k++) {
        const MatchTally *m = &r->tally[k];
        int ga = group[t->pairings[k].a], gb = group[t->pairings[k].b];
        if (m->wins + m->draws + m->losses == 0 || ga == gb) continue;
        for (int i = 0; i < n; i++)
            if (group[i] == gb) group[i] = ga;
        groups--;
    }
    r->linked = groups == 1;
    snprintf(r->why, sizeof r->why, "%s",
             r->linked ? "no finite ratings: some participants won every game against others, so the fit would "
                         "rate them infinitely far apart"
                       : "no ratings: some participants played no game against the others, so nothing ties their "
                         "ratings together");
}

/* The players best first: those above the rated ones (by bound), the
 * rated (by rating), those below (by bound), then the unlinked by score
 * (a player without games last); ties in the players' order. Without
 * ratings, all by score. */
static void rank(const Tournament *t, TournamentResults *r)
{
    double key[TOURNAMENT_MAX_PLAYERS];
    int n = t->nplayers;
    for (int i = 0; i < n; i++) {
        const StatsBtRating *x = &r->rating[i];
        double score = r->games[i] ? r->points[i] / (double)r->games[i] : -1;
        if (!r->rated) key[i] = score;
        else if (x->state == STATS_BT_RATED) key[i] = x->elo;
        else if (x->state == STATS_BT_ABOVE) key[i] = 1e9 + (isnan(x->bound) ? -1e6 : x->bound);
        else if (x->state == STATS_BT_BELOW) key[i] = -1e9 + (isnan(x->bound) ? -1e6 : x->bound);
        else key[i] = -3e9 + score;
        r->rank[i] = i;
    }
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && key[r->rank[j]] > key[r->rank[j - 1]]; j--) {
            int x = r->rank[j];
            r->rank[j] = r->rank[j - 1];
            r->rank[j - 1] = x;
        }
}

int tournament_results(const Tournament *t, const PlannedOptions *o, int anchor, TournamentResults *r, char *err)
{
    *r = (TournamentResults){.anchor = anchor};
    if (!(r->tally = calloc((size_t)(t->npairings ? t->npairings : 1), sizeof *r->tally)) ||
        !(r->hash = calloc((size_t)(t->npairings ? t->npairings : 1), sizeof *r->hash))) {
        return error_set(err, "out of memory");
    }
    struct stat sb;
    if (stat(o->db, &sb) == 0) {
        Store *store = NULL;
        int rc = store_open(&store, o->db, STORE_READ, o->busy_ms, err);
        if (rc && rc != ERR_NOT_FOUND) return -1;
        if (!rc) {
            /* only the runs stored (a name the database lacks would be an error) */
            const char **names = calloc((size_t)(t->npairings ? t->npairings : 1), sizeof *names);
            int n = 0;
            char serr[ERR_LEN];
            for (int k = 0; names && k < t->npairings; k++) {
                StoreRun row;
                RecordSummary sum;
                if (store_run_get(store, t->pairings[k].run, &row, serr) != ERR_OK) continue;
                names[n++] = t->pairings[k].run;
                if (store_summary(store, &row, &sum, serr) != ERR_OK) continue;
                r->hash[k] = sum.hash;
                /* the run's white agent is the pairing's A */
                for (int x = 0; x < REASON_NB; x++) {
                    r->faults[t->pairings[k].a] += sum.faults[0][x];
                    r->faults[t->pairings[k].b] += sum.faults[1][x];
                }
            }
            Collect c = {.t = t, .r = r, .k = -1};
            StoreSelection sel = {.runs = names, .nruns = n};
            if (!names) {
                rc = error_set(err, "out of memory");
            } else if (n) {
                rc = store_query_match_games(store, &sel, on_game, &c, err) ? -1 : 0;
            }
            free(names);
            store_close(store);
            if (rc) return -1;
        }
    }

    /* the players' totals and the matrices of the fit */
    int n = t->nplayers;
    double *games = calloc((size_t)(n * n), sizeof *games), *score = calloc((size_t)(n * n), sizeof *score);
    if (!games || !score) {
        free(games);
        free(score);
        return error_set(err, "out of memory");
    }
    for (int k = 0; k < t->npairings; k++) {
        const MatchTally *m = &r->tally[k];
        int a = t->pairings[k].a, b = t->pairings[k].b;
        double g = (double)(m->wins + m->draws + m->losses), pa = m->wins + 0.5 * m->draws;
        games[a * n + b] += g;
        games[b * n + a] += g;
        score[a * n + b] += pa;
        score[b * n + a] += g - pa;
        r->games[a] += (uint64_t)g;
        r->games[b] += (uint64_t)g;
        r->points[a] += pa;
        r->points[b] += g - pa;
    }
    const char *names[TOURNAMENT_MAX_PLAYERS];
    for (int i = 0; i < n; i++) names[i] = t->players[i].name;
    char fit[ERR_LEN];
    int rc = stats_bt_bounds(n, games, score, TOURNAMENT_BOUND_ALPHA, &r->anchor, names, r->rating, fit);
    free(games);
    free(score);
    if (rc) { /* a fit that fails (it did not converge) leaves the list by score, saying why */
        r->anchor = anchor;
        unrated(t, r);
        snprintf(r->why, sizeof r->why, "%s", fit);
        rank(t, r);
        return 0;
    }
    int rated = 0, bounded = 0;
    for (int i = 0; i < n; i++) {
        rated += r->rating[i].state == STATS_BT_RATED;
        bounded += r->rating[i].state != STATS_BT_RATED && r->rating[i].state != STATS_BT_UNLINKED;
    }
    r->rated = rated >= 2 || bounded > 0;
    r->partial = r->rated && rated < n;
    if (!r->rated) r->anchor = anchor, unrated(t, r);
    rank(t, r);
    return 0;
}

void tournament_results_free(TournamentResults *r)
{
    free(r->tally);
    free(r->hash);
    r->tally = NULL;
    r->hash = NULL;
}

double tournament_score(const TournamentResults *r, int i)
{
    return r->games[i] ? r->points[i] / (double)r->games[i] : 0;
}

void tournament_pair_points(const Tournament *t, const TournamentResults *r, int i, int j, double *pts,
                            uint64_t *games)
{
    *pts = 0;
    *games = 0;
    for (int k = 0; k < t->npairings; k++) {
        const TournamentPairing *p = &t->pairings[k];
        const MatchTally *m = &r->tally[k];
        uint64_t g = m->wins + m->draws + m->losses;
        double pa = m->wins + 0.5 * m->draws;
        if (p->a == i && p->b == j) *pts += pa, *games += g;
        if (p->a == j && p->b == i) *pts += g - pa, *games += g;
    }
}
