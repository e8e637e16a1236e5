/* The self-play database (SQLite): the only code that speaks SQL.
 *
 * One Store is one connection, used by one thread at a time (the command's
 * thread to open and look up runs, then the self-play writer thread). The
 * database is in WAL mode with synchronous=NORMAL and a busy timeout; each
 * batch of games is one transaction, so a game is stored whole or not at
 * all and a killed process loses only the games not yet committed.
 *
 * Every function returns 0 on success, else a STORE_* code with a message
 * in err (STORE_ERR_LEN bytes) that names the file and says what to do.
 * Nothing is written to a new database until store_run_create, which
 * creates the schema and the run in one transaction. A database of schema
 * version 1 (before run.kind) is upgraded in place when it is opened: one
 * ALTER TABLE that adds the column with its default, and the version. */
#ifndef YINSH_STORE_H
#define YINSH_STORE_H

#include <stdbool.h>
#include <stdint.h>
#include "agent.h"
#include "scheduler.h"

enum {
    STORE_SCHEMA_VERSION = 2,
    STORE_ERR_LEN = 512,
    STORE_NAME_LEN = 128,
    STORE_UID_LEN = 33, /* 32 hex digits */
    STORE_KIND_LEN = 16,
};

enum {
    STORE_OK = 0,
    STORE_ERROR,     /* I/O, locking, not a database, bad schema version */
    STORE_EXISTS,    /* a run with that name exists */
    STORE_NOT_FOUND, /* no run with that name */
};

typedef struct Store Store;

/* A run's row (what --resume needs to replay it). */
typedef struct StoreRun {
    int64_t id; /* local row id, set by create/find */
    char uid[STORE_UID_LEN];
    char name[STORE_NAME_LEN];
    char kind[STORE_KIND_LEN]; /* "selfplay" ("" at create means that), or "match" */
    SelfplayPlan plan;         /* a match: plan.pairs, plan.opening from params */
    bool finished;
} StoreRun;

/* Opens (create: or creates) a database and checks that it is a Yinsh Lab
 * database of a known schema version (or empty). busy_ms: how long to wait
 * for another process's lock before giving up. */
int store_open(Store **out, const char *path, bool create, int busy_ms, char *err);
void store_close(Store *s);

/* The schema script (selfplay/schema.sql). */
const char *store_schema_sql(void);

/* A fresh run identity: 32 hex digits from the clock, the process id, the
 * host name and the seed, unique across the machines whose shards may
 * later be merged. */
void store_new_uid(uint64_t seed, char uid[STORE_UID_LEN]);

/* Creates the run (run->uid, name and plan filled in; id is set). The
 * command line is stored as given. STORE_EXISTS when the name is taken. */
int store_run_create(Store *s, StoreRun *run, const char *command, char *err);
/* Looks a run up by name. STORE_NOT_FOUND when there is none. */
int store_run_find(Store *s, const char *name, StoreRun *run, char *err);
/* The game indices of the run not yet stored, ascending; *indices is
 * malloc'ed (free it). */
int store_run_missing(Store *s, const StoreRun *run, uint32_t **indices, uint32_t *n, char *err);
/* Stores finished games of the run, their actions included, in one
 * transaction. */
int store_write_games(Store *s, const StoreRun *run, GameRecord *const *games, int n, char *err);
/* Ends a run early at `games` games (a match its SPRT decided): deletes
 * any stored games with an index >= games, with their actions, and sets
 * run.games, in one transaction. */
int store_run_truncate(Store *s, StoreRun *run, uint32_t games, char *err);
/* Marks the run finished (its end time; kept if it is set already). */
int store_run_finish(Store *s, const StoreRun *run, char *err);
/* Totals over the stored games of the run. */
int store_summary(Store *s, const StoreRun *run, SelfplaySummary *sum, char *err);

/* A stored game as the tuner replays it: valid only during the callback. */
typedef struct StoreGame {
    const char *run_uid;
    uint32_t index;
    int variant, result;       /* VARIANT_*, RESULT_* */
    int nactions;
    const char *const *actions; /* action texts in ply order */
} StoreGame;

/* Calls fn for every stored game of the named runs (all runs when nruns is
 * 0), in storage order, with its actions; stops at the first non-zero
 * return of fn (whose message is in err) and returns STORE_ERROR. An
 * unknown run name is STORE_NOT_FOUND, before any call. *ngames receives
 * the number of games passed to fn. */
int store_games_each(Store *s, const char *const *runs, int nruns,
                     int (*fn)(void *ctx, const StoreGame *g, char *err), void *ctx, uint64_t *ngames, char *err);

#endif
