/* A small neural evaluation in the NNUE style (issue 24): the side to
 * act's winning logit from a network whose first layer is a sum of weight
 * rows, one per piece on the board, kept up to date along make/unmake.
 *
 * Inputs. Each position is seen twice, once from each colour's side c
 * (a "perspective"), with the same weights: the colours of the pieces are
 * named relative to c, so Black's view is White's with the colours
 * swapped (the board needs no mirroring: its geometry is the same for
 * both). The inputs of perspective c, all 0/1:
 *   - pieces: for each of the 85 points, an own marker, an opponent's
 *     marker, an own ring, an opponent's ring (empty is no input);
 *   - rings removed: own >= 1, >= 2, >= 3, and the opponent's;
 *   - markers left in the pool: one input for each count 0..51;
 *   - the state (P, M, R, X, r, x, end) and whether c is the one to act:
 *     one input for each pair;
 *   - blitz: the variant.
 * NNUE_FEATURES = 4 * 85 + 6 + 52 + 14 + 1 = 413 inputs; a position has
 * at most 61 pieces and 9 other inputs active in each perspective.
 *
 * Network. The accumulator of perspective c is b1 + the sum of the rows
 * W1[f] of its active inputs: `hidden` int16 values (16..256, a multiple
 * of 16). The side to act's accumulator and then the other's, each
 * clipped to [0, QA] (clipped ReLU), form the hidden layer of 2 hidden
 * values; either one output (l2 = 0: out = b2 + w2 . h) or a second
 * layer of l2 clipped units (1..32) and then the output. All integers:
 * int16 weights, int32 sums; the output is the side to act's logit times
 * QA * QW, which nnue_logit turns into the logit (a win 1, a draw 1/2, a
 * loss 0, as the linear evaluation's).
 *
 * Incremental. The first layer is linear, so an action changes an
 * accumulator by the rows of the inputs it adds and removes: a placement
 * adds a ring; a move moves a ring, adds a marker and turns the jumped
 * markers over (each one's input of one colour off, the other's on); a
 * row removal takes 5 markers off; a ring removal a ring; each action
 * changes the state inputs (who acts, the state, the pool, the removed
 * rings). nnue_delta lists those rows from the position after the action
 * and its Undo (where one input goes off and another on, a turned-over
 * marker, the pool one down, the turn passed, one difference row made at
 * the load: NNUE_ROW_FLIP); nnue_apply adds them to the parent's
 * accumulator into the child's. A search keeps one accumulator per ply (NnueAcc stack[ply]):
 * make computes stack[ply + 1] from stack[ply], unmake is the ply going
 * back. nnue_refresh computes one from scratch (the root, the tests).
 * int16 sums wrap (two's complement), and a sum that wraps does so in any
 * order: an incremental accumulator equals the one from scratch always;
 * the trainer clips the weights so that no sum can wrap.
 *
 * Paths. Every kernel exists twice: portable C and AVX2 intrinsics
 * (compiled on x86-64 with a target attribute, so that a portable build
 * has them too). Both compute the same integers with the same wrap-around,
 * so they give the same bits, and a game is reproducible on any machine.
 * A net picks the AVX2 path when the CPU has it (nnue_path); the _path
 * functions take a path for the tests and the benchmark.
 *
 * A loaded net is read-only: any number of searches and threads share it.
 * Its one changing field is a count of references (atomic): a loaded net
 * has one, nnue_retain takes another, nnue_free gives one back and frees
 * the net with the last, so that holders with lives of their own (agent
 * specs and the agents made from them, agents/agent.h) share one copy.
 * The file format is docs/nnue.md. */
#ifndef YINSH_NNUE_H
#define YINSH_NNUE_H

#include <stdalign.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "engine/position.h"
#include "eval/patterns.h"

enum {
    NNUE_FEATURE_SET = 1, /* the inputs above; a file of another set is refused */
    NNUE_FEATURE_SET_LINEAR = 2, /* the inputs above and a linear part (NnueParams.lw) */
    NNUE_FEATURE_SET_PATTERNS = 3, /* the inputs above, a linear part and a pattern part (NnueParams.pw) */
    NNUE_FEATURE_SET_POLICY = 4, /* set 3 and a policy head (NnueParams.ppw; eval/nnue_policy.h) */
    NNUE_FEATURE_SET_DIRECT = 5, /* set 3 and a direct policy head: no beta, no child evaluated (nnue_policy.h) */
    NNUE_LINEAR_MAX = 8,  /* the largest weight of the linear part, in logits a unit of its feature */
    NNUE_FORMAT_VERSION = 1,
    NNUE_FEATURES = 4 * POINT_NB + 6 + (MARKERS_NB + 1) + 2 * STATE_NB + 1, /* 413 */
    NNUE_MIN_HIDDEN = 16,
    NNUE_MAX_HIDDEN = 256,
    NNUE_MAX_L2 = 32,
    NNUE_MAX_ACTIVE = 72,   /* active inputs of one perspective: 61 pieces, 9 others, and room */
    NNUE_MAX_DELTA = 32,    /* rows one action adds or removes in one perspective: at most 23 */
    NNUE_DESC_MAX = 255,    /* bytes of the description a file carries */
    NNUE_HEADER_BYTES = 56,
    NNUE_QA = 255,          /* the trainer's scales: an activation of 1 is QA */
    NNUE_QW = 64,           /* a weight of 1 past the first layer is QW */
    NNUE_POLICY_Q = 512,    /* the policy head's scale: a weight of 1 is 512, a bias of 1 QA * 512 */
    NNUE_POLICY_MAX = 8,    /* the largest policy weight (so that no sum of one can wrap) */
    NNUE_BIAS_MAX = 1000,   /* the largest bias past the first layer, in logits (b2, b3, the policy's) */
    NNUE_BETA_Q = 1024,     /* the policy head's beta: 1 is 1024 */
};

/* Rows of the first layer in memory (and in the trainer): the pieces by
 * point of the 11x11 embedding, so that a bitboard's bits index them with
 * no table (the rows of the 36 points off the board are zero and never
 * active), then the other inputs. The file holds only the 85 points'
 * rows, in canonical order (docs/nnue.md). */
enum {
    NNUE_OWN_MARKER = 0, NNUE_THEIR_MARKER = 1, NNUE_OWN_RING = 2, NNUE_THEIR_RING = 3,
    NNUE_ROW_REMOVED = 4 * SQUARE_NB,            /* + 0..2 own >= 1..3, + 3..5 the opponent's */
    NNUE_ROW_POOL = NNUE_ROW_REMOVED + 6,        /* + markers in the pool */
    NNUE_ROW_STATE = NNUE_ROW_POOL + MARKERS_NB + 1, /* + 2 * state + (c is not the one to act) */
    NNUE_ROW_BLITZ = NNUE_ROW_STATE + 2 * STATE_NB,
    NNUE_ROWS = NNUE_ROW_BLITZ + 1,              /* 557 */
};

/* Rows an update adds in one step, made from the file's rows at the load
 * (after NNUE_ROWS in memory; no file holds them): one row for what is
 * otherwise a row off and another on, each way, so that a ring move only
 * adds rows, as many in either perspective. The int16 sums wrap, so
 * adding a difference computed with wrap-around gives the same integers
 * as the two rows. */
enum {
    NNUE_ROW_FLIP = NNUE_ROWS,                          /* + point: the opponent's marker less one's own */
    NNUE_ROW_UNFLIP = NNUE_ROW_FLIP + SQUARE_NB,        /* + point: one's own marker less the opponent's */
    NNUE_ROW_LEAVE = NNUE_ROW_UNFLIP + SQUARE_NB,       /* + kind (0 own, 1 the opponent's) * SQUARE_NB + point:
                                                           a ring left for a marker of its colour */
    NNUE_ROW_POOL_DOWN = NNUE_ROW_LEAVE + 2 * SQUARE_NB, /* + k (1..51): the pool of k - 1 markers less that of k */
    NNUE_ROW_TURN = NNUE_ROW_POOL_DOWN + MARKERS_NB + 1, /* + 2 * state + 0: the other to act less oneself
                                                            to act; + 1: the reverse */
    NNUE_ROWS_MADE = NNUE_ROW_TURN + 2 * STATE_NB,      /* rows in memory */
    NNUE_MAX_POINTS = 16,                               /* points one action changes: at most 10 */
};

typedef enum { NNUE_PATH_PORTABLE = 0, NNUE_PATH_AVX2 = 1 } NnuePath;

typedef struct Nnue Nnue;

/* The two perspectives' accumulators, by colour (not by who acts): the
 * first `hidden` values of each are used. 32-byte aligned for the vector
 * path; an array of them (a search's stack) keeps every one aligned. */
typedef struct NnueAcc {
    alignas(32) int16_t v[COLOUR_NB][NNUE_MAX_HIDDEN];
    /* a net with a linear part: the windows' codes seen from White
     * (patterns.h), kept with the rest along make and unmake; untouched
     * for other nets */
    uint16_t code[PATTERN_WINDOWS];
    /* and what the windows add to the output for the actor White and the
     * actor Black, kept along with the codes: the pattern part's weights
     * (a pattern part) and the linear part's windows of 3 and 4 (its
     * FEAT_LINES3 and FEAT_LINES4 terms) */
    int32_t psum[COLOUR_NB];
} NnueAcc;

/* What an action changes: the rows to add and to subtract, per
 * perspective (rows of the inputs, and the difference rows above where
 * one row goes off and another on; as many of each in either
 * perspective), and the points whose piece changed with the change of
 * each one's digit in White's view (patterns.h: the pattern part's
 * windows). */
typedef struct NnueDelta {
    uint8_t nadd[COLOUR_NB], nsub[COLOUR_NB];
    uint16_t add[COLOUR_NB][NNUE_MAX_DELTA], sub[COLOUR_NB][NNUE_MAX_DELTA];
    uint8_t npts;
    uint8_t pts[NNUE_MAX_POINTS];
    int8_t change[NNUE_MAX_POINTS];
} NnueDelta;

/* ---- inputs --------------------------------------------------------- */

/* The active rows of perspective c (NNUE_ROWS numbering) into rows, in a
 * fixed order (pieces by kind, then point; then the others); their number. */
int nnue_features(const Position *pos, int c, uint16_t rows[NNUE_MAX_ACTIVE]);
/* The file's input index (0..NNUE_FEATURES-1) of a row; -1 for a row of
 * a point off the board. */
int nnue_row_feature(int row);
/* What action a changed: pos is the position after pos_make(pos, a, u). */
void nnue_delta(const Position *pos, Action a, const Undo *u, NnueDelta *d);

/* ---- a net ---------------------------------------------------------- */

/* The parameters in file order, as the trainer makes them and the file
 * holds them (docs/nnue.md): w1 is NNUE_FEATURES rows of hidden values;
 * w2 is 2 * hidden values (l2 = 0) or l2 rows of 2 * hidden; b2 one or
 * l2 values; w3 and b3 only with l2 > 0. */
typedef struct NnueParams {
    int hidden, l2, qa, qw;
    const int16_t *w1, *b1, *w2, *w3;
    const int32_t *b2;
    int32_t b3;
    /* NULL: no linear part (feature set 1). Else FEAT_NB weights (feature
     * set 2), times QA * QW, of the linear evaluation's features
     * (eval/evaluation.h) in the view of the side to act, added to the
     * output: the net then learns what the features do not say. */
    const int32_t *lw;
    /* NULL: no pattern part. Else (with lw; feature set 3) PATTERN_NB
     * weights (eval/patterns.h), times QA * QW, one per line-pattern
     * class, summed over the position's 123 windows seen from the side
     * to act and added to the output. */
    const int32_t *pw;
    /* NULL: no policy head. Else (with pw; feature set 4) the policy head
     * of eval/nnue_policy.h: ppw, ENCODE_ACTIONS rows of 2 * hidden
     * weights times NNUE_POLICY_Q; ppb, ENCODE_ACTIONS biases times
     * QA * NNUE_POLICY_Q; beta, the children's values' weight times
     * NNUE_BETA_Q. direct (feature set 5): the head alone gives the
     * priors, no child is evaluated; beta is not in the file (0). */
    const int16_t *ppw;
    const int32_t *ppb;
    int32_t beta;
    bool direct;
    const char *description; /* at most NNUE_DESC_MAX bytes are written; NULL: none */
} NnueParams;

/* The bytes of a net file for p (malloc'ed into *bytes, *len of them):
 * 0, or ERR_USAGE when the sizes or scales are out of range. */
int nnue_encode(const NnueParams *p, uint8_t **bytes, size_t *len, char *err);
/* A net from a file's bytes; `name` (the path, "the built-in net") heads
 * every message. A short, damaged or mismatched file is refused: not a
 * net file, another format version or feature set, sizes out of range,
 * fewer or more bytes than the header says, or a content hash that
 * differs (ERR_FAIL). */
int nnue_decode(Nnue **out, const uint8_t *bytes, size_t len, const char *name, char *err);
/* nnue_decode of a file's contents, read by file_read (engine/base/file.h):
 * ERR_NOT_FOUND when it does not exist, ERR_FAIL for any other refusal.
 * The shipped nets (every file of eval/nets at build time) are built
 * into yinsh: a path that is not there but names
 * one of them, as "eval/nets/NAME.nnue" or "NAME.nnue", is read from the
 * built-in copy (the same bytes, the same content hash), so that a spec
 * naming it plays the same net from any working folder; a file that is
 * there is always read. */
int nnue_load(Nnue **out, const char *path, char *err);
/* The net built into the binary (eval/nets/default.nnue at build time). */
int nnue_load_builtin(Nnue **out, char *err);
/* Writes the bytes whole or not at all (base/file.h). */
int nnue_save(const char *path, const uint8_t *bytes, size_t len, char *err);
/* Another reference to net (NULL: none); returns net. */
const Nnue *nnue_retain(const Nnue *net);
/* Gives one reference back; the last frees the net. NULL: nothing. */
void nnue_free(const Nnue *net);

int nnue_hidden(const Nnue *net);
int nnue_l2(const Nnue *net);
int nnue_qa(const Nnue *net);
/* Whether the net has a linear part (feature set 2), and that part of
 * pos's output (in the output's integers, for the side to act; 0 without
 * one): computed from the position, as the linear evaluation is, at each
 * evaluation. nnue_evaluate includes it; nnue_output (the accumulators'
 * part) does not. */
bool nnue_has_linear(const Nnue *net);
/* With a pattern part (feature set 3), nnue_linear includes it. */
bool nnue_has_patterns(const Nnue *net);
int32_t nnue_linear(const Nnue *net, const Position *pos);
/* The same from the position's accumulators (acc, as nnue_refresh or
 * nnue_make left it): the pattern part and the line features from the
 * windows' sums they keep (NnueAcc.psum), the other features from the
 * position. What a search adds to nnue_output at a leaf; equal to
 * nnue_linear. */
int32_t nnue_parts(const Nnue *net, const NnueAcc *acc, const Position *pos);
/* The net's parameters as floats, each over its scale (w1 and b1 over
 * QA, w2 and w3 over QW, b2, b3 and the linear part over QA * QW), in
 * the trainer's order (eval/nnue_train.c): w1 as NNUE_ROWS rows of
 * `hidden` (the rows in memory, off-board points' rows zero), b1, w2, b2,
 * then with a second layer w3 and b3, then with a linear part its
 * FEAT_NB weights, then with a pattern part its PATTERN_NB weights. Writes into p and returns the count, or (p NULL) only
 * returns it. A warm start begins from these. */
size_t nnue_float_params(const Nnue *net, float *p);
/* The net's integers as nnue_encode takes them, for a file of the same
 * net with another part (a policy head): w1 is copied into the buffer w1
 * (NNUE_FEATURES * hidden values, in the file's order), the rest point
 * into the net; the policy head is left out (ppw NULL). */
void nnue_int_params(const Nnue *net, int16_t *w1, NnueParams *p);
/* The policy head (feature set 4 or 5; eval/nnue_policy.h): false without
 * one, else its parameters as NnueParams has them (read-only, the net's;
 * a direct head's beta is 0). */
bool nnue_policy_head(const Nnue *net, const int16_t **ppw, const int32_t **ppb, int32_t *beta);
/* Whether the net's head is a direct one (feature set 5): the priors from
 * the leaf's own hidden layer alone, no child evaluated. */
bool nnue_policy_direct(const Nnue *net);
/* The hidden layer of acc for the side `actor` acts: its accumulator then
 * the other's, each clipped to [0, QA] (2 * hidden values). */
void nnue_hidden_values(const Nnue *net, const NnueAcc *acc, int actor, int16_t *h);
/* The content hash of the file (its header says it and the loader checked
 * it): what play depends on, as weights_hash is for a weights file. */
uint64_t nnue_hash(const Nnue *net);
const char *nnue_description(const Nnue *net);
/* The path the net's kernels take: AVX2 when the CPU has it. */
NnuePath nnue_path(const Nnue *net);
/* Whether this build and CPU can take path p. */
bool nnue_path_available(NnuePath p);

/* ---- inference ------------------------------------------------------ */

void nnue_refresh(const Nnue *net, const Position *pos, NnueAcc *acc);
void nnue_apply(const Nnue *net, const NnueAcc *from, const NnueDelta *d, NnueAcc *to);
/* to = from after action a: nnue_delta and nnue_apply (pos, a, u as there). */
void nnue_make(const Nnue *net, const NnueAcc *from, NnueAcc *to, const Position *pos, Action a, const Undo *u);
/* to = from after the actor passes its turn (a search's null move): pos is
 * the position after it, the same but for the actor; only the inputs of
 * who acts change. */
void nnue_pass(const Nnue *net, const NnueAcc *from, NnueAcc *to, const Position *pos);
/* The raw output for the side `actor` acts (the position's actor):
 * its logit times QA * QW. */
int32_t nnue_output(const Nnue *net, const NnueAcc *acc, int actor);
/* The output of pos from scratch. */
int32_t nnue_evaluate(const Nnue *net, const Position *pos);
/* The logit of a raw output: raw / (QA * QW), exact in double. */
double nnue_logit(const Nnue *net, int32_t raw);

/* The same kernels on a chosen path (an available one). */
void nnue_refresh_path(const Nnue *net, NnuePath p, const Position *pos, NnueAcc *acc);
void nnue_apply_path(const Nnue *net, NnuePath p, const NnueAcc *from, const NnueDelta *d, NnueAcc *to);
int32_t nnue_output_path(const Nnue *net, NnuePath p, const NnueAcc *acc, int actor);

#endif
