/* Ring moves as sets: the fills that find every target of a player's rings
 * at once, shared by move generation (movegen.c) and the position's own
 * question of whether a player can move at all (pos_can_move, the game's
 * end). Static inline functions over bitboards alone, so that neither
 * module calls the other. */
#ifndef YINSH_TARGETS_H
#define YINSH_TARGETS_H

#include <stdbool.h>
#include "engine/geometry.h"

/* Ring moves are found for all of a player's rings at once by fills over
 * the occupancy (as sliding-piece attacks are in chess bitboards), in each
 * direction:
 *   run:  empty points reached from a ring through empty points only;
 *   land: the first empty point after a group of markers that starts right
 *         after a ring or its run (a ring in the group stops the fill).
 * The targets of different rings in one direction never overlap (a ring
 * behind another on the same line is blocked by it), so popcounts add up.
 *
 * The fills are Kogge-Stone fills (log-steps: 1, 2, 4 points at a time)
 * with a fixed number of steps, enough for the longest line, instead of
 * loops that stop when the fill dies: a loop's exit depends on the position
 * and is mispredicted about once per loop, which cost more than all the
 * arithmetic (bench --parts, same run: generation alone about 6x faster).
 * The three directions 0..2 go side by side in the lanes of one Lanes4
 * (geometry.h), and 3..5 in another, so one vector operation steps three
 * directions.
 *
 * The shifts need no edge masks: a step that wraps from one column to
 * another lands on an invalid point, never in `empty` or `markers`. */

/* The sets' points from which n consecutive points (the point itself and
 * the n - 1 before it, against the direction) are all in the set, for
 * n = 2 and 4: what lets a fill jump 2 and 4 steps at once. */
typedef struct Spans {
    Lanes4 one, two, four;
} Spans;

static inline Spans spans(Bitboard b, bool up)
{
    Spans s;
    s.one = l4_all(b);
    s.two = l4_and(s.one, l4_step(s.one, 1, up));
    s.four = l4_and(s.two, l4_step(s.two, 2, up));
    return s;
}

/* Fills from the points of `from` through the points of `through`, up to
 * `reach` steps (7: three log-steps, 9: four). */
static inline Lanes4 fill(Lanes4 from, const Spans *through, int reach, bool up)
{
    Lanes4 g = l4_or(from, l4_and(through->one, l4_step(from, 1, up))); /* 0..1 steps */
    g = l4_or(g, l4_and(through->two, l4_step(g, 2, up)));             /* 0..3 */
    g = l4_or(g, l4_and(through->four, l4_step(g, 4, up)));            /* 0..7 */
    if (reach > 7) g = l4_or(g, l4_and(through->two, l4_step(g, 2, up))); /* 0..9 */
    return g;
}

/* The rings of mine and their runs through the empty points (spans e)
 * of directions 0..2 (up) or 3..5, lane by lane: where no marker stands,
 * a ring's targets are the empty points of its runs. */
static inline Lanes4 half_runs(Bitboard mine, const Spans *e, bool up) { return fill(l4_all(mine), e, 9, up); }

/* The targets of directions 0..2 (up) or 3..5, lane by lane; the landing
 * points alone also to *land when it is not NULL. A line has at most 10
 * points: a run is at most 9 points long, and a jumped group of markers at
 * most 8. */
static inline Lanes4 half_targets_spans(Bitboard mine, const Spans *e, const Spans *m, bool up, Lanes4 *land)
{
    Lanes4 reach = half_runs(mine, e, up);                                /* the rings and their runs */
    Lanes4 group = fill(l4_and(l4_step(reach, 1, up), m->one), m, 7, up); /* the markers right after, and their groups */
    Lanes4 landed = l4_and(l4_step(group, 1, up), e->one);
    if (land) *land = landed;
    return l4_or(l4_and(reach, e->one), landed);
}

/* The same from the boards; the spans of the empty points and of the
 * markers (e, m) are either player's, and a caller that asks for both
 * players' moves computes them once (half_targets_spans). */
static inline Lanes4 half_targets(Bitboard mine, Bitboard empty, Bitboard markers, bool up, Lanes4 *land)
{
    Spans e = spans(empty, up), m = spans(markers, up);
    return half_targets_spans(mine, &e, &m, up, land);
}

typedef struct Boards {
    Bitboard mine, empty, markers, rings;
} Boards;

/* The boards of colour's ring moves, from a position's rings and markers
 * by colour (Position.rings, Position.markers). */
static inline Boards targets_boards(const Bitboard rings[COLOUR_NB], const Bitboard markers[COLOUR_NB], int colour)
{
    Boards b;
    b.rings = rings[WHITE] | rings[BLACK];
    b.markers = markers[WHITE] | markers[BLACK];
    b.mine = rings[colour];
    b.empty = GEO->valid & ~(b.rings | b.markers);
    return b;
}

/* The targets of all six directions, t[d] for direction d. Always
 * inlined: with the funnel shifts' instructions (geometry.h) clang 14
 * judged it too large to inline into the generation and the counts, and
 * the call cost perft, random games and MCTS about an eighth of their
 * speed. */
__attribute__((always_inline)) static inline void all_targets(const Boards *b, Bitboard t[DIR_NB])
{
    Lanes4 up = half_targets(b->mine, b->empty, b->markers, true, NULL);
    Lanes4 down = half_targets(b->mine, b->empty, b->markers, false, NULL);
    for (int d = 0; d < 3; d++) {
        t[d] = l4_lane(up, d);
        t[d + 3] = l4_lane(down, d);
    }
}

/* The ring that moves to t in direction d: the nearest ring behind t (no
 * ring stands between a ring and its target). */
static inline Point origin(Point t, int d, Bitboard rings)
{
    Bitboard behind = GEO->ray[t][d < 3 ? d + 3 : d - 3] & rings;
    int msb = bb_msb(behind), lsb = bb_lsb(behind);
    return d < 3 ? msb : lsb; /* both computed: a select, not a branch, where d is not a constant */
}

/* The markers jumped by some move: walking back from each landing point
 * through markers, against the move's direction. */
static inline Lanes4 flips_back(Lanes4 land, const Spans *back, bool up)
{
    return fill(l4_and(l4_step(land, 1, !up), back->one), back, 7, !up);
}

static inline Lanes4 half_flippable(const Boards *b, bool up)
{
    Lanes4 land;
    half_targets(b->mine, b->empty, b->markers, up, &land);
    Spans back = spans(b->markers, !up);
    return flips_back(land, &back, up);
}

/* Whether colour has at least one ring move. A ring beside an empty
 * point can move there, which answers most positions with two steps of
 * the empty points instead of the six directions' fills. */
static inline bool targets_any(const Boards *b)
{
    Lanes4 e = l4_all(b->empty);
    if (l4_any(l4_and(l4_all(b->mine), l4_or(l4_step(e, 1, true), l4_step(e, 1, false))))) return true;
    Bitboard t[DIR_NB];
    all_targets(b, t);
    return (t[0] | t[1] | t[2] | t[3] | t[4] | t[5]) != 0;
}

#endif
