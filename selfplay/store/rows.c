/* Rows as stored, for the compact form of a study's games (store.h, "rows
 * as stored"; selfplay/records/games.h): read out as text, every number
 * exact, and written back into a database, the same rows. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/base/number.h"
#include "engine/notation.h"
#include "engine/types.h"
#include "selfplay/store/store_internal.h"
#include "selfplay/store/store.h"

/* The run's columns the compact form carries, in the order it writes
 * them (identity and plan first, provenance last), and their types.
 * Local ids (id, repeat_of) are the receiving database's own. */
static const struct {
    const char *name;
    bool integer;
} RUN_COLUMNS[] = {
    {"uid", false},        {"name", false},       {"kind", false},          {"variant", false},
    {"white", false},      {"black", false},      {"white_weights", false}, {"black_weights", false},
    {"seed", true},        {"games", true},       {"pairs", true},          {"opening", false},
    {"max_actions", true}, {"controls", false},   {"visits", true},         {"plan_ident", false},
    {"version", false},    {"git_commit", false}, {"compiler", false},      {"machine", false},
    {"host", false},       {"threads", true},     {"command", false},       {"started_at", false},
    {"finished_at", false},
};
enum { NRUN = sizeof RUN_COLUMNS / sizeof *RUN_COLUMNS };

/* A column as the compact form's text: NULL for NULL, a real in its
 * shortest exact form (into buf), anything else as SQLite gives it. */
static const char *column_as_text(sqlite3_stmt *st, int col, char buf[NUMBER_REAL_LEN])
{
    switch (sqlite3_column_type(st, col)) {
    case SQLITE_NULL: return NULL;
    case SQLITE_FLOAT: return number_real_text(sqlite3_column_double(st, col), buf);
    default: return (const char *)sqlite3_column_text(st, col);
    }
}

/* What one game's rows are read into: the texts outlive the statements'
 * steps until the game is handed on. */
typedef struct GameRows {
    GamesAction actions[GAME_MAX_ACTIONS];
    char action_text[GAME_MAX_ACTIONS][ACTION_MAX_LEN];
    char fields[GAME_MAX_ACTIONS][GAMES_ACTION_FIELDS][NUMBER_REAL_LEN];
    GamesChild *children;
    char (*child_text)[ACTION_MAX_LEN];
    int cap;
    char seed[NUMBER_REAL_LEN], duration[NUMBER_REAL_LEN], result[16], reason[32], stored_at[64];
} GameRows;

static int read_actions(Store *s, sqlite3_stmt *st, GameRows *w, GamesGame *g, char *err)
{
    int step;
    g->nactions = 0;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        int i = g->nactions;
        if (i == GAME_MAX_ACTIONS) return error_set(err, "game %" PRId64 " holds more than %d actions", g->index, i);
        GamesAction *a = &w->actions[i];
        memset(a, 0, sizeof *a);
        snprintf(w->action_text[i], ACTION_MAX_LEN, "%s", store_column_text(st, 0));
        a->action = w->action_text[i];
        for (int k = 0; k < GAMES_ACTION_FIELDS; k++) {
            char buf[NUMBER_REAL_LEN];
            const char *t = column_as_text(st, k + 1, buf);
            if (t) a->field[k] = strcpy(w->fields[i][k], t);
        }
        g->nactions++;
    }
    g->actions = w->actions;
    return step == SQLITE_DONE ? ERR_OK : store_fail(s, err, "reading a game's actions");
}

static int read_children(Store *s, sqlite3_stmt *st, GameRows *w, GamesGame *g, char *err)
{
    int step;
    g->nchildren = 0;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (g->nchildren == w->cap) {
            int cap = w->cap ? 2 * w->cap : 4096;
            GamesChild *c = realloc(w->children, (size_t)cap * sizeof *c);
            if (c) w->children = c;
            char(*t)[ACTION_MAX_LEN] = realloc(w->child_text, (size_t)cap * sizeof *t);
            if (t) w->child_text = t;
            if (!c || !t) return error_set(err, "out of memory");
            w->cap = cap;
        }
        int i = g->nchildren++;
        snprintf(w->child_text[i], ACTION_MAX_LEN, "%s", store_column_text(st, 1));
        w->children[i] = (GamesChild){.ply = sqlite3_column_int(st, 0), .visits = sqlite3_column_int64(st, 2)};
    }
    for (int i = 0; i < g->nchildren; i++) w->children[i].action = w->child_text[i];
    g->children = w->children;
    return step == SQLITE_DONE ? ERR_OK : store_fail(s, err, "reading a game's root visits");
}

/* The games of the run run_id, in index order, each with its actions and
 * root visits, to to->on_game. */
static int each_game(Store *s, sqlite3_stmt *const st[3], int64_t run_id, GameRows *w, const GamesRows *to, char *err)
{
    sqlite3_stmt *games = st[0], *actions = st[1], *visits = st[2];
    int rc = ERR_OK, step;
    sqlite3_reset(games);
    sqlite3_bind_int64(games, 1, run_id);
    while (!rc && (step = sqlite3_step(games)) == SQLITE_ROW) {
        char buf[NUMBER_REAL_LEN];
        const char *duration = column_as_text(games, 5, buf);
        GamesGame g = {.index = sqlite3_column_int64(games, 1)};
        snprintf(w->seed, sizeof w->seed, "%s", store_column_text(games, 2));
        snprintf(w->result, sizeof w->result, "%s", store_column_text(games, 3));
        snprintf(w->reason, sizeof w->reason, "%s", store_column_text(games, 4));
        snprintf(w->duration, sizeof w->duration, "%s", duration ? duration : "0");
        snprintf(w->stored_at, sizeof w->stored_at, "%s", store_column_text(games, 6));
        g.seed = w->seed, g.result = w->result, g.reason = w->reason, g.duration_ms = w->duration;
        g.stored_at = w->stored_at;
        int64_t id = sqlite3_column_int64(games, 0);
        sqlite3_reset(actions);
        sqlite3_bind_int64(actions, 1, id);
        sqlite3_reset(visits);
        sqlite3_bind_int64(visits, 1, id);
        if ((rc = read_actions(s, actions, w, &g, err)) || (rc = read_children(s, visits, w, &g, err))) break;
        rc = to->on_game ? to->on_game(to->ctx, &g, err) : ERR_OK;
    }
    if (!rc && step != SQLITE_DONE) rc = store_fail(s, err, "reading a run's games");
    sqlite3_reset(games);
    return rc;
}

static bool selected(const char *name, const char *const *runs, int nruns)
{
    for (int i = 0; i < nruns; i++)
        if (!strcmp(runs[i], name)) return true;
    return nruns == 0;
}

int store_rows_each(Store *s, const char *const *runs, int nruns, const GamesRows *to, char *err)
{
    int rc = store_version_now(s, err);
    if (rc) return rc;
    if (s->version != STORE_SCHEMA_VERSION)
        return error_set(err,
                         "database '%s' has schema version %d, and its rows are written as schema version %d has "
                         "them: a command of this yinsh that writes to it (selfplay --resume, merge into it) "
                         "upgrades it",
                         s->path, s->version, STORE_SCHEMA_VERSION);
    StoreSelection sel = {.runs = runs, .nruns = nruns};
    if (nruns && (rc = store_query_check(s, &sel, err))) return rc;

    char sql[1024] = "SELECT id";
    for (int c = 0; c < NRUN; c++) snprintf(sql + strlen(sql), sizeof sql - strlen(sql), ", %s", RUN_COLUMNS[c].name);
    snprintf(sql + strlen(sql), sizeof sql - strlen(sql), " FROM run ORDER BY id");
    static const char *const game_sql[3] = {
        "SELECT id, idx, seed, result, reason, duration_ms, stored_at FROM game WHERE run_id = ? ORDER BY idx",
        ("SELECT action, time_us, root_visits, chosen_visits, value, root_value, clock_us, full FROM action "
         "WHERE game_id = ? ORDER BY ply"),
        "SELECT ply, action, visits FROM action_visits WHERE game_id = ? ORDER BY ply, action",
    };
    sqlite3_stmt *run = NULL, *st[3] = {NULL, NULL, NULL};
    GameRows *w = calloc(1, sizeof *w);
    if (!w) return error_set(err, "out of memory");
    if (sqlite3_prepare_v2(s->db, sql, -1, &run, NULL) != SQLITE_OK) rc = store_fail(s, err, "reading the runs");
    for (int k = 0; k < 3 && !rc; k++)
        if (sqlite3_prepare_v2(s->db, game_sql[k], -1, &st[k], NULL) != SQLITE_OK)
            rc = store_fail(s, err, "reading the games");
    int step = SQLITE_DONE;
    while (!rc && (step = sqlite3_step(run)) == SQLITE_ROW) {
        if (!selected(store_column_text(run, 2), runs, nruns)) continue;
        GamesColumn cols[NRUN];
        char buf[NRUN][NUMBER_REAL_LEN];
        for (int c = 0; c < NRUN; c++) cols[c] = (GamesColumn){RUN_COLUMNS[c].name, column_as_text(run, c + 1, buf[c])};
        if ((rc = to->on_run ? to->on_run(to->ctx, cols, NRUN, err) : ERR_OK)) break;
        rc = each_game(s, st, sqlite3_column_int64(run, 0), w, to, err);
    }
    if (!rc && step != SQLITE_DONE) rc = store_fail(s, err, "reading the runs");
    sqlite3_finalize(run);
    for (int k = 0; k < 3; k++) sqlite3_finalize(st[k]);
    free(w->children);
    free(w->child_text);
    free(w);
    return rc;
}

/* Binds text as the column's type: an integer column takes the number
 * (false when the text is none), any other the text; NULL binds NULL. */
static bool bind_as(sqlite3_stmt *st, int at, const char *text, bool integer)
{
    if (!text) return sqlite3_bind_null(st, at) == SQLITE_OK;
    if (!integer) return sqlite3_bind_text(st, at, text, -1, SQLITE_TRANSIENT) == SQLITE_OK;
    char *end;
    long long v = strtoll(text, &end, 10);
    return *text && !*end && sqlite3_bind_int64(st, at, v) == SQLITE_OK;
}

static bool bind_real(sqlite3_stmt *st, int at, const char *text)
{
    if (!text) return sqlite3_bind_null(st, at) == SQLITE_OK;
    char *end;
    double v = strtod(text, &end);
    return *text && !*end && sqlite3_bind_double(st, at, v) == SQLITE_OK;
}

int store_rows_add_run(Store *s, const GamesColumn *cols, int ncols, int64_t *run_id, char *err)
{
    int rc = store_ensure_schema(s, err);
    if (rc) return rc;
    const char *name = games_column(cols, ncols, "name");
    /* the plan identity is the plan's hash: a run whose variant, agents,
     * seed, pairs, opening or controls were changed is not the run it
     * names (the uid and the identity would claim the games of another) */
    const char *plan = games_column(cols, ncols, "plan_ident");
    char want[STORE_HASH_LEN];
#define COL(n) games_column(cols, ncols, n)
    if (plan && !store_plan_ident_text(COL("version"), COL("variant"), COL("white"), COL("white_weights"), COL("black"),
                                       COL("black_weights"), COL("seed"), COL("pairs"), COL("opening"),
                                       COL("controls"), want))
        return error_set(err, "run '%.100s': its variant, seed, pairs or opening is none a run can have",
                         name ? name : "?");
#undef COL
    if (plan && strcmp(plan, want))
        return error_set(err, "run '%.100s': its plan_ident %.20s is not the %s its columns give: its variant, agents, "
                         "weights, seed, pairs, opening or controls were changed", name ? name : "?", plan, want);
    char sql[1024] = "INSERT INTO run (", values[256] = "";
    int kind[NRUN];
    for (int i = 0; i < ncols; i++) {
        int k = 0;
        while (k < NRUN && strcmp(RUN_COLUMNS[k].name, cols[i].name)) k++;
        if (k == NRUN || i >= NRUN)
            return error_set(err, "run '%.100s' has a column '%.40s' that this yinsh does not store (a newer yinsh's?)",
                             name ? name : "?", cols[i].name);
        kind[i] = k;
        snprintf(sql + strlen(sql), sizeof sql - strlen(sql), "%s%s", i ? ", " : "", cols[i].name);
        snprintf(values + strlen(values), sizeof values - strlen(values), "%s?", i ? ", " : "");
    }
    snprintf(sql + strlen(sql), sizeof sql - strlen(sql), ") VALUES (%s)", values);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) return store_fail(s, err, "writing a run");
    for (int i = 0; i < ncols && !rc; i++)
        if (!bind_as(st, i + 1, cols[i].value, RUN_COLUMNS[kind[i]].integer))
            rc = error_set(err, "run '%.100s': its %s '%.40s' is not a number", name ? name : "?", cols[i].name,
                           cols[i].value);
    if (!rc && sqlite3_step(st) != SQLITE_DONE) rc = store_fail(s, err, "writing a run");
    if (!rc) *run_id = sqlite3_last_insert_rowid(s->db);
    sqlite3_finalize(st);
    return rc;
}

int store_rows_add_game(Store *s, int64_t run_id, const char *plan_ident, const GamesGame *g, char *err)
{
    static const char *const sql[3] = {
        ("INSERT INTO game (run_id, idx, seed, variant, white, black, result, reason, actions, white_removed, "
         "black_removed, white_markers, black_markers, duration_ms, stored_at, ident) VALUES (?1, ?2, ?3, ?4, ?5, "
         "?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)"),
        ("INSERT INTO action (game_id, ply, actor, state, action, legal, time_us, root_visits, chosen_visits, value, "
         "root_value, clock_us, full) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"),
        "INSERT INTO action_visits (game_id, ply, action, visits) VALUES (?1, ?2, ?3, ?4)",
    };
    sqlite3_stmt *st[3] = {NULL, NULL, NULL};
    int rc = ERR_OK;
    for (int k = 0; k < 3 && !rc; k++)
        if (sqlite3_prepare_v2(s->db, sql[k], -1, &st[k], NULL) != SQLITE_OK) rc = store_fail(s, err, "writing a game");
    char ident[STORE_HASH_LEN];
    if (plan_ident) store_game_ident(plan_ident, (uint32_t)g->index, ident);
    if (!rc) {
        sqlite3_stmt *q = st[0];
        sqlite3_bind_int64(q, 1, run_id);
        sqlite3_bind_int64(q, 2, g->index);
        bind_as(q, 3, g->seed, true);
        const char *texts[] = {g->variant, g->white, g->black, g->result, g->reason};
        for (int k = 0; k < 5; k++) sqlite3_bind_text(q, 4 + k, texts[k], -1, SQLITE_STATIC);
        sqlite3_bind_int(q, 9, g->nactions);
        for (int side = 0; side < 2; side++) {
            sqlite3_bind_int(q, 10 + side, g->removed[side]);
            sqlite3_bind_int(q, 12 + side, g->markers[side]);
        }
        bind_real(q, 14, g->duration_ms);
        sqlite3_bind_text(q, 15, g->stored_at, -1, SQLITE_STATIC);
        if (plan_ident) sqlite3_bind_text(q, 16, ident, -1, SQLITE_STATIC);
        if (sqlite3_step(q) != SQLITE_DONE) rc = store_fail(s, err, "writing a game");
    }
    int64_t game_id = sqlite3_last_insert_rowid(s->db);
    for (int i = 0; i < g->nactions && !rc; i++) {
        const GamesAction *a = &g->actions[i];
        sqlite3_stmt *q = st[1];
        char actor[2] = {a->actor, 0}, state[2] = {a->state, 0};
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, game_id);
        sqlite3_bind_int(q, 2, i);
        sqlite3_bind_text(q, 3, actor, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(q, 4, state, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(q, 5, a->action, -1, SQLITE_STATIC);
        sqlite3_bind_int(q, 6, a->legal);
        /* fields: time_us, root_visits, chosen_visits, value, root_value, clock_us, full */
        bind_as(q, 7, a->field[0], true);
        bind_as(q, 8, a->field[1], true);
        bind_as(q, 9, a->field[2], true);
        bind_real(q, 10, a->field[3]);
        bind_real(q, 11, a->field[4]);
        bind_as(q, 12, a->field[5], true);
        bind_as(q, 13, a->field[6], true);
        if (sqlite3_step(q) != SQLITE_DONE) rc = store_fail(s, err, "writing an action");
    }
    for (int i = 0; i < g->nchildren && !rc; i++) {
        sqlite3_stmt *q = st[2];
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, game_id);
        sqlite3_bind_int(q, 2, g->children[i].ply);
        sqlite3_bind_text(q, 3, g->children[i].action, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 4, g->children[i].visits);
        if (sqlite3_step(q) != SQLITE_DONE) rc = store_fail(s, err, "writing an action's root visits");
    }
    for (int k = 0; k < 3; k++) sqlite3_finalize(st[k]);
    return rc;
}
