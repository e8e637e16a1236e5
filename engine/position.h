/* The position, make/unmake with an incremental Zobrist key, the game's end.
 *
 * Derived fields (key, removed, placed, pool) are kept up to date by every
 * make and unmake; pos_check() recomputes them all and compares. */
#ifndef YINSH_POSITION_H
#define YINSH_POSITION_H

#include <stdbool.h>
#include "engine/types.h"

typedef struct Position {
    Bitboard rings[COLOUR_NB];
    Bitboard markers[COLOUR_NB];
    Key key;
    uint8_t actor;              /* WHITE or BLACK: who acts (STATE_END: who acted last) */
    uint8_t state;              /* STATE_P .. STATE_END */
    uint8_t variant;            /* VARIANT_STANDARD or VARIANT_BLITZ, | VARIANT_SWAP, VARIANT_DRAW_ODDS */
    uint8_t removed[COLOUR_NB]; /* rings removed by each side */
    uint8_t placed;             /* rings placed so far, 0..10 */
    uint8_t pool;               /* markers in the pool, 0..51 */
} Position;

/* What make saves so that unmake restores the position bit for bit. */
typedef struct Undo {
    Bitboard flips; /* move: markers flipped; row: the row's points */
    Key key;
    uint8_t actor, state, removed[COLOUR_NB], placed, pool;
} Undo;

/* The empty start position of a variant. */
void pos_start(Position *pos, int variant);

/* Applies a legal action (the caller guarantees legality: see
 * movegen_is_legal for untrusted input) and saves what unmake needs. */
void pos_make(Position *pos, Action a, Undo *u);
void pos_unmake(Position *pos, Action a, const Undo *u);

/* The key computed from scratch. */
Key pos_compute_key(const Position *pos);

/* Whether two positions are the same in every field, key included. Field
 * by field, not memcmp: Position has padding bytes, which a struct copy
 * need not preserve. */
bool pos_equal(const Position *a, const Position *b);

/* Recomputes every derived field: 0, or ERR_FAIL (base/error.h) with the
 * invariant that one breaks named in err (ERR_LEN bytes; NULL: the code
 * alone). Asserted by debug builds after every make/unmake; the tests call
 * it for the message. */
int pos_check(const Position *pos, char *err);

/* Whether the player has at least one ring move (markers in pool aside). */
bool pos_can_move(const Position *pos, int colour);

/* Whether the game is over; if so sets the result and the reason. A position
 * that is not over has at least one legal action. */
bool pos_outcome(const Position *pos, int *result, int *reason);

static inline bool pos_has_row(const Position *pos, int colour);

#include "engine/geometry.h"
static inline bool pos_has_row(const Position *pos, int colour)
{
    return bb_has_row(pos->markers[colour]);
}

/* The markers a ring move (ACT_MOVE) flips, as pos_make flips them: those
 * on the points it jumps. A searcher's probe of a move reads the markers
 * after it from these without making it. */
static inline Bitboard pos_move_flips(const Position *pos, Action a)
{
    Point from = ACTION_FROM(a), to = ACTION_TO(a);
    int d = GEO->dir_by_diff[to - from + SQUARE_NB - 1];
    return bb_between(from, to, d) & (pos->markers[WHITE] | pos->markers[BLACK]);
}

/* The key after a ring placement (ACT_PLACE) as pos_make leaves it: the
 * ring, the turn to the other player, and after the tenth ring the moves'
 * state. A searcher fetches the child's table entry early with it. */
static inline Key pos_key_after_place(const Position *pos, Action a)
{
    Key k = pos->key ^ GEO->z_ring[pos->actor][ACTION_FROM(a)] ^ GEO->z_actor;
    if (pos->placed + 1 == 2 * RINGS_PER_SIDE) k ^= GEO->z_state[pos->state] ^ GEO->z_state[STATE_M];
    return k;
}

/* The key after a ring move (ACT_MOVE) that makes no row, as pos_make
 * leaves it: the ring moved, the origin's marker, the flips (two lookups
 * of the line's table, as pos_make does), the turn to the other player
 * in state M. A move that makes a row leads to another key (the state
 * and who acts differ): a searcher that fetches the child's table entry
 * early with this one then fetches a slot of no use, and nothing else. */
static inline Key pos_key_after_move(const Position *pos, Action a)
{
    int me = pos->actor;
    Point from = ACTION_FROM(a), to = ACTION_TO(a);
    int d = GEO->dir_by_diff[to - from + SQUARE_NB - 1], axis = d < 3 ? d : d - 3;
    Bitboard flips = bb_between(from, to, d) & (pos->markers[WHITE] | pos->markers[BLACK]);
    Point lo = bb_lsb(flips), hi = bb_msb(flips);
    Key seg = GEO->z_line_flip[axis][hi] ^ GEO->z_line_flip[axis][lo - DIR_STEP[axis]];
    return pos->key ^ GEO->z_ring[me][from] ^ GEO->z_ring[me][to] ^ GEO->z_marker[me][from] ^ (flips ? seg : 0) ^
           GEO->z_actor;
}

#endif
