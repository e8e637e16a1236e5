/* External engines as agents (docs/uyi.md, "Engines as agents"): the
 * identity of `yinsh uyi` with the internal agent, each fault of
 * tests/fake_engine.c adjudicated with its reason, no engine process left
 * behind (the process table is read), yinsh interrupted mid-match, and
 * bad engine options refused before anything is written. */
#define _GNU_SOURCE /* nftw, in test_proc.h */
#include <dirent.h>
#include <signal.h>
#include <time.h>
#include "test_proc.h"

/* A uyi spec running the fake engine in `mode`, tagged with the test's
 * folder so that its processes can be found. */
static char *fake_spec(const char *mode, const char *tag)
{
    char *s = gc(malloc(1024));
    snprintf(s, 1024, "uyi:name=fake-%s;cmd=%s %s %s", mode, FAKE_ENGINE, mode, tag);
    return s;
}

/* Processes whose command line holds tag (engines of this test), or that
 * are children of `parent` (zombies have no command line): their count. */
static int processes_with(const char *tag, pid_t parent)
{
    DIR *d = opendir("/proc");
    cr_assert(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0 || pid == getpid()) continue;
        char path[64], buf[4096];
        snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        size_t got = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        for (size_t i = 0; i < got; i++)
            if (!buf[i]) buf[i] = ' ';
        buf[got] = '\0';
        bool hit = strstr(buf, tag) != NULL;
        if (!hit && parent > 0) {
            snprintf(path, sizeof path, "/proc/%ld/stat", pid);
            if ((f = fopen(path, "r"))) {
                got = fread(buf, 1, sizeof buf - 1, f);
                fclose(f);
                buf[got] = '\0';
                char *close = strrchr(buf, ')');
                int ppid = 0;
                char state;
                if (close && sscanf(close + 1, " %c %d", &state, &ppid) == 2 && ppid == parent) hit = true;
            }
        }
        n += hit;
    }
    closedir(d);
    return n;
}

/* Waits up to 3 s for the tagged processes to be gone; their count then. */
static int leftover(const char *tag)
{
    int n = 0;
    for (int i = 0; i < 300 && (n = processes_with(tag, 0)); i++) {
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    return n;
}

/* Each game's actions, one line per game in index order. */
static char *games_text(const char *db_path)
{
    sqlite3 *db = db_open(db_path);
    char *t = db_text(db, "SELECT group_concat(line, '\n') FROM (SELECT g.idx || ': ' || "
                          "(SELECT group_concat(action, ' ') FROM (SELECT action FROM action a WHERE "
                          "a.game_id = g.id ORDER BY a.ply)) || ' ' || g.result AS line FROM game g ORDER BY g.idx)");
    sqlite3_close(db);
    return t;
}

Test(engines, uyi_engine_plays_the_games_of_the_internal_agent)
{
    char *dir = tmpdir_new(), *out, *err;
    char ext[512];
    snprintf(ext, sizeof ext, "uyi:name=yinsh;cmd=%s uyi --agent mcts:sims=100", YINSH_BIN);
    const char *internal[] = {"match", "--a", "mcts:sims=100", "--b", "mcts:sims=100", "--games", "4", "--seed",
                              "11", "--threads", "2", "--db", "i.db", "--quiet", "--agent-streams", NULL};
    cr_assert_eq(yinsh_run(dir, internal, &out, &err), 0, "%s", err);
    const char *external[] = {"match", "--a", ext, "--b", "mcts:sims=100", "--games", "4", "--seed", "11",
                              "--threads", "2", "--db", "e.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, external, &out, &err), 0, "%s", err);
    char *gi = games_text(path_in(dir, "i.db")), *ge = games_text(path_in(dir, "e.db"));
    cr_assert(strlen(gi) > 100);
    cr_assert_str_eq(gi, ge, "the external engine played other actions");
    /* the shared stream (the default) is another game: the streams matter */
    const char *shared[] = {"match", "--a", "mcts:sims=100", "--b", "mcts:sims=100", "--games", "4", "--seed", "11",
                            "--threads", "2", "--db", "s.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, shared, &out, &err), 0, "%s", err);
    cr_assert_str_neq(gi, games_text(path_in(dir, "s.db")));
    /* and under the match's simulation limit (go sims N), as deterministic */
    const char *internal50[] = {"match", "--a", "mcts:sims=100", "--b", "mcts:sims=100", "--games", "2", "--seed",
                                "12", "--threads", "1", "--db", "i50.db", "--quiet", "--agent-streams", "--sims", "50",
                                NULL};
    cr_assert_eq(yinsh_run(dir, internal50, &out, &err), 0, "%s", err);
    const char *external50[] = {"match", "--a", ext, "--b", "mcts:sims=100", "--games", "2", "--seed", "12",
                                "--threads", "1", "--db", "e50.db", "--quiet", "--sims", "50", NULL};
    cr_assert_eq(yinsh_run(dir, external50, &out, &err), 0, "%s", err);
    cr_assert_str_eq(games_text(path_in(dir, "i50.db")), games_text(path_in(dir, "e50.db")));
    /* the stored spec names the engine and its command; the engine logged */
    sqlite3 *db = db_open(path_in(dir, "e.db"));
    cr_assert(strstr(db_text(db, "SELECT white FROM run"), "uyi:name=yinsh;cmd="));
    sqlite3_close(db);
    cr_assert(file_exists(path_in(dir, "engine-logs")));
}

typedef struct Fault {
    const char *mode, *reason;
    const char *extra[6];
} Fault;

static void expect_fault(const Fault *f)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *args[32] = {"match", "--a", fake_spec(f->mode, dir), "--b", "random", "--games", "2", "--seed", "3",
                            "--threads", "2", "--db", "m.db", "--engine-logs", "logs"};
    int n = 15;
    for (int i = 0; f->extra[i]; i++) args[n++] = f->extra[i];
    args[n] = NULL;
    double t0 = (double)time(NULL);
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s: %s", f->mode, err);
    cr_assert((double)time(NULL) - t0 < 30, "%s: too slow", f->mode);
    char want[128];
    snprintf(want, sizeof want, "faults a     2 (%s 2)", f->reason);
    cr_assert(strstr(out, want), "%s: want '%s' in\n%s", f->mode, want, out);
    cr_assert(strstr(out, "faults b     0\n"), "%s", out);
    sqlite3 *db = db_open(path_in(dir, "m.db"));
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM game WHERE reason = '%s' AND ((idx = 0 AND result = 'black') OR "
                              "(idx = 1 AND result = 'white'))", f->reason);
    cr_assert_eq(db_int(db, sql), 2, "%s: both games lost by the engine with reason %s", f->mode, f->reason);
    sqlite3_close(db);
    cr_assert_eq(leftover(dir), 0, "%s: an engine process outlived yinsh", f->mode);
    /* the games export as records that replay (a fault is not the board's end) */
    const char *exp[] = {"export", "--db", "m.db", "--out", "games.txt", NULL}, *rep[] = {"replay", "games.txt", NULL};
    cr_assert_eq(yinsh_run(dir, exp, &out, &err), 0, "%s: %s", f->mode, err);
    cr_assert_eq(yinsh_run(dir, rep, &out, &err), 0, "%s: %s", f->mode, err);
    DIR *logs = opendir(path_in(dir, "logs"));
    cr_assert(logs, "%s: no engine logs", f->mode);
    int files = 0;
    bool noted = false;
    char note[64];
    snprintf(note, sizeof note, "yinsh: %s: ", f->reason);
    for (struct dirent *e; (e = readdir(logs));) {
        if (e->d_name[0] == '.') continue;
        files++;
        noted |= strstr(slurp(path_in(path_in(dir, "logs"), e->d_name)), note) != NULL;
    }
    closedir(logs);
    cr_assert(files >= 1, "%s: no engine log file", f->mode);
    cr_assert(noted, "%s: the fault is not in the engine's log", f->mode);
}

Test(engines, crash_is_engine_died) { expect_fault(&(Fault){"crash", "engine-died", {NULL}}); }
Test(engines, illegal_action) { expect_fault(&(Fault){"illegal", "illegal-action", {NULL}}); }
Test(engines, hang_is_no_answer) { expect_fault(&(Fault){"hang", "no-answer", {"--engine-timeout", "300", NULL}}); }
Test(engines, hang_on_a_clock_is_time_forfeit)
{
    expect_fault(&(Fault){"hang", "time-forfeit", {"--tc", "0.3", "--tc-margin", "50", NULL}});
}
Test(engines, garbage_is_engine_error) { expect_fault(&(Fault){"garbage", "engine-error", {NULL}}); }
Test(engines, no_handshake_is_no_answer)
{
    expect_fault(&(Fault){"nohandshake", "no-answer", {"--engine-timeout", "300", NULL}});
}
Test(engines, slow_engine_loses_on_time)
{
    expect_fault(&(Fault){"slow", "time-forfeit", {"--tc", "0.5+0", "--tc-margin", "50", NULL}});
}

/* Internal agents lose on time too: a clock far too short for 2000
 * simulations of random playouts. */
Test(engines, internal_agent_on_a_clock)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *args[] = {"match", "--a", "mcts:sims=100", "--b", "random", "--games", "2", "--seed", "5", "--threads",
                          "1", "--db", "c.db", "--tc", "30+1", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 0, "%s", err);
    sqlite3 *db = db_open(path_in(dir, "c.db"));
    /* every searched action has the actor's clock: within base + incs, above -margin */
    cr_assert_eq(db_int(db, "SELECT count(*) FROM action WHERE clock_us IS NULL"), 0);
    cr_assert_eq(db_int(db, "SELECT count(*) FROM action WHERE clock_us < -100000 OR clock_us > 30000000 + "
                            "1000000 * (ply + 1)"), 0);
    cr_assert_str_eq(db_text(db, "SELECT controls FROM run"), "tc=30+1,margin=100");
    sqlite3_close(db);
    const char *forfeit[] = {"match", "--a", "mcts:sims=200", "--b", "random", "--games", "2", "--seed", "5",
                             "--threads", "1", "--no-db", "--movetime", "1", "--tc-margin", "0", "--quiet", NULL};
    /* movetime 1 ms with no margin: a search of one simulation or more may
     * overrun; either way the game ends and is scored (no crash, no hang) */
    cr_assert_eq(yinsh_run(dir, forfeit, &out, &err), 0, "%s", err);
}

/* A long match of two fake engines in `mode`, once both run. */
static pid_t start_match(const char *dir, const char *mode)
{
    const char *args[] = {"match", "--a", fake_spec(mode, dir), "--b", fake_spec(mode, dir), "--games",
                          "400", "--seed", "3", "--threads", "2", "--db", "m.db", "--quiet", NULL};
    pid_t pid = yinsh_start(dir, args);
    for (int i = 0; i < 500 && processes_with(dir, 0) < 2; i++) {
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    cr_assert(processes_with(dir, 0) >= 2, "the engines did not start");
    return pid;
}

Test(engines, sigterm_mid_match_leaves_no_engine)
{
    char *dir = tmpdir_new();
    pid_t pid = start_match(dir, "slowok");
    kill(pid, SIGTERM);
    cr_assert_eq(yinsh_wait(pid), 128 + SIGTERM);
    cr_assert_eq(leftover(dir), 0, "an engine outlived yinsh");
}

Test(engines, sigkill_mid_match_leaves_no_engine)
{
    char *dir = tmpdir_new();
    /* engines that hang in a search, deaf to SIGTERM and to the end of
     * their input: only PR_SET_PDEATHSIG ends them */
    pid_t pid = start_match(dir, "hang");
    struct timespec ts = {0, 300000000};
    nanosleep(&ts, NULL);
    kill(pid, SIGKILL);
    cr_assert_eq(yinsh_wait(pid), 128 + SIGKILL);
    cr_assert_eq(leftover(dir), 0, "an engine outlived yinsh (PR_SET_PDEATHSIG)");
}

Test(engines, engines_file_and_bad_options)
{
    char *dir = tmpdir_new(), *out, *err;
    char *file = path_in(dir, "engines.ini");
    FILE *f = fopen(file, "w");
    fprintf(f, "# test engines\n[good]\ncmd = %s ok '%s; quoted'\noption.seed = 4\n\n[other]\ncmd = x\n", FAKE_ENGINE,
            dir);
    fclose(f);
    const char *ok[] = {"match", "--a", "engine:good", "--engines", "engines.ini", "--b", "random", "--games", "2",
                        "--seed", "1", "--db", "m.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, ok, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "faults a     0\n"), "%s", out);
    sqlite3 *db = db_open(path_in(dir, "m.db"));
    /* the ';' of the command survives, escaped, in the stored spec */
    char *white = db_text(db, "SELECT white FROM run");
    cr_assert(strstr(white, "uyi:name=good;cmd=") && strstr(white, "\\; quoted';option.seed=4"), "%s", white);
    sqlite3_close(db);
    cr_assert_eq(leftover(dir), 0);
    /* bad input: a usage error, and no database written */
    static const char *const bad[][16] = {
        {"match", "--a", "engine:good", "--b", "random", "--games", "2", "--db", "x.db", NULL},
        {"match", "--a", "engine:nope", "--engines", "engines.ini", "--b", "random", "--games", "2", "--db", "x.db",
         NULL},
        {"match", "--a", "uyi:name=x", "--b", "random", "--games", "2", "--db", "x.db", NULL},
        {"match", "--a", "random", "--b", "random", "--games", "2", "--db", "x.db", "--tc", "ten", NULL},
        {"match", "--a", "random", "--b", "random", "--games", "2", "--db", "x.db", "--tc", "0+1", NULL},
        {"match", "--a", "random", "--b", "random", "--games", "2", "--db", "x.db", "--tc-margin", "5", NULL},
        {"match", "--a", "random", "--b", "random", "--games", "2", "--db", "x.db", "--sims", "0", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_assert_eq(yinsh_run(dir, bad[i], &out, &err), 2, "case %zu: %s", i, err);
        cr_assert(strlen(err) > 10, "case %zu: no message", i);
        cr_assert_not(file_exists(path_in(dir, "x.db")), "case %zu wrote a database", i);
    }
}

/* A match with an external engine on a clock, killed with SIGKILL, is
 * finished by --resume with its stored engine spec and controls. */
Test(engines, resume_after_kill)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *args[] = {"match", "--a", fake_spec("slowok", dir), "--b", "random", "--games", "10", "--seed", "8",
                          "--threads", "2", "--db", "m.db", "--run", "r", "--tc", "60+1", "--quiet", NULL};
    pid_t pid = yinsh_start(dir, args);
    char *db = path_in(dir, "m.db");
    for (int i = 0; i < 2000 && games_in(db) < 2; i++) {
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    kill(pid, SIGKILL);
    yinsh_wait(pid);
    cr_assert_eq(leftover(dir), 0);
    const char *resume[] = {"selfplay", "--resume", "r", "--db", "m.db", "--quiet", NULL};
    cr_assert_eq(yinsh_run(dir, resume, &out, &err), 0, "%s", err);
    sqlite3 *h = db_open(db);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game"), 10);
    cr_assert_eq(db_int(h, "SELECT count(*) FROM game WHERE reason = 'time-forfeit'"), 0);
    cr_assert_str_eq(db_text(h, "SELECT controls FROM run"), "tc=60+1,margin=100");
    cr_assert_eq(db_int(h, "SELECT count(*) FROM action WHERE state <> 'P' AND clock_us IS NULL"), 0);
    sqlite3_close(h);
    cr_assert_eq(leftover(dir), 0);
}
