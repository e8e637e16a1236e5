/* yinsh train: a net (eval/nnue.h) trained on stored games
 * (eval/nnue_train.h; the positions: study/positions/train_load.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/clock.h"
#include "engine/base/file.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "eval/train_summary.h"
#include "study/positions/train_load.h"

/* The command line, parsed. */
typedef struct TrainArgs {
    const char *db, *out, *baseline, *init, *linear, *kind, *agent_text, *variant_text;
    bool quiet, resume, no_symmetry, only_quiet, patterns, have_hidden, have_l2;
    long epochs, hidden, l2, batch, min_ply, threads, every, positions;
    CliList runs;
    NnueTrainOptions o;
} TrainArgs;

static int train_parse(int argc, char **argv, TrainArgs *a)
{
    *a = (TrainArgs){.every = 60};
    NnueTrainOptions *o = &a->o;
    nnue_train_options_default(o);
    a->epochs = o->epochs;
    a->hidden = o->hidden;
    a->l2 = o->l2;
    a->batch = o->batch;
    a->min_ply = o->min_ply;
    const CliOpt opts[] = {
        {.name = "--db", .kind = CLI_TEXT, .out = &a->db, .required = "--db PATH is required"},
        {.name = "--out", .kind = CLI_TEXT, .out = &a->out, .required = "--out NET is required"},
        {.name = "--runs", .kind = CLI_LIST, .out = &a->runs},
        {.name = "--seed", .kind = CLI_U64, .out = &o->seed},
        {.name = "--epochs", .kind = CLI_INT, .out = &a->epochs, .min = 1, .max = NNUE_TRAIN_MAX_EPOCHS},
        {.name = "--hidden", .kind = CLI_INT, .out = &a->hidden, .min = NNUE_MIN_HIDDEN, .max = NNUE_MAX_HIDDEN,
         .seen = &a->have_hidden},
        {.name = "--l2", .kind = CLI_INT, .out = &a->l2, .min = 0, .max = NNUE_MAX_L2, .seen = &a->have_l2},
        {.name = "--positions", .kind = CLI_INT, .out = &a->positions, .min = 1, .max = 4000000000L},
        {.name = "--only-quiet", .kind = CLI_FLAG, .out = &a->only_quiet},
        {.name = "--init", .kind = CLI_TEXT, .out = &a->init},
        {.name = "--linear", .kind = CLI_TEXT, .out = &a->linear},
        {.name = "--patterns", .kind = CLI_FLAG, .out = &a->patterns},
        {.name = "--lambda", .kind = CLI_REAL, .out = &o->lambda, .min = 0, .max = 1},
        {.name = "--root-value", .kind = CLI_FLAG, .out = &o->root_value},
        {.name = "--lr", .kind = CLI_REAL, .out = &o->lr, .min = 1e-7, .max = 1},
        {.name = "--batch", .kind = CLI_INT, .out = &a->batch, .min = 1, .max = 1 << 20},
        {.name = "--val", .kind = CLI_REAL, .out = &o->val_frac, .min = 0, .max = 0.9},
        {.name = "--min-ply", .kind = CLI_INT, .out = &a->min_ply, .min = 0, .max = 1000},
        {.name = "--threads", .kind = CLI_INT, .out = &a->threads, .min = 1, .max = 1024},
        {.name = "--checkpoint", .kind = CLI_INT, .out = &a->every, .min = 0, .max = 86400},
        {.name = "--resume", .kind = CLI_FLAG, .out = &a->resume},
        {.name = "--baseline", .kind = CLI_TEXT, .out = &a->baseline},
        {.name = "--no-symmetry", .kind = CLI_FLAG, .out = &a->no_symmetry},
        {.name = "--quiet", .kind = CLI_FLAG, .out = &a->quiet},
        CLI_SELECTION_OPTIONS(&a->kind, &a->agent_text, &a->variant_text),
    };
    int npos;
    int rc = cli_parse("train", argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
    if (rc) return rc;
    if (a->hidden % 16) return cli_usage_error("train", "--hidden %ld: a multiple of 16 is needed", a->hidden);
    o->epochs = (int)a->epochs;
    o->hidden = (int)a->hidden;
    o->l2 = (int)a->l2;
    o->batch = (int)a->batch;
    o->min_ply = (int)a->min_ply;
    o->threads = (int)a->threads;
    o->symmetry = !a->no_symmetry;
    o->max_positions = (size_t)a->positions;
    o->quiet_only = a->only_quiet;
    return 0;
}

/* What the command reads besides the database, and where its checkpoint
 * goes: the paths checked against the net's, a checkpoint that is there
 * refused without --resume, the starting net, the linear part's and the
 * baseline's weights read. */
typedef struct TrainInputs {
    char ckpt[4096]; /* "": none (a net streamed) */
    StoreSelection sel;
    char agent[SPEC_LEN];
    Nnue *start;
    Weights base;
} TrainInputs;

static int train_inputs(TrainArgs *a, TrainInputs *in)
{
    const char *cmd = "train", *out = a->out;
    char err[ERR_LEN];
    int rc;
    /* a net streamed (standard output, a FIFO, a device) has no file to
     * keep a checkpoint beside: none is kept, and its summary goes to
     * stderr */
    if (nnue_checkpoint_name(out, in->ckpt, sizeof in->ckpt)) return cli_usage_error(cmd, "--out: the path is too long");
    if (!in->ckpt[0] && a->resume)
        return cli_usage_error(cmd, "--resume: the net '%s' is not a file, and has no checkpoint beside it", out);
    in->sel = (StoreSelection){.runs = (const char *const *)a->runs.items, .nruns = a->runs.n};
    if ((rc = cli_selection(cmd, a->kind, a->agent_text, a->variant_text, &in->sel, in->agent))) return rc;
    /* the net and its checkpoint are written; the database, the baseline and the net started from read */
    const char *inputs[] = {a->db, a->baseline, a->init, a->linear};
    const char *input_names[] = {"--db", "--baseline", "--init", "--linear"};
    if ((rc = cli_check_output(cmd, "--out", out, inputs, input_names, 4)) ||
        (in->ckpt[0] && (rc = cli_check_same(cmd, "the checkpoint", in->ckpt, inputs, input_names, 4))))
        return rc;
    if (a->init && a->linear)
        return cli_usage_error(cmd, "--linear and --init: a warm start keeps the net's own linear part, if it has one");
    if (a->linear) {
        if (weights_load(a->linear, &a->o.linear_start, err)) return cli_error(cmd, "--linear: %s", err);
        a->o.linear = true;
    }
    if (a->init) {
        if (nnue_load(&in->start, a->init, err)) return cli_error(cmd, "--init: %s", err);
        if (!a->have_hidden) a->o.hidden = nnue_hidden(in->start);
        if (!a->have_l2) a->o.l2 = nnue_l2(in->start);
        a->o.linear = nnue_has_linear(in->start);
        a->o.init = in->start;
    }
    a->o.patterns = a->patterns || (in->start && nnue_has_patterns(in->start));
    if (a->o.patterns && !a->o.linear)
        return cli_usage_error(cmd, "--patterns needs a linear part: --linear WEIGHTS, or --init of a net with one");
    if (a->baseline && weights_load(a->baseline, &in->base, err)) return cli_error(cmd, "%s", err);
    if (nnue_checkpoint_exists(in->ckpt) && !a->resume)
        return cli_error(cmd, "%s holds an unfinished training of %s: add --resume to go on from it, or remove it",
                         in->ckpt, out);
    return 0;
}

/* What the training shows on stderr as it goes (the driver's hooks). */
typedef struct TrainShow {
    Progress prog;
    bool quiet;
    const char *ckpt;
    int epochs;
    size_t n_train;
    uint64_t at; /* positions trained in all the epochs so far */
} TrainShow;

static void show_resumed(void *ctx, bool resumed, int epoch, size_t position)
{
    TrainShow *s = ctx;
    s->at = (uint64_t)epoch * s->n_train + position;
    if (!s->quiet) nnue_resume_write(stderr, s->ckpt, resumed, epoch, position, s->n_train);
}

static void show_slice(void *ctx, const NnueEpoch *ep, int epoch, uint64_t at)
{
    TrainShow *s = ctx;
    s->at = at;
    if (ep) {
        progress_update(&s->prog, at, NULL);
        if (!s->quiet) {
            if (s->prog.tty) fputs("\r\033[K", stderr);
            nnue_epoch_write(stderr, ep, s->epochs, s->n_train);
            s->prog.shown = false;
        }
    } else {
        char tail[160];
        snprintf(tail, sizeof tail, "epoch %d/%d", epoch + 1, s->epochs);
        progress_update(&s->prog, at, tail);
    }
}

/* The positions of the selected games (study/positions/train_load.h). */
static int train_read(const TrainArgs *a, const TrainInputs *in, NnueData *data, int64_t *repeats, double *read_s)
{
    Store *store = NULL;
    char err[ERR_LEN];
    double t0 = clock_now();
    int rc = store_open(&store, a->db, STORE_READ, STORE_BUSY_MS, err) ||
             train_load(store, &in->sel, &a->o, data, repeats, err);
    store_close(store);
    if (rc) return cli_error("train", "%s", err);
    *read_s = clock_now() - t0;
    if (!a->quiet) nnue_data_read_write(stderr, data, *repeats, *read_s);
    return 0;
}

/* After an interruption: what is kept, and the exit status. */
static int train_interrupted(const char *ckpt)
{
    const char *cmd = "train";
    if (ckpt[0])
        fprintf(stderr, "yinsh %s: interrupted (%s): the checkpoint %s is saved; the same command with "
                        "--resume goes on from it\n", cmd, strsignal(interrupt_signal()), ckpt);
    else
        fprintf(stderr, "yinsh %s: interrupted (%s): nothing written\n", cmd, strsignal(interrupt_signal()));
    return 128 + interrupt_signal();
}

int cmd_train(int argc, char **argv)
{
    const char *cmd = "train";
    TrainArgs a;
    TrainInputs in = {0};
    NnueData data = {0};
    NnueTrained tr = {0};
    Nnue *net = NULL;
    char err[ERR_LEN], what[NNUE_DESC_MAX + 1], desc[NNUE_DESC_MAX + 1];
    int64_t repeats = 0;
    double read_s = 0;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--policy")) return cmd_train_policy(argc, argv);
    int rc = train_parse(argc, argv, &a);
    if (rc || (rc = train_inputs(&a, &in)) || (rc = train_read(&a, &in, &data, &repeats, &read_s))) goto done;

    /* the driver (eval/nnue_train.h): slices, checkpoints, Ctrl-C */
    nnue_train_describe(what, sizeof what, &a.o, &data);
    snprintf(desc, sizeof desc, "yinsh train: %s", what);
    TrainShow show = {.quiet = a.quiet, .ckpt = in.ckpt, .epochs = a.o.epochs, .n_train = data.n_train};
    NnueTrainRun run = {.description = desc, .checkpoint = in.ckpt, .every = (double)a.every, .resume = a.resume,
                        .stop = interrupt_catch(), .resumed = show_resumed, .slice = show_slice, .ctx = &show};
    progress_start(&show.prog, "positions", (uint64_t)a.o.epochs * data.n_train, a.quiet);
    rc = nnue_train(&a.o, &data, &run, &tr, err);
    if (rc < 0) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    progress_finish(&show.prog, show.at, NULL);
    if (rc == 1) {
        rc = train_interrupted(in.ckpt);
        goto done;
    }

    /* the quantised net, its losses, the file */
    NnueLosses losses;
    char warn[ERR_LEN];
    if (nnue_train_save(&tr, &data, a.baseline ? &in.base : NULL, a.o.threads, a.out, in.ckpt, &net, losses, warn,
                        err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    if (warn[0]) fprintf(stderr, "yinsh %s: %s\n", cmd, warn);
    NnueTrainSummary sum = {.o = &a.o, .data = &data, .repeats = repeats, .init = a.init, .start = in.start,
                            .tr = &tr, .losses = losses, .baseline = a.baseline != NULL, .read_s = read_s,
                            .out = a.out, .net = net};
    nnue_train_summary_write(file_is_stdout(a.out) ? stderr : stdout, &sum);

done:
    nnue_free(net);
    nnue_free(in.start);
    nnue_trained_free(&tr);
    nnue_data_free(&data);
    cli_list_free(&a.runs);
    return rc;
}
