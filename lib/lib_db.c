/* Databases, read-only (include/yinsh.h): their games through the
 * store's cursor (store/cursor.h) and their training positions through
 * the samples reader (positions/samples.h). The library speaks no SQL. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "selfplay/agents/agent.h"
#include "engine/base/error.h"
#include "engine/encode/encode.h"
#include "engine/notation.h"
#include "lib/lib_internal.h"
#include "study/positions/samples.h"
#include "selfplay/store/cursor.h"

int yinsh_db_open(yinsh_db **out, const char *path, char *err)
{
    char scratch[ERR_LEN];
    *out = NULL;
    yinsh_db *db = calloc(1, sizeof *db);
    if (!db) return error_set(err, "out of memory for a database");
    int rc = store_open(&db->store, path, STORE_READ, STORE_BUSY_MS, ERR_OR_SCRATCH(err, scratch));
    if (rc) {
        free(db);
        return rc;
    }
    *out = db;
    return 0;
}

void yinsh_db_close(yinsh_db *db)
{
    if (!db) return;
    store_close(db->store);
    free(db);
}

/* The store's selection of the library's: the same fields, with the
 * agent's spec made canonical into agent (SPEC_LEN bytes), as the
 * database stores it ("mcts:sims=200" is mcts:sims=200,c=1,rollout=random). */
static int selection(const yinsh_selection *sel, StoreSelection *out, char *agent, char *err)
{
    *out = (StoreSelection){0};
    if (!sel) return 0;
    if (sel->nruns < 0 || (sel->nruns > 0 && !sel->runs))
        return error_code(err, ERR_USAGE, "a selection of %d runs without their names", sel->nruns);
    for (int i = 0; i < sel->nruns; i++)
        if (!sel->runs[i]) return error_code(err, ERR_USAGE, "run name %d of the selection is NULL", i);
    if (sel->kind && strcmp(sel->kind, "selfplay") && strcmp(sel->kind, "match") && strcmp(sel->kind, "import"))
        return error_code(err, ERR_USAGE, "kind '%.64s': expected selfplay, match or import", sel->kind);
    int variant;
    if (sel->variant && !variant_parse(sel->variant, &variant))
        return error_code(err, ERR_USAGE, "variant '%.64s': expected " VARIANT_EXPECTED, sel->variant);
    *out = (StoreSelection){.runs = sel->runs, .nruns = sel->nruns, .kind = sel->kind, .variant = sel->variant};
    if (sel->agent) {
        AgentSpec spec;
        char why[ERR_LEN];
        if (agent_spec_parse_text(sel->agent, &spec, why))
            return error_code(err, ERR_USAGE, "the selection's agent: %s", why);
        out->agent = agent_spec_format(&spec, agent);
    }
    return 0;
}

/* ---- games ---------------------------------------------------------- */

struct yinsh_games {
    StoreCursor *cursor;
    const StoreCursorGame *game; /* the current game; NULL before the first and after the last */
    StoreGameTags tags;
};

int yinsh_games_open(yinsh_games **out, yinsh_db *db, const yinsh_selection *sel, char *err)
{
    char scratch[ERR_LEN];
    *out = NULL;
    yinsh_games *g = calloc(1, sizeof *g);
    if (!g) return error_set(err, "out of memory for a reader of games");
    StoreSelection s;
    char agent[SPEC_LEN];
    int rc = selection(sel, &s, agent, err);
    if (!rc) rc = store_cursor_open(db->store, &s, &g->cursor, ERR_OR_SCRATCH(err, scratch));
    if (rc) {
        free(g);
        return rc;
    }
    *out = g;
    return 0;
}

int yinsh_games_next(yinsh_games *g, char *err)
{
    char scratch[ERR_LEN];
    int rc = store_cursor_next(g->cursor, &g->game, ERR_OR_SCRATCH(err, scratch));
    if (rc) return rc;
    if (!g->game) return 0;
    store_game_tags(&g->game->text, &g->tags);
    return 1;
}

void yinsh_games_close(yinsh_games *g)
{
    if (!g) return;
    store_cursor_close(g->cursor);
    free(g);
}

int yinsh_game_tag_count(const yinsh_games *g) { return g->game ? g->tags.n : 0; }

const char *yinsh_game_tag_key(const yinsh_games *g, int i)
{
    return g->game && i >= 0 && i < g->tags.n ? g->tags.key[i] : NULL;
}

const char *yinsh_game_tag_value(const yinsh_games *g, int i)
{
    return g->game && i >= 0 && i < g->tags.n ? g->tags.value[i] : NULL;
}

const char *yinsh_game_tag(const yinsh_games *g, const char *key)
{
    for (int i = 0; g->game && i < g->tags.n; i++)
        if (!strcmp(g->tags.key[i], key)) return g->tags.value[i];
    return NULL;
}

int yinsh_game_variant(const yinsh_games *g)
{
    int variant;
    return g->game && variant_parse(g->game->text.variant, &variant) ? variant : -1;
}

/* The number of a name among n names (name_of(k) for k in [0, n)), -1 if none. */
static int lookup(const char *text, const char *(*name_of)(int), int n)
{
    for (int k = 0; text && k < n; k++)
        if (!strcmp(text, name_of(k))) return k;
    return -1;
}

int yinsh_game_result(const yinsh_games *g) { return g->game ? lookup(g->game->text.result, result_name, RESULT_NB) : -1; }
int yinsh_game_reason(const yinsh_games *g) { return g->game ? lookup(g->game->text.reason, reason_name, REASON_NB) : -1; }
int yinsh_game_length(const yinsh_games *g) { return g->game ? g->game->text.nactions : 0; }

const char *yinsh_game_action(const yinsh_games *g, int ply)
{
    return g->game && ply >= 0 && ply < g->game->text.nactions ? g->game->text.actions[ply] : NULL;
}

int yinsh_game_action_row(const yinsh_games *g, int ply, yinsh_action_row *row)
{
    if (!g->game || ply < 0 || ply >= g->game->text.nactions) return ERR_USAGE;
    const StoreActionRow *r = &g->game->acts[ply];
    const char *state = strchr(STATE_CHARS, r->state[0]);
    *row = (yinsh_action_row){
        .actor = r->actor[0] == 'b' ? BLACK : WHITE,
        .state = state ? (int)(state - STATE_CHARS) : -1,
        .legal = (int)r->legal,
        .searched = r->searched,
        .root_visits = r->searched ? r->root_visits : 0,
        .chosen_visits = r->searched ? r->chosen_visits : 0,
        .value = r->searched ? r->value : 0,
        .time_us = r->time_us,
        .root_value = r->root_value,
    };
    return 0;
}

int yinsh_game_visits_stored(const yinsh_games *g) { return g->game && g->game->visits; }

int yinsh_game_child_count(const yinsh_games *g, int ply)
{
    if (!g->game || ply < 0 || ply >= g->game->text.nactions) return ERR_USAGE;
    return g->game->acts[ply].nchildren;
}

const char *yinsh_game_child(const yinsh_games *g, int ply, int i, int64_t *visits)
{
    if (!g->game || ply < 0 || ply >= g->game->text.nactions) return NULL;
    const StoreActionRow *r = &g->game->acts[ply];
    if (i < 0 || i >= r->nchildren) return NULL;
    if (visits) *visits = r->children[i].visits;
    return r->children[i].action;
}

/* ---- training positions --------------------------------------------- */

struct yinsh_samples {
    SampleReader *reader;
};

int yinsh_samples_open(yinsh_samples **out, yinsh_db *db, const yinsh_selection *sel, char *err)
{
    char scratch[ERR_LEN];
    *out = NULL;
    yinsh_samples *s = calloc(1, sizeof *s);
    if (!s) return error_set(err, "out of memory for a reader of positions");
    StoreSelection ss;
    char agent[SPEC_LEN];
    int rc = selection(sel, &ss, agent, err);
    if (!rc) rc = samples_open(&s->reader, db->store, &ss, ERR_OR_SCRATCH(err, scratch));
    if (rc) {
        free(s);
        return rc;
    }
    *out = s;
    return 0;
}

int yinsh_samples_read(yinsh_samples *s, int max, int view, yinsh_sample *rows, uint8_t *planes_raw, float *planes,
                       char *ypn, int *n, char *err)
{
    yinsh_sample_arrays out = {.planes_raw = planes_raw, .planes = planes, .ypn = ypn};
    return yinsh_samples_read_arrays(s, max, view, rows, &out, n, err);
}

int yinsh_samples_read_policy(yinsh_samples *s, int max, int view, yinsh_sample *rows, uint8_t *planes_raw,
                              float *planes, char *ypn, float *policy, int *n, char *err)
{
    yinsh_sample_arrays out = {.planes_raw = planes_raw, .planes = planes, .ypn = ypn, .policy = policy};
    return yinsh_samples_read_arrays(s, max, view, rows, &out, n, err);
}

int yinsh_samples_read_arrays(yinsh_samples *s, int max, int view, yinsh_sample *rows, const yinsh_sample_arrays *out,
                              int *n, char *err)
{
    char scratch[ERR_LEN];
    static const yinsh_sample_arrays none = {0};
    const yinsh_sample_arrays *o = out ? out : &none;
    *n = 0;
    if (view < 0 || view >= ENCODE_VIEW_NB) return error_code(err, ERR_USAGE, "view %d: expected 0, 1 or 2", view);
    if (max < 0) return error_code(err, ERR_USAGE, "max %d: a count cannot be negative", max);
    for (int k = 0; k < max; k++) {
        const Sample *x;
        int rc = samples_next(s->reader, &x, ERR_OR_SCRATCH(err, scratch));
        if (rc) return rc;
        if (!x) break;
        const StoreActionRow *row = x->row;
        if (rows)
            rows[k] = (yinsh_sample){
                .game = (uint32_t)x->game,
                .game_index = x->from->text.index,
                .value = row->searched ? (float)row->value : NAN,
                .root_visits = row->searched ? (uint32_t)row->root_visits : 0,
                .chosen_visits = row->searched ? (uint32_t)row->chosen_visits : 0,
                .ply = (int16_t)x->ply,
                .action = (int16_t)x->action_index,
                .legal = (uint16_t)row->legal,
                .z = (int8_t)x->z,
                .result = (int8_t)x->result,
                .actor = x->pos.actor,
                .state = x->pos.state,
                .variant = x->pos.variant,
                .searched = row->searched,
                .root_value = (float)row->root_value,
            };
        if (o->planes_raw) encode_planes_raw(&x->pos, view, o->planes_raw + (size_t)k * ENCODE_SIZE);
        if (o->planes) encode_planes(&x->pos, view, o->planes + (size_t)k * ENCODE_SIZE);
        if (o->ypn) ypn_format(&x->pos, o->ypn + (size_t)k * YINSH_YPN_LEN);
        if (o->policy &&
            (rc = samples_policy(x, o->policy + (size_t)k * ENCODE_ACTIONS, ERR_OR_SCRATCH(err, scratch))) < 0)
            return rc;
        if (o->mask) encode_mask(&x->pos, o->mask + (size_t)k * ENCODE_ACTIONS);
        *n = k + 1;
    }
    return 0;
}

void yinsh_samples_close(yinsh_samples *s)
{
    if (!s) return;
    samples_close(s->reader);
    free(s);
}

int yinsh_export_positions(yinsh_db *db, const yinsh_selection *sel, const char *format, int view, const char *path,
                           uint64_t *positions, uint64_t *games, char *err)
{
    char scratch[ERR_LEN];
    int f;
    SamplesExtras x;
    if (!format) return error_code(err, ERR_USAGE, "no format: expected " SAMPLES_FORMATS_EXPECTED);
    if (!path) return error_code(err, ERR_USAGE, "no path to write");
    if (!samples_format_extras_parse(format, &f, &x))
        return error_code(err, ERR_USAGE, "format '%.64s': expected " SAMPLES_FORMATS_EXPECTED, format);
    if (view < 0 || view >= ENCODE_VIEW_NB) return error_code(err, ERR_USAGE, "view %d: expected 0, 1 or 2", view);
    StoreSelection s;
    char agent[SPEC_LEN];
    int rc = selection(sel, &s, agent, err);
    if (rc) return rc;
    if (f == SAMPLES_PLANES)
        return samples_export_planes(db->store, &s, &x, view, path, NULL, positions, games,
                                     ERR_OR_SCRATCH(err, scratch));
    return samples_export(db->store, &s, f, view, path, NULL, positions, games, ERR_OR_SCRATCH(err, scratch));
}

/* ---- runs ----------------------------------------------------------- */

typedef struct RunList {
    yinsh_run_info *runs;
    int n, cap;
} RunList;

static int run_listed(void *ctx, const StoreRunRow *row)
{
    RunList *l = ctx;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        yinsh_run_info *more = realloc(l->runs, (size_t)cap * sizeof *more);
        if (!more) return ERR_FAIL;
        l->runs = more, l->cap = cap;
    }
    yinsh_run_info *r = &l->runs[l->n++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", row->name);
    snprintf(r->kind, sizeof r->kind, "%s", row->kind && row->kind[0] ? row->kind : "selfplay");
    snprintf(r->variant, sizeof r->variant, "%s", row->variant);
    snprintf(r->white, sizeof r->white, "%s", row->white);
    snprintf(r->black, sizeof r->black, "%s", row->black);
    r->seed = row->seed;
    r->games = row->games;
    r->stored = row->stored;
    r->finished = row->finished_at != NULL && row->stored >= row->games;
    return 0;
}

int yinsh_db_runs(yinsh_db *db, const yinsh_selection *sel, yinsh_run_info **runs, int *n, char *err)
{
    char scratch[ERR_LEN];
    err = ERR_OR_SCRATCH(err, scratch);
    err[0] = '\0';
    *runs = NULL;
    *n = 0;
    StoreSelection s;
    char agent[SPEC_LEN];
    int rc = selection(sel, &s, agent, err);
    if (!rc) rc = store_query_check(db->store, &s, err);
    RunList l = {0};
    if (!rc) {
        rc = store_query_runs(db->store, &s, run_listed, &l, err);
        if (rc == ERR_FAIL && !err[0]) error_set(err, "out of memory for the list of runs");
    }
    if (rc) {
        free(l.runs);
        return rc;
    }
    *runs = l.runs;
    *n = l.n;
    return 0;
}
