#include <assert.h>
#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "engine/base/error.h"
#include "selfplay/play/distribute.h"
#include "engine/notation.h"
#include "engine/base/parallel.h"
#include "selfplay/play/provenance.h"
#include "selfplay/play/run.h"
#include "engine/base/number.h"

uint64_t run_clock_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return rng_mix((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec, (uint64_t)getpid());
}

/* The content hash of an agent's weights or net file, "" for an agent
 * without: a weights file's values (weights_hash), a net file's bytes
 * (nnue_hash, net:builtin's too, so another build's net is another). */
static void weights_hex(const AgentSpec *spec, char out[STORE_HASH_LEN])
{
    uint64_t h;
    out[0] = '\0';
    if (agent_spec_eval_hash(spec, &h)) snprintf(out, STORE_HASH_LEN, "%016" PRIx64, h);
}

/* The agents of a stored run, parsed (their weights files read) here,
 * after the lookup and outside any transaction, and checked against the
 * weights the run was played with. */
static int plan_of_row(const StoreRun *row, SelfplayPlan *plan, const AgentOutside *outside, char *err)
{
    char perr[ERR_LEN];
    *plan = (SelfplayPlan){.variant = row->variant, .seed = row->seed, .games = row->games, .pairs = row->pairs,
                           .opening = row->opening, .opening_actions = row->opening_actions,
                           .store_visits = row->visits};
    if (controls_parse(row->controls, &plan->controls, perr)) {
        return error_set(err, "run '%s': %.400s", row->name, perr);
    }
    if (agent_spec_parse(row->white, &plan->white, perr)) {
        return error_set(err, "run '%s': white agent: %.400s", row->name, perr);
    }
    if (agent_spec_parse(row->black, &plan->black, perr)) {
        agent_spec_release(&plan->white);
        return error_set(err, "run '%s': black agent: %.400s", row->name, perr);
    }
    /* the stored texts write sims, whether or not the run's specs gave
     * them: the controls say which searches ended on time alone */
    agent_spec_set_uncapped(&plan->white, plan->controls.uncapped & CONTROLS_UNCAPPED_WHITE);
    agent_spec_set_uncapped(&plan->black, plan->controls.uncapped & CONTROLS_UNCAPPED_BLACK);
    for (int i = 0; i < 2; i++) {
        AgentSpec *spec = i ? &plan->black : &plan->white;
        if (!agent_spec_names_outside(spec)) continue;
        /* an evaluator outside yinsh: the program that gives it, and the one the run was played with */
        if (!outside) {
            error_set(err, "run '%s': the %s agent evaluates with %.200s, an evaluator outside yinsh: resume it "
                      "from the program that gives it (python -m yinsh.selfplay --resume; docs/python.md)",
                      row->name, i ? "black" : "white", agent_spec_eval_file(spec));
            run_plan_release(plan);
            return -1;
        }
        if (agent_spec_attach(spec, outside, perr)) {
            error_set(err, "run '%s': the %s agent: %.400s", row->name, i ? "black" : "white", perr);
            run_plan_release(plan);
            return -1;
        }
    }
    for (int i = 0; i < 2; i++) {
        const AgentSpec *spec = i ? &plan->black : &plan->white;
        const char *stored = i ? row->black_weights : row->white_weights;
        char now[STORE_HASH_LEN];
        weights_hex(spec, now);
        if (stored[0] && strcmp(stored, now)) {
            int rc = error_set(err,
                               "run '%s': the %s agent's %s '%.200s' is not the one the run was played with "
                               "(content hash %s, now %s): it changed, or the path names another file from this "
                               "folder%s; restore it, or start a new run",
                               row->name, i ? "black" : "white",
                               agent_spec_names_net(spec) ? "net" : agent_spec_names_outside(spec) ? "evaluator"
                                                                                                  : "weights file",
                               agent_spec_eval_file(spec), stored, now[0] ? now : "none",
                               !strcmp(agent_spec_eval_file(spec), AGENT_NET_PREFIX AGENT_NET_BUILTIN)
                                   ? " (net:builtin: another build's net)" : "");
            run_plan_release(plan); /* after the message: it names the plan's file */
            return rc;
        }
    }
    return 0;
}

void run_plan_release(SelfplayPlan *plan)
{
    agent_spec_release(&plan->white);
    agent_spec_release(&plan->black);
}

int run_row_matches(const StoreRun *row, const char *kind, const SelfplayPlan *given, char *err)
{
    char white[SPEC_LEN], black[SPEC_LEN], ww[STORE_HASH_LEN], bw[STORE_HASH_LEN], controls[CONTROLS_TEXT_LEN];
    SelfplayPlan settled = *given, *plan = &settled;
    selfplay_plan_settle(plan);
    agent_spec_format(&plan->white, white);
    agent_spec_format(&plan->black, black);
    weights_hex(&plan->white, ww);
    weights_hex(&plan->black, bw);
    if (strcmp(row->kind, kind))
        return error_set(err, "run '%s' is a %s run, not a %s run", row->name, row->kind, kind);
    if (row->variant != plan->variant)
        return error_set(err, "run '%s' was played in %s, not %s", row->name, variant_name(row->variant),
                         variant_name(plan->variant));
    if (row->seed != plan->seed)
        return error_set(err, "run '%s' has seed %" PRIu64 ", not %" PRIu64, row->name, row->seed, plan->seed);
    if (row->games != plan->games)
        return error_set(err, "run '%s' has %u game%s, not %u", row->name, row->games, number_plural(row->games),
                         plan->games);
    if (strcmp(row->white, white) || strcmp(row->black, black))
        return error_set(err, "run '%s' was played by %.150s against %.150s, not by %.150s against %.150s",
                         row->name, row->white, row->black, white, black);
    if ((row->white_weights[0] && strcmp(row->white_weights, ww)) ||
        (row->black_weights[0] && strcmp(row->black_weights, bw)))
        return error_set(err, "run '%s' was played with other weights (content hashes %s and %s, now %s and %s)",
                         row->name, row->white_weights[0] ? row->white_weights : "none",
                         row->black_weights[0] ? row->black_weights : "none", ww[0] ? ww : "none",
                         bw[0] ? bw : "none");
    if (row->pairs != plan->pairs || row->opening != plan->opening || row->opening_actions != plan->opening_actions)
        return error_set(err, "run '%s' opens its games or pairs them otherwise", row->name);
    if (row->opening == OPENING_BOOK && (!plan->book || row->book_hash != plan->book->hash))
        return error_set(err,
                         "run '%s' was played from another opening book (content hash %016" PRIx64
                         ", read from '%.200s'; this book's is %016" PRIx64 ")",
                         row->name, row->book_hash, row->book_path, plan->book ? plan->book->hash : 0);
    if (strcmp(row->controls, controls_format(&plan->controls, controls)))
        return error_set(err, "run '%s' was played with controls '%s', not '%s'", row->name, row->controls,
                         controls);
    return 0;
}

/* The book of a resumed run: the caller's, or the one at the stored
 * path; its content must be the one the run was started with. */
static int book_of_row(Run *r, const Book *given, char *err)
{
    const StoreRun *row = &r->row;
    if (!given) {
        char berr[ERR_LEN];
        if (book_load(&r->book, row->book_path, row->variant, berr)) {
            return error_set(err, "run '%s' opens from the book '%s': %.300s", row->name, row->book_path, berr);
        }
        given = &r->book;
    }
    if (given->hash != row->book_hash) {
        return error_set(err, "run '%s' was played from another opening book (content hash %016" PRIx64
                 "); the book '%.200s' holds %016" PRIx64 ": restore the book, or start a new run",
                 row->name, row->book_hash, given->path, given->hash);
    }
    r->plan.book = given;
    return 0;
}

static void default_name(const char *kind, const char *uid, char *out, size_t len)
{
    char date[32];
    time_t t = time(NULL);
    struct tm tm;
    strftime(date, sizeof date, "%Y%m%d-%H%M%S", gmtime_r(&t, &tm));
    snprintf(out, len, "%s-%s-%.8s", kind, date, uid);
}

bool run_in_shard(bool pairs, uint32_t index, uint32_t shard, uint32_t shards)
{
    uint32_t unit = pairs ? index / 2 : index;
    return unit % shards == shard - 1;
}

uint32_t run_shard_games(bool pairs, uint32_t games, uint32_t shard, uint32_t shards)
{
    if (!shards) return games;
    uint32_t n = 0;
    for (uint32_t i = 0; i < games; i++) n += run_in_shard(pairs, i, shard, shards);
    return n;
}

/* Keeps only the games of the shard in r->todo, and the shard in r (what a stopped run says to resume it with). */
static void keep_shard(Run *r, const RunOptions *o)
{
    uint32_t k = 0;
    r->shard = o->shard;
    r->shards = o->shards;
    if (!o->shards) return;
    for (uint32_t i = 0; i < r->ntodo; i++)
        if (run_in_shard(r->plan.pairs, r->todo[i], o->shard, o->shards)) r->todo[k++] = r->todo[i];
    r->ntodo = k;
}

static int open_here(Run *r, const RunOptions *o, char *err);

/* The play hash of game `index` of a probe plan between two specs. */
static uint64_t probe_game(int variant, const char *white, const char *black, int opening_actions, uint32_t index)
{
    SelfplayPlan plan = {.variant = variant, .seed = 0x7969, .games = index + 1, .threads = 1, .pairs = true,
                         .opening = OPENING_RANDOM, .opening_actions = opening_actions};
    Agent *w = NULL, *b = NULL;
    GameRecord rec = {0};
    char err[ERR_LEN];
    uint64_t h = 0;
    if (!agent_spec_parse(white, &plan.white, err) && !agent_spec_parse(black, &plan.black, err) &&
        !agent_new(&w, &plan.white, err) && !agent_new(&b, &plan.black, err) &&
        !selfplay_play_game(&plan, w, b, index, &rec))
        h = record_game_hash(&rec);
    record_free(&rec);
    agent_free(w);
    agent_free(b);
    run_plan_release(&plan);
    return h;
}

void run_build_ident(char *out, size_t len)
{
    /* MCTS with evaluated playouts against alpha-beta; then MCTS with
     * every search option against MCTS with random playouts, in blitz,
     * colours swapped */
    uint64_t a = probe_game(VARIANT_STANDARD, "mcts:sims=24,rollout=4", "ab:depth=2,tt=1", 4, 0);
    uint64_t b = probe_game(VARIANT_BLITZ, "mcts:sims=24,rollout=4,solver=1,prior=1,policy=rows", "mcts:sims=16", 2, 1);
    snprintf(out, len, "yinsh %s, commit %s, %s, plays %016" PRIx64 " %016" PRIx64, YINSH_VERSION, YINSH_GIT_COMMIT,
             YINSH_COMPILER, a, b);
}

int run_open(Run *r, const RunOptions *o, char *err)
{
    *r = (Run){0};
    /* every rank the same build, before rank 0 writes anything */
    if (dist_ranks() > 1) {
        char ident[DIST_IDENT_LEN];
        run_build_ident(ident, sizeof ident);
        if (dist_check_builds(ident, err)) return -1;
    }
    if (dist_rank() > 0) {
        /* a worker: rank 0 opens the run and says what it is */
        int status = 0;
        if (dist_share_run(&r->row, &status, err)) return -1;
        if (status) {
            err[0] = '\0';
            return -1;
        }
        char perr[ERR_LEN];
        if (plan_of_row(&r->row, &r->plan, o->outside, perr)) {
            return error_set(err, "rank %d: %s", dist_rank(), perr);
        }
        r->own_plan = true;
        /* a book run's openings: this rank's --book, or the stored path,
         * checked against the run's content hash */
        if (r->row.opening == OPENING_BOOK && book_of_row(r, o->plan.book, perr)) {
            return error_set(err, "rank %d: %s", dist_rank(), perr);
        }
        r->plan.threads = o->plan.threads;
        r->plan.controls.engine_logs = o->plan.controls.engine_logs;
        r->plan.controls.answer_ms = o->plan.controls.answer_ms;
        r->plan.controls.engine_transcript = o->plan.controls.engine_transcript;
        r->worker = true;
        return 0;
    }
    int rc = open_here(r, o, err);
    if (dist_ranks() > 1) {
        int status = rc != 0;
        char derr[ERR_LEN];
        if (dist_share_run(&r->row, &status, derr) && !rc) {
            rc = error_set(err, "%s", derr);
        }
    }
    return rc;
}

int run_work(Run *r, const atomic_bool *interrupt, char *err)
{
    SelfplaySink sink = {.interrupt = interrupt};
    return dist_play(&r->plan, NULL, 0, &sink, NULL, err);
}

/* A stored run found again: its plan from its row, its lease, the games
 * it lacks. */
static int open_resumed(Run *r, const RunOptions *o, char *err)
{
    char serr[ERR_LEN];
    int rc;
    if (!r->store) {
        return error_code(err, ERR_USAGE, "run '%s' is resumed from its database, and none is open", o->resume);
    }
    if ((rc = store_run_get(r->store, o->resume, &r->row, serr))) {
        return error_code(err, rc, "cannot resume: %s", serr);
    }
    if (plan_of_row(&r->row, &r->plan, o->outside, err)) return ERR_FAIL;
    r->own_plan = true;
    /* a run stores its root visits throughout, or not at all */
    if (o->plan.store_visits && !r->row.visits) {
        return error_code(err, ERR_USAGE, "run '%s' was started without storing root visit distributions, and a "
                          "resumed run keeps its choice", r->row.name);
    }
    if (r->row.opening == OPENING_BOOK && book_of_row(r, o->plan.book, err)) return ERR_FAIL;
    if (!o->joined) {
        if ((rc = store_run_claim(r->store, &r->row, o->take_over, &r->clash, err))) return rc;
        r->leased = true;
    }
    /* this build plays some of its games: the run names it beside the one that started it */
    if (store_run_add_commit(r->store, &r->row, YINSH_GIT_COMMIT, err)) return ERR_FAIL;
    r->plan.threads = o->plan.threads;
    /* where logs go and how long engines are waited for: this process's choice */
    r->plan.controls.engine_logs = o->plan.controls.engine_logs;
    r->plan.controls.answer_ms = o->plan.controls.answer_ms;
    r->plan.controls.engine_transcript = o->plan.controls.engine_transcript;
    if (store_run_missing(r->store, &r->row, &r->todo, &r->ntodo, err) ||
        store_summary(r->store, &r->row, &r->sum, err))
        return ERR_FAIL;
    keep_shard(r, o);
    return 0;
}

/* A new run's row from its plan: agents, sizes, openings, controls,
 * weights' hashes, its name and identity, provenance. */
static void new_row(const Run *r, const RunOptions *o, StoreRun *row)
{
    snprintf(row->kind, sizeof row->kind, "%s", o->kind);
    agent_spec_format(&r->plan.white, row->white);
    agent_spec_format(&r->plan.black, row->black);
    row->variant = r->plan.variant;
    row->seed = r->plan.seed;
    row->games = r->plan.games;
    row->threads = parallel_threads(r->plan.threads);
    row->pairs = r->plan.pairs;
    row->opening = r->plan.opening;
    row->opening_actions = r->plan.opening_actions;
    if (row->opening == OPENING_BOOK) {
        row->book_hash = r->plan.book->hash;
        snprintf(row->book_path, sizeof row->book_path, "%s", r->plan.book->path);
    }
    controls_format(&r->plan.controls, row->controls);
    row->visits = r->plan.store_visits;
    weights_hex(&r->plan.white, row->white_weights);
    weights_hex(&r->plan.black, row->black_weights);
    if (o->shards) {
        /* every shard must name the run alike: its identity from its plan */
        snprintf(row->name, sizeof row->name, "%s", o->name ? o->name : "");
        store_shard_uid(row, row->uid);
        if (!o->name) snprintf(row->name, sizeof row->name, "%s-%.12s", o->kind, row->uid);
    } else {
        store_new_uid(r->plan.seed, row->uid);
        if (o->name)
            snprintf(row->name, sizeof row->name, "%s", o->name);
        else
            default_name(o->kind, row->uid, row->name, sizeof row->name);
    }
    snprintf(row->git_commit, sizeof row->git_commit, "%s", YINSH_GIT_COMMIT);
    snprintf(row->compiler, sizeof row->compiler, "%s", YINSH_COMPILER);
    provenance_machine(row->machine, sizeof row->machine);
}

/* A new run: its row, created in the store with its lease, and every
 * game to play. */
static int open_new(Run *r, const RunOptions *o, char *err)
{
    int rc;
    r->plan = o->plan;
    if (!o->have_seed) r->plan.seed = run_clock_seed();
    selfplay_plan_settle(&r->plan);
    new_row(r, o, &r->row);
    if (r->store) {
        if ((rc = store_run_create(r->store, &r->row, o->command ? o->command : "", o->allow_repeat, &r->clash,
                                   err)))
            return rc;
        r->leased = true;
    }
    r->todo = malloc((r->plan.games ? r->plan.games : 1) * sizeof *r->todo);
    if (!r->todo) {
        return error_set(err, "out of memory");
    }
    for (uint32_t i = 0; i < r->plan.games; i++) r->todo[i] = i;
    r->ntodo = r->plan.games;
    keep_shard(r, o);
    return 0;
}

static int open_here(Run *r, const RunOptions *o, char *err)
{
    int rc;
    if (!o->no_db) {
        assert(o->db);
        r->db = o->db;
        if ((rc = store_open(&r->store, r->db, o->resume ? STORE_WRITE : STORE_CREATE,
                             o->busy_ms > 0 ? o->busy_ms : STORE_BUSY_MS, err)))
            return rc;
    }
    return o->resume ? open_resumed(r, o, err) : open_new(r, o, err);
}

int run_store(Run *r, GameRecord *const *games, int n, char *err)
{
    if (r->store && store_write_games(r->store, &r->row, games, n, err)) return -1;
    for (int i = 0; i < n; i++) {
        record_summary_add(&r->sum, games[i]);
        resign_summary_add(&r->resign, &r->plan.controls.resign, games[i]);
    }
    r->done += (uint64_t)n;
    return 0;
}

/* The writer thread's view of a run being played: the hooks, and the
 * games they hold back (copies, in the order they came). */
typedef struct Playing {
    Run *run;
    const RunHooks *h;
    GameRecord **held;
    int nheld, cap;
} Playing;

static int hold(Playing *p, const GameRecord *g, char *err)
{
    if (p->nheld == p->cap) {
        int cap = p->cap ? 2 * p->cap : 64;
        GameRecord **more = realloc(p->held, (size_t)cap * sizeof *more);
        if (!more) return error_set(err, "out of memory for the games held back");
        p->held = more;
        p->cap = cap;
    }
    GameRecord *copy = malloc(sizeof *copy);
    if (!copy || record_copy(copy, g)) {
        free(copy);
        return error_set(err, "out of memory for the games held back");
    }
    p->held[p->nheld++] = copy;
    return 0;
}

/* The held games whose fate is now to be stored (all of them at the end
 * of the run, `end`), stored; those dropped freed. */
static int release_held(Playing *p, bool end, char *err)
{
    int k = 0, n = 0, rc = 0;
    GameRecord **now = malloc((size_t)(p->nheld ? p->nheld : 1) * sizeof *now);
    if (!now) return error_set(err, "out of memory for the games held back");
    for (int i = 0; i < p->nheld; i++) {
        GameRecord *g = p->held[i];
        int fate = p->h->fate(p->h->ctx, g);
        if (fate == RUN_HOLD && !end) p->held[k++] = g;
        else if (fate == RUN_DROP) {
            record_free(g);
            free(g);
        } else now[n++] = g;
    }
    p->nheld = k;
    if (n) rc = run_store(p->run, now, n, err);
    for (int i = 0; i < n; i++) {
        record_free(now[i]);
        free(now[i]);
    }
    free(now);
    return rc;
}

static int play_write(void *ctx, GameRecord *const *games, int n, char *err)
{
    Playing *p = ctx;
    const RunHooks *h = p->h;
    if (h->finished) h->finished(h->ctx, games, n);
    if (!h->fate) return run_store(p->run, games, n, err);
    GameRecord **now = malloc((size_t)(n ? n : 1) * sizeof *now);
    if (!now) return error_set(err, "out of memory for a batch of games");
    int k = 0, rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        int fate = h->fate(h->ctx, games[i]);
        if (fate == RUN_STORE) now[k++] = games[i];
        else if (fate == RUN_HOLD) rc = hold(p, games[i], err);
    }
    if (!rc && k) rc = run_store(p->run, now, k, err);
    free(now);
    if (!rc && p->nheld) rc = release_held(p, false, err);
    return rc;
}

static void play_stored(void *ctx, GameRecord *const *games, int n)
{
    (void)games;
    (void)n;
    Playing *p = ctx;
    if (p->h->stored) p->h->stored(p->h->ctx, p->run);
}

int run_play(Run *r, const RunHooks *h, char *err)
{
    Playing p = {.run = r, .h = h};
    SelfplaySink sink = {.write = play_write, .stored = play_stored, .ctx = &p, .stop = h->stop,
                         .interrupt = h->interrupt};
    int rc = dist_play(&r->plan, r->todo, r->ntodo, &sink, h->dist, err);
    if (!rc && p.nheld) rc = release_held(&p, true, err);
    for (int i = 0; i < p.nheld; i++) {
        record_free(p.held[i]);
        free(p.held[i]);
    }
    free(p.held);
    return rc;
}

int run_finish(Run *r, char *err)
{
    if (!r->store) return 0;
    return store_run_finish(r->store, &r->row, err) || store_summary(r->store, &r->row, &r->sum, err) ? -1 : 0;
}

void run_close(Run *r)
{
    char err[ERR_LEN];
    if (r->leased) store_run_release(r->store, &r->row, err); /* a lease left behind is taken over later */
    free(r->todo);
    book_free(&r->book);
    store_close(r->store);
    if (r->own_plan) run_plan_release(&r->plan);
    *r = (Run){0};
}

void run_describe(FILE *f, const Run *r)
{
    const SelfplayPlan *plan = &r->plan;
    int threads = parallel_threads(plan->threads);
    fprintf(f, "run %s%s%s, seed %" PRIu64 ", %s, %s vs %s, %u game%s (%u to play), %d thread%s", r->row.name,
            r->store ? " in " : "", r->store ? r->db : "", plan->seed, variant_name(plan->variant), r->row.white,
            r->row.black, plan->games, number_plural(plan->games), r->ntodo, threads, number_plural((uint64_t)threads));
    if (dist_ranks() > 1) fprintf(f, " on each of %d ranks", dist_ranks());
}

char *run_tally(const RecordSummary *s, char *out, size_t len)
{
    int at = snprintf(out, len, "W %" PRIu64 " B %" PRIu64 " D %" PRIu64, s->wins[RESULT_WHITE], s->wins[RESULT_BLACK],
                      s->wins[RESULT_DRAW]);
    if (dist_ranks() > 1) snprintf(out + at, len - (size_t)at, ", ranks alive %d/%d", dist_ranks_alive(), dist_ranks());
    return out;
}

int run_import(Store *s, const char *name, const char *white, const char *black, const char *command,
               GameRecord *g, bool allow_repeat, char *err)
{
    StoreRun row = {.variant = g->variant, .games = 1, .threads = 1, .opening = OPENING_NONE};
    uint64_t h = RNG_HASH_START;
    char text[ACTION_MAX_LEN];
    for (int i = 0; i < g->nactions; i++) h = rng_hash_text_from(h, action_format(g->actions[i].action, text));
    row.seed = h;
    store_new_uid(row.seed, row.uid);
    snprintf(row.kind, sizeof row.kind, "import");
    snprintf(row.name, sizeof row.name, "%s", name);
    snprintf(row.white, sizeof row.white, "%s", white);
    snprintf(row.black, sizeof row.black, "%s", black);
    snprintf(row.git_commit, sizeof row.git_commit, "%s", YINSH_GIT_COMMIT);
    snprintf(row.compiler, sizeof row.compiler, "%s", YINSH_COMPILER);
    provenance_machine(row.machine, sizeof row.machine);
    g->index = 0;
    g->seed = row.seed;
    g->swapped = false;
    if (store_transaction_begin(s, err)) return ERR_FAIL;
    int rc = store_run_create(s, &row, command, allow_repeat, NULL, err);
    if (rc == ERR_EXISTS) /* the name is made from the game's players and date */
        rc = error_code(err, rc, "a run named '%s' exists already: this game was imported before", name);
    if (!rc && (store_write_games(s, &row, &g, 1, err) || store_run_finish(s, &row, err) ||
                store_run_release(s, &row, err) || store_transaction_commit(s, err)))
        rc = ERR_FAIL;
    if (rc) store_transaction_rollback(s);
    return rc;
}
