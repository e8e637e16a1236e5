#include "movegen.h"

/* Destinations of the ring on p in direction d, from ray masks and the
 * occupancy: the empty points before the first piece on the ray, and, when
 * that piece is a marker, the first empty point after the group of markers
 * it starts, unless a ring stands inside the group. */
static inline Bitboard ring_targets(Point p, int d, Bitboard occ, Bitboard rings)
{
    Bitboard ray = GEO->ray[p][d];
    Bitboard blk = ray & occ;
    if (!blk) return ray;
    Point f = d < 3 ? bb_lsb(blk) : bb_msb(blk);
    Bitboard dest = bb_between(p, f, d);
    if (rings & bb_bit(f)) return dest;
    Bitboard empty = GEO->ray[f][d] & ~occ;
    if (!empty) return dest;
    Point e = d < 3 ? bb_lsb(empty) : bb_msb(empty);
    if (bb_between(f, e, d) & rings) return dest;
    return dest | bb_bit(e);
}

static int gen_moves(const Position *pos, int colour, Action *list)
{
    Bitboard rings = pos->rings[WHITE] | pos->rings[BLACK];
    Bitboard occ = rings | pos->markers[WHITE] | pos->markers[BLACK];
    int n = 0;
    for (Bitboard r = pos->rings[colour]; r; r &= r - 1) {
        Point p = bb_lsb(r);
        for (int d = 0; d < DIR_NB; d++) {
            Bitboard t = ring_targets(p, d, occ, rings);
            if (d < 3)
                for (; t; t &= t - 1) list[n++] = ACTION_MAKE(ACT_MOVE, p, bb_lsb(t));
            else
                for (; t; t ^= bb_bit(bb_msb(t))) list[n++] = ACTION_MAKE(ACT_MOVE, p, bb_msb(t));
        }
    }
    return n;
}

static int count_moves(const Position *pos, int colour)
{
    Bitboard rings = pos->rings[WHITE] | pos->rings[BLACK];
    Bitboard occ = rings | pos->markers[WHITE] | pos->markers[BLACK];
    int n = 0;
    for (Bitboard r = pos->rings[colour]; r; r &= r - 1) {
        Point p = bb_lsb(r);
        for (int d = 0; d < DIR_NB; d++) n += bb_popcount(ring_targets(p, d, occ, rings));
    }
    return n;
}

bool movegen_can_move(const Position *pos, int colour)
{
    Bitboard rings = pos->rings[WHITE] | pos->rings[BLACK];
    Bitboard occ = rings | pos->markers[WHITE] | pos->markers[BLACK];
    for (Bitboard r = pos->rings[colour]; r; r &= r - 1) {
        Point p = bb_lsb(r);
        for (int d = 0; d < DIR_NB; d++)
            if (ring_targets(p, d, occ, rings)) return true;
    }
    return false;
}

static int gen_rows(const Position *pos, Action *list)
{
    int n = 0;
    Bitboard m = pos->markers[pos->actor];
    for (int a = 0; a < AXIS_NB; a++)
        for (Bitboard s = bb_row_starts(m, a); s; s &= s - 1) {
            Point p = bb_lsb(s);
            list[n++] = ACTION_MAKE(ACT_ROW, p, p + 4 * DIR_STEP[a]);
        }
    return n;
}

static int count_rows(const Position *pos)
{
    Bitboard m = pos->markers[pos->actor];
    return bb_popcount(bb_row_starts(m, 0)) + bb_popcount(bb_row_starts(m, 1)) +
           bb_popcount(bb_row_starts(m, 2));
}

int movegen_all(const Position *pos, Action *list)
{
    int n = 0;
    switch (pos->state) {
    case STATE_P: {
        Bitboard empty = GEO->valid & ~(pos->rings[WHITE] | pos->rings[BLACK]);
        for (; empty; empty &= empty - 1) list[n++] = ACTION_MAKE(ACT_PLACE, bb_lsb(empty), 0);
        return n;
    }
    case STATE_M:
        if (pos->pool == 0) return 0;
        n = gen_moves(pos, pos->actor, list);
        if (n == 0 && movegen_can_move(pos, pos->actor ^ 1)) list[n++] = ACTION_MAKE(ACT_PASS, 0, 0);
        return n;
    case STATE_R:
    case STATE_r:
        return gen_rows(pos, list);
    case STATE_X:
    case STATE_x:
        for (Bitboard r = pos->rings[pos->actor]; r; r &= r - 1)
            list[n++] = ACTION_MAKE(ACT_RING, bb_lsb(r), 0);
        return n;
    default:
        return 0;
    }
}

int movegen_count(const Position *pos)
{
    switch (pos->state) {
    case STATE_P:
        return POINT_NB - pos->placed;
    case STATE_M: {
        if (pos->pool == 0) return 0;
        int n = count_moves(pos, pos->actor);
        return n ? n : movegen_can_move(pos, pos->actor ^ 1);
    }
    case STATE_R:
    case STATE_r:
        return count_rows(pos);
    case STATE_X:
    case STATE_x:
        return bb_popcount(pos->rings[pos->actor]);
    default:
        return 0;
    }
}

bool movegen_is_legal(const Position *pos, Action a)
{
    Action list[MAX_ACTIONS];
    int n = movegen_all(pos, list);
    for (int i = 0; i < n; i++)
        if (list[i] == a) return true;
    return false;
}
