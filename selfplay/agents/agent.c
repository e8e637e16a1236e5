#include <errno.h>
#include <stdatomic.h>
#include <unistd.h>
#include <math.h>
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
#include "uyi/client.h"

struct Agent {
    AgentSpec spec;
    Mcts *mcts; /* AGENT_MCTS */
    Ab *ab;     /* AGENT_AB */
    /* AGENT_UYI: the engine process (NULL until a game starts it, and
     * after a fault killed it), whether it has a `seed` option, and the
     * actions of the game so far, shown by agent_observe */
    UyiClient *client;
    AgentEnv env;
    char log[AGENT_PATH_LEN + 128]; /* the engine's log file ("" when none) */
    bool has_seed;
    int nhistory, variant;
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
    snprintf(spec->name, sizeof spec->name, "engine");
    if (!params || !*params) {
        return error_code(err, ERR_USAGE, "agent 'uyi' needs at least cmd=COMMAND (uyi:name=N;cmd=C;dir=D;option.K=V)");
    }
    char *p = params;
    while (*p) {
        char key[AGENT_NAME_LEN + 8], value[AGENT_CMD_LEN];
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
        for (const char *c = value; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f) {
                return error_code(err, ERR_USAGE, "uyi field %.64s: a control character in its value", key);
            }
        if (!strcmp(key, "name") && *value && strlen(value) < sizeof spec->name) {
            snprintf(spec->name, sizeof spec->name, "%s", value);
        } else if (!strcmp(key, "cmd") && *value) {
            snprintf(spec->cmd, sizeof spec->cmd, "%s", value);
        } else if (!strcmp(key, "dir") && strlen(value) < sizeof spec->dir) {
            snprintf(spec->dir, sizeof spec->dir, "%s", value);
        } else if (!strncmp(key, "option.", 7) && key[7] && strlen(value) < AGENT_OPTION_LEN &&
                   spec->noptions < AGENT_OPTIONS && !strpbrk(key + 7, " \t;\\")) {
            snprintf(spec->option_key[spec->noptions], AGENT_NAME_LEN, "%s", key + 7);
            snprintf(spec->option_value[spec->noptions++], AGENT_OPTION_LEN, "%s", value);
        } else if (!strncmp(key, "option.", 7) && (!key[7] || strpbrk(key + 7, " \t;\\"))) {
            /* the key is wrong, not its value */
            return error_code(err, ERR_USAGE, "uyi field '%.64s': an option's name is 1 or more characters after "
                              "'option.', without spaces, ';' or '\\'", key);
        } else if (!strncmp(key, "option.", 7) && spec->noptions == AGENT_OPTIONS) {
            return error_code(err, ERR_USAGE, "uyi field '%.64s': more than %d options", key, AGENT_OPTIONS);
        } else if (!strcmp(key, "name") || !strcmp(key, "cmd") || !strcmp(key, "dir") || !strncmp(key, "option.", 7)) {
            return error_code(err, ERR_USAGE, "uyi field %.64s: bad or too long value '%.64s'", key, value);
        } else {
            return error_code(err, ERR_USAGE, "unknown uyi field '%.64s' (known: name, cmd, dir, option.KEY)", key);
        }
    }
    if (!spec->cmd[0]) {
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
    size_t n = 4;
    memcpy(out, "uyi:", 5);
    bool ok = uyi_put(out, &n, "name", spec->name) && uyi_put(out, &n, "cmd", spec->cmd);
    if (ok && spec->dir[0]) ok = uyi_put(out, &n, "dir", spec->dir);
    for (int i = 0; ok && i < spec->noptions; i++) {
        char key[AGENT_NAME_LEN + 8];
        snprintf(key, sizeof key, "option.%s", spec->option_key[i]);
        ok = uyi_put(out, &n, key, spec->option_value[i]);
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
    } else if (strchr(buf, '=')) {
        /* a key=value without the agent it is a key of: name the key */
        return error_code(err, ERR_USAGE, "agent spec '%.64s': key '%.*s' comes without an agent (random, "
                          "mcts:KEY=VALUE,..., ab:KEY=VALUE,..., uyi:..., best)", text, (int)strcspn(buf, "="), buf);
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

/* Trims white space at both ends, in place. */
static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n')) s[--n] = '\0';
    return s;
}

int agent_spec_engine(const char *file, const char *name, AgentSpec *spec, char *err)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        return error_set(err, "cannot read the engines file '%.200s': %s", file, strerror(errno));
    }
    *spec = (AgentSpec){.kind = AGENT_UYI};
    snprintf(spec->name, sizeof spec->name, "%s", name);
    char line[1024];
    int lineno = 0, rc = 0;
    bool in = false, found = false;
    while (!rc && fgets(line, sizeof line, f)) {
        lineno++;
        char *l = trim(line);
        if (!*l || *l == '#' || *l == ';') continue;
        if (*l == '[') {
            char *end = strchr(l, ']');
            if (!end || end[1]) {
                rc = error_code(err, ERR_USAGE, "%.200s:%d: a section header is [NAME]", file, lineno);
                break;
            }
            *end = '\0';
            in = !strcmp(trim(l + 1), name);
            if (in && found) {
                rc = error_code(err, ERR_USAGE, "%.200s:%d: engine '%.64s' is defined twice", file, lineno, name);
            }
            found |= in;
            continue;
        }
        char *eq = strchr(l, '=');
        if (!eq) {
            rc = error_code(err, ERR_USAGE, "%.200s:%d: not `key = value`: '%.64s'", file, lineno, l);
            break;
        }
        if (!in) continue;
        *eq = '\0';
        char *key = trim(l), *value = trim(eq + 1), perr[ERR_LEN];
        /* the same checks as the spec's text: build "KEY=VALUE" with escapes */
        char one[AGENT_CMD_LEN + AGENT_NAME_LEN + 16];
        size_t n = (size_t)snprintf(one, sizeof one, "%s=", key);
        for (const char *v = value; *v && n + 3 < sizeof one; v++) {
            if (*v == ';' || *v == '\\') one[n++] = '\\';
            one[n++] = *v;
        }
        one[n] = '\0';
        AgentSpec tmp = *spec;
        if (!tmp.cmd[0]) snprintf(tmp.cmd, sizeof tmp.cmd, "-"); /* parse_uyi wants one; put back below */
        if (strcmp(key, "cmd") && strcmp(key, "dir") && strncmp(key, "option.", 7)) {
            rc = error_code(err, ERR_USAGE, "%.200s:%d: unknown key '%.64s' (known: cmd, dir, option.KEY)", file, lineno, key);
        } else if (parse_uyi(&tmp, one, perr)) {
            rc = error_code(err, ERR_USAGE, "%.200s:%d: %.400s", file, lineno, perr);
        } else {
            tmp.kind = AGENT_UYI;
            snprintf(tmp.name, sizeof tmp.name, "%s", spec->name);
            if (strcmp(key, "cmd")) snprintf(tmp.cmd, sizeof tmp.cmd, "%s", spec->cmd);
            *spec = tmp;
        }
    }
    fclose(f);
    if (rc) return rc;
    char out[SPEC_LEN];
    if (!found) {
        return error_code(err, ERR_USAGE, "the engines file '%.200s' has no engine [%.64s]", file, name);
    }
    if (!spec->cmd[0]) {
        return error_code(err, ERR_USAGE, "%.200s: engine [%.64s] has no cmd", file, name);
    }
    if (!uyi_format(spec, out) || strlen(name) >= AGENT_NAME_LEN) {
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

void agent_mcts_config(const AgentSpec *spec, MctsConfig *cfg)
{
    *cfg = (MctsConfig){.sims = spec->sims, .c = spec->c, .nodes = spec->nodes,
                        .evaluate = spec->rollout != ROLLOUT_RANDOM, .rollout = spec->rollout,
                        .weights = spec->weights, .threads = spec->threads, .solver = spec->solver,
                        .prior = spec->prior, .policy = spec->policy};
}

int agent_new(Agent **out, const AgentSpec *spec, char *err)
{
    Agent *a = calloc(1, sizeof *a);
    *out = NULL;
    if (!a) goto oom;
    a->spec = *spec;
    if (spec->kind == AGENT_MCTS) {
        MctsConfig cfg;
        agent_mcts_config(spec, &cfg);
        a->mcts = mcts_new(&cfg);
        if (!a->mcts) goto oom;
    } else if (spec->kind == AGENT_AB) {
        AbConfig cfg = {.depth = spec->depth, .max_depth = spec->max_depth, .tt_mb = spec->tt_mb,
                        .weights = spec->weights};
        a->ab = ab_new(&cfg);
        if (!a->ab) goto oom;
    }
    *out = a;
    return 0;
oom:
    free(a);
    return error_set(err, "out of memory for an agent's search tree or table");
}

void agent_free(Agent *agent)
{
    if (!agent) return;
    uyi_client_free(agent->client, 200);
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

/* ---- external engines: the conversation ----------------------------------- */

static int64_t answer_ms(const Agent *a) { return a->env.answer_ms > 0 ? a->env.answer_ms : AGENT_ANSWER_MS; }

/* A fault: the engine is killed (it starts again for the next game) and
 * the reason returned, with what happened in why. */
static int engine_fault(Agent *a, int reason, char *why, const char *fmt, const char *detail)
{
    snprintf(why, ERR_LEN, fmt, a->spec.name, detail ? detail : "");
    agent_log(a, reason, why);
    uyi_client_kill(a->client);
    a->client = NULL;
    return reason;
}

/* Reads lines until one starting with `want` (a whole word), at most
 * until deadline. `info` lines pass (handed to on_info); `info string
 * error` and any other line are engine errors. REASON_NONE with *line at
 * the wanted one, or the fault. */
static int engine_expect(Agent *a, const char *want, double deadline, int timeout_reason, const char **line,
                         MoveStats *st, char *why)
{
    size_t wlen = strlen(want);
    for (;;) {
        const char *l;
        int r = uyi_client_read(a->client, deadline, &l);
        if (r == UYI_READ_TIMEOUT)
            return engine_fault(a, timeout_reason, why, "engine %s: no '%s' in time", want);
        if (r == UYI_READ_EOF) return engine_fault(a, REASON_ENGINE_DIED, why, "engine %s died (waiting for '%s')", want);
        if (r == UYI_READ_LONG) return engine_fault(a, REASON_ENGINE_ERROR, why, "engine %s: a line too long%s", NULL);
        if (!strncmp(l, want, wlen) && (l[wlen] == '\0' || l[wlen] == ' ' || l[wlen] == '\t')) {
            *line = l;
            return REASON_NONE;
        }
        if (!strncmp(l, "info string error", 17))
            return engine_fault(a, REASON_ENGINE_ERROR, why, "engine %s: %.400s", l);
        if (!strncmp(l, "info", 4) && (l[4] == ' ' || l[4] == '\0')) {
            if (st) {
                /* the figures the record keeps from an engine: sims and winprob */
                const char *p;
                if ((p = strstr(l, " sims "))) st->sims = (uint32_t)strtoul(p + 6, NULL, 10);
                if ((p = strstr(l, " winprob "))) st->value = strtod(p + 9, NULL);
            }
            continue;
        }
        /* id and option lines belong to the handshake; anything else is not UYI */
        if (!strcmp(want, "uyiok") && (!strncmp(l, "id ", 3) || !strncmp(l, "option ", 7))) {
            if (!strncmp(l, "option name seed ", 17) || !strncmp(l, "option name Seed ", 17)) a->has_seed = true;
            continue;
        }
        if (!*l) continue;
        return engine_fault(a, REASON_ENGINE_ERROR, why, "engine %s wrote what is not UYI: '%.300s'", l);
    }
}

static int engine_send(Agent *a, const char *line, char *why)
{
    if (uyi_client_send(a->client, line))
        return engine_fault(a, REASON_ENGINE_DIED, why, "engine %s died (its input is closed)%s", NULL);
    return REASON_NONE;
}

void agent_log(Agent *agent, int reason, const char *why)
{
    if (!agent->log[0]) return;
    FILE *f = fopen(agent->log, "a");
    if (!f) return;
    fprintf(f, "yinsh: %s: %s\n", reason_name(reason), why);
    fclose(f);
}

static int engine_start(Agent *a, char *why)
{
    char err[ERR_LEN];
    const char *log_path = NULL;
    a->log[0] = '\0';
    if (a->env.log_dir) {
        /* one log per engine process: name, game thread, a count */
        static atomic_uint started;
        unsigned k = atomic_fetch_add(&started, 1);
        char name[AGENT_NAME_LEN];
        snprintf(name, sizeof name, "%s", a->spec.name);
        for (char *c = name; *c; c++) /* a file name, whatever the display name holds */
            if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-' ||
                  *c == '_'))
                *c = '_';
        snprintf(a->log, sizeof a->log, "%s/%s-t%d-%u-%ld.log", a->env.log_dir, name, a->env.thread, k,
                 (long)getpid());
        log_path = a->log;
    }
    if (uyi_client_start(&a->client, a->spec.cmd, a->spec.dir, log_path, err)) {
        a->client = NULL;
        snprintf(why, ERR_LEN, "engine %s: %.400s", a->spec.name, err);
        return REASON_ENGINE_DIED;
    }
    a->has_seed = false;
    const char *l;
    int rc;
    if ((rc = engine_send(a, "uyi", why)) ||
        (rc = engine_expect(a, "uyiok", clock_now() + answer_ms(a) * 1e-3, REASON_NO_ANSWER, &l, NULL, why)))
        return rc;
    for (int i = 0; i < a->spec.noptions; i++) {
        char line[AGENT_NAME_LEN + AGENT_OPTION_LEN + 32];
        snprintf(line, sizeof line, "setoption name %s value %s", a->spec.option_key[i], a->spec.option_value[i]);
        if ((rc = engine_send(a, line, why))) return rc;
    }
    return REASON_NONE;
}

int agent_new_game(Agent *agent, const AgentEnv *env, bool seeded, uint64_t seed, char *why)
{
    agent_reset(agent);
    if (agent->spec.kind != AGENT_UYI) return REASON_NONE;
    if (env) agent->env = *env;
    int rc;
    const char *l;
    if (!agent->client && (rc = engine_start(agent, why))) return rc;
    if ((rc = engine_send(agent, "isready", why)) ||
        (rc = engine_expect(agent, "readyok", clock_now() + answer_ms(agent) * 1e-3, REASON_NO_ANSWER, &l, NULL,
                            why)))
        return rc;
    if (seeded && agent->has_seed) {
        char line[64];
        snprintf(line, sizeof line, "setoption name seed value %llu", (unsigned long long)seed);
        if ((rc = engine_send(agent, line, why))) return rc;
    }
    return engine_send(agent, "newgame", why);
}

int agent_pid(const Agent *agent) { return agent->client ? (int)uyi_client_pid(agent->client) : 0; }

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

static Action engine_act(Agent *a, const Position *pos, const AgentLimits *lim, MoveStats *st)
{
    st->legal = movegen_count(pos);
    if (!a->client) {
        st->fault = REASON_ENGINE_DIED;
        snprintf(st->why, ERR_LEN, "engine %s is not running", a->spec.name);
        return ACTION_NONE;
    }
    /* position startpos [variant blitz] moves ...: at most 1000 actions of 15 characters */
    size_t cap = 64 + (size_t)a->nhistory * ACTION_MAX_LEN, n;
    char *line = malloc(cap);
    if (!line) {
        st->fault = engine_fault(a, REASON_ENGINE_ERROR, st->why, "engine %s: out of memory%s", NULL);
        return ACTION_NONE;
    }
    n = (size_t)snprintf(line, cap, "position startpos%s%s", pos->variant == VARIANT_BLITZ ? " variant blitz" : "",
                         a->nhistory ? " moves" : "");
    for (int i = 0; i < a->nhistory; i++) {
        char t[ACTION_MAX_LEN];
        n += (size_t)snprintf(line + n, cap - n, " %s", action_format(a->history[i], t));
    }
    UyiGo go = limits_go(lim);
    int64_t budget = -1; /* how long the harness waits: the time the player has, and the margin */
    if (go.movetime >= 0) budget = go.movetime;
    if (lim && lim->clock) {
        int64_t left = lim->clock_ms[pos->actor];
        if (budget < 0 || left < budget) budget = left;
    }
    bool timed = budget >= 0;
    double deadline = clock_now() + (timed ? (double)(budget + (lim ? lim->margin_ms : 0)) : (double)answer_ms(a)) * 1e-3;
    char golin[160];
    int g = snprintf(golin, sizeof golin, "go");
    if (go.sims > 0) g += snprintf(golin + g, sizeof golin - (size_t)g, " sims %lld", (long long)go.sims);
    if (go.movetime >= 0) g += snprintf(golin + g, sizeof golin - (size_t)g, " movetime %lld", (long long)go.movetime);
    if (go.wtime >= 0)
        snprintf(golin + g, sizeof golin - (size_t)g, " wtime %lld btime %lld winc %lld binc %lld", (long long)go.wtime,
                 (long long)go.btime, (long long)go.winc, (long long)go.binc);
    const char *l;
    int rc = engine_send(a, line, st->why);
    free(line);
    if (!rc) rc = engine_send(a, golin, st->why);
    if (!rc) rc = engine_expect(a, "bestmove", deadline, timed ? REASON_TIME_FORFEIT : REASON_NO_ANSWER, &l, st,
                                st->why);
    if (rc) {
        st->fault = rc;
        return ACTION_NONE;
    }
    char word[64] = "", err[ERR_LEN];
    Action act;
    sscanf(l + 8, " %63s", word);
    if (action_parse(pos, word, &act, err)) {
        snprintf(st->why, ERR_LEN, "engine %s answered 'bestmove %s': %.300s", a->spec.name, word, err);
        st->fault = REASON_ILLEGAL_ACTION;
        agent_log(a, st->fault, st->why);
        return ACTION_NONE;
    }
    return act;
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
    MctsLimits ml = {.sims = lim->sims};
    int64_t budget = uyi_budget_ms(&go, pos->actor);
    if (budget >= 0) ml.deadline = clock_now() + (double)budget * 1e-3;
    return agent_choose_limited(agent, pos, rng, &ml, stats);
}

Action agent_choose(Agent *agent, const Position *pos, Rng *rng, MoveStats *stats)
{
    return agent_choose_limited(agent, pos, rng, NULL, stats);
}

Action agent_choose_limited(Agent *agent, const Position *pos, Rng *rng, const MctsLimits *lim, MoveStats *stats)
{
    MoveStats st = {0};
    Action a = ACTION_NONE;
    /* the agent's own movetime: it never thinks longer, whatever it is given */
    MctsLimits own;
    if (agent->spec.movetime_ms && (agent->spec.kind == AGENT_MCTS || agent->spec.kind == AGENT_AB)) {
        double deadline = clock_now() + (double)agent->spec.movetime_ms * 1e-3;
        own = lim ? *lim : (MctsLimits){0};
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
    if (agent->nhistory == 0) agent->variant = before->variant;
    if (agent->nhistory < GAME_MAX_ACTIONS) agent->history[agent->nhistory++] = a;
    if (agent->mcts) mcts_advance(agent->mcts, before, a);
}
