#define _GNU_SOURCE /* nftw, in test_proc.h */
/* The net's inputs and accumulators (eval/nnue.h): the incremental
 * accumulators equal those from scratch in every position of 300 seeded
 * random games and along random make/unmake walks (a stack by ply, unmake
 * a pop), with a second layer, a linear part and a pattern part, sums that
 * wrap included, the AVX2 path against the portable one; the leaf's
 * features against features_int; the inputs of the start; the twelve
 * symmetries keeping the rules; the line patterns' windows and classes
 * (eval/patterns.h). Never a speed. */
#include <math.h>
#include "engine/movegen.h"
#include "engine/randgame.h"
#include "eval/evaluation.h"
#include "eval/nnue.h"
#include "eval/nnue_train.h"
#include "eval/patterns.h"
#include "tests/nnue_helpers.h"

/* The net's random_net with a linear part (the weights lw, or seeded
 * random ones when lw is NULL) and, with patterns, a pattern part of
 * seeded random weights (feature set 3; else 2). */
static Nnue *random_linear_net(uint64_t seed, int hidden, const int32_t *lw_given, bool patterns)
{
    uint8_t *b;
    size_t len;
    Nnue *plain = random_net(seed, hidden, 0, NNUE_QW, false, &b, &len);
    size_t np = nnue_float_params(plain, NULL);
    float *fp = gc(malloc(np * sizeof *fp));
    nnue_float_params(plain, fp);
    size_t h = (size_t)hidden;
    int16_t *w1 = gc(calloc((size_t)NNUE_FEATURES * h, 2)), *b1 = gc(malloc(h * 2)), *w2 = gc(malloc(2 * h * 2));
    for (int row = 0; row < NNUE_ROWS; row++) {
        int f = nnue_row_feature(row);
        if (f >= 0)
            for (size_t j = 0; j < h; j++) w1[(size_t)f * h + j] = (int16_t)lround(fp[(size_t)row * h + j] * NNUE_QA);
    }
    for (size_t j = 0; j < h; j++) b1[j] = (int16_t)lround(fp[(size_t)NNUE_ROWS * h + j] * NNUE_QA);
    for (size_t k = 0; k < 2 * h; k++) w2[k] = (int16_t)lround(fp[(size_t)NNUE_ROWS * h + h + k] * NNUE_QW);
    int32_t b2 = (int32_t)lround(fp[(size_t)NNUE_ROWS * h + 3 * h] * NNUE_QA * NNUE_QW);
    nnue_free(plain);
    Rng rng;
    rng_stream(&rng, seed, 78);
    int32_t lw[FEAT_NB], *pw = gc(malloc(PATTERN_NB * sizeof *pw));
    for (int k = 0; k < FEAT_NB; k++) lw[k] = lw_given ? lw_given[k] : (int32_t)rng_below(&rng, 40001) - 20000;
    for (int k = 0; k < PATTERN_NB; k++) pw[k] = (int32_t)rng_below(&rng, 200001) - 100000;
    NnueParams p = {.hidden = hidden, .qa = NNUE_QA, .qw = NNUE_QW, .w1 = w1, .b1 = b1, .w2 = w2, .b2 = &b2,
                    .lw = lw, .pw = patterns ? pw : NULL, .description = "a random pattern net of the tests"};
    uint8_t *bytes;
    char err[ERR_LEN];
    cr_assert_eq(nnue_encode(&p, &bytes, &len, err), 0, "%s", err);
    Nnue *net;
    cr_assert_eq(nnue_decode(&net, bytes, len, "random patterns", err), 0, "%s", err);
    free(bytes);
    return net;
}

static Nnue *random_pattern_net(uint64_t seed, int hidden) { return random_linear_net(seed, hidden, NULL, true); }

static bool acc_equal(const Nnue *net, const NnueAcc *a, const NnueAcc *b)
{
    int h = nnue_hidden(net);
    if (nnue_has_linear(net) && (memcmp(a->code, b->code, sizeof a->code) || memcmp(a->psum, b->psum, sizeof a->psum)))
        return false;
    return !memcmp(a->v[WHITE], b->v[WHITE], (size_t)h * 2) && !memcmp(a->v[BLACK], b->v[BLACK], (size_t)h * 2);
}

/* The accumulator of pos from scratch on path p. */
static NnueAcc fresh(const Nnue *net, NnuePath p, const Position *pos)
{
    NnueAcc a;
    nnue_refresh_path(net, p, pos, &a);
    return a;
}

static NnuePath other_path(void)
{
    return nnue_path_available(NNUE_PATH_AVX2) ? NNUE_PATH_AVX2 : NNUE_PATH_PORTABLE;
}

/* Every position of 300 random games (standard and blitz), both paths:
 * the child's accumulator made from the parent's equals the one from
 * scratch, and both paths agree on each, and on the output. */
static void incremental_over_games(Nnue *net)
{
    NnuePath vec = other_path();
    static NnueAcc stack[GAME_MAX_ACTIONS + 1];
    long positions = 0;
    for (int g = 0; g < 300; g++) {
        Rng rng;
        rng_stream(&rng, 2024, (uint64_t)g);
        Position pos;
        pos_start(&pos, g % 3 == 2 ? VARIANT_BLITZ : VARIANT_STANDARD);
        stack[0] = fresh(net, NNUE_PATH_PORTABLE, &pos);
        for (int ply = 0; ply < GAME_MAX_ACTIONS; ply++) {
            Action a = movegen_random(&pos, &rng);
            if (a == ACTION_NONE) break;
            Undo u;
            pos_make(&pos, a, &u);
            NnueDelta d;
            nnue_delta(&pos, a, &u, &d);
            for (int c = 0; c < COLOUR_NB; c++)
                cr_assert(d.nadd[c] <= 23 && d.nsub[c] <= 23, "game %d ply %d: %d and %d rows", g, ply, d.nadd[c],
                          d.nsub[c]);
            /* as many rows in either perspective: the kernels pass over both at once */
            cr_assert(d.nadd[WHITE] == d.nadd[BLACK] && d.nsub[WHITE] == d.nsub[BLACK], "game %d ply %d", g, ply);
            NnueAcc v;
            nnue_apply_path(net, NNUE_PATH_PORTABLE, &stack[ply], &d, &stack[ply + 1]);
            nnue_apply_path(net, vec, &stack[ply], &d, &v);
            NnueAcc s = fresh(net, NNUE_PATH_PORTABLE, &pos), sv = fresh(net, vec, &pos);
            cr_assert(acc_equal(net, &stack[ply + 1], &s), "game %d ply %d: incremental != from scratch", g, ply);
            cr_assert(acc_equal(net, &v, &s), "game %d ply %d: the vector path's update differs", g, ply);
            cr_assert(acc_equal(net, &sv, &s), "game %d ply %d: the vector path's refresh differs", g, ply);
            int32_t o = nnue_output_path(net, NNUE_PATH_PORTABLE, &s, pos.actor);
            cr_assert_eq(nnue_output_path(net, vec, &s, pos.actor), o, "game %d ply %d: outputs differ", g, ply);
            cr_assert_eq(nnue_parts(net, &stack[ply + 1], &pos), nnue_linear(net, &pos), "game %d ply %d", g, ply);
            cr_assert_eq(nnue_evaluate(net, &pos), o + nnue_linear(net, &pos));
            positions++;
        }
    }
    cr_assert_gt(positions, 15000);
}

Test(nnue, incremental_equals_from_scratch_in_300_random_games)
{
    Nnue *net = random_net(1, 64, 0, NNUE_QW, false, NULL, NULL);
    incremental_over_games(net);
    nnue_free(net);
}

Test(nnue, incremental_equals_from_scratch_with_a_second_layer_and_wide)
{
    Nnue *net = random_net(2, 144, 9, 48, false, NULL, NULL); /* 144: the 64-lane blocks and a 16-lane tail; 9: eight rows at once and one alone; 48: a division */
    incremental_over_games(net);
    nnue_free(net);
}

Test(nnue, incremental_equals_from_scratch_with_a_pattern_part)
{
    Nnue *net = random_pattern_net(5, 32);
    cr_assert(nnue_has_patterns(net));
    incremental_over_games(net);
    nnue_free(net);
}

Test(nnue, sums_that_wrap_still_agree)
{
    Nnue *net = random_net(3, 32, 0, NNUE_QW, true, NULL, NULL);
    incremental_over_games(net);
    nnue_free(net);
}

/* Random walks of make and unmake: the stack's top always equals the
 * accumulator from scratch of the position reached, and an unmake gives
 * back the position of the ply below (whose accumulator is kept). */
static void walks(Nnue *net)
{
    enum { DEPTH = 40 };
    NnueAcc stack[DEPTH + 1];
    Action acts[DEPTH];
    Undo undos[DEPTH];
    for (int w = 0; w < 200; w++) {
        Rng rng;
        rng_stream(&rng, 99, (uint64_t)w);
        Position pos;
        pos_start(&pos, w % 2 ? VARIANT_BLITZ : VARIANT_STANDARD);
        randgame_play(&pos, &rng, (int)rng_below(&rng, 60)); /* a start somewhere in a game */
        Position root = pos;
        nnue_refresh(net, &pos, &stack[0]);
        int ply = 0;
        for (int step = 0; step < 400; step++) {
            Action a = ply < DEPTH ? movegen_random(&pos, &rng) : ACTION_NONE;
            if (ply > 0 && (a == ACTION_NONE || rng_below(&rng, 3) == 0)) {
                ply--;
                pos_unmake(&pos, acts[ply], &undos[ply]);
            } else if (a != ACTION_NONE) {
                acts[ply] = a;
                pos_make(&pos, a, &undos[ply]);
                nnue_make(net, &stack[ply], &stack[ply + 1], &pos, a, &undos[ply]);
                ply++;
            } else {
                break;
            }
            NnueAcc s;
            nnue_refresh(net, &pos, &s);
            cr_assert(acc_equal(net, &stack[ply], &s), "walk %d step %d ply %d: the stack differs", w, step, ply);
            cr_assert_eq(nnue_parts(net, &stack[ply], &pos), nnue_linear(net, &pos), "walk %d step %d ply %d", w, step, ply);
        }
        while (ply > 0) {
            ply--;
            pos_unmake(&pos, acts[ply], &undos[ply]);
        }
        cr_assert(pos_equal(&pos, &root));
    }
}

Test(nnue, make_unmake_walks_keep_the_stack_right)
{
    Nnue *net = random_net(4, 48, 0, NNUE_QW, false, NULL, NULL);
    walks(net);
    nnue_free(net);
    net = random_pattern_net(6, 16);
    walks(net);
    nnue_free(net);
}

Test(nnue, incremental_equals_from_scratch_with_a_linear_part)
{
    Nnue *net = random_linear_net(7, 32, NULL, false);
    cr_assert(nnue_has_linear(net) && !nnue_has_patterns(net));
    incremental_over_games(net);
    walks(net);
    nnue_free(net);
}

/* The features of the linear part at a leaf (nnue_parts: the windows of
 * 3 and 4 kept by the accumulators, NnueAcc.psum, the others computed
 * from the position by features_dot_rest) equal features_int's, one by
 * one: a net whose linear part is that one feature with weight 1 (and a
 * pattern part of random weights, taken away, or none) reads it back,
 * signed for the actor, from the accumulators that make kept along
 * random games and along make/unmake walks. */
static void one_feature_kept(int k, bool patterns)
{
    int32_t lw[FEAT_NB] = {0}, none[FEAT_NB] = {0};
    lw[k] = 1;
    /* with a pattern part, the same part without the feature: the sum of
     * the windows' weights to take away */
    Nnue *net = random_linear_net(8, 16, lw, patterns), *windows = patterns ? random_linear_net(8, 16, none, true) : NULL;
    long checked = 0;
    for (int g = 0; g < 200; g++) {
        Rng rng;
        rng_stream(&rng, 31, (uint64_t)g);
        Position pos;
        pos_start(&pos, g % 2 ? VARIANT_BLITZ : VARIANT_STANDARD);
        enum { DEPTH = 24 };
        NnueAcc stack[DEPTH + 1];
        Action acts[DEPTH];
        Undo undos[DEPTH];
        nnue_refresh(net, &pos, &stack[0]);
        int ply = 0;
        /* forward with random steps back: a walk through a game */
        for (int step = 0; step < 600; step++) {
            Action a = movegen_random(&pos, &rng);
            if (a == ACTION_NONE) break;
            if (ply > 0 && rng_below(&rng, 4) == 0) {
                ply--;
                pos_unmake(&pos, acts[ply], &undos[ply]);
            } else {
                acts[ply] = a;
                pos_make(&pos, a, &undos[ply]);
                nnue_make(net, &stack[ply], &stack[ply + 1], &pos, a, &undos[ply]);
                ply++;
            }
            int f[FEAT_NB];
            features_int(&pos, f);
            int32_t sign = pos.actor == WHITE ? 1 : -1;
            int32_t patterns_sum = windows ? nnue_linear(windows, &pos) : 0;
            cr_assert_eq(sign * (nnue_parts(net, &stack[ply], &pos) - patterns_sum), f[k],
                         "%s: game %d step %d ply %d", FEATURE_NAMES[k], g, step, ply);
            checked++;
            /* a game played out: on from where the walk stands */
            if (ply == DEPTH) {
                stack[0] = stack[ply];
                ply = 0;
            }
        }
    }
    cr_assert_gt(checked, 20000);
    nnue_free(net);
    nnue_free(windows);
}

Test(nnue, the_leaf_features_equal_features_int)
{
    for (int k = 0; k < FEAT_NB; k++) one_feature_kept(k, false);
    one_feature_kept(FEAT_LINES3, true);
}

Test(nnue, inputs_of_the_start_and_their_rows)
{
    Position pos;
    pos_start(&pos, VARIANT_STANDARD);
    uint16_t rows[NNUE_MAX_ACTIVE];
    /* no piece: the pool of 51, state P and who acts */
    cr_assert_eq(nnue_features(&pos, WHITE, rows), 2);
    cr_assert_eq(rows[0], NNUE_ROW_POOL + 51);
    cr_assert_eq(rows[1], NNUE_ROW_STATE + 2 * STATE_P + 0);
    cr_assert_eq(nnue_features(&pos, BLACK, rows), 2);
    cr_assert_eq(rows[1], NNUE_ROW_STATE + 2 * STATE_P + 1);
    /* every file input is some row's, once */
    int seen[NNUE_FEATURES] = {0};
    for (int row = 0; row < NNUE_ROWS; row++) {
        int f = nnue_row_feature(row);
        if (f >= 0) seen[f]++;
    }
    for (int f = 0; f < NNUE_FEATURES; f++) cr_assert_eq(seen[f], 1, "input %d", f);
    /* the colours swap between the perspectives */
    Action a = ACTION_MAKE(ACT_PLACE, GEO->point_of[40], 0);
    Undo u;
    pos_make(&pos, a, &u);
    cr_assert_eq(nnue_features(&pos, WHITE, rows), 3);
    cr_assert_eq(rows[0], NNUE_OWN_RING * SQUARE_NB + GEO->point_of[40]);
    nnue_features(&pos, BLACK, rows);
    cr_assert_eq(rows[0], NNUE_THEIR_RING * SQUARE_NB + GEO->point_of[40]);
}

/* The board's symmetries (the trainer's augmentation): each maps the
 * board onto itself, and the image of a position has the same number of
 * legal actions, the same rows and the same linear features (which count
 * lines, flips and ring moves). Rotating six times is the identity. */
static Bitboard map_set(const uint8_t *map, Bitboard b)
{
    Bitboard r = 0;
    for (; b; b &= b - 1) r |= bb_bit(map[bb_lsb(b)]);
    return r;
}

Test(nnue, the_twelve_symmetries_keep_the_rules)
{
    static uint8_t map[NNUE_SYMMETRIES][SQUARE_NB];
    nnue_train_symmetries(map);
    for (int k = 0; k < NNUE_SYMMETRIES; k++) {
        cr_assert_eq(map_set(map[k], GEO->valid), GEO->valid, "symmetry %d leaves the board", k);
        for (int k2 = 0; k2 < k; k2++) cr_assert(memcmp(map[k], map[k2], SQUARE_NB), "symmetries %d and %d", k, k2);
    }
    for (Point p = 0; p < SQUARE_NB; p++) {
        Point q = p;
        for (int r = 0; r < 6; r++) q = map[1][q];
        cr_assert_eq(q, p);
        cr_assert_eq(map[6][map[6][p]], p, "a reflection twice");
    }
    long checked = 0;
    for (int g = 0; g < 40; g++) {
        Rng rng;
        rng_stream(&rng, 12, (uint64_t)g);
        Position pos;
        pos_start(&pos, g % 2 ? VARIANT_BLITZ : VARIANT_STANDARD);
        for (Action a; (a = movegen_random(&pos, &rng)) != ACTION_NONE;) {
            Undo u;
            pos_make(&pos, a, &u);
            double f[FEAT_NB];
            features_compute(&pos, f);
            for (int k = 1; k < NNUE_SYMMETRIES; k++) {
                Position q = pos;
                for (int c = 0; c < COLOUR_NB; c++) {
                    q.rings[c] = map_set(map[k], pos.rings[c]);
                    q.markers[c] = map_set(map[k], pos.markers[c]);
                }
                q.key = pos_compute_key(&q);
                char why[ERR_LEN];
                cr_assert_eq(pos_check(&q, why), 0, "game %d, symmetry %d: %s", g, k, why);
                cr_assert_eq(movegen_count(&q), movegen_count(&pos), "game %d, symmetry %d: legal actions", g, k);
                double fq[FEAT_NB];
                features_compute(&q, fq);
                cr_assert(!memcmp(f, fq, sizeof f), "game %d, symmetry %d: the features differ", g, k);
                checked++;
            }
        }
    }
    cr_assert_gt(checked, 10000);
}

/* ---- line patterns (eval/patterns.h) ------------------------------------ */

/* The classes of pos's windows for side c the slow way: every point and
 * axis with a window (GEO->row5), its code digit by digit. Sorted. */
static void slow_classes(const Position *pos, int c, uint16_t *out)
{
    int n = 0;
    for (Point p = 0; p < SQUARE_NB; p++)
        for (int a = 0; a < AXIS_NB; a++) {
            if (!GEO->row5[p][a]) continue;
            int code = 0, m = 1;
            for (int k = 0; k < 5; k++, m *= 5) {
                Point q = (Point)(p + k * DIR_STEP[a]);
                int d = bb_test(pos->markers[WHITE], q) ? 1 : bb_test(pos->markers[BLACK], q) ? 2
                      : bb_test(pos->rings[WHITE], q)   ? 3 : bb_test(pos->rings[BLACK], q)   ? 4 : 0;
                code += d * m;
            }
            cr_assert_lt(n, PATTERN_WINDOWS);
            out[n++] = (uint16_t)pattern_class(code, c);
        }
    cr_assert_eq(n, PATTERN_WINDOWS);
}

static int cmp_u16(const void *a, const void *b) { return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b; }

static void sorted_classes(const Position *pos, int c, uint16_t *out)
{
    cr_assert_eq(patterns_classes(pos, c, out), PATTERN_WINDOWS);
    qsort(out, PATTERN_WINDOWS, sizeof *out, cmp_u16);
}

/* 123 windows and 1625 classes; a code and its reverse are one class, and
 * a class's name is its smaller code; in positions of random games the
 * classes are those read point by point, the same in all 12 symmetries of
 * the board, and Black's view is White's of the colour-swapped board. */
Test(nnue_patterns, windows_and_classes_of_the_board)
{
    cr_assert_eq(patterns_windows_found(), PATTERN_WINDOWS);
    cr_assert_eq(patterns_classes_found(), PATTERN_NB);
    for (int code = 0; code < PATTERN_CODES; code++) {
        int r = 0;
        for (int k = 0, x = code; k < 5; k++, x /= 5) r = r * 5 + x % 5;
        int cls = pattern_class(code, WHITE);
        cr_assert_eq(pattern_class(r, WHITE), cls, "code %d and its reverse %d", code, r);
        cr_assert_eq(pattern_code_of(cls), code < r ? code : r);
    }
    for (int cls = 1; cls < PATTERN_NB; cls++) cr_assert_gt(pattern_code_of(cls), pattern_code_of(cls - 1));
    cr_assert_eq(pattern_code_of(PATTERN_NB), -1);
    cr_assert_eq(pattern_class(PATTERN_CODES, WHITE), -1);
    static uint8_t map[NNUE_SYMMETRIES][SQUARE_NB];
    nnue_train_symmetries(map);
    long checked = 0;
    for (int g = 0; g < 12; g++) {
        Rng rng;
        rng_stream(&rng, 31, (uint64_t)g);
        Position pos;
        pos_start(&pos, VARIANT_STANDARD);
        for (Action a; (a = movegen_random(&pos, &rng)) != ACTION_NONE;) {
            Undo u;
            pos_make(&pos, a, &u);
            uint16_t want[PATTERN_WINDOWS], got[PATTERN_WINDOWS], other[PATTERN_WINDOWS];
            for (int c = 0; c < COLOUR_NB; c++) {
                slow_classes(&pos, c, want);
                qsort(want, PATTERN_WINDOWS, sizeof *want, cmp_u16);
                sorted_classes(&pos, c, got);
                cr_assert(!memcmp(want, got, sizeof want), "game %d: the classes of colour %d", g, c);
            }
            for (int k = 1; k < NNUE_SYMMETRIES; k++) {
                Position q = pos;
                for (int c = 0; c < COLOUR_NB; c++) {
                    q.rings[c] = map_set(map[k], pos.rings[c]);
                    q.markers[c] = map_set(map[k], pos.markers[c]);
                }
                sorted_classes(&q, WHITE, other);
                sorted_classes(&pos, WHITE, got);
                cr_assert(!memcmp(other, got, sizeof got), "game %d, symmetry %d", g, k);
            }
            Position sw = pos;
            for (int c = 0; c < COLOUR_NB; c++) {
                sw.rings[c] = pos.rings[c ^ 1];
                sw.markers[c] = pos.markers[c ^ 1];
            }
            sorted_classes(&sw, BLACK, other);
            sorted_classes(&pos, WHITE, got);
            cr_assert(!memcmp(other, got, sizeof got), "game %d: Black's view of the swapped board", g);
            checked++;
        }
    }
    cr_assert_gt(checked, 500);
}
