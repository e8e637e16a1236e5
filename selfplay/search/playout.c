#include <stddef.h>
#include "engine/movegen.h"
#include "selfplay/search/playout.h"
#include "engine/randgame.h"

int playout_adjudicate(const Position *pos)
{
    return pos->removed[WHITE] > pos->removed[BLACK]   ? RESULT_WHITE
           : pos->removed[BLACK] > pos->removed[WHITE] ? RESULT_BLACK
                                                       : RESULT_DRAW;
}

/* One action of PLAYOUT_ROWS where a ring moves. */
static Action rows_pick(const Position *pos, Rng *rng)
{
    Action list[MAX_ACTIONS];
    int k = movegen_all(pos, list);
    if (k == 0) return ACTION_NONE;
    Action a = ACTION_NONE;
    for (int t = 0; t < 3; t++) {
        a = list[rng_below(rng, (uint32_t)k)];
        Position next = *pos;
        Undo u;
        pos_make(&next, a, &u);
        if (pos_has_row(&next, pos->actor)) break;
    }
    return a;
}

int playout_play(Position *pos, Rng *rng, int max_actions, int policy)
{
    if (policy == PLAYOUT_UNIFORM) return randgame_play(pos, rng, max_actions);
    int n = 0;
    Action a;
    while (n < max_actions &&
           (a = pos->state == STATE_M ? rows_pick(pos, rng) : movegen_random(pos, rng)) != ACTION_NONE) {
        Undo u;
        pos_make(pos, a, &u);
        n++;
    }
    return n;
}

/* The hot loop of MCTS: the engine's random game on a local copy. It stops
 * exactly when no action is legal (the game is over) or at the safety
 * bound, and only then is pos_outcome asked for the result. */
int playout_random(const Position *start, Rng *rng, int *plies)
{
    return playout_random_policy(start, rng, PLAYOUT_UNIFORM, plies);
}

int playout_random_policy(const Position *start, Rng *rng, int policy, int *plies)
{
    Position pos = *start;
    int n = playout_play(&pos, rng, GAME_MAX_ACTIONS, policy), result;
    if (!pos_outcome(&pos, &result, NULL)) result = playout_adjudicate(&pos);
    if (plies) *plies = n;
    return result;
}

double playout_evaluate(const Position *start, Rng *rng, int plies, const Weights *w)
{
    return playout_evaluate_policy(start, rng, plies, w, PLAYOUT_UNIFORM);
}

/* A playout of at most `plies` actions on pos: true with White's score
 * in *score when the game ended, else false with pos left for an
 * evaluation. */
static bool play_to_end(Position *pos, Rng *rng, int plies, int policy, double *score)
{
    playout_play(pos, rng, plies, policy);
    int result;
    if (!pos_outcome(pos, &result, NULL)) return false;
    *score = result == RESULT_WHITE ? 1.0 : result == RESULT_BLACK ? 0.0 : 0.5;
    return true;
}

double playout_evaluate_with(const Position *start, Rng *rng, int plies, const Evaluator *e, int policy)
{
    Position pos = *start;
    double score;
    return play_to_end(&pos, rng, plies, policy, &score) ? score : evaluator_white(e, &pos);
}

double playout_evaluate_policy(const Position *start, Rng *rng, int plies, const Weights *w, int policy)
{
    Position pos = *start;
    double score;
    return play_to_end(&pos, rng, plies, policy, &score) ? score : eval_white(w, &pos);
}
