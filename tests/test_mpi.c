#define _GNU_SOURCE /* nftw, in test_proc.h */
/* One run on the ranks of an MPI job (selfplay/play/distribute.h), against the
 * same run played by one process: the identity property (the database of
 * `mpirun -np 3` holds exactly the games of one process with the same
 * seed, and so does the merge of 3 shards), the match's SPRT decided at
 * rank 0 in pair order, and the faults: a rank, or rank 0, killed with
 * SIGKILL mid-run, then --resume with another number of ranks, finishes
 * the run to the database of an uninterrupted one.
 *
 * Skipped, saying so, in a build without MPI (YINSH_MPIEXEC is empty).
 * Every job runs with --oversubscribe -np 3 (more ranks than this
 * machine's cores) and, as root, Open MPI's two variables that allow it. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "engine/base/process.h"
#include "tests/test_proc.h"

#define SKIP_WITHOUT_MPI() \
    if (!*YINSH_MPIEXEC) cr_skip_test("this yinsh was built without MPI (no MPI C library at configure time)")

/* Starts `mpirun --oversubscribe -np RANKS yinsh ARGS...` in dir, stdout
 * to dir/out, stderr to dir/err. */
static pid_t mpi_start(const char *dir, int ranks, const char *const *args)
{
    char *o = path_in(dir, "out"), *e = path_in(dir, "err");
    char np[16];
    snprintf(np, sizeof np, "%d", ranks);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        int fo = open(o, O_WRONLY | O_CREAT | O_TRUNC, 0644), fe = open(e, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fo, 1);
        dup2(fe, 2);
        if (chdir(dir) != 0) _exit(126);
        /* LeakSanitizer (the ASan build) cannot see into Open MPI's
         * plugins, unloaded at exit, and takes what they keep for leaks:
         * no leak check in the ranks; every run without mpirun keeps it */
        const char *asan = getenv("ASAN_OPTIONS");
        if (asan) {
            char opts[1024];
            snprintf(opts, sizeof opts, "%s:detect_leaks=0", asan);
            setenv("ASAN_OPTIONS", opts, 1);
        }
        setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
        setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
        const char *argv[64];
        int n = 0;
        argv[n++] = YINSH_MPIEXEC;
        argv[n++] = "--oversubscribe";
        argv[n++] = "-np";
        argv[n++] = np;
        argv[n++] = YINSH_BIN;
        for (int i = 0; args[i]; i++) argv[n++] = args[i];
        argv[n] = NULL;
        execv(YINSH_MPIEXEC, (char **)argv);
        _exit(127);
    }
    return pid;
}

static int mpi_run(const char *dir, int ranks, const char *const *args, char **out, char **err)
{
    int rc = yinsh_wait(mpi_start(dir, ranks, args));
    if (out) *out = slurp(path_in(dir, "out"));
    if (err) *err = slurp(path_in(dir, "err"));
    return rc;
}

/* Everything a run's games are, but the clock: each game's index, seed,
 * result, reason, length and counts, and each action with its search
 * figures (visits, value and root value) and clocks (none in these untimed runs), in
 * index and ply order. */
static char *games_of(const char *db)
{
    sqlite3 *h = db_open(db);
    char *t = db_text(h, "SELECT group_concat(x, '|') FROM (SELECT g.idx || ':' || g.seed || ':' || g.variant || ':' || "
                         "g.white || ':' || g.black || ':' || g.result || ':' || g.reason || ':' || g.actions || ':' || "
                         "g.white_removed || g.black_removed || g.white_markers || g.black_markers || ':' || g.ident || "
                         "':' || g.repeat || ':' || a.ply || a.actor || a.state || ' ' || a.action || ' ' || a.legal || "
                         "':' || coalesce(a.root_visits, '-') || ':' || coalesce(a.chosen_visits, '-') || ':' || "
                         "coalesce(a.value, '-') || ':' || coalesce(a.root_value, '-') || ':' || coalesce(a.clock_us, '-') AS x "
                         "FROM game g JOIN action a ON a.game_id = g.id "
                         "ORDER BY g.idx, a.ply)");
    sqlite3_close(h);
    return t;
}

/* The run's plan and whether it is finished. */
static char *run_of(const char *db)
{
    sqlite3 *h = db_open(db);
    char *t = db_text(h, "SELECT seed || ' ' || variant || ' ' || white || ' ' || black || ' ' || games || ' ' || kind "
                         "|| ' ' || plan_ident || ' ' || (finished_at IS NOT NULL) || ' ' || (SELECT count(*) FROM "
                         "game) FROM run");
    sqlite3_close(h);
    return t;
}

static void same_games(const char *a, const char *b)
{
    char *ga = games_of(a), *gb = games_of(b);
    cr_assert(strlen(ga) > 1000, "%s holds no games", a);
    cr_assert(!strcmp(ga, gb), "%s and %s hold different games", a, b);
    cr_assert_str_eq(run_of(a), run_of(b), "%s and %s hold different runs", a, b);
}

/* The done criterion of the issue: 60 games of MCTS 50 with seed 7 by
 * three ranks, by three shards merged, and by one process. */
Test(mpi, identity_ranks_shards_one_process, .timeout = 240)
{
    SKIP_WITHOUT_MPI();
    char *dir = tmpdir_new(), *a = path_in(dir, "a.db"), *b = path_in(dir, "b.db"), *c = path_in(dir, "c.db"), *err;
    const char *ranks[] = {"selfplay", "--games", "60", "--agent", "mcts:sims=50", "--seed", "7", "--db", a,
                           "--threads", "1", NULL};
    cr_assert_eq(mpi_run(dir, 3, ranks, NULL, &err), 0, "%s", err);
    cr_assert(strstr(err, "3 ranks") && strstr(err, "rank 0 played"), "no rank summary: %s", err);
    const char *merge[8] = {"merge", "--db", b};
    for (int k = 1; k <= 3; k++) {
        char shard[16], name[16];
        snprintf(shard, sizeof shard, "%d/3", k);
        snprintf(name, sizeof name, "shard-%d.db", k);
        char *db = path_in(dir, name);
        const char *args[] = {"selfplay", "--games", "60", "--agent", "mcts:sims=50", "--seed", "7", "--db", db,
                              "--shard", shard, "--threads", "1", "--quiet", NULL};
        cr_assert_eq(yinsh_run(dir, args, NULL, &err), 0, "%s", err);
        merge[2 + k] = db;
    }
    char *out;
    cr_assert_eq(yinsh_run(dir, merge, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "60/60 games: finished"), "%s", out);
    const char *one[] = {"selfplay", "--games", "60", "--agent", "mcts:sims=50", "--seed", "7", "--db", c, "--quiet",
                         NULL};
    cr_assert_eq(yinsh_run(dir, one, NULL, &err), 0, "%s", err);
    same_games(a, c);
    same_games(b, c);
}

/* A match with an SPRT: decided at rank 0 in pair order, every rank
 * stopped, the games past the deciding pair dropped: the result and the
 * database of one process. */
Test(mpi, match_sprt_as_one_process, .timeout = 240)
{
    SKIP_WITHOUT_MPI();
    char *dir = tmpdir_new(), *a = path_in(dir, "a.db"), *c = path_in(dir, "c.db"), *out1, *out3, *err;
    const char *args3[] = {"match", "--a", "mcts:sims=30", "--b", "random", "--games", "60", "--seed", "3", "--sprt",
                           "0,200,0.05,0.05", "--db", a, "--threads", "1", "--quiet", NULL};
    cr_assert_eq(mpi_run(dir, 3, args3, &out3, &err), 0, "%s", err);
    const char *args1[] = {"match", "--a", "mcts:sims=30", "--b", "random", "--games", "60", "--seed", "3", "--sprt",
                           "0,200,0.05,0.05", "--db", c, "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args1, &out1, &err), 0, "%s", err);
    cr_assert(strstr(out1, "H1 accepted after"), "%s", out1);
    cr_assert_str_eq(after_line(out3, "run "), after_line(out1, "run "));
    same_games(a, c);
}

/* The pids of mpirun's children and their ranks (OMPI_COMM_WORLD_RANK in
 * their environment). */
static pid_t rank_pid(pid_t mpirun, int rank)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    pid_t found = 0;
    while (!found && d && (e = readdir(d))) {
        pid_t pid = (pid_t)atoi(e->d_name);
        if (pid <= 0) continue;
        char path[64], buf[4096];
        snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = '\0';
        char *p = strrchr(buf, ')');
        int ppid = 0;
        if (!p || sscanf(p + 2, "%*c %d", &ppid) != 1 || ppid != mpirun) continue;
        snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
        f = fopen(path, "r");
        if (!f) continue;
        n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = '\0';
        char want[64];
        snprintf(want, sizeof want, "OMPI_COMM_WORLD_RANK=%d", rank);
        for (size_t i = 0; i < n; i += strlen(buf + i) + 1)
            if (!strcmp(buf + i, want)) found = pid;
    }
    if (d) closedir(d);
    return found;
}

/* Kills rank `victim` of a 3-rank run once games are stored, checks the
 * job's end and that nothing committed is lost, resumes the run with
 * `resume_ranks` ranks (1: no mpirun), and compares with one process. */
static void kill_and_resume(int victim, int resume_ranks)
{
    char *dir = tmpdir_new(), *db = path_in(dir, "k.db"), *ref = path_in(dir, "ref.db"), *err;
    const char *args[] = {"selfplay", "--games", "40", "--agent", "mcts:sims=600", "--seed", "11", "--db", db,
                          "--run", "killed", "--threads", "1", NULL};
    pid_t job = mpi_start(dir, 3, args);
    long long before = games_awaited(db, 4, 30);
    cr_assert(before >= 4, "no games stored after 30 s");
    pid_t pid = 0;
    for (int i = 0; i < 100 && !(pid = rank_pid(job, victim)); i++) usleep(10000);
    cr_assert(pid > 0, "rank %d not found", victim);
    pid_t ranks[3];
    for (int r = 0; r < 3; r++) ranks[r] = rank_pid(job, r);
    before = games_in(db);
    kill(pid, SIGKILL);
    int rc = yinsh_wait(job);
    /* the launcher may return before its ranks are gone: a user resumes later */
    for (int r = 0; r < 3; r++)
        for (int i = 0; i < 1000 && ranks[r] > 0 && process_ended(ranks[r]) == false; i++) usleep(10000);
    err = slurp(path_in(dir, "err"));
    cr_assert_neq(rc, 0, "the job ended well after rank %d was killed: %s", victim, err);
    char rank[32];
    snprintf(rank, sizeof rank, "rank %d", victim);
    cr_assert(strstr(err, rank), "the job's end does not name %s: %s", rank, err);
    cr_assert(strstr(err, "'killed'"), "the job's end does not name the run: %s", err);
    long long after = games_in(db);
    cr_assert_geq(after, before, "committed games lost: %lld before the kill, %lld after", before, after);
    cr_assert_lt(after, 40, "the run finished before the kill: make it longer");

    const char *resume[] = {"selfplay", "--resume", "killed", "--db", db, "--threads", "1", "--quiet", NULL};
    if (resume_ranks > 1) rc = mpi_run(dir, resume_ranks, resume, NULL, &err);
    else rc = yinsh_run(dir, resume, NULL, &err);
    cr_assert_eq(rc, 0, "resume: %s", err);
    const char *one[] = {"selfplay", "--games", "40", "--agent", "mcts:sims=600", "--seed", "11", "--db", ref,
                         "--run", "killed", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, one, NULL, &err), 0, "%s", err);
    same_games(db, ref);
}

Test(mpi, rank1_killed_then_resume_on_2_ranks, .timeout = 300) { SKIP_WITHOUT_MPI(); kill_and_resume(1, 2); }
Test(mpi, rank0_killed_then_resume_alone, .timeout = 300) { SKIP_WITHOUT_MPI(); kill_and_resume(0, 1); }

/* A rank of another build beside rank 0 (tests/CMakeLists.txt's
 * yinsh_extra_draw: the same sources, version, commit and flags, but one
 * more random draw a game) plays other games under the run's name: the
 * job is refused before rank 0 writes anything, naming the rank and both
 * builds (issue 22, item 8). */
Test(mpi, a_rank_of_another_build_is_refused, .timeout = 240)
{
    SKIP_WITHOUT_MPI();
    char *dir = tmpdir_new(), *db = path_in(dir, "x.db"), *err;
    /* the other build does play other games */
    const char *probe[] = {"selfplay", "--games", "4", "--agent", "mcts:sims=20", "--seed", "1", "--no-db", "--quiet",
                           NULL};
    char *ours, *theirs;
    cr_assert_eq(yinsh_run(dir, probe, &ours, &err), 0, "%s", err);
    const char *extra[] = {YINSH_EXTRA_DRAW_BIN, "selfplay", "--games", "4", "--agent", "mcts:sims=20", "--seed", "1",
                           "--no-db", "--quiet", NULL};
    char *o = path_in(dir, "o"), *e = path_in(dir, "e"), cmd[8192];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s %s %s %s %s %s %s %s %s > '%s' 2> '%s'", dir, extra[0], extra[1],
             extra[2], extra[3], extra[4], extra[5], extra[6], extra[7], extra[8], extra[9], o, e);
    cr_assert_eq(system(cmd), 0, "%s", slurp(e));
    theirs = slurp(o);
    cr_assert(strstr(ours, "hash") && strstr(theirs, "hash"), "%s / %s", ours, theirs);
    cr_assert(strncmp(strstr(ours, "hash"), strstr(theirs, "hash"), 30), "the other build plays the same games");

    /* rank 0 this yinsh, ranks 1 and 2 the other build */
    snprintf(cmd, sizeof cmd,
             "cd '%s' && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=\"$ASAN_OPTIONS:"
             "detect_leaks=0\" '%s' --oversubscribe -np 1 '%s' selfplay --games 30 --agent mcts:sims=20 --seed 1 "
             "--db '%s' --run r --quiet : -np 2 '%s' selfplay --games 30 --agent mcts:sims=20 --seed 1 --db '%s' "
             "--run r --quiet > '%s' 2> '%s'",
             dir, YINSH_MPIEXEC, YINSH_BIN, db, YINSH_EXTRA_DRAW_BIN, db, o, e);
    int rc = system(cmd);
    err = slurp(e);
    cr_expect_neq(rc, 0, "the job of two builds ended well: %s", err);
    cr_expect(strstr(err, "rank 1 runs another build than rank 0"), "%s", err);
    cr_expect(!file_exists(db) || games_in(db) == 0, "games were stored");
    if (file_exists(db)) {
        sqlite3 *h = db_open(db);
        cr_expect_eq(db_int(h, "SELECT count(*) FROM sqlite_master WHERE name = 'run'") ?
                         db_int(h, "SELECT count(*) FROM run") : 0,
                     0, "a run was created");
        sqlite3_close(h);
    }
}
