/* The alpha-beta agent (agents/kind.h): the spec `ab:KEY=VALUE,...` and
 * its keys (agent.h lists them), and an agent that keeps one
 * transposition table (search/ab.h) through a game. It draws nothing from
 * the rng. */
#include <stdio.h>
#include <string.h>
#include "selfplay/agents/agent.h"
#include "selfplay/agents/kind.h"
#include "engine/base/error.h"
#include "engine/base/number.h"
#include "selfplay/search/ab.h"

/* The names of tech=, in the order the canonical text writes them, with
 * their bits (search/ab.h). A name's meaning never changes: a changed
 * technique gets a new name. */
static const struct {
    const char *name;
    uint32_t bit;
} TECHS[] = {
    {"killers", AB_KILLERS}, {"asp", AB_ASPIRATION}, {"lmr", AB_LMR},
    {"nmp", AB_NULL},        {"nmp2", AB_NULL2},     {"fut", AB_FUTILITY},
    {"qs", AB_QUIESCE},
};
enum { TECH_NB = sizeof TECHS / sizeof *TECHS };

/* tech=: names joined by '+', each once, in any order; "none" (or, as an
 * engine option, "") for none. */
static int tech_parse(const char *value, bool option, uint32_t *out, char *err)
{
    uint32_t bits = 0;
    if (!strcmp(value, "none") || (option && !*value)) {
        *out = 0;
        return 0;
    }
    for (const char *p = value; *p;) {
        size_t len = strcspn(p, "+");
        int k = 0;
        while (k < TECH_NB && (strlen(TECHS[k].name) != len || strncmp(TECHS[k].name, p, len))) k++;
        if (k == TECH_NB || (bits & TECHS[k].bit) || (p[len] == '+' && !p[len + 1]))
            return error_code(err, ERR_USAGE, "bad value '%.64s' for tech (names joined by '+', each once: "
                              "killers, asp, lmr, nmp, nmp2, fut, qs; or none)", value);
        bits |= TECHS[k].bit;
        p += len + (p[len] == '+');
    }
    if (!bits) return error_code(err, ERR_USAGE, "bad value '%.64s' for tech (no technique named)", value);
    if ((bits & AB_NULL) && (bits & AB_NULL2))
        return error_code(err, ERR_USAGE, "bad value '%.64s' for tech (nmp and nmp2 are two null moves: one of "
                          "them)", value);
    *out = bits;
    return 0;
}

/* The canonical text of bits: the names in TECHS' order, or "none". */
static void tech_format(uint32_t bits, char *out, size_t len)
{
    size_t n = 0;
    out[0] = '\0';
    for (int k = 0; k < TECH_NB; k++)
        if (bits & TECHS[k].bit) n += (size_t)snprintf(out + n, len - n, "%s%s", n ? "+" : "", TECHS[k].name);
    if (!n) snprintf(out, len, "none");
}

static void ab_defaults(AgentSpec *spec)
{
    spec->ab = (AgentAbParams){.depth = AB_DEFAULT_DEPTH, .tt_mb = AB_DEFAULT_TT_MB, .threads = 1};
}

/* smp=NAME: the names of AB_SMP_* (ab.h), by value */
static const char *const smp_names[] = {"lazy", "abdada", "defer", "skip"};
_Static_assert(sizeof smp_names / sizeof *smp_names == AB_SMP_SKIP + 1, "a name for each AB_SMP_*");

static int ab_set(AgentSpec *spec, const char *key, const char *value, bool option, char *err)
{
    AgentAbParams *p = &spec->ab;
    uint32_t n;
    if (!strcmp(key, "depth")) {
        if (agent_parse_u32(value, 1, AB_MAX_DEPTH, &n)) {
            p->depth = (int)n;
            return 0;
        }
        return error_code(err, ERR_USAGE, "bad value '%.64s' for depth (an integer from 1 to %d)", value,
                          AB_MAX_DEPTH);
    }
    if (!strcmp(key, "maxdepth")) {
        if (option && !strcmp(value, "0")) {
            p->max_depth = 0;
            return 0;
        }
        if (agent_parse_u32(value, 1, AB_MAX_DEPTH, &n)) {
            p->max_depth = (int)n;
            return 0;
        }
        return error_code(err, ERR_USAGE, "bad value '%.64s' for maxdepth (an integer from 1 to %d)", value,
                          AB_MAX_DEPTH);
    }
    if (!strcmp(key, "tt")) {
        if (agent_parse_u32(value, 1, AB_MAX_TT_MB, &p->tt_mb)) return 0;
        return error_code(err, ERR_USAGE, "bad value '%.64s' for tt (MiB, an integer from 1 to %d)", value,
                          AB_MAX_TT_MB);
    }
    if (!strcmp(key, "tech")) return tech_parse(value, option, &p->tech, err);
    if (!strcmp(key, "tempo")) {
        long v;
        if (number_long(value, -AB_MAX_TEMPO, AB_MAX_TEMPO, &v)) {
            p->tempo = (int)v;
            return 0;
        }
        return error_code(err, ERR_USAGE, "bad value '%.64s' for tempo (score units, an integer from %d to %d)",
                          value, -AB_MAX_TEMPO, AB_MAX_TEMPO);
    }
    if (!strcmp(key, "threads")) {
        if (agent_parse_u32(value, 1, AB_MAX_THREADS, &p->threads)) return 0;
        return error_code(err, ERR_USAGE, "bad value '%.64s' for threads (an integer from 1 to %d)", value,
                          AB_MAX_THREADS);
    }
    if (!strcmp(key, "smp")) {
        for (int i = 0; i < (int)(sizeof smp_names / sizeof *smp_names); i++)
            if (!strcmp(value, smp_names[i])) {
                p->smp = i;
                return 0;
            }
        return error_code(err, ERR_USAGE, "bad value '%.64s' for smp (lazy, abdada, defer or skip)", value);
    }
    return error_code(err, ERR_USAGE,
                      "unknown ab key '%.64s' (known: depth, maxdepth, tt, tech, tempo, threads, smp, eval, movetime)",
                      key);
}

static bool ab_has_eval(const AgentSpec *spec)
{
    (void)spec;
    return true;
}

static void ab_format(const AgentSpec *spec, char *out)
{
    const AgentAbParams *p = &spec->ab;
    int n = snprintf(out, SPEC_LEN, "ab:depth=%d,tt=%u", p->depth, (unsigned)p->tt_mb);
    if (p->max_depth && n > 0 && n < SPEC_LEN) n += snprintf(out + n, SPEC_LEN - (size_t)n, ",maxdepth=%d", p->max_depth);
    /* the keys after 8f70ac8 only when set: an older spec's text is unchanged */
    if (p->tech && n > 0 && n < SPEC_LEN) {
        char t[96];
        tech_format(p->tech, t, sizeof t);
        n += snprintf(out + n, SPEC_LEN - (size_t)n, ",tech=%s", t);
    }
    if (p->tempo && n > 0 && n < SPEC_LEN) n += snprintf(out + n, SPEC_LEN - (size_t)n, ",tempo=%d", p->tempo);
    if (p->threads > 1 && n > 0 && n < SPEC_LEN)
        n += snprintf(out + n, SPEC_LEN - (size_t)n, ",threads=%u", (unsigned)p->threads);
    if (p->smp != AB_SMP_LAZY && n > 0 && n < SPEC_LEN)
        n += snprintf(out + n, SPEC_LEN - (size_t)n, ",smp=%s", smp_names[p->smp]);
    if (spec->eval[0] && n > 0 && n < SPEC_LEN) snprintf(out + n, SPEC_LEN - (size_t)n, ",eval=%s", spec->eval);
}

static int ab_options(const AgentSpec *spec, AgentOption *out)
{
    const AgentAbParams *p = &spec->ab;
    agent_option(&out[0], "depth", 1, AB_MAX_DEPTH, "%d", p->depth);
    agent_option(&out[1], "tt", 1, AB_MAX_TT_MB, "%u", (unsigned)p->tt_mb);
    agent_option(&out[2], "eval", 1, 0, "%s", spec->eval);
    agent_option(&out[3], "maxdepth", 0, AB_MAX_DEPTH, "%d", p->max_depth);
    char t[96];
    tech_format(p->tech, t, sizeof t);
    agent_option(&out[4], "tech", 1, 0, "%s", t);
    agent_option(&out[5], "tempo", -AB_MAX_TEMPO, AB_MAX_TEMPO, "%d", p->tempo);
    agent_option(&out[6], "threads", 1, AB_MAX_THREADS, "%u", (unsigned)p->threads);
    agent_option(&out[7], "smp", 1, 0, "%s", smp_names[p->smp]);
    return 8;
}

/* ---- the agent: self is its Ab ------------------------------------------ */

static void config_of(const AgentSpec *spec, AbConfig *cfg)
{
    *cfg = (AbConfig){.depth = spec->ab.depth, .max_depth = spec->ab.max_depth, .tt_mb = spec->ab.tt_mb,
                      .weights = spec->weights, .net = spec->net, .tech = spec->ab.tech, .tempo = spec->ab.tempo,
                      .threads = (int)spec->ab.threads, .smp = spec->ab.smp};
}

bool agent_spec_ab_config(const AgentSpec *spec, AbConfig *cfg)
{
    if (spec->kind != AGENT_AB) return false;
    config_of(spec, cfg);
    return true;
}

static int ab_create(const AgentSpec *spec, void **self, char *err)
{
    /* the net is the agent's spec's (agent_new holds a reference for the Ab's life) */
    AbConfig cfg;
    config_of(spec, &cfg);
    cfg.threads = (int)agent_search_threads(spec);
    Ab *ab;
    int rc = ab_new(&ab, &cfg, err);
    *self = ab;
    return rc;
}

bool agent_spec_deterministic(const AgentSpec *spec)
{
    return spec->kind == AGENT_AB && spec->ab.threads <= 1 && !spec->movetime_ms;
}

static void ab_destroy(void *self) { ab_free(self); }
static void ab_reset(void *self) { ab_clear(self); }

static Action ab_choose(void *self, const Position *pos, Rng *rng, const SearchLimits *lim, MoveStats *st)
{
    (void)rng;
    AbResult r;
    Action a = ab_search(self, pos, lim, &r);
    st->legal = r.legal;
    st->searched = true;
    st->root_visits = r.nodes > UINT32_MAX ? UINT32_MAX : (uint32_t)r.nodes;
    st->depth = (uint32_t)r.depth;
    st->sims = st->root_visits;
    st->budget = SEARCH_BUDGET_FULL; /* no playout cap: every search is full */
    /* the score is the root's: the chosen action's value is the position's */
    st->value = st->root_value = ab_score_value(r.score);
    return a;
}

static int ab_agent_pv(const void *self, Action *pv, int max) { return ab_pv(self, pv, max); }

const AgentKind AGENT_KIND_AB = {
    .name = "ab",
    .defaults = ab_defaults,
    .set = ab_set,
    .has_eval = ab_has_eval,
    .format = ab_format,
    .options = ab_options,
    .create = ab_create,
    .destroy = ab_destroy,
    .reset = ab_reset,
    .choose = ab_choose,
    .pv = ab_agent_pv,
};
