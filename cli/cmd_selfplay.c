/* yinsh selfplay: a self-play run, stored game by game in the database. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "commands.h"
#include "notation.h"
#include "store.h"

#define SELFPLAY_DEFAULT_DB "results/yinsh.db"
#define SELFPLAY_DEFAULT_AGENT "mcts:sims=200"

const char USAGE_SELFPLAY[] =
    "usage: yinsh selfplay --games N [--variant standard|blitz]\n"
    "                      [--white SPEC --black SPEC | --agent SPEC] [--threads T]\n"
    "                      [--seed S] [--db PATH | --no-db] [--run NAME] [--quiet]\n"
    "       yinsh selfplay --resume RUN [--db PATH] [--threads T] [--quiet]\n"
    "  Plays N games between two agents on T threads (default: all cores) and\n"
    "  stores every game and action in the database (default " SELFPLAY_DEFAULT_DB ";\n"
    "  schema in docs/schema.md). Game i uses its own random stream made from\n"
    "  (seed, i), so a run gives the same games with any number of threads.\n"
    "  Progress goes to stderr, a summary to stdout.\n"
    "\n"
    "  --games N       games in the run\n"
    "  --variant V     standard (default) or blitz\n"
    "  --agent SPEC    both sides' agent (default " SELFPLAY_DEFAULT_AGENT ")\n"
    "  --white SPEC    White's agent; --black SPEC: Black's. A SPEC is `random`\n"
    "                  or `mcts[:key=value,...]` with keys sims (default 1000),\n"
    "                  c (UCT constant, default 1), rollout (random: full random\n"
    "                  playouts; N: N random actions, then the evaluation), eval\n"
    "                  (weights file for rollout=N; default: the built-in\n"
    "                  weights of eval/weights/default.txt), nodes (tree bound)\n"
    "  --threads T     OpenMP threads (default: the number of cores)\n"
    "  --seed S        the run seed (default: from the clock; printed and stored)\n"
    "  --db PATH       the SQLite database (created if missing)\n"
    "  --no-db         store nothing (to measure the cost of storing)\n"
    "  --run NAME      the run's name (default: made from the date and the run id);\n"
    "                  it must be new in the database\n"
    "  --resume RUN    finish an interrupted run: play only the games it lacks,\n"
    "                  with the run's own seed, agents, variant and size\n"
    "  --busy-timeout MS  how long to wait for another process's lock (default 5000)\n"
    "  --quiet         no progress\n";

/* What the writer thread's callback needs: the store, the run, the totals
 * so far and the progress line. Only the writer thread touches it while
 * games are played. */
typedef struct SelfplayCtx {
    Store *store;
    StoreRun *run;
    SelfplaySummary sum;
    uint64_t done; /* games stored by this command (not those of an earlier attempt) */
    Progress progress;
} SelfplayCtx;

static int sink_write(void *ctx, GameRecord *const *games, int n, char *err)
{
    SelfplayCtx *c = ctx;
    char serr[STORE_ERR_LEN];
    if (!c->store) return 0;
    int rc = store_write_games(c->store, c->run, games, n, serr);
    if (rc) snprintf(err, SELFPLAY_ERR_LEN, "%s", serr);
    return rc;
}

static void format_tail(const SelfplaySummary *s, char *tail, size_t len)
{
    snprintf(tail, len, "W %" PRIu64 " B %" PRIu64 " D %" PRIu64, s->wins[RESULT_WHITE], s->wins[RESULT_BLACK],
             s->wins[RESULT_DRAW]);
}

static void sink_stored(void *ctx, GameRecord *const *games, int n)
{
    SelfplayCtx *c = ctx;
    for (int i = 0; i < n; i++) selfplay_summary_add(&c->sum, games[i]);
    c->done += (uint64_t)n;
    char tail[128];
    format_tail(&c->sum, tail, sizeof tail);
    progress_update(&c->progress, c->done, tail);
}

static void print_summary(const char *name, const SelfplaySummary *s)
{
    double lo, hi, score = selfplay_white_score(s, &lo, &hi);
    printf("run          %s\n", name);
    printf("games        %" PRIu64 "\n", s->games);
    printf("white wins   %" PRIu64 "\n", s->wins[RESULT_WHITE]);
    printf("black wins   %" PRIu64 "\n", s->wins[RESULT_BLACK]);
    printf("draws        %" PRIu64 "\n", s->wins[RESULT_DRAW]);
    printf("white score  %.3f (95%% CI %.3f to %.3f)\n", score, lo, hi);
    printf("mean length  %.1f actions\n", s->games ? (double)s->actions / (double)s->games : 0.0);
    printf("end reasons ");
    bool any = false;
    for (int r = 0; r < REASON_NB; r++)
        if (s->reasons[r]) {
            printf("%s %s %" PRIu64, any ? "," : "", reason_name(r), s->reasons[r]);
            any = true;
        }
    printf("%s\n", any ? "" : " -");
    printf("hash         %016" PRIx64 " (actions and visit counts of every game)\n", s->hash);
}

enum { OPT_GAMES = 256, OPT_VARIANT, OPT_WHITE, OPT_BLACK, OPT_AGENT, OPT_THREADS, OPT_SEED, OPT_DB, OPT_NO_DB,
       OPT_RUN, OPT_RESUME, OPT_QUIET, OPT_BUSY };

int cmd_selfplay(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"games", required_argument, NULL, OPT_GAMES},     {"variant", required_argument, NULL, OPT_VARIANT},
        {"white", required_argument, NULL, OPT_WHITE},     {"black", required_argument, NULL, OPT_BLACK},
        {"agent", required_argument, NULL, OPT_AGENT},     {"threads", required_argument, NULL, OPT_THREADS},
        {"seed", required_argument, NULL, OPT_SEED},       {"db", required_argument, NULL, OPT_DB},
        {"no-db", no_argument, NULL, OPT_NO_DB},           {"run", required_argument, NULL, OPT_RUN},
        {"resume", required_argument, NULL, OPT_RESUME},   {"quiet", no_argument, NULL, OPT_QUIET},
        {"busy-timeout", required_argument, NULL, OPT_BUSY}, {NULL, 0, NULL, 0},
    };
    const char *cmd = "selfplay";
    const char *white = NULL, *black = NULL, *agent = NULL, *db = NULL, *name = NULL, *resume = NULL;
    const char *variant_text = NULL;
    bool no_db = false, quiet = false, have_games = false, have_seed = false;
    long games = 0, threads = 0, busy = 5000;
    uint64_t seed = 0;
    _Static_assert((int)STORE_ERR_LEN >= (int)SELFPLAY_ERR_LEN, "one buffer for both messages");
    char err[STORE_ERR_LEN];

    optind = 0;
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
        switch (opt) {
        case OPT_GAMES:
            if (!cli_opt_int(cmd, "--games", optarg, 1, 100000000, &games)) return EXIT_USAGE;
            have_games = true;
            break;
        case OPT_VARIANT: variant_text = optarg; break;
        case OPT_WHITE: white = optarg; break;
        case OPT_BLACK: black = optarg; break;
        case OPT_AGENT: agent = optarg; break;
        case OPT_THREADS:
            if (!cli_opt_int(cmd, "--threads", optarg, 1, 1024, &threads)) return EXIT_USAGE;
            break;
        case OPT_SEED:
            if (!cli_opt_u64(cmd, "--seed", optarg, &seed)) return EXIT_USAGE;
            have_seed = true;
            break;
        case OPT_DB: db = optarg; break;
        case OPT_NO_DB: no_db = true; break;
        case OPT_RUN: name = optarg; break;
        case OPT_RESUME: resume = optarg; break;
        case OPT_QUIET: quiet = true; break;
        case OPT_BUSY:
            if (!cli_opt_int(cmd, "--busy-timeout", optarg, 0, 3600000, &busy)) return EXIT_USAGE;
            break;
        default:
            if (optopt) return cli_usage_error(cmd, "option '%s' wants a value", argv[optind - 1]);
            return cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc) return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);

    /* Check the whole command line before touching any file. */
    SelfplayPlan plan = {.variant = VARIANT_STANDARD, .threads = (int)threads};
    char perr[AGENT_ERR_LEN];
    if (resume) {
        if (have_games || have_seed || variant_text || white || black || agent || name || no_db)
            return cli_usage_error(cmd, "--resume takes the run's own parameters: only --db, --threads, "
                                        "--busy-timeout and --quiet go with it");
    } else {
        if (!have_games) return cli_usage_error(cmd, "--games N is required (or --resume RUN)");
        if (agent && (white || black)) return cli_usage_error(cmd, "--agent sets both sides: use it or --white/--black");
        if (no_db && (db || name)) return cli_usage_error(cmd, "--no-db stores nothing: --db and --run do not apply");
        if (variant_text && !variant_parse(variant_text, &plan.variant))
            return cli_usage_error(cmd, "unknown variant '%s' (standard or blitz)", variant_text);
        if (!agent_spec_parse(white ? white : agent ? agent : SELFPLAY_DEFAULT_AGENT, &plan.white, perr))
            return cli_usage_error(cmd, "%s agent: %s", white ? "white" : "the", perr);
        if (!agent_spec_parse(black ? black : agent ? agent : SELFPLAY_DEFAULT_AGENT, &plan.black, perr))
            return cli_usage_error(cmd, "%s agent: %s", black ? "black" : "the", perr);
        if (name && (!*name || strlen(name) >= STORE_NAME_LEN))
            return cli_usage_error(cmd, "--run wants a name of 1 to %d characters", STORE_NAME_LEN - 1);
        plan.games = (uint32_t)games;
        if (!have_seed) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            seed = rng_mix((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec, (uint64_t)getpid());
        }
        plan.seed = seed;
    }

    int rc = 0;
    Store *store = NULL;
    StoreRun run = {0};
    uint32_t *indices = NULL, nmissing = 0;
    char *command = NULL;
    SelfplayCtx ctx = {0};

    if (!no_db) {
        if (!db) {
            db = SELFPLAY_DEFAULT_DB;
            if (mkdir("results", 0777) != 0 && errno != EEXIST) {
                rc = cli_error(cmd, "cannot create the directory 'results': %s", strerror(errno));
                goto done;
            }
        }
        if (store_open(&store, db, !resume, (int)busy, err)) {
            rc = cli_error(cmd, "%s", err);
            goto done;
        }
    }

    if (resume) {
        if (store_run_find(store, resume, &run, err)) {
            rc = cli_error(cmd, "cannot resume: %s", err);
            goto done;
        }
        plan = run.plan;
        plan.threads = (int)threads;
        if (store_run_missing(store, &run, &indices, &nmissing, err) || store_summary(store, &run, &ctx.sum, err)) {
            rc = cli_error(cmd, "%s", err);
            goto done;
        }
    } else {
        run.plan = plan;
        store_new_uid(plan.seed, run.uid);
        if (name) {
            snprintf(run.name, sizeof run.name, "%s", name);
        } else {
            char date[32];
            time_t t = time(NULL);
            struct tm tm;
            strftime(date, sizeof date, "%Y%m%d-%H%M%S", gmtime_r(&t, &tm));
            snprintf(run.name, sizeof run.name, "selfplay-%s-%.8s", date, run.uid);
        }
        command = cli_join_args(argc, argv);
        if (!command) {
            rc = cli_error(cmd, "out of memory");
            goto done;
        }
        run.plan.threads = plan.threads > 0 ? plan.threads : omp_get_max_threads();
        if (store && store_run_create(store, &run, command, err)) {
            rc = cli_error(cmd, "%s", err);
            goto done;
        }
        indices = malloc(plan.games * sizeof *indices);
        if (!indices) {
            rc = cli_error(cmd, "out of memory");
            goto done;
        }
        for (uint32_t i = 0; i < plan.games; i++) indices[i] = i;
        nmissing = plan.games;
    }

    char ws[AGENT_SPEC_LEN], bs[AGENT_SPEC_LEN];
    if (!quiet)
        fprintf(stderr, "yinsh selfplay: run %s%s%s, seed %" PRIu64 ", %s, %s vs %s, %u games (%u to play), %d threads\n",
                run.name, store ? " in " : "", store ? db : "", plan.seed, variant_name(plan.variant),
                agent_spec_format(&plan.white, ws), agent_spec_format(&plan.black, bs), plan.games, nmissing,
                plan.threads > 0 ? plan.threads : omp_get_max_threads());

    ctx.store = store;
    ctx.run = &run;
    progress_start(&ctx.progress, "games", nmissing, quiet);
    SelfplaySink sink = {.write = sink_write, .stored = sink_stored, .ctx = &ctx};
    if (selfplay_run(&plan, indices, nmissing, &sink, err)) {
        if (ctx.progress.shown) fprintf(stderr, "\n");
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    char tail[128];
    format_tail(&ctx.sum, tail, sizeof tail);
    progress_finish(&ctx.progress, ctx.done, tail);

    SelfplaySummary sum = ctx.sum;
    if (store && (store_run_finish(store, &run, err) || store_summary(store, &run, &sum, err))) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    print_summary(run.name, &sum);

done:
    free(command);
    free(indices);
    store_close(store);
    return rc;
}
