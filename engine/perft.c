#include <inttypes.h>
#include <stdbool.h>
#include "engine/perft.h"
#include "engine/movegen.h"
#include "engine/notation.h"

/* With bulk, the last ply is counted by movegen_count; without, every leaf
 * is made, which checks movegen_count against movegen_all on the way. */
static uint64_t perft_walk(Position *pos, int depth, bool bulk)
{
    if (depth == 0) return 1;
    if (bulk && depth == 1) return (uint64_t)movegen_count(pos);
    Action list[MAX_ACTIONS];
    int n = movegen_all(pos, list);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        Undo u;
        pos_make(pos, list[i], &u);
        total += perft_walk(pos, depth - 1, bulk);
        pos_unmake(pos, list[i], &u);
    }
    return total;
}

uint64_t perft(Position *pos, int depth)
{
    return perft_walk(pos, depth, true);
}

uint64_t perft_made(Position *pos, int depth)
{
    return perft_walk(pos, depth, false);
}

uint64_t perft_divide(Position *pos, int depth, FILE *f)
{
    Action list[MAX_ACTIONS];
    int n = movegen_all(pos, list);
    movegen_sort(list, n);
    uint64_t total = 0;
    for (int k = 0; k < n; k++) {
        Undo u;
        char text[ACTION_MAX_LEN];
        pos_make(pos, list[k], &u);
        uint64_t c = perft(pos, depth - 1);
        pos_unmake(pos, list[k], &u);
        fprintf(f, "%s %" PRIu64 "\n", action_format(list[k], text), c);
        total += c;
    }
    return total;
}
