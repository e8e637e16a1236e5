#include <stdbool.h>
#include <string.h>
#include "eval/patterns.h"
#include "engine/geometry.h"

static uint16_t class_of[COLOUR_NB][PATTERN_CODES];
static int16_t code_of[PATTERN_NB];
static int windows_found, classes_found;

static int reverse(int code)
{
    int r = 0;
    for (int k = 0; k < 5; k++, code /= 5) r = r * 5 + code % 5;
    return r;
}

static int swap_colours(int code)
{
    static const int SWAP[5] = {0, 2, 1, 4, 3};
    int r = 0, m = 1;
    for (int k = 0; k < 5; k++, code /= 5, m *= 5) r += SWAP[code % 5] * m;
    return r;
}

/* The lines of 5 points or more, each as its points in order along the
 * axis (first points by index); from the board's shape alone
 * (point_valid), not from GEO: constructors of different files run in no
 * set order. */
enum { LINES_MAX = 3 * 11 };
static int8_t line_pt[LINES_MAX][11];
static uint8_t window_pt[PATTERN_WINDOWS][5]; /* by line, then along it */
/* the windows through each point, and the point's weight in their codes
 * (5^4 for a window's first point, ..., 1 for its last) */
enum { PT_WINDOWS_MAX = 15 };
static uint8_t pt_nwin[SQUARE_NB];
static uint8_t pt_win[SQUARE_NB][PT_WINDOWS_MAX];
static uint16_t pt_mul[SQUARE_NB][PT_WINDOWS_MAX];
static int8_t line_len[LINES_MAX];
static int nlines;

__attribute__((constructor)) static void patterns_build(void)
{
    static const int DCOL[AXIS_NB] = {0, 1, 1}, DROW[AXIS_NB] = {1, 0, 1}; /* DIR_STEP 1, 11, 12 */
    int n = 0;
    for (int a = 0; a < AXIS_NB; a++)
        for (int col = 0; col <= 10; col++)
            for (int row = 1; row <= 11; row++) {
                /* a line starts at a point whose step back is off the board */
                if (!point_valid(col, row) || point_valid(col - DCOL[a], row - DROW[a])) continue;
                int len = 0;
                while (point_valid(col + len * DCOL[a], row + len * DROW[a])) len++;
                if (len < 5 || nlines >= LINES_MAX) continue;
                for (int k = 0; k < len; k++) line_pt[nlines][k] = (int8_t)point_make(col + k * DCOL[a], row + k * DROW[a]);
                line_len[nlines++] = (int8_t)len;
                for (int k = 0; k + 5 <= len && n < PATTERN_WINDOWS; k++, n++)
                    for (int j = 0; j < 5; j++) window_pt[n][j] = (uint8_t)line_pt[nlines - 1][k + j];
            }
    windows_found = n;
    for (int w = 0; w < n; w++)
        for (int j = 0, m = 625; j < 5; j++, m /= 5) {
            int p = window_pt[w][j];
            if (pt_nwin[p] >= PT_WINDOWS_MAX) continue;
            pt_win[p][pt_nwin[p]] = (uint8_t)w;
            pt_mul[p][pt_nwin[p]++] = (uint16_t)m;
        }
    int next = 0;
    int16_t seen[PATTERN_CODES];
    memset(seen, -1, sizeof seen);
    for (int code = 0; code < PATTERN_CODES; code++) {
        int r = reverse(code), lo = code < r ? code : r;
        if (seen[lo] < 0 && next < PATTERN_NB) {
            seen[lo] = (int16_t)next;
            code_of[next++] = (int16_t)lo;
        }
        class_of[WHITE][code] = (uint16_t)seen[lo];
    }
    for (int code = 0; code < PATTERN_CODES; code++) class_of[BLACK][code] = class_of[WHITE][swap_colours(code)];
    classes_found = next;
}

int patterns_windows_found(void) { return windows_found; }
int patterns_classes_found(void) { return classes_found; }

int pattern_class(int code, int c) { return code >= 0 && code < PATTERN_CODES ? class_of[c][code] : -1; }
int pattern_code_of(int cls) { return cls >= 0 && cls < PATTERN_NB ? code_of[cls] : -1; }

/* The points' digits in White's view (0 empty, 1 White's marker, 2 Black's,
 * 3 White's ring, 4 Black's), by point index. */
static inline void cells(const Position *pos, uint8_t cell[SQUARE_NB + 7])
{
    memset(cell, 0, SQUARE_NB + 7);
    Bitboard sets[4] = {pos->markers[WHITE], pos->markers[BLACK], pos->rings[WHITE], pos->rings[BLACK]};
    for (int s = 0; s < 4; s++) {
        uint64_t lo = (uint64_t)sets[s], hi = (uint64_t)(sets[s] >> 64);
        for (; lo; lo &= lo - 1) cell[__builtin_ctzll(lo)] = (uint8_t)(s + 1);
        for (; hi; hi &= hi - 1) cell[64 + __builtin_ctzll(hi)] = (uint8_t)(s + 1);
    }
}

/* Each window's code from its five points, read from the last one (the
 * reversed code, of the same class): the windows do not wait for each
 * other, so the processor overlaps them (sliding one code along a line
 * was slower: each window waited for the last). */
#define FOR_EACH_WINDOW(cell, code, body)                                                            \
    for (int w_ = 0; w_ < PATTERN_WINDOWS; w_++) {                                                    \
        const uint8_t *q = window_pt[w_];                                                             \
        int code = 625 * cell[q[0]] + 125 * cell[q[1]] + 25 * cell[q[2]] + 5 * cell[q[3]] + cell[q[4]]; \
        body;                                                                                         \
    }

int patterns_classes(const Position *pos, int c, uint16_t cls[PATTERN_WINDOWS])
{
    uint8_t cell[SQUARE_NB + 7];
    cells(pos, cell);
    const uint16_t *table = class_of[c];
    int w = 0;
    FOR_EACH_WINDOW(cell, code, cls[w++] = table[code]);
    return w;
}

void patterns_expand(const int32_t *weights, int c, int32_t by_code[PATTERN_CODES])
{
    for (int code = 0; code < PATTERN_CODES; code++) by_code[code] = weights[class_of[c][code]];
}

int32_t patterns_sum(const Position *pos, const int32_t by_code[PATTERN_CODES])
{
    uint8_t cell[SQUARE_NB + 7];
    cells(pos, cell);
    int32_t sum = 0;
    FOR_EACH_WINDOW(cell, code, sum += by_code[code]);
    return sum;
}

void patterns_codes(const Position *pos, uint16_t code[PATTERN_WINDOWS])
{
    uint8_t cell[SQUARE_NB + 7];
    cells(pos, cell);
    int w = 0;
    FOR_EACH_WINDOW(cell, c, code[w++] = (uint16_t)c);
}

void patterns_sum_codes(const uint16_t code[PATTERN_WINDOWS], const int64_t pairs[PATTERN_CODES], int32_t sum[COLOUR_NB])
{
    int64_t s = 0;
    for (int w = 0; w < PATTERN_WINDOWS; w++) s += pairs[code[w]];
    patterns_unpair(s, sum);
}

void patterns_update_sums(uint16_t code[PATTERN_WINDOWS], const uint8_t *pts, const int8_t *change, int n,
                          const int64_t pairs[PATTERN_CODES], int32_t sum[COLOUR_NB])
{
    int64_t moved = 0;
    for (int i = 0; i < n; i++) {
        int p = pts[i];
        for (int k = 0; k < pt_nwin[p]; k++) {
            int w = pt_win[p][k], old = code[w], now = (uint16_t)(old + change[i] * pt_mul[p][k]);
            code[w] = (uint16_t)now;
            moved += pairs[now] - pairs[old];
        }
    }
    int32_t by[COLOUR_NB];
    patterns_unpair(moved, by);
    sum[WHITE] += by[WHITE];
    sum[BLACK] += by[BLACK];
}
