/* YPN (RULES.md §7) and action notation (§8): parse and format. Parsers
 * never abort: they return false and write a message naming the field and
 * the problem into err (at least NOTATION_ERR_LEN bytes). */
#ifndef YINSH_NOTATION_H
#define YINSH_NOTATION_H

#include <stdbool.h>
#include <stddef.h>
#include "position.h"

enum { NOTATION_ERR_LEN = 256, YPN_MAX_LEN = 128, ACTION_MAX_LEN = 16 };

bool ypn_parse(const char *text, Position *pos, char *err);
/* Writes the YPN into out (YPN_MAX_LEN bytes); returns out. */
char *ypn_format(const Position *pos, char *out);

/* Points: "e5" (upper case accepted). */
bool point_parse(const char *text, size_t len, Point *p);
char *point_format(Point p, char *out);

/* Parses action text for the position: checks the form, and that it is legal
 * there; on failure err says which. */
bool action_parse(const Position *pos, const char *text, Action *a, char *err);
/* Writes the canonical text (ACTION_MAX_LEN bytes); returns out. */
char *action_format(Action a, char *out);

/* A game record (§8): a start YPN on the first non-blank line, then actions
 * separated by white space. Checks every action and leaves the final
 * position in pos and the number of actions in count. On failure err names
 * the action (its number and line) or the position, and pos holds the last
 * position reached before the failure. */
bool record_play(const char *text, size_t len, Position *pos, int *count, char *err);

const char *result_name(int result);
const char *reason_name(int reason);
const char *variant_name(int variant);
bool variant_parse(const char *text, int *variant);

#endif
