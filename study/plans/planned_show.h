/* What is shown while a planned run plays (planned.h), for `yinsh study`,
 * `tournament`, `rounds` and `spsa`: the PlannedHooks that show a
 * self-play run as `yinsh selfplay` shows it (its description, progress
 * and, when asked, its last line) and a match as a tournament's pairing
 * ("RUN (k/n) games" and A's results, its hash at the end). Progress goes
 * to stderr (engine/base/progress.h), the lines to f. */
#ifndef YINSH_PLANNED_SHOW_H
#define YINSH_PLANNED_SHOW_H

#include <stdbool.h>
#include <stdio.h>
#include "engine/base/progress.h"
#include "study/plans/planned.h"

typedef struct PlannedShow {
    FILE *f;            /* the lines: stderr */
    const char *cmd;    /* "yinsh CMD: " begins each line */
    bool quiet;         /* progress and lines off */
    int k, n;           /* a match's place among its plan's: shown as k+1/n */
    bool summary;       /* a self-play run's last line: its games, results and hash */
    bool shard;         /* a slice of the run (PlannedOptions' shards): its end is not the run's */
    Progress progress;  /* progress.shown: a progress line is open (the caller ends it before a message) */
    char label[STORE_NAME_LEN + 32];
} PlannedShow;

/* The hooks over s (their ctx), without an interrupt flag. */
PlannedHooks planned_show_hooks(PlannedShow *s);

/* Whether the planned run is a match (its kind "match"), not a self-play run. */
bool planned_is_match(const Planned *p);

#endif
