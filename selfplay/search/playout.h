/* Random playouts: uniformly random legal actions from a position to the end
 * of the game. The MCTS agent's default rollout. */
#ifndef YINSH_PLAYOUT_H
#define YINSH_PLAYOUT_H

#include "eval/evaluation.h"
#include "eval/evaluator.h"
#include "engine/position.h"
#include "engine/base/rng.h"


/* Playout policies: PLAYOUT_UNIFORM draws every action uniformly (the
 * engine's random game, randgame_play); PLAYOUT_ROWS, where a ring moves,
 * draws up to 3 legal actions and plays the first that makes a row for the
 * mover (else the third), and draws uniformly elsewhere. The same values
 * as MCTS_POLICY_* (mcts.h). */
enum { PLAYOUT_UNIFORM = 0, PLAYOUT_ROWS = 1 };

/* At most max_actions actions of the policy on pos; returns how many. */
int playout_play(Position *pos, Rng *rng, int max_actions, int policy);

/* Plays uniformly random actions on a copy of pos until the game ends (or
 * GAME_MAX_ACTIONS, never reached in a legal game; a playout cut there is
 * scored by removed rings, like a game whose pool ran out) and returns the
 * result, RESULT_WHITE, RESULT_BLACK or RESULT_DRAW. If plies is not NULL
 * it receives the number of actions played. */
int playout_random(const Position *pos, Rng *rng, int *plies);
/* The same with a policy (PLAYOUT_UNIFORM: playout_random). */
int playout_random_policy(const Position *pos, Rng *rng, int policy, int *plies);

/* A short playout scored by the evaluation: at most `plies` uniformly
 * random actions on a copy of pos, then White's expected score (win 1,
 * draw 1/2): the exact result if the game ended, else eval_white. */
double playout_evaluate(const Position *pos, Rng *rng, int plies, const Weights *w);
/* The same with a policy for the random actions. */
double playout_evaluate_policy(const Position *pos, Rng *rng, int plies, const Weights *w, int policy);

/* The same with an evaluator: the linear weights or a net (eval/evaluator.h). */
double playout_evaluate_with(const Position *pos, Rng *rng, int plies, const Evaluator *e, int policy);

/* The result of a position by removed rings, as if the game ended now. */
int playout_adjudicate(const Position *pos);

#endif
