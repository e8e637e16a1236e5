/* Loading a Report: the store's rows (selfplay/store/store.h, where the
 * SQL lives), one pass over every selected game and its actions, counted
 * into pairs of agents (copies apart), first rings and runs, the match
 * runs tallied pair by pair, then the pairs sorted for the tables and the
 * ladders built from them. Every store_query_* call is in report_load,
 * so that a change of the reader touches this function only. */
#include <stdlib.h>
#include <string.h>
#include "engine/base/clock.h"
#include "engine/base/error.h"
#include "selfplay/agents/agent.h"
#include "engine/notation.h"
#include "engine/position.h"
#include "eval/evaluation.h"
#include "selfplay/search/ab.h"
#include "study/report/report_internal.h"
#include "selfplay/store/store.h"

/* What the row callbacks fill; err gets the first failure. */
typedef struct LoadCtx {
    Report *rep;
    int cap;
    int run;   /* the run of the last game */
    char *err;
    Weights ref;      /* the reference evaluator's weights (REPORT_REFERENCE, or the options') */
    Ab *ref_ab;       /* a searched reference: its search (NULL: the weights alone) */
    double *white;    /* its values of the game in hand, white_cap of them */
    int white_cap;
    AgentSpec ref_spec; /* its spec, holding the net the search reads */
    bool ref_spec_held;
    const ReportLoadOptions *opt;
    int64_t scored, total; /* games scored by a searched reference, of the selected */
    double next_progress;
} LoadCtx;

static int oom(char *err)
{
    return error_set(err, "out of memory");
}

static int reason_of(const char *text)
{
    for (int r = REASON_NONE; r < REPORT_REASON_NB - 1; r++)
        if (!strcmp(text, reason_name(r))) return r;
    return REPORT_REASON_NB - 1;
}

/* The pair that counts games of variant between white and black from
 * opening, added (with no games) the first time a row names it; NULL when
 * out of memory. */
static ReportPair *pair_get(LoadCtx *c, int variant, const char *white, const char *black, const char *opening)
{
    Report *rep = c->rep;
    int at = report_pair_index(rep, variant, white, black, opening);
    if (at >= 0) return &rep->pairs[at];
    if (rep->npairs == c->cap) {
        int cap = c->cap ? 2 * c->cap : 16;
        ReportPair *grown = realloc(rep->pairs, (size_t)cap * sizeof *grown);
        if (!grown) return NULL;
        rep->pairs = grown;
        c->cap = cap;
    }
    ReportPair *p = &rep->pairs[rep->npairs];
    *p = (ReportPair){.variant = variant};
    p->white = strdup(white);
    p->black = strdup(black);
    p->opening = strdup(opening);
    p->lengths = calloc(REPORT_MAX_LENGTH + 1, sizeof *p->lengths);
    p->first = calloc(SQUARE_NB, sizeof *p->first);
    rep->npairs++; /* counted now, so that report_free frees a half-made pair */
    if (!p->white || !p->black || !p->opening || !p->lengths || !p->first) return NULL;
    return p;
}

/* A game's key: its variant, its actions in order and its end (result
 * and reason: a fault can end the same actions otherwise), hashed with
 * FNV-1a over 64 bits and mixed. Two games with one key are taken for one
 * game: by chance two of a million distinct games share a key with odds
 * of about 3e-8. 0 is no key (it marks a free slot). */
static uint64_t fnv_text(uint64_t h, const char *text)
{
    for (const unsigned char *c = (const unsigned char *)text;; c++) {
        h = (h ^ *c) * 0x100000001b3ULL; /* the NUL too: "ab" "c" is not "a" "bc" */
        if (!*c) return h;
    }
}

static uint64_t game_key(const StoreGameActions *g)
{
    uint64_t h = fnv_text(0xcbf29ce484222325ULL, g->variant);
    for (int i = 0; i < g->nactions; i++) h = fnv_text(h, g->actions[i].action);
    h = fnv_text(fnv_text(h, g->result), g->reason);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h ? h : 1;
}

/* Adds key to the set: 1 when it is new, 0 when it was there, -1 when
 * memory runs out. Open addressing, linear probing, at most half full. */
static int keys_add(ReportKeys *k, uint64_t key)
{
    if (2 * (k->n + 1) > k->cap) {
        size_t cap = k->cap ? 2 * k->cap : 64;
        uint64_t *slot = calloc(cap, sizeof *slot);
        if (!slot) return -1;
        for (size_t i = 0; i < k->cap; i++) {
            if (!k->slot[i]) continue;
            size_t at = k->slot[i] & (cap - 1);
            while (slot[at]) at = (at + 1) & (cap - 1);
            slot[at] = k->slot[i];
        }
        free(k->slot);
        k->slot = slot;
        k->cap = cap;
    }
    size_t at = key & (k->cap - 1);
    for (; k->slot[at]; at = (at + 1) & (k->cap - 1))
        if (k->slot[at] == key) return 0;
    k->slot[at] = key;
    k->n++;
    return 1;
}

/* The run a game belongs to: the games come run by run, in the order of
 * the runs' rows, so the search starts at the last one found. */
static ReportRun *run_of(LoadCtx *c, const char *name)
{
    Report *rep = c->rep;
    for (int k = 0; k < rep->nrun_rows; k++) {
        ReportRun *r = &rep->run_rows[(c->run + k) % rep->nrun_rows];
        if (!strcmp(r->name, name)) {
            c->run = (int)(r - rep->run_rows);
            return r;
        }
    }
    return NULL;
}

/* The reference evaluator's values of a game (report_lead): its actions
 * replayed from the variant's start, White's expected score after each
 * by the linear evaluation, the result after the last. False when an
 * action does not replay (a record from another start): no values then.
 * c->white holds at least n values (the caller grew it). */
static bool reference_values(LoadCtx *c, const StoreGameActions *g, int variant, int result)
{
    Position pos;
    pos_start(&pos, variant);
    char err[ERR_LEN];
    if (c->ref_ab) ab_clear(c->ref_ab);
    for (int i = 0; i < g->nactions; i++) {
        Action a;
        Undo u;
        if (action_parse(&pos, g->actions[i].action, &a, err)) return false;
        pos_make(&pos, a, &u);
        if (!c->ref_ab) {
            c->white[i] = eval_white(&c->ref, &pos);
        } else if (i < g->nactions - 1) {
            /* the last position's value is the result, set below: not searched */
            AbResult r;
            ab_search(c->ref_ab, &pos, NULL, &r);
            double v = ab_score_value(r.score);
            c->white[i] = pos.actor == WHITE ? v : 1 - v;
        }
    }
    if (c->ref_ab) {
        c->scored++;
        if (c->opt && c->opt->progress && clock_now() >= c->next_progress) {
            c->opt->progress(c->opt->progress_ctx, c->scored, c->total);
            c->next_progress = clock_now() + 2;
        }
    }
    if (g->nactions)
        c->white[g->nactions - 1] = result == RESULT_WHITE ? 1 : result == RESULT_BLACK ? 0 : 0.5;
    return g->nactions > 0;
}

/* One stored game: counted in its run's distinct games, then, unless it
 * is a copy of a game its pair has already, into every figure. */
static int on_game(void *ctx, const StoreGameActions *g)
{
    LoadCtx *c = ctx;
    Report *rep = c->rep;
    uint64_t key = game_key(g);
    ReportRun *run = run_of(c, g->run);
    int fresh = run ? keys_add(&run->keys, key) : 0;
    if (fresh < 0) return oom(c->err);
    if (run) run->distinct += fresh;

    int variant;
    if (!variant_parse(g->variant, &variant)) {
        rep->skipped++;
        return 0;
    }
    int result = result_parse(g->result);
    /* an unfinished game has no result: counted apart, never as a loss */
    if (result == RESULT_NONE) {
        rep->unfinished++;
        return 0;
    }
    ReportPair *p = pair_get(c, variant, g->white, g->black, run ? run->opening : "");
    if (!p) return oom(c->err);
    if ((fresh = keys_add(&p->keys, key)) < 0) return oom(c->err);
    if (!fresh) {
        /* a copy: the same evidence again, not more of it */
        p->copies++;
        rep->copies++;
        return 0;
    }
    int64_t len = g->length < 0 ? 0 : g->length > REPORT_MAX_LENGTH ? REPORT_MAX_LENGTH : g->length;
    p->games++;
    p->results[result]++;
    p->reasons[reason_of(g->reason)]++;
    p->lengths[len]++;
    rep->games++;
    Point pt;
    if (g->nactions && !strcmp(g->actions[0].state, "P") &&
        point_parse(g->actions[0].action, strlen(g->actions[0].action), &pt)) {
        rep->first[variant][pt][result]++;
        p->first[pt][result]++;
    }
    if (g->nactions > 1 && !strcmp(g->actions[1].action, "swap")) p->swapped[result]++;
    for (int i = 0; i < g->nactions; i++) {
        int phase = report_phase(g->actions[i].state);
        if (phase < 0) continue;
        p->legal[phase] += g->actions[i].legal > 0 ? (uint64_t)g->actions[i].legal : 0;
        p->decisions[phase]++;
    }
    ReportGameValues v = report_game_values(g->actions, g->nactions, result);
    if (v.valued) {
        p->valued++;
        p->lead_changes += (uint64_t)v.lead_changes;
    }
    if (v.decided_at >= 0) {
        p->decided++;
        p->decided_at += v.decided_at;
    }
    if (g->nactions > c->white_cap) {
        double *grown = realloc(c->white, (size_t)g->nactions * sizeof *grown);
        if (!grown) return oom(c->err);
        c->white = grown;
        c->white_cap = g->nactions;
    }
    if (reference_values(c, g, variant, result)) {
        ReportLead r = report_lead(c->white, g->nactions, result, REPORT_LEAD_BAND);
        p->ref_valued++;
        p->ref_lead_changes += (uint64_t)r.lead_changes;
        if (r.decided_at >= 0) {
            p->ref_decided++;
            p->ref_decided_at += r.decided_at;
        }
    }
    return 0;
}

/* One stored game of a match run: the games come run by run, in index
 * order, so a run's tally is the last one until another run's game
 * comes. */
static int on_match_game(void *ctx, const StoreMatchRow *row)
{
    LoadCtx *c = ctx;
    Report *rep = c->rep;
    ReportMatch *m = rep->nmatches ? &rep->matches[rep->nmatches - 1] : NULL;
    if (!m || strcmp(m->run, row->run)) {
        ReportMatch *grown = realloc(rep->matches, (size_t)(rep->nmatches + 1) * sizeof *grown);
        if (!grown) return oom(c->err);
        rep->matches = grown;
        m = &rep->matches[rep->nmatches++];
        const ReportRun *run = run_of(c, row->run);
        int variant;
        *m = (ReportMatch){.run = strdup(row->run), .a = strdup(row->a), .b = strdup(row->b),
                           .opening = strdup(run ? run->opening : ""),
                           .variant = variant_parse(row->variant, &variant) ? variant : -1};
        match_stored_init(&m->pairs);
        if (!m->run || !m->a || !m->b || !m->opening) return oom(c->err);
    }
    match_stored_add(&m->pairs, row);
    return 0;
}

static int on_run(void *ctx, const StoreRunRow *row)
{
    LoadCtx *c = ctx;
    Report *rep = c->rep;
    ReportRun *grown = realloc(rep->run_rows, (size_t)(rep->nrun_rows + 1) * sizeof *grown);
    if (!grown) return oom(c->err);
    rep->run_rows = grown;
    ReportRun *r = &rep->run_rows[rep->nrun_rows++];
    *r = (ReportRun){
        .name = strdup(row->name),
        .command = strdup(row->command),
        .variant = strdup(row->variant),
        .white = strdup(row->white),
        .black = strdup(row->black),
        .version = strdup(row->version),
        .git_commit = strdup(row->git_commit),
        .compiler = strdup(row->compiler),
        .machine = strdup(row->machine),
        .kind = strdup(row->kind),
        .opening = strdup(row->opening),
        .controls = strdup(row->controls),
        .pairs = row->pairs,
        .hash = row->hash,
        .seed = row->seed,
        .games = row->games,
        .stored = row->stored,
        .repeats = row->repeats,
        .finished = row->finished_at != NULL,
    };
    if (!r->name || !r->command || !r->variant || !r->white || !r->black || !r->version || !r->git_commit ||
        !r->compiler || !r->machine || !r->kind || !r->opening || !r->controls)
        return oom(c->err);
    return 0;
}

/* Simulations per move of an agent playing itself: what the strength axis
 * shows. Random play counts as one simulation, to rank it at the weak
 * end (the picture draws it apart: it is no point of that scale); a spec
 * this yinsh cannot parse, or one with no simulations (ab, an external
 * engine), has none. */
static double strength_of(const char *white, const char *black)
{
    if (strcmp(white, black)) return 0;
    AgentSpec spec;
    char err[ERR_LEN];
    if (agent_spec_parse_text(white, &spec, err)) return 0;
    return agent_spec_random(&spec) ? 1 : (double)agent_spec_sims(&spec);
}

static int pair_order(const void *a, const void *b)
{
    const ReportPair *p = a, *q = b;
    if (p->variant != q->variant) return p->variant - q->variant;
    /* same-agent pairs by strength first, then the rest */
    bool ps = p->strength > 0, qs = q->strength > 0;
    if (ps != qs) return ps ? -1 : 1;
    if (p->strength != q->strength) return p->strength < q->strength ? -1 : 1;
    int w = strcmp(p->white, q->white);
    if (w) return w;
    int k = strcmp(p->black, q->black);
    return k ? k : strcmp(p->opening, q->opening);
}

/* A copy of a selection's text, NULL for NULL; false when out of memory. */
static bool copy_opt(char **to, const char *from)
{
    *to = from ? strdup(from) : NULL;
    return !from || *to;
}

/* The reference evaluator of o: the linear weights in c->ref, or the
 * search c->ref_ab of an ab spec at a fixed depth. */
static int reference_open(LoadCtx *c, Report *rep, const char *text, char *err)
{
    char serr[ERR_LEN];
    if (!(rep->reference = strdup(text))) return oom(err);
    if (strncmp(text, "ab:", 3)) {
        AgentSpec other;
        if (!agent_spec_parse_text(text, &other, serr))
            return error_code(err, ERR_USAGE,
                              "the reference evaluator '%s' is an agent of another kind: an ab: spec at a fixed depth, "
                              "or a weights file",
                              text);
        if (weights_load(text, &c->ref, serr))
            return error_code(err, ERR_USAGE, "the reference evaluator (a weights file or an ab: spec): %s", serr);
        return 0;
    }
    AgentSpec *spec = &c->ref_spec;
    AbConfig cfg;
    if (agent_spec_parse(text, spec, serr)) {
        agent_spec_release(spec);
        return error_code(err, ERR_USAGE, "the reference evaluator '%s': %s", text, serr);
    }
    c->ref_spec_held = true;
    if (!agent_spec_ab_config(spec, &cfg))
        return error_code(err, ERR_USAGE, "the reference evaluator '%s' is not an ab: spec (nor a weights file)", text);
    if (spec->movetime_ms || spec->ab.max_depth || spec->ab.threads > 1)
        return error_code(err, ERR_USAGE,
                          "the reference evaluator '%s' must search to a fixed depth on one thread (no movetime, "
                          "maxdepth or threads): the same values wherever it runs",
                          text);
    if (ab_new(&c->ref_ab, &cfg, serr)) return error_code(err, ERR_FAIL, "the reference evaluator '%s': %s", text, serr);
    rep->reference_searched = true;
    return 0;
}

/* The reference's search and the net its spec holds. */
static void reference_close(LoadCtx *c)
{
    if (c->ref_ab) ab_free(c->ref_ab);
    if (c->ref_spec_held) agent_spec_release(&c->ref_spec);
    c->ref_ab = NULL;
    c->ref_spec_held = false;
}

int report_reference_check(const char *text, char *err)
{
    LoadCtx c = {0};
    Report r = {0};
    int rc = reference_open(&c, &r, text, err);
    reference_close(&c);
    free(r.reference);
    return rc;
}

int report_load(Report *rep, const char *db, int busy_ms, const StoreSelection *selection, char *err)
{
    return report_load_with(rep, db, busy_ms, selection, NULL, err);
}

int report_load_with(Report *rep, const char *db, int busy_ms, const StoreSelection *selection,
                     const ReportLoadOptions *o, char *err)
{
    *rep = (Report){0};
    Store *reader = NULL;
    char serr[ERR_LEN];
    LoadCtx ctx = {.rep = rep, .err = serr, .opt = o}; /* the rows' own failures too: one message */
    StoreSelection sel = selection ? *selection : (StoreSelection){0};
    int rc = 0, nruns = sel.nruns;

    if (!(rep->db = strdup(db)) || (nruns && !(rep->runs = calloc((size_t)nruns, sizeof *rep->runs))))
        return oom(err);
    for (int i = 0; i < nruns; i++, rep->nruns++)
        if (!(rep->runs[i] = strdup(sel.runs[i]))) return oom(err);
    if (!copy_opt(&rep->kind, sel.kind) || !copy_opt(&rep->agent, sel.agent) || !copy_opt(&rep->variant, sel.variant))
        return oom(err);
    /* REPORT_REFERENCE is built into yinsh: read from the built-in copy wherever the report runs */
    if ((rc = reference_open(&ctx, rep, o && o->reference ? o->reference : REPORT_REFERENCE, err))) {
        reference_close(&ctx);
        return rc;
    }

    if (!(rc = store_open(&reader, db, STORE_READ, busy_ms, serr)) && !(rc = store_query_check(reader, &sel, serr)) &&
        !(rc = store_query_runs(reader, &sel, on_run, &ctx, serr))) {
        for (int i = 0; i < rep->nrun_rows; i++) ctx.total += rep->run_rows[i].stored;
        ctx.next_progress = clock_now() + 2;
        if (ctx.ref_ab && o && o->progress) o->progress(o->progress_ctx, 0, ctx.total);
    }
    if (rc || (rc = store_query_game_actions(reader, &sel, on_game, &ctx, serr)) ||
        (rc = store_query_match_games(reader, &sel, on_match_game, &ctx, serr)) ||
        (rc = store_query_repeats(reader, &sel, &rep->repeats, serr))) {
        error_set(err, "%s", serr);
        store_close(reader);
        free(ctx.white);
        reference_close(&ctx);
        return rc;
    }
    store_close(reader);
    free(ctx.white);
    if (ctx.ref_ab && o && o->progress) o->progress(o->progress_ctx, ctx.scored, ctx.total);
    reference_close(&ctx);
    for (int i = 0; i < rep->npairs; i++)
        rep->pairs[i].strength = strength_of(rep->pairs[i].white, rep->pairs[i].black);
    if (rep->npairs) qsort(rep->pairs, (size_t)rep->npairs, sizeof *rep->pairs, pair_order);
    /* the same agents from two openings: each label names its opening */
    for (int i = 0; i < rep->npairs; i++)
        for (int j = i + 1; j < rep->npairs; j++) {
            ReportPair *p = &rep->pairs[i], *q = &rep->pairs[j];
            if (p->variant == q->variant && !strcmp(p->white, q->white) && !strcmp(p->black, q->black))
                p->opening_shown = q->opening_shown = true;
        }
    for (int v = 0; v < REPORT_VARIANT_NB; v++) report_ladder_build(rep, v, &rep->ladder[v]);
    if (report_families(rep)) return oom(err);
    return 0;
}

void report_free(Report *rep)
{
    for (int i = 0; i < rep->npairs; i++) {
        free(rep->pairs[i].white);
        free(rep->pairs[i].black);
        free(rep->pairs[i].opening);
        free(rep->pairs[i].lengths);
        free(rep->pairs[i].first);
        free(rep->pairs[i].keys.slot);
    }
    for (int i = 0; i < rep->nmatches; i++) {
        free(rep->matches[i].run);
        free(rep->matches[i].a);
        free(rep->matches[i].b);
        free(rep->matches[i].opening);
    }
    free(rep->matches);
    free(rep->opening_p_holm);
    report_compare(rep, NULL, 0); /* frees the declared comparisons */
    for (int v = 0; v < REPORT_VARIANT_NB; v++) report_ladder_free(&rep->ladder[v]);
    for (int i = 0; i < rep->nrun_rows; i++) {
        ReportRun *r = &rep->run_rows[i];
        free(r->name);
        free(r->command);
        free(r->variant);
        free(r->white);
        free(r->black);
        free(r->version);
        free(r->git_commit);
        free(r->compiler);
        free(r->machine);
        free(r->kind);
        free(r->opening);
        free(r->controls);
        free(r->keys.slot);
    }
    free(rep->kind);
    free(rep->agent);
    free(rep->variant);
    for (int i = 0; i < rep->nruns; i++) free(rep->runs[i]);
    free(rep->runs);
    free(rep->run_rows);
    free(rep->pairs);
    free(rep->db);
    free(rep->reference);
    *rep = (Report){0};
}
