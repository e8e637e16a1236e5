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
 * Nothing is written to a database until store_run_create, which creates
 * the schema and the run in one transaction. */
#ifndef YINSH_STORE_H
#define YINSH_STORE_H

#include <stdbool.h>
#include <stdint.h>
#include "agent.h"
#include "scheduler.h"

enum {
    STORE_SCHEMA_VERSION = 1,
    STORE_ERR_LEN = 512,
    STORE_NAME_LEN = 128,
    STORE_UID_LEN = 33, /* 32 hex digits */
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
    SelfplayPlan plan;
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
/* Marks the run finished (its end time; kept if it is set already). */
int store_run_finish(Store *s, const StoreRun *run, char *err);
/* Totals over the stored games of the run. */
int store_summary(Store *s, const StoreRun *run, SelfplaySummary *sum, char *err);

#endif
