#define _GNU_SOURCE /* nftw, in test_proc.h */
/* The net's trainer (eval/nnue_train.h, `yinsh train`): the same data and
 * seed give the same net, on 1 and on 2 threads; a trainer stopped
 * mid-epoch, saved and resumed gives the net of one never stopped;
 * repeated games count once; root values as targets; a warm start, data
 * cut to size, quiet positions only, a linear and a pattern part trained;
 * `yinsh train` twice gives the same file, and killed (-9) and resumed
 * gives the file of an uninterrupted run; bad command lines. */
#include <math.h>
#include <signal.h>
#include "engine/movegen.h"
#include "eval/evaluation.h"
#include "eval/nnue.h"
#include "eval/nnue_train.h"
#include "study/positions/train_load.h"
#include "tests/nnue_helpers.h"

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
