#define _GNU_SOURCE /* nftw */
/* `yinsh rounds` as a process: the rounds write their weights files and
 * their table; run again they play nothing and say the same; killed with
 * -9 and run again they end with the files of a run never stopped;
 * mistakes are refused before anything is written; the same for rounds
 * of nets (--net: NAME.k.nnue, compared byte for byte). Fixed-depth
 * alpha-beta draws nothing from the rng, so every round is reproducible. */
#include <criterion/criterion.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "eval/evaluation.h"
#include "eval/nnue.h"
#include "tests/test_proc.h"

#define FROM YINSH_SOURCE_DIR "/eval/weights/default.txt"

/* Lines of a text that begin with a digit: the table's rounds. */
static int table_rows(const char *s)
{
    int n = 0;
    for (const char *l = s; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        n += *l >= '0' && *l <= '9';
    return n;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

/* A file's bytes (a net holds zeros: not a string), *len its size; NULL
 * when it cannot be read. */
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

Test(rounds, writes_the_files_and_plays_nothing_again)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "r.db"), *outdir = path_in(dir, "w"), *out, *err;
    cr_assert_eq(mkdir(outdir, 0777), 0);
    const char *args[] = {"rounds", "--agent", "ab:depth=1", "--from", FROM, "--db", db, "--name", "t", "--out-dir",
                          outdir, "--games", "40", "--pairs", "10", "--rounds", "2", "--threads", "2", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);

    /* (a) the first round's weights, read back; the table and the CSV agree */
    Weights w;
    char werr[ERR_LEN], *w1 = path_in(dir, "w/t.1.txt"), *csv = path_in(dir, "w/t.csv");
    cr_assert_eq(weights_load(w1, &w, werr), 0, "%s", werr);
    cr_assert(strstr(slurp(w1), "# made by: yinsh rounds t, round 1"), "%s", slurp(w1));
    int rows = table_rows(out);
    cr_assert(rows >= 1 && rows <= 2, "%s", out);
    char *table = slurp(csv);
    cr_assert_eq(count_lines(table), 1 + rows, "%s", table);
    cr_assert(strstr(table, "1,t.1/selfplay,40,"), "%s", table);
    /* the stop rule: round 2 is played when round 1 gains, and the best
     * weights are those of the last round that gains */
    const char *row1 = strchr(table, '\n') + 1;
    char *line1 = gc(strndup(row1, strcspn(row1, "\n")));
    bool gains1 = strstr(line1, ",yes,") != NULL, gains2 = rows == 2 && strstr(strchr(row1, '\n'), ",yes,");
    cr_assert_eq(rows, gains1 ? 2 : 1, "%s", table);
    if (!gains1) cr_assert(strstr(out, "\nbest: " FROM " (the start: round 1 did not gain)\n"), "%s", out);
    else if (!gains2) cr_assert(strstr(out, "/w/t.1.txt (round 1)\n"), "%s", out);
    else cr_assert(strstr(out, "/w/t.2.txt (round 2)\n"), "%s", out);
    long long games = games_in(db);
    cr_assert_eq(games, rows * (40 + 20));

    /* (b) again: no new game, the same table and files */
    char *w1_bytes = slurp(w1), *out2;
    cr_assert_eq(yinsh_run(dir, args, &out2, &err), 0, "%s", err);
    cr_assert_str_eq(out2, out);
    cr_assert_eq(games_in(db), games);
    cr_assert_str_eq(slurp(csv), table);
    cr_assert_str_eq(slurp(w1), w1_bytes);

    /* another plan under the same names is refused, naming the run */
    const char *other[] = {"rounds", "--agent", "ab:depth=1", "--from", FROM, "--db", db, "--name", "t", "--out-dir",
                           outdir, "--games", "40", "--pairs", "10", "--rounds", "2", "--seed", "7", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, other, &out, &err), 1, "%s", err);
    cr_assert(strstr(err, "t.1/selfplay"), "%s", err);
    cr_assert_eq(games_in(db), games);
}

Test(rounds, kill_9_and_run_again_equals_uninterrupted)
{
    /* The same command line in two folders: the runs' identities (hence
     * the fits' validation games) hold the weights files' paths as given. */
    char *kdir = tmpdir_new(), *fdir = tmpdir_new(), *err;
    cr_assert_eq(mkdir(path_in(kdir, "w"), 0777), 0);
    cr_assert_eq(mkdir(path_in(fdir, "w"), 0777), 0);
    const char *killed[] = {"rounds", "--agent", "ab:depth=1", "--from", FROM, "--db", "r.db", "--name", "t",
                            "--out-dir", "w", "--games", "400", "--pairs", "100", "--rounds", "2", "--threads", "1",
                            "--quiet", NULL};
    char *k = path_in(kdir, "r.db"), *f = path_in(fdir, "r.db");
    pid_t pid = yinsh_start(kdir, killed);
    long long stored = games_awaited(k, 1, 12);
    cr_assert_geq(stored, 1, "no games stored");
    kill(pid, SIGKILL);
    cr_assert_eq(yinsh_wait(pid), 128 + SIGKILL);
    stored = games_in(k);
    cr_assert_lt(stored, 2 * (400 + 200), "the rounds finished before the kill: make them longer");

    char *out1, *out2;
    cr_assert_eq(yinsh_run(kdir, killed, &out1, &err), 0, "%s", err);
    const char *whole[] = {"rounds", "--agent", "ab:depth=1", "--from", FROM, "--db", "r.db", "--name", "t",
                           "--out-dir", "w", "--games", "400", "--pairs", "100", "--rounds", "2", "--threads", "2",
                           "--quiet", NULL};
    cr_assert_eq(yinsh_run(fdir, whole, &out2, &err), 0, "%s", err);
    cr_assert_str_eq(out1, out2);
    cr_assert_eq(games_in(k), games_in(f));
    int rows = table_rows(out2);
    cr_assert_geq(rows, 1);
    cr_assert_str_eq(slurp(path_in(kdir, "w/t.csv")), slurp(path_in(fdir, "w/t.csv")));
    for (int r = 1; r <= rows; r++) {
        char name[32];
        snprintf(name, sizeof name, "w/t.%d.txt", r);
        char *a = slurp(path_in(kdir, name)), *b = slurp(path_in(fdir, name));
        cr_assert(strlen(b) > 0, "%s missing", name);
        cr_assert_str_eq(a, b, "%s differs", name);
    }
}

Test(rounds, bad_command_lines_write_nothing)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "never.db"), *outdir = path_in(dir, "w"),
         *file = path_in(dir, "plain"), *missing = path_in(dir, "nowhere");
    cr_assert_eq(mkdir(outdir, 0777), 0);
    FILE *p = fopen(file, "w");
    cr_assert(p);
    fclose(p);
    struct {
        const char *args[20];
        int status;
        const char *word;
    } cases[] = {
        {{"rounds", "--agent", "random", "--from", FROM, "--db", db, "--name", "t", "--out-dir", outdir, NULL}, 2,
         "random"},
        {{"rounds", "--agent", "mcts:sims=20", "--from", FROM, "--db", db, "--name", "t", "--out-dir", outdir, NULL},
         2, "no evaluation"},
        {{"rounds", "--agent", "ab:depth=1", "--db", db, "--name", "t", "--out-dir", outdir, NULL}, 2, "--from"},
        {{"rounds", "--agent", "ab:depth=1", "--from", FROM, "--db", db, "--name", "a/b", "--out-dir", outdir, NULL},
         2, "a/b"},
        {{"rounds", "--agent", "ab:depth=1", "--from", FROM, "--db", db, "--name", "t", "--out-dir", missing, NULL},
         2, "nowhere"},
        {{"rounds", "--agent", "ab:depth=1", "--from", FROM, "--db", db, "--name", "t", "--out-dir", file, NULL}, 2,
         "plain"},
        {{"rounds", "--agent", "ab:depth=1", "--from", missing, "--db", db, "--name", "t", "--out-dir", outdir, NULL},
         1, "nowhere"},
        {{"rounds", "--agent", "ab:depth=1", "--from", FROM, "--db", db, "--name", "t", "--out-dir", outdir,
          "--rounds", "0", NULL},
         2, "--rounds"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *out, *err;
        cr_expect_eq(yinsh_run(dir, cases[i].args, &out, &err), cases[i].status, "case %zu: %s", i, err);
        cr_expect(strstr(err, cases[i].word), "case %zu: '%s' does not name %s", i, err, cases[i].word);
        cr_expect_str_eq(out, "", "case %zu", i);
    }
    /* a folder that cannot be written (root writes anywhere: not checked then) */
    if (geteuid() != 0) {
        cr_assert_eq(chmod(outdir, 0555), 0);
        const char *ro[] = {"rounds", "--agent", "ab:depth=1", "--from", FROM, "--db", db, "--name", "t",
                            "--out-dir", outdir, NULL};
        char *err;
        cr_expect_eq(yinsh_run(dir, ro, NULL, &err), 2, "%s", err);
        cr_expect(strstr(err, "cannot write"), "%s", err);
        chmod(outdir, 0777);
    }
    cr_expect_not(file_exists(db));
    char *ls = path_in(outdir, "t.csv");
    cr_expect_not(file_exists(ls));
    cr_expect_not(file_exists((path_in(outdir, "t.1.txt"))));
}

/* Rounds of nets: self-play with eval=net:W(k-1), a net trained on those
 * games (written whole to NAME.k.nnue), new against old. */
Test(rounds, net_rounds_write_nets_and_play_nothing_again)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "r.db"), *outdir = path_in(dir, "w"), *out, *err;
    cr_assert_eq(mkdir(outdir, 0777), 0);
    const char *args[] = {"rounds", "--net", "--agent", "ab:depth=1", "--from", "builtin", "--db", db, "--name", "t",
                          "--out-dir", outdir, "--games", "8", "--pairs", "4", "--rounds", "2", "--epochs", "1",
                          "--hidden", "16", "--threads", "2", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);

    /* (a) the first round's net loads and says what made it */
    char *n1 = path_in(dir, "w/t.1.nnue"), *csv = path_in(dir, "w/t.csv"), nerr[ERR_LEN];
    Nnue *net = NULL;
    cr_assert_eq(nnue_load(&net, n1, nerr), 0, "%s", nerr);
    cr_assert(strstr(nnue_description(net), "yinsh rounds t, round 1: run t.1/selfplay"), "%s",
              nnue_description(net));
    nnue_free(net);
    cr_assert_not(file_exists(path_in(dir, "w/t.1.txt")));
    int rows = table_rows(out);
    cr_assert(rows >= 1 && rows <= 2, "%s", out);
    char *table = slurp(csv);
    cr_assert_eq(count_lines(table), 1 + rows, "%s", table);
    cr_assert(strstr(table, "1,t.1/selfplay,8,"), "%s", table);
    cr_assert(strstr(table, "/w/t.1.nnue\n"), "%s", table);
    /* losses before and after: the CSV's columns 6 to 9 are numbers */
    const char *row1 = strchr(table, '\n') + 1;
    double l[4];
    cr_assert_eq(sscanf(row1, "%*d,%*[^,],%*d,%*d,%*d,%lf,%lf,%lf,%lf", &l[0], &l[1], &l[2], &l[3]), 4, "%s", row1);
    for (int i = 0; i < 4; i++) cr_assert(l[i] > 0 && l[i] < 5, "%s", row1);
    bool gains1 = strstr(gc(strndup(row1, strcspn(row1, "\n"))), ",yes,") != NULL;
    cr_assert_eq(rows, gains1 ? 2 : 1, "%s", table);
    if (!gains1) cr_assert(strstr(out, "\nbest: builtin (the start: round 1 did not gain)\n"), "%s", out);
    long long games = games_in(db);
    cr_assert_eq(games, rows * (8 + 8));

    /* (b) again: no new game, the same table, CSV and nets */
    char *keep = path_in(dir, "t.1.nnue.first"), *out2;
    cr_assert_eq(rename(n1, keep), 0);
    cr_assert_eq(yinsh_run(dir, args, &out2, &err), 0, "%s", err);
    cr_assert_str_eq(out2, out);
    cr_assert_eq(games_in(db), games);
    cr_assert_str_eq(slurp(csv), table);
    assert_same_bytes(n1, keep);
    /* --json: the same rounds, the training said */
    enum { NARGS = sizeof args / sizeof *args - 1 };
    const char *json[NARGS + 2];
    memcpy(json, args, sizeof(char *) * NARGS);
    json[NARGS] = "--json";
    json[NARGS + 1] = NULL;
    cr_assert_eq(yinsh_run(dir, json, &out2, &err), 0, "%s", err);
    cr_assert(strstr(out2, "\"net\": true,\n  \"training\": {\"hidden\": 16, \"l2\": 0, \"epochs\": 1, "
                           "\"lambda\": 0.5, \"warm\": false}"), "%s", out2);
    cr_assert(strstr(out2, "\"weights\": \""), "%s", out2);
    cr_assert(strstr(out2, "/w/t.1.nnue\""), "%s", out2);
    cr_assert_eq(games_in(db), games);

    /* another training under the same names is refused, naming the run */
    const char *other[] = {"rounds", "--net", "--agent", "ab:depth=1", "--from", "builtin", "--db", db, "--name",
                           "t", "--out-dir", outdir, "--games", "8", "--pairs", "4", "--rounds", "2", "--epochs",
                           "2", "--hidden", "16", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, other, &out, &err), 1, "%s", err);
    cr_assert(strstr(err, "t.1/new-vs-old"), "%s", err);
    cr_assert_eq(games_in(db), games);
    assert_same_bytes(n1, keep); /* refused before the net is replaced */
    /* the linear rounds under the same name are another plan */
    const char *linear[] = {"rounds", "--agent", "ab:depth=1", "--from", FROM, "--db", db, "--name", "t",
                            "--out-dir", outdir, "--games", "8", "--pairs", "4", "--rounds", "2", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, linear, &out, &err), 1, "%s", err);
    cr_assert(strstr(err, "t.1/selfplay"), "%s", err);
    cr_assert_eq(games_in(db), games);
}

/* --warm: round 1 trains from W0's weights (its shape by default), and
 * says so in its description, which names W0's hash. */
Test(rounds, warm_net_rounds_start_from_the_last_net)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "r.db"), *outdir = path_in(dir, "w"), *out, *err;
    cr_assert_eq(mkdir(outdir, 0777), 0);
    const char *args[] = {"rounds", "--net", "--warm", "--agent", "ab:depth=1", "--from", "builtin", "--db", db,
                          "--name", "t", "--out-dir", outdir, "--games", "8", "--pairs", "2", "--rounds", "1",
                          "--epochs", "1", "--threads", "2", "--quiet", "--json", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
    Nnue *w0 = NULL, *w1 = NULL;
    char nerr[ERR_LEN], hex[40];
    cr_assert_eq(nnue_load_builtin(&w0, nerr), 0, "%s", nerr);
    cr_assert_eq(nnue_load(&w1, path_in(dir, "w/t.1.nnue"), nerr), 0, "%s", nerr);
    cr_assert_eq(nnue_hidden(w1), nnue_hidden(w0));
    cr_assert_eq(nnue_l2(w1), nnue_l2(w0));
    snprintf(hex, sizeof hex, "from net %016llx", (unsigned long long)nnue_hash(w0));
    cr_assert(strstr(nnue_description(w1), "round 1: run t.1/selfplay, from W(k-1): "), "%s", nnue_description(w1));
    cr_assert(strstr(nnue_description(w1), hex), "%s", nnue_description(w1));
    cr_assert(strstr(out, "\"warm\": true}"), "%s", out);
    nnue_free(w0);
    nnue_free(w1);
}

Test(rounds, net_rounds_bad_command_lines_write_nothing)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "never.db"), *outdir = path_in(dir, "w"),
         *missing = path_in(dir, "nowhere.nnue");
    cr_assert_eq(mkdir(outdir, 0777), 0);
    struct {
        const char *args[24];
        int status;
        const char *word;
    } cases[] = {
        {{"rounds", "--agent", "ab:depth=1", "--from", FROM, "--db", db, "--name", "t", "--out-dir", outdir,
          "--hidden", "16", NULL},
         2, "--net"},
        {{"rounds", "--agent", "ab:depth=1", "--from", FROM, "--db", db, "--name", "t", "--out-dir", outdir,
          "--epochs", "1", NULL},
         2, "--net"},
        {{"rounds", "--net", "--agent", "ab:depth=1", "--from", "builtin", "--db", db, "--name", "t", "--out-dir",
          outdir, "--hidden", "24", NULL},
         2, "--hidden"},
        {{"rounds", "--net", "--agent", "ab:depth=1", "--from", "builtin", "--db", db, "--name", "t", "--out-dir",
          outdir, "--epochs", "0", NULL},
         2, "--epochs"},
        {{"rounds", "--net", "--agent", "random", "--from", "builtin", "--db", db, "--name", "t", "--out-dir", outdir,
          NULL},
         2, "random"},
        {{"rounds", "--net", "--agent", "ab:depth=1", "--db", db, "--name", "t", "--out-dir", outdir, NULL}, 2,
         "--from NET"},
        {{"rounds", "--net", "--agent", "ab:depth=1", "--from", missing, "--db", db, "--name", "t", "--out-dir",
          outdir, NULL},
         1, "nowhere.nnue"},
        {{"rounds", "--net", "--agent", "ab:depth=1", "--from", FROM, "--db", db, "--name", "t", "--out-dir", outdir,
          NULL},
         1, "default.txt"},
        {{"rounds", "--agent", "ab:depth=1", "--from", FROM, "--db", db, "--name", "t", "--out-dir", outdir,
          "--warm", NULL},
         2, "--warm trains nets: it needs --net"},
        {{"rounds", "--net", "--warm", "--agent", "ab:depth=1", "--from", "builtin", "--db", db, "--name", "t",
          "--out-dir", outdir, "--hidden", "16", NULL},
         2, "--warm: the net --from 'builtin' has hidden"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *out, *err;
        cr_expect_eq(yinsh_run(dir, cases[i].args, &out, &err), cases[i].status, "case %zu: %s", i, err);
        cr_expect(strstr(err, cases[i].word), "case %zu: '%s' does not name %s", i, err, cases[i].word);
        cr_expect_str_eq(out, "", "case %zu", i);
    }
    cr_expect_not(file_exists(db));
    cr_expect_not(file_exists(path_in(outdir, "t.csv")));
    cr_expect_not(file_exists(path_in(outdir, "t.1.nnue")));
}

Test(rounds, net_rounds_kill_9_and_run_again_equals_uninterrupted)
{
    char *kdir = tmpdir_new(), *fdir = tmpdir_new(), *err;
    cr_assert_eq(mkdir(path_in(kdir, "w"), 0777), 0);
    cr_assert_eq(mkdir(path_in(fdir, "w"), 0777), 0);
    const char *killed[] = {"rounds", "--net", "--agent", "ab:depth=1", "--from", "builtin", "--db", "r.db",
                            "--name", "t", "--out-dir", "w", "--games", "300", "--pairs", "50", "--rounds", "2",
                            "--epochs", "1", "--hidden", "16", "--threads", "1", "--quiet", NULL};
    char *k = path_in(kdir, "r.db"), *f = path_in(fdir, "r.db");
    pid_t pid = yinsh_start(kdir, killed);
    long long stored = games_awaited(k, 1, 12);
    cr_assert_geq(stored, 1, "no games stored");
    kill(pid, SIGKILL);
    cr_assert_eq(yinsh_wait(pid), 128 + SIGKILL);
    stored = games_in(k);
    cr_assert_lt(stored, 300 + 100, "the rounds finished before the kill: make them longer");

    char *out1, *out2;
    cr_assert_eq(yinsh_run(kdir, killed, &out1, &err), 0, "%s", err);
    const char *whole[] = {"rounds", "--net", "--agent", "ab:depth=1", "--from", "builtin", "--db", "r.db",
                           "--name", "t", "--out-dir", "w", "--games", "300", "--pairs", "50", "--rounds", "2",
                           "--epochs", "1", "--hidden", "16", "--threads", "2", "--quiet", NULL};
    cr_assert_eq(yinsh_run(fdir, whole, &out2, &err), 0, "%s", err);
    cr_assert_str_eq(out1, out2);
    cr_assert_eq(games_in(k), games_in(f));
    int rows = table_rows(out2);
    cr_assert_geq(rows, 1);
    cr_assert_str_eq(slurp(path_in(kdir, "w/t.csv")), slurp(path_in(fdir, "w/t.csv")));
    for (int r = 1; r <= rows; r++) {
        char name[32];
        snprintf(name, sizeof name, "w/t.%d.nnue", r);
        assert_same_bytes(path_in(kdir, name), path_in(fdir, name));
    }
}
