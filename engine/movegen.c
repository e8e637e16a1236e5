#include "movegen.h"

/* Ring moves are found for all of a player's rings at once, one direction
 * at a time, by flood fills over the occupancy (as sliding-piece attacks are
 * in chess bitboards):
 *   run:  empty points reached from a ring through empty points only;
 *   land: the first empty point after a group of markers that starts right
 *         after a ring or its run (a ring in the group stops the fill).
 * The targets of different rings in one direction never overlap (a ring
 * behind another on the same line is blocked by it), so popcounts add up.
 * The move list and the random pick fill both directions of an axis in one
 * loop (axis_targets); perft's count goes one direction at a time: each
 * measured faster where it is used.
 * The shifts need no edge masks: a step that wraps from one column to
 * another lands on an invalid point, never in `empty` or `markers`. */
static inline Bitboard shift(Bitboard b, int d)
{
    return d < 3 ? b << DIR_STEP[d] : b >> -DIR_STEP[d];
}

static inline Bitboard dir_run(Bitboard mine, Bitboard empty, int d)
{
    Bitboard run = 0, f = mine;
    while ((f = shift(f, d) & empty)) run |= f;
    return run;
}

static inline Bitboard dir_land(Bitboard run, Bitboard mine, Bitboard empty, Bitboard markers, int d)
{
    Bitboard land = 0, cur = shift(run | mine, d) & markers;
    while (cur) {
        Bitboard next = shift(cur, d);
        land |= next & empty;
        cur = next & markers;
    }
    return land;
}

static inline Bitboard dir_targets(Bitboard mine, Bitboard empty, Bitboard markers, int d)
{
    Bitboard run = dir_run(mine, empty, d);
    return run | dir_land(run, mine, empty, markers, d);
}

/* The targets of direction a (0..2) and of its opposite a + 3 together:
 * one loop for both halves of the line, so one loop exit to mispredict
 * instead of two. */
static inline void axis_targets(Bitboard mine, Bitboard empty, Bitboard markers, int a, Bitboard *fwd, Bitboard *back)
{
    Bitboard rf = 0, rb = 0, f = mine, g = mine;
    for (;;) {
        f = shift(f, a) & empty;
        g = shift(g, a + 3) & empty;
        if (!(f | g)) break;
        rf |= f;
        rb |= g;
    }
    Bitboard lf = 0, lb = 0, cf = shift(rf | mine, a) & markers, cb = shift(rb | mine, a + 3) & markers;
    while (cf | cb) {
        Bitboard nf = shift(cf, a), nb = shift(cb, a + 3);
        lf |= nf & empty;
        lb |= nb & empty;
        cf = nf & markers;
        cb = nb & markers;
    }
    *fwd = rf | lf;
    *back = rb | lb;
}

typedef struct Boards {
    Bitboard mine, empty, markers, rings;
} Boards;

static inline Boards boards(const Position *pos, int colour)
{
    Boards b;
    b.rings = pos->rings[WHITE] | pos->rings[BLACK];
    b.markers = pos->markers[WHITE] | pos->markers[BLACK];
    b.mine = pos->rings[colour];
    b.empty = GEO->valid & ~(b.rings | b.markers);
    return b;
}

#define FOR_EACH_DIR(X) X(0) X(1) X(2) X(3) X(4) X(5)

/* The ring that moves to t in direction d: the nearest ring behind t (no
 * ring stands between a ring and its target). */
static inline Point origin(Point t, int d, Bitboard rings)
{
    Bitboard behind = GEO->ray[t][d < 3 ? d + 3 : d - 3] & rings;
    return d < 3 ? bb_msb(behind) : bb_lsb(behind);
}

/* The targets of all six directions. */
static inline void all_targets(const Boards *b, Bitboard t[DIR_NB])
{
    axis_targets(b->mine, b->empty, b->markers, 0, &t[0], &t[3]);
    axis_targets(b->mine, b->empty, b->markers, 1, &t[1], &t[4]);
    axis_targets(b->mine, b->empty, b->markers, 2, &t[2], &t[5]);
}

static int gen_moves(const Position *pos, int colour, Action *list)
{
    Boards b = boards(pos, colour);
    Bitboard t[DIR_NB];
    all_targets(&b, t);
    int n = 0;
#define GEN(d)                                                         \
    for (Bitboard m = t[d]; m; m &= m - 1) {                           \
        Point to = bb_lsb(m);                                          \
        list[n++] = ACTION_MAKE(ACT_MOVE, origin(to, d, b.rings), to); \
    }
    FOR_EACH_DIR(GEN)
#undef GEN
    return n;
}

int movegen_count_moves(const Position *pos, int colour)
{
    /* one direction at a time: measured faster here than by axis pairs
     * (perft's last ply is nearly all of its time) */
    Boards b = boards(pos, colour);
    int n = 0;
#define COUNT(d) n += bb_popcount(dir_targets(b.mine, b.empty, b.markers, d));
    FOR_EACH_DIR(COUNT)
#undef COUNT
    return n;
}

Bitboard movegen_flippable(const Position *pos, int colour)
{
    Boards b = boards(pos, colour);
    Bitboard flips = 0;
    /* the markers met walking back from each landing point */
#define FLIPS(d)                                                                   \
    {                                                                              \
        Bitboard land = dir_land(dir_run(b.mine, b.empty, d), b.mine, b.empty, b.markers, d); \
        for (Bitboard g = shift(land, (d + 3) % 6) & b.markers; g; g = shift(g, (d + 3) % 6) & b.markers) \
            flips |= g;                                                            \
    }
    FOR_EACH_DIR(FLIPS)
#undef FLIPS
    return flips;
}

bool movegen_can_move(const Position *pos, int colour)
{
    Boards b = boards(pos, colour);
#define ANY(d) if (dir_targets(b.mine, b.empty, b.markers, d)) return true;
    FOR_EACH_DIR(ANY)
#undef ANY
    return false;
}

/* The k-th set point of b in ascending order (k < popcount(b)). */
static inline Point bb_select(Bitboard b, int k)
{
    int low = __builtin_popcountll((uint64_t)b);
    uint64_t half = (uint64_t)b;
    int base = 0;
    if (k >= low) {
        k -= low;
        half = (uint64_t)(b >> 64);
        base = 64;
    }
    while (k--) half &= half - 1;
    return base + __builtin_ctzll(half);
}

Action movegen_random(const Position *pos, Rng *rng)
{
    switch (pos->state) {
    case STATE_P: {
        Bitboard empty = GEO->valid & ~(pos->rings[WHITE] | pos->rings[BLACK]);
        int k = (int)rng_below(rng, (uint32_t)(POINT_NB - pos->placed));
        return ACTION_MAKE(ACT_PLACE, bb_select(empty, k), 0);
    }
    case STATE_M: {
        if (pos->pool == 0) return ACTION_NONE;
        /* count per direction, then pick: the same choice as list[k] of
         * movegen_all, without writing the list */
        Boards b = boards(pos, pos->actor);
        Bitboard t[DIR_NB];
        int c[DIR_NB], total = 0;
        all_targets(&b, t);
        for (int d = 0; d < DIR_NB; d++) total += c[d] = bb_popcount(t[d]);
        if (total == 0)
            return movegen_can_move(pos, pos->actor ^ 1) ? ACTION_MAKE(ACT_PASS, 0, 0) : ACTION_NONE;
        int k = (int)rng_below(rng, (uint32_t)total), d = 0;
        while (k >= c[d]) k -= c[d++];
        Point to = bb_select(t[d], k);
        return ACTION_MAKE(ACT_MOVE, origin(to, d, b.rings), to);
    }
    case STATE_X:
    case STATE_x: {
        Bitboard mine = pos->rings[pos->actor];
        return ACTION_MAKE(ACT_RING, bb_select(mine, (int)rng_below(rng, (uint32_t)bb_popcount(mine))), 0);
    }
    default: {
        Action list[MAX_ACTIONS];
        int n = movegen_all(pos, list);
        return n ? list[rng_below(rng, (uint32_t)n)] : ACTION_NONE;
    }
    }
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
        int n = movegen_count_moves(pos, pos->actor);
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

static uint32_t canonical_key(Action a)
{
    return (uint32_t)ACTION_FROM(a) << 10 | (uint32_t)ACTION_TO(a) << 3 | (uint32_t)ACTION_KIND(a);
}

/* Insertion sort: lists are short (MAX_ACTIONS at most), movegen_all's are
 * already in runs of canonical order, and it needs no comparator call. */
void movegen_sort(Action *list, int n)
{
    for (int i = 1; i < n; i++) {
        Action a = list[i];
        uint32_t k = canonical_key(a);
        int j = i;
        for (; j > 0 && canonical_key(list[j - 1]) > k; j--) list[j] = list[j - 1];
        list[j] = a;
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
