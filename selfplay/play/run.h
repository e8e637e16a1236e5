/* A run's life, the same for `yinsh selfplay` and `yinsh match`: open (or
 * create) the database, seed from the clock when no seed is given, name
 * the run, create it, or find it again to resume; hand the finished games
 * to the store; mark the run finished; sum it up.
 *
 * The agents of a resumed run are parsed from their stored spec texts
 * here, outside any transaction (a weights file is read then), and their
 * weights must be the ones the run was played with (their content hashes
 * are stored). One process plays a run at a time: opening a run takes its
 * lease (store.h), closing it gives the lease back. */
#ifndef YINSH_RUN_H
#define YINSH_RUN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "selfplay/play/scheduler.h"
#include "selfplay/store/store.h"

/* The database of a command not told another: yinsh.db in the working
 * folder, made by the first command that writes to it (outside results/,
 * which holds reports; the repository's .gitignore covers it). */
#define RUN_DEFAULT_DB "yinsh.db"

typedef struct RunOptions {
    const char *kind;    /* "selfplay" or "match": the run's kind and its default name's prefix */
    const char *db;      /* the database */
    bool no_db;          /* store nothing */
    int busy_ms;         /* 0: STORE_BUSY_MS */
    const char *name;    /* NULL: KIND-YYYYmmdd-HHMMSS-<uid prefix> */
    const char *resume;  /* the name of a run to finish; then plan and name are not used */
    const char *command; /* the command line as typed, stored with the run */
    SelfplayPlan plan;   /* a new run's plan; plan.threads <= 0: all cores */
    bool have_seed;      /* false: plan.seed is drawn from the clock */
    bool take_over;      /* resume: take the run's lease even from a holder on another host */
    bool allow_repeat;   /* store the games again when another run holds them (as repeats) */
    /* A shard of a run (shards > 0): play only the games of slice `shard`
     * (1..shards) of the run's indices (run_in_shard). The run's identity
     * is then made from its plan (store_shard_uid), the same in every
     * shard, and a new shard needs have_seed. */
    uint32_t shard, shards;
    /* The outside evaluator of a run whose agents evaluate with one
     * (eval=fn:NAME, agents/agent.h): attached to the specs of a resumed
     * run that name it, whose stored content hash it must have; NULL:
     * such a run is refused, naming the program that plays it. */
    const AgentOutside *outside;
    /* With resume: a worker of the process that holds the run's lease
     * (libyinsh's self-play in several processes, docs/python.md): the
     * run is opened to store games into without taking its lease. */
    bool joined;
} RunOptions;

typedef struct Run {
    const char *db;      /* the database's path (NULL with no_db) */
    Store *store;        /* NULL with no_db */
    StoreRun row;        /* the run's row (named and filled in also with no_db) */
    SelfplayPlan plan;   /* what to play */
    bool own_plan;       /* plan's agents were parsed here (a resumed run's): run_close gives back their nets */
    uint32_t *todo;      /* game indices still to play, ascending */
    uint32_t ntodo;
    RecordSummary sum;   /* games stored so far (a resumed run's earlier ones too) */
    uint64_t done;       /* games stored by this process */
    ResignSummary resign; /* the resignations of the games stored by this process (resign.h) */
    bool leased;         /* this process holds the run's lease */
    bool worker;         /* an MPI rank other than 0: plays what rank 0 hands out, stores nothing */
    Book book;           /* a resumed book run's book, read from its stored path (plan.book may point here) */
    StoreClash clash;    /* when run_open failed with ERR_REPEAT, ERR_EXISTS or ERR_HELD: the other run, the holder */
    uint32_t shard, shards; /* the slice played (RunOptions'); shards 0: the whole run */
} Run;

/* Whether game `index` belongs to slice `shard` (1..shards) of a run:
 * games are dealt round-robin, a match's by pairs (2k and 2k+1 together). */
bool run_in_shard(bool pairs, uint32_t index, uint32_t shard, uint32_t shards);

/* How many of a run's `games` indices slice `shard` of `shards` holds
 * (all of them when shards is 0). */
uint32_t run_shard_games(bool pairs, uint32_t games, uint32_t shard, uint32_t shards);

/* A seed from the clock and the process id. */
uint64_t run_clock_seed(void);

/* Whether the stored run `row` is the run `plan` would make (kind,
 * variant, seed, size, agents as canonical specs with their weights'
 * content hashes, pairs, opening, the book's content hash): 0, or -1 with
 * what differs in err.
 * A plan that asks for an existing run by name is checked with it, so
 * that a changed plan never finishes a run started with another. */
int run_row_matches(const StoreRun *row, const char *kind, const SelfplayPlan *plan, char *err);
/* Gives back the nets of a plan's two agents (agent_spec_release): for
 * the owner of specs it parsed into a plan. */
void run_plan_release(SelfplayPlan *plan);

/* This build's identity as the ranks of an MPI job compare it at the
 * start of a run, before anything is written (dist_check_builds): the
 * engine version, the commit, the compiler and its flags, and a hash of
 * how it plays: two small probe games played through the scheduler (MCTS
 * with evaluated playouts against alpha-beta from four random actions;
 * MCTS with the solver, priors and row playouts against MCTS with random
 * playouts, in blitz, colours swapped), each a few milliseconds. A build
 * that draws one more random number, or orders one list otherwise, plays
 * other probe games. At most len bytes. */
void run_build_ident(char *out, size_t len);

/* Opens the database and creates or finds the run; 0, or non-zero with a
 * message in err: the store's code (ERR_REPEAT when another run holds
 * these games, ERR_EXISTS when the name is taken, store_run_create;
 * ERR_NOT_FOUND when the run to resume is not there; ERR_HELD when
 * another process plays it, store_run_claim), else ERR_FAIL. A resumed run that opens from a book uses
 * o->plan.book when it is given and has the stored content hash (else it
 * is refused), or reads the book from its stored path and checks the
 * hash. Free with run_close whatever the outcome.
 * In an MPI job (distribute.h) rank 0 does this and shares the run; any
 * other rank receives it and becomes a worker (r->worker: no database,
 * no todo), or fails with an empty err when rank 0 failed (rank 0 says
 * why). */
int run_open(Run *r, const RunOptions *o, char *err);
/* Stores a batch of finished games and adds them to the totals. */
int run_store(Run *r, GameRecord *const *games, int n, char *err);
/* What a command, a plan or a match sees of a run that run_play plays.
 * Every hook runs on the writer thread, one call at a time, and each may
 * be NULL. */
enum { RUN_STORE, RUN_HOLD, RUN_DROP };
typedef struct RunHooks {
    /* Each batch of finished games as it comes, before any is stored. */
    void (*finished)(void *ctx, GameRecord *const *games, int n);
    /* What becomes of a finished game: RUN_STORE, stored now; RUN_HOLD,
     * kept back (asked again after each later batch, and stored at the
     * end of the run when still held); RUN_DROP, never stored. NULL:
     * every game stored as it comes. */
    int (*fate)(void *ctx, const GameRecord *g);
    /* After each batch (its games stored, held or dropped): progress. */
    void (*stored)(void *ctx, const Run *run);
    void *ctx;
    atomic_bool *stop;            /* NULL, or a flag the hooks set to start no new game */
    const atomic_bool *interrupt; /* NULL, or set from outside (a signal): start no new game */
    struct DistStats *dist;       /* NULL, or where an MPI job's figures go (distribute.h) */
} RunHooks;

/* Plays the games the open run lacks (r->todo) on the scheduler, in an
 * MPI job on every rank (dist_play), each finished game stored into the
 * run (run_store) as the hooks decide. 0, or non-zero with a message in
 * err: a failed write stops the run. */
int run_play(Run *r, const RunHooks *h, char *err);
/* A worker rank's part of the run (r->worker): plays the games rank 0
 * hands out until it has no more. 0, or -1 with a message in err. */
int run_work(Run *r, const atomic_bool *interrupt, char *err);
/* Marks the run finished and reads its totals back from the database. */
int run_finish(Run *r, char *err);
void run_close(Run *r);

/* The run in words, as a command shows it before its games, without a
 * line end: "run NAME in DB, seed S, VARIANT, WHITE vs BLACK, G games (T
 * to play), N threads", and " on each of R ranks" in an MPI job. */
void run_describe(FILE *f, const Run *r);
/* The results so far, as a run's progress line ends them ("W 3 B 2 D 0",
 * and ", ranks alive A/R" in an MPI job), into out (len bytes). Returns
 * out. */
char *run_tally(const RecordSummary *s, char *out, size_t len);

/* Stores a game played elsewhere (yinsh import) as a run of kind "import"
 * holding that one game, named `name`, its players' names as white and
 * black, `command` as its command: the run, its game, its end and its
 * lease's release in one transaction, so that a file is stored whole or
 * not at all. The run's seed is a hash of the game's actions, so the same
 * game imported twice is the same plan: refused (ERR_REPEAT) unless
 * allow_repeat, which stores it as a repeat that statistics skip; the
 * same name again is ERR_EXISTS. 0, or a negative code with a message in
 * err. */
int run_import(Store *s, const char *name, const char *white, const char *black, const char *command,
               GameRecord *g, bool allow_repeat, char *err);

#endif
