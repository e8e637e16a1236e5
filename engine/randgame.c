#include "engine/randgame.h"
#include "engine/movegen.h"

int randgame_play(Position *pos, Rng *rng, int max_actions)
{
    int n = 0;
    Action a;
    while (n < max_actions && (a = movegen_random(pos, rng)) != ACTION_NONE) {
        Undo u;
        pos_make(pos, a, &u);
        n++;
    }
    return n;
}
