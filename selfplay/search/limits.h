/* The limits of one search beyond its configuration, shared by the
 * searchers (MCTS, mcts.h; alpha-beta, ab.h) and set by whoever runs them
 * on a clock: the harness (agents/agent.h) and `yinsh uyi`'s search
 * thread. A search stops at the first limit reached. Every searcher reads
 * the clock and the flag through search_limits_reached, so "reached"
 * means one thing; each says how often it asks (MCTS before every
 * simulation but the first, alpha-beta every few hundred positions), and
 * each always completes a first unit of work (a simulation, depth 1), so
 * a search under limits long past still answers.
 *
 * A search may also report its progress (the `info` lines of `yinsh
 * uyi`): report, when set, is called on the search's own thread about
 * every report_s seconds and, by alpha-beta, at each depth completed, and
 * once at the end of a search it made. Reports read the search, never
 * change it: a search with them chooses as one without. */
#ifndef YINSH_SEARCH_LIMITS_H
#define YINSH_SEARCH_LIMITS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "engine/base/clock.h"
#include "engine/types.h"

enum { SEARCH_REPORT_PV = 16 }; /* actions of a report's principal variation at most */

/* What a search has found so far. */
typedef struct SearchReport {
    int depth;       /* alpha-beta: the depth this line is about (the one completed, or in progress); MCTS: 0 */
    bool scored;     /* alpha-beta: depth completed (or the search's end): score, value and pv are its */
    int score;       /* scored: alpha-beta's score for the actor (ab.h's units) */
    uint64_t nodes;  /* MCTS: simulations of this search; alpha-beta: positions visited */
    double value;    /* MCTS, or scored: the best action's expected score for the actor, [0, 1] */
    int npv;         /* MCTS, or scored: the principal variation */
    Action pv[SEARCH_REPORT_PV];
} SearchReport;

typedef void (*SearchReportFn)(void *ctx, const SearchReport *report);

typedef struct SearchLimits {
    uint32_t sims;           /* at most: MCTS simulations, alpha-beta positions (a node budget); 0: MCTS its
                              * configured sims, alpha-beta none */
    double deadline;         /* clock_now() (base/clock.h) to stop at; 0: none */
    const atomic_bool *stop; /* set by another thread to stop (it writes, the search reads); NULL: none */
    bool until_stop;         /* search until the stop flag (`go infinite`): MCTS without a simulation bound,
                              * alpha-beta deepening to its maxdepth */
    int depth;               /* alpha-beta: deepen to this depth (1..AB_MAX_DEPTH); 0: its own cap */
    SearchReportFn report;   /* NULL: no reports */
    void *report_ctx;
    double report_s;         /* seconds between reports (with report) */
} SearchLimits;

/* Whether the deadline has passed or the stop flag is set (a relaxed
 * load: the flag orders nothing, a search only has to see it soon). */
static inline bool search_limits_reached(const SearchLimits *lim)
{
    if (lim->stop && atomic_load_explicit(lim->stop, memory_order_relaxed)) return true;
    return lim->deadline > 0 && clock_now() >= lim->deadline;
}

#endif
