#define _GNU_SOURCE /* nftw, in test_proc.h */
/* The net's file (eval/nnue.h): its round trip, with a linear part and a
 * pattern part adding their features; a damaged, truncated, mismatched or
 * foreign file refused with its name and what is wrong, biases and sums
 * that would overflow included; the built-in net and the shipped nets by
 * their short names. */
#include <math.h>
#include "engine/encode/encode.h"
#include "engine/movegen.h"
#include "eval/evaluation.h"
#include "eval/nnue.h"
#include "eval/patterns.h"
#include "tests/nnue_helpers.h"

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
