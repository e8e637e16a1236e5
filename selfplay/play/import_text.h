/* What `yinsh import` prints of what it imported (import_records.h): a
 * boardspace.net record's game, and the runs of the compact form. */
#ifndef YINSH_IMPORT_TEXT_H
#define YINSH_IMPORT_TEXT_H

#include <stdio.h>
#include "selfplay/play/import_records.h"

/* "FILE: run RUN: WHITE (White) against BLACK (Black), N actions, result
 * R (REASON)". */
void import_game_print(FILE *f, const char *file, const ImportedGame *g);
/* Each run merged ("run NAME: N games imported, M held already
 * (identical); S/G games[, finished]"), then the file's totals (file
 * "-": standard input). */
void import_runs_print(FILE *f, const char *file, const ImportedRuns *in);

#endif
