/* A small JSON writer, the one of the project: behind every command's --json
 * (docs/json.md), the data of the viewer's pages and the board's tables in
 * their board.js (study/viewer/).
 *
 * It writes as it goes, to a FILE, with no tree in memory: the caller opens
 * and closes objects and arrays in order and gives a key for every value
 * inside an object (NULL inside an array). Strings are escaped and, where
 * they are not valid UTF-8, mended (U+FFFD for each bad byte), so the
 * document always parses; numbers are finite or null (NaN and the
 * infinities have no JSON form), and -0 is written 0.
 *
 * Objects and arrays are written one member per line, indented; an inline
 * one (json_open's `inline_` set, and everything inside it) on one line,
 * for short things such as {"value": 0.5, "ci95": [0.4, 0.6]}. */
#ifndef YINSH_JSON_H
#define YINSH_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum { JSON_DEPTH_MAX = 16 };

typedef struct Json {
    FILE *f;
    bool script;                     /* strings as json_string writes them (json_begin_script) */
    int depth;                       /* containers open */
    char close[JSON_DEPTH_MAX];      /* '}' or ']' for each */
    bool inline_[JSON_DEPTH_MAX];    /* written on one line */
    bool any[JSON_DEPTH_MAX];        /* has a member already */
} Json;

/* The document: one top-level object. json_end closes it (and anything
 * still open) and ends the line. */
void json_begin(Json *j, FILE *f);
void json_end(Json *j);
/* json_begin for a document inside an HTML <script> element (a viewer
 * page's data, the board's tables in board.js): every string, keys too,
 * as json_string writes it, so that no text can end the element. */
void json_begin_script(Json *j, FILE *f);
/* The start of a command's --json document (docs/json.md): json_begin,
 * then "command" (cmd), "command_line" ("yinsh " and argv[0..argc-1]
 * quoted for the shell, shell_join; null when out of memory) and
 * "version". */
void json_begin_command(Json *j, FILE *f, const char *cmd, int argc, char **argv);

/* Opens an object ('{') or an array ('['); json_close closes the last one. */
void json_open(Json *j, const char *key, char kind, bool inline_);
void json_close(Json *j);
static inline void json_object(Json *j, const char *key) { json_open(j, key, '{', false); }
static inline void json_array(Json *j, const char *key) { json_open(j, key, '[', false); }

void json_str(Json *j, const char *key, const char *v); /* NULL: null */
void json_int(Json *j, const char *key, int64_t v);
void json_uint(Json *j, const char *key, uint64_t v);
void json_num(Json *j, const char *key, double v);      /* not finite: null */
/* A number with `decimals` digits after the point (0 to 17), for a figure
 * given as rounded as it means (milliseconds, a win probability); not
 * finite: null, and a value that rounds to zero is 0, never -0. */
void json_fixed(Json *j, const char *key, double v, int decimals);
void json_bool(Json *j, const char *key, bool v);
void json_null(Json *j, const char *key);
/* 64-bit values that must come back exact, as strings: a seed in
 * decimal, a hash in 16 hex digits. Many JSON readers (jq, JavaScript)
 * hold numbers as doubles and would round them above 2^53. */
void json_u64_text(Json *j, const char *key, uint64_t v);
void json_hex(Json *j, const char *key, uint64_t v);

/* An estimate with its 95% interval: {"value": mid, "ci95": [lo, hi]};
 * ci95 is null when the interval has no width (nothing to tell it by). */
void json_estimate(Json *j, const char *key, double lo, double mid, double hi);

/* The escaped string with its quotes, as json_str writes it. */
void json_write_string(FILE *f, const char *s);
/* The same, safe inside an HTML <script> element ('<', '>', '&' as \u
 * escapes), as a json_begin_script document writes every string. */
void json_string(FILE *f, const char *s);

#endif
