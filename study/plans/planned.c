/* Planned runs: their states in the store and the one driver that plays
 * them (planned.h). */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "engine/base/error.h"
#include "study/plans/planned.h"

const char *planned_state_name(PlannedState state)
{
    static const char *const names[PLANNED_STATES] = {"missing", "unfinished", "complete"};
    return names[state];
}

bool planned_word(const char *s, size_t max)
{
    size_t n = strlen(s);
    return n > 0 && n < max &&
           strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-") == n;
}

/* The states as the database opened in `mode` tells them. */
static int read_states(const PlannedOptions *o, int mode, Planned *runs, int n, int *refused, char *err)
{
    Store *store = NULL;
    char serr[ERR_LEN];
    int rc = store_open(&store, o->db, mode, o->busy_ms, err);
    if (rc == ERR_NOT_FOUND) return ERR_OK; /* no schema yet: no run */
    if (rc) return rc;
    if (mode == STORE_READ && store_outdated(store)) {
        /* its run table lacks columns a lookup reads: upgraded first */
        store_close(store);
        return read_states(o, STORE_WRITE, runs, n, refused, err);
    }
    for (int i = 0; i < n && !rc; i++) {
        StoreRun row;
        int got = store_run_get(store, runs[i].name, &row, err);
        if (got == ERR_NOT_FOUND) continue;
        if (got) {
            rc = ERR_FAIL;
        } else if (run_row_matches(&row, runs[i].kind, &runs[i].plan, serr)) {
            *refused = i;
            rc = error_code(err, ERR_EXISTS, "database '%s': %s", o->db, serr);
        } else {
            runs[i].state = row.finished ? PLANNED_COMPLETE : PLANNED_UNFINISHED;
            runs[i].stored = row.games;
            if (!row.finished) {
                uint32_t *missing, nmissing;
                if (store_run_missing(store, &row, &missing, &nmissing, err)) rc = ERR_FAIL;
                else runs[i].stored = row.games - nmissing;
                free(missing);
            }
        }
    }
    store_close(store);
    return rc;
}

int planned_read(const PlannedOptions *o, Planned *runs, int n, int *refused, char *err)
{
    for (int i = 0; i < n; i++) {
        runs[i].state = PLANNED_MISSING;
        runs[i].stored = 0;
    }
    struct stat sb;
    if (stat(o->db, &sb) != 0 && errno == ENOENT) return ERR_OK;
    /* read only: a complete plan changes nothing, not even the file's journal mode */
    return read_states(o, STORE_READ, runs, n, refused, err);
}

/* The run being played: the writer thread's view. */
typedef struct Playing {
    Run *run;
    const PlannedHooks *h;
} Playing;

static void run_progress(void *ctx, const Run *run)
{
    const PlannedHooks *h = ctx;
    if (h->progress) h->progress(h->ctx, run, NULL, run->done);
}

static void match_progress(void *ctx, const MatchTally *t, uint64_t games)
{
    Playing *c = ctx;
    if (c->h->progress) c->h->progress(c->h->ctx, c->run, t, games);
}

/* The games the run lacks: a self-play run's on the scheduler, a match's
 * through match_run, which tallies its pairs. */
static int play(Run *run, bool match, const PlannedHooks *h, PlannedResult *res, char *err)
{
    Playing c = {.run = run, .h = h};
    if (match) {
        MatchPlan mp = {.plan = run->plan, .progress = match_progress, .ctx = &c, .interrupt = h->interrupt};
        return match_run(&mp, run, &res->match, err);
    }
    RunHooks hooks = {.stored = run_progress, .ctx = (void *)h, .interrupt = h->interrupt};
    return run_play(run, &hooks, err) ? ERR_FAIL : ERR_OK;
}

int planned_play(const Planned *p, const PlannedOptions *o, const PlannedHooks *h, PlannedResult *res, char *err)
{
    assert(p->state == PLANNED_MISSING || p->state == PLANNED_UNFINISHED);
    *res = (PlannedResult){0};
    /* the plan's own seed: a planned run is fixed by its plan */
    RunOptions ro = {.kind = p->kind, .db = o->db, .busy_ms = o->busy_ms, .plan = p->plan, .have_seed = true,
                     .command = p->command, .shard = o->shard, .shards = o->shards};
    ro.plan.threads = o->threads;
    if (p->state == PLANNED_UNFINISHED) ro.resume = p->name;
    else ro.name = p->name;
    Run run;
    int rc = run_open(&run, &ro, err);
    if (rc == ERR_EXISTS && p->state == PLANNED_MISSING) {
        /* another process made the run since its state was read (two
         * commands started at once on one plan): it is that run, to
         * resume, which its lease refuses while the other plays it
         * (ERR_HELD, naming the process), or done already */
        Planned now = *p;
        int refused;
        char rerr[ERR_LEN];
        int got = planned_read(o, &now, 1, &refused, rerr);
        run_close(&run);
        if (got || now.state == PLANNED_COMPLETE) {
            /* an error, or nothing left to play (res->opened stays false) */
            return got ? error_code(err, got, "%s", rerr) : 0;
        }
        if (now.state == PLANNED_UNFINISHED) {
            ro.name = NULL;
            ro.resume = p->name;
        }
        rc = run_open(&run, &ro, err);
    }
    if (!rc) {
        res->opened = true;
        if (h->start) h->start(h->ctx, p, &run);
        rc = play(&run, !strcmp(p->kind, "match"), h, res, err);
        res->stopped = !rc && h->interrupt && atomic_load(h->interrupt);
        /* one process, every game it was handed: all of them are stored */
        assert(rc || res->stopped || !strcmp(p->kind, "match") || run.done == run.ntodo);
        if (!rc && !res->stopped) rc = run_finish(&run, err) ? ERR_FAIL : ERR_OK;
    }
    res->sum = run.sum;
    res->done = run.done;
    if (!rc && !res->stopped && h->finished) h->finished(h->ctx, p, &run, res);
    run_close(&run);
    return rc;
}
