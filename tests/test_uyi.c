/* test_uyi: `yinsh uyi` as a child process on pipes (docs/protocol.md): the
 * handshake, a sims search equal to the internal agent's with the same
 * seed, isready and stop during `go infinite`, movetime and a clock share
 * kept within generous bounds (never a speed figure), malformed commands
 * answered without dying, quit, an external agent refused; the command
 * reader and the clock policy (selfplay/uyi/command.c) as functions; and
 * the server (selfplay/uyi/server/) in this process on memory streams. */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include <criterion/criterion.h>
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "selfplay/agents/agent.h"
#include "engine/base/clock.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "selfplay/uyi/command.h"
#include "selfplay/uyi/engine.h"
#include "selfplay/uyi/server/server.h"

typedef struct Child {
    pid_t pid;
    int in, out; /* our ends: the engine's stdin, its stdout */
    char buf[1 << 16];
    size_t len;
} Child;

static void child_start(Child *c, const char *agent)
{
    int to[2], from[2];
    cr_assert(pipe(to) == 0 && pipe(from) == 0);
    c->pid = fork();
    cr_assert(c->pid >= 0);
    if (c->pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[0]), close(to[1]), close(from[0]), close(from[1]);
        if (agent) execl(YINSH_BIN, YINSH_BIN, "uyi", "--agent", agent, (char *)NULL);
        else execl(YINSH_BIN, YINSH_BIN, "uyi", (char *)NULL);
        _exit(127);
    }
    close(to[0]), close(from[1]);
    c->in = to[1];
    c->out = from[0];
    c->len = 0;
    signal(SIGPIPE, SIG_IGN);
}

static void child_send_n(Child *c, const char *data, size_t n)
{
    for (size_t off = 0; off < n;) {
        ssize_t w = write(c->in, data + off, n - off);
        cr_assert(w > 0, "write to the engine");
        off += (size_t)w;
    }
}

static void child_send(Child *c, const char *line) { child_send_n(c, line, strlen(line)); }

/* The next line of the engine (no '\n') into out, within timeout seconds;
 * false on a timeout or the end of its output. */
static bool child_line(Child *c, char *out, size_t size, double timeout)
{
    double end = clock_now() + timeout;
    for (;;) {
        char *nl = memchr(c->buf, '\n', c->len);
        if (nl) {
            size_t n = (size_t)(nl - c->buf);
            snprintf(out, size, "%.*s", (int)n, c->buf);
            memmove(c->buf, nl + 1, c->len - n - 1);
            c->len -= n + 1;
            return true;
        }
        double left = end - clock_now();
        if (left <= 0 || c->len == sizeof c->buf) return false;
        struct pollfd p = {.fd = c->out, .events = POLLIN};
        if (poll(&p, 1, (int)(left * 1000) + 1) <= 0) continue;
        ssize_t got = read(c->out, c->buf + c->len, sizeof c->buf - c->len);
        if (got <= 0) return false;
        c->len += (size_t)got;
    }
}

/* Reads lines until one starting with prefix (copied to out); fails the
 * test on a timeout. */
static void child_expect(Child *c, const char *prefix, char *out, size_t size, double timeout)
{
    char line[4096];
    double end = clock_now() + timeout;
    while (clock_now() < end) {
        if (!child_line(c, line, sizeof line, end - clock_now())) break;
        if (!strncmp(line, prefix, strlen(prefix))) {
            if (out) snprintf(out, size, "%s", line);
            return;
        }
    }
    cr_assert_fail("no line starting with '%s' within %.1f s", prefix, timeout);
}

/* quit, then the exit status (fails after 10 s). */
static int child_quit(Child *c)
{
    child_send(c, "quit\n");
    close(c->in);
    int status = -1;
    for (int i = 0; i < 1000; i++) {
        pid_t w = waitpid(c->pid, &status, WNOHANG);
        if (w == c->pid) {
            close(c->out);
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        }
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    kill(c->pid, SIGKILL);
    waitpid(c->pid, &status, 0);
    cr_assert_fail("the engine did not exit within 10 s of quit");
    return -1;
}

Test(uyi, handshake)
{
    Child c;
    char line[4096];
    child_start(&c, "mcts:sims=300");
    child_send(&c, "uyi\n");
    cr_assert(child_line(&c, line, sizeof line, 10));
    cr_assert(!strncmp(line, "id name ", 8), "first line: %s", line);
    bool sims = false, seed = false;
    for (;;) {
        cr_assert(child_line(&c, line, sizeof line, 10), "no uyiok");
        if (!strcmp(line, "uyiok")) break;
        if (!strcmp(line, "option name sims type spin default 300 min 1 max 10000000")) sims = true;
        if (!strncmp(line, "option name seed type spin default 0 ", 37)) seed = true;
    }
    cr_assert(sims && seed, "the sims and seed options were announced");
    child_send(&c, "isready\n");
    cr_assert(child_line(&c, line, sizeof line, 10) && !strcmp(line, "readyok"));
    cr_assert_eq(child_quit(&c), 0);
}

/* The action the internal agent chooses with the engine's seeding: the
 * stream rng_stream(seed, 0), as after newgame or setoption seed. */
static void internal_choice(const char *spec_text, uint64_t seed, const char *const *moves, char *out)
{
    AgentSpec spec;
    Agent *agent;
    char err[ERR_LEN];
    cr_assert(agent_spec_parse(spec_text, &spec, err) == 0, "%s", err);
    cr_assert(agent_new(&agent, &spec, err) == 0, "%s", err);
    agent_spec_release(&spec); /* the agent holds its own reference to a net */
    Position pos;
    pos_start(&pos, VARIANT_STANDARD);
    for (int i = 0; moves[i]; i++) {
        Action a;
        Undo u;
        cr_assert(action_parse(&pos, moves[i], &a, err) == 0, "%s", err);
        pos_make(&pos, a, &u);
    }
    Rng rng;
    rng_stream(&rng, seed, 0);
    action_format(agent_choose(agent, &pos, &rng, NULL), out);
    agent_free(agent);
}

Test(uyi, sims_search_is_the_internal_agents)
{
    static const char *const placements[] = {"e5", "f6", NULL};
    static const char *const later[] = {"e5", "f6", "e4", "f7", "e6", "f8", "d5", "g6", "c5", "h6", NULL};
    const struct {
        const char *const *moves;
        const char *line;
        uint64_t seed;
    } cases[] = {
        {placements, "position startpos moves e5 f6\n", 7},
        {later, "position startpos moves e5 f6 e4 f7 e6 f8 d5 g6 c5 h6\n", 12345},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        Child c;
        char line[4096], want[ACTION_MAX_LEN], opt[64];
        internal_choice("mcts:sims=400", cases[k].seed, cases[k].moves, want);
        child_start(&c, "mcts");
        child_send(&c, "uyi\n");
        child_expect(&c, "uyiok", NULL, 0, 10);
        snprintf(opt, sizeof opt, "setoption name seed value %llu\n", (unsigned long long)cases[k].seed);
        child_send(&c, opt);
        child_send(&c, "setoption name sims value 400\n");
        child_send(&c, "newgame\n");
        child_send(&c, cases[k].line);
        child_send(&c, "go sims 400\n");
        child_expect(&c, "info sims 400 ", NULL, 0, 60);
        child_expect(&c, "bestmove ", line, sizeof line, 60);
        cr_assert_str_eq(line + 9, want, "case %zu: engine %s, internal agent %s", k, line + 9, want);
        cr_assert_eq(child_quit(&c), 0);
    }
}

/* Without --agent the engine is `best`, the strongest agent measured:
 * alpha-beta on the tuned weights (agent.h), named in its id; it answers
 * under a clock (deepening while its time lasts), and it searches as the
 * internal `best` does: at depth 2 (its depth 5 takes too long for a test;
 * maxdepth 0 makes the depth the cap of a `go` without a clock too) it
 * chooses what `best:depth=2` chooses, on positions where alpha-beta on
 * the built-in weights chooses otherwise, so the choice shows the weights. */
Test(uyi, default_agent_is_best)
{
    static const char *const placements[] = {"e5", "f6", NULL};
    static const char *const placed[] = {"e5", "f6", "e4", "f7", "e6", "f8", "d5", "g6", "c5", "h6", NULL};
    const struct {
        const char *const *moves;
        const char *line;
    } cases[] = {
        {placements, "position startpos moves e5 f6\n"},
        {placed, "position startpos moves e5 f6 e4 f7 e6 f8 d5 g6 c5 h6\n"},
    };
    Child c;
    char line[512];
    child_start(&c, NULL);
    child_send(&c, "uyi\n");
    child_expect(&c, "id name ", line, sizeof line, 10);
    cr_assert(strstr(line, "ab:depth=5,") && strstr(line, ",eval=net:eval/nets/patterns32.nnue"), "%s", line);
    cr_assert(strstr(line, ",maxdepth=64,"), "deepens while its time lasts: %s", line);
    child_expect(&c, "option name depth ", NULL, 0, 10);
    child_expect(&c, "option name maxdepth type spin default 64 ", NULL, 0, 10);
    child_expect(&c, "option name movetime type spin default 0 ", NULL, 0, 10);
    child_expect(&c, "uyiok", NULL, 0, 10);
    child_send(&c, "position startpos moves e5 f6\ngo movetime 50\n");
    child_expect(&c, "bestmove ", line, sizeof line, 10);
    cr_assert(strcmp(line, "bestmove none"), "a legal action");
    child_send(&c, "setoption name depth value 2\nsetoption name maxdepth value 0\n");
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char want[ACTION_MAX_LEN], plain[ACTION_MAX_LEN];
        internal_choice("best:depth=2", 0, cases[k].moves, want);
        internal_choice("ab:depth=2", 0, cases[k].moves, plain);
        cr_assert_str_neq(want, plain, "case %zu: the built-in weights choose %s as well", k, want);
        child_send(&c, cases[k].line);
        child_send(&c, "go\n");
        child_expect(&c, "bestmove ", line, sizeof line, 60);
        cr_assert_str_eq(line + 9, want, "case %zu: engine %s, internal best %s", k, line + 9, want);
    }
    cr_assert_eq(child_quit(&c), 0);
}

/* An external engine speaks UYI itself: yinsh uyi does not wrap one (a
 * usage error, before it reads a line). */
Test(uyi, external_agent_is_refused)
{
    Child c;
    child_start(&c, "uyi:cmd=./engine");
    close(c.in);
    int status;
    cr_assert_eq(waitpid(c.pid, &status, 0), c.pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 2, "status %d", status);
    close(c.out);
}

Test(uyi, isready_and_stop_during_infinite)
{
    Child c;
    char line[4096];
    child_start(&c, "mcts");
    child_send(&c, "uyi\n");
    child_expect(&c, "uyiok", NULL, 0, 10);
    child_send(&c, "position startpos moves e5\ngo infinite\n");
    struct timespec ts = {0, 200000000};
    nanosleep(&ts, NULL);
    child_send(&c, "isready\n");
    /* the first line after the go must be readyok: no bestmove before stop */
    cr_assert(child_line(&c, line, sizeof line, 5), "no answer to isready during a search");
    cr_assert_str_eq(line, "readyok");
    child_send(&c, "go sims 5\n"); /* refused: a search is running */
    child_expect(&c, "info string error", NULL, 0, 5);
    cr_assert(!child_line(&c, line, sizeof line, 0.3), "nothing more before stop, got '%s'", line);
    child_send(&c, "stop\n");
    child_expect(&c, "bestmove ", line, sizeof line, 5);
    cr_assert(strcmp(line, "bestmove none"), "a legal action");
    cr_assert_eq(child_quit(&c), 0);
}

Test(uyi, movetime_and_clock_respected)
{
    Child c;
    char line[4096];
    child_start(&c, "mcts");
    child_send(&c, "uyi\n");
    child_expect(&c, "uyiok", NULL, 0, 10);
    child_send(&c, "position startpos moves e5 f6\n");
    double t0 = clock_now();
    child_send(&c, "go movetime 300\n");
    child_expect(&c, "bestmove ", line, sizeof line, 10);
    double took = clock_now() - t0;
    cr_assert(took >= 0.25 && took < 3.0, "go movetime 300 took %.3f s", took);
    /* a clock of 2 s without increment: a share of 100 ms */
    t0 = clock_now();
    child_send(&c, "go wtime 2000 btime 2000\n");
    child_expect(&c, "bestmove ", line, sizeof line, 10);
    took = clock_now() - t0;
    cr_assert(took >= 0.05 && took < 1.9, "go wtime 2000 took %.3f s", took);
    cr_assert_eq(child_quit(&c), 0);
}

Test(uyi, malformed_commands_do_not_kill)
{
    Child c;
    char line[4096];
    child_start(&c, "mcts");
    const char *bad[] = {"frobnicate\n", "position\n", "position startpos moves zz\n",
                         "position ypn 1/2/3 w P standard\n", "setoption name nonsense value 3\n",
                         "setoption name sims value -4\n", "setoption sims\n", "isready now\n",
                         "position startpos variant huge\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        child_send(&c, bad[i]);
        cr_assert(child_line(&c, line, sizeof line, 5), "no answer to %s", bad[i]);
        cr_assert(!strncmp(line, "info string error ", 18), "answer to %s: %s", bad[i], line);
    }
    /* a refused position keeps the previous one; go with a bad token runs */
    child_send(&c, "position startpos moves e5\nposition startpos moves e5 e5\ngo sims 20 bogus\n");
    child_expect(&c, "info string error", NULL, 0, 5);
    child_expect(&c, "info string error", NULL, 0, 5);
    child_expect(&c, "bestmove ", line, sizeof line, 10);
    cr_assert(strcmp(line, "bestmove e5"), "e5 is taken after the kept position");
    child_send(&c, "stop\nisready\n"); /* stop with no search: ignored */
    cr_assert(child_line(&c, line, sizeof line, 5) && !strcmp(line, "readyok"), "got %s", line);
    cr_assert_eq(child_quit(&c), 0);
}

Test(uyi, no_legal_action_is_bestmove_none)
{
    Child c;
    char line[4096];
    child_start(&c, "mcts");
    /* a blitz game over by a row: state '-' */
    child_send(&c, "position ypn W2B/W5B/8/9/wwwww5/3W5/10/9/8/6B/WWBB w - blitz\ngo sims 10\n");
    child_expect(&c, "bestmove ", line, sizeof line, 10);
    cr_assert_str_eq(line, "bestmove none");
    cr_assert_eq(child_quit(&c), 0);
}

Test(uyi, quit_during_search_exits_0)
{
    Child c;
    child_start(&c, "mcts");
    child_send(&c, "go infinite\n");
    cr_assert_eq(child_quit(&c), 0);
}

/* The reader as a function. */
Test(uyi, reader)
{
    static UyiCommand c;
    char err[ERR_LEN];
    cr_assert(uyi_parse("  \r\n", &c, err) == 0 && c.kind == UYI_EMPTY);
    cr_assert(uyi_parse("isready\r\n", &c, err) == 0 && c.kind == UYI_ISREADY);
    cr_assert(uyi_parse("setoption name Some Name value a b  c \n", &c, err) == 0);
    cr_assert_str_eq(c.name, "Some Name");
    cr_assert_str_eq(c.value, "a b  c");
    cr_assert(uyi_parse("position startpos variant blitz moves e5 f6", &c, err) == 0);
    cr_assert(c.kind == UYI_POSITION && c.nactions == 2 && c.base.variant == VARIANT_BLITZ);
    cr_assert(uyi_parse("go\tsims 10 wtime 100 btime -5 winc 1 binc 2 movetime 7 infinite", &c, err) == 0);
    cr_assert(c.go.sims == 10 && c.go.wtime == 100 && c.go.btime == 0 && c.go.winc == 1 && c.go.binc == 2 &&
              c.go.movetime == 7 && c.go.infinite && !c.warning[0]);
    cr_assert(uyi_parse("go sims x nodes 5 movetime 9", &c, err) == 0);
    cr_assert(c.go.sims == -1 && c.go.movetime == 9 && strstr(c.warning, "'sims'") && strstr(c.warning, "'nodes'"),
              "%s", c.warning);
    cr_assert(uyi_parse("position startpos moves e5 e5", &c, err) == -1 && strstr(err, "action 2"), "%s", err);
    cr_assert(uyi_parse("uyi extra", &c, err) == -1);
    cr_assert(uyi_parse("setoption name x", &c, err) == -1);
}

Test(uyi, clock_policy)
{
    UyiGo g = {.sims = -1, .movetime = -1, .wtime = -1, .btime = -1, .winc = -1, .binc = -1};
    cr_assert_eq(uyi_budget_ms(&g, WHITE), -1);
    g.movetime = 250;
    cr_assert_eq(uyi_budget_ms(&g, WHITE), 250);
    g.movetime = -1, g.wtime = 10000, g.winc = 100, g.btime = 60000;
    cr_assert_eq(uyi_budget_ms(&g, WHITE), 500 + 80);
    cr_assert_eq(uyi_budget_ms(&g, BLACK), 3000);
    g.wtime = 1000, g.winc = 5000; /* the increment never takes the share past the flag */
    cr_assert_eq(uyi_budget_ms(&g, WHITE), 1000 - UYI_SAFETY_MS);
    g.wtime = 20, g.winc = 0;
    cr_assert_eq(uyi_budget_ms(&g, WHITE), 1);
    g.wtime = 10000, g.movetime = 100; /* both: the smaller */
    cr_assert_eq(uyi_budget_ms(&g, WHITE), 100);
    g.infinite = true;
    cr_assert_eq(uyi_budget_ms(&g, WHITE), -1);
}

/* ---- issue #22: every answer right at the edges ------------------------ */

/* A position with ring moves (state M), White to act: the P. */
#define MOVES_YPN "4/7/5B2/6B2/8BW/6B2/4B1W2W/3W4W/8/7/4 w M standard"

/* The internal agent's choice at a YPN under search limits (NULL: none),
 * from a fresh agent and rng_stream(0, 0), as a fresh engine has it. */
static void internal_choice_at(const char *spec_text, const char *ypn, const SearchLimits *lim, char *out,
                               MoveStats *st)
{
    AgentSpec spec;
    Agent *agent;
    char err[ERR_LEN];
    Position pos;
    cr_assert(agent_spec_parse(spec_text, &spec, err) == 0, "%s", err);
    cr_assert(agent_new(&agent, &spec, err) == 0, "%s", err);
    agent_spec_release(&spec); /* the agent holds its own reference to a net */
    cr_assert(ypn_parse(ypn, &pos, err) == 0, "%s", err);
    Rng rng;
    rng_stream(&rng, 0, 0);
    action_format(agent_choose_limited(agent, &pos, &rng, lim, st), out);
    agent_free(agent);
}

/* The figure after `key ` in an info line; -1 when it has none. */
static long long info_field(const char *line, const char *key)
{
    char k[32];
    snprintf(k, sizeof k, " %s ", key);
    const char *p = strstr(line, k);
    return p ? strtoll(p + strlen(k), NULL, 10) : -1;
}

/* A plain `go` ends by itself and plays as the agent plays in selfplay:
 * best's maxdepth (64) is the cap under a deadline only, so best:depth=2
 * searches depth 2 although the engine always holds a stop flag. */
Test(uyi, plain_go_ends_and_plays_as_the_agent)
{
    char want[ACTION_MAX_LEN], line[4096];
    MoveStats st;
    internal_choice_at("best:depth=2", MOVES_YPN, NULL, want, &st);
    Child c;
    child_start(&c, "best:depth=2");
    child_send(&c, "uyi\n");
    child_expect(&c, "uyiok", NULL, 0, 10);
    child_send(&c, "position ypn " MOVES_YPN "\ngo\n");
    child_expect(&c, "bestmove ", line, sizeof line, 30);
    cr_assert_str_eq(line + 9, want, "engine %s, internal best:depth=2 %s", line + 9, want);
    cr_assert_eq(child_quit(&c), 0);
}

/* `go sims N` is a node budget for alpha-beta: the default agent (best,
 * depth 5, maxdepth 64) answers, visits at most N positions (past depth 1,
 * which is always completed), and chooses as the internal agent does with
 * the same budget: a node budget, unlike a clock, is reproducible. */
Test(uyi, go_sims_is_a_node_budget_for_alphabeta)
{
    char want[ACTION_MAX_LEN], line[4096];
    MoveStats st;
    SearchLimits lim = {.sims = 3000};
    internal_choice_at("best", MOVES_YPN, &lim, want, &st);
    cr_assert(st.sims <= 3000 && st.sims > 0, "internal: %u positions", (unsigned)st.sims);
    Child c;
    child_start(&c, NULL);
    child_send(&c, "uyi\n");
    child_expect(&c, "uyiok", NULL, 0, 10);
    for (int round = 0; round < 2; round++) {
        char info[4096] = "";
        child_send(&c, "newgame\nposition ypn " MOVES_YPN "\ngo sims 3000\n");
        for (;;) {
            cr_assert(child_line(&c, line, sizeof line, 30), "round %d: no bestmove to go sims", round);
            if (!strncmp(line, "info string", 11)) cr_assert_fail("round %d: %s", round, line);
            if (!strncmp(line, "info ", 5)) snprintf(info, sizeof info, "%s", line);
            if (!strncmp(line, "bestmove ", 9)) break;
        }
        cr_assert_str_eq(line + 9, want, "round %d: engine %s, internal %s", round, line + 9, want);
        long long nodes = info_field(info, "nodes");
        cr_assert(nodes > 0 && nodes <= 3000, "round %d: %s", round, info);
        cr_assert_eq(nodes, (long long)st.sims, "round %d: %s", round, info);
    }
    cr_assert_eq(child_quit(&c), 0);
}

/* `go depth D` for alpha-beta: an info line for each depth completed
 * (depth, score, winprob, nodes, nps, time, pv), and the choice of the
 * internal agent of that depth. An MCTS engine has no depth: the word is
 * refused with info string error, and the go still answers. */
Test(uyi, go_depth_reports_each_depth)
{
    char want[ACTION_MAX_LEN], line[4096];
    MoveStats st;
    internal_choice_at("ab:depth=3,tt=1", MOVES_YPN, NULL, want, &st);
    Child c;
    child_start(&c, "ab:depth=1,tt=1");
    child_send(&c, "uyi\n");
    child_expect(&c, "uyiok", NULL, 0, 10);
    child_send(&c, "position ypn " MOVES_YPN "\ngo depth 3\n");
    int next = 1;
    for (;;) {
        cr_assert(child_line(&c, line, sizeof line, 30), "no bestmove to go depth 3");
        if (!strncmp(line, "bestmove ", 9)) break;
        cr_assert(strncmp(line, "info string", 11), "%s", line);
        if (info_field(line, "depth") == next && strstr(line, " score ")) {
            cr_assert(strstr(line, " winprob ") && info_field(line, "nodes") > 0 && info_field(line, "time") >= 0 &&
                          info_field(line, "nps") >= 0 && strstr(line, " pv "),
                      "%s", line);
            next++;
        }
    }
    cr_assert_eq(next, 4, "depths 1 to 3 each reported (up to %d)", next - 1);
    cr_assert_str_eq(line + 9, want, "engine %s, internal ab:depth=3 %s", line + 9, want);
    cr_assert_eq(child_quit(&c), 0);

    child_start(&c, "mcts:sims=50");
    child_send(&c, "position ypn " MOVES_YPN "\ngo depth 3\n");
    child_expect(&c, "info string error", line, sizeof line, 10);
    cr_assert(strstr(line, "depth"), "%s", line);
    child_expect(&c, "bestmove ", line, sizeof line, 30);
    cr_assert(strcmp(line, "bestmove none"));
    cr_assert_eq(child_quit(&c), 0);
}

/* newgame during a search, then a position, then go: the go searches that
 * position (the reproduction answered a placement in an M one). */
Test(uyi, newgame_during_a_search_keeps_the_next_position)
{
    Child c;
    char line[4096], err[ERR_LEN];
    child_start(&c, "mcts:sims=50");
    child_send(&c, "uyi\n");
    child_expect(&c, "uyiok", NULL, 0, 10);
    child_send(&c, "go infinite\n");
    struct timespec ts = {0, 200000000};
    nanosleep(&ts, NULL);
    child_send(&c, "newgame\nposition ypn " MOVES_YPN "\nstop\n");
    child_expect(&c, "bestmove ", NULL, 0, 10);
    child_send(&c, "go sims 10\n");
    child_expect(&c, "bestmove ", line, sizeof line, 10);
    Position p;
    Action a;
    cr_assert(ypn_parse(MOVES_YPN, &p, err) == 0, "%s", err);
    cr_assert(action_parse(&p, line + 9, &a, err) == 0, "'%s' in the position sent: %s", line + 9, err);
    cr_assert_eq(child_quit(&c), 0);
}

/* info lines during a search, about every second: a search of 2.5 s
 * writes more than the last one (generous: at least one before it). */
Test(uyi, info_lines_during_a_search)
{
    static const char *const agents[] = {"mcts", "ab:depth=64,tt=1"};
    for (int k = 0; k < 2; k++) {
        Child c;
        char line[4096];
        child_start(&c, agents[k]);
        child_send(&c, "position ypn " MOVES_YPN "\ngo movetime 2500\n");
        int infos = 0;
        for (;;) {
            cr_assert(child_line(&c, line, sizeof line, 30), "%s: no bestmove", agents[k]);
            if (!strncmp(line, "bestmove ", 9)) break;
            cr_assert(strncmp(line, "info string", 11), "%s: %s", agents[k], line);
            if (!strncmp(line, "info ", 5)) {
                cr_assert(info_field(line, "time") >= 0 && info_field(line, "nps") >= 0, "%s: %s", agents[k], line);
                cr_assert(info_field(line, k ? "nodes" : "sims") > 0, "%s: %s", agents[k], line);
                infos++;
            }
        }
        cr_assert(infos >= 2, "%s: %d info lines in a search of 2.5 s", agents[k], infos);
        cr_assert_eq(child_quit(&c), 0);
    }
}

/* Only the announced options can be set: Threads (and the other spec keys
 * the engine does not announce) is refused, as docs/uyi.md says. */
Test(uyi, threads_is_not_an_option)
{
    Child c;
    char line[4096];
    child_start(&c, "mcts:sims=50");
    static const char *const refused[] = {"setoption name Threads value 2\n", "setoption name threads value 2\n",
                                          "setoption name solver value 1\n", "setoption name policy value rows\n"};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        child_send(&c, refused[i]);
        cr_assert(child_line(&c, line, sizeof line, 5), "no answer to %s", refused[i]);
        cr_assert(!strncmp(line, "info string error ", 18), "answer to %s: %s", refused[i], line);
    }
    child_send(&c, "setoption name SIMS value 60\nisready\n");
    cr_assert(child_line(&c, line, sizeof line, 5) && !strcmp(line, "readyok"), "an announced option: %s", line);
    child_send(&c, "uyi\n");
    child_expect(&c, "id name ", line, sizeof line, 10);
    cr_assert(strstr(line, "mcts:sims=60,") && !strstr(line, "threads"), "%s", line);
    cr_assert_eq(child_quit(&c), 0);
}

/* An alpha-beta engine announces threads, the engine's Threads (Lazy SMP,
 * docs/uyi.md): set in any case, it searches on and its id shows it. */
Test(uyi, alphabeta_has_a_threads_option)
{
    Child c;
    char line[4096];
    child_start(&c, "ab:depth=64,tt=1");
    child_send(&c, "uyi\n");
    bool announced = false;
    for (;;) {
        cr_assert(child_line(&c, line, sizeof line, 10), "no uyiok");
        if (!strcmp(line, "uyiok")) break;
        if (!strcmp(line, "option name threads type spin default 1 min 1 max 64")) announced = true;
    }
    cr_assert(announced, "no threads option announced");
    child_send(&c, "setoption name Threads value 3\nisready\n");
    /* (on fewer than 3 cores the engine says that fewer search) */
    cr_assert(child_line(&c, line, sizeof line, 5), "Threads 3: no answer");
    if (!strncmp(line, "info string Threads 3: ", 23)) cr_assert(child_line(&c, line, sizeof line, 5));
    cr_assert(!strcmp(line, "readyok"), "Threads 3: %s", line);
    child_send(&c, "position ypn " MOVES_YPN "\ngo depth 4\n");
    int depth = 0;
    for (;;) {
        cr_assert(child_line(&c, line, sizeof line, 60), "no bestmove to go depth 4 with 3 threads");
        if (!strncmp(line, "bestmove ", 9)) break;
        cr_assert(strncmp(line, "info string", 11), "%s", line);
        if (strstr(line, " score ")) depth = info_field(line, "depth");
    }
    cr_assert_eq(depth, 4, "the last depth reported: %d", depth);
    cr_assert(strcmp(line, "bestmove none"));
    child_send(&c, "setoption name threads value 65\n");
    cr_assert(child_line(&c, line, sizeof line, 5) && strstr(line, "info string error") && strstr(line, "threads"),
              "threads 65: %s", line);
    child_send(&c, "uyi\n");
    child_expect(&c, "id name ", line, sizeof line, 10);
    cr_assert(strstr(line, ",threads=3"), "%s", line);
    cr_assert_eq(child_quit(&c), 0);
}

/* More threads than the engine's cores are not started: they would only
 * take turns on the cores, and the search's own thread would read its
 * clock so late that the answer overran its movetime (64 threads on 2
 * cores answered `go movetime 50` at 124 ms). The policy, not a time: an
 * engine that may run on one core searches with one thread, and says
 * so; the spec keeps the threads asked for. */
Test(uyi, threads_beyond_the_cores_are_not_started)
{
    cpu_set_t all, one;
    cr_assert_eq(sched_getaffinity(0, sizeof all, &all), 0);
    int first = 0;
    while (!CPU_ISSET(first, &all)) first++;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    cr_assert_eq(sched_setaffinity(0, sizeof one, &one), 0); /* the engine inherits it */
    Child c;
    char line[4096];
    child_start(&c, "ab:depth=64,tt=1");
    cr_assert_eq(sched_setaffinity(0, sizeof all, &all), 0);
    child_send(&c, "uyi\n");
    child_expect(&c, "uyiok", line, sizeof line, 10);
    child_send(&c, "setoption name Threads value 64\nisready\n");
    cr_assert(child_line(&c, line, sizeof line, 5), "no answer to Threads 64");
    cr_assert_str_eq(line, "info string Threads 64: 1 search, the cores this engine may run on");
    cr_assert(child_line(&c, line, sizeof line, 5) && !strcmp(line, "readyok"), "%s", line);
    child_send(&c, "position ypn " MOVES_YPN "\ngo movetime 50\n");
    child_expect(&c, "bestmove ", line, sizeof line, 30);
    cr_assert(strcmp(line, "bestmove none"));
    child_send(&c, "uyi\n");
    child_expect(&c, "id name ", line, sizeof line, 10);
    cr_assert(strstr(line, ",threads=64"), "the spec keeps what was asked: %s", line);
    cr_assert_eq(child_quit(&c), 0);
}

/* The engine's peak memory (VmHWM, kB) from /proc. */
static long peak_kb(pid_t pid)
{
    char path[64], row[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    cr_assert(f, "%s", path);
    long kb = -1;
    while (fgets(row, sizeof row, f))
        if (!strncmp(row, "VmHWM:", 6)) kb = strtol(row + 6, NULL, 10);
    fclose(f);
    return kb;
}

/* A line far over the limit is refused with a bounded buffer: the engine
 * does not grow by the line's size (64 MiB here), and reads on. */
Test(uyi, a_long_line_is_refused_in_bounded_memory)
{
    Child c;
    char line[4096];
    child_start(&c, "mcts:sims=50");
    child_send(&c, "isready\n");
    cr_assert(child_line(&c, line, sizeof line, 10) && !strcmp(line, "readyok"));
    long before = peak_kb(c.pid);
    static char chunk[1 << 20];
    memset(chunk, 'x', sizeof chunk);
    for (int i = 0; i < 64; i++) child_send_n(&c, chunk, sizeof chunk);
    child_send(&c, " tail\nisready\n");
    cr_assert(child_line(&c, line, sizeof line, 30), "no answer to the long line");
    cr_assert(!strncmp(line, "info string error ", 18) && strstr(line, "too long"), "%s", line);
    cr_assert(child_line(&c, line, sizeof line, 10) && !strcmp(line, "readyok"), "after it: %s", line);
    long after = peak_kb(c.pid);
    cr_assert(after - before < 16 * 1024, "the engine grew from %ld to %ld kB for a 64 MiB line", before, after);
    cr_assert_eq(child_quit(&c), 0);
}

/* The reader's new words and its bounded lines, as functions. */
Test(uyi, reader_go_depth_and_long_lines)
{
    static UyiCommand c;
    char err[ERR_LEN];
    cr_assert(uyi_parse("go depth 7 movetime 20", &c, err) == 0 && c.go.depth == 7 && c.go.movetime == 20 &&
              !c.warning[0], "%s", c.warning);
    cr_assert(uyi_parse("go", &c, err) == 0 && c.go.depth == -1);
    cr_assert(uyi_parse("go depth 0", &c, err) == 0 && c.go.depth == -1 && strstr(c.warning, "'depth'"), "%s",
              c.warning);
    char text[] = "isready\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\r\ngo sims 5\r\nlast";
    FILE *f = fmemopen(text, strlen(text), "r");
    char buf[16];
    cr_assert_eq(uyi_read_line(f, buf, sizeof buf), UYI_LINE_OK);
    cr_assert_str_eq(buf, "isready\n");
    cr_assert_eq(uyi_read_line(f, buf, sizeof buf), UYI_LINE_LONG, "a line over the buffer, its rest dropped");
    cr_assert_eq(uyi_read_line(f, buf, sizeof buf), UYI_LINE_OK);
    cr_assert_str_eq(buf, "go sims 5\r\n");
    cr_assert_eq(uyi_read_line(f, buf, sizeof buf), UYI_LINE_OK, "the last line without its newline");
    cr_assert_str_eq(buf, "last");
    cr_assert_eq(uyi_read_line(f, buf, sizeof buf), UYI_LINE_EOF);
    fclose(f);
}

/* `best` names its net as shipped, the same text in any folder (the
 * test runs where there is no eval/, and the net is read from the copy
 * built in): the engine's name is
 * ab:depth=5,tt=16,maxdepth=64,tech=...,eval=net:eval/nets/patterns32.nnue. */
Test(uyi, best_is_the_same_text_in_any_folder)
{
    Child c;
    char line[4096];
    cr_assert(access("eval/weights/tuned3.txt", F_OK) != 0, "the test's folder has eval/");
    child_start(&c, NULL);
    child_send(&c, "uyi\n");
    child_expect(&c, "id name ", line, sizeof line, 10);
    cr_assert(access("eval/nets/patterns32.nnue", F_OK) != 0, "the test's folder has eval/");
    cr_assert_str_eq(line, "id name Yinsh Lab " YINSH_VERSION " ab:depth=5,tt=16,maxdepth=64,tech=" AGENT_BEST_TECH
                           ",eval=" AGENT_BEST_WEIGHTS);
    cr_assert_eq(child_quit(&c), 0);
}

/* eval=net:builtin as the agent's spec and as an option: the engine
 * announces it, chooses as the internal agent with the net does (on a
 * position where the linear weights choose otherwise), keeps its net when
 * a missing net file is refused (naming the file), and goes back to the
 * linear weights with eval <empty>. */
Test(uyi, eval_net_as_the_spec_and_as_an_option)
{
    static const char *const ypns[] = {MOVES_YPN, "5/5B1/2B2W3/7B1/3B3W1/5W1W2/2WB4/8/7/6/4 b M standard",
                                       "4/7/5W2/3B2B2/1B4WBW/5W1BW/6B1W1/2B5/2W1B/7/4 b M standard"};
    char net[ACTION_MAX_LEN] = "", lin[ACTION_MAX_LEN] = "", line[4096], pos[256];
    MoveStats st;
    size_t k = 0;
    for (; k < sizeof ypns / sizeof *ypns; k++) {
        internal_choice_at("ab:depth=2,eval=net:builtin", ypns[k], NULL, net, &st);
        internal_choice_at("ab:depth=2", ypns[k], NULL, lin, &st);
        if (strcmp(net, lin)) break;
    }
    cr_assert_lt(k, sizeof ypns / sizeof *ypns, "no position where the net and the weights choose apart");
    snprintf(pos, sizeof pos, "position ypn %s\ngo\n", ypns[k]);

    Child c;
    child_start(&c, "ab:depth=2,eval=net:builtin");
    child_send(&c, "uyi\n");
    child_expect(&c, "option name eval type string default net:builtin", NULL, 0, 10);
    child_expect(&c, "uyiok", NULL, 0, 10);
    child_send(&c, pos);
    child_expect(&c, "bestmove ", line, sizeof line, 30);
    cr_assert_str_eq(line + 9, net, "engine %s, internal agent with the net %s", line + 9, net);
    cr_assert_eq(child_quit(&c), 0);

    child_start(&c, "ab:depth=2");
    child_send(&c, "uyi\n");
    child_expect(&c, "uyiok", NULL, 0, 10);
    child_send(&c, "setoption name eval value net:builtin\n");
    child_send(&c, pos);
    child_expect(&c, "bestmove ", line, sizeof line, 30);
    cr_assert_str_eq(line + 9, net, "setoption eval net:builtin: engine %s, internal %s", line + 9, net);
    child_send(&c, "setoption name eval value net:nowhere.nnue\n");
    child_expect(&c, "info string error", line, sizeof line, 10);
    cr_assert(strstr(line, "nowhere.nnue"), "%s", line);
    child_send(&c, pos);
    child_expect(&c, "bestmove ", line, sizeof line, 30);
    cr_assert_str_eq(line + 9, net, "the refused net left the engine's as it was");
    child_send(&c, "setoption name eval value <empty>\n");
    child_send(&c, pos);
    child_expect(&c, "bestmove ", line, sizeof line, 30);
    cr_assert_str_eq(line + 9, lin, "eval <empty>: engine %s, internal linear %s", line + 9, lin);
    cr_assert_eq(child_quit(&c), 0);
}

/* The harness maps its 64-bit seed into the bounds a spin option `seed`
 * announces (docs/protocol.md §6): min + seed mod (max - min + 1); the
 * full unsigned range passes the seed as it is; a string option, or
 * bounds missing or crossed, get the seed unchanged. */
Test(uyi, seed_is_mapped_into_the_announced_bounds)
{
    UyiSeedOption o;
    char v[24];
    const uint64_t big = 17405687883870564846ull;
    cr_assert_not(uyi_seed_option_parse("option name seeds type spin default 0 min 0 max 9", &o));
    cr_assert(uyi_seed_option_parse("option name seed type spin default 0 min 0 max 18446744073709551615", &o));
    uyi_seed_value(&o, big, v);
    cr_assert_str_eq(v, "17405687883870564846");
    cr_assert(uyi_seed_option_parse("option name seed type spin default 0 min 0 max 1000", &o));
    uyi_seed_value(&o, big, v);
    char want[24];
    snprintf(want, sizeof want, "%llu", (unsigned long long)(big % 1001));
    cr_assert_str_eq(v, want);
    cr_assert(uyi_seed_option_parse("option name Seed type spin default 5 min 10 max 20", &o));
    uyi_seed_value(&o, 25, v);
    cr_assert_str_eq(v, "13"); /* 10 + 25 mod 11 */
    cr_assert(uyi_seed_option_parse("option name seed type spin default 0 min -2147483648 max 2147483647", &o));
    uyi_seed_value(&o, 0, v);
    cr_assert_str_eq(v, "-2147483648");
    uyi_seed_value(&o, (1ull << 32) + 2147483648ull + 7, v);
    cr_assert_str_eq(v, "7");
    cr_assert(uyi_seed_option_parse("option name seed type spin default 0 min -9223372036854775808 max "
                                    "9223372036854775807", &o));
    uyi_seed_value(&o, 1ull << 63, v);
    cr_assert_str_eq(v, "0");
    cr_assert(uyi_seed_option_parse("option name seed type string default 0", &o));
    uyi_seed_value(&o, big, v);
    cr_assert_str_eq(v, "17405687883870564846");
    cr_assert(uyi_seed_option_parse("option name seed type spin default 0 min 9 max 3", &o));
    cr_assert_not(o.bounded);
    cr_assert(uyi_seed_option_parse("option name seed type spin default 0 min 0 max 99999999999999999999", &o));
    cr_assert_not(o.bounded);
}

/* The server in this process, on memory streams: the handshake, isready,
 * an unknown option and a malformed command answered, and a go's
 * bestmove the internal agent's with the same seed; the end of input
 * ends it with 0. */
Test(uyi, server_on_memory_streams)
{
    static const char *const placements[] = {"e5", "f6", NULL};
    static const char input[] = "uyi\nisready\nsetoption name nope value 1\nfrobnicate\n"
                                "setoption name seed value 7\nposition startpos moves e5 f6\ngo\n";
    char want[ACTION_MAX_LEN], err[ERR_LEN], expect[ACTION_MAX_LEN + 16];
    internal_choice("random", 7, placements, want);
    AgentSpec spec;
    cr_assert(agent_spec_parse("random", &spec, err) == 0, "%s", err);
    FILE *in = fmemopen((void *)input, sizeof input - 1, "r");
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    cr_assert(in && out);
    cr_assert_eq(uyi_serve(in, out, &spec, err), 0, "%s", err);
    fclose(in);
    fclose(out);
    agent_spec_release(&spec);
    cr_assert(!strncmp(text, "id name Yinsh Lab ", 18), "%s", text);
    cr_assert(strstr(text, "\nuyiok\nreadyok\n"), "%s", text);
    cr_assert(strstr(text, "\ninfo string error no option 'nope' (the options: seed"), "%s", text);
    cr_assert_eq(strstr(text, "info string error no option 'nope'"), strstr(text, "info string error"),
                 "the unknown option is the first error: %s", text);
    cr_assert(strstr(strstr(text, "'nope'"), "\ninfo string error "), "frobnicate answered: %s", text);
    snprintf(expect, sizeof expect, "\nbestmove %s\n", want);
    cr_assert(strstr(text, expect), "want %s in: %s", expect + 1, text);
    free(text);
}

/* The server refuses an external engine's spec (it speaks UYI itself)
 * before it reads a line or writes one. */
Test(uyi, server_refuses_an_external_engine)
{
    AgentSpec spec;
    char err[ERR_LEN], *text = NULL;
    size_t len = 0;
    cr_assert(agent_spec_parse("uyi:cmd=./engine", &spec, err) == 0, "%s", err);
    FILE *in = fmemopen((void *)"uyi\n", 4, "r"), *out = open_memstream(&text, &len);
    cr_assert(in && out);
    cr_expect_eq(uyi_serve(in, out, &spec, err), ERR_USAGE);
    cr_expect(strstr(err, "an external engine speaks UYI itself"), "%s", err);
    fclose(in);
    fclose(out);
    cr_expect_eq(len, 0, "nothing written: %s", text);
    free(text);
    agent_spec_release(&spec);
}
