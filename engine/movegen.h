/* Legal actions for every state, and bulk counting. */
#ifndef YINSH_MOVEGEN_H
#define YINSH_MOVEGEN_H

#include <stdbool.h>
#include "engine/position.h"
#include "engine/base/rng.h"

/* Writes the legal actions to list (MAX_ACTIONS entries) and returns their
 * number; 0 exactly when the game is over. Order: placements and removals
 * by point in canonical order (then swap, where it is legal); moves by direction (0..5, geometry.h), then
 * by destination in canonical order. */
int movegen_all(const Position *pos, Action *list);

/* Sorts actions into the canonical order, the order every list of actions
 * is written in (the CLI, the test data): by first point, then by second
 * point, each in the canonical point order of docs/rules.md §1 (ascending Point);
 * the first point is the placement point, move origin, lower row end or
 * removed ring, the second the destination or higher row end (none: a
 * placement, a ring removal or pass); swap, which has no point, comes
 * last. One position never offers two kinds
 * of action at one pair of points; the kind breaks such ties in any other
 * list, so the order is total. */
void movegen_sort(Action *list, int n);

/* The number of legal actions, without writing them (perft's last ply). */
int movegen_count(const Position *pos);

/* The number of ring moves the player would have if it were their move. */
int movegen_count_moves(const Position *pos, int colour);

/* The markers (either colour) that some move of the player's rings would
 * flip, if it were their move. */
Bitboard movegen_flippable(const Position *pos, int colour);

/* Both at once for both players, as the evaluation's features ask for
 * them: moves[c] is movegen_count_moves(pos, c) and flippable[c]
 * movegen_flippable(pos, c), the fills' shared parts computed once. */
void movegen_moves_and_flips(const Position *pos, int moves[COLOUR_NB], Bitboard flippable[COLOUR_NB]);

/* Whether pos is not quiet: in state M, one of the actor's moves
 * completes a row of its own (the moves alpha-beta's quiescence step
 * searches, selfplay/search/ab.h). A position in any other state is
 * quiet by this test. */
bool movegen_row_in_reach(const Position *pos);

/* The actor's ring moves (state M) after which five of its own markers
 * stand in a line (the markers as pos_make leaves them: the origin's new
 * marker and the flips), in movegen_all's order, into list; their number.
 * The moves alpha-beta's quiescence step searches (selfplay/search/ab.h),
 * found without making each: a position in another state has none. */
int movegen_row_moves(const Position *pos, Action *list);

/* A uniformly random legal action, ACTION_NONE when the game is over. It
 * draws exactly as list[rng_below(rng, n)] over movegen_all's list would,
 * so the two give the same games, but without writing the list. */
Action movegen_random(const Position *pos, Rng *rng);

/* Whether a is legal in pos (any 32-bit value is accepted as input). */
bool movegen_is_legal(const Position *pos, Action a);

#endif
