/* Uniformly random games: the engine's playout, used by the benchmark, the
 * tests and MCTS rollouts. */
#ifndef YINSH_RANDGAME_H
#define YINSH_RANDGAME_H

#include "engine/position.h"
#include "engine/base/rng.h"

/* Plays uniformly random legal actions (movegen_random) from pos until the
 * game ends or max_actions were played; returns the number played. */
int randgame_play(Position *pos, Rng *rng, int max_actions);

#endif
