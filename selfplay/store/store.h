/* The database (SQLite): all of Yinsh Lab's SQL lives in the store
 * module, store.c (opening, the schema and its upgrades, runs, writing
 * games), query.c (the read-only queries of the studies) and merge.c
 * (other databases' runs merged into this one). The
 * store speaks rows: its own run row, the game records of record.h, and
 * the query rows below; it knows nothing of agents or the scheduler (an
 * agent spec is text to it).
 *
 * One Store is one connection, used by one thread at a time (the command's
 * thread to open and look up runs, then the self-play writer thread). A
 * database opened for writing is in WAL mode with synchronous=NORMAL and
 * a busy timeout; each batch of games is one transaction, so a game is
 * stored whole or not at all and a killed process loses only the games
 * not yet committed. A database opened for reading is never changed.
 *
 * Every function follows the error convention (base/error.h): 0 on
 * success, else ERR_FAIL (I/O, locking, not a database, a bad schema
 * version), ERR_EXISTS (a run with that name exists), ERR_NOT_FOUND (no run
 * with that name; for reading: no database or no schema), ERR_HELD
 * (another live process holds the run's lease) or ERR_REPEAT (the run's
 * games are in the database already: another run, same plan), with a
 * message in err that names the file. Nothing is written to a new database until store_run_create, which
 * creates the schema (selfplay/store/schema.sql, embedded at build time) and the
 * run in one transaction. Older schema versions are upgraded in place,
 * in one transaction, when the database is opened for writing
 * (docs/schema.md lists the versions). */
#ifndef YINSH_STORE_H
#define YINSH_STORE_H

#include <stdbool.h>
#include <stdint.h>
#include "selfplay/records/games.h"
#include "selfplay/records/record.h"
#include "selfplay/records/record_text.h"

enum {
    STORE_SCHEMA_VERSION = 9,
    STORE_NAME_LEN = 128,
    STORE_UID_LEN = 33, /* 32 hex digits */
    STORE_KIND_LEN = 16,
    STORE_HASH_LEN = 17, /* 16 hex digits */
    STORE_CONTROLS_LEN = 128, /* a run's controls text */
    STORE_MAX_GAMES = 100000000, /* a run's size, as --games allows */
    STORE_BUSY_MS = 5000, /* the default wait for another process's lock */
    STORE_BOOK_PATH_LEN = 256, /* an opening book's path, as BOOK_PATH_LEN */
    STORE_COMMITS_LEN = 256, /* run.git_commit: the builds that played a run (store_commits_add) */
};


/* How a database is opened: STORE_READ never changes what the file holds
 * (no schema, no journal mode, no upgrade, every write refused; it opens
 * a file it may write read-write all the same, so that as the last
 * connection it checkpoints a WAL database and removes its -wal and -shm
 * files); STORE_WRITE needs an existing file;
 * STORE_CREATE creates a missing one. */
enum { STORE_READ, STORE_WRITE, STORE_CREATE };

typedef struct Store Store;

/* A run's row. Agents are their canonical spec texts; turning them into
 * agents (and reading weights files) is the caller's business, never done
 * inside the store. */
typedef struct StoreRun {
    int64_t id; /* local row id, set by create and get */
    char uid[STORE_UID_LEN];
    char name[STORE_NAME_LEN];
    char kind[STORE_KIND_LEN]; /* "selfplay" ("" at create means that) or "match" */
    char white[SPEC_LEN], black[SPEC_LEN]; /* a match: A and B */
    int variant;     /* VARIANT_* */
    uint64_t seed;   /* the run seed */
    uint32_t games;  /* game indices 0..games-1 */
    int threads;     /* threads of the first attempt */
    bool pairs;      /* colour-swapped pairs (a match) */
    int opening;     /* OPENING_* */
    int opening_actions; /* OPENING_RANDOM: K, stored in the opening column as "random:K" */
    /* OPENING_BOOK: the book's content hash and its path as given, stored
     * in the opening column as "book:HASH:PATH" (no column of its own, so
     * the schema stays as it is); the hash is part of plan_ident */
    uint64_t book_hash;
    char book_path[STORE_BOOK_PATH_LEN];
    /* the content hashes of the agents' weights files (16 hex digits;
     * "" for an agent without one, and for runs stored before version 4) */
    char white_weights[STORE_HASH_LEN], black_weights[STORE_HASH_LEN];
    /* what determines the games (set by create and get): the engine
     * version, variant, agents with their weights' hashes, seed, pairs,
     * opening and length bound; game i's identity is (plan_ident, i) */
    char plan_ident[STORE_HASH_LEN];
    int64_t repeat_of; /* a run that plays another's games again, on purpose: that run's id; else 0 */
    /* provenance, stored at create: the commit the binary was built from
     * (a list, store_commits_add: the builds that played the run), the
     * compiler and flags, the machine (CPU model, cores) */
    char git_commit[STORE_COMMITS_LEN], compiler[192], machine[192];
    /* how the agents were limited (controls_format, scheduler.h): "" for
     * none, as every run before version 6; part of plan_ident when set */
    char controls[STORE_CONTROLS_LEN];
    /* run.visits (version 7): the run stores each MCTS action's root
     * visit distribution (table action_visits); false for every earlier
     * run. No part of plan_ident: it changes no game */
    bool visits;
    bool finished;
} StoreRun;

/* run.git_commit names the builds that played the run's games: the
 * commit of the one that started it, then of each other build that
 * resumed it or played a shard merged into it, in the order they came,
 * joined by ", " (a commit ends in -dirty when its work tree had changes
 * not committed; "unknown" outside a git checkout). store_commits_add
 * appends commit to the list (len bytes) unless it is there already, and
 * ends a list too long for it with ", ..." : true when the list changed. */
bool store_commits_add(char *list, size_t len, const char *commit);
/* The run's list with commit added (store_commits_add), stored and kept
 * in run->git_commit: a resumed run names every build that played it. */
int store_run_add_commit(Store *s, StoreRun *run, const char *commit, char *err);

int store_open(Store **out, const char *path, int mode, int busy_ms, char *err);
void store_close(Store *s);
/* The path the store was opened with. */
const char *store_path(const Store *s);
/* Whether the database's schema is older than this yinsh's: opened for
 * reading it stays so, and a run's lookup may want columns it lacks;
 * opened for writing it was upgraded. */
bool store_outdated(const Store *s);

/* The schema script (selfplay/store/schema.sql, embedded at build time). */
const char *store_schema_sql(void);

/* A fresh run identity: 32 hex digits from the clock, the process id, the
 * host name and the seed, unique across the machines whose shards may
 * later be merged. */
void store_new_uid(uint64_t seed, char uid[STORE_UID_LEN]);

/* The identity of a sharded run, made from what every shard knows alike:
 * the plan (as plan_ident), the kind, the size and the name ("" when the
 * name is to be made from it): 32 hex digits, the same in every shard of
 * the run, different for another plan, size or name. */
void store_shard_uid(const StoreRun *run, char uid[STORE_UID_LEN]);

/* What stood in the way of a new run or of a run's lease: the facts a
 * caller's advice is chosen by (the message in err says what is wrong
 * already; how to go on is the caller's to say). */
typedef struct StoreClash {
    char run[STORE_NAME_LEN]; /* ERR_REPEAT: the run that holds these games; ERR_EXISTS: the run of that name */
    bool finished;            /* ERR_EXISTS: that run is finished */
    bool elsewhere;           /* ERR_HELD: the holder is on another host, where whether it lives cannot be checked */
} StoreClash;

/* Creates the run (every field but id, plan_ident, repeat_of and finished
 * filled in; those are set) and takes its lease, in one transaction. The
 * command line is stored as given. ERR_EXISTS when the name is taken;
 * ERR_REPEAT, naming the earlier run, when a run with the same plan is
 * stored already (its games would be these games again) unless
 * allow_repeat: then the run is marked a repeat of it, and each of its
 * games that the database holds already is stored as a repeat, which
 * every statistic skips. On either refusal *clash (may be NULL) names
 * the other run. */
int store_run_create(Store *s, StoreRun *run, const char *command, bool allow_repeat, StoreClash *clash, char *err);
/* One transaction around several of the writes above and below (a run
 * created, its games written, finished and released: an imported file is
 * stored whole or not at all). Inside it the writers' own transactions
 * are part of it; a failed writer leaves it to the caller to roll back. */
/* Removes a database file and its -wal and -shm files (one made and
 * left empty by a failure, or a temporary one), closed. */
void store_remove(const char *db);
int store_transaction_begin(Store *s, char *err);
int store_transaction_commit(Store *s, char *err);
void store_transaction_rollback(Store *s);
/* Reads a run's row by name, checking what it reads (a size, a variant or
 * a bound this yinsh cannot play is an error). ERR_NOT_FOUND when there
 * is none. */
int store_run_get(Store *s, const char *name, StoreRun *run, char *err);
/* Leases: one process plays a run at a time. A lease names its holder
 * (host, process id and the process's start time, so a reused pid is not
 * mistaken for the holder). store_run_claim takes the run's lease, or
 * takes it over when the holder is gone (a process of this host that no
 * longer runs) or `take_over` is set; ERR_HELD, naming the holder, when
 * a live process holds it, or one on another host, which cannot be
 * checked from here (then clash->elsewhere; clash may be NULL).
 * store_run_release gives it back. */
int store_run_claim(Store *s, const StoreRun *run, bool take_over, StoreClash *clash, char *err);
int store_run_release(Store *s, const StoreRun *run, char *err);
/* The game indices of the run not yet stored, ascending; *indices is
 * malloc'ed (free it). */
int store_run_missing(Store *s, const StoreRun *run, uint32_t **indices, uint32_t *n, char *err);
/* Stores finished games of the run, their actions included, in one
 * transaction. */
int store_write_games(Store *s, const StoreRun *run, GameRecord *const *games, int n, char *err);
/* Ends a run early at `games` games (a match its SPRT decided, which
 * stores no game past its deciding pair): sets run.games. */
int store_run_shorten(Store *s, StoreRun *run, uint32_t games, char *err);
/* Marks the run finished (its end time; kept if it is set already) when
 * every one of its games is stored; a run with games missing stays
 * unfinished. */
int store_run_finish(Store *s, const StoreRun *run, char *err);
/* Totals over the stored games of the run, the play hash included. */
int store_summary(Store *s, const StoreRun *run, RecordSummary *sum, char *err);

/* ---- merging databases (store_merge.c) --------------------------------
 *
 * `yinsh merge`: the runs of other databases (the shards of job arrays,
 * each played with --shard K/N) copied into this one, run by run matched
 * by uid. A run new here is copied whole (its row, games and actions); a
 * run held here already must have the same plan (seed, variant, agents
 * and their weights' hashes, size, kind, pairs, opening, engine version)
 * and gets the games it lacks; a game held here already must be the same
 * game (actions, visit counts, result): an identical one is skipped, a
 * different one fails the merge naming both files. A game copied in must
 * be a game of its run: its index in range, its identity and seed the
 * plan's, its variant and agents the run's, and its actions a legal game
 * whose replay gives the stored actors, states, legal counts, length,
 * result and reason; else the merge fails naming the file, run and game.
 * A run's row is copied whole (its controls too), and every action with
 * its clock. All of it is one
 * transaction: every shard merged, or nothing written. A run that then
 * holds every one of its games is marked finished. */

/* What the merge did to one run. */
typedef struct StoreMergeRun {
    char name[STORE_NAME_LEN], uid[STORE_UID_LEN];
    uint32_t games;        /* the run's size */
    uint64_t stored;       /* its games here after the merge */
    uint64_t added;        /* games copied in */
    uint64_t duplicates;   /* games held already, identical: skipped */
    bool finished;         /* every game is here */
    char missing[512];     /* the indices still missing, as ranges ("3-5, 9"), cut short with "..." */
} StoreMergeRun;

/* Merges the databases paths[0..n-1] into s (opened STORE_CREATE or
 * STORE_WRITE). Each input is checked before anything is written: a file
 * that is not a Yinsh Lab database, of a newer or older schema, damaged
 * (a truncated copy), or this very database, is refused by name. Messages
 * name input i names[i] (names NULL: its path; `yinsh import` merges from
 * a database it made of a file, and names the file). On success *runs
 * (malloc'ed; free it) holds what happened to each run met, *nruns of
 * them. A run new here that arrives finished keeps its finished_at; one
 * that a merge completes gets the merge's time. */
int store_merge(Store *s, const char *const *paths, const char *const *names, int n, StoreMergeRun **runs,
                int *nruns, char *err);

/* ---- rows as stored (rows.c) -----------------------------------------
 *
 * The compact form of a study's games (selfplay/records/games.h; `yinsh
 * export --format games` and `yinsh import --format games`): every row of
 * a run as text, and back. */

/* Calls to->on_run with each run's row (the runs named, every run when
 * nruns is 0; in the order they were stored), then to->on_game with each
 * of its games in index order, every action's figures and root visits
 * with it: text valid during the call, reals in their shortest exact
 * form. A name that is no run is ERR_NOT_FOUND before any call; a
 * database of an older schema is refused (its rows lack columns). */
int store_rows_each(Store *s, const char *const *runs, int nruns, const GamesRows *to, char *err);
/* Writes a run's row as the columns say (names of the run table; a name
 * this yinsh does not store is an error), its local id into *run_id, and
 * then one game with its actions (actor, state and legal as the reader's
 * replay gave them) and root visits, the game's identity made from the
 * run's plan_ident (NULL: none). For a database of its own, made to be
 * merged: no check of a plan, a repeat or a lease here. */
int store_rows_add_run(Store *s, const GamesColumn *cols, int ncols, int64_t *run_id, char *err);
int store_rows_add_game(Store *s, int64_t run_id, const char *plan_ident, const GamesGame *g, char *err);

/* ---- reading games (store.c) ---------------------------------------- */

/* A stored game as the tuner replays it: valid only during the callback. */
typedef struct StoreGame {
    const char *ident;         /* the game's identity: the same for a game and its repeats */
    uint32_t index;
    int variant, result;       /* VARIANT_*, RESULT_* */
    int nactions;
    const char *const *actions; /* action texts in ply order */
    const double *values;       /* each action's stored value (the chosen action's
                                 * score for its actor), NAN where none was stored */
    const double *root_values;  /* each action's stored root_value (the position's value
                                 * for its actor), NAN where none was stored (schema 8) */
} StoreGame;

/* Calls fn for every stored game of the selection (store_query.c; below),
 * repeats left out, run by run and by index within a run (not in the
 * order they were stored, which depends on the threads and on resumes:
 * the tuner's sums, and so its weights, follow this order), with its
 * actions; stops at the
 * first non-zero return of fn (whose message is in err) and returns
 * ERR_FAIL. Unfinished games (result none: imported records that stop
 * before the end) are left out: they have no result to learn from. An unknown run name is ERR_NOT_FOUND, before any call.
 * *ngames receives the number of games passed to fn. */
typedef struct StoreSelection StoreSelection;
int store_games_each(Store *s, const StoreSelection *sel, int (*fn)(void *ctx, const StoreGame *g, char *err),
                     void *ctx, uint64_t *ngames, char *err);

/* ---- the studies' queries (store_query.c) ----------------------------
 *
 * They read only columns of schema version 1 (and, from version 5, the
 * repeat mark: repeats are left out), so they work on a database opened
 * for reading whatever its version. Games are selected by the selection
 * below, every game when it is empty. Row
 * callbacks return 0 to go on, non-zero to stop (that value is returned);
 * text in a row lives until the callback returns. */

struct StoreSelection {
    const char *const *runs; /* these runs (nruns of them; none: every run) */
    int nruns;
    const char *kind;        /* NULL, or "selfplay" / "match": runs of that kind */
    const char *agent;       /* NULL, or a canonical agent spec: runs it plays in, on either side */
    const char *variant;     /* NULL, or "standard" / "blitz" */
};

/* A run of the selection, for the report's list of commands and seeds. */
typedef struct StoreRunRow {
    const char *name, *command, *variant, *white, *black, *version, *started_at, *finished_at; /* finished_at may be NULL */
    uint64_t seed;   /* the run seed */
    int64_t games;   /* the run's planned size */
    int64_t stored;  /* games stored */
    const char *kind;                           /* "selfplay" or "match" ("" before version 5 reads it) */
    const char *git_commit, *compiler, *machine; /* provenance ("" before version 5) */
    int64_t repeats; /* of the stored games, those stored already by another run */
    const char *opening;  /* "none", "rings", "random:K" or "book:HASH:PATH" ("" before version 5 reads it) */
    bool pairs;
    uint64_t hash;   /* the play hash of its stored games (record.h) */
    const char *controls; /* run.controls ("" for none, and before version 6) */
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

/* ERR_NOT_FOUND with the first unknown name in err when a name of the
 * selection matches no run. */
int store_query_check(Store *s, const StoreSelection *sel, char *err);
int store_query_runs(Store *s, const StoreSelection *sel, int (*fn)(void *ctx, const StoreRunRow *row), void *ctx,
                     char *err);
int store_query_outcomes(Store *s, const StoreSelection *sel, int (*fn)(void *ctx, const StoreOutcomeRow *row),
                         void *ctx, char *err);
int store_query_first_actions(Store *s, const StoreSelection *sel, int (*fn)(void *ctx, const StoreFirstRow *row),
                              void *ctx, char *err);
/* A game of a match (run kind "match"), in run and index order: pair k
 * is games 2k (A White) and 2k+1 (B White). */
typedef struct StoreMatchRow {
    const char *run, *a, *b, *variant, *result;
    int64_t games, index;
} StoreMatchRow;
int store_query_match_games(Store *s, const StoreSelection *sel, int (*fn)(void *ctx, const StoreMatchRow *row),
                            void *ctx, char *err);

/* The selected games that are repeats (stored again; left out above). */
int store_query_repeats(Store *s, const StoreSelection *sel, int64_t *repeats, char *err);

/* ---- stored games as records (store_query.c) -------------------------
 *
 * A stored game with what its record's tags say (docs/records.md), for
 * `yinsh export` and `yinsh show`. Text lives until the callback returns. */
/* A stored game's record fields: the records' own type
 * (selfplay/records/record_text.h: run, uid, kind, version, commit (NULL for runs
 * before schema version 5: the record says "?"), variant and agents as
 * this game was played, weights hashes (NULL: none or not stored),
 * result, reason, stored_at, the run's command, seed, index, length and
 * the stored actions in ply order), so that a writer of records takes it
 * as it is. */
typedef RecordText StoreGameText;

/* Calls fn for each stored game of the run named `run` (every run when
 * NULL), or only its game `index` (every game when negative), in run and
 * index order; fn's non-zero return stops the loop and is returned.
 * ERR_NOT_FOUND when the run does not exist (or the database holds no
 * runs); a game that is not stored is simply not passed to fn. */
int store_query_game_texts(Store *s, const char *run, int64_t index, int (*fn)(void *ctx, const StoreGameText *g),
                           void *ctx, char *err);

/* ---- the viewer's queries (store_query.c) ---------------------------- */

/* A stored game, one row per game, in the order of the runs and then of
 * the game indices. */
typedef struct StoreGameRow {
    int64_t id;    /* game.id: the local row id */
    const char *run, *variant, *white, *black, *result, *reason;
    int64_t index; /* the game's index in its run */
    uint64_t seed; /* the game's stream seed */
    int64_t actions;
    double duration_ms;
} StoreGameRow;

/* One child of a searched root (table action_visits). */
typedef struct StoreChildRow {
    const char *action;
    int64_t visits;
} StoreChildRow;

/* One action of a stored game, with the search's figures. */
typedef struct StoreActionRow {
    int64_t game_id, ply;
    const char *actor, *state, *action;
    int64_t legal, time_us;
    bool searched; /* the next three are stored (else NULL, read as 0) */
    int64_t root_visits, chosen_visits;
    double value;  /* the chosen action's mean score for the actor */
    double root_value; /* the searched position's value for the actor (action.root_value);
                        * NAN where none is stored: not searched, or stored before schema 8 */
    uint8_t budget;    /* action.full as SEARCH_BUDGET_* (record.h): full (1), reduced (0), or
                        * unknown (NULL: not searched, not told, stored before schema 9) */
    /* its root visit distribution (store/cursor.h reads it; the other
     * readers leave it empty): nchildren rows in the action text's
     * order, none when the run stored none or the action was not an
     * MCTS search's */
    int nchildren;
    const StoreChildRow *children;
} StoreActionRow;

int store_query_games(Store *s, const StoreSelection *sel, int (*fn)(void *ctx, const StoreGameRow *row), void *ctx,
                      char *err);

/* A stored game with every action and its search figures (the rows'
 * game_id is the game's), for the report's one pass over the games. */
typedef struct StoreGameActions {
    const char *run, *variant, *white, *black, *result, *reason;
    int64_t index;   /* the game's index in its run */
    int64_t length;  /* game.actions */
    int nactions;    /* the action rows stored, in ply order */
    const StoreActionRow *actions;
} StoreGameActions;
/* Every action of the selected games, game by game in the order of
 * store_query_games, each game's in ply order. */
int store_query_actions(Store *s, const StoreSelection *sel, int (*fn)(void *ctx, const StoreActionRow *row),
                        void *ctx, char *err);
/* Every selected game (repeats left out) with its actions, game by game
 * in the order of store_query_games: one query, each game handed to fn
 * whole; text lives until fn returns. */
int store_query_game_actions(Store *s, const StoreSelection *sel, int (*fn)(void *ctx, const StoreGameActions *g),
                             void *ctx, char *err);

#endif
