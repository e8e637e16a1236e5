/* A stream of game records replayed and checked, as `yinsh replay` does
 * (docs/records.md): every action legal, and the tags Variant, Actions,
 * Result and Reason, where present, as the replay gives them. */
#ifndef YINSH_RECORD_REPLAY_H
#define YINSH_RECORD_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* What a replay read, and where it stopped when it failed. */
typedef struct RecordReplay {
    int records;    /* read, the failing one included */
    int checked;    /* records whose Result tag the replay confirmed */
    bool tagged;    /* some record had tags */
    char where[256]; /* on failure: "record N" or "record N (run R, game I)"; "" for an untagged first record */
} RecordReplay;

/* Replays the records of text one after another, writing into out each
 * one's final YPN and the line `actions N result R reason Q` (`actions N
 * result none (game not over)` for a game not over), and after a stream or
 * tagged records the line of the records checked. 0; or -1 at the first
 * record that fails, with r->where saying which and err why (the engine's
 * "record: " prefix dropped where r->where names the record); what was
 * written before it stays written. */
int record_replay(const char *text, size_t len, FILE *out, RecordReplay *r, char *err);

#endif
