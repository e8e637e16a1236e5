/* Matches: agent A against agent B in colour-swapped pairs (pair k is game
 * 2k with A as White and game 2k+1 with B as White, both from the same
 * random ring placements), played by the self-play scheduler and stored
 * like self-play games in a run of kind 'match'.
 *
 * Results are tallied pair by pair in index order, so the tally, and the
 * sequential test's decision, do not depend on the number of threads or
 * on the order games finish in. With an SPRT the test runs after every
 * completed pair; once it accepts a hypothesis no new game starts, and the
 * games played past the deciding pair (threads run ahead) are dropped
 * from the tally, never stored: under an SPRT a game waits in memory
 * until its pair is counted. */
#ifndef YINSH_MATCH_H
#define YINSH_MATCH_H

#include <stdbool.h>
#include <stdint.h>
#include "selfplay/play/run.h"
#include "selfplay/play/scheduler.h"
#include "selfplay/match/sprt.h"
#include "selfplay/stats/stats.h"

/* A's points in a game, in half points (2 win, 1 draw, 0 loss). */
int match_points2(int result, bool swapped);

typedef struct MatchTally {
    uint64_t wins, draws, losses; /* A's games */
    uint64_t penta[5];            /* pairs by A's half points over the pair, 0..4 */
    uint64_t pairs;
} MatchTally;

/* Adds one pair: A's half points in its two games. */
void match_tally_pair(MatchTally *t, int points2_first, int points2_second);

/* What a tally says of A against B: A's score, the Elo difference A - B
 * from the pairs (stats_elo_pentanomial) and from the games
 * (stats_elo_trinomial), each with its 95% interval, and the likelihood
 * that A is the stronger (stats_los). */
typedef struct MatchFigures {
    Interval score, elo, elo_games;
    double los;
} MatchFigures;
MatchFigures match_figures(const MatchTally *t);

/* A's half points in a stored game of a match (index 2k: A White; 2k+1:
 * B White), -1 when it holds no result. */
int match_stored_points2(const StoreMatchRow *row);

/* The pairs of a match run tallied from its stored games, fed one by one
 * in index order (store_query_match_games gives them so): a pair counts
 * once both its games are read, as match_run counts it, so a pair cut in
 * half (a killed run) counts nothing yet. */
typedef struct MatchStored {
    MatchTally tally;
    int64_t pair; /* the pair whose first game was read last (-1: none) */
    int first;    /* A's half points in that game (-1: none) */
} MatchStored;
void match_stored_init(MatchStored *m);
void match_stored_add(MatchStored *m, const StoreMatchRow *row);

typedef struct MatchSprt {
    bool on;
    SprtSpec spec; /* the test's bounds and Elo model (selfplay/match/sprt.h) */
} MatchSprt;

/* Parses "elo0,elo1,alpha,beta[,logistic|normalized]" (sprt_parse); 0, or
 * ERR_USAGE with a message in err (ERR_LEN bytes). */
int match_sprt_parse(const char *text, MatchSprt *sprt, char *err);

typedef struct MatchPlan {
    SelfplayPlan plan; /* white = A, black = B; games even; pairs is set by match_run */
    MatchSprt sprt;
    /* Progress, on the writer thread after each stored batch (may be NULL). */
    void (*progress)(void *ctx, const MatchTally *t, uint64_t games_done);
    void *ctx;
    const atomic_bool *interrupt; /* NULL, or set from outside: start no new game */
    struct DistStats *dist;       /* NULL, or where an MPI job's figures go (distribute.h) */
} MatchPlan;

typedef struct MatchResult {
    MatchTally tally;     /* the pairs counted: all, or up to the deciding one */
    Sprt sprt;            /* the test after the last counted pair (when on) */
    uint64_t decided_at;  /* pairs when the SPRT decided; 0 if it did not */
    uint64_t hash;        /* record_game_hash summed over the counted games */
    MatchFigures figures; /* of the tally */
} MatchResult;

/* Plays the match (run_play); with a run (opened, kind "match"), stores
 * its games, and when the SPRT stops it early, ends the run at the pairs
 * counted: a game is stored only once its pair is counted, so no game
 * past the deciding pair is ever stored. A resumed run (run_open with
 * resume: run->todo lacks games) plays only the games it lacks, and its
 * stored games count in the result as if played now; a match with an
 * SPRT is not resumed. run NULL: nothing stored. 0, or -1 with a message
 * in err (ERR_LEN bytes). */
int match_run(const MatchPlan *mp, Run *run, MatchResult *res, char *err);

#endif
