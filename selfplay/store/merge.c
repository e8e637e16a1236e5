/* The store's merge (store.h, "merging databases"): other databases'
 * runs copied into this one by uid, in one transaction. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "engine/base/error.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/base/rng.h"
#include "selfplay/store/store_internal.h"
#include "selfplay/store/store.h"
#include "engine/base/number.h"

/* The run's columns a merge copies, and which of them are its plan: what
 * every copy of one run (same uid) must agree on. */
#define RUN_COLS                                                                                                 \
    "uid, name, command, version, host, seed, variant, white, black, games, threads, started_at, kind, pairs, " \
    "opening, max_actions, white_weights, black_weights, plan_ident, git_commit, compiler, machine, controls, "   \
    "visits"
enum {
    C_UID, C_NAME, C_COMMAND, C_VERSION, C_HOST, C_SEED, C_VARIANT, C_WHITE, C_BLACK, C_GAMES, C_THREADS,
    C_STARTED, C_KIND, C_PAIRS, C_OPENING, C_MAX_ACTIONS, C_WW, C_BW, C_PLAN, C_COMMIT, C_COMPILER, C_MACHINE,
    C_CONTROLS, C_VISITS, C_NB
};
static const struct {
    int col;
    const char *what;
} PLAN[] = {
    {C_VERSION, "engine version"}, {C_SEED, "seed"}, {C_VARIANT, "variant"}, {C_WHITE, "white agent (or A)"},
    {C_BLACK, "black agent (or B)"}, {C_WW, "white weights' hash"}, {C_BW, "black weights' hash"},
    {C_GAMES, "size (games)"}, {C_KIND, "kind"}, {C_PAIRS, "pairs"}, {C_OPENING, "opening"},
    {C_MAX_ACTIONS, "game length bound"}, {C_PLAN, "plan identity"}, {C_NAME, "name"}, {C_CONTROLS, "controls"},
    {C_VISITS, "storing of root visits"},
};

#define GAME_COLS                                                                                              \
    "idx, seed, variant, white, black, result, reason, actions, white_removed, black_removed, white_markers, " \
    "black_markers, duration_ms, stored_at, ident"
enum { G_IDX, G_SEED, G_VARIANT, G_WHITE, G_BLACK, G_RESULT, G_REASON, G_ACTIONS, G_NB = 15, G_IDENT = 14 };
/* The action columns read from an input, in this order. */
enum { A_PLY, A_ACTOR, A_STATE, A_ACTION, A_LEGAL, A_NB = 11 };

static const char *text_or(sqlite3_stmt *st, int col, const char *dflt)
{
    const char *t = (const char *)sqlite3_column_text(st, col);
    return t ? t : dflt;
}

/* Where each game copied by this merge came from (its id here, ascending
 * as they are inserted, and the input's number), to name both files of a
 * conflict. */
typedef struct Origins {
    int64_t *id;
    int *file;
    size_t n, cap;
} Origins;

static int origin_of(const Origins *o, int64_t id)
{
    size_t lo = 0, hi = o->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (o->id[mid] < id) lo = mid + 1;
        else hi = mid;
    }
    return lo < o->n && o->id[lo] == id ? o->file[lo] : -1;
}

static bool origin_add(Origins *o, int64_t id, int file)
{
    if (o->n == o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 1024;
        int64_t *ids = realloc(o->id, cap * sizeof *ids);
        if (!ids) return false;
        o->id = ids;
        int *files = realloc(o->file, cap * sizeof *files);
        if (!files) return false;
        o->file = files;
        o->cap = cap;
    }
    o->id[o->n] = id;
    o->file[o->n++] = file;
    return true;
}

/* What decides whether two stored games are one game: the result, every
 * action with its visit counts, hashed as the play hash hashes them, and
 * every root visit distribution (action_visits: ply, child, visits, in
 * that order), which the play hash leaves out: two searches that chose
 * the same actions with the same counts may still have spread their
 * visits otherwise, and such games are not copies of one another. */
static int game_digest(Store *s, sqlite3_stmt *st, sqlite3_stmt *visits, int64_t game_id, const char *result,
                       uint64_t *h, char *err)
{
    int step;
    *h = rng_hash_text(result);
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, game_id);
    while ((step = sqlite3_step(st)) == SQLITE_ROW)
        *h = record_hash_action(*h, text_or(st, 0, ""), (uint32_t)sqlite3_column_int64(st, 1),
                                (uint32_t)sqlite3_column_int64(st, 2));
    sqlite3_reset(st);
    if (step != SQLITE_DONE) return store_fail(s, err, "reading a game's actions");
    sqlite3_reset(visits);
    sqlite3_bind_int64(visits, 1, game_id);
    while ((step = sqlite3_step(visits)) == SQLITE_ROW)
        *h = rng_mix(*h ^ rng_hash_text(text_or(visits, 1, "")),
                     (uint64_t)sqlite3_column_int64(visits, 0) << 32 ^ (uint64_t)sqlite3_column_int64(visits, 2));
    sqlite3_reset(visits);
    return step == SQLITE_DONE ? ERR_OK : store_fail(s, err, "reading a game's visits");
}

/* Checks an input before the merge writes anything: a Yinsh Lab database
 * of this schema version, undamaged, and not the output itself. */
static int check_input(Store *out, const char *path, const char *name, char *err)
{
    struct stat a, b;
    if (stat(path, &a) == 0 && stat(out->path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
        return error_set(err, "'%s' is the database merged into: name it once", name);
    }
    Store *in = NULL;
    char oerr[ERR_LEN];
    int rc = store_open(&in, path, STORE_READ, out->busy_ms, oerr);
    if (rc) {
        return error_set(err, "cannot merge '%s': %s", name, oerr);
    }
    if (in->version != STORE_SCHEMA_VERSION) {
        rc = error_set(err,
                       "cannot merge '%s': its schema version is %d, this yinsh merges version %d (any command of this "
                       "yinsh that writes to it upgrades it)",
                       name, in->version, STORE_SCHEMA_VERSION);
    }
    sqlite3_stmt *st = NULL;
    if (!rc && sqlite3_prepare_v2(in->db, "PRAGMA quick_check", -1, &st, NULL) != SQLITE_OK) rc = ERR_FAIL;
    if (!rc && sqlite3_step(st) != SQLITE_ROW) rc = ERR_FAIL;
    if (!rc && strcmp(text_or(st, 0, ""), "ok")) {
        rc = error_set(err, "cannot merge '%s': the database is damaged (%.200s): a truncated or broken copy? "
                 "copy it again from where it was played", name, text_or(st, 0, ""));
    } else if (rc && !err[0]) {
        error_set(err, "cannot merge '%s': the database is damaged (%s): a truncated or broken copy? copy "
                  "it again from where it was played", name, sqlite3_errmsg(in->db));
    }
    sqlite3_finalize(st);
    store_close(in);
    return rc;
}

/* The statements of one input and of the output. */
typedef struct Merge {
    Store *out, *in;
    const char *const *paths, *const *names; /* names: for messages */
    int file;                   /* the input's number in paths */
    Origins origins;
    StoreMergeRun *runs;        /* the runs met, with their ids here */
    int64_t *run_ids;
    int nruns, cap;
    int *run_file;              /* the input that brought each run (-1: it was here before) */
    char **finished_at;         /* a run new here: its input's finished_at (NULL: none) */
    sqlite3_stmt *in_games, *in_actions, *in_digest, *in_visits, *out_run, *out_name, *ins_run, *out_game,
        *ins_game, *ins_action, *ins_visits, *out_digest, *out_visits;
} Merge;

static int prepare(Store *s, const char *sql, sqlite3_stmt **st, char *err)
{
    if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK) return store_fail(s, err, "preparing the merge");
    return ERR_OK;
}

static const char *file_name(const Merge *m, int file) { return file < 0 ? m->out->path : m->names[file]; }

/* The builds that played the input's copy of a run join those the run
 * here names (store_commits_add), as a resumed run's do. */
static int merge_commits(Merge *m, int64_t id, const char *here, const char *there, char *err)
{
    char list[STORE_COMMITS_LEN], theirs[STORE_COMMITS_LEN];
    snprintf(list, sizeof list, "%s", here);
    snprintf(theirs, sizeof theirs, "%s", there);
    bool changed = false;
    for (char *p = theirs; *p;) {
        char *end = strstr(p, ", ");
        if (end) *end = '\0';
        if (strcmp(p, "...")) changed |= store_commits_add(list, sizeof list, p);
        if (!end) break;
        p = end + 2;
    }
    if (!changed) return ERR_OK;
    sqlite3_stmt *st = NULL;
    int rc = prepare(m->out, "UPDATE run SET git_commit = ? WHERE id = ?", &st, err);
    if (rc) return rc;
    sqlite3_bind_text(st, 1, list, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, id);
    if (sqlite3_step(st) != SQLITE_DONE) rc = store_fail(m->out, err, "naming the builds of a run");
    sqlite3_finalize(st);
    return rc;
}

/* The run of `in` (its row in st) here: found by uid and checked, or
 * created. Its index in m->runs goes to *slot. */
static int merge_run_row(Merge *m, sqlite3_stmt *src, int *slot, char *err)
{
    const char *uid = text_or(src, C_UID, "");
    int rc = ERR_OK;
    for (int i = 0; i < m->nruns; i++)
        if (!strcmp(m->runs[i].uid, uid)) *slot = i;
    sqlite3_stmt *st = m->out_run;
    sqlite3_reset(st);
    sqlite3_bind_text(st, 1, uid, -1, SQLITE_TRANSIENT);
    int step = sqlite3_step(st);
    int64_t id = 0;
    if (step == SQLITE_ROW) {
        id = sqlite3_column_int64(st, C_NB);
        for (size_t k = 0; k < sizeof PLAN / sizeof *PLAN; k++) {
            const char *here = text_or(st, PLAN[k].col, ""), *there = text_or(src, PLAN[k].col, "");
            if (strcmp(here, there)) {
                int from = -1;
                for (int i = 0; i < m->nruns; i++)
                    if (m->run_ids[i] == id) from = m->run_file[i];
                rc = error_set(err,
                               "'%s' and '%s' hold run '%.100s' (uid %s) with different plans: %s %.120s in one, "
                               "%.120s in the other; they are not shards of one run (the same seed, agents, number "
                               "of games and yinsh give the same run)",
                               file_name(m, from), file_name(m, m->file), text_or(src, C_NAME, ""), uid, PLAN[k].what,
                               here, there);
                break;
            }
        }
        if (!rc) rc = merge_commits(m, id, text_or(st, C_COMMIT, ""), text_or(src, C_COMMIT, ""), err);
    } else if (step == SQLITE_DONE) {
        /* new here: its name must be free */
        sqlite3_stmt *nm = m->out_name;
        sqlite3_reset(nm);
        sqlite3_bind_text(nm, 1, text_or(src, C_NAME, ""), -1, SQLITE_TRANSIENT);
        if (sqlite3_step(nm) == SQLITE_ROW) {
            rc = error_set(err,
                           "'%s' holds run '%.100s' (uid %s), and '%s' holds another run of that name (uid %s): "
                           "rename one (`sqlite3 FILE \"UPDATE run SET name = 'NEW' WHERE uid = 'UID'\"`) and merge "
                           "again",
                           file_name(m, m->file), text_or(src, C_NAME, ""), uid, m->out->path, text_or(nm, 0, ""));
        }
        sqlite3_reset(nm);
        if (!rc) {
            sqlite3_stmt *ins = m->ins_run;
            sqlite3_reset(ins);
            for (int c = 0; c < C_NB; c++) sqlite3_bind_value(ins, c + 1, sqlite3_column_value(src, c));
            if (sqlite3_step(ins) != SQLITE_DONE) rc = store_fail(m->out, err, "copying a run");
            id = sqlite3_last_insert_rowid(m->out->db);
            sqlite3_reset(ins);
        }
    } else {
        rc = store_fail(m->out, err, "looking up a run");
    }
    if (!rc && *slot < 0) {
        if (m->nruns == m->cap) {
            int cap = m->cap ? 2 * m->cap : 16;
            StoreMergeRun *r = realloc(m->runs, (size_t)cap * sizeof *r);
            if (r) m->runs = r;
            int64_t *ids = realloc(m->run_ids, (size_t)cap * sizeof *ids);
            if (ids) m->run_ids = ids;
            int *files = realloc(m->run_file, (size_t)cap * sizeof *files);
            if (files) m->run_file = files;
            char **fin = realloc(m->finished_at, (size_t)cap * sizeof *fin);
            if (fin) m->finished_at = fin;
            if (!r || !ids || !files || !fin) {
                sqlite3_reset(st);
                return error_set(err, "out of memory");
            }
            m->cap = cap;
        }
        *slot = m->nruns++;
        StoreMergeRun *r = &m->runs[*slot];
        memset(r, 0, sizeof *r);
        snprintf(r->uid, sizeof r->uid, "%s", uid);
        snprintf(r->name, sizeof r->name, "%s", text_or(src, C_NAME, ""));
        r->games = (uint32_t)sqlite3_column_int64(src, C_GAMES);
        m->run_ids[*slot] = id;
        m->run_file[*slot] = step == SQLITE_ROW ? -1 : m->file;
        const char *fin = step == SQLITE_ROW ? NULL : (const char *)sqlite3_column_text(src, C_NB + 1);
        m->finished_at[*slot] = fin ? strdup(fin) : NULL;
        /* a finished run's time lost would leave it unfinished here */
        if (fin && !m->finished_at[*slot]) rc = error_set(err, "out of memory");
    }
    sqlite3_reset(st);
    return rc;
}

/* Whether a game of the input is a game of its run, before it is copied:
 * its index in the run's range, its identity and seed the ones its plan
 * gives that index, its variant and agents the run's (a match's odd games
 * swap them), and its actions a legal game from the start whose stored
 * actors, states, legal counts, length, result and reason its replay
 * gives (a game that a fault or a resignation ended is won by the side
 * not at fault, and a game imported unfinished has no result: no replay
 * decides those). A game of a tampered or foreign file is refused by
 * name, never stored. */
static int check_game(Merge *m, sqlite3_stmt *run, sqlite3_stmt *g, int64_t in_id, char *err)
{
    const char *name = text_or(run, C_NAME, "");
    int64_t idx = sqlite3_column_int64(g, G_IDX), games = sqlite3_column_int64(run, C_GAMES);
    uint64_t seed = (uint64_t)sqlite3_column_int64(g, G_SEED), run_seed = (uint64_t)sqlite3_column_int64(run, C_SEED);
    bool swapped = sqlite3_column_int(run, C_PAIRS) && idx % 2;
    const char *white = text_or(run, swapped ? C_BLACK : C_WHITE, ""), *black = text_or(run, swapped ? C_WHITE : C_BLACK, "");
    char ident[17], why[ERR_LEN] = "";
    int variant = -1, result = RESULT_NB, reason = REASON_NB;
    const char *result_text = text_or(g, G_RESULT, ""), *reason_text = text_or(g, G_REASON, "");
    for (int r = 0; r < RESULT_NB; r++)
        if (!strcmp(result_text, result_name(r))) result = r;
    for (int r = 0; r < REASON_NB; r++)
        if (!strcmp(reason_text, reason_name(r))) reason = r;
    if (idx >= 0 && idx < games) store_game_ident(text_or(run, C_PLAN, ""), (uint32_t)idx, ident);
    if (idx < 0 || idx >= games)
        snprintf(why, sizeof why, "its index is outside the run's %" PRId64 " game%s", games,
                 number_plural((uint64_t)games));
    else if (strcmp(text_or(g, G_IDENT, ""), ident))
        snprintf(why, sizeof why, "its identity is not the one the run's plan gives game %" PRId64, idx);
    else if (strcmp(text_or(run, C_KIND, ""), "import") && seed != rng_mix(run_seed, (uint64_t)idx))
        snprintf(why, sizeof why, "its seed is not the one the run seed gives game %" PRId64, idx);
    else if (!variant_parse(text_or(g, G_VARIANT, ""), &variant) || strcmp(text_or(g, G_VARIANT, ""), text_or(run, C_VARIANT, "")))
        snprintf(why, sizeof why, "its variant is not the run's");
    else if (strcmp(text_or(g, G_WHITE, ""), white) || strcmp(text_or(g, G_BLACK, ""), black))
        snprintf(why, sizeof why, "its agents are not the run's");
    else if (result == RESULT_NB || reason == REASON_NB)
        snprintf(why, sizeof why, "its result or reason is not one yinsh knows");
    if (why[0]) goto refuse;

    Position pos;
    pos_start(&pos, variant);
    sqlite3_stmt *a = m->in_actions;
    sqlite3_reset(a);
    sqlite3_bind_int64(a, 1, in_id);
    int step = SQLITE_DONE, n = 0;
    while (!why[0] && (step = sqlite3_step(a)) == SQLITE_ROW) {
        const char *text = text_or(a, A_ACTION, ""), *actor = text_or(a, A_ACTOR, ""), *state = text_or(a, A_STATE, "");
        Action act;
        char aerr[ERR_LEN];
        if (sqlite3_column_int64(a, A_PLY) != n || n >= GAME_MAX_ACTIONS)
            snprintf(why, sizeof why, "its actions are not numbered 0, 1, ... (ply %d)", n);
        else if (strcmp(actor, pos.actor == WHITE ? "w" : "b") || state[0] != STATE_CHARS[pos.state] || state[1])
            snprintf(why, sizeof why, "action %d: the stored actor or state is not the position's", n);
        else if (action_parse(&pos, text, &act, aerr))
            snprintf(why, sizeof why, "action %d '%.32s': %.300s", n, text, aerr);
        else if (sqlite3_column_int64(a, A_LEGAL) != movegen_count(&pos))
            snprintf(why, sizeof why, "action %d: the stored count of legal actions is not the position's", n);
        else {
            Undo u;
            pos_make(&pos, act, &u);
            n++;
        }
    }
    sqlite3_reset(a);
    if (why[0]) goto refuse;
    if (step != SQLITE_DONE) {
        return error_set(err, "cannot merge '%s': reading a game's actions: %s", file_name(m, m->file),
                         sqlite3_errmsg(m->in->db));
    }
    int end_result, end_reason;
    pos_outcome(&pos, &end_result, &end_reason);
    int agrees = record_result_check(result, reason, end_result, end_reason);
    if (sqlite3_column_int64(g, G_ACTIONS) != n)
        snprintf(why, sizeof why, "it says %lld action%s and holds %d", (long long)sqlite3_column_int64(g, G_ACTIONS),
                 number_plural((uint64_t)sqlite3_column_int64(g, G_ACTIONS)), n);
    else if (agrees == RECORD_RESULT_DIFFERS)
        snprintf(why, sizeof why, "its result (%s, %s) is not what its actions give (%s, %s)", result_text, reason_text,
                 result_name(end_result), reason_name(end_reason));
    else if (agrees == RECORD_RESULT_ENDED)
        snprintf(why, sizeof why, "it has no result, and its actions end the game");
    if (!why[0]) return ERR_OK;
refuse:
    return error_set(err, "cannot merge '%s': game %" PRId64 " of run '%.100s' is not a game of that run: %s; the "
                     "file was altered, or is not the run's: nothing merged",
                     file_name(m, m->file), idx, name, why);
}

/* A game of the input (its row in g) that run slot r holds here already
 * as here_id (its row in f, read and reset here): the same game, or a
 * conflict that stops the merge. */
static int same_game(Merge *m, sqlite3_stmt *f, sqlite3_stmt *g, int64_t in_id, int64_t idx,
                     const StoreMergeRun *r, char *err)
{
    int64_t here_id = sqlite3_column_int64(f, 0);
    uint64_t a, b;
    char result[16];
    snprintf(result, sizeof result, "%s", text_or(f, 1, ""));
    sqlite3_reset(f);
    int rc;
    if ((rc = game_digest(m->out, m->out_digest, m->out_visits, here_id, result, &a, err)) ||
        (rc = game_digest(m->in, m->in_digest, m->in_visits, in_id, text_or(g, G_RESULT, ""), &b, err)))
        return rc;
    if (a != b)
        return error_set(err,
                         "'%s' and '%s' hold different games as game %" PRId64 " of run '%.100s' (uid %s): "
                         "other actions, visit counts, root visit distributions or result; one of them was "
                         "not played by this run's plan (another yinsh build?): nothing merged",
                         file_name(m, origin_of(&m->origins, here_id)), file_name(m, m->file), idx, r->name, r->uid);
    return ERR_OK;
}

/* The actions of the input's game in_id onto the game here_id. */
static int copy_actions(Merge *m, int64_t in_id, int64_t here_id, char *err)
{
    int rc = ERR_OK;
    sqlite3_stmt *a = m->in_actions, *ia = m->ins_action;
    sqlite3_reset(a);
    sqlite3_bind_int64(a, 1, in_id);
    int astep;
    while ((astep = sqlite3_step(a)) == SQLITE_ROW) {
        sqlite3_reset(ia);
        sqlite3_bind_int64(ia, 1, here_id);
        for (int c = 0; c < A_NB; c++) sqlite3_bind_value(ia, c + 2, sqlite3_column_value(a, c));
        if (sqlite3_step(ia) != SQLITE_DONE) {
            rc = store_fail(m->out, err, "copying an action");
            break;
        }
    }
    sqlite3_reset(ia);
    if (!rc && astep != SQLITE_DONE) {
        rc = error_set(err, "cannot merge '%s': reading a game's actions: %s", file_name(m, m->file),
                       sqlite3_errmsg(m->in->db));
    }
    sqlite3_reset(a);
    return rc;
}

/* The root visit distributions of the input's game in_id (its row in g,
 * game idx of run r), row for row, each on an action of the game here_id
 * just copied. */
static int copy_visits(Merge *m, sqlite3_stmt *g, int64_t in_id, int64_t here_id, int64_t idx,
                       const StoreMergeRun *r, char *err)
{
    int rc = ERR_OK, astep = SQLITE_DONE;
    sqlite3_stmt *v = m->in_visits, *iv = m->ins_visits;
    sqlite3_reset(v);
    sqlite3_bind_int64(v, 1, in_id);
    int64_t length = sqlite3_column_int64(g, G_ACTIONS);
    while (!rc && (astep = sqlite3_step(v)) == SQLITE_ROW) {
        int64_t ply = sqlite3_column_int64(v, 0);
        if (ply < 0 || ply >= length || sqlite3_column_int64(v, 2) < 1) {
            rc = error_set(err, "cannot merge '%s': game %" PRId64 " of run '%.100s' has a root visit row on ply "
                           "%" PRId64 " that is not one of its actions, or without visits: the file was altered: "
                           "nothing merged", file_name(m, m->file), idx, r->name, ply);
            break;
        }
        sqlite3_reset(iv);
        sqlite3_bind_int64(iv, 1, here_id);
        for (int c = 0; c < 3; c++) sqlite3_bind_value(iv, c + 2, sqlite3_column_value(v, c));
        if (sqlite3_step(iv) != SQLITE_DONE) rc = store_fail(m->out, err, "copying an action's visits");
    }
    sqlite3_reset(iv);
    if (!rc && astep != SQLITE_DONE) {
        rc = error_set(err, "cannot merge '%s': reading a game's visits: %s", file_name(m, m->file),
                       sqlite3_errmsg(m->in->db));
    }
    sqlite3_reset(v);
    return rc;
}

/* A game of the input that is not here (its row in g) into run_id:
 * checked against its run, then copied with its actions and visits. */
static int copy_game(Merge *m, sqlite3_stmt *run, sqlite3_stmt *g, int64_t run_id, const StoreMergeRun *r,
                     char *err)
{
    int64_t in_id = sqlite3_column_int64(g, G_NB), idx = sqlite3_column_int64(g, G_IDX);
    int rc;
    if ((rc = check_game(m, run, g, in_id, err))) return rc;
    sqlite3_stmt *ins = m->ins_game;
    sqlite3_reset(ins);
    sqlite3_bind_int64(ins, 1, run_id);
    for (int c = 0; c < G_NB; c++) sqlite3_bind_value(ins, c + 2, sqlite3_column_value(g, c));
    if (sqlite3_step(ins) != SQLITE_DONE) return store_fail(m->out, err, "copying a game");
    int64_t here_id = sqlite3_last_insert_rowid(m->out->db);
    sqlite3_reset(ins);
    if (!origin_add(&m->origins, here_id, m->file)) return error_set(err, "out of memory");
    if ((rc = copy_actions(m, in_id, here_id, err))) return rc;
    return copy_visits(m, g, in_id, here_id, idx, r, err);
}

/* The games of the input's run (its row in `run`) into run slot `slot`
 * here. */
static int merge_games(Merge *m, sqlite3_stmt *run, int slot, char *err)
{
    int64_t in_run = sqlite3_column_int64(run, C_NB);
    int rc = ERR_OK, step;
    int64_t run_id = m->run_ids[slot];
    StoreMergeRun *r = &m->runs[slot];
    sqlite3_stmt *g = m->in_games;
    sqlite3_reset(g);
    sqlite3_bind_int64(g, 1, in_run);
    while (!rc && (step = sqlite3_step(g)) == SQLITE_ROW) {
        int64_t in_id = sqlite3_column_int64(g, G_NB), idx = sqlite3_column_int64(g, G_IDX);
        sqlite3_stmt *f = m->out_game;
        sqlite3_reset(f);
        sqlite3_bind_int64(f, 1, run_id);
        sqlite3_bind_int64(f, 2, idx);
        if (sqlite3_step(f) == SQLITE_ROW) {
            /* held here already: the same game, or a conflict */
            if ((rc = same_game(m, f, g, in_id, idx, r, err))) break;
            r->duplicates++;
            continue;
        }
        sqlite3_reset(f);
        if ((rc = copy_game(m, run, g, run_id, r, err))) break;
        r->added++;
    }
    if (!rc && step != SQLITE_DONE) {
        rc = error_set(err, "cannot merge '%s': reading its games: %s", file_name(m, m->file), sqlite3_errmsg(m->in->db));
    }
    sqlite3_reset(g);
    return rc;
}

/* One input, opened for reading: its runs and their games. */
static int merge_one(Merge *m, char *err)
{
    int rc, step;
    sqlite3_stmt *runs = NULL;
    Store *in = m->in;
    if ((rc = prepare(in, "SELECT " RUN_COLS ", id, finished_at FROM run ORDER BY id", &runs, err)) ||
        (rc = prepare(in, "SELECT " GAME_COLS ", id FROM game WHERE run_id = ? ORDER BY idx", &m->in_games, err)) ||
        (rc = prepare(in,
                      "SELECT ply, actor, state, action, legal, root_visits, chosen_visits, value, time_us, clock_us, "
                      "root_value FROM action WHERE game_id = ? ORDER BY ply",
                      &m->in_actions, err)) ||
        (rc = prepare(in, "SELECT action, root_visits, chosen_visits FROM action WHERE game_id = ? ORDER BY ply",
                      &m->in_digest, err)) ||
        (rc = prepare(in, "SELECT ply, action, visits FROM action_visits WHERE game_id = ? ORDER BY ply, action",
                      &m->in_visits, err)))
        goto done;
    while (!rc && (step = sqlite3_step(runs)) == SQLITE_ROW) {
        int slot = -1;
        if ((rc = merge_run_row(m, runs, &slot, err))) break;
        rc = merge_games(m, runs, slot, err);
    }
    if (!rc && step != SQLITE_DONE) {
        rc = error_set(err, "cannot merge '%s': reading its runs: %s", file_name(m, m->file), sqlite3_errmsg(in->db));
    }
done:
    sqlite3_finalize(runs);
    sqlite3_finalize(m->in_games);
    sqlite3_finalize(m->in_actions);
    sqlite3_finalize(m->in_digest);
    sqlite3_finalize(m->in_visits);
    m->in_games = m->in_actions = m->in_digest = m->in_visits = NULL;
    return rc;
}

/* "3-5, 9, 12-40": the missing indices as ranges, cut short with "...". */
static void ranges(const uint32_t *idx, uint32_t n, char *out, size_t len)
{
    size_t at = 0;
    out[0] = '\0';
    for (uint32_t i = 0; i < n;) {
        uint32_t j = i;
        while (j + 1 < n && idx[j + 1] == idx[j] + 1) j++;
        char part[32];
        if (j == i) snprintf(part, sizeof part, "%s%u", at ? ", " : "", idx[i]);
        else snprintf(part, sizeof part, "%s%u-%u", at ? ", " : "", idx[i], idx[j]);
        if (at + strlen(part) + 5 >= len) {
            snprintf(out + at, len - at, ", ...");
            return;
        }
        at += (size_t)snprintf(out + at, len - at, "%s", part);
        i = j + 1;
    }
}

/* A run new here whose input had it finished: its finished_at as the
 * input has it (a copy of a finished run is the run as it was). */
static int keep_finished_at(Merge *m, int i, char *err)
{
    sqlite3_stmt *st = NULL;
    int rc = prepare(m->out, "UPDATE run SET finished_at = ?1 WHERE id = ?2 AND finished_at IS NULL", &st, err);
    if (rc) return rc;
    sqlite3_bind_text(st, 1, m->finished_at[i], -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, m->run_ids[i]);
    if (sqlite3_step(st) != SQLITE_DONE) rc = store_fail(m->out, err, "finishing a run");
    sqlite3_finalize(st);
    return rc;
}

/* After the last input: each run met, finished when it holds every game,
 * else what it lacks. */
static int merge_finish(Merge *m, char *err)
{
    int rc = ERR_OK;
    for (int i = 0; i < m->nruns && !rc; i++) {
        StoreMergeRun *r = &m->runs[i];
        StoreRun row = {.id = m->run_ids[i], .games = r->games};
        uint32_t *missing = NULL, nmissing = 0;
        snprintf(row.name, sizeof row.name, "%s", r->name);
        if ((rc = store_run_missing(m->out, &row, &missing, &nmissing, err))) break;
        r->stored = r->games - nmissing;
        r->finished = nmissing == 0;
        ranges(missing, nmissing, r->missing, sizeof r->missing);
        free(missing);
        if (r->finished && m->finished_at[i]) rc = keep_finished_at(m, i, err);
        else if (r->finished) rc = store_run_finish(m->out, &row, err);
    }
    return rc;
}

int store_merge(Store *s, const char *const *paths, const char *const *names, int n, StoreMergeRun **runs,
                int *nruns, char *err)
{
    int rc = ERR_OK;
    Merge m = {.out = s, .paths = paths, .names = names ? names : paths};
    *runs = NULL;
    *nruns = 0;
    err[0] = '\0';
    for (int i = 0; i < n; i++)
        if ((rc = check_input(s, paths[i], m.names[i], err))) return rc;

    if ((rc = store_transaction_begin(s, err))) return rc;
    if ((rc = store_ensure_schema(s, err)) ||
        (rc = prepare(s, "SELECT " RUN_COLS ", id FROM run WHERE uid = ?", &m.out_run, err)) ||
        (rc = prepare(s, "SELECT uid FROM run WHERE name = ?", &m.out_name, err)) ||
        (rc = prepare(s,
                      "INSERT INTO run (" RUN_COLS ", repeat_of) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
                      "?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, "
                      "(SELECT min(id) FROM run WHERE plan_ident = ?19))",
                      &m.ins_run, err)) ||
        (rc = prepare(s, "SELECT id, result FROM game WHERE run_id = ? AND idx = ?", &m.out_game, err)) ||
        (rc = prepare(s,
                      "INSERT INTO game (run_id, " GAME_COLS ", repeat) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
                      "?10, ?11, ?12, ?13, ?14, ?15, ?16, EXISTS (SELECT 1 FROM game WHERE ident = ?16 AND "
                      "repeat = 0))",
                      &m.ins_game, err)) ||
        (rc = prepare(s,
                      "INSERT INTO action (game_id, ply, actor, state, action, legal, root_visits, chosen_visits, "
                      "value, time_us, clock_us, root_value) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
                      "?12)",
                      &m.ins_action, err)) ||
        (rc = prepare(s, "INSERT INTO action_visits (game_id, ply, action, visits) VALUES (?1, ?2, ?3, ?4)",
                      &m.ins_visits, err)) ||
        (rc = prepare(s, "SELECT action, root_visits, chosen_visits FROM action WHERE game_id = ? ORDER BY ply",
                      &m.out_digest, err)) ||
        (rc = prepare(s, "SELECT ply, action, visits FROM action_visits WHERE game_id = ? ORDER BY ply, action",
                      &m.out_visits, err)))
        goto done;
    for (int i = 0; i < n && !rc; i++) {
        char oerr[ERR_LEN];
        m.file = i;
        if (store_open(&m.in, paths[i], STORE_READ, s->busy_ms, oerr)) {
            rc = error_set(err, "cannot merge '%s': %s", m.names[i], oerr);
            break;
        }
        rc = merge_one(&m, err);
        store_close(m.in);
        m.in = NULL;
    }
    if (!rc) rc = merge_finish(&m, err);

done:
    sqlite3_finalize(m.out_run);
    sqlite3_finalize(m.out_name);
    sqlite3_finalize(m.ins_run);
    sqlite3_finalize(m.out_game);
    sqlite3_finalize(m.ins_game);
    sqlite3_finalize(m.ins_action);
    sqlite3_finalize(m.ins_visits);
    sqlite3_finalize(m.out_digest);
    sqlite3_finalize(m.out_visits);
    if (!rc) rc = store_transaction_commit(s, err);
    else store_transaction_rollback(s);
    free(m.origins.id);
    free(m.origins.file);
    free(m.run_ids);
    free(m.run_file);
    for (int i = 0; i < m.nruns; i++) free(m.finished_at[i]);
    free(m.finished_at);
    if (rc) {
        free(m.runs);
        return rc;
    }
    *runs = m.runs;
    *nruns = m.nruns;
    return ERR_OK;
}
