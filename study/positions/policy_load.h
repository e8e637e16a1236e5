/* The policy trainer's samples from the database (eval/policy_train.h):
 * every position of the selected stored games (study/positions/samples.h:
 * repeats left out, games without a result skipped), its target the
 * stored root visit shares where the run stored them, else the action
 * played; the positions of reduced searches (action.full = 0, playout
 * cap randomisation) are left out and counted (PolicyData.reduced),
 * or with o->reduced_too kept as samples whose stored target is none
 * (stored_ok 0) and counted. Each position in P or M has a value target
 * for joint training: o->lambda x the stored root value + (1 - lambda) x
 * the result (the result alone where no root value is stored). progress (NULL: none) is called every 4096 positions with the
 * count so far. An unknown run, no game or no position, or an action
 * that does not replay, is an error with a message in err. */
#ifndef YINSH_POLICY_LOAD_H
#define YINSH_POLICY_LOAD_H

#include "selfplay/store/store.h"
#include "eval/policy_train.h"

int policy_load(Store *s, const StoreSelection *sel, const PolicyTrainOptions *o, PolicyData *d,
                void (*progress)(void *ctx, uint64_t positions), void *ctx, char *err);

#endif
