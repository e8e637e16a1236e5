#include "engine/base/error.h"
#include "engine/base/text.h"
#include "selfplay/records/boardspace.h"
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "engine/movegen.h"
#include "engine/notation.h"


/* The reader's state between commands: the position, the move begun by a
 * `place w` that its `drop board` ends, and the players' clocks. */
typedef struct Reader {
    BoardspaceGame *g;
    Position pos;
    int cap;
    int colour[2];        /* P0's and P1's colour; -1 until `Start` */
    Point lifted;         /* the ring a `place w` took a marker into; -1 if none */
    int64_t clock[2];     /* by colour: TM (ms) at the end of the last turn */
    int pending[2];       /* by colour: the action whose turn is not Done yet, -1 if none */
    int resigned;         /* the colour that resigned, -1 if none */
    int64_t total_ms;
} Reader;

/* "H" "6" -> h6; false if it names no point. */
static bool point_of(const char *col, const char *row, Point *p)
{
    char text[8];
    if (strlen(col) != 1 || strlen(row) > 2) return false;
    snprintf(text, sizeof text, "%c%s", tolower((unsigned char)col[0]), row);
    return point_parse(text, strlen(text), p);
}

static int push(Reader *r, Action a, int64_t tm, bool have_tm)
{
    GameRecord *rec = &r->g->rec;
    if (rec->nactions == GAME_MAX_ACTIONS) return -1;
    if (rec->nactions == r->cap) {
        int cap = r->cap ? 2 * r->cap : 128;
        ActionRecord *more = realloc(rec->actions, (size_t)cap * sizeof *more);
        if (!more) return -1;
        rec->actions = more;
        r->cap = cap;
    }
    int actor = r->pos.actor;
    int64_t dt = have_tm && a != ACTION_NONE ? tm - r->clock[actor] : 0;
    rec->actions[rec->nactions] = (ActionRecord){
        .action = a,
        .actor = (uint8_t)actor,
        .state = r->pos.state,
        .legal = (uint16_t)movegen_count(&r->pos),
        .time_us = (uint32_t)(dt > 0 && dt < 4000000 ? dt * 1000 : 0),
    };
    if (ACTION_KIND(a) != ACT_PASS) r->pending[actor] = rec->nactions;
    rec->nactions++;
    Undo u;
    pos_make(&r->pos, a, &u);
    return 0;
}

/* Plays the action `text` for the colour the record says acts: a pass
 * first when boardspace skipped a player who had no move. */
static int play(Reader *r, int num, int colour, const char *text, int64_t tm, bool have_tm, char *err)
{
    int result, reason;
    char perr[ERR_LEN];
    Action a, list[MAX_ACTIONS];
    if (r->resigned >= 0) return error_set(err, "move %d: '%s' after a resignation", num, text);
    if (pos_outcome(&r->pos, &result, &reason))
        return error_set(err, "move %d: '%s' after the end of the game (%s, %s)", num, text, result_name(result),
                    reason_name(reason));
    if (r->pos.actor != colour) {
        int n = movegen_all(&r->pos, list);
        if (n != 1 || ACTION_KIND(list[0]) != ACT_PASS)
            return error_set(err, "move %d: '%s' is played by %s, but %s is to act", num, text,
                        colour == WHITE ? "White" : "Black", r->pos.actor == WHITE ? "White" : "Black");
        if (push(r, list[0], 0, false)) return error_set(err, "move %d: the game is too long", num);
    }
    if (action_parse(&r->pos, text, &a, perr)) return error_set(err, "move %d: %s", num, perr);
    if (push(r, a, tm, have_tm)) return error_set(err, "move %d: the game is too long", num);
    return 0;
}

/* The time of a turn: from the actor's clock at the end of its last turn
 * to its clock at `Done` (boardspace's TM is the player's total, in ms). */
static void done(Reader *r, int colour, int64_t tm, bool have_tm)
{
    int at = r->pending[colour];
    if (have_tm) {
        if (at >= 0) {
            int64_t dt = tm - r->clock[colour];
            r->g->rec.actions[at].time_us = (uint32_t)(dt > 0 && dt < 4000000 ? dt * 1000 : 0);
        }
        r->clock[colour] = tm;
    }
    r->pending[colour] = -1;
}

/* One move command, e.g. "21 place w  G 11", of player p. */
static int command(Reader *r, int p, const char *value, int64_t tm, bool have_tm, char *err)
{
    char buf[BOARDSPACE_TEXT_LEN * 2];
    const char *tok[8];
    int n = 0;
    snprintf(buf, sizeof buf, "%s", value);
    for (char *s = strtok(buf, " \t\r\n"); s && n < 8; s = strtok(NULL, " \t\r\n")) tok[n++] = s;
    char *end;
    long num = n ? strtol(tok[0], &end, 10) : 0;
    if (!n || *end || num < 0) return 0; /* not a move: `id "..."`, `time ...` */
    r->g->moves = (int)num;
    if (n < 2) return error_set(err, "move %ld: no command", num);
    const char *cmd = tok[1];
    if (!strcmp(cmd, "Start")) {
        int c = n == 3 && !strcmp(tok[2], "White") ? WHITE : n == 3 && !strcmp(tok[2], "Black") ? BLACK : -1;
        if (c < 0) return error_set(err, "move %ld: 'Start' wants White or Black", num);
        r->colour[p] = c;
        r->colour[!p] = !c;
        return 0;
    }
    if (r->colour[p] < 0) return error_set(err, "move %ld: '%s' before 'Start' (who plays which colour?)", num, cmd);
    int colour = r->colour[p];
    char want = colour == WHITE ? 'w' : 'b';
    char text[ACTION_MAX_LEN + 8];
    Point a, b;
    if (!strcmp(cmd, "Done")) {
        done(r, colour, tm, have_tm);
        return 0;
    }
    if (!strcmp(cmd, "Resign")) {
        int result, reason;
        if (r->resigned >= 0 || pos_outcome(&r->pos, &result, &reason))
            return error_set(err, "move %ld: a resignation after the end of the game", num);
        r->resigned = colour;
        return 0;
    }
    /* the colour a command names must be the player's */
    bool ring = n >= 3 && strlen(tok[2]) == 2 && tok[2][1] == 'r';
    if ((!strcmp(cmd, "place") || !strcmp(cmd, "remove")) && (n < 3 || tok[2][0] != want || strlen(tok[2]) > 2 ||
                                                             (strlen(tok[2]) == 2 && !ring)))
        return error_set(err, "move %ld: '%s %s' is not a piece of %s, who plays it", num, cmd, n >= 3 ? tok[2] : "",
                    colour == WHITE ? "White" : "Black");
    if (!strcmp(cmd, "place") && n == 5) {
        if (!point_of(tok[3], tok[4], &a))
            return error_set(err, "move %ld: '%s %s' is not a point of the board", num, tok[3], tok[4]);
        if (ring) return play(r, (int)num, colour, point_format(a, text), tm, have_tm, err);
        r->lifted = a; /* the marker goes into the ring; its drop makes the move */
        return 0;
    }
    if (!strcmp(cmd, "drop") && n == 5 && !strcmp(tok[2], "board")) {
        if (!point_of(tok[3], tok[4], &b))
            return error_set(err, "move %ld: '%s %s' is not a point of the board", num, tok[3], tok[4]);
        if (r->lifted < 0) return error_set(err, "move %ld: 'drop board' without a 'place' before it", num);
        char from[8], to[8];
        snprintf(text, sizeof text, "%s-%s", point_format(r->lifted, from), point_format(b, to));
        r->lifted = -1;
        return play(r, (int)num, colour, text, tm, have_tm, err);
    }
    if (!strcmp(cmd, "move") && n == 6) {
        if (!point_of(tok[2], tok[3], &a) || !point_of(tok[4], tok[5], &b))
            return error_set(err, "move %ld: '%s %s %s %s' are not points of the board", num, tok[2], tok[3], tok[4],
                        tok[5]);
        char from[8], to[8];
        snprintf(text, sizeof text, "%s-%s", point_format(a, from), point_format(b, to));
        return play(r, (int)num, colour, text, tm, have_tm, err);
    }
    if (!strcmp(cmd, "remove") && ring && n == 5) {
        if (!point_of(tok[3], tok[4], &a))
            return error_set(err, "move %ld: '%s %s' is not a point of the board", num, tok[3], tok[4]);
        char at[8];
        snprintf(text, sizeof text, "x%s", point_format(a, at));
        return play(r, (int)num, colour, text, tm, have_tm, err);
    }
    if (!strcmp(cmd, "remove") && !ring && n == 7) {
        if (!point_of(tok[3], tok[4], &a) || !point_of(tok[5], tok[6], &b))
            return error_set(err, "move %ld: '%s %s %s %s' are not points of the board", num, tok[3], tok[4], tok[5],
                        tok[6]);
        /* the row's ends in either order: ours are canonical, lower first */
        if (b < a) {
            Point t = a;
            a = b;
            b = t;
        }
        char from[8], to[8];
        snprintf(text, sizeof text, "x%s-%s", point_format(a, from), point_format(b, to));
        return play(r, (int)num, colour, text, tm, have_tm, err);
    }
    return error_set(err, "move %ld: '%.60s' is not a YINSH command this reader knows (place, drop board, move, remove, "
                "Done, Resign)", num, value + (tok[1] - buf));
}

/* One SGF property value, from just after '[' to its ']', unescaped into
 * out; returns the position after the ']', or NULL if there is none. */
static const char *value_read(const char *s, const char *end, char *out, size_t size)
{
    size_t k = 0;
    bool cut = false;
    for (; s < end && *s != ']'; s++) {
        if (*s == '\\' && s + 1 < end) s++;
        if (k + 1 < size) out[k++] = *s;
        else cut = true;
    }
    out[k] = 0;
    if (cut) text_cut(out); /* a long name cut short is still UTF-8 */
    return s < end ? s + 1 : NULL;
}

/* Copies text into a header field (BOARDSPACE_TEXT_LEN bytes), cut at a
 * whole UTF-8 character when it is longer. */
static void field_copy(char *out, const char *text, size_t len)
{
    snprintf(out, BOARDSPACE_TEXT_LEN, "%.*s", (int)len, text);
    if (len >= BOARDSPACE_TEXT_LEN) text_cut(out);
}

/* A header value `id "DrMih"`: the name between the quotes. */
static void name_of(const char *value, char *out)
{
    const char *q = strchr(value, '"'), *e = q ? strchr(q + 1, '"') : NULL;
    if (q && e) field_copy(out, q + 1, (size_t)(e - q - 1));
    else field_copy(out, value, strlen(value));
}

/* The names and the date go into the database and from there into
 * reports, shell commands and terminals: text that would not print as
 * itself (a control character such as ESC or a newline, or bytes that
 * are no UTF-8) is refused, naming the field. */
static int field_check(const char *field, const char *text, char *err)
{
    long at = text_bad_byte(text);
    if (at < 0) return 0;
    unsigned char c = (unsigned char)text[at];
    return error_set(err, "%s holds %s (byte 0x%02x at offset %ld): refused", field,
                      text_control(c) ? "a control character" : "a byte that is not UTF-8", c, at);
}

int boardspace_read(const char *text, size_t len, BoardspaceGame *g, char *err)
{
    Reader r = {.g = g, .colour = {-1, -1}, .lifted = -1, .pending = {-1, -1}, .resigned = -1};
    *g = (BoardspaceGame){0};
    pos_start(&r.pos, VARIANT_STANDARD);
    g->rec.variant = VARIANT_STANDARD;
    char names[2][BOARDSPACE_TEXT_LEN] = {"", ""};
    const char *s = text, *end = text + len;
    while (s < end && *s != '(') s++;
    if (s == end) return error_set(err, "not an SGF record: no '('");
    s++;
    /* the nodes: ';' then properties ID[value]...; a move node holds
     * P0[...] or P1[...] and its TM[...] */
    for (;;) {
        while (s < end && isspace((unsigned char)*s)) s++;
        if (s == end) return error_set(err, "the record ends before its ')'");
        if (*s == ')') break;
        if (*s != ';') return error_set(err, "unexpected '%c' in the record (after move %d)", *s, g->moves);
        s++;
        char move[BOARDSPACE_TEXT_LEN * 2] = "";
        int who = -1;
        int64_t tm = 0;
        bool have_tm = false;
        for (;;) {
            while (s < end && isspace((unsigned char)*s)) s++;
            if (s == end || *s == ';' || *s == ')' || *s == '(') break;
            char id[16];
            size_t k = 0;
            while (s < end && isupper((unsigned char)*s)) {
                if (k + 1 < sizeof id) id[k++] = *s;
                s++;
            }
            while (s < end && (isdigit((unsigned char)*s))) {
                if (k + 1 < sizeof id) id[k++] = *s;
                s++;
            }
            id[k] = 0;
            if (!k || s == end || *s != '[') return error_set(err, "a property without a name or value (after move %d)", g->moves);
            while (s < end && *s == '[') {
                char value[BOARDSPACE_TEXT_LEN * 2];
                if (!(s = value_read(s + 1, end, value, sizeof value)))
                    return error_set(err, "a value without its ']' (after move %d)", g->moves);
                if (!strcmp(id, "P0") || !strcmp(id, "P1")) {
                    int p = id[1] - '0';
                    if (!strncmp(value, "id ", 3)) name_of(value + 3, names[p]);
                    else {
                        who = p;
                        snprintf(move, sizeof move, "%s", value);
                    }
                } else if (!strcmp(id, "TM")) {
                    char *e;
                    tm = strtoll(value, &e, 10);
                    /* a clock of up to 30 years in ms; anything else is no clock */
                    have_tm = !*e && *value && tm >= 0 && tm < 1000000000000LL;
                } else if (!strcmp(id, "DT")) {
                    field_copy(g->date, value, strlen(value));
                } else if (!strcmp(id, "GN")) {
                    field_copy(g->name, value, strlen(value));
                } else if (!strcmp(id, "SU") && strcasecmp(value, "Yinsh")) {
                    return error_set(err, "the game is '%s', not Yinsh (standard)", value);
                }
                while (s < end && isspace((unsigned char)*s)) s++;
            }
        }
        if (who >= 0 && command(&r, who, move, tm, have_tm, err)) return -1;
        if (s < end && *s == '(') return error_set(err, "variations (a '(' inside the game) are not read (after move %d)",
                                              g->moves);
    }
    /* a stream of several games (export to one file) would lose all but the first */
    for (s++; s < end && isspace((unsigned char)*s); s++) {}
    if (s < end) return error_set(err, "more than one game in the file (after move %d): one game a file", g->moves);
    if (r.colour[0] < 0) return error_set(err, "no 'Start': who plays which colour?");
    if (field_check("the name of player P0", names[0], err) || field_check("the name of player P1", names[1], err) ||
        field_check("the game's name (GN)", g->name, err) || field_check("the date (DT)", g->date, err))
        return -1;
    for (int p = 0; p < 2; p++) snprintf(g->player[r.colour[p]], BOARDSPACE_TEXT_LEN, "%s", names[p][0] ? names[p] : "?");
    for (int c = 0; c < 2; c++) r.total_ms += r.clock[c];
    int result, reason;
    GameRecord *rec = &g->rec;
    if (pos_outcome(&r.pos, &result, &reason)) {
        rec->result = result;
        rec->reason = reason;
    } else if (r.resigned >= 0) {
        rec->result = r.resigned == WHITE ? RESULT_BLACK : RESULT_WHITE;
        rec->reason = REASON_RESIGN;
    } else {
        rec->result = RESULT_NONE;
        rec->reason = REASON_NONE;
    }
    record_final_counts(rec, &r.pos);
    rec->duration_s = (double)r.total_ms / 1e3;
    return 0;
}

char *boardspace_format(const Position *pos, Action a, char *out, size_t size)
{
    char p[8], q[8];
    char c = pos->actor == WHITE ? 'w' : 'b';
    Point from = ACTION_FROM(a), to = ACTION_TO(a);
    /* "g11" -> "G 11" */
#define BS_POINT(pt, buf) (point_format(pt, buf), buf[0] = (char)toupper((unsigned char)buf[0]), buf)
    char *x = NULL, *y = NULL;
    switch (ACTION_KIND(a)) {
    case ACT_PLACE:
        x = BS_POINT(from, p);
        snprintf(out, size, "place %cr %c %s\nDone", c, x[0], x + 1);
        break;
    case ACT_MOVE:
        x = BS_POINT(from, p);
        y = BS_POINT(to, q);
        snprintf(out, size, "move %c %s %c %s\nDone", x[0], x + 1, y[0], y + 1);
        break;
    case ACT_ROW:
        x = BS_POINT(from, p);
        y = BS_POINT(to, q);
        snprintf(out, size, "remove %c %c %s %c %s\nDone", c, x[0], x + 1, y[0], y + 1);
        break;
    case ACT_RING:
        x = BS_POINT(from, p);
        snprintf(out, size, "remove %cr %c %s\nDone", c, x[0], x + 1);
        break;
    default:
        out[0] = 0;
    }
#undef BS_POINT
    return out;
}

/* An SGF value with ']' and '\\' escaped. */
static void sgf_value(FILE *f, const char *v)
{
    for (; *v; v++) {
        if (*v == ']' || *v == '\\') fputc('\\', f);
        fputc(*v, f);
    }
}

/* A player's name on boardspace: ours without the boardspace: of an
 * imported one, so that a game goes out and comes back the same. */
static const char *player_name(const char *spec)
{
    return strncmp(spec, "boardspace:", 11) ? spec : spec + 11;
}

/* The header, then each action's commands numbered in order, each with
 * its player (P0 White, P1 Black); a resigned game ends with the loser's
 * Resign. Passes are not written: boardspace has none, and the reader
 * puts them back. */
int boardspace_write(FILE *f, const RecordText *g, char *err)
{
    int variant;
    Position pos;
    if (!variant_parse(g->variant, &variant) || variant != VARIANT_STANDARD)
        return error_code(err, ERR_USAGE,
                          "run '%s' game %" PRIu32 ": a %.32s game: boardspace records are standard YINSH", g->run,
                          g->index, g->variant);
    char date[RECORD_VALUE_LEN];
    fprintf(f, "(;\nGM[24]VV[2]\nSU[Yinsh]\nDT[");
    sgf_value(f, record_text_date(g, date, sizeof date));
    /* the game's name: an imported one's own (its run is import-NAME), so
     * that it comes back under the same run name; else RUN-INDEX */
    fprintf(f, "]\nGN[");
    if (!strcmp(g->kind, "import") && !strncmp(g->run, "import-", 7)) {
        sgf_value(f, g->run + 7);
    } else {
        sgf_value(f, g->run);
        fprintf(f, "-%" PRIu32, g->index);
    }
    fprintf(f, "]\nRE[");
    sgf_value(f, g->result);
    fprintf(f, " %s]\nP0[id \"", g->reason);
    sgf_value(f, player_name(g->white));
    fprintf(f, "\"]\nP1[id \"");
    sgf_value(f, player_name(g->black));
    fprintf(f, "\"]\n; P0[0 Start White]\n");
    pos_start(&pos, variant);
    int num = 1;
    for (int i = 0; i < g->nactions; i++) {
        Action a;
        char perr[ERR_LEN], cmds[2 * BOARDSPACE_TEXT_LEN];
        if (action_parse(&pos, g->actions[i], &a, perr))
            return error_set(err, "run '%s' game %" PRIu32 ": action %d: %s", g->run, g->index, i + 1, perr);
        boardspace_format(&pos, a, cmds, sizeof cmds);
        for (char *line = strtok(cmds, "\n"); line; line = strtok(NULL, "\n"))
            fprintf(f, "; P%d[%d %s]\n", pos.actor, num++, line);
        Undo u;
        pos_make(&pos, a, &u);
    }
    int result, reason;
    /* boardspace.net records know no faults: a game an engine lost on one
     * is written as its resignation, the nearest they have */
    bool stopped = false;
    for (int r = REASON_RESIGN; r < REASON_NB; r++) stopped |= !strcmp(g->reason, reason_name(r));
    if (stopped && !pos_outcome(&pos, &result, &reason)) {
        int loser = !strcmp(g->result, result_name(RESULT_WHITE)) ? BLACK : WHITE;
        fprintf(f, "; P%d[%d Resign ]\n", loser, num++);
    }
    fprintf(f, ")\n");
    return 0;
}
