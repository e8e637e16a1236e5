/* Training a net (eval/nnue.h) on positions of stored games: `yinsh train`.
 *
 * 1. Positions (nnue_collect_game, for each stored game that
 *    study/positions/train_load.c hands over): each game is replayed once
 *    from its actions; a game whose actions (and variant) are those of a
 *    game met before counts once (deterministic agents repeat games). The
 *    positions kept are those before each action from ply min_ply on, in
 *    the states the search evaluates (P and M: removals are searched
 *    through, never judged). Each has the game's result for the side to
 *    act (1, 1/2, 0) and a target: lambda * v + (1 - lambda) * result,
 *    where v is the search's stored value of the action chosen there (the
 *    actor's expected score), or the result alone where none was stored.
 *    Whole games are held out for validation by the hash of their
 *    identity, as the linear tuner holds them out (eval/tune.h).
 * 2. Training: the float network of nnue.h (the same inputs, hidden
 *    layer and clipping to [0, 1]) minimising the log-loss of the
 *    logistic of its output against the target, with Adam on minibatches
 *    in a shuffled order, the step decaying from lr to lr / 10 over the
 *    epochs. With `symmetry`, each training position is seen in one of
 *    the board's 12 symmetries (6 rotations, each with or without a
 *    reflection: the rules are the same in all of them), drawn anew each
 *    epoch: twelve positions for one, where the positions of one game are
 *    otherwise so alike that a net learns the games and not the game. Weights are clipped after each step so that the quantised
 *    net's int16 accumulators cannot wrap (|w1|, |b1| <= 1.8: 71 rows of
 *    round(1.8 * 255) stay below 32767).
 * 3. Quantisation: w1, b1 times QA, the later weights times QW, their
 *    biases times QA * QW, rounded; the loss of the quantised net (the
 *    integers the search will use) is computed beside the float one.
 *
 * Determinism: the initial weights and every epoch's order come from
 * streams of the seed (rng_stream); a minibatch is cut into
 * NNUE_TRAIN_CHUNKS fixed chunks whose gradients are summed in chunk
 * order, so the net is the same, byte for byte, on any number of
 * threads. A checkpoint holds everything the rest depends on (weights,
 * Adam's moments and step, the position in the epoch, the losses so
 * far): a run resumed from one ends with the net of a run never stopped. */
#ifndef YINSH_NNUE_TRAIN_H
#define YINSH_NNUE_TRAIN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "eval/evaluation.h"
#include "eval/nnue.h"

enum { NNUE_TRAIN_CHUNKS = 16, NNUE_TRAIN_MAX_EPOCHS = 1000 };

typedef struct NnueTrainOptions {
    uint64_t seed;   /* default 1 */
    int epochs;      /* 1..NNUE_TRAIN_MAX_EPOCHS, default 10 */
    int hidden;      /* accumulator width, default 64 */
    int l2;          /* second layer units, 0 (default): none */
    double lambda;   /* [0, 1]: the search value's share of the target, default 0.5 */
    /* the search value of the target: false (default), the chosen action's
     * (action.value); true, the position's (action.root_value, the root's
     * mean over all its visits: AlphaZero's and KataGo's value target) */
    bool root_value;
    double lr;       /* Adam's first step, default 0.001 */
    int batch;       /* positions per step, default 1024 */
    double val_frac; /* [0, 1): share of games held out, default 0.1 */
    int min_ply;     /* default 0 */
    bool symmetry;   /* default true: positions in a random symmetry of the board each epoch */
    int threads;     /* <= 0: omp_get_max_threads() */
    /* 0 (default): every position; N: games are collected, in the order
     * given, until N positions are held (the last game whole), the rest
     * left out: the same data cut to size, for strength against data size */
    size_t max_positions;
    /* leave out the positions that are not quiet (movegen_row_in_reach:
     * a row of the actor's in reach), which the search never judges
     * without its quiescence step */
    bool quiet_only;
    /* NULL (default): random initial weights from the seed; a net: start
     * from its weights (a warm start), which must be of `hidden` and `l2`,
     * and have a linear part exactly when `linear` is set, and a pattern
     * part only when `patterns` is (without one, that part starts at 0) */
    const Nnue *init;
    /* a linear part (nnue.h, feature set 2): the linear evaluation's
     * features added to the output, their weights trained with the net's,
     * starting from linear_start (without init) */
    bool linear;
    Weights linear_start;
    /* a pattern part (nnue.h, feature set 3; needs `linear`): a weight per
     * line-pattern class (eval/patterns.h), starting from 0 (or from init's
     * when it has one), trained with the net's */
    bool patterns;
} NnueTrainOptions;

void nnue_train_options_default(NnueTrainOptions *o);

/* The board's symmetries: map[k][p] is the image of point p under
 * symmetry k (0: the identity; 1..5 the rotations by k * 60 degrees;
 * 6..11 those after a reflection); points off the board map to themselves. */
enum { NNUE_SYMMETRIES = 12 };
void nnue_train_symmetries(uint8_t map[NNUE_SYMMETRIES][SQUARE_NB]);

/* A training position: the target and the result are the side to act's. */
typedef struct NnueSample {
    Position pos;
    float target, result;
    float lf[FEAT_NB]; /* with a linear part: the features in the actor's view (the same in every symmetry) */
} NnueSample;

typedef struct NnueData {
    NnueSample *train, *val;
    size_t n_train, n_val;
    size_t with_value;         /* positions whose target has a search value */
    uint64_t games, games_val; /* games kept, those held out among them */
    uint64_t duplicates;       /* games left out: the actions of a game kept */
    uint64_t capped;           /* games left out past max_positions */
    uint64_t noisy;            /* positions left out by quiet_only */
    uint64_t hash;             /* of every sample, in order: what a checkpoint is of */
} NnueData;

/* The collector (set o; the rest starts zeroed), as tune.h's: a game at a
 * time, then finish. values[ply] is the stored value of the action at
 * ply (NAN where none; values may be NULL). An action that does not
 * replay is an error naming the game; no position at all, or none to
 * train on, is an error of finish. */
typedef struct NnueCollector {
    const NnueTrainOptions *o;
    NnueSample *s;
    uint8_t *val;
    size_t n, cap;
    uint64_t *seen; /* hashes of the games' action sequences: an open-addressing set */
    size_t nseen, seen_cap;
    uint64_t games, games_val, duplicates, capped, noisy;
} NnueCollector;

int nnue_collect_game(NnueCollector *c, const char *ident, uint32_t index, int variant, int result,
                      const char *const *actions, const double *values, int nactions, char *err);
int nnue_collect_finish(NnueCollector *c, NnueData *d, char *err);
void nnue_collect_free(NnueCollector *c);
void nnue_data_free(NnueData *d);

/* One epoch's figures. Losses are mean log-losses: train against the
 * targets (over the epoch, as the weights moved), validation against the
 * targets and against the results alone. */
typedef struct NnueEpoch {
    int epoch;                          /* from 1 */
    double lr;
    double train, val_target, val_result; /* val_*: NAN without validation positions */
    double seconds;                     /* training time of the epoch (a resumed one: since the resume) */
} NnueEpoch;

typedef struct NnueTrainer NnueTrainer;

/* A trainer at the start of training on d (which it reads, never copies:
 * keep d until the trainer is freed). */
int nnue_trainer_new(NnueTrainer **out, const NnueTrainOptions *o, const NnueData *d, char *err);
void nnue_trainer_free(NnueTrainer *t);

/* Trains from where the trainer stands: minibatches of the current epoch
 * until it ends (1, with its figures in *done) or `seconds` have passed
 * at the end of a minibatch (0: a moment to checkpoint or show
 * progress). 2 when every epoch is done. */
int nnue_trainer_run(NnueTrainer *t, double seconds, NnueEpoch *done);
/* Where the trainer stands: the epoch (from 0) and the positions of it done. */
void nnue_trainer_progress(const NnueTrainer *t, int *epoch, size_t *positions);
/* The figures of the epochs done so far (history[0 .. epochs done - 1]). */
const NnueEpoch *nnue_trainer_history(const NnueTrainer *t, int *n);

/* The checkpoint: written whole (base/file.h). resume reads one and
 * refuses a checkpoint of other options or data, naming what differs,
 * or a damaged one (ERR_FAIL); ERR_NOT_FOUND when there is none. */
int nnue_trainer_save(const NnueTrainer *t, const char *path, char *err);
int nnue_trainer_resume(NnueTrainer *t, const char *path, char *err);

/* The quantised net's file bytes (nnue_encode) with this description. */
int nnue_trainer_quantise(const NnueTrainer *t, const char *description, uint8_t **bytes, size_t *len, char *err);
/* The float net's loss over the training or validation positions, against
 * the targets or the results. */
double nnue_trainer_loss(const NnueTrainer *t, bool val, bool result);

/* What a trained net's description says of its training, without paths
 * or times (so the same training gives the same bytes wherever it
 * writes): "seed S, E epochs, hidden H, ...; N positions (V validation)
 * of G games, data HASH", into out (len bytes). */
void nnue_train_describe(char *out, size_t len, const NnueTrainOptions *o, const NnueData *d);

/* The one training driver (`yinsh train`, `yinsh rounds --net`): a
 * trainer on d from the start, or with resume from the checkpoint (none
 * there: from the start), trained in slices of at most a second. Between
 * slices the checkpoint is written (after each epoch, every `every`
 * seconds, and when *stop is set; never after the last epoch) and the
 * slice hook told where the training stands; when *stop is set the
 * training ends there. At the end: the quantised net's file bytes with
 * the description, the float net's losses and its epochs. The same
 * options and data give the same bytes however the training was sliced,
 * stopped and resumed. */
typedef struct NnueTrainRun {
    const char *description;  /* the net's (nnue_trainer_quantise) */
    const char *checkpoint;   /* NULL or "": none kept */
    double every;             /* seconds between checkpoints */
    bool resume;              /* go on from the checkpoint */
    const atomic_bool *stop;  /* NULL, or set by another thread (a signal's handler): stop */
    /* each NULL or called with ctx: after a resume (resumed: false when
     * there was no checkpoint), where the trainer then stands; after each
     * slice, with the figures of the epoch it ended (NULL: none ended),
     * the epoch it stands in (from 0) and the positions trained in all
     * the epochs so far */
    void (*resumed)(void *ctx, bool resumed, int epoch, size_t position);
    void (*slice)(void *ctx, const NnueEpoch *ended, int epoch, uint64_t at);
    void *ctx;
} NnueTrainRun;

typedef struct NnueTrained {
    uint8_t *bytes;     /* the net file (nnue_encode), len bytes */
    size_t len;
    double loss[2][2];  /* the float net's (nnue_trainer_loss): [train, validation][target, result] */
    NnueEpoch *history; /* every epoch's figures, epochs of them */
    int epochs;
    double seconds;     /* spent training in this call */
    uint64_t positions; /* positions trained in this call */
} NnueTrained;

/* 0 with *out filled (free it with nnue_trained_free); 1 when *stop ended
 * the training before its last epoch (the checkpoint, if any, saved;
 * nothing in *out but the time and positions); ERR_FAIL with err. */
int nnue_train(const NnueTrainOptions *o, const NnueData *d, const NnueTrainRun *run, NnueTrained *out, char *err);
void nnue_trained_free(NnueTrained *t);

/* Mean log-loss of a (quantised) net over the training (val false) or
 * validation positions, against the targets (result false) or results;
 * NAN with no positions. */
double nnue_data_loss(const Nnue *net, const NnueData *d, bool val, bool result, int threads);
/* The same for the linear evaluation (its logit turned to the side to
 * act's), or (w NULL) for the constant prediction of the training
 * positions' mean target or result: the floors a net must beat. */
double nnue_data_loss_linear(const Weights *w, const NnueData *d, bool val, bool result, int threads);

/* The checkpoint kept beside a net written to `out` (`yinsh train`):
 * OUT.ckpt, or "" when the net is streamed (standard output, a FIFO, a
 * device: no file to keep one beside). 0, or ERR_USAGE when the name
 * would not fit in len bytes (with room for 4 more). */
int nnue_checkpoint_name(const char *out, char *ckpt, size_t len);
/* Whether a checkpoint of that name is there (an unfinished training). */
bool nnue_checkpoint_exists(const char *ckpt);

/* The losses (nnue_data_loss) of the constant prediction, a baseline's
 * weights (NaN without one), the float net and the quantised net:
 * [k][validation][result]. */
typedef double NnueLosses[4][2][2];

/* The end of a training: the trained net decoded (*net, free it with
 * nnue_free), the losses of it and the others on d, the net saved to out
 * (whole), then the checkpoint ckpt ("" or NULL: none) removed. 0, or
 * ERR_FAIL with a message in err; a checkpoint that cannot be removed
 * leaves the net saved and says so in warn (ERR_LEN bytes; "" when
 * none). */
int nnue_train_save(const NnueTrained *tr, const NnueData *d, const Weights *baseline, int threads, const char *out,
                    const char *ckpt, Nnue **net, NnueLosses losses, char *warn, char *err);

#endif
