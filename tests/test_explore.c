/* The MCTS agent's exploration keys for self-play data (issue 34, item 2;
 * agents/agent.h, search/mcts.h): temp and tempmoves, root Dirichlet
 * noise (noise, alpha) and playout cap randomisation (pcr). Their specs
 * round-trip and refuse bad values by name; off, they play the games the
 * agent always played; on, a game still follows from its seed; and the
 * Dirichlet sampler has the right means. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/movegen.h"
#include "selfplay/agents/agent.h"
#include "selfplay/play/scheduler.h"
#include "selfplay/search/dirichlet.h"
#include "selfplay/search/mcts.h"

/* ---- specs ------------------------------------------------------------ */

Test(explore, spec_round_trip)
{
    AgentSpec s, back;
    char err[ERR_LEN], text[SPEC_LEN], again[SPEC_LEN];
    cr_assert_eq(agent_spec_parse("mcts:sims=100,pcr=0.25:20,alpha=0.5,noise=0.25,tempmoves=30,temp=1", &s, err), 0,
                 "%s", err);
    cr_assert(s.mcts.temp == 1 && s.mcts.temp_moves == 30 && s.mcts.noise == 0.25 && s.mcts.alpha == 0.5);
    cr_assert(s.mcts.pcr_p == 0.25 && s.mcts.pcr_sims == 20);
    cr_assert_str_eq(agent_spec_format(&s, text),
                     "mcts:sims=100,c=1,rollout=random,temp=1,tempmoves=30,noise=0.25,alpha=0.5,pcr=0.25:20");
    cr_assert_eq(agent_spec_parse(text, &back, err), 0, "%s", err);
    cr_assert_str_eq(agent_spec_format(&back, again), text);
    cr_assert(back.mcts.temp == 1 && back.mcts.temp_moves == 30 && back.mcts.noise == 0.25 && back.mcts.alpha == 0.5 &&
              back.mcts.pcr_p == 0.25 && back.mcts.pcr_sims == 20);

    /* off or absent: the old text, written as it always was */
    cr_assert_eq(agent_spec_parse("mcts:temp=0,tempmoves=0,noise=0", &s, err), 0, "%s", err);
    cr_assert_str_eq(agent_spec_format(&s, text), "mcts:sims=200,c=1,rollout=random");
    cr_assert_eq(agent_spec_parse("mcts:sims=50,noise=0.3,movetime=100", &s, err), 0, "%s", err);
    cr_assert_str_eq(agent_spec_format(&s, text), "mcts:sims=50,c=1,rollout=random,noise=0.3,movetime=100");

    /* set as options (an engine's setoption), and unset */
    cr_assert_eq(agent_spec_set(&s, "temp", "0.5", err), 0, "%s", err);
    cr_assert_eq(agent_spec_set(&s, "pcr", "1:5", err), 0, "%s", err);
    cr_assert_str_eq(agent_spec_format(&s, text),
                     "mcts:sims=50,c=1,rollout=random,temp=0.5,noise=0.3,pcr=1:5,movetime=100");
    cr_assert_eq(agent_spec_set(&s, "pcr", "0", err), 0, "%s", err);
    cr_assert_eq(agent_spec_set(&s, "temp", "0", err), 0, "%s", err);
    cr_assert_str_eq(agent_spec_format(&s, text), "mcts:sims=50,c=1,rollout=random,noise=0.3,movetime=100");
}

Test(explore, bad_values_are_refused_by_name)
{
    AgentSpec s;
    char err[ERR_LEN];
    struct {
        const char *spec, *key, *value;
    } bad[] = {
        {"mcts:temp=-1", "temp", "-1"},          {"mcts:temp=101", "temp", "101"},
        {"mcts:temp=hot", "temp", "hot"},        {"mcts:tempmoves=-2", "tempmoves", "-2"},
        {"mcts:tempmoves=1e9", "tempmoves", "1e9"}, {"mcts:tempmoves=100001", "tempmoves", "100001"},
        {"mcts:noise=1.5", "noise", "1.5"},      {"mcts:noise=-0.1", "noise", "-0.1"},
        {"mcts:alpha=0", "alpha", "0"},          {"mcts:alpha=-3", "alpha", "-3"},
        {"mcts:alpha=nan", "alpha", "nan"},      {"mcts:pcr=0.5", "pcr", "0.5"},
        {"mcts:pcr=2:10", "pcr", "2:10"},        {"mcts:pcr=0.5:0", "pcr", "0.5:0"},
        {"mcts:pcr=0.5:x", "pcr", "0.5:x"},      {"mcts:pcr=:10", "pcr", ":10"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_eq(agent_spec_parse(bad[i].spec, &s, err), ERR_USAGE, "%s accepted", bad[i].spec);
        cr_assert(strstr(err, bad[i].key) && strstr(err, bad[i].value), "%s: message '%s' does not name '%s' and '%s'",
                  bad[i].spec, err, bad[i].key, bad[i].value);
    }
    cr_assert_eq(agent_spec_parse("mcts:temperature=1", &s, err), ERR_USAGE);
    cr_assert(strstr(err, "temperature") && strstr(err, "tempmoves"), "%s", err);
}

/* ---- games ------------------------------------------------------------ */

enum { GAMES = 4 };

typedef struct Hashes {
    uint64_t game[GAMES];
    Action first[GAMES][10];
} Hashes;

static int hash_write(void *ctx, GameRecord *const *games, int n, char *err)
{
    (void)err;
    Hashes *h = ctx;
    for (int i = 0; i < n; i++) {
        const GameRecord *g = games[i];
        uint64_t x = 1469598103934665603ull ^ (uint64_t)g->result;
        for (int k = 0; k < g->nactions; k++) {
            x = (x ^ (uint64_t)g->actions[k].action) * 1099511628211ull;
            x = (x ^ g->actions[k].chosen_visits) * 1099511628211ull;
            if (k < 10) h->first[g->index][k] = g->actions[k].action;
        }
        h->game[g->index] = x;
    }
    return 0;
}

/* GAMES games of the spec against itself from the run seed: each game's
 * hash (its actions, the chosen visits and the result). */
static Hashes play(const char *spec, uint64_t seed)
{
    SelfplayPlan plan = {.variant = VARIANT_STANDARD, .seed = seed, .games = GAMES, .threads = 1};
    char err[ERR_LEN];
    cr_assert_eq(agent_spec_parse(spec, &plan.white, err), 0, "%s: %s", spec, err);
    cr_assert_eq(agent_spec_parse(spec, &plan.black, err), 0, "%s: %s", spec, err);
    Hashes h;
    memset(&h, 0, sizeof h);
    uint32_t idx[GAMES];
    for (uint32_t i = 0; i < GAMES; i++) idx[i] = i;
    SelfplaySink sink = {.write = hash_write, .ctx = &h, .batch_games = GAMES};
    cr_assert_eq(selfplay_run(&plan, idx, GAMES, &sink, err), 0, "%s", err);
    agent_spec_release(&plan.white);
    agent_spec_release(&plan.black);
    return h;
}

static bool same_games(const Hashes *a, const Hashes *b)
{
    return !memcmp(a->game, b->game, sizeof a->game);
}

Test(explore, off_plays_the_old_games)
{
    Hashes base = play("mcts:sims=30", 77);
    const char *off[] = {"mcts:sims=30,temp=1", "mcts:sims=30,temp=1,tempmoves=0", "mcts:sims=30,tempmoves=10",
                         "mcts:sims=30,noise=0", "mcts:sims=30,noise=0,alpha=0.1", "mcts:sims=30,pcr=1:5"};
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) {
        Hashes h = play(off[i], 77);
        cr_assert(same_games(&base, &h), "%s plays other games than mcts:sims=30", off[i]);
    }
}

Test(explore, temperature_is_reproducible_from_the_seed)
{
    const char *spec = "mcts:sims=30,temp=1,tempmoves=10";
    Hashes a = play(spec, 5), again = play(spec, 5), other = play(spec, 6), greedy = play("mcts:sims=30", 5);
    cr_assert(same_games(&a, &again), "the same seed gave other games");
    cr_assert(!same_games(&a, &other), "two seeds gave the same games");
    /* the draws change the opening: some game leaves the greedy line
     * within its first 10 actions */
    cr_assert(memcmp(a.first, greedy.first, sizeof a.first), "temp=1 played the greedy openings");
}

Test(explore, noise_and_pcr_are_reproducible_from_the_seed)
{
    const char *specs[] = {"mcts:sims=30,noise=0.25", "mcts:sims=30,noise=0.5,alpha=0.1,rollout=2,prior=1",
                           "mcts:sims=30,pcr=0.5:5", "mcts:sims=30,temp=0.5,tempmoves=20,noise=0.25,alpha=1"};
    Hashes base = play("mcts:sims=30", 9);
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        Hashes a = play(specs[i], 9), again = play(specs[i], 9);
        cr_assert(same_games(&a, &again), "%s: the same seed gave other games", specs[i]);
        cr_assert(!same_games(&a, &base), "%s plays as mcts:sims=30", specs[i]);
    }
}

/* Leaves scored by the shipped net, children by its priors: without
 * noise the agent opens every game the same way (the shuffle only breaks
 * ties); the root noise alone makes the openings differ. */
static int distinct_openings(const Hashes *h)
{
    int n = 0;
    for (int i = 0; i < GAMES; i++) {
        int j = 0;
        while (j < i && memcmp(h->first[i], h->first[j], sizeof h->first[i])) j++;
        n += j == i;
    }
    return n;
}

Test(explore, noise_varies_the_openings_of_a_prior_agent)
{
    Hashes plain = play("mcts:sims=100,rollout=0,prior=1,eval=net:builtin", 21);
    Hashes noisy = play("mcts:sims=100,rollout=0,prior=1,eval=net:builtin,noise=0.75", 21);
    cr_assert_eq(distinct_openings(&plain), 1, "the plain agent's openings differ already");
    cr_assert_gt(distinct_openings(&noisy), 1, "noise=0.75 left every opening the same");
}

/* ---- the search ------------------------------------------------------- */

/* pcr=P:S: P = 0 runs S simulations, P = 1 the full sims, and a search
 * given its own sims runs those. */
Test(explore, pcr_chooses_the_simulations)
{
    Position pos;
    pos_start(&pos, VARIANT_STANDARD);
    char err[ERR_LEN];
    Rng rng;
    rng_seed(&rng, 3, 3);
    for (int full = 0; full <= 1; full++) {
        Mcts *m;
        MctsConfig cfg = {.sims = 60, .c = 1, .pcr_sims = 7, .pcr_p = full};
        cr_assert_eq(mcts_new(&m, &cfg, err), 0, "%s", err);
        MctsResult r;
        mcts_search(m, &pos, &rng, &r);
        cr_assert_eq(r.sims, full ? 60u : 7u);
        mcts_clear(m);
        SearchLimits lim = {.sims = 40};
        mcts_search_limited(m, &pos, &rng, &lim, &r);
        cr_assert_eq(r.sims, 40u);
        mcts_free(m);
    }
}

/* Noise with priors or without, temperature, all on: the tree stays a
 * tree, every root child gets visits (the noise spreads them), and the
 * choice is legal. */
Test(explore, noisy_search_keeps_the_tree)
{
    Position pos;
    pos_start(&pos, VARIANT_STANDARD);
    char err[ERR_LEN];
    Rng rng;
    rng_seed(&rng, 4, 4);
    MctsConfig cfgs[] = {{.sims = 300, .c = 1, .noise = 0.25, .alpha = 0.3},
                         {.sims = 300, .c = 1, .noise = 0.5, .prior = 1, .evaluate = true, .rollout = 0},
                         {.sims = 300, .c = 1, .noise = 0.25, .temp = 1, .temp_moves = 5, .threads = 2}};
    for (size_t i = 0; i < sizeof cfgs / sizeof cfgs[0]; i++) {
        if (cfgs[i].evaluate) weights_default(&cfgs[i].weights);
        Mcts *m;
        cr_assert_eq(mcts_new(&m, &cfgs[i], err), 0, "%s", err);
        Position p = pos;
        for (int ply = 0; ply < 12; ply++) {
            MctsResult r;
            Action a = mcts_search(m, &p, &rng, &r);
            cr_assert(movegen_is_legal(&p, a), "config %zu ply %d", i, ply);
            cr_assert_eq(mcts_tree_check(m, err), 0, "config %zu: %s", i, err);
            Undo u;
            mcts_advance(m, &p, a);
            pos_make(&p, a, &u);
        }
        mcts_free(m);
    }
}

/* ---- the sampler ------------------------------------------------------ */

/* Each component of Dirichlet(alpha, k) has mean 1/k and variance
 * (1/k)(1 - 1/k) / (k alpha + 1): the sample means lie within 5 standard
 * errors of 1/k; every sample is positive and sums to 1. */
Test(explore, dirichlet_means_and_sums)
{
    Rng rng;
    rng_seed(&rng, 11, 7);
    const double alphas[] = {0.03, 0.3, 1.0, 4.0};
    const int ks[] = {2, 5, 60};
    enum { N = 20000 };
    static double x[128];
    for (size_t ai = 0; ai < sizeof alphas / sizeof alphas[0]; ai++)
        for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
            double alpha = alphas[ai], mean[128] = {0};
            int k = ks[ki];
            for (int n = 0; n < N; n++) {
                dirichlet_sample(&rng, alpha, k, x);
                double sum = 0;
                for (int i = 0; i < k; i++) {
                    cr_assert(x[i] >= 0 && x[i] <= 1, "alpha %g k %d: component %g", alpha, k, x[i]);
                    if (alpha >= 0.3) cr_assert(x[i] > 0, "alpha %g k %d: a zero component", alpha, k);
                    sum += x[i];
                    mean[i] += x[i] / N;
                }
                cr_assert_float_eq(sum, 1.0, 1e-12, "alpha %g k %d: sum %.17g", alpha, k, sum);
            }
            double m = 1.0 / k, se = sqrt(m * (1 - m) / (k * alpha + 1) / N);
            for (int i = 0; i < k; i++)
                cr_expect(fabs(mean[i] - m) < 5 * se, "alpha %g k %d component %d: mean %g, want %g +- %g", alpha, k, i,
                          mean[i], m, 5 * se);
        }
}

/* Gamma(a, 1) has mean a and variance a: the sample mean within 5
 * standard errors, every sample positive. */
Test(explore, gamma_mean)
{
    Rng rng;
    rng_seed(&rng, 12, 9);
    const double shapes[] = {0.3, 1.0, 2.5, 30.0};
    enum { N = 40000 };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        double a = shapes[i], sum = 0;
        for (int n = 0; n < N; n++) {
            double g = dirichlet_gamma_sample(&rng, a);
            cr_assert(g > 0, "shape %g: %g", a, g);
            sum += g;
        }
        double se = sqrt(a / N);
        cr_expect(fabs(sum / N - a) < 5 * se, "shape %g: mean %g, want %g +- %g", a, sum / N, a, 5 * se);
    }
}
