/* YPN (RULES.md §7) and action notation (§8): parse and format. Parsers
 * never abort: they follow the error convention of types.h, returning 0 on
 * success and -1 with a message naming the field and the problem in err
 * (ERR_LEN bytes). point_parse and variant_parse are plain lookups: a
 * caller that needs a message writes its own. */
#ifndef YINSH_NOTATION_H
#define YINSH_NOTATION_H

#include <stdbool.h>
#include <stddef.h>
#include "position.h"

enum { YPN_MAX_LEN = 128, ACTION_MAX_LEN = 16 };

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

/* A game record (§8): a start YPN on the first non-blank line, then actions
 * separated by white space. Checks every action and leaves the final
 * position in pos and the number of actions in count. On failure err names
 * the action (its number and line) or the position, and pos holds the last
 * position reached before the failure. */
int record_play(const char *text, size_t len, Position *pos, int *count, char *err);

const char *result_name(int result);
const char *reason_name(int reason);
const char *variant_name(int variant);
bool variant_parse(const char *text, int *variant);

#endif
