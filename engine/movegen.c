#include <stddef.h>
#include "movegen.h"
#if defined(__BMI2__) && defined(__x86_64__)
#include <immintrin.h>
#endif

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

/* The targets of directions 0..2 (up) or 3..5, lane by lane; the landing
 * points alone also to *land when it is not NULL. A line has at most 10
 * points: a run is at most 9 points long, and a jumped group of markers at
 * most 8. */
static inline Lanes4 half_targets(Bitboard mine, Bitboard empty, Bitboard markers, bool up, Lanes4 *land)
{
    Spans e = spans(empty, up), m = spans(markers, up);
    Lanes4 reach = fill(l4_all(mine), &e, 9, up);                         /* the rings and their runs */
    Lanes4 group = fill(l4_and(l4_step(reach, 1, up), m.one), &m, 7, up); /* the markers right after, and their groups */
    Lanes4 landed = l4_and(l4_step(group, 1, up), e.one);
    if (land) *land = landed;
    return l4_or(l4_and(reach, e.one), landed);
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

/* The targets of all six directions, t[d] for direction d. */
static inline void all_targets(const Boards *b, Bitboard t[DIR_NB])
{
    Lanes4 up = half_targets(b->mine, b->empty, b->markers, true, NULL);
    Lanes4 down = half_targets(b->mine, b->empty, b->markers, false, NULL);
    for (int d = 0; d < 3; d++) {
        t[d] = l4_lane(up, d);
        t[d + 3] = l4_lane(down, d);
    }
}

#define FOR_EACH_DIR(X) X(0) X(1) X(2) X(3) X(4) X(5)

/* The ring that moves to t in direction d: the nearest ring behind t (no
 * ring stands between a ring and its target). */
static inline Point origin(Point t, int d, Bitboard rings)
{
    Bitboard behind = GEO->ray[t][d < 3 ? d + 3 : d - 3] & rings;
    int msb = bb_msb(behind), lsb = bb_lsb(behind);
    return d < 3 ? msb : lsb; /* both computed: a select, not a branch, where d is not a constant */
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
    Boards b = boards(pos, colour);
    Bitboard t[DIR_NB];
    all_targets(&b, t);
    return bb_popcount(t[0]) + bb_popcount(t[1]) + bb_popcount(t[2]) + bb_popcount(t[3]) + bb_popcount(t[4]) +
           bb_popcount(t[5]);
}

/* The markers jumped by some move: walking back from each landing point
 * through markers, against the move's direction. */
static inline Lanes4 half_flippable(const Boards *b, bool up)
{
    Lanes4 land;
    half_targets(b->mine, b->empty, b->markers, up, &land);
    Spans back = spans(b->markers, !up);
    return fill(l4_and(l4_step(land, 1, !up), back.one), &back, 7, !up);
}

Bitboard movegen_flippable(const Position *pos, int colour)
{
    Boards b = boards(pos, colour);
    Lanes4 f = l4_or(half_flippable(&b, true), half_flippable(&b, false));
    return l4_lane(f, 0) | l4_lane(f, 1) | l4_lane(f, 2);
}

bool movegen_can_move(const Position *pos, int colour)
{
    Boards b = boards(pos, colour);
    Bitboard t[DIR_NB];
    all_targets(&b, t);
    return (t[0] | t[1] | t[2] | t[3] | t[4] | t[5]) != 0;
}

/* The k-th set point of b in ascending order (k < popcount(b)). With BMI2,
 * pdep deposits the k-th bit directly; the loop it replaces runs k times
 * and ends on a mispredicted branch (placements pick among up to 85
 * points). AMD before Zen 3 runs pdep in microcode, slower but the same. */
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
#if defined(__BMI2__) && defined(__x86_64__)
    return base + __builtin_ctzll(_pdep_u64(1ULL << k, half));
#else
    while (k--) half &= half - 1;
    return base + __builtin_ctzll(half);
#endif
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
        /* the direction: how many directions' targets lie wholly before
         * the k-th, counted without a branch that the position decides */
        int k = (int)rng_below(rng, (uint32_t)total), d = 0, before = 0, sum = 0;
        for (int i = 0; i < DIR_NB - 1; i++) {
            sum += c[i];
            d += k >= sum;
            before = k >= sum ? sum : before;
        }
        Point to = bb_select(t[d], k - before);
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
