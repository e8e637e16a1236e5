/* boardspace.net's YINSH records (SGF as its server writes them), read
 * into our game records and written from them (docs/boardspace.md).
 *
 * Boardspace names points as we do (docs/rules.md §1), a column letter and a
 * row number, upper case with a blank between ("G 11" is our g11). Its
 * moves are commands of the user interface, several to one of our
 * actions: `place w G 11` then `drop board G 9` (or a robot's
 * `move G 11 G 9`) is the move g11-g9; `remove w H 5 H 9` the row
 * xh5-h9 (ends in either order); `remove wr E 10` the ring xe10; `place wr
 * H 6` the ring h6; `Done` ends a turn; `Resign` ends the game. Boardspace
 * never records a pass: a player with no move is skipped, and the reader
 * puts our `pass` back in. */
#ifndef YINSH_BOARDSPACE_H
#define YINSH_BOARDSPACE_H

#include <stddef.h>
#include <stdio.h>
#include "engine/position.h"
#include "selfplay/records/record.h"
#include "selfplay/records/record_text.h"

enum { BOARDSPACE_TEXT_LEN = 128 };

/* A record read: its header, and the game, every action checked. */
typedef struct BoardspaceGame {
    char player[COLOUR_NB][BOARDSPACE_TEXT_LEN]; /* names, by colour (White, Black) */
    char date[BOARDSPACE_TEXT_LEN];              /* DT as written, "" if none */
    char name[BOARDSPACE_TEXT_LEN];              /* GN, the game's name on the site, "" if none */
    int moves;                                   /* boardspace move numbers read */
    GameRecord rec;                              /* index 0, standard; result none while unfinished */
} BoardspaceGame;

/* Reads one record's text. Every action is checked with the engine; the
 * result is the final position's, or the resigner's opponent with
 * REASON_RESIGN, or RESULT_NONE/REASON_NONE for a game that stops before
 * its end. 0, or -1 with err saying where ("move 24: ...") and why; free
 * g->rec with record_free either way. */
int boardspace_read(const char *text, size_t len, BoardspaceGame *g, char *err);

/* The commands of one action, played by `pos.actor` in `pos`, with each
 * command's text (without the move number) on a line of its own: "" for
 * a pass, which boardspace does not record. Returns out. */
char *boardspace_format(const Position *pos, Action a, char *out, size_t size);

/* Writes one game as boardspace.net writes it (SGF, its date and name,
 * the players, each action's commands; a game lost on a fault ends in
 * the loser's resignation, the nearest boardspace has). 0, or with err:
 * ERR_USAGE for a game that is not standard YINSH, ERR_FAIL for an
 * action that does not replay. */
int boardspace_write(FILE *f, const RecordText *g, char *err);

#endif
