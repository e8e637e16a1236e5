/* YPN (docs/notation.md §2) and action notation (§3): parse and format. Parsers
 * never abort: they follow the error convention of types.h, returning 0 on
 * success and -1 with a message naming the field and the problem in err
 * (ERR_LEN bytes). point_parse and variant_parse are plain lookups: a
 * caller that needs a message writes its own. */
#ifndef YINSH_NOTATION_H
#define YINSH_NOTATION_H

#include <stdbool.h>
#include <stddef.h>
#include "engine/position.h"

enum { YPN_MAX_LEN = 128, ACTION_MAX_LEN = 16 };

/* The states as YPN writes them (docs/notation.md §2), STATE_P .. STATE_END. */
extern const char STATE_CHARS[STATE_NB + 1];

int ypn_parse(const char *text, Position *pos, char *err);
/* Writes the YPN into out (YPN_MAX_LEN bytes); returns out. */
char *ypn_format(const Position *pos, char *out);

/* Points: "e5" (upper case accepted). */
bool point_parse(const char *text, size_t len, Point *p);
char *point_format(Point p, char *out);

/* Parses action text for the position: checks the form, and that it is legal
 * there; on failure err says which. */
int action_parse(const Position *pos, const char *text, Action *a, char *err);
/* The form alone (e5, e5-e8, pass, xe2-e6, xe5 on the board's points), for
 * an action named apart from the position it was played in (the last
 * action of a drawing); a row's ends come out in canonical order. */
int action_parse_form(const char *text, Action *a, char *err);
/* Writes the canonical text (ACTION_MAX_LEN bytes); returns out. */
char *action_format(Action a, char *out);

/* A game record (docs/notation.md §5; docs/records.md): tag lines
 * `[Name "value"]`, then a start YPN on the first other non-blank line,
 * then actions separated by white space. A stream holds records one after another: a line that
 * begins with '[' after the actions begins the next record.
 *
 * record_play reads a text of one record: it checks every action and
 * leaves the final position in pos and the number of actions in count. On
 * failure err names the action (its number and line) or the position, and
 * pos holds the last position reached before the failure. */
int record_play(const char *text, size_t len, Position *pos, int *count, char *err);

/* A record's tags, in the order read; values unescaped. */
enum { RECORD_TAGS_MAX = 32, RECORD_KEY_LEN = 32, RECORD_VALUE_LEN = 512 };
typedef struct RecordTags {
    int n;
    char key[RECORD_TAGS_MAX][RECORD_KEY_LEN];
    char value[RECORD_TAGS_MAX][RECORD_VALUE_LEN];
} RecordTags;

/* The value of a tag (names match exactly), NULL when the record has none. */
const char *record_tag(const RecordTags *tags, const char *key);
/* Writes the line `[key "value"]` (no line end) into out, escaping the
 * value; its length, or -1 when it does not fit in size bytes. */
int record_tag_format(const char *key, const char *value, char *out, size_t size);

/* Reading a stream of records: record_reader_more says whether another
 * record follows (only white space is left otherwise); record_next reads
 * it, as record_play does, and its tags (a tag given twice is an error).
 * Line numbers in messages count from the start of the stream. After an
 * error the reader cannot go on. */
typedef struct RecordReader {
    const char *text;
    size_t len, at;
    int line;    /* the line of text[at], from 1 */
    int records; /* records read */
} RecordReader;
void record_reader_init(RecordReader *r, const char *text, size_t len);
bool record_reader_more(RecordReader *r);
int record_next(RecordReader *r, RecordTags *tags, Position *pos, int *count, char *err);

/* Checks what a record says of itself against its replay: the tags
 * Variant, Actions, Result and Reason, each when present, against the
 * start position's variant, the number of actions and the result and
 * reason of the final position. 0, or -1 with the first difference in err. */
int record_check(const RecordTags *tags, int variant, int count, int result, int reason, char *err);

const char *result_name(int result);
/* The result a stored or written text names ("white", "black", "draw"),
 * RESULT_NONE for any other text and for NULL. */
int result_parse(const char *text);
const char *reason_name(int reason);
/* A variant's name (docs/notation.md §2): standard or blitz, then the rule
 * options that apply, "+swap" before "+draw-odds" ("blitz+swap"). */
const char *variant_name(int variant);
bool variant_parse(const char *text, int *variant);
/* variant_parse for len bytes of text, with a message that names the part
 * that is wrong (the base game, an unknown option, one given twice). */
int variant_read(const char *text, size_t len, int *variant, char *err);
/* What a message about a bad variant name lists as the choices. */
#define VARIANT_EXPECTED "standard or blitz, optionally +swap and/or +draw-odds, e.g. standard+swap"

#endif
