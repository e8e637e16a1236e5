/* Evaluation features a YINSH player would name, and the evaluation: a
 * weighted sum of the differences White minus Black, squashed by the
 * logistic function to the probability that White wins (draws count 1/2).
 *
 * Each feature is computed for both colours; FEAT_TEMPO is +1 when White is
 * to act, -1 when Black is. */
#ifndef YINSH_EVALUATION_H
#define YINSH_EVALUATION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "engine/position.h"

enum {
    FEAT_RINGS_REMOVED, /* rings removed (each is a row made) */
    FEAT_MARKERS,       /* markers of the colour on the board */
    FEAT_LINES3,        /* 5-point windows with 3 own markers and no opponent marker */
    FEAT_LINES4,        /* the same with 4 own markers */
    FEAT_FLIPPABLE,     /* opponent markers the colour's rings could flip next move */
    FEAT_MOBILITY,      /* the colour's ring moves */
    FEAT_CENTRE,        /* rings' reach: points on the six rays from each ring */
    FEAT_TEMPO,         /* +1 White acts, -1 Black acts */
    FEAT_NB
};

extern const char *const FEATURE_NAMES[FEAT_NB];

/* FEAT_LINES3 and FEAT_LINES4 of one colour (mine) against the other's
 * markers (theirs): eval_line_counts is the evaluation's, bit-parallel;
 * eval_line_counts_slow the plain loop over every window, for the tests
 * that hold them equal. */
void eval_line_counts(Bitboard mine, Bitboard theirs, int *three, int *four);
void eval_line_counts_slow(Bitboard mine, Bitboard theirs, int *three, int *four);

/* Differences White minus Black of every feature (FEAT_TEMPO: +-1), as
 * whole numbers (features_int: the net's linear part, without a round
 * trip through double) or as the linear evaluation's doubles. */
void features_int(const Position *pos, int out[FEAT_NB]);
/* The features but the line counts (FEAT_LINES3 and FEAT_LINES4)
 * weighted: the sum of w[k] f[k] over them, in whole numbers, f as
 * features_int gives them. What a net's linear part computes from the
 * position at a leaf, its accumulators keeping the windows' line counts
 * (eval/nnue.h). */
int32_t features_dot_rest(const Position *pos, const int32_t w[FEAT_NB]);
void features_compute(const Position *pos, double out[FEAT_NB]);

typedef struct Weights {
    double w[FEAT_NB];
} Weights;

/* The hand-set defaults (also in eval/weights/default.txt). */
void weights_default(Weights *w);

/* Reads a file of `name value` lines ('#' comments and blank lines allowed;
 * features not listed keep their default). An unknown name, a bad number or
 * a repeated name, a number beyond WEIGHT_MAX, or a path that is not a
 * regular file is an error naming the file and line (ERR_LEN bytes).
 * weights_save writes a sibling file and renames it: never half a file. */
/* The largest weight a file may hold: far beyond any fitted weight, and
 * small enough that no evaluation overflows to a NaN. */
#define WEIGHT_MAX 1e6

int weights_load(const char *path, Weights *w, char *err);
/* The files of eval/weights/ are built into yinsh (cmake/embed_dir.cmake):
 * a path that is not there but names one of them, as "eval/weights/NAME.txt"
 * or "NAME.txt", is read from the built-in copy by weights_load, so that a
 * spec naming it plays the same weights (the same content hash) from any
 * working folder; a file that is there is always read. weights_shipped is
 * the built-in text of such a path, NULL when it names none. */
const char *weights_shipped(const char *path);
/* 0 when every weight is finite and within WEIGHT_MAX, else -1 naming it. */
int weights_check(const Weights *w, char *err);
int weights_save(const char *path, const Weights *w, const char *header, char *err);

/* A hash of the weights' values (their bits), which is what play depends
 * on: a run stores it, and a resumed run refuses weights that differ. */
uint64_t weights_hash(const Weights *w);

/* sum w_i f_i: White's advantage in logits. */
double eval_logit(const Weights *w, const Position *pos);
/* The probability that White wins (1/2 for a draw), from the logit. */
double eval_white(const Weights *w, const Position *pos);

#endif
