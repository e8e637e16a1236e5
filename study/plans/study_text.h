/* What `yinsh study` says of a study's runs: the command that makes each
 * run on its own, and the plan's table (`yinsh study --check`). */
#ifndef YINSH_STUDY_TEXT_H
#define YINSH_STUDY_TEXT_H

#include <stdint.h>
#include <stdio.h>
#include "study/plans/study.h"

/* The `yinsh selfplay` (or, for a ladder's match, `yinsh match`)
 * command that makes the same run into database db, with `--shard K/N`
 * when shard is not NULL (malloc'd; NULL when out of memory). It is
 * stored with the run: it reproduces the run on its own, whatever becomes
 * of the study file. */
char *study_run_command(const StudyRun *r, const char *db, const char *shard);

/* Each run, its state and its games stored of those planned (runs[i] the
 * state of s->runs[i]), columns as wide as their widest entry, then the
 * totals; with shards > 0, of shard K's own share (a shard's run is
 * complete in its database when it holds every game of its slice). */
void study_plan_print(FILE *f, const Study *s, const Planned *runs, uint32_t shard, uint32_t shards);

#endif
