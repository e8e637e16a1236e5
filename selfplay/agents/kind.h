/* The kinds of agent, inside agents/: each kind (random.c, mcts.c, ab.c,
 * external.c) fills one table of functions, and spec.c and agent.c
 * dispatch through it, as pachi's `struct engine` does. A kind leaves NULL
 * what it has nothing to do for; the comments say what NULL means. The
 * table is read once per spec parsed and once per decision, never inside
 * a search. Nothing outside agents/ includes this header: AgentSpec.kind
 * is this file's enum, and the others ask agent.h's questions.
 *
 * An agent is its spec and the kind's own state, `self` (its search, or
 * its engine and the game so far), which the kind makes and which its
 * functions are handed; agent.c keeps the two together. The types of
 * agent.h are only named here, so that agent.c, which includes this
 * header, and agent.h do not include each other. */
#ifndef YINSH_AGENT_KIND_H
#define YINSH_AGENT_KIND_H

#include <stdbool.h>
#include <stdint.h>
#include "engine/position.h"
#include "engine/base/rng.h"
#include "selfplay/search/limits.h"
#include "selfplay/uyi/command.h"

typedef struct AgentSpec AgentSpec;
typedef struct AgentOption AgentOption;
typedef struct MoveStats MoveStats;
typedef struct AgentLimits AgentLimits;
typedef struct AgentEnv AgentEnv;

/* AgentSpec.kind: a row of the table, in the order agent_kind lists them
 * (the order of the "known:" list of an unknown agent's message). 0 is
 * random, so that a zeroed spec is the random agent. */
enum { AGENT_RANDOM, AGENT_MCTS, AGENT_AB, AGENT_UYI, AGENT_KINDS };

typedef struct AgentKind {
    const char *name; /* the spec's word */

    /* ---- the spec (spec.c) ---- */
    /* The kind's defaults into a spec zeroed but for its kind and the
     * built-in weights. NULL: zeros. */
    void (*defaults)(AgentSpec *spec);
    /* The text after "NAME:" (NULL when there is none) in a syntax of the
     * kind's own. NULL: the shared KEY=VALUE,... text, each key through
     * set below. */
    int (*parse)(AgentSpec *spec, char *params, char *err);
    /* One key of the KEY=VALUE text but the shared movetime and eval,
     * which spec.c sets for every kind that has set. option: as an engine
     * option (agent_spec_set), where 0 unsets what the text cannot. 0, or
     * ERR_USAGE naming the key. NULL: no keys (agent_spec_has_keys). */
    int (*set)(AgentSpec *spec, const char *key, const char *value, bool option, char *err);
    /* The keys together, once all are set (before the weights are read):
     * 0 or ERR_USAGE. NULL: nothing to check. */
    int (*check)(const AgentSpec *spec, bool option, char *err);
    /* agent_spec_has_eval. NULL: false. */
    bool (*has_eval)(const AgentSpec *spec);
    /* The canonical text but the shared movetime, which spec.c appends
     * (SPEC_LEN bytes). */
    void (*format)(const AgentSpec *spec, char *out);
    /* The kind's keys as engine options, but movetime (spec.c adds it):
     * their number. NULL: none. */
    int (*options)(const AgentSpec *spec, AgentOption *out);

    /* ---- the agent (agent.c), on its state `self` ---- */
    /* Makes *self for an agent of spec: 0 or ERR_FAIL. NULL: no state. */
    int (*create)(const AgentSpec *spec, void **self, char *err);
    void (*destroy)(void *self);
    /* A new game: forget what was kept. NULL: nothing kept. */
    void (*reset)(void *self);
    /* agent_new_game, after reset. NULL: REASON_NONE. */
    int (*new_game)(void *self, const AgentEnv *env, bool seeded, uint64_t seed, char *why);
    /* An internal agent's choice under search limits (NULL: none), st
     * zeroed. NULL for an agent that only acts (act below). */
    Action (*choose)(void *self, const Position *pos, Rng *rng, const SearchLimits *lim, MoveStats *st);
    /* An action under the harness's limits, st zeroed. NULL: choose, under
     * the search limits agent.c derives from the harness's. */
    Action (*act)(void *self, const Position *pos, const AgentLimits *lim, MoveStats *st);
    /* agent_pv. NULL: 0. */
    int (*pv)(const void *self, Action *pv, int max);
    /* agent_root_children. NULL: 0. */
    int (*children)(const void *self, Action *actions, uint32_t *visits, int max);
    /* agent_observe. NULL: nothing to follow. */
    void (*observe)(void *self, const Position *before, Action a);
    /* agent_log and agent_pid. NULL: no log, no process. */
    void (*log)(void *self, int reason, const char *why);
    int (*pid)(const void *self);
} AgentKind;

extern const AgentKind AGENT_KIND_RANDOM, AGENT_KIND_MCTS, AGENT_KIND_AB, AGENT_KIND_UYI;

/* The kind of a spec, and the kind named by a spec's word (NULL: none). */
const AgentKind *agent_kind(const AgentSpec *spec);
const AgentKind *agent_kind_named(const char *name, int *kind);

/* spec.c's helpers for the kinds' keys and texts. */
bool agent_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out);
/* The shortest text that reads back as v (32 bytes): %.17g round-trips but is noisy. */
void agent_shortest_real(double v, char *out);
/* One option into *o: a spin from min to max, or a string when min > max. */
void agent_option(AgentOption *o, const char *name, long long min, long long max, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* The UyiGo of the harness's limits (NULL: none): what an external engine
 * is sent and what an internal agent's budget is computed from (one
 * policy, agent.c). */
UyiGo agent_limits_go(const AgentLimits *lim);

#endif
