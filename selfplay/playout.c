#include <stddef.h>
#include "movegen.h"
#include "playout.h"
#include "randgame.h"

int playout_adjudicate(const Position *pos)
{
    return pos->removed[WHITE] > pos->removed[BLACK]   ? RESULT_WHITE
           : pos->removed[BLACK] > pos->removed[WHITE] ? RESULT_BLACK
                                                       : RESULT_DRAW;
}

/* The hot loop of MCTS: the engine's random game on a local copy. It stops
 * exactly when no action is legal (the game is over) or at the safety
 * bound, and only then is pos_outcome asked for the result. */
int playout_random(const Position *start, Rng *rng, int *plies)
{
    Position pos = *start;
    int n = randgame_play(&pos, rng, GAME_MAX_ACTIONS), result;
    if (!pos_outcome(&pos, &result, NULL)) result = playout_adjudicate(&pos);
    if (plies) *plies = n;
    return result;
}

double playout_evaluate(const Position *start, Rng *rng, int plies, const Weights *w)
{
    Position pos = *start;
    randgame_play(&pos, rng, plies);
    int result;
    if (pos_outcome(&pos, &result, NULL))
        return result == RESULT_WHITE ? 1.0 : result == RESULT_BLACK ? 0.0 : 0.5;
    return eval_white(w, &pos);
}
