/* Random playouts: uniformly random legal actions from a position to the end
 * of the game. The MCTS agent's default rollout. */
#ifndef YINSH_PLAYOUT_H
#define YINSH_PLAYOUT_H

#include "evaluation.h"
#include "position.h"
#include "rng.h"


/* Plays uniformly random actions on a copy of pos until the game ends (or
 * GAME_MAX_ACTIONS, never reached in a legal game; a playout cut there is
 * scored by removed rings, like a game whose pool ran out) and returns the
 * result, RESULT_WHITE, RESULT_BLACK or RESULT_DRAW. If plies is not NULL
 * it receives the number of actions played. */
int playout_random(const Position *pos, Rng *rng, int *plies);

/* A short playout scored by the evaluation: at most `plies` uniformly
 * random actions on a copy of pos, then White's expected score (win 1,
 * draw 1/2): the exact result if the game ended, else eval_white. */
double playout_evaluate(const Position *pos, Rng *rng, int plies, const Weights *w);

/* The result of a position by removed rings, as if the game ended now. */
int playout_adjudicate(const Position *pos);

#endif
