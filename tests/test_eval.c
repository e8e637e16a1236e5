/* Evaluation features on positions whose counts can be checked by eye, and
 * the weights file: defaults, errors that name the line, round trip. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "eval/evaluation.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/randgame.h"
#include "engine/base/rng.h"

static Position parse(const char *ypn)
{
    Position p;
    char err[ERR_LEN];
    cr_assert_eq(ypn_parse(ypn, &p, err), 0, "%s: %s", ypn, err);
    return p;
}

Test(features, start_position_is_level)
{
    Position p;
    pos_start(&p, VARIANT_STANDARD);
    double f[FEAT_NB];
    features_compute(&p, f);
    for (int k = 0; k < FEAT_TEMPO; k++) cr_expect_eq(f[k], 0, "%s = %g", FEATURE_NAMES[k], f[k]);
    cr_expect_eq(f[FEAT_TEMPO], 1);
}

Test(features, lines_markers_and_flips)
{
    /* White rings a2 b1 e1, black rings e8 j5 k7; white markers e2 e3 e4 e5,
     * a black marker e7.
     * lines4: windows of 5 along column e holding e2..e5 and no black marker:
     * e1-e5 and e2-e6 (e3-e7 holds e7), so White 2, Black 0.
     * flippable: White's e1 ring jumps e2..e5 to e6 (own markers); no white
     * ring reaches e7, so White 0. Black's j5 ring runs i5 h5 g5 f5, jumps e5
     * and lands on d5, flipping one white marker; e8 and k7 can only jump the
     * black e7. So Black 1, difference -1.
     * markers: 4 white - 1 black = 3. */
    Position p = parse("W3/W6/8/9/Wwwww1bB2/9/10/9/8/B6/B3 w M standard");
    double f[FEAT_NB];
    features_compute(&p, f);
    cr_expect_eq(f[FEAT_MARKERS], 3);
    cr_expect_eq(f[FEAT_LINES4], 2);
    cr_expect_eq(f[FEAT_LINES3], 0);
    cr_expect_eq(f[FEAT_FLIPPABLE], -1);
    cr_expect_eq(f[FEAT_RINGS_REMOVED], 0);
}

/* Mobility (ring moves) and centre (reach: the points on a ring's six rays
 * to the edge, whatever stands there) on a board with rings of both
 * colours, markers to jump and rings in the way. Counted by hand, ray by
 * ray in the order up (row + 1), down, right (column + 1), left, up-right,
 * down-left; a move may run over empty points, jump one group of markers
 * to the first empty point after it, never pass a ring.
 *   White rings a2 b1 e5, white markers e6 e7; black rings e8 h8 k10,
 *   black markers d5 h5.
 * Moves:
 *   a2: a3-a5 3, 0, b2-g2 6, 0, b3 c4 and f7 after the d5 e6 group 3, 0 = 12
 *   b1: b2-b7 6, 0, c1-e1 3, 0, c2-j9 up to the ring on k10 8, 0 = 17
 *   e5: 0 (e6 e7 end at the ring e8), e4-e1 4, f5 g5 and i5 over h5 3,
 *       c5 over d5 1, f6 g7 up to h8 2, d4 c3 b2 3 = 13
 *   e8: e9 e10 2, 0 (e7 e6 end at the ring e5), f8 g8 2, d8 c8 2,
 *       f9 g10 h11 3, d7 c6 b5 a4 4 = 13
 *   h8: h9-h11 3, h7 h6 and h4 over h5 3, i8-k8 3, g8 f8 2, i9 j10 2,
 *       g7 f6 up to e5 2 = 15
 *   k10: 0, k9-k7 3, 0, j10-e10 6, 0, j9-c2 up to b1 8 = 17
 *   White 12 + 17 + 13 = 42, Black 13 + 15 + 17 = 45.
 * Reach, a ring's moves on an empty board (rays as above):
 *   a2 3+0+6+0+9+0 = 18, b1 6+0+3+0+9+0 = 18, e5 5+4+5+4+5+3 = 26;
 *   e8 2+7+6+2+3+4 = 24, h8 3+5+3+5+2+6 = 24, k10 0+3+0+6+0+9 = 18.
 *   White 62, Black 66. */
/* The bit-parallel line counts against the plain loop over every window,
 * for both colours in every position of 300 random games (markers crowd
 * the board late in a game, so every count from 0 up appears). */
Test(features, line_counts_match_the_plain_loop)
{
    long positions = 0, fours = 0;
    for (uint64_t g = 0; g < 300; g++) {
        Rng rng;
        rng_stream(&rng, 77, g);
        Position p;
        pos_start(&p, g % 2 ? VARIANT_BLITZ : VARIANT_STANDARD);
        do {
            for (int c = 0; c < COLOUR_NB; c++) {
                int t, f, ts, fs;
                eval_line_counts(p.markers[c], p.markers[c ^ 1], &t, &f);
                eval_line_counts_slow(p.markers[c], p.markers[c ^ 1], &ts, &fs);
                cr_assert(t == ts && f == fs, "game %d: threes %d vs %d, fours %d vs %d", (int)g, t, ts, f, fs);
                fours += f;
            }
            positions++;
        } while (randgame_play(&p, &rng, 1) == 1);
    }
    cr_expect_gt(positions, 10000);
    cr_expect_gt(fours, 100);
}

Test(features, mobility_and_centre)
{
    Position p = parse("W3/W6/8/4b4/4WwwB2/9/10/2b2B3/8/7/3B w M standard");
    cr_expect_eq(movegen_count_moves(&p, WHITE), 42);
    cr_expect_eq(movegen_count_moves(&p, BLACK), 45);
    double f[FEAT_NB];
    features_compute(&p, f);
    cr_expect_eq(f[FEAT_MOBILITY], 42 - 45);
    cr_expect_eq(f[FEAT_CENTRE], 62 - 66);

    /* A lone white ring on e5 while Black places: nothing blocks, so its
     * moves are its reach, 26, and Black has neither. */
    p = parse("4/7/8/9/4W5/9/10/9/8/7/4 b P standard");
    features_compute(&p, f);
    cr_expect_eq(f[FEAT_MOBILITY], 26);
    cr_expect_eq(f[FEAT_CENTRE], 26);
}

Test(features, rings_removed_counts)
{
    /* White has 3 rings on the board (2 removed), Black 5 */
    Position p = parse("W3/W6/W7/9/10/9/10/9/B7/B6/BBB1 w M standard");
    double f[FEAT_NB];
    features_compute(&p, f);
    cr_expect_eq(f[FEAT_RINGS_REMOVED], 2);
}

Test(weights, default_file_matches_defaults)
{
    Weights w, d;
    char err[ERR_LEN];
    cr_assert_eq(weights_load(YINSH_SOURCE_DIR "/eval/weights/default.txt", &w, err), 0, "%s", err);
    weights_default(&d);
    for (int k = 0; k < FEAT_NB; k++) cr_expect_eq(w.w[k], d.w[k], "%s", FEATURE_NAMES[k]);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(text, f);
    fclose(f);
}

Test(weights, errors_name_the_line)
{
    Weights w;
    char err[ERR_LEN], path[] = "/tmp/yinsh-weights-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    write_file(path, "markers 0.1\nbogus 1\n");
    cr_expect_neq(weights_load(path, &w, err), 0);
    cr_expect(strstr(err, ":2: unknown feature 'bogus'"), "%s", err);
    write_file(path, "markers abc\n");
    cr_expect_neq(weights_load(path, &w, err), 0);
    cr_expect(strstr(err, ":1: 'abc' is not a number"), "%s", err);
    write_file(path, "markers 1\nmarkers 2\n");
    cr_expect_neq(weights_load(path, &w, err), 0);
    cr_expect(strstr(err, "given twice"), "%s", err);
    write_file(path, "markers 1 2\n");
    cr_expect_neq(weights_load(path, &w, err), 0);
    cr_expect(strstr(err, "expected `name value`"), "%s", err);
    cr_expect_neq(weights_load("/nonexistent/w.txt", &w, err), 0);
    cr_expect(strstr(err, "cannot open"), "%s", err);

    /* round trip; the save writes a sibling of its own and renames it: a
     * file of the user's named as the sibling once was stays as it was,
     * and no sibling is left */
    Weights a, b;
    weights_default(&a);
    a.w[FEAT_LINES4] = 0.123456789;
    char beside[sizeof path + 32], line[16] = "";
    snprintf(beside, sizeof beside, "%s.tmp", path);
    write_file(beside, "mine\n");
    cr_assert_eq(weights_save(path, &a, "test\nweights", err), 0, "%s", err);
    cr_assert_eq(weights_load(path, &b, err), 0, "%s", err);
    for (int k = 0; k < FEAT_NB; k++) cr_expect_eq(a.w[k], b.w[k]);
    FILE *f = fopen(beside, "r");
    cr_assert(f && fgets(line, sizeof line, f));
    fclose(f);
    cr_expect_str_eq(line, "mine\n", "the save wrote over %s", beside);
    remove(beside);
    snprintf(beside, sizeof beside, "%s.%ld.tmp", path, (long)getpid());
    cr_expect_neq(access(beside, F_OK), 0, "%s is left behind", beside);
    remove(path);
}

/* The shipped weights files are built in (issue #22): from a folder
 * without them, "eval/weights/NAME.txt" and "NAME.txt" read the built-in
 * copy with the values (the content hash) of the source tree's file; a
 * path naming no shipped file is still an error; a file that is there is
 * read, whatever its name. */
Test(weights, shipped_files_load_from_any_folder)
{
    char err[ERR_LEN], dir[] = "/tmp/yinsh-weights-XXXXXX";
    Weights src, w;
    cr_assert_eq(weights_load(YINSH_SOURCE_DIR "/eval/weights/tuned3.txt", &src, err), 0, "%s", err);
    cr_assert(mkdtemp(dir));
    cr_assert_eq(chdir(dir), 0);
    cr_assert_eq(weights_load("eval/weights/tuned3.txt", &w, err), 0, "%s", err);
    cr_expect_eq(weights_hash(&w), weights_hash(&src));
    cr_assert_eq(weights_load("tuned3.txt", &w, err), 0, "%s", err);
    cr_expect_eq(weights_hash(&w), weights_hash(&src));
    cr_expect_neq(weights_load("eval/weights/none.txt", &w, err), 0);
    cr_expect(strstr(err, "eval/weights/none.txt"), "%s", err);
    cr_expect_neq(weights_load("other/tuned3.txt", &w, err), 0, "only the shipped folder's name");
    cr_expect(weights_shipped("eval/weights/default.txt") && !weights_shipped("x/default.txt"));
    FILE *f = fopen("tuned3.txt", "w");
    cr_assert(f);
    fputs("markers 7\n", f);
    fclose(f);
    cr_assert_eq(weights_load("tuned3.txt", &w, err), 0, "%s", err);
    cr_expect_eq(w.w[FEAT_MARKERS], 7, "the file that is there");
    remove("tuned3.txt");
    cr_assert_eq(chdir("/"), 0);
    rmdir(dir);
}
