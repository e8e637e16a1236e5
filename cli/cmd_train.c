/* yinsh train: a net (eval/nnue.h) trained on stored games
 * (eval/nnue_train.h; the positions: study/positions/train_load.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "engine/base/clock.h"
#include "engine/base/file.h"
#include "engine/base/parallel.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "study/positions/train_load.h"

const char USAGE_TRAIN[] =
    "usage: yinsh train --db PATH --out NET [--runs NAME[,NAME...]] [--seed S]\n"
    "                   [--epochs E] [--hidden H] [--l2 N] [--lambda L] [--lr X]\n"
    "                   [--batch B] [--val F] [--min-ply N] [--threads T]\n"
    "                   [--positions N] [--only-quiet] [--init NET] [--linear WEIGHTS] [--patterns]\n"
    "                   [--checkpoint SECONDS] [--resume] [--quiet]\n"
    "  Trains a net, the NNUE-style evaluation of eval/nnue.h, on the games\n"
    "  stored by self-play (or matches): every stored game replayed once (the\n"
    "  same actions count once), its positions in states P and M, each with\n"
    "  the game's result for the side to act and, where the search stored one,\n"
    "  the value of the action chosen there, mixed by L. A share of the games\n"
    "  is held out. Float training (Adam), then quantisation to the integers\n"
    "  the search uses; writes NET (docs/nnue.md). The same database, options\n"
    "  and seed give the same net, byte for byte, on any number of threads.\n"
    "  Progress and each epoch's losses go to stderr, the summary to stdout.\n"
    "  A checkpoint NET.ckpt is written as it goes (whole, never half); after\n"
    "  a kill or Ctrl-C, the same command with --resume goes on from it and\n"
    "  ends with the net an uninterrupted run gives. It is removed at the end.\n"
    "\n"
    "  --db PATH       the database written by `yinsh selfplay`\n"
    "  --out NET       the net file to write (a link: the file it names); - or\n"
    "                  /dev/stdout: standard output (the summary then goes to\n"
    "                  stderr), a FIFO or a device: written through, with no\n"
    "                  checkpoint kept; never the database or --baseline\n"
    "  --runs LIST     comma-separated run names (default: every run)\n"
    "  --kind K, --agent SPEC, --variant V   runs of that kind, agent, variant\n"
    "  --seed S        initial weights and the order of positions (default 1)\n"
    "  --epochs E      passes over the training positions (default 10)\n"
    "  --hidden H      accumulator width per side, a multiple of 16 from 16 to\n"
    "                  256 (default 64)\n"
    "  --l2 N          a second hidden layer of N units, 0 to 32 (default 0: none)\n"
    "  --lambda L      the search value's share of the target, 0 to 1 (default\n"
    "                  0.5; 0: the game's result alone)\n"
    "  --lr X          Adam's step size in the first epoch, falling to X/10 in the\n"
    "                  last (default 0.001)\n"
    "  --batch B       positions per step (default 1024)\n"
    "  --val F         share of games held out for validation (default 0.1)\n"
    "  --min-ply N     positions from ply N on (default 0)\n"
    "  --positions N   the first games of the selection (in the database's order)\n"
    "                  up to N positions, the last game whole (default: all):\n"
    "                  the same data cut to size\n"
    "  --only-quiet    leave out the positions with a row of the actor's in reach\n"
    "                  (not quiet: the search judges them through its quiescence\n"
    "                  step)\n"
    "  --init NET      start from this net's weights (a warm start; --hidden and\n"
    "                  --l2 default to its own, and so does a linear part)\n"
    "                  instead of random ones\n"
    "  --linear WEIGHTS  a net with a linear part (docs/nnue.md): the linear\n"
    "                  evaluation's features added to the output, their weights\n"
    "                  trained with the net's from these (e.g.\n"
    "                  eval/weights/tuned3.txt)\n"
    "  --patterns      and a pattern part (docs/nnue.md, feature set 3): a weight\n"
    "                  per line pattern of a 5-point window, summed over the\n"
    "                  board's 123 windows (needs --linear, or --init of a net\n"
    "                  with a linear part; starts from 0)\n"
    "  --no-symmetry   each position as it is (default: in one of the board's 12\n"
    "                  symmetries, drawn anew each epoch)\n"
    "  --threads T     OpenMP threads (default: the number of cores)\n"
    "  --baseline FILE the summary also gives the loss of these linear weights on the\n"
    "                  same positions (and always that of a constant prediction)\n"
    "  --checkpoint S  seconds between checkpoints (default 60; also after each epoch)\n"
    "  --resume        go on from NET.ckpt (without one: start afresh)\n"
    "  --quiet         no progress or epoch lines on stderr\n";

/* The net's description: how it was made (nnue_train_describe). */
static void describe(char *out, size_t len, const NnueTrainOptions *o, const NnueData *d)
{
    char what[NNUE_DESC_MAX + 1];
    nnue_train_describe(what, sizeof what, o, d);
    snprintf(out, len, "yinsh train: %s", what);
}

static void print_loss(FILE *f, double x)
{
    if (isnan(x)) fprintf(f, " %9s", "-");
    else fprintf(f, " %9.5f", x);
}

int cmd_train(int argc, char **argv)
{
    const char *cmd = "train";
    const char *db = NULL, *out = NULL, *baseline = NULL, *init = NULL, *linear = NULL;
    const char *kind = NULL, *agent_text = NULL, *variant_text = NULL;
    bool quiet = false, resume = false, no_symmetry = false, only_quiet = false, patterns = false, have_hidden = false, have_l2 = false;
    long epochs, hidden, l2, batch, min_ply, threads = 0, every = 60, positions = 0;
    CliList runs = {0};
    NnueTrainOptions o;
    nnue_train_options_default(&o);
    epochs = o.epochs;
    hidden = o.hidden;
    l2 = o.l2;
    batch = o.batch;
    min_ply = o.min_ply;
    const CliOpt opts[] = {
        {.name = "--db", .kind = CLI_TEXT, .out = &db},
        {.name = "--out", .kind = CLI_TEXT, .out = &out},
        {.name = "--runs", .kind = CLI_LIST, .out = &runs},
        {.name = "--seed", .kind = CLI_U64, .out = &o.seed},
        {.name = "--epochs", .kind = CLI_INT, .out = &epochs, .min = 1, .max = NNUE_TRAIN_MAX_EPOCHS},
        {.name = "--hidden", .kind = CLI_INT, .out = &hidden, .min = NNUE_MIN_HIDDEN, .max = NNUE_MAX_HIDDEN,
         .seen = &have_hidden},
        {.name = "--l2", .kind = CLI_INT, .out = &l2, .min = 0, .max = NNUE_MAX_L2, .seen = &have_l2},
        {.name = "--positions", .kind = CLI_INT, .out = &positions, .min = 1, .max = 4000000000L},
        {.name = "--only-quiet", .kind = CLI_FLAG, .out = &only_quiet},
        {.name = "--init", .kind = CLI_TEXT, .out = &init},
        {.name = "--linear", .kind = CLI_TEXT, .out = &linear},
        {.name = "--patterns", .kind = CLI_FLAG, .out = &patterns},
        {.name = "--lambda", .kind = CLI_REAL, .out = &o.lambda, .min = 0, .max = 1},
        {.name = "--lr", .kind = CLI_REAL, .out = &o.lr, .min = 1e-7, .max = 1},
        {.name = "--batch", .kind = CLI_INT, .out = &batch, .min = 1, .max = 1 << 20},
        {.name = "--val", .kind = CLI_REAL, .out = &o.val_frac, .min = 0, .max = 0.9},
        {.name = "--min-ply", .kind = CLI_INT, .out = &min_ply, .min = 0, .max = 1000},
        {.name = "--threads", .kind = CLI_INT, .out = &threads, .min = 1, .max = 1024},
        {.name = "--checkpoint", .kind = CLI_INT, .out = &every, .min = 0, .max = 86400},
        {.name = "--resume", .kind = CLI_FLAG, .out = &resume},
        {.name = "--baseline", .kind = CLI_TEXT, .out = &baseline},
        {.name = "--no-symmetry", .kind = CLI_FLAG, .out = &no_symmetry},
        {.name = "--quiet", .kind = CLI_FLAG, .out = &quiet},
        CLI_SELECTION_OPTIONS(&kind, &agent_text, &variant_text),
    };
    int npos;
    Store *store = NULL;
    NnueData data = {0};
    NnueTrainer *t = NULL;
    Nnue *net = NULL, *start = NULL;
    uint8_t *bytes = NULL;
    char err[ERR_LEN], ckpt[4096];
    int rc = cli_parse(cmd, argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
    if (rc) goto done;
    if (!db || !*db) {
        rc = cli_usage_error(cmd, "--db PATH is required");
        goto done;
    }
    if (!out || !*out) {
        rc = cli_usage_error(cmd, "--out NET is required");
        goto done;
    }
    if (hidden % 16) {
        rc = cli_usage_error(cmd, "--hidden %ld: a multiple of 16 is needed", hidden);
        goto done;
    }
    /* a net streamed (standard output, a FIFO, a device) has no file to
     * keep a checkpoint beside: none is kept, and its summary goes to
     * stderr */
    struct stat so;
    bool streamed = file_is_stdout(out) || (stat(out, &so) == 0 && !S_ISREG(so.st_mode));
    FILE *sum = file_is_stdout(out) ? stderr : stdout;
    if (streamed && resume) {
        rc = cli_usage_error(cmd, "--resume: the net '%s' is not a file, and has no checkpoint beside it", out);
        goto done;
    }
    if (streamed) ckpt[0] = '\0';
    else if (snprintf(ckpt, sizeof ckpt, "%s.ckpt", out) >= (int)sizeof ckpt - 4) {
        rc = cli_usage_error(cmd, "--out: the path is too long");
        goto done;
    }
    o.epochs = (int)epochs;
    o.hidden = (int)hidden;
    o.l2 = (int)l2;
    o.batch = (int)batch;
    o.min_ply = (int)min_ply;
    o.threads = (int)threads;
    o.symmetry = !no_symmetry;
    o.max_positions = (size_t)positions;
    o.quiet_only = only_quiet;
    StoreSelection sel = {.runs = (const char *const *)runs.items, .nruns = runs.n};
    char agent[SPEC_LEN];
    if ((rc = cli_selection(cmd, kind, agent_text, variant_text, &sel, agent))) goto done;
    /* the net and its checkpoint are written; the database, the baseline and the net started from read */
    const char *inputs[] = {db, baseline, init, linear};
    const char *input_names[] = {"--db", "--baseline", "--init", "--linear"};
    if ((rc = cli_check_output(cmd, "--out", out, inputs, input_names, 4)) ||
        (ckpt[0] && (rc = cli_check_same(cmd, "the checkpoint", ckpt, inputs, input_names, 4))))
        goto done;
    if (init && linear) {
        rc = cli_usage_error(cmd, "--linear and --init: a warm start keeps the net's own linear part, if it has one");
        goto done;
    }
    if (linear) {
        if (weights_load(linear, &o.linear_start, err)) {
            rc = cli_error(cmd, "--linear: %s", err);
            goto done;
        }
        o.linear = true;
    }
    if (init) {
        if (nnue_load(&start, init, err)) {
            rc = cli_error(cmd, "--init: %s", err);
            goto done;
        }
        if (!have_hidden) o.hidden = nnue_hidden(start);
        if (!have_l2) o.l2 = nnue_l2(start);
        o.linear = nnue_has_linear(start);
        o.init = start;
    }
    o.patterns = patterns || (start && nnue_has_patterns(start));
    if (o.patterns && !o.linear) {
        rc = cli_usage_error(cmd, "--patterns needs a linear part: --linear WEIGHTS, or --init of a net with one");
        goto done;
    }
    Weights base;
    if (baseline && weights_load(baseline, &base, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    struct stat sb;
    bool have_ckpt = ckpt[0] && stat(ckpt, &sb) == 0;
    if (have_ckpt && !resume) {
        rc = cli_error(cmd, "%s holds an unfinished training of %s: add --resume to go on from it, or remove it", ckpt,
                       out);
        goto done;
    }

    double t0 = clock_now();
    int64_t repeats = 0;
    if (store_open(&store, db, STORE_READ, STORE_BUSY_MS, err) || train_load(store, &sel, &o, &data, &repeats, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    store_close(store);
    store = NULL;
    double t1 = clock_now();
    if (!quiet)
        fprintf(stderr,
                "yinsh train: %zu positions (%zu validation, %zu with a search value) from %llu games read in %.1f s "
                "(%llu repeated action sequences and %lld stored repeats left out; %llu games past --positions, "
                "%llu positions not quiet)\n",
                data.n_train + data.n_val, data.n_val, data.with_value, (unsigned long long)data.games, t1 - t0,
                (unsigned long long)data.duplicates, (long long)repeats, (unsigned long long)data.capped,
                (unsigned long long)data.noisy);
    if (nnue_trainer_new(&t, &o, &data, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    if (resume) {
        int r = nnue_trainer_resume(t, ckpt, err);
        if (r == ERR_NOT_FOUND) {
            if (!quiet) fprintf(stderr, "yinsh train: no checkpoint %s: starting afresh\n", ckpt);
        } else if (r) {
            rc = cli_error(cmd, "%s", err);
            goto done;
        } else if (!quiet) {
            int e;
            size_t p;
            nnue_trainer_progress(t, &e, &p);
            fprintf(stderr, "yinsh train: resuming %s at epoch %d, position %zu of %zu\n", ckpt, e + 1, p, data.n_train);
        }
    }

    /* train in slices of at most a second: progress, Ctrl-C and the
     * checkpoints are looked at between them */
    const atomic_bool *stop = cli_catch_signals();
    Progress prog;
    int e0;
    size_t p0;
    nnue_trainer_progress(t, &e0, &p0);
    uint64_t total = (uint64_t)o.epochs * data.n_train, at = (uint64_t)e0 * data.n_train + p0;
    progress_start(&prog, "positions", total, quiet);
    double last_ckpt = clock_now(), train_s = 0;
    uint64_t trained = 0;
    for (;;) {
        NnueEpoch ep;
        double s0 = clock_now();
        int r = nnue_trainer_run(t, 1.0, &ep);
        train_s += clock_now() - s0;
        if (r == 2) break;
        int e;
        size_t p;
        nnue_trainer_progress(t, &e, &p);
        uint64_t now = (uint64_t)e * data.n_train + p;
        trained += now - at;
        at = now;
        bool save = r == 1 || clock_now() - last_ckpt >= (double)every || atomic_load(stop);
        if (save && e < o.epochs && ckpt[0]) {
            if (nnue_trainer_save(t, ckpt, err)) {
                rc = cli_error(cmd, "%s", err);
                goto done;
            }
            last_ckpt = clock_now();
        }
        char tail[160] = "";
        if (r == 1) {
            progress_update(&prog, at, NULL);
            if (!quiet) {
                fprintf(stderr, "%sepoch %d/%d: train %.5f, validation %.5f (result %.5f), lr %.2g, %.1f s, %.0f positions/s\n",
                        prog.tty ? "\r\033[K" : "", ep.epoch, o.epochs, ep.train, ep.val_target, ep.val_result, ep.lr,
                        ep.seconds, ep.seconds > 0 ? data.n_train / ep.seconds : 0);
                prog.shown = false;
            }
        } else {
            snprintf(tail, sizeof tail, "epoch %d/%d", e + 1, o.epochs);
            progress_update(&prog, at, tail);
        }
        if (atomic_load(stop) && e < o.epochs) {
            progress_finish(&prog, at, NULL);
            if (ckpt[0])
                fprintf(stderr, "yinsh %s: interrupted (%s): the checkpoint %s is saved; the same command with "
                                "--resume goes on from it\n", cmd, strsignal(cli_signal()), ckpt);
            else
                fprintf(stderr, "yinsh %s: interrupted (%s): nothing written\n", cmd, strsignal(cli_signal()));
            rc = 128 + cli_signal();
            goto done;
        }
    }
    progress_finish(&prog, at, NULL);

    /* the quantised net, its losses, the file */
    char desc[NNUE_DESC_MAX + 1];
    describe(desc, sizeof desc, &o, &data);
    size_t len;
    if (nnue_trainer_quantise(t, desc, &bytes, &len, err) || nnue_decode(&net, bytes, len, out, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    double fl[2][2], ql[2][2], cl[2][2], ll[2][2]; /* [train, validation][target, result] */
    for (int v = 0; v < 2; v++)
        for (int r = 0; r < 2; r++) {
            fl[v][r] = nnue_trainer_loss(t, v, r);
            ql[v][r] = nnue_data_loss(net, &data, v, r, o.threads);
            cl[v][r] = nnue_data_loss_linear(NULL, &data, v, r, o.threads);
            ll[v][r] = baseline ? nnue_data_loss_linear(&base, &data, v, r, o.threads) : NAN;
        }
    if (nnue_save(out, bytes, len, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    if (ckpt[0] && remove(ckpt) != 0 && errno != ENOENT) fprintf(stderr, "yinsh %s: cannot remove %s: %s\n", cmd, ckpt, strerror(errno));

    fprintf(sum, "data: %llu games (%llu validation; %llu repeated action sequences and %lld stored repeats left out), "
           "%zu positions (%zu validation), %zu with a search value, lambda %g\n",
           (unsigned long long)data.games, (unsigned long long)data.games_val, (unsigned long long)data.duplicates,
           (long long)repeats, data.n_train + data.n_val, data.n_val, data.with_value, o.lambda);
    if (o.max_positions || o.quiet_only)
        fprintf(sum, "cut: %llu games past --positions %zu, %llu positions not quiet left out\n",
                (unsigned long long)data.capped, o.max_positions, (unsigned long long)data.noisy);
    if (start) fprintf(sum, "started from: %s (content hash %016llx)\n", init, (unsigned long long)nnue_hash(start));
    fprintf(sum, "net: %d inputs x 2 x %d hidden%s%.0d%s, seed %llu, %d epochs, batch %d, lr %g\n", NNUE_FEATURES,
           o.hidden, o.l2 ? ", second layer " : "", o.l2, o.patterns ? ", linear and pattern parts" : o.linear ? ", linear part" : "", (unsigned long long)o.seed,
           o.epochs, o.batch, o.lr);
    fprintf(sum, "epoch      lr     train  val(target)  val(result)   seconds\n");
    int nh;
    const NnueEpoch *h = nnue_trainer_history(t, &nh);
    for (int i = 0; i < nh; i++) {
        fprintf(sum, "%5d %7.2g", h[i].epoch, h[i].lr);
        print_loss(sum, h[i].train);
        fprintf(sum, "   ");
        print_loss(sum, h[i].val_target);
        fprintf(sum, "    ");
        print_loss(sum, h[i].val_result);
        fprintf(sum, "  %8.1f\n", h[i].seconds);
    }
    fprintf(sum, "log-loss        train(target) val(target) train(result) val(result)\n");
    const char *names[4] = {"constant", "linear", "float", "quantised"};
    double(*losses[4])[2] = {cl, ll, fl, ql};
    for (int k = 0; k < 4; k++) {
        if (k == 1 && !baseline) continue;
        double(*l)[2] = losses[k];
        fprintf(sum, "%-14s", names[k]);
        print_loss(sum, l[0][0]);
        fprintf(sum, "    ");
        print_loss(sum, l[1][0]);
        fprintf(sum, "    ");
        print_loss(sum, l[0][1]);
        fprintf(sum, "  ");
        print_loss(sum, l[1][1]);
        fprintf(sum, "\n");
    }
    fprintf(sum, "time: read %.1f s, trained %.1f s (%.0f positions/s on %d threads)\n", t1 - t0, train_s,
           train_s > 0 ? (double)trained / train_s : 0, parallel_threads(o.threads));
    fprintf(sum, "wrote %s: %zu bytes, content hash %016llx\n", out, len, (unsigned long long)nnue_hash(net));

done:
    nnue_free(net);
    nnue_free(start);
    free(bytes);
    nnue_trainer_free(t);
    nnue_data_free(&data);
    store_close(store);
    cli_list_free(&runs);
    return rc;
}
