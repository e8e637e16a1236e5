/* Self-play: games between two agents, spread over threads with OpenMP,
 * each finished game handed whole to one writer.
 *
 * Game i of a run draws all its randomness from its own pcg32 stream,
 * rng_stream(run seed, i) (selfplay_game_seed is its start, the seed a
 * record keeps), and agents are reset between games, so game i is the same
 * action for action whatever the number of threads, the order games
 * finish in, or whether it is played in the first attempt at a run or in a
 * --resume.
 *
 * A match (plan.pairs) plays its games in colour-swapped pairs: pair k is
 * games 2k (plan.white as White) and 2k+1 (plan.black as White), and with
 * an opening both games of a pair start from the same position, so that
 * neither the first player's edge nor a lucky opening favours either
 * agent. */
#ifndef YINSH_SCHEDULER_H
#define YINSH_SCHEDULER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "agent.h"

enum { SELFPLAY_ERR_LEN = 512 };

/* How the games of a pair begin. OPENING_RINGS: the ten ring placements
 * are uniformly random legal placements drawn from the pair's own stream
 * (rng_stream of the salted run seed and the pair), the same for both
 * games of the pair; they are recorded as ordinary actions (not searched). */
enum { OPENING_NONE, OPENING_RINGS };

typedef struct SelfplayPlan {
    int variant;
    AgentSpec white, black; /* with pairs: agents A and B */
    uint64_t seed;  /* the run seed */
    uint32_t games; /* the run's size: game indices 0..games-1 */
    int threads;    /* OpenMP threads; <= 0: omp_get_max_threads() */
    bool pairs;     /* colour-swapped pairs: odd games give White to plan.black */
    int opening;    /* OPENING_*: how every game starts */
} SelfplayPlan;

/* One action of a game as played. */
typedef struct ActionRecord {
    Action action;
    uint8_t actor, state;   /* who acted, and the state they acted in */
    uint16_t legal;         /* legal actions in that position */
    bool searched;          /* the next three are meaningful */
    uint32_t root_visits, chosen_visits;
    double value;           /* chosen action's value estimate for the actor */
    uint32_t time_us;       /* time the agent took */
} ActionRecord;

/* A finished game. */
typedef struct GameRecord {
    uint32_t index;
    uint64_t seed;          /* selfplay_game_seed(run seed, index) */
    int variant;
    bool swapped;           /* plan.black played White (odd games of a paired plan) */
    int result, reason;     /* RESULT_*, REASON_* */
    uint8_t removed[2];     /* rings removed by White, Black */
    uint8_t markers[2];     /* white, black markers on the board at the end */
    double duration_s;
    int nactions;
    ActionRecord *actions;  /* nactions of them, owned by the record */
} GameRecord;

/* The start of game `index`'s stream, rng_mix(run seed, index), kept in
 * the record and the database. */
uint64_t selfplay_game_seed(uint64_t run_seed, uint32_t index);

/* Plays game `index` of a plan into rec; `white` and `black` are the agents
 * made from plan->white and plan->black (reset first; with plan->pairs an
 * odd game gives White to `black`). 0, or -1 when memory runs out. Free
 * with selfplay_record_free. */
int selfplay_play_game(const SelfplayPlan *plan, Agent *white, Agent *black, uint32_t index, GameRecord *rec);
void selfplay_record_free(GameRecord *rec);

/* Where finished games go. Both callbacks run on the writer thread only,
 * one call at a time. `write` stores a batch of games (all or none; 0 on
 * success, else non-zero with a message in err, SELFPLAY_ERR_LEN bytes),
 * `stored` is told about them afterwards (progress). Either may be NULL. */
typedef struct SelfplaySink {
    int (*write)(void *ctx, GameRecord *const *games, int n, char *err);
    void (*stored)(void *ctx, GameRecord *const *games, int n);
    void *ctx;
    int batch_games;     /* a batch is written when it holds this many games (default 64) */
    double batch_s;      /* ... or its oldest game has waited this long (default 0.25 s) */
    /* NULL, or a flag the callbacks set (on the writer thread) to stop the
     * run early: game threads read it and start no new game; games in
     * flight are finished and handed to the writer. */
    atomic_bool *stop;
} SelfplaySink;

/* Plays the games `indices[0..n-1]` of the plan on plan->threads threads
 * and hands each finished game to the sink's writer thread. Returns 0, or
 * non-zero with a message in err (SELFPLAY_ERR_LEN bytes): a failed write
 * stops the run (games in flight are finished and dropped). */
int selfplay_run(const SelfplayPlan *plan, const uint32_t *indices, uint32_t n, const SelfplaySink *sink,
                 char *err);

/* Running totals for the summary. */
typedef struct SelfplaySummary {
    uint64_t games;
    uint64_t wins[RESULT_NB];    /* indexed by RESULT_*: [RESULT_WHITE], [RESULT_BLACK], [RESULT_DRAW] */
    uint64_t reasons[REASON_NB]; /* indexed by REASON_* */
    uint64_t actions;    /* summed over games */
    uint64_t hash;       /* sum over games of selfplay_game_hash: the same in any order */
} SelfplaySummary;

/* A hash of what a game's agents chose and saw: every action's text and
 * its root and chosen visit counts (0 when not searched), mixed with the
 * game's index. Summed over a run's games (wrapping), it pins a run's
 * behaviour: a refactoring that changes one action or one visit count
 * changes it. selfplay_hash_step/selfplay_hash_game build it from parts
 * (the store computes it from stored rows the same way). */
uint64_t selfplay_game_hash(const GameRecord *g);
uint64_t selfplay_hash_step(uint64_t h, const char *action, uint32_t root_visits, uint32_t chosen_visits);
uint64_t selfplay_hash_game(uint64_t h, uint32_t index);

void selfplay_summary_add(SelfplaySummary *s, const GameRecord *g);
/* White's score (win 1, draw 1/2) and its 95% confidence interval: the
 * Wilson score interval with the score as the proportion. It stays sound
 * at 0 and 1 and for few games; with draws, whose per-game variance is
 * below p(1-p), it is slightly conservative. */
double selfplay_white_score(const SelfplaySummary *s, double *lo, double *hi);

#endif
