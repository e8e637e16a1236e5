#define _GNU_SOURCE /* nftw, in test_proc.h */
/* A net in play: alpha-beta at a fixed depth and MCTS's leaves and priors
 * with a net, legal and deterministic; the agents' eval=net:FILE and
 * eval=net:builtin (the spec's text, missing and damaged files refused by
 * name, set_eval, seeded games, a resume refusing another net); match,
 * tournament and study taking a net, spsa and rounds refusing its
 * weights. */
#include "engine/movegen.h"
#include "engine/randgame.h"
#include "eval/evaluation.h"
#include "eval/nnue.h"
#include "selfplay/agents/agent.h"
#include "selfplay/search/ab.h"
#include "selfplay/search/mcts.h"
#include "tests/nnue_helpers.h"

/* ---- alpha-beta with a net -------------------------------------------- */

/* A game of ab (depth 2, the net) against itself from four random
 * actions: every action legal; the actions, in order, into acts. */
static int ab_game(const Nnue *net, uint64_t seed, Action *acts)
{
    AbConfig cfg = {.depth = 2, .tt_mb = 1, .net = net};
    weights_default(&cfg.weights);
    Ab *ab;
    char err[ERR_LEN];
    cr_assert_eq(ab_new(&ab, &cfg, err), 0, "%s", err);
    Rng rng;
    rng_stream(&rng, seed, 0);
    Position pos;
    pos_start(&pos, seed % 2 ? VARIANT_BLITZ : VARIANT_STANDARD);
    int n = 0, result, reason;
    while (!pos_outcome(&pos, &result, &reason) && n < GAME_MAX_ACTIONS) {
        Action a = n < 4 ? movegen_random(&pos, &rng) : ab_search(ab, &pos, NULL, NULL);
        cr_assert(movegen_is_legal(&pos, a), "game %llu ply %d: an illegal action", (unsigned long long)seed, n);
        acts[n++] = a;
        Undo u;
        pos_make(&pos, a, &u);
    }
    ab_free(ab);
    return n;
}

Test(nnue_ab, a_fixed_depth_search_with_a_net_is_legal_and_deterministic, .timeout = 240)
{
    Nnue *net;
    char err[ERR_LEN];
    cr_assert_eq(nnue_load_builtin(&net, err), 0, "%s", err);
    static Action a[GAME_MAX_ACTIONS], b[GAME_MAX_ACTIONS];
    for (uint64_t g = 0; g < 4; g++) {
        int n = ab_game(net, g, a), m = ab_game(net, g, b);
        cr_assert_eq(n, m);
        cr_assert(!memcmp(a, b, (size_t)n * sizeof *a), "game %llu: two searches chose differently",
                  (unsigned long long)g);
    }
    /* a random net plays legal games too (its scores are far from the shipped one's) */
    Nnue *r = random_net(8, 32, 0, NNUE_QW, false, NULL, NULL);
    ab_game(r, 9, a);
    nnue_free(r);
    nnue_free(net);
}

/* MCTS with a net at its leaves (rollout 0: the net alone) and as its
 * prior: legal and the same twice from the same stream. */
Test(nnue_mcts, leaves_and_priors_by_a_net_are_legal_and_deterministic)
{
    Nnue *net = random_net(10, 32, 0, NNUE_QW, false, NULL, NULL);
    MctsConfig cfg = {.sims = 300, .c = 1, .evaluate = true, .rollout = 0, .prior = 1, .net = net};
    weights_default(&cfg.weights);
    for (int k = 0; k < 6; k++) {
        Position pos;
        pos_start(&pos, VARIANT_STANDARD);
        Rng walk;
        rng_stream(&walk, 11, (uint64_t)k);
        randgame_play(&pos, &walk, 5 + 9 * k);
        if (movegen_count(&pos) == 0) continue;
        Action got[2];
        for (int r = 0; r < 2; r++) {
            Mcts *m;
            char err[ERR_LEN];
            cr_assert_eq(mcts_new(&m, &cfg, err), 0, "%s", err);
            Rng rng;
            rng_stream(&rng, 12, (uint64_t)k);
            got[r] = mcts_search(m, &pos, &rng, NULL);
            mcts_free(m);
        }
        cr_assert(movegen_is_legal(&pos, got[0]));
        cr_assert_eq(got[0], got[1], "position %d: two searches chose differently", k);
    }
    nnue_free(net);
}

/* ---- agents with a net: eval=net:FILE, eval=net:builtin ---------------- */

/* The net of eval/nets/default.nnue cut to n bytes (n < its size: a
 * damaged copy), or whole with n 0, written to dir/name; its path. */
static char *default_net_copy(const char *dir, const char *name, size_t n)
{
    char *src = YINSH_SOURCE_DIR "/eval/nets/default.nnue";
    FILE *f = fopen(src, "rb");
    cr_assert(f, "cannot read %s", src);
    uint8_t *b = gc(malloc(1 << 20));
    size_t len = fread(b, 1, 1 << 20, f);
    fclose(f);
    cr_assert(len > 1000 && len < (1 << 20));
    char *path = path_in(dir, name);
    f = fopen(path, "wb");
    cr_assert(f);
    fwrite(b, 1, n ? n : len, f);
    fclose(f);
    return path;
}

/* Writes bytes to dir/name; its path. */
static char *bytes_in(const char *dir, const char *name, const uint8_t *b, size_t n)
{
    char *path = path_in(dir, name);
    FILE *f = fopen(path, "wb");
    cr_assert(f);
    fwrite(b, 1, n, f);
    fclose(f);
    return path;
}

Test(nnue_spec, net_builtin_parses_and_its_canonical_text_round_trips)
{
    char err[ERR_LEN], text[SPEC_LEN], again[SPEC_LEN];
    Nnue *builtin;
    cr_assert_eq(nnue_load_builtin(&builtin, err), 0, "%s", err);
    const char *specs[] = {"ab:depth=2,eval=net:builtin", "mcts:sims=40,rollout=0,prior=1,eval=net:builtin"};
    for (int i = 0; i < 2; i++) {
        AgentSpec s, back;
        cr_assert_eq(agent_spec_parse(specs[i], &s, err), 0, "%s: %s", specs[i], err);
        cr_assert(agent_spec_names_net(&s));
        cr_assert_not_null(agent_spec_net(&s), "%s: no net was loaded", specs[i]);
        cr_assert_null(agent_spec_weights(&s), "a net spec has no linear weights");
        cr_assert_str_eq(agent_spec_eval_file(&s), "net:builtin");
        uint64_t h;
        cr_assert(agent_spec_eval_hash(&s, &h));
        cr_assert_eq(h, nnue_hash(builtin), "the stored hash is the net's content hash");
        agent_spec_format(&s, text);
        cr_assert(strstr(text, ",eval=net:builtin"), "canonical text: %s", text);
        cr_assert_eq(agent_spec_parse(text, &back, err), 0, "%s: %s", text, err);
        cr_assert_str_eq(agent_spec_format(&back, again), text);
        cr_assert_eq(nnue_hash(agent_spec_net(&back)), h);
        /* an agent keeps its own reference: it outlives both specs */
        Agent *a;
        cr_assert_eq(agent_new(&a, &s, err), 0, "%s", err);
        agent_spec_release(&s);
        agent_spec_release(&back);
        cr_assert_null(s.net);
        Position pos;
        pos_start(&pos, VARIANT_STANDARD);
        Rng walk, rng;
        rng_stream(&walk, 3, (uint64_t)i);
        randgame_play(&pos, &walk, 14);
        rng_stream(&rng, 4, 0);
        cr_assert(movegen_is_legal(&pos, agent_choose(a, &pos, &rng, NULL)));
        agent_free(a);
    }
    /* the text alone (a report's reading) names the net and holds none; no agent is made from it */
    AgentSpec t;
    cr_assert_eq(agent_spec_parse_text("ab:depth=2,eval=net:builtin", &t, err), 0, "%s", err);
    cr_assert(agent_spec_names_net(&t) && !agent_spec_net(&t));
    Agent *none;
    cr_assert_neq(agent_new(&none, &t, err), 0);
    cr_expect(strstr(err, "net:builtin"), "%s", err);
    nnue_free(builtin);
}

Test(nnue_spec, net_without_a_file_is_a_bad_spec)
{
    char err[ERR_LEN];
    AgentSpec s;
    cr_assert_eq(agent_spec_parse("ab:depth=2,eval=net:", &s, err), ERR_USAGE);
    cr_expect(strstr(err, "net:"), "%s", err);
    cr_assert_eq(agent_spec_parse_text("mcts:rollout=0,eval=net:", &s, err), ERR_USAGE);
    /* mcts: the net, as weights, wants rollout=N */
    cr_assert_eq(agent_spec_parse("mcts:sims=10,eval=net:builtin", &s, err), ERR_USAGE);
    cr_expect(strstr(err, "rollout"), "%s", err);
    cr_assert_null(s.net);
}

Test(nnue_spec, missing_and_damaged_net_files_are_refused_naming_them)
{
    char *dir = tmpdir_new(), err[ERR_LEN], spec[512];
    AgentSpec s;
    snprintf(spec, sizeof spec, "ab:depth=2,eval=net:%s", path_in(dir, "missing.nnue"));
    cr_assert_eq(agent_spec_parse(spec, &s, err), ERR_FAIL);
    cr_expect(strstr(err, "missing.nnue"), "%s", err);
    cr_assert_null(s.net);
    snprintf(spec, sizeof spec, "ab:depth=2,eval=net:%s", default_net_copy(dir, "cut.nnue", 900));
    cr_assert_eq(agent_spec_parse(spec, &s, err), ERR_FAIL);
    cr_expect(strstr(err, "cut.nnue") && strstr(err, "truncated"), "%s", err);
    cr_assert_null(s.net);
    /* a weights file is not a net */
    snprintf(spec, sizeof spec, "mcts:rollout=2,eval=net:%s", YINSH_SOURCE_DIR "/eval/weights/tuned3.txt");
    cr_assert_eq(agent_spec_parse(spec, &s, err), ERR_FAIL);
    cr_expect(strstr(err, "tuned3.txt") && strstr(err, "not a YINSH net file"), "%s", err);
    /* and in the command line: exit 1, the file named, nothing played */
    char *db = path_in(dir, "t.db"), *out, *e;
    snprintf(spec, sizeof spec, "ab:depth=2,eval=net:%s", path_in(dir, "cut.nnue"));
    const char *args[] = {"selfplay", "--games", "2", "--agent", spec, "--db", db, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &e), 1, "%s", e);
    cr_expect(strstr(e, "cut.nnue") && strstr(e, "truncated"), "%s", e);
    cr_assert(!file_exists(db), "nothing was stored");
}

Test(nnue_spec, set_eval_swaps_the_net_and_weights_are_refused)
{
    char *dir = tmpdir_new(), err[ERR_LEN];
    AgentSpec s;
    cr_assert_eq(agent_spec_parse("ab:depth=2", &s, err), 0, "%s", err);
    cr_assert_null(agent_spec_net(&s));
    cr_assert_eq(agent_spec_set(&s, "eval", "net:builtin", err), 0, "%s", err);
    const Nnue *first = agent_spec_net(&s);
    cr_assert_not_null(first);
    cr_assert_eq(agent_spec_set_weight(&s, 0, 0.5, err), ERR_USAGE, "a net has no linear weights");
    cr_expect(strstr(err, "net"), "%s", err);
    /* a bad net leaves the spec as it was, with its net */
    cr_assert_eq(agent_spec_set(&s, "eval", "net:", err), ERR_USAGE);
    cr_assert_eq(agent_spec_set(&s, "eval", "net:nowhere.nnue", err), ERR_FAIL);
    cr_assert_eq(agent_spec_net(&s), first);
    cr_assert_str_eq(agent_spec_eval_file(&s), "net:builtin");
    /* another net file: the first given back (ASan's leak check) */
    char net[256];
    snprintf(net, sizeof net, "net:%s", default_net_copy(dir, "copy.nnue", 0));
    cr_assert_eq(agent_spec_set(&s, "eval", net, err), 0, "%s", err);
    cr_assert_not_null(agent_spec_net(&s));
    cr_assert_neq(agent_spec_net(&s), first);
    /* a copy holds its own reference */
    AgentSpec c;
    agent_spec_copy(&c, &s);
    agent_spec_release(&s);
    cr_assert_not_null(agent_spec_net(&c));
    /* back to the linear weights */
    cr_assert_eq(agent_spec_set(&c, "eval", "", err), 0, "%s", err);
    cr_assert_null(agent_spec_net(&c));
    cr_assert_not_null(agent_spec_weights(&c));
    agent_spec_release(&c);
}

/* The hash line of a selfplay run's summary. */
static const char *hash_line(const char *out)
{
    const char *h = strstr(out, "\nhash ");
    cr_assert(h, "no hash in: %s", out);
    return gc(strndup(h + 1, strcspn(h + 1, "\n")));
}

/* The summary's hash of `yinsh selfplay` of 2 seeded games of agent into
 * dir/name; the run's stored spec and eval hash checked. */
static const char *net_selfplay(const char *dir, const char *name, const char *agent, const char *eval_hash)
{
    char *db = path_in(dir, name), *out, *err;
    const char *args[] = {"selfplay", "--games", "2", "--agent", agent, "--opening", "random:4", "--seed", "5",
                          "--db", db, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s: %s", agent, err);
    cr_assert(strstr(out, "games        2\n"), "%s", out);
    sqlite3 *h = db_open(db);
    if (eval_hash) {
        cr_assert(strstr(db_text(h, "SELECT white FROM run"), ",eval=net:builtin"), "%s",
                  db_text(h, "SELECT white FROM run"));
        cr_assert_str_eq(db_text(h, "SELECT white_weights FROM run"), eval_hash);
        cr_assert_str_eq(db_text(h, "SELECT black_weights FROM run"), eval_hash);
    }
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game WHERE actions > 20"), 2, "two whole games");
    sqlite3_close(h);
    return hash_line(out);
}

Test(nnue_spec, ab_and_mcts_with_the_builtin_net_play_seeded_games, .timeout = 300)
{
    char *dir = tmpdir_new(), want[32], err[ERR_LEN];
    Nnue *net;
    cr_assert_eq(nnue_load_builtin(&net, err), 0, "%s", err);
    snprintf(want, sizeof want, "%016llx", (unsigned long long)nnue_hash(net));
    nnue_free(net);
    const char *ab = "ab:depth=2,eval=net:builtin", *mcts = "mcts:sims=60,rollout=0,prior=1,eval=net:builtin";
    const char *ab1 = net_selfplay(dir, "ab1.db", ab, want), *ab2 = net_selfplay(dir, "ab2.db", ab, want);
    cr_assert_str_eq(ab1, ab2, "ab: the same command, another play");
    const char *m1 = net_selfplay(dir, "m1.db", mcts, want), *m2 = net_selfplay(dir, "m2.db", mcts, want);
    cr_assert_str_eq(m1, m2, "mcts: the same command, another play");
    /* the net is what plays: the linear weights play other games */
    cr_assert_str_neq(net_selfplay(dir, "lin.db", "ab:depth=2", NULL), ab1);
    cr_assert_str_neq(net_selfplay(dir, "mlin.db", "mcts:sims=60,rollout=0,prior=1", NULL), m1);
}

Test(nnue_spec, a_resume_refuses_another_net, .timeout = 300)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "t.db"), *net = default_net_copy(dir, "mine.nnue", 0), spec[512];
    char *out, *err;
    snprintf(spec, sizeof spec, "ab:depth=1,eval=net:%s", net);
    const char *args[] = {"selfplay", "--games", "2", "--agent", spec, "--opening", "random:4", "--seed", "5",
                          "--db", db, "--run", "r", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
    const char *resume[] = {"selfplay", "--resume", "r", "--db", db, "--quiet", NULL};
    char *out1;
    cr_assert_eq(yinsh_run(dir, resume, &out1, &err), 0, "the same net: %s", err);
    /* another net under the same name */
    uint8_t *bytes;
    size_t len;
    nnue_free(random_net(21, 16, 0, NNUE_QW, false, &bytes, &len));
    bytes_in(dir, "mine.nnue", bytes, len);
    cr_assert_eq(yinsh_run(dir, resume, &out, &err), 1, "another net was resumed: %s", out);
    cr_expect(strstr(err, "net 'net:") && strstr(err, "mine.nnue") && strstr(err, "not the one the run was played with"),
              "%s", err);
    /* the first net back: resumed */
    default_net_copy(dir, "mine.nnue", 0);
    cr_assert_eq(yinsh_run(dir, resume, &out, &err), 0, "%s", err);
    cr_assert_str_eq(out, out1);
}

Test(nnue_spec, match_tournament_and_study_take_a_net, .timeout = 300)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *match[] = {"match", "--a", "ab:depth=1,eval=net:builtin", "--b", "ab:depth=1", "--games", "2",
                           "--opening", "random:4", "--seed", "3", "--db", path_in(dir, "m.db"), "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, match, &out, &err), 0, "%s", err);
    sqlite3 *h = db_open(path_in(dir, "m.db"));
    cr_assert(strstr(db_text(h, "SELECT white FROM run"), "eval=net:builtin"));
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game"), 2);
    sqlite3_close(h);

    const char *tour[] = {"tournament", "--p", "net=ab:depth=1,eval=net:builtin", "--p", "lin=ab:depth=1",
                          "--p", "mnet=mcts:sims=20,rollout=0,eval=net:builtin", "--games", "2", "--name", "t",
                          "--db", path_in(dir, "t.db"), "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, tour, &out, &err), 0, "%s", err);
    h = db_open(path_in(dir, "t.db"));
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game"), 6);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM run WHERE white LIKE '%eval=net:builtin%' OR black LIKE "
                           "'%eval=net:builtin%'"), 3);
    sqlite3_close(h);

    char *study = write_in(dir, "s.ini",
                           "[study]\nname = s\ndb = s.db\ngames = 2\nvariants = standard\nopening = random:4\n"
                           "seed = 1\n"
                           "[agent net]\nspec = ab:depth=1,eval=net:builtin\n"
                           "[agent mnet]\nspec = mcts:sims=20,rollout=0,eval=net:builtin\n");
    const char *st[] = {"study", study, NULL};
    cr_assert_eq(yinsh_run(dir, st, &out, &err), 0, "%s", err);
    h = db_open(path_in(dir, "s.db"));
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game"), 4);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM run WHERE white LIKE '%eval=net:builtin'"), 2);
    sqlite3_close(h);
}

Test(nnue_spec, weights_of_a_net_spec_are_refused_by_spsa_and_rounds, .timeout = 300)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *spsa[] = {"spsa", "--agent", "ab:depth=1,eval=net:builtin", "--param", "w.markers=1:0:2",
                          "--iterations", "1", "--out", path_in(dir, "p.csv"), "--db", path_in(dir, "s.db"),
                          "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, spsa, &out, &err), 2, "%s", err);
    cr_expect(strstr(err, "w.markers") && strstr(err, "net"), "%s", err);
    /* a key of the search is tuned as for any agent, the net kept */
    const char *depth[] = {"spsa", "--agent", "ab:depth=1,eval=net:builtin", "--param", "depth=1:1:2",
                           "--iterations", "1", "--out", path_in(dir, "d.csv"), "--db", path_in(dir, "d.db"),
                           "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, depth, &out, &err), 0, "%s", err);
    cr_expect(strstr(out, "eval=net:builtin"), "%s", out);
    const char *rounds[] = {"rounds", "--agent", "ab:depth=1,eval=net:builtin", "--from",
                            YINSH_SOURCE_DIR "/eval/weights/tuned3.txt", "--db", path_in(dir, "r.db"), "--name", "r",
                            "--out-dir", dir, "--games", "4", "--pairs", "2", "--rounds", "1", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, rounds, &out, &err), 2, "%s", err);
    cr_expect(strstr(err, "net"), "%s", err);
}
