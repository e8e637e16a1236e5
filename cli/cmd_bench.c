/* yinsh bench: the options of the benchmarks in selfplay/play/bench.h,
 * their figures written by bench_text.h and bench_json.h. The counts it prints are regression checks (the same on
 * every machine and for any number of threads), which tests/bench_quick.sh
 * reads from this output; the speeds are figures, never checked. */
#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "selfplay/play/bench_json.h"
#include "selfplay/play/bench_text.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "engine/notation.h"
#include "engine/base/clock.h"
#include "engine/base/json.h"
#include "selfplay/search/ab.h"

/* The options of every mode. */
typedef struct BenchArgs {
    bool quick, json, placement, mcts, parts, ab;
    long depth, threads, sims, positions, games, movetime, duel;
    uint64_t seed;
    const char *agent, *vs, *ypn, *nnue, *weights, *variant_text;
    long rounds;
} BenchArgs;

/* The MCTS configuration of an agent spec with --sims N: its text into
 * text; the spec is released by the caller (its net is the config's). */
static int mcts_spec(const char *option, const char *agent, long sims, AgentSpec *spec, MctsConfig *cfg, char *text)
{
    char sims_text[32], err[ERR_LEN];
    int rc = cli_agent("bench", option, agent, spec);
    if (rc) return rc;
    snprintf(sims_text, sizeof sims_text, "%ld", sims);
    if (!agent_spec_mcts_config(spec, cfg)) rc = cli_usage_error("bench", "%s: an mcts spec is needed", option);
    else if (agent_spec_set(spec, "sims", sims_text, err)) rc = cli_usage_error("bench", "--sims: %s", err);
    else agent_spec_mcts_config(spec, cfg);
    agent_spec_format(spec, text);
    return rc;
}

/* --mcts --vs: two agents' simulations per second in one run. */
static int bench_mcts_vs(const BenchArgs *a)
{
    AgentSpec spec[2];
    MctsConfig cfg[2];
    char text[2][SPEC_LEN], err[ERR_LEN];
    int rc = mcts_spec("--agent", a->agent, a->sims, &spec[0], &cfg[0], text[0]);
    if (rc) return rc;
    if ((rc = mcts_spec("--vs", a->vs, a->sims, &spec[1], &cfg[1], text[1]))) {
        agent_spec_release(&spec[0]);
        return rc;
    }
    Position pos;
    const char *ypn = a->ypn ? a->ypn : BENCH_PERFT_YPN;
    if (ypn_parse(ypn, &pos, err)) rc = cli_usage_error("bench", "--ypn: %s", err);
    else if (pos_outcome(&pos, NULL, NULL)) rc = cli_usage_error("bench", "--ypn: the game is over there");
    bench_mcts_vs_head(stdout, a->rounds, a->positions, a->sims, ypn, a->seed, text[0], text[1]);
    if (!rc && bench_mcts_vs_rounds(stdout, cfg, &pos, (int)a->positions, a->seed, a->rounds, err))
        rc = cli_error("bench", "%s", err);
    agent_spec_release(&spec[0]);
    agent_spec_release(&spec[1]);
    return rc;
}

/* --mcts: simulations per second of fresh searches from fixed positions,
 * with random rollouts or (--agent) of an mcts agent, its sims replaced
 * by --sims (in the searches and in the text written). */
static int bench_mcts_mode(const BenchArgs *a, int argc, char **argv)
{
    BenchMcts b;
    char err[ERR_LEN], text[SPEC_LEN];
    int rc = 0;
    if (a->agent) {
        AgentSpec spec = {0};
        MctsConfig cfg;
        rc = mcts_spec("--agent", a->agent, a->sims, &spec, &cfg, text);
        if (!rc && bench_mcts_config(&cfg, (int)a->positions, a->seed, &b, err)) rc = cli_error("bench", "%s", err);
        agent_spec_release(&spec); /* its net was the searches' */
    } else if (bench_mcts((int)a->sims, (int)a->positions, a->seed, &b, err)) {
        rc = cli_error("bench", "%s", err);
    }
    if (rc) return rc;
    if (!a->json) {
        if (a->agent) bench_mcts_agent_text(stdout, &b, a->positions, a->seed, text);
        else bench_mcts_text(stdout, &b, a->positions, a->seed, a->sims);
        return 0;
    }
    Json j;
    json_begin_command(&j, stdout, "bench", argc, argv);
    json_str(&j, "mode", "mcts");
    bench_mcts_json(&j, &b, a->positions, a->seed, a->sims);
    json_end(&j);
    return 0;
}

/* --ab: alpha-beta's depth, branching factor, swing and speed. */
static int bench_ab_mode(const BenchArgs *a)
{
    AgentSpec spec;
    char err[ERR_LEN], text[SPEC_LEN], depth_text[16];
    int rc = cli_agent("bench", "--agent", a->agent ? a->agent : "best", &spec);
    if (rc) return rc;
    snprintf(depth_text, sizeof depth_text, "%ld", a->depth < 0 ? 6 : a->depth);
    AbConfig cfg;
    BenchAb b;
    if (!agent_spec_ab_config(&spec, &cfg)) rc = cli_usage_error("bench", "--agent: an ab spec is needed");
    else if (agent_spec_set(&spec, "depth", depth_text, err)) rc = cli_usage_error("bench", "--depth: %s", err);
    else if (agent_spec_ab_config(&spec, &cfg),
             bench_ab(&cfg, (int)a->positions, a->seed, a->movetime / 1000.0, a->placement, &b, err))
        rc = cli_error("bench", "%s", err);
    agent_spec_format(&spec, text);
    agent_spec_release(&spec);
    if (!rc) bench_ab_text(stdout, &b, a->seed, text, a->placement, a->movetime);
    return rc;
}

/* --parts: the cost of a random action by parts. */
static int bench_parts_mode(const BenchArgs *a)
{
    BenchParts b;
    if (bench_parts(a->games ? (uint64_t)a->games : 1000, a->seed, 5, &b))
        return cli_error("bench", "out of memory for the recorded games");
    bench_parts_text(stdout, &b, a->seed);
    return 0;
}

/* The engine benchmark: the machine, perft, random games on one thread
 * and then on T (the totals must be the same). */
static int bench_engine_mode(const BenchArgs *a, int argc, char **argv)
{
    uint64_t ngames = a->games ? (uint64_t)a->games : a->quick ? 2000 : 200000;
    char cpu[128], build[160], err[ERR_LEN];
    bench_cpu_model(cpu, sizeof cpu);
    bench_build(build, sizeof build);
    Json j;
    if (a->json) {
        json_begin_command(&j, stdout, "bench", argc, argv);
        json_str(&j, "mode", "engine");
        bench_machine_json(&j, cpu, omp_get_num_procs(), build);
    } else {
        bench_machine_text(stdout, cpu, omp_get_num_procs(), build);
    }
    BenchPerft pf;
    if (bench_perft((int)a->depth, &pf, err)) return cli_error("bench", "%s", err);
    if (a->json) bench_perft_json(&j, (int)a->depth, &pf);
    else bench_perft_text(stdout, (int)a->depth, &pf);
    BenchPlayouts one, many;
    bench_playouts(ngames, a->seed, 1, &one);
    if (!a->json) bench_playouts_text(stdout, ngames, a->seed, &one);
    bool same = true;
    if (a->threads > 1) {
        bench_playouts(ngames, a->seed, (int)a->threads, &many);
        same = !memcmp(&one.totals, &many.totals, sizeof one.totals);
        if (!a->json) bench_threads_text(stdout, a->threads, ngames, &one, &many, same);
    }
    bool ok = pf.nodes == pf.expected && same;
    if (a->json) {
        bench_playouts_json(&j, ngames, a->seed, &one, a->threads, a->threads > 1 ? &many : NULL, same);
        json_bool(&j, "ok", ok);
        json_end(&j);
    }
    return ok ? 0 : 1;
}

/* bench --nnue: the net's cost per position, or (--duel) a duel of
 * alpha-beta with it against alpha-beta with the weights. */
static int bench_nnue_mode(const BenchArgs *a)
{
    char err[ERR_LEN];
    Weights w;
    weights_default(&w);
    int variant = VARIANT_STANDARD;
    if (a->variant_text && !variant_parse(a->variant_text, &variant))
        return cli_usage_error("bench", "--variant '%s': " VARIANT_EXPECTED, a->variant_text);
    if (a->weights && weights_load(a->weights, &w, err)) return cli_error("bench", "%s", err);
    Nnue *net;
    if (!strcmp(a->nnue, "builtin") ? nnue_load_builtin(&net, err) : nnue_load(&net, a->nnue, err))
        return cli_error("bench", "%s", err);
    int rc = 0;
    if (a->duel) {
        BenchDuel d;
        long depth = a->depth < 0 ? 3 : a->depth;
        BenchDuelRun run = {.net = a->nnue, .weights = a->weights ? a->weights : "the built-in defaults",
                            .depth = depth, .variant = variant, .seed = a->seed, .threads = a->threads};
        double t0 = clock_now();
        if (bench_duel(net, &w, (int)depth, variant, (uint64_t)a->duel, a->seed, (int)a->threads, &d, err))
            rc = cli_error("bench", "%s", err);
        run.seconds = clock_now() - t0;
        if (!rc) bench_duel_text(stdout, &d, &run);
    } else {
        BenchNnue b;
        if (bench_nnue(net, &w, a->games ? (uint64_t)a->games : 1000, a->seed, 5, &b, err))
            rc = cli_error("bench", "%s", err);
        else bench_nnue_text(stdout, &b, a->nnue, net, a->seed);
    }
    nnue_free(net);
    return rc;
}

static int parse_args(int argc, char **argv, BenchArgs *a)
{
    const CliOpt opts[] = {
        {.name = "--agent", .kind = CLI_TEXT, .out = &a->agent},
        {.name = "--vs", .kind = CLI_TEXT, .out = &a->vs},
        {.name = "--ypn", .kind = CLI_TEXT, .out = &a->ypn},
        {.name = "--rounds", .kind = CLI_INT, .out = &a->rounds, .min = 1, .max = 1000},
        {.name = "--nnue", .kind = CLI_TEXT, .out = &a->nnue},
        {.name = "--weights", .kind = CLI_TEXT, .out = &a->weights},
        {.name = "--duel", .kind = CLI_INT, .out = &a->duel, .min = 1, .max = 1000000},
        {.name = "--variant", .kind = CLI_TEXT, .out = &a->variant_text},
        {.name = "--quick", .kind = CLI_FLAG, .out = &a->quick},
        {.name = "--mcts", .kind = CLI_FLAG, .out = &a->mcts},
        {.name = "--parts", .kind = CLI_FLAG, .out = &a->parts},
        {.name = "--ab", .kind = CLI_FLAG, .out = &a->ab},
        {.name = "--placement", .kind = CLI_FLAG, .out = &a->placement},
        {.name = "--movetime", .kind = CLI_INT, .out = &a->movetime, .min = 1, .max = 3600000},
        {.name = "--depth", .kind = CLI_INT, .out = &a->depth, .min = 1, .max = AB_MAX_DEPTH},
        {.name = "--games", .kind = CLI_INT, .out = &a->games, .min = 1, .max = 1000000000},
        {.name = "--seed", .kind = CLI_U64, .out = &a->seed},
        {.name = "--sims", .kind = CLI_INT, .out = &a->sims, .min = 1, .max = 10000000},
        {.name = "--positions", .kind = CLI_INT, .out = &a->positions, .min = 1, .max = 10000},
        CLI_THREADS_OPTION(&a->threads),
        {.name = "--json", .kind = CLI_FLAG, .out = &a->json},
    };
    int npos;
    return cli_parse("bench", argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
}

/* The modes' combinations and defaults (--nnue and --ab set theirs
 * before): 0, or the usage error's status. */
static int check_args(BenchArgs *a)
{
    if (a->placement && !a->ab) return cli_usage_error("bench", "--placement goes with --ab");
    if (a->ab) {
        if (a->positions < 0) a->positions = 16;
        return 0;
    }
    if (a->depth > BENCH_PERFT_MAX_DEPTH)
        return cli_usage_error("bench", "--depth %ld: perft goes to depth %d at most", a->depth, BENCH_PERFT_MAX_DEPTH);
    if (a->positions < 0) a->positions = 40;
    if ((a->vs || a->ypn) && !(a->mcts && a->agent && a->vs))
        return cli_usage_error("bench", "--vs and --ypn go with --mcts --agent SPEC --vs SPEC2");
    if (a->depth < 0) a->depth = a->quick ? 4 : 5;
    return 0;
}

int cmd_bench(int argc, char **argv)
{
    BenchArgs a = {.depth = -1, .threads = omp_get_num_procs(), .sims = 1000, .positions = -1, .seed = 1, .rounds = 3};
    int rc = parse_args(argc, argv, &a);
    if (rc) return rc;
    if (a.nnue) return bench_nnue_mode(&a);
    if ((rc = check_args(&a))) return rc;
    if (a.ab) return bench_ab_mode(&a);
    if (a.mcts && a.vs) return bench_mcts_vs(&a);
    if (a.mcts) return bench_mcts_mode(&a, argc, argv);
    if (a.parts) return bench_parts_mode(&a);
    return bench_engine_mode(&a, argc, argv);
}
