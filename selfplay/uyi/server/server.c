/* The UYI engine server: one of our agents as a UYI engine on two streams
 * (docs/protocol.md; our choices in docs/uyi.md; `yinsh uyi` serves on
 * stdin and stdout).
 *
 * Two threads. The reader (main) reads commands at all times and owns the
 * server's state: the agent, its spec, the seed and rng, the position of
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
#include <time.h>
#include "engine/base/clock.h"
#include "engine/base/error.h"
#include "engine/base/number.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "selfplay/agents/agent.h"
#include "selfplay/search/ab.h"
#include "selfplay/uyi/command.h"
#include "selfplay/uyi/server/server.h"

/* Seconds between the info lines of a search (as a GUI's analysis shows them). */
#define INFO_EVERY_S 1.0

typedef struct Server {
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
    bool visits;           /* option visits (an MCTS agent's): `info visits` before each searched bestmove */
    pthread_t thread;
    /* shared with the search thread: */
    atomic_bool stop;      /* reader sets; the search reads it */
    atomic_bool done;      /* the search thread sets it when it has replied */
    /* the search's, set by the reader before it starts: */
    Position spos;
    SearchLimits lim;
    double start;
    /* the replies of both threads, a line at a time under lock */
    FILE *out;
    pthread_mutex_t lock;
} Server;

static void reply(Server *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reply(Server *sv, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&sv->lock);
    vfprintf(sv->out, fmt, ap);
    fputc('\n', sv->out);
    fflush(sv->out);
    pthread_mutex_unlock(&sv->lock);
    va_end(ap);
}

/* A progress report of the search (search/limits.h), written as an info
 * line at once: MCTS `info sims N time T nps X winprob P pv ...`; alpha-
 * beta `info depth D score S winprob P nodes N time T nps X pv ...` at
 * each completed depth and at the end, and `info depth D nodes N time T
 * nps X` for the depth in progress in between (docs/uyi.md, "info"). */
static void search_report(void *ctx, const SearchReport *r)
{
    Server *sv = ctx;
    char line[SEARCH_REPORT_PV * (ACTION_MAX_LEN + 1) + 256], text[ACTION_MAX_LEN];
    double ms = (clock_now() - sv->start) * 1000;
    double nps = ms > 0 ? (double)r->nodes * 1000.0 / ms : 0.0;
    int at;
    if (r->depth == 0) {
        at = snprintf(line, sizeof line, "info sims %" PRIu64 " time %.0f nps %.0f winprob %.3f", r->nodes, ms, nps,
                      r->value);
    } else if (!r->scored) {
        reply(sv, "info depth %d nodes %" PRIu64 " time %.0f nps %.0f", r->depth, r->nodes, ms, nps);
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
    reply(sv, "%s", line);
}

/* The search thread: the agent's choice under the go's limits (set by
 * the reader), its info lines as it goes, and (for infinite, after stop)
 * the bestmove. */
static void *search_main(void *arg)
{
    Server *sv = arg;
    char text[ACTION_MAX_LEN];
    Action a = ACTION_NONE;
    bool searched = false;
    if (movegen_count(&sv->spos) > 0) {
        MoveStats st;
        a = agent_choose_limited(sv->agent, &sv->spos, &sv->rng, &sv->lim, &st);
        searched = st.searched;
    }
    /* infinite: the answer waits for stop, whatever ended the search */
    while (sv->lim.until_stop && !atomic_load(&sv->stop)) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    /* done before the line is out: a harness that has read bestmove may
     * send the next go at once, and the reader must take it */
    pthread_mutex_lock(&sv->lock);
    if (sv->visits && searched) {
        /* the root visits, for a harness that stores them (docs/uyi.md) */
        Action acts[MAX_ACTIONS];
        uint32_t visits[MAX_ACTIONS];
        int k = agent_root_children(sv->agent, acts, visits, MAX_ACTIONS);
        if (k > 0) fputs("info visits", sv->out);
        for (int i = 0; i < k; i++) fprintf(sv->out, " %s:%u", action_format(acts[i], text), (unsigned)visits[i]);
        if (k > 0) fputc('\n', sv->out);
    }
    atomic_store(&sv->done, true);
    fprintf(sv->out, "bestmove %s\n", a == ACTION_NONE ? "none" : action_format(a, text));
    fflush(sv->out);
    pthread_mutex_unlock(&sv->lock);
    return NULL;
}

/* newgame's reset of the agent and its stream, which a running search
 * uses: done at once, or when the search is joined. */
static void server_reset_agent(Server *sv)
{
    agent_reset(sv->agent);
    rng_stream(&sv->rng, sv->seed, 0);
    sv->seen_valid = false;
}

/* newgame's reset of the position of the next go: the reader's, at once. */
static void server_reset_position(Server *sv)
{
    pos_start(&sv->next.base, VARIANT_STANDARD);
    sv->next.pos = sv->next.base;
    sv->next.nactions = 0;
}

static void search_join(Server *sv)
{
    if (!sv->searching) return;
    pthread_join(sv->thread, NULL);
    sv->searching = false;
    if (sv->newgame_pending) {
        server_reset_agent(sv);
        sv->newgame_pending = false;
    }
}

/* Whether the agent searches a tree whose root visits it can say: MCTS
 * (the option `visits`, docs/uyi.md). */
static bool server_has_visits(const Server *sv)
{
    MctsConfig c;
    return agent_spec_mcts_config(&sv->spec, &c);
}

/* The handshake's reply: our name with the canonical spec, the seed, and
 * every key of the spec as an option (an empty string is `<empty>`), and
 * for MCTS `visits`. */
static void announce(Server *sv)
{
    const AgentSpec *s = &sv->spec;
    char spec[SPEC_LEN];
    reply(sv, "id name Yinsh Lab " YINSH_VERSION " %s", agent_spec_format(s, spec));
    reply(sv, "id author the Yinsh Lab authors");
    reply(sv, "option name seed type spin default %" PRIu64 " min 0 max 18446744073709551615", sv->seed);
    AgentOption opts[AGENT_SPEC_OPTIONS];
    int n = agent_spec_options(s, opts);
    for (int i = 0; i < n; i++) {
        const AgentOption *o = &opts[i];
        if (o->spin)
            reply(sv, "option name %s type spin default %s min %lld max %lld", o->name, o->value, o->min, o->max);
        else
            reply(sv, "option name %s type string default %s", o->name, o->value[0] ? o->value : "<empty>");
    }
    if (server_has_visits(sv)) reply(sv, "option name visits type check default false");
    reply(sv, "uyiok");
}

/* setoption: the seed, or a key of the agent's spec (names in any case);
 * the agent is made anew from the changed spec (its tree is dropped). */
static void set_option(Server *sv, const UyiCommand *c)
{
    char err[ERR_LEN], key[UYI_NAME_LEN];
    size_t i = 0;
    for (; c->name[i]; i++) key[i] = (char)(c->name[i] >= 'A' && c->name[i] <= 'Z' ? c->name[i] + 32 : c->name[i]);
    key[i] = '\0';
    if (sv->searching) {
        reply(sv, "info string error setoption during a search (send stop first)");
        return;
    }
    /* only what was announced: a spec key the engine does not announce
     * (mcts's threads, solver, prior, policy) would change the agent
     * behind the harness's back (threads=T makes its search
     * irreproducible); an ab agent announces its threads (Threads) */
    if (!strcmp(key, "visits") && server_has_visits(sv)) {
        if (strcmp(c->value, "true") && strcmp(c->value, "false")) {
            reply(sv, "info string error bad value '%.64s' for visits (true or false)", c->value);
            return;
        }
        sv->visits = !strcmp(c->value, "true");
        return;
    }
    AgentOption opts[AGENT_SPEC_OPTIONS];
    int n = agent_spec_options(&sv->spec, opts), k = 0;
    while (k < n && strcmp(opts[k].name, key)) k++;
    if (k == n && strcmp(key, "seed")) {
        char names[256] = "seed";
        size_t at = strlen(names);
        for (int j = 0; j < n; j++) at += (size_t)snprintf(names + at, sizeof names - at, ", %s", opts[j].name);
        reply(sv, "info string error no option '%.64s' (the options: %s)", c->name, names);
        return;
    }
    if (!strcmp(key, "seed")) {
        if (!number_u64(c->value, &sv->seed)) {
            reply(sv, "info string error bad value '%.64s' for seed (an integer from 0 to 2^64-1)", c->value);
            return;
        }
        rng_stream(&sv->rng, sv->seed, 0);
        return;
    }
    AgentSpec spec = sv->spec;
    const char *value = strcmp(c->value, "<empty>") ? c->value : "";
    if (agent_spec_set(&spec, key, value, err)) {
        reply(sv, "info string error %s", err);
        return;
    }
    sv->spec = spec; /* it holds the new net now, the old one given back (the old agent keeps its own) */
    Agent *a;
    if (agent_new(&a, &spec, err)) {
        reply(sv, "info string error %s", err);
        return;
    }
    agent_free(sv->agent);
    sv->agent = a;
    sv->seen_valid = false;
}

/* go: the tree follows the game when the new position extends the one it
 * last searched (as an agent in a game is shown every action), then the
 * search thread starts. */
static void go(Server *sv, const UyiCommand *c, double start)
{
    if (sv->searching) {
        reply(sv, "info string error go during a search (ignored; the search goes on)");
        return;
    }
    char why[ERR_LEN];
    agent_go_limits(sv->agent, &c->go, sv->next.pos.actor, start, &sv->lim, why);
    sv->lim.stop = &sv->stop;
    sv->lim.report = search_report;
    sv->lim.report_ctx = sv;
    sv->lim.report_s = INFO_EVERY_S;
    /* what was not understood or cannot be honoured, in one line; the go
     * runs on the rest */
    if (c->warning[0] || why[0])
        reply(sv, "info string error %s%s%s", c->warning, c->warning[0] && why[0] ? "; " : "", why);
    const UyiCommand *n = &sv->next, *s = &sv->seen;
    if (sv->seen_valid && pos_equal(&s->base, &n->base) && s->nactions <= n->nactions &&
        !memcmp(s->actions, n->actions, (size_t)s->nactions * sizeof(Action))) {
        Position p = s->pos;
        Undo u;
        for (int i = s->nactions; i < n->nactions; i++) {
            agent_observe(sv->agent, &p, n->actions[i]);
            pos_make(&p, n->actions[i], &u);
        }
    }
    sv->seen.base = n->base;
    sv->seen.pos = n->pos;
    sv->seen.nactions = n->nactions;
    memcpy(sv->seen.actions, n->actions, (size_t)n->nactions * sizeof(Action));
    sv->seen_valid = true;

    sv->spos = n->pos;
    sv->start = start;
    atomic_store(&sv->stop, false);
    atomic_store(&sv->done, false);
    if (pthread_create(&sv->thread, NULL, search_main, sv)) {
        /* no thread: search here, so that the go still gets its bestmove
         * (and without infinite: no stop could be read while it runs) */
        sv->lim.until_stop = false;
        search_main(sv);
        return;
    }
    sv->searching = true;
}

int uyi_serve(FILE *in, FILE *out, const AgentSpec *spec, char *err)
{
    if (agent_spec_external(spec))
        return error_code(err, ERR_USAGE, "an external engine speaks UYI itself: run it, not yinsh uyi");
    Server *sv = calloc(1, sizeof *sv);
    UyiCommand *c = malloc(sizeof *c);
    /* a line at most UYI_LINE_MAX characters, its '\n' and the end: a
     * longer one is refused without being held */
    char *line = malloc(UYI_LINE_MAX + 2);
    int rc = 0;
    if (!sv || !c || !line) {
        rc = error_set(err, "out of memory");
        goto done;
    }
    agent_spec_copy(&sv->spec, spec);
    if ((rc = agent_new(&sv->agent, &sv->spec, err))) goto done;
    sv->out = out;
    pthread_mutex_init(&sv->lock, NULL);
    server_reset_agent(sv);
    server_reset_position(sv);

    for (int got; (got = uyi_read_line(in, line, UYI_LINE_MAX + 2)) != UYI_LINE_EOF;) {
        double now = clock_now();
        if (sv->searching && atomic_load(&sv->done)) search_join(sv);
        if (got == UYI_LINE_LONG) {
            reply(sv, "info string error line too long (at most %d characters): ignored", UYI_LINE_MAX);
            continue;
        }
        char why[ERR_LEN];
        if (uyi_parse(line, c, why)) {
            reply(sv, "info string error %s", why);
            continue;
        }
        switch (c->kind) {
        case UYI_EMPTY: break;
        case UYI_UYI: announce(sv); break;
        case UYI_ISREADY: reply(sv, "readyok"); break;
        case UYI_SETOPTION: set_option(sv, c); break;
        case UYI_NEWGAME:
            /* the next position now (a position after it stands); the
             * agent and its stream when no search uses them */
            server_reset_position(sv);
            if (sv->searching) sv->newgame_pending = true;
            else server_reset_agent(sv);
            break;
        case UYI_POSITION:
            sv->next.base = c->base;
            sv->next.pos = c->pos;
            sv->next.nactions = c->nactions;
            memcpy(sv->next.actions, c->actions, (size_t)c->nactions * sizeof(Action));
            break;
        case UYI_GO: go(sv, c, now); break;
        case UYI_STOP:
            atomic_store(&sv->stop, true);
            search_join(sv);
            break;
        case UYI_QUIT: goto quit;
        }
    }
quit:
    /* quit (or the end of input) during a search: end it; its bestmove
     * may still be written, which the protocol allows */
    atomic_store(&sv->stop, true);
    search_join(sv);
    pthread_mutex_destroy(&sv->lock);
done:
    if (sv) agent_free(sv->agent);
    if (sv) agent_spec_release(&sv->spec);
    free(sv);
    free(c);
    free(line);
    return rc;
}
