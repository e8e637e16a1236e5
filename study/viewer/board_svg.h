/* The board drawn as SVG, once for everything that shows a position:
 * `yinsh svg` writes whole documents with it, and the viewer's pages
 * (study/viewer/viewer.js) draw with the tables it exports (board.js): the
 * same coordinates, the same SVG text for every piece and highlight, the
 * same status lines. The page never decides how anything looks; it fills
 * these templates.
 *
 * A drawing is four layers: the board (grid, points, coordinates, the
 * slots for removed rings: the same in every drawing), the marks (the last
 * action's highlights under the pieces, and the removed rings in their
 * slots), the pieces (from the position, in canonical point order), and
 * the texts (who acts and what, or the result; the last action).
 *
 * Marks are named by one letter, the key of their SVG template:
 *
 *   W B w b   a white/black ring, a white/black marker (YPN's letters)
 *   p         a move's path (two places: from, to)
 *   f         a marker the move flipped
 *   n         a ring just placed
 *   r         a removed row (its two ends)
 *   x y       a removed white/black marker of that row
 *   z         a removed ring (no colour: the position after a removal
 *             does not always tell whose it was)
 *
 * and written as text, "letter place [place]" without spaces, marks
 * separated by one space: "pe5e8 fe6 fe7 WW1". A place is a point (e5) or
 * a slot for a removed ring: W1..W3 White's, B1..B3 Black's. */
#ifndef YINSH_BOARD_SVG_H
#define YINSH_BOARD_SVG_H

#include <stddef.h>
#include <stdio.h>
#include "engine/position.h"

enum {
    BOARD_SLOT0 = SQUARE_NB,  /* slot k of colour c is place BOARD_SLOT0 + 3 c + k */
    BOARD_PLACE_NB = SQUARE_NB + 2 * RINGS_TO_WIN,
    BOARD_MARKS_MAX = 32,     /* a move flips at most 9, a row is 6 marks, 6 slots */
    BOARD_MARKS_TEXT = 8 * BOARD_MARKS_MAX,
    BOARD_TEXT_LEN = 96,      /* a status line */
    /* status codes: actor * STATE_NB + state while the game goes on, then
     * BOARD_STATUS_END + result * REASON_NB + reason once it is over */
    BOARD_STATUS_END = COLOUR_NB * STATE_NB,
    BOARD_STATUS_NB = BOARD_STATUS_END + RESULT_NB * REASON_NB,
    BOARD_SIZE_MIN = 50, BOARD_SIZE_MAX = 10000, /* --size: the drawing's width in pixels */
};

typedef struct BoardMark {
    char kind; /* the letter */
    short at;  /* a place: a point (index in the 11x11 embedding) or a slot */
    short to;  /* p and r: the second place; else -1 */
} BoardMark;

/* The highlights of the action that led to pos: a move's path and the
 * markers it flipped, the ring placed, the row or the ring removed, the
 * ring a swap gave Black (+swap variants, docs/rules.md §9.1). The
 * action is checked against the position (a move ends on a ring and
 * leaves a marker where it began; a removed row or ring leaves its points
 * empty...); when it does not fit, -1 and why in err. Appends to marks. */
int board_last_marks(const Position *pos, Action last, BoardMark *marks, int *n, char *err);
/* The rings each side removed, in their slots. Appends to marks. */
void board_slot_marks(const Position *pos, BoardMark *marks, int *n);
/* Marks as text (see above); returns out (BOARD_MARKS_TEXT bytes). */
char *board_marks_text(const BoardMark *marks, int n, char *out);

/* The status line of a position: its code, and the text of a code. */
int board_status(const Position *pos);
char *board_status_text(int code, char out[BOARD_TEXT_LEN]);

/* The whole SVG document: pos with its last action (text, NULL for none,
 * checked as board_last_marks does), width px pixels. 0, or -1 with why
 * in err. */
int board_svg_write(FILE *f, const Position *pos, const char *last, int px, char *err);

/* The tables the viewer draws with, as a script that defines
 * YINSH_BOARD: the templates of the document, the board layer, the marks
 * and the texts; every place's coordinates; each column's points in order
 * (to read a YPN); the status lines. 0, or -1 with why in err. */
int board_svg_script(FILE *f, char *err);

#endif
