#define _GNU_SOURCE /* dladdr */
#include <assert.h>
#include <dlfcn.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "selfplay/play/bench.h"
#include "engine/base/clock.h"
#include "selfplay/search/ab.h"
#include "selfplay/search/mcts.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "selfplay/search/playout.h"
#include "engine/randgame.h"

const char BENCH_PERFT_YPN[] = "4/7/5B2/6B2/8BW/6B2/4B1W2W/3W4W/8/7/4 w M standard";
const uint64_t BENCH_PERFT_EXPECTED[BENCH_PERFT_MAX_DEPTH + 1] = {1, 54, 4705, 240259, 18886483, 927746739};

int bench_perft(int depth, BenchPerft *out, char *err)
{
    assert(depth >= 0 && depth <= BENCH_PERFT_MAX_DEPTH);
    Position pos;
    if (ypn_parse(BENCH_PERFT_YPN, &pos, err)) return 1;
    double t = clock_now();
    out->nodes = perft(&pos, depth);
    out->seconds = clock_now() - t;
    out->expected = BENCH_PERFT_EXPECTED[depth];
    return 0;
}

void bench_playouts(uint64_t games, uint64_t seed, int threads, BenchPlayouts *out)
{
    uint64_t actions = 0, white = 0, black = 0, draw = 0, none = 0;
    uint64_t rings = 0, blitz = 0, pool = 0, nomove = 0;
    double t = clock_now();
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
    out->seconds = clock_now() - t;
    out->totals = (BenchTotals){actions, {none, white, black, draw}, {0, rings, blitz, pool, nomove}};
}

/* Benchmark positions: from a random game of the seed's stream k, the
 * position after 5 + (37 k mod 60) actions, or the middle of the game when
 * it is shorter; placements, moves and removals all appear in the set. */
void bench_mcts_position(uint64_t seed, int k, Position *pos)
{
    Rng rng;
    rng_stream(&rng, seed, (uint64_t)k);
    Position hist[GAME_MAX_ACTIONS + 1];
    Position p;
    pos_start(&p, VARIANT_STANDARD);
    int n = 0;
    Undo u;
    Action a;
    hist[n++] = p;
    while (n <= GAME_MAX_ACTIONS && (a = movegen_random(&p, &rng)) != ACTION_NONE) {
        pos_make(&p, a, &u);
        hist[n++] = p;
    }
    /* hist[n-1] is over; every earlier position has a legal action */
    int want = 5 + (37 * k) % 60;
    *pos = hist[want < n - 1 ? want : (n - 1) / 2];
}

int bench_mcts(int sims, int npositions, uint64_t seed, BenchMcts *out, char *err)
{
    MctsConfig cfg = {.sims = (uint32_t)sims, .c = 1.0};
    return bench_mcts_config(&cfg, npositions, seed, out, err);
}

int bench_mcts_config(const MctsConfig *cfg, int npositions, uint64_t seed, BenchMcts *out, char *err)
{
    return bench_mcts_at(cfg, NULL, npositions, seed, out, err);
}

int bench_mcts_at(const MctsConfig *cfg, const Position *at, int npositions, uint64_t seed, BenchMcts *out,
                  char *err)
{
    uint64_t h = RNG_HASH_START;
    Mcts *m;
    int rc = mcts_new(&m, cfg, err);
    if (rc) return rc;
    uint64_t total = 0;
    double elapsed = 0, cpu = 0;
    for (int k = 0; k < npositions; k++) {
        Position pos;
        if (at) pos = *at;
        else bench_mcts_position(seed, k, &pos);
        Rng rng;
        rng_seed(&rng, seed, (uint64_t)k);
        mcts_clear(m);
        double t = clock_now(), c = clock_process_cpu();
        MctsResult r;
        mcts_search(m, &pos, &rng, &r);
        elapsed += clock_now() - t;
        cpu += clock_process_cpu() - c;
        h = rng_mix(h ^ r.action, ((uint64_t)r.root_visits << 32) | r.chosen_visits);
        total += r.sims;
    }
    mcts_free(m);
    *out = (BenchMcts){.sims = total, .hash = h, .seconds = elapsed, .cpu = cpu};
    return 0;
}

void bench_ab_position(uint64_t seed, int k, Position *pos)
{
    Rng rng;
    rng_stream(&rng, seed, (uint64_t)k);
    Position p;
    pos_start(&p, VARIANT_STANDARD);
    Undo u;
    for (int i = 0; i < 10; i++) pos_make(&p, movegen_random(&p, &rng), &u);
    AbConfig cfg = {.depth = 2, .tt_mb = 1};
    weights_default(&cfg.weights);
    Ab *ab;
    char err[ERR_LEN];
    *pos = p;
    if (ab_new(&ab, &cfg, err)) return; /* 1 MiB: then the placements alone */
    int result, reason;
    for (int i = 0, n = 10 + (7 * k) % 31; i < n; i++) {
        Position next = p;
        pos_make(&next, ab_search(ab, &p, NULL, NULL), &u);
        if (pos_outcome(&next, &result, &reason)) break;
        p = next;
    }
    ab_free(ab);
    *pos = p;
}

void bench_ab_placement_position(uint64_t seed, int k, Position *pos)
{
    Rng rng;
    rng_stream(&rng, seed, (uint64_t)k);
    pos_start(pos, VARIANT_STANDARD);
    Undo u;
    for (int i = 0, n = 2 + k % 7; i < n; i++) pos_make(pos, movegen_random(pos, &rng), &u);
}

/* The report of each completed depth: its score and positions so far. */
typedef struct AbDepths {
    int depth;
    int score[BENCH_AB_DEPTHS];
    uint64_t nodes[BENCH_AB_DEPTHS];
} AbDepths;

static void ab_depth_seen(void *ctx, const SearchReport *r)
{
    AbDepths *d = ctx;
    if (!r->scored || r->depth <= d->depth || r->depth >= BENCH_AB_DEPTHS) return;
    d->depth = r->depth;
    d->score[r->depth] = r->score;
    d->nodes[r->depth] = r->nodes;
}

/* Adds one search's depths to the totals. */
static void ab_depths_add(BenchAb *b, const AbDepths *d)
{
    for (int k = 1; k <= d->depth; k++) {
        b->completed[k]++;
        b->step[k] += d->nodes[k] - d->nodes[k - 1];
        if (k >= 2) b->swing[k] += fabs((double)d->score[k] - d->score[k - 1]);
    }
    b->depth_sum += d->depth;
    if (!b->positions || d->depth < b->depth_min) b->depth_min = d->depth;
    if (d->depth > b->depth_max) b->depth_max = d->depth;
}

int bench_ab(const AbConfig *cfg, int npositions, uint64_t seed, double movetime_s, bool placement, BenchAb *out,
             char *err)
{
    Ab *ab;
    AbConfig c = *cfg;
    c.max_depth = cfg->depth;
    int rc = ab_new(&ab, &c, err);
    if (rc) return rc;
    *out = (BenchAb){.hash = RNG_HASH_START};
    for (int k = 0; k < npositions; k++) {
        Position pos;
        if (placement) bench_ab_placement_position(seed, k, &pos);
        else bench_ab_position(seed, k, &pos);
        ab_clear(ab);
        AbDepths d = {0};
        SearchLimits lim = {.report = ab_depth_seen, .report_ctx = &d, .report_s = 1e9};
        double t = clock_now();
        if (movetime_s > 0) lim.deadline = t + movetime_s;
        AbResult r;
        ab_search(ab, &pos, &lim, &r);
        out->seconds += clock_now() - t;
        out->nodes += r.nodes;
        out->hash = rng_mix(out->hash ^ r.action, ((uint64_t)(uint32_t)r.score << 32) | (uint64_t)r.depth);
        out->hash = rng_mix(out->hash, r.nodes);
        ab_depths_add(out, &d);
        out->positions++;
    }
    ab_free(ab);
    return 0;
}

/* One recorded step of a random game: what randgame_play had in hand
 * before it drew the action. */
typedef struct PartsStep {
    Position pos;
    Rng rng;
    Action action;
} PartsStep;

/* Times one part over the recording in the thread's CPU time; the fastest
 * of the passes counts. PART_TIME(best, body) runs body once per pass,
 * body's loop adds to sink. */
#define PART_TIME(best, body)                  \
    do {                                       \
        double t0_ = clock_thread_cpu();       \
        body;                                  \
        double dt_ = clock_thread_cpu() - t0_; \
        if (dt_ < (best)) (best) = dt_;        \
    } while (0)

int bench_parts(uint64_t games, uint64_t seed, int passes, BenchParts *out)
{
    /* record: the steps, the positions after each ring move, the ends */
    /* fewer than 200 actions in any game (types.h), 72 on average */
    uint64_t cap = games * 200, n = 0, nmoves = 0;
    PartsStep *steps = malloc(cap * sizeof *steps);
    Position *after = malloc(cap * sizeof *after), *ends = malloc(games * sizeof *ends);
    if (!steps || !after || !ends) {
        free(steps);
        free(after);
        free(ends);
        return 1;
    }
    for (uint64_t g = 0; g < games; g++) {
        Position pos;
        Rng rng;
        Action a;
        rng_stream(&rng, seed, g);
        pos_start(&pos, VARIANT_STANDARD);
        for (;;) {
            Rng before = rng;
            if ((a = movegen_random(&pos, &rng)) == ACTION_NONE) break;
            assert(n < cap);
            steps[n++] = (PartsStep){pos, before, a};
            Undo u;
            pos_make(&pos, a, &u);
            if (ACTION_KIND(a) == ACT_MOVE) after[nmoves++] = pos;
        }
        ends[g] = pos;
    }

    double play = 1e30, random = 1e30, count = 1e30, make = 1e30, rows = 1e30, outcome = 1e30, any = 1e30;
    uint64_t sink = 0;
    for (int p = 0; p < passes; p++) {
        PART_TIME(play, for (uint64_t i = 0; i < n; i++) {
            Position pos = steps[i].pos;
            Rng rng = steps[i].rng;
            Undo u;
            pos_make(&pos, movegen_random(&pos, &rng), &u);
            sink += pos.key;
        });
        PART_TIME(random, for (uint64_t i = 0; i < n; i++) {
            Rng rng = steps[i].rng;
            sink += movegen_random(&steps[i].pos, &rng);
        });
        PART_TIME(count, for (uint64_t i = 0; i < n; i++) sink += (uint64_t)movegen_count(&steps[i].pos));
        PART_TIME(make, for (uint64_t i = 0; i < n; i++) {
            Position pos = steps[i].pos;
            Undo u;
            pos_make(&pos, steps[i].action, &u);
            sink += pos.key;
        });
        PART_TIME(rows, for (uint64_t i = 0; i < nmoves; i++)
                            sink += pos_has_row(&after[i], WHITE) + 2 * pos_has_row(&after[i], BLACK));
        PART_TIME(outcome, for (uint64_t g = 0; g < games; g++) {
            int result;
            sink += pos_outcome(&ends[g], &result, NULL) + (uint64_t)result;
        });
        PART_TIME(any, for (uint64_t i = 0; i < n; i++) sink += pos_outcome(&steps[i].pos, NULL, NULL));
    }
    free(steps);
    free(after);
    free(ends);
    double ns = 1e9 / (double)(n ? n : 1);
    *out = (BenchParts){.games = games, .actions = n, .moves = nmoves, .play = play * ns, .random = random * ns,
                        .count = count * ns, .make = make * ns, .rows = rows * 1e9 / (double)(nmoves ? nmoves : 1),
                        .outcome = outcome * 1e9 / (double)games, .outcome_any = any * ns, .sink = sink};
    return 0;
}

void bench_cpu_model(char *out, size_t size)
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

void bench_build(char *out, size_t size)
{
#if defined(__clang__)
    const char *compiler = "clang " __clang_version__;
#elif defined(__GNUC__)
    const char *compiler = "gcc " __VERSION__;
#else
    const char *compiler = "unknown compiler";
#endif
    /* the runtime is whichever shared object the OpenMP calls resolve to */
    Dl_info info;
    const char *omp = "OpenMP runtime unknown";
    if (dladdr((void *)omp_get_num_procs, &info) && info.dli_fname) {
        omp = strrchr(info.dli_fname, '/');
        omp = omp ? omp + 1 : info.dli_fname;
    }
    char name[96];
    snprintf(name, sizeof name, "%s", compiler);
    size_t n = strlen(name);
    while (n && name[n - 1] == ' ') name[--n] = 0; /* __clang_version__ ends in a space */
    snprintf(out, size, "%s, %s", name, omp);
}

/* ---- the net ---------------------------------------------------------- */

/* One step of a recorded random game: the action, its Undo and the
 * position after it; first marks a game's first step (its parent is the
 * start, refreshed). */
typedef struct NnueStep {
    Position pos;
    Undo u;
    Action a;
    bool first;
} NnueStep;

int bench_nnue(const Nnue *net, const Weights *w, uint64_t games, uint64_t seed, int passes, BenchNnue *out,
               char *err)
{
    memset(out, 0, sizeof *out);
    size_t cap = 4096, n = 0;
    NnueStep *st = malloc(cap * sizeof *st);
    Position *starts = malloc(games * sizeof *starts);
    if (!st || !starts) goto oom;
    for (uint64_t g = 0; g < games; g++) {
        Rng rng;
        rng_stream(&rng, seed, g);
        Position pos;
        pos_start(&pos, g % 2 ? VARIANT_BLITZ : VARIANT_STANDARD);
        starts[g] = pos;
        bool first = true;
        for (Action a; (a = movegen_random(&pos, &rng)) != ACTION_NONE; first = false) {
            if (n == cap) {
                NnueStep *more = realloc(st, 2 * cap * sizeof *st);
                if (!more) goto oom;
                st = more;
                cap *= 2;
            }
            st[n].a = a;
            st[n].first = first;
            pos_make(&pos, a, &st[n].u);
            st[n].pos = pos;
            n++;
        }
    }
    out->games = games;
    out->positions = n;
    uint64_t sink = 0;
    double best = 1e30;
#define FASTEST(result, body)                                       \
    do {                                                            \
        best = 1e30;                                                \
        for (int pass = 0; pass < passes; pass++) {                 \
            double t0 = clock_thread_cpu();                         \
            body;                                                   \
            double t = clock_thread_cpu() - t0;                     \
            if (t < best) best = t;                                 \
        }                                                           \
        (result) = best * 1e9 / (double)n;                          \
    } while (0)
    double lsink = 0;
    FASTEST(out->linear, for (size_t i = 0; i < n; i++) lsink += eval_logit(w, &st[i].pos));
    sink += (uint64_t)(int64_t)lsink;
    out->parts = out->parts_acc = NAN;
    if (nnue_has_linear(net)) {
        FASTEST(out->parts, for (size_t i = 0; i < n; i++) sink += (uint64_t)nnue_linear(net, &st[i].pos));
        NnueAcc one;
        nnue_refresh(net, &st[n / 2].pos, &one);
        FASTEST(out->parts_acc, for (size_t i = 0; i < n; i++) sink += (uint64_t)nnue_parts(net, &one, &st[i].pos));
    }
    for (int p = 0; p < 2; p++) {
        if (!nnue_path_available((NnuePath)p)) {
            out->scratch[p] = out->incremental[p] = out->update[p] = out->output[p] = NAN;
            continue;
        }
        NnueAcc acc[2], one;
        FASTEST(out->scratch[p], for (size_t i = 0; i < n; i++) {
            nnue_refresh_path(net, (NnuePath)p, &st[i].pos, &one);
            sink += (uint64_t)nnue_output_path(net, (NnuePath)p, &one, st[i].pos.actor);
        });
        /* along each game: the child's accumulators from the parent's */
        uint64_t g = 0;
        FASTEST(out->incremental[p], g = 0; for (size_t i = 0; i < n; i++) {
            if (st[i].first) nnue_refresh_path(net, (NnuePath)p, &starts[g++], &acc[(i & 1) ^ 1]);
            NnueDelta d;
            nnue_delta(&st[i].pos, st[i].a, &st[i].u, &d);
            nnue_apply_path(net, (NnuePath)p, &acc[(i & 1) ^ 1], &d, &acc[i & 1]);
            sink += (uint64_t)nnue_output_path(net, (NnuePath)p, &acc[i & 1], st[i].pos.actor);
        });
        FASTEST(out->update[p], g = 0; for (size_t i = 0; i < n; i++) {
            if (st[i].first) nnue_refresh_path(net, (NnuePath)p, &starts[g++], &acc[(i & 1) ^ 1]);
            NnueDelta d;
            nnue_delta(&st[i].pos, st[i].a, &st[i].u, &d);
            nnue_apply_path(net, (NnuePath)p, &acc[(i & 1) ^ 1], &d, &acc[i & 1]);
        });
        sink += (uint64_t)acc[0].v[0][0];
        nnue_refresh_path(net, (NnuePath)p, &st[n / 2].pos, &one);
        FASTEST(out->output[p], for (size_t i = 0; i < n; i++) {
            sink += (uint64_t)nnue_output_path(net, (NnuePath)p, &one, (int)(i & 1));
        });
    }
#undef FASTEST
    out->sink = sink;
    free(st);
    free(starts);
    return 0;
oom:
    free(st);
    free(starts);
    return error_set(err, "out of memory for the positions of %llu random games", (unsigned long long)games);
}

int bench_duel(const Nnue *net, const Weights *w, int depth, int variant, uint64_t pairs, uint64_t seed, int threads,
               BenchDuel *out, char *err)
{
    memset(out, 0, sizeof *out);
    uint64_t games = 2 * pairs;
    int8_t *points = calloc(games ? games : 1, 1); /* the net's: 2 win, 1 draw, 0 loss */
    uint64_t *hashes = calloc(games ? games : 1, sizeof *hashes);
    uint64_t nodes[2] = {0, 0}, acts[2] = {0, 0};
    double cpu[2] = {0, 0};
    int failed = !points || !hashes;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) reduction(+ : failed)
    for (uint64_t g = 0; g < games; g++) {
        if (failed) continue;
        /* side 0 the net, side 1 the linear weights; the net is White in even games */
        AbConfig cfg[2] = {{.depth = depth, .tt_mb = AB_DEFAULT_TT_MB, .weights = *w, .net = net},
                           {.depth = depth, .tt_mb = AB_DEFAULT_TT_MB, .weights = *w}};
        Ab *ab[2] = {NULL, NULL};
        if (ab_new(&ab[0], &cfg[0], NULL) || ab_new(&ab[1], &cfg[1], NULL)) {
            ab_free(ab[0]);
            ab_free(ab[1]);
            failed++;
            continue;
        }
        Rng rng;
        rng_stream(&rng, seed, g / 2);
        Position pos;
        pos_start(&pos, variant);
        uint64_t h = RNG_HASH_START, my_nodes[2] = {0, 0}, my_acts[2] = {0, 0};
        double my_cpu[2] = {0, 0};
        int result = RESULT_NONE, reason, ply = 0;
        while (!pos_outcome(&pos, &result, &reason) && ply < GAME_MAX_ACTIONS) {
            Action a;
            if (ply < 4) {
                a = movegen_random(&pos, &rng);
            } else {
                int side = (pos.actor == WHITE) == (g % 2 == 0) ? 0 : 1;
                AbResult r;
                double t0 = clock_thread_cpu();
                a = ab_search(ab[side], &pos, NULL, &r);
                my_cpu[side] += clock_thread_cpu() - t0;
                my_nodes[side] += r.nodes;
                my_acts[side]++;
            }
            h = rng_mix(h, a);
            Undo u;
            pos_make(&pos, a, &u);
            ply++;
        }
        int net_colour = g % 2 == 0 ? WHITE : BLACK;
        points[g] = (int8_t)(result == RESULT_DRAW || result == RESULT_NONE ? 1
                             : (result == RESULT_WHITE) == (net_colour == WHITE) ? 2 : 0);
        hashes[g] = h;
#pragma omp critical(bench_duel_sums)
        {
            for (int s = 0; s < 2; s++) {
                nodes[s] += my_nodes[s];
                acts[s] += my_acts[s];
                cpu[s] += my_cpu[s];
            }
        }
        ab_free(ab[0]);
        ab_free(ab[1]);
    }
    if (!failed) {
        out->pairs = pairs;
        out->hash = RNG_HASH_START;
        for (uint64_t g = 0; g < games; g++) {
            out->wins += points[g] == 2;
            out->draws += points[g] == 1;
            out->losses += points[g] == 0;
            out->hash = rng_mix(out->hash, hashes[g]);
            if (g % 2) out->penta[points[g - 1] + points[g]]++;
        }
        for (int s = 0; s < 2; s++) {
            out->nodes[s] = nodes[s];
            out->actions[s] = acts[s];
            out->cpu[s] = cpu[s];
        }
    }
    free(points);
    free(hashes);
    return failed ? error_set(err, "out of memory for the searches' tables (%d MiB each)", (int)AB_DEFAULT_TT_MB) : 0;
}
