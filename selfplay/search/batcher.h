/* Leaves of many searches in one evaluation (KataGo's NNEvaluator): the
 * PUCT searches of several game threads, each gathering its own batch of
 * leaves (mcts.h), hand their batches to one batcher, which evaluates
 * them together in one call of the evaluator it wraps, so that a net
 * sees batches as large as the games at once times their batch.
 *
 * Its evaluate (batcher_evaluate, an MctsEvaluate whose ctx is the
 * batcher) blocks the calling search until its leaves are evaluated. The
 * threads that search through the batcher are its members: each joins
 * before its first search (batcher_join) and leaves after its last
 * (batcher_leave). A round of evaluation starts when every member is
 * waiting in it (none can add more), when it holds max leaves, or when
 * no member has come for BATCHER_WAIT_MS (a member busy elsewhere: a
 * game's end, its storing); rounds run one at a time, each in the thread
 * of one of its members, so the evaluator is never called from two
 * threads at once. A member's leaves are evaluated exactly as they would
 * be alone: an evaluator that gives each leaf the same numbers whatever
 * its batch gives each search the same tree (the games do not depend on
 * which rounds their leaves fall in). The first failure of the evaluator
 * is every later call's (the members' searches stop, mcts_error). */
#ifndef YINSH_BATCHER_H
#define YINSH_BATCHER_H

#include <stdbool.h>
#include <stdint.h>
#include "selfplay/search/mcts.h"

enum { BATCHER_WAIT_MS = 20 };

typedef struct Batcher Batcher;

/* A batcher over inner (called with inner_ctx) whose rounds hold at most
 * max leaves (a member's batch is never split: a round may pass max by
 * less than one batch). 0, or ERR_FAIL with a message when out of
 * memory. */
int batcher_new(Batcher **out, MctsEvaluate inner, void *inner_ctx, int max, char *err);
void batcher_free(Batcher *b);

void batcher_join(Batcher *b);
void batcher_leave(Batcher *b);

/* The MctsEvaluate of the members' searches: ctx is the batcher. */
int batcher_evaluate(void *ctx, MctsLeaf *leaves, int n, char *err);

/* Whether the evaluator failed (every call fails since), and its message
 * into err (ERR_LEN bytes; may be NULL). */
bool batcher_failed(Batcher *b, char *err);

/* The rounds evaluated and the leaves in them so far. */
void batcher_counts(Batcher *b, uint64_t *rounds, uint64_t *leaves);

#endif
