/* The alpha-beta techniques beyond the search of commit 8f70ac8
 * (selfplay/search/ab.h, AbConfig.tech and tempo): with none on, the
 * search is that one node for node (tests/data/ab_nodes.txt, written by
 * the 8f70ac8 build); with them on, a fixed depth and a node budget are
 * reproducible; the spec keys tech= and tempo= read and write. */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>
#include <stdio.h>
#include <string.h>
#include "selfplay/search/ab.h"
#include "selfplay/agents/agent.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/base/clock.h"
#include "engine/base/parallel.h"
#include "eval/nnue.h"

enum { ALL_TECH = AB_KILLERS | AB_ASPIRATION | AB_LMR | AB_NULL | AB_FUTILITY | AB_QUIESCE };

static Ab *new_ab(int depth, uint32_t tt_mb, uint32_t tech, int tempo)
{
    AbConfig cfg = {.depth = depth, .tt_mb = tt_mb, .tech = tech, .tempo = tempo};
    weights_default(&cfg.weights);
    Ab *ab;
    char err[ERR_LEN];
    cr_assert_eq(ab_new(&ab, &cfg, err), 0, "%s", err);
    return ab;
}

/* The positions of tests/data/ab_nodes.txt with what 8f70ac8 answered. */
typedef struct Case {
    Position pos;
    char action[16];
    int score;
    unsigned long long nodes;
} Case;

static int read_cases(Case *out, int max)
{
    FILE *f = fopen(YINSH_SOURCE_DIR "/tests/data/ab_nodes.txt", "r");
    cr_assert(f, "tests/data/ab_nodes.txt");
    char line[512], err[ERR_LEN];
    int n = 0;
    while (n < max && fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        char *semi = strchr(line, ';');
        cr_assert(semi, "%s", line);
        *semi = '\0';
        if (semi > line && semi[-1] == ' ') semi[-1] = '\0';
        Case *c = &out[n++];
        cr_assert_eq(ypn_parse(line, &c->pos, err), 0, "%s: %s", line, err);
        cr_assert_eq(sscanf(semi + 1, "%15s %d %llu", c->action, &c->score, &c->nodes), 3, "%s", semi + 1);
    }
    fclose(f);
    return n;
}

Test(search, no_technique_is_the_8f70ac8_search_node_for_node)
{
    Case cases[64];
    int n = read_cases(cases, 64);
    cr_assert_eq(n, 32);
    Ab *ab = new_ab(4, 2, 0, 0);
    for (int i = 0; i < n; i++) {
        AbResult r;
        Action a = ab_search(ab, &cases[i].pos, NULL, &r);
        char s[16];
        cr_expect_str_eq(action_format(a, s), cases[i].action, "position %d", i);
        cr_expect_eq(r.score, cases[i].score, "position %d", i);
        cr_expect_eq(r.nodes, cases[i].nodes, "position %d: %llu positions, 8f70ac8 %llu", i,
                     (unsigned long long)r.nodes, cases[i].nodes);
    }
    ab_free(ab);
}

/* Every technique on: a fixed depth, then a node budget, searched twice
 * from a fresh table give the same action, score and count. */
static void search_twice(const Position *pos, int depth, uint32_t budget)
{
    AbResult r[2];
    for (int k = 0; k < 2; k++) {
        Ab *ab = new_ab(budget ? 64 : depth, 2, ALL_TECH, -100);
        SearchLimits lim = {.sims = budget};
        ab_search(ab, pos, &lim, &r[k]);
        ab_free(ab);
    }
    cr_expect_eq(r[0].action, r[1].action);
    cr_expect_eq(r[0].score, r[1].score);
    cr_expect_eq(r[0].nodes, r[1].nodes, "%llu and %llu positions", (unsigned long long)r[0].nodes,
                 (unsigned long long)r[1].nodes);
    cr_expect_eq(r[0].depth, r[1].depth);
    if (budget) cr_expect_leq(r[0].nodes, budget);
    else cr_expect_eq(r[0].depth, depth);
}

Test(search, fixed_depth_and_node_budget_are_reproducible)
{
    Case cases[64];
    int n = read_cases(cases, 64);
    for (int i = 0; i < n; i += 8) {
        search_twice(&cases[i].pos, 5, 0);
        search_twice(&cases[i].pos, 0, 60000);
    }
}

/* The techniques keep what a search must see: a win in one (removals are
 * free), and the block of a row in one (test_ab.c has both positions). */
#define WIN_IN_ONE "4/7/1wwwwW2/9/W9/9/W9/B7B/B7/B6/B3 w M standard"
#define THREAT "W3/W6/W7/W8/10/2W6/1bbbbB4/9/8/6B/B3 w M standard"

Test(search, techniques_keep_a_win_and_a_block)
{
    char err[ERR_LEN];
    Position p;
    cr_assert_eq(ypn_parse(WIN_IN_ONE, &p, err), 0, "%s", err);
    for (int depth = 1; depth <= 6; depth++) {
        Ab *ab = new_ab(depth, 1, ALL_TECH, -100);
        AbResult r;
        ab_search(ab, &p, NULL, &r);
        cr_expect_geq(r.score, AB_WIN_BOUND, "depth %d: %d", depth, r.score);
        ab_free(ab);
    }
    cr_assert_eq(ypn_parse(THREAT, &p, err), 0, "%s", err);
    for (int depth = 2; depth <= 6; depth++) {
        Ab *ab = new_ab(depth, 1, ALL_TECH, -100);
        AbResult r;
        ab_search(ab, &p, NULL, &r);
        cr_expect_gt(r.score, -AB_WIN_BOUND, "depth %d: a block exists, yet scored lost", depth);
        ab_free(ab);
    }
}

/* A net's accumulators, kept along the search's makes, equal each
 * position's own (AbConfig.refresh computes every one from its position):
 * with nmp2 the search is the reference's node for node in each middle
 * game of tests/data/ab_nodes.txt, each technique on; with nmp, whose null
 * move keeps the net's inputs of who acts as before the pass (ab.h), the
 * positions under a null move are evaluated as another position would
 * be, and some search differs from the reference. */
static AbResult net_search(const Nnue *net, const Position *pos, uint32_t tech, bool refresh)
{
    AbConfig cfg = {.depth = 5, .tt_mb = 2, .tech = tech, .tempo = -100, .net = net, .refresh = refresh};
    weights_default(&cfg.weights);
    Ab *ab;
    char err[ERR_LEN];
    cr_assert_eq(ab_new(&ab, &cfg, err), 0, "%s", err);
    AbResult r;
    ab_search(ab, pos, NULL, &r);
    ab_free(ab);
    return r;
}

Test(search_net, nmp2_keeps_each_positions_own_accumulator)
{
    Nnue *net;
    char err[ERR_LEN];
    cr_assert_eq(nnue_load(&net, YINSH_SOURCE_DIR "/eval/nets/patterns32.nnue", err), 0, "%s", err);
    Case cases[64];
    int n = read_cases(cases, 64), nmp_differs = 0;
    const uint32_t with_nmp2 = (ALL_TECH & ~(uint32_t)AB_NULL) | AB_NULL2;
    for (int i = 0; i < n; i += 2) {
        AbResult inc = net_search(net, &cases[i].pos, with_nmp2, false);
        AbResult ref = net_search(net, &cases[i].pos, with_nmp2, true);
        cr_expect(inc.action == ref.action && inc.score == ref.score && inc.nodes == ref.nodes,
                  "position %d, nmp2: %d %llu positions, from each position's accumulator %d %llu", i, inc.score,
                  (unsigned long long)inc.nodes, ref.score, (unsigned long long)ref.nodes);
        inc = net_search(net, &cases[i].pos, ALL_TECH, false);
        ref = net_search(net, &cases[i].pos, ALL_TECH, true);
        nmp_differs += inc.score != ref.score || inc.nodes != ref.nodes;
    }
    cr_expect_gt(nmp_differs, 0, "nmp's null move kept the accumulator, yet every search equals the reference");
    /* the placements, their last, and a blitz game: random actions from the start */
    const struct {
        int variant, actions;
    } starts[] = {{VARIANT_STANDARD, 3}, {VARIANT_STANDARD, 8}, {VARIANT_BLITZ, 24}, {VARIANT_STANDARD, 40}};
    for (size_t i = 0; i < sizeof starts / sizeof *starts; i++) {
        Position p;
        pos_start(&p, starts[i].variant);
        Rng rng;
        rng_seed(&rng, 31 + i, 1);
        for (int k = 0; k < starts[i].actions; k++) {
            Undo u;
            Action a = movegen_random(&p, &rng);
            cr_assert_neq(a, ACTION_NONE, "start %zu ended early", i);
            pos_make(&p, a, &u);
        }
        AbResult inc = net_search(net, &p, with_nmp2, false), ref = net_search(net, &p, with_nmp2, true);
        cr_expect(inc.action == ref.action && inc.score == ref.score && inc.nodes == ref.nodes,
                  "start %zu (%d random actions), nmp2: %d %llu positions, the reference %d %llu", i,
                  starts[i].actions, inc.score, (unsigned long long)inc.nodes, ref.score,
                  (unsigned long long)ref.nodes);
    }
    nnue_free(net);
}

Test(search_spec, tech_and_tempo_read_and_write)
{
    AgentSpec s;
    char err[ERR_LEN], out[SPEC_LEN];
    cr_assert_eq(agent_spec_parse_text("ab:depth=5,tech=qs+lmr+killers,tempo=-120", &s, err), 0, "%s", err);
    cr_expect_str_eq(agent_spec_format(&s, out), "ab:depth=5,tt=16,tech=killers+lmr+qs,tempo=-120");
    AbConfig cfg;
    cr_assert(agent_spec_ab_config(&s, &cfg));
    cr_expect_eq(cfg.tech, AB_KILLERS | AB_LMR | AB_QUIESCE);
    cr_expect_eq(cfg.tempo, -120);
    /* none is no technique, and an older spec's text is unchanged */
    cr_assert_eq(agent_spec_parse_text("ab:depth=5,tech=none,eval=eval/weights/tuned3.txt", &s, err), 0, "%s", err);
    cr_expect_str_eq(agent_spec_format(&s, out), "ab:depth=5,tt=16,eval=eval/weights/tuned3.txt");
    /* nmp2 is written where nmp would be; the two null moves are one or the other */
    cr_assert_eq(agent_spec_parse_text("ab:depth=5,tech=qs+nmp2+killers", &s, err), 0, "%s", err);
    cr_expect_str_eq(agent_spec_format(&s, out), "ab:depth=5,tt=16,tech=killers+nmp2+qs");
    cr_assert(agent_spec_ab_config(&s, &cfg));
    cr_expect_eq(cfg.tech, AB_KILLERS | AB_NULL2 | AB_QUIESCE);
    cr_expect_neq(agent_spec_parse_text("ab:tech=nmp+nmp2", &s, err), 0);
    cr_expect(strstr(err, "nmp and nmp2"), "%s", err);
    const char *bad[] = {"ab:tech=lmr+lmr", "ab:tech=fast", "ab:tech=", "ab:tech=lmr+", "ab:tempo=x",
                         "ab:tempo=100001", "ab:tech=nmp3"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_expect_neq(agent_spec_parse_text(bad[i], &s, err), 0, "%s was read", bad[i]);
        cr_expect(strstr(err, "tech") || strstr(err, "tempo"), "%s: %s", bad[i], err);
    }
    /* as engine options: tech "" is none */
    cr_assert_eq(agent_spec_parse_text("ab:tech=asp", &s, err), 0, "%s", err);
    cr_assert_eq(agent_spec_set(&s, "tech", "", err), 0, "%s", err);
    cr_expect_str_eq(agent_spec_format(&s, out), "ab:depth=3,tt=16");
}

/* Threads (Lazy SMP, AbConfig.threads): the helpers share the table and
 * stop with the caller's search. Not reproducible, so the tests ask what
 * holds whatever the interleaving: a fixed depth is completed with a
 * legal action, a win stays a win, a node budget counts every thread's
 * positions, and a deadline or a stop ends the helpers too (a search
 * that left them running would never return from ab_search's join). */
static Ab *new_ab_smp(int depth, int threads, int smp)
{
    AbConfig cfg = {.depth = depth, .max_depth = 64, .tt_mb = 2, .tech = ALL_TECH, .tempo = -100,
                    .threads = threads, .smp = smp};
    weights_default(&cfg.weights);
    Ab *ab;
    char err[ERR_LEN];
    cr_assert_eq(ab_new(&ab, &cfg, err), 0, "%s", err);
    return ab;
}

/* The threads' tests run over the four ways of sharing the work: the
 * helpers racing over the table (Lazy SMP), the children being searched
 * left for later by every thread (ABDADA) or by the helpers alone
 * (DEFER), the helpers at staggered depths ahead of the main thread
 * (SKIP); smp_of(k) for k < SMP_WAYS */
enum { SMP_WAYS = 4 };
static int smp_of(int k)
{
    static const int ways[SMP_WAYS] = {AB_SMP_LAZY, AB_SMP_ABDADA, AB_SMP_DEFER, AB_SMP_SKIP};
    return ways[k];
}

Test(search_threads, fixed_depth_completes_with_a_legal_action)
{
    Case cases[64];
    int n = read_cases(cases, 64);
    for (int k = 0; k < SMP_WAYS; k++)
        for (int threads = 2; threads <= 4; threads++) {
            Ab *ab = new_ab_smp(5, threads, smp_of(k));
            for (int i = 0; i < n; i += 4) {
                AbResult r;
                Action a = ab_search(ab, &cases[i].pos, NULL, &r);
                cr_expect(movegen_is_legal(&cases[i].pos, a), "smp %d, threads %d, position %d", k, threads, i);
                cr_expect_eq(r.depth, 5, "smp %d, threads %d, position %d: depth %d", k, threads, i, r.depth);
                cr_expect_gt(r.nodes, 0);
                Action pv[8];
                int npv = ab_pv(ab, pv, 8);
                cr_expect_geq(npv, 1, "smp %d, threads %d, position %d: no principal variation", k, threads, i);
            }
            ab_clear(ab);
            ab_free(ab);
        }
}

Test(search_threads, a_win_stays_a_win_and_a_block_a_block)
{
    char err[ERR_LEN];
    Position p;
    cr_assert_eq(ypn_parse(WIN_IN_ONE, &p, err), 0, "%s", err);
    for (int k = 0; k < SMP_WAYS; k++)
        for (int depth = 1; depth <= 6; depth++) {
            Ab *ab = new_ab_smp(depth, 3, smp_of(k));
            AbResult r;
            ab_search(ab, &p, NULL, &r);
            cr_expect_geq(r.score, AB_WIN_BOUND, "smp %d, depth %d: %d", k, depth, r.score);
            ab_free(ab);
        }
    cr_assert_eq(ypn_parse(THREAT, &p, err), 0, "%s", err);
    for (int k = 0; k < SMP_WAYS; k++)
        for (int depth = 2; depth <= 6; depth++) {
            Ab *ab = new_ab_smp(depth, 3, smp_of(k));
            AbResult r;
            ab_search(ab, &p, NULL, &r);
            cr_expect_gt(r.score, -AB_WIN_BOUND, "smp %d, depth %d: a block exists, yet scored lost", k, depth);
            ab_free(ab);
        }
}

/* The helpers add their positions to the budget's count every 256
 * (ab.c's CHECK_EVERY) and see the end within 256 more, so the total
 * passes the budget by at most 512 a helper; counted by the caller's
 * thread alone it would be about twice the budget. */
Test(search_threads, a_node_budget_counts_every_thread)
{
    Case cases[64];
    int n = read_cases(cases, 64);
    const uint32_t budget = 200000;
    for (int k = 0; k < SMP_WAYS; k++)
        for (int i = 0; i < n; i += 8) {
            Ab *ab = new_ab_smp(64, 2, smp_of(k));
            SearchLimits lim = {.sims = budget};
            AbResult r;
            Action a = ab_search(ab, &cases[i].pos, &lim, &r);
            cr_expect(movegen_is_legal(&cases[i].pos, a), "smp %d, position %d", k, i);
            cr_expect_leq(r.nodes, budget + 512, "smp %d, position %d: %llu positions for a budget of %u", k, i,
                          (unsigned long long)r.nodes, budget);
            ab_free(ab);
        }
}

static void *stop_later(void *arg)
{
    struct timespec t = {0, 50 * 1000 * 1000};
    nanosleep(&t, NULL);
    atomic_store((atomic_bool *)arg, true);
    return NULL;
}

Test(search_threads, a_deadline_and_a_stop_end_the_helpers)
{
    Case cases[64];
    read_cases(cases, 64);
    for (int k = 0; k < SMP_WAYS; k++) {
        Ab *ab = new_ab_smp(64, 3, smp_of(k));
        SearchLimits lim = {.deadline = clock_now() + 0.05};
        AbResult r;
        ab_search(ab, &cases[3].pos, &lim, &r);
        cr_expect_geq(r.depth, 1);
        atomic_bool stop = false;
        lim = (SearchLimits){.stop = &stop, .until_stop = true};
        pthread_t t;
        cr_assert_eq(pthread_create(&t, NULL, stop_later, &stop), 0);
        Action a = ab_search(ab, &cases[5].pos, &lim, &r);
        pthread_join(t, NULL);
        cr_expect(movegen_is_legal(&cases[5].pos, a), "smp %d", k);
        /* a search stopped inside subtrees leaves their marks; the next
         * one starts without them and completes its depth */
        Ab *fixed = new_ab_smp(5, 3, smp_of(k));
        ab_search(fixed, &cases[5].pos, NULL, &r);
        cr_expect_eq(r.depth, 5, "smp %d", k);
        ab_free(fixed);
        ab_free(ab);
    }
}

/* With one thread there is no one to leave a child for and no helper to
 * skip a depth: smp=abdada, smp=defer and smp=skip are the one-thread
 * search, node for node (no table of keys is made). */
Test(search_threads, one_thread_searches_alike_whatever_the_sharing)
{
    Case cases[64];
    int n = read_cases(cases, 64);
    for (int k = 1; k < SMP_WAYS; k++)
        for (int i = 0; i < n; i += 5) {
            Ab *lazy = new_ab_smp(5, 1, AB_SMP_LAZY), *other = new_ab_smp(5, 1, smp_of(k));
            AbResult a, b;
            cr_expect_eq(ab_search(lazy, &cases[i].pos, NULL, &a), ab_search(other, &cases[i].pos, NULL, &b),
                         "smp %d, position %d", k, i);
            cr_expect_eq(a.nodes, b.nodes, "smp %d, position %d: %llu and %llu positions", k, i,
                         (unsigned long long)a.nodes, (unsigned long long)b.nodes);
            cr_expect_eq(a.score, b.score, "smp %d, position %d", k, i);
            ab_free(lazy);
            ab_free(other);
        }
}

Test(search_spec, threads_read_and_write)
{
    AgentSpec s;
    char err[ERR_LEN], out[SPEC_LEN];
    cr_assert_eq(agent_spec_parse_text("ab:depth=5,threads=4,tech=lmr", &s, err), 0, "%s", err);
    cr_expect_str_eq(agent_spec_format(&s, out), "ab:depth=5,tt=16,tech=lmr,threads=4");
    AbConfig cfg;
    cr_assert(agent_spec_ab_config(&s, &cfg));
    cr_expect_eq(cfg.threads, 4);
    /* one thread is the default, and not written: older specs keep their text */
    cr_assert_eq(agent_spec_parse_text("ab:depth=5,threads=1", &s, err), 0, "%s", err);
    cr_expect_str_eq(agent_spec_format(&s, out), "ab:depth=5,tt=16");
    cr_assert_eq(agent_spec_parse_text("best", &s, err), 0, "%s", err);
    cr_assert(agent_spec_ab_config(&s, &cfg));
    cr_expect_eq(cfg.threads, 1);
    const char *bad[] = {"ab:threads=0", "ab:threads=65", "ab:threads=two"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_expect_neq(agent_spec_parse_text(bad[i], &s, err), 0, "%s was read", bad[i]);
        cr_expect(strstr(err, "threads"), "%s: %s", bad[i], err);
    }
    /* an engine option, as `setoption name Threads value 2` sets it */
    cr_assert_eq(agent_spec_set(&s, "threads", "2", err), 0, "%s", err);
    cr_assert(agent_spec_ab_config(&s, &cfg));
    cr_expect_eq(cfg.threads, 2);
    /* smp=abdada: written when set, read back; lazy is the default and not written */
    cr_assert_eq(agent_spec_parse_text("ab:depth=5,threads=2,smp=abdada", &s, err), 0, "%s", err);
    cr_expect_str_eq(agent_spec_format(&s, out), "ab:depth=5,tt=16,threads=2,smp=abdada");
    cr_assert(agent_spec_ab_config(&s, &cfg));
    cr_expect_eq(cfg.smp, AB_SMP_ABDADA);
    cr_assert_eq(agent_spec_parse_text("ab:depth=5,threads=2,smp=defer", &s, err), 0, "%s", err);
    cr_expect_str_eq(agent_spec_format(&s, out), "ab:depth=5,tt=16,threads=2,smp=defer");
    cr_assert(agent_spec_ab_config(&s, &cfg));
    cr_expect_eq(cfg.smp, AB_SMP_DEFER);
    cr_assert_eq(agent_spec_parse_text("ab:depth=5,threads=2,smp=skip", &s, err), 0, "%s", err);
    cr_expect_str_eq(agent_spec_format(&s, out), "ab:depth=5,tt=16,threads=2,smp=skip");
    cr_assert(agent_spec_ab_config(&s, &cfg));
    cr_expect_eq(cfg.smp, AB_SMP_SKIP);
    cr_assert_eq(agent_spec_set(&s, "smp", "skip", err), 0, "%s", err);
    cr_assert(agent_spec_ab_config(&s, &cfg));
    cr_expect_eq(cfg.smp, AB_SMP_SKIP);
    cr_assert_eq(agent_spec_parse_text("ab:depth=5,threads=2,smp=lazy", &s, err), 0, "%s", err);
    cr_expect_str_eq(agent_spec_format(&s, out), "ab:depth=5,tt=16,threads=2");
    /* every key an engine option, movetime the last: no more than the
     * caller's array holds (yinsh uyi announces them from one) */
    AgentOption opts[AGENT_SPEC_OPTIONS + 1];
    int nopt = agent_spec_options(&s, opts);
    cr_assert_leq(nopt, AGENT_SPEC_OPTIONS, "%d options", nopt);
    cr_expect_str_eq(opts[nopt - 2].name, "smp");
    cr_expect_str_eq(opts[nopt - 1].name, "movetime");
    const char *bad_smp[] = {"ab:smp=", "ab:smp=ybwc", "ab:smp=ABDADA", "ab:smp=deferred", "ab:smp=skip2", "ab:smp=Skip"};
    for (size_t i = 0; i < sizeof bad_smp / sizeof *bad_smp; i++) {
        cr_expect_neq(agent_spec_parse_text(bad_smp[i], &s, err), 0, "%s was read", bad_smp[i]);
        cr_expect(strstr(err, "smp"), "%s: %s", bad_smp[i], err);
    }
}

/* An agent searches with at most as many threads as the cores it may run
 * on (agent_search_threads; docs/uyi.md): more would only take turns on
 * them and overrun a movetime. The spec keeps what was asked. */
Test(search_spec, threads_are_capped_at_the_cores)
{
    AgentSpec s;
    char err[ERR_LEN];
    const char *specs[] = {"ab:depth=5,threads=64", "mcts:sims=100,threads=64", "random"};
    const uint32_t asked[] = {64, 64, 1};
    uint32_t cores = (uint32_t)parallel_cores();
    cpu_set_t all, one;
    cr_assert_eq(sched_getaffinity(0, sizeof all, &all), 0);
    cr_assert_eq(cores, (uint32_t)CPU_COUNT(&all));
    int first = 0;
    while (!CPU_ISSET(first, &all)) first++;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(agent_spec_parse_text(specs[i], &s, err), 0, "%s", err);
        cr_expect_eq(agent_spec_threads(&s), asked[i], "%s", specs[i]);
        cr_expect_eq(agent_search_threads(&s), asked[i] < cores ? asked[i] : cores, "%s", specs[i]);
        cr_assert_eq(sched_setaffinity(0, sizeof one, &one), 0);
        cr_expect_eq(agent_search_threads(&s), 1u, "%s on one core", specs[i]);
        cr_assert_eq(sched_setaffinity(0, sizeof all, &all), 0);
    }
}
