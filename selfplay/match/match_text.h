/* A match's result as `yinsh match` prints it: its progress line's tail,
 * the result as "key  value" lines and as JSON (docs/json.md). */
#ifndef YINSH_MATCH_TEXT_H
#define YINSH_MATCH_TEXT_H

#include <stddef.h>
#include <stdio.h>
#include "selfplay/match/match.h"

struct Json;

/* A's results so far, their score, the Elo difference from the pairs with
 * the half-width of its 95% interval (or its one bound while A has won or
 * lost every pair) and, when the SPRT is on, the log-likelihood ratio
 * between its bounds: into tail (len bytes). */
void match_progress_tail(const MatchTally *t, const MatchSprt *sprt, char *tail, size_t len);
/* The result of the match stored as `row` (its name, agents, controls)
 * with the run's summary `sum` (for the faults): games, A's results,
 * score, Elo from the pairs and from the games, LOS, the pentanomial
 * counts, the play hash, the faults and the SPRT's decision. */
void match_result_print(FILE *f, const StoreRun *row, const RecordSummary *sum, const MatchPlan *mp,
                        const MatchResult *r);
/* The same figures as members of an open JSON object, after its head
 * (command, run, db, variant), then "time_s". */
void match_result_json(struct Json *j, const Run *run, const MatchPlan *mp, const MatchResult *r, double seconds);

#endif
