/* Agents: who chooses the actions of a side. An agent is named by a spec a
 * user can type:
 *
 *   random                              a uniformly random legal action
 *   mcts                                MCTS with the defaults below
 *   mcts:sims=800,c=1.2,rollout=random  MCTS with parameters
 *   mcts:sims=800,rollout=8,eval=eval/weights/tuned.txt
 *                                       MCTS whose leaves are scored by the
 *                                       evaluation after 8 random actions
 *
  * MCTS keys: sims (simulations per decision, 1..10000000, default 200:
 * `mcts` alone is the default agent of `yinsh selfplay`; the default
 * bounds only a search without a time limit, one given bounds every
 * search: agent_spec_uncapped),
 * c (UCT exploration constant, 0..100, default 1.0), rollout (how leaves
 * are played out: `random`, the default, plays random actions to the end
 * of the game; an integer N, 0..1000, plays at most N random actions and
 * then scores the position with the evaluation, eval/evaluation.h), eval
 * (the weights file for rollout=N; without it the built-in defaults of
 * eval/weights/default.txt), nodes (the tree's arena bound in nodes,
 * 2..2^28, default enough for a fresh search of sims simulations).
 *
 *   ab:depth=4,tt=16,eval=eval/weights/tuned.txt
 *                                       alpha-beta (selfplay/search/ab.h)
 *
 * ab keys: depth (placements and moves searched ahead, 1..64, default 3;
  * under a time limit the cap of iterative deepening), maxdepth (1..64:
 * the cap under a time limit, a node budget or until_stop instead of
 * depth, never under a stop flag alone, so that an agent is bounded at
 * `depth` without a clock and deepens while its time lasts with one;
 * written only when set), tt (the
 * transposition table in MiB, 1..4096, default 16), eval (the weights
 * file; without it the built-in defaults), tech (the techniques beyond
 * the search of commit 8f70ac8, names joined by '+': killers, asp, lmr,
 * nmp or nmp2, fut, qs, or none; search/ab.h says what each does; written only
 * when set, in that order), tempo (score units added to every evaluation
 * for the side to act, -100000..100000; written only when set), threads
 * (T threads search one position together: Lazy SMP over the shared
 * table, search/ab.h; 1..64, default 1, written only when above 1; not
 * reproducible when T > 1, and meant for analysis: the `threads` option
 * of `yinsh uyi`; in self-play, as mcts's threads below, G games times T
 * at most the cores). A spec
 * without tech and tempo searches as 8f70ac8 did, node for node, so a
 * stored game replays. An ab agent draws nothing from
 * the rng: at a fixed depth its play is a function of the game.
 *
 * Search options (mcts.h has what each does; each off by default, and a
 * spec without them plays as it always did):
 *   threads=T    T threads share one tree (lock-free tree-parallel MCTS),
 *                1..64, default 1. Not reproducible when T > 1. The agent
 *                starts its own T - 1 pthreads per search, beside the
 *                OpenMP threads that play games in parallel: give
 *                `selfplay --threads G` with G * T at most the cores, e.g.
 *                `--threads 1` and threads=2 on two cores.
 *   solver=1     prove wins and losses; a proven result is reported in
 *                the agent's value (1 or 0). Default 0.
 *   prior=W      the evaluation's prior of each child (a softmax over the
 *                children's evaluations) in selection, weight W, 0..100,
 *                default 0 (none). Uses the eval weights.
 *   policy=rows  playouts prefer actions that make a row (playout.h);
 *                default uniform.
 *
 * Exploration for self-play data (mcts.h; docs/python.md, "Exploration
 * for learning"), each off by default and written only when set:
 *   temp=T       0..100 (0: none): for the first tempmoves actions of the
 *   tempmoves=N  game (0..100000; N = 0 or no temp: never), the action is
 *                drawn from the root's visits raised to 1/T (T = 1: in
 *                proportion to the visits), with the agent's rng. The
 *                actions are those the agent was shown (agent_observe)
 *                since its game began: all of them in self-play and
 *                matches; a caller that does not show them (a UYI
 *                `position` that does not extend the last) gets fewer.
 *   noise=EPS    0..1: Dirichlet noise at the root, weight EPS (0: none).
 *   alpha=A      0 < A <= 100: its concentration, default 0.3.
 *   pcr=P:S      playout cap randomisation: with probability P (0..1) a
 *                search runs the full sims, else S (1..10000000); not
 *                under a run's own sims limit (`--sims`), which wins.
 *
 * PUCT (mcts.h; docs/python.md, "PUCT and the lab's policy net"), written
 * only when set:
 *   puct=1       AlphaZero's search instead of UCT: leaves are evaluated
 *                by the net of eval=net:FILE (required), its value and
 *                its priors (eval/nnue_policy.h: a policy head when the
 *                net has one, else its children's values), no playouts;
 *                c is PUCT's constant. rollout, prior and policy do not
 *                apply. Default 0.
 *   batch=B      leaves evaluated together, with virtual losses between
 *                them, 1..1024, default 1.
 *   fpu=F        an unvisited child's value is its parent's less F,
 *                0..1, default 0.
 *   child=W      the children's values in the priors: W times each
 *                child's logit from the net added to its head's logit
 *                (a net with a direct head), 0..100, default 0.
 *   childvisits=T  with child=W: from a node's T-th visit (mcts.h,
 *                1..10000000; default: when its children are made).
 *
 * mcts and ab both take movetime=MS (1..86400000, default none): the
 * agent's own time per action, so that one agent can be given more time
  * than another (a strength curve, time odds). It never thinks longer: a
 * search stops at MS (mcts also at its sims when the spec gives them, ab
 * at its maxdepth, else its depth: give depth=64 to let the time alone
 * decide). Under a run's
 * --movetime the agent's own replaces the run's, for its search and for
 * the harness's forfeit check; under --tc the clock's share still caps
 * it; with no run time control the harness forfeits nothing for it.
 * Written last in the canonical form, and only when set.
 *
 * `best:KEY=VALUE,...` is `best` with the keys after it (they replace the
 * alias's own), e.g. best:depth=64,movetime=100.
 *
 * The weights file is read once, when the spec is parsed, and its values
 * travel in the spec, so every thread's agent uses the same numbers; an
 * unreadable file or a bad line is an error naming the file and line.
 * eval with rollout=random is an error (the weights would go unused).
 *
 * eval=net:FILE (mcts and ab) evaluates with a net instead of linear
 * weights (eval/nnue.h, docs/nnue.md): the net file FILE, or with
 * eval=net:builtin the net built into the binary (eval/nets/default.nnue
 * at build time; a file named builtin is net:./builtin). ab scores its
 * leaves with it, its accumulators kept along make and unmake; mcts its
 * evaluated leaves (rollout=N) and its priors (prior=W). The canonical
 * text keeps eval=net:FILE as given, and a run stores the net's content
 * hash beside it, as it stores a weights file's, so that a resume refuses
 * another net. The net is loaded once, when the spec is parsed, and
 * shared read-only by every agent made from the spec, on every thread: the
 * spec holds a counted reference to it (the ownership rules are at
 * agent_spec_release below). A missing or damaged net file is refused
 * (ERR_FAIL), naming the file and what is wrong; `net:` without a name is
 * a bad spec (ERR_USAGE). A net spec has no linear weights: SPSA's
 * w.FEATURE parameters and yinsh rounds' fitted weights are refused for
 * it.
 * Unknown keys and bad values are errors that name them. agent_spec_format
 * writes the canonical form stored in the database (the eval path as
 * given, not its contents); parsing it gives the same spec back. The
 * default spec's canonical form and play are those of the first version,
 * so earlier runs stay reproducible.
 *
 * An external engine that speaks UYI (docs/uyi.md, "Engines as agents"):
 *
 *   uyi:name=NAME;cmd=COMMAND;dir=FOLDER;option.KEY=VALUE;...
 *
 * cmd (required) is split into words with shell quoting ('...', "...",
 * \) and exec'ed, without a shell (no pipes or redirections); it may hold
 * commas; a ';' or '\' inside a value is written '\;' or '\\'. name (a
 * display name, default "engine"), dir (its working folder, default the
 * current one) and any number of option.KEY (sent as `setoption name KEY
 * value VALUE` after the handshake, in the order given) are optional. The
 * canonical form, stored with the run, lists name, cmd, dir and the
 * options in that order. `yinsh match --engines FILE --a engine:NAME`
 * reads the same fields from a file (cli).
 *
 * Inside, each kind is a table of functions (agents/kind.h, as pachi's
 * engines or fastchess's engine classes) in a file of its own: random.c,
 * mcts.c, ab.c and external.c (a thin adapter over uyi/engine.h). spec.c
 * reads the text (the `best` alias, the kind's word, the shared keys
 * movetime and eval) and agent.c the interface below; both dispatch
 * through the kind's table, once per spec and once per decision, never
 * inside a search. Code outside agents/ never reads a spec's kind: it asks
 * the questions below. */
#ifndef YINSH_AGENT_H
#define YINSH_AGENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "eval/evaluation.h"
#include "eval/nnue.h"
#include "selfplay/search/ab.h"
#include "selfplay/search/mcts.h"
#include "engine/position.h"
#include "selfplay/records/record.h"
#include "engine/base/rng.h"
#include "selfplay/uyi/engine.h"

enum { ROLLOUT_RANDOM = -1, ROLLOUT_MAX = 1000 };
enum { AGENT_PATH_LEN = 200, AGENT_DEFAULT_SIMS = 200, AGENT_MAX_TEMP_MOVES = 100000 };
/* `best`, an alias: the strongest agent measured (results/strength.md),
 * alpha-beta with the techniques that gained (the deep search's ladder)
 * on the learned evaluation that beat the tuned weights at 100 ms (the
 * net with a linear part and a line-pattern part,
 * eval/nets/patterns32.nnue; results/strength.md, issue 30): depth 5
 * without a clock (bounded), deepening while its time lasts with one
 * (maxdepth 64). Its canonical text is the ab spec it stands for, so
 * stored runs say what played and replay it: a run stored before the
 * techniques says ab:depth=5,tt=16,maxdepth=64,eval=eval/weights/tuned3.txt,
 * one before the first net ab:depth=5,tt=16,maxdepth=64,
 * tech=killers+asp+lmr+nmp+fut+qs,tempo=-100,eval=eval/weights/tuned3.txt,
 * one before the pattern part the same search with
 * eval=net:eval/nets/hybrid32.nnue and no tempo; now
 * ab:depth=5,tt=16,maxdepth=64,tech=AGENT_BEST_TECH,eval=AGENT_BEST_WEIGHTS
 * (tempo AGENT_BEST_TEMPO, not written) in any folder (the shipped
 * weights and nets are built in, eval/evaluation.h and eval/nnue.h). */
#define AGENT_BEST_WEIGHTS "net:eval/nets/patterns32.nnue"
#define AGENT_BEST_TECH "killers+asp+lmr+nmp+fut+qs"
#define AGENT_BEST_TEMPO "0"
enum { AGENT_BEST_DEPTH = 5, AGENT_MAX_MOVETIME_MS = 86400000 };
/* A spec is refused with ERR_USAGE for its text, ERR_FAIL for its weights
 * or net file (missing, unreadable or damaged: bad data). */
#define AGENT_NET_PREFIX "net:"   /* eval=net:FILE */
#define AGENT_NET_BUILTIN "builtin" /* eval=net:builtin: the net built into the binary */
#define AGENT_FN_PREFIX "fn:"     /* eval=fn:NAME: an evaluator outside yinsh (AgentOutside) */

/* PUCT's leaves evaluated outside yinsh (puct=1,eval=fn:NAME): a program
 * that links libyinsh (python -m yinsh.selfplay, python -m yinsh.uyi)
 * gives the function, a researcher's net. The spec's text names it (the
 * run stores the name and the content hash, as it does a net file's);
 * the program attaches it (agent_spec_attach) to every spec that names
 * it, and keeps it alive while those specs and their agents live. With
 * threads > 1, or agents on several threads, fn is called from them at
 * once: it is the caller's to serialise (selfplay/search/batcher.h does). */
typedef struct AgentOutside {
    MctsEvaluate fn;
    void *ctx;
    char name[AGENT_PATH_LEN]; /* NAME of eval=fn:NAME */
    uint64_t hash;             /* what it evaluates with (a net file's content hash): stored with a run */
} AgentOutside;

/* An MCTS agent's own keys (the search's configuration, mcts.h). */
typedef struct AgentMctsParams {
    uint32_t sims;    /* simulations per decision */
    bool sims_set;    /* sims was written (or set as an option): it caps a search under a time limit too.
                       * Not in the text: the canonical text always writes sims (agent_spec_set_uncapped) */
    double c;         /* UCT's exploration constant */
    int rollout;      /* ROLLOUT_RANDOM, or N >= 0 random actions then the evaluation */
    uint32_t nodes;   /* the arena in nodes; 0: the default for sims */
    uint32_t threads; /* search threads, 1: the caller's alone */
    bool solver;
    double prior;     /* 0: none */
    int policy;       /* MCTS_POLICY_UNIFORM or _ROWS */
    double temp;      /* temp=T: 0, none */
    uint32_t temp_moves; /* tempmoves=N: 0, none */
    double noise;     /* noise=EPS: 0, none */
    double alpha;     /* alpha=A: 0, MCTS_DEFAULT_ALPHA (not written) */
    uint32_t pcr_sims; /* pcr=P:S: S; 0, none */
    double pcr_p;     /* pcr=P:S: P */
    bool puct;        /* puct=1: PUCT over the net of eval=net:FILE (mcts.h) */
    uint32_t batch;   /* batch=B: leaves per evaluation; 0, 1 */
    double fpu;       /* fpu=F: first-play urgency reduction; 0, none */
    double child;     /* child=W: the children's values in the priors, W times; 0, none */
    uint32_t child_visits; /* childvisits=T: ... from a node's T-th visit; 0, when its children are made */
} AgentMctsParams;

/* An alpha-beta agent's own keys (ab.h). */
typedef struct AgentAbParams {
    int depth;
    int max_depth;  /* the cap under a time limit or a node budget; 0: depth */
    uint32_t tt_mb;
    uint32_t tech;  /* tech=NAME+NAME...: AB_* bits (search/ab.h); 0: the search of 8f70ac8 */
    int tempo;      /* tempo=N: added to each evaluation for its actor; 0: none */
    uint32_t threads; /* threads=T: one search's threads (Lazy SMP, ab.h); 1: one */
    int smp;          /* smp=lazy|abdada|defer|skip: how the threads share the work (AB_SMP_*, ab.h); lazy unless set */
} AgentAbParams;

/* A spec: a plain value, copied into plans, tournaments and agents. The
 * searchers (mcts, ab) share movetime and the evaluation; each kind's own
 * parameters overlap in the union, of which only the kind's is meaningful. */
typedef struct AgentSpec {
    int kind;            /* the kind's row in the table (agents/kind.h): agents/ alone reads it */
    int64_t movetime_ms; /* mcts, ab: the agent's own time per action; 0: none */
    char eval[AGENT_PATH_LEN]; /* mcts, ab: the weights file as given, or net:FILE; "" = built-in defaults */
    Weights weights;           /* mcts (rollout=N, prior), ab: the evaluation's weights (read from eval) */
    /* mcts, ab with eval=net:FILE: the net, a counted reference (read-only,
     * shared; agent_spec_release); NULL: the linear weights above. A spec
     * read by agent_spec_parse_text names a net in eval without one. */
    const Nnue *net;
    /* mcts with eval=fn:NAME: the evaluator attached (agent_spec_attach),
     * borrowed; NULL until then (a spec parsed from text names one only) */
    const AgentOutside *outside;
    union {
        UyiEngineDesc external; /* uyi: the engine (the largest first: a zeroed spec zeroes all of it) */
        AgentMctsParams mcts;
        AgentAbParams ab;
    };
} AgentSpec;

/* Parses a spec into *spec (overwritten: give back a net it held first);
 * 0, or ERR_USAGE / ERR_FAIL with a message in err (ERR_LEN bytes)
 * naming the key, the value or the file. With eval=net:FILE the spec
 * holds a reference to the net, given back by agent_spec_release; a
 * refused text leaves none (a release after a failure is harmless). */
int agent_spec_parse(const char *text, AgentSpec *spec, char *err);
/* The same, without reading the eval file (spec->weights keep the
 * defaults, and a net is named but not loaded): for code that only looks
 * at a stored spec (reports), where the file need not be at hand. An
 * agent is never made from such a spec (agent_new refuses one that names
 * a net it does not hold). */
int agent_spec_parse_text(const char *text, AgentSpec *spec, char *err);
/* Sets one key of an mcts or ab spec, as in a spec's text (an engine option):
 * 0, or ERR_USAGE / ERR_FAIL with the reason in err, leaving
 * spec as it was. Beyond the text's values, eval "" goes back to the
 * built-in weights, nodes 0 to the default for sims, and maxdepth 0 and
 * movetime 0 to none. eval reads its
 * file here, and needs rollout=N set before it; a new eval gives back the
 * net the spec held (so the spec must hold its own reference: one parsed
 * or copied by agent_spec_copy, not a plain copy of one). */
int agent_spec_set(AgentSpec *spec, const char *key, const char *value, char *err);

/* Ownership of a spec's net. A spec is a value, copied into plans, the
 * tables of tournaments and studies, and threads; the net it names is
 * loaded once and counted (nnue_retain). A spec that agent_spec_parse or
 * agent_spec_set filled with a net holds one reference, which its owner
 * gives back with agent_spec_release; agent_spec_copy makes a copy with
 * a reference of its own (a table that keeps specs beyond the life of
 * the one it was given: tournaments, studies). A plain struct copy
 * borrows: it is valid while the spec it was copied from holds its
 * reference. Every agent takes a reference of its own (agent_new), so an
 * agent may outlive its spec. Without a net these do nothing: a spec of
 * weights needs no release. */
void agent_spec_release(AgentSpec *spec);
void agent_spec_copy(AgentSpec *to, const AgentSpec *from);
/* The spec of engine `name` of an engines file (docs/uyi.md, "Engines
 * files"; read by uyi_engines_read). 0, or ERR_FAIL (unreadable file) /
 * ERR_USAGE (bad line, unknown name, longer than a spec) with
 * "FILE:LINE: why" in err. */
int agent_spec_engine(const char *file, const char *name, AgentSpec *spec, char *err);
/* Writes the canonical spec text (SPEC_LEN bytes); returns out. */
char *agent_spec_format(const AgentSpec *spec, char *out);
/* A spec's text as a table shows it (len bytes; returns out): an external
 * engine's `uyi:name=N;cmd=...;option...` is `uyi:N`, its display name
 * (`uyi:engine` without one), so that a report or a list does not print
 * its command line; any other text as it is. The stored text stays the
 * run's identity; this is only its label. */
char *agent_spec_display(const char *text, char *out, size_t len);

/* Questions about a spec, for the code outside agents/, which never reads
 * its kind: what a caller needs to know is asked here. */

/* The kind's word, the spec's first ("random", "mcts", "ab" or "uyi"; never
 * `best`, which is an ab spec), for messages and labels. */
const char *agent_spec_kind_name(const AgentSpec *spec);
/* Whether the agent is an external engine, a process of its own (uyi:...):
 * it needs logs, its own random streams, and every action asked of it. */
bool agent_spec_external(const AgentSpec *spec);
/* For an external engine: starts it under env (its log folder and its
 * answer time; NULL: none), shakes hands and ends it (uyi_engine_check),
 * so that a setup that cannot work is refused before the first game. 0
 * (also for an internal agent), or ERR_FAIL with the reason and the log's
 * path in err. */
struct AgentEnv;
int agent_spec_check(const AgentSpec *spec, const struct AgentEnv *env, char *err);
/* Whether the agent plays uniformly random legal actions (no search). */
bool agent_spec_random(const AgentSpec *spec);
/* Whether the agent's action is a function of the position and of what
 * it searched since its last reset, whatever its random stream: ab at a
 * fixed depth on one thread with no time of its own (the run's limits
 * apart). Its searches from one start may be played once and replayed
 * (play/scheduler.c, the pie opening). */
bool agent_spec_deterministic(const AgentSpec *spec);
/* Whether the spec has keys that agent_spec_set can change (mcts, ab). */
bool agent_spec_has_keys(const AgentSpec *spec);
/* Whether the agent's play rests on the evaluation, so that tuning its
 * weights changes it: ab, and mcts with rollout=N. */
bool agent_spec_has_eval(const AgentSpec *spec);
/* The simulations of an MCTS agent's decision (sims); 0 for the others. */
uint32_t agent_spec_sims(const AgentSpec *spec);
/* The threads the spec asks for (its `threads` key: mcts, ab); 1 for
 * the other kinds. */
uint32_t agent_spec_threads(const AgentSpec *spec);
/* The threads an agent of the spec searches one position with: its
 * `threads` key (mcts, ab), at most the cores this process may run on
 * (base/parallel.h): threads beyond them only take turns on the cores,
 * and the search's own thread then reads its clock so late that the
 * agent overran its movetime (64 threads on 2 cores: 124 ms for 50).
 * 1 for the other kinds. */
uint32_t agent_search_threads(const AgentSpec *spec);
/* Whether a time limit alone ends the agent's searches: an MCTS spec that
 * does not give sims, whose default (AGENT_DEFAULT_SIMS) bounds only a
 * search without a time limit. A canonical text always writes sims, so a
 * spec read back from one is capped; agent_spec_set_uncapped restores
 * what a stored run recorded (its controls, play/scheduler.h). */
bool agent_spec_uncapped(const AgentSpec *spec);
void agent_spec_set_uncapped(AgentSpec *spec, bool uncapped);
/* The weights file as the spec gives it (net:FILE for a net); "" for the
 * built-in weights or a kind without an evaluation. */
const char *agent_spec_eval_file(const AgentSpec *spec);
/* Whether the spec's eval names a net (eval=net:FILE), loaded or not. */
bool agent_spec_names_net(const AgentSpec *spec);
/* Whether the spec's eval names an outside evaluator (eval=fn:NAME),
 * attached or not. */
bool agent_spec_names_outside(const AgentSpec *spec);
/* Attaches the outside evaluator o to a spec whose eval is fn:NAME with
 * o's name: 0, or ERR_USAGE saying what the spec names instead. */
int agent_spec_attach(AgentSpec *spec, const AgentOutside *o, char *err);
/* The net the agent evaluates with; NULL for linear weights, another
 * kind, or a spec read without its files. */
const Nnue *agent_spec_net(const AgentSpec *spec);
/* What play depends on of the spec's eval file, as a run stores it: the
 * net file's content hash (nnue_hash), the weights' hash (weights_hash)
 * or an outside evaluator's (AgentOutside.hash) into *hash; false when
 * the spec names no file (the built-in weights, a kind without an
 * evaluation) or an outside evaluator not attached. A net spec must hold
 * its net. */
bool agent_spec_eval_hash(const AgentSpec *spec, uint64_t *hash);
/* The evaluation's linear weights the agent plays with; NULL for a kind
 * without an evaluation (random, uyi) and for a net spec. */
const Weights *agent_spec_weights(const AgentSpec *spec);
/* Sets one feature's weight of the evaluation (the spec's eval file stays
 * named: write the weights out and set eval to play them by name). 0, or
 * ERR_USAGE for a kind without an evaluation or a spec with a net. */
int agent_spec_set_weight(AgentSpec *spec, int feature, double value, char *err);
/* The search configuration of an MCTS spec; false for another kind. */
bool agent_spec_mcts_config(const AgentSpec *spec, MctsConfig *cfg);
/* The search configuration of an alpha-beta spec; false for another kind. */
bool agent_spec_ab_config(const AgentSpec *spec, AbConfig *cfg);

/* A key of the spec as an engine option (`yinsh uyi` announces them),
 * with the spec's value as its default. */
enum { AGENT_SPEC_OPTIONS = 12 };
typedef struct AgentOption {
    const char *name;
    bool spin;                  /* an integer from min to max; else a string */
    long long min, max;
    char value[AGENT_PATH_LEN]; /* the default, as text; "" for an empty string */
} AgentOption;
/* The options of the spec's keys, at most AGENT_SPEC_OPTIONS, into out;
 * their number (0 for a kind without keys). */
int agent_spec_options(const AgentSpec *spec, AgentOption *out);

/* Per-decision figures for the game record. */
typedef struct MoveStats {
    int legal;              /* legal actions in the position */
    bool searched;          /* the figures below are meaningful */
    uint32_t root_visits;   /* visits of the searched root (ab: positions searched) */
    uint32_t chosen_visits; /* visits of the chosen action (MCTS, an external engine); 0 for alpha-beta */
    uint32_t depth;         /* alpha-beta: the depth completed; 0 for the others */
    double value;           /* chosen action's value estimate for the actor, [0, 1] */
    double root_value;      /* the position's value estimate for the actor, [0, 1], before
                             * the action: MCTS the root's mean (MctsResult), alpha-beta
                             * value (its score is the root's) */
    uint32_t sims;          /* simulations of this search (0: none; ab: positions searched) */
    uint8_t budget;         /* SEARCH_BUDGET_* (record.h): MCTS full or reduced (pcr), alpha-beta
                             * full; unknown when not searched or not told */
    int proven;             /* solver: the proven winner (RESULT_WHITE/BLACK), else RESULT_NONE */
    int fault;              /* REASON_* of a fault (an external engine's), else REASON_NONE */
    char why[ERR_LEN];      /* fault: what happened, for the engine's log */
} MoveStats;

/* The figure a game record keeps of the chosen action (ActionRecord's
 * chosen_visits, the stored column chosen_visits, a part of the play
 * hash): its visits, or alpha-beta's completed depth. */
static inline uint32_t move_stats_chosen(const MoveStats *st) { return st->depth ? st->depth : st->chosen_visits; }

/* How an action is limited (the run's controls, scheduler.h), as the
 * harness sees it when the agent is to act. */
typedef struct AgentLimits {
    uint32_t sims;           /* 0: the agent's own */
    int64_t movetime_ms;     /* 0: none */
    bool clock;              /* clock_ms and inc_ms are meaningful */
    int64_t clock_ms[2];     /* White's and Black's time left */
    int64_t inc_ms;          /* the increment, the same for both */
    int64_t margin_ms;       /* how far past its time an engine is waited for */
} AgentLimits;

/* Where an external agent's process writes its standard error, and how
 * long the harness waits for an answer with no time limit (handshake,
 * isready, a go without time). */
typedef struct AgentEnv {
    const char *log_dir; /* NULL: discarded */
    int64_t answer_ms;   /* <= 0: UYI_ENGINE_ANSWER_MS (uyi/engine.h) */
    int thread;          /* the game thread, for the log file's name */
    bool transcript;     /* with log_dir: each engine's conversation beside its log (uyi/engine.h) */
    bool visits;         /* ask an engine that can for its root visits (the run stores them; uyi/engine.h) */
} AgentEnv;

typedef struct Agent Agent;

/* 0, or ERR_FAIL with a message in err when memory for the agent cannot
 * be had or the spec names a net it does not hold (agent_spec_parse_text).
 * The agent holds a reference of its own to the spec's net. */
int agent_new(Agent **out, const AgentSpec *spec, char *err);
void agent_free(Agent *agent);
const AgentSpec *agent_spec(const Agent *agent);

/* A new game starts: forget anything kept from the last one. */
void agent_reset(Agent *agent);
/* The same for any agent, with the game's start: an external engine is
 * started if it is not running (handshake `uyi`/`uyiok`, its options),
 * asked `isready`, given `seed` (when seeded and it has that option) and
 * `newgame`. REASON_NONE, or the REASON_* of its fault (the engine is then
 * killed, and started again for the next game) with why (ERR_LEN). */
int agent_new_game(Agent *agent, const AgentEnv *env, bool seeded, uint64_t seed, char *why);
/* Appends "yinsh: REASON: why" to an external engine's log file (nothing
 * for an internal agent or without logs): the harness's side of a fault,
 * next to what the engine wrote on its standard error. */
void agent_log(Agent *agent, int reason, const char *why);
/* An external agent's process, 0 if none runs (tests). */
int agent_pid(const Agent *agent);
/* Chooses an action for the player to act in pos (not over): an internal
 * agent's choice (an external one is asked through agent_act). All
 * randomness comes from rng; the choice never depends on time. */
Action agent_choose(Agent *agent, const Position *pos, Rng *rng, MoveStats *stats);
/* The same under a search's limits (search/limits.h; NULL: none): for an
 * engine on a clock. MCTS and alpha-beta searches use them; with a sims
 * limit alone (MCTS simulations, alpha-beta's node budget) a choice is
 * still a function of the rng and the game. The agent's own movetime
 * caps the deadline; under a deadline an uncapped MCTS spec
 * (agent_spec_uncapped) is not bounded by its default sims. */
Action agent_choose_limited(Agent *agent, const Position *pos, Rng *rng, const SearchLimits *lim,
                            MoveStats *stats);
/* The search limits of a `go` (uyi/command.h) for this agent, counted from
 * `start` (clock_now()): the one policy of `yinsh uyi` and of the harness
 * (agent_act): `infinite` searches until the stop flag; `sims` is MCTS's
 * simulations and alpha-beta's node budget; the time is uyi_budget_ms's
 * share; `depth` is alpha-beta's. *lim's stop flag and report are left
 * for the caller. What the agent cannot honour (a depth for MCTS) is
 * written to why (ERR_LEN bytes; "" when nothing), and the rest holds. */
void agent_go_limits(const Agent *agent, const UyiGo *go, int actor, double start, SearchLimits *lim, char *why);
/* Chooses under the harness's limits (NULL: none): an internal agent
 * searches within its share of the clock (uyi_budget_ms, the policy of
 * `yinsh uyi`) or movetime, an external one is sent `position startpos
 * moves ...` and `go` and its `bestmove` read. A fault of an external
 * engine returns ACTION_NONE with stats->fault set. */
Action agent_act(Agent *agent, const Position *pos, Rng *rng, const AgentLimits *lim, MoveStats *stats);
/* The principal variation of the agent's last search (mcts_pv, ab_pv): at most
 * max actions into pv, their number returned; 0 for an agent that does
 * not search or did not search its last choice. */
int agent_pv(const Agent *agent, Action *pv, int max);
/* The root visit distribution of the agent's last search (an MCTS
 * agent's, mcts_root_children: the visited children of the root and their
 * visits), at most max into actions and visits; their number. 0 for an
 * agent without one (random, alpha-beta, an external engine). Call it
 * before agent_observe, which moves the tree on. */
int agent_root_children(const Agent *agent, Action *actions, uint32_t *visits, int max);
/* Every action played in the game (by either side) is shown to both
 * agents, so that a search can keep the part of its tree the game entered. */
void agent_observe(Agent *agent, const Position *before, Action a);

#endif
