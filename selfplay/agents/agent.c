#include <errno.h>
#include <stdatomic.h>
#include <unistd.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/error.h"
#include "search/ab.h"
#include "agents/agent.h"
#include "search/mcts.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "base/number.h"
#include "base/clock.h"
#include "uyi/command.h"
#include "uyi/engine.h"

struct Agent {
    AgentSpec spec;
    Mcts *mcts; /* AGENT_MCTS */
    Ab *ab;     /* AGENT_AB */
    /* AGENT_UYI: the engine (its process runs from the first game on), and
     * the actions of the game so far, shown by agent_observe */
    UyiEngine *engine;
    int nhistory;
    Action history[GAME_MAX_ACTIONS];
};

/* ---- external engines: the spec ------------------------------------------- */

/* One field value of a uyi spec, unescaped ('\\;' -> ';', '\\\\' -> '\\')
 * from *p up to the next unescaped ';' or the end; *p moves past it. */
static int uyi_field(char **p, char *out, size_t len)
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

static int parse_uyi(AgentSpec *spec, char *params, char *err)
{
    spec->kind = AGENT_UYI;
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
        if (uyi_field(&p, value, sizeof value)) {
            return error_code(err, ERR_USAGE, "uyi field '%.64s': its value is too long", key);
        }
        int rc = uyi_engine_desc_set(d, key, value, err);
        if (rc) return rc;
    }
    if (!d->cmd[0]) {
        return error_code(err, ERR_USAGE, "agent 'uyi' needs cmd=COMMAND");
    }
    return 0;
}

/* Appends key=value with ';' and '\\' escaped; false when out is full. */
static bool uyi_put(char *out, size_t *n, const char *key, const char *value)
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

/* The canonical text; false when it does not fit in SPEC_LEN. */
static bool uyi_format(const AgentSpec *spec, char *out)
{
    const UyiEngineDesc *d = &spec->external;
    size_t n = 4;
    memcpy(out, "uyi:", 5);
    bool ok = uyi_put(out, &n, "name", d->name) && uyi_put(out, &n, "cmd", d->cmd);
    if (ok && d->dir[0]) ok = uyi_put(out, &n, "dir", d->dir);
    for (int i = 0; ok && i < d->noptions; i++) {
        const char *k, *v;
        char key[UYI_ENGINE_NAME_LEN + 8];
        uyi_engine_option(d, i, &k, &v);
        snprintf(key, sizeof key, "option.%s", k);
        ok = uyi_put(out, &n, key, v);
    }
    return ok;
}

static bool parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
    long v;
    if (!number_long(s, min, max, &v)) return false;
    *out = (uint32_t)v;
    return true;
}

/* The eval key, shared by mcts and ab. */
static int parse_eval_key(AgentSpec *spec, const char *value, char *err)
{
    if (!*value || strlen(value) >= AGENT_PATH_LEN || strchr(value, ',')) {
        return error_code(err, ERR_USAGE, "bad value '%.64s' for eval (a weights file path of 1 to %d characters, no ',')", value,
                 AGENT_PATH_LEN - 1);
    }
    snprintf(spec->eval, sizeof spec->eval, "%s", value);
    return 0;
}

/* One key=value of an mcts spec. */
static int parse_mcts_key(AgentSpec *spec, const char *key, const char *value, char *err)
{
    if (!strcmp(key, "sims")) {
        if (parse_u32(value, 1, 10000000, &spec->sims)) return 0;
        snprintf(err, ERR_LEN, "bad value '%s' for sims (an integer from 1 to 10000000)", value);
    } else if (!strcmp(key, "c")) {
        if (number_real(value, 0, 100, &spec->c)) return 0;
        snprintf(err, ERR_LEN, "bad value '%s' for c (a number from 0 to 100)", value);
    } else if (!strcmp(key, "rollout")) {
        uint32_t n;
        if (!strcmp(value, "random")) {
            spec->rollout = ROLLOUT_RANDOM;
            return 0;
        }
        if (parse_u32(value, 0, ROLLOUT_MAX, &n)) {
            spec->rollout = (int)n;
            return 0;
        }
        snprintf(err, ERR_LEN, "bad value '%.64s' for rollout (random, or an integer from 0 to %d)", value,
                 ROLLOUT_MAX);
    } else if (!strcmp(key, "eval")) {
        return parse_eval_key(spec, value, err);
    } else if (!strcmp(key, "nodes")) {
        if (parse_u32(value, 2, MCTS_MAX_NODES, &spec->nodes)) return 0;
        snprintf(err, ERR_LEN, "bad value '%s' for nodes (an integer from 2 to %u)", value,
                 (unsigned)MCTS_MAX_NODES);
    } else if (!strcmp(key, "threads")) {
        if (parse_u32(value, 1, MCTS_MAX_THREADS, &spec->threads)) return 0;
        snprintf(err, ERR_LEN, "bad value '%.64s' for threads (an integer from 1 to %d)", value, MCTS_MAX_THREADS);
    } else if (!strcmp(key, "solver")) {
        uint32_t v;
        if (parse_u32(value, 0, 1, &v)) {
            spec->solver = v;
            return 0;
        }
        snprintf(err, ERR_LEN, "bad value '%.64s' for solver (0 or 1)", value);
    } else if (!strcmp(key, "prior")) {
        if (number_real(value, 0, 100, &spec->prior)) return 0;
        snprintf(err, ERR_LEN, "bad value '%.64s' for prior (a number from 0 to 100)", value);
    } else if (!strcmp(key, "policy")) {
        if (!strcmp(value, "uniform") || !strcmp(value, "rows")) {
            spec->policy = !strcmp(value, "rows") ? MCTS_POLICY_ROWS : MCTS_POLICY_UNIFORM;
            return 0;
        }
        snprintf(err, ERR_LEN, "bad value '%.64s' for policy (uniform or rows)", value);
    } else {
        snprintf(err, ERR_LEN,
                 "unknown mcts key '%.64s' (known: sims, c, rollout, eval, nodes, threads, solver, prior, policy, "
                 "movetime)", key);
    }
    return ERR_USAGE;
}

/* One key=value of an ab spec. */
static int parse_ab_key(AgentSpec *spec, const char *key, const char *value, char *err)
{
    uint32_t n;
    if (!strcmp(key, "depth")) {
        if (parse_u32(value, 1, AB_MAX_DEPTH, &n)) {
            spec->depth = (int)n;
            return 0;
        }
        snprintf(err, ERR_LEN, "bad value '%.64s' for depth (an integer from 1 to %d)", value, AB_MAX_DEPTH);
    } else if (!strcmp(key, "maxdepth")) {
        if (parse_u32(value, 1, AB_MAX_DEPTH, &n)) {
            spec->max_depth = (int)n;
            return 0;
        }
        snprintf(err, ERR_LEN, "bad value '%.64s' for maxdepth (an integer from 1 to %d)", value, AB_MAX_DEPTH);
    } else if (!strcmp(key, "tt")) {
        if (parse_u32(value, 1, AB_MAX_TT_MB, &spec->tt_mb)) return 0;
        snprintf(err, ERR_LEN, "bad value '%.64s' for tt (MiB, an integer from 1 to %d)", value, AB_MAX_TT_MB);
    } else if (!strcmp(key, "eval")) {
        return parse_eval_key(spec, value, err);
    } else {
        snprintf(err, ERR_LEN, "unknown ab key '%.64s' (known: depth, maxdepth, tt, eval, movetime)", key);
    }
    return ERR_USAGE;
}

/* One key=value of an mcts or ab spec; movetime is both's. */
static int parse_key(AgentSpec *spec, const char *key, const char *value, char *err)
{
    if (!strcmp(key, "movetime")) {
        long v;
        if (number_long(value, 1, AGENT_MAX_MOVETIME_MS, &v)) {
            spec->movetime_ms = v;
            return 0;
        }
        return error_code(err, ERR_USAGE, "bad value '%.64s' for movetime (milliseconds, an integer from 1 to %d)", value,
                 AGENT_MAX_MOVETIME_MS);
    }
    return spec->kind == AGENT_AB ? parse_ab_key(spec, key, value, err) : parse_mcts_key(spec, key, value, err);
}

/* `best`: the strongest agent measured (results/strength.md), with the
 * tuned weights from the working folder or, failing that, the source tree. */
static const char *best_spec(char *out, size_t len)
{
    const char *weights = AGENT_BEST_WEIGHTS;
#ifdef YINSH_SOURCE_DIR
    char path[AGENT_PATH_LEN];
    snprintf(path, sizeof path, "%s/%s", YINSH_SOURCE_DIR, AGENT_BEST_WEIGHTS);
    if (access(weights, R_OK) != 0 && access(path, R_OK) == 0) weights = path;
#endif
    snprintf(out, len, "ab:depth=%d,maxdepth=%d,eval=%s", AGENT_BEST_DEPTH, AB_MAX_DEPTH, weights);
    return out;
}

static int spec_parse(const char *text, AgentSpec *spec, bool load, char *err)
{
    /* `best` and `best:KEY=VALUE,...`: its spec with the keys after it */
    char best[SPEC_LEN * 2];
    if (!strcmp(text, "best") || !strncmp(text, "best:", 5)) {
        best_spec(best, SPEC_LEN);
        if (text[4] && strlen(best) + strlen(text) - 4 >= sizeof best) {
            return error_code(err, ERR_USAGE, "agent spec too long");
        }
        if (text[4]) strcat(strcat(best, ","), text + 5);
        text = best;
    }
    char buf[SPEC_LEN * 2];
    if (strlen(text) >= sizeof buf) {
        return error_code(err, ERR_USAGE, "agent spec too long");
    }
    strcpy(buf, text);
    char *params = strchr(buf, ':');
    if (params) *params++ = '\0';

    *spec = (AgentSpec){.kind = AGENT_RANDOM, .sims = AGENT_DEFAULT_SIMS, .c = 1.0, .rollout = ROLLOUT_RANDOM,
                        .depth = AB_DEFAULT_DEPTH, .tt_mb = AB_DEFAULT_TT_MB, .threads = 1};
    weights_default(&spec->weights);
    if (!strcmp(buf, "uyi")) {
        char out[SPEC_LEN];
        if (parse_uyi(spec, params, err)) return ERR_USAGE;
        if (!uyi_format(spec, out)) {
            return error_code(err, ERR_USAGE, "agent 'uyi': the spec is longer than %d characters", SPEC_LEN - 1);
        }
        return 0;
    }
    if (!strcmp(buf, "random")) {
        if (params) {
            return error_code(err, ERR_USAGE, "agent 'random' takes no parameters (got '%.64s')", params);
        }
        return 0;
    }
    if (!strcmp(buf, "mcts")) {
        spec->kind = AGENT_MCTS;
    } else if (!strcmp(buf, "ab")) {
        spec->kind = AGENT_AB;
    } else {
        return error_code(err, ERR_USAGE, "unknown agent '%.64s' (known: random, mcts, ab, uyi)", buf);
    }
    if (!params) return 0;
    for (char *save = NULL, *kv = strtok_r(params, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq) {
            return error_code(err, ERR_USAGE, "%s parameter '%.64s' is not key=value", buf, kv);
        }
        *eq = '\0';
        if (parse_key(spec, kv, eq + 1, err)) return ERR_USAGE;
    }
    if (spec->kind == AGENT_AB) {
        if (spec->eval[0] && load && weights_load(spec->eval, &spec->weights, err)) return ERR_FAIL;
        return 0;
    }
    if (spec->eval[0]) {
        if (spec->rollout == ROLLOUT_RANDOM) {
            return error_code(err, ERR_USAGE, "eval=%.64s has no effect with rollout=random (give rollout=N)", spec->eval);
        }
        /* read once here: every agent made from this spec shares the values */
        if (load && weights_load(spec->eval, &spec->weights, err)) return ERR_FAIL;
    }
    return 0;
}

int agent_spec_parse(const char *text, AgentSpec *spec, char *err) { return spec_parse(text, spec, true, err); }

int agent_spec_parse_text(const char *text, AgentSpec *spec, char *err)
{
    return spec_parse(text, spec, false, err);
}

int agent_spec_engine(const char *file, const char *name, AgentSpec *spec, char *err)
{
    *spec = (AgentSpec){.kind = AGENT_UYI};
    int rc = uyi_engines_read(file, name, &spec->external, err);
    if (rc) return rc;
    char out[SPEC_LEN];
    if (!uyi_format(spec, out)) {
        return error_code(err, ERR_USAGE, "%.200s: engine [%.64s] is longer than a spec may be (%d characters)", file, name,
                 SPEC_LEN - 1);
    }
    return 0;
}

int agent_spec_set(AgentSpec *spec, const char *key, const char *value, char *err)
{
    if (spec->kind != AGENT_MCTS && spec->kind != AGENT_AB) {
        return error_code(err, ERR_USAGE, "agent '%s' has no parameters to set", spec->kind == AGENT_UYI ? "uyi" : "random");
    }
    AgentSpec s = *spec;
    if (!strcmp(key, "eval") && !*value) {
        s.eval[0] = '\0';
        weights_default(&s.weights);
    } else if (s.kind == AGENT_MCTS && !strcmp(key, "nodes") && !strcmp(value, "0")) {
        s.nodes = 0;
    } else if (s.kind == AGENT_AB && !strcmp(key, "maxdepth") && !strcmp(value, "0")) {
        s.max_depth = 0;
    } else if (!strcmp(key, "movetime") && !strcmp(value, "0")) {
        s.movetime_ms = 0;
    } else if (parse_key(&s, key, value, err)) {
        return ERR_USAGE;
    }
    if (s.kind == AGENT_MCTS && s.eval[0] && s.rollout == ROLLOUT_RANDOM) {
        return error_code(err, ERR_USAGE, "eval=%.64s has no effect with rollout=random (set rollout=N first)", s.eval);
    }
    if (!strcmp(key, "eval") && s.eval[0] && weights_load(s.eval, &s.weights, err)) return ERR_FAIL;
    *spec = s;
    return 0;
}

/* %.17g round-trips but is noisy; the shortest form that does (32 bytes). */
static void shortest_real(double v, char *out)
{
    snprintf(out, 32, "%.17g", v);
    for (int prec = 1; prec < 17; prec++) {
        char tmp[32];
        snprintf(tmp, sizeof tmp, "%.*g", prec, v);
        if (strtod(tmp, NULL) == v) {
            memcpy(out, tmp, sizeof tmp);
            return;
        }
    }
}

char *agent_spec_format(const AgentSpec *spec, char *out)
{
    if (spec->kind == AGENT_RANDOM) {
        snprintf(out, SPEC_LEN, "random");
        return out;
    }
    if (spec->kind == AGENT_AB) {
        int n = snprintf(out, SPEC_LEN, "ab:depth=%d,tt=%u", spec->depth, (unsigned)spec->tt_mb);
        if (spec->max_depth && n > 0 && n < SPEC_LEN)
            n += snprintf(out + n, SPEC_LEN - (size_t)n, ",maxdepth=%d", spec->max_depth);
        if (spec->eval[0] && n > 0 && n < SPEC_LEN) n += snprintf(out + n, SPEC_LEN - (size_t)n, ",eval=%s", spec->eval);
        if (spec->movetime_ms && n > 0 && n < SPEC_LEN)
            snprintf(out + n, SPEC_LEN - (size_t)n, ",movetime=%lld", (long long)spec->movetime_ms);
        return out;
    }
    if (spec->kind == AGENT_UYI) {
        if (!uyi_format(spec, out)) out[SPEC_LEN - 1] = '\0'; /* parse refuses a spec this long */
        return out;
    }
    char c[32], prior[32], rollout[16];
    shortest_real(spec->c, c);
    shortest_real(spec->prior, prior);
    if (spec->rollout == ROLLOUT_RANDOM)
        snprintf(rollout, sizeof rollout, "random");
    else
        snprintf(rollout, sizeof rollout, "%d", spec->rollout);
    int n = snprintf(out, SPEC_LEN, "mcts:sims=%u,c=%s,rollout=%s", (unsigned)spec->sims, c, rollout);
    if (spec->eval[0] && n > 0 && n < SPEC_LEN)
        n += snprintf(out + n, SPEC_LEN - (size_t)n, ",eval=%s", spec->eval);
    if (spec->nodes && n > 0 && n < SPEC_LEN)
        n += snprintf(out + n, SPEC_LEN - (size_t)n, ",nodes=%u", (unsigned)spec->nodes);
    /* the newer keys only when set, so that earlier specs keep their text */
    if (spec->threads > 1 && n > 0 && n < SPEC_LEN)
        n += snprintf(out + n, SPEC_LEN - (size_t)n, ",threads=%u", (unsigned)spec->threads);
    if (spec->solver && n > 0 && n < SPEC_LEN) n += snprintf(out + n, SPEC_LEN - (size_t)n, ",solver=1");
    if (spec->prior > 0 && n > 0 && n < SPEC_LEN) n += snprintf(out + n, SPEC_LEN - (size_t)n, ",prior=%s", prior);
    if (spec->policy == MCTS_POLICY_ROWS && n > 0 && n < SPEC_LEN)
        n += snprintf(out + n, SPEC_LEN - (size_t)n, ",policy=rows");
    if (spec->movetime_ms && n > 0 && n < SPEC_LEN)
        snprintf(out + n, SPEC_LEN - (size_t)n, ",movetime=%lld", (long long)spec->movetime_ms);
    return out;
}

static void mcts_config(const AgentSpec *spec, MctsConfig *cfg)
{
    *cfg = (MctsConfig){.sims = spec->sims, .c = spec->c, .nodes = spec->nodes,
                        .evaluate = spec->rollout != ROLLOUT_RANDOM, .rollout = spec->rollout,
                        .weights = spec->weights, .threads = spec->threads, .solver = spec->solver,
                        .prior = spec->prior, .policy = spec->policy};
}

bool agent_spec_mcts_config(const AgentSpec *spec, MctsConfig *cfg)
{
    if (spec->kind != AGENT_MCTS) return false;
    mcts_config(spec, cfg);
    return true;
}

const char *agent_spec_kind_name(const AgentSpec *spec)
{
    static const char *const names[] = {[AGENT_RANDOM] = "random", [AGENT_MCTS] = "mcts", [AGENT_UYI] = "uyi",
                                        [AGENT_AB] = "ab"};
    return names[spec->kind];
}

bool agent_spec_external(const AgentSpec *spec) { return spec->kind == AGENT_UYI; }
bool agent_spec_random(const AgentSpec *spec) { return spec->kind == AGENT_RANDOM; }
bool agent_spec_has_keys(const AgentSpec *spec) { return spec->kind == AGENT_MCTS || spec->kind == AGENT_AB; }

bool agent_spec_has_eval(const AgentSpec *spec)
{
    return spec->kind == AGENT_AB || (spec->kind == AGENT_MCTS && spec->rollout != ROLLOUT_RANDOM);
}

uint32_t agent_spec_sims(const AgentSpec *spec) { return spec->kind == AGENT_MCTS ? spec->sims : 0; }
const char *agent_spec_eval_file(const AgentSpec *spec) { return agent_spec_has_keys(spec) ? spec->eval : ""; }
const Weights *agent_spec_weights(const AgentSpec *spec) { return agent_spec_has_keys(spec) ? &spec->weights : NULL; }

int agent_spec_set_weight(AgentSpec *spec, int feature, double value, char *err)
{
    if (!agent_spec_has_keys(spec))
        return error_code(err, ERR_USAGE, "agent '%s' has no evaluation", agent_spec_kind_name(spec));
    spec->weights.w[feature] = value;
    return 0;
}

/* One option into *o: a spin from min to max, or a string when min > max. */
static void put_option(AgentOption *o, const char *name, long long min, long long max, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void put_option(AgentOption *o, const char *name, long long min, long long max, const char *fmt, ...)
{
    *o = (AgentOption){.name = name, .spin = min <= max, .min = min, .max = max};
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->value, sizeof o->value, fmt, ap);
    va_end(ap);
}

int agent_spec_options(const AgentSpec *spec, AgentOption *out)
{
    int n = 0;
    if (spec->kind == AGENT_MCTS) {
        char c[32];
        shortest_real(spec->c, c);
        put_option(&out[n++], "sims", 1, 10000000, "%u", (unsigned)spec->sims);
        put_option(&out[n++], "c", 1, 0, "%s", c);
        if (spec->rollout == ROLLOUT_RANDOM) put_option(&out[n++], "rollout", 1, 0, "random");
        else put_option(&out[n++], "rollout", 1, 0, "%d", spec->rollout);
        put_option(&out[n++], "eval", 1, 0, "%s", spec->eval);
        put_option(&out[n++], "nodes", 0, MCTS_MAX_NODES, "%u", (unsigned)spec->nodes);
    } else if (spec->kind == AGENT_AB) {
        put_option(&out[n++], "depth", 1, AB_MAX_DEPTH, "%d", spec->depth);
        put_option(&out[n++], "tt", 1, AB_MAX_TT_MB, "%u", (unsigned)spec->tt_mb);
        put_option(&out[n++], "eval", 1, 0, "%s", spec->eval);
        put_option(&out[n++], "maxdepth", 0, AB_MAX_DEPTH, "%d", spec->max_depth);
    }
    if (agent_spec_has_keys(spec))
        put_option(&out[n++], "movetime", 0, AGENT_MAX_MOVETIME_MS, "%lld", (long long)spec->movetime_ms);
    return n;
}

int agent_new(Agent **out, const AgentSpec *spec, char *err)
{
    Agent *a = calloc(1, sizeof *a);
    *out = NULL;
    if (!a) return error_set(err, "out of memory for an agent");
    a->spec = *spec;
    int rc = 0;
    if (spec->kind == AGENT_MCTS) {
        MctsConfig cfg;
        mcts_config(spec, &cfg);
        rc = mcts_new(&a->mcts, &cfg, err);
    } else if (spec->kind == AGENT_AB) {
        AbConfig cfg = {.depth = spec->depth, .max_depth = spec->max_depth, .tt_mb = spec->tt_mb,
                        .weights = spec->weights};
        rc = ab_new(&a->ab, &cfg, err);
    } else if (spec->kind == AGENT_UYI) {
        rc = uyi_engine_new(&a->engine, &spec->external, err);
    }
    if (rc) {
        free(a);
        return rc;
    }
    *out = a;
    return 0;
}

void agent_free(Agent *agent)
{
    if (!agent) return;
    uyi_engine_free(agent->engine);
    mcts_free(agent->mcts);
    ab_free(agent->ab);
    free(agent);
}

const AgentSpec *agent_spec(const Agent *agent) { return &agent->spec; }

void agent_reset(Agent *agent)
{
    if (agent->mcts) mcts_clear(agent->mcts);
    if (agent->ab) ab_clear(agent->ab);
    agent->nhistory = 0;
}

/* ---- external engines: the conversation (uyi/engine.h) ------------------ */

void agent_log(Agent *agent, int reason, const char *why)
{
    if (agent->engine) uyi_engine_log(agent->engine, reason, why);
}

int agent_new_game(Agent *agent, const AgentEnv *env, bool seeded, uint64_t seed, char *why)
{
    agent_reset(agent);
    if (!agent->engine) return REASON_NONE;
    UyiEngineEnv e = {0}, *ep = NULL;
    if (env) {
        e = (UyiEngineEnv){.log_dir = env->log_dir, .answer_ms = env->answer_ms, .thread = env->thread};
        ep = &e;
    }
    return uyi_engine_new_game(agent->engine, ep, seeded, seed, why);
}

int agent_pid(const Agent *agent) { return agent->engine ? uyi_engine_pid(agent->engine) : 0; }

/* The UyiGo of the harness's limits: what an external engine is sent and
 * what an internal agent's budget is computed from (one policy). */
static UyiGo limits_go(const AgentLimits *lim)
{
    UyiGo go = {.sims = -1, .movetime = -1, .wtime = -1, .btime = -1, .winc = -1, .binc = -1};
    if (!lim) return go;
    if (lim->sims) go.sims = lim->sims;
    if (lim->movetime_ms > 0) go.movetime = lim->movetime_ms;
    if (lim->clock) {
        go.wtime = lim->clock_ms[WHITE] > 0 ? lim->clock_ms[WHITE] : 0;
        go.btime = lim->clock_ms[BLACK] > 0 ? lim->clock_ms[BLACK] : 0;
        go.winc = go.binc = lim->inc_ms;
    }
    return go;
}

/* An external engine's action: `go` with the harness's limits, waited
 * for as long as the player has (movetime, or its clock if less) and the
 * margin, or without a time limit the engine's answer time. */
static Action engine_act(Agent *a, const Position *pos, const AgentLimits *lim, MoveStats *st)
{
    st->legal = movegen_count(pos);
    UyiTurn t = {.pos = pos, .moves = a->history, .nmoves = a->nhistory, .go = limits_go(lim)};
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
    st->fault = uyi_engine_go(a->engine, &t, &best, &info, st->why);
    st->sims = info.sims;
    st->value = info.winprob;
    return st->fault ? ACTION_NONE : best;
}

Action agent_act(Agent *agent, const Position *pos, Rng *rng, const AgentLimits *lim, MoveStats *stats)
{
    MoveStats st = {0};
    if (agent->spec.kind == AGENT_UYI) {
        Action a = engine_act(agent, pos, lim, &st);
        if (stats) *stats = st;
        return a;
    }
    if (!lim) return agent_choose_limited(agent, pos, rng, NULL, stats);
    /* the agent's own movetime replaces the run's (under a clock, the
     * clock's share still caps it) */
    AgentLimits own;
    if (agent->spec.movetime_ms) {
        own = *lim;
        own.movetime_ms = agent->spec.movetime_ms;
        lim = &own;
    }
    UyiGo go = limits_go(lim);
    SearchLimits ml = {.sims = lim->sims};
    int64_t budget = uyi_budget_ms(&go, pos->actor);
    if (budget >= 0) ml.deadline = clock_now() + (double)budget * 1e-3;
    return agent_choose_limited(agent, pos, rng, &ml, stats);
}

Action agent_choose(Agent *agent, const Position *pos, Rng *rng, MoveStats *stats)
{
    return agent_choose_limited(agent, pos, rng, NULL, stats);
}

Action agent_choose_limited(Agent *agent, const Position *pos, Rng *rng, const SearchLimits *lim, MoveStats *stats)
{
    MoveStats st = {0};
    Action a = ACTION_NONE;
    /* the agent's own movetime: it never thinks longer, whatever it is given */
    SearchLimits own;
    if (agent->spec.movetime_ms && (agent->spec.kind == AGENT_MCTS || agent->spec.kind == AGENT_AB)) {
        double deadline = clock_now() + (double)agent->spec.movetime_ms * 1e-3;
        own = lim ? *lim : (SearchLimits){0};
        if (own.deadline <= 0 || deadline < own.deadline) own.deadline = deadline;
        lim = &own;
    }
    if (agent->spec.kind == AGENT_MCTS) {
        st.legal = movegen_count(pos);
        if (st.legal == 1) {
            /* a forced action needs no search */
            a = movegen_random(pos, rng);
        } else {
            MctsResult r;
            a = mcts_search_limited(agent->mcts, pos, rng, lim, &r);
            st.searched = r.searched; /* a random fallback is not a search */
            st.root_visits = r.root_visits;
            st.chosen_visits = r.chosen_visits;
            st.value = r.value;
            st.sims = r.sims;
            st.proven = r.proven;
        }
    } else if (agent->spec.kind == AGENT_AB) {
        AbResult r;
        a = ab_search(agent->ab, pos, lim, &r);
        st.legal = r.legal;
        st.searched = true;
        st.root_visits = r.nodes > UINT32_MAX ? UINT32_MAX : (uint32_t)r.nodes;
        st.chosen_visits = (uint32_t)r.depth;
        st.sims = st.root_visits;
        st.value = ab_score_value(r.score);
    } else {
        st.legal = movegen_count(pos);
        a = movegen_random(pos, rng);
    }
    if (stats) *stats = st;
    return a;
}

int agent_pv(const Agent *agent, Action *pv, int max)
{
    if (agent->ab) return ab_pv(agent->ab, pv, max);
    return agent->mcts ? mcts_pv(agent->mcts, pv, max) : 0;
}

void agent_observe(Agent *agent, const Position *before, Action a)
{
    if (agent->nhistory < GAME_MAX_ACTIONS) agent->history[agent->nhistory++] = a;
    if (agent->mcts) mcts_advance(agent->mcts, before, a);
}
