/* A tournament's results (tournament.h) as `yinsh tournament` prints
 * them: the rating list with its head, the pairwise table and each
 * pairing's figures as text, and the same as JSON (docs/json.md). */
#ifndef YINSH_TOURNAMENT_TEXT_H
#define YINSH_TOURNAMENT_TEXT_H

#include <stdio.h>
#include "study/plans/tournament.h"

struct Json;

/* The whole text: the head (the tournament, its database `db`, how it
 * is rated: anchored at asked_anchor, or why another participant or none
 * is, with who won every game against whom), the rating list best first,
 * the pairwise table and the pairings. */
void tournament_results_print(FILE *f, const Tournament *t, const TournamentResults *r, const char *db,
                              int asked_anchor);
/* The same as members of an open JSON object, after its head (command,
 * command line, version): the tournament, its model and anchor, the
 * participants and the pairings. */
void tournament_results_json(struct Json *j, const Tournament *t, const TournamentResults *r, const char *db);

#endif
