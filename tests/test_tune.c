#define _GNU_SOURCE /* nftw */
/* Tuning: positions replayed from a small stored self-play run, the losses
 * the fit must lower, the same weights on 1 and 2 threads, the errors for
 * an empty database and an unknown run, and `yinsh tune` as a process. */
#include <math.h>
#include "tests/test_proc.h"
#include "study/positions/tune_load.h"

/* A database with one run of random games (fast, and results still follow
 * the rings removed). */
static char *make_db(const char *dir, const char *games)
{
    char *err;
    const char *args[] = {"selfplay", "--games", games, "--agent", "random", "--seed", "11",
                          "--db", "t.db", "--run", "r1", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
    return path_in(dir, "t.db");
}

static Store *open_db(const char *path)
{
    Store *s;
    char err[ERR_LEN];
    cr_assert_eq(store_open(&s, path, STORE_CREATE, 5000, err), 0, "%s", err);
    return s;
}

Test(tune, fit_lowers_the_loss_on_any_number_of_threads)
{
    char *dir = tmpdir_new(), *db = make_db(dir, "120"), err[ERR_LEN];
    Store *s = open_db(db);
    TuneOptions o;
    tune_options_default(&o);
    o.val_frac = 0.25;
    o.sample = 0.5;
    TuneData d;
    const char *runs[] = {"r1"};
    cr_assert_eq(tune_load(s, &(StoreSelection){.runs = runs, .nruns = 1}, &o, &d, NULL, err), 0, "%s", err);
    cr_assert_eq(d.games, 120);
    cr_assert(d.games_val > 10 && d.games_val < 60, "%llu validation games", (unsigned long long)d.games_val);
    cr_assert(d.n_val > 0 && d.n_val < d.n);

    Weights w0;
    weights_default(&w0);
    TuneFit a, b;
    o.threads = 1;
    tune_fit(&d, &w0, &o, &a);
    o.threads = 2;
    tune_fit(&d, &w0, &o, &b);
    cr_assert(!memcmp(&a.after, &b.after, sizeof a.after), "weights differ between 1 and 2 threads");
    cr_assert(a.k > 0 && a.k < 20);
    cr_assert_leq(a.loss_scaled[0], a.loss_before[0] + 1e-12);
    cr_assert_lt(a.loss_after[0], a.loss_scaled[0]);
    cr_assert_lt(a.loss_after[0], a.loss_constant[0]);
    /* on held-out games: better than knowing nothing (not always better than
     * the defaults on a few random games) */
    cr_assert_lt(a.loss_after[1], a.loss_constant[1], "validation %g vs %g", a.loss_after[1], a.loss_constant[1]);
    cr_assert_gt(a.after.w[FEAT_RINGS_REMOVED], 0, "a removed ring helps its side");
    cr_assert(a.iterations > 0);
    /* same data set from the same seed */
    TuneData d2;
    cr_assert_eq(tune_load(s, NULL, &o, &d2, NULL, err), 0, "%s", err);
    cr_assert_eq(d2.n, d.n);
    cr_assert(!memcmp(d2.f, d.f, d.n * FEAT_NB * sizeof *d.f));
    tune_data_free(&d2);
    tune_data_free(&d);
    store_close(s);
}

Test(tune, errors_for_no_games_and_unknown_runs)
{
    char *dir = tmpdir_new(), err[ERR_LEN];
    TuneOptions o;
    tune_options_default(&o);
    TuneData d;

    /* a new, empty database */
    Store *s = open_db(path_in(dir, "empty.db"));
    cr_assert_neq(tune_load(s, NULL, &o, &d, NULL, err), 0);
    cr_assert(strstr(err, "no games"), "%s", err);
    const char *runs[] = {"nosuch"};
    cr_assert_neq(tune_load(s, &(StoreSelection){.runs = runs, .nruns = 1}, &o, &d, NULL, err), 0);
    cr_assert(strstr(err, "nosuch"), "%s", err);
    store_close(s);

    /* a database with games, asked for a run it lacks */
    s = open_db(make_db(dir, "4"));
    const char *some[] = {"r1", "ghost"};
    cr_assert_neq(tune_load(s, &(StoreSelection){.runs = some, .nruns = 2}, &o, &d, NULL, err), 0);
    cr_assert(strstr(err, "ghost"), "%s", err);
    /* games too short for the plies asked */
    o.min_ply = 1000;
    cr_assert_neq(tune_load(s, NULL, &o, &d, NULL, err), 0);
    cr_assert(strstr(err, "no positions"), "%s", err);
    store_close(s);
}

/* `yinsh tune` writes fitted weights: not the starting ones (the built-in
 * defaults), and the same file, byte for byte, when the same command runs
 * again on the same database. */
Test(cli, tune_writes_a_weights_file)
{
    char *dir = tmpdir_new(), *out, *err;
    make_db(dir, "40");
    const char *args[] = {"tune", "--db", "t.db", "--runs", "r1", "--out", "w.txt", "--threads", "2", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "scale K") && strstr(out, "tuned") && strstr(out, "wrote w.txt"), "%s", out);
    Weights w, start;
    char werr[ERR_LEN];
    cr_assert_eq(weights_load(path_in(dir, "w.txt"), &w, werr), 0, "%s", werr);
    weights_default(&start);
    int moved = 0;
    for (int k = 0; k < FEAT_NB; k++) moved += w.w[k] != start.w[k];
    cr_assert(moved > 0, "the file holds the starting weights");
    char *file = slurp(path_in(dir, "w.txt"));
    cr_assert(strstr(file, "# made by: yinsh tune --db t.db"), "%s", file);
    cr_assert(strstr(file, "# data: 40 games"), "%s", file);
    /* the same command again writes the same file */
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
    cr_assert_str_eq(slurp(path_in(dir, "w.txt")), file, "a second identical run wrote other weights");
}

Test(cli, tune_bad_inputs)
{
    char *dir = tmpdir_new(), *err;
    make_db(dir, "4");
    /* an empty database file made by sqlite: no schema, no games */
    Store *s = open_db(path_in(dir, "empty.db"));
    store_close(s);
    struct {
        const char *args[12];
        int rc;
        const char *word;
    } cases[] = {
        /* no --db: the default database, which this folder lacks */
        {{"tune", "--out", "w.txt", NULL}, 1, "yinsh.db"},
        {{"tune", "--db", "t.db", NULL}, 2, "--out"},
        {{"tune", "--db", "t.db", "--out", "w.txt", "--sample", "0", NULL}, 2, "--sample"},
        {{"tune", "--db", "t.db", "--out", "w.txt", "--val", "x", NULL}, 2, "--val"},
        {{"tune", "--db", "t.db", "--out", "w.txt", "--bogus", NULL}, 2, "bogus"},
        {{"tune", "--db", "t.db", "--out", "w.txt", "--runs", "nosuch", NULL}, 1, "nosuch"},
        {{"tune", "--db", "empty.db", "--out", "w.txt", NULL}, 1, "no games"},
        {{"tune", "--db", "missing.db", "--out", "w.txt", NULL}, 1, "missing.db"},
        {{"tune", "--db", "t.db", "--out", "w.txt", "--from", "nofile.txt", NULL}, 1, "nofile.txt"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = yinsh_run(dir, cases[i].args, NULL, &err);
        cr_assert_eq(rc, cases[i].rc, "case %zu: exit %d (%s)", i, rc, err);
        cr_assert(strstr(err, cases[i].word), "case %zu: '%s' does not name '%s'", i, err, cases[i].word);
    }
    struct stat sb;
    cr_assert_neq(stat(path_in(dir, "w.txt"), &sb), 0, "no weights file after a failure");
}
