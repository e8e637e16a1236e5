#include <stddef.h>
#include "movegen.h"
#include "playout.h"

Action playout_random_action(const Position *pos, Rng *rng) { return movegen_random(pos, rng); }

int playout_adjudicate(const Position *pos)
{
    return pos->removed[WHITE] > pos->removed[BLACK]   ? RESULT_WHITE
           : pos->removed[BLACK] > pos->removed[WHITE] ? RESULT_BLACK
                                                       : RESULT_DRAW;
}

/* The hot loop of MCTS. The position is a local copy, so make needs no
 * unmake; no legal action is exactly the end of the game, and only then is
 * pos_outcome asked for the result. */
int playout_random(const Position *start, Rng *rng, int *plies)
{
    Position pos = *start;
    Undo u;
    int ply = 0, result = RESULT_NONE;
    for (; ply < PLAYOUT_MAX_PLIES; ply++) {
        Action a = movegen_random(&pos, rng);
        if (a == ACTION_NONE) {
            pos_outcome(&pos, &result, NULL);
            break;
        }
        pos_make(&pos, a, &u);
    }
    if (result == RESULT_NONE) result = playout_adjudicate(&pos);
    if (plies) *plies = ply;
    return result;
}

double playout_evaluate(const Position *start, Rng *rng, int plies, const Weights *w)
{
    Position pos = *start;
    Undo u;
    for (int ply = 0; ply < plies; ply++) {
        Action a = movegen_random(&pos, rng);
        if (a == ACTION_NONE) break;
        pos_make(&pos, a, &u);
    }
    int result;
    if (pos_outcome(&pos, &result, NULL))
        return result == RESULT_WHITE ? 1.0 : result == RESULT_BLACK ? 0.0 : 0.5;
    return eval_white(w, &pos);
}
