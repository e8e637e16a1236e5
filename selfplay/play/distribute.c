/* The MPI transport of distribute.h; built only when CMake finds MPI.
 *
 * Four messages, all on MPI_COMM_WORLD:
 *   ASK    rank r -> 0: one int, how many games r's threads could take now
 *   CHUNK  0 -> r:      uint32 indices, none when rank 0 has no more
 *   GAMES  r -> 0:      a batch of finished records (pack_games)
 *   DONE   r -> 0:      nothing: r has sent every game it played
 * Messages between two ranks arrive in the order they were sent, so the
 * games of a rank reach rank 0 before its DONE.
 *
 * Threads: on rank 0 the serve thread of the scheduler (scheduler.h) is
 * the only one that calls MPI while games are played. On the other ranks
 * the game threads ask for chunks and the writer thread sends games, so
 * every MPI call there is made under one lock (mpi_lock): the job needs
 * no more than MPI_THREAD_SERIALIZED. */
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "engine/base/error.h"
#include "engine/base/clock.h"
#include "selfplay/play/distribute.h"
#include "engine/base/parallel.h"
#include "engine/base/number.h"

enum { TAG_ASK = 1, TAG_CHUNK, TAG_GAMES, TAG_DONE };

static bool joined;                    /* this process called MPI_Init_thread */
static int my_rank, nranks = 1;        /* set once by dist_init, before any thread */
static atomic_int alive;               /* ranks still playing (rank 0 counts the others' DONE) */
static pthread_mutex_t mpi_lock = PTHREAD_MUTEX_INITIALIZER;

bool dist_built(void) { return true; }
int dist_rank(void) { return my_rank; }
int dist_ranks(void) { return nranks; }
int dist_ranks_alive(void) { return atomic_load(&alive); }

void dist_abort(int code)
{
    if (nranks > 1) MPI_Abort(MPI_COMM_WORLD, code);
}

static void leave(void)
{
    int fin = 0;
    MPI_Finalized(&fin);
    if (!fin) MPI_Finalize();
}

/* Started by an MPI launcher: Open MPI's mpirun, or a PMI of Slurm's srun
 * or another launcher. */
static bool launched(void)
{
    static const char *const VARS[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"};
    for (size_t i = 0; i < sizeof VARS / sizeof *VARS; i++)
        if (getenv(VARS[i])) return true;
    return false;
}

int dist_init(char *err)
{
    if (joined || !launched()) return 0;
    int provided = 0;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
        return error_set(err, "cannot join the MPI job (MPI_Init_thread failed)");
    }
    joined = true;
    atexit(leave);
    if (provided < MPI_THREAD_SERIALIZED) {
        return error_set(err, "the MPI library gives thread level %d; yinsh needs MPI_THREAD_SERIALIZED (%d)",
                 provided, MPI_THREAD_SERIALIZED);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    atomic_store(&alive, nranks);
    return 0;
}

int dist_share_run(StoreRun *row, int *status, char *err)
{
    if (nranks == 1) return 0;
    if (MPI_Bcast(status, 1, MPI_INT, 0, MPI_COMM_WORLD) != MPI_SUCCESS ||
        MPI_Bcast(row, (int)sizeof *row, MPI_BYTE, 0, MPI_COMM_WORLD) != MPI_SUCCESS) {
        return error_set(err, "rank %d: cannot share the run between the ranks", my_rank);
    }
    return 0;
}

int dist_check_builds(const char *ident, char *err)
{
    if (nranks == 1) return 0;
    char mine[DIST_IDENT_LEN] = {0};
    snprintf(mine, sizeof mine, "%s", ident);
    char *all = my_rank == 0 ? calloc((size_t)nranks, DIST_IDENT_LEN) : NULL;
    if (my_rank == 0 && !all) {
        /* the others are in the gather: ending the job is the only way out */
        error_set(err, "out of memory comparing the ranks' builds");
        dist_abort(1);
        return -1;
    }
    int ok = MPI_Gather(mine, DIST_IDENT_LEN, MPI_CHAR, all, DIST_IDENT_LEN, MPI_CHAR, 0, MPI_COMM_WORLD) ==
             MPI_SUCCESS;
    int differs = 0;
    if (my_rank == 0 && ok)
        for (int r = 1; r < nranks && !differs; r++)
            if (memcmp(all + (size_t)r * DIST_IDENT_LEN, mine, DIST_IDENT_LEN)) {
                differs = r;
                error_set(err,
                          "rank %d runs another build than rank 0, and would play other games under this run's "
                          "name: rank 0 is %.200s; rank %d is %.200s",
                          r, mine, r, all + (size_t)r * DIST_IDENT_LEN);
            }
    free(all);
    if (ok) ok = MPI_Bcast(&differs, 1, MPI_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS;
    if (!ok) {
        return error_set(err, "rank %d: cannot compare the ranks' builds", my_rank);
    }
    if (differs && my_rank > 0) err[0] = '\0';
    return differs ? -1 : 0;
}

/* ---- records as bytes ----------------------------------------------------- */

typedef struct Bytes {
    unsigned char *p;
    size_t len, cap;
    bool oom;
} Bytes;

static void put(Bytes *b, const void *v, size_t n)
{
    if (b->oom) return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n) cap *= 2;
        unsigned char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, v, n);
    b->len += n;
}
#define PUT(b, v) put((b), &(v), sizeof(v))

static bool get(const unsigned char **p, const unsigned char *end, void *v, size_t n)
{
    if ((size_t)(end - *p) < n) return false;
    memcpy(v, *p, n);
    *p += n;
    return true;
}
#define GET(p, end, v) get((p), (end), &(v), sizeof(v))

/* Every field of each record, the actions with the search's figures and
 * clocks, and the root visit distributions. A field added to GameRecord or ActionRecord must travel too: the
 * sizes below stop the build until pack_games and unpack_game are told. */
_Static_assert(sizeof(ActionRecord) == 56, "ActionRecord changed: update pack_games and unpack_game");
_Static_assert(sizeof(GameRecord) == 80, "GameRecord changed: update pack_games and unpack_game");
static void pack_games(Bytes *b, GameRecord *const *games, int n)
{
    int32_t count = n;
    PUT(b, count);
    for (int i = 0; i < n; i++) {
        const GameRecord *g = games[i];
        int32_t variant = g->variant, result = g->result, reason = g->reason, nactions = g->nactions;
        uint8_t swapped = g->swapped;
        PUT(b, g->index);
        PUT(b, g->seed);
        PUT(b, variant);
        PUT(b, swapped);
        PUT(b, result);
        PUT(b, reason);
        put(b, g->removed, 2);
        put(b, g->markers, 2);
        PUT(b, g->duration_s);
        PUT(b, nactions);
        for (int k = 0; k < g->nactions; k++) {
            const ActionRecord *a = &g->actions[k];
            uint8_t searched = a->searched, has_clock = a->has_clock;
            PUT(b, a->action);
            PUT(b, a->actor);
            PUT(b, a->state);
            PUT(b, a->legal);
            PUT(b, searched);
            PUT(b, a->root_visits);
            PUT(b, a->chosen_visits);
            PUT(b, a->value);
            PUT(b, a->root_value);
            PUT(b, a->budget);
            PUT(b, a->time_us);
            PUT(b, has_clock);
            PUT(b, a->clock_us);
        }
        int32_t nchildren = g->nchildren;
        PUT(b, nchildren);
        for (int k = 0; k < g->nchildren; k++) {
            const RootChild *c = &g->children[k];
            PUT(b, c->ply);
            PUT(b, c->action);
            PUT(b, c->visits);
        }
    }
}

/* One record from bytes into a malloc'ed GameRecord; NULL when the bytes
 * end early or memory runs out. */
static GameRecord *unpack_game(const unsigned char **p, const unsigned char *end)
{
    GameRecord *g = calloc(1, sizeof *g);
    int32_t variant, result, reason, nactions;
    uint8_t swapped;
    if (!g) return NULL;
    if (!GET(p, end, g->index) || !GET(p, end, g->seed) || !GET(p, end, variant) || !GET(p, end, swapped) ||
        !GET(p, end, result) || !GET(p, end, reason) || !get(p, end, g->removed, 2) || !get(p, end, g->markers, 2) ||
        !GET(p, end, g->duration_s) || !GET(p, end, nactions) || nactions < 0 || nactions > GAME_MAX_ACTIONS ||
        !(g->actions = malloc(((size_t)nactions + 1) * sizeof *g->actions))) {
        free(g);
        return NULL;
    }
    g->variant = variant;
    g->result = result;
    g->reason = reason;
    g->swapped = swapped;
    g->nactions = nactions;
    for (int k = 0; k < nactions; k++) {
        ActionRecord *a = &g->actions[k];
        uint8_t searched, has_clock;
        if (!GET(p, end, a->action) || !GET(p, end, a->actor) || !GET(p, end, a->state) || !GET(p, end, a->legal) ||
            !GET(p, end, searched) || !GET(p, end, a->root_visits) || !GET(p, end, a->chosen_visits) ||
            !GET(p, end, a->value) || !GET(p, end, a->root_value) || !GET(p, end, a->budget) ||
            !GET(p, end, a->time_us) || !GET(p, end, has_clock) ||
            !GET(p, end, a->clock_us)) {
            record_free(g);
            free(g);
            return NULL;
        }
        a->searched = searched;
        a->has_clock = has_clock;
    }
    int32_t nchildren;
    if (!GET(p, end, nchildren) || nchildren < 0 || nchildren > nactions * MAX_ACTIONS ||
        (nchildren && !(g->children = malloc((size_t)nchildren * sizeof *g->children)))) {
        record_free(g);
        free(g);
        return NULL;
    }
    for (int k = 0; k < nchildren; k++) {
        RootChild *c = &g->children[k];
        if (!GET(p, end, c->ply) || !GET(p, end, c->action) || !GET(p, end, c->visits) || c->ply >= nactions) {
            record_free(g);
            free(g);
            return NULL;
        }
        g->nchildren = k + 1;
    }
    return g;
}

/* ---- rank 0: the pool of indices and the serve loop ----------------------- */

typedef struct Pool {
    pthread_mutex_t lock;
    const uint32_t *todo; /* guarded by lock */
    uint32_t n, at;       /* guarded by lock */
    bool pairs;           /* chunks never split a pair (a match's 2k, 2k+1) */
    DistStats *stats;     /* written by the serve thread only, read after the run */
    atomic_uint_fast64_t games_here;
} Pool;

static bool pool_next(void *ctx, uint32_t *index)
{
    Pool *p = ctx;
    bool got = false;
    pthread_mutex_lock(&p->lock);
    if (p->at < p->n) {
        *index = p->todo[p->at++];
        got = true;
    }
    pthread_mutex_unlock(&p->lock);
    if (got) atomic_fetch_add(&p->games_here, 1);
    return got;
}

/* Up to `want` indices for another rank, fewer near the end so that the
 * last games spread over the ranks; a pair is never split. */
static uint32_t pool_chunk(Pool *p, int want, uint32_t *out)
{
    uint32_t k = 0;
    pthread_mutex_lock(&p->lock);
    uint32_t left = p->n - p->at;
    uint32_t cap = left / (2u * (uint32_t)nranks);
    if (cap < 1) cap = 1;
    if ((uint32_t)want < cap) cap = (uint32_t)want;
    while (p->at < p->n && k < cap) out[k++] = p->todo[p->at++];
    while (p->pairs && k > 0 && p->at < p->n && out[k - 1] % 2 == 0 && p->todo[p->at] == out[k - 1] + 1)
        out[k++] = p->todo[p->at++];
    pthread_mutex_unlock(&p->lock);
    return k;
}

enum { ASK_MAX = 1024 };

static int serve(void *ctx, SelfplayInlet *inlet, char *err)
{
    Pool *p = ctx;
    int workers = nranks - 1;
    unsigned char *buf = NULL;
    size_t bufcap = 0;
    uint32_t chunk[ASK_MAX + 1];
    int rc = 0;
    while (workers > 0) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (!flag) {
            nanosleep(&(struct timespec){0, 200000}, NULL); /* 0.2 ms: a probe costs little, a sleep less */
            continue;
        }
        int from = st.MPI_SOURCE;
        if (st.MPI_TAG == TAG_ASK) {
            int want = 0;
            MPI_Recv(&want, 1, MPI_INT, from, TAG_ASK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (want < 1) want = 1;
            if (want > ASK_MAX) want = ASK_MAX;
            uint32_t k = selfplay_inlet_stopping(inlet) ? 0 : pool_chunk(p, want, chunk);
            MPI_Send(chunk, (int)k, MPI_UINT32_T, from, TAG_CHUNK, MPI_COMM_WORLD);
        } else if (st.MPI_TAG == TAG_GAMES) {
            double t0 = clock_now();
            int len = 0;
            MPI_Get_count(&st, MPI_BYTE, &len);
            if ((size_t)len > bufcap) {
                unsigned char *nb = realloc(buf, (size_t)len);
                if (!nb) {
                    /* the rank waits in its send until this receive: nothing can go on */
                    error_set(err, "out of memory for a batch of rank %d's games (%d bytes)", from, len);
                    MPI_Abort(MPI_COMM_WORLD, 1);
                }
                buf = nb;
                bufcap = (size_t)len;
            }
            MPI_Recv(buf, len, MPI_BYTE, from, TAG_GAMES, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            const unsigned char *q = buf, *end = buf + len;
            int32_t count = 0;
            GET(&q, end, count);
            GameRecord *games[256];
            int ng = 0;
            for (int32_t i = 0; i < count; i++) {
                GameRecord *g = unpack_game(&q, end);
                if (!g) {
                    rc = error_set(err, "rank %d sent a batch of games that does not read back (%d bytes)", from,
                             len);
                    break;
                }
                games[ng++] = g;
                if (ng == 256 || i + 1 == count) {
                    p->stats->recv_s += clock_now() - t0;
                    for (int k = 0; k < ng; k++) selfplay_inlet_push(inlet, games[k]);
                    t0 = clock_now();
                    ng = 0;
                }
            }
            for (int k = 0; k < ng; k++) {
                record_free(games[k]);
                free(games[k]);
            }
            p->stats->messages++;
            p->stats->bytes += (uint64_t)len;
            p->stats->games_received += (uint64_t)(count > 0 ? count : 0);
            if (rc) break;
        } else {
            MPI_Recv(NULL, 0, MPI_BYTE, from, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (st.MPI_TAG == TAG_DONE) {
                workers--;
                atomic_fetch_sub(&alive, 1);
            }
        }
    }
    free(buf);
    return rc;
}

/* ---- the other ranks --------------------------------------------------- */

typedef struct Worker {
    pthread_mutex_t lock;
    uint32_t chunk[ASK_MAX + 1]; /* guarded by lock */
    int n, at;                   /* guarded by lock */
    bool over;                   /* guarded by lock: rank 0 has no more */
    int threads;
} Worker;

static bool worker_next(void *ctx, uint32_t *index)
{
    Worker *w = ctx;
    bool got = false;
    pthread_mutex_lock(&w->lock);
    if (w->at == w->n && !w->over) {
        int want = w->threads, count = 0;
        MPI_Status st;
        pthread_mutex_lock(&mpi_lock);
        MPI_Send(&want, 1, MPI_INT, 0, TAG_ASK, MPI_COMM_WORLD);
        MPI_Recv(w->chunk, ASK_MAX + 1, MPI_UINT32_T, 0, TAG_CHUNK, MPI_COMM_WORLD, &st);
        pthread_mutex_unlock(&mpi_lock);
        MPI_Get_count(&st, MPI_UINT32_T, &count);
        w->n = count;
        w->at = 0;
        w->over = count == 0;
    }
    if (w->at < w->n) {
        *index = w->chunk[w->at++];
        got = true;
    }
    pthread_mutex_unlock(&w->lock);
    return got;
}

static int worker_send(void *ctx, GameRecord *const *games, int n, char *err)
{
    (void)ctx;
    Bytes b = {0};
    pack_games(&b, games, n);
    if (b.oom || b.len > (size_t)INT32_MAX) {
        free(b.p);
        return error_set(err, "rank %d: out of memory for a batch of %d game%s", my_rank, n,
                         number_plural((uint64_t)n));
    }
    pthread_mutex_lock(&mpi_lock);
    int rc = MPI_Send(b.p, (int)b.len, MPI_BYTE, 0, TAG_GAMES, MPI_COMM_WORLD);
    pthread_mutex_unlock(&mpi_lock);
    free(b.p);
    if (rc != MPI_SUCCESS) {
        return error_set(err, "rank %d: cannot send games to rank 0", my_rank);
    }
    return 0;
}

int dist_play(const SelfplayPlan *plan, const uint32_t *todo, uint32_t n, const SelfplaySink *sink,
              DistStats *stats, char *err)
{
    DistStats local = {0};
    if (!stats) stats = &local;
    *stats = (DistStats){0};
    if (nranks == 1) {
        int rc = selfplay_run(plan, todo, n, sink, err);
        stats->games_here = n;
        return rc;
    }
    if (my_rank == 0) {
        Pool p = {.todo = todo, .n = n, .pairs = plan->pairs, .stats = stats};
        atomic_init(&p.games_here, 0);
        pthread_mutex_init(&p.lock, NULL);
        SelfplaySource src = {.next = pool_next, .serve = serve, .ctx = &p};
        int rc = selfplay_run_source(plan, &src, sink, err);
        stats->games_here = atomic_load(&p.games_here);
        pthread_mutex_destroy(&p.lock);
        return rc;
    }
    Worker w = {.threads = parallel_threads(plan->threads)};
    if (w.threads > ASK_MAX) w.threads = ASK_MAX;
    pthread_mutex_init(&w.lock, NULL);
    SelfplaySource src = {.next = worker_next, .ctx = &w};
    SelfplaySink out = {.write = worker_send, .interrupt = sink ? sink->interrupt : NULL};
    int rc = selfplay_run_source(plan, &src, &out, err);
    pthread_mutex_destroy(&w.lock);
    /* every game sent (or the run failed here): rank 0 stops waiting for this rank */
    MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_DONE, MPI_COMM_WORLD);
    return rc;
}
