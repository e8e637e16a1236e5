/* A caller's evaluator (yinsh_eval_fn) behind the agents' MctsEvaluate
 * (lib/lib_internal.h, LibOutside): self-play and the UYI engine of an
 * outside evaluator go through it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/encode/encode.h"
#include "lib/lib_internal.h"

static int grow(LibOutside *o, int n, char *err)
{
    if (n <= o->cap) return 0;
    size_t k = (size_t)n;
    float *planes = realloc(o->planes, k * ENCODE_SIZE * sizeof *planes);
    if (planes) o->planes = planes;
    uint8_t *mask = realloc(o->mask, k * ENCODE_ACTIONS);
    if (mask) o->mask = mask;
    float *priors = realloc(o->priors, k * ENCODE_ACTIONS * sizeof *priors);
    if (priors) o->priors = priors;
    float *values = realloc(o->values, k * sizeof *values);
    if (values) o->values = values;
    if (!planes || !mask || !priors || !values)
        return error_set(err, "out of memory for the evaluator's arrays (%d leaves)", n);
    o->cap = n;
    return 0;
}

int lib_outside_evaluate(void *ctx, MctsLeaf *leaves, int n, char *err)
{
    LibOutside *o = ctx;
    if (grow(o, n, err)) return ERR_FAIL;
    memset(o->mask, 0, (size_t)n * ENCODE_ACTIONS);
    memset(o->priors, 0, (size_t)n * ENCODE_ACTIONS * sizeof *o->priors);
    for (int l = 0; l < n; l++) {
        encode_planes(leaves[l].pos, ENCODE_VIEW_ACTOR, o->planes + (size_t)l * ENCODE_SIZE);
        uint8_t *mask = o->mask + (size_t)l * ENCODE_ACTIONS;
        for (int i = 0; i < leaves[l].nlegal; i++) mask[encode_action(leaves[l].legal[i])] = 1;
        o->values[l] = NAN; /* a value left unwritten is caught below */
    }
    err[0] = '\0';
    int rc = o->fn(o->ctx, n, o->planes, o->mask, o->priors, o->values, err);
    if (rc) {
        err[ERR_LEN - 1] = '\0'; /* the caller's message, whatever it wrote */
        if (!err[0]) error_set(err, "the evaluator failed (%d)", rc);
        return ERR_FAIL;
    }
    /* every number checked before any reaches a search (mcts.h would stop
     * one search; a batch of many games stops them all, naming the leaf) */
    for (int l = 0; l < n; l++) {
        float v = o->values[l];
        if (!(v >= 0 && v <= 1))
            return error_set(err, "the evaluator gave the value %g for leaf %d of %d: expected a number in [0, 1]",
                             (double)v, l, n);
        const float *prior = o->priors + (size_t)l * ENCODE_ACTIONS;
        for (int i = 0; i < leaves[l].nlegal; i++) {
            float p = prior[encode_action(leaves[l].legal[i])];
            if (!(p >= 0 && isfinite(p)))
                return error_set(err, "the evaluator gave the prior %g to action index %d of leaf %d of %d: expected "
                                 "a finite number >= 0", (double)p, encode_action(leaves[l].legal[i]), l, n);
        }
    }
    for (int l = 0; l < n; l++) {
        const float *prior = o->priors + (size_t)l * ENCODE_ACTIONS;
        for (int i = 0; i < leaves[l].nlegal; i++) leaves[l].prior[i] = prior[encode_action(leaves[l].legal[i])];
        leaves[l].value = o->values[l];
    }
    o->calls++;
    o->leaves += (uint64_t)n;
    return 0;
}

void lib_outside_free(LibOutside *o)
{
    free(o->planes);
    free(o->mask);
    free(o->priors);
    free(o->values);
    *o = (LibOutside){0};
}
