/* The benchmarks' figures as text (`yinsh bench`): each result of
 * selfplay/play/bench.h written to a stream, a line or a table per mode,
 * beginning with the mode's name. tests/bench_quick.sh reads the counts
 * from these lines; the speeds are figures, never checked. */
#ifndef YINSH_BENCH_TEXT_H
#define YINSH_BENCH_TEXT_H

#include <stdbool.h>
#include <stdio.h>
#include "selfplay/play/bench.h"

/* The machine: its CPU, logical CPUs and the build. */
void bench_machine_text(FILE *f, const char *cpu, int cpus, const char *build);
/* perft at depth from BENCH_PERFT_YPN, against the count expected. */
void bench_perft_text(FILE *f, int depth, const BenchPerft *pf);
/* The random games' totals and their speed on one thread. */
void bench_playouts_text(FILE *f, uint64_t games, uint64_t seed, const BenchPlayouts *one);
/* Their speed on threads, the speed-up, and whether the totals are the
 * same (same false: a regression). */
void bench_threads_text(FILE *f, long threads, uint64_t games, const BenchPlayouts *one, const BenchPlayouts *many,
                        bool same);

/* --mcts: the searches with random rollouts, sims each. */
void bench_mcts_text(FILE *f, const BenchMcts *b, long positions, uint64_t seed, long sims);
/* --mcts --agent: the searches of an agent (its spec's text). */
void bench_mcts_agent_text(FILE *f, const BenchMcts *b, long positions, uint64_t seed, const char *agent);
/* --mcts --vs: what is compared (A and B, their specs' texts) from ypn. */
void bench_mcts_vs_head(FILE *f, long rounds, long positions, long sims, const char *ypn, uint64_t seed,
                        const char *a, const char *b);
/* --mcts --vs: rounds of both configurations' searches from at,
 * alternating which goes first (a loaded machine's drift falls on both),
 * each round's line written as it ends, then the median of B's speed over
 * A's. rounds at most 1000. 0, or -1 with err. */
int bench_mcts_vs_rounds(FILE *f, const MctsConfig cfg[2], const Position *at, int positions, uint64_t seed,
                         long rounds, char *err);

/* --ab: the searches of an agent (its spec's text), then by depth the
 * positions spent, the effective branching factor and the swing. */
void bench_ab_text(FILE *f, const BenchAb *b, uint64_t seed, const char *agent, bool placement, long movetime_ms);
/* --parts: the cost of a random action by parts. */
void bench_parts_text(FILE *f, const BenchParts *b, uint64_t seed);

/* --nnue: the net (path) against the linear evaluation, pass by pass. */
void bench_nnue_text(FILE *f, const BenchNnue *b, const char *path, const Nnue *net, uint64_t seed);
/* What a duel was: the net's file, the weights' name, the depth, the
 * variant, the seed, the threads and its wall time. */
typedef struct BenchDuelRun {
    const char *net, *weights;
    long depth;
    int variant;
    uint64_t seed;
    long threads;
    double seconds;
} BenchDuelRun;
/* --nnue --duel: the net's results, Elo and the cost of each side's searches. */
void bench_duel_text(FILE *f, const BenchDuel *d, const BenchDuelRun *run);

#endif
