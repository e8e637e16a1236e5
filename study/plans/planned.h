/* Planned runs: the runs a plan names and seeds (a study file's runs, a
 * tournament's pairings, each round's self-play and match, each SPSA
 * iteration's match), every one played, resumed or skipped by what the
 * database holds of it. A plan is its runs and nothing else is stored,
 * so the same plan run again finds its complete runs, resumes the
 * unfinished one and plays the missing ones: a killed plan ends with the
 * games of one never stopped.
 *
 * planned_read says each run's state, refusing a stored run under a
 * planned name that another plan made (run_row_matches); planned_play
 * opens or resumes one run, plays the games it lacks (a self-play run's
 * on the scheduler, a match's through match_run) and marks it finished.
 * What is shown meanwhile (a first line, progress, a last line) and the
 * interrupt flag are the caller's, through PlannedHooks, as fastchess's
 * tournaments share one base and differ in what they print. */
#ifndef YINSH_PLANNED_H
#define YINSH_PLANNED_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include "selfplay/match/match.h"
#include "selfplay/play/run.h"

typedef enum { PLANNED_MISSING, PLANNED_UNFINISHED, PLANNED_COMPLETE, PLANNED_STATES } PlannedState;

/* "missing", "unfinished", "complete". */
const char *planned_state_name(PlannedState state);

/* A name of a plan that becomes part of its runs' names (a study's and
 * its agents' labels, a tournament's and its participants', the rounds',
 * an SPSA loop's): 1 to max - 1 characters, each one of PLANNED_WORD, so
 * that a run's name is one word in a shell and in a file name. */
#define PLANNED_WORD "letters, digits, '.', '_', '+' or '-'"
bool planned_word(const char *s, size_t max);

/* Where a plan's runs are stored and how they are played: what the
 * command line resolved once, the same for every run of the plan. */
typedef struct PlannedOptions {
    const char *db; /* the database (run_open makes the default one's folder) */
    int busy_ms;    /* how long every reader and writer waits for another process's lock */
    int threads;    /* the games' OpenMP threads (<= 0: all cores) */
    /* A slice of every run (shards > 0): only the games of shard `shard`
     * (1..shards), as `yinsh selfplay --shard` plays them (run_in_shard),
     * into a database of the slice's own; `yinsh merge` joins the slices.
     * A slice's run is never complete in its own database. */
    uint32_t shard, shards;
} PlannedOptions;

typedef struct Planned {
    const char *kind;    /* "selfplay" or "match" */
    const char *name;    /* the run's name */
    SelfplayPlan plan;   /* a match's: white A, black B, pairs; its threads are PlannedOptions' */
    const char *command; /* stored with the run when it is created */
    PlannedState state;  /* set by planned_read */
    uint32_t stored;     /* set by planned_read: the games of the run stored (all of a complete one's) */
} Planned;

/* Each run's state in the database, and its games stored; a database
 * that does not exist yet, or holds no schema, holds none. The database is opened for reading
 * only, unless its schema is older than this yinsh's: then it is opened
 * for writing, which upgrades it in place (as any command that writes to
 * it would), and read so. ERR_OK; ERR_EXISTS when the database holds a
 * run under runs[*refused]'s name that another plan made (err: "database
 * 'D': what differs"); ERR_FAIL when it cannot be read. */
int planned_read(const PlannedOptions *o, Planned *runs, int n, int *refused, char *err);

/* What a played run came to. */
typedef struct PlannedResult {
    bool opened;       /* the run was opened: the games it stored are kept */
    bool stopped;      /* the interrupt came before the end: the run is left unfinished */
    RecordSummary sum; /* its stored games, a resumed run's earlier ones too */
    uint64_t done;     /* games stored now */
    MatchResult match; /* a match's: A's pairs and the play hash of its games */
} PlannedResult;

/* What the caller shows, and its interrupt flag. Any hook may be NULL. */
typedef struct PlannedHooks {
    /* the run is open, before its first game (run->todo: what it lacks) */
    void (*start)(void *ctx, const Planned *p, const Run *run);
    /* after each stored batch: the games stored (a match's: its stored
     * games, earlier ones too), and a match's tally of A's pairs (NULL
     * for a self-play run); on the writer thread */
    void (*progress)(void *ctx, const Run *run, const MatchTally *tally, uint64_t games);
    /* every game stored and the run marked finished */
    void (*finished)(void *ctx, const Planned *p, const Run *run, const PlannedResult *res);
    void *ctx;
    const atomic_bool *interrupt; /* NULL, or set from outside: start no new game, leave the run unfinished */
} PlannedHooks;

/* Plays the run p (its state MISSING or UNFINISHED): opens it, or
 * resumes it, plays the games it lacks and marks it finished, filling
 * res. 0 (res->stopped when the interrupt came first); else run_open's
 * code (ERR_REPEAT, ERR_EXISTS, ERR_HELD: the caller's advice depends on
 * it) or ERR_FAIL, with a message in err. A MISSING run that another
 * process made since its state was read (two commands started at once on
 * one plan) is that process's: ERR_HELD, naming it, while it plays it
 * (its lease); resumed when it is unfinished and nobody plays it; 0
 * without opening anything (res->opened false) when it is complete. */
int planned_play(const Planned *p, const PlannedOptions *o, const PlannedHooks *h, PlannedResult *res, char *err);

#endif
