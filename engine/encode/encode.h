/* Positions and actions as numbers, for learning: observation planes on
 * the engine's 11x11 grid and one fixed index per action, with the mask of
 * the legal ones. The C library (include/yinsh.h) and the Python package
 * (python/yinsh) read them from here, so both give the same numbers;
 * docs/python.md has the tables with a worked example.
 *
 * The grid: cell c of a plane is point index c of engine/types.h, column
 * * 11 + (row - 1), so plane[p][col][row - 1] as an array of shape
 * (ENCODE_PLANES, 11, 11). The 36 cells that are not points of the board
 * are 0 in every plane.
 *
 * The planes (raw values; a plane's value at each of the 85 points):
 *
 *   0  own rings          1 where a ring of the view's colour stands
 *   1  other rings        the other colour's rings
 *   2  own markers
 *   3  other markers
 *   4  valid              1 (the board's 85 points)
 *   5  black acts         1 when Black is the actor (in state '-': acted last)
 *   6..11  state P M R X r x   1 in the plane of the position's state
 *   12 over               1 in state '-' (a game ended by rows; a game that
 *                         ends in M because the pool is empty or nobody can
 *                         move has no legal action, and its state plane M)
 *   13 own removed        rings the view's colour took off, 0..3
 *   14 other removed      the other colour's, 0..3
 *   15 pool               markers left in the pool, 0..51
 *   16 blitz              1 in the blitz variant
 *
 * The view says whose pieces are "own": White's (ENCODE_VIEW_WHITE, the
 * absolute board), Black's, or the actor's (ENCODE_VIEW_ACTOR, the side to
 * act's view: the same planes as ENCODE_VIEW_WHITE when White acts, with
 * the colours swapped when Black acts). Plane 5 is absolute in every view,
 * so no view loses the actor's colour. encode_planes gives each raw value
 * divided by ENCODE_PLANE_SCALE (3 for removed rings, 51 for the pool, 1
 * otherwise), so every value lies in [0, 1].
 *
 * The action indices, ENCODE_ACTIONS of them, by kind (docs/notation.md §3):
 *
 *   ENCODE_PLACE0 + n   placement at the n-th point (canonical order)   85
 *   ENCODE_MOVE0 + m    a move, from a point to another on one of its
 *                       lines, any distance (the board's lines have no
 *                       gaps, so every such pair is a move of some
 *                       position)                                     1848
 *   ENCODE_PASS         pass                                             1
 *   ENCODE_ROW0 + r     a row taken off, by its two ends (5 points on a
 *                       line)                                          123
 *   ENCODE_RING0 + n    a ring taken off at the n-th point              85
 *
 * Within a kind the indices ascend in the canonical order of actions
 * (docs/notation.md §4: by first point, then second point), so a sorted
 * list of legal indices is `yinsh legal`'s list. */
#ifndef YINSH_ENCODE_H
#define YINSH_ENCODE_H

#include <stdint.h>
#include "engine/position.h"

enum {
    ENCODE_GRID = 11,
    ENCODE_CELLS = SQUARE_NB, /* 121 */
    ENCODE_PLANES = 17,
    ENCODE_SIZE = ENCODE_PLANES * ENCODE_CELLS, /* values of one observation */

    ENCODE_MOVES = 1848, /* 3 axes, each 616 ordered pairs of points on its lines */
    ENCODE_ROWS = 123,   /* 3 axes, each 41 runs of five */
    ENCODE_PLACE0 = 0,
    ENCODE_MOVE0 = ENCODE_PLACE0 + POINT_NB,
    ENCODE_PASS = ENCODE_MOVE0 + ENCODE_MOVES,
    ENCODE_ROW0 = ENCODE_PASS + 1,
    ENCODE_RING0 = ENCODE_ROW0 + ENCODE_ROWS,
    ENCODE_ACTIONS = ENCODE_RING0 + POINT_NB, /* 2142 */
};

/* The planes, by number (the table above). */
enum {
    PLANE_OWN_RINGS,
    PLANE_OTHER_RINGS,
    PLANE_OWN_MARKERS,
    PLANE_OTHER_MARKERS,
    PLANE_VALID,
    PLANE_BLACK_ACTS,
    PLANE_STATE_P, /* .. PLANE_STATE_P + STATE_x: the state's plane */
    PLANE_OVER = PLANE_STATE_P + STATE_END,
    PLANE_OWN_REMOVED,
    PLANE_OTHER_REMOVED,
    PLANE_POOL,
    PLANE_BLITZ,
    PLANE_NB
};
_Static_assert((int)PLANE_NB == (int)ENCODE_PLANES, "the plane table and ENCODE_PLANES agree");

enum { ENCODE_VIEW_WHITE = WHITE, ENCODE_VIEW_BLACK = BLACK, ENCODE_VIEW_ACTOR, ENCODE_VIEW_NB };

/* What encode_planes divides each plane's raw value by. */
extern const uint8_t ENCODE_PLANE_SCALE[ENCODE_PLANES];

/* The raw planes of pos seen by view (ENCODE_VIEW_*): ENCODE_SIZE bytes,
 * plane by plane, each plane's cells in point index order. */
void encode_planes_raw(const Position *pos, int view, uint8_t *out);
/* The same as values in [0, 1]: raw / ENCODE_PLANE_SCALE[plane]. */
void encode_planes(const Position *pos, int view, float *out);

/* The index of an action (any 32-bit value is accepted), -1 when it is
 * not an action of the space: ACTION_NONE, a point off the board, a move
 * off a line, a row that is not five points of a line written from its
 * lower end. Legality in a position is not checked. */
int encode_action(Action a);
/* The action of an index, ACTION_NONE when index is outside
 * [0, ENCODE_ACTIONS). encode_action(encode_action_at(i)) == i. */
Action encode_action_at(int index);

/* The legal actions of pos as a mask: mask[i] is 1 when action i is legal,
 * else 0 (ENCODE_ACTIONS bytes). Returns the number of legal actions. */
int encode_mask(const Position *pos, uint8_t *mask);
/* The legal actions' indices in ascending order (the canonical order),
 * at most MAX_ACTIONS into out; returns their number. */
int encode_legal(const Position *pos, int *out);

#endif
