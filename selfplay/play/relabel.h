/* Stored games given new value targets by a stronger search (`yinsh
 * relabel`): the games of some runs copied, action for action, into a new
 * run of the same database, where each position their agents searched
 * (or every K-th of a game's) carries the value of another agent's search
 * of that position instead of the figures of the search that played it.
 * `yinsh train --lambda L` then learns from the searched values of the
 * positions the source games visited (docs/nnue.md, "Relabelled games").
 *
 * The new run (kind "relabel"):
 *   - its games are the sources' in the order the runs are named, each
 *     run's by index: game i of the new run is the i-th of that list (the
 *     first `games` of it when limited), with the source game's result,
 *     reason and actions; actor, state and legal from its replay; its
 *     seed the run seed's for game i, as in self-play, so that `yinsh
 *     merge` takes the run;
 *   - a relabelled position's action row holds the agent's search of the
 *     position: root_visits its positions searched, chosen_visits its
 *     depth, value and root_value both the position's value for the actor
 *     (the search's root score: the relabelling agent's best action need
 *     not be the stored one), full 1, time_us its time; any other action
 *     has no figures (NULL), and training uses its game's result alone;
 *   - white and black are the relabelling agent's canonical spec (the
 *     figures are its), command the command line (which names the source
 *     runs), seed a hash of the seed given, K, the games asked for and
 *     the source runs' uids, so that relabels of other runs, with another
 *     K or of more games are other runs (store_run_create refuses a run
 *     of the same plan: the same games again).
 *
 * Each position is searched from a cleared agent (agent_reset), so its
 * value is that of a direct search of the position, whatever was searched
 * before it; an agent must be deterministic (agent_spec_deterministic: ab
 * at a fixed depth on one thread, no movetime): then the rows do not
 * depend on the threads, the order the games are done in, or a resume.
 * Games are relabelled on OpenMP threads, each stored whole in a
 * transaction of its own as it ends: a run killed midway keeps the games
 * it stored, and the same plan again (relabel_run on the run's name)
 * relabels only the games it lacks. */
#ifndef YINSH_RELABEL_H
#define YINSH_RELABEL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "selfplay/agents/agent.h"
#include "selfplay/store/store.h"

enum { RELABEL_MAX_EVERY = 1000000, RELABEL_DEFAULT_EVERY = 1, RELABEL_DEFAULT_SEED = 1 };

typedef struct RelabelPlan {
    const char *const *runs; /* the source runs, nruns of them, in this order */
    int nruns;
    const AgentSpec *agent;  /* the searcher whose values are stored (relabel_agent_check) */
    uint32_t every;          /* K >= 1: every K-th searched position of a game, from its first */
    uint32_t games;          /* 0: every stored game of the sources; else at most the first this many */
    uint64_t seed;           /* the agent's streams (rng_stream of the run seed and the game) and the run's identity */
    int threads;             /* OpenMP threads (parallel_threads: 0 all cores) */
    const char *name;        /* the new run */
    const char *command;     /* the command line, stored with the run */
} RelabelPlan;

/* Where a relabel stands, after each stored game. */
typedef struct RelabelProgress {
    uint32_t total;          /* the run's games */
    uint32_t done;           /* stored, those of an earlier attempt included */
    uint32_t done_before;    /* stored by an earlier attempt (a resume) */
    uint64_t positions;      /* positions searched by this attempt */
    double seconds;          /* this attempt's time so far */
} RelabelProgress;

typedef struct RelabelHooks {
    /* after each stored game (one thread at a time); NULL: none */
    void (*on_stored)(void *ctx, const RelabelProgress *p);
    void *ctx;
    /* set (Ctrl-C): no new game starts and the game under way is dropped; NULL: none */
    const atomic_bool *stop;
} RelabelHooks;

typedef struct RelabelResult {
    RelabelProgress progress;
    uint64_t actions;        /* actions of the games this attempt stored */
    bool resumed;            /* the run existed: only its missing games were done */
    bool finished;           /* every game of the run is stored */
} RelabelResult;

/* Whether spec can relabel: a searcher that reports a value and whose
 * values are a function of the position (agent_spec_deterministic). 0, or
 * ERR_USAGE saying why not. */
int relabel_agent_check(const AgentSpec *spec, char *err);

/* Relabels the plan's games into run p->name of s (opened for writing):
 * creates the run, or resumes it when it exists as a relabel of this plan
 * (the same sources, agent, K, seed and size) and is not finished, taking
 * its lease. ERR_NOT_FOUND for a source run that is not there, ERR_EXISTS
 * for a run of that name that is finished or another plan's, ERR_HELD
 * when a live process holds its lease, ERR_USAGE for sources of other
 * variants or with no games, ERR_FAIL else; each with a message in err.
 * A stop leaves the run unfinished (res->finished false) and returns 0. */
int relabel_run(Store *s, const RelabelPlan *p, const RelabelHooks *h, RelabelResult *res, char *err);

#endif
