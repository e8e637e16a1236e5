/* PUCT with an outside evaluator (include/yinsh.h): selfplay/search/mcts.h
 * with puct set, whose MctsEvaluate turns a batch of MctsLeaf into the
 * plain arrays of yinsh_eval_fn (planes, mask) and the caller's priors
 * and values back into the leaves. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/base/rng.h"
#include "engine/encode/encode.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "lib/lib_internal.h"
#include "selfplay/search/mcts.h"

_Static_assert((int)YINSH_ERR_LEN == (int)ERR_LEN, "the evaluator's err is the search's");
_Static_assert((int)YINSH_PUCT_MAX_BATCH == (int)MCTS_MAX_BATCH, "one bound on a batch");
_Static_assert((int)YINSH_OBSERVATION == (int)ENCODE_SIZE && (int)YINSH_ACTIONS == (int)ENCODE_ACTIONS,
               "the arrays' shapes are the encoder's");

/* One evaluation's arrays. A search of several threads evaluates from
 * each at once: every call claims a free set (busy, an atomic flag set
 * by the claiming thread and cleared by it after the call), allocated
 * the first time it is claimed, so one thread costs one set. */
typedef struct EvalArrays {
    _Atomic bool busy;
    float *planes;  /* batch x ENCODE_SIZE */
    uint8_t *mask;  /* batch x ENCODE_ACTIONS */
    float *priors;  /* batch x ENCODE_ACTIONS */
    float *values;  /* batch */
} EvalArrays;

struct yinsh_puct {
    Mcts *mcts;
    Rng rng;
    yinsh_eval_fn fn;
    void *ctx;
    int batch;
    uint32_t nsets;
    EvalArrays sets[MCTS_MAX_THREADS];
};

static bool arrays_alloc(EvalArrays *a, int batch)
{
    size_t n = (size_t)batch;
    a->planes = malloc(n * ENCODE_SIZE * sizeof *a->planes);
    a->mask = malloc(n * ENCODE_ACTIONS);
    a->priors = malloc(n * ENCODE_ACTIONS * sizeof *a->priors);
    a->values = malloc(n * sizeof *a->values);
    return a->planes && a->mask && a->priors && a->values;
}

static void arrays_free(EvalArrays *a)
{
    free(a->planes);
    free(a->mask);
    free(a->priors);
    free(a->values);
}

static EvalArrays *arrays_claim(yinsh_puct *s)
{
    for (uint32_t i = 0; i < s->nsets; i++) {
        bool was = false;
        if (!atomic_compare_exchange_strong(&s->sets[i].busy, &was, true)) continue;
        EvalArrays *a = &s->sets[i];
        if (a->values || arrays_alloc(a, s->batch)) return a; /* values: the last allocated */
        arrays_free(a);
        a->planes = NULL, a->mask = NULL, a->priors = NULL, a->values = NULL;
        atomic_store(&a->busy, false);
        return NULL;
    }
    return NULL; /* more callers than threads: never, the search has nsets threads */
}

/* The MctsEvaluate of the search: the leaves as arrays, the caller's
 * function, its priors read at each legal action's index. */
static int lib_evaluate(void *ctx, MctsLeaf *leaves, int n, char *err)
{
    yinsh_puct *s = ctx;
    EvalArrays *a = arrays_claim(s);
    if (!a) return error_set(err, "out of memory for the evaluator's arrays (%d leaves)", s->batch);
    memset(a->mask, 0, (size_t)n * ENCODE_ACTIONS);
    memset(a->priors, 0, (size_t)n * ENCODE_ACTIONS * sizeof *a->priors);
    for (int l = 0; l < n; l++) {
        encode_planes(leaves[l].pos, ENCODE_VIEW_ACTOR, a->planes + (size_t)l * ENCODE_SIZE);
        uint8_t *mask = a->mask + (size_t)l * ENCODE_ACTIONS;
        for (int i = 0; i < leaves[l].nlegal; i++) mask[encode_action(leaves[l].legal[i])] = 1;
        a->values[l] = 0;
    }
    err[0] = '\0';
    int rc = s->fn(s->ctx, n, a->planes, a->mask, a->priors, a->values, err);
    if (rc) {
        err[ERR_LEN - 1] = '\0'; /* the caller's message, whatever it wrote */
        if (!err[0]) error_set(err, "the evaluator failed (%d)", rc);
    } else {
        for (int l = 0; l < n; l++) {
            const float *prior = a->priors + (size_t)l * ENCODE_ACTIONS;
            for (int i = 0; i < leaves[l].nlegal; i++) leaves[l].prior[i] = prior[encode_action(leaves[l].legal[i])];
            leaves[l].value = a->values[l];
        }
    }
    atomic_store(&a->busy, false);
    return rc ? ERR_FAIL : 0;
}

int yinsh_puct_new(yinsh_puct **out, const yinsh_puct_config *cfg, yinsh_eval_fn fn, void *ctx, char *err)
{
    char scratch[ERR_LEN];
    err = ERR_OR_SCRATCH(err, scratch);
    *out = NULL;
    if (!cfg || !fn) return error_code(err, ERR_USAGE, "PUCT needs its settings and an evaluator function");
    if (cfg->sims == 0 || cfg->sims > 10000000)
        return error_code(err, ERR_USAGE, "sims %u: expected 1..10000000", (unsigned)cfg->sims);
    if (!(cfg->c >= 0) || !(cfg->fpu >= 0 && cfg->fpu <= 1))
        return error_code(err, ERR_USAGE, "c %g, fpu %g: expected c >= 0 and fpu in [0, 1]", cfg->c, cfg->fpu);
    if (cfg->batch > MCTS_MAX_BATCH)
        return error_code(err, ERR_USAGE, "batch %u: expected 1..%d", (unsigned)cfg->batch, (int)MCTS_MAX_BATCH);
    if (cfg->threads > MCTS_MAX_THREADS)
        return error_code(err, ERR_USAGE, "threads %u: expected 1..%d", (unsigned)cfg->threads,
                          (int)MCTS_MAX_THREADS);
    if (!(cfg->noise >= 0 && cfg->noise <= 1) || !(cfg->alpha >= 0) || !(cfg->temp >= 0))
        return error_code(err, ERR_USAGE, "noise %g, alpha %g, temp %g: expected noise in [0, 1], alpha and temp >= 0",
                          cfg->noise, cfg->alpha, cfg->temp);
    if (cfg->nodes > MCTS_MAX_NODES)
        return error_code(err, ERR_USAGE, "nodes %u: at most %d", (unsigned)cfg->nodes, (int)MCTS_MAX_NODES);
    yinsh_puct *s = calloc(1, sizeof *s);
    if (!s) return error_set(err, "out of memory for a search");
    s->fn = fn;
    s->ctx = ctx;
    s->batch = cfg->batch ? (int)cfg->batch : 1;
    s->nsets = cfg->threads > 1 ? cfg->threads : 1;
    rng_seed(&s->rng, cfg->seed, 0);
    MctsConfig mc = {.sims = cfg->sims, .c = cfg->c, .nodes = cfg->nodes, .threads = cfg->threads,
                     .solver = cfg->solver != 0, .temp = cfg->temp, .temp_moves = cfg->temp_moves,
                     .noise = cfg->noise, .alpha = cfg->alpha, .puct = true, .batch = cfg->batch, .fpu = cfg->fpu,
                     .evaluate_fn = lib_evaluate, .evaluate_ctx = s};
    int rc = mcts_new(&s->mcts, &mc, err);
    if (rc) {
        free(s);
        return rc;
    }
    *out = s;
    return 0;
}

void yinsh_puct_free(yinsh_puct *s)
{
    if (!s) return;
    mcts_free(s->mcts);
    for (uint32_t i = 0; i < s->nsets; i++) arrays_free(&s->sets[i]);
    free(s);
}

void yinsh_puct_new_game(yinsh_puct *s) { mcts_clear(s->mcts); }

int yinsh_puct_search(yinsh_puct *s, const yinsh_position *p, int *index, yinsh_move_stats *stats, int *children,
                      uint32_t *visits, int *nchildren, char *err)
{
    char scratch[ERR_LEN];
    err = ERR_OR_SCRATCH(err, scratch);
    *index = -1;
    if (stats) memset(stats, 0, sizeof *stats);
    if (nchildren) *nchildren = 0;
    if (pos_outcome(&p->pos, NULL, NULL)) {
        char ypn[YPN_MAX_LEN];
        return error_code(err, ERR_USAGE, "the game is over in %s: nothing to search", ypn_format(&p->pos, ypn));
    }
    MctsResult r;
    Action act = mcts_search(s->mcts, &p->pos, &s->rng, &r);
    const char *why = mcts_error(s->mcts);
    if (why) return error_set(err, "%s", why);
    *index = encode_action(act);
    /* the root's children by index: their order in the tree is the
     * canonical order of actions, which is not the indices' across kinds */
    Action acts[MAX_ACTIONS];
    uint32_t v[MAX_ACTIONS];
    int k = mcts_root_children(s->mcts, acts, v, MAX_ACTIONS), idx[MAX_ACTIONS];
    for (int i = 0; i < k; i++) {
        int a = encode_action(acts[i]), j = i;
        uint32_t n = v[i];
        for (; j > 0 && idx[j - 1] > a; j--) idx[j] = idx[j - 1], v[j] = v[j - 1];
        idx[j] = a, v[j] = n;
    }
    for (int i = 0; i < k; i++) {
        if (children) children[i] = idx[i];
        if (visits) visits[i] = v[i];
    }
    if (nchildren) *nchildren = k;
    if (!stats) return 0;
    Action pv[YINSH_PV_MAX];
    int npv = mcts_pv(s->mcts, pv, YINSH_PV_MAX);
    *stats = (yinsh_move_stats){.legal = r.legal, .searched = r.searched, .root_visits = r.root_visits,
                                .chosen_visits = r.chosen_visits, .value = r.value, .sims = r.sims, .depth = npv,
                                .proven = r.proven, .npv = npv, .root_value = r.root_value};
    for (int i = 0; i < npv; i++) stats->pv[i] = encode_action(pv[i]);
    return 0;
}

int yinsh_puct_advance(yinsh_puct *s, const yinsh_position *before, int index, char *err)
{
    Action act = encode_action_at(index);
    if (act == ACTION_NONE || !movegen_is_legal(&before->pos, act))
        return error_code(err, ERR_USAGE, "action index %d is not legal in the position before", index);
    mcts_advance(s->mcts, &before->pos, act);
    return 0;
}

int yinsh_puct_set_pcr(yinsh_puct *s, double p, uint32_t sims, char *err)
{
    char scratch[ERR_LEN];
    return mcts_set_pcr(s->mcts, p, sims, ERR_OR_SCRATCH(err, scratch));
}
