/* One run played by the ranks of an MPI job (`mpirun -np R yinsh
 * selfplay ...`), behind an interface that needs no mpi.h: distribute.c
 * speaks MPI and is built only when CMake finds an MPI C library;
 * distribute_solo.c, built otherwise, is one rank playing alone.
 *
 * Rank 0 owns the database, as one process does: it opens the run and
 * tells every rank what to play (dist_share_run), then hands out game
 * indices on demand in chunks, so that a faster rank takes more of them,
 * while its own threads play too. The other ranks play their chunks on
 * their OpenMP threads and send each batch of finished games (the whole
 * record: actions and the search's figures) back to rank 0, whose writer
 * stores them in the same batched transactions as its own games. A game's
 * actions depend only on the run seed and its index (scheduler.h), so a
 * game is the same whichever rank plays it.
 *
 * Messages carry records as bytes, as this binary lays them out: every
 * rank must run the same build on the same kind of machine (as mpirun of
 * one binary does). */
#ifndef YINSH_DISTRIBUTE_H
#define YINSH_DISTRIBUTE_H

#include <stdbool.h>
#include <stdint.h>
#include "selfplay/play/scheduler.h"
#include "selfplay/store/store.h"

/* Joins the MPI job when the process was started by an MPI launcher (its
 * environment says so), and only then; anything else is one rank of one.
 * Safe to call more than once; the job is left at exit. 0, or -1 with a
 * message in err. */
int dist_init(char *err);
/* This process's rank, and the job's number of ranks (1 without MPI). */
int dist_rank(void);
int dist_ranks(void);
/* Ends every rank of the job now, with exit status `code`: for a rank
 * that fails where the others cannot learn of it (they would wait for it
 * forever); the caller says why first. Returns (doing nothing) without a
 * job. */
void dist_abort(int code);
/* Whether this build can join an MPI job. */
bool dist_built(void);

/* Rank 0's run row, or its failure to open it (status non-zero), given
 * to every rank: rank 0 passes its own, the others receive it. 0, or -1
 * with a message in err. */
int dist_share_run(StoreRun *row, int *status, char *err);

/* Every rank's build, compared with rank 0's before anything is played:
 * `ident` (DIST_IDENT_LEN bytes at most) names this rank's build (version,
 * commit, compiler and flags) and how it plays (run_build_ident, run.h).
 * A rank of another build would play other games under the run's name.
 * 0 when every rank's ident is rank 0's; else -1, and rank 0's err names
 * the first rank that differs and both identities (the other ranks' err
 * is left empty: rank 0 says why). Every rank must call it. */
enum { DIST_IDENT_LEN = 512 };
int dist_check_builds(const char *ident, char *err);

/* What rank 0 saw of a distributed run. */
typedef struct DistStats {
    uint64_t games_here;     /* played by rank 0's own threads */
    uint64_t games_received; /* from the other ranks */
    uint64_t messages;       /* game messages received */
    uint64_t bytes;          /* their size */
    double recv_s;           /* rank 0's time spent receiving and unpacking them */
} DistStats;

/* Plays the games `todo[0..n-1]` of the plan over every rank of the job.
 * On rank 0: the games (its own and the others') go to the sink as with
 * selfplay_run, and *stats (may be NULL) says who played what. On another
 * rank: todo, n and sink are not used; the rank plays what rank 0 hands
 * out until rank 0 has no more. With one rank it is selfplay_run. 0, or
 * non-zero with a message in err. */
int dist_play(const SelfplayPlan *plan, const uint32_t *todo, uint32_t n, const SelfplaySink *sink,
              DistStats *stats, char *err);
/* The ranks still playing (rank 0 included) while dist_play runs: for
 * progress; any thread may read it. */
int dist_ranks_alive(void);

#endif
