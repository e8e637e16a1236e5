#include <stdio.h>
#include "tune_load.h"

static int on_game(void *ctx, const StoreGame *g, char *err)
{
    return tune_collect_game(ctx, g->ident, g->index, g->variant, g->result, g->actions, g->nactions, err);
}

int tune_load(Store *s, const StoreSelection *sel, const TuneOptions *o, TuneData *d, int64_t *repeats, char *err)
{
    TuneCollector c = {.o = o};
    uint64_t ngames = 0;
    *d = (TuneData){0};
    int64_t r = 0;
    if (store_query_repeats(s, sel, &r, err)) return -1;
    if (repeats) *repeats = r;
    if (store_games_each(s, sel, on_game, &c, &ngames, err)) {
        tune_collect_free(&c);
        return -1;
    }
    if (ngames == 0) {
        tune_collect_free(&c);
        snprintf(err, ERR_LEN, "no games to tune on: the database holds none%s",
                 sel && (sel->nruns || sel->kind || sel->agent || sel->variant) ? " in this selection" : "");
        return -1;
    }
    return tune_collect_finish(&c, d, err);
}
