/* The compact form of a study's games (docs/records.md, "The compact form
 * of a study's games"): every stored row of the chosen runs as one
 * line-oriented text, which `yinsh export --format games` writes and
 * `yinsh import --format games` reads back into a database, the same rows.
 *
 * What a database row has that the text leaves out, the reader gives back
 * from a replay (each action's actor, state and legal count; a game's
 * length, variant, agents and end counts) and the store from the plan (a
 * game's identity). Numbers travel as the text the store makes of them,
 * reals in their shortest exact form (number_real_text), so a row read
 * back is the row written. The writer and the reader are here, beside
 * the other formats; the rows come from and go to the store. */
#ifndef YINSH_RECORDS_GAMES_H
#define YINSH_RECORDS_GAMES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum {
    GAMES_FORMAT_VERSION = 1,
    GAMES_PREFIX = 100,      /* a hash line every this many games of a run's indices */
    GAMES_ACTION_FIELDS = 7, /* time_us, root_visits, chosen_visits, value, root_value, clock_us, full */
    GAMES_NUMBER_LEN = 32,   /* a number's text */
};

/* A column of a run's row: its name and its value as text (NULL: SQL
 * NULL, not written). */
typedef struct GamesColumn {
    const char *name, *value;
} GamesColumn;

/* One action: its text and its stored figures as text, in the order of
 * GAMES_ACTION_FIELDS (NULL: NULL). The reader fills actor, state and
 * legal from its replay; the writer reads none of them. */
typedef struct GamesAction {
    const char *action;
    const char *field[GAMES_ACTION_FIELDS];
    char actor, state; /* 'w' or 'b'; STATE_CHARS */
    int legal;
} GamesAction;

/* One row of a root visit distribution (action_visits). */
typedef struct GamesChild {
    int ply;
    const char *action;
    int64_t visits;
} GamesChild;

/* One stored game. The reader fills the fields below the line from the
 * run's row and the replay. */
typedef struct GamesGame {
    int64_t index;
    const char *seed, *result, *reason, *duration_ms, *stored_at;
    int nactions;
    const GamesAction *actions;
    int nchildren;
    const GamesChild *children; /* by ply, then action */
    /* ---- */
    const char *variant, *white, *black; /* as this game was played (a match's odd games swap) */
    int removed[2], markers[2];          /* rings removed and markers left, White then Black */
} GamesGame;

/* The play hash of one game (record.h), as the store sums it per run:
 * 0 for a game without actions, which the store's join leaves out. */
uint64_t games_game_hash(const GamesGame *g);

/* ---- writing: head, then per run its row, its games in index order with
 * a hash line before each multiple of GAMES_PREFIX, its end; then the
 * count of runs. Each returns nothing: the caller checks the stream. */
void games_write_head(FILE *f);
void games_write_run(FILE *f, const GamesColumn *cols, int ncols);
/* Writes the hash lines due before game g (of a run of `games` games,
 * whose games so far hash to sum, at prefix *next) and the game. */
void games_write_game(FILE *f, const GamesGame *g, uint32_t games, uint64_t sum, uint32_t *next);
/* The hash lines still due, then the run's end: its stored games and their hash. */
void games_write_end(FILE *f, uint32_t games, uint64_t stored, uint64_t sum, uint32_t next);
void games_write_tail(FILE *f, uint64_t runs);

/* ---- reading ----------------------------------------------------------
 *
 * Reads the text from f (name: how messages name it), checking as it
 * goes: the head, each line's form, each run's required columns, every
 * action replayed from the variant's start (legal where it stands), each
 * stored result against the replay's, each prefix hash and each run's
 * count and hash against the games read, and the last line (a file cut
 * short lacks it). Calls on_run when a run's row is complete and on_game
 * for each of its games; their non-zero return stops the reading and is
 * returned (their message in err). Any other fault is ERR_FAIL with a
 * message naming the file, its line, the run and the game. */
typedef struct GamesRows {
    int (*on_run)(void *ctx, const GamesColumn *cols, int ncols, char *err);
    int (*on_game)(void *ctx, const GamesGame *g, char *err);
    void *ctx;
} GamesRows;
typedef struct GamesTotals {
    uint64_t runs, games;
} GamesTotals;
int games_read(FILE *f, const char *name, const GamesRows *r, GamesTotals *totals, char *err);

/* The value of column name among cols, NULL when absent. */
const char *games_column(const GamesColumn *cols, int ncols, const char *name);

#endif
