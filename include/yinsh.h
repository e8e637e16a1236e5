/* libyinsh: the Yinsh Lab engine as a C library.
 *
 * Positions (YPN in and out, legal actions as text and as indices, apply,
 * the outcome), observation planes and a fixed action index space for
 * learning, agents by spec (`best`, MCTS, alpha-beta, random, external
 * UYI engines) that choose an action with their search's figures, PUCT
 * over an evaluator the caller gives as a callback (a net), and
 * the games and training positions of a Yinsh Lab database, read-only.
 * The rules are docs/rules.md, the notations docs/notation.md, the
 * database docs/schema.md; docs/python.md describes this API, the planes
 * and the indices with examples, and the Python package built on it.
 *
 * Versions. YINSH_API_VERSION is the version of this header;
 * yinsh_api_version() that of the library loaded. It grows by one with
 * every change that is not an addition (a function's meaning, a struct's
 * layout, a constant's value); a program checks that the two agree.
 * yinsh_version() is the engine's release ("0.1.0").
 *
 * Errors. A function that can fail returns an int: YINSH_OK (0), or a
 * negative yinsh_error, and writes a message a user can act on into err,
 * a buffer of YINSH_ERR_LEN bytes the caller owns (err may be NULL). The
 * library keeps no error state of its own: no global, no per-thread and
 * no per-handle "last error", so the message is the caller's as soon as
 * the call returns and concurrent calls never share one. Constructors
 * return their handle through an out parameter (NULL on failure).
 * Predicates and lookups that cannot fail return their answer.
 *
 * Handles and threads. Handles are opaque, made by a _new/_open call and
 * released by its _free/_close (NULL is accepted there). One handle is
 * used by one thread at a time; different handles may be used by
 * different threads at once (the library has no mutable global state:
 * its tables are built when it loads and only read afterwards). A games
 * or samples reader must be closed before its database.
 *
 * Points and cells. A point is named as in docs/notation.md ("e5"). As a
 * number it is a cell of the engine's 11x11 grid: cell = column * 11 +
 * (row - 1), column a = 0 .. k = 10, row 1 .. 11; 85 of the 121 cells are
 * points of the board (docs/rules.md §1). Ascending cells are the
 * canonical point order.
 *
 * Observation planes: YINSH_PLANES planes of YINSH_CELLS values each,
 * plane-major, each plane's cells in cell order (an array of shape
 * [17][11][11], indexed [plane][column][row - 1]). Cells that are not
 * points are 0 in every plane. Raw values, at each of the 85 points:
 *
 *   0  own rings        1 where a ring of the view's colour stands
 *   1  other rings      the other colour's
 *   2  own markers
 *   3  other markers
 *   4  valid            1
 *   5  black acts       1 when Black is the actor (state '-': acted last); absolute in every view
 *   6..11 P M R X r x   1 in the plane of the state (docs/rules.md §3)
 *   12 over             1 in state '-' (a game ended by rows)
 *   13 own removed      rings the view's colour took off, 0..3
 *   14 other removed    the other colour's, 0..3
 *   15 pool             markers left in the pool, 0..51
 *   16 blitz            1 in the blitz variant
 *
 * The view (YINSH_VIEW_*) says whose pieces are "own": White's (the
 * absolute board), Black's, or the actor's (the side to act's view).
 * yinsh_position_planes gives raw / scale, scale 3 for planes 13 and 14,
 * 51 for plane 15, 1 for the others: every value in [0, 1].
 *
 * Action indices: every action of the game has one index in
 * [0, YINSH_ACTIONS):
 *
 *   YINSH_PLACE0 + n   0..84       a ring placed at the n-th point (canonical order)
 *   YINSH_MOVE0 + m    85..1932    a move from a point to another point of one of its lines
 *   YINSH_PASS         1933        pass
 *   YINSH_ROW0 + r     1934..2056  a row taken off, by its two ends (five points of a line)
 *   YINSH_RING0 + n    2057..2141  a ring taken off at the n-th point
 *
 * Within a kind the indices ascend in the canonical order of actions
 * (docs/notation.md §4: by first point, then second point), so the
 * sorted legal indices of a position are `yinsh legal`'s list. The
 * legal-action mask is YINSH_ACTIONS bytes, 1 for each legal action.
 *
 * The board-shaped layout, for a convolutional policy head: every action
 * index has one slot (channel, cell) among YINSH_CHANNELS planes of
 * YINSH_CELLS cells (the observation's grid), no two the same:
 *
 *   channel 0            placement, at its point
 *   channel 1 + 9 d + k - 1   a move in direction d over k points (k 1..9), at its origin;
 *                        d 0..5: row + 1, column + 1, both + 1, and their opposites
 *   channel 55           pass, at the centre f6 (cell 60)
 *   channel 56 + a       a row along axis a (the directions 0..2), at its middle point
 *   channel 59           a ring taken off, at its point
 *
 * The symmetries: the board's YINSH_SYMMETRIES (6 rotations, each with or
 * without a reflection), s = 0 the identity, 1..5 the rotations by 60 s
 * degrees, 6..11 a reflection then the rotation by 60 (s - 6). Under s a
 * cell c goes to yinsh_symmetry_cell(s, c) (a cell off the board stays),
 * an action i to yinsh_symmetry_action(s, i), a channel to
 * yinsh_symmetry_channel(s, ch). The image of a position (a piece at the
 * image of each cell of one) has the planes of the position moved so, and
 * as legal actions the images of the position's; an action's slot moves
 * with it: the image of slot (ch, c) is the slot of the image. */
#ifndef YINSH_H
#define YINSH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define YINSH_API_VERSION 2

#if defined(__GNUC__) || defined(__clang__)
#define YINSH_API __attribute__((visibility("default")))
#else
#define YINSH_API
#endif

enum {
    YINSH_ERR_LEN = 512,       /* an error message's buffer */
    YINSH_YPN_LEN = 128,       /* a YPN's buffer */
    YINSH_ACTION_LEN = 16,     /* an action's text's buffer */
    YINSH_SPEC_LEN = 384,      /* an agent spec's buffer */
    YINSH_NAME_LEN = 128,      /* a run's name's buffer (an addition of API version 2) */
    YINSH_MAX_ACTIONS = 256,   /* legal actions of a position: a bound well above any */
    YINSH_LEGAL_TEXT_LEN = YINSH_MAX_ACTIONS * YINSH_ACTION_LEN, /* every legal action as text */
    YINSH_POINTS = 85,
    YINSH_GRID = 11,
    YINSH_CELLS = 121,
    YINSH_PLANES = 17,
    YINSH_OBSERVATION = YINSH_PLANES * YINSH_CELLS, /* values of one observation: 2057 */
    YINSH_PLACE0 = 0,
    YINSH_MOVE0 = 85,
    YINSH_PASS = 1933,
    YINSH_ROW0 = 1934,
    YINSH_RING0 = 2057,
    YINSH_ACTIONS = 2142,
    YINSH_CHANNELS = 60,       /* the layout's channels (API version 2, an addition) */
    YINSH_CHANNEL_PLACE = 0,
    YINSH_CHANNEL_MOVE0 = 1,
    YINSH_CHANNEL_PASS = 55,
    YINSH_CHANNEL_ROW0 = 56,
    YINSH_CHANNEL_RING = 59,
    YINSH_MOVE_SPAN = 9,       /* a move's longest distance */
    YINSH_SYMMETRIES = 12,
    YINSH_PV_MAX = 32,         /* principal variation: actions kept */
    YINSH_GAME_MAX = 200,      /* no game reaches 200 actions (docs/rules.md §6.4) */
};

typedef enum yinsh_error {
    YINSH_OK = 0,
    YINSH_ERR_FAIL = -1,      /* it failed: I/O, memory, damaged data */
    YINSH_ERR_USAGE = -2,     /* what was asked is malformed or illegal: a YPN, an action, a spec, an index */
    YINSH_ERR_EXISTS = -3,    /* (reserved for writers) */
    YINSH_ERR_NOT_FOUND = -4, /* what was named does not exist: a database, a run */
    YINSH_ERR_HELD = -5,      /* (reserved for writers) */
    YINSH_ERR_REPEAT = -6,    /* (reserved for writers) */
} yinsh_error;

enum { YINSH_WHITE = 0, YINSH_BLACK = 1 };
/* A variant: YINSH_STANDARD or YINSH_BLITZ, with the rule options
 * YINSH_SWAP and YINSH_DRAW_ODDS or'ed in (docs/rules.md §9). */
enum { YINSH_STANDARD = 0, YINSH_BLITZ = 1, YINSH_SWAP = 2, YINSH_DRAW_ODDS = 4 };
/* The states; YINSH_STATE_END is YPN's '-'. */
enum { YINSH_STATE_P, YINSH_STATE_M, YINSH_STATE_R, YINSH_STATE_X, YINSH_STATE_r, YINSH_STATE_x, YINSH_STATE_END };
enum { YINSH_RESULT_NONE, YINSH_RESULT_WHITE, YINSH_RESULT_BLACK, YINSH_RESULT_DRAW };
/* Why a game ended (docs/rules.md §6.4; the faults: docs/protocol.md). */
enum {
    YINSH_REASON_NONE,
    YINSH_REASON_THREE_RINGS,
    YINSH_REASON_BLITZ_ROW,
    YINSH_REASON_POOL_EMPTY,
    YINSH_REASON_NO_MOVES,
    YINSH_REASON_RESIGN,
    YINSH_REASON_ILLEGAL_ACTION,
    YINSH_REASON_ENGINE_DIED,
    YINSH_REASON_NO_ANSWER,
    YINSH_REASON_TIME_FORFEIT,
    YINSH_REASON_ENGINE_ERROR,
};
enum { YINSH_VIEW_WHITE = 0, YINSH_VIEW_BLACK = 1, YINSH_VIEW_ACTOR = 2 };
enum {
    YINSH_PLANE_OWN_RINGS,
    YINSH_PLANE_OTHER_RINGS,
    YINSH_PLANE_OWN_MARKERS,
    YINSH_PLANE_OTHER_MARKERS,
    YINSH_PLANE_VALID,
    YINSH_PLANE_BLACK_ACTS,
    YINSH_PLANE_STATE_P, /* .. + YINSH_STATE_x */
    YINSH_PLANE_OVER = YINSH_PLANE_STATE_P + YINSH_STATE_END,
    YINSH_PLANE_OWN_REMOVED,
    YINSH_PLANE_OTHER_REMOVED,
    YINSH_PLANE_POOL,
    YINSH_PLANE_BLITZ,
};

/* ---- the library ---------------------------------------------------- */

YINSH_API int yinsh_api_version(void);
YINSH_API const char *yinsh_version(void);
/* "ok", "fail", "usage", "exists", "not-found", "held", "repeat"; "?" for another value. */
YINSH_API const char *yinsh_error_name(int code);
/* "none", "white", "black", "draw"; the reasons as the database writes them
 * ("three-rings", ...); "standard", "blitz". "?" outside the enums. */
YINSH_API const char *yinsh_result_name(int result);
YINSH_API const char *yinsh_reason_name(int reason);
YINSH_API const char *yinsh_variant_name(int variant);
/* Releases what the library allocated for the caller (an SVG). */
YINSH_API void yinsh_free(void *p);

/* ---- actions -------------------------------------------------------- */

/* The text of an action index ("e5", "e5-e8", "pass", "xe2-e6", "xe5"):
 * YINSH_OK, or YINSH_ERR_USAGE for an index outside [0, YINSH_ACTIONS). */
YINSH_API int yinsh_action_text(int index, char out[YINSH_ACTION_LEN]);
/* The index of an action's text, by its form alone (no position: a row's
 * ends in either order): YINSH_OK, or YINSH_ERR_USAGE with why in err. */
YINSH_API int yinsh_action_index(const char *action, int *index, char *err);
/* What yinsh_position_planes divides a plane's raw value by (0 outside
 * [0, YINSH_PLANES)). */
YINSH_API int yinsh_plane_scale(int plane);
/* The value of a constant of the enum above, by its name without the
 * prefix ("ACTIONS", "PLANES", "OBSERVATION", "ERR_LEN", ...), as the
 * loaded library knows it, so that a binding that cannot read this header
 * (Python's ctypes) takes its numbers from the library; -1 for a name
 * that is none of them. */
YINSH_API int yinsh_constant(const char *name);

/* ---- the board-shaped layout and the symmetries --------------------- */

/* The slot of an action index (the table above): YINSH_OK, or
 * YINSH_ERR_USAGE (channel and cell -1) for an index outside
 * [0, YINSH_ACTIONS). */
YINSH_API int yinsh_action_slot(int index, int *channel, int *cell);
/* The action index of a slot, -1 for a slot no action has or one outside
 * [0, YINSH_CHANNELS) x [0, YINSH_CELLS). */
YINSH_API int yinsh_slot_action(int channel, int cell);
/* The image under symmetry s of a cell, a channel, an action index; -1
 * when s or the other argument is out of range. */
YINSH_API int yinsh_symmetry_cell(int s, int cell);
YINSH_API int yinsh_symmetry_channel(int s, int channel);
YINSH_API int yinsh_symmetry_action(int s, int index);
/* The symmetry that undoes s; -1 for s out of range. */
YINSH_API int yinsh_symmetry_inverse(int s);

/* ---- positions ------------------------------------------------------ */

typedef struct yinsh_position yinsh_position;

/* The empty start of a variant (YINSH_STANDARD or YINSH_BLITZ, | YINSH_SWAP,
 * YINSH_DRAW_ODDS). */
YINSH_API int yinsh_position_new(yinsh_position **out, int variant, char *err);
/* A position from its YPN: YINSH_ERR_USAGE with the field and the problem. */
YINSH_API int yinsh_position_from_ypn(yinsh_position **out, const char *ypn, char *err);
YINSH_API int yinsh_position_copy(yinsh_position **out, const yinsh_position *p, char *err);
/* The image of p under symmetry s (above): YINSH_ERR_USAGE for s out of range. */
YINSH_API int yinsh_position_symmetric(yinsh_position **out, const yinsh_position *p, int s, char *err);
/* Makes to the same position as from (no allocation). */
YINSH_API void yinsh_position_assign(yinsh_position *to, const yinsh_position *from);
YINSH_API void yinsh_position_free(yinsh_position *p);

YINSH_API void yinsh_position_ypn(const yinsh_position *p, char out[YINSH_YPN_LEN]);
/* Who acts (YINSH_WHITE, YINSH_BLACK; in state '-': who acted last), the
 * state (YINSH_STATE_*), the variant, the rings a colour took off (0..3),
 * the markers in the pool (0..51), the position's 64-bit key (equal
 * positions have equal keys). */
YINSH_API int yinsh_position_actor(const yinsh_position *p);
YINSH_API int yinsh_position_state(const yinsh_position *p);
YINSH_API int yinsh_position_variant(const yinsh_position *p);
YINSH_API int yinsh_position_removed(const yinsh_position *p, int colour);
YINSH_API int yinsh_position_pool(const yinsh_position *p);
YINSH_API uint64_t yinsh_position_key(const yinsh_position *p);
/* 1 when the game is over, with its result and reason (either pointer may
 * be NULL); else 0 and both YINSH_*_NONE. A position that is not over has
 * a legal action. */
YINSH_API int yinsh_position_outcome(const yinsh_position *p, int *result, int *reason);

/* The legal actions' indices in ascending (canonical) order into indices
 * (YINSH_MAX_ACTIONS entries); returns their number, 0 when it is over. */
YINSH_API int yinsh_position_legal(const yinsh_position *p, int *indices);
/* The legal-action mask (YINSH_ACTIONS bytes); returns the number legal. */
YINSH_API int yinsh_position_legal_mask(const yinsh_position *p, uint8_t *mask);
/* The legal actions as text in canonical order, separated by single
 * spaces, into out (size bytes; YINSH_LEGAL_TEXT_LEN always suffices):
 * their number, or YINSH_ERR_USAGE when size is too small. */
YINSH_API int yinsh_position_legal_text(const yinsh_position *p, char *out, size_t size);
/* The index of an action's text that is legal here: YINSH_ERR_USAGE, with
 * why (its form, or why it is illegal), otherwise. */
YINSH_API int yinsh_position_action_index(const yinsh_position *p, const char *action, int *index, char *err);
/* Plays an action, by index or by text: YINSH_ERR_USAGE, leaving p as it
 * was, when it is not legal here. */
YINSH_API int yinsh_position_apply(yinsh_position *p, int index, char *err);
YINSH_API int yinsh_position_apply_text(yinsh_position *p, const char *action, char *err);

/* The observation planes (the table above) seen by view: raw values
 * (YINSH_OBSERVATION bytes) or values in [0, 1] (YINSH_OBSERVATION
 * floats). YINSH_ERR_USAGE for a view that is not one. */
YINSH_API int yinsh_position_planes_raw(const yinsh_position *p, int view, uint8_t *out);
YINSH_API int yinsh_position_planes(const yinsh_position *p, int view, float *out);

/* The position as an SVG picture (the drawing of `yinsh svg`): last, if
 * not NULL, the action that led here (marked); size_px the width, 50 to
 * 10000. *svg is a NUL-terminated document to release with yinsh_free. */
YINSH_API int yinsh_position_svg(const yinsh_position *p, const char *last, int size_px, char **svg, char *err);

/* ---- agents --------------------------------------------------------- */

typedef struct yinsh_agent yinsh_agent;

/* What an agent's choice came with (as the database stores it for each
 * action, docs/schema.md): the legal actions, whether it searched (a
 * forced action or a random agent does not; the figures are then 0), the
 * searched root's visits and the chosen action's (alpha-beta: the
 * positions searched and the depth completed), the chosen action's value
 * for the actor in [0, 1], the simulations, the depth (alpha-beta: the
 * depth completed; MCTS: the principal variation's length), the winner a
 * solver proved (YINSH_RESULT_*), the principal variation as action
 * indices (npv of them), and the position's value for the actor in [0, 1]
 * (action.root_value: MCTS the root's mean over its visits, alpha-beta
 * the same as value; API version 2). */
typedef struct yinsh_move_stats {
    int legal;
    int searched;
    uint32_t root_visits;
    uint32_t chosen_visits;
    double value;
    uint32_t sims;
    int depth;
    int proven;
    int npv;
    int pv[YINSH_PV_MAX];
    double root_value;
} yinsh_move_stats;

/* An agent by its spec (selfplay/agents/agent.h, docs/uyi.md: "best",
 * "mcts:sims=800", "ab:depth=4", "random", "uyi:cmd=..."), its random
 * draws from a pcg32 stream of seed: the same seed and calls give the
 * same choices (an internal agent on one thread, without a time limit).
 * An external engine is started here. `best` reads its weights file
 * (eval/weights/tuned3.txt) from the working folder or the source tree
 * the library was built from. YINSH_ERR_USAGE for a bad spec,
 * YINSH_ERR_FAIL for its weights file or an engine that does not start. */
YINSH_API int yinsh_agent_new(yinsh_agent **out, const char *spec, uint64_t seed, char *err);
YINSH_API void yinsh_agent_free(yinsh_agent *a);
/* The spec's canonical text (`best` is the ab spec it stands for). */
YINSH_API void yinsh_agent_spec(const yinsh_agent *a, char out[YINSH_SPEC_LEN]);
/* A new game of a variant starts: the agent forgets the last (an external
 * engine is asked isready and newgame). */
YINSH_API int yinsh_agent_new_game(yinsh_agent *a, int variant, char *err);
/* An action was played from before (by either side): an MCTS agent keeps
 * the part of its tree the game entered; an external engine learns the
 * game, which it knows only by its actions from the start. */
YINSH_API int yinsh_agent_observe(yinsh_agent *a, const yinsh_position *before, int index, char *err);
/* Chooses an action for the actor of p (not over): its index, and the
 * figures if stats is not NULL. An internal agent chooses from any
 * position; an external engine only from the position its game reached
 * (yinsh_agent_new_game, then every action through yinsh_agent_observe),
 * else YINSH_ERR_USAGE. YINSH_ERR_FAIL when an engine fails (its fault in
 * err). */
YINSH_API int yinsh_agent_choose(yinsh_agent *a, const yinsh_position *p, int *index, yinsh_move_stats *stats,
                                 char *err);

/* ---- PUCT with an outside evaluator --------------------------------- */

/* PUCT (AlphaZero's search; selfplay/search/mcts.h has it in full) whose
 * leaves a caller's function evaluates, a batch at a time: a policy+value
 * net in Python or C (API version 2, an addition; docs/python.md, "PUCT
 * with your own net").
 *
 * The evaluator gets n leaves (1 <= n <= batch), positions that are not
 * over, as plain arrays:
 *
 *   planes  n x YINSH_OBSERVATION floats: each leaf's observation planes
 *           in the actor's view (YINSH_VIEW_ACTOR, values in [0, 1]: what
 *           yinsh_position_planes gives), shape [n][17][11][11]
 *   mask    n x YINSH_ACTIONS bytes: 1 for each legal action's index
 *   priors  n x YINSH_ACTIONS floats to write, 0 on entry: a leaf's
 *           weights over its legal actions (non-negative, finite; the
 *           search divides them by their sum; all 0: uniform). Only legal
 *           entries are read, so a net's softmax over all 2142 logits
 *           serves as it is.
 *   values  n floats to write: the expected score of each leaf's side to
 *           act, in [0, 1] (1 a win, 1/2 a draw, 0 a loss).
 *
 * It returns 0, or non-zero with a message in err (YINSH_ERR_LEN bytes):
 * the search stops, and yinsh_puct_search fails with that message. A
 * prior or value that is not one (negative, NaN, a value outside [0, 1])
 * stops it too. With threads > 1 it is called from several threads at
 * once, each call with its own arrays. */
typedef int (*yinsh_eval_fn)(void *ctx, int n, const float *planes, const uint8_t *mask, float *priors,
                             float *values, char *err);

enum { YINSH_PUCT_MAX_BATCH = 1024 };

/* The search's settings (zeroed: the defaults noted). The selection, the
 * batches with their virtual loss, fpu, the exploration for self-play
 * (noise, temp) and the threads mean what the `mcts` agent's keys mean
 * (docs/uyi.md: c, batch, fpu, noise, alpha, temp, tempmoves, threads). */
typedef struct yinsh_puct_config {
    uint32_t sims;       /* simulations per search, > 0 */
    double c;            /* the exploration constant (0: none) */
    uint32_t batch;      /* leaves per evaluation, 1..YINSH_PUCT_MAX_BATCH; 0: 1 */
    double fpu;          /* an unvisited child's Q: its parent's less this */
    uint32_t threads;    /* search threads sharing the tree; 0 or 1: the caller's alone */
    double noise;        /* the root's Dirichlet noise weight, 0..1; 0: none */
    double alpha;        /* its concentration; 0: 0.3 */
    double temp;         /* > 0 with temp_moves: the choice drawn from visits^(1/temp) ... */
    uint32_t temp_moves; /* ... while fewer actions than this were played (yinsh_puct_advance counts them) */
    int solver;          /* 1: prove wins and losses */
    uint32_t nodes;      /* the tree's bound in nodes; 0: enough for sims */
    uint64_t seed;       /* the random stream of noise and temp */
} yinsh_puct_config;

typedef struct yinsh_puct yinsh_puct;

/* A search over fn (called with ctx). YINSH_ERR_USAGE for a setting out
 * of range or no fn, YINSH_ERR_FAIL when its memory cannot be had. */
YINSH_API int yinsh_puct_new(yinsh_puct **out, const yinsh_puct_config *cfg, yinsh_eval_fn fn, void *ctx, char *err);
YINSH_API void yinsh_puct_free(yinsh_puct *s);
/* A new game: the tree and the count of actions played are forgotten. */
YINSH_API void yinsh_puct_new_game(yinsh_puct *s);
/* Searches p (not over) and chooses: the action's index into *index,
 * the figures into stats (may be NULL; as an agent's), and the root's
 * visit distribution: its children with at least one visit, ascending by
 * action index, into children and visits (YINSH_MAX_ACTIONS entries
 * each; either may be NULL) and their number into *nchildren (may be
 * NULL). A forced action is searched too. YINSH_ERR_USAGE for a position
 * that is over; YINSH_ERR_FAIL, with the evaluator's message, when the
 * evaluator failed (the search stopped). */
YINSH_API int yinsh_puct_search(yinsh_puct *s, const yinsh_position *p, int *index, yinsh_move_stats *stats,
                                int *children, uint32_t *visits, int *nchildren, char *err);
/* An action was played from before (by either side): the search keeps
 * the subtree under it. YINSH_ERR_USAGE when it is not legal there. */
YINSH_API int yinsh_puct_advance(yinsh_puct *s, const yinsh_position *before, int index, char *err);
/* Playout cap randomisation (KataGo; the `mcts` agent's pcr=P:S): from
 * now on a search runs the configured sims with probability p, else sims
 * simulations (1 <= sims < the configured sims), drawn from the search's
 * random stream; p 1 turns it off. YINSH_ERR_USAGE for values out of
 * range. An addition of API version 2. */
YINSH_API int yinsh_puct_set_pcr(yinsh_puct *s, double p, uint32_t sims, char *err);

/* ---- self-play of an outside evaluator, into a database ------------- */

/* Self-play of PUCT over the caller's evaluator (yinsh_eval_fn) into a
 * Yinsh Lab database, as `yinsh selfplay` plays the lab's own agents: a
 * run with its seed, plan and provenance (the evaluator's name and
 * content hash), every game stored whole with its actions, visits, root
 * values and search figures, so that `yinsh report`, `view`, `positions`
 * and the exports read it; a killed run resumes; game i of a run is the
 * same whoever plays it, however many games are played at once (an
 * evaluator that gives each leaf the same numbers in any batch gives the
 * same games). `threads` games are played at once, on threads of their
 * own, and the leaves of their searches are evaluated together: one call
 * of fn holds up to threads x batch leaves (selfplay/search/batcher.h).
 * fn is called from one thread at a time, not always the same one.
 * docs/python.md, "Self-play of your own net"; python -m yinsh.selfplay
 * drives it. An addition of API version 2.
 *
 * The agent is the `mcts` spec of PUCT with eval=fn:NAME, NAME the
 * evaluator's (docs/uyi.md and selfplay/agents/agent.h have the keys:
 * sims, c, batch, fpu, temp, tempmoves, noise, alpha, pcr, solver,
 * nodes): "mcts:sims=100,c=1.5,puct=1,batch=64,eval=fn:mynet:evaluate". */
typedef struct yinsh_selfplay_config {
    const char *db;        /* the database, made when missing */
    const char *run;       /* the run's name */
    const char *evaluator; /* NAME: the evaluator as the agent's eval=fn:NAME names it */
    uint64_t net_hash;     /* what the evaluator evaluates with (its net file's content hash): stored with
                            * the run, and a resumed run's must be the same */
    int resume;            /* 1: the stored run `run`, to play its missing games under its own plan (the
                            * fields below are then not read) */
    const char *agent;     /* a new run: both sides' spec */
    uint32_t games;        /* a new run: its games */
    uint64_t seed;         /* a new run: its seed (game i plays from rng_stream(seed, i)) */
    const char *variant;   /* a new run: NULL or "standard", "blitz", ... */
    const char *opening;   /* a new run: NULL or "none", "rings" (random placements), "random:K" */
    const char *resign;    /* a new run: NULL (none), or "V:N", `yinsh selfplay --resign` */
    double resign_check;   /* with resign: the fraction of games played out whatever (0..1) */
    const char *command;   /* a new run: stored as its command */
    /* A worker of a process that opened the run (several processes, one
     * database): join = 1 opens the stored run `run` without its lease
     * (its opener holds it) and plays slice `shard` of `shards` (1 ..
     * shards) of its missing games; the opener calls
     * yinsh_selfplay_finish once its workers are done. */
    int join;
    uint32_t shard, shards;
} yinsh_selfplay_config;

typedef struct yinsh_selfplay yinsh_selfplay;

/* What a self-play knows: the run's name and agent, seed, games, the
 * games this process is to play (its todo; a joined worker's slice) and
 * those stored. Figures of this process's play calls: games stored,
 * actions, the evaluator's calls (rounds) and their leaves, results by
 * YINSH_RESULT_*, and with resignation the games resigned, played out
 * (checked), the checked games the rule fired in and those of them whose
 * player did not lose (false resignations). */
typedef struct yinsh_selfplay_info {
    char name[YINSH_NAME_LEN];
    char agent[YINSH_SPEC_LEN];
    uint64_t seed;
    uint32_t games, todo, stored;
    uint64_t played, actions, rounds, leaves;
    uint64_t results[4];
    uint64_t resigned, checked, fired, wrong;
} yinsh_selfplay_info;

/* Opens the database and creates the run (its lease taken), finds it to
 * resume, or joins it (cfg->join). YINSH_ERR_USAGE for a bad setting or
 * an agent that is not PUCT over fn:evaluator; YINSH_ERR_EXISTS (a run
 * of that name), YINSH_ERR_REPEAT (a run of this very plan: these games
 * again), YINSH_ERR_NOT_FOUND (no run to resume), YINSH_ERR_HELD (another
 * process plays it), YINSH_ERR_FAIL (the evaluator's hash is not the
 * run's, I/O). Close it whatever the outcome (*out may be NULL). */
YINSH_API int yinsh_selfplay_open(yinsh_selfplay **out, const yinsh_selfplay_config *cfg, char *err);
/* Plays this process's missing games, threads at once, over fn (called
 * with ctx), storing each game as it ends. 0 when every game was played
 * and stored; YINSH_ERR_FAIL with the evaluator's message when it failed
 * (or gave a number that is not one: the leaf is named), or when
 * yinsh_selfplay_stop stopped it: the games stored before stay, those in
 * play are dropped, and a resume plays them. */
YINSH_API int yinsh_selfplay_play(yinsh_selfplay *s, uint32_t threads, yinsh_eval_fn fn, void *ctx, char *err);
/* Asks a play in progress to stop (from another thread, or a signal
 * handler): no game starts, games in play are dropped. */
YINSH_API void yinsh_selfplay_stop(yinsh_selfplay *s);
/* The figures so far; callable from another thread during a play. */
YINSH_API void yinsh_selfplay_get_info(yinsh_selfplay *s, yinsh_selfplay_info *info);
/* The opener's end: reads the stored games again (its workers' too), and
 * marks the run finished when all are there: 1 then, 0 when some are
 * missing, or a negative yinsh_error. */
YINSH_API int yinsh_selfplay_finish(yinsh_selfplay *s, char *err);
/* Gives the lease back (a lease left by a killed process is taken over
 * by the next resume) and closes the database. */
YINSH_API void yinsh_selfplay_close(yinsh_selfplay *s);

/* ---- a UYI engine over an outside evaluator -------------------------- */

/* Serves PUCT over the caller's evaluator as a UYI engine, the lab's own
 * server (`yinsh uyi`, docs/protocol.md and docs/uyi.md: the handshake,
 * options, isready during a search, stop, the clock policy, the seed):
 * commands read from the descriptor in_fd, replies written to out_fd, a
 * line at a time, until `quit` or the end of the input. agent is PUCT's
 * spec with eval=fn:evaluator (as yinsh_selfplay_config's); net_hash is
 * what the evaluator evaluates with. fn is called from the engine's
 * search thread, one call at a time. An MCTS engine announces the option
 * `visits`: told true, it writes its root visits (`info visits
 * ACTION:N ...`) before each searched bestmove, which `yinsh match` and
 * `selfplay` store with --store-visits. 0 after quit or the end of input;
 * YINSH_ERR_USAGE for a bad spec, YINSH_ERR_FAIL for I/O. python -m
 * yinsh.uyi drives it. An addition of API version 2. */
YINSH_API int yinsh_uyi_serve(int in_fd, int out_fd, const char *agent, const char *evaluator, uint64_t net_hash,
                              yinsh_eval_fn fn, void *ctx, char *err);

/* ---- databases (read-only) ------------------------------------------ */

typedef struct yinsh_db yinsh_db;

/* Which games: runs by name (nruns of them; none: every run), a kind
 * ("selfplay", "match", "import"), an agent that plays on either side
 * (any spelling of its spec: "mcts:sims=200" selects the runs of
 * mcts:sims=200,c=1,rollout=random; a bad spec is YINSH_ERR_USAGE), a
 * variant ("standard", "blitz"); NULL or 0 for any. A selection of NULL
 * is every game. A kind or a variant spelt otherwise is YINSH_ERR_USAGE,
 * never a selection of nothing. */
typedef struct yinsh_selection {
    const char *const *runs;
    int nruns;
    const char *kind;
    const char *agent;
    const char *variant;
} yinsh_selection;

/* Opens a Yinsh Lab database for reading; it is never changed.
 * YINSH_ERR_NOT_FOUND when there is no such file, YINSH_ERR_FAIL when it
 * is not a Yinsh Lab database or of a newer schema. */
YINSH_API int yinsh_db_open(yinsh_db **out, const char *path, char *err);
YINSH_API void yinsh_db_close(yinsh_db *db);

/* The stored games of a selection, one at a time: in run order, then by
 * index, repeats (games stored again by a later run) left out. */
typedef struct yinsh_games yinsh_games;

/* One stored action (docs/schema.md, table action). */
typedef struct yinsh_action_row {
    int actor;               /* YINSH_WHITE, YINSH_BLACK */
    int state;               /* YINSH_STATE_* acted in */
    int legal;
    int searched;            /* the next three are stored (else 0) */
    int64_t root_visits;
    int64_t chosen_visits;
    double value;
    int64_t time_us;
    double root_value;       /* the position's value for the actor; NaN where none is stored (not
                              * searched, or stored before schema version 8) */
} yinsh_action_row;

/* YINSH_ERR_NOT_FOUND naming a run of the selection that does not exist. */
YINSH_API int yinsh_games_open(yinsh_games **out, yinsh_db *db, const yinsh_selection *sel, char *err);
/* Moves to the next game: 1 when there is one, 0 after the last, or a
 * negative yinsh_error. The game's accessors below read the game moved
 * to, until the next call. */
YINSH_API int yinsh_games_next(yinsh_games *g, char *err);
YINSH_API void yinsh_games_close(yinsh_games *g);
/* The game's record tags (docs/records.md: Run, Index, Kind, Variant,
 * White, Black, WhiteWeights, BlackWeights, Seed, Result, Reason, Actions,
 * Date, Version, Commit, RunUid; those without a value left out), as
 * `yinsh export` writes them: their number, the i-th key and value (NULL
 * out of range), and the value of a key (NULL when absent). */
YINSH_API int yinsh_game_tag_count(const yinsh_games *g);
YINSH_API const char *yinsh_game_tag_key(const yinsh_games *g, int i);
YINSH_API const char *yinsh_game_tag_value(const yinsh_games *g, int i);
YINSH_API const char *yinsh_game_tag(const yinsh_games *g, const char *key);
/* The variant, result and reason as stored (YINSH_RESULT_NONE for an
 * imported game that stops before its end; -1 for a value this library
 * does not know); the number of stored actions and the ply-th's text
 * (NULL out of range) and row (YINSH_ERR_USAGE out of range). */
YINSH_API int yinsh_game_variant(const yinsh_games *g);
YINSH_API int yinsh_game_result(const yinsh_games *g);
YINSH_API int yinsh_game_reason(const yinsh_games *g);
YINSH_API int yinsh_game_length(const yinsh_games *g);
YINSH_API const char *yinsh_game_action(const yinsh_games *g, int ply);
YINSH_API int yinsh_game_action_row(const yinsh_games *g, int ply, yinsh_action_row *row);
/* The root visit distribution of the ply-th action (docs/schema.md, table
 * action_visits): whether the game's run stored distributions at all (1
 * or 0: then no action has one), the number of root children stored for
 * the action (0 when none: not an MCTS search's action, or not stored;
 * YINSH_ERR_USAGE out of range), and the i-th child's action text in
 * text order with its visits into *visits (may be NULL; NULL out of
 * range). */
YINSH_API int yinsh_game_visits_stored(const yinsh_games *g);
YINSH_API int yinsh_game_child_count(const yinsh_games *g, int ply);
YINSH_API const char *yinsh_game_child(const yinsh_games *g, int ply, int i, int64_t *visits);

/* The runs of a database that a selection picks (NULL: every run), in
 * the order they were created: into *runs an array of *n of them
 * (release it with yinsh_free; NULL when there are none).
 * YINSH_ERR_NOT_FOUND naming a run of the selection that does not exist.
 * An addition of API version 2. */
typedef struct yinsh_run_info {
    char name[YINSH_NAME_LEN];
    char kind[16];             /* "selfplay", "match", "import" */
    char variant[32];
    char white[YINSH_SPEC_LEN], black[YINSH_SPEC_LEN]; /* a match: A and B */
    uint64_t seed;             /* the run seed */
    int64_t games;             /* the run's planned games */
    int64_t stored;            /* its games stored, repeats included */
    int finished;              /* every game stored and the run marked finished */
} yinsh_run_info;
YINSH_API int yinsh_db_runs(yinsh_db *db, const yinsh_selection *sel, yinsh_run_info **runs, int *n, char *err);

/* ---- training positions --------------------------------------------- */

/* Every position of the selected games in which an action was chosen,
 * with the action, the game's result for the side that acted (z: 1 won,
 * 0 drawn, -1 lost) and the search's stored figures. Games without a
 * result are skipped; a game's final position is not a sample. */
typedef struct yinsh_samples yinsh_samples;

typedef struct yinsh_sample {
    uint32_t game;          /* games of this reader before this sample's */
    uint32_t game_index;    /* the game's index in its run */
    float value;            /* the stored value for the actor, NaN when not searched */
    uint32_t root_visits;   /* 0 when not searched */
    uint32_t chosen_visits;
    int16_t ply;            /* from 0 */
    int16_t action;         /* the index of the action played */
    uint16_t legal;         /* legal actions in the position */
    int8_t z;
    int8_t result;          /* the game's YINSH_RESULT_* */
    uint8_t actor, state, variant, searched;
    float root_value;       /* the stored position's value for the actor, NaN where none is stored */
} yinsh_sample;

YINSH_API int yinsh_samples_open(yinsh_samples **out, yinsh_db *db, const yinsh_selection *sel, char *err);
/* Reads up to max samples: for each, its row into rows, its planes seen
 * by view as raw bytes (YINSH_OBSERVATION each) into planes_raw and as
 * values into planes, and its YPN (YINSH_YPN_LEN bytes each) into ypn;
 * any of the four may be NULL. *n receives how many were read: fewer
 * than max only at the end, 0 after it. After an error naming a game
 * whose actions do not replay (a damaged row), *n were read before it,
 * and the next call goes on with the next game. */
YINSH_API int yinsh_samples_read(yinsh_samples *s, int max, int view, yinsh_sample *rows, uint8_t *planes_raw,
                                 float *planes, char *ypn, int *n, char *err);
/* yinsh_samples_read with each sample's policy target too, into policy
 * (YINSH_ACTIONS floats each; may be NULL): the stored root visits as
 * shares by action index, all 0 where the action has no stored
 * distribution. */
YINSH_API int yinsh_samples_read_policy(yinsh_samples *s, int max, int view, yinsh_sample *rows, uint8_t *planes_raw,
                                        float *planes, char *ypn, float *policy, int *n, char *err);
/* Where yinsh_samples_read_arrays writes each sample's arrays (any
 * field may be NULL: not written): the planes seen by the view as raw
 * bytes (YINSH_OBSERVATION each) and as values in [0, 1]
 * (YINSH_OBSERVATION floats each), the YPN (YINSH_YPN_LEN bytes each),
 * the policy target (YINSH_ACTIONS floats each, as
 * yinsh_samples_read_policy), and the legal-action mask (YINSH_ACTIONS
 * bytes each, 1 where legal, as yinsh_position_legal_mask). An addition
 * of API version 2. */
typedef struct yinsh_sample_arrays {
    uint8_t *planes_raw;
    float *planes;
    char *ypn;
    float *policy;
    uint8_t *mask;
} yinsh_sample_arrays;
/* yinsh_samples_read with the arrays of out (NULL: none but rows). */
YINSH_API int yinsh_samples_read_arrays(yinsh_samples *s, int max, int view, yinsh_sample *rows,
                                        const yinsh_sample_arrays *out, int *n, char *err);
YINSH_API void yinsh_samples_close(yinsh_samples *s);
/* Writes the samples of sel to path, whole or not at all, in format
 * "ypn", "csv" or "planes" (a .npy file; docs/python.md has the fields),
 * the planes with options joined by '+': "+policy" (each record's policy
 * target as 2142 float32; "planes+policy"), "+policy-f16" (as float16),
 * "+policy-sparse" (the stored children's indices and shares), "+mask"
 * (the legal actions as 2142 bits), as `yinsh positions --policy-format
 * F --mask` writes them (the options an addition of API version 2); the
 * planes seen by view; the numbers of positions and games written into
 * *positions and *games (either may be NULL). A path ending in ".gz" is
 * written compressed (gzip, which Python's gzip module and `gzip -d`
 * read; the planes as two gzip members, the .npy header first). The path
 * is never one of the database's files (YINSH_ERR_USAGE); a link is
 * followed (its file replaced, the link kept); "-", standard output, a
 * FIFO or a device is written through (ypn and csv only). */
YINSH_API int yinsh_export_positions(yinsh_db *db, const yinsh_selection *sel, const char *format, int view,
                                     const char *path, uint64_t *positions, uint64_t *games, char *err);

#ifdef __cplusplus
}
#endif

#endif
