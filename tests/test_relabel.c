#define _GNU_SOURCE /* nftw, in test_proc.h */
/* `yinsh relabel` (selfplay/play/relabel.h): a small MCTS self-play run's
 * games copied into a new run whose searched positions carry alpha-beta's
 * values: the same actions and results; each stored value that of a
 * direct search of its position; --every 2 every other searched position;
 * the same rows on 1 and 2 threads, and after a kill -9 and the same
 * command again; `yinsh train` learns from them; bad command lines
 * refused with nothing written. */
#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "engine/notation.h"
#include "engine/position.h"
#include "eval/nnue_train.h"
#include "selfplay/agents/agent.h"
#include "study/positions/train_load.h"
#include "tests/test_proc.h"

#define AGENT "ab:depth=2,tt=1"

/* The source: a few short MCTS self-play games (their agent searched
 * every position but the forced ones) in dir/NAME. */
static char *source_db(const char *dir, const char *name, const char *games)
{
    char *db = path_in(dir, name), *err;
    const char *args[] = {"selfplay", "--agent", "mcts:sims=20", "--variant", "blitz", "--games", games, "--seed", "5",
                          "--db", db, "--run", "src", "--quiet", "--threads", "2", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "selfplay: %s", err);
    return db;
}

/* A copy of a database file (closed, checkpointed) into dir/name. */
static char *copy_db(const char *dir, const char *from, const char *name)
{
    char *to = path_in(dir, name), *text = slurp(from);
    FILE *f = fopen(from, "rb");
    cr_assert(f && text);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *buf = gc(malloc((size_t)n));
    cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    FILE *g = fopen(to, "wb");
    cr_assert(g && fwrite(buf, 1, (size_t)n, g) == (size_t)n);
    fclose(g);
    return to;
}

static void relabel(const char *dir, const char *db, const char *run, const char *every, const char *threads)
{
    char *err;
    const char *args[] = {"relabel", "--db", db, "--runs", "src", "--agent", AGENT, "--run", run, "--every", every,
                          "--threads", threads, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "relabel: %s", err);
}

/* A run's rows, all but the clock and the local row ids: the run's
 * identity, each game's and each action's columns. */
static char *rows(const char *db, const char *run)
{
    sqlite3 *h = db_open(db);
    char sql[2048];
    snprintf(sql, sizeof sql,
             "SELECT (SELECT kind || white || black || seed || games || variant || opening || (finished_at IS NOT "
             "NULL) FROM run WHERE name = '%s') || '/' || group_concat(x, '|') FROM (SELECT g.idx || g.seed || "
             "g.variant || g.white || g.black || g.result || g.reason || g.actions || g.white_removed || "
             "g.black_removed || g.white_markers || g.black_markers || g.ident || g.repeat || a.ply || a.actor || "
             "a.state || a.action || a.legal || coalesce(a.root_visits, '-') || coalesce(a.chosen_visits, '-') || "
             "coalesce(a.value, '-') || coalesce(a.root_value, '-') || coalesce(a.full, '-') AS x FROM run r JOIN "
             "game g ON g.run_id = r.id JOIN action a ON a.game_id = g.id WHERE r.name = '%s' ORDER BY g.idx, "
             "a.ply)",
             run, run);
    char *t = db_text(h, sql);
    sqlite3_close(h);
    return t;
}

/* The plies of run's game idx with figures stored, as "3,4,7,". */
static char *searched_plies(sqlite3 *h, const char *run, int idx)
{
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT coalesce(group_concat(ply || ',', ''), '') FROM (SELECT a.ply FROM run r JOIN game g ON "
             "g.run_id = r.id JOIN action a ON a.game_id = g.id WHERE r.name = '%s' AND g.idx = %d AND a.root_visits "
             "IS NOT NULL ORDER BY a.ply)",
             run, idx);
    return db_text(h, sql);
}

Test(relabel, the_same_games_with_the_values_of_a_direct_search, .timeout = 300)
{
    char *dir = tmpdir_new(), *db = source_db(dir, "r.db", "4");
    relabel(dir, db, "deep", "1", "2");
    sqlite3 *h = db_open(db);
    /* the same games, action for action, with the same results */
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game g JOIN run r ON r.id = g.run_id WHERE r.name = 'deep'"), 4);
    const char *same =
        "SELECT count(*) FROM (SELECT g.idx, g.result, g.reason, g.actions, g.white_removed, g.black_removed, "
        "g.white_markers, g.black_markers, a.ply, a.actor, a.state, a.action, a.legal, a.root_visits IS NULL FROM "
        "run r JOIN game g ON g.run_id = r.id JOIN action a ON a.game_id = g.id WHERE r.name = '%s')";
    char sql[1024], both[2200];
    snprintf(sql, sizeof sql, same, "src");
    long long actions = db_int(h, sql);
    cr_assert_gt(actions, 40);
    snprintf(both, sizeof both,
             "SELECT count(*) FROM (SELECT g.idx, g.result, g.reason, g.actions, g.white_removed, "
             "g.black_removed, g.white_markers, g.black_markers, a.ply, a.actor, a.state, a.action, a.legal, "
             "a.root_visits IS NULL FROM run r JOIN game g ON g.run_id = r.id JOIN action a ON a.game_id = g.id WHERE "
             "r.name = 'src' INTERSECT SELECT g.idx, g.result, g.reason, g.actions, g.white_removed, "
             "g.black_removed, g.white_markers, g.black_markers, a.ply, a.actor, a.state, a.action, a.legal, "
             "a.root_visits IS NULL FROM run r JOIN game g ON g.run_id = r.id JOIN action a ON a.game_id = g.id WHERE "
             "r.name = 'deep')");
    cr_assert_eq(db_int(h, both), actions, "the relabelled games differ from the source's");
    cr_assert_eq(db_int(h, "SELECT count(*) FROM run WHERE name = 'deep' AND kind = 'relabel' AND white = '" AGENT
                           "' AND finished_at IS NOT NULL AND command LIKE '%--runs src%'"),
                 1, "the run does not say what made it");
    cr_assert_eq(db_int(h, "SELECT count(*) FROM lease"), 0, "the lease is kept");

    /* each stored value is a direct search's of its position */
    AgentSpec spec;
    Agent *agent;
    char err[ERR_LEN];
    cr_assert_eq(agent_spec_parse(AGENT, &spec, err), 0, "%s", err);
    cr_assert_eq(agent_new(&agent, &spec, err), 0, "%s", err);
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(h,
                                    "SELECT g.idx, a.ply, a.action, a.value, a.root_value, a.chosen_visits, "
                                    "a.root_visits FROM run r JOIN game g ON g.run_id = r.id JOIN action a ON "
                                    "a.game_id = g.id WHERE r.name = 'deep' ORDER BY g.idx, a.ply",
                                    -1, &st, NULL),
                 SQLITE_OK);
    Position pos;
    int last = -1, checked = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        int idx = sqlite3_column_int(st, 0);
        if (idx != last) pos_start(&pos, VARIANT_BLITZ), last = idx;
        if (sqlite3_column_type(st, 3) != SQLITE_NULL) {
            MoveStats ms = {0};
            Rng rng;
            rng_seed(&rng, 1, 1);
            agent_reset(agent);
            agent_choose(agent, &pos, &rng, &ms);
            cr_assert_eq(sqlite3_column_double(st, 4), ms.root_value, "game %d ply %d", idx, sqlite3_column_int(st, 1));
            cr_assert_eq(sqlite3_column_double(st, 3), ms.root_value);
            cr_assert_eq(sqlite3_column_int64(st, 5), ms.depth);
            cr_assert_eq(sqlite3_column_int64(st, 6), ms.root_visits);
            checked++;
        }
        Action a;
        cr_assert_eq(action_parse(&pos, (const char *)sqlite3_column_text(st, 2), &a, err), 0, "%s", err);
        Undo u;
        pos_make(&pos, a, &u);
    }
    sqlite3_finalize(st);
    agent_free(agent);
    agent_spec_release(&spec);
    cr_assert_gt(checked, 20);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM action a JOIN game g ON g.id = a.game_id JOIN run r ON r.id = "
                           "g.run_id WHERE r.name = 'src' AND a.root_visits IS NOT NULL"),
                 checked, "not every searched position was relabelled");
    /* the values are the new search's, not the source's */
    cr_assert_gt(db_int(h, "SELECT count(*) FROM (SELECT g.idx, a.ply, a.root_value FROM run r JOIN game g ON "
                           "g.run_id = r.id JOIN action a ON a.game_id = g.id WHERE r.name = 'deep' AND a.root_value "
                           "IS NOT NULL EXCEPT SELECT g.idx, a.ply, a.root_value FROM run r JOIN game g ON g.run_id = "
                           "r.id JOIN action a ON a.game_id = g.id WHERE r.name = 'src')"),
                 checked / 2);
    sqlite3_close(h);
}

Test(relabel, every_2_relabels_every_other_searched_position, .timeout = 300)
{
    char *dir = tmpdir_new(), *db = source_db(dir, "r.db", "3");
    relabel(dir, db, "half", "2", "1");
    sqlite3 *h = db_open(db);
    int total = 0;
    for (int idx = 0; idx < 3; idx++) {
        char *src = searched_plies(h, "src", idx), *half = searched_plies(h, "half", idx);
        /* every other of the source's list, from its first */
        char want[8192] = "";
        int k = 0;
        for (char *p = src; *p; k++) {
            char *comma = strchr(p, ',');
            if (k % 2 == 0) strncat(want, p, (size_t)(comma - p + 1));
            p = comma + 1;
        }
        cr_assert_str_eq(half, want, "game %d: %s from %s", idx, half, src);
        total += k;
    }
    cr_assert_gt(total, 10);
    sqlite3_close(h);
}

Test(relabel, one_thread_or_two_give_the_same_rows, .timeout = 300)
{
    char *dir = tmpdir_new(), *db = source_db(dir, "r.db", "4"), *other = copy_db(dir, db, "o.db");
    relabel(dir, db, "deep", "1", "1");
    relabel(dir, other, "deep", "1", "2");
    char *a = rows(db, "deep"), *b = rows(other, "deep");
    cr_assert(strlen(a) > 1000);
    cr_assert_str_eq(a, b, "the threads changed the rows");
    /* a relabelled run is a run that `yinsh merge` takes */
    char *err;
    cr_assert_eq(yinsh_run(dir, ARGS("merge", "--db", path_in(dir, "m.db"), other, "--quiet"), NULL, &err), 0, "%s",
                 err);
    cr_assert_str_eq(rows(path_in(dir, "m.db"), "deep"), a);
}

Test(relabel, killed_and_run_again_gives_the_rows_of_a_run_never_stopped, .timeout = 300)
{
    char *dir = tmpdir_new(), *db = source_db(dir, "r.db", "6"), *other = copy_db(dir, db, "o.db");
    const char *args[] = {"relabel", "--db", db, "--runs", "src", "--agent", "ab:depth=3,tt=1", "--run", "deep",
                          "--threads", "1", "--quiet", NULL};
    pid_t pid = yinsh_start(dir, args);
    /* killed once it stored its first game */
    sqlite3 *h = db_open(db);
    long long stored = 0;
    for (int i = 0; i < 60000 && stored == 0; i++) {
        usleep(5000);
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(h, "SELECT count(*) FROM game g JOIN run r ON r.id = g.run_id WHERE r.name = 'deep'",
                               -1, &st, NULL) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
            stored = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    kill(pid, SIGKILL);
    yinsh_wait(pid);
    stored = db_int(h, "SELECT count(*) FROM game g JOIN run r ON r.id = g.run_id WHERE r.name = 'deep'");
    cr_assert(stored >= 1 && stored < 6, "%lld games stored before the kill", stored);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM run WHERE name = 'deep' AND finished_at IS NULL"), 1);
    sqlite3_close(h);
    char *out, *err;
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
    cr_assert_eq(yinsh_run(dir, ARGS("relabel", "--db", other, "--runs", "src", "--agent", "ab:depth=3,tt=1", "--run",
                                     "deep", "--threads", "2", "--quiet"),
                           NULL, &err),
                 0, "%s", err);
    cr_assert_str_eq(rows(db, "deep"), rows(other, "deep"), "the resumed run differs");
    /* finished now: the same command is refused */
    cr_assert_eq(yinsh_run(dir, args, NULL, &err), 1);
    cr_assert(strstr(err, "a finished run named 'deep' exists already"), "%s", err);
}

Test(relabel, ctrl_c_stops_and_says_how_to_go_on, .timeout = 300)
{
    char *dir = tmpdir_new(), *db = source_db(dir, "r.db", "4");
    const char *args[] = {"relabel", "--db", db, "--runs", "src", "--agent", "ab:depth=4,tt=1", "--run", "deep",
                          "--threads", "1", NULL};
    pid_t pid = yinsh_start(dir, args);
    usleep(400000);
    kill(pid, SIGINT);
    int rc = yinsh_wait(pid);
    char *err = slurp(path_in(dir, "err"));
    cr_assert_eq(rc, 128 + SIGINT, "exit %d: %s", rc, err);
    cr_assert(strstr(err, "interrupted") && strstr(err, "the same command goes on"), "%s", err);
}

Test(relabel, train_learns_from_the_relabelled_values, .timeout = 300)
{
    char *dir = tmpdir_new(), *db = source_db(dir, "r.db", "4");
    relabel(dir, db, "deep", "1", "2");
    NnueTrainOptions o;
    nnue_train_options_default(&o);
    o.lambda = 1;
    o.root_value = true;
    const char *runs[] = {"deep"};
    StoreSelection sel = {.runs = runs, .nruns = 1};
    Store *s;
    char err[ERR_LEN];
    NnueData d;
    cr_assert_eq(store_open(&s, db, STORE_READ, STORE_BUSY_MS, err), 0, "%s", err);
    cr_assert_eq(train_load(s, &sel, &o, &d, NULL, err), 0, "%s", err);
    store_close(s);
    sqlite3 *h = db_open(db);
    long long positions = db_int(h, "SELECT count(*) FROM action a JOIN game g ON g.id = a.game_id JOIN run r ON "
                                    "r.id = g.run_id WHERE r.name = 'deep' AND a.state IN ('P', 'M')");
    long long valued = db_int(h, "SELECT count(*) FROM action a JOIN game g ON g.id = a.game_id JOIN run r ON r.id "
                                 "= g.run_id WHERE r.name = 'deep' AND a.state IN ('P', 'M') AND a.root_value IS NOT "
                                 "NULL");
    /* with lambda 1 a valued position's target is its stored value, any other's its result */
    sqlite3_stmt *st = db_row(h, "SELECT total(a.root_value - CASE WHEN g.result = 'draw' THEN 0.5 WHEN (a.actor = 'w') "
                                 "= (g.result = 'white') THEN 1 ELSE 0 END) FROM action a JOIN game g ON g.id = "
                                 "a.game_id JOIN run r ON r.id = g.run_id WHERE r.name = 'deep' AND a.state IN ('P', "
                                 "'M') AND a.root_value IS NOT NULL");
    double want = sqlite3_column_double(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(h);
    cr_assert_eq(d.n_train + d.n_val, (size_t)positions);
    cr_assert_eq(d.with_value, (size_t)valued);
    cr_assert_gt(valued, 20);
    double got = 0;
    for (int v = 0; v < 2; v++)
        for (size_t i = 0; i < (v ? d.n_val : d.n_train); i++) {
            const NnueSample *x = &(v ? d.val : d.train)[i];
            got += (double)x->target - (double)x->result;
        }
    cr_assert(fabs(got - want) < 1e-5 * (double)positions, "the targets sum to %f over their results, not %f", got,
              want);
    nnue_data_free(&d);
    /* and `yinsh train` trains a net on the run */
    char *out, *terr, words[64];
    int rc = yinsh_run(dir, ARGS("train", "--db", db, "--runs", "deep", "--lambda", "1", "--epochs", "2", "--hidden",
                                 "16", "--out", "deep.nnue", "--threads", "2"),
                       &out, &terr);
    cr_assert_eq(rc, 0, "%s", terr);
    snprintf(words, sizeof words, "%lld with a search value", valued);
    cr_assert(strstr(out, words) || strstr(terr, words), "%s%s", out, terr);
    cr_assert(file_nonempty(path_in(dir, "deep.nnue")));
}

static void refused(const char *dir, const char *const *args, int rc, const char *words)
{
    char *err;
    int got = yinsh_run(dir, args, NULL, &err);
    cr_assert_eq(got, rc, "exit %d, not %d: %s", got, rc, err);
    cr_assert(strstr(err, words), "'%s' does not say '%s'", err, words);
}

Test(relabel, bad_command_lines_are_refused_and_write_nothing, .timeout = 300)
{
    char *dir = tmpdir_new(), *db = source_db(dir, "r.db", "2"), *err;
    cr_assert_eq(yinsh_run(dir, ARGS("selfplay", "--agent", "random", "--games", "1", "--db", db, "--run", "std",
                                     "--quiet"),
                           NULL, &err),
                 0, "%s", err);
    relabel(dir, db, "deep", "1", "1");
    sqlite3 *h = db_open(db);
    char *before = db_text(h, "SELECT group_concat(name || games || (finished_at IS NOT NULL)) FROM run");
    long long actions = db_int(h, "SELECT count(*) FROM action");
    sqlite3_close(h);
    refused(dir, ARGS("relabel", "--db", db, "--runs", "nope", "--agent", AGENT, "--run", "x"), 2, "no run 'nope'");
    refused(dir, ARGS("relabel", "--db", db, "--runs", "src,std", "--agent", AGENT, "--run", "x"), 2,
            "a run holds games of one variant");
    refused(dir, ARGS("relabel", "--db", db, "--runs", "src,src", "--agent", AGENT, "--run", "x"), 2,
            "'src' is named twice");
    refused(dir, ARGS("relabel", "--db", db, "--runs", "src", "--agent", AGENT, "--run", "src"), 2, "is a source");
    refused(dir, ARGS("relabel", "--db", db, "--runs", "src", "--agent", AGENT, "--run", "deep"), 1,
            "a finished run named 'deep' exists already");
    refused(dir, ARGS("relabel", "--db", db, "--runs", "src", "--agent", "ab:depth=1,tt=1", "--run", "deep"), 1,
            "is not this relabel");
    refused(dir, ARGS("relabel", "--db", db, "--runs", "src", "--agent", AGENT, "--run", "std"), 1,
            "is not this relabel");
    refused(dir, ARGS("relabel", "--db", db, "--runs", "src", "--agent", AGENT, "--run", "again"), 1,
            "run 'deep' holds this relabel already");
    refused(dir, ARGS("relabel", "--db", db, "--runs", "src", "--agent", "random", "--run", "x"), 2,
            "has no search of its own");
    refused(dir, ARGS("relabel", "--db", db, "--runs", "src", "--agent", "mcts:sims=10", "--run", "x"), 2,
            "is not deterministic");
    refused(dir, ARGS("relabel", "--db", db, "--runs", "src", "--agent", "ab:depth=2,threads=2", "--run", "x"), 2,
            "is not deterministic");
    refused(dir, ARGS("relabel", "--db", db, "--runs", "src", "--agent", "nonsense", "--run", "x"), 2, "nonsense");
    refused(dir, ARGS("relabel", "--db", db, "--runs", "src", "--agent", AGENT, "--run", "x", "--every", "0"), 2,
            "--every");
    refused(dir, ARGS("relabel", "--db", db, "--runs", "src", "--agent", AGENT, "--run", "x", "--seed", "-1"), 2,
            "--seed");
    refused(dir, ARGS("relabel", "--db", db, "--runs", "src", "--agent", AGENT, "--run", ""), 2, "--run");
    refused(dir, ARGS("relabel", "--db", db, "--runs", "src", "--agent", AGENT), 2, "--run NEW is required");
    refused(dir, ARGS("relabel", "--db", db, "--agent", AGENT, "--run", "x"), 2, "--runs R1[,R2...] is required");
    refused(dir, ARGS("relabel", "--db", db, "--runs", "src", "--run", "x"), 2, "--agent SPEC is required");
    refused(dir, ARGS("relabel", "--db", "missing.db", "--runs", "src", "--agent", AGENT, "--run", "x"), 1,
            "database 'missing.db' does not exist");
    cr_assert(!file_exists(path_in(dir, "missing.db")), "a database was made");
    h = db_open(db);
    cr_assert_str_eq(db_text(h, "SELECT group_concat(name || games || (finished_at IS NOT NULL)) FROM run"), before);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM action"), actions);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM lease"), 0);
    sqlite3_close(h);
    /* fewer games of the same sources are another relabel */
    cr_assert_eq(yinsh_run(dir, ARGS("relabel", "--db", db, "--runs", "src", "--agent", AGENT, "--run", "part",
                                     "--games", "1", "--quiet"),
                           NULL, &err),
                 0, "%s", err);
}
