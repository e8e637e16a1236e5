/* Reading stored games one at a time, pulled rather than called back:
 * for readers that hand games out one by one (the C library's games and
 * positions, include/yinsh.h, and through it Python's iterators). A game
 * comes whole: the fields its record's tags say (as `yinsh export` writes
 * them) and every action with the search's figures, as stored.
 *
 * Games are those of a selection (store.h: runs, kind, agent, variant;
 * every game when it is empty), repeats left out as every statistic
 * leaves them out, in run order and then by index, unfinished games
 * (result none) included. */
#ifndef YINSH_STORE_CURSOR_H
#define YINSH_STORE_CURSOR_H

#include "selfplay/store/store.h"

/* One game: valid until the next store_cursor_next or the close. */
typedef struct StoreCursorGame {
    StoreGameText text;         /* its record's fields; text.actions[i] is acts[i].action */
    int64_t id;                 /* game.id: the local row id */
    const StoreActionRow *acts; /* text.nactions rows, in ply order, each with its root children */
    bool visits;                /* its run stored root visit distributions (run.visits, schema 7) */
} StoreCursorGame;

typedef struct StoreCursor StoreCursor;

/* A cursor over the games of sel (NULL: every game) in s, which must stay
 * open while the cursor is; the selection is copied. ERR_NOT_FOUND when a
 * run of the selection does not exist or the database holds no runs. */
int store_cursor_open(Store *s, const StoreSelection *sel, StoreCursor **out, char *err);
/* The next game into *game: 0 with *game NULL after the last one; else
 * ERR_FAIL (a read failed, a stored row is damaged) with the reason. */
int store_cursor_next(StoreCursor *c, const StoreCursorGame **game, char *err);
void store_cursor_close(StoreCursor *c);

/* The tags of a stored game's record (docs/records.md), in the order and
 * spelling `yinsh export` writes them (records/record_text.h's one list; an
 * imported game's Date is its record's); the values point into g and
 * tags. */
typedef RecordTextTags StoreGameTags;
void store_game_tags(const StoreGameText *g, StoreGameTags *tags);

#endif
