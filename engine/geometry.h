/* The board: 85 points embedded in an 11x11 grid, the six directions, rays
 * and line masks. The tables are computed once, before main (a constructor),
 * and only read afterwards, so any number of threads share them. */
#ifndef YINSH_GEOMETRY_H
#define YINSH_GEOMETRY_H

#include <stdbool.h>
#include "engine/types.h"
#if defined(__AVX512VPOPCNTDQ__) && defined(__AVX512VL__)
#include <immintrin.h>
#endif

/* Directions: 0..2 point to higher indices (row+1, column+1, both+1), 3..5
 * are their opposites. DIR_STEP[d] is the index step of direction d. */
enum { DIR_NB = 6, AXIS_NB = 3 };
/* Defined here, not in geometry.c, so that a step indexed by a constant is a
 * constant: the move generator's shifts are then shifts by immediates
 * (a third faster than shifts by a loaded count). */
static const int DIR_STEP[DIR_NB] = {1, 11, 12, -1, -11, -12};

typedef struct Geometry {
    Bitboard valid;                       /* the 85 points */
    Bitboard bit[SQUARE_NB];              /* single-point masks */
    Bitboard ray[SQUARE_NB][DIR_NB];      /* points beyond p in direction d */
    Bitboard row5[SQUARE_NB][AXIS_NB];    /* the 5 points from p along axis, or 0 */
    int8_t ray_len[SQUARE_NB][DIR_NB];
    int8_t reach[SQUARE_NB];              /* ray_len summed over the six directions (at most 27) */
    Bitboard reach_bit[5];                /* the points whose reach has bit k: a set's reach summed
                                             is the sum of 2^k popcount(set & reach_bit[k]) */
    int8_t ray_pt[SQUARE_NB][DIR_NB][10]; /* the points of ray, nearest first */
    Key z_ring[COLOUR_NB][SQUARE_NB];
    Key z_marker[COLOUR_NB][SQUARE_NB];
    Key z_actor;                          /* xor'ed in when Black acts */
    Key z_state[STATE_NB];
    Key z_variant;                        /* xor'ed in for blitz */
    Key z_swap, z_draw_odds;              /* xor'ed in for those rule options */
    int8_t point_of[POINT_NB];            /* n-th point in canonical order */
    /* The direction from p to q on one line, by q - p: dir_by_diff[q - p +
     * SQUARE_NB - 1]. A step count names one direction: a line has at most
     * 10 points, so no 11 or 12 steps of 1 fit in it. */
    int8_t dir_by_diff[2 * SQUARE_NB - 1];
    /* The key change of turning over every marker of p's line along axis a
     * from the line's first point up to p: z_line_flip[a][p] is the xor of
     * z_marker[WHITE][q] ^ z_marker[BLACK][q] over those points q, so a
     * segment's change is two lookups (pos_make's flips). 128 entries per
     * axis, so that bb_lsb and bb_msb of an empty set, less a step, index
     * it; 0 at invalid points. */
    Key z_line_flip[AXIS_NB][128];
} Geometry;

extern const Geometry *const GEO;

static inline bool point_valid(int col, int row)
{
    int x = col - 5, y = row - 6, d = x - y;
    if (col < 0 || col > 10 || row < 1 || row > 11) return false;
    if (x < -5 || x > 5 || y < -5 || y > 5 || d < -5 || d > 5) return false;
    /* the six corners a1, a6, f1, f11, k6, k11 */
    if ((x == -5 && (y == -5 || y == 0)) || (x == 0 && (y == -5 || y == 5)) ||
        (x == 5 && (y == 0 || y == 5)))
        return false;
    return true;
}

static inline Point point_make(int col, int row) { return col * 11 + row - 1; }
static inline int point_col(Point p) { return p / 11; }
static inline int point_row(Point p) { return p % 11 + 1; }

/* Bit scans on 128-bit sets. Of an empty set they give points 127 (lsb)
 * and 0 (msb): invalid points, but indices inside a 128-entry table, which
 * lets pos_make look up before it knows whether the set is empty. */
static inline int bb_lsb(Bitboard b)
{
    uint64_t lo = (uint64_t)b, hi = (uint64_t)(b >> 64);
    int l = __builtin_ctzll(lo | (1ULL << 63)), h = 64 + __builtin_ctzll(hi | (1ULL << 63));
    return lo ? l : h;
}
static inline int bb_msb(Bitboard b)
{
    uint64_t lo = (uint64_t)b, hi = (uint64_t)(b >> 64);
    int l = 63 - __builtin_clzll(lo | 1), h = 127 - __builtin_clzll(hi | 1);
    return hi ? h : l;
}
static inline int bb_popcount(Bitboard b)
{
    return __builtin_popcountll((uint64_t)b) + __builtin_popcountll((uint64_t)(b >> 64));
}
static inline Bitboard bb_bit(Point p) { return (Bitboard)1 << p; }
static inline bool bb_test(Bitboard b, Point p) { return (b >> p) & 1; }

/* Three 128-bit sets side by side, lane i stepping along direction i (or
 * its opposite i + 3): the move generator's fills and the row check move
 * three directions' sets with one operation. Two representations, one
 * interface (l4_*), the same results:
 *   - vectors of four 64-bit lanes (the low and the high halves; the
 *     fourth lane repeats the first, so it changes no union of the lanes),
 *     in GCC's and clang's vector extensions. Where the target has per-lane
 *     shift counts (AVX2, AVX-512 with its funnel shifts, NEON) they become
 *     a few vector instructions per step;
 *   - three scalar 128-bit sets, on x86-64 without AVX2, where the vector
 *     extensions would have each lane's shift done in memory, slower
 *     than the loops the fills replaced. */
#if defined(__x86_64__) && !defined(__AVX2__)
#define L4_SCALAR 1
typedef struct Lanes4 {
    Bitboard b[3];
} Lanes4;

static inline Lanes4 l4_all(Bitboard b) { return (Lanes4){{b, b, b}}; }
static inline Lanes4 l4_and(Lanes4 a, Lanes4 b) { return (Lanes4){{a.b[0] & b.b[0], a.b[1] & b.b[1], a.b[2] & b.b[2]}}; }
static inline Lanes4 l4_or(Lanes4 a, Lanes4 b) { return (Lanes4){{a.b[0] | b.b[0], a.b[1] | b.b[1], a.b[2] | b.b[2]}}; }
static inline Bitboard l4_lane(Lanes4 a, int i) { return a.b[i]; }
static inline bool l4_any(Lanes4 a) { return (a.b[0] | a.b[1] | a.b[2]) != 0; }

/* Each lane's set moved n steps of its direction: toward higher points
 * (up) or lower. Inlined, every shift is by a constant. */
static inline Lanes4 l4_step(Lanes4 a, int n, bool up)
{
    Lanes4 r;
    for (int i = 0; i < 3; i++) r.b[i] = up ? a.b[i] << (DIR_STEP[i] * n) : a.b[i] >> (DIR_STEP[i] * n);
    return r;
}
#else
typedef uint64_t Quad __attribute__((vector_size(4 * sizeof(uint64_t))));
typedef struct Lanes4 {
    Quad lo, hi; /* lane i's set is lo[i] | hi[i] << 64 */
} Lanes4;

/* The step of direction i (up) or i + 3 (down) in lane i: DIR_STEP[0..2],
 * written out because C has no constant array reads. Lane 3 repeats
 * direction 0: it must shift by a count in 1..63 like the others. */
static const Quad LANE_STEP = {1, 11, 12, 1};

static inline Lanes4 l4_all(Bitboard b)
{
    uint64_t lo = (uint64_t)b, hi = (uint64_t)(b >> 64);
    return (Lanes4){{lo, lo, lo, lo}, {hi, hi, hi, hi}};
}
static inline Lanes4 l4_and(Lanes4 a, Lanes4 b) { return (Lanes4){a.lo & b.lo, a.hi & b.hi}; }
static inline Lanes4 l4_or(Lanes4 a, Lanes4 b) { return (Lanes4){a.lo | b.lo, a.hi | b.hi}; }
static inline Bitboard l4_lane(Lanes4 a, int i) { return (Bitboard)a.hi[i] << 64 | a.lo[i]; }
static inline bool l4_any(Lanes4 a)
{
    Quad u = a.lo | a.hi;
    return (u[0] | u[1] | u[2] | u[3]) != 0;
}

#if defined(__AVX512VBMI2__) && defined(__AVX512VL__)
/* AVX-512's funnel shifts (VBMI2: Ice Lake, Zen 4 and later): the upper
 * half of hi:lo shifted left by k, and the lower half shifted right, lane
 * by lane. Written as instructions because clang 14, tuning for these
 * CPUs, turns the intrinsics back into two shifts and an or. */
static inline Quad l4_funnel_left(Quad hi, Quad lo, Quad k)
{
    __asm__("vpshldvq %[k], %[lo], %[hi]" : [hi] "+v"(hi) : [lo] "v"(lo), [k] "v"(k));
    return hi;
}
static inline Quad l4_funnel_right(Quad lo, Quad hi, Quad k)
{
    __asm__("vpshrdvq %[k], %[hi], %[lo]" : [lo] "+v"(lo) : [hi] "v"(hi), [k] "v"(k));
    return lo;
}
#endif

/* Each lane's set moved n steps of its direction: toward higher points
 * (up) or lower. n * step stays below 64 (n is 1, 2 or 4), so each half
 * takes the bits that cross from the other with one shift; with the
 * funnel shifts, the half that takes them is one instruction instead of
 * two shifts and an or: two instructions a step, not four (the same
 * bits). */
static inline Lanes4 l4_step(Lanes4 a, int n, bool up)
{
    Quad k = LANE_STEP * (uint64_t)n;
#if defined(__AVX512VBMI2__) && defined(__AVX512VL__)
    if (up) return (Lanes4){a.lo << k, l4_funnel_left(a.hi, a.lo, k)};
    return (Lanes4){l4_funnel_right(a.lo, a.hi, k), a.hi >> k};
#else
    if (up) return (Lanes4){a.lo << k, (a.hi << k) | (a.lo >> (64 - k))};
    return (Lanes4){(a.lo >> k) | (a.hi << (64 - k)), a.hi >> k};
#endif
}
#endif

/* The points of each of lanes 0..2 (into n[0..2]), and of the three
 * together. With AVX-512's vector popcount (VPOPCNTDQ) the lanes are
 * counted where they stand, not taken out one 64-bit half at a time
 * (the same counts). */
static inline void l4_counts3(Lanes4 a, int n[3])
{
#if !defined(L4_SCALAR) && defined(__AVX512VPOPCNTDQ__) && defined(__AVX512VL__)
    Quad c = (Quad)_mm256_popcnt_epi64((__m256i)a.lo) + (Quad)_mm256_popcnt_epi64((__m256i)a.hi);
    for (int i = 0; i < 3; i++) n[i] = (int)c[i];
#else
    for (int i = 0; i < 3; i++) n[i] = bb_popcount(l4_lane(a, i));
#endif
}
static inline int l4_popcount3(Lanes4 a)
{
    int n[3];
    l4_counts3(a, n);
    return n[0] + n[1] + n[2];
}

/* Starts (lowest point) of every run of 5 set points along axis a. The
 * embedding needs no edge masks: a shift that wraps from row 11 of one
 * column to row 1 of a later one always passes an invalid point, and
 * invalid points never hold markers. */
static inline Bitboard bb_row_starts(Bitboard m, int axis)
{
    int s = DIR_STEP[axis];
    Bitboard t = m & (m >> s); /* runs of 2 */
    t &= t >> (2 * s);         /* runs of 4 */
    return t & (m >> (4 * s)); /* runs of 5 */
}
/* Whether m holds a run of 5 along any axis: bb_row_starts of the three
 * axes at once, one per lane (measured about 40% faster than three scalar
 * checks; make asks after every move). */
static inline bool bb_has_row(Bitboard m)
{
    Lanes4 one = l4_all(m);
    Lanes4 t = l4_and(one, l4_step(one, 1, false)); /* runs of 2 */
    t = l4_and(t, l4_step(t, 2, false));            /* runs of 4 */
    return l4_any(l4_and(t, l4_step(one, 4, false)));
}

/* The points of every run of 5 set points of m along any axis: a row
 * that some change of m makes lies in these points of the set it was
 * made from (engine/movegen.c, the search's ordering). */
static inline Bitboard bb_row_points(Bitboard m)
{
    Bitboard z = 0;
    for (int a = 0; a < AXIS_NB; a++) {
        int k = DIR_STEP[a];
        Bitboard st = bb_row_starts(m, a);
        z |= st | st << k | st << 2 * k | st << 3 * k | st << 4 * k;
    }
    return z;
}

/* Points strictly between p and q, which lie on one line in direction d. */
static inline Bitboard bb_between(Point p, Point q, int d)
{
    return GEO->ray[p][d] ^ GEO->ray[q][d] ^ bb_bit(q);
}

#endif
