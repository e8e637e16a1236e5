/* The benchmarks' figures as text (bench_text.h). */
#include "selfplay/play/bench_text.h"
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include "engine/base/error.h"
#include "engine/base/number.h"
#include "engine/notation.h"
#include "selfplay/stats/stats.h"

void bench_machine_text(FILE *f, const char *cpu, int cpus, const char *build)
{
    fprintf(f, "machine: %s, %d logical CPUs\n", cpu, cpus);
    fprintf(f, "build: %s\n", build);
}

void bench_perft_text(FILE *f, int depth, const BenchPerft *pf)
{
    fprintf(f, "perft: depth %d from %s\n", depth, BENCH_PERFT_YPN);
    fprintf(f, "perft: nodes %" PRIu64 " (expected %" PRIu64 ", %s), %.3f s, %.1f million leaves/s\n", pf->nodes,
            pf->expected, pf->nodes == pf->expected ? "ok" : "REGRESSION", pf->seconds, pf->nodes / pf->seconds / 1e6);
}

void bench_playouts_text(FILE *f, uint64_t games, uint64_t seed, const BenchPlayouts *one)
{
    const BenchTotals *t = &one->totals;
    fprintf(f, "playouts: %" PRIu64 " random game%s, seed %" PRIu64 ": actions %" PRIu64 ", white %" PRIu64
               ", black %" PRIu64 ", draws %" PRIu64 "; ends: three-rings %" PRIu64 ", pool-empty %" PRIu64
               ", no-moves %" PRIu64 "\n",
            games, number_plural(games), seed, t->actions, t->results[RESULT_WHITE], t->results[RESULT_BLACK],
            t->results[RESULT_DRAW], t->reasons[REASON_THREE_RINGS], t->reasons[REASON_POOL_EMPTY],
            t->reasons[REASON_NO_MOVES]);
    fprintf(f, "playouts: 1 thread: %.3f s, %.0f games/s, %.2f million actions/s\n", one->seconds, games / one->seconds,
            t->actions / one->seconds / 1e6);
}

void bench_threads_text(FILE *f, long threads, uint64_t games, const BenchPlayouts *one, const BenchPlayouts *many,
                        bool same)
{
    fprintf(f, "playouts: %ld threads: %.3f s, %.0f games/s, %.2f million actions/s, speed-up %.2fx over 1 thread "
               "(totals %s)\n",
            threads, many->seconds, games / many->seconds, many->totals.actions / many->seconds / 1e6,
            one->seconds / many->seconds, same ? "identical" : "DIFFER: REGRESSION");
}

void bench_mcts_text(FILE *f, const BenchMcts *b, long positions, uint64_t seed, long sims)
{
    fprintf(f, "mcts: %ld position%s (seed %" PRIu64 "), sims=%ld each, random rollouts: %" PRIu64
               " simulations, hash %016" PRIx64 ", %.0f simulations/s on one thread\n",
            positions, number_plural((uint64_t)positions), seed, sims, b->sims, b->hash,
            b->seconds > 0 ? b->sims / b->seconds : 0);
}

void bench_mcts_agent_text(FILE *f, const BenchMcts *b, long positions, uint64_t seed, const char *agent)
{
    fprintf(f, "mcts: %ld position%s (seed %" PRIu64 "), agent %s: %" PRIu64 " simulations, hash %016" PRIx64
               ", %.0f simulations/s (wall), %.0f per CPU second\n",
            positions, number_plural((uint64_t)positions), seed, agent, b->sims, b->hash,
            b->seconds > 0 ? b->sims / b->seconds : 0, b->cpu > 0 ? b->sims / b->cpu : 0);
}

void bench_mcts_vs_head(FILE *f, long rounds, long positions, long sims, const char *ypn, uint64_t seed,
                        const char *a, const char *b)
{
    fprintf(f, "mcts: %ld round%s of %ld search%s of %ld simulations each, one thread, from %s (seed %" PRIu64 ")\n",
            rounds, number_plural((uint64_t)rounds), positions, positions == 1 ? "" : "es", sims, ypn, seed);
    fprintf(f, "mcts: A = %s\nmcts: B = %s\n", a, b);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int bench_mcts_vs_rounds(FILE *f, const MctsConfig cfg[2], const Position *at, int positions, uint64_t seed,
                         long rounds, char *err)
{
    double ratio[1000];
    long nr = 0;
    if (rounds < 1 || rounds > 1000) return error_set(err, "%ld rounds: 1 to 1000", rounds);
    for (long r = 0; r < rounds; r++) {
        BenchMcts b[2];
        for (int i = 0; i < 2; i++) {
            int who = r % 2 ? 1 - i : i;
            if (bench_mcts_at(&cfg[who], at, positions, seed, &b[who], err)) return -1;
        }
        double ra = b[0].cpu > 0 ? b[0].sims / b[0].cpu : 0, rb = b[1].cpu > 0 ? b[1].sims / b[1].cpu : 0;
        ratio[nr++] = ra > 0 ? rb / ra : 0;
        fprintf(f, "mcts: round %ld: A %.0f simulations per CPU second (%.0f/s wall, hash %016" PRIx64 "), B %.0f "
                   "(%.0f/s wall, hash %016" PRIx64 "): B/A %.3f\n",
                r + 1, ra, b[0].seconds > 0 ? b[0].sims / b[0].seconds : 0, b[0].hash, rb,
                b[1].seconds > 0 ? b[1].sims / b[1].seconds : 0, b[1].hash, ratio[nr - 1]);
    }
    qsort(ratio, (size_t)nr, sizeof *ratio, cmp_double);
    fprintf(f, "mcts: B/A, median of %ld round%s: %.3f\n", nr, number_plural((uint64_t)nr),
            nr % 2 ? ratio[nr / 2] : (ratio[nr / 2 - 1] + ratio[nr / 2]) / 2);
    return 0;
}

/* The --ab figures by depth. */
static void bench_ab_depths(FILE *f, const BenchAb *b)
{
    fprintf(f, "ab: depth  searches  positions on it    EBF   mean |score(d)-score(d-1)|\n");
    for (int d = 1; d < BENCH_AB_DEPTHS && b->completed[d]; d++) {
        /* the EBF over the searches that completed d, against their d-1 */
        fprintf(f, "ab: %5d  %8d  %15" PRIu64, d, b->completed[d], b->step[d]);
        if (d >= 2)
            fprintf(f, "  %5.2f   %8.1f", b->step[d - 1] ? (double)b->step[d] / (double)b->step[d - 1] : 0.0,
                    b->swing[d] / b->completed[d]);
        fprintf(f, "\n");
    }
    double swing = 0;
    int n = 0;
    for (int d = 2; d < BENCH_AB_DEPTHS && b->completed[d]; d++) swing += b->swing[d], n += b->completed[d];
    fprintf(f, "ab: depth completed: mean %.2f (min %d, max %d); swing over all depths %.1f; %.0f positions/s\n",
            b->positions ? (double)b->depth_sum / b->positions : 0.0, b->depth_min, b->depth_max, n ? swing / n : 0.0,
            b->seconds > 0 ? b->nodes / b->seconds : 0.0);
}

void bench_ab_text(FILE *f, const BenchAb *b, uint64_t seed, const char *agent, bool placement, long movetime_ms)
{
    fprintf(f, "ab: %d %sposition%s (seed %" PRIu64 "), agent %s, %s: %" PRIu64 " positions, hash %016" PRIx64
               ", %.2f s\n",
            b->positions, placement ? "placement " : "", number_plural((uint64_t)b->positions), seed, agent,
            movetime_ms ? "on time" : "fixed depth", b->nodes, b->hash, b->seconds);
    if (movetime_ms) fprintf(f, "ab: %ld ms a search\n", movetime_ms);
    bench_ab_depths(f, b);
}

void bench_parts_text(FILE *f, const BenchParts *b, uint64_t seed)
{
    fprintf(f, "parts: %" PRIu64 " random game%s (seed %" PRIu64 "), %" PRIu64 " actions, %" PRIu64
               " ring moves; nanoseconds of CPU time, fastest of 5 passes (checksum %016" PRIx64 ")\n",
            b->games, number_plural(b->games), seed, b->actions, b->moves, b->sink);
    fprintf(f, "parts: %-52s %7.1f ns/action\n", "random step (movegen_random, pos_make)", b->play);
    fprintf(f, "parts: %-52s %7.1f ns/action\n", "generation and pick (movegen_random)", b->random);
    fprintf(f, "parts: %-52s %7.1f ns/action\n", "generation alone (movegen_count)", b->count);
    fprintf(f, "parts: %-52s %7.1f ns/action\n", "make, row detection included (pos_make)", b->make);
    fprintf(f, "parts: %-52s %7.1f ns/move\n", "row detection, both colours after a move", b->rows);
    fprintf(f, "parts: %-52s %7.1f ns/game\n", "outcome check at the game's end (pos_outcome)", b->outcome);
    fprintf(f, "parts: %-52s %7.1f ns/action\n", "outcome check of every position (pos_outcome)", b->outcome_any);
}

void bench_duel_text(FILE *f, const BenchDuel *d, const BenchDuelRun *run)
{
    Interval elo = stats_elo_pentanomial(d->penta);
    uint64_t n = d->wins + d->draws + d->losses;
    fprintf(f, "duel: ab depth %ld, net %s against weights %s, %s, %" PRIu64 " pairs from 4 random actions "
               "(seed %" PRIu64 "): hash %016" PRIx64 "\n",
            run->depth, run->net, run->weights, variant_name(run->variant), d->pairs, run->seed, d->hash);
    fprintf(f, "duel: net +%" PRIu64 " =%" PRIu64 " -%" PRIu64 ", score %.1f%%, Elo %+.0f [%+.0f, %+.0f] (95%%, "
               "pentanomial %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 ")\n",
            d->wins, d->draws, d->losses, n ? 100.0 * (d->wins + 0.5 * d->draws) / n : 0, elo.mid, elo.lo, elo.hi,
            d->penta[0], d->penta[1], d->penta[2], d->penta[3], d->penta[4]);
    const char *side[2] = {"net", "linear"};
    for (int s = 0; s < 2; s++)
        fprintf(f, "duel: %-6s %" PRIu64 " searches, %.0f positions each, %.2f ms each, %.0f positions/s\n", side[s],
                d->actions[s], d->actions[s] ? (double)d->nodes[s] / d->actions[s] : 0,
                d->actions[s] ? 1e3 * d->cpu[s] / d->actions[s] : 0, d->cpu[s] > 0 ? d->nodes[s] / d->cpu[s] : 0);
    fprintf(f, "duel: %.1f s on %ld threads\n", run->seconds, run->threads);
}

void bench_nnue_text(FILE *f, const BenchNnue *b, const char *path, const Nnue *net, uint64_t seed)
{
    fprintf(f, "nnue: %s (hidden %d, second layer %d, hash %016" PRIx64 "), %" PRIu64 " random games (seed %" PRIu64
               "), %" PRIu64 " positions; ns per position, CPU time, fastest of 5 passes (checksum %016" PRIx64 ")\n",
            path, nnue_hidden(net), nnue_l2(net), nnue_hash(net), b->games, seed, b->positions, b->sink);
    fprintf(f, "nnue: %-44s %8.1f ns\n", "linear evaluation (eval_logit)", b->linear);
    if (!isnan(b->parts))
        fprintf(f, "nnue: %-44s %8.1f ns\n",
                nnue_has_patterns(net) ? "net's linear and pattern parts (nnue_linear)" : "net's linear part (nnue_linear)",
                b->parts);
    if (!isnan(b->parts_acc) && nnue_has_patterns(net))
        fprintf(f, "nnue: %-44s %8.1f ns\n", "the same, patterns from the accumulators", b->parts_acc);
    const char *pname[2] = {"portable", "avx2"};
    for (int p = 0; p < 2; p++) {
        if (isnan(b->scratch[p])) {
            fprintf(f, "nnue: %s path: not on this CPU\n", pname[p]);
            continue;
        }
        char label[64];
        snprintf(label, sizeof label, "%s: from scratch (refresh, output)", pname[p]);
        fprintf(f, "nnue: %-44s %8.1f ns\n", label, b->scratch[p]);
        snprintf(label, sizeof label, "%s: incremental (update, output)", pname[p]);
        fprintf(f, "nnue: %-44s %8.1f ns\n", label, b->incremental[p]);
        snprintf(label, sizeof label, "%s: update alone (nnue_delta, apply)", pname[p]);
        fprintf(f, "nnue: %-44s %8.1f ns\n", label, b->update[p]);
        snprintf(label, sizeof label, "%s: output alone", pname[p]);
        fprintf(f, "nnue: %-44s %8.1f ns\n", label, b->output[p]);
    }
}
