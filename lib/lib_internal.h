/* What the library's files share: the handles' insides, and the one way
 * a code and a message reach the caller. Not installed. */
#ifndef YINSH_LIB_INTERNAL_H
#define YINSH_LIB_INTERNAL_H

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

#endif
