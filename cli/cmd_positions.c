/* yinsh positions: the stored games' positions for training, in bulk
 * (study/positions/samples.h writes them; docs/python.md has the formats). */
#include <stdio.h>
#include <string.h>
#include "engine/base/clock.h"
#include "engine/base/file.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "engine/encode/encode.h"
#include "study/positions/samples.h"
#include "selfplay/store/store.h"

/* The command line, as parsed, and what it asks for. */
typedef struct PositionsArgs {
    const char *db, *out, *format_text, *view_text, *kind, *agent_text, *variant_text, *policy_text;
    bool quiet, policy, mask;
    CliList runs;
    int format, view;
    SamplesExtras extras;
} PositionsArgs;

static int parse_args(int argc, char **argv, PositionsArgs *a)
{
    const CliOpt opts[] = {
        {.name = "--db", .kind = CLI_TEXT, .out = &a->db, .required = "--db PATH is required"},
        {.name = "--out", .kind = CLI_TEXT, .out = &a->out, .required = "--out FILE is required"},
        {.name = "--format", .kind = CLI_TEXT, .out = &a->format_text},
        {.name = "--view", .kind = CLI_TEXT, .out = &a->view_text},
        {.name = "--runs", .kind = CLI_LIST, .out = &a->runs},
        {.name = "--quiet", .kind = CLI_FLAG, .out = &a->quiet},
        {.name = "--policy", .kind = CLI_FLAG, .out = &a->policy},
        {.name = "--policy-format", .kind = CLI_TEXT, .out = &a->policy_text},
        {.name = "--mask", .kind = CLI_FLAG, .out = &a->mask},
        CLI_SELECTION_OPTIONS(&a->kind, &a->agent_text, &a->variant_text),
    };
    int npos;
    return cli_parse("positions", argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
}

/* The format, its extras and the view: 0, or the usage error's status. */
static int check_format(const char *cmd, PositionsArgs *a)
{
    if (!samples_format_parse(a->format_text, &a->format) || a->format == SAMPLES_PLANES_POLICY)
        return cli_usage_error(cmd, "--format '%s': expected ypn, csv or planes", a->format_text);
    a->extras = (SamplesExtras){.policy = a->policy ? SAMPLES_POLICY_F32 : SAMPLES_POLICY_NONE, .mask = a->mask};
    if (a->policy_text && !samples_policy_parse(a->policy_text, &a->extras.policy))
        return cli_usage_error(cmd, "--policy-format '%s': expected f32, f16 or sparse", a->policy_text);
    if ((a->policy || a->policy_text || a->mask) && a->format != SAMPLES_PLANES)
        return cli_usage_error(cmd, "%s goes with --format planes",
                               a->mask ? "--mask" : a->policy_text ? "--policy-format" : "--policy");
    if (!samples_view_parse(a->view_text, &a->view))
        return cli_usage_error(cmd, "--view '%s': expected actor, white or black", a->view_text);
    return 0;
}

/* The selection and the output: 0, or the exit status. */
static int check_paths(const char *cmd, PositionsArgs *a, StoreSelection *sel)
{
    char err[ERR_LEN], agent[SPEC_LEN];
    int rc;
    *sel = (StoreSelection){.runs = (const char *const *)a->runs.items, .nruns = a->runs.n};
    if ((rc = cli_selection(cmd, a->kind, a->agent_text, a->variant_text, sel, agent))) return rc;
    const char *inputs[] = {a->db};
    const char *input_names[] = {"--db"};
    if ((rc = cli_check_output(cmd, "--out", a->out, inputs, input_names, 1))) return rc;
    if ((a->format == SAMPLES_PLANES || a->format == SAMPLES_PLANES_POLICY) && file_out_check(a->out, err) == 1)
        return cli_usage_error(cmd, "--out '%s': %s", a->out, SAMPLES_PLANES_NEED_FILE);
    return 0;
}

int cmd_positions(int argc, char **argv)
{
    const char *cmd = "positions";
    PositionsArgs a = {.format_text = "ypn", .view_text = "actor", .kind = "all"};
    StoreSelection sel;
    Store *store = NULL;
    char err[ERR_LEN];
    int rc = parse_args(argc, argv, &a);
    if (rc || (rc = check_format(cmd, &a)) || (rc = check_paths(cmd, &a, &sel))) goto done;
    double t0 = clock_now();
    uint64_t positions = 0, games = 0;
    const atomic_bool *stop = interrupt_catch();
    if (store_open(&store, a.db, STORE_READ, STORE_BUSY_MS, err) ||
        (a.format == SAMPLES_PLANES
             ? samples_export_planes(store, &sel, &a.extras, a.view, a.out, stop, &positions, &games, err)
             : samples_export(store, &sel, a.format, a.view, a.out, stop, &positions, &games, err))) {
        rc = interrupt_signal() ? 128 + interrupt_signal() : 1;
        cli_error(cmd, "%s", err);
        goto done;
    }
    double el = clock_now() - t0;
    if (!a.quiet)
        fprintf(stderr, "yinsh positions: %llu positions of %llu games in %.2f s (%.0f positions/s) to %s\n",
                (unsigned long long)positions, (unsigned long long)games, el, el > 0 ? positions / el : 0.0, a.out);
done:
    store_close(store);
    cli_list_free(&a.runs);
    return rc;
}
