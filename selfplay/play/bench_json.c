/* The benchmarks' figures as JSON (bench_json.h). */
#include "selfplay/play/bench_json.h"
#include <math.h>
#include "engine/notation.h"

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

void bench_machine_json(Json *j, const char *cpu, int cpus, const char *build)
{
    json_open(j, "machine", '{', true);
    json_str(j, "cpu", cpu);
    json_int(j, "logical_cpus", cpus);
    json_close(j);
    json_str(j, "build", build);
}

void bench_perft_json(Json *j, int depth, const BenchPerft *pf)
{
    json_object(j, "perft");
    json_int(j, "depth", depth);
    json_str(j, "ypn", BENCH_PERFT_YPN);
    json_uint(j, "nodes", pf->nodes);
    json_uint(j, "expected", pf->expected);
    json_bool(j, "ok", pf->nodes == pf->expected);
    json_num(j, "time_s", pf->seconds);
    json_rate(j, "leaves_per_s", (double)pf->nodes, pf->seconds);
    json_close(j);
}

void bench_playouts_json(Json *j, uint64_t games, uint64_t seed, const BenchPlayouts *one, long threads,
                         const BenchPlayouts *many, bool same)
{
    json_object(j, "playouts");
    json_uint(j, "games", games);
    json_u64_text(j, "seed", seed);
    json_totals(j, &one->totals);
    json_speed(j, "one_thread", 1, games, one);
    json_close(j);
    if (many) {
        json_speed(j, "many_threads", threads, games, many);
        json_num(j, "speedup", one->seconds / many->seconds);
        json_bool(j, "totals_identical", same);
        json_close(j);
    } else {
        json_null(j, "many_threads");
    }
    json_close(j); /* playouts */
}

void bench_mcts_json(Json *j, const BenchMcts *b, long positions, uint64_t seed, long sims)
{
    json_int(j, "positions", positions);
    json_u64_text(j, "seed", seed);
    json_int(j, "sims_per_search", sims);
    json_uint(j, "simulations", b->sims);
    json_hex(j, "hash", b->hash);
    json_int(j, "threads", 1);
    json_num(j, "time_s", b->seconds);
    json_rate(j, "simulations_per_s", (double)b->sims, b->seconds);
}
