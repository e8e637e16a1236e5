/* The board-shaped action layout and the 12 symmetries (engine/encode,
 * docs/python.md "The board-shaped layout and the symmetries"): the
 * layout a bijection between the action indices and the slots that have
 * one, slots worked out by hand; the symmetries a group (identity,
 * inverses, closed under composition, eval's numbering); the layout
 * equivariant; and in 1,000 positions of random games, in every
 * symmetry, the image of the position has as legal actions exactly the
 * images of its legal actions, and as planes its planes moved cell by
 * cell. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "engine/encode/encode.h"
#include "engine/geometry.h"
#include "engine/movegen.h"
#include "engine/base/rng.h"
#include "eval/nnue_train.h"

static Point pt(const char *name) { return point_make(name[0] - 'a', atoi(name + 1)); }

Test(layout, every_index_has_one_slot_and_back)
{
    int used = 0;
    for (int i = 0; i < ENCODE_ACTIONS; i++) {
        int ch = encode_layout_channel(i), cell = encode_layout_cell(i);
        cr_assert(ch >= 0 && ch < ENCODE_CHANNELS && cell >= 0 && cell < ENCODE_CELLS, "index %d: slot (%d, %d)", i,
                  ch, cell);
        cr_assert(bb_test(GEO->valid, cell), "index %d: cell %d is not a point", i, cell);
        cr_assert_eq(encode_layout_index(ch, cell), i, "index %d: its slot (%d, %d) gives %d", i, ch, cell,
                     encode_layout_index(ch, cell));
    }
    for (int ch = 0; ch < ENCODE_CHANNELS; ch++)
        for (int cell = 0; cell < ENCODE_CELLS; cell++) {
            int i = encode_layout_index(ch, cell);
            if (i < 0) continue;
            used++;
            cr_assert(encode_layout_channel(i) == ch && encode_layout_cell(i) == cell, "slot (%d, %d)", ch, cell);
        }
    cr_expect_eq(used, ENCODE_ACTIONS);
    cr_expect_eq(encode_layout_index(-1, 0), -1);
    cr_expect_eq(encode_layout_index(ENCODE_CHANNELS, 0), -1);
    cr_expect_eq(encode_layout_index(0, ENCODE_CELLS), -1);
    cr_expect_eq(encode_layout_index(0, 0), -1, "a1 is no point: no placement there");
    cr_expect_eq(ENCODE_CHANNELS, 60);
}

/* Each kind's slots, worked out by hand from the table of encode.h. */
Test(layout, slots_worked_out_by_hand)
{
    static const struct {
        int kind;
        const char *from, *to;
        int channel;
        const char *cell;
    } cases[] = {
        {ACT_PLACE, "a2", NULL, 0, "a2"},
        {ACT_PLACE, "f6", NULL, 0, "f6"},
        {ACT_MOVE, "e5", "e8", 1 + 0 * 9 + 2, "e5"},  /* direction 0 (row up), 3 points */
        {ACT_MOVE, "e5", "f5", 1 + 1 * 9 + 0, "e5"},  /* direction 1 (column up), 1 */
        {ACT_MOVE, "e5", "g7", 1 + 2 * 9 + 1, "e5"},  /* direction 2 (both up), 2 */
        {ACT_MOVE, "e8", "e5", 1 + 3 * 9 + 2, "e8"},  /* direction 3, 3 */
        {ACT_MOVE, "k7", "b7", 1 + 4 * 9 + 8, "k7"},   /* direction 4, 9: the longest */
        {ACT_MOVE, "f6", "e5", 1 + 5 * 9 + 0, "f6"},  /* direction 5, 1 */
        {ACT_ROW, "e2", "e6", 56, "e4"},
        {ACT_ROW, "b2", "f2", 57, "d2"},
        {ACT_ROW, "c3", "g7", 58, "e5"},
        {ACT_RING, "k7", NULL, 59, "k7"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        Point to = cases[k].to ? pt(cases[k].to) : 0;
        int i = encode_action(ACTION_MAKE(cases[k].kind, pt(cases[k].from), to));
        cr_assert(i >= 0, "case %zu: no action", k);
        cr_expect_eq(encode_layout_channel(i), cases[k].channel, "case %zu: channel %d, expected %d", k,
                     encode_layout_channel(i), cases[k].channel);
        cr_expect_eq(encode_layout_cell(i), pt(cases[k].cell), "case %zu: cell %d, expected %d", k,
                     encode_layout_cell(i), pt(cases[k].cell));
    }
    cr_expect_eq(encode_layout_channel(ENCODE_PASS), CHANNEL_PASS);
    cr_expect_eq(encode_layout_cell(ENCODE_PASS), pt("f6"));
}

/* Symmetry s maps each of cells, channels and actions one to one. */
static void expect_permutation(int s)
{
    bool seen_cell[ENCODE_CELLS] = {0}, seen_ch[ENCODE_CHANNELS] = {0}, seen_a[ENCODE_ACTIONS] = {0};
    for (int c = 0; c < ENCODE_CELLS; c++) {
        int to = encode_sym_cell(s, c);
        cr_assert(!seen_cell[to], "symmetry %d: two cells to %d", s, to);
        seen_cell[to] = true;
        cr_assert_eq(bb_test(GEO->valid, to), bb_test(GEO->valid, c), "symmetry %d: cell %d on or off the board", s, c);
        if (!bb_test(GEO->valid, c)) cr_assert_eq(to, c, "symmetry %d moves cell %d off the board", s, c);
    }
    for (int ch = 0; ch < ENCODE_CHANNELS; ch++) {
        int to = encode_sym_channel(s, ch);
        cr_assert(to >= 0 && to < ENCODE_CHANNELS && !seen_ch[to], "symmetry %d: channel %d", s, ch);
        seen_ch[to] = true;
    }
    for (int i = 0; i < ENCODE_ACTIONS; i++) {
        int to = encode_sym_action(s, i);
        cr_assert(to >= 0 && to < ENCODE_ACTIONS && !seen_a[to], "symmetry %d: action %d", s, i);
        seen_a[to] = true;
    }
}

Test(symmetries, a_group_of_twelve)
{
    for (int s = 0; s < ENCODE_SYMMETRIES; s++) expect_permutation(s);
    /* the identity */
    for (int c = 0; c < ENCODE_CELLS; c++) cr_assert_eq(encode_sym_cell(0, c), c);
    for (int ch = 0; ch < ENCODE_CHANNELS; ch++) cr_assert_eq(encode_sym_channel(0, ch), ch);
    for (int i = 0; i < ENCODE_ACTIONS; i++) cr_assert_eq(encode_sym_action(0, i), i);
    /* the twelve differ, and each has its inverse */
    for (int s = 0; s < ENCODE_SYMMETRIES; s++) {
        for (int u = 0; u < s; u++) {
            bool same = true;
            for (int c = 0; c < ENCODE_CELLS; c++) same &= encode_sym_cell(s, c) == encode_sym_cell(u, c);
            cr_assert(!same, "symmetries %d and %d move every cell alike", u, s);
        }
        int v = encode_sym_inverse(s);
        cr_assert(v >= 0 && v < ENCODE_SYMMETRIES);
        cr_assert_eq(encode_sym_inverse(v), s);
        for (int c = 0; c < ENCODE_CELLS; c++) cr_assert_eq(encode_sym_cell(v, encode_sym_cell(s, c)), c);
        for (int ch = 0; ch < ENCODE_CHANNELS; ch++) cr_assert_eq(encode_sym_channel(v, encode_sym_channel(s, ch)), ch);
        for (int i = 0; i < ENCODE_ACTIONS; i++) cr_assert_eq(encode_sym_action(v, encode_sym_action(s, i)), i);
    }
    /* closed under composition: a after b is one of the twelve, u, in
     * cells, channels and actions alike */
    for (int a = 0; a < ENCODE_SYMMETRIES; a++)
        for (int b = 0; b < ENCODE_SYMMETRIES; b++) {
            int u = -1;
            for (int k = 0; k < ENCODE_SYMMETRIES && u < 0; k++) {
                bool same = true;
                for (int c = 0; c < ENCODE_CELLS; c++) same &= encode_sym_cell(a, encode_sym_cell(b, c)) == encode_sym_cell(k, c);
                if (same) u = k;
            }
            cr_assert(u >= 0, "symmetry %d after %d is none of the twelve", a, b);
            for (int ch = 0; ch < ENCODE_CHANNELS; ch++)
                cr_assert_eq(encode_sym_channel(a, encode_sym_channel(b, ch)), encode_sym_channel(u, ch));
            for (int i = 0; i < ENCODE_ACTIONS; i++)
                cr_assert_eq(encode_sym_action(a, encode_sym_action(b, i)), encode_sym_action(u, i));
        }
    /* the rotations: 1 is the rotation by 60 degrees, k its k-th power;
     * 6..11 reflections, each its own inverse */
    for (int k = 1; k < 6; k++)
        for (int c = 0; c < ENCODE_CELLS; c++) cr_assert_eq(encode_sym_cell(1, encode_sym_cell(k - 1, c)), encode_sym_cell(k, c));
    for (int s = 6; s < ENCODE_SYMMETRIES; s++) cr_assert_eq(encode_sym_inverse(s), s);
    /* the pass, and the centre, stay where they are */
    for (int s = 0; s < ENCODE_SYMMETRIES; s++) {
        cr_assert_eq(encode_sym_action(s, ENCODE_PASS), ENCODE_PASS);
        cr_assert_eq(encode_sym_cell(s, point_make(5, 6)), point_make(5, 6));
    }
}

Test(symmetries, numbered_as_the_nets_training)
{
    uint8_t map[NNUE_SYMMETRIES][SQUARE_NB];
    cr_assert_eq(NNUE_SYMMETRIES, ENCODE_SYMMETRIES);
    nnue_train_symmetries(map);
    for (int s = 0; s < ENCODE_SYMMETRIES; s++)
        for (int c = 0; c < ENCODE_CELLS; c++) cr_assert_eq(encode_sym_cell(s, c), map[s][c], "symmetry %d cell %d", s, c);
}

/* The slot of an action's image is its slot's image: a policy over the
 * layout turns with the board by moving cells and channels. */
Test(symmetries, the_layout_turns_with_the_board)
{
    for (int s = 0; s < ENCODE_SYMMETRIES; s++)
        for (int i = 0; i < ENCODE_ACTIONS; i++) {
            int j = encode_sym_action(s, i);
            cr_assert_eq(encode_layout_channel(j), encode_sym_channel(s, encode_layout_channel(i)),
                         "symmetry %d, action %d", s, i);
            cr_assert_eq(encode_layout_cell(j), encode_sym_cell(s, encode_layout_cell(i)), "symmetry %d, action %d", s, i);
        }
    /* a move keeps its distance; a placement, a ring, a row stay in kind */
    for (int s = 0; s < ENCODE_SYMMETRIES; s++) {
        cr_assert_eq(encode_sym_channel(s, CHANNEL_PLACE), CHANNEL_PLACE);
        cr_assert_eq(encode_sym_channel(s, CHANNEL_RING), CHANNEL_RING);
        for (int ch = CHANNEL_MOVE0; ch < CHANNEL_PASS; ch++)
            cr_assert_eq((encode_sym_channel(s, ch) - CHANNEL_MOVE0) % ENCODE_MOVE_SPAN, (ch - CHANNEL_MOVE0) % ENCODE_MOVE_SPAN);
        for (int ch = CHANNEL_ROW0; ch < CHANNEL_RING; ch++)
            cr_assert(encode_sym_channel(s, ch) >= CHANNEL_ROW0 && encode_sym_channel(s, ch) < CHANNEL_RING);
    }
}

/* In every symmetry s the image of pos is a position of the rules whose
 * legal actions are the images of pos's, and whose planes (every view)
 * are pos's moved cell by cell. */
static void check_position(const Position *pos, const char *where)
{
    uint8_t mask[ENCODE_ACTIONS], image_mask[ENCODE_ACTIONS], mapped[ENCODE_ACTIONS];
    uint8_t planes[ENCODE_SIZE], image_planes[ENCODE_SIZE];
    int n = encode_mask(pos, mask);
    for (int s = 0; s < ENCODE_SYMMETRIES; s++) {
        Position image;
        char err[ERR_LEN];
        encode_sym_position(pos, s, &image);
        cr_assert_eq(pos_check(&image, err), 0, "%s, symmetry %d: %s", where, s, err);
        cr_assert_eq(encode_mask(&image, image_mask), n, "%s, symmetry %d: %d legal actions, expected %d", where, s,
                     encode_mask(&image, image_mask), n);
        memset(mapped, 0, sizeof mapped);
        for (int i = 0; i < ENCODE_ACTIONS; i++)
            if (mask[i]) mapped[encode_sym_action(s, i)] = 1;
        for (int i = 0; i < ENCODE_ACTIONS; i++)
            cr_assert_eq(image_mask[i], mapped[i], "%s, symmetry %d: action %d is %s in the image", where, s, i,
                         image_mask[i] ? "legal" : "not legal");
        int r1, w1, r2, w2;
        cr_assert_eq(pos_outcome(pos, &r1, &w1), pos_outcome(&image, &r2, &w2), "%s, symmetry %d: the end", where, s);
        for (int view = 0; view < ENCODE_VIEW_NB; view++) {
            encode_planes_raw(pos, view, planes);
            encode_planes_raw(&image, view, image_planes);
            for (int p = 0; p < ENCODE_PLANES; p++)
                for (int c = 0; c < ENCODE_CELLS; c++)
                    cr_assert_eq(image_planes[p * ENCODE_CELLS + encode_sym_cell(s, c)], planes[p * ENCODE_CELLS + c],
                                 "%s, symmetry %d, view %d: plane %d cell %d", where, s, view, p, c);
        }
    }
}

/* The bar: 1,000 positions, every fifth of random games (both
 * variants), with every state among them. */
Test(symmetries, legal_sets_onto_legal_sets_in_1000_positions, .timeout = 120)
{
    int checked = 0, states[STATE_NB] = {0};
    for (uint64_t g = 0; checked < 1000; g++) {
        Rng rng;
        rng_seed(&rng, 34, g);
        Position pos;
        pos_start(&pos, g % 4 == 3 ? VARIANT_BLITZ : VARIANT_STANDARD);
        for (int ply = 0; ply < GAME_MAX_ACTIONS && checked < 1000; ply++) {
            /* every position with a row or a ring to take off (rarer), or
             * at the end; every fifth of the others */
            if (pos.state > STATE_M || ply % 5 == (int)(g % 5)) {
                char where[64];
                snprintf(where, sizeof where, "game %d ply %d", (int)g, ply);
                check_position(&pos, where);
                states[pos.state]++;
                checked++;
            }
            Action a = movegen_random(&pos, &rng);
            if (a == ACTION_NONE) break;
            Undo u;
            pos_make(&pos, a, &u);
        }
    }
    for (int st = 0; st < STATE_NB; st++)
        cr_log_info("state %d: %d positions", st, states[st]);
    cr_expect_gt(states[STATE_P], 0);
    cr_expect_gt(states[STATE_M], 0);
    cr_expect_gt(states[STATE_R] + states[STATE_r], 0, "no position with a row to take off");
    cr_expect_gt(states[STATE_X] + states[STATE_x], 0, "no position with a ring to take off");
}
