#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "engine/base/clock.h"
#include "engine/base/error.h"
#include "selfplay/search/batcher.h"

/* One member's call, waiting in a round: on its caller's stack. */
typedef struct Request {
    MctsLeaf *leaves;
    int n;
    int rc;             /* written by the round's evaluator under lock */
    bool done;          /* guarded by lock */
    struct Request *next;
} Request;

struct Batcher {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    MctsEvaluate inner;
    void *inner_ctx;
    int max;
    /* guarded by lock */
    int members;
    Request *head, **tail; /* the round being gathered */
    int pending, pending_leaves;
    double last;           /* when the last request came */
    bool busy;             /* a round is being evaluated (by one member's thread) */
    bool failed;
    char error[ERR_LEN];   /* the first failure's message, set once with failed */
    uint64_t rounds, leaves;
    /* the evaluating round's leaves, side by side: used by the one thread
     * that evaluates (busy serialises them) */
    MctsLeaf *merged;
    int cap;
};

int batcher_new(Batcher **out, MctsEvaluate inner, void *inner_ctx, int max, char *err)
{
    *out = NULL;
    Batcher *b = calloc(1, sizeof *b);
    if (!b) return error_set(err, "out of memory for a batcher");
    pthread_mutex_init(&b->lock, NULL);
    pthread_cond_init(&b->cond, NULL);
    b->inner = inner;
    b->inner_ctx = inner_ctx;
    b->max = max > 0 ? max : 1;
    b->tail = &b->head;
    *out = b;
    return 0;
}

void batcher_free(Batcher *b)
{
    if (!b) return;
    pthread_mutex_destroy(&b->lock);
    pthread_cond_destroy(&b->cond);
    free(b->merged);
    free(b);
}

void batcher_join(Batcher *b)
{
    pthread_mutex_lock(&b->lock);
    b->members++;
    pthread_mutex_unlock(&b->lock);
}

void batcher_leave(Batcher *b)
{
    pthread_mutex_lock(&b->lock);
    b->members--;
    pthread_cond_broadcast(&b->cond); /* the others may be all there is now */
    pthread_mutex_unlock(&b->lock);
}

bool batcher_failed(Batcher *b, char *err)
{
    pthread_mutex_lock(&b->lock);
    bool failed = b->failed;
    if (failed && err) snprintf(err, ERR_LEN, "%s", b->error);
    pthread_mutex_unlock(&b->lock);
    return failed;
}

void batcher_counts(Batcher *b, uint64_t *rounds, uint64_t *leaves)
{
    pthread_mutex_lock(&b->lock);
    *rounds = b->rounds;
    *leaves = b->leaves;
    pthread_mutex_unlock(&b->lock);
}

/* Evaluates the round gathered so far (called with the lock held, which
 * it gives up during the evaluation and holds again at the end). */
static void run_round(Batcher *b)
{
    Request *list = b->head;
    int total = b->pending_leaves;
    b->head = NULL;
    b->tail = &b->head;
    b->pending = b->pending_leaves = 0;
    b->busy = true;
    pthread_mutex_unlock(&b->lock);

    char err[ERR_LEN] = "";
    int rc = 0;
    if (total > b->cap) {
        MctsLeaf *more = realloc(b->merged, (size_t)total * sizeof *more);
        if (more) b->merged = more, b->cap = total;
        else rc = error_set(err, "out of memory for a round of %d leaves", total);
    }
    if (!rc) {
        int at = 0;
        for (Request *r = list; r; r = r->next) {
            memcpy(b->merged + at, r->leaves, (size_t)r->n * sizeof *r->leaves);
            at += r->n;
        }
        /* the priors are written through the leaves' own pointers; the
         * values, held in the copies, go back below */
        rc = b->inner(b->inner_ctx, b->merged, total, err);
        if (rc && !err[0]) snprintf(err, sizeof err, "the evaluator failed (%d)", rc);
        at = 0;
        for (Request *r = list; !rc && r; r = r->next) {
            for (int i = 0; i < r->n; i++) r->leaves[i].value = b->merged[at + i].value;
            at += r->n;
        }
    }

    pthread_mutex_lock(&b->lock);
    if (rc && !b->failed) {
        b->failed = true;
        snprintf(b->error, sizeof b->error, "%s", err);
    }
    for (Request *r = list, *next; r; r = next) {
        next = r->next; /* read before done: a finished request's stack may go */
        r->rc = rc ? ERR_FAIL : 0;
        r->done = true;
    }
    b->rounds++;
    b->leaves += (uint64_t)total;
    b->busy = false;
    pthread_cond_broadcast(&b->cond);
}

int batcher_evaluate(void *ctx, MctsLeaf *leaves, int n, char *err)
{
    Batcher *b = ctx;
    Request r = {.leaves = leaves, .n = n};
    pthread_mutex_lock(&b->lock);
    if (b->failed) {
        snprintf(err, ERR_LEN, "%s", b->error);
        pthread_mutex_unlock(&b->lock);
        return ERR_FAIL;
    }
    *b->tail = &r;
    b->tail = &r.next;
    b->pending++;
    b->pending_leaves += n;
    b->last = clock_now();
    while (!r.done) {
        double waited = clock_now() - b->last;
        bool ready = !b->busy && b->pending > 0 &&
                     (b->pending >= b->members || b->pending_leaves >= b->max || waited * 1e3 >= BATCHER_WAIT_MS);
        if (ready) {
            run_round(b);
            continue;
        }
        if (!b->busy && b->pending > 0) {
            /* wait for the others, at most until the round is due on time */
            double due = b->last + BATCHER_WAIT_MS / 1e3 - clock_now();
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            long ns = ts.tv_nsec + (long)(due > 0 ? due * 1e9 : 0);
            ts.tv_sec += ns / 1000000000L;
            ts.tv_nsec = ns % 1000000000L;
            pthread_cond_timedwait(&b->cond, &b->lock, &ts);
        } else {
            pthread_cond_wait(&b->cond, &b->lock);
        }
    }
    int rc = r.rc;
    if (rc) snprintf(err, ERR_LEN, "%s", b->error);
    pthread_mutex_unlock(&b->lock);
    return rc;
}
