/* Tournaments (`yinsh tournament`, docs/tournament.md): named participants
 * (agent spec texts) in a round robin (every pair of them) or a gauntlet
 * (the first against each of the others), each pairing an ordinary match
 * run (selfplay/match/match.h: colour-swapped pairs from shared openings) in
 * one database, then one rating list fitted over all their games.
 *
 * Nothing but the runs is stored: the pairing of participants A and B of
 * tournament T, A the one first in the names' order (tournament_order),
 * is the match run named "T/A-vs-B" (A as agent A), seeded rng_mix(seed,
 * hash of that name), so the same participants and seed always ask for
 * the same games, in whatever order the command line gives them, a
 * pairing keeps its games when participants are added, and resuming a
 * tournament is running the same command again (each run resumes as any
 * run does). A pairing stored before the names' order named it (its
 * participants in the order given, B first) is found under that name
 * (tournament_state). Each pairing is a planned run (study/plans/planned.h):
 * tournament_state says which are complete, unfinished or missing,
 * refusing a stored run that another plan made; playing them is the
 * caller's (cli/, through planned_play). */
#ifndef YINSH_TOURNAMENT_H
#define YINSH_TOURNAMENT_H

#include <stdbool.h>
#include <stdint.h>
#include "selfplay/match/match.h"
#include "selfplay/play/run.h"
#include "study/plans/planned.h"
#include "selfplay/stats/bt_bounds.h"
#include "selfplay/stats/stats.h"

enum {
    TOURNAMENT_MAX_PLAYERS = STATS_BT_MAX,
    TOURNAMENT_NAME_LEN = 32,
};

typedef struct TournamentPlayer {
    char name[TOURNAMENT_NAME_LEN]; /* display name: a planned_word */
    char spec[SPEC_LEN];            /* the spec as given */
    AgentSpec agent;
} TournamentPlayer;

typedef struct TournamentPairing {
    int a, b;                    /* players: a is agent A (White in the even games) */
    char run[STORE_NAME_LEN];    /* NAME/A-vs-B */
} TournamentPairing;

/* The order of participants' names that fixes a pairing's A and B:
 * letters and other characters by their bytes, a run of digits by its
 * number (mcts50 before mcts200), names equal so by their bytes. Negative
 * when a comes first. */
int tournament_order(const char *a, const char *b);

typedef struct Tournament {
    char name[TOURNAMENT_NAME_LEN];
    TournamentPlayer players[TOURNAMENT_MAX_PLAYERS];
    int nplayers;
    bool gauntlet;    /* players[0] against each of the others; else every pair */
    bool as_given;    /* A and B of a pairing in the players' order, not the names'
                       * (SPSA's plus against minus: an order no command line gives) */
    uint32_t games;   /* per pairing, even */
    uint64_t seed;
    int variant;      /* VARIANT_* */
    int opening;      /* OPENING_* */
    int opening_actions; /* OPENING_RANDOM: K */
    const Book *book; /* with OPENING_BOOK (the caller's; it outlives the tournament) */
    PlayControls controls; /* every pairing's time controls and engine settings (scheduler.h) */
    TournamentPairing *pairings; /* malloc'ed by tournament_pairings */
    int npairings;
} Tournament;

/* Checks a display name (a plain word, not taken) and adds the player
 * (a copy of agent with a reference of its own to its net, given back by
 * tournament_free): 0, or -1 with a message in err. */
int tournament_add(Tournament *t, const char *name, const char *spec, const AgentSpec *agent, char *err);

/* Makes the pairings, in order: the gauntlet's (first, k) for k = 1..; a
 * round robin's (i, j) for i < j; each with A and B in the names' order
 * (or as given, as_given). 0, or -1 with a message (too few players, a
 * run name too long). tournament_free frees them and gives back the
 * players' nets. */
int tournament_pairings(Tournament *t, char *err);
void tournament_free(Tournament *t);

/* Pairing k as a planned match run: its name, and its plan (agents, seed,
 * games, variant, opening, controls: all of a match's limits come from
 * here); command NULL, state MISSING. */
void tournament_planned(const Tournament *t, int k, Planned *p);

/* Every pairing as a planned run (runs: npairings entries) with its state
 * in the database (planned_read). A pairing the database lacks under its
 * name, but holds under the name of the other order (B-vs-A, as a yinsh
 * that named pairings in the order given stored it) with that order's
 * plan (B as agent A, the seed of that name), is that run: the pairing
 * takes its name, A and B. 0; ERR_EXISTS when a stored run has a
 * pairing's name but another plan ("database 'D': what differs; the
 * tournament asks for another run under that name"); ERR_FAIL when the
 * database cannot be read. */
int tournament_state(Tournament *t, const PlannedOptions *o, Planned *runs, char *err);

/* What the stored games of the pairings say. */
typedef struct TournamentResults {
    MatchTally *tally;   /* per pairing, A's results (pairs counted whole, as `yinsh match` does) */
    uint64_t *hash;      /* per pairing, the play hash of its stored games (record.h; 0 when none) */
    double points[TOURNAMENT_MAX_PLAYERS];   /* each player's points, a draw 1/2 */
    uint64_t games[TOURNAMENT_MAX_PLAYERS];  /* each player's games */
    uint64_t faults[TOURNAMENT_MAX_PLAYERS]; /* games each player lost on a fault of its own (REASON_IS_FAULT) */
    int anchor;          /* the player rated 0: the one asked for, or the first of the rated group
                          * when the one asked for has no finite rating */
    bool rated;          /* some player has a rating or a bound besides the anchor */
    bool partial;        /* rated, but some players only have a bound (above X, below Y) or none */
    /* per player (selfplay/stats/bt_bounds.h): RATED with elo and se (se[anchor] = 0), or ABOVE / BELOW
     * with a one-sided 95% bound, or UNLINKED */
    StatsBtRating rating[TOURNAMENT_MAX_PLAYERS];
    bool linked;         /* when not rated: every participant is linked to the others by games
                          * (then some won every game against others); else some played none */
    char why[ERR_LEN];   /* when not rated: why, in general; the pairings' tallies say who beat whom */
    int rank[TOURNAMENT_MAX_PLAYERS]; /* the players, best first: above, rated, below (by rating or bound),
                                       * then the unlinked by score; ties in the players' order */
} TournamentResults;

/* The one-sided level of the bounds of the players who won or lost every
 * game against the rated ones: 95%. */
#define TOURNAMENT_BOUND_ALPHA 0.05

/* Reads the games of every pairing's run (the database opened for
 * reading; a run not stored counts no games) and fits the ratings of the
 * players the games bound (stats_bt_bounds), anchored at player `anchor`
 * where it has a finite rating, with bounds for the others: 0 (rated or
 * not), or -1 with a message when the database cannot be read. tournament_results_free frees them. */
int tournament_results(const Tournament *t, const PlannedOptions *o, int anchor, TournamentResults *r, char *err);
void tournament_results_free(TournamentResults *r);

/* Player i's score: its points over its games (0 without games). */
double tournament_score(const TournamentResults *r, int i);
/* The points of player i against player j (a draw 1/2) and their games,
 * over every pairing of the two: a cell of the pairwise table. */
void tournament_pair_points(const Tournament *t, const TournamentResults *r, int i, int j, double *points,
                            uint64_t *games);

#endif
