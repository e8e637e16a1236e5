/* The net trainer's data from the database (eval/nnue_train.h): the
 * stored games of the selection (store.h; every game when it is empty),
 * with the search's stored values, replayed into training positions. An
 * unknown run, no game, no position, or an action that does not replay
 * is an error with a message in err (ERR_LEN bytes). */
#ifndef YINSH_TRAIN_LOAD_H
#define YINSH_TRAIN_LOAD_H

#include "selfplay/store/store.h"
#include "eval/nnue_train.h"

/* Repeats (games stored again by a later run) are left out, and *repeats
 * (if not NULL) receives how many; games of the same actions as one met
 * before count once (d->duplicates). */
int train_load(Store *s, const StoreSelection *sel, const NnueTrainOptions *o, NnueData *d, int64_t *repeats,
               char *err);

#endif
