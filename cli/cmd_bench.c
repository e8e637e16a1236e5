/* yinsh bench: the options and the printing of the benchmarks in
 * selfplay/play/bench.h. The counts it prints are regression checks (the same on
 * every machine and for any number of threads), which tests/bench_quick.sh
 * reads from this output; the speeds are figures, never checked. */
#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "selfplay/play/bench.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "engine/base/json.h"
#include "engine/notation.h"
#include "engine/base/number.h"
#include "engine/base/clock.h"
#include "selfplay/search/ab.h"
#include "selfplay/stats/stats.h"

const char USAGE_BENCH[] =
    "usage: yinsh bench [--quick] [--depth D] [--games N] [--seed S] [--threads T] [--json]\n"
    "       yinsh bench --mcts [--sims N] [--positions P] [--seed S] [--agent SPEC] [--json]\n"
    "       yinsh bench --mcts --agent SPEC --vs SPEC2 [--ypn POS] [--rounds R] [--sims N]\n"
    "                   [--positions P] [--seed S]\n"
    "       yinsh bench --ab [--agent SPEC] [--depth D] [--movetime MS] [--positions P] [--seed S]\n"
    "                   [--placement]\n"
    "       yinsh bench --parts [--games N] [--seed S]\n"
    "       yinsh bench --nnue NET [--weights FILE] [--games N] [--seed S]\n"
    "       yinsh bench --nnue NET --duel PAIRS [--depth D] [--variant V] [--weights FILE]\n"
    "                   [--seed S] [--threads T]\n"
    "  Engine benchmark on one thread, then on T threads (default: all cores):\n"
    "  1. perft with bulk counting from the second position of docs/notation.md §6\n"
    "     (default depth 5: 927746739 nodes; --quick: depth 4, 18886483 nodes);\n"
    "  2. N uniformly random full games from the empty start (default 200000,\n"
    "     --quick 2000), game i on its own pcg32 stream from (S, i), S default 1:\n"
    "     total actions and results are the same for any T.\n"
    "  A node count or playout total that differs between runs is reported as\n"
    "  a regression (exit status 1).\n"
    "  --mcts: MCTS simulations per second on one thread: one search of N\n"
    "  simulations (default 1000) from each of P fixed positions (default 40)\n"
    "  taken from random games of seed S, fresh tree each, random rollouts.\n"
    "  --agent SPEC: the search of an mcts agent spec instead (its sims replaced\n"
    "  by N), e.g. mcts:rollout=4,eval=eval/weights/tuned.txt or threads=2;\n"
    "  prints simulations/s over the wall clock and per CPU second.\n"
    "  --vs SPEC2: two mcts agents in one run, R rounds (default 3) alternating\n"
    "  which goes first, each round P searches (default 40) of each; --ypn POS:\n"
    "  every search from POS (a fresh tree each; bench: the second position of\n"
    "  docs/notation.md §6); prints each round's simulations per CPU second and\n"
    "  SPEC2's over SPEC's, and the median of those ratios.\n"
    "  --ab: alpha-beta from P (default 16) middle-game positions (seed S: ten\n"
    "  random placements, then 10 to 40 actions of depth-2 alpha-beta), one\n"
    "  search each from a fresh table, of the agent SPEC (default best) to depth\n"
    "  D (default 6; the positions are a regression count, and the hash pins\n"
    "  every search's action, score and count), or with --movetime MS for MS\n"
    "  milliseconds each (the depth reached is the figure). Prints by depth the\n"
    "  positions spent on it, the effective branching factor (those over the\n"
    "  depth before's) and the mean |score(d) - score(d-1)| (the odd/even\n"
    "  swing), then the mean depth completed and positions per second.\n"
    "  --placement: from P placement positions instead (seed S: 2 + k mod 7\n"
    "  random rings for position k, the search places the rest), where a deep\n"
    "  agent that places its own rings spends most of its time.\n"
    "  --parts: the cost of a random action by parts (generation, pick, make,\n"
    "  row checks, outcome check), each timed alone over the recorded actions\n"
    "  of N random games (default 1000); nanoseconds of CPU time, fastest of\n"
    "  5 passes.\n"
    "  --nnue NET: the net (a file, or `builtin`) against the linear evaluation\n"
    "  (--weights FILE, default the built-in defaults): nanoseconds per position\n"
    "  over every position of N random games (default 1000), fastest of 5 passes\n"
    "  in CPU time: linear, the net from scratch, incremental (the accumulators\n"
    "  from the parent's, then the output), the update and the output alone, on\n"
    "  the portable and the AVX2 path.\n"
    "  --duel PAIRS: alpha-beta at depth D (default 3) with the net against\n"
    "  alpha-beta with the weights, PAIRS colour-swapped pairs of games from four\n"
    "  random actions (variant V, default standard): the net's score and Elo.\n"
    "  --json: the figures as one JSON document on stdout (docs/json.md).\n";

static void json_rate(Json *j, const char *key, double count, double seconds)
{
    json_num(j, key, seconds > 0 ? count / seconds : NAN);
}

static void json_totals(Json *j, const BenchTotals *t)
{
    json_uint(j, "actions", t->actions);
    json_open(j, "results", '{', true);
    json_uint(j, "white", t->results[RESULT_WHITE]);
    json_uint(j, "black", t->results[RESULT_BLACK]);
    json_uint(j, "draw", t->results[RESULT_DRAW]);
    json_close(j);
    json_open(j, "end_reasons", '{', true);
    for (int r = 0; r < REASON_NB; r++) json_uint(j, reason_name(r), t->reasons[r]);
    json_close(j);
}

/* One timing of the playouts: opens its object, which the caller closes
 * (after adding to it). */
static void json_speed(Json *j, const char *key, long threads, uint64_t games, const BenchPlayouts *b)
{
    json_object(j, key);
    json_int(j, "threads", threads);
    json_num(j, "time_s", b->seconds);
    json_rate(j, "games_per_s", (double)games, b->seconds);
    json_rate(j, "actions_per_s", (double)b->totals.actions, b->seconds);
}

/* The options of every mode. */
typedef struct BenchArgs {
    bool quick, json, placement;
    long depth, threads, sims, positions, games;
    uint64_t seed;
    const char *agent, *vs, *ypn;
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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* --mcts --vs: two agents' simulations per second in one run, rounds
 * alternating which goes first (a loaded machine's drift falls on both). */
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
    printf("mcts: %ld round%s of %ld search%s of %ld simulations each, one thread, from %s (seed %" PRIu64 ")\n",
           a->rounds, number_plural((uint64_t)a->rounds), a->positions, a->positions == 1 ? "" : "es", a->sims, ypn,
           a->seed);
    printf("mcts: A = %s\nmcts: B = %s\n", text[0], text[1]);
    double ratio[1000];
    long nr = 0;
    for (long r = 0; !rc && r < a->rounds; r++) {
        BenchMcts b[2];
        for (int i = 0; !rc && i < 2; i++) {
            int who = r % 2 ? 1 - i : i;
            if (bench_mcts_at(&cfg[who], &pos, (int)a->positions, a->seed, &b[who], err))
                rc = cli_error("bench", "%s", err);
        }
        if (rc) break;
        double ra = b[0].cpu > 0 ? b[0].sims / b[0].cpu : 0, rb = b[1].cpu > 0 ? b[1].sims / b[1].cpu : 0;
        ratio[nr++] = ra > 0 ? rb / ra : 0;
        printf("mcts: round %ld: A %.0f simulations per CPU second (%.0f/s wall, hash %016" PRIx64 "), B %.0f (%.0f/s "
               "wall, hash %016" PRIx64 "): B/A %.3f\n",
               r + 1, ra, b[0].seconds > 0 ? b[0].sims / b[0].seconds : 0, b[0].hash, rb,
               b[1].seconds > 0 ? b[1].sims / b[1].seconds : 0, b[1].hash, ratio[nr - 1]);
    }
    if (!rc) {
        qsort(ratio, (size_t)nr, sizeof *ratio, cmp_double);
        printf("mcts: B/A, median of %ld round%s: %.3f\n", nr, number_plural((uint64_t)nr),
               nr % 2 ? ratio[nr / 2] : (ratio[nr / 2 - 1] + ratio[nr / 2]) / 2);
    }
    agent_spec_release(&spec[0]);
    agent_spec_release(&spec[1]);
    return rc;
}

/* --mcts: simulations per second of fresh searches from fixed positions. */
static int bench_mcts_mode(const BenchArgs *a, int argc, char **argv)
{
    BenchMcts b;
    char spec_text[SPEC_LEN], err[ERR_LEN];
    if (a->agent) {
        AgentSpec spec;
        int prc = cli_agent("bench", "--agent", a->agent, &spec);
        if (prc) return prc;
        char sims_text[32];
        snprintf(sims_text, sizeof sims_text, "%ld", a->sims);
        MctsConfig cfg;
        /* --sims replaces the spec's, in the searches and in the text printed */
        if (!agent_spec_mcts_config(&spec, &cfg)) prc = cli_usage_error("bench", "--agent: an mcts spec is needed");
        else if (agent_spec_set(&spec, "sims", sims_text, err)) prc = cli_usage_error("bench", "--sims: %s", err);
        else {
            agent_spec_mcts_config(&spec, &cfg);
            if (bench_mcts_config(&cfg, (int)a->positions, a->seed, &b, err)) prc = cli_error("bench", "%s", err);
        }
        agent_spec_format(&spec, spec_text);
        agent_spec_release(&spec); /* its net was the searches' */
        if (prc) return prc;
        if (!a->json) {
            printf("mcts: %ld position%s (seed %" PRIu64 "), agent %s: %" PRIu64 " simulations, hash %016" PRIx64
                   ", %.0f simulations/s (wall), %.0f per CPU second\n",
                   a->positions, number_plural((uint64_t)a->positions), a->seed, spec_text,
                   b.sims, b.hash,
                   b.seconds > 0 ? b.sims / b.seconds : 0, b.cpu > 0 ? b.sims / b.cpu : 0);
            return 0;
        }
    } else if (bench_mcts((int)a->sims, (int)a->positions, a->seed, &b, err))
        return cli_error("bench", "%s", err);
    if (!a->json) {
        printf("mcts: %ld position%s (seed %" PRIu64 "), sims=%ld each, random rollouts: %" PRIu64
               " simulations, hash %016" PRIx64 ", %.0f simulations/s on one thread\n",
               a->positions, number_plural((uint64_t)a->positions), a->seed, a->sims, b.sims, b.hash,
               b.seconds > 0 ? b.sims / b.seconds : 0);
        return 0;
    }
    Json j;
    cli_json_begin(&j, "bench", argc, argv);
    json_str(&j, "mode", "mcts");
    json_int(&j, "positions", a->positions);
    json_u64_text(&j, "seed", a->seed);
    json_int(&j, "sims_per_search", a->sims);
    json_uint(&j, "simulations", b.sims);
    json_hex(&j, "hash", b.hash);
    json_int(&j, "threads", 1);
    json_num(&j, "time_s", b.seconds);
    json_rate(&j, "simulations_per_s", (double)b.sims, b.seconds);
    json_end(&j);
    return 0;
}

/* The --ab figures by depth. */
static void bench_ab_print(const BenchAb *b)
{
    printf("ab: depth  searches  positions on it    EBF   mean |score(d)-score(d-1)|\n");
    for (int d = 1; d < BENCH_AB_DEPTHS && b->completed[d]; d++) {
        /* the EBF over the searches that completed d, against their d-1 */
        printf("ab: %5d  %8d  %15" PRIu64, d, b->completed[d], b->step[d]);
        if (d >= 2) printf("  %5.2f   %8.1f", b->step[d - 1] ? (double)b->step[d] / (double)b->step[d - 1] : 0.0,
                           b->swing[d] / b->completed[d]);
        printf("\n");
    }
    double swing = 0;
    int n = 0;
    for (int d = 2; d < BENCH_AB_DEPTHS && b->completed[d]; d++) swing += b->swing[d], n += b->completed[d];
    printf("ab: depth completed: mean %.2f (min %d, max %d); swing over all depths %.1f; %.0f positions/s\n",
           b->positions ? (double)b->depth_sum / b->positions : 0.0, b->depth_min, b->depth_max,
           n ? swing / n : 0.0, b->seconds > 0 ? b->nodes / b->seconds : 0.0);
}

/* --ab: alpha-beta's depth, branching factor, swing and speed. */
static int bench_ab_mode(const BenchArgs *a, long movetime_ms)
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
             bench_ab(&cfg, (int)a->positions, a->seed, movetime_ms / 1000.0, a->placement, &b, err))
        rc = cli_error("bench", "%s", err);
    agent_spec_format(&spec, text);
    agent_spec_release(&spec);
    if (rc) return rc;
    printf("ab: %d %sposition%s (seed %" PRIu64 "), agent %s, %s: %" PRIu64 " positions, hash %016" PRIx64
           ", %.2f s\n", b.positions, a->placement ? "placement " : "", number_plural((uint64_t)b.positions), a->seed,
           text, movetime_ms ? "on time" : "fixed depth", b.nodes, b.hash, b.seconds);
    if (movetime_ms) printf("ab: %ld ms a search\n", movetime_ms);
    bench_ab_print(&b);
    return 0;
}

/* --parts: the cost of a random action by parts. */
static int bench_parts_mode(const BenchArgs *a)
{
    BenchParts b;
    if (bench_parts(a->games ? (uint64_t)a->games : 1000, a->seed, 5, &b))
        return cli_error("bench", "out of memory for the recorded games");
    printf("parts: %" PRIu64 " random game%s (seed %" PRIu64 "), %" PRIu64 " actions, %" PRIu64
           " ring moves; nanoseconds of CPU time, fastest of 5 passes (checksum %016" PRIx64 ")\n",
           b.games, number_plural(b.games), a->seed, b.actions, b.moves, b.sink);
    printf("parts: %-52s %7.1f ns/action\n", "random step (movegen_random, pos_make)", b.play);
    printf("parts: %-52s %7.1f ns/action\n", "generation and pick (movegen_random)", b.random);
    printf("parts: %-52s %7.1f ns/action\n", "generation alone (movegen_count)", b.count);
    printf("parts: %-52s %7.1f ns/action\n", "make, row detection included (pos_make)", b.make);
    printf("parts: %-52s %7.1f ns/move\n", "row detection, both colours after a move", b.rows);
    printf("parts: %-52s %7.1f ns/game\n", "outcome check at the game's end (pos_outcome)", b.outcome);
    printf("parts: %-52s %7.1f ns/action\n", "outcome check of every position (pos_outcome)", b.outcome_any);
    return 0;
}

/* The engine benchmark's first part, perft: whether it counted the
 * expected nodes (*ok); 0, or 1 after printing why it could not run. */
static int bench_perft_part(const BenchArgs *a, Json *j, bool *ok)
{
    BenchPerft pf;
    char err[ERR_LEN];
    if (bench_perft((int)a->depth, &pf, err)) return cli_error("bench", "%s", err);
    *ok = pf.nodes == pf.expected;
    if (a->json) {
        json_object(j, "perft");
        json_int(j, "depth", a->depth);
        json_str(j, "ypn", BENCH_PERFT_YPN);
        json_uint(j, "nodes", pf.nodes);
        json_uint(j, "expected", pf.expected);
        json_bool(j, "ok", *ok);
        json_num(j, "time_s", pf.seconds);
        json_rate(j, "leaves_per_s", (double)pf.nodes, pf.seconds);
        json_close(j);
    } else {
        printf("perft: depth %ld from %s\n", a->depth, BENCH_PERFT_YPN);
        printf("perft: nodes %" PRIu64 " (expected %" PRIu64 ", %s), %.3f s, %.1f million leaves/s\n", pf.nodes,
               pf.expected, *ok ? "ok" : "REGRESSION", pf.seconds, pf.nodes / pf.seconds / 1e6);
    }
    return 0;
}

/* Its second part, random games on one thread and then on T: whether
 * the totals are the same. */
static bool bench_playouts_part(const BenchArgs *a, uint64_t ngames, Json *j)
{
    BenchPlayouts one, many;
    bench_playouts(ngames, a->seed, 1, &one);
    const BenchTotals *t = &one.totals;
    if (a->json) {
        json_object(j, "playouts");
        json_uint(j, "games", ngames);
        json_u64_text(j, "seed", a->seed);
        json_totals(j, t);
        json_speed(j, "one_thread", 1, ngames, &one);
        json_close(j);
        /* "playouts" stays open for the timing on T threads */
    } else {
        printf("playouts: %" PRIu64 " random game%s, seed %" PRIu64 ": actions %" PRIu64 ", white %" PRIu64
               ", black %" PRIu64 ", draws %" PRIu64 "; ends: three-rings %" PRIu64 ", pool-empty %" PRIu64
               ", no-moves %" PRIu64 "\n",
               ngames, number_plural(ngames), a->seed, t->actions, t->results[RESULT_WHITE], t->results[RESULT_BLACK],
               t->results[RESULT_DRAW], t->reasons[REASON_THREE_RINGS], t->reasons[REASON_POOL_EMPTY],
               t->reasons[REASON_NO_MOVES]);
        printf("playouts: 1 thread: %.3f s, %.0f games/s, %.2f million actions/s\n", one.seconds, ngames / one.seconds,
               t->actions / one.seconds / 1e6);
    }
    bool same = true;
    if (a->threads > 1) {
        bench_playouts(ngames, a->seed, (int)a->threads, &many);
        same = !memcmp(&one.totals, &many.totals, sizeof one.totals);
        if (a->json) {
            json_speed(j, "many_threads", a->threads, ngames, &many);
            json_num(j, "speedup", one.seconds / many.seconds);
            json_bool(j, "totals_identical", same);
            json_close(j);
        } else {
            printf("playouts: %ld threads: %.3f s, %.0f games/s, %.2f million actions/s, speed-up %.2fx over 1 thread "
                   "(totals %s)\n",
                   a->threads, many.seconds, ngames / many.seconds, many.totals.actions / many.seconds / 1e6,
                   one.seconds / many.seconds, same ? "identical" : "DIFFER: REGRESSION");
        }
    } else if (a->json) {
        json_null(j, "many_threads");
    }
    if (a->json) json_close(j); /* playouts */
    return same;
}

/* The engine benchmark: the machine, perft, the playouts. */
static int bench_engine_mode(const BenchArgs *a, int argc, char **argv)
{
    uint64_t ngames = a->games ? (uint64_t)a->games : a->quick ? 2000 : 200000;
    char cpu[128], build[160];
    bench_cpu_model(cpu, sizeof cpu);
    bench_build(build, sizeof build);
    Json j;
    if (a->json) {
        cli_json_begin(&j, "bench", argc, argv);
        json_str(&j, "mode", "engine");
        json_open(&j, "machine", '{', true);
        json_str(&j, "cpu", cpu);
        json_int(&j, "logical_cpus", omp_get_num_procs());
        json_close(&j);
        json_str(&j, "build", build);
    } else {
        printf("machine: %s, %d logical CPUs\n", cpu, omp_get_num_procs());
        printf("build: %s\n", build);
    }
    bool perft_ok;
    int rc = bench_perft_part(a, &j, &perft_ok);
    if (rc) return rc;
    bool threads_ok = bench_playouts_part(a, ngames, &j);
    if (a->json) {
        json_bool(&j, "ok", perft_ok && threads_ok);
        json_end(&j);
    }
    return perft_ok && threads_ok ? 0 : 1;
}

/* bench --nnue --duel: the duel's figures. */
static void print_duel(const BenchDuel *d, const char *path, const char *wname, long depth, int variant,
                       uint64_t seed, long threads, double seconds)
{
    Interval elo = stats_elo_pentanomial(d->penta);
    uint64_t n = d->wins + d->draws + d->losses;
    printf("duel: ab depth %ld, net %s against weights %s, %s, %" PRIu64 " pairs from 4 random actions "
           "(seed %" PRIu64 "): hash %016" PRIx64 "\n",
           depth, path, wname, variant_name(variant), d->pairs, seed, d->hash);
    printf("duel: net +%" PRIu64 " =%" PRIu64 " -%" PRIu64 ", score %.1f%%, Elo %+.0f [%+.0f, %+.0f] (95%%, "
           "pentanomial %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 ")\n",
           d->wins, d->draws, d->losses, n ? 100.0 * (d->wins + 0.5 * d->draws) / n : 0, elo.mid, elo.lo, elo.hi,
           d->penta[0], d->penta[1], d->penta[2], d->penta[3], d->penta[4]);
    const char *side[2] = {"net", "linear"};
    for (int s = 0; s < 2; s++)
        printf("duel: %-6s %" PRIu64 " searches, %.0f positions each, %.2f ms each, %.0f positions/s\n", side[s],
               d->actions[s], d->actions[s] ? (double)d->nodes[s] / d->actions[s] : 0,
               d->actions[s] ? 1e3 * d->cpu[s] / d->actions[s] : 0, d->cpu[s] > 0 ? d->nodes[s] / d->cpu[s] : 0);
    printf("duel: %.1f s on %ld threads\n", seconds, threads);
}

/* bench --nnue: the net's cost per position, pass by pass. */
static void print_nnue(const BenchNnue *b, const char *path, const Nnue *net, uint64_t seed)
{
    printf("nnue: %s (hidden %d, second layer %d, hash %016" PRIx64 "), %" PRIu64 " random games (seed %" PRIu64
           "), %" PRIu64 " positions; ns per position, CPU time, fastest of 5 passes (checksum %016" PRIx64 ")\n",
           path, nnue_hidden(net), nnue_l2(net), nnue_hash(net), b->games, seed, b->positions, b->sink);
    printf("nnue: %-44s %8.1f ns\n", "linear evaluation (eval_logit)", b->linear);
    if (!isnan(b->parts))
        printf("nnue: %-44s %8.1f ns\n",
               nnue_has_patterns(net) ? "net's linear and pattern parts (nnue_linear)" : "net's linear part (nnue_linear)",
               b->parts);
    if (!isnan(b->parts_acc) && nnue_has_patterns(net))
        printf("nnue: %-44s %8.1f ns\n", "the same, patterns from the accumulators", b->parts_acc);
    const char *pname[2] = {"portable", "avx2"};
    for (int p = 0; p < 2; p++) {
        if (isnan(b->scratch[p])) {
            printf("nnue: %s path: not on this CPU\n", pname[p]);
            continue;
        }
        char label[64];
        snprintf(label, sizeof label, "%s: from scratch (refresh, output)", pname[p]);
        printf("nnue: %-44s %8.1f ns\n", label, b->scratch[p]);
        snprintf(label, sizeof label, "%s: incremental (update, output)", pname[p]);
        printf("nnue: %-44s %8.1f ns\n", label, b->incremental[p]);
        snprintf(label, sizeof label, "%s: update alone (nnue_delta, apply)", pname[p]);
        printf("nnue: %-44s %8.1f ns\n", label, b->update[p]);
        snprintf(label, sizeof label, "%s: output alone", pname[p]);
        printf("nnue: %-44s %8.1f ns\n", label, b->output[p]);
    }
}

/* bench --nnue: the net's cost per position, or (duel > 0) a duel of
 * alpha-beta with it against alpha-beta with the weights. */
static int bench_nnue_cmd(const char *path, const char *weights, long duel, long depth, const char *variant_text,
                          long games, uint64_t seed, long threads)
{
    char err[ERR_LEN];
    Weights w;
    weights_default(&w);
    int variant = VARIANT_STANDARD;
    if (variant_text && !variant_parse(variant_text, &variant))
        return cli_usage_error("bench", "--variant '%s': " VARIANT_EXPECTED, variant_text);
    if (weights && weights_load(weights, &w, err)) return cli_error("bench", "%s", err);
    Nnue *net;
    if (!strcmp(path, "builtin") ? nnue_load_builtin(&net, err) : nnue_load(&net, path, err))
        return cli_error("bench", "%s", err);
    int rc = 0;
    if (duel) {
        BenchDuel d;
        double t0 = clock_now();
        if (bench_duel(net, &w, (int)depth, variant, (uint64_t)duel, seed, (int)threads, &d, err))
            rc = cli_error("bench", "%s", err);
        else
            print_duel(&d, path, weights ? weights : "the built-in defaults", depth, variant, seed, threads,
                       clock_now() - t0);
    } else {
        BenchNnue b;
        if (bench_nnue(net, &w, games ? (uint64_t)games : 1000, seed, 5, &b, err)) rc = cli_error("bench", "%s", err);
        else print_nnue(&b, path, net, seed);
    }
    nnue_free(net);
    return rc;
}

int cmd_bench(int argc, char **argv)
{
    bool mcts = false, parts = false, ab = false;
    long movetime = 0;
    const char *nnue = NULL, *weights = NULL, *variant_text = NULL;
    long duel = 0;
    BenchArgs a = {.depth = -1, .threads = omp_get_num_procs(), .sims = 1000, .positions = -1, .seed = 1, .rounds = 3};
    const CliOpt opts[] = {
        {.name = "--agent", .kind = CLI_TEXT, .out = &a.agent},
        {.name = "--vs", .kind = CLI_TEXT, .out = &a.vs},
        {.name = "--ypn", .kind = CLI_TEXT, .out = &a.ypn},
        {.name = "--rounds", .kind = CLI_INT, .out = &a.rounds, .min = 1, .max = 1000},
        {.name = "--nnue", .kind = CLI_TEXT, .out = &nnue},
        {.name = "--weights", .kind = CLI_TEXT, .out = &weights},
        {.name = "--duel", .kind = CLI_INT, .out = &duel, .min = 1, .max = 1000000},
        {.name = "--variant", .kind = CLI_TEXT, .out = &variant_text},
        {.name = "--quick", .kind = CLI_FLAG, .out = &a.quick},
        {.name = "--mcts", .kind = CLI_FLAG, .out = &mcts},
        {.name = "--parts", .kind = CLI_FLAG, .out = &parts},
        {.name = "--ab", .kind = CLI_FLAG, .out = &ab},
        {.name = "--placement", .kind = CLI_FLAG, .out = &a.placement},
        {.name = "--movetime", .kind = CLI_INT, .out = &movetime, .min = 1, .max = 3600000},
        {.name = "--depth", .kind = CLI_INT, .out = &a.depth, .min = 1, .max = AB_MAX_DEPTH},
        {.name = "--games", .kind = CLI_INT, .out = &a.games, .min = 1, .max = 1000000000},
        {.name = "--seed", .kind = CLI_U64, .out = &a.seed},
        {.name = "--sims", .kind = CLI_INT, .out = &a.sims, .min = 1, .max = 10000000},
        {.name = "--positions", .kind = CLI_INT, .out = &a.positions, .min = 1, .max = 10000},
        CLI_THREADS_OPTION(&a.threads),
        {.name = "--json", .kind = CLI_FLAG, .out = &a.json},
    };
    int npos, rc = cli_parse("bench", argc, argv, opts, sizeof opts / sizeof *opts, NULL, 0, &npos);
    if (rc) return rc;
    if (nnue)
        return bench_nnue_cmd(nnue, weights, duel, a.depth < 0 ? 3 : a.depth, variant_text, a.games, a.seed, a.threads);
    if (a.placement && !ab) return cli_usage_error("bench", "--placement goes with --ab");
    if (ab) {
        if (a.positions < 0) a.positions = 16;
        return bench_ab_mode(&a, movetime);
    }
    if (a.depth > BENCH_PERFT_MAX_DEPTH)
        return cli_usage_error("bench", "--depth %ld: perft goes to depth %d at most", a.depth, BENCH_PERFT_MAX_DEPTH);
    if (a.positions < 0) a.positions = 40;
    if ((a.vs || a.ypn) && !(mcts && a.agent && a.vs))
        return cli_usage_error("bench", "--vs and --ypn go with --mcts --agent SPEC --vs SPEC2");
    if (mcts && a.vs) return bench_mcts_vs(&a);
    if (mcts) return bench_mcts_mode(&a, argc, argv);
    if (parts) return bench_parts_mode(&a);
    if (a.depth < 0) a.depth = a.quick ? 4 : 5;
    return bench_engine_mode(&a, argc, argv);
}
