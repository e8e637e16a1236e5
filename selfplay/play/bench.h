/* The benchmarks behind `yinsh bench`: perft and random games (the
 * engine's speed), and MCTS searches (the search's speed). Each returns
 * its figures in a struct; the caller prints them.
 *
 * Every count is a regression check: the same on every machine, and for
 * the random games the same for any number of threads. The seconds are
 * figures for the reader, never checked by a test. */
#ifndef YINSH_BENCH_H
#define YINSH_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include "eval/nnue.h"
#include "selfplay/search/ab.h"
#include "selfplay/search/mcts.h"
#include "engine/position.h"

/* The perft position: the second position of docs/notation.md §6 (the
 * board after the ten placements of the recorded game in tests/data);
 * BENCH_PERFT_EXPECTED[d] is its perft at depth d. */
enum { BENCH_PERFT_MAX_DEPTH = 5 };
extern const char BENCH_PERFT_YPN[];
extern const uint64_t BENCH_PERFT_EXPECTED[BENCH_PERFT_MAX_DEPTH + 1];

typedef struct BenchPerft {
    uint64_t nodes;    /* perft at the depth asked */
    uint64_t expected; /* BENCH_PERFT_EXPECTED at that depth */
    double seconds;
} BenchPerft;

/* perft of BENCH_PERFT_YPN to depth (1 .. BENCH_PERFT_MAX_DEPTH) on one
 * thread. Returns 0, or non-zero with a message in err (ERR_LEN
 * bytes) when the position does not parse. */
int bench_perft(int depth, BenchPerft *out, char *err);

/* What a batch of random games adds up to. */
typedef struct BenchTotals {
    uint64_t actions;
    uint64_t results[4]; /* indexed by RESULT_* */
    uint64_t reasons[REASON_NB]; /* indexed by REASON_* */
} BenchTotals;

typedef struct BenchPlayouts {
    BenchTotals totals;
    double seconds;
} BenchPlayouts;

/* Plays `games` uniformly random games from the empty standard board on
 * `threads` threads, game i on its own pcg32 stream from (seed, i), so the
 * totals do not depend on the number of threads. */
void bench_playouts(uint64_t games, uint64_t seed, int threads, BenchPlayouts *out);

typedef struct BenchMcts {
    uint64_t sims;  /* simulations run: sims times the positions, on every machine */
    uint64_t hash;  /* of every search's chosen action and visit counts: pins the search's behaviour */
    double seconds; /* in the searches, not in setting up their positions */
    double cpu;     /* CPU seconds of the process in the searches (all search threads) */
} BenchMcts;

/* The MCTS benchmark: one search of sims simulations, on one thread, from
 * each of npositions fixed positions (bench_mcts_position), each with a
 * fresh tree and random rollouts. Returns 0, or ERR_FAIL with the message
 * in err when the search tree cannot be allocated. */
int bench_mcts(int sims, int npositions, uint64_t seed, BenchMcts *out, char *err);
/* The same with any search configuration (cfg->sims per search): an
 * agent's options (agent_spec_mcts_config), e.g. threads or the evaluation. */
int bench_mcts_config(const MctsConfig *cfg, int npositions, uint64_t seed, BenchMcts *out, char *err);
/* The same with npositions searches of one position (at; NULL: the fixed
 * set), each from a fresh tree, search k's Rng seeded from (seed, k). */
int bench_mcts_at(const MctsConfig *cfg, const Position *at, int npositions, uint64_t seed, BenchMcts *out,
                  char *err);

/* The fixed benchmark positions: position k of the set for seed, taken
 * from a random game (the same for a given seed and k). */
void bench_mcts_position(uint64_t seed, int k, Position *pos);

/* The alpha-beta benchmark (`yinsh bench --ab`): one search from a fresh
 * table on each of npositions middle-game positions (bench_ab_position),
 * to a fixed depth (movetime_s 0: the count is a regression check, the
 * same on every machine) or for movetime_s seconds each (the depth
 * reached is the figure). By depth d, over the searches that completed
 * it: the positions spent on d alone, and the score's swing
 * |score(d) - score(d-1)|, from which the effective branching factor
 * (positions of d over those of d-1) and the odd/even swing are read. */
enum { BENCH_AB_DEPTHS = 65 };
typedef struct BenchAb {
    uint64_t nodes;   /* of all the searches */
    uint64_t hash;    /* of every search's action, score, depth and positions */
    double seconds;   /* in the searches */
    int positions;
    int depth_sum;    /* completed depths, summed over the searches */
    int depth_min, depth_max;
    int completed[BENCH_AB_DEPTHS];   /* searches that completed depth d */
    uint64_t step[BENCH_AB_DEPTHS];   /* positions spent on depth d alone, over those */
    double swing[BENCH_AB_DEPTHS];    /* sum of |score(d) - score(d-1)| over those (d >= 2) */
} BenchAb;

/* Returns 0, or ERR_FAIL with the message in err when the search cannot
 * be allocated. cfg->depth is the fixed depth (movetime_s 0) or the cap. */
int bench_ab(const AbConfig *cfg, int npositions, uint64_t seed, double movetime_s, bool placement, BenchAb *out,
             char *err);

/* Position k of the alpha-beta set for seed: ten random ring placements
 * (k's own stream), then 10 + 7k mod 31 actions of the 8f70ac8 search at
 * depth 2 with the default weights: the middle game, as a real game gets
 * there (the same for a given seed and k on every build that keeps that
 * search). */
void bench_ab_position(uint64_t seed, int k, Position *pos);

/* Position k of the placement set for seed (bench_ab with placement):
 * 2 + k mod 7 random ring placements on k's own stream, so that the
 * search places the other 2 to 8 rings, as an agent does from the
 * openings random:1 to random:4 (the placement search is most of a deep
 * agent's time in such games). */
void bench_ab_placement_position(uint64_t seed, int k, Position *pos);

/* The cost of a random action by parts, for finding where the time goes.
 * The actions of `games` random games (seed, as bench_playouts plays them)
 * are recorded with the position and generator state before each; then
 * every part is timed alone over the recorded inputs, `passes` times, in
 * the thread's CPU time, and the fastest pass of each is kept (the least
 * disturbed by other work).
 * Costs are nanoseconds per recorded action unless said otherwise. The
 * parts overlap (random includes generation), so they are not meant to add
 * up; `play` is the whole, as randgame_play runs it. */
typedef struct BenchParts {
    uint64_t games, actions;
    uint64_t moves;     /* actions that are ring moves */
    double play;        /* movegen_random then pos_make: the random game's step */
    double random;      /* movegen_random alone: generation and pick */
    double count;       /* movegen_count alone: generation without the pick */
    double make;        /* pos_make alone, row detection included */
    double rows;        /* per ring move: the two row checks make does after it */
    double outcome;     /* per game: pos_outcome on the final position */
    double outcome_any; /* pos_outcome on every recorded position (MCTS asks at each expansion) */
    uint64_t sink;      /* a checksum of the results, so no part is optimised away */
} BenchParts;

/* Returns 0, or non-zero when the recording cannot be allocated. */
int bench_parts(uint64_t games, uint64_t seed, int passes, BenchParts *out);

/* The net's cost against the linear evaluation's (`yinsh bench --nnue`):
 * every position of `games` random games (seed, both variants in turn)
 * is evaluated, each part timed alone over them `passes` times in the
 * thread's CPU time, the fastest pass kept. Nanoseconds per position:
 * linear is eval_logit; scratch the net from nothing (both accumulators
 * refreshed, then the output); incremental what a search pays per child,
 * the accumulators updated from the parent's (nnue_make) and the output;
 * update and output those two alone. [p] by path (NnuePath); NAN for a
 * path this CPU lacks. parts is the net's linear and pattern parts from
 * the position (nnue_linear), parts_acc the same with the pattern part
 * read from the accumulators (nnue_parts: what a search adds at a leaf;
 * the incremental figures include the pattern part's update); NAN
 * without a linear part. */
typedef struct BenchNnue {
    uint64_t games, positions;
    double linear, parts, parts_acc;
    double scratch[2], incremental[2], update[2], output[2];
    uint64_t sink; /* a checksum of the outputs, so no part is optimised away */
} BenchNnue;

/* 0, or ERR_FAIL with the message in err when the recording cannot be
 * allocated. */
int bench_nnue(const Nnue *net, const Weights *w, uint64_t games, uint64_t seed, int passes, BenchNnue *out,
               char *err);

/* A fixed-depth duel of alpha-beta with the net against alpha-beta with
 * the linear weights, before the agents know nets: `pairs` colour-swapped
 * pairs of games, both of a pair from the same four random actions
 * (stream (seed, pair)), game 2k with the net as White; each side its own
 * Ab (16 MiB table, cleared each game). The same on any number of
 * threads. Counts are from the net's side. */
typedef struct BenchDuel {
    uint64_t pairs, wins, draws, losses;
    uint64_t penta[5];   /* pairs by the net's points in them: 0, 1/2, .., 2 */
    uint64_t nodes[2];   /* positions searched: [net, linear] */
    double cpu[2];       /* thread CPU seconds in the searches: [net, linear] */
    uint64_t actions[2]; /* searched actions: [net, linear] */
    uint64_t hash;       /* of every game's actions: the duel's play */
} BenchDuel;

/* 0, or ERR_FAIL with the message in err when a search's table cannot
 * be allocated. */
int bench_duel(const Nnue *net, const Weights *w, int depth, int variant, uint64_t pairs, uint64_t seed, int threads,
               BenchDuel *out, char *err);

/* The compiler this was built with and the OpenMP runtime's shared object
 * (libomp.so.5, libgomp.so.1), e.g. "clang 14.0.6, libomp.so.5". */
void bench_build(char *out, size_t size);

/* The CPU's model name from /proc/cpuinfo, or "unknown CPU". */
void bench_cpu_model(char *out, size_t size);

#endif
