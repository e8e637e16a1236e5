/* Line patterns (issue 30): what lies in each 5-point window of a line.
 *
 * YINSH is won by rows of five, so the contents of every window of five
 * points along a line say much of a position: the evaluations of
 * five-in-a-row games (Gomoku's Rapfi, Othello's n-tuple networks) are
 * tables indexed by such patterns. A window is the five points from p
 * along one of the three axes (geometry.h: row5), all on the board: 123
 * of them. Each point holds one of five things, seen from a side c:
 * 0 empty, 1 c's marker, 2 the other's marker, 3 c's ring, 4 the other's
 * ring; the window's code is sum digit_k 5^k over its points in order
 * along the axis (3125 codes). A window read the other way is the same
 * window, so a code and its reverse form one pattern class: PATTERN_NB
 * classes, numbered by their smaller code in increasing order.
 *
 * The classes of a position's windows are the same in every symmetry of
 * the board (a rotation or reflection takes windows to windows, perhaps
 * reversed): a weight per class is an evaluation that needs no
 * augmentation. The tables are built once, before main (a constructor),
 * and only read afterwards. */
#ifndef YINSH_PATTERNS_H
#define YINSH_PATTERNS_H

#include <stdint.h>
#include "engine/position.h"

enum {
    PATTERN_CODES = 3125,  /* 5^5 */
    PATTERN_NB = 1625,     /* classes: (3125 + 125 palindromes) / 2 */
    PATTERN_WINDOWS = 123, /* 5-point windows of the board's lines */
};

/* The class of each window of pos, seen from side c, into cls (in a fixed
 * order of the windows: by line, then along it); returns
 * PATTERN_WINDOWS. */
int patterns_classes(const Position *pos, int c, uint16_t cls[PATTERN_WINDOWS]);
/* A weight per class (weights[PATTERN_NB]) as a weight per code seen
 * from side c (by_code[PATTERN_CODES]): what patterns_sum reads. */
void patterns_expand(const int32_t *weights, int c, int32_t by_code[PATTERN_CODES]);
/* The sum over pos's windows of by_code[code] (a table of
 * patterns_expand for the side the sum is for): one lookup a window. */
int32_t patterns_sum(const Position *pos, const int32_t by_code[PATTERN_CODES]);
/* The incremental form (a search's accumulators, nnue.h): the windows'
 * codes seen from White (in the order of patterns_classes, each read
 * from its last point), their sums of a table by code for both sides,
 * and the update of the codes when points change: n distinct points
 * pts[i] whose White-view digit changes by change[i] (the new digit less
 * the old).
 *
 * The table holds both sides' values of a code in one integer, White's
 * w and Black's b as w + b 2^32 (patterns_pair): one load gives both, and
 * a sum of such integers is the pair of the sums, read back by
 * patterns_unpair while each side's sum fits in 32 bits (a net's parts
 * are bounded so that they do, nnue.h). */
static inline int64_t patterns_pair(int32_t white, int32_t black) { return (int64_t)white + (int64_t)black * ((int64_t)1 << 32); }
static inline void patterns_unpair(int64_t pair, int32_t sum[COLOUR_NB])
{
    int32_t white = (int32_t)(uint32_t)(uint64_t)pair;
    sum[WHITE] = white;
    sum[BLACK] = (int32_t)((pair - white) / ((int64_t)1 << 32));
}
void patterns_codes(const Position *pos, uint16_t code[PATTERN_WINDOWS]);
/* The sums of the table pairs (patterns_pair values by code) over the
 * windows of code, into sum. */
void patterns_sum_codes(const uint16_t code[PATTERN_WINDOWS], const int64_t pairs[PATTERN_CODES], int32_t sum[COLOUR_NB]);
/* The update keeps the sums too: sum stays patterns_sum_codes of the
 * codes, moved by each changed window's difference instead of summed over
 * all windows. */
void patterns_update_sums(uint16_t code[PATTERN_WINDOWS], const uint8_t *pts, const int8_t *change, int n,
                          const int64_t pairs[PATTERN_CODES], int32_t sum[COLOUR_NB]);
/* The class of a code seen from White (digits as above for c = WHITE),
 * for side c: Black's view swaps the colours' digits. */
int pattern_class(int code, int c);
/* The smallest code of a class (its name: digits from the window's first
 * point), or -1 out of range. */
int pattern_code_of(int cls);
/* What the tables were built with: the windows and classes found on the
 * board (the tests check them against the constants above). */
int patterns_windows_found(void);
int patterns_classes_found(void);

#endif
