/* A run's totals (RecordSummary, record.h) as text and as JSON: the
 * summary `yinsh selfplay` prints, and the games each agent lost on a
 * fault, which `yinsh match` prints too. */
#ifndef YINSH_SUMMARY_TEXT_H
#define YINSH_SUMMARY_TEXT_H

#include <stdio.h>
#include "selfplay/records/record.h"

struct Json;

/* The summary of run `name`: games, results, White's score with its
 * interval, mean length, end reasons, the play hash and each side's
 * faults, one "key  value" line each. */
void record_summary_print(FILE *f, const char *name, const RecordSummary *s);
/* The same figures as JSON members of an open object: "games",
 * "results", "white_score", "mean_length_actions", "end_reasons",
 * "hash" and "faults" (docs/json.md). */
void record_summary_json(struct Json *j, const RecordSummary *s);

/* The games lost on faults by each agent: one line each,
 * "faults a      2 (engine-died 1, no-answer 1)", labels[0] for the run's
 * white agent (A), labels[1] for its black one (B); and the same as a JSON
 * object {"a": {"engine-died": 1, ...}, "b": {...}} under key "faults". */
void record_faults_print(FILE *f, const char *const labels[2], const RecordSummary *s);
void record_faults_json(struct Json *j, const char *const labels[2], const RecordSummary *s);

#endif
