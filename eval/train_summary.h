/* What `yinsh train` says when a training ends: the summary of the value
 * net trained (eval/nnue_train.h) and of a policy head trained
 * (eval/policy_train.h), each written to a stream. */
#ifndef YINSH_TRAIN_SUMMARY_H
#define YINSH_TRAIN_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "eval/nnue_train.h"
#include "eval/policy_train.h"

/* A value net's training, as it ended. */
typedef struct NnueTrainSummary {
    const NnueTrainOptions *o;
    const NnueData *data;
    int64_t repeats;          /* stored repeats left out */
    const char *init;         /* the net started from (start not NULL) */
    const Nnue *start;        /* NULL: from random weights */
    const NnueTrained *tr;
    double (*losses)[2][2];   /* NnueLosses: constant, baseline, float, quantised */
    bool baseline;            /* losses[1] holds a baseline's */
    double read_s;            /* reading the positions */
    const char *out;          /* the net file written */
    const Nnue *net;          /* the net as written */
} NnueTrainSummary;

/* The data, the cut, the start, the net's shape and options, a line per
 * epoch, the log-losses table, the time and the file written. */
void nnue_train_summary_write(FILE *f, const NnueTrainSummary *s);

/* A policy head's training, as it ended. */
typedef struct PolicyTrainSummary {
    const PolicyTrainOptions *o;
    const PolicyData *d;
    const char *init;      /* the value net's file */
    const Nnue *net;       /* the value net */
    bool direct;           /* a direct head */
    double read_s, train_s;
    const PolicyEpoch *fig; /* the held-out figures: [0] without a head, [1] the head before (NAN: none), [2] after */
    const char *out;       /* the net file written */
    size_t len;            /* its bytes */
} PolicyTrainSummary;

/* The data, the head's options, the held-out figures, the file written. */
void policy_train_summary_write(FILE *f, const PolicyTrainSummary *s);

#endif
