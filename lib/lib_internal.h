/* What the library's files share: the handles' insides, and the one way
 * a code and a message reach the caller. Not installed. */
#ifndef YINSH_LIB_INTERNAL_H
#define YINSH_LIB_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <yinsh.h>
#include "engine/position.h"
#include "selfplay/search/mcts.h"
#include "selfplay/store/store.h"

struct yinsh_position {
    Position pos;
};

struct yinsh_db {
    Store *store;
};

/* The caller's err, which may be NULL: the library's functions pass this
 * on to the engine's, which always write a message. */
#define ERR_OR_SCRATCH(err, scratch) ((err) ? (err) : (scratch))

/* A caller's yinsh_eval_fn as an outside evaluator of the agents
 * (selfplay/agents/agent.h, eval=fn:NAME): lib_outside_evaluate, an
 * MctsEvaluate whose ctx is the LibOutside, turns leaves into the plain
 * arrays of the callback (grown to the largest call) and checks every
 * number it gives back (a prior not finite and >= 0, a value outside [0,
 * 1]) before any reaches a search: a bad one fails the call, naming the
 * leaf. One call at a time (its arrays are its own): a batcher in front
 * (selfplay/search/batcher.h) serialises the callers. */
typedef struct LibOutside {
    yinsh_eval_fn fn;
    void *ctx;
    int cap;        /* leaves the arrays hold */
    float *planes;  /* cap x YINSH_OBSERVATION */
    uint8_t *mask;  /* cap x YINSH_ACTIONS */
    float *priors;  /* cap x YINSH_ACTIONS */
    float *values;  /* cap */
    uint64_t calls, leaves; /* written by the one caller at a time */
} LibOutside;
int lib_outside_evaluate(void *ctx, MctsLeaf *leaves, int n, char *err);
void lib_outside_free(LibOutside *o);

/* The use of a handle that a caller can reach again while a call of it
 * runs (an agent, a PUCT search: from another thread, or from the
 * search's own evaluator; include/yinsh.h, "Agents and PUCT searches in
 * use"): 0 while idle, else LIB_BUSY and what was asked meanwhile for the
 * call to do when it ends (LIB_FREE: release the handle; LIB_CLEAR: the
 * PUCT search's new game). Written by whichever thread calls, with
 * atomic compare-and-swaps only. */
enum { LIB_BUSY = 1, LIB_FREE = 2, LIB_CLEAR = 4 };
typedef _Atomic int LibUse;

/* Takes the handle for a call: false when a call of it runs. */
static inline bool lib_use_begin(LibUse *u)
{
    int idle = 0;
    return atomic_compare_exchange_strong(u, &idle, LIB_BUSY);
}

/* A free or a new game (what, LIB_FREE or LIB_CLEAR): true when the
 * handle was idle and is now taken, for the caller to do it now (then
 * lib_use_end); false when it was left for the running call. */
static inline bool lib_use_now_or_later(LibUse *u, int what)
{
    int s = atomic_load(u);
    for (;;) {
        if (s == 0 ? atomic_compare_exchange_weak(u, &s, LIB_BUSY) : atomic_compare_exchange_weak(u, &s, s | what))
            return s == 0;
    }
}

/* Ends a call: 0, the handle idle again; or what was asked meanwhile,
 * the handle still taken, for the caller to do and then end again. */
static inline int lib_use_end(LibUse *u)
{
    int s = LIB_BUSY;
    if (atomic_compare_exchange_strong(u, &s, 0)) return 0;
    return s & ~LIB_BUSY;
}

#endif
