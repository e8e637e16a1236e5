/* yinsh bench: the engine's deterministic benchmark. The counts it prints
 * are regression checks (the same on every machine and for any number of
 * threads); the speeds are figures, never checked by a test. */
#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "commands.h"
#include "notation.h"
#include "perft.h"
#include "randgame.h"
#include "mcts.h"

const char USAGE_BENCH[] =
    "usage: yinsh bench [--quick] [--depth D] [--games N] [--seed S] [--threads T]\n"
    "       yinsh bench --mcts [--sims N] [--positions P] [--seed S]\n"
    "  Engine benchmark on one thread, then on T threads (default: all cores):\n"
    "  1. perft with bulk counting from the second position of RULES.md 9\n"
    "     (default depth 5: 927746739 nodes; --quick: depth 4, 18886483 nodes);\n"
    "  2. N uniformly random full games from the empty start (default 200000,\n"
    "     --quick 2000), game i on its own pcg32 stream from (S, i), S default 1:\n"
    "     total actions and results are the same for any T.\n"
    "  A node count or playout total that differs between runs is reported as\n"
    "  a regression (exit status 1).\n"
    "  --mcts: MCTS simulations per second on one thread: one search of N\n"
    "  simulations (default 1000) from each of P fixed positions (default 40)\n"
    "  taken from random games of seed S, fresh tree each, random rollouts.\n";

static const char *const PERFT_YPN = "4/7/5B2/6B2/8BW/6B2/4B1W2W/3W4W/8/7/4 w M standard";
static const uint64_t PERFT_EXPECTED[] = {1, 54, 4705, 240259, 18886483, 927746739};

typedef struct PlayoutTotals {
    uint64_t actions;
    uint64_t results[RESULT_NB]; /* indexed by RESULT_* */
    uint64_t reasons[REASON_NB]; /* indexed by REASON_* */
} PlayoutTotals;

static void playouts(uint64_t games, uint64_t seed, int threads, PlayoutTotals *out)
{
    uint64_t actions = 0, white = 0, black = 0, draw = 0, none = 0;
    uint64_t rings = 0, blitz = 0, pool = 0, nomove = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 256) \
    reduction(+ : actions, white, black, draw, none, rings, blitz, pool, nomove)
    for (uint64_t i = 0; i < games; i++) {
        Rng rng;
        Position pos;
        int result, reason;
        rng_stream(&rng, seed, i);
        pos_start(&pos, VARIANT_STANDARD);
        actions += (uint64_t)randgame_play(&pos, &rng, GAME_MAX_ACTIONS);
        pos_outcome(&pos, &result, &reason);
        white += result == RESULT_WHITE;
        black += result == RESULT_BLACK;
        draw += result == RESULT_DRAW;
        none += result == RESULT_NONE;
        rings += reason == REASON_THREE_RINGS;
        blitz += reason == REASON_BLITZ_ROW;
        pool += reason == REASON_POOL_EMPTY;
        nomove += reason == REASON_NO_MOVES;
    }
    *out = (PlayoutTotals){actions, {none, white, black, draw}, {0, rings, blitz, pool, nomove}};
}

static void cpu_model(char *out, size_t size)
{
    snprintf(out, size, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[256];
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
            snprintf(out, size, "%s", strchr(line, ':') + 2);
            out[strcspn(out, "\n")] = 0;
            break;
        }
    fclose(f);
}

int cmd_bench(int argc, char **argv)
{
    bool quick = false, mcts = false;
    long depth = -1, threads = omp_get_num_procs(), sims = 1000, positions = 40;
    uint64_t games = 0, seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        if (!strcmp(opt, "--quick") || !strcmp(opt, "--mcts")) {
            *(opt[2] == 'q' ? &quick : &mcts) = true;
            continue;
        }
        if (strcmp(opt, "--depth") && strcmp(opt, "--games") && strcmp(opt, "--seed") && strcmp(opt, "--threads") &&
            strcmp(opt, "--sims") && strcmp(opt, "--positions"))
            return cli_usage_error("bench", "unknown option '%s'", opt);
        if (++i >= argc) return cli_usage_error("bench", "%s needs a value", opt);
        bool ok = !strcmp(opt, "--depth")       ? cli_parse_int(argv[i], 1, 5, &depth)
                  : !strcmp(opt, "--games")     ? cli_parse_u64(argv[i], &games) && games > 0
                  : !strcmp(opt, "--seed")      ? cli_parse_u64(argv[i], &seed)
                  : !strcmp(opt, "--sims")      ? cli_parse_int(argv[i], 1, 10000000, &sims)
                  : !strcmp(opt, "--positions") ? cli_parse_int(argv[i], 1, 10000, &positions)
                                                : cli_parse_int(argv[i], 1, 1024, &threads);
        if (!ok) return cli_usage_error("bench", "bad value '%s' for %s", argv[i], opt);
    }
    if (mcts) {
        uint64_t total = 0, hash = 0;
        double rate = mcts_bench_run((int)sims, (int)positions, seed, &total, &hash);
        if (total == 0) return cli_error("bench", "out of memory for the search tree");
        printf("mcts: %ld positions (seed %" PRIu64 "), sims=%ld each, random rollouts: %" PRIu64
               " simulations, hash %016" PRIx64 ", %.0f simulations/s on one thread\n",
               positions, seed, sims, total, hash, rate);
        return 0;
    }
    if (depth < 0) depth = quick ? 4 : 5;
    if (!games) games = quick ? 2000 : 200000;

    char cpu[128];
    cpu_model(cpu, sizeof cpu);
    printf("machine: %s, %d logical CPUs\n", cpu, omp_get_num_procs());

    Position pos;
    char err[ERR_LEN];
    if (ypn_parse(PERFT_YPN, &pos, err)) return cli_error("bench", "%s", err);
    double t0 = cli_now();
    uint64_t nodes = perft(&pos, (int)depth);
    double el = cli_now() - t0;
    bool perft_ok = nodes == PERFT_EXPECTED[depth];
    printf("perft: depth %ld from %s\n", depth, PERFT_YPN);
    printf("perft: nodes %" PRIu64 " (expected %" PRIu64 ", %s), %.3f s, %.1f million leaves/s\n", nodes,
           PERFT_EXPECTED[depth], perft_ok ? "ok" : "REGRESSION", el, nodes / el / 1e6);

    PlayoutTotals one, many;
    t0 = cli_now();
    playouts(games, seed, 1, &one);
    double t1 = cli_now() - t0;
    printf("playouts: %" PRIu64 " random games, seed %" PRIu64 ": actions %" PRIu64 ", white %" PRIu64
           ", black %" PRIu64 ", draws %" PRIu64 "; ends: three-rings %" PRIu64 ", pool-empty %" PRIu64
           ", no-moves %" PRIu64 "\n",
           games, seed, one.actions, one.results[RESULT_WHITE], one.results[RESULT_BLACK], one.results[RESULT_DRAW],
           one.reasons[REASON_THREE_RINGS], one.reasons[REASON_POOL_EMPTY], one.reasons[REASON_NO_MOVES]);
    printf("playouts: 1 thread: %.3f s, %.0f games/s, %.2f million actions/s\n", t1, games / t1,
           one.actions / t1 / 1e6);
    bool threads_ok = true;
    if (threads > 1) {
        t0 = cli_now();
        playouts(games, seed, (int)threads, &many);
        double tn = cli_now() - t0;
        threads_ok = !memcmp(&one, &many, sizeof one);
        printf("playouts: %ld threads: %.3f s, %.0f games/s, %.2f million actions/s, speed-up %.2fx over 1 thread "
               "(totals %s)\n",
               threads, tn, games / tn, many.actions / tn / 1e6, t1 / tn,
               threads_ok ? "identical" : "DIFFER: REGRESSION");
    }
    return perft_ok && threads_ok ? 0 : 1;
}
