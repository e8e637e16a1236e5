/* yinsh match: agent A against agent B in colour-swapped pairs, with Elo,
 * its interval, LOS, the pentanomial counts and an optional SPRT. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "commands.h"
#include "match.h"
#include "notation.h"

#define MATCH_DEFAULT_DB "results/yinsh.db"

const char USAGE_MATCH[] =
    "usage: yinsh match --a SPEC --b SPEC --games N [--variant standard|blitz]\n"
    "                   [--threads T] [--seed S] [--sprt elo0,elo1,alpha,beta]\n"
    "                   [--opening rings|none] [--db PATH | --no-db] [--run NAME] [--quiet]\n"
    "  Plays agent A against agent B in N/2 colour-swapped pairs: pair k is game\n"
    "  2k with A as White and game 2k+1 with B as White, both starting from the\n"
    "  same ten random ring placements (drawn from the pair's own stream), so\n"
    "  the first player's edge and the opening's luck cancel. Reports A's wins,\n"
    "  draws and losses, A's score, the Elo difference A - B with its 95%\n"
    "  interval (from the pairs), the likelihood of superiority and the\n"
    "  pentanomial counts. Games are stored like self-play games in a run of\n"
    "  kind 'match' (run.white is A, run.black is B). Results do not depend on T.\n"
    "\n"
    "  --a SPEC, --b SPEC  the agents (see `yinsh selfplay --help`; e.g.\n"
    "                  mcts:sims=200,rollout=8,eval=eval/weights/tuned.txt)\n"
    "  --games N       games, an even number (N/2 pairs)\n"
    "  --variant V     standard (default) or blitz\n"
    "  --threads T     OpenMP threads (default: the number of cores)\n"
    "  --seed S        the run seed (default: from the clock; printed and stored)\n"
    "  --sprt E0,E1,ALPHA,BETA  sequential test of H0: elo = E0 against H1: elo = E1\n"
    "                  after every pair (pentanomial); stops as soon as it accepts one\n"
    "  --opening O     rings (default): random ring placements shared by a pair;\n"
    "                  none: the agents place their own rings\n"
    "  --db PATH       the SQLite database (default " MATCH_DEFAULT_DB ")\n"
    "  --no-db         store nothing\n"
    "  --run NAME      the run's name (default match-<date>-<id>)\n"
    "  --busy-timeout MS  how long to wait for another process's lock (default 5000)\n"
    "  --quiet         no progress\n";

static void show_progress(void *ctx, const MatchTally *t, uint64_t done)
{
    char tail[128];
    snprintf(tail, sizeof tail, "A: W %" PRIu64 " D %" PRIu64 " L %" PRIu64, t->wins, t->draws, t->losses);
    progress_update(ctx, done, tail);
}

static void print_elo(const char *label, Interval e)
{
    printf("%-12s %+.1f (95%% CI %+.1f to %+.1f)\n", label, e.mid, e.lo, e.hi);
}

static void print_result(const StoreRun *run, const MatchPlan *mp, const MatchResult *r)
{
    const MatchTally *t = &r->tally;
    char as[AGENT_SPEC_LEN], bs[AGENT_SPEC_LEN];
    uint64_t games = t->wins + t->draws + t->losses;
    Interval score = stats_score(t->wins, t->draws, t->losses);
    printf("run          %s\n", run->name);
    printf("a            %s\n", agent_spec_format(&mp->plan.white, as));
    printf("b            %s\n", agent_spec_format(&mp->plan.black, bs));
    printf("games        %" PRIu64 " (%" PRIu64 " colour-swapped pairs)\n", games, t->pairs);
    printf("a results    W %" PRIu64 " D %" PRIu64 " L %" PRIu64 "\n", t->wins, t->draws, t->losses);
    printf("a score      %.4f (95%% CI %.4f to %.4f)\n", score.mid, score.lo, score.hi);
    print_elo("elo", stats_elo_pentanomial(t->penta));
    print_elo("elo (games)", stats_elo_trinomial(t->wins, t->draws, t->losses));
    printf("los          %.4f\n", stats_los(t->wins, t->losses));
    printf("pentanomial  %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
           " (pairs in which A scored 0, 1/2, 1, 3/2, 2)\n",
           t->penta[0], t->penta[1], t->penta[2], t->penta[3], t->penta[4]);
    printf("hash         %016" PRIx64 " (actions and visit counts of every game)\n", r->hash);
    if (mp->sprt.on) {
        const Sprt *s = &r->sprt;
        printf("sprt         H0 elo=%g vs H1 elo=%g, alpha %g beta %g: llr %.3f (bounds %.3f, %.3f): ", mp->sprt.elo0,
               mp->sprt.elo1, mp->sprt.alpha, mp->sprt.beta, s->llr, s->lower, s->upper);
        if (r->decided_at)
            printf("%s accepted after %" PRIu64 " pairs\n", s->decision > 0 ? "H1" : "H0", r->decided_at);
        else
            printf("no decision after %" PRIu64 " pairs\n", t->pairs);
    }
}

enum { OPT_A = 256, OPT_B, OPT_GAMES, OPT_VARIANT, OPT_THREADS, OPT_SEED, OPT_SPRT, OPT_OPENING, OPT_DB, OPT_NO_DB,
       OPT_RUN, OPT_QUIET, OPT_BUSY };

int cmd_match(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"a", required_argument, NULL, OPT_A},           {"b", required_argument, NULL, OPT_B},
        {"games", required_argument, NULL, OPT_GAMES},   {"variant", required_argument, NULL, OPT_VARIANT},
        {"threads", required_argument, NULL, OPT_THREADS}, {"seed", required_argument, NULL, OPT_SEED},
        {"sprt", required_argument, NULL, OPT_SPRT},     {"opening", required_argument, NULL, OPT_OPENING},
        {"db", required_argument, NULL, OPT_DB},         {"no-db", no_argument, NULL, OPT_NO_DB},
        {"run", required_argument, NULL, OPT_RUN},       {"quiet", no_argument, NULL, OPT_QUIET},
        {"busy-timeout", required_argument, NULL, OPT_BUSY}, {NULL, 0, NULL, 0},
    };
    const char *cmd = "match";
    const char *a = NULL, *b = NULL, *db = NULL, *name = NULL, *variant_text = NULL, *sprt_text = NULL;
    const char *opening = NULL;
    bool no_db = false, quiet = false, have_seed = false;
    long games = 0, threads = 0, busy = 5000;
    uint64_t seed = 0;
    char err[STORE_ERR_LEN];

    optind = 0;
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
        switch (opt) {
        case OPT_A: a = optarg; break;
        case OPT_B: b = optarg; break;
        case OPT_GAMES:
            if (!cli_parse_int(optarg, 2, 100000000, &games) || games % 2)
                return cli_usage_error(cmd, "--games wants an even number from 2 to 100000000, not '%s'", optarg);
            break;
        case OPT_VARIANT: variant_text = optarg; break;
        case OPT_THREADS:
            if (!cli_opt_int(cmd, "--threads", optarg, 1, 1024, &threads)) return EXIT_USAGE;
            break;
        case OPT_SEED:
            if (!cli_opt_u64(cmd, "--seed", optarg, &seed)) return EXIT_USAGE;
            have_seed = true;
            break;
        case OPT_SPRT: sprt_text = optarg; break;
        case OPT_OPENING: opening = optarg; break;
        case OPT_DB: db = optarg; break;
        case OPT_NO_DB: no_db = true; break;
        case OPT_RUN: name = optarg; break;
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
    MatchPlan mp = {.plan = {.variant = VARIANT_STANDARD, .threads = (int)threads, .opening = OPENING_RINGS}};
    char perr[AGENT_ERR_LEN];
    if (!a || !b) return cli_usage_error(cmd, "--a SPEC and --b SPEC are required");
    if (!games) return cli_usage_error(cmd, "--games N is required");
    if (no_db && (db || name)) return cli_usage_error(cmd, "--no-db stores nothing: --db and --run do not apply");
    if (variant_text && !variant_parse(variant_text, &mp.plan.variant))
        return cli_usage_error(cmd, "unknown variant '%s' (standard or blitz)", variant_text);
    if (opening && strcmp(opening, "rings") && strcmp(opening, "none"))
        return cli_usage_error(cmd, "unknown opening '%s' (rings or none)", opening);
    if (opening && !strcmp(opening, "none")) mp.plan.opening = OPENING_NONE;
    if (!agent_spec_parse(a, &mp.plan.white, perr)) return cli_usage_error(cmd, "agent A: %s", perr);
    if (!agent_spec_parse(b, &mp.plan.black, perr)) return cli_usage_error(cmd, "agent B: %s", perr);
    if (sprt_text && !match_sprt_parse(sprt_text, &mp.sprt, err, sizeof err)) return cli_usage_error(cmd, "%s", err);
    if (name && (!*name || strlen(name) >= STORE_NAME_LEN))
        return cli_usage_error(cmd, "--run wants a name of 1 to %d characters", STORE_NAME_LEN - 1);
    if (!have_seed) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = rng_mix((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec, (uint64_t)getpid());
    }
    mp.plan.seed = seed;
    mp.plan.games = (uint32_t)games;
    mp.plan.pairs = true;

    int rc = 0;
    Store *store = NULL;
    StoreRun run = {.plan = mp.plan};
    char *command = NULL;
    Progress progress;
    MatchResult res;

    store_new_uid(seed, run.uid);
    snprintf(run.kind, sizeof run.kind, "match");
    if (name) {
        snprintf(run.name, sizeof run.name, "%s", name);
    } else {
        char date[32];
        time_t t = time(NULL);
        struct tm tm;
        strftime(date, sizeof date, "%Y%m%d-%H%M%S", gmtime_r(&t, &tm));
        snprintf(run.name, sizeof run.name, "match-%s-%.8s", date, run.uid);
    }
    run.plan.threads = mp.plan.threads > 0 ? mp.plan.threads : omp_get_max_threads();
    if (!no_db) {
        if (!db) {
            db = MATCH_DEFAULT_DB;
            if (mkdir("results", 0777) != 0 && errno != EEXIST) {
                rc = cli_error(cmd, "cannot create the directory 'results': %s", strerror(errno));
                goto done;
            }
        }
        if (!(command = cli_join_args(argc, argv))) {
            rc = cli_error(cmd, "out of memory");
            goto done;
        }
        if (store_open(&store, db, true, (int)busy, err) || store_run_create(store, &run, command, err)) {
            rc = cli_error(cmd, "%s", err);
            goto done;
        }
    }

    char as[AGENT_SPEC_LEN], bs[AGENT_SPEC_LEN];
    if (!quiet)
        fprintf(stderr, "yinsh match: run %s%s%s, seed %" PRIu64 ", %s, A %s vs B %s, %u games, %d threads\n", run.name,
                store ? " in " : "", store ? db : "", seed, variant_name(mp.plan.variant),
                agent_spec_format(&mp.plan.white, as), agent_spec_format(&mp.plan.black, bs), mp.plan.games,
                run.plan.threads);
    progress_start(&progress, "games", mp.plan.games, quiet);
    mp.progress = show_progress;
    mp.ctx = &progress;
    if (match_run(&mp, store, &run, &res, err)) {
        if (progress.shown) fprintf(stderr, "\n");
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    progress_finish(&progress, 2 * res.tally.pairs, NULL);
    if (store && store_run_finish(store, &run, err)) {
        rc = cli_error(cmd, "%s", err);
        goto done;
    }
    print_result(&run, &mp, &res);

done:
    free(command);
    store_close(store);
    return rc;
}
