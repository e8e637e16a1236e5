#include "engine/base/error.h"
#include "study/positions/train_load.h"

static int on_game(void *ctx, const StoreGame *g, char *err)
{
    const NnueCollector *c = ctx;
    return nnue_collect_game(ctx, g->ident, g->index, g->variant, g->result, g->actions,
                             c->o->root_value ? g->root_values : g->values, g->nactions, err);
}

int train_load(Store *s, const StoreSelection *sel, const NnueTrainOptions *o, NnueData *d, int64_t *repeats,
               char *err)
{
    NnueCollector c = {.o = o};
    uint64_t ngames = 0;
    int64_t r = 0;
    *d = (NnueData){0};
    if (store_query_repeats(s, sel, &r, err)) return ERR_FAIL;
    if (repeats) *repeats = r;
    int rc = store_games_each(s, sel, on_game, &c, &ngames, err);
    if (rc) {
        nnue_collect_free(&c);
        return rc;
    }
    if (ngames == 0) {
        nnue_collect_free(&c);
        return error_set(err, "no games to train on: the database holds none%s",
                         sel && (sel->nruns || sel->kind || sel->agent || sel->variant) ? " in this selection" : "");
    }
    return nnue_collect_finish(&c, d, err);
}
