/* The board as text (board_text.h). */
#include "engine/board_text.h"
#include <string.h>
#include "engine/notation.h"

/* The board drawn with columns upright and each column half a line above
 * its left neighbour, so the three axes read as vertical, falling and rising
 * lines: point (c, r) goes to text line 2 (11 - r) + c, text column 4 c.
 * Column letters head and foot the drawing; each row number stands left of
 * the row's first point. */
void board_text_draw(const Position *pos, FILE *f)
{
    enum { LINES = 32, WIDTH = 52, X0 = 4 };
    char screen[LINES][WIDTH + 1];
    memset(screen, ' ', sizeof screen);
    int top = LINES, bottom = 0;
    for (int n = 0; n < POINT_NB; n++) {
        Point p = GEO->point_of[n];
        int c = point_col(p), r = point_row(p), line = 2 * (11 - r) + c, x = X0 + 4 * c;
        char ch = bb_test(pos->rings[WHITE], p)     ? 'W'
                  : bb_test(pos->rings[BLACK], p)   ? 'B'
                  : bb_test(pos->markers[WHITE], p) ? 'w'
                  : bb_test(pos->markers[BLACK], p) ? 'b'
                                                    : '.';
        screen[line][x] = ch;
        if (line < top) top = line;
        if (line > bottom) bottom = line;
        if (c == 0 || !point_valid(c - 1, r)) {
            char num[4];
            int len = snprintf(num, sizeof num, "%d", r);
            memcpy(&screen[line][x - 1 - len], num, (size_t)len);
        }
    }
    char letters[WIDTH + 1];
    memset(letters, ' ', sizeof letters);
    for (int c = 0; c < 11; c++) letters[X0 + 4 * c] = (char)('a' + c);
    int width = X0 + 4 * 10 + 1;
    fprintf(f, "%.*s\n\n", width, letters);
    for (int l = top; l <= bottom; l++) {
        int end = WIDTH;
        while (end > 0 && screen[l][end - 1] == ' ') end--;
        fprintf(f, "%.*s\n", end, screen[l]);
    }
    fprintf(f, "\n%.*s\n", width, letters);
}

void board_text_describe(const Position *pos, FILE *f)
{
    static const char *state_text[STATE_NB] = {
        "places a ring", "moves a ring", "removes a row (own move)", "removes a ring (own row)",
        "removes a row (made by the opponent)", "removes a ring (row made by the opponent)", "acted last: game over"};
    int result, reason;
    fprintf(f, "\nW/B rings, w/b markers, . empty\n%s %s, %s variant; rings removed: white %d, black %d; markers in pool: %d\n",
            pos->actor == WHITE ? "White" : "Black", state_text[pos->state], variant_name(pos->variant),
            pos->removed[WHITE], pos->removed[BLACK], pos->pool);
    if (pos_outcome(pos, &result, &reason))
        fprintf(f, "result: %s (%s)\n", result_name(result), reason_name(reason));
}
