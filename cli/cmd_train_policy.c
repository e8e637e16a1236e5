/* yinsh train --policy: the policy head of a net (eval/nnue_policy.h)
 * trained on stored games (eval/policy_train.h; the samples:
 * study/positions/policy_load.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "engine/base/clock.h"
#include "engine/base/file.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "study/positions/policy_load.h"

static void show_read(void *ctx, uint64_t positions) { progress_update(ctx, positions, "positions read"); }

static void show_epoch(void *ctx, const PolicyEpoch *e)
{
    const bool *quiet = ctx;
    if (!*quiet)
        fprintf(stderr, "yinsh train: policy epoch %d: train %.4f, held out %.4f, top-1 %.1f%%\n", e->epoch,
                e->train_loss, e->val_loss, 100 * e->val_top1);
}

static void print_figure(FILE *f, const char *name, const PolicyEpoch *e)
{
    fprintf(f, "%-34s cross-entropy %.4f, top-1 %.1f%%\n", name, e->val_loss, 100 * e->val_top1);
}

int cmd_train_policy(int argc, char **argv)
{
    const char *cmd = "train", *db = NULL, *out = NULL, *init = NULL, *kind = NULL, *agent_text = NULL,
               *variant_text = NULL;
    bool quiet = false, policy = false, direct = false;
    long epochs, batch, positions = 0;
    CliList runs = {0};
    PolicyTrainOptions o;
    policy_train_options_default(&o);
    epochs = o.epochs;
    batch = o.batch;
    const CliOpt opts[] = {
        {.name = "--policy", .kind = CLI_FLAG, .out = &policy},
        {.name = "--db", .kind = CLI_TEXT, .out = &db, .required = "--db PATH is required"},
        {.name = "--out", .kind = CLI_TEXT, .out = &out, .required = "--out NET is required"},
        {.name = "--init", .kind = CLI_TEXT, .out = &init,
         .required = "--policy needs --init NET, the value net the head is trained on"},
        {.name = "--runs", .kind = CLI_LIST, .out = &runs},
        {.name = "--seed", .kind = CLI_U64, .out = &o.seed},
        {.name = "--epochs", .kind = CLI_INT, .out = &epochs, .min = 1, .max = 1000},
        {.name = "--lr", .kind = CLI_REAL, .out = &o.lr, .min = 1e-7, .max = 1},
        {.name = "--batch", .kind = CLI_INT, .out = &batch, .min = 1, .max = 1 << 20},
        {.name = "--val", .kind = CLI_REAL, .out = &o.val_frac, .min = 0, .max = 0.9},
        {.name = "--positions", .kind = CLI_INT, .out = &positions, .min = 1, .max = 4000000000L},
        {.name = "--quiet", .kind = CLI_FLAG, .out = &quiet},
        {.name = "--direct", .kind = CLI_FLAG, .out = &direct},
        {.name = "--symmetries", .kind = CLI_FLAG, .out = &o.symmetries},
        CLI_SELECTION_OPTIONS(&kind, &agent_text, &variant_text),
    };
    int npos, rc = cli_parse(cmd, argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
    if (rc) return rc;
    /* the summary's figures are the held-out positions': none held out
     * would print NaN (and a loop would record it) */
    if (!(o.val_frac > 0))
        return cli_usage_error(cmd, "--val 0: the head is measured on the positions held out; give a share above 0 "
                                    "(default 0.1)");
    o.epochs = (int)epochs;
    o.batch = (int)batch;
    o.max_positions = (size_t)positions;
    char err[ERR_LEN], agent[SPEC_LEN];
    StoreSelection sel = {.runs = (const char *const *)runs.items, .nruns = runs.n};
    const char *inputs[] = {db, init};
    const char *input_names[] = {"--db", "--init"};
    Nnue *net = NULL;
    Store *store = NULL;
    PolicyData d = {0};
    uint8_t *bytes = NULL;
    size_t len = 0;
    if ((rc = cli_selection(cmd, kind, agent_text, variant_text, &sel, agent)) ||
        (rc = cli_check_output(cmd, "--out", out, inputs, input_names, 2)))
        goto done;
    if (nnue_load(&net, init, err)) {
        rc = cli_error(cmd, "--init: %s", err);
        goto done;
    }
    if (!nnue_has_patterns(net)) {
        rc = cli_usage_error(cmd, "--init %s: a policy head needs a net with a linear and a pattern part "
                                  "(feature set 3, e.g. eval/nets/patterns32.nnue)", init);
        goto done;
    }
    /* a net with a direct head trains it on; --direct makes one */
    direct = direct || nnue_policy_direct(net);
    if (o.symmetries && !direct) {
        rc = cli_usage_error(cmd, "--symmetries goes with a direct head (--direct, or an --init net of feature set 5)");
        goto done;
    }
    d.net = net;
    d.width = 2 * nnue_hidden(net);
    d.direct = direct;
    double t0 = clock_now();
    Progress prog;
    progress_start(&prog, "positions", o.max_positions, quiet);
    rc = store_open(&store, db, STORE_READ, STORE_BUSY_MS, err) ||
         policy_load(store, &sel, &o, &d, show_read, &prog, err);
    progress_finish(&prog, d.count, NULL);
    if (rc) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    double read_s = clock_now() - t0;
    char desc[NNUE_DESC_MAX + 1];
    /* the head first: the description is cut at NNUE_DESC_MAX bytes */
    snprintf(desc, sizeof desc, "%s: yinsh train --policy%s%s, %zu positions, seed %llu, %d epochs; on: %s",
             direct ? "direct policy head" : "policy head", direct ? " --direct" : "", o.symmetries ? " --symmetries" : "",
             d.count, (unsigned long long)o.seed, o.epochs, nnue_description(net));
    PolicyEpoch base, start, final;
    t0 = clock_now();
    if (policy_train(&d, &o, desc, show_epoch, &quiet, &bytes, &len, &base, &start, &final, err) ||
        nnue_save(out, bytes, len, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    FILE *sum = file_is_stdout(out) ? stderr : stdout;
    fprintf(sum, "data: %llu games, %zu positions with a choice (%llu held out), %llu with stored visits, read in "
                 "%.1f s\n",
            (unsigned long long)d.games, d.count, (unsigned long long)d.positions_val,
            (unsigned long long)d.with_visits, read_s);
    if (d.reduced)
        fprintf(sum, "data: %llu positions of reduced searches (playout cap) left out\n", (unsigned long long)d.reduced);
    fprintf(sum, "head: on %s (%d hidden a side), seed %llu, %d epochs, batch %d, lr %g, trained in %.1f s\n", init,
            nnue_hidden(net), (unsigned long long)o.seed, o.epochs, o.batch, o.lr, clock_now() - t0);
    if (d.positions_val == 0) {
        /* too few games for a game of them to be held out at this share */
        fprintf(sum, "held-out positions: none (%llu games at --val %g hold none out: no figures)\n",
                (unsigned long long)d.games, o.val_frac);
    } else {
        fprintf(sum, "held-out positions:\n");
        print_figure(sum, direct ? "  uniform priors (no head)" : "  children's values alone (no head)", &base);
        if (!isnan(start.val_loss)) print_figure(sum, "  the net's head before (warm start)", &start);
        print_figure(sum, "  the quantised head", &final);
    }
    fprintf(sum, "wrote %s: %zu bytes\n", out, len);
done:
    free(bytes);
    policy_data_free(&d);
    store_close(store);
    nnue_free(net);
    cli_list_free(&runs);
    return rc;
}
