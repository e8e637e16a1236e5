/* What an SPRT's bounds cost before a match runs it, and the test's state
 * for counts already played (`yinsh sprt`): the expected length at each
 * hypothesis (Wald) and, when asked, the error rates and mean length by
 * simulation (sprt.h). */
#ifndef YINSH_SPRT_COST_H
#define YINSH_SPRT_COST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "selfplay/match/sprt.h"

/* One hypothesis (elo0, then elo1): its distribution of the shape, the
 * probability that H1 is accepted there, the expected length and, with
 * runs, the simulation. */
typedef struct SprtCostAt {
    double pdf[5], p_h1, expected;
    SprtSim sim;
} SprtCostAt;

typedef struct SprtCost {
    SprtSpec spec;
    int kinds;              /* 5 pentanomial pairs or 3 game results */
    bool have_counts;       /* the shape is of counts given, not the default pairs */
    uint64_t counts[5];
    double shape[5];        /* the counts regularized as the test does (a zero is 1e-3), summing to 1 */
    uint64_t runs, seed;    /* simulated runs at each hypothesis (0: none), their seed */
    Sprt bounds;            /* the test's bounds */
    int nat;                /* hypotheses worked out (2, fewer when sprt_cost failed) */
    SprtCostAt at[2];
} SprtCost;

/* The shape of --counts text ("N0,N1,N2,N3,N4" pairs or "L,D,W" games;
 * NULL: the default YINSH pairs) into c: 0, or ERR_USAGE with err. */
int sprt_cost_shape(SprtCost *c, const char *text, char *err);
/* Works out both hypotheses (simulating c->runs runs each, in chunks,
 * calling progress(ctx, h, done, runs) after each): 0, or ERR_FAIL with
 * err when no distribution of the shape has a hypothesis's Elo in the
 * model (c->nat says how many were worked out before). */
int sprt_cost(SprtCost *c, void (*progress)(void *ctx, int h, uint64_t done, uint64_t runs), void *ctx, char *err);

/* The test and its bounds, the state of the counts given, the shape; and
 * for each hypothesis worked out, its expected length and simulation. */
void sprt_cost_print_head(FILE *f, const SprtCost *c);
void sprt_cost_print_at(FILE *f, const SprtCost *c, int h);

#endif
