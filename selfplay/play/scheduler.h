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
#include "selfplay/agents/agent.h"
#include "selfplay/play/book.h"
#include "selfplay/play/controls.h"
#include "selfplay/play/resign.h"
#include "selfplay/records/record.h"


typedef struct SelfplayPlan {
    int variant;
    AgentSpec white, black; /* with pairs: agents A and B */
    uint64_t seed;  /* the run seed */
    uint32_t games; /* the run's size: game indices 0..games-1 */
    int threads;    /* OpenMP threads; <= 0: omp_get_max_threads() */
    bool pairs;     /* colour-swapped pairs: odd games give White to plan.black */
    int opening;    /* OPENING_*: how every game starts */
    int opening_actions; /* OPENING_RANDOM: the random actions that start every game (K) */
    const Book *book; /* with OPENING_BOOK: the openings (the caller's, checked for the variant) */
    PlayControls controls;
    /* Records each MCTS action's root visit distribution in the game's
     * record (GameRecord.children; stored in table action_visits). It
     * changes no game: the search is the same, only read once more. */
    bool store_visits;
} SelfplayPlan;

uint64_t selfplay_game_seed(uint64_t run_seed, uint32_t index);
/* The seed of the agent playing colour c (WHITE, BLACK) in game `index`
 * under per-agent streams: rng_mix(selfplay_game_seed(run_seed, index),
 * 1 + c). */
uint64_t selfplay_agent_seed(uint64_t run_seed, uint32_t index, int colour);
/* Whether the plan's agents draw from their own streams. */
bool selfplay_agent_streams(const SelfplayPlan *plan);
/* Sets plan->controls.uncapped from the plan's specs: the side of an
 * uncapped MCTS spec (agent_spec_uncapped) that plays under a time limit
 * (the run's movetime or clock, or its own movetime) and not under the
 * run's sims. A new run's plan is settled before its controls are
 * written or compared (play/run.h). */
void selfplay_plan_settle(SelfplayPlan *plan);

/* Plays game `index` of a plan into rec; `white` and `black` are the agents
 * made from plan->white and plan->black (reset first; with plan->pairs an
 * odd game gives White to `black`). 0, or -1 when memory runs out. Free
 * with record_free. */
int selfplay_play_game(const SelfplayPlan *plan, Agent *white, Agent *black, uint32_t index, GameRecord *rec);
/* The same, with the external engines' environment (log folder, thread). */
int selfplay_play_game_env(const SelfplayPlan *plan, Agent *white, Agent *black, uint32_t index,
                           const AgentEnv *env, GameRecord *rec);

/* Where finished games go. Both callbacks run on the writer thread only,
 * one call at a time. `write` stores a batch of games (all or none; 0 on
 * success, else non-zero with a message in err, ERR_LEN bytes),
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
    /* NULL, or a flag set from outside the run (a signal handler): the
     * same effect as stop. */
    const atomic_bool *interrupt;
} SelfplaySink;

/* Plays the games `indices[0..n-1]` of the plan on plan->threads threads
 * and hands each finished game to the sink's writer thread. Returns 0, or
 * non-zero with a message in err (ERR_LEN bytes): a failed write
 * stops the run (games in flight are finished and dropped). */
int selfplay_run(const SelfplayPlan *plan, const uint32_t *indices, uint32_t n, const SelfplaySink *sink,
                 char *err);

/* Where the games to play come from when they are not a fixed list (MPI
 * ranks, selfplay/play/distribute.h): `next` gives a game thread the index of
 * its next game, or false when there is none left (it may wait; any
 * number of game threads call it at once). `serve`, if not NULL, runs on
 * a thread of its own beside the game threads for the whole run and may
 * hand the writer games played elsewhere (selfplay_inlet_push), so that
 * they are stored in the same batches as the games played here; the run
 * ends when the game threads have no next game and serve has returned
 * (0, or non-zero with a message in err, which fails the run). */
typedef struct SelfplayInlet SelfplayInlet;
typedef struct SelfplaySource {
    bool (*next)(void *ctx, uint32_t *index);
    int (*serve)(void *ctx, SelfplayInlet *inlet, char *err);
    void *ctx;
} SelfplaySource;

/* Hands a finished game played elsewhere (malloc'ed, with its actions) to
 * the writer, which owns it from then on: true, or false when the run has
 * failed (the game is freed). */
bool selfplay_inlet_push(SelfplayInlet *in, GameRecord *g);
/* Whether the run is stopping (a failed write, the sink's stop or
 * interrupt): no more games should be started anywhere. */
bool selfplay_inlet_stopping(const SelfplayInlet *in);

/* selfplay_run with the games taken from a source. */
int selfplay_run_source(const SelfplayPlan *plan, const SelfplaySource *src, const SelfplaySink *sink, char *err);

#endif
