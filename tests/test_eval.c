/* Evaluation features on positions whose counts can be checked by eye, and
 * the weights file: defaults, errors that name the line, round trip. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "evaluation.h"
#include "notation.h"

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
    char err[256];
    cr_assert(weights_load(YINSH_SOURCE_DIR "/eval/weights/default.txt", &w, err, sizeof err), "%s", err);
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
    char err[256], path[] = "/tmp/yinsh-weights-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    write_file(path, "markers 0.1\nbogus 1\n");
    cr_expect(!weights_load(path, &w, err, sizeof err));
    cr_expect(strstr(err, ":2: unknown feature 'bogus'"), "%s", err);
    write_file(path, "markers abc\n");
    cr_expect(!weights_load(path, &w, err, sizeof err));
    cr_expect(strstr(err, ":1: 'abc' is not a number"), "%s", err);
    write_file(path, "markers 1\nmarkers 2\n");
    cr_expect(!weights_load(path, &w, err, sizeof err));
    cr_expect(strstr(err, "given twice"), "%s", err);
    write_file(path, "markers 1 2\n");
    cr_expect(!weights_load(path, &w, err, sizeof err));
    cr_expect(strstr(err, "expected `name value`"), "%s", err);
    cr_expect(!weights_load("/nonexistent/w.txt", &w, err, sizeof err));
    cr_expect(strstr(err, "cannot open"), "%s", err);

    /* round trip */
    Weights a, b;
    weights_default(&a);
    a.w[FEAT_LINES4] = 0.123456789;
    cr_assert(weights_save(path, &a, "test\nweights", err, sizeof err), "%s", err);
    cr_assert(weights_load(path, &b, err, sizeof err), "%s", err);
    for (int k = 0; k < FEAT_NB; k++) cr_expect_eq(a.w[k], b.w[k]);
    remove(path);
}
