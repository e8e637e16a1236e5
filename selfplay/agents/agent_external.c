/* An external UYI engine as an agent (agents/kind.h): the spec
 * `uyi:name=N;cmd=C;dir=D;option.K=V` and engines files turned into specs,
 * and a thin adapter from the agent interface to the engine handle of
 * uyi/engine.h, which holds the conversation. The agent keeps the game's
 * actions, since every `position` names them all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "selfplay/agents/agent.h"
#include "selfplay/agents/kind.h"
#include "engine/base/error.h"
#include "engine/movegen.h"
#include "selfplay/uyi/engine.h"

/* ---- the spec ------------------------------------------------------------- */

/* One field value of a uyi spec, unescaped ('\\;' -> ';', '\\\\' -> '\\')
 * from *p up to the next unescaped ';' or the end; *p moves past it. */
static int read_field(char **p, char *out, size_t len)
{
    size_t n = 0;
    char *s = *p;
    for (; *s && *s != ';'; s++) {
        if (*s == '\\' && (s[1] == ';' || s[1] == '\\')) s++;
        if (n + 1 >= len) return -1;
        out[n++] = *s;
    }
    out[n] = '\0';
    *p = *s ? s + 1 : s;
    return 0;
}

/* Appends key=value with ';' and '\\' escaped; false when out is full. */
static bool put_field(char *out, size_t *n, const char *key, const char *value)
{
    size_t at = *n;
    int w = snprintf(out + at, SPEC_LEN - at, "%s%s=", at > 4 ? ";" : "", key);
    if (w < 0 || (size_t)w >= SPEC_LEN - at) return false;
    at += (size_t)w;
    for (const char *v = value; *v; v++) {
        if (at + 3 >= SPEC_LEN) return false;
        if (*v == ';' || *v == '\\') out[at++] = '\\';
        out[at++] = *v;
    }
    out[at] = '\0';
    *n = at;
    return true;
}

/* The canonical text: name, cmd, dir (when set) and the options in their
 * order; false when it does not fit in SPEC_LEN. */
static bool spec_text(const AgentSpec *spec, char *out)
{
    const UyiEngineDesc *d = &spec->external;
    size_t n = 4;
    memcpy(out, "uyi:", 5);
    bool ok = put_field(out, &n, "name", d->name) && put_field(out, &n, "cmd", d->cmd);
    if (ok && d->dir[0]) ok = put_field(out, &n, "dir", d->dir);
    for (int i = 0; ok && i < d->noptions; i++) {
        const char *k, *v;
        char key[UYI_ENGINE_NAME_LEN + 8];
        uyi_engine_option(d, i, &k, &v);
        snprintf(key, sizeof key, "option.%s", k);
        ok = put_field(out, &n, key, v);
    }
    return ok;
}

static void external_format(const AgentSpec *spec, char *out)
{
    if (!spec_text(spec, out)) out[SPEC_LEN - 1] = '\0'; /* parse refuses a spec this long */
}

char *agent_spec_display(const char *text, char *out, size_t len)
{
    if (strncmp(text, "uyi:", 4)) {
        snprintf(out, len, "%s", text);
        return out;
    }
    /* the fields in order, each read whole (a cmd may hold '=' and '\;') */
    char *p = (char *)text + 4, value[UYI_ENGINE_VALUE_LEN];
    while (*p) {
        bool name = !strncmp(p, "name=", 5);
        char *eq = strchr(p, '=');
        if (!eq) break;
        p = eq + 1;
        if (read_field(&p, value, sizeof value)) break;
        if (name) {
            snprintf(out, len, "uyi:%s", value);
            return out;
        }
    }
    snprintf(out, len, "uyi:engine");
    return out;
}

static int external_parse(AgentSpec *spec, char *params, char *err)
{
    UyiEngineDesc *d = &spec->external;
    snprintf(d->name, sizeof d->name, "engine");
    if (!params || !*params) {
        return error_code(err, ERR_USAGE, "agent 'uyi' needs at least cmd=COMMAND (uyi:name=N;cmd=C;dir=D;option.K=V)");
    }
    char *p = params;
    while (*p) {
        char key[UYI_ENGINE_NAME_LEN + 8], value[UYI_ENGINE_VALUE_LEN];
        char *eq = strchr(p, '=');
        if (!eq || (size_t)(eq - p) >= sizeof key) {
            return error_code(err, ERR_USAGE, "uyi field '%.64s' is not key=value", p);
        }
        memcpy(key, p, (size_t)(eq - p));
        key[eq - p] = '\0';
        p = eq + 1;
        if (read_field(&p, value, sizeof value)) {
            return error_code(err, ERR_USAGE, "uyi field '%.64s': its value is too long", key);
        }
        int rc = uyi_engine_desc_set(d, key, value, err);
        if (rc) return rc;
    }
    if (!d->cmd[0]) {
        return error_code(err, ERR_USAGE, "agent 'uyi' needs cmd=COMMAND");
    }
    char out[SPEC_LEN];
    if (!spec_text(spec, out)) {
        return error_code(err, ERR_USAGE, "agent 'uyi': the spec is longer than %d characters", SPEC_LEN - 1);
    }
    return 0;
}

int agent_spec_engine(const char *file, const char *name, AgentSpec *spec, char *err)
{
    *spec = (AgentSpec){.kind = AGENT_UYI};
    int rc = uyi_engines_read(file, name, &spec->external, err);
    if (rc) return rc;
    char out[SPEC_LEN];
    if (!spec_text(spec, out)) {
        return error_code(err, ERR_USAGE, "%.200s: engine [%.64s] is longer than a spec may be (%d characters)", file,
                          name, SPEC_LEN - 1);
    }
    return 0;
}

bool agent_spec_external(const AgentSpec *spec) { return spec->kind == AGENT_UYI; }

int agent_spec_check(const AgentSpec *spec, const AgentEnv *env, char *err)
{
    if (spec->kind != AGENT_UYI) return 0;
    UyiEngineEnv e = {.log_dir = env ? env->log_dir : NULL, .answer_ms = env ? env->answer_ms : 0,
                      .transcript = env && env->transcript};
    return uyi_engine_check(&spec->external, &e, err);
}

/* ---- the agent: self is the engine and the game so far -------------------- */

typedef struct External {
    UyiEngine *engine;
    int nhistory;
    Action history[GAME_MAX_ACTIONS];
    /* the root visits of its last answer, when it said them (`info visits`) */
    int nchildren;
    Action children[MAX_ACTIONS];
    uint32_t visits[MAX_ACTIONS];
} External;

static int external_create(const AgentSpec *spec, void **self, char *err)
{
    External *x = calloc(1, sizeof *x);
    if (!x) return error_set(err, "out of memory for an agent");
    int rc = uyi_engine_new(&x->engine, &spec->external, err);
    if (rc) {
        free(x);
        return rc;
    }
    *self = x;
    return 0;
}

static void external_destroy(void *self)
{
    External *x = self;
    uyi_engine_free(x->engine);
    free(x);
}

static void external_reset(void *self)
{
    External *x = self;
    x->nhistory = 0;
}

static int external_new_game(void *self, const AgentEnv *env, bool seeded, uint64_t seed, char *why)
{
    External *x = self;
    UyiEngineEnv e;
    if (env)
        e = (UyiEngineEnv){.log_dir = env->log_dir, .answer_ms = env->answer_ms, .thread = env->thread,
                           .transcript = env->transcript, .visits = env->visits};
    return uyi_engine_new_game(x->engine, env ? &e : NULL, seeded, seed, why);
}

/* An action: `go` with the harness's limits, waited for as long as the
 * player has (movetime, or its clock if less) and the margin, or without a
 * time limit as long as the engine's answer time. */
static Action external_act(void *self, const Position *pos, const AgentLimits *lim, MoveStats *st)
{
    External *x = self;
    st->legal = movegen_count(pos);
    UyiTurn t = {.pos = pos, .moves = x->history, .nmoves = x->nhistory, .go = agent_limits_go(lim)};
    int64_t budget = -1;
    if (t.go.movetime >= 0) budget = t.go.movetime;
    if (lim && lim->clock) {
        int64_t left = lim->clock_ms[pos->actor];
        if (budget < 0 || left < budget) budget = left;
    }
    t.timed = budget >= 0;
    if (t.timed) t.wait_ms = budget + lim->margin_ms;
    Action best;
    UyiInfo info;
    st->fault = uyi_engine_go(x->engine, &t, &best, &info, st->why);
    st->sims = info.sims;
    /* the engine's one figure, `winprob` (its expected score); not
     * stored: an engine's actions are not searched ones, unless it said
     * its root visits (`info visits`, asked when the run stores them):
     * then the action is stored as a search's, with them */
    st->value = st->root_value = info.winprob;
    x->nchildren = st->fault ? 0 : info.nchildren;
    if (x->nchildren) {
        uint64_t total = 0;
        for (int i = 0; i < info.nchildren; i++) {
            x->children[i] = info.children[i];
            x->visits[i] = info.visits[i];
            total += info.visits[i];
            if (info.children[i] == best) st->chosen_visits = info.visits[i];
        }
        st->searched = true;
        st->root_visits = total > UINT32_MAX ? UINT32_MAX : (uint32_t)total;
    }
    return st->fault ? ACTION_NONE : best;
}

static int external_children(const void *self, Action *actions, uint32_t *visits, int max)
{
    const External *x = self;
    int k = x->nchildren < max ? x->nchildren : max;
    memcpy(actions, x->children, (size_t)k * sizeof *actions);
    memcpy(visits, x->visits, (size_t)k * sizeof *visits);
    return k;
}

static void external_observe(void *self, const Position *before, Action a)
{
    (void)before;
    External *x = self;
    if (x->nhistory < GAME_MAX_ACTIONS) x->history[x->nhistory++] = a;
}

static void external_log(void *self, int reason, const char *why)
{
    External *x = self;
    uyi_engine_log(x->engine, reason, why);
}

static int external_pid(const void *self)
{
    const External *x = self;
    return uyi_engine_pid(x->engine);
}

const AgentKind AGENT_KIND_UYI = {
    .name = "uyi",
    .parse = external_parse,
    .format = external_format,
    .create = external_create,
    .destroy = external_destroy,
    .reset = external_reset,
    .new_game = external_new_game,
    .act = external_act,
    .observe = external_observe,
    .children = external_children,
    .log = external_log,
    .pid = external_pid,
};
