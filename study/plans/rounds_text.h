/* The rounds' results as text and JSON (`yinsh rounds`, docs/rounds.md,
 * docs/json.md), and the names of the files the rounds write. */
#ifndef YINSH_ROUNDS_TEXT_H
#define YINSH_ROUNDS_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "engine/base/json.h"
#include "study/plans/rounds.h"

/* A log-loss as the table writes it: "%.5f", or "-" when there is none
 * (NaN: no validation games). */
void rounds_loss_text(double v, char *out, size_t size);
/* The Elo as `yinsh match` prints it: "+12.3 (+1.0 to +23.4)", or "+0.0
 * (no interval)" (adding 0.0 turns -0.0 into 0.0). */
void rounds_elo_text(Interval e, char *out, size_t size);

/* A round's fit (net: training) as a line: "round K/R: fitted to N
 * positions of G games: validation log-loss A -> B; wrote FILE". */
void rounds_fitted_write(FILE *f, const RoundRow *w, int rounds, bool net);
/* A round's match as a line: "round K/R: new vs old W D L, Elo E: gains"
 * (or "does not gain, the rounds stop"). */
void rounds_judged_write(FILE *f, const RoundRow *w, int rounds);

/* The table: a line per round played (nrows of rows), then the best
 * weights (best: its round, 0 the start r->from). */
void rounds_table_write(FILE *f, const Rounds *r, const RoundRow *rows, int nrows, int best);
/* The rounds' plan and their rows as members of the JSON document j (its
 * caller began and ends it); csv: the table's CSV file. */
void rounds_json_write(Json *j, const Rounds *r, const RoundRow *rows, int nrows, int best, const char *csv);

/* Whether the rounds r (const Rounds *) write a file of that name into
 * their folder: NAME.csv, or the weights NAME.k.txt (NAME.k.nnue with
 * net) of a round k from 1 to r->rounds. */
bool rounds_writes_file(const char *name, const void *r);

#endif
