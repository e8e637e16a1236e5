/* The tuner's data from the database: the stored games of the chosen runs
 * (all runs when nruns is 0) replayed into positions and features
 * (eval/tune.h). An unknown run, no game, no position, or an action that
 * does not replay is an error with a message in err (ERR_LEN bytes). */
#ifndef YINSH_TUNE_LOAD_H
#define YINSH_TUNE_LOAD_H

#include "store.h"
#include "tune.h"

int tune_load(Store *s, const char *const *runs, int nruns, const TuneOptions *o, TuneData *d, char *err);

#endif
