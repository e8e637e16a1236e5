#include <assert.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/position.h"
#include "engine/targets.h"

void pos_start(Position *pos, int variant)
{
    memset(pos, 0, sizeof *pos);
    pos->actor = WHITE;
    pos->state = STATE_P;
    pos->variant = (uint8_t)variant;
    pos->pool = MARKERS_NB;
    pos->key = pos_compute_key(pos);
}

Key pos_compute_key(const Position *pos)
{
    Key k = 0;
    for (int c = 0; c < COLOUR_NB; c++) {
        for (Bitboard b = pos->rings[c]; b; b &= b - 1) k ^= GEO->z_ring[c][bb_lsb(b)];
        for (Bitboard b = pos->markers[c]; b; b &= b - 1) k ^= GEO->z_marker[c][bb_lsb(b)];
    }
    if (pos->actor == BLACK) k ^= GEO->z_actor;
    k ^= GEO->z_state[pos->state];
    if (pos->variant & VARIANT_BLITZ) k ^= GEO->z_variant;
    if (pos->variant & VARIANT_SWAP) k ^= GEO->z_swap;
    if (pos->variant & VARIANT_DRAW_ODDS) k ^= GEO->z_draw_odds;
    return k;
}

/* A new field of Position must join the comparison; the size catches most
 * additions (the struct has one byte of tail padding). */
_Static_assert(sizeof(Position) == 5 * sizeof(Bitboard), "pos_equal: compare the new field of Position");

bool pos_equal(const Position *a, const Position *b)
{
    return a->rings[WHITE] == b->rings[WHITE] && a->rings[BLACK] == b->rings[BLACK] &&
           a->markers[WHITE] == b->markers[WHITE] && a->markers[BLACK] == b->markers[BLACK] && a->key == b->key &&
           a->actor == b->actor && a->state == b->state && a->variant == b->variant &&
           a->removed[WHITE] == b->removed[WHITE] && a->removed[BLACK] == b->removed[BLACK] &&
           a->placed == b->placed && a->pool == b->pool;
}

/* Switches actor and state, keeping the key in step. */
static inline void set_turn(Position *pos, int actor, int state)
{
    if (actor != pos->actor) pos->key ^= GEO->z_actor;
    pos->key ^= GEO->z_state[pos->state] ^ GEO->z_state[state];
    pos->actor = (uint8_t)actor;
    pos->state = (uint8_t)state;
}

/* Who acts after a move by `mover` (docs/rules.md §3 step 2, §6.2 for blitz).
 * Before a move no row is on the board (state M), so the opponent can have
 * a row only if the move flipped a marker to the opponent's colour. */
static inline void after_move(Position *pos, int mover, Bitboard flips)
{
    int opp = mover ^ 1;
    bool own = pos_has_row(pos, mover);
    bool theirs = (flips & pos->markers[opp]) && pos_has_row(pos, opp);
    if (pos->variant & VARIANT_BLITZ)
        set_turn(pos, own || theirs ? mover : opp, own || theirs ? STATE_END : STATE_M);
    else if (own)
        set_turn(pos, mover, STATE_R);
    else if (theirs)
        set_turn(pos, opp, STATE_r);
    else
        set_turn(pos, opp, STATE_M);
}

/* A table, not arithmetic and branches: a move's direction is random in
 * playouts, and branches on it were mispredicted. */
static inline int dir_of(Point from, Point to) { return GEO->dir_by_diff[to - from + SQUARE_NB - 1]; }

void pos_make(Position *pos, Action a, Undo *u)
{
    int me = pos->actor;
    Point from = ACTION_FROM(a), to = ACTION_TO(a);
    u->key = pos->key;
    u->actor = pos->actor;
    u->state = pos->state;
    u->removed[0] = pos->removed[0];
    u->removed[1] = pos->removed[1];
    u->placed = pos->placed;
    u->pool = pos->pool;

    switch (ACTION_KIND(a)) {
    case ACT_PLACE:
        pos->rings[me] |= bb_bit(from);
        pos->key ^= GEO->z_ring[me][from];
        pos->placed++;
        /* the player who placed first moves first: the other one places
         * the tenth ring (White in the standard order; Black after a swap,
         * docs/rules.md §9.1) */
        set_turn(pos, me ^ 1, pos->placed == 2 * RINGS_PER_SIDE ? STATE_M : STATE_P);
        break;
    case ACT_MOVE: {
        int d = dir_of(from, to), axis = d < 3 ? d : d - 3;
        Bitboard flips = bb_between(from, to, d) & (pos->markers[WHITE] | pos->markers[BLACK]);
        u->flips = flips;
        pos->rings[me] ^= bb_bit(from) | bb_bit(to);
        pos->markers[me] |= bb_bit(from);
        pos->key ^= GEO->z_ring[me][from] ^ GEO->z_ring[me][to] ^ GEO->z_marker[me][from];
        pos->markers[WHITE] ^= flips;
        pos->markers[BLACK] ^= flips;
        /* The flipped markers are one unbroken segment of the line (the
         * group the ring jumped), and the point before its first is on the
         * line too (the origin or a point of the run, or the destination):
         * their key change is that of the line up to the segment's last
         * point less that up to the point before its first. Two lookups,
         * not a loop over the flips, whose count is random; when nothing
         * flips the lookups read points of no meaning (still in the table)
         * and the change is masked. */
        Point lo = bb_lsb(flips), hi = bb_msb(flips);
        Key seg = GEO->z_line_flip[axis][hi] ^ GEO->z_line_flip[axis][lo - DIR_STEP[axis]];
        pos->key ^= flips ? seg : 0;
        pos->pool--;
        after_move(pos, me, flips);
        break;
    }
    case ACT_PASS:
        set_turn(pos, me ^ 1, STATE_M);
        break;
    case ACT_SWAP: {
        /* White's one ring becomes Black's; White places next (§9.1) */
        Bitboard ring = pos->rings[WHITE];
        pos->rings[WHITE] = 0;
        pos->rings[BLACK] = ring;
        pos->key ^= GEO->z_ring[WHITE][bb_lsb(ring)] ^ GEO->z_ring[BLACK][bb_lsb(ring)];
        set_turn(pos, WHITE, STATE_P);
        break;
    }
    case ACT_ROW: {
        Bitboard row = GEO->row5[from][dir_of(from, to)];
        u->flips = row;
        pos->markers[me] &= ~row;
        for (Bitboard b = row; b; b &= b - 1) pos->key ^= GEO->z_marker[me][bb_lsb(b)];
        pos->pool += 5;
        set_turn(pos, me, pos->state == STATE_R ? STATE_X : STATE_x);
        break;
    }
    case ACT_RING: {
        int was = pos->state;
        pos->rings[me] &= ~bb_bit(from);
        pos->key ^= GEO->z_ring[me][from];
        pos->removed[me]++;
        if (pos->removed[me] == RINGS_TO_WIN)
            set_turn(pos, me, STATE_END);
        else if (pos_has_row(pos, me))
            set_turn(pos, me, was == STATE_X ? STATE_R : STATE_r);
        else if (was == STATE_X && pos_has_row(pos, me ^ 1))
            set_turn(pos, me ^ 1, STATE_r);
        else
            set_turn(pos, was == STATE_X ? me ^ 1 : me, STATE_M);
        break;
    }
    }
    assert(pos_check(pos, NULL) == 0 && "pos_make broke an invariant");
}

void pos_unmake(Position *pos, Action a, const Undo *u)
{
    int me = u->actor;
    Point from = ACTION_FROM(a), to = ACTION_TO(a);
    switch (ACTION_KIND(a)) {
    case ACT_PLACE:
        pos->rings[me] &= ~bb_bit(from);
        break;
    case ACT_MOVE:
        pos->markers[WHITE] ^= u->flips;
        pos->markers[BLACK] ^= u->flips;
        pos->markers[me] &= ~bb_bit(from);
        pos->rings[me] ^= bb_bit(from) | bb_bit(to);
        break;
    case ACT_ROW:
        pos->markers[me] |= u->flips;
        break;
    case ACT_RING:
        pos->rings[me] |= bb_bit(from);
        break;
    case ACT_SWAP:
        pos->rings[WHITE] = pos->rings[BLACK];
        pos->rings[BLACK] = 0;
        break;
    }
    pos->key = u->key;
    pos->actor = u->actor;
    pos->state = u->state;
    pos->removed[0] = u->removed[0];
    pos->removed[1] = u->removed[1];
    pos->placed = u->placed;
    pos->pool = u->pool;
    assert(pos_check(pos, NULL) == 0 && "pos_unmake broke an invariant");
}

/* The first derived field or invariant that disagrees, NULL if none. */
static const char *check_problem(const Position *pos)
{
    int rw = bb_popcount(pos->rings[WHITE]), rb = bb_popcount(pos->rings[BLACK]);
    int mk = bb_popcount(pos->markers[WHITE] | pos->markers[BLACK]);
    Bitboard all[4] = {pos->rings[0], pos->rings[1], pos->markers[0], pos->markers[1]};
    for (int i = 0; i < 4; i++) {
        if (all[i] & ~GEO->valid) return "a piece lies outside the board";
        for (int j = i + 1; j < 4; j++)
            if (all[i] & all[j]) return "two pieces share a point";
    }
    if (pos->key != pos_compute_key(pos)) return "incremental key differs from the recomputed key";
    if (pos->pool + mk != MARKERS_NB) return "markers on board + pool != 51";
    if (pos->state == STATE_P && pos->placed != rw + rb) return "placed count differs from the rings on the board";
    if (pos->state != STATE_P &&
        (pos->placed != 2 * RINGS_PER_SIDE || pos->removed[WHITE] != RINGS_PER_SIDE - rw ||
         pos->removed[BLACK] != RINGS_PER_SIDE - rb))
        return "removed-ring counts differ from the rings on the board";
    if (pos->state == STATE_M && (pos_has_row(pos, WHITE) || pos_has_row(pos, BLACK)))
        return "a row is on the board in state M";
    return NULL;
}

int pos_check(const Position *pos, char *err)
{
    const char *why = check_problem(pos);
    return why ? error_set(err, "%s", why) : 0;
}

bool pos_can_move(const Position *pos, int colour)
{
    Boards b = targets_boards(pos->rings, pos->markers, colour);
    return targets_any(&b);
}

bool pos_outcome(const Position *pos, int *result, int *reason)
{
    int res = RESULT_NONE, why = REASON_NONE;
    if (pos->state == STATE_END) {
        if (pos->variant & VARIANT_BLITZ) {
            why = REASON_BLITZ_ROW;
            int winner = pos_has_row(pos, pos->actor) ? pos->actor : pos->actor ^ 1;
            res = winner == WHITE ? RESULT_WHITE : RESULT_BLACK;
        } else {
            why = REASON_THREE_RINGS;
            res = pos->removed[WHITE] > pos->removed[BLACK] ? RESULT_WHITE : RESULT_BLACK;
        }
    } else if (pos->state == STATE_M &&
               (pos->pool == 0 ||
                (!pos_can_move(pos, pos->actor) && !pos_can_move(pos, pos->actor ^ 1)))) {
        why = pos->pool == 0 ? REASON_POOL_EMPTY : REASON_NO_MOVES;
        res = pos->removed[WHITE] > pos->removed[BLACK]   ? RESULT_WHITE
              : pos->removed[BLACK] > pos->removed[WHITE] ? RESULT_BLACK
              : pos->variant & VARIANT_DRAW_ODDS          ? RESULT_BLACK /* §9.2 */
                                                          : RESULT_DRAW;
    }
    if (result) *result = res;
    if (reason) *reason = why;
    return res != RESULT_NONE;
}
