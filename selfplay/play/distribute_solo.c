/* distribute.h without MPI (CMake found no MPI library): one rank, which
 * plays alone. */
#include "selfplay/play/distribute.h"

bool dist_built(void) { return false; }
int dist_init(char *err)
{
    (void)err;
    return 0;
}
int dist_rank(void) { return 0; }
int dist_ranks(void) { return 1; }
int dist_ranks_alive(void) { return 1; }
void dist_abort(int code) { (void)code; }

int dist_share_run(StoreRun *row, int *status, char *err)
{
    (void)row, (void)status, (void)err;
    return 0;
}

int dist_check_builds(const char *ident, char *err)
{
    (void)ident, (void)err;
    return 0;
}

int dist_play(const SelfplayPlan *plan, const uint32_t *todo, uint32_t n, const SelfplaySink *sink,
              DistStats *stats, char *err)
{
    if (stats) *stats = (DistStats){.games_here = n};
    return selfplay_run(plan, todo, n, sink, err);
}
