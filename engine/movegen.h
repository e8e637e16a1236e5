/* Legal actions for every state, and bulk counting. */
#ifndef YINSH_MOVEGEN_H
#define YINSH_MOVEGEN_H

#include <stdbool.h>
#include "position.h"

/* Writes the legal actions to list (MAX_ACTIONS entries) and returns their
 * number; 0 exactly when the game is over. Order: by origin point in
 * canonical order, then direction 0..5, then distance. */
int movegen_all(const Position *pos, Action *list);

/* The number of legal actions, without writing them (perft's last ply). */
int movegen_count(const Position *pos);

/* Whether the player has at least one ring move (markers in pool aside). */
bool movegen_can_move(const Position *pos, int colour);

/* Whether a is legal in pos (any 32-bit value is accepted as input). */
bool movegen_is_legal(const Position *pos, Action a);

#endif
