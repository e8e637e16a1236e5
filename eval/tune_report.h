/* A fit's results for `yinsh tune`: the weights before and after as a
 * table, and the fit's figures as JSON (docs/json.md). The summary above
 * the table, which is also the weights file's header, is
 * tune_summary_write (study/positions/tune_load.h). */
#ifndef YINSH_TUNE_REPORT_H
#define YINSH_TUNE_REPORT_H

#include <stdio.h>
#include "engine/base/json.h"
#include "eval/tune.h"

/* Each feature's weight at the start and tuned, a line each under a header. */
void tune_weights_write(FILE *f, const TuneFit *fit);

/* Where a fit's data came from and went, and its times. */
typedef struct TuneFiles {
    const char *db;
    const char *const *runs; /* the runs selected; nruns 0: every run (null) */
    int nruns;
    const char *from; /* the starting weights file; NULL: the defaults */
    const char *out;  /* the weights file written */
    double read_s, fit_s;
} TuneFiles;

/* The fit as members of the JSON document j (its caller began and ends
 * it): the files, the data, the scale K, the log-losses, the Newton steps,
 * every weight before and after, the times. */
void tune_json_write(Json *j, const TuneData *d, const TuneOptions *o, const TuneFit *fit, const TuneFiles *files);

#endif
