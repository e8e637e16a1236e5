/* yinsh import's work (import_records.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "engine/base/file.h"
#include "engine/base/text.h"
#include "selfplay/play/import_records.h"
#include "selfplay/play/run.h"
#include "selfplay/records/boardspace.h"

/* A whole file (at most IMPORT_MAX_BYTES) into *text, malloc'ed; 0, or
 * file_read's code with why in err, without the path (the caller names
 * the file). */
static int slurp(const char *path, char **text, size_t *len, char *err)
{
    char why[ERR_LEN];
    int rc = file_read(path, IMPORT_MAX_BYTES, 0, text, len, why);
    return rc ? error_code(err, rc, "%s", file_read_reason(why, path)) : 0;
}

/* The run's name: import- and the game's name on the site (else the
 * file's name without its folder and extension). */
static void run_name(const BoardspaceGame *g, const char *path, char *out, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    int blen = dot && dot > base ? (int)(dot - base) : (int)strlen(base);
    if (g->name[0]) snprintf(out, size, "import-%.100s", g->name);
    else snprintf(out, size, "import-%.*s", blen > 100 ? 100 : blen, base);
    if (strlen(g->name[0] ? g->name : base) > 100) text_cut(out); /* cut at a whole character */
}

/* The game read, stored as its run. */
static int store_game(Store *store, const char *path, const char *joined, bool repeat, BoardspaceGame *g,
                      ImportedGame *out, char *err)
{
    char white[SPEC_LEN], black[SPEC_LEN], *command = NULL;
    run_name(g, path, out->run, sizeof out->run);
    /* a name made from the file's name: the record's own were checked */
    long bad = text_bad_byte(out->run);
    if (bad >= 0)
        return error_set(err, "the run's name, made from the file's name, holds %s (byte 0x%02x): refused; "
                              "give the record a GN or the file another name",
                         text_control((unsigned char)out->run[bad]) ? "a control character" : "a byte that is not UTF-8",
                         (unsigned char)out->run[bad]);
    snprintf(white, sizeof white, "boardspace:%s", g->player[WHITE]);
    snprintf(black, sizeof black, "boardspace:%s", g->player[BLACK]);
    /* the site and date ride in the command, after a shell comment */
    size_t clen = (joined ? strlen(joined) : 0) + strlen(g->date) + strlen(g->name) + 96;
    if (joined && (command = malloc(clen)))
        snprintf(command, clen, "%s # site boardspace.net, date %s, game %s", joined, g->date[0] ? g->date : "?",
                 g->name[0] ? g->name : "?");
    int rc = command ? run_import(store, out->run, white, black, command, &g->rec, repeat, err)
                     : error_set(err, "out of memory");
    free(command);
    if (rc) return rc;
    snprintf(out->white, sizeof out->white, "%s", g->player[WHITE]);
    snprintf(out->black, sizeof out->black, "%s", g->player[BLACK]);
    out->nactions = g->rec.nactions;
    out->result = g->rec.result;
    out->reason = g->rec.reason;
    return 0;
}

int import_boardspace(Store *store, const char *path, const char *command, bool repeat, ImportedGame *out, char *err)
{
    size_t len;
    char *text;
    if (slurp(path, &text, &len, err)) return ERR_FAIL;
    BoardspaceGame g;
    int rc = boardspace_read(text, len, &g, err);
    free(text);
    if (!rc) rc = store_game(store, path, command, repeat, &g, out, err);
    record_free(&g.rec);
    return rc;
}

/* The compact form's runs written into a database of their own (tmp) as
 * the reader checks them, for the merge. */
typedef struct GamesIn {
    Store *tmp;
    int64_t run_id;
    char plan_ident[STORE_HASH_LEN];
    bool has_plan;
} GamesIn;

static int games_in_run(void *ctx, const GamesColumn *cols, int ncols, char *err)
{
    GamesIn *in = ctx;
    const char *plan = games_column(cols, ncols, "plan_ident");
    in->has_plan = plan != NULL;
    snprintf(in->plan_ident, sizeof in->plan_ident, "%s", plan ? plan : "");
    return store_rows_add_run(in->tmp, cols, ncols, &in->run_id, err);
}

static int games_in_game(void *ctx, const GamesGame *g, char *err)
{
    GamesIn *in = ctx;
    return store_rows_add_game(in->tmp, in->run_id, in->has_plan ? in->plan_ident : NULL, g, err);
}

/* The file read (and checked) into the new database tmp: 0, or the
 * reader's or the store's code with why in err. */
static int games_to_db(const char *file, const char *tmp, GamesTotals *totals, char *err)
{
    FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
    if (!f) return error_set(err, "cannot open '%s': %s", file, strerror(errno));
    GamesIn in = {0};
    GamesRows to = {.on_run = games_in_run, .on_game = games_in_game, .ctx = &in};
    int rc = store_open(&in.tmp, tmp, STORE_CREATE, STORE_BUSY_MS, err);
    if (!rc) rc = store_transaction_begin(in.tmp, err);
    if (!rc) {
        rc = games_read(f, strcmp(file, "-") ? file : "standard input", &to, totals, err);
        if (!rc) rc = store_transaction_commit(in.tmp, err);
        else store_transaction_rollback(in.tmp);
    }
    store_close(in.tmp);
    if (f != stdin) fclose(f);
    return rc;
}

int import_games(const char *file, const char *db, ImportedRuns *out, int *failed, char *err)
{
    const char *folder = getenv("TMPDIR");
    char tmp[4096];
    *out = (ImportedRuns){0};
    snprintf(tmp, sizeof tmp, "%s/yinsh-import-XXXXXX", folder && *folder ? folder : "/tmp");
    int fd = mkstemp(tmp);
    if (fd < 0) {
        *failed = IMPORT_FAILED_TMP;
        return error_set(err, "cannot make a file in '%s': %s", folder && *folder ? folder : "/tmp", strerror(errno));
    }
    close(fd);
    int rc = games_to_db(file, tmp, &out->totals, err);
    if (rc) {
        store_remove(tmp);
        *failed = IMPORT_FAILED_READ;
        return rc;
    }
    struct stat sb;
    bool existed = stat(db, &sb) == 0;
    Store *s = NULL;
    const char *paths[] = {tmp}, *names[] = {strcmp(file, "-") ? file : "standard input"};
    rc = store_open(&s, db, STORE_CREATE, STORE_BUSY_MS, err);
    if (!rc) rc = store_merge(s, paths, names, 1, &out->runs, &out->nruns, err);
    store_close(s);
    if (rc && !existed) store_remove(db);
    store_remove(tmp);
    if (rc) *failed = IMPORT_FAILED_MERGE;
    return rc;
}
