/* yinsh report: the balance report of stored games, as Markdown and PNG
 * pictures in a directory, the Markdown also on stdout. */
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/commands.h"
#include "selfplay/play/run.h"
#include "study/report/plots_dir.h"

/* Each --compare 'A vs B': the two agents' canonical specs, as stored
 * (any spelling is taken), named as given. */
static int parse_compare(const char *cmd, CliList *compare, ReportComparison *declared, char (*specs)[2][SPEC_LEN])
{
    for (int i = 0; i < compare->n; i++) {
        char *text = compare->items[i], *vs = strstr(text, " vs ");
        if (!vs || strstr(vs + 4, " vs "))
            return cli_usage_error(cmd, "--compare wants 'SPEC vs SPEC' (two agents), not '%s'", text);
        *vs = '\0';
        char *side[2] = {text, vs + 4};
        for (int k = 0; k < 2; k++) {
            side[k] += strspn(side[k], " ");
            char *end = side[k] + strlen(side[k]);
            while (end > side[k] && end[-1] == ' ') *--end = '\0';
            AgentSpec spec;
            char err[ERR_LEN];
            if (!side[k][0]) return cli_usage_error(cmd, "--compare: an agent is missing beside ' vs '");
            if (agent_spec_parse_text(side[k], &spec, err))
                return cli_usage_error(cmd, "--compare: %s", err);
            agent_spec_format(&spec, specs[i][k]);
        }
        if (!strcmp(specs[i][0], specs[i][1]))
            return cli_usage_error(cmd, "--compare '%s vs %s' compares an agent with itself", side[0], side[1]);
        declared[i] = (ReportComparison){.a = specs[i][0], .b = specs[i][1], .name_a = side[0], .name_b = side[1]};
    }
    return 0;
}

/* The command line, as parsed. */
typedef struct ReportArgs {
    const char *db, *out, *plots, *kind, *agent_text, *variant_text, *reference;
    bool no_plots, quiet, json, have_margin;
    double margin;
    CliList runs, compare;
} ReportArgs;

static int parse_args(int argc, char **argv, ReportArgs *a)
{
    const CliOpt opts[] = {
        {.name = "--db", .kind = CLI_TEXT, .out = &a->db},
        {.name = "--runs", .kind = CLI_LIST, .out = &a->runs},
        {.name = "--out", .kind = CLI_TEXT, .out = &a->out},
        {.name = "--plots", .kind = CLI_TEXT, .out = &a->plots},
        {.name = "--no-plots", .kind = CLI_FLAG, .out = &a->no_plots},
        {.name = "--quiet", .kind = CLI_FLAG, .out = &a->quiet},
        CLI_SELECTION_OPTIONS(&a->kind, &a->agent_text, &a->variant_text),
        {.name = "--json", .kind = CLI_FLAG, .out = &a->json},
        {.name = "--compare", .kind = CLI_TEXTS, .out = &a->compare},
        {.name = "--reference", .kind = CLI_TEXT, .out = &a->reference},
        {.name = "--margin", .kind = CLI_REAL, .out = &a->margin, .min = 0.001, .max = 49.999, .seen = &a->have_margin},
    };
    int npos;
    return cli_parse("report", argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
}

/* The options that go together, the comparisons, the database and the
 * folder: 0, or the exit status. */
static int check_args(const char *cmd, ReportArgs *a, ReportComparison *declared, char (*specs)[2][SPEC_LEN])
{
    int rc;
    bool matches = a->kind && !strcmp(a->kind, "match");
    if (a->plots && a->no_plots) return cli_usage_error(cmd, "--plots and --no-plots contradict each other");
    if ((rc = parse_compare(cmd, &a->compare, declared, specs))) return rc;
    if (a->compare.n && matches)
        return cli_usage_error(cmd, "--compare compares self-play; the match report (--kind match) has none");
    if (a->reference && matches)
        return cli_usage_error(cmd, "--reference scores self-play games; the match report (--kind match) has no such measure");
    if ((rc = cli_check_db_out(cmd, &a->db, a->out))) return rc;
    const char *inputs[] = {a->db}, *input_opts[] = {"--db"};
    if ((rc = cli_check_report_out(cmd, "--out", a->out, inputs, input_opts, 1))) return rc;
    if (a->plots && !report_plots_in(a->plots)) return cli_usage_error(cmd, "--plots '%s' holds no strength.gp", a->plots);
    return 0;
}

int cmd_report(int argc, char **argv)
{
    const char *cmd = "report";
    ReportArgs a = {.out = REPORT_DEFAULT_OUT, .kind = "selfplay"};
    ReportComparison declared[CLI_LIST_MAX];
    char specs[CLI_LIST_MAX][2][SPEC_LEN];
    char *cmdline = NULL, agent[SPEC_LEN];
    int rc = parse_args(argc, argv, &a);
    if (rc || (rc = check_args(cmd, &a, declared, specs))) goto done;
    CliReport job = {.db = a.db, .busy = STORE_BUSY_MS, .sel = {.runs = (const char *const *)a.runs.items, .nruns = a.runs.n},
                     .out = a.out, .plots = a.plots, .no_plots = a.no_plots, .quiet = a.quiet, .json = a.json,
                     .argc = argc, .argv = argv};
    if ((rc = cli_selection(cmd, a.kind, a.agent_text, a.variant_text, &job.sel, agent))) goto done;
    if (!(cmdline = cli_join_args(argc, argv))) {
        rc = cli_error(cmd, "out of memory");
        goto done;
    }
    job.cmdline = cmdline;
    job.declared = declared;
    job.ndeclared = a.compare.n;
    job.reference = a.reference;
    job.margin = a.have_margin ? a.margin / 100 : 0;
    rc = cli_report_write(cmd, &job);

done:
    cli_list_free(&a.runs);
    cli_list_free(&a.compare);
    free(cmdline);
    return rc;
}
