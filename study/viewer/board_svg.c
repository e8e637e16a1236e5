/* The board drawing (board_svg.h): layout, templates, marks, documents. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "engine/base/error.h"
#include "study/viewer/board_svg.h"
#include "engine/geometry.h"
#include "engine/base/json.h"
#include "engine/notation.h"

/* ---- layout ------------------------------------------------------------
 *
 * A point (column c, row r) is at c (sqrt 3)/2 units right and c/2 - r
 * units down from a2's column top: columns stand upright, and the other
 * two axes (column + 1; column + 1 and row + 1) fall and rise at 30
 * degrees, so every line of the board is a straight line of the drawing
 * and neighbours are one unit apart. Coordinates are whole numbers of the
 * view box, so that C and the page write them alike. */

enum {
    UNIT = 40,            /* one step between neighbouring points */
    VIEW_W = 450, VIEW_H = 530,
    X0 = 52, Y0 = 408,    /* where (c, r) = (0, 0) would be */
    SLOT_Y = 28, SLOT_X = 80, SLOT_STEP = 38,
    TEXT_Y = 510, TEXT_MARGIN = 14,
};

static int xy_x(double c) { return (int)lround(X0 + c * UNIT * 0.8660254037844386); }
static int xy_y(double c, double r) { return (int)lround(Y0 + (c / 2 - r) * UNIT); }

static void place_xy(int place, int *x, int *y)
{
    if (place >= BOARD_SLOT0) {
        int colour = (place - BOARD_SLOT0) / RINGS_TO_WIN, k = (place - BOARD_SLOT0) % RINGS_TO_WIN;
        *x = colour == WHITE ? SLOT_X + SLOT_STEP * k : VIEW_W - SLOT_X - SLOT_STEP * k;
        *y = SLOT_Y;
        return;
    }
    *x = xy_x(point_col(place));
    *y = xy_y(point_col(place), point_row(place));
}

static char *place_name(int place, char *out)
{
    if (place < BOARD_SLOT0) return point_format(place, out);
    int k = place - BOARD_SLOT0;
    sprintf(out, "%c%d", k < RINGS_TO_WIN ? 'W' : 'B', k % RINGS_TO_WIN + 1);
    return out;
}

/* ---- templates ---------------------------------------------------------
 *
 * Every piece of the drawing is one of these texts with its places filled
 * in: {x} {y} (and {x2} {y2} for a path or a row) are view-box
 * coordinates, {text} a text, and the document's own parts are {open},
 * {board}, {marks}, {pieces}, {texts}, {w}, {h}. The page fills the same
 * templates (board.js), one pass, so a value is never read as a template. */

static const char DOC_OPEN[] =
    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 450 530\" "
    "font-family=\"DejaVu Sans, Verdana, sans-serif\">";
static const char DOC_FRAME[] = "{open}<g class=\"board\">{board}</g><g class=\"marks\">{marks}</g>"
                                "<g class=\"pieces\">{pieces}</g><g class=\"texts\">{texts}</g></svg>";
static const char TEXT_STATUS[] =
    "<text class=\"status\" x=\"14\" y=\"510\" font-size=\"15\" fill=\"#3b2d16\">{text}</text>";
static const char TEXT_LAST[] = "<text class=\"last\" x=\"436\" y=\"510\" font-size=\"15\" fill=\"#3b2d16\" "
                                "text-anchor=\"end\">last: {text}</text>";

#define ORANGE "#e8891c"
#define RED "#c0392b"
#define IVORY "#fbfaf4"
#define INK "#1e1e1e"

static const struct {
    char kind;
    const char *svg;
} MARK_SVG[] = {
    {'W', "<g class=\"ring-w\"><circle cx=\"{x}\" cy=\"{y}\" r=\"15\" fill=\"none\" stroke=\"#2b2b2b\" "
          "stroke-width=\"9\"/><circle cx=\"{x}\" cy=\"{y}\" r=\"15\" fill=\"none\" stroke=\"" IVORY "\" "
          "stroke-width=\"6\"/></g>"},
    {'B', "<circle class=\"ring-b\" cx=\"{x}\" cy=\"{y}\" r=\"15\" fill=\"none\" stroke=\"" INK "\" "
          "stroke-width=\"9\"/>"},
    {'w', "<circle class=\"marker-w\" cx=\"{x}\" cy=\"{y}\" r=\"10\" fill=\"" IVORY "\" stroke=\"#2b2b2b\" "
          "stroke-width=\"1.5\"/>"},
    {'b', "<circle class=\"marker-b\" cx=\"{x}\" cy=\"{y}\" r=\"10\" fill=\"" INK "\" stroke=\"#000\" "
          "stroke-width=\"1.5\"/>"},
    {'p', "<line class=\"path\" x1=\"{x}\" y1=\"{y}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"" ORANGE "\" "
          "stroke-width=\"10\" stroke-linecap=\"round\" stroke-opacity=\"0.55\"/>"},
    {'f', "<circle class=\"flip\" cx=\"{x}\" cy=\"{y}\" r=\"14.5\" fill=\"" ORANGE "\"/>"},
    {'n', "<circle class=\"placed\" cx=\"{x}\" cy=\"{y}\" r=\"22\" fill=\"none\" stroke=\"" ORANGE "\" "
          "stroke-width=\"3.5\"/>"},
    {'r', "<line class=\"row\" x1=\"{x}\" y1=\"{y}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"" RED "\" "
          "stroke-width=\"12\" stroke-linecap=\"round\" stroke-opacity=\"0.35\"/>"},
    {'x', "<circle class=\"gone-w\" cx=\"{x}\" cy=\"{y}\" r=\"10\" fill=\"" IVORY "\" fill-opacity=\"0.6\" "
          "stroke=\"" RED "\" stroke-width=\"1.5\" stroke-dasharray=\"3 2\"/>"},
    {'y', "<circle class=\"gone-b\" cx=\"{x}\" cy=\"{y}\" r=\"10\" fill=\"" INK "\" fill-opacity=\"0.35\" "
          "stroke=\"" RED "\" stroke-width=\"1.5\" stroke-dasharray=\"3 2\"/>"},
    {'z', "<circle class=\"gone-ring\" cx=\"{x}\" cy=\"{y}\" r=\"15\" fill=\"none\" stroke=\"" RED "\" "
          "stroke-width=\"3\" stroke-dasharray=\"5 3\"/>"},
};
enum { MARK_KIND_NB = sizeof MARK_SVG / sizeof MARK_SVG[0] };

static const char *mark_svg(char kind)
{
    for (int i = 0; i < MARK_KIND_NB; i++)
        if (MARK_SVG[i].kind == kind) return MARK_SVG[i].svg;
    return "";
}

/* Writes tpl with each {key} replaced by the value of that key (keys[i]
 * -> vals[i]); an unknown key is left as it is. One pass: the values are
 * never searched for keys. */
static void fill(FILE *f, const char *tpl, const char *const *keys, const char *const *vals, int n)
{
    for (const char *p = tpl; *p; p++) {
        const char *end = *p == '{' ? strchr(p, '}') : NULL;
        int k = -1;
        for (int i = 0; end && i < n && k < 0; i++)
            if (strlen(keys[i]) == (size_t)(end - p - 1) && !strncmp(keys[i], p + 1, (size_t)(end - p - 1))) k = i;
        if (k < 0) {
            fputc(*p, f);
            continue;
        }
        fputs(vals[k], f);
        p = end;
    }
}

static void put_mark(FILE *f, const BoardMark *m)
{
    static const char *const keys[] = {"x", "y", "x2", "y2"};
    char v[4][12];
    int x, y, x2 = 0, y2 = 0;
    place_xy(m->at, &x, &y);
    if (m->to >= 0) place_xy(m->to, &x2, &y2);
    snprintf(v[0], 12, "%d", x);
    snprintf(v[1], 12, "%d", y);
    snprintf(v[2], 12, "%d", x2);
    snprintf(v[3], 12, "%d", y2);
    const char *vals[] = {v[0], v[1], v[2], v[3]};
    fill(f, mark_svg(m->kind), keys, vals, 4);
}

/* tpl with {text}: the text, & < > escaped for XML. */
static void put_text(FILE *f, const char *tpl, const char *text)
{
    char buf[5 * BOARD_TEXT_LEN + 1];
    size_t at = 0;
    for (const char *s = text; *s && at + 6 < sizeof buf; s++) {
        const char *e = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : NULL;
        if (e) at += (size_t)sprintf(buf + at, "%s", e);
        else buf[at++] = *s;
    }
    buf[at] = '\0';
    static const char *const keys[] = {"text"};
    const char *vals[] = {buf};
    fill(f, tpl, keys, vals, 1);
}

/* ---- the board layer ----------------------------------------------------- */

/* The point before (c, r) on an axis: row - 1, column - 1, both - 1. */
static bool before_valid(int c, int r, int axis)
{
    static const int dc[AXIS_NB] = {0, -1, -1}, dr[AXIS_NB] = {-1, 0, -1};
    return point_valid(c + dc[axis], r + dr[axis]);
}

static void put_board(FILE *f)
{
    /* the hexagon behind the grid: the six corners a1 f1 k6 k11 f11 a6
     * pushed out from f6 by a tenth, so rings on the edge stay on it */
    static const int corner[6][2] = {{0, 1}, {5, 1}, {10, 6}, {10, 11}, {5, 11}, {0, 6}};
    fprintf(f, "<rect width=\"%d\" height=\"%d\" rx=\"12\" fill=\"#f4ead3\"/>", VIEW_W, VIEW_H);
    fprintf(f, "<polygon class=\"hex\" points=\"");
    double cx = X0 + 5 * UNIT * 0.8660254037844386, cy = Y0 + (2.5 - 6) * UNIT;
    for (int i = 0; i < 6; i++) {
        double x = xy_x(corner[i][0]), y = xy_y(corner[i][0], corner[i][1]);
        fprintf(f, "%s%ld,%ld", i ? " " : "", lround(cx + 1.1 * (x - cx)), lround(cy + 1.1 * (y - cy)));
    }
    fprintf(f, "\" fill=\"#e7d09f\" stroke=\"#e7d09f\" stroke-width=\"16\" stroke-linejoin=\"round\"/>");

    /* each line once, from its first point to its last */
    fprintf(f, "<path class=\"lines\" fill=\"none\" stroke=\"#7a5e33\" stroke-width=\"1.4\" "
               "stroke-linecap=\"round\" d=\"");
    bool first = true;
    for (int axis = 0; axis < AXIS_NB; axis++)
        for (int n = 0; n < POINT_NB; n++) {
            Point p = GEO->point_of[n], q = p;
            int c = point_col(p), r = point_row(p);
            if (before_valid(c, r, axis) || !GEO->ray_len[p][axis]) continue;
            q = GEO->ray_pt[p][axis][GEO->ray_len[p][axis] - 1];
            fprintf(f, "%sM%d %dL%d %d", first ? "" : " ", xy_x(c), xy_y(c, r), xy_x(point_col(q)),
                    xy_y(point_col(q), point_row(q)));
            first = false;
        }
    fprintf(f, "\"/>");

    fprintf(f, "<g fill=\"#5b4522\">");
    for (int n = 0; n < POINT_NB; n++) {
        int x, y;
        place_xy(GEO->point_of[n], &x, &y);
        fprintf(f, "<circle class=\"point\" cx=\"%d\" cy=\"%d\" r=\"2.8\"/>", x, y);
    }
    fprintf(f, "</g>");

    /* coordinates where the missing neighbour would be: a letter below
     * each column's lowest point, a number before each row's first */
    fprintf(f, "<g class=\"coords\" font-size=\"13\" fill=\"#6e5531\" text-anchor=\"middle\" "
               "dominant-baseline=\"central\">");
    for (int c = 0; c < 11; c++) {
        int r = 1;
        while (!point_valid(c, r)) r++;
        fprintf(f, "<text x=\"%d\" y=\"%d\">%c</text>", xy_x(c), xy_y(c, r - 0.7), 'a' + c);
    }
    for (int r = 1; r <= 11; r++) {
        int c = 0;
        while (!point_valid(c, r)) c++;
        fprintf(f, "<text x=\"%d\" y=\"%d\">%d</text>", xy_x(c - 0.7), xy_y(c - 0.7, r), r);
    }
    fprintf(f, "</g>");

    /* the slots for removed rings, and whose they are */
    fprintf(f, "<g class=\"slots\" fill=\"none\" stroke=\"#b39868\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\">");
    for (int s = BOARD_SLOT0; s < BOARD_PLACE_NB; s++) {
        int x, y;
        place_xy(s, &x, &y);
        fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"15\"/>", x, y);
    }
    fprintf(f, "</g><g font-size=\"14\" fill=\"#3b2d16\" dominant-baseline=\"central\">"
               "<text x=\"%d\" y=\"%d\">White</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\">Black</text></g>",
            TEXT_MARGIN, SLOT_Y, VIEW_W - TEXT_MARGIN, SLOT_Y);
}

/* The board layer as a string (malloc'ed; NULL when out of memory). */
static char *board_layer(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return NULL;
    put_board(m);
    fclose(m);
    return buf;
}

/* ---- marks ------------------------------------------------------------- */

/* YPN's letters of the states (docs/notation.md §2), for messages. */


static void add(BoardMark *marks, int *n, char kind, int at, int to)
{
    if (*n < BOARD_MARKS_MAX) marks[(*n)++] = (BoardMark){.kind = kind, .at = (short)at, .to = (short)to};
}

static int direction(Point from, Point to)
{
    for (int d = 0; d < DIR_NB; d++)
        if (bb_test(GEO->ray[from][d], to)) return d;
    return -1;
}

int board_last_marks(const Position *pos, Action a, BoardMark *marks, int *n, char *err)
{
    char act[ACTION_MAX_LEN], p1[4], p2[4];
    Point from = ACTION_FROM(a), to = ACTION_TO(a);
    Bitboard rings = pos->rings[WHITE] | pos->rings[BLACK], markers = pos->markers[WHITE] | pos->markers[BLACK];
    action_format(a, act);
    point_format(from, p1);
    point_format(to, p2);
    switch (ACTION_KIND(a)) {
    case ACT_PLACE:
        if (!bb_test(rings, from)) return error_set(err, "last action %s: there is no ring on %s", act, p1);
        add(marks, n, 'n', from, -1);
        return 0;
    case ACT_SWAP:
        /* White's first ring turned Black's: Black holds one ring, White none,
         * and White places (§9.1); the ring is marked as a placed one */
        if (!(pos->variant & VARIANT_SWAP) || pos->state != STATE_P || pos->actor != WHITE || pos->rings[WHITE] ||
            bb_popcount(pos->rings[BLACK]) != 1)
            return error_set(err, "last action swap: a swap leaves Black one ring and White to place it again "
                                  "(state P, a +swap variant), not this position");
        add(marks, n, 'n', bb_lsb(pos->rings[BLACK]), -1);
        return 0;
    case ACT_PASS:
        if (pos->state != STATE_M)
            return error_set(err, "last action pass: a pass is followed by the other player's move (state M), not state %c",
                        STATE_CHARS[pos->state]);
        return 0;
    case ACT_MOVE: {
        int d = direction(from, to);
        int colour = bb_test(pos->rings[WHITE], to) ? WHITE : bb_test(pos->rings[BLACK], to) ? BLACK : -1;
        if (d < 0) return error_set(err, "last action %s: %s and %s are not on one line", act, p1, p2);
        if (colour < 0) return error_set(err, "last action %s: the ring ends on %s, and there is no ring there", act, p2);
        if (!bb_test(pos->markers[colour], from))
            return error_set(err, "last action %s: the move leaves a %s marker on %s, and there is none", act,
                        colour == WHITE ? "white" : "black", p1);
        Bitboard between = bb_between(from, to, d);
        if (between & rings) return error_set(err, "last action %s: a ring stands between %s and %s", act, p1, p2);
        add(marks, n, 'p', from, to);
        for (Bitboard b = between & markers; b; b &= b - 1) add(marks, n, 'f', bb_lsb(b), -1);
        return 0;
    }
    case ACT_ROW: {
        Bitboard row = 0;
        for (int axis = 0; axis < AXIS_NB && !row; axis++)
            if (bb_test(GEO->row5[from][axis], to)) row = GEO->row5[from][axis];
        if (!row) return error_set(err, "last action %s: %s and %s are not the ends of a row of 5", act, p1, p2);
        if (row & (rings | markers)) return error_set(err, "last action %s: the row's points are not empty", act);
        if (pos->state != STATE_X && pos->state != STATE_x)
            return error_set(err, "last action %s: a row removal is followed by a ring removal (state X or x), not state %c",
                        act, STATE_CHARS[pos->state]);
        add(marks, n, 'r', from, to);
        for (Bitboard b = row; b; b &= b - 1) add(marks, n, pos->actor == WHITE ? 'x' : 'y', bb_lsb(b), -1);
        return 0;
    }
    case ACT_RING:
        if (bb_test(rings | markers, from)) return error_set(err, "last action %s: %s is not empty", act, p1);
        if (pos->state == STATE_P) return error_set(err, "last action %s: no ring is removed while rings are placed", act);
        add(marks, n, 'z', from, -1);
        return 0;
    }
    return error_set(err, "last action: not an action");
}

void board_slot_marks(const Position *pos, BoardMark *marks, int *n)
{
    for (int c = 0; c < COLOUR_NB; c++)
        for (int k = 0; k < pos->removed[c] && k < RINGS_TO_WIN; k++)
            add(marks, n, c == WHITE ? 'W' : 'B', BOARD_SLOT0 + RINGS_TO_WIN * c + k, -1);
}

char *board_marks_text(const BoardMark *marks, int n, char *out)
{
    char a[4], b[4];
    size_t at = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++)
        at += (size_t)snprintf(out + at, BOARD_MARKS_TEXT - at, "%s%c%s%s", i ? " " : "", marks[i].kind,
                               place_name(marks[i].at, a), marks[i].to >= 0 ? place_name(marks[i].to, b) : "");
    return out;
}

/* ---- status -------------------------------------------------------------- */

int board_status(const Position *pos)
{
    int result, reason;
    if (pos_outcome(pos, &result, &reason)) return BOARD_STATUS_END + result * REASON_NB + reason;
    return pos->actor * STATE_NB + pos->state;
}

char *board_status_text(int code, char out[BOARD_TEXT_LEN])
{
    static const char *const side[COLOUR_NB] = {"White", "Black"};
    static const char *const doing[STATE_NB] = {
        "to place a ring", "to move", "to remove a row", "to remove a ring",
        "to remove a row made by ", "to remove a ring (a row made by ", "acted last"};
    static const char *const result[RESULT_NB] = {"Game over", "White wins", "Black wins", "Draw"};
    static const char *const reason[REASON_NB] = {"", ": three rings removed", ": a row (blitz)",
                                                  ": the marker pool is empty", ": no one can move",
                                                  ": resigned", ": an illegal action (fault)",
                                                  ": an engine died (fault)", ": an engine did not answer (fault)",
                                                  ": lost on time", ": an engine error (fault)"};
    if (code < 0 || code >= BOARD_STATUS_NB) {
        snprintf(out, BOARD_TEXT_LEN, "?");
    } else if (code < BOARD_STATUS_END) {
        int actor = code / STATE_NB, state = code % STATE_NB;
        snprintf(out, BOARD_TEXT_LEN, "%s %s%s%s", side[actor], doing[state],
                 state == STATE_r || state == STATE_x ? side[!actor] : "", state == STATE_x ? ")" : "");
    } else {
        code -= BOARD_STATUS_END;
        snprintf(out, BOARD_TEXT_LEN, "%s%s", result[code / REASON_NB], reason[code % REASON_NB]);
    }
    return out;
}

/* ---- documents ------------------------------------------------------------ */

int board_svg_write(FILE *f, const Position *pos, const char *last, int px, char *err)
{
    BoardMark marks[BOARD_MARKS_MAX];
    int n = 0;
    Action a;
    char why[ERR_LEN];
    if (last && action_parse_form(last, &a, why)) return error_set(err, "last action %s", why);
    if (last && board_last_marks(pos, a, marks, &n, err)) return -1;
    board_slot_marks(pos, marks, &n);

    char *parts[5] = {0}, status[BOARD_TEXT_LEN], act[ACTION_MAX_LEN], w[16], h[16];
    size_t len;
    FILE *m;
    int rc = -1;
    snprintf(w, sizeof w, "%d", px);
    snprintf(h, sizeof h, "%ld", lround((double)px * VIEW_H / VIEW_W));
    static const char *const open_keys[] = {"w", "h"};
    const char *open_vals[] = {w, h};
#define PART(i, body)                                       \
    do {                                                    \
        if (!(m = open_memstream(&parts[i], &len))) goto oom; \
        body;                                               \
        fclose(m);                                          \
    } while (0)
    PART(0, fill(m, DOC_OPEN, open_keys, open_vals, 2));
    PART(1, put_board(m));
    PART(2, for (int i = 0; i < n; i++) put_mark(m, &marks[i]));
    PART(3, for (int k = 0; k < POINT_NB; k++) {
        Point p = GEO->point_of[k];
        char kind = bb_test(pos->rings[WHITE], p)     ? 'W'
                    : bb_test(pos->rings[BLACK], p)   ? 'B'
                    : bb_test(pos->markers[WHITE], p) ? 'w'
                    : bb_test(pos->markers[BLACK], p) ? 'b'
                                                      : 0;
        if (kind) put_mark(m, &(BoardMark){.kind = kind, .at = (short)p, .to = -1});
    });
    PART(4, {
        put_text(m, TEXT_STATUS, board_status_text(board_status(pos), status));
        if (last) put_text(m, TEXT_LAST, action_format(a, act));
    });
#undef PART
    static const char *const keys[] = {"open", "board", "marks", "pieces", "texts"};
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fill(f, DOC_FRAME, keys, (const char *const *)parts, 5);
    fputc('\n', f);
    rc = 0;
oom:
    if (rc) rc = error_set(err, "out of memory");
    for (int i = 0; i < 5; i++) free(parts[i]);
    return rc;
}

int board_svg_script(FILE *f, char *err)
{
    char name[4], text[BOARD_TEXT_LEN];
    char *board = board_layer();
    if (!board) return error_set(err, "out of memory");
    fprintf(f, "/* Written by yinsh view from study/viewer/board_svg.c: the board drawing's tables, the same that\n"
               " * `yinsh svg` draws with. The page fills these templates and decides nothing of the look. */\n"
               "var YINSH_BOARD = ");
    Json j;
    json_begin_script(&j, f);
    json_str(&j, "frame", DOC_FRAME);
    json_str(&j, "open", DOC_OPEN);
    json_str(&j, "board", board);
    json_str(&j, "status", TEXT_STATUS);
    json_str(&j, "last", TEXT_LAST);
    json_object(&j, "marks");
    for (int i = 0; i < MARK_KIND_NB; i++) json_str(&j, (char[]){MARK_SVG[i].kind, '\0'}, MARK_SVG[i].svg);
    json_close(&j);
    json_object(&j, "places");
    for (int n = 0; n < POINT_NB + 2 * RINGS_TO_WIN; n++) {
        int place = n < POINT_NB ? GEO->point_of[n] : BOARD_SLOT0 + n - POINT_NB, x, y;
        place_xy(place, &x, &y);
        json_open(&j, place_name(place, name), '[', true);
        json_int(&j, NULL, x);
        json_int(&j, NULL, y);
        json_close(&j);
    }
    json_close(&j);
    json_array(&j, "columns");
    for (int c = 0; c < 11; c++) {
        json_open(&j, NULL, '[', true);
        for (int r = 1; r <= 11; r++)
            if (point_valid(c, r)) json_str(&j, NULL, point_format(point_make(c, r), name));
        json_close(&j);
    }
    json_close(&j);
    json_array(&j, "statusText");
    for (int code = 0; code < BOARD_STATUS_NB; code++) json_str(&j, NULL, board_status_text(code, text));
    json_close(&j);
    json_close(&j); /* the object, which a statement ends */
    fputs(";\n", f);
    free(board);
    return 0;
}
