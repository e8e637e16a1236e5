/* SPSA by matches (`yinsh spsa`, study/plans/spsa_match.h) as text: the
 * point an iteration reached, the final result, and the names of the
 * files a run writes into its weights folder. */
#ifndef YINSH_SPSA_TEXT_H
#define YINSH_SPSA_TEXT_H

#include <stdbool.h>
#include <stdio.h>
#include "study/plans/spsa_match.h"

/* The parameters at the point u (in units of their ranges), each as
 * " NAME VALUE" (%.4g), on one line's end. */
void spsa_point_write(FILE *f, const SpsaRun *s, const double *u);

/* An iteration's end as a line: "iteration K/N: plus W D L ->" and the
 * point it moved to. */
void spsa_step_write(FILE *f, const SpsaRun *s, const SpsaStep *st, const double *u);

/* The result: the run's plan and gains, each parameter's final value
 * (with its start and range), the agent at the final point (its spec's
 * text) and the path's CSV file. */
void spsa_result_write(FILE *f, const SpsaRun *s, const double *u, const char *agent, const char *csv);

/* Whether a run s (const SpsaRun *) writes a file of that name into its
 * weights folder: NAME.K.plus.txt and NAME.K.minus.txt for an iteration K
 * below its iterations, or final.txt. */
bool spsa_writes_weights(const char *name, const void *s);

#endif
