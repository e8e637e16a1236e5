/* The learning loop (`yinsh loop`, issue 55; docs/loop.md): PUCT self-play
 * that teaches its own net, round after round, behind a gate.
 *
 * Net 0 is a net with a linear and a pattern part (feature set 3 to 5,
 * eval/nnue.h); best(0) is net 0. Round k = 1, 2, ... of loop NAME:
 *   1. self-play: the run "NAME.k/selfplay", the agent (PUCT with its
 *      exploration: temp, noise, pcr) with eval=net:best(k-1) on both
 *      sides, every root visit distribution and each search's full or
 *      reduced budget stored (action.full), seed mix(seed, hash of the
 *      run's name);
 *   2. training, on the games of the window, the self-play runs of rounds
 *      max(1, k - window + 1) to k:
 *      a. the value net from best(k-1)'s weights (a warm start, the same
 *         shape), each position's target lambda * its root value (the
 *         search's mean over the root's visits) + (1 - lambda) * the
 *         game's result, every position seen in a symmetry drawn each
 *         epoch (eval/nnue_train.h), seed mix(seed, hash of "NAME.k/value");
 *      b. a direct policy head (feature set 5, eval/nnue_policy.h) on
 *         that value net, from best(k-1)'s direct head when it has one,
 *         else from zeros: the targets the visits of full searches only
 *         (reduced searches left out), the 12 symmetries as augmentation
 *         (planes and targets mapped together, eval/policy_train.h), seed
 *         mix(seed, hash of "NAME.k/policy"); with `yinsh train
 *         --policy`'s head options when given (Loop.policy: child-value
 *         targets, child_temp, child_mix, reduced_too; joint training of
 *         the trunk with the head, joint, trunk_lr, widen, its value
 *         targets the value net's, lambda), each named in the plan, the
 *         .train file and the table when on (off: the files of a loop
 *         without them, byte for byte);
 *      written to DIR/NAME.k.nnue (the candidate), then its figures to
 *      DIR/NAME.k.train;
 *   3. the gate: the gate agent (by default the agent without its
 *      exploration) with the candidate as A against best(k-1) as B, in
 *      colour-swapped pairs from two random placements, under the SPRT,
 *      at most gate_games games, seed mix(seed, hash of "NAME.k/gate");
 *      its verdict to DIR/NAME.k.gate. The candidate is best(k) only when
 *      the SPRT accepts H1; a rejected round (H0, or no decision within
 *      gate_games) keeps its net and its report, and best(k) = best(k-1).
 *   4. DIR/NAME.md, the rounds' table, rewritten whole.
 *
 * Every step is whole or absent: the self-play run is a planned run
 * (resumed exactly when it is unfinished), the files are written whole
 * through a sibling and a rename (engine/base/file.h), and a step whose
 * output is there is not done again. Training is deterministic for fixed
 * games, options and seed on any number of threads, and the gate's tally
 * and SPRT go pair by pair in index order, so a loop killed anywhere
 * (kill -9) and run again with the same command writes the same files as
 * one never stopped: a training cut short is done again (the same
 * bytes), a gate cut short is played again from its first pair (its
 * games are not stored). What each step cost (seconds of wall clock and
 * CPU) is appended to DIR/NAME.costs, the one file that is not the same
 * from one run to the next. */
#ifndef YINSH_LOOP_H
#define YINSH_LOOP_H

#include <stdbool.h>
#include <stdint.h>
#include "eval/nnue_train.h"
#include "eval/policy_train.h"
#include "selfplay/agents/agent.h"
#include "selfplay/match/match.h"
#include "study/plans/planned.h"

enum { LOOP_NAME_LEN = 20, LOOP_MAX_ROUNDS = 1000, LOOP_MAX_WINDOW = 100 };

typedef struct Loop {
    char name[LOOP_NAME_LEN + 1]; /* the runs' and files' prefix */
    AgentSpec agent;  /* self-play: an mcts agent with puct=1 (its eval replaced every round) */
    AgentSpec gate;   /* the gate's agent (its eval replaced) */
    const char *from; /* net 0, a net file */
    const char *dir;  /* where the nets, their figures, the gates, NAME.md and NAME.costs go */
    PlannedOptions where; /* the database, its lock wait, the threads (<= 0: all cores) */
    int rounds;       /* rounds in all (a later command with more rounds goes on) */
    uint32_t games;   /* self-play games a round */
    int window;       /* rounds of games the training reads, 1..LOOP_MAX_WINDOW */
    double lambda;    /* the root value's share of the value target, 0..1 */
    NnueTrainOptions value;    /* epochs, lr, batch, val_frac, min_ply; the rest the loop's */
    /* epochs, lr, batch, val_frac, and the head options child_temp,
     * child_mix, reduced_too, joint, trunk_lr, widen (checked by the
     * caller as `yinsh train --policy` checks them); the rest the loop's */
    PolicyTrainOptions policy;
    MatchSprt sprt;   /* the gate's test (on) */
    uint32_t gate_games; /* at most this many gate games (even) */
    uint64_t seed;
} Loop;

/* One round: its steps' figures (NAN, 0: not reached). */
typedef struct LoopRow {
    int k;
    int best_before;  /* the round whose net played (0: net 0) */
    char selfplay_run[STORE_NAME_LEN];
    char net[AGENT_PATH_LEN]; /* the candidate, DIR/NAME.k.nnue */
    bool trained, gated;
    /* training: the window's games and positions, the value net's held-out
     * log-loss against the targets before (best(k-1)) and after, the
     * head's held-out cross-entropy and top-1 against the visits (uniform
     * priors; best(k-1)'s head on the new value net; the new head) */
    int window_from;
    uint64_t games;
    uint64_t value_positions, value_positions_val;
    double value_loss_before, value_loss_after;
    uint64_t policy_positions, policy_positions_val, policy_reduced;
    bool reduced_too;  /* the reduced searches' positions were samples too (counted in policy_positions) */
    double policy_base, policy_start, policy_final;
    double policy_top1_base, policy_top1_final;
    /* the gate: the candidate's tally, its Elo from the pairs, the SPRT */
    MatchTally tally;
    Interval elo;
    double llr, lower, upper;
    int verdict;       /* 1: H1 accepted, -1: H0 accepted, 0: no decision within gate_games */
    bool promoted;     /* verdict 1: the candidate is best(k) */
    uint64_t gate_hash;
} LoopRow;

/* Checks the loop before anything happens: a name that is a planned word
 * of 1 to LOOP_NAME_LEN characters, an mcts agent with puct=1 and a gate
 * agent likewise, sizes in range, DIR an existing folder that can be
 * written, a net 0 with a linear and a pattern part. 0, or -1 with the
 * reason in err (a usage error). */
int loop_check(const Loop *l, char *err);

/* The gate agent of an agent: its exploration turned off (temp, tempmoves,
 * noise and pcr at 0). 0, or -1 with err. */
int loop_default_gate(const AgentSpec *agent, AgentSpec *gate, char *err);

/* Whether the loop l (const Loop *) writes a file of that name into its
 * folder: NAME.md, NAME.costs, or NAME.k.nnue, .train, .gate of a round k
 * from 1 to l->rounds. */
bool loop_writes_file(const char *name, const void *l);

/* The candidate of round k (k = 0: net 0) into path (AGENT_PATH_LEN). */
void loop_net_path(const Loop *l, int k, char *path);

typedef struct LoopHooks {
    /* plays or resumes a planned run (its state MISSING or UNFINISHED;
     * COMPLETE: nothing to play); 0, or the exit status after saying why */
    int (*play)(void *ctx, const Planned *run);
    /* told of each step's end (may be NULL): "selfplay", "train", "gate" */
    void (*step)(void *ctx, const LoopRow *row, const char *step, bool done_before);
    /* the gate's progress (may be NULL): its tally so far */
    void (*gate_progress)(void *ctx, const MatchTally *t, uint64_t games);
    void *ctx;
    const atomic_bool *interrupt; /* NULL, or set from outside: stop between games and steps */
} LoopHooks;

/* Plays the loop's rounds: rows (l->rounds entries) receive them, *best
 * the round whose net is best at the end (0: net 0). 0; a hook's positive
 * status; 1 when the interrupt stopped it (nothing half written); or a
 * negative code with a message in err (ERR_EXISTS: a stored run under a
 * round's name that another plan made, or a round's file made by another
 * plan: each file names the plan it was made for, a hash of the options
 * and nets it depends on; a .train file made with other head options
 * than the loop's is refused naming the first that differs). */
int loop_run(const Loop *l, const LoopHooks *h, LoopRow *rows, int *best, char *err);

/* A step's end as a line (a hook's `step`): "round K/R: self-play RUN
 * with net B", the training's losses, or the gate's verdict; " (done
 * before)" when done_before. */
void loop_step_write(FILE *f, const LoopRow *r, const char *step, int rounds, bool done_before);

/* The rounds' table as markdown (DIR/NAME.md's contents) into f. */
void loop_table_write(FILE *f, const Loop *l, const LoopRow *rows, int n, int best);

#endif
