#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "engine/encode/encode.h"
#include "engine/geometry.h"
#include "engine/movegen.h"

const uint8_t ENCODE_PLANE_SCALE[ENCODE_PLANES] = {
    [PLANE_OWN_RINGS] = 1,   [PLANE_OTHER_RINGS] = 1, [PLANE_OWN_MARKERS] = 1, [PLANE_OTHER_MARKERS] = 1,
    [PLANE_VALID] = 1,       [PLANE_BLACK_ACTS] = 1,  [PLANE_STATE_P + STATE_P] = 1,
    [PLANE_STATE_P + STATE_M] = 1, [PLANE_STATE_P + STATE_R] = 1, [PLANE_STATE_P + STATE_X] = 1,
    [PLANE_STATE_P + STATE_r] = 1, [PLANE_STATE_P + STATE_x] = 1, [PLANE_OVER] = 1,
    [PLANE_OWN_REMOVED] = RINGS_TO_WIN, [PLANE_OTHER_REMOVED] = RINGS_TO_WIN,
    [PLANE_POOL] = MARKERS_NB, [PLANE_BLITZ] = 1,
};

/* The index tables, filled once before main and only read afterwards
 * (as geometry's), so any number of threads share them. -1: no action. */
typedef struct EncodeTables {
    int16_t canon[SQUARE_NB];            /* a point's number in canonical order */
    int16_t move[SQUARE_NB][SQUARE_NB];  /* ENCODE_MOVE0 + m of the move from p to q */
    int16_t row[SQUARE_NB][AXIS_NB];     /* ENCODE_ROW0 + r of the row from its lower end p along an axis */
    Action action[ENCODE_ACTIONS];       /* each index's action */
    /* the layout: each index's slot, and each slot's index (-1: none) */
    int8_t layout_channel[ENCODE_ACTIONS];
    uint8_t layout_cell[ENCODE_ACTIONS];
    int16_t layout_index[ENCODE_CHANNELS][ENCODE_CELLS];
    /* the symmetries: images of cells, directions, channels, indices */
    uint8_t sym_cell[ENCODE_SYMMETRIES][ENCODE_CELLS];
    int8_t sym_dir[ENCODE_SYMMETRIES][6];
    int8_t sym_channel[ENCODE_SYMMETRIES][ENCODE_CHANNELS];
    int16_t sym_action[ENCODE_SYMMETRIES][ENCODE_ACTIONS];
    int8_t sym_inverse[ENCODE_SYMMETRIES];
} EncodeTables;
static EncodeTables tables;

/* The steps along each axis toward higher points: the index steps of
 * directions 0..2 (geometry.h), as (column, row) changes. */
static const int AXIS_DC[AXIS_NB] = {0, 1, 1}, AXIS_DR[AXIS_NB] = {1, 0, 1};

/* The direction (geometry.h's numbering) of a step (dc, dr) along a line,
 * and the step of a direction. */
static int step_dir(int dc, int dr)
{
    if (dc == 0) return dr > 0 ? 0 : 3;
    if (dr == 0) return dc > 0 ? 1 : 4;
    return dc > 0 ? 2 : 5;
}
static const int DIR_DC[6] = {0, 1, 1, 0, -1, -1}, DIR_DR[6] = {1, 0, 1, -1, 0, -1};

/* (x, y) moved by symmetry s, in coordinates centred on f6 (x = column -
 * 5, y = row - 6): a reflection (x, y) -> (y, x) for s >= 6, then s % 6
 * rotations by 60 degrees, (x, y) -> (x - y, x), which turn the lines'
 * directions (0, 1), (1, 0), (1, 1) into each other and keep the board
 * and its corners (eval/nnue_train.c's nnue_train_symmetries, the same
 * numbering). Linear, so it moves steps as it moves points. */
static void sym_xy(int s, int *x, int *y)
{
    if (s >= 6) {
        int t = *x;
        *x = *y;
        *y = t;
    }
    for (int r = 0; r < s % 6; r++) {
        int nx = *x - *y, ny = *x;
        *x = nx;
        *y = ny;
    }
}

/* The layout and the symmetries, from the index tables (encode_build). */
static void layout_build(EncodeTables *t)
{
    memset(t->layout_index, -1, sizeof t->layout_index);
    for (int i = 0; i < ENCODE_ACTIONS; i++) {
        Action a = t->action[i];
        Point p = ACTION_FROM(a), q = ACTION_TO(a);
        int channel, cell = p;
        switch (ACTION_KIND(a)) {
        case ACT_PLACE:
            channel = CHANNEL_PLACE;
            break;
        case ACT_MOVE: {
            int dc = point_col(q) - point_col(p), dr = point_row(q) - point_row(p);
            int k = dc ? abs(dc) : abs(dr);
            assert(k >= 1 && k <= ENCODE_MOVE_SPAN);
            channel = CHANNEL_MOVE0 + ENCODE_MOVE_SPAN * step_dir(dc, dr) + k - 1;
            break;
        }
        case ACT_PASS:
            channel = CHANNEL_PASS, cell = point_make(5, 6);
            break;
        case ACT_ROW:
            /* the middle of five points; the axis is the direction up */
            channel = CHANNEL_ROW0 + step_dir(point_col(q) - point_col(p), point_row(q) - point_row(p));
            cell = point_make((point_col(p) + point_col(q)) / 2, (point_row(p) + point_row(q)) / 2);
            break;
        default:
            channel = CHANNEL_RING;
            break;
        }
        assert(t->layout_index[channel][cell] < 0);
        t->layout_channel[i] = (int8_t)channel;
        t->layout_cell[i] = (uint8_t)cell;
        t->layout_index[channel][cell] = (int16_t)i;
    }

    for (int s = 0; s < ENCODE_SYMMETRIES; s++) {
        for (Point c = 0; c < SQUARE_NB; c++) {
            int x = point_col(c) - 5, y = point_row(c) - 6;
            t->sym_cell[s][c] = (uint8_t)c;
            if (t->canon[c] < 0) continue;
            sym_xy(s, &x, &y);
            t->sym_cell[s][c] = (uint8_t)point_make(x + 5, y + 6);
            assert(t->canon[t->sym_cell[s][c]] >= 0);
        }
        for (int d = 0; d < 6; d++) {
            int dc = DIR_DC[d], dr = DIR_DR[d];
            sym_xy(s, &dc, &dr);
            t->sym_dir[s][d] = (int8_t)step_dir(dc, dr);
        }
        for (int ch = 0; ch < ENCODE_CHANNELS; ch++) {
            int to = ch;
            if (ch >= CHANNEL_MOVE0 && ch < CHANNEL_PASS) {
                int d = (ch - CHANNEL_MOVE0) / ENCODE_MOVE_SPAN, k = (ch - CHANNEL_MOVE0) % ENCODE_MOVE_SPAN;
                to = CHANNEL_MOVE0 + ENCODE_MOVE_SPAN * t->sym_dir[s][d] + k;
            } else if (ch >= CHANNEL_ROW0 && ch < CHANNEL_RING) {
                to = CHANNEL_ROW0 + t->sym_dir[s][ch - CHANNEL_ROW0] % 3;
            }
            t->sym_channel[s][ch] = (int8_t)to;
        }
        /* an action's image from its points' images; a row is written
         * from its lower end, which the image may have made its higher */
        for (int i = 0; i < ENCODE_ACTIONS; i++) {
            Action a = t->action[i];
            int kind = ACTION_KIND(a);
            Point p = ACTION_FROM(a), q = ACTION_TO(a);
            Point sp = t->sym_cell[s][p], sq = kind == ACT_MOVE || kind == ACT_ROW ? t->sym_cell[s][q] : q;
            if (kind == ACT_ROW && sq < sp) {
                Point u = sp;
                sp = sq;
                sq = u;
            }
            int j = kind == ACT_PASS ? i : encode_action(ACTION_MAKE(kind, sp, sq));
            assert(j >= 0);
            t->sym_action[s][i] = (int16_t)j;
        }
    }
    /* the inverse: the symmetry that brings every point back */
    for (int s = 0; s < ENCODE_SYMMETRIES; s++) {
        t->sym_inverse[s] = -1;
        for (int u = 0; u < ENCODE_SYMMETRIES && t->sym_inverse[s] < 0; u++) {
            bool back = true;
            for (Point c = 0; c < SQUARE_NB; c++) back &= t->sym_cell[u][t->sym_cell[s][c]] == c;
            if (back) t->sym_inverse[s] = (int8_t)u;
        }
        assert(t->sym_inverse[s] >= 0);
    }
}

/* Built from point_valid alone, not from GEO: the order in which two
 * files' constructors run is not defined. Walking the points and their
 * partners in ascending index order gives each kind's indices in the
 * canonical order of actions. */
__attribute__((constructor)) static void encode_build(void)
{
    EncodeTables *t = &tables;
    memset(t->canon, -1, sizeof t->canon);
    memset(t->move, -1, sizeof t->move);
    memset(t->row, -1, sizeof t->row);
    int n = 0, moves = 0, rows = 0;
    for (Point p = 0; p < SQUARE_NB; p++)
        if (point_valid(point_col(p), point_row(p))) {
            t->canon[p] = (int16_t)n;
            t->action[ENCODE_PLACE0 + n] = ACTION_MAKE(ACT_PLACE, p, 0);
            t->action[ENCODE_RING0 + n] = ACTION_MAKE(ACT_RING, p, 0);
            n++;
        }
    t->action[ENCODE_PASS] = ACTION_MAKE(ACT_PASS, 0, 0);
    for (Point p = 0; p < SQUARE_NB; p++) {
        if (t->canon[p] < 0) continue;
        int pc = point_col(p), pr = point_row(p);
        for (Point q = 0; q < SQUARE_NB; q++) {
            int dc = point_col(q) - pc, dr = point_row(q) - pr;
            bool on_line = dc == 0 || dr == 0 || dc == dr;
            if (q == p || t->canon[q] < 0 || !on_line) continue;
            t->move[p][q] = (int16_t)(ENCODE_MOVE0 + moves);
            t->action[ENCODE_MOVE0 + moves++] = ACTION_MAKE(ACT_MOVE, p, q);
        }
        /* a row's higher end, in ascending order: along the axes 0, 1, 2
         * the end is 4, 44 or 48 points on */
        for (int axis = 0; axis < AXIS_NB; axis++) {
            bool whole = true;
            for (int k = 1; k <= 4; k++) whole &= point_valid(pc + k * AXIS_DC[axis], pr + k * AXIS_DR[axis]);
            if (!whole) continue;
            Point q = point_make(pc + 4 * AXIS_DC[axis], pr + 4 * AXIS_DR[axis]);
            t->row[p][axis] = (int16_t)(ENCODE_ROW0 + rows);
            t->action[ENCODE_ROW0 + rows++] = ACTION_MAKE(ACT_ROW, p, q);
        }
    }
    assert(n == POINT_NB && moves == ENCODE_MOVES && rows == ENCODE_ROWS);
    layout_build(t);
}

int encode_action(Action a)
{
    if (a >> 17) return -1;
    Point p = ACTION_FROM(a), q = ACTION_TO(a);
    bool on = p < SQUARE_NB && tables.canon[p] >= 0;
    switch (ACTION_KIND(a)) {
    case ACT_PLACE:
        return on && q == 0 ? ENCODE_PLACE0 + tables.canon[p] : -1;
    case ACT_RING:
        return on && q == 0 ? ENCODE_RING0 + tables.canon[p] : -1;
    case ACT_PASS:
    case ACT_SWAP: /* the slot without a point: pass in M, swap in P */
        return p == 0 && q == 0 ? ENCODE_PASS : -1;
    case ACT_MOVE:
        return on && q < SQUARE_NB ? tables.move[p][q] : -1;
    case ACT_ROW:
        if (!on) return -1;
        for (int axis = 0; axis < AXIS_NB; axis++)
            if (q == p + 4 * DIR_STEP[axis]) return tables.row[p][axis];
        return -1;
    default:
        return -1;
    }
}

Action encode_action_at(int index)
{
    return index >= 0 && index < ENCODE_ACTIONS ? tables.action[index] : ACTION_NONE;
}

Action encode_action_in(const Position *pos, int index)
{
    return index == ENCODE_PASS && pos->state == STATE_P ? ACTION_SWAP : encode_action_at(index);
}

int encode_mask(const Position *pos, uint8_t *mask)
{
    Action list[MAX_ACTIONS];
    int n = movegen_all(pos, list);
    memset(mask, 0, ENCODE_ACTIONS);
    for (int k = 0; k < n; k++) {
        int i = encode_action(list[k]);
        assert(i >= 0);
        mask[i] = 1;
    }
    return n;
}

int encode_legal(const Position *pos, int *out)
{
    Action list[MAX_ACTIONS];
    int n = movegen_all(pos, list);
    /* insertion sort: lists are short (at most about 110 actions) and
     * mostly ascending already within each direction */
    for (int k = 0; k < n; k++) {
        int i = encode_action(list[k]), j = k;
        assert(i >= 0);
        for (; j > 0 && out[j - 1] > i; j--) out[j] = out[j - 1];
        out[j] = i;
    }
    return n;
}

/* Sets the cells of a plane at the points of b. */
static void put_set(uint8_t *plane, Bitboard b)
{
    for (; b; b &= b - 1) plane[bb_lsb(b)] = 1;
}

/* Sets every point of a plane to v (0 leaves the plane as it is). */
static void put_all(uint8_t *plane, uint8_t v)
{
    if (!v) return;
    for (int n = 0; n < POINT_NB; n++) plane[GEO->point_of[n]] = v;
}

void encode_planes_raw(const Position *pos, int view, uint8_t *out)
{
    assert(view >= 0 && view < ENCODE_VIEW_NB);
    int own = view == ENCODE_VIEW_ACTOR ? pos->actor : view, other = !own;
    memset(out, 0, ENCODE_SIZE);
    put_set(out + PLANE_OWN_RINGS * ENCODE_CELLS, pos->rings[own]);
    put_set(out + PLANE_OTHER_RINGS * ENCODE_CELLS, pos->rings[other]);
    put_set(out + PLANE_OWN_MARKERS * ENCODE_CELLS, pos->markers[own]);
    put_set(out + PLANE_OTHER_MARKERS * ENCODE_CELLS, pos->markers[other]);
    put_all(out + PLANE_VALID * ENCODE_CELLS, 1);
    put_all(out + PLANE_BLACK_ACTS * ENCODE_CELLS, pos->actor == BLACK);
    /* STATE_END's plane is PLANE_OVER, right after the six states' */
    put_all(out + (PLANE_STATE_P + pos->state) * ENCODE_CELLS, 1);
    put_all(out + PLANE_OWN_REMOVED * ENCODE_CELLS, pos->removed[own]);
    put_all(out + PLANE_OTHER_REMOVED * ENCODE_CELLS, pos->removed[other]);
    put_all(out + PLANE_POOL * ENCODE_CELLS, pos->pool);
    put_all(out + PLANE_BLITZ * ENCODE_CELLS, pos->variant & VARIANT_BLITZ);
}

void encode_planes(const Position *pos, int view, float *out)
{
    uint8_t raw[ENCODE_SIZE];
    encode_planes_raw(pos, view, raw);
    for (int plane = 0; plane < ENCODE_PLANES; plane++) {
        float scale = ENCODE_PLANE_SCALE[plane];
        for (int c = 0; c < ENCODE_CELLS; c++) out[plane * ENCODE_CELLS + c] = raw[plane * ENCODE_CELLS + c] / scale;
    }
}

int encode_layout_channel(int index)
{
    assert(index >= 0 && index < ENCODE_ACTIONS);
    return tables.layout_channel[index];
}

int encode_layout_cell(int index)
{
    assert(index >= 0 && index < ENCODE_ACTIONS);
    return tables.layout_cell[index];
}

int encode_layout_index(int channel, int cell)
{
    bool in = channel >= 0 && channel < ENCODE_CHANNELS && cell >= 0 && cell < ENCODE_CELLS;
    return in ? tables.layout_index[channel][cell] : -1;
}

int encode_sym_cell(int s, int cell)
{
    assert(s >= 0 && s < ENCODE_SYMMETRIES && cell >= 0 && cell < ENCODE_CELLS);
    return tables.sym_cell[s][cell];
}

int encode_sym_channel(int s, int channel)
{
    assert(s >= 0 && s < ENCODE_SYMMETRIES && channel >= 0 && channel < ENCODE_CHANNELS);
    return tables.sym_channel[s][channel];
}

int encode_sym_action(int s, int index)
{
    assert(s >= 0 && s < ENCODE_SYMMETRIES && index >= 0 && index < ENCODE_ACTIONS);
    return tables.sym_action[s][index];
}

int encode_sym_inverse(int s)
{
    assert(s >= 0 && s < ENCODE_SYMMETRIES);
    return tables.sym_inverse[s];
}

/* The points of b moved by s. */
static Bitboard sym_set(int s, Bitboard b)
{
    Bitboard r = 0;
    for (; b; b &= b - 1) r |= (Bitboard)1 << tables.sym_cell[s][bb_lsb(b)];
    return r;
}

void encode_sym_position(const Position *pos, int s, Position *out)
{
    assert(s >= 0 && s < ENCODE_SYMMETRIES);
    *out = *pos;
    for (int c = 0; c < COLOUR_NB; c++) {
        out->rings[c] = sym_set(s, pos->rings[c]);
        out->markers[c] = sym_set(s, pos->markers[c]);
    }
    out->key = pos_compute_key(out);
}
