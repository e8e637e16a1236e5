#define _GNU_SOURCE /* nftw, in test_proc.h */
/* Agent specs (selfplay/agents/agent.h): parsed and formatted back, each
 * error naming the problem, the evaluation keys of evaluated rollouts
 * (issue #4) loaded once, and the specs of external UYI engines. */
#include "selfplay/agents/agent.h"
#include "selfplay/search/mcts.h"
#include "tests/test_proc.h"

/* ---- agent specs ------------------------------------------------------ */

Test(agent, spec_parse_and_format)
{
    AgentSpec s;
    char err[ERR_LEN], text[SPEC_LEN];
    cr_assert_eq(agent_spec_parse("random", &s, err), 0, "%s", err);
    cr_assert(agent_spec_random(&s));
    cr_assert_str_eq(agent_spec_format(&s, text), "random");

    cr_assert_eq(agent_spec_parse("mcts:sims=800", &s, err), 0, "%s", err);
    cr_assert_str_eq(agent_spec_kind_name(&s), "mcts");
    cr_assert_eq(s.mcts.sims, 800);
    cr_assert_str_eq(agent_spec_format(&s, text), "mcts:sims=800,c=1,rollout=random");

    cr_assert_eq(agent_spec_parse("mcts:sims=800,c=1.2,rollout=random", &s, err), 0, "%s", err);
    cr_assert_float_eq(s.mcts.c, 1.2, 1e-12);
    cr_assert_str_eq(agent_spec_format(&s, text), "mcts:sims=800,c=1.2,rollout=random");
    AgentSpec back;
    cr_assert_eq(agent_spec_parse(text, &back, err), 0, "%s", err);
    cr_assert(back.mcts.sims == s.mcts.sims && back.mcts.c == s.mcts.c && back.mcts.nodes == s.mcts.nodes);

    cr_assert_eq(agent_spec_parse("mcts", &s, err), 0, "%s", err);
    cr_assert_eq(s.mcts.sims, 200); /* `mcts` alone is the default agent of selfplay */
    cr_assert_eq(agent_spec_parse("mcts:nodes=5000", &s, err), 0, "%s", err);
    cr_assert_str_eq(agent_spec_format(&s, text), "mcts:sims=200,c=1,rollout=random,nodes=5000");

    /* the search options: written only when set, and read back */
    cr_assert_eq(agent_spec_parse("mcts:threads=1,solver=0,prior=0,policy=uniform", &s, err), 0, "%s", err);
    cr_assert_str_eq(agent_spec_format(&s, text), "mcts:sims=200,c=1,rollout=random");
    cr_assert_eq(agent_spec_parse("mcts:rollout=4,policy=rows,prior=0.5,solver=1,threads=2", &s, err), 0, "%s", err);
    cr_assert(s.mcts.threads == 2 && s.mcts.solver && s.mcts.prior == 0.5 && s.mcts.policy == MCTS_POLICY_ROWS);
    cr_assert_str_eq(agent_spec_format(&s, text), "mcts:sims=200,c=1,rollout=4,threads=2,solver=1,prior=0.5,policy=rows");
    cr_assert_eq(agent_spec_parse(text, &back, err), 0, "%s", err);
    cr_assert(back.mcts.threads == 2 && back.mcts.solver && back.mcts.prior == 0.5 && back.mcts.policy == MCTS_POLICY_ROWS);
    cr_assert_eq(agent_spec_set(&back, "threads", "3", err), 0, "%s", err);
    cr_assert_eq(back.mcts.threads, 3);
    cr_assert_neq(agent_spec_set(&back, "solver", "maybe", err), 0);
    cr_assert(back.mcts.solver);
}

Test(agent, spec_errors_name_the_problem)
{
    AgentSpec s;
    char err[ERR_LEN];
    struct {
        const char *spec, *word;
    } bad[] = {
        {"alphazero", "alphazero"},   {"mcts:simz=5", "simz"},     {"mcts:sims=0", "sims"},
        {"mcts:sims=abc", "abc"},     {"mcts:c=-1", "c"},          {"mcts:rollout=smart", "smart"},
        {"mcts:sims", "sims"},        {"random:sims=5", "random"}, {"mcts:nodes=1", "nodes"},
        {"mcts:sims=10,c=x", "x"},    {"mcts:threads=0", "threads"}, {"mcts:threads=65", "threads"},
        {"mcts:threads=two", "two"},  {"mcts:solver=2", "solver"},   {"mcts:solver=yes", "yes"},
        {"mcts:prior=-1", "prior"},   {"mcts:prior=101", "prior"},   {"mcts:prior=1e", "1e"},
        {"mcts:policy=smart", "smart"}, {"mcts:threads=", "threads"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_neq(agent_spec_parse(bad[i].spec, &s, err), 0, "%s accepted", bad[i].spec);
        cr_assert(strstr(err, bad[i].word), "%s: message '%s' does not name '%s'", bad[i].spec, err, bad[i].word);
    }
}

/* ---- evaluated rollouts (issue #4) -------------------------------------- */

Test(agent, eval_keys_parse_format_and_load_once)
{
    char *dir = tmpdir_new(), *w = path_in(dir, "w.txt"), err[ERR_LEN], text[SPEC_LEN];
    FILE *f = fopen(w, "w");
    fprintf(f, "# test weights\nrings_removed 2.5\ntempo 0\n");
    fclose(f);
    char spec[512];
    snprintf(spec, sizeof spec, "mcts:sims=50,eval=%s,rollout=8", w);
    AgentSpec s, back;
    cr_assert_eq(agent_spec_parse(spec, &s, err), 0, "%s", err);
    cr_assert_eq(s.mcts.rollout, 8);
    cr_assert_str_eq(s.eval, w);
    cr_assert_eq(s.weights.w[FEAT_RINGS_REMOVED], 2.5);
    cr_assert_eq(s.weights.w[FEAT_TEMPO], 0);
    Weights d;
    weights_default(&d);
    cr_assert_eq(s.weights.w[FEAT_MARKERS], d.w[FEAT_MARKERS], "unlisted features keep their default");
    char expect[512];
    snprintf(expect, sizeof expect, "mcts:sims=50,c=1,rollout=8,eval=%s", w);
    cr_assert_str_eq(agent_spec_format(&s, text), expect);
    cr_assert_eq(agent_spec_parse(text, &back, err), 0, "%s", err);
    cr_assert(!memcmp(&back.weights, &s.weights, sizeof s.weights) && back.mcts.rollout == 8);

    /* rollout=N alone uses the built-in defaults; rollout=random stays the old canonical form */
    cr_assert_eq(agent_spec_parse("mcts:sims=50,rollout=0", &s, err), 0, "%s", err);
    cr_assert_str_eq(agent_spec_format(&s, text), "mcts:sims=50,c=1,rollout=0");
    cr_assert(!memcmp(&s.weights, &d, sizeof d));
    cr_assert_eq(agent_spec_parse("mcts:sims=50,rollout=random", &s, err), 0, "%s", err);
    cr_assert_eq(s.mcts.rollout, ROLLOUT_RANDOM);
    cr_assert_str_eq(agent_spec_format(&s, text), "mcts:sims=50,c=1,rollout=random");

    /* errors name the file and the line */
    f = fopen(w, "w");
    fprintf(f, "markers 0.1\nlines3 zero\n");
    fclose(f);
    cr_assert_neq(agent_spec_parse(spec, &s, err), 0);
    cr_assert(strstr(err, w) && strstr(err, ":2:") && strstr(err, "zero"), "%s", err);
    cr_assert_neq(agent_spec_parse("mcts:rollout=4,eval=/no/such/file.txt", &s, err), 0);
    cr_assert(strstr(err, "/no/such/file.txt"), "%s", err);
    /* reading a stored spec needs no file */
    cr_assert_eq(agent_spec_parse_text("mcts:sims=9,rollout=4,eval=/no/such/file.txt", &s, err), 0, "%s", err);
    cr_assert(s.mcts.sims == 9 && s.mcts.rollout == 4 && !strcmp(s.eval, "/no/such/file.txt"));
    cr_assert_neq(agent_spec_parse("mcts:eval=eval/weights/default.txt", &s, err), 0);
    cr_assert(strstr(err, "rollout"), "%s", err);
    cr_assert_neq(agent_spec_parse("mcts:rollout=1001", &s, err), 0);
    cr_assert(strstr(err, "1001"), "%s", err);
    cr_assert_neq(agent_spec_parse("mcts:rollout=4,eval=", &s, err), 0);
    cr_assert(strstr(err, "eval"), "%s", err);
}

/* External engine specs (agent.h): escapes survive the round trip, the
 * canonical order is name, cmd, dir, options, and bad fields are refused. */
Test(agent, uyi_specs)
{
    AgentSpec a, b;
    char err[ERR_LEN], fa[SPEC_LEN], fb[SPEC_LEN];
    cr_assert_eq(agent_spec_parse("uyi:option.seed=3;cmd=./eng a\\;b \\\\ c,d;dir=/tmp;name=x y", &a, err), 0, "%s",
                 err);
    cr_assert(agent_spec_external(&a));
    cr_assert_str_eq(a.external.cmd, "./eng a;b \\ c,d");
    cr_assert_str_eq(a.external.name, "x y");
    cr_assert_eq(a.external.noptions, 1);
    cr_assert_str_eq(agent_spec_format(&a, fa), "uyi:name=x y;cmd=./eng a\\;b \\\\ c,d;dir=/tmp;option.seed=3");
    cr_assert_eq(agent_spec_parse(fa, &b, err), 0, "%s", err);
    cr_assert_str_eq(agent_spec_format(&b, fb), fa);
    cr_assert_str_eq(agent_spec_format(&(AgentSpec){0}, fb), "random"); /* kinds apart */
    /* options keep their order, and each its value */
    cr_assert_eq(agent_spec_parse("uyi:cmd=e;option.Hash=64;option.b=;option.Threads=2", &a, err), 0, "%s", err);
    cr_assert_eq(a.external.noptions, 3);
    const char *k, *v;
    uyi_engine_option(&a.external, 1, &k, &v);
    cr_assert(!strcmp(k, "b") && !strcmp(v, ""), "%s=%s", k, v);
    uyi_engine_option(&a.external, 2, &k, &v);
    cr_assert(!strcmp(k, "Threads") && !strcmp(v, "2"), "%s=%s", k, v);
    cr_assert_str_eq(agent_spec_format(&a, fa), "uyi:name=engine;cmd=e;option.Hash=64;option.b=;option.Threads=2");
    static const char *const bad[] = {"uyi", "uyi:", "uyi:name=x", "uyi:cmd=", "uyi:cmd=x;colour=red",
                                      "uyi:cmd=x;option.a b=1", "uyi:cmd=x;name=",
                                      "uyi:cmd=x;option.a=1\nquit"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = '\0';
        cr_assert_neq(agent_spec_parse(bad[i], &a, err), 0, "%s accepted", bad[i]);
        cr_assert(err[0], "%s: no message", bad[i]);
    }
}
