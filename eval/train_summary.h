/* What `yinsh train` says when a training ends: the summary of the value
 * net trained (eval/nnue_train.h) and of a policy head trained
 * (eval/policy_train.h), each written to a stream; and its lines while it
 * reads and trains. */
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

/* The lines while a training goes on, each ended by a newline: the
 * positions read ("yinsh train: N positions (...) from G games read in S
 * s (...)"); where a training starts ("yinsh train: no checkpoint CKPT:
 * starting afresh", or resuming it at an epoch and position of n_train);
 * a value net's epoch of `epochs` ("epoch E/N: train ..., validation
 * ..."); a policy head's ("yinsh train: policy epoch E: ..."). */
void nnue_data_read_write(FILE *f, const NnueData *d, int64_t repeats, double read_s);
void nnue_resume_write(FILE *f, const char *ckpt, bool resumed, int epoch, size_t position, size_t n_train);
void nnue_epoch_write(FILE *f, const NnueEpoch *ep, int epochs, size_t n_train);
void policy_epoch_write(FILE *f, const PolicyEpoch *e);

#endif
