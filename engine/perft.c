#include "engine/perft.h"
#include "engine/movegen.h"

uint64_t perft(Position *pos, int depth)
{
    if (depth == 0) return 1;
    if (depth == 1) return (uint64_t)movegen_count(pos);
    Action list[MAX_ACTIONS];
    int n = movegen_all(pos, list);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        Undo u;
        pos_make(pos, list[i], &u);
        total += perft(pos, depth - 1);
        pos_unmake(pos, list[i], &u);
    }
    return total;
}
