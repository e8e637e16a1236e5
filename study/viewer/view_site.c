/* The game viewer's site (view_site.h): the store's rows in, HTML pages
 * with their data as JSON out. Every store_query_* call is here, in
 * view_load and view_write. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "engine/base/error.h"
#include "engine/base/folder.h"
#include "study/viewer/board_svg.h"
#include "engine/base/json.h"
#include "engine/notation.h"
#include "engine/base/number.h"
#include "study/viewer/view_site.h"

/* The pages' script and style, study/viewer/ embedded at build time. */
extern const char VIEWER_JS[], VIEWER_CSS[];


/* ---- loading ------------------------------------------------------------ */

typedef struct LoadCtx {
    View *v;
    int64_t cap;
    char *err;
} LoadCtx;

static char *copy_text(const char *s, bool *ok)
{
    char *d = strdup(s ? s : "");
    if (!d) *ok = false;
    return d;
}

static int on_run(void *ctx, const StoreRunRow *row)
{
    LoadCtx *c = ctx;
    View *v = c->v;
    ViewRun *grown = realloc(v->runs, (size_t)(v->nruns + 1) * sizeof *grown);
    if (!grown) return error_set(c->err, "out of memory");
    v->runs = grown;
    bool ok = true;
    ViewRun *r = &v->runs[v->nruns++];
    *r = (ViewRun){.seed = row->seed, .games = row->games, .stored = row->stored};
    r->name = copy_text(row->name, &ok);
    r->command = copy_text(row->command, &ok);
    r->variant = copy_text(row->variant, &ok);
    r->white = copy_text(row->white, &ok);
    r->black = copy_text(row->black, &ok);
    r->started_at = copy_text(row->started_at, &ok);
    return ok ? 0 : error_set(c->err, "out of memory");
}

static int on_game(void *ctx, const StoreGameRow *row)
{
    LoadCtx *c = ctx;
    View *v = c->v;
    if (v->ngames == c->cap) {
        int64_t cap = c->cap ? 2 * c->cap : 256;
        ViewGame *grown = realloc(v->games, (size_t)cap * sizeof *grown);
        if (!grown) return error_set(c->err, "out of memory");
        v->games = grown;
        c->cap = cap;
    }
    /* the games come in the order of the runs: the run is the current one
     * or a later one */
    int run = v->ngames ? v->games[v->ngames - 1].run : 0;
    while (run < v->nruns && strcmp(v->runs[run].name, row->run)) run++;
    if (run == v->nruns) return error_set(c->err, "database '%s': game %" PRId64 " of an unknown run '%s'", v->db, row->id, row->run);
    bool ok = true;
    ViewGame *g = &v->games[v->ngames++];
    *g = (ViewGame){.id = row->id, .index = row->index, .actions = row->actions, .run = run, .seed = row->seed,
                    .duration_ms = row->duration_ms};
    g->variant = copy_text(row->variant, &ok);
    g->white = copy_text(row->white, &ok);
    g->black = copy_text(row->black, &ok);
    g->result = copy_text(row->result, &ok);
    g->reason = copy_text(row->reason, &ok);
    return ok ? 0 : error_set(c->err, "out of memory");
}

int view_load(View *v, const char *db, int busy_ms, const char *const *names, int nnames, char *err)
{
    *v = (View){.names = names, .nnames = nnames};
    if (!(v->db = strdup(db))) return error_set(err, "out of memory");
    int rc = store_open(&v->store, db, STORE_READ, busy_ms, err);
    if (rc) return rc;
    StoreSelection sel = {.runs = names, .nruns = nnames};
    LoadCtx c = {.v = v, .err = err};
    if ((rc = store_query_check(v->store, &sel, err))) return rc;
    if ((rc = store_query_runs(v->store, &sel, on_run, &c, err))) return rc;
    return store_query_games(v->store, &sel, on_game, &c, err);
}

void view_free(View *v)
{
    for (int i = 0; i < v->nruns; i++) {
        ViewRun *r = &v->runs[i];
        free(r->name), free(r->command), free(r->variant), free(r->white), free(r->black), free(r->started_at);
    }
    for (int64_t i = 0; i < v->ngames; i++) {
        ViewGame *g = &v->games[i];
        free(g->variant), free(g->white), free(g->black), free(g->result), free(g->reason);
    }
    free(v->runs);
    free(v->games);
    free(v->db);
    if (v->store) store_close(v->store);
    *v = (View){0};
}

/* ---- files -------------------------------------------------------------- */

typedef struct Out {
    FILE *f;
    char path[4200];
} Out;

static int out_open(Out *o, const char *dir, const char *name, char *err)
{
    snprintf(o->path, sizeof o->path, "%s/%s", dir, name);
    if (!(o->f = fopen(o->path, "w"))) return error_set(err, "cannot write '%s': %s", o->path, strerror(errno));
    return 0;
}

/* Closes the file and counts it; a write that failed on the way (a full
 * disk) fails here. */
static int out_close(View *v, Out *o, char *err)
{
    long size = ftell(o->f);
    bool bad = ferror(o->f) != 0;
    if (fclose(o->f) != 0) bad = true;
    o->f = NULL;
    if (bad) return error_set(err, "cannot write '%s': %s", o->path, strerror(errno ? errno : EIO));
    v->files++;
    if (size > 0) {
        v->bytes += (uint64_t)size;
        if ((uint64_t)size > v->largest) v->largest = (uint64_t)size;
    }
    return 0;
}

static void out_abandon(Out *o)
{
    if (o->f) fclose(o->f);
    o->f = NULL;
}

static int write_text(View *v, const char *dir, const char *name, const char *text, char *err)
{
    Out o;
    if (out_open(&o, dir, name, err)) return -1;
    fputs(text, o.f);
    return out_close(v, &o, err);
}

/* The head of every page: style, the board's tables, the script. */
static void page_head(FILE *f, const char *up, const char *title, const char *body_class)
{
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
               "<title>%s</title>\n<link rel=\"stylesheet\" href=\"%sviewer.css\">\n"
               "<script src=\"%sboard.js\"></script>\n<script src=\"%sviewer.js\"></script>\n"
               "</head>\n<body class=\"%s\">\n<noscript>This page draws with JavaScript; "
               "please allow it.</noscript>\n<script id=\"data\" type=\"application/json\">",
            title, up, up, up, body_class);
}

static void page_tail(FILE *f, const char *call)
{
    fprintf(f, "</script>\n<script>YinshView.%s(JSON.parse(document.getElementById('data').textContent));"
               "</script>\n</body>\n</html>\n",
            call);
}

/* ---- the index ------------------------------------------------------------ */

static int write_index(View *v, const char *dir, char *err)
{
    Out o;
    if (out_open(&o, dir, "index.html", err)) return -1;
    page_head(o.f, "", "Yinsh Lab: games", "index");
    Json j;
    json_begin_script(&j, o.f);
    json_str(&j, "db", v->db);
    json_array(&j, "runs");
    for (int i = 0; i < v->nruns; i++) {
        const ViewRun *r = &v->runs[i];
        json_open(&j, NULL, '{', true);
        json_str(&j, "name", r->name);
        json_str(&j, "variant", r->variant);
        json_str(&j, "white", r->white);
        json_str(&j, "black", r->black);
        json_u64_text(&j, "seed", r->seed);
        json_int(&j, "games", r->games);
        json_int(&j, "stored", r->stored);
        json_str(&j, "started", r->started_at);
        json_str(&j, "command", r->command);
        json_close(&j);
    }
    json_close(&j);
    /* games as arrays: id, run, index, variant, white, black, result,
     * reason, actions, milliseconds (a 1000-game index stays small) */
    json_array(&j, "games");
    for (int64_t i = 0; i < v->ngames; i++) {
        const ViewGame *g = &v->games[i];
        json_open(&j, NULL, '[', true);
        json_int(&j, NULL, g->id);
        json_int(&j, NULL, g->run);
        json_int(&j, NULL, g->index);
        json_str(&j, NULL, g->variant);
        json_str(&j, NULL, g->white);
        json_str(&j, NULL, g->black);
        json_str(&j, NULL, g->result);
        json_str(&j, NULL, g->reason);
        json_int(&j, NULL, g->actions);
        json_fixed(&j, NULL, g->duration_ms, 0);
        json_close(&j);
    }
    json_end(&j);
    page_tail(o.f, "index");
    return out_close(v, &o, err);
}

/* ---- game pages ------------------------------------------------------------ */

typedef struct ViewAction {
    char text[ACTION_MAX_LEN];
    char actor, state;
    int64_t legal, time_us;
    bool searched;
    int64_t root_visits, chosen_visits;
    double value;
} ViewAction;

typedef struct WriteCtx {
    View *v;
    const char *dir;
    int64_t next;        /* the next game of v->games to write */
    ViewAction *acts;    /* the actions of the game being read */
    int nacts, cap;
    char *err;
} WriteCtx;

/* Replays the game, writing its actions and a frame per position; -1
 * with why in err when a stored action is not legal where it stands. */
static int write_game_data(Json *j, const ViewGame *g, const ViewAction *acts, int n, char *err)
{
    int variant;
    if (!variant_parse(g->variant, &variant))
        return error_set(err, "game %" PRId64 ": unknown variant '%s'", g->id, g->variant);
    json_array(j, "actions");
    for (int i = 0; i < n; i++) {
        const ViewAction *a = &acts[i];
        json_open(j, NULL, '[', true);
        json_str(j, NULL, a->text);
        json_str(j, NULL, (char[]){a->actor, '\0'});
        json_str(j, NULL, (char[]){a->state, '\0'});
        json_int(j, NULL, a->legal);
        if (a->searched) {
            json_int(j, NULL, a->root_visits);
            json_int(j, NULL, a->chosen_visits);
            json_fixed(j, NULL, a->value, 4);
        } else {
            json_null(j, NULL);
            json_null(j, NULL);
            json_null(j, NULL);
        }
        json_int(j, NULL, a->time_us);
        json_close(j);
    }
    json_close(j);
    /* frames: the YPN, the marks, the status code of each position */
    json_array(j, "frames");
    Position pos;
    pos_start(&pos, variant);
    char ypn[YPN_MAX_LEN], marks_text[BOARD_MARKS_TEXT], why[ERR_LEN];
    for (int i = 0; i <= n; i++) {
        BoardMark marks[BOARD_MARKS_MAX];
        int nm = 0;
        if (i > 0) {
            Action a;
            Undo u;
            if (action_parse(&pos, acts[i - 1].text, &a, why))
                return error_set(err, "game %" PRId64 ": action %d: %s", g->id, i, why);
            pos_make(&pos, a, &u);
            if (board_last_marks(&pos, a, marks, &nm, why))
                return error_set(err, "game %" PRId64 ": action %d: %s", g->id, i, why);
        }
        board_slot_marks(&pos, marks, &nm);
        json_open(j, NULL, '[', true);
        json_str(j, NULL, ypn_format(&pos, ypn));
        json_str(j, NULL, board_marks_text(marks, nm, marks_text));
        json_int(j, NULL, board_status(&pos));
        json_close(j);
    }
    json_close(j);
    return 0;
}

static int write_game(WriteCtx *c, int64_t at)
{
    View *v = c->v;
    const ViewGame *g = &v->games[at];
    const ViewRun *r = &v->runs[g->run];
    char name[64];
    Out o;
    snprintf(name, sizeof name, "games/%" PRId64 ".html", g->id);
    if (out_open(&o, c->dir, name, c->err)) return -1;
    page_head(o.f, "../", "Yinsh Lab: a game", "game");
    Json j;
    json_begin_script(&j, o.f);
    json_int(&j, "id", g->id);
    json_str(&j, "run", r->name);
    json_int(&j, "index", g->index);
    json_str(&j, "variant", g->variant);
    json_str(&j, "white", g->white);
    json_str(&j, "black", g->black);
    json_str(&j, "result", g->result);
    json_str(&j, "reason", g->reason);
    json_u64_text(&j, "seed", g->seed);
    json_fixed(&j, "duration_ms", g->duration_ms, 1);
    if (at > 0) json_int(&j, "prev", v->games[at - 1].id);
    if (at + 1 < v->ngames) json_int(&j, "next", v->games[at + 1].id);
    if (write_game_data(&j, g, c->acts, c->nacts, c->err)) {
        out_abandon(&o);
        return -1;
    }
    json_end(&j);
    page_tail(o.f, "game");
    v->actions += c->nacts;
    return out_close(v, &o, c->err);
}

/* Writes the page of the game being gathered (its actions are all
 * read) and moves to the next. */
static int advance(WriteCtx *c)
{
    if (write_game(c, c->next)) return -1;
    c->next++;
    c->nacts = 0;
    return 0;
}

static int on_action(void *ctx, const StoreActionRow *row)
{
    WriteCtx *c = ctx;
    View *v = c->v;
    /* actions come game by game in the order of v->games; a game without
     * any is passed over (written with none) */
    while (c->next < v->ngames && v->games[c->next].id != row->game_id)
        if (advance(c)) return -1;
    if (c->next == v->ngames)
        return error_set(c->err, "database '%s': an action of game %" PRId64 " out of the order of the games", v->db,
                    row->game_id);
    if (c->nacts == c->cap) {
        int cap = c->cap ? 2 * c->cap : 256;
        ViewAction *grown = realloc(c->acts, (size_t)cap * sizeof *grown);
        if (!grown) return error_set(c->err, "out of memory");
        c->acts = grown;
        c->cap = cap;
    }
    if (row->ply != c->nacts)
        return error_set(c->err, "database '%s': game %" PRId64 " has no action %d (ply %" PRId64 " follows)", v->db,
                    row->game_id, c->nacts, row->ply);
    ViewAction *a = &c->acts[c->nacts++];
    *a = (ViewAction){.actor = row->actor[0], .state = row->state[0], .legal = row->legal, .time_us = row->time_us,
                      .searched = row->searched, .root_visits = row->root_visits,
                      .chosen_visits = row->chosen_visits, .value = row->value};
    if (strlen(row->action) >= ACTION_MAX_LEN || strchr(row->action, '"') || strchr(row->action, '\\') ||
        (a->actor != 'w' && a->actor != 'b') || !strchr("PMRXrx", a->state) || !a->state)
        return error_set(c->err, "database '%s': game %" PRId64 ", action %d: not an action row ('%.20s', actor '%s', state '%s')",
                    v->db, row->game_id, c->nacts, row->action, row->actor, row->state);
    strcpy(a->text, row->action);
    return 0;
}

/* ---- the site's folders ------------------------------------------------ */

static const char *const SITE_FILES[] = {"index.html", "board.js", "viewer.js", "viewer.css"};

bool view_writes(const char *name, const void *ctx)
{
    (void)ctx;
    for (size_t i = 0; i < sizeof SITE_FILES / sizeof *SITE_FILES; i++)
        if (!strcmp(name, SITE_FILES[i])) return true;
    return false;
}

static bool marked(const char *dir)
{
    char path[4200];
    struct stat sb;
    snprintf(path, sizeof path, "%s/" VIEW_MARKER, dir);
    return lstat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* A games folder of a site written before the marker: game pages
 * (DIGITS.html, regular files) and nothing else. */
static bool only_pages(const char *games)
{
    DIR *d = opendir(games);
    if (!d) return false;
    bool pages = true;
    struct dirent *e;
    while (pages && (e = readdir(d))) {
        const char *n = e->d_name, *p = n;
        if (!strcmp(n, ".") || !strcmp(n, "..")) continue;
        while (*p >= '0' && *p <= '9') p++;
        char path[4200 + 256];
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s", games, n);
        pages = p > n && !strcmp(p, ".html") && lstat(path, &sb) == 0 && S_ISREG(sb.st_mode);
    }
    closedir(d);
    return pages;
}

int view_check_dir(const char *dir, char *err)
{
    char games[4200];
    struct stat sb;
    snprintf(games, sizeof games, "%s/" VIEW_GAMES, dir);
    bool ours = marked(dir), earlier = false;
    if (lstat(games, &sb) == 0) {
        if (!S_ISDIR(sb.st_mode))
            return error_code(err, ERR_EXISTS, "'%s' is a file, not a folder of game pages: the site puts its pages "
                              "there", games);
        earlier = !marked(games) && only_pages(games);
        if (!marked(games) && !earlier)
            return error_code(err, ERR_EXISTS, "'%s' holds files that no site wrote (it has no " VIEW_MARKER
                              "): the site replaces that folder whole, and they would be lost", games);
    }
    for (size_t i = 0; i < sizeof SITE_FILES / sizeof *SITE_FILES && !ours && !earlier; i++) {
        char path[4200 + 16];
        snprintf(path, sizeof path, "%s/%s", dir, SITE_FILES[i]);
        if (lstat(path, &sb) == 0)
            return error_code(err, ERR_EXISTS, "'%s' was not written by a site (its folder has no " VIEW_MARKER
                              "): the site would replace it", path);
    }
    return 0;
}

/* The marker's text: what it is for. */
static const char MARKER_TEXT[] =
    "This folder holds a site written by `yinsh view` (docs/viewer.md): a later\n"
    "`yinsh view` replaces the site's files here, and nothing else.\n";

static int write_marker(const char *dir, char *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/" VIEW_MARKER, dir);
    FILE *f = fopen(path, "w");
    bool ok = f && fputs(MARKER_TEXT, f) >= 0;
    if (f && fclose(f) != 0) ok = false;
    return ok ? 0 : error_set(err, "cannot write '%s': %s", path, strerror(errno ? errno : EIO));
}

int view_mark(const char *dir, char *err) { return marked(dir) ? 0 : write_marker(dir, err); }

int view_write(View *v, const char *dir, char *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/" VIEW_GAMES, dir);
    if (mkdir(path, 0777) != 0) return error_set(err, "cannot create '%s': %s", path, strerror(errno));
    if (write_marker(path, err)) return -1;
    v->files = v->bytes = v->largest = 0;
    v->actions = 0;

    Out o;
    if (out_open(&o, dir, "board.js", err)) return -1;
    if (board_svg_script(o.f, err)) {
        out_abandon(&o);
        return -1;
    }
    if (out_close(v, &o, err) || write_text(v, dir, "viewer.js", VIEWER_JS, err) ||
        write_text(v, dir, "viewer.css", VIEWER_CSS, err))
        return -1;

    StoreSelection sel = {.runs = v->names, .nruns = v->nnames};
    WriteCtx c = {.v = v, .dir = dir, .err = err};
    int rc = store_query_actions(v->store, &sel, on_action, &c, err);
    /* the last game, and any without actions after it */
    while (!rc && c.next < v->ngames) rc = advance(&c);
    free(c.acts);
    if (rc) return rc;
    return write_index(v, dir, err);
}

int view_publish(View *v, const char *out, char *err)
{
    char stage[4096] = "";
    int rc = folder_stage_open(out, "view", stage, sizeof stage, err);
    if (!rc) rc = view_write(v, stage, err) || view_mark(out, err) ? ERR_FAIL : 0;
    /* the index last: it never links a page that is not there yet */
    if (!rc && folder_stage_commit(stage, out, "index.html", NULL, NULL) != 0)
        rc = error_set(err, "cannot move the site into '%s': %s", out, strerror(errno));
    if (stage[0]) folder_stage_remove(stage);
    return rc;
}

void view_summary_write(FILE *f, const View *v, const char *out)
{
    fprintf(f,
            "yinsh view: %" PRId64 " game%s (%" PRId64 " action%s) of %d run%s, %" PRIu64 " file%s, %.1f MB "
            "(largest page %.0f kB): open %s/index.html\n",
            v->ngames, number_plural((uint64_t)v->ngames), v->actions, number_plural((uint64_t)v->actions), v->nruns,
            number_plural((uint64_t)v->nruns), v->files, number_plural(v->files), v->bytes / 1e6, v->largest / 1e3, out);
}
