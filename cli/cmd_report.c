/* yinsh report: the balance report of stored games, as Markdown and PNG
 * pictures in a directory, the Markdown also on stdout. */
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/commands.h"
#include "selfplay/play/run.h"
#include "study/report/plots_dir.h"

#define REPORT_DEFAULT_OUT "results/report"

const char USAGE_REPORT[] =
    "usage: yinsh report [--db PATH] [--runs NAME[,NAME...]] [--kind selfplay|match|import|all]\n"
    "                    [--agent SPEC] [--variant V] [--out DIR]\n"
    "                    [--plots DIR | --no-plots] [--compare 'SPEC vs SPEC']...\n"
    "                    [--reference WEIGHTS|AB_SPEC] [--margin POINTS]\n"
    "                    [--quiet] [--json]\n"
    "  Reads the stored games and writes the balance report: for each variant\n"
    "  and pair of agents, the games, wins, draws, White's score with its 95%\n"
    "  Wilson interval, the p-value of no first-player advantage (exact, and\n"
    "  Holm-adjusted over the family of every pair's such test), the\n"
    "  advantage in Elo, game lengths and end reasons; the measures beyond the\n"
    "  win rate (draw rate, balance, the lengths' distribution, when the winner\n"
    "  leads for good and lead changes, by the searchers' own values and by one\n"
    "  reference evaluator with a dead band, legal actions by phase); blitz against\n"
    "  standard for each pair of agents that played both; White's score by the\n"
    "  class of White's first ring under the board's symmetries; where the\n"
    "  selection holds agents that played themselves and match runs between\n"
    "  them (a study's [ladder]; --kind all), the ladder: the levels' Elo from\n"
    "  one joint fit of the matches, each match's score and Elo, the depth, and\n"
    "  White's score and the other measures against Elo beside published\n"
    "  figures; the same agent from two openings compared; and pictures\n"
    "  drawn with gnuplot: White's score against Elo (with a ladder) or against\n"
    "  strength, draws and lengths against Elo, game lengths, and White's\n"
    "  score by White's first ring. Every figure counts distinct games:\n"
    "  copies (the same actions to the same end, as a deterministic agent plays\n"
    "  them) are left out, and the report says how many. The report goes to\n"
    "  DIR/report.md (and stdout), the pictures and their data beside it.\n"
    "\n"
    "  --db PATH     the database (default " RUN_DEFAULT_DB " in the working\n"
    "                folder)\n"
    "  --runs NAMES  only these runs (comma-separated; may be repeated)\n"
    "  --kind K      selfplay (default), match (the match report: A against B,\n"
    "                Elo from the pairs, LOS, pentanomial), import (games\n"
    "                read by `yinsh import`; unfinished ones left out) or all\n"
    "  --agent SPEC  only runs this agent plays in (either side; any spelling)\n"
    "  --variant V   only standard or only blitz\n"
    "  Each game counts once: repeats (games stored again by a later run) are\n"
    "  left out, and the report says how many.\n"
    "  --out DIR     where report.md and the pictures go (default " REPORT_DEFAULT_OUT ";\n"
    "                created if missing)\n"
    "  --plots DIR   the gnuplot scripts (default: scripts/plots/ of the source\n"
    "                tree this binary was built from, else ./scripts/plots)\n"
    "  --no-plots    write the Markdown only\n"
    "  --compare 'A vs B'\n"
    "                a comparison declared before the games: White's score in\n"
    "                A's self-play minus B's, in every variant, with its test;\n"
    "                every --compare (may be repeated) is one Holm family\n"
    "  --reference E the reference evaluator of \"decided at\" and \"lead changes\"\n"
    "                (reference): a weights file, the linear evaluation (default\n"
    "                eval/weights/tuned3.txt), or a fixed searcher, an ab: spec at\n"
    "                a fixed depth on one thread (e.g. ab:depth=2,eval=eval/weights/\n"
    "                tuned3.txt), whose search values every position (slow: a\n"
    "                progress line on stderr)\n"
    "  --margin M    test every agent's self-play for equivalence to a fair\n"
    "                game within M points of White's score (exact TOST on the\n"
    "                decisive games, one Holm family): the section \"Equivalence\n"
    "                to a fair game\"\n"
    "  --quiet       do not print the report on stdout\n"
    "  --json        print its figures on stdout as one JSON document instead\n"
    "                of the Markdown (docs/json.md); the files are written the same\n"
    "  Without gnuplot the Markdown is still written and says so. An empty\n"
    "  database, an unknown run or a selection without games is an error (1).\n";

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
