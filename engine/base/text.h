/* Text that comes from outside (a record's names, a database's rows):
 * whether it is UTF-8 that prints as what it says. A control character
 * (an ESC starts a terminal's escape sequence, a newline ends a line of
 * shell or a Markdown table's row) or a byte that is no UTF-8 is refused
 * where text comes in (`yinsh import`) and escaped where it goes out (the
 * report, JSON). */
#ifndef YINSH_TEXT_H
#define YINSH_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* The length of the valid UTF-8 sequence at s (1 to 4), or 0 when the
 * bytes there are not one: a stray continuation byte, an overlong form, a
 * surrogate, a code point past U+10FFFF, or a sequence cut short (the
 * terminating NUL stops it). */
int text_utf8_length(const unsigned char *s);

/* Whether c is a control character: below 0x20, or DEL. */
static inline bool text_control(unsigned char c) { return c < 0x20 || c == 0x7f; }

/* The offset in s of its first control character or byte that is not
 * part of valid UTF-8; -1 when it has none. */
long text_bad_byte(const char *s);

/* Ends s before a last UTF-8 sequence that a cut left incomplete (its
 * lead byte without all its continuation bytes): text cut to fit a buffer
 * stays as valid as it was. */
void text_cut(char *s);

/* Values written on one line (a record's tags, the compact games format)
 * escape their bytes one by one: a backslash, a newline, a return and a
 * tab as \\ \n \r \t, another control character as \xHH, the byte
 * `quote` (one the format also escapes: '"' in a tag; 0 for none) as a
 * backslash and itself, and any other byte as itself. text_escape writes
 * c's text into esc (TEXT_ESCAPE_LEN bytes) and returns its length. */
enum { TEXT_ESCAPE_LEN = 5 };
int text_escape(unsigned char c, unsigned char quote, char esc[TEXT_ESCAPE_LEN]);
/* The byte an escape stands for, from s, the len bytes after its
 * backslash; *used: the bytes of s it takes. -1 for an escape that
 * text_escape never writes (a letter unknown, \x without two hex digits,
 * or \x00: no value holds a NUL). */
int text_unescape(const char *s, size_t len, unsigned char quote, int *used);

#endif
