/* Better priors for the one-evaluation leaf (issue 55, eval/policy_train.h):
 * the child-value targets (the softmax of the value net's settled logits
 * of a position's children) against a computation from scratch out of
 * nnue_evaluate, at two temperatures and through the collector; the
 * joint loss's gradient (policy cross-entropy and the value's log-loss
 * back through the head, the value output and the first layer, in a
 * symmetry) against central finite differences; joint training and the
 * child-target mix end to end: deterministic, learning, a file whose
 * trunk moved and whose figures are the decoded net's; `yinsh train
 * --policy` with the new options, and its refusals of options that do
 * not go together (exit 2, the option named, no file written). */
#define _GNU_SOURCE /* nftw, in test_proc.h */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/base/rng.h"
#include "engine/encode/encode.h"
#include "engine/movegen.h"
#include "eval/nnue_policy.h"
#include "eval/policy_train.h"
#include "tests/test_proc.h"

static const Nnue *patterns32(void)
{
    static Nnue *net;
    char err[ERR_LEN];
    if (!net) cr_assert_eq(nnue_load(&net, "eval/nets/patterns32.nnue", err), 0, "%s", err);
    return net;
}

/* White's settled logit of pos from scratch: each position judged by
 * nnue_evaluate alone (no accumulator kept), removals settled by the one
 * who removes, to at most depth removals (eval/nnue_policy.h). */
static double settled(const Nnue *net, const Position *pos, int depth)
{
    int result;
    if (pos_outcome(pos, &result, NULL))
        return result == RESULT_DRAW ? 0 : result == RESULT_WHITE ? NNUE_TERMINAL_LOGIT : -NNUE_TERMINAL_LOGIT;
    double sign = pos->actor == WHITE ? 1 : -1;
    if (depth == 0 || pos->state == STATE_P || pos->state == STATE_M)
        return sign * nnue_logit(net, nnue_evaluate(net, pos));
    Action list[MAX_ACTIONS];
    int n = movegen_all(pos, list);
    double best = -INFINITY;
    for (int i = 0; i < n; i++) {
        Position next = *pos;
        Undo u;
        pos_make(&next, list[i], &u);
        double v = sign * settled(net, &next, depth - 1);
        best = v > best ? v : best;
    }
    return sign * best;
}

/* Positions of random games, removal states among them. */
static int random_positions(uint64_t seed, Position *out, int want)
{
    Rng rng;
    rng_seed(&rng, seed, 0);
    int k = 0;
    while (k < want) {
        Position p;
        pos_start(&p, VARIANT_STANDARD);
        for (int ply = 0; ply < 120 && k < want && !pos_outcome(&p, NULL, NULL); ply++) {
            Action legal[MAX_ACTIONS];
            int n = movegen_all(&p, legal);
            if (n > 1 && rng_below(&rng, 4) == 0) out[k++] = p;
            Undo u;
            pos_make(&p, legal[rng_below(&rng, (uint32_t)n)], &u);
        }
    }
    return k;
}

Test(distill, child_targets_equal_a_computation_from_scratch, .timeout = 120)
{
    enum { N = 60 };
    Position ps[N];
    random_positions(11, ps, N);
    const Nnue *net = patterns32();
    int removals = 0;
    for (int tcase = 0; tcase < 2; tcase++) {
        double temp = tcase ? 0.5 : 1;
        PolicyTrainOptions o;
        policy_train_options_default(&o);
        o.child_temp = temp;
        PolicyData d = {.net = net, .width = 2 * nnue_hidden(net), .direct = true};
        char err[ERR_LEN];
        for (int i = 0; i < N; i++) {
            Action legal[MAX_ACTIONS];
            int n = movegen_all(&ps[i], legal);
            removals += tcase == 0 && ps[i].state != STATE_P && ps[i].state != STATE_M;
            double l[MAX_ACTIONS], top = -INFINITY, sum = 0;
            double sign = ps[i].actor == WHITE ? 1 : -1;
            for (int k = 0; k < n; k++) {
                Position next = ps[i];
                Undo u;
                pos_make(&next, legal[k], &u);
                l[k] = sign * settled(net, &next, NNUE_SETTLE_DEPTH - 1) / temp;
                top = l[k] > top ? l[k] : top;
            }
            for (int k = 0; k < n; k++) sum += (l[k] = exp(l[k] - top));
            float t[MAX_ACTIONS], uniform[MAX_ACTIONS];
            policy_child_target(net, &ps[i], legal, n, temp, t);
            for (int k = 0; k < n; k++) {
                cr_assert_float_eq(t[k], l[k] / sum, 1e-6, "position %d, action %d, T %g: %g against %g", i, k, temp,
                                   t[k], l[k] / sum);
                uniform[k] = 1.0f / (float)n;
            }
            /* the collector holds the same, beside the stored target */
            size_t before = d.acts;
            cr_assert_eq(policy_collect(&d, &o, (uint64_t)i, &ps[i], legal, n, uniform, err), 0, "%s", err);
            for (int k = 0; k < n; k++) cr_assert_eq(d.ctarget[before + (size_t)k], t[k]);
            cr_assert_eq(d.target[before], uniform[0]);
        }
        cr_assert_not_null(d.pos, "child targets keep the positions (the figures from scratch read them)");
        policy_data_free(&d);
    }
    cr_assert(removals > 0, "no removal state among the positions: the settling untested");
}

/* patterns32 with a small random direct head: a joint net. */
static void joint_of(PolicyJointNet *j, uint64_t seed)
{
    char err[ERR_LEN];
    cr_assert_eq(policy_joint_init(j, 0, patterns32(), NULL, err), 0, "%s", err);
    Rng rng;
    rng_seed(&rng, seed, 0);
    size_t nw = (size_t)ENCODE_ACTIONS * 2 * (size_t)j->hidden;
    for (size_t i = 0; i < nw; i++) j->w[i] = (float)(rng_double(&rng) - 0.5);
    for (int i = 0; i < ENCODE_ACTIONS; i++) j->b[i] = (float)(rng_double(&rng) - 0.5);
}

/* Central finite differences of the joint loss in parameter x against
 * the gradient g. */
static void check_param(const PolicyData *d, PolicyJointNet *j, size_t k, int s, const float *t, float *x,
                        float gx, const char *what)
{
    float keep = *x;
    double eps = 1e-3;
    *x = (float)(keep + eps);
    double up = *x - keep, lp = policy_joint_sample(d, j, k, s, t, 0.7, 1, NULL, NULL);
    *x = (float)(keep - eps);
    double down = keep - *x, lm = policy_joint_sample(d, j, k, s, t, 0.7, 1, NULL, NULL);
    *x = keep;
    double fd = (lp - lm) / (up + down);
    cr_assert(fabs(fd - gx) <= 2e-3 + 0.02 * fabs(fd), "%s: finite differences %.6f, gradient %.6f", what, fd, gx);
}

Test(distill, joint_gradient_equals_finite_differences, .timeout = 120)
{
    const Nnue *net = patterns32();
    PolicyTrainOptions o;
    policy_train_options_default(&o);
    o.joint = 0.7;
    o.val_frac = 0;
    PolicyData d = {.net = net, .width = 2 * nnue_hidden(net), .direct = true};
    char err[ERR_LEN];
    enum { N = 12 };
    Position ps[N];
    random_positions(21, ps, N);
    Rng rng;
    rng_seed(&rng, 3, 0);
    float targets[N][MAX_ACTIONS];
    for (int i = 0; i < N; i++) {
        Action legal[MAX_ACTIONS];
        int n = movegen_all(&ps[i], legal);
        float sum = 0;
        for (int k = 0; k < n; k++) sum += targets[i][k] = (float)rng_double(&rng);
        for (int k = 0; k < n; k++) targets[i][k] /= sum;
        cr_assert_eq(policy_collect_full(&d, &o, (uint64_t)i, &ps[i], legal, n, targets[i], true, 0.3 + 0.04 * i, err),
                     0, "%s", err);
    }
    PolicyJointNet j, g;
    joint_of(&j, 5);
    cr_assert_eq(policy_joint_init(&g, j.hidden, NULL, NULL, err), 0, "%s", err);
    int checked = 0;
    for (size_t k = 0; k < d.count; k++) {
        int s = (int)(k % ENCODE_SYMMETRIES);
        const float *t = d.target + d.off[k];
        memset(g.w1, 0, g.n * sizeof *g.w1);
        double vl;
        policy_joint_sample(&d, &j, k, s, t, 0.7, 1, &g, &vl);
        cr_assert(!isnan(vl), "a value target was given");
        /* the value output, the first layer's bias and a row of each
         * perspective's active inputs, the head's rows of two actions */
        check_param(&d, &j, k, s, t, j.b2, g.b2[0], "b2");
        for (int q = 0; q < 2 * j.hidden; q += 7) check_param(&d, &j, k, s, t, j.w2 + q, g.w2[q], "w2");
        for (int q = 0; q < j.hidden; q += 5) check_param(&d, &j, k, s, t, j.b1 + q, g.b1[q], "b1");
        Position img;
        encode_sym_position(&d.pos[k], s, &img);
        for (int half = 0; half < 2; half++) {
            uint16_t rows[NNUE_MAX_ACTIVE];
            int nr = nnue_features(&img, half ? img.actor ^ 1 : img.actor, rows);
            size_t at = (size_t)rows[nr / 2] * (size_t)j.hidden;
            for (int q = 0; q < j.hidden; q += 3) check_param(&d, &j, k, s, t, j.w1 + at + q, g.w1[at + q], "w1");
        }
        for (int i = 0; i < 2; i++) {
            int idx = encode_sym_action(s, d.idx[d.off[k] + (size_t)i]);
            size_t at = (size_t)idx * 2 * (size_t)j.hidden;
            check_param(&d, &j, k, s, t, j.b + idx, g.b[idx], "b");
            for (int q = 0; q < 2 * j.hidden; q += 9) check_param(&d, &j, k, s, t, j.w + at + q, g.w[at + q], "w");
        }
        checked++;
    }
    cr_assert_eq(checked, N);
    policy_joint_free(&j);
    policy_joint_free(&g);
    policy_data_free(&d);
}

/* Samples from random games: the stored target the favourite action (a
 * fixed rule), the value target the result of a fixed rule too. */
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
            int n = movegen_all(&p, legal), fav = 0;
            for (int k = 1; k < n; k++)
                if (rng_mix(7, (uint64_t)encode_action(legal[k])) > rng_mix(7, (uint64_t)encode_action(legal[fav])))
                    fav = k;
            t[fav] = 1;
            double vt = p.state == STATE_P || p.state == STATE_M ? (p.actor == WHITE ? 0.8 : 0.2) : NAN;
            cr_assert_eq(policy_collect_full(d, o, (uint64_t)g, &p, legal, n, t, true, vt, err), 0, "%s", err);
            Undo u;
            pos_make(&p, legal[rng_below(&rng, (uint32_t)n)], &u);
        }
    }
}

Test(distill, joint_training_learns_and_writes_the_net_it_measures, .timeout = 240)
{
    const Nnue *net = patterns32();
    PolicyTrainOptions o;
    policy_train_options_default(&o);
    o.epochs = 3;
    o.lr = 0.02;
    o.val_frac = 0.3;
    o.joint = 1;
    o.trunk_lr = 0.002;
    o.symmetries = true;
    o.child_temp = 1;
    PolicyData d = {.net = net, .width = 2 * nnue_hidden(net), .direct = true};
    collect(&d, &o, 20, 9);
    uint8_t *b1, *b2;
    size_t l1, l2;
    PolicyEpoch base, start, final;
    char err[ERR_LEN];
    cr_assert_eq(policy_train(&d, &o, "test", NULL, NULL, &b1, &l1, &base, &start, &final, err), 0, "%s", err);
    cr_assert_eq(policy_train(&d, &o, "test", NULL, NULL, &b2, &l2, &base, &start, &final, err), 0, "%s", err);
    cr_assert(l1 == l2 && !memcmp(b1, b2, l1), "the same samples and seed, the same file");
    cr_assert(final.val_loss < base.val_loss - 0.3, "%f against %f", final.val_loss, base.val_loss);
    cr_assert(final.val_value < start.val_value, "value %f against %f before", final.val_value, start.val_value);
    cr_assert(!isnan(final.val_loss_child) && !isnan(base.val_loss_child));
    Nnue *out;
    cr_assert_eq(nnue_decode(&out, b1, l1, "joint", err), 0, "%s", err);
    cr_assert(nnue_policy_direct(out));
    Position p;
    pos_start(&p, VARIANT_STANDARD);
    cr_assert_neq(nnue_evaluate(out, &p), nnue_evaluate(net, &p), "the trunk and value output moved");
    PolicyEpoch again;
    policy_measure_net(&d, out, &again);
    cr_assert_eq(again.val_loss, final.val_loss, "the figures are the written net's");
    cr_assert_eq(again.val_value, final.val_value);
    /* a net with a second layer is refused, naming why */
    PolicyJointNet j;
    Nnue *deep;
    cr_assert_eq(nnue_load(&deep, "eval/nets/default.nnue", err), 0, "%s", err);
    cr_assert_neq(policy_joint_init(&j, 0, deep, NULL, err), 0);
    cr_assert(strstr(err, "second layer"), "%s", err);
    nnue_free(deep);
    /* without kept positions joint training is refused */
    PolicyData plain = d;
    plain.pos = NULL;
    cr_assert_neq(policy_train(&plain, &o, "test", NULL, NULL, &b2, &l2, &base, &start, &final, err), 0);
    nnue_free(out);
    free(b1);
    free(b2);
    policy_data_free(&d);
}

Test(distill, child_mix_trains_towards_the_child_targets, .timeout = 240)
{
    const Nnue *net = patterns32();
    PolicyTrainOptions o;
    policy_train_options_default(&o);
    o.epochs = 4;
    o.lr = 0.02;
    o.val_frac = 0.3;
    o.child_temp = 1;
    PolicyData d = {.net = net, .width = 2 * nnue_hidden(net), .direct = true};
    collect(&d, &o, 20, 13);
    uint8_t *b;
    size_t l;
    PolicyEpoch base, start, stored, child;
    char err[ERR_LEN];
    cr_assert_eq(policy_train(&d, &o, "test", NULL, NULL, &b, &l, &base, &start, &stored, err), 0, "%s", err);
    free(b);
    o.child_mix = 1;
    cr_assert_eq(policy_train(&d, &o, "test", NULL, NULL, &b, &l, &base, &start, &child, err), 0, "%s", err);
    free(b);
    cr_assert(child.val_loss_child < stored.val_loss_child, "child %f, stored %f", child.val_loss_child,
              stored.val_loss_child);
    cr_assert(stored.val_loss < child.val_loss, "stored target: %f, child %f", stored.val_loss, child.val_loss);
    /* a mix without child targets is refused */
    PolicyData none = d;
    none.ctarget = NULL;
    cr_assert_neq(policy_train(&none, &o, "test", NULL, NULL, &b, &l, &base, &start, &child, err), 0);
    cr_assert(strstr(err, "child"), "%s", err);
    policy_data_free(&d);
}

/* Widening keeps the net: the old units as they were, the new ones'
 * output weights 0, so the value's logit and the priors of every sample
 * are those before; and a width that is not a multiple of 16 is refused. */
Test(distill, widening_keeps_the_value_and_the_priors, .timeout = 120)
{
    const Nnue *net = patterns32();
    PolicyTrainOptions o;
    policy_train_options_default(&o);
    o.joint = 1;
    o.val_frac = 0;
    PolicyData d = {.net = net, .width = 2 * nnue_hidden(net), .direct = true};
    collect(&d, &o, 2, 17);
    PolicyJointNet j, w;
    char err[ERR_LEN];
    joint_of(&j, 8);
    joint_of(&w, 8);
    cr_assert_eq(policy_joint_widen(&w, 64, 3, err), 0, "%s", err);
    cr_assert_eq(w.hidden, 64);
    for (size_t k = 0; k < d.count; k++) {
        const float *t = d.target + d.off[k];
        double v1, v2;
        double l1 = policy_joint_sample(&d, &j, k, 0, t, 1, 1, NULL, &v1);
        double l2 = policy_joint_sample(&d, &w, k, 0, t, 1, 1, NULL, &v2);
        cr_assert_float_eq(l1, l2, 1e-9, "sample %zu: loss %f against %f", k, l2, l1);
        if (!isnan(v1)) cr_assert_float_eq(v1, v2, 1e-9);
    }
    cr_assert_neq(policy_joint_widen(&w, 72, 3, err), 0);
    cr_assert(strstr(err, "multiple of 16"), "%s", err);
    policy_joint_free(&j);
    policy_joint_free(&w);
    policy_data_free(&d);
}

Test(distill, the_command_trains_jointly_and_refuses_what_does_not_go_together, .timeout = 240)
{
    char *dir = tmpdir_new();
    char *out, *err;
    cr_assert_eq(yinsh_run(dir, ARGS("selfplay", "--games", "12", "--agent", "mcts:sims=20", "--seed", "11", "--db",
                                     "t.db", "--run", "small", "--quiet", "--threads", "1"),
                           &out, &err),
                 0, "%s", err);
    const char *db = path_in(dir, "t.db");
    const char *init = YINSH_SOURCE_DIR "/eval/nets/leaf-loop9.nnue";
    int rc = yinsh_run(dir, ARGS("train", "--policy", "--db", db, "--init", init, "--out", "j.nnue", "--symmetries",
                                 "--child-temp", "0.1674", "--child-mix", "1", "--reduced-too", "--joint", "4",
                                 "--widen", "48", "--epochs", "1", "--val", "0.5", "--quiet"),
                       &out, &err);
    cr_assert_eq(rc, 0, "%s", err);
    cr_assert(strstr(out, "child values at T 0.1674 as priors"), "%s", out);
    cr_assert(strstr(out, "the quantised joint net") && strstr(out, "value log-loss"), "%s", out);
    cr_assert(strstr(out, "(32 hidden a side, widened to 48)"), "the summary names the widened width: %s", out);
    Nnue *net;
    char e[ERR_LEN];
    cr_assert_eq(nnue_load(&net, path_in(dir, "j.nnue"), e), 0, "%s", e);
    cr_assert_eq(nnue_hidden(net), 48);
    cr_assert(nnue_policy_direct(net));
    cr_assert(strstr(nnue_description(net), "--joint 4") && strstr(nnue_description(net), "--widen 48"), "%s",
              nnue_description(net));
    nnue_free(net);
    struct {
        const char *const *args;
        const char *says;
    } bad[] = {
        {ARGS("train", "--policy", "--db", db, "--init", init, "--out", "x.nnue", "--child-mix", "1"), "--child-temp"},
        {ARGS("train", "--policy", "--db", db, "--init", init, "--out", "x.nnue", "--child-temp", "1", "--reduced-too"),
         "--reduced-too"},
        {ARGS("train", "--policy", "--db", db, "--init", YINSH_SOURCE_DIR "/eval/nets/patterns32.nnue", "--out",
              "x.nnue", "--joint", "1"),
         "direct head"},
        {ARGS("train", "--policy", "--db", db, "--init", init, "--out", "x.nnue", "--widen", "64"), "--joint"},
        {ARGS("train", "--policy", "--db", db, "--init", init, "--out", "x.nnue", "--joint", "1", "--widen", "40"),
         "multiple of 16"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_assert_eq(yinsh_run(dir, bad[i].args, &out, &err), 2, "case %zu: %s", i, err);
        cr_assert(strstr(err, bad[i].says), "case %zu: %s", i, err);
        cr_assert(!file_exists(path_in(dir, "x.nnue")), "case %zu wrote a file", i);
    }
}

/* --head-from (issue 55): `yinsh train --init` of a set-5 net leaves its
 * head aside; the head trained on the new value net then starts from the
 * old net's head (its figures before training are given), and a net
 * without a head, or of another width, is refused by name. */
Test(distill, the_head_starts_from_another_nets_head, .timeout = 240)
{
    char *dir = tmpdir_new();
    char *out, *err;
    cr_assert_eq(yinsh_run(dir, ARGS("selfplay", "--games", "12", "--agent", "mcts:sims=20", "--seed", "12", "--db",
                                     "t.db", "--run", "small", "--quiet", "--threads", "1"),
                           &out, &err),
                 0, "%s", err);
    const char *db = path_in(dir, "t.db");
    const char *loop9 = YINSH_SOURCE_DIR "/eval/nets/leaf-loop9.nnue";
    cr_assert_eq(yinsh_run(dir, ARGS("train", "--db", db, "--init", loop9, "--out", "v.nnue", "--epochs", "1",
                                     "--threads", "1", "--val", "0.5", "--quiet"),
                           &out, &err),
                 0, "%s", err);
    Nnue *net;
    char e[ERR_LEN];
    cr_assert_eq(nnue_load(&net, path_in(dir, "v.nnue"), e), 0, "%s", e);
    cr_assert(!nnue_policy_direct(net), "the value trainer kept a head");
    nnue_free(net);
    const char *v = path_in(dir, "v.nnue");
    /* a value net of 16 hidden units a side, for a head of another width */
    cr_assert_eq(yinsh_run(dir, ARGS("train", "--db", db, "--hidden", "16", "--linear",
                                     YINSH_SOURCE_DIR "/eval/weights/tuned3.txt", "--patterns", "--out", "v16.nnue",
                                     "--epochs", "1", "--threads", "1", "--val", "0.5", "--quiet"),
                           &out, &err),
                 0, "%s", err);
    /* without it: a head from zeros, no figures of a head before */
    cr_assert_eq(yinsh_run(dir, ARGS("train", "--policy", "--direct", "--db", db, "--init", v, "--out", "z.nnue",
                                     "--epochs", "1", "--val", "0.5", "--quiet"),
                           &out, &err),
                 0, "%s", err);
    cr_assert(!strstr(out, "head before"), "%s", out);
    cr_assert_eq(yinsh_run(dir, ARGS("train", "--policy", "--db", db, "--init", v, "--head-from", loop9, "--out",
                                     "h.nnue", "--epochs", "1", "--val", "0.5", "--quiet"),
                           &out, &err),
                 0, "%s", err);
    cr_assert(strstr(out, "the net's head before (warm start)"), "%s", out);
    cr_assert_eq(nnue_load(&net, path_in(dir, "h.nnue"), e), 0, "%s", e);
    cr_assert(nnue_policy_direct(net), "--head-from a direct head makes a direct one");
    cr_assert(strstr(nnue_description(net), "--head-from 65c57605a4acf310"), "%s", nnue_description(net));
    nnue_free(net);
    struct {
        const char *const *args;
        const char *says;
    } bad[] = {
        {ARGS("train", "--policy", "--db", db, "--init", v, "--out", "x.nnue", "--head-from",
              YINSH_SOURCE_DIR "/eval/nets/patterns32.nnue"),
         "no policy head"},
        {ARGS("train", "--policy", "--direct", "--db", db, "--init", v, "--out", "x.nnue", "--head-from",
              YINSH_SOURCE_DIR "/eval/nets/pv32.nnue"),
         "not direct"},
        {ARGS("train", "--policy", "--db", db, "--init", path_in(dir, "v16.nnue"), "--out", "x.nnue", "--head-from",
              loop9),
         "32 hidden units a side, the --init net has 16"},
        {ARGS("train", "--policy", "--db", db, "--init", v, "--out", "x.nnue", "--head-from", path_in(dir, "none.nnue")),
         "--head-from"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_assert_neq(yinsh_run(dir, bad[i].args, &out, &err), 0, "case %zu", i);
        cr_assert(strstr(err, bad[i].says), "case %zu: %s", i, err);
        cr_assert(!file_exists(path_in(dir, "x.nnue")), "case %zu wrote a file", i);
    }
}
