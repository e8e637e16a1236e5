/* The observation planes and the action index space (engine/encode,
 * docs/python.md): the planes and mask of hand-worked positions against
 * values written out below by hand; indices worked out by hand; every
 * index of the space to its action and back; every legal action of the
 * rules cases (the .txt files of tests/data) and of random games to a unique index
 * and back, the mask and the sorted indices agreeing with the move
 * generator's canonical list. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "engine/encode/encode.h"
#include "engine/geometry.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/base/rng.h"

/* docs/notation.md §2.1: White to take off a row of e2..e7 (two ways).
 * White rings a2 b1 f5 k7 k8, Black rings a5 b7 j11 k9 k10, White
 * markers e2 e3 e4 e5 e6 e7; nothing removed, 51 - 6 = 45 in the pool. */
#define ROW_SIX "W2B/W5B/8/9/1wwwwww3/3W5/10/9/8/6B/WWBB w R standard"
/* the same after xe3-e7 and xk7 (tests/data/rows.txt): Black to move,
 * White has taken off one ring (k7), one white marker e2, 50 in the pool */
#define AFTER_ROW "W2B/W5B/8/9/1w8/3W5/10/9/8/6B/1WBB b M standard"
#define START "4/7/8/9/10/9/10/9/8/7/4 w P standard"
#define MOVES "4/7/5B2/6B2/8BW/6B2/4B1W2W/3W4W/8/7/4 w M standard"

static Position parse(const char *ypn)
{
    Position pos;
    char err[ERR_LEN];
    cr_assert_eq(ypn_parse(ypn, &pos, err), 0, "%s: %s", ypn, err);
    return pos;
}

/* The cells of a plane that hold v, ascending, into cells; their number. */
static int cells_with(const uint8_t *planes, int plane, int v, int *cells)
{
    int n = 0;
    for (int c = 0; c < ENCODE_CELLS; c++)
        if (planes[plane * ENCODE_CELLS + c] == v) cells[n++] = c;
    return n;
}

/* A plane holds 1 exactly at the cells given (ascending), 0 elsewhere. */
static void expect_cells(const uint8_t *planes, int plane, const int *want, int n)
{
    int got[ENCODE_CELLS];
    cr_expect_eq(cells_with(planes, plane, 1, got), n, "plane %d: %d cells set, expected %d", plane,
                 cells_with(planes, plane, 1, got), n);
    for (int k = 0; k < n; k++) cr_expect_eq(got[k], want[k], "plane %d: cell %d is %d, expected %d", plane, k, got[k], want[k]);
    int zero[ENCODE_CELLS];
    cr_expect_eq(cells_with(planes, plane, 0, zero), ENCODE_CELLS - n, "plane %d holds values other than 0 and 1", plane);
}

/* A plane holds v at the 85 points and 0 at the other 36 cells. */
static void expect_all(const uint8_t *planes, int plane, int v)
{
    int cells[ENCODE_CELLS];
    if (v == 0) {
        cr_expect_eq(cells_with(planes, plane, 0, cells), ENCODE_CELLS, "plane %d is not all 0", plane);
        return;
    }
    cr_expect_eq(cells_with(planes, plane, v, cells), POINT_NB, "plane %d: %d cells hold %d, expected the 85 points",
                 plane, cells_with(planes, plane, v, cells), v);
    for (int k = 0; k < POINT_NB; k++) cr_expect_eq(cells[k], GEO->point_of[k], "plane %d: a cell off the board", plane);
}

/* Cells by hand: column * 11 + row - 1 (a = 0). */
static const int W_RINGS[] = {1 /* a2 */, 11 /* b1 */, 59 /* f5 */, 116 /* k7 */, 117 /* k8 */};
static const int B_RINGS[] = {4 /* a5 */, 17 /* b7 */, 109 /* j11 */, 118 /* k9 */, 119 /* k10 */};
static const int W_MARKERS[] = {45, 46, 47, 48, 49, 50}; /* e2 .. e7 */

Test(planes, a_row_to_take_off_seen_by_white)
{
    Position pos = parse(ROW_SIX);
    uint8_t p[ENCODE_SIZE];
    encode_planes_raw(&pos, ENCODE_VIEW_WHITE, p);
    expect_cells(p, PLANE_OWN_RINGS, W_RINGS, 5);
    expect_cells(p, PLANE_OTHER_RINGS, B_RINGS, 5);
    expect_cells(p, PLANE_OWN_MARKERS, W_MARKERS, 6);
    expect_cells(p, PLANE_OTHER_MARKERS, NULL, 0);
    expect_all(p, PLANE_VALID, 1);
    expect_all(p, PLANE_BLACK_ACTS, 0);
    for (int s = STATE_P; s <= STATE_END; s++) expect_all(p, PLANE_STATE_P + s, s == STATE_R);
    expect_all(p, PLANE_OWN_REMOVED, 0);
    expect_all(p, PLANE_OTHER_REMOVED, 0);
    expect_all(p, PLANE_POOL, 45);
    expect_all(p, PLANE_BLITZ, 0);
    /* White acts: the actor's view is White's */
    uint8_t actor[ENCODE_SIZE];
    encode_planes_raw(&pos, ENCODE_VIEW_ACTOR, actor);
    cr_expect(!memcmp(p, actor, sizeof p));
    /* the values in [0, 1]: the pool's 45 of 51 */
    float f[ENCODE_SIZE];
    encode_planes(&pos, ENCODE_VIEW_WHITE, f);
    cr_expect_eq(f[PLANE_POOL * ENCODE_CELLS + 59], 45.0f / 51.0f);
    cr_expect_eq(f[PLANE_POOL * ENCODE_CELLS + 0], 0.0f); /* a1: not a point */
    cr_expect_eq(f[PLANE_OWN_RINGS * ENCODE_CELLS + 59], 1.0f);
}

Test(planes, black_sees_the_colours_swapped)
{
    Position pos = parse(ROW_SIX);
    uint8_t p[ENCODE_SIZE];
    encode_planes_raw(&pos, ENCODE_VIEW_BLACK, p);
    expect_cells(p, PLANE_OWN_RINGS, B_RINGS, 5);
    expect_cells(p, PLANE_OTHER_RINGS, W_RINGS, 5);
    expect_cells(p, PLANE_OWN_MARKERS, NULL, 0);
    expect_cells(p, PLANE_OTHER_MARKERS, W_MARKERS, 6);
    expect_all(p, PLANE_BLACK_ACTS, 0); /* absolute: White acts */
    expect_all(p, PLANE_STATE_P + STATE_R, 1);
}

Test(planes, black_to_move_after_a_row_in_the_actors_view)
{
    Position pos = parse(AFTER_ROW);
    uint8_t p[ENCODE_SIZE];
    encode_planes_raw(&pos, ENCODE_VIEW_ACTOR, p);
    static const int w_rings[] = {1, 11, 59, 117}; /* a2 b1 f5 k8: k7 was taken off */
    static const int w_marker[] = {45};            /* e2 */
    expect_cells(p, PLANE_OWN_RINGS, B_RINGS, 5);
    expect_cells(p, PLANE_OTHER_RINGS, w_rings, 4);
    expect_cells(p, PLANE_OWN_MARKERS, NULL, 0);
    expect_cells(p, PLANE_OTHER_MARKERS, w_marker, 1);
    expect_all(p, PLANE_BLACK_ACTS, 1);
    for (int s = STATE_P; s <= STATE_END; s++) expect_all(p, PLANE_STATE_P + s, s == STATE_M);
    expect_all(p, PLANE_OWN_REMOVED, 0);   /* Black's */
    expect_all(p, PLANE_OTHER_REMOVED, 1); /* White's one ring */
    expect_all(p, PLANE_POOL, 50);
    float f[ENCODE_SIZE];
    encode_planes(&pos, ENCODE_VIEW_ACTOR, f);
    cr_expect_eq(f[PLANE_OTHER_REMOVED * ENCODE_CELLS + 59], 1.0f / 3.0f);
}

Test(planes, the_end_and_blitz)
{
    /* docs/notation.md §2.2: White has taken off three rings; blitz: a row ended it */
    Position pos = parse("W2B/W6/8/9/2w7/3b5/10/9/8/6B/2B1 w - standard");
    uint8_t p[ENCODE_SIZE];
    encode_planes_raw(&pos, ENCODE_VIEW_WHITE, p);
    expect_all(p, PLANE_OVER, 1);
    for (int s = STATE_P; s < STATE_END; s++) expect_all(p, PLANE_STATE_P + s, 0);
    expect_all(p, PLANE_OWN_REMOVED, 3);
    pos = parse("W2B/W5B/8/9/wwwww5/3W5/10/9/8/6B/WWBB b - blitz");
    encode_planes_raw(&pos, ENCODE_VIEW_WHITE, p);
    expect_all(p, PLANE_BLITZ, 1);
    expect_all(p, PLANE_BLACK_ACTS, 1);
    expect_all(p, PLANE_OVER, 1);
}

/* ---- action indices ------------------------------------------------------ */

static int index_of(const char *text)
{
    Action a;
    char err[ERR_LEN];
    cr_assert_eq(action_parse_form(text, &a, err), 0, "%s: %s", text, err);
    return encode_action(a);
}

Test(actions, indices_worked_out_by_hand)
{
    cr_expect_eq(ENCODE_ACTIONS, 2142);
    /* placements and removals: the n-th point in canonical order */
    cr_expect_eq(index_of("a2"), 0);
    cr_expect_eq(index_of("b1"), 4);
    cr_expect_eq(index_of("k10"), 84);
    cr_expect_eq(index_of("xa2"), 2057);
    cr_expect_eq(index_of("xk10"), 2141);
    cr_expect_eq(index_of("pass"), 1933);
    /* moves: a2's 18 destinations in canonical order are a3 a4 a5 b2 b3
     * c2 c4 d2 d5 e2 e6 f2 f7 g2 g8 h9 i10 j11; a3's begin with a2 */
    cr_expect_eq(index_of("a2-a3"), 85);
    cr_expect_eq(index_of("a2-b2"), 88);
    cr_expect_eq(index_of("a2-j11"), 102);
    cr_expect_eq(index_of("a3-a2"), 103);
    cr_expect_eq(index_of("k10-k9"), 1932); /* the last: k10 to its highest destination */
    /* rows: a2's are a2-e2 and a2-e6; 62 rows start before e2 (8 at
     * column a, 15 at b, 18 at c, 19 at d, 2 at e1); e2's are e2-e6 and
     * e2-i6, e3's first e3-e7; the last starts at j7 */
    cr_expect_eq(index_of("xa2-e2"), 1934);
    cr_expect_eq(index_of("xa2-e6"), 1935);
    cr_expect_eq(index_of("xe2-e6"), 1934 + 62);
    cr_expect_eq(index_of("xe2-i6"), 1934 + 63);
    cr_expect_eq(index_of("xe3-e7"), 1934 + 64);
    cr_expect_eq(index_of("xj7-j11"), 2056);
}

Test(actions, mask_of_the_hand_worked_position)
{
    Position pos = parse(ROW_SIX);
    uint8_t mask[ENCODE_ACTIONS];
    cr_assert_eq(encode_mask(&pos, mask), 2);
    for (int i = 0; i < ENCODE_ACTIONS; i++) cr_expect_eq(mask[i], i == 1996 || i == 1998, "mask[%d]", i);
    int legal[MAX_ACTIONS];
    cr_assert_eq(encode_legal(&pos, legal), 2);
    cr_expect_eq(legal[0], 1996);
    cr_expect_eq(legal[1], 1998);
    /* the start: every placement, nothing else */
    pos = parse(START);
    cr_assert_eq(encode_mask(&pos, mask), 85);
    for (int i = 0; i < ENCODE_ACTIONS; i++) cr_expect_eq(mask[i], i < 85, "mask[%d]", i);
}

Test(actions, refuses_what_is_not_an_action)
{
    cr_expect_eq(encode_action(ACTION_NONE), -1);
    cr_expect_eq(encode_action(ACTION_MAKE(ACT_PLACE, 0, 0)), -1);                         /* a1 */
    cr_expect_eq(encode_action(ACTION_MAKE(ACT_MOVE, 1, 1)), -1);                          /* a2-a2 */
    cr_expect_eq(encode_action(ACTION_MAKE(ACT_MOVE, 1, point_make(2, 3))), -1);          /* a2-c3: no line */
    cr_expect_eq(encode_action(ACTION_MAKE(ACT_ROW, point_make(4, 6), point_make(4, 2))), -1); /* e6 to e2 */
    cr_expect_eq(encode_action(ACTION_MAKE(ACT_ROW, point_make(4, 2), point_make(4, 5))), -1); /* four points */
    cr_expect_eq(encode_action(ACTION_MAKE(ACT_PASS, 1, 0)), -1);
    cr_expect_eq(encode_action(ACTION_MAKE(6, 1, 0)), -1);
    cr_expect_eq(encode_action(ACTION_MAKE(ACT_PLACE, 1, 0) | (1u << 20)), -1);
    cr_expect_eq(encode_action_at(-1), ACTION_NONE);
    cr_expect_eq(encode_action_at(ENCODE_ACTIONS), ACTION_NONE);
}

/* Every index to its action, its text and back; each kind's indices in
 * canonical order (by first point, then second point). */
Test(actions, every_index_and_back)
{
    static const int first[] = {ENCODE_PLACE0, ENCODE_MOVE0, ENCODE_PASS, ENCODE_ROW0, ENCODE_RING0, ENCODE_ACTIONS};
    static const int kinds[] = {ACT_PLACE, ACT_MOVE, ACT_PASS, ACT_ROW, ACT_RING};
    for (int k = 0; k < 5; k++)
        for (int i = first[k]; i < first[k + 1]; i++) {
            Action a = encode_action_at(i), back;
            char text[ACTION_MAX_LEN], err[ERR_LEN];
            cr_assert_neq(a, ACTION_NONE, "index %d", i);
            cr_assert_eq(ACTION_KIND(a), kinds[k], "index %d: kind %d", i, ACTION_KIND(a));
            cr_assert_eq(encode_action(a), i, "index %d comes back as %d", i, encode_action(a));
            action_format(a, text);
            cr_assert_eq(action_parse_form(text, &back, err), 0, "%s: %s", text, err);
            cr_assert_eq(back, a, "%s", text);
            if (i > first[k]) {
                Action prev = encode_action_at(i - 1);
                int pf = ACTION_FROM(prev), pt = ACTION_TO(prev), f = ACTION_FROM(a), t = ACTION_TO(a);
                cr_assert(pf < f || (pf == f && pt < t), "index %d (%s) not after %d in canonical order", i, text,
                          i - 1);
            }
        }
}

/* The legal actions of pos: each to a unique index and back; the mask
 * and the sorted indices are the canonical list. */
static void check_legal(const Position *pos, const char *where)
{
    Action list[MAX_ACTIONS];
    int n = movegen_all(pos, list), legal[MAX_ACTIONS];
    movegen_sort(list, n);
    uint8_t mask[ENCODE_ACTIONS];
    cr_assert_eq(encode_mask(pos, mask), n, "%s", where);
    cr_assert_eq(encode_legal(pos, legal), n, "%s", where);
    int set = 0;
    for (int i = 0; i < ENCODE_ACTIONS; i++) set += mask[i];
    cr_assert_eq(set, n, "%s: %d indices in the mask for %d actions", where, set, n);
    for (int k = 0; k < n; k++) {
        char text[ACTION_MAX_LEN];
        int i = encode_action(list[k]);
        cr_assert(i >= 0 && i < ENCODE_ACTIONS, "%s: %s has no index", where, action_format(list[k], text));
        cr_assert(mask[i], "%s: %s not in the mask", where, action_format(list[k], text));
        cr_assert_eq(legal[k], i, "%s: legal index %d is %d, expected %d (%s)", where, k, legal[k], i,
                     action_format(list[k], text));
        cr_assert_eq(encode_action_at(i), list[k], "%s: index %d is not %s", where, i, action_format(list[k], text));
    }
}

Test(actions, the_rules_cases_positions)
{
    static const char *const files[] = {"placement", "moves", "rows", "end", "blitz"};
    int positions = 0;
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        char path[512], line[1024];
        snprintf(path, sizeof path, "%s/%s.txt", YINSH_TEST_DATA, files[f]);
        FILE *in = fopen(path, "r");
        cr_assert(in, "cannot read %s", path);
        for (int no = 1; fgets(line, sizeof line, in); no++) {
            const char *ypn = !strncmp(line, "ypn ", 4) ? line + 4 : !strncmp(line, "expect ", 7) ? line + 7 : NULL;
            if (!ypn) continue;
            line[strcspn(line, "\n")] = '\0';
            Position pos;
            char err[ERR_LEN], where[600];
            cr_assert_eq(ypn_parse(ypn, &pos, err), 0, "%s:%d: %s", path, no, err);
            snprintf(where, sizeof where, "%s:%d", path, no);
            check_legal(&pos, where);
            positions++;
        }
        fclose(in);
    }
    cr_expect_gt(positions, 100, "only %d positions read from tests/data", positions);
    Position pos = parse(MOVES);
    check_legal(&pos, MOVES);
}

Test(actions, random_games)
{
    for (uint64_t g = 0; g < 200; g++) {
        Rng rng;
        rng_seed(&rng, 7, g);
        Position pos;
        pos_start(&pos, g % 2 ? VARIANT_BLITZ : VARIANT_STANDARD);
        for (int ply = 0; ply < GAME_MAX_ACTIONS; ply++) {
            char where[64];
            snprintf(where, sizeof where, "game %d ply %d", (int)g, ply);
            check_legal(&pos, where);
            Action a = movegen_random(&pos, &rng);
            if (a == ACTION_NONE) break;
            Undo u;
            pos_make(&pos, a, &u);
        }
    }
}
