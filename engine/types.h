/* Domain scalars and counts shared by every module of the engine. */
#ifndef YINSH_TYPES_H
#define YINSH_TYPES_H

#include <stdint.h>
#include "engine/base/error.h"

/* Errors follow the one convention of base/error.h (ERR_LEN and all). */

/* A set of points: bit i is point i of the 11x11 embedding (see geometry.h).
 * 121 bits are used; the other 7 are always zero. */
typedef unsigned __int128 Bitboard;

/* Point index: column * 11 + (row - 1), column a = 0 .. k = 10, row 1..11.
 * Ascending index order is exactly the canonical point order
 * (docs/rules.md §1). */
typedef int Point;

/* Zobrist key of a position. */
typedef uint64_t Key;

/* An action (docs/notation.md §3), packed in 32 bits:
 *
 *   bits  0..6   from   point: placement point, move origin, row start
 *                       (lower canonical end), removed ring
 *   bits  7..13  to     point: move destination, row end (higher end)
 *   bits 14..16  kind   ACT_PLACE .. ACT_SWAP
 *
 * Pass and swap have no point (from = to = 0). ACTION_NONE (0) is never a
 * legal action. */
typedef uint32_t Action;

enum { ACT_PLACE = 1, ACT_MOVE = 2, ACT_PASS = 3, ACT_ROW = 4, ACT_RING = 5, ACT_SWAP = 6 };

#define ACTION_SWAP ACTION_MAKE(ACT_SWAP, 0, 0)

#define ACTION_NONE ((Action)0)
#define ACTION_MAKE(kind, from, to) \
    ((Action)(((uint32_t)(kind) << 14) | ((uint32_t)(to) << 7) | (uint32_t)(from)))
#define ACTION_KIND(a) ((int)(((a) >> 14) & 7))
#define ACTION_FROM(a) ((Point)((a) & 127))
#define ACTION_TO(a) ((Point)(((a) >> 7) & 127))

enum { WHITE = 0, BLACK = 1, COLOUR_NB = 2 };

/* The state of a position (docs/rules.md §3); STATE_END is the '-' of YPN. */
enum { STATE_P, STATE_M, STATE_R, STATE_X, STATE_r, STATE_x, STATE_END, STATE_NB };

/* A variant is the base game, standard or blitz (bit 0), and a set of rule
 * options on top (docs/rules.md §9): the swap after White's first ring and
 * draw odds for Black. Standard is 0 and blitz 1, as they always were, so
 * a stored game keeps its meaning; VARIANT_NB bounds every combination. */
enum {
    VARIANT_STANDARD = 0,
    VARIANT_BLITZ = 1,
    VARIANT_SWAP = 2,      /* §9.1: Black may answer White's first ring with swap */
    VARIANT_DRAW_ODDS = 4, /* §9.2: a game the rules call a draw is Black's */
    VARIANT_NB = 8,
};

enum {
    POINT_NB = 85,      /* points on the board */
    SQUARE_NB = 121,    /* points of the 11x11 embedding */
    RINGS_PER_SIDE = 5,
    MARKERS_NB = 51,
    RINGS_TO_WIN = 3,
    /* Largest action list seen is 113 (docs/notation.md §6); the bound for a
     * placement list is 85. 256 leaves a wide margin. */
    MAX_ACTIONS = 256,
};

/* Game results and why the game ended (docs/rules.md §6). */
/* REASON_ILLEGAL_ACTION .. REASON_ENGINE_ERROR: a fault, not the board, ended the game. */
#define REASON_IS_FAULT(r) ((r) >= REASON_ILLEGAL_ACTION && (r) < REASON_NB)

enum { RESULT_NONE = 0, RESULT_WHITE, RESULT_BLACK, RESULT_DRAW, RESULT_NB };
enum {
    REASON_NONE = 0,
    REASON_THREE_RINGS,   /* standard: a player removed a third ring */
    REASON_BLITZ_ROW,     /* blitz: a move made a row */
    REASON_POOL_EMPTY,    /* all 51 markers on the board */
    REASON_NO_MOVES,      /* neither player can move */
    REASON_RESIGN,        /* a player resigned: only in records read from elsewhere
                           * (yinsh import); no position of the rules ends so */
    /* Faults (docs/protocol.md §7, "What the harness does with faults"):
     * the game is lost by the side at fault, whatever the board says. */
    REASON_ILLEGAL_ACTION, /* an engine answered an action that is not legal */
    REASON_ENGINE_DIED,    /* an engine exited or closed its output */
    REASON_NO_ANSWER,      /* an engine did not answer in time (handshake, isready, go) */
    REASON_TIME_FORFEIT,   /* a player's clock fell below -margin, or an action overran movetime */
    REASON_ENGINE_ERROR,   /* an engine refused a position or wrote what is not UYI */
    REASON_NB
};

/* A bound on the actions of one game, for loops that play a game out and
 * arrays that hold one. No legal game comes near it. Every move takes a
 * marker from the pool of 51, and markers go back only with a row, five at
 * a time, each row costing its remover a ring: with 2 + 2 rings removed the
 * next one is a third and ends the game, so at most 5 rows, 76 moves. A
 * pass is always followed by a move of the opponent, so at most 77 passes;
 * with 10 placements and 10 removals, fewer than 200 actions. */
enum { GAME_MAX_ACTIONS = 1000 };

#endif
