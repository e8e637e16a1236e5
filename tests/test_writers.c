/* The writers of results that moved out of cli/ into their libraries
 * (issue 60): each called directly, on figures made up here, writes the
 * text `yinsh` printed before the move. The expected texts were computed
 * apart from the code (Python's printf, or the output of the yinsh built
 * before the move: the board), so a change to a format shows here. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/board_text.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "engine/record_replay.h"
#include "eval/train_summary.h"
#include "eval/tune_report.h"
#include "selfplay/play/bench_json.h"
#include "selfplay/play/bench_text.h"
#include "selfplay/play/run_summary.h"
#include "study/plans/loop.h"
#include "study/plans/rounds_text.h"
#include "study/plans/spsa_text.h"
#include "study/viewer/view_site.h"

/* A stream into memory: open with mem_open, read with mem_text (the
 * text, freed by mem_free). */
typedef struct Mem {
    char *text;
    size_t len;
    FILE *f;
} Mem;

static FILE *mem_open(Mem *m)
{
    *m = (Mem){0};
    m->f = open_memstream(&m->text, &m->len);
    cr_assert(m->f);
    return m->f;
}

static const char *mem_text(Mem *m)
{
    fclose(m->f);
    m->f = NULL;
    return m->text;
}

static void mem_free(Mem *m) { free(m->text); }

#define EXPECT_TEXT(got, want) cr_expect_str_eq(got, want, "got:\n%s\nwant:\n%s", got, want)

static const char BOARD_YPN[] = "1b2/1Wb2b1/2ww2bb/3ww2bB/b1bwb1B1b1/b1bw3ww/wwbb1WWbb1/1w2ww1w1/wb2wbb1/www1wbw/wbbw b - standard";
static const char BOARD_TEXT[] =
    "    a   b   c   d   e   f   g   h   i   j   k\n"
    "\n"
    "                 10 .    11 .\n"
    "              9 B       w       .\n"
    "          8 b       b       b       .\n"
    "      7 .       b       w       w       w\n"
    "            b       .       b       b\n"
    "      6 b       .       .       .       b\n"
    "  5 .       .       B       W       b       w\n"
    "        .       .       .       w       w\n"
    "  4 .       .       .       W       w       b\n"
    "        .       w       .       w       .\n"
    "  3 b       w       b       .       .       b\n"
    "        b       w       w       .       w\n"
    "  2 .       w       w       b       .       w\n"
    "        W       .       b       .       w\n"
    "            .       b       b       b\n"
    "      1 .       .       .       w       w\n"
    "            .       .       w       w\n"
    "                .       b       .\n"
    "                    b       w\n"
    "\n"
    "    a   b   c   d   e   f   g   h   i   j   k\n"
    "\n"
    "W/B rings, w/b markers, . empty\n"
    "Black acted last: game over, standard variant; rings removed: white 2, black 3; markers in pool: 6\n"
    "result: black (three-rings)\n";

/* `yinsh show`'s drawing of a finished game (game 3 of a seeded random
 * self-play run), as the yinsh before the move drew it. */
Test(writers, board_text)
{
    Position pos;
    char err[ERR_LEN];
    cr_assert_eq(ypn_parse(BOARD_YPN, &pos, err), 0, "%s", err);
    Mem m;
    board_text_draw(&pos, mem_open(&m));
    board_text_describe(&pos, m.f);
    EXPECT_TEXT(mem_text(&m), BOARD_TEXT);
    mem_free(&m);
}

/* perft --divide from the empty start: 85 placements, 84 after each. */
Test(writers, perft_divide)
{
    Position pos;
    pos_start(&pos, VARIANT_STANDARD);
    Mem m;
    uint64_t total = perft_divide(&pos, 2, mem_open(&m));
    const char *text = mem_text(&m);
    cr_expect_eq(total, 85 * 84);
    int lines = 0;
    for (const char *p = text; *p; p++) lines += *p == '\n';
    cr_expect_eq(lines, 85);
    cr_expect(!strncmp(text, "a2 84\n", 6), "first line: %.20s", text);
    mem_free(&m);
}

/* A tagged record whose Actions tag is wrong: where (its run and game)
 * and why, without the engine's "record: " prefix; the first record of a
 * stream is written before the second fails. */
Test(writers, record_replay)
{
    const char good[] = "[Run \"a\"]\n[Index \"3\"]\n4/7/8/9/10/9/10/9/8/7/4 w P standard\ne5\n";
    const char bad[] = "[Run \"a\"]\n[Index \"3\"]\n[Actions \"2\"]\n4/7/8/9/10/9/10/9/8/7/4 w P standard\ne5\n";
    char err[ERR_LEN], two[512];
    RecordReplay r;
    Mem m;
    cr_assert_eq(record_replay(good, strlen(good), mem_open(&m), &r, err), 0, "%s", err);
    EXPECT_TEXT(mem_text(&m), "4/7/8/9/4W5/9/10/9/8/7/4 b P standard\n"
                              "actions 1 result none (game not over)\n"
                              "records 1: every action legal; stored results as replayed: 0\n");
    mem_free(&m);
    cr_expect_eq(record_replay(bad, strlen(bad), mem_open(&m), &r, err), -1);
    EXPECT_TEXT(mem_text(&m), "");
    mem_free(&m);
    cr_expect_str_eq(r.where, "record 1 (run a, game 3)");
    cr_expect_str_eq(err, "the record says 2 actions, it holds 1");
    snprintf(two, sizeof two, "%s%s", good, bad);
    cr_expect_eq(record_replay(two, strlen(two), mem_open(&m), &r, err), -1);
    EXPECT_TEXT(mem_text(&m), "4/7/8/9/4W5/9/10/9/8/7/4 b P standard\n"
                              "actions 1 result none (game not over)\n");
    mem_free(&m);
    cr_expect_eq(r.records, 2);
    cr_expect_str_eq(r.where, "record 2 (run a, game 3)");
    /* an untagged single record: the engine's message as it is */
    cr_expect_eq(record_replay("4/7/8/9/10/9/10/9/8/7/4 w P standard\nzz\n", 41, mem_open(&m), &r, err), -1);
    mem_text(&m);
    mem_free(&m);
    cr_expect_str_eq(r.where, "");
    cr_expect(!strncmp(err, "record: ", 8), "%s", err);
}

/* bench --ab's table: the EBF is positions on d over d-1, the swing the
 * mean over the searches that completed d, the last line over them all. */
Test(writers, bench_ab_text)
{
    BenchAb b = {.nodes = 1000, .hash = 0xabc, .seconds = 0.5, .positions = 2, .depth_sum = 6, .depth_min = 3,
                 .depth_max = 3, .completed = {0, 2, 2, 2}, .step = {0, 10, 40, 160}, .swing = {0, 0, 30, 50}};
    Mem m;
    bench_ab_text(mem_open(&m), &b, 7, "ab:depth=3", false, 0);
    EXPECT_TEXT(mem_text(&m),
        "ab: 2 positions (seed 7), agent ab:depth=3, fixed depth: 1000 positions, hash 0000000000000abc, 0.50 s\n"
        "ab: depth  searches  positions on it    EBF   mean |score(d)-score(d-1)|\n"
        "ab:     1         2               10\n"
        "ab:     2         2               40   4.00       15.0\n"
        "ab:     3         2              160   4.00       25.0\n"
        "ab: depth completed: mean 3.00 (min 3, max 3); swing over all depths 20.0; 2000 positions/s\n");
    mem_free(&m);
}

/* bench --json's playouts: "many_threads" null on one thread, else the
 * timing on T threads and whether the totals are the same. */
Test(writers, bench_playouts_json)
{
    BenchPlayouts one = {.totals = {.actions = 70, .results = {0, 3, 4, 1}}, .seconds = 0.5};
    BenchPlayouts many = one;
    many.seconds = 0.25;
    Mem m;
    Json j;
    json_begin(&j, mem_open(&m));
    bench_playouts_json(&j, 8, 1, &one, 1, NULL, true);
    json_end(&j);
    const char *text = mem_text(&m);
    cr_expect(strstr(text, "\"many_threads\": null"), "%s", text);
    cr_expect(strstr(text, "\"actions\": 70"), "%s", text);
    cr_expect(strstr(text, "\"games_per_s\": 16"), "%s", text);
    mem_free(&m);
    json_begin(&j, mem_open(&m));
    bench_playouts_json(&j, 8, 1, &one, 2, &many, false);
    json_end(&j);
    text = mem_text(&m);
    cr_expect(strstr(text, "\"speedup\": 2"), "%s", text);
    cr_expect(strstr(text, "\"totals_identical\": false"), "%s", text);
    mem_free(&m);
}

/* yinsh rounds' table: a round with validation losses and an interval,
 * one without either, and the best weights. */
Test(writers, rounds_table)
{
    Rounds r = {.from = "w0.txt", .rounds = 2};
    RoundRow rows[2] = {
        {.k = 1, .games = 100, .positions = 5000, .loss_before = {0.7, 0.69315}, .loss_after = {0.6, 0.6543},
         .tally = {.wins = 10, .draws = 5, .losses = 5}, .elo = {.lo = 5, .mid = 17.6, .hi = 30.2}, .gains = true,
         .weights = "d/r.1.txt"},
        {.k = 2, .games = 100, .positions = 5100, .loss_before = {0.7, NAN}, .loss_after = {0.6, NAN},
         .tally = {.wins = 5, .draws = 5, .losses = 10}, .elo = {.lo = 0, .mid = -0.0, .hi = 0}},
    };
    Mem m;
    rounds_table_write(mem_open(&m), &r, rows, 2, 1);
    EXPECT_TEXT(mem_text(&m),
        "round     games  positions  val log-loss           new W-D-L      Elo (95% CI)                 gains\n"
        "1           100       5000  0.69315 -> 0.65430     10-5-5         +17.6 (+5.0 to +30.2)        yes\n"
        "2           100       5100  - -> -                 5-5-10         +0.0 (no interval)           no\n"
        "best: d/r.1.txt (round 1)\n");
    mem_free(&m);
    rounds_table_write(mem_open(&m), &r, rows, 0, 0);
    cr_expect(strstr(mem_text(&m), "best: w0.txt (the start: round 1 did not gain)\n"));
    mem_free(&m);
}

/* The files of the rounds, the loop and SPSA, as the folder checks name them. */
Test(writers, files_written)
{
    Rounds r = {.name = "rr", .rounds = 3};
    cr_expect(rounds_writes_file("rr.csv", &r));
    cr_expect(rounds_writes_file("rr.3.txt", &r));
    cr_expect(!rounds_writes_file("rr.4.txt", &r));
    cr_expect(!rounds_writes_file("rr.1.nnue", &r));
    r.net = true;
    cr_expect(rounds_writes_file("rr.1.nnue", &r));
    cr_expect(!rounds_writes_file("rrx.1.nnue", &r));
    Loop l = {.name = "lp", .rounds = 2};
    cr_expect(loop_writes_file("lp.md", &l) && loop_writes_file("lp.costs", &l));
    cr_expect(loop_writes_file("lp.2.gate", &l) && loop_writes_file("lp.1.train", &l) && loop_writes_file("lp.1.nnue", &l));
    cr_expect(!loop_writes_file("lp.3.nnue", &l) && !loop_writes_file("lp.0.nnue", &l) && !loop_writes_file("lp.1.txt", &l));
    SpsaRun s = {.name = "sp", .iterations = 2};
    cr_expect(spsa_writes_weights("final.txt", &s) && spsa_writes_weights("sp.1.plus.txt", &s));
    cr_expect(spsa_writes_weights("sp.0.minus.txt", &s));
    cr_expect(!spsa_writes_weights("sp.2.plus.txt", &s) && !spsa_writes_weights("sp.1.txt", &s));
}

/* yinsh spsa's result: the plan, each parameter at the final point u (in
 * units of its range), the agent there, the path. */
Test(writers, spsa_result)
{
    SpsaRun s = {.name = "sp", .iterations = 3, .pairs = 2, .seed = 5, .nparams = 2,
                 .gains = {.a = 0.02, .c = 0.1, .A = 0.3, .alpha = 0.602, .gamma = 0.101},
                 .params = {{.name = "c", .start = 1, .lo = 0, .hi = 2}, {.name = "sims", .start = 100, .lo = 50, .hi = 250}}};
    double u[2] = {0.75, 0.5};
    Mem m;
    spsa_result_write(mem_open(&m), &s, u, "mcts:sims=150,c=1.5", "p.csv");
    EXPECT_TEXT(mem_text(&m),
        "spsa         sp: 3 iterations of 2 pairs, seed 5, gains a 0.02 c 0.1 A 0.3 alpha 0.602 gamma 0.101\n"
        "c            1.5 (start 1, range 0 to 2)\n"
        "sims         150 (start 100, range 50 to 250)\n"
        "agent        mcts:sims=150,c=1.5\n"
        "path         p.csv\n");
    mem_free(&m);
    spsa_point_write(mem_open(&m), &s, u);
    EXPECT_TEXT(mem_text(&m), " c 1.5 sims 150");
    mem_free(&m);
}

/* yinsh tune's table of weights, and its JSON's runs (null for every run). */
Test(writers, tune_report)
{
    TuneFit fit = {0};
    fit.before.w[0] = 1;
    fit.after.w[0] = 1.25;
    Mem m;
    tune_weights_write(mem_open(&m), &fit);
    const char *text = mem_text(&m);
    char first[128];
    snprintf(first, sizeof first, "weights        start      tuned\n%-13s   1.00000    1.25000\n", FEATURE_NAMES[0]);
    cr_expect(!strncmp(text, first, strlen(first)), "%s", text);
    mem_free(&m);
    TuneData d = {.games = 4, .n = 100};
    TuneOptions o;
    tune_options_default(&o);
    TuneFiles files = {.db = "t.db", .out = "w.txt", .read_s = 1, .fit_s = 2};
    Json j;
    json_begin(&j, mem_open(&m));
    tune_json_write(&j, &d, &o, &fit, &files);
    json_end(&j);
    text = mem_text(&m);
    cr_expect(strstr(text, "\"runs\": null") && strstr(text, "\"from\": null") && strstr(text, "\"positions\": 100"),
              "%s", text);
    mem_free(&m);
}

/* yinsh train's summary: no baseline row without one, '-' for a loss
 * without validation positions, the speed over the positions trained. */
Test(writers, nnue_train_summary)
{
    Nnue *net;
    char err[ERR_LEN], want[2048];
    cr_assert_eq(nnue_load_builtin(&net, err), 0, "%s", err);
    NnueTrainOptions o;
    nnue_train_options_default(&o);
    o.epochs = 1, o.hidden = 16, o.l2 = 0, o.threads = 1, o.seed = 1, o.batch = 1024, o.lr = 0.001, o.lambda = 0.5;
    NnueData data = {.games = 7, .games_val = 1, .duplicates = 7, .n_train = 393, .n_val = 61, .with_value = 57};
    NnueEpoch h = {.epoch = 1, .lr = 0.001, .train = 0.70454, .val_target = 0.70464, .val_result = 0.70464};
    NnueTrained tr = {.history = &h, .epochs = 1, .seconds = 0.5, .positions = 393, .len = 1234};
    NnueLosses losses;
    for (int k = 0; k < 4; k++)
        for (int v = 0; v < 2; v++) losses[k][v][0] = losses[k][v][1] = v ? NAN : 0.5;
    NnueTrainSummary s = {.o = &o, .data = &data, .tr = &tr, .losses = losses, .read_s = 0.2, .out = "n.nnue",
                          .net = net};
    snprintf(want, sizeof want,
        "data: 7 games (1 validation; 7 repeated action sequences and 0 stored repeats left out), 454 positions (61 validation), 57 with a search value, lambda 0.5\n"
        "net: %d inputs x 2 x 16 hidden, seed 1, 1 epochs, batch 1024, lr 0.001\n"
        "epoch      lr     train  val(target)  val(result)   seconds\n"
        "    1   0.001   0.70454      0.70464       0.70464       0.0\n"
        "log-loss        train(target) val(target) train(result) val(result)\n"
        "constant         0.50000             -       0.50000           -\n"
        "float            0.50000             -       0.50000           -\n"
        "quantised        0.50000             -       0.50000           -\n"
        "time: read 0.2 s, trained 0.5 s (786 positions/s on 1 threads)\n"
        "wrote n.nnue: 1234 bytes, content hash %016llx\n", NNUE_FEATURES, (unsigned long long)nnue_hash(net));
    Mem m;
    nnue_train_summary_write(mem_open(&m), &s);
    EXPECT_TEXT(mem_text(&m), want);
    mem_free(&m);
    nnue_free(net);
}

/* yinsh train --policy's summary: the held-out figures, the head before
 * left out when there was none (NAN). */
Test(writers, policy_train_summary)
{
    Nnue *net;
    char err[ERR_LEN], want[1024];
    cr_assert_eq(nnue_load_builtin(&net, err), 0, "%s", err);
    PolicyTrainOptions o;
    policy_train_options_default(&o);
    o.seed = 1, o.epochs = 4, o.batch = 256, o.lr = 0.003;
    PolicyData d = {.games = 3, .count = 100, .positions_val = 10};
    /* no child-value targets, no joint value: those figures NAN */
    PolicyEpoch fig[3] = {{.val_loss = 3.5, .val_top1 = 0.1, .val_loss_child = NAN, .val_value = NAN},
                          {.val_loss = NAN, .val_loss_child = NAN, .val_value = NAN},
                          {.val_loss = 3.25, .val_top1 = 0.125, .val_loss_child = NAN, .val_value = NAN}};
    PolicyTrainSummary s = {.o = &o, .d = &d, .init = "p.nnue", .net = net, .read_s = 0.2, .train_s = 1.5, .fig = fig,
                            .out = "q.nnue", .len = 99};
    snprintf(want, sizeof want,
        "data: 3 games, 100 positions with a choice (10 held out), 0 with stored visits, read in 0.2 s\n"
        "head: on p.nnue (%d hidden a side), seed 1, 4 epochs, batch 256, lr 0.003, trained in 1.5 s\n"
        "held-out positions:\n"
        "  children's values alone (no head) cross-entropy 3.5000, top-1 10.0%%\n"
        "  the quantised head               cross-entropy 3.2500, top-1 12.5%%\n"
        "wrote q.nnue: 99 bytes\n", nnue_hidden(net));
    Mem m;
    policy_train_summary_write(mem_open(&m), &s);
    EXPECT_TEXT(mem_text(&m), want);
    mem_free(&m);
    nnue_free(net);
}

/* The lines `yinsh train` writes while it reads and trains (moved with
 * the Ctrl-C handling and the planned runs' hooks, issue 60). */
Test(writers, train_progress_lines)
{
    Mem m;
    NnueEpoch ep = {.epoch = 3, .lr = 0.001, .train = 0.123456, .val_target = 0.234567, .val_result = 0.345678,
                    .seconds = 2.5};
    nnue_epoch_write(mem_open(&m), &ep, 10, 1000);
    EXPECT_TEXT(mem_text(&m),
                "epoch 3/10: train 0.12346, validation 0.23457 (result 0.34568), lr 0.001, 2.5 s, 400 positions/s\n");
    mem_free(&m);

    PolicyEpoch pe = {.epoch = 2, .train_loss = 1.23456, .val_loss = 2.34567, .val_top1 = 0.4567,
                      .val_loss_child = NAN, .val_value = NAN};
    policy_epoch_write(mem_open(&m), &pe);
    EXPECT_TEXT(mem_text(&m), "yinsh train: policy epoch 2: train 1.2346, held out 2.3457, top-1 45.7%\n");
    mem_free(&m);
    pe.val_loss_child = 0.98765;
    pe.val_top1_child = 0.5;
    pe.val_value = 0.123456;
    policy_epoch_write(mem_open(&m), &pe);
    EXPECT_TEXT(mem_text(&m), "yinsh train: policy epoch 2: train 1.2346, held out 2.3457, top-1 45.7%; child values "
                              "0.9877, 50.0%; value 0.12346\n");
    mem_free(&m);

    nnue_resume_write(mem_open(&m), "net.ckpt", false, 0, 0, 900);
    EXPECT_TEXT(mem_text(&m), "yinsh train: no checkpoint net.ckpt: starting afresh\n");
    mem_free(&m);
    nnue_resume_write(mem_open(&m), "net.ckpt", true, 2, 450, 900);
    EXPECT_TEXT(mem_text(&m), "yinsh train: resuming net.ckpt at epoch 3, position 450 of 900\n");
    mem_free(&m);

    NnueData d = {.n_train = 900, .n_val = 100, .with_value = 50, .games = 20, .duplicates = 3, .capped = 1,
                  .noisy = 7};
    nnue_data_read_write(mem_open(&m), &d, 2, 1.26);
    EXPECT_TEXT(mem_text(&m), "yinsh train: 1000 positions (100 validation, 50 with a search value) from 20 games "
                              "read in 1.3 s (3 repeated action sequences and 2 stored repeats left out; 1 games "
                              "past --positions, 7 positions not quiet)\n");
    mem_free(&m);
}

/* What a run says when it stops and at its end, and `yinsh view`'s last line. */
Test(writers, run_and_view_lines)
{
    Mem m;
    run_rate_write(mem_open(&m), "selfplay", 12346, 2.0, 4);
    EXPECT_TEXT(mem_text(&m), "yinsh selfplay: 6173 actions/s, 1543 a thread (12346 actions in 2.0 s on 4 threads)\n");
    mem_free(&m);
    run_stored_hint(mem_open(&m), "match", "r1", "x.db", 5, 17, 40, 2, 3);
    EXPECT_TEXT(mem_text(&m), "yinsh match: run 'r1': 5 games stored (17 of 40); the stored games are kept, and "
                              "`yinsh selfplay --resume r1 --db x.db --shard 2/3` finishes the shard\n");
    mem_free(&m);
    run_stored_hint(mem_open(&m), "study", "r2", "y.db", 1, 1, 8, 0, 0);
    EXPECT_TEXT(mem_text(&m), "yinsh study: run 'r2': 1 game stored (1 of 8); the stored games are kept, and "
                              "`yinsh selfplay --resume r2 --db y.db` finishes the run\n");
    mem_free(&m);

    View v = {.ngames = 3, .actions = 1, .nruns = 1, .files = 12, .bytes = 2500000, .largest = 12345};
    view_summary_write(mem_open(&m), &v, "site");
    EXPECT_TEXT(mem_text(&m), "yinsh view: 3 games (1 action) of 1 run, 12 files, 2.5 MB (largest page 12 kB): open "
                              "site/index.html\n");
    mem_free(&m);
}
