/* The benchmarks' figures as JSON (`yinsh bench --json`, docs/json.md):
 * the members each mode adds to the document its caller began. */
#ifndef YINSH_BENCH_JSON_H
#define YINSH_BENCH_JSON_H

#include <stdbool.h>
#include "engine/base/json.h"
#include "selfplay/play/bench.h"

/* "machine" (the CPU and its logical CPUs) and "build". */
void bench_machine_json(Json *j, const char *cpu, int cpus, const char *build);
/* "perft": the depth, the position, the nodes against those expected,
 * whether they match, the time and the speed. */
void bench_perft_json(Json *j, int depth, const BenchPerft *pf);
/* "playouts": the games, the seed, their totals, the timing on one thread
 * and, when many is not NULL, on threads: the speed-up and whether the
 * totals are the same (many NULL: "many_threads" null). */
void bench_playouts_json(Json *j, uint64_t games, uint64_t seed, const BenchPlayouts *one, long threads,
                         const BenchPlayouts *many, bool same);
/* --mcts: the searches' figures, one thread. */
void bench_mcts_json(Json *j, const BenchMcts *b, long positions, uint64_t seed, long sims);

#endif
