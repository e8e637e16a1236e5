/* The compact form of a study's games: writer and reader (games.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/base/number.h"
#include "engine/base/rng.h"
#include "engine/base/text.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "selfplay/records/games.h"
#include "selfplay/records/record.h"

#define GAMES_MAGIC "yinsh-games"

uint64_t games_game_hash(const GamesGame *g)
{
    if (g->nactions == 0) return 0;
    uint64_t h = RNG_HASH_START;
    for (int i = 0; i < g->nactions; i++) {
        const GamesAction *a = &g->actions[i];
        /* NULL counts hash as 0, as the store reads them */
        long long root = a->field[1] ? strtoll(a->field[1], NULL, 10) : 0;
        long long chosen = a->field[2] ? strtoll(a->field[2], NULL, 10) : 0;
        h = record_hash_action(h, a->action, (uint32_t)root, (uint32_t)chosen);
    }
    return record_hash_game(h, (uint32_t)g->index);
}

/* ---- writing ------------------------------------------------------------ */

void games_write_head(FILE *f) { fprintf(f, "%s %d\n", GAMES_MAGIC, GAMES_FORMAT_VERSION); }

/* A column's value on its one line: '\' escapes itself, the line ends and
 * the tab, and \xHH any other control byte. */
static void write_escaped(FILE *f, const char *s)
{
    char esc[TEXT_ESCAPE_LEN];
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) fwrite(esc, 1, (size_t)text_escape(*p, 0, esc), f);
}

void games_write_run(FILE *f, const GamesColumn *cols, int ncols)
{
    fputs("run\n", f);
    for (int i = 0; i < ncols; i++) {
        if (!cols[i].value) continue; /* NULL: no line */
        fputs(cols[i].name, f);
        if (cols[i].value[0]) fputc(' ', f);
        write_escaped(f, cols[i].value);
        fputc('\n', f);
    }
}

static void write_hashes(FILE *f, int64_t before, uint32_t games, uint64_t sum, uint32_t *next)
{
    while (*next < games && before >= *next) {
        fprintf(f, "hash %" PRIu32 " %016" PRIx64 "\n", *next, sum);
        *next += GAMES_PREFIX;
    }
}

/* An action: its text, then its fields after commas, an empty field for
 * NULL, the NULLs at the end left out. */
static void write_action(FILE *f, const GamesAction *a)
{
    int last = GAMES_ACTION_FIELDS;
    while (last > 0 && !a->field[last - 1]) last--;
    fputs(a->action, f);
    for (int k = 0; k < last; k++) {
        fputc(',', f);
        if (a->field[k]) fputs(a->field[k], f);
    }
}

void games_write_game(FILE *f, const GamesGame *g, uint32_t games, uint64_t sum, uint32_t *next)
{
    write_hashes(f, g->index, games, sum, next);
    fprintf(f, "game %" PRId64 " %s %s %s %s %s", g->index, g->seed, g->result, g->reason, g->duration_ms,
            g->stored_at);
    for (int i = 0; i < g->nactions; i++) {
        fputc(' ', f);
        write_action(f, &g->actions[i]);
    }
    if (g->nchildren) fputs(" |", f);
    for (int i = 0; i < g->nchildren; i++) {
        const GamesChild *c = &g->children[i];
        bool first = i == 0 || c->ply != g->children[i - 1].ply;
        if (first) fprintf(f, " %d:", c->ply);
        else fputc(',', f);
        fprintf(f, "%s=%" PRId64, c->action, c->visits);
    }
    fputc('\n', f);
}

void games_write_end(FILE *f, uint32_t games, uint64_t stored, uint64_t sum, uint32_t next)
{
    write_hashes(f, INT64_MAX, games, sum, &next);
    fprintf(f, "end %" PRIu64 " %016" PRIx64 "\n", stored, sum);
}

void games_write_tail(FILE *f, uint64_t runs) { fprintf(f, "runs %" PRIu64 "\n", runs); }

/* ---- reading ------------------------------------------------------------ */

enum { GAMES_MAX_COLUMNS = 64 };

typedef struct Reader {
    const char *name;
    const GamesRows *r;
    long line;
    /* the run being read */
    bool in_run, header_done;
    char *colbuf[GAMES_MAX_COLUMNS];
    GamesColumn cols[GAMES_MAX_COLUMNS];
    int ncols;
    const char *run_name;
    int variant;
    bool pairs;
    uint32_t games, next;
    uint64_t sum, stored;
    int64_t last_index;
    /* the game being read: pointers into the line */
    GamesAction actions[GAME_MAX_ACTIONS];
    GamesChild *children;
    int nchildren, cap;
    GamesTotals totals;
} Reader;

/* "NAME: line N (run 'R', game I): what" into err; ERR_FAIL. */
static int fail_at(const Reader *rd, int64_t game, char *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail_at(const Reader *rd, int64_t game, char *err, const char *fmt, ...)
{
    char what[ERR_LEN], where[256] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (rd->in_run && game >= 0) snprintf(where, sizeof where, " (run '%.100s', game %" PRId64 ")", rd->run_name, game);
    else if (rd->in_run && rd->run_name) snprintf(where, sizeof where, " (run '%.100s')", rd->run_name);
    return error_set(err, "%.200s: line %ld%s: %s", rd->name, rd->line, where, what);
}

/* Undoes write_escaped in place; false for a bad escape. */
static bool unescape(char *s)
{
    char *w = s;
    size_t len = strlen(s);
    for (size_t i = 0; i < len; i++) {
        if (s[i] != '\\') {
            *w++ = s[i];
            continue;
        }
        int used, byte = text_unescape(s + i + 1, len - i - 1, 0, &used);
        if (byte < 0) return false;
        *w++ = (char)byte;
        i += (size_t)used;
    }
    *w = 0;
    return true;
}

static void run_clear(Reader *rd)
{
    for (int i = 0; i < rd->ncols; i++) free(rd->colbuf[i]);
    rd->ncols = 0;
    rd->in_run = rd->header_done = false;
    rd->run_name = NULL;
    rd->sum = rd->stored = 0;
    rd->next = GAMES_PREFIX;
    rd->last_index = -1;
}

const char *games_column(const GamesColumn *cols, int ncols, const char *name)
{
    for (int i = 0; i < ncols; i++)
        if (!strcmp(cols[i].name, name)) return cols[i].value;
    return NULL;
}

/* A column line, "NAME VALUE" or "NAME" (an empty text). */
static int read_column(Reader *rd, const char *line, char *err)
{
    size_t n = strcspn(line, " ");
    if (n == 0 || n > 31 || strspn(line, "abcdefghijklmnopqrstuvwxyz_") < n)
        return fail_at(rd, -1, err, "'%.40s' is no column of a run (letters and '_')", line);
    if (rd->ncols == GAMES_MAX_COLUMNS) return fail_at(rd, -1, err, "a run of more than %d columns", GAMES_MAX_COLUMNS);
    char *copy = strdup(line);
    if (!copy) return error_set(err, "out of memory");
    copy[n] = 0;
    char *value = line[n] ? copy + n + 1 : copy + n;
    if (!unescape(value)) {
        free(copy);
        return fail_at(rd, -1, err, "column %s: a '\\' that escapes nothing this format writes", line);
    }
    for (int i = 0; i < rd->ncols; i++)
        if (!strcmp(rd->cols[i].name, copy)) {
            free(copy);
            return fail_at(rd, -1, err, "column %.40s given twice", line);
        }
    rd->colbuf[rd->ncols] = copy;
    rd->cols[rd->ncols++] = (GamesColumn){.name = copy, .value = value};
    if (!strcmp(copy, "name")) rd->run_name = value;
    return ERR_OK;
}

/* The run's row is whole (its first game or its end is next): what the
 * reader needs of it, then on_run. */
static int end_header(Reader *rd, char *err)
{
    static const char *const needed[] = {"uid", "name", "variant", "white", "black", "games", "pairs"};
    for (size_t i = 0; i < sizeof needed / sizeof *needed; i++)
        if (!games_column(rd->cols, rd->ncols, needed[i]))
            return fail_at(rd, -1, err, "the run's row has no %s", needed[i]);
    long games, pairs;
    if (!variant_parse(games_column(rd->cols, rd->ncols, "variant"), &rd->variant))
        return fail_at(rd, -1, err, "variant '%.60s' is not one this yinsh plays",
                       games_column(rd->cols, rd->ncols, "variant"));
    if (!number_long(games_column(rd->cols, rd->ncols, "games"), 0, 100000000 /* STORE_MAX_GAMES */, &games) ||
        !number_long(games_column(rd->cols, rd->ncols, "pairs"), 0, 1, &pairs))
        return fail_at(rd, -1, err, "the run's games or pairs is not a number it can be");
    rd->games = (uint32_t)games;
    rd->pairs = pairs;
    rd->header_done = true;
    return rd->r->on_run ? rd->r->on_run(rd->r->ctx, rd->cols, rd->ncols, err) : ERR_OK;
}

static bool is_integer(const char *s)
{
    char *end;
    if (!s || !*s || (*s != '-' && (*s < '0' || *s > '9'))) return false;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    return !errno && !*end && (v || *s != '-');
}

static bool is_real(const char *s)
{
    double v;
    return number_real(s, -1e308, 1e308, &v);
}

/* An action token "ACTION,F1,...,F7" into a (pointers into tok); fewer figures are NULLs. */
static int read_action(Reader *rd, int64_t index, int ply, char *tok, GamesAction *a, char *err)
{
    memset(a, 0, sizeof *a);
    a->action = tok;
    char *p = strchr(tok, ',');
    int k = 0;
    if (p) *p++ = 0;
    while (p) {
        if (k == GAMES_ACTION_FIELDS)
            return fail_at(rd, index, err, "action %d '%.32s' has more than %d figures", ply, a->action,
                           GAMES_ACTION_FIELDS);
        char *q = strchr(p, ',');
        if (q) *q++ = 0;
        a->field[k] = *p ? p : NULL;
        bool real = k == 3 || k == 4; /* value, root_value */
        if (a->field[k] && !(real ? is_real(p) : is_integer(p)))
            return fail_at(rd, index, err, "action %d '%.32s': figure %d '%.32s' is not a number", ply, a->action,
                           k + 1, p);
        p = q;
        k++;
    }
    if (!a->field[0]) return fail_at(rd, index, err, "action %d '%.32s' has no time", ply, a->action);
    return ERR_OK;
}

/* A visits token "PLY:ACTION=V,ACTION=V" onto rd->children. */
static int read_children(Reader *rd, int64_t index, int nactions, char *tok, char *err)
{
    char *colon = strchr(tok, ':'), *end;
    long ply = strtol(tok, &end, 10);
    if (!colon || end != colon || ply < 0 || ply >= nactions)
        return fail_at(rd, index, err, "root visits '%.40s': not PLY:ACTION=VISITS,... on one of its actions", tok);
    for (char *item = strtok_r(colon + 1, ",", &end); item; item = strtok_r(NULL, ",", &end)) {
        char *eq = strchr(item, '=');
        long long visits = eq ? strtoll(eq + 1, NULL, 10) : 0;
        if (!eq || !is_integer(eq + 1) || visits < 1)
            return fail_at(rd, index, err, "root visits of ply %ld: '%.40s' is not ACTION=VISITS (at least 1)", ply,
                           item);
        *eq = 0;
        if (rd->nchildren == rd->cap) {
            int cap = rd->cap ? 2 * rd->cap : 1024;
            GamesChild *c = realloc(rd->children, (size_t)cap * sizeof *c);
            if (!c) return error_set(err, "out of memory");
            rd->children = c;
            rd->cap = cap;
        }
        rd->children[rd->nchildren++] = (GamesChild){.ply = (int)ply, .action = item, .visits = visits};
    }
    return ERR_OK;
}

/* Replays g's actions from the start: each legal where it stands, with
 * its actor, state and legal count filled in; then the stored result
 * against the replay's, and the end counts. */
static int replay(Reader *rd, GamesGame *g, GamesAction *actions, char *err)
{
    Position pos;
    pos_start(&pos, rd->variant);
    for (int i = 0; i < g->nactions; i++) {
        GamesAction *a = &actions[i];
        Action act;
        char aerr[ERR_LEN];
        a->actor = pos.actor == WHITE ? 'w' : 'b';
        a->state = STATE_CHARS[pos.state];
        a->legal = movegen_count(&pos);
        if (action_parse(&pos, a->action, &act, aerr))
            return fail_at(rd, g->index, err, "action %d '%.32s' is not legal where it stands: %s", i, a->action, aerr);
        Undo u;
        pos_make(&pos, act, &u);
    }
    int result = result_parse(g->result), reason = -1, end_result, end_reason;
    for (int r = 0; r < REASON_NB; r++)
        if (!strcmp(g->reason, reason_name(r))) reason = r;
    if (result < 0 || reason < 0)
        return fail_at(rd, g->index, err, "result '%.20s' or reason '%.20s' is not one yinsh knows", g->result,
                       g->reason);
    pos_outcome(&pos, &end_result, &end_reason);
    int agrees = record_result_check(result, reason, end_result, end_reason);
    if (agrees == RECORD_RESULT_DIFFERS)
        return fail_at(rd, g->index, err, "the stored result (%s, %s) is not what its actions give (%s, %s)", g->result,
                       g->reason, result_name(end_result), reason_name(end_reason));
    if (agrees == RECORD_RESULT_ENDED)
        return fail_at(rd, g->index, err, "it is stored without a result, and its actions end the game");
    GameRecord counts = {0};
    record_final_counts(&counts, &pos);
    for (int side = 0; side < 2; side++) {
        g->removed[side] = counts.removed[side];
        g->markers[side] = counts.markers[side];
    }
    return ERR_OK;
}

/* The hash lines due before index (INT64_MAX: the run's end) were read. */
static int hashes_due(Reader *rd, int64_t index, char *err)
{
    if (rd->next < rd->games && index >= rd->next)
        return fail_at(rd, index == INT64_MAX ? -1 : index, err,
                       "the hash line of the games before %" PRIu32 " ('hash %" PRIu32 " ...') is missing", rd->next,
                       rd->next);
    return ERR_OK;
}

/* "game IDX SEED RESULT REASON DURATION STORED_AT ACTION... [| PLY:...]" */
static int read_game(Reader *rd, char *line, char *err)
{
    char *save, *tok[7];
    tok[0] = strtok_r(line, " ", &save);
    for (int i = 1; i < 7; i++) tok[i] = strtok_r(NULL, " ", &save);
    if (!tok[6]) return fail_at(rd, -1, err, "a game line without its index, seed, result, reason, time and date");
    long long index;
    if (!is_integer(tok[1]) || (index = strtoll(tok[1], NULL, 10)) < 0 || index >= rd->games)
        return fail_at(rd, -1, err, "game index '%.20s' is not one of the run's %" PRIu32, tok[1], rd->games);
    if (index <= rd->last_index)
        return fail_at(rd, index, err, "games must come in index order, and once (after game %" PRId64 ")",
                       rd->last_index);
    if (!is_integer(tok[2]) || !is_real(tok[5]))
        return fail_at(rd, index, err, "its seed or its time is not a number");
    int rc = hashes_due(rd, index, err);
    if (rc) return rc;
    GamesGame g = {.index = index, .seed = tok[2], .result = tok[3], .reason = tok[4], .duration_ms = tok[5],
                   .stored_at = tok[6], .variant = variant_name(rd->variant)};
    bool swapped = rd->pairs && index % 2;
    g.white = games_column(rd->cols, rd->ncols, swapped ? "black" : "white");
    g.black = games_column(rd->cols, rd->ncols, swapped ? "white" : "black");
    rd->nchildren = 0;
    bool visits = false;
    for (char *t; (t = strtok_r(NULL, " ", &save));) {
        if (!strcmp(t, "|")) {
            if (visits) return fail_at(rd, index, err, "a second '|'");
            visits = true;
        } else if (visits) {
            if ((rc = read_children(rd, index, g.nactions, t, err))) return rc;
        } else {
            if (g.nactions == GAME_MAX_ACTIONS)
                return fail_at(rd, index, err, "more than %d actions", GAME_MAX_ACTIONS);
            if ((rc = read_action(rd, index, g.nactions, t, &rd->actions[g.nactions], err))) return rc;
            g.nactions++;
        }
    }
    g.actions = rd->actions;
    g.children = rd->children;
    g.nchildren = rd->nchildren;
    if ((rc = replay(rd, &g, rd->actions, err))) return rc;
    rd->sum += games_game_hash(&g);
    rd->stored++;
    rd->last_index = index;
    rd->totals.games++;
    return rd->r->on_game ? rd->r->on_game(rd->r->ctx, &g, err) : ERR_OK;
}

static bool read_hex(const char *s, uint64_t *out)
{
    char *end;
    if (strlen(s) != 16 || strspn(s, "0123456789abcdef") != 16) return false;
    *out = strtoull(s, &end, 16);
    return !*end;
}

/* "hash N HEX": the games before N hash to HEX. */
static int read_hash(Reader *rd, const char *line, char *err)
{
    char hex[32];
    unsigned long n;
    uint64_t h;
    if (sscanf(line, "hash %lu %31s", &n, hex) != 2 || !read_hex(hex, &h))
        return fail_at(rd, -1, err, "not a hash line ('hash N HEX', 16 hex digits)");
    if (n != rd->next || rd->next >= rd->games)
        return fail_at(rd, -1, err, "a hash line of the games before %lu where the next due is before %" PRIu32, n,
                       rd->next);
    if (h != rd->sum)
        return fail_at(rd, -1, err,
                       "the games before %lu hash to %016" PRIx64 ", and the file says %016" PRIx64
                       ": an action or a visit count was changed",
                       n, rd->sum, h);
    rd->next += GAMES_PREFIX;
    return ERR_OK;
}

/* "end GAMES HEX": the run's stored games and their hash. */
static int read_end(Reader *rd, const char *line, char *err)
{
    char hex[32];
    unsigned long long n;
    uint64_t h;
    int rc;
    if (sscanf(line, "end %llu %31s", &n, hex) != 2 || !read_hex(hex, &h))
        return fail_at(rd, -1, err, "not a run's end ('end GAMES HEX')");
    if ((rc = hashes_due(rd, INT64_MAX, err))) return rc;
    if (n != rd->stored)
        return fail_at(rd, -1, err, "the run's end says %llu game%s, and %" PRIu64 " were read", n,
                       number_plural(n), rd->stored);
    if (h != rd->sum)
        return fail_at(rd, -1, err,
                       "the run's games hash to %016" PRIx64 ", and its end says %016" PRIx64
                       ": an action or a visit count was changed",
                       rd->sum, h);
    rd->totals.runs++;
    run_clear(rd);
    return ERR_OK;
}

/* One line (its end cut off); *done once the last line is read. */
static int read_line(Reader *rd, char *line, bool *done, char *err)
{
    int rc;
    if (*done) return fail_at(rd, -1, err, "text after the last line ('runs N')");
    if (rd->line == 1) {
        char want[32];
        snprintf(want, sizeof want, "%s %d", GAMES_MAGIC, GAMES_FORMAT_VERSION);
        if (!strncmp(line, GAMES_MAGIC " ", sizeof GAMES_MAGIC) && strcmp(line, want))
            return fail_at(rd, -1, err, "'%.40s': a version of the format this yinsh does not read (it reads '%s')",
                           line, want);
        if (strcmp(line, want)) return fail_at(rd, -1, err, "not the compact form of games (it begins '%s')", want);
        return ERR_OK;
    }
    if (!rd->in_run) {
        unsigned long long n;
        char extra;
        if (!strcmp(line, "run")) {
            run_clear(rd);
            rd->in_run = true;
            return ERR_OK;
        }
        if (sscanf(line, "runs %llu%c", &n, &extra) == 1) {
            if (n != rd->totals.runs)
                return fail_at(rd, -1, err, "the last line says %llu run%s, and %" PRIu64 " were read", n,
                               number_plural(n), rd->totals.runs);
            *done = true;
            return ERR_OK;
        }
        return fail_at(rd, -1, err, "'%.40s' where a run ('run') or the last line ('runs N') is due", line);
    }
    bool game = !strncmp(line, "game ", 5), end = !strncmp(line, "end ", 4), hash = !strncmp(line, "hash ", 5);
    if (!rd->header_done && !game && !end && !hash) return read_column(rd, line, err);
    if (!rd->header_done && (rc = end_header(rd, err))) return rc;
    if (game) return read_game(rd, line, err);
    if (hash) return read_hash(rd, line, err);
    if (end) return read_end(rd, line, err);
    return fail_at(rd, -1, err, "'%.40s' where a game, a hash line or the run's end is due", line);
}

int games_read(FILE *f, const char *name, const GamesRows *r, GamesTotals *totals, char *err)
{
    Reader *rd = calloc(1, sizeof *rd);
    if (!rd) return error_set(err, "out of memory");
    rd->name = name;
    rd->r = r;
    run_clear(rd);
    int c = getc(f);
    if (c == 0x1f) {
        free(rd);
        return error_set(err,
                         "%.200s is compressed (gzip): read it through gzip, `gzip -dc FILE.gz | yinsh import "
                         "--format games -`",
                         name);
    }
    if (c != EOF) ungetc(c, f);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    bool done = false;
    int rc = ERR_OK;
    errno = 0;
    while (!rc && (len = getline(&line, &cap, f)) >= 0) {
        rd->line++;
        if ((size_t)len != strlen(line)) rc = fail_at(rd, -1, err, "a NUL byte: not a text");
        else if (len == 0 || line[len - 1] != '\n') rc = fail_at(rd, -1, err, "the line has no end: a truncated file?");
        else {
            line[len - 1] = 0;
            rc = read_line(rd, line, &done, err);
        }
    }
    if (!rc && ferror(f)) rc = error_set(err, "%.200s: cannot read: %s", name, strerror(errno));
    if (!rc && !done) {
        rd->line++;
        rc = rd->line == 1 ? error_set(err, "%.200s: empty: not the compact form of games", name)
                           : fail_at(rd, -1, err, "the file ends before its last line ('runs N'): a truncated file?");
    }
    if (totals) *totals = rd->totals;
    free(line);
    run_clear(rd);
    free(rd->children);
    free(rd);
    return rc;
}
