/* What `yinsh selfplay` prints once a run's games are played: the
 * resignations of the games played now (resign.h), and the whole
 * summary as JSON (docs/json.md); the summary's text is
 * record_summary_print (selfplay/records/summary_text.h); and what it
 * and `yinsh match` advise when a run is refused. */
#ifndef YINSH_RUN_SUMMARY_H
#define YINSH_RUN_SUMMARY_H

#include <stdint.h>
#include <stdio.h>
#include "selfplay/play/run.h"

struct Json;
struct DistStats;

/* The head of selfplay's and match's --json document: json_begin_command
 * (engine/base/json.h) on f, then the run's name, its database (null
 * when it stores nothing) and the variant's name. */
void run_json_begin(struct Json *j, FILE *f, const char *cmd, int argc, char **argv, const Run *run, int variant);

/* The resignation rule, how many games resigned, the false-resignation
 * rate over the checked games the rule fired in, and the actions saved. */
void run_resign_print(FILE *f, const ResignRule *rule, const ResignSummary *r, const RecordSummary *s);
/* The run's figures as members of an open JSON object, after its head
 * (command, run, db, variant): the agents, seed, games, the record
 * summary, controls, the resignations when the rule is on, threads, and
 * the games and actions played now in `seconds`. */
void run_summary_json(struct Json *j, const Run *run, uint64_t actions_now, double seconds);

/* How to go on when run_open refused a run of `yinsh selfplay` or `yinsh
 * match`, by its code (ERR_REPEAT, ERR_EXISTS, ERR_HELD) and what stood
 * in the way: ": choose another --run name" and the like, into out (len
 * bytes; "" when the message says all). */
void run_open_advice(int rc, const StoreClash *c, char *out, size_t len);

/* After a run that failed or was interrupted: what is kept and how to go
 * on, a line on f ("yinsh CMD: run 'NAME': ..."): `done` games stored
 * now, `stored` in all, of `games`; a shard's (shards > 0) resumed with
 * its --shard, which plays its own missing games only. run_hint says it
 * of an open run (nothing without a database). */
void run_stored_hint(FILE *f, const char *cmd, const char *name, const char *db, uint64_t done, uint64_t stored,
                     uint32_t games, uint32_t shard, uint32_t shards);
void run_hint(FILE *f, const char *cmd, const Run *run);
/* After a run played in an MPI job (rank 0): who played what and the
 * cost of receiving the games, a line on f; nothing with one rank. */
void run_dist_summary(FILE *f, const char *cmd, const struct DistStats *st, double seconds);

/* The figure of a data-generation job (docs/datagen.md), a line on f
 * (the summary on stdout is the same for the same run): the actions
 * played by this command (a resumed run's earlier games left out) per
 * second of wall time, and per thread. */
void run_rate_write(FILE *f, const char *cmd, uint64_t actions, double seconds, int threads);

#endif
