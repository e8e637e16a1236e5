/* Read-only queries of the self-play database for `yinsh report`
 * (eval/report.h). Like store.h, the only place besides store.c that
 * speaks SQL; unlike it, the connection is opened read-only and never
 * changes the file (no schema, no journal mode).
 *
 * The queries read only columns of schema version 1 (docs/schema.md), so
 * they work on any later version that keeps them. Games are selected by
 * run name, or all games when no names are given.
 *
 * Every function returns STORE_OK, or a STORE_* code with a message in err
 * (STORE_ERR_LEN bytes). Row callbacks return 0 to go on, non-zero to stop
 * (that value is returned). Text in a row lives until the callback returns. */
#ifndef YINSH_STORE_REPORT_H
#define YINSH_STORE_REPORT_H

#include <stdint.h>
#include "store.h"

typedef struct StoreReader StoreReader;

/* Opens an existing database read-only. A missing file, a file that is
 * not a Yinsh Lab database, and a database without the schema (nothing
 * stored yet) are errors (STORE_NOT_FOUND for the last two kinds of
 * "nothing there": no file, no schema). */
int store_reader_open(StoreReader **out, const char *path, int busy_ms, char *err);
void store_reader_close(StoreReader *r);

/* The selection: nruns run names (none: every run). STORE_NOT_FOUND with
 * the first unknown name in err when a name matches no run. */
typedef struct StoreSelection {
    const char *const *runs;
    int nruns;
} StoreSelection;

/* A run of the selection, for the report's list of commands and seeds. */
typedef struct StoreRunRow {
    const char *name, *command, *variant, *white, *black, *version, *started_at, *finished_at; /* finished_at may be NULL */
    uint64_t seed;   /* the run seed */
    int64_t games;   /* the run's planned size */
    int64_t stored;  /* games stored */
} StoreRunRow;

/* Games grouped by everything the report counts: one row per distinct
 * (variant, white, black, result, reason, actions). */
typedef struct StoreOutcomeRow {
    const char *variant, *white, *black, *result, *reason;
    int64_t actions; /* game length in actions */
    int64_t games;   /* games with these values */
} StoreOutcomeRow;

/* Games grouped by the first action (White's first ring) and the result. */
typedef struct StoreFirstRow {
    const char *variant, *action, *result;
    int64_t games;
} StoreFirstRow;

int store_reader_check(StoreReader *r, const StoreSelection *sel, char *err);
int store_reader_runs(StoreReader *r, const StoreSelection *sel, int (*fn)(void *ctx, const StoreRunRow *row),
                      void *ctx, char *err);
int store_reader_outcomes(StoreReader *r, const StoreSelection *sel,
                          int (*fn)(void *ctx, const StoreOutcomeRow *row), void *ctx, char *err);
int store_reader_first_actions(StoreReader *r, const StoreSelection *sel,
                               int (*fn)(void *ctx, const StoreFirstRow *row), void *ctx, char *err);

#endif
