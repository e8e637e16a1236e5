/* Tuning the evaluation weights to stored games (the Texel method):
 * logistic regression of a game's result (White's score: 1, 1/2, 0) on the
 * features of positions sampled from it.
 *
 * 1. Positions: every game handed over is replayed from its stored
 *    actions; the positions at ply >= min_ply (before each action; the
 *    final position is left out) are kept with probability `sample`, drawn
 *    from a stream seeded by (seed, game), so a data set is reproducible.
 *    A game goes to the validation set when the hash of its identity
 *    (the store's: a game and its repeats share it) falls below val_frac:
 *    whole games, so that no position of a validation game is learned
 *    from, and a copy of a training game is never held out.
 * 2. Scale: with the default weights w0, the K minimising the log-loss of
 *    sigmoid(K w0.f) (a 1-D convex problem, golden-section search).
 * 3. Weights: from K w0, Newton's method on the L2-regularised log-loss,
 *    mean over positions + l2/2 |w|^2, with a backtracking line search.
 *
 * Sums over positions run on OpenMP threads in fixed blocks that are added
 * in order, so a fit gives the same weights on any number of threads. */
#ifndef YINSH_TUNE_H
#define YINSH_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "eval/evaluation.h"

typedef struct TuneOptions {
    int min_ply;     /* default 10: after the ring placements */
    double sample;   /* (0, 1], default 1 */
    uint64_t seed;   /* the sampling stream, default 1 */
    double val_frac; /* [0, 1), default 0.1 */
    double l2;       /* >= 0, default 1e-4 */
    int threads;     /* <= 0: omp_get_max_threads() */
} TuneOptions;

void tune_options_default(TuneOptions *o);

typedef struct TuneData {
    float *f;                    /* n rows of FEAT_NB features */
    float *y;                    /* White's score of the position's game */
    uint8_t *val;                /* 1: a validation position */
    size_t n, n_val;
    uint64_t games, games_val;
} TuneData;

/* Positions are collected game by game (study/positions/tune_load.c hands over the
 * stored games): tune_collect_game replays one game's actions (their
 * texts, checked by the engine) and keeps its sampled positions;
 * tune_collect_finish computes their features into d and frees what the
 * collector holds. No game, no position, or no training position is an
 * error (err, ERR_LEN bytes); so is an action that does not replay. */
typedef struct TuneCollector {
    const TuneOptions *o; /* set by the caller; the rest starts zeroed */
    Position *pos;
    float *y;
    uint8_t *val;
    size_t n, cap;
    uint64_t games, games_val;
} TuneCollector;

/* What the collectors (this one and nnue_train.h's) share. A game is held
 * out for validation by the hash of its identity (*h, also the stream of
 * its draws), so that a game and its copy fall on the same side. A stored
 * game is replayed from the variant's start: before each action, visit
 * sees the position and its ply; an action that does not replay is
 * ERR_FAIL naming the game (ident, index) and the ply; visit's own
 * non-zero return (with its message in err) ends the replay. */
bool tune_held_out(const char *ident, double val_frac, uint64_t *h);
/* Room for one more position in a collector's count parallel arrays of
 * n positions and *cap places: when full, each array is grown to twice
 * the places (65536 at first), sizes[i] bytes a place, and *cap follows.
 * An array that could not grow is left as it was, the others grown, and
 * the result is ERR_FAIL. */
int tune_grow(size_t n, size_t *cap, void **arrays, const size_t *sizes, int count, char *err);
int tune_replay(const char *ident, uint32_t index, int variant, const char *const *actions, int nactions,
                int (*visit)(void *ctx, const Position *pos, int ply, char *err), void *ctx, char *err);

int tune_collect_game(TuneCollector *c, const char *ident, uint32_t index, int variant, int result,
                      const char *const *actions, int nactions, char *err);
int tune_collect_finish(TuneCollector *c, TuneData *d, char *err);
void tune_collect_free(TuneCollector *c);
void tune_data_free(TuneData *d);

/* Mean log-loss of sigmoid(w.f) against the targets, over the training
 * (val = 0) or validation (val = 1) positions; NAN when there are none. */
double tune_loss(const TuneData *d, const Weights *w, int val, int threads);

typedef struct TuneFit {
    double k;                   /* the scale fitted on the defaults */
    Weights before, scaled, after; /* w0, K w0, the tuned weights */
    double loss_before[2], loss_scaled[2], loss_after[2]; /* [train, validation] */
    double loss_constant[2];    /* predicting the training mean: the floor to beat */
    int iterations;             /* Newton steps taken */
} TuneFit;

/* Fits the scale, then the weights, from w0. */
void tune_fit(const TuneData *d, const Weights *w0, const TuneOptions *o, TuneFit *fit);

#endif
