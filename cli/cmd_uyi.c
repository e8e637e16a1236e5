/* yinsh uyi: one of our agents as a UYI engine on stdin and stdout
 * (docs/protocol.md; our choices in docs/uyi.md).
 *
 * Two threads. The reader (main) reads commands at all times and owns the
 * engine's state: the agent, its spec, the seed and rng, the position of
 * the next `go`. A `go` hands a copy of the position and the agent to one
 * search thread, which runs it and writes `info` and `bestmove`; while it
 * runs the reader touches neither the agent nor the rng, answers isready,
 * keeps the next position, and refuses what would change the agent.
  * `stop` sets a flag the search reads before each simulation, then joins
 * the thread; the flag only ends a search, so a `go` without a limit
 * plays as the agent does in self-play, and ends. The search reports as
 * it goes (search/limits.h) and its thread writes each report as an
 * `info` line. Replies of both threads go through one lock, a line at a
 * time, flushed at once. Lines are read into a fixed buffer: a longer one
 * is refused and its rest dropped, so memory stays bounded. */
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "selfplay/search/ab.h"
#include "selfplay/agents/agent.h"
#include "cli/cli.h"
#include "engine/base/clock.h"
#include "cli/commands.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/base/number.h"
#include "selfplay/uyi/command.h"

const char USAGE_UYI[] =
    "usage: yinsh uyi [--agent SPEC]\n"
    "  Runs an agent as a UYI engine: commands on stdin, replies on stdout\n"
    "  (docs/protocol.md; our choices in docs/uyi.md). Every key of the\n"
    "  agent's spec is an option (setoption name sims value 800), and so is the\n"
    "  seed of its random numbers (setoption name seed value 7; newgame restarts\n"
    "  the stream); an alpha-beta agent's threads is the engine's Threads (Lazy\n"
    "  SMP for analysis: not reproducible above 1). go takes sims (alpha-beta:\n"
    "  positions), movetime,\n"
    "  wtime/btime/winc/binc, depth (alpha-beta) and infinite; a go without a limit\n"
    "  plays as the agent does in selfplay. A search writes info lines about every\n"
    "  second (alpha-beta: also at each depth) and one before its bestmove.\n"
    "\n"
    "  --agent SPEC    the agent (default best, the strongest measured: see\n"
    "                  `yinsh selfplay --help` and results/strength.md)\n";

/* Seconds between the info lines of a search (as a GUI's analysis shows them). */
#define INFO_EVERY_S 1.0

typedef struct Engine {
    /* the reader's: */
    AgentSpec spec;
    Agent *agent;
    uint64_t seed;
    Rng rng;
    UyiCommand next;       /* the position of the next go (its kind is unused) */
    UyiCommand seen;       /* the position the agent's tree last searched */
    bool seen_valid;
    bool newgame_pending;  /* a newgame came during a search: reset before the next go */
    bool searching;        /* a search thread was started and not joined */
    pthread_t thread;
    /* shared with the search thread: */
    atomic_bool stop;      /* reader sets; the search reads it */
    atomic_bool done;      /* the search thread sets it when it has replied */
    /* the search's, set by the reader before it starts: */
    Position spos;
    SearchLimits lim;
    double start;
    pthread_mutex_t out;
} Engine;

static void reply(Engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reply(Engine *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&e->out);
    vprintf(fmt, ap);
    putchar('\n');
    fflush(stdout);
    pthread_mutex_unlock(&e->out);
    va_end(ap);
}

/* A progress report of the search (search/limits.h), written as an info
 * line at once: MCTS `info sims N time T nps X winprob P pv ...`; alpha-
 * beta `info depth D score S winprob P nodes N time T nps X pv ...` at
 * each completed depth and at the end, and `info depth D nodes N time T
 * nps X` for the depth in progress in between (docs/uyi.md, "info"). */
static void search_report(void *ctx, const SearchReport *r)
{
    Engine *e = ctx;
    char line[SEARCH_REPORT_PV * (ACTION_MAX_LEN + 1) + 256], text[ACTION_MAX_LEN];
    double ms = (clock_now() - e->start) * 1000;
    double nps = ms > 0 ? (double)r->nodes * 1000.0 / ms : 0.0;
    int at;
    if (r->depth == 0) {
        at = snprintf(line, sizeof line, "info sims %" PRIu64 " time %.0f nps %.0f winprob %.3f", r->nodes, ms, nps,
                      r->value);
    } else if (!r->scored) {
        reply(e, "info depth %d nodes %" PRIu64 " time %.0f nps %.0f", r->depth, r->nodes, ms, nps);
        return;
    } else {
        char score[48];
        if (r->score >= AB_WIN_BOUND) snprintf(score, sizeof score, "win %d", AB_WIN - r->score);
        else if (r->score <= -AB_WIN_BOUND) snprintf(score, sizeof score, "loss %d", AB_WIN + r->score);
        else snprintf(score, sizeof score, "%d", r->score);
        at = snprintf(line, sizeof line, "info depth %d score %s winprob %.3f nodes %" PRIu64 " time %.0f nps %.0f",
                      r->depth, score, r->value, r->nodes, ms, nps);
    }
    if (r->npv) at += snprintf(line + at, sizeof line - (size_t)at, " pv");
    for (int i = 0; i < r->npv; i++) at += snprintf(line + at, sizeof line - (size_t)at, " %s", action_format(r->pv[i], text));
    reply(e, "%s", line);
}

/* The search thread: the agent's choice under the go's limits (set by
 * the reader), its info lines as it goes, and (for infinite, after stop)
 * the bestmove. */
static void *search_main(void *arg)
{
    Engine *e = arg;
    char text[ACTION_MAX_LEN];
    Action a = ACTION_NONE;
    if (movegen_count(&e->spos) > 0) {
        MoveStats st;
        a = agent_choose_limited(e->agent, &e->spos, &e->rng, &e->lim, &st);
    }
    /* infinite: the answer waits for stop, whatever ended the search */
    while (e->lim.until_stop && !atomic_load(&e->stop)) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    /* done before the line is out: a harness that has read bestmove may
     * send the next go at once, and the reader must take it */
    pthread_mutex_lock(&e->out);
    atomic_store(&e->done, true);
    printf("bestmove %s\n", a == ACTION_NONE ? "none" : action_format(a, text));
    fflush(stdout);
    pthread_mutex_unlock(&e->out);
    return NULL;
}

/* newgame's reset of the agent and its stream, which a running search
 * uses: done at once, or when the search is joined. */
static void engine_reset_agent(Engine *e)
{
    agent_reset(e->agent);
    rng_stream(&e->rng, e->seed, 0);
    e->seen_valid = false;
}

/* newgame's reset of the position of the next go: the reader's, at once. */
static void engine_reset_position(Engine *e)
{
    pos_start(&e->next.base, VARIANT_STANDARD);
    e->next.pos = e->next.base;
    e->next.nactions = 0;
}

static void search_join(Engine *e)
{
    if (!e->searching) return;
    pthread_join(e->thread, NULL);
    e->searching = false;
    if (e->newgame_pending) {
        engine_reset_agent(e);
        e->newgame_pending = false;
    }
}

/* The handshake's reply: our name with the canonical spec, the seed, and
 * every key of the spec as an option (an empty string is `<empty>`). */
static void announce(Engine *e)
{
    const AgentSpec *s = &e->spec;
    char spec[SPEC_LEN];
    reply(e, "id name Yinsh Lab " YINSH_VERSION " %s", agent_spec_format(s, spec));
    reply(e, "id author the Yinsh Lab authors");
    reply(e, "option name seed type spin default %" PRIu64 " min 0 max 18446744073709551615", e->seed);
    AgentOption opts[AGENT_SPEC_OPTIONS];
    int n = agent_spec_options(s, opts);
    for (int i = 0; i < n; i++) {
        const AgentOption *o = &opts[i];
        if (o->spin)
            reply(e, "option name %s type spin default %s min %lld max %lld", o->name, o->value, o->min, o->max);
        else
            reply(e, "option name %s type string default %s", o->name, o->value[0] ? o->value : "<empty>");
    }
    reply(e, "uyiok");
}

/* setoption: the seed, or a key of the agent's spec (names in any case);
 * the agent is made anew from the changed spec (its tree is dropped). */
static void set_option(Engine *e, const UyiCommand *c)
{
    char err[ERR_LEN], key[UYI_NAME_LEN];
    size_t i = 0;
    for (; c->name[i]; i++) key[i] = (char)(c->name[i] >= 'A' && c->name[i] <= 'Z' ? c->name[i] + 32 : c->name[i]);
    key[i] = '\0';
    if (e->searching) {
        reply(e, "info string error setoption during a search (send stop first)");
        return;
    }
    /* only what was announced: a spec key the engine does not announce
     * (mcts's threads, solver, prior, policy) would change the agent
     * behind the harness's back (threads=T makes its search
     * irreproducible); an ab agent announces its threads (Threads) */
    AgentOption opts[AGENT_SPEC_OPTIONS];
    int n = agent_spec_options(&e->spec, opts), k = 0;
    while (k < n && strcmp(opts[k].name, key)) k++;
    if (k == n && strcmp(key, "seed")) {
        char names[256] = "seed";
        size_t at = strlen(names);
        for (int j = 0; j < n; j++) at += (size_t)snprintf(names + at, sizeof names - at, ", %s", opts[j].name);
        reply(e, "info string error no option '%.64s' (the options: %s)", c->name, names);
        return;
    }
    if (!strcmp(key, "seed")) {
        if (!number_u64(c->value, &e->seed)) {
            reply(e, "info string error bad value '%.64s' for seed (an integer from 0 to 2^64-1)", c->value);
            return;
        }
        rng_stream(&e->rng, e->seed, 0);
        return;
    }
    AgentSpec spec = e->spec;
    const char *value = strcmp(c->value, "<empty>") ? c->value : "";
    if (agent_spec_set(&spec, key, value, err)) {
        reply(e, "info string error %s", err);
        return;
    }
    e->spec = spec; /* it holds the new net now, the old one given back (the old agent keeps its own) */
    Agent *a;
    if (agent_new(&a, &spec, err)) {
        reply(e, "info string error %s", err);
        return;
    }
    agent_free(e->agent);
    e->agent = a;
    e->seen_valid = false;
}

/* go: the tree follows the game when the new position extends the one it
 * last searched (as an agent in a game is shown every action), then the
 * search thread starts. */
static void go(Engine *e, const UyiCommand *c, double start)
{
    if (e->searching) {
        reply(e, "info string error go during a search (ignored; the search goes on)");
        return;
    }
    char why[ERR_LEN];
    agent_go_limits(e->agent, &c->go, e->next.pos.actor, start, &e->lim, why);
    e->lim.stop = &e->stop;
    e->lim.report = search_report;
    e->lim.report_ctx = e;
    e->lim.report_s = INFO_EVERY_S;
    /* what was not understood or cannot be honoured, in one line; the go
     * runs on the rest */
    if (c->warning[0] || why[0])
        reply(e, "info string error %s%s%s", c->warning, c->warning[0] && why[0] ? "; " : "", why);
    const UyiCommand *n = &e->next, *s = &e->seen;
    if (e->seen_valid && pos_equal(&s->base, &n->base) && s->nactions <= n->nactions &&
        !memcmp(s->actions, n->actions, (size_t)s->nactions * sizeof(Action))) {
        Position p = s->pos;
        Undo u;
        for (int i = s->nactions; i < n->nactions; i++) {
            agent_observe(e->agent, &p, n->actions[i]);
            pos_make(&p, n->actions[i], &u);
        }
    }
    e->seen.base = n->base;
    e->seen.pos = n->pos;
    e->seen.nactions = n->nactions;
    memcpy(e->seen.actions, n->actions, (size_t)n->nactions * sizeof(Action));
    e->seen_valid = true;

    e->spos = n->pos;
    e->start = start;
    atomic_store(&e->stop, false);
    atomic_store(&e->done, false);
    if (pthread_create(&e->thread, NULL, search_main, e)) {
        /* no thread: search here, so that the go still gets its bestmove
         * (and without infinite: no stop could be read while it runs) */
        e->lim.until_stop = false;
        search_main(e);
        return;
    }
    e->searching = true;
}

int cmd_uyi(int argc, char **argv)
{
    const char *agent = "best";
    const CliOpt opts[] = {{.name = "--agent", .kind = CLI_TEXT, .out = &agent}};
    const char *pos[1];
    int npos, rc = 0;
    if (cli_parse("uyi", argc, argv, opts, 1, pos, 0, &npos)) return EXIT_USAGE;
    Engine *e = calloc(1, sizeof *e);
    UyiCommand *c = malloc(sizeof *c);
    /* a line at most UYI_LINE_MAX characters, its '\n' and the end: a
     * longer one is refused without being held */
    char *line = malloc(UYI_LINE_MAX + 2), err[ERR_LEN];
    if (!e || !c || !line) {
        rc = cli_error("uyi", "out of memory");
        goto done;
    }
    if ((rc = cli_agent("uyi", "--agent", agent, &e->spec))) goto done;
    if (agent_spec_external(&e->spec)) {
        rc = cli_usage_error("uyi", "--agent: an external engine speaks UYI itself: run it, not yinsh uyi");
        goto done;
    }
    if (agent_new(&e->agent, &e->spec, err)) {
        rc = cli_error("uyi", "%s", err);
        goto done;
    }
    pthread_mutex_init(&e->out, NULL);
    engine_reset_agent(e);
    engine_reset_position(e);

    for (int got; (got = uyi_read_line(stdin, line, UYI_LINE_MAX + 2)) != UYI_LINE_EOF;) {
        double now = clock_now();
        if (e->searching && atomic_load(&e->done)) search_join(e);
        if (got == UYI_LINE_LONG) {
            reply(e, "info string error line too long (at most %d characters): ignored", UYI_LINE_MAX);
            continue;
        }
        if (uyi_parse(line, c, err)) {
            reply(e, "info string error %s", err);
            continue;
        }
        switch (c->kind) {
        case UYI_EMPTY: break;
        case UYI_UYI: announce(e); break;
        case UYI_ISREADY: reply(e, "readyok"); break;
        case UYI_SETOPTION: set_option(e, c); break;
        case UYI_NEWGAME:
            /* the next position now (a position after it stands); the
             * agent and its stream when no search uses them */
            engine_reset_position(e);
            if (e->searching) e->newgame_pending = true;
            else engine_reset_agent(e);
            break;
        case UYI_POSITION:
            e->next.base = c->base;
            e->next.pos = c->pos;
            e->next.nactions = c->nactions;
            memcpy(e->next.actions, c->actions, (size_t)c->nactions * sizeof(Action));
            break;
        case UYI_GO: go(e, c, now); break;
        case UYI_STOP:
            atomic_store(&e->stop, true);
            search_join(e);
            break;
        case UYI_QUIT: goto quit;
        }
    }
quit:
    /* quit (or the end of input) during a search: end it; its bestmove
     * may still be written, which the protocol allows */
    atomic_store(&e->stop, true);
    search_join(e);
    pthread_mutex_destroy(&e->out);
done:
    if (e) agent_free(e->agent);
    if (e) agent_spec_release(&e->spec);
    free(e);
    free(c);
    free(line);
    return rc;
}
