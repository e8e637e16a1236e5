/* yinsh tune: fit the evaluation weights to stored games (eval/tune.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "engine/base/clock.h"
#include "cli/commands.h"
#include "engine/base/json.h"
#include "eval/tune_report.h"
#include "study/positions/tune_load.h"
#include "engine/base/number.h"

/* The fit's report, which is also the weights file's header: the
 * command line that made it, then the summary (malloc'ed; NULL when out
 * of memory). */
static char *fit_header(int argc, char **argv, const TuneData *data, const TuneOptions *o, const TuneFit *fit,
                        int64_t repeats, const char *from)
{
    char *header = NULL, *made_by = cli_join_args(argc, argv);
    size_t header_len = 0;
    FILE *h = made_by ? open_memstream(&header, &header_len) : NULL;
    if (!h) {
        free(made_by);
        return NULL;
    }
    fprintf(h, "made by: %s\n", made_by);
    free(made_by);
    tune_summary_write(h, data, o, fit, repeats, from ? "starting" : "default");
    fclose(h);
    return header;
}

/* The command line, as parsed. */
typedef struct TuneArgs {
    const char *db, *out, *from, *kind, *agent_text, *variant_text;
    bool quiet, json;
    long min_ply, threads;
    CliList runs;
    TuneOptions o;
} TuneArgs;

static int parse_args(int argc, char **argv, TuneArgs *a)
{
    tune_options_default(&a->o);
    a->min_ply = 10;
    const CliOpt opts[] = {
        {.name = "--db", .kind = CLI_TEXT, .out = &a->db},
        {.name = "--out", .kind = CLI_TEXT, .out = &a->out, .required = "--out FILE is required"},
        {.name = "--runs", .kind = CLI_LIST, .out = &a->runs},
        {.name = "--from", .kind = CLI_TEXT, .out = &a->from},
        {.name = "--min-ply", .kind = CLI_INT, .out = &a->min_ply, .min = 0, .max = 1000},
        {.name = "--sample", .kind = CLI_REAL, .out = &a->o.sample, .min = 1e-9, .max = 1},
        {.name = "--val", .kind = CLI_REAL, .out = &a->o.val_frac, .min = 0, .max = 0.9},
        {.name = "--l2", .kind = CLI_REAL, .out = &a->o.l2, .min = 0, .max = 1e6},
        {.name = "--seed", .kind = CLI_U64, .out = &a->o.seed},
        CLI_THREADS_OPTION(&a->threads),
        {.name = "--quiet", .kind = CLI_FLAG, .out = &a->quiet},
        CLI_SELECTION_OPTIONS(&a->kind, &a->agent_text, &a->variant_text),
        {.name = "--json", .kind = CLI_FLAG, .out = &a->json},
    };
    int npos;
    return cli_parse("tune", argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
}

/* The database, the selection and the output (checked before anything is
 * read or fitted), then the starting weights: 0, or the exit status. */
static int check_args(TuneArgs *a, StoreSelection *sel, Weights *w0)
{
    const char *cmd = "tune";
    char err[ERR_LEN], agent[SPEC_LEN];
    int rc;
    /* --db: RUN_DEFAULT_DB when not given, as every command reads it */
    if ((rc = cli_db(cmd, &a->db))) return rc;
    a->o.min_ply = (int)a->min_ply;
    a->o.threads = (int)a->threads;
    *sel = (StoreSelection){.runs = (const char *const *)a->runs.items, .nruns = a->runs.n};
    if ((rc = cli_selection(cmd, a->kind, a->agent_text, a->variant_text, sel, agent))) return rc;
    const char *inputs[] = {a->db, a->from};
    const char *input_names[] = {"--db", "--from"};
    if ((rc = cli_check_output(cmd, "--out", a->out, inputs, input_names, 2))) return rc;
    weights_default(w0);
    if (a->from && weights_load(a->from, w0, err)) return cli_error(cmd, "%s", err);
    return 0;
}

/* The fit's weights written, and what was written said (text or JSON). */
static int write_fit(int argc, char **argv, const TuneArgs *a, const TuneData *data, int64_t repeats,
                     const TuneFit *fit, double read_s, double fit_s)
{
    const char *cmd = "tune";
    char err[ERR_LEN];
    int rc = 0;
    char *header = fit_header(argc, argv, data, &a->o, fit, repeats, a->from);
    if (!header) return cli_error(cmd, "out of memory");
    if (!a->json) {
        printf("%s\n", header);
        tune_weights_write(stdout, fit);
    }
    /* weights the fit made unusable (not finite), or a file that could
     * not be written (a full disk): said apart */
    if (weights_check(&fit->after, err)) rc = cli_error(cmd, "the fit gives no usable weights: %s", err);
    else if (weights_save(a->out, &fit->after, header, err)) rc = cli_error(cmd, "%s", err);
    free(header);
    if (!rc && a->json) {
        Json j;
        TuneFiles files = {.db = a->db, .runs = (const char *const *)a->runs.items, .nruns = a->runs.n,
                           .from = a->from, .out = a->out, .read_s = read_s, .fit_s = fit_s};
        json_begin_command(&j, stdout, cmd, argc, argv);
        tune_json_write(&j, data, &a->o, fit, &files);
        json_end(&j);
    } else if (!rc) {
        printf("wrote %s\n", a->out);
    }
    return rc;
}

int cmd_tune(int argc, char **argv)
{
    const char *cmd = "tune";
    TuneArgs a = {0};
    Store *store = NULL;
    TuneData data = {0};
    StoreSelection sel;
    Weights w0;
    char err[ERR_LEN];
    int rc = parse_args(argc, argv, &a);
    if (rc || (rc = check_args(&a, &sel, &w0))) goto done;
    double t0 = clock_now();
    int64_t repeats = 0;
    if (store_open(&store, a.db, STORE_READ, STORE_BUSY_MS, err) ||
        tune_load(store, &sel, &a.o, &data, &repeats, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    double t1 = clock_now();
    if (!a.quiet)
        fprintf(stderr, "yinsh tune: %zu position%s from %llu game%s read in %.1f s (%lld repeat%s skipped)\n", data.n,
                number_plural(data.n), (unsigned long long)data.games, number_plural(data.games), t1 - t0,
                (long long)repeats, number_plural((uint64_t)repeats));
    TuneFit fit;
    tune_fit(&data, &w0, &a.o, &fit);
    double t2 = clock_now();
    if (!a.quiet) fprintf(stderr, "yinsh tune: fitted in %.1f s (%d Newton steps)\n", t2 - t1, fit.iterations);
    rc = write_fit(argc, argv, &a, &data, repeats, &fit, t1 - t0, t2 - t1);
done:
    tune_data_free(&data);
    store_close(store);
    cli_list_free(&a.runs);
    return rc;
}
