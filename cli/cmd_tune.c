/* yinsh tune: fit the evaluation weights to stored games (eval/tune.h). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "commands.h"
#include "tune_load.h"

const char USAGE_TUNE[] =
    "usage: yinsh tune --db PATH --out FILE [--runs NAME[,NAME...]] [--from FILE]\n"
    "                  [--min-ply N] [--sample F] [--val F] [--l2 L] [--seed S]\n"
    "                  [--threads T] [--quiet]\n"
    "  Fits the evaluation weights to the games stored by self-play (or\n"
    "  matches): logistic regression of each game's result on the features of\n"
    "  positions from it (the Texel method). First the scale K of the starting\n"
    "  weights, then every weight (Newton's method, L2-regularised). A share of\n"
    "  the games is held out; the loss on both sets is printed before and after.\n"
    "  Writes FILE as `name value` lines with a header saying how it was made.\n"
    "\n"
    "  --db PATH       the database written by `yinsh selfplay`\n"
    "  --out FILE      the weights file to write\n"
    "  --runs LIST     comma-separated run names (default: every run)\n"
    "  --from FILE     starting weights (default: the built-in defaults,\n"
    "                  eval/weights/default.txt)\n"
    "  --min-ply N     positions from ply N on (default 10: after the placements)\n"
    "  --sample F      keep each position with probability F (default 1)\n"
    "  --val F         share of games held out for validation (default 0.1)\n"
    "  --l2 L          L2 penalty on the weights (default 0.0001)\n"
    "  --seed S        the sampling seed (default 1)\n"
    "  --threads T     OpenMP threads (default: the number of cores)\n"
    "  --quiet         no timing lines on stderr\n";

static bool parse_double(const char *s, double min, double max, double *out)
{
    char *end;
    if (!s || !*s) return false;
    double v = strtod(s, &end);
    if (*end || !isfinite(v) || v < min || v > max) return false;
    *out = v;
    return true;
}

enum { OPT_DB = 256, OPT_OUT, OPT_RUNS, OPT_FROM, OPT_MIN_PLY, OPT_SAMPLE, OPT_VAL, OPT_L2, OPT_SEED, OPT_THREADS,
       OPT_QUIET };
enum { TUNE_MAX_RUNS = 256 };

int cmd_tune(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"db", required_argument, NULL, OPT_DB},         {"out", required_argument, NULL, OPT_OUT},
        {"runs", required_argument, NULL, OPT_RUNS},     {"from", required_argument, NULL, OPT_FROM},
        {"min-ply", required_argument, NULL, OPT_MIN_PLY}, {"sample", required_argument, NULL, OPT_SAMPLE},
        {"val", required_argument, NULL, OPT_VAL},       {"l2", required_argument, NULL, OPT_L2},
        {"seed", required_argument, NULL, OPT_SEED},     {"threads", required_argument, NULL, OPT_THREADS},
        {"quiet", no_argument, NULL, OPT_QUIET},         {NULL, 0, NULL, 0},
    };
    const char *cmd = "tune";
    const char *db = NULL, *out = NULL, *from = NULL;
    char *runs_text = NULL;
    bool quiet = false;
    long min_ply = 10, threads = 0;
    TuneOptions o;
    tune_options_default(&o);

    optind = 0;
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
        switch (opt) {
        case OPT_DB: db = optarg; break;
        case OPT_OUT: out = optarg; break;
        case OPT_RUNS: runs_text = optarg; break;
        case OPT_FROM: from = optarg; break;
        case OPT_MIN_PLY:
            if (!cli_opt_int(cmd, "--min-ply", optarg, 0, 1000, &min_ply)) return EXIT_USAGE;
            break;
        case OPT_SAMPLE:
            if (!parse_double(optarg, 1e-9, 1, &o.sample))
                return cli_usage_error(cmd, "--sample wants a fraction in (0, 1], not '%s'", optarg);
            break;
        case OPT_VAL:
            if (!parse_double(optarg, 0, 0.9, &o.val_frac))
                return cli_usage_error(cmd, "--val wants a fraction from 0 to 0.9, not '%s'", optarg);
            break;
        case OPT_L2:
            if (!parse_double(optarg, 0, 1e6, &o.l2))
                return cli_usage_error(cmd, "--l2 wants a number >= 0, not '%s'", optarg);
            break;
        case OPT_SEED:
            if (!cli_opt_u64(cmd, "--seed", optarg, &o.seed)) return EXIT_USAGE;
            break;
        case OPT_THREADS:
            if (!cli_opt_int(cmd, "--threads", optarg, 1, 1024, &threads)) return EXIT_USAGE;
            break;
        case OPT_QUIET: quiet = true; break;
        default:
            if (optopt) return cli_usage_error(cmd, "option '%s' wants a value", argv[optind - 1]);
            return cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc) return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
    if (!db) return cli_usage_error(cmd, "--db PATH is required");
    if (!out) return cli_usage_error(cmd, "--out FILE is required");
    o.min_ply = (int)min_ply;
    o.threads = (int)threads;

    /* the run names: split a copy of the list at commas */
    const char *runs[TUNE_MAX_RUNS];
    int nruns = 0;
    char *list = runs_text ? strdup(runs_text) : NULL;
    if (runs_text && !list) return cli_error(cmd, "out of memory");
    for (char *save = NULL, *r = list ? strtok_r(list, ",", &save) : NULL; r; r = strtok_r(NULL, ",", &save)) {
        if (nruns == TUNE_MAX_RUNS) {
            free(list);
            return cli_usage_error(cmd, "--runs names at most %d runs", TUNE_MAX_RUNS);
        }
        runs[nruns++] = r;
    }
    if (runs_text && nruns == 0) {
        free(list);
        return cli_usage_error(cmd, "--runs wants at least one run name");
    }

    int rc = 0;
    Store *store = NULL;
    TuneData data = {0};
    char err[STORE_ERR_LEN];
    Weights w0;
    weights_default(&w0);
    if (from && !weights_load(from, &w0, err, sizeof err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    double t0 = cli_now();
    if (store_open(&store, db, false, 5000, err) || tune_load(store, runs, nruns, &o, &data, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    double t1 = cli_now();
    if (!quiet) fprintf(stderr, "yinsh tune: %zu positions from %llu games read in %.1f s\n", data.n,
                        (unsigned long long)data.games, t1 - t0);
    TuneFit fit;
    tune_fit(&data, &w0, &o, &fit);
    double t2 = cli_now();
    if (!quiet) fprintf(stderr, "yinsh tune: fitted in %.1f s (%d Newton steps)\n", t2 - t1, fit.iterations);

    /* the report, which is also the weights file's header */
    char header[4096];
    int n = 0;
    n += snprintf(header + n, sizeof header - (size_t)n, "made by: yinsh");
    for (int i = 0; i < argc && n < (int)sizeof header - 256; i++)
        n += snprintf(header + n, sizeof header - (size_t)n, " %s", argv[i]);
    n += snprintf(header + n, sizeof header - (size_t)n,
                  "\ndata: %llu games (%llu validation), %zu positions (%zu validation), ply >= %d, sample %g, "
                  "seed %llu, l2 %g\n",
                  (unsigned long long)data.games, (unsigned long long)data.games_val, data.n, data.n_val, o.min_ply,
                  o.sample, (unsigned long long)o.seed, o.l2);
    n += snprintf(header + n, sizeof header - (size_t)n, "scale K = %.4f fitted on the %s weights\n", fit.k,
                  from ? "starting" : "default");
    n += snprintf(header + n, sizeof header - (size_t)n, "log-loss        train    validation\n");
    const char *names[4] = {"constant", "start", "start x K", "tuned"};
    const double *losses[4] = {fit.loss_constant, fit.loss_before, fit.loss_scaled, fit.loss_after};
    for (int i = 0; i < 4; i++)
        n += snprintf(header + n, sizeof header - (size_t)n, "%-12s %9.5f %9.5f\n", names[i], losses[i][0],
                      losses[i][1]);
    snprintf(header + n, sizeof header - (size_t)n, "Newton steps: %d", fit.iterations);
    printf("%s\n", header);
    printf("weights        start      tuned\n");
    for (int k = 0; k < FEAT_NB; k++)
        printf("%-13s %9.5f  %9.5f\n", FEATURE_NAMES[k], fit.before.w[k], fit.after.w[k]);
    if (!weights_save(out, &fit.after, header, err, sizeof err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    printf("wrote %s\n", out);

done:
    tune_data_free(&data);
    store_close(store);
    free(list);
    return rc;
}
