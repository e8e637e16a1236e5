/* Uniformly random games: the engine's playout, used by the benchmark, the
 * tests and MCTS rollouts. */
#ifndef YINSH_RANDGAME_H
#define YINSH_RANDGAME_H

#include "position.h"
#include "rng.h"

/* Plays uniformly random legal actions (movegen_random) from pos until the
 * game ends or max_actions were played; returns the number played. */
int randgame_play(Position *pos, Rng *rng, int max_actions);

/* The stream of game `index` of a run with seed `seed`: every game has its
 * own pcg32 stream, so results do not depend on how games are spread over
 * threads. */
static inline void randgame_seed(Rng *rng, uint64_t seed, uint64_t index)
{
    rng_seed(rng, rng_mix(seed, index), index);
}

#endif
