/* The net (eval/nnue.h), its trainer (eval/nnue_train.h, `yinsh train`)
 * and alpha-beta with a net:
 *   - the incremental accumulators equal those from scratch in every
 *     position of 300 seeded random games, and along random make/unmake
 *     walks (a stack of accumulators by ply, unmake a pop);
 *   - the AVX2 path and the portable one give the same integers;
 *   - a net file's round trip; a damaged, truncated, mismatched or foreign
 *     file refused with its name and what is wrong; the built-in net;
 *   - training: the same data and seed give the same net, on 1 and on 2
 *     threads; a trainer stopped mid-epoch, saved and resumed gives the
 *     net of one never stopped; `yinsh train` twice gives the same file,
 *     and killed (-9) and resumed gives the file of an uninterrupted run;
 *   - ab at a fixed depth with a net: legal and deterministic.
 * Never a speed. */
#define _GNU_SOURCE /* nftw */
#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>
#include "tests/test_proc.h"
#include "engine/encode/encode.h"
#include "engine/movegen.h"
#include "engine/randgame.h"
#include "eval/evaluation.h"
#include "eval/nnue.h"
#include "eval/nnue_train.h"
#include "eval/patterns.h"
#include "study/positions/train_load.h"
#include "selfplay/search/ab.h"
#include "selfplay/search/mcts.h"
#include "selfplay/agents/agent.h"

/* A net of seeded random integers, large enough that the clipping is met
 * on both sides and sums go far from zero; l2 > 0 adds the second layer.
 * qw: the second layer's scale (NNUE_QW, or one not a power of two).
 * big: weights that make the int16 sums wrap (the incremental and the
 * from-scratch sums must still agree). */
static Nnue *random_net(uint64_t seed, int hidden, int l2, int qw, bool big, uint8_t **bytes_out, size_t *len_out)
{
    Rng rng;
    rng_stream(&rng, seed, 77);
    size_t h = (size_t)hidden, n2 = l2 ? (size_t)l2 * 2 * h : 2 * h;
    int16_t *w1 = gc(malloc((size_t)NNUE_FEATURES * h * 2)), *b1 = gc(malloc(h * 2)), *w2 = gc(malloc(n2 * 2));
    int16_t *w3 = gc(malloc(NNUE_MAX_L2 * 2));
    int32_t *b2 = gc(malloc(NNUE_MAX_L2 * 4));
    int span = big ? 30000 : 60;
    for (size_t i = 0; i < (size_t)NNUE_FEATURES * h; i++) w1[i] = (int16_t)((int)rng_below(&rng, 2 * span + 1) - span);
    for (size_t j = 0; j < h; j++) b1[j] = (int16_t)((int)rng_below(&rng, 401) - 100);
    for (size_t k = 0; k < n2; k++) w2[k] = (int16_t)((int)rng_below(&rng, 257) - 128);
    for (int k = 0; k < NNUE_MAX_L2; k++) {
        w3[k] = (int16_t)((int)rng_below(&rng, 257) - 128);
        b2[k] = (int32_t)rng_below(&rng, 20001) - 10000;
    }
    NnueParams p = {.hidden = hidden, .l2 = l2, .qa = NNUE_QA, .qw = qw, .w1 = w1, .b1 = b1, .w2 = w2,
                    .b2 = b2, .w3 = w3, .b3 = 1234, .description = "a random net of the tests"};
    uint8_t *bytes;
    size_t len;
    char err[ERR_LEN];
    cr_assert_eq(nnue_encode(&p, &bytes, &len, err), 0, "%s", err);
    Nnue *net;
    cr_assert_eq(nnue_decode(&net, bytes, len, "random", err), 0, "%s", err);
    if (bytes_out) {
        *bytes_out = gc(bytes);
        *len_out = len;
    } else {
        free(bytes);
    }
    return net;
}

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

/* ---- the file -------------------------------------------------------- */

Test(nnue_file, round_trip)
{
    uint8_t *bytes;
    size_t len;
    Nnue *net = random_net(5, 32, 4, NNUE_QW, false, &bytes, &len);
    char *dir = tmpdir_new(), *path = path_in(dir, "r.nnue"), err[ERR_LEN];
    cr_assert_eq(nnue_save(path, bytes, len, err), 0, "%s", err);
    Nnue *back;
    cr_assert_eq(nnue_load(&back, path, err), 0, "%s", err);
    cr_assert_eq(nnue_hash(back), nnue_hash(net));
    cr_assert_eq(nnue_hidden(back), 32);
    cr_assert_eq(nnue_l2(back), 4);
    cr_assert_str_eq(nnue_description(back), "a random net of the tests");
    for (int g = 0; g < 20; g++) {
        Position pos;
        pos_start(&pos, VARIANT_STANDARD);
        Rng rng;
        rng_stream(&rng, 5, (uint64_t)g);
        for (Action a; (a = movegen_random(&pos, &rng)) != ACTION_NONE;) {
            Undo u;
            pos_make(&pos, a, &u);
            cr_assert_eq(nnue_evaluate(back, &pos), nnue_evaluate(net, &pos));
        }
    }
    /* and the same bytes again */
    FILE *f = fopen(path, "rb");
    uint8_t *again = gc(malloc(len + 1));
    cr_assert_eq(fread(again, 1, len + 1, f), len);
    fclose(f);
    cr_assert(!memcmp(again, bytes, len));
    nnue_free(back);
    nnue_free(net);
}

/* A net with a linear part (feature set 2): it round-trips, its linear
 * part is the weights times the features in the actor's view (what
 * eval_logit gives for White, turned for Black), nnue_evaluate is the
 * accumulators' output plus that part, and a weight beyond the bound or a
 * changed byte is refused. */
Test(nnue_file, a_linear_part_round_trips_and_adds_the_features)
{
    Nnue *plain = random_net(6, 32, 4, NNUE_QW, false, NULL, NULL);
    cr_assert_not(nnue_has_linear(plain));
    Rng rng;
    rng_stream(&rng, 6, 77);
    size_t h = 32, n2 = 4 * 2 * h;
    int16_t *w1 = gc(malloc((size_t)NNUE_FEATURES * h * 2)), *b1 = gc(calloc(h, 2)), *w2 = gc(malloc(n2 * 2));
    int16_t w3[4] = {40, -30, 20, 64};
    int32_t b2[4] = {100, -200, 300, 0};
    for (size_t i = 0; i < (size_t)NNUE_FEATURES * h; i++) w1[i] = (int16_t)((int)rng_below(&rng, 121) - 60);
    for (size_t k = 0; k < n2; k++) w2[k] = (int16_t)((int)rng_below(&rng, 257) - 128);
    int32_t lw[FEAT_NB];
    Weights w;
    for (int k = 0; k < FEAT_NB; k++) {
        lw[k] = (int32_t)rng_below(&rng, 40001) - 20000;
        w.w[k] = lw[k] / ((double)NNUE_QA * NNUE_QW);
    }
    NnueParams p = {.hidden = 32, .l2 = 4, .qa = NNUE_QA, .qw = NNUE_QW, .w1 = w1, .b1 = b1, .w2 = w2, .b2 = b2,
                    .w3 = w3, .b3 = 77, .lw = lw, .description = "linear"};
    uint8_t *bytes;
    size_t len;
    char err[ERR_LEN];
    cr_assert_eq(nnue_encode(&p, &bytes, &len, err), 0, "%s", err);
    gc(bytes);
    Nnue *net;
    cr_assert_eq(nnue_decode(&net, bytes, len, "linear", err), 0, "%s", err);
    cr_assert(nnue_has_linear(net));
    cr_assert_eq(bytes[12], NNUE_FEATURE_SET_LINEAR);
    size_t np = nnue_float_params(net, NULL);
    float *fp = gc(malloc(np * sizeof *fp));
    nnue_float_params(net, fp);
    for (int k = 0; k < FEAT_NB; k++) cr_assert_float_eq(fp[np - FEAT_NB + k], w.w[k], 1e-6);
    long checked = 0;
    for (int g = 0; g < 10; g++) {
        Position pos;
        pos_start(&pos, VARIANT_STANDARD);
        Rng r;
        rng_stream(&r, 6, (uint64_t)g);
        for (Action a; (a = movegen_random(&pos, &r)) != ACTION_NONE;) {
            Undo u;
            pos_make(&pos, a, &u);
            double want = eval_logit(&w, &pos) * (pos.actor == WHITE ? 1 : -1) * NNUE_QA * NNUE_QW;
            int32_t lin = nnue_linear(net, &pos);
            cr_assert(fabs(lin - want) < 1e-3 * fabs(want) + 1e-6, "%d against %g", (int)lin, want);
            NnueAcc acc;
            nnue_refresh(net, &pos, &acc);
            cr_assert_eq(nnue_evaluate(net, &pos), nnue_output(net, &acc, pos.actor) + lin);
            cr_assert_eq(nnue_linear(plain, &pos), 0);
            checked++;
        }
    }
    cr_assert_gt(checked, 500);
    /* a changed byte of the linear part: damaged */
    uint8_t *bad = gc(malloc(len));
    memcpy(bad, bytes, len);
    bad[len - 3] ^= 1;
    Nnue *none;
    cr_assert_eq(nnue_decode(&none, bad, len, "bad", err), ERR_FAIL);
    cr_expect(strstr(err, "damaged"), "%s", err);
    /* a weight beyond the bound is refused, naming it */
    lw[2] = NNUE_LINEAR_MAX * NNUE_QA * NNUE_QW + 1;
    uint8_t *big;
    size_t blen;
    cr_assert_eq(nnue_encode(&p, &big, &blen, err), 0, "%s", err);
    gc(big);
    cr_assert_eq(nnue_decode(&none, big, blen, "big", err), ERR_FAIL);
    cr_expect(strstr(err, "linear part's weight 2"), "%s", err);
    nnue_free(net);
    nnue_free(plain);
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

/* A net with a pattern part (feature set 3): it round-trips, nnue_linear
 * is the linear part plus the sum of the windows' weights for the side to
 * act, the float parameters end with them; a changed byte, a weight
 * beyond the bound and a pattern part without a linear part are refused. */
Test(nnue_file, a_pattern_part_round_trips_and_adds_the_windows)
{
    Rng rng;
    rng_stream(&rng, 8, 77);
    size_t h = 16;
    int16_t *w1 = gc(malloc((size_t)NNUE_FEATURES * h * 2)), *b1 = gc(calloc(h, 2)), *w2 = gc(malloc(2 * h * 2));
    int32_t b2[1] = {-150};
    for (size_t i = 0; i < (size_t)NNUE_FEATURES * h; i++) w1[i] = (int16_t)((int)rng_below(&rng, 121) - 60);
    for (size_t k = 0; k < 2 * h; k++) w2[k] = (int16_t)((int)rng_below(&rng, 257) - 128);
    int32_t lw[FEAT_NB], *pw = gc(malloc(PATTERN_NB * sizeof *pw));
    for (int k = 0; k < FEAT_NB; k++) lw[k] = (int32_t)rng_below(&rng, 40001) - 20000;
    for (int k = 0; k < PATTERN_NB; k++) pw[k] = (int32_t)rng_below(&rng, 200001) - 100000;
    NnueParams p = {.hidden = 16, .qa = NNUE_QA, .qw = NNUE_QW, .w1 = w1, .b1 = b1, .w2 = w2, .b2 = b2, .lw = lw,
                    .description = "linear"};
    uint8_t *lb, *bytes;
    size_t llen, len;
    char err[ERR_LEN];
    cr_assert_eq(nnue_encode(&p, &lb, &llen, err), 0, "%s", err);
    gc(lb);
    p.pw = pw;
    p.description = "patterns";
    cr_assert_eq(nnue_encode(&p, &bytes, &len, err), 0, "%s", err);
    gc(bytes);
    cr_assert_eq(bytes[12], NNUE_FEATURE_SET_PATTERNS);
    cr_assert_eq(len, llen + 4 * PATTERN_NB + 8 - 6); /* the descriptions "patterns" and "linear" */
    Nnue *lin, *net;
    cr_assert_eq(nnue_decode(&lin, lb, llen, "linear", err), 0, "%s", err);
    cr_assert_eq(nnue_decode(&net, bytes, len, "patterns", err), 0, "%s", err);
    cr_assert(nnue_has_linear(net) && nnue_has_patterns(net) && !nnue_has_patterns(lin));
    size_t np = nnue_float_params(net, NULL);
    cr_assert_eq(np, nnue_float_params(lin, NULL) + PATTERN_NB);
    float *fp = gc(malloc(np * sizeof *fp));
    nnue_float_params(net, fp);
    for (int k = 0; k < PATTERN_NB; k++)
        cr_assert_float_eq(fp[np - PATTERN_NB + k], pw[k] / ((double)NNUE_QA * NNUE_QW), 1e-6);
    long checked = 0;
    for (int g = 0; g < 10; g++) {
        Position pos;
        pos_start(&pos, g % 2 ? VARIANT_BLITZ : VARIANT_STANDARD);
        Rng r;
        rng_stream(&r, 8, (uint64_t)g);
        for (Action a; (a = movegen_random(&pos, &r)) != ACTION_NONE;) {
            Undo u;
            pos_make(&pos, a, &u);
            uint16_t cls[PATTERN_WINDOWS];
            patterns_classes(&pos, pos.actor, cls);
            int32_t sum = 0;
            for (int w = 0; w < PATTERN_WINDOWS; w++) sum += pw[cls[w]];
            cr_assert_eq(nnue_linear(net, &pos), nnue_linear(lin, &pos) + sum);
            NnueAcc acc;
            nnue_refresh(net, &pos, &acc);
            cr_assert_eq(nnue_evaluate(net, &pos), nnue_output(net, &acc, pos.actor) + nnue_linear(net, &pos));
            checked++;
        }
    }
    cr_assert_gt(checked, 500);
    uint8_t *bad = gc(malloc(len));
    memcpy(bad, bytes, len);
    bad[len - 5] ^= 1;
    Nnue *none;
    cr_assert_eq(nnue_decode(&none, bad, len, "bad", err), ERR_FAIL);
    cr_expect(strstr(err, "damaged"), "%s", err);
    pw[1000] = -NNUE_LINEAR_MAX * NNUE_QA * NNUE_QW - 1;
    uint8_t *big;
    size_t blen;
    cr_assert_eq(nnue_encode(&p, &big, &blen, err), 0, "%s", err);
    gc(big);
    cr_assert_eq(nnue_decode(&none, big, blen, "big", err), ERR_FAIL);
    cr_expect(strstr(err, "pattern part's weight 1000"), "%s", err);
    p.lw = NULL;
    cr_assert_eq(nnue_encode(&p, &big, &blen, err), ERR_USAGE);
    cr_expect(strstr(err, "a pattern part needs a linear part"), "%s", err);
    nnue_free(net);
    nnue_free(lin);
}

/* Loads the bytes as the file `name` in dir: the code and the message. */
static int load_bytes(const char *dir, const char *name, const uint8_t *b, size_t n, char *err)
{
    char *path = path_in(dir, name);
    FILE *f = fopen(path, "wb");
    cr_assert(f);
    fwrite(b, 1, n, f);
    fclose(f);
    Nnue *net = NULL;
    int rc = nnue_load(&net, path, err);
    nnue_free(net);
    return rc;
}

static void expect_refused(const char *dir, const char *name, const uint8_t *b, size_t n, const char *what)
{
    char err[ERR_LEN] = "";
    cr_assert_neq(load_bytes(dir, name, b, n, err), 0, "%s was loaded", name);
    cr_expect(strstr(err, name), "the message names the file: %s", err);
    cr_expect(strstr(err, what), "expected '%s' in: %s", what, err);
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

Test(nnue_file, damaged_truncated_and_mismatched_files_are_refused)
{
    uint8_t *bytes;
    size_t len;
    Nnue *net = random_net(6, 16, 0, NNUE_QW, false, &bytes, &len);
    nnue_free(net);
    char *dir = tmpdir_new();
    uint8_t *b = gc(malloc(len + 8));
    char err[ERR_LEN];

    memcpy(b, bytes, len);
    b[len / 2] ^= 0x10;
    expect_refused(dir, "flipped.nnue", b, len, "damaged");
    memcpy(b, bytes, len);
    b[28] ^= 1; /* the activation scale, 254: the hash covers the header too */
    expect_refused(dir, "scale.nnue", b, len, "damaged");
    expect_refused(dir, "short.nnue", bytes, len - 100, "truncated");
    expect_refused(dir, "header.nnue", bytes, 20, "truncated");
    memcpy(b, bytes, len);
    memset(b + len, 0, 8);
    expect_refused(dir, "long.nnue", b, len + 8, "more than the header says");
    memcpy(b, bytes, len);
    put32(b + 8, 2);
    expect_refused(dir, "version.nnue", b, len, "format version 2");
    memcpy(b, bytes, len);
    put32(b + 12, 7);
    expect_refused(dir, "features.nnue", b, len, "mismatched inputs");
    memcpy(b, bytes, len);
    put32(b + 20, 32);
    expect_refused(dir, "hidden.nnue", b, len, "mismatched sizes");
    memcpy(b, bytes, len);
    put32(b + 20, 20);
    expect_refused(dir, "odd.nnue", b, len, "multiple of 16");
    expect_refused(dir, "text.nnue", (const uint8_t *)"lines3 0.1\n", 11, "not a YINSH net file");
    expect_refused(dir, "empty.nnue", bytes, 0, "not a YINSH net file");
    Nnue *none = NULL;
    cr_assert_eq(nnue_load(&none, dir, err), ERR_FAIL);
    cr_expect(strstr(err, "a directory"), "%s", err);
    cr_assert_eq(nnue_load(&none, path_in(dir, "missing.nnue"), err), ERR_NOT_FOUND);
    cr_expect(strstr(err, "missing.nnue: cannot open"), "%s", err);
    cr_assert_null(none);
}

Test(nnue_file, the_built_in_net_loads)
{
    Nnue *net;
    char err[ERR_LEN];
    cr_assert_eq(nnue_load_builtin(&net, err), 0, "%s", err);
    Position pos;
    pos_start(&pos, VARIANT_STANDARD);
    double l = nnue_logit(net, nnue_evaluate(net, &pos));
    cr_assert(isfinite(l) && fabs(l) < 10, "the start's logit %g", l);
    /* the file it was built from is the same net */
    Nnue *file;
    cr_assert_eq(nnue_load(&file, YINSH_SOURCE_DIR "/eval/nets/default.nnue", err), 0, "%s", err);
    cr_assert_eq(nnue_hash(file), nnue_hash(net));
    nnue_free(file);
    nnue_free(net);
}

/* The shipped nets answer to their short names (results/strength.md's
 * eval=net:pv32) in any folder, as to their file names; a file of that
 * name in the folder comes first. */
Test(nnue_file, shipped_nets_answer_to_their_short_names)
{
    char *dir = tmpdir_new(), cwd[4096], err[ERR_LEN];
    cr_assert(getcwd(cwd, sizeof cwd));
    cr_assert_eq(chdir(dir), 0);
    const char *names[][2] = {{"pv32", "pv32.nnue"}, {"patterns32", "patterns32.nnue"},
                              {"eval/nets/hybrid32", "hybrid32.nnue"}, {"default", "default.nnue"}};
    for (int i = 0; i < 4; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/eval/nets/%s", YINSH_SOURCE_DIR, names[i][1]);
        Nnue *by_name, *file;
        cr_assert_eq(nnue_load(&by_name, names[i][0], err), 0, "%s", err);
        cr_assert_eq(nnue_load(&file, path, err), 0, "%s", err);
        cr_expect_eq(nnue_hash(by_name), nnue_hash(file), "%s", names[i][0]);
        nnue_free(by_name);
        nnue_free(file);
    }
    Nnue *none = NULL;
    cr_expect_eq(nnue_load(&none, "pv3", err), ERR_NOT_FOUND, "%s", err);
    cr_expect_eq(nnue_load(&none, "nnue", err), ERR_NOT_FOUND, "%s", err);
    FILE *f = fopen("pv32", "w");
    fputs("not a net\n", f);
    fclose(f);
    cr_expect_neq(nnue_load(&none, "pv32", err), 0, "the folder's file named pv32 was passed over");
    cr_expect(strstr(err, "not a YINSH net file"), "%s", err);
    cr_assert_null(none);
    cr_assert_eq(chdir(cwd), 0);
}

/* A shipped net's bytes (eval/nets/NAME) to change, with their length. */
static uint8_t *shipped_bytes(const char *name, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/eval/nets/%s", YINSH_SOURCE_DIR, name);
    FILE *f = fopen(path, "rb");
    cr_assert(f, "%s", path);
    uint8_t *b = gc(malloc(1 << 20));
    *len = fread(b, 1, 1 << 20, f);
    fclose(f);
    return b;
}

/* The content hash put right after a change (docs/nnue.md: FNV-1a 64 over
 * the header before the hash and every byte after the header). */
static void rehash(uint8_t *b, size_t len)
{
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < len; i++) {
        if (i == 48) i = NNUE_HEADER_BYTES;
        h = (h ^ b[i]) * 1099511628211ULL;
    }
    for (int i = 0; i < 8; i++) b[48 + i] = (uint8_t)(h >> (8 * i));
}

/* Where the biases of a shipped net of one output (l2 = 0) begin: after
 * the header, the description, w1, b1 and w2. */
static size_t b2_at(const uint8_t *b)
{
    size_t hidden = b[20], dlen = b[36];
    return NNUE_HEADER_BYTES + dlen + (size_t)NNUE_FEATURES * hidden * 2 + hidden * 2 + 2 * hidden * 2;
}

/* Crafted nets with a valid hash whose biases or weights would overflow a
 * sum of the search (issue 59): refused at the load, naming the part. */
Test(nnue_file, biases_and_sums_that_would_overflow_are_refused)
{
    char *dir = tmpdir_new();
    size_t len;
    /* pv32, every policy bias 0x7ffffff0 and every policy weight 4096 */
    uint8_t *b = shipped_bytes("pv32.nnue", &len);
    size_t pb = b2_at(b) + 4 + 4 * FEAT_NB + 4 * PATTERN_NB + 4, pw2 = pb + 4 * (size_t)ENCODE_ACTIONS;
    cr_assert_eq(pw2 + (size_t)ENCODE_ACTIONS * 64 * 2, len, "pv32's layout");
    for (int k = 0; k < ENCODE_ACTIONS; k++) put32(b + pb + 4 * (size_t)k, 0x7ffffff0);
    for (size_t i = pw2; i < len; i += 2) b[i] = 0x00, b[i + 1] = 0x10;
    rehash(b, len);
    expect_refused(dir, "pb.nnue", b, len, "the policy bias of action 0 is 2147483632, beyond 1000 times the scale");
    /* just within: the head's sums stay below 2^31 */
    for (int k = 0; k < ENCODE_ACTIONS; k++) put32(b + pb + 4 * (size_t)k, (uint32_t)(NNUE_BIAS_MAX * 255 * 512));
    rehash(b, len);
    char err[ERR_LEN];
    cr_assert_eq(load_bytes(dir, "pb-max.nnue", b, len, err), 0, "%s", err);
    /* patterns32, b2 = INT32_MAX, and b2 = INT32_MIN */
    b = shipped_bytes("patterns32.nnue", &len);
    put32(b + b2_at(b), INT32_MAX);
    rehash(b, len);
    expect_refused(dir, "b2.nnue", b, len, "the output's bias b2 0 is 2147483647, beyond 1000 times the scales");
    put32(b + b2_at(b), (uint32_t)INT32_MIN);
    rehash(b, len);
    expect_refused(dir, "b2-min.nnue", b, len, "the output's bias b2 0 is -2147483648");
    /* default.nnue (a second layer of 16): b3 = INT32_MAX */
    b = shipped_bytes("default.nnue", &len);
    put32(b + len - 4, INT32_MAX);
    rehash(b, len);
    expect_refused(dir, "b3.nnue", b, len, "the output's bias b3 is 2147483647");

    /* every bias within its bound, and yet sums beyond int32: the largest
     * weights at the largest scale */
    size_t h = 256, n2 = 2 * h;
    int16_t *w1 = gc(calloc((size_t)NNUE_FEATURES * h, 2)), *b1 = gc(calloc(h, 2)), *w2 = gc(malloc(n2 * 2));
    for (size_t k = 0; k < n2; k++) w2[k] = 32767;
    int32_t b2 = 0, lw[FEAT_NB];
    NnueParams p = {.hidden = 256, .l2 = 0, .qa = 255, .qw = 1024, .w1 = w1, .b1 = b1, .w2 = w2, .b2 = &b2,
                    .description = "wraps"};
    uint8_t *bytes;
    cr_assert_eq(nnue_encode(&p, &bytes, &len, err), 0, "%s", err);
    expect_refused(dir, "w2.nnue", gc(bytes), len, "the second layer's weights w2 could sum to 4278059520");
    /* the output fits, and so does each part, but not all of them */
    for (size_t k = 0; k < n2; k++) w2[k] = 4096;
    for (int k = 0; k < FEAT_NB; k++) lw[k] = NNUE_LINEAR_MAX * 255 * 1024;
    p.lw = lw;
    cr_assert_eq(nnue_encode(&p, &bytes, &len, err), 0, "%s", err);
    expect_refused(dir, "parts.nnue", gc(bytes), len, "could sum beyond 2147483647");
    /* the same with the trainer's scale loads */
    p.qw = NNUE_QW;
    for (int k = 0; k < FEAT_NB; k++) lw[k] = NNUE_LINEAR_MAX * 255 * NNUE_QW;
    cr_assert_eq(nnue_encode(&p, &bytes, &len, err), 0, "%s", err);
    cr_assert_eq(load_bytes(dir, "fits.nnue", gc(bytes), len, err), 0, "%s", err);
}

/* ---- training -------------------------------------------------------- */

/* A small database of seeded ab self-play, made once per test. */
static char *small_db(const char *dir, const char *games)
{
    char *db = path_in(dir, "games.db");
    const char *args[] = {"selfplay", "--agent", "ab:depth=1,eval=" YINSH_SOURCE_DIR "/eval/weights/tuned3.txt",
                          "--opening", "random:4", "--games", games, "--seed", "31", "--db", db, "--quiet",
                          "--threads", "2", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, NULL), 0, "selfplay: %s", slurp(path_in(dir, "err")));
    return db;
}

static void load_data(const char *db, const NnueTrainOptions *o, NnueData *d)
{
    Store *s;
    char err[ERR_LEN];
    cr_assert_eq(store_open(&s, db, STORE_READ, STORE_BUSY_MS, err), 0, "%s", err);
    cr_assert_eq(train_load(s, NULL, o, d, NULL, err), 0, "%s", err);
    store_close(s);
}

/* Trains to the end; stop_after > 0: stops after that many slices of no
 * time (one minibatch each), saves, and resumes in a new trainer. */
static uint8_t *train_bytes(const NnueData *d, const NnueTrainOptions *o, int stop_after, const char *ckpt,
                            size_t *len)
{
    NnueTrainer *t;
    char err[ERR_LEN];
    cr_assert_eq(nnue_trainer_new(&t, o, d, err), 0, "%s", err);
    int slices = 0;
    NnueEpoch e;
    for (int r; (r = nnue_trainer_run(t, stop_after ? 0 : 1e9, &e)) != 2;) {
        if (stop_after && ++slices == stop_after) {
            cr_assert_eq(nnue_trainer_save(t, ckpt, err), 0, "%s", err);
            nnue_trainer_free(t);
            cr_assert_eq(nnue_trainer_new(&t, o, d, err), 0, "%s", err);
            cr_assert_eq(nnue_trainer_resume(t, ckpt, err), 0, "%s", err);
        }
    }
    uint8_t *b;
    cr_assert_eq(nnue_trainer_quantise(t, "test", &b, len, err), 0, "%s", err);
    nnue_trainer_free(t);
    return gc(b);
}

Test(nnue_train, same_data_and_seed_same_net_and_a_resume_changes_nothing, .timeout = 240)
{
    char *dir = tmpdir_new(), *db = small_db(dir, "60");
    NnueTrainOptions o;
    nnue_train_options_default(&o);
    o.epochs = 3;
    o.hidden = 32;
    o.batch = 256;
    o.threads = 1;
    NnueData d;
    load_data(db, &o, &d);
    cr_assert_gt(d.n_train, 1000);
    cr_assert_gt(d.n_val, 0);
    cr_assert_gt(d.with_value, d.n_train / 2, "ab stores its values");
    size_t n1, n2, n3, n4;
    uint8_t *a = train_bytes(&d, &o, 0, NULL, &n1), *b = train_bytes(&d, &o, 0, NULL, &n2);
    cr_assert(n1 == n2 && !memcmp(a, b, n1), "two trainings differ");
    o.threads = 2;
    uint8_t *c = train_bytes(&d, &o, 0, NULL, &n3);
    cr_assert(n1 == n3 && !memcmp(a, c, n1), "2 threads train another net");
    /* stopped inside the second epoch (a minibatch a slice) and resumed */
    int per_epoch = (int)((d.n_train + 255) / 256);
    uint8_t *r = train_bytes(&d, &o, per_epoch + 2, path_in(dir, "t.ckpt"), &n4);
    cr_assert(n1 == n4 && !memcmp(a, r, n1), "the resumed training gives another net");
    /* the checkpoint refuses other options */
    o.seed = 2;
    NnueTrainer *t;
    char err[ERR_LEN];
    cr_assert_eq(nnue_trainer_new(&t, &o, &d, err), 0, "%s", err);
    cr_assert_eq(nnue_trainer_resume(t, path_in(dir, "t.ckpt"), err), ERR_FAIL);
    cr_expect(strstr(err, "other training: seed 1 (this run: 2)"), "%s", err);
    nnue_trainer_free(t);
    nnue_data_free(&d);
}

/* The driver's slice hook: sets the stop flag once `after` epochs have ended. */
typedef struct StopAfter {
    atomic_bool stop;
    int after, slices, ended;
} StopAfter;

static void stop_after_epochs(void *ctx, const NnueEpoch *ended, int epoch, uint64_t at)
{
    StopAfter *s = ctx;
    (void)epoch;
    (void)at;
    s->slices++;
    if (ended && ++s->ended == s->after) atomic_store(&s->stop, true);
}

Test(nnue_train, the_driver_gives_the_trainers_net_and_a_stop_and_resume_change_nothing, .timeout = 240)
{
    char *dir = tmpdir_new(), *db = small_db(dir, "40");
    NnueTrainOptions o;
    nnue_train_options_default(&o);
    o.epochs = 3;
    o.hidden = 16;
    o.batch = 256;
    o.threads = 1;
    NnueData d;
    load_data(db, &o, &d);
    size_t n;
    uint8_t *a = train_bytes(&d, &o, 0, NULL, &n);
    char err[ERR_LEN], *ckpt = path_in(dir, "d.ckpt");
    /* without a checkpoint or hooks (as `yinsh rounds --net` calls it) */
    NnueTrained tr;
    NnueTrainRun plain = {.description = "test"};
    cr_assert_eq(nnue_train(&o, &d, &plain, &tr, err), 0, "%s", err);
    cr_assert(tr.len == n && !memcmp(tr.bytes, a, n), "the driver trains another net than the trainer");
    cr_assert_eq(tr.epochs, 3);
    cr_expect(tr.positions == 3 * d.n_train, "%llu positions trained", (unsigned long long)tr.positions);
    nnue_trained_free(&tr);
    /* stopped after the first epoch: the checkpoint saved, then resumed */
    StopAfter s = {.after = 1};
    NnueTrainRun run = {.description = "test", .checkpoint = ckpt, .every = 60, .stop = &s.stop,
                        .slice = stop_after_epochs, .ctx = &s};
    cr_assert_eq(nnue_train(&o, &d, &run, &tr, err), 1, "%s", err);
    cr_assert(file_exists(ckpt), "no checkpoint after a stop");
    cr_assert_null(tr.bytes);
    atomic_store(&s.stop, false);
    s.after = 0;
    run.resume = true;
    cr_assert_eq(nnue_train(&o, &d, &run, &tr, err), 0, "%s", err);
    cr_assert(tr.len == n && !memcmp(tr.bytes, a, n), "the stopped and resumed driver trains another net");
    cr_assert_eq(tr.epochs, 3);
    nnue_trained_free(&tr);
    nnue_data_free(&d);
}

Test(nnue_train, repeated_games_count_once)
{
    NnueTrainOptions o;
    nnue_train_options_default(&o);
    o.val_frac = 0;
    NnueCollector c = {.o = &o};
    const char *acts[] = {"a2", "a3"};
    char err[ERR_LEN];
    cr_assert_eq(nnue_collect_game(&c, "g1", 0, VARIANT_STANDARD, RESULT_WHITE, acts, NULL, 2, err), 0, "%s", err);
    cr_assert_eq(nnue_collect_game(&c, "g2", 1, VARIANT_STANDARD, RESULT_WHITE, acts, NULL, 2, err), 0, "%s", err);
    cr_assert_eq(nnue_collect_game(&c, "g3", 2, VARIANT_BLITZ, RESULT_BLACK, acts, NULL, 2, err), 0, "%s", err);
    NnueData d;
    cr_assert_eq(nnue_collect_finish(&c, &d, err), 0, "%s", err);
    cr_assert_eq(d.games, 2);
    cr_assert_eq(d.duplicates, 1);
    cr_assert_eq(d.n_train, 4);
    /* White won the first: the start is White's to act, 1; then Black's, 0 */
    cr_assert_float_eq(d.train[0].result, 1.0, 1e-9);
    cr_assert_float_eq(d.train[1].result, 0.0, 1e-9);
    cr_assert_float_eq(d.train[2].result, 0.0, 1e-9);
    nnue_data_free(&d);
}

/* --root-value (NnueTrainOptions.root_value): the search value of the
 * target is the position's (action.root_value), not the chosen action's
 * (action.value). With lambda 1 the targets of the positions with a value
 * are those values: the two readings differ, over the positions, by the
 * stored root values less the chosen actions' values. */
Test(nnue_train, root_value_targets_are_the_positions_values, .timeout = 240)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "m.db");
    const char *args[] = {"selfplay", "--agent", "mcts:sims=60", "--games", "12", "--seed", "8", "--db", db,
                          "--quiet", "--threads", "2", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, NULL), 0, "selfplay");
    NnueTrainOptions o;
    nnue_train_options_default(&o);
    o.lambda = 1;
    NnueData chosen, root;
    load_data(db, &o, &chosen);
    o.root_value = true;
    load_data(db, &o, &root);
    cr_assert_eq(chosen.n_train + chosen.n_val, root.n_train + root.n_val);
    cr_assert_eq(chosen.with_value, root.with_value);
    cr_assert_neq(chosen.hash, root.hash, "the targets are the same");
    double diff = 0;
    for (int v = 0; v < 2; v++) {
        size_t n = v ? chosen.n_val : chosen.n_train;
        for (size_t i = 0; i < n; i++)
            diff += (v ? root.val : root.train)[i].target - (v ? chosen.val : chosen.train)[i].target;
    }
    sqlite3 *h = db_open(db);
    sqlite3_stmt *st = db_row(h, "SELECT total(root_value - value) FROM action WHERE value IS NOT NULL AND state IN "
                                 "('P', 'M')");
    double want = sqlite3_column_double(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(h);
    cr_assert(fabs(want) > 0.1, "the root values differ from the chosen actions' (%f)", want);
    cr_assert(fabs(diff - want) < 1e-3 * (double)chosen.with_value, "%f against %f", diff, want);
    nnue_data_free(&chosen);
    nnue_data_free(&root);
}

/* A warm start begins where the net it starts from is: the trainer's
 * weights quantised again before any step are that net's, exactly. */
Test(nnue_train, a_warm_start_begins_at_the_net_it_starts_from, .timeout = 240)
{
    char *dir = tmpdir_new(), *db = small_db(dir, "20");
    NnueTrainOptions o;
    nnue_train_options_default(&o);
    o.epochs = 2;
    o.hidden = 32;
    o.l2 = 8;
    o.batch = 256;
    NnueData d;
    load_data(db, &o, &d);
    size_t n1;
    uint8_t *a = train_bytes(&d, &o, 0, NULL, &n1);
    Nnue *net;
    char err[ERR_LEN];
    cr_assert_eq(nnue_decode(&net, a, n1, "a", err), 0, "%s", err);
    cr_assert_eq(nnue_float_params(net, NULL), (size_t)NNUE_ROWS * 32 + 32 + 8 * 64 + 8 + 8 + 1);
    o.init = net;
    o.seed = 9; /* the seed's random weights are not used */
    NnueTrainer *t;
    cr_assert_eq(nnue_trainer_new(&t, &o, &d, err), 0, "%s", err);
    uint8_t *b;
    size_t n2;
    cr_assert_eq(nnue_trainer_quantise(t, "test", &b, &n2, err), 0, "%s", err);
    nnue_trainer_free(t);
    cr_assert(n1 == n2 && !memcmp(a, b, n1),
              "the weights started from are not the net's");
    /* and training from it moves on from there: another net, deterministic */
    size_t n3, n4;
    uint8_t *c = train_bytes(&d, &o, 0, NULL, &n3), *e = train_bytes(&d, &o, 0, NULL, &n4);
    cr_assert(n3 == n4 && !memcmp(c, e, n3));
    cr_assert(memcmp(c + NNUE_HEADER_BYTES, a + NNUE_HEADER_BYTES, n1 - NNUE_HEADER_BYTES));
    /* a checkpoint of a warm start refuses a run from random weights */
    uint8_t *r = train_bytes(&d, &o, 3, path_in(dir, "w.ckpt"), &n4);
    cr_assert(n3 == n4 && !memcmp(c, r, n3), "the resumed warm start gives another net");
    o.init = NULL;
    cr_assert_eq(nnue_trainer_new(&t, &o, &d, err), 0, "%s", err);
    cr_assert_eq(nnue_trainer_resume(t, path_in(dir, "w.ckpt"), err), ERR_FAIL);
    cr_expect(strstr(err, "net started from"), "%s", err);
    nnue_trainer_free(t);
    /* a net of another shape is refused, naming both */
    o.init = net;
    o.hidden = 64;
    cr_assert_eq(nnue_trainer_new(&t, &o, &d, err), ERR_USAGE);
    cr_expect(strstr(err, "hidden 32 and l2 8, not the hidden 64"), "%s", err);
    nnue_free(net);
    nnue_data_free(&d);
}

/* --positions cuts the data to size, games whole and in order; the cut
 * data is the first games of the whole. --only-quiet leaves out exactly
 * the positions with a row of the actor's in reach. */
Test(nnue_train, data_cut_to_size_and_quiet_positions_only, .timeout = 240)
{
    char *dir = tmpdir_new(), *db = small_db(dir, "40");
    NnueTrainOptions o;
    nnue_train_options_default(&o);
    o.val_frac = 0;
    NnueData all, cut, quiet;
    load_data(db, &o, &all);
    o.max_positions = all.n_train / 3;
    load_data(db, &o, &cut);
    cr_assert_geq(cut.n_train, o.max_positions);
    cr_assert_lt(cut.n_train, all.n_train);
    cr_assert_gt(cut.capped, 0);
    cr_assert_eq(cut.games + cut.capped + cut.duplicates, all.games + all.duplicates);
    for (size_t i = 0; i < cut.n_train; i++)
        cr_assert(pos_equal(&cut.train[i].pos, &all.train[i].pos) && cut.train[i].target == all.train[i].target &&
                      cut.train[i].result == all.train[i].result,
                  "the cut is not the first games (position %zu)", i);
    o.max_positions = 0;
    o.quiet_only = true;
    load_data(db, &o, &quiet);
    size_t noisy = 0;
    for (size_t i = 0; i < all.n_train; i++) noisy += movegen_row_in_reach(&all.train[i].pos);
    cr_assert_gt(noisy, 0, "no position with a row in reach: the test sees nothing");
    cr_assert_eq(quiet.noisy, noisy);
    cr_assert_eq(quiet.n_train, all.n_train - noisy);
    for (size_t i = 0; i < quiet.n_train; i++) cr_assert(!movegen_row_in_reach(&quiet.train[i].pos));
    nnue_data_free(&all);
    nnue_data_free(&cut);
    nnue_data_free(&quiet);
}

/* The trainer's linear part starts from the weights given (quantised
 * before any step, the part is those weights), trains to the same net
 * twice, and refuses a warm start from a net without one. */
Test(nnue_train, a_linear_part_starts_from_the_weights_and_trains)
{
    char *dir = tmpdir_new(), *db = small_db(dir, "20");
    NnueTrainOptions o;
    nnue_train_options_default(&o);
    o.epochs = 2;
    o.hidden = 16;
    o.batch = 256;
    o.linear = true;
    cr_assert_eq(weights_load(YINSH_SOURCE_DIR "/eval/weights/tuned3.txt", &o.linear_start, NULL), 0);
    NnueData d;
    load_data(db, &o, &d);
    NnueTrainer *t;
    char err[ERR_LEN];
    cr_assert_eq(nnue_trainer_new(&t, &o, &d, err), 0, "%s", err);
    uint8_t *b;
    size_t n;
    cr_assert_eq(nnue_trainer_quantise(t, "start", &b, &n, err), 0, "%s", err);
    nnue_trainer_free(t);
    gc(b);
    Nnue *start;
    cr_assert_eq(nnue_decode(&start, b, n, "start", err), 0, "%s", err);
    cr_assert(nnue_has_linear(start));
    size_t np = nnue_float_params(start, NULL);
    float *fp = gc(malloc(np * sizeof *fp));
    nnue_float_params(start, fp);
    for (int k = 0; k < FEAT_NB; k++)
        cr_assert_float_eq(fp[np - FEAT_NB + k], o.linear_start.w[k], 1.0 / (NNUE_QA * NNUE_QW), "weight %d", k);
    /* trained: another linear part, the same twice */
    size_t n1, n2;
    uint8_t *a1 = train_bytes(&d, &o, 0, NULL, &n1), *a2 = train_bytes(&d, &o, 0, NULL, &n2);
    cr_assert(n1 == n2 && !memcmp(a1, a2, n1));
    /* a warm start from a plain net is refused for a linear training */
    Nnue *plain = random_net(3, 16, 0, NNUE_QW, false, NULL, NULL);
    o.init = plain;
    cr_assert_eq(nnue_trainer_new(&t, &o, &d, err), ERR_USAGE);
    cr_expect(strstr(err, "hidden 16 and l2 0, not the hidden 16 and l2 0 and a linear part"), "%s", err);
    nnue_free(plain);
    nnue_free(start);
    nnue_data_free(&d);
}

/* A pattern part: it needs a linear part; it starts at 0 (the net then
 * evaluates as the one without it), trains to the same net twice and
 * lowers the training loss; a warm start from a linear net adds one. */
Test(nnue_train, a_pattern_part_starts_at_zero_and_trains, .timeout = 240)
{
    char *dir = tmpdir_new(), *db = small_db(dir, "20");
    NnueTrainOptions o;
    nnue_train_options_default(&o);
    o.epochs = 2;
    o.hidden = 16;
    o.batch = 256;
    o.patterns = true;
    NnueData d;
    load_data(db, &o, &d);
    NnueTrainer *t;
    char err[ERR_LEN];
    cr_assert_eq(nnue_trainer_new(&t, &o, &d, err), ERR_USAGE);
    cr_expect(strstr(err, "a pattern part needs a linear part"), "%s", err);
    o.linear = true;
    cr_assert_eq(weights_load(YINSH_SOURCE_DIR "/eval/weights/tuned3.txt", &o.linear_start, NULL), 0);
    Nnue *start[2];
    for (int pat = 0; pat < 2; pat++) {
        o.patterns = pat;
        cr_assert_eq(nnue_trainer_new(&t, &o, &d, err), 0, "%s", err);
        uint8_t *b;
        size_t n;
        cr_assert_eq(nnue_trainer_quantise(t, "start", &b, &n, err), 0, "%s", err);
        nnue_trainer_free(t);
        gc(b);
        cr_assert_eq(nnue_decode(&start[pat], b, n, "start", err), 0, "%s", err);
        cr_assert_eq(nnue_has_patterns(start[pat]), pat);
    }
    for (size_t i = 0; i < d.n_train; i += 7)
        cr_assert_eq(nnue_evaluate(start[1], &d.train[i].pos), nnue_evaluate(start[0], &d.train[i].pos));
    size_t n1, n2;
    uint8_t *a1 = train_bytes(&d, &o, 0, NULL, &n1), *a2 = train_bytes(&d, &o, 0, NULL, &n2);
    cr_assert(n1 == n2 && !memcmp(a1, a2, n1));
    Nnue *trained;
    cr_assert_eq(nnue_decode(&trained, a1, n1, "trained", err), 0, "%s", err);
    cr_assert(nnue_has_patterns(trained));
    cr_assert_lt(nnue_data_loss(trained, &d, false, false, 1), nnue_data_loss(start[1], &d, false, false, 1));
    /* a warm start from the linear net: the pattern part from 0 */
    o.init = start[0];
    cr_assert_eq(nnue_trainer_new(&t, &o, &d, err), 0, "%s", err);
    uint8_t *b;
    size_t n;
    cr_assert_eq(nnue_trainer_quantise(t, "warm", &b, &n, err), 0, "%s", err);
    nnue_trainer_free(t);
    gc(b);
    Nnue *warm;
    cr_assert_eq(nnue_decode(&warm, b, n, "warm", err), 0, "%s", err);
    cr_assert(nnue_has_patterns(warm));
    for (size_t i = 0; i < d.n_train; i += 7)
        cr_assert_eq(nnue_evaluate(warm, &d.train[i].pos), nnue_evaluate(start[0], &d.train[i].pos));
    /* and a pattern net cannot start a training without one */
    o.init = trained;
    o.patterns = false;
    cr_assert_eq(nnue_trainer_new(&t, &o, &d, err), ERR_USAGE);
    cr_expect(strstr(err, "a linear and a pattern part"), "%s", err);
    nnue_free(warm);
    nnue_free(trained);
    nnue_free(start[0]);
    nnue_free(start[1]);
    nnue_data_free(&d);
}

static bool same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    bool same = fa && fb;
    for (int x, y; same;) {
        x = fgetc(fa);
        y = fgetc(fb);
        same = x == y;
        if (x == EOF) break;
    }
    if (fa) fclose(fa);
    if (fb) fclose(fb);
    return same;
}

Test(nnue_train, yinsh_train_twice_and_killed_and_resumed_give_one_net, .timeout = 300)
{
    char *dir = tmpdir_new(), *db = small_db(dir, "120");
    const char *common[] = {"train", "--db", db, "--epochs", "30", "--hidden", "32", "--batch", "512",
                            "--threads", "2", "--seed", "5", "--checkpoint", "0"};
    enum { NC = sizeof common / sizeof *common };
    const char *args[NC + 4];
    memcpy(args, common, sizeof common);
    char *a = path_in(dir, "a.nnue"), *b = path_in(dir, "b.nnue"), *c = path_in(dir, "c.nnue");
    args[NC] = "--out", args[NC + 1] = a, args[NC + 2] = NULL;
    char *out;
    cr_assert_eq(yinsh_run(dir, args, &out, NULL), 0, "train: %s", slurp(path_in(dir, "err")));
    cr_expect(strstr(out, "wrote "), "%s", out);
    cr_expect(strstr(out, "quantised"), "%s", out);
    cr_assert(!file_exists(path_in(dir, "a.nnue.ckpt")), "the checkpoint is removed at the end");
    args[NC + 1] = b;
    args[NC + 2] = "--quiet";
    args[NC + 3] = NULL;
    cr_assert_eq(yinsh_run(dir, args, NULL, NULL), 0);
    cr_assert(same_file(a, b), "two runs of one training wrote different nets");
    cr_assert(!strcmp(slurp(path_in(dir, "err")), ""), "--quiet: %s", slurp(path_in(dir, "err")));

    /* killed once its checkpoint is there, then resumed */
    args[NC + 1] = c;
    args[NC + 2] = NULL;
    char *ckpt = path_in(dir, "c.nnue.ckpt");
    pid_t pid = yinsh_start(dir, args);
    for (int i = 0; i < 60000 && !file_exists(ckpt); i++) usleep(1000);
    kill(pid, SIGKILL);
    int st = yinsh_wait(pid);
    cr_assert(file_exists(ckpt), "no checkpoint was written (exit %d)", st);
    cr_assert_eq(st, 128 + SIGKILL, "the training ended before it was killed");
    cr_assert(!file_exists(c));
    /* a checkpoint there and no --resume: refused, nothing changed */
    char *err;
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 1);
    cr_expect(strstr(err, "--resume"), "%s", err);
    args[NC + 2] = "--resume";
    args[NC + 3] = NULL;
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "resume: %s", err);
    cr_expect(strstr(err, "resuming"), "%s", err);
    cr_assert(same_file(a, c), "the resumed training wrote another net");
}

Test(nnue_train, bad_command_lines)
{
    char *dir = tmpdir_new(), *err;
    const char *no_db[] = {"train", "--out", "x.nnue", NULL};
    cr_assert_eq(yinsh_run(dir, no_db, NULL, &err), 2);
    cr_expect(strstr(err, "--db"), "%s", err);
    const char *odd[] = {"train", "--db", "x.db", "--out", "x.nnue", "--hidden", "40", NULL};
    cr_assert_eq(yinsh_run(dir, odd, NULL, &err), 2);
    cr_expect(strstr(err, "multiple of 16"), "%s", err);
    const char *missing[] = {"train", "--db", "missing.db", "--out", "x.nnue", NULL};
    cr_assert_eq(yinsh_run(dir, missing, NULL, &err), 1);
    cr_assert(!file_exists(path_in(dir, "x.nnue")));
    const char *help[] = {"train", "--help", NULL};
    char *out;
    cr_assert_eq(yinsh_run(dir, help, &out, NULL), 0);
    cr_expect(strstr(out, "--lambda"), "%s", out);
}

/* ---- alpha-beta with a net -------------------------------------------- */

/* A game of ab (depth 2, the net) against itself from four random
 * actions: every action legal; the actions, in order, into acts. */
static int ab_game(const Nnue *net, uint64_t seed, Action *acts)
{
    AbConfig cfg = {.depth = 2, .tt_mb = 1, .net = net};
    weights_default(&cfg.weights);
    Ab *ab;
    char err[ERR_LEN];
    cr_assert_eq(ab_new(&ab, &cfg, err), 0, "%s", err);
    Rng rng;
    rng_stream(&rng, seed, 0);
    Position pos;
    pos_start(&pos, seed % 2 ? VARIANT_BLITZ : VARIANT_STANDARD);
    int n = 0, result, reason;
    while (!pos_outcome(&pos, &result, &reason) && n < GAME_MAX_ACTIONS) {
        Action a = n < 4 ? movegen_random(&pos, &rng) : ab_search(ab, &pos, NULL, NULL);
        cr_assert(movegen_is_legal(&pos, a), "game %llu ply %d: an illegal action", (unsigned long long)seed, n);
        acts[n++] = a;
        Undo u;
        pos_make(&pos, a, &u);
    }
    ab_free(ab);
    return n;
}

Test(nnue_ab, a_fixed_depth_search_with_a_net_is_legal_and_deterministic, .timeout = 240)
{
    Nnue *net;
    char err[ERR_LEN];
    cr_assert_eq(nnue_load_builtin(&net, err), 0, "%s", err);
    static Action a[GAME_MAX_ACTIONS], b[GAME_MAX_ACTIONS];
    for (uint64_t g = 0; g < 4; g++) {
        int n = ab_game(net, g, a), m = ab_game(net, g, b);
        cr_assert_eq(n, m);
        cr_assert(!memcmp(a, b, (size_t)n * sizeof *a), "game %llu: two searches chose differently",
                  (unsigned long long)g);
    }
    /* a random net plays legal games too (its scores are far from the shipped one's) */
    Nnue *r = random_net(8, 32, 0, NNUE_QW, false, NULL, NULL);
    ab_game(r, 9, a);
    nnue_free(r);
    nnue_free(net);
}

/* MCTS with a net at its leaves (rollout 0: the net alone) and as its
 * prior: legal and the same twice from the same stream. */
Test(nnue_mcts, leaves_and_priors_by_a_net_are_legal_and_deterministic)
{
    Nnue *net = random_net(10, 32, 0, NNUE_QW, false, NULL, NULL);
    MctsConfig cfg = {.sims = 300, .c = 1, .evaluate = true, .rollout = 0, .prior = 1, .net = net};
    weights_default(&cfg.weights);
    for (int k = 0; k < 6; k++) {
        Position pos;
        pos_start(&pos, VARIANT_STANDARD);
        Rng walk;
        rng_stream(&walk, 11, (uint64_t)k);
        randgame_play(&pos, &walk, 5 + 9 * k);
        if (movegen_count(&pos) == 0) continue;
        Action got[2];
        for (int r = 0; r < 2; r++) {
            Mcts *m;
            char err[ERR_LEN];
            cr_assert_eq(mcts_new(&m, &cfg, err), 0, "%s", err);
            Rng rng;
            rng_stream(&rng, 12, (uint64_t)k);
            got[r] = mcts_search(m, &pos, &rng, NULL);
            mcts_free(m);
        }
        cr_assert(movegen_is_legal(&pos, got[0]));
        cr_assert_eq(got[0], got[1], "position %d: two searches chose differently", k);
    }
    nnue_free(net);
}

/* ---- agents with a net: eval=net:FILE, eval=net:builtin ---------------- */

/* The net of eval/nets/default.nnue cut to n bytes (n < its size: a
 * damaged copy), or whole with n 0, written to dir/name; its path. */
static char *default_net_copy(const char *dir, const char *name, size_t n)
{
    char *src = YINSH_SOURCE_DIR "/eval/nets/default.nnue";
    FILE *f = fopen(src, "rb");
    cr_assert(f, "cannot read %s", src);
    uint8_t *b = gc(malloc(1 << 20));
    size_t len = fread(b, 1, 1 << 20, f);
    fclose(f);
    cr_assert(len > 1000 && len < (1 << 20));
    char *path = path_in(dir, name);
    f = fopen(path, "wb");
    cr_assert(f);
    fwrite(b, 1, n ? n : len, f);
    fclose(f);
    return path;
}

/* Writes bytes to dir/name; its path. */
static char *bytes_in(const char *dir, const char *name, const uint8_t *b, size_t n)
{
    char *path = path_in(dir, name);
    FILE *f = fopen(path, "wb");
    cr_assert(f);
    fwrite(b, 1, n, f);
    fclose(f);
    return path;
}

Test(nnue_spec, net_builtin_parses_and_its_canonical_text_round_trips)
{
    char err[ERR_LEN], text[SPEC_LEN], again[SPEC_LEN];
    Nnue *builtin;
    cr_assert_eq(nnue_load_builtin(&builtin, err), 0, "%s", err);
    const char *specs[] = {"ab:depth=2,eval=net:builtin", "mcts:sims=40,rollout=0,prior=1,eval=net:builtin"};
    for (int i = 0; i < 2; i++) {
        AgentSpec s, back;
        cr_assert_eq(agent_spec_parse(specs[i], &s, err), 0, "%s: %s", specs[i], err);
        cr_assert(agent_spec_names_net(&s));
        cr_assert_not_null(agent_spec_net(&s), "%s: no net was loaded", specs[i]);
        cr_assert_null(agent_spec_weights(&s), "a net spec has no linear weights");
        cr_assert_str_eq(agent_spec_eval_file(&s), "net:builtin");
        uint64_t h;
        cr_assert(agent_spec_eval_hash(&s, &h));
        cr_assert_eq(h, nnue_hash(builtin), "the stored hash is the net's content hash");
        agent_spec_format(&s, text);
        cr_assert(strstr(text, ",eval=net:builtin"), "canonical text: %s", text);
        cr_assert_eq(agent_spec_parse(text, &back, err), 0, "%s: %s", text, err);
        cr_assert_str_eq(agent_spec_format(&back, again), text);
        cr_assert_eq(nnue_hash(agent_spec_net(&back)), h);
        /* an agent keeps its own reference: it outlives both specs */
        Agent *a;
        cr_assert_eq(agent_new(&a, &s, err), 0, "%s", err);
        agent_spec_release(&s);
        agent_spec_release(&back);
        cr_assert_null(s.net);
        Position pos;
        pos_start(&pos, VARIANT_STANDARD);
        Rng walk, rng;
        rng_stream(&walk, 3, (uint64_t)i);
        randgame_play(&pos, &walk, 14);
        rng_stream(&rng, 4, 0);
        cr_assert(movegen_is_legal(&pos, agent_choose(a, &pos, &rng, NULL)));
        agent_free(a);
    }
    /* the text alone (a report's reading) names the net and holds none; no agent is made from it */
    AgentSpec t;
    cr_assert_eq(agent_spec_parse_text("ab:depth=2,eval=net:builtin", &t, err), 0, "%s", err);
    cr_assert(agent_spec_names_net(&t) && !agent_spec_net(&t));
    Agent *none;
    cr_assert_neq(agent_new(&none, &t, err), 0);
    cr_expect(strstr(err, "net:builtin"), "%s", err);
    nnue_free(builtin);
}

Test(nnue_spec, net_without_a_file_is_a_bad_spec)
{
    char err[ERR_LEN];
    AgentSpec s;
    cr_assert_eq(agent_spec_parse("ab:depth=2,eval=net:", &s, err), ERR_USAGE);
    cr_expect(strstr(err, "net:"), "%s", err);
    cr_assert_eq(agent_spec_parse_text("mcts:rollout=0,eval=net:", &s, err), ERR_USAGE);
    /* mcts: the net, as weights, wants rollout=N */
    cr_assert_eq(agent_spec_parse("mcts:sims=10,eval=net:builtin", &s, err), ERR_USAGE);
    cr_expect(strstr(err, "rollout"), "%s", err);
    cr_assert_null(s.net);
}

Test(nnue_spec, missing_and_damaged_net_files_are_refused_naming_them)
{
    char *dir = tmpdir_new(), err[ERR_LEN], spec[512];
    AgentSpec s;
    snprintf(spec, sizeof spec, "ab:depth=2,eval=net:%s", path_in(dir, "missing.nnue"));
    cr_assert_eq(agent_spec_parse(spec, &s, err), ERR_FAIL);
    cr_expect(strstr(err, "missing.nnue"), "%s", err);
    cr_assert_null(s.net);
    snprintf(spec, sizeof spec, "ab:depth=2,eval=net:%s", default_net_copy(dir, "cut.nnue", 900));
    cr_assert_eq(agent_spec_parse(spec, &s, err), ERR_FAIL);
    cr_expect(strstr(err, "cut.nnue") && strstr(err, "truncated"), "%s", err);
    cr_assert_null(s.net);
    /* a weights file is not a net */
    snprintf(spec, sizeof spec, "mcts:rollout=2,eval=net:%s", YINSH_SOURCE_DIR "/eval/weights/tuned3.txt");
    cr_assert_eq(agent_spec_parse(spec, &s, err), ERR_FAIL);
    cr_expect(strstr(err, "tuned3.txt") && strstr(err, "not a YINSH net file"), "%s", err);
    /* and in the command line: exit 1, the file named, nothing played */
    char *db = path_in(dir, "t.db"), *out, *e;
    snprintf(spec, sizeof spec, "ab:depth=2,eval=net:%s", path_in(dir, "cut.nnue"));
    const char *args[] = {"selfplay", "--games", "2", "--agent", spec, "--db", db, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &e), 1, "%s", e);
    cr_expect(strstr(e, "cut.nnue") && strstr(e, "truncated"), "%s", e);
    cr_assert(!file_exists(db), "nothing was stored");
}

Test(nnue_spec, set_eval_swaps_the_net_and_weights_are_refused)
{
    char *dir = tmpdir_new(), err[ERR_LEN];
    AgentSpec s;
    cr_assert_eq(agent_spec_parse("ab:depth=2", &s, err), 0, "%s", err);
    cr_assert_null(agent_spec_net(&s));
    cr_assert_eq(agent_spec_set(&s, "eval", "net:builtin", err), 0, "%s", err);
    const Nnue *first = agent_spec_net(&s);
    cr_assert_not_null(first);
    cr_assert_eq(agent_spec_set_weight(&s, 0, 0.5, err), ERR_USAGE, "a net has no linear weights");
    cr_expect(strstr(err, "net"), "%s", err);
    /* a bad net leaves the spec as it was, with its net */
    cr_assert_eq(agent_spec_set(&s, "eval", "net:", err), ERR_USAGE);
    cr_assert_eq(agent_spec_set(&s, "eval", "net:nowhere.nnue", err), ERR_FAIL);
    cr_assert_eq(agent_spec_net(&s), first);
    cr_assert_str_eq(agent_spec_eval_file(&s), "net:builtin");
    /* another net file: the first given back (ASan's leak check) */
    char net[256];
    snprintf(net, sizeof net, "net:%s", default_net_copy(dir, "copy.nnue", 0));
    cr_assert_eq(agent_spec_set(&s, "eval", net, err), 0, "%s", err);
    cr_assert_not_null(agent_spec_net(&s));
    cr_assert_neq(agent_spec_net(&s), first);
    /* a copy holds its own reference */
    AgentSpec c;
    agent_spec_copy(&c, &s);
    agent_spec_release(&s);
    cr_assert_not_null(agent_spec_net(&c));
    /* back to the linear weights */
    cr_assert_eq(agent_spec_set(&c, "eval", "", err), 0, "%s", err);
    cr_assert_null(agent_spec_net(&c));
    cr_assert_not_null(agent_spec_weights(&c));
    agent_spec_release(&c);
}

/* The hash line of a selfplay run's summary. */
static const char *hash_line(const char *out)
{
    const char *h = strstr(out, "\nhash ");
    cr_assert(h, "no hash in: %s", out);
    return gc(strndup(h + 1, strcspn(h + 1, "\n")));
}

/* The summary's hash of `yinsh selfplay` of 2 seeded games of agent into
 * dir/name; the run's stored spec and eval hash checked. */
static const char *net_selfplay(const char *dir, const char *name, const char *agent, const char *eval_hash)
{
    char *db = path_in(dir, name), *out, *err;
    const char *args[] = {"selfplay", "--games", "2", "--agent", agent, "--opening", "random:4", "--seed", "5",
                          "--db", db, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s: %s", agent, err);
    cr_assert(strstr(out, "games        2\n"), "%s", out);
    sqlite3 *h = db_open(db);
    if (eval_hash) {
        cr_assert(strstr(db_text(h, "SELECT white FROM run"), ",eval=net:builtin"), "%s",
                  db_text(h, "SELECT white FROM run"));
        cr_assert_str_eq(db_text(h, "SELECT white_weights FROM run"), eval_hash);
        cr_assert_str_eq(db_text(h, "SELECT black_weights FROM run"), eval_hash);
    }
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game WHERE actions > 20"), 2, "two whole games");
    sqlite3_close(h);
    return hash_line(out);
}

Test(nnue_spec, ab_and_mcts_with_the_builtin_net_play_seeded_games, .timeout = 300)
{
    char *dir = tmpdir_new(), want[32], err[ERR_LEN];
    Nnue *net;
    cr_assert_eq(nnue_load_builtin(&net, err), 0, "%s", err);
    snprintf(want, sizeof want, "%016llx", (unsigned long long)nnue_hash(net));
    nnue_free(net);
    const char *ab = "ab:depth=2,eval=net:builtin", *mcts = "mcts:sims=60,rollout=0,prior=1,eval=net:builtin";
    const char *ab1 = net_selfplay(dir, "ab1.db", ab, want), *ab2 = net_selfplay(dir, "ab2.db", ab, want);
    cr_assert_str_eq(ab1, ab2, "ab: the same command, another play");
    const char *m1 = net_selfplay(dir, "m1.db", mcts, want), *m2 = net_selfplay(dir, "m2.db", mcts, want);
    cr_assert_str_eq(m1, m2, "mcts: the same command, another play");
    /* the net is what plays: the linear weights play other games */
    cr_assert_str_neq(net_selfplay(dir, "lin.db", "ab:depth=2", NULL), ab1);
    cr_assert_str_neq(net_selfplay(dir, "mlin.db", "mcts:sims=60,rollout=0,prior=1", NULL), m1);
}

Test(nnue_spec, a_resume_refuses_another_net, .timeout = 300)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "t.db"), *net = default_net_copy(dir, "mine.nnue", 0), spec[512];
    char *out, *err;
    snprintf(spec, sizeof spec, "ab:depth=1,eval=net:%s", net);
    const char *args[] = {"selfplay", "--games", "2", "--agent", spec, "--opening", "random:4", "--seed", "5",
                          "--db", db, "--run", "r", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
    const char *resume[] = {"selfplay", "--resume", "r", "--db", db, "--quiet", NULL};
    char *out1;
    cr_assert_eq(yinsh_run(dir, resume, &out1, &err), 0, "the same net: %s", err);
    /* another net under the same name */
    uint8_t *bytes;
    size_t len;
    nnue_free(random_net(21, 16, 0, NNUE_QW, false, &bytes, &len));
    bytes_in(dir, "mine.nnue", bytes, len);
    cr_assert_eq(yinsh_run(dir, resume, &out, &err), 1, "another net was resumed: %s", out);
    cr_expect(strstr(err, "net 'net:") && strstr(err, "mine.nnue") && strstr(err, "not the one the run was played with"),
              "%s", err);
    /* the first net back: resumed */
    default_net_copy(dir, "mine.nnue", 0);
    cr_assert_eq(yinsh_run(dir, resume, &out, &err), 0, "%s", err);
    cr_assert_str_eq(out, out1);
}

Test(nnue_spec, match_tournament_and_study_take_a_net, .timeout = 300)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *match[] = {"match", "--a", "ab:depth=1,eval=net:builtin", "--b", "ab:depth=1", "--games", "2",
                           "--opening", "random:4", "--seed", "3", "--db", path_in(dir, "m.db"), "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, match, &out, &err), 0, "%s", err);
    sqlite3 *h = db_open(path_in(dir, "m.db"));
    cr_assert(strstr(db_text(h, "SELECT white FROM run"), "eval=net:builtin"));
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game"), 2);
    sqlite3_close(h);

    const char *tour[] = {"tournament", "--p", "net=ab:depth=1,eval=net:builtin", "--p", "lin=ab:depth=1",
                          "--p", "mnet=mcts:sims=20,rollout=0,eval=net:builtin", "--games", "2", "--name", "t",
                          "--db", path_in(dir, "t.db"), "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, tour, &out, &err), 0, "%s", err);
    h = db_open(path_in(dir, "t.db"));
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game"), 6);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM run WHERE white LIKE '%eval=net:builtin%' OR black LIKE "
                           "'%eval=net:builtin%'"), 3);
    sqlite3_close(h);

    char *study = write_in(dir, "s.ini",
                           "[study]\nname = s\ndb = s.db\ngames = 2\nvariants = standard\nopening = random:4\n"
                           "seed = 1\n"
                           "[agent net]\nspec = ab:depth=1,eval=net:builtin\n"
                           "[agent mnet]\nspec = mcts:sims=20,rollout=0,eval=net:builtin\n");
    const char *st[] = {"study", study, NULL};
    cr_assert_eq(yinsh_run(dir, st, &out, &err), 0, "%s", err);
    h = db_open(path_in(dir, "s.db"));
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game"), 4);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM run WHERE white LIKE '%eval=net:builtin'"), 2);
    sqlite3_close(h);
}

Test(nnue_spec, weights_of_a_net_spec_are_refused_by_spsa_and_rounds, .timeout = 300)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *spsa[] = {"spsa", "--agent", "ab:depth=1,eval=net:builtin", "--param", "w.markers=1:0:2",
                          "--iterations", "1", "--out", path_in(dir, "p.csv"), "--db", path_in(dir, "s.db"),
                          "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, spsa, &out, &err), 2, "%s", err);
    cr_expect(strstr(err, "w.markers") && strstr(err, "net"), "%s", err);
    /* a key of the search is tuned as for any agent, the net kept */
    const char *depth[] = {"spsa", "--agent", "ab:depth=1,eval=net:builtin", "--param", "depth=1:1:2",
                           "--iterations", "1", "--out", path_in(dir, "d.csv"), "--db", path_in(dir, "d.db"),
                           "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, depth, &out, &err), 0, "%s", err);
    cr_expect(strstr(out, "eval=net:builtin"), "%s", out);
    const char *rounds[] = {"rounds", "--agent", "ab:depth=1,eval=net:builtin", "--from",
                            YINSH_SOURCE_DIR "/eval/weights/tuned3.txt", "--db", path_in(dir, "r.db"), "--name", "r",
                            "--out-dir", dir, "--games", "4", "--pairs", "2", "--rounds", "1", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, rounds, &out, &err), 2, "%s", err);
    cr_expect(strstr(err, "net"), "%s", err);
}
