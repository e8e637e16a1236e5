/* The limits of one search beyond its configuration, shared by the
 * searchers (MCTS, mcts.h; alpha-beta, ab.h) and set by whoever runs them
 * on a clock: the harness (agents/agent.h) and `yinsh uyi`'s search
 * thread. A search stops at the first limit reached. Every searcher reads
 * the clock and the flag through search_limits_reached, so "reached"
 * means one thing; each says how often it asks (MCTS before every
 * simulation but the first, alpha-beta every few hundred positions), and
 * each always completes a first unit of work (a simulation, depth 1), so
 * a search under limits long past still answers. */
#ifndef YINSH_SEARCH_LIMITS_H
#define YINSH_SEARCH_LIMITS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "base/clock.h"

typedef struct SearchLimits {
    uint32_t sims;           /* MCTS: simulations at most; 0: the configured sims. Alpha-beta has none */
    double deadline;         /* clock_now() (base/clock.h) to stop at; 0: none */
    const atomic_bool *stop; /* set by another thread to stop (it writes, the search reads); NULL: none */
} SearchLimits;

/* Whether the deadline has passed or the stop flag is set (a relaxed
 * load: the flag orders nothing, a search only has to see it soon). */
static inline bool search_limits_reached(const SearchLimits *lim)
{
    if (lim->stop && atomic_load_explicit(lim->stop, memory_order_relaxed)) return true;
    return lim->deadline > 0 && clock_now() >= lim->deadline;
}

#endif
