/* Agent specs (agents/agent.h): the text a user types, read and written.
 * Here are the `best` alias, the kind's word and the dispatch to the
 * kind's table (agents/kind.h), the keys every searcher shares (movetime,
 * eval and the weights or net file it names), the canonical text's shared tail,
 * and the questions the code outside agents/ asks about a spec. */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "selfplay/agents/agent.h"
#include "selfplay/agents/kind.h"
#include "engine/base/error.h"
#include "engine/base/number.h"
#include "selfplay/search/ab.h"

static const AgentKind *const KINDS[AGENT_KINDS] = {
    [AGENT_RANDOM] = &AGENT_KIND_RANDOM,
    [AGENT_MCTS] = &AGENT_KIND_MCTS,
    [AGENT_AB] = &AGENT_KIND_AB,
    [AGENT_UYI] = &AGENT_KIND_UYI,
};

const AgentKind *agent_kind(const AgentSpec *spec) { return KINDS[spec->kind]; }

const AgentKind *agent_kind_named(const char *name, int *kind)
{
    for (int k = 0; k < AGENT_KINDS; k++)
        if (!strcmp(KINDS[k]->name, name)) {
            *kind = k;
            return KINDS[k];
        }
    return NULL;
}

bool agent_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
    long v;
    if (!number_long(s, min, max, &v)) return false;
    *out = (uint32_t)v;
    return true;
}

void agent_shortest_real(double v, char *out) { number_real_text(v, out); }

void agent_option(AgentOption *o, const char *name, long long min, long long max, const char *fmt, ...)
{
    *o = (AgentOption){.name = name, .spin = min <= max, .min = min, .max = max};
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->value, sizeof o->value, fmt, ap);
    va_end(ap);
}

/* ---- reading ----------------------------------------------------------- */

/* One key of a kind with keys: the shared movetime and eval here, the
 * others the kind's. option: agent_spec_set's, where movetime 0 unsets and
 * eval "" goes back to the built-in weights. */
static int set_key(AgentSpec *spec, const AgentKind *k, const char *key, const char *value, bool option, char *err)
{
    if (!strcmp(key, "movetime")) {
        long v;
        if (option && !strcmp(value, "0")) {
            spec->movetime_ms = 0;
            return 0;
        }
        if (number_long(value, 1, AGENT_MAX_MOVETIME_MS, &v)) {
            spec->movetime_ms = v;
            return 0;
        }
        return error_code(err, ERR_USAGE, "bad value '%.64s' for movetime (milliseconds, an integer from 1 to %d)",
                          value, AGENT_MAX_MOVETIME_MS);
    }
    if (!strcmp(key, "eval")) {
        if (option && !*value) {
            spec->eval[0] = '\0';
            weights_default(&spec->weights);
            return 0;
        }
        if (!*value || strlen(value) >= AGENT_PATH_LEN || strchr(value, ','))
            return error_code(err, ERR_USAGE,
                              "bad value '%.64s' for eval (a weights file path, or net:FILE, of 1 to %d characters, "
                              "no ',')", value, AGENT_PATH_LEN - 1);
        if (!strcmp(value, AGENT_NET_PREFIX))
            return error_code(err, ERR_USAGE, "bad value '%s' for eval: net: wants a net file, net:FILE or net:%s",
                              value, AGENT_NET_BUILTIN);
        if (!strcmp(value, AGENT_FN_PREFIX))
            return error_code(err, ERR_USAGE, "bad value '%s' for eval: fn: wants the outside evaluator's name, "
                              "fn:NAME", value);
        snprintf(spec->eval, sizeof spec->eval, "%s", value);
        return 0;
    }
    return k->set(spec, key, value, option, err);
}

/* Reads the file eval names into the spec: the weights, or the net of
 * net:FILE (net:builtin, the binary's), whose reference the spec then
 * holds. A file that cannot be read or is damaged is ERR_FAIL. */
static int eval_load(AgentSpec *spec, char *err)
{
    spec->net = NULL;
    if (agent_spec_names_outside(spec)) return 0; /* the program gives it: agent_spec_attach */
    if (!agent_spec_names_net(spec)) return weights_load(spec->eval, &spec->weights, err) ? ERR_FAIL : 0;
    const char *file = spec->eval + strlen(AGENT_NET_PREFIX);
    Nnue *net;
    char nerr[ERR_LEN];
    int rc = !strcmp(file, AGENT_NET_BUILTIN) ? nnue_load_builtin(&net, nerr) : nnue_load(&net, file, nerr);
    if (rc) return error_set(err, "eval=%.200s: %.280s", spec->eval, nerr);
    spec->net = net;
    return 0;
}

/* eval=fn:NAME evaluates PUCT's leaves: an mcts spec's (whose check
 * wants puct=1 with it), no other kind's. */
static int outside_check(const AgentSpec *spec, char *err)
{
    if (agent_spec_names_outside(spec) && spec->kind != AGENT_MCTS)
        return error_code(err, ERR_USAGE, "eval=%.200s: an outside evaluator scores PUCT's leaves: it goes with "
                          "mcts:...,puct=1", spec->eval);
    return 0;
}

/* `best`: the strongest agent measured (results/strength.md), with the
 * tuned weights as shipped: the same text in any folder (a folder
 * without eval/ reads the copy built into yinsh, evaluation.h). */
static const char *best_spec(char *out, size_t len)
{
    snprintf(out, len, "ab:depth=%d,maxdepth=%d,tech=%s,tempo=%s,eval=%s", AGENT_BEST_DEPTH, AB_MAX_DEPTH,
             AGENT_BEST_TECH, AGENT_BEST_TEMPO, AGENT_BEST_WEIGHTS);
    return out;
}

/* The names of the kinds, as an unknown agent's message lists them. */
static void known_kinds(char *out, size_t len)
{
    size_t n = 0;
    out[0] = '\0';
    for (int k = 0; k < AGENT_KINDS && n < len; k++)
        n += (size_t)snprintf(out + n, len - n, "%s%s", k ? ", " : "", KINDS[k]->name);
}

static int spec_parse(const char *text, AgentSpec *spec, bool load, char *err)
{
    spec->net = NULL; /* a refused text leaves no net to give back */
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

    int kind;
    const AgentKind *k = agent_kind_named(buf, &kind);
    if (!k && strchr(buf, '=')) {
        /* a key=value without the agent it is a key of: name the key */
        return error_code(err, ERR_USAGE, "agent spec '%.64s': key '%.*s' comes without an agent (random, "
                          "mcts:KEY=VALUE,..., ab:KEY=VALUE,..., uyi:..., best)", text, (int)strcspn(buf, "="), buf);
    }
    if (!k) {
        char known[64];
        known_kinds(known, sizeof known);
        return error_code(err, ERR_USAGE, "unknown agent '%.64s' (known: %s)", buf, known);
    }
    *spec = (AgentSpec){.kind = kind};
    weights_default(&spec->weights);
    if (k->defaults) k->defaults(spec);
    if (k->parse) return k->parse(spec, params, err);
    int rc;
    for (char *save = NULL, *kv = params ? strtok_r(params, ",", &save) : NULL; kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq) {
            return error_code(err, ERR_USAGE, "%s parameter '%.64s' is not key=value", buf, kv);
        }
        *eq = '\0';
        if ((rc = set_key(spec, k, kv, eq + 1, false, err))) return rc;
    }
    if (k->check && (rc = k->check(spec, false, err))) return rc;
    if ((rc = outside_check(spec, err))) return rc;
    /* read once here: every agent made from this spec shares the values
     * (a net: the one loaded copy) */
    if (spec->eval[0] && load) return eval_load(spec, err);
    return 0;
}

int agent_spec_parse(const char *text, AgentSpec *spec, char *err) { return spec_parse(text, spec, true, err); }

int agent_spec_parse_text(const char *text, AgentSpec *spec, char *err)
{
    return spec_parse(text, spec, false, err);
}

int agent_spec_set(AgentSpec *spec, const char *key, const char *value, char *err)
{
    const AgentKind *k = agent_kind(spec);
    if (!k->set) return error_code(err, ERR_USAGE, "agent '%s' has no parameters to set", k->name);
    AgentSpec s = *spec;
    int rc;
    if ((rc = set_key(&s, k, key, value, true, err))) return rc;
    if (k->check && (rc = k->check(&s, true, err))) return rc;
    if ((rc = outside_check(&s, err))) return rc;
    if (!strcmp(key, "eval")) {
        /* the new eval's file, then the old net given back; an outside
         * evaluator stays attached only to its own name */
        s.net = NULL;
        if (strcmp(s.eval, spec->eval)) s.outside = NULL;
        if (s.eval[0] && (rc = eval_load(&s, err))) return rc;
        nnue_free(spec->net);
    }
    *spec = s;
    return 0;
}

void agent_spec_release(AgentSpec *spec)
{
    nnue_free(spec->net);
    spec->net = NULL;
}

void agent_spec_copy(AgentSpec *to, const AgentSpec *from)
{
    *to = *from;
    nnue_retain(to->net);
}

/* ---- writing ----------------------------------------------------------- */

char *agent_spec_format(const AgentSpec *spec, char *out)
{
    const AgentKind *k = agent_kind(spec);
    k->format(spec, out);
    /* movetime, the searchers' newer key: last, and only when set, so that
     * earlier specs keep their text */
    if (k->set && spec->movetime_ms) {
        size_t n = strlen(out);
        snprintf(out + n, SPEC_LEN - n, ",movetime=%lld", (long long)spec->movetime_ms);
    }
    return out;
}

int agent_spec_options(const AgentSpec *spec, AgentOption *out)
{
    const AgentKind *k = agent_kind(spec);
    int n = k->options ? k->options(spec, out) : 0;
    if (k->set)
        agent_option(&out[n++], "movetime", 0, AGENT_MAX_MOVETIME_MS, "%lld", (long long)spec->movetime_ms);
    return n;
}

/* ---- questions --------------------------------------------------------- */

const char *agent_spec_kind_name(const AgentSpec *spec) { return agent_kind(spec)->name; }
bool agent_spec_has_keys(const AgentSpec *spec) { return agent_kind(spec)->set != NULL; }

bool agent_spec_has_eval(const AgentSpec *spec)
{
    const AgentKind *k = agent_kind(spec);
    return k->has_eval && k->has_eval(spec);
}

const char *agent_spec_eval_file(const AgentSpec *spec) { return spec->eval; }

bool agent_spec_names_net(const AgentSpec *spec)
{
    return agent_spec_has_keys(spec) && !strncmp(spec->eval, AGENT_NET_PREFIX, strlen(AGENT_NET_PREFIX));
}

const Nnue *agent_spec_net(const AgentSpec *spec) { return agent_spec_has_keys(spec) ? spec->net : NULL; }

bool agent_spec_names_outside(const AgentSpec *spec)
{
    return agent_spec_has_keys(spec) && !strncmp(spec->eval, AGENT_FN_PREFIX, strlen(AGENT_FN_PREFIX));
}

int agent_spec_attach(AgentSpec *spec, const AgentOutside *o, char *err)
{
    if (!agent_spec_names_outside(spec) || strcmp(spec->eval + strlen(AGENT_FN_PREFIX), o->name))
        return error_code(err, ERR_USAGE, "the agent's eval is '%.200s', not the outside evaluator fn:%.200s",
                          spec->eval, o->name);
    spec->outside = o;
    return 0;
}

bool agent_spec_eval_hash(const AgentSpec *spec, uint64_t *hash)
{
    if (!agent_spec_has_keys(spec) || !spec->eval[0]) return false;
    if (agent_spec_names_outside(spec)) {
        if (spec->outside) *hash = spec->outside->hash;
        return spec->outside != NULL;
    }
    if (agent_spec_names_net(spec)) {
        assert(spec->net && "a net spec read without its net has no content hash");
        *hash = nnue_hash(spec->net);
    } else {
        *hash = weights_hash(&spec->weights);
    }
    return true;
}

const Weights *agent_spec_weights(const AgentSpec *spec)
{
    return agent_spec_has_keys(spec) && !agent_spec_names_net(spec) && !agent_spec_names_outside(spec) ? &spec->weights
                                                                                                        : NULL;
}

int agent_spec_set_weight(AgentSpec *spec, int feature, double value, char *err)
{
    if (!agent_spec_has_keys(spec))
        return error_code(err, ERR_USAGE, "agent '%s' has no evaluation", agent_spec_kind_name(spec));
    if (agent_spec_names_net(spec) || agent_spec_names_outside(spec))
        return error_code(err, ERR_USAGE, "the agent evaluates with a net (eval=%.200s): it has no linear weights",
                          spec->eval);
    spec->weights.w[feature] = value;
    return 0;
}
