#include <assert.h>
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
} EncodeTables;
static EncodeTables tables;

/* The steps along each axis toward higher points: the index steps of
 * directions 0..2 (geometry.h), as (column, row) changes. */
static const int AXIS_DC[AXIS_NB] = {0, 1, 1}, AXIS_DR[AXIS_NB] = {1, 0, 1};

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
    put_all(out + PLANE_BLITZ * ENCODE_CELLS, pos->variant == VARIANT_BLITZ);
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
