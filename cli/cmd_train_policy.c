/* yinsh train --policy: the policy head of a net (eval/nnue_policy.h)
 * trained on stored games (eval/policy_train.h; the samples:
 * study/positions/policy_load.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/clock.h"
#include "engine/base/file.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "eval/train_summary.h"
#include "study/positions/policy_load.h"

static void show_read(void *ctx, uint64_t positions) { progress_update(ctx, positions, "positions read"); }

static void show_epoch(void *ctx, const PolicyEpoch *e)
{
    const bool *quiet = ctx;
    if (!*quiet) policy_epoch_write(stderr, e);
}

/* The command line, as parsed. */
typedef struct PolicyArgs {
    const char *db, *out, *init, *head_from, *kind, *agent_text, *variant_text;
    bool quiet, policy, direct;
    long epochs, batch, positions, widen;
    CliList runs;
    PolicyTrainOptions o;
} PolicyArgs;

static int parse_args(int argc, char **argv, PolicyArgs *a)
{
    policy_train_options_default(&a->o);
    a->epochs = a->o.epochs;
    a->batch = a->o.batch;
    const CliOpt opts[] = {
        {.name = "--policy", .kind = CLI_FLAG, .out = &a->policy},
        {.name = "--db", .kind = CLI_TEXT, .out = &a->db, .required = "--db PATH is required"},
        {.name = "--out", .kind = CLI_TEXT, .out = &a->out, .required = "--out NET is required"},
        {.name = "--init", .kind = CLI_TEXT, .out = &a->init,
         .required = "--policy needs --init NET, the value net the head is trained on"},
        {.name = "--head-from", .kind = CLI_TEXT, .out = &a->head_from},
        {.name = "--runs", .kind = CLI_LIST, .out = &a->runs},
        {.name = "--seed", .kind = CLI_U64, .out = &a->o.seed},
        {.name = "--epochs", .kind = CLI_INT, .out = &a->epochs, .min = 1, .max = 1000},
        {.name = "--lr", .kind = CLI_REAL, .out = &a->o.lr, .min = 1e-7, .max = 1},
        {.name = "--batch", .kind = CLI_INT, .out = &a->batch, .min = 1, .max = 1 << 20},
        {.name = "--val", .kind = CLI_REAL, .out = &a->o.val_frac, .min = 0, .max = 0.9},
        {.name = "--positions", .kind = CLI_INT, .out = &a->positions, .min = 1, .max = 4000000000L},
        {.name = "--quiet", .kind = CLI_FLAG, .out = &a->quiet},
        {.name = "--direct", .kind = CLI_FLAG, .out = &a->direct},
        {.name = "--symmetries", .kind = CLI_FLAG, .out = &a->o.symmetries},
        CLI_HEAD_OPTIONS(&a->o, &a->widen),
        {.name = "--lambda", .kind = CLI_REAL, .out = &a->o.lambda, .min = 0, .max = 1},
        CLI_SELECTION_OPTIONS(&a->kind, &a->agent_text, &a->variant_text),
    };
    int npos;
    return cli_parse("train", argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
}

/* --head-from NET (*from, loaded): the head starts from NET's head, which
 * must be of the kind trained and of the --init net's width (a value net
 * trained again keeps its width; its head is left aside by `yinsh train`):
 * 0, or the exit status. */
static int check_head_from(PolicyArgs *a, const Nnue *net, Nnue **from)
{
    const char *cmd = "train";
    char err[ERR_LEN];
    if (!a->head_from) return 0;
    if (nnue_load(from, a->head_from, err)) return cli_error(cmd, "--head-from: %s", err);
    const int16_t *pw;
    const int32_t *pb;
    int32_t beta;
    if (!nnue_policy_head(*from, &pw, &pb, &beta))
        return cli_usage_error(cmd, "--head-from %s: the net has no policy head to start from", a->head_from);
    /* a direct head to start from makes a direct one, as --init's does */
    a->direct = a->direct || nnue_policy_direct(*from);
    if (nnue_policy_direct(*from) != a->direct)
        return cli_usage_error(cmd, "--head-from %s: its head is %s, the head trained %s", a->head_from,
                               nnue_policy_direct(*from) ? "direct" : "not direct (feature set 4)",
                               a->direct ? "direct" : "not direct");
    if (nnue_hidden(*from) != nnue_hidden(net))
        return cli_usage_error(cmd, "--head-from %s: its head reads %d hidden units a side, the --init net has %d",
                               a->head_from, nnue_hidden(*from), nnue_hidden(net));
    a->o.head_from = *from;
    return 0;
}

/* The options, the paths and the net the head is trained on (*net,
 * loaded; *from, the --head-from net or NULL): 0, or the exit status. */
static int check_args(PolicyArgs *a, StoreSelection *sel, Nnue **net, Nnue **from)
{
    const char *cmd = "train";
    char err[ERR_LEN], agent[SPEC_LEN];
    int rc;
    /* the summary's figures are the held-out positions': none held out
     * would print NaN (and a loop would record it) */
    if (!(a->o.val_frac > 0))
        return cli_usage_error(cmd, "--val 0: the head is measured on the positions held out; give a share above 0 "
                                    "(default 0.1)");
    a->o.epochs = (int)a->epochs;
    a->o.batch = (int)a->batch;
    a->o.max_positions = (size_t)a->positions;
    *sel = (StoreSelection){.runs = (const char *const *)a->runs.items, .nruns = a->runs.n};
    const char *inputs[] = {a->db, a->init, a->head_from};
    const char *input_names[] = {"--db", "--init", "--head-from"};
    if ((rc = cli_selection(cmd, a->kind, a->agent_text, a->variant_text, sel, agent)) ||
        (rc = cli_check_output(cmd, "--out", a->out, inputs, input_names, a->head_from ? 3 : 2)))
        return rc;
    if (nnue_load(net, a->init, err)) return cli_error(cmd, "--init: %s", err);
    if (!nnue_has_patterns(*net))
        return cli_usage_error(cmd, "--init %s: a policy head needs a net with a linear and a pattern part "
                                    "(feature set 3, e.g. eval/nets/patterns32.nnue)", a->init);
    /* a net with a direct head trains it on; --direct makes one */
    a->direct = a->direct || nnue_policy_direct(*net);
    if ((rc = check_head_from(a, *net, from))) return rc;
    if (a->o.symmetries && !a->direct)
        return cli_usage_error(cmd, "--symmetries goes with a direct head (--direct, or an --init net of feature set 5)");
    return cli_head_options_check(cmd, &a->o, a->widen, a->direct, *net, "--init", a->init);
}

/* The samples of the selected games (study/positions/policy_load.h). */
static int read_samples(const PolicyArgs *a, const StoreSelection *sel, PolicyData *d, double *read_s)
{
    char err[ERR_LEN];
    Store *store = NULL;
    double t0 = clock_now();
    Progress prog;
    progress_start(&prog, "positions", a->o.max_positions, a->quiet);
    int rc = store_open(&store, a->db, STORE_READ, STORE_BUSY_MS, err) ||
             policy_load(store, sel, &a->o, d, show_read, &prog, err);
    progress_finish(&prog, d->count, NULL);
    store_close(store);
    if (rc) return cli_error("train", "%s", err);
    *read_s = clock_now() - t0;
    return 0;
}

int cmd_train_policy(int argc, char **argv)
{
    const char *cmd = "train";
    PolicyArgs a = {0};
    StoreSelection sel;
    Nnue *net = NULL, *from = NULL;
    PolicyData d = {0};
    uint8_t *bytes = NULL;
    size_t len = 0;
    double read_s = 0;
    char err[ERR_LEN];
    int rc = parse_args(argc, argv, &a);
    if (rc) {
        cli_list_free(&a.runs);
        return rc;
    }
    if ((rc = check_args(&a, &sel, &net, &from))) goto done;
    d.net = net;
    d.width = 2 * nnue_hidden(net);
    d.direct = a.direct;
    if ((rc = read_samples(&a, &sel, &d, &read_s))) goto done;
    char desc[NNUE_DESC_MAX + 1];
    /* the head first: the description is cut at NNUE_DESC_MAX bytes */
    char extra[200] = "";
    if (a.o.child_mix > 0)
        snprintf(extra, sizeof extra, " --child-temp %g --child-mix %g%s", a.o.child_temp, a.o.child_mix,
                 a.o.reduced_too ? " --reduced-too" : "");
    if (a.o.joint > 0)
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), " --joint %g --lambda %g --trunk-lr %g",
                 a.o.joint, a.o.lambda, a.o.trunk_lr);
    if (a.o.widen)
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), " --widen %d", a.o.widen);
    if (from)
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), " --head-from %016llx",
                 (unsigned long long)nnue_hash(from));
    snprintf(desc, sizeof desc, "%s: yinsh train --policy%s%s%s, %zu positions, seed %llu, %d epochs; on: %s",
             a.o.joint > 0 ? "joint net and direct head" : a.direct ? "direct policy head" : "policy head",
             a.direct ? " --direct" : "", a.o.symmetries ? " --symmetries" : "", extra, d.count,
             (unsigned long long)a.o.seed, a.o.epochs, nnue_description(net));
    PolicyEpoch fig[3]; /* the base, the start, the final head */
    double t0 = clock_now();
    if (policy_train(&d, &a.o, desc, show_epoch, &a.quiet, &bytes, &len, &fig[0], &fig[1], &fig[2], err) ||
        nnue_save(a.out, bytes, len, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    PolicyTrainSummary sum = {.o = &a.o, .d = &d, .init = a.init, .net = net, .direct = a.direct, .read_s = read_s,
                              .train_s = clock_now() - t0, .fig = fig, .out = a.out, .len = len};
    policy_train_summary_write(file_is_stdout(a.out) ? stderr : stdout, &sum);
done:
    free(bytes);
    policy_data_free(&d);
    nnue_free(net);
    nnue_free(from);
    cli_list_free(&a.runs);
    return rc;
}
