/* What the store's files (store.c, query.c, merge.c) share: the connection and the one way
 * both turn an SQLite failure into a message. Not for use outside the
 * store module. */
#ifndef YINSH_STORE_INTERNAL_H
#define YINSH_STORE_INTERNAL_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include "selfplay/records/record_text.h"

struct Store {
    sqlite3 *db;
    char *path;
    int mode;                            /* STORE_READ, STORE_WRITE or STORE_CREATE */
    int busy_ms;                         /* how long to wait for another process's lock */
    int version;                         /* the schema version (after any upgrade) */
    bool wal;                            /* the journal is WAL (switched before the first write) */
    bool immutable;                      /* a reader of a WAL file whose folder it cannot write: no lock */
    sqlite3_stmt *ins_game, *ins_action, *ins_visits; /* prepared on first write */
    bool outer;                          /* in store_transaction_begin's transaction: the
                                          * writers' own begin and commit are part of it */
};

/* Writes "database 'path': what: sqlite's message" (or a clearer message
 * for a lock or a file that is not a database) into err; returns
 * ERR_FAIL. */
int store_fail(const struct Store *s, char *err, const char *what);

/* A reader's schema version as the file has it now (s->version): another
 * process may have upgraded it since the store was opened, adding the
 * columns and tables a query of the new version reads (run.visits,
 * action_visits). Every read that chooses its columns by the version
 * asks first. A writer's version is its own upgrade's. */
int store_version_now(struct Store *s, char *err);

/* A text column ("" for NULL). */
const char *store_column_text(sqlite3_stmt *st, int col);
/* A REAL column, NAN for NULL. */
double store_column_real(sqlite3_stmt *st, int col);
/* action.root_value in a query's column list: the column from schema
 * version 8 on, NULL before (s->version, after store_version_now). */
const char *store_root_value_column(const struct Store *s);
/* action.full likewise: the column from schema version 9 on, NULL before. */
const char *store_full_column(const struct Store *s);
/* A full column's value as SEARCH_BUDGET_* (record.h). */
uint8_t store_column_budget(sqlite3_stmt *st, int col);
/* The record fields of a game row of the games query (columns 0 to 16:
 * run.name, run.uid, kind, run.version, run.seed, game.id, game.idx,
 * game.variant, game.white, game.black, the two weights, game.result,
 * game.reason, game.stored_at, game.actions, the commit: a StoreGameText,
 * store.h); the caller sets
 * the actions and what its query adds after column 16. */
RecordText store_game_text_row(sqlite3_stmt *st);

/* Creates the schema when the database has none yet (inside the caller's
 * transaction). */
int store_ensure_schema(struct Store *s, char *err);

/* The plan identity (run.plan_ident, 16 hex digits and a NUL) that a
 * run's columns as text give (the compact form's, rows.c; NULL for a
 * column not there): the engine version, variant, agents with their
 * weights' hashes, seed, pairs, opening and controls. false when the
 * variant, seed, pairs or opening is none a run can have. */
bool store_plan_ident_text(const char *version, const char *variant, const char *white, const char *white_weights,
                           const char *black, const char *black_weights, const char *seed, const char *pairs,
                           const char *opening, const char *controls, char out[17]);

/* Game `index`'s identity (game.ident, 16 hex digits and a NUL): the plan
 * identity's and the index, mixed. */
void store_game_ident(const char *plan, uint32_t index, char out[17]);

/* The play hash of a run's stored games (record.h), from its rows. */
int store_run_hash(struct Store *s, int64_t run_id, uint64_t *hash, char *err);

/* A query of the selected games (store.h): head (SELECT ... FROM game
 * JOIN run ...), the selection's conditions, repeats left out, then tail
 * (ORDER BY ...), prepared with the selection's values bound; they must
 * outlive the statement. */
struct StoreSelection;
int store_prepare_selected(struct Store *r, const struct StoreSelection *sel, const char *head, const char *tail,
                           sqlite3_stmt **st, char *err);

#endif
