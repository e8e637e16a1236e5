/* Tuning by matches (`yinsh spsa`): SPSA (eval/spsa.h) whose every
 * iteration is a match between the agent at the plus point and at the
 * minus point.
 *
 * Nothing but runs is stored: iteration k (0, 1, ...) of SPSA run NAME is
 * the two-player tournament NAME.k (study/plans/tournament.h) of `plus` against
 * `minus`, so its games are the ordinary match run "NAME.k/plus-vs-minus"
 * (colour-swapped pairs from shared openings, seeded from the seed and the
 * run name), a planned run (study/plans/planned.h). Iteration k's points
 * depend on the seed (the signs) and on the results of iterations
 * 0..k-1 alone, so running the same command again recomputes the same
 * path from the stored games, resumes the unfinished iteration and plays
 * on: a killed run, resumed, ends where an uninterrupted one does. A
 * stored run whose plan differs (other gains, parameters or agent) is
 * refused by the tournament's check.
 *
 * A parameter's name is a key of the agent's spec (agent_spec_set: c,
 * sims, rollout, depth, ...); its value is written into the spec as text
 * (an integer parameter rounded), so the stored specs say what was
 * played. A name w.FEATURE (w.markers, w.lines4, ...: FEATURE_NAMES) is
 * an evaluation weight, for an agent with an evaluation (ab, or mcts with
 * rollout=N): the weights (the agent's own, these set) are written to
 * WEIGHTS_DIR/LABEL.txt (e.g. NAME.k.plus.txt) and the spec's eval names
 * that file, whose content hash the run stores as for any weights file;
 * running the command again writes the same files. */
#ifndef YINSH_SPSA_MATCH_H
#define YINSH_SPSA_MATCH_H

#include <stdint.h>
#include "selfplay/agents/agent.h"
#include "selfplay/match/match.h"
#include "eval/spsa.h"
#include "study/plans/tournament.h"

enum { SPSA_RUN_NAME_LEN = 20, SPSA_MAX_ITERATIONS = 100000 };

typedef struct SpsaRun {
    char name[SPSA_RUN_NAME_LEN + 1];
    AgentSpec agent; /* the spec the parameters are set in */
    SpsaParam params[SPSA_MAX_PARAMS];
    int nparams;
    SpsaGains gains;
    int iterations;
    uint32_t pairs;  /* game pairs per iteration */
    uint64_t seed;
    int variant;
    char weights_dir[AGENT_PATH_LEN / 2]; /* where w.* parameters' weights files go */
    PlayControls controls; /* every iteration's time controls (scheduler.h) */
} SpsaRun;

/* Whether a parameter is an evaluation weight (w.FEATURE), and which. */
bool spsa_weight_param(const char *name, int *feature);

/* One iteration: where it played, and what came of it. */
typedef struct SpsaStep {
    int k;
    double ak, ck;
    int8_t delta[SPSA_MAX_PARAMS];
    double u[SPSA_MAX_PARAMS];                 /* the point before the step, in units of the range */
    double plus[SPSA_MAX_PARAMS], minus[SPSA_MAX_PARAMS]; /* in units */
    MatchTally tally;                          /* plus's games */
    double result;                             /* (wins - losses) / games of plus */
} SpsaStep;

/* Checks the run: a name that is a planned_word, at least one parameter, names given once, each a key the agent takes at
 * its start value. 0, or -1 with the reason in err. */
int spsa_run_check(const SpsaRun *s, char *err);

/* The agent with the parameters at u (units); its canonical text into
 * text (SPEC_LEN). With weight parameters, label names the weights file
 * written for it (NULL: none is written, the weights are set in memory
 * only, for checks). 0, or -1 with the reason in err. */
int spsa_agent_at(const SpsaRun *s, const double *u, const char *label, AgentSpec *spec, char *text, char *err);

/* Iteration k from the point u: fills the step's gains, signs and points
 * and makes its tournament (tournament_free frees it). 0, or -1. */
int spsa_iteration(const SpsaRun *s, int k, const double *u, SpsaStep *step, Tournament *t, char *err);

/* The iteration's result from plus's tally, and the next point. */
void spsa_step_finish(const SpsaRun *s, SpsaStep *step, const MatchTally *tally, double *u_next);

/* Writes the path as CSV (whole, through a sibling file and a rename):
 * a header, one row per iteration (its point, plus and minus values, the
 * signs, plus's results) and a last row with the final point. */
int spsa_path_write(const char *path, const SpsaRun *s, const SpsaStep *steps, int n, const double *u_final,
                    char *err);

/* The hooks of spsa_run: `play` plays or resumes iteration k's match, a
 * planned run (its state COMPLETE: nothing to play), and returns 0, or
 * the exit status after saying why; `stepped` (may be NULL) is told of
 * each iteration's result and of the point u it moves to. */
typedef struct SpsaHooks {
    int (*play)(void *ctx, const Planned *run);
    void (*stepped)(void *ctx, const SpsaStep *step, const double *u);
    void *ctx;
} SpsaHooks;

/* The iterations, each from the point the last one reached: steps
 * (s->iterations entries) receive them, u (SPSA_MAX_PARAMS) the final
 * point; the path is rewritten to `path` after every iteration. 0; a
 * hook's positive status (said by it); or a negative code with a message
 * in err: ERR_USAGE when an iteration's agents cannot be made, ERR_EXISTS
 * when the database holds a run under an iteration's name that another
 * plan made, else ERR_FAIL. */
int spsa_run(const SpsaRun *s, const PlannedOptions *o, const char *path, const SpsaHooks *h, SpsaStep *steps,
             double *u, char *err);

#endif
