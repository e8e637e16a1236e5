/* External engines as agents (docs/uyi.md, "Engines as agents"): the
 * identity of `yinsh uyi` with the internal agent, each fault of
 * tests/fake_engine.c adjudicated with its reason, no engine process left
 * behind (the process table is read), yinsh interrupted mid-match, and
 * bad engine options refused before anything is written. */
#define _GNU_SOURCE /* nftw, in test_proc.h */
#include <dirent.h>
#include <signal.h>
#include <time.h>
#include "tests/test_proc.h"

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
    mkdir(path_in(dir, "logs"), 0777); /* a log folder named must exist */
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
/* An engine that never says uyiok cannot play: the check before the
 * first game finds it (no-answer), and nothing is played or stored. */
Test(engines, no_handshake_is_no_answer)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *args[] = {"match", "--a", fake_spec("nohandshake", dir), "--b", "random", "--games", "2",
                          "--engine-timeout", "300", "--db", "m.db", NULL};
    cr_assert_eq(yinsh_run(dir, args, &out, &err), 1, "%s", err);
    cr_assert(strstr(err, "no-answer") && strstr(err, "engine-logs/fake-nohandshake-check-"), "%s", err);
    cr_assert_not(file_exists(path_in(dir, "m.db")));
    cr_assert_eq(leftover(dir), 0);
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
    /* yinsh's own command line holds the tag too, and the harness starts a
     * short-lived process to check each engine first: the engines of the
     * games run when three processes hold it on five polls in a row (two
     * once counted yinsh and a check process that then ended) */
    int seen = 0;
    for (int i = 0; i < 2000 && seen < 5; i++) {
        seen = processes_with(dir, 0) >= 3 ? seen + 1 : 0;
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    cr_assert(seen >= 5, "the engines did not start"); /* (engines end and start between games: no second look) */
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

/* ---- issue #22: every answer right at the edges ------------------------ */

#include <sys/resource.h>

static double clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* AddressSanitizer reserves terabytes of address space for its shadow
 * memory at start, so a sanitized yinsh cannot start under a cap on it. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* Runs yinsh for at most `seconds`: its exit status, or -1 when it had to
 * be killed (it ran on). Its memory is capped at 2 GiB (a reader without a
 * bound fails here instead of filling the machine), but for a sanitizer's
 * build (the other builds check the bound). */
static void cap_memory(void *ctx)
{
    (void)ctx;
#ifndef UNDER_ASAN
    struct rlimit r = {2UL << 30, 2UL << 30};
    setrlimit(RLIMIT_AS, &r);
#endif
}

static int run_within(const char *dir, const char *const *args, double seconds, char **out, char **err)
{
    pid_t pid = yinsh_spawn(dir, NULL, NULL, cap_memory, NULL, args);
    int st = 0, rc = -1;
    double end = clock_now() + seconds;
    for (;;) {
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid) {
            rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            break;
        }
        if (clock_now() > end) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            break;
        }
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    if (out) *out = slurp(path_in(dir, "out"));
    if (err) *err = slurp(path_in(dir, "err"));
    return rc;
}

/* The default `yinsh uyi` (best: depth 5, maxdepth 64) answers the
 * match's `go sims N` (a node budget for alpha-beta): no game is lost by
 * no-answer. */
Test(engines, the_default_yinsh_engine_answers_go_sims)
{
    char *dir = tmpdir_new(), *out, *err;
    char ext[512];
    snprintf(ext, sizeof ext, "uyi:name=best;cmd=%s uyi", YINSH_BIN);
    const char *args[] = {"match", "--a", ext, "--b", "random", "--games", "2", "--seed", "4", "--threads", "2",
                          "--sims", "1000", "--engine-timeout", "20000", "--db", "m.db", "--quiet", NULL};
    cr_assert_eq(run_within(dir, args, 240, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "faults a     0\n"), "%s", out);
}

/* Engines files: a long comment line is one line (its tail is no `cmd`),
 * a key given twice in a section is an error naming its line, and a file
 * that is no text (/dev/zero) is refused at once; a book too. */
Test(engines, engines_file_lines_keys_and_size)
{
    char *dir = tmpdir_new(), *out, *err;
    char text[4096], pad[1031];
    memset(pad, ' ', sizeof pad - 1);
    pad[sizeof pad - 1] = '\0';
    snprintf(text, sizeof text, "[e]\ncmd = %s ok %s\n#%scmd = /bin/false\n", FAKE_ENGINE, dir, pad);
    write_in(dir, "long.ini", text);
    const char *ok[] = {"match", "--a", "engine:e", "--engines", "long.ini", "--b", "random", "--games", "2",
                        "--seed", "1", "--db", "m.db", "--quiet", NULL};
    cr_assert_eq(run_within(dir, ok, 60, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "faults a     0\n"), "the comment's tail ran as the engine:\n%s", out);
    sqlite3 *db = db_open(path_in(dir, "m.db"));
    cr_assert(strstr(db_text(db, "SELECT white FROM run"), FAKE_ENGINE), "%s", db_text(db, "SELECT white FROM run"));
    sqlite3_close(db);

    write_in(dir, "twice.ini", "[e]\ncmd = x\n\ncmd = y\n");
    const char *twice[] = {"match", "--a", "engine:e", "--engines", "twice.ini", "--b", "random", "--games", "2",
                           "--db", "x.db", NULL};
    cr_assert_eq(run_within(dir, twice, 30, &out, &err), 2, "%s", err);
    cr_assert(strstr(err, "twice.ini:4") && strstr(err, "cmd"), "%s", err);

    const char *zero[] = {"match", "--a", "engine:e", "--engines", "/dev/zero", "--b", "random", "--games", "2",
                          "--db", "x.db", NULL};
    cr_assert_neq(run_within(dir, zero, 20, &out, &err), -1, "--engines /dev/zero ran on");
    cr_assert(strstr(err, "/dev/zero"), "%s", err);
    const char *book[] = {"match", "--a", "random", "--b", "random", "--games", "2", "--book", "/dev/zero", "--db",
                          "x.db", NULL};
    int rc = run_within(dir, book, 20, &out, &err);
    cr_assert(rc == 1 && strstr(err, "/dev/zero"), "--book /dev/zero: status %d: %s", rc, err);
    cr_assert_not(file_exists(path_in(dir, "x.db")));
}

/* An engine's standard error is logged up to a bound (1 MiB), then one
 * line says the rest was cut; the games go on. */
Test(engines, engine_logs_are_capped)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *args[] = {"match", "--a", fake_spec("chatty", dir), "--b", "random", "--games", "2", "--seed", "2",
                          "--threads", "1", "--db", "m.db", "--quiet", NULL};
    cr_assert_eq(run_within(dir, args, 120, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "faults a     0\n"), "%s", out);
    char *logs = path_in(dir, "engine-logs");
    DIR *d = opendir(logs);
    cr_assert(d);
    int files = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        struct stat sb;
        char *path = path_in(logs, e->d_name);
        cr_assert(stat(path, &sb) == 0);
        if (!strstr(e->d_name, "-check-")) {
            files++;
            cr_assert(sb.st_size <= (1 << 20) + 512, "%s holds %lld bytes", e->d_name, (long long)sb.st_size);
            cr_assert(strstr(slurp(path), "yinsh: the rest of the engine's standard error was cut"), "%s", e->d_name);
        }
    }
    closedir(d);
    cr_assert_eq(files, 1);
}

/* A broken engine setup stops before the first game, with the reason and
 * the engine's log on stderr (as cutechess-cli does): status 1 (2 for a
 * spec that cannot be run at all), nothing stored, no engine left; in
 * every command that plays engines. */
Test(engines, a_broken_setup_stops_before_the_first_game)
{
    char *dir = tmpdir_new(), *out, *err;
    write_in(dir, "afile", "not a folder\n");
    char nohs[512], ok[512];
    snprintf(nohs, sizeof nohs, "%s", fake_spec("nohandshake", dir));
    snprintf(ok, sizeof ok, "%s", fake_spec("ok", dir));
    struct {
        const char *spec, *extra[3];
        int rc;
        const char *says[2];
    } cases[] = {
        {"uyi:name=none;cmd=/nonexistent/eng", {NULL}, 1, {"/nonexistent/eng", "log"}},
        {"uyi:name=q;cmd=\"unclosed", {NULL}, 2, {"unclosed quote", NULL}},
        {nohs, {"--engine-timeout", "300", NULL}, 1, {"no-answer", "log"}},
        {ok, {"--engine-logs", "afile", NULL}, 1, {"afile", "not a folder"}},
        {ok, {"--engine-logs", "missing/deeper", NULL}, 1, {"missing/deeper", "cannot make"}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *args[24] = {"match", "--a", cases[i].spec, "--b", "random", "--games", "4", "--db", "x.db"};
        int n = 9;
        for (int k = 0; cases[i].extra[k]; k++) args[n++] = cases[i].extra[k];
        args[n] = NULL;
        int rc = run_within(dir, args, 60, &out, &err);
        cr_assert_eq(rc, cases[i].rc, "case %zu: status %d: %s", i, rc, err);
        for (int k = 0; k < 2; k++)
            if (cases[i].says[k]) cr_assert(strstr(err, cases[i].says[k]), "case %zu: no '%s' in: %s", i, cases[i].says[k], err);
        cr_assert_not(file_exists(path_in(dir, "x.db")), "case %zu stored a database", i);
        cr_assert_not(file_exists(path_in(dir, "missing")), "case %zu made the log folder", i);
    }
    /* the other commands that play engines */
    const char *none = "uyi:name=none;cmd=/nonexistent/eng";
    char study[1024];
    snprintf(study, sizeof study, "[study]\nname = s\nseed = 1\nvariants = standard\ngames = 2\ndb = y.db\n\n"
                                  "[agent e]\nspec = %s\n", none);
    write_in(dir, "s.ini", study);
    char p1[600];
    snprintf(p1, sizeof p1, "e=%s", none);
    const char *const commands[][16] = {
        {"selfplay", "--white", none, "--black", "random", "--games", "2", "--db", "y.db", NULL},
        {"tournament", "--p", p1, "--p", "r=random", "--games", "2", "--seed", "1", "--db", "y.db", NULL},
        {"study", "s.ini", NULL},
    };
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        int rc = run_within(dir, commands[i], 60, &out, &err);
        cr_assert_eq(rc, 1, "%s: status %d: %s", commands[i][0], rc, err);
        cr_assert(strstr(err, "/nonexistent/eng"), "%s: %s", commands[i][0], err);
        cr_assert_not(file_exists(path_in(dir, "y.db")) && file_nonempty(path_in(dir, "y.db")) &&
                          db_int(db_open(path_in(dir, "y.db")), "SELECT count(*) FROM run") > 0,
                      "%s stored a run", commands[i][0]);
    }
    cr_assert_eq(leftover(dir), 0);
}

/* After an illegal action the engine is started again, as after every
 * fault: what it wrote after its answer does not leak into the next game
 * (which would then be an engine-error). */
Test(engines, illegal_action_restarts_the_engine)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *args[] = {"match", "--a", fake_spec("illegalmore", dir), "--b", "random", "--games", "2", "--seed",
                          "3", "--threads", "1", "--db", "m.db", "--engine-logs", "logs", "--quiet", NULL};
    mkdir(path_in(dir, "logs"), 0777);
    cr_assert_eq(run_within(dir, args, 60, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "faults a     2 (illegal-action 2)"), "%s", out);
    DIR *d = opendir(path_in(dir, "logs"));
    int games = 0;
    for (struct dirent *e; (e = readdir(d));)
        games += e->d_name[0] != '.' && !strstr(e->d_name, "-check-") && strstr(e->d_name, ".log"); /* not .uyi */
    closedir(d);
    cr_assert_eq(games, 2, "one engine process per game (the first was ended at its fault)");
    cr_assert_eq(leftover(dir), 0);
}

/* A child of the engine in a session of its own dies with the engine:
 * when the match ends, and when a fault ends the engine. */
Test(engines, an_engine_childs_own_session_dies_too)
{
    static const char *const modes[] = {"setsid-ok", "setsid-crash"};
    for (int k = 0; k < 2; k++) {
        char *dir = tmpdir_new(), *out, *err;
        const char *args[] = {"match", "--a", fake_spec(modes[k], dir), "--b", "random", "--games", "2", "--seed",
                              "3", "--threads", "1", "--db", "m.db", "--quiet", NULL};
        cr_assert_eq(run_within(dir, args, 60, &out, &err), 0, "%s: %s", modes[k], err);
        cr_assert_eq(leftover(dir), 0, "%s: the engine's child outlived yinsh", modes[k]);
    }
}

/* An engine that closes its output (but not its input) died: the harness
 * sees the end of its output at once, instead of waiting for an answer. */
Test(engines, closing_its_output_is_engine_died)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *args[] = {"match", "--a", fake_spec("closeout", dir), "--b", "random", "--games", "2", "--seed", "3",
                          "--threads", "1", "--engine-timeout", "30000", "--db", "m.db", "--quiet", NULL};
    double t0 = clock_now();
    cr_assert_eq(run_within(dir, args, 120, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "faults a     2 (engine-died 2)"), "%s", out);
    cr_assert(clock_now() - t0 < 25, "the harness waited for an answer (%.1f s)", clock_now() - t0);
    cr_assert_eq(leftover(dir), 0);
}

/* An engine that announces bounds for its seed and checks them gets a
 * seed within them (docs/protocol.md §6), different from game to game:
 * no game is an engine error. */
Test(engines, seed_respects_the_announced_bounds)
{
    char *dir = tmpdir_new(), *out, *err;
    const char *args[] = {"match", "--a", fake_spec("seedbound", dir), "--b", "random", "--games", "4", "--seed", "5",
                          "--threads", "1", "--db", "m.db", NULL};
    cr_assert_eq(run_within(dir, args, 120, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "faults a     0\n"), "%s", out);
    DIR *d = opendir(path_in(dir, "engine-logs"));
    cr_assert(d);
    int seeds = 0;
    long first = -1;
    bool differ = false;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.' || strstr(e->d_name, "-check-")) continue;
        char *text = slurp(path_in(path_in(dir, "engine-logs"), e->d_name));
        for (char *p = text; (p = strstr(p, "seed ")); p += 5) {
            long v = strtol(p + 5, NULL, 10);
            cr_assert(v >= 0 && v <= 1000, "%s", text);
            if (first < 0) first = v;
            differ |= v != first;
            seeds++;
        }
    }
    closedir(d);
    cr_assert_eq(seeds, 4, "one seed a game");
    cr_assert(differ, "every game got seed %ld", first);
}

/* Every files in the folder whose name ends so (but the checks'). */
static int files_ending(const char *folder, const char *end, char **last)
{
    DIR *d = opendir(folder);
    cr_assert(d, "%s", folder);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || strstr(e->d_name, "-check-") || len < strlen(end) ||
            strcmp(e->d_name + len - strlen(end), end))
            continue;
        n++;
        if (last) *last = path_in(folder, e->d_name);
    }
    closedir(d);
    return n;
}

/* --engine-logs DIR: a folder that does not exist is made (its parent
 * exists), and each engine's conversation is transcribed beside its log
 * without --engine-transcript: the folder asked for is one to read (issue
 * 56: it was refused, and held the engine's stderr alone). */
Test(engines, engine_logs_makes_its_folder_and_transcribes)
{
    char *dir = tmpdir_new(), *out, *err, *path = NULL;
    const char *args[] = {"match", "--a", fake_spec("ok", dir), "--b", "random", "--games", "2", "--seed", "3",
                          "--threads", "1", "--db", "m.db", "--quiet", "--engine-logs", "new-logs", NULL};
    cr_assert_eq(run_within(dir, args, 60, &out, &err), 0, "%s", err);
    char *logs = path_in(dir, "new-logs");
    cr_assert(files_ending(logs, ".log", NULL) >= 1);
    cr_assert(files_ending(logs, ".uyi", &path) >= 1);
    DIR *d = opendir(logs);
    char *game = NULL;
    for (struct dirent *e; (e = readdir(d));)
        if (strstr(e->d_name, ".uyi") && !strstr(e->d_name, "-check-")) game = path_in(logs, e->d_name);
    closedir(d);
    cr_assert(game, "a game's transcript");
    char *t = slurp(game);
    cr_assert(strstr(t, "] > uyi\n") && strstr(t, "] > go") && strstr(t, "] < bestmove "), "%s", t);
}

/* --engine-transcript: each engine process's conversation beside its log
 * (NAME-...-PID.uyi), what was sent (>) and read (<) with its time, the
 * fault noted (!), capped as the logs are; refused without an external
 * engine or a log folder. */
Test(engines, transcripts_of_the_conversation)
{
    char *dir = tmpdir_new(), *out, *err, *path = NULL;
    const char *args[] = {"match", "--a", fake_spec("illegal", dir), "--b", "random", "--games", "2", "--seed", "3",
                          "--threads", "1", "--db", "m.db", "--quiet", "--engine-transcript", NULL};
    cr_assert_eq(run_within(dir, args, 60, &out, &err), 0, "%s", err);
    char *logs = path_in(dir, "engine-logs");
    cr_assert_eq(files_ending(logs, ".uyi", &path), 2, "one transcript per engine process");
    char *t = slurp(path);
    cr_assert(strstr(t, "] > uyi\n") && strstr(t, "] < uyiok\n") && strstr(t, "] > isready\n") &&
                  strstr(t, "] < readyok\n") && strstr(t, "] > newgame\n") && strstr(t, "] > position startpos") &&
                  strstr(t, "] > go\n") && strstr(t, "] < bestmove k1\n") && strstr(t, "] ! yinsh: illegal-action: "),
              "%s", t);
    /* the checks' handshake has one too */
    DIR *d = opendir(logs);
    int checks = 0;
    for (struct dirent *e; (e = readdir(d));) checks += strstr(e->d_name, "-check-") && strstr(e->d_name, ".uyi");
    closedir(d);
    cr_assert_eq(checks, 1);

    /* capped at 1 MiB, then a line says so; the games go on */
    char *dir2 = tmpdir_new();
    const char *chat[] = {"match", "--a", fake_spec("talkative", dir2), "--b", "random", "--games", "2", "--seed",
                          "2", "--threads", "1", "--db", "m.db", "--quiet", "--engine-transcript", NULL};
    cr_assert_eq(run_within(dir2, chat, 120, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "faults a     0\n"), "%s", out);
    cr_assert_eq(files_ending(path_in(dir2, "engine-logs"), ".uyi", &path), 1);
    struct stat sb;
    cr_assert(stat(path, &sb) == 0);
    cr_assert(sb.st_size <= (1 << 20) + 512, "%lld bytes", (long long)sb.st_size);
    cr_assert(strstr(slurp(path), "yinsh: the rest of the transcript was cut"));

    /* refused: no external engine; no log folder (--no-db) */
    const char *internal[] = {"match", "--a", "random", "--b", "random", "--games", "2", "--db", "x.db",
                              "--engine-transcript", NULL};
    cr_assert_eq(run_within(dir, internal, 30, &out, &err), 2, "%s", err);
    cr_assert(strstr(err, "--engine-transcript") && strstr(err, "external"), "%s", err);
    const char *nodb[] = {"match", "--a", fake_spec("ok", dir), "--b", "random", "--games", "2", "--no-db",
                          "--engine-transcript", NULL};
    cr_assert_eq(run_within(dir, nodb, 30, &out, &err), 2, "%s", err);
    cr_assert(strstr(err, "--engine-logs"), "%s", err);
    cr_assert_not(file_exists(path_in(dir, "x.db")));
}
