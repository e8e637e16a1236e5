#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "engine/base/error.h"
#include "engine/base/text.h"
#include "engine/notation.h"
#include "engine/movegen.h"


const char STATE_CHARS[STATE_NB + 1] = "PMRXrx-";

/* The rows of each column: first and last valid row, a..k. */
static void column_rows(int col, int *lo, int *hi)
{
    *lo = 12;
    *hi = 0;
    for (int r = 1; r <= 11; r++)
        if (point_valid(col, r)) {
            if (r < *lo) *lo = r;
            *hi = r;
        }
}

/* The board field: 11 '/'-separated column groups. */
static int parse_board(const char *s, size_t len, Position *pos, char *err)
{
    size_t i = 0;
    for (int col = 0; col < 11; col++) {
        int lo, hi, row;
        column_rows(col, &lo, &hi);
        row = lo;
        if (col > 0) {
            if (i >= len) return error_set(err, "board: only %d column groups, expected 11", col);
            if (s[i] != '/') return error_set(err, "board: column %c: unexpected '%c'", 'a' + col - 1, s[i]);
            i++;
        }
        size_t start = i;
        while (i < len && s[i] != '/') {
            char c = s[i];
            if (isdigit((unsigned char)c)) {
                if (c == '0') return error_set(err, "board: column %c: run of empty points cannot be 0 or start with 0", 'a' + col);
                int run = 0;
                while (i < len && isdigit((unsigned char)s[i])) {
                    run = run * 10 + (s[i] - '0');
                    if (run > 11) return error_set(err, "board: column %c: run of empty points is too long", 'a' + col);
                    i++;
                }
                row += run;
                if (row > hi + 1)
                    return error_set(err, "board: column %c: group covers more than the column's %d points", 'a' + col, hi - lo + 1);
                continue;
            }
            if (!strchr("WBwb", c))
                return error_set(err, "board: column %c: unknown character '%c' (expected W B w b or a digit)", 'a' + col, c);
            if (row > hi)
                return error_set(err, "board: column %c: group covers more than the column's %d points", 'a' + col, hi - lo + 1);
            Bitboard bit = bb_bit(point_make(col, row));
            if (c == 'W') pos->rings[WHITE] |= bit;
            else if (c == 'B') pos->rings[BLACK] |= bit;
            else if (c == 'w') pos->markers[WHITE] |= bit;
            else pos->markers[BLACK] |= bit;
            row++;
            i++;
        }
        if (i == start) return error_set(err, "board: column %c: empty group", 'a' + col);
        if (row != hi + 1)
            return error_set(err, "board: column %c: group covers %d of the column's %d points", 'a' + col, row - lo, hi - lo + 1);
    }
    if (i != len) return error_set(err, "board: more than 11 column groups");
    return 0;
}

/* Checks that no legal game is needed to explain the position
 * (docs/notation.md §2.3) and fills the derived fields. */
static int validate(Position *pos, char *err)
{
    int rw = bb_popcount(pos->rings[WHITE]), rb = bb_popcount(pos->rings[BLACK]);
    int markers = bb_popcount(pos->markers[WHITE] | pos->markers[BLACK]);
    int me = pos->actor, st = pos->state;
    bool row_w = pos_has_row(pos, WHITE), row_b = pos_has_row(pos, BLACK);
    bool row_me = me == WHITE ? row_w : row_b, row_opp = me == WHITE ? row_b : row_w;
    const char *who = me == WHITE ? "white" : "black";

    if (rw > RINGS_PER_SIDE) return error_set(err, "board: %d white rings, at most 5", rw);
    if (rb > RINGS_PER_SIDE) return error_set(err, "board: %d black rings, at most 5", rb);
    if (markers > MARKERS_NB) return error_set(err, "board: %d markers, at most 51", markers);
    if ((pos->variant & VARIANT_BLITZ) && (st == STATE_R || st == STATE_X || st == STATE_r || st == STATE_x))
        return error_set(err, "state: '%c' exists only in the standard variant", STATE_CHARS[st]);

    if (st == STATE_P) {
        if (markers) return error_set(err, "state: P (placement) with markers on the board");
        if (rw + rb >= 2 * RINGS_PER_SIDE)
            return error_set(err, "state: P with %d rings on the board; all 10 are placed, so the state must be M", rw + rb);
        /* after a swap Black holds the first ring and White places next
         * (docs/rules.md §9.1): B = W + 1 with White to place, or B = W
         * with Black to place */
        bool swapped = (pos->variant & VARIANT_SWAP) && (rb == rw + 1 || (rb == rw && rw > 0 && me == BLACK));
        if (swapped) {
            if (rb == rw + 1 && me != WHITE)
                return error_set(err, "actor: with one more black ring than white after a swap, White places next");
        } else {
            if (rw == rb && me != WHITE) return error_set(err, "actor: with %d rings each, White places next, not Black", rw);
            if (rw == rb + 1 && me != BLACK) return error_set(err, "actor: with one more white ring than black, Black places next");
            if (rw != rb && rw != rb + 1)
                return error_set(err, "state: P with %d white and %d black rings (White places first, so W = B or W = B + 1%s)", rw,
                                 rb, pos->variant & VARIANT_SWAP ? ", or B = W + 1 after a swap" : "");
        }
        pos->placed = (uint8_t)(rw + rb);
    } else {
        int min = pos->variant & VARIANT_BLITZ ? RINGS_PER_SIDE : RINGS_PER_SIDE - RINGS_TO_WIN + 1;
        if (st == STATE_END && !(pos->variant & VARIANT_BLITZ)) {
            int mine = me == WHITE ? rw : rb, theirs = me == WHITE ? rb : rw;
            if (mine != RINGS_PER_SIDE - RINGS_TO_WIN)
                return error_set(err, "state: '-' in standard means %s just removed a third ring, but %s has %d rings", who, who, mine);
            if (theirs < min)
                return error_set(err, "board: the opponent has %d rings; a game ends at the third removed ring", theirs);
        } else {
            if (rw < min || rb < min) {
                if (pos->variant & VARIANT_BLITZ)
                    return error_set(err, "board: %d white and %d black rings; in blitz every ring stays on the board after placement", rw, rb);
                return error_set(err, "board: %d white and %d black rings; after placement each side has 3 to 5 (fewer means the game is over or rings are still to be placed)", rw, rb);
            }
        }
        pos->placed = 2 * RINGS_PER_SIDE;
        pos->removed[WHITE] = (uint8_t)(RINGS_PER_SIDE - rw);
        pos->removed[BLACK] = (uint8_t)(RINGS_PER_SIDE - rb);
        if (st == STATE_M && (row_w || row_b))
            return error_set(err, "state: M with a row of %s on the board (rows are removed before the next move)", row_w ? "white" : "black");
        if ((st == STATE_R || st == STATE_r) && !row_me)
            return error_set(err, "state: %c but %s has no row of 5 to remove", STATE_CHARS[st], who);
        if ((st == STATE_r || st == STATE_x) && row_opp)
            return error_set(err, "state: %c while the other player also has a row (the mover removes theirs first)", STATE_CHARS[st]);
        if (st == STATE_END && (pos->variant & VARIANT_BLITZ) && !row_w && !row_b)
            return error_set(err, "state: '-' in blitz needs the row that ended the game on the board");
        if (st == STATE_END && (pos->variant & VARIANT_BLITZ) && markers == 0)
            return error_set(err, "board: no markers");
    }
    pos->pool = (uint8_t)(MARKERS_NB - markers);
    pos->key = pos_compute_key(pos);
    return 0;
}

int ypn_parse(const char *text, Position *pos, char *err)
{
    memset(pos, 0, sizeof *pos);
    if (!text) return error_set(err, "empty position");
    const char *field[5];
    size_t flen[5];
    int n = 0;
    const char *s = text;
    size_t total = strlen(text);
    while (total && (text[total - 1] == '\n' || text[total - 1] == '\r')) total--;
    const char *end = text + total;
    for (;;) {
        const char *sp = memchr(s, ' ', (size_t)(end - s));
        const char *e = sp ? sp : end;
        if (n < 5) {
            field[n] = s;
            flen[n] = (size_t)(e - s);
        }
        n++;
        if (!sp) break;
        s = sp + 1;
    }
    if (n != 4)
        return error_set(err, "position: %d fields, expected 4 separated by single spaces: <board> <actor> <state> <variant>", n);
    for (int i = 0; i < 4; i++)
        if (flen[i] == 0) return error_set(err, "position: field %d is empty (fields are separated by single spaces)", i + 1);
    if (parse_board(field[0], flen[0], pos, err)) return -1;
    if (flen[1] != 1 || (field[1][0] != 'w' && field[1][0] != 'b'))
        return error_set(err, "actor: '%.*s', expected w or b", (int)(flen[1] > 8 ? 8 : flen[1]), field[1]);
    pos->actor = field[1][0] == 'w' ? WHITE : BLACK;
    const char *sc = flen[2] == 1 ? strchr(STATE_CHARS, field[2][0]) : NULL;
    if (!sc || !*sc)
        return error_set(err, "state: '%.*s', expected one of P M R X r x -", (int)(flen[2] > 8 ? 8 : flen[2]), field[2]);
    pos->state = (uint8_t)(sc - STATE_CHARS);
    int variant;
    if (variant_read(field[3], flen[3], &variant, err)) return -1;
    pos->variant = (uint8_t)variant;
    return validate(pos, err);
}

char *ypn_format(const Position *pos, char *out)
{
    char *o = out;
    for (int col = 0; col < 11; col++) {
        int lo, hi, run = 0;
        column_rows(col, &lo, &hi);
        if (col) *o++ = '/';
        for (int r = lo; r <= hi; r++) {
            Point p = point_make(col, r);
            char c = bb_test(pos->rings[WHITE], p)     ? 'W'
                     : bb_test(pos->rings[BLACK], p)   ? 'B'
                     : bb_test(pos->markers[WHITE], p) ? 'w'
                     : bb_test(pos->markers[BLACK], p) ? 'b'
                                                       : 0;
            if (!c) {
                run++;
                continue;
            }
            if (run) o += sprintf(o, "%d", run);
            run = 0;
            *o++ = c;
        }
        if (run) o += sprintf(o, "%d", run);
    }
    sprintf(o, " %c %c %s", pos->actor == WHITE ? 'w' : 'b', STATE_CHARS[pos->state], variant_name(pos->variant));
    return out;
}

bool point_parse(const char *text, size_t len, Point *p)
{
    if (len < 2 || len > 3) return false;
    int col = tolower((unsigned char)text[0]) - 'a';
    if (col < 0 || col > 10) return false;
    int row = 0;
    for (size_t i = 1; i < len; i++) {
        if (!isdigit((unsigned char)text[i])) return false;
        row = row * 10 + (text[i] - '0');
    }
    if (text[1] == '0' || !point_valid(col, row)) return false;
    *p = point_make(col, row);
    return true;
}

char *point_format(Point p, char *out)
{
    sprintf(out, "%c%d", 'a' + point_col(p), point_row(p));
    return out;
}

char *action_format(Action a, char *out)
{
    char p[4], q[4];
    switch (ACTION_KIND(a)) {
    case ACT_PLACE: return point_format(ACTION_FROM(a), out);
    case ACT_MOVE: sprintf(out, "%s-%s", point_format(ACTION_FROM(a), p), point_format(ACTION_TO(a), q)); break;
    case ACT_PASS: strcpy(out, "pass"); break;
    case ACT_SWAP: strcpy(out, "swap"); break;
    case ACT_ROW: sprintf(out, "x%s-%s", point_format(ACTION_FROM(a), p), point_format(ACTION_TO(a), q)); break;
    case ACT_RING: sprintf(out, "x%s", point_format(ACTION_FROM(a), p)); break;
    default: strcpy(out, "?"); break;
    }
    return out;
}

static const char *state_needs(int state)
{
    switch (state) {
    case STATE_P: return "a ring placement like e5 (or swap, §9.1)";
    case STATE_M: return "a move like e5-e8, or pass";
    case STATE_R: case STATE_r: return "a row removal like xe2-e6";
    case STATE_X: case STATE_x: return "a ring removal like xe5";
    default: return "no action: the game is over";
    }
}

/* The text as it is shown in messages: cut at 20 characters. */
static const char *action_shown(const char *text, char shown[24])
{
    size_t len = strlen(text);
    snprintf(shown, 24, "%.20s%s", text, len > 20 ? "..." : "");
    return shown;
}

int action_parse_form(const char *text, Action *out, char *err)
{
    size_t len = strlen(text);
    char shown[24];
    action_shown(text, shown);
    Action a;
    Point p, q;
    const char *dash = memchr(text, '-', len);
    if (len == 4 && !strncasecmp(text, "pass", 4)) {
        a = ACTION_MAKE(ACT_PASS, 0, 0);
    } else if (len == 4 && !strncasecmp(text, "swap", 4)) {
        a = ACTION_SWAP;
    } else if (len > 0 && (text[0] == 'x' || text[0] == 'X')) {
        if (dash) {
            if (!point_parse(text + 1, (size_t)(dash - text - 1), &p) ||
                !point_parse(dash + 1, (size_t)(text + len - dash - 1), &q))
                return error_set(err, "'%s': malformed row removal (expected x<point>-<point>, e.g. xe2-e6)", shown);
            if (p > q) { Point t = p; p = q; q = t; }
            a = ACTION_MAKE(ACT_ROW, p, q);
        } else {
            if (!point_parse(text + 1, len - 1, &p))
                return error_set(err, "'%s': malformed ring removal (expected x<point>, e.g. xe5)", shown);
            a = ACTION_MAKE(ACT_RING, p, 0);
        }
    } else if (dash) {
        if (!point_parse(text, (size_t)(dash - text), &p) || !point_parse(dash + 1, (size_t)(text + len - dash - 1), &q))
            return error_set(err, "'%s': malformed move (expected <point>-<point>, e.g. e5-e8, on the board's 85 points)", shown);
        a = ACTION_MAKE(ACT_MOVE, p, q);
    } else {
        if (!point_parse(text, len, &p))
            return error_set(err, "'%s': not an action (expected e5, e5-e8, pass, swap, xe2-e6 or xe5, on the board's 85 points)", shown);
        a = ACTION_MAKE(ACT_PLACE, p, 0);
    }
    *out = a;
    return 0;
}

int action_parse(const Position *pos, const char *text, Action *out, char *err)
{
    char shown[24];
    Action a;
    if (action_parse_form(text, &a, err)) return -1;
    action_shown(text, shown);
    Point p = ACTION_FROM(a);
    if (!movegen_is_legal(pos, a)) {
        static const int state_kind[STATE_NB] = {ACT_PLACE, ACT_MOVE, ACT_ROW, ACT_RING, ACT_ROW, ACT_RING, 0};
        int k = ACTION_KIND(a);
        if (pos->state == STATE_END) return error_set(err, "'%s': illegal: the game is over", shown);
        if (k == ACT_SWAP) {
            if (!(pos->variant & VARIANT_SWAP))
                return error_set(err, "'%s': illegal: swap is a rule of the +swap variants, this game is %s", shown,
                                 variant_name(pos->variant));
            return error_set(err, "'%s': illegal: swap is Black's answer to White's first ring, and only then", shown);
        }
        if (k != state_kind[pos->state] && !(k == ACT_PASS && pos->state == STATE_M))
            return error_set(err, "'%s': illegal in state %c: %s acts with %s", shown, STATE_CHARS[pos->state],
                        pos->actor == WHITE ? "White" : "Black", state_needs(pos->state));
        switch (k) {
        case ACT_PLACE: return error_set(err, "'%s': illegal: the point is occupied", shown);
        case ACT_PASS: return error_set(err, "'%s': illegal: pass is allowed only when no ring of the mover can move and the other player can", shown);
        case ACT_RING: return error_set(err, "'%s': illegal: no %s ring there", shown, pos->actor == WHITE ? "white" : "black");
        case ACT_ROW: return error_set(err, "'%s': illegal: not 5 %s markers in a line", shown, pos->actor == WHITE ? "white" : "black");
        default:
            if (pos->pool == 0) return error_set(err, "'%s': illegal: the marker pool is empty, the game is over", shown);
            if (!bb_test(pos->rings[pos->actor], p))
                return error_set(err, "'%s': illegal: no %s ring on the start point", shown, pos->actor == WHITE ? "white" : "black");
            return error_set(err, "'%s': illegal: the ring cannot move there (not a line, blocked by a ring, occupied, or past the first empty point after markers)", shown);
        }
    }
    *out = a;
    return 0;
}

/* Whether text[i] ends a line: "\n", or a "\r" not followed by "\n" (old
 * Mac files end lines with a lone CR; Windows files with CR LF, counted at
 * the LF). */
static bool ends_line(const char *text, size_t i, size_t len)
{
    return text[i] == '\n' || (text[i] == '\r' && (i + 1 == len || text[i + 1] != '\n'));
}

/* ---- game records with tags (docs/records.md) ------------------------- */

/* The escapes of a tag value: a backslash and a quote are written with a
 * backslash before them, control characters as \n, \r, \t or \xHH, so a
 * value of any text stays on its one line. */
int record_tag_format(const char *key, const char *value, char *out, size_t size)
{
    size_t at = 0;
    int n = snprintf(out, size, "[%s \"", key);
    if (n < 0 || (size_t)n >= size) return -1;
    at = (size_t)n;
    for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
        char esc[TEXT_ESCAPE_LEN];
        size_t len = (size_t)text_escape(*p, '"', esc);
        if (at + len + 3 > size) return -1;
        memcpy(out + at, esc, len);
        at += len;
    }
    memcpy(out + at, "\"]", 3);
    return (int)(at + 2);
}

const char *record_tag(const RecordTags *tags, const char *key)
{
    for (int i = 0; i < tags->n; i++)
        if (!strcmp(tags->key[i], key)) return tags->value[i];
    return NULL;
}

/* One tag line, text[0..len) without its line end: `[Key "value"]`, the
 * key of letters, digits and '_', blanks allowed around the parts. */
static int parse_tag(const char *s, size_t len, RecordTags *tags, int line, char *err)
{
    size_t i = 1, k = 0;
    char key[RECORD_KEY_LEN], value[RECORD_VALUE_LEN];
    while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
    while (i < len && (isalnum((unsigned char)s[i]) || s[i] == '_')) {
        if (k + 1 == sizeof key) return error_set(err, "record: line %d: tag name longer than %d characters", line, RECORD_KEY_LEN - 1);
        key[k++] = s[i++];
    }
    key[k] = 0;
    if (!k) return error_set(err, "record: line %d: a tag is [Name \"value\"]: no name", line);
    while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
    if (i == len || s[i] != '"') return error_set(err, "record: line %d: tag %s: the value must be in double quotes", line, key);
    size_t v = 0;
    for (i++;; i++) {
        if (i >= len) return error_set(err, "record: line %d: tag %s: the value has no closing quote", line, key);
        char c = s[i];
        if (c == '"') break;
        if (c == '\\') {
            if (++i >= len) return error_set(err, "record: line %d: tag %s: a backslash ends the line", line, key);
            int used, byte = text_unescape(s + i, len - i, '"', &used);
            if (byte < 0 && s[i] == 'x')
                return error_set(err, "record: line %d: tag %s: \\x wants two hex digits (not 00)", line, key);
            if (byte < 0) return error_set(err, "record: line %d: tag %s: unknown escape '\\%c'", line, key, s[i]);
            c = (char)byte;
            i += (size_t)used - 1;
        } else if (c == '\0') {
            return error_set(err, "record: line %d: tag %s: NUL byte in the value", line, key);
        }
        if (v + 1 == sizeof value) return error_set(err, "record: line %d: tag %s: value longer than %d bytes", line, key, RECORD_VALUE_LEN - 1);
        value[v++] = c;
    }
    value[v] = 0;
    for (i++; i < len && (s[i] == ' ' || s[i] == '\t'); i++) {}
    if (i == len || s[i] != ']') return error_set(err, "record: line %d: tag %s: no ']' after the value", line, key);
    for (i++; i < len && isspace((unsigned char)s[i]); i++) {}
    if (i < len) return error_set(err, "record: line %d: tag %s: text after the ']'", line, key);
    if (record_tag(tags, key)) return error_set(err, "record: line %d: tag %s given twice", line, key);
    if (tags->n == RECORD_TAGS_MAX) return error_set(err, "record: line %d: more than %d tags", line, RECORD_TAGS_MAX);
    memcpy(tags->key[tags->n], key, k + 1);
    memcpy(tags->value[tags->n], value, v + 1);
    tags->n++;
    return 0;
}

void record_reader_init(RecordReader *r, const char *text, size_t len)
{
    *r = (RecordReader){.text = text, .len = len, .line = 1};
}

/* Skips white space, counting lines. */
static void skip_space(RecordReader *r)
{
    while (r->at < r->len && isspace((unsigned char)r->text[r->at])) r->line += ends_line(r->text, r->at++, r->len);
}

bool record_reader_more(RecordReader *r)
{
    skip_space(r);
    return r->at < r->len;
}

/* The end of the line that starts at i: the index of its '\n' or '\r' or len. */
static size_t line_end(const char *text, size_t i, size_t len)
{
    while (i < len && text[i] != '\n' && text[i] != '\r') i++;
    return i;
}

int record_next(RecordReader *r, RecordTags *tags, Position *pos, int *count, char *err)
{
    const char *text = r->text;
    size_t len = r->len, i, eol;
    char ypn[YPN_MAX_LEN * 2], msg[ERR_LEN];
    *count = 0;
    tags->n = 0;
    /* the tags: lines that begin with '[', blank lines between them */
    for (skip_space(r); r->at < len && text[r->at] == '['; skip_space(r)) {
        eol = line_end(text, r->at, len);
        if (memchr(text + r->at, 0, eol - r->at)) return error_set(err, "record: line %d: NUL byte in a tag", r->line);
        if (parse_tag(text + r->at, eol - r->at, tags, r->line, err)) return -1;
        r->at = eol;
    }
    if (r->at == len) return error_set(err, "record: no start position%s", tags->n ? " after the tags" : "");
    /* the start position: the rest of the line */
    i = r->at;
    eol = line_end(text, i, len);
    size_t end = eol;
    while (end > i && isspace((unsigned char)text[end - 1])) end--;
    if (end - i >= sizeof ypn) return error_set(err, "record: line %d: start position is too long", r->line);
    memcpy(ypn, text + i, end - i);
    ypn[end - i] = 0;
    if (memchr(ypn, 0, end - i)) return error_set(err, "record: line %d: NUL byte in the start position", r->line);
    if (ypn_parse(ypn, pos, msg)) return error_set(err, "record: line %d: invalid start position: %s", r->line, msg);
    /* the actions, up to the end or a line that begins with '[' (the next
     * record's tags) */
    bool line_start = false;
    for (i = eol; i < len;) {
        if (isspace((unsigned char)text[i])) {
            if (ends_line(text, i, len)) r->line++, line_start = true;
            i++;
            continue;
        }
        if (line_start && text[i] == '[') break;
        line_start = false;
        size_t start = i;
        while (i < len && !isspace((unsigned char)text[i])) i++;
        char tok[ACTION_MAX_LEN + 8];
        size_t tl = i - start < sizeof tok - 1 ? i - start : sizeof tok - 1;
        memcpy(tok, text + start, tl);
        tok[tl] = 0;
        Action a;
        if (i - start >= sizeof tok - 1 || memchr(tok, 0, tl)) {
            snprintf(msg, sizeof msg, "'%.12s...': not an action", tok);
            r->at = i;
            return error_set(err, "record: action %d (line %d): %s", *count + 1, r->line, msg);
        }
        if (action_parse(pos, tok, &a, msg)) {
            r->at = i;
            return error_set(err, "record: action %d (line %d): %s", *count + 1, r->line, msg);
        }
        Undo u;
        pos_make(pos, a, &u);
        (*count)++;
    }
    r->at = i;
    r->records++;
    return 0;
}

int record_play(const char *text, size_t len, Position *pos, int *count, char *err)
{
    RecordReader r;
    RecordTags tags;
    record_reader_init(&r, text, len);
    if (record_next(&r, &tags, pos, count, err)) return -1;
    if (record_reader_more(&r))
        return error_set(err, "record: line %d: a second record begins here (`yinsh replay` reads a stream of them)", r.line);
    return 0;
}

int record_check(const RecordTags *tags, int variant, int count, int result, int reason, char *err)
{
    const char *v;
    if ((v = record_tag(tags, "Variant")) && strcmp(v, variant_name(variant)))
        return error_set(err, "the record's Variant is '%.64s', its start position is %s", v, variant_name(variant));
    if ((v = record_tag(tags, "Actions"))) {
        char *end;
        long n = strtol(v, &end, 10);
        if (!*v || *end || n < 0) return error_set(err, "the record's Actions '%.64s' is not a count", v);
        if (n != count) return error_set(err, "the record says %ld actions, it holds %d", n, count);
    }
    /* a resignation, or a fault (an engine's illegal action, death, silence,
     * error or flag), ends a game that the rules had not ended: the
     * record's result is the other side's win, which no replay can check */
    const char *why = record_tag(tags, "Reason");
    bool stopped = false;
    for (int r = REASON_RESIGN; why && r < REASON_NB; r++) stopped |= !strcmp(why, reason_name(r));
    if (stopped && result == RESULT_NONE) {
        v = record_tag(tags, "Result");
        if (v && strcmp(v, result_name(RESULT_WHITE)) && strcmp(v, result_name(RESULT_BLACK)))
            return error_set(err, "the record's Result is '%.64s': a game ended by %s is won by white or black", v,
                             why);
        return 0;
    }
    if ((v = record_tag(tags, "Result")) && strcmp(v, result_name(result)))
        return error_set(err, "the record's Result is '%.64s', the replay gives %s", v, result_name(result));
    if ((v = record_tag(tags, "Reason")) && strcmp(v, reason_name(reason)))
        return error_set(err, "the record's Reason is '%.64s', the replay gives %s", v, reason_name(reason));
    return 0;
}

const char *result_name(int result)
{
    static const char *const n[RESULT_NB] = {"none", "white", "black", "draw"};
    return result >= 0 && result < RESULT_NB ? n[result] : "?";
}

int result_parse(const char *text)
{
    for (int r = RESULT_WHITE; text && r <= RESULT_DRAW; r++)
        if (!strcmp(text, result_name(r))) return r;
    return RESULT_NONE;
}

const char *reason_name(int reason)
{
    static const char *const n[REASON_NB] = {"none",           "three-rings",   "blitz-row",
                                                 "pool-empty",     "no-moves",      "resign",
                                                 "illegal-action", "engine-died",   "no-answer",
                                                 "time-forfeit",   "engine-error"};
    return reason >= 0 && reason < REASON_NB ? n[reason] : "?";
}

/* Every combination's name: the base game, then the options in this order. */
static const char *const VARIANT_NAMES[VARIANT_NB] = {
    "standard",           "blitz",           "standard+swap",           "blitz+swap",
    "standard+draw-odds", "blitz+draw-odds", "standard+swap+draw-odds", "blitz+swap+draw-odds",
};

const char *variant_name(int variant) { return variant >= 0 && variant < VARIANT_NB ? VARIANT_NAMES[variant] : "?"; }

int variant_read(const char *text, size_t len, int *variant, char *err)
{
    const char *end = text + len, *plus = memchr(text, '+', len);
    size_t n = plus ? (size_t)(plus - text) : len;
    int v;
    if (n == 8 && !memcmp(text, "standard", 8)) v = VARIANT_STANDARD;
    else if (n == 5 && !memcmp(text, "blitz", 5)) v = VARIANT_BLITZ;
    else return error_set(err, "variant: '%.*s', expected standard or blitz (then +swap, +draw-odds)", (int)(n > 16 ? 16 : n), text);
    /* the options in canonical order, each once, so that one game has one name */
    static const struct { const char *name; int bit; } OPTION[] = {{"swap", VARIANT_SWAP}, {"draw-odds", VARIANT_DRAW_ODDS}};
    int next = 0;
    for (const char *p = plus; p; p = plus) {
        const char *o = p + 1;
        plus = memchr(o, '+', (size_t)(end - o));
        size_t m = (size_t)((plus ? plus : end) - o);
        int k = 0;
        while (k < 2 && !(strlen(OPTION[k].name) == m && !memcmp(o, OPTION[k].name, m))) k++;
        if (k == 2)
            return error_set(err, "variant: unknown rule option '%.*s' (the options are +swap and +draw-odds)", (int)(m > 16 ? 16 : m), o);
        if (k < next)
            return error_set(err, "variant: option '+%s' %s (options come once each, +swap before +draw-odds)", OPTION[k].name,
                             v & OPTION[k].bit ? "given twice" : "out of order");
        v |= OPTION[k].bit;
        next = k + 1;
    }
    *variant = v;
    return 0;
}

bool variant_parse(const char *text, int *variant) { return variant_read(text, strlen(text), variant, NULL) == 0; }
