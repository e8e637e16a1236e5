#include <math.h>
#include "engine/base/error.h"
#include "engine/encode/encode.h"
#include "engine/movegen.h"
#include "study/positions/policy_load.h"
#include "study/positions/samples.h"

int policy_load(Store *s, const StoreSelection *sel, const PolicyTrainOptions *o, PolicyData *d,
                void (*progress)(void *ctx, uint64_t positions), void *ctx, char *err)
{
    SampleReader *r;
    if (samples_open(&r, s, sel, err)) return ERR_FAIL;
    float dense[ENCODE_ACTIONS];
    const Sample *smp;
    int rc;
    uint64_t seen = 0;
    while (!(rc = samples_next(r, &smp, err)) && smp) {
        Action legal[MAX_ACTIONS];
        float target[MAX_ACTIONS];
        /* a reduced search (action.full = 0) is no policy target, neither
         * its visits nor the action it chose */
        bool reduced = smp->row->budget == SEARCH_BUDGET_REDUCED;
        if (reduced) {
            d->reduced++;
            /* reduced_too: a sample all the same, its target the child one */
            if (!o->reduced_too) continue;
        }
        int n = movegen_all(&smp->pos, legal), stored = samples_policy(smp, dense, err);
        if (stored < 0) {
            rc = stored;
            break;
        }
        for (int i = 0; i < n; i++)
            target[i] = stored ? dense[encode_action(legal[i])] : legal[i] == smp->action ? 1.0f : 0.0f;
        size_t before = d->count;
        /* the value target of joint training: positions in P and M, as the
         * value net's (eval/nnue_train.h) */
        double vt = NAN;
        if (smp->pos.state == STATE_P || smp->pos.state == STATE_M) {
            double res = (smp->z + 1) / 2.0, rv = smp->row->root_value;
            vt = isnan(rv) ? res : o->lambda * rv + (1 - o->lambda) * res;
        }
        if ((rc = policy_collect_full(d, o, smp->game, &smp->pos, legal, n, target, !reduced, vt, err))) break;
        d->with_visits += stored && d->count > before;
        if (progress && ++seen % 4096 == 0) progress(ctx, seen);
        if (o->max_positions && d->count >= o->max_positions) break;
    }
    d->games = samples_games(r);
    samples_close(r);
    if (rc) return rc;
    if (!d->count) return error_set(err, "no positions with a choice to train the policy on in the selection");
    return 0;
}
