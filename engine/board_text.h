/* The board as text, for a terminal: `yinsh show` draws a position with
 * its coordinates and says whose turn it is and what happens next. */
#ifndef YINSH_BOARD_TEXT_H
#define YINSH_BOARD_TEXT_H

#include <stdio.h>
#include "engine/position.h"

/* The hexagonal board, rings W/B, markers w/b, empty points '.', with the
 * column letters above and below and each row's number left of it. */
void board_text_draw(const Position *pos, FILE *f);

/* The legend, then the actor and what it does, the variant, the rings
 * removed, the markers in the pool and, when the game is over, its result. */
void board_text_describe(const Position *pos, FILE *f);

#endif
