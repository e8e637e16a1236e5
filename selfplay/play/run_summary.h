/* What `yinsh selfplay` prints once a run's games are played: the
 * resignations of the games played now (resign.h), and the whole
 * summary as JSON (docs/json.md); the summary's text is
 * record_summary_print (selfplay/records/summary_text.h). */
#ifndef YINSH_RUN_SUMMARY_H
#define YINSH_RUN_SUMMARY_H

#include <stdint.h>
#include <stdio.h>
#include "selfplay/play/run.h"

struct Json;

/* The resignation rule, how many games resigned, the false-resignation
 * rate over the checked games the rule fired in, and the actions saved. */
void run_resign_print(FILE *f, const ResignRule *rule, const ResignSummary *r, const RecordSummary *s);
/* The run's figures as members of an open JSON object, after its head
 * (command, run, db, variant): the agents, seed, games, the record
 * summary, controls, the resignations when the rule is on, threads, and
 * the games and actions played now in `seconds`. */
void run_summary_json(struct Json *j, const Run *run, uint64_t actions_now, double seconds);

#endif
