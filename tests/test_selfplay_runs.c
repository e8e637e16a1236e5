#define _GNU_SOURCE /* nftw, in test_proc.h */
/* Self-play runs: the scheduler's determinism (the same games on 1 and 2
 * threads) and White's score interval, and the `yinsh selfplay` command as
 * a process (the same games on 1 and 2 threads and the summary, kill -9
 * and resume, datagen reproducible after kill -9, every bad input of issue
 * #3, no database stores nothing); a run in words and its tally. Each test
 * works in its own temporary directory, so Criterion may run them in
 * parallel. */
#include <dirent.h>
#include <signal.h>
#include "engine/movegen.h"
#include "selfplay/agents/agent.h"
#include "selfplay/play/run.h"
#include "selfplay/play/scheduler.h"
#include "tests/test_proc.h"

/* ---- helpers ---------------------------------------------------------- */

/* Everything a run's games say, timing and row ids aside, as one text:
 * two runs are the same games, action for action, iff the texts are equal. */
static char *run_dump(const char *path, const char *run)
{
    sqlite3 *db = db_open(path);
    char sql[1024];
    snprintf(sql, sizeof sql,
             "SELECT coalesce(group_concat(line, char(10)), '') FROM ("
             " SELECT g.idx || ' ' || g.seed || ' ' || g.variant || ' ' || g.white || ' ' || g.black || ' ' ||"
             "  g.result || ' ' || g.reason || ' ' || g.actions || ' ' || g.white_removed || g.black_removed ||"
             "  ' ' || g.white_markers || ' ' || g.black_markers || ' :' ||"
             "  (SELECT group_concat(a.ply || a.actor || a.state || a.action || '/' || a.legal || '/' ||"
             "     coalesce(a.root_visits, '-') || '/' || coalesce(a.chosen_visits, '-') || '/' ||"
             "     coalesce(printf('%%.9f', a.value), '-'), ' ')"
             "   FROM (SELECT * FROM action WHERE game_id = g.id ORDER BY ply) a) AS line"
             " FROM game g JOIN run r ON g.run_id = r.id WHERE r.name = '%s' ORDER BY g.idx)",
             run);
    char *s = db_text(db, sql);
    sqlite3_close(db);
    return s;
}

/* ---- scheduler -------------------------------------------------------- */

typedef struct Collect {
    GameRecord games[64];
    int count;
} Collect;

static int collect_write(void *ctx, GameRecord *const *games, int n, char *err)
{
    (void)err;
    Collect *c = ctx;
    for (int i = 0; i < n; i++) {
        GameRecord *g = &c->games[games[i]->index];
        *g = *games[i];
        g->actions = gc(malloc((size_t)g->nactions * sizeof *g->actions));
        memcpy(g->actions, games[i]->actions, (size_t)g->nactions * sizeof *g->actions);
        c->count++;
    }
    return 0;
}

static void play_all(const SelfplayPlan *plan, Collect *c)
{
    uint32_t idx[64];
    for (uint32_t i = 0; i < plan->games; i++) idx[i] = i;
    SelfplaySink sink = {.write = collect_write, .ctx = c, .batch_games = 3};
    char err[ERR_LEN];
    cr_assert_eq(selfplay_run(plan, idx, plan->games, &sink, err), 0, "%s", err);
    cr_assert_eq(c->count, (int)plan->games);
}

Test(scheduler, same_games_with_1_and_2_threads)
{
    SelfplayPlan plan = {.variant = VARIANT_STANDARD, .seed = 12345, .games = 8};
    char err[ERR_LEN];
    cr_assert_eq(agent_spec_parse("mcts:sims=40", &plan.white, err), 0, "%s", err);
    cr_assert_eq(agent_spec_parse("random", &plan.black, err), 0, "%s", err);
    static Collect one, two;
    plan.threads = 1;
    play_all(&plan, &one);
    plan.threads = 2;
    play_all(&plan, &two);
    for (uint32_t i = 0; i < plan.games; i++) {
        GameRecord *a = &one.games[i], *b = &two.games[i];
        cr_assert_eq(a->nactions, b->nactions, "game %u", i);
        cr_assert_eq(a->result, b->result);
        cr_assert_eq(a->reason, b->reason);
        cr_assert_eq(a->seed, b->seed);
        for (int k = 0; k < a->nactions; k++) {
            cr_assert_eq(a->actions[k].action, b->actions[k].action, "game %u ply %d", i, k);
            cr_assert_eq(a->actions[k].chosen_visits, b->actions[k].chosen_visits);
            cr_assert_eq(a->actions[k].value, b->actions[k].value);
        }
    }
    /* and each game replays: every action legal, ending as recorded */
    for (uint32_t i = 0; i < plan.games; i++) {
        Position pos;
        pos_start(&pos, plan.variant);
        for (int k = 0; k < one.games[i].nactions; k++) {
            cr_assert(movegen_is_legal(&pos, one.games[i].actions[k].action));
            cr_assert_eq(one.games[i].actions[k].actor, pos.actor);
            Undo u;
            pos_make(&pos, one.games[i].actions[k].action, &u);
        }
        int result, reason;
        cr_assert(pos_outcome(&pos, &result, &reason));
        cr_assert_eq(result, one.games[i].result);
        cr_assert_eq(reason, one.games[i].reason);
    }
}

/* Wilson intervals worked out by hand (z = 1.96): 50 of 100 gives
 * 0.5 +- 0.0962; 10 of 10 gives [0.7225, 1]; draws count half. */
Test(scheduler, white_score_interval)
{
    RecordSummary s = {.games = 100};
    s.wins[RESULT_WHITE] = 50;
    s.wins[RESULT_BLACK] = 50;
    Interval i = record_white_score(&s);
    cr_assert_float_eq(i.mid, 0.5, 1e-12);
    cr_assert_float_eq(i.lo, 0.4038, 1e-4);
    cr_assert_float_eq(i.hi, 0.5962, 1e-4);
    RecordSummary all = {.games = 10};
    all.wins[RESULT_WHITE] = 10;
    i = record_white_score(&all);
    cr_assert_float_eq(i.mid, 1.0, 1e-12);
    cr_assert_float_eq(i.lo, 0.7225, 1e-4);
    cr_assert_float_eq(i.hi, 1.0, 1e-12);
    RecordSummary d = {.games = 100};
    d.wins[RESULT_WHITE] = 30;
    d.wins[RESULT_DRAW] = 40;
    d.wins[RESULT_BLACK] = 30;
    i = record_white_score(&d);
    cr_assert_float_eq(i.mid, 0.5, 1e-12);
    cr_assert_float_eq(i.lo, 0.4038, 1e-4);
}

/* ---- the command ------------------------------------------------------ */

Test(cli, determinism_1_vs_2_threads_and_summary)
{
    char *dir = tmpdir_new(), *a = path_in(dir, "a.db"), *b = path_in(dir, "b.db"), *out, *err;
    const char *args1[] = {"selfplay", "--games", "10", "--white", "mcts:sims=30", "--black", "random", "--seed", "77",
                           "--threads", "1", "--db", a, "--run", "r", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args1, &out, &err), 0, "%s", err);
    const char *args2[] = {"selfplay", "--games", "10", "--white", "mcts:sims=30", "--black", "random", "--seed", "77",
                           "--threads", "2", "--db", b, "--run", "r", "--quiet", NULL};
    char *out2;
    cr_assert_eq(yinsh_run(dir, args2, &out2, &err), 0, "%s", err);
    char *da = run_dump(a, "r"), *db = run_dump(b, "r");
    cr_assert(strlen(da) > 1000);
    cr_assert_str_eq(da, db);
    cr_assert_str_eq(out, out2);

    /* the summary agrees with the database */
    sqlite3 *h = db_open(a);
    long long w = db_int(h, "SELECT count(*) FROM game WHERE result = 'white'");
    long long bl = db_int(h, "SELECT count(*) FROM game WHERE result = 'black'");
    long long d = db_int(h, "SELECT count(*) FROM game WHERE result = 'draw'");
    cr_assert_eq(w + bl + d, 10);
    char expect[256];
    snprintf(expect, sizeof expect, "games        10\nwhite wins   %lld\nblack wins   %lld\ndraws        %lld\n", w,
             bl, d);
    cr_assert(strstr(out, expect), "summary:\n%s", out);
    cr_assert(strstr(out, "white score  "));
    cr_assert(strstr(out, "95% CI"));
    cr_assert(strstr(out, "mean length  "));
    cr_assert(strstr(out, "end reasons  "));
    char *ok = db_text(h, "PRAGMA integrity_check");
    cr_assert_str_eq(ok, "ok");
    cr_assert_eq(db_int(h, "SELECT count(*) FROM run WHERE name = 'r' AND seed = 77 AND games = 10 AND "
                           "finished_at IS NOT NULL AND white = 'mcts:sims=30,c=1,rollout=random'"),
                 1);
    sqlite3_close(h);
}

/* A run of `agent` (its extra arguments after it, NULL-ended) killed
 * with -9 after a few stored games and resumed ends with the games, and
 * the summary, of the run never stopped. */
static char *kill_9_and_resume_with(const char *games, const char *const *agent)
{
    char *dir = tmpdir_new(), *k = path_in(dir, "k.db"), *full = path_in(dir, "full.db"), *err;
    const char *args[32] = {"selfplay", "--games", games, "--seed", "2024", "--threads", "2", "--run", "killed",
                            "--quiet", "--db"};
    int n = 11, n0;
    args[n++] = k;
    n0 = n;
    for (int i = 0; agent[i]; i++) args[n++] = agent[i];
    args[n] = NULL;
    pid_t pid = yinsh_start(dir, args);
    /* wait for a few stored games, then kill -9 in the middle of the run
     * (on a quiet machine 40 were all done in the first batch) */
    long long stored = games_awaited(k, 4, 30);
    cr_assert_geq(stored, 4, "no games stored");
    kill(pid, SIGKILL);
    cr_assert_eq(yinsh_wait(pid), 128 + SIGKILL);
    stored = games_in(k);
    cr_assert_lt(stored, atoll(games), "the run finished before the kill: make it longer");

    sqlite3 *h = db_open(k);
    char *ok = db_text(h, "PRAGMA integrity_check");
    cr_assert_str_eq(ok, "ok");
    /* every stored game is whole */
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game g WHERE actions != (SELECT count(*) FROM action WHERE game_id = "
                           "g.id)"),
                 0);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM run WHERE finished_at IS NULL"), 1);
    sqlite3_close(h);

    const char *resume[] = {"selfplay", "--resume", "killed", "--db", k, "--threads", "1", "--quiet", NULL};
    char *out;
    cr_assert_eq(yinsh_run(dir, resume, &out, &err), 0, "%s", err);
    char want[64];
    snprintf(want, sizeof want, "games        %s\n", games);
    cr_assert(strstr(out, want), "%s", out);

    args[n0 - 1] = full;
    char *out2;
    cr_assert_eq(yinsh_run(dir, args, &out2, &err), 0, "%s", err);
    char *dk = run_dump(k, "killed"), *df = run_dump(full, "killed");
    cr_assert_str_eq(dk, df);
    cr_assert_str_eq(out, out2);
    h = db_open(k);
    ok = db_text(h, "PRAGMA integrity_check");
    cr_assert_str_eq(ok, "ok");
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game"), atoll(games));
    cr_assert_eq(db_int(h, "SELECT count(*) FROM run WHERE finished_at IS NOT NULL"), 1);
    sqlite3_close(h);

    /* resuming a finished run plays nothing and prints the same summary */
    char *out3;
    cr_assert_eq(yinsh_run(dir, resume, &out3, &err), 0, "%s", err);
    cr_assert_str_eq(out3, out2);
    return k;
}

Test(cli, kill_9_and_resume)
{
    const char *agent[] = {"--agent", "mcts:sims=60", NULL};
    kill_9_and_resume_with("120", agent);
}

/* The data generation of docs/datagen.md: `best` under a node budget from
 * random openings, each searched action stored with its score. The same
 * seed gives the same positions and scores, on 2 threads and after a kill
 * -9 and a resume on 1. */
Test(cli, datagen_is_reproducible_after_kill_9)
{
    const char *agent[] = {"--agent", "best", "--sims", "400", "--opening", "random:12", NULL};
    char *k = kill_9_and_resume_with("300", agent);
    /* every ring move the agent chose has its search's score; the random
     * opening's actions have none */
    sqlite3 *h = db_open(k);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM action WHERE ply >= 12 AND state = 'M' AND value IS NULL"), 0);
    cr_assert_gt(db_int(h, "SELECT count(*) FROM action WHERE state = 'M' AND value IS NOT NULL"), 5000);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM action WHERE ply < 12 AND value IS NOT NULL"), 0);
    sqlite3_close(h);
}

/* A bad input: non-zero exit, a message containing `word`, and the files
 * named in `untouched` exactly as before. */
static void expect_failure(const char *dir, const char *const *args, int status, const char *word)
{
    char *out, *err;
    int rc = yinsh_run(dir, args, &out, &err);
    cr_assert_eq(rc, status, "exit %d, stderr: %s", rc, err);
    cr_assert(strstr(err, word), "stderr does not say '%s': %s", word, err);
    cr_assert_str_eq(out, "", "stdout: %s", out);
}

Test(cli, bad_inputs)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "x.db"), *err;
    const char *make[] = {"selfplay", "--games", "3", "--agent", "random", "--db", db, "--run", "one", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, make, NULL, &err), 0, "%s", err);
    char *before = run_dump(db, "one");

    /* usage errors: exit 2 */
    const char *unknown[] = {"selfplay", "--games", "3", "--frobnicate", NULL};
    expect_failure(dir, unknown, 2, "frobnicate");
    /* an abbreviation is not an option: --game is not --games */
    const char *abbrev[] = {"selfplay", "--game", "3", "--agent", "random", "--db", db, NULL};
    expect_failure(dir, abbrev, 2, "unknown option '--game'");
    /* a number with white space before it is not a number */
    const char *tabseed[] = {"selfplay", "--games", "3", "--seed", "\t-1", "--db", db, NULL};
    expect_failure(dir, tabseed, 2, "--seed");
    const char *badspec[] = {"selfplay", "--games", "3", "--white", "mcts:simz=5", "--black", "random", "--db", db, NULL};
    expect_failure(dir, badspec, 2, "simz");
    const char *oneside[] = {"selfplay", "--games", "3", "--white", "random", "--db", db, NULL};
    expect_failure(dir, oneside, 2, "--white without --black");
    const char *nogames[] = {"selfplay", "--db", db, NULL};
    expect_failure(dir, nogames, 2, "--games");
    const char *resumemix[] = {"selfplay", "--resume", "one", "--games", "5", "--db", db, NULL};
    expect_failure(dir, resumemix, 2, "--resume");

    /* an unwritable path */
    const char *nodir[] = {"selfplay", "--games", "3", "--agent", "random", "--db", "/nonexistent-dir/y.db", NULL};
    expect_failure(dir, nodir, 1, "/nonexistent-dir/y.db");
    const char *isdir[] = {"selfplay", "--games", "3", "--agent", "random", "--db", dir, NULL};
    expect_failure(dir, isdir, 1, "directory");

    /* a file that is not a database: refused and left as it was */
    char *text = path_in(dir, "notes.txt");
    FILE *f = fopen(text, "w");
    fprintf(f, "Not a database. Not a database. Not a database. Not a database. Not a database. Not a database.\n");
    fclose(f);
    char *text_before = slurp(text);
    const char *notdb[] = {"selfplay", "--games", "3", "--agent", "random", "--db", text, NULL};
    expect_failure(dir, notdb, 1, "not a database");
    char *text_after = slurp(text);
    cr_assert_str_eq(text_before, text_after);
    char *wal = path_in(dir, "notes.txt-wal");
    cr_assert_not(file_exists(wal));

    /* a run name that exists */
    const char *again[] = {"selfplay", "--games", "3", "--agent", "random", "--db", db, "--run", "one", NULL};
    expect_failure(dir, again, 1, "exists");
    /* --resume of an unknown run, in an existing and in a missing database */
    const char *unk[] = {"selfplay", "--resume", "two", "--db", db, NULL};
    expect_failure(dir, unk, 1, "two");
    char *missing = path_in(dir, "missing.db");
    const char *unk2[] = {"selfplay", "--resume", "two", "--db", missing, NULL};
    expect_failure(dir, unk2, 1, "missing.db");
    cr_assert_not(file_exists(missing));

    /* a newer schema version */
    char *newer = path_in(dir, "newer.db");
    sqlite3 *h = db_open(newer);
    sqlite3_exec(h, "PRAGMA user_version = 99", NULL, NULL, NULL);
    sqlite3_close(h);
    const char *nv[] = {"selfplay", "--games", "3", "--agent", "random", "--db", newer, NULL};
    expect_failure(dir, nv, 1, "newer");

    /* a locked database: another process holds the write lock */
    h = db_open(db);
    cr_assert_eq(sqlite3_exec(h, "BEGIN EXCLUSIVE; UPDATE run SET command = command", NULL, NULL, NULL), SQLITE_OK);
    const char *locked[] = {"selfplay", "--games", "3", "--agent", "random", "--db", db, "--run", "three",
                            "--busy-timeout", "200", NULL};
    expect_failure(dir, locked, 1, "locked");
    sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(h);

    /* nothing of all this reached the database */
    h = db_open(db);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM run"), 1);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game"), 3);
    char *ok = db_text(h, "PRAGMA integrity_check");
    cr_assert_str_eq(ok, "ok");
    sqlite3_close(h);
    char *after = run_dump(db, "one");
    cr_assert_str_eq(before, after);
}

/* The names in dir other than the out and err files of yinsh_run, joined
 * by spaces ("" when there are none). */
static char *extra_files(const char *dir)
{
    char *names = gc(calloc(1, 4096));
    DIR *d = opendir(dir);
    cr_assert(d, "%s", dir);
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, "out") &&
            strcmp(e->d_name, "err") && strlen(names) + strlen(e->d_name) + 2 < 4096) {
            if (*names) strcat(names, " ");
            strcat(names, e->d_name);
        }
    closedir(d);
    return names;
}

/* --no-db writes no file at all: the folder yinsh runs in keeps only its
 * output. Without --no-db the same command makes the default database,
 * yinsh.db, there: that is the file --no-db must not create. */
Test(cli, no_db_plays_and_stores_nothing)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *args[] = {"selfplay", "--games", "5", "--agent", "random", "--no-db", "--seed", "3", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "games        5\n"), "%s", out);
    char *extra = extra_files(dir);
    cr_assert_str_eq(extra, "", "--no-db left files: %s", extra);

    char *with = tmpdir_new();
    const char *stored[] = {"selfplay", "--games", "5", "--agent", "random", "--seed", "3", "--quiet", NULL};
    cr_assert_eq(yinsh_run(with, stored, NULL, &err), 0, "%s", err);
    cr_assert(file_nonempty(path_in(with, "yinsh.db")), "no default database in %s", with);
    cr_assert_str_eq(extra_files(with), "yinsh.db");
}

/* A run in words and its tally, as `yinsh selfplay` and the planned runs
 * show them (run_describe, run_tally); one process, no MPI ranks. */
Test(run, describes_itself_and_its_tally)
{
    Run r = {.db = "x.db", .plan = {.seed = 5, .variant = VARIANT_BLITZ, .games = 4, .threads = 1}, .ntodo = 3};
    snprintf(r.row.name, sizeof r.row.name, "r1");
    snprintf(r.row.white, sizeof r.row.white, "random");
    snprintf(r.row.black, sizeof r.row.black, "mcts");
    char *text = NULL, tally[128];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert(f);
    run_describe(f, &r);
    fclose(f);
    cr_expect_str_eq(text, "run r1, seed 5, blitz, random vs mcts, 4 games (3 to play), 1 thread");
    free(text);
    r.sum.wins[RESULT_WHITE] = 3;
    r.sum.wins[RESULT_BLACK] = 2;
    r.sum.wins[RESULT_DRAW] = 1;
    cr_expect_str_eq(run_tally(&r.sum, tally, sizeof tally), "W 3 B 2 D 1");
}
