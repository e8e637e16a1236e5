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
    /* Child-value targets (issue 55, distillation): child_temp > 0 gives
     * each sample a second target, the softmax over its legal actions of
     * L(a) / child_temp, L(a) the value net's settled logit of the child
     * for the side that chose it (nnue_policy_inputs: what a head-less
     * net's priors, and pv32's children's part, are made of; 1: their
     * temperature), held in PolicyData.ctarget and measured beside the
     * stored one. The head is trained on (1 - child_mix) x stored +
     * child_mix x child (child_mix in [0, 1], default 0: the stored
     * target alone; > 0 needs child_temp). reduced_too (with child_mix
     * > 0): the positions of reduced searches are samples too, their
     * stored target no target (PolicyData.stored_ok 0: trained on the
     * child target alone, left out of the figures against the stored
     * one). */
    double child_temp;
    double child_mix;
    bool reduced_too;
    /* Joint training (issue 55): joint > 0 trains the first layer (w1,
     * b1) and the value output (w2, b2) with the head, on the loss
     * policy cross-entropy + joint x the value's log-loss against
     * lambda x root value + (1 - lambda) x result (positions in states P
     * and M; lambda below, default 0.5), the first layer's step
     * trunk_lr (default 0.0005) falling as the head's; the linear and
     * pattern parts stay the value net's. Needs a direct head, samples
     * that keep their positions (PolicyData.pos: symmetries or joint
     * set before collecting) and a net without a second layer. */
    double joint;
    double lambda;
    double trunk_lr;
    /* joint: 0, the net's width; else the trained net's hidden units a side
     * (a multiple of 16, at least the net's: policy_joint_widen) */
    int widen;
} PolicyTrainOptions;

void policy_train_options_default(PolicyTrainOptions *o);

/* The samples, packed: sample k has n[k] actions from off[k] in idx
 * (action indices), child (children's logits) and target, and its
 * hidden layer at h + k * width. */
typedef struct PolicyData {
    const Nnue *net; /* the value net the inputs are of (held, not owned) */
    int width;       /* 2 * hidden */
    bool direct;     /* a direct head (set before collecting): no children's values, child all 0 */
    Position *pos;   /* symmetries or joint: sample k's position (else NULL) */
    float *ctarget;  /* child_temp > 0: the child-value targets, as target (else NULL) */
    uint8_t *stored_ok; /* whether sample k's stored target is one (0: a reduced search's, reduced_too) */
    float *vtarget;  /* joint: sample k's value target for its actor (NAN: none, not in P or M) */
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
/* The same with what a sample may carry besides: stored_ok false when
 * target is no policy target (a reduced search's: reduced_too), and the
 * value target (the actor's, in [0, 1]; NAN: none) that joint training
 * reads. policy_collect is this with true and NAN. */
int policy_collect_full(PolicyData *d, const PolicyTrainOptions *o, uint64_t game, const Position *pos,
                        const Action *legal, int n, const float *target, bool stored_ok, double value_target,
                        char *err);
/* The child-value target of pos (not over) with legal actions legal[0 ..
 * n) under net at temperature temp (> 0): softmax of L(a) / temp into t. */
void policy_child_target(const Nnue *net, const Position *pos, const Action *legal, int n, double temp, float *t);
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
    /* against the child-value targets (NAN without them), and the value's
     * held-out log-loss against the value targets (NAN without them) */
    double val_loss_child, val_top1_child, val_value;
} PolicyEpoch;

/* The figures of the held-out positions under beta, b, w (floats), or
 * under the children's values alone (b and w NULL, beta 1). */
void policy_measure(const PolicyData *d, double beta, const float *b, const float *w, double *loss, double *top1);
/* The held-out figures of a whole net with a direct head, from scratch:
 * each held-out position's hidden layer under net (nnue_policy_hidden),
 * its head's integers, against the stored targets (those that are
 * targets), against the child-value targets (with them), and the value's
 * log-loss (nnue_evaluate) against the value targets (with them). */
void policy_measure_net(const PolicyData *d, const Nnue *net, PolicyEpoch *e);

/* The held-out figures of the child-value targets themselves as the
 * priors (a head-less net's at child_temp 1): against the stored targets
 * (what the children's values alone say of the visits) and against
 * themselves (their entropy: the floor of any head's cross-entropy
 * against them). NANs without child targets. */
void policy_measure_child_prior(const PolicyData *d, PolicyEpoch *e);

/* Joint training's float net (PolicyTrainOptions.joint): w1 as NNUE_ROWS
 * rows of hidden (the rows in memory, as nnue_float_params), b1, w2
 * (2 * hidden), b2, the head's w (ENCODE_ACTIONS rows of 2 * hidden) and
 * b (ENCODE_ACTIONS), each over its scale; n floats in all. */
typedef struct PolicyJointNet {
    int hidden;
    size_t n;
    float *w1, *b1, *w2, *b2, *w, *b; /* into one block of n */
} PolicyJointNet;
/* A joint net of net's trunk and value output and its direct head (zeros
 * without one; head_from's head when given), or (net NULL) all zeros of
 * `hidden` units a side (a gradient, Adam's moments): 0, or ERR_FAIL out
 * of memory or for a net with a second layer. */
int policy_joint_init(PolicyJointNet *j, int hidden, const Nnue *net, const Nnue *head_from, char *err);
void policy_joint_free(PolicyJointNet *j);
/* j widened to `hidden` units a side (a multiple of 16, at least j's,
 * up to NNUE_MAX_HIDDEN): the old units as they were, each new unit's
 * first-layer weights drawn from the seed in (-0.05, 0.05) (0 for the
 * rows of points off the board), its bias 0.5 and its weights in the
 * value output and the head 0, so that the value and the priors are
 * those of j until training moves them. 0, or ERR_FAIL (err). */
int policy_joint_widen(PolicyJointNet *j, int hidden, uint64_t seed, char *err);
/* The joint loss of sample k seen in symmetry s with target t (its
 * actions' shares, as PolicyData.target): the cross-entropy plus joint x
 * the value's log-loss against vtarget[k] (when not NAN), the value's
 * logit b2 + w2 . h plus the value net's linear and pattern parts
 * (d->net's, fixed). With g (NULL: none, a net of the same hidden,
 * zeroed by the caller) the gradient times scale is added into it.
 * *value_loss (NULL: not wanted) gets the value's log-loss (NAN: none). */
double policy_joint_sample(const PolicyData *d, const PolicyJointNet *j, size_t k, int s, const float *t,
                           double joint, double scale, PolicyJointNet *g, double *value_loss);

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
