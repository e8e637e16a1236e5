#include <stdio.h>
#include "tune_load.h"

static int on_game(void *ctx, const StoreGame *g, char *err)
{
    return tune_collect_game(ctx, g->ident, g->index, g->variant, g->result, g->actions, g->nactions, err);
}

int tune_load(Store *s, const char *const *runs, int nruns, const TuneOptions *o, TuneData *d, char *err)
{
    TuneCollector c = {.o = o};
    uint64_t ngames = 0;
    *d = (TuneData){0};
    if (store_games_each(s, runs, nruns, on_game, &c, &ngames, err)) {
        tune_collect_free(&c);
        return -1;
    }
    if (ngames == 0) {
        tune_collect_free(&c);
        snprintf(err, ERR_LEN, "no games to tune on: the database holds none%s", nruns ? " in the runs given" : "");
        return -1;
    }
    return tune_collect_finish(&c, d, err);
}
