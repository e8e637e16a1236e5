/* `yinsh loop` as a process (issue 55, study/plans/loop.h): the rounds
 * write their nets, figures, gates and table; run again they do nothing
 * and say the same; killed with -9 at each step (self-play, training,
 * gate) and run again they end with the files of a loop never stopped; a
 * round file of another plan is refused, naming it; the gate promotes
 * only on H1, and a rejected round is kept and reported; `yinsh train
 * --policy`'s head options reach each round's head, named in its files,
 * kept by a loop run again and refused as train refuses them. */
#define _GNU_SOURCE /* nftw */
#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/test_proc.h"

#define NET0 "eval/nets/leaf32.nnue"

/* The loop of these tests, into a folder w of dir: rounds, window, threads
 * and self-play games a round. */
#define LOOP_GAMES(rounds, window, threads, games)                                                                   \
    "loop", "--agent", "mcts:puct=1,sims=24,temp=1,tempmoves=8,noise=0.25,pcr=0.5:8", "--from", NET0, "--db",     \
        "l.db", "--name", "t", "--out-dir", "w", "--rounds", rounds, "--games", games, "--window", window,         \
        "--gate-games", "24", "--sprt", "0,60,0.2,0.2", "--value-epochs", "1", "--policy-epochs", "2", "--seed",  \
        "3", "--threads", threads, "--quiet"
#define LOOP_ARGS(rounds, window, threads) LOOP_GAMES(rounds, window, threads, "16")

/* A file's bytes, *len its size; NULL when it cannot be read. */
static char *bytes_of(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = gc(malloc((size_t)n + 1));
    *len = fread(b, 1, (size_t)n, f);
    fclose(f);
    return b;
}

static void assert_same_bytes(const char *a, const char *b)
{
    size_t na, nb;
    char *x = bytes_of(a, &na), *y = bytes_of(b, &nb);
    cr_assert(x && y, "%s or %s missing", a, b);
    cr_assert(na > 0 && na == nb && !memcmp(x, y, na), "%s (%zu bytes) and %s (%zu bytes) differ", a, na, b, nb);
}

/* Every file of the loop but the costs, the same in two folders. */
static void assert_same_files(const char *d1, const char *d2, int rounds)
{
    static const char *const EXT[] = {"nnue", "train", "gate"};
    for (int k = 1; k <= rounds; k++)
        for (int e = 0; e < 3; e++) {
            char name[64];
            snprintf(name, sizeof name, "w/t.%d.%s", k, EXT[e]);
            assert_same_bytes(path_in(d1, name), path_in(d2, name));
        }
    assert_same_bytes(path_in(d1, "w/t.md"), path_in(d2, "w/t.md"));
}

static char *loop_dir(void)
{
    char *dir = tmpdir_new();
    cr_assert_eq(mkdir(path_in(dir, "w"), 0777), 0);
    return dir;
}

/* Waits (at most timeout_s) for a file; whether it came. */
static bool file_awaited(const char *path, double timeout_s)
{
    for (long i = 0; !file_exists(path) && i < (long)(timeout_s * 500); i++) usleep(2000);
    return file_exists(path);
}

Test(loop, writes_its_files_and_does_nothing_again, .timeout = 240)
{
    char *dir = loop_dir(), *out, *out2, *err;
    const char *args[] = {LOOP_ARGS("2", "1", "2"), NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
    for (int k = 1; k <= 2; k++) {
        char name[32];
        snprintf(name, sizeof name, "w/t.%d.nnue", k);
        cr_assert(file_exists(path_in(dir, name)), "%s", name);
    }
    char *md = slurp(path_in(dir, "w/t.md"));
    cr_assert_str_eq(out, md, "the table printed is the one written");
    cr_assert(strstr(md, "| 1 | 0 | 16 (1-1) |"), "%s", md);
    cr_assert(strstr(md, "(2-2) |"), "window 1: round 2 reads its own games alone: %s", md);
    cr_assert(strstr(slurp(path_in(dir, "w/t.1.train")), "policy_reduced "), "the reduced searches are counted");
    sqlite3 *h = db_open(path_in(dir, "l.db"));
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game"), 32);
    cr_assert_gt(db_int(h, "SELECT count(*) FROM action WHERE full = 0"), 0);
    cr_assert_gt(db_int(h, "SELECT count(*) FROM action_visits"), 100);
    sqlite3_close(h);
    /* again: nothing to do, the same table; the costs file grows not */
    size_t clen, clen2;
    bytes_of(path_in(dir, "w/t.costs"), &clen);
    cr_assert_eq(yinsh_run(dir, args, &out2, &err), 0, "%s", err);
    cr_assert_str_eq(out2, out);
    bytes_of(path_in(dir, "w/t.costs"), &clen2);
    cr_assert_eq(clen, clen2, "a step was done again");
}

/* kill -9 during round 1's self-play, then while round 1 trains or
 * gates, then during round 2's self-play; and the states a kill between
 * two writes leaves (a net without its figures, a training without its
 * gate, a sibling file never renamed): run again each time, the loop ends
 * with the files of one never stopped (on another number of threads). */
Test(loop, kill_9_at_each_step_and_run_again_gives_the_same_files, .timeout = 300)
{
    char *kdir = loop_dir(), *fdir = loop_dir(), *out1, *out2, *err;
    const char *killed[] = {LOOP_GAMES("2", "2", "1", "200"), NULL};
    const char *whole[] = {LOOP_GAMES("2", "2", "2", "200"), NULL};
    char *k = path_in(kdir, "l.db");

    /* 1. self-play */
    pid_t pid = yinsh_start(kdir, killed);
    cr_assert_geq(games_awaited(k, 1, 60), 1, "no games stored");
    kill(pid, SIGKILL);
    cr_assert_eq(yinsh_wait(pid), 128 + SIGKILL);
    cr_assert_lt(games_in(k), 200, "round 1's self-play finished before the kill: make it longer");
    /* 2. the training or the gate of round 1 */
    pid = yinsh_start(kdir, killed);
    cr_assert(file_awaited(path_in(kdir, "w/t.1.nnue"), 120), "round 1 trained no net");
    kill(pid, SIGKILL);
    cr_assert_eq(yinsh_wait(pid), 128 + SIGKILL);
    /* 3. round 2's self-play */
    pid = yinsh_start(kdir, killed);
    cr_assert_geq(games_awaited(k, 201, 120), 201, "round 2 stored no game");
    kill(pid, SIGKILL);
    cr_assert_eq(yinsh_wait(pid), 128 + SIGKILL);
    cr_assert_eq(yinsh_run(kdir, killed, &out1, &err), 0, "%s", err);

    cr_assert_eq(yinsh_run(fdir, whole, &out2, &err), 0, "%s", err);
    cr_assert_str_eq(out1, out2);
    assert_same_files(kdir, fdir, 2);
    cr_assert_eq(games_in(k), games_in(path_in(fdir, "l.db")));

    /* what a kill between two writes leaves: a net whose figures are not
     * written, a round whose gate is not, a sibling never renamed */
    cr_assert_eq(unlink(path_in(kdir, "w/t.2.train")), 0);
    cr_assert_eq(unlink(path_in(kdir, "w/t.1.gate")), 0);
    FILE *f = fopen(path_in(kdir, "w/t.2.nnue.4242.tmp"), "w");
    cr_assert(f);
    fputs("half a net", f);
    fclose(f);
    cr_assert_eq(yinsh_run(kdir, killed, &out1, &err), 0, "%s", err);
    cr_assert_str_eq(out1, out2);
    assert_same_files(kdir, fdir, 2);
}

/* A round's file made for another plan (here another lambda, so another
 * training) is refused, naming it, and left as it was. */
Test(loop, a_file_of_another_plan_is_refused, .timeout = 240)
{
    char *dir = loop_dir(), *err;
    const char *args[] = {LOOP_ARGS("1", "1", "2"), NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    char *train = slurp(path_in(dir, "w/t.1.train"));
    const char *other[] = {LOOP_ARGS("1", "1", "2"), "--lambda", "0.25", NULL};
    char *msg = expect_exit(dir, other, 1, "t.1.train was made for another plan");
    cr_assert(strstr(msg, "another plan"), "%s", msg);
    cr_assert_str_eq(slurp(path_in(dir, "w/t.1.train")), train);
}

/* The gate promotes only on H1: round 1's gate made to say H1 (its file
 * edited), round 2 is played by net 1 and gated against it; a rejected
 * round keeps its net and is reported as rejected, the best net staying. */
Test(loop, promotes_only_on_h1_and_keeps_a_rejected_round, .timeout = 240)
{
    char *dir = loop_dir(), *out, *err;
    const char *one[] = {LOOP_ARGS("1", "2", "2"), NULL};
    cr_assert_eq(yinsh_run(dir, one, &out, &err), 0, "%s", err);
    char *gate = slurp(path_in(dir, "w/t.1.gate"));
    char *v = strstr(gate, "\nverdict ");
    cr_assert(v);
    if (v[9] != '1') {
        cr_assert(strstr(out, "rejected (kept)"), "%s", out);
        cr_assert(strstr(out, "Best: net 0"), "%s", out);
        /* the verdict made H1 */
        char edited[4096];
        snprintf(edited, sizeof edited, "%.*s\nverdict 1%s", (int)(v - gate), gate, strchr(v + 1, '\n'));
        FILE *f = fopen(path_in(dir, "w/t.1.gate"), "w");
        cr_assert(f);
        fputs(edited, f);
        fclose(f);
    }
    const char *two[] = {LOOP_ARGS("2", "2", "2"), NULL};
    cr_assert_eq(yinsh_run(dir, two, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "| 1 | 0 |") && strstr(out, "t.1.nnue, promoted"), "%s", out);
    cr_assert(strstr(out, "| 2 | 1 |"), "round 2 is played by net 1: %s", out);
    sqlite3 *h = db_open(path_in(dir, "l.db"));
    cr_assert(strstr(db_text(h, "SELECT white FROM run WHERE name = 't.2/selfplay'"), "eval=net:w/t.1.nnue"));
    sqlite3_close(h);
    char *g2 = slurp(path_in(dir, "w/t.2.gate"));
    bool h1 = strstr(g2, "\nverdict 1\n") != NULL;
    cr_assert(strstr(out, h1 ? "Best: t.2.nnue" : "Best: t.1.nnue"), "%s", out);
    cr_assert(strstr(out, h1 ? "t.2.nnue, promoted" : "t.2.nnue, rejected (kept)"), "%s", out);
    cr_assert(file_exists(path_in(dir, "w/t.2.nnue")), "a rejected round's net is kept");
}

Test(loop, mistakes_are_refused_before_anything_is_written)
{
    char *dir = loop_dir();
    const struct {
        const char *args[32];
        int status;
        const char *word;
    } cases[] = {
        {{"loop", "--agent", "mcts:sims=20,rollout=4", "--from", NET0, "--db", "l.db", "--name", "t", "--out-dir", "w", NULL},
         2, "not a PUCT agent"},
        {{"loop", "--agent", "mcts:puct=1", "--from", "eval/nets/default.nnue", "--db", "l.db", "--name", "t",
          "--out-dir", "w", NULL},
         2, "linear and a pattern part"},
        {{"loop", "--agent", "mcts:puct=1", "--from", NET0, "--db", "l.db", "--name", "t", "--out-dir", "nowhere",
          NULL},
         2, "not a folder"},
        {{"loop", "--agent", "mcts:puct=1", "--from", NET0, "--db", "l.db", "--name", "t", "--out-dir", "w",
          "--gate-games", "7", NULL},
         2, "even number"},
        {{"loop", "--agent", "mcts:puct=1", "--from", NET0, "--db", "l.db", "--name", "t", "--out-dir", "w",
          "--sprt", "0,10", NULL},
         2, "--sprt"},
        {{"loop", "--agent", "mcts:puct=1", "--from", "missing.nnue", "--db", "l.db", "--name", "t", "--out-dir",
          "w", NULL},
         1, "missing.nnue"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) expect_exit(dir, cases[i].args, cases[i].status, cases[i].word);
    cr_assert_not(file_exists(path_in(dir, "l.db")));
    cr_assert_not(file_exists(path_in(dir, "w/t.md")));
}

/* ---- the head's training options of `yinsh train --policy`, passed on ---- */

/* A round file's value of key (NAN when absent). */
static double round_num(const char *text, const char *key)
{
    char k[64];
    snprintf(k, sizeof k, "\n%s ", key);
    const char *p = strstr(text, k);
    return p ? strtod(p + strlen(k), NULL) : NAN;
}

/* Round 1's files moved aside (the self-play run kept): the next command
 * trains and gates round 1 again. */
static void round_1_aside(const char *dir, const char *net)
{
    cr_assert_eq(rename(path_in(dir, "w/t.1.nnue"), path_in(dir, net)), 0);
    cr_assert_eq(unlink(path_in(dir, "w/t.1.train")), 0);
    cr_assert_eq(unlink(path_in(dir, "w/t.1.gate")), 0);
    cr_assert_eq(unlink(path_in(dir, "w/t.md")), 0);
}

/* --child-temp, --child-mix, --reduced-too reach round 1's head training:
 * its file and table name them, the reduced searches' positions become
 * samples, the net is another; the same command again does nothing; a
 * loop run again with another value, or without them, or with them where
 * the round was trained without, is refused naming the option, its
 * files left as they were. */
Test(loop, passes_child_value_targets_to_the_head_and_keeps_them, .timeout = 300)
{
    char *dir = loop_dir(), *out, *out2, *err;
    const char *plain[] = {LOOP_ARGS("1", "1", "2"), NULL};
    const char *child[] = {LOOP_ARGS("1", "1", "2"), "--child-temp", "1", "--child-mix", "0.5", "--reduced-too",
                           NULL};
    cr_assert_eq(yinsh_run(dir, plain, NULL, &err), 0, "%s", err);
    char *train0 = slurp(path_in(dir, "w/t.1.train"));
    cr_assert(isnan(round_num(train0, "child_temp")), "%s", train0);
    /* round 1 trained without them: a loop with them is refused */
    err = expect_exit(dir, child, 1, "t.1.train was made without --child-temp");
    cr_assert_str_eq(slurp(path_in(dir, "w/t.1.train")), train0);

    round_1_aside(dir, "plain.nnue");
    cr_assert_eq(yinsh_run(dir, child, &out, &err), 0, "%s", err);
    char *train = slurp(path_in(dir, "w/t.1.train"));
    cr_assert_eq(round_num(train, "child_temp"), 1, "%s", train);
    cr_assert_eq(round_num(train, "child_mix"), 0.5, "%s", train);
    cr_assert_eq(round_num(train, "reduced_too"), 1, "%s", train);
    cr_assert(isnan(round_num(train, "joint")), "%s", train);
    cr_assert(strstr(out, "--child-temp 1 --child-mix 0.5 --reduced-too"), "the table names them: %s", out);
    cr_assert(strstr(out, "policy positions (reduced among them)"), "%s", out);
    /* the reduced searches' positions are samples too */
    cr_assert_gt(round_num(train0, "policy_reduced"), 0);
    cr_assert_gt(round_num(train, "policy_positions"), round_num(train0, "policy_positions"));
    cr_assert(round_num(train, "policy_child_final") > 0, "the figures against the child-value targets: %s", train);
    size_t n0, n1;
    char *a = bytes_of(path_in(dir, "plain.nnue"), &n0), *b = bytes_of(path_in(dir, "w/t.1.nnue"), &n1);
    cr_assert(a && b && (n0 != n1 || memcmp(a, b, n0)), "the head trained with them is another");

    /* again: nothing to do */
    size_t clen, clen2;
    bytes_of(path_in(dir, "w/t.costs"), &clen);
    cr_assert_eq(yinsh_run(dir, child, &out2, &err), 0, "%s", err);
    cr_assert_str_eq(out2, out);
    bytes_of(path_in(dir, "w/t.costs"), &clen2);
    cr_assert_eq(clen, clen2, "a step was done again");

    /* another value, or none: refused, naming the option */
    const char *other[] = {LOOP_ARGS("1", "1", "2"), "--child-temp", "1", "--child-mix", "0.25", "--reduced-too",
                           NULL};
    err = expect_exit(dir, other, 1, "t.1.train was made with --child-mix 0.5");
    cr_assert(strstr(err, "--child-mix 0.25"), "%s", err);
    err = expect_exit(dir, plain, 1, "t.1.train was made with --child-temp 1");
    cr_assert_str_eq(slurp(path_in(dir, "w/t.1.train")), train);
    size_t n2;
    char *c = bytes_of(path_in(dir, "w/t.1.nnue"), &n2);
    cr_assert(n2 == n1 && !memcmp(b, c, n1), "the net is left as it was");
}

/* --joint with --trunk-lr and --widen reaches round 1's training: the
 * candidate is the joint net, wider than net 0, gated as any other; its
 * file names them and gives the value's figures under the joint loss;
 * on one thread, or trained and gated again after a kill between two
 * writes, the same files; another --trunk-lr is refused naming it. */
Test(loop, passes_joint_training_to_the_head_and_keeps_it, .timeout = 300)
{
    char *dir = loop_dir(), *out, *err;
    const char *joint[] = {LOOP_ARGS("1", "1", "2"), "--joint", "1", "--trunk-lr", "0.001", "--widen", "48", NULL};
    cr_assert_eq(yinsh_run(dir, joint, &out, &err), 0, "%s", err);
    char *train = slurp(path_in(dir, "w/t.1.train"));
    cr_assert_eq(round_num(train, "joint"), 1, "%s", train);
    cr_assert_eq(round_num(train, "trunk_lr"), 0.001, "%s", train);
    cr_assert_eq(round_num(train, "widen"), 48, "%s", train);
    cr_assert(isnan(round_num(train, "child_temp")), "%s", train);
    cr_assert(round_num(train, "joint_value_final") > 0, "the value's figure under the joint loss: %s", train);
    cr_assert(strstr(out, "--joint 1 --trunk-lr 0.001 --widen 48"), "the table names them: %s", out);
    cr_assert(file_exists(path_in(dir, "w/t.1.gate")), "the joint net is gated");
    /* 16 more hidden units a side: far more bytes than a description
     * (at most 255) could add */
    size_t n0, n1;
    cr_assert(bytes_of(YINSH_SOURCE_DIR "/" NET0, &n0) && bytes_of(path_in(dir, "w/t.1.nnue"), &n1));
    cr_assert_gt(n1, n0 + 4096, "net 0 %zu bytes, the widened joint net %zu", n0, n1);

    /* one thread: the same files; a net without its figures and gate
     * (a kill between two writes): trained and gated again, the same */
    char *dir1 = loop_dir(), *out1;
    const char *joint1[] = {LOOP_ARGS("1", "1", "1"), "--joint", "1", "--trunk-lr", "0.001", "--widen", "48", NULL};
    cr_assert_eq(yinsh_run(dir1, joint1, &out1, &err), 0, "%s", err);
    cr_assert_str_eq(out1, out);
    assert_same_files(dir, dir1, 1);
    cr_assert_eq(unlink(path_in(dir1, "w/t.1.train")), 0);
    cr_assert_eq(unlink(path_in(dir1, "w/t.1.gate")), 0);
    cr_assert_eq(yinsh_run(dir1, joint1, &out1, &err), 0, "%s", err);
    cr_assert_str_eq(out1, out);
    assert_same_files(dir, dir1, 1);

    const char *other[] = {LOOP_ARGS("1", "1", "2"), "--joint", "1", "--trunk-lr", "0.002", "--widen", "48", NULL};
    err = expect_exit(dir, other, 1, "t.1.train was made with --trunk-lr 0.001");
    cr_assert_str_eq(slurp(path_in(dir, "w/t.1.train")), train);
}

/* The head's options are refused as `yinsh train --policy` refuses them,
 * in the same words, before anything is written. */
Test(loop, head_options_are_refused_as_train_refuses_them)
{
    char *dir = loop_dir();
#define BASE "loop", "--agent", "mcts:puct=1", "--from", NET0, "--db", "l.db", "--name", "t", "--out-dir", "w"
    const struct {
        const char *args[32];
        const char *word;
    } cases[] = {
        {{BASE, "--child-mix", "0.5", NULL}, "--child-mix needs --child-temp T, the child-value targets' temperature"},
        {{BASE, "--child-temp", "1", "--reduced-too", NULL}, "--reduced-too needs --child-mix M above 0"},
        {{BASE, "--widen", "48", NULL}, "--widen goes with --joint"},
        {{BASE, "--joint", "1", "--widen", "40", NULL}, "--widen 40: a multiple of 16 from the net's 32 hidden units"},
        {{BASE, "--joint", "1", "--widen", "16", NULL}, "--widen 16: a multiple of 16 from the net's 32 hidden units"},
        {{BASE, "--child-temp", "0", NULL}, "--child-temp"},
        {{BASE, "--joint", "-1", NULL}, "--joint"},
    };
#undef BASE
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) expect_exit(dir, cases[i].args, 2, cases[i].word);
    cr_assert_not(file_exists(path_in(dir, "l.db")));
    cr_assert_not(file_exists(path_in(dir, "w/t.md")));
}
