/* The tuner's data from the database: the stored games of the selection
 * (store.h; every game when it is empty) replayed into positions and features
 * (eval/tune.h). An unknown run, no game, no position, or an action that
 * does not replay is an error with a message in err (ERR_LEN bytes). */
#ifndef YINSH_TUNE_LOAD_H
#define YINSH_TUNE_LOAD_H

#include <stdio.h>
#include "selfplay/store/store.h"
#include "eval/tune.h"

/* Repeats (games stored again by a later run) are left out: *repeats
 * (if not NULL) receives how many. */
int tune_load(Store *s, const StoreSelection *sel, const TuneOptions *o, TuneData *d, int64_t *repeats, char *err);

/* What a fit was made of and what it gave, as the lines below a weights
 * file's "made by" line (`yinsh tune`, `yinsh rounds`): the data, the
 * scale, the log-losses before and after, the Newton steps (no final line
 * break). `start` names the starting weights ("starting", "default"). */
void tune_summary_write(FILE *f, const TuneData *d, const TuneOptions *o, const TuneFit *fit, int64_t repeats,
                        const char *start);

#endif
