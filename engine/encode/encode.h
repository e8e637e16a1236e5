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
 *   16 blitz              1 in the blitz variant (any of its options; the
 *                         planes do not show +swap or +draw-odds)
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
 *   ENCODE_PASS         pass; in state P, swap (docs/rules.md §9.1)      1
 *   ENCODE_ROW0 + r     a row taken off, by its two ends (5 points on a
 *                       line)                                          123
 *   ENCODE_RING0 + n    a ring taken off at the n-th point              85
 *
 * Pass and swap share one index: neither has a point, pass is legal only
 * in state M and swap only in state P, so a position offers at most one
 * of them, and the slot (the centre, which every symmetry keeps) suits
 * both. encode_action_at, which has no position, gives pass for it;
 * encode_action_in reads it in a position. The space keeps its size, so
 * nets and sample files of the standard game read as before.
 *
 * Within a kind the indices ascend in the canonical order of actions
 * (docs/notation.md §4: by first point, then second point), so a sorted
 * list of legal indices is `yinsh legal`'s list.
 *
 * The board-shaped layout: each action index has one slot (channel, cell)
 * in ENCODE_CHANNELS planes on the planes' grid, for a convolutional
 * policy head; the cell is the point that defines the action:
 *
 *   channel 0          placement, at its point
 *   channel 1 + 9d + k - 1   a move in direction d (geometry.h's 0..5)
 *                      over k points (1..9), at its origin
 *   channel 55         pass (or swap), at the centre f6 (cell 60)
 *   channel 56 + axis  a row along axis 0..2, at its middle (third) point
 *   channel 59         ring taken off, at its point
 *
 * Every index has its slot and no two share one. Each defining point is
 * one that the board's symmetries carry along with the action (a row's
 * middle, not an end that a reflection would make the other end; the
 * centre, which no symmetry moves), so the layout is equivariant: the
 * slot of an action's image is (sym_channel(channel), sym_cell(cell)).
 *
 * The symmetries: the board's 12 (the dihedral group of the hexagon),
 * numbered as eval/nnue_train.h's: 0 the identity, 1..5 the rotations by
 * 60 k degrees, 6..11 a reflection (swapping the axes of directions 0
 * and 1) followed by the rotation of k - 6. The image of a position under
 * s has a piece at sym_cell(s, c) where the position has one at c; every
 * other field (actor, state, counts) is the same, so its planes are the
 * position's with every plane's cells moved so. Cells off the board map
 * to themselves. */
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

    ENCODE_MOVE_SPAN = 9,  /* a move's longest distance: the board's longest lines have 10 points */
    ENCODE_SYMMETRIES = 12,
};

/* The layout's channels (the table above). */
enum {
    CHANNEL_PLACE,
    CHANNEL_MOVE0, /* + 9 direction + distance - 1 */
    CHANNEL_PASS = CHANNEL_MOVE0 + 6 * ENCODE_MOVE_SPAN,
    CHANNEL_ROW0, /* + axis */
    CHANNEL_RING = CHANNEL_ROW0 + 3,
    ENCODE_CHANNELS, /* 60 */
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

/* The action of an index in pos: encode_action_at, except that
 * ENCODE_PASS is swap in state P. For a legal index, the legal action. */
Action encode_action_in(const Position *pos, int index);

/* The legal actions of pos as a mask: mask[i] is 1 when action i is legal,
 * else 0 (ENCODE_ACTIONS bytes). Returns the number of legal actions. */
int encode_mask(const Position *pos, uint8_t *mask);
/* The legal actions' indices in ascending order (the canonical order),
 * at most MAX_ACTIONS into out; returns their number. */
int encode_legal(const Position *pos, int *out);

/* The slot of an action index in the board-shaped layout: its channel and
 * its cell; index in [0, ENCODE_ACTIONS). */
int encode_layout_channel(int index);
int encode_layout_cell(int index);
/* The action index of a slot, -1 for a slot no action has (or one outside
 * [0, ENCODE_CHANNELS) x [0, ENCODE_CELLS)). */
int encode_layout_index(int channel, int cell);

/* Symmetry s (0 .. ENCODE_SYMMETRIES - 1) of a cell, of a layout channel,
 * of an action index: the image of each under s; the symmetry that undoes
 * s; the image of a position (its key recomputed). Arguments are in range
 * (asserted). */
int encode_sym_cell(int s, int cell);
int encode_sym_channel(int s, int channel);
int encode_sym_action(int s, int index);
int encode_sym_inverse(int s);
void encode_sym_position(const Position *pos, int s, Position *out);

#endif
