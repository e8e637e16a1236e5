#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/notation.h"
#include "selfplay/store/cursor.h"
#include "selfplay/store/store_internal.h"

/* An action row's texts, copied: the statement's own are gone at its
 * next step. */
typedef struct ActionCopy {
    char action[ACTION_MAX_LEN], actor[2], state[2];
} ActionCopy;

/* A root child's action text, copied. */
typedef struct ChildCopy {
    char action[ACTION_MAX_LEN];
} ChildCopy;

struct StoreCursor {
    Store *store;
    sqlite3_stmt *games, *acts, *visits; /* visits: NULL before schema version 7 */
    StoreChildRow *children;             /* the game's root children, ply by ply */
    ChildCopy *child_texts;
    int child_cap;
    StoreSelection sel; /* with copies of the caller's strings, bound to games */
    char **strings;
    int nstrings;
    StoreCursorGame game;
    StoreActionRow *rows;
    ActionCopy *copies;
    const char **texts;
    int cap;
    bool done; /* the last game was read: a step now would start the query again */
};

static const char *text(sqlite3_stmt *st, int col) { return store_column_text(st, col); }

/* A copy the cursor owns (NULL stays NULL): 0, or -1 out of memory. */
static int keep(StoreCursor *c, const char *s, const char **out)
{
    *out = NULL;
    if (!s) return 0;
    char *copy = strdup(s);
    if (!copy) return -1;
    c->strings[c->nstrings++] = copy;
    *out = copy;
    return 0;
}

int store_cursor_open(Store *s, const StoreSelection *sel, StoreCursor **out, char *err)
{
    *out = NULL;
    int rc = store_version_now(s, err);
    if (rc) return rc;
    if (s->version == 0) return error_code(err, ERR_NOT_FOUND, "database '%s' holds no runs", s->path);
    StoreSelection none = {0};
    if (!sel) sel = &none;
    if ((rc = store_query_check(s, sel, err))) return rc;
    StoreCursor *c = calloc(1, sizeof *c);
    const char **runs = calloc((size_t)sel->nruns + 1, sizeof *runs);
    if (c) c->strings = calloc((size_t)sel->nruns + 3, sizeof *c->strings);
    if (!c || !runs || !c->strings) goto oom;
    c->store = s;
    for (int i = 0; i < sel->nruns; i++)
        if (keep(c, sel->runs[i], &runs[i])) goto oom;
    c->sel = (StoreSelection){.runs = runs, .nruns = sel->nruns};
    if (keep(c, sel->kind, &c->sel.kind) || keep(c, sel->agent, &c->sel.agent) ||
        keep(c, sel->variant, &c->sel.variant))
        goto oom;
    /* the columns of later schema versions: run.kind (2), the weights
     * (4), the commit (5); the weights belong to the run's agents (white:
     * A of a match), so a game's side gets the hash of the agent it is */
    char head[1200];
    snprintf(head, sizeof head,
             "SELECT run.name, run.uid, %s, run.version, run.seed, game.id, game.idx, game.variant, "
             "game.white, game.black, %s, game.result, game.reason, game.stored_at, game.actions, %s, %s, "
             "run.command FROM game JOIN run ON run.id = game.run_id",
             s->version >= 2 ? "run.kind" : "'selfplay'",
             s->version >= 4 ? "NULLIF(CASE WHEN game.white = run.white THEN run.white_weights ELSE run.black_weights END, ''), "
                               "NULLIF(CASE WHEN game.black = run.black THEN run.black_weights ELSE run.white_weights END, '')"
                             : "NULL, NULL",
             s->version >= 5 ? "run.git_commit" : "NULL", s->version >= 7 ? "run.visits" : "0");
    if ((rc = store_prepare_selected(s, &c->sel, head, "ORDER BY run.id, game.idx", &c->games, err))) goto fail;
    char acts[256];
    snprintf(acts, sizeof acts,
             "SELECT ply, actor, state, action, legal, root_visits, chosen_visits, value, time_us, %s, %s "
             "FROM action WHERE game_id = ? ORDER BY ply",
             store_root_value_column(s), store_full_column(s));
    if (sqlite3_prepare_v2(s->db, acts, -1, &c->acts, NULL) != SQLITE_OK) {
        rc = store_fail(s, err, "preparing the actions query");
        goto fail;
    }
    if (s->version >= 7 &&
        sqlite3_prepare_v2(s->db, "SELECT ply, action, visits FROM action_visits WHERE game_id = ? ORDER BY ply, action",
                           -1, &c->visits, NULL) != SQLITE_OK) {
        rc = store_fail(s, err, "preparing the visits query");
        goto fail;
    }
    *out = c;
    return 0;
oom:
    rc = error_set(err, "out of memory for a cursor over '%s'", s->path);
fail:
    free(runs);
    if (c) c->sel.runs = NULL;
    store_cursor_close(c);
    return rc;
}

/* Makes room for n action rows. */
static int grow(StoreCursor *c, int n)
{
    if (n <= c->cap) return 0;
    int cap = c->cap ? c->cap : 256;
    while (cap < n) cap *= 2;
    StoreActionRow *rows = realloc(c->rows, (size_t)cap * sizeof *rows);
    if (rows) c->rows = rows;
    ActionCopy *copies = realloc(c->copies, (size_t)cap * sizeof *copies);
    if (copies) c->copies = copies;
    const char **texts = realloc(c->texts, (size_t)cap * sizeof *texts);
    if (texts) c->texts = texts;
    if (!rows || !copies || !texts) return -1;
    c->cap = cap;
    return 0;
}

/* The actions of game id, in ply order, into the cursor's rows. */
static int read_actions(StoreCursor *c, int64_t id, int *n, char *err)
{
    Store *s = c->store;
    sqlite3_stmt *st = c->acts;
    int step, k = 0;
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, id);
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (grow(c, k + 1)) return error_set(err, "out of memory reading game %" PRId64 " of '%s'", id, s->path);
        const char *action = text(st, 3), *actor = text(st, 1), *state = text(st, 2);
        if (sqlite3_column_int64(st, 0) != k || strlen(action) >= ACTION_MAX_LEN || strlen(actor) != 1 ||
            strlen(state) != 1)
            return error_set(err, "database '%s': game %" PRId64 ": action row %d is damaged (its ply, actor, "
                             "state or action)", s->path, id, k);
        ActionCopy *copy = &c->copies[k];
        strcpy(copy->action, action);
        strcpy(copy->actor, actor);
        strcpy(copy->state, state);
        c->rows[k] = (StoreActionRow){
            .game_id = id,
            .ply = k,
            .actor = copy->actor,
            .state = copy->state,
            .action = copy->action,
            .legal = sqlite3_column_int64(st, 4),
            .searched = sqlite3_column_type(st, 7) != SQLITE_NULL,
            .root_visits = sqlite3_column_int64(st, 5),
            .chosen_visits = sqlite3_column_int64(st, 6),
            .value = sqlite3_column_double(st, 7),
            .root_value = store_column_real(st, 9),
            .budget = store_column_budget(st, 10),
            .time_us = sqlite3_column_int64(st, 8),
        };
        c->texts[k] = copy->action;
        k++;
    }
    if (step != SQLITE_DONE) return store_fail(s, err, "reading actions");
    *n = k;
    return 0;
}

/* The root visit distributions of game id (n actions read) onto its
 * rows: each row's children are a run of the cursor's children. */
static int read_children(StoreCursor *c, int64_t id, int n, char *err)
{
    Store *s = c->store;
    sqlite3_stmt *st = c->visits;
    int step, k = 0;
    for (int i = 0; i < n; i++) c->rows[i].nchildren = 0;
    if (!st) return 0;
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, id);
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (k == c->child_cap) {
            int cap = c->child_cap ? 2 * c->child_cap : 4096;
            StoreChildRow *rows = realloc(c->children, (size_t)cap * sizeof *rows);
            if (rows) c->children = rows;
            ChildCopy *texts = realloc(c->child_texts, (size_t)cap * sizeof *texts);
            if (texts) c->child_texts = texts;
            if (!rows || !texts) return error_set(err, "out of memory reading game %" PRId64 " of '%s'", id, s->path);
            c->child_cap = cap;
        }
        int64_t ply = sqlite3_column_int64(st, 0);
        const char *action = text(st, 1);
        if (ply < 0 || ply >= n || strlen(action) >= ACTION_MAX_LEN)
            return error_set(err, "database '%s': game %" PRId64 ": a root visit row is damaged (ply %" PRId64
                             " of %d actions, or its action)", s->path, id, ply, n);
        strcpy(c->child_texts[k].action, action);
        c->children[k] = (StoreChildRow){.action = NULL, .visits = sqlite3_column_int64(st, 2)};
        c->rows[ply].nchildren++;
        k++;
    }
    if (step != SQLITE_DONE) return store_fail(s, err, "reading root visits");
    /* the rows point into the arrays only now, when they no longer move */
    for (int i = 0; i < k; i++) c->children[i].action = c->child_texts[i].action;
    for (int i = 0, at = 0; i < n; i++) {
        c->rows[i].children = c->rows[i].nchildren ? c->children + at : NULL;
        at += c->rows[i].nchildren;
    }
    return 0;
}

int store_cursor_next(StoreCursor *c, const StoreCursorGame **game, char *err)
{
    sqlite3_stmt *st = c->games;
    *game = NULL;
    if (c->done) return 0;
    int step = sqlite3_step(st), n = 0, rc;
    if (step == SQLITE_DONE) {
        c->done = true;
        return 0;
    }
    if (step != SQLITE_ROW) return store_fail(c->store, err, "reading games");
    int64_t id = sqlite3_column_int64(st, 5);
    if ((rc = read_actions(c, id, &n, err)) || (rc = read_children(c, id, n, err))) return rc;
    c->game = (StoreCursorGame){
        .text = store_game_text_row(st),
        .id = id,
        .acts = c->rows,
        .visits = sqlite3_column_int(st, 17) != 0,
    };
    c->game.text.command = (const char *)sqlite3_column_text(st, 18); /* an import's record date (records/record_text.h) */
    c->game.text.nactions = n;
    c->game.text.actions = c->texts;
    *game = &c->game;
    return 0;
}

void store_cursor_close(StoreCursor *c)
{
    if (!c) return;
    sqlite3_finalize(c->games);
    sqlite3_finalize(c->acts);
    sqlite3_finalize(c->visits);
    free(c->children);
    free(c->child_texts);
    for (int i = 0; i < c->nstrings; i++) free(c->strings[i]);
    free(c->strings);
    free((void *)c->sel.runs);
    free(c->rows);
    free(c->copies);
    free(c->texts);
    free(c);
}

void store_game_tags(const StoreGameText *g, StoreGameTags *t) { record_text_tags(g, t); }
