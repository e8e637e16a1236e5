/* Training the policy head of a net (eval/nnue_policy.h): `yinsh train
 * --policy`. The value net is fixed; the head learns, on top of its
 * hidden layer and its children's values, which actions a stronger
 * search chose.
 *
 * 1. Samples (policy_collect, for each stored position study/positions/
 *    policy_load.c hands over): the position's legal actions, its hidden
 *    layer and its children's settled logits under the net
 *    (nnue_policy_inputs), and the target, a distribution over the legal
 *    actions: the stored root visit shares where the run stored them, the
 *    action played (all of it) where not. Positions with one legal action
 *    teach nothing and are left out. A share of the games is held out.
 * 2. Training: softmax regression, z(a) = beta L(a) + b[i] + w[i] . h
 *    with h in [0, 1] (the hidden values over QA), minimising the cross-
 *    entropy against the targets, with Adam on minibatches in an order
 *    shuffled by the seed each epoch, the step falling from lr to lr / 10;
 *    weights clipped to NNUE_POLICY_MAX. The loss is convex in the
 *    parameters, which start at the net's head when it has one, else at
 *    beta 1 and 0 (the children's values alone, a head-less net's priors).
 * 3. Quantisation to the head's integers, and the figures: the held-out
 *    cross-entropy and top-1 agreement (the most likely action is the one
 *    the target puts most on) of the quantised head, beside those of the
 *    children's values alone.
 * A direct head (PolicyData.direct; feature set 5, nnue_policy.h) has no
 * children's values: its samples hold the hidden layer alone (no child is
 * evaluated to collect them), beta stays 0, the head starts from the
 * net's direct head when it has one, else from zeros (uniform priors),
 * and "the children's values alone" is then the uniform prior. With
 * symmetries (PolicyTrainOptions.symmetries, direct only) each sample
 * keeps its position, and each epoch sees it in one of the board's 12
 * symmetries, drawn from the seed, the epoch and the sample: the image
 * position's hidden layer with each target moved to its action's image
 * (the planes and the policy target mapped together, policy_sample_sym);
 * held-out figures are of the positions as they are.
 * Single-threaded and deterministic: the same samples, options and seed
 * give the same head, byte for byte. */
#ifndef YINSH_POLICY_TRAIN_H
#define YINSH_POLICY_TRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "eval/nnue.h"

typedef struct PolicyTrainOptions {
    uint64_t seed;    /* default 1 */
    int epochs;       /* default 4 */
    double lr;        /* default 0.003 */
    int batch;        /* default 256 */
    double val_frac;  /* share of games held out, default 0.1 */
    size_t max_positions; /* 0: all */
    bool symmetries;  /* a direct head: each epoch sees each sample in a drawn symmetry (above) */
    /* NULL: the head starts from the value net's own (PolicyData.net) when
     * it has one of the kind trained, else from zeros; a net: from its
     * head instead (of the same width and kind), e.g. the previous round's
     * net when the value net was trained again */
    const Nnue *head_from;
} PolicyTrainOptions;

void policy_train_options_default(PolicyTrainOptions *o);

/* The samples, packed: sample k has n[k] actions from off[k] in idx
 * (action indices), child (children's logits) and target, and its
 * hidden layer at h + k * width. */
typedef struct PolicyData {
    const Nnue *net; /* the value net the inputs are of (held, not owned) */
    int width;       /* 2 * hidden */
    bool direct;     /* a direct head (set before collecting): no children's values, child all 0 */
    Position *pos;   /* symmetries: sample k's position (else NULL) */
    size_t count, cap, acts, acts_cap;
    uint8_t *h, *held_out;
    size_t *off;
    uint16_t *n, *idx;
    float *child, *target;
    uint64_t games, games_val, positions_val, with_visits;
    uint64_t reduced; /* positions of reduced searches left out (study/positions/policy_load.h) */
} PolicyData;

/* Adds one position of game `game` (the games' count so far: what the
 * hold-out draws from) with its legal actions and target (n shares,
 * summing to 1): 0, or ERR_FAIL out of memory. */
int policy_collect(PolicyData *d, const PolicyTrainOptions *o, uint64_t game, const Position *pos,
                   const Action *legal, int n, const float *target, char *err);
void policy_data_free(PolicyData *d);

/* Sample k (with its position: symmetries) seen in symmetry s: the image
 * position's hidden layer into h (2 * hidden values) and its actions'
 * indices into idx (d->n[k] of them, in the sample's order, each the
 * image of the stored one), so that target[i] of the sample is the share
 * of the image's action idx[i]. */
void policy_sample_sym(const PolicyData *d, size_t k, int s, int16_t *h, int *idx);

/* One epoch's figures (held out: NAN without held-out positions). */
typedef struct PolicyEpoch {
    int epoch;
    double train_loss, val_loss, val_top1;
} PolicyEpoch;

/* The figures of the held-out positions under beta, b, w (floats), or
 * under the children's values alone (b and w NULL, beta 1). */
void policy_measure(const PolicyData *d, double beta, const float *b, const float *w, double *loss, double *top1);

/* Trains and writes the net's file with the head: the value net's
 * parameters unchanged and the quantised head (nnue_encode). A net that
 * has a head already is trained on from it (a warm start: the loop's
 * next round), else from beta 1 and zeros. progress (NULL: none) is
 * called after each epoch. The held-out figures of the children's values
 * alone go to *base, of the net's own head before training to *start
 * (NAN without one), of the quantised head to *final. */
int policy_train(const PolicyData *d, const PolicyTrainOptions *o, const char *description,
                 void (*progress)(void *ctx, const PolicyEpoch *e), void *ctx, uint8_t **bytes, size_t *len,
                 PolicyEpoch *base, PolicyEpoch *start, PolicyEpoch *final, char *err);

#endif
