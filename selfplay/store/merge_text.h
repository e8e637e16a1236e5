/* What `yinsh merge` prints of a merge (store_merge, store.h). */
#ifndef YINSH_MERGE_TEXT_H
#define YINSH_MERGE_TEXT_H

#include <stdio.h>
#include "selfplay/store/store.h"

/* One line a run: its games copied and held already, stored of its size,
 * and finished, or the games missing with the command that plays them
 * into db. */
void store_merge_print(FILE *f, const StoreMergeRun *runs, int nruns, const char *db);

#endif
