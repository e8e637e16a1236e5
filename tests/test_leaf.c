/* The one-evaluation leaf (issue 55, item 1; eval/nnue_policy.h, feature
 * set 5): the direct head's output against a reference computed from
 * scratch out of the file's integers, over random positions and their 12
 * symmetries, on both paths; the leaf's value is the net's one
 * evaluation; a set-5 file written, read back and refused when damaged or
 * mismatched, with the reason named; the direct head's trainer, and its
 * symmetry augmentation mapping positions and policy targets together. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/encode/encode.h"
#include "engine/movegen.h"
#include "eval/nnue_policy.h"
#include "eval/policy_train.h"
#include "selfplay/search/mcts.h"

static const Nnue *patterns32(void)
{
    static Nnue *net;
    char err[ERR_LEN];
    if (!net) cr_assert_eq(nnue_load(&net, "eval/nets/patterns32.nnue", err), 0, "%s", err);
    return net;
}

/* patterns32 with a direct head of random integers (weights anywhere in
 * the loader's bounds, biases of a few logits): its file's bytes. */
static void random_direct(uint64_t seed, uint8_t **bytes, size_t *len)
{
    const Nnue *v = patterns32();
    size_t width = 2 * (size_t)nnue_hidden(v), nw = (size_t)ENCODE_ACTIONS * width;
    int16_t *w1 = malloc((size_t)NNUE_FEATURES * width / 2 * sizeof *w1), *ppw = malloc(nw * sizeof *ppw);
    int32_t *ppb = malloc(ENCODE_ACTIONS * sizeof *ppb);
    cr_assert(w1 && ppw && ppb);
    Rng rng;
    rng_seed(&rng, seed, 0);
    int top = NNUE_POLICY_MAX * NNUE_POLICY_Q;
    for (size_t i = 0; i < nw; i++) ppw[i] = (int16_t)((int)rng_below(&rng, 2 * (uint32_t)top + 1) - top);
    for (int i = 0; i < ENCODE_ACTIONS; i++) ppb[i] = (int32_t)rng_below(&rng, 4 * 255 * 512) - 2 * 255 * 512;
    NnueParams p;
    nnue_int_params(v, w1, &p);
    p.ppw = ppw;
    p.ppb = ppb;
    p.direct = true;
    p.description = "test: a random direct head";
    char err[ERR_LEN];
    cr_assert_eq(nnue_encode(&p, bytes, len, err), 0, "%s", err);
    free(w1);
    free(ppw);
    free(ppb);
}

static Nnue *decode(const uint8_t *b, size_t len)
{
    Nnue *net;
    char err[ERR_LEN];
    cr_assert_eq(nnue_decode(&net, b, len, "test net", err), 0, "%s", err);
    return net;
}

/* The reference: the hidden layer from the file's integers (w1 rows by
 * input index, nnue_int_params), summed in int64 over the perspective's
 * active inputs and clipped; then b + w . h for each legal action, in
 * int64. Nothing of the net's kernels is used. */
static void reference(const Nnue *net, const Position *pos, const Action *legal, int n, int64_t *out)
{
    size_t hid = (size_t)nnue_hidden(net);
    int16_t *w1 = malloc((size_t)NNUE_FEATURES * hid * sizeof *w1);
    NnueParams p;
    nnue_int_params(net, w1, &p);
    const int16_t *ppw;
    const int32_t *ppb;
    int32_t beta;
    cr_assert(nnue_policy_head(net, &ppw, &ppb, &beta));
    cr_assert_eq(beta, 0);
    int64_t h[2 * NNUE_MAX_HIDDEN];
    for (int half = 0; half < 2; half++) {
        int c = half ? pos->actor ^ 1 : pos->actor;
        uint16_t rows[NNUE_MAX_ACTIVE];
        int k = nnue_features(pos, c, rows);
        for (size_t j = 0; j < hid; j++) {
            int64_t s = p.b1[j];
            for (int r = 0; r < k; r++) s += w1[(size_t)nnue_row_feature(rows[r]) * hid + j];
            h[half * hid + j] = s < 0 ? 0 : s > nnue_qa(net) ? nnue_qa(net) : s;
        }
    }
    for (int i = 0; i < n; i++) {
        int idx = encode_action(legal[i]);
        int64_t s = ppb[idx];
        for (size_t j = 0; j < 2 * hid; j++) s += (int64_t)ppw[(size_t)idx * 2 * hid + j] * h[j];
        out[i] = s;
    }
    free(w1);
}

/* Random positions: every 7th position of random games from the start. */
static int random_positions(uint64_t seed, Position *out, int max)
{
    Rng rng;
    rng_seed(&rng, seed, 1);
    int n = 0;
    while (n < max) {
        Position p;
        pos_start(&p, VARIANT_STANDARD);
        for (int ply = 0; n < max && !pos_outcome(&p, NULL, NULL); ply++) {
            if (ply % 7 == 3) out[n++] = p;
            Undo u;
            pos_make(&p, movegen_random(&p, &rng), &u);
        }
    }
    return n;
}

Test(leaf, direct_head_equals_a_reference_from_scratch, .timeout = 120)
{
    uint8_t *b;
    size_t len;
    random_direct(11, &b, &len);
    Nnue *net = decode(b, len);
    cr_assert(nnue_policy_direct(net));
    cr_assert(!nnue_policy_direct(patterns32()));
    enum { N = 40 };
    Position ps[N];
    random_positions(3, ps, N);
    bool avx2 = nnue_path_available(NNUE_PATH_AVX2);
    int removal = 0;
    for (int i = 0; i < N; i++)
        for (int s = 0; s < ENCODE_SYMMETRIES; s++) {
            Position p;
            encode_sym_position(&ps[i], s, &p);
            Action legal[MAX_ACTIONS];
            int n = movegen_all(&p, legal), idx[MAX_ACTIONS];
            int64_t want[MAX_ACTIONS];
            int32_t got[MAX_ACTIONS];
            reference(net, &p, legal, n, want);
            alignas(32) int16_t h[2 * NNUE_MAX_HIDDEN];
            nnue_policy_hidden(net, &p, h);
            for (int k = 0; k < n; k++) idx[k] = encode_action(legal[k]);
            for (int path = 0; path <= (avx2 ? 1 : 0); path++) {
                nnue_policy_sums_path(net, (NnuePath)path, h, idx, n, got);
                for (int k = 0; k < n; k++)
                    cr_assert_eq(got[k], want[k], "position %d, symmetry %d, action %d, path %d", i, s, k, path);
            }
            /* the leaf: those logits, and in P and M the net's one evaluation as its value */
            double z[MAX_ACTIONS], v;
            nnue_policy_value(net, &p, legal, n, z, &v);
            for (int k = 0; k < n; k++)
                cr_assert_eq(z[k], (double)want[k] * (1.0 / (255.0 * NNUE_POLICY_Q)), "position %d, symmetry %d", i, s);
            if (p.state == STATE_P || p.state == STATE_M) {
                double l = nnue_logit(net, nnue_evaluate(net, &p));
                cr_assert_eq(v, 1.0 / (1.0 + exp(-l)), "the value is the net's evaluation");
            } else {
                removal++;
            }
        }
    cr_assert(removal > 0 || N < 40, "some positions were in removal states");
    nnue_free(net);
    free(b);
}

/* A search with the direct net: the same games from a batch in one call
 * as from the leaves one by one through an outside evaluator. */
typedef struct ByOne {
    const Nnue *net;
    int leaves;
} ByOne;

static int by_one(void *ctx, MctsLeaf *leaves, int n, char *err)
{
    (void)err;
    ByOne *c = ctx;
    for (int l = n - 1; l >= 0; l--) {
        double z[MAX_ACTIONS], v, top = -INFINITY;
        MctsLeaf *f = leaves + l;
        nnue_policy_value(c->net, f->pos, f->legal, f->nlegal, z, &v);
        for (int i = 0; i < f->nlegal; i++) top = z[i] > top ? z[i] : top;
        for (int i = 0; i < f->nlegal; i++) f->prior[i] = (float)exp(z[i] - top);
        f->value = (float)v;
        c->leaves++;
    }
    return 0;
}

static int play(MctsConfig cfg, int max, Action *acts)
{
    Mcts *m;
    char err[ERR_LEN];
    cr_assert_eq(mcts_new(&m, &cfg, err), 0, "%s", err);
    Position p;
    pos_start(&p, VARIANT_STANDARD);
    Rng rng;
    rng_seed(&rng, 4, 0);
    int n = 0;
    while (n < max && !pos_outcome(&p, NULL, NULL)) {
        MctsResult r;
        Action a = mcts_search(m, &p, &rng, &r);
        cr_assert_null(mcts_error(m));
        acts[n++] = a;
        mcts_advance(m, &p, a);
        Undo u;
        pos_make(&p, a, &u);
    }
    mcts_free(m);
    return n;
}

Test(leaf, a_search_with_the_direct_leaf)
{
    uint8_t *b;
    size_t len;
    random_direct(12, &b, &len);
    Nnue *net = decode(b, len);
    ByOne c = {.net = net};
    MctsConfig own = {.sims = 64, .c = 1.5, .puct = true, .batch = 8, .net = net, .noise = 0.25, .temp = 1,
                      .temp_moves = 6};
    MctsConfig outside = own;
    outside.net = NULL;
    outside.evaluate_fn = by_one;
    outside.evaluate_ctx = &c;
    Action a1[30], a2[30];
    int n1 = play(own, 30, a1), n2 = play(outside, 30, a2);
    cr_assert_eq(n1, n2);
    for (int i = 0; i < n1; i++) cr_assert_eq(a1[i], a2[i], "action %d", i);
    cr_assert(c.leaves > 0);
    nnue_free(net);
    free(b);
}

/* Refused, naming why: a damaged byte, a short file, a head weight beyond
 * its bound (the hash made good), another set's header over the body,
 * a feature set this yinsh does not know. */
Test(leaf, a_damaged_or_mismatched_direct_net_is_refused)
{
    uint8_t *b;
    size_t len;
    random_direct(13, &b, &len);
    Nnue *x;
    char err[ERR_LEN];
    cr_assert_eq(b[12], NNUE_FEATURE_SET_DIRECT);
    size_t head = 4 * (size_t)ENCODE_ACTIONS + 2 * (size_t)ENCODE_ACTIONS * 2 * (size_t)nnue_hidden(patterns32());
    b[len - head / 2] ^= 0x10;
    cr_assert_neq(nnue_decode(&x, b, len, "d.nnue", err), 0);
    cr_assert(strstr(err, "d.nnue: damaged"), "%s", err);
    b[len - head / 2] ^= 0x10;
    cr_assert_neq(nnue_decode(&x, b, len - 2, "d.nnue", err), 0);
    cr_assert(strstr(err, "truncated"), "%s", err);
    /* a set-4 header over a set-5 body: the head's beta is missing */
    b[12] = NNUE_FEATURE_SET_POLICY;
    cr_assert_neq(nnue_decode(&x, b, len, "d.nnue", err), 0);
    cr_assert(strstr(err, "mismatched sizes"), "%s", err);
    b[12] = 6;
    cr_assert_neq(nnue_decode(&x, b, len, "d.nnue", err), 0);
    cr_assert(strstr(err, "mismatched inputs: feature set 6"), "%s", err);
    b[12] = NNUE_FEATURE_SET_DIRECT;
    /* a weight beyond the bound, written by hand and the hash made good:
     * the last weight of the file */
    b[len - 2] = 0xff;
    b[len - 1] = 0x7f;
    uint64_t hsh = 14695981039346656037ULL;
    for (size_t i = 0; i < len; i++) {
        if (i == 48) i = NNUE_HEADER_BYTES;
        hsh = (hsh ^ b[i]) * 1099511628211ULL;
    }
    for (int i = 0; i < 8; i++) b[48 + i] = (uint8_t)(hsh >> (8 * i));
    cr_assert_neq(nnue_decode(&x, b, len, "d.nnue", err), 0);
    cr_assert(strstr(err, "mismatched architecture: policy weight") && strstr(err, "32767"), "%s", err);
    free(b);
}

/* ---- the trainer ------------------------------------------------------------ */

/* A rule a head of biases can learn: the legal action whose index has the
 * largest hash (not the first: uniform priors pick that one). */
static int favourite(const Action *legal, int n)
{
    int best = 0;
    for (int k = 1; k < n; k++)
        if (rng_mix(7, (uint64_t)encode_action(legal[k])) > rng_mix(7, (uint64_t)encode_action(legal[best]))) best = k;
    return best;
}

/* Samples from random games: target the favourite action. */
static void collect(PolicyData *d, const PolicyTrainOptions *o, int games, uint64_t seed)
{
    char err[ERR_LEN];
    Rng rng;
    rng_seed(&rng, seed, 0);
    for (int g = 0; g < games; g++) {
        Position p;
        pos_start(&p, VARIANT_STANDARD);
        for (int ply = 0; ply < 60 && !pos_outcome(&p, NULL, NULL); ply++) {
            Action legal[MAX_ACTIONS];
            float t[MAX_ACTIONS] = {0};
            int n = movegen_all(&p, legal);
            t[favourite(legal, n)] = 1;
            cr_assert_eq(policy_collect(d, o, (uint64_t)g, &p, legal, n, t, err), 0, "%s", err);
            Undo u;
            pos_make(&p, legal[rng_below(&rng, (uint32_t)n)], &u);
        }
    }
}

Test(leaf, direct_head_trains_and_round_trips, .timeout = 120)
{
    PolicyTrainOptions o;
    policy_train_options_default(&o);
    o.epochs = 5;
    o.lr = 0.02;
    o.val_frac = 0.3;
    o.symmetries = true;
    PolicyData d = {.net = patterns32(), .width = 2 * nnue_hidden(patterns32()), .direct = true};
    collect(&d, &o, 30, 5);
    cr_assert_not_null(d.pos, "symmetries keep the positions");
    /* with symmetries: the same file twice, another than without them */
    uint8_t *s1, *s2;
    size_t sl1, sl2;
    PolicyEpoch base, start, final;
    char err[ERR_LEN];
    cr_assert_eq(policy_train(&d, &o, "test", NULL, NULL, &s1, &sl1, &base, &start, &final, err), 0, "%s", err);
    cr_assert_eq(policy_train(&d, &o, "test", NULL, NULL, &s2, &sl2, &base, &start, &final, err), 0, "%s", err);
    cr_assert(sl1 == sl2 && !memcmp(s1, s2, sl1), "with symmetries: the same samples and seed, the same file");
    /* the rule is not symmetric: it is learnt from the positions as they are */
    o.symmetries = false;
    uint8_t *b1, *b2;
    size_t l1, l2;
    cr_assert_eq(policy_train(&d, &o, "test", NULL, NULL, &b1, &l1, &base, &start, &final, err), 0, "%s", err);
    cr_assert(sl1 == l1 && memcmp(s1, b1, l1), "symmetries changed the head");
    free(s1);
    free(s2);
    cr_assert(isnan(start.val_loss), "patterns32 has no direct head to start from");
    /* uniform priors: the cross-entropy of the favourite is log n on average */
    cr_assert(base.val_loss > 3);
    cr_assert(final.val_loss < base.val_loss - 0.3, "%f against %f", final.val_loss, base.val_loss);
    cr_assert(final.val_top1 > base.val_top1 + 0.2, "top-1 %.3f against %.3f", final.val_top1, base.val_top1);
    cr_assert_eq(policy_train(&d, &o, "test", NULL, NULL, &b2, &l2, &base, &start, &final, err), 0, "%s", err);
    cr_assert(l1 == l2 && !memcmp(b1, b2, l1), "the same samples and seed, the same file");
    Nnue *net = decode(b1, l1);
    cr_assert(nnue_policy_direct(net));
    Position p;
    pos_start(&p, VARIANT_STANDARD);
    cr_assert_eq(nnue_evaluate(net, &p), nnue_evaluate(patterns32(), &p), "the value net is unchanged");
    /* a warm start from it with no epoch writes the same head */
    PolicyData warm = d;
    warm.net = net;
    PolicyTrainOptions none = o;
    none.epochs = 0;
    uint8_t *b3;
    size_t l3;
    PolicyEpoch s3, f3;
    cr_assert_eq(policy_train(&warm, &none, "test", NULL, NULL, &b3, &l3, &base, &s3, &f3, err), 0, "%s", err);
    cr_assert_float_eq(s3.val_loss, final.val_loss, 1e-9, "the warm start's head before is the trained one");
    size_t tail = 4 * (size_t)ENCODE_ACTIONS + 2 * (size_t)ENCODE_ACTIONS * (size_t)d.width;
    cr_assert(l3 == l1 && !memcmp(b3 + l3 - tail, b1 + l1 - tail, tail), "a warm start moved the head");
    free(b3);
    /* the head from another net (head_from: the loop's previous round) on
     * a value net without one: the same head */
    PolicyData other = d;
    other.net = patterns32();
    none.head_from = net;
    cr_assert_eq(policy_train(&other, &none, "test", NULL, NULL, &b3, &l3, &base, &s3, &f3, err), 0, "%s", err);
    cr_assert_float_eq(s3.val_loss, final.val_loss, 1e-9);
    cr_assert(l3 == l1 && !memcmp(b3 + l3 - tail, b1 + l1 - tail, tail), "head_from did not start the head");
    none.head_from = NULL;
    /* symmetries without a direct head are refused */
    PolicyData plain = d;
    plain.direct = false;
    o.symmetries = true;
    cr_assert_neq(policy_train(&plain, &o, "test", NULL, NULL, &b3, &l3, &base, &s3, &f3, err), 0);
    cr_assert(strstr(err, "direct head"), "%s", err);
    nnue_free(net);
    free(b1);
    free(b2);
    free(b3);
    policy_data_free(&d);
}

/* Augmentation maps the position and its policy target together: in
 * symmetry s, the sample's actions become the image's legal actions (as a
 * set: every one, once), each keeping its share; the hidden layer is the
 * image position's; and the image's planes are the position's with each
 * cell moved to its image. */
Test(leaf, symmetries_map_planes_and_policy_targets_together)
{
    PolicyTrainOptions o;
    policy_train_options_default(&o);
    o.symmetries = true;
    o.val_frac = 0;
    PolicyData d = {.net = patterns32(), .width = 2 * nnue_hidden(patterns32()), .direct = true};
    char err[ERR_LEN];
    enum { N = 30 };
    Position ps[N];
    random_positions(8, ps, N);
    Rng rng;
    rng_seed(&rng, 2, 0);
    float targets[N][MAX_ACTIONS];
    for (int i = 0; i < N; i++) {
        Action legal[MAX_ACTIONS];
        int n = movegen_all(&ps[i], legal);
        float sum = 0;
        for (int k = 0; k < n; k++) sum += targets[i][k] = (float)rng_double(&rng);
        for (int k = 0; k < n; k++) targets[i][k] /= sum;
        cr_assert_eq(policy_collect(&d, &o, (uint64_t)i, &ps[i], legal, n, targets[i], err), 0, "%s", err);
    }
    for (size_t k = 0; k < d.count; k++) {
        const Position *p = &d.pos[k];
        for (int s = 0; s < ENCODE_SYMMETRIES; s++) {
            Position img;
            encode_sym_position(p, s, &img);
            alignas(32) int16_t h[2 * NNUE_MAX_HIDDEN], want[2 * NNUE_MAX_HIDDEN];
            int idx[MAX_ACTIONS];
            policy_sample_sym(&d, k, s, h, idx);
            nnue_policy_hidden(d.net, &img, want);
            cr_assert(!memcmp(h, want, (size_t)d.width * sizeof *h), "sample %zu, symmetry %d: hidden layer", k, s);
            /* the image's dense target: each share at its action's image */
            uint8_t mask[ENCODE_ACTIONS];
            float dense[ENCODE_ACTIONS] = {0}, orig[ENCODE_ACTIONS] = {0};
            int n = encode_mask(&img, mask);
            cr_assert_eq(n, d.n[k]);
            for (int i = 0; i < n; i++) {
                cr_assert(mask[idx[i]], "sample %zu, symmetry %d: action %d is not legal in the image", k, s, i);
                cr_assert_eq(dense[idx[i]], 0, "two actions on one image");
                dense[idx[i]] = d.target[d.off[k] + (size_t)i];
                orig[d.idx[d.off[k] + (size_t)i]] = d.target[d.off[k] + (size_t)i];
            }
            for (int a = 0; a < ENCODE_ACTIONS; a++)
                cr_assert_eq(dense[encode_sym_action(s, a)], orig[a], "the share of action %d", a);
            /* the planes move with it */
            uint8_t pl[ENCODE_SIZE], pi[ENCODE_SIZE];
            encode_planes_raw(p, ENCODE_VIEW_ACTOR, pl);
            encode_planes_raw(&img, ENCODE_VIEW_ACTOR, pi);
            for (int q = 0; q < ENCODE_PLANES; q++)
                for (int c = 0; c < ENCODE_CELLS; c++)
                    cr_assert_eq(pi[q * ENCODE_CELLS + encode_sym_cell(s, c)], pl[q * ENCODE_CELLS + c]);
        }
    }
    policy_data_free(&d);
}
