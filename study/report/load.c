/* Loading a Report: the store's rows (selfplay/store/store.h, where the
 * SQL lives) counted into pairs of agents, first rings and runs, then the
 * pairs sorted for the tables. Every store_query_* call is in report_load,
 * so that a change of the reader touches this function only. */
#include <stdlib.h>
#include <string.h>
#include "base/error.h"
#include "agents/agent.h"
#include "engine/notation.h"
#include "report/internal.h"
#include "store/store.h"

/* What the row callbacks fill; err gets the first failure. */
typedef struct LoadCtx {
    Report *rep;
    int cap;
    char *err;
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

/* The pair that counts games of variant between white and black, added
 * (with no games) the first time a row names it; NULL when out of memory. */
static ReportPair *pair_get(LoadCtx *c, int variant, const char *white, const char *black)
{
    Report *rep = c->rep;
    int at = report_pair_index(rep, variant, white, black);
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
    p->lengths = calloc(REPORT_MAX_LENGTH + 1, sizeof *p->lengths);
    rep->npairs++; /* counted now, so that report_free frees a half-made pair */
    if (!p->white || !p->black || !p->lengths) return NULL;
    return p;
}

static int on_outcome(void *ctx, const StoreOutcomeRow *row)
{
    LoadCtx *c = ctx;
    int variant;
    uint64_t n = row->games > 0 ? (uint64_t)row->games : 0;
    if (!variant_parse(row->variant, &variant)) {
        c->rep->skipped += n;
        return 0;
    }
    int result = result_parse(row->result);
    /* an unfinished game has no result: counted apart, never as a loss */
    if (result == RESULT_NONE) {
        c->rep->unfinished += n;
        return 0;
    }
    ReportPair *p = pair_get(c, variant, row->white, row->black);
    if (!p) return oom(c->err);
    int64_t len = row->actions < 0 ? 0 : row->actions > REPORT_MAX_LENGTH ? REPORT_MAX_LENGTH : row->actions;
    p->games += n;
    p->results[result] += n;
    p->reasons[reason_of(row->reason)] += n;
    p->lengths[len] += n;
    c->rep->games += n;
    return 0;
}

static int on_first(void *ctx, const StoreFirstRow *row)
{
    LoadCtx *c = ctx;
    int variant;
    Point pt;
    if (!variant_parse(row->variant, &variant) || !point_parse(row->action, strlen(row->action), &pt) ||
        result_parse(row->result) == RESULT_NONE)
        return 0;
    c->rep->first[variant][pt][result_parse(row->result)] += row->games > 0 ? (uint64_t)row->games : 0;
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
        .pairs = row->pairs,
        .hash = row->hash,
        .seed = row->seed,
        .games = row->games,
        .stored = row->stored,
        .repeats = row->repeats,
        .finished = row->finished_at != NULL,
    };
    if (!r->name || !r->command || !r->variant || !r->white || !r->black || !r->version || !r->git_commit ||
        !r->compiler || !r->machine || !r->kind || !r->opening)
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
    return w ? w : strcmp(p->black, q->black);
}

/* A copy of a selection's text, NULL for NULL; false when out of memory. */
static bool copy_opt(char **to, const char *from)
{
    *to = from ? strdup(from) : NULL;
    return !from || *to;
}

int report_load(Report *rep, const char *db, int busy_ms, const StoreSelection *selection, char *err)
{
    *rep = (Report){0};
    Store *reader = NULL;
    char serr[ERR_LEN];
    LoadCtx ctx = {.rep = rep, .err = serr}; /* the rows' own failures too: one message */
    StoreSelection sel = selection ? *selection : (StoreSelection){0};
    int rc = 0, nruns = sel.nruns;

    if (!(rep->db = strdup(db)) || (nruns && !(rep->runs = calloc((size_t)nruns, sizeof *rep->runs))))
        return oom(err);
    for (int i = 0; i < nruns; i++, rep->nruns++)
        if (!(rep->runs[i] = strdup(sel.runs[i]))) return oom(err);
    if (!copy_opt(&rep->kind, sel.kind) || !copy_opt(&rep->agent, sel.agent) || !copy_opt(&rep->variant, sel.variant))
        return oom(err);

    if ((rc = store_open(&reader, db, STORE_READ, busy_ms, serr)) || (rc = store_query_check(reader, &sel, serr)) ||
        (rc = store_query_runs(reader, &sel, on_run, &ctx, serr)) ||
        (rc = store_query_outcomes(reader, &sel, on_outcome, &ctx, serr)) ||
        (rc = store_query_first_actions(reader, &sel, on_first, &ctx, serr)) ||
        (rc = store_query_repeats(reader, &sel, &rep->repeats, serr))) {
        snprintf(err, ERR_LEN, "%s", serr);
        store_close(reader);
        return rc;
    }
    store_close(reader);
    for (int i = 0; i < rep->npairs; i++)
        rep->pairs[i].strength = strength_of(rep->pairs[i].white, rep->pairs[i].black);
    if (rep->npairs) qsort(rep->pairs, (size_t)rep->npairs, sizeof *rep->pairs, pair_order);
    return 0;
}

void report_free(Report *rep)
{
    for (int i = 0; i < rep->npairs; i++) {
        free(rep->pairs[i].white);
        free(rep->pairs[i].black);
        free(rep->pairs[i].lengths);
    }
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
    }
    free(rep->kind);
    free(rep->agent);
    free(rep->variant);
    for (int i = 0; i < rep->nruns; i++) free(rep->runs[i]);
    free(rep->runs);
    free(rep->run_rows);
    free(rep->pairs);
    free(rep->db);
    *rep = (Report){0};
}
