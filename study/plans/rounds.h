/* Rounds of self-play, fit and match (`yinsh rounds`, docs/rounds.md):
 * an agent with an evaluation plays itself, the weights are fitted to
 * those games (eval/tune.h), and the new weights play the old ones; while
 * a round gains, the next one starts from its weights.
 *
 * W_0 is the starting weights file; round k = 1, 2, ... of rounds NAME:
 *   1. the self-play run "NAME.k/selfplay": the agent with eval = W_{k-1}
 *      on both sides, random ring placements (OPENING_RINGS, so that a
 *      deterministic agent still plays varied games), seed
 *      rng_mix(seed, hash of the run's name);
 *   2. the fit of that run's games from W_{k-1} (default TuneOptions),
 *      written to DIR/NAME.k.txt (weights_save: whole or not at all);
 *   3. the match run "NAME.k/new-vs-old": the gauntlet tournament NAME.k
 *      (study/plans/tournament.h) of `new` (eval = W_k) against `old` (eval =
 *      W_{k-1}), colour-swapped pairs from shared ring placements;
 *   4. the round gains when the lower end of the 95% interval of new's Elo
 *      (from the pairs, as `yinsh match` prints it) is above 0. A round
 *      that does not gain ends the rounds, and the result is W_{k-1}.
 *
 * With net (`yinsh rounds --net`), the W are nets (eval/nnue.h): W_0 is
 * a net file (or builtin, the net built into the binary), the agent plays
 * with eval=net:W_{k-1}, and step 2 trains a net from scratch on exactly
 * the round's self-play games (eval/nnue_train.h: the options of
 * r->train, the seed rounds_train_seed(r, k), r->where.threads), written
 * to DIR/NAME.k.nnue (nnue_save: whole or not at all). Training is
 * deterministic for fixed games, options and seed, on any number of
 * threads, so a rerun writes the same bytes.
 *
 * Nothing but runs is stored. Every round is a function of the runs'
 * games, so running the rounds again on the same database reuses the
 * complete runs, resumes an unfinished one, refits (the same file) and
 * plays on: a killed run, resumed, ends where an uninterrupted one does. A
 * stored run under a round's name that another plan made is refused.
 *
 * Every run is a planned run (study/plans/planned.h); playing one is the
 * caller's (cli/: progress, signals, through planned_play): rounds_run
 * calls its hook for each run to play or resume. */
#ifndef YINSH_ROUNDS_H
#define YINSH_ROUNDS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "selfplay/agents/agent.h"
#include "selfplay/match/match.h"
#include "study/plans/planned.h"
#include "study/plans/tournament.h"
#include "eval/tune.h"
#include "eval/nnue_train.h"

enum { ROUNDS_NAME_LEN = 20, ROUNDS_MAX = 1000 };

typedef struct Rounds {
    char name[ROUNDS_NAME_LEN + 1]; /* the runs' and files' prefix */
    AgentSpec agent;  /* the spec; its eval is replaced in every round */
    const char *from; /* W_0, a weights file (net: a net file, or AGENT_NET_BUILTIN) */
    const char *dir;  /* where NAME.k.txt (NAME.k.nnue) and NAME.csv are written */
    bool net;         /* the W are nets, trained (r->train) rather than fitted */
    bool warm;        /* with net: round k's training starts from W(k-1)'s weights (r->train's shape) */
    NnueTrainOptions train; /* with net: hidden, l2, epochs, lambda, ...; the seed and threads are replaced */
    PlannedOptions where; /* the database, its lock wait, the threads (<= 0: all cores; the fit's too) */
    int rounds;       /* at most this many */
    uint32_t games;   /* self-play games per round */
    uint32_t pairs;   /* match pairs per round */
    uint64_t seed;
    PlayControls controls; /* every run's time controls (scheduler.h) */
} Rounds;

/* One round played: its runs, its fit and its match. */
typedef struct RoundRow {
    int k;                                  /* 1, 2, ... */
    char selfplay_run[STORE_NAME_LEN], match_run[STORE_NAME_LEN];
    char weights[AGENT_PATH_LEN];           /* W_k, DIR/NAME.k.txt (DIR/NAME.k.nnue) */
    uint64_t games, games_val;              /* self-play games fitted (validation ones among them) */
    size_t positions, positions_val;        /* positions (validation ones among them) */
    double loss_before[2], loss_after[2];   /* [train, validation] log-loss of W_{k-1} and of W_k
                                             * (nets: against the training targets, quantised nets) */
    MatchTally tally;                       /* new's games */
    Interval elo;                           /* new - old, from the pairs */
    bool gains;
} RoundRow;

/* Checks the rounds before anything happens: a name that is a
 * planned_word of 1 to ROUNDS_NAME_LEN characters, an agent with an
 * evaluation (ab, or mcts with rollout=N), sizes in range, DIR an
 * existing folder that can be written, paths that fit a spec (no ','), and
 * with net a training of hidden 16 to 256 in steps of 16, l2 0 to 32,
 * epochs 1 to NNUE_TRAIN_MAX_EPOCHS, lambda 0 to 1; without net, an agent
 * that names no net. 0, or -1 with the reason in err (a usage error). */
int rounds_check(const Rounds *r, char *err);

/* The path of W_k (k = 0: the starting file) into path (AGENT_PATH_LEN). */
void rounds_weights_path(const Rounds *r, int k, char *path);

/* The training seed of round k (net): rng_mix(seed, hash of "NAME.k/train"). */
uint64_t rounds_train_seed(const Rounds *r, int k);

/* The hooks: `play` plays or resumes one planned run, the self-play run
 * or the match of a round (its state MISSING: play it; UNFINISHED: resume
 * it; COMPLETE: nothing to play, the hook may say so), and returns 0, or
 * the exit status after saying why. `fitted` and `judged` (may be NULL)
 * are told of a round's fit and match. */
typedef struct RoundsHooks {
    int (*play)(void *ctx, const Planned *run);
    void (*fitted)(void *ctx, const RoundRow *row);
    void (*judged)(void *ctx, const RoundRow *row);
    void *ctx;
} RoundsHooks;

/* Plays the rounds: rows (r->rounds entries) receive the rounds played,
 * *nrows their number, *best the round whose weights are the result (0:
 * the starting weights). DIR/NAME.csv is rewritten after every round.
 * 0; a hook's positive status (said by it); or a negative code with a
 * message in err: ERR_EXISTS when the database holds a run under a
 * round's name that another plan made ("database 'D': what differs; the
 * rounds ask for another run under that name"; with net also when a
 * stored match played another net as new than the round's training
 * gives, refused before the file is replaced), else ERR_FAIL. */
int rounds_run(const Rounds *r, const RoundsHooks *h, RoundRow *rows, int *nrows, int *best, char *err);

/* Writes the rows as CSV (whole, through a sibling file and a rename): a
 * header and one row per round. 0, or -1 with err. */
int rounds_csv_write(const char *path, const RoundRow *rows, int n, char *err);

#endif
