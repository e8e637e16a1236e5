/* A UYI engine over an outside evaluator (include/yinsh.h): the lab's
 * engine server (selfplay/uyi/server/server.h) serving a PUCT agent whose
 * leaves the caller's function evaluates, through a batcher
 * (selfplay/search/batcher.h) that calls it one call at a time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "engine/base/error.h"
#include "lib/lib_internal.h"
#include "selfplay/agents/agent.h"
#include "selfplay/search/batcher.h"
#include "selfplay/uyi/server/server.h"

/* The engine's evaluator: the caller's, and an end to the engine when it
 * fails (an exception, a number that is not one): its search would go on
 * with what it had, and a harness would score moves of a broken net. The
 * reason goes to standard error (the harness's log of the engine), and
 * the harness sees the engine die. */
static int evaluate_or_end(void *ctx, MctsLeaf *leaves, int n, char *err)
{
    int rc = lib_outside_evaluate(ctx, leaves, n, err);
    if (rc) {
        fprintf(stderr, "yinsh uyi engine: the evaluator failed: %s\n", err);
        fflush(stderr);
        _exit(1);
    }
    return 0;
}

int yinsh_uyi_serve(int in_fd, int out_fd, const char *agent, const char *evaluator, uint64_t net_hash,
                    yinsh_eval_fn fn, void *ctx, char *err)
{
    char scratch[ERR_LEN];
    err = ERR_OR_SCRATCH(err, scratch);
    if (!agent || !evaluator || !fn) return error_code(err, ERR_USAGE, "the engine needs its agent, evaluator and function");
    if (!evaluator[0] || strlen(evaluator) + strlen(AGENT_FN_PREFIX) >= AGENT_PATH_LEN || strchr(evaluator, ','))
        return error_code(err, ERR_USAGE, "evaluator name '%.64s': 1 to %d characters, no ','", evaluator,
                          (int)(AGENT_PATH_LEN - strlen(AGENT_FN_PREFIX) - 1));
    AgentSpec spec;
    int rc = agent_spec_parse(agent, &spec, err);
    if (rc) return rc;
    MctsConfig mc;
    if (!agent_spec_names_outside(&spec) || !agent_spec_mcts_config(&spec, &mc) || !mc.puct) {
        agent_spec_release(&spec);
        return error_code(err, ERR_USAGE, "agent '%.200s': expected PUCT over the outside evaluator, "
                          "mcts:...,puct=1,eval=fn:%.100s", agent, evaluator);
    }
    LibOutside outside = {.fn = fn, .ctx = ctx};
    AgentOutside o = {.fn = batcher_evaluate, .hash = net_hash};
    snprintf(o.name, sizeof o.name, "%s", evaluator);
    Batcher *b = NULL;
    FILE *in = NULL, *out = NULL;
    int fin = -1, fout = -1;
    if ((rc = agent_spec_attach(&spec, &o, err)) || (rc = batcher_new(&b, evaluate_or_end, &outside, 1, err)))
        goto done;
    o.ctx = b; /* no members: each call is a round of its own, one at a time */
    if ((fin = dup(in_fd)) < 0 || (fout = dup(out_fd)) < 0 || !(in = fdopen(fin, "r")) || !(out = fdopen(fout, "w"))) {
        rc = error_set(err, "cannot open the engine's input %d and output %d", in_fd, out_fd);
        goto done;
    }
    fin = fout = -1; /* the streams own them */
    rc = uyi_serve(in, out, &spec, err);
done:
    if (in) fclose(in);
    if (out) fclose(out);
    if (fin >= 0) close(fin);
    if (fout >= 0) close(fout);
    batcher_free(b);
    lib_outside_free(&outside);
    agent_spec_release(&spec);
    return rc;
}
