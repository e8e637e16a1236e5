/* What `yinsh study` says of a study's runs: the command that makes each
 * run on its own, and the plan's table (`yinsh study --check`). */
#ifndef YINSH_STUDY_TEXT_H
#define YINSH_STUDY_TEXT_H

#include <stdbool.h>
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

/* A study's games are cited, so committed code plays them: whether this
 * build (YINSH_GIT_COMMIT, selfplay/play/provenance.h) may play the runs
 * still to play (runs[i] the state of s->runs[i]). True when none is to
 * play or the build is committed; when it is a work tree's with changes
 * not committed (its commit ends in -dirty) or of no git checkout, true
 * only when allowed (allow: --allow-dirty or YINSH_ALLOW_DIRTY=1), after
 * a line on f saying so, else false after the refusal on f. Either way
 * every run names the builds that played it (run.git_commit, the
 * report's provenance). Each line begins "yinsh CMD: ". */
bool study_build_check(FILE *f, const char *cmd, const Study *s, const Planned *runs, bool allow);

#endif
