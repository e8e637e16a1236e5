#include <stddef.h>
#include "engine/movegen.h"
#include "engine/targets.h"
#if defined(__BMI2__) && defined(__x86_64__)
#include <immintrin.h>
#endif

/* pos_can_move, inline here: generation asks it for every pass. */
static inline bool can_move(const Position *pos, int colour)
{
    Boards b = targets_boards(pos->rings, pos->markers, colour);
    return targets_any(&b);
}

/* Whether swap is legal (docs/rules.md §9.1): Black answers White's first
 * ring. One white ring and none black tells that no swap came before. */
static inline int can_swap(const Position *pos)
{
    return (pos->variant & VARIANT_SWAP) && pos->placed == 1 && pos->actor == BLACK && pos->rings[WHITE];
}

#define FOR_EACH_DIR(X) X(0) X(1) X(2) X(3) X(4) X(5)

static int gen_moves(const Position *pos, int colour, Action *list)
{
    Boards b = targets_boards(pos->rings, pos->markers, colour);
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
    Boards b = targets_boards(pos->rings, pos->markers, colour);
    Lanes4 up = half_targets(b.mine, b.empty, b.markers, true, NULL);
    Lanes4 down = half_targets(b.mine, b.empty, b.markers, false, NULL);
    return l4_popcount3(up) + l4_popcount3(down);
}

Bitboard movegen_flippable(const Position *pos, int colour)
{
    Boards b = targets_boards(pos->rings, pos->markers, colour);
    Lanes4 f = l4_or(half_flippable(&b, true), half_flippable(&b, false));
    return l4_lane(f, 0) | l4_lane(f, 1) | l4_lane(f, 2);
}

/* The points of six directions' targets, counted: a ring's targets in
 * one direction never overlap another's (targets.h) */
static inline int lanes_count(Lanes4 up, Lanes4 down) { return l4_popcount3(up) + l4_popcount3(down); }

void movegen_moves_and_flips(const Position *pos, int moves[COLOUR_NB], Bitboard flippable[COLOUR_NB])
{
    Boards b = targets_boards(pos->rings, pos->markers, WHITE);
    if (!b.markers) {
        /* no marker to jump or flip (the placements, and the first move):
         * a ring's targets are its runs through the empty points alone */
        Spans e_up = spans(b.empty, true), e_down = spans(b.empty, false);
        for (int c = 0; c < COLOUR_NB; c++) {
            Lanes4 up = l4_and(half_runs(pos->rings[c], &e_up, true), e_up.one);
            Lanes4 down = l4_and(half_runs(pos->rings[c], &e_down, false), e_down.one);
            moves[c] = lanes_count(up, down);
            flippable[c] = 0;
        }
        return;
    }
    /* the spans of the empty points and the markers, both ways: either
     * player's fills run through them, and a flip walks back through the
     * markers' spans of the other way */
    Spans e_up = spans(b.empty, true), e_down = spans(b.empty, false);
    Spans m_up = spans(b.markers, true), m_down = spans(b.markers, false);
    for (int c = 0; c < COLOUR_NB; c++) {
        Lanes4 land_up, land_down;
        Lanes4 up = half_targets_spans(pos->rings[c], &e_up, &m_up, true, &land_up);
        Lanes4 down = half_targets_spans(pos->rings[c], &e_down, &m_down, false, &land_down);
        moves[c] = lanes_count(up, down);
        Lanes4 f = l4_or(flips_back(land_up, &m_down, true), flips_back(land_down, &m_up, false));
        flippable[c] = l4_lane(f, 0) | l4_lane(f, 1) | l4_lane(f, 2);
    }
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
        int n = POINT_NB - pos->placed, swap = can_swap(pos);
        int k = (int)rng_below(rng, (uint32_t)(n + swap));
        return k == n ? ACTION_SWAP : ACTION_MAKE(ACT_PLACE, bb_select(empty, k), 0);
    }
    case STATE_M: {
        if (pos->pool == 0) return ACTION_NONE;
        /* count per direction, then pick: the same choice as list[k] of
         * movegen_all, without writing the list */
        Boards b = targets_boards(pos->rings, pos->markers, pos->actor);
        Bitboard t[DIR_NB];
        int c[DIR_NB], total = 0;
        all_targets(&b, t);
        for (int d = 0; d < DIR_NB; d++) total += c[d] = bb_popcount(t[d]);
        if (total == 0)
            return can_move(pos, pos->actor ^ 1) ? ACTION_MAKE(ACT_PASS, 0, 0) : ACTION_NONE;
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
        if (can_swap(pos)) list[n++] = ACTION_SWAP;
        return n;
    }
    case STATE_M:
        if (pos->pool == 0) return 0;
        n = gen_moves(pos, pos->actor, list);
        if (n == 0 && can_move(pos, pos->actor ^ 1)) list[n++] = ACTION_MAKE(ACT_PASS, 0, 0);
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
        return POINT_NB - pos->placed + can_swap(pos);
    case STATE_M: {
        if (pos->pool == 0) return 0;
        int n = movegen_count_moves(pos, pos->actor);
        return n ? n : can_move(pos, pos->actor ^ 1);
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

/* Swap, which has no point, comes after every placement (docs/notation.md
 * §4), as its index does (engine/encode/encode.h). */
static uint32_t canonical_key(Action a)
{
    uint32_t swap = ACTION_KIND(a) == ACT_SWAP;
    return swap << 17 | (uint32_t)ACTION_FROM(a) << 10 | (uint32_t)ACTION_TO(a) << 3 | (uint32_t)ACTION_KIND(a);
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

/* Whether ring move a (of the actor's, in state M) leaves a row of five
 * of the actor's markers: the markers as pos_make leaves them, the
 * origin's new marker and the flips, without making it. */
static inline bool move_makes_row(const Position *pos, Action a)
{
    return bb_has_row((pos->markers[pos->actor] | bb_bit(ACTION_FROM(a))) ^ pos_move_flips(pos, a));
}

/* A row after a move is a window of five points that were all markers or
 * the moving ring before it, so it lies in z, the points of the windows
 * of markers and the actor's rings; and (unless it stood before the
 * move) it holds a point the move changed, the origin or a flipped
 * marker, on the path from the origin to the destination. So only the
 * destinations that a fill from z along the move's direction reaches,
 * through the points that are not rings, can be such a move's: those are
 * checked one by one, in movegen_all's order (by direction, then by
 * destination). Most positions have no such window, or few. */
int movegen_row_moves(const Position *pos, Action *list)
{
    if (pos->state != STATE_M || pos->pool == 0) return 0;
    int me = pos->actor, n = 0;
    if (bb_has_row(pos->markers[me])) {
        /* a row standing before the move (no position play reaches): every move looked at */
        Action all[MAX_ACTIONS];
        int k = movegen_all(pos, all);
        for (int i = 0; i < k; i++)
            if (ACTION_KIND(all[i]) == ACT_MOVE && move_makes_row(pos, all[i])) list[n++] = all[i];
        return n;
    }
    Bitboard z = bb_row_points(pos->markers[WHITE] | pos->markers[BLACK] | pos->rings[me]);
    if (!z) return 0;
    Boards b = targets_boards(pos->rings, pos->markers, me);
    Bitboard t[DIR_NB];
    all_targets(&b, t);
    Spans up = spans(GEO->valid & ~b.rings, true), down = spans(GEO->valid & ~b.rings, false);
    Lanes4 reach_up = fill(l4_all(z), &up, 9, true), reach_down = fill(l4_all(z), &down, 9, false);
    for (int d = 0; d < DIR_NB; d++) {
        Bitboard cand = t[d] & (d < 3 ? l4_lane(reach_up, d) : l4_lane(reach_down, d - 3));
        for (; cand; cand &= cand - 1) {
            Point to = bb_lsb(cand);
            Action a = ACTION_MAKE(ACT_MOVE, origin(to, d, b.rings), to);
            if (move_makes_row(pos, a)) list[n++] = a;
        }
    }
    return n;
}

bool movegen_row_in_reach(const Position *pos)
{
    int me = pos->actor;
    /* a row needs five markers in a line after the move, and only the
     * moving ring's point becomes a marker */
    if (pos->state != STATE_M || !bb_has_row(pos->markers[WHITE] | pos->markers[BLACK] | pos->rings[me]))
        return false;
    Position p = *pos;
    Action list[MAX_ACTIONS];
    int n = movegen_all(&p, list);
    for (int i = 0; i < n; i++) {
        Undo u;
        pos_make(&p, list[i], &u);
        bool row = p.state == STATE_R && p.actor == me;
        pos_unmake(&p, list[i], &u);
        if (row) return true;
    }
    return false;
}
