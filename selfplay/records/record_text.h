/* A stored game as its record's text says it, and our record written from
 * it (docs/records.md; `yinsh export`): tag lines, the start YPN, then the
 * actions ten to a line, which engine/notation.h's record reader (`yinsh
 * replay`) reads back. boardspace.h writes the same game as boardspace.net's
 * SGF. */
#ifndef YINSH_RECORD_TEXT_H
#define YINSH_RECORD_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "engine/notation.h"
#include "engine/position.h"

/* The fields of a game's record, as text (selfplay/store/store.h's
 * StoreGameText is this type, filled from the database). */
typedef struct RecordText {
    const char *run, *run_uid, *kind, *version;
    const char *commit;                        /* NULL: not known, the record says "?" */
    const char *variant, *white, *black;       /* as this game was played (a match swaps colours) */
    const char *white_weights, *black_weights; /* content hashes of their weights files; NULL: none */
    const char *result, *reason, *stored_at;
    const char *command; /* the run's command: an import's says the record's date (docs/boardspace.md); NULL: not known */
    uint64_t seed;       /* the run seed */
    uint32_t index;
    int64_t length;      /* the game's stored length in actions */
    int nactions;        /* the actions, in ply order */
    const char *const *actions;
} RecordText;

/* The date a record gives its game: when it was stored, or for an
 * imported game the date of the record it came from (into out, len
 * bytes). */
const char *record_text_date(const RecordText *g, char *out, size_t len);

/* The tags of a game's record (docs/records.md), in the order and
 * spelling our record writes them, those without a value left out; the
 * values point into g and into the numbers and date held here. The one
 * list: `yinsh export` and libyinsh's games (store_game_tags) read it. */
enum { RECORD_TEXT_TAGS = 16, RECORD_NUMBER_LEN = 24 };
typedef struct RecordTextTags {
    int n;
    const char *key[RECORD_TEXT_TAGS], *value[RECORD_TEXT_TAGS];
    char seed[RECORD_NUMBER_LEN], index[RECORD_NUMBER_LEN], length[RECORD_NUMBER_LEN]; /* numbers as text */
    char date[RECORD_VALUE_LEN];
} RecordTextTags;
void record_text_tags(const RecordText *g, RecordTextTags *tags);

/* One action of a record's text, ply its number from 0: ten to a line,
 * as `yinsh randgame` prints them (no line end after the last). */
void record_text_action(FILE *f, int ply, const char *text);

/* Writes the game as our record: the tags in a fixed order (those
 * without a value left out), the start position of its variant and its
 * actions. 0, or ERR_FAIL with err: a variant this yinsh does not play, a
 * value longer than a tag holds. */
int record_text_write(FILE *f, const RecordText *g, char *err);

/* The position of a game's record after its first ply actions (0 to
 * g->nactions), every action checked, so a tampered row is caught instead
 * of drawn: 0; ERR_USAGE when ply is past the game's end ("run 'R' game I
 * has N actions"); else -1 naming the run, the game and the variant or
 * action that is wrong. */
int record_text_position(const RecordText *g, long ply, Position *pos, char *err);

/* The line above a drawing of that position: the run, the game, its
 * variant and players, how far into it, the stored result. */
void record_text_position_head(FILE *f, const RecordText *g, long ply);

#endif
