#include <math.h>
#include <stdio.h>
#include "engine/base/error.h"
#include "study/positions/tune_load.h"
#include "engine/base/number.h"

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
        return error_set(err, "no games to tune on: the database holds none%s",
                 sel && (sel->nruns || sel->kind || sel->agent || sel->variant) ? " in this selection" : "");
    }
    return tune_collect_finish(&c, d, err);
}

void tune_summary_write(FILE *f, const TuneData *d, const TuneOptions *o, const TuneFit *fit, int64_t repeats,
                        const char *start)
{
    fprintf(f, "data: %llu game%s (%llu validation; %lld repeat%s skipped), %zu position%s (%zu validation), "
               "ply >= %d, sample %g, seed %llu, l2 %g\n",
            (unsigned long long)d->games, number_plural(d->games), (unsigned long long)d->games_val, (long long)repeats,
            number_plural((uint64_t)repeats), d->n, number_plural(d->n), d->n_val,
            o->min_ply, o->sample, (unsigned long long)o->seed, o->l2);
    fprintf(f, "scale K = %.4f fitted on the %s weights\n", fit->k, start);
    fprintf(f, "log-loss        train    validation\n");
    const char *names[4] = {"constant", "start", "start x K", "tuned"};
    const double *losses[4] = {fit->loss_constant, fit->loss_before, fit->loss_scaled, fit->loss_after};
    for (int i = 0; i < 4; i++) {
        /* no validation games (--val 0): no validation loss */
        if (isnan(losses[i][1])) fprintf(f, "%-12s %9.5f %9s\n", names[i], losses[i][0], "-");
        else fprintf(f, "%-12s %9.5f %9.5f\n", names[i], losses[i][0], losses[i][1]);
    }
    fprintf(f, "Newton steps: %d", fit->iterations);
}
